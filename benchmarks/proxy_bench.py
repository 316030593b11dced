"""Load on `alias-engine serve`: concurrent streamed conversations against the fake upstream.

    python benchmarks/proxy_bench.py --conversations 32 --duration 60

Starts the fake upstream (`alias_engine.server.fake_upstream`) and the proxy as
two processes on 127.0.0.1, then runs N conversations at once from this process:
each turn sends the restored history plus a new user message holding a name, an
e-mail and a phone, streamed, and checks the answer (the fake echoes the masked
prompt, so the restored answer must be the prompt). Phase 1 sends the same load
straight to the fake upstream, phase 2 through the proxy; the difference of their
time to first token is the time the proxy adds. Prints TTFT p50/p99 of both and
the difference, requests/s, errors (a non-200, a broken stream or an answer not
restored exactly) and the proxy's resident memory over the run.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import socket
import statistics
import subprocess
import sys
import time

import httpx

FIRST = ["Camille", "Hugo", "Léa", "Nathan", "Chloé", "Lucas", "Emma", "Louis", "Olivia", "Thomas", "Grace", "Oliver"]
LAST = ["Garnier", "Lemaire", "Fontaine", "Rousseau", "Blanchard", "Mercier", "Pemberton", "Harrington", "Caldwell"]
TURNS = [
    "Bonjour, je m'appelle {name} et mon adresse est {email}. Pouvez-vous m'aider ?",
    "Mon numéro est le {phone}, rappelez-moi demain matin s'il vous plaît.",
    "Hello, {name} here again: please send the summary to {email}.",
    "Mon conseiller connaît déjà {name}, joignable au {phone}.",
]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_ready(url: str, proc: subprocess.Popen, timeout: float = 120) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise SystemExit(f"{url}: the process exited with {proc.returncode}")
        try:
            httpx.get(url, timeout=1)
            return
        except httpx.HTTPError:
            time.sleep(0.2)
    raise SystemExit(f"{url} did not start")


def rss_mib(pid: int) -> float:
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return float("nan")


def person(rng: random.Random) -> dict:
    first, last = rng.choice(FIRST), rng.choice(LAST)
    return {"name": f"{first} {last}", "email": f"{first.lower()}.{last.lower()}@example.org".replace("é", "e"),
            "phone": "06 " + " ".join(f"{rng.randrange(100):02d}" for _ in range(4))}


class Stats:
    def __init__(self) -> None:
        self.ttft: list[float] = []
        self.done = 0
        self.errors = 0
        self.kinds: dict[str, int] = {}

    def error(self, kind: str) -> None:
        self.errors += 1
        self.kinds[kind] = self.kinds.get(kind, 0) + 1


async def turn(client: httpx.AsyncClient, base: str, messages: list[dict], stats: Stats) -> str | None:
    started = time.perf_counter()
    first = None
    text = ""
    try:
        async with client.stream("POST", base + "/v1/chat/completions", json={
                "model": "fake", "messages": messages, "stream": True}) as resp:
            if resp.status_code != 200:
                await resp.aread()
                stats.error(f"status {resp.status_code}")
                return None
            buf = b""
            async for chunk in resp.aiter_bytes():
                buf += chunk
                *events, buf = buf.split(b"\n\n")
                for event in events:
                    data = event.decode().removeprefix("data: ")
                    if data == "[DONE]":
                        continue
                    delta = json.loads(data)["choices"][0]["delta"].get("content") or ""
                    if delta and first is None:
                        first = time.perf_counter() - started
                    text += delta
    except (httpx.HTTPError, ValueError, KeyError) as exc:
        stats.error(type(exc).__name__)
        return None
    if text != "Echo: " + messages[-1]["content"]:
        stats.error("answer not restored exactly")
        return None
    stats.ttft.append(first if first is not None else time.perf_counter() - started)
    stats.done += 1
    return text


async def conversation(client, base: str, seed: int, stop_at: float, stats: Stats, max_turns: int) -> None:
    rng = random.Random(seed)
    while time.monotonic() < stop_at:
        values, messages = person(rng), []
        for template in rng.sample(TURNS, k=min(max_turns, len(TURNS))):
            if time.monotonic() >= stop_at:
                return
            messages.append({"role": "user", "content": template.format(**values)})
            answer = await turn(client, base, messages, stats)
            if answer is None:
                break
            messages.append({"role": "assistant", "content": answer})


async def load(base: str, n: int, duration: float, max_turns: int) -> tuple[Stats, float]:
    stats = Stats()
    limits = httpx.Limits(max_connections=n + 4, max_keepalive_connections=n + 4)
    async with httpx.AsyncClient(timeout=120, limits=limits) as client:
        started = time.monotonic()
        await asyncio.gather(*(conversation(client, base, seed, started + duration, stats, max_turns)
                               for seed in range(n)))
        return stats, time.monotonic() - started


def pct(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    return statistics.quantiles(values, n=100, method="inclusive")[q - 1] if len(values) > 1 else values[0]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--conversations", type=int, default=32)
    parser.add_argument("--duration", type=float, default=60.0, help="seconds of load through the proxy")
    parser.add_argument("--baseline", type=float, default=15.0, help="seconds of load straight to the fake upstream")
    parser.add_argument("--turns", type=int, default=4, help="turns per conversation before a new one starts")
    parser.add_argument("--delay", type=float, default=0.005, help="fake upstream: seconds between stream writes")
    parser.add_argument("--rules-only", action="store_true", help="run the proxy without the model")
    parser.add_argument("--batch-texts", type=int, default=32, help="the proxy's --batch-texts")
    args = parser.parse_args()

    fake_port, proxy_port = free_port(), free_port()
    fake = subprocess.Popen([sys.executable, "-m", "alias_engine.server.fake_upstream", "--port", str(fake_port),
                             "--delay", str(args.delay), "--no-record"])
    cmd = [sys.executable, "-m", "alias_engine.cli", "serve", "--upstream", f"http://127.0.0.1:{fake_port}",
           "--port", str(proxy_port), "--log-level", "warning", "--batch-texts", str(args.batch_texts)]
    cmd += ["--rules-only"] if args.rules_only else []
    proxy = subprocess.Popen(cmd)
    try:
        wait_ready(f"http://127.0.0.1:{fake_port}/v1/models", fake)
        wait_ready(f"http://127.0.0.1:{proxy_port}/healthz", proxy)
        direct, direct_s = asyncio.run(load(f"http://127.0.0.1:{fake_port}", args.conversations, args.baseline,
                                            args.turns))
        rss: list[float] = [rss_mib(proxy.pid)]

        async def sample() -> None:
            while True:
                await asyncio.sleep(1)
                rss.append(rss_mib(proxy.pid))

        async def run():
            sampler = asyncio.create_task(sample())
            try:
                return await load(f"http://127.0.0.1:{proxy_port}", args.conversations, args.duration, args.turns)
            finally:
                sampler.cancel()

        through, through_s = asyncio.run(run())
        rss.append(rss_mib(proxy.pid))
    finally:
        for proc in (proxy, fake):
            proc.terminate()
            proc.wait(10)
    quarter = rss[max(1, len(rss) // 4)]
    result = {
        "conversations": args.conversations, "duration_s": round(through_s, 1), "cores": os.cpu_count(),
        "model": not args.rules_only, "batch_texts": args.batch_texts,
        "direct": {"requests": direct.done, "req_per_s": round(direct.done / direct_s, 1),
                   "ttft_p50_ms": round(pct(direct.ttft, 50) * 1000, 1),
                   "ttft_p99_ms": round(pct(direct.ttft, 99) * 1000, 1), "errors": direct.errors},
        "proxy": {"requests": through.done, "req_per_s": round(through.done / through_s, 1),
                  "ttft_p50_ms": round(pct(through.ttft, 50) * 1000, 1),
                  "ttft_p99_ms": round(pct(through.ttft, 99) * 1000, 1), "errors": through.errors,
                  "error_kinds": through.kinds},
        "added_ttft_p50_ms": round((pct(through.ttft, 50) - pct(direct.ttft, 50)) * 1000, 1),
        "added_ttft_p99_ms": round((pct(through.ttft, 99) - pct(direct.ttft, 99)) * 1000, 1),
        "rss_mib": {"start": round(rss[0], 1), "after_first_quarter": round(quarter, 1), "end": round(rss[-1], 1),
                    "max": round(max(rss), 1)},
    }
    print(json.dumps(result, indent=2))
    return 1 if through.errors or direct.errors else 0


if __name__ == "__main__":
    sys.exit(main())
