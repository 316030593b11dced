"""The model's spans against their label's format (resolve/format_checks.py, resolve/span_repair.py) and the rules' suppressions.

Every example is invented for these tests.
"""

import pytest

from alias_engine.detectors.rules import detect_with_rules, load_rules
from alias_engine.merge import merge_spans
from alias_engine.resolve import check_model_spans
from alias_engine.resources import data_dir
from alias_engine.spans import Span

RULES = load_rules(data_dir("rules"))


def model_span(text: str, value: str, label: str, occurrence: int = 0) -> Span:
    start = -1
    for _ in range(occurrence + 1):
        start = text.index(value, start + 1)
    return Span(start, start + len(value), label, 0.9, "model")


def checked(text: str, value: str, label: str) -> list[tuple[str, str]]:
    spans = check_model_spans([model_span(text, value, label)], text, RULES.model_checks)
    return [(s.label, text[s.start:s.end]) for s in spans]


@pytest.mark.parametrize("text, value", [
    ("build agent Opera/117.0.5938.132 on Linux", "117.0.5938.132"),   # a part above 255
    ("Firefox/109.0 (X11)", "109.0"),
    ("ports: 5000:5000", "5000:5000"),
])
def test_model_ip_that_is_no_address_is_dropped(text, value):
    assert checked(text, value, "IP_ADDRESS") == []


@pytest.mark.parametrize("value", ["172.30.9.14", "2001:db8:4:1::2"])
def test_model_ip_that_parses_is_kept(value):
    text = f"login from {value} at noon"
    assert checked(text, value, "IP_ADDRESS") == [("IP_ADDRESS", value)]


def test_model_card_keeps_the_number_and_not_what_follows():
    text = "paid with 5190 7731 0452 8816 11/29 447 yesterday"
    assert checked(text, "5190 7731 0452 8816 11/29 447", "CREDIT_CARD") == [
        ("CREDIT_CARD", "5190 7731 0452 8816"), ("IDENTIFIER", "11/29 447")]
    # the model took the expiry's month: the card stops before it, Luhn or not
    assert checked(text, "5190 7731 0452 8816 11", "CREDIT_CARD") == [("CREDIT_CARD", "5190 7731 0452 8816")]
    assert checked(text.replace("8816", "8817"), "5190 7731 0452 8817 11", "CREDIT_CARD") == [
        ("CREDIT_CARD", "5190 7731 0452 8817")]


def test_model_card_too_short_stays_masked_as_phone_or_identifier():
    text = "call 0687 41 22 93 now"
    assert checked(text, "0687 41 22 93", "CREDIT_CARD") == [("PHONE", "0687 41 22 93")]
    text = "ref 7719 2204 3381 here"
    assert checked(text, "7719 2204 3381", "CREDIT_CARD") == [("IDENTIFIER", "7719 2204 3381")]


@pytest.mark.parametrize("text, value, expected", [
    ("post to: Flat 3, 41 Ormond Parkway, Hitchin SG5 1QT, 07700 900263, thanks",
     "Flat 3, 41 Ormond Parkway, Hitchin SG5 1QT, 07700 900263",
     [("ADDRESS", "Flat 3, 41 Ormond Parkway, Hitchin SG5 1QT"), ("PHONE", "07700 900263")]),
    ("chez elle : 9 impasse des Rouges-Gorges, 29200 Brest – 06 71 08 44 93",
     "9 impasse des Rouges-Gorges, 29200 Brest – 06 71 08 44 93",
     [("ADDRESS", "9 impasse des Rouges-Gorges, 29200 Brest"), ("PHONE", "06 71 08 44 93")]),
])
def test_a_phone_after_an_address_is_none_of_it(text, value, expected):
    assert checked(text, value, "ADDRESS") == expected


@pytest.mark.parametrize("text, value, kept", [
    ("can i use ur card for the pizza, mine's blocked", "pizza", False),     # a noun after its article
    ("elle a goûté ma tarte hier", "tarte", False),
    ("Assistant virtuel : je peux vous aider", "virtuel", True),   # no article: kept, a false name, as "harmony" must be
    ("she said that harmony would drive", "harmony", True),        # "that" is a conjunction here, no determiner
    ("il y a mélodie qui arrive", "mélodie", True),                # "a" is the verb
    ("ok so harmony is driving tonight", "harmony", True),
    ("i told piper to bring the cake", "piper", True),
    ("ask Pizza about it", "Pizza", True),            # capitalised: the words capitalised by position decide
])
def test_a_noun_in_lower_case_after_its_article_is_no_name(text, value, kept):
    assert checked(text, value, "PERSON") == ([("PERSON", value)] if kept else [])


@pytest.mark.parametrize("text, value, expected", [
    ("INE de l'élève : 081245377QF", "081245377QF", [("IDENTIFIER", "081245377QF")]),   # a school's number
    ("Passeport n° 21AB34567", "21AB34567", [("NATIONAL_ID", "21AB34567")]),
])
def test_a_students_ine_is_no_national_id(text, value, expected):
    assert checked(text, value, "NATIONAL_ID") == expected


@pytest.mark.parametrize("text, value, kept", [
    ("Je me déplace mal, ma Dacia Sandero est au garage.", "Dacia Sandero", False),   # a brand and its model
    ("votre conseillère LCL Coline Ferrat vous rappellera", "LCL Coline Ferrat", True),  # the adviser, whole
    ("Apple Martin signed the form", "Apple Martin", True),                            # a brand may be a first name
])
def test_a_brand_and_its_model_is_no_name_but_a_brand_before_a_name_stays(text, value, kept):
    assert checked(text, value, "PERSON") == ([("PERSON", value)] if kept else [])


def test_model_iban_shape():
    text = "IBAN DE44 5001 0517 5407 3249 31 and member MUT 4471920"
    assert checked(text, "DE44 5001 0517 5407 3249 31", "IBAN") == [("IBAN", "DE44 5001 0517 5407 3249 31")]
    assert checked(text, "MUT 4471920", "IBAN") == [("IDENTIFIER", "4471920")]
    text = "Creditor ID DE98ZZZ09999999999"
    assert checked(text, "DE98ZZZ09999999999", "IBAN") == []


@pytest.mark.parametrize("text, value", [
    ("card valid thru 03/31", "03/31"),
    ("aged 30-45, tall", "30-45"),
])
def test_model_birth_date_needs_a_date(text, value):
    assert checked(text, value, "BIRTH_DATE") == []


def test_model_birth_date_kept():
    text = "born 4 avril 1968 in Lyon"
    assert checked(text, "4 avril 1968", "BIRTH_DATE") == [("BIRTH_DATE", "4 avril 1968")]


@pytest.mark.parametrize("text, value", [
    ('hash: "$2b$12$abcdefghijklmnopqrstuuJ8yN1rT0pWqZ3xE5vB7cD9fG1hK3mL5"',
     "$2b$12$abcdefghijklmnopqrstuuJ8yN1rT0pWqZ3xE5vB7cD9fG1hK3mL5"),
    ('"pw": "$argon2id$v=19$m=4096,t=2,p=1$c2FsdHNhbHQ$aGFzaGhhc2g"', "t=2"),
    ("Accepted publickey for x: ED25519 SHA256:Zm9vYmFyYmF6cXV4cXV1eHF1dXpxdXV6", "Zm9vYmFyYmF6cXV4cXV1eHF1dXpxdXV6"),
    ("API_TOKEN=PUT_YOUR_TOKEN_HERE", "PUT_YOUR_TOKEN_HERE"),
    ("raised ValueOutOfRangeError in parser", "ValueOutOfRangeError"),
    ("retries=5 then gave up", "retries=5"),
    # references to a secret kept elsewhere, a public key, a masked value
    ('    password: "{{ vault_metabase_password }}"', "vault_metabase_password"),
    ("ADMIN_PASSWORD: ${NC_ADMIN_PASSWORD:?à définir}", "${NC_ADMIN_PASSWORD:?à"),
    ('DB_PASS = os.getenv("DB_PASS")', "os.getenv("),
    ("ssh_key: ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIHq7ZpL2vR9wX4mK8tN1cB6yE3dF0sJ5gA7hU2oP9iQ4 anne@laptop",
     "AAAAC3NzaC1lZDI1NTE5AAAAIHq7ZpL2vR9wX4mK8tN1cB6yE3dF0sJ5gA7hU2oP9iQ4"),
    ("ssn_masked=***-**-3386", "***-**-3386"),
    ('"request": {"id": "req_Zt4mQ8xP2vLk9a"}', "req_Zt4mQ8xP2vLk9a"),
    # an inline data URI's payload (an image, a file) and its "base64" word
    ('<img src="data:image/gif;base64,R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7">',
     "R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7"),
    ('logo = "data:image/png;base64,iVBORw0KGgo="', "base64"),
])
def test_model_secret_that_is_no_credential_is_dropped(text, value):
    assert checked(text, value, "SECRET") == []


@pytest.mark.parametrize("value", ["qWpZtRbNmKjHgYx", "Tr4in!ng-2031", "mKqzTvWxPbRl", "s3cr3t(pass", "Summer.2024!",
                                   "base64:Q2xHcFZ0NnhMd3E0bVozUjhr"])   # a framework's key, written base64 and a colon
def test_model_secret_kept(value):
    text = f"the key is {value} ok"
    assert checked(text, value, "SECRET") == [("SECRET", value)]


@pytest.mark.parametrize("text, value, kept", [
    ("le réseau c'est Box-4F2A, mdp Vent2Sable!", "Box-4F2A", False),
    ("the wifi is called HomeNet-58C1 and the password is on the fridge", "HomeNet-58C1", False),
    ("wifi : Maison_5G2 / pass Vent2Sable!", "Maison_5G2", False),
    ("network KX-Hub9-T2, pw Vent2Sable!", "KX-Hub9-T2", False),
    # the password itself, after its own word, or one of a line that names the network
    ("le réseau c'est Box-4F2A, mdp Vent2Sable!", "Vent2Sable!", True),
    ("mot de passe du réseau : Vent2Sable!", "Vent2Sable!", True),
    ("wifi password: Vent2Sable!", "Vent2Sable!", True),
    ("password for the home network: Vent2Sable!", "Vent2Sable!", True),
    ("WPA key of the network is Vent2Sable!", "Vent2Sable!", True),
    ("wifi : Vent2Sable! (mot de passe)", "Vent2Sable!", True),                  # the word after it labels it
])
def test_a_wifi_networks_name_is_no_secret(text, value, kept):
    assert checked(text, value, "SECRET") == ([("SECRET", value)] if kept else [])


def test_model_person_cut_at_line_breaks_and_columns_and_without_titles():
    text = "HOLMWOOD\nHelga Brandt\nSgt Ulrich Maier       K. Lindqvist"
    spans = [Span(0, text.index("Helga Brandt") + len("Helga Brandt"), "PERSON", 0.9, "model"),
             model_span(text, "Sgt Ulrich Maier       K. Lindqvist", "PERSON")]
    got = [text[s.start:s.end] for s in check_model_spans(spans, text, RULES.model_checks)]
    assert got == ["HOLMWOOD", "Helga Brandt", "Ulrich Maier", "K. Lindqvist"]


def test_model_person_single_letter_dropped():
    text = "Reply Y or N"
    assert checked(text, "Y", "PERSON") == []


def test_model_spans_go_through_the_rules_suppressions():
    text = ("Feb  9 11:20:31 gw-07 sshd[4410]: Accepted key\n"
            "UA: Mozilla/5.0 (Linux; Android 13; XT-2201) AppleWebKit/537.36 (KHTML, like Gecko) "
            "Chrome/118.0.5993.80 Mobile Safari/537.36\n"
            "SIRET 732 829 320 00074, tel 01 53 00 00 00\n"
            "Mandate: creditor FR72ZZZ654321")
    model = [model_span(text, "gw-07", "IDENTIFIER"), model_span(text, "XT-2201", "IDENTIFIER"),
             model_span(text, "Gecko", "PERSON"), model_span(text, "FR72ZZZ654321", "NATIONAL_ID")]
    spans = detect_with_rules(text, "en", RULES, model)
    assert not [s for s in spans if s.source == "model"]


