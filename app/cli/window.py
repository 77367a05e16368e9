"""The window's options (``kibitz`` without a verb): :mod:`app.gui.application` reads them with
:func:`window_parser`; ``kibitz --help`` lists them with the verbs."""

from __future__ import annotations

import argparse
import re

from app.cli.options import whole_number

USAGE = """kibitz [WINDOW OPTION ...]    open the window
       kibitz VERB ...               run the engines headless (kibitz VERB --help: its options)"""

#: the largest window side and screen coordinate taken (pixels)
MAX_PIXELS = 100_000


def window_size(text: str) -> tuple[int, int]:
    match = re.fullmatch(r"\s*(\d{1,6})\s*[xX]\s*(\d{1,6})\s*", text)
    if not match or not all(1 <= int(side) <= MAX_PIXELS for side in match.groups()):
        raise argparse.ArgumentTypeError(f"expected WIDTHxHEIGHT, each from 1 to {MAX_PIXELS:,}, got {text!r}")
    return int(match.group(1)), int(match.group(2))


def screen_rect(text: str) -> tuple[int, int, int, int] | str:
    if text.strip() == "board":
        return "board"
    match = re.fullmatch(r"\s*(-?\d{1,6})\s*,\s*(-?\d{1,6})\s*,\s*(\d{1,6})\s*,\s*(\d{1,6})\s*", text)
    if not match or not all(abs(int(value)) <= MAX_PIXELS for value in match.groups()):
        raise argparse.ArgumentTypeError(f"expected X,Y,W,H (each within {MAX_PIXELS:,}) or board, got {text!r}")
    return tuple(int(group) for group in match.groups())  # type: ignore[return-value]


def add_window_options(parser: argparse.ArgumentParser | argparse._ArgumentGroup) -> None:
    """The options of ``kibitz`` without a verb, which opens the window."""
    from engines import GAMES

    parser.add_argument("--game", choices=sorted(GAMES),
                        help="the game to open (default: the session's last game, else splt; "
                        "with --position, --moves or --open: splt)")
    parser.add_argument("--position", metavar="TEXT",
                        help="start from this position: the game's board text, as Copy position gives it "
                        "(SPL-T: 'splits=1 score=1 | 0,0,8,8 0,8,8,8')")
    parser.add_argument("--moves", metavar="TEXT",
                        help="then play these moves, separated by spaces or ';' (SPL-T: the box to split by its "
                        "top-left corner x,y or as x,y,w,h: '0,0 0,8 0,8' from the empty board)")
    parser.add_argument("--open", metavar="FILE", help="open a sequence file as a new analysis")
    parser.add_argument("--at", type=whole_number(0, 10 ** 9), metavar="N",
                        help="with --open: show the position after move N of the opened line (default: its end)")
    parser.add_argument("--layout", choices=("analysis", "compact"),
                        help="analysis (every panel) or compact (the board and the top candidates)")
    parser.add_argument("--size", type=window_size, metavar="WxH",
                        help="window size for this run (the remembered one is not used)")
    parser.add_argument("--screenshot", metavar="PATH", help="save the window as a PNG once shown, then quit")
    parser.add_argument("--screenshot-delay", type=whole_number(0, 600_000), default=800, metavar="MS",
                        help="wait this long before the screenshot (default 800)")
    parser.add_argument("--capture-overlay", type=screen_rect, metavar="X,Y,W,H|board",
                        help="open the capture overlay with this rectangle dragged (with --screenshot: save it)")


def window_parser() -> argparse.ArgumentParser:
    """The window's options alone (anything else is left for Qt, e.g. ``-platform offscreen``)."""
    parser = argparse.ArgumentParser(prog="kibitz", usage=USAGE, add_help=False)
    add_window_options(parser)
    return parser


def window_option_error(options: argparse.Namespace) -> str | None:
    """Why the window's options do not go together, or None when they do."""
    if options.at is not None and not options.open:
        return (f"--at {options.at} needs --open FILE: it shows the position after move {options.at} "
                "of the opened sequence file")
    return None
