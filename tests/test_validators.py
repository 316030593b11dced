"""Validators: valid vectors generated with stdnum and generate(), hand-picked ones, and invalid ones."""

from __future__ import annotations

import random

import pytest
from stdnum import iban as stdnum_iban
from stdnum import luhn
from stdnum.fr import nir as stdnum_nir
from stdnum.us import ssn as stdnum_ssn

from alias_engine.errors import AliasEngineError
from alias_engine.validators import VALIDATORS, card, gb_dl, iban, nhs, nino, nir, ssn, vin
from alias_engine.validators.errors import (
    InvalidChecksum,
    InvalidComponent,
    InvalidFormat,
    InvalidLength,
    ValidationError,
)

SEEDS = range(40)


def _flip_last_digit(number: str) -> str:
    return number[:-1] + str((int(number[-1]) + 1) % 10)


# --- generated vectors, checked against stdnum itself -------------------------------------


@pytest.mark.parametrize("name", sorted(VALIDATORS))
@pytest.mark.parametrize("seed", SEEDS)
def test_generated_values_validate_in_every_written_form(name, seed):
    module = VALIDATORS[name]
    value = module.generate(random.Random(seed))
    assert module.validate(value) == value
    assert module.is_valid(value)
    formatted = module.format(value)
    assert module.validate(formatted) == value
    assert module.compact(formatted) == value
    assert module.validate(formatted.replace(" ", "-")) == value
    assert module.validate(f"  {formatted.lower()}  ") == value


@pytest.mark.parametrize("seed", SEEDS)
def test_generated_values_are_valid_for_stdnum(seed):
    rng = random.Random(seed)
    assert stdnum_iban.is_valid(iban.generate(rng))
    assert stdnum_nir.is_valid(nir.generate(rng))
    assert stdnum_ssn.is_valid(ssn.format(ssn.generate(rng)))
    assert luhn.is_valid(card.generate(rng))


@pytest.mark.parametrize("country", iban.GENERATE_COUNTRIES + ("BE", "NO", "GR", "SA"))
def test_iban_every_country_generates_valid_values_of_its_length(country):
    for seed in range(5):
        value = iban.generate(random.Random(seed), country)
        assert value.startswith(country)
        assert len(value) == iban.expected_length(country)
        assert stdnum_iban.is_valid(value)


def test_iban_french_values_have_a_correct_rib_key():
    for seed in range(20):
        value = iban.generate(random.Random(seed), "FR")
        bank, branch, account, key = value[4:9], value[9:14], value[14:25], value[25:]
        assert (89 * int(bank) + 15 * int(branch) + 3 * int(account) + int(key)) % 97 == 0


@pytest.mark.parametrize("seed", SEEDS)
def test_iban_stdnum_built_values_from_random_bban(seed):
    # Build an IBAN with stdnum's own check-digit function rather than ours.
    rng = random.Random(seed)
    bban = "".join(rng.choice("0123456789") for _ in range(18))
    value = "NL" + stdnum_iban.calc_check_digits("NL00ABNA" + bban[:10]) + "ABNA" + bban[:10]
    assert iban.validate(stdnum_iban.format(value)) == value
    assert not iban.is_valid(value[:2] + f"{(int(value[2:4]) + 1) % 100:02d}" + value[4:])


@pytest.mark.parametrize("seed", SEEDS)
def test_nir_generator_honours_sex_year_and_month(seed):
    rng = random.Random(seed)
    value = nir.generate(rng, sex=2, birth_year=1987, birth_month=3)
    assert value.startswith("28703")
    assert stdnum_nir.is_valid(value)


@pytest.mark.parametrize("brand", sorted({entry[0] for entry in card.BRANDS}))
def test_card_generator_covers_every_brand(brand):
    for seed in range(10):
        value = card.generate(random.Random(seed), brand)
        assert card.brand(value) == brand
        assert card.validate(value) == value


# --- hand-picked valid vectors --------------------------------------------------------------


@pytest.mark.parametrize(
    "value, compact",
    [
        ("FR76 3000 6000 0112 3456 7890 189", "FR7630006000011234567890189"),
        ("GB29 NWBK 6016 1331 9268 19", "GB29NWBK60161331926819"),
        ("DE89370400440532013000", "DE89370400440532013000"),
        ("BE68 5390 0754 7034", "BE68539007547034"),
        ("CH93-0076-2011-6238-5295-7", "CH9300762011623852957"),
    ],
)
def test_iban_known_values(value, compact):
    assert iban.validate(value) == compact
    assert iban.format(compact) == " ".join(compact[i:i + 4] for i in range(0, len(compact), 4))


