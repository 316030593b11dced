"""How detection's cost grows on texts crafted against the rules: does it stay linear?

    python benchmarks/adversarial_cost.py [--sizes 50000 400000] [--rounds 2] [--only NAME] [--model]

Builds each crafted text below at every size (characters), times a rules-only
`Engine.detect` on it, the sizes alternating over the rounds, and prints the
best seconds per size and the ratio of the largest size to the smallest. Linear
cost means 8x for 8x the text; a ratio above 1.5x the size ratio fails (exit 1).
Rules only by default; --model runs the default engine (the shipped model, `auto`
backend): the model's own cost is linear by construction (windows), what it adds
is the resolve steps on its spans.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable

from alias_engine import Engine


def repeat(unit: str, prefix: str = "", suffix: str = "") -> Callable[[int], str]:
    return lambda size: prefix + unit * max(1, (size - len(prefix) - len(suffix)) // len(unit)) + suffix


# Each: a keyword or a value shape repeated so that every occurrence could read on to the end of the
# text (one line without spaces, a list that never ends, a name that never ends).
CRAFTED: dict[str, Callable[[int], str]] = {
    "query of tokens": repeat("token=aB1&", '"GET /x?', ' HTTP/1.1"'),
    "query of passwords": repeat("password=x&", '"GET /x?', ' HTTP/1.1"'),
    "keywords joined by dashes": repeat("token-", "token=", "1"),
    "logins joined by dots": repeat("login.", "login: ", "1"),
    "letters without a space": repeat("a", "password: "),
    "digits without a space": repeat("7", "IBAN "),
    "capitalised words": repeat("Dupont ", "M. "),
    "titles": repeat("Dr "),
    "a list that never ends": repeat("Anne, ", "Nom : "),
    "phone digits in pairs": repeat("06 ", "Tél : "),
    "key-value pairs": repeat("nom=Dupont;"),
    "nested brackets": repeat("[{(", "password: "),
    "quotes": repeat('"a', "secret: "),
    "a table row that never ends": repeat("Dupont,", "nom,prenom\n"),
    "markup": repeat("<Nm>", "<Cdtr>"),
    "a name repeated": repeat("Martin, ", "Anne Martin signe. "),
    "rows of an SQL insert": repeat("('Anne', 'Martin'), ",
                                    "CREATE TABLE t (prenom TEXT, nom TEXT);\nINSERT INTO t VALUES ", "('A', 'B');"),
    "modules that never end": repeat("a.", "", "Error"),
    "greetings before a name": repeat("hey its ", "", "ysolde,"),
    "a message id of ids": repeat("<a@b.c> ", "References: "),
    "a key box named again and again": repeat("boîte à clés près de la porte ", "", ": code 4512"),
    "a complaint's line without its number": repeat("plainte ", "", "n° 2025/0001"),
    "chat heads": repeat("[02/07/2025, 20:16] ab: c\n"),
    "prefixes of a code": repeat("AB-", "policy ", "1234"),
    "a brand before a name": repeat("Tesco ", "", "Anne"),
    "a code's word, then changes": repeat("now ", "the door code: ", "4512"),
    "an organisation's name that never ends": repeat("Hospital ", "", "0113 496 0000"),
    "words before a house number": repeat("tout près ", "", ", 4 rue Haute, 35000 Rennes"),
    "a password's predicates": repeat("is ", "the password ", "tapioca."),
    "a question about codes that never ends": repeat("whats the code what code ", "", "?\nJo: 4417"),
    "questions about codes, none answered": repeat("what code what code?\n", "", "Jo: ok"),
    "a vCard address that never ends": repeat("1 Elm St;", "ADR;TYPE=HOME:;;", "x"),
    "a vCard address with no end": repeat("1 ", "ADR:;;", "."),
    "an API id's prefix again and again": repeat("cus_", "", "Ab1"),
    "an account's word, no name": repeat("service account ", "", "."),
    "a URL's user without an end": repeat("a:", "https://", "b@"),
    "a template in a URL's password": repeat("{{ ", "postgres://u:", "}}@db"),
    "a table's column of logins": repeat("A1,k.obi_7,Leeds\n", "ref,user,site\n"),
    "a direct debit's payee that never ends": repeat("AB ", "12 Mar  DD ", "4471 "),
    "the last digits' words again and again": repeat("the last 4 digits of my card ", "", "12"),
    "a town's hyphens that never end": repeat("-sur", "4 rue Haute, 35000 Rennes", " "),
    "a login and a slash again and again": repeat("admin / ", "", "Tr0ub4dor-9"),
    "a keyword in brackets again and again": repeat("(RUM)", "Mandat ", " : 1"),
    "a lock that opens with itself": repeat("opens with ", "", "4417"),
    "French quotes never closed": repeat("« mot de passe : ", "mot de passe : ", "x"),
    "curly quotes never closed": repeat("password: “a ", "", "b"),
    "words before the colon that never end": repeat("shed door ", "the padlock ", ": 4417"),
    "a name line's words above an address": repeat("DUPONT ", "M. ", "ANNE\n14 RUE HAUTE\n35000 RENNES"),
    "chat lines of a speaker in lower case": repeat("[20:16] dev: in\n", "[20:14] Priya: hi\n[20:15] Jaz: ok\n"),
    "chat times before spaces": repeat("[Mon 18:53]" + " " * 40 + "ab\n", "[20:14] Priya: hi\n[20:15] Jaz: ok\n"),
    "a document's words before its number": repeat("passeport polonais ", "", "EK4127790"),
}


def seconds(engine: Engine, text: str) -> float:
    start = time.perf_counter()
    engine.detect(text)
    return time.perf_counter() - start


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sizes", type=int, nargs="+", default=[50_000, 400_000])
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--only", help="run the crafted texts whose name contains this")
    parser.add_argument("--model", action="store_true", help="the default engine, with the model")
    args = parser.parse_args()
    engine = Engine(use_model=args.model)
    sizes = sorted(args.sizes)
    allowed = 1.5 * sizes[-1] / sizes[0]
    failed = []
    for name, make in CRAFTED.items():
        if args.only and args.only not in name:
            continue
        texts = {size: make(size) for size in sizes}
        best = {size: float("inf") for size in sizes}
        for round_ in range(args.rounds):
            for size in sizes if round_ % 2 == 0 else reversed(sizes):
                best[size] = min(best[size], seconds(engine, texts[size]))
        ratio = best[sizes[-1]] / max(best[sizes[0]], 1e-6)
        verdict = "ok" if ratio <= allowed else "NOT LINEAR"
        if ratio > allowed:
            failed.append(name)
        times = "  ".join(f"{size // 1000}k {best[size]:.3f}s" for size in sizes)
        print(f"{name:30} {times}  x{ratio:.1f} {verdict}", flush=True)
    print(f"size ratio {sizes[-1] / sizes[0]:.1f}, accepted up to x{allowed:.1f}; "
          f"{'not linear: ' + ', '.join(failed) if failed else 'all linear'}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
