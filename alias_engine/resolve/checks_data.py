"""The data of the model checks: the word lists and regexes of common.json → "model_checks", compiled once.

The format checks (format_checks.py), the span repairs (span_repair.py), the repeats
(repeats.py) and the sessions (pseudonymise/session.py) read this data, and the letterheads
(letterheads.py) load theirs with `word_set`: it lives here, apart from the steps, so that
each imports it without importing the others.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import regex

from ..detectors.patterns import PatternRules, compile_pattern

# What a check keeps of a span: (start, end) with the span's label, or (start, end, label) with another.
Piece = tuple[int, int] | tuple[int, int, str]


@dataclass(frozen=True)
class ModelChecks:
    """The data of the checks, compiled once from common.json → "model_checks" (and the URL rules)."""

    person_lead_words: frozenset[str] = frozenset()  # casefolded, without a final dot
    secret_not: regex.Pattern | None = None      # hashes and placeholders: never a SECRET
    service_hosts: regex.Pattern | None = None   # a host's first label that names a service (smtp, docs)
    patterns: PatternRules | None = None          # the URL rules: a public URL is no one's
    name_particles: frozenset[str] = frozenset()  # casefolded: "de", "van" inside a name
    name_stop_words: frozenset[str] = frozenset()  # casefolded: capitalised words after a name, not of it
    address_line_words: frozenset[str] = frozenset()  # casefolded: a line with one of them is no name
    building_words: frozenset[str] = frozenset()  # casefolded: the first word of a building's name


# A check of one label: (text, start, end, checks) → the pieces of the span that stay.
Check = Callable[[str, int, int, ModelChecks], list[Piece]]


def load_model_checks(section: dict, patterns: PatternRules | None = None) -> ModelChecks:
    """Compile the "model_checks" section of common.json; ValueError/TypeError on a bad one."""
    secret_not = section.get("secret_not")
    service = section.get("service_host_labels")
    return ModelChecks(frozenset(t.rstrip(".") for t in word_set(section, "person_lead_words")),
                       compile_pattern(secret_not, "model_checks.secret_not") if secret_not else None,
                       compile_pattern(service, "model_checks.service_host_labels") if service else None,
                       patterns, word_set(section, "name_particles"), word_set(section, "name_stop_words"),
                       word_set(section, "address_line_words"), word_set(section, "address_building_words"))


def word_set(section: dict, key: str, where: str = "model_checks") -> frozenset[str]:
    """The casefolded words of a rules section's list `key`; ValueError when it is no list of strings."""
    words = section.get(key, [])
    if not isinstance(words, list) or not all(isinstance(w, str) for w in words):
        raise ValueError(f"{where}.{key} must be a list of strings")
    return frozenset(w.casefold() for w in words)
