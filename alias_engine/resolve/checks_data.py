"""The data of the model checks, compiled once: the regexes of common.json → "model_checks", the
URL rules and the languages' words (`Lexicon`, lexicon.py).

The format checks (format_checks.py) and the span repairs (span_repair.py) read this data: it
lives here, apart from the steps, so that each imports it without importing the others.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import regex

from ..detectors.patterns import PatternRules, compile_pattern
from ..language import WORD_KEYS
from .lexicon import Lexicon

# What a check keeps of a span: (start, end) with the span's label, or (start, end, label) with another.
Piece = tuple[int, int] | tuple[int, int, str]


@dataclass(frozen=True)
class ModelChecks:
    """The data of the checks, compiled once from common.json → "model_checks", the URL rules and
    the languages' words."""

    secret_not: regex.Pattern | None = None      # hashes and placeholders: never a SECRET
    service_hosts: regex.Pattern | None = None   # a host's first label that names a service (smtp, docs)
    patterns: PatternRules | None = None          # the URL rules: a public URL is no one's
    example_value: regex.Pattern | None = None  # an example written where a code goes: "sk_test_YOUR_KEY"
    merchant_before: regex.Pattern | None = None  # a statement line's card or debit code: "CB ", "DD ", "CARD 4921 "
    dose_after: regex.Pattern | None = None  # a medicine's dose after its name: " 90 mg", " LP 100 µg"
    lexicon: Lexicon = Lexicon()  # the languages' words
    licence_state: regex.Pattern | None = None  # a driving licence's issuing state before its number: "NSW "
    secret_named_before: regex.Pattern | None = None  # "memorable word, ", "password; the new one is ": a SECRET follows
    secret_after_login: regex.Pattern | None = None  # "admin / ", "ana@mail.fr / ": a login's password follows
    identifier_named_before: regex.Pattern | None = None  # "staff number ", "dossier n° ": a record's code follows
    machine_name: regex.Pattern | None = None  # "lux-db-02", "mx1": a server's name
    machine_context: regex.Pattern | None = None  # "Host: ", "réplique sur ": a machine's name follows


# A check of one label: (text, start, end, checks) → the pieces of the span that stay.
Check = Callable[[str, int, int, ModelChecks], list[Piece]]


def load_model_checks(section: dict, patterns: PatternRules | None = None, lexicon: Lexicon | None = None) -> ModelChecks:
    """Compile the "model_checks" section of common.json; ValueError/TypeError on a bad regex, or on a
    word list left in the section (its words are a language's)."""
    misplaced = sorted(set(section) & set(WORD_KEYS))
    if misplaced:
        raise ValueError(f"model_checks.{misplaced[0]}: a language's words, in rules/<lang>/language.json → words")

    def compiled(key: str) -> regex.Pattern | None:
        return compile_pattern(section[key], f"model_checks.{key}") if section.get(key) else None

    return ModelChecks(compiled("secret_not"), compiled("service_host_labels"), patterns, compiled("example_value"),
                       compiled("merchant_before"), compiled("dose_after"), lexicon or Lexicon(),
                       licence_state=compiled("licence_state"), secret_named_before=compiled("secret_named_before"),
                       secret_after_login=compiled("secret_after_login"),
                       identifier_named_before=compiled("identifier_named_before"),
                       machine_name=compiled("machine_name"), machine_context=compiled("machine_context"))

