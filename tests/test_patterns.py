"""Pattern detectors (EMAIL, PHONE, IP_ADDRESS, URL, SECRET) on their own, with exact offsets."""

from __future__ import annotations

import random
import string

import pytest

from alias_engine import Engine
from alias_engine.detectors.patterns import (
    find_emails,
    find_ips,
    find_phones,
    find_secrets,
    find_urls,
    is_person_url,
)
from alias_engine.detectors.rules import detect_with_rules, load_rules
from alias_engine.resources import data_dir


@pytest.fixture(scope="module")
def all_rules():
    return load_rules(data_dir("rules"))


@pytest.fixture(scope="module")
def rules(all_rules):
    return all_rules.patterns


def found(spans, text):
    return [(s.start, s.end, s.label, text[s.start:s.end]) for s in sorted(spans)]


def where(text, *values):
    """(start, end, value) of each value, searched left to right."""
    out, pos = [], 0
    for value in values:
        start = text.index(value, pos)
        out.append((start, start + len(value), value))
        pos = start + len(value)
    return out


def expect(spans, text, label, *values):
    assert found(spans, text) == [(s, e, label, v) for s, e, v in where(text, *values)]


# --- EMAIL ---------------------------------------------------------------------

def test_email_offsets_exclude_mailto_brackets_and_final_dot(rules):
    text = "Écrire à <jean.dupont@example.fr> ou mailto:j-p.le_gall+rh@mail.sub.example.co.uk."
    spans = find_emails(text, rules)
    expect(spans, text, "EMAIL", "jean.dupont@example.fr", "j-p.le_gall+rh@mail.sub.example.co.uk")
    assert found(spans, text)[0][:2] == (10, 32)
    assert all(s.source == "validator" for s in spans)


@pytest.mark.parametrize("text", ["user@localhost", "@jdupont sur Twitter", "a..b@example.com",
                                  "x@y", "prix: 10€ @ 12h"])
def test_email_negatives(rules, text):
    assert [text[s.start:s.end] for s in find_emails(text, rules)] in ([], ["b@example.com"])


def test_email_with_accented_local_part(rules):
    text = "contact : hélène.lefèvre@exemple.fr"
    expect(find_emails(text, rules), text, "EMAIL", "hélène.lefèvre@exemple.fr")


# --- PHONE ---------------------------------------------------------------------

@pytest.mark.parametrize("lang", ["fr", "en"])
@pytest.mark.parametrize("number", ["+33 (0)6 12 34 56 78", "06.12.34.56.78", "06 12 34 56 78", "0612345678",
                                    "(415) 555-0132", "+1 415-555-0132", "+44 20 7946 0958", "07700 900123",
                                    "0033 6 12 34 56 78", "+49 30 12345678", "020 7946 0958"])
def test_phone_formats_are_found_whole(rules, number, lang):
    text = f"Vous pouvez joindre Marie au {number}, merci."
    expect(find_phones(text, lang, rules), text, "PHONE", number)


def test_phone_leniency_valid_is_validator_possible_is_pattern(rules):
    text = "Mobile 07700 900123 ou 06 12 34 56 78"
    sources = {text[s.start:s.end]: s.source for s in find_phones(text, "en", rules)}
    assert sources == {"07700 900123": "pattern", "06 12 34 56 78": "validator"}


def test_numbers_in_parentheses(rules):
    text = "Zevlüde Sakarya (0033 1 48 64 83 05), MEZIANE Salma (+44 7429 625261)"
    expect(find_phones(text, "fr", rules), text, "PHONE", "0033 1 48 64 83 05", "+44 7429 625261")
    text = "Joignable au ( 06 12 34 56 78 ) en semaine"  # the spaces inside the parentheses are not the number's
    expect(find_phones(text, "fr", rules), text, "PHONE", "06 12 34 56 78")


def test_several_numbers_in_one_run(rules):
    text = "Tél 06 12 34 56 78 / 01 45 67 89 12 / (415) 555-0132"
    expect(find_phones(text, "fr", rules), text, "PHONE", "06 12 34 56 78", "01 45 67 89 12", "(415) 555-0132")


