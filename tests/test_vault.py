"""Encrypted session vault: round trip, wrong key, tampering, nothing readable at rest."""

from __future__ import annotations

import os
import stat

import pytest
from _session_helpers import DETECTOR, FR_TURNS
from hypothesis import given, settings
from hypothesis import strategies as st

from alias_engine import MappingError, Session
from alias_engine.pseudonymise import vault


@pytest.fixture(autouse=True)
def cheap_scrypt(monkeypatch):
    # the cost is stored in each file; tests write cheap files to stay fast
    monkeypatch.setattr(vault, "SCRYPT_LOG2_N", 10)


@pytest.mark.parametrize("mode", ["placeholder", "surrogate"])
def test_saved_session_continues_where_it_stopped(tmp_path, mode):
    session = Session(DETECTOR, mode=mode, key=b"surrogate key")
    first = session.mask(FR_TURNS[0])
    path = tmp_path / "conversation.vault"
    session.save(path, key="correct horse battery staple")
    loaded = Session.load(path, key="correct horse battery staple", detector=DETECTOR)
    assert loaded.mode == mode and loaded.mapping == session.mapping
    assert loaded.unmask(first.text) == session.unmask(first.text)
    assert loaded.mask(FR_TURNS[1]).text == session.mask(FR_TURNS[1]).text
    assert stat.S_IMODE(os.stat(path).st_mode) == 0o600


def test_nothing_readable_at_rest(tmp_path):
    session = Session(DETECTOR)
    session.mask(FR_TURNS[0])
    path = tmp_path / "s.vault"
    session.save(path, key=b"k")
    blob = path.read_bytes()
    for secret in (b"Dupont", "Dupont".encode("utf-16-le"), b"FR76", b"3000", b"PERSON"):
        assert secret not in blob


def test_wrong_key_is_a_clear_error_without_values(tmp_path):
    session = Session(DETECTOR)
    session.mask(FR_TURNS[0])
    path = tmp_path / "s.vault"
    session.save(path, key=b"right")
    with pytest.raises(MappingError, match="wrong key") as info:
        Session.load(path, key=b"wrong")
    assert "Dupont" not in str(info.value)
    with pytest.raises(MappingError):
        Session.load(path, key=b"")


def test_not_a_vault_and_missing_file(tmp_path):
    bad = tmp_path / "notes.txt"
    bad.write_text("Jean Dupont")
    with pytest.raises(MappingError, match="not an alias-engine session vault") as info:
        Session.load(bad, key=b"k")
    assert "Dupont" not in str(info.value)
    with pytest.raises(MappingError, match="cannot read"):
        Session.load(tmp_path / "missing.vault", key=b"k")


SAVED: dict[str, bytes] = {}


def _saved_blob(tmp_path_factory) -> bytes:
    if "blob" not in SAVED:
        session = Session(DETECTOR, mode="surrogate", key=b"s")
        session.mask(FR_TURNS[0])
        path = tmp_path_factory.mktemp("v") / "s.vault"
        vault.SCRYPT_LOG2_N = 10
        session.save(path, key=b"k")
        SAVED["blob"] = path.read_bytes()
    return SAVED["blob"]


@settings(max_examples=40, deadline=None)
@given(st.data())
def test_any_tampering_is_rejected(tmp_path_factory, data):
    blob = bytearray(_saved_blob(tmp_path_factory))
    how = data.draw(st.sampled_from(["flip", "truncate", "append"]))
    if how == "flip":
        i = data.draw(st.integers(0, len(blob) - 1))
        blob[i] ^= data.draw(st.integers(1, 255))
    elif how == "truncate":
        blob = blob[:data.draw(st.integers(0, len(blob) - 1))]
    else:
        blob += data.draw(st.binary(min_size=1, max_size=8))
    path = tmp_path_factory.mktemp("t") / "s.vault"
    path.write_bytes(bytes(blob))
    with pytest.raises(MappingError):
        Session.load(path, key=b"k")
