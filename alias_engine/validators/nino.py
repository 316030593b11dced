"""UK National Insurance number (NINO); python-stdnum has no module for it.

Two prefix letters, six digits, one suffix letter A–D: `QQ 12 34 56 C`.
Official exclusions: the first letter is never D, F, I, Q, U or V; the second
never D, F, I, O, Q, U or V; the prefixes BG, GB, KN, NK, NT, TN and ZZ are not
allocated. There is no check digit.

The suffix is optional here: some systems store and print the number without
it (it does not distinguish people), so `validate("QQ123456")` returns
"QQ123456". The detector only accepts a suffix-less number in the grouped form
(`QQ 12 34 56`), which is distinctive enough on its own.

>>> validate("ab 12 34 56 c")
'AB123456C'
"""

from __future__ import annotations

import random
import re

from ._util import as_text, remove_separators
from .errors import InvalidComponent, InvalidFormat, InvalidLength, ValidationError

_WHAT = "NINO"
FIRST_LETTERS = frozenset("ABCEGHJKLMNOPRSTWXYZ")
SECOND_LETTERS = frozenset("ABCEGHJKLMNPRSTWXYZ")
UNALLOCATED_PREFIXES = frozenset({"BG", "GB", "KN", "NK", "NT", "TN", "ZZ"})
SUFFIXES = frozenset("ABCD")
_SHAPE = re.compile(r"[A-Z]{2}[0-9]{6}[A-Z]?")


def compact(number: str) -> str:
    """Remove separators (space, dash, dot) and surrounding whitespace; uppercase."""
    return remove_separators(as_text(number, _WHAT))


def validate(number: str) -> str:
    """Return the compact NINO (8 or 9 characters) or raise a ValidationError subclass."""
    number = compact(number)
    if len(number) not in (8, 9):
        raise InvalidLength(f"{_WHAT}: expected 9 characters (8 without suffix), got {len(number)}")
    if not _SHAPE.fullmatch(number):
        raise InvalidFormat(f"{_WHAT}: expected two letters, six digits and a letter")
    prefix = number[:2]
    if prefix[0] not in FIRST_LETTERS or prefix[1] not in SECOND_LETTERS or prefix in UNALLOCATED_PREFIXES:
        raise InvalidComponent(f"{_WHAT}: prefix {prefix} is not allocated")
    if len(number) == 9 and number[8] not in SUFFIXES:
        raise InvalidComponent(f"{_WHAT}: suffix must be A, B, C or D, not {number[8]}")
    return number


def is_valid(number: str) -> bool:
    try:
        validate(number)
    except ValidationError:
        return False
    return True


def format(number: str) -> str:
    """`QQ 12 34 56 C` (without the last group when there is no suffix)."""
    number = compact(number)
    return " ".join([number[0:2], number[2:4], number[4:6], number[6:8]] + ([number[8:]] if number[8:] else []))


def generate(rng: random.Random) -> str:
    """A random valid compact NINO with its suffix."""
    while True:  # unallocated prefixes are 7 of 380 pairs
        prefix = rng.choice(sorted(FIRST_LETTERS)) + rng.choice(sorted(SECOND_LETTERS))
        if prefix not in UNALLOCATED_PREFIXES:
            break
    return f"{prefix}{rng.randint(0, 999999):06d}{rng.choice(sorted(SUFFIXES))}"
