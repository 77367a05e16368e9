"""What the advice overlay draws over the real HATETRIS page: the best placement's ghost where the
piece comes to rest, and by it the piece the AI will send after it (and the lines it clears)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from app.gui.games.hatetris.advice import badge_text
from app.gui.games.hatetris.painting import BEST
from app.gui.games.hatetris.placements import placement_cells
from app.gui.overlay_marks import BadgeMark, CellsMark, Mark

BEST_RGB = (BEST.red(), BEST.green(), BEST.blue())


def overlay_marks(game: Any, state: Any, candidates: Sequence[Any]) -> tuple[Mark, ...]:
    if not candidates:
        return ()
    best = candidates[0]
    cells = frozenset((row, column) for column, row in placement_cells(best.move))
    top = min(row for row, _ in cells)
    columns = [column for row, column in cells if row == top]
    # the badge sits just above the ghost's top row, over its middle (inside the well's buffer
    # rows when the ghost is high)
    at = (max(0.55, top - 0.6), (min(columns) + max(columns) + 1) / 2)
    return (CellsMark(cells, outline=BEST_RGB, fill=BEST_RGB, fill_alpha=0.45, thick=True),
            BadgeMark(at, badge_text(best), BEST_RGB, best=True))
