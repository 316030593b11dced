"""The placeholder grammar, in one place: how a placeholder is written (a format with `{label}`
and `{n}`, `[{label}_{n}]` by default), how it is read back as written or as an LLM edits it
(`[person 1]`, `{PERSON_1}`, `PERSON_1`), how a mapping's keys are parsed (of one of the twelve
labels or of any label a rules file may declare), and which numbers a text already uses: a mask skips them, and a
placeholder left in an answer with a number below its mapping's highest is the author's.

Masks write with it, restore reads with it (sessions and the proxy through restore), io and the
CLI parse mapping files with it.

>>> placeholder_key("[person 1]"), placeholder_key("Bonjour")
(('PERSON', 1), None)
>>> placeholder_format({"[PERSON_1]": "Jean", "[EMPLOYEE_ID_2]": "EMP-004217"})
'[{label}_{n}]'
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from functools import lru_cache

import regex

from .errors import MappingError
from .labels import LABELS

DEFAULT_PLACEHOLDER = "[{label}_{n}]"
# A placeholder's number: a counter (1, 2…, at most 6 digits), or an id of exactly ID_DIGITS
# digits that is the same for one value in every text (`batch --consistent`).
ID_DIGITS = 19

# A placeholder as restore reads it back: a label (words joined by " ", "_" or "-") and a number,
# in optional brackets.
PARTS = regex.compile(r"[\[{<(]? {0,2}(?P<label>[A-Za-z]+(?:[ _\-][A-Za-z]+)*)[ _\-]{0,2}(?P<n>\d{1,6}) {0,2}[\]}>)]?")
LABEL_SEP = regex.compile(r"[ _\-]")
# A mapping key's label: a known one, or any in capitals a rules file may have declared.
_ANY_LABEL = r"[A-Z][A-Z0-9]*(?:_[A-Z][A-Z0-9]*)*"


# --- writing ---------------------------------------------------------------------------------

def check_placeholder_format(fmt: str) -> str:
    """`fmt` if it is a usable placeholder format; ValueError saying why otherwise."""
    try:
        sample = fmt.format(label="PERSON", n=1)
    except (KeyError, IndexError, ValueError) as exc:
        raise ValueError(f"placeholder format {fmt!r} must use only {{label}} and {{n}}") from exc
    if "{n}" not in fmt or sample == fmt.format(label="PERSON", n=2):
        raise ValueError(f"placeholder format {fmt!r} must contain {{n}}")
    if "{label}" not in fmt:
        raise ValueError(f"placeholder format {fmt!r} must contain {{label}}: labels are numbered apart")
    after = fmt.split("{n}", 1)[1][:1]
    if not after or after.isalnum():
        raise ValueError(f"placeholder format {fmt!r} must close {{n}} with a non-alphanumeric character "
                         "(with PHONE{n}, PHONE1 and PHONE12 cannot be told apart)")
    return fmt


def taken_numbers(text: str, placeholder: str = DEFAULT_PLACEHOLDER,
                  labels: Sequence[str] = LABELS) -> dict[str, set[int]]:
    """Placeholder numbers already written in `text`, per label of `labels`, in any form restore
    reads or in the `placeholder` format itself: masking must not reuse them, or restoring would
    also rewrite what the author wrote."""
    taken: dict[str, set[int]] = {}
    labels = tuple(labels)
    for m in _placeholder_like(labels).finditer(text):
        label = LABEL_SEP.sub("", m.group(1)).upper()
        for name in labels:
            if name.replace("_", "") == label:
                taken.setdefault(name, set()).add(int(m.group(2)))
    if placeholder != DEFAULT_PLACEHOLDER:
        for m in _format_pattern(placeholder, labels).finditer(text):
            taken.setdefault(m.group("label"), set()).add(int(m.group("n")))
    return taken


@lru_cache(maxsize=8)
def _placeholder_like(labels: tuple[str, ...]) -> regex.Pattern:
    # Anything restore could read as a placeholder ("[PERSON_1]", "{person 1}", "PERSON1"), even glued
    # to a word (once the value next to it is masked, "1831NATIONAL_ID_3" reads "[ID_1]NATIONAL_ID_3"):
    # its number is taken.
    return regex.compile(
        r"(?i)(" + "|".join(label.replace("_", "[ _\\-]?") for label in labels)
        + r")[ _\-]{0,2}(\d{1,6})(?!\d)")


@lru_cache(maxsize=8)
def _format_pattern(placeholder: str, labels: tuple[str, ...]) -> regex.Pattern:
    alternatives = "|".join(sorted(labels, key=len, reverse=True))
    return regex.compile(regex.escape(placeholder).replace(regex.escape("{label}"), f"(?P<label>{alternatives})", 1)
                         .replace(regex.escape("{n}"), r"(?P<n>\d{1,6})", 1))


# --- reading back ----------------------------------------------------------------------------

def placeholder_key(name: str) -> tuple[str, int] | None:
    """`("PERSON", 1)` for `[PERSON_1]`, `[person 1]`, `PERSON1`...; None if not placeholder-shaped."""
    parts = placeholder_parts(name)
    return None if parts is None else parts[0]


def placeholder_parts(name: str) -> tuple[tuple[str, int], str] | None:
    """(key, label as written in capitals) of a placeholder: `(("EMPLOYEEID", 1), "EMPLOYEE_ID")` for
    `[employee id 1]`; None if not placeholder-shaped."""
    m = PARTS.fullmatch(name.strip())
    if m is None:
        return None
    return (LABEL_SEP.sub("", m.group("label")).upper(), int(m.group("n"))), LABEL_SEP.sub("_", m.group("label")).upper()


def is_generic(name: str) -> bool:
    """True for a placeholder in the default format (`[LABEL_n]`), which the edited alternatives
    of the restore pattern read back as itself."""
    parts = PARTS.fullmatch(name)
    return parts is not None and name == "[{}_{}]".format(LABEL_SEP.sub("_", parts.group("label")).upper(),
                                                         int(parts.group("n")))


def edited_alternatives(labels: Iterable[str]) -> tuple[str, str]:
    """The restore pattern's two alternatives for the placeholders of `labels` as an LLM may write
    them: in any brackets, any case, " ", "_" or "-" between label and number, a possessive inside
    (groups tb, tl, tn, tp: `[Person 1's]`), and bare in capitals (groups bare, bl, bn: `PERSON_1`)."""
    labels = set(labels)
    spelt = "|".join(sorted({regex.escape(label).replace("_", "[ _\\-]?") for label in labels}, key=len, reverse=True))
    bracketed = rf"(?P<tb>[\[{{<(] {{0,2}}(?i:(?P<tl>{spelt}))[ _\-]{{0,2}}(?P<tn>\d{{1,6}})(?P<tp>['’]s)? {{0,2}}[\]}}>)])"
    bare = "|".join(sorted({regex.escape(label) for label in labels}, key=len, reverse=True))
    return bracketed, rf"(?P<bare>(?<!\w)(?P<bl>{bare})_(?P<bn>\d{{1,6}})(?!\w))"


# --- mapping keys ----------------------------------------------------------------------------

def placeholder_format(mapping: Mapping[str, object]) -> str | None:
    """The placeholder format (`[{label}_{n}]`) that every key of `mapping` follows; None for
    an empty mapping. MappingError for a key that is not a placeholder (`"Bonjour"`, which
    restore would rewrite wherever it occurs) or keys of two formats.

    >>> placeholder_format({"[PERSON_1]": "Jean", "[EMAIL_12]": "j@x.fr"})
    '[{label}_{n}]'
    >>> placeholder_format({"Bonjour": "Au revoir"})
    Traceback (most recent call last):
    ...
    alias_engine.errors.MappingError: mapping key 'Bonjour' is not a placeholder (a label and a number, like [PERSON_1])
    """
    found = None
    for key in mapping:
        m = _key_match(key)
        if m is None:
            raise MappingError(f"mapping key {key[:40]!r} is not a placeholder (a label and a number, like [PERSON_1])")
        fmt = _format_of(m)
        if found is None:
            found = fmt
        elif fmt != found:
            raise MappingError(f"mapping keys follow two placeholder formats ({found!r} and {fmt!r}): "
                               "a mapping written by mask has one")
    return found


def mapping_labels(mapping: Mapping[str, object]) -> tuple[str, ...]:
    """The labels the keys of `mapping` name (the twelve's or any declared one's)."""
    return tuple(sorted({m.group("label") for key in mapping if (m := _key_match(key)) is not None}))


def placeholder_pattern(fmt: str, labels: tuple[str, ...] = ()) -> regex.Pattern:
    """Every placeholder of format `fmt`, for one of the twelve labels or of `labels`, and any
    number (groups `label` and `n`)."""
    pieces = regex.split(r"(\{label\}|\{n\})", fmt.replace("{{", "\x00").replace("}}", "\x01"))
    body = ""
    for piece in pieces:
        if piece == "{label}":
            body += f"(?P<label>{_key_labels(labels)})"
        elif piece == "{n}":
            body += rf"(?P<n>\d{{1,6}}|\d{{{ID_DIGITS}}})"
        else:
            body += regex.escape(piece.replace("\x00", "{").replace("\x01", "}"))
    return regex.compile(body)


def not_the_authors(names: Sequence[str], mapping: Mapping[str, object], pattern: regex.Pattern) -> list[str]:
    """`names` (placeholders left as written in an answer) less those the author wrote: a mask numbers
    each label from 1 and skips the numbers its text already uses, so a number under the mapping's
    highest for its label, missing from the mapping, is the author's."""
    highest: dict[str, int] = {}
    for key in mapping:
        parts = _parts_in_format(key, pattern)
        assert parts is not None, "placeholder_format checked that every key is a placeholder"
        label, n = parts
        highest[label] = max(highest.get(label, 0), n)
    return [name for name in names
            if (parts := _parts_in_format(name, pattern)) is None or parts[1] > highest.get(parts[0], 0)]