def test_model_span_inside_a_rule_url_is_part_of_it():
    text = "Reset: https://drive.google.com/file/d/1AbCdEfGhIjK/view?usp=sharing done"
    model = [model_span(text, "1AbCdEfGhIjK", "SECRET")]
    spans = detect_with_rules(text, "en", RULES, model)
    assert [(s.label, text[s.start:s.end]) for s in spans] == [
        ("URL", "https://drive.google.com/file/d/1AbCdEfGhIjK/view?usp=sharing")]


@pytest.mark.parametrize("text, value", [
    ("--- a/src/util.py\n+++ b/src/util.py", "a/src/util.py"),                   # a file path in a diff
    ("MAIL_HOST=smtp.fastmail-relay.example", "smtp.fastmail-relay.example"),    # a mail server
    ("see https://docs.python.org/3/library/re.html", "https://docs.python.org/3/library/re.html"),
    ("guide: https://help.acme-tools.example/kb/42", "https://help.acme-tools.example/kb/42"),
    ("INFO [exec-7] f.l.commande.Service : ok", "f.l.commande.Service"),       # a logger's name, no host
    ("postfix/smtpd[42]: client=box.isp-mail.fr[203.0.113.9]", "box.isp-mail.fr"),  # a bare host: a server
    ("TRUSTED_DOMAINS: cloud.atelier-dupin.fr", "cloud.atelier-dupin.fr"),
])
def test_model_url_that_points_at_no_one_is_dropped(text, value):
    assert checked(text, value, "URL") == []


@pytest.mark.parametrize("value", [
    "https://lea-moreau.example/portfolio", "www.jkowalski.example", "https://api.acme.example/users/jdoe",
    "jdupont.github.io", "lea-moreau.fr/cv",
])
def test_model_url_kept(value):
    text = f"see {value} for details"
    assert checked(text, value, "URL") == [("URL", value)]


@pytest.mark.parametrize("value", ["KYC", "thx", "QR7", "FORM9"[:4]])
def test_model_identifier_that_is_a_short_code_is_dropped(value):
    text = f"see {value} above"
    assert checked(text, value, "IDENTIFIER") == []


@pytest.mark.parametrize("text, value, kept", [
    ("anyone want anything from tesco? i'm out", "tesco", False),        # a brand in lower case: a shop
    ("ok so revolut is down again", "revolut", False),
    ("login: tesco42", "tesco42", True),                                 # a login with the brand's word
    ("user Tesco_ops", "Tesco_ops", True),
])
def test_model_identifier_that_is_a_brand_in_lower_case_is_dropped(text, value, kept):
    assert checked(text, value, "IDENTIFIER") == ([("IDENTIFIER", value)] if kept else [])


@pytest.mark.parametrize("text, value, label", [
    ("I gave him my memorable word, Riverbank1972, and the passcode", "Riverbank1972", "SECRET"),
    ("the guest wifi has no password; the office one is latte4team.", "latte4team", "SECRET"),
    ("mdp serveur ChevalierNoir (pas sur twitch)", "ChevalierNoir", "SECRET"),
    # the last credential word before the code names a login or a number: the model's label stays
    ("password reset for user jdoe1984 done", "jdoe1984", "IDENTIFIER"),
    ("sshd[4120]: Accepted password for k.obi from 10.0.0.7", "k.obi", "IDENTIFIER"),  # whose password
    ("dovecot: auth: passwd-file(m.roux,10.0.0.7): unknown user", "m.roux", "IDENTIFIER"),
    ("Password reset requested by jdoe1984", "jdoe1984", "IDENTIFIER"),
    ("Sent the PIN letter to patient T0571386 today", "T0571386", "IDENTIFIER"),
    ("pin the post on slack and ping jdoe1984", "jdoe1984", "IDENTIFIER"),     # the verb, not a PIN
    ("mdp oublié par jdupont75", "jdupont75", "IDENTIFIER"),
    ("not the password itself. My handle on the forum is qwlmzt", "qwlmzt", "IDENTIFIER"),   # another sentence
    ("sudo: TTY=pts/3 ; PWD=/home/k.obi ; USER=root", "k.obi", "IDENTIFIER"),   # a working directory
    ("PIN sent; customer number CN-44812", "CN-44812", "IDENTIFIER"),
    ("my password is in the drawer.\nlogin kmartin77", "kmartin77", "IDENTIFIER"),   # another line
])
def test_model_identifier_after_a_secret_word_is_a_secret(text, value, label):
    assert checked(text, value, "IDENTIFIER") == [(label, value)]


@pytest.mark.parametrize("text, value, label", [
    ("the shared login is dana.k88@gmail.com / lemon-drizzle-44 dont share", "lemon-drizzle-44", "SECRET"),
    ("router still admin / Pa55word-home1, change it", "Pa55word-home1", "SECRET"),
    ("compte de recette : j.morel / Recette#2025", "Recette#2025", "SECRET"),
    # what follows is no password: a staff number, a second login, a path's part, a short code
    ("nas login: jdupont / EMP-4471", "EMP-4471", "IDENTIFIER"),
    ("ana@mail.fr / anadupont", "anadupont", "IDENTIFIER"),
    ("see docs/ref/v2 / build-2024x", "build-2024x", "IDENTIFIER"),
    ("admin / ab12", "ab12", "IDENTIFIER"),
    ("Admin / Tr0ub4dor-9", "Tr0ub4dor-9", "IDENTIFIER"),     # a heading's word in capitals, no login
])
def test_model_identifier_after_a_login_and_a_slash_is_its_password(text, value, label):
    assert checked(text, value, "IDENTIFIER") == [(label, value)]


@pytest.mark.parametrize("text, value, label", [
    ("Her staff number for the canteen card is QW-771204, ask payroll.", "QW-771204", "IDENTIFIER"),
    ("dossier de prêt n° LN-2023-558102 clos", "LN-2023-558102", "IDENTIFIER"),
    ("référence de l'avis d'impôt 2025 : 25 71 B304412 16", "25 71 B304412 16", "IDENTIFIER"),
    # a national document's word after the record's word: the model's label stays
    ("patient Jean Roux, passport 19AB44712", "19AB44712", "NATIONAL_ID"),
    ("client : Mme Diop, carte de séjour 7713024518", "7713024518", "NATIONAL_ID"),
    ("member since May. SSN 219-09-9999", "219-09-9999", "NATIONAL_ID"),   # another sentence
    ("Driving licence MORGA753116SM9IJ", "MORGA753116SM9IJ", "NATIONAL_ID"),
])
def test_model_national_id_after_a_records_word_is_an_identifier(text, value, label):
    assert checked(text, value, "NATIONAL_ID") == [(label, value)]


@pytest.mark.parametrize("text, value, kept", [
    ("la réplique tourne sur lux-db-02 depuis lundi", "lux-db-02", False),      # a server's name
    ("status=bounced (host mx1 said: 552)", "mx1", False),
    ("-- Host: web-members-01    Database: club", "web-members-01", False),
    ("the job runs as svc-backup every night", "svc-backup", True),             # a service account: no number
    ("user jdupont2 logged in", "jdupont2", True),                              # no machine's word
    ("his employee number is PG-00871", "PG-00871", True),                       # capitals: a code
    # the shape of a server's name without a host's word or an IP address on the line: a login
    ("Her Discord handle is node7 and she lives in Leeds.", "node7", True),
    ("Paul's account on the shared drive is pg42, reset it", "pg42", True),
    ("Her username on the forum is web-anna-12", "web-anna-12", True),
    ("| lux-db-01 | 192.0.2.41 | PostgreSQL 15.6 |", "lux-db-01", False),       # an IP address on its line
])
def test_model_identifier_that_is_a_servers_name_is_dropped(text, value, kept):
    assert checked(text, value, "IDENTIFIER") == ([("IDENTIFIER", value)] if kept else [])


@pytest.mark.parametrize("value", ["zqxv", "kl27", "jmartin", "4471", "CLI-77102"])
def test_model_identifier_kept(value):
    text = f"user {value} logged in"
    assert checked(text, value, "IDENTIFIER") == [("IDENTIFIER", value)]


@pytest.mark.parametrize("text, value, kept", [
    ("born in Valparaíso, Chile in 1970", "Valparaíso, Chile", None),                # places, no address
    ("Address ....... 4 Elm Row, Leith EH7 4AA\n2.3 Email", "4 Elm Row, Leith EH7 4AA\n2.3", "4 Elm Row, Leith EH7 4AA"),
    ("seen outside 19 Quay Street, Galway H91 X2P4", "outside 19 Quay Street, Galway H91 X2P4",
     "19 Quay Street, Galway H91 X2P4"),
    ("lives at Calle Mayor 12", "Calle Mayor", "Calle Mayor"),                       # the number right after
    ("3 Via Roma\n  Lugano\n  6900", "3 Via Roma\n  Lugano\n  6900", "3 Via Roma\n  Lugano\n  6900"),
])
def test_model_address_checks(text, value, kept):
    assert checked(text, value, "ADDRESS") == ([("ADDRESS", kept)] if kept else [])


@pytest.mark.parametrize("text, value, kept", [
    # words in lower case and a comma before the house number are the sentence's, not the address's
    ("la kiné (en libéral, 18 rue Monge, 75005 Paris) rappelle", "en libéral, 18 rue Monge, 75005 Paris",
     "18 rue Monge, 75005 Paris"),
    ("elle habite à deux rues, 4 rue Haute, 33600 Pessac.", "deux rues, 4 rue Haute, 33600 Pessac",
     "4 rue Haute, 33600 Pessac"),
    ("Adresse : appt 41, 18 rue Haute, 31400 Toulouse", "appt 41, 18 rue Haute, 31400 Toulouse",
     "appt 41, 18 rue Haute, 31400 Toulouse"),                                   # a flat's words stay
    # a town the model cut at a hyphen
    ("MÉDECIN : 2 RUE MARAT, 94200 IVRY-SUR-SEINE - 01 46", "2 RUE MARAT, 94200 IVRY-SUR",
     "2 RUE MARAT, 94200 IVRY-SUR-SEINE"),
    ("Adresse : 212 chemin Haut, 64250 Cambo-les-Bains\nTél", "212 chemin Haut, 64250 Cambo",
     "212 chemin Haut, 64250 Cambo-les-Bains"),
])
def test_model_address_without_the_sentences_words_and_with_its_whole_town(text, value, kept):
    assert checked(text, value, "ADDRESS") == [("ADDRESS", kept)]


def test_a_phone_on_the_line_after_an_address_block_is_a_phone():
    text = "Post to my son:\nTom Hale\n7 Birch Walk\nHitchin\nSG4 0QQ\n07700 900412\n"
    value = "7 Birch Walk\nHitchin\nSG4 0QQ\n07700 900412"
    assert checked(text, value, "ADDRESS") == [("ADDRESS", "7 Birch Walk\nHitchin\nSG4 0QQ"), ("PHONE", "07700 900412")]


@pytest.mark.parametrize("text, value, kept", [
    ("c'est 5 rue des écoles, 59160 lomme, le portillon est à droite", "5 rue des écoles, 59160 lomme, le portillon",
     "5 rue des écoles, 59160 lomme"),
    ("Mme Grand, Quartier Haut, 26400 Divajeu\nChute dimanche au café", "Quartier Haut, 26400 Divajeu\nChute",
     "Quartier Haut, 26400 Divajeu"),
    # a country on the last line is the address's, though the sentence goes on after it
    ("habite Rua Alta 5, 1200 Lisboa\nPortugal depuis dix ans", "Rua Alta 5, 1200 Lisboa\nPortugal",
     "Rua Alta 5, 1200 Lisboa\nPortugal"),
    ("Flat 2, 7 Tanner Row, York YO1 6JB, the blue door", "Flat 2, 7 Tanner Row, York YO1 6JB, the blue door",
     "Flat 2, 7 Tanner Row, York YO1 6JB"),
])
def test_model_address_ends_where_the_sentence_goes_on(text, value, kept):
    assert checked(text, value, "ADDRESS") == [("ADDRESS", kept)]