@pytest.mark.parametrize("text", ["facture n° 2024-00123", "né le 12/03/1985", "montant : 1 234 567,89 EUR",
                                  "IP 192.168.1.10", "version 10.0.19041.1", "06 12 34 56 7",
                                  "SIRET 732 829 320 00074", "réf 20240312-0001", "année 1985-1986"])
def test_phone_negatives(rules, text):
    assert find_phones(text, "fr", rules) == []


@pytest.mark.parametrize("lang", ["fr", "en"])
def test_bare_digits_that_only_a_nanp_reading_makes_a_phone_are_a_pattern_phone(rules, lang):
    """A number written as bare digits that only a US reading makes a phone ("3619524087") may be a licence or
    a member number: a PHONE of source "pattern", which a keyword's or the model's reading outranks; written as a
    phone, or with +1, it stays a validator's."""
    text = "licence 3619524087, Flying Blue 14187305926, tel (361) 952-4087 or +1 361 952 4087"
    found = {text[s.start:s.end]: (s.label, s.source) for s in find_phones(text, lang, rules)}
    assert found == {"3619524087": ("PHONE", "pattern"), "14187305926": ("PHONE", "pattern"),
                     "(361) 952-4087": ("PHONE", "validator"), "+1 361 952 4087": ("PHONE", "validator")}


def test_bare_nanp_digits_after_an_identifiers_keyword_are_that_identifier():
    engine = Engine(use_model=False)
    for text, label in [("member number 3619524087", "IDENTIFIER"), ("Tél : 3619524087", "PHONE"),
                        ("John Smith\n3619524087", "PHONE")]:     # no other reading: still masked as a phone
        assert [(text[s.start:s.end], s.label) for s in engine.detect(text, "fr")][-1] == ("3619524087", label)


def test_phone_cost_stays_low_on_digit_runs(rules):
    rng = random.Random(0)
    text = " ".join(str(rng.randrange(10**9)) for _ in range(3000))
    assert all(s.label == "PHONE" for s in find_phones(text, "en", rules))


# --- IP_ADDRESS ----------------------------------------------------------------

def test_ipv4_and_ipv6(rules):
    text = "Connexion depuis 192.168.1.10, puis 2001:db8::8a2e:370:7334 et fe80::1 (10.0.0.1), IP ::1."
    expect(find_ips(text, rules), text, "IP_ADDRESS", "192.168.1.10", "2001:db8::8a2e:370:7334", "fe80::1",
           "10.0.0.1", "::1")


@pytest.mark.parametrize("text", ["version 1.2.3.4", "v1.2.3.4", "Version: 1.2.3.4", "release 4.3.2.1",
                                  "build 10.0.19041.1", "paquet 1.2.3.4-beta", "The server runs Ubuntu 14.5.4.6", "std::map<int>", "à 12:30:45",
                                  "MAC 00:1A:2B:3C:4D:5E", "256.1.1.1", "1.2.3.4.5", "Foo::Bar::baz", "::"])
def test_ip_negatives(rules, text):
    assert find_ips(text, rules) == []


# --- URL -------------------------------------------------------------------------

