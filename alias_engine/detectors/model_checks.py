"""Checks on the model's spans: what a label's format rules out, the model cannot claim.

The token classifier reads context, not formats, so it sometimes labels a
version string IP_ADDRESS, a bcrypt hash SECRET or a 12-digit number
CREDIT_CARD. Each check below is a property of the label's format (an IPv4
part is at most 255, a card has 13-19 digits, a name does not run over a line
break), with its word lists and regexes in the "model_checks" section of
rules/common.json (docs/rules.md). Two checks hold for every label: no span
runs onto the next line's form item ("…⏎1.6"), and no number is a sum of
money. A number that fails its label's format stays masked, as an IDENTIFIER
or a PHONE: the engine fails closed.

>>> checks = load_model_checks({"person_lead_words": ["Dr"], "secret_not": "\\\\$2[aby]\\\\$.*"})
>>> text = "Dr Jean Dupont at 10.0.300.1"
>>> [text[s.start:s.end] for s in check_model_spans(
...     [Span(0, 14, "PERSON", 0.9, "model"), Span(18, 28, "IP_ADDRESS", 0.9, "model")], text, checks)]
['Jean Dupont']
"""

from __future__ import annotations

import ipaddress
from bisect import bisect_right
from collections.abc import Callable, Iterable
from dataclasses import dataclass

import regex

from ..spans import Span
from ..validators import card
from .keywords import is_possible_phone, strip_accents
from .patterns import PatternRules, compile_pattern, is_person_url, is_public_url

# Where a PERSON span is cut: a line break, a tab or a run of 3+ spaces (table columns).
_PERSON_BREAK = regex.compile(r"\s*(?:\n|\t| {3,})\s*")
# A couple: a given name, "&", "and" or "et", and a full name ("Owen & Bea MacLeod" is "Owen" and "Bea
# MacLeod"; "Brooks & Dunn" stays one span).
_COUPLE = regex.compile(r"(\p{Lu}\p{Ll}+(?:-\p{Lu}\p{Ll}+)?)[ \t]+(?:&|and|et)[ \t]+(?=\p{Lu}[\p{Ll}.]*[ \t]+\p{Lu})")
_CARD = regex.compile(r"\d(?:[ \-]?\d){12,18}")
_IBAN = regex.compile(r"(?i:[a-z]{2}\d{2}(?:[ \-]?[a-z0-9]){10,32})")
_SEPA_CREDITOR = regex.compile(r"(?i:[a-z]{2}\d{2}[ ]?zzz)")
_NUMBER = regex.compile(r"\d+")
# From the first to the last word with a digit.
_DIGIT_WORDS = regex.compile(r"[^\s]*\d[^\s]*(?:\s+[^\s]*\d[^\s]*)*")
_WORD_PIECE = regex.compile(r"\p{Lu}*\p{Ll}*|[.\-]")
_KEY_VALUE = regex.compile(r"[\p{L}_]+=\S*")
# An initial or a particle glued to the next piece of a name: "M'", "J.-", "J.-P."
_NAME_PREFIX = regex.compile(r"(?<![\p{L}.'’])(?:\p{Lu}['’]|(?:\p{Lu}\.-)+)\Z")
# Initials written before a surname, with a space: "S.R. ", "J. ", "M. " (in French "M." is Monsieur).
_INITIALS_BEFORE = regex.compile(r"(?<![\p{L}\p{N}.'’\-])((?:\p{Lu}\.[ ]?){0,2}\p{Lu}\.)[ ]\Z")
# A form's item number or letter alone on a line ("1.6", "d").
_FORM_ITEM = regex.compile(r"\d{1,2}(?:\.\d{1,2})?|\p{Ll}")
# A title or greeting word before a name ("Dr.", "G'day"), and a number before it ("2287 Collins").
_LEAD_WORD = regex.compile(r"(\p{L}+(?:['’]\p{L}+)?)\.?\s+(?=\S)")
_LEAD_NUMBER = regex.compile(r"(\d+)\s+(?=\p{L})")
# Words before an address's first element.
_ADDRESS_LEAD = regex.compile(r"(?i:(?:outside|near|opposite|behind|in front of|r/o|résidant|domiciliée?s? à)\s+)")
# The town a deed writes before the street after "demeurant à": "demeurant à ANNECY (74000), 4 rue …".
_TOWN_BEFORE = regex.compile(r"(?i:demeurant|domicilié(?:e?s?)|résidant|habitant)\s+à\s+"
                             r"((?-i:\p{Lu})[\p{L}\-'’ ]{1,40}?\s*\([^()\n]{1,30}\),\s*)\Z")
