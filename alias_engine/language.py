"""The languages the rules know (one folder each: rules/fr/, rules/en/), and a guess of a text's.

A language folder holds `keywords.json` (its keyword rules, detectors/keywords.py)
and `language.json`: `stop_words` (frequent words that guess the language),
`phone_regions` (the regions whose national phone formats are tried, in order),
`not_names` (greetings and sign-offs that are never a name alone) and
`date_orders` (how numeric dates are written: "dmy", "mdy"), `elided_articles`
(French `d'`, `qu'`: the articles written elided before a vowel, which restore
writes in full before a value that starts otherwise) and `words`: the
language's words that the resolve stage reads, one list a key of `WORD_KEYS`
(titles and greetings before a name, name particles, words after a name, address
and organisation words...). The rules of every language apply to every text, so
the resolve stage reads each key's words united over the languages
(`Languages.words`, resolve/lexicon.py).
`rules/languages.json` gives the order the folders are read in and the
`default` language of a text that gives no sign of one. docs/rules.md says how
to add a language.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import regex

from .errors import RulesError
from .resources import data_dir, read_rule_file

_WORD = regex.compile(r"\p{L}+")
LANGUAGE_KEYS = frozenset({"lang", "description", "comment", "stop_words", "phone_regions", "not_names",
                           "date_orders", "elided_articles", "words"})
DATE_ORDERS = ("dmy", "mdy")
_COMMENT_LINE = re.compile(r"^#.*$", re.MULTILINE)  # in a word file
# The keys of "words": the language's words of each resolve step (docs/rules.md).
WORD_KEYS = (
    "person_lead_words",        # titles, ranks, greetings before a name (resolve/span_repair.py)
    "name_particles",           # "de", "van" inside a name
    "name_stop_words",          # capitalised words after a name, not of it
    "address_line_words",       # a line with one of them is no addressee's name
    "address_building_words",   # the first word of a building's name
    "organisation_words",       # institutions and legal forms (resolve/letterheads.py)
    "business_words",           # "garage", "agence": an organisation's only written with a capital
    "contact_labels",           # field labels of a letterhead's contact lines
    "office_titles",            # "Dr", "Maître": a titled person's block is their own office's
    "street_words",             # "rue", "road": a street names no organisation
    "dwelling_words",           # "house", "ferme" by an organisation's word: a home's name ("Old School House")
    "former_use_words",         # "old", "ancienne" before an organisation's word: a home's name ("The Old Bank")
    "sentence_words",           # pronouns and verbs: a line with one is a sentence
    "organisation_connectors",  # lower-case words inside an organisation's name
    "not_a_name_values",        # placeholders of a name field: "n/a", "inconnu" (resolve/structure.py)
    "lower_case_words",         # written in lower case, they name nobody: "Feedback" (a file; read per language)
    "couple_connectors",        # "and", "et" between two first names before one surname
    "address_lead_words",       # "outside", "résidant": words before an address, not of it
    "town_lead_words",          # "demeurant à": before the town a deed writes before the street
    "eponym_words",             # "disease", "Prize" after a name: the name is a thing's ("Crohn's disease")
    "eponym_lead_words",        # "maladie de", "lycée", "rue" before a name: a thing's ("sarcome de Kaposi")
    "eponym_names",             # "Alzheimer", "Crohn": a disease's or a sign's name alone, no person's
    "company_words",            # "Ltd", "SARL", "Plomberie" with a capital by a name: a company's name
    "birthplace_lead_words",    # "born in", "né à": before a place of birth, no address
    "brand_names",              # "Netflix", "Castorama": a company's or a product's name, no person's
    "pet_words",                # "the dog", "le chat" by a name: a pet's, no person's
    "introduction_words",       # "it's", "c'est" after a greeting or a line's start: a name in lower case after them
    "list_connectors",          # "and", "ou" between the values after one keyword (detectors/keywords.py)
)
WORDS_AS_WRITTEN = frozenset({"company_words"})  # their case says how a text writes them: "SCI", "Properties", "plc"


@dataclass(frozen=True)
class ElidedArticle:
    """An article written elided before a vowel: `stem` and an apostrophe (French `d'`, `qu'`).

    >>> de = ElidedArticle("d", "de", frozenset("aeiouyh"))
    >>> de.before("D'", "Anne"), de.before("d'", "Marc")
    ("D'Anne", 'de Marc')
    """

    stem: str  # casefolded
    full: str  # the article written in full before a word that does not start with a vowel
    vowels: frozenset[str]

    def before(self, written: str, value: str) -> str:
        """`written` (this article as the text writes it, apostrophe included) before `value`: as
        written before a vowel, else in full, its first letters in the case written."""
        if value[:1].lower() in self.vowels:
            return written + value
        return written[:len(self.stem)] + self.full[len(self.stem):] + " " + value


@dataclass(frozen=True)
class Language:
    name: str
    stop_words: frozenset[str] = frozenset()
    phone_regions: tuple[str, ...] = ()
    not_names: frozenset[str] = frozenset()  # casefolded
    date_orders: tuple[str, ...] = ()  # how numeric dates are written: "dmy", "mdy"
    elided_articles: tuple[tuple[str, str], ...] = ()  # (the article's stem before its apostrophe, casefolded; in full)
    elision_vowels: frozenset[str] = frozenset()  # the first letters of a word an article is elided before
    words: tuple[tuple[str, frozenset[str]], ...] = ()  # (key of WORD_KEYS, its casefolded words)

    def words_of(self, key: str) -> frozenset[str]:
        """The language's casefolded words (WORDS_AS_WRITTEN's as written) of `key` (one of WORD_KEYS)."""
        return dict(self.words).get(key, frozenset())


@dataclass(frozen=True)
class Languages:
    """The language folders of a rules directory, in order, and the default language."""

    all: tuple[Language, ...]
    default: str

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(lang.name for lang in self.all)

    @property
    def date_orders(self) -> tuple[str, ...]:
        """The numeric date orders of every language, in order: keyword rules of every language apply
        to every text, so a date is read in any order some language writes it in."""
        return tuple(dict.fromkeys(order for lang in self.all for order in lang.date_orders))

    def elided_articles(self) -> tuple[ElidedArticle, ...]:
        """The elided articles of every language, longest stem first."""
        found = {stem: ElidedArticle(stem, full, lang.elision_vowels)
                 for lang in self.all for stem, full in lang.elided_articles}
        return tuple(sorted(found.values(), key=lambda a: -len(a.stem)))

    def words(self, key: str) -> frozenset[str]:
        """The casefolded words (WORDS_AS_WRITTEN's as written) of `key` (one of WORD_KEYS) of every language: the rules of every
        language apply to every text, so a word listed in one language applies to a text of another."""
        return frozenset().union(*(lang.words_of(key) for lang in self.all))

    def guess(self, text: str, sample: int = 5000) -> str:
        """The language with the most stop words in the first `sample` characters (the default on a tie)."""
        counts = dict.fromkeys(self.names, 0)
        for word in _WORD.findall(text[:sample].lower()):
            for lang in self.all:
                counts[lang.name] += word in lang.stop_words
        best = max(counts.values(), default=0)
        tied = [name for name, n in counts.items() if n == best]
        return self.default if self.default in tied else tied[0]


def language_folders(rules_dir: Path) -> list[Path]:
    """The language folders of `rules_dir` (those holding a language.json), in the order of languages.json."""
    order = read_rule_file(rules_dir / "languages.json").get("order", [])
    found = sorted(p.parent for p in Path(rules_dir).glob("*/language.json"))
    by_name = {p.name: p for p in found}
    missing = [name for name in order if name not in by_name]
    if missing:
        raise RulesError(f"{rules_dir / 'languages.json'}: no folder {', '.join(missing)} with a language.json")
    return [by_name[name] for name in order] + [p for p in found if p.name not in order]


def load_languages(rules_dir: Path) -> Languages:
    """Read every language.json of `rules_dir`; RulesError on a malformed one."""
    rules_dir = Path(rules_dir)
    languages = []
    for folder in language_folders(rules_dir):
        path = folder / "language.json"
        data = read_rule_file(path)
        unknown = set(data) - LANGUAGE_KEYS
        if unknown or data.get("lang", folder.name) != folder.name:
            raise RulesError(f"{path}: unknown key(s) {', '.join(sorted(unknown))}" if unknown
                             else f"{path}: \"lang\" must be the folder's name, {folder.name!r}")
        try:
            languages.append(Language(
                folder.name,
                frozenset(w.lower() for w in data.get("stop_words", {}).get("words", [])),
                tuple(data.get("phone_regions", {}).get("regions", [])),
                frozenset(w.casefold() for w in data.get("not_names", {}).get("words", [])),
                tuple(data.get("date_orders", {}).get("orders", [])),
                *_elided_articles(data.get("elided_articles", {}), path),
                words=_words(data.get("words", {}), path)))
        except (AttributeError, TypeError):
            raise RulesError(f"{path}: stop_words, phone_regions, not_names and date_orders are objects with a list "
                             "('words', 'regions' or 'orders')") from None
        if set(languages[-1].date_orders) - set(DATE_ORDERS):
            raise RulesError(f"{path}: date_orders.orders must be among {', '.join(DATE_ORDERS)}")
    if not languages:
        raise RulesError(f"{rules_dir}: no language folder (a folder with a language.json)")
    default = read_rule_file(rules_dir / "languages.json").get("default", languages[0].name)
    if default not in [lang.name for lang in languages]:
        raise RulesError(f"{rules_dir / 'languages.json'}: default {default!r} is no language folder")
    return Languages(tuple(languages), default)


def _elided_articles(section: object, path: Path) -> tuple[tuple[tuple[str, str], ...], frozenset[str]]:
    """A language.json's "elided_articles": {"comment", "articles": {stem: in full}, "vowels": "aeiou..."}."""
    if section == {}:
        return (), frozenset()
    articles = section.get("articles") if isinstance(section, dict) else None
    vowels = section.get("vowels") if isinstance(section, dict) else None
    if (not isinstance(articles, dict) or not isinstance(vowels, str) or not vowels
            or not all(isinstance(k, str) and k.isalpha() and isinstance(v, str) and v.casefold().startswith(k.casefold())
                       for k, v in articles.items())):
        raise RulesError(f"{path}: elided_articles is an object {{\"comment\", \"articles\": {{stem: the article "
                         "in full, starting with its stem}}, \"vowels\": the letters the stem is elided before}}")
    return tuple((k.casefold(), v.casefold()) for k, v in articles.items()), frozenset(vowels.casefold())


def _words(section: object, path: Path) -> tuple[tuple[str, frozenset[str]], ...]:
    """The casefolded word sets (WORDS_AS_WRITTEN's as written) of a language.json's "words": {key: {"comment", "words": [...]}};
    RulesError naming the file on an unknown key or a malformed entry."""
    if not isinstance(section, dict):
        raise RulesError(f"{path}: \"words\" is an object of word lists ({', '.join(WORD_KEYS)})")
    unknown = set(section) - set(WORD_KEYS) - {"comment"}
    if unknown:
        raise RulesError(f"{path}: unknown key(s) {', '.join(sorted(unknown))} in \"words\"")
    out = []
    for key in WORD_KEYS:
        if key not in section:
            continue
        entry = section[key]
        words = _listed_or_filed(entry, path, casefold=key not in WORDS_AS_WRITTEN)
        if words is None or set(entry) - {"comment", "words", "file"}:
            raise RulesError(f"{path}: words.{key} must be an object {{\"comment\", \"words\"}} "
                             "whose \"words\" is a list of words, or {\"comment\", \"file\"} naming a file of "
                             "the folder with one word a line")
        out.append((key, words))
    return tuple(out)


def _listed_or_filed(entry: object, path: Path, casefold: bool = True) -> frozenset[str] | None:
    """The casefolded words (as written: `casefold` false) of a "words" entry: its list, or the lines of the
    file it names (next to `path`; lines starting with "#" are comments); None when it has neither, or a
    word that is no word."""
    if not isinstance(entry, dict):
        return None
    if "file" not in entry:
        words = entry.get("words")
        if not isinstance(words, list) or not all(isinstance(w, str) and w.strip() for w in words):
            return None
        return frozenset(map(str.casefold, words)) if casefold else frozenset(words)
    name = entry["file"]
    if "words" in entry or not isinstance(name, str) or Path(name).name != name:
        return None
    try:
        return _words_of_file(path.parent.joinpath(name).read_text(encoding="utf-8"), casefold)
    except (OSError, UnicodeDecodeError) as exc:
        raise RulesError(f"{path}: cannot read the word file {name!r} ({type(exc).__name__})") from None


@lru_cache(maxsize=8)
def _words_of_file(text: str, casefold: bool = True) -> frozenset[str]:
    """The casefolded words (as written: `casefold` false) of a word file's text, parsed once for every Engine
    (and copy of the rules)."""
    words = _COMMENT_LINE.sub("", text).split()
    return frozenset(map(str.casefold, words)) if casefold else frozenset(words)


@lru_cache(maxsize=1)
def shipped_languages() -> Languages:
    return load_languages(data_dir("rules"))


def guess_language(text: str, sample: int = 5000) -> str:
    """The language of `text` among the shipped rules' languages ("fr" or "en")."""
    return shipped_languages().guess(text, sample)
