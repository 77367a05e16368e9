"""What happens in a 1010! turn, for the window to show and explain."""

from __future__ import annotations

import dataclasses

from engines.contract import Event


@dataclasses.dataclass(frozen=True)
class PiecePlaced(Event):
    """A piece went down; ``rows`` and ``columns`` are the lines it completed (removed at once)
    and ``points`` its cells plus the line bonus."""

    piece: str
    row: int
    column: int
    rows: tuple[int, ...]
    columns: tuple[int, ...]
    points: int

    @property
    def lines(self) -> int:
        return len(self.rows) + len(self.columns)


@dataclasses.dataclass(frozen=True)
class PiecesDealt(Event):
    pieces: tuple[str, str, str]


@dataclasses.dataclass(frozen=True)
class GameOver(Event):
    """No piece left in the tray fits anywhere."""

    score: int
