"""The round planner, compiled: every order of the tray's pieces and every placement, clears after
each piece, the final board scored by Coelho's evaluation (spec 3.1, 3.2).

The work is split into items, one per (order of the pieces, anchor of the first piece); threads
take items from a shared counter and each writes its item's best plan. Within an item the anchors
are tried in increasing cell order and only a strictly better plan replaces the kept one, so the
plan kept overall is the first best one in the order (order, first, second, third anchor), as in
Coelho's single-threaded program.

Coelho's threaded build searches the first piece's anchors in k classes (m mod k, one after the
other; k = 2 for his Makefile's build, 1 single-threaded), so among equal maxima the plan kept is
the first in the order (order, m1 mod k, m1, m2, m3); the items follow that order.

When only the best plan is wanted, a plan is skipped when an earlier plan in that order is certain
to leave the same board with the same points: when no line clears during the round, placing the
same pieces at the same anchors in another order gives the same board. So a round without clears
is evaluated only in its first order (order 0, equal pieces in increasing anchor order); later
orders look only at plans where some placement completes a line.

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

#: Added to a value's ceiling against rounding (values are near 100, their rounding near 1e-14).
CEILING_MARGIN = 1e-9

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


def _completion_tables():
    """For every piece, line and number of empty cells h in that line: the anchors (as two words,
    bit m of the first for m < 64, bit m - 64 of the second) where one of the piece's rows (for a
    row) or columns (for a column) holds exactly h cells and lies on that line. Where the piece
    fits there, it fills the line."""
    count = len(PIECES)
    table = np.zeros((count, 2 * SIZE, SIZE + 1, 2), np.uint64)
    for p, piece in enumerate(PIECES):
        for row, column in piece.anchors():
            m = SIZE * row + column
            word, bit = divmod(m, 64)
            for i in range(piece.height):
                table[p, row + i, int(board.ROW_CELLS[p, i]), word] |= np.uint64(1 << bit)
            for j in range(piece.width):
                table[p, SIZE + column + j, int(board.COLUMN_CELLS[p, j]), word] |= np.uint64(1 << bit)
    return table


ONCE_LOW, ONCE_HIGH, TWICE_LOW, TWICE_HIGH, OUTLINE_PAIRS, PIECE_SQUARES = _outline_tables()
COMPLETIONS = _completion_tables()
SQUARE5_LOW, SQUARE5_HIGH, SQUARE5_ANCHORS = _probe_tables()

#: Everything the planner looks up, in one tuple so the kernels' signatures stay short.
TABLES = (board.PIECE_LOW, board.PIECE_HIGH, board.ANCHORS, board.ANCHOR_COUNT, board.ROW_CELLS,
          board.COLUMN_CELLS, board.SHAPE, board.COLUMN_LOW, board.COLUMN_HIGH, ONCE_LOW, ONCE_HIGH, TWICE_LOW,
          TWICE_HIGH, OUTLINE_PAIRS, PIECE_SQUARES, SQUARE5_LOW, SQUARE5_HIGH, SQUARE5_ANCHORS, PROBE_PIECES,
          COMPLETIONS)

#: What :func:`search_item` does with a round in which no line clears (``repeats`` per order).
EVERY_PLAN = 0  # evaluate it
CLEARING_ONLY = 1  # skip it: an earlier order meets the same placements
SECOND_AFTER_THIRD = 2  # order 0, second and third pieces equal: skip it when m3 < m2
FIRST_AFTER_THIRD = 3  # order 0, first and third pieces equal: skip it when the third's anchor ranks first
ALL_EQUAL = 4  # order 0, three equal pieces: both of the last two rules


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
     square5_anchors, probe_pieces, completions) = tables
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
def anchor_rank(m, classes):
    """Where first anchor ``m`` comes in Coelho's order: class m mod k first, then m."""
    return (m % classes) * CELLS + m


@kernel
def place_on_clean(low, high, piece, anchor, piece_low, piece_high, column_low, column_high, shape):
    """:func:`engines.tenten.kernel.place` on a board without a full line: only the lines the piece
    covers can fill, so only those are checked. (low, high, rows, columns)."""
    low |= piece_low[piece, anchor]
    high |= piece_high[piece, anchor]
    r0 = anchor // SIZE
    c0 = anchor - SIZE * r0
    rows = 0
    for r in range(r0, r0 + shape[piece, 0]):
        if r < SPLIT_ROW:
            if (low >> np.uint64(SIZE * r)) & ROW_BITS == ROW_BITS:
                rows |= 1 << r
        elif (high >> np.uint64(SIZE * (r - SPLIT_ROW))) & ROW_BITS == ROW_BITS:
            rows |= 1 << r
    columns = 0
    for c in range(c0, c0 + shape[piece, 1]):
        if low & column_low[c] == column_low[c] and high & column_high[c] == column_high[c]:
            columns |= 1 << c
    if rows or columns:
        low, high = board.clear_lines(low, high, rows, columns, column_low, column_high)
    return low, high, rows, columns


