"""Markdown tables for docs/benchmarks.md from the JSON of run_presidio.py and `alias-engine bench`.

    python benchmarks/render_tables.py --compare build/presidio-vs-alias.json --bench build/bench.json
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path


def _pct(value: float | None) -> str:
    return "–" if value is None else f"{value * 100:.1f}"


def _ratio(a: float | None, b: float | None) -> str:
    return "–" if a is None or not b else f"{a / b:.2f}"


def compare_tables(figures: dict) -> str:
    out = []
    ours_all = figures["alias_engine"]["evaluations"]
    peers = {e["name"].removesuffix(" [presidio]"): e for e in figures["presidio"]["evaluations"]}
    for ours in ours_all:
        peer = peers.get(ours["name"])
        out.append(f"#### {Path(ours['name']).name} ({ours['records']:,} records, {ours['chars']:,} chars)\n")
        out.append("| label | gold | P | R | F1 | overlap F1 | leak | leak~ | Presidio P | R | F1 | overlap F1 | leak |")
        out.append("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
        labels = list(dict.fromkeys(list(ours["per_label"]) + list(peer["per_label"] if peer else [])))
        rows = [(label, ours["per_label"].get(label), peer["per_label"].get(label) if peer else None)
                for label in labels]
        rows.append(("**micro**", ours["micro"], peer["micro"] if peer else None))
        for name, a, b in rows:
            gold = (a or b)["gold"]
            left = " | ".join(_pct(a[k]) if a else "–" for k in ("precision", "recall", "f1", "relaxed_f1",
                                                                  "full_leak_rate", "partial_leak_rate"))
            right = " | ".join(_pct(b[k]) if b else "–" for k in ("precision", "recall", "f1", "relaxed_f1",
                                                                   "full_leak_rate"))
            out.append(f"| {name} | {gold} | {left} | {right} |")
        if peer:
            out.append("")
            out.append(f"Detection + masking: alias-engine {ours['chars_per_s']:,} chars/s, Presidio "
                       f"{peer['chars_per_s']:,} chars/s: **{_ratio(ours['chars_per_s'], peer['chars_per_s'])}×**. "
                       f"Micro F1 ratio (ours / Presidio): **{_ratio(ours['micro']['f1'], peer['micro']['f1'])}** "
                       f"(overlap F1: {_ratio(ours['micro']['relaxed_f1'], peer['micro']['relaxed_f1'])}).")
        extras = []
        if ours.get("ignored_gold"):
            extras.append("gold labels treated as ignored: " + ", ".join(f"{k} {v}" for k, v in ours["ignored_gold"].items()))
        if ours.get("negative_records"):
            extras.append(f"negative records with a detection: alias-engine {ours['negative_records_with_detection']}"
                          f"/{ours['negative_records']}" + (f", Presidio {peer['negative_records_with_detection']}"
                                                           f"/{peer['negative_records']}" if peer else ""))
        if ours.get("by_source"):
            extras.append("alias-engine predictions by source: " + ", ".join(
                f"{s} {c['tp'] + c['fp']} (P {_pct(c['precision'])})" for s, c in ours["by_source"].items()))
        if extras:
            out.append("")
            out += [f"- {e}" for e in extras]
        out.append("")
    return "\n".join(out)


def bench_tables(report: dict) -> str:
    t, lat, cold = report["throughput"], report["latency"], report["cold_start"]
    out = ["| figure | value |", "|---|---|",
           f"| throughput (detect+mask) | {t['chars_per_s']:,} chars/s ({t['chars_per_cpu_s']:,} per CPU-second), "
           f"{t['documents']} documents, {t['chars']:,} chars |",
           f"| latency, {lat['chars']:,}-char prompt | p50 {lat['p50_ms']:.1f} ms, p95 {lat['p95_ms']:.1f} ms "
           f"({lat['runs']} runs) |"]
    if cold and "error" not in cold:
        out.append(f"| cold start (fresh process) | {cold['total_s']:.2f} s: import {cold['import_s']:.2f} s, "
                   f"Engine() {cold['engine_s']:.2f} s, first call {cold['first_call_s']:.3f} s; process wall "
                   f"{cold['process_wall_s']:.2f} s; peak RSS {cold['peak_rss_mib']:.0f} MiB |")
    out.append(f"| peak RSS (whole bench process) | {report['peak_rss_mib']:.0f} MiB |")
    out.append("| threads | " + ", ".join(f"{k}={v}" for k, v in report["threads"].items()) + " |")
    out += ["", "| chars | runs | seconds (best) | µs/char | CPU µs/char | relative |", "|---:|---:|---:|---:|---:|---:|"]
    out += [f"| {r['chars']:,} | {r['runs']} | {r['seconds']:.4f} | {r['us_per_char']:.2f} | {r['cpu_us_per_char']:.2f} "
            f"| {r['relative']:.2f} |" for r in report["scaling"]]
    return "\n".join(out)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--compare", help="JSON written by benchmarks/run_presidio.py --json")
    parser.add_argument("--bench", help="JSON written by alias-engine bench --json")
    args = parser.parse_args(argv)
    if args.compare:
        figures = json.loads(Path(args.compare).read_text(encoding="utf-8"))
        print(f"Measured {figures['date']} on {figures['cpu']}, {figures['available_cores']} cores, "
              f"Python {figures['python']}; alias-engine {figures['alias_engine'].get('load_s')} s to load, "
              f"Presidio {figures['presidio']['load_s']} s.\n")
        print(compare_tables(figures))
    if args.bench:
        print(bench_tables(json.loads(Path(args.bench).read_text(encoding="utf-8"))))
    return 0


if __name__ == "__main__":
    sys.exit(main())
