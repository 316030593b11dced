"""Recipe v6 of the generator: a person's records named in prose (contracts, policies, licences, memberships,
accounts, claims, plates, logins: IDENTIFIER) beside invoice, order, ticket and tracking numbers, car models
and group names (O)."""

from __future__ import annotations

import hashlib
import json
import re

import pytest

pytest.importorskip("faker")

from _generate_helpers import build_documents, exact_span_labels, in_a_span  # noqa: E402

from training.generate import RECIPES, generate  # noqa: E402
from training.synth import templates_v6  # noqa: E402


def _documents(n: int = 60):
    return build_documents(templates_v6.record_mentions, "record_mentions", n)


def test_v6_is_v5_plus_about_6_percent_of_record_mentions() -> None:
    v5, v6 = RECIPES["v5"], RECIPES["v6"]
    assert v6[:len(v5)] == v5
    assert [name for name, _, _ in v6[len(v5):]] == ["record_mentions"]
    share = v6[-1][2] / sum(w for _, _, w in v6)
    assert 0.04 <= share <= 0.08, share
    assert "record_mentions" in {d["domain"] for d in generate(300, seed=3, recipe="v6")}


# Recipe v5's digest at 589378d (its lists as mended in 00c499b): recipe v6 beside it leaves its bytes as they were.
V5_DIGEST = "9b50ad5ee3d0cd04a48b9b45cf39e12dfe9a72a7ae1e25a24fe2d368cb36792d"


def test_recipe_v5_writes_the_same_bytes_with_v6_beside_it() -> None:
    digest = hashlib.sha256()
    for d in generate(80, seed=1, split="train", recipe="v5"):
        digest.update((json.dumps(d, ensure_ascii=False) + "\n").encode("utf-8"))
    assert digest.hexdigest() == V5_DIGEST


def test_record_mentions_spans_are_exact_and_hold_identifiers_and_people() -> None:
    assert {"IDENTIFIER", "PERSON"} <= exact_span_labels(_documents(), "record_mentions")


def test_a_records_number_is_labelled_and_an_invoice_order_ticket_or_tracking_number_is_not() -> None:
    records = decoys = 0
    decoy_after = re.compile(r"(?:facture n° |[Ff]acture |commande n° |[Cc]ommande |suivi n° |Ticket |Invoice |invoice |"
                             r"Order |order |Tracking number |Support ticket |Purchase order )(\S+?)[ ,.]")
    for text, spans, _ in _documents(120):
        records += sum(label == "IDENTIFIER" for _, _, label in spans)
        for m in decoy_after.finditer(text):
            assert not in_a_span(spans, m.start(1), m.end(1)), (m.group(1), text)
            decoys += 1
    assert records > 200 and decoys > 30


def test_car_models_and_groups_are_never_labelled_and_lower_case_documents_keep_their_labels() -> None:
    things = [v.lower() for key in ("CARS", "GROUPS") for v in templates_v6.TEMPLATES[key]]
    pattern = re.compile(r"(?<![\w-])(" + "|".join(re.escape(t) for t in things) + r")(?![\w-])")
    seen = lower_people = 0
    for text, spans, _ in _documents(120):
        for m in pattern.finditer(text.lower()):
            assert not in_a_span(spans, m.start(), m.end()), (m.group(), text)
            seen += 1
        lower_people += sum(label == "PERSON" and text[s:e] == text[s:e].lower() for s, e, label in spans)
    assert seen > 30 and lower_people > 20


def test_the_templates_own_words_are_lowered_and_its_keys_kept() -> None:
    assert templates_v6._lower_template("Contrat n° {CODE} de {FULL:2}.") == "contrat n° {CODE} de {FULL:2}."
