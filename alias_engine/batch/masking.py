"""The work of one shard, wherever it runs (a worker process or a Ray actor): read, mask, report.

One ShardMasker holds one Engine, built on first use from the run's settings
(a plain dict that pickles), and masks a shard exactly as `mask --jsonl` masks
a file: the same model batches of records, through `alias_engine.cli.mask_records`.
A record that cannot be read or masked becomes an error entry (its place, its
id, the reason; never its text) and is left out of the shard and its mapping.
"""

from __future__ import annotations

import argparse
from dataclasses import dataclass, field

from ..errors import AliasEngineError, ModelError
from .consistent import placeholder_number
from .shards import error_entry, read_shard


@dataclass
class ShardResult:
    """What a worker sends back for a shard; the driver writes it."""

    shard: dict
    records: list[dict] = field(default_factory=list)  # masked text and kept fields, in input order
    mappings: list[dict] = field(default_factory=list)  # {"id", "mapping"} for each record, same order
    errors: list[dict] = field(default_factory=list)
    chars: int = 0  # characters of text masked
    dropped: set[str] = field(default_factory=set)  # fields left out of the output


class ShardMasker:
    """Mask shards with one Engine. `settings`: `engine` (the engine options as in the CLI's
    namespace), `text_field`, `keep_fields`, `batch_size`, `consistent_key` (bytes or None)."""

    def __init__(self, settings: dict) -> None:
        from ..engine_options import engine_from_args

        self.settings = settings
        self.engine = engine_from_args(argparse.Namespace(**settings["engine"]))
        self.number = placeholder_number(settings["consistent_key"]) if settings.get("consistent_key") else None

    def __call__(self, shard: dict) -> ShardResult:
        text_field = self.settings["text_field"]
        readable, errors = read_shard(shard, text_field)
        result = ShardResult(shard, errors=errors)
        records = []
        for where, record in readable:
            if len(record[text_field]) > self.engine.max_chars:
                reason = (f"text of {len(record[text_field]):,} characters is over the limit of "
                          f"{self.engine.max_chars:,}")
                result.errors.append(error_entry(shard, where, record.get("id"), reason))
            else:
                records.append((where, record))
        size = self.settings["batch_size"]
        for start in range(0, len(records), size):
            self._mask_batch(records[start:start + size], shard, result)
        result.errors.sort(key=lambda e: e["line"] if "line" in e else e["row"])  # error_entry writes one
        return result

    def _mask_batch(self, batch: list[tuple[int, dict]], shard: dict, result: ShardResult) -> None:
        try:
            masked = self._mask([record for _, record in batch], result.dropped)
        except ModelError:
            raise  # detection cannot run at all: stop the run, write nothing of this shard
        except AliasEngineError as exc:
            if len(batch) == 1:
                where, record = batch[0]
                result.errors.append(error_entry(shard, where, record.get("id"), f"masking failed: {exc}"))
            else:  # find the record that fails; the others are masked one by one
                for one in batch:
                    self._mask_batch([one], shard, result)
            return
        for (where, record), (out, mask) in zip(batch, masked):
            result.records.append(out)
            result.mappings.append({"id": record.get("id", where), "mapping": mask.mapping})
            result.chars += len(record[self.settings["text_field"]])

    def _mask(self, records: list[dict], dropped: set[str]):
        from ..records import mask_records

        return mask_records(self.engine, records, self.settings["keep_fields"], dropped,
                            text_field=self.settings["text_field"], number=self.number)
