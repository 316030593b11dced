"""Tables: header cells that are keywords label the cells of their column."""

from __future__ import annotations

import pytest

from alias_engine import Engine
from alias_engine.detectors.rules import detect_with_rules, load_rules
from alias_engine.detectors.tables import find_table_spans, named_tables
from alias_engine.merge import merge_spans
from alias_engine.resources import data_dir


@pytest.fixture(scope="module")
def rules():
    return load_rules(data_dir("rules"))


def labelled(text, rules):
    return [(text[s.start:s.end], s.label) for s in merge_spans(detect_with_rules(text, "fr", rules))]


def test_csv_with_semicolons(rules):
    text = ("nom;n°_cni;numéro_de_passeport;date_de_naiss.;mot_de_passe\n"
            "Adebayo Okafor;VS4AQL4N0;91HL48666;24 mai 1946;Monkey774\n"
            "Li Zhang;S2NOPM83M;G69230855;16-9-1952;t-pcGEmhZ6o_ER&\n")
    assert labelled(text, rules) == [
        ("Adebayo Okafor", "PERSON"), ("VS4AQL4N0", "NATIONAL_ID"), ("91HL48666", "NATIONAL_ID"),
        ("24 mai 1946", "BIRTH_DATE"), ("Monkey774", "SECRET"), ("Li Zhang", "PERSON"),
        ("S2NOPM83M", "NATIONAL_ID"), ("G69230855", "NATIONAL_ID"), ("16-9-1952", "BIRTH_DATE"),
        ("t-pcGEmhZ6o_ER&", "SECRET")]


@pytest.mark.parametrize("text, expected", [
    # a form's "KEY | value" lines: each value is named by its own key, the keys are no names
    ("NOM ET PRÉNOM | GEORGE SHELBY\nDATE | 12/03/2024\nVILLE | Lyon\n", [("GEORGE SHELBY", "PERSON")]),
    ("SURNAME, FIRST NAME | ARNOLD NANCY\nTELEPHONE | 07700 900461\nVEHICLE | Ford Focus\n",
     [("ARNOLD NANCY", "PERSON"), ("07700 900461", "PHONE")]),
    # counter-examples: two-column tables under a header whose second cell is a field too
    ("Nom | Téléphone\nDupont | 06 12 34 56 78\nMorel | 07 12 34 56 78\n",
     [("Dupont", "PERSON"), ("06 12 34 56 78", "PHONE"), ("Morel", "PERSON"), ("07 12 34 56 78", "PHONE")]),
    ("nom;ville\nDupont;Lyon\nMorel;Brest\n", [("Dupont", "PERSON"), ("Morel", "PERSON")]),
])
def test_a_form_of_key_value_lines_is_no_table(text, expected):
    engine = Engine(use_model=False)
    assert [(text[s.start:s.end], s.label) for s in engine.detect(text, "fr")] == expected


def test_markdown_table_and_header_suffix(rules):
    text = ("| Name | Login | Spanish DNI | Website |\n"
            "|---|---|:---:|---|\n"
            "| Nathan Brookes | nathan1546 | 94889566F | https://www.brookes.me/ |\n"
            "| Pavla Horák | pavla_horak | 81099394Z | pavla.horak.cz |\n")
    assert labelled(text, rules) == [  # "Name" over a table about people: a name column
        ("Nathan Brookes", "PERSON"), ("nathan1546", "IDENTIFIER"), ("94889566F", "NATIONAL_ID"),
        ("https://www.brookes.me/", "URL"), ("Pavla Horák", "PERSON"), ("pavla_horak", "IDENTIFIER"),
        ("81099394Z", "NATIONAL_ID"), ("pavla.horak.cz", "URL")]


def test_tab_separated_with_quoted_csv_cells(rules):
    text = 'name,tel,"iban"\n"Dupont, Jean",06 12 34 56 7,"FR76 3000 6000 0112 3456 7890 189"\n'
    assert labelled(text, rules) == [("06 12 34 56 7", "PHONE"), ("FR76 3000 6000 0112 3456 7890 189", "IBAN")]
    text = "nom\ttéléphone\tdate de naissance\nJean\t+33 6 12 34 56 78\t12/03/1985\n"
    assert labelled(text, rules) == [("Jean", "PERSON"), ("+33 6 12 34 56 78", "PHONE"), ("12/03/1985", "BIRTH_DATE")]


def test_a_siret_column_suppresses_its_cells(rules):
    text = "société;siret;tél\nACME;732 829 320 00074;01 23 45 67 89\n"
    assert labelled(text, rules) == [("01 23 45 67 89", "PHONE")]


def test_cells_of_the_wrong_shape_and_placeholders_are_left(rules):
    text = "name,password,date of birth\nJean,********,unknown\nMarie,<secret>,n/a\n"
    assert find_table_spans(text, rules.keywords) == ([], [])


