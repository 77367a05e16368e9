"""2048 texts: moves, the board, sequences, and the real game's saved state.

Board text: an optional header ``score 96`` (plus ``· spawn due`` or ``· 2 spawns due`` when tiles
are still to appear), then four rows top to bottom, tiles by value and ``.`` (or ``0``) for an empty
cell. The rows may also be written on one line separated by ``/``::

    score 96
       2    .    .    4
       .   16    .    .
       .    .    .    .
       .    .    .    2

Sequences: moves and spawns in play order, ``2@0,3 2@2,2 L 2@1,1 U ...`` (a spawn is
``value@row,column``, rows and columns 0..3 from the top-left), optionally after a board that the
line starts from; without one the line starts from the empty board with two spawns due.

The real game saves its position as JSON in ``localStorage["gameState"]`` (spec 1.6), cells column
first; :func:`game_state_json` writes it (so a position can be put on the real page) and
:func:`parse_board` reads it.
"""

from __future__ import annotations

import json
import re

from engines.contract import Line
from engines.errors import KibitzInputError, NotationError
from engines.limits import MAX_SCORE, check_int, load_json, parse_int, require
from engines.move_lines import board_and_moves_spans, read_board_and_moves, wrapped
from engines.g2048 import reference
from engines.g2048.state import CELLS, EMPTY_BOARD, SIZE, State, parse_move

SEQUENCE_FORMATS = ("moves",)
SEPARATOR = " · "


def start() -> State:
    """A new game: the empty board, two spawns due."""
    return State(EMPTY_BOARD, 0, 2)


def board_text(state: State) -> str:
    header = [f"score {state.score}"]
    if state.spawns_due == 1:
        header.append("spawn due")
    elif state.spawns_due == 2:
        header.append("2 spawns due")
    width = max(4, len(str(state.max_tile)) + 1)
    rows = ["".join(f"{state.value(r, c) or '.':>{width}}" for c in range(SIZE)) for r in range(SIZE)]
    return "\n".join([SEPARATOR.join(header), *rows])


_HEADER_PART = re.compile(r"score ([0-9]+)|spawn due|([0-9]) spawns due")


def parse_board(text: str, source: str | None = None, first_line: int = 1) -> State:
    """Read a board text (see the module's docstring) or the real game's saved-state JSON."""
    if text.lstrip().startswith("{"):
        return parse_game_state_json(text, source)
    lines = [(number, line.strip()) for number, line in enumerate(text.splitlines(), start=first_line)]
    lines = [(number, line) for number, line in lines if line and not line.startswith("#")]
    if not lines:
        raise NotationError("empty board: expected four rows of tiles such as '2 . . 4'", source=source,
                            line=first_line)
    score, due = 0, 0
    if lines[0][1].startswith("score") or lines[0][1].startswith("spawn"):
        header_line, header = lines.pop(0)
        for part in (p.strip() for p in re.split(r"·|\|", header)):
            match = _HEADER_PART.fullmatch(part)
            if match is None:
                raise NotationError("expected 'score N', 'spawn due' or '2 spawns due' in the header",
                                    source=source, line=header_line, token=part)
            if match.group(1) is not None:
                score = parse_int(match.group(1), "score", 0, MAX_SCORE, source=source, line=header_line, token=part)
            else:
                due = int(match.group(2)) if match.group(2) else 1
                if due not in (1, 2):
                    raise NotationError("one or two spawns can be due", source=source, line=header_line,
                                        token=part)
    rows: list[tuple[int, str]] = []
    for number, line in lines:
        rows.extend((number, part.strip()) for part in line.split("/") if part.strip())
    if len(rows) == 1 and len(rows[0][1].split()) == CELLS:
        number, tokens = rows[0][0], rows[0][1].split()
        rows = [(number, " ".join(tokens[SIZE * r:SIZE * r + SIZE])) for r in range(SIZE)]
    if len(rows) != SIZE:
        raise NotationError(f"a board has {SIZE} rows, found {len(rows)}", source=source,
                            line=rows[-1][0] if rows else first_line)
    exponents = []
    for number, row in rows:
        tokens = row.split()
        if len(tokens) != SIZE:
            raise NotationError(f"a row has {SIZE} cells, this one {len(tokens)}", source=source, line=number,
                                token=row)
        for token in tokens:
            exponents.append(_exponent(token, source, number))
    exponents = tuple(exponents)
    if due and 0 not in exponents:
        raise NotationError("a spawn is due but the board is full", source=source, line=lines[0][0])
    try:
        return State(exponents, score, due)
    except ValueError as error:
        raise NotationError(str(error), source=source, line=first_line) from None


