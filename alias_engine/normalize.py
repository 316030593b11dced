"""The normalised view of a text that the rule detectors read, and the way back.

Detection runs on NFKC text with invisible characters removed (zero-width
characters, soft hyphens, bidi marks and other format characters, variation
selectors), every kind of space turned into a plain space, lone carriage
returns read as line breaks (full-width digits become ASCII digits through
NFKC). `NormalizedText.to_original` maps a span of the
normalised view back to exact offsets in the original string.
"""

from __future__ import annotations

import unicodedata
from bisect import bisect_right
from dataclasses import dataclass
from functools import cached_property

import regex


def _is_removed(ch: str) -> bool:
    """Invisible characters that can hide inside a value: format characters (zero-width,
    soft hyphen, bidi marks, invisible operators, tags), variation selectors, the grapheme joiner."""
    code = ord(ch)
    return (unicodedata.category(ch) == "Cf" or code == 0x034F or 0xFE00 <= code <= 0xFE0F
            or 0xE0100 <= code <= 0xE01EF or code == 0x180E)
_NON_ASCII_RUN = regex.compile(r"[^\x00-\x7f]+")
_LONE_CR = regex.compile(r"\r(?!\n)")  # old Mac line ends read as line ends (same length: offsets hold)


@dataclass(frozen=True)
class NormalizedText:
    """`text` is the normalised view of `original`.

    `pieces` lists, in order, `(norm_start, orig_start, norm_len, orig_len, same)`
    for every stretch of the view: `same` stretches map character for character,
    the others are one original cluster rewritten as a whole (its span maps to
    the whole cluster). Removed characters have `norm_len == 0`.
    """

    original: str
    text: str
    pieces: tuple[tuple[int, int, int, int, bool], ...]
    _starts: tuple[int, ...]

    def to_original(self, start: int, end: int) -> tuple[int, int]:
        """Map `[start, end)` of the view to `[start, end)` of the original."""
        if not self.pieces:
            return start, end
        first = self._piece_at(start)
        last = self._piece_at(end - 1)
        ns, os_, _, _, same = first
        o_start = os_ + (start - ns) if same else os_
        ns, os_, _, ol, same = last
        o_end = os_ + (end - ns) if same else os_ + ol
        return o_start, o_end

    def to_view(self, start: int, end: int) -> tuple[int, int]:
        """Map `[start, end)` of the original to the view (a rewritten cluster maps as a whole);
        `start == end` when the original span holds only removed characters."""
        if not self.pieces:  # the view is the text, or empty (every character removed)
            return (start, end) if len(self.text) == len(self.original) else (0, 0)
        return self._view_pos(start, False), self._view_pos(end, True)

    def _view_pos(self, pos: int, is_end: bool) -> int:
        i = bisect_right(self._orig_starts, pos - 1 if is_end else pos) - 1
        if i < 0:
            return 0
        ns, os_, nl, ol, same = self.pieces[i]
        if same:
            return ns + min(pos - os_, nl)
        return ns + nl if is_end or pos >= os_ + ol else ns

    @cached_property
    def _orig_starts(self) -> list[int]:
        return [p[1] for p in self.pieces]

    def _piece_at(self, pos: int) -> tuple[int, int, int, int, bool]:
        i = bisect_right(self._starts, pos) - 1
        return self.pieces[i]


def _pieces_for_run(run: str, orig_offset: int) -> list[tuple[str, int, int]]:
    """Split a non-ASCII run into clusters (base char + combining marks) and normalise each."""
    out: list[tuple[str, int, int]] = []
    i = 0
    n = len(run)
    while i < n:
        j = i + 1
        while j < n and unicodedata.combining(run[j]):
            j += 1
        cluster = run[i:j]
        if all(_is_removed(ch) for ch in cluster):
            norm = ""
        else:
            norm = unicodedata.normalize("NFKC", cluster)
            norm = "".join(" " if ch.isspace() and ch not in "\n\r\t" else ch
                           for ch in norm if not _is_removed(ch))
        out.append((norm, orig_offset + i, j - i))
        i = j
    return out


def normalize(text: str) -> NormalizedText:
    """Build the normalised view of `text`; linear in its length."""
    if text.isascii():
        return NormalizedText(text, _LONE_CR.sub("\n", text), (), ())
    parts: list[str] = []
    pieces: list[tuple[int, int, int, int, bool]] = []
    norm_pos = 0

    def add(norm: str, orig_start: int, orig_len: int, same: bool) -> None:
        nonlocal norm_pos
        if same and pieces and pieces[-1][4] and pieces[-1][2] > 0 and \
                pieces[-1][0] + pieces[-1][2] == norm_pos and pieces[-1][1] + pieces[-1][3] == orig_start:
            ns, os_, nl, ol, _ = pieces[-1]
            pieces[-1] = (ns, os_, nl + len(norm), ol + orig_len, True)
        elif norm or orig_len:
            pieces.append((norm_pos, orig_start, len(norm), orig_len, same))
        parts.append(norm)
        norm_pos += len(norm)

    last = 0
    for m in _NON_ASCII_RUN.finditer(text):
        start = m.start()
        if start > last and unicodedata.combining(text[start]):
            start -= 1  # a combining mark belongs with the ASCII letter before it
        if start > last:
            add(text[last:start], last, start - last, True)
        for norm, o_start, o_len in _pieces_for_run(text[start:m.end()], start):
            add(norm, o_start, o_len, norm == text[o_start:o_start + o_len])
        last = m.end()
    if last < len(text):
        add(text[last:], last, len(text) - last, True)
    # Removed characters take no room in the view: drop them from the lookup table.
    kept = tuple(p for p in pieces if p[2] > 0)
    return NormalizedText(text, _LONE_CR.sub("\n", "".join(parts)), kept, tuple(p[0] for p in kept))
