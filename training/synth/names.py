"""Person names of many origins and their surface forms (titles stay outside the span)."""

from __future__ import annotations

import random
import unicodedata
import zlib
from dataclasses import dataclass

from training.synth.fakers import Fakers

# Locales whose Faker first_name/last_name are in Latin script, with a weight.
NAME_LOCALES: tuple[tuple[str, int], ...] = (
    ("fr_FR", 22), ("en_US", 14), ("en_GB", 6), ("es_ES", 4), ("es_MX", 2), ("pt_BR", 3),
    ("pt_PT", 2), ("it_IT", 4), ("de_DE", 4), ("de_AT", 1), ("nl_NL", 2), ("pl_PL", 2),
    ("hu_HU", 2), ("fi_FI", 1), ("cs_CZ", 1), ("sk_SK", 1), ("ro_RO", 2), ("hr_HR", 1),
    ("sv_SE", 1), ("da_DK", 1), ("no_NO", 1), ("tr_TR", 2), ("vi_VN", 2), ("en_IN", 2),
    ("id_ID", 1), ("fr_CA", 2), ("fr_CH", 1), ("en_IE", 1), ("yo_NG", 1), ("zu_ZA", 1),
    ("sw", 1), ("en_AU", 1),
)

# Origins Faker lacks in Latin script: (first names, last names).
EXTRA_ORIGINS: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    "maghreb": (
        ("Mohamed", "Mohammed", "Ahmed", "Karim", "Yassine", "Mehdi", "Rachid", "Sofiane", "Bilal",
         "Nabil", "Hamza", "Youssef", "Samir", "Farid", "Abdelkader", "Fatima", "Yasmine", "Leïla",
         "Nadia", "Samira", "Amina", "Khadija", "Sana", "Inès", "Malika", "Myriam", "Zineb", "Hakim",
         "Naïma", "Djamel", "Abdallah", "Soufiane", "Walid", "Nour", "Salma", "Rania"),
        ("Benali", "El Amrani", "Haddad", "Bouzid", "Belkacem", "Mansouri", "Cherif", "Boukhari",
         "Zerrouki", "Benyahia", "Hamidi", "Saïdi", "Ait Ahmed", "El Idrissi", "Benmoussa", "Rahmani",
         "Meziane", "Ouali", "Chaouch", "Lakhdar", "Ben Salah", "Abdelaziz", "Bensaïd", "Kaci",
         "Bouaziz", "Tahiri", "El Fassi", "Amrani", "Boudjema", "Larbi"),
    ),
    "west_africa": (
        ("Amadou", "Moussa", "Ibrahima", "Mamadou", "Ousmane", "Cheikh", "Abdoulaye", "Fatou",
         "Aminata", "Aïssatou", "Mariama", "Kadiatou", "Awa", "Kofi", "Kwame", "Ama", "Yaw", "Chidi",
         "Ngozi", "Adebayo", "Oluwaseun", "Chinwe", "Emeka", "Blessing", "Koffi", "Adjoa", "Serge",
         "Ange", "Désiré", "Fanta", "Boubacar", "Seydou", "Aïcha"),
        ("Diallo", "Ndiaye", "Traoré", "Koné", "Diop", "Camara", "Sow", "Cissé", "Keïta", "Touré",
         "Ba", "Fall", "Sy", "Kouassi", "Kouamé", "Yao", "N'Guessan", "Mensah", "Owusu", "Asante",
         "Okafor", "Okeke", "Adeyemi", "Balogun", "Nwosu", "Sanogo", "Coulibaly", "Diarra", "Sangaré",
         "Mbaye", "Ndour", "Gueye", "Tchouameni", "Mbappé", "Eto'o", "Nkosi", "Dlamini"),
    ),
    "east_asia": (
        ("Wei", "Li", "Na", "Jing", "Hao", "Xiaoming", "Mei", "Yan", "Jun", "Haruto", "Yuki",
         "Sakura", "Hiroshi", "Kenji", "Aiko", "Min-jun", "Ji-woo", "Seo-yeon", "Hyun", "Thi Lan",
         "Van Anh", "Minh", "Thanh", "Linh", "Duc", "Somchai", "Anong", "Jae-won", "Xin", "Lei"),
        ("Wang", "Li", "Zhang", "Liu", "Chen", "Yang", "Huang", "Zhao", "Wu", "Zhou", "Sato",
         "Suzuki", "Takahashi", "Tanaka", "Watanabe", "Yamamoto", "Kim", "Lee", "Park", "Choi",
         "Jung", "Nguyen", "Tran", "Le", "Pham", "Hoang", "Phan", "Vu", "Dang", "Lim", "Tan", "Ng",
         "Wong", "Chan", "Srisuk"),
    ),
    "south_asia": (
        ("Priya", "Rahul", "Amit", "Anjali", "Arjun", "Deepika", "Vikram", "Sanjay", "Pooja",
         "Ravi", "Sunita", "Aditya", "Kavya", "Imran", "Ayesha", "Farhan", "Nusrat", "Tariq"),
        ("Sharma", "Patel", "Singh", "Kumar", "Gupta", "Reddy", "Iyer", "Nair", "Chatterjee",
         "Banerjee", "Mehta", "Joshi", "Khan", "Hussain", "Rahman", "Chowdhury", "Malik", "Qureshi"),
    ),
    "east_europe": (
        ("Ivan", "Dmitri", "Sergei", "Olga", "Natalia", "Ekaterina", "Andrei", "Oleksandr", "Yulia",
         "Tatiana", "Mikhail", "Anastasia", "Vladimir", "Irina", "Bogdan", "Milan", "Dragan",
         "Jelena", "Nikola", "Stefan", "Zoran", "Svetlana", "Ludmila", "Aleksandra"),
        ("Ivanov", "Petrova", "Smirnov", "Kuznetsova", "Popov", "Sokolov", "Volkova", "Shevchenko",
         "Kovalenko", "Bondarenko", "Tkachenko", "Horvat", "Novak", "Petrović", "Jovanović",
         "Nikolić", "Kowalczyk", "Wiśniewski", "Dvořák", "Georgiev", "Dimitrova", "Popescu",
         "Ionescu", "Morozov", "Lebedeva"),
    ),
    "hungarian": (
        ("László", "Zoltán", "Gábor", "Ágnes", "Katalin", "Erzsébet", "Péter", "Zsófia", "Réka",
         "Bence", "Dániel", "Eszter", "Tamás", "Csaba", "Ildikó", "Gyöngyi", "Ákos", "Gergő"),
        ("Nagy", "Kovács", "Tóth", "Szabó", "Horváth", "Varga", "Kiss", "Molnár", "Németh",
         "Farkas", "Balogh", "Papp", "Takács", "Juhász", "Lakatos", "Mészáros", "Oláh", "Simon",
         "Rácz", "Fekete", "Szűcs", "Győri", "Pál", "Török"),
    ),
}
# First names of EXTRA_ORIGINS that are female (the others are taken as male or neutral).
EXTRA_FEMALE = frozenset({
    "Fatima", "Yasmine", "Leïla", "Nadia", "Samira", "Amina", "Khadija", "Sana", "Inès", "Malika", "Myriam", "Zineb",
    "Naïma", "Nour", "Salma", "Rania", "Fatou", "Aminata", "Aïssatou", "Mariama", "Kadiatou", "Awa", "Ama", "Ngozi",
    "Chinwe", "Blessing", "Adjoa", "Ange", "Fanta", "Aïcha", "Na", "Jing", "Mei", "Yan", "Yuki", "Sakura", "Aiko",
    "Seo-yeon", "Thi Lan", "Linh", "Anong", "Xin", "Priya", "Anjali", "Deepika", "Pooja", "Sunita", "Kavya", "Ayesha",
    "Nusrat", "Olga", "Natalia", "Ekaterina", "Yulia", "Tatiana", "Anastasia", "Irina", "Jelena", "Svetlana",
    "Ludmila", "Aleksandra", "Ágnes", "Katalin", "Erzsébet", "Zsófia", "Réka", "Eszter", "Ildikó", "Gyöngyi",
})
EXTRA_WEIGHTS: dict[str, int] = {
    "maghreb": 8, "west_africa": 6, "east_asia": 5, "south_asia": 3, "east_europe": 4, "hungarian": 2,
}

