"""The SPL-T pieces of the advisor panel and of the advice drawn on the board.

The heuristic advisor (``advisors.splt.heuristic``) ranks every legal split and runs the two
predictors of spec 3.5 on each. Kibitz shows them the way playAssist did (spec 3.7), with one
colour per predictor answer, the same on the board and in the panel:

- **halving** (green): the split makes a cluster whose explosion is a halving of its own for what
  lies above it ("new halving"; a cluster with no point block under it is not one, see
  ``advisors.splt.heuristic``);
- **cluster** (red): the split makes boxes fall into a cluster nobody split for ("unexpected
  cluster");
- **both** (amber; playAssist used olive);
- **ranked**: a legal split with neither warning (a neutral tint).

Nothing here decides a rule: the predictors' answers come from the advisor, the clusters a split
would make from the engine's own turn events.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import Any

from advisors.splt.predictors import FLOOR
from advisors.splt.search import greedy_rollout_length
from app.gui.games import CandidateColumn
from engines import Game
from engines.splt import Box, Move, PointBlocksCreated, State

BEST = "best"
HALVING = "halving"
CLUSTER = "cluster"
BOTH = "both"
RANKED = "ranked"

#: The fill of each kind of legal split, as (r, g, b); the panel's row cue uses the same.
KIND_RGB: dict[str, tuple[int, int, int]] = {
    HALVING: (40, 205, 70),
    CLUSTER: (240, 55, 45),
    BOTH: (235, 175, 20),
    RANKED: (175, 185, 205),
}
#: The outline of the advisor's best split.
BEST_RGB = (90, 225, 255)

KIND_WORDS = {
    HALVING: "new halving",
    CLUSTER: "unexpected cluster",
    BOTH: "new halving and unexpected cluster",
    RANKED: "",
}


def advice_kind(candidate: Any) -> str:
    """Which predictor fired for a candidate: :data:`HALVING`, :data:`CLUSTER`, :data:`BOTH` or
    :data:`RANKED` (neither)."""
    halving = bool(getattr(candidate, "new_halving", False))
    unexpected = bool(getattr(candidate, "unexpected", ()))
    if halving and unexpected:
        return BOTH
    if halving:
        return HALVING
    if unexpected:
        return CLUSTER
    return RANKED


def candidate_color(candidate: Any) -> tuple[int, int, int] | None:
    """The panel's colour cue of a row: the board's fill, or None for a split without warnings."""
    kind = advice_kind(candidate)
    return None if kind == RANKED else KIND_RGB[kind]


def candidate_label(candidate: Any) -> str:
    """The Move column: playAssist's box index and the move, e.g. ``[108] 3,2,1,2``."""
    move = candidate.move
    text = str(move)
    index = getattr(candidate, "index", -1)
    return f"[{index}] {text}" if index >= 0 else text


# -- extra columns ---------------------------------------------------------------------------------
def halving_text(candidate: Any) -> str:
    """The Halving column, from the advisor's forecast of the cluster the split makes:

    - ``new ×2``: a new halving (its explosion adds a halving to the stack of point blocks under
      it, which halve it twice before it explodes);
    - ``×5``: it explodes together with a block under it (no new halving; halved 5 times first);
    - ``no stack``: no point block under it (it rests on plain boxes or the floor), so nothing
      under it halves it and its explosion adds no halving to a stack;
    - ``?``: the blocks under it explode at different times, the forecast cannot tell;
    - empty when the split makes no cluster."""
    if not getattr(candidate, "cluster", ()):
        return ""
    forecast = getattr(candidate, "forecast", None)
    if getattr(candidate, "new_halving", False):
        return f"new ×{candidate.halvings}"
    if forecast is not None and not forecast.known:
        return "?"
    if forecast is not None and not forecast.stacked:
        return "no stack"
    return f"×{candidate.halvings}"


