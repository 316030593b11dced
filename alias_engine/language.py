"""A tiny French/English guess, enough to pick language-specific parsing hints."""

from __future__ import annotations

import regex

_WORD = regex.compile(r"\p{L}+")
_FRENCH = frozenset(
    "le la les un une des du de et est sont je tu il elle nous vous ils elles pour avec dans sur "
    "pas que qui au aux ce cette mon ma mes votre vos notre nos né née monsieur madame bonjour merci".split()
)
_ENGLISH = frozenset(
    "the a an and is are i you he she we they for with in on not that who to of this my your our "
    "his her born mr mrs dear hello thanks please".split()
)


def guess_language(text: str, sample: int = 5000) -> str:
    """Return "fr" or "en" from stop-word counts in the first `sample` characters."""
    fr = en = 0
    for word in _WORD.findall(text[:sample].lower()):
        fr += word in _FRENCH
        en += word in _ENGLISH
    return "fr" if fr > en else "en"
