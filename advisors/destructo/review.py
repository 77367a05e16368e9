"""Reviewing Destruct-o-Match lines: every click's loss on the value of the best line to the end of
the level (its points plus the end bonus, the level planner's beam search at a fixed width, spec
3.3). The position's value is the best line's; the played click's is the best line through it. A
spent Undo is valued by the best line from the board it brings back. Fills are chance steps of the
line and are not reviewed.
"""

from __future__ import annotations

import dataclasses

from advisors.destructo.ranking import rank
from advisors.review import Judgement, Thresholds
from engines import limits
from engines.destructo.rules import removal
from engines.destructo.state import Click, State, UseUndo

THRESHOLDS = Thresholds(
    inaccuracy=10.0, mistake=30.0, blunder=100.0, unit="points",
    meaning="points to the end of the level (spec 1.2): 10 is one more boulder left at the end (the end bonus "
            "loses 10 a boulder), 30 about the doubling of a 16-boulder group thrown away, 100 the whole end bonus")

DEFAULT_WIDTH = 64
CLICK_POINTS = "points of the click"
#: The reviewer's options, for the window's controls and the command line: field -> (label, what it
#: does, lowest, highest).
OPTIONS = {"width": ("Beam width", "width of the beam that values each click's line to the end of the level",
                     1, 2000)}


@dataclasses.dataclass(frozen=True)
class Reviewer:
    """The line value's loss, from a beam of ``width`` boards to the end of the level."""

    width: int = DEFAULT_WIDTH
    thresholds: Thresholds = THRESHOLDS
    scale: str = "points to the end of the level"

    def __post_init__(self) -> None:
        limits.check_int(self.width, "the review beam's width", *OPTIONS["width"][2:])

    @property
    def settings(self) -> str:
        return f"beam {self.width}"

    def judge(self, state: State, move: Click | UseUndo) -> Judgement:
        candidates = rank(state, width=self.width)
        best = candidates[0]
        if isinstance(move, UseUndo):
            played = next(c for c in candidates if isinstance(c.move, UseUndo))
        else:
            # A click anywhere in a group is that group's click: the candidate removing the same cells.
            removed = frozenset(removal(state.board, move.row, move.column)[0])
            played = next((c for c in candidates if c.move == move), None) or next(
                c for c in candidates if isinstance(c.move, Click) and c.cells == removed)
        return Judgement(best.move, best.score, played.score, ((CLICK_POINTS, played.points),))
