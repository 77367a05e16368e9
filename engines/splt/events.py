"""What happens in one SPL-T turn, in the order the rules do it (spec 1.3).

Boxes in events carry their geometry at the moment of the event and, for point blocks, their value
then. The GUI animates and explains a turn from these without re-deriving any rule.
"""

from __future__ import annotations

import dataclasses

from engines.contract import Event
from engines.splt.state import Box, Orientation


@dataclasses.dataclass(frozen=True)
class BoxSplit(Event):
    """Step 1: ``box`` was split into ``first`` (top/left half, keeps its list place) and
    ``second`` (appended to the box list)."""

    box: Box
    orientation: Orientation
    first: Box
    second: Box


@dataclasses.dataclass(frozen=True)
class PointBlocksCreated(Event):
    """Steps 2 and 7: plain boxes that became point blocks, with the value they show at the end of
    the countdown. ``late`` is True for clusters found after boxes fell (step 7)."""

    boxes: tuple[Box, ...]
    value: int
    late: bool


@dataclasses.dataclass(frozen=True)
class BlocksExploded(Event):
    """Step 4: point blocks that counted down past 1 and were removed; ``points`` = their area."""

    boxes: tuple[Box, ...]
    points: int


@dataclasses.dataclass(frozen=True)
class BoxFell(Event):
    """Step 5: a box dropped from ``before`` to ``after`` (same size and points)."""

    before: Box
    after: Box


@dataclasses.dataclass(frozen=True)
class BoxesRefilled(Event):
    """Step 6: new plain boxes that came in from the top, in creation order."""

    boxes: tuple[Box, ...]


@dataclasses.dataclass(frozen=True)
class BlockHalved(Event):
    """Step 8: a point block that fell this turn went from ``before`` to ``after`` (floor; 1 stays
    1); ``box`` is where it ended, with its new value. ``points`` = score gained."""

    box: Box
    before: int
    after: int
    points: int


@dataclasses.dataclass(frozen=True)
class TurnScored(Event):
    """The score of the turn by part (spec 1.7)."""

    split: int
    countdown: int
    explosions: int
    halvings: int
    late_clusters: int

    @property
    def total(self) -> int:
        return self.split + self.countdown + self.explosions + self.halvings + self.late_clusters
