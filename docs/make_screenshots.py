"""Regenerate every screenshot of the README under Xvfb with a window manager.

    python docs/make_screenshots.py                       # every shot
    python docs/make_screenshots.py --only splt 2048-compact review

Shots (written to ``docs/screenshots/``):

- ``<game>.png`` and ``<game>-compact.png`` for splt, hatetris, 2048, 1010 and destructo: the
  window in the analysis and in the compact layout, each at the position its README caption names;
- ``capture.png``: the capture overlay, a rectangle dragged around a 2048 board;
- ``review.png``: the reading review opened on a doubtful Destruct-o-Match reading (a real 5 x 5
  crop of the game whose boulders reach its edges, so the board's extent is in doubt).

``--only`` takes shot names (``splt``, ``splt-compact``, ``capture``, ``review``, ...) or ``GAME*``
for both layouts of a game (``--only '2048*'``).

The script starts its own Xvfb (the first free display, 1600x1000x24) and openbox, and runs each
shot as a process of its own: this file with ``--drive``, which calls ``python -m app``'s own entry
point (``app.__main__.main``) with the window options a person would type (printed beside each shot
as the equivalent ``kibitz`` command) and watches the window: it waits until the game's kernels are
prepared (no "Preparing…" board), the advisor has ranked the position and nothing has changed for
a moment, then saves ``QWidget.grab()`` of the window (of the overlay, of the review). Settings and
session live in a temporary folder (``KIBITZ_SETTINGS_DIR``, ``KIBITZ_SESSION_DIR``), never the
user's. Xvfb and openbox are stopped at the end, also on failure or Ctrl-C; a shot that fails is
named with the reason and its picture is left as it was.

Positions come from the shared reference data (``$KIBITZ_REFERENCE_DATA``, else ``../shared/data``
beside the project), read where it lies and never copied into the project: the 1196-split SPL-T
record, David & Felipe's 86-point HATETRIS replay and the real 1010! screenshot's position (spec 5).
The 2048 line is the expectimax's own game from seed 2048 (one search thread, so it is the same on
every run); the Destruct-o-Match board is level 3 dealt from seed 9.

Needs the Debian packages xvfb, openbox and x11-utils (xprop). The first run on a cold numba cache
prepares every game's kernels first (``python -m app.prepare``), which takes a few minutes.
"""

from __future__ import annotations

import argparse
import csv
import fnmatch
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

PROJECT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(PROJECT))
from tests.x_display import Display  # noqa: E402 - needs the project on the path
OUT_DIR = PROJECT / "docs" / "screenshots"
SCREEN = "1600x1000x24"
#: The window's own --screenshot comes this long after the start (ms, the longest it takes): the
#: driver grabs the window long before.
UNUSED_DELAY = "600000"
GAMES = ("splt", "hatetris", "2048", "1010", "destructo")
SHOT_NAMES = tuple(name for game in GAMES for name in (game, f"{game}-compact")) + ("capture", "review")
SHOT_TIMEOUT = 300  # seconds a shot may take once the kernels are prepared
SETTLE_MS = 1500  # the window must be ready and unchanged this long before it is grabbed
START_MS = 1000  # and shown at least this long (the turn highlight fades after 800 ms)


def reference_data() -> Path:
    configured = os.environ.get("KIBITZ_REFERENCE_DATA")
    return Path(configured) if configured else PROJECT.parent / "shared" / "data"


# -- the positions ----------------------------------------------------------------------------------
def hatetris_record(data: Path, folder: Path) -> Path:
    """David & Felipe's 86-point game as the official page's Base2048 replay code, in a file
    named as the README's screenshot shows it (``df86.txt``)."""
    with open(data / "hatetris" / "records.tsv", encoding="utf-8", newline="") as handle:
        rows = [row for row in csv.DictReader(handle, delimiter="\t")
                if row["score"] == "86" and row["encoding"] == "Base2048"]
    if not rows:
        raise RuntimeError(f"{data / 'hatetris' / 'records.tsv'} has no Base2048 replay of the 86-point game")
    path = folder / "df86.txt"
    path.write_text(rows[0]["replay"].strip() + "\n", encoding="utf-8")
    return path


