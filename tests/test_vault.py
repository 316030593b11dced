"""Encrypted session vault: round trip, wrong key, tampering, nothing readable at rest."""

from __future__ import annotations

import json
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
    session.save(path, key=b"vault key")
    blob = path.read_bytes()
    for secret in (b"Dupont", "Dupont".encode("utf-16-le"), b"FR76", b"3000", b"PERSON"):
        assert secret not in blob


def test_wrong_key_is_a_clear_error_without_values(tmp_path):
    session = Session(DETECTOR)
    session.mask(FR_TURNS[0])
    path = tmp_path / "s.vault"
    session.save(path, key=b"right key 1")
    with pytest.raises(MappingError, match="wrong key") as info:
        Session.load(path, key=b"wrong key 2")
    assert "Dupont" not in str(info.value)
    with pytest.raises(MappingError):
        Session.load(path, key=b"")


def test_not_a_vault_and_missing_file(tmp_path):
    bad = tmp_path / "notes.txt"
    bad.write_text("Jean Dupont")
    with pytest.raises(MappingError, match="not an alias-engine session vault") as info:
        Session.load(bad, key=b"vault key")
    assert "Dupont" not in str(info.value)
    with pytest.raises(MappingError, match="cannot read"):
        Session.load(tmp_path / "missing.vault", key=b"vault key")


SAVED: dict[str, bytes] = {}


def _saved_blob(tmp_path_factory) -> bytes:
    if "blob" not in SAVED:
        session = Session(DETECTOR, mode="surrogate", key=b"s")
        session.mask(FR_TURNS[0])
        path = tmp_path_factory.mktemp("v") / "s.vault"

        session.save(path, key=b"vault key")
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
        Session.load(path, key=b"vault key")


def test_cli_session_across_files(tmp_path, monkeypatch, capsys):
    from alias_engine.cli import main

    monkeypatch.setenv("ALIAS_ENGINE_KEY", "a passphrase")
    first, second, answer = tmp_path / "1.txt", tmp_path / "2.txt", tmp_path / "answer.txt"
    first.write_text("IBAN FR76 3000 6000 0112 3456 7890 189, tél 06 12 34 56 78.", encoding="utf-8")
    second.write_text("Compte FR7630006000011234567890189, tél 0612345678.", encoding="utf-8")
    vault_path = tmp_path / "conversation.vault"
    assert main(["mask", "--rules-only", "--session", str(vault_path), str(first)]) == 0
    assert capsys.readouterr().out == "IBAN [IBAN_1], tél [PHONE_1]."
    assert main(["mask", "--rules-only", "--session", str(vault_path), str(second)]) == 0
    assert capsys.readouterr().out == "Compte [IBAN_1], tél [PHONE_1]."
    assert not list(tmp_path.glob("*.mapping.json"))  # the vault is the mapping
    answer.write_text("Le compte [iban 1] et [PHONE_9].", encoding="utf-8")
    assert main(["unmask", "--session", str(vault_path), str(answer)]) == 0
    captured = capsys.readouterr()
    assert captured.out == "Le compte FR76 3000 6000 0112 3456 7890 189 et [PHONE_9]."
    assert "[PHONE_9]" in captured.err
    key_file = tmp_path / "key"
    key_file.write_text("another key\n")
    assert main(["unmask", "--session", str(vault_path), "--key-file", str(key_file), str(answer)]) == 1
    assert "wrong key" in capsys.readouterr().err
    monkeypatch.delenv("ALIAS_ENGINE_KEY")
    assert main(["unmask", "--session", str(vault_path), str(answer)]) == 1
    assert "ALIAS_ENGINE_KEY" in capsys.readouterr().err


