"""An organisation's letterhead: its address and numbers are the organisation's (LABELS.md), a
person's own letterhead or direct line stays masked.

Every example is invented for these tests. The model's spans are given (`model`), so the rule is
tested on what it decides, whatever the shipped model finds.
"""

from dataclasses import replace

import pytest
from _rules_helpers import RULES, detected, spans_of

from alias_engine.resolve.letterheads import organisation_blocks
from alias_engine.resolve.lexicon import Lexicon

ORG_HEAD = ("BANQUE POPULAIRE DU VEXIN\nAgence de Pontoise – 4 place du Grand Martroy – 95300 Pontoise\n"
            "Standard : 01 30 38 00 00\n\n")
PERSON_BLOCK = "Madame Odile Ferrand\n22 rue des Glycines\n95000 Cergy\nTél. : 06 41 52 63 74\n\n"


def test_an_organisations_address_and_switchboard_under_its_name_are_no_values():
    text = ORG_HEAD + PERSON_BLOCK + "Madame,\nvotre dossier est complet."
    got = detected(text, "fr", ("ADDRESS", "4 place du Grand Martroy – 95300 Pontoise"), ("PERSON", "Odile Ferrand"),
                   ("ADDRESS", "22 rue des Glycines\n95000 Cergy"))
    assert got == sorted([("PERSON", "Odile Ferrand"), ("ADDRESS", "22 rue des Glycines\n95000 Cergy"),
                          ("PHONE", "06 41 52 63 74")])


def test_an_english_letterhead_with_a_legal_form():
    text = ("Corbel & Finch Haulage Ltd\nUnit 9, 15 Wharf Street, Hull HU1 2BN\nTel: 01482 496 000\n\n"
            "Dear Mr Okonjo,\nyour invoice is attached.")
    got = detected(text, "en", ("ADDRESS", "Unit 9, 15 Wharf Street, Hull HU1 2BN"), ("PERSON", "Okonjo"))
    assert got == [("PERSON", "Okonjo")]


@pytest.mark.parametrize("head", [
    "Odile Ferrand\n",                              # a person's own letterhead
    "Dr Odile Ferrand – Clinique des Saules\n",     # a titled person's office is theirs
    "12 College Road\n",                            # an address line, not an organisation
    "Impasse de l'Hôpital, bâtiment B\n",           # a street named after one
    "Prochain rendez-vous en hôpital de jour le 3 mars, au service de cardiologie\n",  # a sentence
])
def test_a_persons_letterhead_address_and_phone_stay(head):
    text = head + "22 rue des Glycines\n95000 Cergy\nTél. : 06 41 52 63 74"
    got = detected(text, "fr", ("ADDRESS", "22 rue des Glycines\n95000 Cergy"))
    assert ("ADDRESS", "22 rue des Glycines\n95000 Cergy") in got
    assert ("PHONE", "06 41 52 63 74") in got


def test_a_person_named_under_the_organisation_ends_its_block():
    text = ("Cabinet Vasseur SARL\n3 rue Lamartine, 59000 Lille\nLéa Morvan, gestionnaire\n"
            "Ligne directe : 06 77 88 12 34")
    got = detected(text, "fr", ("ADDRESS", "3 rue Lamartine, 59000 Lille"), ("PERSON", "Léa Morvan"))
    assert ("ADDRESS", "3 rue Lamartine, 59000 Lille") not in got
    assert ("PHONE", "06 77 88 12 34") in got and ("PERSON", "Léa Morvan") in got


def test_a_form_field_under_the_letterhead_is_no_longer_the_organisations():
    text = ("Agence Lumière SAS – 6 quai Perrache, 69002 Lyon – 04 72 56 00 00\n"
            "Logement loué : 17 rue Tronchet, 69006 Lyon")
    got = detected(text, "fr", ("ADDRESS", "6 quai Perrache, 69002 Lyon"), ("ADDRESS", "17 rue Tronchet, 69006 Lyon"))
    assert got == [("ADDRESS", "17 rue Tronchet, 69006 Lyon")]


