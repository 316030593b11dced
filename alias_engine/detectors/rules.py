"""Rule files → compiled rules, and the one entry point that runs every rule detector."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..errors import AliasEngineError
from ..spans import Span

RULE_FILES = ("common.json", "fr.json", "en.json")


class RulesError(AliasEngineError):
    """A rules file is missing, is not valid JSON, or does not follow the schema of docs/rules.md."""


@dataclass(frozen=True)
class Rules:
    """Everything compiled once from rules/*.json."""

    raw: tuple[tuple[str, Any], ...]


def read_rule_file(path: Path) -> dict:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise RulesError(f"rules file not found: {path}") from None
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise RulesError(f"cannot read rules file {path}: {exc}") from None
    if not isinstance(data, dict):
        raise RulesError(f"rules file {path} must hold a JSON object")
    return data


def load_rules(rules_dir: Path) -> Rules:
    """Read and compile rules/*.json; raise RulesError on a missing or malformed file."""
    rules_dir = Path(rules_dir)
    if not rules_dir.is_dir():
        raise RulesError(f"rules directory not found: {rules_dir}")
    return Rules(tuple((name, read_rule_file(rules_dir / name)) for name in RULE_FILES))


def detect_with_rules(text: str, lang: str, rules: Rules) -> list[Span]:
    """Candidate spans (possibly overlapping) of every rule detector in the normalised `text`."""
    return []
