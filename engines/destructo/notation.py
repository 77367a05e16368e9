"""Destruct-o-Match board text: one token per cell, rows top to bottom.

A token is a colour letter (``g`` green, ``a`` grey, ``b`` blue, ``o`` orange, ``y`` yellow, ``k``
black, ``r`` red, ``p`` purple, ``w`` white; any other lower-case letter is a colour too, for the
levels whose palettes are unknown), followed by a power-up letter when the boulder carries one (``O``
Overkill, ``M`` Multiplier, ``T`` Timer, ``F`` Fill, ``S`` Shuffle, ``U`` Undo); ``X`` is an Explode,
``W`` a Wild, ``Z`` a Morph, ``I`` an Indestructible boulder (an expired Timer's) and ``.`` an
empty cell::

    g  g  a  bM
    o  X  a  a
    .  g  W  b
"""

from __future__ import annotations

import re

from engines.destructo.rules import (EXPLODE, FILL, INDESTRUCTIBLE, MORPH, MULTIPLY, OVERKILL, SHUFFLE, TIMER, UNDO,
                                     WILD, Board, Boulder)
from engines.destructo.state import LEVELS, MAX_SIDE, FillRow, NewBoard, State
from engines.destructo.state import parse_move as parse_click
from engines.errors import NotationError
from engines.limits import MAX_SCORE, parse_int

#: The compiled core keeps a colour in four bits.
MAX_COLOURS = 15
COLOUR_LETTERS = {"g": "green", "a": "grey", "b": "blue", "o": "orange", "y": "yellow", "k": "black", "r": "red",
                  "p": "purple", "w": "white"}
LETTER_OF_COLOUR = {name: letter for letter, name in COLOUR_LETTERS.items()}
POWER_LETTERS = {"O": OVERKILL, "M": MULTIPLY, "T": TIMER, "F": FILL, "S": SHUFFLE, "U": UNDO}
LETTER_OF_POWER = {power: letter for letter, power in POWER_LETTERS.items()}
COLOURLESS_TOKENS = {"X": EXPLODE, "W": WILD, "Z": MORPH, "I": INDESTRUCTIBLE}
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
        raise NotationError("a cell is a colour letter (g a b o y k r p w ...), X, W, Z, I or '.'", token=token)
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
        if len(rows) == MAX_SIDE:
            raise NotationError(f"a board has at most {MAX_SIDE} rows (the real game's have about 12)",
                                source=source, line=number)
        cells = []
        for match in re.finditer(r"\S+", line):
            if len(cells) == MAX_SIDE:
                raise NotationError(f"a row has at most {MAX_SIDE} cells (the real game's have about 14)",
                                    source=source, line=number, column=match.start() + 1)
            try:
                cells.append(parse_cell(match.group()))
            except NotationError as error:
                raise error.located(source=source, line=number, column=match.start() + 1) from None
        rows.append(tuple(cells))
        numbers.append(number)
    if not rows:
        raise NotationError("empty board: expected rows of cells such as 'g g a bM'", source=source, line=first_line)
    width = len(rows[0])
    colours = {cell.colour for row in rows for cell in row if cell is not None and cell.colour is not None}
    if len(colours) > MAX_COLOURS:
        raise NotationError(f"a board has at most {MAX_COLOURS} colours (the real game's last level has 9); this "
                            f"one has {len(colours)}", source=source, line=first_line)
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


# -- positions, moves and sequences -----------------------------------------------------------------
def state_text(state: State) -> str:
    """``level 3 · score 1234 · shuffle 1 · undo 0`` (plus ``· due level`` / ``fill`` /
    ``shuffle``, or ``· over``), then the board's rows (none while a level's board is due), then,
    when the last click can be taken back, a line ``undo board:`` and the board before it."""
    header = [f"level {state.level}", f"score {state.score}", f"shuffle {state.shuffles}", f"undo {state.undos}"]
    if state.finished:
        header.append("over")
    elif state.due is not None:
        header.append(f"due {state.due}")
    lines = [" · ".join(header)]
    if state.board:
        lines.append(board_text(state.board))
    if state.undo_board:
        lines.append(UNDO_BOARD_LINE)
        lines.append(board_text(state.undo_board))
    return "\n".join(lines)


