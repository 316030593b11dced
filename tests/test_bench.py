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
