"""Realistic fake values of the same type, language and format as the originals.

Every value is drawn from a random generator seeded by HMAC-SHA256(key, what is
being faked), so one key always gives the same surrogates and without the key
they cannot be predicted. Numbers with a checksum (IBAN, card, NIR, SSN, NINO)
come from `alias_engine.validators` and pass their checks. The caller (the
session) makes sure that no surrogate equals a real value and that no two
originals share one, by asking again with the next `attempt`.
"""

from __future__ import annotations

import hashlib
import hmac
import ipaddress
import json
import random
import string
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import phonenumbers
import regex
from stdnum import iban as _stdnum_iban
from stdnum import luhn

from ..labels import BUILTIN, LabelSet
from ..resources import data_dir
from ..validators import card, iban, nino, nir, ssn
from .names import ascii_fold

_DIGITS_SEPS = regex.compile(r"[\s.\-/()_\p{Cf}]")  # separators, and invisible characters
_NINO = regex.compile(r"[A-Z]{2}\d{6}[A-D]?")
_SSN = regex.compile(r"\d{3}[- ]?\d{2}[- ]?\d{4}")
_UK_POSTCODE = regex.compile(r"\b[A-Z]{1,2}\d[A-Z\d]? ?\d[A-Z]{2}\b", regex.I)
_US_STATE_ZIP = regex.compile(r"\b[A-Z]{2}\s+\d{5}(?:-\d{4})?\b")
_FR_POSTCODE = regex.compile(r"\b\d{5}\b")
_STREET_NUMBER = regex.compile(r"^\s*(\d{1,5})(\s?(?:bis|ter|[A-Za-z])\b)?")


@dataclass(frozen=True)
class Context:
    """What a generator may ask the session: fake name pieces and the birth-month shift."""

    fake_word: Callable[[str], str | None]
    fake_name: Callable[[random.Random], tuple[str, str]]
    month_map: Callable[[int, int], tuple[int, int]]
    lang: str
    fake_family: Callable[[str], str]


def seeded(key: bytes, *parts: str) -> random.Random:
    digest = hmac.new(key, "\x1f".join(parts).encode("utf-8"), hashlib.sha256).digest()
    return random.Random(int.from_bytes(digest, "big"))


@lru_cache(maxsize=2)
def _data(folder: Path | None = None) -> dict:
    folder = folder or data_dir("rules") / "surrogates"

    def lines(name: str) -> list[str]:
        text = (folder / name).read_text(encoding="utf-8")
        return [line.strip() for line in text.splitlines() if line.strip() and not line.startswith("#")]

    return {
        "addresses": json.loads((folder / "addresses.json").read_text(encoding="utf-8")),
        "dates": json.loads((folder / "dates.json").read_text(encoding="utf-8")),
        "public_domains": frozenset(lines("email_domains.txt")),
        "fake_domains": tuple(lines("fake_domains.txt")),
        "mailbox_words": frozenset(lines("mailbox_words.txt")),
        "shared_hosts": _shared_hosts(folder.parent / "common.json"),
    }


def _shared_hosts(common_rules: Path) -> frozenset[str]:
    """Hosts that say nothing about a person by themselves (social sites, file shares, public
    sites): a URL surrogate keeps them; any other host may be the person's and is replaced."""
    url_rules = json.loads(common_rules.read_text(encoding="utf-8")).get("url", {})
    keys = ("public_hosts", "social_hosts", "profile_only_hosts", "file_share_hosts", "personal_page_hosts")
    return frozenset(host for key in keys for host in url_rules.get(key, ()))


def fill(template: str, chars: str) -> str | None:
    """`template` with its letters and digits replaced, in order, by `chars` (case kept); None if counts differ."""
    slots = [i for i, c in enumerate(template) if c.isalnum()]
    if len(slots) != len(chars):
        return None
    out = list(template)
    for i, c in zip(slots, chars):
        out[i] = c.lower() if template[i].islower() else c
    return "".join(out)


