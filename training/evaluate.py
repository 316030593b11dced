"""Model-alone strict scoring of an ONNX tagger on a jsonl file (training-side check).

    python -m training.evaluate --model build/export/model.int8.onnx \
        --tokenizer build/export/tokenizer.json --data build/data/heldout.jsonl

Strict: a predicted span counts only with the same label and both boundaries
exact. Gold spans with labels outside LABELS (e.g. presidio's DATE) and
predictions that fall on `ignored_spans` are left out of the counts.
"""

from __future__ import annotations

import argparse
import json
import time
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

from alias_engine.labels import LABELS

SpanT = tuple[int, int, str]


@dataclass(frozen=True)
class Scores:
    tp: Counter
    fp: Counter
    fn: Counter

    def prf(self, label: str | None = None) -> tuple[float, float, float]:
        if label is None:
            tp, fp, fn = sum(self.tp.values()), sum(self.fp.values()), sum(self.fn.values())
        else:
            tp, fp, fn = self.tp[label], self.fp[label], self.fn[label]
        p = tp / (tp + fp) if tp + fp else 0.0
        r = tp / (tp + fn) if tp + fn else 0.0
        f = 2 * p * r / (p + r) if p + r else 0.0
        return p, r, f

    def table(self) -> str:
        lines = [f"{'label':<12} {'P':>6} {'R':>6} {'F1':>6} {'gold':>6}"]
        for label in LABELS:
            gold = self.tp[label] + self.fn[label]
            if gold or self.fp[label]:
                p, r, f = self.prf(label)
                lines.append(f"{label:<12} {p:6.3f} {r:6.3f} {f:6.3f} {gold:6d}")
        p, r, f = self.prf()
        lines.append(f"{'micro':<12} {p:6.3f} {r:6.3f} {f:6.3f} {sum(self.tp.values()) + sum(self.fn.values()):6d}")
        return "\n".join(lines)

    def as_dict(self) -> dict:
        out = {label: dict(zip(("p", "r", "f1"), self.prf(label), strict=True)) for label in LABELS}
        out["micro"] = dict(zip(("p", "r", "f1"), self.prf(), strict=True))
        return out


def score(
    golds: Iterable[Sequence[SpanT]], preds: Iterable[Sequence[SpanT]], ignored: Iterable[Sequence[tuple[int, int]]]
) -> Scores:
    tp, fp, fn = Counter(), Counter(), Counter()
    for gold, pred, ign in zip(golds, preds, ignored, strict=True):
        gold_set = {g for g in gold if g[2] in LABELS}
        skip = [(s, e) for s, e in ign] + [(g[0], g[1]) for g in gold if g[2] not in LABELS]
        for p in pred:
            if p in gold_set:
                tp[p[2]] += 1
            elif not any(p[0] < e and s < p[1] for s, e in skip):
                fp[p[2]] += 1
        for g in gold_set:
            if g not in pred:
                fn[g[2]] += 1
    return Scores(tp, fp, fn)


class OnnxTagger:
    """An ONNX file and its tokenizer read the way the engine reads them: the runtime's model
    detector (its windows, constrained BIOES decoding and word snapping), no rules."""

    def __init__(self, model: Path, tokenizer: Path, threads: int = 2, window: int = 256):
        from alias_engine.detectors.model import ModelDetector, read_tokenizer

        self.detector = ModelDetector(model, read_tokenizer(tokenizer), window_length=window, threads=threads)

    def tag_many(self, texts: list[str]) -> list[list[SpanT]]:
        return [[(s.start, s.end, s.label) for s in spans] for spans in self.detector.detect(texts)]


class EngineModelTagger:
    """The engine's own model detector (constrained Viterbi decoding, word snapping), no rules."""

    def __init__(self, model_dir: Path, threads: int = 1):
        from alias_engine.detectors.model import ModelDetector

        self.detector = ModelDetector.load(model_dir, threads=threads)

    def tag_many(self, texts: list[str]) -> list[list[SpanT]]:
        return [[(s.start, s.end, s.label) for s in spans] for spans in self.detector.detect(texts)]


def read_eval(path: Path) -> list[dict]:
    with path.open(encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]


def evaluate(tagger: OnnxTagger | EngineModelTagger, docs: list[dict]) -> tuple[Scores, float]:
    preds: list[list[SpanT]] = []
    t0 = time.perf_counter()
    for i in range(0, len(docs), 16):
        preds += tagger.tag_many([d["text"] for d in docs[i : i + 16]])
    elapsed = time.perf_counter() - t0
    golds = [[(s["start"], s["end"], s["label"]) for s in d["spans"]] for d in docs]
    ignored = [[(s["start"], s["end"]) for s in d.get("ignored_spans", [])] for d in docs]
    return score(golds, preds, ignored), elapsed


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description="strict model-alone scores of an ONNX tagger")
    ap.add_argument("--model", type=Path, required=True, help="model.onnx, or with --engine a folder")
    ap.add_argument("--tokenizer", type=Path, help="tokenizer.json (not with --engine)")
    ap.add_argument("--engine", action="store_true", help="decode with the engine's model detector")
    ap.add_argument("--data", type=Path, nargs="+", required=True)
    ap.add_argument("--limit", type=int, default=0)
    args = ap.parse_args(argv)
    tagger = EngineModelTagger(args.model) if args.engine else OnnxTagger(args.model, args.tokenizer)
    for path in args.data:
        docs = read_eval(path)
        if args.limit:
            docs = docs[: args.limit]
        scores, elapsed = evaluate(tagger, docs)
        chars = sum(len(d["text"]) for d in docs)
        print(f"== {path} ({len(docs)} docs, {elapsed:.1f} s, {chars / elapsed / 1000:.1f} kchar/s)")
        print(scores.table())


if __name__ == "__main__":
    main()
