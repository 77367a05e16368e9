"""What the advice overlay draws over the real SPL-T game: the best split's line across its box
(the box outlined), the tints of the splits that make a new halving or an unexpected cluster, and
the rank numbers of the first few splits."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from app.gui.games.splt.advice import BEST_RGB, KIND_RGB, RANKED, advice_kind, split_line, tint_strength
from app.gui.overlay_marks import BadgeMark, CellsMark, LineMark, Mark

#: Rank numbers are put on this many splits (the rest of the board stays the game's own).
NUMBERED = 5


def overlay_marks(game: Any, state: Any, candidates: Sequence[Any]) -> tuple[Mark, ...]:
    marks: list[Any] = []
    seen: set[int] = set()
    count = len(candidates)
    badges = []
    for rank, candidate in enumerate(candidates):
        index = state.box_index_at(candidate.move.x, candidate.move.y)
        if index < 0 or index in seen:
            continue
        seen.add(index)
        box = state.boxes[index]
        cells = frozenset((y, x) for x, y in box.cells())
        kind = advice_kind(candidate)
        if kind != RANKED:
            marks.append(CellsMark(cells, fill=KIND_RGB[kind], fill_alpha=tint_strength(rank, count, kind)))
        if rank < NUMBERED:
            colour = BEST_RGB if rank == 0 else KIND_RGB[kind] if kind != RANKED else (235, 235, 235)
            badges.append(BadgeMark((box.y + 0.42, box.x + 0.42), str(rank + 1), colour, best=rank == 0))
    if candidates:
        index = state.box_index_at(candidates[0].move.x, candidates[0].move.y)
        if index >= 0:
            box = state.boxes[index]
            cells = frozenset((y, x) for x, y in box.cells())
            start, end = split_line(box, state.orientation)
            marks.append(CellsMark(cells, outline=BEST_RGB, thick=True))
            marks.append(LineMark(start, end, BEST_RGB))
    return (*marks, *badges)
