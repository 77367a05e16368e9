"""The real game pages in a real browser: serve ``../shared/clients/`` on 127.0.0.1 and drive
Debian's ``chromium`` headless through Playwright, for the reader tests, follow mode on the live
pages and ``benchmarks/vision.py``.

Nothing here knows a game: ``tests/vision/pages_2048.py`` and ``tests/vision/pages_hatetris.py``
drive each page and take the truth from the page itself. Usage::

    with served(clients / "2048") as url, Browser() as browser:
        page = browser.open(url + "/index.html", viewport=(1024, 900), scale=2)
        image = screenshot(page)          # BGR, device pixels

Browser zoom is what a person sets with Ctrl-+: the page lays out in fewer CSS pixels, each
drawn with more device pixels, so a zoom of Z is a viewport divided by Z at a scale times Z.
"""

from __future__ import annotations

import contextlib
import functools
import http.server
import os
import shutil
import threading
from collections.abc import Iterator
from pathlib import Path

import numpy as np

PROJECT = Path(__file__).resolve().parents[1]
CHROMIUM_NAMES = ("chromium", "chromium-browser")
LAUNCH_ARGUMENTS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                    "--font-render-hinting=none"]


def clients_dir() -> Path | None:
    """``$KIBITZ_CLIENTS`` if set, else ``../shared/clients`` beside the project."""
    configured = os.environ.get("KIBITZ_CLIENTS")
    candidate = Path(configured) if configured else PROJECT.parent / "shared" / "clients"
    return candidate if candidate.is_dir() else None


def chromium_path() -> str | None:
    for name in CHROMIUM_NAMES:
        found = shutil.which(name)
        if found:
            return found
    return None


def unavailable() -> str | None:
    """Why the real pages cannot run here, or None when they can."""
    if clients_dir() is None:
        return ("the real game pages were not found: set KIBITZ_CLIENTS or put shared/clients "
                "beside the project")
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        return "Playwright for Python is not installed (pip install '.[test]')"
    if chromium_path() is None:
        return "no chromium on PATH (Debian: apt-get install chromium)"
    return None


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format, *args):  # noqa: A002 - the base class's name
        pass


class _QuietServer(http.server.ThreadingHTTPServer):
    daemon_threads = True

    def handle_error(self, request, client_address):
        """A page closed while a file was on its way (the browser gone mid-request) is no error
        worth a traceback; anything else still is."""
        import sys

        if not isinstance(sys.exc_info()[1], (BrokenPipeError, ConnectionResetError)):
            super().handle_error(request, client_address)


@contextlib.contextmanager
def served(folder: Path) -> Iterator[str]:
    """Serve ``folder`` on 127.0.0.1 at a free port; yields the base URL (no trailing slash)."""
    handler = functools.partial(_QuietHandler, directory=str(folder))
    server = _QuietServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, name="real-page-server", daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=5)


class Browser:
    """Headless Debian chromium through Playwright; every ``open`` gets a context of its own
    (its own viewport, device scale factor and local storage)."""

    def __init__(self):
        self._playwright = None
        self._browser = None
        self._contexts = []

    def __enter__(self) -> Browser:
        from playwright.sync_api import sync_playwright

        self._playwright = sync_playwright().start()
        try:
            self._browser = self._playwright.chromium.launch(
                executable_path=chromium_path(), args=LAUNCH_ARGUMENTS)
        except Exception:
            self._playwright.stop()
            raise
        return self

    def __exit__(self, *exc_info) -> None:
        for context in self._contexts:
            with contextlib.suppress(Exception):
                context.close()
        with contextlib.suppress(Exception):
            self._browser.close()
        self._playwright.stop()

    def open(self, url: str, viewport: tuple[int, int] = (1024, 900), scale: float = 1.0,
             zoom: float = 1.0):
        """A new page at ``url``: ``viewport`` in CSS pixels at 100 % zoom, ``scale`` the
        device-pixel ratio, ``zoom`` the browser zoom (0.5 to 2)."""
        width, height = viewport
        context = self._browser.new_context(
            viewport={"width": max(1, round(width / zoom)), "height": max(1, round(height / zoom))},
            device_scale_factor=scale * zoom)
        self._contexts.append(context)
        page = context.new_page()
        page.goto(url)
        return page

    def close(self, page) -> None:
        context = page.context
        context.close()
        if context in self._contexts:
            self._contexts.remove(context)


def screenshot(page, **options) -> np.ndarray:
    """The page as the screen shows it: BGR uint8 at device pixels."""
    from vision.images import decode

    return decode(page.screenshot(type="png", animations="allow", **options), "chromium's screenshot")


@contextlib.contextmanager
def live_page(folder: str) -> Iterator[tuple[Browser, str]]:
    """For a test: skip with the reason when the real pages cannot run here, else serve
    ``shared/clients/<folder>`` and yield (browser, base URL)."""
    import pytest

    reason = unavailable()
    if reason:
        pytest.skip(reason)
    with served(clients_dir() / folder) as url, Browser() as browser:
        yield browser, url


def read_captures(game: str, captures) -> list[tuple[dict, str, object]]:
    """(truth, look, reading) of each capture, the reading a ``NoBoardFound`` where none was found."""
    from vision import NoBoardFound, read

    results = []
    for image, truth, look in captures:
        try:
            reading = read(game, image)
        except NoBoardFound as error:
            reading = error
        results.append((truth, look, reading))
    return results
