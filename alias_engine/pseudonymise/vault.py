"""Sessions at rest: AES-256-GCM with a key derived from the user's key by scrypt.

File layout: `AEVAULT1` magic, 16-byte random salt, scrypt log2(N), r, p (one
byte each), 12-byte random nonce, then the AES-GCM ciphertext of the session
JSON with its 16-byte tag. The header is authenticated as associated data, so
changing any byte of the file (or opening it with another key) fails the tag
check and raises MappingError; nothing of the content is ever shown.

Why: AES-GCM is authenticated encryption (confidentiality and integrity in one
primitive, from `cryptography`, already a dependency). The user's key is often
a passphrase, so it goes through scrypt (memory-hard, salted) rather than a
plain hash; a fresh salt and nonce for every save mean the same key never
reuses a nonce.
"""

from __future__ import annotations

import json
import os
import struct
import tempfile
from pathlib import Path

from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives.ciphers.aead import AESGCM
from cryptography.hazmat.primitives.kdf.scrypt import Scrypt

from ..errors import MappingError

MAGIC = b"AEVAULT1"
SCRYPT_LOG2_N, SCRYPT_R, SCRYPT_P = 15, 8, 1
_HEADER = struct.Struct(">8s16sBBB12s")
# A header may raise the cost (a later version may), but never past 256 MiB of scrypt memory:
# the tag is checked only after scrypt, so a tampered header must not be able to exhaust the machine.
_MAX_SCRYPT_BYTES = 256 * 2 ** 20
KEY_ENV = "ALIAS_ENGINE_KEY"


def _as_key(key: bytes | str) -> bytes:
    if isinstance(key, str):
        key = key.encode("utf-8")
    if not isinstance(key, (bytes, bytearray)) or not key:
        raise MappingError("the vault key must be a non-empty string or bytes")
    return bytes(key)


def _derive(key: bytes, salt: bytes, log2_n: int, r: int, p: int) -> bytes:
    return Scrypt(salt=salt, length=32, n=2 ** log2_n, r=r, p=p).derive(key)


def write_vault(path: Path, key: bytes | str, data: dict) -> None:
    """Encrypt `data` (JSON-serialisable) into `path`, atomically, readable by the owner only."""
    key = _as_key(key)
    salt, nonce = os.urandom(16), os.urandom(12)
    header = _HEADER.pack(MAGIC, salt, SCRYPT_LOG2_N, SCRYPT_R, SCRYPT_P, nonce)
    plain = json.dumps(data, ensure_ascii=False, separators=(",", ":")).encode("utf-8")
    sealed = AESGCM(_derive(key, salt, SCRYPT_LOG2_N, SCRYPT_R, SCRYPT_P)).encrypt(nonce, plain, header)
    path = Path(path)
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


def read_vault(path: Path, key: bytes | str) -> dict:
    """Decrypt a vault written by `write_vault`; MappingError on a wrong key, tampering or damage."""
    key = _as_key(key)
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
    try:
        plain = AESGCM(_derive(key, salt, log2_n, r, p)).decrypt(nonce, blob[_HEADER.size:], header)
    except InvalidTag:
        raise MappingError(f"cannot open the session vault {path.name}: wrong key, "
                           "or the file was modified or damaged") from None
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
            raw = Path(key_file).read_bytes()
        except OSError as exc:
            raise MappingError(f"cannot read the key file {Path(key_file).name}: {exc.strerror}") from None
        key = raw.splitlines()[0] if raw.strip() else b""
        if not key:
            raise MappingError(f"the key file {Path(key_file).name} is empty")
        return key
    value = os.environ.get(env, "")
    if not value:
        raise MappingError(f"a session needs a key: pass --key-file FILE or set {env}")
    return value.encode("utf-8")


def derive_key(key: bytes | str, salt: bytes) -> bytes:
    """A 32-byte key from the user's key and a fixed `salt`, by the vault's scrypt (for keyed hashes
    that must give the same result on every machine, such as `batch --consistent`)."""
    return _derive(_as_key(key), salt, SCRYPT_LOG2_N, SCRYPT_R, SCRYPT_P)
