"""Training data loading, batching, and a tiny end-to-end run that checkpoints and resumes."""

from __future__ import annotations

import json

import pytest
import regex

from training.tags import Chunk
from training.train import make_batches, read_jsonl, real_docs


def write_jsonl(path, records):
    path.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")


def test_read_jsonl_can_keep_only_some_labels(tmp_path):
    path = tmp_path / "d.jsonl"
    spans = [{"start": 0, "end": 4, "label": "PERSON"}, {"start": 10, "end": 15, "label": "EMAIL"}]
    write_jsonl(path, [{"text": "Jean wrote a@b.c", "spans": spans}])
    assert read_jsonl(path) == [("Jean wrote a@b.c", [(0, 4, "PERSON"), (10, 15, "EMAIL")])]
    assert read_jsonl(path, frozenset({"PERSON"})) == [("Jean wrote a@b.c", [(0, 4, "PERSON")])]


def test_real_docs_prefers_documents_with_names(tmp_path):
    path = tmp_path / "r.jsonl"
    records = [{"text": f"Name{i} here", "spans": [{"start": 0, "end": 5, "label": "PERSON"}]} for i in range(8)]
    records += [{"text": f"nothing {i}", "spans": [], "ignored_spans": [{"start": 0, "end": 7}]} for i in range(8)]
    write_jsonl(path, records)
    chosen = real_docs([path], 10, seed=0)
    assert len(chosen) == 10
    assert sum(1 for _, spans in chosen if spans) == 8


def test_batches_cover_every_chunk_once_and_are_deterministic():
    chunks = [Chunk(tuple(range(n % 7 + 3)), tuple([0] * (n % 7 + 3))) for n in range(100)]
    a = make_batches(chunks, 16, seed=3)
    assert sorted(i for b in a for i in b) == list(range(100))
    assert all(len(b) <= 16 for b in a)
    assert a == make_batches(chunks, 16, seed=3)
    assert a != make_batches(chunks, 16, seed=4)


def test_token_budget_batches_hold_fewer_long_chunks_and_cover_every_chunk_once():
    chunks = [Chunk(tuple(range(n)), tuple([0] * n)) for n in [10] * 60 + [40] * 20]
    batches = make_batches(chunks, 8, seed=1, max_tokens=80)
    assert sorted(i for b in batches for i in b) == list(range(80))
    assert all(len(b) * max(len(chunks[i].ids) for i in b) <= 80 for b in batches)
    assert max(len(b) for b in batches) == 8 and min(len(b) for b in batches) <= 2


def test_long_documents_join_documents_and_move_their_spans():
    from training.train import long_documents

    docs = [(f"Doc {i} de Jean{i}.", [(8 + len(str(i)), 12 + 2 * len(str(i)), "PERSON")]) for i in range(10)]
    joined = long_documents(docs, 5, seed=0)
    assert len(joined) == 5 and joined == long_documents(docs, 5, seed=0)
    for text, spans in joined:
        assert 2 <= len(spans) <= 8 and len(set(spans)) == len(spans)
        assert all(regex.fullmatch(r"Jean\d", text[a:b]) for a, b, _ in spans)
        assert regex.fullmatch(r"Doc \d de Jean\d\.(?:(?:\n{1,3}|\n---\n| )Doc \d de Jean\d\.)+", text)
    separators = {sep for text, _ in long_documents(docs, 40, seed=1) for sep in regex.findall(r"\.(\W+)Doc", text)}
    assert {"\n", "\n\n"} <= separators


