"""First and last names of several origins, with gender, read from rules/surrogates/."""

from __future__ import annotations

import json
import random
import unicodedata
from collections.abc import Collection
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from ..errors import AliasEngineError
from ..resources import data_dir

VOWELS = frozenset("aeiouyhàâäéèêëîïôöùûüœæ")


@dataclass(frozen=True)
class NameData:
    """`first[(origin, gender)]` and `last[origin]` name lists; lookups by casefolded name."""

    first: dict[tuple[str, str], tuple[str, ...]]
    last: dict[str, tuple[str, ...]]
    first_info: dict[str, tuple[str, str]]  # casefold name -> (gender, origin)
    last_origin: dict[str, str]
    rules: dict
    not_surrogates: frozenset[str] = frozenset()  # casefolded names that are also common words

    @property
    def origins(self) -> tuple[str, ...]:
        return tuple(sorted(self.last))

    def gender_of(self, given: str) -> str:
        """"m", "f" or "" for a first name (the first part of a compound name decides)."""
        info = self.first_info.get(given.casefold()) or self.first_info.get(given.split("-")[0].casefold())
        return info[0] if info else ""

    def origin_of(self, given: str, family: str) -> str:
        """The origin of a known last name, else of a known first name, else ""."""
        if family and family.casefold() in self.last_origin:
            return self.last_origin[family.casefold()]
        info = self.first_info.get(given.casefold()) if given else None
        return info[1] if info else ""

    def is_first_name(self, word: str) -> bool:
        return word.casefold() in self.first_info


def _rows(path: Path) -> list[list[str]]:
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except OSError as exc:
        raise AliasEngineError(f"surrogate data missing: {path.name} ({exc.strerror})") from None
    return [line.split("\t") for line in lines if line.strip() and not line.startswith("#")]


@lru_cache(maxsize=4)
def load_names(folder: Path | None = None) -> NameData:
    folder = folder or data_dir("rules") / "surrogates"
    first: dict[tuple[str, str], list[str]] = {}
    first_info: dict[str, tuple[str, str]] = {}
    for name, gender, origin in _rows(folder / "first_names.tsv"):
        first.setdefault((origin, gender), []).append(name)
        first_info.setdefault(name.casefold(), (gender, origin))
    last: dict[str, list[str]] = {}
    last_origin: dict[str, str] = {}
    for name, origin in _rows(folder / "last_names.tsv"):
        last.setdefault(origin, []).append(name)
        last_origin.setdefault(name.casefold(), origin)
    rules = json.loads((folder / "names.json").read_text(encoding="utf-8"))
    words = frozenset(row[0].casefold() for row in _rows(folder / "not_surrogates.txt"))
    return NameData({k: tuple(v) for k, v in first.items()}, {k: tuple(v) for k, v in last.items()},
                    first_info, last_origin, rules, words)


def ascii_fold(text: str) -> str:
    """`Hélène` → `Helene` (for e-mail addresses)."""
    return unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode("ascii")


def starts_with_vowel(word: str) -> bool:
    return word[:1].lower() in VOWELS


def pick_first(data: NameData, rng: random.Random, origin: str, gender: str, *,
               vowel: bool | None, avoid: frozenset[str] | set[str]) -> str:
    """A first name of `origin` (any when unknown) and `gender` ("" = either), not in `avoid` (casefolded)."""
    genders = (gender,) if gender in ("m", "f") else ("m", "f")
    pool = [n for g in genders for n in data.first.get((origin, g), ())]
    if not pool:
        pool = [n for (o, g), names in sorted(data.first.items()) if g in genders for n in names]
    return _pick(pool, rng, vowel, avoid | data.not_surrogates)


def pick_last(data: NameData, rng: random.Random, origin: str, *, vowel: bool | None,
              avoid: frozenset[str] | set[str]) -> str:
    """A last name of `origin` that is not also a first name (so a lone surname restores unambiguously)."""
    pool = [n for n in data.last.get(origin, ()) if not data.is_first_name(n)]
    if not pool:
        pool = [n for o in sorted(data.last) for n in data.last[o] if not data.is_first_name(n)]
    return _pick(pool, rng, vowel, avoid | data.not_surrogates)


def _pick(pool: list[str], rng: random.Random, vowel: bool | None, avoid: Collection[str]) -> str:
    choices = [n for n in pool if n.casefold() not in avoid
               and (vowel is None or starts_with_vowel(n) == vowel)]
    if not choices:
        choices = [n for n in pool if n.casefold() not in avoid]
    if not choices:
        raise AliasEngineError("ran out of surrogate names; add names to rules/surrogates")
    return rng.choice(sorted(choices))
