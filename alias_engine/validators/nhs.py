"""NHS number (England, Wales and the Isle of Man), through python-stdnum.

Ten digits, written 3-3-4: nine digits and a check digit (weights 10 down to 2,
modulo 11). One random ten-digit number in eleven passes the check, so the
rules ask for the word "NHS" before one (rules/identifiers.json,
"required_context"). A number of one digit repeated passes it too, and is none.

>>> validate("943 476 5919")
'9434765919'
>>> is_valid("943 476 5918")
False
>>> format("9434765919")
'943 476 5919'
"""

from __future__ import annotations

import random

from stdnum.gb import nhs as _nhs

from ._util import as_text, remove_separators
from .errors import InvalidFormat, InvalidLength, ValidationError, stdnum_errors

_WHAT = "NHS number"


def compact(number: str) -> str:
    """Remove separators (space, dash, dot) and surrounding whitespace."""
    return remove_separators(as_text(number, _WHAT))


def validate(number: str) -> str:
    """Return the ten digits or raise a ValidationError subclass."""
    number = compact(number)
    if len(number) != 10:
        raise InvalidLength(f"{_WHAT}: expected 10 digits, got {len(number)}")
    if not number.isascii() or not number.isdigit():
        raise InvalidFormat(f"{_WHAT}: only digits are allowed")
    if len(set(number)) == 1:
        raise InvalidFormat(f"{_WHAT}: one digit repeated is no number")
    with stdnum_errors(_WHAT):
        _nhs.validate(number)
    return number


def is_valid(number: str) -> bool:
    try:
        validate(number)
    except ValidationError:
        return False
    return True


def format(number: str) -> str:
    """`943 476 5919`."""
    return _nhs.format(compact(number))


def generate(rng: random.Random) -> str:
    """A random valid NHS number, compact (ten digits, the first not 0)."""
    while True:  # one draw in eleven has no check digit
        head = f"{rng.randint(100_000_000, 999_999_999)}"
        for check in "0123456789":
            if is_valid(head + check):
                return head + check