def random_like(text: str, rng: random.Random, keep_letters: bool = False) -> str:
    """Every digit and letter replaced by a random one of the same kind and case."""
    out = []
    for i, c in enumerate(text):
        if c.isdigit():
            out.append(rng.choice("123456789" if i == 0 and c != "0" else string.digits))
        elif c.isalpha() and c.isascii() and not keep_letters:
            out.append(rng.choice(string.ascii_uppercase if c.isupper() else string.ascii_lowercase))
        else:
            out.append(c)
    return "".join(out)


def compact(value: str) -> str:
    return _DIGITS_SEPS.sub("", value).upper()


# --- numbers with a checksum -------------------------------------------------------------

def fake_iban(value: str, rng: random.Random) -> str:
    c = compact(value)
    country = c[:2]
    try:
        fake = iban.generate(rng, country)
    except Exception:  # unknown country: same shape, recomputed check digits
        bban = random_like(c[4:], rng)
        fake = country + _stdnum_iban.calc_check_digits(country + "00" + bban) + bban
    return fill(value, fake) or iban.format(fake)


def fake_card(value: str, rng: random.Random) -> str:
    c = compact(value)
    try:
        fake = card.generate(rng, card.brand(c), len(c))
    except Exception:
        body = c[0] + "".join(rng.choice(string.digits) for _ in range(len(c) - 2))
        fake = body + luhn.calc_check_digit(body)
    return fill(value, fake) or card.format(fake)


def fake_national_id(value: str, rng: random.Random, ctx: Context) -> str:
    c = compact(value)
    if len(c) == 15 and c[0] in "12" and c[1:5].isdigit():
        yy, mm = int(c[1:3]), int(c[3:5])
        year, month = (ctx.month_map(1900 + yy, mm) if 1 <= mm <= 12 else (None, None))
        fake = nir.generate(rng, sex=int(c[0]), birth_year=year, birth_month=month)
    elif _SSN.fullmatch(value.strip()) and c.isdigit():
        fake = ssn.generate(rng)
    elif _NINO.fullmatch(c):
        fake = nino.generate(rng)
        fake = fake if len(c) == 9 else fake[:8]
    else:
        return random_like(value, rng)
    return fill(value, fake) or fake


# --- phones, dates, addresses ------------------------------------------------------------

def fake_phone(value: str, rng: random.Random, ctx: Context) -> str:
    digits = [c for c in value if c.isdigit()]
    regions = ("FR", "GB", "US") if ctx.lang == "fr" else ("US", "GB", "FR")
    parsed = None
    for region in (None,) if value.strip().startswith("+") else regions:
        try:
            p = phonenumbers.parse(value, region)
        except phonenumbers.NumberParseException:
            continue
        if phonenumbers.is_valid_number(p):
            parsed = p
            break
    nsn = phonenumbers.national_significant_number(parsed) if parsed else ""
    keep = len(digits) - len(nsn) + 1 if parsed and len(nsn) < len(digits) + 1 else min(2, len(digits))
    keep = max(1, min(keep, len(digits) - 4))
    for _ in range(200):
        fake = "".join(digits[:keep]) + "".join(rng.choice(string.digits) for _ in range(len(digits) - keep))
        out = fill(value, fake) or fake
        if parsed is None:
            return out
        try:
            if phonenumbers.is_valid_number(phonenumbers.parse(out, phonenumbers.region_code_for_number(parsed))):
                return out
        except phonenumbers.NumberParseException:
            pass
    return out


def _month_names(lang: str) -> list[tuple[int, str, str]]:
    dates = _data()["dates"]
    out = []
    for key in (lang, lang + "_short", "fr", "en", "fr_short", "en_short"):
        for i, name in enumerate(dates.get(key, ())):
            out.append((i + 1, name, key))
    return out


