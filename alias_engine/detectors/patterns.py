"""Pattern detectors: EMAIL, PHONE, IP_ADDRESS, URL (of a person) and SECRET formats.

Every regex and word list comes from the "email", "phone", "ip", "url" and
"secret" sections of rules/common.json (schema in docs/rules.md); this module
holds only the logic that a regex cannot express (phone metadata, IP parsing,
URL classification).
"""

from __future__ import annotations

import ipaddress
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cached_property, lru_cache
from typing import TypeGuard
from urllib.parse import parse_qsl, unquote, urlsplit

import phonenumbers
import regex

from ..spans import Span

# Characters never part of a URL's end: "see https://x.org/a." ends before the dot.
_URL_TRAILING = ".,;:!?'\")]}>*"
NEVER = regex.compile("(?!)")  # a reject that rejects nothing


@dataclass(frozen=True)
class PatternRules:
    email: regex.Pattern
    email_score: float
    phone_window: regex.Pattern                      # one named group per kind of window
    phone_window_regions: dict[str, tuple[str, ...]]  # window kind -> regions to try
    phone_region_order: dict[str, tuple[str, ...]]    # lang -> preferred order of regions
    phone_valid_score: float
    phone_possible_score: float
    phone_possible_shapes: tuple[regex.Pattern, ...]
    phone_company_line: regex.Pattern                # toll-free and shared-cost formats, even when invalid
    phone_digits_only: regex.Pattern                 # a NANP number as bare digits: a phone other readings outrank
    ipv4: regex.Pattern
    ipv6: regex.Pattern
    ip_version_before: regex.Pattern
    ip_version_after: regex.Pattern
    ip_score: float
    url: regex.Pattern
    url_score: float
    public_hosts: frozenset[str]
    social_hosts: frozenset[str]
    social_generic_paths: frozenset[str]
    profile_only_hosts: frozenset[str]
    file_share_hosts: frozenset[str]
    personal_page_hosts: frozenset[str]
    personal_host_suffixes: tuple[str, ...]
    person_path: regex.Pattern
    person_query_keys: frozenset[str]
    secret_formats: tuple[tuple[str, regex.Pattern], ...]
    secret_reject: regex.Pattern
    secret_score: float
    system_account: regex.Pattern = NEVER  # "root", "admin": no person's login
    secret_reference: regex.Pattern = NEVER  # "${DB_PASSWORD}": a password kept elsewhere
    organisation_paths: frozenset[str] = frozenset()  # "mon-compte", "upload": pages of an organisation's site

    @cached_property
    def phone_regions(self) -> tuple[str, ...]:
        """Every language's regions, each once, in the languages' order: where a number of a text whose
        language is not known is read."""
        return tuple(dict.fromkeys(region for regions in self.phone_region_order.values() for region in regions))


def phrases(words: Iterable[str]) -> str:
    """A regex alternation of words and phrases (a space in a phrase is any run of spaces), longest first;
    one that matches nothing when there are none."""
    ordered = sorted(words, key=lambda w: (-len(w), w))
    return "|".join(r"\s+".join(map(regex.escape, w.split())) for w in ordered) or "(?!)"


def compile_pattern(pattern: str, where: str) -> regex.Pattern:
    """Compile one rules regex; a bad one raises ValueError naming where it is."""
    if not isinstance(pattern, str):
        raise ValueError(f"{where}: a regex must be a string")
    try:
        return regex.compile(pattern)
    except regex.error as exc:
        raise ValueError(f"{where}: invalid regex: {exc}") from None


