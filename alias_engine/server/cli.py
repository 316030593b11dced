"""`alias-engine serve`: its options, and the command, which imports the server only when run."""

from __future__ import annotations

import argparse
import logging
import sys
from pathlib import Path

from ..errors import InputError, MappingError
from ..options import non_negative_int, positive_int
from .config import DEFAULT_HOST, DEFAULT_MAX_BODY, DEFAULT_MAX_TEXTS, DEFAULT_PORT, ServerConfig

INSTALL_HINT = "the serve command needs the server extra: pip install 'alias-engine[server]'"


def add_serve_command(commands, add_engine_options) -> None:
    help = "run the masking proxy (OpenAI- and Anthropic-compatible) and the REST API"
    p = commands.add_parser("serve", help=help, description=help + "; see docs/proxy.md")
    p.add_argument("--upstream", required=True, help="base URL of the LLM API, e.g. https://api.openai.com")
    p.add_argument("--host", default=DEFAULT_HOST, help=f"address to listen on (default {DEFAULT_HOST})")
    p.add_argument("--port", type=positive_int, default=DEFAULT_PORT, help=f"port (default {DEFAULT_PORT})")
    p.add_argument("--api-key-file", metavar="FILE",
                   help="clients must present a key listed in FILE (one a line) in X-Alias-Key, "
                        "Authorization: Bearer or x-api-key")
    p.add_argument("--upstream-api-key-file", metavar="FILE",
                   help="key sent upstream when a client's own credential was the proxy key (first line)")
    p.add_argument("--vault-dir", metavar="DIR",
                   help="keep one encrypted vault per X-Alias-Session conversation here (key: $ALIAS_ENGINE_KEY)")
    p.add_argument("--mode", choices=("placeholder", "surrogate"), default="placeholder",
                   help="placeholders (default) or realistic surrogate values")
    p.add_argument("--max-body", type=positive_int, default=DEFAULT_MAX_BODY, help="largest request body in bytes (413 above)")
    p.add_argument("--max-texts", type=positive_int, default=DEFAULT_MAX_TEXTS,
                   help=f"most strings and keys to mask in one request (413 above; default {DEFAULT_MAX_TEXTS:,})")
    p.add_argument("--drain-seconds", type=positive_int, default=30,
                   help="on SIGTERM, seconds open requests and streams may take to finish (default 30)")
    p.add_argument("--workers", type=positive_int, help="detection threads (default: the number of cores)")
    p.add_argument("--queue", type=non_negative_int, default=64, help="detection jobs that may wait before 503 (default 64)")
    p.add_argument("--batch-texts", type=positive_int, default=32,
                   help="most texts of waiting requests detected in one model batch (default 32; 1: none)")
    p.add_argument("--log-level", default="info", choices=("debug", "info", "warning", "error"))
    add_engine_options(p)
    p.set_defaults(handler=cmd_serve)


def _read_keys(path: str | None, what: str) -> list[bytes]:
    if path is None:
        return []
    try:
        lines = Path(path).read_bytes().splitlines()
    except OSError as exc:
        raise InputError(f"cannot read the {what} {Path(path).name}: {exc.strerror}") from None
    keys = [line.strip() for line in lines if line.strip()]
    if not keys:
        raise InputError(f"the {what} {Path(path).name} is empty")
    return keys


def config_from_args(args: argparse.Namespace) -> ServerConfig:
    from ..pseudonymise.vault import check_new_key, key_from

    vault_key = None
    if args.vault_dir:
        try:
            vault_key = key_from(None)
        except MappingError:
            raise InputError("--vault-dir needs a key: set ALIAS_ENGINE_KEY") from None
        check_new_key(vault_key)  # a weak key stops the start, not the first request
    upstream_keys = _read_keys(args.upstream_api_key_file, "upstream key file")
    try:
        return ServerConfig(upstream=args.upstream, mode=args.mode,
                            api_keys=tuple(_read_keys(args.api_key_file, "API key file")),
                            upstream_api_key=upstream_keys[0].decode("utf-8") if upstream_keys else None,
                            vault_dir=Path(args.vault_dir) if args.vault_dir else None, vault_key=vault_key,
                            max_body=args.max_body, workers=args.workers, queue=args.queue,
                            batch_texts=args.batch_texts, max_texts=args.max_texts,
                            drain_seconds=args.drain_seconds)
    except ValueError as exc:
        raise InputError(str(exc)) from None


def cmd_serve(args: argparse.Namespace) -> int:
    try:
        import uvicorn

        from .app import create_app
    except ImportError:
        raise InputError(INSTALL_HINT) from None
    from ..engine_options import engine_from_args

    if not args.upstream.startswith(("http://", "https://")):
        raise InputError("--upstream must be an http:// or https:// URL")
    config = config_from_args(args)
    if args.threads is None:  # one model thread per detection worker: the workers use the cores
        args.threads = 1
    engine = engine_from_args(args)
    engine.detect("warm-up")  # load the model now: a missing model stops the start, not a request
    logging.basicConfig(level=args.log_level.upper(), format="%(asctime)s %(levelname)s %(name)s %(message)s",
                        stream=sys.stderr)
    from ..detectors.backends import format_runtime_summary, runtime_summary

    logging.getLogger("alias_engine.server").info("%s", format_runtime_summary(
        runtime_summary(engine.model.runtime if engine.model is not None else None, engine.backend)))
    if args.host not in ("127.0.0.1", "localhost", "::1"):
        logging.getLogger("alias_engine.server").warning(
            "listening on %s: reachable from other machines%s", args.host,
            "" if config.api_keys else " without --api-key-file")
    app = create_app(config, engine)
    # uvicorn's access log would print query strings; the proxy logs its own lines (counts, timings)
    uvicorn.run(app, host=args.host, port=args.port, access_log=False, log_level=args.log_level,
                workers=None, server_header=False,
                # uvicorn annotates it int but uses it as an asyncio timeout, where a float works
                timeout_graceful_shutdown=config.drain_seconds)  # type: ignore[arg-type]
    return 0


__all__ = ["add_serve_command", "cmd_serve", "config_from_args", "INSTALL_HINT"]
