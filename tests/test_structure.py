"""Markup, JSON and tables read by their structure (alias_engine/resolve/structure.py): each class
with examples and counter-examples of its own, invented for the class."""

from __future__ import annotations

import doctest
import json
import re

import pytest
import regex
from _detector_helpers import Role

from alias_engine import Engine
from alias_engine.detectors.tables import named_tables
from alias_engine.resolve import structure
from alias_engine.resolve.structure import apply_structure, field_words
from alias_engine.resources import data_dir
from alias_engine.spans import Span

RULES = Engine(use_model=False)
FIELDS = RULES.rules.fields


def found(text: str, *pieces: tuple[str, str], source: str = "model") -> list[Span]:
    """Spans for each (value, label), at the value's first occurrence after the previous one."""
    spans, pos = [], 0
    for value, label in pieces:
        start = text.index(value, pos)
        spans.append(Span(start, start + len(value), label, 0.9, source))
        pos = start + len(value)
    return spans


def shown(text: str, spans: list[Span]) -> list[tuple[str, str]]:
    return sorted((text[s.start:s.end], s.label) for s in spans)


def test_doctests_run():
    assert doctest.testmod(structure).failed == 0


@pytest.mark.parametrize("name, words", [
    ("EndToEndId", ("end", "to", "end", "id")), ("TwnNm", ("twn", "nm")), ("ticket_id", ("ticket", "id")),
    ("Nom de famille", ("nom", "de", "famille")), ("customerName", ("customer", "name")), ("Prénom", ("prenom",)),
])
def test_field_names_are_compared_as_folded_words(name, words):
    assert field_words(name) == words


@pytest.mark.parametrize("name, kind", [
    ("ticket_id", "not_personal"), ("InvoiceNumber", "not_personal"), ("ville", "not_personal"),
    ("Département", "not_personal"), ("salary", "not_personal"), ("CreDtTm", "not_personal"),
    ("surname", "person"), ("Nom", "person"), ("first_name", "person"), ("nom de famille", "person"),
    # counter-examples: a personal word keeps the value's labels; a company or login field is no name
    ("BirthDt", "birth_date"), ("customer_city", None), ("created_by", None), ("customer_id", "identifier"),
    ("nom de la société", None), ("nom d'utilisateur", "login"), ("company_name", None), ("comment", None),
    ("Hosp No", "identifier"), ("IPP", "identifier"),       # a hospital's number of its patient
    ("credit_card_bin", "not_personal"),                      # a card issuer's first digits
    ("customer", "identifier"), ("prospect", "identifier"),   # a record's person named alone: their code
    ("customer_phone", None), ("client", None),               # the person's phone; a log's client is an app's
    ("Emploi / qualification", "not_personal"), ("tier", "not_personal"),   # a job, a membership tier
    ("error_code", "not_personal"), ("cotisation_ref", "not_personal"), ("po", "not_personal"),  # codes of things
    ("error_message", None), ("care_plan", None),             # sentences, which may name someone
    ("emp", "identifier"), ("UPN", "identifier"), ("N° cand.", "identifier"), ("lecteur", "identifier"),  # abbreviated
    ("usr", "login"), ("agent_type", None),
    ("entrée", "not_personal"), ("debut", "not_personal"), ("hire_date", "not_personal"),  # a contract's dates
    ("date_naissance", "birth_date"),                                                  # a birth's word wins
    ("DB_DATABASE", "not_personal"), ("image", "not_personal"), ("kafka_topic", "not_personal"),  # a system's resources
    ("db_user", "login"), ("DB_PASSWORD", None),                                       # its login and secret stay
])
def test_what_a_field_name_says(name, kind):
    assert FIELDS.kind(name) == kind


XML = ('<Pmt><PmtId><EndToEndId>E2E-7781</EndToEndId></PmtId><Amt Ccy="EUR">80.00</Amt>'
       '<Cdtr><Nm>Ysaline Porcher</Nm><BirthDt>1984-02-11</BirthDt></Cdtr><Note>pour Ysaline</Note></Pmt>')


def test_tags_are_never_values_and_an_element_names_its_text():
    spans = found(XML, ("E2E-7781", "IDENTIFIER"), ("/EndToEndId></PmtId", "SECRET"), ("Ysaline Porcher", "PERSON"),
                  ("1984-02-11", "BIRTH_DATE"), ("/Cdtr><Note", "SECRET"))
    assert shown(XML, apply_structure(XML, spans, FIELDS)) == [
        ("1984-02-11", "BIRTH_DATE"), ("Ysaline Porcher", "PERSON")]


def test_an_address_stays_whole_across_tags_but_begins_and_ends_outside_them():
    html = "<p>Chez<br>12 rue Nau<br>75001 Paris</p><div>a</div>"
    spans = found(html, ("p>Chez<br>12 rue Nau<br>75001 Paris</p", "ADDRESS"))
    assert shown(html, apply_structure(html, spans, FIELDS)) == [("Chez<br>12 rue Nau<br>75001 Paris", "ADDRESS")]
    # nor on a whole tag
    html = "<p><b>x</b></p><div>12 rue Lepic<br>\n75018 Paris<br></div><i>y</i>"
    spans = found(html, ("12 rue Lepic<br>\n75018 Paris<br>", "ADDRESS"), source="keyword")
    assert shown(html, apply_structure(html, spans, FIELDS)) == [("12 rue Lepic<br>\n75018 Paris", "ADDRESS")]


def test_a_name_that_runs_into_a_tag_is_cut_at_it():
    text = "<row><first>Ysaline</first><last>Porcher</last><id>7</id></row>"
    spans = found(text, ("Ysaline</first><last>Porcher", "PERSON"))
    assert shown(text, apply_structure(text, spans, FIELDS)) == [("Porcher", "PERSON"), ("Ysaline", "PERSON")]


def test_an_attribute_value_may_be_a_value_its_name_never():
    text = '<contact email="p.ferrand@example.org" role="owner"/><a/><b/>'
    spans = found(text, ("p.ferrand@example.org", "EMAIL"), source="pattern") + found(text, ("role", "SECRET"))
    assert shown(text, apply_structure(text, spans, FIELDS)) == [("p.ferrand@example.org", "EMAIL")]


def test_a_chat_s_nicknames_in_angle_brackets_open_no_element():
    text = "[09:12] <marie_l> salut\n[09:13] <rory88> hi marie\n[09:14] <marie_l> ok <3\n"
    spans = found(text, ("marie_l", "IDENTIFIER"), ("rory88", "IDENTIFIER"), ("marie_l", "IDENTIFIER"))
    assert apply_structure(text, spans, FIELDS) == spans
    html = "<p>Contact<br>Ysaline Porcher<br>Lyon</p>"
    assert [text for start, end in structure.markup_tags(html) for text in [html[start:end]]] == [
        "<p>", "<br>", "<br>", "</p>"]


def test_prose_that_mentions_a_tag_is_read_as_prose():
    text = "Use the <br> tag, said Mr Porcher."
    spans = found(text, ("br> tag", "SECRET"), ("Porcher", "PERSON"))
    assert apply_structure(text, spans, FIELDS) == spans


