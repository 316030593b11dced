"""The Detector protocol, user detectors in the Engine, and the resolve stage."""

from __future__ import annotations

import doctest
import re

import pytest
from _detector_helpers import Role
from hypothesis import given
from hypothesis import strategies as st

from alias_engine import Engine, Span
from alias_engine.detectors import base
from alias_engine.detectors.base import DetectorError, FunctionDetector, as_detector
from alias_engine.errors import AliasEngineError
from alias_engine.merge import merge_spans
from alias_engine.normalize import normalize
from alias_engine.resolve import ROLES, Found, resolve
from alias_engine.spans import Suppression

EMPLOYEE = re.compile(r"EMP-\d{6}")


def employee_ids(text):
    return [(m.start(), m.end(), "IDENTIFIER", 0.9) for m in EMPLOYEE.finditer(text)]


@pytest.fixture(scope="module")
def engine():
    return Engine(use_model=False, detectors=[employee_ids])


def test_doctests_of_the_protocol_run():
    assert doctest.testmod(base).failed == 0


def test_a_plain_function_is_a_detector_and_its_spans_are_masked(engine):
    text = "Worker EMP-004217, mail jean.dupont@example.fr"  # not after a keyword of the rules ("badge")
    spans = engine.detect(text)
    assert [(text[s.start:s.end], s.label, s.source) for s in spans] == [
        ("EMP-004217", "IDENTIFIER", "custom"), ("jean.dupont@example.fr", "EMAIL", "validator")]
    result = engine.mask(text)
    assert result.text == "Worker [IDENTIFIER_1], mail [EMAIL_1]"
    assert engine.unmask(result.text, result.mapping) == text


def test_offsets_are_into_the_original_text_even_when_normalisation_changes_it(engine):
    text = "Zéro\u200b largeur\u00a0: EMP-004217 et\u00a0EMP-000001."
    spans = engine.detect(text)
    assert [text[s.start:s.end] for s in spans] == ["EMP-004217", "EMP-000001"]


def test_a_detector_object_gets_the_languages():
    seen = []

    class Recorder:
        name = "recorder"

        def detect(self, texts, langs):
            seen.append(list(langs))
            return [[] for _ in texts]

    Engine(use_model=False, detectors=[Recorder()]).detect_many(["Bonjour, je suis ici", "Hello, I am here"])
    assert seen == [["fr", "en"]]


def test_span_objects_and_tuples_without_a_score():
    detector = as_detector(lambda text: [(0, 3, "PERSON"), Span(4, 7, "PERSON", 0.7, "model")])
    assert detector.detect(["Ann Bob"], ["en"]) == [[Span(0, 3, "PERSON", 1.0, "custom"),
                                                     Span(4, 7, "PERSON", 0.7, "model")]]


@pytest.mark.parametrize("bad", [[(0, 99, "PERSON")], [(3, 1, "PERSON")], [("a", "b")], [(0, 2, "PERSON", 2.0)],
                                 [None], [(0, 2, 7)]])
def test_a_detector_returning_nonsense_fails_closed(bad):
    engine = Engine(use_model=False, detectors=[FunctionDetector(lambda text: bad, name="broken")])
    with pytest.raises(AliasEngineError, match="broken"):
        engine.detect("Ann Bob is here")


def test_a_detector_that_raises_fails_closed_with_a_clear_error():
    def crash(text):
        raise RuntimeError("boom")

    with pytest.raises(AliasEngineError, match="detector crash failed"):
        Engine(use_model=False, detectors=[crash]).mask("Ann Bob")


def test_unknown_detector_type_is_refused():
    with pytest.raises(TypeError):
        as_detector(42)
    with pytest.raises(DetectorError):
        base.to_span((0, 1), "x")


def test_merge_priority_custom_between_keyword_and_model():
    custom, model, pattern = (Span(0, 10, "IDENTIFIER", 0.5, "custom"), Span(0, 12, "PERSON", 0.99, "model"),
                              Span(0, 12, "PHONE", 1.0, "pattern"))
    assert merge_spans([model, custom])[0] == custom
    assert merge_spans([pattern, custom])[0] == custom
    validator = Span(2, 8, "IBAN", 1.0, "validator")
    assert merge_spans([validator, custom])[0].start == 0 and validator in merge_spans([validator, custom])


def test_resolve_drops_a_model_siret_but_keeps_cards_and_user_spans():
    text = "n° 732 829 320 00074 fin"
    siret = (3, 20)
    found = Found(model=[Span(*siret, "NATIONAL_ID", 0.9, "model")])
    assert resolve(text, "fr", found, _patterns(), frozenset()) == []
    found = Found(model=[Span(*siret, "CREDIT_CARD", 0.9, "model")], others=[Span(*siret, "NATIONAL_ID", 1, "custom")])
    assert [s.label for s in resolve(text, "fr", found, _patterns(), frozenset())] == ["CREDIT_CARD", "NATIONAL_ID"]


