"""Run a detector over evaluation records, mask, score, and report.

The detector is any function `predict(texts, lang) -> spans per text`, so the
engine and a peer (benchmarks/run_presidio.py) are measured by the same code.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass
from pathlib import Path

from ..labels import LABELS
from ..masks import mask_spans
from ..placeholders import DEFAULT_PLACEHOLDER
from ..spans import Span
from .datasets import Annotation, Record
from .scoring import Counts, RecordScore, Summary, score_record, summarize

Predict = Callable[[Sequence[str], "str | None"], Sequence[Sequence[Span]]]
RECORD_LANGS = ("fr", "en")


@dataclass(frozen=True)
class Evaluation:
    name: str
    records: Sequence[Record]
    predictions: Sequence[Sequence[Span]]
    masked: Sequence[str]
    scores: Sequence[RecordScore]
    summary: Summary
    seconds: float  # detection and masking only

    @property
    def chars(self) -> int:
        return sum(len(r.text) for r in self.records)

    @property
    def chars_per_s(self) -> float | None:
        return self.chars / self.seconds if self.seconds > 0 else None

    def to_dict(self) -> dict:
        cps = self.chars_per_s
        return {"name": self.name, "chars": self.chars, "seconds": round(self.seconds, 4),
                "chars_per_s": None if cps is None else round(cps), **self.summary.to_dict()}


def engine_predict(engine) -> Predict:
    """The engine's `detect_many` as a `Predict` function."""
    return lambda texts, lang: engine.detect_many(list(texts), lang)


def evaluate(records: Sequence[Record], predict: Predict, *, labels: Collection[str] = LABELS,
             name: str = "", batch_size: int = 32, record_lang: bool = True,
             placeholder: str = DEFAULT_PLACEHOLDER) -> Evaluation:
    """Detect and mask every record, timing both, then score.

    With `record_lang`, each record's `lang` ("fr"/"en") is passed to `predict`;
    otherwise `predict` gets None and uses its own setting (e.g. auto-detection).
    """
    if batch_size < 1:
        raise ValueError("batch_size must be at least 1")
    predictions: list[Sequence[Span]] = [()] * len(records)
    masked: list[str] = [""] * len(records)
    seconds = 0.0
    for start in range(0, len(records), batch_size):
        indices = range(start, min(start + batch_size, len(records)))
        groups: dict[str | None, list[int]] = {}
        for i in indices:
            lang = records[i].lang if record_lang and records[i].lang in RECORD_LANGS else None
            groups.setdefault(lang, []).append(i)
        for lang, group in groups.items():
            t0 = time.perf_counter()
            found = predict([records[i].text for i in group], lang)
            texts = [mask_spans(records[i].text, spans, placeholder).text for i, spans in zip(group, found)]
            seconds += time.perf_counter() - t0
            for i, spans, text in zip(group, found, texts):
                predictions[i] = spans
                masked[i] = text
    scores = [score_record(r, p, m, labels) for r, p, m in zip(records, predictions, masked)]
    return Evaluation(name, records, predictions, masked, scores, summarize(scores), seconds)


def combine(evaluations: Sequence[Evaluation], name: str = "all") -> Evaluation:
    records = [r for e in evaluations for r in e.records]
    scores = [s for e in evaluations for s in e.scores]
    return Evaluation(name, records, [p for e in evaluations for p in e.predictions],
                      [m for e in evaluations for m in e.masked], scores, summarize(scores),
                      sum(e.seconds for e in evaluations))


def write_predictions(evaluation: Evaluation, path: str | Path) -> None:
    """One JSON object a line: the record's id, lang, text, predicted spans and masked text."""
    with Path(path).open("w", encoding="utf-8") as out:
        for record, spans, masked in zip(evaluation.records, evaluation.predictions, evaluation.masked):
            spans_out = [s.to_dict() if isinstance(s, Span) else {"start": s.start, "end": s.end, "label": s.label}
                         for s in spans]
            out.write(json.dumps({"id": record.id, "lang": record.lang, "text": record.text,
                                  "spans": spans_out, "masked": masked}, ensure_ascii=False) + "\n")


def _fmt(value: float | None, scale: float = 100.0) -> str:
    return "-" if value is None else f"{value * scale:.1f}"


