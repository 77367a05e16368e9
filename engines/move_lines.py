"""Sequence-file helpers shared by the games whose sequences are whitespace-separated move tokens
(HATETRIS, 2048, 1010!, Destruct-o-Match): reading the tokens with each bad one's place, finding
where each move's token is in the text, and writing them wrapped."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from typing import Any

from engines.errors import NotationError


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
