"""Derived keys kept in memory (`VaultKeys`): scrypt once per vault in the proxy and in
`mask --session`, the salt kept across saves of one vault and fresh for each new vault, a fresh
nonce every save, files that the user's key alone still opens, wrong keys and tampering refused
as before, a bounded cache."""

import pickle

import pytest
from _session_helpers import DETECTOR, FR_TURNS

from alias_engine import MappingError, Session
from alias_engine.pseudonymise import vault
from alias_engine.pseudonymise.vault import VaultKeys, read_vault, write_vault
from alias_engine.server.sessions import SessionStore

KEY = b"a long passphrase"
SALT = slice(len(vault.MAGIC), len(vault.MAGIC) + 16)
NONCE = slice(vault._HEADER.size - 12, vault._HEADER.size)


@pytest.fixture
def derivations(monkeypatch):
    """The (user key, salt) of every scrypt derivation from here on."""
    calls = []
    real = vault._derive

    def counting(key, salt, log2_n, r, p):
        calls.append((key, salt))
        return real(key, salt, log2_n, r, p)

    monkeypatch.setattr(vault, "_derive", counting)
    return calls


def _request(store: SessionStore, conversation: str, text: str) -> str:
    """What the proxy does for one masked request of a conversation with a vault."""
    conv = store.conversation(conversation)
    with store.hold(conv) as session:
        masked = session.mask(text).text
        store.save(conv)
    return masked


def test_the_proxy_derives_once_per_vault_not_per_request(tmp_path, derivations):
    store = SessionStore(DETECTOR, "placeholder", tmp_path, KEY)
    _request(store, "a", FR_TURNS[0])
    assert len(derivations) == 1  # a new vault: a fresh salt, one derivation
    for turn in FR_TURNS[1:3]:
        _request(store, "a", turn)
    assert len(derivations) == 1  # its next saves reuse the key
    _request(store, "b", FR_TURNS[0])
    assert len(derivations) == 2  # a new conversation derives for its own vault
    salt_a = (tmp_path / "a.vault").read_bytes()[SALT]
    assert derivations[0][1] == salt_a != derivations[1][1] == (tmp_path / "b.vault").read_bytes()[SALT]

    restarted = SessionStore(DETECTOR, "placeholder", tmp_path, KEY)  # a new process: nothing in memory
    _request(restarted, "a", FR_TURNS[1])
    assert len(derivations) == 3  # the load derives once, the save after it does not
    _request(restarted, "a", FR_TURNS[2])
    assert len(derivations) == 3
    assert (tmp_path / "a.vault").read_bytes()[SALT] == salt_a


def test_a_vault_keeps_its_salt_and_gets_a_fresh_nonce_every_save(tmp_path):
    keys = VaultKeys(KEY)
    path, other = tmp_path / "s.vault", tmp_path / "t.vault"
    headers = []
    for n in range(4):
        write_vault(path, keys, {"n": n})
        headers.append(path.read_bytes()[:vault._HEADER.size])
    write_vault(other, keys, {"n": 0})
    assert len({h[SALT] for h in headers}) == 1
    assert len({h[NONCE] for h in headers}) == 4
    assert other.read_bytes()[SALT] != headers[0][SALT]  # a new vault, a new salt


def test_files_written_with_remembered_keys_open_with_the_user_key_alone(tmp_path, derivations):
    keys, path = VaultKeys(KEY), tmp_path / "s.vault"
    session = Session(DETECTOR)
    for turn in FR_TURNS[:3]:
        session.mask(turn)
        session.save(path, keys)
        assert Session.load(path, keys).mapping == session.mapping
    assert len(derivations) == 1
    assert Session.load(path, KEY.decode()).mapping == session.mapping  # nothing remembered: derives
    assert read_vault(path, KEY) == session.to_dict()
    assert len(derivations) == 3


def test_vaults_written_before_still_open_and_move_to_todays_cost(tmp_path, derivations):
    path, keys = tmp_path / "old.vault", VaultKeys(KEY)
    write_vault(path, KEY, {"x": 1}, log2_n=11)  # a plain key, another cost: as earlier versions wrote
    old_salt = path.read_bytes()[SALT]
    assert read_vault(path, keys) == {"x": 1}
    write_vault(path, keys, {"x": 2})  # today's cost (2^10 in the tests): a fresh salt, derived again
    blob = path.read_bytes()
    assert blob[len(vault.MAGIC) + 16] == vault.scrypt_log2_n() and blob[SALT] != old_salt
    assert len(derivations) == 3 and read_vault(path, KEY) == {"x": 2}


