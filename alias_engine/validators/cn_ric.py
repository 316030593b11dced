"""Chinese Resident Identity Card number (居民身份证号码), through python-stdnum.

18 characters: a 6-digit address code, the birth date YYYYMMDD, a 3-digit
order code and an ISO 7064 MOD 11-2 check character (a digit or X).

>>> validate("110105 19491231 002X")
'11010519491231002X'
>>> is_valid("11010519491231002")
False
>>> validate("518516196406240120")  # an address code python-stdnum's table cannot resolve
'518516196406240120'
"""

from __future__ import annotations

import random

from stdnum.cn import ric as _ric

from ._util import as_text, remove_separators
from .errors import InvalidChecksum, InvalidFormat, InvalidLength, ValidationError, stdnum_errors

_WHAT = "Chinese resident ID"


def compact(number: str) -> str:
    """Remove separators (dash, space, dot), surrounding whitespace, and upper-case the check X."""
    return remove_separators(as_text(number, _WHAT)).upper()


def validate(number: str) -> str:
    """Return the 18 characters or raise a ValidationError subclass."""
    number = compact(number)
    if len(number) != 18:
        raise InvalidLength(f"{_WHAT}: expected 18 characters, got {len(number)}")
    if not number.isascii() or not number[:17].isdigit():
        raise InvalidFormat(f"{_WHAT}: 17 digits and a check digit or X")
    with stdnum_errors(_WHAT):
        try:
            _ric.validate(number)
        except KeyError:
            # python-stdnum's region table lacks a field for some address codes and raises
            # KeyError there: the birth date and the check character still decide.
            _ric.get_birth_date(number)
            if _ric.calc_check_digit(number) != number[-1]:
                raise InvalidChecksum(f"{_WHAT}: the check character does not match") from None
    return number


def is_valid(number: str) -> bool:
    try:
        validate(number)
    except ValidationError:
        return False
    return True


def format(number: str) -> str:
    """The 18 characters without separators, as they are written."""
    return compact(number)


def generate(rng: random.Random) -> str:
    """A random valid number (a Beijing address code, a birth date between 1950 and 2005)."""
    body = (f"1101{rng.randint(1, 8):02d}{rng.randint(1950, 2005)}{rng.randint(1, 12):02d}"
            f"{rng.randint(1, 28):02d}{rng.randint(0, 999):03d}")
    return body + _ric.calc_check_digit(body + "0")  # the function expects a check digit in place
