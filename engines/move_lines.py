"""Sequence-file helpers shared by the games whose sequences are whitespace-separated move tokens
(HATETRIS, 2048, 1010!, Destruct-o-Match): reading the tokens with each bad one's place, finding
where each move's token is in the text, and writing them wrapped."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from typing import Any

from engines.contract import Line
from engines.errors import NotationError

#: (line number, text) pairs of the start board's lines and of the move lines of a sequence text
Sections = Callable[[str], tuple[list[tuple[int, str]], list[tuple[int, str]]]]


def read_moves(numbered_lines: Iterable[tuple[int, str]], parse_move: Callable[[str], Any],
               source: str | None = None) -> tuple[Any, ...]:
    """The moves of (line number, text) pairs, token by token; a token ``parse_move`` refuses is
    reported with its file, line, column and move number."""
    moves: list[Any] = []
    for number, line in numbered_lines:
        for match in re.finditer(r"\S+", line):
            try:
                moves.append(parse_move(match.group()))
            except NotationError as error:
                raise error.located(source=source, line=number, column=match.start() + 1,
                                    move_number=len(moves) + 1) from None
    return tuple(moves)


def line_offsets(text: str) -> list[int]:
    """The character offset in ``text`` of each line's start, as ``str.splitlines`` numbers the
    lines (line n starts at ``offsets[n - 1]``)."""
    offsets = []
    position = 0
    for line in text.splitlines(keepends=True):
        offsets.append(position)
        position += len(line)
    return offsets


def token_spans(text: str, numbered_lines: Iterable[tuple[int, str]]) -> list[tuple[int, int]]:
    """(start, end) offsets in ``text`` of the tokens :func:`read_moves` reads from the same
    (line number, line) pairs, in move order: where each move is written. The lines must be
    ``text.splitlines()``'s, numbered from 1."""
    offsets = line_offsets(text)
    spans = []
    for number, line in numbered_lines:
        base = offsets[number - 1]
        spans.extend((base + match.start(), base + match.end()) for match in re.finditer(r"\S+", line))
    return spans


def wrapped(moves: Iterable[Any], per_line: int) -> list[str]:
    """The moves' texts, ``per_line`` to a line."""
    words = [str(move) for move in moves]
    return [" ".join(words[i:i + per_line]) for i in range(0, len(words), per_line)]


def _check_moves_format(format: str | None, title: str) -> None:
    if format not in (None, "moves"):
        raise ValueError(f"unknown {title} sequence format {format!r}; known: moves")


def read_board_and_moves(text: str, source: str | None, format: str | None, title: str, sections: Sections,
                         start: Callable[[], Any], parse_board: Callable[..., Any],
                         parse_move: Callable[[str], Any]) -> Line:
    """A sequence written as an optional start board then move tokens (2048, 1010!): the board's
    lines and the moves' lines as ``sections`` splits them, each read with its place in the file."""
    _check_moves_format(format, title)
    board_lines, move_lines = sections(text)
    begin = start()
    if board_lines:
        begin = parse_board("\n".join(line for _, line in board_lines), source, first_line=board_lines[0][0])
    return Line(begin, read_moves(move_lines, parse_move, source))


def board_and_moves_spans(text: str, format: str | None, title: str, sections: Sections) -> list[tuple[int, int]]:
    """(start, end) offsets of each move's token in such a text, in move order (the start board's
    header and rows hold none)."""
    _check_moves_format(format, title)
    return token_spans(text, sections(text)[1])
