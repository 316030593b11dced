"""Where the shipped rule files and model live, installed or in a source checkout."""

from __future__ import annotations

import json
from pathlib import Path

from .errors import RulesError

_PACKAGE = Path(__file__).resolve().parent


def data_dir(name: str) -> Path:
    """`rules` or `models`: inside the installed package, else at the checkout's root."""
    installed = _PACKAGE / "_data" / name
    if installed.is_dir():
        return installed
    return _PACKAGE.parent / name


def read_rule_file(path: Path) -> dict:
    """The JSON object of a rules file; RulesError when it is missing, unreadable or not an object."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise RulesError(f"rules file not found: {path}") from None
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise RulesError(f"cannot read rules file {path}: {exc}") from None
    if not isinstance(data, dict):
        raise RulesError(f"rules file {path} must hold a JSON object")
    return data
