"""Keyword-triggered rules: the schema, the loader's errors, and values found after keywords."""

from __future__ import annotations

import dataclasses
import json
import random
import shutil

import pytest
import regex
from stdnum.fr import nir as stdnum_nir

from alias_engine import Engine
from alias_engine.detectors.keywords import find_keyword_spans, fold_keyword, is_valid_date, keyword_regex
from alias_engine.detectors.rules import RulesError, detect_with_rules, load_rules
from alias_engine.errors import AliasEngineError
from alias_engine.merge import merge_spans
from alias_engine.resources import data_dir
from alias_engine.spans import Span
from alias_engine.validators import ssn


@pytest.fixture(scope="module")
def rules():
    return load_rules(data_dir("rules"))


def keyword_hits(text, rules):
    spans, _ = find_keyword_spans(text, rules.keywords)
    return sorted((text[s.start:s.end], s.label, s.verified) for s in spans)


# --- keyword matching ------------------------------------------------------------

@pytest.mark.parametrize("keyword, text", [
    ("date de naissance", "Date de Naissance"),
    ("né le", "ne le"),
    ("n° client", "N° client"),
    ("n° client", "nº  client"),
    ("réf. client", "ref client"),
    ("nom d'utilisateur", "nom d’utilisateur"),
    ("tél", "Tél"),
    ("NIR", "NIR"),
    ("réf.", "Réf."),
    ("réf.", "REF"),
    ("e-mail", "e-mail"),
])
def test_keyword_matches_variants_and_folds_to_the_same_key(keyword, text):
    assert regex.fullmatch(keyword_regex(keyword), text)
    assert fold_keyword(keyword) == fold_keyword(text)


@pytest.mark.parametrize("keyword, text", [
    ("NIR", "nir"),               # acronyms in capitals match in capitals only
    ("IBAN", "Iban Martin"),      # "Iban" is a first name
    ("tel", "hotel"),             # whole words only
    ("mobile", "automobile"),
    ("pass", "passer"),
    ("SIN", "SIN-909733"),        # a keyword joined by a hyphen to a code is the code's prefix
    ("réf.", "REF-88231"),
    ("réf.", "Refuge 12"),        # an abbreviation without its dot is a whole word too
])
def test_keyword_does_not_match(keyword, text):
    assert regex.search(keyword_regex(keyword), text) is None


@pytest.mark.parametrize("value, valid", [("12/03/1985", True), ("03/25/1985", True), ("1985-03-12", True),
                                          ("31/02/1985", False), ("13.13.1985", False), ("12.13.1985", True), ("12 mars 1985", True),
                                          ("March 12, 1985", True), ("1er mars 1985", True), ("12/03/85", True),
                                          ("45 mars 1985", False), ("12/03/1492", False)])
def test_date_validator(value, valid):
    assert is_valid_date(value) is valid


# --- values after keywords -----------------------------------------------------------

@pytest.mark.parametrize("text, value", [
    ("né le 12/03/1985", "12/03/1985"),
    ("Née le 1er mars 1985 à Lyon", "1er mars 1985"),
    ("Jean, né à Saint-Étienne le 12 mars 1985, demeurant", "12 mars 1985"),
    ("date de naissance : 12.03.1985", "12.03.1985"),
    ("Date de naissance: le 3 févr. 1990", "3 févr. 1990"),
    ("DOB: 1985-03-12", "1985-03-12"),
    ("Date of birth: March 12, 1985.", "March 12, 1985"),
    ("born on 12th March 1985", "12th March 1985"),
    ("He was born in Leeds on 3 September 1990", "3 September 1990"),
    ("D.O.B. 03/25/1985", "03/25/1985"),
])
def test_birth_dates(rules, text, value):
    assert keyword_hits(text, rules) == [(value, "BIRTH_DATE", True)]


@pytest.mark.parametrize("text", ["rendez-vous le 12/03/2025", "facture du 12 mars 2024",
                                  "Meeting on March 12, 2025", "née le", "born on a Monday"])
def test_other_dates_are_not_birth_dates(rules, text):
    assert keyword_hits(text, rules) == []


@pytest.mark.parametrize("text, value", [
    ("dossier n° 2024/0456", "2024/0456"),
    ("N° client : CL-2024-0042.", "CL-2024-0042"),
    ("numéro de client 00123456", "00123456"),
    ("matricule A12345", "A12345"),
    ("Customer ID: CUST-57046", "CUST-57046"),
    ("policy number PN-4478-XZ", "PN-4478-XZ"),
    ("MRN 00012345", "00012345"),
    ("patient ID #A77812", "A77812"),
    ("member ID is 4411-22", "4411-22"),
    ("contract no. 2023-771", "2023-771"),
    ("login: jdupont", "jdupont"),
    ("username = marie.martin", "marie.martin"),
    ("identifiant : jean.dupont42", "jean.dupont42"),
    ("immatriculation AB-123-CD", "AB-123-CD"),
    ("Frequent flyer no. QR 551 204 877", "QR 551 204 877"),           # a loyalty programme's member
    ("N° ALLOCATAIRE CAF : 7731204", "7731204"),
    ("Identifiant client : 0177 412 903", "0177 412 903"),
    ("Identifiant de banque en ligne : 90412275", "90412275"),
])
def test_identifiers(rules, text, value):
    assert keyword_hits(text, rules) == [(value, "IDENTIFIER", True)]


