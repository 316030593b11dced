"""Values for the labels other than PERSON and ADDRESS, in many surface forms."""

from __future__ import annotations

import base64
import random
import string

from stdnum import iban as std_iban
from stdnum import luhn
from stdnum.es import ccc as std_ccc
from stdnum.es import dni as std_dni
from stdnum.fr import nir as std_nir
from stdnum.it import codicefiscale as std_cf
from stdnum.us import ssn as std_ssn

from training.synth.fakers import Fakers
from training.synth.names import Name, strip_accents

ALNUM = string.ascii_letters + string.digits
UPPER_ALNUM = string.ascii_uppercase + string.digits
HEX = "0123456789abcdef"

FR_MONTHS = ("janvier", "février", "mars", "avril", "mai", "juin", "juillet", "août", "septembre",
             "octobre", "novembre", "décembre")
FR_MONTHS_ABBR = ("janv.", "févr.", "mars", "avr.", "mai", "juin", "juil.", "août", "sept.", "oct.",
                  "nov.", "déc.")
EN_MONTHS = ("January", "February", "March", "April", "May", "June", "July", "August", "September",
             "October", "November", "December")
EN_MONTHS_ABBR = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")

MAIL_DOMAINS = ("gmail.com", "yahoo.fr", "hotmail.com", "outlook.fr", "orange.fr", "free.fr", "laposte.net",
                "wanadoo.fr", "sfr.fr", "icloud.com", "protonmail.com", "gmx.de", "yahoo.com", "live.co.uk",
                "hotmail.fr", "aol.com", "mail.com", "outlook.com", "bbox.fr", "web.de")


def rand_str(rng: random.Random, alphabet: str, n: int) -> str:
    return "".join(rng.choice(alphabet) for _ in range(n))


def _slug(text: str) -> str:
    text = strip_accents(text).lower()
    return "".join(c if c.isalnum() else "-" for c in text).strip("-").replace("--", "-")


def _mailpart(name: Name, rng: random.Random) -> str:
    f = _slug(name.first).replace("-", "")
    ln = _slug(name.last).replace("-", "")
    forms = (f"{f}.{ln}", f"{f[0]}{ln}", f"{f}{ln}", f"{f}_{ln}", f"{ln}.{f}", f"{f[0]}.{ln}", f"{f}",
             f"{ln}{rng.randint(1, 99)}", f"{f}.{ln}{rng.randint(60, 2005)}", f"{f}-{ln}")
    return rng.choice(forms) or "contact"


def email(rng: random.Random, fakers: Fakers, name: Name | None, company_domain: str | None = None) -> str:
    r = rng.random()
    if name is not None and r < 0.7:
        local = _mailpart(name, rng)
        domain = company_domain if company_domain and rng.random() < 0.4 else rng.choice(MAIL_DOMAINS)
        out = f"{local}@{domain}"
    else:
        out = fakers.get(rng.choice(("en_US", "fr_FR", "de_DE", "en_GB")), rng).email()
    if rng.random() < 0.05:
        out = out.upper() if rng.random() < 0.3 else out[0].upper() + out[1:]
    return out


def _digits(rng: random.Random, n: int) -> str:
    return "".join(rng.choice(string.digits) for _ in range(n))


