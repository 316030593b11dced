"""The fine lines of LABELS.md that the rules draw: codes, accounts, references, handles,
organisations' lines and addresses, dates that are no birth dates, identity numbers, log formats.

Every example is invented for these tests; rules only (no model).
"""

import pytest

from alias_engine import Engine
from alias_engine.detectors.rules import detect_with_rules
from alias_engine.spans import Span

ENGINE = Engine(use_model=False)


def found(text: str, lang: str = "en") -> list[tuple[str, str]]:
    return [(s.label, text[s.start:s.end]) for s in ENGINE.detect(text, lang)]


@pytest.mark.parametrize("text, lang, value", [
    ("The gate code is 7741 after 6pm.", "en", "7741"),
    ("Keypad code: 3092B", "en", "3092B"),
    ("your one-time code: 558213", "en", "558213"),
    ("backup codes: 6620-1947", "en", "6620-1947"),
    ("Digicode : 4B17", "fr", "4B17"),           # a keypad letter among four characters
    ("Digicode : B7", "fr", None),               # two characters: no code
    ("le digicode est 58204, porte gauche", "fr", "58204"),
    ("code du portail : 1390A", "fr", "1390A"),
    ("code SMS : 904411", "fr", "904411"),
    ("codes de secours : 4471-9023", "fr", "4471-9023"),
])
def test_door_gate_and_one_time_codes_are_secret(text, lang, value):
    secrets = [v for label, v in found(text, lang) if label == "SECRET"]
    assert secrets == ([value] if value else [])


@pytest.mark.parametrize("text, value", [
    ("APP_SIGNING_KEY=Zk4!pQ8-wR2m", "Zk4!pQ8-wR2m"),
    ("webhook secret: whs_81hG7kQ2pL", "whs_81hG7kQ2pL"),
    ("ENCRYPTION_KEY=base64:Tm90QVJlYWxLZXlKdXN0VGVzdA==", "Tm90QVJlYWxLZXlKdXN0VGVzdA=="),
])
def test_named_keys_are_secret(text, value):
    assert ("SECRET", value) in found(text)


@pytest.mark.parametrize("text, lang, value", [
    ("please debit acct 7730 1942 558", "en", "7730 1942 558"),
    ("Staff no. 40913, Ward 6", "en", "40913"),
    ("GMC number 7104482", "en", "7104482"),
    ("Crime reference number: 41/77120/24", "en", "41/77120/24"),
    ("Claim #: 2031-88-4410", "en", "2031-88-4410"),
    ("compte chèque n° 00412 55871 20", "fr", "00412 55871 20"),
    ("RPPS 10009912345", "fr", "10009912345"),
    ("Procès-verbal n° 02311/2025", "fr", "02311/2025"),
    ("votre numéro fiscal : 21 44 918 220 531", "fr", "21 44 918 220 531"),
    ('{"id": 7, "approved_by": "h.lindgren"}', "en", "h.lindgren"),
    ("assignee: okafor_c2", "en", "okafor_c2"),
    ("Consumer no. 110023847561 on the bill", "en", "110023847561"),
    ("your bond no. 3318 9021 is lodged", "en", "3318 9021"),
    ("Ward 3   IP No : IP/23/55102", "en", "IP/23/55102"),
    ("Checked by: R. Amadi (staff 61207)", "en", "61207"),
    ("my gas-fitting licence number is 77301, if the landlord asks", "en", "77301"),
    ("son identifiant CAF 5520913 pour le dossier", "fr", "5520913"),
    ("Licence n° 2021-44-009187, club de judo", "fr", "2021-44-009187"),
])
def test_accounts_registrations_and_case_references_are_identifiers(text, lang, value):
    assert ("IDENTIFIER", value) in found(text, lang)


@pytest.mark.parametrize("text", [
    "Reviewed by: Lt. M. Varga",      # a rank's dot is no login's
    '{"assignee": "team-platform"}',  # a team, no login
    "assignee: root",
])
def test_who_did_it_without_a_login_is_no_identifier(text):
    assert [v for label, v in found(text) if label == "IDENTIFIER"] == []


@pytest.mark.parametrize("text", [
    "the staff 2024 survey is out",          # a year, no staff number
    "staff 12.50 each, 3 shifts",
    "Holm & Sons Heating, LLC - License #HV11023",  # a firm's licence on its letterhead
])
def test_what_a_staff_or_licence_keyword_leaves(text):
    assert [v for label, v in found(text) if label == "IDENTIFIER"] == []


