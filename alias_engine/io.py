"""Reading user input and writing results without tracebacks or half-written files."""

from __future__ import annotations

import json
import os
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

from .errors import InputError, MappingError
from .pseudonymise.vault import MAGIC as VAULT_MAGIC
from .pseudonymise.vault import read_vault
from .restore import check_mapping


def read_text(source: str) -> str:
    """Read a whole text file ("-" for stdin) as UTF-8, refusing binary data."""
    data = _read_bytes(source)
    return decode(data, _name(source))


def decode(data: bytes, name: str) -> str:
    if b"\x00" in data:
        raise InputError(f"{name}: binary data (NUL byte at offset {data.index(0)}), not text")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise InputError(f"{name}: not valid UTF-8 (byte 0x{data[exc.start]:02x} at offset {exc.start})") from None


def read_jsonl(source: str, text_field: str = "text") -> Iterator[dict]:
    """Yield the records of a JSONL file; each must be an object with a string `text_field`."""
    name = _name(source)
    # Split on "\n" only: str.splitlines() also cuts at U+2028 or U+0085, which JSON leaves unescaped.
    for number, line in enumerate(read_text(source).split("\n"), 1):
        if line.strip():
            yield parse_jsonl_record(line, name, number, text_field)


def parse_jsonl_record(line: str, name: str, number: int, text_field: str = "text") -> dict:
    """One JSONL line as a record with a string `text_field`; InputError (naming no content) if not."""
    try:
        record = json.loads(line)
    except json.JSONDecodeError as exc:
        raise InputError(f"{name}, line {number}: malformed JSON ({exc.msg})") from None
    if not isinstance(record, dict) or not isinstance(record.get(text_field), str):
        raise InputError(f"{name}, line {number}: expected an object with a string \"{text_field}\"")
    try:
        record[text_field].encode("utf-8")
    except UnicodeEncodeError:
        raise InputError(f"{name}, line {number}: \"{text_field}\" holds a lone surrogate escape, "
                         "not valid Unicode") from None
    return record


def read_mapping(path: str) -> dict[str, str | list[str]]:
    text = read_text(path)
    try:
        mapping = json.loads(text)
    except json.JSONDecodeError as exc:
        raise MappingError(f"{_name(path)}: malformed mapping JSON ({exc.msg}, line {exc.lineno})") from None
    return check_mapping(mapping)


def read_mapping_lines(path: str, key: bytes | None = None) -> list[dict[str, str | list[str]]]:
    """A batch mapping file: one `{"id": ..., "mapping": {...}}` a line, in record order;
    or the same lines in a vault encrypted with `key` (`alias-engine batch --key-file`)."""
    data = _read_bytes(path)
    if data.startswith(VAULT_MAGIC):
        if key is None:
            raise MappingError(f"{_name(path)} is encrypted: pass the --key-file it was written with")
        entries = read_vault(Path(path), key).get("mapping_lines")
        if not isinstance(entries, list):
            raise MappingError(f"{_name(path)}: an encrypted vault, but not a mapping file")
        lines = [(number, entry) for number, entry in enumerate(entries, 1)]
    else:
        lines = []
        for number, line in enumerate(decode(data, _name(path)).split("\n"), 1):
            if not line.strip():
                continue
            try:
                lines.append((number, json.loads(line)))
            except json.JSONDecodeError as exc:
                raise MappingError(f"{_name(path)}, line {number}: malformed JSON ({exc.msg})") from None
    mappings = []
    for number, entry in lines:
        if not isinstance(entry, dict) or "mapping" not in entry:
            raise MappingError(f"{_name(path)}, line {number}: expected an object with a \"mapping\"")
        try:
            mappings.append(check_mapping(entry["mapping"]))
        except MappingError as exc:
            raise MappingError(f"{_name(path)}, line {number}: {exc}") from None
    return mappings


def write_output(target: str | None, content: str, *, private: bool = False, overwrite: bool = True) -> None:
    """Write `content` to a file atomically (temp file + rename), or to stdout when `target` is None or "-"."""
    if target in (None, "-"):
        sys.stdout.write(content)
        sys.stdout.flush()
        return
    path = Path(target)
    if not overwrite and path.exists():
        raise InputError(f"{target} exists: refusing to overwrite it (pass --force)")
    directory = path.parent if str(path.parent) else Path(".")
    fd, tmp = tempfile.mkstemp(dir=directory, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(content)
        if private:
            os.chmod(tmp, 0o600)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


class Progress:
    """A one-line progress counter on stderr, shown only when asked or on a terminal."""

    def __init__(self, total: int, label: str, enabled: bool | None = None) -> None:
        self.total = total
        self.label = label
        self.enabled = sys.stderr.isatty() if enabled is None else enabled
        self.done = 0
        self._last = 0.0

    def step(self, n: int = 1) -> None:
        self.done += n
        now = time.monotonic()
        if self.enabled and (now - self._last > 0.2 or self.done == self.total):
            self._last = now
            width = 30
            filled = int(width * self.done / max(self.total, 1))
            sys.stderr.write(f"\r{self.label} [{'#' * filled}{'.' * (width - filled)}] {self.done}/{self.total}")
            if self.done == self.total:
                sys.stderr.write("\n")
            sys.stderr.flush()


def _read_bytes(source: str) -> bytes:
    if source == "-":
        return sys.stdin.buffer.read()
    try:
        return Path(source).read_bytes()
    except FileNotFoundError:
        raise InputError(f"{source}: no such file") from None
    except IsADirectoryError:
        raise InputError(f"{source}: is a directory, not a file") from None
    except PermissionError:
        raise InputError(f"{source}: permission denied") from None
    except OSError as exc:
        raise InputError(f"{source}: cannot read ({exc.strerror})") from None


def _name(source: str) -> str:
    return "stdin" if source == "-" else source