def fake_birth_date(value: str, rng: random.Random, ctx: Context) -> str:
    text = value
    m = regex.fullmatch(r"(\d{4})([-/.])(\d{1,2})\2(\d{1,2})", text)
    if m:
        y, mo, d = int(m[1]), int(m[3]), int(m[4])
        if 1 <= mo <= 12:
            fy, fm = ctx.month_map(y, mo)
            fd = _day(rng, d)
            return f"{fy:04d}{m[2]}{fm:0{len(m[3])}d}{m[2]}{fd:0{len(m[4])}d}"
    m = regex.fullmatch(r"(\d{1,2})([-/. ])(\d{1,2})\2(\d{2}|\d{4})", text)
    if m:
        a, b, y = int(m[1]), int(m[3]), int(m[4])
        month_first = b > 12 or (a <= 12 and ctx.lang == "en" and not b > 12 and "/" == m[2])
        if a > 12:
            month_first = False
        d, mo = (b, a) if month_first else (a, b)
        if 1 <= mo <= 12:
            year = y if len(m[4]) == 4 else (1900 + y if y > 30 else 2000 + y)
            fy, fm = ctx.month_map(year, mo)
            fd = _day(rng, d)
            fy_text = f"{fy:04d}" if len(m[4]) == 4 else f"{fy % 100:02d}"
            first, second = (fm, fd) if month_first else (fd, fm)
            return f"{first:0{len(m[1])}d}{m[2]}{second:0{len(m[3])}d}{m[2]}{fy_text}"
    for month, name, key in _month_names(ctx.lang):
        pattern = regex.escape(name)
        m = regex.fullmatch(rf"(?i)(\d{{1,2}})(er|st|nd|rd|th)?(\s+)({pattern})(,?\s+)(\d{{4}})", text)
        if m:
            fy, fm = ctx.month_map(int(m[6]), month)
            fd = _day(rng, int(m[1]))
            suffix = m[2] or ""
            if suffix and suffix != "er":
                suffix = _ordinal(fd)
            elif suffix == "er" and fd != 1:
                suffix = ""
            return f"{fd}{suffix}{m[3]}{_month_word(fm, key, m[4])}{m[5]}{fy}"
        m = regex.fullmatch(rf"(?i)({pattern})(\s+)(\d{{1,2}})(st|nd|rd|th)?(,?\s+)(\d{{4}})", text)
        if m:
            fy, fm = ctx.month_map(int(m[6]), month)
            fd = _day(rng, int(m[3]))
            return f"{_month_word(fm, key, m[1])}{m[2]}{fd}{_ordinal(fd) if m[4] else ''}{m[5]}{fy}"
        m = regex.fullmatch(rf"(?i)({pattern})(\s+)(\d{{4}})", text)
        if m:
            fy, fm = ctx.month_map(int(m[3]), month)
            return f"{_month_word(fm, key, m[1])}{m[2]}{fy}"
    m = regex.fullmatch(r"(\d{1,2})([/.\-])(\d{4})", text)
    if m and 1 <= int(m[1]) <= 12:
        fy, fm = ctx.month_map(int(m[3]), int(m[1]))
        return f"{fm:0{len(m[1])}d}{m[2]}{fy}"
    if regex.fullmatch(r"\d{4}", text):
        return str(ctx.month_map(int(text), 1)[0])
    return random_like(value, rng)


def _day(rng: random.Random, day: int) -> int:
    return rng.choice([d for d in range(1, 29) if d != day])


def _ordinal(day: int) -> str:
    return "th" if 10 <= day % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(day % 10, "th")


def _month_word(month: int, key: str, written: str) -> str:
    word = _data()["dates"][key][month - 1]
    if written.isupper():
        return word.upper()
    if written[:1].isupper():
        return word[:1].upper() + word[1:]
    return word.lower() if written.islower() else word


_ADDRESS_SEP = regex.compile(r"(\s*[,\n]\s*)")


