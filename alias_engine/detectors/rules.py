"""Rule files → compiled rules, and the one entry point that runs every rule detector.

`load_rules(rules_dir)` reads rules/common.json (patterns, value shapes,
language-neutral keyword rules), the language folders (rules/fr/, rules/en/:
keywords.json and language.json, see language.py) and identifiers.json (checksum-validated
identifiers) once; `rule_detectors(rules)` are the identifier, pattern and keyword
(and table) detectors, each a Detector over normalised texts; `find_with_rules(text, lang, rules)`
runs them and returns what each found, for the resolve stage (resolve/); `detect_with_rules` is both. Schema and how to add a rule: docs/rules.md.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

import regex

from ..errors import RulesError
from ..labels import BUILTIN, LabelSet, LabelSpec
from ..language import Languages, language_folders, load_languages
from ..resolve import DEFAULT_THRESHOLD, Found, resolve
from ..resolve.checks_data import ModelChecks, load_model_checks
from ..resolve.lexicon import Lexicon
from ..resolve.structure import Fields
from ..resources import read_rule_file
from ..spans import Span, Suppression
from .base import Findings
from .identifiers import IdentifierRules, find_identifiers, load_identifier_rules
from .keywords import (
    DATE_ORDERS,
    KeywordRules,
    check_examples,
    expanded_gaps,
    find_keyword_spans,
    get_validator,
    load_keyword_rules,
    with_gaps,
)
from .patterns import PatternRules, compile_pattern, find_patterns, load_pattern_rules
from .tables import find_table_spans

COMMON_FILE = "common.json"
KEYWORDS_FILE = "keywords.json"  # in each language folder
LANGUAGE_KEYS = frozenset({"lang", "description", "keyword_rules"})


@dataclass(frozen=True)
class Rules:
    """Everything compiled once from the rules directory; keyword rules of all languages together."""

    identifiers: IdentifierRules
    patterns: PatternRules
    keywords: KeywordRules
    languages: Languages  # the language folders
    not_names: frozenset[str] = frozenset()  # casefolded words that are never a PERSON alone
    extra_patterns: tuple[ExtraPattern, ...] = ()  # plain patterns of extra rules files
    model_checks: ModelChecks = ModelChecks()  # what a label's format rules out in the model's spans
    # (regex, labels): what the regex's "span…" groups (or whole match) cover is not of these labels
    suppress_patterns: tuple[tuple[regex.Pattern, frozenset[str]], ...] = ()
    # (regex, label, reject): the "span" group (or whole match) is a value of that label, by its context
    label_patterns: tuple[tuple[regex.Pattern, str, regex.Pattern | None], ...] = ()
    lexicon: Lexicon = Lexicon()  # the languages' words (resolve/lexicon.py)
    fields: Fields = Fields()  # what a record's field names say of their values (resolve/structure.py)
    labels: LabelSet = BUILTIN  # the twelve and the labels the extra rules files declare


@dataclass(frozen=True)
class ExtraPattern:
    """A pattern an extra rules file declares: every match (that its validator accepts) is a span."""

    label: str
    pattern: regex.Pattern
    validator: Callable[[str], bool] | None
    score: float

    def find(self, text: str) -> list[Span]:
        source = "pattern" if self.validator is None else "validator"
        return [Span(m.start(), m.end(), self.label, self.score, source) for m in self.pattern.finditer(text)
                if m.end() > m.start() and (self.validator is None or self.validator(m.group()))]


def load_rules(rules_dir: Path, extra: Iterable[str | Path] = ()) -> Rules:
    """Read and compile every rules file of `rules_dir`, then the `extra` rules files (docs/rules.md:
    they may declare labels, values, keyword rules and patterns); RulesError on a missing or
    malformed one."""
    rules_dir = Path(rules_dir)
    if not rules_dir.is_dir():
        raise RulesError(f"rules directory not found: {rules_dir}")
    identifiers = load_identifier_rules(rules_dir)
    common_path = rules_dir / COMMON_FILE
    common = read_rule_file(common_path)
    languages = load_languages(rules_dir)
    if isinstance(common.get("phone"), dict):
        common["phone"] = {**common["phone"], "region_order": {lang.name: lang.phone_regions for lang in languages.all}}
    try:
        rejects = {name: compile_pattern(p, f"rejects.{name}") for name, p in common.get("rejects", {}).items()}
        patterns = load_pattern_rules(common, rejects["placeholder"], rejects["system_account"],
                                      rejects["secret_reference"])
    except (KeyError, TypeError, ValueError, AttributeError) as exc:
        raise RulesError(f"{common_path}: malformed pattern rules ({type(exc).__name__}: {exc})") from None
    rule_lists = [(COMMON_FILE, common.get("keyword_rules", []))]
    for folder in language_folders(rules_dir):
        path = folder / KEYWORDS_FILE
        data = read_rule_file(path)
        unknown = set(data) - LANGUAGE_KEYS
        if unknown:
            raise RulesError(f"{path}: unknown key(s) {', '.join(sorted(unknown))}")
        rule_lists.append((f"{folder.name}/{KEYWORDS_FILE}", data.get("keyword_rules", [])))
    values = dict(common.get("values", {}))
    extra_patterns: list[ExtraPattern] = []
    labels = BUILTIN
    for extra_file in extra:
        labels, declared_patterns = _load_extra_file(Path(extra_file), values, rule_lists, labels)
        extra_patterns += declared_patterns
    try:
        keywords = load_keyword_rules(rule_lists, values, common.get("gaps", {}), rejects,
                                      languages.date_orders or DATE_ORDERS, common.get("keyword_lists", {}),
                                      labels, languages.words("list_connectors"))
    except (KeyError, TypeError, ValueError, AttributeError, regex.error) as exc:
        raise RulesError(f"{rules_dir}: malformed keyword rule: {exc}") from None
    not_names = frozenset().union(*(lang.not_names for lang in languages.all))
    _check_pattern_examples(common, common_path)
    try:
        lexicon = Lexicon.from_languages(languages)  # the words of every language apply to every text
        gaps = expanded_gaps(common.get("gaps", {}))  # a part written once there is shared by the patterns below: ${name}
        model_checks = load_model_checks({key: with_gaps(value, gaps, f"model_checks.{key}")
                                          if isinstance(value, str) and key != "comment" else value
                                          for key, value in common.get("model_checks", {}).items()}, patterns, lexicon)
        suppress_patterns = tuple((_compiled_with_gaps(p["pattern"], gaps, f"suppress_patterns.{p['name']}"),
                                   frozenset(p["labels"])) for p in common.get("suppress_patterns", []))
        label_patterns = tuple(_label_pattern(p, rejects, labels, gaps) for p in common.get("label_patterns", []))
        if "letterheads" in common:
            raise ValueError("letterheads: its words are the languages', in rules/<lang>/language.json → words")
        fields = Fields.from_rules(common.get("fields", {}), lexicon, (rejects["system_account"], rejects["placeholder"]))
    except (KeyError, TypeError, ValueError, AttributeError) as exc:
        raise RulesError(f"{common_path}: malformed model_checks, suppress_patterns, label_patterns, letterheads "
                         f"or fields ({exc})") from None
    return Rules(identifiers, patterns, keywords, languages, not_names, tuple(extra_patterns), model_checks,
                 suppress_patterns, label_patterns, lexicon, fields, labels)


def _compiled_with_gaps(pattern: str, gaps: dict, where: str) -> regex.Pattern:
    return compile_pattern(with_gaps(pattern, gaps, where), where)


def _check_pattern_examples(common: dict, path: Path) -> None:
    """RulesError naming the pattern unless the examples of suppress_patterns and label_patterns have
    the shape of a keyword rule's (keywords.check_examples)."""
    for section in ("suppress_patterns", "label_patterns"):
        for i, spec in enumerate(common.get(section, [])):
            if isinstance(spec, dict):
                try:
                    check_examples(spec, f"{section}.{spec.get('name', i)}")
                except ValueError as exc:
                    raise RulesError(f"{path}: {exc}") from None


