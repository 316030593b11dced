"""The inputs of a batch run and their shards: which files, cut where, read back record by record.

A shard is a plain dict (it travels to worker processes and Ray actors):
`part` (its number, the NNNNN of part-NNNNN), `input` (a file), `kind`
("jsonl" or "parquet"), `start`/`stop` (byte offsets of a JSONL file, rows of
a Parquet file), `first_line` (JSONL line number of `start`, from 1) and
`records` (lines that are not blank, or rows). The plan depends only on the
inputs and the shard size, so a resumed run cuts the same shards.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

from ..errors import InputError
from ..io import decode, parse_jsonl_record

JSONL, PARQUET = "jsonl", "parquet"
FOLDER_SUFFIXES = {".jsonl": JSONL, ".ndjson": JSONL, ".parquet": PARQUET}
MAX_ID_CHARS = 200


@dataclass(frozen=True)
class Input:
    path: str
    kind: str
    size: int
    mtime_ns: int

    def to_dict(self) -> dict:
        return {"path": self.path, "kind": self.kind, "size": self.size, "mtime_ns": self.mtime_ns}


def find_inputs(paths: list[str], out_dir: Path) -> list[Input]:
    """Files named, and the .jsonl/.ndjson/.parquet files under folders named (sorted, hidden ones
    and anything under `out_dir` left out). A named file that is not .parquet is read as JSONL."""
    found: dict[Path, str] = {}
    out_dir = out_dir.resolve()
    for name in paths:
        path = Path(name)
        if path.is_dir():
            for child in sorted(path.rglob("*")):
                relative = child.relative_to(path).parts
                if (child.is_file() and child.suffix.lower() in FOLDER_SUFFIXES
                        and not any(part.startswith(".") for part in relative)
                        and out_dir not in child.resolve().parents):
                    found.setdefault(child.resolve(), FOLDER_SUFFIXES[child.suffix.lower()])
        elif path.is_file():
            if out_dir in path.resolve().parents:
                raise InputError(f"{name} is inside --out {out_dir}: choose another output folder")
            found.setdefault(path.resolve(), PARQUET if path.suffix.lower() == ".parquet" else JSONL)
        elif path.exists():
            raise InputError(f"{name}: not a file or a folder")
        else:
            raise InputError(f"{name}: no such file or folder")
    if not found:
        raise InputError(f"no .jsonl, .ndjson or .parquet file in {', '.join(paths)}")
    inputs = []
    for path, kind in found.items():
        stat = path.stat()
        inputs.append(Input(str(path), kind, stat.st_size, stat.st_mtime_ns))
    return inputs


def plan_shards(inputs: list[Input], shard_size: int) -> list[dict]:
    """Cut every input into shards of `shard_size` records; a shard never spans two files."""
    shards: list[dict] = []
    for item in inputs:
        ranges = _jsonl_ranges(item.path, shard_size) if item.kind == JSONL else _parquet_ranges(item.path, shard_size)
        for start, stop, first_line, records in ranges:
            shards.append({"part": len(shards), "input": item.path, "kind": item.kind, "start": start,
                           "stop": stop, "first_line": first_line, "records": records})
    return shards


def _jsonl_ranges(path: str, shard_size: int):
    offset = start = count = 0
    first_line = 1
    with open(path, "rb") as f:
        for number, line in enumerate(f, 1):  # binary lines end at b"\n" only, as in read_jsonl
            if count == 0:
                start, first_line = offset, number
            offset += len(line)
            if line.strip():
                count += 1
                if count == shard_size:
                    yield start, offset, first_line, count
                    count = 0
    if count:
        yield start, offset, first_line, count


def _parquet_ranges(path: str, shard_size: int):
    rows = _parquet_file(path).metadata.num_rows
    for start in range(0, rows, shard_size):
        stop = min(start + shard_size, rows)
        yield start, stop, None, stop - start


def _parquet_file(path: str):
    try:
        import pyarrow.parquet as pq
    except ImportError:
        raise InputError("reading Parquet needs pyarrow: pip install 'alias-engine[ray]'") from None
    try:
        return pq.ParquetFile(path)
    except Exception as exc:  # pyarrow raises several types for a file that is not Parquet
        raise InputError(f"{path}: not a readable Parquet file ({type(exc).__name__})") from None


def read_shard(shard: dict, text_field: str) -> tuple[list[tuple[int, dict]], list[dict]]:
    """The shard's records as (line or row, record), and an error entry for each record that
    cannot be read: its place, its id when readable, the reason; never its text."""
    if shard["kind"] == JSONL:
        return _read_jsonl_shard(shard, text_field)
    return _read_parquet_shard(shard, text_field)


def error_entry(shard: dict, where: int, record_id, reason: str) -> dict:
    place = "line" if shard["kind"] == JSONL else "row"
    return {"part": shard["part"], "input": shard["input"], place: where, "id": _plain_id(record_id),
            "reason": reason}


def _read_jsonl_shard(shard: dict, text_field: str):
    with open(shard["input"], "rb") as f:
        f.seek(shard["start"])
        data = f.read(shard["stop"] - shard["start"])
    name = Path(shard["input"]).name
    records, errors = [], []
    for number, raw in enumerate(data.split(b"\n"), shard["first_line"]):
        if not raw.strip():
            continue
        try:
            line = decode(raw, f"{name}, line {number}")
            if line.strip():
                records.append((number, parse_jsonl_record(line, name, number, text_field)))
        except InputError as exc:
            errors.append(error_entry(shard, number, _readable_id(raw), str(exc)))
    return records, errors


def _readable_id(raw: bytes):
    """The `id` of a record that failed, if it can be read at all (an id, not content)."""
    try:
        record = json.loads(raw.decode("utf-8", "replace"))
    except ValueError:
        return None
    return record.get("id") if isinstance(record, dict) else None


def _read_parquet_shard(shard: dict, text_field: str):
    import pyarrow as pa

    parquet = _parquet_file(shard["input"])
    name = Path(shard["input"]).name
    start, stop = shard["start"], shard["stop"]
    if text_field not in parquet.schema_arrow.names:
        reason = f"{name}: no \"{text_field}\" column"
        return [], [error_entry(shard, row, None, reason) for row in range(start, stop)]
    groups, first_row, row = [], None, 0
    for index in range(parquet.metadata.num_row_groups):
        count = parquet.metadata.row_group(index).num_rows
        if row + count > start and row < stop:
            groups.append(index)
            first_row = row if first_row is None else first_row
        row += count
    table = parquet.read_row_groups(groups).slice(start - first_row, stop - start)
    # The text is decoded row by row, so that one invalid row is one error, not a failed shard.
    texts = table.column(text_field).cast(pa.binary()).to_pylist()
    others = table.drop_columns([text_field]).to_pylist()
    records, errors = [], []
    for row, text, record in zip(range(start, stop), texts, others):
        try:
            if text is None:
                raise InputError(f"{name}, row {row}: \"{text_field}\" is null")
            record[text_field] = decode(text, f"{name}, row {row}")
            records.append((row, record))
        except InputError as exc:
            errors.append(error_entry(shard, row, record.get("id"), str(exc)))
    return records, errors


def _plain_id(value):
    """An id as it may be logged: a string or number of reasonable length, else None."""
    if isinstance(value, bool) or not isinstance(value, (str, int)) or len(str(value)) > MAX_ID_CHARS:
        return None
    return value
