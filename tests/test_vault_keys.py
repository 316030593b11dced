"""Vault cost and keys: scrypt 2^17 for new vaults, older costs still read, weak keys refused,
key files that others can read reported."""

import os
import warnings

import pytest
from _session_helpers import DETECTOR, FR_TURNS
from conftest import REAL_SCRYPT_LOG2_N

from alias_engine import MappingError, Session
from alias_engine.cli import main
from alias_engine.pseudonymise import vault

KEY = "correct horse battery staple"


def _cost(path) -> int:
    return path.read_bytes()[len(vault.MAGIC) + 16]  # log2(N) follows the magic and the salt


def test_new_vaults_cost_scrypt_2_17_and_no_environment_lowers_it(tmp_path, monkeypatch):
    monkeypatch.setattr(vault, "SCRYPT_LOG2_N", REAL_SCRYPT_LOG2_N)  # the one test that pays the real cost
    monkeypatch.setenv("ALIAS_ENGINE_SCRYPT_LOG2_N", "10")  # the knob of earlier versions: no effect
    session = Session(DETECTOR)
    session.mask(FR_TURNS[0])
    path = tmp_path / "s.vault"
    session.save(path, key=KEY)
    assert _cost(path) == 17 == REAL_SCRYPT_LOG2_N
    assert Session.load(path, key=KEY).mapping == session.mapping


def test_vaults_of_an_older_cost_still_open(tmp_path):
    path = tmp_path / "old.vault"
    vault.write_vault(path, KEY, {"x": 1}, log2_n=15)  # what earlier versions wrote
    assert _cost(path) == 15 and vault.read_vault(path, KEY) == {"x": 1}


@pytest.mark.parametrize("log2_n", [9, 19])
def test_a_cost_out_of_range_is_refused(tmp_path, log2_n):
    with pytest.raises(ValueError, match="log2_n"):
        vault.write_vault(tmp_path / "s.vault", KEY, {}, log2_n=log2_n)
    assert not (tmp_path / "s.vault").exists()


def test_short_keys_cannot_write_a_vault_but_open_one(tmp_path, monkeypatch):
    path = tmp_path / "s.vault"
    with pytest.raises(MappingError, match="at least 8"):
        Session(DETECTOR).save(path, key="k")
    assert not path.exists()
    monkeypatch.setattr(vault, "MIN_KEY_BYTES", 1)  # a vault saved before keys were checked
    vault.write_vault(path, "k", {"mode": "placeholder"})
    monkeypatch.undo()
    assert vault.read_vault(path, "k") == {"mode": "placeholder"}


def test_cli_refuses_a_short_key_before_masking(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("ALIAS_ENGINE_KEY", "1234")
    text = tmp_path / "t.txt"
    text.write_text("tél 06 12 34 56 78", encoding="utf-8")
    assert main(["mask", "--rules-only", "--session", str(tmp_path / "s.vault"), str(text)]) == 1
    captured = capsys.readouterr()
    assert "at least 8" in captured.err and captured.out == ""
    assert sorted(p.name for p in tmp_path.iterdir()) == ["s.vault.lock", "t.txt"]


def test_a_key_file_others_can_read_is_reported(tmp_path, capsys):
    key_file = tmp_path / "key"
    key_file.write_text(KEY + "\n", encoding="utf-8")
    key_file.chmod(0o644)
    with pytest.warns(vault.VaultWarning, match="chmod 600"):
        assert vault.key_from(key_file) == KEY.encode()
    text = tmp_path / "t.txt"
    text.write_text("tél 06 12 34 56 78", encoding="utf-8")
    argv = ["mask", "--rules-only", "--session", str(tmp_path / "s.vault"), "--key-file", str(key_file), str(text)]
    assert main(argv) == 0
    err = capsys.readouterr().err
    assert err.count("alias-engine: warning: the key file") == 1 and "mode 644" in err
    key_file.chmod(0o600)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        vault.key_from(key_file)
    assert main(argv) == 0
    assert "warning" not in capsys.readouterr().err
    assert os.stat(tmp_path / "s.vault").st_mode & 0o777 == 0o600