# A line's (or a quoted field's) comma-separated parts before an address: "Résidence Les Tilleuls, bât. C, "
_PARTS_BEFORE = regex.compile(r"(?:[^\n]*[\"«(:;][ \t]*|[ \t]*)((?:[^\n,;:\"«()]{2,60},[ \t]*){1,3})")
_TOKEN_STOP = " \t\r\n\"'`<>();[]{}"
# A postcode after a region in parentheses (Canada's "H2J 2L3", a 4-5 digit one), a postcode ending an
# address, and a town after it that ends the line or the clause.
_POSTCODE_AFTER = regex.compile(r"[ ,]+(?:\p{Lu}\d\p{Lu}[ \-]?\d\p{Lu}\d|\d{4,5})(?![\p{L}\p{N}])")
_ENDS_WITH_POSTCODE = regex.compile(r"(?<![\p{L}\p{N}.,])\d{4,5}\Z")
# A US state's two capitals ending an address, and the ZIP (+4) after it ("OMAHA NE" → "OMAHA NE 68114-3827").
_ENDS_WITH_STATE = regex.compile(r"(?<![\p{L}\p{N}])\p{Lu}{2}\Z")
_ZIP_AFTER = regex.compile(r"[ \t]+\d{5}(?:-\d{4})?(?![\p{L}\p{N}\-])")
_TOWN_AFTER = regex.compile(r" ((?:\p{Lu}\p{Ll}* )?\p{Lu}\p{Ll}+(?:[\-'’]\p{Ll}*\p{Lu}?\p{Ll}+)*)"
                            r"(?=[,.;)]|[ \t]*\r?\n|\Z| \p{Ll})")
_LINE_MARKS = " \t>*-•|?"  # quoting and list marks before a line's text
# One word of a name: "Bisliev", "DUVAL", "Jean-Pierre", "O'Neil", "N.", "J.-P."
_NAME_WORD = regex.compile(r"\p{Lu}(?:\p{Ll}+|\p{Lu}+)(?:['’\-]\p{Lu}?\p{Ll}+|['’\-]\p{Lu}+)*|(?:\p{Lu}\.-?)+")
# A number with the code or punctuation the model took before it: "PC 4471", "=58213", "CAX 582114".
_CODE_THEN_NUMBER = regex.compile(r"([^\p{L}\p{N}+(]*)(?:(\p{Lu}{2,6})\.?[ \t]+)?([+(]?\d[\d \t.\-/()]*)")
# An acronym and a number, and nothing else: a registration ("MCRN 421177"), never an address
# (a US state and its ZIP, "MO 89035", are an address's end).
_CODE_AND_NUMBER = regex.compile(r"(?!\p{Lu}{2}[ ]+\d{5}(?:-\d{4})?\Z)\p{Lu}{2,6}[ ]+(\d[\d \-/]*\d)")
# A value already masked ("4978XXXXXXXX2210", "***4418"): a partial value is no value (LABELS.md).
_MASKED = regex.compile(r"(?i:(?<=\d)x{3,}|x{3,}(?=\d))|\*{3,}|•{3,}")
# A decimal number ("1842207.551", a kernel log's clock): no phone.
_DECIMAL = regex.compile(r"\d+\.\d+")
# A sum of money ("6,903.10", "2 310,45"): never an identity number or a phone.
_AMOUNT = regex.compile(r"\d{1,3}(?:[ ,.\u202f]\d{3})*[.,]\d{2}")

# What a check keeps of a span: (start, end) with the span's label, or (start, end, label) with another.
Piece = tuple[int, int] | tuple[int, int, str]


