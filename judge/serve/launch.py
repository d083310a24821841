"""Start the site: bind the socket, print the link with this launch's token, run uvicorn until Ctrl-C."""

from __future__ import annotations

import errno
import socket
import sys
import webbrowser
from pathlib import Path

import uvicorn

from judge import messages
from judge.command import line
from judge.errors import BadInput
from judge.serve.app import build_app
from judge.serve.security import allowed_hosts, new_token
from judge.system_words import os_reason

LOOPBACK = "127.0.0.1"


def bind(host: str, port: int) -> socket.socket:
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((host, port))
    except (OSError, TypeError, UnicodeError) as exc:  # TypeError, UnicodeError: a name that is not a host's
        sock.close()
        refused = exc if isinstance(exc, OSError) else OSError(errno.EINVAL, "not a host name")
        raise BadInput("serve_port_busy", host=host, port=port, reason=os_reason(refused)) from None
    sock.listen(64)
    sock.set_inheritable(True)
    return sock


def check_graded(folder: Path) -> Path:
    if not (folder / "index.html").is_file() or not (folder / "summary.json").is_file():
        raise BadInput("serve_no_graded", path=folder)
    return folder.resolve()


def serve(host: str = LOOPBACK, port: int = 8765, open_browser: bool = False, graded: Path | None = None,
          exact: bool = False, lang: str = "en") -> None:
    """Serve the site until Ctrl-C; its lines in the terminal said in ``lang``, the site's first page shown in it."""
    graded = check_graded(graded) if graded is not None else None
    if host != LOOPBACK:
        print(f"judge: {line(lang, 'serve_host_warning', host=host)}", file=sys.stderr)
    sock = bind(host, port)
    port = sock.getsockname()[1]
    token = new_token()
    shown = f"[{host}]" if ":" in host else host
    url = f"http://{shown}:{port}/"
    app = build_app(token, allowed_hosts(host, port), f"judge_token_{port}", graded, exact=exact)
    link = f"{url}?token={token}" + ("" if lang == "en" else f"&lang={lang}")  # the token is dropped, lang kept
    print(messages.say_in(lang, "serve_url", url=link), flush=True)
    if graded is not None:
        print(line(lang, "serve_class", path=graded, url=url), flush=True)
    if open_browser:
        webbrowser.open(link)
    config = uvicorn.Config(app, log_level="warning", access_log=False, lifespan="on", timeout_graceful_shutdown=5)
    uvicorn.Server(config).run(sockets=[sock])
