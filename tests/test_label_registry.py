"""Labels as data: the registry, and a label a rules file declares (docs/examples/employee_id.json)
detected, masked, kept consistent in sessions and restored with no code change."""

from __future__ import annotations

import doctest
import json
import subprocess
import sys
from pathlib import Path

import pytest

import alias_engine
from alias_engine import Engine, labels
from alias_engine.detectors.base import DetectorError
from alias_engine.errors import RulesError
from alias_engine.masks import value_key

ROOT = Path(__file__).resolve().parents[1]
CLI = ROOT / "tests" / "_cli.py"  # the CLI with cheap vaults
EMPLOYEE = ROOT / "docs" / "examples" / "employee_id.json"
TEXTS = ["Employee number: EMP-004217, badge returned.",
         "Matricule EMP-004217 ; n° d'employé : EMP-000381.",
         "Votre numéro d'employé EMP-000381 figure sur la fiche de paie."]


@pytest.fixture(scope="module")
def engine():
    return Engine(use_model=False, extra_rules=[EMPLOYEE])


def test_doctests_run():
    assert doctest.testmod(labels).failed == 0


def test_the_twelve_are_in_the_registry_with_what_the_code_did_before():
    assert labels.BUILTIN.names == labels.LABELS
    assert value_key("PHONE", "06 12-34") == "061234" and value_key("EMAIL", "A@B.fr") == "a@b.fr"
    assert value_key("SECRET", " Ab  c ") == "Ab c"
    assert len(labels.BIOES_TAGS) == 1 + 4 * 12  # the model's tags: the twelve only


@pytest.mark.parametrize("text", TEXTS)
def test_a_declared_label_is_masked_and_restored(engine, text):
    result = engine.mask(text)
    assert "EMP-" not in result.text and "[EMPLOYEE_ID_1]" in result.text
    assert set(result.mapping) <= {"[EMPLOYEE_ID_1]", "[EMPLOYEE_ID_2]"}
    assert alias_engine.unmask(result.text, result.mapping) == text


def test_the_declared_label_wins_over_the_generic_identifier_on_the_same_code(engine):
    spans = engine.detect(TEXTS[1])
    assert [s.label for s in spans] == ["EMPLOYEE_ID", "EMPLOYEE_ID"]
    assert [s.label for s in Engine(use_model=False).detect(TEXTS[1])][:1] == ["IDENTIFIER"]


@pytest.mark.parametrize("mode", ["placeholder", "surrogate"])
def test_sessions_keep_the_declared_label_consistent_and_restore_it(engine, mode):
    session = engine.session(mode=mode, key=b"k")
    first, second = session.mask(TEXTS[1]), session.mask(TEXTS[2])
    assert "EMP-000381" not in first.text + second.text
    fake = first.mapping and [k for k, v in first.mapping.items() if v == "EMP-000381"][0]
    assert fake in second.text  # the same value, the same pseudonym in the next turn
    assert session.unmask(first.text + "\n" + second.text) == TEXTS[1] + "\n" + TEXTS[2]


@pytest.mark.slow  # runs the CLI in processes
def test_the_cli_takes_rules_files(tmp_path):
    src = tmp_path / "in.txt"
    src.write_text(TEXTS[0] + "\n", encoding="utf-8")
    mapping = tmp_path / "map.json"

    def run(*args):
        return subprocess.run([sys.executable, str(CLI), *args], capture_output=True, text=True,
                              cwd=ROOT, timeout=120)

    masked = run("mask", str(src), "--rules-only", "--rules", str(EMPLOYEE), "--mapping-out", str(mapping),
                 "-o", str(tmp_path / "out.txt"))
    assert masked.returncode == 0, masked.stderr
    assert (tmp_path / "out.txt").read_text(encoding="utf-8") == "Employee number: [EMPLOYEE_ID_1], badge returned.\n"
    restored = run("unmask", str(tmp_path / "out.txt"), "--mapping", str(mapping), "--rules", str(EMPLOYEE))
    assert restored.returncode == 0 and restored.stdout == TEXTS[0] + "\n"
    # a mapping restores without the rules file that declared its labels
    undeclared = run("unmask", str(tmp_path / "out.txt"), "--mapping", str(mapping), "--strict")
    assert undeclared.returncode == 0 and undeclared.stdout == TEXTS[0] + "\n", undeclared.stderr
    rules_copy = tmp_path / "rules.json"
    rules_copy.write_bytes(EMPLOYEE.read_bytes())
    clash = run("mask", str(src), "--rules-only", "--rules", str(rules_copy), "-o", str(rules_copy))
    assert clash.returncode != 0 and rules_copy.read_bytes() == EMPLOYEE.read_bytes()
    bad = run("detect", "--rules-only", "--rules", str(tmp_path / "missing.json"))
    assert bad.returncode == 1 and "missing.json" in bad.stderr and "Traceback" not in bad.stderr


