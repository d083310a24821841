"""Drive a running site from a script, as its page does: the site's tests and ``benchmarks/serve_bench.py`` use
this (test support: it is not part of the installed judge).

:func:`launched` starts ``judge serve --port 0`` in a child process and yields a :class:`Client` for the link it
printed; :meth:`Client.judge` posts Run or Submit and reads the job's server-sent events to the final report.
"""

from __future__ import annotations

import contextlib
import http.client
import json
import os
import re
import signal
import subprocess
import sys
from dataclasses import dataclass
from typing import Any, Iterator
from urllib.parse import urlsplit

from judge.serve.security import TOKEN_HEADER
from tests.support.cli import default_sigint

URL_LINE = re.compile(r"(http://\S+)\?token=(\S+)")


@dataclass
class Client:
    host: str
    port: int
    token: str
    pid: int | None = None
    """the server's process (``judge serve``), when :func:`launched` started it"""
    timeout: float = 300.0

    @property
    def base(self) -> str:
        return f"http://{self.host}:{self.port}"

    def request(self, method: str, path: str, body: Any = None,
                headers: dict[str, str] | None = None) -> tuple[int, bytes]:
        """One request with the token (header and cookie) unless ``headers`` says otherwise; status and body."""
        connection = http.client.HTTPConnection(self.host, self.port, timeout=self.timeout)
        sent = {TOKEN_HEADER: self.token, "cookie": f"judge_token_{self.port}={self.token}",
                "content-type": "application/json"}
        sent.update(headers or {})
        data = body if isinstance(body, bytes) or body is None else json.dumps(body).encode()
        try:
            connection.request(method, path, body=data, headers={k: v for k, v in sent.items() if v is not None})
            response = connection.getresponse()
            return response.status, response.read()
        finally:
            connection.close()

    def events(self, job: str) -> Iterator[dict[str, Any]]:
        connection = http.client.HTTPConnection(self.host, self.port, timeout=self.timeout)
        try:
            connection.request("GET", f"/api/jobs/{job}/events",
                               headers={"cookie": f"judge_token_{self.port}={self.token}"})
            response = connection.getresponse()
            for line in response:
                if line.startswith(b"data: "):
                    yield json.loads(line[6:])
        finally:
            connection.close()

    def judge(self, slug: str, mode: str, code: str, case: str | None = None,
              lang: str | None = None) -> list[dict[str, Any]]:
        """Every event of a Run or Submit (or, with ``case``, a Run on that case file's text; with ``lang``, in the
        language a page shows), the last one ``done`` (with the report) or ``error``."""
        if case is not None:
            mode, sent = "custom", {"code": code, "case": case}
        else:
            sent = {"code": code}
        if lang is not None:
            sent["lang"] = lang
        status, body = self.request("POST", f"/api/problems/{slug}/{mode}", sent)
        if status not in (202, 409):
            raise RuntimeError(f"{mode} refused ({status}): {body.decode()}")
        return list(self.events(json.loads(body)["job"]))


@contextlib.contextmanager
def launched(env: dict[str, str] | None = None, extra: tuple[str, ...] = ()) -> Iterator[Client]:
    """A site in a child process (its own session, so stopping it stops its zygote), stopped on exit."""
    process = subprocess.Popen([sys.executable, "-m", "judge", "serve", "--port", "0", *extra],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                               env=env or dict(os.environ), start_new_session=True, preexec_fn=default_sigint)
    try:
        line = process.stdout.readline()
        found = URL_LINE.search(line)
        if not found:
            raise RuntimeError(f"judge serve did not start: {line}{process.stderr.read()}")
        address = urlsplit(found.group(1))
        yield Client(address.hostname, address.port, found.group(2), process.pid)
    finally:
        process.send_signal(signal.SIGINT)
        try:
            process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()