def phone(rng: random.Random, fakers: Fakers, lang: str) -> str:
    r = rng.random()
    if r < (0.55 if lang == "fr" else 0.2):
        pairs = [rng.choice(("06", "07", "01", "02", "03", "04", "05", "09"))[1]] + [_digits(rng, 2) for _ in range(4)]
        nat = "0" + pairs[0]
        f = rng.random()
        if f < 0.3:
            return " ".join([nat] + pairs[1:])
        if f < 0.45:
            return ".".join([nat] + pairs[1:])
        if f < 0.55:
            return nat + "".join(pairs[1:])
        if f < 0.62:
            return "-".join([nat] + pairs[1:])
        if f < 0.75:
            return "+33 " + pairs[0] + " " + " ".join(pairs[1:])
        if f < 0.85:
            return "+33 (0)" + pairs[0] + " " + " ".join(pairs[1:])
        if f < 0.92:
            return "+33" + pairs[0] + "".join(pairs[1:])
        return "0033 " + pairs[0] + " " + " ".join(pairs[1:])
    if r < (0.7 if lang == "fr" else 0.6):
        a, b, c = str(rng.randint(201, 989)), _digits(rng, 3), _digits(rng, 4)
        forms = (f"({a}) {b}-{c}", f"{a}-{b}-{c}", f"{a}.{b}.{c}", f"+1 {a} {b} {c}", f"+1-{a}-{b}-{c}",
                 f"1 ({a}) {b}-{c}", f"{a}{b}{c}", f"+1 ({a}) {b}-{c}", f"({a}){b}-{c}", f"001-{a}-{b}-{c}")
        out = rng.choice(forms)
        if rng.random() < 0.1:
            out += rng.choice(("x", " x", " ext. ")) + _digits(rng, rng.randint(2, 4))
        return out
    if r < (0.78 if lang == "fr" else 0.75):
        forms = (f"+44 20 {_digits(rng, 4)} {_digits(rng, 4)}", f"020 {_digits(rng, 4)} {_digits(rng, 4)}",
                 f"07{_digits(rng, 3)} {_digits(rng, 6)}", f"+44 7{_digits(rng, 3)} {_digits(rng, 6)}",
                 f"+44 (0)7{_digits(rng, 3)} {_digits(rng, 6)}", f"(0161) {_digits(rng, 3)} {_digits(rng, 4)}")
        return rng.choice(forms)
    loc = rng.choice(("en_US", "en_GB", "de_DE", "it_IT", "es_ES", "fr_FR", "pt_BR", "nl_NL", "fr_CH",
                      "en_AU", "pl_PL", "hu_HU", "fi_FI", "en_CA", "fr_CA", "sv_SE", "ro_RO"))
    return fakers.get(loc, rng).phone_number()


IBAN_COUNTRIES = (("FR", 40), ("DE", 8), ("ES", 6), ("IT", 6), ("BE", 5), ("NL", 4), ("GB", 6), ("CH", 4),
                  ("LU", 3), ("PT", 3), ("IE", 2), ("AT", 2), ("PL", 2), ("MC", 2), ("TN", 1), ("HU", 1),
                  ("FI", 1), ("SE", 1), ("DK", 1), ("RO", 1), ("GR", 1))


def _bban(rng: random.Random, structure: str) -> str:
    out = []
    i = 0
    while i < len(structure):
        j = i
        while structure[j].isdigit():
            j += 1
        n = int(structure[i:j])
        kind = structure[j + 1] if structure[j] == "!" else structure[j]
        i = j + 2 if structure[j] == "!" else j + 1
        alphabet = {"n": string.digits, "a": string.ascii_uppercase, "c": UPPER_ALNUM}[kind]
        out.append(rand_str(rng, alphabet, n))
    return "".join(out)


def iban(rng: random.Random, valid: bool = True) -> str:
    cc = rng.choices([c for c, _ in IBAN_COUNTRIES], [w for _, w in IBAN_COUNTRIES])[0]
    structure = list(std_iban._ibandb.info(cc))[0][1]["bban"]
    for _ in range(20):
        bban = _bban(rng, structure)
        if cc in ("FR", "MC") and rng.random() < 0.8:
            bban = bban[:10] + _digits(rng, 11) + bban[21:]
        elif cc == "BE":
            bban = bban[:10] + f"{int(bban[:10]) % 97 or 97:02d}"
        elif cc == "ES":
            bban = bban[:8] + std_ccc.calc_check_digits(bban) + bban[10:]
        check = std_iban.calc_check_digits(cc + "00" + bban)
        number = cc + check + bban
        if std_iban.is_valid(number):
            break
    if not valid:
        pos = rng.randint(4, len(number) - 1)
        ch = number[pos]
        repl = rng.choice([d for d in string.digits if d != ch]) if ch.isdigit() else rng.choice(string.ascii_uppercase)
        number = number[:pos] + repl + number[pos + 1:]
    f = rng.random()
    if f < 0.55:
        return " ".join(number[i:i + 4] for i in range(0, len(number), 4))
    if f < 0.6:
        return "-".join(number[i:i + 4] for i in range(0, len(number), 4))
    return number


