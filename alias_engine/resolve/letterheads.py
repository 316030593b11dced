"""Organisation letterheads: the contact block under an organisation's name is the organisation's.

LABELS.md keeps a company's address and switchboard out of ADDRESS and PHONE, and hand-written
letters open with exactly that: a hospital, bank, school or firm's name, then its address and its
numbers ("CLINIQUE DU PARC\\nService d'admission – 21 rue … – 42000 Saint-Étienne\\nTél. : …").
A block is the organisation's when

- it starts a paragraph (the text's start or after a blank line), or follows at most two title
  lines that hold no value;
- its first line names an organisation: a word of `organisation_words` (an institution or a legal
  form) among the first `MAX_NAME_WORDS` words before a separator, none of `sentence_words`
  ("Léa is from Civic Ltd" is a sentence), no number first (an address line: "12 College
  Road"), no street word around the organisation's word ("rue de l'Hôpital") and no titled
  person ("Dr Jean Martin – Clinique …": a self-employed person's office is theirs);

and it runs over the lines under it up to a blank line, at most `MAX_LINES` lines, stopping before
a line that names a person (their direct line is theirs) or holds another kind of value (a
form's birth date, an IBAN), that starts with a field label which is no contact label ("Bien :
studio, 8 rue …" is a form's field, not the letterhead), or that reads as a person's name over a
line that starts with a number: the person's own address block under the organisation's name
("Dayton Tools LLC⏎Ana Ruiz⏎9 Elm Court…⏎Phone: …", whether a detector found the name or not). A PERSON that is part of the
organisation's name is none either ("COLLÈGE JEAN-MOULIN", "SELARL DUPONT & MOREL": only
capitalised words, or `organisation_connectors` ("de", "of"), between it and the organisation's word).
An ADDRESS written on its line right after an organisation's name and a separator ("l'agence ATRIUM
LOCATION, 9 rue des Tanneurs…") is the organisation's too.
The words are the languages' (rules/<lang>/language.json → "words", united over the languages).

A statement laid out in two columns by spaces (the organisation's block on the left, the
customer's name, address and phone on the right of the same lines) has the organisation's block
in its left column only: when the organisation's line has a gap of `COLUMN_GAP` spaces, each
line of the block is the organisation's up to its first such gap, and what stands to the right
is judged as any other text.

>>> lexicon = Lexicon.from_words({"organisation_words": ["clinique"], "contact_labels": ["tél"],
...                              "street_words": ["rue"], "sentence_words": ["is"], "person_lead_words": ["dr"]})
>>> text = "CLINIQUE DU PARC\\n21 rue Claude Bernard, Lyon\\nTél. : 04 72 00 00 00\\n\\nPatient : …"
>>> [(text[z.start:z.end], sorted(z.labels)) for z in organisation_blocks(text, [], lexicon)]
[('CLINIQUE DU PARC\\n21 rue Claude Bernard, Lyon\\nTél. : 04 72 00 00 00', ['ADDRESS', 'PHONE'])]
"""

from __future__ import annotations

from collections.abc import Sequence

import phonenumbers
import regex

from ..detectors.keywords import COLUMN_GAP
from ..spans import Span, SpanIndex, Suppression, line_window_start
from .lexicon import Lexicon
from .span_repair import is_name_line

MAX_LINES = 5  # the organisation's line and the contact lines under it
MAX_TITLE_LINES = 2  # lines without a value that may come before the organisation's line
MAX_LINE_CHARS = 160
MAX_NAME_WORDS = 7  # words of the organisation's name, before its line's first separator
LABELS = frozenset({"ADDRESS", "PHONE"})  # what the block under the name holds of the organisation's
CONTACT_LABELS = LABELS | {"EMAIL", "URL"}  # what else a letterhead's lines hold
NAME_LABELS = frozenset({"PERSON"})  # "COLLÈGE JEAN-MOULIN": an organisation named after a person

_WORD = regex.compile(r"[\p{L}][\p{L}'’.\-]*")
_SEPARATOR = regex.compile(rf"[ \t]+[–—\-|·•][ \t]+|[,;(:\t]|(?<=\S) {{{COLUMN_GAP},}}(?=\S)")
_COLUMN_GAP = regex.compile(rf"(?<=\S) {{{COLUMN_GAP},}}(?=\S)")
_FIELD_LABEL = regex.compile(r"[ \t]*\**([^\n:\t*]{1,40}?)\**[ \t]*(?::(?!//)|\t)")  # "Tél. :", "**Adresse**\t"