@pytest.mark.parametrize("text", ["the login page", "username: <your username>", "matricule : non communiqué",
                                  "customer ID: required", "facture n° 2024-00123", "order number 4471-22"])
def test_identifier_negatives(rules, text):
    assert [h for h in keyword_hits(text, rules) if h[1] == "IDENTIFIER"] == []


def _valid_nir() -> str:
    body = "1850375123456"
    return body + stdnum_nir.calc_check_digits(body)


def test_checksum_decides_verified_not_masking(rules):
    good = _valid_nir()
    bad = good[:-2] + f"{(int(good[-2:]) + 1) % 97:02d}"
    assert keyword_hits(f"NIR : {good}", rules) == [(good, "NATIONAL_ID", True)]
    assert keyword_hits(f"n° de sécurité sociale {bad}", rules) == [(bad, "NATIONAL_ID", False)]
    assert ssn.is_valid("123-45-6789")
    assert keyword_hits("SSN: 123-45-6789", rules) == [("123-45-6789", "NATIONAL_ID", True)]
    assert keyword_hits("SSN: 000-45-6789", rules) == [("000-45-6789", "NATIONAL_ID", False)]
    assert keyword_hits("IBAN : FR76 3000 6000 0112 3456 7890 188", rules) == \
        [("FR76 3000 6000 0112 3456 7890 188", "IBAN", False)]
    assert keyword_hits("card number 4111 1111 1111 1112", rules) == [("4111 1111 1111 1112", "CREDIT_CARD", False)]


def test_unverified_values_are_still_masked():
    engine = Engine(use_model=False)
    text = "IBAN : FR76 3000 6000 0112 3456 7890 188, NINO QQ 12 34 56 E"
    spans = engine.detect(text)
    assert [(text[s.start:s.end], s.label, s.verified) for s in spans] == [
        ("FR76 3000 6000 0112 3456 7890 188", "IBAN", False), ("QQ 12 34 56 E", "NATIONAL_ID", False)]
    masked = engine.mask(text)
    assert "3456" not in masked.text and engine.unmask(masked.text, masked.mapping) == text


@pytest.mark.parametrize("text, value", [
    ("National Insurance number: QQ 12 34 56 C", "QQ 12 34 56 C"),
    ("n° de passeport : 12AB34567", "12AB34567"),
    ("passport number 533380006", "533380006"),
    ("permis de conduire n° 123456789012", "123456789012"),
    ("driving licence MORGA753116SM9IJ", "MORGA753116SM9IJ"),
])
def test_national_ids(rules, text, value):
    hits = keyword_hits(text, rules)
    assert [(v, label) for v, label, _ in hits] == [(value, "NATIONAL_ID")]


@pytest.mark.parametrize("text, value", [
    ("tél. : 06 12 34 56 7", "06 12 34 56 7"),           # one digit short: still a phone by context
    ("Mobile: 07700 900123", "07700 900123"),
    ("portable 06-12-34-56-78", "06-12-34-56-78"),
])
def test_phone_keywords(rules, text, value):
    assert [(v, label) for v, label, _ in keyword_hits(text, rules)] == [(value, "PHONE")]


@pytest.mark.parametrize("text, value", [
    ("password: hunter2", "hunter2"),
    ('"password": "p@ss word!"', "p@ss word!"),
    ("DB_PASSWORD=Xk9#mq2!", "Xk9#mq2!"),
    ("mot de passe : Soleil2024", "Soleil2024"),
    ("mdp=azerty", "azerty"),
    ("my password is hunter2.", "hunter2"),
    ("api_key='a8f5f167f44f4964e6c998dee827110c'", "a8f5f167f44f4964e6c998dee827110c"),
    ("Authorization: Bearer abc.def-123_XYZ", "abc.def-123_XYZ"),
    ("password: changeme", "changeme"),
])
def test_secret_values_after_keywords(rules, text, value):
    assert [(v, label) for v, label, _ in keyword_hits(text, rules)] == [(value, "SECRET")]


@pytest.mark.parametrize("text, values", [
    ("    password: ${DB_PASSWORD:Fact0ry!Preprod}", ["Fact0ry!Preprod"]),
    ("ADMIN_PASSWORD: ${ADMIN_PASS:-Sel-Marin-82}", ["Sel-Marin-82"]),
    ("ADMIN_PASSWORD: ${ADMIN_PASS:-changeme}", []),          # a placeholder default is no one's secret
    ("ADMIN_PASSWORD: ${ADMIN_PASS}", []),                    # no default: a reference
])
def test_a_variable_s_default_is_the_secret_without_its_closing_brace(rules, text, values):
    assert [text[s.start:s.end] for s in detect_with_rules(text, "en", rules) if s.label == "SECRET"] == values


@pytest.mark.parametrize("text", ["api_key = YOUR_API_KEY", "token: <token>", "password: ********",
                                  "mot de passe : xxx", "secret: ${SECRET_KEY}", "password: {{ db_password }}",
                                  "the password is required", "password_hash: $2b$12$abcdefghijk",
                                  "token: os.environ['TOKEN']", "password: REDACTED", "api key: [your key]"])
def test_secret_placeholders(rules, text):
    assert keyword_hits(text, rules) == []