CARD_BRANDS = (("4", 16, 40), ("51", 16, 8), ("52", 16, 6), ("53", 16, 5), ("55", 16, 5), ("2221", 16, 2),
               ("34", 15, 5), ("37", 15, 5), ("6011", 16, 4), ("35", 16, 3), ("36", 14, 2), ("62", 16, 2))


def credit_card(rng: random.Random, valid: bool = True) -> str:
    prefix, length, _ = rng.choices(CARD_BRANDS, [b[2] for b in CARD_BRANDS])[0]
    body = prefix + _digits(rng, length - len(prefix) - 1)
    number = body + luhn.calc_check_digit(body)
    if not valid:
        last = number[-1]
        number = number[:-1] + rng.choice([d for d in string.digits if d != last])
    if length == 15:
        groups = [number[:4], number[4:10], number[10:]]
    elif length == 14:
        groups = [number[:4], number[4:10], number[10:]]
    else:
        groups = [number[i:i + 4] for i in range(0, length, 4)]
    f = rng.random()
    if f < 0.55:
        return " ".join(groups)
    if f < 0.75:
        return "-".join(groups)
    return number


def nir(rng: random.Random, valid: bool = True) -> str:
    sex = rng.choice("12")
    yy = _digits(rng, 2)
    mm = f"{rng.randint(1, 12):02d}"
    r = rng.random()
    if r < 0.06:
        dept, commune = rng.choice(("2A", "2B")), f"{rng.randint(1, 366):03d}"
    elif r < 0.12:
        dept, commune = rng.choice(("971", "972", "973", "974", "976")), f"{rng.randint(1, 99):02d}"
    elif r < 0.16:
        dept, commune = "99", f"{rng.randint(100, 500):03d}"
    else:
        dept = f"{rng.choice([d for d in range(1, 96) if d != 20]):02d}"
        commune = f"{rng.randint(1, 999):03d}"
    order = f"{rng.randint(1, 999):03d}"
    body = sex + yy + mm + dept + commune + order
    key = std_nir.calc_check_digits(body)
    if not valid:
        key = f"{(int(key) + rng.randint(1, 96)) % 97 + 1:02d}"
    if rng.random() < 0.5:
        return body + key
    dc = dept + commune
    sep = " " if rng.random() < 0.85 else "."
    return sep.join((sex, yy, mm, dc[:2], dc[2:], order, key))


def ssn(rng: random.Random) -> str:
    while True:
        area = rng.randint(1, 899)
        if area == 666:
            continue
        number = f"{area:03d}{rng.randint(1, 99):02d}{rng.randint(1, 9999):04d}"
        if std_ssn.is_valid(number):
            break
    f = rng.random()
    if f < 0.6:
        return f"{number[:3]}-{number[3:5]}-{number[5:]}"
    if f < 0.8:
        return f"{number[:3]} {number[3:5]} {number[5:]}"
    return number


def nino(rng: random.Random) -> str:
    first = "ABCEGHJKLMNOPRSTWXYZ"
    second = "ABCEGHJKLMNPRSTWXYZ"
    while True:
        pre = rng.choice(first) + rng.choice(second)
        if pre not in ("BG", "GB", "NK", "KN", "TN", "NT", "ZZ"):
            break
    digits = _digits(rng, 6)
    suffix = rng.choice("ABCD")
    if rng.random() < 0.5:
        return f"{pre} {digits[:2]} {digits[2:4]} {digits[4:]} {suffix}"
    return f"{pre}{digits}{suffix}"


def dni(rng: random.Random) -> str:
    """Spanish DNI/NIE."""
    body = _digits(rng, 8)
    return body + std_dni.calc_check_digit(body) if rng.random() < 0.8 else "X" + body[1:] + std_dni.calc_check_digit("0" + body[1:])


def codice_fiscale(rng: random.Random, name: Name | None) -> str:
    """Italian codice fiscale (surname and first-name letters, birth date code, place, check letter)."""
    def consonants(text: str) -> str:
        t = "".join(c for c in strip_accents(text).upper() if "A" <= c <= "Z")
        cons = "".join(c for c in t if c not in "AEIOU")
        return (cons + "".join(c for c in t if c in "AEIOU") + "XXX")[:3]
    last = consonants(name.last) if name else rand_str(rng, string.ascii_uppercase, 3)
    first = consonants(name.first) if name else rand_str(rng, string.ascii_uppercase, 3)
    body = (f"{last}{first}{_digits(rng, 2)}{rng.choice('ABCDEHLMPRST')}{rng.randint(1, 28) + (40 if name and name.female else 0):02d}"
            f"{rng.choice('ABCDEFGHLM')}{_digits(rng, 3)}")
    return body + std_cf.calc_check_digit(body)