@kernel
def added_squares(piece, anchor, rows, columns, row_cells, column_cells, shape):
    """How much Σ n² over the lines grows when ``piece`` goes at ``anchor`` without a clear, less
    the piece's own Σ a²: 2·Σ n·a over the lines it covers; and whether it fills a line."""
    r0 = anchor // SIZE
    c0 = anchor - SIZE * r0
    completes = False
    extra = 0
    for i in range(shape[piece, 0]):
        a = row_cells[piece, i]
        n = rows[r0 + i]
        if n + a == SIZE:
            completes = True
        extra += 2 * n * a
    for j in range(shape[piece, 1]):
        a = column_cells[piece, j]
        n = columns[c0 + j]
        if n + a == SIZE:
            completes = True
        extra += 2 * n * a
    return extra, completes


@kernel
def touching_pairs(low, high, piece, anchor, once_low, once_high, twice_low, twice_high):
    """Neighbour pairs between the piece at ``anchor`` and the filled cells around it."""
    return (popcount(low & once_low[piece, anchor]) + popcount(high & once_high[piece, anchor])
            + 2 * (popcount(low & twice_low[piece, anchor]) + popcount(high & twice_high[piece, anchor])))


@kernel
def search_item(low, high, order, count, first, classes, swapped, repeats, floor, weights, tables, scratch, result):
    """The best plan that starts with piece ``order[0]`` at cell ``first``: result = (value,
    second anchor, third anchor, leaves evaluated); an anchor is -1 where the plan has no piece.

    ``swapped`` skips the plans that an earlier item has already met: when neither of the first two
    placements completes a line, placing them the other way round gives the same board and points.
    1: the order with the first two pieces exchanged comes earlier; 2: the first two pieces are the
    same, so the pair whose first anchor ranks first (:func:`anchor_rank`) came earlier; 0: no
    skipping (every first placement then gets its own best plan, as the ranked list needs).
    ``repeats`` does the same for whole rounds without a clear (:data:`EVERY_PLAN` ...); with
    :data:`CLEARING_ONLY` a plan that cannot place its last piece is not looked at either (the
    caller searches again without skipping when no plan places every piece).

    Third placements that fill no line all leave the same free cells and points; when even the
    largest value their other terms allow is below the best value met so far (this item's, or
    ``floor``, the best of an earlier item: -inf when every item needs its own best), only the
    placements that fill a line are looked at. Pruning strictly lower plans keeps the first best."""
    (piece_low, piece_high, anchors, anchor_count, row_cells, column_cells, shape, column_low, column_high,
     once_low, once_high, twice_low, twice_high, outline_pairs, piece_squares, square5_low, square5_high,
     square5_anchors, probe_pieces, completions) = tables
    rows1, columns1, rows, columns = scratch[0], scratch[1], scratch[2], scratch[3]
    spare_rows, spare_columns = scratch[4], scratch[5]
    incremental = weights[1] == 0.0 and weights[2] == 0.0
    # The most the terms other than points and free cells can add (each criterion is at most 1; 3 probes).
    other_terms = weights[1] + 3.0 * weights[2] + weights[3] + weights[4] + CEILING_MARGIN
    first_rank = anchor_rank(first, classes)
    p0 = order[0]
    # The board given may hold a full line (not a game position): the first placement checks every line.
    low1, high1, cleared_rows1, cleared_columns1 = place(low, high, p0, first, piece_low, piece_high, column_low,
                                                         column_high)
    points1 = placement_points(shape[p0, 2], cleared_rows1, cleared_columns1)
    best = -np.inf
    best2 = -1
    best3 = -1
    leaves = 0
    if count == 1:
        best = full_value(low1, high1, points1, weights, tables, spare_rows, spare_columns)
        leaves = 1
    else:
        p1 = order[1]
        filled1, squares1, differing1 = board_terms(low1, high1, column_low, column_high, rows1, columns1)
        placed2 = False
        for k2 in range(anchor_count[p1]):
            m2 = anchors[p1, k2]
            if low1 & piece_low[p1, m2] or high1 & piece_high[p1, m2]:
                continue
            placed2 = True
            low2, high2, cleared_rows2, cleared_columns2 = place_on_clean(low1, high1, p1, m2, piece_low, piece_high,
                                                                          column_low, column_high, shape)
            unchanged = cleared_rows1 == 0 and cleared_columns1 == 0 and cleared_rows2 == 0 and cleared_columns2 == 0
            if swapped and unchanged and (swapped == 1 or anchor_rank(m2, classes) < first_rank):
                continue
            points2 = points1 + placement_points(shape[p1, 2], cleared_rows2, cleared_columns2)
            if count == 2:
                value = full_value(low2, high2, points2, weights, tables, spare_rows, spare_columns)
                leaves += 1
                if value > best:
                    best, best2 = value, m2
                continue
            p2 = order[2]
            repeat = repeats if unchanged else EVERY_PLAN
            cells1 = shape[p1, 2]
            if cleared_rows2 or cleared_columns2:
                filled2, squares2, differing2 = board_terms(low2, high2, column_low, column_high, rows, columns)
            else:
                # The second piece cleared nothing: board 1's terms plus the piece.
                extra, _ = added_squares(p1, m2, rows1, columns1, row_cells, column_cells, shape)
                for i in range(SIZE):
                    rows[i] = rows1[i]
                    columns[i] = columns1[i]
                r0 = m2 // SIZE
                c0 = m2 - SIZE * r0
                for i in range(shape[p1, 0]):
                    rows[r0 + i] += row_cells[p1, i]
                for j in range(shape[p1, 1]):
                    columns[c0 + j] += column_cells[p1, j]
                filled2 = filled1 + cells1
                squares2 = squares1 + extra + piece_squares[p1]
                differing2 = differing1
                if repeat != CLEARING_ONLY:
                    differing2 += outline_pairs[p1, m2] - 2 * touching_pairs(low1, high1, p1, m2, once_low, once_high,
                                                                             twice_low, twice_high)
            height, width, cells = shape[p2, 0], shape[p2, 1], shape[p2, 2]
            if repeat != CLEARING_ONLY and (POINTS_WEIGHT * (points2 + cells) + weights[0] * (CELLS - filled2 - cells)
                                            + other_terms < max(best, floor)):
                repeat = CLEARING_ONLY
            if repeat == CLEARING_ONLY:
                # Only third placements that fill a line: the anchors that put a row (column) of the
                # piece holding as many cells as a line has empty on that line, in increasing order.
                first_word = np.uint64(0)
                second_word = np.uint64(0)
                for i in range(SIZE):
                    row_holes = SIZE - rows[i]
                    column_holes = SIZE - columns[i]
                    first_word |= completions[p2, i, row_holes, 0] | completions[p2, SIZE + i, column_holes, 0]
                    second_word |= completions[p2, i, row_holes, 1] | completions[p2, SIZE + i, column_holes, 1]
                for w in range(2):
                    bits = first_word if w == 0 else second_word
                    while bits:
                        lowest = bits & (~bits + np.uint64(1))
                        bits ^= lowest
                        m3 = 64 * w + popcount(lowest - np.uint64(1))
                        if low2 & piece_low[p2, m3] or high2 & piece_high[p2, m3]:
                            continue
                        leaves += 1
                        low3, high3, rows3, columns3 = place_on_clean(low2, high2, p2, m3, piece_low, piece_high,
                                                                      column_low, column_high, shape)
                        value = full_value(low3, high3, points2 + placement_points(cells, rows3, columns3), weights,
                                           tables, spare_rows, spare_columns)
                        if value > best:
                            best, best2, best3 = value, m2, m3
                continue
            placed3 = False
            for k3 in range(anchor_count[p2]):
                m3 = anchors[p2, k3]
                if low2 & piece_low[p2, m3] or high2 & piece_high[p2, m3]:
                    continue
                placed3 = True
                # added_squares and touching_pairs written out: this is the innermost loop.
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
                if not completes and repeat != EVERY_PLAN and (
                        (repeat != FIRST_AFTER_THIRD and m3 < m2)
                        or (repeat != SECOND_AFTER_THIRD and anchor_rank(m3, classes) < first_rank)):
                    continue
                leaves += 1
                if completes or not incremental:
                    low3, high3, rows3, columns3 = place_on_clean(low2, high2, p2, m3, piece_low, piece_high,
                                                                  column_low, column_high, shape)
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
def make_items(low, high, orders, order_count, classes, tables, item_order, item_first):
    """One item per (order, anchor where the order's first piece fits), in Coelho's order (order,
    anchor class, anchor); their number."""
    piece_low, piece_high, anchors, anchor_count = tables[0], tables[1], tables[2], tables[3]
    count = 0
    for o in range(order_count):
        p = orders[o, 0]
        for anchor_class in range(classes):
            for k in range(anchor_count[p]):
                m = anchors[p, k]
                if m % classes == anchor_class and low & piece_low[p, m] == 0 and high & piece_high[p, m] == 0:
                    item_order[count] = o
                    item_first[count] = m
                    count += 1
    return count


@kernel
def run_items(low, high, orders, classes, swapped, repeats, prune, pieces_left, item_order, item_first, count,
              next_item, weights, tables, results):
    """A thread's share: items taken one at a time from the counter ``next_item``; ``swapped[o]``
    and ``repeats[o]`` are :func:`search_item`'s for order o; with ``prune``, an item's search
    skips plans below the best of the items this thread searched before."""
    scratch = np.zeros((6, SIZE), np.int64)
    floor = -np.inf
    while True:
        item = fetch_add(next_item, 0, 1)
        if item >= count:
            return
        order = item_order[item]
        search_item(low, high, orders[order], pieces_left, item_first[item], classes, swapped[order], repeats[order],
                    floor, weights, tables, scratch, results[item])
        if prune:
            floor = max(floor, results[item, VALUE])