@pytest.mark.parametrize("text, value, label", [
    ("28-64-66-98 office", "28-64-66-98", "PHONE"),
    ("06 12 34 56 7 (portable)", "06 12 34 56 7", "PHONE"),
    ("Desk: +1-903-140-4508x769", "+1-903-140-4508x769", "PHONE"),
    ("What's your credit card? 4111111111111111", "4111111111111111", "CREDIT_CARD"),
    ("My website is https://www.scrapbook-insider.com.pt/", "https://www.scrapbook-insider.com.pt/", "URL"),
    ("Website:\nhttp://smellology.be/", "http://smellology.be/", "URL"),
    ("mon site perso : jdupont.fr", "jdupont.fr", "URL"),
    ("my iban is gb82west12345698765432", "gb82west12345698765432", "IBAN"),
])
def test_values_around_keywords(rules, text, value, label):
    assert [(v, lab) for v, lab, _ in keyword_hits(text, rules)] == [(value, label)]


@pytest.mark.parametrize("text, value, label", [
    ("Mot de passe du compte partagé : Dragon360", "Dragon360", "SECRET"),
    ("mot de passe Loulou233$.", "Loulou233$", "SECRET"),
    ("| Password | Bonjour1694$ |", "Bonjour1694$", "SECRET"),
    ("le code wifi ? c'est TIGROU1280$ non ?", "TIGROU1280$", "SECRET"),
    ('"mot_de_passe": "DL74#wQEm!_@jDx"', "DL74#wQEm!_@jDx", "SECRET"),
    ("c'est l'anniv de Sébastien le 28 juillet 1937", "28 juillet 1937", "BIRTH_DATE"),
    ("BDAY:11-Jun-1954", "11-Jun-1954", "BIRTH_DATE"),
    ("Notes CRM - client CL1600777047", "CL1600777047", "IDENTIFIER"),
    ("login failed user=gyongyi1305 ip", "gyongyi1305", "IDENTIFIER"),
    ("customer=CL2015/6095", "CL2015/6095", "IDENTIFIER"),
    ("My login is stempniak.w and", "stempniak.w", "IDENTIFIER"),
    ("N° DE DOSSIER : DOS-TKCJII", "DOS-TKCJII", "IDENTIFIER"),
    ("MRN:\t0521483094", "0521483094", "IDENTIFIER"),
    ("Je vous envoie ma carte d'identité, n° PC7P9OF40", "PC7P9OF40", "NATIONAL_ID"),
    ("ID CARD: 221203339752", "221203339752", "NATIONAL_ID"),
    ("Spanish DNI: 94889566F", "94889566F", "NATIONAL_ID"),
    ("N° national (Belgique) = 57.05.28-480.09", "57.05.28-480.09", "NATIONAL_ID"),
    ("Can you confirm your date of birth?\n[16:18] You: March 30, 1931", "March 30, 1931", "BIRTH_DATE"),
    ("Votre numéro client ?\nuser: CLI-345-635-061", "CLI-345-635-061", "IDENTIFIER"),
    ("**DOB**: 02-01-1975", "02-01-1975", "BIRTH_DATE"),
    ("Password - Football2020", "Football2020", "SECRET"),
    ("CODE WIFI\tJCFQSZCFXAJP1", "JCFQSZCFXAJP1", "SECRET"),
    ("I forgot my password, the old one was YgO4JZ4hdlYKN.", "YgO4JZ4hdlYKN", "SECRET"),
    ("j'ai oublié mon mot de passe, l'ancien était Azerty1545.", "Azerty1545", "SECRET"),
    ("Numéro de passeport de PARENT Alice : 34SR46477.", "34SR46477", "NATIONAL_ID"),
    ("Pièce d'identité:  M40222590", "M40222590", "NATIONAL_ID"),
    ("Identifiant France Travail : 91669132", "91669132", "IDENTIFIER"),
    ("Suis-moi sur Insta : @marcelle_lamy", "marcelle_lamy", "IDENTIFIER"),
    ("connection to server fail with user charles1495 and", "charles1495", "IDENTIFIER"),
    ("recognised the car with plate HY-TF 1133. I", "HY-TF 1133", "IDENTIFIER"),
    ("c'est l'anniv de Marie-Pierre le 9-7-1974", "9-7-1974", "BIRTH_DATE"),
    ("Matricule : NR8HVCQ", "NR8HVCQ", "IDENTIFIER"),
    ("fail with password j85nX@luG52F?", "j85nX@luG52F", "SECRET"),
    ("MA CLÉ D'API EST R6IDFRQJQJQ1OMKNAMQSRUJQRG4LRLZMUT8CRG, NE", "R6IDFRQJQJQ1OMKNAMQSRUJQRG4LRLZMUT8CRG", "SECRET"),
    ("Shared account password: $SrawLKBbr", "$SrawLKBbr", "SECRET"),
    ("mon mdp c'etait Dragon230? je crois", "Dragon230?", "SECRET"),
    ("password: Motdepasse\nnext line", "Motdepasse", "SECRET"),
    ("Hi, I can't log in with my username shannon73.", "shannon73", "IDENTIFIER"),
    ("| Pseudo | f.dumas |", "f.dumas", "IDENTIFIER"),
    ("LinkedIn : rachidde-boukhari.me", "rachidde-boukhari.me", "URL"),
    ("My resume is here: gill.com and", "gill.com", "URL"),
    ("mon iban FR04-4116-4142-10NX-2WI5-VDE7-624", "FR04-4116-4142-10NX-2WI5-VDE7-624", "IBAN"),
    ("Direct debit from account PL48-3791-2956-3351-1179-6443-6282 on May 19", "PL48-3791-2956-3351-1179-6443-6282",
     "IBAN"),
    ("Prélèvement sur le compte LU44 350J NEDB RTVA J31T le 11/01/2026.", "LU44 350J NEDB RTVA J31T", "IBAN"),
    ("Tél : 06 12 34 56 78 12 rue de la Paix", "06 12 34 56 78", "PHONE"),
    ("Phone: (415) 555-0132 25 Main Street", "(415) 555-0132", "PHONE"),
    ("Je vous transmets mon RIB : ES28 5502 7960 7106 2306 3314", "ES28 5502 7960 7106 2306 3314", "IBAN"),
])
def test_more_contexts(rules, text, value, label):
    spans = detect_with_rules(text, "fr", rules)
    assert [(text[s.start:s.end], s.label) for s in merge_spans(spans)] == [(value, label)]


