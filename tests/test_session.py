"""Sessions: consistent pseudonyms across the turns of a conversation, restore of LLM answers."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from _session_helpers import DETECTOR, EN_TURNS, ENGINE, FR_TURNS
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from alias_engine import InputError, Session
from alias_engine.pseudonymise.names import ascii_fold, load_names
from alias_engine.restore import unmask, unmask_report

NAMES = load_names()


def conversation(mode: str, turns, key: bytes = b"test key"):
    session = Session(DETECTOR, mode=mode, key=key)
    return session, [session.mask(t) for t in turns]


@pytest.mark.parametrize("mode", ["placeholder", "surrogate"])
@pytest.mark.parametrize("turns", [FR_TURNS, EN_TURNS], ids=["fr", "en"])
def test_every_turn_round_trips(mode, turns):
    session, results = conversation(mode, turns)
    for text, result in zip(turns, results):
        assert unmask(result.text, result.mapping) == text
        assert session.unmask(result.text) == text or mode == "placeholder"
        for span in result.spans:
            assert text[span.start:span.end] not in result.text


def test_placeholders_are_consistent_across_turns():
    session, (m1, m2, m3) = conversation("placeholder", FR_TURNS)
    assert m1.text.startswith("Bonjour, je suis [PERSON_1], né le [BIRTH_DATE_1]. Mon IBAN est [IBAN_1]")
    # M. Dupont, the compact IBAN and the unspaced phone of turn 2 are the values of turn 1
    assert m2.text.startswith("M. [PERSON_1] a aussi un compte [IBAN_1] et le [PHONE_1].")
    assert "Mme [PERSON_2]" in m2.text  # Marie Dupont is somebody else
    # DUPONT Jean is Jean Dupont; Jean alone is the only Jean known
    assert m3.text.startswith("[PERSON_1] et [PERSON_3] ont signé. [PERSON_1] rappellera Mme [PERSON_4]")
    assert session.mapping["[PERSON_1]"] == "Jean Dupont"


def test_name_variants_link_only_when_unambiguous():
    session = Session(DETECTOR)
    assert session.mask("J. Dupont").text == "[PERSON_1]"
    assert session.mask("Jean Dupont").text == "[PERSON_1]"
    assert session.mask("Jean Moreau et Moreau").text == "[PERSON_2] et [PERSON_2]"
    # two Jeans known now: "Jean" alone is not linked to either
    assert session.mask("Jean").text == "[PERSON_3]"
    assert session.mapping["[PERSON_1]"] == "Jean Dupont"  # the fullest form is what a bare placeholder gives


def test_llm_edits_of_placeholders_are_restored():
    session, _ = conversation("placeholder", FR_TURNS[:2])
    answer = ("Cher [person_1], j'ai noté l'adresse de {PERSON_2} et le compte [IBAN 1]. "
              "Le dossier d'[PERSON_1] et PERSON_2's file; voir <Phone-1>.")
    report = session.unmask_report(answer)
    assert report.text == ("Cher Jean Dupont, j'ai noté l'adresse de Marie Dupont et le compte "
                           "FR76 3000 6000 0112 3456 7890 189. Le dossier de Jean Dupont et Marie Dupont's file; "
                           "voir 06 12 34 56 78.")
    assert report.restored == 6
    assert report.unknown == ()


def test_invented_placeholders_are_left_and_reported():
    session, _ = conversation("placeholder", FR_TURNS[:1])
    report = session.unmask_report("[PERSON_1] et [PERSON_7] ; [iban 4].")
    assert report.text == "Jean Dupont et [PERSON_7] ; [iban 4]."
    assert report.unknown == ("[PERSON_7]", "[iban 4]")


def test_values_inside_json_keep_it_valid():
    session = Session(lambda text: [s for s in DETECTOR.detect(text)] + [])
    mapping_text = 'Le client "Jean Dupont" habite 8 avenue Jean Jaurès\n69007 Lyon.'
    # a pseudonym never swallows a line break: the two lines of the address are two values
    assert session.mask(mapping_text).text == 'Le client "[PERSON_1]" habite [ADDRESS_1]\n[ADDRESS_2].'
    call = '{"name": "send_letter", "arguments": {"to": "[PERSON_1]", "address": "[ADDRESS_1]\\n[ADDRESS_2]"}}'
    restored = json.loads(session.unmask(call))
    assert restored["arguments"] == {"to": "Jean Dupont", "address": "8 avenue Jean Jaurès\n69007 Lyon"}
    # a value that would break the JSON (from a mapping written by hand or an older version) is escaped
    multi_line = unmask('{"address": "[ADDRESS_1]"}', {"[ADDRESS_1]": "8 avenue Jean Jaurès\n69007 Lyon"})
    assert json.loads(multi_line) == {"address": "8 avenue Jean Jaurès\n69007 Lyon"}
    quoted = unmask('{"who": "[PERSON_1]"} and [PERSON_1]', {"[PERSON_1]": 'Jean "JJ" Dupont'})
    assert quoted == '{"who": "Jean \\"JJ\\" Dupont"} and Jean "JJ" Dupont'
    assert json.loads(quoted.split(" and ")[0]) == {"who": 'Jean "JJ" Dupont'}


def test_placeholder_written_in_the_input_still_round_trips():
    session = Session(DETECTOR)
    text = "Jean Dupont a écrit « [PERSON_1] » et PERSON_2 dans le modèle."
    m = session.mask(text)
    assert unmask(m.text, m.mapping) == text
    assert session.unmask(m.text) == text


def test_surrogate_mode_gives_realistic_consistent_values():
    session, (m1, m2, m3) = conversation("surrogate", FR_TURNS)
    fake = {v if isinstance(v, str) else v[0]: k for k, v in m1.mapping.items()}
    fake_name = fake["Jean Dupont"]
    given, family = fake_name.split(" ", 1)
    assert NAMES.gender_of(given) == "m"  # "né le" and the first name say a man
    assert f"M. {family} a aussi" in m2.text  # the surname alone gets the fake surname alone
    assert m3.text.startswith(f"{family.upper()} {given} et ")
    assert fake["jean.dupont@gmail.com"].endswith("@gmail.com")
    assert ascii_fold(family).lower() in fake["jean.dupont@gmail.com"]
    marie = next(k for k, v in m2.mapping.items() if v == "Marie Dupont")
    assert marie.endswith(" " + family) and NAMES.gender_of(marie.split()[0]) == "f"  # same family, a woman


def test_surrogate_restore_survives_partial_and_case_edits():
    session, (m1, *_) = conversation("surrogate", FR_TURNS[:1])
    fake = {v: k for k, v in m1.mapping.items()}
    given, family = fake["Jean Dupont"].split(" ", 1)
    answer = f"Bonjour {given}, M. {family.upper()} ({family}) doit rappeler le {fake['06 12 34 56 78'].replace(' ', '')}."
    assert session.unmask(answer) == "Bonjour Jean, M. DUPONT (Dupont) doit rappeler le 06 12 34 56 78."


def test_surrogates_are_deterministic_for_a_key():
    _, a = conversation("surrogate", EN_TURNS, key=b"k1")
    _, b = conversation("surrogate", EN_TURNS, key=b"k1")
    _, c = conversation("surrogate", EN_TURNS, key=b"k2")
    assert [r.text for r in a] == [r.text for r in b]
    assert [r.text for r in a] != [r.text for r in c]


def test_engine_session_and_errors():
    session = ENGINE.session()
    m = session.mask("IBAN FR76 3000 6000 0112 3456 7890 189")
    assert m.text == "IBAN [IBAN_1]"
    assert session.unmask("[IBAN_1]") == "FR76 3000 6000 0112 3456 7890 189"
    with pytest.raises(ValueError):
        ENGINE.session(mode="magic")
    with pytest.raises(InputError):
        session.mask(b"bytes")  # type: ignore[arg-type]
    assert "FR76" not in repr(session)


FIRST = ("Jean Dupont", "Anne Martin", "John Smith", "Mary Johnson", "Karim Benali", "Fatou Diallo")
VALUES = ("FR76 3000 6000 0112 3456 7890 189", "06 12 34 56 78", "4111 1111 1111 1111", "123-45-6789",
          "QQ 12 34 56 C", "12/03/1985", "jean.dupont@gmail.com", "192.168.1.20", "12 rue des Lilas, 75011 Paris")
FILLER = st.text(alphabet=st.sampled_from(list("abcdefghij ,.;:'’\"()[]{}\n-éà")), max_size=12)
PIECES = st.one_of(st.sampled_from(FIRST), st.sampled_from(VALUES), FILLER,
                   st.sampled_from(("M. Dupont", "Mme Martin", "DUPONT Jean", "Jean", "Smith", "[PERSON_1]",
                                    "d'", " de ", "PERSON_2")))
TEXTS = st.lists(PIECES, min_size=1, max_size=12).map(" ".join)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(TEXTS, min_size=1, max_size=3), st.sampled_from(["placeholder", "surrogate"]))
def test_mask_then_unmask_is_the_identity(turns, mode):
    session = Session(DETECTOR, mode=mode, key=b"property")
    for text in turns:
        result = session.mask(text)
        assert unmask(result.text, result.mapping) == text
        if mode == "surrogate":
            assert session.unmask(result.text) == text
        else:
            assert unmask_report(result.text, result.mapping).unknown == ()


def test_fake_names_in_lower_case_are_words_not_names():
    session, (m1, *_) = conversation("surrogate", FR_TURNS[:1])
    family = {v: k for k, v in m1.mapping.items()}["Jean Dupont"].split(" ", 1)[1]
    assert session.unmask(f"{family.lower()} / {family}") == f"{family.lower()} / Dupont"
    assert family.casefold() not in NAMES.not_surrogates


def test_the_worked_example_of_the_docs():
    turns = ("Bonjour, je suis Jean Dupont, né le 12/03/1985. Mon IBAN est FR76 3000 6000 0112 3456 7890 189 "
             "et mon téléphone 06 12 34 56 78.",
             "M. Dupont a aussi le compte FR7630006000011234567890189. Écrivez à jean.dupont@gmail.com.")
    session, (m1, m2) = conversation("placeholder", turns)
    assert m2.text == "M. [PERSON_1] a aussi le compte [IBAN_1]. Écrivez à [EMAIL_1]."
    report = session.unmask_report("Bien noté, [person_1]. Le dossier d'[PERSON_1] : virement depuis {IBAN_1}, "
                                   "rappel au PHONE_1. [PERSON_2] n'existe pas. {\"to\": \"[EMAIL_1]\"}")
    assert report.text == ("Bien noté, Jean Dupont. Le dossier de Jean Dupont : virement depuis "
                           "FR76 3000 6000 0112 3456 7890 189, rappel au 06 12 34 56 78. [PERSON_2] n'existe pas. "
                           "{\"to\": \"jean.dupont@gmail.com\"}")
    assert (report.restored, report.unknown) == (5, ("[PERSON_2]",))
    session, (m1, m2) = conversation("surrogate", turns, key=b"doc example key")
    docs = (Path(__file__).resolve().parent.parent / "docs" / "pseudonymisation.md").read_text(encoding="utf-8")
    assert m1.text in docs and m2.text in docs


def test_a_detector_returning_overlapping_spans_is_refused():
    from alias_engine import AliasEngineError
    from alias_engine.spans import Span

    session = Session(lambda text: [Span(0, 4, "PERSON"), Span(2, 6, "PERSON")])
    with pytest.raises(AliasEngineError, match="overlapping"):
        session.mask("Jean Dupont")


@pytest.mark.parametrize("mode", ["placeholder", "surrogate"])
def test_one_phone_number_written_nationally_and_internationally(mode):
    session = Session(DETECTOR, mode=mode, key=b"k")
    turns = ("Tél 06 12 34 56 78.", "Ou +33 6 12 34 56 78, 0033 6 12 34 56 78, +33 (0)6 12 34 56 78.")
    m1, m2 = (session.mask(t) for t in turns)
    if mode == "placeholder":
        assert m2.text == "Ou [PHONE_1], [PHONE_1], [PHONE_1]."
    else:
        digits = "".join(c for c in m1.text if c.isdigit())[1:]  # the fake number without its 0
        assert all(d.replace(" ", "").replace("(0)", "").endswith(digits) for d in m2.mapping)
        assert session.unmask(m2.text) == turns[1]
    assert unmask(m2.text, m2.mapping) == turns[1]


def test_a_surrogate_built_from_an_email_is_never_a_word_of_the_text():
    from alias_engine import Engine

    engine = Engine(use_model=False)
    for first in ("Louis", "Paul", "Marie", "Julien", "Sophie", "Thomas", "Camille", "Hugo"):
        session = engine.session(mode="surrogate", key=b"k")
        text = f"{first} viendra. Contact: jean.dupont@gmail.com"
        masked = session.mask(text).text
        assert first in masked
        local = masked.split("Contact: ")[1].split("@")[0]
        assert first.lower() not in local.split(".")
        assert session.unmask(masked) == text


def test_surrogates_of_secrets_and_ips_restore_only_as_written_and_aliases_do_not_pile_up():
    from alias_engine import Engine

    session = Engine(use_model=False).session(mode="surrogate", key=b"k")
    text = "password: Hunter2xyz and server 10.1.2.3"
    masked = session.mask(text).text
    fake_secret = masked.split("password: ")[1].split(" and")[0]
    fake_ip = masked.rsplit(" ", 1)[1]
    assert session.unmask(masked) == text
    # The case of a secret is part of it: an upper-cased surrogate is another string.
    assert session.unmask(fake_secret.upper()) == fake_secret.upper()
    # Another IP with the same digits is not the surrogate.
    shuffled = fake_ip.replace(".", "")
    other_ip = ".".join([shuffled[:3], shuffled[3:4], shuffled[4:5], shuffled[5:]])
    if other_ip != fake_ip:
        assert session.unmask(other_ip) == other_ip
    for _ in range(20):
        session.mask(text)
    assert len(session._state.aliases) == len(set(session._state.aliases))


@pytest.mark.parametrize("mode", ["placeholder", "surrogate"])
def test_a_value_masked_in_an_earlier_turn_stays_masked_where_the_detector_misses_it(mode):
    session = ENGINE.session(mode=mode)  # rules only: the bare name of turn 2 is nothing to them
    first = session.mask("Nom : OKAFOR\nPrénom : Ifeoma\nClient n° QX-40917", "fr")
    second = session.mask("Rappel : Ifeoma Okafor, voir QX-40917. Ifeoma rappelle demain.", "fr")
    for value in ("Ifeoma", "Okafor", "QX-40917"):
        assert value not in first.text and value not in second.text
    assert ENGINE.detect("Rappel : Ifeoma Okafor, voir QX-40917.", "fr") == []  # what the turn alone gives
    assert session.unmask(second.text) == "Rappel : Ifeoma Okafor, voir QX-40917. Ifeoma rappelle demain."
    assert unmask(second.text, second.mapping) == "Rappel : Ifeoma Okafor, voir QX-40917. Ifeoma rappelle demain."


def test_the_proxys_cached_detector_gives_a_session_the_rules_word_lists():
    from alias_engine.server.masking import CachedDetector

    session = Session(CachedDetector(ENGINE), lang="fr")
    session.mask("Nom : OKAFOR\nPrénom : Ifeoma")
    second = session.mask("Je transmets le dossier, Merci Okafor.")  # "Merci" (person_lead_words) is no proper noun
    assert ENGINE.detect("Je transmets le dossier, Merci Okafor.", "fr") == []
    assert second.text == "Je transmets le dossier, Merci [PERSON_1]."
