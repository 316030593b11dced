"""Recipe v4 of the generator: a person's codes where only the structure names them (registers under a
column header, chat speakers, system logs, membership and account numbers beside passports)."""

from __future__ import annotations

import re

import pytest

pytest.importorskip("faker")

from _generate_helpers import build_documents, exact_span_labels, in_a_span  # noqa: E402

from training.generate import RECIPES, generate  # noqa: E402
from training.synth import templates_v4  # noqa: E402

NEW_KINDS = tuple(name for name, _, _ in templates_v4.KINDS_V4)
BUILD = {name: build for name, build, _ in templates_v4.KINDS_V4}


def _build(kind: str, n: int = 40):
    return build_documents(BUILD[kind], kind, n)


def _labelled(text: str, spans) -> dict[str, set[str]]:
    out: dict[str, set[str]] = {}
    for s, e, label in spans:
        out.setdefault(label, set()).add(text[s:e])
    return out


def test_v4_adds_the_new_kinds_to_v3_as_about_16_percent_of_documents() -> None:
    assert RECIPES["v4"][:len(RECIPES["v3"])] == RECIPES["v3"]
    weights = {name: w for name, _, w in RECIPES["v4"]}
    share = sum(weights[k] for k in NEW_KINDS) / sum(weights.values())
    assert 0.14 <= share <= 0.18, share
    v4 = [d["domain"] for d in generate(300, seed=3, recipe="v4")]
    assert set(NEW_KINDS) <= set(v4)
    assert not set(NEW_KINDS) & {d["domain"] for d in generate(300, seed=3, recipe="v3")}


@pytest.mark.parametrize("kind", NEW_KINDS)
def test_new_kind_spans_are_exact(kind: str) -> None:
    assert "IDENTIFIER" in exact_span_labels(_build(kind), kind), kind


def test_a_register_labels_its_code_column_in_every_row_and_nothing_in_the_header() -> None:
    checked = 0
    for text, spans, _ in _build("registers", 60):
        lines = text.split("\n")
        first_span_line = text.count("\n", 0, min(s for s, _, _ in spans))
        header_at = first_span_line - 1
        assert any(h in lines[header_at] for lang in ("EN", "FR") for h in templates_v4.TEMPLATES[f"ID_HEADERS_{lang}"])
        start = sum(len(line) + 1 for line in lines[:header_at])
        assert not in_a_span(spans, start, start + len(lines[header_at]))
        rows = [line for line in lines[header_at + 1:] if line.strip()]
        codes = [text[s:e] for s, e, label in spans if label == "IDENTIFIER"]
        assert len(codes) == len(rows), text
        checked += len(rows)
    assert checked > 150


def test_isbns_amounts_and_order_numbers_in_a_register_are_never_labelled() -> None:
    for text, spans, _ in _build("registers", 60):
        for m in re.finditer(r"978-\d-\d+-\d{4}-\d|\d+,\d\d €|£\d+\.\d\d", text):
            assert not in_a_span(spans, m.start(), m.end()), m.group()


def test_a_user_name_is_identifier_at_every_mention_and_the_at_sign_stays_outside() -> None:
    mentions = 0
    for text, spans, _ in _build("team_chat", 60) + _build("system_logs", 60):
        names = _labelled(text, spans).get("IDENTIFIER", set())
        for name in names:
            for m in re.finditer(r"(?<![\w.@-])" + re.escape(name) + r"(?![\w@-]|\.\w)", text):
                assert (m.start(), m.end(), "IDENTIFIER") in spans, (name, text)
                mentions += 1
        for m in re.finditer(r"@[\w.-]+", text):
            assert not any(s == m.start() for s, _, _ in spans), text
    assert mentions > 300


def test_attackers_guesses_and_root_are_never_labelled() -> None:
    checked = 0
    for text, spans, _ in _build("system_logs", 80):
        for m in re.finditer(r"(?:invalid user|Invalid user) (\S+)|\((root)\)|for user (root)", text):
            group = next(g for g in (1, 2, 3) if m.group(g))
            assert not in_a_span(spans, m.start(group), m.end(group)), text
            checked += 1
    assert checked > 20


def test_a_passport_is_national_id_and_a_membership_code_identifier() -> None:
    seen = set()
    for text, spans, _ in _build("memberships", 80):
        for s, e, label in spans:
            before = text[max(0, s - 25):s].lower()
            if "passport" in before.split(",")[-1] or "passeport" in before.split(",")[-1]:
                assert label == "NATIONAL_ID", (text[s:e], text)
                seen.add("passport")
            if re.search(r"(loyalty card|carte de fidélité|library card|flying blue|avios no\.) $", before):
                assert label == "IDENTIFIER", (text[s:e], text)
                seen.add("code")
    assert seen == {"passport", "code"}
