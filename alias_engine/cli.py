"""The `alias-engine` command: detect, mask and unmask text or JSONL files."""

from __future__ import annotations

import argparse
import json
import os
import secrets
import sys
import time
import warnings
from collections import Counter
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TypeVar

from . import __version__
from .engine import Engine
from .engine_options import add_engine_options, engine_from_args  # noqa: F401 (re-exported: other commands use them)
from .errors import AliasEngineError, InputError
from .formats import FORMATS, format_spans
from .io import (
    Output,
    Progress,
    check_writable,
    private_state_dir,
    read_jsonl,
    read_mapping,
    read_mapping_lines,
    read_text,
    same_file,
    write_output,
    write_outputs,
)
from .labels import BUILTIN, LabelSet
from .options import positive_int
from .placeholders import mapping_labels, not_the_authors, placeholder_format, placeholder_pattern
from .pseudonymise.cli import add_session_options
from .records import _detect_batch, _masked_record, _record_lang, _report_dropped, field_set, mask_records  # noqa: F401
from .restore import unmask_report

T = TypeVar("T")

# Options naming files a command reads, and files it writes, with what each holds. No output
# may be an input or another output (same path, symbolic or hard link). A command that adds
# a file option adds it here.
INPUT_OPTIONS = {"input": "input", "data": "input", "mapping": "mapping", "session": "session",
                 "key_file": "key", "rules": "rules file"}
OUTPUT_OPTIONS = {"mapping_out": "mapping", "out": "output", "json": "output", "save_predictions": "output"}


def _dump(record: object) -> str:
    return json.dumps(record, ensure_ascii=False)


def _progress(args: argparse.Namespace, total: int, label: str) -> Progress:
    return Progress(total, label, enabled=args.progress)


def cmd_detect(args: argparse.Namespace) -> int:
    engine = engine_from_args(args)
    if args.jsonl:
        records = list(read_jsonl(args.input))
        progress = _progress(args, len(records), "detect")
        lines = []
        for start in range(0, len(records), args.batch_size):
            batch = records[start:start + args.batch_size]
            for record, spans in zip(batch, _detect_batch(engine, batch)):
                lines.append(_dump({**record, "spans": format_spans(spans, record["text"], args.format)}) + "\n")
            progress.step(len(batch))
        write_output(args.out, "".join(lines))
    else:
        text = read_text(args.input)
        spans = _with_model_progress(args, "detect", lambda: engine.detect(text))
        write_output(args.out, _dump(format_spans(spans, text, args.format)) + "\n")
    return 0


def _with_model_progress(args: argparse.Namespace, label: str, work: Callable[[], T]) -> T:
    """Run `work` (detection of one text) with the model's windows counted on stderr."""
    progress = Progress(0, f"{label} (model windows)", enabled=args.progress)
    if not progress.enabled:
        return work()
    from .detectors.model import model_progress

    with model_progress(progress.update):
        result = work()
    if progress.done == 0:  # rules only, or an empty text: nothing went through the model
        progress.update(1, 1)
    return result


def _named_paths(args: argparse.Namespace, options: dict[str, str]) -> list[tuple[str, str, str]]:
    found = []
    for option, what in options.items():
        value = getattr(args, option, None)
        for path in value if isinstance(value, list) else [value]:
            if isinstance(path, str) and path != "-":
                found.append((option, what, path))
    return found


def _flag(option: str) -> str:
    return "the input" if option in ("input", "data") else "--" + option.replace("_", "-")


def check_paths(args: argparse.Namespace) -> None:
    """Before any work: no output is an input or another output, and every output can be written."""
    inputs = _named_paths(args, INPUT_OPTIONS)
    outputs = _named_paths(args, OUTPUT_OPTIONS)
    for i, (option, _, path) in enumerate(outputs):
        for other, what, other_path in inputs + outputs[:i]:
            if same_file(path, other_path):
                raise InputError(f"{_flag(option)} and {_flag(other)} are the same file ({path}): "
                                 f"the {what} would be lost")
        check_writable(path)


def cmd_mask(args: argparse.Namespace) -> int:
    engine = engine_from_args(args)
    if args.session:
        if args.input != "-" and same_file(args.input, args.session):
            raise InputError(f"the input and --session are the same file ({args.input}): the input would be lost")
        if args.key_file and same_file(args.key_file, args.session):
            raise InputError(f"--key-file and --session are the same file ({args.session}): the key would be lost")
        return _mask_with_session(args, engine)
    args.mapping_out = mapping_out = args.mapping_out or _default_mapping_path(args.input, args.jsonl)
    check_paths(args)
    if not args.force and Path(mapping_out).exists():
        raise InputError(f"{mapping_out} exists: refusing to overwrite it (pass --force)")
    if args.jsonl:
        records = list(read_jsonl(args.input))
        progress = _progress(args, len(records), "mask")
        out_lines, map_lines = [], []
        dropped: set[str] = set()
        for start in range(0, len(records), args.batch_size):
            batch = records[start:start + args.batch_size]
            for number, (record, (masked, result)) in enumerate(
                    zip(batch, mask_records(engine, batch, args.keep_fields, dropped)), start):
                out_lines.append(_dump(masked) + "\n")
                map_lines.append(_dump({"id": record.get("id", number), "mapping": result.mapping}) + "\n")
            progress.step(len(batch))
        mapping, text = "".join(map_lines), "".join(out_lines)
        _report_dropped(dropped)
    else:
        source = read_text(args.input)
        result = _with_model_progress(args, "mask", lambda: engine.mask(source))
        mapping, text = _dump(result.mapping) + "\n", result.text
    # the mapping first: masked text must never be out without the mapping that restores it
    write_outputs([Output(mapping_out, mapping, private=True, overwrite=args.force), Output(args.out, text)])
    print(f"mapping written to {mapping_out}", file=sys.stderr)
    return 0


