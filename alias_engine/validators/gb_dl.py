"""UK (Great Britain) driving licence number (DVLA); python-stdnum has no module for it.

Sixteen characters: the first five letters of the surname (padded with 9s), the
decade digit of the birth year, the birth month (plus 50 for a woman), the birth
day, the year's last digit, two initials (padded with 9), a digit and two check
characters: `MORGA753116SM9IJ`. The check characters' algorithm is not published,
so the number is checked by its shape and its date only.

>>> validate("morga 753116 sm9ij")
'MORGA753116SM9IJ'
>>> is_valid("MORGA773116SM9IJ")  # no 23rd month
False
"""

from __future__ import annotations

import random
import re

from ._util import as_text, remove_separators
from .errors import InvalidComponent, InvalidFormat, InvalidLength, ValidationError

_WHAT = "UK driving licence"
_SHAPE = re.compile(r"[A-Z][A-Z9]{4}[0-9]{6}[A-Z][A-Z9][0-9][A-Z0-9]{2}")


def compact(number: str) -> str:
    """Remove separators (space, dash, dot) and surrounding whitespace; uppercase."""
    return remove_separators(as_text(number, _WHAT))


def validate(number: str) -> str:
    """Return the compact number (16 characters) or raise a ValidationError subclass."""
    number = compact(number)
    if len(number) != 16:
        raise InvalidLength(f"{_WHAT}: expected 16 characters, got {len(number)}")
    if not _SHAPE.fullmatch(number):
        raise InvalidFormat(f"{_WHAT}: expected 5 letters (or 9s), 6 digits, 2 letters, a digit and 2 characters")
    surname = number[:5].rstrip("9")
    if "9" in surname:
        raise InvalidFormat(f"{_WHAT}: the surname's 9s pad its end only")
    month, day = int(number[6:8]) % 50, int(number[8:10])
    if not (1 <= month <= 12 and number[6] in "0156") or not 1 <= day <= 31:
        raise InvalidComponent(f"{_WHAT}: no birth date in {number[5:11]}")
    return number


def is_valid(number: str) -> bool:
    try:
        validate(number)
    except ValidationError:
        return False
    return True


def format(number: str) -> str:
    """`MORGA 753116 SM9IJ`."""
    number = compact(number)
    return " ".join([number[:5], number[5:11], number[11:]])


def generate(rng: random.Random) -> str:
    """A random valid compact number."""
    letters = "ABCDEFGHIJKLMNOPRSTUVWY"
    surname = "".join(rng.choice(letters) for _ in range(rng.randint(2, 5))).ljust(5, "9")
    month = rng.randint(1, 12) + rng.choice((0, 50))
    date = f"{rng.randint(0, 9)}{month:02d}{rng.randint(1, 28):02d}{rng.randint(0, 9)}"
    initials = rng.choice(letters) + rng.choice(letters + "9")
    return f"{surname}{date}{initials}9{rng.choice(letters)}{rng.choice(letters)}"
