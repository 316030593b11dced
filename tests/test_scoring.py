"""Hand-computed cases for the evaluation scorer (no engine needed, except the last test)."""

from __future__ import annotations

import json

import pytest

from alias_engine.errors import InputError
from alias_engine.evaluation.datasets import Annotation, Record, parse_record, read_records
from alias_engine.evaluation.scoring import (
    Counts,
    leaked_in_full,
    readable_parts,
    score_record,
    summarize,
)
from alias_engine.masks import mask_spans
from alias_engine.spans import Span

TEXT = "Call Jean Dupont at 06 12 34 56 78 or mail jean@example.org today."
#       0123456789012345678901234567890123456789012345678901234567890123456
NAME = Annotation(5, 16, "PERSON")
PHONE = Annotation(20, 34, "PHONE")
EMAIL = Annotation(43, 59, "EMAIL")


def record(spans=(NAME, PHONE, EMAIL), text=TEXT, **kw) -> Record:
    return Record(id=kw.pop("id", "r1"), text=text, lang=kw.pop("lang", "fr"), spans=tuple(spans), **kw)


def score(rec: Record, preds, labels=None):
    spans = [Span(s, e, label) for s, e, label in preds]
    masked = mask_spans(rec.text, spans).text
    return score_record(rec, spans, masked) if labels is None else score_record(rec, spans, masked, labels)


def test_values_under_test():
    assert TEXT[NAME.start:NAME.end] == "Jean Dupont"
    assert TEXT[PHONE.start:PHONE.end] == "06 12 34 56 78"
    assert TEXT[EMAIL.start:EMAIL.end] == "jean@example.org"


def test_exact_match_everything():
    s = score(record(), [(5, 16, "PERSON"), (20, 34, "PHONE"), (43, 59, "EMAIL")])
    assert s.total == Counts(tp=3, pred_overlap=3, gold_overlap=3)
    assert (s.total.precision, s.total.recall, s.total.f1) == (1.0, 1.0, 1.0)
    assert s.total.relaxed_f1 == 1.0
    assert s.total.full_leak_rate == 0.0 and s.total.partial_leak_rate == 0.0
    assert s.missed == () and s.spurious == ()


def test_boundary_off_by_one_is_wrong_strictly_but_right_relaxed():
    # "Jean Dupon" (end one short): strict FP + FN, relaxed hit, the "t" alone is not a readable part
    s = score(record(spans=[NAME]), [(5, 15, "PERSON")])
    c = s.counts["PERSON"]
    assert (c.tp, c.fp, c.fn) == (0, 1, 1)
    assert (c.precision, c.recall, c.f1) == (0.0, 0.0, 0.0)
    assert (c.relaxed_precision, c.relaxed_recall, c.relaxed_f1) == (1.0, 1.0, 1.0)
    assert (c.leak_full, c.leak_partial) == (0, 0)
    assert s.missed == (NAME,)
    assert s.spurious[0].gold == NAME


def test_predictions_by_source():
    rec = record()
    spans = [Span(5, 16, "PERSON", 0.9, "model"), Span(20, 34, "PHONE", 1.0, "validator"),
             Span(35, 37, "PERSON", 0.6, "model")]
    s = score_record(rec, spans, mask_spans(rec.text, spans).text)
    assert s.by_source == {"model": Counts(tp=1, fp=1), "validator": Counts(tp=1)}
    assert [(sp.span, sp.source) for sp in s.spurious] == [(Annotation(35, 37, "PERSON"), "model")]
    assert summarize([s, s]).to_dict()["by_source"]["model"] == {"tp": 2, "fp": 2, "precision": 0.5}


def test_label_mismatch_counts_for_both_labels():
    s = score(record(spans=[PHONE]), [(20, 34, "NATIONAL_ID")])
    assert s.counts["PHONE"] == Counts(fn=1)
    assert s.counts["NATIONAL_ID"] == Counts(fp=1)
    assert s.total.f1 == 0.0
    assert s.total.relaxed_f1 == 0.0
    # masked all the same: nothing leaks
    assert s.total.leak_full == 0 and s.total.leak_partial == 0


