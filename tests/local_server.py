"""A real HTTP server on 127.0.0.1 serving tests/fixtures/site, plus a few
misbehaving routes (truncated, slow, redirect loops): the downloads' tests
run against it (fixtures ``server`` and ``closed_port``, via conftest)."""

from __future__ import annotations

import functools
import http.server
import socket
import threading
import urllib.parse
from pathlib import Path

import pytest

SITE = Path(__file__).resolve().parent / "fixtures" / "site"
CR_NAME = "MagicCompRules 20300501.txt"
CR_FILE = SITE / "downloads" / CR_NAME
CR_PATH = "/downloads/MagicCompRules%2020300501.txt"


class _Handler(http.server.SimpleHTTPRequestHandler):
    """Serves tests/fixtures/site plus a few misbehaving routes."""

    release: threading.Event  # set by the fixture at teardown

    def log_message(self, format, *args):  # keep test output clean
        pass

    def _send(self, status: int, body: bytes, ctype: str, length: int | None = None,
              headers: dict[str, str] | None = None) -> None:
        self.send_response(status)
        self.send_header("Content-Type", ctype)
        if length is not None:
            self.send_header("Content-Length", str(length))
        for k, v in (headers or {}).items():
            self.send_header(k, v)
        self.end_headers()
        self.wfile.write(body)

    def do_GET(self):
        path = urllib.parse.urlsplit(self.path).path
        try:
            if path == "/truncated.txt":
                # Promise 1000 bytes, send 100, close.
                self._send(200, b"x" * 100, "text/plain", length=1000)
                self.close_connection = True
            elif path == "/no-length.txt":
                self._send(200, CR_FILE.read_bytes(), "text/plain", length=None)
                self.close_connection = True
            elif path == "/slow-headers.txt":
                self.release.wait(5)
                self._send(200, b"late", "text/plain", length=4)
            elif path == "/slow-body.txt":
                self._send(200, b"0123456789", "text/plain", length=100)
                self.wfile.flush()
                self.release.wait(5)
            elif path == "/to-ftp.txt":
                self._send(302, b"", "text/plain", length=0,
                           headers={"Location": "ftp://127.0.0.1/MagicCompRules.txt"})
            elif path == "/loop.txt":
                self._send(307, b"", "text/plain", length=0, headers={"Location": "/loop.txt"})
            elif path == "/en/rules":
                self._send(302, b"", "text/plain", length=0,
                           headers={"Location": "/relative.html"})
            elif path == "/points-at-html.html":
                body = b'<html><a href="/rules.html">Comprehensive Rules TXT</a>' \
                       b'<a href="/nolink.html?f=MagicCompRules%2020300501.txt">x</a></html>'
                self._send(200, body, "text/html", length=len(body))
            elif path.endswith(".html"):
                file = SITE / path.lstrip("/")
                if not file.is_file():
                    self.send_error(404)
                    return
                origin = f"http://{self.headers['Host']}"
                body = file.read_bytes().replace(b"__ORIGIN__", origin.encode())
                self._send(200, body, "text/html; charset=utf-8", length=len(body))
            else:
                super().do_GET()
        except (BrokenPipeError, ConnectionResetError):
            pass


class _Server(http.server.ThreadingHTTPServer):
    daemon_threads = True

    def handle_error(self, request, client_address):  # client hung up: fine
        pass


@pytest.fixture()
def server():
    release = threading.Event()
    handler = functools.partial(type("H", (_Handler,), {"release": release}),
                                directory=str(SITE))
    httpd = _Server(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=httpd.serve_forever, kwargs={"poll_interval": 0.02},
                              daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{httpd.server_address[1]}"
    finally:
        release.set()
        httpd.shutdown()
        httpd.server_close()
        thread.join(5)


@pytest.fixture()
def closed_port() -> int:
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port
