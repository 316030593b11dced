"""The languages' words that the resolve stage, the repeats and the sessions read: each key of
`WORD_KEYS` (rules/<lang>/language.json → "words", language.py), united over the languages, and
the word patterns built from them, compiled once.

The rules of every language apply to every text, so a word listed by one language applies to a
text of another; the keys of `OWN_WORD_KEYS` are also read by the text's language alone (English
writes "K. Threlfall" for an initial where French "M." is Monsieur).

>>> lexicon = Lexicon.from_words({"person_lead_words": ["Dr."], "eponym_words": ["disease"]})
>>> "dr" in lexicon.person_lead_words, lexicon.eponym_after.match("Crohn's disease", 5) is not None
(True, True)
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, fields
from functools import cached_property, lru_cache

import regex

from ..detectors.patterns import phrases
from ..language import WORD_KEYS, WORDS_AS_WRITTEN, Languages

OWN_WORD_KEYS = ("lower_case_words", "person_lead_words")
_NO_DOT = frozenset({"person_lead_words", "office_titles"})  # titles, compared without their final dot


@dataclass(frozen=True)
class Lexicon:
    """The casefolded words of each key of language.py's WORD_KEYS, united over the languages (the
    lower-case words: by language only, `words_of`)."""

    person_lead_words: frozenset[str] = frozenset()  # titles, ranks, greetings before a name; no final dot
    name_particles: frozenset[str] = frozenset()  # "de", "van" inside a name
    name_stop_words: frozenset[str] = frozenset()  # capitalised words after a name, not of it
    address_line_words: frozenset[str] = frozenset()  # a line with one of them is no name
    address_building_words: frozenset[str] = frozenset()  # the first word of a building's name
    organisation_words: frozenset[str] = frozenset()  # institutions and legal forms: "clinique", "ltd"
    business_words: frozenset[str] = frozenset()  # "garage", "agence": an organisation's only with a capital
    contact_labels: frozenset[str] = frozenset()  # field labels of a contact line: "tél", "standard"
    office_titles: frozenset[str] = frozenset()  # "dr", "maître": the block under their name is their office
    street_words: frozenset[str] = frozenset()  # "rue", "road": a street names no organisation
    dwelling_words: frozenset[str] = frozenset()  # "house", "ferme": a home named after a building's past use
    former_use_words: frozenset[str] = frozenset()  # "old", "ancienne" before an organisation's word: a home
    sentence_words: frozenset[str] = frozenset()  # "is", "je": a line with one is a sentence, no name
    organisation_connectors: frozenset[str] = frozenset()  # lower-case words inside an organisation's name
    not_a_name_values: frozenset[str] = frozenset()  # placeholders of a name field: "n/a", "inconnu"
    couple_connectors: frozenset[str] = frozenset()  # "and", "et" between two first names before one surname
    address_lead_words: frozenset[str] = frozenset()  # "outside", "résidant": before an address, not of it
    town_lead_words: frozenset[str] = frozenset()  # "demeurant à": before the town a deed writes first
    eponym_words: frozenset[str] = frozenset()  # "disease", "Prize" after a name: a thing's
    eponym_lead_words: frozenset[str] = frozenset()  # "maladie de", "lycée" before a name: a thing's
    eponym_names: frozenset[str] = frozenset()  # "alzheimer", "crohn": alone, a disease's or a sign's name
    company_words: frozenset[str] = frozenset()  # "Ltd", "SARL" by a name: a company's (as written, not folded)
    birthplace_lead_words: frozenset[str] = frozenset()  # "né à": before a place of birth, no address
    brand_names: frozenset[str] = frozenset()  # "netflix", "leroy merlin": a company's or a product's name
    pet_words: frozenset[str] = frozenset()  # "the dog", "le chat" by a name: a pet's
    introduction_words: frozenset[str] = frozenset()  # "it's", "c'est": a writer names themself after them
    list_connectors: frozenset[str] = frozenset()  # "and", "ou" between the values after one keyword
    # The words of OWN_WORD_KEYS by language: (language, key, casefolded words)
    own_words: tuple[tuple[str, str, frozenset[str]], ...] = ()

    @classmethod
    def from_words(cls, words: Mapping[str, Iterable[str]],
                   own_words: Mapping[str, Mapping[str, Iterable[str]]] | None = None) -> Lexicon:
        """A lexicon of `words` (key → words) and `own_words` (language → key of OWN_WORD_KEYS → words);
        ValueError on an unknown key or a list that is no list of strings."""
        unknown = set(words) - {f.name for f in fields(cls)}
        if unknown:
            raise ValueError(f"unknown word list(s) {', '.join(sorted(unknown))}")
        return cls(**{key: _casefolded(key, listed) for key, listed in words.items()},
                   own_words=tuple((lang, key, _casefolded(key, listed))
                                   for lang, by_key in (own_words or {}).items() for key, listed in by_key.items()))

    @classmethod
    def from_languages(cls, languages: Languages) -> Lexicon:
        """The words of every language folder of a rules directory."""
        return cls.from_words({key: languages.words(key) for key in WORD_KEYS if key != "lower_case_words"},
                              {lang.name: {key: lang.words_of(key) for key in OWN_WORD_KEYS} for lang in languages.all})

    def words_of(self, lang: str, key: str) -> frozenset[str]:
        """The words `key` (one of OWN_WORD_KEYS) of the language `lang`; of every language when `lang`
        is none of them."""
        for name, own_key, words in self.own_words:
            if name == lang and own_key == key:
                return words
        return _united(tuple(words for _, own_key, words in self.own_words if own_key == key))

    @cached_property
    def couple(self) -> regex.Pattern:
        """A given name, "&" or a couple connector, and a full name: "Ewan & Cerys Dalgleish" is "Ewan" and
        "Cerys Dalgleish"; "Brooks & Dunn" stays one span."""
        return regex.compile(r"(\p{Lu}\p{Ll}+(?:-\p{Lu}\p{Ll}+)?)[ \t]+(?:&|" + phrases(self.couple_connectors)
                             + r")[ \t]+(?=\p{Lu}[\p{Ll}.]*[ \t]+\p{Lu})")

    @cached_property
    def address_lead(self) -> regex.Pattern:
        """Words before an address, not of it: "outside "."""
        return regex.compile(r"(?i:(?:" + phrases(self.address_lead_words) + r")\s+)")

    @cached_property
    def town_before(self) -> regex.Pattern:
        """The town a deed writes before the street: "demeurant à VIENNE (38200), 12 rue …"."""
        return regex.compile(r"(?i:" + phrases(self.town_lead_words) + r")\s+"
                             r"((?-i:\p{Lu})[\p{L}\-'’ ]{1,40}?\s*\([^()\n]{1,30}\),\s*)\Z")

    @cached_property
    def eponym_after(self) -> regex.Pattern:
        """"'s disease", " Prize" after a name: the name is a thing's ("Crohn's disease", "Turner Prize")."""
        return regex.compile(r"(?:['’]s)?[ \t]+(?i:" + phrases(self.eponym_words) + r")(?![\p{L}])")

    @cached_property
    def eponym_before(self) -> regex.Pattern:
        """"maladie de", "lycée", "rue" before a name: a thing's ("sarcome de Kaposi", "lycée Jules-Ferry")."""
        return regex.compile(r"(?<![\p{L}])" + self._eponym_lead + r"\Z")

    @cached_property
    def eponym_start(self) -> regex.Pattern:
        """The same words starting the span: "rue jean jaurès"."""
        return regex.compile(self._eponym_lead + r"(?=\p{L})")

    def names_a_thing(self, text: str, start: int, end: int, after: bool = True) -> bool:
        """True if the words around `text[start:end]` make it a thing's name, not a person's: an
        eponym lead before it or starting it ("maladie de Parkinson", "rue jean jaurès"), and with `after`
        an eponym word after it ("Crohn's disease"; ambiguous for a person's name already known:
        "Bowen's scholarship", "Bowen hospital stay")."""
        return bool((after and self.eponym_after.match(text, end)) or self.eponym_start.match(text, start, end)
                    or self.eponym_before.search(text[max(0, start - 40):start]))

    @cached_property
    def company_after(self) -> regex.Pattern:
        """" LLP", " Plomberie" after a name: the name is a company's ("Harrow Finch LLP")."""
        return regex.compile(r"[ ]" + self._company_word + r"(?![\p{L}])")  # one space: no next column's

    @cached_property
    def company_before(self) -> regex.Pattern:
        """"SARL ", "SCEA " ending where a name starts: the name is a company's ("SCEA Marchal")."""
        return regex.compile(r"(?<![\p{L}])" + self._company_word + r"[ ]\Z")

    @cached_property
    def company_word(self) -> regex.Pattern:
        """A company word as a whole word ("MORVAN PLOMBERIE" ends with one)."""
        return regex.compile(r"(?<![\p{L}])" + self._company_word + r"(?![\p{L}])")

    @cached_property
    def _company_word(self) -> str:
        """A word of `company_words` written as listed: one listed in capitals in capitals ("SCI", not the
        surname "Sci"), one listed with a capital with a capital ("Properties", not "properties"), one
        listed in lower case in any case ("plc")."""
        capitals = [w for w in self.company_words if w.isupper()]
        capitalised = [w for w in self.company_words if w[:1].isupper() and not w.isupper()]
        lower = [w for w in self.company_words if not w[:1].isupper() and not w.isupper()]
        return (r"(?:" + phrases(capitals) + r"|(?=\p{Lu})(?i:" + phrases(capitalised) + r")|(?i:"
                + phrases(lower) + r"))")

    @cached_property
    def birthplace_before(self) -> regex.Pattern:
        """"né à ", "Place of birth: " ending where a value starts: what follows is a place of birth; and a
        lead of two words or more with the day between its last word and the others ("née le 3 mai 1950 à ",
        "born on 3 May 1950 in "), the day on the same line and at most 40 characters."""
        leads = [words for words in map(str.split, self.birthplace_lead_words) if len(words) > 1]
        dated = [" ".join(words[:-1]) for words in leads]
        last = {words[-1] for words in leads}
        return regex.compile(r"(?<![\p{L}])(?i:" + phrases(self.birthplace_lead_words) + r"|(?:" + phrases(dated)
                             + r")[ \t]+(?:le|on|the)[ \t]+[^\n;]{1,40}?[ \t]+(?:" + phrases(last) + r"))[ \t]*:?[ \t]*\Z")

    @cached_property
    def self_introduction(self) -> regex.Pattern:
        """A message that opens with the writer's name in lower case: a greeting or a line's start, an
        introduction word, then one word of 3 letters or more and a comma, a bracket, an emoji or a dash
        ("hey its ysolde,", "hiya it's bryony 😊", "coucouu, c'est gwenola (…"; not "c'est noté." nor "it's the end");
        group 1 is the name."""
        words = r"(?i:" + phrases(self.introduction_words) + r")"
        # the words first, then what comes before them: a look-behind tried only where the words are (linear)
        return regex.compile(words + r"(?<=(?:^|\n|[\]:][ \t]|(?<![\p{L}])(?i:hi{1,8}|hey{1,8}|hiya|hello|yo|coucou{1,8}|salut|cc|bonjour)"
                             r"[ \t]{0,8}[,!]?[ \t]{0,8})" + words + r")[ \t]{1,8}(\p{Ll}[\p{Ll}\p{M}]{2,19})"
                             r"(?=[ \t]{0,8}(?:,|\(|\p{So}|\p{Sk}|[–—-][ \t]))", regex.MULTILINE)

    @cached_property
    def pet_before(self) -> regex.Pattern:
        """"le chat ", "my dog " ending where a name starts: the name is a pet's ("le chat Caramel")."""
        return regex.compile(r"(?<![\p{L}])(?i:" + phrases(self.pet_words) + r")[ \t]+\Z")

    @cached_property
    def _organisation_word(self) -> str:
        """A word of `organisation_words` or `business_words`, whole, in any case."""
        return r"(?<![\p{L}])(?i:" + phrases(self.organisation_words | self.business_words) + r")(?![\p{L}])"

    @cached_property
    def organisation_word(self) -> regex.Pattern:
        """A word of `organisation_words` or `business_words` ("LLP", "Clinique", "Garage")."""
        return regex.compile(self._organisation_word)

    @cached_property
    def _organisation_name(self) -> str:
        """A word of `organisation_words` or `business_words`, then capitalised words or connectors."""
        return (self._organisation_word +
                r"(?:[ \t]+(?:[\p{Lu}\d&][\p{L}\d'’&.\-]*|(?i:" + phrases(self.organisation_connectors) + r")))*")

    @cached_property
    def organisation_before(self) -> regex.Pattern:
        """An organisation's name and a separator ending where a value starts: "l'agence ATRIUM
        LOCATION, ", "Quayside Lettings (": a word of `organisation_words` or `business_words`, then
        capitalised words (the caller asks for a capital among them)."""
        return regex.compile(self._organisation_name + r"[ \t]*" + _ORGANISATION_SEPARATOR + r"[ \t]*\Z")

    @cached_property
    def organisation_named_before(self) -> regex.Pattern:
        """`organisation_before`, its separator optional: "Hinton Medical Centre " before its number."""
        return regex.compile(self._organisation_name + r"[ \t]*" + _ORGANISATION_SEPARATOR + r"?[ \t]*\Z")

    @cached_property
    def organisation_and_separator(self) -> regex.Pattern:
        """An organisation's name and a separator, anywhere: "Hinton Primary School, " before its address."""
        return regex.compile(self._organisation_name + r"[ \t]*" + _ORGANISATION_SEPARATOR)

    @cached_property
    def _eponym_lead(self) -> str:
        return r"(?i:" + phrases(self.eponym_lead_words) + r")[ \t]+(?:(?i:de|du|des)[ \t]+|[dD]['’])?"


# Between an organisation's name and its address or number: "Agence X, ", "X (", "X – ", "X · ".
_ORGANISATION_SEPARATOR = r"(?:[,–—(:·]|[ \t]-)"


def _casefolded(key: str, words: Iterable[str]) -> frozenset[str]:
    """The words of `key` casefolded (titles without their final dot), or as written for WORDS_AS_WRITTEN."""
    if not isinstance(words, (list, tuple, set, frozenset)) or not all(isinstance(w, str) for w in words):
        raise ValueError(f"words.{key} must be a list of strings")
    if key in WORDS_AS_WRITTEN:
        return frozenset(words)
    folded = (w.casefold() for w in words)
    return frozenset(w.rstrip(".") for w in folded) if key in _NO_DOT else frozenset(folded)


@lru_cache(maxsize=4)
def _united(word_sets: tuple[frozenset[str], ...]) -> frozenset[str]:
    return frozenset().union(*word_sets)