UNDO_BOARD_LINE = "undo board:"


_HEADER_PART = re.compile(r"level ([0-9]+)|score ([0-9]+)|shuffle ([01])|undo ([01])|due (level|fill|shuffle)|over")


def parse_state(text: str, source: str | None = None, first_line: int = 1) -> State:
    """A position's text (see :func:`state_text`); a text of rows alone is a level-1 board in play.
    On one line, ``/`` separates the rows (and the header): ``a g g/g a a``."""
    if "\n" not in text.strip() and "/" in text:
        text = text.replace("/", "\n")
    lines = [(number, line) for number, line in enumerate(text.splitlines(), start=first_line) if line.strip()]
    if not lines:
        raise NotationError("empty position", source=source, line=first_line)
    fields = {"level": 1, "score": 0, "shuffles": 0, "undos": 0, "due": None, "finished": False}
    if lines[0][1].lstrip().startswith("level"):
        number, header = lines.pop(0)
        for part in (p.strip() for p in re.split(r"·|\|", header)):
            match = _HEADER_PART.fullmatch(part)
            if match is None:
                raise NotationError("expected level N, score N, shuffle 0/1, undo 0/1, due level/fill/shuffle or "
                                    "over in the header", source=source, line=number, token=part)
            level, score, shuffles, undos, due = match.groups()
            if level is not None:
                fields["level"] = parse_int(level, "level", 1, LEVELS, source=source, line=number, token=part)
            elif score is not None:
                fields["score"] = parse_int(score, "score", 0, MAX_SCORE, source=source, line=number, token=part)
            elif shuffles is not None:
                fields["shuffles"] = int(shuffles)
            elif undos is not None:
                fields["undos"] = int(undos)
            elif due is not None:
                fields["due"] = due
            else:
                fields["finished"] = True
    undo_lines: list = []
    for index, (_, line) in enumerate(lines):
        if line.strip() == UNDO_BOARD_LINE:
            undo_line = lines[index][0]
            lines, undo_lines = lines[:index], lines[index + 1:]
            if not undo_lines:
                raise NotationError("'undo board:' is followed by the board before the last click", source=source,
                                    line=undo_line)
            break
    board = parse_board("\n".join(line for _, line in lines), source, lines[0][0]) if lines else ()
    if undo_lines:
        fields["undo_board"] = parse_board("\n".join(line for _, line in undo_lines), source, undo_lines[0][0])
    if not board and fields["due"] is None and not fields["finished"]:
        raise NotationError("a position in play has a board (or says 'due level')", source=source, line=first_line)
    try:
        return State(board, **fields)
    except ValueError as error:
        raise NotationError(str(error), source=source, line=first_line) from None


def move_text(move) -> str:
    """Clicks ``3,7``, ``shuffle`` and ``undo``; chance outcomes as one token: ``board:g,a,b/o,X,a`` (rows
    separated by ``/``) and ``fill:b,a,.`` (a column without room gets ``.``)."""
    if isinstance(move, NewBoard):
        return "board:" + "/".join(",".join(cell_token(cell) for cell in row) for row in move.board)
    if isinstance(move, FillRow):
        return "fill:" + ",".join(cell_token(cell) for cell in move.boulders)
    return str(move)


def parse_move(text: str):
    token = text.strip()
    if token.startswith("board:"):
        rows = [row.split(",") for row in token[6:].split("/")]
        if not rows or len({len(row) for row in rows}) != 1:
            raise NotationError("a board outcome is rows of equal length: board:g,a/b,o", token=token)
        board = tuple(tuple(parse_cell(cell) for cell in row) for row in rows)
        return NewBoard(board)
    if token.startswith("fill:"):
        return FillRow(tuple(parse_cell(cell) for cell in token[5:].split(",")))
    return parse_click(token)
