"""Format checks: what a label's format rules out in the model's spans, the model cannot claim.

The token classifier reads context, not formats, so it sometimes labels a
version string IP_ADDRESS, a bcrypt hash SECRET or a 12-digit number
CREDIT_CARD. Each check below is a property of the label's format (an IPv4
part is at most 255, a card has 13-19 digits, a SECRET is no hash or
placeholder), with its regexes in the "model_checks" section of rules/common.json
and its word lists in rules/<lang>/language.json → "words" (docs/rules.md; compiled
in checks_data.py). Two checks hold
for every number label (`NUMBERS`): no value already masked ("4978XXXXXXXX2210")
and no sum of money. A number that fails its label's format stays masked, as an
IDENTIFIER or a PHONE: the engine fails closed. A model NATIONAL_ID that is a
valid SIRET is a company's number (`is_siret`).

Where the model's spans are cut, joined or relabelled is span_repair.py;
`check_model_spans` (resolve/__init__.py) runs both, in their order.
"""

from __future__ import annotations

import ipaddress

import regex
from stdnum.fr import siret

from ..detectors.keywords import is_possible_phone
from ..detectors.patterns import first_valid_number, is_person_url, is_switchboard
from ..spans import line_window_start
from ..validators import card
from .checks_data import Check, ModelChecks, Piece
from .suppressions import is_public_url, templated

_CARD = regex.compile(r"\d(?:[ \-]?\d){12,18}")
_IBAN = regex.compile(r"(?i:[a-z]{2}\d{2}(?:[ \-]?[a-z0-9]){10,32})")
_SEPA_CREDITOR = regex.compile(r"(?i:[a-z]{2}\d{2}[ ]?zzz)")
_NUMBER = regex.compile(r"\d+")
# From the first to the last word with a digit.
_DIGIT_WORDS = regex.compile(r"[^\s]*\d[^\s]*(?:\s+[^\s]*\d[^\s]*)*")
_WORD_PIECE = regex.compile(r"\p{Lu}*\p{Ll}*|[.\-]")
_KEY_VALUE = regex.compile(r"[\p{L}_]+=\S*")
_TOKEN_STOP = " \t\r\n\"'`<>();[]{}"
# A value already masked ("4978XXXXXXXX2210", "***4418"): a partial value is no value (LABELS.md).
MASKED = regex.compile(r"(?i:(?<=\d)x{3,}|x{3,}(?=\d))|\*{3,}|•{3,}")
# The end of a masked value's mask, before the digits it shows: "•••• •••• •••• 2210", "***-**-3386"
MASKED_BEFORE = regex.compile(r"(?:(?i:x{3,})|\*{2,}|•{2,})[ \-]?\Z")
# Where a URL ends: a space, a quote, a bracket
_URL_STOP = frozenset(" \t\r\n\"'<>{}|\\^`[],;")  # and a comma or a semicolon: a CSV's next cell
# A host's last label: a top-level domain, 2 to 6 lower-case letters ("fr", "com", "online")
_HOST_END = regex.compile(r"\.[a-z]{2,6}\.?(?::\d+)?\Z")
# A time of day after a date: the date is a timestamp's ("02/02/2025 21:14", "2025-02-02T21:14:05").
_CLOCK_AFTER = regex.compile(r"(?:[ \t]+(?:à[ \t]+|at[ \t]+)?|T)\d{1,2}[:h]\d{2}(?!\d)")
# A keypad's code then its enter key: "3741#", "4B62*".
_KEYPAD_CODE = regex.compile(r"[0-9A-D]{3,8}[#*]")
# A keypad's code or device before it: a code, a PIN, a door, a gate, an alarm ("gate code: 3741#"); a password's
# last "#" is of it ("wifi password: 55120934#").
_KEYPAD_WORD_BEFORE = regex.compile(r"(?<![\p{L}])(?i:code|pin|door|gate|alarm|keypad|padlock|lockbox|key ?safe|key ?box|entry|building"
                                    r"|digicode|porte|portail|portillon|alarme|cadenas|bo[iî]te [aà] cl[ée]f?s?|interphone|immeuble)"
                                    r"(?![\p{L}])")