@pytest.mark.parametrize("url", [
    "https://www.linkedin.com/in/jean-dupont-4a2b1c",
    "https://github.com/jdupont",
    "https://x.com/jean_d",
    "https://www.univ-exemple.fr/~jdupont/cv.html",
    "https://forum.example.org/users/jdupont",
    "https://medium.com/@jdupont/mon-article",
    "https://app.example.com/reset?token=8f14e45fceea167a5a36",
    "https://shop.example.com/unsubscribe?email=jean%40example.fr",
    "https://drive.google.com/file/d/1AbCdEf/view?usp=sharing",
    "https://www.dropbox.com/s/abc123/releve.pdf",
    "https://jdupont.github.io/",
    "https://marie-martin.wordpress.com/a-propos",
    "linkedin.com/in/marie-martin",
    "https://orcid.org/0000-0002-1825-0097",                       # a researcher's profile
    "https://clinic.example.net/join/room-3?pid=T0571386",          # a patient's id in the query
    "https://pay.example.com/receipts/payment/CAcaFwoVYWNjdF8xUTdtWnky",  # a signed link's token in the path
    "https://www.voyages.example/mon-compte/reservation?ref=RQ8LW&nom=VASSEUR",  # a surname in the query
    "https://www.zola.com/registry/tom-and-priya-2027",            # a couple's wedding list
    "https://www.leetchi.com/c/anniversaire-de-maelle",             # a fundraiser for someone
    "paypal.me/jrossi84",                                           # a pay-me link
])
def test_person_urls(rules, url):
    text = f"Voir {url}, merci."
    expect(find_urls(text, rules), text, "URL", url)


@pytest.mark.parametrize("url", [
    "https://docs.python.org/3/library/re.html",
    "https://developer.mozilla.org/fr/docs/Web/HTTP",
    "https://fr.wikipedia.org/wiki/Victor_Hugo",
    "https://www.acme.com/",
    "https://www.acme.com/produits/catalogue.pdf",
    "https://github.com/features",
    "https://github.com",
    "https://www.linkedin.com/company/acme",
    "https://www.service-public.fr/particuliers/vosdroits/F1234",
    "http://example.com/",
    "https://github.com/acme/tool/commit/4f3a2b1c9d4e5f6a7b8c9d0e1f2a3b4c5d6e7f8a",  # a commit's id, one case
    "https://assets.acme.com/static/js/main.8f3a2B1c9d4e5f6a.js",    # a file's name with its hash
    "https://orcid.org/about",
    "https://cdn.jsdelivr.net/npm/bootstrap@5.3.3/dist/css/bootstrap.min.css",  # a package's version, no handle
    "https://api.internal.acme.net/v2/users/me",                   # the caller, no one in particular
    "https://registry.acme.org/billing-api:3.0.2@sha256:4f1c9e2a7b0d",  # an image's digest
    "https://www.gofundme.com/",                                    # a fundraising site's home page
])
def test_public_urls_are_not_persons(rules, url):
    assert not is_person_url(url, rules)
    assert find_urls(f"Voir {url}.", rules) == []


@pytest.mark.parametrize("text, expected", [
    # a URL's user name and password are a connection string's: the user an IDENTIFIER, the password a SECRET
    ("origin  https://jmarlowe:ghp_Zx81KfLmQ2wErT5yUi9oP3aSdF6gH1jK4lZx@github.com/acme/tools.git (fetch)",
     [("jmarlowe", "IDENTIFIER"), ("ghp_Zx81KfLmQ2wErT5yUi9oP3aSdF6gH1jK4lZx", "SECRET")]),
    ("backup: ftp://jean:Pivoine-77@ftp.example.com/backup", [("jean", "IDENTIFIER"), ("Pivoine-77", "SECRET")]),
    # the rest of the URL is judged on its own: a profile after the credentials is a URL of its own
    ("https://jmarlowe:Kx9-pQ2zT@github.com/jmarlowe",
     [("jmarlowe", "IDENTIFIER"), ("Kx9-pQ2zT", "SECRET"), ("github.com/jmarlowe", "URL")]),
    # a password read from a variable is none, but the user name is real
    ("replica: postgres://report_ro:${REPLICA_PASSWORD}@db-2.internal:5432/app", [("report_ro", "IDENTIFIER")]),
    ("url: mysql://ledger_app:{{ vault.ledger_db }}@10.0.0.9/ledger", [("ledger_app", "IDENTIFIER"), ("10.0.0.9", "IP_ADDRESS")]),
])
def test_credentials_in_a_url_are_its_user_and_password(text, expected):
    spans = Engine(use_model=False).detect(text)
    assert [(text[s.start:s.end], s.label) for s in spans] == expected


