"""Split a person's name into first and last names, read the gender the text shows,
and decide which known person a new mention refers to."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import regex

from .names import NameData

_TOKEN = regex.compile(r"\S+")


@dataclass(frozen=True)
class NameParts:
    """A mention split into `given` and `family` pieces as written.

    `tokens` are `(start, end, role)` in the mention, role "given", "family" or
    "initial" (a given-name initial such as `J.`); `single` is True when the
    mention is one word whose role the text does not tell.
    """

    tokens: tuple[tuple[int, int, str], ...]
    given: str
    family: str
    initial: str
    single: bool

    @property
    def given_key(self) -> str:
        return self.given.casefold()

    @property
    def family_key(self) -> str:
        return self.family.casefold()


def _is_caps(word: str) -> bool:
    letters = [c for c in word if c.isalpha()]
    return len(letters) >= 2 and all(c.isupper() for c in letters)


def _is_initial(word: str) -> bool:
    return bool(regex.fullmatch(r"\p{Lu}\.?(?:-\p{Lu}\.?)?", word))


def split_name(value: str, data: NameData) -> NameParts:
    """`Jean Dupont`, `DUPONT Jean`, `J. Dupont`, `Jean-Pierre de La Fontaine`, `Dupont`."""
    words = [(m.start(), m.end(), m.group()) for m in _TOKEN.finditer(value)]
    particles = set(data.rules.get("particles", ()))
    roles: list[str]
    if len(words) == 1:
        s, e, w = words[0]
        role = "family" if not data.is_first_name(w) or _is_caps(w) else "given"
        parts = NameParts(((s, e, role),), w if role == "given" else "", w if role == "family" else "", "", True)
        return parts
    caps = [_is_caps(w) for _, _, w in words]
    if any(caps) and not all(caps):
        roles = ["family" if c else "given" for c in caps]
    else:
        start = len(words) - 1
        for i in range(1, len(words) - 1):
            if words[i][2].casefold().rstrip("'’") in particles or words[i][2].casefold() in particles:
                start = i
                break
        roles = ["given" if i < start else "family" for i in range(len(words))]
    roles = ["initial" if r == "given" and _is_initial(w) else r for r, (_, _, w) in zip(roles, words)]
    tokens = tuple((s, e, r) for (s, e, _), r in zip(words, roles))
    given = " ".join(w for (_, _, w), r in zip(words, roles) if r == "given")
    family = " ".join(w for (_, _, w), r in zip(words, roles) if r == "family")
    initial = next((w[0] for (_, _, w), r in zip(words, roles) if r == "initial"), "")
    return NameParts(tokens, given, family, initial, False)


def gender_from_context(text: str, start: int, end: int, data: NameData) -> str:
    """"m"/"f" when a title just before the name (M., Mme, Mr, Mrs...) or né/née just after says so."""
    before_m, before_f, after_m, after_f = _context_patterns(data)
    before = text[max(0, start - 16):start]
    after = text[end:end + 12]
    if before_m.search(before):
        return "m"
    if before_f.search(before):
        return "f"
    if after_f.match(after):
        return "f"
    if after_m.match(after):
        return "m"
    return ""


_PATTERNS: dict[int, tuple[regex.Pattern, ...]] = {}


def _context_patterns(data: NameData) -> tuple[regex.Pattern, ...]:
    if id(data) not in _PATTERNS:
        rules = data.rules

        def alt(key: str) -> str:
            return "|".join(regex.escape(w) for w in sorted(rules.get(key, ()), key=len, reverse=True)) or "(?!)"

        _PATTERNS[id(data)] = (
            regex.compile(rf"(?<!\w)(?:{alt('titles_male')})\s*$"),
            regex.compile(rf"(?<!\w)(?:{alt('titles_female')})\s*$"),
            regex.compile(rf"[\s,(]*(?:{alt('after_male')})(?!\w)"),
            regex.compile(rf"[\s,(]*(?:{alt('after_female')})(?!\w)"),
        )
    return _PATTERNS[id(data)]


@dataclass
class Person:
    """What the session knows of one person (originals only; never logged)."""

    given: str = ""
    family: str = ""
    initial: str = ""
    gender: str = ""

    def matches(self, parts: NameParts) -> bool:
        g, f = self.given.casefold(), self.family.casefold()
        if parts.single:
            word = (parts.given or parts.family).casefold()
            return word == f or word == g
        if parts.family_key and f and parts.family_key != f:
            return False
        if parts.family_key and not f:
            # known by the first name only: same first name needed
            return bool(parts.given_key) and parts.given_key == g
        if parts.given_key:
            return not g or g == parts.given_key
        if parts.initial:
            return not g or g[:1] == parts.initial.casefold()
        return True


class PeopleIndex:
    """The people of a session by their given and family names (casefolded), so that a mention
    is compared with the people who can match it, not with everyone. `update()` indexes the
    people appended or completed since (a person's names are only ever filled in)."""

    def __init__(self, people: list[Person]) -> None:
        self.people = people
        self._by_name: dict[str, set[int]] = {}
        self._indexed = 0

    def update(self, index: int | None = None) -> None:
        """Index the people appended since, and person `index` (its names filled in)."""
        for i in range(self._indexed, len(self.people)):
            self._add(i)
        self._indexed = len(self.people)
        if index is not None:
            self._add(index)

    def _add(self, i: int) -> None:
        person = self.people[i]
        for name in (person.given.casefold(), person.family.casefold()):
            if name:
                self._by_name.setdefault(name, set()).add(i)

    def candidates(self, parts: NameParts) -> Iterable[int]:
        """A superset of the people `parts` matches, in order."""
        keys: tuple[str, ...]
        if parts.single:
            keys = ((parts.given or parts.family).casefold(),)
        elif parts.family_key:  # same family name, or known by the same first name only
            keys = (parts.family_key, parts.given_key)
        else:  # a person whose first name is unknown matches too: everyone
            return range(len(self.people))
        return sorted(set().union(*(self._by_name.get(k, ()) for k in keys if k)))


def find_person(people: Sequence[Person], parts: NameParts, index: PeopleIndex | None = None) -> int | None:
    """Index of the one person this mention can refer to; None when none or several."""
    if index is None:
        index = PeopleIndex(list(people))
    index.update()
    found = [i for i in index.candidates(parts) if people[i].matches(parts)]
    if len(found) == 1:
        return found[0]
    if not found and not parts.single and parts.given and parts.family and " " not in parts.family:
        # "Dupont Jean" written family name first without capitals
        swapped = NameParts(parts.tokens, parts.family, parts.given, "", False)
        found = [i for i in index.candidates(swapped)
                 if people[i].given and people[i].family and people[i].matches(swapped)]
        if len(found) == 1:
            return found[0]
    return None
