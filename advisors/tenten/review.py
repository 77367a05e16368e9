"""Reviewing 1010! lines: every placement's loss on the evaluation of the round's plan.

A round is three placements. At each one the planner (Coelho's exhaustive round search and his
evaluation, spec 3.1) gives the best plan for every first placement of the pieces still in the
tray; the position's value is the best plan's, the played placement's value is the best plan that
starts with it. So a placement that spoils the round costs what the best way to finish the round
after it loses, and one that keeps the best plan in reach costs 0. The deals are chance steps of
the line and are not reviewed.
"""

from __future__ import annotations

import dataclasses

from advisors.instances import shared
from advisors.review import Judgement, Thresholds
from advisors.tenten.planner import Planner
from engines.tenten.state import Place, State

THRESHOLDS = Thresholds(
    inaccuracy=3.0, mistake=10.0, blunder=30.0, unit="evaluation",
    meaning="Coelho's evaluation (spec 3.2): 1 a free cell, up to 2 for alignment and 5 for compaction; 3 is the "
            "board's shape spoiled, 10 a line's worth of cells left filled, 30 three lines (a round that cannot be "
            "placed costs 10,000 a piece)")

PLAN_LENGTH = "pieces in the best plan"
OPTIONS: dict = {}


@dataclasses.dataclass(frozen=True)
class Reviewer:
    """The planner's evaluation loss of each placement."""

    thresholds: Thresholds = THRESHOLDS
    scale: str = "plan evaluation"

    @property
    def settings(self) -> str:
        return "round plan"

    def judge(self, state: State, move: Place) -> Judgement:
        candidates = _planner().rank(state)
        best = candidates[0]
        played = next((c for c in candidates if c.move == move), None)
        if played is None:  # the same piece from the other of two equal slots: the same placement
            played = next(c for c in candidates if (c.move.piece, c.move.row, c.move.column) ==
                          (move.piece, move.row, move.column))
        return Judgement(best.move, best.score, played.score, ((PLAN_LENGTH, len(best.plan.placements)),))



def _planner() -> Planner:
    return shared("1010 review planner", Planner)
