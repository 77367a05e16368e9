"""The advice overlay's screenshots for the README, one per game, taken on an X screen as a player
sees it: the game in a chromium window on the left, Kibitz (compact layout) beside it, told once
where the board is (the region Capture board remembers), then F6 and Ctrl+Shift+A.

    python docs/overlay_screenshots.py [--only 2048 hatetris splt 1010 destructo]

The games: 2048 and HATETRIS are their real pages (``../shared/clients``), played a few moves by
key presses first. SPL-T, 1010! and Destruct-o-Match have no page here, so the game is a picture
shown in the browser at one pixel per pixel: SPL-T's own look as Kibitz draws it, 1010!'s dark
look drawn from the spec's facts, Destruct-o-Match's boulders cut from the real screenshots (the
pictures the readers' tests use: ``tests/vision/*_looks.py``). Each shot is the part of the screen
around the game and is written to ``docs/screenshots/overlay-<game>.png``.

Needs Xvfb, openbox, xprop, xdotool, chromium and Playwright; a cold numba cache makes the first
start slow (the kernels are prepared first).
"""

from __future__ import annotations

import argparse
import contextlib
import os
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import cv2
import numpy as np

PROJECT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(PROJECT))

from tests.real_pages import clients_dir, served  # noqa: E402
from tests.x_display import (  # noqa: E402
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

GAMES = ("2048", "hatetris", "splt", "1010", "destructo")
BROWSER_BOX = (0, 0, 760, 1000)
MARGIN = 14
OUT = PROJECT / "docs" / "screenshots"


# -- the games -------------------------------------------------------------------------------------
def picture(game: str) -> np.ndarray:
    """The game's picture for the games without a page (see the module's docstring)."""
    if game == "splt":
        from tests.vision import splt_looks

        state, _, _ = splt_looks.played(70, 11)
        return splt_looks.board_view(state, (330, 700))
    if game == "1010":
        from tests.vision import tenten_looks

        position = tenten_looks.random_position(np.random.default_rng(5), placements=14)
        image, _ = tenten_looks.draw(position, "dark", "phone", width=420)
        return image
    from tests.vision import destructo_looks

    rng = np.random.default_rng(9)
    board = destructo_looks.played_board(1, rng, plain=True)
    image = destructo_looks.compose_game(board, destructo_looks.game_pieces(destructo_looks.data_dir()), rng)
    height, width = image.shape[:2]
    scale = min(1.0, 640 / width, 880 / height)
    return cv2.resize(image, (round(width * scale), round(height * scale)), interpolation=cv2.INTER_AREA)


def open_game(game: str, browser, folder: Path, stack: contextlib.ExitStack):
    """The game open in the browser; returns (page, the region to remember, screen box to crop)."""
    x, y, width, height = BROWSER_BOX
    page = browser.new_page(no_viewport=True)
    if game == "2048":
        url = stack.enter_context(served(clients_dir() / "2048"))
        fresh_game_page(page, url + "/index.html")
        rng = random.Random(26)
        for _ in range(30):
            page.keyboard.press(rng.choice(("ArrowUp", "ArrowLeft", "ArrowLeft", "ArrowDown", "ArrowDown")))
            page.wait_for_timeout(160)
        page.wait_for_timeout(600)
        board = on_screen(page, ".game-container")
    elif game == "hatetris":
        url = stack.enter_context(served(clients_dir() / "hatetris"))
        page.goto(url + "/hatetris.html")
        page.wait_for_selector("td.well__cell")
        page.click("text=start new game")
        # four pieces spread over the well: turned and moved to either side, then dropped
        for turns, side, steps in ((0, "ArrowLeft", 4), (1, "ArrowRight", 3), (0, "ArrowRight", 0),
                                   (1, "ArrowLeft", 2)):
            for _ in range(turns):
                page.keyboard.press("ArrowUp")
            for _ in range(steps):
                page.keyboard.press(side)
            for _ in range(20):
                page.keyboard.press("ArrowDown")
        page.mouse.move(0, 0)
        page.wait_for_timeout(400)
        board = on_screen(page, "table")
    else:
        image = picture(game)
        cv2.imwrite(str(folder / "game.png"), image)
        (folder / "index.html").write_text(
            '<html><body style="margin:0;background:#808080">'
            f'<img id="game" src="game.png" width="{image.shape[1]}" height="{image.shape[0]}" '
            'style="position:absolute;left:30px;top:30px"></body></html>')
        url = stack.enter_context(served(folder))
        page.goto(url + "/index.html")
        page.wait_for_timeout(500)
        board = on_screen(page, "#game")
    left, top, box_width, box_height = board
    region = (max(0, left - MARGIN), max(0, top - MARGIN), box_width + 2 * MARGIN, box_height + 2 * MARGIN)
    crop = (max(0, left - 60), max(0, top - 60), min(width, box_width + 120), box_height + 120)
    return page, region, crop


def shoot(display: str, game: str) -> Path:
    from playwright.sync_api import sync_playwright

    work = Path(tempfile.mkdtemp(prefix="kibitz-overlay-shot-"))
    environment = dict(os.environ, DISPLAY=display, KIBITZ_SETTINGS_DIR=str(work), KIBITZ_SESSION_DIR=str(work),
                       QT_QPA_PLATFORM="xcb")
    environment.pop("WAYLAND_DISPLAY", None)
    with contextlib.ExitStack() as stack:
        playwright = sync_playwright().start()
        stack.callback(playwright.stop)
        width = BROWSER_BOX[2]
        browser = headed_chromium(playwright, environment, BROWSER_BOX)
        stack.callback(browser.close)
        page, region, crop = open_game(game, browser, work, stack)
        remember_region(work, game, region)
        before = screen_image(display)
        kibitz = subprocess.Popen([sys.executable, "-m", "app", "--game", game, "--layout", "compact"], cwd=PROJECT,
                                  env=environment, stdout=subprocess.DEVNULL, stderr=open(work / "kibitz.log", "w"))
        stack.callback(lambda: kibitz.poll() is None and kibitz.kill())
        window = kibitz_window(display, 600)
        if not window:
            raise RuntimeError(f"Kibitz's window did not show; its log: {(work / 'kibitz.log').read_text()[-1000:]}")
        time.sleep(4.0)
        xdotool(display, "windowmove", "--sync", window, str(width + 10), "0")
        press(display, window, "F6")
        time.sleep(2.5)
        review = xdotool(display, "search", "--onlyvisible", "--name", "Check the board read")
        if review:  # a doubtful reading: the player checks it and loads it, as the review asks
            review = review.splitlines()[-1]
            xdotool(display, "windowactivate", "--sync", review)
            xdotool(display, "key", "--window", review, "Return")
            time.sleep(1.5)
        press(display, window, "ctrl+shift+a")
        time.sleep(2.0)
        # the overlay is up once the region differs from the page as it was before Kibitz started
        left, top, region_width, region_height = region
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            now = screen_image(display)
            part = np.s_[top:top + region_height, left:left + region_width]
            if (np.abs(now[part].astype(int) - before[part].astype(int)).max(axis=2) > 60).mean() > 0.002:
                break
            time.sleep(0.5)
        time.sleep(1.0)
        shot = screen_image(display)
        cx, cy, cw, ch = crop
        OUT.mkdir(parents=True, exist_ok=True)
        path = OUT / f"overlay-{game}.png"
        cv2.imwrite(str(path), shot[cy:cy + ch, cx:cx + cw])
        press(display, window, "ctrl+q")
        with contextlib.suppress(subprocess.TimeoutExpired):
            kibitz.wait(timeout=30)
        return path


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", nargs="*", choices=GAMES, default=list(GAMES))
    args = parser.parse_args()
    # every game's kernels in numba's cache first: a window still preparing its game takes no F6
    subprocess.run([sys.executable, "-m", "app.prepare", *args.only], cwd=PROJECT, check=True)
    screen = Display()
    try:
        display = screen.start()
        for game in args.only:
            print(shoot(display, game), flush=True)
    finally:
        screen.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
