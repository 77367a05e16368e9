"""Reviewing HATETRIS lines: every placement's loss on the hand heuristic (D&F's published weights,
spec 3.3-3.4, the advisor panel's scale), and, unless turned off, the score a small beam reaches
from the well after the played placement and after the best one: what the heuristic's loss cost in
lines, looking further than one piece.

The heuristic sees one piece ahead; a record's placements often lose on it to set up lines later
(D&F's 86-line game loses 20 or more at half its placements). So with the beam on, a loss is not
flagged when the beam reaches as many lines after the played placement as after the best.

The thresholds are the heuristic's own prices: a plain hole costs 11, an enclosed hole 84 and a
cleared line 332, so a loss of 20 is about two holes, 84 an enclosed hole, 332 a line given up.
"""

from __future__ import annotations

import dataclasses

from advisors.hatetris.beam import BeamSearch, BeamSettings
from advisors.hatetris.heuristic import DF_WEIGHTS, rank
from advisors.review import Judgement, Thresholds
from engines import limits
from engines.contract import Line
from engines.hatetris import GAME, Placement, State

THRESHOLDS = Thresholds(
    inaccuracy=20.0, mistake=84.0, blunder=332.0, unit="heuristic",
    meaning="D&F's heuristic prices (spec 3.4): 20 is about two holes, 84 an enclosed hole, 332 a cleared line")

DEFAULT_BEAM_WIDTH = 16
DEFAULT_BEAM_DEPTH = 24
#: The reviewer's options, for the window's controls and the command line: field -> (label, what it
#: does, lowest, highest).
OPTIONS = {"beam_width": ("Beam width", "width of the beam run after the played and the best placement (0: off)",
                          0, 1000),
           "beam_depth": ("Beam depth", "pieces the beam looks ahead", 1, 200)}
BEAM_PLAYED = "beam lines after played"
BEAM_BEST = "beam lines after best"


@dataclasses.dataclass(frozen=True)
class Reviewer:
    """The heuristic's loss; with ``beam_width`` above 0, the lines a beam of that width reaches
    within ``beam_depth`` more pieces after the played and after the best placement."""

    beam_width: int = DEFAULT_BEAM_WIDTH
    beam_depth: int = DEFAULT_BEAM_DEPTH
    thresholds: Thresholds = THRESHOLDS
    scale: str = "heuristic (minus D&F's cost)"

    def __post_init__(self) -> None:
        limits.check_int(self.beam_width, "the review beam's width", *OPTIONS["beam_width"][2:])
        limits.check_int(self.beam_depth, "the review beam's depth (pieces)", *OPTIONS["beam_depth"][2:])

    @property
    def settings(self) -> str:
        if not self.beam_width:
            return "heuristic"
        return f"heuristic + beam {self.beam_width} x {self.beam_depth}"

    def judge(self, state: State, move: Placement) -> Judgement:
        candidates = rank(state, weights=DF_WEIGHTS)
        after = GAME.play(state, move).state
        played = next((c for c in candidates if c.move == move or move in c.same_wells), None)
        if played is None:  # the same well reached another way: the candidate leaving it
            played = next(c for c in candidates if c.well_after == after.well and c.next_piece == (
                None if after.over else after.piece))
        best = candidates[0]
        extras: list[tuple[str, float | int | str]] = []
        excused = ""
        if self.beam_width:
            lines_played = self._beam_lines(after)
            lines_best = lines_played if best is played else self._beam_lines(GAME.play(state, best.move).state)
            extras = [(BEAM_PLAYED, lines_played), (BEAM_BEST, lines_best)]
            if played is not best and lines_played >= lines_best:
                excused = f"the beam reaches {lines_played} lines after it, {lines_best} after the best"
        return Judgement(best.move, best.score, played.score, tuple(extras), excused)

    def _beam_lines(self, state: State) -> int:
        """The score the beam reaches from ``state`` (its own score when the game is over)."""
        if state.over:
            return state.score
        search = BeamSearch(Line(state, ()), BeamSettings(width=self.beam_width))
        return search.run(max_depth=self.beam_depth).score
