"""What the advice overlay draws over the real 1010! game: the best plan's pieces as ghosts where
they go, each numbered in the order to place them (a later piece may take cells an earlier one's
cleared line frees: its outline is dashed)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from app.gui.games.tenten.board import PLAN, piece_color, plan_steps
from app.gui.overlay_marks import BadgeMark, CellsMark, Mark

PLAN_RGB = (PLAN.red(), PLAN.green(), PLAN.blue())


def overlay_marks(game: Any, state: Any, candidates: Sequence[Any]) -> tuple[Mark, ...]:
    if not candidates:
        return ()
    best = candidates[0]
    plan = getattr(best, "plan", None)
    placements = plan.placements if plan is not None else (best.move,)
    marks: list[Any] = []
    badges = []
    for step in plan_steps(game, state, tuple(placements)):
        cells = frozenset(step.cells)
        marks.append(CellsMark(cells, outline=PLAN_RGB, fill=piece_color(step.place.piece).getRgb()[:3], fill_alpha=0.6,
                               thick=step.number == 1, dashed=bool(step.reused)))
        row, column = min(step.cells)
        badges.append(BadgeMark((row + 0.5, column + 0.5), str(step.number), PLAN_RGB, best=step.number == 1))
    return (*marks, *badges)