def test_a_header_asking_for_huge_scrypt_costs_is_refused_before_scrypt(tmp_path_factory):
    blob = bytearray(_saved_blob(tmp_path_factory))
    cost_at = len(vault.MAGIC) + 16  # log2(N), r, p follow the magic and the salt
    blob[cost_at:cost_at + 3] = bytes([20, 32, 16])
    path = tmp_path_factory.mktemp("h") / "s.vault"
    path.write_bytes(bytes(blob))
    with pytest.raises(MappingError, match="damaged"):
        Session.load(path, key=b"vault key")


def test_cli_session_jsonl_keeps_one_pseudonym_per_value_and_drops_unlisted_fields(tmp_path, monkeypatch, capsys):
    from alias_engine.cli import main

    monkeypatch.setenv("ALIAS_ENGINE_KEY", "a passphrase")
    data, vault_path, masked = tmp_path / "in.jsonl", tmp_path / "s.vault", tmp_path / "masked.jsonl"
    records = [{"id": 1, "text": "IBAN FR76 3000 6000 0112 3456 7890 189", "note": "tél 06 12 34 56 78"},
               {"id": 2, "text": "Même compte FR7630006000011234567890189, tél 06 12 34 56 78", "lang": "fr"}]
    data.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in records), encoding="utf-8")
    assert main(["mask", "--rules-only", "--jsonl", "--session", str(vault_path), str(data), "--out", str(masked)]) == 0
    out = [json.loads(line) for line in masked.read_text(encoding="utf-8").splitlines()]
    assert out == [{"id": 1, "text": "IBAN [IBAN_1]"},
                   {"id": 2, "text": "Même compte [IBAN_1], tél [PHONE_1]", "lang": "fr"}]
    assert "note" in capsys.readouterr().err  # the dropped, unanalysed field is reported
    answer = tmp_path / "answer.jsonl"
    answer.write_text(json.dumps({"id": 2, "text": "[IBAN_1] / [PHONE_1]"}) + "\n", encoding="utf-8")
    assert main(["unmask", "--jsonl", "--session", str(vault_path), str(answer)]) == 0
    assert json.loads(capsys.readouterr().out)["text"] == "FR76 3000 6000 0112 3456 7890 189 / 06 12 34 56 78"


def test_cli_refuses_an_output_that_would_overwrite_the_session_mapping_or_input(tmp_path, monkeypatch, capsys):
    from alias_engine.cli import main

    monkeypatch.setenv("ALIAS_ENGINE_KEY", "a passphrase")
    text, vault_path, mapping = tmp_path / "t.txt", tmp_path / "s.vault", tmp_path / "m.json"
    text.write_text("tél 06 12 34 56 78", encoding="utf-8")
    key_file = tmp_path / "key"
    key_file.write_text("a passphrase\n", encoding="utf-8")
    assert main(["mask", "--rules-only", "--session", str(vault_path), str(text)]) == 0
    vault_bytes = vault_path.read_bytes()
    for argv in (["mask", "--rules-only", "--session", str(vault_path), str(text), "--out", str(vault_path)],
                 ["mask", "--rules-only", "--session", str(vault_path), str(vault_path)],
                 ["unmask", "--session", str(vault_path), str(text), "--out", str(vault_path)],
                 ["unmask", "--session", str(vault_path), str(text), "--out", str(text)],
                 ["mask", "--rules-only", "--session", str(vault_path), "--key-file", str(key_file), str(text),
                  "--out", str(key_file)]):
        capsys.readouterr()
        assert main(argv) == 1
        assert "alias-engine:" in capsys.readouterr().err
    assert vault_path.read_bytes() == vault_bytes and text.read_text(encoding="utf-8") == "tél 06 12 34 56 78"
    assert key_file.read_text(encoding="utf-8") == "a passphrase\n"
    mapping.write_text('{"[PHONE_1]": "06 12 34 56 78"}', encoding="utf-8")
    assert main(["unmask", "--mapping", str(mapping), str(text), "--out", str(mapping)]) == 1
    assert "mapping would be lost" in capsys.readouterr().err
    assert json.loads(mapping.read_text(encoding="utf-8")) == {"[PHONE_1]": "06 12 34 56 78"}
