"""Hard negatives: values that look personal but are labelled O."""

from __future__ import annotations

import json
import random
import string
from pathlib import Path

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
                "{{ secrets.API_TOKEN }}", "os.environ['API_KEY']", "XXXXXXXX", "•••••••", "changeme", "xxx", "****",
                "<mot-de-passe>", "your_password_here", "${API_KEY}", "<votre-clé-api>", "CHANGE_ME")


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


# Hand-written documents: organisations' contact blocks, technical strings and references
# that sit next to personal data but are not personal data themselves.

CHROME_MAJOR = range(100, 132)


def user_agent(rng: random.Random) -> str:
    """A browser user-agent string: product tokens and versions, no person in it."""
    major = rng.choice(CHROME_MAJOR)
    build = f"{major}.0.{rng.randint(4000, 6999)}.{rng.randint(10, 250)}"
    os_part = rng.choice(("Windows NT 10.0; Win64; x64", "Macintosh; Intel Mac OS X 10_15_7", "X11; Linux x86_64",
                          "Linux; Android 14; Pixel 8", "iPhone; CPU iPhone OS 17_4 like Mac OS X"))
    r = rng.random()
    if r < 0.5:
        return f"Mozilla/5.0 ({os_part}) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/{build} Safari/537.36"
    if r < 0.7:
        return (f"Mozilla/5.0 ({os_part}) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/{build} Safari/537.36 "
                f"Edg/{major}.0.{rng.randint(1000, 2999)}.{rng.randint(10, 99)}")
    if r < 0.85:
        ff = rng.randint(110, 130)
        return f"Mozilla/5.0 ({os_part}; rv:{ff}.0) Gecko/20100101 Firefox/{ff}.0"
    return rng.choice(("curl/8.5.0", "python-requests/2.31.0", "Go-http-client/1.1", "okhttp/4.12.0",
                       f"PostmanRuntime/7.{rng.randint(30, 39)}.{rng.randint(0, 9)}"))


def container_id(rng: random.Random) -> str:
    return rand_str(rng, HEX, rng.choice((12, 12, 64)))


def port_mapping(rng: random.Random) -> str:
    inner = rng.choice((80, 443, 5432, 6379, 8000, 3000, 9090, 27017))
    outer = rng.choice((inner, 8080, 8443, 15432, 3001, 9000))
    return rng.choice((f"{outer}:{inner}", f"0.0.0.0:{outer}->{inner}/tcp", f"{outer}:{inner}/tcp"))


def software_version(rng: random.Random) -> str:
    """A named product with its version: 'nginx/1.25.3', 'PostgreSQL 16.2', 'Windows 11 23H2'."""
    name = rng.choice(("nginx/", "Apache/", "PostgreSQL ", "Redis ", "Node.js v", "Python ", "OpenSSL ", "Docker ",
                       "Ubuntu ", "Debian ", "Kubernetes v", "Java ", "PHP/", "Django ", "Firefox ", "Chrome "))
    return name + version(rng).lstrip("v")


def product_model(rng: random.Random) -> str:
    """A product or model name with numbers (cars, phones, printers, software)."""
    return rng.choice((
        f"Peugeot {rng.choice((208, 308, 2008, 3008, 5008))}", f"Renault Clio {rng.choice(('IV', 'V', '5'))}",
        f"Citroën C{rng.randint(3, 5)}", f"Tesla Model {rng.choice('3SXY')}", f"BMW X{rng.randint(1, 7)}",
        f"Audi A{rng.randint(1, 8)}", f"Toyota Yaris {rng.randint(2015, 2024)}", f"iPhone {rng.randint(11, 16)} Pro",
        f"Galaxy S{rng.randint(20, 25)}", f"Pixel {rng.randint(6, 9)}a", f"HP LaserJet Pro M{rng.randint(100, 480)}dn",
        f"ThinkPad T{rng.randint(14, 16)}{rng.choice(('', 's'))} Gen {rng.randint(2, 5)}",
        f"Windows {rng.choice((10, 11))} {rng.choice(('22H2', '23H2', 'Pro'))}", f"Office {rng.choice((2019, 2021, 365))}",
        f"macOS {rng.choice(('13.6', '14.4.1', '15.1'))}", f"Dell Latitude {rng.randint(5400, 7450)}",
        f"Airbus A{rng.choice((320, 321, 350, 380))}", f"Boeing 7{rng.randint(37, 87)}",
    ))