@pytest.mark.parametrize(
    "value, compact",
    [
        ("2 95 10 99 126 111 93", "295109912611193"),
        ("1 85 05 78 006 084 91", "185057800608491"),
        ("253072B07300470", "253072B07300470"),  # Corsica 2B
        ("2 53 07 2a 073 004 43", "253072A07300443"),  # Corsica 2A, lower case
        ("1.85.05.78.006.084.91", "185057800608491"),
    ],
)
def test_nir_known_values(value, compact):
    assert nir.validate(value) == compact


@pytest.mark.parametrize("value", ["536-90-4399", "536 90 4399", "536904399", "123-45-6789"])
def test_ssn_known_values(value):
    assert ssn.validate(value) == value.replace("-", "").replace(" ", "")
    assert ssn.format(value) == ssn.format(ssn.compact(value))


@pytest.mark.parametrize("value", ["AB 12 34 56 C", "AB123456D", "jg 10 37 78 a", "AB 12 34 56", "CE-12-34-56-B"])
def test_nino_known_values(value):
    assert nino.is_valid(value)
    assert nino.format(nino.validate(value)).replace(" ", "") == nino.compact(value)


@pytest.mark.parametrize(
    "value, brand",
    [
        ("4111 1111 1111 1111", "visa"),
        ("4012888888881881", "visa"),
        ("5555 5555 5555 4444", "mastercard"),
        ("2223 0031 2200 3222", "mastercard"),
        ("3782 822463 10005", "amex"),
        ("3714 496353 98431", "amex"),
        ("6011 1111 1111 1117", "discover"),
        ("3056 9309 0259 04", None),  # 14-digit Diners outside 36: rejected on purpose
        ("3622 720627 1667", "diners"),
        ("3530 1113 3330 0000", "jcb"),
        ("6200 0000 0000 0005", "unionpay"),
        ("6759 6498 2643 8453", "maestro"),
        ("4970 1012 3456 7893", "visa"),  # French CB co-branded with Visa
    ],
)
def test_card_known_values(value, brand):
    assert card.is_valid(value) is (brand is not None)
    if brand:
        assert card.brand(value) == brand
        assert card.validate(value) == value.replace(" ", "")


# --- invalid vectors ------------------------------------------------------------------------


@pytest.mark.parametrize("seed", SEEDS)
def test_bad_check_digits_are_rejected(seed):
    rng = random.Random(seed)
    with pytest.raises(InvalidChecksum):
        iban.validate(_flip_last_digit(iban.generate(rng, "FR")))
    with pytest.raises(InvalidChecksum):
        nir.validate(_flip_last_digit(nir.generate(rng)))
    with pytest.raises(InvalidChecksum):
        card.validate(_flip_last_digit(card.generate(rng)))


@pytest.mark.parametrize(
    "module, value, error",
    [
        (iban, "FR76 3000 6000 0112 3456 7890 18", InvalidLength),
        (iban, "FR76 3000 6000 0112 3456 7890 1890", InvalidLength),
        (iban, "XX76 3000 6000 0112 3456 7890 189", ValidationError),
        (iban, "FR7É30006000011234567890189", InvalidFormat),
        (iban, "GB29 1WBK 6016 1331 9268 19", InvalidChecksum),
        (nir, "2 95 10 99 126 111 9", InvalidLength),
        (nir, "2951099126111930", InvalidLength),
        (nir, "253072C07300443", InvalidFormat),
        (nir, "295109912611199", InvalidChecksum),
        (nir, "595109912611140", InvalidComponent),  # 5 is not a sex digit (key is right)
        (nir, "295139912611144", InvalidComponent),  # month 13 (key is right)
        (ssn, "000-12-3456", InvalidComponent),
        (ssn, "666-12-3456", InvalidComponent),
        (ssn, "912-34-5678", InvalidComponent),
        (ssn, "123-00-4567", InvalidComponent),
        (ssn, "123-45-0000", InvalidComponent),
        (ssn, "078-05-1120", InvalidComponent),
        (ssn, "123-45-678", InvalidLength),
        (ssn, "12a-45-6789", InvalidFormat),
        (nino, "DA 12 34 56 A", InvalidComponent),
        (nino, "AO 12 34 56 A", InvalidComponent),
        (nino, "QQ 12 34 56 C", InvalidComponent),  # HMRC's documentation example: Q is excluded
        (nino, "AB 12 34 56 E", InvalidComponent),
        (nino, "AB 12 34 5", InvalidLength),
        (nino, "Q1 12 34 56 A", InvalidFormat),
        (card, "4111 1111 1111 1112", InvalidChecksum),
        (card, "1234 5678 9012 3452", InvalidComponent),
        (card, "4111 1111 1111 1", InvalidLength),  # 13-digit Visa not accepted
        (card, "7322 8293 2000 16", InvalidComponent),  # SIRET-like, Luhn valid
        (card, "4111-1111-1111-111a", InvalidFormat),
        (card, "12", InvalidLength),
        (gb_dl, "MORGA773116SM9IJ", InvalidComponent),   # month 23 (a woman's is 51-62)
        (gb_dl, "MORGA753136SM9IJ"[:15], InvalidLength),
        (gb_dl, "MO9GA753116SM9IJ", InvalidFormat),      # 9s pad the surname's end only
        (gb_dl, "1ORGA753116SM9IJ", InvalidFormat),
        (nhs, "943 476 5918", InvalidChecksum),
        (nhs, "943 476 591", InvalidLength),
        (nhs, "943 476 59a9", InvalidFormat),
        (nhs, "000 000 0000", InvalidFormat),
        (nhs, "123 456 7890", InvalidChecksum),       # 10 would be its check digit: no NHS number starts so
    ],
)
def test_invalid_values_raise_the_specific_error(module, value, error):
    with pytest.raises(error):
        module.validate(value)
    assert not module.is_valid(value)


