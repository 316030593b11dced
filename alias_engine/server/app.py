"""The Starlette application: proxy routes, REST routes, auth, limits, logs."""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import hmac
import json
import logging
import re
import threading
import time
from collections import Counter
from urllib.parse import urlencode

import httpx
from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import JSONResponse, Response, StreamingResponse
from starlette.routing import Route

from ..errors import AliasEngineError, InputError, MappingError
from ..restore import unmask_report
from .config import ServerConfig
from .errors import ProxyError, error_body, error_event
from .masking import COLLECTORS, CachedDetector, mask_slots
from .pool import Batcher, DetectionPool
from .restoring import RESTORE_BODY, STREAMS, Restorers
from .sessions import SESSION_HEADER, SessionStore
from .sse import SSEParser

log = logging.getLogger("alias_engine.server")

# client headers sent on upstream (nothing else: no cookies, no X-Alias-*)
_FORWARD = ("authorization", "x-api-key")
_FORWARD_PREFIXES = ("anthropic-", "openai-")
# query parameters forwarded upstream (their values: words, not text)
_QUERY = frozenset({"beta", "api-version"})
_QUERY_VALUE = re.compile(r"[A-Za-z0-9._-]{1,64}")
# a model id in /v1/models/{model}: path segments that start with no dot (no "..")
_MODEL_PATH = re.compile(r"[A-Za-z0-9][A-Za-z0-9._:-]{0,127}(?:/[A-Za-z0-9][A-Za-z0-9._:-]{0,127}){0,3}(?:@\d{8})?")
# upstream headers sent back to the client
_BACK = ("x-request-id", "request-id", "openai-processing-ms", "openai-version", "retry-after")
_BACK_PREFIXES = ("x-ratelimit-", "anthropic-ratelimit-", "openai-")


def _api_of(request: Request) -> str:
    path = request.url.path
    return "anthropic" if path.startswith("/v1/messages") or "anthropic-version" in request.headers else "openai"


def _error(api: str, exc: ProxyError) -> JSONResponse:
    headers = {"retry-after": str(exc.retry_after)} if exc.retry_after is not None else None
    return JSONResponse(error_body(api, exc.status, exc.message), status_code=exc.status, headers=headers)


def _labels(counts: Counter) -> str:
    return ",".join(f"{label}:{n}" for label, n in sorted(counts.items())) or "-"


