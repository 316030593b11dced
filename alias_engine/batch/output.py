"""What a batch run leaves in its folder, and how a resumed run knows where it stopped.

    DIR/part-NNNNN.jsonl (or .parquet)   masked text and kept fields, one record a line
    DIR/part-NNNNN.mapping.jsonl         the mapping of each record, same order (mode 600;
                                         a vault encrypted with --key-file)
    DIR/_errors.jsonl                    records left out: place, id, reason (never text)
    DIR/_manifest.json                   settings, inputs, finished shards, counts, versions

Only the driver writes here. For each shard: the mapping, then the data, each
to a temporary file renamed into place, then the shard's errors; the manifest
(rewritten whole, atomically) then lists the shard as finished. A shard that
the manifest does not list is done again by `--resume`, from scratch.
"""

from __future__ import annotations

import json
import os
import time
from pathlib import Path

from ..errors import InputError
from ..io import write_output
from ..pseudonymise.vault import write_vault
from .masking import ShardResult

MANIFEST = "_manifest.json"
ERRORS = "_errors.jsonl"
SAVE_EVERY_S = 2.0


def dumps(record: object) -> str:
    # as `mask --jsonl` writes a record; values JSON has no type for (Parquet dates) as strings
    return json.dumps(record, ensure_ascii=False, default=str)


def shard_files(part: int, fmt: str) -> tuple[str, str]:
    """(data file, mapping file) names of shard `part`."""
    return f"part-{part:05d}.{fmt}", f"part-{part:05d}.mapping.jsonl"


def write_shard(out_dir: Path, result: ShardResult, fmt: str, key: bytes | None, text_field: str) -> None:
    data_name, mapping_name = shard_files(result.shard["part"], fmt)
    if key is None:
        write_output(str(out_dir / mapping_name), "".join(dumps(m) + "\n" for m in result.mappings), private=True)
    else:
        write_vault(out_dir / mapping_name, key, {"mapping_lines": result.mappings})
    if fmt == "jsonl":
        write_output(str(out_dir / data_name), "".join(dumps(r) + "\n" for r in result.records))
    else:
        _write_parquet(out_dir / data_name, result.records, text_field)


def _write_parquet(path: Path, records: list[dict], text_field: str) -> None:
    import pyarrow as pa
    import pyarrow.parquet as pq

    try:
        table = pa.Table.from_pylist(records) if records else pa.table({text_field: pa.array([], pa.string())})
    except (pa.ArrowException, TypeError) as exc:
        raise InputError(f"--format parquet: the kept fields do not fit one column type ({exc}); "
                         "use --format jsonl") from None
    tmp = path.with_name(f".{path.name}.tmp")
    try:
        pq.write_table(table, tmp)
        os.chmod(tmp, 0o600)
        os.replace(tmp, path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise


class Manifest:
    """The run's record of itself: its settings, and the shards finished so far."""

    def __init__(self, out_dir: Path, settings: dict, inputs: list[dict], planned: int, fmt: str) -> None:
        self.out_dir, self.settings, self.inputs, self.planned, self.fmt = out_dir, settings, inputs, planned, fmt
        self.finished: dict[int, dict] = {}
        self._saved = 0.0

    @classmethod
    def open(cls, out_dir: Path, settings: dict, inputs: list[dict], planned: int, fmt: str,
             resume: bool) -> Manifest:
        """A new run in an empty (or new) folder, or with `resume`, the run the folder holds,
        if it was started with the same settings and inputs."""
        manifest = cls(out_dir, settings, inputs, planned, fmt)
        if out_dir.exists() and not out_dir.is_dir():
            raise InputError(f"--out {out_dir} is a file, not a folder")
        out_dir.mkdir(parents=True, exist_ok=True)
        if not resume:
            if any(out_dir.iterdir()):
                raise InputError(f"{out_dir} is not empty: pass --resume to finish the run it holds, "
                                 "or choose another --out")
            return manifest
        for pattern in (".part-*", "._*", ".vault-*"):  # temporary files of a run killed mid-write
            for stale in out_dir.glob(pattern):
                stale.unlink()
        path = out_dir / MANIFEST
        if path.exists():
            try:
                old = json.loads(path.read_text(encoding="utf-8"))
            except (ValueError, UnicodeDecodeError):
                raise InputError(f"{path} is damaged: cannot resume from it") from None
            changed = [name for name in sorted(set(settings) | set(old.get("settings", {})))
                       if settings.get(name) != old.get("settings", {}).get(name)]
            if old.get("inputs") != inputs:
                changed.insert(0, "inputs (files, sizes or dates)")
            if changed:
                raise InputError(f"cannot resume: this run differs from the one in {out_dir} in "
                                 f"{', '.join(changed)}; use the same settings or another --out")
            for entry in old.get("shards", []):
                if all((out_dir / entry[name]).is_file() for name in ("data", "mapping")):
                    manifest.finished[entry["part"]] = entry
        manifest.rewrite_errors()
        return manifest

    def is_finished(self, shard: dict) -> bool:
        return shard["part"] in self.finished

    def add(self, result: ShardResult) -> None:
        shard = result.shard
        data, mapping = shard_files(shard["part"], self.fmt)
        self.finished[shard["part"]] = {
            "part": shard["part"], "data": data, "mapping": mapping, "input": shard["input"],
            "first_line" if shard["kind"] == "jsonl" else "first_row":
                shard["first_line"] if shard["kind"] == "jsonl" else shard["start"],
            "records": len(result.records), "errors": len(result.errors), "chars": result.chars}
        if time.monotonic() - self._saved > SAVE_EVERY_S:
            self.save()

    def add_errors(self, errors: list[dict]) -> None:
        if errors:
            fd = os.open(self.out_dir / ERRORS, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)
            with open(fd, "a", encoding="utf-8") as f:
                f.write("".join(dumps(e) + "\n" for e in errors))

    def save(self) -> None:
        shards = [self.finished[part] for part in sorted(self.finished)]
        from .. import __version__

        content = {
            "alias_engine": __version__,
            "complete": len(shards) == self.planned,
            "settings": self.settings,
            "inputs": self.inputs,
            "planned_shards": self.planned,
            "shards": shards,
            "records": sum(s["records"] for s in shards),
            "errors": sum(s["errors"] for s in shards),
            "chars": sum(s["chars"] for s in shards),
        }
        write_output(str(self.out_dir / MANIFEST), json.dumps(content, ensure_ascii=False, indent=1) + "\n")
        self._saved = time.monotonic()

    def rewrite_errors(self) -> None:
        """_errors.jsonl in input order, with only the errors of finished shards (a shard that
        is done again reports its errors again)."""
        path = self.out_dir / ERRORS
        if not path.exists():
            return
        kept = []
        for line in path.read_text(encoding="utf-8", errors="replace").split("\n"):
            try:
                entry = json.loads(line)
            except ValueError:
                continue  # a line cut short by a killed run
            if isinstance(entry, dict) and entry.get("part") in self.finished:
                kept.append((entry["part"], entry.get("line", entry.get("row", 0)), line + "\n"))
        write_output(str(path), "".join(line for *_, line in sorted(kept)))
