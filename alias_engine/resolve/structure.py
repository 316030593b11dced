"""Structure: markup, JSON and tables read by their structure, not as prose.

- Markup (XML, HTML): a tag, its element and attribute names, is never a value
  (`</InstdAmt></Amt><Cdtr` is no SECRET). A span that reaches into a tag is the
  model reading markup as text: it is cut at the tags into the pieces between them
  (`C-2291</CstmrId` is `C-2291`), which the fields below then judge; an address
  is left whole to the address rules. A value is the text between tags, or an
  attribute's value; an attribute that names or styles markup (`class`, a form
  control's `name`) holds none, nor does a form's `<label>` or `<legend>` (what a
  field is called: "<label>Expiry</label>").
- Fields: a value in a record has a field name: the element around it
  (`<TwnNm>Lyon</TwnNm>`; a `generic` element with its parent's name, `<Stmt><Id>`), its JSON key (`"ticket_id": "T-2024-08812"`), its
  key in a log's `key=value` pairs (`user=jmorel sku=FL-TEA-0042`) or a config file's `key: value` lines
  (`ansible_user: deploy`), its column's header in a table. The field names of the rules' `fields`
  (rules/common.json) decide, for every record of the text alike:
  - a field of `not_personal` (ticket, invoice, amount, city, department, dates...), or one
    named only by a word of `event_date` (a job's or a stay's start or end: "entrée", "debut")
    holds no PERSON, IDENTIFIER, SECRET, NATIONAL_ID or BIRTH_DATE that the model or
    a repeat found, nor an IDENTIFIER a keyword found when the value is that one code
    ("<MsgId>REF 8K2Q</MsgId>"); a field name that also says `personal` (birth, customer,
    login, password...) keeps them ("BirthDt", "customer_city");
  - a field of `address` (AdrLine, street, adresse...) holds an address: what the model
    found in its value is one ADDRESS, the whole value, and where nothing was found in an
    address column or element, a value that reads as a street line is one;
  - a field of `person` (surname, first name, nom, prénom...) is a PERSON, whole,
    when its value reads as a name ("de La Roche") and is no placeholder of the
    languages' `not_a_name_values` ("N/A", "inconnu": rules/<lang>/language.json).
Field names are compared as words: split at case changes, digits and punctuation,
folded like keywords ("EndToEndId" is "end to end id", "Nom_de_famille" is "nom de
famille"). One pass over the text for each kind of structure: linear in its length.

>>> fields = Fields.from_rules({"not_personal": ["ticket"], "person": ["last name"]})
>>> text = '{"ticket_id": "T-2024-08812", "last_name": "de La Roche"}'
>>> found = [Span(15, 27, "IDENTIFIER", 0.9, "model")]
>>> [(text[s.start:s.end], s.label) for s in apply_structure(text, found, fields)]
[('de La Roche', 'PERSON')]
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import NamedTuple

import regex

from ..detectors.keywords import is_valid_date, strip_accents
from ..detectors.tables import is_form, named_tables, table_fields
from ..spans import Span, SpanIndex
from .lexicon import Lexicon
from .span_repair import is_name_line

# `<name attr="v" ...>`, `</name>`, `<?xml ...?>`, `<!-- ... -->`, `<!DOCTYPE ...>`, `<![CDATA[` / `]]>`
_TAG = regex.compile(r"</?[A-Za-z_][\w:.\-]*(?P<attrs>(?:\s+[\w:.\-]+(?:\s*=\s*(?:\"[^\"<>]*\"|'[^'<>]*'|[^\s\"'<>=]+))?)*)"
                     r"\s*/?>|<\?[^<>]*\?>|<!--.*?-->|<![A-Z][^<>]*>|<!\[CDATA\[|\]\]>", regex.DOTALL)
_ATTR_VALUE = regex.compile(r"=\s*(?:\"([^\"<>]*)\"|'([^'<>]*)')")
_ELEMENT = regex.compile(r"<(/?)([A-Za-z_][\w:.\-]*)")
_ATTR_NAME = regex.compile(r"\s([\w:.\-]+)\s*=\s*[\"']\Z")   # before an attribute's value
_INPUT_NAMES = (regex.compile(r"\sname\s*=\s*[\"']([^\"'<>]{1,60})[\"']"),  # a form control's name and its id
                regex.compile(r"\sid\s*=\s*[\"']([^\"'<>]{1,60})[\"']"))
MIN_TAGS = 3  # fewer tags: prose that mentions one ("the <br> tag"), read as prose
_VOID_ELEMENTS = frozenset({"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source",
                            "track", "wbr"})
# In JSON (a payload, or one in a log line): a key and what follows it (an object or array it opens, a string,
# a number), a lone string, a bracket
_JSON_TOKEN = regex.compile(r'"(?P<key>(?:[^"\\\n]|\\.){1,80})"\s*:\s*(?:(?P<open>[{\[])|"(?P<string>(?:[^"\\\n]|\\.)*)"'
                            r'|(?P<number>-?\d[\d.]*))|"(?:[^"\\\n]|\\.)*"|(?P<brace>[{}\[\]])')
# A SQL dump's insert: its column list, then its rows' values (quoted, with '' or \' inside, or bare)
_SQL_INSERT = regex.compile(r"(?i:insert\s+into)\s+(?P<table>[\w.`\"\[\]]+)\s*(?:\((?P<columns>[^()'\"]{1,2000})\)\s*)?"
                         r"(?i:values)")
# A dump's table definition: `CREATE TABLE t (` then its columns, one a line or comma-separated, before `)`
_SQL_CREATE = regex.compile(r"(?i:create\s+table)\s+(?:(?i:if\s+not\s+exists)\s+)?(?P<table>[\w.`\"\[\]]+)\s*\(")
_SQL_COLUMN = regex.compile(r"\s*[`\"\[]?(?P<name>[A-Za-z_]\w{0,63})[`\"\]]?\s+(?!(?i:key|index)\b)[A-Za-z]")
_SQL_NOT_A_COLUMN = regex.compile(r"\s*(?i:primary|unique|key|index|constraint|foreign|check|fulltext|spatial)\b")
_SQL_ROW_START = regex.compile(r"\s{0,1000},?\s{0,1000}\(")  # bounded: see repeats._AMPERSAND_AFTER
_SQL_VALUE = regex.compile(r"\s*(?:'(?P<quoted>(?:[^'\\]|''|\\.){0,2000})'|(?P<bare>[^,()'\s]{1,100}))\s*(?P<sep>[,)])")
_FIELD_WORD = regex.compile(r"\p{Lu}?\p{Ll}+|\p{Lu}+(?!\p{Ll})|\d+")
_TITLE = regex.compile(r"(\p{L}+)\.?[ \t]+(?=\p{L})")
_NAME_VALUE = regex.compile(r"\p{L}[\p{L}\p{M}'’.\-]*(?: \p{L}[\p{L}\p{M}'’.\-]*){0,5}")

MODEL_LABELS = frozenset({"PERSON", "IDENTIFIER", "SECRET", "NATIONAL_ID", "BIRTH_DATE"})  # what a field may rule out
_KEPT_ACROSS_TAGS = frozenset({"ADDRESS"})
_PROSE_SOURCES = frozenset({"model", "repeat", "keyword", "pattern"})  # the detectors that read text as prose
RECORD_REACH = 300  # characters around an address field where a PERSON makes the record a person's
_READ_AS_ADDRESS = frozenset({"ADDRESS", "PERSON", "IDENTIFIER", "NATIONAL_ID"})  # the model's, in an address field
_CODE_LABELS = {"identifier": "IDENTIFIER", "login": "IDENTIFIER", "national_id": "NATIONAL_ID", "secret_code": "SECRET",
                "birth_date": "BIRTH_DATE"}
_READ_AS_CODE = frozenset({"PERSON", "IDENTIFIER", "NATIONAL_ID", "PHONE", "SECRET", "BIRTH_DATE"})  # a code field's value taken for
_CODE_VALUE = regex.compile(r"[\p{L}\p{N}][\p{L}\p{N}._\-/#]*(?: [\p{L}\p{N}]+){0,4}")
_SECRET_CODE_VALUE = regex.compile(r"\d(?: ?\d){2,7}")
_DATE_VALUE = regex.compile(r"\d{1,4}[-/.]\d{1,2}[-/.]\d{1,4}")
_COMPACT_DATE = regex.compile(r"(?:18|19|20)\d{2}(?:0[1-9]|1[0-2])(?:0[1-9]|[12]\d|3[01])")  # yyyymmdd


_DATE_WORDS = frozenset({"date", "dob", "dt", "ddn", "birthdate", "birthday"})  # "DateEtLieuNaissance": a date too


class _Range(NamedTuple):
    start: int
    end: int
    kind: str


# The classes of field names (common.json → "fields"), each a tuple of phrases in `Fields`.
FIELD_CLASSES = ("not_personal", "personal", "person", "not_person", "plain_name", "role", "event_date", "thing",
                 "generic", "address", "identifier", "login", "national_id", "secret_code", "birth_date", "birthplace")
_NAMING_NOTHING_ALONE = frozenset({"generic", "not_person"})  # "id", "value"; "voie": no header cell by themselves


@dataclass(frozen=True)
class Fields:
    """Field names by class, each a tuple of folded words."""

    not_personal: tuple[tuple[str, ...], ...] = ()
    personal: tuple[tuple[str, ...], ...] = ()
    person: tuple[tuple[str, ...], ...] = ()
    not_person: tuple[tuple[str, ...], ...] = ()
    address: tuple[tuple[str, ...], ...] = ()  # "AdrLine", "street", "adresse": the whole value is an address
    plain_name: tuple[tuple[str, ...], ...] = ()  # "Name": a person's, unless the record is a thing's
    role: tuple[tuple[str, ...], ...] = ()  # "customer", "patient" alone: the field holds that person's code
    event_date: tuple[tuple[str, ...], ...] = ()  # "entrée", "start" alone: a job's or a stay's date, no birth
    thing: tuple[tuple[str, ...], ...] = ()  # "price", "version": fields of a record about things
    generic: tuple[tuple[str, ...], ...] = ()  # "Id", "Othr": an element named by its parent too ("<Stmt><Id>")
    identifier: tuple[tuple[str, ...], ...] = ()  # "BadgeNo", "customer_id": one person's code, a digit in it
    login: tuple[tuple[str, ...], ...] = ()  # "username", "login": one person's code, letters alone too
    national_id: tuple[tuple[str, ...], ...] = ()  # "passport", "permis": a state's number of a person
    secret_code: tuple[tuple[str, ...], ...] = ()  # "cvc", "otp", "pin": a few digits that open something
    birth_date: tuple[tuple[str, ...], ...] = ()  # "dob", "DateNaissance": a person's date of birth
    birthplace: tuple[tuple[str, ...], ...] = ()  # "LieuNaissance", "place_of_birth": a place, no one's
    # the languages' words the fields read: not_a_name_values ("n/a", "inconnu"), person_lead_words (titles
    # before a name, not of it: "dr", "mme"), street_words ("rue", "road": a street line's)
    lexicon: Lexicon = Lexicon()
    common_logins: tuple[regex.Pattern, ...] = ()  # "root", "admin", "none": logins every system has, no one's
    _names_a_field: dict[str, bool] = field(default_factory=dict, init=False, compare=False, repr=False)
    _kinds: dict[tuple[str, tuple[str, ...]], str | None] = field(default_factory=dict, init=False, compare=False,
                                                                   repr=False)
    _phrase_sets: dict[str, tuple[frozenset[tuple[str, ...]], tuple[int, ...]]] = field(
        default_factory=dict, init=False, compare=False, repr=False)

    @classmethod
    def from_rules(cls, raw: dict, lexicon: Lexicon | None = None,
                   common_logins: tuple[regex.Pattern, ...] = ()) -> Fields:
        """The field names of common.json → "fields", the languages' words (`lexicon`), and the logins
        that are no one's: the rules' `system_account` and `placeholder` rejects (the accounts
        every system has, "root", "postgres", "apikey", and "none", "unknown"; a service's own account,
        "svc_invoices", is an IDENTIFIER)."""
        return cls(**{key: tuple(field_words(name) for name in raw.get(key, ())) for key in FIELD_CLASSES},
                   lexicon=lexicon or Lexicon(), common_logins=common_logins)

    @property
    def not_a_name_values(self) -> frozenset[str]:
        """Casefolded placeholders of a name field: "n/a", "inconnu"."""
        return self.lexicon.not_a_name_values

    def has(self, words: tuple[str, ...], key: str) -> bool:
        """Whether a phrase of the class `key` ("not_personal", "thing"...) is in `words`, as a run of them.

        >>> Fields.from_rules({"thing": ["sku", "unit price"]}).has(("unit", "price", "eur"), "thing")
        True
        """
        index = self._phrase_sets.get(key)
        if index is None:  # a set a phrase length: a field name is matched once a length, not once a phrase
            phrases = getattr(self, key)
            index = self._phrase_sets[key] = (frozenset(phrases), tuple(sorted({len(p) for p in phrases})))
        phrase_set, lengths = index
        return any(words[i:i + n] in phrase_set for n in lengths for i in range(len(words) - n + 1))

    def _unjoined(self, words: tuple[str, ...]) -> tuple[str, ...]:
        """A name written in capitals has no case to split its words at: "MSGID" is the phrase "msg id",
        "ENDTOENDID" "end to end id", when one of the classes has that phrase."""
        if len(words) != 1:
            return words
        for key in FIELD_CLASSES:
            for phrase in getattr(self, key):
                if len(phrase) > 1 and "".join(phrase) == words[0]:
                    return phrase
        return words

    def names_a_field(self, name: str) -> bool:
        """Whether `name` holds a word of a class that names a field (not a generic "id" or "value" alone):
        a header's cell, not a value."""
        if name not in self._names_a_field:  # a text's header cells and form keys repeat across texts
            if len(self._names_a_field) > 4096:
                self._names_a_field.clear()
            words = field_words(name)
            self._names_a_field[name] = 0 < len(words) <= 8 and any(
                self.has(words, key) for key in FIELD_CLASSES if key not in _NAMING_NOTHING_ALONE)
        return self._names_a_field[name]

    def kind(self, name: str, record: tuple[str, ...] = ()) -> str | None:
        """"person", "address", "secret_code", "birth_date", "birthplace", "national_id", "identifier", "login",
        "not_personal" or None (nothing said) for a field name; `record`: the names of the fields beside it (a
        table's header), where known."""
        key = (name, record)
        if key not in self._kinds:  # the same field names repeat across a corpus's texts
            if len(self._kinds) > 4096:
                self._kinds.clear()
            self._kinds[key] = self._kind(name, record)
        return self._kinds[key]

    def _kind(self, name: str, record: tuple[str, ...]) -> str | None:
        words = self._unjoined(field_words(name))
        if not words or len(words) > 8:
            return None
        if tuple(w for w in words if not w.isdigit()) in self.address:  # "address_line_2" too
            return "address"
        if words in self.role:
            return "identifier"  # "customer": a record's person named alone, the value their code
        if words in self.event_date:
            return "not_personal"  # "entrée", "debut": when a job, a contract or a stay started or ended
        if words in self.plain_name and len(record) > 1 \
                and not any(self.has(field_words(other), "thing") for other in record):
            return "person"  # a table's "Name" column, in a table about people (no price, version, SKU...)
        not_personal = self.has(words, "not_personal")
        if self.has(words, "person") and not not_personal and not self.has(words, "not_person"):
            return "person"
        if not not_personal:
            for kind in ("secret_code", "national_id", "identifier", "login"):
                if self.has(words, kind):
                    return kind
        if self.has(words, "birthplace") and not any(w in _DATE_WORDS for w in words):
            return "birthplace"  # "LieuNaissance": a place, though "naissance" names a birth date's field too
        if self.has(words, "birth_date"):
            return "birth_date"  # "DateNaissance", "dateOfBirth": its date is a person's birth, whatever word is beside it
        if not_personal and not self.has(words, "personal"):
            return "not_personal"
        return None


