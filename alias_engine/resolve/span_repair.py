"""Span repair: the model's spans cut, joined, extended or relabelled where the text shows a value's edges.

The model finds values but not always their edges: a PERSON that runs over a
line break, a column gap or a title ("Dr Jean Dupont"), a couple in one span
("Ewan & Cerys Dalgleish"), a name cut in pieces ("Anne" + "Roux") or one word
short, an address that starts a word early, stops before its town or holds its
addressee's name on its first line, a number with the code or punctuation
before it ("PC 4471"). Each repair reads only the text around the span, with
the languages' word lists (rules/<lang>/language.json → "words", united; docs/rules.md;
compiled in checks_data.py); what a repair leaves over that is still a value stays masked
as what it is ("2287 Collins": the number an IDENTIFIER; "Arjun Malhotra
(amalhotra)": the login an IDENTIFIER). For every label, no span runs onto the
next line's form item ("…⏎1.6").

The format checks are format_checks.py; `check_model_spans` (resolve/__init__.py)
runs both, in their order.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Iterable

import regex

from ..detectors.keywords import COLUMN_GAP, is_possible_phone, strip_accents
from ..spans import Span, SpanIndex, line_window_start
from .checks_data import Check, ModelChecks, Piece
from .format_checks import AMOUNT
from .lexicon import Lexicon

# Where a PERSON span is cut: a line break, a tab or a column gap of spaces (table columns).
_PERSON_BREAK = regex.compile(rf"\s*(?:\n|\t| {{{COLUMN_GAP},}})\s*")
# A column gap inside a line of a space-laid table: a tab or COLUMN_GAP spaces or more between two values.
_COLUMN_GAP = regex.compile(rf"(?<=\S)(?=[ ]*(?:\t|[ ]{{{COLUMN_GAP}}}))[ \t]++(?=\S)")
# An initial or a particle glued to the next piece of a name: "M'", "J.-", "J.-P."
_NAME_PREFIX = regex.compile(r"(?<![\p{L}.'’])(?:\p{Lu}['’]|(?:\p{Lu}\.-)+)\Z")
# Initials written before a surname, with a space: "S.R. ", "J. ", "M. " (in French "M." is a title).
_INITIALS_BEFORE = regex.compile(r"(?<![\p{L}\p{N}.'’\-])((?:\p{Lu}\.[ ]?){0,2}\p{Lu}\.)[ ]\Z")
# An initial without its dot before a surname in capitals, as statements write a payee ("TO M OYELARAN"); not
# "A" or "À", an article or the French "à" ("VIR EMIS /A DUPONT")
_INITIAL_BEFORE_CAPITALS = regex.compile(r"(?<![\p{L}\p{N}.'’\-])([B-Z])[ ]\Z")
# A form's item number or letter alone on a line ("1.6", "d").
_FORM_ITEM = regex.compile(r"\d{1,2}(?:\.\d{1,2})?|\p{Ll}")
# A title or greeting word before a name ("Dr.", "G'day"), and a number before it ("2287 Collins").
_LEAD_WORD = regex.compile(r"(\p{L}+(?:['’]\p{L}+)?(?:\.\p{L}+)*)\.?\s+(?=\S)")  # "Dr", "G'day", "P.S."
_LEAD_NUMBER = regex.compile(r"(\d+)\s+(?=\p{L})")
_LETTERS = regex.compile(r"[\p{L}\p{M}]+")
_ARTICLES = frozenset({"le", "la", "des", "el", "al", "y", "ben", "bin"})  # words of a sentence too ("le Romberg", "ben Karim")
# One or two lower-case words before a name, after a line's or a cell's start or after a word (a title?)
_PARTICLES_BEFORE = regex.compile(r"(?:(?:^|[\t;|]|[ ]{2})[ \t]*|(?<![\p{L}])(\p{L}+)\.?[ ])((?:\p{Ll}+[ ]){1,2})\Z",
                                  regex.MULTILINE)
# Two names joined by "&", each one or two capitalised words or an initial and a surname ("Hannah & Femi",
# "H OKAFOR & F OKAFOR")
_NAME = r"(?:\p{Lu}\.?[ ])?\p{Lu}[\p{L}\p{M}'’\-]+(?:[ ]\p{Lu}[\p{L}\p{M}'’\-]+)?"
_TWO_NAMES = regex.compile(r"(" + _NAME + r")[ ]*&[ ]*(" + _NAME + r")")
# Where a capital comes from the position: the text's or a line's first word (after a bullet or a heading's
# marks), or a word after a sentence's end. Not after a colon ("Nom : Goujon" is a field's value) nor after a
# word of one or two letters and a dot, an initial or a title ("J. Goujon", "MM. Bondon").
_SENTENCE_START = regex.compile(r"(?:\A|\n)[ \t]*(?:[-*•>#]+[ \t]+)?\Z|\|[ \t]*\Z"  # a line's or a table cell's start
                                r"|(?<!(?:\A|[^\p{L}])\p{L}{1,2}\.)(?<=[.!?])[ \t]+\Z")
# The word right before a position, and its dot: "Mr. " (a title before a name).
_LAST_WORD_BEFORE = regex.compile(r"(\p{L}+(?:['’]\p{L}+)?)\.?[ \t]+\Z")
# A line's (or a quoted field's) comma-separated parts before an address: "Résidence Les Tilleuls, bât. C, "
_PARTS_BEFORE = regex.compile(r"(?:[^\n]*[\"«(:;][ \t]*|[ \t]*)((?:[^\n,;:\"«()]{2,60},[ \t]*){1,3})")
# A postcode after a region in parentheses (Canada's "H2J 2L3", a 4-5 digit one), a postcode ending an
# address, and a town after it that ends the line or the clause.
_POSTCODE_AFTER = regex.compile(r"[ ,]+(?:\p{Lu}\d\p{Lu}[ \-]?\d\p{Lu}\d|\d{4,5})(?![\p{L}\p{N}])")
_ENDS_WITH_POSTCODE = regex.compile(r"(?<![\p{L}\p{N}.,])\d{4,5}\Z")
# A US state's two capitals ending an address, and the ZIP (+4) after it ("OMAHA NE" → "OMAHA NE 68114-3827").
_ENDS_WITH_STATE = regex.compile(r"(?<![\p{L}\p{N}])\p{Lu}{2}\Z")
_ZIP_AFTER = regex.compile(r"[ \t]+\d{5}(?:-\d{4})?(?![\p{L}\p{N}\-])")
# A UK postcode's outward part ending the span ("…Cheltenham GL52") and its inward part after it (" 6TW")
_ENDS_WITH_OUTWARD = regex.compile(r"(?<![\p{L}\p{N}])[A-Z]{1,2}\d[A-Z\d]?\Z")
_INWARD_AFTER = regex.compile(r" \d[A-Z]{2}(?![\p{L}\p{N}])")
# A whole UK postcode after the span, after a comma, a space ("…Birmingham B1 2JT") or alone on the next line
# ("…PENARTH⏎CF64 1TT"), and the towns before it on its line (", Bristol BS20 7JD")
_UK_POSTCODE_AFTER = regex.compile(r"(?:,[ \t]*(?:\p{Lu}[\p{L}'’\-]+(?:[ \t]\p{Lu}[\p{L}'’\-]+)?,?[ \t]+)?|[ \t]*\r?\n[ \t]*|[ ])"
                                   r"[A-Z]{1,2}\d[A-Z\d]?[ ]?\d[A-Z]{2}(?![\p{L}\p{N}])")
_TOWN_AFTER = regex.compile(r" ((?:\p{Lu}\p{Ll}* )?\p{Lu}\p{Ll}+(?:[\-'’]\p{Ll}*\p{Lu}?\p{Ll}+)*)"
                            r"(?=[,.;)]|[ \t]*\r?\n|\Z| \p{Ll})")
# A town's name as written after a postcode or before a US state: capitalised words, hyphens and particles
# ("Aix-en-Provence", "Villeneuve-sur-Lot", "SAINT-PIERRE-DES-CORPS", "Salt Lake City").
_TOWN = (r"\p{Lu}\p{L}*(?:[\-'’]\p{L}+)*(?:[ ](?:(?:sur|sous|en|lès|les|le|la|de|du|des)[ \-])?"
         r"\p{Lu}\p{L}*(?:[\-'’]\p{L}+)*){0,3}")  # one way to read each apostrophe: no backtracking blow-up
# After a street with no postcode yet: a French postcode and its town (", 69007 Lyon", ", 44093 Nantes Cedex 1"),
# or a US unit, town, state and ZIP (", Unit 207, Dallas, TX 75204"), ending the clause or the line.
_CLAUSE_END = r"(?=[,.;:)\]\"'»]|[ \t]*\r?\n|\Z|[ ][\p{Ll}(–—-])"
_FR_TOWN_AFTER = regex.compile(rf",[ \t]*\d{{5}}[ \t]+{_TOWN}(?:[ \t]+(?:Cedex|CEDEX)(?:[ \t]+\d{{1,2}})?)?{_CLAUSE_END}")
_US_TOWN_AFTER = regex.compile(
    rf"(?:,[ \t]*(?:Apt|Apartment|Unit|Suite|Ste|Fl|Floor|Bldg|#)\.?[ \t]*#?[\p{{L}}\d\-]{{1,6}})?"
    rf",[ \t]*{_TOWN},?[ \t]+[A-Z]{{2}}[ \t]+\d{{5}}(?:-\d{{4}})?{_CLAUSE_END}")
# A postcode and the first part of a hyphenated town ending the span, and the town's other parts after it
_ENDS_WITH_POSTCODE_AND_TOWN = regex.compile(r"(?<![\p{L}\p{N}])\d{4,5}[ \t]+\p{L}[\p{L}'’\-]*(?<=\p{L})\Z")
_HYPHENATED_REST = regex.compile(r"(?:-\p{L}[\p{L}'’]*)+(?![\p{L}\p{N}\-])")
_HAS_POSTCODE = regex.compile(r"(?<![\p{L}\p{N}])(?:\d{5}|[A-Z]{1,2}\d[A-Z\d]?[ ]?\d[A-Z]{2})(?![\p{L}\p{N}])")
# A US house number and a compass point before a street the model started after them ("2215 W | Armitage Ave").
_NUMBER_AND_POINT_BEFORE = regex.compile(r"(?:^|(?<=[\s,:(]))\d{1,5}[ ](?:[NSEW]|N[EW]|S[EW])\.?[ ]\Z", regex.MULTILINE)
_LINE_MARKS = " \t>*-•|?"  # quoting and list marks before a line's text
# One word of a name: "Bisliev", "DUVAL", "Jean-Pierre", "O'Neil", "N.", "J.-P."
_NAME_WORD = regex.compile(r"\p{Lu}(?:\p{Ll}+|\p{Lu}+)(?:['’\-]\p{Lu}?\p{Ll}+|['’\-]\p{Lu}+)*|(?:\p{Lu}\.-?)+")
# A number with the code or punctuation the model took before it: "PC 4471", "=71564", "DLK 730265".
_CODE_THEN_NUMBER = regex.compile(r"([^\p{L}\p{N}+(]*)(?:(\p{Lu}{2,6})\.?[ \t]+|(\p{Ll}{2,8})\.?[ \t:]+)?"
                               r"([+(]?\d[\d \t.\-/()]*)")
# An acronym and a number, and nothing else: a registration ("MCRN 638205"), never an address
# (a US state and its ZIP, "MO 89035", are an address's end).
_CODE_AND_NUMBER = regex.compile(r"(?!\p{Lu}{2}[ ]+\d{5}(?:-\d{4})?\Z)\p{Lu}{2,6}[ ]+(\d[\d \-/]*\d)")


def joined_names(spans: Iterable[Span], text: str) -> list[Span]:
    """PERSON spans that the model cut in pieces become one name: "Anne" + "Roux" (a space or a hyphen
    between them), "DUVAL" + "Anne" ("NOM, Prénom", "Surname, Given <e-mail>" in a mail's header, "Brennan, Cathal"
    filling a table's cell, the given name one word), and a glued "M'" or "J.-" before a piece
    ("M'" + "BALA Sidi", "J.-" + "P. Roux")."""
    spans = sorted(spans, key=lambda s: (s.start, s.end))
    out: list[Span] = []
    for span in spans:
        if span.label == "PERSON":
            m = _NAME_PREFIX.search(text, max(0, span.start - 12), span.start)
            if m is not None:
                span = Span(m.start(), span.end, span.label, span.score, span.source, span.verified)
            prev = out[-1] if out else None
            if prev is not None and prev.label == "PERSON" and prev.end <= span.start and \
                    _joins(text, prev.start, prev.end, span.start, span.end):
                out[-1] = Span(prev.start, span.end, "PERSON", max(prev.score, span.score), prev.source,
                               prev.verified and span.verified)
                continue
        out.append(span)
    return out


def joined_addresses(spans: Iterable[Span], text: str) -> list[Span]:
    """An ADDRESS the model cut at a possessive's apostrophe is one address: "FLAT 2, 5 PILOT" + "'S " +
    "QUAY⏎DEAL⏎CT14 6AB", and a word taken for a name before it, "Flat 1, " + "Tanner" + "'s " + "Yard, Leeds
    LS1 4AB" (a building's word before it, "Résidence …", may then start the address: `_building_start`).
    A name is joined only to an address with a number, which `_address` keeps: "Sarah" of "Sarah's
    Kensington flat" stays a PERSON.

    >>> text = "Flat 1, Tanner's Yard, Leeds LS1 4AB"
    >>> [(text[s.start:s.end], s.label) for s in joined_addresses(
    ...     [Span(8, 14, "PERSON", 0.9, "model"), Span(17, 36, "ADDRESS", 0.9, "model")], text)]
    [("Tanner's Yard, Leeds LS1 4AB", 'ADDRESS')]
    >>> text = "Drop it at Sarah's Kensington flat tomorrow."
    >>> [(text[s.start:s.end], s.label) for s in joined_addresses(
    ...     [Span(11, 16, "PERSON", 0.9, "model"), Span(19, 34, "ADDRESS", 0.9, "model")], text)]
    [('Sarah', 'PERSON'), ('Kensington flat', 'ADDRESS')]
    """
    out: list[Span] = []
    for span in sorted(spans, key=lambda s: (s.start, s.end)):
        prev = out[-1] if out else None
        if span.label == "ADDRESS" and prev is not None and prev.end <= span.start and \
                _POSSESSIVE_GAP.fullmatch(text, prev.end, span.start) and text[span.start].isalpha() and \
                (prev.label == "ADDRESS" or prev.label == "PERSON" and " " not in text[prev.start:prev.end]
                 and any(c.isdigit() for c in text[span.start:span.end])):
            out[-1] = Span(prev.start, span.end, "ADDRESS", max(prev.score, span.score), span.source,
                           prev.verified and span.verified)
            continue
        out.append(span)
    return out


_POSSESSIVE_GAP = regex.compile(r"['’][sS][ ]")


def _joins(text: str, start: int, first_end: int, second_start: int, end: int) -> bool:
    first, gap = text[start:first_end], text[first_end:second_start]
    if gap in (" ", "-"):
        return True
    # "DUVAL, Anne"; an e-mail header's "O'Driscoll, Aoife <a.odriscoll@…>"; a table cell's "Brennan, Cathal"
    return gap == ", " and (first.isupper() and " " not in first or _ADDRESS_AFTER.match(text, end) is not None
                            or (" " not in text[second_start:end] and _CELL_EDGE_BEFORE.search(text, max(0, start - 3), start) is not None
                                and _CELL_EDGE_AFTER.match(text, end) is not None))


_ADDRESS_AFTER = regex.compile(r"[ \t]{0,16}<[^<>\s]+@")  # bounded: see repeats._AMPERSAND_AFTER
# A table cell's edges: the text's or a line's start or end, a tab, ";", "|", a quote, a column gap of two spaces
_CELL_EDGE_BEFORE = regex.compile(r"(?:\A|[\n\t;|\"']|[ ]{2})[ ]?\Z")
_CELL_EDGE_AFTER = regex.compile(r"[ ]?(?:\Z|[\r\n\t;|\"']|[ ]{2})")


def without_form_item(span: Span, text: str) -> Span:
    """A span that runs onto the next line's item number or letter ("47-2210589⏎c") stops before it."""
    cut = text.rfind("\n", span.start, span.end)
    if cut <= span.start or not _FORM_ITEM.fullmatch(text[cut + 1:span.end].strip()):
        return span
    end = cut
    while end > span.start and not text[end - 1].isalnum():
        end -= 1
    if end <= span.start:
        return span
    return Span(span.start, end, span.label, span.score, span.source, span.verified)


_ENTITIES_START = regex.compile(r"(?:&#?\w{2,8};?\s*)+")
_ENTITIES_END = regex.compile(r"(?:\s*&#?\w{2,8};?)+\Z")


def without_entities(span: Span, text: str) -> Span | None:
    """A span without the HTML entities at its edges ("Leyla Farouk &ndash" is "Leyla Farouk"); None when
    it is one."""
    if "&" not in text[span.start:span.end]:
        return span
    start, end = span.start, span.end
    if (lead := _ENTITIES_START.match(text, start, end)) is not None:
        start = lead.end()
    if (trail := _ENTITIES_END.search(text, start, end)) is not None:
        end = trail.start()
    if end - start < 2:
        return None
    return span if (start, end) == (span.start, span.end) else Span(start, end, span.label, span.score, span.source,
                                                                    span.verified)


def number_without_code(span: Span, text: str, lexicon: Lexicon) -> Span:
    """A number span does not start with the punctuation, the rank, a word in lower case or a label's colon
    the model took before it ("=71564", "PC 4471", "cvc 907", "1 : 30 57 214 869 342"); capitals that may
    be the value's own stay ("DLK 730265", "TREM 7154 0937")."""
    label_end = text.rfind(": ", span.start, span.end)
    if label_end >= 0 and sum(c.isdigit() for c in text[label_end:span.end]) >= 6:
        # a form's numbered label before the number: "déclarant 1 : 30 57 214 869 342"
        start = label_end + 2
        while start < span.end and text[start].isspace():
            start += 1
        span = Span(start, span.end, span.label, span.score, span.source, span.verified)
    m = _CODE_THEN_NUMBER.fullmatch(text, span.start, span.end)
    if m is None:
        return span
    word = m.group(3) and sum(c.isdigit() for c in m.group(4)) >= 3  # "cvc 907"; "psycopg 3" is no number's label
    start = m.start(4) if word or (m.group(2) or "").casefold() in lexicon.person_lead_words else m.end(1)
    return Span(start, span.end, span.label, span.score, span.source, span.verified)


def _person(text: str, start: int, end: int, checks: ModelChecks) -> list[Piece]:
    """Cut at line breaks and column gaps; drop leading titles and trailing words that end no name; no single
    letters."""
    lexicon = checks.lexicon
    kept: list[Piece] = []
    start = _particles_before(text, start, lexicon)
    for s, e in _pieces_between(_PERSON_BREAK, text, start, end):
        s = _after_titles(text, s, e, lexicon.person_lead_words)
        couple = lexicon.couple.match(text, s, e)
        if couple is not None:
            kept.append((s, couple.end(1)))
            s = couple.end()
        pair = _TWO_NAMES.fullmatch(text, s, e)
        if pair is not None and text[s:e].casefold() not in lexicon.brand_names \
                and not lexicon.company_word.search(text, s, e):  # "Hannah & Femi": two people; "Fontaine & Fils" one firm
            kept.append(pair.span(1))
            s = pair.start(2)
        number = _LEAD_NUMBER.match(text, s, e)
        name_start = number.end() if number else s
        e = _before_trailing_words(text, name_start, e, lexicon)
        if sum(c.isalpha() for c in text[name_start:e]) > 1:
            if number:  # "2287 Collins": the number before the name stays masked, as what it is
                kept.append((s, s + len(number.group(1)), "IDENTIFIER"))
            kept.append((name_start, e))
    return kept


def _particles_before(text: str, start: int, lexicon: Lexicon) -> int:
    """Where a name starts that the model began after its particles: lower-case particles (`name_particles`)
    right before a capitalised name, opening its line or its cell or after a title ("de VAUGELAS Hélène" in
    a register's column, "Mme van der BERG"). Elsewhere a "de" before a name is the language's ("la maison
    de Martin")."""
    if start == 0 or not text[start].isupper():
        return start
    m = _PARTICLES_BEFORE.search(text, max(0, start - 30), start)
    if m is None or not all(w in lexicon.name_particles and w not in _ARTICLES for w in m.group(2).split()) \
            or (m.group(1) is not None and m.group(1).casefold() not in lexicon.person_lead_words):
        return start
    return m.start(2)


def words_capitalised_by_position(spans: list[Span], text: str, lexicon: Lexicon, lang: str = "") -> list[Span]:
    """Without the PERSON spans made only of words the text's language writes in lower case and that name
    nobody (rules/<lang>/lower_case_words.txt), capitalised only because they start a sentence, a line or
    a table's cell: "Feedback on …", a heading "Summary", a lab test "Magnésium | 2,1", "| Calcium | 9.3 |". Inside a sentence a capital says a
    name ("Mais Goujon l'accabla": a surname that is also a word), a word in lower case is no sentence
    start ("lulu"), a title before it makes it a name ("Dr Summary"), and another language's word is a
    name here ("Bec" ends an English chat; "bec" is French)."""
    words = lexicon.words_of(lang, "lower_case_words")
    return [span for span in map(lambda s: _without_capital_words_after(text, s, words), spans)
            if span.label != "PERSON"
            or not (_capitalised_by_position(text, span, words) or _in_capitals(text, span, words))
            or _title_before(text, span.start, lexicon)]


def _without_capital_words_after(text: str, span: Span, lower_case_words: frozenset[str]) -> Span:
    """A name in capitals stops before a word in capitals that the language writes in lower case after it:
    a statement's "ODILE QUINTARD MOTIF" is "ODILE QUINTARD" (two words of the name stay at least)."""
    if span.label != "PERSON" or not text[span.start:span.end].isupper():
        return span
    words = list(_LETTERS.finditer(text, span.start, span.end))
    end = span.end
    while len(words) > 2 and words[-1].group().casefold() in lower_case_words:
        words.pop()
        end = words[-1].end()
    return span if end == span.end else Span(span.start, end, span.label, span.score, span.source, span.verified)


def eponyms_removed(spans: list[Span], text: str, lexicon: Lexicon) -> list[Span]:
    """Without the PERSON spans that name a thing after a person: a disease, a prize, a school, a street
    ("Crohn's disease", "the Turner Prize", "sarcome de Kaposi", "lycée Jules-Ferry": the languages'
    `eponym_words` after the name, `eponym_lead_words` before it), and a disease's or a sign's name
    written alone ("pas encore Alzheimer", "Romberg negative": `eponym_names`; "Dr Romberg" is a
    person). LABELS.md: a product, an institution or a street named after a person is no PERSON."""
    return [span for span in spans if span.label != "PERSON" or not (
        lexicon.names_a_thing(text, span.start, span.end)
        or (_POSSESSIVE.sub("", text[span.start:span.end]).casefold() in lexicon.eponym_names
            and not _title_before(text, span.start, lexicon)))]


_POSSESSIVE = regex.compile(r"['’]s\Z")


def brands_removed(spans: list[Span], text: str, lexicon: Lexicon) -> list[Span]:
    """Without the PERSON spans that are a company's or a product's name people mention (`brand_names`:
    "Netflix", "Leroy Merlin", "Sainsbury's", a brand and its model "Dacia Sandero", "Peugeot 3008"), unless a
    title makes it a name ("Mr Tesco") or a name of the text has its word ("Mr Tom Greggs … Greggs":
    `_unless_a_persons`). A brand followed by other words stays whole: the words may be a person's ("votre
    conseillère LCL Marie Durand", "Uber Karim") or the brand a first name ("Apple Martin").

    >>> lexicon = Lexicon.from_words({"brand_names": ["Greggs", "Netflix", "Dacia", "Sandero"], "person_lead_words": ["Mr"]})
    >>> text = "Netflix is down. Mr Greggs asked; Greggs again. My Dacia Sandero too, and Greggs Ada Roe."
    >>> spans = [Span(0, 7, "PERSON", 0.9, "model"), Span(20, 26, "PERSON", 0.9, "model"), Span(34, 40, "PERSON", 0.9, "model"),
    ...          Span(51, 64, "PERSON", 0.9, "model"), Span(74, 88, "PERSON", 0.9, "model")]
    >>> [text[s.start:s.end] for s in brands_removed(spans, text, lexicon)]
    ['Greggs', 'Greggs', 'Greggs Ada Roe']
    """
    if not lexicon.brand_names:
        return spans
    brands = [span for span in spans if span.label == "PERSON" and _only_brands(text, span, lexicon.brand_names)
              and not _title_before(text, span.start, lexicon)]
    return _unless_a_persons(spans, brands, text, lexicon)


def _only_brands(text: str, span: Span, brand_names: frozenset[str]) -> bool:
    """The span is brands' names and models only ("Netflix", "Dacia Sandero", "Peugeot 3008"): names compared
    with their spaces and apostrophes made plain, casefolded, with or without a final "'s"; a number after
    a brand is its model."""
    words = _SPAN_WORD.findall(text, span.start, span.end)
    i = 0
    while i < len(words):
        for n in range(min(len(words) - i, 3), 0, -1):
            value = " ".join(words[i:i + n]).replace("’", "'").casefold()
            if value in brand_names or _POSSESSIVE.sub("", value) in brand_names or (i and value.isdigit()):
                i += n
                break
        else:
            return False
    return bool(words)


_SPAN_WORD = regex.compile(r"\S+")


def _unless_a_persons(spans: list[Span], candidates: list[Span], text: str, lexicon: Lexicon) -> list[Span]:
    """`spans` without `candidates` (PERSON spans judged a company's or a brand's name), but a candidate
    with a word of a PERSON span left in the text stays masked, or the text would show that person's name
    ("Henri Marchal … SCEA Marchal"); particles and words under 3 letters ("Le", "de") and company words
    ("SCEA") do not count."""
    if not candidates:
        return spans
    dropped = {id(span) for span in candidates}

    def name_words(span: Span) -> set[str]:
        return {w.group().casefold() for w in _LETTERS.finditer(text, span.start, span.end)
                if len(w.group()) >= 3 and w.group().casefold() not in lexicon.name_particles
                and not lexicon.company_word.fullmatch(w.group())}

    persons_words = set().union(*(name_words(span) for span in spans if span.label == "PERSON" and id(span) not in dropped))
    return [span for span in spans if id(span) not in dropped or name_words(span) & persons_words]


def birthplaces_removed(spans: list[Span], text: str, lexicon: Lexicon) -> list[Span]:
    """Without the PERSON spans right after "né à", "born in" (`birthplace_lead_words`): a town the model took
    for a name ("née à Florence", "born in Tralee")."""
    return [span for span in spans if span.label != "PERSON" or not _after_birthplace_lead(text, span.start, lexicon)]


def _after_birthplace_lead(text: str, start: int, lexicon: Lexicon) -> bool:
    """`start` follows "né à ", "born on 3 May 1950 in " (`Lexicon.birthplace_before`, 40 characters read)."""
    return lexicon.birthplace_before.search(text, max(0, start - 40), start) is not None


def self_introduced_names(text: str, spans: list[Span], lexicon: Lexicon, not_names: frozenset[str]) -> list[Span]:
    """PERSON spans for the name a writer gives themself in lower case at a message's start, where no span
    is ("hey its ysolde, new number", "hiya it's bryony", "coucou, c'est léa (…)"): a word of 3 letters or more,
    no word of the languages' (`lower_case_words`: "its raining") nor a greeting or chat word (`not_names`:
    "its lol")."""
    words = lexicon.words_of("", "lower_case_words")
    taken = SpanIndex(spans)
    found = []
    for m in lexicon.self_introduction.finditer(text):
        name = m.group(1)
        if name.casefold() in words or name.casefold() in not_names or taken.overlapping(m.start(1), m.end(1)):
            continue
        found.append(Span(m.start(1), m.end(1), "PERSON", 0.8, "keyword"))
    return found


# A chat line's speaker: its time in brackets ("[02/07/2025, 20:16]", "[Mon 18:53]") or an export's date, time
# and dash ("02/07/2025, 20:16 - "), then the speaker and a colon.
_CHAT_SPEAKER = regex.compile(r"^[ \t]*(?:\[[^\]\n]{0,24}?\d{1,2}[:h]\d{2}[^\]\n]{0,12}\]"
                              r"|\d{1,2}/\d{1,2}/\d{2,4},?[ ]\d{1,2}:\d{2}(?:[ ]?[AaPp][Mm])?[ ]+[-–])[ \t]+"
                              r"([^:\s](?:[^:\n]{0,38}[^:\s])?):(?:[ \t]|$)", regex.MULTILINE)
_LOWER_CASE_NAME = regex.compile(r"\p{Ll}[\p{Ll}\p{M}]{1,19}")
MIN_NAMED_SPEAKERS = 2  # other speakers, each a PERSON span whole: the chat's speakers are people
MAX_SPEAKER_WORDS = 4


def chat_speakers_added(text: str, spans: list[Span], lexicon: Lexicon, not_names: frozenset[str]) -> list[Span]:
    """PERSON spans for a chat's speaker written as one word in lower case where no span is ("[20:16] dev: in."),
    in a chat whose speakers are people: `MIN_NAMED_SPEAKERS` other speakers or more (told apart by their
    first word in lower case) are each a PERSON span whole. The model reads "dev" as a word; in a speaker's
    place it is a name. Not a word of the languages (`lower_case_words`: "bot", "you", "system",
    "interviewer") nor a greeting, a kinship or a chat word (`not_names`: "mum"); a log's "[12:00:01] error:
    …" has no named speaker."""
    words = lexicon.words_of("", "lower_case_words")
    persons = SpanIndex([s for s in spans if s.label == "PERSON"])
    taken = SpanIndex(spans)
    named: set[str] = set()
    lower = []
    for m in _CHAT_SPEAKER.finditer(text):
        start, end = m.span(1)
        speaker = m.group(1)
        if len(speaker.split()) > MAX_SPEAKER_WORDS:
            continue
        if any(s.start <= start and end <= s.end for s in persons.overlapping(start, end)):
            named.add(speaker.split()[0].casefold())  # "Priya Raman" and "priya" are one speaker
        elif (_LOWER_CASE_NAME.fullmatch(speaker) and not taken.overlapping(start, end)
              and speaker not in words and speaker not in not_names):
            lower.append((start, end))
    if len(named) < MIN_NAMED_SPEAKERS:
        return []
    return [Span(start, end, "PERSON", 0.8, "keyword") for start, end in lower]


def common_words_removed(spans: list[Span], text: str, lexicon: Lexicon) -> list[Span]:
    """Without the PERSON spans of one word in lower case of 5 letters or more that is a word of the languages
    (`lower_case_words`) right after an article, a possessive or a demonstrative ("for the pizza", "ma
    tarte"): a noun of the language, the model's name in a chat. Alone, such a word may be a name written
    in lower case ("ok so harmony is driving", "i told piper"), and stays."""
    words = lexicon.words_of("", "lower_case_words")
    return [span for span in spans if span.label != "PERSON" or not (
        _common_word(text[span.start:span.end], words) and _DETERMINER_BEFORE.search(text, max(0, span.start - 12), span.start))]


def _common_word(value: str, words: frozenset[str]) -> bool:
    return len(value) >= 5 and value.islower() and value.isalpha() and value in words


# An article, a possessive or a demonstrative right before a word: "the ", "ma ", "cette " (not "a", "that",
# "its", "her": a French verb, a conjunction, a chat's "it's", an object pronoun before a name).
_DETERMINER_BEFORE = regex.compile(r"(?<![\p{L}])(?:the|an|my|your|his|our|their|this|le|la|les|l'|un|une|des|du"
                                   r"|mon|ma|mes|ton|ta|tes|son|sa|ses|notre|votre|leur|leurs|ce|cet|cette)[ \t]+\Z")


def pets_removed(spans: list[Span], text: str, lexicon: Lexicon) -> list[Span]:
    """Without the PERSON spans of one word right after a pet word (`pet_words`: "le chat Caramel", "my dog
    Biscuit"): a pet's name, no person's. A name of two words stays, and so does a name before the pet word
    ("Appelle Marie, le chat est malade": the name may be the one addressed)."""
    return [span for span in spans if span.label != "PERSON" or " " in text[span.start:span.end].strip()
            or not lexicon.pet_before.search(text, max(0, span.start - 30), span.start)]


def companies_removed(spans: list[Span], text: str, lexicon: Lexicon) -> list[Span]:
    """Without the PERSON spans that name a company: a legal form or a trade written as listed right after
    the name, before it or inside the span (`company_words`: "Harrow Finch LLP", "SCEA Marchal", "MORVAN
    PLOMBERIE"). LABELS.md: a company named after a person is no PERSON; but one named after a person of
    the text stays masked (`_unless_a_persons`)."""
    companies = [span for span in spans if span.label == "PERSON" and (
        lexicon.company_after.match(text, span.end)
        or lexicon.company_before.search(text, max(0, span.start - 20), span.start)
        or lexicon.company_word.search(text, span.start, span.end))]
    return _unless_a_persons(spans, companies, text, lexicon)


def merchants_removed(spans: list[Span], text: str, checks: ModelChecks) -> list[Span]:
    """Without the PERSON spans a statement's line names after a card, cash or direct-debit code ("CB
    INTERMARCHE SAINTES", "DD NORTHGAS", `merchant_before`): a merchant or a biller, a company; on a card
    payment's line, the words in capitals after the merchant's too ("CB LEROY MERLIN 05/03 LA ROCHELLE": its
    town), unless a title or a holder's word comes first ("CB DR …", "CARD HOLDER …"). A transfer's payer or
    payee ("VIR INST DE MME ODILE QUINTARD", "FPS FROM FIONA DRUMMOCK") stays."""
    if checks.merchant_before is None:
        return spans
    return [span for span in spans if span.label != "PERSON" or checks.merchant_before.search(
        text[line_window_start(text, span.start, _MERCHANT_WINDOW):span.start]) is None]


_MERCHANT_WINDOW = 50  # characters of the line read before a name for a card's or a debit's code


def medicines_removed(spans: list[Span], text: str, checks: ModelChecks) -> list[Span]:
    """Without the one-word PERSON spans followed by a dose (`dose_after`: "Brilinta 90 mg BD", "Ventoline
    100 µg"): a medicine's name, a product's."""
    if checks.dose_after is None:
        return spans
    return [span for span in spans if span.label != "PERSON" or " " in text[span.start:span.end]
            or checks.dose_after.match(text, span.end) is None]


def _in_capitals(text: str, span: Span, lower_case_words: frozenset[str]) -> bool:
    """Two words or more in capitals, capitalised by their writing (a heading's, a statement's: "NOS
    MÉDECINS", "DD OCTOPUS ENERGY"), each a word the language writes in lower case: no name. One word
    alone may be a name a form writes in capitals."""
    words = _LETTERS.findall(text, span.start, span.end)
    return len(words) >= 2 and all(w.isupper() and w.casefold() in lower_case_words for w in words)


def _capitalised_by_position(text: str, span: Span, lower_case_words: frozenset[str]) -> bool:
    if not text[span.start].isupper() or _SENTENCE_START.search(text, max(0, span.start - 20), span.start) is None:
        return False
    words = _LETTERS.findall(text, span.start, span.end)
    return bool(words) and all(w.casefold() in lower_case_words for w in words)


def _title_before(text: str, start: int, lexicon: Lexicon) -> bool:
    """A title or greeting word right before `start`: "Mr" before "Archer"."""
    return _word_before(text, start) in lexicon.person_lead_words


def _word_before(text: str, start: int) -> str | None:
    """The word right before `start` (a dot after it aside), casefolded, with a straight apostrophe."""
    m = _LAST_WORD_BEFORE.search(text, max(0, start - 30), start)
    return None if m is None else m.group(1).replace("’", "'").casefold()


def _before_trailing_words(text: str, start: int, end: int, lexicon: Lexicon) -> int:
    """Before a number, drop a weekday, month or other word that ends no name ("Patel Mon 14 Apr" is "Patel";
    "LI Jun" stays: a given name that is also a month)."""
    if not regex.match(r"[ \t]*\d", text[end:end + 8]):
        return end
    while True:
        head, space, last = text[start:end].rpartition(" ")
        folded = last.casefold().rstrip(".")
        if not space or not head.strip() or folded not in lexicon.name_stop_words or folded in lexicon.name_particles:
            return end
        end = start + len(head.rstrip())


def _after_titles(text: str, start: int, end: int, titles: frozenset[str]) -> int:
    """Skip title and greeting words ("Dr", "Mr.", "Garda", "G'day") at the start while a word is left after
    them."""
    while True:
        m = _LEAD_WORD.match(text, start, end)
        if m is None or m.group(1).replace("’", "'").casefold() not in titles:
            return start
        start = m.end()


# A phone number after an address on its line, ending the span: ", 07700 900263".
_PHONE_AFTER_ADDRESS = regex.compile(r"(?:[ \t]*[,;–—-][ \t]*|[ \t]*\r?\n[ \t]*)((?:\+|0)[\d .\-]{8,20}\d)\Z")
# After an address's postcode and town: a comma and the sentence going on ("…, 59160 lomme, le portillon"),
# or a last line that is one word starting a sentence the text goes on with ("…26400 Divajeu⏎Chute dimanche")
_CLAUSE_AFTER_TOWN = regex.compile(r"[ \t]*,[ \t]+(?:le|la|les|l['’]|un|une|the|a|an|and|et|mais|but|puis|then)(?![\p{L}])")
_SENTENCE_GOES_ON = regex.compile(r"[ \t]+\p{Ll}")


def _address(text: str, start: int, end: int, checks: ModelChecks) -> list[Piece]:
    """An address has a number (street, flat or postcode: "Cracovie, Pologne" is places, not an address)
    in it or right after it, does not end on a form's item number ("…S11 8YD⏎1.6"), starts at its first
    element, not at a word before it ("outside 27 …") but at the town a deed writes first ("demeurant à
    LYON (69003), 4 rue …"), is more than an acronym and a number ("MCRN 638205": that number is an
    IDENTIFIER), and a first line that is a person's name
    ("Marisa Bisliev⏎583 Magrethevej 298…": an address block under its addressee) is that PERSON.
    A column gap of a space-laid table ends a value as a line break ends a name (`_column_cells`).

    >>> from alias_engine.resolve.lexicon import Lexicon
    >>> text = "SUP208  Imelda Stroud-Haye     7 Haddon Crescent, Derby DE22 3LP      42,50"
    >>> [text[s:e] for s, e, *label in _address(text, 8, len(text), ModelChecks(lexicon=Lexicon()))]
    ['Imelda Stroud-Haye', '7 Haddon Crescent, Derby DE22 3LP']
    >>> text = "2. 880 N Larch St, Boise, ID 83702"
    >>> [text[s:e] for s, e, *label in _address(text, 9, 17, ModelChecks(lexicon=Lexicon()))]
    ['880 N Larch St, Boise, ID 83702']
    """
    lexicon = checks.lexicon
    cells = _column_cells(text, start, end)
    if len(cells) > 1 and any(c.isdigit() for c in text[start:end]):
        pieces: list[Piece] = []
        words: tuple[int, int] | None = None  # the run of cells of words alone, kept as the model found them
        for cell_start, cell_end in cells:
            cell = _address_cell(text, cell_start, cell_end, checks)
            if cell is None:
                words = (words[0] if words else cell_start, cell_end)
                continue
            pieces += ([words] if words else []) + cell
            words = None
        return pieces + ([words] if words else [])
    code = _CODE_AND_NUMBER.fullmatch(text, start, end)
    if code is not None:  # "MCRN 638205", "UCI 14-3087-5162": a registration, not an address
        return [(code.start(1), code.end(1), "IDENTIFIER")]
    last_break = text.rfind("\n", start, end)
    if last_break != -1 and _FORM_ITEM.fullmatch(text[last_break + 1:end].strip()):
        end = last_break
    while end > start and not text[end - 1].isalnum():
        end -= 1
    m = lexicon.address_lead.match(text, start, end)
    if m is not None and m.end() < end:
        start = m.end()
    start = _after_lower_case_lead(text, start, end, lexicon)
    head = lexicon.town_before.search(text, max(0, start - 80), start)
    if head is not None:
        start = head.start(1)
    start = _first_element_start(text, _building_start(text, start, lexicon), lexicon)
    point = _NUMBER_AND_POINT_BEFORE.search(text, max(0, start - 10), start)
    if point is not None:
        start = point.start()
    end = _address_tail(text, start, end, lexicon)
    end = _without_sentence_after(text, start, end, lexicon)
    person: list[Piece] = []
    name_end = _name_line_end(text, start, end, lexicon) or _name_rest_end(text, start, end, lexicon)
    if name_end is not None:
        name_start = _after_titles(text, start, name_end, lexicon.person_lead_words)
        person = [(name_start, name_end, "PERSON")] if name_start < name_end else []
        start = text.index("\n", name_end)
        while start < end and not text[start].isalnum():
            start += 1
    if not any(c.isdigit() for c in text[start:min(len(text), end + 4)]) or _birthplace(text, start, end, lexicon):
        return person
    phone = _PHONE_AFTER_ADDRESS.search(text, start, end)
    if phone is not None and phone.start() > start and is_possible_phone(phone.group(1)):
        return person + [(start, phone.start()), (*phone.span(1), "PHONE")]  # "…, Hitchin SG5 1QT, 07700 900263"
    return person + [(start, end)]


def _without_sentence_after(text: str, start: int, end: int, lexicon: Lexicon) -> int:
    """Where an address ends when the model went on past its postcode and town into the sentence: a comma
    and an article or a conjunction in lower case, or a last line of one word the languages write in lower
    case (`lower_case_words`), capitalised because it starts the sentence the text goes on with
    ("Divajeu⏎Chute dimanche au café": "Chute" is no town; "02362⏎Egypt depuis dix ans" ends on a country).

    >>> lexicon = Lexicon.from_words({}, {"fr": {"lower_case_words": ["chute"]}})
    >>> text = "c'est 5 rue des écoles, 59160 lomme, le portillon du jardin"
    >>> text[6:_without_sentence_after(text, 6, 51, lexicon)]
    '5 rue des écoles, 59160 lomme'
    >>> text = "Quartier Haut, 26400 Divajeu\\nChute dimanche au café"
    >>> text[:_without_sentence_after(text, 0, 34, lexicon)]
    'Quartier Haut, 26400 Divajeu'
    >>> text = "Rua Alta 5, 1200 Lisboa\\nPortugal depuis dix ans"
    >>> text[:_without_sentence_after(text, 0, 32, lexicon)]
    'Rua Alta 5, 1200 Lisboa\\nPortugal'
    """
    postcodes = list(_HAS_POSTCODE.finditer(text, start, end))
    if not postcodes:
        return end
    postcode = postcodes[-1]
    clause = _CLAUSE_AFTER_TOWN.search(text, postcode.end(), end)
    if clause is not None:
        return clause.start()
    last_break = text.rfind("\n", postcode.end(), end)
    last_line = text[last_break + 1:end].strip()
    if last_break != -1 and last_line and " " not in last_line and _SENTENCE_GOES_ON.match(text, end) \
            and last_line.casefold() in lexicon.words_of("", "lower_case_words"):
        end = last_break
        while end > start and not text[end - 1].isalnum():
            end -= 1
    return end


def _birthplace(text: str, start: int, end: int, lexicon: Lexicon) -> bool:
    """A town and its code after "né à", "born in" (`birthplace_lead_words`) on one line, with no street:
    where a person was born ("née à BREST (29)"), not where they live."""
    return (_after_birthplace_lead(text, start, lexicon)
            and not text[start].isdigit() and "\n" not in text[start:end]
            and not any(w.group().casefold() in lexicon.street_words for w in _LETTERS.finditer(text, start, end)))


def _pieces_between(pattern: regex.Pattern, text: str, start: int, end: int) -> list[tuple[int, int]]:
    """`text[start:end]` cut at the matches of `pattern`: the (start, end) of each piece between them."""
    pieces, pos = [], start
    for m in pattern.finditer(text, start, end):
        pieces.append((pos, m.start()))
        pos = m.end()
    return pieces + [(pos, end)]


def _column_cells(text: str, start: int, end: int) -> list[tuple[int, int]]:
    """The cells of a space-laid table's row that a span crosses, cut at its column gaps (`_COLUMN_GAP`:
    "Imelda Stroud-Haye     7 Haddon Crescent" is a name's cell and an address's)."""
    return _pieces_between(_COLUMN_GAP, text, start, end)


def _address_cell(text: str, start: int, end: int, checks: ModelChecks) -> list[Piece] | None:
    """One cell of an address span cut at column gaps: a name ("Imelda Stroud-Haye", "MACALDOWIE,
    Fergus": `is_name_line`) is a PERSON; a code or a login ("KT-5208", "d.varga") is another column's
    value and stays masked as an IDENTIFIER, as do 4 digits or more ("4471 2290"); a sum ("35,00") is no
    one's, and any other number ("CV3 6PT", "12", "2000": a postcode, a house number, a year) stays masked
    as the address's (each line of a cell apart); a cell with a word and a number is checked as an
    address, and words alone (None) stay masked as the model found them: no check says whose they are."""
    value = text[start:end]
    if is_name_line(value.replace(",", " ", 1) if value.count(",") == 1 else value, checks.lexicon):
        return [(_after_titles(text, start, end, checks.lexicon.person_lead_words), end, "PERSON")]
    if _CELL_CODE.fullmatch(value):
        return [(start, end, "IDENTIFIER")]
    if not _STREET_OR_TOWN.search(value):  # no word: a sum is no one's; a postcode, a number, a date stay masked
        return [(line_start, line_end, "IDENTIFIER") if _CELL_NUMBER.fullmatch(text, line_start, line_end)
                else (line_start, line_end) for line_start, line_end in _lines(text, start, end)
                if not AMOUNT.fullmatch(text, line_start, line_end)]
    if not any(c.isdigit() for c in value):
        return None  # words the model masked that no check places ("BABY-SITTING"): they stay masked
    return _address(text, start, end, checks)


def _lines(text: str, start: int, end: int) -> list[tuple[int, int]]:
    """The lines of `text[start:end]`, without their white space."""
    out, pos = [], start
    for line in text[start:end].split("\n"):
        stripped = line.strip()
        if stripped:
            out.append((pos + line.index(stripped), pos + line.index(stripped) + len(stripped)))
        pos += len(line) + 1
    return out


_STREET_OR_TOWN = regex.compile(r"\p{L}{3}")
# A code of digits in a cell of its own: 4 digits or more on one line, no date or year ("4471 2290")
_CELL_NUMBER = regex.compile(r"(?!(?:19|20)\d\d\Z|\d{1,2}/\d{1,2}(?:/\d{2,4})?\Z)(?=(?:[ \-./]*\d){4})\d[\d \-./]*\d")
# A code or a login in a cell: one token of 4 to 40 characters with a letter, and a digit ("KT-5208") or a
# login's "." or "_" between letters ("d.varga", "osprey_lin").
_CELL_CODE = regex.compile(r"(?=.{4,40}\Z)(?=.*\p{L})[\p{L}\d][\p{L}\d._\-/@]*(?<=[\p{L}\d])(?<=.*\d.*|.*\p{L}[._]\p{L}.*)")


# Words in lower case and a comma before a house number: "libéral, 18 rue …", "lot 19, 4 avenue …"
_LOWER_CASE_LEAD = regex.compile(r"([^\p{Lu}\n,;:()\d][^\p{Lu}\n,;:()]{0,29}),[ \t]+(?=\d)")


def _after_lower_case_lead(text: str, start: int, end: int, lexicon: Lexicon) -> int:
    """Where an address starts when the model took words in lower case and a comma before its house
    number: words of the sentence or a unit's lot, not of the address ("kiné en libéral, 18 rue Monge"
    → "18 rue Monge"). A flat's, a floor's or a building's words stay ("appt 41, 18 rue …": `address_line_words`).

    >>> from alias_engine.resolve.lexicon import Lexicon
    >>> lexicon = Lexicon(address_line_words=frozenset({"appt"}))
    >>> text = "deux rues, 4 rue Haute, 33600 Pessac"
    >>> text[_after_lower_case_lead(text, 0, len(text), lexicon):]
    '4 rue Haute, 33600 Pessac'
    >>> _after_lower_case_lead("appt 41, 18 rue Haute", 0, 21, lexicon)
    0
    """
    m = _LOWER_CASE_LEAD.match(text, start, end)
    if m is None or any(w.casefold().rstrip(".") in lexicon.address_line_words for w in m.group(1).split()):
        return start
    return m.end()


def _building_start(text: str, start: int, lexicon: Lexicon) -> int:
    """Where an address starts when the model left out the building's name before it on its line
    ("Résidence Les Tilleuls, bât. C, | 3e étage, 5 rue …"): at that name, if the line (or a quoted
    field) starts with it and only comma-separated parts lie between it and the span."""
    lo = max(0, start - 240)  # bounded: a building's name is short, and the cost stays linear
    line_start = text.rfind("\n", lo, start) + 1
    if line_start == 0 and lo > 0:
        return start
    m = _PARTS_BEFORE.fullmatch(text, line_start, start)
    if m is None or m.group(1).split()[0].casefold().rstrip(".") not in lexicon.address_building_words:
        return start
    return m.start(1)


def _first_element_start(text: str, start: int, lexicon: Lexicon) -> int:
    """Where an address starts when the model left out its first element right before it on its line: the
    house number before a street ("45 | avenue Jean Moulin", "12 bis | rue …"), a building word before
    its name or letter ("bâtiment | B, 3e étage", "Lieu-dit | Kervoal, 29…")."""
    first = _LETTERS.match(text, start)
    if first is not None and first.group().casefold() in lexicon.street_words:
        number = _HOUSE_NUMBER_BEFORE.search(text, max(0, start - 16), start)
        if number is not None:
            return number.start()
    word = _BUILDING_WORD_BEFORE.search(text, max(0, start - 30), start)
    if word is not None and word.group(1).casefold() in lexicon.address_building_words:
        return word.start()
    return start


# The word right before a position, hyphens in it: "bâtiment ", "Lieu-dit ", "bât. ".
_BUILDING_WORD_BEFORE = regex.compile(r"(?<![\p{L}\-])(\p{L}[\p{L}\-]*)\.?[ \t]+\Z")
# A house number right before a street, alone on its line or after a separator: "45 ", "12 bis ", "7B, ".
_HOUSE_NUMBER_BEFORE = regex.compile(r"(?:^|(?<=[\n,;:(]|[\n,;:(][ \t]))[ \t]*\K\d{1,4}(?:[ ]?(?:bis|ter|[A-Za-z]))?,?[ \t]+\Z")


def _address_tail(text: str, start: int, end: int, lexicon: Lexicon) -> int:
    """Where an address the model cut short ends: after the ")" of a region it opened and a postcode that
    follows ("Montréal (Québec" → "Montréal (Québec) H2J 2L3"), and after the town that follows its last
    postcode ("…27, 5004" → "…27, 5004 Bouge"), after the ZIP that follows a US state ("…OMAHA NE" →
    "…OMAHA NE 68114-3827"), after a UK postcode's inward part ("…GL52" → "…GL52 6TW") and a whole UK
    postcode that follows, on the line after a comma and a town, after a space or alone on the next line
    ("…Portishead" → "…Portishead, Bristol BS20 7JD"), and, after a street without a postcode, a French
    postcode and town or a US unit, town, state and ZIP.

    >>> from alias_engine.resolve.lexicon import Lexicon
    >>> def tail(text, end): return text[:_address_tail(text, 0, end, Lexicon())]
    >>> tail("9 impasse des Ormes, 21000 Dijon Cedex 2", 19)
    '9 impasse des Ormes, 21000 Dijon Cedex 2'
    >>> tail("318 Maple Ave, Suite 4B, Fort Wayne, IN 46802 (the unit)", 13)
    '318 Maple Ave, Suite 4B, Fort Wayne, IN 46802'
    >>> tail("Flat 2, 7 Tanner Row, York YO1 6JB  paid", 26)
    'Flat 2, 7 Tanner Row, York YO1 6JB'
    >>> tail("12 rue des Lilas, 37000 Tours, 2 enfants", 16)
    '12 rue des Lilas, 37000 Tours'
    >>> tail("12 rue des Lilas, 37000 TOURS 44 € par mois", 16)
    '12 rue des Lilas'
    >>> tail("12 rue des Lilas, 75001 Paris, 37000 Tours", 29)
    '12 rue des Lilas, 75001 Paris'
    >>> tail("2 rue Haute, 64250 Cambo-les-Bains - 05 59", 24)
    '2 rue Haute, 64250 Cambo-les-Bains'
    """
    value = text[start:end]
    if value.count("(") > value.count(")") and text.startswith(")", end):
        end += 1
        m = _POSTCODE_AFTER.match(text, end)
        if m is not None:
            end = m.end()
    if _ENDS_WITH_STATE.search(text, start, end):
        m = _ZIP_AFTER.match(text, end)
        if m is not None:
            end = m.end()
    if _ENDS_WITH_OUTWARD.search(text, start, end):
        m = _INWARD_AFTER.match(text, end)
        if m is not None:
            end = m.end()
    m = _UK_POSTCODE_AFTER.match(text, end)
    if m is not None:
        end = m.end()
    if text[end - 1:end].isalpha() and not _HAS_POSTCODE.search(text, start, end):
        m = _FR_TOWN_AFTER.match(text, end) or _US_TOWN_AFTER.match(text, end)
        if m is not None:
            return m.end()
    if _ENDS_WITH_POSTCODE_AND_TOWN.search(text, start, end):
        m = _HYPHENATED_REST.match(text, end)  # a town cut at a hyphen: "94200 IVRY-SUR" → "…-SUR-SEINE"
        if m is not None:
            end = m.end()
    if _ENDS_WITH_POSTCODE.search(text, start, end):
        m = _TOWN_AFTER.match(text, end)
        words = m.group(1).casefold().split() if m is not None else []
        if words and (len(words) == 1 or words[0] in lexicon.name_particles) and \
                not any(w in lexicon.name_stop_words or w in lexicon.address_line_words for w in words[-1:]):
            end = m.end()
    return end


def _name_line_end(text: str, start: int, end: int, lexicon: Lexicon) -> int | None:
    """Where the first line of a multi-line address ends when that line is a person's name: the span
    starts its line (or follows a label's colon), the line is 2 to 4 capitalised words or initials
    (particles such as "de" or "van" between them) with no digit and no word of a building, a street,
    a service or a company (`address_line_words`), and the line above is not such a name already (then
    this one is a company's or a building's), and the next line starts the address: a number first, or a
    word of `address_line_words`."""
    brk = text.find("\n", start, end)
    if brk == -1:
        return None
    line_start = text.rfind("\n", 0, start) + 1
    before = text[line_start:start].rstrip()
    if any(c.isalnum() for c in before) and not before.endswith(":"):
        return None
    above_end = line_start
    while above_end > 0 and text[above_end - 1].isspace():
        above_end -= 1
    above = text[text.rfind("\n", 0, above_end) + 1:above_end].strip(_LINE_MARKS)
    if above and is_name_line(above, lexicon):
        return None
    return _name_piece_end(text, start, brk, end, lexicon, shortest=2)


def _name_piece_end(text: str, start: int, brk: int, end: int, lexicon: Lexicon, shortest: int) -> int | None:
    """Where the span's first line ends (`brk`, its line break, less the spaces and separators before it)
    when the piece from `start` is a name (`is_name_line`, `shortest` words at least) and the next line
    starts the address: a number first, or a word of `address_line_words` ("583 Magrethevej 298", "Apt. 12, …")."""
    line_end = brk
    while line_end > start and text[line_end - 1] in " \t\r,;":
        line_end -= 1
    if not is_name_line(text[start:line_end], lexicon, shortest):
        return None
    below = text[brk:end].lstrip().partition("\n")[0].strip(_LINE_MARKS)
    return line_end if below[:1].isdigit() or _has_address_word(below.split(), lexicon) else None


def _has_address_word(words: list[str], lexicon: Lexicon) -> bool:
    return any(w.casefold().rstrip(".,") in lexicon.address_line_words for w in words)


def _name_rest_end(text: str, start: int, end: int, lexicon: Lexicon) -> int | None:
    """Where the first line of a multi-line address ends when the model started it inside the name line above
    the address ("M. OU MME CHARRIER ANTOINE / CHARRIER-NDOYE AWA⏎14 RUE DU DUC…": "AWA" ends a name, no
    part of the address). The span starts after other words of its line, the last of them no word of the
    languages (`lower_case_words`: a name's first words, a title, "c/o"; not a word of the sentence, "from")
    nor a label's colon ("Adresse : Saint-Martin⏎12 route…"), and none of them an address's (no digit, no
    address word, no comma after the last: "c/o flat 2, Lorna Bexley⏎4 Hill Street", "1737 Cheriton Dr
    Reuquén Extensions⏎ Apt. 724"); that first line's piece is 1 to 4 capitalised words or initials with no
    digit and no word of a building, a street, a service or a company ("Hollies Farmhouse⏎Brook Lane" keeps
    its building); and the next line starts the address.

    >>> lexicon = Lexicon.from_words({"address_line_words": ["rue"]}, {"en": {"lower_case_words": ["from"]}})
    >>> text = "MME DE SAINT-PRIEST CAMILLE\\n1240 CHEMIN DE LA MOUTE"
    >>> text[20:_name_rest_end(text, 20, len(text), lexicon)]
    'CAMILLE'
    >>> _name_rest_end("Résidence: Bâtiment C\\n4 rue Bleue", 11, 32, lexicon) is None
    True
    >>> _name_rest_end("my post from Little Snoring\\n14 Church Lane", 13, 42, lexicon) is None
    True
    """
    brk = text.find("\n", start, end)
    if brk == -1:
        return None
    line_start = text.rfind("\n", 0, start) + 1
    before = text[line_start:start].split()
    if not before or before[-1].casefold() in lexicon.words_of("", "lower_case_words") or before[-1].endswith((",", ":")) \
            or any(c.isdigit() for c in text[line_start:start]) \
            or _has_address_word(before, lexicon):
        return None  # "from Little Snoring⏎14 …": a word of the sentence; "c/o flat 2, …", "1737 Cheriton Dr …": an address
    return _name_piece_end(text, start, brk, end, lexicon, shortest=1)


def is_name_line(line: str, lexicon: Lexicon, shortest: int = 2) -> bool:
    words = line.split()
    if not shortest <= len(words) <= 4 or words[0].casefold() in lexicon.name_particles:
        return False
    for i, word in enumerate(words):
        folded = word.casefold().rstrip(".")
        if folded in lexicon.address_line_words or (folded in lexicon.name_stop_words and folded not in
                                                   lexicon.name_particles and folded not in lexicon.person_lead_words):
            return False
        if not (_NAME_WORD.fullmatch(word) or (folded in lexicon.name_particles and i < len(words) - 1)):
            return False
    return True


# The rest of a name on its line, then where a name ends: "Lestrohan, lead", "des Roches⏎", "Price    Tel"
_NAME_REST = regex.compile(r" ((?:\p{Ll}+ )?)(\p{Lu}\p{Ll}+(?:['’\-]\p{Lu}?\p{Ll}+)*)(?=[ \t]*\r?\n|,(?! ?\d)|;|\)|[ \t]{2})")


def surnames_added(spans: list[Span], text: str, lexicon: Lexicon) -> list[Span]:
    """A PERSON span that stops one word before the end of a name takes that word: the model's
    "Pierre-Yves" of "Pierre-Yves Lestrohan, lead developer", "Aymeric Sauvage" of "… Sauvage des
    Roches, mise en place". The word is capitalised (a particle may come before it), ends the
    name (a line break, a comma, a column gap or a parenthesis after it, not more words: "Donald
    Danforth Plant Science Center" is no name), is held by no other span, and is no weekday, month,
    post-nominal, venue or address word, nor has one between its hyphens (`name_stop_words`,
    `address_line_words`: "Getty Museum", "Opéra-Comique")."""
    starts = sorted(s.start for s in spans)
    out = []
    for span in spans:
        m = _NAME_REST.match(text, span.end) if span.label == "PERSON" else None
        if m is not None and text[span.start:span.end][-1:].islower():
            particle, word = m.group(1).strip(), m.group(2)
            i = bisect_right(starts, span.start)
            if (not particle or particle in lexicon.name_particles) and not (i < len(starts) and starts[i] < m.end()) \
                    and not any(part in lexicon.name_stop_words or part in lexicon.address_line_words
                                for part in regex.split(r"['’\-]", word.casefold()) if part not in lexicon.name_particles):
                span = Span(span.start, m.end(), span.label, span.score, span.source, span.verified)
        out.append(span)
    return out


def initials_added(spans: list[Span], text: str, lang: str, lexicon: Lexicon) -> list[Span]:
    """A PERSON span takes the initials written before it ("J.P. Fairweather-Hughes", "K. Threlfall"), except a
    title of the text's language (French "M.", Monsieur: outside the span, but an initial after a title:
    "Dr M. Guérin") and initials another span holds;
    and a surname's initial after it where the name ends there ("nadia k: ok" in a chat, "Nadia K." then
    a space, "clémence v" at a line's end), held by no other span. Before a name in capitals an initial
    may lack its dot, as statements write payees ("STANDING ORDER TO M OYELARAN"; French "M" is a title).

    >>> from alias_engine.spans import Span
    >>> text = "09 May  STANDING ORDER TO M OYELARAN    650.00"
    >>> [text[s.start:s.end] for s in initials_added([Span(28, 36, "PERSON")], text, "en", Lexicon())]
    ['M OYELARAN']
    >>> text = "07/03  VIR INST EMIS /A LUCIE ROUSSELOT /MOTIF"
    >>> [text[s.start:s.end] for s in initials_added([Span(24, 39, "PERSON")], text, "fr", Lexicon())]
    ['LUCIE ROUSSELOT']
    """
    ends = sorted(s.end for s in spans)
    starts = sorted(s.start for s in spans)
    out = []
    for span in spans:
        m = _INITIALS_BEFORE.search(text, max(0, span.start - 12), span.start) if span.label == "PERSON" else None
        if m is None and span.label == "PERSON" and _in_capitals_only(text, span):
            m = _INITIAL_BEFORE_CAPITALS.search(text, max(0, span.start - 2), span.start)
        if m is not None and (m.group(1).rstrip(".").casefold() not in lexicon.words_of(lang, "person_lead_words")
                              or _word_before(text, m.start()) in lexicon.office_titles) and \
                bisect_right(ends, span.start) == bisect_right(ends, m.start()):  # no span ends on the initials
            span = Span(m.start(), span.end, span.label, span.score, span.source, span.verified)
        after = _INITIAL_AFTER.match(text, span.end) if span.label == "PERSON" else None
        if after is not None and bisect_right(starts, span.end) == bisect_right(starts, after.end()):
            span = Span(span.start, after.end(), span.label, span.score, span.source, span.verified)
        out.append(span)
    return out


def _in_capitals_only(text: str, span: Span) -> bool:
    """A surname alone in capitals ("OYELARAN"): an initial before a first name and a surname is rather a
    word ("VIR EMIS /A LUCIE ROUSSELOT": French "à" without its accent)."""
    value = text[span.start:span.end]
    return sum(c.isalpha() for c in value) >= 2 and value.isupper() and " " not in value


# A surname's initial after a first name, where the name ends: a chat's "nadia k:", "Nadia K. said", "clémence v⏎"
# (a lower-case "x" is a kiss: "Love, Grace x"; "L. Boyer M. Dupont": "M." starts the next name)
_INITIAL_AFTER = regex.compile(r"[ \t](?!x)\p{L}(?=:|[ \t]*(?:\r?\n|\Z))"
                               r"|[ \t]\p{Lu}(?=\.(?:[ \t]*(?:[,;)]|\r?\n|\Z)|[ \t]+\p{Ll}))")


# A login in parentheses right after a name: "Arjun Malhotra (amalhotra)".
_LOGIN_AFTER = regex.compile(r"[ \t]?\(([\p{Ll}\p{N}][\p{Ll}\p{N}._\-]{2,31})(?:[ \t]+\p{L}+){0,2}\)")


def logins_after_names(spans: list[Span], text: str) -> list[Span]:
    """A login made of a person's name, in parentheses after it, is an IDENTIFIER: "(amalhotra)" after "Arjun
    Malhotra", "(ivo-dev on GitHub)" after "Ivo" (a role in parentheses, "Jade (owner)", is none: it
    holds no word of the name)."""
    out = []
    for span in spans:
        m = _LOGIN_AFTER.match(text, span.end) if span.label == "PERSON" else None
        if m is None:
            continue
        login = _folded_letters(m.group(1))
        words = [_folded_letters(w) for w in text[span.start:span.end].split()]
        if any(len(w) >= 3 and w in login for w in words):
            out.append(Span(m.start(1), m.end(1), "IDENTIFIER", span.score, span.source, span.verified))
    return out


def _folded_letters(value: str) -> str:
    """The letters of `value`, casefolded and without accents: "O'Brien-Núñez" → "obriennunez"."""
    return "".join(c for c in strip_accents(value.casefold()) if c.isalpha() and c.isascii())


# The repair of each label that has one (its span cut or relabelled into pieces).
REPAIRS: dict[str, Check] = {"PERSON": _person, "ADDRESS": _address}
