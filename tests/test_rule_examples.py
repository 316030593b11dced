"""Every rule is a tested class: each keyword rule (rules/common.json and every language folder's
keywords.json), label pattern and suppress pattern carries "examples", texts of the class it stands
for, and "counter_examples", near misses; both run through the rules-only engine (docs/rules.md,
"Examples and counter examples").

An example lists the spans the engine finds in it of the rule's label (a suppress rule: of the labels
it clears, "*" all; an empty list when it clears every one): those, exactly (same boundaries and
label), and no other span of that label. It may list spans of other labels too, which must be found.
A counter example lists the "labels" of which no span may be found in it (a label rule's own label
among them), and for a suppress rule the "spans" it must not clear. A value written twice in a text
is its first occurrence, the second when listed twice, and so on.

A new rule without an example and a counter example fails here.
"""

from __future__ import annotations

import json
import shutil
from dataclasses import dataclass
from pathlib import Path

import pytest

from alias_engine import Engine
from alias_engine.detectors.rules import load_rules
from alias_engine.errors import RulesError
from alias_engine.labels import LABELS
from alias_engine.language import language_folders
from alias_engine.resources import data_dir

RULES_DIR = data_dir("rules")
COMMON_SECTIONS = ("keyword_rules", "label_patterns", "suppress_patterns")


@dataclass(frozen=True)
class Rule:
    file: str         # relative to rules/
    section: str      # keyword_rules, label_patterns or suppress_patterns
    index: int
    spec: dict
    lang: str | None  # the language folder's; None for common.json (an example's "lang", default "en")

    @property
    def id(self) -> str:
        name = self.spec.get("name")
        if name is None:
            keywords = self.spec.get("keywords") or ["?"]
            what = self.spec.get("label") or "suppress " + "/".join(self.spec.get("suppress") or [])
            name = f"{what} {keywords[0]!r}"
        return f"{self.file}:{self.section}[{self.index}] {name}"

    @property
    def suppress(self) -> bool:
        return self.section == "suppress_patterns" or "suppress" in self.spec

    @property
    def labels(self) -> frozenset[str]:
        """The rule's label, or the labels it clears (every label for "*")."""
        labels = self.spec.get("suppress") or self.spec.get("labels") or [self.spec.get("label")]
        return frozenset(LABELS) if "*" in labels else frozenset(labels)

    def lang_of(self, case: dict) -> str:
        return case.get("lang") or self.lang or "en"


def _read(path: Path) -> dict:
    return json.loads(path.read_text(encoding="utf-8"))


def shipped_rules() -> list[Rule]:
    common = _read(RULES_DIR / "common.json")
    rules = [Rule("common.json", section, i, spec, None)
             for section in COMMON_SECTIONS for i, spec in enumerate(common.get(section, []))]
    for folder in language_folders(RULES_DIR):
        data = _read(folder / "keywords.json")
        rules += [Rule(f"{folder.name}/keywords.json", "keyword_rules", i, spec, folder.name)
                  for i, spec in enumerate(data.get("keyword_rules", []))]
    return rules


RULES = shipped_rules()


@pytest.fixture(scope="module")
def engine():
    return Engine(use_model=False)


def located(text: str, spans: list) -> list[tuple[int, int, str]]:
    """(start, end, label) of each [value, label]: the k-th listing of a value is its k-th occurrence."""
    out, seen = [], {}
    for value, label in spans:
        start = -1
        for _ in range(seen.get(value, 0) + 1):
            start = text.find(value, start + 1)
        assert start >= 0, f"{value!r} is not written {seen.get(value, 0) + 1} time(s) in {text!r}"
        seen[value] = seen.get(value, 0) + 1
        out.append((start, start + len(value), label))
    return out


def problems(engine, rule: Rule, case: dict, ruled: frozenset[str]) -> list[str]:
    """What the engine gets wrong in `case`: a listed span not found exactly, or a span of a label of
    `ruled` that is not listed."""
    text = case["text"]
    found = {(s.start, s.end, s.label) for s in engine.detect(text, rule.lang_of(case))}
    want = set(located(text, case.get("spans", [])))
    shown = sorted(f"{text[a:b]!r} {label}" for a, b, label in found)
    out = [f"{text[a:b]!r} is no {label} span (found: {', '.join(shown) or 'nothing'})"
           for a, b, label in sorted(want - found)]
    out += [f"{text[a:b]!r} {label} should not be found" for a, b, label in sorted(found - want)
            if label in ruled]
    return [f"{text!r}: {p}" for p in out]