class Proxy:
    def __init__(self, config: ServerConfig, engine) -> None:
        self.config = config
        self.detector = CachedDetector(engine)
        self.sessions = SessionStore(self.detector, config.mode, config.vault_dir, config.vault_key,
                                     config.sessions_in_memory)
        self.pool = DetectionPool(config.workers, config.queue)
        self.batcher = Batcher(self.pool, engine.detect_many, config.batch_texts)
        self._client: httpx.AsyncClient | None = None
        self._keys = [hashlib.sha256(k).digest() for k in config.api_keys]

    @property
    def client(self) -> httpx.AsyncClient:
        if self._client is None:
            self._client = httpx.AsyncClient(timeout=httpx.Timeout(self.config.upstream_timeout, connect=10.0),
                                             limits=httpx.Limits(max_connections=None, max_keepalive_connections=64))
        return self._client

    @contextlib.asynccontextmanager
    async def lifespan(self, app):
        yield
        if self._client is not None:
            await self._client.aclose()
        self.pool.close()

    # --- checks ------------------------------------------------------------------------

    def _key_of(self, candidate: str | None) -> bytes | None:
        """The digest of the proxy key `candidate` is, or None; every key compared, in constant time."""
        if not candidate:
            return None
        digest = hashlib.sha256(candidate.encode("utf-8", "surrogatepass")).digest()
        found = None
        for key in self._keys:
            if hmac.compare_digest(digest, key):
                found = key
        return found

    def _upstream_headers(self, request: Request) -> tuple[dict[str, str], str]:
        """The client's credentials and API headers, and the caller's namespace of sessions (a digest
        of the proxy key it presented; "" without --api-key-file). The proxy key never goes upstream:
        where the client sent it as its own credential, the upstream key takes its place."""
        headers = {name: value for name, value in request.headers.items()
                   if name in _FORWARD or name.startswith(_FORWARD_PREFIXES)}
        if not self._keys:
            return headers, ""
        authorization = request.headers.get("authorization", "")
        bearer = authorization[7:].strip() if authorization[:7].lower() == "bearer " else None
        in_bearer, in_api_key = self._key_of(bearer), self._key_of(request.headers.get("x-api-key"))
        key = self._key_of(request.headers.get("x-alias-key")) or in_bearer or in_api_key
        if key is None:
            raise ProxyError(401, "missing or wrong alias-engine API key (X-Alias-Key, Authorization or x-api-key)")
        upstream_key = self.config.upstream_api_key
        if in_bearer:
            del headers["authorization"]
            if upstream_key:
                headers["authorization"] = f"Bearer {upstream_key}"
        if in_api_key:
            del headers["x-api-key"]
            if upstream_key and not in_bearer:
                headers["x-api-key"] = upstream_key
        return headers, hashlib.sha256(b"alias-engine sessions\x00" + key).hexdigest()[:16]

    async def _json_body(self, request: Request) -> dict:
        limit = self.config.max_body
        length = request.headers.get("content-length", "")
        if length.isdigit() and int(length) > limit:
            raise ProxyError(413, f"request body over the limit of {limit:,} bytes")
        if request.headers.get("content-encoding", "identity").lower() != "identity":
            raise ProxyError(415, "compressed request bodies are not accepted")
        chunks, size = [], 0
        async for chunk in request.stream():
            size += len(chunk)
            if size > limit:
                raise ProxyError(413, f"request body over the limit of {limit:,} bytes")
            chunks.append(chunk)
        raw = b"".join(chunks)
        if not raw.strip():
            raise ProxyError(400, "the request body is empty; a JSON object is expected")
        try:
            body = json.loads(raw.decode("utf-8"))
        except UnicodeDecodeError:
            raise ProxyError(400, "the request body is not valid UTF-8") from None
        except (ValueError, RecursionError):
            raise ProxyError(400, "the request body is not valid JSON (or nested too deeply)") from None
        if not isinstance(body, dict):
            raise ProxyError(400, "the request body must be a JSON object")
        try:
            json.dumps(body, ensure_ascii=False).encode("utf-8")
        except UnicodeEncodeError:  # "\ud800" alone: valid JSON, but no text
            raise ProxyError(400, "the request body holds an unpaired UTF-16 surrogate escape") from None
        return body

    def _url(self, request: Request, path: str) -> str:
        """The upstream URL of `path` (the route's own, never the request's) with the request's
        query, which may only hold `_QUERY`'s parameters with word values (Claude Code's
        `?beta=true`): anything else could carry a value in clear, so it is refused."""
        params = []
        for name, value in request.query_params.multi_items():
            if name not in _QUERY or not _QUERY_VALUE.fullmatch(value):
                raise ProxyError(400, f"the query parameter {name[:40]!r} is not forwarded "
                                      f"(accepted: {', '.join(sorted(_QUERY))} with a word value)")
            params.append((name, value))
        return self.config.upstream + path + (f"?{urlencode(params)}" if params else "")

    # --- masking -----------------------------------------------------------------------

    async def _mask(self, request: Request, namespace: str, slots, job=None, writes: bool | None = None):
        """Mask `slots` with the request's session (of the caller's `namespace`) in the pool, then
        run `job(session)`; (restore table, label counts, job's result). `writes`: the session
        changes (default: when there are slots); a session that does not change must exist. A
        client that disconnects stops its masking at the next text and frees its worker."""
        if len(slots) > self.config.max_texts:
            raise ProxyError(413, f"the request holds {len(slots):,} texts to mask, over the limit of "
                                  f"{self.config.max_texts:,}")
        stop = threading.Event()
        work = asyncio.ensure_future(self._masked(request, namespace, slots, job, writes, stop))
        gone = asyncio.ensure_future(_disconnected(request))
        try:
            await asyncio.wait({work, gone}, return_when=asyncio.FIRST_COMPLETED)
        finally:
            gone.cancel()
            if not work.done():  # the client went away: nothing will be forwarded
                stop.set()
                work.cancel()
        if work.cancelled():
            raise ProxyError(499, "the client closed the connection")
        return work.result()

    async def _masked(self, request: Request, namespace: str, slots, job, writes, stop: threading.Event):
        writes = bool(slots) if writes is None else writes
        session_id = request.headers.get(SESSION_HEADER)
        conv = self.sessions.conversation(session_id, namespace) if session_id is not None else None

        def work(session):
            labels = mask_slots(slots, session, self.detector, stop)
            return session.table(), labels, job(session) if job is not None else None

        def run():
            if conv is None:
                return work(self.sessions.fresh())
            if not writes and not self.sessions.exists(conv):
                raise ProxyError(404, "no conversation with this X-Alias-Session")
            with self.sessions.hold(conv) as session:
                result = work(session)
                if writes:
                    self.sessions.save(conv)
            return result

        try:
            async with self.pool.admit():
                missing = self.detector.missing([slot.text() for slot in slots])
                if missing:  # detected with other requests' texts; the masking job finds them in the cache
                    self.detector.store(missing, await self.batcher.detect(missing))
                if conv is None:
                    return await self.pool.execute(run)
                async with conv.lock:
                    return await self.pool.execute(run)
        except ProxyError:
            raise
        except InputError as exc:
            raise ProxyError(400, f"cannot mask the request: {exc}") from None
        except MappingError as exc:
            log.error("session vault error (%s)", type(exc).__name__)
            raise ProxyError(500, f"the conversation's session cannot be used: {exc}") from None
        except AliasEngineError as exc:
            log.error("detection failed (%s)", type(exc).__name__)
            raise ProxyError(500, f"detection failed, nothing was forwarded: {exc}") from None
        except Exception as exc:  # fail closed: whatever went wrong, nothing is forwarded
            log.error("masking failed (%s)", type(exc).__name__)
            raise ProxyError(500, "masking failed, nothing was forwarded") from None

    # --- proxy routes ------------------------------------------------------------------

    def route(self, kind: str, path: str):
        async def handler(request: Request) -> Response:
            api = "anthropic" if kind == "messages" else "openai"
            started = time.perf_counter()
            try:
                return await self._proxy(request, kind, api, path, started)
            except ProxyError as exc:
                self._log(request, exc.status, started, note="refused")
                return _error(api, exc)
            except Exception as exc:  # a bug: still an answer in the API's shape, and no text in the log
                log.error("internal error (%s)", type(exc).__name__)
                self._log(request, 500, started, note="internal-error")
                return _error(api, ProxyError(500, "alias-engine internal error"))
        return handler

    async def _proxy(self, request: Request, kind: str, api: str, path: str, started: float) -> Response:
        headers, namespace = self._upstream_headers(request)
        url = self._url(request, path)
        body = await self._json_body(request)
        if kind == "responses" and SESSION_HEADER not in request.headers and (
                body.get("previous_response_id") or body.get("conversation")):
            raise ProxyError(400, "previous_response_id and conversation need an X-Alias-Session header: "
                                  "the stored turns were masked with that conversation's placeholders")
        slots = COLLECTORS[kind](body)
        table, labels, _ = await self._mask(request, namespace, slots)
        masked_at = time.perf_counter()
        stats = {"texts": len(slots), "labels": labels, "mask_ms": (masked_at - started) * 1000}
        upstream = self.client.build_request("POST", url,
                                             content=json.dumps(body, ensure_ascii=False).encode("utf-8"),
                                             headers={**headers, "content-type": "application/json"})
        try:
            resp = await self.client.send(upstream, stream=True)
        except httpx.TimeoutException:
            raise ProxyError(504, "the upstream did not answer in time") from None
        except httpx.HTTPError as exc:
            raise ProxyError(502, f"cannot reach the upstream ({type(exc).__name__})") from None
        stats["upstream_ms"] = (time.perf_counter() - masked_at) * 1000
        back = {k: v for k, v in resp.headers.items() if k in _BACK or k.startswith(_BACK_PREFIXES)}
        restorers = Restorers(table)
        ctype = resp.headers.get("content-type", "")
        if resp.status_code < 400 and ctype.startswith("text/event-stream"):
            return StreamingResponse(self._relay(request, resp, kind, api, restorers, started, stats),
                                     status_code=resp.status_code, media_type="text/event-stream",
                                     headers={**back, "cache-control": "no-cache"})
        try:
            raw = await resp.aread()
        except httpx.HTTPError:
            raise ProxyError(502, "the upstream answer broke off") from None
        finally:
            await resp.aclose()
        if resp.status_code >= 400:  # the upstream's own error, with its status
            self._log(request, resp.status_code, started, **stats)
            return Response(raw, status_code=resp.status_code, headers=back, media_type=ctype or None)
        try:
            answer = json.loads(raw.decode("utf-8"))
        except ValueError:
            answer = None
        if not isinstance(answer, dict):
            self._log(request, resp.status_code, started, note="unrestored", **stats)
            return Response(raw, status_code=resp.status_code, headers=back, media_type=ctype or None)
        RESTORE_BODY[kind](answer, restorers)
        self._log(request, resp.status_code, started, restored=restorers.restored, **stats)
        return JSONResponse(answer, status_code=resp.status_code, headers=back)

    async def _relay(self, request, resp, kind, api, restorers, started, stats):
        stream = STREAMS[kind](restorers)
        parser = SSEParser()
        status = resp.status_code
        try:
            async for chunk in resp.aiter_bytes():
                out = [e for event in parser.feed(chunk) for e in stream.on_event(event)]
                if out:
                    yield b"".join(e.encode() for e in out)
            out = [e for event in parser.close() for e in stream.on_event(event)] + stream.finish()
            if out:
                yield b"".join(e.encode() for e in out)
        except httpx.HTTPError:
            status = 502
            yield error_event(api, 502, "the upstream stream broke off")
        except AliasEngineError as exc:
            status = 502
            yield error_event(api, 502, f"the upstream stream cannot be restored: {exc}")
        except Exception as exc:  # a bug: end the stream in the API's shape, log no text
            status = 500
            log.error("internal error in a stream (%s)", type(exc).__name__)
            yield error_event(api, 500, "alias-engine internal error")
        finally:
            await resp.aclose()
            self._log(request, status, started, stream=True, restored=restorers.restored, **stats)

    async def models(self, request: Request) -> Response:
        """GET /v1/models and /v1/models/{model}: the model id checked (no '..', no text), the
        upstream path rebuilt from it."""
        started = time.perf_counter()
        try:
            headers, _ = self._upstream_headers(request)
            model = request.path_params.get("model")
            if model is not None and not _MODEL_PATH.fullmatch(model):
                raise ProxyError(400, "the model id must be a model name (letters, digits, '.', '_', ':', '-', "
                                      "up to 4 '/' between segments that start with a letter or digit)")
            url = self._url(request, "/v1/models" + (f"/{model}" if model is not None else ""))
            try:
                resp = await self.client.get(url, headers=headers)
            except httpx.HTTPError as exc:
                raise ProxyError(502, f"cannot reach the upstream ({type(exc).__name__})") from None
        except ProxyError as exc:
            self._log(request, exc.status, started, note="refused")
            return _error(_api_of(request), exc)
        back = {k: v for k, v in resp.headers.items() if k in _BACK or k.startswith(_BACK_PREFIXES)}
        self._log(request, resp.status_code, started)
        return Response(resp.content, status_code=resp.status_code, headers=back,
                        media_type=resp.headers.get("content-type"))

    # --- REST routes -------------------------------------------------------------------

    def rest(self, action: str):
        async def handler(request: Request) -> Response:
            started = time.perf_counter()
            try:
                _, namespace = self._upstream_headers(request)  # the key check
                body = await self._json_body(request)
                text = body.get("text")
                if not isinstance(text, str):
                    raise ProxyError(400, "text must be a string")
                result = await getattr(self, "_" + action)(request, namespace, body, text)
            except ProxyError as exc:
                self._log(request, exc.status, started, note="refused")
                return _error("openai", exc)
            except Exception as exc:
                log.error("internal error (%s)", type(exc).__name__)
                self._log(request, 500, started, note="internal-error")
                return _error("openai", ProxyError(500, "alias-engine internal error"))
            self._log(request, 200, started)
            return JSONResponse(result)
        return handler

    async def _detect(self, request: Request, namespace: str, body: dict, text: str) -> dict:
        lang = body.get("lang")
        if lang not in (None, "auto", "fr", "en"):
            raise ProxyError(400, "lang must be auto, fr or en")
        try:
            async with self.pool.admit():
                (spans,) = await self.batcher.detect([text], lang)
        except InputError as exc:
            raise ProxyError(400, str(exc)) from None
        except ProxyError:
            raise
        except Exception as exc:
            log.error("detection failed (%s)", type(exc).__name__)
            raise ProxyError(500, "detection failed") from None
        return {"spans": [s.to_dict() for s in spans]}

    async def _mask_text(self, request: Request, namespace: str, body: dict, text: str) -> dict:
        _, _, result = await self._mask(request, namespace, [], job=lambda session: session.mask(text), writes=True)
        return {"text": result.text, "mapping": result.mapping, "spans": [s.to_dict() for s in result.spans],
                "labels": dict(Counter(s.label for s in result.spans))}

    async def _unmask(self, request: Request, namespace: str, body: dict, text: str) -> dict:
        mapping = body.get("mapping")
        session_id = request.headers.get(SESSION_HEADER)
        if session_id is None:
            if mapping is None:
                raise ProxyError(400, "unmask needs a mapping or an X-Alias-Session header")
            try:
                report = unmask_report(text, mapping)
            except MappingError as exc:
                raise ProxyError(400, str(exc)) from None
        else:
            _, _, report = await self._mask(request, namespace, [], job=lambda session: session.unmask_report(text))
        return {"text": report.text, "restored": report.restored, "unknown": list(report.unknown)}

    # --- the rest ----------------------------------------------------------------------

    def _log(self, request: Request, status: int, started: float, **fields) -> None:
        parts = [f"{request.method} {_route_of(request)} {status}", f"total_ms={(time.perf_counter() - started) * 1000:.0f}"]
        for key, value in fields.items():
            if isinstance(value, Counter):
                value = _labels(value)
            elif isinstance(value, float):
                value = f"{value:.0f}"
            parts.append(f"{key}={value}")
        log.info(" ".join(parts))


