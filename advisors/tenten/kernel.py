"""The round planner, compiled: every order of the tray's pieces and every placement, clears after
each piece, the final board scored by Coelho's evaluation (spec 3.1, 3.2).

The work is split into items, one per (order of the pieces, anchor of the first piece); threads
take items from a shared counter and each writes its item's best plan. Within an item the anchors
are tried in increasing cell order and only a strictly better plan replaces the kept one, so the
plan kept overall is the first best one in the order (order, first, second, third anchor), as in
Coelho's single-threaded program.

Most leaves are the third piece dropped on a board without completing a line; for those the
evaluation is updated rather than recomputed: the line counts gain the piece's cells, and the
differing neighbour pairs change only along the piece's outline. The integers are the same as a
full recount's, so the value is too, to the last bit.
"""

from __future__ import annotations

import numpy as np

from advisors.tenten.evaluation import ALIGNMENT_SCALE, PAIRS, POINTS_WEIGHT, PROBE_SIZE
from engines.jit import fetch_add, kernel, popcount
from engines.tenten import kernel as board
from engines.tenten.kernel import ROW_BITS, SPLIT_ROW, place
from engines.tenten.pieces import CELLS, INDEX, PIECES, SIZE

#: Taken off a plan for each piece it cannot place: every complete plan ranks above every other.
UNPLACED_PENALTY = 10000.0

HORIZONTAL_LOW = np.uint64(sum(1 << (SIZE * r + c) for r in range(SPLIT_ROW) for c in range(SIZE - 1)))
HORIZONTAL_HIGH = np.uint64(sum(1 << (SIZE * r + c) for r in range(SIZE - SPLIT_ROW) for c in range(SIZE - 1)))
VERTICAL_LOW = np.uint64((1 << (SIZE * (SPLIT_ROW - 1))) - 1)
VERTICAL_HIGH = np.uint64((1 << (SIZE * (SIZE - SPLIT_ROW - 1))) - 1)
LAST_LOW_ROW = np.uint64(SIZE * (SPLIT_ROW - 1))
PROBE_PIECES = np.array([INDEX["O"], INDEX["H"], INDEX["V"]], np.int64)

#: results[item, ...] columns
VALUE, SECOND, THIRD, LEAVES = 0, 1, 2, 3


def _outline_tables():
    """For every piece and anchor: the cells just outside the piece (inside the board) that touch
    it once and those that touch it twice, and the number of such neighbour pairs; and per piece
    Σ a² over the rows and columns it spans (a = its cells in that line)."""
    count = len(PIECES)
    once_low = np.zeros((count, CELLS), np.uint64)
    once_high = np.zeros((count, CELLS), np.uint64)
    twice_low = np.zeros((count, CELLS), np.uint64)
    twice_high = np.zeros((count, CELLS), np.uint64)
    pairs = np.zeros((count, CELLS), np.int64)
    squares = np.zeros(count, np.int64)
    for p, piece in enumerate(PIECES):
        squares[p] = sum(int(a) ** 2 for a in board.ROW_CELLS[p]) + sum(int(a) ** 2 for a in board.COLUMN_CELLS[p])
        for row, column in piece.anchors():
            cells = {(row + r, column + c) for r, c in piece.cells}
            touches: dict[tuple[int, int], int] = {}
            for r, c in cells:
                for nr, nc in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)):
                    if 0 <= nr < SIZE and 0 <= nc < SIZE and (nr, nc) not in cells:
                        touches[(nr, nc)] = touches.get((nr, nc), 0) + 1
            once = sum(1 << (SIZE * r + c) for (r, c), n in touches.items() if n == 1)
            twice = sum(1 << (SIZE * r + c) for (r, c), n in touches.items() if n == 2)
            assert all(n <= 2 for n in touches.values())
            m = SIZE * row + column
            once_low[p, m], once_high[p, m] = board.split(once)
            twice_low[p, m], twice_high[p, m] = board.split(twice)
            pairs[p, m] = sum(touches.values())
    return once_low, once_high, twice_low, twice_high, pairs, squares


def _probe_tables():
    low = np.zeros(CELLS, np.uint64)
    high = np.zeros(CELLS, np.uint64)
    anchors = []
    for row in range(SIZE - PROBE_SIZE + 1):
        for column in range(SIZE - PROBE_SIZE + 1):
            mask = sum(1 << (SIZE * (row + r) + column + c) for r in range(PROBE_SIZE) for c in range(PROBE_SIZE))
            m = SIZE * row + column
            low[m], high[m] = board.split(mask)
            anchors.append(m)
    return low, high, np.array(anchors, np.int64)


ONCE_LOW, ONCE_HIGH, TWICE_LOW, TWICE_HIGH, OUTLINE_PAIRS, PIECE_SQUARES = _outline_tables()
SQUARE5_LOW, SQUARE5_HIGH, SQUARE5_ANCHORS = _probe_tables()

