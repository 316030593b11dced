"""The `alias-engine` command: detect, mask and unmask text or JSONL files."""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Sequence
from pathlib import Path

from . import __version__
from .engine import Engine
from .engine_options import add_engine_options, engine_from_args  # noqa: F401 (re-exported: other commands use them)
from .errors import AliasEngineError, InputError
from .formats import FORMATS, format_spans
from .io import Progress, read_jsonl, read_mapping, read_mapping_lines, read_text, write_output
from .pseudonymise.cli import add_session_options
from .restore import unmask


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
        write_output(args.out, _dump(format_spans(engine.detect(text), text, args.format)) + "\n")
    return 0


def _record_lang(record: dict) -> str | None:
    lang = record.get("lang")
    return lang if lang in ("fr", "en") else None


def _detect_batch(engine: Engine, records: list[dict]) -> list:
    langs = {_record_lang(r) for r in records}
    if len(langs) == 1:
        return engine.detect_many([r["text"] for r in records], lang=langs.pop())
    return [engine.detect(r["text"], lang=_record_lang(r)) for r in records]


def _masked_record(record: dict, text: str, keep: frozenset[str], dropped: set[str]) -> dict:
    """Only `text` (masked) and the fields the user chose to keep go out: the others may
    hold personal data that was not analysed."""
    out = {k: v for k, v in record.items() if k in keep and k != "text"}
    dropped.update(k for k in record if k not in keep and k != "text")
    out["text"] = text
    return out


def _report_dropped(dropped: set[str]) -> None:
    if dropped:
        print(f"fields not masked, left out of the output: {', '.join(sorted(dropped))} "
              "(keep them as they are with --keep-fields)", file=sys.stderr)


def _check_targets(args: argparse.Namespace, mapping_out: str) -> None:
    """Before any work: the mapping must not be lost by an overwrite or by sharing a path."""
    _check_out(args, mapping_out, "mapping")
    if args.input != "-" and Path(args.input).resolve() == Path(mapping_out).resolve():
        raise InputError(f"{args.input} would be overwritten by the mapping")
    if not args.force and Path(mapping_out).exists():
        raise InputError(f"{mapping_out} exists: refusing to overwrite it (pass --force)")


def _check_out(args: argparse.Namespace, kept: str, what: str) -> None:
    """Before any work: --out must not overwrite the input, `kept` (the mapping or the
    session) or the session's key file."""
    if args.out in (None, "-"):
        return
    out = Path(args.out).resolve()
    if out == Path(kept).resolve():
        raise InputError(f"--out and the {what} are the same file ({kept}): the {what} would be lost")
    if getattr(args, "key_file", None) and out == Path(args.key_file).resolve():
        raise InputError(f"--out and --key-file are the same file ({args.key_file}): the key would be lost")
    if args.input != "-" and out == Path(args.input).resolve():
        raise InputError(f"{args.input} would be overwritten by the output")


def cmd_mask(args: argparse.Namespace) -> int:
    engine = engine_from_args(args)
    if args.session:
        _check_out(args, args.session, "session")
        if args.input != "-" and Path(args.input).resolve() == Path(args.session).resolve():
            raise InputError(f"{args.input} is the session file, not a text to mask")
        return _mask_with_session(args, engine)
    mapping_out = args.mapping_out or _default_mapping_path(args.input, args.jsonl)
    _check_targets(args, mapping_out)
    if args.jsonl:
        records = list(read_jsonl(args.input))
        progress = _progress(args, len(records), "mask")
        out_lines, map_lines, dropped = [], [], set()
        for start in range(0, len(records), args.batch_size):
            batch = records[start:start + args.batch_size]
            for number, (record, spans) in enumerate(zip(batch, _detect_batch(engine, batch)), start):
                result = engine.mask(record["text"], spans=spans)
                out_lines.append(_dump(_masked_record(record, result.text, args.keep_fields, dropped)) + "\n")
                map_lines.append(_dump({"id": record.get("id", number), "mapping": result.mapping}) + "\n")
            progress.step(len(batch))
        write_output(mapping_out, "".join(map_lines), private=True, overwrite=args.force)
        write_output(args.out, "".join(out_lines))
        _report_dropped(dropped)
    else:
        result = engine.mask(read_text(args.input))
        write_output(mapping_out, _dump(result.mapping) + "\n", private=True, overwrite=args.force)
        write_output(args.out, result.text)
    print(f"mapping written to {mapping_out}", file=sys.stderr)
    return 0


