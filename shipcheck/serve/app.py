"""The web layer: the guard every request passes, the routes, the page and its static files.

:func:`create_app` builds the Starlette application for a :class:`~.workspace.Workspace` and a
token. The guard (:class:`Guard`, plain ASGI, before any route) refuses a request without the token
(401) or with a foreign ``Origin`` (403) before anything reads or changes a file. Bad input is
answered 400 with ``{"errors": [...]}``, the lines the command line prints for the same mistake.
"""

from __future__ import annotations

import hmac
import json
import secrets
import sys
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs

from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.requests import ClientDisconnect, Request
from starlette.responses import FileResponse, HTMLResponse, JSONResponse, Response, StreamingResponse
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from shipcheck.errors import InputError, suggest, utf8_text
from shipcheck.serve import api, designjob
from shipcheck.serve.jobs import Busy, Job, stream
from shipcheck.serve.oddsjobs import Pool
from shipcheck.serve.refusals import error_lines
from shipcheck.serve.workspace import Workspace

STATIC = Path(__file__).parent / "static"
#: the largest request body read (a ship file's limit, with room for the JSON around it)
MAX_BODY = 3 * 1024 * 1024
#: digits of the longest integer Python reads from text (its guard against quadratic conversion)
MAX_DIGITS = sys.get_int_max_str_digits()

PAGE_CSP = ("default-src 'none'; script-src 'self' 'nonce-{nonce}'; style-src 'self'; img-src 'self' data: blob:; "
            "connect-src 'self'; font-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'")
API_CSP = "default-src 'none'; frame-ancestors 'none'"
REPORT_CSP = "default-src 'none'; style-src 'unsafe-inline'; img-src data:; frame-ancestors 'none'"


def _json(status: int, body: Any, headers: dict[str, str] | None = None) -> JSONResponse:
    return JSONResponse(body, status_code=status, headers=headers)


#: the names a request's ``Host`` may give on any server: the loopback addresses
LOOPBACK = ("127.0.0.1", "localhost", "::1")
WILDCARD = ("0.0.0.0", "::", "")


def host_names(host: str) -> frozenset[str]:
    """The names a request's ``Host`` header may give for a server listening on ``host``: the
    loopback names and ``host`` itself; for a wildcard address, also this machine's name and the
    addresses it resolves to (anything else is another site's name pointed here: DNS rebinding)."""
    import socket

    names = {*LOOPBACK, host.strip("[]").lower()} - {""}
    if host in WILDCARD:
        node = socket.gethostname()
        names |= {node.lower(), socket.getfqdn(node).lower()}
        try:
            names |= {str(info[4][0]).lower() for info in socket.getaddrinfo(node, None)}
        except OSError:
            pass
    return frozenset(names)


def split_host(value: bytes) -> tuple[str, int | None] | None:
    """``(name, port)`` of a ``Host`` header (``name``, ``name:port``, ``[v6]:port``); None when it
    is not one."""
    try:
        text = value.decode("ascii").strip().lower()
    except UnicodeDecodeError:
        return None
    if text.startswith("["):
        name, sep, rest = text[1:].partition("]")
        if not sep or (rest and not rest.startswith(":")):
            return None
        port = rest[1:]
    else:
        name, _, port = text.partition(":")
    if not name or (port and not port.isdigit()) or len(port) > 5:
        return None
    return name, int(port) if port else None


