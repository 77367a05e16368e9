"""Irpan's search for Destruct-o-Match (spec 3.1), compiled: the value of a board and the pruned
depth-``depth``, expand-``expand`` search over the int grids of ``engines.destructo.kernel``.

V(board) = Σ over the groups on the board of their points + the end bonus as if every boulder in
no group were left over. A move's 1-step value is its points + V(the board after it); a node keeps
its ``expand`` best moves by that value and searches each one level deeper; the value backed up
is the best sum of points along a line plus V at its end (the real end bonus when the level ends).
"""

from __future__ import annotations

import numpy as np

from engines.destructo.kernel import COLOUR_BITS, EXPLODE, POWER_SHIFT, click_mask, fall, flood, group_score
from engines.jit import kernel

MAX_MOVES = 400


@kernel
def moves_of(grid, out, mask, seen, stack):
    """Write one cell per move into ``out`` (each group's first coloured cell, every Explode);
    return their number."""
    rows, columns = grid.shape
    seen[:, :] = 0
    count = 0
    for r in range(rows):
        for c in range(columns):
            cell = grid[r, c]
            if cell == 0 or seen[r, c]:
                continue
            if (cell >> POWER_SHIFT) == EXPLODE:
                out[count, 0] = r
                out[count, 1] = c
                count += 1
                continue
            colour = cell & COLOUR_BITS
            if colour == 0:
                continue
            mask[:, :] = 0
            size = flood(grid, r, c, mask, stack)
            for rr in range(rows):
                for cc in range(columns):
                    if mask[rr, cc] and (grid[rr, cc] & COLOUR_BITS) == colour:
                        seen[rr, cc] = 1
            if size >= 2:
                out[count, 0] = r
                out[count, 1] = c
                count += 1
    return count


@kernel
def board_value(grid, mask, seen, stack):
    """Irpan's V: the groups' points plus the end bonus for the boulders in no group."""
    rows, columns = grid.shape
    seen[:, :] = 0
    total = 0
    grouped = np.zeros((rows, columns), np.uint8)
    for r in range(rows):
        for c in range(columns):
            cell = grid[r, c]
            colour = cell & COLOUR_BITS
            if cell == 0 or colour == 0 or seen[r, c]:
                continue
            mask[:, :] = 0
            size = flood(grid, r, c, mask, stack)
            for rr in range(rows):
                for cc in range(columns):
                    if mask[rr, cc]:
                        if (grid[rr, cc] & COLOUR_BITS) == colour:
                            seen[rr, cc] = 1
                        if size >= 2:
                            grouped[rr, cc] = 1
            if size >= 2:
                total += group_score(size)
    left = 0
    for r in range(rows):
        for c in range(columns):
            if grid[r, c] != 0 and not grouped[r, c]:
                left += 1
    return total + max(0, 100 - 10 * left)


@kernel
def search(grid, depth, expand):
    """The best value of a line of at most ``depth`` moves from ``grid``: (value, row, column of
    its first move); (the end bonus, -1, -1) when no move is left."""
    rows, columns = grid.shape
    mask = np.zeros((rows, columns), np.uint8)
    seen = np.zeros((rows, columns), np.uint8)
    stack = np.zeros((rows * columns + 1, 2), np.int64)
    moves = np.zeros((MAX_MOVES, 2), np.int64)
    count = moves_of(grid, moves, mask, seen, stack)
    if count == 0:
        left = 0
        for r in range(rows):
            for c in range(columns):
                if grid[r, c] != 0:
                    left += 1
        return float(max(0, 100 - 10 * left)), -1, -1
    quick = np.zeros(count, np.float64)
    rewards = np.zeros(count, np.float64)
    afters = np.empty((count, rows, columns), grid.dtype)  # each move's board, searched again if kept
    for m in range(count):
        afters[m] = grid
        points = click_mask(afters[m], moves[m, 0], moves[m, 1], mask, stack)[1]
        fall(afters[m], mask)
        rewards[m] = points
        quick[m] = points + board_value(afters[m], mask, seen, stack)
    order = np.argsort(-quick, kind="mergesort")  # stable: ties keep reading order
    best = -1.0
    best_move = 0
    for i in range(min(expand, count)):
        m = order[i]
        if depth <= 1:
            value = quick[m]
        else:
            value = rewards[m] + search(afters[m], depth - 1, expand)[0]
        if value > best:
            best = value
            best_move = m
    return best, moves[best_move, 0], moves[best_move, 1]


def value_of(grid: np.ndarray) -> float:
    """V of one board (plain call for the few boards a ranking values directly)."""
    rows, columns = grid.shape
    return float(board_value(grid, np.zeros((rows, columns), np.uint8), np.zeros((rows, columns), np.uint8),
                             np.zeros((rows * columns + 1, 2), np.int64)))
