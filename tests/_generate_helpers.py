"""What the generator's tests share: documents of one kind, built without noise, and whether a
stretch of a document is inside a span."""

from __future__ import annotations

import random
from collections.abc import Callable

from training.synth.context import Ctx
from training.synth.doc import Doc
from training.synth.fakers import Fakers


def build_documents(build: Callable[[Doc, Ctx], None], kind: str, n: int = 40, ctx_class: type[Ctx] = Ctx):
    """(text, spans, ctx) for `n` documents of one kind (`build`, named `kind` for the seeds), both
    languages, without noise."""
    fakers = Fakers()
    out = []
    for seed in range(n):
        rng = random.Random(f"{kind}-{seed}")
        fakers.new_document()
        ctx = ctx_class(rng, fakers, ("fr", "en")[seed % 2])
        doc = Doc(rng)
        build(doc, ctx)
        out.append((doc.text(), doc.spans, ctx))
    return out


def in_a_span(spans, start: int, end: int) -> bool:
    """Whether any span overlaps `start:end`."""
    return any(s < end and start < e for s, e, _ in spans)
