"""Repeats: a value found with confidence is masked wherever else the same text writes it.

The model reads a text in windows and judges each occurrence from its own context: "Adaeze:" at
the head of a chat line is a name to it, "money for Adaeze school fees" may not be; a login in
a table's column is an identifier, the same login in the note under the table may not be. A
value left readable once is readable everywhere, so after the merger the spans lend their values
to the rest of the text, and an occurrence written the same way (case included), standing as a
whole word and overlapping no span becomes a span of the lender's label (source "repeat", the
lender's score):

- a PERSON span whose score is at least `MIN_SCORE` lends its value, and each capitalised word
  of a name of two words or more (not all capitals). Words that end a name in the rules
  (`name_stop_words`: "Mar", "Thu", "Street"...) are never lent, and an occurrence is left
  where it is part of a longer proper noun: a capitalised word right before it (other than a
  title, `person_lead_words`, or a word that starts a sentence) or right after it, or an "&"
  after it that joins no name ("rue Claude Bernard", "Giraud Céramique", "Fontaine &
  Associés"; "Grace & Bill" are two people);
- an IDENTIFIER, NATIONAL_ID or SECRET span (the model's only at `MIN_SCORE` or more) lends its
  value when it cannot be a plain word or a small number: 4 characters or more with a digit and
  something else ("CL-10523") or 6 digits or more, or a dot, "_" or "-" between letters
  ("m.obrien", "rkapoor_ro"). The other labels are patterns: where a rule left one of their
  occurrences (a company's phone line, a public URL), the context decided.

>>> from alias_engine.detectors.model_checks import ModelChecks
>>> text = "Tom Okafor chairs. Tom and Okafor Ltd agree; Okafor signs."
>>> found = [Span(0, 10, "PERSON", 0.99, "model")]
>>> [(text[s.start:s.end], s.source) for s in repeated_values(text, found, ModelChecks())]
[('Tom', 'repeat'), ('Okafor', 'repeat')]
"""

from __future__ import annotations

import regex

from .detectors.model_checks import ModelChecks
from .spans import Span, SpanIndex

# On the five evaluation sets a lender below 0.95 was most often a false name of the model ("Thu",
# "mx1", "internet"): docs/benchmarks.md, session 16.
MIN_SCORE = 0.95

_RUN = regex.compile(r"[\p{L}\p{M}\p{N}_]+")
_NAME_WORD = regex.compile(r"\p{Lu}[\p{L}\p{M}'’-]*\p{L}")
_NOT_BEFORE = frozenset("@.-/\\")
_NOT_BEFORE_CODE = frozenset("@.-")
_NOT_AFTER = frozenset("@-/\\")
_WORD_BEFORE = regex.compile(r"([\p{L}\p{M}'’.-]+)[ \t]+$")
_SENTENCE_START = regex.compile(r"(?:^|[\n.!?:;•*>\-–—])[ \t]*$")
_CAPITAL_AFTER = regex.compile(r"[ \t]+\p{Lu}")
_AMPERSAND_AFTER = regex.compile(r"[ \t]*&[ \t]*")
_CODE_LABELS = frozenset({"IDENTIFIER", "NATIONAL_ID", "SECRET"})
_CODE = regex.compile(r"(?=.{4,})(?=.*\d)(?:\d{6,}|.*\D.*)|.*\p{L}[._-]\p{L}.*", regex.DOTALL)


def repeated_values(text: str, spans: list[Span], checks: ModelChecks) -> list[Span]:
    """Spans for the other occurrences of the values `spans` lend (`spans`: sorted,
    non-overlapping, offsets into `text`); `spans` themselves are not returned."""
    lenders = _lent_values(text, spans, checks)
    if not lenders:
        return []
    by_first_run: dict[str, list[tuple[str, Span]]] = {}
    for value, lender in lenders.items():
        by_first_run.setdefault(_RUN.match(value).group(), []).append((value, lender))
    for values in by_first_run.values():
        values.sort(key=lambda item: -len(item[0]))
    taken = SpanIndex(spans)
    found: list[Span] = []
    end_of_last = 0
    for run in _RUN.finditer(text):
        start = run.start()
        if start < end_of_last or run.group() not in by_first_run:
            continue
        before = text[start - 1] if start > 0 else ""
        for value, lender in by_first_run[run.group()]:
            end = start + len(value)
            if not text.startswith(value, start) or _continues(text, end) or taken.overlapping(start, end):
                continue
            if lender.label != "PERSON":
                if before and before in _NOT_BEFORE_CODE:
                    continue
            elif (before and before in _NOT_BEFORE) or _inside_proper_noun(text, start, end, checks) \
                    or _before_ampersand(text, end, taken, lenders):
                continue
            found.append(Span(start, end, lender.label, lender.score, "repeat"))
            end_of_last = end
            break
    return found


def _lent_values(text: str, spans: list[Span], checks: ModelChecks) -> dict[str, Span]:
    """Each value a span lends (a name and its words, a code-like value) and the span that lends it."""
    lenders: dict[str, Span] = {}
    for span in spans:
        value = text[span.start:span.end]
        if span.source == "model" and span.score < MIN_SCORE:
            continue
        if span.label in _CODE_LABELS:
            if _CODE.fullmatch(value) and _RUN.match(value):
                lenders.setdefault(value, span)
            continue
        if span.label != "PERSON" or span.score < MIN_SCORE:
            continue
        words = _NAME_WORD.findall(value)
        values = [value] if sum(c.isalpha() for c in value) >= 2 else []
        if len(words) >= 2:
            values += [w for w in words if len(w) >= 3 and not w.isupper()]
        for v in values:
            if _RUN.match(v) and v.casefold().rstrip(".") not in checks.name_stop_words:
                lenders.setdefault(v, span)
    return lenders


def _continues(text: str, end: int) -> bool:
    """True if the word goes on after `end` (a longer word, an e-mail, a hyphenated compound)."""
    return end < len(text) and (_RUN.match(text[end]) is not None or text[end] in _NOT_AFTER)


def _inside_proper_noun(text: str, start: int, end: int, checks: ModelChecks) -> bool:
    before = _WORD_BEFORE.search(text, max(0, start - 40), start)
    if before and before.group(1)[0].isupper() and before.group(1).casefold().rstrip(".") not in checks.person_lead_words \
            and not _SENTENCE_START.search(text, max(0, before.start() - 8), before.start()):
        return True
    return _CAPITAL_AFTER.match(text, end) is not None


def _before_ampersand(text: str, end: int, taken: SpanIndex[Span], lenders: dict[str, Span]) -> bool:
    """True if an "&" follows and what it joins is no name: "Fontaine & Associés" is a firm,
    "Owen & Bea MacLeod" and "Grace & Bill" are two people."""
    ampersand = _AMPERSAND_AFTER.match(text, end)
    if ampersand is None:
        return False
    after = ampersand.end()
    if any(s.start == after and s.label == "PERSON" for s in taken.overlapping(after, after + 1)):
        return False
    word = _RUN.match(text, after)
    return word is None or word.group() not in lenders
