"""Resolve: every rule that looks across detectors, in one place, before the merger.

The detectors report what they see, each on its own: the identifier, pattern,
keyword and table detectors of the rules, the model, and any detector the user
adds. What one detector's finding means for another's lives here:

- a keyword span is dropped when it is a public URL ("Website: docs.python.org")
  or a company's line ("Tel 0 800 …", a toll-free or premium-rate number);
- a number shaped like a phone inside the value of another keyword ("MRN:",
  "NIR :") is that other thing, not a PHONE;
- URL precedence: a URL that points at a person swallows the e-mail, IP or
  token written inside it (the URL is the span);
- suppressions: a keyword rule with `suppress` (switchboard, SIRET, invoice
  number) removes the rule candidates of those labels in the value it covers;
- a model NATIONAL_ID that is a valid SIRET (and no card number) is a
  company's number, which LABELS.md keeps out of NATIONAL_ID;
- greetings and sign-offs are not names: a model PERSON span "Bisous" is
  dropped, "Coucou, Inès" becomes "Inès" (words of `not_names` in the rules).

Spans of user detectors are never removed here: what the user asked for is masked
(the merger still settles overlaps, docs/architecture.md). The first four
rules apply to the rules' own candidates, the last two to the model's, as they
always have.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from dataclasses import dataclass, field

from stdnum.fr import siret

from .detectors.keywords import Suppression
from .detectors.patterns import PatternRules, is_company_line, is_public_url
from .spans import Span
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


def resolve(text: str, lang: str, found: Found, patterns: PatternRules, not_names: frozenset[str]) -> list[Span]:
    """The candidates of every detector with the cross-detector rules applied (possibly overlapping)."""
    keyword_spans = [s for s in found.keywords if not _public_or_company(s, text, lang, patterns)]
    candidates = list(found.identifiers)
    candidates += _phones_in_other_keyword_values_removed(found.patterns, keyword_spans)
    candidates += keyword_spans
    candidates = _inside_urls_removed(candidates)
    if found.suppressions:
        candidates = _suppressed_removed(candidates, found.suppressions)
    model = [s for s in found.model if not (s.label == "NATIONAL_ID" and is_siret(text[s.start:s.end]))]
    candidates += without_non_names(model, text, not_names)
    candidates += found.others
    return candidates


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
    others = sorted((s.start, s.end) for s in keyword_spans if s.label != "PHONE")
    if not others:
        return spans
    starts = [o[0] for o in others]
    longest = max(e - s for s, e in others)
    kept = []
    for span in spans:
        if span.label == "PHONE":
            lo, hi = bisect_left(starts, span.start - longest), bisect_left(starts, span.end)
            if any(s < span.end and span.start < e for s, e in others[lo:hi]):
                continue
        kept.append(span)
    return kept


def _public_or_company(span: Span, text: str, lang: str, patterns: PatternRules) -> bool:
    value = text[span.start:span.end]
    if span.label == "URL":
        return is_public_url(value, patterns)
    if span.label == "PHONE":
        return is_company_line(value, lang, patterns)
    return False


def _inside_urls_removed(spans: list[Span]) -> list[Span]:
    """Drop non-URL spans lying inside a URL span (URL spans never overlap each other)."""
    urls = sorted((s.start, s.end) for s in spans if s.label == "URL")
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
    """Drop spans that overlap a suppressed value of their label; suppressed values are short."""
    suppressions = sorted(suppressions, key=lambda z: z.start)
    starts = [z.start for z in suppressions]
    longest = max(z.end - z.start for z in suppressions)
    kept = []
    for span in spans:
        lo = bisect_left(starts, span.start - longest)
        hi = bisect_left(starts, span.end)
        if not any(z.removes(span) for z in suppressions[lo:hi]):
            kept.append(span)
    return kept
