"""Sessions at rest: AES-256-GCM with a key derived from the user's key by scrypt.

File layout: `AEVAULT1` magic, 16-byte random salt, scrypt log2(N), r, p (one
byte each), 12-byte random nonce, then the AES-GCM ciphertext of the session
JSON with its 16-byte tag. The header is authenticated as associated data, so
changing any byte of the file (or opening it with another key) fails the tag
check and raises MappingError; nothing of the content is ever shown.

Why: AES-GCM is authenticated encryption (confidentiality and integrity in one
primitive, from `cryptography`, already a dependency). The user's key is often
a passphrase, so it goes through scrypt (memory-hard, salted) rather than a
plain hash. A fresh random nonce on every save keeps a nonce from being used
twice under one key; the salt is random for each new vault (and for every save
with a bare key; a `VaultKeys` keeps a vault's salt: see below).

Cost: new vaults use scrypt N=2^17, r=8, p=1 (128 MiB, the usual guidance for
passphrases; about 0.7 s a derivation on the 2-core build machine, measured in
docs/pseudonymisation.md). Older vaults (N=2^15) are read by the cost in their
header. Only code can lower the cost of new vaults, down to 2^10 (`write_vault(...,
log2_n=)`, or the test suite setting `SCRYPT_LOG2_N`): no environment variable or
option can weaken a real vault.

Derived keys kept in memory (`VaultKeys`): a long-lived user of many vaults
(the proxy, one vault per conversation; `mask --session`, load then save)
passes a `VaultKeys(user_key)` wherever a key goes. It remembers the AES key
scrypt derived for each (salt, cost) it has opened or written with that user
key, in a bounded LRU (`capacity` entries, the least recently used dropped
first), for as long as the object lives; and a save over a vault whose salt
and cost it remembers keeps that salt, so a vault keeps its salt across saves
and the next load or save of it runs no scrypt. A new vault, or one of another
cost (an older 2^15 vault is rewritten at 2^17), gets a fresh salt and one
derivation. The nonce stays fresh and random for every save, which is what
AES-GCM's security rests on (random 96-bit nonces: about 2^32 saves under one
key before the chance of a repeat reaches 2^-32; a conversation makes one save a
request). Reusing a vault's own salt loses nothing: the salt is there so that
one precomputation cannot serve many vaults, and each vault still has its own.
Why the cache is safe: a derived key is only remembered after it opened a vault
(the tag checked) or after this object derived it from its own user key for a
save, so a wrong key or a tampered file cannot put a bad key in it; and it holds
nothing the process does not already hold, since the user key, which derives all
of them, stays in the same memory. Derived keys are never written to disk or
logged: `repr` shows a count, and a VaultKeys cannot be pickled. A plain
bytes/str key keeps the earlier behaviour: a fresh salt and a derivation for
every save and every load.

Keys: writing needs at least MIN_KEY_BYTES; a key file that others may read
gives a VaultWarning. Concurrent users of one vault take `vault_lock(path)`
around load-mask-save (an flock on `PATH.lock`, beside the vault).
"""

from __future__ import annotations

import json
import os
import stat
import struct
import tempfile
import threading
import warnings
from collections import OrderedDict
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives.ciphers.aead import AESGCM
from cryptography.hazmat.primitives.kdf.scrypt import Scrypt

from ..errors import MappingError

MAGIC = b"AEVAULT1"
SCRYPT_LOG2_N, SCRYPT_R, SCRYPT_P = 17, 8, 1
MIN_SCRYPT_LOG2_N, MAX_SCRYPT_LOG2_N = 10, 18  # 18: 256 MiB, the most read_vault accepts
MIN_KEY_BYTES = 8
_HEADER = struct.Struct(">8s16sBBB12s")
# A header may raise the cost (a later version may), but never past 256 MiB of scrypt memory:
# the tag is checked only after scrypt, so a tampered header must not be able to exhaust the machine.
_MAX_SCRYPT_BYTES = 256 * 2 ** 20
KEY_ENV = "ALIAS_ENGINE_KEY"


class VaultWarning(UserWarning):
    """A weak spot in how a vault key is kept (a key file that others may read)."""


class VaultKeys:
    """A user's vault key that remembers the keys scrypt derived from it: pass it wherever a vault
    key goes (`Session.save`, `Session.load`, `write_vault`, `read_vault`).

    Remembers at most `capacity` derived keys, one per (salt, cost), least recently used dropped
    first; thread-safe. See the module's docstring for why this is safe.

    >>> keys = VaultKeys("correct horse battery staple", capacity=2)
    >>> keys
    VaultKeys(remembered=0, capacity=2)
    """

    def __init__(self, key: bytes | str, capacity: int = 1024) -> None:
        if capacity < 1:
            raise ValueError("capacity must be at least 1")
        self._key = _as_key(key)
        self.capacity = capacity
        self._derived: OrderedDict[tuple[bytes, int, int, int], bytes] = OrderedDict()
        self._guard = threading.Lock()

    def __len__(self) -> int:
        return len(self._derived)

    def __repr__(self) -> str:  # never a key
        return f"VaultKeys(remembered={len(self)}, capacity={self.capacity})"

    def __reduce__(self):
        raise TypeError("a VaultKeys cannot be pickled: it would write its keys out")

    def clear(self) -> None:
        """Forget every derived key."""
        with self._guard:
            self._derived.clear()

    def _get(self, params: tuple[bytes, int, int, int]) -> bytes | None:
        with self._guard:
            derived = self._derived.get(params)
            if derived is not None:
                self._derived.move_to_end(params)
            return derived

    def _put(self, params: tuple[bytes, int, int, int], derived: bytes) -> None:
        with self._guard:
            self._derived[params] = derived
            self._derived.move_to_end(params)
            while len(self._derived) > self.capacity:
                self._derived.popitem(last=False)