def test_json_values_are_judged_by_their_key():
    text = ('{"ticket_id": "T-2031-00419", "customer_id": "C-57046", "last_name": "van der Berg", '
            '"created_by": "jleroux", "created_at": "2024-05-06", "city": "Dinan"}')
    spans = found(text, ("T-2031-00419", "IDENTIFIER"), ("C-57046", "IDENTIFIER"), ("der Berg", "PERSON"),
                  ("jleroux", "IDENTIFIER"), ("2024-05-06", "BIRTH_DATE"), ("Dinan", "PERSON"))
    assert shown(text, apply_structure(text, spans, FIELDS)) == [
        ("C-57046", "IDENTIFIER"), ("jleroux", "IDENTIFIER"), ("van der Berg", "PERSON")]


def test_a_generic_element_is_named_by_the_element_around_it():
    text = ("<Stmt><Id>STM-2291-A</Id><Acct><Id><Othr><Id>41592271</Id></Othr></Id></Acct>"
            "<CtrlSum>3750.81</CtrlSum></Stmt>")
    spans = found(text, ("STM-2291-A", "IDENTIFIER"), ("41592271", "IDENTIFIER"), ("3750.81", "IDENTIFIER"))
    # a statement's id and a control sum are no one's; an account's number (Acct > Id > Othr > Id) stays
    assert shown(text, apply_structure(text, spans, FIELDS)) == [("41592271", "IDENTIFIER")]


@pytest.mark.parametrize("text, value, kept", [
    ("<GrpHdr><MsgId>REF 8K2QX9</MsgId><CreDtTm>2024-03-01</CreDtTm></GrpHdr>", "8K2QX9", False),
    ('{"status": "Client ID 4455 closed", "ticket": "T-1"}', "4455", True),  # more than one code
    ("<Tx><MsgId>REF 8K2QX9</MsgId><Dbtr><Id>CUST 40021</Id></Dbtr></Tx>", "40021", True),  # a debtor's id
])
def test_a_keyword_code_that_is_a_not_personal_fields_whole_value_is_that_field(text, value, kept):
    spans = found(text, (value, "IDENTIFIER"), source="keyword")
    assert (apply_structure(text, spans, FIELDS) == spans) == kept


def test_a_header_row_that_names_fields_holds_no_values():
    text = "Date\tMarchand\tMontant\tCollaborateur\n11/08/2022\tBricoflex\t120,00\tJean Dupont\n"
    spans = found(text, ("Marchand", "PERSON"), ("Jean Dupont", "PERSON"))
    assert shown(text, apply_structure(text, spans, FIELDS)) == [("Jean Dupont", "PERSON")]
    # a first row with no field name the rules know may be data: a headerless CSV's first person stays
    csv = "Jean Dupont;Lyon;Marketing\nAnne Morel;Brest;Achats\n"
    spans = found(csv, ("Jean Dupont", "PERSON"), ("Anne Morel", "PERSON"))
    assert apply_structure(csv, spans, FIELDS) == spans
    # a form's "KEY | value" lines split like a two-column table: the first line's value stays
    form = "NOM ET PRÉNOM | GEORGE SHELBY\nDATE | 12/03/2024\n"
    spans = found(form, ("GEORGE SHELBY", "PERSON"))
    assert ("GEORGE SHELBY", "PERSON") in shown(form, apply_structure(form, spans, FIELDS))


def test_what_the_model_found_in_an_address_field_is_the_whole_address():
    xml = ("<Dbtr><Nm>Valérie Roger</Nm><PstlAdr><AdrLine>65bis boulevard Andrée Roche, 80000 AMIENS</AdrLine>"
           "<AdrLine>54556 Pottier</AdrLine></PstlAdr></Dbtr>")
    spans = found(xml, ("Valérie Roger", "PERSON"), ("65bis boulevard Andrée Roche, 80000", "ADDRESS"),
                  ("Pottier", "PERSON"))
    assert shown(xml, apply_structure(xml, spans, FIELDS)) == [
        ("54556 Pottier", "ADDRESS"), ("65bis boulevard Andrée Roche, 80000 AMIENS", "ADDRESS"),
        ("Valérie Roger", "PERSON")]
    tsv = "nom\tadresse\tville\njean dupont\t250 boulevard de jacques\tbrest\nanne morel\t3 rue Nau\tlyon\n"
    spans = found(tsv, ("jean dupont\t250 boulevard", "ADDRESS"))
    # the cell is the address, and every cell of its column; the piece outside it is masked still, here
    # as the name its column says
    assert shown(tsv, apply_structure(tsv, spans, FIELDS)) == [
        ("250 boulevard de jacques", "ADDRESS"), ("3 rue Nau", "ADDRESS"), ("anne morel", "PERSON"),
        ("jean dupont", "PERSON")]


def test_the_sibling_lines_of_a_found_address_element_are_the_address():
    xml = ("<Dbtr><Nm>Aditya Kumar</Nm><PstlAdr><AdrLine>Stretto Gualandi</AdrLine><AdrLine>1 Piano 1</AdrLine>\n"
           "  <AdrLine>ITALIE</AdrLine></PstlAdr></Dbtr><Cdtr><PstlAdr><AdrLine>3 rue X</AdrLine></PstlAdr></Cdtr>")
    spans = found(xml, ("Stretto Gualandi", "PERSON"))
    # the creditor's address, in another element, is left to the model (a company's is no ADDRESS)
    assert shown(xml, apply_structure(xml, spans, FIELDS)) == [
        ("1 Piano 1", "ADDRESS"), ("ITALIE", "ADDRESS"), ("Stretto Gualandi", "ADDRESS")]


def test_a_street_in_a_persons_address_field_is_an_address_where_nothing_was_found():
    xml = ("<patient><name>Ann Lowe</name><addr><streetAddressLine>117 Brixfield Road</streetAddressLine>"
           "<city>London</city></addr></patient>")
    spans = found(xml, ("Ann Lowe", "PERSON"))
    assert shown(xml, apply_structure(xml, spans, FIELDS)) == [("117 Brixfield Road", "ADDRESS"), ("Ann Lowe", "PERSON")]
    xml = "<Adresse><Nom>Le Goff</Nom><NumeroVoie>7 ter</NumeroVoie><Voie>rue de Kervennec</Voie></Adresse>"
    assert ("rue de Kervennec", "ADDRESS") in shown(xml, apply_structure(xml, found(xml, ("Le Goff", "PERSON")), FIELDS))
    csv = "first_name,last_name,street,city\nAnna,Kowalski,12 Elm Road,Leeds\nBen,Ortiz,Flat 2 Mill Court,York\n"
    assert shown(csv, apply_structure(csv, [], FIELDS)) == [  # every cell of the column, the names its columns say
        ("12 Elm Road", "ADDRESS"), ("Anna", "PERSON"), ("Ben", "PERSON"), ("Flat 2 Mill Court", "ADDRESS"),
        ("Kowalski", "PERSON"), ("Ortiz", "PERSON")]


@pytest.mark.parametrize("text", [
    "<supplier><addr><streetAddressLine>117 Brixfield Road</streetAddressLine></addr></supplier>",  # no person
    '{"customer": "Ann Lowe", "address": "see the attached form"}',             # no street line
    "sku,street,city\nA-1,Main,Leeds\n",                                          # a word alone
])
def test_an_address_field_without_a_person_or_a_street_line_stays_as_found(text):
    spans = found(text, ("Ann Lowe", "PERSON")) if "Ann Lowe" in text else []
    assert not any(s.label == "ADDRESS" for s in apply_structure(text, spans, FIELDS))


