"""Overlapping windows over a long token sequence, and which window decides each token.

Windows hold `size` content tokens (the model's 512 positions minus <s> and
</s>) and overlap by at least `overlap`; the last one is shifted back to end at
the last token so that every window is full. Every token is decided by exactly
one window: the one in which it is farthest from an edge, i.e. closest to the
window's centre (equal-sized windows), so the cut between two neighbours is the
middle of their overlap.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Window:
    """Tokens `[start, end)` go through the model; tokens `[keep_start, keep_end)` take its logits."""

    start: int
    end: int
    keep_start: int
    keep_end: int


def plan_windows(n_tokens: int, size: int = 510, overlap: int = 128) -> list[Window]:
    """Windows covering `n_tokens`; their keep ranges partition `[0, n_tokens)` in order."""
    if size < 1 or not 0 <= overlap < size:
        raise ValueError(f"need size >= 1 and 0 <= overlap < size, got size={size}, overlap={overlap}")
    if n_tokens <= 0:
        return []
    if n_tokens <= size:
        return [Window(0, n_tokens, 0, n_tokens)]
    stride = size - overlap
    starts = list(range(0, n_tokens - size, stride))
    starts.append(n_tokens - size)
    cuts = [0] + [(a + size + b) // 2 for a, b in zip(starts, starts[1:])] + [n_tokens]
    return [Window(s, s + size, cuts[i], cuts[i + 1]) for i, s in enumerate(starts)]
