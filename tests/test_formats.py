"""`alias-engine detect --format json|hf|presidio` and the formatters behind it."""

from __future__ import annotations

import doctest
import json

import pytest
from test_cli import TEXT, run

from alias_engine import formats


def test_doctests_run():
    assert doctest.testmod(formats).failed == 0


@pytest.mark.parametrize("jsonl", [False, True])
def test_the_three_formats_give_the_same_spans(tmp_path, jsonl):
    f = tmp_path / ("in.jsonl" if jsonl else "in.txt")
    f.write_text(json.dumps({"id": 1, "text": TEXT}) + "\n" if jsonl else TEXT, encoding="utf-8")
    outputs = {}
    for fmt in ("json", "hf", "presidio"):
        out = run("detect", str(f), "--rules-only", "--format", fmt, *(["--jsonl"] if jsonl else []))
        assert out.returncode == 0, out.stderr
        data = json.loads(out.stdout)
        outputs[fmt] = data["spans"] if jsonl else data
    as_json = [(s["start"], s["end"], s["label"], s["score"]) for s in outputs["json"]]
    assert len(as_json) >= 4
    assert [(s["start"], s["end"], s["entity_group"], s["score"]) for s in outputs["hf"]] == as_json
    assert all(s["word"] == TEXT[s["start"]:s["end"]] for s in outputs["hf"])
    from alias_engine.adapters.presidio_entities import presidio_entity

    assert [(s["start"], s["end"], s["entity_type"], s["score"]) for s in outputs["presidio"]] == [
        (start, end, presidio_entity(label, TEXT[start:end]), score) for start, end, label, score in as_json]
    assert set(outputs["presidio"][0]) == {"entity_type", "start", "end", "score"}


def test_an_unknown_format_is_refused(tmp_path):
    out = run("detect", "--format", "spacy", stdin=b"x")
    assert out.returncode == 2 and b"invalid choice" in out.stderr
    with pytest.raises(ValueError):
        formats.format_spans([], "", "xml")