def test_a_driving_licence_number_stays_a_national_id():
    assert found("Driving licence number: KOVAC807116JK9WX") == [("NATIONAL_ID", "KOVAC807116JK9WX")]


def test_name_fields_in_the_columns_of_a_form():
    text = "Surname: VOSKUIJLEN    Middle: Ines\tNom : KOVAC\nStatus: active, middle: Tuesday"
    assert [v for label, v in found(text) if label == "PERSON"] == ["VOSKUIJLEN", "Ines", "KOVAC"]


def test_a_masked_account_is_no_value():
    assert found("Savings a/c XXXXXX4418 is frozen") == []


@pytest.mark.parametrize("text, handles", [
    ("[09:41] neo_rider22: anyone up?\n[09:42] Marc: yes", ["neo_rider22"]),
    ("[21:03:11] <k.ortiz>: done", ["k.ortiz"]),
    ("cc @tom.bakker for review", ["tom.bakker"]),
    ("  @param value the input", []),       # a doc tag
    ("write to lena@mail.example.org", []),  # an e-mail, not a handle
    ("[10:02] root: reboot", []),            # a system account
])
def test_chat_handles_and_mentions(text, handles):
    assert [v for label, v in found(text) if label == "IDENTIFIER"] == handles


def test_user_id_in_an_api_path():
    text = 'GET /api/v3/customers/583016/invoices 200'
    assert ("IDENTIFIER", "583016") in found(text)


@pytest.mark.parametrize("text, lang", [
    ("Pinewood Dental – 8 Mill Lane, Leeds LS2 7QT – 0113 496 0725 – www.pinewood-dental.example", "en"),
    ("Garage Morel · 41 avenue Foch · 01 43 22 90 18 · https://garage-morel.example", "fr"),
    ("Please call our front desk on 020 7946 0321.", "en"),
    ("Le secrétariat : 04 76 12 33 90", "fr"),
    ("Employer phone (payroll): 0161 496 0552", "en"),          # a qualifier between keyword and number
    ("Office: 0161 496 0552 (Corvell main line)", "en"),        # a qualifier before the keyword after it
    ("Standard (Lyon) : 04 72 90 11 00", "fr"),
])
def test_an_organisations_line_written_as_such_is_no_phone(text, lang):
    assert [label for label, _ in found(text, lang) if label == "PHONE"] == []


def test_a_personal_number_beside_an_organisations_line_stays():
    text = "my mobile 07700 900418 (personal), the switchboard is 0161 496 0552"
    assert [v for label, v in found(text) if label == "PHONE"] == ["07700 900418"]


def test_a_mobile_beside_a_website_is_still_a_persons():
    text = "Nina Ruiz – 06 71 40 22 95 – www.nina-ruiz-photo.example"
    assert ("PHONE", "06 71 40 22 95") in found(text, "fr")


def test_a_phone_in_a_table_row_with_a_url_is_still_a_persons():
    text = "Okoro Ada|https://ada-okoro.example/cv|+1 415 555 0199"
    assert ("PHONE", "+1 415 555 0199") in found(text)


@pytest.mark.parametrize("text, lang", [
    ("Married on 14 June 2008 in Cork.", "en"),
    ("Passport issued on 02/03/2019 by the Home Office", "en"),
    ("Mariés le 5 juin 1999 à Tours.", "fr"),
    ("conformément au décret du 12 mars 1971", "fr"),
])
def test_other_dates_near_a_keyword_are_no_birth_dates(text, lang):
    assert [label for label, _ in found(text, lang) if label == "BIRTH_DATE"] == []


def test_birth_date_still_found():
    assert ("BIRTH_DATE", "14/06/1988") in found("née le 14/06/1988 à Nantes", "fr")


def test_chinese_resident_id_with_its_check_digit():
    text = "Resident ID 11010519491231002X, expired"
    assert found(text) == [("NATIONAL_ID", "11010519491231002X")]


def test_french_residence_permit_number_is_a_national_id():
    assert ("NATIONAL_ID", "7502184411") in found("N° AGDREF : 7502184411", "fr")


