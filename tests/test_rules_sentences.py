"""Whole French and English sentences through the rules-only engine: exact spans and hard negatives."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from stdnum.fr import nir as stdnum_nir

from alias_engine import LABELS, Engine

NIR = "2850375123456" + stdnum_nir.calc_check_digits("2850375123456")
NIR_SPACED = f"{NIR[0]} {NIR[1:3]} {NIR[3:5]} {NIR[5:7]} {NIR[7:10]} {NIR[10:13]} {NIR[13:]}"


@pytest.fixture(scope="module")
def engine():
    return Engine(use_model=False)


def detected(engine, text, lang=None):
    return [(s.start, s.end, s.label) for s in engine.detect(text, lang)]


def expected(text, *pairs):
    """Offsets of each (value, label), the values searched left to right."""
    out, pos = [], 0
    for value, label in pairs:
        start = text.index(value, pos)
        out.append((start, start + len(value), label))
        pos = start + len(value)
    return out


FRENCH = [
    ("slt, le mdp du wifi c pomme&poire2020 et mon mdp c Tigre#2021, mais le mdp c pas sécurisé",
     [("pomme&poire2020", "SECRET"), ("Tigre#2021", "SECRET")]),
    ("Ma carte 5555 5555 5555 4444 exp 10/28 crypto 471, et pour l'autre carte le code au dos : 806.",
     [("5555 5555 5555 4444", "CREDIT_CARD"), ("471", "SECRET"), ("806", "SECRET")]),
    ("Bonjour, je suis né le 12 mars 1985 à Lyon. Mon portable : 06 12 34 56 78, "
     "mon e-mail jean.dupont@exemple.fr.",
     [("12 mars 1985", "BIRTH_DATE"), ("06 12 34 56 78", "PHONE"), ("jean.dupont@exemple.fr", "EMAIL")]),
    (f"IBAN : FR76 3000 6000 0112 3456 7890 189 ; n° de sécurité sociale {NIR_SPACED}.",
     [("FR76 3000 6000 0112 3456 7890 189", "IBAN"), (NIR_SPACED, "NATIONAL_ID")]),
    ("Dossier n° 2024/0456, matricule A12345, joignable au +33 (0)6 12 34 56 78 ou au 06.12.34.56.78.",
     [("2024/0456", "IDENTIFIER"), ("A12345", "IDENTIFIER"), ("+33 (0)6 12 34 56 78", "PHONE"),
      ("06.12.34.56.78", "PHONE")]),
    ("Accès : serveur 10.12.0.5, identifiant : mdupont, mot de passe : Soleil2024!, "
     "profil https://www.linkedin.com/in/marie-dupont.",
     [("10.12.0.5", "IP_ADDRESS"), ("mdupont", "IDENTIFIER"), ("Soleil2024!", "SECRET"),
      ("https://www.linkedin.com/in/marie-dupont", "URL")]),
    ("Née le 1er mars 1985, carte bancaire 4111 1111 1111 1111, date de naissance de l'enfant : 03/04/2015.",
     [("1er mars 1985", "BIRTH_DATE"), ("4111 1111 1111 1111", "CREDIT_CARD"), ("03/04/2015", "BIRTH_DATE")]),
    ("Ma carte bleue 4970 1012 3456 7890 expire 09/27, cryptogramme 123 ; ma CB c est le 4111 1111 1111 1111.",
     [("4970 1012 3456 7890", "CREDIT_CARD"), ("123", "SECRET"), ("4111 1111 1111 1111", "CREDIT_CARD")]),
    ("Elle est née en 1992 à Hanoï ; année de naissance : 1990. La maison, construite en 1992. "
     "Lui est né en Bretagne le 3 mars 1961, sa sœur est née à Lyon en mars 1965.",
     [("1992", "BIRTH_DATE"), ("1990", "BIRTH_DATE"), ("3 mars 1961", "BIRTH_DATE"), ("mars 1965", "BIRTH_DATE")]),
]

ENGLISH = [
    ("Hi, I'm Mary (DOB 03/25/1985). Call me at (415) 555-0132 or +44 20 7946 0958.",
     [("03/25/1985", "BIRTH_DATE"), ("(415) 555-0132", "PHONE"), ("+44 20 7946 0958", "PHONE")]),
    ("SSN: 123-45-6789, National Insurance number AB 12 34 56 C, card 5555 5555 5555 4444.",
     [("123-45-6789", "NATIONAL_ID"), ("AB 12 34 56 C", "NATIONAL_ID"), ("5555 5555 5555 4444", "CREDIT_CARD")]),
    ("Customer ID: CUST-57046, policy number PN-4478-XZ, mobile 07700 900123, born on March 12, 1985.",
     [("CUST-57046", "IDENTIFIER"), ("PN-4478-XZ", "IDENTIFIER"), ("07700 900123", "PHONE"),
      ("March 12, 1985", "BIRTH_DATE")]),
    ("Sign in from 2001:db8::8a2e:370:7334 with token=ghp_R2d2C3poBb8yWq1LxZ9TmN4kVs7Hj0PaQe6u, "
     "then see https://github.com/mdupont or write to m.dupont@example.co.uk",
     [("2001:db8::8a2e:370:7334", "IP_ADDRESS"), ("ghp_R2d2C3poBb8yWq1LxZ9TmN4kVs7Hj0PaQe6u", "SECRET"),
      ("https://github.com/mdupont", "URL"), ("m.dupont@example.co.uk", "EMAIL")]),
    ("IBAN GB82 WEST 1234 5698 7654 32, password: hunter2, DB at postgres://app:S3cr3t@db.internal/app",
     [("GB82 WEST 1234 5698 7654 32", "IBAN"), ("hunter2", "SECRET"), ("app", "IDENTIFIER"),  # LABELS.md's own example
      ("S3cr3t", "SECRET")]),
    ("Card 5555 5555 5555 4444, CVV: 4821, exp 10/28.",
     [("5555 5555 5555 4444", "CREDIT_CARD"), ("4821", "SECRET")]),
    ("Card 5555 5555 5555 4444 exp 10/28, the code on the back is 417.",
     [("5555 5555 5555 4444", "CREDIT_CARD"), ("417", "SECRET")]),
    ("2024-03-12 10:22:31 INFO user=alice ip=192.168.1.34 action=login session=8f3a9c2e7b1d4f6a "
     "Cookie: csrftoken=Zx9Yw8Vu7Ts6Rq5Po4; Session: Spring 2024. User: where is my parcel?",
     [("alice", "IDENTIFIER"), ("192.168.1.34", "IP_ADDRESS"), ("8f3a9c2e7b1d4f6a", "SECRET"),
      ("Zx9Yw8Vu7Ts6Rq5Po4", "SECRET")]),
    ("Customer number 0045 7789 12 34 56 78 90 12, invoice INV-2024-0098. sid=" + "a1" * 300,
     [("0045 7789 12 34 56 78 90 12", "IDENTIFIER"), ("a1" * 300, "SECRET")]),
    ('user="Jean Dupont" action=login', [("Jean Dupont", "IDENTIFIER")]),
    ("He was born in 1987 in Leeds (YOB: 1987); the firm was founded in 1987. She was born in Paris in 1990, "
     "her brother in March 1993; he was born in London and moved in 1999.",
     [("1987", "BIRTH_DATE"), ("1987", "BIRTH_DATE"), ("1990", "BIRTH_DATE")]),
]


@pytest.mark.parametrize("text, values", FRENCH)
def test_french_sentences(engine, text, values):
    assert detected(engine, text, "fr") == expected(text, *values)
    assert detected(engine, text, "auto") == expected(text, *values)


@pytest.mark.parametrize("text, values", ENGLISH)
def test_english_sentences(engine, text, values):
    assert detected(engine, text, "en") == expected(text, *values)
    assert detected(engine, text, "auto") == expected(text, *values)


@pytest.mark.parametrize("text", [
    "Standard : 01 23 45 67 89, du lundi au vendredi.",
    "Tél. standard : 01 23 45 67 89",
    "Switchboard: +44 20 7946 0000",
    "Facture n° 2024-00123 du 12/03/2024, montant 1 234,56 EUR.",
    "Invoice #2024-00123, order number 4471-2291, due March 12, 2025.",
    "Mise à jour vers la version 1.2.3.4 (v1.2.3.4, Version: 1.2.3.4).",
    "ACME SAS, SIRET 732 829 320 00074, SIREN 732 829 320, TVA FR40 303 265 045.",
    "Set api_key = YOUR_API_KEY and token: <token> in the config; password: ********.",
    "La documentation est sur https://docs.python.org/3/library/re.html et https://www.acme.com/.",
    "Rendez-vous le 12/03/2025 à 14h30 ; meeting on March 12, 2025.",
    "L'entreprise a été fondée en 1985 ; le paquet pèse 1.5 kg.",
])
def test_hard_negatives(engine, text):
    assert detected(engine, text, "fr") == []
    assert detected(engine, text, "en") == []


def test_mixed_languages_use_every_keyword_list(engine):
    text = "Patient ID A77812, né le 12/03/1985, n° client CL-2024-0042, DOB 1985-03-12"
    assert detected(engine, text, "fr") == detected(engine, text, "en") == expected(
        text, ("A77812", "IDENTIFIER"), ("12/03/1985", "BIRTH_DATE"), ("CL-2024-0042", "IDENTIFIER"),
        ("1985-03-12", "BIRTH_DATE"))


def test_offsets_hold_through_the_normalised_view(engine):
    text = "Tél\u00a0: 06\u00a012\u00a034\u00a056\u00a078, e-mail\u200b : ma\u00adrie@exemple.fr, né le 12\u202fmars 1985"
    spans = engine.detect(text, "fr")
    assert [(text[s.start:s.end], s.label) for s in spans] == [
        ("06\u00a012\u00a034\u00a056\u00a078", "PHONE"), ("ma\u00adrie@exemple.fr", "EMAIL"),
        ("12\u202fmars 1985", "BIRTH_DATE")]


def test_mask_and_unmask_round_trip(engine):
    text = " ".join(t for t, _ in FRENCH + ENGLISH)
    result = engine.mask(text)
    for value in ("06 12 34 56 78", "jean.dupont@exemple.fr", "hunter2", "123-45-6789", "Soleil2024!"):
        assert value not in result.text
    assert engine.unmask(result.text, result.mapping) == text


# --- properties -------------------------------------------------------------------------------

FRAGMENTS = [
    "né le ", "date de naissance : ", "DOB ", "tél ", "Phone: ", "IBAN ", "NIR ", "SSN: ", "password: ", "mdp = ",
    "n° client ", "customer ID ", "standard : ", "facture n° ", "version ", "login: ", "my website is ",
    "12/03/1985", "12 mars 1985", "March 12, 1985", "06 12 34 56 78", "+44 20 7946 0958", "(415) 555-0132",
    "FR76 3000 6000 0112 3456 7890 189", "123-45-6789", NIR_SPACED, "4111 1111 1111 1111", "hunter2",
    '"p@ss word!"', "jean.dupont@exemple.fr", "192.168.1.10", "2001:db8::1", "1.2.3.4",
    "https://github.com/jdupont", "https://docs.python.org/3/", "CL-2024-0042", "YOUR_API_KEY",
    " ", "  ", "\n", "\t", ", ", ". ", " : ", "|", ";", "(", ")", '"', "é", "\u00a0", "\u200b", "x", "1",
]


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.sampled_from(FRAGMENTS), max_size=25), st.sampled_from(["fr", "en"]))
def test_spans_hold_in_the_original_and_never_start_or_end_with_spaces(engine, parts, lang):
    text = "".join(parts)
    spans = engine.detect(text, lang)
    previous_end = 0
    for span in spans:
        assert previous_end <= span.start < span.end <= len(text)
        value = text[span.start:span.end]
        assert value == value.strip(" \t\n\u00a0\u200b") and value
        assert span.label in LABELS and span.source in ("validator", "keyword", "pattern", "repeat")
        previous_end = span.end
    result = engine.mask(text, lang)
    assert engine.unmask(result.text, result.mapping) == text