def field_words(name: str) -> tuple[str, ...]:
    """A field name as lower-case words without accents: "EndToEndId" -> ("end", "to", "end", "id")."""
    return tuple(word.lower() for word in _FIELD_WORD.findall(strip_accents(name)))


class Structure(NamedTuple):
    """What `read_structure` finds in a text: its tags, tables, keys (JSON keys, SQL columns, attributes that
    name markup) and named values (`field_values`: start, end, the field's kind, its name)."""

    tags: list[tuple[int, int]]
    tables: list
    keys: list[tuple[int, int]]
    values: tuple

    def without_persons(self) -> frozenset[tuple[int, int]]:
        """Where a value is a `not_personal` or `birthplace` field's whole value: no PERSON is lent there
        (`repeats_outside_fields`)."""
        return frozenset((start, end) for start, end, kind, _ in self.values if kind in _NO_ONES_KINDS)


def read_structure(text: str, fields: Fields) -> Structure:
    """The text's tags, tables, keys and named values."""
    tags = markup_tags(text)
    tables = list(named_tables(text))
    json_values, json_keys = _json_fields(text, fields)
    sql_values, sql_columns = _sql_fields(text, fields.generic)
    pairs = _key_value_fields(text, tags)
    values = tuple(field_values(text, tags, fields, tables, json_values + sql_values + pairs))
    return Structure(tags, tables, json_keys + sql_columns + _markup_names(text, tags) + _captions(text, tags), values)


