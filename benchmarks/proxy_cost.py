"""How the proxy's cost grows with a request: N messages, each with a new name and e-mail.

    python benchmarks/proxy_cost.py 400 1600 [--rules-only] [--rounds 2]

Starts the fake upstream and the proxy in this process (the shipped model unless
--rules-only) and times one POST /v1/chat/completions of N messages, the sizes
alternating over the rounds. Linear cost means 1,600 messages cost 4x 400; at most
6x is accepted. Prints seconds per size and the ratios to
the smallest size; fails if a value is found in clear upstream.
"""

from __future__ import annotations

import argparse
import json
import statistics
import time

import httpx

from alias_engine import Engine
from alias_engine.server import ServerConfig, create_app
from alias_engine.server.fake_upstream import FakeUpstream, ServerThread

SYLLABLES = ["ka", "to", "mi", "ra", "bel", "du", "ron", "sa", "vi", "lo", "pé", "gar"]
FIRST = ["Camille", "Hugo", "Léa", "Nathan", "Chloé", "Lucas", "Emma", "Louis", "Olivia", "Thomas"]


def surname(i: int) -> str:
    word = ""
    for _ in range(4):
        word += SYLLABLES[i % len(SYLLABLES)]
        i //= len(SYLLABLES)
    return word.capitalize()


def messages(n: int, offset: int = 0) -> list[dict]:
    """n messages, each with a name and an e-mail of its own (from `offset` on: no two requests
    share a text, so the proxy's cache of detections never answers)."""
    return [{"role": "user" if i % 2 == 0 else "assistant",
             "content": f"Bonjour, je suis {FIRST[i % 10]} {surname(i)}, écrivez-moi à "
                        f"{FIRST[i % 10].lower()}.{surname(i).lower()}@example.org."}
            for i in range(offset, offset + n)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("sizes", type=int, nargs="+")
    parser.add_argument("--rules-only", action="store_true")
    parser.add_argument("--rounds", type=int, default=2)
    args = parser.parse_args()
    fake = FakeUpstream()
    upstream = ServerThread(fake.app)
    engine = Engine(use_model=not args.rules_only, threads=1)
    proxy = ServerThread(create_app(ServerConfig(upstream=upstream.url + "/v1", max_texts=10 ** 6,
                                                 max_body=2 ** 30), engine))
    times: dict[int, list[float]] = {n: [] for n in args.sizes}
    try:
        with httpx.Client(timeout=3600) as client:
            offset = 0
            for _ in range(args.rounds):
                for n in args.sizes:
                    body = {"model": "m", "messages": messages(n, offset)}
                    offset += n
                    fake.received.clear()
                    started = time.perf_counter()
                    resp = client.post(proxy.url + "/v1/chat/completions", json=body)
                    times[n].append(time.perf_counter() - started)
                    assert resp.status_code == 200, resp.text[:200]
                    sent = fake.received[-1].decode()
                    assert all(m["content"].split("à ")[-1].rstrip(".") not in sent for m in body["messages"])
    finally:
        proxy.stop()
        upstream.stop()
    base = statistics.median(times[args.sizes[0]])
    for n in args.sizes:
        t = statistics.median(times[n])
        print(json.dumps({"messages": n, "seconds": round(t, 2), "ratio": round(t / base, 2),
                          "rounds": [round(x, 2) for x in times[n]]}))


if __name__ == "__main__":
    main()
