"""Read evaluation records in the JSONL format of LABELS.md.

One JSON object a line: `text`, `spans` (`start`, `end`, `label`), `lang`, and
the optional keys `id`, `ignored_spans` (regions where a prediction is neither
right nor wrong), `hard_negative_spans` (values that must not be masked) and
`negative` (a record that holds no personal data at all).
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from ..errors import InputError


@dataclass(frozen=True, order=True)
class Annotation:
    """A gold span: `[start, end)` in characters of the record's text."""

    start: int
    end: int
    label: str


@dataclass(frozen=True)
class Record:
    id: str
    text: str
    lang: str
    spans: tuple[Annotation, ...]
    ignored_spans: tuple[Annotation, ...] = ()
    hard_negative_spans: tuple[Annotation, ...] = ()
    negative: bool = False


def read_records(path: str | Path) -> list[Record]:
    """All records of a JSONL file; a malformed line raises InputError naming it."""
    return list(iter_records(path))


def iter_records(path: str | Path) -> Iterator[Record]:
    path = Path(path)
    try:
        handle = path.open(encoding="utf-8")
    except OSError as exc:
        raise InputError(f"cannot read {path}: {exc.strerror or exc}") from None
    with handle:
        lineno = 0
        try:
            for lineno, line in enumerate(handle, 1):  # noqa: B007 - lineno is used in the error below
                if line.strip():
                    yield parse_record(line, default_id=f"{path.name}:{lineno}")
        except UnicodeDecodeError:
            raise InputError(f"{path}:{lineno + 1}: not UTF-8") from None
        except InputError as exc:
            raise InputError(f"{path}:{lineno}: {exc}") from None


def parse_record(line: str, default_id: str = "") -> Record:
    try:
        obj = json.loads(line)
    except json.JSONDecodeError as exc:
        raise InputError(f"malformed JSON ({exc.msg})") from None
    if not isinstance(obj, dict):
        raise InputError("a record must be a JSON object")
    text = obj.get("text")
    if not isinstance(text, str):
        raise InputError("'text' must be a string")
    lang = obj.get("lang") or "und"
    if not isinstance(lang, str):
        raise InputError("'lang' must be a string")
    return Record(
        id=str(obj.get("id", default_id)),
        text=text,
        lang=lang,
        spans=_annotations(obj, "spans", text),
        ignored_spans=_annotations(obj, "ignored_spans", text),
        hard_negative_spans=_annotations(obj, "hard_negative_spans", text),
        negative=bool(obj.get("negative", False)),
    )


def _annotations(obj: dict, key: str, text: str) -> tuple[Annotation, ...]:
    items = obj.get(key) or []
    if not isinstance(items, list):
        raise InputError(f"'{key}' must be a list")
    out = []
    for item in items:
        if not isinstance(item, dict):
            raise InputError(f"each of '{key}' must be an object")
        start, end, label = item.get("start"), item.get("end"), item.get("label", "")
        if not (isinstance(start, int) and isinstance(end, int) and 0 <= start < end <= len(text)):
            raise InputError(f"'{key}' has invalid offsets [{start}, {end}) for a text of {len(text)} characters")
        if not isinstance(label, str):
            raise InputError(f"'{key}' label must be a string")
        out.append(Annotation(start, end, label))
    return tuple(sorted(out))
