"""The languages the rules know (one folder each: rules/fr/, rules/en/), and a guess of a text's.

A language folder holds `keywords.json` (its keyword rules, detectors/keywords.py)
and `language.json`: `stop_words` (frequent words that guess the language),
`phone_regions` (the regions whose national phone formats are tried, in order),
`not_names` (greetings and sign-offs that are never a name alone) and
`date_orders` (how numeric dates are written: "dmy", "mdy").
`rules/languages.json` gives the order the folders are read in and the
`default` language of a text that gives no sign of one. docs/rules.md says how
to add a language.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import regex

from .errors import RulesError
from .resources import data_dir, read_rule_file

_WORD = regex.compile(r"\p{L}+")
LANGUAGE_KEYS = frozenset({"lang", "description", "comment", "stop_words", "phone_regions", "not_names",
                           "date_orders"})
DATE_ORDERS = ("dmy", "mdy")


@dataclass(frozen=True)
class Language:
    name: str
    stop_words: frozenset[str] = frozenset()
    phone_regions: tuple[str, ...] = ()
    not_names: frozenset[str] = frozenset()  # casefolded
    date_orders: tuple[str, ...] = ()  # how numeric dates are written: "dmy", "mdy"


@dataclass(frozen=True)
class Languages:
    """The language folders of a rules directory, in order, and the default language."""

    all: tuple[Language, ...]
    default: str

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(lang.name for lang in self.all)

    @property
    def date_orders(self) -> tuple[str, ...]:
        """The numeric date orders of every language, in order: keyword rules of every language apply
        to every text, so a date is read in any order some language writes it in."""
        return tuple(dict.fromkeys(order for lang in self.all for order in lang.date_orders))

    def guess(self, text: str, sample: int = 5000) -> str:
        """The language with the most stop words in the first `sample` characters (the default on a tie)."""
        counts = dict.fromkeys(self.names, 0)
        for word in _WORD.findall(text[:sample].lower()):
            for lang in self.all:
                counts[lang.name] += word in lang.stop_words
        best = max(counts.values(), default=0)
        tied = [name for name, n in counts.items() if n == best]
        return self.default if self.default in tied else tied[0]


def language_folders(rules_dir: Path) -> list[Path]:
    """The language folders of `rules_dir` (those holding a language.json), in the order of languages.json."""
    order = read_rule_file(rules_dir / "languages.json").get("order", [])
    found = sorted(p.parent for p in Path(rules_dir).glob("*/language.json"))
    by_name = {p.name: p for p in found}
    missing = [name for name in order if name not in by_name]
    if missing:
        raise RulesError(f"{rules_dir / 'languages.json'}: no folder {', '.join(missing)} with a language.json")
    return [by_name[name] for name in order] + [p for p in found if p.name not in order]


def load_languages(rules_dir: Path) -> Languages:
    """Read every language.json of `rules_dir`; RulesError on a malformed one."""
    rules_dir = Path(rules_dir)
    languages = []
    for folder in language_folders(rules_dir):
        path = folder / "language.json"
        data = read_rule_file(path)
        unknown = set(data) - LANGUAGE_KEYS
        if unknown or data.get("lang", folder.name) != folder.name:
            raise RulesError(f"{path}: unknown key(s) {', '.join(sorted(unknown))}" if unknown
                             else f"{path}: \"lang\" must be the folder's name, {folder.name!r}")
        try:
            languages.append(Language(
                folder.name,
                frozenset(w.lower() for w in data.get("stop_words", {}).get("words", [])),
                tuple(data.get("phone_regions", {}).get("regions", [])),
                frozenset(w.casefold() for w in data.get("not_names", {}).get("words", [])),
                tuple(data.get("date_orders", {}).get("orders", []))))
        except (AttributeError, TypeError):
            raise RulesError(f"{path}: stop_words, phone_regions, not_names and date_orders are objects with a list "
                             "('words', 'regions' or 'orders')") from None
        if set(languages[-1].date_orders) - set(DATE_ORDERS):
            raise RulesError(f"{path}: date_orders.orders must be among {', '.join(DATE_ORDERS)}")
    if not languages:
        raise RulesError(f"{rules_dir}: no language folder (a folder with a language.json)")
    default = read_rule_file(rules_dir / "languages.json").get("default", languages[0].name)
    if default not in [lang.name for lang in languages]:
        raise RulesError(f"{rules_dir / 'languages.json'}: default {default!r} is no language folder")
    return Languages(tuple(languages), default)


@lru_cache(maxsize=1)
def shipped_languages() -> Languages:
    return load_languages(data_dir("rules"))


def guess_language(text: str, sample: int = 5000) -> str:
    """The language of `text` among the shipped rules' languages ("fr" or "en")."""
    return shipped_languages().guess(text, sample)
