"""Repeats: a value found with confidence is masked wherever else the same text writes it.

The model reads a text in windows and judges each occurrence from its own context: "Adaeze:" at
the head of a chat line is a name to it, "money for Adaeze school fees" may not be; a login in
a table's column is an identifier, the same login in the note under the table may not be. A
value left readable once is readable everywhere, so after the merger the spans lend their values
to the rest of the text, and an occurrence written the same way (case included), standing as a
whole word and overlapping no span becomes a span of the lender's label (source "repeat", the
lender's score):

- a PERSON span lends its value (the model's and a fallback rule's at a score of `MIN_SCORE` or
  more); a name of two words or more (not in capitals) also lends each capitalised word of 3
  letters or more, and those of 4 letters or more in capitals ("Enora Le Quéau": "Enora",
  "Quéau", "LE QUÉAU"); a surname in capitals alone lends its capitalised form
  ("O'DONOGHUE-PRICE": "O'Donoghue-Price"). Words
  that end a name in the rules (`name_stop_words`: "Mar", "Thu", "Street"...) are never lent.
  An occurrence is left where it is part of a longer proper noun: a capitalised word right
  before it (not initials, a title of `person_lead_words`, or a word that starts a sentence), an
  "&" after it that joins no name ("rue Claude Bernard", "Fontaine & Associés"; "Grace & Bill"
  are two people), or a capitalised word right after it ("Giraud Céramique"), unless the value
  starts its lender's name and that word is a surname: "Hamish" lent, "Hamish Rattray" is
  one span; and at the start of a sentence where the text also writes the word in lower case
  ("Will you…" beside "I will"), and where the words before it name a thing after a person
  ("maladie de Bowen": `Lexicon.names_a_thing`; a word after it, "Bowen's scholarship", may be the
  person's own).
  A login's surname lent in lower case ("odile.marsh": "marsh") is left where the text also
  writes it capitalised: its writer capitalises the name, so "the marsh path" is the language's
  word (the first name is lent wherever it is written: "ping odile").
  Initials right before it join the span ("J.P. Fairweather-Hughes");
- an IDENTIFIER, NATIONAL_ID or SECRET span, or one of a declared label faked as a code (a rules
  file's EMPLOYEE_ID), the model's only at `MIN_SCORE` or more, lends its
  value when it cannot be a plain word or a small number: 4 characters or more with a digit and
  something else ("CL-10523") or 6 digits or more, or a dot, "_" or "-" between letters
  ("c.dufresne", "amalhotra_ro"). The other labels are patterns: where a rule left one of their
  occurrences (a company's phone line, a public URL), the context decided.

>>> from alias_engine.resolve.lexicon import Lexicon
>>> text = "Ike Onwuzor chairs. Ike and Onwuzor Ltd agree; Onwuzor signs."
>>> found = [Span(0, 11, "PERSON", 0.99, "model")]
>>> [(text[s.start:s.end], s.source) for s in repeated_values(text, found, Lexicon())]
[('Ike', 'repeat'), ('Onwuzor', 'repeat')]
"""

from __future__ import annotations

import bisect
from typing import NamedTuple

import regex

from .labels import BUILTIN, LabelSet
from .resolve.lexicon import Lexicon
from .spans import Span, SpanIndex

# On the five evaluation sets a lender below 0.95 was most often a false name of the model ("Thu",
# "mx1", "internet"), and lending it would repeat the model's mistake at every occurrence.
MIN_SCORE = 0.95

_RUN = regex.compile(r"[\p{L}\p{M}\p{N}_]+")
_NAME_WORD = regex.compile(r"\p{Lu}[\p{L}\p{M}'’-]*\p{L}")
_NOT_BEFORE = frozenset("@.-/\\")
_NOT_BEFORE_CODE = frozenset("@.-")
_NOT_AFTER = frozenset("@-/\\")
_WORD_BEFORE = regex.compile(r"([\p{L}\p{M}'’.-]+)[ \t]+$")
_INITIALS = regex.compile(r"(?:\p{Lu}\.[ ]?-?)+\p{Lu}?\.?")
_INITIALS_BEFORE = regex.compile(r"(?<![\p{L}\p{N}])(?:\p{Lu}\.-?)+[ ]$")
_LOWER_CASE_WORD = regex.compile(r"(?<![\p{L}\p{M}\p{N}_.@/\\-])\p{Ll}[\p{Ll}\p{M}]*(?![\p{L}\p{M}\p{N}_@/\\-]|\.[\p{L}\p{N}])")
_SENTENCE_START = regex.compile(r"(?:^|[\n.!?:;•*>\-–—])[ \t]*$")
_CAPITAL_AFTER = regex.compile(r"[ ]\p{Lu}")
_SURNAME = regex.compile(r"[ ](\p{Lu}[\p{L}\p{M}'’-]*\p{L})(?![\p{L}\p{N}_@]|[ ]\p{Lu}|-)")
# Repeats bounded: after an unbounded one, the regex module looks for the "&" in the whole rest of the text
# before it matches (one scan per name repeated: quadratic in a long text).
_AMPERSAND_AFTER = regex.compile(r"[ \t]{0,16}&[ \t]{0,16}")
# labels whose values are codes: IDENTIFIER, NATIONAL_ID, SECRET, and a declared label faked as one
_CODE_SURROGATES = frozenset({"identifier", "national_id", "secret"})
# A code: 4 characters or more with a digit and something else, or 6 digits or more; or a separator between
# letters (searched: the same in one pattern with ".*" around it costs the square of a long value's length)
_CODE = regex.compile(r"(?=.{4,})(?=.*\d)(?:\d{6,}|.*\D.*)", regex.DOTALL)
_LETTERS_SEPARATED = regex.compile(r"\p{L}[._-]\p{L}")
# A login or an address's mailbox of a first name and a surname in lower case: "ilse.vantorre", "tamar.ovadia.77@…"
_LOGIN_NAMES = regex.compile(r"(\p{Ll}{3,})[._](\p{Ll}{3,})(?:[._-]?\d{1,4})?(?:@\S+)?")


