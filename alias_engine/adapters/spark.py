"""Mask string columns of a Spark DataFrame (`pip install "alias-engine[spark]"`; PySpark 4, pyarrow).

```python
from alias_engine.adapters.spark import mask_columns, unmask_columns

masked, mappings = mask_columns(df, ["subject", "body"], id_column="ticket_id")
masked.write.parquet("s3://shared/tickets_masked")      # no personal data
mappings.write.parquet("s3://vault/tickets_mappings")     # ticket_id, alias_mapping: keep it safe
restored = unmask_columns(masked.join(mappings, "ticket_id"), ["subject", "body"])
```

- `masked`: `df` with each column of `columns` masked (same schema, same rows). `mappings`:
  `id_column` and `mapping_column` ("alias_mapping"), a JSON object
  `{column: {placeholder or surrogate: value}}`, what `alias_engine.unmask` needs to
  restore each cell of that row. Both come from one masking pass
  (`masked_and_mappings`); write that frame once (or persist it) when computing it
  twice costs too much. Masking is deterministic (placeholders, and surrogates under
  one `key`), so the two always agree.
- A row is one `Session`: a value gets one placeholder in all its columns. With
  `partition_by="patient_id"`, the rows of one key share a session (the frame is
  repartitioned by the key and sorted within partitions).
- `mode`: "placeholder" ([PERSON_1]) or "surrogate" (realistic values, deterministic under
  `key`; a random key is drawn once on the driver when none is given).
- One Engine per Python worker process, built on first use from `engine` (Engine
  options, or a function returning an Engine) and kept (module-level cache; PySpark
  reuses its workers). Its model threads default to `spark.task.cpus`, so model
  threads x concurrent tasks = the executor's cores.
- A null or an empty string passes through (its mapping entry is empty). A row that
  cannot be masked fails the task with an AliasEngineError naming the row's id (never
  its text), so the job fails and Spark commits no output: no row is ever written in
  clear. Columns that are not strings, or missing, are refused before anything runs.
"""

from __future__ import annotations

import hashlib
import json
import os
import pickle
import threading
from collections import OrderedDict
from collections.abc import Callable, Iterator, Sequence
from typing import Any

from ..errors import AliasEngineError
from . import require

MAPPING_COLUMN = "alias_mapping"
_MODES = ("placeholder", "surrogate")

_engines: OrderedDict[str, Any] = OrderedDict()  # one Engine per settings, per worker process
_engines_lock = threading.Lock()


def _spark():
    return require("pyspark.sql", "spark", "the Spark adapter")


def _cached_engine(token: str, make: Callable[[], Any]) -> Any:
    with _engines_lock:
        engine = _engines.get(token)
        if engine is None:
            engine = _engines[token] = make()
            while len(_engines) > 4:
                _engines.popitem(last=False)
        return engine


def _check_columns(df, columns: Sequence[str], id_column: str | None, partition_by: str | None,
                   mapping_column: str) -> None:
    types = {f.name: f.dataType.simpleString() for f in df.schema.fields}
    if isinstance(columns, str) or not columns:
        raise AliasEngineError("columns must be a non-empty list of column names")
    for name in columns:
        if name not in types:
            raise AliasEngineError(f"no column {name!r} in the DataFrame (it has {', '.join(types)})")
        if types[name] != "string":
            raise AliasEngineError(f"column {name!r} is {types[name]}, not string: only string columns are masked")
    for what, column in (("id_column", id_column), ("partition_by", partition_by)):
        if column is not None and column not in types:
            raise AliasEngineError(f"{what}: no column {column!r} in the DataFrame")
    if id_column in columns or partition_by in columns:
        raise AliasEngineError("id_column and partition_by must not be masked columns (they go out as written)")
    if mapping_column in types:
        raise AliasEngineError(f"the DataFrame already has a column {mapping_column!r} (pass mapping_column=...)")
    if len(set(columns)) != len(columns):
        raise AliasEngineError("a column is named twice in columns")


