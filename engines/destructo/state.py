"""Destruct-o-Match values: the moves, the chance outcomes and the game state (spec 1).

A game is ten levels. Each level starts with a board the game deals (a chance step: dealt by
:func:`engines.destructo.levels.deal_level` or entered from the real game); the player clicks
groups until none is left, the end bonus is added and the next level's board is due. A Fill
boulder, when its group goes, adds a boulder on top of every column with room (a chance step);
a banked Shuffle, when used, re-colours every boulder (a chance step). A banked Undo takes back
the last click when no power-up was involved in it; the points stay (spec 1.4).
"""

from __future__ import annotations

import dataclasses
import re

from engines.destructo.rules import Board, Boulder
from engines.errors import NotationError
from engines.limits import INT32_MAX, parse_int

LEVELS = 10
#: The largest board taken, either way (the real game's boards are about 12 x 14; the rules hold
#: for any size, and a board this big still lists its moves in milliseconds).
MAX_SIDE = 64
#: What chance step is due (State.due).
LEVEL_DUE, FILL_DUE, SHUFFLE_DUE = "level", "fill", "shuffle"


@dataclasses.dataclass(frozen=True, slots=True, order=True)
class Click:
    """A player's move: destroy the group (or fire the Explode) at (row, column). Written ``3,7``."""

    row: int
    column: int

    def __str__(self) -> str:
        return f"{self.row},{self.column}"


@dataclasses.dataclass(frozen=True, slots=True)
class UseShuffle:
    """Spend the banked Shuffle: every boulder is re-coloured (the chance step that follows)."""

    def __str__(self) -> str:
        return "shuffle"


@dataclasses.dataclass(frozen=True, slots=True)
class UseUndo:
    """Spend the banked Undo: the board goes back to before the last click (its points stay)."""

    def __str__(self) -> str:
        return "undo"


@dataclasses.dataclass(frozen=True, slots=True)
class NewBoard:
    """A chance outcome: the whole board after a level's deal or a Shuffle."""

    board: Board


@dataclasses.dataclass(frozen=True, slots=True)
class FillRow:
    """A chance outcome: the boulder a Fill drops on each column (None where a column is full)."""

    boulders: tuple[Boulder | None, ...]


_CLICK = re.compile(r"([0-9]+),([0-9]+)")


def parse_move(text: str) -> Click | UseShuffle | UseUndo:
    token = text.strip()
    if token.lower() == "shuffle":
        return UseShuffle()
    if token.lower() == "undo":
        return UseUndo()
    match = _CLICK.fullmatch(token)
    if match is None:
        raise NotationError("expected a click such as 3,7 (row,column from the top-left), 'shuffle' or 'undo'",
                            token=token)
    # whether the cell is on the board is the rules' to say; the numbers only have to be numbers
    return Click(parse_int(match.group(1), "row", 0, INT32_MAX, token=token),
                 parse_int(match.group(2), "column", 0, INT32_MAX, token=token))


@dataclasses.dataclass(frozen=True, slots=True)
class State:
    """A position: the board (empty while a level's board is due), the level (1..10), the score,
    the banked Shuffle and Undo (0 or 1 each), which chance step is due (None: the player's
    turn), whether the tenth level is over, and ``undo_board``: the board before the last click
    when an Undo could take that click back (no power-up in it; empty otherwise)."""

    board: Board = ()
    level: int = 1
    score: int = 0
    shuffles: int = 0
    undos: int = 0
    due: str | None = LEVEL_DUE
    finished: bool = False
    undo_board: Board = ()

    def __post_init__(self) -> None:
        if not 1 <= self.level <= LEVELS:
            raise ValueError(f"a level is 1..{LEVELS}, not {self.level}")
        if self.due not in (None, LEVEL_DUE, FILL_DUE, SHUFFLE_DUE):
            raise ValueError(f"unknown chance step {self.due!r}")
        if not (0 <= self.shuffles <= 1 and 0 <= self.undos <= 1):
            raise ValueError("at most one Shuffle and one Undo are banked")
        if len(self.board) > MAX_SIDE or (self.board and len(self.board[0]) > MAX_SIDE):
            raise ValueError(f"a board has at most {MAX_SIDE} rows and {MAX_SIDE} columns; this one has "
                             f"{len(self.board)} rows of {len(self.board[0])}")
        if self.board and len({len(row) for row in self.board}) != 1:
            raise ValueError("every row of a board has the same number of cells")
        if self.undo_board and (len(self.undo_board) != len(self.board)
                                or any(len(row) != len(self.board[0]) for row in self.undo_board)):
            raise ValueError("the board before the last click has the board's size")

    @property
    def can_undo(self) -> bool:
        """A banked Undo and a click it may take back."""
        return bool(self.undos and self.undo_board) and self.due is None and not self.finished

    @property
    def rows(self) -> int:
        return len(self.board)

    @property
    def columns(self) -> int:
        return len(self.board[0]) if self.board else 0