@pytest.mark.parametrize("text, value, kept", [
    ("passe au 1180, boul. Rosemont, app. 4, Montréal (Québec) H1Y 1Z4 demain", "1180, boul. Rosemont, app. 4, Montréal (Québec",
     "1180, boul. Rosemont, app. 4, Montréal (Québec) H1Y 1Z4"),
    ("Adresse : 5 rue Haute (Namur) 5000\nTél", "5 rue Haute (Namur", "5 rue Haute (Namur) 5000"),
    ("c'est Chaussée de Wavre 112, 1390 Grez-Doiceau, à 20h", "Chaussée de Wavre 112, 1390", "Chaussée de Wavre 112, 1390 Grez-Doiceau"),
    ("Rue du Moulin 3, 4000 Liège\nTel", "Rue du Moulin 3, 4000", "Rue du Moulin 3, 4000 Liège"),
    ("2 rue Basse, 17000 La Rochelle\r\n", "2 rue Basse, 17000", "2 rue Basse, 17000 La Rochelle"),
    ("3 cours Mirabeau, 13100 Aix-en-Provence.", "3 cours Mirabeau, 13100", "3 cours Mirabeau, 13100 Aix-en-Provence"),
    ("Rue du Moulin 3, 4000 Liège Jean Dupont\nTel", "Rue du Moulin 3, 4000", "Rue du Moulin 3, 4000"),   # no town
    # not a town: a keyword, a word the line goes on from, a number that is no postcode
    ("Rue du Moulin 3, 4000 Tel : 04 222", "Rue du Moulin 3, 4000", "Rue du Moulin 3, 4000"),
    ("Unit 3 (Block B, 14 Quay Road", "Unit 3 (Block B, 14 Quay Road", "Unit 3 (Block B, 14 Quay Road"),
    ("412 ELM AVE\nTOPEKA KS 66604-1207\n\nRe:", "412 ELM AVE\nTOPEKA KS", "412 ELM AVE\nTOPEKA KS 66604-1207"),
    ("9 Oak Rd, Salem, OR 97301, USA", "9 Oak Rd, Salem, OR", "9 Oak Rd, Salem, OR 97301"),
    ("9 Oak Rd, Salem, OR 97301-12", "9 Oak Rd, Salem, OR", "9 Oak Rd, Salem, OR"),   # no ZIP+4
    # a UK postcode: its inward part, a whole one after a town on the line or alone on the next line
    ("Address: 3 Quarry Bank, Stroud GL5 3TW\nGP:", "3 Quarry Bank, Stroud GL5", "3 Quarry Bank, Stroud GL5 3TW"),
    ("lives at 8 Avon Walk, Keynsham, Bristol BS31 1AA.", "8 Avon Walk, Keynsham", "8 Avon Walk, Keynsham, Bristol BS31 1AA"),
    ("MRS T OKORO\nFLAT 2, 11 DOCK ROAD\nBARRY\nCF62 5QT\n", "FLAT 2, 11 DOCK ROAD\nBARRY", "FLAT 2, 11 DOCK ROAD\nBARRY\nCF62 5QT"),
    ("8 Avon Walk, Keynsham, ref AB12 3CD", "8 Avon Walk, Keynsham", "8 Avon Walk, Keynsham"),     # a lower-case word between
    ("8 Avon Walk, Bath B1", "8 Avon Walk, Bath B1", "8 Avon Walk, Bath B1"),                       # no inward part after
])
def test_model_address_takes_the_end_it_stopped_short_of(text, value, kept):
    assert checked(text, value, "ADDRESS") == [("ADDRESS", kept)]


def test_model_address_takes_the_town_a_deed_writes_first():
    text = "M. Paul Girard, demeurant à VIENNE (38200), 7 rue des Prés, et Mme Girard, née à Lyon (Rhône), 2 rue Haute."
    assert checked(text, "7 rue des Prés", "ADDRESS") == [("ADDRESS", "VIENNE (38200), 7 rue des Prés")]
    assert checked(text, "2 rue Haute", "ADDRESS") == [("ADDRESS", "2 rue Haute")]       # a birthplace is no part of it


@pytest.mark.parametrize("text, value, kept", [
    ("Domicile :\n28 avenue des Tilleuls, 38000 Grenoble", "avenue des Tilleuls, 38000 Grenoble",
     "28 avenue des Tilleuls, 38000 Grenoble"),                                  # the house number before the street
    ("Adresse : 7 bis rue Haute, 29000 Quimper", "rue Haute, 29000 Quimper", "7 bis rue Haute, 29000 Quimper"),
    ("fuite dans le bâtiment C, 2e étage, 4 rue Verte, 35000 Rennes", "C, 2e étage, 4 rue Verte, 35000 Rennes",
     "bâtiment C, 2e étage, 4 rue Verte, 35000 Rennes"),                         # a building word before its letter
    ("domicile : Lieu-dit Kervoal, 29410 Pleyber", "Kervoal, 29410 Pleyber", "Lieu-dit Kervoal, 29410 Pleyber"),
    ("Room 12 Park Lane, London W1K 7TN", "Park Lane, London W1K 7TN", "Park Lane, London W1K 7TN"),  # no separator before
])
def test_model_address_takes_its_first_element_before_it(text, value, kept):
    assert checked(text, value, "ADDRESS") == [("ADDRESS", kept)]


@pytest.mark.parametrize("text, value", [
    ("Il est né à BRIVE (19100) en 1950, puis …", "BRIVE (19100)"),
    ("née à MARSEILLE 8e arrondissement (13008), elle a vécu …", "MARSEILLE 8e arrondissement (13008)"),
    ("Lieu de naissance : Tulle (19)", "Tulle (19)"),
    ("Place of birth: Galway H91", "Galway H91"),
    ("Il est né le 2 mars 1950 à BRIVE (19100).", "BRIVE (19100)"),
])
def test_a_place_of_birth_is_no_address(text, value):
    assert checked(text, value, "ADDRESS") == []


@pytest.mark.parametrize("text, value", [
    ("né à la maternité, 12 rue des Lilas, 19100 Brive", "12 rue des Lilas, 19100 Brive"),   # a street: an address
    ("Né à Brive, il vit 4 chemin Vert, 19100 Brive.", "4 chemin Vert, 19100 Brive"),
    ("born in Cork; now at 7 Lee Road, Cork T12", "7 Lee Road, Cork T12"),
])
def test_an_address_after_a_place_of_birth_stays(text, value):
    assert checked(text, value, "ADDRESS") == [("ADDRESS", value)]


@pytest.mark.parametrize("text, value", [
    ("Il est né à Florence en 1961.", "Florence"),
    ("She was born in Chester and moved south.", "Chester"),
    ("Lieu de naissance : Nancy", "Nancy"),
    ("elle est née le 2 juin 1979 à Florence, puis …", "Florence"),        # the day between
    ("He was born on 3 May 1950 in Chester.", "Chester"),
])
def test_a_place_of_birth_is_no_person(text, value):
    assert checked(text, value, "PERSON") == []


def test_a_name_after_a_birth_with_no_place_word_stays():
    for text, value in [("Née Florence Morel, elle signe.", "Florence Morel"), ("born to Chester Hale in 1990", "Chester Hale"),
                        ("mariée le 5 juin 1999 à Florence Morel", "Florence Morel"),      # a marriage, no birth
                        ("Born on a farm, 1950, in the care of Chester Hale", "Chester Hale")]:
        assert checked(text, value, "PERSON") == [("PERSON", value)]


@pytest.mark.parametrize("text, value", [
    ("Invoice from Harrow Finch LLP, London.", "Harrow Finch"),          # a legal form after the name
    ("Landlord: Okoro Properties Limited", "Okoro"),                      # a trade, then a legal form
    ("Le vin est vendu par la SCEA Marchal depuis 2019.", "SCEA Marchal"),  # a legal form before it
    ("Le vin est vendu par la SCEA Marchal depuis 2019.", "Marchal"),
    ("Devis de MORVAN PLOMBERIE pour la salle de bains", "MORVAN PLOMBERIE"),   # a trade inside the span
    ("Keys from Dane Valley Lettings, Macclesfield", "Dane Valley"),
])
def test_a_company_named_after_a_person_is_no_person(text, value):
    assert checked(text, value, "PERSON") == []


@pytest.mark.parametrize("text, value", [
    ("I told Sarah police were on their way.", "Sarah"),          # a lower-case word after the name
    ("Jenny Chu and Omar Sci spoke first.", "Omar Sci"),            # "SCI" counts only written in capitals
    ("Paid to Martin, SARL Lebrun's manager.", "Martin"),           # a comma between
    ("Signed: Ruth Baker\nLtd company director", "Ruth Baker"),    # a line break between
])
def test_a_name_beside_no_company_word_stays(text, value):
    assert checked(text, value, "PERSON") == [("PERSON", value)]


@pytest.mark.parametrize("text, value", [
    ("I paid him back on Revolut last night.", "Revolut"),
    ("Meet me outside Sainsbury's at six.", "Sainsbury's"),
    ("le colis part chez Chronopost demain", "Chronopost"),
    ("on a pris les dalles chez Leroy Merlin", "Leroy Merlin"),
    ("Trop de douleurs, je prends du Doliprane.", "Doliprane"),
])
def test_a_brand_people_mention_is_no_person(text, value):
    assert checked(text, value, "PERSON") == []


@pytest.mark.parametrize("text, value", [
    ("Dr Greggs will see you at ten.", "Greggs"),        # a title: a person's name
])
def test_a_titled_brand_name_stays(text, value):
    assert checked(text, value, "PERSON") == [("PERSON", value)]


def test_a_brand_that_is_a_persons_name_in_the_text_stays_masked():
    text = "Mr Tom Greggs came by. Greggs said the boiler is fine; the pasties were from Greggs."
    spans = [model_span(text, "Tom Greggs", "PERSON"), model_span(text, "Greggs", "PERSON", 1),
             model_span(text, "Greggs", "PERSON", 2)]
    kept = [text[s.start:s.end] for s in check_model_spans(spans, text, RULES.model_checks)]
    assert kept == ["Tom Greggs", "Greggs", "Greggs"]     # "Greggs" in clear would show Tom's surname
    text = "Le Gall a appelé. Vu dans Le Monde ce matin."          # a particle is no name's word
    spans = [model_span(text, "Le Gall", "PERSON"), model_span(text, "Le Monde", "PERSON")]
    assert [text[s.start:s.end] for s in check_model_spans(spans, text, RULES.model_checks)] == ["Le Gall"]


@pytest.mark.parametrize("text, value", [
    ("Sarah Jones    Lettings    07700 900274", "Sarah Jones"),     # a company word in the next column
    ("Paid Ruth Sas today", "Ruth Sas"),                            # a legal form in capitals only as written
])
def test_a_name_beside_a_company_word_of_another_cell_stays(text, value):
    assert checked(text, value, "PERSON") == [("PERSON", value)]


def test_a_company_named_after_a_person_of_the_text_stays_masked():
    text = "Client : Henri Marchal, exploitant. Facturer la SCEA Marchal."
    spans = [model_span(text, "Henri Marchal", "PERSON"), model_span(text, "SCEA Marchal", "PERSON")]
    assert [text[s.start:s.end] for s in check_model_spans(spans, text, RULES.model_checks)] == [
        "Henri Marchal", "SCEA Marchal"]          # "SCEA Marchal" in clear would show Henri's surname


