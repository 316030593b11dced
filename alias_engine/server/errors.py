"""Errors in the client's API shape: OpenAI's `{"error": {...}}` or Anthropic's `{"type": "error", ...}`."""

from __future__ import annotations

import json

_ANTHROPIC_TYPES = {400: "invalid_request_error", 401: "authentication_error", 403: "permission_error",
                    404: "not_found_error", 413: "request_too_large", 429: "rate_limit_error",
                    503: "overloaded_error"}
_OPENAI_TYPES = {401: "authentication_error", 404: "not_found_error", 413: "invalid_request_error",
                 503: "server_overloaded"}


class ProxyError(Exception):
    """A request the proxy refuses or cannot serve; nothing was forwarded.

    `status`: 4xx when the client is at fault, 5xx otherwise.
    """

    def __init__(self, status: int, message: str, retry_after: int | None = None) -> None:
        super().__init__(message)
        self.status = status
        self.message = message
        self.retry_after = retry_after


def error_body(api: str, status: int, message: str) -> dict:
    """The error object of `api` ("openai" or "anthropic") for an HTTP status."""
    if api == "anthropic":
        kind = _ANTHROPIC_TYPES.get(status, "api_error" if status >= 500 else "invalid_request_error")
        return {"type": "error", "error": {"type": kind, "message": message}}
    kind = _OPENAI_TYPES.get(status, "server_error" if status >= 500 else "invalid_request_error")
    return {"error": {"message": message, "type": kind, "param": None, "code": None}}


def error_event(api: str, status: int, message: str) -> bytes:
    """The same error as one SSE event, for a stream that already started."""
    body = json.dumps(error_body(api, status, message), ensure_ascii=False)
    if api == "anthropic":
        return f"event: error\ndata: {body}\n\n".encode()
    return f"data: {body}\n\n".encode()
