"""Payment card numbers (PAN): Luhn through python-stdnum plus brand prefixes and lengths.

A number is valid when its issuer prefix belongs to a known brand, its length is
one that brand issues, and the Luhn check passes. Requiring the brand makes the
Luhn check meaningful: a SIRET (14 digits, Luhn-valid by construction), a phone
number or an EAN that happens to pass Luhn is rejected unless it also looks like
a real card.

Deliberate omissions, to keep false positives down: 13-digit Visa (no longer
issued; EAN-13 codes start with 4 too), 12–15-digit Maestro (legacy), 14-digit
Diners numbers outside the 36 range. French CB cards are co-branded and use
Visa or Mastercard ranges, so they are covered by those.

>>> validate("4111 1111 1111 1111")
'4111111111111111'
"""

from __future__ import annotations

import random

from stdnum import luhn as _luhn

from ._util import as_text, remove_separators
from .errors import InvalidChecksum, InvalidComponent, InvalidFormat, InvalidLength, ValidationError

_WHAT = "card number"

# (brand, lowest prefix, highest prefix, lengths): a number belongs to the brand
# whose range holds its first len(lowest) digits; the longest matching prefix wins.
BRANDS: tuple[tuple[str, str, str, tuple[int, ...]], ...] = (
    ("visa", "4", "4", (16, 19)),
    ("mastercard", "51", "55", (16,)),
    ("mastercard", "2221", "2720", (16,)),
    ("amex", "34", "34", (15,)),
    ("amex", "37", "37", (15,)),
    ("discover", "6011", "6011", (16, 17, 18, 19)),
    ("discover", "644", "649", (16, 17, 18, 19)),
    ("discover", "65", "65", (16, 17, 18, 19)),
    ("diners", "36", "36", (14, 15, 16, 17, 18, 19)),
    ("diners", "300", "305", (16, 17, 18, 19)),
    ("diners", "3095", "3095", (16, 17, 18, 19)),
    ("diners", "38", "39", (16, 17, 18, 19)),
    ("jcb", "3528", "3589", (16, 17, 18, 19)),
    ("unionpay", "62", "62", (16, 17, 18, 19)),
    ("maestro", "5018", "5018", (16, 17, 18, 19)),
    ("maestro", "5020", "5020", (16, 17, 18, 19)),
    ("maestro", "5038", "5038", (16, 17, 18, 19)),
    ("maestro", "5893", "5893", (16, 17, 18, 19)),
    ("maestro", "6304", "6304", (16, 17, 18, 19)),
    ("maestro", "6759", "6759", (16, 17, 18, 19)),
    ("maestro", "6761", "6763", (16, 17, 18, 19)),
    ("mir", "2200", "2204", (16, 17, 18, 19)),
)
MIN_LENGTH = 14
MAX_LENGTH = 19


def compact(number: str) -> str:
    """Remove separators (space, dash, dot) and surrounding whitespace."""
    return remove_separators(as_text(number, _WHAT))


def _brand_entry(number: str) -> tuple[str, str, str, tuple[int, ...]] | None:
    best = None
    for entry in BRANDS:
        _, low, high, _ = entry
        if low <= number[:len(low)] <= high and (best is None or len(low) > len(best[1])):
            best = entry
    return best


def brand(number: str) -> str | None:
    """The brand whose issuer prefix `number` starts with ("visa", "amex"...), or None."""
    entry = _brand_entry(compact(number))
    return None if entry is None else entry[0]


def validate(number: str) -> str:
    """Return the compact card number or raise a ValidationError subclass."""
    number = compact(number)
    if not number.isascii() or not number.isdigit():
        raise InvalidFormat(f"{_WHAT}: only digits are allowed")
    if not MIN_LENGTH <= len(number) <= MAX_LENGTH:
        raise InvalidLength(f"{_WHAT}: {len(number)} digits, cards have {MIN_LENGTH}–{MAX_LENGTH}")
    entry = _brand_entry(number)
    if entry is None:
        raise InvalidComponent(f"{_WHAT}: prefix {number[:4]} belongs to no known card brand")
    if len(number) not in entry[3]:
        raise InvalidLength(f"{_WHAT}: {entry[0]} numbers do not have {len(number)} digits")
    if _luhn.checksum(number) != 0:
        raise InvalidChecksum(f"{_WHAT}: the Luhn check fails")
    return number


def is_valid(number: str) -> bool:
    try:
        validate(number)
    except ValidationError:
        return False
    return True


def format(number: str) -> str:
    """Groups as printed on the card: 4-6-5 (Amex), 4-6-4 (14 digits), else groups of four."""
    number = compact(number)
    if len(number) in (14, 15):
        return f"{number[:4]} {number[4:10]} {number[10:]}"
    return " ".join(number[i:i + 4] for i in range(0, len(number), 4))


def generate(rng: random.Random, brand_name: str | None = None, length: int | None = None) -> str:
    """A random valid compact card number of `brand_name` (default: any brand of BRANDS)."""
    if brand_name is None:  # every brand equally likely, whatever its number of ranges
        brand_name = rng.choice(sorted({e[0] for e in BRANDS if length is None or length in e[3]}))
    entries = [e for e in BRANDS if e[0] == brand_name]
    if not entries:
        raise InvalidComponent(f"{_WHAT}: unknown brand {brand_name!r}")
    while True:  # a longer prefix of another brand can shadow the one drawn: draw again
        name, low, high, lengths = rng.choice(entries)
        if length is not None and length not in lengths:
            entries = [e for e in entries if length in e[3]]
            if not entries:
                raise InvalidLength(f"{_WHAT}: no {brand_name} card has {length} digits")
            continue
        size = rng.choice(lengths) if length is None else length
        prefix = str(rng.randint(int(low), int(high))).zfill(len(low))
        body = prefix + "".join(rng.choice("0123456789") for _ in range(size - len(prefix) - 1))
        number = body + _luhn.calc_check_digit(body)
        if brand(number) == name:
            return number
