"""The Engine: normalise → detectors → resolve → merger → repeats → masks, and back with unmask."""

from __future__ import annotations

import math
import threading
from collections.abc import Callable, Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

from .detectors.backends import check_backend
from .detectors.base import Detector, DetectorError, Findings, as_detector, role_of
from .detectors.rules import load_rules, rule_detectors
from .errors import AliasEngineError, InputError
from .masks import MaskResult, mask_spans
from .merge import merge_spans
from .normalize import check_text, normalize
from .placeholders import DEFAULT_PLACEHOLDER, check_placeholder_format
from .repeats import repeated_values
from .resolve import DEFAULT_THRESHOLD, ROLES, Found, resolve
from .resolve.structure import repeats_outside_fields
from .resources import data_dir
from .restore import unmask
from .spans import Span, Suppression

LANGS = ("auto", "fr", "en")  # those of the shipped rules; Engine.langs has those of its rules
DEFAULT_MAX_CHARS = 20_000_000


class Engine:
    """Detect personal data in French and English text and mask it reversibly.

    `labels`: labels to detect and mask (default: all). `threshold`: minimum
    score of a span. `lang`: "fr", "en" or "auto". `placeholder`: format with
    `{label}` and `{n}`. `use_model`: True requires the model, False is rules
    only, None (default) is the same as True. `model_dir` and `rules_dir` override the shipped data.
    `backend`: what runs the model, "onnxruntime", "openvino" or "auto" (default: OpenVINO
    in bf16 where the CPU computes bf16 in AMX tiles or is an AMD CPU with AVX512-BF16, ONNX Runtime
    elsewhere; docs/backends.md).
    `detectors`: more detectors, run with the rules and the model: objects with
    `detect(texts, langs) -> list[list[Span]]` or plain functions
    `f(text) -> iterable of Span or (start, end, label[, score])`, offsets into the
    original text (docs/architecture.md says how their spans are ranked).
    `extra_rules`: rules files read after the shipped ones; they may declare new
    labels with their values, keyword rules and patterns (docs/rules.md).
    """

    def __init__(
        self,
        *,
        labels: Iterable[str] | None = None,
        threshold: float = DEFAULT_THRESHOLD,
        lang: str = "auto",
        placeholder: str = DEFAULT_PLACEHOLDER,
        use_model: bool | None = None,
        model_dir: str | Path | None = None,
        rules_dir: str | Path | None = None,
        threads: int | None = None,
        recall_bias: float = 0.0,
        backend: str = "auto",
        max_chars: int = DEFAULT_MAX_CHARS,
        detectors: Iterable[Detector | Callable[[str], Iterable]] = (),
        extra_rules: Iterable[str | Path] = (),
    ) -> None:
        if not 0.0 <= threshold <= 1.0:
            raise ValueError("threshold must be between 0 and 1")
        if threads is not None and (not isinstance(threads, int) or isinstance(threads, bool) or threads < 1):
            raise ValueError(f"threads must be a positive integer or None, not {threads!r}")
        if not isinstance(recall_bias, (int, float)) or not math.isfinite(recall_bias):
            raise ValueError(f"recall_bias must be a finite number, not {recall_bias!r}")
        self.backend = check_backend(backend)
        self.extra_rules = tuple(Path(p) for p in extra_rules)
        self.rules = load_rules(Path(rules_dir) if rules_dir else data_dir("rules"), self.extra_rules)
        self.labels = self.rules.labels.check(self.rules.labels.names if labels is None else tuple(labels))
        self.langs = ("auto", *self.rules.languages.names)  # "auto" and the language folders of the rules
        self.threshold = threshold
        if lang not in self.langs:
            raise ValueError(f"lang must be one of {', '.join(self.langs)}, not {lang!r}")
        self.lang = lang
        self.placeholder = check_placeholder_format(placeholder)
        self.max_chars = max_chars
        self.rule_detectors = rule_detectors(self.rules)
        self.detectors: tuple[Detector, ...] = tuple(as_detector(d) for d in detectors)
        for detector in self.detectors:
            if role_of(detector) not in ROLES:
                raise ValueError(f"detector {_name(detector)}: role must be one of {', '.join(ROLES)}, "
                                 f"not {role_of(detector)!r}")
        self.model_dir = Path(model_dir) if model_dir else data_dir("models")
        self.threads = threads
        self.recall_bias = recall_bias
        self.use_model = self._model_wanted(use_model)
        self._model: Any = None
        self._model_lock = threading.Lock()

    def _model_wanted(self, use_model: bool | None) -> bool:
        # The default is the shipped model: missing or broken, it is an error (fail closed);
        # rules only must be asked for.
        return True if use_model is None else use_model

    @property
    def model(self) -> Any:
        """The model detector, loaded on first use (None when rules only)."""
        if self.use_model and self._model is None:
            with self._model_lock:
                if self._model is None:
                    from .detectors.model import ModelDetector

                    self._model = ModelDetector.load(self.model_dir, threads=self.threads,
                                                     recall_bias=self.recall_bias, backend=self.backend)
        return self._model

    def detect(self, text: str, lang: str | None = None) -> list[Span]:
        """Spans of personal data in `text`: sorted, non-overlapping, offsets into `text`.

        Any `str` is accepted but one holding a lone surrogate (`"\\ud800"`): InputError."""
        return self.detect_many([text], lang)[0]

    def detect_many(self, texts: Sequence[str], lang: str | None = None) -> list[list[Span]]:
        """`detect` for several texts at once (the model sees them as one batch).

        normalise → detectors (rules, model, the user's) → resolve → merge → repeats (a confident name
        masked wherever else it is written), and back to offsets into each original text.
        """
        for text in texts:
            self._check_text(text)
        lang = self._check_lang(lang)
        views = [normalize(text) for text in texts]
        langs = [self.rules.languages.guess(view.text) if lang == "auto" else lang for view in views]
        found = [Found() for _ in views]
        for detector in self._own_detectors():  # they read the normalised texts
            for item, spans in zip(found, self._run(detector, [v.text for v in views], langs)):
                item.add(role_of(detector), spans)
        for detector in self.detectors:  # the user's read the texts as given
            for item, view, spans in zip(found, views, self._run(detector, list(texts), langs)):
                self._check_labels_of(detector, spans)
                item.add(role_of(detector), self._to_view_all(view, spans))
        results = []
        for item, view, chosen_lang in zip(found, views, langs):
            candidates = resolve(view.text, chosen_lang, item, self.rules.patterns, self.rules.not_names,
                                 self.rules.model_checks, self.rules.fields, self.threshold)
            kept = [s for s in candidates if s.label in self.labels and s.score >= self.threshold]
            merged = merge_spans(kept, view.text, self.rules.labels)
            repeats = repeated_values(view.text, merged, self.rules.lexicon, labels=self.rules.labels)
            merged = sorted(merged + repeats_outside_fields(repeats, candidates.without_persons))
            spans = [self._to_original(view, s) for s in merged]
            if any(b.start < a.end for a, b in zip(spans, spans[1:])):
                spans = merge_spans(spans, view.original, self.rules.labels)  # two spans that one original cluster joins (`½` is `1⁄2`)
            results.append(spans)
        return results

    def _check_labels_of(self, detector: Detector, spans: Iterable[Span]) -> None:
        for span in spans:
            if span.label not in self.rules.labels:  # never drop it silently: a value would stay readable
                raise DetectorError(f"{_name(detector)} returned the unknown label {span.label!r}: declare it in a "
                                    "rules file (Engine(extra_rules=[...]), docs/rules.md)")

    def _own_detectors(self) -> tuple[Detector, ...]:
        """The rules' detectors, then the model (when used)."""
        model = self.model
        return self.rule_detectors if model is None else (*self.rule_detectors, model)

    @staticmethod
    def _run(detector: Detector, texts: list[str], langs: list[str]) -> list[list[Span]]:
        """Run one detector on every text; any failure is an AliasEngineError (fail closed: nothing is
        returned as analysed when a detector could not run)."""
        try:
            spans_per_text = detector.detect(texts, langs)
        except AliasEngineError:
            raise
        except Exception as exc:
            raise AliasEngineError(f"detector {_name(detector)} failed ({type(exc).__name__})") from None
        if len(spans_per_text) != len(texts):
            raise AliasEngineError(f"detector {_name(detector)} returned {len(spans_per_text)} results "
                                   f"for {len(texts)} texts")
        return spans_per_text

    def mask(self, text: str, lang: str | None = None, *, spans: Sequence[Span] | None = None) -> MaskResult:
        """`text` with every span replaced by a placeholder, and the mapping back:
        `unmask(result.text, result.mapping) == text` for every text (docs/architecture.md).

        `spans`: the spans to mask (sorted, non-overlapping, offsets into `text`, as
        `detect` returns them, possibly filtered or edited); by default `detect(text, lang)`.
        """
        if spans is None:
            spans = self.detect(text, lang)
        else:
            self._check_text(text)
            spans = _checked_spans(text, spans)
        return mask_spans(text, spans, self.placeholder, labels=self.rules.labels)

    def unmask(self, text: str, mapping: Mapping[str, str | list[str]]) -> str:
        """Restore the original values of `mapping` in `text` (`alias_engine.unmask`, with the labels
        this engine's rules declare)."""
        return unmask(text, mapping, self.rules.labels)

    def session(self, mode: str = "placeholder", key: bytes | str | None = None, lang: str | None = None):
        """A conversation: the same value gets the same pseudonym in every turn (see docs/pseudonymisation.md)."""
        from .pseudonymise import Session

        return Session(self, mode=mode, key=key, lang=lang)

    def _check_text(self, text: object) -> None:
        text = check_text(text)
        if len(text) > self.max_chars:
            raise InputError(f"text of {len(text):,} characters is over the limit of {self.max_chars:,}")

    def _check_lang(self, lang: str | None) -> str:
        lang = lang or self.lang
        if lang not in self.langs:
            raise ValueError(f"lang must be one of {', '.join(self.langs)}, not {lang!r}")
        return lang

    @classmethod
    def _to_view_all(cls, view, spans: list[Span]) -> list[Span]:
        """A user detector's spans (and the regions it clears) with offsets into the normalised text."""
        in_view = Findings(s for s in map(lambda s: cls._to_view(view, s), spans) if s is not None)
        for region in getattr(spans, "suppressions", ()):
            start, end = view.to_view(region.start, region.end)
            if start < end:
                in_view.suppressions.append(Suppression(start, end, region.labels))
        return in_view

    @staticmethod
    def _to_view(view, span: Span) -> Span | None:
        start, end = view.to_view(span.start, span.end)
        if start >= end:
            return None  # only characters the view removes (zero-width, soft hyphens)
        if (start, end) == (span.start, span.end):
            return span
        return Span(start, end, span.label, span.score, span.source, span.verified)

    @staticmethod
    def _to_original(view, span: Span) -> Span:
        start, end = view.to_original(span.start, span.end)
        if (start, end) == (span.start, span.end):
            return span
        return Span(start, end, span.label, span.score, span.source, span.verified)




def _name(detector: object) -> str:
    return str(getattr(detector, "name", type(detector).__name__))


def _checked_spans(text: str, spans: Sequence[Span]) -> list[Span]:
    spans = sorted(spans, key=lambda s: (s.start, s.end))
    for i, span in enumerate(spans):
        if not isinstance(span, Span) or span.end > len(text):
            raise InputError(f"not a span of this text: {span!r}")
        if i and span.start < spans[i - 1].end:
            raise InputError(f"overlapping spans: {spans[i - 1]!r} and {span!r}")
    return spans