def test_one_value_gets_one_placeholder_whatever_its_labels():
    from alias_engine.masks import mask_spans
    from alias_engine.spans import Span

    text = "Employee number EMP-004217 joined; EMP-004217 left."
    spans = [Span(16, 26, "EMPLOYEE_ID", 0.95, "keyword"), Span(35, 45, "IDENTIFIER", 0.9, "model")]
    result = mask_spans(text, spans)
    assert result.text == "Employee number [EMPLOYEE_ID_1] joined; [EMPLOYEE_ID_1] left."
    assert result.mapping == {"[EMPLOYEE_ID_1]": "EMP-004217"}
    session = alias_engine.Session(lambda t: spans)
    assert session.mask(text).text == result.text


def test_a_declared_code_label_is_masked_wherever_the_text_repeats_it(engine):
    text = "Employee number EMP-004217 joined in May. Later EMP-004217 moved to Lyon."
    result = engine.mask(text)
    assert result.text.count("[EMPLOYEE_ID_1]") == 2 and "EMP-" not in result.text


def test_patterns_with_and_without_a_validator(tmp_path):
    path = tmp_path / "extra.json"
    path.write_text(json.dumps({
        "labels": [{"name": "EVENT_DAY", "compare": "exact", "restore": "caseless"},
                   {"name": "LOYALTY_CARD", "compare": "compact", "restore": "number"}],
        "patterns": [{"label": "EVENT_DAY", "pattern": r"(?<=event )\d{2}/\d{2}/\d{4}", "validator": "date"},
                     {"label": "LOYALTY_CARD", "pattern": r"\bLC\d{4}[ ]?\d{4}\b", "score": 0.8}]}))
    engine = Engine(use_model=False, extra_rules=[path])
    text = "event 12/03/2026, event 31/02/2026, carte LC1234 5678"
    got = [(text[s.start:s.end], s.label, s.source) for s in engine.detect(text)]
    assert got == [("12/03/2026", "EVENT_DAY", "validator"), ("LC1234 5678", "LOYALTY_CARD", "pattern")]
    result = engine.mask(text + " (LC12345678)")
    assert result.text.count("[LOYALTY_CARD_1]") == 2  # compared compact: one value


@pytest.mark.parametrize("content, message", [
    ({"labels": [{"name": "PHONE", "compare": "exact"}]}, "built-in"),
    ({"labels": [{"name": "lower"}]}, "capitals"),
    ({"labels": [{"name": "X_CODE", "surrogate": "magic"}]}, "surrogate"),
    ({"keyword_rules": [{"label": "NOT_DECLARED", "keywords": ["k"], "values": ["id_code"]}]}, "unknown label"),
    ({"patterns": [{"label": "PERSON", "pattern": "("}]}, "bad.json"),
    ({"values": {"id_code": {"pattern": "x"}}}, "already defined"),
    ({"tokens": []}, "unknown key"),
])
def test_malformed_rules_files_are_refused_with_the_file_named(engine, tmp_path, content, message):
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(content))
    with pytest.raises(RulesError, match=message) as err:
        Engine(use_model=False, extra_rules=[path])
    assert "bad.json" in str(err.value)


def test_two_files_may_not_give_one_label_two_meanings(tmp_path):
    other = tmp_path / "other.json"
    other.write_text(json.dumps({"labels": [{"name": "EMPLOYEE_ID", "priority": 5}]}))
    with pytest.raises(RulesError, match="differently") as err:
        Engine(use_model=False, extra_rules=[EMPLOYEE, other])
    assert "other.json" in str(err.value)


