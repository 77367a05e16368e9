"""Expectimax over the nibble bitboard (spec 3.2), compiled by numba.

A chance node averages over every empty cell a 2 (p 0.9) and a 4 (p 0.1), each followed by the
player's best slide; a chance node less likely than ``threshold`` or at the depth limit gets the
heuristic instead. Chance nodes are remembered in a transposition table (direct-mapped, always
replace) with the depth still to search and the probability it was reached with; a hit counts
when it was searched at least as deep and from at least as likely a node (a node reached unlikely
was cut early, and its value must not stand in for a likely one: this matters most when the table
carries over to the next move, whose top nodes were deep, unlikely nodes of the last search).
An entry is one 32-byte row (key, depth, value, probability) so a probe touches one cache line; the key is the
board XOR a salt that changes when a new decision should forget the old entries, so the table is
never cleared.
"""

from __future__ import annotations

import numpy as np

from engines.g2048.kernel import empty_count, slide, transpose
from engines.jit import kernel

ROW_MASK = np.uint64(0xFFFF)
HASH_MULTIPLIER = np.uint64(0x9E3779B97F4A7C15)

#: counters[...] indices
EVALUATIONS = 0
TABLE_HITS = 1


@kernel
def board_heuristic(board, heuristic):
    """The heuristic of a board: its 4 rows and its 4 columns looked up in the row table."""
    columns = transpose(board)
    total = 0.0
    for r in range(4):
        shift = np.uint64(16 * r)
        total += heuristic[(board >> shift) & ROW_MASK]
        total += heuristic[(columns >> shift) & ROW_MASK]
    return total


@kernel
def distinct_tiles(board):
    seen = 0
    while board:
        seen |= 1 << np.int64(board & np.uint64(0xF))
        board >>= np.uint64(4)
    seen >>= 1
    count = 0
    while seen:
        count += seen & 1
        seen >>= 1
    return count


@kernel
def adaptive_depth(board):
    """nneonneo's depth limit: max(3, distinct tile values - 2) player moves below the root."""
    return max(3, distinct_tiles(board) - 2)


MAX_LEVELS = 32


@kernel
def _all_slides(board, left, right, out):
    """The four slides of ``board`` (up, right, down, left) into ``out``; the columns are
    transposed once for both vertical slides."""
    columns = transpose(board)
    up = np.uint64(0)
    down = np.uint64(0)
    to_left = np.uint64(0)
    to_right = np.uint64(0)
    for r in range(4):
        shift = np.uint64(16 * r)
        row = (board >> shift) & ROW_MASK
        column = (columns >> shift) & ROW_MASK
        to_left |= np.uint64(left[row]) << shift
        to_right |= np.uint64(right[row]) << shift
        up |= np.uint64(left[column]) << shift
        down |= np.uint64(right[column]) << shift
    out[0] = transpose(up)
    out[1] = to_right
    out[2] = transpose(down)
    out[3] = to_left


@kernel
def _table_index(board, shift):
    return ((board ^ (board >> np.uint64(31))) * HASH_MULTIPLIER) >> shift


