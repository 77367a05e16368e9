"""The ten levels' sizes and palettes and the dealing of a level's board (spec 1.3, 1.4).

Only levels 1-4 and 10 are known (rows x columns); the others are the spec's inferences, kept
here as data so the real sizes can be put in when they are seen. Power-ups follow Irpan's
estimate: 0 / 1 / 2 / 3 per level with 5 / 20 / 35 / 40 %, types weighted Explode 2, Fill 2/3,
Multiplier 1/3, the others 1; their cells and carrier colours are drawn uniformly (inferred).
"""

from __future__ import annotations

import dataclasses

import numpy as np

from engines.destructo.rules import (COLOURLESS, EXPLODE, FILL, MORPH, MULTIPLY, OVERKILL, SHUFFLE, TIMER, UNDO, WILD,
                                     Board, Boulder)

PALETTE = ("green", "grey", "blue", "orange", "yellow", "black", "red", "purple", "white")


@dataclasses.dataclass(frozen=True)
class Level:
    rows: int
    columns: int
    colours: int
    known: bool

    @property
    def palette(self) -> tuple[str, ...]:
        return PALETTE[:self.colours]


#: Spec 1.3; ``known`` False marks the inferred rows.
LEVEL_TABLE = (
    Level(12, 14, 4, True), Level(12, 14, 4, True), Level(12, 15, 5, True), Level(12, 15, 5, True),
    Level(14, 16, 6, False), Level(14, 16, 6, False), Level(15, 17, 7, False), Level(15, 17, 7, False),
    Level(15, 17, 8, False), Level(16, 18, 9, True),
)
POWER_UP_COUNTS = (0, 1, 2, 3)
POWER_UP_COUNT_WEIGHTS = (0.05, 0.20, 0.35, 0.40)
POWER_UP_WEIGHTS = {EXPLODE: 2.0, FILL: 2 / 3, MULTIPLY: 1 / 3, TIMER: 1.0, OVERKILL: 1.0, MORPH: 1.0, WILD: 1.0,
                    SHUFFLE: 1.0, UNDO: 1.0}


def deal_level(level: int, rng: np.random.Generator, table: tuple[Level, ...] = LEVEL_TABLE) -> Board:
    """A new level's full board: uniform colours of the level's palette and its power-ups."""
    spec = table[level - 1]
    colours = rng.integers(0, spec.colours, size=(spec.rows, spec.columns))
    cells = [[Boulder(spec.palette[int(colour)]) for colour in row] for row in colours]
    count = int(rng.choice(POWER_UP_COUNTS, p=POWER_UP_COUNT_WEIGHTS))
    kinds = list(POWER_UP_WEIGHTS)
    weights = np.array([POWER_UP_WEIGHTS[kind] for kind in kinds])
    for index in rng.choice(spec.rows * spec.columns, size=count, replace=False):
        power = kinds[int(rng.choice(len(kinds), p=weights / weights.sum()))]
        r, c = divmod(int(index), spec.columns)
        cells[r][c] = Boulder(None, power) if power in COLOURLESS else Boulder(cells[r][c].colour, power)
    return tuple(tuple(row) for row in cells)


def colours_on(board: Board) -> tuple[str, ...]:
    """The colours still on the board, in palette order (a Fill's new boulders use these)."""
    seen = {cell.colour for row in board for cell in row if cell is not None and cell.colour is not None}
    return tuple(sorted(seen, key=lambda name: PALETTE.index(name) if name in PALETTE else len(PALETTE)))


def deal_fill(board: Board, rng: np.random.Generator) -> tuple[Boulder | None, ...]:
    """One new boulder per column with room, of a colour still on the board (spec 1.4)."""
    palette = colours_on(board) or PALETTE[:1]
    return tuple(Boulder(palette[int(rng.integers(len(palette)))]) if board[0][c] is None else None
                 for c in range(len(board[0])))


def deal_shuffle(board: Board, rng: np.random.Generator) -> Board:
    """Every coloured boulder re-coloured from the colours on the board; power-ups and the shape
    stay (spec 1.4: shape unchanged)."""
    palette = colours_on(board) or PALETTE[:1]
    return tuple(tuple(cell if cell is None or cell.colour is None
                       else Boulder(palette[int(rng.integers(len(palette)))], cell.power) for cell in row)
                 for row in board)
