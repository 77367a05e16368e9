"""The seven HATETRIS pieces, their four orientations and the tables the kernels use.

Pieces are numbered in the enemy AI's tie-break order S, Z, O, I, L, J, T (spec 1.6), so a piece's
number is its rank. Orientation o + 1 is orientation o turned clockwise about the centre of the
4 x 4 box: cell (cx, cy) goes to (3 - cy, cx) (spec 1.2).
"""

from __future__ import annotations

import numpy as np

PIECES = "SZOILJT"
PIECE_INDEX = {letter: index for index, letter in enumerate(PIECES)}

# Orientation 0 of each piece in its 4 x 4 box (spec 1.2); the others are turned from it.
_ORIENTATION_ZERO = {
    "S": ((2, 1), (3, 1), (1, 2), (2, 2)),
    "Z": ((1, 1), (2, 1), (2, 2), (3, 2)),
    "O": ((1, 1), (2, 1), (1, 2), (2, 2)),
    "I": ((0, 1), (1, 1), (2, 1), (3, 1)),
    "L": ((1, 1), (2, 1), (3, 1), (1, 2)),
    "J": ((1, 1), (2, 1), (1, 2), (1, 3)),
    "T": ((1, 1), (2, 1), (3, 1), (2, 2)),
}


def _turn(cells: tuple[tuple[int, int], ...]) -> tuple[tuple[int, int], ...]:
    return tuple(sorted(((3 - cy, cx) for cx, cy in cells), key=lambda cell: (cell[1], cell[0])))


def _orientations(letter: str) -> tuple[tuple[tuple[int, int], ...], ...]:
    cells = tuple(sorted(_ORIENTATION_ZERO[letter], key=lambda cell: (cell[1], cell[0])))
    turns = [cells]
    for _ in range(3):
        turns.append(_turn(turns[-1]))
    return tuple(turns)


#: CELLS[piece][o] = the four (cx, cy) cells, top row first.
CELLS: tuple[tuple[tuple[tuple[int, int], ...], ...], ...] = tuple(_orientations(p) for p in PIECES)


def bounding_box(piece: int, orientation: int) -> tuple[int, int, int, int]:
    """(xMin, yMin, xDim, yDim) of the occupied cells inside the 4 x 4 box."""
    xs = [cx for cx, _ in CELLS[piece][orientation]]
    ys = [cy for _, cy in CELLS[piece][orientation]]
    return min(xs), min(ys), max(xs) - min(xs) + 1, max(ys) - min(ys) + 1


def _row_masks() -> np.ndarray:
    """ROW_MASKS[piece, o, cy] = bits of the box row cy (bit cx = column cx of the box)."""
    masks = np.zeros((7, 4, 4), dtype=np.int64)
    for piece in range(7):
        for orientation in range(4):
            for cx, cy in CELLS[piece][orientation]:
                masks[piece, orientation, cy] |= 1 << cx
    return masks


def _boxes() -> np.ndarray:
    boxes = np.zeros((7, 4, 4), dtype=np.int64)
    for piece in range(7):
        for orientation in range(4):
            boxes[piece, orientation] = bounding_box(piece, orientation)
    return boxes


ROW_MASKS = _row_masks()
#: BOXES[piece, o] = (xMin, yMin, xDim, yDim)
BOXES = _boxes()

ROW_MASKS.setflags(write=False)
BOXES.setflags(write=False)
