"""Postal addresses of many countries and layouts, single- and multi-line."""

from __future__ import annotations

import random

from training.synth.fakers import Fakers

# locale -> (country name in English, in French)
COUNTRIES: dict[str, tuple[str, str]] = {
    "fr_FR": ("France", "France"), "en_US": ("USA", "États-Unis"), "en_GB": ("United Kingdom", "Royaume-Uni"),
    "en_AU": ("Australia", "Australie"), "en_CA": ("Canada", "Canada"), "fr_CA": ("Canada", "Canada"),
    "de_DE": ("Germany", "Allemagne"), "it_IT": ("Italy", "Italie"), "es_ES": ("Spain", "Espagne"),
    "pt_BR": ("Brazil", "Brésil"), "pt_PT": ("Portugal", "Portugal"), "nl_NL": ("Netherlands", "Pays-Bas"),
    "pl_PL": ("Poland", "Pologne"), "hu_HU": ("Hungary", "Hongrie"), "fi_FI": ("Finland", "Finlande"),
    "de_AT": ("Austria", "Autriche"), "de_CH": ("Switzerland", "Suisse"), "fr_CH": ("Switzerland", "Suisse"),
    "es_MX": ("Mexico", "Mexique"), "cs_CZ": ("Czech Republic", "République tchèque"),
    "sv_SE": ("Sweden", "Suède"), "da_DK": ("Denmark", "Danemark"), "ro_RO": ("Romania", "Roumanie"),
    "en_IE": ("Ireland", "Irlande"), "en_NZ": ("New Zealand", "Nouvelle-Zélande"),
    "hr_HR": ("Croatia", "Croatie"), "no_NO": ("Norway", "Norvège"), "en_IN": ("India", "Inde"),
    "es_AR": ("Argentina", "Argentine"), "es_CO": ("Colombia", "Colombie"), "es_CL": ("Chile", "Chili"),
    "en_PH": ("Philippines", "Philippines"),
}
ADDRESS_LOCALES: tuple[tuple[str, int], ...] = (
    ("fr_FR", 30), ("en_US", 20), ("en_GB", 8), ("en_AU", 3), ("en_CA", 3), ("fr_CA", 2),
    ("de_DE", 4), ("it_IT", 3), ("es_ES", 3), ("pt_BR", 2), ("pt_PT", 1), ("nl_NL", 2), ("pl_PL", 2),
    ("hu_HU", 1), ("fi_FI", 1), ("de_AT", 1), ("de_CH", 1), ("fr_CH", 2), ("es_MX", 1), ("cs_CZ", 1),
    ("sv_SE", 1), ("da_DK", 1), ("ro_RO", 1), ("en_IE", 1), ("en_NZ", 1), ("hr_HR", 1), ("no_NO", 1),
    ("en_IN", 1), ("es_AR", 1), ("es_CO", 1), ("es_CL", 1), ("en_PH", 1),
)
# Francophone addresses Faker lacks: (street types, cities with postcodes, country names (fr, en)).
FRANCOPHONE: dict[str, tuple[tuple[str, ...], tuple[tuple[str, str], ...], tuple[str, str]]] = {
    "BE": (("rue", "avenue", "chaussée", "place", "boulevard", "drève"),
           (("1000", "Bruxelles"), ("4000", "Liège"), ("5000", "Namur"), ("6000", "Charleroi"), ("1348", "Louvain-la-Neuve"),
            ("1050", "Ixelles"), ("7000", "Mons")), ("Belgique", "Belgium")),
    "LU": (("rue", "avenue", "boulevard", "route"),
           (("L-1111", "Luxembourg"), ("L-4002", "Esch-sur-Alzette"), ("L-9050", "Ettelbruck")), ("Luxembourg", "Luxembourg")),
    "MA": (("rue", "avenue", "boulevard", "résidence", "lotissement"),
           (("20000", "Casablanca"), ("10000", "Rabat"), ("40000", "Marrakech"), ("90000", "Tanger"), ("30000", "Fès")),
           ("Maroc", "Morocco")),
    "DZ": (("rue", "cité", "boulevard", "lotissement"),
           (("16000", "Alger"), ("31000", "Oran"), ("25000", "Constantine"), ("23000", "Annaba")), ("Algérie", "Algeria")),
    "TN": (("rue", "avenue", "cité"), (("1000", "Tunis"), ("4000", "Sousse"), ("3000", "Sfax")), ("Tunisie", "Tunisia")),
    "SN": (("rue", "avenue", "cité", "villa"), (("BP 3012", "Dakar"), ("", "Thiès"), ("", "Saint-Louis")), ("Sénégal", "Senegal")),
    "CI": (("rue", "boulevard", "cité", "lot"), (("01 BP 1234", "Abidjan"), ("", "Cocody"), ("", "Yamoussoukro")),
           ("Côte d'Ivoire", "Ivory Coast")),
}
FRANCOPHONE_NAMES = ("Mohammed V", "Hassan II", "de la Liberté", "des FAR", "Didouche Mourad", "Habib Bourguiba",
                     "Léopold Sédar Senghor", "de l'Indépendance", "Louise", "Royale", "de la Loi", "Grande-Rue",
                     "Zerktouni", "Larbi Ben M'hidi", "des Palmiers", "Houphouët-Boigny", "du 7 Novembre")
