"""Repeats (repeats.py): a name found with confidence is masked wherever else the text writes it.

Every example is invented for these tests.
"""

from __future__ import annotations

import doctest

import pytest
import regex
from hypothesis import given, settings
from hypothesis import strategies as st

from alias_engine import Engine, repeats
from alias_engine.detectors.rules import load_rules
from alias_engine.repeats import MIN_SCORE, repeated_values
from alias_engine.resources import data_dir
from alias_engine.spans import Span

LEXICON = load_rules(data_dir("rules")).lexicon


def found_at(text: str, value: str, label: str = "PERSON", score: float = 0.99, occurrence: int = 0) -> Span:
    start = -1
    for _ in range(occurrence + 1):
        start = text.index(value, start + 1)
    return Span(start, start + len(value), label, score, "model")


def repeats_of(text: str, *spans: Span) -> list[str]:
    return [text[s.start:s.end] for s in repeated_values(text, sorted(spans), LEXICON)]


def test_doctests_run():
    assert doctest.testmod(repeats).failed == 0


def test_a_confident_name_is_masked_where_the_model_missed_it():
    text = "[19:02] Mum: send the fees for Tayo today\n[19:40] Tayo: thanks!"
    found = found_at(text, "Tayo", occurrence=1)
    spans = repeated_values(text, [found], LEXICON)
    assert [(text[s.start:s.end], s.start, s.label, s.source, s.score) for s in spans] == [
        ("Tayo", text.index("Tayo"), "PERSON", "repeat", found.score)]


def test_the_words_of_a_full_name_are_lent_and_not_a_lone_initial_or_capitals():
    text = "Attendees: Ifeoma Bankole-Reid, J. Quist\nIfeoma chairs; Bankole-Reid takes notes. QUIST signs."
    got = repeats_of(text, found_at(text, "Ifeoma Bankole-Reid"), found_at(text, "J. Quist"))
    assert got == ["Ifeoma", "Bankole-Reid"]


def test_an_unsure_name_lends_nothing():
    text = "Thu 09:00 - reminder\nThu 11:27 - reminder"
    assert repeats_of(text, found_at(text, "Thu", score=0.99)) == []  # a word that ends names, never lent
    text = "Ledgerly: new invoice. Pay Ledgerly today."
    assert repeats_of(text, found_at(text, "Ledgerly", score=MIN_SCORE - 0.01)) == []


def test_only_the_same_spelling_as_a_whole_word():
    text = "Will Okonjo called. will you call back? Willow and Willa came; mail will.okonjo@example.org"
    assert repeats_of(text, found_at(text, "Will Okonjo")) == []
    text = "Rosalie Fenn wrote. Fenn's reply, then Fenn."
    assert repeats_of(text, found_at(text, "Rosalie Fenn")) == ["Fenn", "Fenn"]


def test_a_name_that_is_also_a_word_of_the_text_is_left_where_a_sentence_starts():
    text = "Will Okonjo called. Will you ring him? I will.\nThen Will rang again."
    assert repeats_of(text, found_at(text, "Will Okonjo")) == ["Will"]  # the last one only


def test_nothing_already_masked_is_touched():
    text = "Dorcas Alleyne. Link: https://example.org/Dorcas/cv"
    url = Span(text.index("https"), len(text), "URL", 1.0, "validator")
    assert repeats_of(text, found_at(text, "Dorcas Alleyne"), url) == []


@pytest.mark.parametrize("text, name, occurrence", [
    ("Dr Lucien Bernard signed. Send it to 12 rue Claude Bernard.", "Lucien Bernard", 0),
    ("Paid by Odile Giraud. Receipt from Atelier Giraud Céramique.", "Odile Giraud", 0),
    ("Maître Yves Fontaine wrote; the firm Fontaine & Associés replied.", "Yves Fontaine", 0),
    # words that name a thing after a person around it, as around the model's spans (eponyms)
    ("Suivi pour une maladie de Bowen. Contact : Ilse Bowen, association.", "Ilse Bowen", 0),
])
def test_a_word_of_a_longer_proper_noun_is_left(text, name, occurrence):
    assert repeats_of(text, found_at(text, name, occurrence=occurrence)) == []


def test_a_known_persons_name_before_an_eponym_word_is_still_theirs():
    text = "Student: Ilse Marrow. We approved Marrow's scholarship renewal."
    assert repeats_of(text, found_at(text, "Ilse Marrow")) == ["Marrow"]


def test_a_title_before_the_name_does_not_make_it_a_proper_noun():
    text = "Signed: Odile Giraud\nBonjour Madame Giraud, your account is unlocked."
    assert repeats_of(text, found_at(text, "Odile Giraud")) == ["Giraud"]


def test_a_name_in_capitals_and_in_lower_case_is_the_same_name():
    text = "Nom : VANTERPOOL    Prénom : Ysolde\nSignature : Y. Vanterpool\nMaëlys Le Goff\nDOSSIER MAËLYS LE GOFF"
    got = repeats_of(text, found_at(text, "VANTERPOOL"), found_at(text, "Maëlys Le Goff"))
    assert got == ["Y. Vanterpool", "MAËLYS LE GOFF"]  # initials join the span


def test_initials_already_masked_stay_out_of_the_repeat():
    text = "Vanterpool signed. Ref Q.R. Vanterpool"
    code = Span(text.index("Q.R."), text.index("Q.R.") + 4, "IDENTIFIER", 0.9, "keyword")
    spans = repeated_values(text, sorted([found_at(text, "Vanterpool"), code]), LEXICON)
    assert [text[s.start:s.end] for s in spans] == ["Vanterpool"]