def g2048_line(folder: Path, seed: int = 2048, slides: int = 480) -> Path:
    """The expectimax advisor's own game: the two start tiles and every spawn drawn from
    ``seed`` as ``kibitz play 2048`` draws them, ``slides`` slides (962 moves with the spawns).
    One search thread, so that every run plays the same game."""
    import numpy as np

    from advisors.g2048.search import ADAPTIVE, Expectimax
    from engines.contract import Line
    from engines.g2048 import GAME

    rng = np.random.default_rng(seed)
    state = GAME.initial_state()
    moves = []
    while state.spawns_due:
        spawn = GAME.random_spawn(state, rng)
        moves.append(spawn)
        state = GAME.apply_chance(state, spawn).state
    advisor = Expectimax(threads=1)
    for _ in range(slides):
        legal = [c for c in advisor.rank(state, ADAPTIVE) if c.legal]
        if not legal:
            break
        moves.append(legal[0].move)
        state = GAME.play(state, legal[0].move).state
        spawn = GAME.random_spawn(state, rng)
        moves.append(spawn)
        state = GAME.apply_chance(state, spawn).state
    path = folder / f"expectimax-seed-{seed}.txt"
    path.write_text(GAME.sequence_text(Line(GAME.initial_state(), tuple(moves))), encoding="utf-8")
    return path


def destructo_position(seed: int = 9, level: int = 3, score: int = 412) -> str:
    """Level ``level``'s board dealt from ``seed`` (with an Explode, an Overkill and a Wild), as
    a game reaches it: ``score`` points so far, a Shuffle banked."""
    import numpy as np

    from engines.destructo import State, levels, notation

    board = levels.deal_level(level, np.random.default_rng(seed))
    return notation.state_text(State(board, level=level, score=score, shuffles=1, undos=0, due=None))


TENTEN_POSITION = ("score 661 · tray V i . / ........../#....##.##/#...######/.#.#....##/##.#.....#/"
                   "...#######/...#####../........../#.########/..........")
CAPTURE_2048 = "score 7064\n. . 2 .\n. 4 8 2\n4 16 64 8\n512 256 128 32"


def shot_table(data: Path, folder: Path, wanted: set[str]) -> dict[str, dict]:
    """Each shot: the window options, what the driver does (window / capture / review) and a
    short equivalent command line for the log."""
    # (options, command for the log, folder the window runs in: files are opened by their bare
    # names, so that the window's messages name them as a person's would)
    games: dict[str, tuple[list[str], str, Path]] = {}
    if wanted & {"splt", "splt-compact"}:
        games["splt"] = (["--game", "splt", "--open", "1196seq.txt", "--at", "1006"],
                         "kibitz --open 1196seq.txt --at 1006", data / "splt")
    if wanted & {"hatetris", "hatetris-compact"}:
        games["hatetris"] = (["--game", "hatetris", "--open", hatetris_record(data, folder).name, "--at", "120"],
                             "kibitz --game hatetris --open df86.txt --at 120", folder)
    if wanted & {"2048", "2048-compact"}:
        games["2048"] = (["--game", "2048", "--open", g2048_line(folder).name],
                         "kibitz --game 2048 --open expectimax-seed-2048.txt", folder)
    if wanted & {"1010", "1010-compact"}:
        games["1010"] = (["--game", "1010", "--position", TENTEN_POSITION],
                         'kibitz --game 1010 --position "score 661 · tray V i . / ..."', folder)
    if wanted & {"destructo", "destructo-compact"}:
        clicks = "6,7 7,14 1,1 1,10"
        games["destructo"] = (["--game", "destructo", "--position", destructo_position(), "--moves", clicks],
                              f'kibitz --game destructo --position "level 3 · score 412 ..." --moves "{clicks}"',
                              folder)
    shots = {}
    for game, (options, command, cwd) in games.items():
        for layout, name in (("analysis", game), ("compact", f"{game}-compact")):
            if name in wanted:
                shots[name] = {"kind": "window", "options": [*options, "--layout", layout], "cwd": cwd,
                               "command": f"{command} --layout {layout}"}
    if "capture" in wanted:
        shots["capture"] = {"kind": "capture", "options": ["--game", "2048", "--position", CAPTURE_2048], "cwd": folder,
                            "command": 'kibitz --game 2048 --position "score 7064 ...", maximized, then Capture › '
                                       "Capture board with a rectangle dragged around the board"}
    if "review" in wanted:
        crop = data / "destructo" / "blocks_before.png"
        shots["review"] = {"kind": "review", "options": ["--game", "destructo"], "image": str(crop), "cwd": folder,
                           "command": f"kibitz --game destructo, then Capture › Open screenshot file… {crop.name}"}
    return {name: shots[name] for name in SHOT_NAMES if name in shots}