@dataclass(frozen=True)
class ModelChecks:
    """The data of the checks, compiled once from common.json → "model_checks" (and the URL rules)."""

    person_lead_words: frozenset[str] = frozenset()  # casefolded, without a final dot
    secret_not: regex.Pattern | None = None      # hashes and placeholders: never a SECRET
    service_hosts: regex.Pattern | None = None   # a host's first label that names a service (smtp, docs)
    patterns: PatternRules | None = None          # the URL rules: a public URL is no one's
    name_particles: frozenset[str] = frozenset()  # casefolded: "de", "van" inside a name
    name_stop_words: frozenset[str] = frozenset()  # casefolded: capitalised words after a name, not of it
    address_line_words: frozenset[str] = frozenset()  # casefolded: a line with one of them is no name
    building_words: frozenset[str] = frozenset()  # casefolded: the first word of a building's name


def load_model_checks(section: dict, patterns: PatternRules | None = None) -> ModelChecks:
    """Compile the "model_checks" section of common.json; ValueError/TypeError on a bad one."""
    secret_not = section.get("secret_not")
    service = section.get("service_host_labels")
    return ModelChecks(frozenset(t.rstrip(".") for t in word_set(section, "person_lead_words")),
                       compile_pattern(secret_not, "model_checks.secret_not") if secret_not else None,
                       compile_pattern(service, "model_checks.service_host_labels") if service else None,
                       patterns, word_set(section, "name_particles"), word_set(section, "name_stop_words"),
                       word_set(section, "address_line_words"), word_set(section, "address_building_words"))


def word_set(section: dict, key: str, where: str = "model_checks") -> frozenset[str]:
    """The casefolded words of a rules section's list `key`; ValueError when it is no list of strings."""
    words = section.get(key, [])
    if not isinstance(words, list) or not all(isinstance(w, str) for w in words):
        raise ValueError(f"{where}.{key} must be a list of strings")
    return frozenset(w.casefold() for w in words)


def check_model_spans(spans: Iterable[Span], text: str, checks: ModelChecks, lang: str = "") -> list[Span]:
    """The model's spans that fit their label's format, cut or trimmed where the format says so (`lang`:
    the text's language, "fr" or "en", where a format depends on it)."""
    out: list[Span] = []
    for span in _joined_names(spans, text):
        span = _without_form_item(span, text)
        if span.label in _NUMBERS:
            if _MASKED.search(text, span.start, span.end):
                continue
            span = _number_without_code(span, text, checks)
            if _AMOUNT.fullmatch(text, span.start, span.end):
                continue
        check = _CHECKS.get(span.label)
        if check is None:
            out.append(span)
            continue
        for start, end, *label in check(text, span.start, span.end, checks):
            if start < end:
                out.append(Span(start, end, label[0] if label else span.label, span.score, span.source,
                                span.verified))
    out = _initials_added(_surnames_added(out, text, checks), text, lang)
    return out + _logins_after_names(out, text)


def _initials_added(spans: list[Span], text: str, lang: str) -> list[Span]:
    """A PERSON span takes the initials written before it ("S.R. O'Donoghue-Price", "M. Young"), except a
    French "M." (Monsieur: a title, outside the span) and initials another span holds."""
    ends = sorted(s.end for s in spans)
    out = []
    for span in spans:
        m = _INITIALS_BEFORE.search(text, max(0, span.start - 12), span.start) if span.label == "PERSON" else None
        if m is not None and not (lang == "fr" and m.group(1) == "M.") and \
                bisect_right(ends, span.start) == bisect_right(ends, m.start()):  # no span ends on the initials
            span = Span(m.start(), span.end, span.label, span.score, span.source, span.verified)
        out.append(span)
    return out


# A login in parentheses right after a name: "Rahul Kapoor (rkapoor)".
_LOGIN_AFTER = regex.compile(r"[ \t]?\(([\p{Ll}\p{N}][\p{Ll}\p{N}._\-]{2,31})\)")


def _logins_after_names(spans: list[Span], text: str) -> list[Span]:
    """A login made of a person's name, in parentheses after it, is an IDENTIFIER: "(rkapoor)" after "Rahul
    Kapoor" (a role in parentheses, "Jade (owner)", is none: it holds no word of the name)."""
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