def test_tiny_training_run_checkpoints_and_resumes(tmp_path):
    pytest.importorskip("torch")
    transformers = pytest.importorskip("transformers")
    from test_training_tags import _toy_tokenizer

    from training.train import main

    tok = _toy_tokenizer()
    base = tmp_path / "base"
    cfg = transformers.BertConfig(
        vocab_size=tok.get_vocab_size(), hidden_size=32, num_hidden_layers=2, num_attention_heads=2,
        intermediate_size=64, max_position_embeddings=64, pad_token_id=1,
    )  # fmt: skip
    transformers.BertModel(cfg, add_pooling_layer=False).save_pretrained(base)
    tok.save(str(base / "tokenizer.json"))
    data = tmp_path / "synth.jsonl"
    write_jsonl(data, [{"text": "Jean Dupont est ici.", "spans": [{"start": 0, "end": 11, "label": "PERSON"}]}] * 20)
    out = tmp_path / "train"
    common = ["--base", str(base), "--out", str(out), "--synth", str(data), "--real-docs", "0", "--batch", "4"]
    main([*common, "--steps", "4", "--save-every", "2", "--warmup", "2", "--layers", "1"])
    assert (out / "final" / "tokenizer.json").exists()
    log = (out / "log.txt").read_text()
    assert "step 4/4" in log and "checkpoint at step 4" in log
    main([*common, "--steps", "6", "--save-every", "2", "--warmup", "2", "--layers", "1"])
    log = (out / "log.txt").read_text()
    assert "resumed from step 4" in log and "step 6/6" in log
    final = transformers.BertForTokenClassification.from_pretrained(out / "final")
    assert final.config.num_labels == 49 and final.config.num_hidden_layers == 1
    long_out = tmp_path / "long"
    main([*common[:2], "--out", str(long_out), *common[4:], "--steps", "3", "--warmup", "1", "--layers", "1",
          "--long-docs", "4", "--long-len", "48", "--max-len", "16"])
    assert "4 long texts ->" in (long_out / "log.txt").read_text() and (long_out / "final" / "tokenizer.json").exists()
    from training.export import trained_window

    assert trained_window(out / "final") == 128 and trained_window(long_out / "final") == 48
    for precision, said in (("bf16", "precision: bf16 autocast"), ("fp32", "precision: fp32")):
        run_out = tmp_path / precision
        main([*common[:2], "--out", str(run_out), *common[4:], "--steps", "2", "--warmup", "1", "--layers", "1",
              "--precision", precision])
        log = (run_out / "log.txt").read_text()
        assert said in log and "step 2/2" in log and "nan" not in log.split("step 2/2")[1].split("\n")[0]
    assert trained_window(tmp_path) == 128  # a model trained before the window file existed
    with pytest.raises(SystemExit):
        main([*common[:2], "--out", str(tmp_path / "bad"), *common[4:], "--steps", "1", "--layers", "1",
              "--long-docs", "2", "--long-len", "600"])


def test_real_heldout_is_the_reserve_less_the_legacy_draw_and_training_never_draws_it(tmp_path):
    from training.real_heldout import heldout_records
    from training.train import in_real_reserve

    for name in ("a.jsonl", "b.jsonl"):
        records = [{"text": f"{name} {i} Jean Dupont", "spans": [{"start": 0, "end": 4, "label": "PERSON"}] if i % 2 else []}
                   for i in range(200)]
        write_jsonl(tmp_path / name, records)
    paths = sorted(tmp_path.glob("*.jsonl"))
    reserve = {f"{n} {i} Jean Dupont" for n in ("a.jsonl", "b.jsonl") for i in range(200)
               if in_real_reserve(f"{n} {i} Jean Dupont")}
    assert 20 < len(reserve) < 100                             # about 15 % of 400
    assert not {text for text, _ in real_docs(paths, 400, seed=13)} & reserve
    legacy = {text for text, _ in real_docs(paths, 100, seed=13, reserve=False)}
    assert legacy & reserve                                    # the old draw did take some of them
    held = heldout_records(paths, per_file=1000, legacy_limit=100, seed=13)
    assert {r["text"] for r in held} == reserve - legacy
    assert heldout_records(paths, per_file=1000, legacy_limit=100, seed=13) == held


def test_a_student_keeps_layers_spread_over_the_teachers_depth(tmp_path):
    torch = pytest.importorskip("torch")
    transformers = pytest.importorskip("transformers")
    from training.train import build_model

    cfg = transformers.BertConfig(vocab_size=32, hidden_size=16, num_hidden_layers=12, num_attention_heads=2,
                                  intermediate_size=32, max_position_embeddings=32, pad_token_id=1)
    teacher = transformers.BertModel(cfg, add_pooling_layer=False)
    teacher.save_pretrained(tmp_path)
    weights = [layer.output.dense.weight for layer in teacher.encoder.layer]

    def kept(student):
        return [next(i for i, w in enumerate(weights) if torch.equal(w, layer.output.dense.weight))
                for layer in student.bert.encoder.layer]

    assert kept(build_model(tmp_path, 6, "alternate")) == [0, 2, 4, 7, 9, 11]
    assert kept(build_model(tmp_path, 4, "first")) == [0, 1, 2, 3]
    student = build_model(tmp_path, 6, "alternate")
    assert student.config.num_hidden_layers == 6
    student.save_pretrained(tmp_path / "student")
    again = transformers.BertForTokenClassification.from_pretrained(tmp_path / "student")
    assert kept(again) == [0, 2, 4, 7, 9, 11]