# -- the driver: one shot, in a process of its own under the X server -----------------------------------
def drive(kind: str, out: str, image: str | None, app_arguments: list[str]) -> int:
    """Run the window as ``python -m app APP_ARGUMENTS`` does and save the shot once it is ready."""
    from PySide6.QtCore import QElapsedTimer, QRectF, QTimer
    from PySide6.QtWidgets import QApplication

    app = QApplication([sys.argv[0]])  # app.gui.application.run() takes this one over
    from app.__main__ import main as app_main
    from app.gui.application import _overlay_rect
    from app.gui.main_window import MainWindow

    clock = QElapsedTimer()
    clock.start()
    stage = {"name": "window", "since": None, "signature": None, "shown_at": None, "result": 0, "why": ""}

    def drag_rect(shown: MainWindow):
        """A rectangle dragged a little outside the board itself (2048: its grid, without the
        arrow bands around it), as a person would drag it; else --capture-overlay board's."""
        layout = getattr(shown.board, "board_layout", None)
        if layout is None:
            return _overlay_rect(shown, "board")
        grid = layout().board_rect()
        corner = shown.board.mapToGlobal(grid.topLeft())
        return QRectF(corner.x(), corner.y(), grid.width(), grid.height()).adjusted(-14, -14, 14, 14)

    def window() -> MainWindow | None:
        return next((w for w in app.topLevelWidgets() if isinstance(w, MainWindow) and w.isVisible()), None)

    def finish(code: int, why: str = "") -> None:
        stage["result"], stage["why"] = code, why
        timer.stop()
        shown = window()
        if shown is not None:
            if shown.capture.picker is not None:
                shown.capture.picker.close()
            if shown.capture.review is not None:
                shown.capture.review.close()
            shown.close()
        app.exit(code)

    def save(widget) -> None:
        if not widget.grab().save(out, "PNG"):
            finish(1, f"could not write {out}")
        else:
            finish(0)

    def steady(shown: MainWindow, ready: bool, extra=()) -> bool:
        """True once ``ready`` has held, with the window's size and message unchanged, for SETTLE_MS."""
        signature = (shown.size().width(), shown.size().height(), shown.message_text(), *extra)
        if not ready or signature != stage["signature"]:
            stage["signature"] = signature if ready else None
            stage["since"] = clock.elapsed()
            return False
        return clock.elapsed() - stage["since"] >= SETTLE_MS

    def poll() -> None:
        if clock.elapsed() > SHOT_TIMEOUT * 1000:
            shown = window()
            detail = "the window never showed" if shown is None else (
                f"preparing={shown.is_preparing()} rank_pending={shown.rank_pending()} "
                f"reading={shown.capture.reading_pending()} stage={stage['name']}")
            finish(3, f"not ready after {SHOT_TIMEOUT} s ({detail})")
            return
        shown = window()
        if shown is None:
            return
        if stage["shown_at"] is None:
            stage["shown_at"] = clock.elapsed()
        ready = (not shown.is_preparing() and not shown.rank_pending() and not shown.capture.reading_pending()
                 and clock.elapsed() - stage["shown_at"] >= START_MS)
        if stage["name"] == "window":
            if not steady(shown, ready):
                return
            if kind == "window":
                save(shown)
            elif kind == "capture":
                shown.showMaximized()  # the overlay covers the whole screen: let the window fill it
                stage["name"], stage["signature"] = "maximized", None
            elif kind == "review":
                if not shown.capture.open_image_file(image):
                    finish(1, f"the window could not read {image}")
                    return
                stage["name"], stage["signature"] = "review", None
        elif stage["name"] == "maximized":
            if not steady(shown, ready and shown.isMaximized()):
                return
            picker = shown.capture.capture_board()
            overlay = picker.show_selection(drag_rect(shown)) if picker is not None else None
            if overlay is None:
                finish(1, f"the capture overlay did not open ({shown.message_text() or 'no message'})")
                return
            stage["name"], stage["overlay"], stage["signature"] = "overlay", overlay, None
        elif stage["name"] == "overlay":
            if steady(shown, True):
                save(stage["overlay"])
        elif stage["name"] == "review":
            review = shown.capture.review
            box = shown.capture.message_box
            if review is None and box is not None and box.isVisible():
                finish(1, f"no review but a message: {box.text()} {box.informativeText()}")
                return
            if steady(shown, ready and review is not None and review.isVisible(),
                      (review.size().width(), review.size().height()) if review is not None else ()):
                save(review)

    timer = QTimer()
    timer.setInterval(100)
    timer.timeout.connect(poll)
    timer.start()
    # --screenshot: no session, no remembered geometry (the driver grabs long before its delay)
    code = app_main([*app_arguments, "--screenshot", out + ".unused.png", "--screenshot-delay", UNUSED_DELAY])
    if stage["why"]:
        print(stage["why"], file=sys.stderr)
    return code if code else stage["result"]


