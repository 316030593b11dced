"""Our labels as Presidio's entity names, and back: the one table (needs no Presidio).

A NATIONAL_ID is named by what its value validates as (FR_NIR, US_SSN, UK_NINO) and
stays NATIONAL_ID otherwise (a passport, an ID card, a driving licence); a label that
Presidio has no name for (SECRET, a label a rules file declares) keeps its own name.

>>> presidio_entity("EMAIL", "jean@example.fr")
'EMAIL_ADDRESS'
>>> presidio_entity("NATIONAL_ID", "1 02 02 34 121 508 66")
'FR_NIR'
>>> label_of("DATE_TIME"), label_of("US_SSN"), label_of("EMPLOYEE_ID")
('BIRTH_DATE', 'NATIONAL_ID', 'EMPLOYEE_ID')
"""

from __future__ import annotations

from collections.abc import Iterable

from ..validators import nino, nir, ssn

# label -> Presidio entity name (docs/presidio.md prints this table)
PRESIDIO_ENTITIES: dict[str, str] = {
    "PERSON": "PERSON",
    "ADDRESS": "LOCATION",
    "EMAIL": "EMAIL_ADDRESS",
    "PHONE": "PHONE_NUMBER",
    "IBAN": "IBAN_CODE",
    "CREDIT_CARD": "CREDIT_CARD",
    "NATIONAL_ID": "NATIONAL_ID",
    "BIRTH_DATE": "DATE_TIME",
    "IDENTIFIER": "ID",
    "IP_ADDRESS": "IP_ADDRESS",
    "URL": "URL",
    "SECRET": "SECRET",
}

# A NATIONAL_ID whose value one of these validates gets its Presidio name, in this order.
NATIONAL_IDS: tuple[tuple[str, object], ...] = (("FR_NIR", nir), ("US_SSN", ssn), ("UK_NINO", nino))

_LABEL_OF: dict[str, str] = {entity: label for label, entity in PRESIDIO_ENTITIES.items()}
_LABEL_OF.update({name: "NATIONAL_ID" for name, _ in NATIONAL_IDS})


def presidio_entity(label: str, value: str = "") -> str:
    """The Presidio entity name of a span of `label` whose text is `value`."""
    if label == "NATIONAL_ID" and value:
        for name, validator in NATIONAL_IDS:
            try:
                if validator.is_valid(value):  # type: ignore[attr-defined]
                    return name
            except Exception:  # a validator that cannot read the value: the generic name
                continue
    return PRESIDIO_ENTITIES.get(label, label)


def presidio_entities(labels: Iterable[str]) -> list[str]:
    """Every entity name spans of `labels` may get (NATIONAL_ID gives four)."""
    out: list[str] = []
    for label in labels:
        out.append(PRESIDIO_ENTITIES.get(label, label))
        if label == "NATIONAL_ID":
            out += [name for name, _ in NATIONAL_IDS]
    return list(dict.fromkeys(out))


def label_of(entity: str) -> str:
    """Our label for a Presidio entity name of this table (any other name is taken as a label)."""
    return _LABEL_OF.get(entity, entity)
