"""Tests of the synthetic training-document generator."""

from __future__ import annotations

import hashlib
import json
import re

import pytest

pytest.importorskip("faker")

from stdnum import iban as std_iban  # noqa: E402
from stdnum import luhn  # noqa: E402
from stdnum.fr import nir as std_nir  # noqa: E402

from alias_engine.errors import InputError  # noqa: E402
from alias_engine.labels import LABELS  # noqa: E402
from training.generate import generate, main  # noqa: E402
from training.synth.doc import Doc, clean_value, fill  # noqa: E402

N = 400


@pytest.fixture(scope="module", params=("v2", "v3", "v4"))
def docs(request) -> list[dict]:
    return list(generate(N, seed=11, recipe=request.param))


# sha256 of the first 50 JSONL lines `--recipe v2` wrote before recipe v3 existed (Faker 40.63.0).
V2_PINNED = {("heldout", 1001): "e7fa18394ac61d623ef3291a546832fe88d559a843961a5f3676452318dafe55",
             ("train", 1): "db3bbe2c44256a101b963c5d96c3c519df1ced405f2128fdcbb7bb2ad9340868"}


@pytest.mark.parametrize("split, seed", sorted(V2_PINNED))
def test_recipe_v2_output_never_changes(split: str, seed: int) -> None:
    """The held-out set every figure is measured on (seed 1001, heldout) and the default training data are
    recipe v2: new document kinds go into a new recipe, never into v2. (A Faker upgrade also moves these.)"""
    for kwargs in ({}, {"recipe": "v2"}):
        digest = hashlib.sha256()
        for d in generate(50, seed=seed, split=split, **kwargs):
            digest.update((json.dumps(d, ensure_ascii=False) + "\n").encode("utf-8"))
        assert digest.hexdigest() == V2_PINNED[(split, seed)]


def test_deterministic_for_a_seed() -> None:
    a = list(generate(30, seed=3))
    b = list(generate(30, seed=3))
    assert a == b
    assert list(generate(10, seed=3)) == a[:10]
    assert [d["text"] for d in generate(30, seed=4)] != [d["text"] for d in a]


def test_record_format(docs: list[dict]) -> None:
    ids = set()
    for d in docs:
        assert set(d) == {"text", "spans", "lang", "id", "domain"}
        assert isinstance(d["text"], str) and d["text"]
        assert d["lang"] in ("fr", "en")
        ids.add(d["id"])
        json.dumps(d)
    assert len(ids) == len(docs)


def test_spans_valid_sorted_non_overlapping_and_stripped(docs: list[dict]) -> None:
    for d in docs:
        prev_end = 0
        for s in d["spans"]:
            assert s["label"] in LABELS
            assert prev_end <= s["start"] < s["end"] <= len(d["text"]), d["id"]
            value = d["text"][s["start"]:s["end"]]
            lead, core, trail = clean_value(value, s["label"])
            assert (lead, trail) == ("", ""), (d["id"], s["label"], value)
            assert value == value.strip()
            prev_end = s["end"]


def test_all_labels_and_both_languages_appear(docs: list[dict]) -> None:
    labels = {s["label"] for d in docs for s in d["spans"]}
    assert labels == set(LABELS)
    assert {d["lang"] for d in docs} == {"fr", "en"}
    assert len({d["domain"] for d in docs}) >= 8


def test_language_filter() -> None:
    assert {d["lang"] for d in generate(40, seed=1, langs=["fr"])} == {"fr"}
    assert {d["lang"] for d in generate(40, seed=1, langs=["en"])} == {"en"}


def test_bad_arguments_raise_input_error() -> None:
    with pytest.raises(InputError):
        list(generate(3, seed=1, langs=["de"]))
    with pytest.raises(InputError):
        list(generate(-1, seed=1))
    with pytest.raises(InputError):
        list(generate(1, seed=1, recipe="v9"))


def _values(docs: list[dict], label: str) -> list[str]:
    return [d["text"][s["start"]:s["end"]] for d in docs for s in d["spans"] if s["label"] == label]


def test_checksums_mostly_valid(docs: list[dict]) -> None:
    ibans = _values(docs, "IBAN")
    assert ibans
    ok = sum(std_iban.is_valid(v) for v in ibans)
    assert ok / len(ibans) >= 0.8
    assert ok < len(ibans) or len(ibans) < 20  # some invalid ones in clear context

    cards = [re.sub(r"\D", "", v) for v in _values(docs, "CREDIT_CARD")]
    assert cards
    assert sum(luhn.is_valid(v) for v in cards) / len(cards) >= 0.8

    nirs = [v for v in _values(docs, "NATIONAL_ID") if len(re.sub(r"[\s.]", "", v)) == 15]
    assert nirs
    assert sum(std_nir.is_valid(v) for v in nirs) / len(nirs) >= 0.75


def test_titles_and_keywords_stay_outside_spans(docs: list[dict]) -> None:
    for d in docs:
        for s in d["spans"]:
            value = d["text"][s["start"]:s["end"]]
            if s["label"] == "PERSON":
                assert not re.match(r"(?:Mme|Mrs|Mr|Dr|Ms|Madame|Monsieur)\s", value), value
            if s["label"] == "BIRTH_DATE":
                assert not re.search(r"(?i)\b(?:né|née|born|dob)\b", value), value
            if s["label"] == "SECRET":
                assert not re.match(r"(?i)(?:password|mot de passe)\s*[:=]", value), value


