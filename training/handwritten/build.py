#!/usr/bin/env python3
"""Build hand-written training data from marked-up sources.

Every file src/<stem>.txt starts with a line `# kind: <kind>` (removed from the
text). Gold values are written inline as `⟦LABEL|value⟧`; the markers are
stripped and the value's offsets recorded (Python str offsets).

The language is taken from the file stem: a `_en_` / `_fr_` part (e.g.
structured_en_01, prose_fr_12). Output: handwritten_train.en.jsonl and
handwritten_train.fr.jsonl next to this script, one JSON object a line:
{"id", "text", "spans", "lang", "kind", "source"}.
"""
import json
import re
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
SRC = HERE / "src"
LABELS = {
    "PERSON", "ADDRESS", "EMAIL", "PHONE", "IBAN", "CREDIT_CARD", "NATIONAL_ID",
    "BIRTH_DATE", "IDENTIFIER", "IP_ADDRESS", "URL", "SECRET",
}
MARK = re.compile(r"⟦([A-Z_]+)\|(.*?)⟧", re.S)
SOURCE = "train-hw-v1"


def lang_of(stem):
    parts = stem.split("_")
    for lang in ("en", "fr"):
        if lang in parts:
            return lang
    raise ValueError(f"{stem}: no _en_ or _fr_ in the file name")


def parse(path):
    raw = path.read_text(encoding="utf-8")
    first, _, body = raw.partition("\n")
    m = re.match(r"#\s*kind:\s*(.+?)\s*$", first)
    if not m:
        raise ValueError(f"{path.name}: first line must be '# kind: <kind>'")
    kind = m.group(1)
    body = body.rstrip("\n")
    out, spans, pos = [], [], 0
    length = 0
    for mm in MARK.finditer(body):
        chunk = body[pos:mm.start()]
        out.append(chunk)
        length += len(chunk)
        label, value = mm.group(1), mm.group(2)
        if label not in LABELS:
            raise ValueError(f"{path.name}: unknown label {label!r}")
        if not value or value != value.strip():
            raise ValueError(f"{path.name}: empty value or outer whitespace in {value!r}")
        spans.append({"start": length, "end": length + len(value), "label": label, "_v": value})
        out.append(value)
        length += len(value)
        pos = mm.end()
    out.append(body[pos:])
    text = "".join(out)
    if "⟦" in text or "⟧" in text:
        raise ValueError(f"{path.name}: unbalanced marker left in the text")
    prev_end = -1
    for s in spans:
        if text[s["start"]:s["end"]] != s.pop("_v"):
            raise AssertionError(f"{path.name}: offset mismatch")
        if s["start"] < prev_end:
            raise AssertionError(f"{path.name}: overlapping spans")
        prev_end = s["end"]
    return {
        "id": f"train-hw-{path.stem}",
        "text": text,
        "spans": spans,
        "lang": lang_of(path.stem),
        "kind": kind,
        "source": SOURCE,
    }


def main():
    docs = {"en": [], "fr": []}
    for path in sorted(SRC.glob("*.txt")):
        doc = parse(path)
        docs[doc["lang"]].append(doc)
    for lang, items in docs.items():
        dest = HERE / f"handwritten_train.{lang}.jsonl"
        with dest.open("w", encoding="utf-8") as fh:
            for doc in items:
                fh.write(json.dumps(doc, ensure_ascii=False) + "\n")
        n = sum(len(d["spans"]) for d in items)
        print(f"{dest.name}: {len(items)} documents, {n} spans", file=sys.stderr)


if __name__ == "__main__":
    main()
