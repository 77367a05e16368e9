"""What happens in a HATETRIS turn, for the window to show and explain."""

from __future__ import annotations

import dataclasses

from engines.contract import Event


@dataclasses.dataclass(frozen=True)
class PieceLocked(Event):
    """The piece came to rest at (x, y, o); ``cells`` are its (column, row) cells."""

    piece: str
    x: int
    y: int
    o: int
    cells: tuple[tuple[int, int], ...]


@dataclasses.dataclass(frozen=True)
class LinesCleared(Event):
    """Full rows removed (row numbers before the clear, top first); ``score`` after."""

    rows: tuple[int, ...]
    score: int


@dataclasses.dataclass(frozen=True)
class PieceSent(Event):
    """The AI's choice and why: per piece in S Z O I L J T order, the highest top row the player
    could keep (``peaks``, larger is better for the player) and the most times one of its futures
    has been seen (``loops``). ``loop_rule_decided`` is true when the loop rule changed the piece
    that height alone would have chosen."""

    piece: str
    peaks: tuple[int, ...]
    loops: tuple[int, ...]
    loop_rule_decided: bool


@dataclasses.dataclass(frozen=True)
class GameEnded(Event):
    """The lock left cells above the bar; no line counts."""

    score: int
