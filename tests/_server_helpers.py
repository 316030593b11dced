"""Shared by the server tests: the real Engine (the model loads once per test run) and
the values planted in requests, which the upstream must never receive."""

from __future__ import annotations

import functools

from alias_engine import Engine

NAME = "Jean Dupont"
EMAIL = "jean.dupont@example.fr"
IBAN = "FR76 3000 6000 0112 3456 7890 189"
PHONE = "06 12 34 56 78"
# the value under the most scrutiny: with é and an emoji near it, so byte cuts split UTF-8 characters
PROMPT = f"Bonjour 😀, je suis {NAME}, écrivez à {EMAIL} ; IBAN {IBAN}, téléphone {PHONE}. Merci — à bientôt."
PLANTED = (EMAIL, "3000 6000 0112", PHONE, "Dupont")


@functools.lru_cache(maxsize=1)
def engine() -> Engine:
    return Engine(threads=1)


def leaked(bodies) -> list[str]:
    """The planted values found in any of `bodies` (bytes as received by the upstream)."""
    text = "\n".join(b.decode("utf-8") for b in bodies)
    return [value for value in PLANTED if value in text]
