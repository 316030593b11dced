"""The Detector protocol, and plain functions as detectors.

A detector finds candidate spans; it does not settle conflicts (resolve/ and
merge.py do). Anything with `detect(texts, langs) -> list[list[Span]]` is one:
`texts` a batch of strings, `langs` their languages ("fr", "en"), and for each
text its spans with offsets into that text, in any order, overlapping or not.
The rules (rules.py), the model (model.py) and the user's detectors are all run
this way by the Engine.

Optional: `name` (for errors), `role` (which resolve steps its spans go through,
resolve.ROLES; default "others": kept as the detector found them), and a
detector that also clears regions of other detectors' candidates returns
`Findings` (a list of spans with its `suppressions`).

    >>> import re
    >>> def employee_ids(text):
    ...     return [(m.start(), m.end(), "IDENTIFIER") for m in re.finditer(r"EMP-\\d{6}", text)]
    >>> as_detector(employee_ids).detect(["badge EMP-004217"], ["en"])
    [[Span(start=6, end=16, label='IDENTIFIER', score=1.0, source='custom', verified=True)]]
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Any, Protocol, cast, runtime_checkable

from ..errors import AliasEngineError
from ..spans import Span, Suppression


@runtime_checkable
class Detector(Protocol):
    def detect(self, texts: Sequence[str], langs: Sequence[str]) -> list[list[Span]]: ...


class Findings(list):
    """A detector's spans of one text, and the regions where it clears other candidates of some labels
    (an invoice number's value holds no phone): `Findings(spans, suppressions)`."""

    def __init__(self, spans: Iterable[Span] = (), suppressions: Iterable[Suppression] = ()) -> None:
        super().__init__(spans)
        self.suppressions = list(suppressions)


def role_of(detector: object) -> str:
    """What the detector's spans are to resolve (resolve.ROLES): its `role`, "others" when it has none."""
    return str(getattr(detector, "role", "others"))


class DetectorError(AliasEngineError):
    """A detector returned something that is not a span of its text."""


class FunctionDetector:
    """`fn(text) -> iterable of Span or (start, end, label[, score])` as a Detector.

    Tuples become spans of source `source` (default "custom", see spans.SOURCES
    for how the merger ranks it); Span objects are kept as they are.
    """

    def __init__(self, fn: Callable[[str], Iterable], source: str = "custom", name: str | None = None) -> None:
        self.fn = fn
        self.source = source
        self.name: str = name if name else getattr(fn, "__name__", type(fn).__name__)

    def detect(self, texts: Sequence[str], langs: Sequence[str]) -> list[list[Span]]:
        return [[to_span(item, text, self.source, self.name) for item in self.fn(text)] for text in texts]

    def __repr__(self) -> str:
        return f"FunctionDetector({self.name})"


def as_detector(obj: object) -> Detector:
    """`obj` if it has a `detect` method, a FunctionDetector if it is a plain callable."""
    if isinstance(obj, Detector):
        return obj
    if callable(obj):
        return FunctionDetector(obj)
    raise TypeError(f"a detector needs detect(texts, langs) or must be callable, not {type(obj).__name__}")


def to_span(item: object, text: str, source: str = "custom", name: str = "detector") -> Span:
    """A Span from a Span or a `(start, end, label[, score])` tuple; DetectorError if it does not fit `text`."""
    if isinstance(item, Span):
        span = item
    else:
        try:
            start, end, label, *rest = cast(Iterable[Any], item)
            if len(rest) > 1 or not isinstance(label, str):
                raise ValueError
            span = Span(int(start), int(end), label, float(rest[0]) if rest else 1.0, source)
        except (TypeError, ValueError):
            raise DetectorError(f"{name} returned {item!r}: expected a Span or (start, end, label[, score])") from None
    if span.end > len(text) or not 0.0 <= span.score <= 1.0:
        raise DetectorError(f"{name} returned {span!r}: offsets outside the text or score outside 0-1")
    return span
