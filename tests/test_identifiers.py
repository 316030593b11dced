"""Identifier detector: validated IBAN, NIR, SSN, NINO and card numbers in French and English text."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from stdnum import luhn

from alias_engine.detectors.identifiers import (
    IdentifierRules,
    find_identifiers,
    identifier_candidates,
    load_identifier_rules,
)
from alias_engine.errors import AliasEngineError
from alias_engine.normalize import normalize
from alias_engine.validators import card, iban, nino, nir, ssn

RULES_DIR = Path(__file__).resolve().parent.parent / "rules"
SEEDS = range(30)

TEMPLATES = {
    "fr": [
        "Bonjour, voici la valeur : {v}. Merci de la garder pour vous.",
        "Valeur ({v}) transmise par courrier le 3 mars.",
        "{v}",
        "Le dossier mentionne {v}, à vérifier avec Mme Martin.",
    ],
    "en": [
        "Hi, the value is {v}, please keep it safe.",
        "Sent on March 3rd: {v}.",
        "Value:{v}\nThanks",
        "Her details ({v}) were updated.",
    ],
}


@pytest.fixture(scope="module")
def rules() -> IdentifierRules:
    return load_identifier_rules(RULES_DIR)


def _written_forms(kind: str, value: str) -> list[str]:
    if kind == "ssn":  # the bare nine digits are left to keyword rules
        return [ssn.format(value), ssn.format(value).replace("-", " ")]
    formatted = {"iban": iban, "nir": nir, "nino": nino, "card": card}[kind].format(value)
    forms = [value, formatted, formatted.replace(" ", "-")]
    if kind == "card":
        forms.append(formatted.replace(" ", "."))
    return forms


LABEL = {"iban": "IBAN", "nir": "NATIONAL_ID", "ssn": "NATIONAL_ID", "nino": "NATIONAL_ID", "card": "CREDIT_CARD"}
GENERATORS = {"iban": iban.generate, "nir": nir.generate, "ssn": ssn.generate, "nino": nino.generate,
              "card": card.generate}


def _assert_found(rules, text, lang, written, label):
    start = text.index(written)
    spans = find_identifiers(text, lang, rules)
    found = [(s.start, s.end, s.label) for s in spans]
    assert (start, start + len(written), label) in found, (text, found)
    # Nothing else outside the value (another kind may claim the very same digits, rarely).
    assert all(start <= s.start and s.end <= start + len(written) for s in spans), (text, found)
    span = next(s for s in spans if s.label == label)
    assert span.source == "validator" and span.score >= 0.9 and span.verified


@pytest.mark.parametrize("kind", sorted(GENERATORS))
@pytest.mark.parametrize("lang", ["fr", "en"])
def test_generated_values_are_found_with_exact_offsets(rules, kind, lang):
    for seed in SEEDS:
        rng = random.Random(seed)
        value = GENERATORS[kind](rng)
        for written in _written_forms(kind, value):
            text = rng.choice(TEMPLATES[lang]).format(v=written)
            _assert_found(rules, text, lang, written, LABEL[kind])


@pytest.mark.parametrize(
    "text, value, label",
    [
        ("Mon IBAN est FR76 3000 6000 0112 3456 7890 189 EUR, merci.", "FR76 3000 6000 0112 3456 7890 189", "IBAN"),
        ("IBAN:FR7630006000011234567890189.", "FR7630006000011234567890189", "IBAN"),
        ("Virement sur BE68 5390 0754 7034 TEST demain", "BE68 5390 0754 7034", "IBAN"),
        ("Pay to GB29 NWBK 6016 1331 9268 19 by Friday.", "GB29 NWBK 6016 1331 9268 19", "IBAN"),
        ("my iban is gb29nwbk60161331926819 thanks", "gb29nwbk60161331926819", "IBAN"),
        ("IBAN ES 91 2100 0418 4502 0005 1332 please", "ES 91 2100 0418 4502 0005 1332", "IBAN"),
        ("N° de sécurité sociale : 1 85 05 78 006 084 91, né en 1985.", "1 85 05 78 006 084 91", "NATIONAL_ID"),
        ("Assuré né en Corse (2 53 07 2B 073 004 70).", "2 53 07 2B 073 004 70", "NATIONAL_ID"),
        ("NIR 2951099126111 93 au dossier", "2951099126111 93", "NATIONAL_ID"),
        ("His SSN is 536-90-4399, see file.", "536-90-4399", "NATIONAL_ID"),
        ("NI number: AB 12 34 56 C.", "AB 12 34 56 C", "NATIONAL_ID"),
        ("Her NINO is JG103778A", "JG103778A", "NATIONAL_ID"),
        ("National Insurance JG 10 37 78 (no suffix)", "JG 10 37 78", "NATIONAL_ID"),
        ("Carte 4111 1111 1111 1111 exp 12/27", "4111 1111 1111 1111", "CREDIT_CARD"),
        ("Amex 3782 822463 10005, thanks", "3782 822463 10005", "CREDIT_CARD"),
        ("card number 5555555555554444.", "5555555555554444", "CREDIT_CARD"),
        ("CB 4970-1012-3456-7893 débitée de 25 €", "4970-1012-3456-7893", "CREDIT_CARD"),
        ("Paid 4111 1111 1111 1111 25 euros", "4111 1111 1111 1111", "CREDIT_CARD"),
    ],
)
def test_hand_picked_values_in_sentences(rules, text, value, label):
    _assert_found(rules, text, "fr" if "é" in text or "Carte" in text else "en", value, label)


def _luhn_number(prefix: str, length: int, rng: random.Random) -> str:
    body = prefix + "".join(rng.choice("0123456789") for _ in range(length - len(prefix) - 1))
    return body + luhn.calc_check_digit(body)


@pytest.mark.parametrize("seed", range(10))
def test_siret_and_siren_are_not_cards(rules, seed):
    rng = random.Random(seed)
    siret = _luhn_number("36", 14, rng)  # a SIRET passes Luhn and this one has a Diners prefix
    grouped = f"{siret[:3]} {siret[3:6]} {siret[6:9]} {siret[9:]}"
    siren = _luhn_number(str(rng.randint(3, 8)), 9, rng)
    for text in (f"Société Exemple, SIRET : {siret}, capital 10 000 €.",
                 f"SIRET n° {siret}",
                 f"Siret {grouped} - RCS Paris",
                 f"SIREN {siren[:3]} {siren[3:6]} {siren[6:]}",
                 f"Company registration (SIRET) number: {siret}"):
        assert find_identifiers(text, "fr", rules) == [], text
    # Without the keyword, the same 14 digits are a plausible Diners card: masked (fail closed).
    assert [s.label for s in find_identifiers(f"Payé avec {siret}.", "fr", rules)] == ["CREDIT_CARD"]


@pytest.mark.parametrize(
    "text",
    [
        "Facture n° 4111111111111111 du 12/03/2024",
        "Invoice no. 4111 1111 1111 1111 is overdue.",
        "Order #4111-1111-1111-1111 shipped",
        "Commande n° 5555555555554444 expédiée",
        "ISBN-13: 9782070368228, EAN 4006381333931",
        "Version 1.2.3.4 and v10.4.1111.2222 released",
        "Standard : 01 23 45 67 89, mobile +33 6 12 34 56 78",
        "Call +44 20 7946 0958 or +1 415-555-2671 or 0033612345678",
        "Call +4111111111111111",
        "Timestamp 1700000000000, 2024-03-15T10:30:00Z, 20240315103000",
        "Amount 1234567890123456.78 EUR",
        "Tracking: 1Z999AA10123456784",
        "digits 1234 4111 1111 1111 1111 in a longer run",
        "4111111111111111111111 too long",
        "id x4111111111111111 glued to a letter",
        "IBAN FR76 3000 6000 0112 3456 7890 188 (bad checksum)",
        "IBAN FR76 3000 6000 0112 3456 7890 1891 (too long)",
        "SSN 000-12-3456, 666-12-3456 and 912-34-5678 are not allocated",
        "NINO QQ 12 34 56 C is the documentation example, BG 12 34 56 A is not allocated",
        "NIR 1 85 05 78 006 084 36 (mauvaise clé)",
    ],
)
def test_hard_negatives(rules, text):
    assert find_identifiers(text, "en", rules) == []


def test_several_values_in_one_text(rules):
    values = ["FR76 3000 6000 0112 3456 7890 189", "1 85 05 78 006 084 91", "4111 1111 1111 1111",
              "536-90-4399", "AB 12 34 56 C"]
    text = "IBAN {}, NIR {}, carte {}, SSN {}, NINO {}.".format(*values)
    spans = find_identifiers(text, "fr", rules)
    assert [text[s.start:s.end] for s in spans] == values
    assert spans == sorted(spans)


def test_offsets_map_back_through_the_normalised_view(rules):
    # Non-breaking and thin spaces, a zero-width space and full-width digits in the original.
    original = "IBAN\u00a0: FR76\u00a03000\u202f6000 0112\u200b 3456 7890 １８９ merci"
    view = normalize(original)
    spans = find_identifiers(view.text, "fr", rules)
    assert len(spans) == 1
    start, end = view.to_original(spans[0].start, spans[0].end)
    assert original[start:end] == "FR76\u00a03000\u202f6000 0112\u200b 3456 7890 １８９"


@pytest.mark.slow  # long inputs
def test_long_inputs_stay_cheap_and_empty(rules):
    for text in ("1" * 200_000, "1234 " * 40_000, "FR76 " * 40_000, "AB 12 " * 30_000):
        assert find_identifiers(text, "en", rules) == []


def test_lang_filter(tmp_path):
    data = json.loads((RULES_DIR / "identifiers.json").read_text(encoding="utf-8"))
    for entry in data["identifiers"]:
        entry["langs"] = ["en"]
    (tmp_path / "identifiers.json").write_text(json.dumps(data), encoding="utf-8")
    rules = load_identifier_rules(tmp_path)
    text = "card 4111 1111 1111 1111"
    assert find_identifiers(text, "fr", rules) == []
    assert len(find_identifiers(text, "en", rules)) == 1


@pytest.mark.parametrize(
    "change, message",
    [
        (lambda d: d["identifiers"][0].update(validator="nope"), "unknown validator"),
        (lambda d: d["identifiers"][0].update(label="NOPE"), "unknown label"),
        (lambda d: d["identifiers"][0].update(patterns=["(unclosed"]), "bad pattern"),
        (lambda d: d["identifiers"][0].update(score=2), "score"),
        (lambda d: d["identifiers"][0].pop("patterns"), "lacks"),
        (lambda d: d.update(identifiers={}), "identifiers"),
        (lambda d: d.update(context_window="x"), "context_window"),
        (lambda d: d.update(negative_keywords=[""]), "negative_keywords"),
    ],
)
def test_malformed_rules_give_a_clear_error(tmp_path, change, message):
    data = json.loads((RULES_DIR / "identifiers.json").read_text(encoding="utf-8"))
    change(data)
    (tmp_path / "identifiers.json").write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(AliasEngineError, match=message):
        load_identifier_rules(tmp_path)


def test_missing_or_unreadable_rules_file(tmp_path):
    with pytest.raises(AliasEngineError, match="not found"):
        load_identifier_rules(tmp_path)
    (tmp_path / "identifiers.json").write_text("{not json", encoding="utf-8")
    with pytest.raises(AliasEngineError, match="cannot read"):
        load_identifier_rules(tmp_path)


def test_candidates_include_values_with_a_bad_checksum(rules):
    text = "IBAN FR76 3000 6000 0112 3456 7890 188 EUR, NIR 1 85 05 78 006 084 36, carte 4111 1111 1111 1112."
    candidates = identifier_candidates(text, "fr", rules)
    shown = {(text[c.start:c.end], c.name, c.valid) for c in candidates}
    assert ("FR76 3000 6000 0112 3456 7890 188", "iban", False) in shown
    assert ("1 85 05 78 006 084 36", "nir", False) in shown
    assert ("4111 1111 1111 1112", "card", False) in shown
    assert find_identifiers(text, "fr", rules) == []
    short = "IBAN FR76 3000 6000 0112 3456 7890 18 EUR"
    assert [short[c.start:c.end] for c in identifier_candidates(short, "fr", rules) if c.name == "iban"] == [
        "FR76 3000 6000 0112 3456 7890 18"]


def test_candidates_skip_negative_context(rules):
    assert identifier_candidates("Facture n° 4111111111111112", "fr", rules) == []


@pytest.mark.parametrize("text, value", [
    ("Patient: T. Gray   DOB: 08/02/1979   NHS: 943 476 5919", "943 476 5919"),
    ("they said bring your NHS number which is 943 476 5919 x", "943 476 5919"),
    ("Re: Mrs Gray, NHS 9434765919, seen today", "9434765919"),
    ("NHS: 943.476.5919", "943.476.5919"),
])
def test_an_nhs_number_needs_its_name_before_it_on_the_line(rules, text, value):
    start = text.index(value)
    assert [(s.start, s.end, s.label) for s in find_identifiers(text, "en", rules)] == \
        [(start, start + len(value), "IDENTIFIER")]


@pytest.mark.parametrize("text", [
    "Call 943 476 5919 about the NHS clinic.",            # the name after the number
    "My NHS card is at home.\nCall 943 476 5919 today.",  # the name on the line before
    "NHS 943 476 5918 (bad check digit)",
])
def test_an_nhs_number_without_its_name_or_check_is_none(rules, text):
    assert [s for s in find_identifiers(text, "en", rules) if s.label == "IDENTIFIER"] == []