class Guard:
    """Refuse a request for another host name, or without the token, or from another site; cap
    request bodies; add the security headers to every answer."""

    def __init__(self, app: ASGIApp, token: str, hosts: frozenset[str] = frozenset(LOOPBACK)) -> None:
        self.app = app
        self.token = token.encode()
        self.hosts = hosts

    def _host_refused(self, scope: Scope) -> str | None:
        """Why the ``Host`` header is not this server's address (None when it is)."""
        value = dict(scope.get("headers", [])).get(b"host")
        server = scope.get("server")
        port = server[1] if server else None
        parts = split_host(value) if value is not None else None
        if parts is not None and parts[0] in self.hosts and parts[1] in (port, None if port == 80 else port):
            return None
        shown = "missing" if value is None else repr(value.decode("latin-1")[:100])
        served = ", ".join(f"[{h}]:{port}" if ":" in h else f"{h}:{port}" for h in sorted(self.hosts))
        return f"request for another host refused (Host {shown}; this server answers {served})"

    def _token_ok(self, scope: Scope) -> bool:
        given: list[bytes] = []
        for k, v in scope.get("headers", []):
            if k == b"authorization" and v[:7].lower() == b"bearer ":
                given.append(v[7:].strip())
        for v in parse_qs(scope.get("query_string", b"").decode("latin-1")).get("token", []):
            given.append(v.encode("utf-8", "replace"))  # (percent escapes decode to any character)
        return any(hmac.compare_digest(g, self.token) for g in given)

    @staticmethod
    def _foreign(scope: Scope) -> bool:
        headers = dict(scope.get("headers", []))
        origin = headers.get(b"origin")
        if headers.get(b"sec-fetch-site") == b"cross-site":
            return True
        if origin is None:
            return False
        host = headers.get(b"host", b"")
        return origin != b"http://" + host

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        refused = self._host_refused(scope)
        if refused is not None:
            await _json(403, {"errors": [refused]})(scope, receive, send)
            return
        if self._foreign(scope):
            await _json(403, {"errors": ["request from another site refused (foreign Origin)"]})(scope, receive, send)
            return
        if not self._token_ok(scope):
            await _json(401, {"errors": ["missing or wrong token: open the address `shipcheck serve` printed"]},
                        headers={"WWW-Authenticate": "Bearer"})(scope, receive, send)
            return
        length = dict(scope.get("headers", [])).get(b"content-length")
        if length is not None and (not length.isdigit() or int(length) > MAX_BODY):
            # 400 like any bad input (the contract's answer for a file that cannot be read)
            await _json(400, {"errors": [f"request body too large (at most {MAX_BODY} bytes)"]})(scope, receive, send)
            return
        seen = 0

        async def capped() -> Message:
            nonlocal seen
            msg = await receive()
            if msg["type"] == "http.request":
                seen += len(msg.get("body", b""))
                if seen > MAX_BODY:
                    raise InputError("request body too large", expected=f"at most {MAX_BODY} bytes")
            return msg

        async def headed(msg: Message) -> None:
            if msg["type"] == "http.response.start":
                headers = list(msg.get("headers", []))
                names = {k.lower() for k, _ in headers}
                extra = [(b"x-content-type-options", b"nosniff"), (b"referrer-policy", b"no-referrer"),
                         (b"cache-control", b"no-store"), (b"x-frame-options", b"DENY"),
                         (b"content-security-policy", API_CSP.encode())]
                headers += [(k, v) for k, v in extra if k not in names]
                msg = {**msg, "headers": headers}
            await send(msg)

        await self.app(scope, capped, headed)


# -- helpers ---------------------------------------------------------------------------------------
async def _raw(request: Request) -> bytes:
    try:
        return await request.body()
    except ClientDisconnect:  # nobody to answer: said as bad input, not logged as a crash
        raise InputError("the client went away before sending the whole body", key="body") from None


def _unicode(body: dict[str, Any]) -> None:
    """Refuse a string holding a lone surrogate (what JSON's ``"\\ud800"`` decodes to): no file name,
    ship or answer can hold one."""
    todo: list[tuple[Any, str]] = [(v, k) for k, v in body.items()] + [(k, k) for k in body]
    while todo:
        v, key = todo.pop()
        if isinstance(v, dict):
            todo += [(x, f"{key}.{k}") for k, x in v.items()] + [(k, f"{key}.{k}") for k in v]
        elif isinstance(v, list):
            todo += [(x, key) for x in v]
        elif isinstance(v, str):
            try:
                v.encode("utf-8")
            except UnicodeEncodeError:
                shown = key.encode("utf-8", "backslashreplace").decode()
                raise InputError("text that is not Unicode (a lone surrogate, as a \\ud800 escape gives)",
                                 key=shown[:200], value=v.encode("utf-8", "backslashreplace").decode()[:80],
                                 expected="text of Unicode characters") from None


