"""The Spark adapter (alias_engine/adapters/spark.py) on a real local[2] Spark."""

from __future__ import annotations

import os
import shutil
import sys

import pytest

pytest.importorskip("pyspark", reason="the [spark] extra is not installed")
pytest.importorskip("pyarrow", reason="the [spark] extra is not installed (pyarrow)")
if not (shutil.which("java") or os.environ.get("JAVA_HOME")):
    pytest.skip("no JDK on this machine (Spark needs Java 17+: apt-get install openjdk-17-jre-headless)",
                allow_module_level=True)

from alias_engine.adapters.spark import mask_columns, masked_and_mappings, unmask_columns  # noqa: E402
from alias_engine.errors import AliasEngineError  # noqa: E402

RULES = {"use_model": False}


@pytest.fixture(scope="module")
def spark():
    os.environ.setdefault("PYSPARK_PYTHON", sys.executable)  # the workers run this interpreter
    from pyspark.sql import SparkSession

    session = (SparkSession.builder.master("local[2]").appName("alias-engine-tests")
               .config("spark.ui.enabled", "false").config("spark.sql.shuffle.partitions", "2")
               .config("spark.driver.memory", "1g").getOrCreate())
    session.sparkContext.setLogLevel("ERROR")
    yield session
    session.stop()


def _rows(n: int) -> list[tuple]:
    rows = []
    for i in range(n):
        if i % 50 == 7:
            rows.append((i, None, ""))
            continue
        mail = f"client{i}@example.fr"
        rows.append((i, f"Écrire à {mail} ou au 06 12 34 {i % 100:02d} {(i * 7) % 100:02d}",
                     f"Réf. {i}: copie à {mail}, IBAN FR76 3000 6000 0112 3456 7890 189"))
    return rows


def test_ten_thousand_rows_mask_and_restore_exactly(spark):
    rows = _rows(10_000)
    df = spark.createDataFrame(rows, "id long, subject string, body string").repartition(4)
    full = masked_and_mappings(df, ["subject", "body"], id_column="id", engine=RULES).persist()  # one pass
    got = {r.id: (r.subject, r.body, r.alias_mapping) for r in full.collect()}
    assert len(got) == len(rows)
    for i, subject, _body in rows:
        masked_subject, masked_body, _ = got[i]
        if subject is None:
            assert (masked_subject, masked_body) == (None, "")  # nulls and empty strings pass through
            continue
        assert f"client{i}@example.fr" not in masked_subject + masked_body
        assert "FR76" not in masked_body
        assert "[EMAIL_1]" in masked_subject and "[EMAIL_1]" in masked_body  # one value, one placeholder per row
    restored = {r.id: (r.subject, r.body) for r in unmask_columns(full, ["subject", "body"]).collect()}
    assert restored == {i: (s, b) for i, s, b in rows}


def test_a_partition_key_shares_placeholders_across_rows(spark):
    rows = [(1, "p1", "Mail a.martin@example.fr"), (2, "p1", "Nouveau: b.leroy@example.fr et a.martin@example.fr"),
            (3, "p2", "Mail b.leroy@example.fr")]
    df = spark.createDataFrame(rows, "id int, patient string, note string")
    masked, mappings = mask_columns(df, ["note"], id_column="id", partition_by="patient", engine=RULES)
    notes = {r.id: r.note for r in masked.collect()}
    assert notes[1] == "Mail [EMAIL_1]"
    assert notes[2] == "Nouveau: [EMAIL_2] et [EMAIL_1]"  # the same patient: a.martin is still [EMAIL_1]
    assert notes[3] == "Mail [EMAIL_1]"                  # another patient: its own numbering
    restored = unmask_columns(masked.join(mappings, "id"), ["note"]).collect()
    assert {r.id: r.note for r in restored} == {i: n for i, _, n in rows}


def test_surrogates_are_deterministic_under_a_key_and_restore(spark):
    rows = [(i, f"Mail jean.dupont{i}@example.fr, tél. 06 12 34 56 7{i}") for i in range(6)]
    df = spark.createDataFrame(rows, "id int, text string")
    first = masked_and_mappings(df, ["text"], id_column="id", mode="surrogate", key="k1", engine=RULES).collect()
    again = masked_and_mappings(df, ["text"], id_column="id", mode="surrogate", key="k1", engine=RULES).collect()
    assert sorted(first) == sorted(again)
    for row in first:
        assert "jean.dupont" not in row.text and "[" not in row.text  # realistic values, no placeholder
    restored = unmask_columns(spark.createDataFrame(first), ["text"]).collect()
    assert sorted((r.id, r.text) for r in restored) == rows


def test_a_row_that_cannot_be_masked_fails_the_job_naming_its_id(spark):
    def engine():
        from alias_engine import Engine

        def flaky(text):
            if "BOOM" in text:
                raise RuntimeError("detector down")
            return []

        return Engine(use_model=False, detectors=[flaky])

    df = spark.createDataFrame([(1, "fine"), (42, "secret BOOM jean.dupont@example.fr"), (3, "fine too")],
                               "id int, text string")
    masked, _ = mask_columns(df, ["text"], id_column="id", engine=engine)
    with pytest.raises(Exception) as failure:
        masked.collect()
    message = str(failure.value)
    assert "row id=42" in message and "could not be masked" in message
    assert "jean.dupont@example.fr" not in message


def test_bad_input_is_refused_before_anything_runs(spark):
    df = spark.createDataFrame([(1, "a", 3)], "id int, text string, n int")
    for call, match in [
        (lambda: mask_columns(df, ["n"], id_column="id", engine=RULES), "column 'n' is int, not string"),
        (lambda: mask_columns(df, ["nope"], id_column="id", engine=RULES), "no column 'nope'"),
        (lambda: mask_columns(df, "text", id_column="id", engine=RULES), "non-empty list"),
        (lambda: mask_columns(df, ["text"], id_column="text", engine=RULES), "must not be masked"),
        (lambda: mask_columns(df, ["text"], id_column="id", mode="hash", engine=RULES), "mode must be"),
        (lambda: mask_columns(df, ["text"], id_column="id", engine={"use_modle": False}), "unknown Engine options"),
        (lambda: mask_columns(df, ["text"], id_column=None, engine=RULES), "id_column must name"),
    ]:
        with pytest.raises(AliasEngineError, match=match):
            call()


def test_the_model_masks_names_in_a_dataframe(spark):
    rows = [(i, f"Bonjour, je suis {name} et j'attends votre appel.") for i, name in
            enumerate(["Jean Dupont", "Marie Curie", "Sophie Martin", "Pierre Lefèvre"])]
    df = spark.createDataFrame(rows, "id int, text string").coalesce(1)
    masked, mappings = mask_columns(df, ["text"], id_column="id")  # the shipped model
    texts = [r.text for r in masked.collect()]
    assert all("[PERSON_1]" in t for t in texts), texts
    restored = unmask_columns(masked.join(mappings, "id"), ["text"]).collect()
    assert sorted((r.id, r.text) for r in restored) == rows
