"""The Engine: normalise → detectors → merger → masks, and back with unmask."""

from __future__ import annotations

import math
import threading
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

from .detectors.rules import detect_with_rules, load_rules, without_non_names
from .errors import AliasEngineError, InputError, ModelError
from .labels import LABELS, check_labels
from .language import guess_language
from .masks import DEFAULT_PLACEHOLDER, MaskResult, check_placeholder_format, mask_spans
from .merge import merge_spans
from .normalize import normalize
from .resources import data_dir
from .restore import unmask as _unmask
from .spans import Span

LANGS = ("auto", "fr", "en")
DEFAULT_MAX_CHARS = 20_000_000


class Engine:
    """Detect personal data in French and English text and mask it reversibly.

    `labels`: labels to detect and mask (default: all). `threshold`: minimum
    score of a span. `lang`: "fr", "en" or "auto". `placeholder`: format with
    `{label}` and `{n}`. `use_model`: True requires the model, False is rules
    only, None (default) is the same as True. `model_dir` and `rules_dir` override the shipped data.
    """

    def __init__(
        self,
        *,
        labels: Iterable[str] | None = None,
        threshold: float = 0.5,
        lang: str = "auto",
        placeholder: str = DEFAULT_PLACEHOLDER,
        use_model: bool | None = None,
        model_dir: str | Path | None = None,
        rules_dir: str | Path | None = None,
        threads: int | None = None,
        recall_bias: float = 0.0,
        max_chars: int = DEFAULT_MAX_CHARS,
    ) -> None:
        if lang not in LANGS:
            raise ValueError(f"lang must be one of {', '.join(LANGS)}, not {lang!r}")
        if not 0.0 <= threshold <= 1.0:
            raise ValueError("threshold must be between 0 and 1")
        if threads is not None and (not isinstance(threads, int) or isinstance(threads, bool) or threads < 1):
            raise ValueError(f"threads must be a positive integer or None, not {threads!r}")
        if not isinstance(recall_bias, (int, float)) or not math.isfinite(recall_bias):
            raise ValueError(f"recall_bias must be a finite number, not {recall_bias!r}")
        self.labels = check_labels(LABELS if labels is None else tuple(labels))
        self.threshold = threshold
        self.lang = lang
        self.placeholder = check_placeholder_format(placeholder)
        self.max_chars = max_chars
        self.rules = load_rules(Path(rules_dir) if rules_dir else data_dir("rules"))
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
                                                     recall_bias=self.recall_bias)
        return self._model

    def detect(self, text: str, lang: str | None = None) -> list[Span]:
        """Spans of personal data in `text`: sorted, non-overlapping, offsets into `text`."""
        return self.detect_many([text], lang)[0]

    def detect_many(self, texts: Sequence[str], lang: str | None = None) -> list[list[Span]]:
        """`detect` for several texts at once (the model sees them as one batch)."""
        for text in texts:
            self._check_text(text)
        lang = self._check_lang(lang)
        views = [normalize(text) for text in texts]
        model = self.model
        try:
            model_spans = model.detect([v.text for v in views]) if model is not None else [[] for _ in views]
        except AliasEngineError:
            raise
        except Exception as exc:  # fail closed: never return text as analysed when it was not
            raise ModelError(f"model inference failed ({type(exc).__name__})") from None
        results = []
        for view, from_model in zip(views, model_spans):
            chosen_lang = guess_language(view.text) if lang == "auto" else lang
            try:
                from_model = without_non_names(from_model, view.text, self.rules.not_names)
                candidates = list(detect_with_rules(view.text, chosen_lang, self.rules, from_model))
            except AliasEngineError:
                raise
            except Exception as exc:
                raise AliasEngineError(f"rule detection failed ({type(exc).__name__})") from None
            kept = [s for s in candidates if s.label in self.labels and s.score >= self.threshold]
            merged = merge_spans(kept, view.text)
            results.append([self._to_original(view, s) for s in merged])
        return results

    def mask(self, text: str, lang: str | None = None) -> MaskResult:
        """`text` with every detected span replaced by a placeholder, and the mapping back."""
        return mask_spans(text, self.detect(text, lang), self.placeholder)

    def unmask(self, text: str, mapping: Mapping[str, str | list[str]]) -> str:
        """Restore the original values of `mapping` in `text`."""
        return _unmask(text, mapping)

    def session(self, mode: str = "placeholder", key: bytes | str | None = None, lang: str | None = None):
        """A conversation: the same value gets the same pseudonym in every turn (see docs/pseudonymisation.md)."""
        from .pseudonymise import Session

        return Session(self, mode=mode, key=key, lang=lang)

    def _check_text(self, text: object) -> None:
        if not isinstance(text, str):
            raise InputError(f"text must be str, not {type(text).__name__}")
        if len(text) > self.max_chars:
            raise InputError(f"text of {len(text):,} characters is over the limit of {self.max_chars:,}")

    def _check_lang(self, lang: str | None) -> str:
        lang = lang or self.lang
        if lang not in LANGS:
            raise ValueError(f"lang must be one of {', '.join(LANGS)}, not {lang!r}")
        return lang

    @staticmethod
    def _to_original(view, span: Span) -> Span:
        start, end = view.to_original(span.start, span.end)
        if (start, end) == (span.start, span.end):
            return span
        return Span(start, end, span.label, span.score, span.source, span.verified)