def fake_address(value: str, rng: random.Random, ctx: Context) -> str:
    """Same parts in the same order: street line, extra lines (flat, building), postcode and
    city (a real pair), country kept."""
    data = _data()["addresses"]
    pieces = _ADDRESS_SEP.split(value)
    parts, seps = pieces[0::2], pieces[1::2]
    us = next((i for i, p in enumerate(parts) if _US_STATE_ZIP.search(p)), None)
    uk = next((i for i, p in enumerate(parts) if _UK_POSTCODE.search(p)), None) if us is None else None
    fr = next((i for i, p in enumerate(parts) if _FR_POSTCODE.search(p)), None) if us is None and uk is None else None
    place = us if us is not None else uk if uk is not None else fr
    lang = "en" if us is not None or uk is not None else "fr" if fr is not None else ctx.lang
    typed = [i for i, p in enumerate(parts) if _street_type(p, data)]
    street = next((i for i in typed if parts[i][:1].isdigit()), typed[0] if typed else None)
    if street is None:
        street = next((i for i, p in enumerate(parts) if p[:1].isdigit() and i != place), None)
    if street is None and place != 0:
        street = 0
    out = list(parts)
    kind = "us" if us is not None else "uk" if uk is not None else "fr"
    for i, part in enumerate(parts):
        if i == street == place:  # "12 rue des Lilas 75011 Paris" on one line
            code = (_US_STATE_ZIP if kind == "us" else _UK_POSTCODE if kind == "uk" else _FR_POSTCODE).search(part)
            cut = code.start()
            if kind != "fr":  # the city comes before the code: cut before the last word(s) of the city
                cut = part.rfind(" ", 0, max(0, cut - 1)) + 1 if " " in part[:cut].strip() else cut
            out[i] = _fake_street(part[:cut], rng, data, lang).rstrip() + " " + _fake_place(part[cut:], rng, data, kind)
        elif i == street:
            out[i] = _fake_street(part, rng, data, lang)
        elif i == place:
            out[i] = _fake_place(part, rng, data, kind)
        elif place is not None and i == place - 1 and i != street and not any(c.isdigit() for c in part) \
                and (us is not None or (uk is not None and _UK_POSTCODE.fullmatch(parts[place].strip()))):
            out[i] = ""  # the city written apart from the state/postcode: _fake_place gives both
        elif any(c.isdigit() for c in part):
            out[i] = regex.sub(r"\d+", lambda m: str(rng.randint(1, 9 * 10 ** (len(m.group()) - 1))), part)
        elif place is None or i < place:
            out[i] = rng.choice(data[lang]["extras"]).format(n=rng.randint(1, 9), L=rng.choice("ABCDE"))
    text = out[0]
    for sep, part in zip(seps, out[1:]):
        if part:
            text += sep + part
    if not out[0]:
        text = text.lstrip(", \n")
    return text.upper() if value.isupper() else text


def _street_type(part: str, data: dict) -> tuple[str, str] | None:
    """(type as written, its language) when `part` names a street type."""
    for lang in ("fr", "en"):
        types = sorted(data[lang]["street_types"], key=len, reverse=True)
        m = regex.search(r"(?i)(?<!\w)(?:" + "|".join(regex.escape(t) for t in types) + r")\.?(?!\w)", part)
        if m and not (lang == "en" and m.start() == 0 and m.group().lower() in ("st", "dr", "pl")):
            return m.group(), lang
    return None


def _fake_street(part: str, rng: random.Random, data: dict, lang: str) -> str:
    found = _street_type(part, data)
    street_type, lang = found if found else (rng.choice(data[lang]["street_types"][:5]), lang)
    number = _STREET_NUMBER.match(part)
    num = ""
    if number:
        high = 180 if len(number[1]) <= 3 else 9999
        num = f"{rng.randint(1, high)}{number[2] or ''} "
    folded = part.casefold()
    name = rng.choice([n for n in data[lang]["street_names"] if n.casefold() not in folded]
                      or data[lang]["street_names"])
    return f"{num}{street_type} {name}" if lang == "fr" else f"{num}{name} {street_type}"


def _other(rows: list[list[str]], rng: random.Random, part: str) -> list[str]:
    """A row none of whose fields is written in `part` (never the real city or postcode)."""
    folded = part.casefold()
    return rng.choice([r for r in rows if not any(f.casefold() in folded for f in r)] or rows)


