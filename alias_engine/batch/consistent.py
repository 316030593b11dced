"""`batch --consistent`: one value, one placeholder, across a whole corpus, with no shared state.

A placeholder's number is not a counter (1, 2… in each text) but a 19-digit
number (about 63 bits) taken from HMAC-SHA256 over the label and the normalised value
(`alias_engine.masks.value_key`: case, spacing and separators as `mask` already
ignores them within a text). Every worker computes it alone, so "Jean Dupont" in
shard 3 and "JEAN DUPONT" in shard 900 are both `[PERSON_…same digits…]`, and
joins across documents survive masking.

The HMAC key is derived from the `--key-file` key by scrypt with a fixed salt and
a pinned cost (the same key always gives the same numbers, on every machine and
in every version); without the key, a placeholder cannot be tested against a
guessed value.

What it costs (docs/batch.md): placeholders are long (`[PERSON_6512704386418530917]`,
about 6 more tokens than `[PERSON_1]` for an LLM); `unmask` restores them as
written, but not the forms an LLM may rewrite (`[person 6512…]`), which it
recognises for numbers of up to 6 digits only; equal placeholders tell a reader
that two documents share a value (that is the point); two values of a label
collide with probability about n²/(2 × 9·10¹⁸) for n distinct values (5·10⁻⁸
for a million).

>>> number = placeholder_number(b"corpus key")
>>> number("PERSON", "jean dupont") == number("PERSON", "jean dupont")
True
>>> number("PERSON", "jean dupont") == number("PERSON", "jeanne dupont")
False
>>> len(number("EMAIL", "a@b.fr")) == ID_DIGITS
True
"""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Callable

from ..placeholders import ID_DIGITS
from ..pseudonymise.vault import derive_key

SALT = b"alias-engine batch v1"
SCRYPT_LOG2_N = 17  # pinned: the numbers must not change when the vault's default cost does
_LOWEST, _COUNT = 10 ** (ID_DIGITS - 1), 9 * 10 ** (ID_DIGITS - 1)  # ID_DIGITS digits, no leading 0


def run_keys(key: bytes) -> tuple[bytes, str]:
    """From the user's key, by one scrypt in the driver: the HMAC key of `--consistent`, and a
    short check value that tells a resumed run whether its key is the first run's."""
    master = derive_key(key, SALT, SCRYPT_LOG2_N)
    check = hmac.new(master, b"same key?", hashlib.sha256).hexdigest()[:16]
    return hmac.new(master, b"placeholder numbers", hashlib.sha256).digest(), check


def placeholder_number(hmac_key: bytes) -> Callable[[str, str], str]:
    """`number(label, value_key)` for `alias_engine.masks.mask_spans`."""

    def number(label: str, value_key: str) -> str:
        digest = hmac.new(hmac_key, f"{label}\x00{value_key}".encode(), hashlib.sha256).digest()
        return str(_LOWEST + int.from_bytes(digest[:16], "big") % _COUNT)

    return number
