"""The bench harness runs on tiny sizes and reports well-formed numbers (no timing assertions)."""

from __future__ import annotations

import json

from alias_engine import Engine
from alias_engine.evaluation.bench import (
    corpus_from_data,
    format_bench,
    generate_text,
    generated_corpus,
    percentile,
    run_bench,
)


def test_generated_text_is_deterministic_and_exact_length():
    assert generate_text(1_000, seed=3) == generate_text(1_000, seed=3)
    assert generate_text(1_000, seed=3) != generate_text(1_000, seed=4)
    assert len(generate_text(12_345)) == 12_345
    text = generate_text(20_000)
    assert "@example.org" in text and any(w in text for w in ("Bonjour", "Merci", "Mon adresse"))
    docs = generated_corpus(5_000)
    assert sum(map(len, docs)) == 5_000 and len(docs) > 1


def test_percentile_nearest_rank():
    values = [float(v) for v in range(1, 101)]
    assert percentile(values, 50) == 50.0
    assert percentile(values, 95) == 95.0
    assert percentile([7.0], 95) == 7.0


def test_corpus_from_data_joins_records(tmp_path):
    path = tmp_path / "d.jsonl"
    path.write_text("".join(json.dumps({"text": f"sentence {i} " * 20, "spans": []}) + "\n" for i in range(50)))
    docs = corpus_from_data(path)
    assert 1 < len(docs) < 50
    assert sum(d.count("sentence 0 ") for d in docs) == 20


def test_bench_runs_and_reports_well_formed_numbers(tmp_path):
    from alias_engine.cli import main

    engine = Engine(use_model=False)
    kwargs = {"use_model": False}
    report = run_bench(engine, kwargs, corpus_chars=3_000, max_length=10_000, latency_runs=3)
    assert report["throughput"]["chars"] == 3_000 and report["throughput"]["seconds"] >= 0
    assert 0 <= report["latency"]["p50_ms"] <= report["latency"]["p95_ms"] <= report["latency"]["max_ms"]
    assert [row["chars"] for row in report["scaling"]] == [1_000, 10_000]
    assert all(row["us_per_char"] >= 0 and row["runs"] >= 1 for row in report["scaling"])
    assert report["scaling"][0]["relative"] == 1.0
    cold = report["cold_start"]
    assert "error" not in cold, cold
    assert cold["total_s"] >= cold["import_s"] >= 0 and cold["peak_rss_mib"] > 0
    assert report["peak_rss_mib"] > 0
    assert report["threads"]["available_cores"] >= 1
    assert "chars/s" in format_bench(report)

    out = tmp_path / "bench.json"
    assert main(["bench", "--rules-only", "--corpus-chars", "2000", "--max-length", "1000", "--runs", "2",
                 "--no-cold-start", "--json", str(out)]) == 0
    figures = json.loads(out.read_text())
    assert figures["cold_start"] is None
    assert [row["chars"] for row in figures["scaling"]] == [1_000]


def _load_presidio_runner():
    import importlib.util
    from pathlib import Path

    path = Path(__file__).resolve().parents[1] / "benchmarks" / "run_presidio.py"
    spec = importlib.util.spec_from_file_location("run_presidio", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_presidio_results_are_mapped_merged_and_scored_without_presidio():
    from types import SimpleNamespace as Result

    from alias_engine.evaluation.datasets import Annotation, Record
    from alias_engine.evaluation.evaluate import evaluate
    from alias_engine.labels import LABELS

    runner = _load_presidio_runner()
    assert set(runner.PRESIDIO_TO_LABEL.values()) <= set(LABELS)

    text = "John Smith, 212-555-0199, born 1990"
    found = [Result(entity_type="PERSON", start=0, end=10, score=0.85),
             Result(entity_type="UK_NHS", start=12, end=24, score=1.0),
             Result(entity_type="PHONE_NUMBER", start=12, end=24, score=0.4),
             Result(entity_type="DATE_TIME", start=31, end=35, score=0.9)]

    class FakeBatchAnalyzer:
        def analyze_iterator(self, texts, language, batch_size):
            assert language == "en"
            return [found for _ in texts]

    record = Record("r", text, "en", (Annotation(0, 10, "PERSON"), Annotation(12, 24, "PHONE")))
    predict = runner.presidio_predict(FakeBatchAnalyzer(), 8, set(LABELS))
    assert [(s.start, s.end, s.label) for s in predict([text], "en")[0]] == [(0, 10, "PERSON"), (12, 24, "IDENTIFIER")]
    peer = evaluate([record], predict, name="peer")
    assert (peer.summary.micro.tp, peer.summary.micro.fp, peer.summary.micro.fn) == (1, 1, 1)
    assert peer.summary.micro.leak_full == 0  # the phone number is masked, under the wrong label
    only_phone = runner.presidio_predict(FakeBatchAnalyzer(), 8, {"PHONE"})
    assert [(s.start, s.end, s.label) for s in only_phone([text], "en")[0]] == [(12, 24, "PHONE")]
    table = runner.side_by_side(peer, peer)
    assert "micro F1 ratio (ours / Presidio): 1.00" in table


def test_bench_and_eval_say_which_backend_and_precision_ran(tmp_path, capsys):
    from tiny_model import build_tiny_model

    from alias_engine.cli import main
    from alias_engine.detectors.backends import cpu_bf16_flags, cpu_vendor, format_runtime_summary
    from alias_engine.evaluation.bench import model_runtime

    rules_only = model_runtime(Engine(use_model=False))
    assert rules_only["backend"] is None and format_runtime_summary(rules_only).startswith("model: none (rules only)")
    model_dir = build_tiny_model(tmp_path / "tiny")
    info = model_runtime(Engine(model_dir=model_dir, backend="onnxruntime"))
    assert info == {"backend": "onnxruntime", "precision": "as stored", "requested": "onnxruntime",
                    "cpu_bf16_flags": list(cpu_bf16_flags()), "cpu_vendor": cpu_vendor()}
    assert format_runtime_summary(info).startswith("model: onnxruntime, as stored (asked: onnxruntime; CPU bf16 flags: ")

    data = tmp_path / "d.jsonl"
    data.write_text(json.dumps({"id": "1", "text": "Zoé lorem", "lang": "fr",
                                "spans": [{"start": 0, "end": 3, "label": "PERSON"}]}) + "\n")
    out = tmp_path / "eval.json"
    assert main(["eval", str(data), "--model", str(model_dir), "--backend", "onnxruntime", "--json", str(out)]) == 0
    assert "model: onnxruntime, as stored (asked: onnxruntime" in capsys.readouterr().out
    assert json.loads(out.read_text())["model"]["backend"] == "onnxruntime"
    bench = tmp_path / "bench.json"
    assert main(["bench", "--model", str(model_dir), "--backend", "onnxruntime", "--corpus-chars", "500",
                 "--max-length", "500", "--runs", "1", "--no-cold-start", "--json", str(bench)]) == 0
    assert "model: onnxruntime, as stored" in capsys.readouterr().out
    assert json.loads(bench.read_text())["engine"]["backend"] == "onnxruntime"