def organisation_blocks(text: str, spans: Sequence[Span], lexicon: Lexicon) -> list[Suppression]:
    """Suppressions of ADDRESS and PHONE over each organisation's contact block of `text`, and of
    PERSON over its name (LABELS.md: an organisation named after a person is none), and of an address
    or landline written on a line after an organisation's name; `spans` are the candidates of every
    detector (a PERSON under the name ends the block)."""
    if not lexicon.organisation_words:
        return []
    persons = SpanIndex([s for s in spans if s.label == "PERSON"])
    others = SpanIndex([s for s in spans if s.label not in CONTACT_LABELS and s.label != "PERSON"])
    values = SpanIndex(spans)
    out = []
    for lines in _paragraphs(text):
        for i, (start, end) in enumerate(lines[: MAX_TITLE_LINES + 1]):
            name = _organisation_name(text, start, end, lexicon, persons)
            if name is not None:
                out += [Suppression(p_start, p_end, NAME_LABELS) for p_start, p_end in name[1]]
                block = lines[i:]
                if _column_end(text, start, end) < end:  # two columns: the organisation's is the left one
                    block = [(line_start, _column_end(text, line_start, line_end)) for line_start, line_end in block]
                    block = block[:_block_length(text, block, lexicon, persons, others)]
                    out += [Suppression(line_start, line_end, LABELS) for line_start, line_end in block]
                else:
                    block = block[:_block_length(text, block, lexicon, persons, others)]
                    out.append(Suppression(start, block[-1][1], LABELS))
                break
            if values.overlapping(start, end):
                break  # a line with a value is no title: the paragraph is not a letterhead
    return out + _addresses_after_organisations(text, spans, lexicon) + \
        _landlines_after_organisations(text, spans, lexicon)


def _addresses_after_organisations(text: str, spans: Sequence[Span], lexicon: Lexicon) -> list[Suppression]:
    """An ADDRESS written on its line right after an organisation's name and a separator is the
    organisation's ("représentée par l'agence ATRIUM LOCATION, 9 rue des Tanneurs…", "Your agent,
    Quayside Lettings (14 Mill Lane…": a word of `organisation_words`, then capitalised words only, a
    capital among them: "we live above the garage, 14 Oak Road" is a person's)."""
    out = []
    for span in spans:
        if span.label != "ADDRESS":
            continue
        lead = line_window_start(text, span.start, 100)
        name = lexicon.organisation_before.search(text, lead, span.start)
        if name is not None and any(c.isupper() for c in name.group()):  # a name: "the garage, 14 Oak Road" is none
            out.append(Suppression(span.start, span.end, frozenset({"ADDRESS"})))
    return out


def _landlines_after_organisations(text: str, spans: Sequence[Span], lexicon: Lexicon) -> list[Suppression]:
    """A landline written on an organisation's line is the organisation's: right after its name
    ("Pharmacie du Port : 02 98 …", "Hinton Medical Centre 0113 …"), or after its address on a line
    that starts with the name ("Hinton School, 3 Mill Lane, Leeds LS1 4AB (tel. 0113 …)"). A person's
    number stays: a mobile, a number no region validates, a run of digits (an account or member number
    there), a number in another column, a direct line (`_is_direct_line`: a direct line's word before the
    number, unless an earlier number takes it), and one after a street named after an organisation ("12
    Hospital Road 0113 …")."""
    out = []
    phone_ends: dict[int, int] = {}  # a PHONE span's start -> its end
    for s in spans:
        if s.label == "PHONE":
            phone_ends[s.start] = max(s.end, phone_ends.get(s.start, s.end))
    for span in spans:
        if span.label != "PHONE":
            continue
        lead = line_window_start(text, span.start, 160)
        label = _PHONE_LABEL_BEFORE.search(text, lead, span.start)
        at = label.start() if label is not None else span.start
        name = lexicon.organisation_named_before.search(text, lead, at)
        if name is None:  # the organisation's name starting the line, then its address
            address = _ADDRESS_END_BEFORE.search(text, lead, at)
            name = lexicon.organisation_and_separator.search(text, lead, address.start()) if address else None
            if name is not None and not _NAME_HEAD.fullmatch(text, lead, name.start()):
                name = None
        if name is None or not _names_an_organisation(text, name, lexicon) or \
                _COLUMN_GAP.search(text, name.start(), span.start) or "\t" in text[name.start():span.start] or \
                _is_direct_line(text, lead, span.start, phone_ends):
            continue
        value = text[span.start:span.end]
        if _written_as_phone(value) and _is_landline(value):  # last: parsing a number costs most
            out.append(Suppression(span.start, span.end, frozenset({"PHONE"})))
    return out