# A Wi-Fi network's name, not its password: after a word that names the network ("le réseau c'est X",
# "the wifi is called X", "network X, pw …"), or on a Wi-Fi line right before its password's word ("le wifi
# c'est X, mdp …", "wifi's X and the password is …").
_NETWORK_NAMED_BEFORE = regex.compile(r"(?<![\p{L}])(?i:r[ée]seau|network|SSID|s['’]appelle|is called|called|named)"
                                      r"(?:[ \t]+(?i:wifi|wi-fi|name|est|is|c['’]est|still|now|toujours|maintenant))*"
                                      r"[ \t]*[:=]?[ \t]*\Z")
# A password's word, then words only up to the network's: "password for the home network", "clé WPA du réseau".
_PASSWORD_OF_THE_NETWORK = regex.compile(r"(?<![\p{L}])(?i:pass(?:word|wd|phrase)?|mot de passe|mdp|pwd|pw|key|cl[ée]"
                                         r"|wpa)(?![\p{L}])[\p{L}'’ \t]*\Z")
_WIFI_BEFORE = regex.compile(r"(?<![\p{L}])(?i:wifi|wi-fi|r[ée]seau|network|SSID)(?![\p{L}])")
_PASSWORD_WORD_AFTER = regex.compile(r"[ \t]*[,;/(\-–]?[ \t]*(?:(?i:and|et|avec|with)[ \t]+)?"
                                     r"(?:(?i:the|its|le|la|son|sa)[ \t]+)?"
                                     r"(?i:mdp|pw|pwd|pass|password|mot de passe|cl[ée]|key)(?![\p{L}])"
                                     r"(?![ \t]*\))")  # "wifi : X (mot de passe)": the word labels X
# A French pupil's or student's national identifier (INE): "081245377QF", "1234567890A".
_INE = regex.compile(r"\d{9}[A-Z]{2}|\d{10}[A-Z]")
# A decimal number ("5172094.386", a kernel log's clock): no phone.
_DECIMAL = regex.compile(r"\d+\.\d+")
# A sum of money ("6,903.10", "2 310,45"): never an identity number or a phone.
AMOUNT = regex.compile(r"\d{1,3}(?:[ ,.\u202f]\d{3})*[.,]\d{2}")


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
    """At least 5 digits and no decimal number: "+0000" (a log's time zone) and "[5172094.386]" (a kernel's
    clock) are not phone numbers; a toll-free number written as
    such ("0800 …", "1-800-…") and a switchboard's round landline ("0117 496 0000") are a company's line, as the
    rules decide for their own finds."""
    if sum(c.isdigit() for c in text[start:end]) < 5 or _DECIMAL.fullmatch(text, start, end):
        return []
    if _company_line(text, start, end, checks) or (
            checks.patterns is not None and is_switchboard(first_valid_number(text[start:end], checks.patterns.phone_regions))):
        return []
    return [(start, end)]


def _email(text: str, start: int, end: int, checks: ModelChecks) -> list[Piece]:
    """No mail server's name ("mx.example.org", "mail-oi1-f181.google.com" in a Received header): a host name
    without "@" whose first label is a mail server's. An address written without its "@" ("jdoe at example
    dot org") stays. An address ends at its domain: a path's "/" after it is not of it ("…/user/jdoe@example.org/")."""
    if _MAIL_HOST.fullmatch(text, start, end):
        return []
    while end > start + 1 and "@" in text[start:end - 1] and text[end - 1] in "/.,;:)>":
        end -= 1
    return [(start, end)]


_SPACE = regex.compile(r"\s")
# A calendar date ("15/09/2026", "2026-11-30"): no one's code.
_DATE = regex.compile(r"(?:0?[1-9]|[12]\d|3[01])[/.](?:0?[1-9]|1[0-2])[/.](?:19|20)\d{2}|(?:19|20)\d{2}-(?:0[1-9]|1[0-2])-(?:0[1-9]|[12]\d|3[01])")
_SECRET_WORD_BEFORE = regex.compile(r"(?<![\p{L}])(?i:pass(?:word|wd|phrase)?|mot de passe|mdp|pwd|pw|pin|code|secret|cl[ée])(?![\p{L}])")
_MAIL_HOST = regex.compile(r"(?i:(?:mx|mail|smtp|smtps|relay|imap|pop3?|mta|mailer)(?:[\d\-][\w\-]*)?(?:\.[a-z0-9\-]+)+)")


def _company_line(text: str, start: int, end: int, checks: ModelChecks) -> bool:
    return checks.patterns is not None and checks.patterns.phone_company_line.fullmatch(text, start, end) is not None


