"""What to flash on the board after a turn, read from the turn's events (no rule re-derived).

Each highlight is a kind and a rectangle of cells where the thing can be seen *after* the turn:
boxes that fell later in the same turn are followed to where they landed. Exploded blocks are
shown where they were (usually a void or a refill box now).
"""

from __future__ import annotations

import dataclasses
import enum
from collections.abc import Iterable

from engines.splt import (
    BlockHalved,
    BlocksExploded,
    Box,
    BoxesRefilled,
    BoxFell,
    BoxSplit,
    PointBlocksCreated,
)


class Kind(enum.Enum):
    SPLIT = "split"  # the new split line
    CREATED = "created"  # boxes that became point blocks
    EXPLODED = "exploded"  # point blocks that were removed
    FELL = "fell"  # boxes that dropped
    HALVED = "halved"  # point blocks whose number was halved by the fall
    REFILLED = "refilled"  # new boxes from the top


@dataclasses.dataclass(frozen=True)
class Highlight:
    """A rectangle of cells (x, y, w, h); for :attr:`Kind.SPLIT` a line, w or h being 0."""

    kind: Kind
    x: int
    y: int
    w: int
    h: int


def _geometry(box: Box) -> tuple[int, int, int, int]:
    return (box.x, box.y, box.w, box.h)


def highlights_of(events: Iterable[object]) -> list[Highlight]:
    """The highlights of one turn, in drawing order (later ones on top)."""
    # each tracked entry: [kind, current geometry]; falls move the entries seen so far
    tracked: list[list] = []
    split: BoxSplit | None = None
    for event in events:
        if isinstance(event, BoxSplit):
            split = event
            tracked.append(["first", _geometry(event.first)])
            tracked.append(["second", _geometry(event.second)])
        elif isinstance(event, PointBlocksCreated):
            tracked.extend([Kind.CREATED, _geometry(box)] for box in event.boxes)
        elif isinstance(event, BlocksExploded):
            tracked.extend([Kind.EXPLODED, _geometry(box)] for box in event.boxes)
        elif isinstance(event, BoxFell):
            before, after = _geometry(event.before), _geometry(event.after)
            fell_before = False  # this box already fell earlier in the turn (another pass)
            for entry in tracked:
                if entry[0] is not Kind.EXPLODED and entry[1] == before:
                    entry[1] = after
                    fell_before = fell_before or entry[0] is Kind.FELL
            if not fell_before:
                tracked.append([Kind.FELL, after])
        elif isinstance(event, BoxesRefilled):
            tracked.extend([Kind.REFILLED, _geometry(box)] for box in event.boxes)
        elif isinstance(event, BlockHalved):
            tracked.append([Kind.HALVED, _geometry(event.box)])

    order = [Kind.REFILLED, Kind.FELL, Kind.HALVED, Kind.CREATED, Kind.EXPLODED]
    result = [
        Highlight(kind, *geometry)
        for kind in order
        for entry_kind, geometry in tracked
        if entry_kind is kind
    ]
    if split is not None:
        first = next(g for k, g in tracked if k == "first")
        second = next(g for k, g in tracked if k == "second")
        line = _split_line(split.orientation, first, second)
        if line is not None:
            result.append(line)
    return result


def _split_line(orientation: str, first: tuple, second: tuple) -> Highlight | None:
    """The line between the two halves where they ended, if they are still side by side."""
    fx, fy, fw, fh = first
    sx, sy, _, _ = second
    if orientation == "H" and sx == fx and sy == fy + fh:
        return Highlight(Kind.SPLIT, fx, sy, fw, 0)
    if orientation == "V" and sy == fy and sx == fx + fw:
        return Highlight(Kind.SPLIT, sx, fy, 0, fh)
    return None