def test_an_address_goes_on_with_the_lines_below_its_field():
    form = "Nom:\tTurpin\nADRESSE:\t3E ÉTAGE\n88 avenue du Moulin\n76600 Le Havre\n\nTél:\t06 12 34 56 78\n"
    spans = found(form, ("3E ÉTAGE\n88 avenue du Moulin\n76600 Le Havre", "ADDRESS"))
    assert shown(form, apply_structure(form, spans, FIELDS)) == [
        ("3E ÉTAGE\n88 avenue du Moulin\n76600 Le Havre", "ADDRESS"), ("Turpin", "PERSON")]


@pytest.mark.parametrize("name, kind", [
    ("MSGID", "not_personal"), ("ENDTOENDID", "not_personal"),   # capitals: the words of a phrase, joined
    ("CdtrSchmeId", "not_personal"),                              # a creditor's SEPA identifier
    ("BIRTHDT", None), ("BADGENUMBER", None),                     # no phrase of a class: nothing said
    ("CUSTOMERID", "identifier"), ("USERNAME", "login"),
])
def test_a_field_name_in_capitals_is_read_as_the_phrase_it_joins(name, kind):
    assert FIELDS.kind(name) == kind


def test_a_private_identification_is_named_by_its_party():
    xml = ("<CdtrSchmeId><Id><PrvtId><Othr><Id>FR12ZZZ123456</Id></Othr></PrvtId></Id></CdtrSchmeId>"
           "<Dbtr><Id><PrvtId><Othr><Id>XYZ99-41</Id></Othr></PrvtId></Id></Dbtr>")
    spans = found(xml, ("FR12ZZZ123456", "NATIONAL_ID"), ("XYZ99-41", "NATIONAL_ID"))
    assert shown(xml, apply_structure(xml, spans, FIELDS)) == [("XYZ99-41", "NATIONAL_ID")]  # the debtor's


@pytest.mark.parametrize("name, kind", [
    ("AdrLine", "address"), ("street", "address"), ("address_line_2", "address"), ("Adresse", "address"),
    ("email_address", None), ("ip_address", None), ("StrtNm", "address"), ("TwnNm", "not_personal"),
])
def test_an_address_field_is_one_of_these_words_exactly(name, kind):
    assert FIELDS.kind(name) == kind


def test_a_rule_span_stays_whatever_the_field():
    text = '{"status": "closed", "order": "ref 2231, IBAN FR76 3000 6000 0112 3456 7890 189"}'
    spans = found(text, ("FR76 3000 6000 0112 3456 7890 189", "IBAN"), source="validator")
    assert apply_structure(text, spans, FIELDS) == spans


CSV = ("prénom;nom;ville;service;salaire\n"
       "Maëlys;de La Tour;Vannes;Achats;3 120\n"
       "Idriss;Benali;Rennes;Juridique;4 050\n")


def test_table_columns_a_city_a_department_and_a_salary_hold_no_person_or_identifier():
    spans = found(CSV, ("Vannes", "PERSON"), ("Achats", "PERSON"), ("3 120", "IDENTIFIER"), ("Rennes", "PERSON"))
    # what stays: the name columns' cells, whole
    assert shown(CSV, apply_structure(CSV, spans, FIELDS)) == [
        ("Benali", "PERSON"), ("Idriss", "PERSON"), ("Maëlys", "PERSON"), ("de La Tour", "PERSON")]


def test_a_surname_column_is_a_person_whole_cell_through_the_engine():
    spans = RULES.detect(CSV)
    names = [CSV[s.start:s.end] for s in spans if s.label == "PERSON"]
    assert "de La Tour" in names and "Benali" in names and "Vannes" not in names
    masked = RULES.mask(CSV).text
    assert "La Tour" not in masked and "Benali" not in masked and "Vannes" in masked and "3 120" in masked


@pytest.mark.parametrize("text, dates", [
    ("<child>\n  <surname>Ferrand</surname>\n  <birth_date>2016-09-21</birth_date>\n</child>", ["2016-09-21"]),
    ("<Individu><NomUsage>Quéré</NomUsage><DateDeNaissance><Date>1971-12-02</Date></DateDeNaissance>"
     "<CommuneNaissance>Quimperlé</CommuneNaissance></Individu>", ["1971-12-02"]),
    ('<record>\n  <dateOfBirth value="19770523"/>\n  <ward>C2</ward>\n</record>', ["19770523"]),
    ('{"member": {"id": "M-4471", "date_of_birth": "07/11/1962"}}', ["07/11/1962"]),
])
def test_a_birth_fields_date_is_a_birth_date(text, dates):
    # a place of birth is no date
    found = [text[s.start:s.end] for s in RULES.detect(text, "en") if s.label == "BIRTH_DATE"]
    assert found == dates


@pytest.mark.parametrize("name", ["LieuNaissance", "lieu_de_naissance", "CommuneNaissance", "place_of_birth", "birthplace"])
def test_a_place_of_births_field_is_a_birthplace(name):
    assert FIELDS.kind(name) == "birthplace"


@pytest.mark.parametrize("text, date", [
    ('{"dob_pob": "1981-04-12, Cork"}', "1981-04-12"),                       # a date word: a birth date's field
    ("<Patient><DateEtLieuNaissance>12/04/1981 Morlaix</DateEtLieuNaissance></Patient>", "12/04/1981"),
    ('{"place_of_birth": "Cork", "born": "1981-04-12"}', "1981-04-12"),     # beside a place of birth
])
def test_a_birth_date_beside_a_place_of_birth_stays(text, date):
    engine = Engine(use_model=False, detectors=[Role("model", _every_date_a_birth_date_any_format)])
    assert [text[s.start:s.end] for s in engine.detect(text, "fr") if s.label == "BIRTH_DATE"] == [date]


def _every_date_a_birth_date_any_format(text):
    return [Span(m.start(), m.end(), "BIRTH_DATE", 0.9, "model") for m in re.finditer(r"\d{4}-\d\d-\d\d|\d\d/\d\d/\d{4}", text)]


def _every_capitalised_word_a_name_or_an_address(text):
    return [Span(m.start(), m.end(), "PERSON" if m.group().isalpha() else "ADDRESS", 0.9, "model")
            for m in re.finditer(r"\b[A-Z][a-zé]+(?: \(\d+\))?", text)]


@pytest.mark.parametrize("text, place, kept", [
    ("<Patient><Nom>Quéré</Nom><LieuNaissance>Morlaix</LieuNaissance></Patient>", "Morlaix", False),
    ('<table><tr><th>Nom</th><td>Quéré</td></tr>\n<tr><th>Lieu de naissance</th><td>Morlaix (29)</td></tr></table>',
     "Morlaix (29)", False),
    ('{"surname": "Quéré", "place_of_birth": "Florence"}', "Florence", False),
    ('{"surname": "Quéré", "mother": "Florence"}', "Florence", True),      # counter-example: a person's field
])
def test_a_place_of_birth_field_holds_no_name_and_no_address(text, place, kept):
    engine = Engine(use_model=False, detectors=[Role("model", _every_capitalised_word_a_name_or_an_address)])
    found = [text[s.start:s.end] for s in engine.detect(text, "fr") if s.label in ("PERSON", "ADDRESS")]
    assert "Quéré" in found and (place in found) == kept