def test_partial_cover_leaks_a_part():
    # only "Jean" masked: "Dupont" stays readable at its place
    s = score(record(spans=[NAME]), [(5, 9, "PERSON")])
    c = s.counts["PERSON"]
    assert (c.tp, c.fp, c.fn, c.pred_overlap, c.gold_overlap) == (0, 1, 1, 1, 1)
    assert (c.leak_full, c.leak_partial) == (0, 1)
    assert c.relaxed_precision == 1.0 and c.relaxed_recall == 1.0


def test_two_predictions_covering_one_gold():
    # "06 12 34" and "56 78" masked separately: relaxed precision counts both, recall the one gold
    s = score(record(spans=[PHONE]), [(20, 28, "PHONE"), (29, 34, "PHONE")])
    c = s.counts["PHONE"]
    assert (c.tp, c.fp, c.fn, c.pred_overlap, c.gold_overlap) == (0, 2, 1, 2, 1)
    assert c.relaxed_f1 == 1.0
    assert c.leak_partial == 0


def test_miss_leaks_in_full():
    s = score(record(), [(5, 16, "PERSON"), (20, 34, "PHONE")])
    assert s.counts["EMAIL"] == Counts(fn=1, leak_full=1, leak_partial=1)
    assert s.total.full_leak_rate == pytest.approx(1 / 3)
    assert s.missed == (EMAIL,)


def test_ignored_span_is_neither_right_nor_wrong():
    text = "Jean works at Acme Corp in Paris."
    rec = record(spans=[Annotation(0, 4, "PERSON"), Annotation(27, 32, "DATE")], text=text,
                 ignored_spans=(Annotation(14, 23, "ORGANIZATION"),))
    s = score(rec, [(0, 4, "PERSON"), (14, 18, "PERSON"), (27, 32, "BIRTH_DATE"), (5, 10, "PERSON")])
    # (14,18) only overlaps ORGANIZATION, (27,32) only a gold label outside LABELS: both ignored;
    # (5,10) overlaps nothing: a false positive
    assert s.ignored_predictions == 2
    assert s.counts["PERSON"] == Counts(tp=1, fp=1, pred_overlap=1, gold_overlap=1)
    assert "BIRTH_DATE" not in s.counts
    assert s.ignored_gold == {"DATE": 1}
    assert [sp.span for sp in s.spurious] == [Annotation(5, 10, "PERSON")]


def test_prediction_over_gold_and_ignored_span_is_counted():
    text = "Jean Acme"
    rec = record(spans=[Annotation(0, 4, "PERSON")], text=text, ignored_spans=(Annotation(5, 9, "ORGANIZATION"),))
    s = score(rec, [(0, 9, "PERSON")])
    assert s.ignored_predictions == 0
    assert s.counts["PERSON"] == Counts(fp=1, fn=1, pred_overlap=1, gold_overlap=1)


def test_empty_record():
    s = score(record(spans=[], text=""), [])
    assert s.total == Counts()
    assert s.total.precision is None and s.total.recall is None and s.total.f1 is None
    assert s.total.relaxed_f1 is None and s.total.full_leak_rate is None


def test_negative_record_with_and_without_detection():
    rec = record(spans=[], text="FR7630006000011234567890189", negative=True, id="neg")
    hit = score(rec, [(0, 27, "IBAN")])
    clean = score(rec, [])
    assert hit.negative_hit and not clean.negative_hit
    assert hit.counts["IBAN"] == Counts(fp=1)
    summary = summarize([hit, clean])
    assert summary.negative_records == 2
    assert summary.negative_hits == ("neg",)
    assert summary.micro.precision == 0.0 and summary.micro.recall is None


