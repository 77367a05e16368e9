"""1010! values: the moves (a placement, a deal) and the game state.

Cells are numbered row by row from the top-left: bit ``10 * row + column`` of ``State.filled``.
The tray has three slots; a slot holds a piece letter or None once its piece is placed. When all
three are empty a deal is due: the next step is chance, the game's three new pieces.
"""

from __future__ import annotations

import dataclasses
import re

from engines.errors import NotationError
from engines.tenten.pieces import BY_LETTER, CELLS, LETTERS, SIZE

TRAY_SLOTS = 3
FULL_BOARD = (1 << CELLS) - 1


@dataclasses.dataclass(frozen=True, slots=True, order=True)
class Place:
    """A player's move: the tray's ``piece`` with its anchor (top-left of its bounding box) at
    (row, column). Written ``V@4,5``. With two equal pieces in the tray the first slot's goes."""

    piece: str
    row: int
    column: int

    def __post_init__(self) -> None:
        if self.piece not in BY_LETTER:
            raise ValueError(f"{self.piece!r} is not a piece; the pieces are {' '.join(LETTERS)}")
        if not (0 <= self.row < SIZE and 0 <= self.column < SIZE):
            raise ValueError(f"anchor ({self.row}, {self.column}) is off the 10 x 10 board")

    def __str__(self) -> str:
        return f"{self.piece}@{self.row},{self.column}"


@dataclasses.dataclass(frozen=True, slots=True, order=True)
class Deal:
    """A chance outcome: the three pieces the game puts in the tray, slot 1 to 3. Written
    ``deal:Vi.``."""

    pieces: tuple[str, str, str]

    def __post_init__(self) -> None:
        if len(self.pieces) != TRAY_SLOTS or any(p not in BY_LETTER for p in self.pieces):
            raise ValueError(f"a deal is three pieces among {' '.join(LETTERS)}, not {self.pieces!r}")

    def __str__(self) -> str:
        return "deal:" + "".join(self.pieces)


Move = Place | Deal

_PLACE = re.compile(r"(.)@([0-9]+),([0-9]+)")


def parse_move(text: str) -> Move:
    """``V@4,5`` (piece letter, anchor row and column, 0..9 from the top-left) or ``deal:Vi.``."""
    token = text.strip()
    if token.lower().startswith("deal:"):
        letters = token[5:]
        bad = [letter for letter in letters if letter not in BY_LETTER]
        if bad or len(letters) != TRAY_SLOTS:
            why = (f"{bad[0]!r} is not a piece" if bad else f"a deal has {TRAY_SLOTS} pieces, not {len(letters)}")
            raise NotationError(f"{why}: a deal is 'deal:' and three of {LETTERS}", token=token)
        return Deal(tuple(letters))
    match = _PLACE.fullmatch(token)
    if match is None:
        raise NotationError("expected a placement such as V@4,5 (piece@row,column) or a deal such as deal:Vi.",
                            token=token)
    letter, row, column = match.group(1), int(match.group(2)), int(match.group(3))
    if letter not in BY_LETTER:
        raise NotationError(f"{letter!r} is not a piece; the pieces are {LETTERS}", token=token)
    if row >= SIZE or column >= SIZE:
        raise NotationError(f"anchor ({row}, {column}) is off the board: rows and columns are 0..9", token=token)
    return Place(letter, row, column)


@dataclasses.dataclass(frozen=True, slots=True)
class State:
    """A 1010! position: the filled cells, the tray's three slots and the score."""

    filled: int = 0
    tray: tuple[str | None, str | None, str | None] = (None, None, None)
    score: int = 0

    def __post_init__(self) -> None:
        if not 0 <= self.filled <= FULL_BOARD:
            raise ValueError("a board has 100 cells: filled is a 100-bit mask")
        if len(self.tray) != TRAY_SLOTS or any(p is not None and p not in BY_LETTER for p in self.tray):
            raise ValueError(f"a tray is three slots, each a piece letter or None, not {self.tray!r}")
        if self.score < 0:
            raise ValueError("a score is not negative")

    @property
    def deal_due(self) -> bool:
        """All three slots are empty: the game deals three new pieces next."""
        return all(slot is None for slot in self.tray)

    @property
    def pieces_left(self) -> tuple[str, ...]:
        return tuple(slot for slot in self.tray if slot is not None)

    def is_filled(self, row: int, column: int) -> bool:
        return bool(self.filled >> (SIZE * row + column) & 1)

    @property
    def filled_count(self) -> int:
        return self.filled.bit_count()

    @property
    def rows(self) -> tuple[str, ...]:
        """The board as ten strings of ``#`` (filled) and ``.``, top row first."""
        return tuple("".join("#" if self.is_filled(r, c) else "." for c in range(SIZE)) for r in range(SIZE))

    @classmethod
    def from_rows(cls, rows, tray=(None, None, None), score: int = 0) -> State:
        """A state from ten strings of ``#``/``.`` (or 1/0 lists), top row first."""
        if len(rows) != SIZE:
            raise ValueError(f"a board has {SIZE} rows, not {len(rows)}")
        filled = 0
        for r, row in enumerate(rows):
            if len(row) != SIZE:
                raise ValueError(f"row {r} has {len(row)} cells, not {SIZE}")
            for c, cell in enumerate(row):
                if cell in ("#", 1, True, "1", "x", "X"):
                    filled |= 1 << (SIZE * r + c)
        return cls(filled, tuple(tray), score)
