"""Several runs on one session vault at once: each load-mask-save waits for the others,
so no placeholder is handed out twice for different values, and nothing is lost."""

import os
import subprocess
import sys
import threading
from pathlib import Path

import pytest
from _session_helpers import DETECTOR

from alias_engine import Session
from alias_engine.pseudonymise.vault import vault_lock

ROOT = Path(__file__).resolve().parents[1]
CLI = ROOT / "tests" / "_cli.py"  # the CLI with cheap vaults
KEY = b"a long enough passphrase"
TEXTS = [f"Écrire à user{i}@example.fr, tél 06 {i}{i} {i}{i} {i}{i} {i}{i}." for i in range(1, 5)]


def test_two_threads_mask_into_one_vault(tmp_path):
    path = tmp_path / "s.vault"
    barrier = threading.Barrier(2)
    masked: dict[int, str] = {}
    inside = threading.Event()
    overlaps = []

    def turn(i: int) -> None:
        barrier.wait()
        with vault_lock(path):
            overlaps.append(inside.is_set())
            inside.set()
            session = Session.load(path, KEY, DETECTOR) if path.exists() else Session(DETECTOR)
            masked[i] = session.mask(TEXTS[i]).text
            threading.Event().wait(0.1)  # a slow turn: the other thread must wait, not read the old vault
            session.save(path, KEY)
            inside.clear()

    threads = [threading.Thread(target=turn, args=(i,)) for i in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert overlaps == [False, False]
    assert {masked[0], masked[1]} == {"Écrire à [EMAIL_1], tél [PHONE_1].", "Écrire à [EMAIL_2], tél [PHONE_2]."}
    final = Session.load(path, KEY, DETECTOR)
    assert [final.unmask(masked[i]) for i in range(2)] == TEXTS[:2]
    assert (tmp_path / "s.vault.lock").exists() and oct((tmp_path / "s.vault.lock").stat().st_mode & 0o777) == "0o600"


@pytest.mark.slow
def test_parallel_cli_runs_on_one_vault_never_share_a_placeholder(tmp_path):
    key_file = tmp_path / "key"
    key_file.write_bytes(KEY + b"\n")
    key_file.chmod(0o600)
    vault = tmp_path / "same.vault"
    # a cost high enough that load and save take a while: without the lock the runs overlap
    env = {**os.environ, "PYTHONPATH": str(ROOT), "SUITE_SCRYPT_LOG2_N": "14"}
    base = [sys.executable, str(CLI), "mask", "--rules-only", "--session", str(vault),
            "--key-file", str(key_file)]
    for i, text in enumerate(TEXTS):
        (tmp_path / f"{i}.txt").write_text(text, encoding="utf-8")
    runs = [subprocess.Popen([*base, str(tmp_path / f"{i}.txt"), "-o", str(tmp_path / f"{i}.masked")],
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env) for i in range(len(TEXTS))]
    for run in runs:
        _, err = run.communicate(timeout=120)
        assert run.returncode == 0, err
    masked = [(tmp_path / f"{i}.masked").read_text(encoding="utf-8") for i in range(len(TEXTS))]
    emails = [m.split("à ")[1].split(",")[0] for m in masked]
    assert sorted(emails) == ["[EMAIL_1]", "[EMAIL_2]", "[EMAIL_3]", "[EMAIL_4]"], masked
    for i in range(len(TEXTS)):
        back = subprocess.run([sys.executable, str(CLI), "unmask", "--session", str(vault),
                               "--key-file", str(key_file), str(tmp_path / f"{i}.masked")],
                              capture_output=True, env=env, timeout=120)
        assert back.returncode == 0 and back.stdout.decode("utf-8") == TEXTS[i], back.stderr
    assert not any("example.fr" in m for m in masked)
