"""What the rule tests share: the rules-only candidates of a text, with the model's spans given, so that a
rule is tested on what it decides whatever the shipped model finds."""

from __future__ import annotations

from alias_engine import Engine
from alias_engine.detectors.rules import detect_with_rules
from alias_engine.spans import Span

RULES = Engine(use_model=False).rules


def spans_of(text: str, *values: tuple[str, str]) -> list[Span]:
    """Model spans for (label, value) pairs, each at the value's first place in `text`."""
    out = []
    for label, value in values:
        start = text.index(value)
        out.append(Span(start, start + len(value), label, 0.9, "model"))
    return out


def detected(text: str, lang: str, *model: tuple[str, str]) -> list[tuple[str, str]]:
    found = detect_with_rules(text, lang, RULES, spans_of(text, *model))
    return sorted({(s.label, text[s.start:s.end]) for s in found})  # candidates, not merged: once each