def apply_structure(text: str, spans: Sequence[Span], fields: Fields, structure: Structure | None = None) -> list[Span]:
    """`spans` with the text's structure applied (`structure`: `read_structure(text, fields)`, read here when not
    given): nothing inside a tag, what the fields say."""
    tags, tables, keys, values = structure or read_structure(text, fields)
    out = _outside_keys(list(spans), keys)
    out = _columns_filled(text, _within_cells(text, out, tables, fields), tables, fields) if tables else out
    if not tags and not values:
        return out
    out = _outside_tags(text, out, tags) if tags else out
    out = _outside_headers(text, out, tables, fields)
    if not values:
        return out
    kept = _outside_not_personal(text, out, values)
    blocks = _address_blocks(text, values, tags, fields.not_a_name_values, fields.lexicon)
    kept = _field_codes(text, _whole_addresses(text, kept, blocks, tags), values, fields)
    taken = SpanIndex(kept)
    names = [Span(start, end, "PERSON", 0.9, "keyword") for value_start, end, kind, _ in values if kind == "person"
             for start in [_after_titles(text, value_start, end, fields.lexicon.person_lead_words)]
             if _reads_as_name(text, start, end, fields.not_a_name_values)
             and not any(s.label == "PERSON" and (s.start, s.end) == (start, end) for s in taken.overlapping(start, end))]
    if names:
        named = SpanIndex(names)
        kept = [s for s in kept if not named.overlapping(s.start, s.end)] + names
    return _unfound_addresses(text, kept, blocks, fields.lexicon.street_words)


def repeats_outside_fields(repeats: list[Span], without_persons: frozenset[tuple[int, int]]) -> list[Span]:
    """The repeats (repeats.py: a value lent to its other occurrences, after the merger) without a PERSON that
    is the whole value of a field of `not_personal` (`without_persons`: `Structure.without_persons`): a first
    name lent to a `city` column's "Florence". A name inside a longer value ("transaction": "Virement Léa
    Morel") and a lent code stay masked: there the repeat may be the only span that masks them."""
    return [s for s in repeats if not (s.label == "PERSON" and (s.start, s.end) in without_persons)]


def _outside_not_personal(text: str, spans: list[Span], values: Sequence) -> list[Span]:
    """The spans that no `not_personal` or `birthplace` field's value rules out: a PERSON, IDENTIFIER, SECRET,
    NATIONAL_ID or BIRTH_DATE of the model or a repeat inside a `not_personal` value, or a keyword's IDENTIFIER
    that is the value's one code; a PERSON or an ADDRESS of the model or a repeat inside a place of birth."""
    by_value = SpanIndex([_Range(start, end, kind) for start, end, kind, _ in values if kind in _NO_ONES_KINDS])
    if not by_value:
        return spans
    return [span for span in spans if not any(v.start <= span.start and span.end <= v.end and _rules_out(text, v, span)
                                              for v in by_value.overlapping(span.start, span.end))]


_NO_ONES_KINDS = frozenset({"not_personal", "birthplace"})  # fields whose whole value is no one's
_PLACE_LABELS = frozenset({"PERSON", "ADDRESS"})  # what a place of birth's field rules out: a town is no one's


def _rules_out(text: str, value: _Range, span: Span) -> bool:
    """Whether a `not_personal` or `birthplace` field's value rules out `span`, which lies inside it."""
    from_prose = span.source in ("model", "repeat")
    if value.kind == "birthplace":
        return span.label in _PLACE_LABELS and from_prose
    return span.label in MODEL_LABELS and (from_prose or span.label == "IDENTIFIER" and _one_code(text, value, span))


def _address_blocks(text: str, values: Sequence, tags: list[tuple[int, int]], placeholders: frozenset[str],
                    lexicon: Lexicon) -> list[list[tuple[int, int]]]:
    """The address values of `values`, in blocks that are one address, or one treatment: the cells of a
    table's address column, and the address elements written one after the other ("<AdrLine>1 Piano
    1</AdrLine><AdrLine>FRANCE</AdrLine>": siblings, nothing but their two tags and spaces between).
    Lines of one element's text broken by `<br>` are one value, one address written on several lines
    ("<td>18 rue Lepic<br>75018 Paris</td>"), but a first line that is a name (`is_name_line`: the addressee
    of "<address>Anne Roy<br>…") stays a value of its own, and a contact's line after them ("Tél. : …", an
    e-mail) is none of the address."""
    columns: dict[tuple, list[tuple[int, int]]] = {}
    elements: list[list[tuple[int, int]]] = []
    tag_ends = {b: a for a, b in tags}
    for start, end, kind, column in values:
        if kind != "address" or text[start:end].strip().casefold() in placeholders:
            continue
        if column is not None:
            columns.setdefault(column, []).append((start, end))
        elif elements and _LINE_BREAKS.fullmatch(text, elements[-1][-1][1], start):
            first, last = elements[-1][-1]
            if _CONTACT_LINE.match(text, start, end):
                continue
            if is_name_line(text[first:last], lexicon):  # a line of its own: a joined value holds a "<br>", no name
                elements[-1].append((start, end))  # the addressee's line stays a value of its own
            else:
                elements[-1][-1] = (first, end)
        elif elements and tags and _only_tags_between(text, elements[-1][-1][1], start, tag_ends):
            elements[-1].append((start, end))
        else:
            elements.append([(start, end)])
    return list(columns.values()) + elements


