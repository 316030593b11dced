"""analyse / mask / restore as separate entry points, and the old names that still work."""

from __future__ import annotations

import pytest

import alias_engine
from alias_engine import Engine, Session, Span
from alias_engine.errors import AliasEngineError, InputError
from alias_engine.masks import mask_spans

TEXT = "Mail jean.dupont@example.fr, IBAN FR76 3000 6000 0112 3456 7890 189."


@pytest.fixture(scope="module")
def engine():
    return Engine(use_model=False)


def test_detect_then_mask_chosen_spans_then_module_level_unmask(engine):
    spans = engine.detect(TEXT)
    assert [s.label for s in spans] == ["EMAIL", "IBAN"]
    only_iban = engine.mask(TEXT, spans=[s for s in spans if s.label == "IBAN"])
    assert only_iban.text == "Mail jean.dupont@example.fr, IBAN [IBAN_1]."
    assert alias_engine.unmask(only_iban.text, only_iban.mapping) == TEXT
    assert engine.mask(TEXT, spans=spans) == engine.mask(TEXT)


def test_old_names_still_work(engine):
    result = engine.mask(TEXT, "fr")
    assert result == mask_spans(TEXT, engine.detect(TEXT, "fr"), engine.placeholder)
    assert engine.unmask(result.text, result.mapping) == TEXT
    session = engine.session()
    assert session.unmask(session.mask(TEXT).text) == TEXT


def test_mask_refuses_spans_that_are_not_of_the_text(engine):
    with pytest.raises(InputError):
        engine.mask("short", spans=[Span(0, 40, "PERSON")])
    with pytest.raises(InputError):
        engine.mask(TEXT, spans=[Span(0, 10, "PERSON"), Span(5, 12, "EMAIL")])


def test_a_session_masks_with_the_detector_it_is_given_and_one_mapping_type(engine):
    session = Session(engine)
    result = session.mask(TEXT)
    assert isinstance(result.mapping, dict) and all(isinstance(v, (str, list)) for v in result.mapping.values())
    assert alias_engine.unmask(result.text, result.mapping) == TEXT


def test_a_session_without_a_detector_only_unmasks():
    with pytest.raises(AliasEngineError, match="no detector"):
        Session().mask(TEXT)
    assert Session().unmask("nothing to restore") == "nothing to restore"