FR_COMPOUND_MALE = (("Jean", "Pierre", "Paul", "Louis", "Marc"),
                    ("Pierre", "Claude", "Luc", "Marc", "Christophe", "Noël", "Philippe", "Michel", "Baptiste", "Yves"))
FR_COMPOUND_FEMALE = (("Marie", "Anne", "Marie", "Rose"),
                      ("Claude", "Laure", "Hélène", "France", "Sophie", "Charlotte", "Louise", "Christine", "Pierre", "Noëlle"))
PARTICLES = ("de", "de la", "du", "Le", "La", "van", "van der", "von", "da", "dos", "di", "Mac", "El",
             "Ben", "Ould", "d'")
NICKNAMES = ("Jojo", "Titi", "Bob", "Mimi", "Fredo", "Lulu", "Kiki", "Momo", "Bibi", "Dédé",
             "Nico", "Seb", "Manu", "Steph", "Alex", "Max", "Bill", "Jim", "Liz", "Kate", "Tony", "Sam")

TITLES_FR_M = ("M.", "Monsieur", "Mr", "Dr", "Docteur", "Me", "Pr")
TITLES_FR_F = ("Mme", "Madame", "Mlle", "Dr", "Docteure", "Me", "Pr")
TITLES_EN_M = ("Mr", "Mr.", "Dr", "Dr.", "Prof.", "Sir")
TITLES_EN_F = ("Mrs", "Mrs.", "Ms", "Ms.", "Miss", "Dr", "Dr.", "Prof.")


