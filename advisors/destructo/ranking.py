"""Every click of a Destruct-o-Match position ranked, best first (DESIGN.md, "Advisors")."""

from __future__ import annotations

import dataclasses

from advisors.candidate import Candidate
from advisors.destructo import planner
from engines.destructo import Click, State, UseUndo
from engines.destructo.rules import EXPLODE, removal


@dataclasses.dataclass(frozen=True)
class DestructoCandidate(Candidate):
    """A click with what it removes (``cells``: the group, an Overkill's whole colour or an
    Explode's 3x3), its immediate ``points`` and the number of boulders in the group ``size``
    (the Explode's cells for an Explode). ``score`` is the value of the best line found that
    starts with the click: its points plus the end bonus (or Irpan's V where the line stops
    short of the end of the level)."""

    cells: frozenset = frozenset()
    points: int = 0
    size: int = 0


def rank(state: State, limit: int | None = None, width: int | None = None, budget_ms: float = 400.0,
         per_first: int = 2) -> list[DestructoCandidate]:
    """Every click best first, valued by the level planner's beam search (``width``, or the width
    that fits about ``budget_ms``) that also keeps ``per_first`` lines through each first click,
    so every click's value is a line to the end of the level; Explodes and groups alike; with an
    Undo to spend, the undo too, valued by the best line from the board it returns to. Nothing at
    a chance step or after the game."""
    if state.due is not None or state.finished:
        return []
    if width is None:
        boulders = planner.boulders_on(state.board)
        width = planner.fitted_width(budget_ms / 1000.0, max(boulders // 4, 1), state.board)
    found = planner.search(state.board, width, per_first)
    scored = []
    for click, plan in found.by_first.items():
        cells, points = removal(state.board, click.row, click.column)
        scored.append((plan.total, click, cells, points, plan))
    if state.can_undo:  # the board before the last click, valued the same way (its points are kept)
        again = planner.search(state.undo_board, width).best
        scored.append((again.total, UseUndo(), frozenset(), 0, again))
    scored.sort(key=lambda item: (-item[0], isinstance(item[1], UseUndo), item[1] if isinstance(item[1], Click)
                                  else Click(-1, -1)))
    best = scored[0][0] if scored else 0.0
    playing_on = max((item[0] for item in scored if isinstance(item[1], Click)), default=0.0)
    candidates = []
    for value, click, cells, points, plan in scored[:limit]:
        if isinstance(click, UseUndo):
            gain = value - playing_on
            candidates.append(DestructoCandidate(
                move=click, score=value, loss=best - value, principal_variation=(click,) + plan.clicks,
                explanation=(f"Undo: the board before the last click comes back and its points stay; the best line "
                             f"from there is worth {value:.0f}, {abs(gain):.0f} {'more' if gain >= 0 else 'less'} "
                             "than playing on (keeping the Undo for a bigger click may pay more)")))
            continue
        explode = state.board[click.row][click.column].power == EXPLODE
        what = (f"Explode: {len(cells)} boulders, no points" if explode
                else f"{len(cells)} boulders for {points} point{'' if points == 1 else 's'}")
        ending = (f"a line of {len(plan.clicks)} clicks ends the level with {value:.0f}" if plan.complete
                  else f"the best line found through it is worth about {value:.0f}")
        candidates.append(DestructoCandidate(
            move=click, score=value, loss=best - value, explanation=f"{what}; {ending}",
            principal_variation=plan.clicks, cells=frozenset(cells), points=points, size=len(cells)))
    return candidates
