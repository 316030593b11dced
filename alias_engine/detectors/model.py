"""The token classifier: on CPU (ONNX Runtime or OpenVINO, backends.py) over windows, constrained BIOES decoding.

Pipeline for a batch of texts: tokenize each text once (offsets into the text)
→ plan overlapping windows (windows.py) → run every window of every text
through the model in padded batches, shortest first → log-softmax the logits of
the tokens each window decides → stream them into one Viterbi decoder per text
(viterbi.py) → turn B…E / S runs into character spans snapped to whole words.
Memory stays bounded for long texts: a few batches of logits at a time and, per
text, only the undecided tail of the Viterbi lattice (plus token ids, offsets
and final tags: a few bytes a token).
"""

from __future__ import annotations

import threading
from collections import deque
from collections.abc import Callable, Iterator, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from contextvars import ContextVar
from pathlib import Path

import numpy as np
import regex

from ..errors import AliasEngineError, ModelError
from ..labels import BUILTIN, LABELS
from ..merge import merge_spans
from ..spans import Span, snap_to_words
from .backends import available_cores, check_backend, check_installed, load_backend, resolve_backend
from .contract import MODEL_FILES, read_labels_json, read_tokenizer, special_ids
from .viterbi import N_TAGS, NEUTRAL, DecodeBiases, StreamingDecoder, log_softmax
from .windows import Window, plan_windows

DEFAULT_BATCH_SIZE = 8  # windows of full length per model call; shorter windows pack more
MAX_WINDOWS_PER_BATCH = 64
SEGMENT_CHARS = 50_000  # long texts are tokenized in pieces cut before a space
SEGMENTS_PER_CALL = 4

RunFn = Callable[[np.ndarray, np.ndarray], np.ndarray]
ProgressFn = Callable[[int, int], None]
WidthFn = Callable[[int], int]

# Backends by (model file, size, mtime, threads, backend): one per process (ModelDetector.runtime).
_runtimes: dict[tuple, object] = {}
_runtimes_lock = threading.Lock()

# Who wants to hear how far the model got (windows done, windows in all), in this thread or task only.
_progress: ContextVar[ProgressFn | None] = ContextVar("model_progress", default=None)


@contextmanager
def model_progress(report: ProgressFn) -> Iterator[None]:
    """Call `report(done, total)` after every model batch run in this context (thread, task).

    The CLI's `--progress` on one long text: the windows are the ones detection
    runs anyway, so the spans are the same with or without it.
    """
    token = _progress.set(report)
    try:
        yield
    finally:
        _progress.reset(token)


