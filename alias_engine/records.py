"""JSONL records: detect and mask a batch of them, and what leaves with the masked text.

`alias-engine mask --jsonl` and `alias-engine batch` both go through here, so a
record masks the same in both.
"""

from __future__ import annotations

import sys

from .engine import Engine
from .masks import MaskResult, mask_spans


def _record_lang(record: dict) -> str | None:
    lang = record.get("lang")
    return lang if lang in ("fr", "en") else None


def _detect_batch(engine: Engine, records: list[dict], text_field: str = "text") -> list:
    langs = {_record_lang(r) for r in records}
    if len(langs) == 1:
        return engine.detect_many([r[text_field] for r in records], lang=langs.pop())
    return [engine.detect(r[text_field], lang=_record_lang(r)) for r in records]


def _masked_record(record: dict, text: str, keep: frozenset[str], dropped: set[str], text_field: str = "text") -> dict:
    """Only the text (masked) and the fields the user chose to keep go out: the others may
    hold personal data that was not analysed."""
    out = {k: v for k, v in record.items() if k in keep and k != text_field}
    dropped.update(k for k in record if k not in keep and k != text_field)
    out[text_field] = text
    return out


def mask_records(engine: Engine, records: list[dict], keep: frozenset[str], dropped: set[str], *,
                 text_field: str = "text", number=None) -> list[tuple[dict, MaskResult]]:
    """One model batch of JSONL records, masked: (output record, mask result) for each, in order.
    `mask --jsonl` and `batch` both go through here, so a record masks the same in both."""
    masked = []
    for record, spans in zip(records, _detect_batch(engine, records, text_field)):
        result = mask_spans(record[text_field], spans, engine.placeholder, number, engine.rules.labels)
        masked.append((_masked_record(record, result.text, keep, dropped, text_field), result))
    return masked


def _report_dropped(dropped: set[str]) -> None:
    if dropped:
        print(f"fields not masked, left out of the output: {', '.join(sorted(dropped))} "
              "(keep them as they are with --keep-fields)", file=sys.stderr)


def field_set(value: str) -> frozenset[str]:
    return frozenset(name.strip() for name in value.split(",") if name.strip())
