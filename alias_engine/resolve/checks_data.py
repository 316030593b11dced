"""The data of the model checks, compiled once: the regexes of common.json → "model_checks" and the
words of the language folders (rules/<lang>/language.json → "words", united over the languages).

The format checks (format_checks.py), the span repairs (span_repair.py), the repeats
(repeats.py) and the sessions (pseudonymise/session.py) read this data, and the letterheads
(letterheads.py) load theirs with `word_set`: it lives here, apart from the steps, so that
each imports it without importing the others.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from functools import lru_cache

import regex

from ..detectors.patterns import PatternRules, compile_pattern, phrases

# What a check keeps of a span: (start, end) with the span's label, or (start, end, label) with another.
Piece = tuple[int, int] | tuple[int, int, str]


@dataclass(frozen=True)
class ModelChecks:
    """The data of the checks, compiled once from common.json → "model_checks", the languages' words
    and the URL rules."""

    person_lead_words: frozenset[str] = frozenset()  # casefolded, without a final dot
    secret_not: regex.Pattern | None = None      # hashes and placeholders: never a SECRET
    service_hosts: regex.Pattern | None = None   # a host's first label that names a service (smtp, docs)
    patterns: PatternRules | None = None          # the URL rules: a public URL is no one's
    name_particles: frozenset[str] = frozenset()  # casefolded: "de", "van" inside a name
    name_stop_words: frozenset[str] = frozenset()  # casefolded: capitalised words after a name, not of it
    address_line_words: frozenset[str] = frozenset()  # casefolded: a line with one of them is no name
    building_words: frozenset[str] = frozenset()  # casefolded: the first word of a building's name
    # The words read by the text's language (OWN_WORD_KEYS): (language, key, casefolded words)
    own_words: tuple[tuple[str, str, frozenset[str]], ...] = ()
    # A couple: a given name, "&" or a couple connector, and a full name ("Owen & Bea MacLeod" is "Owen" and
    # "Bea MacLeod"; "Brooks & Dunn" stays one span).
    couple: regex.Pattern = regex.compile(r"(?!)")
    address_lead: regex.Pattern = regex.compile(r"(?!)")  # words before an address, not of it: "outside "
    # The town a deed writes before the street: "demeurant à ANNECY (74000), 4 rue …".
    town_before: regex.Pattern = regex.compile(r"(?!)")
    example_value: regex.Pattern | None = None  # an example written where a code goes: "sk_test_YOUR_KEY"
    office_titles: frozenset[str] = frozenset()  # casefolded: "dr", "maître": after one, French "M." is an initial
    # A name that is a thing's: "'s disease", " Prize" after it ("Crohn's disease", "Turner Prize"), "maladie de",
    # "lycée", "rue" before it ("sarcome de Kaposi", "lycée Jules-Ferry").
    eponym_after: regex.Pattern = regex.compile(r"(?!)")
    eponym_before: regex.Pattern = regex.compile(r"(?!)")
    eponym_start: regex.Pattern = regex.compile(r"(?!)")  # the same words starting the span: "rue jean jaurès"
    merchant_before: regex.Pattern | None = None  # a statement line's card or debit code: "CB ", "DD ", "CARD 4921 "

    def words_of(self, lang: str, key: str) -> frozenset[str]:
        """The words `key` (one of OWN_WORD_KEYS) of the language `lang`; of every language when `lang`
        is none of them."""
        for name, own_key, words in self.own_words:
            if name == lang and own_key == key:
                return words
        return _united(tuple(words for _, own_key, words in self.own_words if own_key == key))


@lru_cache(maxsize=4)
def _united(word_sets: tuple[frozenset[str], ...]) -> frozenset[str]:
    return frozenset().union(*word_sets)


# A check of one label: (text, start, end, checks) → the pieces of the span that stay.
Check = Callable[[str, int, int, ModelChecks], list[Piece]]


# The word lists of the checks: each language's, in rules/<lang>/language.json → "words" (language.py).
# Those of OWN_WORD_KEYS are also read by the text's language alone: English writes "M. Young" for an
# initial where French "M." is Monsieur, a word of its person_lead_words.
OWN_WORD_KEYS = ("lower_case_words", "person_lead_words")
WORD_KEYS = ("person_lead_words", "name_particles", "name_stop_words", "address_line_words", "address_building_words",
             "couple_connectors", "address_lead_words", "town_lead_words", "eponym_words", "eponym_lead_words",
             "office_titles")


def load_model_checks(section: dict, patterns: PatternRules | None = None,
                      words: Mapping[str, Iterable[str]] | None = None,
                      own_words: Mapping[str, Mapping[str, frozenset[str]]] | None = None) -> ModelChecks:
    """Compile the "model_checks" section of common.json and the word lists `words` (key → words: the
    languages' words united, `Languages.word_sets`) and `own_words` (language → key of OWN_WORD_KEYS →
    that language's words, without a final dot); ValueError/TypeError on a bad one, or on a word list
    left in the section (its words are a language's)."""
    misplaced = sorted(set(section) & set(WORD_KEYS))
    if misplaced:
        raise ValueError(f"model_checks.{misplaced[0]}: a language's words, in rules/<lang>/language.json → words")
    given = words or {}
    secret_not = section.get("secret_not")
    service = section.get("service_host_labels")
    example = section.get("example_value")
    merchant = section.get("merchant_before")
    # "maladie de", "lycée", "rue": the words before a name that make it a thing's, and their "de"/"d'"
    eponym_lead = (r"(?i:" + phrases(word_set(given, "eponym_lead_words", "words"))
                   + r")[ \t]+(?:(?i:de|du|des)[ \t]+|[dD]['’])?")
    return ModelChecks(frozenset(t.rstrip(".") for t in word_set(given, "person_lead_words", "words")),
                       compile_pattern(secret_not, "model_checks.secret_not") if secret_not else None,
                       compile_pattern(service, "model_checks.service_host_labels") if service else None,
                       patterns, word_set(given, "name_particles", "words"), word_set(given, "name_stop_words", "words"),
                       word_set(given, "address_line_words", "words"),
                       word_set(given, "address_building_words", "words"),
                       tuple((lang, key, frozenset(w.rstrip(".") for w in words))
                             for lang, by_key in (own_words or {}).items() for key, words in by_key.items()),
                       # "Anne and Marc Dupont": a first name and a connector before a first name and a surname
                       regex.compile(r"(\p{Lu}\p{Ll}+(?:-\p{Lu}\p{Ll}+)?)[ \t]+(?:&|"
                                     + phrases(word_set(given, "couple_connectors", "words"))
                                     + r")[ \t]+(?=\p{Lu}[\p{Ll}.]*[ \t]+\p{Lu})"),
                       regex.compile(r"(?i:(?:" + phrases(word_set(given, "address_lead_words", "words")) + r")\s+)"),
                       # "demeurant à ANNECY (74000), 4 rue …"
                       regex.compile(r"(?i:" + phrases(word_set(given, "town_lead_words", "words")) + r")\s+"
                                     r"((?-i:\p{Lu})[\p{L}\-'’ ]{1,40}?\s*\([^()\n]{1,30}\),\s*)\Z"),
                       example_value=compile_pattern(example, "model_checks.example_value") if example else None,
                       office_titles=word_set(given, "office_titles", "words"),
                       eponym_after=regex.compile(r"(?:['’]s)?[ \t]+(?i:" + phrases(word_set(given, "eponym_words", "words"))
                                                  + r")(?![\p{L}])"),
                       eponym_before=regex.compile(r"(?<![\p{L}])" + eponym_lead + r"\Z"),
                       merchant_before=compile_pattern(merchant, "model_checks.merchant_before") if merchant else None,
                       eponym_start=regex.compile(eponym_lead + r"(?=\p{L})"))


def word_set(section: Mapping[str, Iterable[str]], key: str, where: str = "model_checks") -> frozenset[str]:
    """The casefolded words of a rules section's list (or set) `key`; ValueError when it is no list of strings."""
    words = section.get(key, [])
    if not isinstance(words, (list, tuple, set, frozenset)) or not all(isinstance(w, str) for w in words):
        raise ValueError(f"{where}.{key} must be a list of strings")
    return frozenset(w.casefold() for w in words)
