"""`alias-engine serve`: an OpenAI- and Anthropic-compatible proxy that masks requests and
restores answers, and a small REST API (detect, mask, unmask). Needs the `[server]` extra.

Data flow of one proxied request: body → `masking` (collect every text, detect in the pool,
mask with the conversation's session) → upstream → `restoring` (whole answer, or SSE events
through `sse` and one streaming restorer per field) → client. Anything that cannot be masked
is answered with an error in the API's own shape and nothing is forwarded (`errors`).
"""

from .config import ServerConfig

__all__ = ["ServerConfig", "create_app"]


def create_app(config: ServerConfig, engine=None):
    """The Starlette application (imports the server dependencies)."""
    from .app import create_app as _create

    return _create(config, engine)
