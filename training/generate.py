"""Seeded synthetic training documents for the PII token classifier.

    python -m training.generate --out FILE.jsonl --n N --seed S [--lang fr,en] [--split train|heldout] [--recipe v2|v3|v4|v5]

Each line is a LABELS.md record: {"text", "spans": [{"start","end","label"}], "lang", "id", "domain"}.
Spans are exact by construction: documents are built by concatenating pieces and recording offsets.

Recipes are mixes of document kinds. v2 (the default) is frozen: the held-out set every figure is measured on
(--seed 1001 --split heldout) and the default training data must stay byte-identical, so new kinds never go into
it. v3 is the v2 kinds plus the kinds of training/synth/templates_v3.py (about 30 % of its documents).
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from collections.abc import Iterator, Sequence

from alias_engine.errors import InputError
from training.synth.context import Ctx
from training.synth.doc import Doc
from training.synth.fakers import Fakers
from training.synth.names import SPLITS
from training.synth.noise import document_noise
from training.synth.templates import KINDS
from training.synth.templates_v3 import KINDS_V3
from training.synth.templates_v4 import KINDS_V4
from training.synth.templates_v5 import KINDS_V5, MENDED_V4
from training.synth.templates_v6 import KINDS_V6

LANGS = ("fr", "en")
_V5 = KINDS + KINDS_V3 + tuple(MENDED_V4.get(kind[0], kind) for kind in KINDS_V4) + KINDS_V5
RECIPES = {"v2": KINDS, "v3": KINDS + KINDS_V3, "v4": KINDS + KINDS_V3 + KINDS_V4, "v5": _V5, "v6": _V5 + KINDS_V6}


def generate_one(rng: random.Random, fakers: Fakers, lang: str, split: str = "all",
                 kinds=KINDS) -> tuple[str, list[tuple[int, int, str]], str]:
    """One document of one of `kinds` (name, build, weight): (text, spans as (start, end, label), domain)."""
    fakers.new_document()
    name, build, _ = rng.choices(kinds, [k[2] for k in kinds])[0]
    noisy = rng.random() < 0.3
    doc = Doc(rng, typo_rate=rng.uniform(0.01, 0.06) if noisy else 0.0,
              spacing_rate=rng.uniform(0.01, 0.05) if noisy and rng.random() < 0.5 else 0.0,
              hyphen_rate=rng.uniform(0.02, 0.1) if name == "pdf" else 0.0)
    ctx = Ctx(rng, fakers, lang, split=split)
    build(doc, ctx)
    text = doc.text()
    stripped = text.rstrip()
    spans = doc.spans
    text = document_noise(stripped, spans, rng, pdf=name == "pdf")
    return text, spans, name


def generate(n: int, seed: int = 0, langs: Sequence[str] = LANGS, split: str = "all",
             recipe: str = "v2") -> Iterator[dict]:
    """Yield `n` documents; document i depends only on (seed, i, split, recipe), so a longer run extends a
    shorter one.

    `split`: "all" draws any surname; "train" never uses the ~10% of surnames reserved for "heldout", so a
    held-out set made with split="heldout" (and another seed) measures names the model has never seen.
    `recipe`: the mix of document kinds (RECIPES); "v2" is frozen, "v3" adds the kinds of templates_v3, "v4"
    those of templates_v4 (codes that only the structure names), "v5" those of templates_v5 (names of things
    beside people) with templates_v4's register and log kinds mended.
    """
    langs = tuple(langs)
    if split not in SPLITS:
        raise InputError(f"split must be one of {SPLITS}, got {split!r}")
    if recipe not in RECIPES:
        raise InputError(f"recipe must be one of {tuple(RECIPES)}, got {recipe!r}")
    if n < 0:
        raise InputError("n must be >= 0")
    if not langs or any(lang not in LANGS for lang in langs):
        raise InputError(f"langs must be a non-empty subset of {LANGS}, got {langs}")
    fakers = Fakers()
    for i in range(n):
        rng = random.Random(f"alias-synth:{seed}:{i}" if split == "all" else f"alias-synth:{split}:{seed}:{i}")
        lang = langs[rng.randrange(len(langs))]
        text, spans, domain = generate_one(rng, fakers, lang, split, RECIPES[recipe])
        yield {
            "text": text,
            "spans": [{"start": s, "end": e, "label": label} for s, e, label in spans],
            "lang": lang,
            "id": f"synth-{seed}-{i}",
            "domain": domain,
        }


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--out", required=True, help="output JSONL file ('-' for stdout)")
    parser.add_argument("--n", type=int, required=True, help="number of documents")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--lang", default="fr,en", help="comma-separated languages among fr,en")
    parser.add_argument("--split", default="all", choices=SPLITS,
                        help="train: never use the surnames reserved for heldout; heldout: only those")
    parser.add_argument("--recipe", default="v2", choices=tuple(RECIPES),
                        help="mix of document kinds: v2 (frozen, the default), v3 (v2 plus the failure-class kinds), v4 (v3 plus the structure-named codes) v5 (v4 mended, plus names of things beside people) or v6 (v5 plus a person's records named in prose)")
    args = parser.parse_args(argv)
    langs = [x.strip() for x in args.lang.split(",") if x.strip()]
    try:
        docs = generate(args.n, args.seed, langs, args.split, args.recipe)
        out = sys.stdout if args.out == "-" else open(args.out, "w", encoding="utf-8")
        try:
            for doc in docs:
                out.write(json.dumps(doc, ensure_ascii=False) + "\n")
        finally:
            if out is not sys.stdout:
                out.close()
    except (InputError, OSError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
