"""Speed and memory of the engine: throughput, latency, cold start, peak RSS, linear scaling.

Every figure is end to end: `Engine.mask` (detection, merging and masking).
The default corpus is generated here, deterministically, so the benchmark runs
on a fresh install; `data` points it at a JSONL evaluation set instead.
"""

from __future__ import annotations

import json
import math
import os
import platform
import random
import resource
import subprocess
import sys
import time
from collections.abc import Sequence
from datetime import datetime, timezone
from pathlib import Path

from stdnum import iban, luhn
from stdnum.fr import nir

from ..detectors.backends import available_cores, format_runtime_summary, runtime_summary
from ..errors import InputError
from .datasets import read_records

SCALING_LENGTHS = (1_000, 10_000, 100_000, 1_000_000)
DOCUMENT_SIZES = (600, 2_000, 6_000, 20_000)  # a prompt, an e-mail, a letter, a report
THREAD_VARIABLES = ("OMP_NUM_THREADS", "MKL_NUM_THREADS", "OPENBLAS_NUM_THREADS", "ORT_NUM_THREADS")

_FIRST = ("Jean", "Marie", "Camille", "Lucas", "Chloé", "Hugo", "Emma", "Oliver", "Sarah", "James", "Amélie", "Noah")
_LAST = ("Dupont", "Martin", "Lefèvre", "Moreau", "Garnier", "Smith", "Johnson", "Brown", "O'Neill", "Le Gall")
_STREETS_FR = ("rue des Lilas", "avenue Victor Hugo", "boulevard Voltaire", "place de la République")
_STREETS_EN = ("Baker Street", "Maple Avenue", "High Street", "Elm Road")
_CITIES_FR = ("75011 Paris", "69003 Lyon", "13001 Marseille", "31000 Toulouse")
_CITIES_EN = ("London NW1 6XE", "Springfield, IL 62704", "Manchester M1 2AB", "Austin, TX 78701")
_FR = (
    "Bonjour, je m'appelle {name} et vous pouvez me joindre au {phone_fr}.",
    "Merci de verser le remboursement sur mon compte IBAN {iban}.",
    "Pour toute question, écrivez à {email} avant vendredi.",
    "Le dossier n° {dossier} concerne Mme {name}, née le {date_fr}.",
    "Mon adresse a changé : {address_fr}.",
    "Mon numéro de sécurité sociale est {nir}.",
    "La réunion de suivi est prévue jeudi à 14 h en salle B, avec l'équipe projet.",
    "Le contrat a été renouvelé pour une durée de trois ans sans modification des conditions.",
    "Le serveur {ip} ne répond plus depuis la mise à jour de ce matin.",
    "Je vous transmets le devis signé ainsi que les pièces justificatives demandées.",
)
_EN = (
    "Hi, this is {name}; please call me back on {phone_en} when you can.",
    "My card number is {card} and it expires next year.",
    "Send the signed form to {email} by Friday.",
    "Patient {name}, born on {date_en}, was admitted under record {dossier}.",
    "Please update my address to {address_en}.",
    "The quarterly report shows steady growth across all regions and product lines.",
    "Her profile is at https://social.example.com/u/{handle} if you need it.",
    "We will review the proposal at the next board meeting and get back to you.",
    "The login for the staging server is {handle} and the password is {secret}.",
    "Thanks again for your help with the migration last week.",
)


def _digits(rng: random.Random, n: int) -> str:
    return "".join(str(rng.randrange(10)) for _ in range(n))