@pytest.mark.parametrize("text, value, expected", [
    # an address block under its addressee, after another text's last line (joined records)
    ("Merci pour tout.\nOdile Ferrand-Lucas\n\n14 chemin des Vignes\n26400 Crest",
     "Odile Ferrand-Lucas\n\n14 chemin des Vignes\n26400 Crest",
     [("PERSON", "Odile Ferrand-Lucas"), ("ADDRESS", "14 chemin des Vignes\n26400 Crest")]),
    ("Ship to: Tomasz van der Berg\n  Apt. 4, 77 Larch Road\n  Leeds LS6 2QT",
     "Tomasz van der Berg\n  Apt. 4, 77 Larch Road\n  Leeds LS6 2QT",
     [("PERSON", "Tomasz van der Berg"), ("ADDRESS", "Apt. 4, 77 Larch Road\n  Leeds LS6 2QT")]),
    ("Mrs Jane Roe\n12 High Street\nLeeds LS1 4AB", "Mrs Jane Roe\n12 High Street\nLeeds LS1 4AB",
     [("PERSON", "Jane Roe"), ("ADDRESS", "12 High Street\nLeeds LS1 4AB")]),            # the title stays outside
    ("Ship to: Jean Dupont\r\n12 rue Verte\r\n75011 Paris", "Jean Dupont\r\n12 rue Verte\r\n75011 Paris",
     [("PERSON", "Jean Dupont"), ("ADDRESS", "12 rue Verte\r\n75011 Paris")]),
    ("Quayside Medical Practice\n31 Quay Road\nPoole", "Quayside Medical Practice\n31 Quay Road\nPoole",
     [("ADDRESS", "Quayside Medical Practice\n31 Quay Road\nPoole")]),
    ("The Old Rectory\n12 Church Lane\nDitton", "The Old Rectory\n12 Church Lane\nDitton",
     [("ADDRESS", "The Old Rectory\n12 Church Lane\nDitton")]),
    ("> K. P. ABERNATHY\n> 9 Quarry Lane\n> Bath BA2 4LP", "K. P. ABERNATHY\n> 9 Quarry Lane\n> Bath BA2 4LP",
     [("PERSON", "K. P. ABERNATHY"), ("ADDRESS", "9 Quarry Lane\n> Bath BA2 4LP")]),
    # a building's, a company's or a town's line stays in the address
    ("Résidence Les Tilleuls\n3 allée Verte\n31200 Toulouse", "Résidence Les Tilleuls\n3 allée Verte\n31200 Toulouse",
     [("ADDRESS", "Résidence Les Tilleuls\n3 allée Verte\n31200 Toulouse")]),
    ("Hollins Partners Ltd\n4 Canal Street\nLeeds", "Hollins Partners Ltd\n4 Canal Street\nLeeds",
     [("ADDRESS", "Hollins Partners Ltd\n4 Canal Street\nLeeds")]),
    ("USNS Mercer\nFPO AP 12428", "USNS Mercer\nFPO AP 12428", [("ADDRESS", "USNS Mercer\nFPO AP 12428")]),
    ("12 Via Lunga\nApt. 3\nMonte San Pietro\nItaly 40050", "Monte San Pietro\nItaly 40050",
     [("ADDRESS", "Monte San Pietro\nItaly 40050")]),                          # the next line is no street
    ("Ada Quist\nNorrland Tools\nBox 14\nUmeå 901 02", "Norrland Tools\nBox 14\nUmeå 901 02",
     [("ADDRESS", "Norrland Tools\nBox 14\nUmeå 901 02")]),                    # the line above is the name
    ("c/o flat 2, Lorna Bexley\n4 Hill Street", "Lorna Bexley\n4 Hill Street",
     [("ADDRESS", "Lorna Bexley\n4 Hill Street")]),                              # not the start of its line
])
def test_model_address_first_line_that_is_a_name_is_a_person(text, value, expected):
    assert checked(text, value, "ADDRESS") == expected


@pytest.mark.parametrize("text, value, expected", [
    # the model's address starts inside the name line above it: that piece is the end of the name
    ("M. OU MME CHARRIER ANTOINE / CHARRIER-NDOYE AWA\n14 RUE DU DUC\n17000 LA ROCHELLE",
     "AWA\n14 RUE DU DUC\n17000 LA ROCHELLE", [("PERSON", "AWA"), ("ADDRESS", "14 RUE DU DUC\n17000 LA ROCHELLE")]),
    ("MME BARTHOLDI DE SAINT-PRIEST CAMILLE\n1240 CHEMIN DU PUITS\n34980 SAINT-GÉLY",
     "CAMILLE\n1240 CHEMIN DU PUITS\n34980 SAINT-GÉLY",
     [("PERSON", "CAMILLE"), ("ADDRESS", "1240 CHEMIN DU PUITS\n34980 SAINT-GÉLY")]),
    ("S/o Shri Harish Menon\nB-17, First Floor, Sector 9\nNoida - 201301", "Shri Harish Menon\nB-17, First Floor, Sector 9\nNoida - 201301",
     [("PERSON", "Harish Menon"), ("ADDRESS", "B-17, First Floor, Sector 9\nNoida - 201301")]),   # the title stays outside
    # a building's word, a word of the sentence or an address element before it: the address stays whole
    ("5. Mel and Jo Stanton\nHollies Farmhouse\nBrook Lane\nQuorn\nLE12 8BB", "Farmhouse\nBrook Lane\nQuorn\nLE12 8BB",
     [("ADDRESS", "Farmhouse\nBrook Lane\nQuorn\nLE12 8BB")]),
    ("Please forward my post from Little Snoring\n14 Church Lane\nNorwich NR21 0AA",
     "Little Snoring\n14 Church Lane\nNorwich NR21 0AA", [("ADDRESS", "Little Snoring\n14 Church Lane\nNorwich NR21 0AA")]),
    ("send it to 1737 Cheriton Dr Reuquén Extensions\n Apt. 724\n Hibberdene 68793", "Extensions\n Apt. 724\n Hibberdene 68793",
     [("ADDRESS", "Extensions\n Apt. 724\n Hibberdene 68793")]),
])
def test_model_address_starting_inside_a_name_line_leaves_the_name_a_person(text, value, expected):
    assert checked(text, value, "ADDRESS") == expected


@pytest.mark.parametrize("text, value, expected", [
    # a space-laid row: the model's address across column gaps is cut into the row's cells
    ("PCN0412  CEO88  Morwenna Tregear     22 Fore Street, Truro TR1 2AB     Resident permit",
     "Morwenna Tregear     22 Fore Street, Truro TR1 2AB     Resident permit",
     [("PERSON", "Morwenna Tregear"), ("ADDRESS", "22 Fore Street, Truro TR1 2AB"), ("ADDRESS", "Resident permit")]),
    # (words alone stay masked as the model found them: no check says whose they are)
    ("7\tPOLLOCK, Ewan\t12 Tay Street, Perth PH1 5LQ", "POLLOCK, Ewan\t12 Tay Street, Perth PH1 5LQ",
     [("PERSON", "POLLOCK, Ewan"), ("ADDRESS", "12 Tay Street, Perth PH1 5LQ")]),
    ("B    12 impasse des Saules       48,50    BX-2207", "12 impasse des Saules       48,50    BX-2207",
     [("ADDRESS", "12 impasse des Saules"), ("IDENTIFIER", "BX-2207")]),   # a code stays masked, a sum is no one's
    ("  r.quenault    3 rue Haute, 14000 Caen    4471 2290  ", "r.quenault    3 rue Haute, 14000 Caen    4471 2290",
     [("IDENTIFIER", "r.quenault"), ("ADDRESS", "3 rue Haute, 14000 Caen"), ("IDENTIFIER", "4471 2290")]),
    ("12 Kenilworth Road     Coventry     CV3 6PT     35,00", "12 Kenilworth Road     Coventry     CV3 6PT     35,00",
     [("ADDRESS", "12 Kenilworth Road"), ("ADDRESS", "Coventry"), ("ADDRESS", "CV3 6PT")]),  # a sum alone is no one's
    # no column gap: the address is checked as one value
    ("Address: 22 Fore Street,  Truro TR1 2AB", "22 Fore Street,  Truro TR1 2AB",
     [("ADDRESS", "22 Fore Street,  Truro TR1 2AB")]),
])
def test_model_address_across_column_gaps_is_cut_into_cells(text, value, expected):
    assert checked(text, value, "ADDRESS") == expected


@pytest.mark.parametrize("text, value, expected", [
    ("Référent : Paul-Henri Vasseur, chef de projet", "Paul-Henri", "Paul-Henri Vasseur"),
    ("avis du Pr Hugues Marlin de Kervéguen, puis", "Hugues Marlin", "Hugues Marlin de Kervéguen"),
    ("Kind regards,\nIdris Balogun-Eze\nAccounts", "Idris", "Idris Balogun-Eze"),
    ("Signed: Ruth Ellen Pardoe, MD", "Ruth Ellen", "Ruth Ellen Pardoe"),
    ("Regards,\r\nIdris Balogun\r\nAccounts", "Idris", "Idris Balogun"),
    # not the rest of a name: a weekday, a post-nominal, a word after a particle that is no name, the next line
    ("seen by Dr Vance Mon 14 Apr", "Vance", "Vance"),
    ("Counsel: Ifeoma Chukwu Esq.", "Ifeoma Chukwu", "Ifeoma Chukwu"),
    ("ask Gaspard de la maison", "Gaspard", "Gaspard"),
    ("Thanks,\nNiamh\nOperations", "Niamh", "Niamh"),
    ("DUPONT Marcel", "DUPONT", "DUPONT"),            # capitals: an OCR header's next word may be anything
    ("booked with Dr Obi Mon 14 Apr", "Obi Mon", "Obi"),                          # a weekday before a date
    ("LI Jun\tNL73 XXXX", "LI Jun", "LI Jun"),                                   # a month that is a given name
    ("Matinée : Lormier Opéra-Comique, 8 h.", "Lormier", "Lormier"),
    ("the Edwin Harrow Plant Science Center", "Edwin Harrow", "Edwin Harrow"),    # more words: no name's end
    ("Vallin Toulon, 26 juillet", "Vallin", "Vallin"),                           # a date after it
])
def test_model_person_takes_the_rest_of_the_name_on_its_line(text, value, expected):
    assert checked(text, value, "PERSON") == [("PERSON", expected)]


def test_model_person_does_not_take_a_word_another_span_holds():
    text = "Contact Lina Orsay 12, Grand-Rue"
    spans = [model_span(text, "Lina", "PERSON"), model_span(text, "Orsay 12, Grand-Rue", "ADDRESS")]
    found = check_model_spans(spans, text, RULES.model_checks)
    assert [(s.label, text[s.start:s.end]) for s in found if s.label == "PERSON"] == [("PERSON", "Lina")]


@pytest.mark.parametrize("text, value, label", [
    ("Federal tax withheld   4,218.55\nState", "4,218.55", "NATIONAL_ID"),
    ("total 1 204,90 €", "1 204,90", "IDENTIFIER"),
])
def test_model_number_that_is_a_sum_of_money_is_dropped(text, value, label):
    assert checked(text, value, label) == []


def test_model_span_stops_before_the_next_form_item():
    text = "b Employer ID\n  91-4471203\nc Employer's name"
    assert checked(text, "91-4471203\nc", "NATIONAL_ID") == [("NATIONAL_ID", "91-4471203")]


@pytest.mark.parametrize("value", ["ch_3MtwBwLkdIwHu7ix28a3tqPa", "iPhone15,3"])
def test_model_secret_that_is_an_object_id_or_a_device_model_is_dropped(value):
    text = f'"id": "{value}",'
    assert checked(text, value, "SECRET") == []


@pytest.mark.parametrize("text, pieces, name", [
    ("Ask Anne-Sophie Roux today", ["Anne-Sophie", "Roux"], "Anne-Sophie Roux"),
    ("Name: DUVAL, Anne Claire", ["DUVAL", "Anne Claire"], "DUVAL, Anne Claire"),
    ("Conducteur : M'BALA Sidi", ["BALA Sidi"], "M'BALA Sidi"),
    ("Signé : J.-P. Roux", ["P. Roux"], "J.-P. Roux"),
])
def test_model_name_pieces_are_joined(text, pieces, name):
    spans = [model_span(text, p, "PERSON") for p in pieces]
    got = [text[s.start:s.end] for s in check_model_spans(spans, text, RULES.model_checks)]
    assert got == [name]


def test_two_names_with_a_comma_stay_two():
    text = "Guests: Lena, Tom Weber"
    spans = [model_span(text, "Lena", "PERSON"), model_span(text, "Tom Weber", "PERSON")]
    got = [text[s.start:s.end] for s in check_model_spans(spans, text, RULES.model_checks)]
    assert got == ["Lena", "Tom Weber"]


def test_doctests_of_the_new_modules():
    import doctest

    from alias_engine import resolve
    from alias_engine.resolve import format_checks, letterheads, span_repair, structure
    from alias_engine.validators import cn_ric

    for module in (resolve, letterheads, cn_ric, format_checks, span_repair, structure):
        assert doctest.testmod(module).failed == 0