@pytest.mark.parametrize("text", [
    "Mar  9 04:12:55 web-02 postfix/qmgr[880]: 7Hq2Lm9Kx1Pz: from=<a@b.example>",
    "2025-03-01 10:00:00.123  INFO 1 --- [pool-4-thread-2] c.e.Job : done",
    'ua="Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.6099.71"',
    "ports:\n  - 8443:443",
])
def test_log_formats_hold_no_personal_data(text):
    assert [(label, v) for label, v in found(text) if label != "EMAIL"] == []


@pytest.mark.parametrize("text, value", [
    ("PAN: BRTPK5521Q", "BRTPK5521Q"),
    ("Aadhaar no. 4410 2287 9051", "4410 2287 9051"),
])
def test_indian_identity_numbers(text, value):
    assert ("NATIONAL_ID", value) in found(text)


def test_a_cards_pan_is_still_a_card():
    assert ("CREDIT_CARD", "4111 1111 1111 1111") in found("PAN 4111 1111 1111 1111")


@pytest.mark.parametrize("text", [
    "Booking ref: XK7P2Q for two nights",
    "PO number: PO-55123",
    "n° de réservation 88412-B",
])
def test_booking_and_order_references_are_no_identifiers(text):
    assert [label for label, _ in found(text, "en") if label == "IDENTIFIER"] == []


@pytest.mark.parametrize("text", ["sudo: USER=root ; COMMAND=/bin/ls", "login=admin failed", "POST /login 403 from x"])
def test_system_accounts_and_status_codes_are_no_logins(text):
    assert [label for label, _ in found(text) if label == "IDENTIFIER"] == []


def test_a_surname_that_is_a_car_make_stays_a_name():
    text = "RENAULT Odile, born 1960"
    model = [Span(0, 13, "PERSON", 0.9, "model")]
    spans = detect_with_rules(text, "en", ENGINE.rules, model)
    assert ("PERSON", "RENAULT Odile") in [(s.label, text[s.start:s.end]) for s in spans]


def test_a_car_model_is_no_identifier():
    text = "drives a Peugeot 2008 since May"
    model = [Span(9, 20, "IDENTIFIER", 0.9, "model")]
    assert [s for s in detect_with_rules(text, "en", ENGINE.rules, model) if s.label == "IDENTIFIER"] == []


@pytest.mark.parametrize("text, secret", [
    ("mon ancien mot de passe (Noisette42#) ne marche plus", "Noisette42#"),
    ("rotate the password (currently in the vault)", None),
    ("auth failed reason=bad_password retries=2", None),
])
def test_password_in_brackets_and_log_words(text, secret):
    assert [v for label, v in found(text, "fr") if label == "SECRET"] == ([secret] if secret else [])


@pytest.mark.parametrize("text, lang, secret", [
    ("Temporary password issued: Harbor!Nine41 (change it)", "en", "Harbor!Nine41"),
    ("mot de passe provisoire envoyé : Vx3#lorqa", "fr", "Vx3#lorqa"),
    ("Password (initial): Qe71mz!w", "en", "Qe71mz!w"),
    ("the password is QWmplRtz. Thanks", "en", "QWmplRtz"),          # a capital after a small letter
    ("Password reset link: https://accounts.example.com/r?t=9f3k2", "en", None),   # a URL, no password
    ("password policy: minimum twelve characters", "en", None),    # the colon is no symbol of a value
    ("the stored hash, not the password itself.", "en", None),
])
def test_password_after_words_and_what_is_none(text, lang, secret):
    assert [v for label, v in found(text, lang) if label == "SECRET"] == ([secret] if secret else [])


def test_a_working_directory_is_no_password_and_names_its_user():
    text = "sudo: kdiallo : TTY=pts/2 ; PWD=/home/kdiallo ; USER=root ; COMMAND=/bin/true"
    got = found(text)
    assert not [v for label, v in got if label == "SECRET"]
    assert ("IDENTIFIER", "kdiallo") in got and ("IDENTIFIER", "root") not in got


@pytest.mark.parametrize("text, lang, value", [
    ("frequent flyer number QF 4410 8820 19", "en", "QF 4410 8820 19"),
    ("  POSTGRES_USER: ledger_owner", "en", "ledger_owner"),
    ("PRLV SEPA ICS FR12ZZZ123456 RUM 0031-882-4410", "fr", "0031-882-4410"),
    ("(SRA ID 771032)", "en", "771032"),
])
def test_more_identifiers(text, lang, value):
    assert ("IDENTIFIER", value) in found(text, lang)


