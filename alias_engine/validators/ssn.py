"""US Social Security Number, through python-stdnum.

Nine digits AAA-GG-SSSS, no check digit: area 000, 666 and 900–999, group 00,
serial 0000 and a few publicly misused numbers are rejected. Separators may be
dashes, spaces or dots.

>>> validate("536-90-4399")
'536904399'
"""

from __future__ import annotations

import random

from stdnum.us import ssn as _ssn

from ._util import as_text, remove_separators
from .errors import InvalidFormat, InvalidLength, ValidationError, stdnum_errors

_WHAT = "SSN"


def compact(number: str) -> str:
    """Remove separators (dash, space, dot) and surrounding whitespace."""
    return remove_separators(as_text(number, _WHAT))


def validate(number: str) -> str:
    """Return the nine digits or raise a ValidationError subclass."""
    number = compact(number)
    if len(number) != 9:
        raise InvalidLength(f"{_WHAT}: expected 9 digits, got {len(number)}")
    if not number.isascii() or not number.isdigit():
        raise InvalidFormat(f"{_WHAT}: only digits are allowed")
    with stdnum_errors(_WHAT):
        _ssn.validate(format(number))
    return number


def is_valid(number: str) -> bool:
    try:
        validate(number)
    except ValidationError:
        return False
    return True


def format(number: str) -> str:
    """`AAA-GG-SSSS`."""
    number = compact(number)
    return _ssn.format(number)


def generate(rng: random.Random) -> str:
    """A random valid SSN, compact (nine digits)."""
    while True:  # the rejected areas and blacklist are a small share: a few tries at most
        area = rng.randint(1, 899)
        number = f"{area:03d}{rng.randint(1, 99):02d}{rng.randint(1, 9999):04d}"
        if is_valid(number):
            return number