# The rest of a name on its line, then where a name ends: "Delorme, lead", "des Varannes⏎", "Price    Tel"
_NAME_REST = regex.compile(r" ((?:\p{Ll}+ )?)(\p{Lu}\p{Ll}+(?:['’\-]\p{Lu}?\p{Ll}+)*)(?=[ \t]*\r?\n|,(?! ?\d)|;|\)|[ \t]{2})")


def _surnames_added(spans: list[Span], text: str, checks: ModelChecks) -> list[Span]:
    """A PERSON span that stops one word before the end of a name takes that word: the model's
    "Marc-Antoine" of "Marc-Antoine Delorme, lead developer", "Stanislas Bruley" of "… Bruley des
    Varannes, mise en place". The word is capitalised (a particle may come before it), ends the
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
            if (not particle or particle in checks.name_particles) and not (i < len(starts) and starts[i] < m.end()) \
                    and not any(part in checks.name_stop_words or part in checks.address_line_words
                                for part in regex.split(r"['’\-]", word.casefold()) if part not in checks.name_particles):
                span = Span(span.start, m.end(), span.label, span.score, span.source, span.verified)
        out.append(span)
    return out


def _joined_names(spans: Iterable[Span], text: str) -> list[Span]:
    """PERSON spans that the model cut in pieces become one name: "Anne" + "Roux" (a space or a hyphen
    between them), "DUVAL" + "Anne" ("NOM, Prénom"), and a glued "M'" or "J.-" before a piece
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
                    _joins(text[prev.start:prev.end], text[prev.end:span.start]):
                out[-1] = Span(prev.start, span.end, "PERSON", max(prev.score, span.score), prev.source,
                               prev.verified and span.verified)
                continue
        out.append(span)
    return out


def _joins(first: str, gap: str) -> bool:
    if gap in (" ", "-"):
        return True
    return gap == ", " and first.isupper() and " " not in first  # "DUVAL, Anne"


def _without_form_item(span: Span, text: str) -> Span:
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


def _number_without_code(span: Span, text: str, checks: ModelChecks) -> Span:
    """A number span does not start with the punctuation or the rank the model took before it ("=58213",
    "PC 4471"); letters that may be the value's own stay ("CAX 582114", "BERE 8562 2114")."""
    m = _CODE_THEN_NUMBER.fullmatch(text, span.start, span.end)
    if m is None:
        return span
    start = m.start(3) if (m.group(2) or "").casefold() in checks.person_lead_words else m.end(1)
    return Span(start, span.end, span.label, span.score, span.source, span.verified)


def _person(text: str, start: int, end: int, checks: ModelChecks) -> list[Piece]:
    """Cut at line breaks and column gaps; drop leading titles and trailing words that end no name; no single
    letters."""
    parts, pos = [], start
    for m in _PERSON_BREAK.finditer(text, start, end):
        parts.append((pos, m.start()))
        pos = m.end()
    parts.append((pos, end))
    kept: list[Piece] = []
    for s, e in parts:
        s = _after_titles(text, s, e, checks.person_lead_words)
        couple = _COUPLE.match(text, s, e)
        if couple is not None:
            kept.append((s, couple.end(1)))
            s = couple.end()
        number = _LEAD_NUMBER.match(text, s, e)
        name_start = number.end() if number else s
        e = _before_trailing_words(text, name_start, e, checks)
        if sum(c.isalpha() for c in text[name_start:e]) > 1:
            if number:  # "2287 Collins": the number before the name stays masked, as what it is
                kept.append((s, s + len(number.group(1)), "IDENTIFIER"))
            kept.append((name_start, e))
    return kept


def _before_trailing_words(text: str, start: int, end: int, checks: ModelChecks) -> int:
    """Before a number, drop a weekday, month or other word that ends no name ("Patel Mon 14 Apr" is "Patel";
    "LI Jun" stays: a given name that is also a month)."""
    if not regex.match(r"[ \t]*\d", text[end:end + 8]):
        return end
    while True:
        head, space, last = text[start:end].rpartition(" ")
        folded = last.casefold().rstrip(".")
        if not space or not head.strip() or folded not in checks.name_stop_words or folded in checks.name_particles:
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