# A contact's line under an address, none of it: "Tél. : …", "Email: …", "contact@…"
_CONTACT_LINE = regex.compile(r"[ \t]*(?:(?i:t[ée]l[ée]?(?:phone)?|tel|fax|e-?mail|courriel|mob(?:ile)?|portable|phone|gsm|web)"
                              r"\b[^:\n]{0,12}:|[^\n]*@)")
_LINE_BREAKS = regex.compile(r"\s*(?:<br\s*/?>\s*)+", regex.IGNORECASE)  # "<br>", "<br/>" between two lines


def _only_tags_between(text: str, end: int, start: int, tag_ends: dict[int, int]) -> bool:
    """Whether `text[end:start]` holds nothing but white space and two tags at most: the end of one element
    and the start of the next, siblings (`tag_ends`: a tag's end → its start)."""
    pos, seen = start, 0
    while pos > end:
        if text[pos - 1].isspace():
            pos -= 1
        elif pos in tag_ends and tag_ends[pos] >= end and seen < 2:
            pos, seen = tag_ends[pos], seen + 1
        else:
            return False
    return True


def _whole_addresses(text: str, spans: list[Span], blocks: list[list[tuple[int, int]]],
                     tags: list[tuple[int, int]]) -> list[Span]:
    """In an address field ("<AdrLine>", a "street" column) what the model found is the address, and all
    of the value: "<AdrLine>65bis boulevard Andrée Roche, 80000 AMIENS</AdrLine>" is one ADDRESS where
    the model stopped before "AMIENS", took the "Pottier" of "54556 Pottier" for a name or "500 11" of
    "500 11 Karviná" for a code. The lines the span goes on with below or above the value are the same
    address ("ADRESSE:\t3E ÉTAGE\n88 avenue du Moulin"); what it held beside the value on its line
    (another cell) stays as it was, and never a tag. Where the model found one value of a block
    (`_address_blocks`), every value of the block is an ADDRESS: the country line under the street, every
    cell of the column."""
    if not blocks:
        return spans
    block_of = {value: i for i, block in enumerate(blocks) for value in block}
    index = SpanIndex([_Range(start, end, "address") for start, end in block_of])
    tag_index = SpanIndex([_Range(a, b, "tag") for a, b in tags])
    out: list[Span] = []
    whole: dict[tuple[int, int], float] = {}
    for span in spans:
        hits = sorted(index.overlapping(span.start, span.end), key=lambda v: v.start) \
            if span.source in ("model", "repeat") and span.label in _READ_AS_ADDRESS else []
        if not hits:
            out.append(span)
            continue
        hit = [(v.start, v.end) for v in hits]
        addresses = list(hit)  # each value, grown by the lines the span goes on with
        pieces = []
        start = span.start
        for v in hits:
            pieces += _piece(text, span, start, v.start)
            start = max(start, v.end)
        pieces += _piece(text, span, start, span.end)
        for piece in pieces:
            if tag_index.overlapping(piece.start, piece.end):
                continue
            near = next((i for i, (a, b) in enumerate(addresses)
                         if _lines_apart(text, b, piece.start) or _lines_apart(text, piece.end, a)), None)
            if near is None:
                out.append(piece)
            else:
                a, b = addresses[near]
                addresses[near] = (min(a, piece.start), max(b, piece.end))
        siblings = {value for v in hit for value in blocks[block_of[v]]} - set(hit)
        for key in [*addresses, *siblings]:
            whole[key] = max(whole.get(key, 0.0), span.score)
    return out + [Span(start, end, "ADDRESS", score, "model") for (start, end), score in whole.items()]


def _unfound_addresses(text: str, spans: list[Span], blocks: list[list[tuple[int, int]]],
                       street_words: frozenset[str]) -> list[Span]:
    """An address block (`_address_blocks`: an address column's cells, sibling address elements) where no
    detector found an ADDRESS, in a record about a person (a PERSON within `RECORD_REACH` characters of
    the block; a company's address is none): each value that reads as a street line ("117 Brixfield
    Road", "rue de Kervennec": a word and a number or a street word, no other detector's value in it) is an
    ADDRESS, the whole value. The model misses a street alone in its field, without the town that makes
    prose an address."""
    if not blocks:
        return spans
    taken = SpanIndex(spans)
    out = list(spans)
    for block in blocks:
        first, last = block[0][0], block[-1][1]
        if any(s.label == "ADDRESS" for start, end in block for s in taken.overlapping(start, end)) or not any(
                s.label == "PERSON" for s in taken.overlapping(max(0, first - RECORD_REACH), last + RECORD_REACH)):
            continue
        for start, end in block:
            value = text[start:end].strip()
            start += len(text[start:end]) - len(text[start:end].lstrip())
            if _reads_as_street(value, street_words) and not taken.overlapping(start, start + len(value)):
                out.append(Span(start, start + len(value), "ADDRESS", 0.8, "keyword"))
    return out


def _reads_as_street(value: str, street_words: frozenset[str]) -> bool:
    words = [w.casefold() for w in _STREET_WORD.findall(value)]
    return 0 < len(value) <= 120 and "\n" not in value and "@" not in value and "://" not in value \
        and any(len(w) >= 2 for w in words) and (any(c.isdigit() for c in value) or any(w in street_words for w in words))


_STREET_WORD = regex.compile(r"\p{L}+")


def _field_codes(text: str, spans: list[Span], values: Sequence, fields: Fields) -> list[Span]:
    """A code field's value ("<BadgeNo>", "customer_id", "username", "passport", "otp") that reads as a code
    is one IDENTIFIER (NATIONAL_ID for a national_id field, SECRET for a secret_code one), whole, whatever
    the model or a format took it for (`_READ_AS_CODE`), found or not, but a system account in a login field
    ("USER=root", "user=postgres": the rules' `system_account`, which holds every `attacked_login`) or a
    placeholder; a value holding another label (an e-mail, a card), a number a validator verified as another
    code (a NIR, a driving licence; a phone's shape says less) or a span across its edge is left as found; a
    span that already is the code stays its detector's, at the field's score at least (the model's unsure
    reading of a code field's code is it)."""
    codes = {(start, end): _CODE_LABELS[kind] for start, end, kind, _ in values
             if kind in _CODE_LABELS and _reads_as_code(text[start:end], kind)
             and text[start:end].casefold() not in fields.not_a_name_values
             and not (kind == "login" and any(p.fullmatch(text, start, end) for p in fields.common_logins))}
    if not codes:
        return spans
    index = SpanIndex([_Range(start, end, label) for (start, end), label in codes.items()])
    replaced = []
    found: dict[tuple[int, int], Span] = {}  # a span that is the code already: its own, at the field's score at least
    for span in spans:
        for v in index.overlapping(span.start, span.end):
            if (span.start, span.end) == (v.start, v.end) and span.label == v.kind:
                found[(v.start, v.end)] = span
            elif span.label in _READ_AS_CODE and v.start <= span.start and span.end <= v.end \
                    and not (span.source == "validator" and span.verified and span.label != "PHONE"):
                replaced.append((span, (v.start, v.end)))  # a checksum's or a shape's own label stays (a phone's)
            else:
                codes.pop((v.start, v.end), None)
    dropped = {id(span) for span, value in [*replaced, *((span, value) for value, span in found.items())]
               if value in codes}
    out = [s for s in spans if id(s) not in dropped]
    for (start, end), label in codes.items():
        own = found.get((start, end))
        out.append(Span(start, end, label, 0.9, "keyword") if own is None
                   else Span(start, end, label, max(0.9, own.score), own.source, own.verified))
    return out


