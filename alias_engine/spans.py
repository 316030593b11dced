"""The one value every detector produces and every later stage consumes."""

from __future__ import annotations

import unicodedata
from bisect import bisect_left
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Generic, Protocol, TypeVar

# Where a candidate span came from; the merger ranks them in this order (highest first).
# "custom" is a detector the user added (Engine(detectors=[...])): it beats the model and
# plain patterns, not a checksum-verified value or a value introduced by a keyword. "repeat" is an
# occurrence of a name found elsewhere in the text (repeats.py, after the merger: it never competes).
SOURCES: tuple[str, ...] = ("validator", "keyword", "custom", "model", "pattern", "repeat")


@dataclass(frozen=True, order=True)
class Span:
    """`[start, end)` in characters of the original text, with its label.

    `source`: "validator" (a checksum or a strict grammar verified the value),
    "keyword" (a keyword in context triggered it), "model" (the token
    classifier), "pattern" (a plain pattern), "custom" (a detector the user added), "repeat" (another
    occurrence of a value found elsewhere in the text, repeats.py). `verified` is False when the
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


@dataclass(frozen=True)
class Suppression:
    """A region whose candidates of `labels` ("*": all) a detector clears: an invoice number's value is
    no phone, a log header holds no name (resolve/ applies them)."""

    start: int
    end: int
    labels: frozenset[str]

    def removes(self, span: Span) -> bool:
        return span.start < self.end and self.start < span.end and \
            ("*" in self.labels or span.label in self.labels)


class _Ranged(Protocol):
    @property
    def start(self) -> int: ...

    @property
    def end(self) -> int: ...


R = TypeVar("R", bound=_Ranged)


class SpanIndex(Generic[R]):
    """Spans (or anything with `start` and `end`) sorted by start, to find the ones overlapping a range
    by bisection, not a scan: the start of the longest one bounds how far back an overlap can begin."""

    def __init__(self, spans: Iterable[R]):
        self.spans = sorted(spans, key=lambda s: (s.start, s.end))
        self._starts = [s.start for s in self.spans]
        self._longest = max((s.end - s.start for s in self.spans), default=0)

    def overlapping(self, start: int, end: int) -> list[R]:
        lo = bisect_left(self._starts, start - self._longest)
        hi = bisect_left(self._starts, end)
        return [s for s in self.spans[lo:hi] if s.start < end and start < s.end]

    def __bool__(self) -> bool:
        return bool(self.spans)


MAX_WORD_EXTENSION = 256  # snapping never extends a span by more than this many characters

# Characters stripped from the edges of a span the model found or a cut made (LABELS.md: surrounding
# spaces and punctuation are never part of a span). A SECRET keeps most of
# its punctuation: a password may start with "-" or end with "!". A handle's "@"
# and a key's "=" are never a value's first character ("@jdupont" is the user
# name jdupont, "=s3cr3t" after "password" the password s3cr3t).
_LEAD_STRIP = "\"'«»“”‘’„([{<.,;:!?¿¡-–—•*@="
_TRAIL_STRIP = "\"'«»“”‘’)]}>.,;:!?-–—•*"
_SECRET_LEAD_STRIP = "\"'«»“”‘’([{<="
_SECRET_TRAIL_STRIP = "\"'«»“”‘’)]}>.,;:"


def line_window_start(text: str, start: int, width: int) -> int:
    """Where the `width` characters before `start` begin, not before the start of `start`'s line: the
    context a rule reads before a value (found by searching back at most `width` characters).

    >>> line_window_start("Tel\\nNHS: 943", 9, 40), line_window_start("abcdef", 5, 2)
    (4, 3)
    """
    return max(0, start - width, text.rfind("\n", max(0, start - width), start) + 1)


def snap_to_words(text: str, start: int, end: int, label: str) -> tuple[int, int] | None:
    """`[start, end)` without surrounding spaces/punctuation and extended to whole words; None if empty. A
    phone's bracketed area code keeps its brackets ("(438) 555-0194")."""
    lead, trail = (_SECRET_LEAD_STRIP, _SECRET_TRAIL_STRIP) if label == "SECRET" else (_LEAD_STRIP, _TRAIL_STRIP)
    # brackets still open (`opened`) and closed without an opener (`closed`) in text[start:end], for a phone
    opened = closed = 0
    if label == "PHONE":
        while start < end and text[start].isspace():
            start += 1
        while end > start and text[end - 1].isspace():
            end -= 1
        while end - start > 2 and text[start] == "(" and text[end - 1] == ")" \
                and _unmatched_brackets(text, start + 1, end - 1) == (0, 0):
            start, end = start + 1, end - 1  # "(518263)": an aside in brackets, not an area code
        opened, closed = _unmatched_brackets(text, start, end)
    while start < end and (text[start].isspace() or text[start] in lead) \
            and not (label == "PHONE" and text[start] == "(" and not opened):
        opened -= label == "PHONE" and text[start] == "("
        start += 1
    while end > start and (text[end - 1].isspace() or text[end - 1] in trail) \
            and not (label == "PHONE" and text[end - 1] == ")" and not closed):
        closed -= label == "PHONE" and text[end - 1] == ")"
        end -= 1
    if start >= end:
        return None
    floor = max(0, start - MAX_WORD_EXTENSION)
    while start > floor and _is_word(text[start - 1]) and _is_word(text[start]):
        start -= 1
    ceiling = min(len(text), end + MAX_WORD_EXTENSION)
    while end < ceiling and _is_word(text[end]) and _is_word(text[end - 1]):
        end += 1
    return start, end


def _unmatched_brackets(text: str, start: int, end: int) -> tuple[int, int]:
    """The round brackets of text[start:end] left open, and those closed without an opener."""
    opened = closed = 0
    for ch in text[start:end]:
        if ch == "(":
            opened += 1
        elif ch == ")":
            if opened:
                opened -= 1
            else:
                closed += 1
    return opened, closed


def _is_word(ch: str) -> bool:
    return ch.isalnum() or ch == "_" or unicodedata.category(ch)[0] == "M"
