"""What `site serve` sends, and what it never sends.

Only regular files whose real path lies inside the site folder are served:
no symlink out of it, no folder listing, no FIFO (which would block the
server).  A path that is not text (``%00``, a lone surrogate) gets a 400.
Every answer is a complete HTTP response, and the server goes on answering.
"""

from __future__ import annotations

import http.client
import os
import threading
from pathlib import Path

import pytest

from crsearch.site import build as site


@pytest.fixture(scope="module")
def planted(tmp_path_factory, mini_release) -> Path:
    """A small site with things planted in it, and a secret folder beside it."""
    base = tmp_path_factory.mktemp("served")
    root = base / "site"
    site.build(mini_release, root, search=False)
    secret = base / "secret"
    secret.mkdir()
    (secret / "key.txt").write_text("SECRET KEY\n")
    (secret / "index.html").write_text("<html>SECRET PAGE</html>\n")
    (root / "leak.txt").symlink_to(secret / "key.txt")
    (root / "outside").symlink_to(secret, target_is_directory=True)
    (root / "also-index.html").symlink_to(root / "index.html")  # inside: fine
    (root / "notes").mkdir()
    (root / "notes" / "todo.txt").write_text("a file of the folder\n")
    (root / "guide").mkdir()
    (root / "guide" / "index.html").write_text("<html>GUIDE</html>\n")
    os.mkfifo(root / "pipe.html")
    os.mkfifo(root / "notes" / "pipe.txt")
    return root


@pytest.fixture(scope="module")
def server(planted):
    srv = site.make_server(planted, port=0)
    threading.Thread(target=srv.serve_forever, daemon=True).start()
    yield srv
    # A server that opened a FIFO waits for a writer: give it one, so the
    # thread ends whatever the outcome.
    for fifo in (planted / "pipe.html", planted / "notes" / "pipe.txt"):
        try:
            os.close(os.open(fifo, os.O_WRONLY | os.O_NONBLOCK))
        except OSError:
            pass
    srv.shutdown()
    srv.server_close()


def get(server, path: str, method: str = "GET") -> tuple[int, dict[str, str], bytes]:
    """One request, sent as typed (no quoting); a hung server fails the test."""
    conn = http.client.HTTPConnection("127.0.0.1", server.server_address[1], timeout=5)
    try:
        conn.putrequest(method, path, skip_accept_encoding=True)
        conn.endheaders()
        resp = conn.getresponse()
        return resp.status, dict(resp.getheaders()), resp.read()
    finally:
        conn.close()


def test_serve_never_follows_a_symlink_out_of_the_site(server):
    for path in ("/leak.txt", "/outside/key.txt", "/outside/index.html", "/outside/"):
        status, _, body = get(server, path)
        assert status == 404, path
        assert b"SECRET" not in body, path
    status, _, _ = get(server, "/outside")
    assert status == 404


def test_serve_follows_a_symlink_that_stays_inside(server, planted):
    status, _, body = get(server, "/also-index.html")
    assert status == 200 and body == (planted / "index.html").read_bytes()


def test_serve_lists_no_folder(server):
    status, _, body = get(server, "/notes/")
    assert status == 404
    assert b"todo.txt" not in body
    status, _, body = get(server, "/notes/todo.txt")
    assert status == 200 and body == b"a file of the folder\n"


def test_a_folder_serves_its_index_page(server):
    status, headers, _ = get(server, "/guide")
    assert status == 301 and headers["Location"] == "/guide/"
    status, _, body = get(server, "/guide/")
    assert status == 200 and body == b"<html>GUIDE</html>\n"
    status, _, body = get(server, "/")
    assert status == 200 and b"<html" in body


@pytest.mark.parametrize("path", ["/pipe.html", "/notes/pipe.txt"])
def test_a_fifo_in_the_site_does_not_hang_the_server(server, path):
    for method in ("GET", "HEAD"):
        status, _, _ = get(server, path, method)
        assert status in (403, 404), (method, path)
    status, _, _ = get(server, "/index.html")
    assert status == 200


@pytest.mark.parametrize("path", ["/%00", "/index.html%00", "/%00/x", "/%ED%A0%80",
                                  "/a%ED%A0%80.html", "/%FF.html", "/guide/%00"])
def test_a_path_that_is_not_text_gets_400(server, path):
    status, _, body = get(server, path)
    assert status == 400, path
    assert b"Traceback" not in body
    status, _, _ = get(server, "/index.html")
    assert status == 200


def test_a_path_that_is_not_text_prints_no_traceback(server, capfd):
    get(server, "/%00")
    get(server, "/%ED%A0%80")
    err = capfd.readouterr().err
    assert "Traceback" not in err and "Error" not in err, err
