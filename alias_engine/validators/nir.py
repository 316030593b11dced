"""French NIR (numéro de sécurité sociale, INSEE number), through python-stdnum.

15 characters: sex (1), year (2), month (2), département (2, "2A"/"2B" for
Corsica), commune (3), order (3), key (2) with key = 97 − (first 13 digits mod
97), Corsica counted as 19 (2A) and 18 (2B). On top of stdnum's checks the sex
digit must be 1, 2 (or 3, 4, 7, 8 for provisional numbers) and the month 01–12
or one of INSEE's pseudo-months (20, 30–42, 50–99): this rejects most random
15-digit numbers that pass the key by chance.

>>> validate("2 95 10 99 126 111 93")
'295109912611193'
"""

from __future__ import annotations

import random

from stdnum.fr import nir as _nir

from ._util import as_text, remove_separators
from .errors import InvalidComponent, InvalidFormat, InvalidLength, ValidationError, stdnum_errors

_WHAT = "NIR"
SEX_DIGITS = frozenset("123478")


def _month_ok(month: int) -> bool:
    return 1 <= month <= 12 or month == 20 or 30 <= month <= 42 or 50 <= month <= 99


def compact(number: str) -> str:
    """Remove separators (space, dash, dot) and surrounding whitespace; uppercase (2a → 2A)."""
    return remove_separators(as_text(number, _WHAT))


def validate(number: str) -> str:
    """Return the compact NIR or raise a ValidationError subclass."""
    number = compact(number)
    if len(number) != 15:
        raise InvalidLength(f"{_WHAT}: expected 15 characters, got {len(number)}")
    with stdnum_errors(_WHAT):
        _nir.validate(number)
    if number[0] not in SEX_DIGITS:
        raise InvalidComponent(f"{_WHAT}: first digit {number[0]} is not a sex code")
    if not _month_ok(int(number[3:5])):
        raise InvalidComponent(f"{_WHAT}: month {number[3:5]} does not exist")
    return number


def is_valid(number: str) -> bool:
    try:
        validate(number)
    except ValidationError:
        return False
    return True


def format(number: str) -> str:
    """The usual grouping: `2 95 10 99 126 111 93`."""
    return _nir.format(compact(number))


def calc_key(first13: str) -> str:
    """The two-digit key of the first 13 characters (Corsica 2A/2B handled)."""
    if len(first13) != 13:
        raise InvalidLength(f"{_WHAT}: the key is computed on 13 characters")
    return _nir.calc_check_digits(first13.upper())


def generate(rng: random.Random, sex: int | None = None, birth_year: int | None = None,
             birth_month: int | None = None) -> str:
    """A random valid compact NIR; `sex` 1 (male) or 2 (female), `birth_year` four digits, `birth_month` 1–12."""
    if sex is None:
        sex = rng.choice((1, 2))
    if sex not in (1, 2):
        raise InvalidComponent(f"{_WHAT}: sex must be 1 or 2")
    year = rng.randint(1930, 2010) if birth_year is None else birth_year
    month = rng.randint(1, 12) if birth_month is None else birth_month
    if not 1 <= month <= 12:
        raise InvalidComponent(f"{_WHAT}: birth month must be 1–12")
    if not isinstance(year, int) or year < 0:
        raise InvalidFormat(f"{_WHAT}: birth year must be a non-negative integer")
    department = rng.choice([f"{d:02d}" for d in range(1, 96) if d != 20] + ["2A", "2B"])
    commune = f"{rng.randint(1, 990):03d}"
    order = f"{rng.randint(1, 999):03d}"
    first13 = f"{sex}{year % 100:02d}{month:02d}{department}{commune}{order}"
    return first13 + calc_key(first13)