def _reads_as_code(value: str, kind: str) -> bool:
    """One word or a few groups of letters and digits, no date, a digit in it (a login may have none); a
    secret code's 3 to 8 digits; a birth date's one calendar date, in numbers."""
    if kind == "secret_code":
        return _SECRET_CODE_VALUE.fullmatch(value) is not None
    if kind == "birth_date":
        if _COMPACT_DATE.fullmatch(value):
            value = f"{value[:4]}-{value[4:6]}-{value[6:]}"
        return _DATE_VALUE.fullmatch(value) is not None and is_valid_date(value)
    if not 3 <= len(value) <= 40 or not _CODE_VALUE.fullmatch(value) or _DATE_VALUE.match(value):
        return False
    return any(c.isdigit() for c in value) or (kind == "login" and " " not in value)


def _lines_apart(text: str, end: int, start: int) -> bool:
    """Only white space between `end` and `start`, a line break in it."""
    gap = text[end:start]
    return end <= start and "\n" in gap and not gap.strip()


def _one_code(text: str, value: _Range, span: Span) -> bool:
    """The field's whole value is the span and at most one word before it: "<MsgId>REF 8K2Q</MsgId>"
    is a message's id whatever prefix it carries; "Client ID 4455 closed" is more than one code."""
    return len(text[value.start:span.start].split()) <= 1 and not text[span.end:value.end].strip()


def markup_tags(text: str) -> list[tuple[int, int]]:
    """The tags of a text that is markup (at least MIN_TAGS of them), attribute values left out:
    the stretches no value may reach into. A start tag counts when its element is closed
    somewhere (`</Nm>`), closes itself (`<a/>`) or is an HTML void element (`<br>`): a chat's
    `<marie> salut` names a person, it opens no element."""
    if text.count("<") < MIN_TAGS:
        return []
    matches = list(_TAG.finditer(text))
    closed = _closed_elements(text, (m.start() for m in matches))
    found = []
    for m in matches:
        element = _ELEMENT.match(text, m.start())
        if element is not None and not element.group(1) and element.group(2) not in closed \
                and element.group(2).lower() not in _VOID_ELEMENTS and not text[m.start():m.end()].endswith("/>"):
            continue
        start = m.start()
        for value in _ATTR_VALUE.finditer(text, m.start("attrs") if m.start("attrs") >= 0 else m.end(), m.end()):
            inner = value.span(1) if value.group(1) is not None else value.span(2)
            found.append((start, inner[0]))
            start = inner[1]
        found.append((start, m.end()))
    found = [(a, b) for a, b in found if b > a]
    return found if len(found) >= MIN_TAGS else []


def _closed_elements(text: str, tag_starts: Iterable[int]) -> set[str]:
    """The names of the elements that a closing tag among the tags at `tag_starts` closes ("</Nm>")."""
    return {e.group(2) for start in tag_starts if (e := _ELEMENT.match(text, start)) is not None and e.group(1)}


def _outside_tags(text: str, spans: Sequence[Span], tags: list[tuple[int, int]]) -> list[Span]:
    index = SpanIndex([_Range(a, b, "tag") for a, b in tags])
    out = []
    for span in spans:
        inside = index.overlapping(span.start, span.end)
        if not inside or span.source not in _PROSE_SOURCES:
            out.append(span)
            continue
        if span.label in _KEPT_ACROSS_TAGS:  # whole across tags, but not begun or ended inside one or on one
            start = max([span.start] + [t.end for t in inside if t.start <= span.start])
            end = min([span.end] + [t.start for t in inside if t.end >= span.end])
            out += _piece(text, span, start, end) if (start, end) != (span.start, span.end) else [span]
            continue
        start = span.start
        for tag in sorted(inside, key=lambda t: t.start):
            out += _piece(text, span, start, tag.start)
            start = max(start, tag.end)
        out += _piece(text, span, start, span.end)
    return out


def _piece(text: str, span: Span, start: int, end: int) -> list[Span]:
    while start < end and not text[start].isalnum():
        start += 1
    while end > start and not text[end - 1].isalnum():
        end -= 1
    if end - start < 2:
        return []
    return [Span(start, end, span.label, span.score, span.source, span.verified)]


def _within_cells(text: str, spans: list[Span], tables: list, fields: Fields) -> list[Span]:
    """A span of a detector that reads prose, across two cells of a row of a table whose header names two
    fields or more, is cut at the cells: a value is never written over a column's delimiter ("KERVRAN,Soizic"
    of a nom and a prenom column is two names). An address stays whole (it may run over a street and a
    town column), and so does a span whose cut would leave a piece of it unmasked (a one-character cell)."""
    cells = SpanIndex([_Range(start, end, "cell") for header, rows in tables if _fields_named(text, header, fields) >= 2
                       for row in [header, *rows] for start, end in row if start < end])
    if not cells:
        return spans
    out = []
    for span in spans:
        inside = cells.overlapping(span.start, span.end) \
            if span.source in _PROSE_SOURCES and span.label not in _KEPT_ACROSS_TAGS else []
        if len(inside) < 2:
            out.append(span)
            continue
        pieces = [piece for cell in sorted(inside, key=lambda c: c.start)
                  for piece in _piece(text, span, max(span.start, cell.start), min(span.end, cell.end))]
        kept = sum(c.isalnum() for p in pieces for c in text[p.start:p.end])
        out += pieces if kept == sum(c.isalnum() for c in text[span.start:span.end]) else [span]
    return out


def _columns_filled(text: str, spans: list[Span], tables: list, fields: Fields) -> list[Span]:
    """A column that the rules' fields say nothing of (`Fields.kind` None), in a table that is no form, whose
    cells the detectors found whole as one label's values, PERSON or IDENTIFIER, two cells of three and three
    at least, holds that label in its other cells too: a cell where nothing was found that reads as its
    column's values is that label's, whole. A name: a name's words, no organisation's word ("Hanson
    Bridgett LLP"), no placeholder, in a table whose header names no thing (`thing`: a price, a SKU: "Oak
    Table" under `name`); a code: the shape of one of its column's found codes (letters, digits and their
    separators: `KX-20433` beside `KX-20411`, not `1200.00`). The model reads a table row by row, and a
    name or a code it missed in one row stays readable ("St. John-Mildmay" in a column of surnames it
    found everywhere else); every cell of a column gets the same treatment."""
    columns: list[tuple[list[tuple[int, int]], bool]] = []   # each open column's cells, and whether its table names a thing
    for header, rows in tables:
        names = tuple(text[start:end] for start, end in header)
        if is_form(text, header, rows, lambda cell: fields.names_a_field(text[cell[0]:cell[1]])):
            continue
        things = any(fields.has(field_words(name), "thing") for name in names)
        columns += [([row[column] for row in rows if column < len(row) and row[column][0] < row[column][1]], things)
                    for column, name in enumerate(names) if fields.kind(name, names) is None]
    if not columns:
        return spans
    inside = _spans_in_cells(spans, [cell for cells, _ in columns for cell in cells])
    added = [span for cells, things in columns for span in _column_filled(text, cells, inside, fields, things)]
    return spans + added if added else spans


