"""What the generator's tests share: documents of one kind, built without noise, and whether a
stretch of a document is inside a span, and the checks every span of a kind passes."""

from __future__ import annotations

import random
from collections.abc import Callable

from alias_engine.labels import LABELS
from training.synth.context import Ctx
from training.synth.doc import Doc, clean_value
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


def exact_span_labels(docs, kind: str, whole_words: bool = True) -> set[str]:
    """Check that every span of `docs` (build_documents') is a label of LABELS.md, inside its text, after
    the previous span, without spaces or punctuation at its edges and, with `whole_words`, not inside a
    word; return the labels seen."""
    labels = set()
    for text, spans, _ in docs:
        prev_end = 0
        for s, e, label in sorted(spans):
            assert label in LABELS
            assert prev_end <= s < e <= len(text)
            lead, _, trail = clean_value(text[s:e], label)
            assert (lead, trail) == ("", ""), (kind, label, text[s:e])
            if whole_words:
                before = text[s - 1] if s else " "
                after = text[e] if e < len(text) else " "
                assert not before.isalnum() and not after.isalnum(), (kind, text[s:e])
            prev_end = e
            labels.add(label)
    return labels
