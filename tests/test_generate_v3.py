"""Recipe v3 of the generator: the kinds that teach the failure classes measured on hand-written text
(headings, brands, lab tables, lower-case chats, statements, exports, payment XML, code with secrets)."""

from __future__ import annotations

import re

import pytest

pytest.importorskip("faker")

from _generate_helpers import build_documents, exact_span_labels, in_a_span  # noqa: E402

from training.generate import RECIPES, generate  # noqa: E402
from training.synth import negatives, templates_v3  # noqa: E402
from training.synth.context import Ctx  # noqa: E402

NEW_KINDS = tuple(name for name, _, _ in templates_v3.KINDS_V3)
BUILD = {name: build for name, build, _ in templates_v3.KINDS_V3}
BRAND_KEYS = ("SHOP", "CAR", "APP", "COURIER", "PRODUCT")
ORG_PHONE_KEYS = ("SWITCHBOARD", "HOTLINE", "ORGFAX")


class RecordingCtx(Ctx):
    """A Ctx that remembers every value it resolved: (key, n, text, label)."""

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.resolved: list[tuple[str, int, str, str | None]] = []

    def resolve(self, key: str, n: int = 1):
        value = super().resolve(key, n)
        for text, label in value if isinstance(value, list) else [value]:
            self.resolved.append((key, n, text, label))
        return value

    def values(self, *keys: str) -> set[str]:
        return {text for key, _, text, _ in self.resolved if key in keys}


def _build(kind: str, n: int = 40):
    return build_documents(BUILD[kind], kind, n, RecordingCtx)


def _occurrences(text: str, value: str):
    """Where `value` stands as a whole word (or the whole of a code), case-insensitively."""
    if not value.strip():
        return []
    pattern = r"(?<!\w)" + re.escape(value) + r"(?!\w)"
    return [(m.start(), m.end()) for m in re.finditer(pattern, text, re.IGNORECASE)]


def _assert_never_labelled(docs, values_of) -> int:
    """Every occurrence of the values `values_of(ctx)` is outside all spans; returns how many were checked."""
    checked = 0
    for text, spans, ctx in docs:
        for value in values_of(ctx):
            for s, e in _occurrences(text, value):
                assert not in_a_span(spans, s, e), (value, text)
                checked += 1
    return checked


def test_v3_adds_the_new_kinds_as_about_30_percent_of_documents() -> None:
    assert RECIPES["v3"][:len(RECIPES["v2"])] == RECIPES["v2"]
    weights = {name: w for name, _, w in RECIPES["v3"]}
    share = sum(weights[k] for k in NEW_KINDS) / sum(weights.values())
    assert 0.28 <= share <= 0.32, share
    v3 = [d["domain"] for d in generate(300, seed=3, recipe="v3")]
    assert set(NEW_KINDS) <= set(v3)
    assert 0.2 <= sum(k in NEW_KINDS for k in v3) / len(v3) <= 0.4
    assert not set(NEW_KINDS) & {d["domain"] for d in generate(300, seed=3)}


@pytest.mark.parametrize("kind", NEW_KINDS)
def test_new_kind_spans_are_exact(kind: str) -> None:
    assert "PERSON" in exact_span_labels(_build(kind), kind) or kind == "code_secrets", kind


def test_headings_and_titles_are_never_in_a_span() -> None:
    docs = _build("headings", 60) + _build("lab_results") + _build("statement")
    assert _assert_never_labelled(docs, lambda ctx: ctx.values("HEADING")) > 100
    lab_titles = {t for lang in ("FR", "EN") for t in templates_v3.TEMPLATES[f"LAB_TITLES_{lang}"]}
    assert _assert_never_labelled(_build("lab_results"), lambda ctx: lab_titles) > 20
    for _, spans, _ in _build("headings"):
        assert any(label == "PERSON" for *_, label in spans)


def test_brand_shop_car_software_and_courier_names_are_never_in_a_span() -> None:
    docs = _build("brands", 80) + _build("statement") + _build("lower_chat")
    assert _assert_never_labelled(docs, lambda ctx: ctx.values(*BRAND_KEYS)) > 100


def test_lab_test_names_units_and_sections_are_never_in_a_span() -> None:
    names = {row[0] for lang in ("fr", "en") for rows in (templates_v3.LAB_TESTS[lang], templates_v3.LAB_QUALITATIVE[lang])
             for row in rows} | {s for lang in ("fr", "en") for s in templates_v3.LAB_SECTIONS[lang]}
    docs = _build("lab_results", 60)
    assert _assert_never_labelled(docs, lambda ctx: names) > 300
    for _, spans, _ in docs:
        assert {"PERSON", "BIRTH_DATE"} <= {label for *_, label in spans}


