"""The Presidio recognizer (alias_engine/adapters/presidio.py) inside the real presidio-analyzer."""

from __future__ import annotations

import pytest

from alias_engine import Engine
from alias_engine.adapters.presidio_entities import (
    PRESIDIO_ENTITIES,
    label_of,
    presidio_entities,
    presidio_entity,
)
from alias_engine.errors import AliasEngineError, InputError
from alias_engine.labels import LABELS

NIR = "1 02 02 34 121 508 66"
TEXT_FR = ("Mail jean.dupont@example.fr, tél. 06 12 34 56 78, né le 12/03/1985, "
           f"NIR {NIR}, IBAN FR76 3000 6000 0112 3456 7890 189, IP 192.168.10.4")


def test_the_table_names_every_label_and_reads_back():
    assert set(PRESIDIO_ENTITIES) == set(LABELS)
    for label in LABELS:
        assert label_of(presidio_entity(label)) == label
    assert presidio_entity("NATIONAL_ID", NIR) == "FR_NIR"
    assert presidio_entity("NATIONAL_ID", "780-58-7738") == "US_SSN"
    assert presidio_entity("NATIONAL_ID", "PJ 09 84 18 D") == "UK_NINO"
    assert presidio_entity("NATIONAL_ID", "P12345678") == "NATIONAL_ID"  # a passport: no Presidio name
    assert presidio_entity("EMPLOYEE_ID", "EMP-1") == "EMPLOYEE_ID"     # a declared label keeps its name
    assert {"FR_NIR", "US_SSN", "UK_NINO", "NATIONAL_ID"} <= set(presidio_entities(["NATIONAL_ID"]))


presidio_analyzer = pytest.importorskip("presidio_analyzer", reason="the [presidio] extra is not installed")
from alias_engine.adapters.presidio import (  # noqa: E402
    AliasEngineRecognizer,
    blank_nlp_engine,
    recognizers,
    registry,
    spans_of,
)


@pytest.fixture(scope="module")
def rules_engine():
    return Engine(use_model=False)


@pytest.fixture(scope="module")
def analyzer(rules_engine):
    return presidio_analyzer.AnalyzerEngine(registry=registry(rules_engine), nlp_engine=blank_nlp_engine(),
                                            supported_languages=["en", "fr"])


def test_analyzer_engine_gives_presidio_names_at_the_engine_offsets(analyzer, rules_engine):
    results = sorted(analyzer.analyze(TEXT_FR, language="fr"), key=lambda r: r.start)
    found = {(r.entity_type, TEXT_FR[r.start:r.end]) for r in results}
    assert found == {("EMAIL_ADDRESS", "jean.dupont@example.fr"), ("PHONE_NUMBER", "06 12 34 56 78"),
                     ("DATE_TIME", "12/03/1985"), ("FR_NIR", NIR),
                     ("IBAN_CODE", "FR76 3000 6000 0112 3456 7890 189"), ("IP_ADDRESS", "192.168.10.4")}
    spans = rules_engine.detect(TEXT_FR, "fr")
    assert [(s.start, s.end, s.label) for s in spans] == [(s.start, s.end, s.label) for s in spans_of(results)]
    assert all(r.recognition_metadata["recognizer_name"] == "AliasEngineRecognizer" for r in results)
    assert all(0 < r.score <= 1 for r in results)


def test_entities_asked_for_are_the_only_ones_returned(analyzer):
    results = analyzer.analyze(TEXT_FR, language="fr", entities=["EMAIL_ADDRESS", "FR_NIR"])
    assert sorted(r.entity_type for r in results) == ["EMAIL_ADDRESS", "FR_NIR"]


def test_english_text_and_us_uk_ids(analyzer):
    text = "SSN 780-58-7738, NINO PJ 09 84 18 D, card 4111 1111 1111 1111, see https://drive.example.com/u/jdoe"
    names = {r.entity_type for r in analyzer.analyze(text, language="en")}
    assert {"US_SSN", "UK_NINO", "CREDIT_CARD"} <= names


def test_the_model_finds_names_through_presidio():
    engine = Engine()  # the shipped model
    analyzer = presidio_analyzer.AnalyzerEngine(registry=registry(engine, ["fr"]), nlp_engine=blank_nlp_engine(["fr"]),
                                                supported_languages=["fr"])
    text = "Bonjour, je suis Jean Dupont et j'habite à Lyon."
    assert ("PERSON", "Jean Dupont") in {(r.entity_type, text[r.start:r.end])
                                         for r in analyzer.analyze(text, language="fr")}


def test_one_engine_serves_every_language(rules_engine):
    rs = recognizers(rules_engine)
    assert [r.supported_language for r in rs] == ["en", "fr"]
    assert all(r.engine is rules_engine for r in rs)


def test_bad_setup_is_a_clear_error(rules_engine):
    with pytest.raises(AliasEngineError, match="supported_language must be one of"):
        AliasEngineRecognizer(rules_engine, supported_language="de")
    with pytest.raises(AliasEngineError, match="cannot find: US_PASSPORT"):
        AliasEngineRecognizer(rules_engine, supported_entities=["US_PASSPORT"])
    with pytest.raises(AliasEngineError, match="either an engine or Engine options"):
        AliasEngineRecognizer(rules_engine, use_model=False)
    with pytest.raises(AliasEngineError, match="must be an alias_engine.Engine"):
        AliasEngineRecognizer(engine="not an engine")


def test_detection_fails_closed_through_analyzer_engine(analyzer, rules_engine):
    with pytest.raises(InputError, match="surrogate"):  # (in AnalyzerEngine, spaCy's tokenizer refuses it first)
        AliasEngineRecognizer(rules_engine).analyze("bad \ud800 text", None, None)

    def broken(text):
        raise RuntimeError("down")

    failing = presidio_analyzer.AnalyzerEngine(registry=registry(Engine(use_model=False, detectors=[broken])),
                                               nlp_engine=blank_nlp_engine(), supported_languages=["en", "fr"])
    with pytest.raises(AliasEngineError, match="detector broken failed"):
        failing.analyze("mail jean.dupont@example.fr", language="en")
