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
    if not candidates or not state.board:
        return ()
    marks: list[Any] = []
    best = candidates[0]
    if isinstance(best.move, Click):
        target = targets_of(game, state).get(best.move)
        cells = target.removed if target is not None else frozenset(getattr(best, "cells", ()))
        if cells:
            marks.append(CellsMark(frozenset(cells), outline=BEST_RGB, fill=BEST_RGB, fill_alpha=0.25, thick=True))
    else:
        # the best is no click (a banked Undo or Shuffle): said over the board's top middle
        marks.append(BadgeMark((0.5, len(state.board[0]) / 2), f"1 {best.move}", BEST_RGB, best=True))
    # numbered by their rank in the panel, as the board view numbers them
    for number, candidate in enumerate(candidates[:NUMBERED], start=1):
        if isinstance(candidate.move, Click):
            marks.append(BadgeMark((candidate.move.row + 0.5, candidate.move.column + 0.5), str(number),
                                   BEST_RGB if number == 1 else OTHER_RGB, best=number == 1))
    return tuple(marks)