async def _disconnected(request: Request) -> None:
    """Returns when the client has closed the connection (its body was read before)."""
    while (await request.receive())["type"] != "http.disconnect":
        pass


def _route_of(request: Request) -> str:
    """The route a request took, as logged: a model id in the path may be anything."""
    path = request.url.path
    return "/v1/models/{model}" if path.startswith("/v1/models/") else path


async def healthz(request: Request) -> Response:
    return JSONResponse({"status": "ok"})


def create_app(config: ServerConfig, engine=None) -> Starlette:
    if engine is None:
        from ..engine import Engine

        engine = Engine()
    proxy = Proxy(config, engine)
    for name in ("httpx", "httpcore"):  # their INFO lines hold every upstream URL with its query
        logging.getLogger(name).setLevel(logging.WARNING)

    async def not_found(request: Request, exc: HTTPException) -> Response:
        status = exc.status_code
        message = {404: f"no route {request.url.path} in alias-engine (nothing was forwarded)",
                   405: f"method {request.method} is not allowed on {request.url.path}"}.get(status, str(exc.detail))
        return _error(_api_of(request), ProxyError(status, message))

    routes = [
        Route("/healthz", healthz, methods=["GET"]),
        Route("/v1/chat/completions", proxy.route("chat", "/v1/chat/completions"), methods=["POST"]),
        Route("/v1/responses", proxy.route("responses", "/v1/responses"), methods=["POST"]),
        Route("/v1/messages", proxy.route("messages", "/v1/messages"), methods=["POST"]),
        Route("/v1/messages/count_tokens", proxy.route("messages", "/v1/messages/count_tokens"), methods=["POST"]),
        Route("/v1/models", proxy.models, methods=["GET"]),
        Route("/v1/models/{model:path}", proxy.models, methods=["GET"]),
        Route("/v1/detect", proxy.rest("detect"), methods=["POST"]),
        Route("/v1/mask", proxy.rest("mask_text"), methods=["POST"]),
        Route("/v1/unmask", proxy.rest("unmask"), methods=["POST"]),
    ]
    # Starlette types a handler as taking any Exception, not the class it is registered for
    app = Starlette(routes=routes, lifespan=proxy.lifespan,
                    exception_handlers={HTTPException: not_found})  # type: ignore[dict-item]
    app.state.proxy = proxy
    return app
