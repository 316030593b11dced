"""A detector for the session tests: the real rules engine (Engine(use_model=False)) plus,
standing in for the model that a fresh clone does not ship, exact lists of the
names and addresses the test conversations use."""

from __future__ import annotations

import regex

from alias_engine import Engine
from alias_engine.merge import merge_spans
from alias_engine.spans import Span

ENGINE = Engine(use_model=False)

NAMES = (
    "Jean Dupont", "DUPONT Jean", "J. Dupont", "Dupont", "Jean", "Marie Dupont", "Anne Martin", "Martin",
    "Karim Benali", "Benali", "Fatou Diallo", "Jean Moreau", "Moreau",
    "John Smith", "Smith", "Mary Johnson", "Johnson", "Mary", "Emily Clarke", "Clarke",
)
ADDRESSES = (
    "12 rue des Lilas, 75011 Paris", "8 avenue Jean Jaurès\n69007 Lyon", "221B Baker Street, London NW1 6XE",
    "742 Evergreen Terrace, Springfield, IL 62704",
)
_NAME = regex.compile(r"(?<!\w)(?:" + "|".join(regex.escape(n) for n in sorted(NAMES, key=len, reverse=True))
                      + r")(?!\w)")
_ADDRESS = regex.compile("|".join(regex.escape(a) for a in ADDRESSES))


class Detector:
    """Engine(use_model=False).detect, plus PERSON and ADDRESS spans for the listed values."""

    placeholder = ENGINE.placeholder

    def detect(self, text: str, lang: str | None = None) -> list[Span]:
        spans = list(ENGINE.detect(text, lang))
        spans += [Span(m.start(), m.end(), "PERSON", 0.9, "model") for m in _NAME.finditer(text)]
        spans += [Span(m.start(), m.end(), "ADDRESS", 0.9, "model") for m in _ADDRESS.finditer(text)]
        return merge_spans(spans)


DETECTOR = Detector()

FR_TURNS = (
    "Bonjour, je suis Jean Dupont, né le 12/03/1985. Mon IBAN est FR76 3000 6000 0112 3456 7890 189 "
    "et mon téléphone 06 12 34 56 78. J'habite 12 rue des Lilas, 75011 Paris. "
    "Écrivez-moi à jean.dupont@gmail.com. NIR : 1 85 03 75 116 238 91.",
    "M. Dupont a aussi un compte FR7630006000011234567890189 et le 0612345678. "
    "Sa sœur, Mme Marie Dupont, habite 8 avenue Jean Jaurès\n69007 Lyon.",
    "DUPONT Jean et Karim Benali ont signé. Jean rappellera Mme Fatou Diallo au +33 6 98 76 54 32.",
)
EN_TURNS = (
    "Hi, I'm John Smith, born on March 12, 1985. SSN 123-45-6789, card 4111 1111 1111 1111. "
    "I live at 742 Evergreen Terrace, Springfield, IL 62704; call me on (415) 555-2671.",
    "Mr Smith's colleague Mrs Mary Johnson (NINO QQ 12 34 56 C) lives at 221B Baker Street, London NW1 6XE.",
    "Please e-mail mary.johnson@outlook.com or emily.clarke@example.org about Ms Emily Clarke.",
)
