"""benchmarks/pooled_evals.py sums counts over sets before taking F1, and reads a model scored under
several tags from the first tag that has each set."""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path

import pytest

PATH = Path(__file__).resolve().parents[1] / "benchmarks" / "pooled_evals.py"


def load_benchmark(name: str):
    """benchmarks/NAME.py as a module (benchmarks/ is not a package)."""
    spec = importlib.util.spec_from_file_location(name, PATH.parent / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module  # a dataclass looks its module up there
    spec.loader.exec_module(module)
    return module


def _module():
    return load_benchmark("pooled_evals")


def write_eval(root: Path, tag: str, name: str, gold: int, tp: int, fp: int, readable: int) -> None:
    counts = {"gold": gold, "tp": tp, "fp": fp, "leak_full": readable}
    (root / tag).mkdir(parents=True, exist_ok=True)
    (root / tag / f"{name}.json").write_text(json.dumps(
        {"evaluations": [{"name": "all", "micro": counts, "per_label": {"PERSON": counts}}]}), encoding="utf-8")


def test_counts_are_summed_before_f1_and_a_split_model_reads_each_set_from_its_tag(tmp_path, capsys):
    pooled_evals = _module()
    write_eval(tmp_path, "old", "a", gold=10, tp=10, fp=0, readable=0)
    write_eval(tmp_path, "new", "b", gold=90, tp=45, fp=45, readable=9)
    write_eval(tmp_path, "new", "a", gold=10, tp=0, fp=0, readable=10)  # shadowed: "old" comes first
    assert pooled_evals.main(["a b", "old+new", "--root", str(tmp_path), "--per-label"]) == 0
    out = capsys.readouterr().out
    # summed: tp 55, fp 45, gold 100 -> 2*55/(55+45+100) = 55.0 (the mean of the two sets' F1 would be 75)
    assert "old+new: 55.00 / 9 readable of 100 (tp 55, fp 45)" in out
    assert "| PERSON | 100 | 55.0 / 9 (45) |" in out


def test_a_missing_set_is_a_clear_error(tmp_path):
    pooled_evals = _module()
    write_eval(tmp_path, "old", "a", gold=1, tp=1, fp=0, readable=0)
    with pytest.raises(SystemExit, match="no b.json under"):
        pooled_evals.main(["a b", "old", "--root", str(tmp_path)])


def test_per_set_gives_each_set_its_own_row_beside_the_pooled_figure(tmp_path, capsys):
    pooled_evals = _module()
    write_eval(tmp_path, "m", "a", gold=10, tp=10, fp=0, readable=0)
    write_eval(tmp_path, "m", "b", gold=90, tp=45, fp=45, readable=9)
    assert pooled_evals.main(["a b", "m", "--root", str(tmp_path), "--per-set"]) == 0
    out = capsys.readouterr().out
    assert "m: 55.00 / 9 readable of 100" in out
    assert "| a | 100.0 / 0.00 (10, 0, 0) |" in out
    # b alone: 2*45/(45+45+90) = 50.0, 9 of 90 readable = 10 %
    assert "| b | 50.0 / 10.00 (45, 45, 9) |" in out