def load_pattern_rules(common: dict, secret_reject: regex.Pattern, system_account: regex.Pattern = NEVER,
                       secret_reference: regex.Pattern = NEVER) -> PatternRules:
    """Compile the pattern sections of common.json; KeyError/ValueError/TypeError on a bad file."""
    email, phone, ip, url, secret = (common[k] for k in ("email", "phone", "ip", "url", "secret"))
    return PatternRules(
        email=compile_pattern(email["pattern"], "email.pattern"),
        email_score=float(email["score"]),
        phone_window=compile_pattern("|".join(f"(?P<{kind}>{w['pattern']})" for kind, w in phone["windows"].items()),
                                     "phone.windows"),
        phone_window_regions={kind: tuple(w["regions"]) for kind, w in phone["windows"].items()},
        phone_region_order={lang: tuple(regions) for lang, regions in phone["region_order"].items()},
        phone_company_line=compile_pattern(phone["company_line"], "phone.company_line"),
        phone_digits_only=compile_pattern(phone["digits_only"]["pattern"], "phone.digits_only.pattern"),
        phone_valid_score=float(phone["valid_score"]),
        phone_possible_score=float(phone["possible_score"]),
        phone_possible_shapes=tuple(compile_pattern(p, "phone.possible_shapes")
                                    for p in phone["possible_shapes"]),
        ipv4=compile_pattern(ip["ipv4"], "ip.ipv4"),
        ipv6=compile_pattern(ip["ipv6"], "ip.ipv6"),
        ip_version_before=compile_pattern(ip["version_before"], "ip.version_before"),
        ip_version_after=compile_pattern(ip["version_after"], "ip.version_after"),
        ip_score=float(ip["score"]),
        url=compile_pattern(url["pattern"], "url.pattern"),
        url_score=float(url["score"]),
        public_hosts=frozenset(h.lower() for h in url["public_hosts"]),
        social_hosts=frozenset(h.lower() for h in url["social_hosts"]),
        social_generic_paths=frozenset(p.lower() for p in url["social_generic_paths"]),
        profile_only_hosts=frozenset(h.lower() for h in url["profile_only_hosts"]),
        file_share_hosts=frozenset(h.lower() for h in url["file_share_hosts"]),
        personal_page_hosts=frozenset(h.lower() for h in url.get("personal_page_hosts", ())),
        personal_host_suffixes=tuple(h.lower() for h in url["personal_host_suffixes"]),
        person_path=compile_pattern(url["person_path"], "url.person_path"),
        person_query_keys=frozenset(k.lower() for k in url["person_query_keys"]),
        organisation_paths=frozenset(p.lower() for p in url.get("organisation_paths", [])),
        secret_formats=tuple((f["name"], compile_pattern(f["pattern"], f"secret.formats.{f['name']}"))
                             for f in secret["formats"]),
        secret_reject=secret_reject,
        secret_score=float(secret["score"]),
        system_account=system_account,
        secret_reference=secret_reference,
    )


def find_patterns(text: str, lang: str, rules: PatternRules) -> list[Span]:
    """Candidates of every pattern detector in `text` (possibly overlapping)."""
    return [*find_emails(text, rules), *find_phones(text, lang, rules), *find_ips(text, rules),
            *find_urls(text, rules), *find_secrets(text, rules)]


# --- EMAIL -------------------------------------------------------------------

def find_emails(text: str, rules: PatternRules) -> list[Span]:
    spans = []
    for m in rules.email.finditer(text):
        local, _, domain = m.group().rpartition("@")
        if len(local) <= 64 and len(m.group()) <= 254 and all(len(label) <= 63 for label in domain.split(".")):
            spans.append(Span(m.start(), m.end(), "EMAIL", rules.email_score, "validator"))
    return spans


# --- PHONE -------------------------------------------------------------------
# The matcher is slow, so it only runs on windows that a cheap regex finds: an
# international number (+CC or 00CC), a national number with a trunk 0 (FR, GB)
# or a NANP number (US), each tried only in the regions its kind names.
# Leniency: a match that phonenumbers calls valid (an allocated range) is a
# "validator" span. A match that is only POSSIBLE (right length, not in an
# allocated range: fictional 07700 900xxx, new ranges, a typo) is kept as a
# "pattern" span only when its written form has one of the national shapes of
# the rules ("0" + 9 digits in pairs, a UK trunk format, NANP (NXX) NXX-XXXX,
# a +CC prefix): POSSIBLE alone also accepts invoice numbers such as 2024-00123.
# Numbers the matcher rejects outright are left to the phone keyword rules.

# Toll-free, shared-cost, premium-rate and organisations' access numbers (the UK's 03) are company lines,
# never a person's (after a phone keyword, resolve/suppressions.py's is_company_line counts toll-free only).
_COMPANY_LINES = frozenset({phonenumbers.PhoneNumberType.TOLL_FREE, phonenumbers.PhoneNumberType.SHARED_COST,
                            phonenumbers.PhoneNumberType.PREMIUM_RATE, phonenumbers.PhoneNumberType.UAN})
