"""Document kinds added by recipe v6, for the label that leaks most on hand-written text (IDENTIFIER: with
model v5, a person's record named with its qualifiers before "n°" ("contrat de location meublée n° …",
"licence fédérale n° …"), a car's plate beside its model, a login in an access request were left readable).
A person's contract, policy, licence, membership, account and claim numbers, plates and logins are
IDENTIFIER (LABELS.md); invoice, order, ticket and tracking numbers, car models and group names are O.
Written through `fill`, so spans are exact; no value or phrase comes from an evaluation set (the lists
were checked against the dev sets, the probes and the held-out sets: car models found there were
dropped)."""

from __future__ import annotations

import json
from collections.abc import Callable
from functools import partial
from pathlib import Path

from training.synth.context import Ctx, in_lang
from training.synth.doc import Doc, fill
from training.synth.templates import _lower_template
from training.synth.templates_v3 import _lower, _mapped, _with_keys
from training.synth.templates_v4 import person_code

TEMPLATES = json.loads((Path(__file__).parent / "templates_v6.json").read_text(encoding="utf-8"))
_in_lang = partial(in_lang, TEMPLATES)


def record_mentions(d: Doc, ctx: Ctx) -> None:
    """Notes, messages and letters that mention a person's records: their numbers, plates and logins are
    IDENTIFIER beside invoice, order, ticket and tracking numbers (O); one document in four typed in lower
    case."""
    rng = ctx.rng
    local: dict[str, Callable[[int], object]] = {
        "CODE": lambda n: (person_code(ctx), "IDENTIFIER"),
        "CAR": lambda n: (rng.choice(TEMPLATES["CARS"]), None),
        "GROUP": lambda n: (rng.choice(TEMPLATES["GROUPS"]), None),
    }
    resolve = _with_keys(ctx.resolve, local)
    lines = rng.sample(_in_lang(ctx, "RECORDS"), rng.randint(2, 4))
    lines += rng.sample(_in_lang(ctx, "DECOYS"), rng.randint(0, 2))
    if rng.random() < 0.4:
        lines.append(rng.choice(_in_lang(ctx, "ADMIN")))
    rng.shuffle(lines)
    lower = rng.random() < 0.25
    if lower:
        resolve = _mapped(resolve, _lower)
        lines = [_lower_template(line) for line in lines]
    lead, end = rng.choice((("", "\n"), ("- ", "\n"), ("", " ")))
    for line in lines:
        fill(d, lead + line + end, resolve)


# The v6 kind, about 6 % of a recipe-v6 mix (20 of 346 weight units).
KINDS_V6 = (("record_mentions", record_mentions, 20),)
