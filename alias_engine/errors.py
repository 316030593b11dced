"""Errors the engine raises on purpose; the CLI prints them as one line."""


class AliasEngineError(Exception):
    """Base of every error alias-engine raises for bad input or a broken setup."""


class InputError(AliasEngineError):
    """The input cannot be read: not UTF-8, malformed JSON, wrong type, too large."""


class ModelError(AliasEngineError):
    """The model is missing, corrupt, or failed to run: detection cannot proceed."""


class MappingError(AliasEngineError):
    """A mapping or vault is malformed, tampered with, or opened with the wrong key."""


class RulesError(AliasEngineError):
    """A rules file is missing, is not valid JSON, or does not follow the schema of docs/rules.md."""