def belgian_nn(rng: random.Random) -> str:
    """Belgian national register number, formatted YY.MM.DD-XXX.CC."""
    yy, mm, dd = rng.randint(30, 99), rng.randint(1, 12), rng.randint(1, 28)
    serial = rng.randint(1, 997)
    base = f"{yy:02d}{mm:02d}{dd:02d}{serial:03d}"
    check = 97 - int(base) % 97
    return f"{yy:02d}.{mm:02d}.{dd:02d}-{serial:03d}.{check:02d}"


def passport(rng: random.Random) -> str:
    r = rng.random()
    if r < 0.4:
        return _digits(rng, 2) + rand_str(rng, string.ascii_uppercase, 2) + _digits(rng, 5)
    if r < 0.7:
        return _digits(rng, 9)
    return rand_str(rng, string.ascii_uppercase, 1) + _digits(rng, 8)


def id_card(rng: random.Random) -> str:
    if rng.random() < 0.5:
        return _digits(rng, 12)
    return rand_str(rng, string.ascii_uppercase, 1) + rand_str(rng, UPPER_ALNUM, 8)


def driving_licence(rng: random.Random, name: Name | None) -> str:
    r = rng.random()
    if r < 0.3:
        return _digits(rng, 12)
    if r < 0.5:
        return _digits(rng, 2) + rand_str(rng, string.ascii_uppercase, 2) + _digits(rng, 5)
    if r < 0.7 and name is not None:
        base = (strip_accents(name.last).upper().replace(" ", "").replace("-", "").replace("'", "") + "99999")[:5]
        return f"{base}{_digits(rng, 6)}{strip_accents(name.first)[0].upper()}{rand_str(rng, 'ABCDEFGHJKLMNPRSTWXYZ', 1)}9{rand_str(rng, string.ascii_uppercase, 2)}"
    return rand_str(rng, string.ascii_uppercase, 1) + _digits(rng, rng.choice((7, 8, 12)))


def birth_date(rng: random.Random, lang: str) -> str:
    y = rng.randint(1930, 2012)
    m = rng.randint(1, 12)
    d = rng.randint(1, 28 if m == 2 else 30)
    r = rng.random()
    us = lang == "en" and rng.random() < 0.5
    if r < 0.3:
        sep = rng.choice(("/", "/", "-", "."))
        return f"{m:02d}{sep}{d:02d}{sep}{y}" if us else f"{d:02d}{sep}{m:02d}{sep}{y}"
    if r < 0.37:
        return f"{y}-{m:02d}-{d:02d}"
    if r < 0.4:
        return rng.choice((f"{y}/{m:02d}/{d:02d}", f"{d}.{m}.{y}", f"{d:02d}.{m:02d}.{y % 100:02d}", f"{d}-{m}-{y}"))
    if r < 0.45:
        return f"{d}/{m}/{y % 100:02d}" if not us else f"{m}/{d}/{y % 100:02d}"
    fr = lang == "fr" if rng.random() < 0.85 else lang != "fr"
    if fr:
        month = rng.choice((FR_MONTHS[m - 1],) * 4 + (FR_MONTHS_ABBR[m - 1], FR_MONTHS[m - 1].capitalize()))
        day = "1er" if d == 1 and rng.random() < 0.7 else str(d)
        if rng.random() < 0.15:
            day = f"{d:02d}"
        return f"{day} {month} {y}"
    month = EN_MONTHS[m - 1] if rng.random() < 0.75 else EN_MONTHS_ABBR[m - 1]
    suffix = "th" if 11 <= d <= 13 else {1: "st", 2: "nd", 3: "rd"}.get(d % 10, "th")
    f = rng.random()
    if f < 0.4:
        return f"{month} {d}, {y}"
    if f < 0.65:
        return f"{d} {month} {y}"
    if f < 0.75:
        return f"{d}{suffix} {month} {y}"
    if f < 0.85:
        return f"{month} {d}{suffix}, {y}"
    if f < 0.92:
        return f"{d:02d}-{EN_MONTHS_ABBR[m - 1]}-{y}"
    return f"{d} {month.upper()} {y}"


