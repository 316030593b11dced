"""Errors raised by the validators, mirroring python-stdnum's exceptions.

Every validator raises one of these (never a stdnum exception), so callers only
need to catch `ValidationError` (which is also an `AliasEngineError` and a
`ValueError`).
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from stdnum import exceptions as _stdnum

from ..errors import AliasEngineError


class ValidationError(AliasEngineError, ValueError):
    """The value is not a valid identifier of this kind."""


class InvalidFormat(ValidationError):
    """Characters or structure that the format does not allow."""


class InvalidLength(InvalidFormat):
    """The value has the wrong number of characters."""


class InvalidChecksum(ValidationError):
    """The check digit(s) or checksum do not match."""


class InvalidComponent(ValidationError):
    """A part of the value is not allocated or not allowed (prefix, area, brand, month...)."""


_FROM_STDNUM: tuple[tuple[type[Exception], type[ValidationError]], ...] = (
    (_stdnum.InvalidLength, InvalidLength),
    (_stdnum.InvalidFormat, InvalidFormat),
    (_stdnum.InvalidChecksum, InvalidChecksum),
    (_stdnum.InvalidComponent, InvalidComponent),
)


@contextmanager
def stdnum_errors(what: str) -> Iterator[None]:
    """Re-raise python-stdnum's exceptions as ours, with `what` in the message."""
    try:
        yield
    except _stdnum.ValidationError as exc:
        for theirs, ours in _FROM_STDNUM:
            if isinstance(exc, theirs):
                raise ours(f"{what}: {exc}") from None
        raise ValidationError(f"{what}: {exc}") from None