class _Lent(NamedTuple):
    label: str
    score: float
    starts_name: bool  # the value is the start of its lender's name ("Hamish" of "Hamish Rattray")
    from_login: bool = False  # a word of a login ("odile.marsh": "marsh"), lent in lower case


class Lenders:
    """What values lend (`lend`), indexed by their first run of letters and digits. A session
    keeps one for its earlier turns and adds each new value once. `labels`: what the values'
    labels are (a code-like label lends its values whole)."""

    def __init__(self, labels: LabelSet = BUILTIN) -> None:
        self.labels = labels
        self._lent: dict[str, _Lent] = {}
        self._by_first_run: dict[str, list[tuple[str, _Lent]]] = {}

    def __contains__(self, value: str) -> bool:
        return value in self._lent

    def __len__(self) -> int:
        return len(self._lent)

    def starting(self, run: str) -> list[tuple[str, _Lent]]:
        """The lent values whose first run is `run`, longest first."""
        return self._by_first_run.get(run, [])

    def lend(self, value: str, label: str, score: float, source: str, lexicon: Lexicon) -> None:
        """Add what one value lends (a name and its words, a code-like value); a value lent
        already keeps its first lender."""
        if source == "model" and score < MIN_SCORE:
            return
        is_code = self.labels.spec(label).surrogate in _CODE_SURROGATES
        if is_code or label == "EMAIL":
            self._lend_login_names(value, score, lexicon)
        if is_code:
            if (_CODE.fullmatch(value) or _LETTERS_SEPARATED.search(value)) and _RUN.match(value):
                self._add(value, _Lent(label, score, True))
            return
        if label != "PERSON" or (source == "pattern" and score < MIN_SCORE):
            return
        words = _NAME_WORD.findall(value)
        values = [value] if sum(c.isalpha() for c in value) >= 2 else []
        if len(words) >= 2 and not value.isupper():  # "Enora Le Quéau": "Enora", "Quéau", "ENORA LE QUÉAU"...
            values += [w for w in words if len(w) >= 3 and not w.isupper()]
            values += [v.upper() for v in values if sum(c.isalpha() for c in v) >= 4]
        elif len(words) == 1 and value.isupper() and len(value) >= 4:  # "O'DONOGHUE-PRICE": "O'Donoghue-Price"
            values.append(value.title())
        for v in values:
            if _RUN.match(v) and v.casefold().rstrip(".") not in lexicon.name_stop_words:
                self._add(v, _Lent(label, score, value.startswith(v)))

    def _lend_login_names(self, value: str, score: float, lexicon: Lexicon) -> None:
        """A login's or an e-mail address's two words in lower case, neither a word of the languages, are a
        first name and a surname ("ilse.vantorre": "ilse" and "vantorre", a person's name where the text writes
        them alone); "dev.team", "service.client" name no one."""
        login = _LOGIN_NAMES.fullmatch(value)
        if login is None:
            return
        words = lexicon.words_of("", "lower_case_words")
        if any(name in words for name in login.groups()):
            return
        for name in login.groups():
            self._add(name, _Lent("PERSON", score, name == login.group(1), from_login=True))

    def _add(self, value: str, lent: _Lent) -> None:
        if value in self._lent:
            return
        self._lent[value] = lent
        same_run = self._by_first_run.setdefault(_RUN.match(value).group(), [])
        bisect.insort(same_run, (value, lent), key=lambda item: -len(item[0]))