def _every_date_a_birth_date(text):
    return [Span(m.start(), m.end(), "BIRTH_DATE", 0.9, "model") for m in re.finditer(r"\d{4}-\d{2}-\d{2}", text)]


def test_an_invoices_date_is_no_birth_date_whatever_the_model_read():
    text = "<Facture><Date>2024-01-03</Date><Client><DateDeNaissance><Date>1971-12-02</Date></DateDeNaissance></Client></Facture>"
    engine = Engine(use_model=False, detectors=[Role("model", _every_date_a_birth_date)])
    assert [text[s.start:s.end] for s in engine.detect(text, "fr") if s.label == "BIRTH_DATE"] == ["1971-12-02"]
    assert FIELDS.kind("ssn_dob_check") == "national_id" and FIELDS.kind("DateNaissance") == "birth_date"
    assert not structure._reads_as_code("19850231", "birth_date")  # no 31 February


@pytest.mark.parametrize("table, across, cells", [
    ("ref,surname,first_name,team\nK-88,TER HORST,Ottilie,Legal\n", "TER HORST,Ottilie", ["TER HORST", "Ottilie"]),
    ("Code\tSurname\tForename\nQ7\tAbernethy\tRuaridh\n", "Abernethy\tRuaridh", ["Abernethy", "Ruaridh"]),
    ("Ref     Client          Ville\nA-1     Gwenola Penven   Quimper\n", "Gwenola Penven   Quimper", ["Gwenola Penven"]),
])
def test_a_name_read_across_a_tables_delimiter_is_cut_at_its_cells(table, across, cells):
    # the city cell of the third table is no name (its column says so): only the client's cell stays
    kept = apply_structure(table, found(table, (across, "PERSON")), FIELDS)
    assert [table[s.start:s.end] for s in kept if s.source == "model"] == cells


def test_a_value_inside_one_cell_is_not_cut():
    table = "id;contact;notes\n7;Loïc Le Quéau;rappeler lundi\n"
    assert shown(table, apply_structure(table, found(table, ("Loïc Le Quéau", "PERSON")), FIELDS)) == [
        ("Loïc Le Quéau", "PERSON")]


def test_an_address_across_a_tables_cells_stays_whole_and_no_cut_leaves_a_character_readable():
    text = "nom;rue;ville;bloc\nPenven;4 rue des Forges;Brest;B\n"
    tables = list(named_tables(text))
    address = found(text, ("4 rue des Forges;Brest", "ADDRESS"))
    assert structure._within_cells(text, address, tables, FIELDS) == address
    code = found(text, ("Brest;B", "IDENTIFIER"))  # its cut would leave the one-letter cell readable: kept whole
    assert structure._within_cells(text, code, tables, FIELDS) == code
    prose = "Résidence Les Aulnes, Bâtiment C, Escalier 2\n7, rue des Forges, 29200 Brest\n"  # no header of fields
    spans = found(prose, ("Résidence Les Aulnes, Bâtiment C, Escalier 2\n7, rue des Forges, 29200 Brest", "PERSON"))
    assert structure._within_cells(prose, spans, list(named_tables(prose)), FIELDS) == spans


@pytest.mark.parametrize("table", [
    "Name            Department      City\nOrla Quennell   Accounting      Leeds\nTamsin Vey      Sales           York\n",
    "Name;Email;Team\nOrla Quennell;o.q@example.org;Legal\n",
])
def test_a_plain_name_column_of_a_table_about_people_holds_people(table):
    """Rules only, so nothing but the header says it: "Name" over people's rows is a name column."""
    assert [table[s.start:s.end] for s in RULES.detect(table) if s.label == "PERSON"][:1] == ["Orla Quennell"]


@pytest.mark.parametrize("table", ["Name | Version\nRequests Toolbelt | 2.31\n", "name,price,qty\nWidget Pro,12.50,3\n",
                                   '{"name": "Gizmo Deluxe", "version": "1.0.2"}'])
def test_a_plain_name_beside_a_things_fields_or_in_json_says_nothing(table):
    assert [s for s in RULES.detect(table) if s.label == "PERSON"] == []


def test_a_company_column_is_no_name_column():
    text = "nom de la société;ville\nAtelier Brunel;Lyon\nGarage Moreau;Tours\n"
    assert [s for s in RULES.detect(text) if s.label == "PERSON"] == []


@pytest.mark.parametrize("line, secret", [
    ("API_KEY=VOTRE_CLE_ICI", None), ("STRIPE_KEY=pk_test_YOUR_KEY", None), ("token: <your-token>", None),
    ("password: xxxxxxxx", None), ("API_KEY=9f8Kq2LmZ7vB3xT1", "9f8Kq2LmZ7vB3xT1"),
    ("password: data-8f9Kq2!", "data-8f9Kq2!"),
    ("export SLACK_BOT_TOKEN=xoxb-your-token", None),          # a pattern's find, a placeholder all the same
    ("aws_secret_access_key = tK8pLq2/ZxM7rVb3/NcEXAMPLEKEYWq9sD4fGh", None),  # a documented example key
    ("api_key: changeme", None), ("JWT_SECRET=${env:API_TOKEN}", None), ("DB_PASSWORD=%(db_pass)s", None),
    ("api_key: change-the-oil-9Kq2", "change-the-oil-9Kq2"),
])
def test_an_example_placeholder_is_no_secret_a_real_one_is(line, secret):
    values = [line[s.start:s.end] for s in RULES.detect(line) if s.label == "SECRET"]
    assert values == ([secret] if secret else [])


@pytest.mark.parametrize("name, kind", [
    ("BadgeNo", "identifier"), ("employee_number", "identifier"), ("Matricule", "identifier"),
    ("numéro d'adhérent", "identifier"), ("AccountNumber", "identifier"), ("username", "login"), ("Identifiant", "login"),
    ("passport", "national_id"), ("num_permis", "national_id"), ("NIR", "national_id"),
    # the documents the NATIONAL_ID keyword rules know: a field named by one holds it
    ("pupil_ppsn", "national_id"), ("BVN", "national_id"), ("sin_number", "national_id"), ("utr", "national_id"),
    ("numero_fiscal", "national_id"), ("titre_de_sejour", "national_id"), ("code_insee", None), ("sin_cos", None),
    # counter-examples: a field of a thing's, or with a not_personal word, says no code
    ("order_id", "not_personal"), ("identifiant_transaction", "not_personal"), ("login_attempts", None),
    ("passport_expiry_date", None), ("user_agent", None), ("badge_color", "identifier"), ("ssn_last4", None),
    ("cvc", "secret_code"), ("otp_code", "secret_code"), ("safe_code", "secret_code"), ("alarmCode", "secret_code"), ("pin_attempts", "not_personal"), ("country_code", "not_personal"),
    # access codes in either word order, as the keyword rules know them: a safe's, a padlock's, a garage's
    ("code_coffre", "secret_code"), ("CodeCadenas", "secret_code"), ("garage_code", "secret_code"),
    ("keypad_code", "secret_code"), ("code_de_secours", "secret_code"), ("code_postal", "not_personal"),
    # a SEPA direct debit's mandate reference (pain.008 <MndtId>, a French RUM) is the debtor's
    ("MndtId", "identifier"), ("rum", "identifier"), ("mandate_reference", "identifier"), ("CdtrSchmeId", "not_personal"),
])
def test_a_code_field_names_one_persons_code(name, kind):
    assert FIELDS.kind(name) == kind