def _default_mapping_path(source: str, jsonl: bool) -> str:
    base = "stdin" if source == "-" else source
    return f"{base}.mapping.{'jsonl' if jsonl else 'json'}"


def _mask_with_session(args: argparse.Namespace, engine: Engine) -> int:
    from .pseudonymise.cli import open_session, save_session

    session = open_session(args, engine)
    if args.jsonl:
        lines, dropped = [], set()
        for record in read_jsonl(args.input):
            masked = session.mask(record["text"], lang=_record_lang(record)).text
            lines.append(_dump(_masked_record(record, masked, args.keep_fields, dropped)) + "\n")
        text = "".join(lines)
        _report_dropped(dropped)
    else:
        text = session.mask(read_text(args.input)).text
    save_session(args, session)
    write_output(args.out, text)
    return 0


def _unmask_with_session(args: argparse.Namespace) -> int:
    from .pseudonymise.cli import open_session, report_unknown

    session = open_session(args, None)
    unknown: list[str] = []
    if args.jsonl:
        lines = []
        for record in read_jsonl(args.input):
            report = session.unmask_report(record["text"])
            unknown.extend(report.unknown)
            lines.append(_dump({**record, "text": report.text}) + "\n")
        write_output(args.out, "".join(lines))
    else:
        report = session.unmask_report(read_text(args.input))
        unknown.extend(report.unknown)
        write_output(args.out, report.text)
    report_unknown(tuple(unknown))
    return 0


def cmd_unmask(args: argparse.Namespace) -> int:
    if args.session:
        _check_out(args, args.session, "session")
        return _unmask_with_session(args)
    if not args.mapping:
        raise InputError("unmask needs --mapping FILE or --session FILE")
    _check_out(args, args.mapping, "mapping")
    if args.jsonl:
        records = list(read_jsonl(args.input))
        mappings = read_mapping_lines(args.mapping)
        if len(mappings) != len(records):
            raise InputError(f"{args.input} has {len(records)} records but {args.mapping} has {len(mappings)} mappings")
        progress = _progress(args, len(records), "unmask")
        lines = []
        for record, mapping in zip(records, mappings):
            lines.append(_dump({**record, "text": unmask(record["text"], mapping)}) + "\n")
            progress.step()
        write_output(args.out, "".join(lines))
    else:
        write_output(args.out, unmask(read_text(args.input), read_mapping(args.mapping)))
    return 0


def positive_int(value: str) -> int:
    try:
        number = int(value)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not an integer: {value!r}") from None
    if number < 1:
        raise argparse.ArgumentTypeError("must be at least 1")
    return number


def field_set(value: str) -> frozenset[str]:
    return frozenset(name.strip() for name in value.split(",") if name.strip())


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
    mask.add_argument("--mapping-out", help="where to write the mapping (default: INPUT.mapping.json)")
    mask.add_argument("--force", action="store_true", help="overwrite an existing mapping file")
    mask.add_argument("--batch-size", type=positive_int, default=32, help="records per model batch in --jsonl mode")
    mask.add_argument("--keep-fields", type=field_set, default=frozenset({"id", "lang"}),
                      help="--jsonl: comma-separated fields copied as they are, unmasked (default: id,lang; "
                           "other fields are left out since they were not analysed)")
    add_session_options(mask, mask=True)
    mask.set_defaults(handler=cmd_mask)

    unmask = io_command("unmask", "restore original values from a mapping")
    unmask.add_argument("--mapping", help="mapping file written by mask (or use --session)")
    add_session_options(unmask, mask=False)
    unmask.set_defaults(handler=cmd_unmask)

    from .evaluation.cli import add_commands
    add_commands(commands)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
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
