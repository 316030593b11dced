"""IBAN (International Bank Account Number), all countries, through python-stdnum.

Accepts the compact form and the grouped form (spaces, dashes or dots between
characters); the country's length and BBAN structure and the ISO 7064 mod 97-10
check digits are verified. stdnum's extra national checks are not applied on
purpose: for Belgium it also requires the bank code to be in its (incomplete)
bank list, and a real account must not be missed because of that. `generate`
does produce values that pass the national checks.

>>> validate("FR76 3000 6000 0112 3456 7890 189")
'FR7630006000011234567890189'
"""

from __future__ import annotations

import random
import re
import string

from stdnum import iban as _iban
from stdnum import numdb
from stdnum.es import ccc as _es_ccc

from ._util import as_text, remove_separators
from .errors import InvalidFormat, InvalidLength, ValidationError, stdnum_errors

_WHAT = "IBAN"
_DB = numdb.get("iban")
_STRUCT = re.compile(r"([1-9][0-9]*)!([nac])")
_CHARS = {"n": string.digits, "a": string.ascii_uppercase, "c": string.digits + string.ascii_uppercase}

# Countries `generate` picks from by default: common in French and English text.
GENERATE_COUNTRIES: tuple[str, ...] = ("FR", "DE", "GB", "IT", "ES", "NL", "CH", "LU", "IE", "AT", "PT", "MC")


def compact(number: str) -> str:
    """Remove separators (space, dash, dot) and surrounding whitespace; uppercase."""
    return remove_separators(as_text(number, _WHAT))


def bban_structure(country: str) -> tuple[tuple[int, str], ...] | None:
    """The BBAN of `country` as (length, kind) parts, kind n/a/c; None for an unknown country."""
    info = _DB.info(country.upper()[:2])[0][1]
    if "bban" not in info:
        return None
    return tuple((int(n), kind) for n, kind in _STRUCT.findall(info["bban"]))


def expected_length(country: str) -> int | None:
    """Length of a compact IBAN of `country` (country code and check digits included), or None."""
    structure = bban_structure(country)
    return None if structure is None else 4 + sum(n for n, _ in structure)


def validate(number: str) -> str:
    """Return the compact IBAN or raise a ValidationError subclass."""
    number = compact(number)
    if not re.fullmatch(r"[A-Z]{2}[0-9]{2}[A-Z0-9]+", number):
        raise InvalidFormat(f"{_WHAT}: expected 2 letters, 2 digits and the account part")
    length = expected_length(number[:2])
    if length is not None and len(number) != length:
        raise InvalidLength(f"{_WHAT}: {number[:2]} IBANs have {length} characters, not {len(number)}")
    with stdnum_errors(_WHAT):
        return _iban.validate(number, check_country=False)


def is_valid(number: str) -> bool:
    try:
        validate(number)
    except ValidationError:
        return False
    return True


def format(number: str) -> str:
    """Groups of four characters separated by spaces."""
    return _iban.format(compact(number))


def _rib_key(bank: str, branch: str, account: str) -> str:
    return f"{97 - (89 * int(bank) + 15 * int(branch) + 3 * int(account)) % 97:02d}"


def _random_bban(rng: random.Random, structure: tuple[tuple[int, str], ...]) -> str:
    return "".join("".join(rng.choice(_CHARS[kind]) for _ in range(n)) for n, kind in structure)


def generate(rng: random.Random, country: str | None = None) -> str:
    """A random valid compact IBAN of `country` (default: one of GENERATE_COUNTRIES).

    French and Monegasque IBANs get a digits-only account and a correct RIB key;
    Spanish ones correct CCC check digits.
    """
    country = (country or rng.choice(GENERATE_COUNTRIES)).upper()
    structure = bban_structure(country)
    if structure is None:
        raise InvalidFormat(f"{_WHAT}: unknown country {country!r}")
    for _ in range(5000):  # only countries with a national check stdnum verifies need more than one try
        if country in ("FR", "MC"):
            bank, branch, account = (_random_bban(rng, ((n, "n"),)) for n in (5, 5, 11))
            bban = bank + branch + account + _rib_key(bank, branch, account)
        else:
            bban = _random_bban(rng, structure)
            if country == "ES":
                bban = bban[:8] + _es_ccc.calc_check_digits(bban) + bban[10:]
        number = country + _iban.calc_check_digits(country + "00" + bban) + bban
        if _iban.is_valid(number):
            return number
    raise InvalidFormat(f"{_WHAT}: could not generate a valid IBAN for {country}")