@pytest.mark.parametrize("prefix", sorted(nino.UNALLOCATED_PREFIXES))
def test_nino_unallocated_prefixes(prefix):
    with pytest.raises(InvalidComponent):
        nino.validate(f"{prefix}123456A")


@pytest.mark.parametrize("letter", "DFIQUV")
def test_nino_excluded_letters(letter):
    assert not nino.is_valid(f"{letter}A123456A")
    assert not nino.is_valid(f"A{letter}123456A")
    assert not nino.is_valid("AO123456A")


@pytest.mark.parametrize("area", ["000", "666", "900", "950", "999"])
def test_ssn_excluded_areas(area):
    assert not ssn.is_valid(f"{area}-12-3456")


def test_siret_passes_luhn_but_is_not_a_card():
    siret = "73282932000074"
    assert luhn.is_valid(siret)
    assert not card.is_valid(siret)


@pytest.mark.parametrize("name", sorted(VALIDATORS))
@pytest.mark.parametrize("bad", [None, 123, b"4111111111111111", ["x"]])
def test_non_strings_give_a_clear_error(name, bad):
    module = VALIDATORS[name]
    with pytest.raises(InvalidFormat):
        module.validate(bad)
    assert not module.is_valid(bad)


def test_errors_belong_to_the_engine_hierarchy():
    for error in (InvalidFormat, InvalidLength, InvalidChecksum, InvalidComponent):
        assert issubclass(error, ValidationError)
    assert issubclass(ValidationError, AliasEngineError)
    assert issubclass(ValidationError, ValueError)


def test_cn_ric_survives_address_codes_that_python_stdnum_cannot_resolve():
    # python-stdnum raises KeyError on some address codes; the engine used to fail a whole
    # document on it ("rule detection failed (KeyError)").
    import doctest

    from alias_engine.validators import cn_ric

    assert cn_ric.is_valid("518516196406240120")
    assert not cn_ric.is_valid("518516196406240121")  # wrong check character
    assert not cn_ric.is_valid("518516196413240120")  # no 13th month
    assert doctest.testmod(cn_ric).failed == 0


@pytest.mark.parametrize("value", ["MORGA753116SM9IJ", "HARRI 812025 J99AB", "PATEL662105R99CD", "WU999702243A99KL"])
def test_gb_driving_licence_known_shapes(value):
    assert gb_dl.is_valid(value)
    assert gb_dl.format(gb_dl.validate(value)).replace(" ", "") == gb_dl.compact(value)


@pytest.mark.parametrize("value", ["VNK4BH1320T381542", "1FTRW08L83KD27316", "WF0XXXGCDX8A51962", "zfa31200007215948"])
def test_vin_known_shapes(value):
    assert vin.is_valid(value)
    assert vin.format(value) == value.upper()


@pytest.mark.parametrize("value, error", [
    ("VNK4BH1320T38154", InvalidLength),
    ("VNK4BH132IT381542", InvalidFormat),       # no I, O or Q
    ("VNK4BH1320T3815A2", InvalidFormat),       # the last four are digits
    ("0NK4BH1320T381542", InvalidFormat),       # no region starts with 0
    ("12345678901234567", InvalidComponent),    # digits alone: a number, no VIN
    ("53712XXXXXXXX4410", InvalidFormat),       # a card number masked with X
])
def test_vin_invalid_values(value, error):
    with pytest.raises(error):
        vin.validate(value)


def test_vin_generated_values_are_valid():
    rng = random.Random(7)
    assert all(vin.is_valid(vin.generate(rng)) for _ in range(200))


def test_nhs_doctests_run():
    import doctest
    result = doctest.testmod(nhs)
    assert result.attempted > 0 and result.failed == 0