def _parts_in_format(name: str, pattern: regex.Pattern) -> tuple[str, int] | None:
    """("CREDITCARD", 2) for `[CREDIT_CARD_2]` (or a placeholder of `pattern`'s format)."""
    m = pattern.fullmatch(name)
    if m is not None:
        return m.group("label").replace("_", ""), int(m.group("n"))
    return placeholder_key(name)


def _key_labels(extra: tuple[str, ...] = ()) -> str:
    return "|".join(sorted(set(LABELS) | set(extra), key=len, reverse=True))


@lru_cache(maxsize=8)
def _key_shapes(alternation: str) -> tuple[regex.Pattern, regex.Pattern]:
    # A key is LABEL then a number (or a number then LABEL), between any non-alphanumeric marks.
    return (
        regex.compile(rf"(?P<pre>[^\p{{L}}\p{{N}}]*)(?P<label>{alternation})(?P<mid>[^\p{{L}}\p{{N}}]*)"
                      rf"(?P<n>[1-9]\d{{0,5}}|[1-9]\d{{{ID_DIGITS - 1}}})(?P<post>[^\p{{L}}\p{{N}}].*|)", regex.DOTALL),
        regex.compile(rf"(?P<pre>[^\p{{L}}\p{{N}}]*)(?P<n>[1-9]\d{{0,5}}|[1-9]\d{{{ID_DIGITS - 1}}})"
                      rf"(?P<mid>[^\p{{L}}\p{{N}}]+)"
                      rf"(?P<label>{alternation})(?P<post>[^\p{{L}}\p{{N}}].*|)", regex.DOTALL),
    )


def _key_match(key: str) -> regex.Match | None:
    """The parts of a mapping key: a known label, or any label in capitals a rules file may have
    declared (`[EMPLOYEE_ID_1]` restores without that file)."""
    for alternation in (_key_labels(), _ANY_LABEL):
        for shape in _key_shapes(alternation):
            m = shape.fullmatch(key)
            if m is None:
                continue
            try:
                check_placeholder_format(_format_of(m))
            except ValueError:
                continue
            return m
    return None


def _format_of(m: regex.Match) -> str:
    g = m.groupdict()
    parts = {"label": "{label}", "n": "{n}"}
    return "".join(parts.get(name, g[name].replace("{", "{{").replace("}", "}}")) for name in sorted(g, key=m.start))