def _example(text: str, start: int, end: int, checks: ModelChecks) -> bool:
    """An example written where a code goes ("sk_test_YOUR_KEY", "CUST-EXAMPLE-01"): no one's."""
    return checks.example_value is not None and checks.example_value.fullmatch(text, start, end) is not None


def _national_id(text: str, start: int, end: int, checks: ModelChecks) -> list[Piece]:
    """Five letters and digits at least, a digit among them or letters all in capitals (a French ID card's
    nine characters may hold no digit), and no company's line: "10^9/L", a lab result's unit, is none, and
    neither is a word ("Passport"). A driving licence's issuing state before its number is not of it
    ("Driver licence: QLD | 4471 2290": `licence_state`). A French student's INE (9 digits and 2 letters, or 10
    digits and a letter) is an IDENTIFIER, and so is a code after a word naming a person's record on its
    line with no national document's word after it (`identifier_named_before`)."""
    state = checks.licence_state.match(text, start, end) if checks.licence_state is not None else None
    if state is not None:
        start = state.end()
    value = [c for c in text[start:end] if c.isalnum()]
    if len(value) < 5 or not (any(c.isdigit() for c in value) or all(c.isupper() for c in value)) \
            or _example(text, start, end, checks):
        return []
    if _INE.fullmatch(text, start, end):
        return [(start, end, "IDENTIFIER")]  # a pupil's or student's INE is a school's record, no state's ID
    pieces = _no_company_line(text, start, end, checks)
    if pieces and checks.identifier_named_before is not None and checks.identifier_named_before.search(
            text, line_window_start(text, start, _LINE_LOOK_BACK), start):
        return [(start, end, "IDENTIFIER")]  # "the staff number for the permit is …": a record's code
    return pieces


def _no_company_line(text: str, start: int, end: int, checks: ModelChecks) -> list[Piece]:
    """The NATIONAL_ID check, and the IDENTIFIER's last: a toll-free or shared-cost number written as one
    ("0 800 343 150", "1-800-045-1961") is a company's line, not a person's number: the model takes some
    for IDs. Digits alone ("8000136402") are an ID."""
    written_as_phone = any(not c.isalnum() for c in text[start:end])
    return [] if written_as_phone and _company_line(text, start, end, checks) else [(start, end)]


def _secret(text: str, start: int, end: int, checks: ModelChecks) -> list[Piece]:
    """Not 3 letters or fewer, not a hash or a placeholder (judged on the whole token around the span:
    "$argon2id$v=19…" is cut in pieces by the model), not a plain word ("NSInvalidArgumentException", "issued") and not a
    log's key=value ("attempts=3"). A quoted secret is the whole quoted token: '"tulip_2024!"' when the
    model stopped before the "!" (not a quoted "KEY=value")."""
    value = text[start:end]
    if len(value.strip("-_.:/")) < 4 and not any(c.isdigit() for c in value):  # "sk-" alone, "CB": no credential
        return []
    if _DATE.fullmatch(value) and (_CLOCK_AFTER.match(text, end) or
                                   not _SECRET_WORD_BEFORE.search(text, max(0, start - 40), start)):
        return []  # a chat's or a log's timestamp ("Yvain_du_29 — 14/03/2026 20:05"); after "password" a date may be one
    if _KEYPAD_CODE.fullmatch(value) and _KEYPAD_WORD_BEFORE.search(text, line_window_start(text, start, 40), start):
        end -= 1  # a keypad's enter key after a door's or an alarm's code ("gate code: 3741#") is none of it
        value = text[start:end]
    if _network_name(text, start, end):
        return []
    lo, hi = start, end
    while lo > 0 and text[lo - 1] not in _TOKEN_STOP:
        lo -= 1
    while hi < len(text) and text[hi] not in _TOKEN_STOP:
        hi += 1
    if checks.secret_not is not None and (checks.secret_not.fullmatch(value) or
                                          checks.secret_not.fullmatch(text, lo, hi)) or templated(text, start, end):
        return []
    if _is_words(value) or _KEY_VALUE.fullmatch(value):
        return []
    if lo > 0 and text[lo - 1] in "\"'`" and text.startswith(text[lo - 1], hi) and \
            not any(c in "=:" for c in text[lo:start] + text[end:hi]):
        return [(lo, hi)]
    return [(start, end)]


