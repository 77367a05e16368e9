"""The 19 pieces of 1010! (spec 1.5): Coelho's one-letter names, shapes and draw weights.

A piece is placed by its anchor, the top-left cell of its bounding box; pieces never rotate. The
weights (out of 42) are Coelho's estimate of the real game's draw; they are data, so a different
estimate can be put in their place.
"""

from __future__ import annotations

import dataclasses

SIZE = 10
CELLS = SIZE * SIZE


@dataclasses.dataclass(frozen=True)
class Piece:
    """One of the 19 shapes. ``cells`` are (row, column) offsets from the anchor."""

    letter: str
    name: str
    cells: tuple[tuple[int, int], ...]
    weight: int

    @property
    def height(self) -> int:
        return 1 + max(r for r, _ in self.cells)

    @property
    def width(self) -> int:
        return 1 + max(c for _, c in self.cells)

    @property
    def size(self) -> int:
        return len(self.cells)

    def mask(self, row: int, column: int) -> int:
        """The board bits (bit 10·row + column) the piece covers with its anchor at (row, column)."""
        bits = 0
        for r, c in self.cells:
            bits |= 1 << (SIZE * (row + r) + column + c)
        return bits

    def anchors(self) -> list[tuple[int, int]]:
        """Every anchor that keeps the piece inside the board, row by row."""
        return [(r, c) for r in range(SIZE - self.height + 1) for c in range(SIZE - self.width + 1)]

    @property
    def rows(self) -> tuple[str, ...]:
        """The shape drawn with ``#`` and ``.``, top row first."""
        return tuple("".join("#" if (r, c) in self.cells else "." for c in range(self.width))
                     for r in range(self.height))


def _shape(letter: str, name: str, drawing: str, weight: int) -> Piece:
    cells = tuple((r, c) for r, row in enumerate(drawing.split("/")) for c, mark in enumerate(row) if mark == "#")
    return Piece(letter, name, cells, weight)


#: In Coelho's order (spec 1.5); the index of a piece in this tuple is its number in the kernels.
PIECES: tuple[Piece, ...] = (
    _shape(".", "single", "#", 2),
    _shape("i", "vertical 2-bar", "#/#", 3),
    _shape("-", "horizontal 2-bar", "##", 3),
    _shape("I", "vertical 3-bar", "#/#/#", 3),
    _shape("_", "horizontal 3-bar", "###", 3),
    _shape("r", "small corner ┌", "##/#.", 2),
    _shape("l", "small corner └", "#./##", 2),
    _shape("j", "small corner ┘", ".#/##", 2),
    _shape("t", "small corner ┐", "##/.#", 2),
    _shape("o", "2×2 square", "##/##", 6),
    _shape("v", "vertical 4-bar", "#/#/#/#", 2),
    _shape("h", "horizontal 4-bar", "####", 2),
    _shape("V", "vertical 5-bar", "#/#/#/#/#", 2),
    _shape("H", "horizontal 5-bar", "#####", 2),
    _shape("R", "big corner ┌", "###/#../#..", 1),
    _shape("L", "big corner └", "#../#../###", 1),
    _shape("J", "big corner ┘", "..#/..#/###", 1),
    _shape("T", "big corner ┐", "###/..#/..#", 1),
    _shape("O", "3×3 square", "###/###/###", 2),
)

BY_LETTER: dict[str, Piece] = {piece.letter: piece for piece in PIECES}
INDEX: dict[str, int] = {piece.letter: number for number, piece in enumerate(PIECES)}
LETTERS = "".join(piece.letter for piece in PIECES)
TOTAL_WEIGHT = sum(piece.weight for piece in PIECES)


def piece(letter: str) -> Piece:
    """The piece of a letter; KeyError names the letters there are."""
    try:
        return BY_LETTER[letter]
    except KeyError:
        raise KeyError(f"{letter!r} is not a piece; the pieces are {' '.join(LETTERS)}") from None


def points(cells: int, lines: int) -> int:
    """Points of one placement (spec 1.3): its cells plus 5·r·(r + 1) for r lines removed."""
    return cells + 5 * lines * (lines + 1)