def _fake_place(part: str, rng: random.Random, data: dict, kind: str) -> str:
    if kind == "us":
        city, state, zipcode = _other(data["en"]["us_cities"], rng, part)
        return f"{city}, {state} {zipcode}"
    if kind == "uk":
        city, postcode = _other(data["en"]["uk_cities"], rng, part)
        return f"{city} {postcode}"
    postcode, city = _other(data["fr"]["cities"], rng, part)
    m = _FR_POSTCODE.search(part)
    before, after = part[:m.start()], part[m.end():]
    if before.strip():  # "Paris 75011"
        return f"{city} {postcode}"
    return f"{postcode} {city}" if after.strip() else postcode


# --- e-mail, URL, IP, identifiers, secrets -----------------------------------------------

def _is_mailbox_word(word: str) -> bool:
    """A word of a shared mailbox or an organisation's domain (rules/surrogates/mailbox_words.txt)."""
    return ascii_fold(word).casefold() in _data()["mailbox_words"]


def _address_word(written: str, fake: str) -> str:
    """`fake` as a word of an e-mail address or domain written like `written`."""
    return _like_case(written, ascii_fold(fake).replace(" ", "").replace("'", ""))


def fake_email(value: str, rng: random.Random, ctx: Context) -> str:
    local, _, domain = value.rpartition("@")
    if not local:
        return random_like(value, rng)
    parts = regex.split(r"([._\-+])", local)
    is_role = [_is_mailbox_word(p) for p in parts]
    shared = all(role or p.isdigit() or p in ("", ".", "_", "-", "+") for p, role in zip(parts, is_role))
    if shared and domain.lower() not in _data()["public_domains"]:
        # a shared mailbox (contact@, support.client@) of an organisation: only the domain says who
        return "".join(random_like(p, rng) if p.isdigit() else p for p in parts) + "@" + fake_domain(domain, rng, ctx)
    replaced = False
    out = []
    for part, role in zip(parts, is_role):
        fake = ctx.fake_word(part) if part.isalpha() and not role else None
        if fake:
            replaced = True
            part = _address_word(part, fake)
        elif part.isdigit():
            part = random_like(part, rng)
        out.append(part)
    if replaced:
        out = [_address_word(p, ctx.fake_family(p))
               if p.isalpha() and len(p) > 1 and p == orig and not role else p
               for p, orig, role in zip(out, parts, is_role)]
    else:
        given, family = ctx.fake_name(rng)
        sep = next((p for p in parts if p in "._-"), ".")
        given, family = ascii_fold(given).lower(), ascii_fold(family).lower().replace(" ", "")
        digits = "".join(c for c in local if c.isdigit())
        out = [given, sep, family, random_like(digits, rng) if digits else ""]
        out = [_like_case(local, "".join(out))]
    return "".join(out) + "@" + fake_domain(domain, rng, ctx)


def fake_domain(domain: str, rng: random.Random, ctx: Context) -> str:
    data = _data()
    if domain.lower() in data["public_domains"]:
        return domain
    labels = domain.split(".")
    tld_len = 2 if len(labels) > 2 and len(labels[-2]) <= 3 else 1
    name_labels, tld = labels[:-tld_len], labels[-tld_len:]
    changed = False
    new = []
    for label in name_labels:
        words = regex.split(r"(-)", label)
        fakes = [ctx.fake_word(w) if w.isalpha() else None for w in words]
        if any(fakes):
            # a name in the label: its other words may be a surname we do not know ("jean-dupont")
            changed = True
            fakes = [fake or (ctx.fake_name(rng)[1] if w.isalpha() and len(w) > 3 and not _is_mailbox_word(w) else None)
                     for w, fake in zip(words, fakes)]
        new.append("".join(_address_word(w, fake) if fake else w for w, fake in zip(words, fakes)))
    if not changed:
        new = [rng.choice(data["fake_domains"])]
    return ".".join(new + tld)


