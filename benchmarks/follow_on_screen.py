"""Follow mode as a player uses it: the real 2048 page in a chromium window on one side of an X
screen, Kibitz's window on the other, Kibitz told once where the game is and then left alone.

The script starts its own Xvfb and openbox, serves ``shared/clients/2048``, opens the page in a
headed chromium (Debian's, through Playwright) at the left of the screen, and starts ``kibitz
--game 2048`` with temporary settings and session folders whose remembered capture region is the
chromium window. Then, as a person would: F6 (read the region: the page's position loads), Ctrl+
Shift+F (follow), and the game is played in the browser by key presses at a person's pace
(``--pace`` ms), Kibitz untouched. At the end Kibitz is closed with Ctrl+Q (its session is saved)
and its move tree is compared with every position the page went through (read from the page's
own ``localStorage``): slides and random spawns, in order.

    python benchmarks/follow_on_screen.py [--moves 150] [--pace 700] [--games 1] [--shot DIR]

Needs Xvfb, openbox, xprop and xdotool (Debian packages xvfb openbox x11-utils xdotool), chromium and
Playwright.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tests.x_display import press, xdotool  # noqa: E402

SCREEN = "1600x1000x24"
BROWSER_BOX = (0, 0, 760, 1000)        # where the chromium window goes (x, y, width, height)
KEYS = ("ArrowUp", "ArrowRight", "ArrowDown", "ArrowLeft")


def _grid_of(state: dict) -> list[list[int]]:
    """Rows top to bottom of the page's saved game (its cells are column-major)."""
    cells = state["grid"]["cells"]
    return [[(cells[x][y] or {}).get("value", 0) for x in range(4)] for y in range(4)]


def _page_state(page) -> dict | None:
    text = page.evaluate("() => localStorage.getItem('gameState')")
    return json.loads(text) if text else None


def _place_beside(display: str, window: str, left: int) -> None:
    """Move Kibitz's window right of the browser (as a player arranges the two), checked: a
    window over the captured region would be read instead of the game."""
    for _ in range(20):
        xdotool(display, "windowmove", "--sync", window, str(left), "0")
        time.sleep(0.3)
        geometry = xdotool(display, "getwindowgeometry", window)
        position = geometry.split("Position: ", 1)[-1].split(" ", 1)[0]
        if position and int(position.split(",")[0]) >= left:
            return
    raise RuntimeError(f"Kibitz's window could not be moved beside the browser: {geometry}")


def _line_grids(session_folder: Path) -> list[tuple[list[list[int]], int]]:
    """(grid rows, score) of every position with the player to move (after each spawn) from the
    root to the current one of the saved session's shown analysis."""
    from app.gui.session import SessionStore

    loaded = SessionStore(session_folder).load()
    if loaded.session is None:
        raise RuntimeError(f"Kibitz's session could not be read: {loaded.problem}")
    tree = loaded.session.analyses[loaded.session.current].tree
    return [([list(row) for row in node.state.rows], node.state.score) for node in tree.line_nodes()
            if not node.state.is_chance_node]


#: how far beyond the board a player's rectangle reaches (pixels)
DRAG_MARGIN = 16