# -- the whole run ----------------------------------------------------------------------------------
def selected(only: list[str] | None) -> list[str]:
    if not only:
        return list(SHOT_NAMES)
    chosen = []
    for pattern in only:
        matches = [name for name in SHOT_NAMES if fnmatch.fnmatchcase(name, pattern)]
        if not matches:
            raise SystemExit(f"make_screenshots: no shot named {pattern!r}; shots: {' '.join(SHOT_NAMES)}")
        chosen.extend(name for name in matches if name not in chosen)
    return [name for name in SHOT_NAMES if name in chosen]


def prepare_kernels(games: list[str], env: dict[str, str]) -> None:
    """Every game's numba kernels in the cache before any window opens (the window would
    otherwise show "Preparing…" while its helper compiles them)."""
    began = time.monotonic()
    print(f"preparing kernels: {' '.join(games)} (minutes on a cold cache)…", flush=True)
    done = subprocess.run([sys.executable, "-m", "app.prepare", *games], env=env, cwd=PROJECT,
                          capture_output=True, text=True)
    if done.returncode:
        raise RuntimeError(f"python -m app.prepare failed ({done.returncode}): {done.stderr.strip()[-800:]}")
    print(f"kernels ready in {time.monotonic() - began:.0f} s", flush=True)


def run_shot(name: str, shot: dict, display: Display, folder: Path) -> str | None:
    """Take one shot into docs/screenshots; None when it worked, else why it failed."""
    settings = folder / f"settings-{name}"
    session = folder / f"session-{name}"
    settings.mkdir()
    session.mkdir()
    env = display.env({"KIBITZ_SETTINGS_DIR": str(settings), "KIBITZ_SESSION_DIR": str(session),
                       "PYTHONPATH": os.pathsep.join(filter(None, (str(PROJECT), os.environ.get("PYTHONPATH"))))})
    picture = folder / f"{name}.png"
    command = [sys.executable, str(Path(__file__).resolve()), "--drive", shot["kind"], str(picture)]
    if shot.get("image"):
        command += ["--image", shot["image"]]
    command += ["--", *shot["options"]]
    try:
        done = subprocess.run(command, env=env, cwd=shot["cwd"], capture_output=True, text=True,
                              timeout=SHOT_TIMEOUT + 60)
    except subprocess.TimeoutExpired:
        return f"no picture after {SHOT_TIMEOUT + 60} s (the process was stopped)"
    if done.returncode or not picture.is_file():
        lines = [line for line in done.stderr.splitlines() if line.strip()]
        return f"exit status {done.returncode}: " + (" | ".join(lines[-6:]) or "no message")
    if picture.read_bytes()[:8] != b"\x89PNG\r\n\x1a\n":
        return f"{picture} is not a PNG"
    shutil.move(str(picture), OUT_DIR / f"{name}.png")
    return None