@pytest.mark.parametrize("text, value, kept", [
    ("WITNESS Orla Brennagh STATES", "WITNESS Orla Brennagh", "Orla Brennagh"),
    ("ask Auntie Folake first", "Auntie Folake", "Folake"),
    ("chez Tonton Rémi", "Tonton Rémi", "Rémi"),
    ("Aunt Marjorie brings the trifle", "Aunt Marjorie", "Marjorie"),
    ("Tante Solange prête sa remorque", "Tante Solange", "Solange"),
    ("l'oncle Bastien arrive demain", "oncle Bastien", "Bastien"),
    ("deploy is blocked, Ping Oskar Lindahl before merging", "Ping Oskar Lindahl", "Oskar Lindahl"),
    ("Cc Maren Holt on the next mail", "Cc Maren Holt", "Maren Holt"),
    ("Ask Teodor Vass for the keys", "Ask Teodor Vass", "Teodor Vass"),
    ("P.S. Maelys asked about the dates", "P.S. Maelys", "Maelys"),   # a postscript's mark is no initials
])
def test_a_role_kinship_or_addressing_word_before_a_name_is_outside_it(text, value, kept):
    assert checked(text, value, "PERSON") == [("PERSON", kept)]


@pytest.mark.parametrize("text, value, expected", [
    ("G'day Brennagh, your claim is in", "G'day Brennagh", [("PERSON", "Brennagh")]),
    ("ok thx ottilie see u", "thx ottilie", [("PERSON", "ottilie")]),
    ("Sgt 4471 Quarrington attended", "4471 Quarrington", [("IDENTIFIER", "4471"), ("PERSON", "Quarrington")]),
    ("room 12 B", "12 B", []),
])
def test_a_greeting_or_a_number_before_a_name_is_outside_it(text, value, expected):
    assert checked(text, value, "PERSON") == expected


@pytest.mark.parametrize("value", ["0800 917 2231", "1-800-916-4420", "(877) 916-4420", "0 800 343 150", "0 810 951 875",
                                   "0345 600 2290", "0300 123 4567"])   # the UK's 03: an organisation's access number
@pytest.mark.parametrize("label", ["PHONE", "NATIONAL_ID", "IDENTIFIER"])
def test_a_toll_free_number_the_model_found_is_a_company_line(value, label):
    assert checked(f"call our helpline on {value} today", value, label) == []


@pytest.mark.parametrize("value, kept", [("0117 496 0000", False), ("01 45 21 60 00", False), ("0117 496 0231", True),
                                         ("06 12 34 50 00", True)])
def test_a_round_landline_the_model_found_is_a_switchboard(value, kept):
    assert checked(f"Reception: {value}", value, "PHONE") == ([("PHONE", value)] if kept else [])


@pytest.mark.parametrize("text, value", [
    ("Questions? Call 0344 561 1234 or write to us.", None),          # a UK 03 number: an organisation's
    ("mon fixe 0344215510, appelle-moi.", "0344215510"),              # a French landline that starts 03
    ("mon fixe : 03 44 21 55 10", "03 44 21 55 10"),
])
def test_an_organisation_s_access_number_is_no_person_s_phone(rules_engine, text, value):
    found = [text[s.start:s.end] for s in rules_engine.detect(text) if s.label == "PHONE"]
    assert found == ([value] if value else [])


@pytest.mark.parametrize("text, value", [
    ("Accueil commun : 01 45 21 60 00 (du lundi au vendredi).", None),  # a round landline: a switchboard
    ("Tel: 0117 496 0000", None),                                        # after a phone keyword too
    ("Head office (212) 736-3000.", None),
    ("mon fixe : 01 45 21 60 01", "01 45 21 60 01"),                     # not round
    ("Tel: 0117 496 0300", "0117 496 0300"),                             # 300: round to the hundred only
    ("mon portable : 06 12 34 50 00", "06 12 34 50 00"),                 # a mobile is a person's, round or not
])
def test_a_round_landline_is_a_switchboard(rules_engine, text, value):
    found = [text[s.start:s.end] for s in rules_engine.detect(text) if s.label == "PHONE"]
    assert found == ([value] if value else [])


@pytest.fixture(scope="module")
def rules_engine():
    from alias_engine import Engine
    return Engine(use_model=False)


@pytest.mark.parametrize("text, value, label", [
    ("Tél. : 06 95 52 69 51", "06 95 52 69 51", "PHONE"),
    ("Tel 08 8747 6301 (Adelaide office)", "08 8747 6301", "PHONE"),   # an Australian landline, not 0 8xx
    ("NIR 1 85 03 75 115 042 17", "1 85 03 75 115 042 17", "NATIONAL_ID"),
    ("N° assurance maladie 8000136402", "8000136402", "NATIONAL_ID"),   # digits alone: no line written as one
])
def test_a_number_in_no_company_line_format_stays(text, value, label):
    assert checked(text, value, label) == [(label, value)]


def test_an_ordinary_number_the_model_found_stays_a_phone():
    assert checked("call me on 07700 916442 today", "07700 916442", "PHONE") == [("PHONE", "07700 916442")]


@pytest.mark.parametrize("text, value, kept", [
    ("Adresse :\nRésidence Les Tilleuls, bât. C, 3e étage\n5 rue Haute\n31000 Toulouse", "3e étage\n5 rue Haute\n31000 Toulouse",
     "Résidence Les Tilleuls, bât. C, 3e étage\n5 rue Haute\n31000 Toulouse"),
    ('ID-4,DURAND,"Foyer Les Glycines, chambre 4, 2 rue Basse, 38000 Grenoble",x', "chambre 4, 2 rue Basse, 38000 Grenoble",
     "Foyer Les Glycines, chambre 4, 2 rue Basse, 38000 Grenoble"),
    # not a building's name, or not starting its line: the span stays
    ("Chez Paul Durand, 2 rue Basse, 38000 Grenoble", "2 rue Basse, 38000 Grenoble", "2 rue Basse, 38000 Grenoble"),
    ("vu à la résidence, puis au 2 rue Basse, 38000 Grenoble", "2 rue Basse, 38000 Grenoble", "2 rue Basse, 38000 Grenoble"),
])
def test_model_address_takes_the_building_name_that_starts_its_line(text, value, kept):
    assert checked(text, value, "ADDRESS") == [("ADDRESS", kept)]


def test_model_address_building_look_back_is_bounded():
    text = "x" * 300 + ", Résidence Les Tilleuls, 5 rue Haute, 31000 Toulouse"
    value = "5 rue Haute, 31000 Toulouse"
    assert checked(text, value, "ADDRESS") == [("ADDRESS", value)]


@pytest.mark.parametrize("text, value, label, expected", [
    ("ID card no. DLK 730265", "DLK 730265", "NATIONAL_ID", ("NATIONAL_ID", "DLK 730265")),   # letters of the value
    ("OIC: PC 4471 HUSSEY", "PC 4471", "IDENTIFIER", ("IDENTIFIER", "4471")),   # a rank before a collar number
    ("<Client id=71564 nom='X'>", "=71564", "IDENTIFIER", ("IDENTIFIER", "71564")),
    ("plate AB 12345 seen", "AB 12345", "IDENTIFIER", ("IDENTIFIER", "AB 12345")),   # 2 letters: may be the value's
    ("call (555) 123-4567", "(555) 123-4567", "PHONE", ("PHONE", "(555) 123-4567")),
    ("N° fiscal du déclarant 1 : 30 57 214 869 342", "1 : 30 57 214 869 342", "NATIONAL_ID",
     ("NATIONAL_ID", "30 57 214 869 342")),                                  # a numbered label's colon
    ("member no 48213 kept", "no 48213", "IDENTIFIER", ("IDENTIFIER", "48213")),   # a word in lower case
    ("ref no: tel 06 12 34 56 78", "tel 06 12 34 56 78", "PHONE", ("PHONE", "06 12 34 56 78")),
])
def test_model_number_starts_at_its_number(text, value, label, expected):
    assert checked(text, value, label) == [expected]


@pytest.mark.parametrize("text, value, lang, expected", [
    ("Signature: K. Threlfall     Date: 17/06/2024", "Threlfall", "en", "K. Threlfall"),
    ("Checked by: Lt. R. O'Halloran", "O'Halloran", "en", "R. O'Halloran"),
    ("Signature: T.J. Ashcombe-Reid", "Ashcombe-Reid", "en", "T.J. Ashcombe-Reid"),
    ("vu avec J. Martin hier", "Martin", "fr", "J. Martin"),
    ("Signé : M. Dupont", "Dupont", "fr", "Dupont"),       # Monsieur: a title
    ("Signé : M. Dupont", "M. Dupont", "fr", "Dupont"),
    ("Bien confraternellement,\n\nDr P. Castellane-Rivière", "Castellane-Rivière", "fr", "P. Castellane-Rivière"),  # after a title
    ("Conseiller (Mélanie) : Merci M. Morel", "Morel", "fr", "Morel"),            # after a greeting: Monsieur
    # a surname's initial after a first name, where the name ends
    ("[08:47] nadia k: on my way", "nadia", "en", "nadia k"),
    ("Talk to Nadia K. tomorrow", "Nadia", "en", "Nadia K"),
    ("merci\nclémence v\n", "clémence", "fr", "clémence v"),
    ("Anne a dit oui", "Anne", "fr", "Anne"),                 # a word after the name, no initial
    ("Ask Priya S.Jones", "Priya", "en", "Priya"),
    ("Love,\nGrace x\n", "Grace", "en", "Grace"),              # a kiss, no initial
    ("Ce que disent MM. Bosc et L. Boyer M. Dupont", "L. Boyer", "fr", "L. Boyer"),  # the next name's title
])
def test_model_person_takes_the_initials_before_it(text, value, lang, expected):
    spans = check_model_spans([model_span(text, value, "PERSON")], text, RULES.model_checks, lang)
    assert [text[s.start:s.end] for s in spans] == [expected]


@pytest.mark.parametrize("text, address, lang, kept", [
    ("Harrow & Finch Solicitors LLP, 4 Mill Street, Leeds LS1 4AB", "4 Mill Street, Leeds LS1 4AB", "en", False),
    ("the firm of Harrow & Finch LLP of 4 Mill Street, Leeds LS1 4AB.", "4 Mill Street, Leeds LS1 4AB", "en", False),
    ("Dupré Conseil SARL – 8 rue des Lilas, 69003 Lyon", "8 rue des Lilas, 69003 Lyon", "fr", False),
    ("ZI des Forges – 12 rue de l'Usine, 42000 Saint-Étienne", "12 rue de l'Usine, 42000 Saint-Étienne", "fr", False),
    ("Unit 3, Kestrel Business Park, 12 Mill Road, Leeds LS1 4AB", "Unit 3, Kestrel Business Park, 12 Mill Road, Leeds LS1 4AB",
     "en", False),
    ("Je vis avec sa mère au 8 rue des Lilas, 69003 Lyon", "8 rue des Lilas, 69003 Lyon", "fr", True),
    ("Jane Doe, 4 Mill Street, Leeds LS1 4AB (she left Acme Ltd in May)", "4 Mill Street, Leeds LS1 4AB", "en", True),
])
def test_an_address_after_a_company_or_in_a_business_zone_is_the_businesss(text, address, lang, kept):
    spans = detect_with_rules(text, lang, RULES, [model_span(text, address, "ADDRESS")])
    assert any(s.label == "ADDRESS" for s in spans) == kept


@pytest.mark.parametrize("text, value, expected", [
    ('the rcon password in #general "tulip_rcon_2024!" changing it', "tulip_rcon_2024", "tulip_rcon_2024!"),
    ("mdp : 'Gr4nit!e#' merci", "Gr4nit", "Gr4nit!e#"),
    ('"DB_PASS=Zk4!pQ8"', "Zk4", "Zk4"),                 # a quoted KEY=value: only the model's part
    ("password hunter2!! ok", "hunter2", "hunter2"),     # not quoted
])
def test_model_secret_takes_the_whole_quoted_token(text, value, expected):
    assert checked(text, value, "SECRET") == [("SECRET", expected)]


@pytest.mark.parametrize("text, value, label", [
    ("CB CARREFOUR CARTE 4978XXXXXXXX2210;84,36", "4978XXXXXXXX2210", "PHONE"),     # already masked
    ("Savings a/c ***4418 frozen", "***4418", "IDENTIFIER"),
    ("kernel: [5172094.386] nf_conntrack: table full", "5172094.386", "PHONE"),      # a kernel's clock
])
def test_model_number_that_is_masked_or_a_clock_is_dropped(text, value, label):
    assert checked(text, value, label) == []


