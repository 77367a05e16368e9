"""Reviewing 2048 lines: every slide's expected-value loss from expectimax at a fixed depth.

Expected values grow with the board (a few thousand early, millions late), so a loss is classed by
the share of the position's value it gives up, not by its size: a slide worth 1 % less than the
best is a slip whatever the stage of the game. The new tiles are chance steps of the line and are
not reviewed.
"""

from __future__ import annotations

import dataclasses

from advisors.g2048.search import Budget, Expectimax
from advisors.instances import shared
from advisors.review import Judgement, Thresholds
from engines import limits
from engines.g2048.state import Slide, State

THRESHOLDS = Thresholds(
    inaccuracy=0.005, mistake=0.02, blunder=0.08, unit="of the expected value", relative=True,
    meaning="share of the best slide's expected value given up. The heuristic's values carry a large constant, so "
            "shares are small: in a seeded game where one slide in five was random, the depth-2 advisor's own "
            "choices lost under 0.2 % at depth 3 and the random slides most of what lies above")

DEFAULT_DEPTH = 3
SEARCH_DEPTH = "depth"
#: The reviewer's options, for the window's controls and the command line: field -> (label, what it
#: does, lowest, highest). Depth 8 takes about a second a slide late in a game: a review of hundreds
#: of slides deeper than that would take hours.
OPTIONS = {"depth": ("Depth", "expectimax depth (player moves) of the review", 1, 8)}


@dataclasses.dataclass(frozen=True)
class Reviewer:
    """Expectimax at ``depth`` player moves below each slide (the same search as the advisor, at
    a fixed depth so a review reads the same on every machine)."""

    depth: int = DEFAULT_DEPTH
    thresholds: Thresholds = THRESHOLDS
    scale: str = "expected score (heuristic)"

    def __post_init__(self) -> None:
        limits.check_int(self.depth, "the review depth (player moves)", *OPTIONS["depth"][2:])

    @property
    def settings(self) -> str:
        return f"depth {self.depth}"

    def judge(self, state: State, move: Slide) -> Judgement:
        evaluation = _search().evaluate(state, Budget(depth=self.depth))
        values = evaluation.values
        best = evaluation.best_direction
        played = values[move.direction]
        if best is None or played is None:  # the rules refuse such a slide before it gets here
            raise ValueError(f"slide {move} moves nothing")
        return Judgement(Slide(best), values[best], played, ((SEARCH_DEPTH, evaluation.depth),))



def _search() -> Expectimax:
    return shared("2048 review search", Expectimax)
