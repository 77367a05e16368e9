"""2048 on a bitboard: 16 nibbles in a uint64, cell (r, c) at bit 4 * (4r + c), each nibble the
tile's exponent (0 empty). A row is a 16-bit slice whose low nibble is column 0; every slide is
four lookups in tables precomputed for all 65,536 rows (spec 3.1). Columns are handled by
transposing the board.

Nibbles hold exponents up to 15 (32768). A slide that would merge two 32768s is flagged as an
overflow so the caller can use the plain-Python rules instead (see ``engines.g2048.fast``).
"""

from __future__ import annotations

import numpy as np

from engines.jit import kernel, popcount

ROW_MASK = np.uint64(0xFFFF)

UP, RIGHT, DOWN, LEFT = 0, 1, 2, 3


@kernel
def _slide_row_left(row):
    """(result row, points, mask of merged positions, overflow) for one 16-bit row moved toward
    column 0 (its low nibble)."""
    tiles = np.zeros(4, np.int64)
    count = 0
    for position in range(4):
        exponent = (row >> (4 * position)) & 0xF
        if exponent:
            tiles[count] = exponent
            count += 1
    result = 0
    gain = 0
    merged = 0
    overflow = False
    out = 0
    index = 0
    while index < count:
        exponent = tiles[index]
        if index + 1 < count and tiles[index + 1] == exponent:
            if exponent == 15:
                overflow = True
                exponent = 14  # keeps the nibble valid; the caller discards an overflowed result
            exponent += 1
            gain += 1 << exponent
            merged |= 1 << out
            index += 2
        else:
            index += 1
        result |= exponent << (4 * out)
        out += 1
    return result, gain, merged, overflow


@kernel
def _reverse_row(row):
    return ((row & 0xF) << 12) | ((row & 0xF0) << 4) | ((row >> 4) & 0xF0) | ((row >> 12) & 0xF)


@kernel
def _reverse_mask(mask):
    return ((mask & 1) << 3) | ((mask & 2) << 1) | ((mask >> 1) & 2) | ((mask >> 3) & 1)


@kernel
def build_row_tables():
    """Per row: the row after a slide left and right, the points (the same either way: the same
    pairs merge), the merged positions after each, and whether two 32768s would merge."""
    left = np.zeros(65536, np.uint16)
    right = np.zeros(65536, np.uint16)
    gain = np.zeros(65536, np.uint32)
    merged_left = np.zeros(65536, np.uint8)
    merged_right = np.zeros(65536, np.uint8)
    overflow = np.zeros(65536, np.bool_)
    for row in range(65536):
        result, points, merged, over = _slide_row_left(row)
        left[row] = result
        gain[row] = points
        merged_left[row] = merged
        overflow[row] = over
        mirrored = _reverse_row(row)
        result_mirrored, _, merged_mirrored, _ = _slide_row_left(mirrored)
        right[row] = _reverse_row(result_mirrored)
        merged_right[row] = _reverse_mask(merged_mirrored)
    return left, right, gain, merged_left, merged_right, overflow


@kernel
def transpose(board):
    """Swap rows and columns of a nibble board (three mask-and-shift stages)."""
    a1 = board & np.uint64(0xF0F00F0FF0F00F0F)
    a2 = board & np.uint64(0x0000F0F00000F0F0)
    a3 = board & np.uint64(0x0F0F00000F0F0000)
    a = a1 | (a2 << np.uint64(12)) | (a3 >> np.uint64(12))
    b1 = a & np.uint64(0xFF00FF0000FF00FF)
    b2 = a & np.uint64(0x00FF00FF00000000)
    b3 = a & np.uint64(0x00000000FF00FF00)
    return b1 | (b2 >> np.uint64(24)) | (b3 << np.uint64(24))


@kernel
def slide_rows(board, table):
    """Every row of ``board`` replaced by its entry in ``table`` (a left or right slide)."""
    result = np.uint64(0)
    for r in range(4):
        shift = np.uint64(16 * r)
        row = (board >> shift) & ROW_MASK
        result |= np.uint64(table[row]) << shift
    return result


@kernel
def slide(board, direction, left, right):
    """The board after a slide (equal to ``board`` when nothing moves)."""
    if direction == LEFT:
        return slide_rows(board, left)
    if direction == RIGHT:
        return slide_rows(board, right)
    if direction == UP:
        return transpose(slide_rows(transpose(board), left))
    return transpose(slide_rows(transpose(board), right))


@kernel
def slide_details(board, direction, left, right, gain, merged_left, merged_right, overflow):
    """(board after, points, 16-bit mask of cells holding merged tiles, overflow) for a slide."""
    vertical = direction == UP or direction == DOWN
    lines = transpose(board) if vertical else board
    toward_start = direction == UP or direction == LEFT
    result = np.uint64(0)
    points = 0
    cells = 0
    over = False
    for index in range(4):
        shift = np.uint64(16 * index)
        row = (lines >> shift) & ROW_MASK
        points += gain[row]
        over = over or overflow[row]
        if toward_start:
            result |= np.uint64(left[row]) << shift
            merged = merged_left[row]
        else:
            result |= np.uint64(right[row]) << shift
            merged = merged_right[row]
        for position in range(4):
            if merged >> position & 1:
                cell = 4 * position + index if vertical else 4 * index + position
                cells |= 1 << cell
    if vertical:
        result = transpose(result)
    return result, points, cells, over


@kernel
def can_move(board, left, right):
    """Whether any slide moves a tile."""
    for direction in range(4):
        if slide(board, direction, left, right) != board:
            return True
    return False


@kernel
def empty_count(board):
    """Empty cells: each nibble's bits folded into its low bit, then counted in one instruction."""
    folded = board | (board >> np.uint64(2))
    folded |= folded >> np.uint64(1)
    return popcount(~folded & np.uint64(0x1111111111111111))


LEFT_TABLE, RIGHT_TABLE, GAIN_TABLE, MERGED_LEFT_TABLE, MERGED_RIGHT_TABLE, OVERFLOW_TABLE = build_row_tables()
