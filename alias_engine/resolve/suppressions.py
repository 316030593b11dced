"""Suppressions: spans dropped or cut because of what another detector, or the text around them, says.

- a keyword span is dropped when it is a public URL ("Website: docs.python.org")
  or a company's line ("Tel 0 800 …", a toll-free or premium-rate number), or an example
  placeholder where a secret goes ("API_KEY=VOTRE_CLE_ICI");
- a number shaped like a phone inside the value of another keyword ("MRN:",
  "NIR :") is that other thing, not a PHONE;
- URL precedence: a URL that points at a person swallows the e-mail, IP or
  token written inside it (the URL is the span), the model's spans inside a rule's URL included;
- greetings and sign-offs are not names: a model PERSON span "Bisous" is
  dropped, "Coucou, Inès" becomes "Inès" (words of `not_names` in the rules);
- a fallback keyword span (a name after a title) stays only where the model found nothing of its label;
- a keyword rule with `suppress` (switchboard, SIRET, invoice number), or an organisation's
  letterhead (letterheads.py), removes the candidates of those labels in the value it covers.
"""

from __future__ import annotations

from bisect import bisect_right
from urllib.parse import urlsplit

import phonenumbers
import regex

from ..detectors.patterns import PatternRules, first_valid_number, host_in, is_person_url, is_switchboard
from ..spans import Span, SpanIndex, Suppression
from .checks_data import ModelChecks

# After a phone keyword only toll-free numbers are a company's line: the region of a national number is a
# guess there ("(08) 8747 6301" is shared-cost in GB but an Australian landline).
_COMPANY_LINES_IN_CONTEXT = frozenset({phonenumbers.PhoneNumberType.TOLL_FREE})


def public_or_company(span: Span, text: str, lang: str, patterns: PatternRules) -> bool:
    value = text[span.start:span.end]
    if span.label == "URL":
        return is_public_url(value, patterns)
    if span.label == "PHONE":
        return is_company_line(value, lang, patterns)
    return False


def is_company_line(value: str, lang: str, rules: PatternRules) -> bool:
    """A toll-free number (0 800…, 1-800…), by its written format or its number type, or a switchboard's round
    landline (`is_switchboard`): a company's line."""
    if rules.phone_company_line.fullmatch(value):
        return True
    number = first_valid_number(value, rules.phone_region_order.get(lang) or next(iter(rules.phone_region_order.values())))
    return number is not None and (phonenumbers.number_type(number) in _COMPANY_LINES_IN_CONTEXT or is_switchboard(number))


def is_public_url(url: str, rules: PatternRules) -> bool:
    """A URL on a host the rules know (public, social, code or file hosting) that does not point at a person.

    `linkedin.com/company/acme` and `docs.python.org/…` are such URLs even after "LinkedIn :" or "Website:".
    """
    try:
        host = (urlsplit(url if "://" in url else "http://" + url).hostname or "").lower()
    except ValueError:
        return False
    known = host_in(host, rules.public_hosts) or host_in(host, rules.social_hosts) or \
        host_in(host, rules.file_share_hosts)
    return known and not is_person_url(url, rules)


# No placeholder, reference or public key is longer (an RSA-4096 public key is 700 characters); a longer
# value is masked, and secret_not, whose cost grows faster than a value's length, is not run on it.
_LONGEST_EXAMPLE = 4096


def example_secret(span: Span, text: str, checks: ModelChecks | None) -> bool:
    """A placeholder written where a secret goes ("API_KEY=VOTRE_CLE_ICI", "<your-token>"), or a reference to
    one kept elsewhere (`${DB_PASSWORD}`, `os.getenv("DB_PASSWORD")`, `{{ vault_db_password }}`), a public
    key or a masked value: LABELS.md keeps example placeholders out of SECRET, whichever detector found them."""
    if span.label != "SECRET" or checks is None or checks.secret_not is None or span.end - span.start > _LONGEST_EXAMPLE:
        return False
    return checks.secret_not.fullmatch(text, span.start, span.end) is not None or templated(text, span.start, span.end)