def masked_and_mappings(df, columns: Sequence[str], *, id_column: str | None = None, mode: str = "placeholder",
                        key: bytes | str | None = None, partition_by: str | None = None,
                        engine: dict | Callable[[], Any] | None = None, lang: str | None = None,
                        batch_rows: int = 64, mapping_column: str = MAPPING_COLUMN):
    """`df` with `columns` masked and a `mapping_column` of JSON mappings: the one masking pass
    `mask_columns` splits in two (see the module)."""
    _check_columns(df, columns, id_column, partition_by, mapping_column)
    if mode not in _MODES:
        raise AliasEngineError(f"mode must be placeholder or surrogate, not {mode!r}")
    if not isinstance(batch_rows, int) or batch_rows < 1:
        raise AliasEngineError("batch_rows must be a positive integer")
    if lang not in (None, "auto", "fr", "en"):
        raise AliasEngineError(f"lang must be fr, en or auto, not {lang!r}")
    if isinstance(key, str):
        key = key.encode("utf-8")
    if mode == "surrogate" and key is None:
        key = os.urandom(32)  # drawn once, here: every task and every recomputation fakes alike
    if engine is None:
        engine = {}
    make: Callable[[], Any]
    if isinstance(engine, dict):
        options = dict(engine)
        if "threads" not in options:
            options["threads"] = _task_cpus(df)
        _check_options(options)
        token = hashlib.sha256(pickle.dumps(sorted(options.items()))).hexdigest()

        def make(options=options):
            from ..engine import Engine

            return Engine(**options)
    elif callable(engine):
        make = engine
        token = hashlib.sha256(_cloudpickle().dumps(engine)).hexdigest()
    else:
        raise AliasEngineError("engine must be a dict of Engine options or a function returning an Engine")

    T = _spark().types
    schema = T.StructType(list(df.schema.fields) + [T.StructField(mapping_column, T.StringType(), True)])
    if partition_by is not None:
        df = df.repartition(partition_by).sortWithinPartitions(partition_by)
    run = _PartitionMasker(token, make, list(columns), id_column, partition_by, mode, key, lang, batch_rows,
                           mapping_column)
    return df.mapInArrow(run, schema)


def mask_columns(df, columns: Sequence[str], *, id_column: str, mapping_column: str = MAPPING_COLUMN, **options):
    """`(masked, mappings)`: `df` with `columns` masked, and `id_column` with each row's mapping
    (`mapping_column`, JSON `{column: {pseudonym: value}}`). Options: see `masked_and_mappings`."""
    if not isinstance(id_column, str):
        raise AliasEngineError("id_column must name the column that identifies a row: the mappings are keyed by it")
    full = masked_and_mappings(df, columns, id_column=id_column, mapping_column=mapping_column, **options)
    return full.drop(mapping_column), full.select(id_column, mapping_column)


def unmask_columns(df, columns: Sequence[str], mapping_column: str = MAPPING_COLUMN):
    """`df` (masked columns and their `mapping_column`) with `columns` restored; the mapping column
    is dropped."""
    types = {f.name: f.dataType.simpleString() for f in df.schema.fields}
    for name in [*columns, mapping_column]:
        if types.get(name) != "string":
            raise AliasEngineError(f"column {name!r} must be a string column of the DataFrame")
    T = _spark().types
    schema = T.StructType([f for f in df.schema.fields if f.name != mapping_column])
    return df.mapInArrow(_PartitionRestorer(list(columns), mapping_column), schema)


def _task_cpus(df) -> int:
    try:
        return max(1, int(df.sparkSession.conf.get("spark.task.cpus", "1")))
    except Exception:
        return 1


def _check_options(options: dict) -> None:
    """Engine options checked on the driver, so a typo fails here and not in every task."""
    import inspect

    from ..engine import Engine

    allowed = set(inspect.signature(Engine.__init__).parameters) - {"self"}
    unknown = sorted(set(options) - allowed)
    if unknown:
        raise AliasEngineError(f"unknown Engine options: {', '.join(unknown)} (known: {', '.join(sorted(allowed))})")