@kernel
def chance_value(board, depth_left, probability, threshold, left, right, heuristic,
                 table, table_values, salt, shift, trust, counters):
    """Expected value of ``board`` before its spawn, ``depth_left`` player moves still to search.

    Depth first with an explicit stack of frames (one per chance node on the current path)
    rather than recursion: numba's calls would pass and reference-count every table each time."""
    if probability < threshold or depth_left <= 0:
        return board_heuristic(board, heuristic)
    index = _table_index(board, shift)
    if table[index, 0] == board ^ salt and table[index, 1] >= depth_left and table_values[index, 3] >= probability * trust:
        counters[TABLE_HITS] += 1
        return table_values[index, 2]
    # Per frame: the chance node's board, depth still to search, probability of each spawn cell,
    # number of empty cells, the running sum, the spawn being tried (cell scan and tile), the best
    # slide value after it and which slide comes next, and the four slides of the spawned board.
    boards = np.zeros(MAX_LEVELS, np.uint64)
    depth = np.zeros(MAX_LEVELS, np.int64)
    cell_probability = np.zeros(MAX_LEVELS, np.float64)
    empties = np.zeros(MAX_LEVELS, np.int64)
    totals = np.zeros(MAX_LEVELS, np.float64)
    cells = np.zeros(MAX_LEVELS, np.int64)
    spawns = np.zeros(MAX_LEVELS, np.int64)
    bests = np.zeros(MAX_LEVELS, np.float64)
    directions = np.zeros(MAX_LEVELS, np.int64)
    slides = np.zeros((MAX_LEVELS, 4), np.uint64)
    spawned = np.zeros(MAX_LEVELS, np.uint64)

    level = 0
    boards[0] = board
    depth[0] = depth_left
    empties[0] = empty_count(board)
    cell_probability[0] = probability / empties[0]
    totals[0] = 0.0
    cells[0] = -1
    spawns[0] = 1
    directions[0] = 4
    while True:
        current = boards[level]
        if directions[level] == 4:
            # The spawned board is done: add its best slide, then move to the next spawn.
            if cells[level] >= 0:
                totals[level] += (0.9 if spawns[level] == 0 else 0.1) * bests[level]
            if spawns[level] == 0:
                spawns[level] = 1
            else:
                spawns[level] = 0
                cell = cells[level] + 1
                while cell < 16 and (current >> np.uint64(4 * cell)) & np.uint64(0xF) != 0:
                    cell += 1
                cells[level] = cell
                if cell == 16:
                    # Every spawn tried: the node's value goes to its parent.
                    value = totals[level] / empties[level]
                    index = _table_index(current, shift)
                    table[index, 0] = current ^ salt
                    table[index, 1] = depth[level]
                    table_values[index, 2] = value
                    table_values[index, 3] = cell_probability[level] * empties[level]
                    if level == 0:
                        return value
                    level -= 1
                    if value > bests[level]:
                        bests[level] = value
                    continue
            tile = np.uint64(spawns[level] + 1) << np.uint64(4 * cells[level])
            spawned[level] = current | tile
            _all_slides(spawned[level], left, right, slides[level])
            bests[level] = 0.0
            directions[level] = 0
            continue
        direction = directions[level]
        directions[level] = direction + 1
        after = slides[level, direction]
        counters[EVALUATIONS] += 1
        if after == spawned[level]:
            continue
        child_probability = cell_probability[level] * (0.9 if spawns[level] == 0 else 0.1)
        child_depth = depth[level] - 1
        if child_probability < threshold or child_depth <= 0:
            value = board_heuristic(after, heuristic)
        else:
            index = _table_index(after, shift)
            if (table[index, 0] == after ^ salt and table[index, 1] >= child_depth
                    and table_values[index, 3] >= child_probability * trust):
                counters[TABLE_HITS] += 1
                value = table_values[index, 2]
            else:
                level += 1
                boards[level] = after
                depth[level] = child_depth
                empties[level] = empty_count(after)
                cell_probability[level] = child_probability / empties[level]
                totals[level] = 0.0
                cells[level] = -1
                spawns[level] = 1
                directions[level] = 4
                continue
        if value > bests[level]:
            bests[level] = value


@kernel
def root_values(board, depth_limit, threshold, left, right, heuristic, table, table_values, salt, shift, trust,
                counters):
    """The expected value of each slide (up, right, down, left); -1 for a slide that moves
    nothing. ``depth_limit`` <= 0 means nneonneo's adaptive depth."""
    if depth_limit <= 0:
        depth_limit = adaptive_depth(board)
    result = np.full(4, -1.0)
    for direction in range(4):
        after = slide(board, direction, left, right)
        counters[EVALUATIONS] += 1
        if after != board:
            # A tiny bonus keeps a legal slide above 0, the value of a dead end.
            result[direction] = chance_value(after, depth_limit, 1.0, threshold, left, right, heuristic, table,
                                             table_values, salt, shift, trust, counters) + 1e-6
    return result


@kernel
def slide_value(board, direction, depth_limit, threshold, left, right, heuristic, table, table_values, salt, shift,
                trust, counters):
    """The expected value of one slide (see :func:`root_values`); the unit of work the advisor's
    threads share out."""
    after = slide(board, direction, left, right)
    counters[EVALUATIONS] += 1
    if after == board:
        return -1.0
    return chance_value(after, depth_limit, 1.0, threshold, left, right, heuristic, table, table_values, salt,
                        shift, trust, counters) + 1e-6
