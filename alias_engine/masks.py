"""Replace detected spans by numbered placeholders and record how to restore them (the placeholder
grammar itself is placeholders.py's; DEFAULT_PLACEHOLDER, ID_DIGITS and check_placeholder_format
are re-exported here)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import regex

from .labels import BUILTIN, LabelSet
from .merge import split_at_breaks
from .placeholders import DEFAULT_PLACEHOLDER, ID_DIGITS, check_placeholder_format, taken_numbers
from .restore import elided_article
from .spans import Span

__all__ = ["DEFAULT_PLACEHOLDER", "ID_DIGITS", "MaskMapping", "MaskResult", "check_placeholder_format",
           "mask_spans", "taken_numbers", "value_key"]

# The one mapping type of the package (Engine.mask, Session.mask, unmask, the CLI's mapping
# files): placeholder or surrogate → the original value, or the list of its written forms.
MaskMapping = dict[str, "str | list[str]"]

_SEPARATORS = regex.compile(r"[\s.\-/()]+")
_SPACES = regex.compile(r"\s+")


@dataclass(frozen=True)
class MaskResult:
    """`text` with every span replaced; `mapping` restores it.

    `mapping[placeholder]` is the original value, or, when one value was written
    in several ways (case, spacing), the list of its forms in order of
    occurrence so that the masked text restores exactly.
    """

    text: str
    mapping: MaskMapping = field(default_factory=dict)
    spans: tuple[Span, ...] = ()


def value_key(label: str, value: str, labels: LabelSet = BUILTIN) -> str:
    """The form under which two occurrences count as the same value (the label's `compare` in
    `labels`, the twelve by default)."""
    compare = labels.spec(label).compare
    if compare == "compact":
        return _SEPARATORS.sub("", value).upper()
    value = _SPACES.sub(" ", value.strip())
    return value.casefold() if compare == "caseless" else value


def mask_spans(text: str, spans: Sequence[Span], placeholder: str = DEFAULT_PLACEHOLDER,
               number: Callable[[str, str], str] | None = None, labels: LabelSet = BUILTIN) -> MaskResult:
    """Replace `spans` (sorted, non-overlapping) in `text` by placeholders.

    Placeholders are numbered 1, 2… per label in order of occurrence, or, with
    `number`, by `number(label, value_key)` (the same value gets the same
    placeholder in every text: see alias_engine.batch.consistent). Without
    `number`, a value written the same way under two labels (a rule's EMPLOYEE_ID,
    the model's IDENTIFIER) gets the placeholder of its first occurrence.

    The spans are first cut at line breaks, tabs, JSON quotes and glued CSV delimiters
    (`merge.split_at_breaks`): a placeholder never swallows the structure of the text.
    `MaskResult.spans` are the spans as masked. `labels`: the labels of `spans` (how their values
    compare, and which placeholder numbers the text already uses); the twelve by default.
    """
    spans = split_at_breaks(spans, text)
    counters: dict[str, int] = {}
    taken = taken_numbers(text, placeholder, labels.names) if spans else {}
    by_key: dict[tuple[str, str], str] = {}
    by_written: dict[str, str] = {}  # one value, one placeholder, whatever labels detectors gave it
    forms: dict[str, list[str]] = {}
    out: list[str] = []
    last = 0
    for span in spans:
        # an elided article that restore would rewrite in front of a placeholder ("d'" before
        # "Xavier") is the author's: it goes into the placeholder, so that the text restores as written
        start = max(last, span.start - elided_article(text, span.start, text[span.start:span.end]))
        value = text[start:span.end]
        key = (span.label, value_key(span.label, value, labels))
        name = by_key.get(key) or (by_written.get(value) if number is None else None)
        if name is None:
            n: str | int  # `number`'s str, or the next free int
            if number is not None:
                n = number(*key)
            else:
                n = counters.get(span.label, 0) + 1
                while n in taken.get(span.label, ()):
                    n += 1
                counters[span.label] = n
            name = placeholder.format(label=span.label, n=n)
            by_key[key] = name
            by_written.setdefault(value, name)
            forms.setdefault(name, [])  # two values whose `number` collides keep both their forms
        forms[name].append(value)
        out.append(text[last:start])
        out.append(name)
        last = span.end
    out.append(text[last:])
    mapping: MaskMapping = {
        name: values[0] if len(set(values)) == 1 else values for name, values in forms.items()
    }
    return MaskResult("".join(out), mapping, tuple(spans))
