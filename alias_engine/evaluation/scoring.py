"""Scores of predicted spans against gold spans: pure functions, no engine needed.

Definitions (docs/benchmarks.md):
- strict: a prediction is a true positive when a gold span has the same label
  and both boundaries exact; every other counted prediction is a false positive,
  every unmatched gold span a false negative.
- relaxed (overlap): precision is the share of predictions that overlap a gold
  span of the same label, recall the share of gold spans overlapped by a
  prediction of the same label; F1 is their harmonic mean.
- ignored: a prediction that is not exact and overlaps no scored gold span but
  overlaps an ignored region (`ignored_spans`, or a gold span whose label is
  not in LABELS, such as DATE) is neither right nor wrong.
- out of scope: gold spans of a label in LABELS that the engine was configured
  not to produce are not scored; they are counted apart (with their leaks).
- full leak: the gold value, whitespace-normalised, is still found in the
  whitespace-normalised masked text (anywhere, not inside a longer word).
- partial leak: a full leak, or a piece of the value left unmasked at its place
  that is readable: a run of letters/digits of at least 3 characters, or of at
  least 2 digits.
"""

from __future__ import annotations

from bisect import bisect_right
from collections import Counter
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import astuple, dataclass, field
from itertools import accumulate
from typing import Protocol

import regex

from ..labels import LABELS
from .datasets import Annotation, Record

PART_MIN_CHARS = 3
PART_MIN_DIGITS = 2

_SPACES = regex.compile(r"\s+")
_ALNUM_RUN = regex.compile(r"[^\W_]+")


class SpanLike(Protocol):
    @property
    def start(self) -> int: ...

    @property
    def end(self) -> int: ...

    @property
    def label(self) -> str: ...


def ratio(num: int, den: int) -> float | None:
    """`num / den`, or None when `den` is 0 (the figure is undefined, not 0)."""
    return num / den if den else None


@dataclass(frozen=True)
class Counts:
    """Counts behind every figure; they add up across records, labels and languages."""

    tp: int = 0
    fp: int = 0
    fn: int = 0
    pred_overlap: int = 0  # predictions overlapping a gold span of the same label
    gold_overlap: int = 0  # gold spans overlapped by a prediction of the same label
    leak_full: int = 0
    leak_partial: int = 0

    def __add__(self, other: Counts) -> Counts:
        return Counts(*(a + b for a, b in zip(astuple(self), astuple(other))))

    @property
    def gold(self) -> int:
        return self.tp + self.fn

    @property
    def predicted(self) -> int:
        return self.tp + self.fp

    @property
    def precision(self) -> float | None:
        return ratio(self.tp, self.tp + self.fp)

    @property
    def recall(self) -> float | None:
        return ratio(self.tp, self.tp + self.fn)

    @property
    def f1(self) -> float | None:
        return ratio(2 * self.tp, 2 * self.tp + self.fp + self.fn)

    @property
    def relaxed_precision(self) -> float | None:
        return ratio(self.pred_overlap, self.predicted)

    @property
    def relaxed_recall(self) -> float | None:
        return ratio(self.gold_overlap, self.gold)

    @property
    def relaxed_f1(self) -> float | None:
        p, r = self.relaxed_precision, self.relaxed_recall
        if p is None or r is None:
            return None
        return 2 * p * r / (p + r) if p + r else 0.0

    @property
    def full_leak_rate(self) -> float | None:
        return ratio(self.leak_full, self.gold)

    @property
    def partial_leak_rate(self) -> float | None:
        return ratio(self.leak_partial, self.gold)

    def to_dict(self) -> dict:
        d: dict = {"gold": self.gold, "predicted": self.predicted, "tp": self.tp, "fp": self.fp, "fn": self.fn}
        for name in ("precision", "recall", "f1", "relaxed_precision", "relaxed_recall", "relaxed_f1",
                     "full_leak_rate", "partial_leak_rate"):
            value = getattr(self, name)
            d[name] = None if value is None else round(value, 4)
        d.update(pred_overlap=self.pred_overlap, gold_overlap=self.gold_overlap,
                 leak_full=self.leak_full, leak_partial=self.leak_partial)
        return d


@dataclass(frozen=True)
class Spurious:
    """A false positive, with the gold span it overlaps (None when it overlaps none)."""

    span: Annotation
    gold: Annotation | None
    source: str | None = None


@dataclass(frozen=True)
class RecordScore:
    id: str
    lang: str
    counts: Mapping[str, Counts]
    out_of_scope: Mapping[str, Counts] = field(default_factory=dict)
    ignored_gold: Mapping[str, int] = field(default_factory=dict)
    ignored_predictions: int = 0
    missed: tuple[Annotation, ...] = ()
    spurious: tuple[Spurious, ...] = ()
    negative: bool = False
    negative_hit: bool = False
    hard_negatives: int = 0
    hard_negatives_masked: tuple[Annotation, ...] = ()
    by_source: Mapping[str, Counts] = field(default_factory=dict)  # tp and fp of predictions by `source`

    @property
    def total(self) -> Counts:
        return sum(self.counts.values(), Counts())


