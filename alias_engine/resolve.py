"""Resolve: every rule that looks across detectors, in one place, before the merger.

The detectors report what they see, each on its own: the identifier, pattern,
keyword and table detectors of the rules, the model, and any detector the user
adds. What one detector's finding means for another's lives here:

- a keyword span is dropped when it is a public URL ("Website: docs.python.org")
  or a company's line ("Tel 0 800 …", a toll-free or premium-rate number), or an example
  placeholder where a secret goes ("API_KEY=VOTRE_CLE_ICI");
- a number shaped like a phone inside the value of another keyword ("MRN:",
  "NIR :") is that other thing, not a PHONE;
- URL precedence: a URL that points at a person swallows the e-mail, IP or
  token written inside it (the URL is the span);
- suppressions: a keyword rule with `suppress` (switchboard, SIRET, invoice
  number) removes the rule candidates of those labels in the value it covers;
- an organisation's letterhead (its name, then its address and numbers under it) is the
  organisation's: the ADDRESS and PHONE spans of that block are dropped (detectors/letterheads.py);
- a model NATIONAL_ID that is a valid SIRET (and no card number) is a
  company's number, which LABELS.md keeps out of NATIONAL_ID;
- greetings and sign-offs are not names: a model PERSON span "Bisous" is
  dropped, "Coucou, Inès" becomes "Inès" (words of `not_names` in the rules);
- markup, JSON and tables are read by their structure (detectors/structure.py): nothing
  inside a tag is a value, and a record's field names say what their values may hold;
- with the rules' model checks: a model span is checked against its
  label's format (an IP must parse, a card has 13-19 digits, a SECRET is no
  hash...), a model span inside a rule's URL is part of it, the suppressions
  remove model spans too, and a fallback keyword span (a name after a title)
  stays only where the model found nothing of its label.

Spans of user detectors are never removed here: what the user asked for is masked
(the merger still settles overlaps, docs/architecture.md).
"""

from __future__ import annotations

from bisect import bisect_right
from dataclasses import dataclass, field

from stdnum.fr import siret

from .detectors.keywords import Suppression
from .detectors.letterheads import Letterheads, organisation_blocks
from .detectors.model_checks import ModelChecks, check_model_spans
from .detectors.patterns import PatternRules, is_company_line, is_public_url
from .detectors.structure import Fields, apply_structure
from .spans import Span, SpanIndex
from .validators import card


@dataclass
class Found:
    """Everything the detectors found in one (normalised) text, before resolution."""

    identifiers: list[Span] = field(default_factory=list)  # checksum-validated identifiers
    patterns: list[Span] = field(default_factory=list)  # plain patterns (phones, e-mails, URLs, ...)
    keywords: list[Span] = field(default_factory=list)  # values introduced by a keyword (and table cells)
    suppressions: list[Suppression] = field(default_factory=list)
    model: list[Span] = field(default_factory=list)
    others: list[Span] = field(default_factory=list)  # user detectors


def resolve(text: str, lang: str, found: Found, patterns: PatternRules, not_names: frozenset[str],
            checks: ModelChecks | None = None, letterheads: Letterheads | None = None,
            fields: Fields | None = None) -> list[Span]:
    """The candidates of every detector with the cross-detector rules applied (possibly overlapping).

    With `checks` (the rules' model_checks), the model's spans are first checked against their
    label's format (detectors/model_checks.py), and they go through the URL precedence and the
    suppressions like the rules' own candidates; a fallback keyword span (source "pattern") is kept
    only where the model found nothing of its label.
    """
    keyword_spans = [s for s in found.keywords if not _public_or_company(s, text, lang, patterns)
                     and not _example_secret(s, text, checks)]
    fallbacks = [s for s in keyword_spans if s.source == "pattern"]  # keyword rules marked "fallback"
    candidates = list(found.identifiers)
    candidates += _phones_in_other_keyword_values_removed(found.patterns, keyword_spans)
    candidates += [s for s in keyword_spans if s.source != "pattern"]
    candidates = _inside_urls_removed(candidates)
    model = [s for s in found.model if not (s.label == "NATIONAL_ID" and is_siret(text[s.start:s.end]))]
    model = without_non_names(model, text, not_names)
    if checks is None:
        resolved = _suppressed(candidates, found, text, letterheads, found.model + found.others) + model
    else:
        # A model span inside a rule's URL is part of that URL ("…?token=…" is not a SECRET of its own).
        model = _inside_urls_removed(check_model_spans(model, text, checks, lang),
                                     [s for s in candidates if s.label == "URL"])
        candidates += _inside_urls_removed(_fallbacks_removed(fallbacks, model), candidates) + model
        resolved = _suppressed(candidates, found, text, letterheads, found.others)
    if fields is not None:
        resolved = apply_structure(text, resolved, fields)
    return resolved + found.others


