"""The proxy's settings, as given on the command line."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORT = 8787
DEFAULT_MAX_BODY = 10 * 2 ** 20
DEFAULT_MAX_TEXTS = 10_000


@dataclass
class ServerConfig:
    """`upstream`: base URL the `/v1/...` paths are appended to (a trailing `/v1` is accepted).

    `api_keys`: when set, every route but /healthz needs one of them (header
    `X-Alias-Key`, or as the client's `Authorization: Bearer` / `x-api-key`).
    `upstream_api_key`: sent upstream when the client's own credential was the proxy key.
    `vault_dir` + `vault_key`: encrypted vault per `X-Alias-Session` conversation.
    `workers`: detection threads (default: the cores); `queue`: detection jobs that may wait
    for a worker before requests get 503; `batch_texts`: most texts of waiting requests given to the
    model in one batch (1: no batching across requests). `max_texts`: most strings and keys to
    mask in one request (413 above). `drain_seconds`: on SIGTERM, how long open requests may finish.
    """

    upstream: str = ""
    mode: str = "placeholder"
    api_keys: tuple[bytes, ...] = ()
    upstream_api_key: str | None = None
    vault_dir: Path | None = None
    vault_key: bytes | None = None
    max_body: int = DEFAULT_MAX_BODY
    workers: int | None = None
    queue: int = 64
    batch_texts: int = 32
    sessions_in_memory: int = 1024
    upstream_timeout: float = 600.0
    max_texts: int = DEFAULT_MAX_TEXTS
    drain_seconds: float = 30.0

    def __post_init__(self) -> None:
        upstream = self.upstream.rstrip("/")
        if upstream.endswith("/v1"):
            upstream = upstream[:-3]
        self.upstream = upstream
        if self.vault_dir is not None and not self.vault_key:
            raise ValueError("--vault-dir needs a key: set ALIAS_ENGINE_KEY")