async def _body(request: Request, keys: tuple[str, ...]) -> dict[str, Any]:
    """The request's JSON object, holding only ``keys`` (a misspelt key is an error, not a default)."""
    raw = await _raw(request)
    try:
        body = json.loads(raw or b"{}")
    except (UnicodeDecodeError, json.JSONDecodeError, RecursionError) as exc:
        raise InputError(f"request body is not JSON ({exc})", key="body", expected="a JSON object") from None
    except ValueError:  # int(): "Exceeds the limit (4300 digits) for integer string conversion"
        raise InputError("request body holds a number too long to read", key="body",
                         expected=f"numbers of at most {MAX_DIGITS} digits") from None
    if not isinstance(body, dict):
        raise InputError("request body is not a JSON object", key="body", value=type(body).__name__,
                         expected="a JSON object")
    _unicode(body)
    for k in body:
        if k not in keys:
            raise InputError(f"unknown key in the body of {request.url.path}", key=k,
                             expected="one of " + ", ".join(keys), hint=suggest(k, keys))
    return body


async def _text(request: Request) -> str:
    return utf8_text(await _raw(request), what="ship file", file=_name(request))


def _name(request: Request) -> str:
    """``?name=``: how the answer names the ship (a file name, at most 1,024 characters)."""
    name = request.query_params.get("name") or api.UNNAMED
    if len(name) > 1024:
        raise InputError("bad `name`", key="name", value=name[:80] + "...", expected="at most 1,024 characters")
    return name


def _timed(result: dict[str, Any]) -> JSONResponse:
    ms = result.get("ms") if isinstance(result, dict) else None
    headers = {"Server-Timing": f"app;dur={ms}"} if ms is not None else None
    return _json(200, result, headers)


def _run(fn: Callable[..., Any], name: str) -> Callable[[Request], Awaitable[Response]]:
    """An endpoint calling ``fn(workspace, body)`` in a worker thread (the work is CPU-bound); the
    body may hold the keys ``api.KEYS[name]``."""
    from starlette.concurrency import run_in_threadpool

    async def endpoint(request: Request) -> Response:
        body = await _body(request, api.KEYS[name])
        return _timed(await run_in_threadpool(fn, request.app.state.ws, body))

    return endpoint


def _job(kind: str, make: Callable[..., Any], *, keeps_best: bool = False) -> Callable[[Request], Awaitable[Response]]:
    """An endpoint starting a :class:`Job` and streaming its events as JSON lines; the body may hold
    the keys ``api.KEYS[kind]``."""
    from starlette.concurrency import run_in_threadpool

    async def endpoint(request: Request) -> Response:
        Job.check_room(kind)  # a flood is refused at once (429), before its ships are read
        body = await _body(request, api.KEYS[kind])
        work = await run_in_threadpool(make, request.app.state, body)  # bad input: 400 before the job starts
        job = Job(kind, work, client=request.headers.get("x-shipcheck-client"), keeps_best=keeps_best).start()
        return StreamingResponse(stream(job), media_type="application/x-ndjson",
                                 headers={"X-Accel-Buffering": "no"})

    return endpoint


# -- endpoints -------------------------------------------------------------------------------------
async def page(request: Request) -> Response:
    token = request.app.state.token
    nonce = secrets.token_urlsafe(16)
    modules = {f"/static/{p.relative_to(STATIC).as_posix()}": f"/static/{p.relative_to(STATIC).as_posix()}?token={token}"
               for p in sorted(STATIC.rglob("*.js"))}
    html = (STATIC / "index.html").read_text(encoding="utf-8")
    html = (html.replace("{{nonce}}", nonce).replace("{{token}}", token)
            .replace("{{importmap}}", json.dumps({"imports": modules}, indent=1)))
    return HTMLResponse(html, headers={"Content-Security-Policy": PAGE_CSP.format(nonce=nonce)})


async def index_api(request: Request) -> Response:
    """``GET /api``: the endpoints, for scripts (docs/workbench.md describes each)."""
    out = []
    for r in request.app.routes:
        if isinstance(r, Route) and r.path.startswith("/api"):
            doc = (r.endpoint.__doc__ or "").strip().splitlines()
            out.append({"path": r.path, "methods": sorted(m for m in (r.methods or ()) if m != "HEAD"),
                        "summary": doc[0] if doc else ""})
    return _json(200, {"endpoints": out, "docs": "docs/workbench.md"})


def _get(fn: Callable[..., Any], *params: str) -> Callable[[Request], Awaitable[Response]]:
    from starlette.concurrency import run_in_threadpool

    async def endpoint(request: Request) -> Response:
        args = {p: request.query_params.get(p) for p in params}
        return _json(200, await run_in_threadpool(fn, request.app.state.ws, **args))

    return endpoint