@pytest.mark.parametrize("text", [
    "Standard de Carpentier SAS : 05 46 55 29 35.",
    "Notre service est joignable au 05 40 48 12 73 du lundi au vendredi.",
    "Agent: Our helpline is +44 20 0283 0772, Monday to Friday.",
    "Tel: 1-800-131-4205", "Appelez le 0 800 123 456 (appel gratuit)",
    "api_key: sk-xxxxxxxxxxxxxxxxxxxxxxxx",
    "name|password|cell|username|spanish_dni",
    "NOUVELLE ADRESSE DU CLIENT : 52864 RACHEL PLAZA",
    "Christophe signed the contract on 13/03/2020.",
    "| Nom | Login | Adresse IP | Profil |",
    "name,ssn,login,credit_card,password",
    "nom,identifiant,n°_de_police,date_de_la_demande",
    "password: xxxx-xxxx-xxxx", "api_key: REPLACE_ME",
    "Password: (see attachment)", "password: 8 characters minimum", "secret: no", "password: ask John",
    "mot de passe : à demander", "Password: Yes", "password: same as before", "Secret: the meeting is tomorrow",
    "Login: see your manager", "identifiant : votre adresse e-mail",
    "Reference SUP-4996786 - processed 21/05/2026",
    "Reset your password - it takes 2 minutes.", "Le dossier de BESNARD Véronique est complet.",
    "Login: N/A", "password: $DB_PASSWORD",
    "Amadou est passé au bureau le 01/12/2024.",
    "Pour en savoir plus, consultez https://www.ameli.fr ou appelez le 04 42 94 01 52.",
    "For more information visit https://www.who.int or call +44 20 4338 8705.", "Le pseudo - anonyme - est libre.", "Employee ID: PENDING",
    "Suivez-nous sur LinkedIn : https://www.linkedin.com/company/acme", "Password - see the vault.",
    "Objet : ouverture de compte\nN° client : voir courrier",
    "DOCS_URL: https://www.irs.gov/forms-pubs",
    "Contributions: https://github.com/pandas-dev/pandas/issues",
])
def test_more_negatives(rules, text):
    assert detect_with_rules(text, "fr", rules) == []


def test_letterhead_landlines_are_the_company_s_but_mobiles_are_kept(rules):
    letterhead = "ACME SAS\nSIRET 732 829 320 00074 - TVA FR 46 132767468\nTél. 04 74 03 55 26\n\nFACTURE F2025-90631"
    assert detect_with_rules(letterhead, "fr", rules) == []
    letterhead = "Unit 3, Leeds\nTel: +44 20 6809 8555\nCompany no. 489609198 - VAT GB 956 3662 12"
    assert detect_with_rules(letterhead, "en", rules) == []
    text = "Mon n° TVA est FR40303265045, joignable au Tél. 06 98 76 54 32"
    assert [text[s.start:s.end] for s in merge_spans(detect_with_rules(text, "fr", rules))] == ["06 98 76 54 32"]


def test_value_before_its_keyword_starts_at_a_number_boundary(rules):
    text = "06 12 34 56 78 / 01 23 45 67 89 (standard)"
    spans = detect_with_rules(text, "fr", rules)
    assert {(text[s.start:s.end], s.label) for s in spans} == {("06 12 34 56 78", "PHONE")}


# --- suppress rules ------------------------------------------------------------------------

@pytest.mark.parametrize("text", ["standard : 01 23 45 67 89", "Tél. standard : 01 23 45 67 89",
                                  "01 23 45 67 89 (standard)", "+44 20 7946 0000 (switchboard)",
                                  "Switchboard: +44 20 7946 0000", "SIRET : 732 829 320 00074",
                                  "facture n° 2024-00123", "invoice #2024-00123", "n° TVA FR40 303 265 045"])
def test_hard_negatives_give_nothing(rules, text):
    assert detect_with_rules(text, "fr", rules) == []
    assert detect_with_rules(text, "en", rules) == []


# --- the rules files: errors and extension -----------------------------------------------

@pytest.fixture()
def rules_copy(tmp_path):
    target = tmp_path / "rules"
    shutil.copytree(data_dir("rules"), target)
    return target


def _edit(path, change):
    data = json.loads(path.read_text(encoding="utf-8"))
    change(data)
    path.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")