def halving_tooltip(candidate: Any) -> str:
    if not getattr(candidate, "cluster", ()):
        return "This split makes no cluster."
    count = candidate.halvings
    times = f"{count} time{'' if count == 1 else 's'}"
    if candidate.new_halving:
        return (f"New halving: this cluster explodes on its own, so its explosion halves what lies "
                f"above it as a halving of its own (the point blocks under it halve its blocks "
                f"{times} before they explode).")
    forecast = getattr(candidate, "forecast", None)
    if forecast is not None and not forecast.known:
        return ("Not a new halving as far as the forecast can tell: the point blocks under this "
                "cluster explode at different times, so it cannot tell how often its blocks are "
                "halved.")
    if forecast is not None and not forecast.stacked:
        if forecast.base == FLOOR:
            return ("No new halving: this cluster rests on the floor. Nothing under it can "
                    "explode, so its blocks are never halved; they explode only when their own "
                    "countdown runs out.")
        return ("No new halving: this cluster rests on plain boxes, with no point block under it. "
                "Its explosion adds no halving to a stack and nothing under it counts down to "
                "halve it (its blocks are halved only if the boxes under them fall, when blocks "
                "further down explode).")
    return (f"No new halving: this cluster explodes together with a point block under it, so "
            f"its explosion is not a separate halving for what lies above (the blocks under it "
            f"halve its blocks {times} first).")


def warning_text(candidate: Any) -> str:
    """The warnings in a word or two each ("unexpected cluster"), the full text is the tooltip."""
    return ", ".join(warning.split(":", 1)[0] for warning in candidate.warnings)


def warning_tooltip(candidate: Any) -> str:
    return "\n".join(candidate.warnings)


COLUMNS = (
    CandidateColumn("Halving", halving_text, halving_tooltip),
    CandidateColumn("Warning", warning_text, warning_tooltip, compact=True),
)


# -- greedy rollout --------------------------------------------------------------------------------
def rollout_text(state: State) -> str:
    """The advisor summary's extra words, e.g. ``greedy from here: 1085 splits (+79)``."""
    end = greedy_rollout_length(state)
    if end <= state.splits:
        return f"greedy from here: {end} splits (game over)"
    return f"greedy from here: {end} splits (+{end - state.splits})"


# -- what the board marks --------------------------------------------------------------------------
def advice_marks_of(state: State, candidates: Sequence[Any]) -> dict[int, str]:
    """Box-list index -> :data:`BEST` for the first candidate, else its :func:`advice_kind`.
    Candidates that do not name a box of ``state`` are left out."""
    marks: dict[int, str] = {}
    for rank, candidate in enumerate(candidates):
        index = state.box_index_at(candidate.move.x, candidate.move.y)
        if index < 0 or index in marks:
            continue
        marks[index] = BEST if rank == 0 else advice_kind(candidate)
    return marks


def split_line(box: Box, orientation: str) -> tuple[tuple[int, int], tuple[int, int]]:
    """The line a split of ``box`` draws, as (row, column) grid points from its start to its end:
    across its middle row line for H, its middle column line for V, where the engine cuts it."""
    if orientation == "H":
        row = box.y + box.h // 2
        return (row, box.x), (row, box.x + box.w)
    column = box.x + box.w // 2
    return (box.y, column), (box.y + box.h, column)


def tint_strength(rank: int, count: int, kind: str = RANKED) -> float:
    """Opacity of a candidate's fill: strong for the best, fading with rank. A warning colour
    stays clearly visible at any rank; the neutral tint of the last splits fades to a shade
    above the game's black, so a board with many candidates still looks like the game."""
    fraction = rank / (count - 1) if count > 1 else 0.0
    if kind == RANKED:
        return 0.45 - 0.33 * fraction
    return 0.65 - 0.27 * fraction


@dataclasses.dataclass(frozen=True)
class SplitPreview:
    """What a split would do that the board can outline: ``made`` = the cluster the split makes
    (its boxes right after the split, before anything falls), ``late`` = the unexpected cluster
    boxes fall into (where they land)."""

    made: tuple[Box, ...] = ()
    late: tuple[Box, ...] = ()


def split_preview(game: Game, state: State, move: Move) -> SplitPreview:
    """Play ``move`` in the engine and read its clusters off the turn's events (empty if the move
    is illegal)."""
    try:
        step = game.play(state, move)
    except ValueError:
        return SplitPreview()
    made: list[Box] = []
    late: list[Box] = []
    for event in step.events:
        if isinstance(event, PointBlocksCreated):
            (late if event.late else made).extend(event.boxes)
    return SplitPreview(tuple(made), tuple(late))
