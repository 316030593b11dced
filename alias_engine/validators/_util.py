"""Helpers shared by the validator modules."""

from __future__ import annotations

from .errors import InvalidFormat


def as_text(number: object, what: str) -> str:
    """`number` if it is a str, else InvalidFormat (never a TypeError)."""
    if not isinstance(number, str):
        raise InvalidFormat(f"{what}: expected str, not {type(number).__name__}")
    return number


def remove_separators(number: str, separators: str = " -.") -> str:
    """Strip surrounding whitespace and the separator characters, uppercase the rest."""
    return "".join(ch for ch in number.strip() if ch not in separators).upper()
