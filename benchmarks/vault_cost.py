"""What a vault key derivation costs: scrypt time at log2(N) = 15, 16, 17 (r=8, p=1), and one
`alias-engine mask --session` run, which derives twice (load, then save).

    python benchmarks/vault_cost.py [--runs 5]

Prints the median of `--runs` derivations for each cost and the wall time of a CLI run on a
short text (rules only) with an existing vault, at the default cost and at 2^10.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from alias_engine.options import positive_int
from alias_engine.pseudonymise import vault


def derive_seconds(log2_n: int, runs: int) -> float:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        vault._derive(b"correct horse battery staple", os.urandom(16), log2_n, vault.SCRYPT_R, vault.SCRYPT_P)
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def cli_seconds(log2_n: int, runs: int) -> float:
    with tempfile.TemporaryDirectory() as tmp:
        text = Path(tmp) / "t.txt"
        text.write_text("Écrire à jean.dupont@example.fr, tél 06 12 34 56 78.", encoding="utf-8")
        env = {**os.environ, "ALIAS_ENGINE_KEY": "correct horse battery staple",
               vault.SCRYPT_ENV: str(log2_n)}
        argv = [sys.executable, "-m", "alias_engine.cli", "mask", "--rules-only", "--session",
                str(Path(tmp) / "s.vault"), str(text)]
        subprocess.run(argv, env=env, check=True, capture_output=True)  # creates the vault
        times = []
        for _ in range(runs):
            start = time.perf_counter()
            subprocess.run(argv, env=env, check=True, capture_output=True)
            times.append(time.perf_counter() - start)
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=positive_int, default=5)
    args = parser.parse_args()
    for log2_n in (15, 16, 17):
        memory = 128 * vault.SCRYPT_R * 2 ** log2_n // 2 ** 20
        print(f"scrypt N=2^{log2_n} r=8 p=1 ({memory} MiB): {derive_seconds(log2_n, args.runs):.3f} s a derivation")
    for log2_n in (vault.SCRYPT_LOG2_N, 10):
        print(f"alias-engine mask --session (rules only, vault at 2^{log2_n}): {cli_seconds(log2_n, args.runs):.2f} s")


if __name__ == "__main__":
    main()
