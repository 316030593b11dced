"""alias-engine as a Presidio recognizer (`pip install "alias-engine[presidio]"`).

```python
from presidio_analyzer import AnalyzerEngine
from alias_engine.adapters.presidio import blank_nlp_engine, registry

analyzer = AnalyzerEngine(registry=registry(), nlp_engine=blank_nlp_engine(), supported_languages=["en", "fr"])
results = analyzer.analyze("Appelez Jean Dupont au 06 12 34 56 78", language="fr")
```

`AliasEngineRecognizer` runs one `Engine` (rules, the model, your detectors) and
returns `RecognizerResult`s named by Presidio's entity names
(`presidio_entities.PRESIDIO_ENTITIES`, docs/presidio.md). A Presidio recognizer
serves one language: `recognizers()` gives one per language, sharing one Engine.
Detection fails closed: an engine error propagates out of `AnalyzerEngine.analyze`
(Presidio does not catch it), so nothing is returned as analysed when it was not.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from ..errors import AliasEngineError
from . import require
from .presidio_entities import label_of, presidio_entities, presidio_entity

require("presidio_analyzer", "presidio", "the Presidio recognizer")
from presidio_analyzer import AnalysisExplanation, EntityRecognizer, RecognizerRegistry, RecognizerResult  # noqa: E402

LANGUAGES = ("en", "fr")


def _engine(engine: Any, options: dict) -> Any:
    if engine is not None:
        if options:
            raise AliasEngineError("pass either an engine or Engine options, not both")
        if not hasattr(engine, "detect"):
            raise AliasEngineError(f"engine must be an alias_engine.Engine, not {type(engine).__name__}")
        return engine
    from ..engine import Engine

    return Engine(**options)


class AliasEngineRecognizer(EntityRecognizer):
    """Presidio recognizer for one language, backed by an alias-engine `Engine`.

    `engine`: an Engine (default: `Engine(**engine_options)`, the shipped rules and model).
    `supported_language`: "en" or "fr" (the rules' languages). `supported_entities`:
    Presidio names to report (default: every name the engine's labels give).
    """

    name: str  # EntityRecognizer.__init__ sets it; mypy cannot infer its type there

    def __init__(self, engine: Any = None, supported_language: str = "en",
                 supported_entities: Sequence[str] | None = None, name: str = "AliasEngineRecognizer",
                 **engine_options: Any) -> None:
        self.engine = _engine(engine, engine_options)
        langs = [lang for lang in getattr(self.engine, "langs", LANGUAGES) if lang != "auto"]
        if supported_language not in langs:
            raise AliasEngineError(f"supported_language must be one of {', '.join(langs)}, "
                                   f"not {supported_language!r}")
        known = presidio_entities(getattr(self.engine, "labels", ()))
        entities = list(known if supported_entities is None else supported_entities)
        unknown = [e for e in entities if e not in known]
        if unknown:
            raise AliasEngineError(f"entities this engine cannot find: {', '.join(map(str, unknown))} "
                                   f"(it finds {', '.join(known)})")
        super().__init__(supported_entities=entities, name=name, supported_language=supported_language,
                         version="alias-engine")

    def load(self) -> None:
        """Nothing to load here: the Engine loads its model on first use."""

    def analyze(self, text: str, entities: Sequence[str] | None = None, nlp_artifacts: Any = None
                ) -> list[RecognizerResult]:
        """Spans of `text` as RecognizerResults (only `entities` when given; NLP artifacts are not read)."""
        wanted = set(entities) if entities else set(self.supported_entities)
        results = []
        for span in self.engine.detect(text, self.supported_language):
            entity = presidio_entity(span.label, text[span.start:span.end])
            if entity not in wanted:
                continue
            explanation = AnalysisExplanation(recognizer=self.name, original_score=span.score,
                                              textual_explanation=f"alias-engine {span.label} ({span.source})")
            results.append(RecognizerResult(entity, span.start, span.end, span.score, explanation, {
                RecognizerResult.RECOGNIZER_NAME_KEY: self.name,
                RecognizerResult.RECOGNIZER_IDENTIFIER_KEY: self.id,
                "alias_engine_label": span.label,
                "alias_engine_source": span.source,
            }))
        return results


def recognizers(engine: Any = None, languages: Iterable[str] = LANGUAGES, **engine_options: Any
                ) -> list[AliasEngineRecognizer]:
    """One recognizer per language, all running one Engine (loaded once)."""
    engine = _engine(engine, engine_options)
    return [AliasEngineRecognizer(engine, supported_language=lang) for lang in languages]


def registry(engine: Any = None, languages: Iterable[str] = LANGUAGES, **engine_options: Any):
    """A RecognizerRegistry holding only alias-engine, for `AnalyzerEngine(registry=...)`.
    (To run it beside Presidio's own recognizers: `analyzer.registry.add_recognizer(r)`
    for each of `recognizers()`.)"""
    languages = list(languages)
    return RecognizerRegistry(recognizers=recognizers(engine, languages, **engine_options),
                              supported_languages=languages)


def blank_nlp_engine(languages: Iterable[str] = LANGUAGES):
    """A Presidio NLP engine of blank spaCy pipelines (a tokenizer, no model to download):
    AliasEngineRecognizer reads no NLP artifacts, so AnalyzerEngine needs nothing more."""
    import spacy
    from presidio_analyzer.nlp_engine import SpacyNlpEngine

    languages = list(languages)
    nlp_engine = SpacyNlpEngine(models=[{"lang_code": lang, "model_name": f"blank:{lang}"} for lang in languages])
    # loaded: AnalyzerEngine won't download (Presidio types nlp as None, what it is until load() fills it)
    nlp_engine.nlp = {lang: spacy.blank(lang) for lang in languages}  # type: ignore[assignment]
    return nlp_engine


def spans_of(results: Iterable[Any]) -> list:
    """RecognizerResults (ours or any recognizer's named by the table) as alias-engine Spans, sorted."""
    from ..spans import Span

    return sorted((Span(r.start, r.end, label_of(r.entity_type), float(r.score), "custom") for r in results),
                  key=lambda s: (s.start, s.end))