def test_distillation_loss_is_zero_only_when_the_student_agrees_and_a_run_uses_the_teacher(tmp_path):
    torch = pytest.importorskip("torch")
    transformers = pytest.importorskip("transformers")
    from test_training_tags import _toy_tokenizer

    from training.train import distill_loss, main

    logits = torch.randn(2, 5, 49)
    mask = torch.tensor([[1, 1, 1, 0, 0], [1, 1, 1, 1, 1]])
    assert float(distill_loss(logits, logits, mask, 2.0)) == pytest.approx(0.0, abs=1e-6)
    other = logits.clone()
    other[0, 3:] += 100  # padding positions do not count
    assert float(distill_loss(logits, other, mask, 2.0)) == pytest.approx(0.0, abs=1e-6)
    other[0, 0] += torch.randn(49) * 5
    assert float(distill_loss(logits, other, mask, 2.0)) > 0.01

    tok = _toy_tokenizer()
    base = tmp_path / "base"
    cfg = transformers.BertConfig(vocab_size=tok.get_vocab_size(), hidden_size=32, num_hidden_layers=2,
                                  num_attention_heads=2, intermediate_size=64, max_position_embeddings=64,
                                  pad_token_id=1, num_labels=49)
    transformers.BertForTokenClassification(cfg).save_pretrained(base)
    tok.save(str(base / "tokenizer.json"))
    data = tmp_path / "synth.jsonl"
    write_jsonl(data, [{"text": "Jean Dupont est ici.", "spans": [{"start": 0, "end": 11, "label": "PERSON"}]}] * 8)
    main(["--base", str(base), "--out", str(tmp_path / "student"), "--synth", str(data), "--real-docs", "0",
          "--batch", "4", "--steps", "2", "--warmup", "1", "--layers", "1", "--teacher", str(base)])
    log = (tmp_path / "student" / "log.txt").read_text()
    assert "distilling from" in log and "(2 layers)" in log and "step 2/2" in log


def test_training_autocasts_bf16_by_default_only_where_the_cpu_has_amx_or_is_an_amd_with_bf16(monkeypatch):
    from alias_engine.detectors import backends
    from training.train import use_bf16

    for vendor, flags, expected in (("GenuineIntel", (), False), ("GenuineIntel", ("avx512_bf16",), False),
                                    ("GenuineIntel", ("amx_bf16", "avx512_bf16"), True),
                                    ("AuthenticAMD", (), False), ("AuthenticAMD", ("avx512_bf16",), True)):
        monkeypatch.setattr(backends, "cpu_bf16_flags", lambda flags=flags: flags)
        monkeypatch.setattr(backends, "cpu_vendor", lambda vendor=vendor: vendor)
        assert use_bf16("auto") is expected
        assert use_bf16("bf16") and not use_bf16("fp32")


def test_the_outside_weight_is_plain_cross_entropy_at_one_and_makes_a_missed_value_cost_more_below():
    torch = pytest.importorskip("torch")
    from training.tags import IGNORE, TAG_ID
    from training.train import tag_loss

    torch.manual_seed(0)
    logits = torch.randn(2, 4, 49)
    labels = torch.tensor([[TAG_ID["O"], TAG_ID["S-PERSON"], IGNORE, IGNORE], [TAG_ID["O"], TAG_ID["O"], TAG_ID["B-EMAIL"], IGNORE]])
    plain = torch.nn.functional.cross_entropy(logits.reshape(-1, 49), labels.reshape(-1), ignore_index=IGNORE)
    assert float(tag_loss(logits, labels, 1.0)) == pytest.approx(float(plain), rel=1e-6)
    # Below 1 the O tokens count less: the mean moves toward the loss of the value tokens.
    per_token = torch.nn.functional.cross_entropy(logits.reshape(-1, 49), labels.reshape(-1), ignore_index=IGNORE,
                                                  reduction="none").reshape(2, 4)
    outside, value = per_token[labels == TAG_ID["O"]], per_token[(labels != TAG_ID["O"]) & (labels != IGNORE)]
    expected = (0.25 * outside.sum() + value.sum()) / (0.25 * len(outside) + len(value))
    assert float(tag_loss(logits, labels, 0.25)) == pytest.approx(float(expected), rel=1e-6)


def test_a_run_rejects_an_outside_weight_that_is_not_a_finite_number_above_zero(tmp_path):
    from training.train import main

    for weight in ("0", "-1", "nan", "inf"):
        with pytest.raises(SystemExit, match="outside-weight"):
            main(["--base", str(tmp_path), "--out", str(tmp_path / "o"), "--outside-weight", weight])
