"""Suite-wide settings."""

import pytest

from alias_engine.pseudonymise import vault

REAL_SCRYPT_LOG2_N = vault.SCRYPT_LOG2_N


@pytest.fixture(autouse=True)
def cheap_vaults(monkeypatch):
    # New vaults cost scrypt 2^17 (about 0.7 s a derivation); the suite lowers it in its own
    # process (a subprocess runs tests/_cli.py to do the same). test_vault_keys checks the default.
    monkeypatch.setattr(vault, "SCRYPT_LOG2_N", 10)


@pytest.fixture(scope="session", autouse=True)
def private_cache(tmp_path_factory):
    # The openvino backend caches compiled models in $XDG_CACHE_HOME: the suite's go to a folder of
    # its own, set for the whole session so that module-scoped model fixtures use it too.
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("XDG_CACHE_HOME", str(tmp_path_factory.mktemp("cache-home")))
        yield
