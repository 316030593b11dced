"""`--progress` on one long plain text: the model's windows are counted while it runs,
and the spans are the same as without it."""

import json
import re

import pytest
from tiny_model import build_tiny_model

from alias_engine import engine as engine_mod
from alias_engine.cli import main
from alias_engine.detectors.model import ModelDetector, model_progress
from alias_engine.resources import data_dir

LONG = " ".join(["lorem ipsum Jean Dupont dolor"] * 2_000)  # 10,000 tokens: about 26 windows


@pytest.fixture(scope="module")
def tiny_dir(tmp_path_factory):
    return build_tiny_model(tmp_path_factory.mktemp("tiny"))


def test_model_progress_counts_windows_and_changes_nothing(tiny_dir):
    detector = ModelDetector.load(tiny_dir)
    seen = []
    with model_progress(lambda done, total: seen.append((done, total))):
        spans = detector.detect([LONG])[0]
    assert len(seen) > 1 and seen[-1][0] == seen[-1][1] > 20
    assert [d for d, _ in seen] == sorted(d for d, _ in seen)
    assert spans == detector.detect([LONG])[0]  # outside the context: no report, same spans
    assert len(seen) == len(set(seen))


@pytest.mark.parametrize("command", ["detect", "mask"])
def test_cli_progress_in_plain_text_mode(tiny_dir, tmp_path, monkeypatch, capsys, command):
    monkeypatch.setattr(engine_mod, "data_dir", lambda name: tiny_dir if name == "models" else data_dir(name))
    source = tmp_path / "long.txt"
    source.write_text(LONG, encoding="utf-8")
    extra = ["--mapping-out", str(tmp_path / "m.json")] if command == "mask" else []
    assert main([command, str(source), "-o", str(tmp_path / "a"), *extra]) == 0
    quiet = capsys.readouterr().err
    assert "model windows" not in quiet
    extra = ["--mapping-out", str(tmp_path / "m2.json")] if command == "mask" else []
    assert main([command, str(source), "-o", str(tmp_path / "b"), "--progress", *extra]) == 0
    err = capsys.readouterr().err
    assert f"{command} (model windows) [" in err and err.count("\r") > 1
    done, total = re.findall(r"\] (\d+)/(\d+)", err)[-1]
    assert done == total and int(total) > 20
    assert (tmp_path / "a").read_text(encoding="utf-8") == (tmp_path / "b").read_text(encoding="utf-8")
    if command == "detect":
        assert len(json.loads((tmp_path / "a").read_text(encoding="utf-8"))) == 2_000


def test_rules_only_progress_ends_at_one_of_one(tmp_path, capsys):
    source = tmp_path / "t.txt"
    source.write_text("écrire à jean@example.fr", encoding="utf-8")
    assert main(["detect", str(source), "--rules-only", "--progress"]) == 0
    assert "1/1" in capsys.readouterr().err