async def session_endpoint(request: Request) -> Response:
    """GET /api/session: versions, classes, tile kinds, colours, rules, limits"""
    # answered on the event loop, never behind work in the threads: it is worked out once
    return _json(200, api.session(request.app.state.ws))


async def check_endpoint(request: Request) -> Response:
    """POST /api/check: a ship file's TOML text in the body; what `shipcheck check --format json` prints."""
    from starlette.concurrency import run_in_threadpool

    body = await _text(request)
    q = request.query_params
    return _json(200, await run_in_threadpool(api.check_text, request.app.state.ws, body, _name(request),
                                              q.get("select"), q.get("ignore")))


async def stats_endpoint(request: Request) -> Response:
    """POST /api/stats: a ship file's TOML text in the body; what `shipcheck stats --format json` prints."""
    from starlette.concurrency import run_in_threadpool

    body = await _text(request)
    return _json(200, await run_in_threadpool(api.stats_text, request.app.state.ws, body, _name(request)))


async def cancel_endpoint(request: Request) -> Response:
    """POST /api/cancel: cancel this page's running jobs (sent when the page closes), or those of one ?kind."""
    client = request.headers.get("x-shipcheck-client") or request.query_params.get("client")
    if not client:
        raise InputError("missing client id: whose jobs to cancel", key="client",
                         expected="the page's id, as the X-Shipcheck-Client header or ?client=")
    kind = request.query_params.get("kind")
    if kind is not None and kind not in api.JOBS:
        raise InputError("unknown kind of job", key="kind", value=kind, expected="one of " + ", ".join(api.JOBS),
                         hint=suggest(kind, api.JOBS))
    n = 0
    with Job.lock:
        jobs = list(Job.registry)
    for j in jobs:
        if j.client == client and kind in (None, j.kind):
            j.cancel()
            n += 1
    return _json(200, {"cancelled": n})


async def jobs_endpoint(request: Request) -> Response:
    """GET /api/jobs: the jobs running now (kind, seconds)."""
    with Job.lock:
        jobs = list(Job.registry)
    return _json(200, {"jobs": [{"kind": j.kind, "seconds": round(time.perf_counter() - j.started, 3)} for j in jobs]})


async def report_file(request: Request) -> Response:
    """GET /reports/{name}/{file}: a file of a report this server wrote."""
    ws: Workspace = request.app.state.ws
    rel = f"reports/{request.path_params['name']}/{request.path_params['file']}"
    p = ws.path(rel)
    if p.parent not in request.app.state.written or not p.is_file():
        raise HTTPException(404, "no such report file")
    csp = REPORT_CSP if p.suffix == ".html" else API_CSP
    return FileResponse(p, headers={"Content-Security-Policy": csp})


def _tiles(ws: Workspace, edition: str | None, kind: str | None, sides: str | None, any_rotation: str | None
           ) -> dict[str, Any]:
    """GET /api/tiles: the tile catalogue (?edition, ?kind, ?sides, ?any_rotation)."""
    if any_rotation not in (None, "", "0", "1", "false", "true", "no", "yes"):
        raise InputError("bad `any_rotation`", key="any_rotation", value=any_rotation, expected="true or false")
    return api.tiles(edition or "2007", kind or None, sides or None, any_rotation in ("1", "true", "yes"))


def _cards(ws: Workspace, edition: str | None) -> dict[str, Any]:
    return api.cards(edition or "2007")


# -- errors ----------------------------------------------------------------------------------------
async def input_error(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, InputError)
    if isinstance(exc, api.NeedsConfirmation):
        return _json(409, {"errors": error_lines(exc), "confirm": True})
    if isinstance(exc, Busy):
        return _json(429, {"errors": error_lines(exc)})
    return _json(400, {"errors": error_lines(exc)})


async def http_error(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, HTTPException)
    return _json(exc.status_code, {"errors": [exc.detail]}, dict(exc.headers or {}))


async def internal_error(request: Request, exc: Exception) -> Response:
    return _json(500, {"errors": [f"internal error ({type(exc).__name__}: {exc}); please report it"]})


def _documented(fn: Callable[..., Any], doc: str) -> Callable[..., Any]:
    fn.__doc__ = doc
    return fn