def _as_key(key: bytes | str | VaultKeys) -> bytes:
    if isinstance(key, VaultKeys):
        return key._key
    if isinstance(key, str):
        key = key.encode("utf-8")
    if not isinstance(key, (bytes, bytearray)) or not key:
        raise MappingError("the vault key must be a non-empty string or bytes")
    return bytes(key)


def check_new_key(key: bytes | str | VaultKeys) -> bytes:
    """The key as bytes if it may encrypt a vault: at least MIN_KEY_BYTES (a passphrase of a few
    words is better); MappingError otherwise. Shorter keys of older vaults still open them."""
    key = _as_key(key)
    if len(key) < MIN_KEY_BYTES:
        raise MappingError(f"the vault key is {len(key)} byte(s) long: use at least {MIN_KEY_BYTES} "
                           "(a passphrase of several random words is better); a vault saved with a "
                           "shorter key can still be opened to unmask")
    return key


def scrypt_log2_n() -> int:
    """The scrypt cost (log2 N) of new vaults: SCRYPT_LOG2_N."""
    return SCRYPT_LOG2_N


def _derive(key: bytes, salt: bytes, log2_n: int, r: int, p: int) -> bytes:
    return Scrypt(salt=salt, length=32, n=2 ** log2_n, r=r, p=p).derive(key)


def _remembered_salt(path: Path, keys: VaultKeys, log2_n: int) -> tuple[bytes, bytes] | None:
    """The salt of the vault now at `path` and its derived key, if `keys` remembers them for this cost."""
    try:
        with open(path, "rb") as f:
            head = f.read(_HEADER.size)
    except OSError:
        return None
    if len(head) < _HEADER.size or not head.startswith(MAGIC):
        return None
    _magic, salt, file_log2_n, r, p, _nonce = _HEADER.unpack(head)
    if (file_log2_n, r, p) != (log2_n, SCRYPT_R, SCRYPT_P):
        return None  # another cost (an older vault): a fresh salt at today's cost
    derived = keys._get((salt, log2_n, r, p))
    return None if derived is None else (salt, derived)


def write_vault(path: Path, key: bytes | str | VaultKeys, data: dict, *, log2_n: int | None = None) -> None:
    """Encrypt `data` (JSON-serialisable) into `path`, atomically, readable by the owner only.

    `log2_n`: scrypt cost, default `scrypt_log2_n()` (2^17). With a `VaultKeys` that remembers the
    salt of the vault already at `path`, that salt and its derived key are used again (no scrypt);
    otherwise a fresh salt. The nonce is fresh every time.
    """
    user_key = check_new_key(key)
    log2_n = scrypt_log2_n() if log2_n is None else log2_n
    if not MIN_SCRYPT_LOG2_N <= log2_n <= MAX_SCRYPT_LOG2_N:
        raise ValueError(f"log2_n must be from {MIN_SCRYPT_LOG2_N} to {MAX_SCRYPT_LOG2_N}")
    path = Path(path)
    keys = key if isinstance(key, VaultKeys) else None
    remembered = _remembered_salt(path, keys, log2_n) if keys is not None else None
    if remembered is not None:
        salt, derived = remembered
    else:
        salt = os.urandom(16)
        derived = _derive(user_key, salt, log2_n, SCRYPT_R, SCRYPT_P)
    nonce = os.urandom(12)
    header = _HEADER.pack(MAGIC, salt, log2_n, SCRYPT_R, SCRYPT_P, nonce)
    plain = json.dumps(data, ensure_ascii=False, separators=(",", ":")).encode("utf-8")
    sealed = AESGCM(derived).encrypt(nonce, plain, header)
    try:
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".vault-")
        try:
            with os.fdopen(fd, "wb") as f:
                f.write(header + sealed)
                f.flush()
                os.fsync(f.fileno())  # the old vault is replaced: the new one must be on disk first
            os.chmod(tmp, 0o600)
            os.replace(tmp, path)
        except BaseException:
            os.unlink(tmp)
            raise
    except OSError as exc:
        raise MappingError(f"cannot write the session vault {path.name}: {exc.strerror}") from None
    if keys is not None and remembered is None:
        keys._put((salt, log2_n, SCRYPT_R, SCRYPT_P), derived)  # derived here from its own key


