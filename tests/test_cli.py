"""The command line through a subprocess, as a user runs it."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

TEXT = ("Bonjour, écrivez à jean.dupont@example.fr, IBAN FR76 3000 6000 0112 3456 7890 189.\n"
        "Hi, mail mary.obrien@example.com or call +44 20 7946 0958.\n")

CLI = Path(__file__).resolve().parent / "_cli.py"  # the CLI with cheap vaults


def run(*args, stdin=None, cwd=None):
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[1])}
    return subprocess.run([sys.executable, str(CLI), *args], input=stdin,
                          capture_output=True, cwd=cwd, env=env, timeout=120)


def test_detect_prints_spans_as_json(tmp_path):
    f = tmp_path / "in.txt"
    f.write_text(TEXT, encoding="utf-8")
    out = run("detect", str(f), "--rules-only")
    assert out.returncode == 0, out.stderr
    spans = json.loads(out.stdout)
    found = {(TEXT[s["start"]:s["end"]], s["label"]) for s in spans}
    assert ("jean.dupont@example.fr", "EMAIL") in found
    assert ("FR76 3000 6000 0112 3456 7890 189", "IBAN") in found


def test_mask_then_unmask_round_trip_via_files(tmp_path):
    f = tmp_path / "in.txt"
    f.write_text(TEXT, encoding="utf-8")
    mapping = tmp_path / "map.json"
    masked = run("mask", str(f), "--rules-only", "--mapping-out", str(mapping))
    assert masked.returncode == 0, masked.stderr
    assert b"jean.dupont@example.fr" not in masked.stdout
    assert b"[EMAIL_1]" in masked.stdout
    assert str(mapping).encode() in masked.stderr
    assert oct(mapping.stat().st_mode & 0o777) == "0o600"
    restored = run("unmask", "-", "--mapping", str(mapping), stdin=masked.stdout)
    assert restored.returncode == 0, restored.stderr
    assert restored.stdout.decode("utf-8") == TEXT


def test_mask_refuses_to_overwrite_a_mapping(tmp_path):
    f = tmp_path / "in.txt"
    f.write_text(TEXT, encoding="utf-8")
    mapping = tmp_path / "map.json"
    mapping.write_text("{}")
    out = run("mask", str(f), "--rules-only", "--mapping-out", str(mapping))
    assert out.returncode == 1
    assert out.stdout == b""
    assert mapping.read_text() == "{}"
    assert b"--force" in out.stderr


def test_jsonl_batch_round_trip_keeps_other_keys(tmp_path):
    records = [{"id": "a", "text": TEXT, "lang": "fr", "source": "x"}, {"id": "b", "text": "", "lang": "en"},
               {"text": "nothing here"}]
    f = tmp_path / "in.jsonl"
    f.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in records), encoding="utf-8")
    detected = run("detect", "--jsonl", str(f), "--rules-only")
    assert detected.returncode == 0, detected.stderr
    rows = [json.loads(line) for line in detected.stdout.decode().splitlines()]
    assert [r.get("id") for r in rows] == ["a", "b", None]
    assert rows[0]["source"] == "x" and rows[0]["spans"] and rows[1]["spans"] == []
    masked_file, map_file = tmp_path / "masked.jsonl", tmp_path / "map.jsonl"
    masked = run("mask", "--jsonl", str(f), "--rules-only", "-o", str(masked_file), "--mapping-out", str(map_file))
    assert masked.returncode == 0, masked.stderr
    assert "jean.dupont" not in masked_file.read_text(encoding="utf-8")
    restored = run("unmask", "--jsonl", str(masked_file), "--mapping", str(map_file))
    assert restored.returncode == 0, restored.stderr
    assert [json.loads(line)["text"] for line in restored.stdout.decode().splitlines()] == [r["text"] for r in records]


@pytest.mark.parametrize("content, message", [
    (b"caf\xe9 au lait", b"not valid UTF-8"),
    (b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR", b"binary data"),
])
def test_bad_input_gives_one_clear_line(tmp_path, content, message):
    f = tmp_path / "bad.txt"
    f.write_bytes(content)
    out = run("mask", str(f), "--rules-only", "--mapping-out", str(tmp_path / "m.json"))
    assert out.returncode == 1
    assert out.stdout == b""
    assert message in out.stderr and b"Traceback" not in out.stderr
    assert len(out.stderr.strip().splitlines()) == 1
    assert not (tmp_path / "m.json").exists()


def test_missing_file(tmp_path):
    out = run("detect", str(tmp_path / "nope.txt"), "--rules-only")
    assert out.returncode == 1 and b"no such file" in out.stderr and b"Traceback" not in out.stderr


def test_malformed_jsonl_line_writes_nothing(tmp_path):
    f = tmp_path / "in.jsonl"
    f.write_text('{"text": "a@b.fr"}\n{"text": oops}\n', encoding="utf-8")
    target = tmp_path / "out.jsonl"
    out = run("detect", "--jsonl", str(f), "--rules-only", "-o", str(target))
    assert out.returncode == 1
    assert b"line 2: malformed JSON" in out.stderr
    assert not target.exists()
    assert list(tmp_path.iterdir()) == [f]


@pytest.mark.parametrize("mapping", ['{"[EMAIL_1]": 42}', "not json", '["a"]'])
def test_malformed_mapping(tmp_path, mapping):
    m = tmp_path / "m.json"
    m.write_text(mapping)
    out = run("unmask", "-", "--mapping", str(m), stdin=b"[EMAIL_1]")
    assert out.returncode == 1 and out.stdout == b""
    assert b"mapping" in out.stderr and b"Traceback" not in out.stderr


def test_empty_input_is_fine(tmp_path):
    out = run("detect", "-", "--rules-only", stdin=b"")
    assert out.returncode == 0 and json.loads(out.stdout) == []


def test_unknown_label_is_a_usage_error(tmp_path):
    out = run("detect", "-", "--rules-only", "--labels", "PERSON,NOPE", stdin=b"x")
    assert out.returncode == 1 and b"unknown label" in out.stderr


def test_jsonl_records_holding_unicode_line_separators_stay_whole(tmp_path):
    text = "Écrire à jean.dupont@example.fr\u2028ou\u0085 à mary@example.com"
    f = tmp_path / "in.jsonl"
    f.write_text(json.dumps({"text": text}, ensure_ascii=False) + "\n", encoding="utf-8")
    out = run("detect", "--jsonl", str(f), "--rules-only")
    assert out.returncode == 0, out.stderr
    rows = [json.loads(line) for line in out.stdout.decode("utf-8").split("\n") if line]
    assert len(rows) == 1 and rows[0]["text"] == text
    assert [text[s["start"]:s["end"]] for s in rows[0]["spans"]] == ["jean.dupont@example.fr", "mary@example.com"]


def test_mask_jsonl_leaves_out_fields_it_did_not_analyse(tmp_path):
    f = tmp_path / "in.jsonl"
    f.write_text(json.dumps({"id": 7, "lang": ["fr"], "text": "écrire à jean@x.fr", "name": "Jean Dupont"}) + "\n",
                 encoding="utf-8")
    out = run("mask", "--jsonl", str(f), "--rules-only", "--mapping-out", str(tmp_path / "m.jsonl"))
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout) == {"id": 7, "lang": ["fr"], "text": "écrire à [EMAIL_1]"}
    assert b"left out of the output: name " in out.stderr and b"--keep-fields" in out.stderr
    kept = run("mask", "--jsonl", str(f), "--rules-only", "--mapping-out", str(tmp_path / "m2.jsonl"),
               "--keep-fields", "id,name")
    assert json.loads(kept.stdout)["name"] == "Jean Dupont"


def test_mask_refuses_one_file_for_output_and_mapping(tmp_path):
    f = tmp_path / "in.txt"
    f.write_text(TEXT, encoding="utf-8")
    same = tmp_path / "o.txt"
    out = run("mask", str(f), "--rules-only", "--mapping-out", str(same), "-o", str(same))
    assert out.returncode == 1 and b"mapping would be lost" in out.stderr
    assert not same.exists()


def test_lone_surrogate_in_jsonl_is_refused_before_anything_is_written(tmp_path):
    f = tmp_path / "in.jsonl"
    f.write_text('{"text": "a \\ud800 b@x.fr"}\n', encoding="utf-8")
    out = run("mask", "--jsonl", str(f), "--rules-only", "-o", str(tmp_path / "o.jsonl"))
    assert out.returncode == 1 and b"line 1" in out.stderr and b"surrogate" in out.stderr
    assert list(tmp_path.iterdir()) == [f]


def test_batch_size_must_be_positive(tmp_path):
    out = run("detect", "--jsonl", "-", "--rules-only", "--batch-size", "0", stdin=b'{"text": "x"}\n')
    assert out.returncode == 2 and b"at least 1" in out.stderr


def test_model_option_reads_that_folder_and_fails_closed_when_it_is_not_a_model(tmp_path):
    f = tmp_path / "in.txt"
    f.write_text(TEXT, encoding="utf-8")
    empty = tmp_path / "no-model"
    empty.mkdir()
    out = run("mask", str(f), "--model", str(empty), "--mapping-out", str(tmp_path / "m.json"))
    assert out.returncode != 0 and b"model" in out.stderr and b"Traceback" not in out.stderr
    assert out.stdout == b"" and not (tmp_path / "m.json").exists()  # nothing given out as masked
    shipped = Path(__file__).resolve().parents[1] / "models"
    if (shipped / "model.onnx").exists():
        out = run("detect", str(f), "--model", str(shipped))
        assert out.returncode == 0, out.stderr
        assert b"EMAIL" in out.stdout
