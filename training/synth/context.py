"""Per-document state: the people in it and the resolution of template placeholders."""

from __future__ import annotations

import random

from training.synth import addresses, negatives, values
from training.synth.fakers import Fakers
from training.synth.names import Name, nom_prenom, random_name_in_split, surface, title, with_initials

# Keys whose value is drawn again at each mention (others stay the same within a document).
_FRESH = frozenset({"PERSON", "SIGN", "DATE", "PUBURL", "PLACEHOLDER", "HASH", "CITY", "COUNTRY", "VERSION",
                    "AMOUNT", "TIME", "INVOICE", "ORDER", "TICKET", "TRACKING", "SECRET", "NATID", "ID",
                    "TITLE", "LAST4", "UA", "CONTAINER", "PORTS", "SOFTWARE",
                    "MODEL", "DIGEST", "COMMIT", "BANKREF", "NOLUHN", "ATTACKER", "PIN", "HEALTHNO",
                    "FOREIGNID", "CNID", "SHARELINK", "PORT", "CLF", "SHA", "MD5",
                    "NUM", "PASSPORTX", "NHSNO", "URIPWD", "SVCUSER", "BOOKING", "MASKEDCARD",
                    "HEADING", "EXAMPLE", "DEPT", "STATUS", "SALARY", "XAMOUNT", "ISODATE"})