class _OverlapIndex:
    """Spans sorted by start, answering "which ones overlap [start, end)" in O(log n + k)."""

    def __init__(self, spans: Iterable[Annotation]) -> None:
        self.spans = sorted(spans)
        self.max_end = list(accumulate((s.end for s in self.spans), max))

    def find(self, start: int, end: int) -> list[Annotation]:
        out = []
        i = bisect_right(self.max_end, start)
        while i < len(self.spans) and self.spans[i].start < end:
            if self.spans[i].end > start:
                out.append(self.spans[i])
            i += 1
        return out


def normalize_spaces(text: str) -> str:
    return _SPACES.sub(" ", text).strip()


def leaked_in_full(value: str, normalized_masked: str) -> bool:
    """True if `value`, whitespace-normalised, is in `normalized_masked` (not inside a longer word)."""
    needle = normalize_spaces(value)
    if not needle:
        return False
    pattern = regex.escape(needle)
    if needle[0].isalnum():
        pattern = r"(?<![^\W_])" + pattern
    if needle[-1].isalnum():
        pattern += r"(?![^\W_])"
    return regex.search(pattern, normalized_masked) is not None


def readable_parts(text: str, gold: SpanLike, masked_spans: Sequence[SpanLike]) -> list[str]:
    """Readable pieces of `gold` left unmasked at their place (see the module docstring)."""
    parts: list[str] = []
    pos = gold.start
    for span in sorted(masked_spans, key=lambda s: s.start):
        if span.start > pos:
            parts.extend(_parts(text, pos, min(span.start, gold.end)))
        pos = max(pos, span.end)
    if pos < gold.end:
        parts.extend(_parts(text, pos, gold.end))
    return parts


def _parts(text: str, start: int, end: int) -> list[str]:
    return [m.group() for m in _ALNUM_RUN.finditer(text, start, end)
            if len(m.group()) >= PART_MIN_CHARS or (m.group().isdigit() and len(m.group()) >= PART_MIN_DIGITS)]


def score_record(record: Record, predicted: Iterable[SpanLike], masked: str,
                 labels: Collection[str] = LABELS) -> RecordScore:
    """Score one record's predictions; `masked` is its text after masking those predictions."""
    labels = frozenset(labels)
    originals = sorted(predicted, key=lambda p: (p.start, p.end, p.label))
    preds = [Annotation(p.start, p.end, p.label) for p in originals]
    sources = [getattr(p, "source", None) or "unknown" for p in originals]
    gold = [g for g in record.spans if g.label in labels]
    out_gold = [g for g in record.spans if g.label in LABELS and g.label not in labels]
    unknown_gold = [g for g in record.spans if g.label not in LABELS]

    gold_index = _OverlapIndex(gold)
    out_index = _OverlapIndex(out_gold)
    ignored_index = _OverlapIndex(list(record.ignored_spans) + unknown_gold)
    pred_index = _OverlapIndex(preds)
    matches = Counter(gold) & Counter(preds)

    tally: dict[str, Counter[str]] = {}

    def add(label: str, name: str) -> None:
        tally.setdefault(label, Counter())[name] += 1

    unmatched_preds = Counter(matches)
    spurious = []
    ignored = 0
    by_source: dict[str, Counts] = {}
    for p, source in zip(preds, sources):
        if unmatched_preds[p] > 0:
            unmatched_preds[p] -= 1
            add(p.label, "pred_overlap")
            by_source[source] = by_source.get(source, Counts()) + Counts(tp=1)
            continue
        overlaps = gold_index.find(p.start, p.end)
        out_overlaps = out_index.find(p.start, p.end)
        if not overlaps and not out_overlaps and ignored_index.find(p.start, p.end):
            ignored += 1
            continue
        add(p.label, "fp")
        by_source[source] = by_source.get(source, Counts()) + Counts(fp=1)
        if any(g.label == p.label for g in overlaps):
            add(p.label, "pred_overlap")
        touched = overlaps or out_overlaps
        spurious.append(Spurious(p, touched[0] if touched else None, source))

    normalized_masked = normalize_spaces(masked)
    unmatched_gold = Counter(matches)
    missed = []
    for g in gold:
        if unmatched_gold[g] > 0:
            unmatched_gold[g] -= 1
            add(g.label, "tp")
        else:
            add(g.label, "fn")
            missed.append(g)
        covering = pred_index.find(g.start, g.end)
        if any(p.label == g.label for p in covering):
            add(g.label, "gold_overlap")
        full = leaked_in_full(record.text[g.start:g.end], normalized_masked)
        if full:
            add(g.label, "leak_full")
        if full or readable_parts(record.text, g, covering):
            add(g.label, "leak_partial")

    out_of_scope: dict[str, Counts] = {}
    for g in out_gold:
        full = leaked_in_full(record.text[g.start:g.end], normalized_masked)
        partial = full or bool(readable_parts(record.text, g, pred_index.find(g.start, g.end)))
        out_of_scope[g.label] = out_of_scope.get(g.label, Counts()) + Counts(fn=1, leak_full=int(full),
                                                                            leak_partial=int(partial))

    return RecordScore(
        id=record.id,
        lang=record.lang,
        counts={label: Counts(**values) for label, values in tally.items()},
        out_of_scope=out_of_scope,
        ignored_gold=dict(Counter(g.label for g in unknown_gold)),
        ignored_predictions=ignored,
        missed=tuple(missed),
        spurious=tuple(spurious),
        negative=record.negative,
        negative_hit=record.negative and bool(preds),
        hard_negatives=len(record.hard_negative_spans),
        hard_negatives_masked=tuple(h for h in record.hard_negative_spans if pred_index.find(h.start, h.end)),
        by_source=by_source,
    )