def _is_direct_line(text: str, lead: int, start: int, phone_ends: dict[int, int]) -> bool:
    """A direct line's word between `lead` and the number at `start`, unless an earlier number follows it
    right away and takes it ("ligne directe 04 65 71 55 90. Pharmacie du Marché : 04 65 71 00 00": the
    pharmacy's is no direct line; "direct lines: mobile 07700 …, Hinton Medical Centre 0113 …" is one)."""
    for word in _DIRECT_LINE.finditer(text, lead, start):
        after = _DIRECT_TO_NUMBER.match(text, word.end(), start).end()
        if phone_ends.get(after, start + 1) > start:  # no earlier number right after the word
            return True
    return False


def _folded_words(text: str, start: int = 0, end: int | None = None) -> list[str]:
    """The words of `text[start:end]` as the word lists hold them: casefolded, a final dot set aside ("Tél."
    is "tél")."""
    return [w.rstrip(".").casefold() for w in _WORD.findall(text, start, len(text) if end is None else end)]


def _names_an_organisation(text: str, name: regex.Match, lexicon: Lexicon) -> bool:
    """A capital in the name, no street's word in it ("Hospital Road" is a street), and no home named after
    the organisation's word with the words before it since the line's last separator ("Old School House",
    "The Old Bank", "L'Ancienne École": `_names_a_home`)."""
    words = _folded_words(text, name.start(), name.end())
    if not any(c.isupper() for c in name.group()) or any(w in lexicon.street_words for w in words):
        return False
    lead = line_window_start(text, name.start(), 60)
    cut = _LAST_SEPARATOR.search(text, lead, name.start())
    before = _folded_words(text, cut.end() if cut else lead, name.start())
    return not _names_a_home(before + words, len(before), lexicon)


def _names_a_home(folded: list[str], start: int, lexicon: Lexicon) -> bool:
    """Whether the organisation's word at `folded[start]` (a line's words, casefolded; with the next word when
    the two are one phrase of the lists, "building society") is part of a home's name, a home named after what
    its building was: a word of `dwelling_words` right after them ("School House", "Bank Farm") or before them
    with "de la", "du", "of the" between ("Ferme de la Banque"), or a word of `former_use_words` right before
    them ("The Old Bank", "L'Ancienne École": an elided article set aside)."""
    words = [_ELIDED_ARTICLE.sub("", w) for w in folded]
    pair = " ".join(folded[start:start + 2])
    end = start + (2 if pair in lexicon.organisation_words or pair in lexicon.business_words else 1)
    if end < len(words) and words[end] in lexicon.dwelling_words:
        return True
    if start > 0 and words[start - 1] in lexicon.former_use_words:
        return True
    i = start - 1
    while i >= 0 and start - i <= 3 and words[i] in _HOME_CONNECTORS:
        i -= 1
    return i < start - 1 and i >= 0 and words[i] in lexicon.dwelling_words


