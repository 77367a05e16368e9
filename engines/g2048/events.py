"""What happens in a 2048 turn, for the window to show and explain."""

from __future__ import annotations

import dataclasses

from engines.contract import Event


@dataclasses.dataclass(frozen=True)
class TilesSlid(Event):
    """A slide moved tiles; ``merged`` are the cells (row, column) holding a merged tile and
    ``gain`` the points the merges scored."""

    direction: int
    gain: int
    merged: tuple[tuple[int, int], ...]


@dataclasses.dataclass(frozen=True)
class TileSpawned(Event):
    row: int
    column: int
    value: int


@dataclasses.dataclass(frozen=True)
class Won(Event):
    """A merge made 2048 for the first time; the real game shows "You win!" and "Keep going"."""


@dataclasses.dataclass(frozen=True)
class GameOver(Event):
    """The spawn filled the board and no two neighbours are equal."""

    score: int
