"""Spans in the formats other tools read.

- "json" (default): `Span.to_dict()`, `{"start", "end", "label", "score", "source"}`.
- "hf": what a Hugging Face token-classification pipeline with aggregation gives,
  `{"entity_group", "score", "word", "start", "end"}`.
- "presidio": a Presidio analyser result, `{"entity_type", "start", "end", "score"}`, with
  Presidio's entity names (EMAIL_ADDRESS, PHONE_NUMBER, FR_NIR...: the table of
  `adapters/presidio_entities.py`, the one the Presidio recognizer uses).

>>> spans = [Span(5, 10, "PERSON", 0.875, "model")]
>>> format_spans(spans, "Dear Alice,", "hf")
[{'entity_group': 'PERSON', 'score': 0.875, 'word': 'Alice', 'start': 5, 'end': 10}]
>>> format_spans(spans, "Dear Alice,", "presidio")
[{'entity_type': 'PERSON', 'start': 5, 'end': 10, 'score': 0.875}]
>>> format_spans([Span(5, 12, "EMAIL", 0.99, "pattern")], "Mail a@b.fr", "presidio")[0]["entity_type"]
'EMAIL_ADDRESS'
"""

from __future__ import annotations

from collections.abc import Sequence

from .adapters.presidio_entities import presidio_entity
from .spans import Span

FORMATS = ("json", "hf", "presidio")


def format_spans(spans: Sequence[Span], text: str, fmt: str = "json") -> list[dict]:
    """`spans` of `text` as a list of dicts in format `fmt` (one of FORMATS)."""
    if fmt == "json":
        return [s.to_dict() for s in spans]
    if fmt == "hf":
        return [{"entity_group": s.label, "score": round(s.score, 4), "word": text[s.start:s.end],
                 "start": s.start, "end": s.end} for s in spans]
    if fmt == "presidio":
        return [{"entity_type": presidio_entity(s.label, text[s.start:s.end]), "start": s.start, "end": s.end,
                 "score": round(s.score, 4)} for s in spans]
    raise ValueError(f"format must be one of {', '.join(FORMATS)}, not {fmt!r}")