def test_a_title_line_may_come_before_the_organisations_name():
    text = "FICHE D'INSCRIPTION 2025\nLYCÉE MARIE-CURIE\n8 allée des Tilleuls, 35000 Rennes\nTél. 02 99 00 11 22"
    got = detected(text, "fr", ("ADDRESS", "8 allée des Tilleuls, 35000 Rennes"))
    assert got == []


def test_a_person_in_the_organisations_name_is_none_but_after_it_still_is():
    text = "COLLEGE ADA LOVELACE – Mark Ellison\n41 Nelson Street, Leeds LS2 7AB"
    got = detected(text, "en", ("PERSON", "ADA LOVELACE"), ("PERSON", "Mark Ellison"))
    assert ("PERSON", "ADA LOVELACE") not in got
    assert ("PERSON", "Mark Ellison") in got


def test_without_organisation_words_the_rule_finds_nothing():
    assert organisation_blocks("BANK OF NOWHERE\n1 Main St\nTel 555 0100", [], Lexicon()) == []


def test_a_malformed_word_list_is_refused():
    with pytest.raises(ValueError, match="words.organisation_words"):
        Lexicon.from_words({"organisation_words": "bank"})


def test_the_connectors_of_an_organisations_name_are_the_languages():
    text = "College of Ada Lovelace\n41 Nelson Street, Leeds LS2 7AB"
    assert ("PERSON", "Ada Lovelace") not in detected(text, "en", ("PERSON", "Ada Lovelace"))
    lexicon = RULES.lexicon
    without_of = replace(lexicon, organisation_connectors=lexicon.organisation_connectors - {"of"})
    found = organisation_blocks(text, spans_of(text, ("PERSON", "Ada Lovelace")), without_of)
    assert not any("PERSON" in z.labels for z in found)  # "of" no connector: the person is no part of the name


@pytest.mark.parametrize("text, name", [
    ("Ottilie is from Brackenfield Analytics LLC", "Ottilie"),      # a sentence, not a letterhead
    ("Brackenfield Analytics Ltd hired Ottilie", "Ottilie"),        # a word in lower case between them
])
def test_a_person_in_a_sentence_about_a_company_stays(text, name):
    assert ("PERSON", name) in detected(text, "en", ("PERSON", name))


def test_a_table_row_naming_a_company_is_no_letterhead():
    text = "name\temployer\tcity\nOrla Quennell\tTamsworth PLC\tLeeds\n"
    assert ("PERSON", "Orla Quennell") in detected(text, "en", ("PERSON", "Orla Quennell"))


def test_a_form_under_the_organisations_name_is_the_persons():
    text = "Halvard Insurance Ltd\nDate of birth: 03/04/1961\nAddress: 9 Kiln Lane, Derby DE1 3AA\n"
    got = detected(text, "en", ("ADDRESS", "9 Kiln Lane, Derby DE1 3AA"))
    assert ("ADDRESS", "9 Kiln Lane, Derby DE1 3AA") in got


TWO_COLUMNS = ("WESTGATE BUILDING SOCIETY                    Ottilie Brackenridge\n"
               "3 Harbour Row, Bristol BS1 4QA                 27 Tanners Walk, Bath BA2 1LZ\n"
               "Tel: 0113 496 7000                             Tel: 07700 900 218\n")


def test_two_columns_the_organisations_block_is_the_left_one_and_the_customers_stays():
    """A statement laid out by spaces: the society's block on the left, the customer's name, address
    and phone on the right of the same lines; only the left column is the organisation's."""
    got = detected(TWO_COLUMNS, "en", ("PERSON", "Ottilie Brackenridge"), ("ADDRESS", "3 Harbour Row, Bristol BS1 4QA"),
                   ("ADDRESS", "27 Tanners Walk, Bath BA2 1LZ"))
    assert ("PERSON", "Ottilie Brackenridge") in got
    assert ("ADDRESS", "27 Tanners Walk, Bath BA2 1LZ") in got and ("PHONE", "07700 900 218") in got
    assert ("ADDRESS", "3 Harbour Row, Bristol BS1 4QA") not in got and ("PHONE", "0113 496 7000") not in got


