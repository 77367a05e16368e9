"""2048 values: the moves (a slide, a spawn) and the game state.

Cells are numbered row by row from the top-left: cell ``4 * row + column``. A state stores each
cell's exponent (0 empty, 1 for a 2, 2 for a 4, ... 17 for 131072), the score, how many spawns
are due before the player moves again (2 at the start of a game, 1 after every slide that moved
something). Whether 2048 has been made follows from the board: tiles never shrink.
"""

from __future__ import annotations

import dataclasses
import re

from engines.errors import NotationError

SIZE = 4
CELLS = SIZE * SIZE
#: 131072 = 2**17 is the largest tile the rules allow (spec 1.7).
MAX_EXPONENT = 17
WIN_EXPONENT = 11

#: The game's own direction codes.
UP, RIGHT, DOWN, LEFT = 0, 1, 2, 3
DIRECTION_LETTERS = "URDL"
DIRECTION_NAMES = ("up", "right", "down", "left")

#: A spawned tile is a 2 with probability 0.9, a 4 with probability 0.1 (spec 1.2).
SPAWN_PROBABILITIES = {2: 0.9, 4: 0.1}


@dataclasses.dataclass(frozen=True, slots=True, order=True)
class Slide:
    """A player's move: every tile slides toward one wall. Written ``U``, ``R``, ``D`` or ``L``."""

    direction: int

    def __post_init__(self) -> None:
        if self.direction not in (UP, RIGHT, DOWN, LEFT):
            raise ValueError(f"a direction is 0 (up), 1 (right), 2 (down) or 3 (left), not {self.direction!r}")

    @property
    def letter(self) -> str:
        return DIRECTION_LETTERS[self.direction]

    @property
    def name(self) -> str:
        return DIRECTION_NAMES[self.direction]

    def __str__(self) -> str:
        return self.letter


@dataclasses.dataclass(frozen=True, slots=True, order=True)
class Spawn:
    """A chance outcome: a new tile of ``value`` (2 or 4) at (row, column). Written ``2@0,3``."""

    row: int
    column: int
    value: int

    def __post_init__(self) -> None:
        if self.value not in SPAWN_PROBABILITIES:
            raise ValueError(f"a spawned tile is a 2 or a 4, not {self.value!r}")
        if not (0 <= self.row < SIZE and 0 <= self.column < SIZE):
            raise ValueError(f"cell ({self.row}, {self.column}) is off the 4 x 4 board")

    @property
    def cell(self) -> int:
        return SIZE * self.row + self.column

    @property
    def exponent(self) -> int:
        return self.value.bit_length() - 1

    def __str__(self) -> str:
        return f"{self.value}@{self.row},{self.column}"


Move = Slide | Spawn

_SPAWN = re.compile(r"([24])@([0-9]),([0-9])")


def parse_move(text: str) -> Move:
    """``U``/``R``/``D``/``L`` (or ``up`` ...) for a slide, ``2@r,c`` / ``4@r,c`` for a spawn."""
    token = text.strip()
    upper = token.upper()
    if upper in ("U", "R", "D", "L"):
        return Slide(DIRECTION_LETTERS.index(upper))
    if token.lower() in DIRECTION_NAMES:
        return Slide(DIRECTION_NAMES.index(token.lower()))
    match = _SPAWN.fullmatch(token)
    if match is not None:
        row, column = int(match.group(2)), int(match.group(3))
        if row < SIZE and column < SIZE:
            return Spawn(row, column, int(match.group(1)))
        raise NotationError(f"cell ({row}, {column}) is off the board: rows and columns are 0..3",
                            token=token)
    raise NotationError("expected a slide U, R, D or L, or a spawn such as 2@0,3 (value@row,column)",
                        token=token)


@dataclasses.dataclass(frozen=True, slots=True)
class State:
    """A 2048 position. ``exponents`` holds the 16 cells row by row (0 = empty)."""

    exponents: tuple[int, ...]
    score: int = 0
    spawns_due: int = 0

    def __post_init__(self) -> None:
        if len(self.exponents) != CELLS:
            raise ValueError(f"a board has {CELLS} cells, not {len(self.exponents)}")
        if any(not 0 <= e <= MAX_EXPONENT for e in self.exponents):
            raise ValueError(f"cell exponents are 0..{MAX_EXPONENT}")
        if not 0 <= self.spawns_due <= 2:
            raise ValueError("0, 1 or 2 spawns can be due")

    def value(self, row: int, column: int) -> int:
        """The tile's value at (row, column); 0 for an empty cell."""
        exponent = self.exponents[SIZE * row + column]
        return 1 << exponent if exponent else 0

    @property
    def rows(self) -> tuple[tuple[int, ...], ...]:
        """Tile values, rows top to bottom (0 = empty): the reference vectors' layout."""
        return tuple(tuple(self.value(r, c) for c in range(SIZE)) for r in range(SIZE))

    @property
    def won(self) -> bool:
        """2048 (or more) is on the board: the real game has shown "You win!"."""
        return max(self.exponents) >= WIN_EXPONENT

    @property
    def max_tile(self) -> int:
        top = max(self.exponents)
        return 1 << top if top else 0

    @property
    def empty_cells(self) -> tuple[int, ...]:
        return tuple(cell for cell, exponent in enumerate(self.exponents) if exponent == 0)

    @property
    def is_chance_node(self) -> bool:
        return self.spawns_due > 0 and 0 in self.exponents

    @classmethod
    def from_rows(cls, rows, score: int = 0, spawns_due: int = 0) -> State:
        """A state from tile values, rows top to bottom (0 = empty)."""
        exponents = []
        for row in rows:
            for value in row:
                if value and (value < 2 or value & (value - 1)):
                    raise ValueError(f"{value} is not a power of two from 2 up")
                exponents.append(value.bit_length() - 1 if value else 0)
        return cls(tuple(exponents), score, spawns_due)


EMPTY_BOARD = (0,) * CELLS
