"""``run(argv)``: start Qt, open the main window, return the event loop's exit code.

Options (all optional; anything else is handed to Qt, e.g. ``-platform offscreen``; they are
defined in app.cli, whose ``kibitz --help`` lists them with the headless verbs)::

    --game NAME            a key of engines.GAMES (default: the session's last game, else splt;
                           splt when --position, --moves or --open is given without it)
    --position TEXT        start from this position (the game's board text, as Copy gives)
    --moves TEXT           then play these moves, e.g. "0,0 0,0 0,0" (spaces or ';' between)
    --open FILE            open a sequence file as a new analysis
    --at N                 with --open: show the position after move N of the opened line
                           (default: its end); without --open it is an error (exit 2)
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

from app import cli, prepare
from app.gui.main_window import MainWindow
from app.gui.settings import APPLICATION, ORGANIZATION
from engines import GAMES
from engines.files import read_text


def _overlay_rect(window: MainWindow, wanted: tuple[int, int, int, int] | str) -> QRectF:
    """The rectangle --capture-overlay names, in logical screen coordinates."""
    if wanted != "board":
        return QRectF(*wanted)
    board = window.board
    corner = board.mapToGlobal(board.rect().topLeft())
    return QRectF(corner.x(), corner.y(), board.width(), board.height()).adjusted(-6, -6, 6, 6)


def _parser() -> argparse.ArgumentParser:
    return cli.window_parser()


def settle_memory() -> None:
    """Move everything alive after start-up (Qt, numba, the session) out of the garbage
    collector's sight: a full collection of those ~300,000 objects stalls the window for
    ~80 ms, and they live as long as the process. (No collection first: that one collection
    was itself the window's longest stall at start-up.)"""
    gc.freeze()


def run(argv: list[str]) -> int:
    """Open the window and run Qt's event loop; returns its exit code (2 for bad options)."""
    try:
        if "-h" in argv or "--help" in argv:  # the whole command line's help, verbs included
            return cli.main(["--help"])
        options, qt_arguments = _parser().parse_known_args(argv)
    except SystemExit as exit_request:  # --help or a bad option: argparse has printed why
        return int(exit_request.code or 0)
    problem = cli.window_option_error(options)
    if problem:
        print(f"kibitz: {problem}", file=sys.stderr)
        return 2

    # what --position, --moves and --open are read as is the game the window opens
    game_name = options.game or ("splt" if options.position or options.moves or options.open else None)
    game = GAMES[game_name or "splt"]
    if (options.position or options.moves or options.open) and not prepare.is_prepared(game.short_name):
        # these are checked before any window opens: prepare the kernels first, in a process of
        # their own, as the window would (their cache then serves this process too)
        print(f"kibitz: preparing the {game.title} engine (first use: its kernels compile once)…", file=sys.stderr)
        subprocess.run([*prepare.HELPER_COMMAND, game.short_name], check=False, stdout=subprocess.DEVNULL,
                       env=prepare.helper_environment(os.environ))
    # each option's text checked on its own, so that its error names the option
    texts = [token for token in re.split(r"[;\s]+", options.moves or "") if token]
    start = None  # (a plain start needs no check: making it may need kernels not ready yet)
    try:
        option = "--position"
        if options.position:
            start = game.parse_board(options.position)
        option = "--moves"
        moves = []
        for number, token in enumerate(texts, 1):
            try:
                moves.append(game.parse_move(token))
            except ValueError as error:
                raise ValueError(f"move {number}: {error}") from None
        if moves:
            start = start if start is not None else game.initial_state()
            game.replay(start, moves)  # refuse a bad sequence before any window opens
    except ValueError as error:
        print(f"kibitz: {option}: {error}", file=sys.stderr)
        return 2
    try:
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
        game_name,
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