def test_a_code_fields_value_is_one_code_whatever_it_was_taken_for():
    xml = ("<Employee><Name>Ann Lee</Name><BadgeNo>B5286</BadgeNo><AccountNumber>73820915</AccountNumber>"
           "<Passport>21KD40698</Passport></Employee>")
    spans = found(xml, ("73820915", "PHONE"), ("21KD40698", "IDENTIFIER"))
    assert shown(xml, apply_structure(xml, spans, FIELDS)) == [
        ("21KD40698", "NATIONAL_ID"), ("73820915", "IDENTIFIER"), ("B5286", "IDENTIFIER")]
    csv = "Nom;Matricule;Ville\nDupont;000639;Lyon\nMartin;000714;Brest\n"
    assert shown(csv, apply_structure(csv, [], FIELDS)) == [
        ("000639", "IDENTIFIER"), ("000714", "IDENTIFIER"), ("Dupont", "PERSON"), ("Martin", "PERSON")]
    # a login needs no digit; other codes do
    text = '{"username": "tbrannigan", "badge_color": "red", "customer_id": 1187}'
    assert shown(text, apply_structure(text, [], FIELDS)) == [("1187", "IDENTIFIER"), ("tbrannigan", "IDENTIFIER")]
    # a secret code is 3 to 8 digits
    text = '{"otp": "381467", "cvc": 418, "pin": "abcd", "otp_sent_to": "+44 7700 900 317"}'
    spans = found(text, ("381467", "PHONE"), ("+44 7700 900 317", "PHONE"))
    assert shown(text, apply_structure(text, spans, FIELDS)) == [
        ("+44 7700 900 317", "PHONE"), ("381467", "SECRET"), ("418", "SECRET")]


@pytest.mark.parametrize("text, pieces, expected", [
    ('{"login": "Marie Curie", "x": 1}', [("Marie Curie", "PERSON")], [("Marie Curie", "PERSON")]),  # a name
    ('{"username": "ann.lee@example.org", "a": 1}', [("ann.lee@example.org", "EMAIL")],
     [("ann.lee@example.org", "EMAIL")]),                                   # an e-mail stays an e-mail
    ('{"last_login": "2026-11-30", "a": "b"}', [], []),                     # a date is no code
    ('{"customer_id": "n/a", "a": "b"}', [], []),                           # no digit
    ('{"user_email": "n/a", "user": "inconnu", "a": "b"}', [], []),          # a placeholder
])
def test_what_is_no_code_in_a_code_field(text, pieces, expected):
    assert shown(text, apply_structure(text, found(text, *pieces), FIELDS)) == expected


def test_an_html_cell_is_named_by_its_column_or_its_row_header():
    html = ("<table><tr><th>Praticien</th><th>Numéro ADELI</th><th>Ville</th></tr>\n"
            "<tr><td>Gaëlle Fontaine</td><td>708145239</td><td>Lyon</td></tr></table>"
            "<table><tr><th>Nom</th><td>Dupont</td></tr><tr><th>Login</th><td><b>adupont</b></td></tr></table>")
    spans = found(html, ("Gaëlle Fontaine", "PERSON"), ("708145239", "NATIONAL_ID"), ("Lyon", "PERSON"))
    assert shown(html, apply_structure(html, spans, FIELDS)) == [
        ("708145239", "IDENTIFIER"), ("Dupont", "PERSON"), ("Gaëlle Fontaine", "PERSON"), ("adupont", "IDENTIFIER")]
    # a name field's value is the name without its titles
    html = "<table><tr><th>Name</th><th>Role</th></tr><tr><td>Prof. Cressida Vane</td><td>Chair</td></tr></table>"
    assert shown(html, apply_structure(html, [], FIELDS)) == [("Cressida Vane", "PERSON")]
    # a header row's cells are no values, a cell with no header is judged by itself
    html = "<table><tr><td>Anne Morel</td><td>708145239</td></tr><tr><td>x</td><td>y</td></tr></table>"
    spans = found(html, ("Anne Morel", "PERSON"), ("708145239", "NATIONAL_ID"))
    assert apply_structure(html, spans, FIELDS) == spans


def test_a_json_key_is_no_value():
    text = '{"@timestamp":"2026-10-14T06:51:38","niveau":"INFO","message":"ok"}'
    spans = found(text, ("niveau", "IDENTIFIER"))
    assert apply_structure(text, spans, FIELDS) == []
    text = 'He wrote "niveau": a word in quotes, no key here'
    spans = found(text, ("niveau", "IDENTIFIER"))
    assert apply_structure(text, spans, FIELDS) == spans


def test_a_generic_json_key_is_named_by_its_object():
    text = ('{"order": {"id": 5829104417, "customer": {"id": "C-7712", "name": "Anne"}}, '
            '"user": {"id": "u-881"}, "note": "a {b} c", "id": "top-1"}')
    named = {text[start:end]: name for start, end, name, _ in structure._json_fields(text, FIELDS)[0]}
    assert named == {"5829104417": "order id", "C-7712": "customer id", "Anne": "name", "u-881": "user id",
                     "a {b} c": "note", "top-1": "id"}
    assert shown(text, apply_structure(text, [], FIELDS)) == [("C-7712", "IDENTIFIER"), ("u-881", "IDENTIFIER")]


def test_an_attribute_value_is_named_by_its_attribute_or_a_form_inputs_name():
    html = ('<form><input name="num_piece" value="T7QKMDZH2"><input id="city" value="Lyon">'
            '<Validation rpps="10003917462"/><Patient><id root="1.2.3" extension="MRN-0058264"/></Patient>'
            '<input id="pol" class="wide" name="policy_no" value="ZK-44120981-01">'  # the name and the id together
            '<input id="passport_no" name="f3" value="22XK51390"></form>')  # a generated name, a meaningful id
    spans = found(html, ("T7QKMDZH2", "IDENTIFIER"), ("Lyon", "PERSON"))
    assert shown(html, apply_structure(html, spans, FIELDS)) == [
        ("10003917462", "IDENTIFIER"), ("22XK51390", "NATIONAL_ID"), ("MRN-0058264", "IDENTIFIER"), ("T7QKMDZH2", "NATIONAL_ID"),
        ("ZK-44120981-01", "IDENTIFIER")]


def test_a_forms_label_and_legend_are_names_of_fields_not_values():
    html = ('<form><fieldset><legend>Demandeur</legend>\n<label for="exp">Expiry</label><input id="exp" name="exp" '
            'value="09/29"><label class="x">Né le</label></fieldset></form>')
    spans = found(html, ("Demandeur", "PERSON"), ("Expiry", "PERSON"), ("Né le", "PERSON"))
    assert shown(html, apply_structure(html, spans, FIELDS)) == []
    # a choice's label may be a person: around its control, beside a radio button, or a name of two words
    for html, name in (('<form><label><input type="radio" name="who" value="1"> Anne Roux</label></form>', "Anne Roux"),
                       ('<form><input type="radio" id="c1" name="child"><label for="c1">Ysé</label></form>', "Ysé"),
                       ('<form><label for="x">Léa Quillardet</label><input id="x" name="x"></form>', "Léa Quillardet")):
        assert shown(html, apply_structure(html, found(html, (name, "PERSON")), FIELDS)) == [(name, "PERSON")]