def _default_mapping_path(source: str, jsonl: bool) -> str:
    """Beside the input file; for stdin, a new file in the user's private state folder
    (never in the working directory, which may be a repository)."""
    ext = "jsonl" if jsonl else "json"
    if source != "-":
        return f"{source}.mapping.{ext}"
    name = f"stdin-{time.strftime('%Y%m%d-%H%M%S')}-{secrets.token_hex(3)}.mapping.{ext}"
    return str(private_state_dir() / name)


def _mask_with_session(args: argparse.Namespace, engine: Engine) -> int:
    from .pseudonymise.cli import open_session, save_session
    from .pseudonymise.vault import VaultKeys, key_from, vault_lock

    records = list(read_jsonl(args.input)) if args.jsonl else None  # read first: fail before the lock
    source = None if args.jsonl else read_text(args.input)
    key = VaultKeys(key_from(args.key_file))  # the save reuses what the load derived: one scrypt a run
    # load-mask-save under one lock: another run on this vault waits, and numbers its
    # placeholders after ours instead of handing out the same ones for other values
    with vault_lock(args.session):
        session = open_session(args, engine, key)
        if records is not None:
            lines = []
            dropped: set[str] = set()
            for record in records:
                masked = session.mask(record["text"], lang=_record_lang(record)).text
                lines.append(_dump(_masked_record(record, masked, args.keep_fields, dropped)) + "\n")
            text = "".join(lines)
            _report_dropped(dropped)
        else:
            assert source is not None  # read when not --jsonl
            text = _with_model_progress(args, "mask", lambda: session.mask(source).text)
        save_session(args, session, key)
    write_output(args.out, text)
    return 0


def _unmask_with_session(args: argparse.Namespace, labels: LabelSet) -> int:
    from .pseudonymise.cli import open_session

    session = open_session(args, None)
    session.labels = labels
    unknown: list[str] = []
    if args.jsonl:
        lines = []
        for record in read_jsonl(args.input):
            report = session.unmask_report(record["text"])
            unknown.extend(report.unknown)
            lines.append(_dump({**record, "text": report.text}) + "\n")
        text = "".join(lines)
    else:
        report = session.unmask_report(read_text(args.input))
        unknown.extend(report.unknown)
        text = report.text
    _write_restored(args, text, unknown, "in the session")
    return 0


def cmd_unmask(args: argparse.Namespace) -> int:
    labels = BUILTIN
    if args.rules:
        from .detectors.rules import declare_labels

        labels = declare_labels(args.rules)  # how the values of the labels those files declare restore
    if args.session:
        return _unmask_with_session(args, labels)
    if not args.mapping:
        raise InputError("unmask needs --mapping FILE or --session FILE")
    unknown: list[str] = []
    if args.jsonl:
        records = list(read_jsonl(args.input, args.text_field))
        mappings = read_mapping_lines(args.mapping, _mapping_key(args))
        if len(mappings) != len(records):
            raise InputError(f"{args.input} has {len(records)} records but {args.mapping} has {len(mappings)} mappings")
        progress = _progress(args, len(records), "unmask")
        lines = []
        for record, mapping in zip(records, mappings):
            restored = _restore(record[args.text_field], mapping, unknown, labels)
            lines.append(_dump({**record, args.text_field: restored}) + "\n")
            progress.step()
        text = "".join(lines)
    else:
        text = _restore(read_text(args.input), read_mapping(args.mapping), unknown, labels)
    _write_restored(args, text, unknown, f"in {args.mapping} (is it the mapping of this text?)")
    return 0


def _mapping_key(args: argparse.Namespace) -> bytes | None:
    """The key of an encrypted batch mapping (`batch --key-file`), when one is given."""
    from .pseudonymise.vault import KEY_ENV, key_from

    return key_from(args.key_file) if args.key_file or os.environ.get(KEY_ENV) else None


def _restore(text: str, mapping: dict, unknown: list[str], labels: LabelSet = BUILTIN) -> str:
    """`text` restored with `mapping`; adds to `unknown` the placeholders left as written:
    those restore recognises (`[EMAIL_1]`, `{email 1}`...) and those of the mapping's own format."""
    report = unmask_report(text, mapping, labels)
    left = list(report.unknown)
    fmt = placeholder_format(mapping)
    if fmt is not None:
        pattern = placeholder_pattern(fmt, mapping_labels(mapping))
        reported = Counter(left)
        for m in pattern.finditer(text):
            if m.group() in mapping:
                continue
            if reported[m.group()]:
                reported[m.group()] -= 1
            else:
                left.append(m.group())
        left = not_the_authors(left, mapping, pattern)
    unknown.extend(left)
    return report.text


