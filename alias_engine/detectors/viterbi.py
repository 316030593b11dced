"""Constrained Viterbi decoding over the BIOES tags, streamed in bounded memory.

Tag layout (alias_engine.labels.BIOES_TAGS): 0 is O, then for label i the tags
B, I, E, S are 1 + 4i, 2 + 4i, 3 + 4i, 4 + 4i. Legal transitions:
O, E-X, S-X → O, B-Y, S-Y;  B-X, I-X → I-X, E-X.  A sequence starts with O, B
or S and ends with O, E or S.

The decoder adds transition biases (`DecodeBiases`, expert settings) to the
log-probabilities; all zero is plain constrained maximum likelihood. The user's
`recall_bias` is applied before, by `log_softmax`, as a shift of every token's
odds of personal data, so that it moves the spans' scores along with them. `StreamingDecoder` keeps only the
part of the lattice whose best path is still undecided: once the best paths
into every current state agree on a token (they always do on a stretch of O
between spans), everything before it is final and is dropped.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..labels import BIOES_TAGS, LABELS

N_TAGS = len(BIOES_TAGS)
_NEG = -np.inf
_B = np.arange(len(LABELS)) * 4 + 1
_I = _B + 1
_E = _B + 2
_S = _B + 3
_CLOSED = np.concatenate(([0], _E, _S))  # states after which a new span may start


@dataclass(frozen=True)
class DecodeBiases:
    """Log-space bonuses added to transitions (0 everywhere = neutral).

    `background`: O → O (persistence of the background; higher, fewer spans).
    `enter`: O/E/S → B/S and a sequence starting with B/S (higher, more spans).
    `continuation`: B/I → I (higher, longer spans).
    `closing`: B/I → E (higher, shorter spans).
    """

    background: float = 0.0
    enter: float = 0.0
    continuation: float = 0.0
    closing: float = 0.0


NEUTRAL = DecodeBiases()


def transition_scores(biases: DecodeBiases) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """`(trans[prev, next], start[tag], end[tag])` in float64, -inf where illegal."""
    trans = np.full((N_TAGS, N_TAGS), _NEG)
    for prev in _CLOSED:
        trans[prev, 0] = 0.0
        trans[prev, _B] = biases.enter
        trans[prev, _S] = biases.enter
    trans[0, 0] = biases.background
    for b, i, e in zip(_B, _I, _E):
        for prev in (b, i):
            trans[prev, i] = biases.continuation
            trans[prev, e] = biases.closing
    start = np.full(N_TAGS, _NEG)
    start[0] = 0.0
    start[_B] = biases.enter
    start[_S] = biases.enter
    end = np.full(N_TAGS, _NEG)
    end[_CLOSED] = 0.0
    return trans, start, end


def is_legal(tags: np.ndarray | list[int]) -> bool:
    """True when `tags` is a legal BIOES sequence (legal start, transitions and end)."""
    tags = np.asarray(tags, dtype=np.int64)
    if tags.size == 0:
        return True
    trans, start, end = transition_scores(NEUTRAL)
    if np.any((tags < 0) | (tags >= N_TAGS)):
        return False
    ok = np.isfinite(start[tags[0]]) and np.isfinite(end[tags[-1]])
    return bool(ok and np.all(np.isfinite(trans[tags[:-1], tags[1:]])))


class StreamingDecoder:
    """Feed log-probabilities `[n, 49]` chunk by chunk, then `finish()`.

    Memory is bounded by the longest undecided stretch (normally the length of
    one span); past `max_pending` tokens the best current state is taken as
    settled, which keeps the sequence legal.
    """

    def __init__(self, biases: DecodeBiases = NEUTRAL, max_pending: int = 8192) -> None:
        trans, self._start, self._end = transition_scores(biases)
        self._trans_t = np.ascontiguousarray(trans.T)
        self._max_pending = max_pending
        self._delta: np.ndarray | None = None
        self._bp = np.empty((0, N_TAGS), dtype=np.intp)
        self._logp = np.empty((0, N_TAGS), dtype=np.float32)
        self._tags: list[np.ndarray] = []
        self._path_logp: list[np.ndarray] = []

    def feed(self, logp: np.ndarray) -> None:
        n = len(logp)
        if n == 0:
            return
        logp = np.asarray(logp, dtype=np.float32)
        if logp.ndim != 2 or logp.shape[1] != N_TAGS:
            raise ValueError(f"expected log-probabilities [n, {N_TAGS}], got {logp.shape}")
        bp = np.zeros((n, N_TAGS), dtype=np.intp)
        trans_t = self._trans_t
        rows = np.arange(N_TAGS)
        emit = list(logp.astype(np.float64))
        cand = np.empty((N_TAGS, N_TAGS))
        first = 0
        if self._delta is None:
            delta = self._start + emit[0]
            first = 1
        else:
            delta = self._delta - self._delta.max()  # keep scores near 0
        for t in range(first, n):
            # cand[next, prev] = score of the best path through prev, then prev → next
            np.add(trans_t, delta, out=cand)
            best = bp[t]
            cand.argmax(1, out=best)
            delta = cand[rows, best] + emit[t]
        self._delta = delta
        self._bp = np.concatenate((self._bp, bp)) if len(self._bp) else bp
        self._logp = np.concatenate((self._logp, logp)) if len(self._logp) else logp
        self._settle()

    def finish(self) -> tuple[np.ndarray, np.ndarray]:
        """`(tags, path_logp)` for every token fed: the best legal path and its log-probabilities."""
        if self._delta is not None and len(self._bp):
            final = self._delta + self._end
            self._emit_prefix(len(self._bp), int(final.argmax()))
        tags = np.concatenate(self._tags) if self._tags else np.empty(0, dtype=np.uint8)
        path_logp = np.concatenate(self._path_logp) if self._path_logp else np.empty(0, dtype=np.float32)
        self._tags, self._path_logp = [], []
        self._delta = None
        return tags, path_logp

    def _settle(self) -> None:
        """Emit the prefix on which the best paths into all current states agree."""
        bp = self._bp
        states = np.arange(N_TAGS)
        for t in range(len(bp) - 1, 0, -1):
            states = bp[t, states]
            if (states == states[0]).all():
                self._emit_prefix(t, int(states[0]))
                return
        if len(bp) > self._max_pending:
            assert self._delta is not None, "feed set it before settling"
            best = int(self._delta.argmax())
            self._emit_prefix(len(bp), best)
            keep = self._delta[best]
            self._delta = np.full(N_TAGS, _NEG)
            self._delta[best] = keep

    def _emit_prefix(self, n: int, last_tag: int) -> None:
        """Settle pending tokens `[0, n)` with tag `last_tag` at `n - 1`, by backtracking."""
        tags = np.empty(n, dtype=np.uint8)
        tag = last_tag
        bp = self._bp
        for t in range(n - 1, -1, -1):
            tags[t] = tag
            tag = bp[t, tag]
        self._tags.append(tags)
        self._path_logp.append(self._logp[np.arange(n), tags])
        self._bp = bp[n:]
        self._logp = self._logp[n:]


def viterbi(logp: np.ndarray, biases: DecodeBiases = NEUTRAL) -> np.ndarray:
    """Best legal tag sequence for log-probabilities `[n, 49]` (all at once)."""
    decoder = StreamingDecoder(biases)
    decoder.feed(logp)
    return decoder.finish()[0]


def log_softmax(logits: np.ndarray, recall_bias: float = 0.0) -> np.ndarray:
    """Log-softmax over the last axis, in float32, after adding `recall_bias` to every tag but O.

    `recall_bias` shifts the prior odds of personal data against background by
    that many nats for every token: higher → more and longer spans, and higher
    scores for them; 0 is the model as trained. In decoding it is the same as
    adding it to every transition into B, I, E and S.
    """
    logits = np.asarray(logits, dtype=np.float32)
    if recall_bias:
        if not np.isfinite(recall_bias):
            raise ValueError("recall_bias must be a finite number")
        logits = logits + np.float32(recall_bias)
        logits[..., 0] -= np.float32(recall_bias)
    shifted = logits - logits.max(axis=-1, keepdims=True)
    return shifted - np.log(np.exp(shifted).sum(axis=-1, keepdims=True))