def fake_url(value: str, rng: random.Random, ctx: Context) -> str:
    m = regex.match(r"(?i)([a-z][a-z0-9+.\-]*://)?([^/?#\s]*)(.*)", value)
    scheme, host, rest = m[1] or "", m[2], m[3]
    tokens = regex.split(r"([/\-_.=&?#~+])", rest)
    out, changed = [], False
    for tok in tokens:
        if tok.isalpha():
            fake = ctx.fake_word(tok)
            if fake:
                tok = _like_case(tok, ascii_fold(fake).replace(" ", ""))
                changed = True
        elif any(c.isdigit() for c in tok) and tok.isalnum():
            tok = random_like(tok, rng)
            changed = True
        out.append(tok)
    path = "".join(out)
    if not changed:
        path = regex.sub(r"[A-Za-z0-9]+(?=[^A-Za-z0-9]*$)", lambda x: random_like(x.group(), rng), rest, count=1) \
            if rest.strip("/") else "/" + random_like("u" + str(rng.randint(10000, 99999)), rng)
    parents = {".".join(host.lower().split(".")[i:]) for i in range(host.count(".") + 1)}
    host_out = host if parents & _data()["shared_hosts"] else fake_domain(host, rng, ctx)
    return scheme + host_out + path


def fake_ip(value: str, rng: random.Random) -> str:
    try:
        ip = ipaddress.ip_address(value.strip())
    except ValueError:
        return random_like(value, rng)
    if ip.version == 4:
        octets = value.strip().split(".")
        first = octets[0] if ip.is_private else str(rng.randint(11, 223))
        if ip.is_private and octets[0] in ("172", "192"):
            new = octets[:2] + [str(rng.randint(0, 255)), str(rng.randint(1, 254))]
        else:
            new = [first] + [str(rng.randint(0, 255)) for _ in range(2)] + [str(rng.randint(1, 254))]
        return ".".join(new)
    return regex.sub(r"[0-9a-fA-F]", lambda c: _hex_like(c.group(), rng), value)


def _hex_like(c: str, rng: random.Random) -> str:
    h = rng.choice("0123456789abcdef")
    return h.upper() if c.isupper() else h


_LETTER_RUNS = regex.compile(r"\p{L}+|\P{L}+")


def fake_identifier(value: str, rng: random.Random) -> str:
    """Digits and letters replaced, except short letter codes ("CT-2023-…", "DOS"): a longer
    run of letters can be a name ("jdupont1985", "DUPONT-JEAN-2019") and must not reach the LLM."""
    if not any(c.isdigit() for c in value):
        return random_like(value, rng)
    return "".join(piece if piece[0].isalpha() and len(piece) <= 3 else random_like(piece, rng)
                   for piece in _LETTER_RUNS.findall(value))


def fake_secret(value: str, rng: random.Random) -> str:
    prefix = regex.match(r"[A-Za-z]{1,4}[_\-]|AKIA|xox[a-z]-", value)
    cut = prefix.end() if prefix else 0
    return value[:cut] + random_like(value[cut:], rng)


def _like_case(written: str, fake: str) -> str:
    if written.isupper() and len(written) > 1:
        return fake.upper()
    if written.islower():
        return fake.lower()
    if written[:1].isupper():
        return fake[:1].upper() + fake[1:].lower()
    return fake


def fake_value(label: str, value: str, rng: random.Random, ctx: Context, labels: LabelSet = BUILTIN) -> str:
    """A surrogate for a non-person `value` of `label`: the operator its entry in `labels` names."""
    operator = labels.spec(label).surrogate
    if operator in ("iban", "card", "ip", "secret"):
        return _OPERATORS[operator](value, rng)
    if operator in _OPERATORS:
        return _OPERATORS[operator](value, rng, ctx)
    return fake_identifier(value, rng)


_OPERATORS: dict[str, Callable[..., str]] = {
    "iban": fake_iban, "card": fake_card, "national_id": fake_national_id, "phone": fake_phone,
    "birth_date": fake_birth_date, "address": fake_address, "email": fake_email, "url": fake_url,
    "ip": fake_ip, "secret": fake_secret}