def _label_pattern(spec: dict, rejects: dict, labels: LabelSet,
                   gaps: dict) -> tuple[regex.Pattern, str, regex.Pattern | None]:
    if spec["label"] not in labels:
        raise ValueError(f"label_patterns.{spec['name']}: unknown label {spec['label']!r}")
    reject = rejects[spec["reject"]] if spec.get("reject") else None
    return _compiled_with_gaps(spec["pattern"], gaps, f"label_patterns.{spec['name']}"), spec["label"], reject


EXTRA_KEYS = frozenset({"description", "comment", "labels", "values", "keyword_rules", "patterns"})
LABEL_KEYS = frozenset({"name", "compare", "restore", "surrogate", "priority", "description", "comment"})
PATTERN_KEYS = frozenset({"label", "pattern", "validator", "score", "comment"})


def _load_extra_file(path: Path, values: dict, rule_lists: list,
                     labels: LabelSet) -> tuple[LabelSet, list[ExtraPattern]]:
    """`labels` with those an extra rules file declares, and its compiled patterns; its values and
    keyword rules go to the others' (compiled together)."""
    data = read_rule_file(path)
    unknown = set(data) - EXTRA_KEYS
    if unknown:
        raise RulesError(f"{path}: unknown key(s) {', '.join(sorted(unknown))}; known: {', '.join(sorted(EXTRA_KEYS))}")
    labels = declared_labels(path, data, labels)
    try:
        new_values = data.get("values", {})
        if not isinstance(new_values, dict):
            raise ValueError("values must be an object")
        clash = sorted(set(new_values) & set(values))
        if clash:
            raise ValueError(f"value name(s) already defined: {', '.join(clash)}")
        values.update(new_values)
        patterns = [_extra_pattern(raw, labels) for raw in data.get("patterns", [])]
    except (TypeError, ValueError, regex.error) as exc:
        raise RulesError(f"{path}: {exc}") from None
    rule_lists.append((str(path), data.get("keyword_rules", [])))
    return labels, patterns


