"""Time to offline on Slow 4G: from the first visit to "Ready offline".

    python -m bench.site_offline [--runs 3] [--release 2026-08-07] [--site DIR]

Builds the site of one release (or takes a built one: ``--site``, for
example a build of an earlier version, to compare), serves it with
``site serve``'s server (gzip, cache headers) and throttles *the server*:
150 ms before each answer and 1.6 Mbit/s shared by every connection, so
the pages' requests and the service worker's are slowed alike (DevTools'
network throttling does not reach a service worker's fetches).  Every run
starts in a new browser context (nothing cached) and opens ``index.html``.

Prints medians of:

- time to offline: until the page shows "Ready offline" (a site whose
  worker precaches everything in its install step, as earlier versions
  did: until the worker controls the page, which is when its install is
  done);
- time until the worker controls the page (pages read from then on are
  cached as they are read);
- files and bytes the precache names (gzipped as the server sends them),
  and requests and bytes the server sent in the run.

Goal (issue 25): <= 60 files, <= 3 MB gzipped, ready within 20 s.
"""

from __future__ import annotations

import argparse
import gzip
import json
import re
import statistics
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run"]
LATENCY = 0.150          # seconds before each answer
RATE = 1.6e6 / 8         # bytes a second, shared by every connection
READY = "(document.querySelector('.offline-status') || {}).textContent || ''"


class Link:
    """One slow link: every byte sent waits its turn at RATE."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.free = 0.0
        self.sent = 0
        self.requests = 0

    def send(self, n: int) -> None:
        with self.lock:
            start = max(time.monotonic(), self.free)
            self.free = start + n / RATE
            self.sent += n
            until = self.free
        delay = until - time.monotonic()
        if delay > 0:
            time.sleep(delay)


class SlowWriter:
    def __init__(self, raw, link: Link) -> None:
        self.raw, self.link = raw, link

    def write(self, data) -> int:
        view = memoryview(data)
        for i in range(0, len(view), 16384):
            piece = view[i:i + 16384]
            self.link.send(len(piece))
            self.raw.write(piece)
        return len(view)

    def flush(self) -> None:
        self.raw.flush()

    def __getattr__(self, name):
        return getattr(self.raw, name)


def slow_server(folder: Path, link: Link):
    """``site serve``'s server for ``folder``, behind one slow link."""
    import functools

    from crsearch.site import build as site

    server = site.make_server(folder, port=0)
    handler = server.RequestHandlerClass.func  # a functools.partial of the handler

    class Slow(handler):  # type: ignore[misc, valid-type]
        def setup(self) -> None:
            super().setup()
            self.wfile = SlowWriter(self.wfile, link)

        def send_head(self):
            link.requests += 1
            time.sleep(LATENCY)
            return super().send_head()

    server.RequestHandlerClass = functools.partial(Slow, directory=str(folder))
    return server


def precache(folder: Path) -> list[str]:
    """The files the site's service worker fetches to be offline."""
    sw = (folder / "sw.js").read_text(encoding="utf-8")
    found = re.search(r"var PRECACHE = (\[.*?\]);\n", sw)
    if found:  # every file, in the install step
        return [u for u, _ in json.loads(found.group(1))]
    lists = [json.loads(re.search(rf"var {name} = (\[.*?\]);\n", sw).group(1))
             for name in ("SHELL", "BUNDLES")]
    return [u for u, _ in lists[0] + lists[1]]


def one_run(browser, folder: Path, bundles: bool, timeout: float) -> tuple[float, float, int, int]:
    """(seconds to offline, seconds to control, requests, bytes sent) of one first visit."""
    link = Link()
    server = slow_server(folder, link)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    base = f"http://127.0.0.1:{server.server_address[1]}/"
    context = browser.new_context(service_workers="allow")
    page = context.new_page()
    try:
        t = time.perf_counter()
        page.goto(base + "index.html", wait_until="commit")
        controlled = ready = None
        told = 0.0
        while time.perf_counter() - t < timeout:
            now = time.perf_counter() - t
            if now - told >= 30:
                told = now
                print(f"    {now:4.0f} s: {link.requests} requests, {link.sent / 1e6:.2f} MB sent",
                      flush=True)
            if controlled is None and page.evaluate(
                    "!!(navigator.serviceWorker && navigator.serviceWorker.controller)"):
                controlled = now
            if bundles and page.evaluate(READY).startswith("Ready offline"):
                ready = now
                break
            if not bundles and controlled is not None:
                ready = controlled
                break
            time.sleep(0.1)
        if ready is None:
            raise SystemExit(f"not offline after {timeout:.0f} s")
        return ready, controlled if controlled is not None else ready, link.requests, link.sent
    finally:
        context.close()
        server.shutdown()
        server.server_close()


def main() -> None:
    from playwright.sync_api import sync_playwright

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=3, help="first visits to time (medians)")
    ap.add_argument("--release", default="2026-08-07")
    ap.add_argument("--site", type=Path, help="a built site to measure instead of building one")
    ap.add_argument("--timeout", type=float, default=900, help="seconds before a run gives up")
    args = ap.parse_args()
    if args.site:
        folder = args.site
    else:
        from crsearch.ingest.pipeline import release_from_bytes
        from crsearch.site import build as site

        txt = ROOT.parent / "shared" / "cr" / "archive" / f"{args.release}.txt"
        folder = Path(tempfile.mkdtemp(prefix="crsearch-offline-")) / "site"
        site.build(release_from_bytes(txt.read_bytes(), txt.name), folder)
    urls = precache(folder)
    wire = sum(len(gzip.compress((folder / u).read_bytes(), 6)) for u in urls)
    raw = sum((folder / u).stat().st_size for u in urls)
    bundles = "var BUNDLES" in (folder / "sw.js").read_text(encoding="utf-8")
    runs = []
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
        for _ in range(args.runs):
            runs.append(one_run(browser, folder, bundles, args.timeout))
            print(f"  run: offline {runs[-1][0]:.1f} s, controlled {runs[-1][1]:.1f} s, "
                  f"{runs[-1][2]} requests, {runs[-1][3] / 1e6:.2f} MB sent", flush=True)
        browser.close()
    med = [statistics.median(r[i] for r in runs) for i in range(4)]
    print(f"\nSlow 4G at the server ({LATENCY * 1000:.0f} ms before each answer, "
          f"{RATE * 8 / 1e6:.1f} Mbit/s shared); medians of {args.runs} first visits\n")
    print(f"precache            {len(urls)} files, {wire / 1e6:.2f} MB gzipped "
          f"({raw / 1e6:.2f} MB as written)  (goal <= 60 files, <= 3 MB)")
    sign = "the page says Ready offline" if bundles else "the install step ends; no sign on the page"
    print(f"time to offline     {med[0]:.1f} s  (goal <= 20 s: {'met' if med[0] <= 20 else 'NOT met'}; "
          f"{sign})")
    print(f"worker in control   {med[1]:.1f} s")
    print(f"server sent         {med[2]:.0f} requests, {med[3] / 1e6:.2f} MB")


if __name__ == "__main__":
    main()