@pytest.mark.parametrize("text, lang, value", [
    ("Gum Tree Hospitality Pty Ltd\nABN 51 824 753 556\n", "en", "51 824 753 556"),
    ("pour un rendez-vous, merci de nous contacter au 02 41 86 35 07.", "fr", "02 41 86 35 07"),
    ("Reply Y to confirm. To rebook call 01632 960 100.", "en", "01632 960 100"),
])
def test_a_company_number_or_line_is_no_phone(text, lang, value):
    spans = detect_with_rules(text, lang, RULES, [model_span(text, value, "PHONE")])
    assert [s for s in spans if s.label == "PHONE"] == []


@pytest.mark.parametrize("text, lang, value, account", [
    ("Salary goes to BSB 082-417, account 2360 9158.", "en", "082-417", "2360 9158"),
    ("IFSC ICIC0004178, a/c 60231887450126", "en", "ICIC0004178", "60231887450126"),
    ("sort code 20-00-00, account number 31926819", "en", "20-00-00", "31926819"),
])
def test_a_banks_branch_code_is_the_banks(text, lang, value, account):
    spans = detect_with_rules(text, lang, RULES, [model_span(text, value, "IDENTIFIER")])
    assert [text[s.start:s.end] for s in spans if s.label == "IDENTIFIER"] == [account]


@pytest.mark.parametrize("text, value, kept", [
    ('ua="Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Safari/537.36"', "Safari/537.36",
     False),
    ('UA="MOZILLA/5.0 (X11; LINUX X86_64; RV:125.0) GECKO/20100101 FIREFOX/125.0"', "LINUX X86_64", False),
    ('ua="Mozilla/5.0 (X11)" user=jdupont42 status=200', "jdupont42", True),   # after the user agent's quote
    ("Dossier CTR/585878 ouvert", "CTR/585878", True),
])
def test_a_piece_of_a_user_agent_is_no_identifier(text, value, kept):
    # common.json's suppress pattern user_agent, in any case: uppercased logs write "MOZILLA/5.0 ("
    spans = detect_with_rules(text, "en", RULES, [model_span(text, value, "IDENTIFIER")])
    assert ({text[s.start:s.end] for s in spans if s.label == "IDENTIFIER"} == {value}) == kept


@pytest.mark.parametrize("text, value, kept", [
    ("sqlalchemy.exc.OperationalError: (psycopg2.OperationalError) connection refused", "psycopg2", False),
    ("2027-03-02 08:00:01.112 WARN [pool-3] c.k.facturation.RelanceService : relance envoyée", "c.k.facturation", False),
    ("    from invoicing_tools import Client", "invoicing_tools", False),
    ("login=j.McKenna from 203.0.113.4", "j.McKenna", True),        # a surname's "Mc" is no class
    ("login=kmbeki42.Staging failed", "kmbeki42", True),             # one hump: no class name
    ("see r.cohen.DeVries for it", "r.cohen.DeVries", True),
    ("ok see you at 8, thanks.RaeLynn", "RaeLynn", True),             # a word of prose, no module: a missing space
    ("requests_oauth.TokenExpired: retry", "requests_oauth", False),  # one module, with an underscore
    ("raised socket.TimeoutError after 30 s", "socket.TimeoutError", False),  # an error's class after one module
])
def test_a_name_in_code_is_no_identifier(text, value, kept):
    # common.json's suppress pattern code_name
    spans = detect_with_rules(text, "en", RULES, [model_span(text, value, "IDENTIFIER")])
    start = text.index(value)
    assert any(s.start < start + len(value) and start < s.end for s in spans) == kept


@pytest.mark.parametrize("text, model_value, expected", [
    # the model's address, longer than the rule's, is the one kept (the rule stops at the postcode)
    ("I live at 14 Pellow Street, Truro TR1 3DX, United Kingdom", "14 Pellow Street, Truro TR1 3DX, United Kingdom",
     "14 Pellow Street, Truro TR1 3DX, United Kingdom"),
    # the model's address cut short inside the rule's: the rule's whole address (its flat and residence masked too)
    ("Domicile : Appt 3, résidence Les Saules, 8 rue des Vanniers, 49100 Angers", "8 rue des Vanniers, 49100 Angers",
     "Appt 3, résidence Les Saules, 8 rue des Vanniers, 49100 Angers"),
    # where the model found no address, the rule's stands (a fallback keyword rule: 'domicile')
    ("Domicile : Appt 3, résidence Les Saules, 8 rue des Vanniers, 49100 Angers", None,
     "Appt 3, résidence Les Saules, 8 rue des Vanniers, 49100 Angers"),
])
def test_a_street_address_pattern_only_where_the_model_found_no_address(text, model_value, expected):
    model = [model_span(text, model_value, "ADDRESS")] if model_value else []
    spans = merge_spans(detect_with_rules(text, "fr", RULES, model), text)
    assert [text[s.start:s.end] for s in spans if s.label == "ADDRESS"] == [expected]


@pytest.mark.parametrize("text, value", [
    ("The engineer's visit is job ref JB-55120931, 8am-1pm.", "JB-55120931"),
    ("Estimate no: Q-2291-07   Date: 04/03/2027", "Q-2291-07"),
    ("Change request CHG0093311 approved.", "CHG0093311"),
    ("Flight QF0128 SYD 09:10, seats 21C 21D", "21C 21D"),
])
def test_a_trades_job_a_change_request_and_a_bookings_seat_are_no_identifier(text, value):
    # LABELS.md: ticket, order, invoice and booking numbers do not identify a person
    spans = detect_with_rules(text, "en", RULES, [model_span(text, value, "IDENTIFIER")])
    assert [s for s in spans if s.label == "IDENTIFIER"] == []


@pytest.mark.parametrize("text, value, kept", [
    ("Received: from mail-wr1-f52.example.com (mail-wr1-f52.example.com [192.0.2.7])", "mail-wr1-f52.example.com", False),
    ("by mx2.quillet-freight.example with ESMTPS", "mx2.quillet-freight.example", False),
    ("écris-moi : mailys.ferrand.fr (sans arobase, anti-spam)", "mailys.ferrand.fr", True),  # no mail server's name
    ("contact: jdoe at example dot org", "jdoe at example dot org", True),
])
def test_a_mail_servers_name_is_no_email(text, value, kept):
    spans = detect_with_rules(text, "en", RULES, [model_span(text, value, "EMAIL")])
    assert any(s.label == "EMAIL" and text[s.start:s.end] == value for s in spans) == kept


@pytest.mark.parametrize("text, value, kept", [
    ("Yvain_du_29 — 14/03/2026 20:05", "14/03/2026", False),        # a chat's timestamp is no secret
    ("[2025-03-10 14:22:31] login failed", "2025-03-10", False),
    ("le mdp du wifi c'est quoi ?\nnoa_22 — 03/04/2025 19:02", "03/04/2025", False),  # a password's word, then a timestamp
    ("mot de passe : 14/07/1989", "14/07/1989", True),                # a date as a password
    ("APP_SECRET=!ChangeMe!", "!ChangeMe!", False),                   # a framework's default, a placeholder
    ("DATABASE_URL=postgres://USER:PASSWORD@db:5432/app", "PASSWORD", False),
    ("le code du portail c'est 12-34-56", "12-34-56", True),         # no calendar date
    ("MARIADB_PASSWORD: Saule-Pleureur-31", "Saule-Pleureur-31", True),
])
def test_a_date_or_a_placeholder_is_no_secret(text, value, kept):
    spans = detect_with_rules(text, "fr", RULES, [model_span(text, value, "SECRET")])
    assert any(s.label == "SECRET" and text[s.start:s.end] == value for s in spans) == kept


@pytest.mark.parametrize("text, value, expected", [
    ("Gate code: 3741#    Dog: yes", "3741#", "3741"),        # the keypad's enter key is none of the code
    ("alarm code 88341* then OFF", "88341*", "88341"),
    ("wifi password: 55120934#", "55120934#", "55120934#"),     # a password's last # is of it: no keypad before it
    ("Gate: ring twice\nwifi password: 55120934#", "55120934#", "55120934#"),   # a door word on another line
])
def test_a_keypads_enter_key_is_no_part_of_its_code(text, value, expected):
    spans = detect_with_rules(text, "en", RULES, [model_span(text, value, "SECRET")])
    assert {text[s.start:s.end] for s in spans if s.label == "SECRET"} == {expected}


@pytest.mark.parametrize("text, lang, value, kept", [
    ("Notre chat Pistache a mangé à 18h.", "fr", "Pistache", False),     # a pet word before a name
    ("can you walk the dog Emrys? im stuck at work", "en", "Emrys", True),  # "the dog": Emrys may be addressed
    ("our dog Crumble hates the hoover", "en", "Crumble", False),
    ("Appelle Ysoline, le chat est malade.", "fr", "Ysoline", True),   # the one addressed, before the pet word
    ("the dog Alun Petrie walks every day", "en", "Alun Petrie", True),   # two words: a person who walks dogs
])
def test_a_pets_name_is_no_person(text, lang, value, kept):
    spans = detect_with_rules(text, lang, RULES, [model_span(text, value, "PERSON")])
    assert any(s.label == "PERSON" and text[s.start:s.end] == value for s in spans) == kept


@pytest.mark.parametrize("text, value", [
    ("bon pour une thalasso à Plouharnel\n\nMaman – 10:31\nAutre chose", "Plouharnel\n\nMaman"),
    ("see you at Tenby\n\nMum - 10:31", "Tenby\n\nMum"),
])
def test_a_kinship_word_cut_out_of_a_longer_span_is_no_name(text, value):
    # not_names are read again after the model's spans are cut at line breaks
    spans = detect_with_rules(text, "fr", RULES, [model_span(text, value, "PERSON")])
    assert [text[s.start:s.end] for s in spans if s.label == "PERSON"] == [value.split("\n")[0]]


@pytest.mark.parametrize("text, lang, value, label, expected", [
    # a URL ends at a space or a line break
    ("mon site https://atelier-ferrand.fr/perles\n@ysé_b · 10:43", "fr", "https://atelier-ferrand.fr/perles\n@ysé_b",
     "URL", ["https://atelier-ferrand.fr/perles"]),
    # an address ends at its domain, a path's "/" is not of it
    ('"PROPFIND /dav/user/odile.brun@example.org/ HTTP/1.1"', "en", "odile.brun@example.org/", "EMAIL",
     ["odile.brun@example.org"]),
    # a driving licence's issuing state is not of its number; a passport's letters are
    ("Driver licence: QLD 4471 2290\nVehicle", "en", "QLD 4471 2290", "NATIONAL_ID", ["4471 2290"]),
    ("Passport: CA 1234567", "en", "CA 1234567", "NATIONAL_ID", ["CA 1234567"]),
    # two names joined by "&" are two people; a firm's name stays one, a company's word in it
    ("# Maelle & Tobi – guest list", "en", "Maelle & Tobi", "PERSON", ["Maelle", "Tobi"]),
    ("to T ADESOLA & K ADESOLA, joint acc", "en", "T ADESOLA & K ADESOLA", "PERSON", ["T ADESOLA", "K ADESOLA"]),
    ("Cabinet Vallerand & Associés, Lyon", "fr", "Vallerand & Associés", "PERSON", []),
])
def test_the_edges_of_a_models_value(text, lang, value, label, expected):
    spans = detect_with_rules(text, lang, RULES, [model_span(text, value, label)])
    assert sorted({text[s.start:s.end] for s in spans if s.label == label}, key=text.index) == expected


@pytest.mark.parametrize("text, lang, expected", [
    ("[18:42] +44 7700 900 311: hey its ysolde, my new num is 07700 900 311", "en", ["ysolde"]),
    ("hiya it's bryony 😊 save it!", "en", ["bryony"]),
    ("coucouu, c'est gwenola (la cousine de théo)", "fr", ["gwenola"]),
    ("hi its raining again, bring a coat", "en", []),        # a word of the language
    ("hey its lol, forget it", "en", []),                     # a chat word
    ("the issue: its cause is unknown", "en", []),            # no greeting, no message start
    ("coucou, c'est noté, merci", "fr", []),                  # a chat word (not_names), the dictionary's lemmas aside
    ("hi its jessamy here", "en", []),                        # no comma, bracket, emoji or dash after it
])
def test_a_writer_who_names_themself_in_lower_case(text, lang, expected):
    spans = detect_with_rules(text, lang, RULES, [])
    assert [text[s.start:s.end] for s in spans if s.label == "PERSON"] == expected


