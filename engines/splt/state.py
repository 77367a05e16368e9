"""SPL-T values: boxes, moves, rule options and the immutable game state.

Coordinates follow the spec: the board is 8 cells wide and 16 tall, x grows to the right, y grows
downwards (y = 0 is the top row). A box is ``(x, y, w, h, points)``; points 0 is a plain box that
can be split, points > 0 a point block counting down.
"""

from __future__ import annotations

import dataclasses
import functools
from typing import Literal

from engines.errors import IllegalMoveError

WIDTH = 8
HEIGHT = 16
#: The largest split count a position may carry. The rules set none, but a cluster made on split N
#: shows N + 1 in the kernels' int32 boxes: 2^30 keeps that far from overflowing for any sequence a
#: file can hold played on from such a position (the record game is 1,196 splits).
MAX_SPLITS = 2 ** 30

Orientation = Literal["H", "V"]


@dataclasses.dataclass(frozen=True, slots=True, order=True)
class Box:
    """An axis-aligned box; ``points`` 0 = plain, > 0 = point block showing that number."""

    x: int
    y: int
    w: int
    h: int
    points: int = 0

    @property
    def is_plain(self) -> bool:
        return self.points == 0

    @property
    def area(self) -> int:
        return self.w * self.h

    @property
    def bottom(self) -> int:
        """The row just below the box (y + h)."""
        return self.y + self.h

    @property
    def right(self) -> int:
        """The column just right of the box (x + w)."""
        return self.x + self.w

    def covers(self, x: int, y: int) -> bool:
        return self.x <= x < self.x + self.w and self.y <= y < self.y + self.h

    def cells(self) -> list[tuple[int, int]]:
        return [(cx, cy) for cy in range(self.y, self.y + self.h) for cx in range(self.x, self.x + self.w)]

    def geometry(self) -> tuple[int, int, int, int]:
        return (self.x, self.y, self.w, self.h)

    def can_split(self, orientation: Orientation) -> bool:
        side = self.h if orientation == "H" else self.w
        return self.points == 0 and side >= 2

    def why_not_splittable(self, orientation: Orientation) -> str | None:
        """None if the box can be split now, else the reason in words."""
        if self.points:
            return f"box {self.label()} is a point block ({self.points}); point blocks cannot be split"
        if orientation == "H" and self.h < 2:
            return f"box {self.label()} cannot split horizontally: height 1"
        if orientation == "V" and self.w < 2:
            return f"box {self.label()} cannot split vertically: width 1"
        return None

    def label(self) -> str:
        return f"({self.x},{self.y},{self.w},{self.h})"


@dataclasses.dataclass(frozen=True, slots=True)
class Move:
    """The box to split, identified by its top-left cell; ``w`` and ``h`` (its size before the
    split) are optional in input and, when given, must match the board."""

    x: int
    y: int
    w: int | None = None
    h: int | None = None

    def __str__(self) -> str:
        if self.w is None or self.h is None:
            return f"{self.x},{self.y}"
        return f"{self.x},{self.y},{self.w},{self.h}"

    @classmethod
    def of(cls, box: Box) -> "Move":
        return cls(box.x, box.y, box.w, box.h)


@dataclasses.dataclass(frozen=True, slots=True)
class Rules:
    """The spec's three open edge cases (1.10), each off by default (the reference behaviour).

    - ``stale_cluster_conversion``: the split check converts every 2x2 group of plain boxes of the
      new half's size anywhere on the board (Craig Polley's ``core.py``), not only groups that
      contain a new half.
    - ``unconditional_refill``: the refill always counts the whole top run of voids, also on a
      turn where something exploded but nothing fell.
    - ``always_late_clusters``: run the late-cluster scan every turn, not only after a fall.
    """

    stale_cluster_conversion: bool = False
    unconditional_refill: bool = False
    always_late_clusters: bool = False

    def flags(self) -> int:
        """The options as the bit mask the kernels take."""
        return (
            (1 if self.stale_cluster_conversion else 0)
            | (2 if self.unconditional_refill else 0)
            | (4 if self.always_late_clusters else 0)
        )

    def names(self) -> list[str]:
        return [field.name for field in dataclasses.fields(self) if getattr(self, field.name)]


DEFAULT_RULES = Rules()