def test_hard_negative_masked_is_reported():
    rec = record(spans=[NAME], hard_negative_spans=(Annotation(60, 65, "DATE"),))
    s = score(rec, [(5, 16, "PERSON"), (60, 65, "BIRTH_DATE")])
    assert s.hard_negatives == 1
    assert s.hard_negatives_masked == (Annotation(60, 65, "DATE"),)
    assert s.counts["BIRTH_DATE"] == Counts(fp=1)


def test_out_of_scope_labels_are_reported_apart():
    s = score(record(), [(5, 16, "PERSON")], labels={"PERSON"})
    assert set(s.counts) == {"PERSON"}
    assert s.counts["PERSON"].f1 == 1.0
    assert s.out_of_scope["PHONE"] == Counts(fn=1, leak_full=1, leak_partial=1)
    assert s.out_of_scope["EMAIL"] == Counts(fn=1, leak_full=1, leak_partial=1)
    summary = summarize([s]).to_dict()
    assert summary["out_of_scope"] == {"PHONE": {"gold": 1, "leak_full": 1, "leak_partial": 1},
                                       "EMAIL": {"gold": 1, "leak_full": 1, "leak_partial": 1}}
    assert summary["micro"]["gold"] == 1


def test_summary_per_label_and_language():
    en = Record("e", "Mail bob@x.org", "en", (Annotation(5, 14, "EMAIL"),))
    scores = [score(record(), [(5, 16, "PERSON"), (20, 33, "PHONE")]), score(en, [(5, 14, "EMAIL")])]
    summary = summarize(scores)
    assert list(summary.per_label) == ["PERSON", "EMAIL", "PHONE"]  # LABELS order
    assert summary.per_label["EMAIL"] == Counts(tp=1, fn=1, pred_overlap=1, gold_overlap=1, leak_full=1, leak_partial=1)
    assert summary.per_lang["en"] == Counts(tp=1, pred_overlap=1, gold_overlap=1)
    assert summary.per_lang["fr"].tp == 1 and summary.per_lang["fr"].fn == 2
    micro = summary.micro
    assert (micro.tp, micro.fp, micro.fn) == (2, 1, 2)
    assert micro.precision == pytest.approx(2 / 3)
    assert micro.recall == pytest.approx(2 / 4)
    assert micro.f1 == pytest.approx(4 / 7)


def test_leaked_in_full_is_whitespace_normalised_and_word_bounded():
    assert leaked_in_full("12 rue\n  des Lilas", "habite au 12 rue des Lilas.")
    assert not leaked_in_full("Dan", "Danger ahead")
    assert leaked_in_full("Dan", "ask Dan.")
    assert not leaked_in_full("   ", "anything")


def test_readable_parts():
    text = "tel +33 6 12 34 56 78"
    gold = Annotation(4, 21, "PHONE")
    assert readable_parts(text, gold, []) == ["33", "12", "34", "56", "78"]
    assert readable_parts(text, gold, [Annotation(4, 19, "PHONE")]) == ["78"]
    assert readable_parts(text, gold, [Annotation(4, 20, "PHONE")]) == []
    assert readable_parts("Li Wei", Annotation(0, 6, "PERSON"), [Annotation(3, 6, "PERSON")]) == []


def test_parse_record_and_errors(tmp_path):
    line = json.dumps({"text": "Bob", "spans": [{"start": 0, "end": 3, "label": "PERSON"}], "lang": "en",
                       "negative": False, "ignored_spans": [], "extra": 1})
    rec = parse_record(line, default_id="x")
    assert rec == Record("x", "Bob", "en", (Annotation(0, 3, "PERSON"),))
    path = tmp_path / "d.jsonl"
    path.write_text(line + "\n\n" + '{"text": "a", "spans": [{"start": 0, "end": 5, "label": "X"}]}\n')
    with pytest.raises(InputError, match=r"d.jsonl:3: 'spans' has invalid offsets"):
        read_records(path)
    path.write_text("{not json\n")
    with pytest.raises(InputError, match=r"d.jsonl:1: malformed JSON"):
        read_records(path)
    path.write_bytes(b'{"text": "\xff"}\n')
    with pytest.raises(InputError, match="not UTF-8"):
        read_records(path)
    with pytest.raises(InputError, match="cannot read"):
        read_records(tmp_path / "missing.jsonl")


