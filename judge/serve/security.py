"""The guard in front of every request: the site runs the learner's code, so only the learner may drive it.

* **Token.** A random token is made at each launch and printed in the URL. Opening that URL sets it as a
  cookie (``HttpOnly``, ``SameSite=Lax``) and redirects to the same page without it; every page and API request
  then needs the cookie, and every state-changing request (anything but GET/HEAD) needs the token again in the
  ``X-Judge-Token`` header, which a page of another site can neither read nor send without a preflight we never
  answer. The vendored static assets are the only thing served without it.
* **Host.** DNS rebinding points a hostile name at 127.0.0.1; the browser then sends that name as ``Host``.
  Only the names the server was started on are accepted.
* **Origin.** A state-changing request that carries an ``Origin`` must come from the site itself.
* **Size.** A request body over :data:`MAX_BODY` bytes is refused, whether or not it declares its length.
"""

from __future__ import annotations

import hmac
import json
import secrets
import socket
from typing import Any, Awaitable, Callable
from urllib.parse import parse_qsl, urlencode

from judge import messages

Scope = dict[str, Any]
Message = dict[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
App = Callable[[Scope, Receive, Send], Awaitable[None]]

MAX_BODY = 256 * 1024
"""a solution is a few KB; this leaves room without letting a request fill memory"""
TOKEN_HEADER = "x-judge-token"
SAFE_METHODS = ("GET", "HEAD")
POLICY = "; ".join([
    "default-src 'self'", "script-src 'self'", "style-src 'self' 'unsafe-inline'", "img-src 'self'",
    "object-src 'none'", "base-uri 'none'", "form-action 'self'", "frame-ancestors 'none'",
])
"""The second wall behind escaping (every page is escaped by its templates, :mod:`judge.report.render`): only
the site's own scripts run, and were markup ever injected, it could not load anything from elsewhere, send a
form elsewhere, re-base the page's links or be framed. Inline styles stay allowed: the reports, written to files
as well, carry their own ``<style>``."""
HEADERS = [
    (b"content-security-policy", POLICY.encode()),
    (b"x-frame-options", b"DENY"), (b"x-content-type-options", b"nosniff"), (b"referrer-policy", b"no-referrer"),
    (b"cross-origin-opener-policy", b"same-origin"),
]
"""on every response"""
PUBLIC_PREFIX = "/static/"


def new_token() -> str:
    return secrets.token_urlsafe(24)


LOOPBACK_NAMES = frozenset({"localhost", "127.0.0.1", "::1"})
WILDCARDS = frozenset({"0.0.0.0", "::"})


def _this_machine() -> set[str]:
    """The names and addresses others use for this machine (for a server listening on every interface)."""
    name = socket.gethostname()
    try:
        found = {info[4][0] for info in socket.getaddrinfo(name, None)}
    except OSError:
        found = set()
    return {name, socket.getfqdn(), *found}


def allowed_hosts(host: str, port: int) -> frozenset[str]:
    """The ``Host`` values a browser sends for the address the server listens on."""
    names = {host}
    if host in LOOPBACK_NAMES | WILDCARDS:
        names |= LOOPBACK_NAMES
    if host in WILDCARDS:
        names = (names | _this_machine()) - WILDCARDS
    names = {f"[{n}]" if ":" in n and not n.startswith("[") else n for n in names}
    return frozenset(f"{n}:{port}" for n in names)


class Guard:
    def __init__(self, app: App, token: str, hosts: frozenset[str], cookie: str):
        self.app, self.token, self.hosts, self.cookie = app, token, hosts, cookie

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope["headers"]}
        send = _with_headers(send)
        query = dict(parse_qsl(scope.get("query_string", b"").decode("latin-1")))
        lang = query.get("lang", "en")  # a refusal is said in the page's language (judge.serve.pages)
        refusal = self._refusal(scope, headers, lang)
        if refusal is not None:
            await _plain(send, *refusal)
            return
        if scope["method"] in SAFE_METHODS and self._matches(query.get("token")):
            await self._enter(scope, query, send)
            return
        if not scope["path"].startswith(PUBLIC_PREFIX) and not self._authorised(scope, headers):
            await _plain(send, 403, messages.say_in(lang, "serve_forbidden_token"))
            return
        declared = headers.get("content-length", "0")
        if not declared.isdigit() or int(declared) > MAX_BODY:
            await _plain(send, 413, messages.say_in(lang, "serve_too_large", limit=MAX_BODY))
            return
        body = await _read_body(receive)
        if body is None:
            await _plain(send, 413, messages.say_in(lang, "serve_too_large", limit=MAX_BODY))
            return
        await self.app(scope, _replay(body, receive), send)

    def _refusal(self, scope: Scope, headers: dict[str, str], lang: str) -> tuple[int, str] | None:
        if headers.get("host") not in self.hosts:
            return 421, messages.say_in(lang, "serve_bad_host", host=headers.get("host", ""))
        origin = headers.get("origin")
        if scope["method"] not in SAFE_METHODS and origin is not None and \
                origin.removeprefix("http://") not in self.hosts:
            return 403, messages.say_in(lang, "serve_bad_origin", origin=origin)
        return None

    def _matches(self, candidate: str | None) -> bool:
        return candidate is not None and hmac.compare_digest(candidate.encode(), self.token.encode())

    def _authorised(self, scope: Scope, headers: dict[str, str]) -> bool:
        has_cookie = any(self._matches(value) for value in cookie_values(headers.get("cookie", ""), self.cookie))
        if scope["method"] in SAFE_METHODS:
            return has_cookie or self._matches(headers.get(TOKEN_HEADER))
        return self._matches(headers.get(TOKEN_HEADER))

    async def _enter(self, scope: Scope, query: dict[str, str], send: Send) -> None:
        """The printed URL: set the cookie and send the browser to the same page without the token."""
        rest = urlencode({k: v for k, v in query.items() if k != "token"})
        location = scope["path"] + (f"?{rest}" if rest else "")
        cookie = f"{self.cookie}={self.token}; Path=/; HttpOnly; SameSite=Lax"
        await send({"type": "http.response.start", "status": 303, "headers": [
            (b"location", location.encode("latin-1")), (b"set-cookie", cookie.encode("latin-1")),
            (b"content-length", b"0"), (b"cache-control", b"no-store")]})
        await send({"type": "http.response.body", "body": b""})