def test_adding_a_keyword_is_a_rules_edit(rules_copy):
    text = "casier n° B-7781"
    assert [s for s in detect_with_rules(text, "fr", load_rules(rules_copy)) if s.label == "IDENTIFIER"] == []
    _edit(rules_copy / "fr" / "keywords.json", lambda d: d["keyword_rules"].append(
        {"label": "IDENTIFIER", "keywords": ["casier n°"], "values": ["id_code"], "max_gap": 5, "score": 0.9}))
    spans = detect_with_rules(text, "fr", load_rules(rules_copy))
    assert [(text[s.start:s.end], s.label, s.source) for s in spans] == [("B-7781", "IDENTIFIER", "keyword")]


def test_a_value_before_its_keyword_is_looked_for_only_where_a_gap_ends_at_the_keyword(rules_copy):
    _edit(rules_copy / "fr" / "keywords.json", lambda d: d["keyword_rules"].append(
        {"label": "IDENTIFIER", "keywords": ["badge"], "values": ["id_code"], "value_before": True,
         "gap": "separator_before", "max_gap": 10}))
    loaded = load_rules(rules_copy)
    badge = next(r for r in loaded.keywords.rules if r.value_before and r.label == "IDENTIFIER"
                 and r.gap_before is not None)
    texts = ["B-7781 – badge", "B-7781 · badge du hall", "B-7781 badge", "[B-7781-badge]", '"B-7781"badge',
             "B-7781 |\tbadge", "badge – B-7781", "B-7781 -\nbadge"]
    found = [keyword_hits(text, loaded) for text in texts]
    assert found[0] == found[1] == [("B-7781", "IDENTIFIER", True)]
    # The same rule without the check on its gap (a gap that may be empty has none) finds the same values
    without = [r if r is not badge else dataclasses.replace(r, gap_before=None) for r in loaded.keywords.rules]
    loaded_without = dataclasses.replace(loaded, keywords=dataclasses.replace(loaded.keywords, rules=tuple(without)))
    assert [keyword_hits(text, loaded_without) for text in texts] == found
    assert all(r.gap_before is None for r in loaded.keywords.rules if not r.value_before)


@pytest.mark.parametrize("gap, version, why", [
    ("[ \\t]*-[ \\t]*", "", None),
    ("[ \\t]*", "", "it may be empty"),
    ("[ \\t]*(-)[ \\t]*\\1?", "", "it refers to a group"),
    ("[ ]*[[-–]--[x]][ ]*", "(?V1)", "a set operation, read otherwise without the value's (?V1)"),
])
def test_a_gap_that_could_rule_out_a_value_the_rule_finds_is_not_checked_alone(rules_copy, gap, version, why):
    def add(d):
        d["gaps"]["test_gap"] = gap
        d["values"]["versioned_code"] = {"pattern": version + "[A-Z]-\\d{4}(?#test)"}
    _edit(rules_copy / "common.json", add)
    _edit(rules_copy / "fr" / "keywords.json", lambda d: d["keyword_rules"].append(
        {"label": "IDENTIFIER", "keywords": ["badge"], "values": ["versioned_code"], "value_before": True,
         "gap": "test_gap", "max_gap": 10}))
    added = [r for r in load_rules(rules_copy).keywords.rules if any("(?#test)" in m.pattern for m, _ in r.matchers)]
    assert len(added) == 1
    assert (added[0].gap_before is None) == (why is not None), why


def test_a_keyword_list_is_written_once_and_shared(rules_copy):
    text = "Warden 4471 K. ODUYA took the statement"
    assert [s for s in detect_with_rules(text, "en", load_rules(rules_copy)) if s.label == "IDENTIFIER"] == []
    _edit(rules_copy / "common.json", lambda d: d["keyword_lists"]["police_ranks"].append("Warden"))
    spans = detect_with_rules(text, "en", load_rules(rules_copy))
    assert ("4471", "IDENTIFIER") in [(text[s.start:s.end], s.label) for s in spans]  # the collar-number rule's list


def test_an_unknown_keyword_list_is_a_rules_error(rules_copy):
    _edit(rules_copy / "en" / "keywords.json", lambda d: d["keyword_rules"].append(
        {"label": "IDENTIFIER", "keywords": ["@no_such_list"], "values": ["id_code"]}))
    with pytest.raises(RulesError, match="no_such_list"):
        load_rules(rules_copy)


def test_adding_a_value_shape_with_a_validator(rules_copy):
    def change(d):
        d["values"]["siren"] = {"pattern": r"\d{3} ?\d{3} ?\d{3}", "validator": "card"}
    _edit(rules_copy / "common.json", change)
    _edit(rules_copy / "en" / "keywords.json", lambda d: d["keyword_rules"].append(
        {"label": "IDENTIFIER", "keywords": ["staff code"], "values": ["siren"], "score": 0.8}))
    spans = detect_with_rules("staff code 123 456 789", "en", load_rules(rules_copy))
    assert [(s.start, s.end, s.verified) for s in spans] == [(11, 22, False)]


def test_the_keyword_module_doctests_run():
    import doctest

    from alias_engine.detectors import keywords

    result = doctest.testmod(keywords)
    assert result.attempted and not result.failed


def test_a_gap_shares_a_part_written_once(rules_copy):
    """`${name}` in a gap is the gap `name`: the adverbs after a verb are one list that four gaps use."""
    shipped = json.loads((data_dir("rules") / "common.json").read_text(encoding="utf-8"))["gaps"]
    assert sum("${adverb}" in pattern for pattern in shipped.values()) >= 4
    rules = load_rules(rules_copy)
    assert [(s.label, s.end) for s in detect_with_rules("the door code is still 1984", "en", rules)] == [("SECRET", 27)]

    def without_still(d):
        d["gaps"]["adverb"] = d["gaps"]["adverb"].replace("still|", "")
    _edit(rules_copy / "common.json", without_still)
    assert detect_with_rules("the door code is still 1984", "en", load_rules(rules_copy)) == []