@dataclass(frozen=True)
class Name:
    first: str
    last: str
    female: bool
    origin: str


def strip_accents(text: str) -> str:
    """Remove diacritics one character at a time, so the length never changes."""
    return "".join(unicodedata.normalize("NFD", ch)[0] for ch in text)


def _pick_weighted(rng: random.Random, pairs) -> str:
    items = [p[0] for p in pairs]
    weights = [p[1] for p in pairs]
    return rng.choices(items, weights)[0]


def _faker_name(rng: random.Random, fakers: Fakers, locale: str, female: bool) -> tuple[str, str]:
    fk = fakers.get(locale, rng)
    try:
        first = fk.first_name_female() if female else fk.first_name_male()
    except AttributeError:
        first = fk.first_name()
    last = fk.last_name()
    return first.strip(), last.strip()


SPLITS = ("all", "train", "heldout")


def surname_split(last: str) -> str:
    """'heldout' for about one surname in ten (a fixed hash of its letters), else 'train'."""
    key = strip_accents(last).lower().replace(" ", "").replace("-", "")
    return "heldout" if zlib.crc32(key.encode()) % 10 == 0 else "train"


def random_name_in_split(rng: random.Random, fakers: Fakers, lang: str, split: str = "all") -> Name:
    """A random name whose surname belongs to `split` (so held-out surnames never appear in training)."""
    name = random_name(rng, fakers, lang)
    tries = 0
    while split != "all" and surname_split(name.last) != split and tries < 100:
        name = random_name(rng, fakers, lang)
        tries += 1
    return name


def random_name(rng: random.Random, fakers: Fakers, lang: str) -> Name:
    """A full name; French documents lean on French names, English ones on English names."""
    female = rng.random() < 0.5
    r = rng.random()
    if r < 0.28:
        origin = rng.choices(list(EXTRA_WEIGHTS), list(EXTRA_WEIGHTS.values()))[0]
        firsts, lasts = EXTRA_ORIGINS[origin]
        first, last = rng.choice(firsts), rng.choice(lasts)
        female = first in EXTRA_FEMALE
    else:
        if r < 0.55:
            locale = "fr_FR" if lang == "fr" else rng.choice(("en_US", "en_GB", "en_US", "en_AU", "en_CA"))
        else:
            locale = _pick_weighted(rng, NAME_LOCALES)
        origin = locale
        first, last = _faker_name(rng, fakers, locale, female)
    first = first.replace("\u200b", "")
    last = last.replace("\u200b", "")
    x = rng.random()
    if x < 0.07 and origin in ("fr_FR", "fr_CA", "fr_CH"):
        firsts, seconds = FR_COMPOUND_FEMALE if female else FR_COMPOUND_MALE
        a, b = rng.choice(firsts), rng.choice(seconds)
        if a != b:
            first = f"{a}-{b}"
    elif x < 0.12:
        particle = rng.choice(PARTICLES)
        if particle == "d'":
            particle = "d'" if last[:1] in "AEIOUÉ" else "de"
        last = f"{particle} {last}".replace("d' ", "d'")
    elif x < 0.17:
        other = _faker_name(rng, fakers, rng.choice(("fr_FR", "es_ES", "pt_BR", "en_GB")), female)[1]
        if other != last:
            last = f"{last}-{other}" if rng.random() < 0.6 else f"{last} {other}"
    elif x < 0.20 and origin == "fr_FR":
        last = f"Le {last}" if rng.random() < 0.5 else "Le Gall"
    return Name(first=first, last=last, female=female, origin=origin)


