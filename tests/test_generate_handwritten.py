"""The generator's hand-written-precision kinds (letterheads, all-caps forms, logs, configs,
tickets): exact spans, and hard negatives left unlabelled."""

from __future__ import annotations

import re

import pytest

pytest.importorskip("faker")

from _generate_helpers import build_documents, exact_span_labels, in_a_span  # noqa: E402

from training.synth import templates  # noqa: E402

NEW_KINDS = ("letterhead", "caps_form", "access_log", "secrets_config", "it_ticket")
BUILD = {name: build for name, build, _ in templates.KINDS}


def _build(kind: str, n: int = 40):
    return build_documents(BUILD[kind], kind, n)


def _occurrences(text: str, value: str):
    return [(m.start(), m.end()) for m in re.finditer(re.escape(value), text)]


def test_new_kinds_are_registered_with_about_a_fifth_of_the_weight() -> None:
    weights = {name: w for name, _, w in templates.KINDS}
    assert set(NEW_KINDS) <= set(weights)
    share = sum(weights[k] for k in NEW_KINDS) / sum(weights.values())
    assert 0.2 <= share <= 0.25, share


@pytest.mark.parametrize("kind", NEW_KINDS)
def test_new_kind_spans_are_exact(kind: str) -> None:
    assert exact_span_labels(_build(kind), kind, whole_words=False), kind


def test_letterhead_keeps_the_organisation_unlabelled_and_the_person_labelled() -> None:
    checked = 0
    for text, spans, ctx in _build("letterhead"):
        labels = {label for *_, label in spans}
        assert "PERSON" in labels
        for key in ("COMPANY", "SWITCHBOARD"):
            value, label = ctx.resolve(key)
            assert label is None
            for s, e in _occurrences(text, value):
                assert not in_a_span(spans, s, e), (key, value, text)
                checked += 1
    assert checked > 20


def test_logs_leave_user_agents_and_attacker_logins_unlabelled() -> None:
    attackers = {"admin", "root", "test", "oracle", "ubuntu", "guest", "administrator", "pi", "postgres", "user"}
    ips = 0
    for text, spans, _ in _build("access_log"):
        for s, e, label in spans:
            value = text[s:e]
            assert "Mozilla" not in value and "AppleWebKit" not in value and "sentry" not in value
            assert value not in attackers, value
            ips += label == "IP_ADDRESS"
        for m in re.finditer(r"Mozilla/5\.0 [^\"]+", text):
            assert not in_a_span(spans, m.start(), m.end())
    assert ips > 20


def test_configs_label_uri_passwords_but_not_hashes_or_placeholders() -> None:
    uri_passwords = 0
    for text, spans, _ in _build("secrets_config", 80):
        for m in re.finditer(r"(changeme|\$\{[A-Z_]+\}|\*\*\*\*|\$2[aby]\$\d\d\$[./A-Za-z0-9]{53}|sha256:[0-9a-f]{64})", text):
            assert not in_a_span(spans, m.start(), m.end()), m.group()
        for m in re.finditer(r"redis://:([^@\s]+)@", text):
            assert (m.start(1), m.end(1), "SECRET") in spans
            uri_passwords += 1
    assert uri_passwords > 3


def test_caps_forms_write_surname_first_names_as_one_person_span() -> None:
    whole = 0
    for text, spans, _ in _build("caps_form"):
        for s, e, label in spans:
            if label == "PERSON" and " " in text[s:e]:
                whole += 1
        for title in templates.CAPS_TITLES_FR + templates.CAPS_TITLES_EN:
            for s, e in _occurrences(text, title):
                assert not in_a_span(spans, s, e), title
    assert whole > 20


def test_caps_forms_keep_the_values_case_in_the_forms_that_keep_it() -> None:
    upper = mixed = 0
    for text, spans, _ in _build("caps_form", 60):
        names = [text[s:e] for s, e, label in spans if label == "PERSON"]
        upper += any(n.isupper() for n in names)
        mixed += any(not n.isupper() for n in names)
    assert upper > 20 and mixed > 10