def _ip(text: str, start: int, end: int, checks: ModelChecks) -> list[Piece]:
    value = text[start:end]
    try:
        ipaddress.ip_interface(value)
    except ValueError:
        return []  # "537.36", "Chrome/124.0.6367.91" (a part above 255), "8080:80"
    return [(start, end)]


def _card(text: str, start: int, end: int, checks: ModelChecks) -> list[Piece]:
    """13-19 digits in groups; what follows the number ("05/27 091", even when the model took its "05")
    is not the card. Fewer digits shaped like a phone number stay masked, as a PHONE."""
    ends = [e for e in range(start + 13, min(end, start + 40) + 1)
            if _CARD.fullmatch(text, start, e) and not text.startswith("/", e) and (e == end or not text[e].isdigit())]
    if not ends:
        return [(start, end, "PHONE")] if is_possible_phone(text[start:end]) else _as_identifier(text, start, end)
    # The longest prefix that passes Luhn, else the longest one.
    valid = [e for e in ends if card.is_valid(text[start:e])]
    cut = max(valid or ends)
    return [(start, cut), *_as_identifier(text, cut, end)]


def _iban(text: str, start: int, end: int, checks: ModelChecks) -> list[Piece]:
    """Country code, check digits, then the account: "CAF 4471093" or "exp" are not IBANs, nor a SEPA
    creditor identifier ("FR12ZZZ123456": the creditor's, not a person's account)."""
    value = text[start:end]
    if _SEPA_CREDITOR.match(value):
        return []
    return [(start, end)] if _IBAN.fullmatch(value) else _as_identifier(text, start, end)


def _as_identifier(text: str, start: int, end: int) -> list[Piece]:
    """A number the model found but whose format is not its label's ("CAF 4471093" as an IBAN) stays
    masked, as an IDENTIFIER, without the words around it: the engine fails closed."""
    m = _DIGIT_WORDS.search(text, start, end)
    if m is None or sum(c.isdigit() for c in m.group()) < 4:
        return []
    return [(m.start(), m.end(), "IDENTIFIER")]


def _birth_date(text: str, start: int, end: int, checks: ModelChecks) -> list[Piece]:
    """A date of birth has a day, a month and a year, or a month written as a word: "09/27" (a card's
    expiry) and "18-25" (an age range) are not one."""
    value = text[start:end]
    if not any(c.isalpha() for c in value) and len(_NUMBER.findall(value)) < 3:
        return []
    return [(start, end)]


def _phone(text: str, start: int, end: int, checks: ModelChecks) -> list[Piece]:
    """At least 5 digits and no decimal number: "+0000" (a log's time zone) and "[1842207.551]" (a kernel's
    clock) are not phone numbers; a toll-free number written as
    such ("0800 …", "1-800-…") is a company's line, as the rules decide for their own finds."""
    if sum(c.isdigit() for c in text[start:end]) < 5 or _DECIMAL.fullmatch(text, start, end):
        return []
    if checks.patterns is not None and checks.patterns.phone_company_line.fullmatch(text, start, end):
        return []
    return [(start, end)]


def _secret(text: str, start: int, end: int, checks: ModelChecks) -> list[Piece]:
    """Not a hash or a placeholder (judged on the whole token around the span: "$argon2id$v=19…" is
    cut in pieces by the model), not a plain word ("NSInvalidArgumentException", "issued") and not a
    log's key=value ("attempts=3"). A quoted secret is the whole quoted token: '"tulip_2024!"' when the
    model stopped before the "!" (not a quoted "KEY=value")."""
    value = text[start:end]
    lo, hi = start, end
    while lo > 0 and text[lo - 1] not in _TOKEN_STOP:
        lo -= 1
    while hi < len(text) and text[hi] not in _TOKEN_STOP:
        hi += 1
    if checks.secret_not is not None and (checks.secret_not.fullmatch(value) or
                                          checks.secret_not.fullmatch(text, lo, hi)):
        return []
    if _is_words(value) or _KEY_VALUE.fullmatch(value):
        return []
    if lo > 0 and text[lo - 1] in "\"'`" and text.startswith(text[lo - 1], hi) and \
            not any(c in "=:" for c in text[lo:start] + text[end:hi]):
        return [(lo, hi)]
    return [(start, end)]