def _initials(first: str) -> str:
    parts = first.replace("-", " - ").split()
    out = []
    for p in parts:
        out.append("-" if p == "-" else p[0] + ".")
    return "".join(x if x == "-" else x for x in out).replace(".-", ".-")


def surface(rng: random.Random, name: Name, form: str | None = None) -> str:
    """One written form of the name; never starts or ends with a space or punctuation."""
    form = form or rng.choices(
        ("full", "full", "full", "last_first_caps", "initial_last", "first", "last", "caps",
         "lower", "last_first", "middle", "noaccent", "last_comma_first", "nickname", "suffix"),
        (30, 10, 10, 8, 7, 7, 8, 3, 3, 4, 3, 3, 2, 1, 1),
    )[0]
    f, ln = name.first, name.last
    if form == "full":
        return f"{f} {ln}"
    if form == "last_first_caps":
        return f"{ln.upper()} {f}"
    if form == "initial_last":
        return f"{_initials(f)} {ln}"
    if form == "first":
        return f
    if form == "last":
        return ln
    if form == "caps":
        return f"{f} {ln}".upper()
    if form == "lower":
        return f"{f} {ln}".lower()
    if form == "last_first":
        return f"{ln} {f}"
    if form == "middle":
        middle = rng.choice(("Marie", "J.", "A.", "Louis", "Ann", "Elizabeth", "K.", "Maria", "Paul"))
        return f"{f} {middle} {ln}"
    if form == "noaccent":
        return strip_accents(f"{f} {ln}")
    if form == "last_comma_first":
        return f"{ln.upper()}, {f}"
    if form == "suffix":
        return f"{f} {ln} {rng.choice(('Jr', 'Sr', 'II', 'III', 'IV'))}"
    return rng.choice(NICKNAMES)


def title(rng: random.Random, name: Name, lang: str) -> str:
    if lang == "fr":
        return rng.choice(TITLES_FR_F if name.female else TITLES_FR_M)
    return rng.choice(TITLES_EN_F if name.female else TITLES_EN_M)


def nom_prenom(rng: random.Random, name: Name) -> str:
    """'NOM Prénom' or all-caps forms as written on French forms and OCR'd cards: one PERSON span."""
    f, ln = name.first, name.last
    return rng.choice((f"{ln.upper()} {f}", f"{ln.upper()} {f.upper()}", f"{f.upper()} {ln.upper()}",
                       f"{ln.upper()} {f}", f"{ln} {f}", f"{ln.upper()}, {f}"))


def with_initials(rng: random.Random, name: Name) -> str:
    """A name written with initials: 'J.-P. Martin', 'JP Martin', 'J. A. Dupont' (never ending on a dot)."""
    f, ln = name.first, name.last
    letters = [p[0].upper() for p in f.replace("-", " ").split() if p]
    dotted = _initials(f)
    middle = rng.choice("ABCDEFGHJKLMPRST")
    return rng.choice((
        f"{dotted} {ln}", f"{''.join(letters)} {ln}", f"{letters[0]}. {middle}. {ln}", f"{dotted} {ln.upper()}",
        f"{letters[0]}.{middle}. {ln}", f"{''.join(letters)} {ln.upper()}",
    ))