def identifier(rng: random.Random, kind: str, name: Name | None) -> str:
    """A code pointing at one person's record; `kind` says what it is."""
    if kind in ("username", "login"):
        if name is not None and rng.random() < 0.7:
            f = _slug(name.first).replace("-", "")
            ln = _slug(name.last).replace("-", "")
            return rng.choice((f"{f[0]}{ln}", f"{f}.{ln}", f"{f}_{ln}", f"{ln}{rng.randint(1, 99)}",
                               f"{f}{rng.randint(70, 2010)}", f"{f[0]}.{ln}", f"{ln}.{f[0]}"))
        return rand_str(rng, string.ascii_lowercase, rng.randint(4, 8)) + _digits(rng, rng.randint(0, 3))
    if kind == "plate":
        r = rng.random()
        if r < 0.5:
            return f"{rand_str(rng, 'ABCDEFGHJKLMNPQRSTVWXYZ', 2)}-{_digits(rng, 3)}-{rand_str(rng, 'ABCDEFGHJKLMNPQRSTVWXYZ', 2)}"
        if r < 0.6:
            return f"{_digits(rng, 4)} {rand_str(rng, string.ascii_uppercase, 2)} {rng.randint(1, 95):02d}"
        if r < 0.75:
            return f"{rand_str(rng, string.ascii_uppercase, 2)}{_digits(rng, 2)} {rand_str(rng, string.ascii_uppercase, 3)}"
        if r < 0.88:
            return f"{rng.randint(1, 9)}{rand_str(rng, string.ascii_uppercase, 3)}{_digits(rng, 3)}"
        return f"{rand_str(rng, string.ascii_uppercase, rng.randint(1, 2))}-{rand_str(rng, string.ascii_uppercase, 2)} {rng.randint(1, 9999)}"
    prefixes = {
        "customer": ("CUST-", "C", "CL", "CLI-", "", "", "K"),
        "patient": ("PAT-", "P", "", "", "H"),
        "employee": ("E", "EMP-", "", "MAT"),
        "member": ("M", "ADH-", "", "MBR"),
        "policy": ("POL-", "", "AX", "PO"),
        "contract": ("CT", "CTR-", "", "CONT-"),
        "file": ("", "", "DOS-", "D"),
        "account": ("", "ACC-", ""),
        "student": ("", "ETU", "S"),
        "benefit": ("", ""),
        "claim": ("SIN-", "CLM-", "SX", ""),
    }[kind]
    prefix = rng.choice(prefixes)
    r = rng.random()
    if r < 0.4:
        body = _digits(rng, rng.randint(5, 10))
    elif r < 0.6:
        body = f"{rng.randint(2015, 2025)}{rng.choice(('-', '/', ''))}{_digits(rng, rng.randint(4, 6))}"
    elif r < 0.8:
        body = f"{_digits(rng, 3)}-{_digits(rng, 3)}-{_digits(rng, 3)}"
    else:
        body = rand_str(rng, UPPER_ALNUM, rng.randint(6, 10))
    return (prefix + body).strip()


def ip_address(rng: random.Random, fakers: Fakers) -> str:
    r = rng.random()
    if r < 0.3:
        return f"192.168.{rng.randint(0, 255)}.{rng.randint(1, 254)}"
    if r < 0.4:
        return f"10.{rng.randint(0, 255)}.{rng.randint(0, 255)}.{rng.randint(1, 254)}"
    if r < 0.7:
        return ".".join(str(rng.randint(1, 254)) for _ in range(4))
    if r < 0.8:
        return fakers.get("en_US", rng).ipv6()
    groups = [f"{rng.randint(0, 65535):x}" for _ in range(8)]
    f = rng.random()
    if f < 0.4:
        return "2001:db8:" + ":".join(groups[:2]) + "::" + groups[7]
    if f < 0.6:
        return "fe80::" + ":".join(groups[4:])
    if f < 0.7:
        return "::1"
    return ":".join(groups)


