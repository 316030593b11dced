"""The `eval` and `bench` commands; `add_commands` registers them on the main CLI's subparsers."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from ..engine_options import add_engine_options, engine_from_args
from ..errors import InputError
from ..options import non_negative_int, positive_int


def add_commands(subparsers) -> None:
    """Register `eval` and `bench` (each sets `handler`) on an argparse subparsers object."""
    ev = subparsers.add_parser(
        "eval", help="score detection and masking on labelled JSONL files",
        description="Score detection and masking on JSONL files in the format of LABELS.md: strict and overlap "
                    "P/R/F1 per label, per language and micro-averaged, and leak rates of the masked text.")
    ev.add_argument("data", nargs="+", help="labelled JSONL file(s)")
    ev.add_argument("--json", metavar="OUT", help="write every figure as JSON")
    ev.add_argument("--save-predictions", metavar="FILE",
                    help="write the detections and masked text of every record as JSONL")
    ev.add_argument("--errors", type=non_negative_int, default=0, metavar="N",
                    help="print N missed and N spurious spans per label, in context")
    ev.add_argument("--batch-size", type=positive_int, default=32, help="records per detect_many call (default 32)")
    ev.add_argument("--guess-lang", action="store_true",
                    help="ignore the records' lang and use --lang (default: a record's fr/en lang is used)")
    add_engine_options(ev)
    ev.set_defaults(handler=cmd_eval)

    bench = subparsers.add_parser(
        "bench", help="measure speed and memory",
        description="Throughput (detect+mask), latency of a 1,000-char prompt, cold start, peak RSS, thread "
                    "settings and time against text length.")
    bench.add_argument("--data", metavar="FILE.jsonl",
                       help="benchmark on these texts joined into documents (default: generated French/English text)")
    bench.add_argument("--json", metavar="OUT", help="write every figure as JSON")
    bench.add_argument("--corpus-chars", type=positive_int, default=300_000, help="size of the generated corpus")
    bench.add_argument("--max-length", type=positive_int, default=1_000_000,
                       help="longest text of the scaling table (default 1,000,000)")
    bench.add_argument("--runs", type=positive_int, default=50, help="latency runs (default 50)")
    bench.add_argument("--no-cold-start", action="store_true", help="skip the cold-start subprocess")
    add_engine_options(bench)
    bench.set_defaults(handler=cmd_bench)


def cmd_eval(args: argparse.Namespace) -> int:
    from ..detectors.backends import format_runtime_summary
    from .bench import model_runtime, run_info
    from .datasets import read_records
    from .evaluate import combine, engine_predict, evaluate, format_errors, format_report, write_predictions

    datasets = [(path, read_records(path)) for path in args.data]  # read all first: fail before the slow part
    engine = engine_from_args(args)
    runtime = model_runtime(engine)  # loads the model: its time is not counted as detection
    print(format_runtime_summary(runtime))
    predict = engine_predict(engine)
    evaluations = [evaluate(records, predict, labels=engine.labels, name=path, batch_size=args.batch_size,
                            record_lang=not args.guess_lang, placeholder=engine.placeholder)
                   for path, records in datasets]
    if len(evaluations) > 1:
        evaluations.append(combine(evaluations))
    for evaluation in evaluations:
        print(format_report(evaluation))
        if args.errors:
            print(format_errors(evaluation, args.errors))
    if args.save_predictions:
        write_predictions(combine(evaluations[:len(datasets)]), args.save_predictions)
    if args.json:
        _write_json(args.json, {**run_info(), "engine": _engine_settings(engine, args), "model": runtime,
                                "evaluations": [e.to_dict() for e in evaluations]})
    return 0


def cmd_bench(args: argparse.Namespace) -> int:
    from .bench import format_bench, run_bench

    engine = engine_from_args(args)
    report = run_bench(engine, _engine_kwargs(engine), data=args.data, corpus_chars=args.corpus_chars,
                       max_length=args.max_length, latency_runs=args.runs, with_cold_start=not args.no_cold_start)
    print(format_bench(report))
    if args.json:
        _write_json(args.json, report)
    return 0


def _engine_kwargs(engine) -> dict:
    """Keyword arguments that rebuild the same engine (for the cold-start subprocess)."""
    return {"labels": sorted(engine.labels), "threshold": engine.threshold, "lang": engine.lang,
            "use_model": engine.use_model, "threads": engine.threads, "recall_bias": engine.recall_bias,
            "backend": engine.backend,
            "placeholder": engine.placeholder, "extra_rules": [str(p) for p in engine.extra_rules],
            "model_dir": str(engine.model_dir)}


def _engine_settings(engine, args: argparse.Namespace) -> dict:
    settings = _engine_kwargs(engine)
    settings["record_lang"] = not getattr(args, "guess_lang", False)
    return settings


def _write_json(path: str, data: dict) -> None:
    try:
        Path(path).write_text(json.dumps(data, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    except OSError as exc:
        raise InputError(f"cannot write {path}: {exc.strerror or exc}") from None

