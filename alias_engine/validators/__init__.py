"""Validators for identifiers, one module each, in the style of python-stdnum.

Every module offers `compact(number)`, `validate(number)` (the compact form, or
a `ValidationError` subclass from `.errors`), `is_valid(number)`,
`format(number)` and `generate(rng)` (a random valid value, for surrogates).
"""

from types import ModuleType

from . import card, cn_ric, gb_dl, iban, nhs, nino, nir, ssn, vin
from .errors import InvalidChecksum, InvalidComponent, InvalidFormat, InvalidLength, ValidationError

VALIDATORS: dict[str, ModuleType] = {"iban": iban, "nir": nir, "ssn": ssn, "nino": nino, "card": card, "cn_ric": cn_ric,
                                   "gb_dl": gb_dl, "vin": vin, "nhs": nhs}

__all__ = ["VALIDATORS", "card", "cn_ric", "gb_dl", "iban", "nhs", "nino", "nir", "ssn", "vin", "ValidationError", "InvalidFormat",
           "InvalidLength", "InvalidChecksum", "InvalidComponent"]