def repeated_values(text: str, spans: list[Span], lexicon: Lexicon, earlier: Lenders | None = None,
                    labels: LabelSet = BUILTIN) -> list[Span]:
    """Spans for the other occurrences of the values `spans` lend (`spans`: sorted,
    non-overlapping, offsets into `text`); `spans` themselves are not returned. `earlier`: what
    the values masked before, in other texts (a session's earlier turns), lend, as a rule's
    spans would lend them. `labels`: the labels of `spans` (the twelve by default)."""
    own = Lenders(labels)
    for span in spans:
        own.lend(text[span.start:span.end], span.label, span.score, span.source, lexicon)
    earlier = earlier if earlier is not None else Lenders(labels)
    if not own and not earlier:
        return []
    lenders = _Both(own, earlier)
    taken = SpanIndex(spans)
    lower_case_words: set[str] | None = None
    capitalised: dict[str, bool] = {}  # a login's word in lower case → whether the text writes it capitalised
    found: list[Span] = []
    end_of_last = 0
    for run in _RUN.finditer(text):
        start = run.start()
        if start < end_of_last:
            continue
        candidates = lenders.starting(run.group())
        if not candidates:
            continue
        before = text[start - 1] if start > 0 else ""
        for value, lender in candidates:
            end = start + len(value)
            if not text.startswith(value, start) or _continues(text, end) or taken.overlapping(start, end):
                continue
            if lender.label != "PERSON":
                if before and before in _NOT_BEFORE_CODE:
                    continue
            else:
                if (before and before in _NOT_BEFORE) or _proper_noun_before(text, start, lexicon) \
                        or _before_ampersand(text, end, taken, lenders) or lexicon.names_a_thing(text, start, end, after=False):
                    continue
                if lender.from_login and not lender.starts_name:
                    if value not in capitalised:
                        capitalised[value] = _written_capitalised(text, value)
                    if capitalised[value]:
                        continue  # "Odile Marsh" written, "odile.marsh@…" lent: "the marsh path" is a word
                if value[:1].isupper() and _starts_sentence(text, start):
                    if lower_case_words is None:
                        lower_case_words = {w.group() for w in _LOWER_CASE_WORD.finditer(text)}
                    if value.lower() in lower_case_words:  # "Will you…" where "will" is written: a word here
                        continue
                if _CAPITAL_AFTER.match(text, end):
                    surname = _surname_after(text, end, lender, lexicon)
                    if surname is None or taken.overlapping(end, surname):
                        continue
                    end = surname
                initials = _INITIALS_BEFORE.search(text, max(end_of_last, start - 12), start)
                if initials and not taken.overlapping(initials.start(), start):
                    start = initials.start()
            found.append(Span(start, end, lender.label, lender.score, "repeat"))
            end_of_last = end
            break
    return found


class _Both:
    """A text's own lenders before the earlier turns'."""

    def __init__(self, own: Lenders, earlier: Lenders) -> None:
        self.own, self.earlier = own, earlier

    def __contains__(self, value: str) -> bool:
        return value in self.own or value in self.earlier

    def starting(self, run: str) -> list[tuple[str, _Lent]]:
        own, earlier = self.own.starting(run), self.earlier.starting(run)
        if not earlier:
            return own
        both = own + [item for item in earlier if item[0] not in self.own]
        return sorted(both, key=lambda item: -len(item[0])) if own else both


def _written_capitalised(text: str, word: str) -> bool:
    """True if `text` writes the lower-case `word` capitalised, as a whole word: the writer
    capitalises that name, so the word in lower case is the language's."""
    capitalised = word[:1].upper() + word[1:]
    return regex.search(r"(?<![\p{L}\p{N}_])" + regex.escape(capitalised) + r"(?![\p{L}\p{N}_])", text) is not None


def _continues(text: str, end: int) -> bool:
    """True if the word goes on after `end` (a longer word, an e-mail, a hyphenated compound)."""
    return end < len(text) and (_RUN.match(text[end]) is not None or text[end] in _NOT_AFTER)


def _surname_after(text: str, end: int, lender: _Lent, lexicon: Lexicon) -> int | None:
    """Where the surname after a lent first name ends ("Hamish" lent, "Hamish Rattray" written):
    one capitalised word, no capitals, not a word that ends names or starts an address, and no
    third capitalised word after it. None when the value is not the start of its lender's name."""
    if not lender.starts_name:
        return None
    surname = _SURNAME.match(text, end)
    if surname is None or surname.group(1).isupper():
        return None
    folded = surname.group(1).casefold()
    if folded in lexicon.name_stop_words or folded in lexicon.address_line_words:
        return None
    return surname.end()


def _proper_noun_before(text: str, start: int, lexicon: Lexicon) -> bool:
    before = _WORD_BEFORE.search(text, max(0, start - 40), start)
    if before is None or not before.group(1)[0].isupper() or _INITIALS.fullmatch(before.group(1)):
        return False
    return before.group(1).casefold().rstrip(".") not in lexicon.person_lead_words \
        and not _starts_sentence(text, before.start())


def _starts_sentence(text: str, start: int) -> bool:
    return _SENTENCE_START.search(text, max(0, start - 8), start) is not None


def _before_ampersand(text: str, end: int, taken: SpanIndex[Span], lenders: _Both) -> bool:
    """True if an "&" follows and what it joins is no name: "Fontaine & Associés" is a firm,
    "Ewan & Cerys Dalgleish" and "Grace & Bill" are two people."""
    ampersand = _AMPERSAND_AFTER.match(text, end)
    if ampersand is None:
        return False
    after = ampersand.end()
    if any(s.start == after and s.label == "PERSON" for s in taken.overlapping(after, after + 1)):
        return False
    word = _RUN.match(text, after)
    return word is None or word.group() not in lenders
