"""A held-out set listed in benchmarks/data/UNSCORED is left out of the default listings (so nothing
scores it before the decision it was written for) and is still scored when named."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture()
def data(tmp_path: Path) -> Path:
    folder = tmp_path / "benchmarks" / "data"
    folder.mkdir(parents=True)
    for name in ("heldout_v2", "heldout_v10", "probe_v1"):
        for lang in ("en", "fr"):
            (folder / f"{name}.{lang}.jsonl").write_text("", encoding="utf-8")
    (folder / "UNSCORED").write_text("# kept for later\nheldout_v10\n", encoding="utf-8")
    return folder


def test_rule_ablation_skips_an_unscored_set_unless_named(data, monkeypatch):
    sys.path.insert(0, str(ROOT / "benchmarks"))
    import evaluation_sets
    import rule_ablation

    monkeypatch.setattr(evaluation_sets, "DATA", data)
    assert list(rule_ablation.selected_sets(str(data / "no-dev"), None)) == ["heldout_v2", "probe_v1"]
    assert list(rule_ablation.selected_sets(str(data / "no-dev"), "heldout_v10")) == ["heldout_v10"]


def test_eval_every_set_skips_an_unscored_set_unless_named(data, tmp_path):
    stub = tmp_path / "bin"
    stub.mkdir()
    calls = tmp_path / "calls"
    (stub / "alias-engine").write_text(f'#!/bin/sh\necho "$@" >> {calls}\n', encoding="utf-8")
    (stub / "alias-engine").chmod(0o755)
    env = {**os.environ, "PATH": f"{stub}:{os.environ['PATH']}", "DEV": str(tmp_path / "no-dev")}
    script = str(ROOT / "benchmarks" / "eval_every_set.sh")
    subprocess.run(["bash", script, "t", "onnxruntime"], cwd=tmp_path, env=env, check=True, capture_output=True)
    assert "heldout_v2.en" in calls.read_text() and "heldout_v10" not in calls.read_text()
    calls.unlink()
    subprocess.run(["bash", script, "t", "onnxruntime"], cwd=tmp_path, env={**env, "ONLY": "heldout_v10"},
                   check=True, capture_output=True)
    assert "heldout_v10.en" in calls.read_text()


def test_an_unknown_set_is_an_error_not_an_empty_run(data, tmp_path):
    env = {**os.environ, "DEV": str(tmp_path / "no-dev"), "ONLY": "heldout_v99"}
    script = str(ROOT / "benchmarks" / "eval_every_set.sh")
    run = subprocess.run(["bash", script, "t", "onnxruntime"], cwd=tmp_path, env=env, capture_output=True, text=True)
    assert run.returncode == 2 and "unknown sets: heldout_v99" in run.stderr


def test_an_unscored_line_that_names_no_set_is_an_error(data, monkeypatch):
    sys.path.insert(0, str(ROOT / "benchmarks"))
    import evaluation_sets

    monkeypatch.setattr(evaluation_sets, "DATA", data)
    (data / "UNSCORED").write_text("benchmarks/data/heldout_v10.en.jsonl\n", encoding="utf-8")
    with pytest.raises(ValueError, match="UNSCORED names no set: benchmarks/data/heldout_v10.en.jsonl"):
        evaluation_sets.selected(data / "no-dev", [])