WORLD_COUNTRIES = (
    "Uruguay", "Argentina", "Chile", "Peru", "Colombia", "Morocco", "Maroc", "Algérie", "Tunisie",
    "Sénégal", "Côte d'Ivoire", "Belgique", "Belgium", "Luxembourg", "Monaco", "Japan", "Vietnam",
    "Nigeria", "Kenya", "South Africa", "Greece", "Turkey", "Ukraine", "Israel", "Egypt", "Lebanon",
)
FR_STREET_TYPES = ("rue", "avenue", "boulevard", "allée", "impasse", "place", "chemin", "route", "quai",
                   "cours", "square", "passage", "rue", "rue", "avenue", "bd", "av.", "chaussée", "voie")
FR_STREET_NAMES = (
    "Victor Hugo", "de la République", "Jean Jaurès", "du Général de Gaulle", "Pasteur", "des Tilleuls",
    "de la Gare", "des Lilas", "Gambetta", "du Moulin", "de l'Église", "des Écoles", "Voltaire",
    "Émile Zola", "de Verdun", "du Stade", "de la Paix", "des Acacias", "Saint-Michel", "de Paris",
    "Carnot", "Foch", "Nationale", "de la Liberté", "Jules Ferry", "des Roses", "du Château",
    "Anatole France", "Louis Pasteur", "des Peupliers", "de Belleville", "Sainte-Catherine",
)
FR_CITIES = (
    ("75011", "Paris"), ("75015", "Paris"), ("69003", "Lyon"), ("13008", "Marseille"), ("31000", "Toulouse"),
    ("06000", "Nice"), ("44000", "Nantes"), ("67000", "Strasbourg"), ("34000", "Montpellier"),
    ("33000", "Bordeaux"), ("59000", "Lille"), ("35000", "Rennes"), ("51100", "Reims"), ("76600", "Le Havre"),
    ("42000", "Saint-Étienne"), ("83000", "Toulon"), ("38000", "Grenoble"), ("21000", "Dijon"),
    ("49000", "Angers"), ("29200", "Brest"), ("20000", "Ajaccio"), ("20200", "Bastia"),
    ("97400", "Saint-Denis"), ("92100", "Boulogne-Billancourt"), ("93100", "Montreuil"),
    ("94300", "Vincennes"), ("64100", "Bayonne"), ("74000", "Annecy"), ("57000", "Metz"),
    ("87000", "Limoges"), ("25000", "Besançon"), ("14000", "Caen"), ("80000", "Amiens"),
)
FR_COMPLEMENTS = ("Bât B", "Bâtiment C", "Appt 12", "Apt 3", "Escalier 2", "Résidence Les Pins",
                  "Résidence du Parc, Bât A", "3e étage", "Porte 14", "Lot 7",
                  "Appartement 41", "Entrée 2", "Lieu-dit Les Granges")


def _fr_street(rng: random.Random, fakers: Fakers) -> str:
    num = str(rng.randint(1, 250))
    if rng.random() < 0.1:
        num += rng.choice((" bis", " ter", "bis", "B"))
    if rng.random() < 0.5:
        street = f"{rng.choice(FR_STREET_TYPES)} {rng.choice(FR_STREET_NAMES)}"
    else:
        street = fakers.get("fr_FR", rng).street_name()
    sep = ", " if rng.random() < 0.2 else " "
    return f"{num}{sep}{street}"