def test_example_placeholders_are_not_secrets_and_real_keys_are() -> None:
    placeholders = set(negatives.WORDS["EXAMPLE_SECRETS"]) | {"pk_test_YOUR_KEY", "xoxb-your-token", "<your-email>"}
    docs = _build("code_secrets", 80)
    assert _assert_never_labelled(docs, lambda ctx: placeholders) > 50
    secrets = 0
    for text, spans, ctx in docs:
        written = {text[s:e] for s, e, label in spans if label == "SECRET"}
        real = {t for _, _, t, label in ctx.resolved if label == "SECRET"}
        assert real <= written
        secrets += len(real)
    assert secrets > 40


def _tag_positions(text: str) -> set[int]:
    """Characters of XML tags and attribute names: inside <...> but outside quoted attribute values."""
    out = set()
    for m in re.finditer(r"<[^<>]*>", text):
        quoted = False
        for i in range(m.start(), m.end()):
            if text[i] == '"':
                quoted = not quoted
            elif not quoted:
                out.add(i)
    return out


def test_xml_tags_and_attribute_names_are_never_in_a_span() -> None:
    checked = 0
    for text, spans, _ in _build("payment_xml", 40) + _build("data_export", 120):
        if "<?xml" not in text:
            continue
        tags = _tag_positions(text)
        for s, e, label in spans:
            assert not tags & set(range(s, e)), (label, text[s:e])
            assert "<" not in text[s:e] and ">" not in text[s:e]
            checked += 1
    assert checked > 200


def test_payment_xml_labels_the_people_paid_and_not_the_message_data() -> None:
    for text, spans, ctx in _build("payment_xml"):
        labelled = {text[s:e] for s, e, _ in spans}
        names = [m.group(1) for m in re.finditer(r"<Nm>([^<]*)</Nm>", text)]
        people = {t for key, _, t, label in ctx.resolved if label == "PERSON"}
        assert people and all(p in labelled for p in people)
        assert all(n in labelled for n in names if n in people)
        for tag in ("MsgId", "BIC", "EndToEndId", "InstdAmt", "CreDtTm"):
            for m in re.finditer(rf"<{tag}[^>]*>([^<]*)</{tag}>", text):
                assert not in_a_span(spans, m.start(1), m.end(1)), (tag, m.group(1))


def test_exports_label_personal_columns_only() -> None:
    docs = _build("data_export", 120)
    assert _assert_never_labelled(docs, lambda ctx: ctx.values("DEPT", "STATUS", "TICKET", "INVOICE", "ORDER", "PRODUCT")) > 150
    found = 0
    for text, spans, ctx in docs:
        labelled = {(text[s:e], label) for s, e, label in spans}
        for key, _, value, label in ctx.resolved:
            if label in ("EMAIL", "PHONE", "IBAN", "IDENTIFIER"):
                assert (value, label) in labelled, (key, value)
                found += 1
    assert found > 100


def test_lower_case_chat_names_are_person() -> None:
    names = 0
    for text, spans, ctx in _build("lower_chat", 60):
        persons = [text[s:e] for s, e, label in spans if label == "PERSON"]
        assert persons
        assert not any(re.search(r"[A-Z]", p) for p in persons), persons
        for value in (t for _, _, t, label in ctx.resolved if label == "PERSON"):
            lowered = "".join(c.lower() if len(c.lower()) == 1 else c for c in value)  # as typed: same length
            assert lowered in persons, (value, text)
            names += 1
    assert names > 150


def test_statement_labels_the_holders_phone_and_not_the_issuers() -> None:
    org_checked = 0
    for text, spans, ctx in _build("statement", 80):
        labelled = {(text[s:e], label) for s, e, label in spans}
        holder_phone = next(t for key, n, t, _ in ctx.resolved if key == "PHONE" and n == 1)
        assert (holder_phone, "PHONE") in labelled, text
        assert any(label == "ADDRESS" for *_, label in spans) and any(label == "PERSON" for *_, label in spans)
        for value in ctx.values(*ORG_PHONE_KEYS):
            for s, e in _occurrences(text, value):
                assert not in_a_span(spans, s, e), (value, text)
                org_checked += 1
    assert org_checked > 80