def test_sepa_creditor_id_is_no_iban_or_identifier():
    text = "PRLV SEPA ICS FR12ZZZ123456 RUM 0031-882-4410"
    assert [v for label, v in found(text, "fr") if "ZZZ" in v] == []


@pytest.mark.parametrize("text, address", [
    ("Garage Morel\n8 rue des Forges – 44000 Nantes – www.garage-morel.example", "8 rue des Forges – 44000 Nantes"),
    ("Atelier Roux SARL, 4 place de la Halle, 71100 Chalon-sur-Saône – SIRET 732 829 320 00074", "4 place de la Halle, 71100 Chalon-sur-Saône"),
])
def test_letterhead_address_is_suppressed(text, address):
    start = text.index(address)
    model = [Span(start, start + len(address), "ADDRESS", 0.9, "model")]
    spans = detect_with_rules(text, "fr", ENGINE.rules, model)
    assert [s for s in spans if s.label == "ADDRESS"] == []


def test_a_persons_address_beside_a_website_in_prose_is_kept():
    text = "Send it to 12 Birch Lane, Leeds LS6 2AB. My shop is www.birch-crafts.example"
    model = [Span(11, 39, "ADDRESS", 0.9, "model")]
    spans = detect_with_rules(text, "en", ENGINE.rules, model)
    assert [text[s.start:s.end] for s in spans if s.label == "ADDRESS"] == ["12 Birch Lane, Leeds LS6 2AB"]


@pytest.mark.parametrize("text, url", [
    ("Les photos : https://cloud.example-asso.org/s/Ab12Cd34Ef56Gh (7 jours)", "https://cloud.example-asso.org/s/Ab12Cd34Ef56Gh"),
    ("PORTFOLIO: https://jdoe.example/work", "https://jdoe.example/work"),
    ("see https://forms.example.org/q/1234?acces=Zm9vYmFyYmF6MTIzNDU2 today", "https://forms.example.org/q/1234?acces=Zm9vYmFyYmF6MTIzNDU2"),
    ("vos résultats : https://labo.example.fr/r/7QK2M9XW4T (code x)", "https://labo.example.fr/r/7QK2M9XW4T"),  # a token after a share word
    ("https://files.example.com/share/8QmZ2vT4kX9pLw7R", "https://files.example.com/share/8QmZ2vT4kX9pLw7R"),
    ("upload here: https://claims.example.co.uk/upload/CLM-25-0712836?k=9RbWm4Yt2QcZ .", "https://claims.example.co.uk/upload/CLM-25-0712836?k=9RbWm4Yt2QcZ"),
])
def test_share_links_tokens_and_portfolios_are_urls(text, url):
    assert ("URL", url) in found(text)


@pytest.mark.parametrize("text", [
    "docs at https://tools.example.org/guide/install?lang=en",
    "https://shop.example.fr/download/product-123456",   # a product's slug, no token
    "https://news.example.fr/r/2024",                     # no letter: a year
    "https://www.youtube.com/watch?v=dQw4w9WgXcQ",        # a public video
])
def test_a_plain_page_is_no_url(text):
    assert found(text) == []


@pytest.mark.parametrize("text, names", [
    ("Nom : KONE\nPrénom(s) : Aya Mariam", ["KONE", "Aya Mariam"]),
    ("SURNAME: MCBRIDE        FORENAME(S): EILIDH", ["MCBRIDE", "EILIDH"]),  # a form's column
    ("ref;nom;prenom;ville\n7;LEROUX;Solène;Brest\n8;VAN DER BERG;Joris;Lille", ["LEROUX", "Solène", "VAN DER BERG", "Joris"]),
    ("Nom : M. Girard", []),              # a title is not the name: left to the model
    ("The last name: required field", []),  # not at the start of a line
])
def test_name_fields_and_name_columns(text, names):
    assert [v for label, v in found(text, "fr") if label == "PERSON"] == names