#: Everything the planner looks up, in one tuple so the kernels' signatures stay short.
TABLES = (board.PIECE_LOW, board.PIECE_HIGH, board.ANCHORS, board.ANCHOR_COUNT, board.ROW_CELLS,
          board.COLUMN_CELLS, board.SHAPE, board.COLUMN_LOW, board.COLUMN_HIGH, ONCE_LOW, ONCE_HIGH, TWICE_LOW,
          TWICE_HIGH, OUTLINE_PAIRS, PIECE_SQUARES, SQUARE5_LOW, SQUARE5_HIGH, SQUARE5_ANCHORS, PROBE_PIECES)


@kernel
def placement_points(cells, rows, columns):
    """A placement's points (spec 1.3): its cells plus 5·r·(r + 1) for the r rows and columns it
    completed (given as bit masks)."""
    lines = popcount(np.uint64(rows)) + popcount(np.uint64(columns))
    return cells + 5 * lines * (lines + 1)


@kernel
def board_terms(low, high, column_low, column_high, rows, columns):
    """Fill ``rows`` and ``columns`` with their filled cells; return (filled cells, Σ n² over the
    20 lines, differing neighbour pairs inside the board)."""
    filled = 0
    squares = 0
    for r in range(SPLIT_ROW):
        n = popcount((low >> np.uint64(SIZE * r)) & ROW_BITS)
        rows[r] = n
        filled += n
        squares += n * n
    for r in range(SIZE - SPLIT_ROW):
        n = popcount((high >> np.uint64(SIZE * r)) & ROW_BITS)
        rows[SPLIT_ROW + r] = n
        filled += n
        squares += n * n
    for c in range(SIZE):
        n = popcount(low & column_low[c]) + popcount(high & column_high[c])
        columns[c] = n
        squares += n * n
    differing = (popcount((low ^ (low >> np.uint64(1))) & HORIZONTAL_LOW)
                 + popcount((high ^ (high >> np.uint64(1))) & HORIZONTAL_HIGH)
                 + popcount((low ^ (low >> np.uint64(SIZE))) & VERTICAL_LOW)
                 + popcount(((low >> LAST_LOW_ROW) ^ high) & ROW_BITS)
                 + popcount((high ^ (high >> np.uint64(SIZE))) & VERTICAL_HIGH))
    return filled, squares, differing


@kernel
def compose(points, free, square5, big_pieces, squares, differing, weights):
    """The evaluation from its integers, added in the order of spec 3.2."""
    total = POINTS_WEIGHT * points
    total += weights[0] * free
    total += weights[1] * square5
    total += weights[2] * big_pieces
    total += weights[3] * (squares / ALIGNMENT_SCALE)
    total += weights[4] * ((PAIRS - differing) / PAIRS)
    return total


@kernel
def fits_somewhere(low, high, mask_low, mask_high, anchors, count):
    for k in range(count):
        m = anchors[k]
        if low & mask_low[m] == 0 and high & mask_high[m] == 0:
            return 1
    return 0


@kernel
def full_value(low, high, points, weights, tables, rows, columns):
    (piece_low, piece_high, anchors, anchor_count, row_cells, column_cells, shape, column_low, column_high,
     once_low, once_high, twice_low, twice_high, outline_pairs, piece_squares, square5_low, square5_high,
     square5_anchors, probe_pieces) = tables
    filled, squares, differing = board_terms(low, high, column_low, column_high, rows, columns)
    square5 = 0
    if weights[1] != 0.0:
        square5 = fits_somewhere(low, high, square5_low, square5_high, square5_anchors, len(square5_anchors))
    big_pieces = 0
    if weights[2] != 0.0:
        for p in probe_pieces:
            big_pieces += fits_somewhere(low, high, piece_low[p], piece_high[p], anchors[p], anchor_count[p])
    return compose(points, CELLS - filled, square5, big_pieces, squares, differing, weights)