def test_evaluate_with_an_oracle_and_an_empty_predictor():
    from alias_engine.evaluation.evaluate import evaluate, format_errors, format_report

    records = [record(), record(spans=[], text="Rien ici.", id="r2", negative=True)]
    gold = {r.text: [Span(g.start, g.end, g.label) for g in r.spans] for r in records}
    oracle = evaluate(records, lambda texts, lang: [gold[t] for t in texts])
    assert oracle.summary.micro == Counts(tp=3, pred_overlap=3, gold_overlap=3)
    assert oracle.masked[0] == "Call [PERSON_1] at [PHONE_1] or mail [EMAIL_1] today."
    empty = evaluate(records, lambda texts, lang: [[] for _ in texts], labels={"EMAIL", "PHONE"})
    assert empty.summary.micro == Counts(fn=2, leak_full=2, leak_partial=2)
    assert empty.summary.out_of_scope["PERSON"].gold == 1
    report = format_report(empty)
    assert "EMAIL" in report and "not scored, labels not configured: PERSON 1 gold" in report
    assert "EMAIL missed (1, showing 1)" in format_errors(empty, 1)


def test_evaluate_end_to_end_through_the_engine_rules_only(tmp_path):
    from alias_engine import Engine
    from alias_engine.cli import main
    from alias_engine.evaluation.evaluate import engine_predict, evaluate

    data = tmp_path / "dev.jsonl"
    lines = [
        {"id": "a", "text": TEXT, "lang": "fr", "spans": [{"start": g.start, "end": g.end, "label": g.label}
                                                          for g in (NAME, PHONE, EMAIL)]},
        {"id": "b", "text": "Write to bob.smith@example.com or 10.0.0.7 today.", "lang": "en",
         "spans": [{"start": 9, "end": 30, "label": "EMAIL"}, {"start": 34, "end": 42, "label": "IP_ADDRESS"}]},
        {"id": "c", "text": "Nothing personal here.", "lang": "en", "spans": [], "negative": True},
    ]
    data.write_text("".join(json.dumps(line) + "\n" for line in lines), encoding="utf-8")
    engine = Engine(use_model=False)
    records = read_records(data)
    result = evaluate(records, engine_predict(engine), labels=engine.labels, batch_size=2)
    for rec, spans, masked in zip(records, result.predictions, result.masked):
        assert list(spans) == engine.detect(rec.text, rec.lang)
        assert masked == engine.mask(rec.text, rec.lang).text
    micro = result.summary.micro
    assert micro.gold == 5 and micro.tp + micro.fn == 5
    assert micro.predicted == sum(len(p) for p in result.predictions) - result.summary.ignored_predictions
    assert result.summary.per_lang.keys() == {"fr", "en"}

    out, preds = tmp_path / "eval.json", tmp_path / "pred.jsonl"
    assert main(["eval", str(data), "--rules-only", "--json", str(out), "--save-predictions", str(preds),
                 "--errors", "2"]) == 0
    figures = json.loads(out.read_text())
    assert figures["evaluations"][0]["micro"]["gold"] == 5
    assert figures["evaluations"][0]["micro"]["tp"] == micro.tp
    assert figures["engine"]["use_model"] is False
    saved = [json.loads(line) for line in preds.read_text().splitlines()]
    assert [s["id"] for s in saved] == ["a", "b", "c"]
    assert saved[1]["masked"] == result.masked[1]


def test_eval_command_bad_input_is_one_line_error(tmp_path, capsys):
    from alias_engine.cli import main

    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"text": 3}\n')
    assert main(["eval", str(bad), "--rules-only"]) == 1
    assert "bad.jsonl:1: 'text' must be a string" in capsys.readouterr().err