def test_a_sql_inserts_values_are_named_by_their_columns():
    sql = ("INSERT INTO `clients` (`id`, `nom`, `prenom`, `ville`, `num_permis`, `remarques`) VALUES\n"
           "(1187, 'Valadares', 'Ilídio', 'Lyon', '18CD36907', 'l''ami, fidèle (3x)'),\n"
           "(1188, 'Roux-Castaing', 'Élodie', 'Bron', NULL, NULL);\n"
           "INSERT INTO users (login, mdp_hash, role) VALUES ('ivaladares', '$2y$10$abc', 'admin');")
    spans = found(sql, ("Lyon", "PERSON"), ("mdp_hash", "IDENTIFIER"))
    assert shown(sql, apply_structure(sql, spans, FIELDS)) == [
        ("1187", "IDENTIFIER"), ("1188", "IDENTIFIER"), ("18CD36907", "NATIONAL_ID"), ("Ilídio", "PERSON"),
        ("Roux-Castaing", "PERSON"), ("Valadares", "PERSON"), ("ivaladares", "IDENTIFIER"), ("Élodie", "PERSON")]


def test_a_code_fields_code_found_unsure_is_kept_sure():
    xml = '<Validation biologiste="Dr Anne Roux" rpps="10003917462" date="2026-11-27"/><a/><b/>'
    spans = [Span(xml.index("1000"), xml.index("1000") + 11, "IDENTIFIER", 0.3, "model")]
    out = apply_structure(xml, spans, FIELDS)
    assert [(xml[s.start:s.end], s.label, s.source, s.score) for s in out] == [
        ("10003917462", "IDENTIFIER", "model", 0.9)]
    csv = "N° licence;Nom;Ville\n2618094357;KERVAREC;Strasbourg\n"   # a club's licence number, no phone
    spans = found(csv, ("2618094357", "PHONE"))
    assert shown(csv, apply_structure(csv, spans, FIELDS)) == [("2618094357", "IDENTIFIER"), ("KERVAREC", "PERSON")]


def test_a_verified_code_of_another_label_stays_in_a_code_field():
    csv = "driver_id,name,customer_id\nDRV-0281,Tobias Amankwah,MORGA753116SM9IJ\n"
    start = csv.index("MORGA")
    spans = [Span(start, start + 16, "NATIONAL_ID", 0.95, "validator", True)]
    assert shown(csv, apply_structure(csv, spans, FIELDS))[0] == ("MORGA753116SM9IJ", "NATIONAL_ID")


def test_a_header_name_may_end_with_a_digit_but_holds_no_number():
    tsv = "member_no\tname\tcard_last4\nKWL-38406\tThandiwe Nkosi\t4417\n"
    assert ("KWL-38406", "IDENTIFIER") in shown(tsv, apply_structure(tsv, [], FIELDS))   # "card_last4" is a name
    tsv = "member_no\t2024\tname\nKWL-38406\t120\tThandiwe Nkosi\n"                    # "2024" is a number
    assert ("KWL-38406", "IDENTIFIER") not in shown(tsv, apply_structure(tsv, [], FIELDS))


def test_a_logs_key_value_pairs_are_fields():
    log = "2026-10-14 09:37:52 INFO points customer=CUST-00394126 sku=FL-TEA-0042 user=<t.berthou> lip=10.0.0.47"
    spans = found(log, ("FL-TEA-0042", "IDENTIFIER"))
    assert shown(log, apply_structure(log, spans, FIELDS)) == [   # a SKU is a thing's, a customer's code theirs
        ("CUST-00394126", "IDENTIFIER"), ("t.berthou", "IDENTIFIER")]
    url = "see https://x.example.com/reset?user=jmorel&token=abc123"   # a URL's query is the URL's
    assert apply_structure(url, [], FIELDS) == []


def test_an_objects_quoted_key_value_pairs_are_fields():
    # a Java object's toString, a Python repr: values quoted with ', each named by its key
    log = "ValidationError: Patient(id=90412, surname='Keravec', nir='187032A00412345', city='Brest')"
    spans = found(log, ("187032A00412345", "IDENTIFIER"), ("Brest", "PERSON"))
    assert shown(log, apply_structure(log, spans, FIELDS)) == [
        ("187032A00412345", "NATIONAL_ID"), ("Keravec", "PERSON")]              # a city is no one's name
    prose = "il m'a dit l'adresse='à voir' demain"                               # no key before the quote
    assert apply_structure(prose, [], FIELDS) == []
    quoted = "Client(nom='O'Brien', prenom='Sean')"                           # a quote inside the value
    assert ("O'Brien", "PERSON") in shown(quoted, apply_structure(quoted, [], FIELDS))


def test_an_attribute_that_names_markup_holds_no_value():
    html = '<label>Other party</label> <input name="tp_vrm" value="AB12 CDE"> <div class="card-holder">Jean Morel</div>'
    spans = found(html, ("tp_vrm", "IDENTIFIER"), ("AB12 CDE", "IDENTIFIER"), ("card-holder", "PERSON"),
                  ("Jean Morel", "PERSON"))
    assert shown(html, apply_structure(html, spans, FIELDS)) == [("AB12 CDE", "IDENTIFIER"), ("Jean Morel", "PERSON")]
    xml = '<Patient name="Jean Morel" id="P-0447120"><Ville>Lyon</Ville></Patient>'    # an XML record's own
    spans = found(xml, ("Jean Morel", "PERSON"), ("P-0447120", "IDENTIFIER"))
    assert shown(xml, apply_structure(xml, spans, FIELDS)) == [("Jean Morel", "PERSON"), ("P-0447120", "IDENTIFIER")]


@pytest.mark.parametrize("text, expected", [
    ('{"USER": "svc_invoices", "HOST": "10.31.6.22"}', [("svc_invoices", "IDENTIFIER")]),   # a service's own account
    ("sudo: USER=root ; COMMAND=/bin/ls", []),                                           # every system's
    ('{"event": "login_failed", "user": "admin"}', []),
    ("MAIL_USERNAME=apikey", []),                                     # a mail API's account (SendGrid's)
    ("WARN connexion refusée user=postgres depuis 45.155.205.233", []),
    ("DB_USER=jdupont", [("jdupont", "IDENTIFIER")]),
])
def test_a_login_field_holds_an_account_but_not_every_systems(text, expected):
    assert [v for v in shown(text, apply_structure(text, [], FIELDS)) if v[1] == "IDENTIFIER"] == expected


def test_the_system_accounts_a_login_field_rejects_hold_every_attacked_login():
    """A login field reads `system_account` alone: the logins attacks try are among them."""
    rejects = json.loads((data_dir("rules") / "common.json").read_text(encoding="utf-8"))["rejects"]
    attacked = rejects["attacked_login"].removeprefix("(?i:").removesuffix(")").split("|")
    assert attacked and all(regex.fullmatch(rejects["system_account"], login) for login in attacked)


