"""Resolve: what one detector's finding means for another's, before the merger.

The detectors report what they see, each on its own: the identifier, pattern,
keyword and table detectors of the rules, the model, and any detector the user
adds, each under its role (ROLES below, `Found.add`). `resolve` applies, in this order (each step's file of this package):

1. a keyword span is dropped when it is a public URL ("Website: docs.python.org")
   or a company's line ("Tel 0 800 …", a toll-free or premium-rate number), and a keyword or
   pattern span when it is an example placeholder where a secret goes ("API_KEY=VOTRE_CLE_ICI",
   "xoxb-your-token") (suppressions.py);
2. a number shaped like a phone inside the value of another keyword ("MRN:",
   "NIR :") is that other thing, not a PHONE (suppressions.py);
3. URL precedence: a URL that points at a person swallows the e-mail, IP or
   token written inside it (the URL is the span) (suppressions.py);
4. a model NATIONAL_ID that is a valid SIRET (and no card number) is a
   company's number, which LABELS.md keeps out of NATIONAL_ID (format_checks.py);
5. greetings and sign-offs are not names: a model PERSON span "Bisous" is
   dropped, "Coucou, Inès" becomes "Inès" (words of `not_names` in the rules); with the model
   checks, once after step 6 has cut the spans at line breaks ("Plouharnel⏎⏎Maman": "Maman")
   (suppressions.py);
6. with the rules' model checks (`checks`, data in checks_data.py; the languages' words in lexicon.py),
   `check_model_spans` below:
   each model span is checked against its label's format (an IP must parse, a card has
   13-19 digits, a SECRET is no hash..., format_checks.py) and repaired (a PERSON cut at
   line breaks and titles, names joined, surnames and initials added, an address block's
   addressee, an address's tail, a number without its code..., span_repair.py);
7. with them too, a model span inside a rule's URL is part of that URL, and a fallback
   keyword span (a name after a title) stays only where the model found nothing of its
   label (suppressions.py);
8. suppressions: a keyword rule with `suppress` (switchboard, SIRET, invoice number)
   removes the candidates of those labels in the value it covers, and so does an
   organisation's letterhead (its name, then its address and numbers under it: its ADDRESS
   and PHONE spans, and a PERSON that is part of its name) (letterheads.py, suppressions.py);
   a titled person's own letterhead ("Dr …", a profession's line, then an address) is their
   office: its address is an ADDRESS when no detector found it (letterheads.py); a writer's name given
   in lower case ("hey its ysolde,") and a chat's speaker in lower case among named speakers
   ("[20:16] dev: in.") are PERSON where no span is (span_repair.py);
   without `checks`, the model's spans skip 6 to 8;
9. markup, JSON and tables are read by their structure: nothing inside a tag is a value,
   and a record's field names say what their values may hold (structure.py).

Spans of user detectors are never removed here: what the user asked for is masked
(the merger still settles overlaps, docs/architecture.md).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field

import regex

from ..detectors.keywords import COLUMN_GAP
from ..detectors.patterns import PatternRules
from ..spans import Span, Suppression, snap_to_words
from .checks_data import Check, ModelChecks
from .format_checks import AMOUNT, FORMAT_CHECKS, MASKED, MASKED_BEFORE, NUMBERS, is_siret
from .letterheads import office_addresses, organisation_blocks
from .lexicon import Lexicon
from .span_repair import (
    REPAIRS,
    birthplaces_removed,
    brands_removed,
    chat_speakers_added,
    common_words_removed,
    companies_removed,
    eponyms_removed,
    initials_added,
    joined_addresses,
    joined_names,
    logins_after_names,
    medicines_removed,
    merchants_removed,
    number_without_code,
    pets_removed,
    self_introduced_names,
    surnames_added,
    without_entities,
    without_form_item,
    words_capitalised_by_position,
)
from .structure import Fields, apply_structure, read_structure
from .suppressions import (
    example_secret,
    fallbacks_removed,
    inside_urls_removed,
    phones_in_other_keyword_values_removed,
    public_or_company,
    suppressed_removed,
    without_non_names,
)

# The engine's minimum span score unless told otherwise (Engine, the CLI, the adapters, detect_with_rules).
DEFAULT_THRESHOLD = 0.5

# What a detector's spans are to resolve, by the detector's `role` (detectors/base.py): which steps they go through.
ROLES = {
    "identifiers": "checksum-validated identifiers: kept as found",
    "patterns": "plain patterns (phones, e-mails, URLs...): a phone inside another keyword's value is that value",
    "keywords": "values a keyword introduces, and table cells: no public URL, company line or example secret",
    "model": "the token classifier: format checks, span repair, URL precedence, suppressions",
    "others": "the user's detectors: never removed here, what the user asked for is masked",
}


@dataclass
class Found:
    """Everything the detectors found in one (normalised) text, before resolution: spans by role (ROLES),
    and the regions some detectors clear of other candidates."""

    identifiers: list[Span] = field(default_factory=list)
    patterns: list[Span] = field(default_factory=list)
    keywords: list[Span] = field(default_factory=list)
    model: list[Span] = field(default_factory=list)
    others: list[Span] = field(default_factory=list)
    suppressions: list[Suppression] = field(default_factory=list)

    def add(self, role: str, spans: Sequence[Span]) -> None:
        """File one detector's spans of this text under its role, with the regions it clears
        (`spans.suppressions`, where the detector returned them: detectors/base.py `Findings`)."""
        if role not in ROLES:
            raise ValueError(f"unknown detector role {role!r}: one of {', '.join(ROLES)}")
        getattr(self, role).extend(spans)
        self.suppressions.extend(getattr(spans, "suppressions", ()))


class Resolved(list):
    """The candidates `resolve` returns, and the values where no PERSON is lent to a repeat
    (`structure.Structure.without_persons`: a city column's "Florence")."""

    def __init__(self, spans: Iterable[Span] = (), without_persons: frozenset[tuple[int, int]] = frozenset()) -> None:
        super().__init__(spans)
        self.without_persons = without_persons


def resolve(text: str, lang: str, found: Found, patterns: PatternRules, not_names: frozenset[str],
            checks: ModelChecks | None = None, fields: Fields | None = None, threshold: float = 0.0) -> Resolved:
    """The candidates of every detector with the cross-detector rules applied (possibly overlapping), and
    where the text's structure lends no name (`Resolved`).

    With `checks` (the rules' model_checks), the model's spans are first checked against their
    label's format and repaired (`check_model_spans`), and they go through the URL precedence and the
    suppressions like the rules' own candidates; a fallback keyword span (source "pattern") is kept
    only where the model found nothing of its label with a score of at least `threshold` (the engine's:
    where the model doubts a name the engine would drop, a title's fallback stays); the letterheads are looked for with the
    languages' words of `checks.lexicon` (without `checks`, none is). The steps, numbered as in the
    module's docstring:
    """
    lexicon = checks.lexicon if checks is not None else None
    # 1. no public URL, company line or example secret among the keyword spans (nor example secret among the patterns)
    keyword_spans = [s for s in found.keywords if not public_or_company(s, text, lang, patterns)
                     and not example_secret(s, text, checks)]
    pattern_spans = [s for s in found.patterns if not example_secret(s, text, checks)]
    fallbacks = [s for s in keyword_spans if s.source == "pattern"]  # keyword rules marked "fallback"
    candidates = list(found.identifiers)
    # 2. a phone inside another keyword's value is that value
    candidates += phones_in_other_keyword_values_removed(pattern_spans, keyword_spans)
    candidates += [s for s in keyword_spans if s.source != "pattern"]
    # 3. URL precedence
    candidates = inside_urls_removed(candidates)
    # 4. a SIRET is no NATIONAL_ID
    model = [s for s in found.model if not (s.label == "NATIONAL_ID" and is_siret(text[s.start:s.end]))]
    if checks is None:
        # 5. no greeting or sign-off in a name
        model = without_non_names(model, text, not_names)
        # 8. the suppressions and letterheads, on the rules' candidates only
        resolved = _suppressed(candidates, found, text, lexicon, found.model + found.others) + model
    else:
        # 6. format checks and span repair; 7. a model span inside a rule's URL is part of that URL ("…?token=…"
        # is not a SECRET of its own), and the fallbacks where the model found nothing of their label
        model = inside_urls_removed(without_non_names(check_model_spans(model, text, checks, lang), text, not_names),
                                    [s for s in candidates if s.label == "URL"])
        sure = [s for s in model if s.score >= threshold]
        candidates += inside_urls_removed(fallbacks_removed(fallbacks, sure), candidates) + model
        # 8. the suppressions and letterheads, and a titled person's own office
        resolved = _suppressed(candidates, found, text, lexicon, found.others)
        if lexicon is not None:
            resolved += office_addresses(text, resolved + found.others, lexicon)
            resolved += self_introduced_names(text, resolved + found.others, lexicon, not_names)
            resolved += chat_speakers_added(text, resolved + found.others, lexicon, not_names)
    # 9. structure
    if fields is None:
        return Resolved(resolved + found.others)
    structure = read_structure(text, fields)
    resolved = apply_structure(text, resolved, fields, structure)
    return Resolved(resolved + found.others, structure.without_persons())


def _suppressed(candidates: list[Span], found: Found, text: str, lexicon: Lexicon | None,
                others: list[Span]) -> list[Span]:
    """The candidates without those the keyword rules' suppressions and the organisations' letterheads
    remove (a letterhead's block ends at a PERSON of any detector: of the candidates or `others`,
    the spans not among them, the user's included)."""
    suppressions = found.suppressions
    if lexicon is not None:
        suppressions = suppressions + organisation_blocks(text, candidates + others, lexicon)
    return suppressed_removed(candidates, suppressions) if suppressions else candidates


def check_model_spans(spans: Iterable[Span], text: str, checks: ModelChecks, lang: str = "") -> list[Span]:
    """The model's spans that fit their label's format, cut or trimmed where the format says so (`lang`:
    the text's language, "fr" or "en", where a format depends on it). The repairs are span_repair.py's,
    the format checks format_checks.py's; in this order: names and addresses cut in pieces joined, no form item, for a
    number no masked value, no code before it and no sum of money, then the label's repair or format
    check (`_CHECKS`), then no name of words capitalised by their position ("Feedback on …"), no thing's,
    merchant's, medicine's, company's or brand's name, no place of birth, no pet's name nor noun in lower case
    after its article, then the surnames, the initials and the
    logins after the names.

    >>> from alias_engine.resolve.checks_data import load_model_checks
    >>> from alias_engine.resolve.lexicon import Lexicon
    >>> checks = load_model_checks({"secret_not": "\\\\$2[aby]\\\\$.*"}, lexicon=Lexicon.from_words({"person_lead_words": ["Dr"]}))
    >>> text = "Dr Jean Dupont at 10.0.300.1"
    >>> [text[s.start:s.end] for s in check_model_spans(
    ...     [Span(0, 14, "PERSON", 0.9, "model"), Span(18, 28, "IP_ADDRESS", 0.9, "model")], text, checks)]
    ['Jean Dupont']
    """
    out: list[Span] = []
    for cell in _cells(joined_addresses(joined_names(spans, text), text), text):
        piece = without_entities(cell, text)
        if piece is None:
            continue
        span = without_form_item(piece, text)
        if span.label in NUMBERS:
            if MASKED.search(text, span.start, span.end) or MASKED_BEFORE.search(text[max(0, span.start - 8):span.start]):
                continue
            span = number_without_code(span, text, checks.lexicon)
            if AMOUNT.fullmatch(text, span.start, span.end):
                continue
        check = _CHECKS.get(span.label)
        if check is None:
            out.append(span)
            continue
        for start, end, *label in check(text, span.start, span.end, checks):
            if start < end:
                out.append(Span(start, end, label[0] if label else span.label, span.score, span.source,
                                span.verified))
    lexicon = checks.lexicon
    out = words_capitalised_by_position(out, text, lexicon, lang)
    out = medicines_removed(merchants_removed(eponyms_removed(out, text, lexicon), text, checks), text, checks)
    out = brands_removed(birthplaces_removed(companies_removed(out, text, lexicon), text, lexicon), text, lexicon)
    out = common_words_removed(pets_removed(out, text, lexicon), text, lexicon)
    out = initials_added(surnames_added(out, text, lexicon), text, lang, lexicon)
    return out + logins_after_names(out, text)


def _cells(spans: Iterable[Span], text: str) -> Iterator[Span]:
    """A number the model read across a column's separator (a tab, ";", "|" or a space-laid table's gap of 3
    spaces or more) or a line break is one number a cell: "4417\t5082" of two columns is two 4-digit codes, no
    phone; "(15/09/2026);180,00" a date and a sum; "KT0047316259        24,90" a code and a sum."""
    for span in spans:
        value = text[span.start:span.end]
        if span.label not in NUMBERS or not _COLUMN_SEPARATOR.search(value):
            yield span
            continue
        start = span.start
        for separator in _COLUMN_SEPARATOR.finditer(value + "\n"):
            cell = snap_to_words(text, start, min(span.start + separator.start(), span.end), span.label)
            if cell:
                yield Span(*cell, span.label, span.score, span.source, span.verified)
            start = span.start + separator.end()


_COLUMN_SEPARATOR = regex.compile(rf"[\t;|\n]|[ ]{{{COLUMN_GAP},}}")


# Each label's repair (PERSON, ADDRESS: span_repair.py) or format check (the others: format_checks.py); a label
# with neither is kept as the model found it.
_CHECKS: dict[str, Check] = {**REPAIRS, **FORMAT_CHECKS}
