"""benchmarks/decide_model.py applies a decision rule written before training: a candidate ships only
by saving values readable beyond the tie, at a price in F1, and (with guard sets) where the guard
sets do not say the opposite."""

from __future__ import annotations

import doctest
from pathlib import Path

import pytest
from test_pooled_evals import load_benchmark, write_eval


def _module():
    return load_benchmark("decide_model")


def _model(root: Path, model: str, fp: int, readable: int, guard_readable: int | None = None) -> None:
    for backend in ("", "_ov"):
        write_eval(root, f"{model}_ho{backend}", "h", gold=1000, tp=1000 - readable, fp=fp, readable=readable)
        if guard_readable is not None:
            write_eval(root, f"{model}_dev{backend}", "d", gold=500, tp=500 - guard_readable, fp=20, readable=guard_readable)


def _decide(root: Path, *models: str, guard: bool = True) -> str:
    argv = [*models, "--sets", "h", "--tags", "{m}_ho {m}_ho_ov", "--tie", "20", "--price", "0.006",
            "--root", str(root)]
    if guard:
        argv += ["--guard-sets", "d", "--guard-tags", "{m}_dev {m}_dev_ov"]
    return argv


def test_doctests():
    assert doctest.testmod(_module()).failed == 0


def test_fewest_readable_among_passing_candidates_ships(tmp_path, capsys):
    decide = _module()
    _model(tmp_path, "old", fp=50, readable=40, guard_readable=10)
    _model(tmp_path, "tie", fp=50, readable=31, guard_readable=10)  # 18 fewer summed: within the tie
    _model(tmp_path, "good", fp=52, readable=28, guard_readable=12)  # 24 fewer, F1 about level
    _model(tmp_path, "best", fp=55, readable=25, guard_readable=11)  # 30 fewer
    assert decide.main(_decide(tmp_path, "old", "tie", "good", "best")) == 0
    out = capsys.readouterr().out
    assert "tie:" in out and "18 fewer readable" in out and "fails 1-2" in out
    good = next(line for line in out.splitlines() if line.startswith("good:"))
    assert "24 fewer readable" in good and good.endswith("passes 1-2, passes guard 1 (4 more readable; F1 -0.20, -0.20)")
    assert out.strip().endswith("ships: best")


def test_the_guard_sets_can_stop_a_candidate_and_an_unscored_one_cannot_ship(tmp_path, capsys):
    decide = _module()
    _model(tmp_path, "old", fp=50, readable=40, guard_readable=10)
    _model(tmp_path, "leaky", fp=50, readable=25, guard_readable=20)  # 20 more readable on the guard sets
    _model(tmp_path, "unscored", fp=50, readable=25)
    assert decide.main(_decide(tmp_path, "old", "leaky", "unscored")) == 0
    out = capsys.readouterr().out
    assert "fails guard 1 (20 more readable" in out and "fails guard 1 (not scored on the guard sets)" in out
    assert out.strip().endswith("ships: old (no candidate passes)")


def test_a_second_guard_on_other_sets_can_stop_a_candidate_the_first_lets_through(tmp_path, capsys):
    decide = _module()
    _model(tmp_path, "old", fp=50, readable=40, guard_readable=10)
    _model(tmp_path, "new", fp=50, readable=25, guard_readable=10)
    for backend in ("", "_ov"):
        write_eval(tmp_path, f"old_rest{backend}", "r", gold=2000, tp=1900, fp=30, readable=50)
        write_eval(tmp_path, f"new_rest{backend}", "r", gold=2000, tp=1890, fp=30, readable=61)  # 22 more summed
    argv = _decide(tmp_path, "old", "new") + ["--guard-tie", "13", "--guard-sets", "r",
                                              "--guard-tags", "{m}_rest {m}_rest_ov", "--guard-tie", "20"]
    assert decide.main(argv) == 0
    out = capsys.readouterr().out
    assert "passes guard 1 (0 more readable" in out and "fails guard 2 (22 more readable" in out
    assert out.strip().endswith("ships: old (no candidate passes)")
    with pytest.raises(SystemExit):
        decide.main(_decide(tmp_path, "old", "new") + ["--guard-tie", "13", "--guard-tie", "20"])


def test_a_costly_candidate_fails_on_price(tmp_path, capsys):
    decide = _module()
    _model(tmp_path, "old", fp=50, readable=40)
    _model(tmp_path, "noisy", fp=200, readable=25)  # 30 fewer readable for 150 more false positives a backend
    assert decide.main(_decide(tmp_path, "old", "noisy", guard=False)) == 0
    out = capsys.readouterr().out
    assert "(allowed -0.18) -> fails 1-2" in out and out.strip().endswith("ships: old (no candidate passes)")


def test_a_missing_set_is_a_clear_error(tmp_path):
    decide = _module()
    _model(tmp_path, "old", fp=50, readable=40)
    with pytest.raises(SystemExit, match="no h.json under"):
        decide.main(_decide(tmp_path, "old", "absent", guard=False))