@pytest.mark.parametrize("text, names", [
    ("Madame LEBRUN Claire née MOREL, née le 2 mai 1950", ["LEBRUN Claire", "MOREL"]),
    ("reported to Det. Ana Kovac on Monday", ["Ana Kovac"]),
    ("signed by Dr. Eoin Walsh, GP", ["Eoin Walsh"]),
    ("cc Cllr P. Dunne. Then", ["P. Dunne"]),
])
def test_a_name_after_a_title_where_the_model_found_none(text, names):
    assert [v for label, v in found(text) if label == "PERSON"] == names


def test_the_models_name_after_a_title_wins():
    text = "Dr Anna Berg Lund came"
    model = [Span(3, 17, "PERSON", 0.9, "model")]
    spans = detect_with_rules(text, "en", ENGINE.rules, model)
    assert [(s.source, text[s.start:s.end]) for s in spans if s.label == "PERSON"] == [("model", "Anna Berg Lund")]


def test_a_date_and_time_after_a_phone_keyword_is_no_phone():
    assert found("Support Mobile – 02/04/2025 18:40 ok") == []


def test_an_account_number_in_groups_is_whole():
    assert ("IDENTIFIER", "410 552 7781") in found("paid into account 410 552 7781 yesterday")


@pytest.mark.parametrize("text, logins", [
    ('  - run: ssh -o StrictHostKeyChecking=no mlopez@10.4.0.12 "cd /srv"', ["mlopez"]),
    ("scp dump.sql jo_b@203.0.113.9:/tmp", ["jo_b"]),
    ("ssh root@10.0.0.1", []),                      # a system account
    ("write to ana@example.org", []),               # an e-mail
    ('      - run: docker login -u kw_ortiz -p "$REGISTRY_PASS"', ["kw_ortiz"]),
    ("mysql -h db.internal -u k_ortiz -p", ["k_ortiz"]),
    ("psql -U jbloggs billing", ["jbloggs"]),
    ("git push -u origin main", []),                # not a login option
    ("pip install -U requests", []),
    ('bind_dn: "cn=svc-facturation,ou=services,dc=corp,dc=local"', ["svc-facturation"]),
    ("uid=k.ortiz,ou=people,dc=corp", ["k.ortiz"]),
    ("cn=admin,dc=example,dc=org", []),             # the directory's administrator
    ("mysql -h db.internal -u svc_compta_sync -p", ["svc_compta_sync"]),   # a service's own account is a login
    ("mysql -h db.internal -u svc -p", []),          # a generic one is no one's
])
def test_logins_in_commands_and_directory_entries(text, logins):
    assert [v for label, v in found(text) if label == "IDENTIFIER"] == logins


@pytest.mark.parametrize("text, lang, values", [
    ("codes de secours encore valides : 6620-1947, 3381-0472. Merci", "fr", ["6620-1947", "3381-0472"]),
    ("backup codes (still valid): 6620-1947 and 3381-0472", "en", ["6620-1947", "3381-0472"]),
    ("code de secours : 1234 / 5678 / 9012", "fr", ["1234", "5678", "9012"]),
    ("le code reçu par SMS (558213) et", "fr", ["558213"]),
    ("avec les codes à trois chiffres (418 et 207).", "fr", ["418", "207"]),
    ("gate code: 4512B, alarm on the left", "en", ["4512B"]),     # the list stops at a word
    ("CVV 123, 4111 1111 1111 1111", "en", ["123"]),               # a card's code is never a list
])
def test_codes_written_as_a_list_after_one_keyword(text, lang, values):
    assert [v for label, v in found(text, lang) if label == "SECRET"] == values


@pytest.mark.parametrize("text, lang, names", [
    ("Conseillère (Noémie) : Bien reçu, votre nouvelle carte est en route.", "fr", ["Noémie"]),
    ("Réponse de l'agent N2 (Yanis) – 10/01/2025 09:12 :", "fr", ["Yanis"]),
    ("--- Message 2 (Kofi to Ada) ---", "en", ["Kofi"]),
    ("conseiller (UNKNOWN)", "fr", []),                 # no given name
    ("the message (Draft) was sent", "en", []),          # no role
])
def test_a_given_name_in_parentheses_after_a_role(text, lang, names):
    assert [v for label, v in found(text, lang) if label == "PERSON"] == names


@pytest.mark.parametrize("text", [
    "Driving licence no: MORGA657054SM9IJ",
    "Driver's license number: D1234567",
])
def test_a_driving_licence_number_is_a_national_id(text):
    assert [label for label, _ in found(text)] == ["NATIONAL_ID"]


