"""One folder per language (rules/fr/, rules/en/): a new language is a new folder."""

from __future__ import annotations

import json
import shutil

import pytest

from alias_engine import Engine
from alias_engine.errors import RulesError
from alias_engine.language import WORD_KEYS, guess_language, shipped_languages
from alias_engine.resolve import check_model_spans
from alias_engine.resources import data_dir
from alias_engine.restore import unmask
from alias_engine.spans import Span


@pytest.fixture
def rules_copy(tmp_path):
    copy = tmp_path / "rules"
    shutil.copytree(data_dir("rules"), copy)
    return copy


def test_the_shipped_languages():
    languages = shipped_languages()
    assert languages.names == ("fr", "en") and languages.default == "en"
    assert [lang.phone_regions for lang in languages.all] == [("FR", "GB", "US"), ("GB", "US", "FR")]
    assert "bisous" in languages.all[0].not_names and "cheers" in languages.all[1].not_names


@pytest.mark.parametrize("text, lang", [
    ("Bonjour, je suis né à Lyon et nous sommes ici", "fr"),
    ("Hello, I was born in Leeds and we are here", "en"),
    ("12345 67890", "en"),  # no sign of a language: the default
    ("le the", "en"),  # a tie: the default
])
def test_guess(text, lang):
    assert guess_language(text) == lang


def _add_german(rules):
    folder = rules / "de"
    folder.mkdir()
    (folder / "keywords.json").write_text(json.dumps({"lang": "de", "keyword_rules": [
        {"label": "IDENTIFIER", "keywords": ["Personalnummer"], "values": ["id_code"], "score": 0.9}]}))
    (folder / "language.json").write_text(json.dumps({
        "lang": "de", "stop_words": {"words": ["der", "die", "das", "und", "ist", "ich", "nicht", "mit"]},
        "phone_regions": {"regions": ["DE", "FR", "GB"]}, "not_names": {"words": ["tschüss"]}}))


def test_a_new_language_is_a_new_folder(rules_copy):
    _add_german(rules_copy)
    engine = Engine(use_model=False, rules_dir=rules_copy)
    assert engine.langs == ("auto", "fr", "en", "de")
    text = "Die Personalnummer: AB-123456, und das ist nicht mit der Adresse."
    assert engine.rules.languages.guess(text) == "de"
    spans = engine.detect(text)
    assert [(text[s.start:s.end], s.label) for s in spans] == [("AB-123456", "IDENTIFIER")]
    assert engine.mask(text, "de").text == "Die Personalnummer: [IDENTIFIER_1], und das ist nicht mit der Adresse."
    assert "tschüss" in engine.rules.not_names
    with pytest.raises(ValueError, match="lang must be one of auto, fr, en, de"):
        engine.detect(text, "it")


@pytest.mark.parametrize("change, message", [
    (lambda r: (r / "fr" / "language.json").write_text('{"lang": "en"}'), "folder's name"),
    (lambda r: (r / "fr" / "language.json").write_text('{"stop_word": []}'), "unknown key"),
    (lambda r: (r / "languages.json").write_text('{"order": ["fr", "en", "it"]}'), "no folder it"),
    (lambda r: (r / "languages.json").write_text('{"order": ["fr", "en"], "default": "it"}'), "default"),
    (lambda r: (r / "en" / "keywords.json").unlink(), "not found"),
])
def test_malformed_language_folders_are_refused(rules_copy, change, message):
    change(rules_copy)
    with pytest.raises(RulesError, match=message):
        Engine(use_model=False, rules_dir=rules_copy)


def test_date_orders_are_the_languages_own(rules_copy):
    assert shipped_languages().date_orders == ("dmy", "mdy")
    text = "Born on 03/25/1985 in Leeds."
    assert [s.label for s in Engine(use_model=False).detect(text)] == ["BIRTH_DATE"]
    en = rules_copy / "en" / "language.json"
    data = json.loads(en.read_text(encoding="utf-8"))
    data["date_orders"]["orders"] = ["dmy"]  # no language left that writes the month first
    en.write_text(json.dumps(data), encoding="utf-8")
    engine = Engine(use_model=False, rules_dir=rules_copy)
    assert engine.rules.languages.date_orders == ("dmy",)
    assert [s for s in engine.detect(text) if s.label == "BIRTH_DATE" and s.verified] == []
    assert [s.label for s in engine.detect("Born on 25/03/1985 in Leeds.")] == ["BIRTH_DATE"]
    data["date_orders"]["orders"] = ["ymd?"]
    en.write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(RulesError, match="date_orders"):
        Engine(use_model=False, rules_dir=rules_copy)