def play_one(display: str, clients: Path, moves: int, pace: int, seed: int, shots: Path | None,
             region: str = "board") -> dict:
    from playwright.sync_api import sync_playwright

    from tests.real_pages import served
    from tests.x_display import fresh_game_page, headed_chromium, kibitz_window, on_screen, remember_region

    work = Path(tempfile.mkdtemp(prefix="kibitz-follow-"))
    rng = random.Random(seed)
    environment = dict(os.environ, DISPLAY=display, KIBITZ_SETTINGS_DIR=str(work), KIBITZ_SESSION_DIR=str(work),
                       QT_QPA_PLATFORM="xcb")
    x, y, width, height = BROWSER_BOX
    history: list[tuple[list[list[int]], int]] = []
    kibitz = None
    with served(clients / "2048") as url, contextlib.ExitStack() as stack:
        playwright = sync_playwright().start()
        stack.callback(playwright.stop)
        browser = headed_chromium(playwright, environment, BROWSER_BOX)
        stack.callback(browser.close)
        page = fresh_game_page(browser.new_page(no_viewport=True), url + "/index.html", 500)
        history.append((_grid_of(_page_state(page)), 0))
        if region == "board":  # the rectangle a player drags around the page's board, a margin around it
            left, top, box_width, box_height = on_screen(page, ".game-container")
            box = (max(0, left - DRAG_MARGIN), max(0, top - DRAG_MARGIN), box_width + 2 * DRAG_MARGIN,
                   box_height + 2 * DRAG_MARGIN)
        else:
            box = BROWSER_BOX
        remember_region(work, "2048", box)
        kibitz = subprocess.Popen([sys.executable, "-m", "app", "--game", "2048", "--layout", "compact"],
                                  env=environment, stdout=subprocess.DEVNULL, stderr=open(work / "kibitz.log", "w"))
        stack.callback(lambda: kibitz.poll() is None and kibitz.kill())
        window = kibitz_window(display, 120)
        if not window:
            raise RuntimeError("Kibitz's window did not show within two minutes")
        time.sleep(3.0)  # kernels load, the first advice
        _place_beside(display, window, width + 10)
        press(display, window, "F6")
        time.sleep(2.0)
        press(display, window, "ctrl+shift+f")
        time.sleep(1.0)
        played = 0
        for _ in range(moves * 4):
            if played >= moves:
                break
            before = _page_state(page)
            key = rng.choice(KEYS)
            page.keyboard.press(key)
            page.wait_for_timeout(pace)
            after = _page_state(page)
            if after is None:
                break
            if _grid_of(after) != _grid_of(before):
                played += 1
                history.append((_grid_of(after), after["score"]))
            if after.get("over"):
                break
        time.sleep(2.0)
        if shots is not None:
            shots.mkdir(parents=True, exist_ok=True)
            subprocess.run(["import", "-window", "root", str(shots / f"follow-2048-{seed}.png")],
                           env=environment, check=False)
        press(display, window, "ctrl+q")
        with contextlib.suppress(subprocess.TimeoutExpired):
            kibitz.wait(timeout=30)
    line = _line_grids(work)
    # Kibitz's line: the position loaded by F6 (the page's start), then one per slide and spawn;
    # every one of them must be a position the page showed, in the page's order
    page_grids = [grid for grid, _ in history]
    wrong = 0
    reached = -1
    first_wrong = None
    for grid, score in line:
        later = [index for index in range(reached + 1, len(history)) if history[index] == (grid, score)]
        if later:
            reached = later[0]
        else:
            wrong += 1
            if first_wrong is None:
                first_wrong = {"kibitz": [grid, score], "page_next": history[reached + 1] if reached + 1 < len(history)
                               else None}
    result = {"seed": seed, "region": region, "pace_ms": pace, "page_moves": len(history) - 1,
              "kibitz_moves": len(line) - 1, "page_moves_followed": reached,
              "kibitz_positions_the_page_never_showed": wrong, "first_wrong": first_wrong,
              "final_equal": bool(line) and line[-1][0] == page_grids[-1] and wrong == 0,
              "log": str(work / "kibitz.log")}
    shutil.rmtree(work, ignore_errors=True) if result["final_equal"] else None
    return result


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--moves", type=int, default=150)
    parser.add_argument("--pace", type=int, default=700, help="milliseconds between key presses")
    parser.add_argument("--games", type=int, default=1)
    parser.add_argument("--region", choices=("board", "window"), default="board",
                        help="the captured rectangle: around the board, as a player drags it, or the "
                             "whole browser window")
    parser.add_argument("--shot", type=Path, default=None, help="save a screenshot of the screen at the end here")
    args = parser.parse_args()
    from tests.real_pages import clients_dir, unavailable
    from tests.x_display import Display

    missing = [tool for tool in ("Xvfb", "openbox", "xprop", "xdotool") if shutil.which(tool) is None]
    reason = unavailable() or (f"missing: {', '.join(missing)}" if missing else None)
    if reason:
        print(f"follow on screen: {reason}", file=sys.stderr)
        return 1
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(1))
    results = []
    screen = Display(SCREEN)
    try:
        display = screen.start()
        for game in range(args.games):
            result = play_one(display, clients_dir(), args.moves, args.pace, 2048 + game, args.shot, args.region)
            results.append(result)
            print(json.dumps(result), flush=True)
    finally:
        screen.stop()
    return 0 if all(r["final_equal"] for r in results) else 1


if __name__ == "__main__":
    sys.exit(main())