def person_url(rng: random.Random, fakers: Fakers, name: Name | None) -> str:
    if name is None or rng.random() < 0.15:
        fk = fakers.get(rng.choice(("en_US", "fr_FR", "en_GB")), rng)
        return fk.url() if rng.random() < 0.6 else fk.domain_name()
    f = _slug(name.first)
    ln = _slug(name.last)
    token = rand_str(rng, ALNUM, rng.randint(10, 28))
    forms = (
        f"https://www.linkedin.com/in/{f}-{ln}-{rand_str(rng, HEX, 8)}",
        f"https://linkedin.com/in/{f}{ln}",
        f"https://www.facebook.com/{f}.{ln}",
        f"https://twitter.com/{f[0]}{ln}",
        f"https://x.com/{f}_{ln}",
        f"https://github.com/{f[0]}{ln}",
        f"https://www.instagram.com/{f}_{ln}{rng.randint(1, 99)}/",
        f"https://{f}{ln}.fr",
        f"www.{f}-{ln}.com",
        f"{f}{ln}.me",
        f"http://{ln}.{f}.free.fr/cv.html",
        f"https://{f}-{ln}.github.io",
        f"https://drive.google.com/file/d/{token}/view?usp=sharing",
        f"https://www.dropbox.com/s/{rand_str(rng, string.ascii_lowercase + string.digits, 15)}/{f.capitalize()}_{ln.capitalize()}_CV.pdf?dl=0",
        f"https://wetransfer.com/downloads/{rand_str(rng, HEX, 32)}/{rand_str(rng, HEX, 6)}",
        f"https://acme-my.sharepoint.com/personal/{f}_{ln}_acme_com/Documents/{rng.choice(('Bulletins', 'Perso', 'RH'))}",
        f"https://calendly.com/{f}-{ln}",
        f"https://www.doctolib.fr/medecin-generaliste/lyon/{f}-{ln}",
        f"https://medium.com/@{f}{ln}",
        f"https://mastodon.social/@{f}{ln[:3]}",
        f"https://www.youtube.com/@{f}{ln}",
        f"https://{f}.{ln}.blogspot.com",
        f"https://docs.google.com/document/d/{token}/edit",
    )
    return rng.choice(forms)


PASSWORDS_BASE = ("Soleil", "Marseille", "Chouchou", "Summer", "Welcome", "Azerty", "Qwerty", "Dragon",
                  "Loulou", "Paris", "Bonjour", "Password", "Monkey", "Football", "Liberte", "Tigrou")


def password(rng: random.Random) -> str:
    r = rng.random()
    if r < 0.4:
        return rng.choice(PASSWORDS_BASE) + str(rng.randint(1, 2025)) + rng.choice(("", "", "!", "$", "#", "?", "*"))
    if r < 0.8:
        return rand_str(rng, ALNUM + "!@#$%^&*_-+=", rng.randint(8, 20))
    return rand_str(rng, ALNUM, rng.randint(8, 16))


def _b64url(rng: random.Random, raw: str) -> str:
    return base64.urlsafe_b64encode(raw.encode()).decode().rstrip("=")


def api_key(rng: random.Random) -> str:
    r = rng.random()
    if r < 0.15:
        return "sk-" + rand_str(rng, ALNUM, 48)
    if r < 0.22:
        return "sk-proj-" + rand_str(rng, ALNUM + "_-", 64)
    if r < 0.32:
        return "ghp_" + rand_str(rng, ALNUM, 36)
    if r < 0.37:
        return "github_pat_" + rand_str(rng, ALNUM, 22) + "_" + rand_str(rng, ALNUM, 59)
    if r < 0.47:
        return "AKIA" + rand_str(rng, string.ascii_uppercase + "234567", 16)
    if r < 0.55:
        return rng.choice(("xoxb-", "xoxp-")) + "-".join(_digits(rng, 12) for _ in range(2)) + "-" + rand_str(rng, ALNUM, 24)
    if r < 0.65:
        return rng.choice(("sk_live_", "rk_live_", "sk_test_")) + rand_str(rng, ALNUM, 24)
    if r < 0.73:
        return "AIza" + rand_str(rng, ALNUM + "_-", 35)
    if r < 0.8:
        return "glpat-" + rand_str(rng, ALNUM + "_-", 20)
    if r < 0.85:
        return "hf_" + rand_str(rng, ALNUM, 34)
    return rand_str(rng, ALNUM, rng.randint(32, 40))