def test_columns_laid_out_with_spaces(rules):
    text = ("Enfants à charge\n"
            "Nom                Date de naissance    Lien\n"
            "GARNIER Lou        11/04/2016           fils\n"
            "GARNIER Inès       30/12/2019           fille\n"
            "Total : 2 enfants\n")
    assert [v for v in labelled(text, rules) if v[1] == "BIRTH_DATE"] == [
        ("11/04/2016", "BIRTH_DATE"), ("30/12/2019", "BIRTH_DATE")]
    shifted = text.replace("GARNIER Inès       30", "GARNIER Inès   30")   # not under its header: no table
    assert find_table_spans(shifted, rules.keywords)[0] == [
        s for s in find_table_spans(text, rules.keywords)[0] if s.end <= text.index("GARNIER Inès")]


def test_a_space_laid_row_with_empty_cells_stays_in_its_table(rules):
    text = ("Bed  Patient          Hosp No    DOB\n"
            "1    HAWES, Dora      RX5208374  19/03/1946\n"
            "2    (vacant)\n"
            "3    OKAFOR, Ben      RX5239618  27/10/1979\n"
            "Page the on-call F1 on 3390 if the NEWS score rises.\n")
    assert [v for v in labelled(text, rules) if v[1] != "PERSON"] == [
        ("RX5208374", "IDENTIFIER"), ("19/03/1946", "BIRTH_DATE"), ("RX5239618", "IDENTIFIER"), ("27/10/1979", "BIRTH_DATE")]


def test_a_table_typed_by_hand_whose_cells_drift_a_character_from_its_header(rules):
    text = ("Hosp No      Patient          DOB\n"
            "RX5208374   HAWES, Dora      19/03/1946\n"      # one column left of the header's cells
            "RX5239618    OKAFOR, Ben      27/10/1979\n")
    assert [v for v in labelled(text, rules) if v[1] != "PERSON"] == [
        ("RX5208374", "IDENTIFIER"), ("19/03/1946", "BIRTH_DATE"), ("RX5239618", "IDENTIFIER"), ("27/10/1979", "BIRTH_DATE")]
    two_off = text.replace("RX5208374   HAWES", "RX5208374  HAWES")   # two characters: not under its header
    assert ("19/03/1946", "BIRTH_DATE") not in labelled(two_off, rules)


def test_a_line_of_spaces_ends_a_space_laid_table():
    text = "Name   City   Team\nAnn    Lyon   Ops\n      \nBo     Metz   IT\n"
    assert find_table_spans(text, load_rules(data_dir("rules")).keywords) == ([], [])   # no error, no column named


@pytest.mark.parametrize("text, value, label", [
    ("Date        Status      Amount\n2026-11-02  paid        50.00\n2026-11-03  due         12.00\nLogin:     jdoe42\n",
     "jdoe42", "IDENTIFIER"),                            # a form's line after the table is no row of it
    ("Product     Qty    Price\nLamp        2      12.00\nChair       1      30.00\nAccount:   88120044\n",
     "88120044", "IDENTIFIER"),
    ("Name       City       Team\nAnn Lee    Austin     Sales\n Bo Chan   3619524087  Ops\n", "3619524087", "PHONE"),
])
def test_only_a_full_row_may_drift_from_its_header(rules, text, value, label):
    """A row with fewer cells than the header's starts them at its columns exactly, or ends the table:
    a value under a column that holds no one's ("Status", "City") is not dropped as its."""
    assert (value, label) in [(v, lab) for v, lab in
                              [(text[s.start:s.end], s.label) for s in Engine(use_model=False).detect(text, "en")]]


@pytest.mark.parametrize("text", [
    "Bonjour, je suis Jean, né à Lyon, et voilà.\nMerci, à bientôt, Jean.\n",
    "FULL NAME  GARNIER LOU\nTELEPHONE  06 12 34 56 78\n",      # a form's "KEY  value" lines
    "Nom        Date 2024        Lien\nGARNIER    11/04/2016       fils\nMARTIN     01/01/2001       fille\n",
    "password\nhunter2\n",
    "a|b\n",
])
def test_not_tables(rules, text):
    assert find_table_spans(text, rules.keywords) == ([], [])


def test_vcard_lines(rules):
    text = ("BEGIN:VCARD\nFN:Ji-woo Wang\nTEL;TYPE=cell:07.58.36.85.89\nURL:https://ji-woo.wang.blogspot.com\n"
            "BDAY:11-Jun-1954\nEND:VCARD\nDOCS_URL: https://www.sncf-connect.com\n")
    assert labelled(text, rules) == [("07.58.36.85.89", "PHONE"), ("https://ji-woo.wang.blogspot.com", "URL"),
                                     ("11-Jun-1954", "BIRTH_DATE")]


def test_a_psql_tables_header_rule_is_read_like_markdowns():
    text = (" member_id | username  | plan\n-----------+-----------+------\n 884211    | jrosa88   | pro\n"
            " 884530    | mkettle   | basic\n(2 rows)\n")
    tables = list(named_tables(text))
    assert [[text[a:b] for a, b in header] for header, _ in tables] == [["member_id", "username", "plan"]]
    assert [[text[a:b] for a, b in row] for row in tables[0][1]] == [["884211", "jrosa88", "pro"], ["884530", "mkettle", "basic"]]
