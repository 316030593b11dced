"""Surrogates: realistic, same format, valid checksums, consistent, deterministic, never a real value."""

from __future__ import annotations

import random

import phonenumbers
import pytest
import regex
from _session_helpers import DETECTOR
from hypothesis import given, settings
from hypothesis import strategies as st

from alias_engine import Session
from alias_engine.pseudonymise.names import load_names
from alias_engine.pseudonymise.surrogates import _data, fill, seeded
from alias_engine.restore import norm_key
from alias_engine.validators import card, iban, nino, nir, ssn

NAMES = load_names()


def surrogate(text: str, key: bytes = b"k") -> tuple[str, dict]:
    session = Session(DETECTOR, mode="surrogate", key=key)
    result = session.mask(text)
    return result.text, {v if isinstance(v, str) else v[0]: k for k, v in result.mapping.items()}


def shape(value: str) -> str:
    """Where the separators are: the format without the characters."""
    return regex.sub(r"[A-Za-z0-9]", "X", value)


@pytest.mark.parametrize("validator, generate", [
    (iban, lambda rng: iban.format(iban.generate(rng))),
    (card, lambda rng: card.format(card.generate(rng))),
    (nir, lambda rng: nir.format(nir.generate(rng))),
    (ssn, lambda rng: ssn.format(ssn.generate(rng))),
    (nino, lambda rng: nino.format(nino.generate(rng))),
], ids=["iban", "card", "nir", "ssn", "nino"])
@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32))
def test_checksummed_surrogates_are_valid_and_keep_the_format(validator, generate, seed):
    value = generate(random.Random(seed))
    keyword = {"iban": "IBAN", "card": "card", "nir": "NIR", "ssn": "SSN", "nino": "NINO"}[validator.__name__.split(".")[-1]]
    text = f"{keyword} {value}"
    _, fakes = surrogate(text, key=str(seed).encode())
    assert value in fakes, "the rules did not detect the value"
    fake = fakes[value]
    assert validator.is_valid(fake)
    assert shape(fake) == shape(value)
    assert validator.compact(fake) != validator.compact(value)
    if validator is iban:
        assert fake[:2] == value[:2]  # same country
    if validator is card:
        assert card.brand(fake) == card.brand(value)


def test_nir_agrees_with_the_fake_birth_date_and_sex():
    text = "Mme Marie Dupont, née le 12/03/1985, NIR 2 85 03 75 116 238 42."
    _, fakes = surrogate(text)
    fake_date, fake_nir = fakes["12/03/1985"], fakes["2 85 03 75 116 238 42"]
    day, month, year = fake_date.split("/")
    assert nir.is_valid(fake_nir)
    assert fake_nir[0] == "2"  # a woman, like the original and like "née"
    assert fake_nir[2:4] == year[2:] and fake_nir[5:7] == month
    assert NAMES.gender_of(fakes["Marie Dupont"].split()[0]) == "f"


@pytest.mark.parametrize("phone, region", [
    ("06 12 34 56 78", "FR"), ("+33 6 12 34 56 78", None), ("01.45.67.89.10", "FR"),
    ("(415) 555-2671", "US"), ("+44 7911 123456", None),
])
def test_phones_keep_their_national_format(phone, region):
    _, fakes = surrogate(f"Téléphone : {phone}")
    fake = fakes[phone]
    assert shape(fake) == shape(phone) and fake != phone
    parsed = phonenumbers.parse(fake, region)
    assert phonenumbers.is_valid_number(parsed)
    original = phonenumbers.parse(phone, region)
    assert parsed.country_code == original.country_code
    assert phonenumbers.number_type(parsed) == phonenumbers.number_type(original)


def test_names_keep_gender_and_origin():
    text = ("Mme Fatou Diallo et M. Karim Benali ont vu Mr John Smith et Mrs Mary Johnson, "
            "puis Jean Dupont (né le 01/02/1970).")
    _, fakes = surrogate(text)
    expected = {"Fatou Diallo": ("f", "west_africa"), "Karim Benali": ("m", "maghreb"),
                "John Smith": ("m", "en"), "Mary Johnson": ("f", "en"), "Jean Dupont": ("m", "fr")}
    for name, (gender, origin) in expected.items():
        given_name, family = fakes[name].split(" ", 1)
        assert NAMES.gender_of(given_name) == gender, name
        assert NAMES.last_origin[family.casefold()] == origin, name
        assert given_name not in name and family not in name