def _values(rng: random.Random) -> dict[str, str]:
    first, last = rng.choice(_FIRST), rng.choice(_LAST)
    bban = _digits(rng, 23)
    iban_value = "FR" + iban.calc_check_digits("FR00" + bban) + bban
    card = "4970" + _digits(rng, 11)
    card += luhn.calc_check_digit(card)
    nir_body = f"{rng.choice('12')}{rng.randrange(40, 99)}{rng.randrange(1, 13):02d}75{_digits(rng, 6)}"
    handle = f"{first.lower()[:1]}{last.lower().replace(' ', '').replace(chr(39), '')}{rng.randrange(100)}"
    return {
        "name": f"{first} {last}",
        "phone_fr": f"0{rng.randrange(1, 8)} " + " ".join(_digits(rng, 2) for _ in range(4)),
        "phone_en": f"+44 20 {_digits(rng, 4)} {_digits(rng, 4)}",
        "iban": " ".join(iban_value[i:i + 4] for i in range(0, len(iban_value), 4)),
        "email": f"{handle}@example.org",
        "dossier": f"{rng.choice('ABCDEFGH')}{_digits(rng, 7)}",
        "date_fr": f"{rng.randrange(1, 29)} mars {rng.randrange(1950, 2005)}",
        "date_en": f"March {rng.randrange(1, 29)}, {rng.randrange(1950, 2005)}",
        "address_fr": f"{rng.randrange(1, 120)} {rng.choice(_STREETS_FR)}, {rng.choice(_CITIES_FR)}",
        "address_en": f"{rng.randrange(1, 120)} {rng.choice(_STREETS_EN)}, {rng.choice(_CITIES_EN)}",
        "nir": f"{nir_body} {nir.calc_check_digits(nir_body)}",
        "card": " ".join(card[i:i + 4] for i in range(0, 16, 4)),
        "ip": f"10.{rng.randrange(256)}.{rng.randrange(256)}.{rng.randrange(1, 255)}",
        "handle": handle,
        "secret": "".join(rng.choice("abcdefghijkmnpqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789") for _ in range(16)),
    }


def generate_text(length: int, seed: int = 0) -> str:
    """Exactly `length` characters of French and English paragraphs with personal data."""
    rng = random.Random(seed)
    parts: list[str] = []
    size = 0
    while size < length:
        templates = _FR if rng.random() < 0.5 else _EN
        paragraph = " ".join(rng.choice(templates).format(**_values(rng)) for _ in range(rng.randrange(2, 6)))
        parts.append(paragraph)
        size += len(paragraph) + 2
    return "\n\n".join(parts)[:length]


def generated_corpus(total_chars: int, seed: int = 0) -> list[str]:
    """Documents of realistic sizes (DOCUMENT_SIZES in turn) adding up to about `total_chars`."""
    docs: list[str] = []
    size = 0
    while size < total_chars:
        length = min(DOCUMENT_SIZES[len(docs) % len(DOCUMENT_SIZES)], total_chars - size)
        docs.append(generate_text(length, seed + len(docs)))
        size += length
    return docs


def corpus_from_data(path: str | Path) -> list[str]:
    """The texts of a JSONL set, joined in order into documents of DOCUMENT_SIZES in turn."""
    docs: list[str] = []
    current: list[str] = []
    size = 0
    for record in read_records(path):
        current.append(record.text)
        size += len(record.text) + 2
        if size >= DOCUMENT_SIZES[len(docs) % len(DOCUMENT_SIZES)]:
            docs.append("\n\n".join(current))
            current, size = [], 0
    if current:
        docs.append("\n\n".join(current))
    if not docs:
        raise InputError(f"{path}: no records to benchmark")
    return docs


def percentile(values: Sequence[float], q: float) -> float:
    """Nearest-rank percentile, `q` in (0, 100]."""
    ordered = sorted(values)
    return ordered[max(0, math.ceil(q / 100 * len(ordered)) - 1)]


def cpu_model() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()




def peak_rss_mib(who: int = resource.RUSAGE_SELF) -> float:
    peak = resource.getrusage(who).ru_maxrss
    return peak / 1024 / 1024 if sys.platform == "darwin" else peak / 1024  # bytes on macOS, KiB on Linux


def throughput(engine, docs: Sequence[str]) -> dict:
    t0, c0 = time.perf_counter(), time.process_time()
    for doc in docs:
        engine.mask(doc)
    seconds, cpu = time.perf_counter() - t0, time.process_time() - c0
    chars = sum(len(d) for d in docs)
    return {"documents": len(docs), "chars": chars, "seconds": round(seconds, 4), "cpu_seconds": round(cpu, 4),
            "chars_per_s": round(chars / seconds) if seconds > 0 else None,
            "chars_per_cpu_s": round(chars / cpu) if cpu > 0 else None}


