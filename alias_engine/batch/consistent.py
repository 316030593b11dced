"""`batch --consistent`: one value, one placeholder, across a whole corpus, with no shared state.

A placeholder's number is not a counter (1, 2… in each text) but the first 16
hex digits (64 bits) of HMAC-SHA256 over the label and the normalised value
(`alias_engine.masks.value_key`: case, spacing and separators as `mask` already
ignores them within a text). Every worker computes it alone, so "Jean Dupont" in
shard 3 and "JEAN DUPONT" in shard 900 are both `[PERSON_…same digits…]`, and
joins across documents survive masking.

The HMAC key is derived from the `--key-file` key by scrypt with a fixed salt
(the same key always gives the same numbers, on every machine); without the key,
a placeholder cannot be tested against a guessed value.

What it costs (docs/batch.md): placeholders are long (`[PERSON_9f86d081884c7d65]`,
about 8 more tokens than `[PERSON_1]` for an LLM); `unmask` restores them as
written, but not the forms an LLM may rewrite (`[person 9f86…]`), which it
recognises for small numbers only; equal placeholders tell a reader that two
documents share a value (that is the point); two values collide with
probability about n²/2⁶⁵ for n distinct values of a label (1e-8 for a million).

>>> number = placeholder_number(b"corpus key")
>>> number("PERSON", "jean dupont") == number("PERSON", "jean dupont")
True
>>> number("PERSON", "jean dupont") == number("PERSON", "jeanne dupont")
False
>>> len(number("EMAIL", "a@b.fr"))
16
"""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Callable

from ..pseudonymise.vault import derive_key

SALT = b"alias-engine batch --consistent placeholder numbers v1"
DIGITS = 16


def consistent_key(key: bytes) -> bytes:
    """The HMAC key of `--consistent` (scrypt of the user's key, fixed salt): derived once, in the driver."""
    return derive_key(key, SALT)


def placeholder_number(hmac_key: bytes) -> Callable[[str, str], str]:
    """`number(label, value_key)` for `alias_engine.masks.mask_spans`."""

    def number(label: str, value_key: str) -> str:
        message = f"{label}\x00{value_key}".encode()
        return hmac.new(hmac_key, message, hashlib.sha256).hexdigest()[:DIGITS]

    return number
