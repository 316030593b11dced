"""`--session FILE` for `alias-engine mask` and `unmask`: one encrypted session across many files.

The key never goes on the command line (where `ps` and the shell history would
show it): it is read from `--key-file FILE` (first line) or from the
environment variable ALIAS_ENGINE_KEY.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from ..errors import InputError
from .session import MODES, Session
from .vault import KEY_ENV, VaultKeys, check_new_key, key_from


def add_session_options(parser: argparse.ArgumentParser, *, mask: bool) -> None:
    group = parser.add_argument_group("session (a conversation across several files)")
    group.add_argument("--session", metavar="FILE",
                       help="encrypted session vault: the same value gets the same pseudonym in every file"
                       + (" (created if missing, updated after masking; no mapping file is written)" if mask else ""))
    group.add_argument("--key-file", metavar="FILE",
                       help=f"file whose first line is the session key (default: ${KEY_ENV})")
    if mask:
        group.add_argument("--mode", choices=MODES, default=None,
                           help="for a new session: placeholders (default) or realistic surrogate values")


def open_session(args: argparse.Namespace, detector, key: bytes | VaultKeys | None = None) -> Session:
    key = key_from(args.key_file) if key is None else key
    masking = getattr(args, "mode", "missing") != "missing"
    if masking:
        check_new_key(key)  # the vault is saved after masking: refuse a weak key before the work
    path = Path(args.session)
    if path.exists():
        session = Session.load(path, key, detector)
        mode = getattr(args, "mode", None)
        if mode and mode != session.mode:
            raise InputError(f"{path.name} is a {session.mode} session; --mode {mode} cannot change it")
        return session
    if not masking:
        raise InputError(f"session file not found: {path}")
    return Session(detector, mode=args.mode or "placeholder")


def save_session(args: argparse.Namespace, session: Session, key: bytes | VaultKeys | None = None) -> None:
    session.save(Path(args.session), key_from(args.key_file) if key is None else key)
    print(f"session saved to {args.session}", file=sys.stderr)
