"""Random texts through mask and back: how many raise, how many do not come back exactly.

    python benchmarks/fuzz_roundtrip.py                     # 100,000 texts, model and rules
    python benchmarks/fuzz_roundtrip.py -n 2000 --rules-only --seed 7
    python benchmarks/fuzz_roundtrip.py -n 1000 --turns 4     # conversations of 4 turns

Every text is built from pieces people write: names, phone numbers, IBANs,
cards, national numbers, e-mails, URLs, dates, addresses, placeholder-like
words (`[PHONE_1]`, `NATIONAL_ID_3`, `{person 2}`), French articles (`d'`,
`qu'`), mixed scripts, punctuation, zero-width and line-separator characters,
values glued to words, wrapped in JSON strings or CSV/TSV rows. Each text goes
through three round trips:

- `unmask(mask(x).text, mask(x).mapping) == x` (`Engine.mask`);
- the same with a placeholder session's turn mapping;
- `session.unmask(session.mask(x).text) == x` in a surrogate session, also
  through the streaming restorer fed in random chunks.

A text is a failure when one of them does not give `x` back, an exception
when anything raises (an `InputError` is not expected: the texts are valid).
With `--turns T`, every T texts are the turns of one conversation instead, and
each turn is checked with the sessions of the conversation so far. The first
failures are printed with their text, so that they can be replayed.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
import traceback

NAMES = ("Jean Dupont", "Xavier Noël", "Marie-Claire Lefèvre", "Anne Martin", "John Smith", "Mary O'Neil",
         "Karim Benali", "Fatou Diallo", "Élodie Roux", "Yves Moreau", "Hélène Petit", "Ólafur Arnalds",
         "Zhang Wei", "DUPONT Jean", "M. Dupont", "Mme Martin", "Dr. Smith")
VALUES = ("06 12 34 56 78", "+33 6 12 34 56 78", "0612345678", "(555) 123-4567", "+44 20 7946 0958",
          "FR76 3000 6000 0112 3456 7890 189", "FR7630006000011234567890189", "GB82 WEST 1234 5698 7654 32",
          "XX12_3456_7890_1234_5678", "DE89370400440532013000", "4111 1111 1111 1111", "4111111111111111",
          "5500-0000-0000-0004", "1 85 03 75 123 456 78", "185037512345678", "123-45-6789", "QQ 12 34 56 C",
          "12/03/1985", "1985-03-12", "12 mars 1985", "March 12, 1985", "jean.dupont@example.fr",
          "j.smith@gmail.com", "contact@dupont-immo.fr", "https://example.com/u/jdupont?id=42",
          "www.jean-dupont.fr", "192.168.1.20", "2001:db8::1", "12 rue des Lilas, 75011 Paris",
          "8 avenue Jean Jaurès\n69007 Lyon", "221B Baker Street, London NW1 6XE", "sk_live_4eC39HqLyjWDarjtT1zdp7dc",
          "AKIAIOSFODNN7EXAMPLE", "dossier n° 2023-AB-1234", "SIRET 732 829 320 00074")
PLACEHOLDERS = ("[PHONE_1]", "[PERSON_1]", "[PERSON_2]", "PERSON_2", "NATIONAL_ID_3", "{person 1}", "<Email-1>",
                "[iban 4]", "PHONE_1", "[PERSON_1's]", "EMAIL_12", "1831NATIONAL_ID_3", "[ADDRESS_1]")
WORDS = ("Bonjour", "merci", "le badge", "du dossier", "appelez", "hello", "please call", "card", "mail", "tel",
         "IBAN:", "né le", "nom", "ville", "réf.", "Paris", "Nantes", "Lyon", "Привет", "日本語", "مرحبا", "🙂",
         "x", "2", "ok", "½", "N°", "l'", "d'", "qu'", "D'", "QU’", "aujourd'hui", "l’adresse")
GLUE = ("", " ", " ", " ", "  ", "\n", "\t", "\r\n", "\u200b", "\u200d", "\u00ad", "\u2028", "\u2029", "\u00a0",
        "\u202f", "\ufeff", ", ", ",", ";", ":", ". ", "\"", "'", "’", "(", ")", "[", "]", "{", "}", "-", "_", "/",
        "\\", "\\n", "|", "«\u00a0", "\u00a0»", "…")


def piece(rng: random.Random) -> str:
    kind = rng.random()
    if kind < 0.25:
        return rng.choice(NAMES)
    if kind < 0.55:
        return rng.choice(VALUES)
    if kind < 0.65:
        return rng.choice(PLACEHOLDERS)
    return rng.choice(WORDS)


def random_text(rng: random.Random) -> str:
    parts = []
    for _ in range(rng.randint(1, 10)):
        parts.append(piece(rng))
        parts.append(rng.choice(GLUE))
    text = "".join(parts[:-1] if rng.random() < 0.5 else parts)
    wrap = rng.random()
    if wrap < 0.15:  # a JSON object (valid or not)
        text = json.dumps({"name": text}, ensure_ascii=rng.random() < 0.2) if rng.random() < 0.6 \
            else '{"name": "' + text + '"}'
    elif wrap < 0.25:  # CSV / TSV rows
        sep = rng.choice([",", ";", "\t"])
        rows = [sep.join(piece(rng) if rng.random() < 0.7 else rng.choice(WORDS) for _ in range(3))
                for _ in range(rng.randint(1, 3))]
        text = "\n".join(rows) + ("\n" if rng.random() < 0.5 else "")
    return text


def chunks(text: str, rng: random.Random) -> list[str]:
    out, pos = [], 0
    while pos < len(text):
        n = rng.randint(1, 12)
        out.append(text[pos:pos + n])
        pos += n
    return out


def check(engine, text: str, rng: random.Random) -> str | None:
    """None if every round trip gives `text` back, else which one failed."""
    from alias_engine import Session
    from alias_engine.masks import mask_spans
    from alias_engine.restore import unmask

    spans = engine.detect(text)  # once: the three masks below see the same spans (what Engine.mask does)
    m = mask_spans(text, spans, engine.placeholder)
    if unmask(m.text, m.mapping) != text:
        return "Engine.mask/unmask"
    session = Session(lambda _: spans, placeholder=engine.placeholder)
    m = session.mask(text)
    if unmask(m.text, m.mapping) != text:
        return "placeholder session turn mapping"
    session = Session(lambda _: spans, mode="surrogate", key=b"fuzz")
    m = session.mask(text)
    if unmask(m.text, m.mapping) != text:
        return "surrogate session turn mapping"
    if session.unmask(m.text) != text:
        return "surrogate session.unmask"
    restorer = session.restorer()
    streamed = "".join(restorer.feed(c) for c in chunks(m.text, rng)) + restorer.flush()
    if streamed != text:
        return "surrogate streaming restore"
    return None


def check_conversation(engine, texts: list[str], rng: random.Random) -> str | None:
    """`texts` as the turns of one placeholder and one surrogate session: every turn must round-trip
    with its mapping, and in surrogate mode with the session (earlier turns' pseudonyms in play)."""
    from alias_engine import Session
    from alias_engine.restore import unmask

    for mode in ("placeholder", "surrogate"):
        session = Session(engine, mode=mode, key=b"fuzz")
        for n, text in enumerate(texts, 1):
            m = session.mask(text)
            if unmask(m.text, m.mapping) != text:
                return f"{mode} session turn mapping (turn {n})"
            if mode == "surrogate":
                if session.unmask(m.text) != text:
                    return f"surrogate session.unmask (turn {n})"
                restorer = session.restorer()
                if "".join(restorer.feed(c) for c in chunks(m.text, rng)) + restorer.flush() != text:
                    return f"surrogate streaming restore (turn {n})"
    return None


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("-n", type=int, default=100_000, help="how many texts (default 100,000)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--rules-only", action="store_true", help="Engine(use_model=False)")
    parser.add_argument("--show", type=int, default=10, help="print the first N failures and exceptions")
    parser.add_argument("--every", type=int, default=1000, help="print progress every N texts")
    parser.add_argument("--turns", type=int, default=1,
                        help="T > 1: every T texts are the turns of one conversation (sessions kept across turns)")
    args = parser.parse_args(argv)

    from alias_engine import Engine

    engine = Engine(use_model=False) if args.rules_only else Engine()
    rng = random.Random(args.seed)
    failures: dict[str, int] = {}
    exceptions: dict[str, int] = {}
    shown = 0
    start = time.perf_counter()
    for i in range(1, args.n + 1):
        turns = [random_text(rng) for _ in range(args.turns)]
        text = turns[0] if args.turns == 1 else turns
        try:
            failed = (check(engine, text, random.Random(i)) if args.turns == 1
                      else check_conversation(engine, turns, random.Random(i)))
        except Exception as exc:  # counted and shown: the point of the script
            key = f"{type(exc).__name__}: {exc}"[:120]
            exceptions[key] = exceptions.get(key, 0) + 1
            if shown < args.show:
                shown += 1
                print(f"EXCEPTION on {text!r}", file=sys.stderr)
                traceback.print_exc()
            failed = None
        if failed is not None:
            failures[failed] = failures.get(failed, 0) + 1
            if shown < args.show:
                shown += 1
                print(f"FAILURE ({failed}) on {text!r}", file=sys.stderr)
        if args.every and i % args.every == 0:
            print(f"{i:,} texts, {sum(failures.values())} failures, {sum(exceptions.values())} exceptions, "
                  f"{time.perf_counter() - start:.0f} s", flush=True)
    elapsed = time.perf_counter() - start
    unit = "texts" if args.turns == 1 else f"conversations of {args.turns} turns"
    print(f"done: {args.n:,} {unit} ({'rules only' if args.rules_only else 'model and rules'}, seed {args.seed}) "
          f"in {elapsed:.0f} s: {sum(failures.values())} failures, {sum(exceptions.values())} exceptions")
    for key, count in sorted(failures.items(), key=lambda kv: -kv[1]):
        print(f"  failure  {count:6d}  {key}")
    for key, count in sorted(exceptions.items(), key=lambda kv: -kv[1]):
        print(f"  exception {count:5d}  {key}")
    return 1 if failures or exceptions else 0


if __name__ == "__main__":
    sys.exit(main())