def _row(name: str, c: Counts) -> str:
    return (f"{name:<12} {c.gold:>6} {c.predicted:>6} {_fmt(c.precision):>6} {_fmt(c.recall):>6} {_fmt(c.f1):>6} "
            f"{_fmt(c.relaxed_f1):>7} {_fmt(c.full_leak_rate):>7} {_fmt(c.partial_leak_rate):>7}")


def format_report(evaluation: Evaluation) -> str:
    """The figures of one evaluation as a plain-text table (percentages)."""
    s = evaluation.summary
    cps = evaluation.chars_per_s
    lines = [
        f"== {evaluation.name}: {s.records:,} records, {evaluation.chars:,} chars, "
        f"detect+mask {evaluation.seconds:.2f} s ({'-' if cps is None else f'{cps:,.0f}'} chars/s)",
        f"{'label':<12} {'gold':>6} {'pred':>6} {'P':>6} {'R':>6} {'F1':>6} {'relF1':>7} {'leak':>7} {'leak~':>7}",
    ]
    lines += [_row(label, c) for label, c in s.per_label.items()]
    lines.append(_row("micro", s.micro))
    lines += [_row(f"lang={lang}", c) for lang, c in s.per_lang.items()]
    lines.append("(P/R/F1 strict; relF1 overlap; leak = gold values readable in full in the masked text, "
                 "leak~ = any part readable)")
    if s.out_of_scope:
        lines.append("not scored, labels not configured: " + ", ".join(
            f"{label} {c.gold} gold ({c.leak_full} readable in full)" for label, c in s.out_of_scope.items()))
    if s.ignored_gold:
        lines.append("gold labels outside LABELS, treated as ignored spans: "
                     + ", ".join(f"{label} {n}" for label, n in s.ignored_gold.items()))
    lines.append(f"predictions on ignored spans only (not counted): {s.ignored_predictions}")
    if s.by_source:
        lines.append("counted predictions by source: " + ", ".join(
            f"{source} {c.predicted} (P {_fmt(c.precision)})" for source, c in s.by_source.items()))
    if s.negative_records:
        shown = ", ".join(s.negative_hits[:10]) + (" ..." if len(s.negative_hits) > 10 else "")
        lines.append(f"negative records: {s.negative_records}, with a detection: {len(s.negative_hits)}"
                     + (f" ({shown})" if shown else ""))
    if s.hard_negatives:
        lines.append(f"hard negative spans: {s.hard_negatives}, masked: {s.hard_negatives_masked}")
    return "\n".join(lines)


def _context(text: str, start: int, end: int, width: int = 40) -> str:
    left = text[max(0, start - width):start]
    right = text[end:end + width]
    return repr(left + "⟦" + text[start:end] + "⟧" + right)[1:-1]


def format_errors(evaluation: Evaluation, n: int) -> str:
    """Up to `n` missed and `n` spurious spans per label, in context."""
    missed: dict[str, list[str]] = {}
    spurious: dict[str, list[str]] = {}
    for record, score in zip(evaluation.records, evaluation.scores):
        for g in score.missed:
            missed.setdefault(g.label, []).append(f"  [{record.id}] {_context(record.text, g.start, g.end)}")
        for sp in score.spurious:
            p, gold = sp.span, sp.gold
            note = "no gold span there" if gold is None else f"gold {gold.label} {_quote(record.text, gold)}"
            note = f"{sp.source}; {note}" if sp.source else note
            spurious.setdefault(p.label, []).append(
                f"  [{record.id}] {_context(record.text, p.start, p.end)}  ({note})")
    lines = [f"== errors: {evaluation.name}"]
    for label in [lb for lb in LABELS if lb in missed or lb in spurious] + sorted(
            (set(missed) | set(spurious)) - set(LABELS)):
        for kind, table in (("missed", missed), ("spurious", spurious)):
            items = table.get(label, [])
            if items:
                lines.append(f"{label} {kind} ({len(items)}, showing {min(n, len(items))}):")
                lines += items[:n]
    return "\n".join(lines)


def _quote(text: str, span: Annotation) -> str:
    return repr(text[span.start:span.end])