def _exponent(token: str, source: str | None, line: int) -> int:
    if token in (".", "0", "-"):
        return 0
    if not (token.isascii() and token.isdigit()):
        raise NotationError("a cell is a tile value (2, 4, 8, ...) or '.' for empty", source=source, line=line,
                            token=token)
    value = int(token)
    if value < 2 or value & (value - 1) or value > 1 << 17:
        raise NotationError("a tile is a power of two from 2 to 131072", source=source, line=line, token=token)
    return value.bit_length() - 1


def game_state_json(state: State) -> str:
    """The real game's ``localStorage["gameState"]`` for this position (cells column first)."""
    cells = [[None if not state.value(y, x) else {"position": {"x": x, "y": y}, "value": state.value(y, x)}
              for y in range(SIZE)] for x in range(SIZE)]
    return json.dumps({"grid": {"size": SIZE, "cells": cells}, "score": state.score, "over": False,
                       "won": state.won, "keepPlaying": state.won})


def parse_game_state_json(text: str, source: str | None = None) -> State:
    """A position from the real game's saved state (``localStorage["gameState"]``)."""
    try:
        data = load_json(text, source)
        cells = require(require(data, "grid", dict, source), "cells", list, source)
        score = check_int(data.get("score", 0) if isinstance(data, dict) else 0, "score", 0, MAX_SCORE,
                          source=source)
    except KibitzInputError as error:
        raise NotationError(f"not the game's saved state: {error.reason}", error.location) from None
    if len(cells) != SIZE or any(
            not isinstance(column, list) or len(column) != SIZE for column in cells):
        raise NotationError("the saved grid is not 4 x 4", source=source)
    rows = [[0] * SIZE for _ in range(SIZE)]
    for x, column in enumerate(cells):
        for y, tile in enumerate(column):
            if tile is None:
                continue
            if not isinstance(tile, dict) or "value" not in tile:
                raise NotationError(f"cell x={x}, y={y} has no tile value", source=source)
            value = check_int(tile["value"], f"the tile of cell x={x}, y={y}", source=source)
            if value < 2 or value & (value - 1) or value > 1 << 17:
                raise NotationError(f"cell x={x}, y={y}: {value} is not a tile value", source=source,
                                    token=str(value))
            rows[y][x] = value
    return State.from_rows(rows, score)


def sequence_text(line: Line, format: str | None = None) -> str:
    if format not in (None, "moves"):
        raise ValueError(f"unknown 2048 sequence format {format!r}; known: moves")
    parts = []
    if line.start != start():
        parts.append(board_text(line.start))
    parts.extend(wrapped(line.moves, 20))
    return "\n".join(parts) + "\n"


def _sections(text: str) -> tuple[list[tuple[int, str]], list[tuple[int, str]]]:
    """The (line number, line) pairs of a sequence text's start board (none when the line
    starts from the empty board) and those of its moves; blank and ``#`` lines are in neither."""
    numbered = [(number, line) for number, line in enumerate(text.splitlines(), start=1)
                if line.strip() and not line.lstrip().startswith("#")]
    if numbered and numbered[0][1].lstrip().startswith(("score", "spawn")):
        return numbered[:SIZE + 1], numbered[SIZE + 1:]
    if numbered and "/" in numbered[0][1]:  # a board on one line: no move holds a '/'
        return numbered[:1], numbered[1:]
    rows = 0  # a board without a header: rows of tiles, which no move looks like
    while rows < min(SIZE, len(numbered)) and _is_board_row(numbered[rows][1]):
        rows += 1
    return numbered[:rows], numbered[rows:]


def _is_board_row(line: str) -> bool:
    return all(token in (".", "-") or token.isdigit() for token in line.split())


def parse_sequence(text: str, source: str | None = None, format: str | None = None) -> Line:
    return read_board_and_moves(text, source, format, "2048", _sections, start, parse_board, parse_move)


def sequence_move_spans(text: str, format: str | None = None) -> list[tuple[int, int]]:
    """(start, end) offsets of each move's token in a sequence text, in move order."""
    return board_and_moves_spans(text, format, "2048", _sections)


def spawn_outcomes(state: State):
    return reference.spawn_outcomes(state)