def test_email_is_built_on_the_fake_name():
    _, fakes = surrogate("Mary Johnson: mary.johnson@outlook.com, m.johnson@johnson-law.co.uk")
    given_name, family = (w.lower() for w in fakes["Mary Johnson"].split())
    assert fakes["mary.johnson@outlook.com"] == f"{given_name}.{family}@outlook.com"
    local, domain = fakes["m.johnson@johnson-law.co.uk"].split("@")
    assert local.endswith("." + family) and domain == f"{family}-law.co.uk"


def test_addresses_look_real():
    data = _data()["addresses"]
    cities = {f"{p} {c}" for p, c in data["fr"]["cities"]}
    _, fakes = surrogate("J'habite 12 rue des Lilas, 75011 Paris et lui 8 avenue Jean Jaurès\n69007 Lyon.")
    first, street, city = fakes["12 rue des Lilas, 75011 Paris"], fakes["8 avenue Jean Jaurès"], fakes["69007 Lyon"]
    assert regex.fullmatch(r"\d+ rue .+, \d{5} .+", first) and first.split(", ")[1] in cities
    # the two lines of an address are masked apart (no pseudonym swallows a line break), each like itself
    assert regex.fullmatch(r"\d+ avenue .+", street) and city in cities
    _, fakes = surrogate("742 Evergreen Terrace, Springfield, IL 62704 or 221B Baker Street, London NW1 6XE")
    assert regex.fullmatch(r"\d+ .+, [A-Z][a-z]+, [A-Z]{2} \d{5}", fakes["742 Evergreen Terrace, Springfield, IL 62704"])
    assert regex.fullmatch(r"\d+B .+ Street, [A-Za-z]+ [A-Z0-9]+ [A-Z0-9]+", fakes["221B Baker Street, London NW1 6XE"])


def test_surrogates_never_repeat_a_real_value_nor_collide():
    text = ("Jean Dupont, Marie Dupont, Anne Martin, John Smith, Mary Johnson, Emily Clarke, Karim Benali, "
            "Fatou Diallo, Jean Moreau; 06 12 34 56 78, 06 12 34 56 79, 4111 1111 1111 1111, 123-45-6789")
    masked, fakes = surrogate(text)
    originals = {norm_key(v) for v in fakes}
    assert not originals & {norm_key(f) for f in fakes.values()}
    assert len(set(fakes.values())) == len(fakes)
    for word in regex.findall(r"\p{L}+", " ".join(fakes)):
        if len(word) > 2:
            assert not regex.search(rf"(?<!\w){word}(?!\w)", masked), word


def test_seeding_is_keyed_and_fill_keeps_case():
    assert seeded(b"a", "x").random() == seeded(b"a", "x").random()
    assert seeded(b"a", "x").random() != seeded(b"b", "x").random()
    assert fill("ab-12 C", "XY34Z") == "xy-34 Z"
    assert fill("ab", "XYZ") is None


def test_the_fake_street_alone_restores_the_real_street():
    session = Session(DETECTOR, mode="surrogate", key=b"k")
    result = session.mask("J'habite 12 rue des Lilas, 75011 Paris.")
    street = result.text.split("J'habite ")[1].split(",")[0]
    assert session.unmask(f"Le {street} est loin.") == "Le 12 rue des Lilas est loin."


def _ctx(lang: str = "fr"):
    from alias_engine.pseudonymise.surrogates import Context

    return Context(lambda w: None, lambda rng: ("Paul", "Martin"), lambda y, m: (y + 2, m % 12 + 1), lang,
                   lambda w: "Martin")


@pytest.mark.parametrize("value, expected", [
    ("12/03/1985", r"\d\d/04/1987"), ("1985-03-12", r"1987-04-\d\d"), ("12 mars 1985", r"\d{1,2} avril 1987"),
    ("March 12, 1985", r"April \d{1,2}, 1987"), ("12th March 1985", r"\d{1,2}(st|nd|rd|th) April 1987"),
    ("12.03.85", r"\d\d\.04\.87"), ("MARS 1985", r"AVRIL 1987"), ("03/1985", r"04/1987"), ("1985", r"1987"),
    ("12 déc. 1985", r"\d{1,2} janv\. 1987"),
])
def test_birth_dates_keep_their_format(value, expected):
    from alias_engine.pseudonymise.surrogates import fake_birth_date

    assert regex.fullmatch(expected, fake_birth_date(value, random.Random(3), _ctx()))