def test_resolve_removes_greetings_from_model_names_only():
    text = "Coucou, Inès. Bisous"
    found = Found(model=[Span(0, 12, "PERSON", 0.9, "model"), Span(14, 20, "PERSON", 0.9, "model")],
                  others=[Span(14, 20, "PERSON", 1.0, "custom")])
    got = resolve(text, "fr", found, _patterns(), frozenset({"coucou", "bisous"}))
    assert [(text[s.start:s.end], s.source) for s in got] == [("Inès", "model"), ("Bisous", "custom")]


def _patterns():
    from alias_engine.detectors.rules import load_rules
    from alias_engine.resources import data_dir

    return load_rules(data_dir("rules")).patterns


@given(st.text(alphabet="ab \u00a0\u200b\u00adeéﬁ０\r", max_size=30), st.data())
def test_to_view_then_to_original_covers_the_span(text, data):
    view = normalize(text)
    if not text:
        return
    a = data.draw(st.integers(0, len(text) - 1))
    b = data.draw(st.integers(a + 1, len(text)))
    start, end = view.to_view(a, b)
    assert 0 <= start <= end <= len(view.text)
    while a < b and text[a] in "\u200b\u00ad":  # characters the view removes
        a += 1
    while b > a and text[b - 1] in "\u200b\u00ad":
        b -= 1
    assert (start < end) == (a < b)
    if start < end:
        oa, ob = view.to_original(start, end)
        assert oa <= a and ob >= b


def _title_and_name(text):
    start = text.index("Dr ")
    return [Span(start, text.index(" at"), "PERSON", 0.9, "model")]


def test_a_detector_with_the_model_role_is_checked_and_repaired_like_the_model():
    text = "Dr Jean Dupont at the desk"
    as_model = Engine(use_model=False, detectors=[Role("model", _title_and_name)]).detect(text)
    as_user = Engine(use_model=False, detectors=[Role("others", _title_and_name)]).detect(text)
    assert [text[s.start:s.end] for s in as_model if s.label == "PERSON"] == ["Jean Dupont"]  # title cut
    assert [text[s.start:s.end] for s in as_user if s.label == "PERSON"] == ["Dr Jean Dupont"]  # kept as asked


def _doubted_name(score):
    def spans(text):
        start = text.index("Ottavio")
        return [Span(start, start + len("Ottavio Brenning"), "PERSON", score, "model")]
    return spans


@pytest.mark.parametrize("model_score", [0.46, 0.9])
def test_a_titles_fallback_yields_only_to_a_model_name_the_engine_keeps(model_score):
    text = "Statement taken by Insp Ottavio Brenning at the front desk."
    found = Engine(use_model=False, detectors=[Role("model", _doubted_name(model_score))]).detect(text, "en")
    assert [(text[s.start:s.end], s.label) for s in found] == [("Ottavio Brenning", "PERSON")]
    sources = {s.source for s in found}
    assert sources == ({"pattern"} if model_score < 0.5 else {"model"})  # the fallback where the model is unsure


def test_a_detector_can_clear_a_region_of_other_candidates():
    text = "Tel : 01 23 45 67 89, mobile 06 12 34 56 78"
    switchboard = text.index("01"), text.index(",")

    def clears(text):
        return base.Findings([], [Suppression(*switchboard, frozenset({"PHONE"}))])

    kept = Engine(use_model=False, detectors=[Role("keywords", clears)]).detect(text, "fr")
    assert [text[s.start:s.end] for s in kept] == ["06 12 34 56 78"]
    assert len(Engine(use_model=False).detect(text, "fr")) == 2  # both phones without it


def test_a_detector_role_must_be_one_resolve_knows():
    with pytest.raises(ValueError, match="role must be one of"):
        Engine(use_model=False, detectors=[Role("oracle", lambda text: [])])


def test_the_rules_are_detectors_with_a_role_each():
    engine = Engine(use_model=False)
    assert [(d.name, base.role_of(d)) for d in engine.rule_detectors] == [
        ("identifiers", "identifiers"), ("patterns", "patterns"), ("keywords", "keywords")]
    assert all(isinstance(d, base.Detector) and base.role_of(d) in ROLES for d in engine.rule_detectors)
    text = "IBAN FR76 3000 6000 0112 3456 7890 189, tel 06 12 34 56 78"
    per_detector = [d.detect([text], ["fr"])[0] for d in engine.rule_detectors]
    assert {s.label for s in per_detector[0]} == {"IBAN"} and {s.label for s in per_detector[1]} == {"PHONE"}


def test_a_vin_is_an_identifier_wherever_it_is_written_and_a_masked_card_is_not():
    engine = Engine(use_model=False)
    text = "Véhicule : Clio, VIN VNK4BH1320T381542.\nINSERT INTO cars VALUES ('1FTRW08L83KD27316');\nCarte 53712XXXXXXXX4410"
    assert [(text[s.start:s.end], s.label) for s in engine.detect(text) if s.label == "IDENTIFIER"] == [
        ("VNK4BH1320T381542", "IDENTIFIER"), ("1FTRW08L83KD27316", "IDENTIFIER")]


def test_a_vin_shaped_serial_number_is_no_identifier():
    engine = Engine(use_model=False)
    assert engine.detect("Serial: C02XK1ZJJG5H12345") == []