def declare_labels(paths: Iterable[str | Path]) -> LabelSet:
    """The twelve and the labels the rules files `paths` declare, and nothing else: what restoring
    needs (`alias-engine unmask --rules FILE`) without compiling any rule."""
    labels = BUILTIN
    for path in paths:
        labels = declared_labels(Path(path), read_rule_file(Path(path)), labels)
    return labels


def declared_labels(path: Path, data: dict, labels: LabelSet) -> LabelSet:
    """`labels` and those of the rules file `data` read from `path`; RulesError naming the file."""
    try:
        specs = []
        for raw in data.get("labels", []):
            if not isinstance(raw, dict) or set(raw) - LABEL_KEYS:
                raise ValueError(f"a label is an object with keys among {', '.join(sorted(LABEL_KEYS))}")
            specs.append(LabelSpec(**{k: v for k, v in raw.items() if k != "comment"}))
        return labels.with_declared(specs)
    except (TypeError, ValueError) as exc:
        raise RulesError(f"{path}: {exc}") from None


def _extra_pattern(raw: object, labels: LabelSet) -> ExtraPattern:
    if not isinstance(raw, dict) or set(raw) - PATTERN_KEYS or not isinstance(raw.get("pattern"), str):
        raise ValueError(f"a pattern is an object with a \"pattern\" and keys among {', '.join(sorted(PATTERN_KEYS))}")
    label, score = raw.get("label"), raw.get("score", 0.9)
    if label not in labels:
        raise ValueError(f"pattern {raw['pattern']!r}: unknown label {label!r}")
    assert isinstance(label, str), "a label set's names are str"
    if not isinstance(score, (int, float)) or not 0 <= score <= 1:
        raise ValueError(f"pattern {raw['pattern']!r}: score must be between 0 and 1")
    validator = get_validator(raw["validator"]) if raw.get("validator") else None
    return ExtraPattern(label, regex.compile(raw["pattern"]), validator, float(score))


