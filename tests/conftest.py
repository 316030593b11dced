"""Suite-wide settings."""

import pytest


@pytest.fixture(autouse=True)
def cheap_vaults(monkeypatch):
    # New vaults cost scrypt 2^17 (about 0.7 s a derivation); the documented knob lowers it for
    # tests, subprocesses included. tests/test_vault.py checks the default once.
    monkeypatch.setenv("ALIAS_ENGINE_SCRYPT_LOG2_N", "10")