def cookie_values(header: str, name: str) -> list[str]:
    """Every value the Cookie header gives ``name``. Read leniently, pair by pair (split on ';', then on the first
    '='), because cookies are per host, not per port: another local app's cookie that is not RFC 6265 (a
    JSON-style ``session={"user":"a","n":1}``) shares the header, and ``http.cookies.SimpleCookie`` drops the
    whole header when it meets one, which would lock the learner out of the site."""
    pairs = (part.strip().partition("=") for part in header.split(";"))
    return [value.strip().strip('"') for key, eq, value in pairs if eq and key.strip() == name]


async def _read_body(receive: Receive) -> bytes | None:
    """The whole request body, or None once it passes :data:`MAX_BODY` (chunked bodies declare no length)."""
    chunks, size, more = [], 0, True
    while more:
        message = await receive()
        if message["type"] != "http.request":
            break
        chunks.append(message.get("body", b""))
        size += len(chunks[-1])
        if size > MAX_BODY:
            return None
        more = message.get("more_body", False)
    return b"".join(chunks)


def _replay(body: bytes, receive: Receive) -> Receive:
    """Give the application the body already read, then whatever the connection says next (a disconnect)."""
    sent = False

    async def wrapped() -> Message:
        nonlocal sent
        if not sent:
            sent = True
            return {"type": "http.request", "body": body, "more_body": False}
        return await receive()

    return wrapped


def _with_headers(send: Send) -> Send:
    async def wrapped(message: Message) -> None:
        if message["type"] == "http.response.start":
            message = {**message, "headers": [*message.get("headers", []), *HEADERS]}
        await send(message)

    return wrapped


async def _plain(send: Send, status: int, text: str) -> None:
    body = json.dumps({"error": text}).encode()
    await send({"type": "http.response.start", "status": status, "headers": [
        (b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]})
    await send({"type": "http.response.body", "body": body})
