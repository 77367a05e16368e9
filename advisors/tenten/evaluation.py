"""Coelho's evaluation of the board a round leaves (spec 3.2), in plain Python.

The compiled planner (:mod:`advisors.tenten.kernel`) computes the same terms from the same integers
in the same order, so the two agree to the last bit; the tests hold them to it.

    eval = 1e-7 · round points
         + w_free · free cells
         + w_X · (a 5×5 square fits)
         + w_OVH · (fits O + fits H + fits V)
         + w_a · alignment            Σ over the 20 lines of (filled cells)², over 1620
         + w_c · compaction           (180 − differing neighbour pairs inside the board) / 180
"""

from __future__ import annotations

import dataclasses

from engines.tenten.pieces import BY_LETTER, SIZE
from engines.tenten.reference import COLUMN_MASKS, ROW_MASKS

POINTS_WEIGHT = 1e-7
ALIGNMENT_SCALE = 1620.0  # 20 lines · 9²
PAIRS = 180  # 90 horizontal + 90 vertical neighbour pairs inside the board
DIGITS = "0123456789abcdefghijklmnopqrstuvwxyz"
PROBE_SIZE = 5


@dataclasses.dataclass(frozen=True)
class Weights:
    """The five weights, each 0..35: free cells, 5×5 probe, O/H/V probes, alignment, compaction."""

    free: int = 1
    square5: int = 0
    big_pieces: int = 0
    alignment: int = 2
    compaction: int = 5

    def __post_init__(self) -> None:
        for field in dataclasses.fields(self):
            if not 0 <= getattr(self, field.name) <= 35:
                raise ValueError(f"weight {field.name} is one base-36 digit, 0..35")

    @classmethod
    def parse(cls, text: str) -> Weights:
        """Coelho's weight string: a base-36 number whose five last digits are w_free, w_X, w_OVH,
        w_a, w_c (``10025``, ``1a0k5``); case does not matter."""
        try:
            number = int(text.strip(), 36)
        except ValueError:
            raise ValueError(f"{text!r} is not a base-36 weight string such as 10025 or 1a0k5") from None
        digits = [(number // 36 ** power) % 36 for power in (4, 3, 2, 1, 0)]
        return cls(*digits)

    def __str__(self) -> str:
        return "".join(DIGITS[getattr(self, field.name)] for field in dataclasses.fields(self))

    def as_tuple(self) -> tuple[int, int, int, int, int]:
        return (self.free, self.square5, self.big_pieces, self.alignment, self.compaction)


DEFAULT = Weights()

_SQUARE5 = sum(1 << (SIZE * r + c) for r in range(PROBE_SIZE) for c in range(PROBE_SIZE))


def fits_anywhere(filled: int, shape_mask: int, height: int, width: int) -> bool:
    return any(not filled & (shape_mask << (SIZE * r + c))
               for r in range(SIZE - height + 1) for c in range(SIZE - width + 1))


def line_counts(filled: int) -> tuple[list[int], list[int]]:
    """Filled cells of each row and each column."""
    return ([(filled & mask).bit_count() for mask in ROW_MASKS], [(filled & mask).bit_count() for mask in COLUMN_MASKS])


def differing_pairs(filled: int) -> int:
    """Neighbour pairs inside the board whose cells differ (the border is not counted)."""
    count = 0
    for r in range(SIZE):
        for c in range(SIZE):
            here = filled >> (SIZE * r + c) & 1
            if c + 1 < SIZE and here != filled >> (SIZE * r + c + 1) & 1:
                count += 1
            if r + 1 < SIZE and here != filled >> (SIZE * (r + 1) + c) & 1:
                count += 1
    return count


@dataclasses.dataclass(frozen=True)
class Terms:
    """The criteria of one board, before weighting."""

    free: int
    square5: int
    big_pieces: int
    squares: int  # Σ n² over the 20 lines
    differing: int

    @property
    def alignment(self) -> float:
        return self.squares / ALIGNMENT_SCALE

    @property
    def compaction(self) -> float:
        return (PAIRS - self.differing) / PAIRS


def terms(filled: int, probes: bool = True) -> Terms:
    """The criteria of a board; without ``probes`` the two fit probes are left at 0 (a weight of
    0 makes them 0 anyway, spec 3.2)."""
    rows, columns = line_counts(filled)
    square5 = big = 0
    if probes:
        square5 = int(fits_anywhere(filled, _SQUARE5, PROBE_SIZE, PROBE_SIZE))
        big = sum(fits_anywhere(filled, BY_LETTER[letter].mask(0, 0), BY_LETTER[letter].height,
                                BY_LETTER[letter].width) for letter in ("O", "H", "V"))
    return Terms(free=100 - filled.bit_count(), square5=square5, big_pieces=big,
                 squares=sum(n * n for n in rows + columns), differing=differing_pairs(filled))


def value(t: Terms, round_points: int, weights: Weights = DEFAULT) -> float:
    """The evaluation, added left to right as spec 3.2 writes it."""
    total = POINTS_WEIGHT * round_points
    total += weights.free * t.free
    total += weights.square5 * t.square5
    total += weights.big_pieces * t.big_pieces
    total += weights.alignment * (t.squares / ALIGNMENT_SCALE)
    total += weights.compaction * ((PAIRS - t.differing) / PAIRS)
    return total


def evaluate(filled: int, round_points: int = 0, weights: Weights = DEFAULT) -> float:
    return value(terms(filled, probes=bool(weights.square5 or weights.big_pieces)), round_points, weights)