def test_a_wide_gap_inside_the_organisations_line_ends_its_name():
    text = "WESTGATE BUILDING SOCIETY      Statement of account\nTel: 0113 496 7000\n"
    assert detected(text, "en") == []  # still the society's switchboard
    assert organisation_blocks(text, [], RULES.lexicon)


@pytest.mark.parametrize("name", ["Ana Ruiz", "Léa de La Roche", "ANA RUIZ"])
def test_a_persons_name_over_their_address_ends_the_organisations_block(name):
    """The holder's own block right under the issuer's name, no blank line between, and no detector
    found the name: their address and phone are theirs, not the organisation's."""
    text = f"Dayton Tools LLC\n{name}\n9 Elm Court, Dayton OH 45402\nPhone: 937-555-0142\n"
    got = detected(text, "en", ("ADDRESS", "9 Elm Court, Dayton OH 45402"))
    assert ("PHONE", "937-555-0142") in got and ("ADDRESS", "9 Elm Court, Dayton OH 45402") in got


@pytest.mark.parametrize("line", ["Customer Services", "Head Office", "Unit 9, Wharf Street"])
def test_a_department_or_address_line_under_the_name_is_still_the_organisations(line):
    text = f"Corbel & Finch Haulage Ltd\n{line}\n15 Wharf Street, Hull HU1 2BN\nTel: 01482 496 000\n"
    assert detected(text, "en", ("ADDRESS", "15 Wharf Street, Hull HU1 2BN")) == []


# A titled person's own letterhead is their office (LABELS.md: a doctor's practice, a sole lawyer's office):
# its address is an ADDRESS even where the model, reading a letterhead, found none.
@pytest.mark.parametrize("text, lang, address", [
    ("Dr Maximino Castañeda\nGeneral Practitioner\n24 Matthew Part\nTel: 01632 960123\n\nDear Ms Roy,", "en",
     "24 Matthew Part"),
    ("Dr Jack Barber\nGeneral Practitioner\nP.O. Box 8268\nNorth Davidport, PW 68088\nTel: 01632 960123", "en",
     "P.O. Box 8268\nNorth Davidport, PW 68088"),
    ("Cabinet de M. Amadou Eto'o\nAvocat au barreau de Grenoble\n213 rue de Philippe, 44806 Gonzalez\n"
     "Ligne directe : 04 76 00 12 34", "fr", "213 rue de Philippe, 44806 Gonzalez"),
    ("Maître Léa Roux\n8 place Bellecour\n69002 Lyon\n\nMadame,", "fr", "8 place Bellecour\n69002 Lyon"),
])
def test_a_titled_persons_office_address_is_theirs(text, lang, address):
    name = text.split("\n")[0].split(" ", 1)[1].removeprefix("de M. ")
    assert ("ADDRESS", address) in detected(text, lang, ("PERSON", name))


@pytest.mark.parametrize("text, lang, name", [
    ("Dr Jean Martin\n12 patients vus ce matin.\nRAS", "fr", "Jean Martin"),      # no address under the name
    ("Bonjour Marie\n12 Rue de la Paix\n75002 Paris", "fr", "Marie"),            # a greeting is no office's title
    ("Dr Jean Martin\nGeneral Practitioner\nTel: 01632 960123\n24 Matthew Part", "en", "Jean Martin"),  # a contact first
])
def test_no_office_address_without_a_title_and_an_address_under_it(text, lang, name):
    assert [v for label, v in detected(text, lang, ("PERSON", name)) if label == "ADDRESS"] == []


