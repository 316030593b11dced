"""Reversible pseudonymisation of LLM conversations: sessions, surrogates, streaming restore, vault."""

from .session import MODES, Session
from .stream import StreamRestorer

__all__ = ["Session", "StreamRestorer", "MODES"]