def test_labels_belong_to_their_engine_not_the_process(engine, tmp_path):
    """An engine's extra rules declare labels for that engine only: another engine neither knows
    them nor sees their meaning, and may declare the same name with another meaning."""
    assert "EMPLOYEE_ID" in engine.rules.labels and "EMPLOYEE_ID" in engine.labels
    plain = Engine(use_model=False)
    assert "EMPLOYEE_ID" not in plain.rules.labels and "EMPLOYEE_ID" not in labels.BUILTIN
    with pytest.raises(ValueError, match="unknown label"):
        Engine(use_model=False, labels=["EMPLOYEE_ID"])
    with pytest.raises(DetectorError, match="unknown label"):
        Engine(use_model=False, detectors=[lambda text: [(0, 3, "EMPLOYEE_ID")]]).detect("abc")
    other = tmp_path / "other.json"
    other.write_text(json.dumps({"labels": [{"name": "EMPLOYEE_ID", "compare": "compact", "priority": 5}],
                                 "values": {"emp": {"pattern": r"EMP[- ]?\d{6}"}},
                                 "keyword_rules": [{"label": "EMPLOYEE_ID", "keywords": ["staff"],
                                                    "values": ["emp"], "score": 0.95}]}))
    compact = Engine(use_model=False, extra_rules=[other])
    assert compact.rules.labels.spec("EMPLOYEE_ID").compare == "compact"
    assert engine.rules.labels.spec("EMPLOYEE_ID").compare != "compact"
    text = "staff EMP-004217, staff EMP 004217"
    assert compact.mask(text).text.count("[EMPLOYEE_ID_1]") == 2  # compact: one value
    assert Engine(use_model=False, extra_rules=[EMPLOYEE]).rules.labels == engine.rules.labels


def test_a_detector_may_not_return_an_undeclared_label():
    with pytest.raises(DetectorError, match="unknown label"):
        Engine(use_model=False, detectors=[lambda text: [(0, 3, "NO_SUCH_LABEL")]]).detect("abc")


@pytest.mark.model
def test_the_model_ignores_labels_it_does_not_know(engine):
    model_engine = Engine(extra_rules=[EMPLOYEE])  # the shipped model loads with a declared label
    spans = model_engine.detect(TEXTS[0])
    assert ("EMP-004217", "EMPLOYEE_ID") in [(TEXTS[0][s.start:s.end], s.label) for s in spans]


def test_a_declared_label_gets_the_surrogate_its_spec_names(tmp_path):
    """A label declared with `surrogate: phone` is keyed and written like a phone, not by its name: one
    number in two styles is one value, each mention's surrogate in the mention's own style."""
    rules = tmp_path / "pager.json"
    rules.write_text(json.dumps({
        "labels": [{"name": "PAGER", "compare": "compact", "restore": "number", "surrogate": "phone", "priority": 1,
                    "description": "an on-call pager number"}],
        "values": {"pager": {"pattern": r"(?:0[67]|\+33 [67])(?: \d\d){4}"}},
        "keyword_rules": [{"label": "PAGER", "keywords": ["pager"], "values": ["pager"], "max_gap": 5,
                           "score": 0.95}],
    }), encoding="utf-8")
    engine = Engine(use_model=False, extra_rules=[rules])
    session = engine.session(mode="surrogate", key=b"k")
    text = "Pager: 06 12 34 56 78, astreinte. Depuis l'étranger, pager +33 6 12 34 56 78."
    masked = session.mask(text, "fr")
    assert [s.label for s in masked.spans] == ["PAGER", "PAGER"]
    national, international = (masked.text[w.start:w.end] for w in _writes(masked))
    assert not national.startswith("[") and national != "06 12 34 56 78" and international.startswith("+33 ")
    digits = [("".join(c for c in x if c.isdigit()))[-8:] for x in (national, international)]
    assert digits[0] == digits[1]  # one number, one surrogate, in each mention's style
    assert session.unmask(masked.text) == text


def _writes(result):
    """The pseudonyms as written in a masked text, in order."""
    import regex

    pattern = regex.compile("|".join(regex.escape(k) for k in sorted(result.mapping, key=len, reverse=True)))
    return [type("W", (), {"start": m.start(), "end": m.end()}) for m in pattern.finditer(result.text)]