@pytest.mark.parametrize("text", [
    "Format : mysql://utilisateur:motdepasse@hote:3306/base",   # a format's example: its user is none
    "DATABASE_URL=postgres://USER:${PASSWORD}@host:5432/db",
    "https://user:pass@example.com",
])
def test_the_user_of_example_credentials_is_no_login(text):
    assert [s for s in Engine(use_model=False).detect(text) if s.label == "IDENTIFIER"] == []


@pytest.mark.parametrize("text, url", [
    # credentials the secret rules do not mask (an example's password, one too long for them) stay inside the
    # URL's span, which covers the whole URL as any URL with a user name does: nothing of them is left readable
    ("https://kevin.b:mypassword123@nas.example.org/share", "https://kevin.b:mypassword123@nas.example.org/share"),
    ("git clone https://kevin.b:****@git.example.org/team/repo.git", "https://kevin.b:****@git.example.org/team/repo.git"),
    ("clone https://jdoe:" + "aB3" * 100 + "@git.example.org/team/repo.git",
     "https://jdoe:" + "aB3" * 100 + "@git.example.org/team/repo.git"),
])
def test_credentials_no_secret_rule_masks_stay_in_the_url(text, url):
    spans = Engine(use_model=False).detect(text)
    assert [(text[s.start:s.end], s.label) for s in spans] == [(url, "URL")]


def test_url_trailing_punctuation_and_parentheses(rules):
    text = "(profil : https://www.linkedin.com/in/jean-dupont). Et https://fr.example.org/wiki/A_(b)/~moi."
    expect(find_urls(text, rules), text, "URL", "https://www.linkedin.com/in/jean-dupont",
           "https://fr.example.org/wiki/A_(b)/~moi")


# --- SECRET --------------------------------------------------------------------------

def _token(rng, alphabet, n):
    return "".join(rng.choice(alphabet) for _ in range(n))


def _secret_samples():
    rng = random.Random(7)
    alnum = string.ascii_letters + string.digits
    b64url = alnum + "-_"
    return [
        "AKIA" + _token(rng, string.ascii_uppercase + string.digits, 16),
        "ghp_" + _token(rng, alnum, 36),
        "github_pat_" + _token(rng, alnum + "_", 82),
        "glpat-" + _token(rng, alnum, 20),
        "xoxb-" + _token(rng, string.digits, 12) + "-" + _token(rng, alnum, 24),
        "sk_live_" + _token(rng, alnum, 24),
        "AIza" + _token(rng, b64url, 35),
        "sk-proj-" + _token(rng, b64url, 48),
        "eyJ" + _token(rng, b64url, 20) + ".eyJ" + _token(rng, b64url, 30) + "." + _token(rng, b64url, 43),
        "hf_" + _token(rng, alnum, 34),
    ]


@pytest.mark.parametrize("secret", _secret_samples())
def test_known_credential_formats(rules, secret):
    text = f"config: {secret} # prod"
    expect(find_secrets(text, rules), text, "SECRET", secret)


def test_private_key_block_is_one_span(rules):
    block = "-----BEGIN RSA PRIVATE KEY-----\nMIIEpAIBAAKCAQEA1b2c3\nd4e5f6==\n-----END RSA PRIVATE KEY-----"
    text = f"clé :\n{block}\nfin"
    expect(find_secrets(text, rules), text, "SECRET", block)


def test_connection_string_password_is_secret_and_user_identifier(rules):
    text = "DATABASE_URL=postgres://app_user:S3cr3t!x@db.internal:5432/app et mongodb+srv://bob:pa55w0rd@c0.mongo.net/x"
    spans = find_secrets(text, rules)
    expect([s for s in spans if s.label == "SECRET"], text, "SECRET", "S3cr3t!x", "pa55w0rd")
    expect([s for s in spans if s.label == "IDENTIFIER"], text, "IDENTIFIER", "app_user", "bob")