def _write_restored(args: argparse.Namespace, text: str, unknown: list[str], where: str) -> None:
    """Write restored text, after a count of the placeholders it could not restore on stderr;
    with --strict, any such placeholder is an error and nothing is written."""
    if unknown:
        shown = ", ".join(sorted(set(unknown))[:10])
        message = f"{len(unknown)} placeholder(s) not {where}, left as written: {shown}"
        if args.strict:
            raise InputError(f"{message}; nothing written (--strict)")
        print(f"alias-engine: warning: {message}", file=sys.stderr)
    write_output(args.out, text)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="alias-engine", description=__doc__)
    parser.add_argument("--version", action="version", version=f"alias-engine {__version__}")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    def io_command(name: str, help: str) -> argparse.ArgumentParser:
        p = commands.add_parser(name, help=help, description=help)
        p.add_argument("input", nargs="?", default="-", help="input file, or - for stdin (default)")
        p.add_argument("--jsonl", action="store_true", help="input is JSONL: one {\"text\": ...} record a line")
        p.add_argument("-o", "--out", help="output file (default: stdout); written only when complete")
        p.add_argument("--progress", action="store_true", default=None, help="show progress on stderr")
        return p

    detect = io_command("detect", "print the spans of personal data as JSON")
    add_engine_options(detect)
    detect.add_argument("--batch-size", type=positive_int, default=32, help="records per model batch in --jsonl mode")
    detect.add_argument("--format", choices=FORMATS, default="json",
                        help="json (default: start, end, label, score, source), hf (a Hugging Face "
                             "token-classification pipeline's entity_group, score, word, start, end) or "
                             "presidio (entity_type, start, end, score)")
    detect.set_defaults(handler=cmd_detect)

    mask = io_command("mask", "replace personal data by placeholders; write the mapping to restore it")
    add_engine_options(mask)
    mask.add_argument("--mapping-out", help="where to write the mapping (default: INPUT.mapping.json; for "
                                            "stdin, a new file in ~/.local/state/alias-engine/)")
    mask.add_argument("--force", action="store_true", help="overwrite an existing mapping file")
    mask.add_argument("--batch-size", type=positive_int, default=32, help="records per model batch in --jsonl mode")
    mask.add_argument("--keep-fields", type=field_set, default=frozenset({"id", "lang"}),
                      help="--jsonl: comma-separated fields copied as they are, unmasked (default: id,lang; "
                           "other fields are left out since they were not analysed)")
    add_session_options(mask, mask=True)
    mask.set_defaults(handler=cmd_mask)

    unmask = io_command("unmask", "restore original values from a mapping")
    unmask.add_argument("--mapping", help="mapping file written by mask or batch (or use --session); "
                        "a batch mapping encrypted with --key-file is opened with the same --key-file")
    unmask.add_argument("--text-field", default="text", help="--jsonl: the field that holds the text (default: text)")
    unmask.add_argument("--rules", action="append", default=[], metavar="FILE",
                        help="a rules file given to mask (repeatable): its declared labels are placeholders too")
    unmask.add_argument("--strict", action="store_true",
                        help="fail (exit 1, write nothing) if a placeholder cannot be restored; "
                             "without it they are left as written and counted on stderr")
    add_session_options(unmask, mask=False)
    unmask.set_defaults(handler=cmd_unmask)

    from .batch.cli import add_batch_command
    add_batch_command(commands)

    from .evaluation.cli import add_commands
    add_commands(commands)

    from .server.cli import add_serve_command  # the server itself is imported only when serve runs
    add_serve_command(commands, add_engine_options)
    return parser


def _show_warning(message, category, filename, lineno, file=None, line=None) -> None:
    print(f"alias-engine: warning: {message}", file=sys.stderr)


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        with warnings.catch_warnings():
            warnings.showwarning = _show_warning
            warnings.simplefilter("always", UserWarning)
            check_paths(args)
            return args.handler(args)
    except AliasEngineError as exc:
        print(f"alias-engine: error: {exc}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("alias-engine: interrupted; no output written", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 1
    except OSError as exc:
        print(f"alias-engine: error: {exc.strerror or type(exc).__name__}"
              f"{': ' + str(exc.filename) if exc.filename else ''}", file=sys.stderr)
        return 1
    except Exception as exc:  # a bug: say so in one line, write nothing more
        if os.environ.get("ALIAS_ENGINE_DEBUG"):
            raise
        print(f"alias-engine: internal error ({type(exc).__name__}); nothing was written. "
              "Set ALIAS_ENGINE_DEBUG=1 to see the traceback.", file=sys.stderr)
        return 3


if __name__ == "__main__":
    sys.exit(main())