def _network_name(text: str, start: int, end: int) -> bool:
    """A Wi-Fi network's name, where its line names it so or writes its password after it; not a
    password whose words name the network ("password for the home network: …").

    >>> text = "le réseau c'est Box-4F2A, mdp Vent2Sable!"
    >>> _network_name(text, 16, 24), _network_name(text, 30, len(text))
    (True, False)
    >>> text = "password for the home network: Vent2Sable!"
    >>> _network_name(text, 31, len(text))
    False
    """
    line_start = line_window_start(text, start, 60)
    named = _NETWORK_NAMED_BEFORE.search(text, line_start, start)
    if named is not None:
        return not _PASSWORD_OF_THE_NETWORK.search(text, line_start, named.start())
    wifi_end = max((m.end() for m in _WIFI_BEFORE.finditer(text, line_start, start)), default=None)
    return wifi_end is not None and _PASSWORD_WORD_AFTER.match(text, end) is not None and \
        not _SECRET_WORD_BEFORE.search(text, wifi_end, start)


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
    """The whole URL where the model stopped short of its end ("…?pnr=QX7T4M" of "…&surname=…"). Not a
    file path ("a/src/app.py": no scheme, no "www.", no dot before the first "/"), not a dotted
    name without a top-level domain ("f.l.commande", a logger's), not a bare host without a scheme or "www."
    ("box.orange.fr": a server) unless the URL rules call it a person's ("jdupont.github.io"), not a public
    page the URL rules know (documentation, a code host's project), not a page every organisation's site
    has ("/mon-compte", "/fr/panier", "/mentions-legales": a segment of `organisation_paths`) nor a service's host ("smtp.…", "docs.…") unless
    something in it points at a person. A URL ends at a space or a line break (the model's may run onto the
    next line's handle: "…/bijoux⏎@ysé_b")."""
    space = _SPACE.search(text, start, end)
    if space is not None:
        end = space.start()
    if "://" in text[start:end] or text.startswith("www.", start):  # the whole URL, where the model stopped short
        while end < len(text) and text[end] not in _URL_STOP:
            end += 1
        while text[end - 1] in ".,;:!?)":
            end -= 1
    value = text[start:end]
    if "://" not in value and not value.lower().startswith("www.") and "." not in value.split("/", 1)[0]:
        return []
    bare = "://" not in value and not value.lower().startswith("www.")
    if bare and not _HOST_END.search(value.split("/", 1)[0].split("@")[-1]):
        return []  # "f.l.commande", "client.AdresseValidator": a logger's or a class's name, no host
    if checks.patterns is None:
        return [(start, end)]
    if bare and "/" not in value and "@" not in value and not is_person_url(value, checks.patterns):
        return []  # a bare host ("box.orange.fr", "cloud.atelier.fr"): a server, no page of a person
    if is_public_url(value, checks.patterns):
        return []
    authority, _, path = value.split("://", 1)[-1].partition("/")
    segments = regex.split(r"/", regex.split(r"[?#]", path, maxsplit=1)[0].lower())
    if any(segment in checks.patterns.organisation_paths for segment in segments) and \
            not is_person_url(value, checks.patterns):
        return []  # "https://www.velo-shop.fr/mon-compte", "…/fr/panier": a page of an organisation's site
    host = authority.split(":", 1)[0].lower().removeprefix("www.")
    if checks.service_hosts is not None and "." in host and \
            checks.service_hosts.fullmatch(host.split(".", 1)[0]) and not is_person_url(value, checks.patterns):
        return []
    return [(start, end)]


def _identifier(text: str, start: int, end: int, checks: ModelChecks) -> list[Piece]:
    """Not a date or an example (`_example`), nor a short code: 2-4 capitals ("BVN"), a word of 1-3 letters ("btw"), or 2-4 capitals and digits
    ("MG11", "V5C": a form's or a rule's name), nor a company's line (`_no_company_line`), nor a brand's name
    in lower case ("from tesco?": `brand_names`), nor a server's name ("lux-db-02": `machine_name`). A login of 4+ letters or with lower case stays. A path's
    slash before or after it is none of it ("MBR-5530127/" of "/members/MBR-5530127/cards"). A code after a
    secret's word is a SECRET (`_secret_named_before`)."""
    while end > start and text[end - 1] == "/":
        end -= 1
    while start < end and text[start] == "/":
        start += 1
    if _DATE.fullmatch(text[start:end].strip("()[] ")) or _example(text, start, end, checks):
        return []
    value = "".join(c for c in text[start:end] if c.isalnum())
    letters = [c for c in value if c.isalpha()]
    if len(value) <= 3 and value.isalpha():
        return []
    if len(value) <= 4 and letters and all(c.isupper() for c in letters):
        return []
    if text[start:end].islower() and text[start:end].casefold() in checks.lexicon.brand_names:
        return []  # "anyone want anything from tesco?", "grafana is still admin": a service, no one's login
    if _machine_name(text, start, end, checks):
        return []  # "réplique sur lux-db-02", "host mx1 said": a server's name
    pieces = _no_company_line(text, start, end, checks)
    if pieces and (_secret_named_before(text, start, checks) or _password_after_login(text, start, end, checks)):
        return [(a, b, "SECRET") if checks.secret_not is None or not checks.secret_not.fullmatch(text, a, b)
                else (a, b) for a, b, *_ in pieces]
    return pieces