def _cloudpickle():
    return require("pyspark.cloudpickle", "spark", "the Spark adapter")


def _merge_row(row_mapping: dict, column: str, mapping: dict) -> None:
    if mapping:
        row_mapping[column] = mapping


class _PartitionMasker:
    """The function `mapInArrow` runs over a partition's record batches."""

    def __init__(self, token, make, columns, id_column, partition_by, mode, key, lang, batch_rows, mapping_column):
        self.token, self.make = token, make
        self.columns, self.id_column, self.partition_by = columns, id_column, partition_by
        self.mode, self.key, self.lang = mode, key, lang
        self.batch_rows, self.mapping_column = batch_rows, mapping_column

    def __call__(self, batches: Iterator[Any]) -> Iterator[Any]:
        import pyarrow as pa

        from ..pseudonymise import Session
        from ..server.masking import CachedDetector

        engine = _cached_engine(self.token, self.make)
        # spans by text digest: a batch's texts are detected in one model batch, then masked row by row
        detector = CachedDetector(engine, size=2 * self.batch_rows * len(self.columns) + 16)
        current: tuple[Any, Any] | None = None  # (partition key, its session)
        for batch in batches:
            data = batch.to_pydict()
            n = batch.num_rows
            mappings: list[str | None] = [None] * n
            for start in range(0, n, self.batch_rows):
                rows = range(start, min(start + self.batch_rows, n))
                texts = [data[c][i] for i in rows for c in self.columns if data[c][i]]
                try:
                    detector.prepare(texts, self.lang)
                except AliasEngineError:
                    pass  # a text that fails is found again below, row by row, and named
                for i in rows:
                    if self.partition_by is None:
                        session = Session(detector, mode=self.mode, key=self.key, lang=self.lang)
                    else:
                        group = data[self.partition_by][i]
                        if current is None or current[0] != group:
                            current = (group, Session(detector, mode=self.mode, key=self.key, lang=self.lang))
                        session = current[1]
                    row_mapping: dict = {}
                    for c in self.columns:
                        value = data[c][i]
                        if not value:
                            continue  # null or "": as written
                        try:
                            result = session.mask(value)
                        except Exception as exc:
                            raise AliasEngineError(self._where(data, i, c) + f" could not be masked "
                                                   f"({type(exc).__name__}: {_reason(exc)}); the job stops "
                                                   "so that no row is written in clear") from None
                        data[c][i] = result.text
                        _merge_row(row_mapping, c, result.mapping)
                    mappings[i] = json.dumps(row_mapping, ensure_ascii=False)
            data[self.mapping_column] = mappings
            yield pa.RecordBatch.from_pydict(data, schema=batch.schema.append(
                pa.field(self.mapping_column, pa.string())))

    def _where(self, data: dict, i: int, column: str) -> str:
        if self.id_column is not None:
            return f"row {self.id_column}={data[self.id_column][i]!r}, column {column!r},"
        return f"a row (no id_column given), column {column!r},"


def _reason(exc: Exception) -> str:
    return str(exc) if isinstance(exc, AliasEngineError) else "see the executor log"


class _PartitionRestorer:
    def __init__(self, columns: list[str], mapping_column: str) -> None:
        self.columns, self.mapping_column = columns, mapping_column

    def __call__(self, batches: Iterator[Any]) -> Iterator[Any]:
        import pyarrow as pa

        from ..restore import unmask

        for batch in batches:
            data = batch.to_pydict()
            raw = data.pop(self.mapping_column)
            for i, text in enumerate(raw):
                try:
                    row = json.loads(text) if text else {}
                except ValueError:
                    raise AliasEngineError(f"row {i} of a batch: the mapping is not JSON") from None
                for c in self.columns:
                    if data[c][i] and row.get(c):
                        data[c][i] = unmask(data[c][i], row[c])
            schema = pa.schema([f for f in batch.schema if f.name != self.mapping_column])
            yield pa.RecordBatch.from_pydict(data, schema=schema)