@pytest.mark.parametrize("text, address, lang", [
    ("Le bail est géré par l'agence ATRIUM LOCATION, 9 rue des Tanneurs, 03100 Montluçon.",
     "9 rue des Tanneurs, 03100 Montluçon", "fr"),
    ("Your agent, Quayside Lettings (14 Mill Lane, Exeter EX2 4PQ), will call.", "14 Mill Lane, Exeter EX2 4PQ", "en"),
    ("Véhicule visible au Garage des Halles, 22 rue Gambetta, 86100 Châtellerault", "22 rue Gambetta, 86100 Châtellerault",
     "fr"),
])
def test_an_address_after_an_organisations_name_on_its_line_is_the_organisations(text, address, lang):
    assert ("ADDRESS", address) not in detected(text, lang, ("ADDRESS", address))


@pytest.mark.parametrize("text, address, lang", [
    ("Mme Léa Roux, 12 rue des Lilas, 75011 Paris, cliente de l'agence", "12 rue des Lilas, 75011 Paris", "fr"),
    ("Our tenant at the agency's flat: Ana Ruiz, 9 Elm Court, Leeds LS6 2AB", "9 Elm Court, Leeds LS6 2AB", "en"),
    ("L'agence a écrit.\nAdresse du locataire : 8 rue Haute, 31000 Toulouse", "8 rue Haute, 31000 Toulouse", "fr"),
    ("We live above the garage, 14 Oak Road, Leeds LS6 2AB", "14 Oak Road, Leeds LS6 2AB", "en"),  # no one's name
    ("J'habite à côté de la pharmacie, 3 rue Pasteur, 69007 Lyon", "3 rue Pasteur, 69007 Lyon", "fr"),
])
def test_a_persons_address_near_an_organisation_word_stays(text, address, lang):
    assert ("ADDRESS", address) in detected(text, lang, ("ADDRESS", address))


@pytest.mark.parametrize("text, phone, lang", [
    ("Le soir, appelez la Pharmacie du Port : 02 98 44 10 10.", "02 98 44 10 10", "fr"),
    ("Out of hours ring Hinton Medical Centre 0113 496 0123 first.", "0113 496 0123", "en"),
    ("École Jean-Macé, 5 rue Haute, 35000 Rennes – 02 99 44 20 20 – secrétariat", "02 99 44 20 20", "fr"),
    ("Hinton Primary School, Park Road, Leeds LS6 2AB · Tel 0113 496 0456", "0113 496 0456", "en"),
    # a firm of several people, a managing company, an administration's department, an association
    ("Our solicitors, Marsh Kettle & Associates, 0161 496 0577, have the papers.", "0161 496 0577", "en"),
    ("Ring the Ashdown Housing Trust, 0117 496 0142, for repairs.", "0117 496 0142", "en"),
    ("Contact : Association Les Amis du Rail, 02 47 66 10 20", "02 47 66 10 20", "fr"),
    # a practitioner's direct line earlier on the line is not the pharmacy's
    ("Dr Chabert, ligne directe 04 65 71 55 90. Pharmacie du Marché : 04 65 71 00 00.", "04 65 71 00 00", "fr"),
    # an organisation's own building, a place in its name: no home
    ("Hinton Lodge Hotel, 0113 496 0330", "0113 496 0330", "en"),
    ("Hale House Ltd, 3 Mill Lane, Leeds LS1 4AB · Tel 0113 496 0331", "0113 496 0331", "en"),
    ("Contact : Pharmacie du Vieux Port, 04 91 55 66 77", "04 91 55 66 77", "fr"),
])
def test_an_organisations_landline_after_its_name_or_address_on_its_line_is_the_organisations(text, phone, lang):
    assert ("PHONE", phone) not in detected(text, lang)