def templated(text: str, start: int, end: int) -> bool:
    """A name inside a template's braces, a reference to a secret kept elsewhere: `{{ vault_db_password }}`."""
    before, after = text[max(0, start - 4):start].rstrip(" "), text[end:end + 4].lstrip(" ")
    return (before.endswith("{{") and after.startswith("}}")) or (before.endswith("${") and after.startswith("}"))


def phones_in_other_keyword_values_removed(spans: list[Span], keyword_spans: list[Span]) -> list[Span]:
    """A number that looks like a phone but follows "MRN:" or "NIR :" is that other thing."""
    others = SpanIndex(s for s in keyword_spans if s.label != "PHONE")
    if not others:
        return spans
    return [span for span in spans if span.label != "PHONE" or not others.overlapping(span.start, span.end)]


def inside_urls_removed(spans: list[Span], url_spans: list[Span] | None = None) -> list[Span]:
    """Drop non-URL spans lying inside a URL span of `url_spans` (default: of `spans`; URL spans never
    overlap each other). A URL that is a credential as a whole (a SECRET over the same characters: a
    Slack webhook) is that SECRET, no URL."""
    secrets = {(s.start, s.end) for s in spans if s.label == "SECRET"}
    if secrets:
        spans = [s for s in spans if s.label != "URL" or (s.start, s.end) not in secrets]
    urls = sorted((s.start, s.end) for s in (spans if url_spans is None else url_spans) if s.label == "URL"
                  and (s.start, s.end) not in secrets)
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


# A surname that starts with a capitalised article ("M. Le Juge", "Me Le Doyen"): no office ("Monsieur le Maire"),
# unless "Monsieur" or "Madame" in full addresses it ("Monsieur Le Maire,": the office, capitalised).
_ARTICLED_SURNAME = regex.compile(r"(?:Le|La|L['’])[ ]?\p{Lu}\S*")
_OFFICE_ADDRESSED = regex.compile(r"(?<![\p{L}])(?i:monsieur|madame|messieurs|mesdames)[ \t]+\Z")


def without_non_names(spans: list[Span], text: str, not_names: frozenset[str]) -> list[Span]:
    """PERSON spans without a greeting or sign-off: "Bisous" alone is dropped, "Coucou, Inès"
    becomes "Inès"; a letter's address to an office ("Monsieur le Maire") is no name, but the same words
    with a capitalised article are a surname ("M. Le Juge")."""
    out = []
    for span in spans:
        if span.label == "PERSON":
            head, comma, _ = text[span.start:span.end].partition(",")
            if comma and head.strip().casefold() in not_names:
                start = span.start + len(head) + 1
                while start < span.end and text[start].isspace():
                    start += 1
                span = Span(start, span.end, span.label, span.score, span.source, span.verified)
            value = text[span.start:span.end]
            if span.start >= span.end or (value.casefold() in not_names and not (
                    _ARTICLED_SURNAME.fullmatch(value) and not _OFFICE_ADDRESSED.search(text, max(0, span.start - 12), span.start))):
                continue
        out.append(span)
    return out


def fallbacks_removed(fallbacks: list[Span], model_spans: list[Span]) -> list[Span]:
    """A fallback rule's span (a name after a title) only where the model found none of its label; an
    address the rule reads whole after its keyword ("I live at …") also where the model's addresses lie
    inside it: the model cut it short ("Appt 3, résidence Les Saules," left out), the rule did not."""
    if not fallbacks:
        return fallbacks
    found = SpanIndex(model_spans)

    def kept(span: Span) -> bool:
        same_label = [s for s in found.overlapping(span.start, span.end) if s.label == span.label]
        return not same_label or (span.label == "ADDRESS" and all(
            span.start <= s.start and s.end <= span.end and (s.start, s.end) != (span.start, span.end)
            for s in same_label))

    return [span for span in fallbacks if kept(span)]


def suppressed_removed(spans: list[Span], suppressions: list[Suppression]) -> list[Span]:
    """Drop spans that overlap a suppressed value of their label."""
    index = SpanIndex(suppressions)
    return [span for span in spans if not any(z.removes(span) for z in index.overlapping(span.start, span.end))]
