"""The command line never loses data: outputs are not inputs, mappings are checked and
written with their output or not at all, bad option values are usage errors."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from alias_engine import io
from alias_engine.cli import main
from alias_engine.errors import InputError, MappingError

ROOT = Path(__file__).resolve().parents[1]
CLI = ROOT / "tests" / "_cli.py"  # the CLI with cheap vaults
TEXT = "Écrivez à jean.dupont@example.fr ou au 06 12 34 56 78.\n"
OTHER = "Mail: mary.obrien@example.com, IBAN FR76 3000 6000 0112 3456 7890 189.\n"


def run(*args, stdin=None, cwd=None, env=None):
    env = {**os.environ, "PYTHONPATH": str(ROOT), **(env or {})}
    return subprocess.run([sys.executable, str(CLI), *args], input=stdin,
                          capture_output=True, cwd=cwd, env=env, timeout=120)


@pytest.fixture
def files(tmp_path):
    text = tmp_path / "in.txt"
    text.write_text(TEXT, encoding="utf-8")
    data = tmp_path / "data.jsonl"
    data.write_text(json.dumps({"text": TEXT, "spans": []}) + "\n", encoding="utf-8")
    mapping = tmp_path / "in.map.json"
    mapping.write_text('{"[EMAIL_1]": "jean.dupont@example.fr"}', encoding="utf-8")
    (tmp_path / "link.txt").symlink_to(text)
    os.link(text, tmp_path / "hard.txt")
    return tmp_path


@pytest.mark.parametrize("argv", [
    ["detect", "{d}/in.txt", "-o", "{d}/in.txt"],
    ["detect", "{d}/in.txt", "-o", "{d}/link.txt"],
    ["detect", "{d}/in.txt", "-o", "{d}/hard.txt"],
    ["detect", "{d}/link.txt", "-o", "{d}/hard.txt"],
    ["mask", "{d}/in.txt", "-o", "{d}/in.txt", "--mapping-out", "{d}/m.json"],
    ["mask", "{d}/in.txt", "--mapping-out", "{d}/hard.txt"],
    ["mask", "{d}/in.txt", "-o", "{d}/m.json", "--mapping-out", "{d}/m.json"],
    ["unmask", "{d}/in.txt", "--mapping", "{d}/in.map.json", "-o", "{d}/link.txt"],
    ["unmask", "{d}/in.txt", "--mapping", "{d}/in.map.json", "-o", "{d}/in.map.json"],
    ["eval", "{d}/data.jsonl", "--json", "{d}/data.jsonl"],
    ["eval", "{d}/data.jsonl", "--save-predictions", "{d}/data.jsonl"],
    ["eval", "{d}/data.jsonl", "--json", "{d}/p.json", "--save-predictions", "{d}/p.json"],
    ["bench", "--data", "{d}/data.jsonl", "--json", "{d}/data.jsonl"],
    ["mask", "{d}/in.txt", "--session", "{d}/in.map.json", "--key-file", "{d}/in.map.json"],
    ["mask", "{d}/in.txt", "--session", "{d}/hard.txt", "-o", "{d}/x.txt"],
])
def test_no_output_may_be_an_input_or_another_output(files, argv, capsys):
    before = {p.name: p.read_bytes() for p in files.iterdir() if not p.is_symlink()}
    argv = [a.format(d=files) for a in argv] + ([] if argv[0] == "unmask" else ["--rules-only"])
    assert main(argv) == 1
    assert "would be lost" in capsys.readouterr().err
    assert {p.name: p.read_bytes() for p in files.iterdir() if not p.is_symlink()} == before


@pytest.mark.slow  # runs the CLI in processes
def test_unmask_counts_the_placeholders_another_files_mapping_cannot_restore(tmp_path):
    first, second = tmp_path / "a.txt", tmp_path / "b.txt"
    first.write_text(TEXT, encoding="utf-8")
    second.write_text(OTHER, encoding="utf-8")
    masked = run("mask", str(first), "--rules-only", "--mapping-out", str(tmp_path / "a.json"))
    assert run("mask", str(second), "--rules-only", "--mapping-out", str(tmp_path / "b.json")).returncode == 0
    (tmp_path / "a.masked").write_bytes(masked.stdout)
    wrong = run("unmask", str(tmp_path / "a.masked"), "--mapping", str(tmp_path / "b.json"))
    assert wrong.returncode == 0  # [EMAIL_1] is in both; [PHONE_1] only in a's
    assert b"1 placeholder(s) not in" in wrong.stderr and b"[PHONE_1]" in wrong.stderr
    strict = run("unmask", str(tmp_path / "a.masked"), "--mapping", str(tmp_path / "b.json"), "--strict",
                 "-o", str(tmp_path / "restored.txt"))
    assert strict.returncode == 1 and b"--strict" in strict.stderr and strict.stdout == b""
    assert not (tmp_path / "restored.txt").exists()
    right = run("unmask", str(tmp_path / "a.masked"), "--mapping", str(tmp_path / "a.json"), "--strict")
    assert right.returncode == 0 and right.stdout.decode("utf-8") == TEXT and right.stderr == b""


@pytest.mark.slow  # runs the CLI in processes
def test_unmask_counts_leftover_placeholders_of_the_mappings_own_format(tmp_path):
    source = tmp_path / "a.txt"
    source.write_text(TEXT, encoding="utf-8")
    masked = run("mask", str(source), "--rules-only", "--placeholder", "<<{label}#{n}>>",
                 "--mapping-out", str(tmp_path / "a.json"))
    assert b"<<PHONE#1>>" in masked.stdout
    mapping = json.loads((tmp_path / "a.json").read_text(encoding="utf-8"))
    del mapping["<<PHONE#1>>"]
    (tmp_path / "partial.json").write_text(json.dumps(mapping), encoding="utf-8")
    out = run("unmask", "-", "--mapping", str(tmp_path / "partial.json"), stdin=masked.stdout + b" <<PERSON#7>>")
    assert out.returncode == 0
    assert b"2 placeholder(s)" in out.stderr and b"<<PHONE#1>>" in out.stderr and b"<<PERSON#7>>" in out.stderr


@pytest.mark.slow  # runs the CLI in processes
def test_placeholders_the_author_wrote_are_not_counted_as_unrestored(tmp_path):
    # mask skips the numbers a text already uses: [EMAIL_1] was written by the author
    source = tmp_path / "a.txt"
    source.write_text("Voir [EMAIL_1], écrire à jean@example.fr ou au 06 12 34 56 78", encoding="utf-8")
    mapping = tmp_path / "a.json"
    masked = run("mask", str(source), "--rules-only", "--mapping-out", str(mapping))
    assert b"[EMAIL_2]" in masked.stdout and b"[PHONE_1]" in masked.stdout
    back = run("unmask", "-", "--mapping", str(mapping), "--strict", stdin=masked.stdout)
    assert back.returncode == 0 and back.stderr == b"", back.stderr
    assert back.stdout == source.read_bytes()
    # over the mapping's highest number of their label: they may be the LLM's, so they count
    invented = run("unmask", "-", "--mapping", str(mapping), stdin=masked.stdout + b" [EMAIL_3] [PHONE_2]")
    assert invented.returncode == 0 and b"2 placeholder(s)" in invented.stderr
    assert b"[EMAIL_3]" in invented.stderr and b"[EMAIL_1]" not in invented.stderr


@pytest.mark.slow  # runs the CLI in processes
def test_jsonl_unmask_strict_counts_over_all_records(tmp_path):
    data = tmp_path / "in.jsonl"
    data.write_text("".join(json.dumps({"text": t}) + "\n" for t in (TEXT, OTHER)), encoding="utf-8")
    masked = run("mask", "--jsonl", str(data), "--rules-only", "--mapping-out", str(tmp_path / "m.jsonl"))
    answer = masked.stdout.replace(b"[PHONE_1]", b"[PHONE_2]").replace(b"[IBAN_1]", b"[IBAN_3]")
    out = run("unmask", "--jsonl", "-", "--mapping", str(tmp_path / "m.jsonl"), "--strict", stdin=answer)
    assert out.returncode == 1 and b"2 placeholder(s)" in out.stderr and out.stdout == b""


@pytest.mark.parametrize("mapping, message", [
    ({"Bonjour": "Au revoir"}, "'Bonjour' is not a placeholder"),
    ({"[EMAIL_1]": "a@b.fr", "jean": "x"}, "'jean' is not a placeholder"),
    ({"[EMAIL_1]": "a@b.fr", "<PHONE-1>": "06"}, "two placeholder formats"),
    ({"[nope_1]": "x"}, "not a placeholder"),  # "[NOPE_1]" is one: a label a rules file may declare
])
def test_mapping_keys_must_be_placeholders_of_one_format(tmp_path, mapping, message, capsys):
    path = tmp_path / "m.json"
    path.write_text(json.dumps(mapping), encoding="utf-8")
    (tmp_path / "t.txt").write_text("Bonjour jean, [EMAIL_1]", encoding="utf-8")
    assert main(["unmask", str(tmp_path / "t.txt"), "--mapping", str(path)]) == 1
    captured = capsys.readouterr()
    assert message in captured.err and captured.out == ""
    lines = tmp_path / "m.jsonl"
    lines.write_text(json.dumps({"id": 0, "mapping": mapping}) + "\n", encoding="utf-8")
    with pytest.raises(MappingError, match="line 1"):
        io.read_mapping_lines(str(lines))


def test_a_custom_placeholder_format_is_accepted():
    assert io.placeholder_format({"<<PERSON#1>>": "Jean", "<<CREDIT_CARD#12>>": "4111"}) == "<<{label}#{n}>>"
    assert io.placeholder_format({"{1}-PERSON|": "Jean"}) == "{{{n}}}-{label}|"
    assert io.placeholder_format({}) is None


@pytest.mark.slow  # runs the CLI in processes
def test_output_into_a_missing_folder_fails_before_anything_is_written(tmp_path):
    source = tmp_path / "in.txt"
    source.write_text(TEXT, encoding="utf-8")
    mapping = tmp_path / "in.map.json"
    out = run("mask", str(source), "--rules-only", "--mapping-out", str(mapping), "-o", str(tmp_path / "no" / "o.txt"))
    assert out.returncode == 1 and out.stdout == b""
    assert b"does not exist" in out.stderr and b".tmp" not in out.stderr and b"Traceback" not in out.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == ["in.txt"]  # no mapping left behind
    retry = run("mask", str(source), "--rules-only", "--mapping-out", str(mapping), "-o", str(tmp_path / "o.txt"))
    assert retry.returncode == 0, retry.stderr  # no --force needed
    missing_mapping_folder = run("mask", str(source), "--rules-only", "--mapping-out", str(tmp_path / "no" / "m"))
    assert missing_mapping_folder.returncode == 1 and missing_mapping_folder.stdout == b""
    assert b"does not exist" in missing_mapping_folder.stderr


def test_outputs_are_written_together_or_not_at_all(tmp_path, monkeypatch):
    mapping, out = tmp_path / "m.json", tmp_path / "o.txt"
    real_replace = os.replace

    def failing_replace(src, dst):
        if Path(dst) == out:
            raise OSError(28, "No space left on device")
        return real_replace(src, dst)

    monkeypatch.setattr(io.os, "replace", failing_replace)
    with pytest.raises(OSError):
        io.write_outputs([io.Output(str(mapping), "{}", private=True, overwrite=False), io.Output(str(out), "x")])
    assert list(tmp_path.iterdir()) == []  # the mapping placed first was taken back, no temp file left
    mapping.write_text("{}")
    with pytest.raises(InputError, match="exists"):
        io.write_outputs([io.Output(str(mapping), "new", overwrite=False)])
    assert mapping.read_text() == "{}"


def test_a_new_mapping_is_placed_without_hard_links_too(tmp_path, monkeypatch):
    def no_links(src, dst):
        raise OSError(1, "Operation not permitted")

    monkeypatch.setattr(io.os, "link", no_links)
    mapping = tmp_path / "m.json"
    io.write_outputs([io.Output(str(mapping), '{"[EMAIL_1]": "a@b.fr"}', private=True, overwrite=False)])
    assert mapping.read_text() == '{"[EMAIL_1]": "a@b.fr"}' and mapping.stat().st_mode & 0o777 == 0o600
    assert [p.name for p in tmp_path.iterdir()] == ["m.json"]
    with pytest.raises(InputError, match="exists"):
        io.write_outputs([io.Output(str(mapping), "new", overwrite=False)])
    assert mapping.read_text() == '{"[EMAIL_1]": "a@b.fr"}'


@pytest.mark.parametrize("argv", [
    ["detect", "-", "--threads", "0"],
    ["detect", "-", "--threads", "-2"],
    ["detect", "-", "--threads", "two"],
    ["mask", "-", "--recall-bias", "nan"],
    ["mask", "-", "--recall-bias", "inf"],
    ["detect", "-", "--threshold", "nan"],
    ["detect", "-", "--threshold", "1.5"],
    ["detect", "-", "--threshold", "-0.1"],
    ["detect", "-", "--batch-size", "0"],
    ["mask", "-", "--batch-size", "-1"],
    ["eval", "x.jsonl", "--errors", "-1"],
    ["eval", "x.jsonl", "--batch-size", "0"],
    ["eval", "x.jsonl", "--threads", "0"],
    ["detect", "-", "--backend", "tensorrt"],
    ["mask", "-", "--backend", "OpenVINO"],
    ["bench", "--backend", "gpu"],
    ["bench", "--runs", "0"],
    ["bench", "--corpus-chars", "0"],
    ["bench", "--max-length", "-5"],
    ["bench", "--recall-bias", "-inf"],
])
def test_bad_option_values_are_usage_errors(argv, capsys):
    with pytest.raises(SystemExit) as exit_info:
        main(argv)
    assert exit_info.value.code == 2
    assert "error: argument" in capsys.readouterr().err


def test_engine_refuses_bad_threads_and_recall_bias():
    from alias_engine import Engine

    for kwargs in ({"threads": 0}, {"threads": 1.5}, {"recall_bias": float("nan")}, {"recall_bias": "1"},
                   {"backend": "gpu"}):
        with pytest.raises(ValueError):
            Engine(use_model=False, **kwargs)


@pytest.mark.slow  # runs the CLI in processes
def test_stdin_mapping_goes_to_a_new_private_file_outside_the_working_tree(tmp_path):
    work, state = tmp_path / "repo", tmp_path / "state"
    work.mkdir()
    env = {"XDG_STATE_HOME": str(state)}
    first = run("mask", "--rules-only", stdin=TEXT.encode(), cwd=work, env=env)
    second = run("mask", "--rules-only", stdin=TEXT.encode(), cwd=work, env=env)
    assert first.returncode == 0 and second.returncode == 0, second.stderr
    assert list(work.iterdir()) == []  # no personal data dropped in the working tree
    mappings = sorted((state / "alias-engine").iterdir())
    assert len(mappings) == 2
    assert oct((state / "alias-engine").stat().st_mode & 0o777) == "0o700"
    assert all(oct(m.stat().st_mode & 0o777) == "0o600" for m in mappings)
    named = Path(first.stderr.decode().split("mapping written to ")[1].strip())
    assert named in mappings
    back = run("unmask", "--mapping", str(named), stdin=first.stdout, cwd=work, env=env)
    assert back.stdout.decode("utf-8") == TEXT


def test_gitignore_covers_what_the_readme_commands_write():
    from fnmatch import fnmatch

    patterns = [line.strip().lstrip("/") for line in (ROOT / ".gitignore").read_text().splitlines()
                if line.strip() and not line.startswith("#")]
    written = []
    for line in (ROOT / "README.md").read_text(encoding="utf-8").splitlines():
        words = line.split()
        if "alias-engine" not in words:
            continue
        for flag, value in zip(words, words[1:]):
            if flag in ("-o", "--out", "--mapping-out", "--session", "--json", "--save-predictions"):
                written.append(value)
    assert "sample.mapping.json" in written and "conv.vault" in written
    for path in written:
        assert any(fnmatch(path, p) or fnmatch(Path(path).name, p) for p in patterns), path
    assert any(fnmatch("conv.vault.lock", p) for p in patterns)


def test_session_unmask_strict(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("ALIAS_ENGINE_KEY", "a long enough passphrase")
    source, vault_path, answer = tmp_path / "t.txt", tmp_path / "s.vault", tmp_path / "answer.txt"
    source.write_text(TEXT, encoding="utf-8")
    assert main(["mask", "--rules-only", "--session", str(vault_path), str(source)]) == 0
    masked = capsys.readouterr().out
    answer.write_text(masked + " [EMAIL_4]", encoding="utf-8")
    out = tmp_path / "restored.txt"
    assert main(["unmask", "--session", str(vault_path), str(answer), "--strict", "-o", str(out)]) == 1
    assert "1 placeholder(s) not in the session" in capsys.readouterr().err and not out.exists()
    answer.write_text(masked, encoding="utf-8")
    assert main(["unmask", "--session", str(vault_path), str(answer), "--strict", "-o", str(out)]) == 0
    assert out.read_text(encoding="utf-8") == TEXT