class Ctx:
    def __init__(self, rng: random.Random, fakers: Fakers, lang: str, invalid_rate: float = 0.08,
                 split: str = "all") -> None:
        self.rng = rng
        self.split = split
        self.fakers = fakers
        self.lang = lang
        self.invalid_rate = invalid_rate
        self._people: dict[int, Name] = {}
        self._cache: dict[tuple[str, int], tuple[str, str | None]] = {}
        self._company: str | None = None

    def person(self, n: int = 1) -> Name:
        p = self._people.get(n)
        if p is None:
            p = random_name_in_split(self.rng, self.fakers, self.lang, self.split)
            self._people[n] = p
        return p

    def company(self) -> str:
        if self._company is None:
            self._company = negatives.company(self.rng, self.fakers, self.lang)
        return self._company

    def resolve(self, key: str, n: int = 1):
        if key not in _FRESH and (key, n) in self._cache:
            return self._cache[(key, n)]
        out = self._make(key, n)
        if key not in _FRESH:
            self._cache[(key, n)] = out
        return out

    def _bad(self) -> bool:
        return self.rng.random() < self.invalid_rate

    def _make(self, key: str, n: int):
        rng, fk, lang = self.rng, self.fakers, self.lang
        p = self.person(n) if key in _PERSONAL else None
        if key == "PERSON":
            return surface(rng, p), "PERSON"
        if key == "FULL":
            return surface(rng, p, rng.choice(("full", "full", "full", "last_first_caps", "middle"))), "PERSON"
        if key == "PLAIN":
            return f"{p.first} {p.last}", "PERSON"
        if key == "CHILD":
            return f"{p.first} {self.person(1).last}", "PERSON"
        if key == "FIRST":
            return p.first, "PERSON"
        if key == "LAST":
            return p.last, "PERSON"
        if key == "SIGN":
            return surface(rng, p, rng.choice(("full", "full", "first", "initial_last", "caps", "last_first_caps"))), "PERSON"
        if key == "TITLE":
            return title(rng, p, lang), None
        if key == "ADDRESS":
            return addresses.random_address(rng, fk, lang), "ADDRESS"
        if key == "STREET":
            return addresses.street_only(rng, fk, lang), "ADDRESS"
        if key == "ZIP":
            return addresses.zip_code(rng, fk, lang), "ADDRESS"
        if key == "EMAIL":
            return values.email(rng, fk, p, negatives.company_domain(self.company())), "EMAIL"
        if key == "PHONE":
            return values.phone(rng, fk, lang), "PHONE"
        if key == "IBAN":
            return values.iban(rng, valid=not self._bad()), "IBAN"
        if key == "CARD":
            return values.credit_card(rng, valid=not self._bad()), "CREDIT_CARD"
        if key == "NIR":
            return values.nir(rng, valid=not self._bad()), "NATIONAL_ID"
        if key == "SSN":
            return values.ssn(rng), "NATIONAL_ID"
        if key == "NINO":
            return values.nino(rng), "NATIONAL_ID"
        if key == "PASSPORT":
            return values.passport(rng), "NATIONAL_ID"
        if key == "IDCARD":
            return values.id_card(rng), "NATIONAL_ID"
        if key == "DL":
            return values.driving_licence(rng, p), "NATIONAL_ID"
        if key == "DNI":
            return values.dni(rng), "NATIONAL_ID"
        if key == "CODFISC":
            return values.codice_fiscale(rng, p), "NATIONAL_ID"
        if key == "BENN":
            return values.belgian_nn(rng), "NATIONAL_ID"
        if key == "NATID":
            return self._make(rng.choice(("NIR", "SSN", "NINO", "PASSPORT", "IDCARD", "DL", "NIR", "SSN", "DNI", "CODFISC", "BENN")), n)
        if key == "DOB":
            return values.birth_date(rng, lang), "BIRTH_DATE"
        if key == "IP":
            return values.ip_address(rng, fk), "IP_ADDRESS"
        if key == "URL":
            return values.person_url(rng, fk, p), "URL"
        if key == "PASSWORD":
            return values.password(rng), "SECRET"
        if key == "APIKEY":
            return values.api_key(rng), "SECRET"
        if key == "JWT":
            return values.jwt(rng, p), "SECRET"
        if key == "PRIVKEY":
            return values.private_key(rng), "SECRET"
        if key == "CONNSTR":
            return values.connection_string(rng, p)
        if key == "SECRET":
            return self._make(rng.choice(("PASSWORD", "APIKEY", "APIKEY", "JWT")), n)
        if key == "NOMPRENOM":
            return nom_prenom(rng, p), "PERSON"
        if key == "INITIALS":
            return with_initials(rng, p), "PERSON"
        if key == "ORGMAIL":
            return values.role_email(rng, negatives.company_domain(self.company())), "EMAIL"
        if key == "FOREIGNID":
            return values.foreign_id(rng)[0], "NATIONAL_ID"
        if key == "RPPS":
            return values._digits(rng, 11 if lang == "fr" else 7), "IDENTIFIER"
        if key == "PASSPORTX":
            return values.foreign_passport(rng), "NATIONAL_ID"
        if key == "CNID":
            return values.chinese_resident_id(rng), "NATIONAL_ID"
        if key == "HEALTHNO":
            return values.health_insurance_number(rng), "NATIONAL_ID"
        if key == "NHSNO":
            return values.nhs_number(rng), "IDENTIFIER"
        if key == "SHARELINK":
            return values.share_link(rng, p), "URL"
        if key == "PORTFOLIO":
            return values.portfolio_url(rng, p), "URL"
        if key == "PIN":
            return values.pin_code(rng), "SECRET"
        if key == "URIPWD":
            return values.uri_password(rng), "SECRET"
        if key == "CVV":
            return values._digits(rng, rng.choice((3, 3, 3, 4))), "SECRET"
        if key in _ID_KINDS:
            return values.identifier(rng, _ID_KINDS[key], p), "IDENTIFIER"
        if key == "ID":
            return self._make(rng.choice(tuple(_ID_KINDS)), n)
        return self._negative(key), None

    def _negative(self, key: str) -> str:
        rng, fk, lang = self.rng, self.fakers, self.lang
        if key == "COMPANY":
            return self.company()
        if key == "COMPANYDOMAIN":
            return negatives.company_domain(self.company()).replace(".com", self.rng.choice((".com", ".fr", ".eu", ".co.uk")))
        if key == "COMPANY_ADDR":
            return negatives.company_address(rng, fk, lang)
        if key == "COMPANY_BLOCK":
            return negatives.company_address(rng, fk, lang, block=True)
        if key == "SWITCHBOARD":
            return negatives.switchboard(rng, lang)
        if key == "INVOICE":
            return negatives.invoice_number(rng)
        if key == "ORDER":
            return negatives.order_number(rng)
        if key == "TICKET":
            return negatives.ticket_number(rng)
        if key == "TRACKING":
            return negatives.tracking_number(rng)
        if key == "SIRET":
            return negatives.siret(rng)
        if key == "SIREN":
            return negatives.siren(rng)
        if key == "VAT":
            return negatives.vat(rng)
        if key == "VERSION":
            return negatives.version(rng)
        if key == "DATE":
            return negatives.public_date(rng, lang)
        if key == "PUBURL":
            return rng.choice(negatives.PUBLIC_URLS)
        if key == "PLACEHOLDER":
            return rng.choice(negatives.PLACEHOLDERS)
        if key == "HASH":
            return negatives.hash_value(rng)
        if key == "CITY":
            return addresses.lone_place(rng, fk, lang) if rng.random() < 0.5 else rng.choice(addresses.FR_CITIES)[1]
        if key == "COUNTRY":
            return rng.choice(addresses.WORLD_COUNTRIES)
        if key == "BIC":
            return negatives.bic(rng)
        if key == "LAST4":
            return values._digits(rng, 4)
        if key == "AMOUNT":
            amount = f"{rng.randint(5, 9999)},{rng.randint(0, 99):02d}"
            return f"{amount} €" if lang == "fr" else f"${amount.replace(',', '.')}"
        if key == "TIME":
            return f"{rng.randint(7, 19)}h{rng.choice(('00', '15', '30', '45'))}" if lang == "fr" else f"{rng.randint(1, 12)}:{rng.choice(('00', '15', '30', '45'))} {rng.choice(('am', 'pm'))}"
        if key == "EXPIRY":
            return f"{rng.randint(1, 12):02d}/{rng.randint(25, 31)}"
        if key == "BOOKING":
            return negatives.booking_reference(rng)
        if key == "MASKEDCARD":
            return negatives.masked_card(rng)
        if key == "ORGFAX":
            return negatives.switchboard(rng, lang)
        if key == "ORGURL":
            return negatives.company_url(rng, negatives.company_domain(self.company()))
        if key == "DSN":
            return negatives.sentry_dsn(rng)
        if key == "UA":
            return negatives.user_agent(rng)
        if key == "CONTAINER":
            return negatives.container_id(rng)
        if key == "PORTS":
            return negatives.port_mapping(rng)
        if key == "SOFTWARE":
            return negatives.software_version(rng)
        if key == "MODEL":
            return negatives.product_model(rng)
        if key == "DIGEST":
            return negatives.digest(rng)
        if key == "COMMIT":
            return values.rand_str(rng, values.HEX, rng.choice((7, 8, 40)))
        if key == "SEPAID":
            return negatives.sepa_creditor_id(rng)
        if key == "BANKREF":
            return negatives.bank_reference(rng)
        if key == "NOLUHN":
            return negatives.luhn_failing_number(rng)
        if key == "ATTACKER":
            return negatives.attacker_login(rng)
        if key == "CLF":
            return (f"{rng.randint(1, 28):02d}/{rng.choice(values.EN_MONTHS_ABBR)}/{rng.randint(2023, 2026)}:"
                    f"{rng.randint(0, 23):02d}:{rng.randint(0, 59):02d}:{rng.randint(0, 59):02d} +0{rng.randint(0, 2)}00")
        if key == "SVCUSER":
            return rng.choice(("app", "postgres", "svc_api", "admin", "backend"))
        if key == "SHA":
            return values.rand_str(rng, values.HEX, 64)
        if key == "MD5":
            return values.rand_str(rng, values.HEX, 32)
        if key == "ENVREF":
            return rng.choice(("${DB_PASSWORD}", "${POSTGRES_PASSWORD}", "${JWT_SECRET}", "$SECRET_KEY", "%(DB_PASS)s",
                               "${{ secrets.DB_PASSWORD }}", "${env:API_TOKEN}"))
        if key == "NUM1":
            return str(rng.randint(1, 4))
        if key == "PORT":
            return str(rng.choice((22, 80, 443, 3306, 5432, 6379, 8080, 8443, 9200)))
        if key == "NUM":
            return str(rng.randint(2, 500))
        if key == "HEADING":
            return negatives.heading(rng, lang)
        if key in _BRAND_KINDS:
            return negatives.brand(rng, fk, lang, _BRAND_KINDS[key])
        if key == "EXAMPLE":
            return negatives.example_secret(rng)
        if key == "HOTLINE":
            return negatives.hotline(rng, lang)
        if key == "DEPT":
            return negatives.department(rng, lang)
        if key == "STATUS":
            return negatives.status(rng, lang)
        if key == "SALARY":
            return negatives.salary(rng, lang)
        if key == "XAMOUNT":
            return negatives.machine_amount(rng)
        if key == "ISODATE":
            return negatives.iso_date(rng)
        raise KeyError(f"unknown template placeholder {key}")


_BRAND_KINDS = {"SHOP": "shop", "CAR": "car", "APP": "app", "COURIER": "courier", "PRODUCT": "product"}
_ID_KINDS = {
    "USERNAME": "username", "LOGIN": "login", "PLATE": "plate", "CUSTID": "customer", "PATID": "patient",
    "EMPID": "employee", "MEMBERID": "member", "POLICY": "policy", "CONTRACT": "contract", "FILEID": "file",
    "ACCOUNT": "account", "STUDENT": "student", "BENEFIT": "benefit", "CLAIM": "claim",
}
_PERSONAL = frozenset({"PERSON", "FULL", "PLAIN", "CHILD", "FIRST", "LAST", "SIGN", "TITLE", "EMAIL", "DL", "NATID", "URL", "CODFISC",
                       "JWT", "CONNSTR", "ID", "NOMPRENOM", "INITIALS", "SHARELINK", "PORTFOLIO"} | set(_ID_KINDS))


def in_lang(templates: dict, ctx: Ctx, name: str):
    """The template list `name` in the document's language: templates[NAME_FR] or templates[NAME_EN]."""
    return templates[f"{name}_{ctx.lang.upper()}"]
