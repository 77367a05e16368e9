"""``run(argv)``: start Qt, open the main window, return the event loop's exit code.

Options (all optional; anything else is handed to Qt, e.g. ``-platform offscreen``)::

    --game NAME            a key of engines.GAMES (default: the session's last game, else splt)
    --position TEXT        start from this position (the game's board text, as Copy gives)
    --moves TEXT           then play these moves, e.g. "0,0 0,0 0,0" (spaces or ';' between)
    --open FILE            open a sequence file as a new analysis
    --at N                 show the position after move N of the opened line (default: its end)
    --layout NAME          analysis (every panel) or compact (board and top candidates)
    --size WxH             window size for this run (the remembered geometry is not used)
    --screenshot PATH      save the window as a PNG once shown, then quit (visual checks, no CI)
    --screenshot-delay MS  wait this long first (default 800: the turn highlight has faded)
    --capture-overlay R    then open the capture overlay with rectangle R dragged: X,Y,W,H (logical
                           screen coordinates) or "board" (around the window's board); with
                           --screenshot the overlay is saved (the docs' screenshot)
"""

from __future__ import annotations

import argparse
import gc
import os
import re
import subprocess
import sys

from PySide6.QtCore import QRectF, QTimer
from PySide6.QtWidgets import QApplication

from app import prepare
from app.gui.main_window import MainWindow
from app.gui.preparation import PROJECT_ROOT
from app.gui.settings import APPLICATION, ORGANIZATION
from engines import GAMES
from engines.files import read_text


def _size(text: str) -> tuple[int, int]:
    match = re.fullmatch(r"\s*(\d+)\s*[xX]\s*(\d+)\s*", text)
    if not match:
        raise argparse.ArgumentTypeError(f"expected WIDTHxHEIGHT, got {text!r}")
    return int(match.group(1)), int(match.group(2))


def _rect(text: str) -> tuple[int, int, int, int] | str:
    if text.strip() == "board":
        return "board"
    match = re.fullmatch(r"\s*(-?\d+)\s*,\s*(-?\d+)\s*,\s*(\d+)\s*,\s*(\d+)\s*", text)
    if not match:
        raise argparse.ArgumentTypeError(f"expected X,Y,W,H or board, got {text!r}")
    return tuple(int(group) for group in match.groups())


def _overlay_rect(window: MainWindow, wanted: tuple[int, int, int, int] | str) -> QRectF:
    """The rectangle --capture-overlay names, in logical screen coordinates."""
    if wanted != "board":
        return QRectF(*wanted)
    board = window.board
    corner = board.mapToGlobal(board.rect().topLeft())
    return QRectF(corner.x(), corner.y(), board.width(), board.height()).adjusted(-6, -6, 6, 6)


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="kibitz", description="Open the Kibitz window.")
    parser.add_argument("--game", choices=sorted(GAMES), help="the game to open (default: the last one)")
    parser.add_argument("--position", metavar="TEXT", help="start from this position (board text)")
    parser.add_argument("--moves", metavar="TEXT", help="moves to play first, separated by spaces or ';'")
    parser.add_argument("--open", metavar="FILE", help="open a sequence file as a new analysis")
    parser.add_argument("--at", type=int, metavar="N", help="show the position after move N of the opened line")
    parser.add_argument("--layout", choices=("analysis", "compact"), help="the window layout for this run")
    parser.add_argument("--size", type=_size, metavar="WxH", help="window size for this run")
    parser.add_argument("--screenshot", metavar="PATH", help="save the window as PNG once shown, then quit")
    parser.add_argument("--screenshot-delay", type=int, default=800, metavar="MS", help="wait before the screenshot")
    parser.add_argument("--capture-overlay", type=_rect, metavar="X,Y,W,H|board",
                        help="open the capture overlay with this rectangle dragged (with --screenshot: save it)")
    return parser


def settle_memory() -> None:
    """Move everything alive after start-up (Qt, numba, the session) out of the garbage
    collector's sight: a full collection of those ~300,000 objects stalls the window for
    ~80 ms, and they live as long as the process."""
    gc.collect()
    gc.freeze()


def run(argv: list[str]) -> int:
    """Open the window and run Qt's event loop; returns its exit code (2 for bad options)."""
    try:
        options, qt_arguments = _parser().parse_known_args(argv)
    except SystemExit as exit_request:  # --help or a bad option: argparse has printed why
        return int(exit_request.code or 0)

    game = GAMES[options.game or "splt"]
    if (options.position or options.moves or options.open) and not prepare.is_prepared(game.short_name):
        # these are checked before any window opens: prepare the kernels first, in a process of
        # their own, as the window would (their cache then serves this process too)
        print(f"kibitz: preparing the {game.title} engine (first use: its kernels compile once)…", file=sys.stderr)
        subprocess.run([sys.executable, "-m", "app.prepare", game.short_name], check=False,
                       env={**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, (str(PROJECT_ROOT), os.environ.get("PYTHONPATH"))))})
    try:
        texts = [token for token in re.split(r"[;\s]+", options.moves or "") if token]
        moves = [game.parse_move(token) for token in texts]
        start = None  # (a plain start needs no check: making it may need kernels not ready yet)
        if options.position or moves:
            start = game.parse_board(options.position) if options.position else game.initial_state()
            game.replay(start, moves)  # refuse a bad sequence before any window opens
        if options.open:
            opened = game.parse_sequence(read_text(options.open), source=options.open)
            game.replay(opened.start, opened.moves)
            if options.at is not None and not 0 <= options.at <= len(opened.moves):
                raise ValueError(f"--at {options.at}: {options.open} has {len(opened.moves)} moves")
    except OSError as error:
        print(f"kibitz: cannot read {options.open}: {error.strerror or error}", file=sys.stderr)
        return 2
    except ValueError as error:
        print(f"kibitz: {error}", file=sys.stderr)
        return 2

    app = QApplication.instance()
    if app is None:
        app = QApplication([sys.argv[0] if sys.argv else "kibitz", *qt_arguments])
    app.setOrganizationName(ORGANIZATION)
    app.setApplicationName(APPLICATION)

    screenshot_run = options.screenshot is not None
    window = MainWindow(
        options.game,
        remember_geometry=not (screenshot_run or options.size),
        session_store=False if screenshot_run else None,
    )
    if options.layout:
        window.set_layout(options.layout)
    if options.size:
        window.resize(*options.size)
    if options.position or moves:
        window.load_position(start)
    for move in moves:
        window.play(move)
    if options.open:
        window.open_sequence(options.open)
        if options.at is not None:
            window.tree.go_to(window.tree.main_line()[options.at])
    window.show()
    QTimer.singleShot(0, settle_memory)

    overlay = {}
    if options.capture_overlay is not None:

        def open_overlay() -> None:
            picker = window.capture.capture_board()
            if picker is not None:
                overlay["shown"] = picker.show_selection(_overlay_rect(window, options.capture_overlay))

        QTimer.singleShot(max(0, options.screenshot_delay // 2), open_overlay)

    if screenshot_run:
        outcome = {"code": 0}

        def save_and_quit() -> None:
            shown = overlay.get("shown") or window
            if not shown.grab().save(options.screenshot, "PNG"):
                print(f"kibitz: could not write {options.screenshot}", file=sys.stderr)
                outcome["code"] = 1
            if window.capture.picker is not None:
                window.capture.picker.close()
            window.close()
            app.exit(outcome["code"])

        QTimer.singleShot(max(0, options.screenshot_delay), save_and_quit)

    code = app.exec()
    window.deleteLater()
    return code