# An elided article before a word ("l'ancienne", "d'école"); the words between a home's noun and an
# organisation's word ("Ferme de la Banque", "Cottages of the School"); a separator before a name on its line.
_ELIDED_ARTICLE = regex.compile(r"^(?:[cdjlmnst]|qu)['’]")
_HOME_CONNECTORS = frozenset({"de", "du", "des", "la", "le", "of", "the"})
_LAST_SEPARATOR = regex.compile(r"[,;:(|·–—](?=[^,;:(|·–—]*\Z)")
# What may stand before an organisation's word at its line's start: list marks, the name's capitalised words
# (no house number: "14 School Lane" is a street).
_NAME_HEAD = regex.compile(r"[ \t>*\-•|]*(?:\p{Lu}[\p{L}\d'’&.\-]*[ \t]+)*")
# An address's end (a French postcode and its town, a British postcode) and a separator before a number.
_ADDRESS_END_BEFORE = regex.compile(r"(?:(?<!\d)\d{5}[ \t]+\p{Lu}[\p{L}'’\-]*(?:[ \t]+\p{Lu}[\p{L}'’\-]*)*|"
                                    r"(?<![\p{L}\d])[A-Z]{1,2}\d[A-Z\d]?[ ]?\d[A-Z]{2})"
                                    r"[ \t]*[,·–—(\-][ \t]*\Z")
# A phone's label between a name or an address and the number: "(tel. ", "· Tel ", ", tél. : ".
_PHONE_LABEL_BEFORE = regex.compile(r"(?<![\p{L}])(?i:tel|tél|phone|telephone|téléphone|t)\.?[ \t]*:?[ \t]*\Z")
# A person's direct line at an organisation: "Acme Ltd, direct line 0113 …", "ligne directe".
_DIRECT_LINE = regex.compile(r"(?<![\p{L}])(?i:direct|directe|DDI)(?![\p{L}])")
# What joins a direct line's word to its number: "direct line 0113 …", "ligne directe : 04 …", "DDI 0113 …".
_DIRECT_TO_NUMBER = regex.compile(r"[ \t]*(?i:line|dial|ligne)?[ \t]*:?[ \t]*")
# Where a phone's region is not written, the ones whose landlines are told from mobiles by their format.
_LANDLINE_REGIONS = ("GB", "FR", "IE", "BE", "CH")
_LANDLINE_TYPES = frozenset({phonenumbers.PhoneNumberType.FIXED_LINE, phonenumbers.PhoneNumberType.TOLL_FREE,
                             phonenumbers.PhoneNumberType.SHARED_COST, phonenumbers.PhoneNumberType.UAN})


def _written_as_phone(value: str) -> bool:
    """A trunk or international prefix, then digits in groups (or after a "+"): a phone as people write
    one. A run of digits, or one without its prefix, after an organisation's name may be the person's
    account or member number there ("MUTUELLE X ADH 0298441731", "Bank 4512 0098").

    >>> [_written_as_phone(v) for v in ("0113 496 0000", "+33123456789", "0298441731", "4512 0098")]
    [True, True, False, False]
    """
    value = value.strip()
    return value.startswith("+") or value.startswith(("0", "(0")) and any(c in " .-()" for c in value)


def _is_landline(value: str) -> bool:
    """An organisation's kind of number, valid in the first region that reads it so: a landline, a
    toll-free, shared-cost or corporate number; not a mobile, nor a number no region validates
    (those stay masked).

    >>> _is_landline("0113 496 0000"), _is_landline("04 65 71 00 00"), _is_landline("06 12 34 56 78")
    (True, True, False)
    >>> _is_landline("07700 900123"), _is_landline("(770) 555-0100")
    (False, False)
    """
    for region in _LANDLINE_REGIONS:
        try:
            number = phonenumbers.parse(value, region)
        except phonenumbers.NumberParseException:
            return False
        if phonenumbers.is_valid_number(number):
            return phonenumbers.number_type(number) in _LANDLINE_TYPES
    return False


def _paragraphs(text: str):
    """[(line start, line end), …] of each run of non-blank lines."""
    lines: list[tuple[int, int]] = []
    pos = 0
    for line in text.split("\n"):
        start, end = pos, pos + len(line)
        pos = end + 1
        if line.strip():
            lines.append((start, end))
        elif lines:
            yield lines
            lines = []
    if lines:
        yield lines