def bcrypt_hash(rng: random.Random) -> str:
    return f"$2{rng.choice('aby')}${rng.choice(('10', '12'))}$" + rand_str(rng, string.ascii_letters + string.digits + "./", 53)


def digest(rng: random.Random) -> str:
    """A hash as written in configs and logs: bare hex, `sha256:` prefixed, or bcrypt."""
    r = rng.random()
    if r < 0.3:
        return bcrypt_hash(rng)
    if r < 0.5:
        return "sha256:" + rand_str(rng, HEX, 64)
    if r < 0.6:
        return "{SHA}" + base64_like(rng, 28)
    return hash_value(rng)


def base64_like(rng: random.Random, n: int) -> str:
    return rand_str(rng, string.ascii_letters + string.digits + "+/", n - 1) + "="


def sepa_creditor_id(rng: random.Random) -> str:
    """A SEPA creditor identifier (ICS): a company's, not a person's."""
    return rng.choice(("FR", "DE", "BE", "ES")) + _digits(rng, 2) + rng.choice(("ZZZ", "ZZZ", "AB1")) + _digits(rng, 6)


def bank_reference(rng: random.Random) -> str:
    return rng.choice(("RUM-", "REF ", "TRX", "VIR-", "SEPA-", "")) + rand_str(rng, UPPER_ALNUM, rng.randint(8, 14))


def luhn_failing_number(rng: random.Random) -> str:
    """A 16-digit number that fails Luhn, written as a transaction or reference number (labelled O by its context)."""
    body = _digits(rng, 15)
    bad = (int(luhn.calc_check_digit(body)) + rng.randint(1, 9)) % 10
    number = body + str(bad)
    return " ".join(number[i:i + 4] for i in range(0, 16, 4)) if rng.random() < 0.5 else number


def company_url(rng: random.Random, domain: str) -> str:
    """The organisation's own site, shop, intranet or help pages: public or corporate, not a person's."""
    base = domain.rsplit(".", 1)[0]
    return rng.choice((
        f"www.{domain}", f"https://www.{domain}", f"https://www.{domain}/contact", f"https://shop.{domain}/fr/panier",
        f"https://intranet.{base}.local/rh/conges", f"http://intranet/{base}/helpdesk", f"https://support.{domain}/hc/fr",
        f"https://{base}.atlassian.net/servicedesk", f"https://status.{domain}", f"https://www.{domain}/mentions-legales",
    ))


def sentry_dsn(rng: random.Random) -> str:
    return f"https://{rand_str(rng, HEX, 32)}@o{_digits(rng, 6)}.ingest.sentry.io/{_digits(rng, 7)}"


def attacker_login(rng: random.Random) -> str:
    """Logins an attacker tries: no one's account (LABELS.md clarifications)."""
    return rng.choice(("admin", "root", "test", "oracle", "ubuntu", "guest", "administrator", "pi", "postgres", "user"))


def booking_reference(rng: random.Random) -> str:
    """A booking or record locator: letters and digits, sometimes with dashes; not a person's record (LABELS.md)."""
    return rng.choice((rand_str(rng, UPPER_ALNUM, 6), f"{rand_str(rng, string.ascii_uppercase, 3)}-{_digits(rng, 4)}-{rand_str(rng, UPPER_ALNUM, 2)}",
                       f"BK-{rng.randint(2023, 2026)}-{_digits(rng, 5)}"))


def masked_card(rng: random.Random) -> str:
    """A card number with its middle masked: partial values are not labelled (LABELS.md)."""
    first, last = rng.choice(("4", "5", "37")) + _digits(rng, 3), _digits(rng, 4)
    mask = rng.choice("X*•")
    return rng.choice((f"{first}{mask * 8}{last}", f"{first} {mask * 4} {mask * 4} {last}", f"{mask * 4} {mask * 4} {mask * 4} {last}"))