def jwt(rng: random.Random, name: Name | None) -> str:
    header = _b64url(rng, '{"alg":"HS256","typ":"JWT"}')
    sub = _digits(rng, 10)
    who = f',"name":"{strip_accents(name.first)} {strip_accents(name.last)}"' if name else ""
    payload = _b64url(rng, f'{{"sub":"{sub}"{who},"iat":{rng.randint(1500000000, 1800000000)}}}')
    return f"{header}.{payload}.{rand_str(rng, ALNUM + '_-', 43)}"


def private_key(rng: random.Random) -> str:
    kind = rng.choice(("RSA PRIVATE KEY", "PRIVATE KEY", "OPENSSH PRIVATE KEY", "EC PRIVATE KEY"))
    lines = [rand_str(rng, ALNUM + "+/", 64) for _ in range(rng.randint(3, 7))]
    lines.append(rand_str(rng, ALNUM + "+/", rng.randint(10, 60)) + "==")
    return f"-----BEGIN {kind}-----\n" + "\n".join(lines) + f"\n-----END {kind}-----"


def connection_string(rng: random.Random, name: Name | None) -> list[tuple[str, str | None]]:
    """A connection string as pieces: the password is the SECRET span, a person's user name an IDENTIFIER
    (LABELS.md clarifications); a service account ("admin", "svc_api") is no one's."""
    user = identifier(rng, "login", name) if name else rng.choice(("admin", "app", "root", "svc_api"))
    pwd = rand_str(rng, ALNUM + "!$%*_-", rng.randint(8, 16)) if rng.random() < 0.5 else password(rng)
    pwd = pwd.replace("@", "a").replace("/", "s").replace(":", "c").replace("#", "h").replace("?", "q")
    host = rng.choice(("db.internal", "localhost", "10.0.3.12", "prod-db.example.net", "cluster0.ab1cd.mongodb.net"))
    scheme = rng.choice(("postgresql", "postgres", "mysql", "mongodb+srv", "redis", "amqp"))
    port = {"postgresql": 5432, "postgres": 5432, "mysql": 3306, "mongodb+srv": None, "redis": 6379, "amqp": 5672}[scheme]
    hp = f"{host}:{port}" if port else host
    tail = f"@{hp}/{rng.choice(('app', 'prod', 'crm', 'users', '0'))}"
    return [(f"{scheme}://", None), (user, "IDENTIFIER" if name else None), (":", None), (pwd, "SECRET"),
            (tail, None)]


def chinese_resident_id(rng: random.Random) -> str:
    """An 18-character PRC resident identity number (region, birth date, sequence, ISO 7064 check)."""
    body = f"{rng.choice((11, 31, 44, 51, 32, 33))}{_digits(rng, 4)}{rng.randint(1950, 2008)}{rng.randint(1, 12):02d}{rng.randint(1, 28):02d}{_digits(rng, 3)}"
    weights = (7, 9, 10, 5, 8, 4, 2, 1, 6, 3, 7, 9, 10, 5, 8, 4, 2)
    check = "10X98765432"[sum(int(c) * w for c, w in zip(body, weights)) % 11]
    return body + check


def foreign_id(rng: random.Random) -> tuple[str, str]:
    """A state-issued number from another country, with what the document calls it (NATIONAL_ID)."""
    r = rng.random()
    if r < 0.3:
        return chinese_resident_id(rng), "CN"
    if r < 0.55:
        return foreign_passport(rng), "PASSPORT"
    if r < 0.7:  # German Personalausweis: 9 characters, letters without vowels
        return rand_str(rng, "CFGHJKLMNPRTVWXYZ", 1) + rand_str(rng, "CFGHJKLMNPRTVWXYZ0123456789", 8), "DE"
    if r < 0.85:  # Indian Aadhaar: 12 digits in groups of four
        return f"{rng.randint(2, 9)}{_digits(rng, 3)} {_digits(rng, 4)} {_digits(rng, 4)}", "IN"
    return f"{rand_str(rng, string.ascii_uppercase, 1)}{_digits(rng, 7)}{rand_str(rng, string.ascii_uppercase, 1)}", "ES"


