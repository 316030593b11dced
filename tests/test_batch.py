"""`alias-engine batch`: shards equal to `mask --jsonl`, errors kept out, resume, keys, Ray local.

Rules only (the model is covered by its own tests) and small data: worker
processes and a local Ray start in seconds."""

import json
import os
import sys
from pathlib import Path

import pytest

from alias_engine.batch import run as batch_run
from alias_engine.cli import main

PEOPLE = ["jean.dupont@example.fr", "mary.obrien@example.com", "zoe.martin@example.org"]


def corpus(n: int = 10) -> list[dict]:
    return [{"id": f"doc-{i}", "lang": "fr" if i % 2 else "en", "source": "crawl",
             "text": f"Écrivez à {PEOPLE[i % 3]} ou IBAN FR76 3000 6000 0112 3456 7890 189, n° {i}."}
            for i in range(n)]


def write_jsonl(path: Path, records: list[dict], extra: bytes = b"") -> Path:
    path.write_bytes("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in records).encode() + extra)
    return path


def batch(capsys, *args) -> tuple[int, str]:
    code = main(["batch", *args, "--rules-only", "--batch-size", "2", "--shard-size", "4", "--workers", "2"])
    return code, capsys.readouterr().err


def parts(out: Path, suffix: str = ".jsonl") -> list[Path]:
    return sorted(p for p in out.glob(f"part-*{suffix}") if not p.name.endswith(".mapping.jsonl"))


def lines(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def mask_jsonl(capsys, source: Path, tmp_path: Path) -> bytes:
    target = tmp_path / "mask-jsonl.out"
    assert main(["mask", "--jsonl", str(source), "--rules-only", "--batch-size", "2", "-o", str(target),
                 "--mapping-out", str(tmp_path / "mask-jsonl.map")]) == 0
    capsys.readouterr()
    return target.read_bytes()


def test_local_runner_writes_what_mask_jsonl_writes_and_unmask_restores(tmp_path, capsys):
    source = write_jsonl(tmp_path / "in.jsonl", corpus(10))
    code, err = batch(capsys, str(source), "--out", str(tmp_path / "out"))
    assert code == 0, err
    out = tmp_path / "out"
    assert [p.name for p in parts(out)] == ["part-00000.jsonl", "part-00001.jsonl", "part-00002.jsonl"]
    assert b"".join(p.read_bytes() for p in parts(out)) == mask_jsonl(capsys, source, tmp_path)
    assert "records/s" in err and "left" in err
    restored = []
    for part in parts(out):
        mapping = part.with_name(part.stem + ".mapping.jsonl")
        assert oct(mapping.stat().st_mode & 0o777) == "0o600"
        target = tmp_path / f"restored-{part.stem}.jsonl"
        assert main(["unmask", "--jsonl", str(part), "--mapping", str(mapping), "-o", str(target)]) == 0
        restored += lines(target)
    assert [r["text"] for r in restored] == [r["text"] for r in corpus(10)]
    manifest = json.loads((out / "_manifest.json").read_text())
    assert manifest["complete"] and manifest["records"] == 10 and manifest["errors"] == 0
    assert [s["records"] for s in manifest["shards"]] == [4, 4, 2]
    assert manifest["inputs"][0]["records"] == 10 and manifest["settings"]["alias_engine"]
    assert not (out / "_errors.jsonl").exists()


def test_a_failing_record_goes_to_errors_with_its_id_never_its_text(tmp_path, capsys):
    secret = "claire.secret@example.fr"
    bad = (b'{"id": "utf8", "text": "caf\xff ' + secret.encode() + b'"}\n'
           b'{"id": "nofield", "body": "' + secret.encode() + b'"}\n'
           b'{"id": "long", "text": "' + secret.encode() * 20 + b'"}\n'
           b'{"id": "json", "text": "' + secret.encode() + b'"\n')
    source = write_jsonl(tmp_path / "in.jsonl", corpus(3), bad)
    code, err = batch(capsys, str(source), "--out", str(tmp_path / "out"), "--max-chars", "200")
    assert code == batch_run.EXIT_WITH_ERRORS
    assert "4 records could not be masked" in err
    out = tmp_path / "out"
    errors = lines(out / "_errors.jsonl")
    assert [e["id"] for e in errors] == ["utf8", "nofield", "long", None]
    assert [e["line"] for e in errors] == [4, 5, 6, 7]
    assert "not valid UTF-8" in errors[0]["reason"] and "over the limit of 200" in errors[2]["reason"]
    for path in out.iterdir():
        assert "claire.secret" not in path.read_text(encoding="utf-8", errors="replace"), path.name
        assert oct(path.stat().st_mode & 0o777) == "0o600", path.name
    assert sum(len(lines(p)) for p in parts(out)) == 3
    assert json.loads((out / "_manifest.json").read_text())["errors"] == 4


def test_resume_skips_finished_shards_and_ctrl_c_leaves_no_half_written_shard(tmp_path, capsys, monkeypatch):
    source = write_jsonl(tmp_path / "in.jsonl", corpus(10), b'{"id": "bad", "text": 3}\n')
    out = tmp_path / "out"
    written = []
    real_write = batch_run.write_shard

    def interrupted(out_dir, result, *args):
        if written:
            raise KeyboardInterrupt  # Ctrl-C while the second shard is being written
        written.append(result.shard["part"])
        real_write(out_dir, result, *args)

    monkeypatch.setattr(batch_run, "write_shard", interrupted)
    code, err = batch(capsys, str(source), "--out", str(out))
    assert code == 130 and "--resume" in err
    assert [p.name for p in parts(out)] == [f"part-{written[0]:05d}.jsonl"]
    assert not [p for p in out.iterdir() if p.name.startswith(".")]
    first = parts(out)[0].stat().st_mtime_ns
    manifest = json.loads((out / "_manifest.json").read_text())
    assert not manifest["complete"] and [s["part"] for s in manifest["shards"]] == written

    code, err = batch(capsys, str(source), "--out", str(out))
    assert code == 1 and "--resume" in err  # a folder that holds a run is never overwritten
    code, err = batch(capsys, str(source), "--out", str(out), "--resume", "--keep-fields", "id")
    assert code == 1 and "keep_fields" in err  # nor resumed with other settings

    monkeypatch.setattr(batch_run, "write_shard", real_write)
    code, err = batch(capsys, str(source), "--out", str(out), "--resume")
    assert code == batch_run.EXIT_WITH_ERRORS, err
    assert "1 of 3 shards already finished" in err
    assert parts(out)[written[0]].stat().st_mtime_ns == first
    assert b"".join(p.read_bytes() for p in parts(out)) == mask_jsonl(capsys, write_jsonl(
        tmp_path / "good.jsonl", corpus(10)), tmp_path)
    assert len(lines(out / "_errors.jsonl")) == 1  # reported once, not once a run
    assert json.loads((out / "_manifest.json").read_text())["complete"]


def test_key_file_encrypts_mappings_and_consistent_gives_one_placeholder_per_value(tmp_path, capsys):
    source = write_jsonl(tmp_path / "in.jsonl", corpus(6))
    key = tmp_path / "key"
    key.write_text("a corpus passphrase\n")
    key.chmod(0o600)
    out = tmp_path / "out"
    code, err = batch(capsys, str(source), "--out", str(out), "--key-file", str(key), "--consistent")
    assert code == 0, err
    masked = [r["text"] for p in parts(out) for r in lines(p)]
    placeholders = [t.split("à ")[1].split(" ")[0] for t in masked]
    assert placeholders[0] == placeholders[3] != placeholders[1]  # the same address in shards 0 and 1
    assert len(placeholders[0]) == len("[EMAIL_]") + 19
    mapping = out / "part-00000.mapping.jsonl"
    assert b"example" not in mapping.read_bytes()
    assert main(["unmask", "--jsonl", str(parts(out)[0]), "--mapping", str(mapping)]) == 1
    assert "--key-file" in capsys.readouterr().err
    assert main(["unmask", "--jsonl", str(parts(out)[0]), "--mapping", str(mapping), "--key-file", str(key)]) == 0
    assert [json.loads(line)["text"] for line in capsys.readouterr().out.splitlines()] == \
        [r["text"] for r in corpus(4)]

    other = tmp_path / "other.key"
    other.write_text("another passphrase\n")
    other.chmod(0o600)
    code, err = batch(capsys, str(source), "--out", str(out), "--key-file", str(other), "--consistent", "--resume")
    assert code == 1 and "key_check" in err
    code, err = batch(capsys, str(source), "--out", str(tmp_path / "o2"), "--consistent")
    assert code == 1 and "--consistent needs --key-file" in err


def test_options_checked_before_any_work(tmp_path, capsys, monkeypatch):
    source = write_jsonl(tmp_path / "in.jsonl", corpus(2))
    code = main(["batch", str(source), "--out", str(tmp_path / "o"), "--rules-only", "--shard-size", "5"])
    assert code == 1 and "multiple of --batch-size" in capsys.readouterr().err
    code, err = batch(capsys, str(tmp_path / "missing.jsonl"), "--out", str(tmp_path / "o"))
    assert code == 1 and "no such file" in err
    monkeypatch.setitem(sys.modules, "ray", None)  # as if Ray were not installed
    code, err = batch(capsys, str(source), "--out", str(tmp_path / "o"), "--runner", "ray")
    assert code == 1 and "pip install 'alias-engine[ray]'" in err
    assert not list((tmp_path / "o").glob("part-*"))


def test_parquet_in_and_out(tmp_path, capsys):
    pa = pytest.importorskip("pyarrow")
    pq = pytest.importorskip("pyarrow.parquet")
    folder = tmp_path / "corpus"
    folder.mkdir()
    records = corpus(6)
    pq.write_table(pa.Table.from_pylist(records), folder / "a.parquet", row_group_size=3)
    write_jsonl(folder / "b.jsonl", records[:2])
    code, err = batch(capsys, str(folder), "--out", str(tmp_path / "out"), "--format", "parquet")
    assert code == 0, err
    tables = [pq.read_table(p).to_pylist() for p in parts(tmp_path / "out", ".parquet")]
    assert [len(t) for t in tables] == [4, 2, 2]
    expected = [json.loads(line)["text"] for line in mask_jsonl(
        capsys, write_jsonl(tmp_path / "all.jsonl", records + records[:2]), tmp_path).decode().splitlines()]
    assert [r["text"] for t in tables for r in t] == expected
    assert set(tables[0][0]) == {"id", "lang", "text"}


def test_ray_local_writes_what_the_local_runner_writes(tmp_path, capsys):
    ray = pytest.importorskip("ray")
    source = write_jsonl(tmp_path / "in.jsonl", corpus(10), b'\xff\n')
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    try:
        code, err = batch(capsys, str(source), "--out", str(tmp_path / "ray"), "--runner", "ray")
    finally:
        ray.shutdown()
    assert code == batch_run.EXIT_WITH_ERRORS, err
    code, err = batch(capsys, str(source), "--out", str(tmp_path / "local"))
    assert code == batch_run.EXIT_WITH_ERRORS, err
    for name in sorted(os.listdir(tmp_path / "local")):
        if name != "_manifest.json":
            assert (tmp_path / "ray" / name).read_bytes() == (tmp_path / "local" / name).read_bytes(), name


def test_with_the_model_each_record_masks_as_in_mask_jsonl(tmp_path, capsys):
    # The int8 model's output depends a little on the other texts of its batch: batch must
    # put every record in the batch where `mask --jsonl` puts it.
    texts = ["Bonjour, je suis Claire Moreau, j'habite 12 rue des Lilas à Lyon.",
             "Call Peter Pemberton on 020 7946 0958 tomorrow.", "Rien à signaler ici.",
             "Mme Aïcha Benali a écrit à Thomas Girard hier soir.", "Sarah Connor met John at the mall."]
    source = write_jsonl(tmp_path / "in.jsonl", [{"id": i, "text": t} for i, t in enumerate(texts)])
    assert main(["batch", str(source), "--out", str(tmp_path / "out"), "--batch-size", "2", "--shard-size", "2",
                 "--workers", "1"]) == 0
    target = tmp_path / "mask.jsonl"
    assert main(["mask", "--jsonl", str(source), "--batch-size", "2", "-o", str(target),
                 "--mapping-out", str(tmp_path / "mask.map")]) == 0
    capsys.readouterr()
    assert b"".join(p.read_bytes() for p in parts(tmp_path / "out")) == target.read_bytes()
    assert "Claire" not in target.read_text()


def test_consistent_numbers_doctest():
    import doctest

    from alias_engine.batch import consistent

    assert doctest.testmod(consistent).failed == 0


def test_the_backend_asked_for_is_in_the_manifest_and_reaches_the_workers(tmp_path, capsys):
    from alias_engine.batch.masking import ShardMasker
    from alias_engine.batch.output import MANIFEST

    source = write_jsonl(tmp_path / "in.jsonl", corpus(4))
    code, err = batch(capsys, str(source), "--out", str(tmp_path / "out"), "--backend", "onnxruntime")
    assert code == 0, err
    assert json.loads((tmp_path / "out" / MANIFEST).read_text())["settings"]["engine"]["backend"] == "onnxruntime"
    engine = {"labels": None, "threshold": 0.5, "lang": "auto", "rules_only": True, "model": None, "rules": [],
              "recall_bias": 0.0, "placeholder": "[{label}_{n}]", "max_chars": 1000, "backend": "openvino",
              "threads": 1}
    settings = {"engine": engine, "text_field": "text", "keep_fields": ["id"], "batch_size": 2, "consistent_key": None}
    assert set(engine) - {"threads"} == set(batch_run.ENGINE_OPTIONS)
    assert ShardMasker(settings).engine.backend == "openvino"


def test_a_rules_file_reaches_the_workers(tmp_path, capsys):
    rules = Path(__file__).resolve().parents[1] / "docs" / "examples" / "employee_id.json"
    source = write_jsonl(tmp_path / "in.jsonl", [{"id": i, "text": f"Employee number EMP-00421{i} left."}
                                                 for i in range(4)])
    code, err = batch(capsys, str(source), "--out", str(tmp_path / "out"), "--rules", str(rules))
    assert code == 0, err
    masked = "".join(p.read_text(encoding="utf-8") for p in parts(tmp_path / "out"))
    assert "EMP-" not in masked and masked.count("[EMPLOYEE_ID_1]") == 4
