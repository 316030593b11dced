"""Put original values back in place of placeholders."""

from __future__ import annotations

from collections.abc import Mapping

import regex

from .errors import MappingError


def check_mapping(mapping: object) -> dict[str, str | list[str]]:
    """Validate a mapping read from a user or a file; raise MappingError if malformed."""
    if not isinstance(mapping, Mapping):
        raise MappingError("mapping must be a JSON object of placeholder -> original value")
    for name, value in mapping.items():
        if not isinstance(name, str) or not name:
            raise MappingError("mapping keys must be non-empty strings")
        if isinstance(value, list):
            if not value or not all(isinstance(v, str) for v in value):
                raise MappingError(f"mapping entry {name!r}: a list of forms must hold strings")
        elif not isinstance(value, str):
            raise MappingError(f"mapping entry {name!r}: the value must be a string or a list of strings")
    return dict(mapping)


def unmask(text: str, mapping: Mapping[str, str | list[str]]) -> str:
    """Replace every placeholder of `mapping` found in `text` by its original value.

    A placeholder whose value has several written forms gets them back in order
    when it occurs exactly as often as it was masked; otherwise the first form.
    """
    mapping = check_mapping(mapping)
    if not mapping or not text:
        return text
    pattern = regex.compile("|".join(regex.escape(k) for k in sorted(mapping, key=len, reverse=True)))
    counts: dict[str, int] = {}
    for m in pattern.finditer(text):
        counts[m.group()] = counts.get(m.group(), 0) + 1
    seen: dict[str, int] = {}

    def replace(m: regex.Match) -> str:
        name = m.group()
        value = mapping[name]
        if isinstance(value, str):
            return value
        i = seen.get(name, 0)
        seen[name] = i + 1
        return value[i] if counts[name] == len(value) else value[0]

    return pattern.sub(replace, text)
