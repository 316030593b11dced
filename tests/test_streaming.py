"""Streaming restore gives exactly the batch restore, whatever the chunks."""

from __future__ import annotations

import pytest
from _session_helpers import DETECTOR, EN_TURNS, FR_TURNS
from hypothesis import given, settings
from hypothesis import strategies as st

from alias_engine import InputError, Session


def _session(mode: str) -> Session:
    session = Session(DETECTOR, mode=mode, key=b"stream")
    for turn in FR_TURNS + EN_TURNS:
        session.mask(turn)
    return session


PLACEHOLDER_ANSWER = (
    "Bonjour [PERSON_1] ! J'ai bien reçu le dossier d'[PERSON_1] et celui de {person_2}. "
    "Voici l'appel d'outil : {\"name\": \"letter\", \"arguments\": {\"to\": \"[PERSON_2]\", "
    "\"address\": \"[ADDRESS_2]\", \"iban\": \"[IBAN 1]\"}}\n\n"
    "PERSON_3's phone is [PHONE_1]; [PERSON_99] is unknown, [EMAIL_1] écrit — ça marche ✓ 😀. "
) * 4


def _surrogate_answer(session: Session) -> str:
    forms = sorted(session.mapping, key=len)
    parts = [f"« {form} » et {form.upper()} puis {form.replace(' ', '')}" for form in forms[::2]]
    return "Réponse : " + " ; ".join(parts) + " — fin 😀."


def _stream(session: Session, chunks) -> str:
    restorer = session.restorer()
    return "".join(restorer.feed(c) for c in chunks) + restorer.flush()


@pytest.mark.parametrize("mode", ["placeholder", "surrogate"])
def test_every_split_position_gives_the_batch_result(mode):
    session = _session(mode)
    answer = PLACEHOLDER_ANSWER if mode == "placeholder" else _surrogate_answer(session)
    assert len(answer) > 1000
    batch = session.unmask(answer)
    assert batch != answer
    for i in range(len(answer) + 1):
        assert _stream(session, [answer[:i], answer[i:]]) == batch, i


@pytest.mark.parametrize("mode", ["placeholder", "surrogate"])
def test_one_character_at_a_time_holds_at_most_one_pseudonym(mode):
    session = _session(mode)
    answer = PLACEHOLDER_ANSWER if mode == "placeholder" else _surrogate_answer(session)
    longest = max(len(p) for p in session.mapping) + len("d'") + 4  # edited brackets and spaces
    restorer = session.restorer()
    out = []
    for ch in answer:
        out.append(restorer.feed(ch))
        assert restorer.pending <= longest
    out.append(restorer.flush())
    assert "".join(out) == session.unmask(answer)


def test_plain_text_is_emitted_at_once():
    restorer = _session("placeholder").restorer()
    assert restorer.feed("Bonjour, voici ") == "Bonjour, voici "
    assert restorer.feed("[PERS") == ""
    assert restorer.feed("ON_1] merci") == "Jean Dupont merci"
    assert restorer.flush() == ""
    assert restorer.restored == 1


def test_every_byte_split_of_utf8_gives_the_batch_result():
    session = _session("placeholder")
    answer = "Réponse à [PERSON_1] — « ça va » 😀 [PERSON_2]’s café ✓"
    data = answer.encode("utf-8")
    batch = session.unmask(answer)
    for i in range(len(data) + 1):
        restorer = session.restorer()
        out = restorer.feed_bytes(data[:i]) + restorer.feed_bytes(data[i:]) + restorer.flush()
        assert out == batch, i


def test_bad_input_is_refused_clearly():
    restorer = _session("placeholder").restorer()
    with pytest.raises(InputError):
        restorer.feed(b"bytes")  # type: ignore[arg-type]
    with pytest.raises(InputError):
        restorer.feed_bytes(b"\xff\xfe")
    truncated = _session("placeholder").restorer()
    truncated.feed_bytes("é".encode()[:1])
    with pytest.raises(InputError):
        truncated.flush()


def test_unknown_placeholders_are_reported_while_streaming():
    restorer = _session("placeholder").restorer()
    out = restorer.feed("[PERSON_1] et [PERSON_42]") + restorer.flush()
    assert out == "Jean Dupont et [PERSON_42]"
    assert restorer.unknown == ("[PERSON_42]",)


PLACEHOLDER_SESSION = _session("placeholder")
SURROGATE_SESSION = _session("surrogate")


@settings(max_examples=60, deadline=None)
@given(st.data())
def test_streaming_equals_batch_for_any_chunks(data):
    session = data.draw(st.sampled_from([PLACEHOLDER_SESSION, SURROGATE_SESSION]))
    pieces = sorted(session.mapping) + ["d'", "[", "]", " ", "\"", "{", "}", "\n", "é", "PERSON_", "x"]
    answer = "".join(data.draw(st.lists(st.sampled_from(pieces), max_size=25)))
    cuts = sorted(data.draw(st.lists(st.integers(0, len(answer)), max_size=6)))
    chunks = [answer[a:b] for a, b in zip([0] + cuts, cuts + [len(answer)])]
    assert _stream(session, chunks) == session.unmask(answer)
