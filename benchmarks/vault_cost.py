"""What a vault key derivation costs: scrypt time at log2(N) = 15, 16, 17 (r=8, p=1), one
`alias-engine mask --session` run (load, then save: one derivation since `VaultKeys`, two
before), and the vault's share of a proxied request with `X-Alias-Session` and `--vault-dir`.

    python benchmarks/vault_cost.py [--runs 5] [--only scrypt|cli|proxy]

Prints the median of `--runs` derivations for each cost; the wall time of a CLI run on a
short text (rules only) with an existing vault, at the default cost and at 2^10; and, in
this process, what the proxy's session store does for one masked request (`hold`: load
the vault if needed, mask, `save`) at the default cost, for a conversation's first request,
its next ones, and its first after a restart (a new store over the same folder). Two arms
alternate, conversation by conversation: "bare key" passes the key bytes to load and save,
as the proxy did before (a fresh salt and a derivation on every load and save: that code
path is unchanged), "VaultKeys" is the proxy now. Rules-only detection on a short text,
so that the figures are the vault's cost; a request's own detection comes on top.
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

from alias_engine import Engine
from alias_engine.options import positive_int
from alias_engine.pseudonymise import vault
from alias_engine.server.sessions import SessionStore

TURNS = ("Bonjour, je suis joignable au 06 12 34 56 78 ou à jean.dupont@example.fr.",
         "Mon IBAN est FR76 3000 6000 0112 3456 7890 189, merci.",
         "Please call me back on +44 20 7946 0958 tomorrow.",
         "Et mon autre adresse : j.dupont@example.org.")


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
        env = {**os.environ, "ALIAS_ENGINE_KEY": "correct horse battery staple"}
        cli = ("import sys; from alias_engine.pseudonymise import vault; "  # the cost is lowered by code only
               f"vault.SCRYPT_LOG2_N = {log2_n}; from alias_engine.cli import main; sys.exit(main(sys.argv[1:]))")
        argv = [sys.executable, "-c", cli, "mask", "--rules-only", "--session",
                str(Path(tmp) / "s.vault"), str(text)]
        subprocess.run(argv, env=env, check=True, capture_output=True)  # creates the vault
        times = []
        for _ in range(runs):
            start = time.perf_counter()
            subprocess.run(argv, env=env, check=True, capture_output=True)
            times.append(time.perf_counter() - start)
    return statistics.median(times)


class _Counted:
    """Counts the scrypt derivations made while it is installed."""

    def __init__(self) -> None:
        self.count = 0
        self._real = vault._derive

    def __call__(self, *args):
        self.count += 1
        return self._real(*args)


def _proxy_request(store: SessionStore, conv_id: str, text: str, counter: _Counted) -> tuple[float, int]:
    """One masked request as the proxy runs it: (seconds, derivations)."""
    before, start = counter.count, time.perf_counter()
    conv = store.conversation(conv_id)
    with store.hold(conv) as session:
        session.mask(text)
        store.save(conv)
    return time.perf_counter() - start, counter.count - before


def proxy_request_costs(runs: int) -> dict[str, dict[str, list[tuple[float, int]]]]:
    """{arm: {"first": [...], "next": [...], "after restart": [...]}} of (seconds, derivations)."""
    detector = Engine(use_model=False)
    for text in TURNS:
        detector.detect(text)  # warm: the rules compile on first use
    key = b"correct horse battery staple"
    counter = _Counted()
    vault._derive = counter
    results: dict[str, dict[str, list[tuple[float, int]]]] = {}
    try:
        with tempfile.TemporaryDirectory() as tmp:
            def store(arm: str) -> SessionStore:
                s = SessionStore(detector, "placeholder", Path(tmp), key)
                if arm == "bare key":
                    s.vault_keys = s.vault_key  # what the proxy passed to load and save before
                return s

            for run in range(runs):
                for arm in ("bare key", "VaultKeys"):
                    rows = results.setdefault(arm, {"first": [], "next": [], "after restart": []})
                    conv_id, live = f"{arm.replace(' ', '-')}-{run}", store(arm)
                    rows["first"].append(_proxy_request(live, conv_id, TURNS[0], counter))
                    for text in TURNS[1:]:
                        rows["next"].append(_proxy_request(live, conv_id, text, counter))
                    rows["after restart"].append(_proxy_request(store(arm), conv_id, TURNS[0], counter))
    finally:
        vault._derive = counter._real
    return results


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=positive_int, default=5)
    parser.add_argument("--only", choices=("scrypt", "cli", "proxy"))
    args = parser.parse_args()
    if args.only in (None, "scrypt"):
        for log2_n in (15, 16, 17):
            memory = 128 * vault.SCRYPT_R * 2 ** log2_n // 2 ** 20
            print(f"scrypt N=2^{log2_n} r=8 p=1 ({memory} MiB): {derive_seconds(log2_n, args.runs):.3f} s a derivation")
    if args.only in (None, "cli"):
        for log2_n in (vault.SCRYPT_LOG2_N, 10):
            print(f"alias-engine mask --session (rules only, vault at 2^{log2_n}): {cli_seconds(log2_n, args.runs):.2f} s")
    if args.only in (None, "proxy"):
        print(f"proxy, one masked request with a vault at 2^{vault.scrypt_log2_n()} (median s, derivations a request):")
        results = proxy_request_costs(args.runs)
        for kind in ("first", "next", "after restart"):
            before, after = (results[arm][kind] for arm in ("bare key", "VaultKeys"))
            b, a = (statistics.median(t for t, _ in rows) for rows in (before, after))
            db, da = (sum(d for _, d in rows) / len(rows) for rows in (before, after))
            print(f"  {kind:13}  bare key {b:.3f} s ({db:g})  VaultKeys {a:.3f} s ({da:g})  "
                  f"ratio {a / b:.3f}  (n={len(before)})")


if __name__ == "__main__":
    main()
