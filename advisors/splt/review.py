"""Reviewing SPL-T lines: the reference weights' loss of every split (spec 3.3, the weights
playAssist printed), and, where asked, the greedy rollout from the position after the played split
and after the best one (playAssist's "Default Algorithm Record", spec 3.7).

The weights are normalised per position (the lowest legal split gets 0.01, playAssist prints it as
0), so a loss is a difference of two weights of the same position. The thresholds are set from the
weights' own structure: ParanoidPlay calls a gap under 3 a close call worth trying both ways (spec
3.6), the timing and cluster terms move a weight by tens, and a split that wrecks a stack or a
cluster costs a hundred or more.
"""

from __future__ import annotations

import dataclasses

from advisors.review import Judgement, Thresholds
from advisors.splt import weights
from advisors.splt.search import greedy_rollout_length
from engines.splt.state import Move, State

THRESHOLDS = Thresholds(
    inaccuracy=10.0, mistake=40.0, blunder=100.0, unit="weight",
    meaning="reference weights of the same position (spec 3.3): under 3 is a close call ParanoidPlay tries both "
            "ways; 10 is more than any single small term; 100 is a stack's timing or a cluster thrown away")

#: The reviewer's options, for the window's controls and the command line: field -> (label, what it
#: does, lowest, highest; None for a switch).
OPTIONS = {"rollouts": ("Greedy rollouts", "also play a greedy game after the played and the best split (playAssist's "
                        "\"Default Algorithm Record\"; a few milliseconds each)", None, None)}

ROLLOUT_PLAYED = "greedy after played"
ROLLOUT_BEST = "greedy after best"
PLAYED_INDEX = "played box"
BEST_INDEX = "best box"


@dataclasses.dataclass(frozen=True)
class Reviewer:
    """The reference weights' loss; with ``rollouts`` the greedy game's length after the played
    and after the best split too (a few milliseconds each)."""

    rollouts: bool = False
    thresholds: Thresholds = THRESHOLDS
    scale: str = "reference weight"

    @property
    def settings(self) -> str:
        return "weights + greedy rollouts" if self.rollouts else "weights"

    def judge(self, state: State, move: Move) -> Judgement:
        values = weights.weights(state)
        orientation = state.orientation
        legal = [index for index, box in enumerate(state.boxes) if box.can_split(orientation)]
        best = max(legal, key=lambda index: (values[index], -index))  # the lowest index on ties
        played = state.box_index_at(move.x, move.y)
        best_move = Move.of(state.boxes[best])
        extras: list[tuple[str, float | int | str]] = [(PLAYED_INDEX, played), (BEST_INDEX, best)]
        if self.rollouts:
            from engines.splt import GAME

            extras.append((ROLLOUT_PLAYED, greedy_rollout_length(GAME.play(state, move).state)))
            extras.append((ROLLOUT_BEST, greedy_rollout_length(GAME.play(state, best_move).state)))
        return Judgement(best_move, values[best], values[played], tuple(extras))
