"""Repeats: a name found with confidence is masked wherever else the same text writes it.

The model reads a text in windows and judges each occurrence of a name from its own context:
"Adaeze:" at the head of a chat line is a name to it, "money for Adaeze school fees" may not be.
A value left readable once is readable everywhere, so after the merger every PERSON span whose
score is at least `MIN_SCORE` lends its value, and each capitalised word of a name of two words
or more (not all capitals), to the rest of the text. An occurrence becomes a PERSON span (source
"repeat", the lender's score) when it is written the same way (case included), stands as a whole
word, overlaps no span, and is not part of a longer proper noun: a capitalised word right before
it (other than a title, `person_lead_words`) or right after it, or an "&" after it that joins no
name, says it names a street, a firm or a product ("rue Claude Bernard", "Giraud Céramique",
"Fontaine & Associés"; "Grace & Bill" are two people).
Words that end a name in the rules (`name_stop_words`: "Mar", "Thu", "Street"...) are never lent.

>>> from alias_engine.detectors.model_checks import ModelChecks
>>> text = "Tom Okafor chairs. Tom and Okafor Ltd agree; Okafor signs."
>>> found = [Span(0, 10, "PERSON", 0.99, "model")]
>>> [(text[s.start:s.end], s.source) for s in repeated_names(text, found, ModelChecks())]
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
_NOT_AFTER = frozenset("@-/\\")
_WORD_BEFORE = regex.compile(r"([\p{L}\p{M}'’.-]+)[ \t]+$")
_SENTENCE_START = regex.compile(r"(?:^|[\n.!?:;•*>\-–—])[ \t]*$")
_CAPITAL_AFTER = regex.compile(r"[ \t]+\p{Lu}")
_AMPERSAND_AFTER = regex.compile(r"[ \t]*&[ \t]*")


def repeated_names(text: str, spans: list[Span], checks: ModelChecks) -> list[Span]:
    """PERSON spans for the other occurrences of the confident names among `spans` (sorted,
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
        if start > 0 and (text[start - 1] in _NOT_BEFORE):
            continue
        for value, lender in by_first_run[run.group()]:
            end = start + len(value)
            if not text.startswith(value, start) or _continues(text, end):
                continue
            if taken.overlapping(start, end) or _inside_proper_noun(text, start, end, checks) \
                    or _before_ampersand(text, end, taken, lenders):
                continue
            found.append(Span(start, end, "PERSON", lender.score, "repeat"))
            end_of_last = end
            break
    return found


def _lent_values(text: str, spans: list[Span], checks: ModelChecks) -> dict[str, Span]:
    """Each value a confident PERSON span lends (itself, and the capitalised words of a longer name)."""
    lenders: dict[str, Span] = {}
    for span in spans:
        if span.label != "PERSON" or span.score < MIN_SCORE or span.source == "repeat":
            continue
        value = text[span.start:span.end]
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