def _spans_in_cells(spans: list[Span], cells: list[tuple[int, int]]) -> dict[tuple[int, int], list[Span]]:
    """The spans that overlap each cell, read once over the spans (a cell is short, a span may be long)."""
    index = SpanIndex([_Range(start, end, "cell") for start, end in cells])
    inside: dict[tuple[int, int], list[Span]] = {}
    for span in spans:
        for cell in index.overlapping(span.start, span.end):
            inside.setdefault((cell.start, cell.end), []).append(span)
    return inside


def _column_filled(text: str, cells: list[tuple[int, int]], inside: dict[tuple[int, int], list[Span]],
                   fields: Fields, things: bool) -> list[Span]:
    """The spans `_columns_filled` adds to one column's cells."""
    whole: dict[str, list[str]] = {}   # label -> the found cells' values
    unfound = []
    for start, end in cells:
        found = inside.get((start, end), [])
        if not found:
            unfound.append((start, end))
        for span in found:
            if span.label in _FILLED_LABELS and span.start <= start and end <= span.end:
                whole.setdefault(span.label, []).append(text[start:end])
    if len(whole) != 1:
        return []
    label, values = next(iter(whole.items()))
    if len(values) < 3 or 3 * len(values) < 2 * len(cells):
        return []
    if label == "PERSON":
        if things:
            return []
        pieces = [(_after_titles(text, start, end, fields.lexicon.person_lead_words), end) for start, end in unfound]
        pieces = [(start, _without_end_punctuation(text, start, end)) for start, end in pieces]
        return [Span(start, end, label, 0.8, "keyword") for start, end in pieces
                if _reads_as_name(text, start, end, fields.not_a_name_values) and text[start].isupper()
                and not _names_an_organisation(text, start, end, fields.lexicon)]
    shapes = {_code_shape(value) for value in values}
    return [Span(start, end, label, 0.8, "keyword") for start, end in unfound
            if _code_shape(text[start:end]) in shapes and any(c.isdigit() for c in text[start:end])]


_FILLED_LABELS = frozenset({"PERSON", "IDENTIFIER"})
_SHAPE_RUN = regex.compile(r"\p{L}+|\p{N}+")


def _code_shape(value: str) -> str:
    """A code's shape: its runs of letters as `A`, of digits as `9`, its separators as written
    ("KX-20411" and "KX-20433" are `A-9`, "1200.00" is `9.9`)."""
    return _SHAPE_RUN.sub(lambda m: "A" if m.group()[0].isalpha() else "9", value)


def _without_end_punctuation(text: str, start: int, end: int) -> int:
    while end > start and text[end - 1] in ".,;:":
        end -= 1
    return end


def _names_an_organisation(text: str, start: int, end: int, lexicon: Lexicon) -> bool:
    """A word of an organisation, a company's legal form or a business in `text[start:end]` ("Hanson
    Bridgett LLP"), as the letterheads and the companies' names read them (`Lexicon`)."""
    return lexicon.organisation_word.search(text, start, end) is not None \
        or lexicon.company_word.search(text, start, end) is not None


def _fields_named(text: str, cells: list[tuple[int, int]], fields: Fields) -> int:
    """How many of a header row's cells name a field the rules know."""
    return sum(fields.names_a_field(text[start:end]) for start, end in cells)


def _outside_headers(text: str, spans: list[Span], tables: list, fields: Fields) -> list[Span]:
    """A table's header row of three cells or more, two of them fields the rules know, holds field names,
    no values: "Date\tMarchand\tMontant" has no PERSON "Marchand". A first row with fewer may be data (a
    headerless CSV's first person), or a form's "Nom | Dupont" line: it is left."""
    headers = [_Range(cells[0][0], cells[-1][1], "header") for cells, _ in tables
               if len(cells) >= 3 and _fields_named(text, cells, fields) >= 2]
    if not headers:
        return spans
    index = SpanIndex(headers)
    return [s for s in spans if not (s.source in ("model", "repeat") and s.label in MODEL_LABELS
                                     and any(h.start <= s.start and s.end <= h.end
                                             for h in index.overlapping(s.start, s.end)))]


def _names_markup(text: str, tag_start: int, attribute: str) -> bool:
    """Whether the attribute `attribute` of the tag at `tag_start` names or styles markup (`_markup_names`)."""
    name = attribute.lower()
    if name in _MARKUP_ATTRIBUTES:
        return True
    element = _ELEMENT.match(text, tag_start)
    return name in ("name", "id") and element is not None and element.group(2).lower() in _FORM_CONTROLS