CHAT = "[02/07/2025, 20:14] Priya: who's in for saturday?\n[02/07/2025, 20:15] jaz: me\n"


@pytest.mark.parametrize("text, named, expected", [
    (CHAT + "[02/07/2025, 20:16] dev: in. bring snacks", ["Priya", "jaz"], ["dev"]),   # a word, in a speaker's place
    ("02/07/2025, 20:14 - Priya: ok\n02/07/2025, 20:15 - Jaz: ok\n02/07/2025, 20:16 - will: in", ["Priya", "Jaz"],
     ["will"]),                                                                        # an export's date and dash
    (CHAT + "[02/07/2025, 20:16] dev: in. bring snacks", ["Priya"], []),              # one named speaker: no chat of people
    (CHAT + "[02/07/2025, 20:16] mum: count me in", ["Priya", "jaz"], []),           # a kinship word (not_names)
    ("[12:00:01] error: disk full\n[12:00:02] info: retrying", [], []),              # a log: no named speaker
    (CHAT + "dev: in (no time before it)", ["Priya", "jaz"], []),
    (CHAT + "[02/07/2025, 20:16] bot: reminder set\n[02/07/2025, 20:17] you: count you in", ["Priya", "jaz"], []),  # words
    ("[20:14] Priya Raman: hi\n[20:15] priya: anyone?\n[20:16] kev: in", ["Priya Raman", "priya"], []),  # one speaker
    ("[20:14] Priya Raman: hi\n[20:15] Tom: anyone?\n[20:16] kev: in", ["Priya Raman", "Tom"], ["kev"]),
    ("[09:12] Called Priya and Tom Baker: no answer\n[09:40] kev: retry", ["Priya", "Tom Baker"], []),  # no speaker's place
])
def test_a_chats_speaker_in_lower_case_among_named_speakers(text, named, expected):
    spans = detect_with_rules(text, "en", RULES, [model_span(text, name, "PERSON") for name in named])
    assert [text[s.start:s.end] for s in spans if s.label == "PERSON" and text[s.start:s.end] not in named] == expected


@pytest.mark.parametrize("url, kept", [
    ("https://www.velo-shop.example.fr/mon-compte", False),        # a page every shop has
    ("https://hr-portal.example.in/upload", False),
    ("https://www.velo-shop.example.fr/mon-compte?token=8fK2mQ9xLp4vR7tZ", True),   # a personal token
    ("https://janedoe-design.example/portfolio", True),
    ("https://shop.picard-sarl.example/fr/panier", False),           # any segment, after a language's
    ("https://www.burton-assurances.example/mentions-legales", False),  # a legal notice
    ("http://intranet/byrne-sarl/helpdesk", False),
    ("https://cloud.example.fr/s/jdupont/mentions-legales?token=8fK2mQ9xLp4vR7tZ", True),
])
def test_model_url_of_an_organisations_generic_page_is_dropped(url, kept):
    text = f"Voir {url} merci"
    assert checked(text, url, "URL") == ([("URL", url)] if kept else [])


@pytest.mark.parametrize("text, lang, value", [
    ("la société, enregistrée au RCS de Vesoul sous le numéro 481 229 506, représentée par", "fr", "481 229 506"),
    ("b Employer identification number (EIN)\n  47-8812053\n", "en", "47-8812053"),
])
def test_a_companys_registration_is_no_persons_number(text, lang, value):
    spans = detect_with_rules(text, lang, RULES, [model_span(text, value, "NATIONAL_ID")])
    assert [s for s in spans if text[s.start:s.end] == value] == []


def test_model_person_of_a_couple_is_two_people():
    text = "To: Ilse & Ruben Vandersteen <iv@example.org>"
    assert checked(text, "Ilse & Ruben Vandersteen", "PERSON") == [("PERSON", "Ilse"), ("PERSON", "Ruben Vandersteen")]
    text = "Signé : Odile et Fabrice Lemarchal"
    assert checked(text, "Odile et Fabrice Lemarchal", "PERSON") == [("PERSON", "Odile"), ("PERSON", "Fabrice Lemarchal")]
    text = "the duo Cobb & Marlow played"   # two surnames joined by '&': two people, one span each (LABELS.md)
    assert checked(text, "Cobb & Marlow", "PERSON") == [("PERSON", "Cobb"), ("PERSON", "Marlow")]


@pytest.mark.parametrize("text, login", [
    ("Ticket from Petra Lindqvist (plindqvist): printer down", "plindqvist"),
    ("Reviewer Tomás Ibarra (t.ibarra) signed off", "t.ibarra"),
    ("Jonas Weber (jweber_adm) rotated the key", "jweber_adm"),
    ("Jonas Weber (jonas-dev on GitHub) rotated the key", "jonas-dev"),   # and where the login is
    ("Jonas Weber (owner) rotated the key", None),           # a role holds no word of the name
    ("Jonas Weber (owner since 2019) rotated the key", None),
    ("Jonas Weber (Jo) rotated the key", None),
])
def test_model_login_made_of_the_name_after_it_is_an_identifier(text, login):
    name = text.split(" (")[0].split(" ", 2)[-1] if text.startswith(("Ticket", "Reviewer")) else "Jonas Weber"
    got = checked(text, name, "PERSON")
    assert ("PERSON", name) in got
    assert [v for label, v in got if label == "IDENTIFIER"] == ([login] if login else [])


@pytest.mark.parametrize("text, value, expected", [
    ("Signed: Dr P. Lindahl, MCRN 552190", "MCRN 552190", [("IDENTIFIER", "552190")]),
    ("applicant (UCI 31-4482-9910)", "UCI 31-4482-9910", [("IDENTIFIER", "31-4482-9910")]),
    ("Springfield, MO 65806", "MO 65806", [("ADDRESS", "MO 65806")]),       # a US state and its ZIP
])
def test_model_address_that_is_an_acronym_and_a_number_is_a_registration(text, value, expected):
    assert checked(text, value, "ADDRESS") == expected


# A model PERSON made only of words the language writes in lower case (rules/<lang>/lower_case_words.txt) and
# capitalised by its position (a sentence's or a line's first words) is no name: "Feedback …", a heading. Names
# that are also words stay names: a first name or surname the generator knows, a word with a capitalised
# dictionary entry, after a title, inside a sentence or in lower case.
@pytest.mark.parametrize("text, value", [
    ("Feedback on the draft was good.", "Feedback"),
    ("The call ended. Feedback on the draft was good.", "Feedback"),
    ("Summary\nThe call went well.", "Summary"),
    ("Notes\n- Garden Centre closed on Friday.", "Garden Centre"),
    ("Objet : relance du dossier", "Objet"),
    ("Remerciements à toute l'équipe.", "Remerciements"),
    ("Facture\nNote de frais", "Facture\nNote"),  # both pieces of a span cut at its line break,
    ("| Albumin | 3.7 | g/dL |\n| Calcium | 9.1 | mg/dL |", "Calcium"),  # a table cell's first word
    ("<h1>NOS MÉDECINS</h1>", "NOS MÉDECINS"),                  # words in capitals: a heading's
    ("12 Nov   DD OCTOPUS ENERGY   52.00", "OCTOPUS ENERGY"),   # a statement's merchant
])
def test_a_person_of_lower_case_words_only_is_dropped(text, value):
    assert checked(text, value, "PERSON") == []


@pytest.mark.parametrize("text, value", [
    ("Baker said the van was late.", "Baker"),          # "Baker" is a dictionary entry of its own
    ("The invoice went to Diamond Blessing.", "Diamond Blessing"),  # names the generator knows
    ("Please call Mr Feedback today.", "Feedback"),       # a title before it
    ("Dr Summary will see you.", "Dr Summary"),            # a title inside it
    ("Rose Archer signed.", "Rose Archer"),
    ("| Owner | Baker |\n| Reviewer | Rose Archer |", "Rose Archer"),  # a cell's first words that name someone
    ("Laura Garden called.", "Laura Garden"),              # one word that is a name is enough
    ("Jean-Feedback est là.", "Jean-Feedback"),            # a hyphenated word is no dictionary word
    ("Le Pen a parlé.", "Le Pen"),                         # a word under 3 letters is in no list: it keeps it
    ("We met at the Garden Centre on Friday.", "Garden Centre"),  # inside a sentence a capital says a name
    ("Mais Goujon l'accabla de reproches.", "Goujon"),     # a surname that is also a word
    ("Nom : Goujon", "Goujon"),                            # a field's value
    ("Plaidaient J. Goujon et MM. Bondon.", "Goujon"),      # after an initial
    ("Plaidaient J. Goujon et MM. Bondon.", "Bondon"),      # after a title of two letters
    ("tu passes dimanche pour le pot de titou ?", "titou"),    # in lower case: no sentence start
    ("salut\ntitou tu viens ?", "titou"),
    ("Titulaire : ROSE MARTIN", "ROSE MARTIN"),              # capitals, a surname among them
    ("Beneficiary: JOANNA LIFE", "JOANNA LIFE"),              # a word of no dictionary: may be a name
    ("M. BOULANGER", "BOULANGER"),                            # a title before it
    ("<h1>MÉDECINS</h1>", "MÉDECINS"),                        # one word alone may be a form's name in capitals
])
def test_a_person_with_a_name_or_a_title_stays(text, value):
    kept = [v for _, v in checked(text, value, "PERSON")]
    assert len(kept) == 1 and value.removeprefix("Dr ") in kept[0]  # "J. Goujon": the initial joins it


def test_another_languages_word_is_a_name_here():
    text = "Thanks for the lift!\n\nPomme"  # "pomme" is French: in an English chat, a nickname
    spans = [model_span(text, "Pomme", "PERSON")]
    assert [text[s.start:s.end] for s in check_model_spans(spans, text, RULES.model_checks, "en")] == ["Pomme"]
    assert check_model_spans(spans, text, RULES.model_checks, "fr") == []


@pytest.mark.parametrize("text, value", [
    ("# .env.example\nAPI_KEY=sk-", "sk-"),                     # a prefix alone
    ("<AddtlTxInf>CB</AddtlTxInf>", "CB"),                     # a code inside markup
])
def test_a_model_secret_of_three_letters_or_fewer_is_none(text, value):
    assert checked(text, value, "SECRET") == []
    assert checked("the safe opens with 482 today", "482", "SECRET") == [("SECRET", "482")]  # digits: a code


def test_a_number_read_across_a_tab_is_one_number_a_cell():
    text = "plan\tcard_last4\tdoor_pin\nOff-peak\t4417\t5082\n"
    assert checked(text, "4417\t5082", "PHONE") == []  # two 4-digit codes, no phone
    text = "Ann\t07700 900 274\tx\n"
    assert checked(text, "07700 900 274\tx", "PHONE") == [("PHONE", "07700 900 274")]


@pytest.mark.parametrize("text, value, expected", [
    ("<li>Leyla Farouk &ndash; MRes</li>", "Leyla Farouk &ndash", [("PERSON", "Leyla Farouk")]),
    ("<li>Cormac Brennock &ndash; MRes</li>", "&ndash", []),            # an entity alone
    ("<p>x &#8211; Ann Lee</p>", "&#8211; Ann Lee", [("PERSON", "Ann Lee")]),
    ("<p>Tom &amp; Jerry</p>", "Tom &amp; Jerry", [("PERSON", "Tom &amp; Jerry")]),  # inside: left as found
])
def test_an_html_entity_is_no_part_of_a_value(text, value, expected):
    assert checked(text, value, "PERSON") == expected


@pytest.mark.parametrize("text, value, label", [
    ('"credit_card_number": "•••• •••• •••• 2210"', "2210", "IDENTIFIER"),     # a masked card's last four
    ("ssn_masked=***-**-3386", "3386", "NATIONAL_ID"),
    ("foyer@orange.fr;oui (22/03/2026);240,00\n", "(22/03/2026);240,00", "IDENTIFIER"),  # a date and a sum
])
def test_a_masked_values_digits_and_a_sum_across_a_column_are_no_number(text, value, label):
    assert checked(text, value, label) == []


def test_a_number_across_a_space_laid_column_gap_is_one_number_a_cell():
    text = "12/03  PRLV SEPA /RUM KT0047316259                24,90\n"
    assert checked(text, "KT0047316259                24,90", "IDENTIFIER") == [("IDENTIFIER", "KT0047316259")]


