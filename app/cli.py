"""The command line: the window's options and the headless ``kibitz VERB ...`` commands (the
same engines as the window, for scripts). ``kibitz --help`` lists both.

Exit codes: 0 success, 1 bad input (the message says which file, line, move, token and why),
2 wrong command-line usage.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from typing import Any

VERBS = ("replay", "convert", "advise", "play", "search", "bench", "read")

USAGE = """kibitz [WINDOW OPTION ...]    open the window
       kibitz VERB ...               run the engines headless (kibitz VERB --help: its options)"""


# -- the window's options (app.gui.application reads them; kibitz --help lists them) ------------
def window_size(text: str) -> tuple[int, int]:
    match = re.fullmatch(r"\s*(\d+)\s*[xX]\s*(\d+)\s*", text)
    if not match:
        raise argparse.ArgumentTypeError(f"expected WIDTHxHEIGHT, got {text!r}")
    return int(match.group(1)), int(match.group(2))


def screen_rect(text: str) -> tuple[int, int, int, int] | str:
    if text.strip() == "board":
        return "board"
    match = re.fullmatch(r"\s*(-?\d+)\s*,\s*(-?\d+)\s*,\s*(\d+)\s*,\s*(\d+)\s*", text)
    if not match:
        raise argparse.ArgumentTypeError(f"expected X,Y,W,H or board, got {text!r}")
    return tuple(int(group) for group in match.groups())


def add_window_options(parser: argparse.ArgumentParser | argparse._ArgumentGroup) -> None:
    """The options of ``kibitz`` without a verb, which opens the window."""
    parser.add_argument("--game", choices=sorted(_games()),
                        help="the game to open (default: the session's last game, else splt; "
                        "with --position, --moves or --open: splt)")
    parser.add_argument("--position", metavar="TEXT",
                        help="start from this position: the game's board text, as Copy position gives it "
                        "(SPL-T: 'splits=1 score=1 | 0,0,8,8 0,8,8,8')")
    parser.add_argument("--moves", metavar="TEXT",
                        help="then play these moves, separated by spaces or ';' (SPL-T: the box to split by its "
                        "top-left corner x,y or as x,y,w,h: '0,0 0,8 0,8' from the empty board)")
    parser.add_argument("--open", metavar="FILE", help="open a sequence file as a new analysis")
    parser.add_argument("--at", type=int, metavar="N",
                        help="with --open: show the position after move N of the opened line (default: its end)")
    parser.add_argument("--layout", choices=("analysis", "compact"),
                        help="analysis (every panel) or compact (the board and the top candidates)")
    parser.add_argument("--size", type=window_size, metavar="WxH",
                        help="window size for this run (the remembered one is not used)")
    parser.add_argument("--screenshot", metavar="PATH", help="save the window as a PNG once shown, then quit")
    parser.add_argument("--screenshot-delay", type=int, default=800, metavar="MS",
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


def _games() -> dict[str, Any]:
    from engines import GAMES

    return GAMES


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="kibitz",
        usage=USAGE,
        description="Kibitz play-assistant. Without a verb it opens the window (the window options "
        "below; anything else is handed to Qt, e.g. -platform offscreen); with a verb it runs the "
        "engines headless.",
    )
    parser.add_argument("--version", action="version", version=f"kibitz {_version()}")
    add_window_options(parser.add_argument_group("window options (kibitz without a verb)"))
    verbs = parser.add_subparsers(dest="verb", metavar="VERB", title="verbs (kibitz VERB --help: its options)",
                                  prog="kibitz")

    replay = verbs.add_parser(
        "replay", help="replay a sequence file and report moves, score and whether the game is over"
    )
    replay.add_argument("game", help="short name of the game, e.g. splt")
    replay.add_argument("file", help="the sequence file (HATETRIS: or the replay code itself)")
    replay.add_argument("--format", default=None, help="the file's format (detected when omitted)")
    replay.add_argument("--json", action="store_true", help="print one JSON object")
    replay.add_argument("--mild", action="store_true", help="HATETRIS: replay against HATETRIS Mild")

    convert = verbs.add_parser("convert", help="rewrite a sequence file in another format")
    convert.add_argument("game")
    convert.add_argument("file")
    convert.add_argument("--to", required=True, help="target format, e.g. index or geometric for splt")
    convert.add_argument("--format", default=None, help="the input file's format (detected when omitted)")
    convert.add_argument("-o", "--output", help="write here (atomically) instead of standard output")

    from app import destructo_commands, g2048_commands, tenten_commands

    advise = verbs.add_parser("advise", help="rank the moves at the end of a sequence file (2048, 1010, destructo: "
                              "or of a board)")
    advise.add_argument("game")
    advise.add_argument("file", help="a sequence file (its end position is ranked); 2048, 1010 and destructo: or a "
                        "board text such as '2 4 . ./. . . ./. . . ./. . . .'")
    advise.add_argument("--format", default=None, help="the file's format (detected when omitted)")
    advise.add_argument("--json", action="store_true")
    advise.add_argument("--limit", type=int, default=10, help="1010!, Destruct-o-Match: list this many moves "
                        "(default 10)")
    g2048_commands.add_budget_options(advise)
    tenten_commands.add_options(advise)
    destructo_commands.add_options(advise)

    play = verbs.add_parser("play", help="play whole games with the advisor and report the scores (2048, 1010, "
                            "destructo)")
    play.add_argument("game")
    play.add_argument("--games", type=int, default=1, help="how many games (seeds SEED, SEED+1, ...)")
    play.add_argument("--seed", type=int, default=1, help="the first game's seed")
    play.add_argument("--max-moves", type=int, default=None, help="2048: stop each game after this many slides")
    play.add_argument("--rounds-cap", type=int, default=None, help="1010!: stop each game after this many rounds")
    play.add_argument("--json", action="store_true")
    g2048_commands.add_budget_options(play)
    tenten_commands.add_options(play)
    destructo_commands.add_options(play)

    from app import search_command

    search_command.add_parser(verbs)

    from app import read_command

    read_command.add_parser(verbs)

    bench = verbs.add_parser("bench", help="measure engine speed (random playouts, one core)")
    bench.add_argument("game", nargs="?", default="splt")
    bench.add_argument("--seconds", type=float, default=3.0, help="time per engine path (default 3)")
    bench.add_argument("--seed", type=int, default=1)
    bench.add_argument("--json", action="store_true")
    return parser


def _version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("kibitz")
    except PackageNotFoundError:
        return "(not installed)"


def main(argv: list[str]) -> int:
    args = _parser().parse_args(argv)
    if args.verb is None:
        _parser().print_help()
        return 2
    games = _games()
    if args.game not in games:
        known = ", ".join(sorted(games))
        print(f"kibitz: unknown game {args.game!r}; known games: {known}", file=sys.stderr)
        return 2
    from app import read_command, search_command

    handlers = {"replay": _replay, "convert": _convert, "advise": _advise, "play": _play,
                "search": search_command.run, "bench": _bench, "read": read_command.run}
    return handlers[args.verb](
        games[args.game], args
    )


def fail(message: str, as_json: bool, game: str, error: Exception | None = None) -> int:
    print(f"kibitz: {message}", file=sys.stderr)
    if as_json:
        payload: dict[str, Any] = {"game": game, "error": message}
        location = getattr(error, "location", None)
        if location is not None:
            for key in ("source", "line", "column", "move_number", "token"):
                value = getattr(location, key)
                if value is not None:
                    payload["move" if key == "move_number" else key] = value
            payload["reason"] = error.reason  # type: ignore[union-attr]
        print(json.dumps(payload))
    return 1


def load_line(game, path: str, format: str | None):
    """Read and replay a sequence file; returns (line, final state). Raises input errors."""
    from engines.files import read_text
    from engines.errors import KibitzInputError

    if format is not None and format not in game.sequence_formats:
        raise ValueError(f"unknown format {format!r} for {game.title}; known: {', '.join(game.sequence_formats)}")
    text = read_text(path)
    line = game.parse_sequence(text, source=path, format=format)
    try:
        final = game.replay(line.start, line.moves)
    except KibitzInputError as error:
        raise error.located(source=path) from None
    return line, final


def _replay(game, args) -> int:
    from engines.errors import KibitzInputError

    if game.short_name == "hatetris":
        return _replay_hatetris(game, args)
    try:
        line, final = load_line(game, args.file, args.format)
    except OSError as error:
        return fail(f"{args.file}: cannot read: {error.strerror or error}", args.json, game.short_name, None)
    except KibitzInputError as error:
        return fail(str(error), args.json, game.short_name, error)
    except ValueError as error:
        return fail(str(error), args.json, game.short_name, None)
    result = {
        "game": game.short_name,
        "moves": len(line.moves),
        "score": game.score(final),
        "over": game.is_over(final),
    }
    if args.json:
        print(json.dumps(result))
    else:
        print(f"{args.file}: {game.title}")
        print(f"moves  {result['moves']}")
        print(f"score  {result['score']}")
        print(f"over   {'yes' if result['over'] else 'no'}")
    return 0


def _replay_hatetris(game, args) -> int:
    """A replay code (or a file holding one) played as the official page plays it."""
    from app.hatetris_search import read_line
    from engines.errors import KibitzInputError
    from engines.hatetris import DEFAULT_RULES, MILD_RULES

    rules = MILD_RULES if args.mild else DEFAULT_RULES
    try:
        line = read_line(game, args.file, rules)
        final = game.replay(line.start, line.moves)
    except OSError as error:
        return fail(f"{args.file}: cannot read: {error.strerror or error}", args.json, game.short_name)
    except KibitzInputError as error:
        return fail(str(error), args.json, game.short_name, error)
    except ValueError as error:
        return fail(str(error), args.json, game.short_name)
    pieces = len(line.moves) + (0 if final.over else 1)  # every piece the AI sent
    result = {"game": "hatetris", "score": final.score, "pieces": pieces, "over": final.over,
              "placements": len(line.moves), "enemy": rules.enemy}
    if args.json:
        print(json.dumps(result))
    else:
        print(f"HATETRIS ({'HATETRIS Mild' if args.mild else 'HATETRIS'} enemy)")
        print(f"score  {final.score}")
        print(f"pieces {pieces}")
        print(f"over   {'yes' if final.over else 'no'}")
    return 0


def _play(game, args) -> int:
    if game.short_name == "destructo":
        from app import destructo_commands

        return destructo_commands.play(game, args)
    if game.short_name == "1010":
        from app import tenten_commands

        return tenten_commands.play(game, args)
    if game.short_name != "2048":
        print(f"kibitz: 'play' plays 2048, 1010 and destructo so far, not {game.title}", file=sys.stderr)
        return 2
    from app import g2048_commands

    return g2048_commands.play(game, args)


def _advise(game, args) -> int:
    from engines.errors import KibitzInputError

    if game.short_name == "2048":
        from app import g2048_commands

        return g2048_commands.advise(game, args)
    if game.short_name == "1010":
        from app import tenten_commands

        return tenten_commands.advise(game, args)
    if game.short_name == "destructo":
        from app import destructo_commands

        return destructo_commands.advise(game, args)
    if game.short_name != "splt":
        print(f"kibitz: no advisor for {game.title} yet", file=sys.stderr)
        return 2
    from advisors.splt.heuristic import rank

    try:
        line, final = load_line(game, args.file, args.format)
    except OSError as error:
        return fail(f"{args.file}: cannot read: {error.strerror or error}", args.json, game.short_name)
    except (KibitzInputError, ValueError) as error:
        return fail(str(error), args.json, game.short_name, error if isinstance(error, KibitzInputError) else None)
    candidates = rank(final)
    if args.json:
        print(json.dumps({
            "game": game.short_name,
            "moves": len(line.moves),
            "candidates": [
                {
                    "move": game.move_text(c.move), "index": c.index, "weight": c.score, "loss": c.loss,
                    "new_halving": c.new_halving, "halvings": c.halvings,
                    "unexpected_cluster": bool(c.unexpected), "explanation": c.explanation,
                }
                for c in candidates
            ],
        }))
        return 0
    print(f"{args.file}: {game.title} after {len(line.moves)} moves, score {game.score(final)}")
    if not candidates:
        print("game over: no legal move")
    for rank_number, c in enumerate(candidates, start=1):
        flags = ("H" if c.new_halving else "-") + ("U" if c.unexpected else "-")
        print(f"{rank_number:>2}. [{c.index:>3}] {game.move_text(c.move):<10} {c.score:>8.2f} {flags}  {c.explanation}")
        for warning in c.warnings:
            print(f"{'':22}! {warning}")
    return 0


def _convert(game, args) -> int:
    from engines.files import write_text_atomic
    from engines.errors import KibitzInputError

    if args.to not in game.sequence_formats:
        print(
            f"kibitz: unknown format {args.to!r} for {game.title}; known: {', '.join(game.sequence_formats)}",
            file=sys.stderr,
        )
        return 2
    try:
        line, _ = load_line(game, args.file, args.format)
        text = game.sequence_text(line, args.to)
    except OSError as error:
        return fail(f"{args.file}: cannot read: {error.strerror or error}", False, game.short_name)
    except (KibitzInputError, ValueError) as error:
        return fail(str(error), False, game.short_name)
    if args.output:
        try:
            write_text_atomic(args.output, text)
        except OSError as error:
            return fail(f"{args.output}: cannot write: {error.strerror or error}", False, game.short_name)
    else:
        sys.stdout.write(text if text.endswith("\n") else text + "\n")
    return 0


def _bench(game, args) -> int:
    from app import bench

    if game.short_name != "splt":
        print(f"kibitz: no benchmark for {game.title} yet", file=sys.stderr)
        return 2
    rows = bench.splt_playout_table(args.seconds, args.seed)
    if args.json:
        print(json.dumps({
            "game": "splt",
            "benchmark": "random playouts from the empty board, one core",
            "paths": [
                {
                    "path": row.path, "games": row.games, "splits": row.splits,
                    "seconds": round(row.seconds, 3), "splits_per_second": round(row.splits_per_second),
                    "games_per_second": round(row.games_per_second, 1), "mean_length": round(row.mean_length, 1),
                }
                for row in rows
            ],
        }))
        return 0
    print("SPL-T random playouts from the empty board, one core")
    print(f"{'path':<24} {'splits/s':>10} {'games/s':>9} {'games':>8} {'mean len':>9}")
    for row in rows:
        print(
            f"{row.path:<24} {row.splits_per_second:>10,.0f} {row.games_per_second:>9,.1f} "
            f"{row.games:>8,} {row.mean_length:>9.1f}"
        )
    return 0