@pytest.mark.parametrize("text, expected", [
    ('{"client": "CL-70318459", "carte_fid": "FID-5038-1162-9047"}', [("FID-5038-1162-9047", "IDENTIFIER")]),
    ('{"loyalty_card": "LC 4471 2093"}', [("LC 4471 2093", "IDENTIFIER")]),
    ('{"loyalty_points": 1200, "loyalty_tier": "Gold 2"}', []),          # the programme's, no card's number
])
def test_a_loyalty_card_field_holds_its_holders_number(text, expected):
    assert [v for v in shown(text, apply_structure(text, [], FIELDS)) if v[1] == "IDENTIFIER"] == expected


@pytest.mark.parametrize("text, expected", [
    ("| Owner | Task | Due |\n|---|---|---|\n| NP | Update the cost model | 14 Mar |\n| BvdB | Cut-off e-mail | 21 Mar |\n",
     [("NP", "PERSON"), ("BvdB", "PERSON")]),                  # a meeting's actions: who does each, initials too
    ("Qui;Quoi;Échéance\nJ. Bernard;Paramétrage paie;28/02\nLdA;Guide entretiens;14/02\n",
     [("J. Bernard", "PERSON"), ("LdA", "PERSON")]),
    ("Host | Owner | Version\nweb-01 | ops | 2.3\ndb-01 | dba | 1.1\n", []),   # a thing's table: its owner is a team
])
def test_a_column_named_by_who_does_the_task_holds_people(text, expected):
    assert sorted(shown(text, apply_structure(text, [], FIELDS))) == sorted(expected)


def test_a_config_files_key_value_lines_are_fields():
    yaml = "---\nansible_user: deploy_mleclerc\nansible_port: 22\nusers:\n  - name: odoo\n    login: none\n"
    assert shown(yaml, apply_structure(yaml, [], FIELDS)) == [("deploy_mleclerc", "IDENTIFIER")]
    prose = "Objet: demande de remboursement\nnote: rappeler demain"   # a capital's key, a sentence: no field
    assert apply_structure(prose, [], FIELDS) == []
    chat = "Agent: A number to reach you on?\nuser: 689-353-5365"         # a speaker's line, no config key
    assert apply_structure(chat, found(chat, ("689-353-5365", "PHONE"), source="validator"), FIELDS) == found(
        chat, ("689-353-5365", "PHONE"), source="validator")
    assert apply_structure(prose, [], FIELDS) == []


def test_a_dumps_insert_without_columns_is_read_with_its_create_table():
    sql = ("CREATE TABLE `members` (\n  `member_id` char(8) NOT NULL,\n  `first_name` varchar(40),\n  `last_name` varchar(40),\n"
           "  `plan_code` varchar(16),\n  PRIMARY KEY (`member_id`)\n) ENGINE=InnoDB;\n"
           "INSERT INTO `members` VALUES ('M007352','Rowena','Halliwell','PLAN-M12');\n")
    assert shown(sql, apply_structure(sql, [], FIELDS)) == [
        ("Halliwell", "PERSON"), ("M007352", "IDENTIFIER"), ("Rowena", "PERSON")]
    orphan = "INSERT INTO `members` VALUES ('M007352','Rowena');"       # no definition: nothing said
    assert apply_structure(orphan, [], FIELDS) == []


@pytest.mark.parametrize("text, name", [
    ('{"error_message": "No account found for Jean Dupont"}', "Jean Dupont"),    # a message's sentence keeps its name
    ('care_plan: Follow-up with Jean Dupont', "Jean Dupont"),
    ('error="payment refused for Jean Dupont"', "Jean Dupont"),
])
def test_a_sentence_in_an_error_or_plan_field_keeps_its_names(text, name):
    assert (name, "PERSON") in shown(text, apply_structure(text, found(text, (name, "PERSON")), FIELDS))


def test_a_create_tables_quoted_comment_is_no_column_and_a_row_that_does_not_fit_is_not_read():
    sql = ("CREATE TABLE t (\n  `code` varchar(10) COMMENT 'first name, then last',\n  `lname` varchar(64)\n);\n"
           "INSERT INTO t VALUES ('M-0044','Featherstone');\nINSERT INTO t VALUES ('M-0045','Dunmore','x');\n")
    assert shown(sql, apply_structure(sql, [], FIELDS)) == [("Featherstone", "PERSON")]


def test_a_repeat_in_a_field_that_holds_no_person_is_dropped():
    """A first name lent by the first-name column is no PERSON in the city column (a field of not_personal)."""
    text = "first_name,last_name,city\nFlorence,Meunier,Lyon\nPaul,Girard,Florence\n"
    found = [(text[s.start:s.end], s.label, s.source) for s in RULES.detect(text, "en")]
    assert ("Florence", "PERSON", "keyword") in found
    assert not any(value == "Florence" and source == "repeat" for value, _, source in found)


def test_a_name_lent_inside_a_longer_value_of_such_a_field_stays_masked():
    from alias_engine.resolve.structure import read_structure, repeats_outside_fields

    text = '{"full_name": "Léa Morel", "transaction": "Virement Léa Morel", "city": "Florence"}'
    inner, city = text.rindex("Léa Morel"), text.index("Florence")
    lent = [Span(inner, inner + 9, "PERSON", 0.99, "repeat"), Span(city, city + 8, "PERSON", 0.99, "repeat")]
    kept = repeats_outside_fields(lent, read_structure(text, RULES.rules.fields).without_persons())
    assert [text[s.start:s.end] for s in kept] == ["Léa Morel"]      # the city's whole value is no one's name


@pytest.mark.parametrize("text, ids", [
    ('{"id": 60417, "username": "t.ferrand", "plan": "family"}', ["60417", "t.ferrand"]),  # a login beside it
    ('[{"id": "P-3391", "first_name": "Ines", "last_name": "Roca"},\n'
     ' {"id": "P-3392", "first_name": "Hugo", "last_name": "Roca"}]', ["P-3391", "P-3392"]),  # every record alike
    ('{"id": 77120, "title": "Winter catalogue", "price": 12.5}', []),                     # a thing's record
    ('{"order": {"id": 99120, "lines": 3}, "buyer": {"name": "Ada"}}', []),               # the order's id
])
def test_a_json_records_id_is_its_persons_when_a_key_beside_it_names_the_person(text, ids):
    kept = apply_structure(text, [], FIELDS)
    assert sorted(text[s.start:s.end] for s in kept if s.label == "IDENTIFIER") == ids


def test_an_address_written_on_html_lines_is_one_address():
    html = ("<table><tr><th>Adresse</th><td>Résidence Les Cèdres, bât. A<br>4 allée des Pins<br/>31000 Toulouse"
            "</td></tr><tr><th>Nom</th><td>Léa Morel</td></tr></table>")
    spans = found(html, ("4 allée des Pins", "ADDRESS"))
    assert shown(html, apply_structure(html, spans, FIELDS)) == [
        ("Léa Morel", "PERSON"), ("Résidence Les Cèdres, bât. A<br>4 allée des Pins<br/>31000 Toulouse", "ADDRESS")]


