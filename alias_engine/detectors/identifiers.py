"""IBAN, NIR, SSN, NINO and card numbers: patterns from rules/identifiers.json, confirmed by a validator.

A candidate becomes a span only when its validator (alias_engine/validators)
accepts it; a value of the right shape that fails its checksum is left to the
keyword rules, which mask it as unverified when the context says what it is.
Each pattern is tried at every position (`overlapped=True`) so that a false
start cannot hide a real value; the patterns are bounded and anchored by
look-behinds, so the cost stays linear in the length of the text.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import regex

from ..errors import RulesError
from ..labels import LABELS
from ..resources import read_rule_file
from ..spans import Span, line_window_start
from ..validators import VALIDATORS, iban

RULES_FILE = "identifiers.json"
_WORD_CHAR = regex.compile(r"[\p{L}\p{N}_]")


@dataclass(frozen=True)
class IdentifierRule:
    """One kind of identifier: its label, validator, score and compiled patterns."""

    name: str
    label: str
    validator: str
    score: float
    langs: frozenset[str]
    patterns: tuple[regex.Pattern, ...]
    negative_context: bool
    required_context: regex.Pattern | None = None  # a weak checksum's name, read before the value

    def applies_to(self, lang: str) -> bool:
        return "*" in self.langs or lang in self.langs


@dataclass(frozen=True)
class IdentifierRules:
    """Everything compiled from rules/identifiers.json."""

    rules: tuple[IdentifierRule, ...]
    negative_context: regex.Pattern | None
    context_window: int


def _rules_error(path: Path, message: str) -> RulesError:
    return RulesError(f"{path}: {message}")


def _field(path: Path, entry: dict, key: str, kind: type | tuple[type, ...]) -> Any:
    if key not in entry:
        raise _rules_error(path, f"identifier {entry.get('name', '?')!r} lacks {key!r}")
    value = entry[key]
    if not isinstance(value, kind) or isinstance(value, bool) and kind is not bool:
        raise _rules_error(path, f"{key!r} of identifier {entry.get('name', '?')!r} has the wrong type")
    return value


def _compile(path: Path, pattern: str, flags: int = 0) -> regex.Pattern:
    try:
        return regex.compile(pattern, flags | regex.VERSION1)
    except regex.error as exc:
        raise _rules_error(path, f"bad pattern {pattern!r}: {exc}") from None


def _parse_rule(path: Path, entry: Any) -> IdentifierRule:
    if not isinstance(entry, dict):
        raise _rules_error(path, "every item of 'identifiers' must be an object")
    name = _field(path, entry, "name", str)
    label = _field(path, entry, "label", str)
    if label not in LABELS:
        raise _rules_error(path, f"identifier {name!r}: unknown label {label!r}")
    validator = _field(path, entry, "validator", str)
    if validator not in VALIDATORS:
        raise _rules_error(path, f"identifier {name!r}: unknown validator {validator!r}; "
                                 f"known: {', '.join(sorted(VALIDATORS))}")
    score = float(_field(path, entry, "score", (int, float)))
    if not 0.0 <= score <= 1.0:
        raise _rules_error(path, f"identifier {name!r}: score must be between 0 and 1")
    langs = _field(path, entry, "langs", list)
    patterns = _field(path, entry, "patterns", list)
    if not patterns or not all(isinstance(p, str) for p in patterns + langs):
        raise _rules_error(path, f"identifier {name!r}: 'patterns' and 'langs' must be lists of strings")
    required = entry.get("required_context", [])
    if not isinstance(required, list) or not all(isinstance(w, str) and w for w in required):
        raise _rules_error(path, f"identifier {name!r}: 'required_context' must be a list of non-empty strings")
    names = "|".join(regex.escape(w) for w in required)
    return IdentifierRule(name, label, validator, score, frozenset(langs),
                          tuple(_compile(path, p) for p in patterns),
                          bool(entry.get("negative_context", False)),
                          _compile(path, rf"(?<![\p{{L}}\p{{N}}])(?:{names})(?![\p{{L}}])", regex.IGNORECASE)
                          if required else None)


def _negative_context(path: Path, data: dict) -> regex.Pattern | None:
    """`keyword (filler)* punctuation* END`, matched against the text just before a candidate."""
    keywords = data.get("negative_keywords", [])
    fillers = data.get("negative_fillers", [])
    if not all(isinstance(w, str) and w for w in keywords + fillers):
        raise _rules_error(path, "'negative_keywords' and 'negative_fillers' must be lists of non-empty strings")
    if not keywords:
        return None

    def alternatives(words: list[str]) -> str:
        return "|".join(regex.escape(w) for w in sorted(set(words), key=len, reverse=True))

    sep = r"[\s:#.,()\-]*"
    filler = rf"(?:{sep}(?:{alternatives(fillers)})(?![\p{{L}}\p{{N}}]))*" if fillers else ""
    return _compile(path, rf"(?<![\p{{L}}\p{{N}}])(?:{alternatives(keywords)})(?![\p{{L}}\p{{N}}]){filler}{sep}$",
                    regex.IGNORECASE)


def load_identifier_rules(rules_dir: Path) -> IdentifierRules:
    """Read and compile `rules_dir`/identifiers.json; raise RulesError when it is missing or malformed."""
    path = Path(rules_dir) / RULES_FILE
    data = read_rule_file(path)
    if not isinstance(data.get("identifiers"), list):
        raise _rules_error(path, "expected an object with an 'identifiers' list")
    window = data.get("context_window", 40)
    if not isinstance(window, int) or isinstance(window, bool) or not 0 <= window <= 1000:
        raise _rules_error(path, "'context_window' must be an integer between 0 and 1000")
    rules = tuple(_parse_rule(path, entry) for entry in data["identifiers"])
    return IdentifierRules(rules, _negative_context(path, data), window)


def _fit_iban(text: str, start: int, end: int) -> int | None:
    """End of the IBAN starting at `start`: after as many characters as its country has, at a boundary."""
    length = iban.expected_length(text[start:start + 2])
    if length is None:
        return None
    seen = 0
    for pos in range(start, end):
        if text[pos].isalnum():
            seen += 1
            if seen == length:
                stop = pos + 1
                if stop < len(text) and _WORD_CHAR.match(text, stop):
                    return None
                return stop
    return None


def _after_negative_keyword(text: str, start: int, rules: IdentifierRules) -> bool:
    if rules.negative_context is None:
        return False
    return rules.negative_context.search(text, max(0, start - rules.context_window), start) is not None


def _named_before(text: str, start: int, names: regex.Pattern, rules: IdentifierRules) -> bool:
    """One of `names` ("NHS") is written before `start` on its line, within the context window."""
    return names.search(text, line_window_start(text, start, rules.context_window), start) is not None


@dataclass(frozen=True, order=True)
class IdentifierCandidate:
    """A value of the right shape for identifier `name`; `valid` when its validator accepts it."""

    start: int
    end: int
    name: str
    label: str
    valid: bool


def _trim_letters(text: str, start: int, end: int) -> int:
    """Drop trailing groups without a digit (a word after an IBAN of the wrong length)."""
    while True:
        cut = max(text.rfind(" ", start, end), text.rfind("-", start, end))
        if cut <= start or any(ch.isdigit() for ch in text[cut + 1:end]):
            return end
        end = cut


def identifier_candidates(text: str, lang: str, rules: IdentifierRules) -> list[IdentifierCandidate]:
    """Every value of an identifier's shape in `text`, valid or not, except those after a negative keyword
    and those whose rule asks for its name before them on their line (`required_context`: "NHS").

    For the keyword rules: a value that fails its checksum is still masked
    (unverified) when the context says what it is.
    """
    found: set[IdentifierCandidate] = set()
    for rule in rules.rules:
        if not rule.applies_to(lang):
            continue
        is_valid = VALIDATORS[rule.validator].is_valid
        for pattern in rule.patterns:
            for match in pattern.finditer(text, overlapped=True):
                start, end = match.span()
                if rule.validator == "iban":
                    fitted = _fit_iban(text, start, end)
                    end = _trim_letters(text, start, end) if fitted is None else fitted
                if rule.negative_context and _after_negative_keyword(text, start, rules):
                    continue
                if rule.required_context and not _named_before(text, start, rule.required_context, rules):
                    continue
                found.add(IdentifierCandidate(start, end, rule.name, rule.label, is_valid(text[start:end])))
    return sorted(found)


def find_identifiers(text: str, lang: str, rules: IdentifierRules) -> list[Span]:
    """Validated identifier spans in `text` (normalised): IBAN, NIR, SSN, NINO, card numbers and the other
    kinds of rules/identifiers.json, sorted.

    Spans of different kinds may overlap (rarely: the same digits valid as two
    kinds); the merger resolves them.
    """
    score = {rule.name: rule.score for rule in rules.rules}
    return sorted({Span(c.start, c.end, c.label, score[c.name], "validator")
                   for c in identifier_candidates(text, lang, rules) if c.valid})
