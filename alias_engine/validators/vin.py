"""Vehicle identification number (ISO 3779); python-stdnum has no module for it.

Seventeen characters, digits and capitals without I, O or Q: the maker's code
(WMI, three characters), six that describe the vehicle, eight that number it,
the last four digits. A VIN points at one car and so at its keeper, as a plate
does (IDENTIFIER). Only North American and Chinese VINs carry a check digit (the
ninth character), and a made-up one in a form often fails it, so the number is
checked by its shape: at least two letters, the last four characters digits.

>>> validate("vnk4 bh132 0t381542")
'VNK4BH1320T381542'
>>> is_valid("VNK4BH132OT381542")  # no O in a VIN
False
>>> is_valid("12345678901234567")  # a number, not a VIN
False
>>> is_valid("41118XXXXXXXX2207")  # a masked card number
False
"""

from __future__ import annotations

import random
import re

from ._util import as_text, remove_separators
from .errors import InvalidComponent, InvalidFormat, InvalidLength, ValidationError

_WHAT = "VIN"
_ALPHABET = "ABCDEFGHJKLMNPRSTUVWXYZ0123456789"
_SHAPE = re.compile(r"[A-HJ-NPR-Z1-9][A-HJ-NPR-Z0-9]{12}[0-9]{4}")


def compact(number: str) -> str:
    """Remove separators (space, dash, dot) and surrounding whitespace; uppercase."""
    return remove_separators(as_text(number, _WHAT))


def validate(number: str) -> str:
    """Return the compact number (17 characters) or raise a ValidationError subclass."""
    number = compact(number)
    if len(number) != 17:
        raise InvalidLength(f"{_WHAT}: expected 17 characters, got {len(number)}")
    if not _SHAPE.fullmatch(number):
        raise InvalidFormat(f"{_WHAT}: expected capitals and digits without I, O or Q, the last four digits")
    letters = [c for c in number if c.isalpha()]
    if len(letters) < 2:
        raise InvalidComponent(f"{_WHAT}: a maker's and a model's code have letters; {number} has fewer than two")
    if set(letters) == {"X"}:  # "37984XXXXXXXX3659": a masked card number ("WF0XXXGCDX…", a Ford's VIN, has others)
        raise InvalidFormat(f"{_WHAT}: digits masked with X are no VIN")
    return number


def is_valid(number: str) -> bool:
    try:
        validate(number)
    except ValidationError:
        return False
    return True


def format(number: str) -> str:
    """One block, as printed on a registration document: `VNK4BH1320T381542`."""
    return compact(number)


def generate(rng: random.Random) -> str:
    """A random valid VIN."""
    letters = _ALPHABET[:23]
    head = rng.choice(letters) + rng.choice(letters) + "".join(rng.choice(_ALPHABET) for _ in range(11))
    return head + "".join(rng.choice("0123456789") for _ in range(4))