@kernel
def search_item(low, high, order, count, first, swapped, weights, tables, scratch, result):
    """The best plan that starts with piece ``order[0]`` at cell ``first``: result = (value,
    second anchor, third anchor, leaves evaluated); an anchor is -1 where the plan has no piece.

    ``swapped`` skips the plans that an earlier item has already met: when neither of the first two
    placements completes a line, placing them the other way round gives the same board and points.
    1: the order with the first two pieces exchanged comes earlier; 2: the first two pieces are the
    same, so the pair with the smaller first anchor came earlier; 0: no skipping (every first
    placement then gets its own best plan, as the ranked list needs)."""
    (piece_low, piece_high, anchors, anchor_count, row_cells, column_cells, shape, column_low, column_high,
     once_low, once_high, twice_low, twice_high, outline_pairs, piece_squares, square5_low, square5_high,
     square5_anchors, probe_pieces) = tables
    rows, columns, spare_rows, spare_columns = scratch[0], scratch[1], scratch[2], scratch[3]
    incremental = weights[1] == 0.0 and weights[2] == 0.0
    p0 = order[0]
    low1, high1, rows1, columns1 = place(low, high, p0, first, piece_low, piece_high, column_low, column_high)
    points1 = placement_points(shape[p0, 2], rows1, columns1)
    best = -np.inf
    best2 = -1
    best3 = -1
    leaves = 0
    if count == 1:
        best = full_value(low1, high1, points1, weights, tables, spare_rows, spare_columns)
        leaves = 1
    else:
        p1 = order[1]
        placed2 = False
        for k2 in range(anchor_count[p1]):
            m2 = anchors[p1, k2]
            if low1 & piece_low[p1, m2] or high1 & piece_high[p1, m2]:
                continue
            placed2 = True
            low2, high2, rows2, columns2 = place(low1, high1, p1, m2, piece_low, piece_high, column_low, column_high)
            if swapped and rows1 == 0 and columns1 == 0 and rows2 == 0 and columns2 == 0 and (
                    swapped == 1 or m2 < first):
                continue
            points2 = points1 + placement_points(shape[p1, 2], rows2, columns2)
            if count == 2:
                value = full_value(low2, high2, points2, weights, tables, spare_rows, spare_columns)
                leaves += 1
                if value > best:
                    best, best2 = value, m2
                continue
            p2 = order[2]
            filled2, squares2, differing2 = board_terms(low2, high2, column_low, column_high, rows, columns)
            height, width, cells = shape[p2, 0], shape[p2, 1], shape[p2, 2]
            placed3 = False
            for k3 in range(anchor_count[p2]):
                m3 = anchors[p2, k3]
                if low2 & piece_low[p2, m3] or high2 & piece_high[p2, m3]:
                    continue
                placed3 = True
                leaves += 1
                r0 = m3 // SIZE
                c0 = m3 - SIZE * r0
                completes = False
                extra = 0
                for i in range(height):
                    a = row_cells[p2, i]
                    n = rows[r0 + i]
                    if n + a == SIZE:
                        completes = True
                    extra += 2 * n * a
                for j in range(width):
                    a = column_cells[p2, j]
                    n = columns[c0 + j]
                    if n + a == SIZE:
                        completes = True
                    extra += 2 * n * a
                if completes or not incremental:
                    low3, high3, rows3, columns3 = place(low2, high2, p2, m3, piece_low, piece_high, column_low,
                                                         column_high)
                    value = full_value(low3, high3, points2 + placement_points(cells, rows3, columns3), weights,
                                       tables, spare_rows, spare_columns)
                else:
                    touching = (popcount(low2 & once_low[p2, m3]) + popcount(high2 & once_high[p2, m3])
                                + 2 * (popcount(low2 & twice_low[p2, m3]) + popcount(high2 & twice_high[p2, m3])))
                    differing = differing2 + outline_pairs[p2, m3] - 2 * touching
                    value = compose(points2 + cells, CELLS - filled2 - cells, 0, 0,
                                    squares2 + extra + piece_squares[p2], differing, weights)
                if value > best:
                    best, best2, best3 = value, m2, m3
            if not placed3:
                value = full_value(low2, high2, points2, weights, tables, spare_rows, spare_columns) - UNPLACED_PENALTY
                leaves += 1
                if value > best:
                    best, best2, best3 = value, m2, -1
        if not placed2:
            best = full_value(low1, high1, points1, weights, tables, spare_rows, spare_columns) - UNPLACED_PENALTY * (
                count - 1)
            leaves += 1
    result[VALUE] = best
    result[SECOND] = best2
    result[THIRD] = best3
    result[LEAVES] = leaves


@kernel
def make_items(low, high, orders, order_count, tables, item_order, item_first):
    """One item per (order, anchor where the order's first piece fits); their number."""
    piece_low, piece_high, anchors, anchor_count = tables[0], tables[1], tables[2], tables[3]
    count = 0
    for o in range(order_count):
        p = orders[o, 0]
        for k in range(anchor_count[p]):
            m = anchors[p, k]
            if low & piece_low[p, m] == 0 and high & piece_high[p, m] == 0:
                item_order[count] = o
                item_first[count] = m
                count += 1
    return count


@kernel
def run_items(low, high, orders, swapped, pieces_left, item_order, item_first, count, next_item, weights, tables,
              results):
    """A thread's share: items taken one at a time from the counter ``next_item``; ``swapped[o]``
    is :func:`search_item`'s for order o."""
    scratch = np.zeros((4, SIZE), np.int64)
    while True:
        item = fetch_add(next_item, 0, 1)
        if item >= count:
            return
        order = item_order[item]
        search_item(low, high, orders[order], pieces_left, item_first[item], swapped[order], weights, tables, scratch,
                    results[item])