def _is_words(value: str) -> bool:
    """Letters that read as words or a CamelCase name ("issued", "NSInvalidArgumentException"), not
    random letters ("dngTZayHF"): at most 5 pieces of 3+ letters on average, each a capital (a run of
    capitals only at the start) then lower case."""
    if not value.isalpha():
        return False
    pieces = [p for p in _WORD_PIECE.findall(value) if p]
    return (len(pieces) <= 5 and len(value) >= 3 * len(pieces)
            and all(any(c.islower() for c in p) for p in pieces)
            and all(sum(c.isupper() for c in p) <= 1 for p in pieces[1:]))


def _url(text: str, start: int, end: int, checks: ModelChecks) -> list[Piece]:
    """Not a file path ("a/src/app.py": no scheme, no "www.", no dot before the first "/"), not a public
    page the URL rules know (documentation, a code host's project), not a page every organisation's site
    has ("/mon-compte", "/upload": `organisation_paths`) nor a service's host ("smtp.…", "docs.…") unless
    something in it points at a person."""
    value = text[start:end]
    if "://" not in value and not value.lower().startswith("www.") and "." not in value.split("/", 1)[0]:
        return []
    if checks.patterns is None:
        return [(start, end)]
    if is_public_url(value, checks.patterns):
        return []
    authority, _, path = value.split("://", 1)[-1].partition("/")
    if regex.split(r"[/?#]", path, maxsplit=1)[0].lower() in checks.patterns.organisation_paths and \
            not is_person_url(value, checks.patterns):
        return []  # "https://www.velo-shop.fr/mon-compte": a page of an organisation's site
    host = authority.split(":", 1)[0].lower().removeprefix("www.")
    if checks.service_hosts is not None and "." in host and \
            checks.service_hosts.fullmatch(host.split(".", 1)[0]) and not is_person_url(value, checks.patterns):
        return []
    return [(start, end)]


def _address(text: str, start: int, end: int, checks: ModelChecks) -> list[Piece]:
    """An address has a number (street, flat or postcode: "Cracovie, Pologne" is places, not an address)
    in it or right after it, does not end on a form's item number ("…S11 8YD⏎1.6"), starts at its first
    element, not at a word before it ("outside 27 …") but at the town a deed writes first ("demeurant à
    LYON (69003), 4 rue …"), is more than an acronym and a number ("MCRN 421177": that number is an
    IDENTIFIER), and a first line that is a person's name
    ("Marisa Bisliev⏎583 Magrethevej 298…": an address block under its addressee) is that PERSON."""
    code = _CODE_AND_NUMBER.fullmatch(text, start, end)
    if code is not None:  # "MCRN 421177", "UCI 11-2294-8817": a registration, not an address
        return [(code.start(1), code.end(1), "IDENTIFIER")]
    last_break = text.rfind("\n", start, end)
    if last_break != -1 and _FORM_ITEM.fullmatch(text[last_break + 1:end].strip()):
        end = last_break
    while end > start and not text[end - 1].isalnum():
        end -= 1
    m = _ADDRESS_LEAD.match(text, start, end)
    if m is not None and m.end() < end:
        start = m.end()
    head = _TOWN_BEFORE.search(text, max(0, start - 80), start)
    if head is not None:
        start = head.start(1)
    start = _building_start(text, start, checks)
    end = _address_tail(text, start, end, checks)
    person: list[Piece] = []
    name_end = _name_line_end(text, start, end, checks)
    if name_end is not None:
        person = [(_after_titles(text, start, name_end, checks.person_lead_words), name_end, "PERSON")]
        start = text.index("\n", name_end)
        while start < end and not text[start].isalnum():
            start += 1
    if not any(c.isdigit() for c in text[start:min(len(text), end + 4)]):
        return person
    return person + [(start, end)]


