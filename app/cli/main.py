"""``kibitz``: the window (no verb, or window options) or one of the headless verbs, each in its
own module of this package (``app.cli.replay`` ...), with each game's own options and work declared
by its plug in :mod:`app.cli.games`.

Exit codes: 0 done; 1 bad input (the message names the file, line, move, token and why); 2 wrong
command-line usage; 3 a bug in Kibitz (a one-line message and a crash report file); 130 stopped
by Ctrl-C.
"""

from __future__ import annotations

import argparse
import difflib
import importlib
import os
import sys
import textwrap
import traceback
from collections.abc import Sequence
from datetime import datetime

from app.cli.options import Parser, UsageError
from app.cli.reporting import report_error
from app.cli.window import USAGE, add_window_options
from engines.errors import KibitzInputError

VERBS = ("replay", "convert", "advise", "review", "play", "search", "bench", "read")

DONE, BAD_INPUT, USAGE_ERROR, BUG, STOPPED = 0, 1, 2, 3, 130

EXIT_CODES = """exit codes:
  0    done
  1    bad input: the message names the file, line, column, move, token and why
  2    wrong command-line usage: an unknown verb, game or option, a value out of range
  3    a bug in Kibitz: a one-line message names the crash report written
  130  stopped by Ctrl-C"""


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line on ``argv`` (default: the process's arguments); returns the exit code.
    Nothing escapes as a traceback: bad input and usage errors are one line, and anything else
    is a bug, reported in one line that names a crash report file."""
    arguments = list(sys.argv[1:] if argv is None else argv)
    try:
        code = _dispatch(arguments)
        sys.stdout.flush()
        return code
    except BrokenPipeError:  # the reader of our output has gone (| head): end quietly
        _quiet_stdout()
        return DONE
    except KeyboardInterrupt:
        print("kibitz: stopped", file=sys.stderr)
        return STOPPED
    except Exception as error:  # the last resort: a bug, never a traceback on the terminal
        return _crash(error, arguments)


def _dispatch(arguments: list[str]) -> int:
    first = arguments[0] if arguments else None
    if first is None or first in VERBS or (first.startswith("-") and first not in ("-h", "--help", "--version")):
        from app.prepare import clear_stale_kernels

        clear_stale_kernels()  # before any kernel of an older Kibitz is loaded from numba's cache
    if first is None or (first.startswith("-") and first not in ("-h", "--help", "--version")):
        from app.gui import run

        return run(arguments)
    if first in ("-h", "--help"):
        help_parser().print_help()
        return DONE
    if first == "--version":
        print(f"kibitz {version()}")
        return DONE
    if first not in VERBS:
        close = difflib.get_close_matches(first, VERBS, n=1)
        hint = f"; did you mean {close[0]}?" if close else ""
        print(f"kibitz: unknown verb {first!r}{hint} (the verbs: {', '.join(VERBS)}; without a verb kibitz opens "
              "the window; kibitz --help lists everything)", file=sys.stderr)
        return USAGE_ERROR
    try:
        return run_verb(first, arguments[1:])
    except UsageError as error:
        print(error, file=sys.stderr)
        return USAGE_ERROR


# -- one verb -------------------------------------------------------------------------------------
def verb_module(verb: str):
    return importlib.import_module(f"app.cli.{verb}")


def _games():
    from engines import GAMES

    return GAMES


def _game_argument(verb: str, arguments: list[str]) -> str | None:
    """The game the verb's arguments name: the first that is a known game's short name, else
    the first that is neither an option nor an option's value (an unknown game), else the
    verb's default (None: none named, or help asked for)."""
    games = _games()
    for token in arguments:
        if token in games:
            return token
    if any(token in ("-h", "--help") for token in arguments):
        return None
    taking_values = _options_taking_values(verb)
    previous = None
    for token in arguments:
        if not token.startswith("-") and previous not in taking_values:
            return token
        previous = token
    return getattr(verb_module(verb), "DEFAULT_GAME", None)


def _options_taking_values(verb: str) -> set[str]:
    """The option strings of ``verb`` (its own and every game's) that take a value."""
    from app.cli.games import plug

    parsers = [verb_parser(verb, None)]
    for name in _games():
        add_options = plug(name).options.get(verb)
        if add_options is not None:
            parser = Parser(add_help=False)
            add_options(parser.add_argument_group())
            parsers.append(parser)
    return {option for parser in parsers for action in parser._actions if action.nargs != 0
            for option in action.option_strings}


def verb_parser(verb: str, game) -> Parser:
    """The parser of ``kibitz VERB`` for ``game`` (None: the verb's options and, in its help,
    every game's own)."""
    from app.cli.games import plug

    module = verb_module(verb)
    parser = Parser(prog=f"kibitz {verb}", description=textwrap.fill(getattr(module, "DESCRIPTION", module.SUMMARY), 78),
                    formatter_class=argparse.RawDescriptionHelpFormatter)
    module.add_arguments(parser, game)
    if game is not None:
        add_options = plug(game.short_name).options.get(verb)
        if add_options is not None:
            add_options(parser.add_argument_group(f"{game.title} options"))
        parser.epilog = EXIT_CODES
    else:
        parser.epilog = "\n\n".join([*(section for section in _games_options_help(verb)), EXIT_CODES])
    return parser


def _games_options_help(verb: str) -> list[str]:
    """Each game's own options of ``verb``, formatted as argparse formats an option group."""
    from app.cli.games import plug

    sections = []
    for name, game in _games().items():
        add_options = plug(name).options.get(verb)
        if add_options is None:
            continue
        parser = Parser(prog=f"kibitz {verb}", add_help=False)
        group = parser.add_argument_group(f"{game.title} options (kibitz {verb} {name} ...)")
        add_options(group)
        formatter = parser._get_formatter()
        formatter.start_section(group.title)
        formatter.add_arguments(group._group_actions)
        formatter.end_section()
        sections.append(formatter.format_help().rstrip())
    return sections


def run_verb(verb: str, arguments: list[str]) -> int:
    """Parse and run ``kibitz VERB ARGUMENTS``."""
    from app.cli.games import games_doing, plug

    module = verb_module(verb)
    name = _game_argument(verb, arguments)
    if name is None:
        try:
            verb_parser(verb, None).parse_args(arguments)  # prints the help, or says what is missing
        except SystemExit as exit_request:
            return int(exit_request.code or 0)
        return DONE
    games = _games()
    if name not in games:
        raise UsageError(f"kibitz {verb}: unknown game {name!r}; known games: {', '.join(sorted(games))}")
    game, game_plug = games[name], plug(name)
    if not module.GENERIC and verb not in game_plug.work:
        doing = ", ".join(games_doing(verb))
        raise UsageError(f"kibitz {verb}: {verb} takes {doing}, not {game.title} ({name})")
    try:
        args = verb_parser(verb, game).parse_args(arguments)
    except SystemExit as exit_request:  # --help
        return int(exit_request.code or 0)
    try:
        if verb in game_plug.work:
            return game_plug.work[verb](game, args)
        return module.run(game, game_plug, args)
    except KibitzInputError as error:
        return report_error(error, getattr(args, "json", False), name)


# -- kibitz --help --------------------------------------------------------------------------------
def help_parser() -> argparse.ArgumentParser:
    """The parser whose help is ``kibitz --help``: the window's options, the verbs, and every
    verb's options (each game's own too), and the exit codes."""
    parser = argparse.ArgumentParser(
        prog="kibitz", usage=USAGE, formatter_class=argparse.RawDescriptionHelpFormatter,
        description=textwrap.fill("Kibitz play-assistant. Without a verb it opens the window (the window options "
                                  "below; anything else is handed to Qt, e.g. -platform offscreen); with a verb it "
                                  "runs the engines headless.", 78),
    )
    parser.add_argument("--version", action="version", version=f"kibitz {version()}")
    add_window_options(parser.add_argument_group("window options (kibitz without a verb)"))
    verbs = parser.add_subparsers(dest="verb", metavar="VERB", title="verbs (kibitz VERB --help: its options)",
                                  prog="kibitz")
    for verb in VERBS:
        verbs.add_parser(verb, help=verb_module(verb).SUMMARY)
    parser.epilog = "\n\n".join([*_verbs_options_help(), EXIT_CODES])
    return parser


def _verbs_options_help() -> list[str]:
    sections = []
    for verb in VERBS:
        parser = verb_parser(verb, None)
        formatter = parser._get_formatter()
        formatter.add_usage(parser.usage, parser._actions, parser._mutually_exclusive_groups,
                            prefix=f"options of {verb}: ")
        for group in parser._action_groups:
            actions = [action for action in group._group_actions if not isinstance(action, argparse._HelpAction)]
            if actions and group.title not in ("positional arguments",):
                formatter.start_section(None)
                formatter.add_arguments(actions)
                formatter.end_section()
        sections.append(formatter.format_help().rstrip())
        sections.extend(_games_options_help(verb))
    return sections


def version() -> str:
    from importlib.metadata import PackageNotFoundError, version as installed_version

    try:
        return installed_version("kibitz")
    except PackageNotFoundError:
        return "(not installed)"


# -- endings ------------------------------------------------------------------------------------------
def _quiet_stdout() -> None:
    """Point standard output at the null device, so the interpreter's last flush at exit does
    not fail again on the closed pipe."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError, AttributeError):  # not a real file (a test's captured output)
        pass


def _crash(error: BaseException, arguments: list[str]) -> int:
    """Write what went wrong to a crash report file and say so in one line."""
    report = "".join(traceback.format_exception(error))
    text = (f"kibitz {version()} crashed on {datetime.now():%Y-%m-%d %H:%M:%S}\n"
            f"python {sys.version.split()[0]} on {sys.platform}\n"
            f"arguments: {arguments!r}\n\n{report}")
    path = _write_crash_report(text)
    where = f"the details are in {path}" if path else "no crash report could be written"
    print(f"kibitz: internal error ({type(error).__name__}): this is a bug in Kibitz, not in your input; {where}",
          file=sys.stderr)
    return BUG


def _write_crash_report(text: str):
    import tempfile
    from pathlib import Path

    from app.cli.data_folder import data_folder

    name = f"crash-{datetime.now():%Y%m%d-%H%M%S}-{os.getpid()}.txt"
    for folder in (data_folder() / "crash-reports", Path(tempfile.gettempdir())):
        try:
            folder.mkdir(parents=True, exist_ok=True)
            path = folder / name
            path.write_text(text, encoding="utf-8")
            return path
        except OSError:
            continue
    return None