def _fr_city(rng: random.Random, fakers: Fakers) -> str:
    if rng.random() < 0.6:
        cp, city = rng.choice(FR_CITIES)
    else:
        fk = fakers.get("fr_FR", rng)
        cp, city = fk.postcode(), fk.city()
    if rng.random() < 0.1:
        city = city.upper()
    if rng.random() < 0.05:
        city += " Cedex"
    return f"{cp} {city}"


def french_address(rng: random.Random, fakers: Fakers, lang: str) -> str:
    street = _fr_street(rng, fakers)
    city = _fr_city(rng, fakers)
    country = rng.choice(("France", "FRANCE", "France")) if rng.random() < 0.3 else ""
    if rng.random() < 0.05:
        street = f"BP {rng.randint(1, 999)}" if rng.random() < 0.5 else f"CS {rng.randint(10000, 99999)}"
    lines = []
    if rng.random() < 0.25:
        comp = rng.choice(FR_COMPLEMENTS)
        if rng.random() < 0.5:
            lines.append(comp)
            lines.append(street)
        else:
            lines.append(f"{comp}, {street}")
    else:
        lines.append(street)
    lines.append(city)
    if country:
        lines.append(country)
    return _join(rng, lines)


def _join(rng: random.Random, lines: list[str]) -> str:
    mode = rng.random()
    if mode < 0.45:
        return ", ".join(lines)
    if mode < 0.85:
        return "\n".join(lines)
    if mode < 0.93:
        return " ".join(lines)
    return " - ".join(lines)


def _locale_address(rng: random.Random, fakers: Fakers, locale: str, lang: str) -> str:
    fk = fakers.get(locale, rng)
    country = COUNTRIES.get(locale, ("", ""))[0 if lang == "en" else 1]
    r = rng.random()
    if r < 0.45:
        text = fk.address()
        lines = [ln.strip().strip(",") for ln in text.split("\n") if ln.strip()]
    else:
        street = fk.street_address()
        if locale in ("en_US", "en_CA", "en_AU") and rng.random() < 0.3:
            street += rng.choice((" Apt ", " Apt. ", " Suite ", " Unit ", " #")) + str(rng.randint(1, 999))
        if locale == "en_GB" and rng.random() < 0.3:
            street = f"Flat {rng.randint(1, 40)}, {street}"
        city = fk.city()
        pc = fk.postcode()
        state = ""
        if hasattr(fk, "state_abbr") and locale in ("en_US", "en_AU", "en_CA", "es_MX"):
            try:
                state = fk.state_abbr()
            except AttributeError:
                state = ""
        if locale in ("en_US", "en_CA", "en_AU", "es_MX"):
            lines = [street, f"{city}, {state} {pc}".replace(",  ", ", ")]
        elif locale in ("en_GB", "en_IE", "en_NZ", "en_IN"):
            lines = [street, city, pc]
        elif locale == "pt_BR":
            lines = [street, f"{city} - {fk.estado_sigla()}" if hasattr(fk, "estado_sigla") else city, pc]
        elif locale == "hu_HU" and rng.random() < 0.5:
            lines = [f"{pc} {city}", street]
        else:
            lines = [street, f"{pc} {city}"]
    if rng.random() < 0.1 and locale in ("en_US", "en_GB", "en_AU", "en_CA"):
        lines[0] = rng.choice(("P.O. Box ", "PO Box ", "POB ")) + str(rng.randint(1, 9999))
    if country and rng.random() < 0.35:
        lines.append(country)
    return _join(rng, lines)