def test_a_wrong_key_fails_as_before_and_is_never_remembered(tmp_path, derivations):
    path = tmp_path / "s.vault"
    right = VaultKeys(KEY)
    write_vault(path, right, {"x": 1})
    wrong = VaultKeys(b"another passphrase")
    for _ in range(2):
        with pytest.raises(MappingError, match="wrong key, or the file was modified or damaged"):
            read_vault(path, wrong)
    assert len(wrong) == 0 and len(derivations) == 3  # tried again, derived again: nothing was kept
    write_vault(path, wrong, {"x": 2})  # a save with another key does not take over the vault's salt
    assert path.read_bytes()[SALT] != derivations[0][1]
    with pytest.raises(MappingError, match="wrong key"):
        read_vault(path, right)
    assert read_vault(path, b"another passphrase") == {"x": 2}


def test_tampering_is_refused_with_a_remembered_key_too(tmp_path):
    path, keys = tmp_path / "s.vault", VaultKeys(KEY)
    write_vault(path, keys, {"x": 1})
    blob = bytearray(path.read_bytes())
    for at in (len(vault.MAGIC) + 20, len(blob) - 1):  # a nonce byte (header), a tag byte
        changed = bytearray(blob)
        changed[at] ^= 1
        path.write_bytes(bytes(changed))
        with pytest.raises(MappingError, match="wrong key, or the file was modified or damaged"):
            read_vault(path, keys)
    changed = bytearray(blob)
    changed[SALT.start] ^= 1  # another salt: not remembered, derived, refused, and not remembered after
    path.write_bytes(bytes(changed))
    with pytest.raises(MappingError, match="wrong key"):
        read_vault(path, keys)
    assert len(keys) == 1


def test_the_cache_is_bounded(tmp_path, derivations):
    keys = VaultKeys(KEY, capacity=2)
    paths = [tmp_path / f"{n}.vault" for n in range(3)]
    for path in paths:
        write_vault(path, keys, {})
    assert len(keys) == 2 and len(derivations) == 3
    read_vault(paths[2], keys)
    read_vault(paths[1], keys)
    assert len(derivations) == 3  # the two most recent are remembered
    read_vault(paths[0], keys)
    assert len(derivations) == 4 and len(keys) == 2  # the oldest was dropped, and drops another now
    store = SessionStore(DETECTOR, "placeholder", tmp_path, KEY, capacity=3)
    assert store.vault_keys.capacity == 3  # as many keys as conversations kept in memory


def test_derived_keys_are_never_shown_or_pickled(tmp_path):
    keys = VaultKeys(KEY)
    write_vault(tmp_path / "s.vault", keys, {})
    (derived,) = keys._derived.values()
    assert repr(keys) == "VaultKeys(remembered=1, capacity=1024)"
    assert derived.hex() not in repr(keys) and KEY.decode() not in repr(keys)
    with pytest.raises(TypeError, match="cannot be pickled"):
        pickle.dumps(keys)
    keys.clear()
    assert len(keys) == 0


def test_keys_are_checked_as_before():
    with pytest.raises(MappingError, match="non-empty"):
        VaultKeys(b"")
    with pytest.raises(MappingError, match="at least 8"):
        write_vault("unused.vault", VaultKeys("short"), {})


def test_cli_mask_session_derives_once_a_run(tmp_path, monkeypatch, capsys, derivations):
    from alias_engine.cli import main

    monkeypatch.setenv("ALIAS_ENGINE_KEY", "a passphrase")
    text, path = tmp_path / "t.txt", tmp_path / "s.vault"
    text.write_text("tél 06 12 34 56 78", encoding="utf-8")
    assert main(["mask", "--rules-only", "--session", str(path), str(text)]) == 0
    assert len(derivations) == 1  # a new vault: the save
    assert main(["mask", "--rules-only", "--session", str(path), str(text)]) == 0
    assert len(derivations) == 2  # the load; the save reuses its key (it was 2 a run before)
    assert capsys.readouterr().out.endswith("tél [PHONE_1]")
    assert read_vault(path, "a passphrase")["counters"] == {"PHONE": 1}
