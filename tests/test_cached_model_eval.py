"""The model-span cache of benchmarks/rule_ablation.py, which benchmarks/cached_model_eval.py scores every
set with: the model runs once a text, a later run reads its spans from the file, and the engine gives the
spans it gives with the model itself."""

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


class ModelEngine:
    def __init__(self, model) -> None:
        self.model = model


def test_the_model_runs_once_a_text_and_a_later_run_reads_its_spans(tmp_path):
    load_benchmark("cached_model_eval")  # it imports
    rule_ablation = load_benchmark("rule_ablation")
    texts = ["Ask Quarrington about it.", "Nothing here."]
    engine = Engine(use_model=False)
    engine.use_model = True
    model = CountingModel()
    engine._model = model
    expected = engine.detect_many(texts, "en")
    assert [text[s.start:s.end] for text, spans in zip(texts, expected) for s in spans] == ["Quarrington"]

    cache: dict = {}
    engine._model = rule_ablation.CachedModel(ModelEngine(model), cache, [None])
    assert engine.detect_many(texts, "en") == expected
    assert engine.detect_many(texts, "en") == expected
    assert len(model.texts) == 4  # twice by the engine above, once through the cache
    path = tmp_path / "cache.pkl"
    rule_ablation.save_cache(path, cache)

    engine._model = rule_ablation.CachedModel(ModelEngine(None), rule_ablation.load_cache(path), [None])  # no model
    assert engine.detect_many(texts, "en") == expected
