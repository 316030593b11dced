"""Reading user input and writing results without tracebacks or half-written files."""

from __future__ import annotations

import json
import os
import sys
import tempfile
import time
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

from .errors import InputError, MappingError
from .placeholders import placeholder_format
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
    mapping = check_mapping(mapping)
    try:
        placeholder_format(mapping)
    except MappingError as exc:
        raise MappingError(f"{_name(path)}: {exc}") from None
    return mapping


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
            placeholder_format(mappings[-1])
        except MappingError as exc:
            raise MappingError(f"{_name(path)}, line {number}: {exc}") from None
    return mappings


@dataclass(frozen=True)
class Output:
    """One thing to write: a file path, or None / "-" for stdout."""

    target: str | None
    content: str
    private: bool = False  # mode 600: it holds original values
    overwrite: bool = True


def write_output(target: str | None, content: str, *, private: bool = False, overwrite: bool = True) -> None:
    """Write `content` to a file atomically (temp file + rename), or to stdout when `target` is None or "-"."""
    write_outputs([Output(target, content, private, overwrite)])


def write_outputs(outputs: Iterable[Output]) -> None:
    """Write several outputs together or not at all: every file's temporary copy is written
    first (a missing folder or a full disk fails here, before anything is in place), then
    all are renamed into place, then stdout gets its part."""
    outputs = list(outputs)
    files = [(o, o.target) for o in outputs if o.target is not None and o.target != "-"]
    staged: list[tuple[Output, str, str]] = []  # (output, its file, its temporary copy)
    placed: list[Path] = []
    try:
        for output, target in files:
            staged.append((output, target, _stage(output, target)))
        for output, target, tmp in staged:
            path = Path(target)
            if output.overwrite:
                os.replace(tmp, path)
            else:
                _place_new(tmp, path, target)
                placed.append(path)
    except BaseException:
        for _, _, tmp in staged:
            Path(tmp).unlink(missing_ok=True)
        for path in placed:  # new files (never overwrites): take them back so that none is left alone
            path.unlink(missing_ok=True)
        raise
    for output in outputs:
        if output.target in (None, "-"):
            sys.stdout.write(output.content)
            sys.stdout.flush()


def _place_new(tmp: str, path: Path, target: str) -> None:
    """Move `tmp` to `path`, which must not exist: never an overwrite, even in a race."""
    try:
        try:
            os.link(tmp, path)  # fails if the path exists
        except FileExistsError:
            raise
        except OSError:  # a file system without hard links: claim the name, then replace it
            os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))
            os.replace(tmp, path)
            return
    except FileExistsError:
        raise InputError(f"{target} exists: refusing to overwrite it (pass --force)") from None
    except OSError as exc:
        raise InputError(f"cannot write {target}: {exc.strerror}") from None
    os.unlink(tmp)


def _stage(output: Output, target: str) -> str:
    path = Path(target)
    if not output.overwrite and path.exists():
        raise InputError(f"{target} exists: refusing to overwrite it (pass --force)")
    check_writable(target)
    directory = path.parent if str(path.parent) else Path(".")
    try:
        fd, tmp = tempfile.mkstemp(dir=directory, prefix=f".{path.name}.", suffix=".tmp")
    except OSError as exc:
        raise InputError(f"cannot write {target}: {exc.strerror}") from None
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(output.content)
        if output.private:
            os.chmod(tmp, 0o600)
    except BaseException as exc:
        Path(tmp).unlink(missing_ok=True)
        if isinstance(exc, OSError):
            raise InputError(f"cannot write {target}: {exc.strerror}") from None
        raise
    return tmp


def check_writable(target: str) -> None:
    """InputError unless `target` can be created or replaced: its folder exists and it is not a folder."""
    path = Path(target)
    folder = path.parent if str(path.parent) else Path(".")
    if not folder.is_dir():
        raise InputError(f"cannot write {target}: the folder {folder} does not exist")
    if path.is_dir():
        raise InputError(f"cannot write {target}: it is a folder")
    if not os.access(folder, os.W_OK | os.X_OK):
        raise InputError(f"cannot write {target}: permission denied in {folder}")


def same_file(a: str, b: str) -> bool:
    """Whether paths `a` and `b` name one file: same path, a symbolic link or a hard link to it."""
    try:
        return os.path.samefile(a, b)
    except OSError:  # one does not exist (yet): compare where they point
        return Path(a).resolve() == Path(b).resolve()


def private_state_dir() -> Path:
    """A folder of the user's, outside any working tree, for files holding personal data
    that nobody named (the mapping of text read from stdin): $XDG_STATE_HOME/alias-engine,
    by default ~/.local/state/alias-engine; created with mode 700."""
    try:
        base = os.environ.get("XDG_STATE_HOME") or str(Path.home() / ".local" / "state")
    except RuntimeError:  # no home directory
        raise InputError("no home folder for the mapping of stdin: pass --mapping-out FILE") from None
    folder = Path(base) / "alias-engine"
    try:
        folder.mkdir(parents=True, exist_ok=True, mode=0o700)
    except OSError as exc:
        raise InputError(f"cannot create {folder} for the mapping ({exc.strerror}): pass --mapping-out FILE") from None
    return folder


class Progress:
    """A one-line progress counter on stderr, shown only when asked or on a terminal."""

    def __init__(self, total: int, label: str, enabled: bool | None = None) -> None:
        self.total = total
        self.label = label
        self.enabled = sys.stderr.isatty() if enabled is None else enabled
        self.done = 0
        self._last = 0.0

    def update(self, done: int, total: int) -> None:
        """Set how far it got, when the total is only known on the way (model windows)."""
        self.total = total
        self.step(done - self.done)

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