def health_insurance_number(rng: random.Random) -> str:
    """Another country's state health-insurance number (German KVNR letter + 9 digits, 10-digit numbers):
    NATIONAL_ID, as the NIR is; the NHS number has its own key (IDENTIFIER, named so in LABELS.md)."""
    d = _digits(rng, 10)
    r = rng.random()
    if r < 0.4:
        return rand_str(rng, string.ascii_uppercase, 1) + d[:9]
    if r < 0.7:
        return d
    return f"{d[:4]}-{d[4:7]}-{d[7:]}" + rng.choice(("", "-" + rand_str(rng, string.ascii_uppercase, 2)))


def nhs_number(rng: random.Random) -> str:
    """An NHS number: 10 digits written 3-3-4 (LABELS.md clarifications: a health-card number, IDENTIFIER)."""
    d = _digits(rng, 10)
    return rng.choice((f"{d[:3]} {d[3:6]} {d[6:]}", d, f"{d[:3]}-{d[3:6]}-{d[6:]}"))


def share_link(rng: random.Random, name: Name | None) -> str:
    """A file-share link with `!` or `?e=` inside: one URL span, the token included."""
    tok = rand_str(rng, ALNUM + "-_", rng.randint(18, 30))
    who = f"{_slug(name.first)}_{_slug(name.last)}" if name else rand_str(rng, string.ascii_lowercase, 6)
    return rng.choice((
        f"https://1drv.ms/u/s!{tok}?e={rand_str(rng, ALNUM, 6)}",
        f"https://1drv.ms/x/s!{tok}",
        f"https://onedrive.live.com/redir?resid={rand_str(rng, HEX.upper(), 16)}!{rng.randint(100, 999)}&authkey=!{tok}",
        f"https://acme-my.sharepoint.com/:w:/g/personal/{who}_acme_fr/{tok}?e={rand_str(rng, ALNUM, 6)}",
        f"https://contoso.sharepoint.com/:b:/s/RH/{tok}?e={rand_str(rng, ALNUM, 6)}",
        f"https://mega.nz/file/{rand_str(rng, ALNUM, 8)}#{tok}",
        f"https://www.dropbox.com/scl/fi/{rand_str(rng, string.ascii_lowercase + string.digits, 21)}/{who}.pdf?rlkey={rand_str(rng, string.ascii_lowercase + string.digits, 25)}&dl=0",
    ))


def portfolio_url(rng: random.Random, name: Name | None) -> str:
    """A person's own site or portfolio."""
    if name is None:
        return f"https://{rand_str(rng, string.ascii_lowercase, 7)}.design/portfolio"
    f, ln = _slug(name.first), _slug(name.last)
    return rng.choice((f"https://{f}{ln}.com/portfolio", f"https://www.behance.net/{f}{ln}", f"https://dribbble.com/{f}-{ln}",
                       f"https://{f}-{ln}.netlify.app", f"https://{ln}{f[0]}.dev", f"https://about.me/{f}.{ln}"))


def pin_code(rng: random.Random) -> str:
    """A PIN, door code, one-time or backup code (SECRET per LABELS.md clarifications)."""
    r = rng.random()
    if r < 0.4:
        return _digits(rng, 4)
    if r < 0.6:
        return _digits(rng, 6)
    if r < 0.8:
        return f"{rng.randint(1, 9)}{_digits(rng, 3)}{rng.choice('ABCD')}"
    return f"{_digits(rng, 4)}-{_digits(rng, 4)}"


def role_email(rng: random.Random, domain: str) -> str:
    """An organisation's role mailbox: still EMAIL (LABELS.md: "EMAIL has no exception")."""
    return rng.choice(("contact", "info", "accueil", "support", "rh", "compta", "secretariat", "noreply",
                       "service.client", "hello", "dpo", "facturation")) + "@" + domain


def uri_password(rng: random.Random) -> str:
    """A password as it can sit inside a URI (no `@ : / # ?`)."""
    pwd = password(rng)
    for bad, good in (("@", "a"), ("/", "s"), (":", "c"), ("#", "h"), ("?", "q")):
        pwd = pwd.replace(bad, good)
    return pwd


def foreign_passport(rng: random.Random) -> str:
    """A passport number from another country: one or two letters then digits (E12345678, K1234567, AB1234567)."""
    return rand_str(rng, "EGKLMNPZ", rng.choice((1, 1, 2))) + _digits(rng, rng.choice((7, 8)))