def francophone_address(rng: random.Random, lang: str) -> str:
    code = rng.choice(tuple(FRANCOPHONE))
    types, cities, country = FRANCOPHONE[code]
    street = f"{rng.randint(1, 300)} {rng.choice(types)} {rng.choice(FRANCOPHONE_NAMES)}"
    if code in ("MA", "DZ", "TN", "SN", "CI") and rng.random() < 0.4:
        street = f"{rng.choice(('Résidence Al Amal', 'Imm. 4', 'Villa 12', 'Appt 7', 'Cité des Jasmins, bloc B'))}, {street}"
    if code == "BE" and rng.random() < 0.3:
        street = f"{rng.choice(('Rue', 'Avenue'))} {rng.choice(FRANCOPHONE_NAMES)} {rng.randint(1, 300)}" + (f" bte {rng.randint(1, 20)}" if rng.random() < 0.5 else "")
    cp, city = rng.choice(cities)
    lines = [street, f"{cp} {city}".strip()]
    if rng.random() < 0.6:
        lines.append(country[0] if lang == "fr" else country[1])
    return _join(rng, lines)


def presidio_style_address(rng: random.Random, fakers: Fakers) -> str:
    """Mixed-up template addresses like presidio-research's: street, city, state, country, zip."""
    fk_street = fakers.get(rng.choice(("fi_FI", "en_US", "de_DE", "es_ES", "it_IT", "en_GB")), rng)
    fk_city = fakers.get(rng.choice(("es_MX", "en_US", "pt_BR", "en_AU")), rng)
    street = f"{rng.randint(1, 9999)} {fk_street.street_name()}"
    if rng.random() < 0.5:
        street += f" {rng.randint(1, 99)}"
    if rng.random() < 0.4:
        street += rng.choice((" Apt. ", " Suite ", " Apt ")) + str(rng.randint(1, 999))
    city = fk_city.city()
    state = fakers.get("en_US", rng).state_abbr()
    country = rng.choice(WORLD_COUNTRIES + ("USA", "Canada", "United States", "Australia"))
    zipc = fakers.get("en_US", rng).zipcode()
    form = rng.random()
    if form < 0.3:
        return f"{street}\n{city}\n, {state}\n {country} {zipc}"
    if form < 0.6:
        return f"{street}, {city}, {state} {zipc}"
    if form < 0.8:
        return f"{street}\n{city}, {state} {zipc}\n{country}"
    return f"{street} {city} {state} {zipc} {country}"


def street_only(rng: random.Random, fakers: Fakers, lang: str) -> str:
    """Just the street line, as in "I live at 12 Elm Street": still an ADDRESS."""
    if lang == "fr" and rng.random() < 0.7:
        return _fr_street(rng, fakers)
    locale = rng.choice(("en_US", "en_US", "en_GB", "en_AU", "de_DE", "es_ES", "it_IT"))
    street = fakers.get(locale, rng).street_address()
    if locale == "en_US" and rng.random() < 0.3:
        street += rng.choice((" Apt ", " Apt. ", " Suite ", " #")) + str(rng.randint(1, 999))
    return street


def random_address(rng: random.Random, fakers: Fakers, lang: str) -> str:
    r = rng.random()
    if r < 0.08:
        text = street_only(rng, fakers, lang)
    elif r < (0.38 if lang == "fr" else 0.18):
        text = french_address(rng, fakers, lang)
    elif r < (0.45 if lang == "fr" else 0.22):
        text = francophone_address(rng, lang)
    elif r < 0.9:
        items = [p[0] for p in ADDRESS_LOCALES]
        weights = [p[1] for p in ADDRESS_LOCALES]
        locale = rng.choices(items, weights)[0]
        if locale == "fr_FR":
            text = french_address(rng, fakers, lang)
        else:
            text = _locale_address(rng, fakers, locale, lang)
    else:
        text = presidio_style_address(rng, fakers)
    return text.strip(" \n,.;:-")


def zip_code(rng: random.Random, fakers: Fakers, lang: str) -> str:
    if lang == "fr" and rng.random() < 0.7:
        return rng.choice(FR_CITIES)[0]
    return fakers.get(rng.choice(("en_US", "en_US", "en_GB", "de_DE", "en_CA")), rng).postcode()


def lone_place(rng: random.Random, fakers: Fakers, lang: str) -> str:
    """A city or a country alone: not an ADDRESS."""
    r = rng.random()
    if r < 0.4:
        return rng.choice(FR_CITIES)[1]
    if r < 0.7:
        return fakers.get(rng.choice(("en_US", "en_GB", "de_DE", "es_ES", "it_IT")), rng).city()
    return rng.choice(WORLD_COUNTRIES + tuple(c[0 if lang == "en" else 1] for c in COUNTRIES.values()))