def test_elided_articles_are_the_languages_own(rules_copy):
    articles = {a.stem: a.full for a in shipped_languages().elided_articles()}
    assert articles == {"qu": "que", "d": "de"}  # French's; English elides none
    assert unmask("le dossier d'[PERSON_1]", {"[PERSON_1]": "Marc"}) == "le dossier de Marc"
    assert unmask("le dossier d'[PERSON_1]", {"[PERSON_1]": "Hélène"}) == "le dossier d'Hélène"
    fr = rules_copy / "fr" / "language.json"
    data = json.loads(fr.read_text(encoding="utf-8"))
    data["elided_articles"]["articles"] = {"d": "le"}  # an article in full starts with its stem
    fr.write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(RulesError, match="elided_articles"):
        Engine(use_model=False, rules_dir=rules_copy)


def test_the_words_of_the_resolve_steps_are_each_languages():
    fr, en = shipped_languages().all
    assert "du" in fr.words_of("name_particles") and "du" not in en.words_of("name_particles")
    assert "of" in en.words_of("organisation_connectors") and "of" not in fr.words_of("organisation_connectors")
    assert "de" in fr.words_of("name_particles") & en.words_of("name_particles")  # a word of both
    for key in WORD_KEYS:  # the resolve steps read every language's words
        assert shipped_languages().words(key) == fr.words_of(key) | en.words_of(key) != frozenset()
    rules = Engine(use_model=False).rules
    assert rules.lexicon.name_particles == shipped_languages().words("name_particles")
    assert rules.lexicon.organisation_connectors == shipped_languages().words("organisation_connectors")
    assert rules.fields.not_a_name_values == shipped_languages().words("not_a_name_values")


def test_a_word_of_one_language_applies_to_a_text_of_another(rules_copy):
    fr, en = shipped_languages().all
    assert "mme" in fr.words_of("person_lead_words") and "mme" not in en.words_of("person_lead_words")
    text = "The keys were handed to Mme Laura Petit on Monday."
    span = Span(text.index("Mme"), text.index(" on"), "PERSON", 0.9, "model")
    checks = Engine(use_model=False).rules.model_checks
    assert [text[s.start:s.end] for s in check_model_spans([span], text, checks, "en")] == ["Laura Petit"]
    path = rules_copy / "fr" / "language.json"  # a title that only French lists, in an English text
    data = json.loads(path.read_text(encoding="utf-8"))
    data["words"]["person_lead_words"]["words"].append("Kommandant")
    path.write_text(json.dumps(data), encoding="utf-8")
    text = "The report was signed by Kommandant Laura Petit on Monday."
    span = Span(text.index("Kommandant"), text.index(" on"), "PERSON", 0.9, "model")
    checks = Engine(use_model=False, rules_dir=rules_copy).rules.model_checks
    assert [text[s.start:s.end] for s in check_model_spans([span], text, checks, "en")] == ["Laura Petit"]


@pytest.mark.parametrize("words, message", [
    ({"name_particles": ["de"]}, r"words\.name_particles must be an object"),
    ({"name_particles": {"words": "de"}}, r"words\.name_particles must be an object"),
    ({"name_particles": {"words": ["de", 3]}}, r"words\.name_particles must be an object"),
    ({"name_particles": {"word": ["de"]}}, r"words\.name_particles must be an object"),
    ({"name_particle": {"words": ["de"]}}, r"unknown key\(s\) name_particle"),
    ({"lower_case_words": {"file": "../common.json"}}, r"words\.lower_case_words must be an object"),
    ({"lower_case_words": {"file": "words.txt", "words": ["objet"]}}, r"words\.lower_case_words must be an object"),
    ({"lower_case_words": {"file": "missing.txt"}}, r"cannot read the word file 'missing.txt'"),
    (["de"], r"\"words\" is an object"),
])
def test_a_malformed_words_entry_is_refused_with_its_file(rules_copy, words, message):
    path = rules_copy / "fr" / "language.json"
    data = json.loads(path.read_text(encoding="utf-8"))
    data["words"] = words
    path.write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(RulesError, match=r"fr[/\\]language\.json: " + message):
        Engine(use_model=False, rules_dir=rules_copy)


