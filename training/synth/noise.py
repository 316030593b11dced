"""Document-level noise that keeps every character offset, so spans stay exact."""

from __future__ import annotations

import random
import unicodedata

_OCR = {"l": "1", "O": "0", "o": "0", "e": "c", "i": "l", "m": "n", "S": "5", "B": "8", "a": "o", "t": "f"}
_BREAKABLE = frozenset({"PERSON", "ADDRESS"})


def _upper(text: str) -> str:
    return "".join(c.upper() if len(c.upper()) == 1 else c for c in text)


def _lower(text: str) -> str:
    return "".join(c.lower() if len(c.lower()) == 1 else c for c in text)


def _strip_accents(text: str) -> str:
    return "".join(unicodedata.normalize("NFD", c)[0] for c in text)


def _outside_mask(n: int, spans: list[tuple[int, int, str]], keep: frozenset[str] = frozenset()) -> list[bool]:
    mask = [True] * n
    for s, e, label in spans:
        if label in keep:
            continue
        for i in range(s, e):
            mask[i] = False
    return mask


def wrap(text: str, spans: list[tuple[int, int, str]], width: int) -> str:
    """Break lines at about `width` by turning spaces into newlines, as text pasted from a PDF."""
    ok = _outside_mask(len(text), spans, _BREAKABLE)
    chars = list(text)
    col = 0
    for i, c in enumerate(chars):
        if c == "\n":
            col = 0
            continue
        col += 1
        if c == " " and col >= width and ok[i]:
            chars[i] = "\n"
            col = 0
    return "".join(chars)


def ocr(text: str, spans: list[tuple[int, int, str]], rng: random.Random, rate: float) -> str:
    """OCR-like letter confusions: in context text, and more rarely inside names and addresses."""
    ok = _outside_mask(len(text), spans)
    soft = _outside_mask(len(text), spans, _BREAKABLE)
    chars = list(text)
    for i, c in enumerate(chars):
        if c in _OCR and (ok[i] or soft[i]) and rng.random() < (rate if ok[i] else rate / 3):
            chars[i] = _OCR[c]
    return "".join(chars)


def document_noise(text: str, spans: list[tuple[int, int, str]], rng: random.Random, pdf: bool) -> str:
    n = len(text)
    if pdf:
        text = wrap(text, spans, rng.randint(40, 90))
        if rng.random() < 0.5:
            text = ocr(text, spans, rng, rng.uniform(0.005, 0.03))
    r = rng.random()
    if r < 0.06:
        text = _strip_accents(text)
    elif r < 0.08:
        text = _upper(text)
    elif r < 0.095:
        text = _lower(text)
    elif r < 0.18:
        lines = text.split("\n")
        i = rng.randrange(len(lines))
        lines[i] = _upper(lines[i])
        text = "\n".join(lines)
    assert len(text) == n
    return text