def _suppressed(candidates: list[Span], found: Found, text: str, letterheads: Letterheads | None,
                others: list[Span]) -> list[Span]:
    """The candidates without those the keyword rules' suppressions and the organisations' letterheads
    remove (a letterhead's block ends at a PERSON of any detector: of the candidates or `others`,
    the spans not among them, the user's included)."""
    suppressions = found.suppressions
    if letterheads is not None:
        suppressions = suppressions + organisation_blocks(text, candidates + others, letterheads)
    return _suppressed_removed(candidates, suppressions) if suppressions else candidates


def _fallbacks_removed(fallbacks: list[Span], model_spans: list[Span]) -> list[Span]:
    """A fallback rule's span (a name after a title) only where the model found none of its label."""
    if not fallbacks:
        return fallbacks
    found = SpanIndex(model_spans)
    return [span for span in fallbacks
            if not any(s.label == span.label for s in found.overlapping(span.start, span.end))]


def is_siret(value: str) -> bool:
    """14 digits that pass the SIRET check and are no payment card: a company's number, which
    LABELS.md keeps out of NATIONAL_ID (the model, without context, takes them for IDs). A
    model CREDIT_CARD span is kept even then: some real 14-digit cards pass the check too."""
    digits = "".join(c for c in value if c.isdigit())
    return (len(digits) == 14 and len(digits) == sum(c.isalnum() for c in value)
            and siret.is_valid(digits) and not card.is_valid(digits))


def without_non_names(spans: list[Span], text: str, not_names: frozenset[str]) -> list[Span]:
    """PERSON spans without a greeting or sign-off: "Bisous" alone is dropped, "Coucou, Inès"
    becomes "Inès"."""
    out = []
    for span in spans:
        if span.label == "PERSON":
            head, comma, _ = text[span.start:span.end].partition(",")
            if comma and head.strip().casefold() in not_names:
                start = span.start + len(head) + 1
                while start < span.end and text[start].isspace():
                    start += 1
                span = Span(start, span.end, span.label, span.score, span.source, span.verified)
            if span.start >= span.end or text[span.start:span.end].casefold() in not_names:
                continue
        out.append(span)
    return out


def _phones_in_other_keyword_values_removed(spans: list[Span], keyword_spans: list[Span]) -> list[Span]:
    """A number that looks like a phone but follows "MRN:" or "NIR :" is that other thing."""
    others = SpanIndex(s for s in keyword_spans if s.label != "PHONE")
    if not others:
        return spans
    return [span for span in spans if span.label != "PHONE" or not others.overlapping(span.start, span.end)]


def _public_or_company(span: Span, text: str, lang: str, patterns: PatternRules) -> bool:
    value = text[span.start:span.end]
    if span.label == "URL":
        return is_public_url(value, patterns)
    if span.label == "PHONE":
        return is_company_line(value, lang, patterns)
    return False


def _example_secret(span: Span, text: str, checks: ModelChecks | None) -> bool:
    """A placeholder written where a secret goes ("API_KEY=VOTRE_CLE_ICI", "<your-token>"): LABELS.md
    keeps example placeholders out of SECRET, whichever detector found them."""
    return span.label == "SECRET" and checks is not None and checks.secret_not is not None \
        and checks.secret_not.fullmatch(text, span.start, span.end) is not None


def _inside_urls_removed(spans: list[Span], url_spans: list[Span] | None = None) -> list[Span]:
    """Drop non-URL spans lying inside a URL span of `url_spans` (default: of `spans`; URL spans never
    overlap each other)."""
    urls = sorted((s.start, s.end) for s in (spans if url_spans is None else url_spans) if s.label == "URL")
    if not urls:
        return spans
    starts = [u[0] for u in urls]
    kept = []
    for span in spans:
        i = bisect_right(starts, span.start) - 1
        if span.label != "URL" and i >= 0 and span.end <= urls[i][1]:
            continue
        kept.append(span)
    return kept


def _suppressed_removed(spans: list[Span], suppressions: list[Suppression]) -> list[Span]:
    """Drop spans that overlap a suppressed value of their label."""
    index = SpanIndex(suppressions)
    return [span for span in spans if not any(z.removes(span) for z in index.overlapping(span.start, span.end))]
