"""What the advice overlay draws over the real Destruct-o-Match game: the outline of what the best
click removes, and the first few candidates' numbers on the boulders to click."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from app.gui.games.destructo.advice import BEST_RGB
from app.gui.games.destructo.board import NUMBERED, targets_of
from app.gui.overlay_marks import BadgeMark, CellsMark, Mark
from engines.destructo import Click

OTHER_RGB = (250, 250, 250)


def overlay_marks(game: Any, state: Any, candidates: Sequence[Any]) -> tuple[Mark, ...]:
    clicks = [candidate for candidate in candidates if isinstance(candidate.move, Click)]
    if not clicks:
        return ()
    targets = targets_of(game, state)
    marks: list[Any] = []
    best = targets.get(clicks[0].move)
    cells = best.removed if best is not None else frozenset(getattr(clicks[0], "cells", ()))
    if cells:
        marks.append(CellsMark(frozenset(cells), outline=BEST_RGB, fill=BEST_RGB, fill_alpha=0.25, thick=True))
    for number, candidate in enumerate(clicks[:NUMBERED], start=1):
        marks.append(BadgeMark((candidate.move.row + 0.5, candidate.move.column + 0.5), str(number),
                               BEST_RGB if number == 1 else OTHER_RGB, best=number == 1))
    return tuple(marks)