def test_the_patterns_outside_the_keyword_rules_share_gaps_too(rules_copy):
    """A licence's issuing states are written once ("gaps" → licence_states) for the keyword rules'
    gap and the model's check; a British sort code once for its label pattern and its PHONE suppression."""
    shipped = json.loads((data_dir("rules") / "common.json").read_text(encoding="utf-8"))
    assert "${licence_states}" in shipped["model_checks"]["licence_state"]
    assert "${licence_states}" in shipped["gaps"]["licence_state"]
    by_name = {p["name"]: p["pattern"] for p in shipped["suppress_patterns"] + shipped["label_patterns"]}
    assert all("${gb_sort_code}" in by_name[name] for name in ("gb_sort_code_account", "gb_sort_code_account_no_phone"))
    text = "sort code and account: 52-19-84 60318827"
    assert [(s.label, text[s.start:s.end]) for s in detect_with_rules(text, "en", load_rules(rules_copy))] == [
        ("IDENTIFIER", "60318827")]

    def without_the_sort_code(d):
        d["gaps"]["gb_sort_code"] = "(?!)"
    _edit(rules_copy / "common.json", without_the_sort_code)
    assert detect_with_rules(text, "en", load_rules(rules_copy)) == []


@pytest.mark.parametrize("section", ["model_checks", "suppress_patterns", "label_patterns"])
def test_an_unknown_gap_outside_the_keyword_rules_is_a_rules_error(rules_copy, section):
    def change(d):
        if section == "model_checks":
            d[section]["dose_after"] += "${nope}"
        else:
            d[section][0]["pattern"] += "${nope}"
    _edit(rules_copy / "common.json", change)
    with pytest.raises(RulesError, match="unknown gap 'nope'"):
        load_rules(rules_copy)


@pytest.mark.parametrize("file, change, message", [
    ("fr/keywords.json", lambda d: d["keyword_rules"].append({"label": "NOPE", "keywords": ["x"], "values": ["id_code"]}),
     "unknown label"),
    ("fr/keywords.json", lambda d: d["keyword_rules"].append({"label": "PHONE", "keywords": ["x"], "values": ["nope"]}),
     "unknown value"),
    ("fr/keywords.json", lambda d: d["keyword_rules"].append({"label": "PHONE", "keywords": ["x"], "values": ["id_code"],
                                                     "gap": "nope"}), "unknown gap"),
    ("common.json", lambda d: d["gaps"].update({"prose": d["gaps"]["prose"] + "${nope}"}), "unknown gap 'nope'"),
    ("common.json", lambda d: d["gaps"].update({"adverb": "(?:${prose})"}), "refers to itself"),
    ("en/keywords.json", lambda d: d["keyword_rules"].append({"label": "PHONE", "keyword": ["x"], "values": ["id_code"]}),
     "unknown key"),
    ("en/keywords.json", lambda d: d["keyword_rules"].append({"label": "PHONE", "suppress": ["PHONE"], "keywords": ["x"],
                                                     "values": ["id_code"]}), "exactly one"),
    ("common.json", lambda d: d["values"].update({"bad": {"pattern": "(unclosed"}}), "regex"),
    ("common.json", lambda d: d["values"].update({"bad": {"pattern": "x", "validator": "nope"}}), "unknown validator"),
    ("common.json", lambda d: d["email"].update({"pattern": "[a-"}), "email.pattern"),
    ("common.json", lambda d: d.pop("phone"), "phone"),
    ("en/keywords.json", lambda d: d.update({"keyword_rule": []}), "unknown key"),
    ("en/keywords.json", lambda d: d["keyword_rules"].append({"label": "PHONE", "keywords": ["x"], "values": ["id_code"],
                                                     "value_before": "yes"}), "value_before"),
    ("en/keywords.json", lambda d: d["keyword_rules"].append({"label": "PHONE", "keywords": ["x"], "values": ["id_code"],
                                                     "list": "yes"}), "list must be"),
    ("en/keywords.json", lambda d: d["keyword_rules"].append({"suppress": ["PHONE"], "keywords": ["x"], "values": ["id_code"],
                                                     "value_before": True, "list": True}), "written after the keyword"),
])
def test_malformed_rules_raise_rules_error(rules_copy, file, change, message):
    _edit(rules_copy / file, change)
    with pytest.raises(RulesError, match=message):
        load_rules(rules_copy)


@pytest.mark.parametrize("name", ["common.json", "fr/keywords.json", "en/keywords.json"])
def test_missing_or_broken_rules_file(rules_copy, name):
    (rules_copy / name).write_text("{not json", encoding="utf-8")
    with pytest.raises(RulesError, match=name):
        load_rules(rules_copy)
    (rules_copy / name).unlink()
    with pytest.raises(AliasEngineError, match="not found"):
        Engine(use_model=False, rules_dir=rules_copy)


def test_missing_rules_directory(tmp_path):
    with pytest.raises(RulesError, match="not found"):
        load_rules(tmp_path / "nowhere")


