"""Character spans -> BIOES tag ids per token, and windowing of long documents.

The way back (tags -> spans) is the engine's own: `alias_engine.detectors.model.token_spans`
and `snap_to_words` (alias_engine/spans.py), so that training measures what the engine will do.

A token belongs to a span when its character offsets, leading whitespace
(the "▁" of the sentencepiece pieces) removed, overlap the span. A token with
no character left (a lone "▁") belongs to a span only when it lies strictly
inside it, so a span's tags stay contiguous.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from alias_engine.detectors.contract import special_ids
from alias_engine.labels import BIOES_TAGS, LABELS

TAG_ID = {tag: i for i, tag in enumerate(BIOES_TAGS)}
IGNORE = -100


@dataclass(frozen=True)
class Chunk:
    ids: tuple[int, ...]
    tags: tuple[int, ...]


def strip_offsets(text: str, offsets: Sequence[tuple[int, int]]) -> list[tuple[int, int]]:
    """Offsets with leading whitespace removed; an all-space token becomes (end, end)."""
    out = []
    for start, end in offsets:
        while start < end and text[start].isspace():
            start += 1
        out.append((start, end))
    return out


def token_span_index(text: str, offsets: Sequence[tuple[int, int]], spans: Sequence[tuple[int, int, str]]) -> list[int]:
    """For each token, the index in `spans` of the span it belongs to, or -1."""
    stripped = strip_offsets(text, offsets)
    order = sorted(range(len(spans)), key=lambda i: spans[i][0])
    result = [-1] * len(offsets)
    j = 0
    for t, ((raw_start, _), (start, end)) in enumerate(zip(offsets, stripped, strict=True)):
        while j < len(order) and spans[order[j]][1] <= min(start, raw_start):
            j += 1
        best, best_overlap = -1, 0
        for k in order[j : j + 3]:
            s_start, s_end, _ = spans[k]
            if s_start >= end and start < end:
                break
            if start < end:
                overlap = min(end, s_end) - max(start, s_start)
            else:
                overlap = 1 if s_start < raw_start and end <= s_end else 0
            if overlap > best_overlap:
                best, best_overlap = k, overlap
        result[t] = best
    return result


def bioes_tags(text: str, offsets: Sequence[tuple[int, int]], spans: Sequence[tuple[int, int, str]]) -> list[int]:
    """BIOES tag ids (indices into BIOES_TAGS) for the tokens with these offsets."""
    index = token_span_index(text, offsets, spans)
    tags = [0] * len(index)
    t = 0
    while t < len(index):
        k = index[t]
        if k < 0:
            t += 1
            continue
        u = t
        while u + 1 < len(index) and index[u + 1] == k:
            u += 1
        label = spans[k][2]
        if label not in LABELS:
            raise ValueError(f"unknown label {label!r}")
        if u == t:
            tags[t] = TAG_ID[f"S-{label}"]
        else:
            tags[t] = TAG_ID[f"B-{label}"]
            for m in range(t + 1, u):
                tags[m] = TAG_ID[f"I-{label}"]
            tags[u] = TAG_ID[f"E-{label}"]
        t = u + 1
    return tags


def _close_edges(tags: list[int]) -> list[int]:
    """Make a window's tags valid BIOES when a span was cut at an edge."""
    tags = list(tags)
    if not tags:
        return tags
    first = BIOES_TAGS[tags[0]]
    if first[:2] in ("I-", "E-"):
        tags[0] = TAG_ID[("B-" if first[0] == "I" else "S-") + first[2:]]
    last = BIOES_TAGS[tags[-1]]
    if last[:2] in ("B-", "I-"):
        tags[-1] = TAG_ID[("E-" if last[0] == "I" else "S-") + last[2:]]
    return tags


def windows(
    ids: Sequence[int], tags: Sequence[int], size: int, bos: int = 0, eos: int = 2, slack: int = 24
) -> list[Chunk]:
    """Cut a document's tokens into chunks of at most `size` ids, specials included.

    A window ends, when it can, on an O token within `slack` tokens of its end,
    so that few spans are cut.
    """
    inner = size - 2
    if inner <= 0:
        raise ValueError("window size too small")
    chunks = []
    start = 0
    n = len(ids)
    while start < n:
        end = min(start + inner, n)
        if end < n:
            for cut in range(end, max(start + inner - slack, start + 1), -1):
                if tags[cut - 1] == 0 and tags[cut] == 0:
                    end = cut
                    break
        chunk_tags = _close_edges(list(tags[start:end]))
        chunks.append(Chunk((bos, *ids[start:end], eos), (IGNORE, *chunk_tags, IGNORE)))
        start = end
    return chunks


def encode_document(tokenizer, text: str, spans: Sequence[tuple[int, int, str]], size: int) -> list[Chunk]:
    """Tokenise `text` (a `tokenizers.Tokenizer`) and return its training chunks, framed by the
    tokenizer's own `<s>` and `</s>` (the ids the engine frames its windows with)."""
    enc = tokenizer.encode(text, add_special_tokens=False)
    tags = bioes_tags(text, enc.offsets, spans)
    bos, eos, _, _ = special_ids(tokenizer)
    return windows(enc.ids, tags, size, bos=bos, eos=eos)