@pytest.mark.parametrize("text, secret, user", [
    ("cache: redis://:Tq8#vLm2wz@10.9.8.7:6379/1", "Tq8#vLm2wz", None),   # no user; a '#' written by hand
    ("DSN=amqp://root:Rb7-x9Kq@mq:5672", "Rb7-x9Kq", None),              # a system account is no one's
    ("mysql -u kpetrov -p'Vx!93kLq' -h 10.0.0.5 sales", "Vx!93kLq", "kpetrov"),
    ("$ mysqldump -u ana_ro -pH7u2Kw9z shop > dump.sql", "H7u2Kw9z", "ana_ro"),
    # the other commands whose syntax takes a password on the command line
    ("curl -s -u lena.voss:Kettle-Drum-42 https://files.example.net/dav/", "Kettle-Drum-42", "lena.voss"),
    ("htpasswd -b /etc/apache2/.htpasswd oduval Pivoine-7731", "Pivoine-7731", "oduval"),
    ("sudo htpasswd -cbB .htpasswd rkhan 'Gl4cier!x'", "Gl4cier!x", "rkhan"),
    ("sshpass -p 'W1nd-Mill' scp backup.tgz ops@203.0.113.9:/srv", "W1nd-Mill", None),
    ("smbclient //nas/share -U tmorel%Sable99", "Sable99", "tmorel"),
    ("wget --password=Quartz-551 --user=aplume ftp://ftp.example.org/f.zip", "Quartz-551", None),
    ("redis-server /etc/redis/cache.conf --requirepass 'Hx4!mQ29vLp'", "Hx4!mQ29vLp", None),
    ("redis-cli -h 10.2.0.7 -a 'Tarn-Opal-19' ping", "Tarn-Opal-19", None),
])
def test_credentials_in_uris_and_command_lines(rules, text, secret, user):
    spans = find_secrets(text, rules)
    assert [text[s.start:s.end] for s in spans if s.label == "SECRET"] == [secret]
    assert [text[s.start:s.end] for s in spans if s.label == "IDENTIFIER"] == ([user] if user else [])


@pytest.mark.parametrize("text", ["aws_access_key_id = AKIAIOSFODNN7EXAMPLE",
                                  "sk-test", "the ghp_ prefix", "https://user@example.com/x",
                                  "curl -u $API_USER https://api.example.org",   # no password: curl asks for it
                                  "htpasswd -c .htpasswd oduval", "sshpass -f ~/.pw ssh host",
                                  'redis-cli -a "$CACHE_PW" info',   # a variable: the password is elsewhere
                                  "sha256: e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"])
def test_secret_format_negatives(rules, text):
    assert find_secrets(text, rules) == []


# --- pathological inputs ---------------------------------------------------------------

@pytest.mark.slow
@pytest.mark.parametrize("text", [
    "ab." * 20000, "www." * 20000, "a@" * 20000, "a:" * 20000, "1." * 20000, "1 " * 20000, "ab:" * 20000,
    "http://" + "a/" * 20000, "x://a:" * 5000, "https://a.com/x" + "." * 20000, "password" + " :" * 20000,
])
def test_pathological_inputs_find_nothing(all_rules, text):
    assert detect_with_rules(text, "fr", all_rules) == []


@pytest.mark.parametrize("text, value", [
    ('SLACK_WEBHOOK: "https://hooks.slack.com/services/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"',
     "https://hooks.slack.com/services/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"),
    ("SENTRY_DSN=https://0a1b2c3d4e5f60718293a4b5c6d7e8f9@o123456.ingest.sentry.io/7654321",
     "https://0a1b2c3d4e5f60718293a4b5c6d7e8f9@o123456.ingest.sentry.io/7654321"),
])
def test_a_url_that_is_a_credential_is_one_secret(text, value):
    spans = Engine(use_model=False).detect(text)
    assert [(text[s.start:s.end], s.label) for s in spans] == [(value, "SECRET")]


def test_doctests_of_the_patterns_run():
    import doctest

    from alias_engine.detectors import patterns
    assert doctest.testmod(patterns).failed == 0