def find_with_rules(text: str, lang: str, rules: Rules) -> Found:
    """What each rule detector finds in the normalised `text`, before resolution (resolve/)."""
    found = Found()
    for detector in rule_detectors(rules):
        found.add(detector.role, detector.detect([text], [lang])[0])
    return found


def detect_with_rules(text: str, lang: str, rules: Rules, model_spans: Iterable[Span] = (),
                      threshold: float = DEFAULT_THRESHOLD) -> list[Span]:
    """Candidate spans (possibly overlapping) of every rule detector in the normalised `text`,
    resolved against each other and against `model_spans` (the model's, if given: resolve/), as the
    engine resolves them at `threshold` (its default: a model span under it leaves a title's fallback name)."""
    found = find_with_rules(text, lang, rules)
    found.add("model", list(model_spans))
    return resolve(text, lang, found, rules.patterns, rules.not_names, rules.model_checks, rules.fields,
                   threshold)


def identifier_spans(text: str, lang: str, rules: Rules) -> list[Span]:
    """Checksum-validated identifiers (identifiers.py)."""
    return find_identifiers(text, lang, rules.identifiers)


def pattern_spans(text: str, lang: str, rules: Rules) -> list[Span]:
    """Phones, e-mails, URLs, IPs, tokens (patterns.py) and the extra rules files' patterns."""
    spans = find_patterns(text, lang, rules.patterns)
    return spans + [span for extra in rules.extra_patterns for span in extra.find(text)]


def keyword_spans(text: str, lang: str, rules: Rules) -> Findings:
    """Values introduced by a keyword (keywords.py), table cells under a header (tables.py) and values
    their context labels; with the regions the keyword rules and the suppress patterns clear."""
    spans, suppressions = find_keyword_spans(text, rules.keywords)
    table_spans, table_suppressions = find_table_spans(text, rules.keywords, rules.fields.names_a_field)
    return Findings(spans + table_spans + _context_pattern_spans(text, rules.label_patterns),
                    suppressions + table_suppressions + _pattern_suppressions(text, rules.suppress_patterns))


def _context_pattern_spans(text: str, patterns) -> list[Span]:
    """Values that their context alone labels: a chat handle before its message, a user id in an API path."""
    found = []
    for pattern, label, reject in patterns:
        for m in pattern.finditer(text):
            group = "span" if "span" in pattern.groupindex and m.group("span") is not None else 0
            start, end = m.span(group)
            if start < end and not (reject is not None and reject.fullmatch(text, start, end)):
                found.append(Span(start, end, label, 0.8, "keyword"))
    return found


def _pattern_suppressions(text: str, patterns) -> list[Suppression]:
    """Regions that a suppress pattern clears: a log header, a user agent, a SEPA creditor identifier."""
    found = []
    for pattern, labels in patterns:
        for m in pattern.finditer(text):
            groups = [name for name in pattern.groupindex if name.startswith("span") and m.group(name) is not None]
            for start, end in [m.span(name) for name in groups] or [m.span()]:
                if start < end:
                    found.append(Suppression(start, end, labels))
    return found


@dataclass(frozen=True)
class RuleDetector:
    """One detector of the rules (a Detector): `find(text, lang, rules)` on each normalised text."""

    name: str
    role: str  # resolve.ROLES
    find: Callable[[str, str, Rules], list[Span]]
    rules: Rules

    def detect(self, texts: Sequence[str], langs: Sequence[str]) -> list[list[Span]]:
        return [self.find(text, lang, self.rules) for text, lang in zip(texts, langs)]


def rule_detectors(rules: Rules) -> tuple[RuleDetector, ...]:
    """The rules' detectors, in the order their spans are resolved."""
    return (RuleDetector("identifiers", "identifiers", identifier_spans, rules),
            RuleDetector("patterns", "patterns", pattern_spans, rules),
            RuleDetector("keywords", "keywords", keyword_spans, rules))
