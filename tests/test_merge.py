import random

from hypothesis import given
from hypothesis import strategies as st

from alias_engine.labels import LABELS
from alias_engine.merge import merge_spans
from alias_engine.spans import SOURCES, Span, SpanIndex


def test_same_label_overlapping_spans_become_their_union():
    merged = merge_spans([Span(0, 5, "BIRTH_DATE", 0.7, "model"), Span(3, 12, "BIRTH_DATE", 0.9, "keyword")])
    assert merged == [Span(0, 12, "BIRTH_DATE", 0.9, "keyword")]


def test_validator_boundaries_stand_against_a_weaker_span_of_the_same_label():
    text = "ip = \\|106.31.73.20| or call 07700 063 966-Fax"
    ip = Span(7, 19, "IP_ADDRESS", 0.99, "validator")
    phone = Span(29, 42, "PHONE", 0.9, "validator")
    model_ip = Span(5, 19, "IP_ADDRESS", 0.7, "model")
    model_phone = Span(32, 46, "PHONE", 0.8, "model")
    assert text[ip.start:ip.end] == "106.31.73.20" and text[phone.start:phone.end] == "07700 063 966"
    # What the weaker span adds is kept only where it holds letters or digits (fail closed).
    assert merge_spans([model_ip, ip, phone, model_phone], text) == [
        ip, phone, Span(43, 46, "PHONE", 0.8, "model")]


def test_union_is_unverified_if_any_part_is():
    merged = merge_spans([Span(0, 5, "IBAN", 0.9, "keyword", verified=False), Span(2, 8, "IBAN", 0.7, "model")])
    assert merged == [Span(0, 8, "IBAN", 0.9, "keyword", verified=False)]


def test_validator_beats_model_of_another_label():
    merged = merge_spans([Span(10, 30, "PHONE", 0.99, "model"), Span(10, 37, "IBAN", 0.95, "validator")])
    assert merged == [Span(10, 37, "IBAN", 0.95, "validator")]


def test_same_priority_then_score_then_length():
    a = Span(0, 10, "PERSON", 0.8, "model")
    b = Span(5, 20, "ADDRESS", 0.9, "model")
    assert merge_spans([a, b]) == [Span(0, 5, "PERSON", 0.8, "model"), b]
    c = Span(5, 12, "ADDRESS", 0.8, "model")
    assert merge_spans([a, c]) == [a, Span(10, 12, "ADDRESS", 0.8, "model")]
    d = Span(2, 8, "ADDRESS", 0.8, "model")
    assert merge_spans([a, d]) == [a]


def test_adjacent_spans_of_different_labels_stay_separate():
    person = Span(0, 11, "PERSON", 0.9, "model")
    ident = Span(12, 20, "IDENTIFIER", 0.9, "keyword")
    assert merge_spans([ident, person]) == [person, ident]


def test_a_chain_of_overlaps_keeps_winners_and_the_loser_remainder():
    spans = [Span(0, 10, "EMAIL", 0.99, "validator"), Span(8, 16, "PERSON", 0.5, "model"),
             Span(14, 20, "PHONE", 0.9, "validator")]
    assert merge_spans(spans) == [spans[0], Span(10, 14, "PERSON", 0.5, "model"), spans[2]]


def test_loser_remainder_is_trimmed_with_text_and_dropped_when_empty():
    text = "a@b.fr, Jean"
    email = Span(0, 6, "EMAIL", 0.99, "validator")
    assert merge_spans([email, Span(0, 12, "PERSON", 0.6, "model")], text) == [
        email, Span(8, 12, "PERSON", 0.6, "model")]
    assert merge_spans([email, Span(0, 7, "PERSON", 0.6, "model")], text) == [email]


def test_empty():
    assert merge_spans([]) == []


span_strategy = st.builds(
    lambda start, length, label, score, source: Span(start, start + length, label, score, source),
    st.integers(0, 60), st.integers(1, 15), st.sampled_from(LABELS[:4]),
    st.floats(0, 1), st.sampled_from(SOURCES),
)


@given(st.lists(span_strategy, max_size=25))
def test_output_is_sorted_non_overlapping_deterministic_and_covered(spans):
    merged = merge_spans(spans)
    for a, b in zip(merged, merged[1:]):
        assert a.end <= b.start
    assert merge_spans(list(reversed(spans))) == merged
    # Every output character was claimed by some candidate of the same label.
    for out in merged:
        for pos in range(out.start, out.end):
            assert any(s.label == out.label and s.start <= pos < s.end for s in spans)
    # Every character some candidate claimed is still covered (a conflict never unmasks).
    for s in spans:
        for pos in range(s.start, s.end):
            assert any(o.start <= pos < o.end for o in merged)


def test_span_index_finds_what_a_scan_finds_long_spans_included():
    rnd = random.Random(7)
    spans = []
    for _ in range(300):
        start = rnd.randrange(0, 2000)
        spans.append(Span(start, start + rnd.choice((1, 3, 10, 400)), "PERSON"))
    index = SpanIndex(spans)
    for _ in range(300):
        start = rnd.randrange(0, 2100)
        end = start + rnd.randrange(1, 50)
        scanned = sorted((s for s in spans if s.start < end and start < s.end), key=lambda s: (s.start, s.end))
        assert index.overlapping(start, end) == scanned
    assert not SpanIndex([]) and SpanIndex([]).overlapping(0, 10) == []