def latency(engine, runs: int, length: int = 1_000) -> dict:
    prompts = [generate_text(length, seed=10_000 + i) for i in range(runs)]
    engine.mask(prompts[0])  # warm-up: first-call costs belong to cold start
    times = []
    for prompt in prompts:
        t0 = time.perf_counter()
        engine.mask(prompt)
        times.append(time.perf_counter() - t0)
    return {"chars": length, "runs": runs, "p50_ms": round(percentile(times, 50) * 1000, 3),
            "p95_ms": round(percentile(times, 95) * 1000, 3), "max_ms": round(max(times) * 1000, 3)}


def scaling(engine, max_length: int, budget_chars: int = 100_000) -> list[dict]:
    """Best-of-n wall and CPU time of `mask` at each length.

    `relative` is the CPU cost per char over the first row's: 1.0 all the way
    down means linear. CPU time rather than wall time, so that other processes
    on a shared machine do not bend the curve.
    """
    rows: list[dict] = []
    for length in [n for n in SCALING_LENGTHS if n <= max_length] or [max_length]:
        text = generate_text(length, seed=length)
        runs = max(1, min(10, budget_chars // length))
        best, best_cpu = math.inf, math.inf
        for _ in range(runs):
            t0, c0 = time.perf_counter(), time.process_time()
            engine.mask(text)
            best = min(best, time.perf_counter() - t0)
            best_cpu = min(best_cpu, time.process_time() - c0)
        rows.append({"chars": length, "runs": runs, "seconds": round(best, 6), "cpu_seconds": round(best_cpu, 6),
                     "us_per_char": round(best / length * 1e6, 4), "cpu_us_per_char": round(best_cpu / length * 1e6, 4)})
    base = rows[0]["cpu_us_per_char"] or 1e-9
    for row in rows:
        row["relative"] = round(row["cpu_us_per_char"] / base, 2)
    return rows


_COLD_START = """
import json, resource, sys, time
t0 = time.perf_counter()
from alias_engine import Engine
t1 = time.perf_counter()
engine = Engine(**json.loads(sys.argv[1]))
t2 = time.perf_counter()
engine.mask(sys.argv[2])
t3 = time.perf_counter()
print(json.dumps({"import_s": t1 - t0, "engine_s": t2 - t1, "first_call_s": t3 - t2, "total_s": t3 - t0,
                  "peak_rss_kib": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss}))
"""


def cold_start(engine_kwargs: dict) -> dict:
    """Import, engine construction and one 1,000-char call in a fresh interpreter."""
    package_root = str(Path(__file__).resolve().parents[2])
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(p for p in (package_root, env.get("PYTHONPATH")) if p)
    t0 = time.perf_counter()
    proc = subprocess.run([sys.executable, "-c", _COLD_START, json.dumps(engine_kwargs), generate_text(1_000, 7)],
                          capture_output=True, text=True, env=env, timeout=600)
    wall = time.perf_counter() - t0
    if proc.returncode != 0:
        last = (proc.stderr.strip().splitlines() or ["no output"])[-1]
        return {"error": f"cold start failed: {last}"}
    figures = json.loads(proc.stdout.strip().splitlines()[-1])
    out = {k: round(v, 4) for k, v in figures.items() if k.endswith("_s")}
    out["process_wall_s"] = round(wall, 4)
    kib = figures["peak_rss_kib"]
    out["peak_rss_mib"] = round(kib / 1024 / 1024 if sys.platform == "darwin" else kib / 1024, 1)
    return out


def run_info() -> dict:
    """When and where a measurement was taken."""
    from .. import __version__

    return {"date": datetime.now(timezone.utc).strftime("%Y-%m-%d %H:%M UTC"), "alias_engine": __version__,
            "cpu": cpu_model(), "available_cores": available_cores(), "python": platform.python_version()}


def model_runtime(engine) -> dict:
    """Which backend runs the engine's model and in what precision (loads the model)."""
    return runtime_summary(engine.model.runtime if engine.model is not None else None, engine.backend)


def thread_settings(engine) -> dict:
    backend = engine.model.runtime.name if engine.model is not None else None
    settings = {"engine_threads": engine.threads, "use_model": engine.use_model,
                "cpu_count": os.cpu_count(), "available_cores": available_cores(),
                "model_intra_op_threads": engine.threads or available_cores(),
                "model_calls_at_once": engine.model.runtime.calls_at_once if backend else None,
                "model_thread_spinning": "off" if backend == "onnxruntime" else "the backend's default"}
    settings.update({name: os.environ[name] for name in THREAD_VARIABLES if name in os.environ})
    return settings


def run_bench(engine, engine_kwargs: dict, *, data: str | Path | None = None, corpus_chars: int = 300_000,
              max_length: int = 1_000_000, latency_runs: int = 50, with_cold_start: bool = True) -> dict:
    """Every figure of `alias-engine bench` as a dict (see docs/benchmarks.md)."""
    if max_length < 1 or corpus_chars < 1 or latency_runs < 1:
        raise InputError("--max-length, --corpus-chars and --runs must be positive")
    docs = corpus_from_data(data) if data else generated_corpus(corpus_chars)
    report: dict = {
        **run_info(),
        "engine": {k: v for k, v in engine_kwargs.items()},
        "model": model_runtime(engine),
        "threads": thread_settings(engine),
        "corpus": str(data) if data else f"generated ({corpus_chars:,} chars, seed 0)",
    }
    report["cold_start"] = cold_start(engine_kwargs) if with_cold_start else None
    report["throughput"] = throughput(engine, docs)
    report["latency"] = latency(engine, latency_runs)
    report["scaling"] = scaling(engine, max_length)
    report["peak_rss_mib"] = round(peak_rss_mib(), 1)
    return report


def _num(value: float | None) -> str:
    return "-" if value is None else f"{value:,.0f}"


def format_bench(report: dict) -> str:
    t, lat, cold = report["throughput"], report["latency"], report["cold_start"]
    threads = ", ".join(f"{k}={v}" for k, v in report["threads"].items())
    lines = [
        f"== alias-engine bench, {report['date']}, {report['cpu']} ({report['threads']['available_cores']} cores "
        f"available), Python {report['python']}",
        f"engine: {report['engine']}",
        format_runtime_summary(report["model"]),
        f"threads: {threads}",
        f"throughput (detect+mask): {_num(t['chars_per_s'])} chars/s ({_num(t['chars_per_cpu_s'])} chars per CPU-second) "
        f"over {t['documents']} documents, {t['chars']:,} chars, {t['seconds']:.2f} s  [{report['corpus']}]",
        f"latency, {lat['chars']:,}-char prompt ({lat['runs']} runs): p50 {lat['p50_ms']:.2f} ms, "
        f"p95 {lat['p95_ms']:.2f} ms, max {lat['max_ms']:.2f} ms",
    ]
    if cold is None:
        lines.append("cold start: skipped")
    elif "error" in cold:
        lines.append(f"cold start: {cold['error']}")
    else:
        lines.append(f"cold start (fresh process): import {cold['import_s']:.2f} s + engine {cold['engine_s']:.2f} s "
                     f"+ first call {cold['first_call_s']:.3f} s = {cold['total_s']:.2f} s "
                     f"(process wall {cold['process_wall_s']:.2f} s, peak RSS {cold['peak_rss_mib']:.0f} MiB)")
    lines.append(f"peak RSS of this process: {report['peak_rss_mib']:.0f} MiB")
    lines.append(f"{'chars':>10} {'runs':>5} {'seconds':>10} {'us/char':>9} {'cpu us/char':>12} {'relative':>9}")
    lines += [f"{r['chars']:>10,} {r['runs']:>5} {r['seconds']:>10.4f} {r['us_per_char']:>9.3f} "
              f"{r['cpu_us_per_char']:>12.3f} {r['relative']:>9.2f}" for r in report["scaling"]]
    lines.append("(best of `runs`; relative = CPU cost per char over the first row's: flat means linear)")
    return "\n".join(lines)