@dataclasses.dataclass(frozen=True)
class State:
    """A full SPL-T position.

    ``boxes`` are kept in the reference emulator's box-list order (spec 2.2): a split box keeps its
    place and the new half is appended, exploded blocks are removed, refill boxes are appended.
    The rules never depend on that order; index-list sequence files and the reference heuristic do.
    """

    boxes: tuple[Box, ...] = (Box(0, 0, WIDTH, HEIGHT),)
    score: int = 0
    splits: int = 0
    rules: Rules = DEFAULT_RULES

    @property
    def orientation(self) -> Orientation:
        """The orientation of the next split: H when the split count is even."""
        return "H" if self.splits % 2 == 0 else "V"

    @functools.cached_property
    def _owner(self) -> tuple[tuple[int, ...], ...]:
        grid = [[-1] * WIDTH for _ in range(HEIGHT)]
        for index, box in enumerate(self.boxes):
            for cx, cy in box.cells():
                grid[cy][cx] = index
        return tuple(tuple(row) for row in grid)

    def box_index_at(self, x: int, y: int) -> int:
        """List index of the box covering cell (x, y), or -1 for a void."""
        if not (0 <= x < WIDTH and 0 <= y < HEIGHT):
            return -1
        return self._owner[y][x]

    def box_at(self, x: int, y: int) -> Box | None:
        index = self.box_index_at(x, y)
        return None if index < 0 else self.boxes[index]

    def voids(self) -> list[tuple[int, int]]:
        """Cells covered by no box, as (x, y), row by row."""
        return [(x, y) for y in range(HEIGHT) for x in range(WIDTH) if self._owner[y][x] < 0]

    def legal_moves(self) -> list[Move]:
        """Every legal split, in box-list order."""
        orientation = self.orientation
        return [Move.of(box) for box in self.boxes if box.can_split(orientation)]

    def is_over(self) -> bool:
        orientation = self.orientation
        return not any(box.can_split(orientation) for box in self.boxes)

    def resolve(self, move: Move) -> int:
        """The list index of the box ``move`` names; raises IllegalMoveError saying why if the
        move cannot be played here."""
        index = self.box_index_at(move.x, move.y)
        if index < 0:
            if not (0 <= move.x < WIDTH and 0 <= move.y < HEIGHT):
                raise IllegalMoveError(f"cell ({move.x},{move.y}) is outside the 8x16 board")
            raise IllegalMoveError(f"cell ({move.x},{move.y}) is a void, not a box")
        box = self.boxes[index]
        if (box.x, box.y) != (move.x, move.y):
            raise IllegalMoveError(
                f"cell ({move.x},{move.y}) is inside box {box.label()}, not its top-left corner"
            )
        if (move.w is not None and move.w != box.w) or (move.h is not None and move.h != box.h):
            raise IllegalMoveError(
                f"the box at ({move.x},{move.y}) is {box.w}x{box.h}, not {move.w}x{move.h}"
            )
        reason = box.why_not_splittable(self.orientation)
        if reason is not None:
            raise IllegalMoveError(reason)
        return index

    def canonical(self) -> "State":
        """The same position with boxes in reading order (top to bottom, left to right): for
        comparing positions whose box-list order is unknown, such as screenshots."""
        ordered = tuple(sorted(self.boxes, key=lambda box: (box.y, box.x)))
        return dataclasses.replace(self, boxes=ordered)

    def same_position(self, other: "State") -> bool:
        """Equal boxes, points, score and split count, whatever the box-list order."""
        return self.canonical() == other.canonical()

    def __str__(self) -> str:
        from engines.splt.notation import board_diagram

        return board_diagram(self)

    def __getstate__(self):  # the owner-grid cache is not part of the value
        return {field.name: getattr(self, field.name) for field in dataclasses.fields(self)}

    def __setstate__(self, values):
        for name, value in values.items():
            object.__setattr__(self, name, value)


def validate_boxes(boxes: tuple[Box, ...]) -> str | None:
    """None if the boxes can form an SPL-T board, else the first reason they cannot: inside the
    board, sides powers of two, no overlap, points not negative."""
    sides_w = (1, 2, 4, 8)
    sides_h = (1, 2, 4, 8, 16)
    covered: dict[tuple[int, int], Box] = {}
    for box in boxes:
        if box.w not in sides_w or box.h not in sides_h:
            return f"box {box.label()}: sides must be powers of two (w 1-8, h 1-16)"
        if box.x < 0 or box.y < 0 or box.right > WIDTH or box.bottom > HEIGHT:
            return f"box {box.label()} does not fit on the 8x16 board"
        if box.points < 0:
            return f"box {box.label()}: points cannot be negative"
        for cell in box.cells():
            if cell in covered:
                return f"boxes {covered[cell].label()} and {box.label()} overlap at cell {cell[0]},{cell[1]}"
            covered[cell] = box
    return None