def test_greetings_and_sign_offs_are_never_a_person_alone():
    from alias_engine.resolve.suppressions import without_non_names
    from alias_engine.spans import Span

    text = "Bisous, Inès\nCoucou, Jean\nCordialement\nMarie Love"
    rules = load_rules(data_dir("rules"))
    spans = [Span(0, 6, "PERSON", 0.9, "model"), Span(8, 12, "PERSON", 0.9, "model"),
             Span(13, 25, "PERSON", 0.9, "model"), Span(26, 38, "PERSON", 0.9, "model"),
             Span(39, 49, "PERSON", 0.9, "model"), Span(0, 6, "SECRET", 0.9, "model")]
    kept = without_non_names(spans, text, rules.not_names)
    assert [(text[s.start:s.end], s.label) for s in kept] == [
        ("Inès", "PERSON"), ("Jean", "PERSON"), ("Marie Love", "PERSON"), ("Bisous", "SECRET")]


@pytest.mark.parametrize("word", ["Mummy", "mum", "Tonton", "Thurs", "Samedi", "Gran", "nan", "Tantine", "marraine",
                                  "Confrère", "Consœur", "Colleague", "le Maire", "la Directrice"])
def test_kinship_words_and_weekdays_are_never_a_person_alone(word):
    from alias_engine.resolve.suppressions import without_non_names
    from alias_engine.spans import Span

    text = f"[19:02] {word}: on arrive"
    rules = load_rules(data_dir("rules"))
    spans = [Span(8, 8 + len(word), "PERSON", 0.9, "model")]
    assert without_non_names(spans, text, rules.not_names) == []


def test_an_office_is_no_name_but_a_surname_with_a_capitalised_article_is():
    from alias_engine.resolve.suppressions import without_non_names
    from alias_engine.spans import Span

    rules = load_rules(data_dir("rules"))
    text = "Monsieur le Maire, voici la lettre de M. Le Juge. Monsieur Le Maire, merci."
    spans = [Span(9, 17, "PERSON", 0.9, "model"), Span(41, 48, "PERSON", 0.9, "model"),
             Span(59, 67, "PERSON", 0.9, "model")]
    assert [text[s.start:s.end] for s in without_non_names(spans, text, rules.not_names)] == ["Le Juge"]


@pytest.mark.parametrize("text, word", [("Ask Dr Sun tomorrow", "Sun"), ("Nguyen Thi Thu said ok", "Thu"),
                                        ("Mr Papa called", "Papa"), ("Ms Tata called", "Tata"), ("Mon Ly est là", "Mon")])
def test_a_word_that_is_also_a_name_stays_a_person(text, word):
    from alias_engine.resolve.suppressions import without_non_names
    from alias_engine.spans import Span

    rules = load_rules(data_dir("rules"))
    start = text.rindex(word)
    spans = [Span(start, start + len(word), "PERSON", 0.9, "model")]
    assert without_non_names(spans, text, rules.not_names) == spans


def test_a_suppress_rules_list_clears_every_value_of_it(rules):
    text = "Ticket numbers 176-5903318462, 176-5903318463 and 176-5903318464. Staff ID 50142"
    model = [Span(m.start(), m.end(), "IDENTIFIER", 0.9, "model") for m in regex.finditer(r"\d{3}-\d{10}|50142", text)]
    kept = detect_with_rules(text, "en", rules, model)
    assert {text[s.start:s.end] for s in kept} == {"50142"}         # the tickets' model spans all cleared


@pytest.mark.parametrize("text, kept", [
    ("Thanks, order 58213, 07700 900123 is my mobile", "07700 900123"),   # a digit group after it: no whole value
    ("Ticket 4471 and 020 7946 0958", "020 7946 0958"),
    ("Invoice INV-2291, 4111 1111 1111 1111", "4111 1111 1111 1111"),     # written otherwise than the first
    ("Commande 45821, 0612345678", "0612345678"),
    ("Parcel 445566, AB123456C is my NI number", "AB123456C"),
])
def test_a_suppress_rules_list_clears_only_values_written_as_its_first(rules, text, kept):
    found = {text[s.start:s.end] for s in Engine(use_model=False).detect(text, "en")}
    assert kept in found


# --- a Wi-Fi network's name (rules/common.json: the "network_name" suppression) -------------

def suppressed(text, rules):
    _, suppressions = find_keyword_spans(text, rules.keywords)
    return sorted(text[s.start:s.end].strip('"') for s in suppressions if "SECRET" in s.labels)


@pytest.mark.parametrize("text, name", [
    ("The Wi-Fi network is Orchard_Guest and the password fernhill1979", "Orchard_Guest"),
    ("le wifi : freebox-2d9e, mdp Vn4kPz8Lq2Ts", "freebox-2d9e"),
    ('Wi-Fi "Chiado38", password laranjas2031.', "Chiado38"),
])
def test_a_wifi_networks_name_before_its_password_is_suppressed(rules, text, name):
    assert suppressed(text, rules) == [name]


@pytest.mark.parametrize("text", [
    "Wifi : Kx82mQz4Lr (code porte 4512)",           # a code after it: the value may be the password
    "WiFi: Crepe-Suzette42, code alarme 1234",
    "WiFi: hunter2 key 1234",
    "Network: jdupont, password Welcome2024!",       # a login after "network" alone
    "réseau : jdupont / mot de passe : Xy12",
    "the wifi password is Crepe-Suzette42",
])
def test_no_password_or_login_is_taken_for_a_network_name(rules, text):
    assert suppressed(text, rules) == []


