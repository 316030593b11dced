"""benchmarks/cached_model_eval.py: the model runs once a text, its spans are read back from the cache
file by a later run, and the engine then gives the spans it gives with the model itself."""

from __future__ import annotations

from test_pooled_evals import load_benchmark

from alias_engine import Engine
from alias_engine.spans import Span


class CountingModel:
    role = "model"

    def __init__(self) -> None:
        self.texts: list[str] = []

    def detect(self, texts, langs):
        self.texts += texts
        return [[Span(t.index("Quarrington"), t.index("Quarrington") + 11, "PERSON", 0.99, "model")]
                if "Quarrington" in t else [] for t in texts]


def test_the_model_runs_once_a_text_and_a_later_run_reads_its_spans(tmp_path):
    cached_model_eval = load_benchmark("cached_model_eval")
    texts = ["Ask Quarrington about it.", "Nothing here."]
    engine = Engine(use_model=False)
    engine.use_model = True
    model = CountingModel()
    engine._model = model
    expected = engine.detect_many(texts, "en")
    assert [engine_text[s.start:s.end] for engine_text, spans in zip(texts, expected) for s in spans] == ["Quarrington"]

    path = tmp_path / "cache.jsonl"
    first = cached_model_eval.CachedModel(engine, path)
    first.model = model
    engine._model = first
    assert engine.detect_many(texts, "en") == expected
    assert engine.detect_many(texts, "en") == expected
    assert len(model.texts) == 4 and first.misses == 2  # twice by the engine above, once through the cache

    second = cached_model_eval.CachedModel(engine, path)  # a later run: the file alone
    engine._model = second
    assert engine.detect_many(texts, "en") == expected
    assert second.model is None and second.misses == 0