_LANDLINES = frozenset({phonenumbers.PhoneNumberType.FIXED_LINE, phonenumbers.PhoneNumberType.FIXED_LINE_OR_MOBILE})


def is_switchboard(number: phonenumbers.PhoneNumber | None) -> bool:
    """A valid landline whose last three digits are 000 ("0117 496 0000", "01 45 21 60 00"): an organisation
    picks a round number for its switchboard, which LABELS.md keeps out of PHONE; one person's landline in a
    thousand ends so. Mobiles never count.

    >>> is_switchboard(phonenumbers.parse("01 45 21 60 00", "FR")), is_switchboard(phonenumbers.parse("01 45 21 60 01", "FR"))
    (True, False)
    >>> is_switchboard(phonenumbers.parse("06 12 34 50 00", "FR"))
    False
    """
    return number is not None and str(number.national_number).endswith("000") \
        and phonenumbers.is_valid_number(number) and phonenumbers.number_type(number) in _LANDLINES


def first_valid_number(value: str, regions: Iterable[str | None]) -> phonenumbers.PhoneNumber | None:
    """`value` read in the first of `regions` where it is a valid number, or None (a region None: `value`
    written with its country code).

    >>> [is_switchboard(first_valid_number(v, ("FR", "GB"))) for v in ("0117 496 0000", "0117 496 0231")]
    [True, False]
    """
    for region in regions:
        try:
            number = phonenumbers.parse(value, region)
        except phonenumbers.NumberParseException:
            continue
        if phonenumbers.is_valid_number(number):
            return number
    return None


def find_phones(text: str, lang: str, rules: PatternRules) -> list[Span]:
    order = rules.phone_region_order.get(lang) or next(iter(rules.phone_region_order.values()))
    spans: list[Span] = []
    for window in rules.phone_window.finditer(text):
        regions = rules.phone_window_regions[window.lastgroup]
        regions = tuple(sorted(regions, key=lambda r: order.index(r) if r in order else len(order)))
        # A little context on each side lets the matcher reject numbers glued to words.
        lo, hi = max(0, window.start() - 2), min(len(text), window.end() + 2)
        for start, end, valid in _match_phones(text[lo:hi], regions, rules.phone_possible_shapes):
            if lo + start < window.start() - 1 or lo + end > window.end() + 1:
                continue  # the matcher reached into the context: "57.05.28-480.09" is not "7.05.28-480.09"
            if rules.phone_company_line.fullmatch(text, lo + start, lo + end):
                continue
            if window.lastgroup == "nanp" and rules.phone_digits_only.fullmatch(text, lo + start, lo + end):
                spans.append(Span(lo + start, lo + end, "PHONE", rules.phone_valid_score, "pattern"))
            elif valid:
                spans.append(Span(lo + start, lo + end, "PHONE", rules.phone_valid_score, "validator"))
            else:
                spans.append(Span(lo + start, lo + end, "PHONE", rules.phone_possible_score, "pattern"))
    return spans


@lru_cache(maxsize=4096)
def _match_phones(chunk: str, regions: tuple[str, ...],
                  shapes: tuple[regex.Pattern, ...]) -> tuple[tuple[int, int, bool], ...]:
    """Non-overlapping (start, end, valid) numbers in `chunk`: valid first, then longest, then region order.
    A company's line valid in one region is no possible-only number of another."""
    found, company_lines = [], []
    for rank, region in enumerate(regions):
        for match in phonenumbers.PhoneNumberMatcher(chunk, region, leniency=phonenumbers.Leniency.POSSIBLE):
            start, end = _balanced(chunk, match.start, match.end)
            valid = phonenumbers.is_valid_number(match.number)
            if valid and (phonenumbers.number_type(match.number) in _COMPANY_LINES or is_switchboard(match.number)):
                company_lines.append((start, end))
            elif valid or any(p.fullmatch(chunk[start:end]) for p in shapes):
                found.append((not valid, -(end - start), rank, start, end, valid))
    kept: list[tuple[int, int, bool]] = []
    for *_, start, end, valid in sorted(found):
        if not any(s < end and start < e for s, e, _ in kept) \
                and (valid or not any(s < end and start < e for s, e in company_lines)):
            kept.append((start, end, valid))
    return tuple(sorted(kept))


