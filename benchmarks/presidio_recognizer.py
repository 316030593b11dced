"""alias-engine inside Presidio's AnalyzerEngine against `alias-engine eval`: same files, same scorer.

Needs the [presidio] extra (docs/presidio.md). The recognizer's results are read back as
spans (entity names mapped to labels by adapters/presidio_entities.py) and scored by
alias_engine.evaluation exactly as `alias-engine eval` scores the engine itself:

    python benchmarks/presidio_recognizer.py ../shared/data/dev/presidio_synth_v2.en.jsonl --backend onnxruntime

Prints both reports, then the strict micro F1 of each and their difference (docs/presidio.md
says it must stay within 0.01).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # run from a checkout without installing

from alias_engine.engine_options import add_engine_options, engine_from_args  # noqa: E402
from alias_engine.evaluation.datasets import read_records  # noqa: E402
from alias_engine.evaluation.evaluate import engine_predict, evaluate, format_report  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("data", help="labelled JSONL file")
    parser.add_argument("--batch-size", type=int, default=32)
    add_engine_options(parser)
    args = parser.parse_args(argv)

    from presidio_analyzer import AnalyzerEngine

    from alias_engine.adapters.presidio import blank_nlp_engine, registry, spans_of

    records = read_records(args.data)
    engine = engine_from_args(args)
    engine.detect("warm-up")
    analyzer = AnalyzerEngine(registry=registry(engine), nlp_engine=blank_nlp_engine(),
                              supported_languages=["en", "fr"])

    def presidio_predict(texts, lang):
        return [spans_of(analyzer.analyze(text, language=lang or "en")) for text in texts]

    t0 = time.perf_counter()
    ours = evaluate(records, engine_predict(engine), labels=engine.labels, name=args.data,
                    batch_size=args.batch_size, placeholder=engine.placeholder)
    t1 = time.perf_counter()
    through = evaluate(records, presidio_predict, labels=engine.labels, name=f"{args.data} [AnalyzerEngine]",
                       batch_size=args.batch_size, placeholder=engine.placeholder)
    t2 = time.perf_counter()
    print(format_report(ours))
    print(format_report(through))
    a, b = ours.summary.micro.f1 or 0.0, through.summary.micro.f1 or 0.0
    print(f"strict micro F1: alias-engine eval {a:.4f}, through AnalyzerEngine {b:.4f}, difference {abs(a - b):.4f}")
    print(f"wall time: alias-engine {t1 - t0:.1f} s, AnalyzerEngine {t2 - t1:.1f} s "
          f"(backend {engine.backend}, use_model {engine.use_model})")
    return 0 if abs(a - b) <= 0.01 else 1


if __name__ == "__main__":
    sys.exit(main())