def read_vault(path: Path, key: bytes | str | VaultKeys) -> dict:
    """Decrypt a vault written by `write_vault`; MappingError on a wrong key, tampering or damage.

    With a `VaultKeys`, a derived key it remembers for this vault's salt and cost is used (no
    scrypt); otherwise the key is derived, and remembered once it has opened the vault."""
    keys = key if isinstance(key, VaultKeys) else None
    user_key = _as_key(key)
    path = Path(path)
    try:
        blob = path.read_bytes()
    except OSError as exc:
        raise MappingError(f"cannot read the session vault {path.name}: {exc.strerror}") from None
    if len(blob) < _HEADER.size + 16 or not blob.startswith(MAGIC):
        raise MappingError(f"{path.name} is not an alias-engine session vault")
    magic, salt, log2_n, r, p, nonce = _HEADER.unpack_from(blob)
    if not (10 <= log2_n <= 24 and 1 <= r <= 32 and 1 <= p <= 16) or 128 * r * p * 2 ** log2_n > _MAX_SCRYPT_BYTES:
        raise MappingError(f"{path.name}: the session vault header is damaged")
    header = blob[:_HEADER.size]
    params = (salt, log2_n, r, p)
    derived = keys._get(params) if keys is not None else None
    remembered = derived is not None
    if derived is None:
        derived = _derive(user_key, *params)
    try:
        plain = AESGCM(derived).decrypt(nonce, blob[_HEADER.size:], header)
    except InvalidTag:
        raise MappingError(f"cannot open the session vault {path.name}: wrong key, "
                           "or the file was modified or damaged") from None
    if keys is not None and not remembered:
        keys._put(params, derived)  # only once the tag has shown it is this vault's key
    try:
        data = json.loads(plain.decode("utf-8"))
    except (UnicodeDecodeError, ValueError):
        raise MappingError(f"{path.name}: the session vault content is malformed") from None
    if not isinstance(data, dict):
        raise MappingError(f"{path.name}: the session vault content is malformed")
    return data


def key_from(key_file: str | Path | None = None, env: str = KEY_ENV) -> bytes:
    """The vault key from a file (first line, without its line break) or else from `$ALIAS_ENGINE_KEY`."""
    if key_file is not None:
        try:
            mode = os.stat(key_file).st_mode
            raw = Path(key_file).read_bytes()
        except OSError as exc:
            raise MappingError(f"cannot read the key file {Path(key_file).name}: {exc.strerror}") from None
        key = raw.splitlines()[0] if raw.strip() else b""
        if not key:
            raise MappingError(f"the key file {Path(key_file).name} is empty")
        if mode & (stat.S_IRWXG | stat.S_IRWXO):
            warnings.warn(f"the key file {key_file} can be read or changed by other users "
                          f"(mode {stat.S_IMODE(mode):03o}): chmod 600 it", VaultWarning, stacklevel=2)
        return key
    value = os.environ.get(env, "")
    if not value:
        raise MappingError(f"a session needs a key: pass --key-file FILE or set {env}")
    return value.encode("utf-8")


_THREAD_LOCKS: dict[str, threading.Lock] = {}
_THREAD_LOCKS_GUARD = threading.Lock()


@contextmanager
def vault_lock(path: str | Path) -> Iterator[None]:
    """Hold the vault at `path` for one load-mask-save: other processes and threads wait.

    An exclusive flock on `PATH.lock` (created beside the vault, mode 600, left in
    place: removing it would let two holders lock two different files), plus a
    per-path thread lock: where flock is emulated by per-process record locks
    (some network file systems) it would not keep two threads apart. Not reentrant.
    """
    try:
        import fcntl
    except ImportError:  # Windows
        raise MappingError("locking a session vault needs fcntl (Linux, macOS)") from None
    path = Path(path)
    lock_path = path.with_name(path.name + ".lock")
    with _THREAD_LOCKS_GUARD:
        thread_lock = _THREAD_LOCKS.setdefault(str(lock_path.resolve()), threading.Lock())
    with thread_lock:
        try:
            fd = os.open(lock_path, os.O_RDWR | os.O_CREAT, 0o600)
        except OSError as exc:
            raise MappingError(f"cannot lock the session vault {path.name} ({lock_path.name}): "
                               f"{exc.strerror}") from None
        try:
            fcntl.flock(fd, fcntl.LOCK_EX)
            yield
        finally:
            os.close(fd)  # releases the flock


def derive_key(key: bytes | str, salt: bytes, log2_n: int) -> bytes:
    """A 32-byte key from the user's key, a fixed `salt` and a fixed cost, by the vault's scrypt (for
    keyed hashes that must give the same result on every machine and in every version, such as
    `batch --consistent`: the caller pins `log2_n`, so that a change of SCRYPT_LOG2_N changes nothing)."""
    return _derive(_as_key(key), salt, log2_n, SCRYPT_R, SCRYPT_P)
