"""HATETRIS values: rule options, placements (the moves), the AI's memory and the game state.

Rows are numbered from the top (row 0) to the bottom (row depth - 1); bit x of a row is column x
(least significant bit = leftmost column, as in the official code). Rows 0..3 are the buffer above
the bar; a position between moves always has them empty unless the game is over.
"""

from __future__ import annotations

import dataclasses
import functools
import math
import re
from typing import Literal

from engines.errors import NotationError
from engines.limits import parse_int
from engines.hatetris.pieces import PIECE_INDEX, PIECES

BAR = 4
WIDTH = 10
DEPTH = 20

Enemy = Literal["hatetris", "mild"]
ENEMY_TITLES = {"hatetris": "HATETRIS", "mild": "HATETRIS Mild"}


@dataclasses.dataclass(frozen=True, slots=True)
class Rules:
    """Which enemy AI and how big a well. ``mild`` is the AI without loop prevention (the rules
    before June 2021); sizes other than 10 x 20 are the reduced wells of the solver write-ups."""

    enemy: Enemy = "hatetris"
    width: int = WIDTH
    depth: int = DEPTH

    def __post_init__(self) -> None:
        if self.enemy not in ENEMY_TITLES:
            raise ValueError(f"unknown enemy AI {self.enemy!r}; known: {', '.join(ENEMY_TITLES)}")
        if not 4 <= self.width <= 16:
            raise ValueError(f"well width {self.width} is outside 4..16")
        if not BAR + 1 <= self.depth <= 40:
            raise ValueError(f"well depth {self.depth} is outside {BAR + 1}..40 (4 buffer rows included)")

    @property
    def mild(self) -> bool:
        return self.enemy == "mild"

    @property
    def height(self) -> int:
        """Playable rows below the bar."""
        return self.depth - BAR

    @property
    def full_row(self) -> int:
        return (1 << self.width) - 1

    @property
    def spawn_x(self) -> int:
        return (self.width - 4) // 2

    @property
    def repeat_period(self) -> int:
        """A well can only come back a multiple of this many pieces later: each piece adds 4
        cells and each line removes ``width`` (5 for the 10-wide well)."""
        return self.width // math.gcd(self.width, 4)


DEFAULT_RULES = Rules()
MILD_RULES = Rules(enemy="mild")

_PLACEMENT = re.compile(r"([A-Za-z])@(-?[0-9]+),(-?[0-9]+),(-?[0-9]+)")
#: Where a piece's 4x4 box can be in the largest well the rules allow (16 wide, 40 deep): a piece may
#: leave up to three of the box's columns or rows outside the well.
_BOX_X = (-3, 15)
_BOX_Y = (-3, 39)


@dataclasses.dataclass(frozen=True, slots=True, order=True)
class Placement:
    """A move: where the piece the AI sent comes to rest, as the official state (x, y, o) of its
    4 x 4 box. Written ``S@6,17,0``; (x, y, o), not the cells, because S, Z and I cover the same
    cells from two different states (spec 1.2)."""

    piece: str
    x: int
    y: int
    o: int

    def __str__(self) -> str:
        return f"{self.piece}@{self.x},{self.y},{self.o}"

    @property
    def piece_index(self) -> int:
        return PIECE_INDEX[self.piece]

    @classmethod
    def parse(cls, text: str) -> Placement:
        match = _PLACEMENT.fullmatch(text.strip())
        if match is None:
            raise NotationError(
                "a placement is written PIECE@x,y,o, e.g. S@6,17,0 (the piece's 4x4 box at column x, "
                "row y, rotated o quarter turns clockwise)",
                token=text,
            )
        letter = match.group(1)
        x = parse_int(match.group(2), "the box's column x", *_BOX_X, token=text)
        y = parse_int(match.group(3), "the box's row y", *_BOX_Y, token=text)
        o = parse_int(match.group(4), "the orientation o", 0, 3, token=text)
        if letter not in PIECE_INDEX:
            raise NotationError(f"unknown piece {letter!r}; the pieces are {', '.join(PIECES)}", token=text)
        return cls(letter, x, y, o)


class Memory:
    """The wells the AI has been called with, oldest first, as a shared persistent chain: a move
    adds one link, so every position of a long game shares its ancestors' links."""

    __slots__ = ("well", "pieces", "parent", "length")

    def __init__(self, well: tuple[int, ...], pieces: int, parent: Memory | None = None) -> None:
        self.well = well
        self.pieces = pieces  # pieces locked when the AI saw this well
        self.parent = parent
        self.length = 1 if parent is None else parent.length + 1

    def extended(self, well: tuple[int, ...], pieces: int) -> Memory:
        return Memory(well, pieces, self)

    def links(self) -> list[Memory]:
        """Every link, oldest first."""
        chain = []
        link: Memory | None = self
        while link is not None:
            chain.append(link)
            link = link.parent
        chain.reverse()
        return chain

    def counts(self) -> dict[tuple[int, ...], int]:
        """Times seen of each well."""
        return _counts(self)

    def __repr__(self) -> str:
        return f"<Memory of {self.length} wells>"


@functools.lru_cache(maxsize=8)
def _counts(memory: Memory) -> dict[tuple[int, ...], int]:
    counts: dict[tuple[int, ...], int] = {}
    for link in memory.links():
        counts[link.well] = counts.get(link.well, 0) + 1
    return counts


def cell_count(well: tuple[int, ...]) -> int:
    """The filled cells of a well."""
    return sum(row.bit_count() for row in well)


@dataclasses.dataclass(frozen=True, slots=True)
class State:
    """A position between moves: the well, the score, and the piece the AI has sent (None once
    the game is over).

    Like python-chess's board, equality and hashing ignore the history (here the AI's memory of
    seen wells), although the AI's future choices depend on it; the memory travels with the state.
    """

    well: tuple[int, ...]
    score: int = 0
    piece: str | None = None
    rules: Rules = DEFAULT_RULES
    memory: Memory | None = dataclasses.field(default=None, compare=False, repr=False)

    @property
    def over(self) -> bool:
        return self.piece is None

    @property
    def cells(self) -> int:
        return cell_count(self.well)

    @property
    def pieces(self) -> int:
        """Pieces locked so far (each adds 4 cells, each line removes a row's width)."""
        return (self.cells + self.rules.width * self.score) // 4

    @property
    def piece_index(self) -> int:
        if self.piece is None:
            raise ValueError("the game is over: no piece")
        return PIECE_INDEX[self.piece]

    def filled(self, x: int, y: int) -> bool:
        return bool(self.well[y] >> x & 1)

    def top_row(self) -> int:
        """The first non-empty row (the AI's rating), the depth for an empty well."""
        for index, row in enumerate(self.well):
            if row:
                return index
        return self.rules.depth

    def stack_height(self) -> int:
        """Filled rows counted from the floor up to the highest filled cell."""
        return self.rules.depth - self.top_row()