def test_a_lent_first_name_takes_its_surname():
    text = "Chair: Idris\nPresent: Bea Lund, Idris Okonkwo (Flat 2), Idris Street Market"
    assert repeats_of(text, found_at(text, "Idris")) == ["Idris Okonkwo"]  # "Street" ends names


@pytest.mark.parametrize("text, code, label, expected", [
    # a login's or an address's first name and surname, written alone in lower case
    ("ilse.vantorre 09:12 : build vert\ntomas.ek 09:14 : merci ilse, et vantorre valide ?", "ilse.vantorre",
     "IDENTIFIER", ["ilse", "vantorre"]),
    ("mail me at quenby.adeyemo.88@example.org\nok quenby, done", "quenby.adeyemo.88@example.org", "EMAIL", ["quenby"]),
    # a word of the languages makes it no person's: a team, a service
    ("write to dev.team@example.org; the dev on call answers", "dev.team@example.org", "EMAIL", []),
    ("login service.compta, then ask compta", "service.compta", "IDENTIFIER", []),
    # the text writes the name capitalised: in lower case the word is the language's
    ("Odile Marsh\nodile.marsh@example.org\nthe marsh path floods", "odile.marsh@example.org", "EMAIL", []),
    ("Odile Marsh\nodile.marsh@example.org\nping odile when you can", "odile.marsh@example.org", "EMAIL", ["odile"]),
])
def test_a_logins_names_are_lent_to_their_lone_occurrences(text, code, label, expected):
    got = [(text[s.start:s.end], s.label) for s in repeated_values(text, [found_at(text, code, label)], LEXICON)]
    assert got == [(name, "PERSON") for name in expected]


def test_an_ampersand_between_two_names_joins_two_people():
    text = "From: Greer & Ansel\n...\nLove, Greer\nP.S. Ansel says hi"
    got = repeats_of(text, found_at(text, "Greer", occurrence=1), found_at(text, "Ansel", occurrence=1))
    assert got == ["Greer", "Ansel"]


def test_a_code_like_value_lends_itself_under_its_label():
    text = "client_id;name\nQX-40917;Okoro\nuser dlamb_ro (uid 4471)\nCall back about QX-40917 and dlamb_ro, not 4471."
    code = Span(text.index("QX-40917"), text.index("QX-40917") + 8, "IDENTIFIER", 0.9, "keyword")
    login = found_at(text, "dlamb_ro", "IDENTIFIER", score=0.97)
    uid = found_at(text, "4471", "IDENTIFIER", score=0.99)
    got = [(text[s.start:s.end], s.label, s.start > text.index("Call")) for s in
           repeated_values(text, sorted([code, login, uid]), LEXICON)]
    assert got == [("QX-40917", "IDENTIFIER", True), ("dlamb_ro", "IDENTIFIER", True)]  # 4 digits: any number


@pytest.mark.parametrize("value, label, score", [
    ("deploy", "IDENTIFIER", 0.99),           # a plain word
    ("HX-2291-B", "IDENTIFIER", 0.90),        # the model, unsure
    ("06 48 22 91 37", "PHONE", 0.99),        # a pattern label: a context rule decided the other one
])
def test_what_lends_no_code(value, label, score):
    text = f"value {value} here; and {value} there"
    assert repeats_of(text, found_at(text, value, label, score)) == []


def test_a_name_field_of_the_rules_lends_its_name_without_the_model():
    text = "Nom : VANTERPOOL\nPrénom : Ysolde\n\nLe bail : Vanterpool a signé ; Ysolde paiera."
    spans = Engine(use_model=False).detect(text, "fr")
    assert [(text[s.start:s.end], s.source) for s in spans if s.label == "PERSON"] == [
        ("VANTERPOOL", "keyword"), ("Ysolde", "keyword"), ("Vanterpool", "repeat"), ("Ysolde", "repeat")]


def test_the_engine_masks_the_repeats_of_a_detectors_name():
    def first_name_only(text):
        return [(text.index("Tayo"), text.index("Tayo") + 4, "PERSON")]

    engine = Engine(use_model=False, detectors=[first_name_only])
    text = "Tayo wrote. Then Tayo rang."
    spans = engine.detect(text)
    assert [(text[s.start:s.end], s.source) for s in spans] == [("Tayo", "custom"), ("Tayo", "repeat")]
    assert "Tayo" not in engine.mask(text).text
    only_emails = Engine(use_model=False, detectors=[first_name_only], labels=["EMAIL"])
    assert only_emails.detect(text) == []


FRAGMENTS = ["Tayo Bello", "Tayo", "Bello", "TAYO BELLO", "Q.R. ", "Q.R. Tayo", "QX-40917", "qx-40917", " ", ", ", "\n",
             ". ", " & ", "Street", "rue ", "tayo", "x", "1", "-", "@", "é"]


@settings(max_examples=200, deadline=None)
@given(st.lists(st.sampled_from(FRAGMENTS), max_size=30))
def test_repeats_never_overlap_a_span_or_each_other(parts):
    text = "".join(parts)
    lenders = [Span(m.start(), m.end(), "PERSON", 0.99, "model") for m in regex.finditer("Tayo Bello", text)]
    lenders += [Span(m.start(), m.end(), "IDENTIFIER", 0.9, "keyword") for m in regex.finditer("QX-40917|Q\\.R\\.", text)]
    lenders = sorted(lenders)
    if any(b.start < a.end for a, b in zip(lenders, lenders[1:])):
        return
    found = repeated_values(text, lenders, LEXICON)
    every = sorted(lenders + found)
    assert all(b.start >= a.end for a, b in zip(every, every[1:]))
    for span in found:
        value = text[span.start:span.end]
        assert value == value.strip() and 0 <= span.start < span.end <= len(text)
        assert span.source == "repeat" and span.label in ("PERSON", "IDENTIFIER")