def png_size(path: Path) -> tuple[int, int]:
    header = path.read_bytes()[16:24]
    return int.from_bytes(header[:4], "big"), int.from_bytes(header[4:], "big")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--only", nargs="+", metavar="NAME",
                        help=f"these shots only (wildcards allowed): {' '.join(SHOT_NAMES)}")
    parser.add_argument("--drive", nargs=2, metavar=("KIND", "OUT"), help=argparse.SUPPRESS)
    parser.add_argument("--image", help=argparse.SUPPRESS)
    parser.add_argument("app_arguments", nargs="*", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.drive:
        return drive(args.drive[0], args.drive[1], args.image, args.app_arguments)

    names = selected(args.only)
    data = reference_data()
    if not data.is_dir():
        print(f"make_screenshots: no reference data at {data} (set KIBITZ_REFERENCE_DATA)", file=sys.stderr)
        return 2
    OUT_DIR.mkdir(parents=True, exist_ok=True)
    began = time.monotonic()
    failures: dict[str, str] = {}
    display = Display(SCREEN)
    # a terminating signal stops the run through the finally below (Xvfb and openbox end too)
    signal.signal(signal.SIGTERM, lambda number, frame: sys.exit(128 + number))
    with tempfile.TemporaryDirectory(prefix="kibitz-screenshots-") as temporary:
        folder = Path(temporary)
        try:
            base_env = {**os.environ, "KIBITZ_SETTINGS_DIR": str(folder), "KIBITZ_SESSION_DIR": str(folder)}
            games = [game for game in GAMES if any(name.split("-")[0] == game for name in names)]
            if "capture" in names and "2048" not in games:
                games.append("2048")
            if "review" in names and "destructo" not in games:
                games.append("destructo")
            prepare_kernels(games, base_env)
            shots = shot_table(data, folder, set(names))
            print(f"display {display.start()} ({SCREEN}) with openbox", flush=True)
            for name, shot in shots.items():
                started = time.monotonic()
                print(f"{name:<18} {shot['command']}", flush=True)
                why = run_shot(name, shot, display, folder)
                if why is None:
                    width, height = png_size(OUT_DIR / f"{name}.png")
                    print(f"{'':<18} -> docs/screenshots/{name}.png {width}x{height} "
                          f"({time.monotonic() - started:.0f} s)", flush=True)
                else:
                    failures[name] = why
                    print(f"{'':<18} FAILED: {why}", flush=True)
        except (RuntimeError, OSError) as error:
            failures["(set-up)"] = str(error)
            print(f"make_screenshots: {error}", file=sys.stderr)
        except (KeyboardInterrupt, SystemExit):
            print("make_screenshots: interrupted; stopping Xvfb and openbox", file=sys.stderr)
            raise
        finally:
            display.stop()
    print(f"{len(names) - len(failures)} of {len(names)} shots in {time.monotonic() - began:.0f} s", flush=True)
    for name, why in failures.items():
        print(f"failed: {name}: {why}", file=sys.stderr)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
