"""Spans in the formats other tools read.

- "json" (default): `Span.to_dict()`, `{"start", "end", "label", "score", "source"}`.
- "hf": what a Hugging Face token-classification pipeline with aggregation gives,
  `{"entity_group", "score", "word", "start", "end"}`.
- "presidio": a Presidio analyser result, `{"entity_type", "start", "end", "score"}`.

>>> spans = [Span(5, 10, "PERSON", 0.875, "model")]
>>> format_spans(spans, "Dear Alice,", "hf")
[{'entity_group': 'PERSON', 'score': 0.875, 'word': 'Alice', 'start': 5, 'end': 10}]
>>> format_spans(spans, "Dear Alice,", "presidio")
[{'entity_type': 'PERSON', 'start': 5, 'end': 10, 'score': 0.875}]
"""

from __future__ import annotations

from collections.abc import Sequence

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
        return [{"entity_type": s.label, "start": s.start, "end": s.end, "score": round(s.score, 4)} for s in spans]
    raise ValueError(f"format must be one of {', '.join(FORMATS)}, not {fmt!r}")