@pytest.mark.parametrize("text, number, name", [
    ("OFFICER: PC 5519 R. TREGARTHEN, LEEDS NORTH", "5519", "R. TREGARTHEN"),
    ("OIC: DC 2210 MORLEY", "2210", "MORLEY"),
    ("PC 3301 DE LA CRUZ on duty", "3301", "DE LA CRUZ"),
    ("my PC 2000 Windows box", None, None),            # a computer: no name in capitals after the number
])
def test_a_rank_collar_number_and_a_name_in_capitals(text, number, name):
    got = found(text)
    assert [v for label, v in got if label == "IDENTIFIER"] == ([number] if number else [])
    assert [v for label, v in got if label == "PERSON"] == ([name] if name else [])


@pytest.mark.parametrize("text, lang, value", [
    ("- CIN : KA 402 771 (valable jusqu'en 2031)", "fr", "KA 402 771"),     # a Moroccan identity card
    ("n° CIN : X339021", "fr", "X339021"),
    ("Passport: AB 123 456", "en", "AB 123 456"),
])
def test_identity_cards_with_letters_and_digit_groups(text, lang, value):
    assert ("NATIONAL_ID", value) in found(text, lang)



@pytest.mark.parametrize("text, badge", [
    ("Officer: Sgt. Lena Ortiz #4410", "4410"),
    ("Deputy R. Vance #318 took the report", "318"),
    ("Sgt. Pepper #1 album", None),                     # one digit: a rank, no badge
])
def test_an_officers_badge_number_after_the_name(text, badge):
    assert [v for label, v in found(text) if label == "IDENTIFIER"] == ([badge] if badge else [])


@pytest.mark.parametrize("text, address", [
    ("Pour la ferme de Kerlann, 29860 Plabennec, l'estimation suit.", "Kerlann, 29860 Plabennec"),
    ("Adresse : lieu-dit Le Haut-Crann, 56400 Plumergat", "Le Haut-Crann, 56400 Plumergat"),
])
def test_french_addresses_without_a_street_number_first(text, address):
    assert ("ADDRESS", address) in found(text, "fr")


@pytest.mark.parametrize("text", [
    "Fait à Rennes, 35000 Rennes",           # a town twice: no address
    "Mme Claire Roussel, 29767 Brest",       # a person's name, not a hamlet
    "12 rue Jean Jaurès, 31000 Toulouse",    # the end of a street's name (the model's address)
    "The address of Incadence, 08428 Plouay",
    "Total, 12345 euros",
])
def test_what_the_french_place_patterns_leave(text):
    assert [v for label, v in found(text, "fr") if label == "ADDRESS"] == []


@pytest.mark.parametrize("text, address", [
    ("Docteur Anne Roué\nMédecin généraliste – secteur 1\nCabinet médical du Port\n4 quai Rimbaud\n29900 Concarneau\n"
     "Tél. : 02 98 97 11 22", "Cabinet médical du Port\n4 quai Rimbaud\n29900 Concarneau"),
    ("Dr Tom Hale\nGeneral Practitioner\nThe Elms Surgery\n12 Mill Lane\nLeeds LS2 7QT\n",
     "The Elms Surgery\n12 Mill Lane\nLeeds LS2 7QT"),
    ("Maître Yves Le Goff\nAvocat au barreau de Brest\n12 rue de Siam\n29200 Brest", "12 rue de Siam\n29200 Brest"),
])
def test_a_self_employed_practitioners_address_is_personal(text, address):
    assert ("ADDRESS", address) in found(text, "fr")


def test_a_doctor_under_a_hospitals_name_gives_the_hospitals_address():
    text = "Dr Paul Lenoir\nService de cardiologie\nHôpital Saint-Roch\n12 rue de la Paix\n06000 Nice"
    assert [v for label, v in found(text, "fr") if label == "ADDRESS"] == []


def test_a_connection_strings_user_is_an_identifier_even_an_apps():
    """LABELS.md: "postgres://app:PASSWORD@host: the password is SECRET, the user name is IDENTIFIER"."""
    assert found("DATABASE_URL=postgres://app:Vb8#kq2LmT@db.internal:5432/billing") == [
        ("IDENTIFIER", "app"), ("SECRET", "Vb8#kq2LmT")]
