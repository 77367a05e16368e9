"""The advice overlay on a real screen: Xvfb managed by openbox, the real 2048 page in a headed
chromium on the left, Kibitz beside it told once where the board is (its remembered region, as
Capture board leaves it), then, as a player does: F6, Ctrl+Shift+A (the overlay, which follows
the game). What the screen shows is checked against the page's own state (its localStorage):

- the arrow is drawn on the real board, pointing the way the advisor ranks best for the page's
  position, in the advisor's green, solid (openbox composites nothing);
- a click on the arrow reaches the page (a listener the test adds to the page counts it), and a
  key pressed after it reaches the page too: its grid changes. The overlay never took either;
- after that move the overlay hides while the board changes and comes back with the arrow of the
  new position, which Kibitz's tree has followed.

Needs Xvfb, openbox, xprop, xdotool (Debian: xvfb openbox x11-utils xdotool), chromium and
Playwright; skipped without them.
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
import pytest

from tests.real_pages import clients_dir, served, unavailable
from tests.x_display import (
    Display,
    fresh_game_page,
    headed_chromium,
    kibitz_window,
    on_screen,
    press,
    remember_region,
    screen_image,
    xdotool,
)

PROJECT = Path(__file__).resolve().parents[2]
BROWSER_BOX = (0, 0, 760, 1000)
MARGIN = 16  # how far beyond the board the player's rectangle reaches
BEST_RGB = (46, 160, 67)  # the 2048 advisor's best slide (app.gui.games.g2048.advice.BEST_RGB)
DIRECTIONS = ((0, -1), (1, 0), (0, 1), (-1, 0))  # up, right, down, left as (dx, dy)


def _missing() -> str | None:
    reason = unavailable()
    if reason:
        return reason
    tools = [tool for tool in ("Xvfb", "openbox", "xprop", "xdotool") if shutil.which(tool) is None]
    return f"missing {', '.join(tools)} (Debian: xvfb openbox x11-utils xdotool)" if tools else None


pytestmark = pytest.mark.skipif(_missing() is not None, reason=_missing() or "")


def page_grid(page) -> list[list[int]]:
    state = json.loads(page.evaluate("() => localStorage.getItem('gameState')"))
    cells = state["grid"]["cells"]  # column-major
    return [[(cells[x][y] or {}).get("value", 0) for x in range(4)] for y in range(4)]


def best_direction(grid: list[list[int]]) -> int:
    """The advisor's best slide for the page's position (the position from the page itself)."""
    sys.path.insert(0, str(PROJECT))
    from app.gui.games.g2048.advice import rank
    from engines.g2048 import State

    return rank(State.from_rows(tuple(tuple(row) for row in grid)))[0].move.direction


def arrow_pixels(image: np.ndarray, box: tuple[int, int, int, int]) -> np.ndarray:
    """(x, y) of the largest patch of the advisor's green inside ``box`` (the arrow; the letters of
    its label are small patches of their own)."""
    import cv2

    x, y, width, height = box
    part = image[y:y + height, x:x + width].astype(int)
    blue, green, red = BEST_RGB[2], BEST_RGB[1], BEST_RGB[0]
    near = (np.abs(part[:, :, 0] - blue) < 30) & (np.abs(part[:, :, 1] - green) < 30) & (np.abs(part[:, :, 2] - red) < 30)
    count, labels, stats, _ = cv2.connectedComponentsWithStats(near.astype(np.uint8), connectivity=8)
    if count < 2:
        return np.zeros((0, 2), int)
    largest = 1 + int(np.argmax(stats[1:, cv2.CC_STAT_AREA]))
    ys, xs = np.nonzero(labels == largest)
    return np.stack([xs + x, ys + y], axis=1)


def pointing(pixels: np.ndarray) -> int:
    """Which way a drawn arrow points: its head is the wide end of its long axis."""
    xs, ys = pixels[:, 0], pixels[:, 1]
    horizontal = np.ptp(xs) >= np.ptp(ys)
    along, across = (xs, ys) if horizontal else (ys, xs)
    low, high = along.min(), along.max()
    span = high - low
    near_low = across[along < low + 0.2 * span]
    near_high = across[along > high - 0.2 * span]
    head_at_high = np.ptp(near_high) > np.ptp(near_low)
    if horizontal:
        return 1 if head_at_high else 3
    return 2 if head_at_high else 0


def wait_for(condition, timeout: float, step: float = 0.2):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = condition()
        if value:
            return value
        time.sleep(step)
    return condition()


def test_the_arrow_is_drawn_on_the_real_page_and_clicks_and_keys_pass_through(tmp_path):
    from playwright.sync_api import sync_playwright

    screen = Display()
    display = screen.start()
    work = Path(tempfile.mkdtemp(prefix="kibitz-overlay-", dir=tmp_path))
    environment = dict(os.environ, DISPLAY=display, KIBITZ_SETTINGS_DIR=str(work), KIBITZ_SESSION_DIR=str(work),
                       QT_QPA_PLATFORM="xcb")
    environment.pop("WAYLAND_DISPLAY", None)
    shots = Path(os.environ.get("KIBITZ_OVERLAY_SHOTS", str(tmp_path)))
    qt = subprocess.run([sys.executable, "-c", "from PySide6.QtWidgets import QApplication; QApplication([])"],
                        env=environment, capture_output=True, text=True, timeout=60)
    if qt.returncode != 0:
        screen.stop()
        pytest.skip(f"Qt cannot open a window on the X screen (a library of its xcb plugin missing?): "
                    f"{qt.stderr.strip()[-300:]}")
    try:
        with served(clients_dir() / "2048") as url, contextlib.ExitStack() as stack:
            playwright = sync_playwright().start()
            stack.callback(playwright.stop)
            width = BROWSER_BOX[2]
            browser = headed_chromium(playwright, environment, BROWSER_BOX)
            stack.callback(browser.close)
            page = fresh_game_page(browser.new_page(no_viewport=True), url + "/index.html", 800)
            page.evaluate("""() => { window.kibitzClicks = 0;
                document.querySelector('.game-container').addEventListener('mousedown',
                    () => { window.kibitzClicks += 1; }); }""")
            board = on_screen(page, ".game-container")
            remember_region(work, "2048", (board[0] - MARGIN, board[1] - MARGIN, board[2] + 2 * MARGIN,
                                           board[3] + 2 * MARGIN))

            kibitz = subprocess.Popen([sys.executable, "-m", "app", "--game", "2048", "--layout", "compact"],
                                      cwd=PROJECT, env=environment, stdout=subprocess.DEVNULL,
                                      stderr=open(work / "kibitz.log", "w"))
            stack.callback(lambda: kibitz.poll() is None and kibitz.kill())
            window = kibitz_window(display)
            assert window, "Kibitz's window did not show"
            time.sleep(3.0)
            xdotool(display, "windowmove", "--sync", window, str(width + 10), "0")
            press(display, window, "F6")
            time.sleep(2.0)
            press(display, window, "ctrl+shift+a")

            # the arrow appears on the real board, the way the advisor ranks best for the page's position
            grid = page_grid(page)
            expected = best_direction(grid)
            drawn = wait_for(lambda: len(arrow_pixels(screen_image(display), board)) > 500, 60)
            image = screen_image(display)
            _save(image, shots / "overlay-2048-real-page.png")
            assert drawn, f"no arrow on the board after 60 s; Kibitz's log: {(work / 'kibitz.log').read_text()[-2000:]}"
            pixels = arrow_pixels(image, board)
            centre = np.array([board[0] + board[2] / 2, board[1] + board[3] / 2])
            assert np.linalg.norm(pixels.mean(axis=0) - centre) < 0.25 * board[2]  # across the board's middle
            assert pointing(pixels) == expected, (grid, expected)

            # a click on the arrow reaches the page; a key after it moves the page's tiles
            clicks_before = page.evaluate("() => window.kibitzClicks")
            target = pixels[len(pixels) // 2]
            xdotool(display, "mousemove", "--sync", str(int(target[0])), str(int(target[1])))
            xdotool(display, "click", "1")
            assert wait_for(lambda: page.evaluate("() => window.kibitzClicks") > clicks_before, 5)
            # the click raised the browser's window: the overlay is over it again within a moment
            time.sleep(1.0)
            assert len(arrow_pixels(screen_image(display), board)) > 500, "the overlay stayed under the game's window"
            key = ("Up", "Right", "Down", "Left")[expected]
            xdotool(display, "key", "--clearmodifiers", key)
            moved = wait_for(lambda: page_grid(page) != grid, 5, 0.02)
            assert moved, "the key did not reach the page"

            # while the tiles slide the overlay hides (follow mode sees the board change around
            # it), then comes back with the advice for the page's new position
            hidden = wait_for(lambda: len(arrow_pixels(screen_image(display), board)) < 50, 5, 0.02)
            assert hidden, "the overlay stayed on while the board changed"
            new_grid = page_grid(page)
            new_expected = best_direction(new_grid)
            shown_again = wait_for(lambda: len(arrow_pixels(screen_image(display), board)) > 500
                                   and pointing(arrow_pixels(screen_image(display), board)) == new_expected, 30)
            _save(screen_image(display), shots / "overlay-2048-after-a-move.png")
            assert shown_again, (new_grid, new_expected, page_grid(page), (work / "kibitz.log").read_text()[-2000:])
            press(display, window, "ctrl+q")
            with contextlib.suppress(subprocess.TimeoutExpired):
                kibitz.wait(timeout=30)
        # Kibitz's tree followed the page: its position is the page's
        from app.gui.session import SessionStore

        loaded = SessionStore(work).load()
        tree = loaded.session.analyses[loaded.session.current].tree
        assert [list(row) for row in tree.current.state.rows] == new_grid
    finally:
        screen.stop()


def _save(image: np.ndarray, path: Path) -> None:
    import cv2

    path.parent.mkdir(parents=True, exist_ok=True)
    cv2.imwrite(str(path), image)
