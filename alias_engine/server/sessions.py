"""Conversations: one session per request, or per `X-Alias-Session: ID` kept across requests.

Without the header a request gets a fresh session; since the client resends the
whole (restored) history, the same values come back in the same order and mask
to the same placeholders. With the header, the session lives on: in memory (a
bounded LRU) and, with a vault directory, in `DIR/ID.vault` encrypted with the
server's key, saved after every masked request. The store keeps the key as a
`VaultKeys`, so scrypt runs once per vault (its first save, or its first load
after a restart), not on every request: see `alias_engine.pseudonymise.vault`. One lock per session keeps two
requests of one conversation from masking at the same time; with a vault, the
vault's file lock (`vault_lock`) does the same across processes, and a session
saved by another process is read again.
"""

from __future__ import annotations

import asyncio
import os
import re
from collections import OrderedDict
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from ..pseudonymise import Session
from ..pseudonymise.vault import VaultKeys, vault_lock
from .errors import ProxyError

SESSION_HEADER = "x-alias-session"
_SESSION_ID = re.compile(r"[A-Za-z0-9_-]{1,128}")


def check_session_id(session_id: str) -> str:
    """The ID as given when it is safe as a file name; ProxyError(400) otherwise.

    >>> check_session_id("chat-42")
    'chat-42'
    >>> check_session_id("../etc/passwd")
    Traceback (most recent call last):
    ...
    alias_engine.server.errors.ProxyError: X-Alias-Session must be 1 to 128 letters, digits, '-' or '_'
    """
    if not _SESSION_ID.fullmatch(session_id):
        raise ProxyError(400, "X-Alias-Session must be 1 to 128 letters, digits, '-' or '_'")
    return session_id


class Conversation:
    """One named session: its lock, and the session once loaded."""

    def __init__(self, session_id: str) -> None:
        self.id = session_id
        self.lock = asyncio.Lock()
        self.session: Session | None = None
        self.signature: tuple[int, int, int] | None = None  # of the vault file as last read or written


class SessionStore:
    def __init__(self, detector, mode: str, vault_dir: Path | None = None, vault_key: bytes | None = None,
                 capacity: int = 1024) -> None:
        self.detector = detector
        self.mode = mode
        self.vault_dir = Path(vault_dir) if vault_dir is not None else None
        self.vault_key = vault_key
        self.capacity = capacity
        # derived keys of the vaults of the last `capacity` conversations, as many as sessions kept
        # (a missing key is refused as an empty one: ServerConfig asks for a key with a vault_dir)
        self.vault_keys = VaultKeys(vault_key or b"", max(1, capacity)) if self.vault_dir is not None else None
        # surrogates of requests without a session: the same value gets the same surrogate in every request
        self._key = os.urandom(32)
        self._conversations: OrderedDict[str, Conversation] = OrderedDict()
        if self.vault_dir is not None:
            self.vault_dir.mkdir(parents=True, exist_ok=True, mode=0o700)

    def fresh(self) -> Session:
        return Session(self.detector, mode=self.mode, key=self._key)

    def conversation(self, session_id: str, namespace: str = "") -> Conversation:
        """The conversation `session_id` of the caller's `namespace` (its API key's): another key
        names another conversation, so it can neither read nor write this one."""
        session_id = f"{namespace}-{check_session_id(session_id)}" if namespace else check_session_id(session_id)
        conv = self._conversations.get(session_id)
        if conv is None:
            conv = self._conversations[session_id] = Conversation(session_id)
            for old_id in list(self._conversations)[:max(0, len(self._conversations) - self.capacity)]:
                if not self._conversations[old_id].lock.locked():
                    del self._conversations[old_id]  # its vault, if any, stays on disk
        self._conversations.move_to_end(session_id)
        return conv

    def _path(self, conv: Conversation) -> Path:
        assert self.vault_dir is not None
        return self.vault_dir / f"{conv.id}.vault"

    def _keys(self) -> VaultKeys:
        assert self.vault_keys is not None  # with a vault_dir
        return self.vault_keys

    def exists(self, conv: Conversation) -> bool:
        return conv.session is not None or (self.vault_dir is not None and self._path(conv).exists())

    @contextmanager
    def hold(self, conv: Conversation) -> Iterator[Session]:
        """The conversation's session for one load-mask-save (in a worker thread: opening a
        vault is slow on purpose). With a vault, its file lock is held throughout and the
        session is read again if another process saved it since."""
        if self.vault_dir is None:
            if conv.session is None:
                conv.session = Session(self.detector, mode=self.mode)
            yield conv.session
            return
        path = self._path(conv)
        with vault_lock(path):
            signature = _signature(path)
            if conv.session is None or signature != conv.signature:
                conv.session = (Session.load(path, self._keys(), self.detector) if signature is not None
                                else Session(self.detector, mode=self.mode))
                conv.signature = signature
            yield conv.session

    def save(self, conv: Conversation) -> None:
        """Write the session to its vault (call inside `hold`)."""
        if self.vault_dir is not None and conv.session is not None:
            path = self._path(conv)
            conv.session.save(path, self._keys())
            conv.signature = _signature(path)


def _signature(path: Path) -> tuple[int, int, int] | None:
    """Changes whenever the vault is written (a save replaces the file: a new inode)."""
    try:
        st = path.stat()
    except FileNotFoundError:
        return None
    return st.st_ino, st.st_mtime_ns, st.st_size