@pytest.mark.parametrize("text, phone, lang", [
    ("I work at Civic Ltd, 07700 900123 is my mobile.", "07700 900123", "en"),        # a mobile is a person's
    ("Julie, de l'agence Immo Centre, 06 41 52 63 74", "06 41 52 63 74", "fr"),
    ("My neighbour Anne Lowe, 0113 496 0789, has a key.", "0113 496 0789", "en"),     # no organisation's name
    ("Write to Hinton Surgery; my home number is 0113 496 0321.", "0113 496 0321", "en"),
    ("I live at 12 Hospital Road 0113 496 0789", "0113 496 0789", "en"),             # a street named after one
    ("14 School Lane, Leeds LS6 2AB, tel 0113 496 0654", "0113 496 0654", "en"),
    ("Jane Roe, Hinton Medical Centre, direct line 0113 496 0987", "0113 496 0987", "en"),
    ("You can reach me on my direct line at Hinton Medical Centre: 0113 496 0988", "0113 496 0988", "en"),
    ("Mme Morel, ligne directe, Clinique du Parc : 04 72 00 00 01", "04 72 00 00 01", "fr"),
    # a sole practitioner's office is where that person is found (LABELS.md); a group chat is no firm
    ("Cabinet de Maître Anne Vidal, 04 91 33 20 10", "04 91 33 20 10", "fr"),
    ("Running Group - Dan 0113 496 0275 leads on Sundays", "0113 496 0275", "en"),
    # a sole trader's business is where that person is found
    ("Service de Mme Dupont : 01 43 55 66 77", "01 43 55 66 77", "fr"),
    ("Dave Smith Plumbing Services, 0113 496 0321", "0113 496 0321", "en"),
    ("Jo Hart Property Management, 0113 496 0322", "0113 496 0322", "en"),
    # a home named after what its building was: an organisation's word beside a home's
    ("Old School House, 3 Mill Lane, Leeds LS1 4AB, tel 0113 496 0323", "0113 496 0323", "en"),
    ("The Old Bank, 3 Mill Lane, Leeds LS1 4AB (tel 0113 496 0324)", "0113 496 0324", "en"),
    ("Ancienne École, 3 chemin des Vignes, 84000 Avignon, 04 90 55 66 77", "04 90 55 66 77", "fr"),
    ("Old School House\n3 Mill Lane\nLeeds LS1 4AB\nTel: 0113 496 0325", "0113 496 0325", "en"),
    ("Bank Farm, 3 Mill Lane, Leeds LS1 4AB, tel 0113 496 0326", "0113 496 0326", "en"),
    ("School Cottages\n3 Mill Lane\nLeeds LS1 4AB\nTel: 0113 496 0327", "0113 496 0327", "en"),
    ("L'Ancienne École\n3 chemin des Vignes\n84000 Avignon\nTél. : 04 90 55 66 78", "04 90 55 66 78", "fr"),
    ("Ferme de la Banque, 3 chemin des Vignes, 84000 Avignon, 04 90 55 66 79", "04 90 55 66 79", "fr"),
    # a person's direct line after another number on the line stays theirs
    ("Jane Hale, direct lines: mobile 07700 900123, Hinton Medical Centre 0113 496 0002", "0113 496 0002", "en"),
    ("My direct line (ref 449 0211 876) at Hinton Medical Centre: 0113 496 0003", "0113 496 0003", "en"),
])
def test_a_phone_near_an_organisation_that_is_no_organisations_landline_stays(text, phone, lang):
    assert ("PHONE", phone) in detected(text, lang)


def test_a_number_without_a_phones_prefix_or_groups_after_an_organisations_name_stays():
    text = "12/11  PRLV SEPA MUTUELLE ARVOR ADH 0298441731"  # a member's number at the mutual, not written as a phone
    assert ("PHONE", "0298441731") in detected(text, "fr", ("PHONE", "0298441731"))
    short = "12/11  VIR Hinton Bank 4512 0098"  # valid as an Irish local number, but no trunk prefix: an account
    assert ("PHONE", "4512 0098") in detected(short, "en", ("PHONE", "4512 0098"))
    grouped = "12/11  PRLV SEPA MUTUELLE ARVOR ADH 02 98 44 17 31"
    assert ("PHONE", "02 98 44 17 31") not in detected(grouped, "fr", ("PHONE", "02 98 44 17 31"))


def test_a_number_in_another_column_than_the_organisations_name_stays():
    text = "D-0042   Jeanne Roy      Banque Ardoise      TJ Angers     02 41 88 10 10"  # a space-laid table's row
    assert ("PHONE", "02 41 88 10 10") in detected(text, "fr", ("PHONE", "02 41 88 10 10"))
