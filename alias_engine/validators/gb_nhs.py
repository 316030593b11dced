"""NHS number (England, Wales and the Isle of Man), through python-stdnum.

Ten digits, the last a mod-11 check digit, written `186 091 3903`. The check is
what lets a bare "NHS 186 091 3903" be told from a phone number.

>>> validate("186 091 3903")
'1860913903'
>>> is_valid("186 091 3904")
False
>>> format("1860913903")
'186 091 3903'
"""

from __future__ import annotations

import random

from stdnum.gb import nhs as _nhs

from ._util import as_text, remove_separators
from .errors import InvalidFormat, ValidationError, stdnum_errors

_WHAT = "NHS number"


def compact(number: str) -> str:
    """Remove separators (space, dash, dot) and surrounding whitespace."""
    return remove_separators(as_text(number, _WHAT))


def validate(number: str) -> str:
    """Return the compact NHS number (10 digits) or raise a ValidationError subclass."""
    number = compact(number)
    if not number.isascii():
        raise InvalidFormat(f"{_WHAT}: expected ten digits")
    with stdnum_errors(_WHAT):
        return _nhs.validate(number)


def is_valid(number: str) -> bool:
    try:
        validate(number)
    except ValidationError:
        return False
    return True


def format(number: str) -> str:
    """`186 091 3903`."""
    return _nhs.format(compact(number))


def generate(rng: random.Random) -> str:
    """A random valid compact NHS number: nine random digits and the one check digit stdnum's checksum
    accepts (drawn again where none does: a check of 10 is never issued)."""
    while True:
        body = "".join(rng.choice("0123456789") for _ in range(9))
        for digit in "0123456789":
            if _nhs.checksum(body + digit) == 0:
                return body + digit
