"""The 1010! bitboard for numba: 100 cells in two uint64 words.

``low`` holds rows 0-5 (cell 10·row + column at bit 10·row + column), ``high`` rows 6-9 (cell at
bit 10·(row - 6) + column). A piece with its anchor at cell m = 10·row + column is a pair of masks
looked up in :data:`PIECE_LOW` / :data:`PIECE_HIGH`; it fits when both AND to zero.
"""

from __future__ import annotations

import numpy as np

from engines.jit import kernel
from engines.tenten.pieces import CELLS, PIECES, SIZE

SPLIT_ROW = 6
SPLIT_BIT = SIZE * SPLIT_ROW
LOW_MASK = (1 << SPLIT_BIT) - 1
ROW_BITS = np.uint64((1 << SIZE) - 1)
PIECE_COUNT = len(PIECES)
MAX_SPAN = 5


def split(filled: int) -> tuple[np.uint64, np.uint64]:
    """The two words of a 100-bit board."""
    return np.uint64(filled & LOW_MASK), np.uint64(filled >> SPLIT_BIT)


def join(low, high) -> int:
    return int(low) | int(high) << SPLIT_BIT


def _tables():
    low = np.zeros((PIECE_COUNT, CELLS), np.uint64)
    high = np.zeros((PIECE_COUNT, CELLS), np.uint64)
    anchors = np.zeros((PIECE_COUNT, CELLS), np.int64)
    anchor_count = np.zeros(PIECE_COUNT, np.int64)
    row_cells = np.zeros((PIECE_COUNT, MAX_SPAN), np.int64)
    column_cells = np.zeros((PIECE_COUNT, MAX_SPAN), np.int64)
    shape = np.zeros((PIECE_COUNT, 3), np.int64)  # height, width, cells
    for p, piece in enumerate(PIECES):
        for r, c in piece.cells:
            row_cells[p, r] += 1
            column_cells[p, c] += 1
        shape[p] = piece.height, piece.width, piece.size
        for r, c in piece.anchors():
            m = SIZE * r + c
            lo, hi = split(piece.mask(r, c))
            low[p, m], high[p, m] = lo, hi
            anchors[p, anchor_count[p]] = m
            anchor_count[p] += 1
    column_low = np.array([sum(1 << (SIZE * r + c) for r in range(SPLIT_ROW)) for c in range(SIZE)], np.uint64)
    column_high = np.array([sum(1 << (SIZE * r + c) for r in range(SIZE - SPLIT_ROW)) for c in range(SIZE)],
                           np.uint64)
    return low, high, anchors, anchor_count, row_cells, column_cells, shape, column_low, column_high


(PIECE_LOW, PIECE_HIGH, ANCHORS, ANCHOR_COUNT, ROW_CELLS, COLUMN_CELLS, SHAPE, COLUMN_LOW,
 COLUMN_HIGH) = _tables()


@kernel
def full_lines(low, high, column_low, column_high):
    """Bit masks of the full rows (bit r) and full columns (bit c)."""
    rows = 0
    for r in range(SPLIT_ROW):
        if (low >> np.uint64(SIZE * r)) & ROW_BITS == ROW_BITS:
            rows |= 1 << r
    for r in range(SIZE - SPLIT_ROW):
        if (high >> np.uint64(SIZE * r)) & ROW_BITS == ROW_BITS:
            rows |= 1 << (SPLIT_ROW + r)
    columns = 0
    for c in range(SIZE):
        if low & column_low[c] == column_low[c] and high & column_high[c] == column_high[c]:
            columns |= 1 << c
    return rows, columns


@kernel
def clear_lines(low, high, rows, columns, column_low, column_high):
    """The board with the given rows and columns emptied."""
    for r in range(SIZE):
        if rows >> r & 1:
            if r < SPLIT_ROW:
                low &= ~(ROW_BITS << np.uint64(SIZE * r))
            else:
                high &= ~(ROW_BITS << np.uint64(SIZE * (r - SPLIT_ROW)))
    for c in range(SIZE):
        if columns >> c & 1:
            low &= ~column_low[c]
            high &= ~column_high[c]
    return low, high


@kernel
def place(low, high, piece, anchor, piece_low, piece_high, column_low, column_high):
    """Place ``piece`` at cell ``anchor`` (it must fit) and clear: (low, high, rows, columns)."""
    low |= piece_low[piece, anchor]
    high |= piece_high[piece, anchor]
    rows, columns = full_lines(low, high, column_low, column_high)
    if rows or columns:
        low, high = clear_lines(low, high, rows, columns, column_low, column_high)
    return low, high, rows, columns


@kernel
def fitting_anchors(low, high, piece, piece_low, piece_high, anchors, anchor_count, out):
    """Write into ``out`` the anchors (cells 10·row + column) where ``piece`` fits; their number."""
    count = 0
    for k in range(anchor_count[piece]):
        m = anchors[piece, k]
        if low & piece_low[piece, m] == 0 and high & piece_high[piece, m] == 0:
            out[count] = m
            count += 1
    return count


@kernel
def fits_anywhere(low, high, piece, piece_low, piece_high, anchors, anchor_count):
    for k in range(anchor_count[piece]):
        m = anchors[piece, k]
        if low & piece_low[piece, m] == 0 and high & piece_high[piece, m] == 0:
            return True
    return False