# Hard negatives of recipe v3 (headings, brands, lab tests, example secrets...): word lists in negatives.json.
WORDS = json.loads((Path(__file__).parent / "negatives.json").read_text(encoding="utf-8"))


def heading(rng: random.Random, lang: str) -> str:
    """A section title or heading as written, in its own case or in capitals: never a person."""
    text = rng.choice(WORDS["HEADINGS_FR" if lang == "fr" else "HEADINGS_EN"])
    return text.upper() if rng.random() < 0.4 else text


def brand(rng: random.Random, fakers: Fakers, lang: str, kind: str) -> str:
    """A shop, car, software, delivery-service or product name, invented or in Faker's company style; some
    are built on a surname or a first name, as real brands are, and are O all the same (LABELS.md)."""
    words = WORDS["BRANDS"][kind]
    r = rng.random()
    if kind == "car":
        models = words["named_models"] if r < 0.3 else words["models"]
        return f"{rng.choice(words['makes'])} {rng.choice(models)}"
    if kind == "product":
        return product_model(rng) if r < 0.3 else f"{rng.choice(words['stems'])} {rng.choice(words['lines'])}"
    coined = rng.choice(words["stems"]) + rng.choice(words["endings"])
    if kind == "app":
        if r < 0.2:
            return software_version(rng)
        return f"{coined} {rng.choice(words['editions'])}" if r < 0.7 else coined
    if r < 0.5:
        return coined
    fk = fakers.get("fr_FR" if lang == "fr" else rng.choice(("en_US", "en_GB")), rng)
    trades = words["trades_fr" if lang == "fr" else "trades_en"]
    if r < 0.8:
        return f"{fk.last_name()} {rng.choice(trades)}" if rng.random() < 0.7 else f"{rng.choice(trades)} {fk.last_name()}"
    return fk.company().replace("&", "et" if lang == "fr" else "and")


def example_secret(rng: random.Random) -> str:
    """A placeholder written where a credential goes in documentation and samples: not a SECRET."""
    return rng.choice(WORDS["EXAMPLE_SECRETS"])


def hotline(rng: random.Random, lang: str) -> str:
    """An organisation's customer-service, claims or assistance number (short, toll-free or shared-cost)."""
    if lang == "fr":
        return rng.choice((f"3{_digits(rng, 3)}", f"0 800 {_digits(rng, 3)} {_digits(rng, 3)}",
                           f"09 69 {_digits(rng, 2)} {_digits(rng, 2)} {_digits(rng, 2)}", f"0 810 {_digits(rng, 3)} {_digits(rng, 3)}",
                           f"3{_digits(rng, 3)}", f"+33 9 69 {_digits(rng, 2)} {_digits(rng, 2)} {_digits(rng, 2)}"))
    return rng.choice((f"1-800-{_digits(rng, 3)}-{_digits(rng, 4)}", f"1-888-{_digits(rng, 3)}-{_digits(rng, 4)}",
                       f"0800 {_digits(rng, 3)} {_digits(rng, 4)}", f"0345 {_digits(rng, 3)} {_digits(rng, 4)}",
                       f"(800) {_digits(rng, 3)}-{_digits(rng, 4)}", f"+44 345 {_digits(rng, 3)} {_digits(rng, 4)}"))


def department(rng: random.Random, lang: str) -> str:
    return rng.choice(WORDS["DEPARTMENTS_FR" if lang == "fr" else "DEPARTMENTS_EN"])


def status(rng: random.Random, lang: str) -> str:
    return rng.choice(WORDS["STATUSES_FR" if lang == "fr" else "STATUSES_EN"])


def salary(rng: random.Random, lang: str) -> str:
    """A yearly or monthly salary as an export writes it."""
    yearly = rng.randrange(22000, 98000, 500)
    return rng.choice((str(yearly), f"{yearly / 12:.2f}", f"{yearly:,}".replace(",", " " if lang == "fr" else ",")))


def machine_amount(rng: random.Random) -> str:
    """An amount as exports and payment files write it: a dot, two decimals, no currency sign."""
    return f"{rng.randint(5, 9999)}.{rng.randint(0, 99):02d}"


def iso_date(rng: random.Random) -> str:
    return f"{rng.randint(2019, 2026)}-{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d}"