def test_multiline_addresses_are_one_span(docs: list[dict]) -> None:
    multi = [v for v in _values(docs, "ADDRESS") if "\n" in v]
    assert multi


def test_doc_offsets_exact_by_construction() -> None:
    import random

    doc = Doc(random.Random(0))

    def resolve(key: str, n: int):
        return {"P": ("Jean Dupont", "PERSON"), "X": ("hunter2 ", "SECRET"), "C": ("Acme", None)}[key]

    fill(doc, "Bonjour M. {P}, password: {X}chez {C}.", resolve)
    text = doc.text()
    assert [(text[s:e], label) for s, e, label in doc.spans] == [("Jean Dupont", "PERSON"), ("hunter2", "SECRET")]


def test_clean_value_keeps_phone_prefix_and_secret_punctuation() -> None:
    assert clean_value("hunter2!", "SECRET") == ("", "hunter2!", "")
    assert clean_value(" 12 Elm St.", "ADDRESS") == (" ", "12 Elm St", ".")


def test_cli_writes_jsonl(tmp_path) -> None:
    out = tmp_path / "g.jsonl"
    assert main(["--out", str(out), "--n", "5", "--seed", "2", "--lang", "fr"]) == 0
    rows = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    assert len(rows) == 5 and all(r["lang"] == "fr" for r in rows)
    assert main(["--out", str(out), "--n", "5", "--lang", "xx"]) == 2
    assert main(["--out", str(out), "--n", "40", "--seed", "2", "--recipe", "v3"]) == 0
    rows = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    assert rows == list(generate(40, seed=2, recipe="v3"))


def test_connection_string_labels_its_password_and_a_persons_user_name() -> None:
    import random

    from training.synth.context import Ctx
    from training.synth.fakers import Fakers

    ctx = Ctx(random.Random(5), Fakers(), "en")
    doc = Doc(random.Random(5))
    fill(doc, "DATABASE_URL={CONNSTR}\n", ctx.resolve)
    text = doc.text()
    *user, (start, end, label) = doc.spans
    assert label == "SECRET"
    assert text[start - 1] == ":" and text[end] == "@"
    assert "://" in text[:start]
    for u_start, u_end, u_label in user:  # LABELS.md: the user name of a connection string is an IDENTIFIER
        assert u_label == "IDENTIFIER" and text[u_start - 3:u_start] == "://" and text[u_end] == ":"


def test_spans_never_glued_to_a_neighbouring_letter_or_digit(docs: list[dict]) -> None:
    for d in docs:
        text = d["text"]
        for s in d["spans"]:
            before = text[s["start"] - 1] if s["start"] > 0 else " "
            after = text[s["end"]] if s["end"] < len(text) else " "
            assert not before.isalnum() and not after.isalnum(), (d["id"], text[s["start"]:s["end"]])


def test_embed_quotes_lines_and_keeps_spans_on_their_values() -> None:
    import random

    inner = Doc(random.Random(0))
    inner.t("Hi,\n")
    inner.v("12 rue X\n75011 Paris", "ADDRESS")
    inner.t("\nby ")
    inner.v("Jean", "PERSON")
    outer = Doc(random.Random(0))
    outer.t("Reply\n")
    outer.embed(inner, "> ")
    text = outer.text()
    assert text == "Reply\n> Hi,\n> 12 rue X\n> 75011 Paris\n> by Jean"
    assert [(text[s:e], label) for s, e, label in outer.spans] == [
        ("12 rue X\n> 75011 Paris", "ADDRESS"), ("Jean", "PERSON")]


def test_one_name_is_one_span(docs: list[dict]) -> None:
    for d in docs:
        for a, b in zip(d["spans"], d["spans"][1:]):
            gap = d["text"][a["end"]:b["start"]]
            assert not (a["label"] == b["label"] == "PERSON" and gap.strip(" ") == ""), (d["id"], gap)


def test_cli_reports_unwritable_output(tmp_path) -> None:
    assert main(["--out", str(tmp_path / "missing" / "g.jsonl"), "--n", "1"]) == 2


@pytest.mark.slow  # runs the CLI in processes
def test_output_does_not_depend_on_python_hash_seed(tmp_path) -> None:
    import os
    import subprocess
    import sys
    from pathlib import Path

    root = Path(__file__).resolve().parents[1]
    for recipe in ("v2", "v3", "v4"):
        outputs = []
        for hash_seed in ("0", "12345"):
            out = tmp_path / f"g{recipe}{hash_seed}.jsonl"
            env = dict(os.environ, PYTHONHASHSEED=hash_seed, PYTHONPATH=str(root))
            subprocess.run([sys.executable, "-m", "training.generate", "--out", str(out), "--n", "300",
                            "--seed", "4", "--recipe", recipe], check=True, env=env, cwd=root)
            outputs.append(out.read_text(encoding="utf-8"))
        assert outputs[0] == outputs[1], recipe


def test_train_and_heldout_splits_use_disjoint_surnames() -> None:
    import random

    from training.synth.fakers import Fakers
    from training.synth.names import random_name_in_split, surname_split

    fakers = Fakers()
    rng = random.Random(3)
    for split in ("train", "heldout"):
        names = [random_name_in_split(rng, fakers, "fr", split) for _ in range(60)]
        assert all(surname_split(n.last) == split for n in names)
    assert {d["text"] for d in generate(5, seed=2, split="heldout")} != {d["text"] for d in generate(5, seed=2)}
    with pytest.raises(InputError):
        list(generate(1, split="dev"))