def _balanced(text: str, start: int, end: int) -> tuple[int, int]:
    """Drop an unmatched "(" at the start or ")" at the end, and the spaces inside it: "(+44 7429 625261)",
    "( 06 12 34 56 78" → the number."""
    value = text[start:end]
    if value.startswith("(") and value.count("(") > value.count(")"):
        start += 1
    elif value.endswith(")") and value.count(")") > value.count("("):
        end -= 1
    while start < end and text[start].isspace():
        start += 1
    while end > start and text[end - 1].isspace():
        end -= 1
    return start, end


# --- IP_ADDRESS --------------------------------------------------------------

def _is_version(text: str, start: int, end: int, rules: PatternRules) -> bool:
    before = text[max(0, start - 24):start]
    after = text[end:end + 16]
    return bool(rules.ip_version_before.search(before) or rules.ip_version_after.search(after))


def find_ips(text: str, rules: PatternRules) -> list[Span]:
    spans = []
    for m in rules.ipv4.finditer(text):
        if not _is_version(text, m.start(), m.end(), rules):
            spans.append(Span(m.start(), m.end(), "IP_ADDRESS", rules.ip_score, "validator"))
    for m in rules.ipv6.finditer(text):
        value = m.group().rstrip(".")
        end = m.start() + len(value)
        try:
            address = ipaddress.IPv6Address(value)
        except ValueError:
            continue
        groups = [g for g in value.split(":") if g]
        if address.is_unspecified or (len(groups) < 3 and not any(c.isdigit() for c in value)):
            continue
        if not _is_version(text, m.start(), end, rules):
            spans.append(Span(m.start(), end, "IP_ADDRESS", rules.ip_score, "validator"))
    return spans


# --- URL ---------------------------------------------------------------------

_PAIRS = {")": "(", "]": "[", "}": "{"}


def _trim_url(url: str) -> str:
    counts = {ch: url.count(ch) for ch in "()[]{}"}
    while url and url[-1] in _URL_TRAILING:
        closer = url[-1]
        opener = _PAIRS.get(closer)
        if opener and counts[opener] >= counts[closer]:
            break
        if closer in counts:
            counts[closer] -= 1
        url = url[:-1]
    return url


def host_in(host: str, hosts: frozenset[str]) -> bool:
    """`host` or one of its parent domains (at most 5 labels, as in the lists) is in `hosts`."""
    parts = host.split(".")
    return any(".".join(parts[i:]) in hosts for i in range(max(0, len(parts) - 5), len(parts) - 1))


def is_person_url(url: str, rules: PatternRules) -> bool:
    """True when `url` points at a person: profile, personal site, file share, e-mail or token in it."""
    try:
        parts = urlsplit(url if "://" in url else "http://" + url)
        host = (parts.hostname or "").lower()
    except ValueError:
        return False
    if not host or len(host) > 253:  # not a DNS name
        return False
    if parts.username:
        return True
    query = parse_qsl(parts.query, keep_blank_values=True) + parse_qsl(parts.fragment, keep_blank_values=True)
    for key, value in query:
        if (key.lower() in rules.person_query_keys and value) or "@" in unquote(value) or _is_token(value):
            return True
    if _AT_IN_PATH.search(unquote(parts.path)):  # an address or a handle, not a package's "@5.3.3"
        return True
    if any(_is_path_token(segment) for segment in parts.path.split("/")):
        return True
    path = parts.path
    if rules.person_path.search(path):
        return True
    if host_in(host, rules.public_hosts):
        return False
    segments = [seg for seg in path.split("/") if seg]
    first = segments[0].lower() if segments else ""
    if host_in(host, rules.social_hosts):
        if len(segments) > 1 and host_in(host, rules.profile_only_hosts):
            return False  # github.com/org/repo/issues is a project, github.com/jdupont a person
        return first not in rules.social_generic_paths
    if host_in(host, rules.file_share_hosts) or host_in(host, rules.personal_page_hosts):
        return bool(first)
    host = host.removeprefix("www.")
    return any(host.endswith("." + s) for s in rules.personal_host_suffixes)


def _is_token(value: str) -> bool:
    """16+ letters and digits, both: an access token or a signed key in a query ("?k=Zm9v…")."""
    return len(value) >= 16 and value.isascii() and any(c.isdigit() for c in value) and \
        any(c.isalpha() for c in value) and all(c.isalnum() or c in "-_=.%" for c in value)