def test_the_rules_are_collected():
    sections = {(rule.file, rule.section) for rule in RULES}
    assert {("common.json", s) for s in COMMON_SECTIONS} <= sections
    assert {("fr/keywords.json", "keyword_rules"), ("en/keywords.json", "keyword_rules")} <= sections


@pytest.mark.parametrize("rule", RULES, ids=lambda rule: rule.id)
def test_every_rule_has_examples_and_counter_examples(rule):
    assert rule.spec.get("examples"), f"{rule.id}: no \"examples\" (docs/rules.md)"
    assert rule.spec.get("counter_examples"), f"{rule.id}: no \"counter_examples\" (docs/rules.md)"


@pytest.mark.parametrize("rule", RULES, ids=lambda rule: rule.id)
def test_examples(engine, rule):
    errors = []
    for case in rule.spec.get("examples", []):
        labels = {label for _, label in case["spans"]}
        if not rule.suppress and rule.spec["label"] not in labels:
            errors.append(f"{case['text']!r}: lists no {rule.spec['label']} span")
        errors += problems(engine, rule, case, rule.labels)
    assert not errors, f"{rule.id}:\n" + "\n".join(errors)


@pytest.mark.parametrize("rule", RULES, ids=lambda rule: rule.id)
def test_counter_examples(engine, rule):
    errors = []
    for case in rule.spec.get("counter_examples", []):
        labels = set(case.get("labels", []))
        if rule.suppress and not {label for _, label in case.get("spans", [])} & rule.labels:
            errors.append(f"{case['text']!r}: lists no span of {', '.join(sorted(rule.labels))} that the rule keeps")
        if not rule.suppress and rule.spec["label"] not in labels:
            errors.append(f"{case['text']!r}: \"labels\" lacks the rule's label {rule.spec['label']}")
        ruled = frozenset(LABELS) if "*" in labels else frozenset(labels)
        errors += problems(engine, rule, case, ruled)
    assert not errors, f"{rule.id}:\n" + "\n".join(errors)


# --- the loader checks their shape -----------------------------------------------------------------

@pytest.fixture
def rules_copy(tmp_path):
    target = tmp_path / "rules"
    shutil.copytree(RULES_DIR, target)
    return target


def _set(path: Path, section: str, key: str, value) -> None:
    data = _read(path)
    data[section][0][key] = value
    path.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")


@pytest.mark.parametrize("file, section, key, value, message", [
    ("en/keywords.json", "keyword_rules", "examples", [{"text": "born in 1985"}], "needs \"spans\""),
    ("en/keywords.json", "keyword_rules", "examples", [{"text": "born in 1985", "spans": [["1986", "BIRTH_DATE"]]}],
     "not in its text"),
    ("fr/keywords.json", "keyword_rules", "examples", [{"text": "née en 1985", "spans": [["1985", "NAISSANCE"]]}],
     "unknown label"),
    ("fr/keywords.json", "keyword_rules", "examples", {"text": "née en 1985"}, "must be a list"),
    ("fr/keywords.json", "keyword_rules", "examples", [{"text": "née en 1985", "spans": [], "labels": ["*"]}],
     "for counter examples"),
    ("common.json", "keyword_rules", "counter_examples", [{"text": "TEL"}], "needs \"labels\""),
    ("common.json", "keyword_rules", "counter_examples", [{"text": "TEL", "labels": "PHONE"}], "labels must be"),
    ("common.json", "label_patterns", "examples", [{"text": "@lena", "spans": [], "note": "x"}],
     "label_patterns.chat_handle: examples\\[0\\]: unknown key"),
    ("common.json", "suppress_patterns", "counter_examples", [{"text": "", "labels": ["*"]}],
     "suppress_patterns.syslog_header: counter_examples\\[0\\]: needs a non-empty"),
])
def test_malformed_examples_raise_rules_error(rules_copy, file, section, key, value, message):
    _set(rules_copy / file, section, key, value)
    with pytest.raises(RulesError, match=message):
        load_rules(rules_copy)


def test_well_formed_examples_load(rules_copy):
    _set(rules_copy / "en" / "keywords.json", "keyword_rules", "examples",
         [{"text": "born in 1985", "spans": [["1985", "BIRTH_DATE"]], "comment": "a year alone"}])
    _set(rules_copy / "common.json", "suppress_patterns", "counter_examples",
         [{"text": "see 10.0.0.1", "spans": [["10.0.0.1", "IP_ADDRESS"]], "labels": ["*"], "lang": "en"}])
    load_rules(rules_copy)