def _organisation_name(text: str, start: int, end: int, lexicon: Lexicon,
                       persons: SpanIndex[Span]) -> tuple[int, list[tuple[int, int]]] | None:
    """When the line `start:end` starts with an organisation's name: where the name ends, and the
    PERSON spans that are part of the name; else None."""
    line = text[start:end]
    if end - start > MAX_LINE_CHARS or line.lstrip()[:1].isdigit() or "\t" in line or ";" in line:
        return None  # an address line, or a table's row
    name_end = start + len(_SEPARATOR.split(line, 1)[0])  # "Agence de Lille – 14 rue …": the name before its address
    words = [(m.start(), m.group().rstrip(".").casefold()) for m in _WORD.finditer(text, start, name_end)]
    folded = [w for _, w in words]
    if len(words) > MAX_NAME_WORDS or any(w in lexicon.sentence_words for w in folded):
        return None  # a sentence ("Prochain rendez-vous en hôpital de jour le …", "Léa is from X Ltd")
    for i, word in enumerate(folded):
        pair = " ".join(folded[i:i + 2])
        if word in lexicon.organisation_words or pair in lexicon.organisation_words or (
                (word in lexicon.business_words or pair in lexicon.business_words) and text[words[i][0]].isupper()):
            if any(w in lexicon.street_words for w in folded[max(0, i - 3):i + 2]):
                return None  # "rue de l'Hôpital", "College Road": a street named after one
            if _names_a_home(folded, i, lexicon):
                return None  # "Old School House", "Ancienne École": a home
            organisation_at = words[i][0]
            break
    else:
        return None
    in_name = []
    for person in persons.overlapping(start, end):
        p_start, p_end = person.start, person.end
        before = _folded_words(text, start, max(start, p_start))
        if before and before[-1] in lexicon.person_lead_words:
            return None  # "Dr Jean Martin – Clinique du Parc": that person's office
        if p_start < name_end and _one_name(text, min(p_end, organisation_at), max(p_start, organisation_at),
                                            lexicon):
            in_name.append((p_start, p_end))
    return name_end, in_name


def _one_name(text: str, start: int, end: int, lexicon: Lexicon) -> bool:
    """Whether the words between a person's name and the organisation's word are capitalised (or
    connectors): "TRIBUNAL DE PROXIMITÉ DE ROUBAIX" is one name, "Civic Ltd hired Jouko" is not."""
    return all(w[0].isupper() or w.casefold() in lexicon.organisation_connectors for w in _WORD.findall(text, start, end))


def _block_length(text: str, lines: list[tuple[int, int]], lexicon: Lexicon, persons: SpanIndex[Span],
                  others: SpanIndex[Span]) -> int:
    """How many of `lines` (the organisation's line first) the organisation's block holds."""
    length = 1
    for i, (start, end) in enumerate(lines[1:MAX_LINES], 1):
        if persons.overlapping(start, end) or others.overlapping(start, end):
            break  # a person's line, or a form's: "Né(e) le 20/06/1955", "IBAN : …"
        if i + 1 < len(lines) and _reads_as_name(text[start:end], lexicon) \
                and text[lines[i + 1][0]:lines[i + 1][1]].lstrip()[:1].isdigit():
            break  # a person's name over their address: their own block
        label = _FIELD_LABEL.match(text, start, end)
        if label and not _is_contact_label(label.group(1), lexicon):
            break
        length += 1
    return length


def _reads_as_name(line: str, lexicon: Lexicon) -> bool:
    """A person's name line (span_repair.is_name_line: "Ana Ruiz", "Léa de La Roche") with no word of
    an organisation, a street, a contact label or a sentence ("Customer Services", "Head Office")."""
    not_of_a_name = lexicon.organisation_words | lexicon.street_words | lexicon.contact_labels | lexicon.sentence_words
    return is_name_line(line, lexicon) and not any(w in not_of_a_name for w in _folded_words(line))


def _column_end(text: str, start: int, end: int) -> int:
    """Where the first column of the line `start:end` ends: at its first gap of COLUMN_GAP spaces."""
    gap = _COLUMN_GAP.search(text, start, end)
    return end if gap is None else gap.start()


def _is_contact_label(label: str, lexicon: Lexicon) -> bool:
    """"Tél.", "Standard", "RC 1482203   Head Office": the label's last one or two words."""
    words = _folded_words(label)
    return bool(words) and (words[-1] in lexicon.contact_labels or " ".join(words[-2:]) in lexicon.contact_labels)