def test_an_address_elements_addressee_and_contact_lines_are_not_joined_to_the_address():
    # the addressee's line stays a value of its own (masked whole, as the block's), the contact's line is none
    html = ("<p>Contact</p>\n<address>\nMaître Odile Fabre<br>\n9 quai Lunel<br>\n06300 Nice<br>\n"
            "Tél. : 04 93 00 11 22<br>\n</address>\n<p>fin</p>")
    spans = found(html, ("Odile Fabre", "PERSON"), ("9 quai Lunel", "ADDRESS"))
    assert shown(html, apply_structure(html, spans, FIELDS)) == [
        ("9 quai Lunel<br>\n06300 Nice", "ADDRESS"), ("Maître Odile Fabre", "ADDRESS")]


def test_sibling_address_elements_stay_apart_and_a_street_is_no_addressee():
    # no <br>: each element its own value; "Stretto Gualandi" is a street, though it reads as a name
    xml = "<PstlAdr><AdrLine>Stretto Gualandi</AdrLine><AdrLine>1 Piano 1</AdrLine></PstlAdr><x></x><y></y>"
    spans = found(xml, ("1 Piano 1", "ADDRESS"))
    assert shown(xml, apply_structure(xml, spans, FIELDS)) == [("1 Piano 1", "ADDRESS"), ("Stretto Gualandi", "ADDRESS")]



@pytest.mark.parametrize("header, value", [
    ("matricule;nom;site;grade", "Carquefou"), ("matricule;nom;site;grade", "G7"),
    ("no_client\tnom\tnpa\tlocalite", "Fribourg"),
])
def test_site_grade_and_locality_columns_hold_no_ones_values(header, value):
    delimiter = ";" if ";" in header else "\t"
    row = delimiter.join(["M0412", "Girard", "Carquefou", "G7"] if ";" in header else ["C-30452", "Favre", "1700", "Fribourg"])
    text = f"{header}\n{row}\n"
    spans = found(text, (value, "PERSON"))
    assert (value, "PERSON") not in shown(text, apply_structure(text, spans, FIELDS))


def test_an_establishments_finess_number_is_no_ones():
    xml = '<sejour><etablissement finess="640780417">CH Côte basque</etablissement><patient ipp="P0447120"/></sejour>'
    spans = found(xml, ("640780417", "IDENTIFIER"), ("P0447120", "IDENTIFIER"))
    assert shown(xml, apply_structure(xml, spans, FIELDS)) == [("P0447120", "IDENTIFIER")]


def test_an_xml_element_named_like_an_html_void_element_still_names_its_text():
    # "<source>" is HTML's void element, but closed here: an XML element like any other
    xml = "<clients>\n<client><source>web</source><id>C-30452</id><nom>Favre</nom></client>\n</clients>"
    assert ("C-30452", "IDENTIFIER") in shown(xml, RULES.detect(xml, "fr"))


def test_a_colon_in_an_address_value_is_no_contact_line():
    xml = "<clients><client><nom>Léa Morel</nom><adresse>Appt 4 : 12 rue des Lilas</adresse></client></clients>"
    assert ("Appt 4 : 12 rue des Lilas", "ADDRESS") in shown(xml, RULES.detect(xml, "fr"))


def test_an_html_addressee_line_stays_masked():
    html = "<div><p>x</p><address>Anne Roy<br>9 quai Lunel<br>06300 Nice</address></div>"
    start = html.index("<address>") + len("<address>")
    spans = [Span(start, html.index("</address>"), "ADDRESS", 0.9, "model")]
    assert shown(html, apply_structure(html, spans, FIELDS)) == [
        ("9 quai Lunel<br>06300 Nice", "ADDRESS"), ("Anne Roy", "ADDRESS")]


def test_a_personal_site_field_is_no_sites_column():
    assert FIELDS.kind("site") == "not_personal"
    assert FIELDS.kind("site perso") is None


def _column_table(values: list[str], header: str = "ref,contact,site") -> str:
    return header + "\n" + "".join(f"A{i},{value},Leeds\n" for i, value in enumerate(values))


def _filled(table: str, *pieces: tuple[str, str]) -> list[tuple[str, str]]:
    before = shown(table, found(table, *pieces))
    after = shown(table, apply_structure(table, found(table, *pieces), FIELDS))
    return [item for item in after if item not in before]


def test_a_column_found_nearly_whole_holds_its_label_in_its_other_cells():
    # the model found three names of four, whole, in a column the fields say nothing of: the fourth is one too,
    # without its title or a full stop
    table = _column_table(["Evangeline Stone", "Marcus Hale", "Mme St. John-Mildmay.", "Ada Brook"])
    assert _filled(table, ("Evangeline Stone", "PERSON"), ("Marcus Hale", "PERSON"), ("Ada Brook", "PERSON")) == [
        ("St. John-Mildmay", "PERSON")]
    # a column of codes: a code of its codes' shape is one; an amount, a year, a phone are none
    found_codes = [f"KX-2041{i}" for i in range(8)]
    codes = _column_table(found_codes + ["KX-20433", "1200.00", "2024", "0612345678"], "ref,fob,site")
    assert _filled(codes, *[(code, "IDENTIFIER") for code in found_codes]) == [("KX-20433", "IDENTIFIER")]


@pytest.mark.parametrize("table, pieces", [
    # two of four found: under two in three
    (_column_table(["Evangeline Stone", "Marcus Hale", "Rosalind Kemp", "Ada Brook"]),
     (("Evangeline Stone", "PERSON"), ("Marcus Hale", "PERSON"))),
    # three of five found: three at least, but under two in three
    (_column_table(["Evangeline Stone", "Marcus Hale", "Rosalind Kemp", "Ada Brook", "Owen Tate"]),
     (("Evangeline Stone", "PERSON"), ("Marcus Hale", "PERSON"), ("Ada Brook", "PERSON"))),
    # notes: names found inside cells, not whole: the column is prose, not names
    (_column_table(["Called Jean Dupont", "Met Marie Curie", "Rosalind Kemp", "Email from Paul Martin"], "ref,notes,site"),
     (("Jean Dupont", "PERSON"), ("Marie Curie", "PERSON"), ("Paul Martin", "PERSON"))),
    # a product table's name column (a price, a SKU beside it)
    ("name,price,sku\nMadeleine,12.00,SK-1\nFlorentine,14.00,SK-2\nRosalind Kemp,9.00,SK-3\nLouise Chair,80.00,SK-4\n",
     (("Madeleine", "PERSON"), ("Florentine", "PERSON"), ("Louise Chair", "PERSON"))),
    # an organisation's name among the parties
    (_column_table(["Evangeline Stone", "Marcus Hale", "Hanson Bridgett LLP", "Ada Brook"], "ref,party,site"),
     (("Evangeline Stone", "PERSON"), ("Marcus Hale", "PERSON"), ("Ada Brook", "PERSON"))),
    # two labels in the column
    (_column_table(["Evangeline Stone", "Marcus Hale", "Rosalind Kemp", "Ada Brook", "Owen Tate", "Lia Moss"]),
     (("Evangeline Stone", "PERSON"), ("Marcus Hale", "PERSON"), ("Ada Brook", "PERSON"), ("Owen Tate", "PERSON"),
      ("Lia Moss", "IDENTIFIER"))),
])
def test_a_column_found_in_part_prose_things_or_two_labels_is_not_filled(table, pieces):
    assert _filled(table, *pieces) == []