_LINE_LOOK_BACK = 80  # characters of its line read around a model span for what names it (a secret, a record, a host)
_IPV4 = regex.compile(r"(?<![\d.])\d{1,3}(?:\.\d{1,3}){3}(?![\d.])")


def _machine_name(text: str, start: int, end: int, checks: ModelChecks) -> bool:
    """A server's name, as its line says: the name's shape (`machine_name`: "lux-db-02", "mx1") and a host's
    or a server's word before it (`machine_context`: "Host: ", "réplique sur ") or an IP address on its
    line. A name of that shape elsewhere may be a person's login ("my handle is node7")."""
    if checks.machine_name is None or not checks.machine_name.fullmatch(text, start, end):
        return False
    lead = line_window_start(text, start, _LINE_LOOK_BACK)
    if checks.machine_context is not None and checks.machine_context.search(text, lead, start):
        return True
    line_end = text.find("\n", end, end + _LINE_LOOK_BACK)
    return _IPV4.search(text, lead, line_end if line_end != -1 else min(len(text), end + _LINE_LOOK_BACK)) is not None


def _secret_named_before(text: str, start: int, checks: ModelChecks) -> bool:
    """The last credential word before `start` on its line names a secret ("my memorable word, ", "no
    password; the staff one is "), and no login, number or person comes after it (`secret_named_before`):
    the model's code there is a SECRET (a hash or a placeholder, `secret_not`, keeps its label)."""
    if checks.secret_named_before is None:
        return False
    return checks.secret_named_before.search(text, line_window_start(text, start, _LINE_LOOK_BACK), start) is not None


def _password_after_login(text: str, start: int, end: int, checks: ModelChecks) -> bool:
    """A login or an e-mail address, then " / ", then a code that reads like a password: 6 characters
    or more, a small letter, and a digit or a symbol ("admin / Tr0ub4dor-9", not "jdupont / EMP-4471",
    a staff number, nor "ana@mail.fr / anadupont", a second login) (`secret_after_login`).

    >>> checks = ModelChecks(secret_after_login=regex.compile(r"[a-z]+[ ]/[ ]\\Z"))
    >>> [_password_after_login(t, 8, len(t), checks) for t in ("admin / Tr0ub4dor-9", "admin / EMP-4471")]
    [True, False]
    """
    value = text[start:end]
    if checks.secret_after_login is None or len(value) < 6 or not any(c.islower() for c in value) or \
            not any(c.isdigit() or not c.isalnum() for c in value):
        return False
    return checks.secret_after_login.search(text, line_window_start(text, start, _LINE_LOOK_BACK), start) is not None


def is_siret(value: str) -> bool:
    """14 digits that pass the SIRET check and are no payment card: a company's number, which
    LABELS.md keeps out of NATIONAL_ID (the model, without context, takes them for IDs). A
    model CREDIT_CARD span is kept even then: some real 14-digit cards pass the check too."""
    digits = "".join(c for c in value if c.isdigit())
    return (len(digits) == 14 and len(digits) == sum(c.isalnum() for c in value)
            and siret.is_valid(digits) and not card.is_valid(digits))


NUMBERS = frozenset({"NATIONAL_ID", "IDENTIFIER", "PHONE", "CREDIT_CARD", "IBAN"})
# The format check of each label that has one.
FORMAT_CHECKS: dict[str, Check] = {
    "URL": _url, "IDENTIFIER": _identifier, "IP_ADDRESS": _ip, "CREDIT_CARD": _card, "IBAN": _iban,
    "BIRTH_DATE": _birth_date, "PHONE": _phone, "SECRET": _secret, "NATIONAL_ID": _national_id, "EMAIL": _email}