@pytest.mark.parametrize("value, expected", [
    ("12 bis rue des Lilas 75011 Paris", r"\d+ bis rue .+ \d{5} [\p{L}\- ]+"),
    ("Appartement 4, 12 rue des Lilas, 75011 Paris, France", r"Appartement \d, \d+ rue .+, \d{5} .+, France"),
    ("Flat 2, 10 High Street\nLeeds LS1 4DY", r"Flat \d, \d+ .+ Street\n[A-Za-z]+ [A-Z0-9]+ [A-Z0-9]+"),
    ("10 Downing St", r"\d+ [A-Za-z]+ St"),
    ("12 RUE DES LILAS, 75011 PARIS", r"\d+ RUE [\p{Lu}' \-]+, \d{5} [\p{Lu}\- ]+"),
])
def test_addresses_keep_their_parts(value, expected):
    from alias_engine.pseudonymise.surrogates import fake_address

    fake = fake_address(value, random.Random(5), _ctx())
    assert regex.fullmatch(expected, fake), fake
    assert "Lilas" not in fake and "75011" not in fake and "Leeds" not in fake


def test_identifier_surrogates_do_not_keep_names_written_in_them():
    import random

    from alias_engine.pseudonymise.surrogates import fake_identifier

    rng = random.Random(1)
    for value in ("jdupont1985", "DUPONT-JEAN-2019-44", "marie.curie42"):
        fake = fake_identifier(value, rng)
        assert len(fake) == len(value)
        assert not any(part in fake.lower() for part in ("dupont", "jean", "marie", "curie"))
    assert fake_identifier("CT-2023-99812", rng).startswith("CT-")


def test_url_surrogates_replace_a_host_that_may_be_the_persons_and_keep_shared_ones():
    from alias_engine import Engine

    session = Engine(use_model=False).session(mode="surrogate", key=b"k")
    text = "Mon site : https://www.jdupont-photo.fr/portfolio/2023 et https://www.linkedin.com/in/jean-dupont-1234"
    masked = session.mask(text).text
    assert "jdupont-photo" not in masked and "jean-dupont" not in masked
    assert "linkedin.com/in/" in masked
    assert session.unmask(masked) == text


def test_values_too_short_to_fake_get_a_placeholder_that_restores_only_itself():
    session = Session(DETECTOR, mode="surrogate", key=b"k")
    text = "Dossier n° 123 de Jean Dupont, client ID: 4521."
    result = session.mask(text)
    assert "123" not in result.text and "4521" not in result.text and "Jean" not in result.text
    assert result.mapping["[IDENTIFIER_1]"] == "123" and result.mapping["[IDENTIFIER_2]"] == "4521"
    assert session.unmask(result.text) == text
    answer = "Le dossier [IDENTIFIER_1] a 414 pages, ouvert en 2024 ; client IDENTIFIER_2."
    assert session.unmask(answer) == "Le dossier 123 a 414 pages, ouvert en 2024 ; client 4521."
    loaded = Session.from_dict(session.to_dict(), DETECTOR)
    assert loaded.unmask(answer) == session.unmask(answer)
    # a longer number still gets a realistic surrogate of the same shape
    long_id = session.mask("client ID: 4521998").text
    assert "[IDENTIFIER" not in long_id and regex.search(r"ID: \d{7}\b", long_id)


def test_shared_mailbox_words_are_kept_and_never_become_fake_surnames():
    session = Session(DETECTOR, mode="surrogate", key=b"k")
    text = "Écrivez à contact@cabinet-martin.fr, jean.support@dupont-immo.fr ou jdupont85@acme.fr."
    result = session.mask(text)
    by_original = {v: k for k, v in result.mapping.items()}
    shared = by_original["contact@cabinet-martin.fr"]
    assert shared.startswith("contact@") and "cabinet-martin" not in shared
    personal = by_original["jean.support@dupont-immo.fr"]
    assert personal.split("@")[0].endswith(".support") and "jean" not in personal and "dupont" not in personal
    assert "dupont" not in by_original["jdupont85@acme.fr"]  # letters and digits together: may be a name
    assert all(alias.original.casefold() not in ("contact", "support") for alias in session._state.part_aliases)
    assert session.unmask(result.text) == text
    more = "direction@jean-dupont.fr, no-reply@acme.fr"
    result = session.mask(more)
    fake_direction, fake_noreply = result.text.split(", ")
    assert fake_direction.startswith("direction@") and "dupont" not in fake_direction and "jean" not in fake_direction
    assert fake_noreply.startswith("no-reply@") and "acme" not in fake_noreply
    assert session.unmask(result.text) == more
