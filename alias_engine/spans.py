"""The one value every detector produces and every later stage consumes."""

from __future__ import annotations

from dataclasses import dataclass

# Where a candidate span came from; the merger ranks them in this order (highest first).
# "custom" is a detector the user added (Engine(detectors=[...])): it beats the model and
# plain patterns, not a checksum-verified value or a value introduced by a keyword.
SOURCES: tuple[str, ...] = ("validator", "keyword", "custom", "model", "pattern")


@dataclass(frozen=True, order=True)
class Span:
    """`[start, end)` in characters of the original text, with its label.

    `source`: "validator" (a checksum or a strict grammar verified the value),
    "keyword" (a keyword in context triggered it), "model" (the token
    classifier), "pattern" (a plain pattern), "custom" (a detector the user added). `verified` is False when the
    context says what the value is but its checksum fails (it is still masked).
    """

    start: int
    end: int
    label: str
    score: float = 1.0
    source: str = "pattern"
    verified: bool = True

    def __post_init__(self) -> None:
        if not 0 <= self.start < self.end:
            raise ValueError(f"invalid span offsets [{self.start}, {self.end})")
        if self.source not in SOURCES:
            raise ValueError(f"unknown span source {self.source!r}")

    @property
    def priority(self) -> int:
        return len(SOURCES) - SOURCES.index(self.source)

    def to_dict(self) -> dict:
        d = {"start": self.start, "end": self.end, "label": self.label,
             "score": round(self.score, 4), "source": self.source}
        if not self.verified:
            d["verified"] = False
        return d
