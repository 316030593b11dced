"""Adapters for the tools where users already work: Presidio (`presidio`), LiteLLM
(`litellm`), Spark (`spark`). Each needs its extra (`pip install "alias-engine[presidio]"`...);
importing one without its library raises an AliasEngineError that names the extra.
`presidio_entities` (the entity-name table) needs nothing.
"""

from __future__ import annotations

from importlib import import_module
from types import ModuleType

from ..errors import AliasEngineError


def require(module: str, extra: str, what: str) -> ModuleType:
    """`import module`, or an AliasEngineError telling which extra to install."""
    try:
        return import_module(module)
    except ImportError as exc:
        raise AliasEngineError(f"{what} needs {module.split('.')[0]}: pip install \"alias-engine[{extra}]\" "
                               f"({type(exc).__name__}: {exc})") from None
