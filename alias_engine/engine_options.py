"""The command-line options that configure an Engine, shared by every command that detects
(cli.py, evaluation/cli.py and any command added later), so that no command module imports another."""

from __future__ import annotations

import argparse

from .detectors.backends import BACKENDS
from .engine import DEFAULT_MAX_CHARS, Engine
from .errors import InputError
from .labels import LABELS
from .options import finite_float, positive_int, probability
from .resolve import DEFAULT_THRESHOLD


def add_engine_options(parser: argparse.ArgumentParser) -> None:
    """Options that configure the Engine, shared by every command that detects."""
    group = parser.add_argument_group("engine")
    group.add_argument("--lang", default="auto",
                       help="language of the text: auto (default: guessed), or a language folder of the rules (fr, en)")
    group.add_argument("--labels", help=f"comma-separated labels to detect (default: all of {','.join(LABELS)})")
    group.add_argument("--threshold", type=probability, default=DEFAULT_THRESHOLD,
                       help=f"minimum span score (0-1, default {DEFAULT_THRESHOLD})")
    group.add_argument("--rules-only", action="store_true", help="do not use the model, rules only")
    group.add_argument("--model", metavar="DIR",
                       help="model folder (model.onnx, tokenizer.json, labels.json; default: the shipped model)")
    group.add_argument("--recall-bias", type=finite_float, default=0.0,
                       help="model decoding: >0 finds more and longer spans, <0 fewer (default 0)")
    group.add_argument("--threads", type=positive_int, help="model threads (default: the cores this process may use)")
    group.add_argument("--backend", choices=BACKENDS, default="auto",
                       help="what runs the model: auto (default: openvino in bf16 where the CPU has AMX or is an AMD with AVX512-BF16, "
                            "else onnxruntime), onnxruntime or openvino (docs/backends.md)")
    group.add_argument("--placeholder", default="[{label}_{n}]", help="placeholder format with {label} and {n}")
    group.add_argument("--rules", action="append", default=[], metavar="FILE",
                       help="an extra rules file (repeatable): new labels, values, keyword rules, patterns "
                            "(docs/rules.md; example: docs/examples/employee_id.json)")


def engine_from_args(args: argparse.Namespace) -> Engine:
    labels = [name.strip().upper() for name in args.labels.split(",") if name.strip()] if args.labels else None
    try:
        return Engine(labels=labels, threshold=args.threshold, lang=args.lang,
                      use_model=False if args.rules_only else None, threads=args.threads,
                      backend=getattr(args, "backend", "auto"),
                      model_dir=getattr(args, "model", None),
                      recall_bias=args.recall_bias, placeholder=args.placeholder,
                      max_chars=getattr(args, "max_chars", None) or DEFAULT_MAX_CHARS,
                      extra_rules=getattr(args, "rules", None) or ())
    except ValueError as exc:
        raise InputError(str(exc)) from None
