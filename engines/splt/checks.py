"""Checks of a valid position for things the real game would hardly leave on screen.

They never make a position invalid (the parser decides that, ``notation.parse_board``); tools
that let a player set up a board by hand use them to warn about likely mistakes.
"""

from __future__ import annotations

from engines.splt.reference import _Board
from engines.splt.state import Box, State


def standing_clusters(state: State) -> list[Box]:
    """The plain boxes that belong to a 2x2 group of equal plain boxes (the pattern of spec 1.4),
    in box-list order.

    The game turns such a group into point blocks on the turn it appears, so a real screen shows
    one only in the rare stale case of spec 1.10.1; on a board set up by hand it usually means
    some point values were forgotten.
    """
    board = _Board(state.boxes)
    members = {id(box) for box in board.squares_anywhere()}
    return [Box(*box) for box in board.boxes if id(box) in members]