@pytest.mark.parametrize("section, key", [("model_checks", "name_particles"), ("letterheads", "street_words")])
def test_a_word_list_left_in_common_json_is_refused(rules_copy, section, key):
    path = rules_copy / "common.json"
    data = json.loads(path.read_text(encoding="utf-8"))
    data.setdefault(section, {})[key] = ["de"]
    path.write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(RulesError, match=f"common.json: .*{section}.*language.json"):
        Engine(use_model=False, rules_dir=rules_copy)


def test_a_word_list_may_be_a_file_of_the_language_folder(rules_copy):
    (rules_copy / "fr" / "mots.txt").write_text("# a comment line\nObjet\n\n  compte  \n", encoding="utf-8")
    path = rules_copy / "fr" / "language.json"
    data = json.loads(path.read_text(encoding="utf-8"))
    data["words"]["lower_case_words"] = {"comment": "a file", "file": "mots.txt"}
    path.write_text(json.dumps(data), encoding="utf-8")
    fr = Engine(use_model=False, rules_dir=rules_copy).rules.languages.all[0]
    assert fr.words_of("lower_case_words") == frozenset({"objet", "compte"})


def _with_words(rules_copy, lang, key, words):
    path = rules_copy / lang / "language.json"
    data = json.loads(path.read_text(encoding="utf-8"))
    data["words"].setdefault(key, {"comment": "a test's", "words": []})["words"] += words
    path.write_text(json.dumps(data), encoding="utf-8")
    return Engine(use_model=False, rules_dir=rules_copy).rules


def test_the_connectors_and_leads_of_the_resolve_steps_are_a_languages_words(rules_copy):
    text = "Unterschrift: Anna und Marc Weber"
    span = [Span(text.index("Anna"), len(text), "PERSON", 0.9, "model")]
    shipped = Engine(use_model=False).rules.model_checks
    assert [text[s.start:s.end] for s in check_model_spans(span, text, shipped)] == ["Anna und Marc Weber"]
    checks = _with_words(rules_copy, "en", "couple_connectors", ["und"]).model_checks
    assert [text[s.start:s.end] for s in check_model_spans(span, text, checks)] == ["Anna", "Marc Weber"]

    text = "Treffen vor dem 27 High Street, Leeds"
    span = [Span(text.index("vor"), len(text), "ADDRESS", 0.9, "model")]
    assert [text[s.start:s.end] for s in check_model_spans(span, text, shipped)] == ["vor dem 27 High Street, Leeds"]
    checks = _with_words(rules_copy, "fr", "address_lead_words", ["vor dem"]).model_checks
    assert [text[s.start:s.end] for s in check_model_spans(span, text, checks)] == ["27 High Street, Leeds"]


def test_the_connectors_of_a_keywords_list_are_a_languages_words(rules_copy):
    text = "codes de secours : 4471-9023 und 8264-1937"
    before = [text[s.start:s.end] for s in Engine(use_model=False).detect(text, "fr")]
    rules = _with_words(rules_copy, "en", "list_connectors", ["und"])
    after = [text[s.start:s.end] for s in Engine(use_model=False, rules_dir=rules_copy).detect(text, "fr")]
    assert before == ["4471-9023"] and after == ["4471-9023", "8264-1937"]
    assert rules.keywords.list_separator.match(" UND ") is not None


def test_a_one_letter_title_is_read_by_the_texts_language(rules_copy):
    # French "M." is Monsieur, English "M." an initial: a language's person_lead_words, read per language.
    text = "Unterschrift: H. Weber"
    span = [Span(text.index("Weber"), len(text), "PERSON", 0.9, "model")]
    shipped = Engine(use_model=False).rules.model_checks
    assert [text[s.start:s.end] for s in check_model_spans(span, text, shipped, "en")] == ["H. Weber"]
    checks = _with_words(rules_copy, "en", "person_lead_words", ["h."]).model_checks
    assert [text[s.start:s.end] for s in check_model_spans(span, text, checks, "en")] == ["Weber"]
    assert [text[s.start:s.end] for s in check_model_spans(span, text, checks, "fr")] == ["H. Weber"]