_AT_IN_PATH = regex.compile(r"[^/]@(?!sha\d)\p{L}")  # not an image's digest: "billing-api:3.0.2@sha256:…"


def _is_path_token(segment: str) -> bool:
    """16+ letters and digits, upper and lower case mixed: a signed link's token in a path
    ("/receipts/payment/CAcaFwoVYWNj…"); not a file's name with its hash ("main.8f3a2b1c9d4e5f6a.js")
    nor a commit's hexadecimal id, in one case."""
    return len(segment) >= 16 and segment.isascii() and all(c.isalnum() or c in "-_" for c in segment) and \
        any(c.isdigit() for c in segment) and any(c.isupper() for c in segment) and any(c.islower() for c in segment)


def find_urls(text: str, rules: PatternRules) -> list[Span]:
    """URLs that point at a person (`is_person_url`). A URL that carries a user name and a password that
    the secret rules mask (`https://jdoe:TOKEN@git.example.org/…`, `_masked_credentials`) is a connection
    string: its user and password are those rules' spans (`find_secrets`), and the URL's span, if the rest
    points at a person, starts after them. Credentials those rules would not mask (an example's password,
    one too long for them) leave the whole URL one span, as any URL with a user name is."""
    spans = []
    for m in rules.url.finditer(text):
        url = _trim_url(m.group())
        credentials = _URL_CREDENTIALS.match(url)
        if credentials and _masked_credentials(credentials, rules):
            rest = url[:credentials.end("scheme")] + url[credentials.end():]
            if is_person_url(rest, rules):
                spans.append(Span(m.start() + credentials.end(), m.start() + len(url), "URL", rules.url_score, "pattern"))
        elif url and is_person_url(url, rules):
            spans.append(Span(m.start(), m.start() + len(url), "URL", rules.url_score, "pattern"))
    return spans


# scheme://user:password@host, as the connection_string_password rule reads it (a password of 256 characters at most)
_URL_CREDENTIALS = regex.compile(
    r"(?P<scheme>[A-Za-z][A-Za-z0-9+.\-]*://)(?P<user>[^\s:/@?#]*):(?P<password>[^\s@/?#]{1,256})@(?=[^\s/?#@])")


def _masked_credentials(credentials: regex.Match, rules: PatternRules) -> bool:
    """The secret rules mask these credentials: a password that is no example, or one read from a variable
    with a user name that is a person's login (no system account, no example)."""
    password, user = credentials.group("password"), credentials.group("user")
    if not rules.secret_reject.fullmatch(password):
        return True
    return _is_login(user, rules) and rules.secret_reference.fullmatch(password) is not None


def _is_login(user: str | None, rules: PatternRules) -> TypeGuard[str]:
    """A connection's user name is someone's login: written, no example, no system account ("root")."""
    return bool(user) and not rules.secret_reject.fullmatch(user) and not rules.system_account.fullmatch(user)


# --- SECRET ------------------------------------------------------------------

def find_secrets(text: str, rules: PatternRules) -> list[Span]:
    """Well-known credential formats; a named group "span" narrows the span (a connection string's password),
    and a group "user" is the account's user name, an IDENTIFIER (LABELS.md) unless it is a system account, or an
    EMAIL when it is an e-mail address (a mailer's `smtp://alerts@example.org:…@host`). A password read from a
    variable (`secret_reference`: `postgres://app_ro:${DB_PASSWORD}@db`) is none, but its user name is real."""
    spans = []
    for _name, pattern in rules.secret_formats:
        for m in pattern.finditer(text):
            group = "span" if "span" in pattern.groupindex and m.group("span") is not None else 0
            start, end = m.span(group)
            user = m.group("user") if "user" in pattern.groupindex else None
            if rules.secret_reject.fullmatch(m.group(group)):
                if not (user and rules.secret_reference.fullmatch(m.group(group))):
                    continue  # an example's password; one read from a variable leaves a real user name
            else:
                spans.append(Span(start, end, "SECRET", rules.secret_score, "validator"))
            if _is_login(user, rules):
                label = "EMAIL" if "@" in user else "IDENTIFIER"
                spans.append(Span(m.start("user"), m.end("user"), label, rules.secret_score, "validator"))
    return spans