# A person's own letterhead: the line under a titled name that starts an address ("24 Matthew Part",
# "166 boulevard Poirier", "P.O. Box 8268", "BP 950"; a building word's line is `_starts_address`'s).
_ADDRESS_START = regex.compile(r"[ \t]*(?:\d+[ \t]*(?:bis|ter|[A-Za-z])?,?[ \t]+(\p{L}+)|(?i:p\.?[ \t]*o\.?[ \t]*box|bp|cs)"
                               r"[ \t]+\d)")
_POSTCODE = regex.compile(r"(?<![\p{L}\p{N}])(?:\d{5}(?:-\d{4})?|\d{4}(?=[ ]+\p{Lu})|\p{Lu}\d\p{Lu}[ ]?\d\p{Lu}\d|"
                          r"\p{Lu}{1,2}\d[\p{Lu}\d]?[ ]?\d\p{Lu}{2}|\p{Lu}{2}[ ]+\d{5})(?![\p{L}\p{N}])")
MAX_OFFICE_LINES = 3  # an office's address: a building, a street, a postcode and town


def office_addresses(text: str, spans: Sequence[Span], lexicon: Lexicon) -> list[Span]:
    """ADDRESS spans for the offices of self-employed people that no detector found (LABELS.md: a doctor's
    practice, a sole lawyer's office is where that person can be found). A paragraph opens with a PERSON
    after a title of theirs ("Dr Maximino Castañeda", "Maître Ayesha Kumar"), at most one line under it
    names the profession ("General Practitioner", "Avocat au barreau de Lyon": no digit, no value), then
    the address: lines from one that starts like an address (a number and a capital, a building word, a
    P.O. box) to the first with a postcode, three at most, none holding another value or a contact label."""
    persons = SpanIndex([s for s in spans if s.label == "PERSON"])
    values = SpanIndex(spans)
    out = []
    for lines in _paragraphs(text):
        start, end = lines[0]
        person = min(persons.overlapping(start, end), key=lambda s: s.start, default=None)
        if person is None or not _titled(text, start, person.start, lexicon):
            continue
        first = 1
        if first < len(lines) and not _starts_address(text, lines[first][0], lines[first][1], lexicon):
            line = text[lines[first][0]:lines[first][1]]
            if any(c.isdigit() for c in line) or values.overlapping(*lines[first]):
                continue
            first += 1  # the profession's line
        block: list[tuple[int, int]] = []
        for line_start, line_end in lines[first:first + MAX_OFFICE_LINES]:
            if not block and not _starts_address(text, line_start, line_end, lexicon):
                break
            label = _FIELD_LABEL.match(text, line_start, line_end)
            if label or any(s.label != "ADDRESS" for s in values.overlapping(line_start, line_end)):
                break
            block.append((line_start, line_end))
            if _POSTCODE.search(text, line_start, line_end):
                break
        if not block or any(s.label == "ADDRESS" for s in values.overlapping(block[0][0], block[-1][1])):
            continue
        if not _POSTCODE.search(text, block[-1][0], block[-1][1]) and len(block) > 1:
            block = block[:1]
        a, b = block[0][0], block[-1][1]
        while a < b and text[a] in " \t":
            a += 1
        while b > a and text[b - 1] in " \t,":
            b -= 1
        out.append(Span(a, b, "ADDRESS", 0.8, "keyword"))
    return out


def _titled(text: str, line_start: int, person_start: int, lexicon: Lexicon) -> bool:
    """A title of an office before the person, on their line ("Dr", "Maître", "Cabinet de M.")."""
    return any(w in lexicon.office_titles for w in _folded_words(text, line_start, person_start))


def _starts_address(text: str, start: int, end: int, lexicon: Lexicon) -> bool:
    """"24 Matthew Part", "166 boulevard Poirier" (a number, then a capital or a street word), "P.O. Box 8268",
    "Résidence du Parc" (a building word); not "12 patients"."""
    m = _ADDRESS_START.match(text, start, end)
    if m is not None:
        return m.group(1) is None or m.group(1)[0].isupper() or m.group(1).casefold() in lexicon.street_words
    first = _WORD.match(text, start + len(text[start:end]) - len(text[start:end].lstrip()), end)
    return first is not None and first.group().rstrip(".").casefold() in lexicon.address_building_words
