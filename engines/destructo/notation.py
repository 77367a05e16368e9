"""Destruct-o-Match board text: one token per cell, rows top to bottom.

A token is a colour letter (``g`` green, ``a`` grey, ``b`` blue, ``o`` orange, ``y`` yellow, ``k``
black, ``r`` red, ``p`` purple, ``w`` white; any other lower-case letter is a colour too, for the
levels whose palettes are unknown), followed by a power-up letter when the boulder carries one (``O``
Overkill, ``M`` Multiplier, ``T`` Timer, ``F`` Fill, ``S`` Shuffle, ``U`` Undo); ``X`` is an Explode,
``W`` a Wild, ``Z`` a Morph and ``.`` an empty cell::

    g  g  a  bM
    o  X  a  a
    .  g  W  b
"""

from __future__ import annotations

import re

from engines.destructo.rules import (EXPLODE, FILL, MORPH, MULTIPLY, OVERKILL, SHUFFLE, TIMER, UNDO, WILD, Board,
                                     Boulder)
from engines.errors import NotationError

COLOUR_LETTERS = {"g": "green", "a": "grey", "b": "blue", "o": "orange", "y": "yellow", "k": "black", "r": "red",
                  "p": "purple", "w": "white"}
LETTER_OF_COLOUR = {name: letter for letter, name in COLOUR_LETTERS.items()}
POWER_LETTERS = {"O": OVERKILL, "M": MULTIPLY, "T": TIMER, "F": FILL, "S": SHUFFLE, "U": UNDO}
LETTER_OF_POWER = {power: letter for letter, power in POWER_LETTERS.items()}
COLOURLESS_TOKENS = {"X": EXPLODE, "W": WILD, "Z": MORPH}
TOKEN_OF_COLOURLESS = {power: token for token, power in COLOURLESS_TOKENS.items()}


def cell_token(boulder: Boulder | None) -> str:
    if boulder is None:
        return "."
    if boulder.colour is None:
        return TOKEN_OF_COLOURLESS[boulder.power]
    letter = LETTER_OF_COLOUR.get(boulder.colour, boulder.colour)
    return letter + (LETTER_OF_POWER[boulder.power] if boulder.power else "")


def parse_cell(token: str) -> Boulder | None:
    """A cell's token (see the module's docstring); NotationError says why one is not."""
    if token == ".":
        return None
    if token in COLOURLESS_TOKENS:
        return Boulder(None, COLOURLESS_TOKENS[token])
    letter, power = token[:1], token[1:]
    if len(letter) != 1 or not letter.islower() or not letter.isalpha():
        raise NotationError("a cell is a colour letter (g a b o y k r p w ...), X, W, Z or '.'", token=token)
    if power and power not in POWER_LETTERS:
        raise NotationError(f"after the colour comes a power-up letter ({' '.join(POWER_LETTERS)})", token=token)
    return Boulder(COLOUR_LETTERS.get(letter, letter), POWER_LETTERS.get(power) if power else None)


def board_text(board: Board) -> str:
    width = max((len(cell_token(cell)) for row in board for cell in row), default=1) + 1
    return "\n".join("".join(f"{cell_token(cell):<{width}}" for cell in row).rstrip() for row in board)


def parse_board(text: str, source: str | None = None, first_line: int = 1) -> Board:
    """Rows of cell tokens, top to bottom, all of one width; empty cells only above boulders
    (boulders fall)."""
    rows = []
    numbers = []
    for number, line in enumerate(text.splitlines(), start=first_line):
        if not line.strip():
            continue
        cells = []
        for match in re.finditer(r"\S+", line):
            try:
                cells.append(parse_cell(match.group()))
            except NotationError as error:
                raise error.located(source=source, line=number, column=match.start() + 1) from None
        rows.append(tuple(cells))
        numbers.append(number)
    if not rows:
        raise NotationError("empty board: expected rows of cells such as 'g g a bM'", source=source, line=first_line)
    width = len(rows[0])
    for number, row in zip(numbers, rows):
        if len(row) != width:
            raise NotationError(f"every row has {width} cells as the first does; this one {len(row)}", source=source,
                                line=number)
    for c in range(width):
        for r in range(1, len(rows)):
            if rows[r][c] is None and rows[r - 1][c] is not None:
                raise NotationError(f"column {c + 1} has a boulder over an empty cell: boulders fall", source=source,
                                    line=numbers[r], column=c + 1)
    return tuple(rows)