def _building_start(text: str, start: int, checks: ModelChecks) -> int:
    """Where an address starts when the model left out the building's name before it on its line
    ("Résidence Les Tilleuls, bât. C, | 3e étage, 5 rue …"): at that name, if the line (or a quoted
    field) starts with it and only comma-separated parts lie between it and the span."""
    lo = max(0, start - 240)  # bounded: a building's name is short, and the cost stays linear
    line_start = text.rfind("\n", lo, start) + 1
    if line_start == 0 and lo > 0:
        return start
    m = _PARTS_BEFORE.fullmatch(text, line_start, start)
    if m is None or m.group(1).split()[0].casefold().rstrip(".") not in checks.building_words:
        return start
    return m.start(1)


def _address_tail(text: str, start: int, end: int, checks: ModelChecks) -> int:
    """Where an address the model cut short ends: after the ")" of a region it opened and a postcode that
    follows ("Montréal (Québec" → "Montréal (Québec) H2J 2L3"), and after the town that follows its last
    postcode ("…27, 5004" → "…27, 5004 Bouge"), after the ZIP that follows a US state ("…OMAHA NE" →
    "…OMAHA NE 68114-3827")."""
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
    if _ENDS_WITH_POSTCODE.search(text, start, end):
        m = _TOWN_AFTER.match(text, end)
        words = m.group(1).casefold().split() if m is not None else []
        if words and (len(words) == 1 or words[0] in checks.name_particles) and \
                not any(w in checks.name_stop_words or w in checks.address_line_words for w in words[-1:]):
            end = m.end()
    return end


def _name_line_end(text: str, start: int, end: int, checks: ModelChecks) -> int | None:
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
    line_end = brk
    while line_end > start and text[line_end - 1] in " \t\r,;":
        line_end -= 1
    if not _is_name_line(text[start:line_end], checks):
        return None
    above_end = line_start
    while above_end > 0 and text[above_end - 1].isspace():
        above_end -= 1
    above = text[text.rfind("\n", 0, above_end) + 1:above_end].strip(_LINE_MARKS)
    if above and _is_name_line(above, checks):
        return None
    below = text[brk:end].lstrip().partition("\n")[0].strip(_LINE_MARKS)
    if not (below[:1].isdigit() or any(w.casefold().rstrip(".,") in checks.address_line_words for w in below.split())):
        return None  # the address itself starts on the next line: "583 Magrethevej 298", "Apt. 12, …"
    return line_end


def _is_name_line(line: str, checks: ModelChecks) -> bool:
    words = line.split()
    if not 2 <= len(words) <= 4 or words[0].casefold() in checks.name_particles:
        return False
    for i, word in enumerate(words):
        folded = word.casefold().rstrip(".")
        if folded in checks.address_line_words or (folded in checks.name_stop_words and folded not in
                                                   checks.name_particles and folded not in checks.person_lead_words):
            return False
        if not (_NAME_WORD.fullmatch(word) or (folded in checks.name_particles and i < len(words) - 1)):
            return False
    return True


def _identifier(text: str, start: int, end: int, checks: ModelChecks) -> list[Piece]:
    """Not a short code: 2-4 capitals ("BVN"), a word of 1-3 letters ("btw"), or 2-4 capitals and digits
    ("MG11", "V5C": a form's or a rule's name). A login of 4+ letters or with lower case stays."""
    value = "".join(c for c in text[start:end] if c.isalnum())
    letters = [c for c in value if c.isalpha()]
    if len(value) <= 3 and value.isalpha():
        return []
    if len(value) <= 4 and letters and all(c.isupper() for c in letters):
        return []
    return [(start, end)]


_NUMBERS = frozenset({"NATIONAL_ID", "IDENTIFIER", "PHONE", "CREDIT_CARD", "IBAN"})
_CHECKS: dict[str, Callable[[str, int, int, ModelChecks], list[Piece]]] = {
    "PERSON": _person, "URL": _url, "IDENTIFIER": _identifier, "ADDRESS": _address, "IP_ADDRESS": _ip,
    "CREDIT_CARD": _card, "IBAN": _iban, "BIRTH_DATE": _birth_date, "PHONE": _phone, "SECRET": _secret}