def create_app(ws: Workspace, token: str, *, host: str = "127.0.0.1", pool: Pool | None = None) -> ASGIApp:
    """The workbench application for ``ws`` served on ``host``; every request must carry ``token``
    and name the server's address (:func:`host_names`) in its ``Host`` header. Exact odds are
    computed in the worker processes of ``pool`` (a new one by default; close it when done)."""
    written: set[Path] = set()

    def report(state: Any, body: dict[str, Any]) -> Any:
        return api.report_job(state.ws, body, written)

    routes = [
        Route("/", page),
        Route("/api", index_api),
        Route("/api/session", session_endpoint),
        Route("/api/files", _documented(_get(lambda ws: api.files(ws)),
                                        "GET /api/files: ship files in the start folder")),
        Route("/api/tiles", _documented(_get(_tiles, "edition", "kind", "sides", "any_rotation"), _tiles.__doc__ or "")),
        Route("/api/cards", _documented(_get(_cards, "edition"), "GET /api/cards: the adventure cards (?edition)")),
        Route("/api/rules/{code}", _documented(
            lambda request: _json(200, api.rule(request.path_params["code"])),
            "GET /api/rules/{code}: a rule explained, with its bad and good examples checked")),
        Route("/api/check", check_endpoint, methods=["POST"]),
        Route("/api/stats", stats_endpoint, methods=["POST"]),
        Route("/api/open", _documented(_run(api.open_file, "open"),
                                       "POST /api/open: open a ship file of the start folder"), methods=["POST"]),
        Route("/api/new", _documented(_run(api.new_ship, "new"), "POST /api/new: a new ship of a class and edition"),
              methods=["POST"]),
        Route("/api/analyze", _documented(_run(api.analyze, "analyze"),
                                          "POST /api/analyze: check, stats, drawing and repair"), methods=["POST"]),
        Route("/api/fix", _documented(_run(api.fix_ship, "fix"),
                                      "POST /api/fix: the minimal repair (fix --format json)"), methods=["POST"]),
        Route("/api/odds", _documented(_job("odds", lambda st, b: api.odds_job(st.ws, b, st.pool)),
                                       "POST /api/odds: exact odds of attacks or cards (streamed)"), methods=["POST"]),
        Route("/api/place", _documented(_run(api.place, "place"), "POST /api/place: legal placements ranked by score"),
              methods=["POST"]),
        Route("/api/place/credits", _documented(_job("credits", lambda st, b: api.credits_job(st.ws, b)),
                                                "POST /api/place/credits: placements ranked by credits (streamed)"),
              methods=["POST"]),
        Route("/api/round", _documented(_job("round", lambda st, b: api.round_job(st.ws, b)),
                                        "POST /api/round: whole rounds against a field (streamed)"),
              methods=["POST"]),
        Route("/api/design", _documented(_job("design", lambda st, b: designjob.design_job(st.ws, b, st.pool),
                                              keeps_best=True),
                                         "POST /api/design: complete this ship or design a new one (streamed)"),
              methods=["POST"]),
        Route("/api/report", _documented(_job("report", report),
                                         "POST /api/report: write the strategy report (streamed)"), methods=["POST"]),
        Route("/api/toml", _documented(_run(api.toml, "toml"), "POST /api/toml: the ship as a ship file (to download)"),
              methods=["POST"]),
        Route("/api/save", _documented(_run(api.save, "save"), "POST /api/save: save the ship to a file, atomically"),
              methods=["POST"]),
        Route("/api/save/check", _documented(_run(api.save_check, "save/check"), "POST /api/save/check: would "
                                             "saving there ask for confirmation (nothing is written)"),
              methods=["POST"]),
        Route("/api/cancel", cancel_endpoint, methods=["POST"]),
        Route("/api/jobs", jobs_endpoint),
        Route("/reports/{name}/{file}", report_file),
        Mount("/static", StaticFiles(directory=STATIC, follow_symlink=False), name="static"),
    ]
    app = Starlette(routes=routes, exception_handlers={InputError: input_error, HTTPException: http_error,
                                                       Exception: internal_error})
    app.state.ws = ws
    app.state.token = token
    app.state.written = written
    app.state.pool = pool if pool is not None else Pool()
    api.session(ws)  # worked out now, so that the first page (or a script under load) is answered at once
    return Guard(app, token, host_names(host))