class ModelDetector:
    """Detect spans with the shipped token classifier. Build it with `ModelDetector.load`.

    Thread-safe: one runtime (an ONNX Runtime session or an OpenVINO compiled model,
    backends.py), created on first use, serves every call and thread.
    """

    name = "model"
    role = "model"  # resolve.ROLES: its spans are checked and repaired by resolve/

    def __init__(
        self,
        model_path: Path,
        tokenizer,
        *,
        window_length: int = 512,
        threads: int | None = None,
        recall_bias: float = 0.0,
        biases: DecodeBiases = NEUTRAL,
        batch_size: int = DEFAULT_BATCH_SIZE,
        thresholds: Mapping[str, float] | None = None,
        window_overlap: int | None = None,
        backend: str = "auto",
    ) -> None:
        self.model_path = Path(model_path)
        self.backend = check_backend(backend)
        self.tokenizer = tokenizer
        self.window_size = window_length - 2
        self.threads = threads
        self.recall_bias = float(recall_bias)
        self.biases = biases
        self.batch_size = batch_size
        self.thresholds = dict(thresholds or {})
        # A quarter of the window: 128 of 512 positions; each token keeps 1/8 of a window of context.
        self.window_overlap = window_length // 4 if window_overlap is None else window_overlap
        self.bos_id, self.eos_id, self.pad_id, self.unk_id = special_ids(tokenizer)
        self._runtime = None
        self._runtime_lock = threading.Lock()
        plan_windows(1, self.window_size, self.window_overlap)  # validates the sizes early

    @classmethod
    def load(
        cls,
        model_dir: str | Path,
        threads: int | None = None,
        recall_bias: float = 0.0,
        batch_size: int = DEFAULT_BATCH_SIZE,
        thresholds: Mapping[str, float] | None = None,
        *,
        biases: DecodeBiases | None = None,
        window_overlap: int | None = None,
        preload: bool = False,
        backend: str = "auto",
    ) -> ModelDetector:
        """Check and load `model.onnx`, `tokenizer.json` and `labels.json` from `model_dir`.

        `recall_bias`: 0 is the model as trained; higher gives more and longer
        spans with higher scores, lower fewer (nats of prior odds of personal
        data per token). `biases`: expert transition biases of the decoder
        (default neutral). `thresholds`: minimum score per label. `backend`:
        "onnxruntime", "openvino" or "auto" (backends.py). The runtime is built
        on first use, or now with `preload`. Raises ModelError when a file is
        missing or corrupt, or the backend cannot run it.
        """
        model_dir = Path(model_dir)
        for name in MODEL_FILES:
            path = model_dir / name
            if not path.is_file():
                raise ModelError(f"model file missing: {path} (train or install the model, or use rules only)")
            if path.stat().st_size == 0:
                raise ModelError(f"model file is empty: {path}")
        window_length = read_labels_json(model_dir / "labels.json")
        tokenizer = read_tokenizer(model_dir / "tokenizer.json")
        if not np.isfinite(float(recall_bias)):
            raise ValueError("recall_bias must be a finite number")
        if threads is not None and (not isinstance(threads, int) or threads < 1):
            raise ValueError("threads must be a positive integer or None")
        if not isinstance(batch_size, int) or batch_size < 1:
            raise ValueError("batch_size must be a positive integer")
        check_installed(check_backend(backend))
        if thresholds:
            BUILTIN.check(thresholds)
            if any(not 0.0 <= float(v) <= 1.0 for v in thresholds.values()):
                raise ValueError("thresholds must be between 0 and 1")
        try:
            detector = cls(model_dir / "model.onnx", tokenizer, window_length=window_length, threads=threads,
                           recall_bias=recall_bias, biases=biases or NEUTRAL,
                           batch_size=batch_size, thresholds=thresholds, window_overlap=window_overlap,
                           backend=backend)
        except ValueError as exc:
            raise ModelError(f"model settings rejected: {exc}") from None
        if preload:
            detector.runtime  # noqa: B018 (builds and checks the runtime)
        return detector

    @property
    def runtime(self):
        """The backend's runtime (backends.py), built and checked once (thread-safe).

        One per process for a given model file, thread count and backend (`auto` resolved
        when first used, backends.py): detectors
        (engines) that load the same file share it, rather than each starting its own
        threads on the same cores.
        """
        if self._runtime is None:
            with self._runtime_lock:
                if self._runtime is None:
                    self._runtime = self._shared_runtime()
        return self._runtime

    def _shared_runtime(self):
        try:
            stat = self.model_path.stat()
        except OSError as exc:
            raise ModelError(f"cannot load {self.model_path}: {exc.strerror}") from None
        threads = self.threads or available_cores()
        backend = resolve_backend(self.backend)
        key = (str(self.model_path.resolve()), stat.st_size, stat.st_mtime_ns, threads, backend)
        with _runtimes_lock:
            if key not in _runtimes:
                _runtimes[key] = self._checked(load_backend(backend, self.model_path, threads))
            return _runtimes[key]

    def detect(self, texts: Sequence[str], langs: Sequence[str] | None = None) -> list[list[Span]]:
        """Spans for each text: `Span(..., source="model")`, sorted, offsets into that text
        (the Detector protocol; the model reads every language the same way).

        A text gets the same spans whatever else is in `texts`. Under ONNX Runtime the
        shipped dynamic-int8 graph quantises a whole batch with one scale, so its windows run
        one per call (a graph whose metadata says it is batch-independent gets batches).
        Under OpenVINO windows run in batches, each padded to a width set by its own length.
        """
        runtime = self.runtime
        try:
            return self.detect_with(texts, self._run,
                                    windows_per_call=MAX_WINDOWS_PER_BATCH if runtime.batch_independent else 1,
                                    width=self._padded_width(runtime.width_step),
                                    calls_at_once=runtime.calls_at_once)
        except AliasEngineError:
            raise
        except Exception as exc:  # fail closed: never return text as analysed when it was not
            raise ModelError(f"model inference failed ({type(exc).__name__})") from None

    @property
    def batch_independent(self) -> bool:
        """True when a window's logits do not depend on the other windows of its batch."""
        return self.runtime.batch_independent

    def _padded_width(self, step: int | None) -> WidthFn | None:
        """The padded width of a window of `n` positions: `n` rounded up to a multiple of `step`,
        at most the window length (None: a batch is padded to its longest window)."""
        if step is None:
            return None
        longest = self.window_size + 2
        return lambda n: min(-(-n // step) * step, longest)

    def detect_with(self, texts: Sequence[str], run: RunFn, *, windows_per_call: int = MAX_WINDOWS_PER_BATCH,
                    width: WidthFn | None = None, calls_at_once: int = 1) -> list[list[Span]]:
        """`detect` with another function computing logits (tests, instrumentation)."""
        encoded = [tokenize(self.tokenizer, text) for text in texts]
        for ids, _ in encoded:
            # "<s>", "</s>" or "<pad>" written in the text (HTML <s>…</s>) must not reach the
            # model as control tokens: it reads them as unknown text.
            ids[np.isin(ids, (self.bos_id, self.eos_id, self.pad_id))] = self.unk_id
        decoded = decode_windows([ids for ids, _ in encoded], run, size=self.window_size,
                                 overlap=self.window_overlap, bos=self.bos_id, eos=self.eos_id,
                                 pad=self.pad_id, batch_size=self.batch_size, biases=self.biases,
                                 recall_bias=self.recall_bias, progress=_progress.get(),
                                 windows_per_call=windows_per_call, width=width, calls_at_once=calls_at_once)
        return [self._spans(text, offsets, tags, path_logp)
                for text, (_, offsets), (tags, path_logp) in zip(texts, encoded, decoded)]

    def _spans(self, text: str, offsets: np.ndarray, tags: np.ndarray, path_logp: np.ndarray) -> list[Span]:
        spans = []
        for first, last, label, score in token_spans(tags, path_logp):
            snapped = snap_to_words(text, int(offsets[first, 0]), int(offsets[last, 1]), label)
            if not snapped or score < self.thresholds.get(label, 0.0) or not _has_alnum(text, *snapped):
                continue
            pieces = person_pieces(text, *snapped) if label == "PERSON" else [snapped]
            spans += [Span(start, end, label, score, "model") for start, end in pieces]
        return join_address_parts(merge_spans(spans, text), text)

    def _run(self, input_ids: np.ndarray, attention_mask: np.ndarray) -> np.ndarray:
        try:
            logits = self.runtime.run(input_ids, attention_mask)
        except ModelError:
            raise
        except Exception as exc:
            raise ModelError(f"model inference failed: {type(exc).__name__}: {str(exc)[:200]}") from None
        if logits.shape != (*input_ids.shape, N_TAGS):
            raise ModelError(f"model returned logits of shape {logits.shape}, expected {(*input_ids.shape, N_TAGS)}")
        return logits

    def _checked(self, runtime):
        """`runtime` after checking its inputs and outputs and a probe input's logits."""
        if not {"input_ids", "attention_mask"} <= runtime.inputs or "logits" not in runtime.outputs:
            raise ModelError(f"{self.model_path} has inputs {sorted(runtime.inputs)} and outputs "
                             f"{sorted(runtime.outputs)}; expected input_ids, attention_mask → logits")
        probe = np.array([[self.bos_id, self.eos_id]], dtype=np.int64)
        try:
            logits = runtime.run(probe, np.ones_like(probe))
        except Exception as exc:
            raise ModelError(f"{self.model_path} fails on a probe input: {type(exc).__name__}") from None
        if logits.shape != (1, 2, N_TAGS) or not np.all(np.isfinite(logits)):
            raise ModelError(f"{self.model_path} returns logits of shape {logits.shape}, expected [batch, seq, {N_TAGS}]")
        return runtime


def tokenize(tokenizer, text: str) -> tuple[np.ndarray, np.ndarray]:
    """Token ids and character offsets `[n, 2]` of `text` (int32), without special tokens.

    Texts longer than SEGMENT_CHARS are tokenized in pieces cut just before a
    space, which tokenizes like the whole text with a Metaspace tokenizer; a
    few pieces at a time, so that the tokenizer's own objects stay small.
    """
    pieces = _segments(text)
    ids: list[np.ndarray] = []
    offsets: list[np.ndarray] = []
    for g in range(0, len(pieces), SEGMENTS_PER_CALL):
        group = pieces[g:g + SEGMENTS_PER_CALL]
        for enc, (a, _) in zip(tokenizer.encode_batch([text[a:b] for a, b in group], add_special_tokens=False), group):
            ids.append(np.asarray(enc.ids, dtype=np.int32))
            offsets.append(np.asarray(enc.offsets, dtype=np.int32).reshape(-1, 2) + a)
    if len(ids) == 1:
        return ids[0], offsets[0]
    return np.concatenate(ids), np.concatenate(offsets)


def _segments(text: str) -> list[tuple[int, int]]:
    if len(text) <= SEGMENT_CHARS:
        return [(0, len(text))]
    pieces = []
    start = 0
    while len(text) - start > SEGMENT_CHARS:
        cut = start + SEGMENT_CHARS
        # Cut before the first space of a run of spaces, searching back half a segment.
        floor = start + SEGMENT_CHARS // 2
        while cut > floor and not (text[cut].isspace() and not text[cut - 1].isspace()):
            cut -= 1
        if cut == floor:
            cut = start + SEGMENT_CHARS
        pieces.append((start, cut))
        start = cut
    pieces.append((start, len(text)))
    return pieces


def decode_windows(
    token_ids: Sequence[np.ndarray],
    run: RunFn,
    *,
    size: int,
    overlap: int,
    bos: int,
    eos: int,
    pad: int,
    batch_size: int = DEFAULT_BATCH_SIZE,
    biases: DecodeBiases = NEUTRAL,
    recall_bias: float = 0.0,
    progress: ProgressFn | None = None,
    windows_per_call: int = MAX_WINDOWS_PER_BATCH,
    width: WidthFn | None = None,
    calls_at_once: int = 1,
) -> list[tuple[np.ndarray, np.ndarray]]:
    """`(tags, path_logp)` per sequence: windows batched across sequences, decoded in stream.

    Windows are sorted by length (stable: a sequence's windows stay in order),
    so short texts share batches with little padding and each decoder gets its
    windows one after the other. At most `windows_per_call` windows go to one `run`.
    With `width`, a window of n positions (special tokens included) is padded to
    `width(n)` and shares a call only with windows of that width: its logits cannot
    depend on the other windows of a call, even where padding would move them.
    `calls_at_once` calls run at once, in threads; their logits are fed in order.
    """
    plans = [plan_windows(len(ids), size, overlap) for ids in token_ids]
    work = sorted(((w.end - w.start, i, k) for i, plan in enumerate(plans) for k, w in enumerate(plan)))
    decoders = [StreamingDecoder(biases) for _ in token_ids]
    budget = batch_size * (size + 2)
    pos = 0
    if progress is not None:
        progress(0, len(work))  # tokenized: say so before the first (slow) batch
    padded = width or (lambda n: n)
    calls = []  # (windows' places in `work`, the width they are padded to)
    while pos < len(work):
        first = padded(work[pos][0] + 2)
        count = 1
        while pos + count < len(work) and count < windows_per_call:
            next_width = padded(work[pos + count][0] + 2)
            if (count + 1) * next_width > budget or (width is not None and next_width != first):
                break
            count += 1
        calls.append((pos, pos + count, first if width else None))
        pos += count

    def logits_of(call: tuple[int, int, int | None]) -> np.ndarray:
        start, end, call_width = call
        batch = work[start:end]
        return run(*_pack([token_ids[i] for _, i, _ in batch], [plans[i][k] for _, i, k in batch],
                          bos, eos, pad, width=call_width))

    for (start, end, _), logits in zip(calls, _in_order(logits_of, calls, calls_at_once)):
        for row, (_, i, k) in enumerate(work[start:end]):
            w = plans[i][k]
            a = 1 + w.keep_start - w.start
            decoders[i].feed(log_softmax(logits[row, a:a + w.keep_end - w.keep_start], recall_bias))
        if progress is not None:
            progress(end, len(work))
    return [d.finish() for d in decoders]


def _in_order(function: Callable, items: list, at_once: int) -> Iterator:
    """`function(item)` for each item, in order, `at_once` running at a time in threads (at most
    `at_once` + 1 results waiting: memory stays bounded however many items)."""
    if at_once <= 1 or len(items) <= 1:
        yield from map(function, items)
        return
    pool = ThreadPoolExecutor(at_once)
    try:
        pending: deque = deque()
        for item in items:
            pending.append(pool.submit(function, item))
            if len(pending) > at_once:
                yield pending.popleft().result()
        while pending:
            yield pending.popleft().result()
    finally:  # a failed call, or a caller that stops reading: the calls not started are dropped
        pool.shutdown(wait=True, cancel_futures=True)


def _pack(seqs: list[np.ndarray], windows: list[Window], bos: int, eos: int, pad: int,
          width: int | None = None) -> tuple[np.ndarray, np.ndarray]:
    width = width or max(w.end - w.start for w in windows) + 2
    input_ids = np.full((len(windows), width), pad, dtype=np.int64)
    mask = np.zeros((len(windows), width), dtype=np.int64)
    for row, (ids, w) in enumerate(zip(seqs, windows)):
        n = w.end - w.start
        input_ids[row, 0] = bos
        input_ids[row, 1:n + 1] = ids[w.start:w.end]
        input_ids[row, n + 1] = eos
        mask[row, :n + 2] = 1
    return input_ids, mask


def token_spans(tags: np.ndarray, path_logp: np.ndarray) -> list[tuple[int, int, str, float]]:
    """`(first_token, last_token, label, score)` for each B…E or S run of a legal tag sequence.

    The score is the mean probability of the path's tags over the span's tokens.
    """
    tags = np.asarray(tags, dtype=np.int64)
    inside = tags > 0
    kind = (tags - 1) % 4  # 0 B, 1 I, 2 E, 3 S
    starts = np.flatnonzero(inside & ((kind == 0) | (kind == 3)))
    ends = np.flatnonzero(inside & ((kind == 2) | (kind == 3)))
    if len(starts) != len(ends) or np.any(ends < starts):
        raise ModelError("decoder produced an illegal tag sequence")
    cum = np.concatenate(([0.0], np.cumsum(np.exp(path_logp.astype(np.float64)))))
    scores = (cum[ends + 1] - cum[starts]) / (ends - starts + 1)
    labels = (tags[starts] - 1) // 4
    return [(int(s), int(e), LABELS[lab], float(sc)) for s, e, lab, sc in zip(starts, ends, labels, scores)]


_SAME_LINE = regex.compile(r"[ \t,]*")
_NUMBER_BEFORE = regex.compile(r"(?<![\w-])\d{1,6}[A-Za-z]?[ \t]+$")
_ADDRESS_GAP = regex.compile(r"[ \t]*(?:,?[ \t]*\r?\n[ \t]*,?[ \t]*|,[ \t]*|[ \t]+(?:\w{1,3}\.?[ \t]+)?)")


def join_address_parts(spans: list[Span], text: str) -> list[Span]:
    """An address is one span (LABELS.md): take in a house number or postcode written just
    before it on the same line, join two ADDRESS spans separated only by a line break,
    a comma or one short word ("Dr", "St."), and take back the start of the address's
    first line from a PERSON span that ran over the line break ("John Smith⏎Flat" + "2 …")."""
    out: list[Span] = []
    for span in spans:
        prev = out[-1] if out else None
        if span.label == "ADDRESS" and prev is not None and prev.label == "PERSON":
            line = text.rfind("\n", prev.start, prev.end)
            if line > prev.start and _SAME_LINE.fullmatch(text, prev.end, span.start):
                head = snap_to_words(text, prev.start, line, "PERSON")
                first = snap_to_words(text, line, prev.end, "ADDRESS")
                if head and first:
                    out[-1] = Span(head[0], head[1], "PERSON", prev.score, prev.source, prev.verified)
                    span = Span(first[0], span.end, span.label, span.score, span.source, span.verified)
        if span.label == "ADDRESS":
            floor = out[-1].end if out else 0
            m = _NUMBER_BEFORE.search(text, max(floor, span.start - 16), span.start)
            if m:
                span = Span(m.start(), span.end, span.label, span.score, span.source, span.verified)
            prev = out[-1] if out else None
            if prev is not None and prev.label == "ADDRESS" and _ADDRESS_GAP.fullmatch(text, prev.end, span.start):
                out[-1] = Span(prev.start, span.end, "ADDRESS", max(prev.score, span.score), "model")
                continue
        out.append(span)
    return out


_OPENING_BRACKET = regex.compile(r"[(\[]")
_CLOSING_BRACKET = regex.compile(r"[)\]]")
_CAPITALISED = regex.compile(r"(?<![\p{L}\p{M}])\p{Lu}")


def person_pieces(text: str, start: int, end: int) -> list[tuple[int, int]]:
    """A PERSON span without its bracketed asides: `Terry Kent (footballer)` is the name
    `Terry Kent`. Text after the brackets stays a name (`Jean (Johnny) Dupont`), and so does
    the bracketed part from its first capitalised word (`(Johnny)`, `(née Martin)`)."""
    pieces = []
    pos = start
    while pos < end:
        opening = _OPENING_BRACKET.search(text, pos, end)
        head = snap_to_words(text, pos, opening.start() if opening else end, "PERSON")
        if head:
            pieces.append(head)
        if opening is None:
            break
        closing = _CLOSING_BRACKET.search(text, opening.end(), end)
        inner_end = closing.start() if closing else end
        capital = _CAPITALISED.search(text, opening.end(), inner_end)
        inner = snap_to_words(text, capital.start(), inner_end, "PERSON") if capital else None
        if inner:
            pieces.append(inner)
        pos = closing.end() if closing else end
    return pieces or [(start, end)]


def _has_alnum(text: str, start: int, end: int) -> bool:
    """No personal value is punctuation alone ("???", "?!?!" are not secrets)."""
    return any(text[i].isalnum() for i in range(start, end))