# --- long values and crafted runs: the whole value, at a cost linear in the text ----------------

def _token(length, seed):
    """A random URL-safe token of `length` characters (letters, digits, '-' and '_')."""
    alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"
    rng = random.Random(seed)
    return "".join(rng.choice(alphabet) for _ in range(length))


@pytest.mark.parametrize("keyword, length", [("token: ", 900), ("api_key=", 3000), ("client_secret: ", 6000)])
def test_a_long_secret_after_its_keyword_is_one_span_to_its_end(rules, keyword, length):
    """Rules only: a JWT-sized or longer token is masked whole, not cut at a '-' after 256 characters
    (and one longer than the 4 kB read after a keyword runs on to the next space)."""
    value = _token(length, length)
    text = f"{keyword}{value} (rotate it monthly)"
    assert (value, "SECRET", True) in keyword_hits(text, rules)


def test_a_token_with_a_dot_where_reading_stops_is_still_masked_whole(rules):
    """A shape may not end on "." (a sentence's end): where the 4 kB read stops one character after a dot, the
    value ends before it, inside its run, and still runs on to the run's end."""
    value = _token(5000, 7)
    last_read = len("token") + 4096 - 1 - len("token: ")  # the last character read, in the value
    value = value[:last_read] + "." + value[last_read + 1:]
    assert (value, "SECRET", True) in keyword_hits(f"token: {value} rotated", rules)


def test_a_long_value_runs_on_to_its_quote_not_over_the_next_fields(rules):
    token = _token(5000, 11)
    text = '{"token":"' + token + '","user":"kvance7","email":"k.vance@example.org"}'
    assert [v for v, label, _ in keyword_hits(text, rules) if label == "SECRET"] == [token]  # not the login after it


def test_a_keyword_repeated_along_a_long_run_leaves_nothing_of_it_readable(rules):
    """'login: login.login.…': each hit inside the first long value is not read again (the cost would grow
    with the square of the run), and the values found cover the run to its end."""
    text = "login: " + "login." * 1500 + "x1 done"
    spans, _ = find_keyword_spans(text, rules.keywords)
    run_end = text.index(" done")
    covered = {i for s in spans for i in range(s.start, s.end)}
    assert set(range(len("login: "), run_end)) <= covered
    assert len(spans) <= 4


def test_a_keyword_inside_a_short_value_is_still_read(rules):
    """In a value of a few characters the keyword inside is read: the secret is the default after it."""
    text = "password: ${SMTP_PASSWORD:Vq8-rT2!mw}"
    assert ("Vq8-rT2!mw", "SECRET", True) in keyword_hits(text, rules)


def test_a_value_with_a_keyword_near_its_end_is_a_header(rules):
    """Only a value's end is folded to see whether it names a column; a long header still ends with one."""
    from alias_engine.detectors.keywords import is_keyword_like
    header = ",".join(f"column_{i}" for i in range(40)) + ",credit_card"
    assert len(header) > 200 and is_keyword_like(header, rules.keywords)
    assert not is_keyword_like(",".join(f"column_{i}" for i in range(40)), rules.keywords)
    # the tail read starts inside "credit_card": the word cut in two is dropped, "card" still ends the value
    cut_inside = "x" * 200 + "_credit_card"
    assert is_keyword_like(cut_inside, rules.keywords)
    assert not is_keyword_like("x" * 200 + "_credit_cardx", rules.keywords)


@pytest.mark.parametrize("threshold, sources", [(0.5, {"pattern", "model"}), (0.2, {"model"})])
def test_detect_with_rules_resolves_a_titles_fallback_at_the_threshold_given(rules, threshold, sources):
    """As the engine does: a model name scored under the threshold leaves the title's fallback name beside it
    (the engine then drops the model's); at a lower threshold the fallback yields to the model's name."""
    text = "Please ask Dr Maren Velikova to sign the form."
    start = text.index("Maren")
    doubted = Span(start, start + len("Maren Velikova"), "PERSON", 0.3, "model")
    found = detect_with_rules(text, "en", rules, [doubted], threshold=threshold)
    assert {s.source for s in found if (s.start, s.end, s.label) == (doubted.start, doubted.end, "PERSON")} == sources


@pytest.mark.parametrize("text, value, label", [
    ("Login: r.tembo_exp", "r.tembo_exp", "IDENTIFIER"),   # "exp" is a keyword too (a card's expiry)
    ("pwd=Hq4!river_user", "Hq4!river_user", "SECRET"),
])
def test_one_word_that_ends_with_a_keyword_is_still_a_value(rules, text, value, label):
    assert (value, label, True) in keyword_hits(text, rules)


@pytest.mark.parametrize("text", [
    "login,credit_card,spanish_dni\nk.ro,4970 1012 3456 7890,X1234567L",  # a header row: names of columns
    "Login: credit_card",                                                   # a keyword alone
])
def test_a_column_name_after_a_keyword_is_no_value(rules, text):
    header = text.split("\n")[0]
    assert [v for v, _, _ in keyword_hits(text, rules) if v in header] == []


def test_words_that_run_into_the_next_fields_keyword_are_no_name(rules):
    text = "Titulaire : ODILE FERRAND IBAN FR76 3000 6000 0112 3456 7890 189"
    assert not [v for v, label, _ in keyword_hits(text, rules) if label == "PERSON" and "IBAN" in v]
