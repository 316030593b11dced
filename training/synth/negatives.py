"""Hard negatives: values that look personal but are labelled O."""

from __future__ import annotations

import random
import string

from stdnum import luhn

from training.synth.fakers import Fakers
from training.synth.values import EN_MONTHS, FR_MONTHS, HEX, UPPER_ALNUM, _digits, rand_str

COMPANY_SUFFIXES = ("SAS", "SARL", "SA", "Inc.", "Ltd", "GmbH", "LLC", "& Associés", "Group", "Conseil",
                    "Technologies", "Solutions", "Partners", "Assurances", "Banque", "Immobilier")
PUBLIC_URLS = (
    "https://docs.python.org/3/library/json.html", "https://www.service-public.fr", "https://www.ameli.fr",
    "https://www.impots.gouv.fr/portail/", "https://www.google.com", "https://fr.wikipedia.org/wiki/Paris",
    "https://github.com/pandas-dev/pandas/issues", "https://stackoverflow.com/questions/tagged/python",
    "https://www.legifrance.gouv.fr", "https://www.cnil.fr/fr/rgpd-de-quoi-parle-t-on",
    "https://developer.mozilla.org/en-US/docs/Web/HTTP", "https://www.gov.uk/apply-passport",
    "https://www.irs.gov/forms-pubs", "https://www.sncf-connect.com", "https://status.aws.amazon.com",
    "https://www.caf.fr", "https://www.pole-emploi.fr", "https://www.bbc.co.uk/news", "https://pypi.org/project/requests/",
    "https://learn.microsoft.com/en-us/azure/", "https://www.lemonde.fr", "https://www.who.int",
)
PLACEHOLDERS = ("YOUR_API_KEY", "<your-api-key>", "sk-xxxxxxxxxxxxxxxxxxxxxxxx", "********", "<password>",
                "REPLACE_ME", "${DB_PASSWORD}", "xxxx-xxxx-xxxx", "<token>", "YOUR_SECRET_HERE",
                "{{ secrets.API_TOKEN }}", "os.environ['API_KEY']", "XXXXXXXX", "•••••••")


def company(rng: random.Random, fakers: Fakers, lang: str) -> str:
    fk = fakers.get("fr_FR" if lang == "fr" else rng.choice(("en_US", "en_GB")), rng)
    name = fk.company()
    if rng.random() < 0.4:
        name = f"{fk.last_name()} {rng.choice(COMPANY_SUFFIXES)}"
    return name


def company_domain(name: str) -> str:
    base = "".join(c for c in name.lower() if c.isascii() and c.isalnum())[:16] or "acme"
    return base + ".com"


def switchboard(rng: random.Random, lang: str) -> str:
    if lang == "fr":
        return rng.choice(("01", "02", "03", "04", "05", "09")) + " " + " ".join(_digits(rng, 2) for _ in range(4))
    if rng.random() < 0.5:
        return f"1-800-{_digits(rng, 3)}-{_digits(rng, 4)}"
    return f"+44 20 {_digits(rng, 4)} {_digits(rng, 4)}"


def invoice_number(rng: random.Random) -> str:
    return rng.choice(("FA-", "INV-", "F", "FAC", "")) + f"{rng.randint(2019, 2026)}-{_digits(rng, 5)}"


def order_number(rng: random.Random) -> str:
    return rng.choice(("#", "CMD-", "ORD-", "", "N°")) + _digits(rng, rng.randint(6, 10))


def ticket_number(rng: random.Random) -> str:
    return rng.choice(("INC", "REQ", "TCK-", "#", "JIRA-", "SUP-")) + _digits(rng, rng.randint(4, 8))


def tracking_number(rng: random.Random) -> str:
    r = rng.random()
    if r < 0.4:
        return "1Z" + rand_str(rng, UPPER_ALNUM, 16)
    if r < 0.7:
        return rand_str(rng, string.ascii_uppercase, 2) + _digits(rng, 9) + "FR"
    return _digits(rng, 12)


def siren(rng: random.Random) -> str:
    body = _digits(rng, 8)
    return body + luhn.calc_check_digit(body)


def siret(rng: random.Random) -> str:
    body = siren(rng) + _digits(rng, 4)
    number = body + luhn.calc_check_digit(body)
    if rng.random() < 0.5:
        return f"{number[:3]} {number[3:6]} {number[6:9]} {number[9:]}"
    return number


def vat(rng: random.Random) -> str:
    s = siren(rng)
    key = (12 + 3 * (int(s) % 97)) % 97
    return rng.choice((f"FR{key:02d}{s}", f"FR {key:02d} {s}", f"DE{_digits(rng, 9)}", f"GB{_digits(rng, 9)}"))


def version(rng: random.Random) -> str:
    parts = [str(rng.randint(0, 20)) for _ in range(rng.choice((2, 3, 3, 4)))]
    return rng.choice(("", "v", "")) + ".".join(parts)


def public_date(rng: random.Random, lang: str) -> str:
    y = rng.randint(2018, 2026)
    m = rng.randint(1, 12)
    d = rng.randint(1, 28)
    r = rng.random()
    if r < 0.4:
        return f"{d:02d}/{m:02d}/{y}"
    if r < 0.55:
        return f"{y}-{m:02d}-{d:02d}"
    if lang == "fr":
        return f"{d} {FR_MONTHS[m - 1]} {y}"
    return f"{EN_MONTHS[m - 1]} {d}, {y}"


def hash_value(rng: random.Random) -> str:
    return rand_str(rng, HEX, rng.choice((7, 32, 40, 64)))


def bic(rng: random.Random) -> str:
    return rand_str(rng, string.ascii_uppercase, 4) + rng.choice(("FR", "DE", "GB", "BE")) + rand_str(rng, UPPER_ALNUM, 2) + rng.choice(("", "XXX", "PAR"))


def company_address(rng: random.Random, fakers: Fakers, lang: str, block: bool = False) -> str:
    """A company's address (labelled O): same shapes as a person's, told apart only by context."""
    sep = "\n" if block and rng.random() < 0.5 else ", "
    if lang == "fr":
        fk = fakers.get("fr_FR", rng)
        return f"{fk.street_address()}{sep}{fk.postcode()} {fk.city()}"
    fk = fakers.get(rng.choice(("en_US", "en_US", "en_GB")), rng)
    return fk.address().replace("\n", sep)
