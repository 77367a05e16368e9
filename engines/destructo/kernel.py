"""Destruct-o-Match's core for numba: a board as a grid of small ints.

A cell is 0 when empty, else ``colour | power << 4``: colour 1..15 (0 for Explode, Wild,
Morph and Indestructible), power 0 none or one of the codes below. A click's removal is computed into a mask grid
(1 = removed) by :func:`click_mask`, then :func:`fall` empties those cells and drops the boulders
above them.
"""

from __future__ import annotations

import numpy as np

from engines.jit import kernel

NO_POWER, EXPLODE, WILD, MORPH, OVERKILL, MULTIPLY, TIMER, FILL, SHUFFLE, UNDO, INDESTRUCTIBLE = range(11)
COLOUR_BITS = 15
POWER_SHIFT = 4
GROUP_BONUS = np.array([0, 0, 0, 0, 0, 1, 1, 2, 3, 3, 4, 6, 7, 7, 8, 9], np.int64)


@kernel
def group_score(size):
    if size >= 16:
        return 2 * size
    return size + GROUP_BONUS[size]


@kernel
def _matches_any(cell):
    power = cell >> POWER_SHIFT
    return power == WILD or power == MORPH


@kernel
def flood(grid, row, column, mask, stack):
    """Mark in ``mask`` the group a click on (row, column) takes (its colour and Wilds, joined);
    return its size (0 when the cell is empty or colourless)."""
    colour = grid[row, column] & COLOUR_BITS
    if grid[row, column] == 0 or colour == 0:
        return 0
    rows, columns = grid.shape
    mask[row, column] = 1
    stack[0, 0] = row
    stack[0, 1] = column
    top = 1
    size = 1
    while top > 0:
        top -= 1
        r = stack[top, 0]
        c = stack[top, 1]
        for k in range(4):
            nr = r + (-1 if k == 0 else 1 if k == 1 else 0)
            nc = c + (-1 if k == 2 else 1 if k == 3 else 0)
            if nr < 0 or nr >= rows or nc < 0 or nc >= columns or mask[nr, nc]:
                continue
            other = grid[nr, nc]
            if other == 0:
                continue
            if (other & COLOUR_BITS) == colour or _matches_any(other):
                mask[nr, nc] = 1
                stack[top, 0] = nr
                stack[top, 1] = nc
                top += 1
                size += 1
    return size


@kernel
def click_mask(grid, row, column, mask, stack):
    """Fill ``mask`` with what a click removes; return (cells removed, points), or (0, -1) when
    the click takes nothing (an empty cell, a Wild alone, a boulder in no group)."""
    mask[:, :] = 0
    rows, columns = grid.shape
    cell = grid[row, column]
    if cell == 0:
        return 0, -1
    if (cell >> POWER_SHIFT) == EXPLODE:
        count = 0
        for r in range(max(0, row - 1), min(rows, row + 2)):
            for c in range(max(0, column - 1), min(columns, column + 2)):
                if grid[r, c] != 0:
                    mask[r, c] = 1
                    count += 1
        return count, 0
    size = flood(grid, row, column, mask, stack)
    if size < 2:
        mask[:, :] = 0
        return 0, -1
    points = group_score(size)
    multiplied = False
    overkill = False
    for r in range(rows):
        for c in range(columns):
            if mask[r, c]:
                power = grid[r, c] >> POWER_SHIFT
                if power == MULTIPLY:
                    multiplied = True
                elif power == OVERKILL:
                    overkill = True
    if multiplied:
        points *= 3
    count = size
    if overkill:
        colour = cell & COLOUR_BITS
        for r in range(rows):
            for c in range(columns):
                if grid[r, c] != 0 and (grid[r, c] & COLOUR_BITS) == colour and not mask[r, c]:
                    mask[r, c] = 1
                    count += 1
    return count, points


@kernel
def fall(grid, mask):
    """Empty the masked cells and let each column's boulders fall straight down (in place)."""
    rows, columns = grid.shape
    for c in range(columns):
        write = rows - 1
        for r in range(rows - 1, -1, -1):
            if grid[r, c] != 0 and not mask[r, c]:
                grid[write, c] = grid[r, c]
                write -= 1
        for r in range(write, -1, -1):
            grid[r, c] = 0


@kernel
def has_move(grid):
    """Whether a click can take something: an Explode, or a coloured boulder touching one of its
    colour or a Wild."""
    rows, columns = grid.shape
    for r in range(rows):
        for c in range(columns):
            cell = grid[r, c]
            if cell == 0:
                continue
            if (cell >> POWER_SHIFT) == EXPLODE:
                return True
            colour = cell & COLOUR_BITS
            if colour == 0:
                continue
            if r + 1 < rows and grid[r + 1, c] != 0 and (
                    (grid[r + 1, c] & COLOUR_BITS) == colour or _matches_any(grid[r + 1, c])):
                return True
            if c + 1 < columns and grid[r, c + 1] != 0 and (
                    (grid[r, c + 1] & COLOUR_BITS) == colour or _matches_any(grid[r, c + 1])):
                return True
            if r > 0 and _matches_any(grid[r - 1, c]):
                return True
            if c > 0 and _matches_any(grid[r, c - 1]):
                return True
    return False