@dataclass(frozen=True)
class Summary:
    """Every figure over a set of scored records."""

    records: int
    micro: Counts
    per_label: Mapping[str, Counts]
    per_lang: Mapping[str, Counts]
    out_of_scope: Mapping[str, Counts]
    ignored_gold: Mapping[str, int]
    ignored_predictions: int
    negative_records: int
    negative_hits: tuple[str, ...]
    hard_negatives: int
    hard_negatives_masked: int
    by_source: Mapping[str, Counts] = field(default_factory=dict)

    def to_dict(self) -> dict:
        return {
            "records": self.records,
            "micro": self.micro.to_dict(),
            "per_label": {label: c.to_dict() for label, c in self.per_label.items()},
            "per_lang": {lang: c.to_dict() for lang, c in self.per_lang.items()},
            "out_of_scope": {label: {"gold": c.gold, "leak_full": c.leak_full, "leak_partial": c.leak_partial}
                             for label, c in self.out_of_scope.items()},
            "ignored_gold": dict(self.ignored_gold),
            "ignored_predictions": self.ignored_predictions,
            "negative_records": self.negative_records,
            "negative_records_with_detection": len(self.negative_hits),
            "negative_hit_ids": list(self.negative_hits),
            "hard_negatives": self.hard_negatives,
            "hard_negatives_masked": self.hard_negatives_masked,
            "by_source": {source: {"tp": c.tp, "fp": c.fp, "precision": None if c.precision is None
                                   else round(c.precision, 4)} for source, c in self.by_source.items()},
        }


def summarize(scores: Iterable[RecordScore]) -> Summary:
    """Add up record scores: micro average, per label (in LABELS order), per language."""
    per_label: dict[str, Counts] = {}
    per_lang: dict[str, Counts] = {}
    out_of_scope: dict[str, Counts] = {}
    by_source: dict[str, Counts] = {}
    ignored_gold: Counter[str] = Counter()
    records = ignored = negatives = hard = hard_masked = 0
    hits = []
    for score in scores:
        records += 1
        for label, counts in score.counts.items():
            per_label[label] = per_label.get(label, Counts()) + counts
        per_lang[score.lang] = per_lang.get(score.lang, Counts()) + score.total
        for label, counts in score.out_of_scope.items():
            out_of_scope[label] = out_of_scope.get(label, Counts()) + counts
        for source, counts in score.by_source.items():
            by_source[source] = by_source.get(source, Counts()) + counts
        ignored_gold.update(score.ignored_gold)
        ignored += score.ignored_predictions
        negatives += score.negative
        if score.negative_hit:
            hits.append(score.id)
        hard += score.hard_negatives
        hard_masked += len(score.hard_negatives_masked)
    order = {label: i for i, label in enumerate(LABELS)}
    per_label = dict(sorted(per_label.items(), key=lambda kv: (order.get(kv[0], len(order)), kv[0])))
    return Summary(
        records=records,
        micro=sum(per_label.values(), Counts()),
        per_label=per_label,
        per_lang=dict(sorted(per_lang.items())),
        out_of_scope=dict(sorted(out_of_scope.items(), key=lambda kv: order[kv[0]])),
        ignored_gold=dict(sorted(ignored_gold.items())),
        ignored_predictions=ignored,
        negative_records=negatives,
        negative_hits=tuple(hits),
        hard_negatives=hard,
        hard_negatives_masked=hard_masked,
        by_source=dict(sorted(by_source.items())),
    )