@pytest.mark.parametrize("text, value, expected", [
    ("2  Jonah Whitfield (518263)\n3  Estate of Lind", "518263)\n3", [("PHONE", "518263")]),  # the bracket and the next row's number go
    ("1  Ann Lee (0612345678)\n2  x", "0612345678)\n2", [("PHONE", "0612345678")]),
    ("Tel.;+33 6 12 34 56 78;oui", "+33 6 12 34 56 78;oui", [("PHONE", "+33 6 12 34 56 78")]),  # "+" is no punctuation to cut
])
def test_a_number_cut_at_a_line_break_or_column_loses_the_punctuation_at_the_cut(text, value, expected):
    assert checked(text, value, "PHONE") == expected


@pytest.mark.parametrize("text, value, kept", [
    ("Neutrophils\t4.99\t10^9/L\n", "10^9/L", False),        # a unit: four letters and digits
    ("passport: Passport", "Passport", False),                   # a word
    ("carte d'identité n° = INJWXOWGY", "INJWXOWGY", True),     # nine capitals: a card may hold no digit
    ("carte d'identité T7QKMDZH2", "T7QKMDZH2", True),
    ("NINO AB 12 34 56 C", "AB 12 34 56 C", True),
    ('{"id": 57046}', "57046", True),
])
def test_a_national_id_has_five_letters_and_digits(text, value, kept):
    assert checked(text, value, "NATIONAL_ID") == ([("NATIONAL_ID", value)] if kept else [])


@pytest.mark.parametrize("text, value, label", [
    ("call it with your key sk_test_YOUR_KEY", "sk_test_YOUR_KEY", "IDENTIFIER"),
    ("customer: CUST-EXAMPLE-01", "CUST-EXAMPLE-01", "IDENTIFIER"),
    ("passport: XXXXXXXXX1", "XXXXXXXXX1", "NATIONAL_ID"),
])
def test_an_example_written_where_a_code_goes_is_no_code(text, value, label):
    assert checked(text, value, label) == []
    assert checked("customer: CUST-57046", "CUST-57046", "IDENTIFIER") == [("IDENTIFIER", "CUST-57046")]


@pytest.mark.parametrize("text, value", [
    ("her late mother had Alzheimer's disease.", "Alzheimer"),
    ("She was diagnosed with Raynaud's phenomenon last winter.", "Raynaud"),
    ("the Turner Prize shortlist", "Turner"),
    ("at the Hollis Brant Museum, Leeds", "Hollis Brant"),     # a venue
    ("Queen Mary University, 2017 - Ada Lovelace Scholarship", "Ada Lovelace"),
    ("Pas de signe de Kaposi.", "Kaposi"),
    ("ÉCOLE : ÉCOLE ÉLÉMENTAIRE JULES-FERRY", "JULES-FERRY"),
    ("je me gare où ? avenue jean moulin", "avenue jean moulin"),
    ("Selon le gériatre, ce n'est pas un Alzheimer pour l'instant.", "Alzheimer"),     # a disease's name alone
    ("Gait normal, Romberg negative.", "Romberg"),                              # a clinical sign
    ("Her Crohn's is flaring again.", "Crohn"),
    ("suivi pour une thyroïdite de Hashimoto", "Hashimoto"),
    ("arrêt prolongé pour une ténosynovite de De Quervain", "De Quervain"),
    ("Je la reverrai à la clinique Marcel Pagnol en mars.", "Marcel Pagnol"),   # a clinic named after a person
    ("réunion en salle Simone Veil", "Simone Veil"),
    ("plantar response flexor, no Babinski", "Babinski"),                     # a clinical sign alone
    ("une démence à corps de Lewy", "Lewy"),
])
def test_a_thing_named_after_a_person_is_no_person(text, value):
    assert checked(text, value, "PERSON") == []


@pytest.mark.parametrize("text, value", [
    ("We went to see the Turner exhibition.", "Turner"),    # the artist
    ("Dr Anand's letter came today.", "Anand"),
    ("Jane Smith's test results are back.", "Jane Smith"),
    ("le dossier de Marie Curie", "Marie Curie"),
    ("Dr Romberg will see you at 10.", "Romberg"),       # a disease's name after a title: a person
    ("Lucas Alzheimer a signé le bail.", "Lucas Alzheimer"),
    ("Mr Parkinson called back.", "Parkinson"),
    ("Raynaud a appelé ce matin.", "Raynaud"),           # a surname common as a person's: no eponym_names
    ("la clinique du Dr Anselme Viguier", "Anselme Viguier"),      # a clinic's doctor, after a title
])
def test_a_name_before_other_words_stays(text, value):
    assert checked(text, value, "PERSON") == [("PERSON", value)]


@pytest.mark.parametrize("text, value, expected", [
    ("14/06   CB INTERMARCHE SAINTES   37,85", "INTERMARCHE SAINTES", []),     # a card payment's merchant
    ("23 Jun   CARD 7308 GREGGS DUNDEE  6.40", "GREGGS DUNDEE", []),
    ("05 Apr   DD NORTHGAS   450.00", "NORTHGAS", []),                     # a direct debit's biller
    ("18/06   VIR INST DE MME ODILE QUINTARD MOTIF COURS", "ODILE QUINTARD MOTIF",     # a transfer's payer stays,
     [("PERSON", "ODILE QUINTARD")]),                                                 # without the next field
    ("Hi DD, Anne here", "Anne", [("PERSON", "Anne")]),
    # a card payment's line: the words in capitals after its merchant are the merchant's or its town
    ("06/03  CB BRICOMARCHE 05/03 LA TESTE       142,90", "LA TESTE", []),
    ("08/05  CB HYPER U MARENNES 07/05        31,20", "MARENNES", []),
    ("07/03  CB DR PELLETIER 06/03  25,00", "PELLETIER", [("PERSON", "PELLETIER")]),   # a doctor paid by card
])
def test_a_statements_merchant_is_no_person(text, value, expected):
    assert checked(text, value, "PERSON") == expected


def test_a_name_after_a_card_word_that_is_no_statement_code_stays():
    for text, value in [("CARD HOLDER JOHN SMITH", "JOHN SMITH"), ("CARTE GRISE AU NOM DE JEAN DUPONT", "JEAN DUPONT")]:
        assert checked(text, value, "PERSON") == [("PERSON", value)]


@pytest.mark.parametrize("text, value, expected", [
    ("3. Tab. Xarelto 20 mg OD", "Xarelto", []),                      # a medicine, its dose after it
    ("Asthme équilibré avec Bricanyl 500 µg si besoin", "Bricanyl", []),
    ("Nifedipine MR 30 mg twice daily", "Nifedipine", []),
    ("Seen by Anna Kowalski 90 minutes later", "Anna Kowalski", [("PERSON", "Anna Kowalski")]),   # no dose
    ("Jean Morel, 75 ans", "Jean Morel", [("PERSON", "Jean Morel")]),
    ("Associés : Dupont 50 %", "Dupont", [("PERSON", "Dupont")]),        # a share, no dose
    ("Emma Clarke 92%", "Emma Clarke", [("PERSON", "Emma Clarke")]),
])
def test_a_name_before_a_dose_is_a_medicines(text, value, expected):
    assert checked(text, value, "PERSON") == expected


def test_a_mail_headers_surname_comma_given_name_is_one_name():
    text = "Cc: O'Driscoll, Aoife <a.odriscoll@example.org>; Anne, Marc and Paul"
    spans = [model_span(text, "O'Driscoll", "PERSON"), model_span(text, "Aoife", "PERSON"),
             model_span(text, "Anne", "PERSON"), model_span(text, "Marc", "PERSON")]
    assert [text[s.start:s.end] for s in check_model_spans(spans, text, RULES.model_checks)] == [
        "O'Driscoll, Aoife", "Anne", "Marc"]


def test_a_model_url_is_the_whole_url_where_the_model_stopped_short():
    text = "Manage your booking: https://www.air.example/manage?pnr=QX7T4M&surname=OBRIEN. Thanks"
    url = "https://www.air.example/manage?pnr=QX7T4M&surname=OBRIEN"
    assert checked(text, "https://www.air.example/manage?pnr=QX7T4M", "URL") == [("URL", url)]
    text = "amber russell,https://medium.com/@amberrussell,russell,154-95-3743"   # a CSV's next cell is no part of it
    assert checked(text, "https://medium.com/@amberrussell", "URL") == [("URL", "https://medium.com/@amberrussell")]


def test_a_number_read_across_a_line_break_is_one_number_a_line():
    text = "ITIME REMB SOINS      31,20\n28/05  CB X"
    assert checked(text, "31,20\n28/05", "NATIONAL_ID") == []


@pytest.mark.parametrize("text, pieces, expected", [
    ("E20687\tBrennan, Cathal\tHK 27 63 05 A", ("Brennan", "Cathal"), ["Brennan, Cathal"]),        # one cell: one name
    ("R0071325   Okonkwo, Chidinma    14062021530298", ("Okonkwo", "Chidinma"), ["Okonkwo, Chidinma"]),
    ("x@y.com;Greer, Gareth Pryor;none", ("Greer", "Gareth Pryor"), ["Greer", "Gareth Pryor"]),  # two people
    ("Hi Anna, Marc said hello", ("Anna", "Marc"), ["Anna", "Marc"]),                         # prose
])
def test_a_surname_and_given_name_filling_a_cell_are_one_name(text, pieces, expected):
    spans = [model_span(text, piece, "PERSON") for piece in pieces]
    assert [text[s.start:s.end] for s in check_model_spans(spans, text, RULES.model_checks)] == expected


@pytest.mark.parametrize("text, name, place", [
    ("Drop it at Sarah's Kensington flat tomorrow.", "Sarah", "Kensington flat"),
    ("Ring Tom's Riverside Cottage, Kendal when you arrive.", "Tom", "Riverside Cottage, Kendal"),
])
def test_a_name_before_a_possessive_stays_a_person_when_the_place_is_no_address(text, name, place):
    spans = detect_with_rules(text, "en", RULES, [model_span(text, name, "PERSON"), model_span(text, place, "ADDRESS")])
    assert (name, "PERSON") in [(text[s.start:s.end], s.label) for s in spans]


def test_an_address_cut_at_a_possessive_is_one_address():
    text = "Apt 5, Tanner's Quay Residences, Cork T12 XY34"
    spans = detect_with_rules(text, "en", RULES, [model_span(text, "Tanner", "PERSON"),
                                                   model_span(text, "Quay Residences, Cork T12 XY34", "ADDRESS")])
    assert [(text[s.start:s.end], s.label) for s in spans] == [("Tanner's Quay Residences, Cork T12 XY34", "ADDRESS")]


@pytest.mark.parametrize("text, value, expected", [
    ("GET /v2/members/MBR-5530127/cards 200", "MBR-5530127/", "MBR-5530127"),   # a path's slash is none of it
    ("PUT /dossiers/DOS-88412 HTTP/1.1", "/DOS-88412", "DOS-88412"),
    ("ref ABC/2231/K", "ABC/2231/K", "ABC/2231/K"),                          # inside, a slash is the code's
])
def test_a_paths_slash_is_no_part_of_an_identifier(text, value, expected):
    assert checked(text, value, "IDENTIFIER") == [("IDENTIFIER", expected)]


@pytest.mark.parametrize("text, value, expected", [
    ("12\tB\tde LAUNAY Pierre\t0704", "LAUNAY Pierre", "de LAUNAY Pierre"),          # the particle opens the cell
    ("Titulaire : Mme van der BERG Ilse", "BERG Ilse", "van der BERG Ilse"),        # after a title
    ("on a vu la maison de Martin hier", "Martin", "Martin"),                        # a preposition of the sentence
    ("bilan :\nle Guennec du 3e a rappelé", "Guennec", "Guennec"),                  # an article, no particle
])
def test_particles_that_open_a_names_cell_or_line_or_follow_a_title_are_the_names(text, value, expected):
    assert checked(text, value, "PERSON") == [("PERSON", expected)]


def test_a_password_with_a_placeholders_word_inside_is_no_placeholder():
    from alias_engine import Engine
    text = "my new password is Hip_Replacement2019 ok"
    assert [(text[s.start:s.end], s.label) for s in Engine(use_model=False).detect(text, "en")] == [
        ("Hip_Replacement2019", "SECRET")]
