"""One span merger for every detector: candidates in, sorted non-overlapping spans out.

Policy (docs/architecture.md):
1. Candidates of the same label that overlap or touch become one span (their
   union), keeping the best source, the highest score, and `verified` only if
   every part was verified. Validator spans are united only among themselves:
   against a weaker span of the same label they keep their boundaries and
   the weaker span is resolved as in 2.
2. Overlapping spans of different labels: the higher source priority wins
   (validator > keyword > custom > model > pattern), then the label's own
   priority (labels.py: 0 for the twelve of LABELS.md; a label a rules file
   declares may rank itself above them), then the higher score, then the
   longer span, then the earlier start. What the loser covers outside the
   winner stays masked under the loser's label (trimmed of spaces and
   punctuation when `text` is given, dropped if at most one character is left): a conflict
   never unmasks a character some detector flagged.
Deterministic and O(n log n): one sort, then a sweep over clusters of
overlapping spans.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections.abc import Iterable

import regex

from .labels import BUILTIN, LabelSet
from .spans import Span


def merge_spans(candidates: Iterable[Span], text: str | None = None, labels: LabelSet = BUILTIN) -> list[Span]:
    """Resolve candidates from all detectors into sorted, non-overlapping spans.

    `text` (the string the offsets point into) lets loser remainders be trimmed; `labels` gives
    each label's priority (the twelve by default).
    """
    unions = _union_same_label(candidates)
    result: list[Span] = []
    cluster: list[Span] = []
    cluster_end = -1
    for span in unions:  # sorted by start
        if cluster and span.start >= cluster_end:
            result.extend(_resolve_cluster(cluster, text, labels))
            cluster = []
        cluster.append(span)
        cluster_end = max(cluster_end, span.end) if len(cluster) > 1 else span.end
    if cluster:
        result.extend(_resolve_cluster(cluster, text, labels))
    return result


def _union_same_label(candidates: Iterable[Span]) -> list[Span]:
    # Validator spans are united only among themselves: a checksum or grammar fixed their
    # boundaries, so a weaker span of the same label is resolved against them like a conflict.
    by_label: dict[tuple[str, bool], list[Span]] = {}
    for span in candidates:
        by_label.setdefault((span.label, span.source == "validator"), []).append(span)
    merged: list[Span] = []
    for spans in by_label.values():
        spans.sort(key=lambda s: (s.start, s.end))
        current = spans[0]
        for span in spans[1:]:
            if span.start <= current.end:
                current = _union(current, span)
            else:
                merged.append(current)
                current = span
        merged.append(current)
    merged.sort(key=lambda s: (s.start, s.end, s.label))
    return merged


def _union(a: Span, b: Span) -> Span:
    best = a if (a.priority, a.score) >= (b.priority, b.score) else b
    return Span(min(a.start, b.start), max(a.end, b.end), a.label,
                max(a.score, b.score), best.source, a.verified and b.verified)


def _rank(span: Span, labels: LabelSet) -> tuple:
    return (-span.priority, -labels.spec(span.label).priority, -span.score, -(span.end - span.start), span.start,
            span.label)


def _resolve_cluster(cluster: list[Span], text: str | None, labels: LabelSet) -> list[Span]:
    if len(cluster) == 1:
        return cluster
    kept_starts: list[int] = []
    kept: list[Span] = []
    for span in sorted(cluster, key=lambda s: _rank(s, labels)):
        for part in _uncovered_parts(span, kept, kept_starts, text):
            i = bisect_left(kept_starts, part.start)
            kept_starts.insert(i, part.start)
            kept.insert(i, part)
    return kept


def _uncovered_parts(span: Span, kept: list[Span], kept_starts: list[int], text: str | None) -> list[Span]:
    """The pieces of `span` that no kept span covers (the whole span if none overlaps)."""
    i = max(bisect_right(kept_starts, span.start) - 1, 0)
    gaps, pos = [], span.start
    while i < len(kept) and kept[i].start < span.end:
        if kept[i].end > pos:
            if kept[i].start > pos:
                gaps.append((pos, kept[i].start))
            pos = kept[i].end
        i += 1
    if pos == span.start:
        return [span]
    if pos < span.end:
        gaps.append((pos, span.end))
    parts = []
    for start, end in gaps:
        if text is not None:
            while start < end and not text[start].isalnum():
                start += 1
            while end > start and not text[end - 1].isalnum():
                end -= 1
        if end - start > (1 if text is not None else 0):  # a lone letter left over reveals nothing
            parts.append(Span(start, end, span.label, span.score, span.source, span.verified))
    return parts


# Where a span is cut so that a mask never swallows the structure around a value: line breaks,
# tabs and other control characters, JSON quotes and escapes (`\"`, `\n`, `\u2028`, a lone `\`),
# and a CSV/TSV delimiter glued to the next cell (`Dupont,Nantes`, `4111…,4111…`; "Dupont, Jean" is
# prose and kept).
_BREAKS = regex.compile(r'[\p{Cc}\p{Zl}\p{Zp}"]|\\(?:u[0-9A-Fa-f]{4}|[nrtbf"\\/])?|[,;|](?=\S)')
# Labels whose values legitimately hold `,`, `;` or `|` (a URL's query, a token).
_DELIMITERS_ALLOWED = frozenset({"URL", "SECRET"})
_STRUCTURE_ONLY = regex.compile(r'[\p{Cc}\p{Zl}\p{Zp}"]|\\(?:u[0-9A-Fa-f]{4}|[nrtbf"\\/])?')


def split_at_breaks(spans: Iterable[Span], text: str) -> list[Span]:
    """Cut every span at the line breaks, tabs, JSON quotes/escapes and glued CSV delimiters it
    covers, so that masking keeps the lines, cells and strings of the text.

    The pieces keep the span's label, score and source; their cut edges are trimmed of
    characters that are not letters or digits, and a piece with none is dropped (only
    structure characters and the punctuation next to them are left unmasked).

    >>> text = "Dupont,Nantes\\n2,Paris"
    >>> [text[s.start:s.end] for s in split_at_breaks([Span(7, 15, "PERSON")], text)]
    ['Nantes', '2']
    """
    out: list[Span] = []
    for span in spans:
        breaks = _STRUCTURE_ONLY if span.label in _DELIMITERS_ALLOWED else _BREAKS
        # from a little before the span: it may start inside an escape (`\nJean` tagged from the `n`)
        cuts = [(max(m.start(), span.start), min(m.end(), span.end))
                for m in breaks.finditer(text, max(0, span.start - 5), span.end) if m.end() > span.start]
        if not cuts:
            out.append(span)
            continue
        pos, trim_start = span.start, False
        for cut_start, cut_end in cuts + [(span.end, span.end)]:
            start, end = pos, cut_start
            if trim_start:
                while start < end and not text[start].isalnum():
                    start += 1
            if cut_start < span.end:
                while end > start and not text[end - 1].isalnum():
                    end -= 1
            if start < end:
                out.append(Span(start, end, span.label, span.score, span.source, span.verified))
            pos, trim_start = cut_end, True
    return out
