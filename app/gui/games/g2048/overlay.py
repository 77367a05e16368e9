"""What the advice overlay draws over the real 2048 page: the best slide's arrow across the board,
with its expected value and how close the next slide comes (its share of the best's value)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from app.gui.games.g2048.advice import BEST_RGB, compact_value, is_legal, share_text
from app.gui.overlay_marks import ArrowMark, Mark


def overlay_marks(game: Any, state: Any, candidates: Sequence[Any]) -> tuple[Mark, ...]:
    legal = [candidate for candidate in candidates if is_legal(candidate)]
    if not legal:
        return ()
    best = legal[0]
    detail = ""
    if len(legal) > 1:
        share = share_text(legal[1], best.score)
        detail = f"next {share}" if share else ""
    return (ArrowMark(best.move.direction, BEST_RGB, compact_value(best.score), detail),)
