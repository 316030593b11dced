"""The hand-written training documents: the built files are what their marked-up sources say."""

import importlib.util
import json
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent.parent / "training" / "handwritten"
LABELS = {"PERSON", "ADDRESS", "EMAIL", "PHONE", "IBAN", "CREDIT_CARD", "NATIONAL_ID", "BIRTH_DATE",
          "IDENTIFIER", "IP_ADDRESS", "URL", "SECRET"}


def _build_module():
    spec = importlib.util.spec_from_file_location("handwritten_build", HERE / "build.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _built() -> dict[str, dict]:
    docs = {}
    for lang in ("en", "fr"):
        for line in (HERE / f"handwritten_train.{lang}.jsonl").read_text(encoding="utf-8").splitlines():
            doc = json.loads(line)
            docs[doc["id"]] = doc
    return docs


def test_the_built_files_are_their_sources():
    build = _build_module()
    built = _built()
    sources = sorted((HERE / "src").glob("*.txt"))
    assert len(sources) == len(built) == 390
    for path in sources:
        assert build.parse(path) == built[f"train-hw-{path.stem}"], path.name


def test_spans_follow_the_label_set_and_never_overlap():
    for doc in _built().values():
        end = -1
        for span in doc["spans"]:
            value = doc["text"][span["start"]:span["end"]]
            assert span["label"] in LABELS
            assert value and value == value.strip(), (doc["id"], value)
            assert span["start"] >= end, doc["id"]
            end = span["end"]


def test_a_marker_with_an_unknown_label_is_refused(tmp_path):
    build = _build_module()
    bad = tmp_path / "prose_en_99.txt"
    bad.write_text("# kind: note\nCall ⟦NAME|Ada⟧ today.\n", encoding="utf-8")
    with pytest.raises(ValueError, match="unknown label"):
        build.parse(bad)
