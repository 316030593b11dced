"""Checked types for numeric command-line options: a bad value is a usage error (exit 2).

>>> positive_int("3"), non_negative_int("0"), probability("0.5"), finite_float("-1e3")
(3, 0, 0.5, -1000.0)
>>> finite_float("nan")
Traceback (most recent call last):
...
argparse.ArgumentTypeError: not a finite number: 'nan'
"""

from __future__ import annotations

import argparse
import math


def _int(value: str) -> int:
    try:
        return int(value)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not an integer: {value!r}") from None


def positive_int(value: str) -> int:
    number = _int(value)
    if number < 1:
        raise argparse.ArgumentTypeError("must be at least 1")
    return number


def non_negative_int(value: str) -> int:
    number = _int(value)
    if number < 0:
        raise argparse.ArgumentTypeError("must be at least 0")
    return number


def finite_float(value: str) -> float:
    try:
        number = float(value)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number: {value!r}") from None
    if not math.isfinite(number):
        raise argparse.ArgumentTypeError(f"not a finite number: {value!r}")
    return number


def probability(value: str) -> float:
    number = finite_float(value)
    if not 0.0 <= number <= 1.0:
        raise argparse.ArgumentTypeError(f"must be between 0 and 1, not {value}")
    return number
