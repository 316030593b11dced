"""A transfer's reference written after the account it goes to is the payer's words, no one's record
(`payment_reference`, a suppress rule of rules/common.json). Every example is invented; the model's
span on the reference is given, so the rule is tested whatever the shipped model finds."""

import pytest
from _rules_helpers import detected


@pytest.mark.parametrize("text, lang, reference", [
    ("sort code 20-00-00 acc 41230987 ref ROOF-7 please", "en", "ROOF-7"),
    ("sort code 20-00-00 acc 41230987 reference ROOF-7 please", "en", "ROOF-7"),
    ("virement sur le compte n° 00041230987, réf. LOYER-JUIN", "fr", "LOYER-JUIN"),
    ("compte 00041230987 motif : LOYER-JUIN", "fr", "LOYER-JUIN"),
])
def test_a_transfers_reference_after_its_account_is_none(text, lang, reference):
    assert ("IDENTIFIER", reference) not in detected(text, lang, ("IDENTIFIER", reference))


@pytest.mark.parametrize("text, lang, value", [
    ("acc 41230987, customer number CUST-77120", "en", "CUST-77120"),         # no reference's word
    ("ref ROOF-7 for the account", "en", "ROOF-7"),                           # no account's number before it
    ("acc 41230987 refund CUST-77120", "en", "CUST-77120"),                   # a word that starts like one
])
def test_a_number_near_an_account_without_a_reference_before_it_stays(text, lang, value):
    assert ("IDENTIFIER", value) in detected(text, lang, ("IDENTIFIER", value))
