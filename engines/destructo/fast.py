"""The seam between Destruct-o-Match states and :mod:`engines.destructo.kernel`'s int grids."""

from __future__ import annotations

import numpy as np

from engines.destructo import kernel, rules
from engines.destructo.rules import Board, Boulder

#: Power-up names to the kernel's codes and back.
POWER_CODES = {rules.EXPLODE: kernel.EXPLODE, rules.WILD: kernel.WILD, rules.MORPH: kernel.MORPH,
               rules.OVERKILL: kernel.OVERKILL, rules.MULTIPLY: kernel.MULTIPLY, rules.TIMER: kernel.TIMER,
               rules.FILL: kernel.FILL, rules.SHUFFLE: kernel.SHUFFLE, rules.UNDO: kernel.UNDO,
               rules.INDESTRUCTIBLE: kernel.INDESTRUCTIBLE}
assert set(POWER_CODES) == set(rules.POWER_UPS)
POWER_NAMES = {code: name for name, code in POWER_CODES.items()}


def encode(board: Board) -> tuple[np.ndarray, tuple[str, ...]]:
    """The grid of a board and its colours (colour code k + 1 is the k-th name)."""
    colours = tuple(sorted({cell.colour for row in board for cell in row if cell is not None and cell.colour}))
    code = {name: index + 1 for index, name in enumerate(colours)}
    grid = np.zeros((len(board), len(board[0]) if board else 0), np.int16)
    for r, row in enumerate(board):
        for c, cell in enumerate(row):
            if cell is not None:
                grid[r, c] = (code[cell.colour] if cell.colour else 0) | (POWER_CODES.get(cell.power, 0) << 4)
    return grid, colours


def decode(grid: np.ndarray, colours: tuple[str, ...]) -> Board:
    def boulder(value: int) -> Boulder | None:
        if value == 0:
            return None
        colour = value & kernel.COLOUR_BITS
        power = POWER_NAMES.get(value >> kernel.POWER_SHIFT)
        return Boulder(colours[colour - 1] if colour else None, power)

    return tuple(tuple(boulder(int(v)) for v in row) for row in grid)


def removal(board: Board, row: int, column: int) -> tuple[frozenset, int, Board]:
    """(cells removed, points, board after the fall); points -1 when the click takes nothing."""
    grid, colours = encode(board)
    mask = np.zeros_like(grid, dtype=np.uint8)
    stack = np.zeros((grid.size + 1, 2), np.int64)
    count, points = kernel.click_mask(grid, row, column, mask, stack)
    if points < 0:
        return frozenset(), -1, board
    cells = frozenset((int(r), int(c)) for r, c in zip(*np.nonzero(mask)))
    kernel.fall(grid, mask)
    return cells, int(points), decode(grid, colours)
