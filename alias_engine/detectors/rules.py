"""Rule files → compiled rules, and the one entry point that runs every rule detector.

`load_rules(rules_dir)` reads rules/common.json, fr.json, en.json (patterns,
value shapes, keyword rules) and identifiers.json (checksum-validated
identifiers) once; `detect_with_rules(text, lang, rules)` runs the identifier,
pattern and keyword detectors on the normalised text and returns their
candidates for the merger. Schema and how to add a rule: docs/rules.md.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

import regex

from ..errors import RulesError
from ..labels import LABELS
from ..resources import read_rule_file
from ..spans import Span
from .identifiers import IdentifierRules, find_identifiers, load_identifier_rules
from .keywords import KeywordRules, Suppression, find_keyword_spans, load_keyword_rules
from .model_checks import ModelChecks, check_model_spans, load_model_checks
from .patterns import (
    PatternRules,
    compile_pattern,
    find_patterns,
    is_company_line,
    is_public_url,
    load_pattern_rules,
)
from .tables import find_table_spans

COMMON_FILE = "common.json"
LANGUAGE_FILES = ("fr.json", "en.json")
LANGUAGE_KEYS = frozenset({"lang", "description", "keyword_rules"})


@dataclass(frozen=True)
class Rules:
    """Everything compiled once from the rules directory; keyword rules of all languages together."""

    identifiers: IdentifierRules
    patterns: PatternRules
    keywords: KeywordRules
    not_names: frozenset[str] = frozenset()  # casefolded words that are never a PERSON alone
    model_checks: ModelChecks = ModelChecks()
    # (regex, labels): what the regex's "span…" groups (or whole match) cover is not of these labels
    suppress_patterns: tuple[tuple[regex.Pattern, frozenset[str]], ...] = ()
    # (regex, label, reject): the "span" group (or whole match) is a value of that label, by its context
    label_patterns: tuple[tuple[regex.Pattern, str, regex.Pattern | None], ...] = ()


def load_rules(rules_dir: Path) -> Rules:
    """Read and compile every rules file of `rules_dir`; RulesError on a missing or malformed one."""
    rules_dir = Path(rules_dir)
    if not rules_dir.is_dir():
        raise RulesError(f"rules directory not found: {rules_dir}")
    identifiers = load_identifier_rules(rules_dir)
    common_path = rules_dir / COMMON_FILE
    common = read_rule_file(common_path)
    try:
        rejects = {name: compile_pattern(p, f"rejects.{name}") for name, p in common.get("rejects", {}).items()}
        patterns = load_pattern_rules(common, rejects["placeholder"], rejects["system_account"])
    except (KeyError, TypeError, ValueError, AttributeError) as exc:
        raise RulesError(f"{common_path}: malformed pattern rules ({type(exc).__name__}: {exc})") from None
    rule_lists = [(COMMON_FILE, common.get("keyword_rules", []))]
    for name in LANGUAGE_FILES:
        data = read_rule_file(rules_dir / name)
        unknown = set(data) - LANGUAGE_KEYS
        if unknown:
            raise RulesError(f"{rules_dir / name}: unknown key(s) {', '.join(sorted(unknown))}")
        rule_lists.append((name, data.get("keyword_rules", [])))
    try:
        keywords = load_keyword_rules(rule_lists, common.get("values", {}), common.get("gaps", {}), rejects)
    except (KeyError, TypeError, ValueError, AttributeError, regex.error) as exc:
        raise RulesError(f"{rules_dir}: malformed keyword rule: {exc}") from None
    try:
        not_names = frozenset(w.casefold() for w in common.get("not_names", {}).get("words", []))
    except (AttributeError, TypeError):
        raise RulesError(f"{common_path}: 'not_names' must be an object with a list of 'words'") from None
    try:
        model_checks = load_model_checks(common.get("model_checks", {}), patterns)
        suppress_patterns = tuple((compile_pattern(p["pattern"], f"suppress_patterns.{p['name']}"),
                                   frozenset(p["labels"])) for p in common.get("suppress_patterns", []))
        label_patterns = tuple(_label_pattern(p, rejects) for p in common.get("label_patterns", []))
    except (KeyError, TypeError, ValueError, AttributeError) as exc:
        raise RulesError(f"{common_path}: malformed model_checks, suppress_patterns or label_patterns ({exc})") from None
    return Rules(identifiers, patterns, keywords, not_names, model_checks, suppress_patterns, label_patterns)


def _label_pattern(spec: dict, rejects: dict) -> tuple[regex.Pattern, str, regex.Pattern | None]:
    if spec["label"] not in LABELS:
        raise ValueError(f"label_patterns.{spec['name']}: unknown label {spec['label']!r}")
    reject = rejects[spec["reject"]] if spec.get("reject") else None
    return compile_pattern(spec["pattern"], f"label_patterns.{spec['name']}"), spec["label"], reject


def without_non_names(spans: list[Span], text: str, not_names: frozenset[str]) -> list[Span]:
    """PERSON spans without a greeting or sign-off: "Bisous" alone is dropped, "Coucou, Inès"
    becomes "Inès"."""
    out = []
    for span in spans:
        if span.label == "PERSON":
            head, comma, _ = text[span.start:span.end].partition(",")
            if comma and head.strip().casefold() in not_names:
                start = span.start + len(head) + 1
                while start < span.end and text[start].isspace():
                    start += 1
                span = Span(start, span.end, span.label, span.score, span.source, span.verified)
            if span.start >= span.end or text[span.start:span.end].casefold() in not_names:
                continue
        out.append(span)
    return out


def detect_with_rules(text: str, lang: str, rules: Rules, model_spans: Iterable[Span] = ()) -> list[Span]:
    """Candidate spans (possibly overlapping) of every rule detector in the normalised `text`, and
    `model_spans` (the model's) checked against their label's format (model_checks.py) and resolved
    with the rules' suppressions like the rules' own spans.

    Four resolutions happen here because only the rules know about them: a URL
    introduced by a keyword ("Website:") is dropped when it is a public one, and
    a number introduced by "Tel" when it is toll-free or premium-rate; a number
    shaped like a phone but introduced by another keyword ("MRN:", "NIR :") is
    not a phone; a URL
    that points at a person swallows the e-mail, IP or token written inside it
    (the URL is the span), and suppress rules (switchboard, SIRET, invoice
    number) remove the candidates in the value they cover.
    """
    candidates = find_identifiers(text, lang, rules.identifiers)
    keyword_spans, suppressions = find_keyword_spans(text, rules.keywords)
    table_spans, table_suppressions = find_table_spans(text, rules.keywords)
    keyword_spans += table_spans
    suppressions += table_suppressions
    keyword_spans = [s for s in keyword_spans if not _public_or_company(s, text, lang, rules.patterns)]
    candidates += _phones_in_other_keyword_values_removed(find_patterns(text, lang, rules.patterns), keyword_spans)
    keyword_spans += _context_pattern_spans(text, rules.label_patterns)
    fallbacks = [s for s in keyword_spans if s.source == "pattern"]  # keyword rules marked "fallback"
    candidates += [s for s in keyword_spans if s.source != "pattern"]
    candidates = _inside_urls_removed(candidates)
    # A model span inside a rule's URL is part of that URL ("…?token=…" is not a SECRET of its own).
    checked = _inside_urls_removed(check_model_spans(model_spans, text, rules.model_checks),
                                   [s for s in candidates if s.label == "URL"])
    candidates += _inside_urls_removed(_fallbacks_removed(fallbacks, checked), candidates) + checked
    suppressions += _pattern_suppressions(text, rules.suppress_patterns)
    if suppressions:
        candidates = _suppressed_removed(candidates, suppressions)
    return candidates


def _fallbacks_removed(fallbacks: list[Span], model_spans: list[Span]) -> list[Span]:
    """A fallback rule's span (a name after a title) only where the model found none of its label."""
    if not fallbacks:
        return fallbacks
    found = sorted((s.start, s.end, s.label) for s in model_spans)
    starts = [f[0] for f in found]
    longest = max((e - s for s, e, _ in found), default=0)
    kept = []
    for span in fallbacks:
        lo, hi = bisect_left(starts, span.start - longest), bisect_left(starts, span.end)
        if not any(s < span.end and span.start < e and label == span.label for s, e, label in found[lo:hi]):
            kept.append(span)
    return kept


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


def _phones_in_other_keyword_values_removed(spans: list[Span], keyword_spans: list[Span]) -> list[Span]:
    """A number that looks like a phone but follows "MRN:" or "NIR :" is that other thing."""
    others = sorted((s.start, s.end) for s in keyword_spans if s.label != "PHONE")
    if not others:
        return spans
    starts = [o[0] for o in others]
    longest = max(e - s for s, e in others)
    kept = []
    for span in spans:
        if span.label == "PHONE":
            lo, hi = bisect_left(starts, span.start - longest), bisect_left(starts, span.end)
            if any(s < span.end and span.start < e for s, e in others[lo:hi]):
                continue
        kept.append(span)
    return kept


def _public_or_company(span: Span, text: str, lang: str, patterns: PatternRules) -> bool:
    value = text[span.start:span.end]
    if span.label == "URL":
        return is_public_url(value, patterns)
    if span.label == "PHONE":
        return is_company_line(value, lang, patterns)
    return False


def _inside_urls_removed(spans: list[Span], url_spans: list[Span] | None = None) -> list[Span]:
    """Drop non-URL spans lying inside a URL span of `url_spans` (default: of `spans`; URL spans never
    overlap each other)."""
    urls = sorted((s.start, s.end) for s in (spans if url_spans is None else url_spans) if s.label == "URL")
    if not urls:
        return spans
    starts = [u[0] for u in urls]
    kept = []
    for span in spans:
        i = bisect_right(starts, span.start) - 1
        if span.label != "URL" and i >= 0 and span.end <= urls[i][1]:
            continue
        kept.append(span)
    return kept


def _suppressed_removed(spans: list[Span], suppressions: list[Suppression]) -> list[Span]:
    """Drop spans that overlap a suppressed value of their label; suppressed values are short."""
    suppressions = sorted(suppressions, key=lambda z: z.start)
    starts = [z.start for z in suppressions]
    longest = max(z.end - z.start for z in suppressions)
    kept = []
    for span in spans:
        lo = bisect_left(starts, span.start - longest)
        hi = bisect_left(starts, span.end)
        if not any(z.removes(span) for z in suppressions[lo:hi]):
            kept.append(span)
    return kept
