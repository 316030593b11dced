import pytest
from hypothesis import given
from hypothesis import strategies as st

from alias_engine.detectors.windows import plan_windows


@st.composite
def sizes(draw):
    size = draw(st.integers(1, 40))
    overlap = draw(st.integers(0, size - 1))
    return draw(st.integers(0, 400)), size, overlap


@given(sizes())
def test_keep_ranges_partition_the_tokens_and_pick_the_most_central_window(args):
    n, size, overlap = args
    windows = plan_windows(n, size, overlap)
    assert [t for w in windows for t in range(w.keep_start, w.keep_end)] == list(range(n))
    for w in windows:
        assert 0 <= w.start <= w.keep_start <= w.keep_end <= w.end <= n
        assert w.end - w.start == min(size, n)
    for a, b in zip(windows, windows[1:]):
        assert a.end - b.start >= overlap
    for t in range(n):
        depth = [min(t - w.start, w.end - 1 - t) for w in windows if w.start <= t < w.end]
        owner = next(w for w in windows if w.keep_start <= t < w.keep_end)
        assert min(t - owner.start, owner.end - 1 - t) == max(depth)


def test_real_sizes():
    windows = plan_windows(2000)
    assert [(w.start, w.end) for w in windows] == [(0, 510), (382, 892), (764, 1274), (1146, 1656), (1490, 2000)]
    assert windows[0].keep_end == windows[1].keep_start == (510 + 382) // 2
    assert plan_windows(510) == plan_windows(510, 510, 0)
    assert plan_windows(0) == []


def test_bad_sizes():
    with pytest.raises(ValueError):
        plan_windows(10, 4, 4)
    with pytest.raises(ValueError):
        plan_windows(10, 0, 0)
