"""A document built by concatenating pieces, so every span offset is exact by construction."""

from __future__ import annotations

import random
import re

_WS = " \t\r\n"
_PUNCT = ".,;:!?"
_PLACEHOLDER = re.compile(r"\{([A-Z_0-9]+)(?::(\d))?\}")


def clean_value(value: str, label: str) -> tuple[str, str, str]:
    """Split `value` into (leading junk, the span text, trailing junk) per the LABELS.md contract."""
    lead_chars = _WS if label in ("SECRET", "IP_ADDRESS") else _WS + _PUNCT
    trail_chars = _WS if label == "SECRET" else _WS + _PUNCT
    core = value.lstrip(lead_chars)
    lead = value[: len(value) - len(core)]
    core2 = core.rstrip(trail_chars)
    trail = core[len(core2):]
    return lead, core2, trail


class Doc:
    """Accumulates text pieces and labelled spans; `noise` mutates context text only."""

    def __init__(self, rng: random.Random, typo_rate: float = 0.0, spacing_rate: float = 0.0,
                 hyphen_rate: float = 0.0) -> None:
        self.rng = rng
        self.hyphen_rate = hyphen_rate
        self.parts: list[str] = []
        self.spans: list[tuple[int, int, str]] = []
        self.pos = 0
        self.typo_rate = typo_rate
        self.spacing_rate = spacing_rate

    def _append(self, text: str) -> None:
        self.parts.append(text)
        self.pos += len(text)

    def t(self, text: str) -> None:
        """Context text (label O), with typos and odd spacing when the document is noisy."""
        if self.typo_rate or self.spacing_rate or self.hyphen_rate:
            text = self._noisy(text)
        self._append(text)

    def o(self, text: str) -> None:
        """A hard-negative value: written verbatim, labelled O."""
        self._append(text)

    def v(self, value: str, label: str) -> None:
        """A labelled value."""
        lead, core, trail = clean_value(value, label)
        if lead:
            self._append(lead)
        if core:
            self.spans.append((self.pos, self.pos + len(core), label))
            self._append(core)
        if trail:
            self._append(trail)

    def text(self) -> str:
        return "".join(self.parts)

    def embed(self, other: Doc, prefix: str = "") -> None:
        """Append another document, with `prefix` at the start of each of its lines (as in a quoted e-mail)."""
        text = other.text()
        out: list[str] = []
        shift_at: list[int] = []
        shift = 0
        for i, ch in enumerate(text):
            if prefix and (i == 0 or text[i - 1] == "\n"):
                out.append(prefix)
                shift += len(prefix)
            shift_at.append(shift)
            out.append(ch)
        shift_at.append(shift)
        for s, e, label in other.spans:
            self.spans.append((self.pos + s + shift_at[s], self.pos + e - 1 + shift_at[e - 1] + 1, label))
        self._append("".join(out))

    def _noisy(self, text: str) -> str:
        rng = self.rng
        words = text.split(" ")
        out = []
        for w in words:
            if self.typo_rate and len(w) > 3 and w.isalpha() and rng.random() < self.typo_rate:
                i = rng.randrange(1, len(w) - 1)
                op = rng.random()
                if op < 0.3:
                    w = w[:i] + w[i + 1] + w[i] + w[i + 2:]
                elif op < 0.55:
                    w = w[:i] + w[i + 1:]
                elif op < 0.75:
                    w = w[:i] + w[i] + w[i:]
                else:
                    w = w[:i] + rng.choice("aeioulnrst") + w[i + 1:]
            if self.hyphen_rate and len(w) > 7 and w.isalpha() and rng.random() < self.hyphen_rate:
                i = rng.randrange(3, len(w) - 3)
                w = w[:i] + "-\n" + w[i:]
            out.append(w)
        sep_text = out[0] if out else ""
        for prev, w in zip(out, out[1:]):
            sep = " "
            if self.spacing_rate and rng.random() < self.spacing_rate:
                # Gluing words is only done between two context words, never against a value.
                glue_ok = bool(prev) and bool(w) and prev[-1].isalpha() and w[0].isalpha()
                sep = rng.choice(("  ", "   ", "" if glue_ok else "  ", " \n", "\t"))
            sep_text += sep + w
        return sep_text


def fill(doc: Doc, template: str, resolve) -> None:
    """Write `template`, replacing each {KEY} or {KEY:n} with `resolve(KEY, n)`.

    `resolve` returns (text, label or None), or a list of such pieces for a value with an inner span.
    """
    pos = 0
    for m in _PLACEHOLDER.finditer(template):
        if m.start() > pos:
            doc.t(template[pos:m.start()])
        value = resolve(m.group(1), int(m.group(2) or 1))
        for text, label in value if isinstance(value, list) else [value]:
            if label:
                doc.v(text, label)
            else:
                doc.o(text)
        pos = m.end()
    if pos < len(template):
        doc.t(template[pos:])
