"""Suite-wide settings."""

import re

import pytest
from hypothesis import settings

from alias_engine.pseudonymise import vault

# Hypothesis fails an example that takes over 200 ms: a timing, which a loaded machine (two test workers
# on two cores, CI beside other jobs) would fail now and then. What the tests check is what comes out.
settings.register_profile("untimed", deadline=None)
settings.load_profile("untimed")

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


# The model tier: modules whose tests load the shipped model (or train one, or start a cluster or a
# server that runs it). `pytest -m "not model"` is the fast tier; CI runs both (plain `pytest`).
MODEL_MODULES = frozenset({
    "test_adapter_litellm", "test_adapter_presidio", "test_adapter_spark", "test_batch", "test_bench",
    "test_model_inference", "test_progress", "test_roundtrip", "test_server", "test_server_closed",
    "test_server_stream", "test_training_base", "test_training_export", "test_training_train",
    "test_training_tags", "test_windows", "test_cli", "test_formats", "test_entry_points",
})


def pytest_ignore_collect(collection_path, config):
    # The fast tier does not even import the model tier's modules: LiteLLM's and Presidio's imports
    # alone take seconds. Skipped only where `-m` deselects every test marked "model".
    if collection_path.suffix == ".py" and collection_path.stem in MODEL_MODULES \
            and _deselects_the_model_tier(config.getoption("markexpr")):
        return True
    return None


def _deselects_the_model_tier(markexpr: str) -> bool:
    # Read conservatively: "not model", alone or and-ed first with more and no "or" (the fast tier's
    # "not model and not slow"); any other expression imports every module and lets -m decide.
    return (re.fullmatch(r"\s*not\s+model\s*(?:and\s.*)?", markexpr or "", re.DOTALL) is not None
            and re.search(r"\bor\b", markexpr) is None)


def pytest_collection_modifyitems(config, items):
    for item in items:
        if item.module.__name__ in MODEL_MODULES or item.get_closest_marker("model"):
            item.add_marker(pytest.mark.model)
