"""What the verbs read: a file named on the command line, or text typed there (a board, a
HATETRIS replay code). Which of the two an argument is gets decided once, here, by how it looks
(:func:`names_a_file`), never by whether a file happens to be readable; every error about a
file's content names the file."""

from __future__ import annotations

import os
import re
from typing import Any

from engines.contract import Line
from engines.errors import KibitzInputError, NotationError
from engines.limits import read_text_file

#: endings of the files Kibitz reads and writes (sequences, boards, replays, saved states)
KNOWN_EXTENSIONS = ("txt", "kibitz", "json", "seq", "text", "replay", "log", "csv", "tsv")
#: the largest sequence or board file read (the longest real games are some tens of KB)
MAX_TEXT_FILE_BYTES = 16 * 1024 * 1024

_EXTENSION = re.compile(r"\.(" + "|".join(KNOWN_EXTENSIONS) + r")$", re.IGNORECASE)
_PATH_START = re.compile(r"(~|\.{1,2}[\\/]|[\\/]|[A-Za-z]:[\\/])")


def names_a_file(argument: str) -> bool:
    """Whether a FILE-or-text argument names a file: something exists there, or it looks like a
    path -- it ends in a known extension (``.txt``, ``.kibitz``, ...), or it is one word (no
    white space) that starts like a path (``/``, ``~``, ``./``, ``C:\\``) or holds a path
    separator and a letter. Board texts written on one line hold ``/`` between rows, but also
    white space or no letter at all (``#########./#...``); replay codes hold neither."""
    if not argument.strip() or "\n" in argument or "\x00" in argument:
        return False
    try:
        if os.path.lexists(argument):
            return True
    except (OSError, ValueError):  # a name too long for the system, say
        pass
    if _EXTENSION.search(argument.rstrip()):
        return True
    if any(character.isspace() for character in argument):
        return False
    separated = "/" in argument or os.sep in argument
    return bool(_PATH_START.match(argument)) or (separated and any(c.isascii() and c.isalpha() for c in argument))


def read_file(path: str) -> str:
    """A text file's content; "no such file", "is a folder", too large, not UTF-8 and an empty
    file are each a KibitzInputError naming the file."""
    text = read_text_file(os.path.expanduser(path) if path.startswith("~") else path, MAX_TEXT_FILE_BYTES)
    if not text.strip():
        raise KibitzInputError("the file is empty", source=path)
    return text


def read_argument(argument: str, typed_name: str) -> tuple[str, str]:
    """(text, source) of a FILE-or-text argument: the file's text and its name, or the typed
    text itself and ``typed_name`` ("the board text") to name it in errors."""
    if names_a_file(argument):
        return read_file(argument), argument
    if not argument.strip():
        raise KibitzInputError("is empty", source=typed_name)
    return argument, typed_name


def parse_line(game, text: str, source: str, format: str | None = None, **options: Any) -> Line:
    """A sequence text read by the game; a plain ValueError (an unknown format) becomes an
    input error naming ``source``."""
    try:
        return game.parse_sequence(text, source=source, format=format, **options)
    except KibitzInputError as error:
        raise error.located(source=source) from None
    except (ValueError, RecursionError) as error:
        raise KibitzInputError(str(error), source=source) from None


def replay_line(game, line: Line, source: str):
    """The position at the end of ``line``; an illegal move is reported naming ``source``."""
    try:
        return game.replay(line.start, line.moves)
    except KibitzInputError as error:
        raise error.located(source=source) from None


def load_line(game, path: str, format: str | None = None, **options: Any):
    """Read and replay a sequence file: (line, final state)."""
    text = read_file(path)
    line = parse_line(game, text, path, format, **options)
    return line, replay_line(game, line, path)


def _first_token(text: str, comment: str) -> str | None:
    for raw in text.splitlines():
        stripped = raw.strip()
        if stripped and not stripped.startswith(comment):
            return stripped.split()[0]
    return None


def read_position(game, argument: str, comment: str = "#", typed_name: str = "the board text"):
    """(position, source) of a FILE-or-text argument: a board (a position's text, perhaps with
    moves after it) or a move sequence from the start, replayed to its end. The text is a
    sequence from the start when its first token is a move; otherwise it is a board, or a
    board followed by moves (as the game's sequence files write a set-up start), and an error is
    the board's unless it is at a move after the board. ``source`` names the file, or
    ``typed_name`` for typed text."""
    text, source = read_argument(argument, typed_name)
    first = _first_token(text, comment)
    starts_with_a_move = False
    if first is not None:
        try:
            game.parse_move(first)
            starts_with_a_move = True
        except (ValueError, RecursionError):
            pass
    if starts_with_a_move:
        line = parse_line(game, text, source)
        return replay_line(game, line, source), source
    try:
        return game.parse_board(text), source
    except KibitzInputError as board_error:
        try:
            line = parse_line(game, text, source)
        except KibitzInputError as sequence_error:
            # a start board followed by moves: the error is the sequence's when it is at a move
            # after the board, else the board's own
            past_the_board = (sequence_error.location.move_number is not None
                              and (sequence_error.location.line or 0) > _first_line_number(text, comment))
            raise (sequence_error if past_the_board else board_error.located(source=source)) from None
        if not line.moves and line.start == game.initial_state():
            raise board_error.located(source=source) from None
        return replay_line(game, line, source), source
    except (ValueError, RecursionError) as error:
        raise NotationError(str(error), source=source) from None


def _first_line_number(text: str, comment: str) -> int:
    for number, raw in enumerate(text.splitlines(), start=1):
        if raw.strip() and not raw.strip().startswith(comment):
            return number
    return 1


def add_sequence_arguments(parser, game) -> None:
    """GAME FILE [--format F]: the arguments of the verbs that read a whole sequence file."""
    parser.add_argument("game", help="short name of the game, e.g. splt")
    parser.add_argument("file", help="the sequence file (HATETRIS: or the replay code itself)")
    parser.add_argument("--format", default=None, choices=game.sequence_formats if game else None,
                        help="the file's format (detected when omitted)")
