"""Faker instances per locale, reseeded from the document's random generator."""

from __future__ import annotations

import random

from faker import Faker


class Fakers:
    """Creates one Faker per locale once; reseeds it the first time a document uses it."""

    def __init__(self) -> None:
        self._instances: dict[str, Faker] = {}
        self._seeded: set[str] = set()

    def new_document(self) -> None:
        self._seeded.clear()

    def get(self, locale: str, rng: random.Random) -> Faker:
        fk = self._instances.get(locale)
        if fk is None:
            fk = Faker(locale)
            _canonicalise(fk)
            self._instances[locale] = fk
        if locale not in self._seeded:
            fk.seed_instance(rng.getrandbits(32))
            self._seeded.add(locale)
        return fk


def _canonicalise(fk: Faker) -> None:
    """Sort list attributes that some Faker providers build from a set (order varies with PYTHONHASHSEED)."""
    for provider in fk.providers:
        for name in _SET_BUILT:
            value = getattr(provider, name, None)
            if isinstance(value, list):
                setattr(provider, name, sorted(value))


# Provider attributes Faker builds from sets (found by diffing runs under different PYTHONHASHSEED).
_SET_BUILT = ("cities",)