def _markup_names(text: str, tags: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """The values of the attributes that name or style markup: `class`, `style`, `role`, `rel`, `for`, `type`,
    `autocomplete` of any element, and a form control's `name` and `id` (`<input name="tp_vrm">`: the
    field's name, which the engine reads its value by). `tags`: `markup_tags`, whose pieces stop at each
    attribute's value."""
    out = []
    for tag_start, start, end, next_start in _tag_pieces(text, tags):
        attribute = _ATTR_NAME.search(text[start:end])
        if attribute is not None and _names_markup(text, tag_start, attribute.group(1)):
            out.append((end, next_start))
    return out


def _tag_pieces(text: str, tags: list[tuple[int, int]]) -> Iterator[tuple[int, int, int, int]]:
    """(start of the tag it belongs to, start, end, start of the next piece) of each piece of `tags`
    (`markup_tags`, whose pieces stop at each attribute's value) but the last."""
    tag_start = 0
    for (start, end), (next_start, _) in zip(tags, tags[1:]):
        if text.startswith("<", start):
            tag_start = start
        yield tag_start, start, end, next_start


def _captions(text: str, tags: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """The text of a form's `<label>` and `<legend>` with no element inside: what a field or a group of fields
    is called ("<label>Expiry</label>", "<legend>Demandeur</legend>"), no value. A choice's label is left: one
    around its control (`<label><input type="radio"> Anne Roux</label>`), one within 200 characters of a radio
    button or a checkbox, one that reads as a name of two capitalised words ("Léa Quillardet")."""
    out = []
    for tag_start, start, end, next_start in _tag_pieces(text, tags):
        if end <= start or text[end - 1] != ">" or end == next_start:
            continue
        element = _ELEMENT.match(text, tag_start)
        if element is None or element.group(1) or element.group(2).lower() not in _CAPTIONS:
            continue
        closing = _ELEMENT.match(text, next_start)
        if closing is not None and closing.group(1) and closing.group(2).lower() == element.group(2).lower() \
                and not _CHOICE_NEAR.search(text, max(0, tag_start - 200), min(len(text), next_start + 200)) \
                and not _TWO_NAME_WORDS.search(text, end, next_start):
            out.append((end, next_start))
    return out


_CHOICE_NEAR = regex.compile(r"(?i:type\s*=\s*[\"']?(?:radio|checkbox))")
_TWO_NAME_WORDS = regex.compile(r"\p{Lu}[\p{Ll}'’\-]+[ ]+\p{Lu}")


_CAPTIONS = frozenset({"label", "legend"})
_MARKUP_ATTRIBUTES = frozenset({"class", "style", "role", "rel", "for", "type", "autocomplete"})
_FORM_CONTROLS = frozenset({"input", "select", "textarea", "button", "label", "form", "option", "fieldset", "output"})


def _outside_keys(spans: list[Span], keys: list[tuple[int, int]]) -> list[Span]:
    """A JSON key, a SQL insert's column list and an attribute that names markup are fields' names, no
    values: `"niveau": "INFO"` has no IDENTIFIER "niveau", `(login, mdp_hash, role)` no login "mdp_hash",
    `<input name="tp_ref">` no IDENTIFIER "tp_ref"."""
    if not keys:
        return spans
    index = SpanIndex([_Range(start, end, "key") for start, end in keys])
    return [s for s in spans if not (s.source in _PROSE_SOURCES and any(
        k.start <= s.start and s.end <= k.end for k in index.overlapping(s.start, s.end)))]


def field_values(text: str, tags: list[tuple[int, int]], fields: Fields, tables: list, records: list
                 ) -> Iterator[tuple[int, int, str, tuple[str, tuple[str, ...]] | None]]:
    """(start, end, kind, column) of the values whose field name says something (`Fields.kind`), column
    (header, the table's headers) for a table's cell; `tables`: the text's `named_tables`, `records`: its
    JSON and SQL values, named (`_json_fields`, `_sql_fields`)."""
    kinds: dict[tuple[str, tuple[str, ...]], str | None] = {}  # a header, an element or a key names many values
    for start, end, name, record in _named_values(text, tags, fields, tables, records):
        key = (name, record)
        kind = kinds[key] if key in kinds else kinds.setdefault(key, fields.kind(name, record))
        if kind is not None and start < end:
            yield start, end, kind, key if record else None


def _named_values(text: str, tags: list[tuple[int, int]], fields: Fields, tables: list, records: list
                  ) -> Iterator[tuple[int, int, str, tuple[str, ...]]]:
    """(start, end, field name, the names of the fields beside it where known) of each named value.
    An element's text is named by its element, and a `generic` element ("Id") by the nearest element
    around it that is not generic too: "<Stmt><Id>" is "Stmt Id"; a JSON value by its key; a table's
    cell by its column's header, and a form's value by the key on its line (`is_form`)."""
    if tags:  # an element's text, named by the element around it, or by its HTML table's header
        open_elements: list[str] = []
        closed = _closed_elements(text, (start for start, _ in tags))
        cells = _TableCells()
        last = tag_start = 0
        for start, end in tags:
            element = _ELEMENT.match(text, start)
            if start > last and open_elements:
                value_start, value_end, name = _trimmed(text, last, start, _element_name(open_elements, fields.generic))
                attribute = _ATTR_NAME.search(text, max(tag_start, last - 80), last)
                if attribute is not None:  # an attribute's value, named by the attribute
                    if not _names_markup(text, tag_start, attribute.group(1)):
                        yield value_start, value_end, _attribute_name(text, tag_start, attribute.group(1), name,
                                                                      fields.generic), ()
                else:
                    header, record = cells.name(open_elements, text[value_start:value_end])
                    yield value_start, value_end, header or name, record
            if text.startswith("<", start):
                tag_start = start
            if element is not None:
                closing, name = element.group(1), element.group(2)
                cells.tag(name.lower(), bool(closing))
                if closing:
                    while open_elements and open_elements.pop() != name:
                        pass
                elif not text[start:end].rstrip().endswith("/>") and not (
                        name.lower() in _VOID_ELEMENTS and name not in closed):
                    open_elements.append(name)  # HTML's "<br>" holds no text: the text after it is its parent's
            last = end
    yield from records
    for header, rows in tables:
        if is_form(text, header, rows, lambda cell: fields.names_a_field(text[cell[0]:cell[1]])):
            for key, value in (header, *rows):
                yield value[0], value[1], text[key[0]:key[1]], ()
        else:
            yield from table_fields(text, header, rows)


def _json_fields(text: str, fields: Fields
                 ) -> tuple[list[tuple[int, int, str, tuple[str, ...]]], list[tuple[int, int]]]:
    """A JSON text's values, each named by its key (a generic key, "id", with the key of its object or
    array: `{"customer": {"id": …}}` is "customer id"; in an object that is a person's record, a key beside
    it whose value is the person's name, login or birth date, it is "person id": `{"id": 60417, "username":
    "t.ferrand"}`; an object under a key "user" is inside the record, not the record), and the keys of those
    values: one pass."""
    values: list[tuple[int, int, str, tuple[str, ...]]] = []
    keys: list[tuple[int, int]] = []
    if '"' not in text or ":" not in text:
        return values, keys
    open_objects = [_OpenObject(None)]  # the text's top level, then each object or array open at this point
    for m in _JSON_TOKEN.finditer(text):
        if m.group("open") is not None:
            open_objects.append(_OpenObject(m.group("key")))
        elif m.group("brace") is not None:
            if m.group("brace") in "{[":
                open_objects.append(_OpenObject(None))
            elif len(open_objects) > 1:
                open_objects.pop().name_ids(values)
        elif m.group("key") is not None:
            group = "string" if m.group("string") is not None else "number"
            name = m.group("key")
            if field_words(name) in fields.generic:
                parent = next((o.key for o in reversed(open_objects) if o.key is not None), None)
                name = f"{_singular(parent)} {name}" if parent is not None else name
                if fields.kind(name) is None:
                    open_objects[-1].unnamed_ids.append(len(values))
            else:
                open_objects[-1].names_a_person |= fields.kind(name) in _PERSON_RECORD_KINDS
            values.append((m.start(group), m.end(group), name, ()))
            keys.append(m.span("key"))
    for unclosed in open_objects:
        unclosed.name_ids(values)
    return values, keys


_PERSON_RECORD_KINDS = frozenset({"person", "login", "birth_date", "birthplace"})


@dataclass
class _OpenObject:
    """A JSON object or array being read: the key it is the value of (None: in an array, or the top level),
    where its generic values that nothing names are in the values read, and whether a key of it holds a
    person's name, login or birth date."""
    key: str | None
    unnamed_ids: list[int] = field(default_factory=list)
    names_a_person: bool = False

    def name_ids(self, values: list[tuple[int, int, str, tuple[str, ...]]]) -> None:
        """Once the object is read: in a person's record, its generic values are the person's id."""
        if self.names_a_person:
            for index in self.unnamed_ids:
                start, end, name, beside = values[index]
                values[index] = (start, end, f"person {name}", beside)


class _TableCells:
    """Where an HTML table's cell stands: a `<td>` is named by its column's `<th>` (a header row: a row of
    `<th>` only) or by the `<th>` before it in its row (a key-value table: `<tr><th>Nom</th><td>…`)."""

    def __init__(self) -> None:
        self.header: list[str] = []   # the table's header row
        self.row: list[str] = []      # the current row's cells: a th's text, or "" for a td
        self.row_has_td = False

    def tag(self, element: str, closing: bool) -> None:
        if element in ("tr", "table", "thead", "tbody") and self.row:
            if not self.row_has_td:
                self.header = self.row
            self.row, self.row_has_td = [], False
        if element == "table" and not closing:
            self.header = []
        elif element in ("td", "th") and not closing:
            self.row.append("")
            self.row_has_td |= element == "td"

    def name(self, open_elements: list[str], value: str) -> tuple[str | None, tuple[str, ...]]:
        """The header of a cell's text (None outside a cell) and the names of the fields beside it."""
        cell = next((e.lower() for e in reversed(open_elements) if e.lower() in ("td", "th")), None)
        if cell is None or not self.row:
            return None, ()
        if cell == "th":
            self.row[-1] = f"{self.row[-1]} {value}".strip()
            return None, ()
        before = [key for key in self.row[:-1] if key]
        if before:
            return before[-1], ()
        column = len(self.row) - 1
        if column < len(self.header) and self.header[column]:
            return self.header[column], tuple(self.header)
        return None, ()


def _sql_fields(text: str, generic: tuple[tuple[str, ...], ...]
                ) -> tuple[list[tuple[int, int, str, tuple[str, ...]]], list[tuple[int, int]]]:
    """A SQL dump's `INSERT INTO t (a, b) VALUES (…), (…);` values, each named by its column (a generic one,
    "id", with its table's name: `clients.id` is "client id"; an insert without a column list by the columns
    of the dump's `CREATE TABLE t`, as mysqldump writes them), and the inserts' column lists."""
    values: list[tuple[int, int, str, tuple[str, ...]]] = []
    column_lists: list[tuple[int, int]] = []
    defined: dict[str, tuple[str, ...]] | None = None
    for insert in _SQL_INSERT.finditer(text):
        name = insert.group("table").strip("`\"[] ").rsplit(".", 1)[-1]
        table = _singular(name)
        if insert.group("columns") is not None:
            column_lists.append(insert.span("columns"))
            columns = tuple(c.strip().strip("`\"[] ") for c in insert.group("columns").split(","))
        else:  # mysqldump's `INSERT INTO t VALUES`: the columns of its `CREATE TABLE t`
            defined = _sql_tables(text) if defined is None else defined
            columns = defined.get(name.casefold(), ())
            if not columns:
                continue
        columns = tuple(f"{table} {c}" if field_words(c) in generic else c for c in columns)
        pos = insert.end()
        while (row := _SQL_ROW_START.match(text, pos)) is not None:
            pos, column, row_values = row.end(), 0, []
            while (value := _SQL_VALUE.match(text, pos)) is not None:
                group = "quoted" if value.group("quoted") is not None else "bare"
                if column < len(columns) and value.group(group):
                    row_values.append((value.start(group), value.end(group), columns[column], columns))
                pos, column = value.end(), column + 1
                if value.group("sep") == ")":
                    break
            else:
                break
            if column == len(columns) or insert.group("columns") is not None:  # a definition that fits the row
                values += row_values
    return values, column_lists


def _sql_tables(text: str) -> dict[str, tuple[str, ...]]:
    """The column names of each `CREATE TABLE` of a dump, by its table's name (casefolded, no schema): the
    definitions before the parenthesis that closes the table, less keys and constraints."""
    tables = {}
    for create in _SQL_CREATE.finditer(text):
        depth, pos, start, columns, quote = 1, create.end(), create.end(), [], ""
        while depth and pos < len(text) and pos - create.end() < 20000:
            ch = text[pos]
            if quote:  # a quoted default or comment: "COMMENT 'first name, then last'"
                quote = "" if ch == quote else quote
            elif ch in "'\"":
                quote = ch
            elif ch == ";":
                break
            elif depth == 1 and ch in ",)":
                item = text[start:pos]
                column = _SQL_COLUMN.match(item)
                if column is not None and not _SQL_NOT_A_COLUMN.match(item):
                    columns.append(column.group("name"))
                start = pos + 1
            if not quote:
                depth += (ch == "(") - (ch == ")")
            pos += 1
        tables[create.group("table").strip("`\"[] ").rsplit(".", 1)[-1].casefold()] = tuple(columns)
    return tables


def _key_value_fields(text: str, tags: list[tuple[int, int]]) -> list[tuple[int, int, str, tuple[str, ...]]]:
    """A log's or a command's `key=value` pairs (logfmt: "user=jmorel sku=FL-TEA-0042 ip=…"; a value quoted
    with " or ', as a Java object's toString or a Python repr writes it: "Client{nom='Morel', nir='…'}") and a config
    file's `key: value` lines (YAML: "ansible_user: deploy", a key in lower case of two words or more
    joined by "_", "." or "-": a chat's "user: 06…" is a speaker's line), each value named by its key; not
    a URL's query (after "?" or "&") nor an attribute inside a tag."""
    if "=" not in text and ":" not in text:
        return []
    inside = SpanIndex([_Range(a, b, "tag") for a, b in tags])
    return [(pair.start("value"), pair.end("value"), pair.group("key"), ())
            for pattern in (_KEY_VALUE, _CONFIG_LINE) for pair in pattern.finditer(text)
            if pair.end("value") > pair.start("value") and not inside.overlapping(pair.start(), pair.end())]


_KEY_VALUE = regex.compile(r"(?<![^\s,;({\[])(?P<key>[A-Za-z_][A-Za-z0-9_.\-]{0,40})="
                           r"(?:\"(?P<value>[^\"\n]{0,200})\"|'(?P<value>[^\n]{0,200}?)'(?=[\s,;)}\]]|\Z)|<(?P<value>[^<>\s]{1,100})>"
                           r"|(?P<value>[^\s,;&\"'<>()\[\]{}]{1,200}))")


_CONFIG_LINE = regex.compile(r"(?m)^[ \t]*(?:-[ \t]+)?(?P<key>[a-z][a-z0-9]*(?:[_.\-][a-z0-9]+)+):[ \t]+"
                             r"(?:\"(?P<value>[^\"\n]{1,200})\"|'(?P<value>[^'\n]{1,200})'"
                             r"|(?P<value>[^\s#\"'|>&*!{\[][^\n#]{0,199}?))[ \t]*(?:#[^\n]*)?$")


def _singular(name: str) -> str:
    """A plural name of records as one record's: "clients" is "client", "users" "user"."""
    return name[:-1] if len(name) > 3 and name.endswith("s") and not name.endswith("ss") else name


def _attribute_name(text: str, tag_start: int, attribute: str, element: str,
                    generic: tuple[tuple[str, ...], ...]) -> str:
    """The field name of an attribute's value: the attribute (`rpps="…"`); a generic attribute (`value`,
    `id`) is named by the tag's `name` and `id` together (a form's `<input name="num_piece" value="…">`; a
    generated name, "f1", says nothing and its id may: `<input id="passport_no" name="f3">`), else by its element."""
    if field_words(attribute) not in generic:
        return attribute
    tag_end = text.find(">", tag_start)
    tag_end = len(text) if tag_end < 0 else tag_end
    names = [named.group(1) for pattern in _INPUT_NAMES if (named := pattern.search(text, tag_start, tag_end))]
    return " ".join(names) if names else element


def _element_name(open_elements: list[str], generic: tuple[tuple[str, ...], ...]) -> str:
    name = open_elements[-1]
    if field_words(name) in generic:
        parent = next((e for e in reversed(open_elements[:-1]) if field_words(e) not in generic), None)
        if parent is not None:
            return f"{parent} {name}"
    return name


def _trimmed(text: str, start: int, end: int, name: str) -> tuple[int, int, str]:
    while start < end and text[start].isspace():
        start += 1
    while end > start and text[end - 1].isspace():
        end -= 1
    return start, end, name


def _after_titles(text: str, start: int, end: int, titles: frozenset[str]) -> int:
    """Where a name field's value starts after its titles: "Prof. Cressida Vane" is "Cressida Vane"."""
    while True:
        m = _TITLE.match(text, start, end)
        if m is None or m.group(1).casefold() not in titles:
            return start
        start = m.end()


def _reads_as_name(text: str, start: int, end: int, not_a_name_values: frozenset[str]) -> bool:
    value = text[start:end]
    return bool(_NAME_VALUE.fullmatch(value)) and value.casefold() not in not_a_name_values and len(value) <= 80
