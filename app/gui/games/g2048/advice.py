"""The 2048 pieces of the advisor panel and of the arrows on the board.

The advisor (``advisors.g2048``, expectimax) gives the expected value of every slide; slides that
move nothing come last, marked ``legal=False``. The panel names a slide by its direction ("← left"),
adds the share of the best expected value and the search depth, greys the illegal rows and greens
the best one, as the board colours its arrows.
"""

from __future__ import annotations

import math
from typing import Any

import advisors.g2048
from app.gui.games import CandidateColumn
from engines.g2048.state import DIRECTION_NAMES, State

#: The arrow glyph of each direction (0 up, 1 right, 2 down, 3 left).
ARROWS = "↑→↓←"

#: (r, g, b) row cues: the best slide (the board's green arrow) and a slide that moves nothing.
BEST_RGB = (46, 160, 67)
ILLEGAL_RGB = (150, 150, 150)


def rank(state: State, limit: int | None = None) -> list[Any]:
    """The window's ``rank(state, limit)``: the expectimax advisor's four slides at its adaptive
    depth, best first (none while a tile is due or when the game is over), the first ``limit``
    of them if given."""
    candidates = advisors.g2048.rank(state)
    if not any(is_legal(candidate) for candidate in candidates):
        return []  # game over: four slides that move nothing say nothing
    return candidates if limit is None else candidates[:limit]


def is_legal(candidate: Any) -> bool:
    return bool(getattr(candidate, "legal", True))


def direction_label(direction: int) -> str:
    """``← left``."""
    return f"{ARROWS[direction]} {DIRECTION_NAMES[direction]}"


def candidate_label(candidate: Any) -> str:
    """The Move column: ``← left``, or ``↑ up · moves nothing`` for an illegal slide."""
    label = direction_label(candidate.move.direction)
    return label if is_legal(candidate) else f"{label} · moves nothing"


def candidate_color(candidate: Any) -> tuple[int, int, int] | None:
    """Green for the best slide, grey for one that moves nothing, none for the others."""
    if not is_legal(candidate):
        return ILLEGAL_RGB
    return BEST_RGB if candidate.loss == 0 else None


def compact_value(value: float) -> str:
    """An expected value in three significant figures: ``950``, ``28.0k``, ``283k``, ``1.60M``."""
    if not math.isfinite(value):
        return "–"
    if abs(value) < 999.5:
        return f"{value:.0f}"
    for scale, suffix in ((1e3, "k"), (1e6, "M"), (1e9, "G")):
        scaled = value / scale
        decimals = 2 if abs(scaled) < 9.995 else 1 if abs(scaled) < 99.95 else 0
        text = f"{scaled:.{decimals}f}"
        if abs(float(text)) < 1000 or suffix == "G":  # 999.7k rounds to 1000k: say 1.00M
            return text + suffix
    return text  # not reached


def share_text(candidate: Any, best: float | None = None) -> str:
    """The Share column: the expected value as a share of the best (``100%``, ``98.9%``), or
    ``no move`` for an illegal slide."""
    if not is_legal(candidate):
        return "no move"
    best_value = candidate.score + candidate.loss if best is None else best
    if best_value <= 0:
        return ""
    share = candidate.score / best_value
    return "100%" if share >= 0.99995 else f"{share:.1%}"


def depth_text(candidate: Any) -> str:
    return str(getattr(candidate, "depth", "")) if is_legal(candidate) else ""


def arrow_label(candidate: Any) -> str:
    """The value by a candidate's arrow on the board: ``1.60M``."""
    return compact_value(candidate.score)


def candidate_tooltip(candidate: Any, rank_number: int | None = None, of: int | None = None) -> str:
    """A candidate in words: the slide, its rank, its exact expected value and the advisor's sentence."""
    head = direction_label(candidate.move.direction)
    if rank_number is not None:
        head = f"#{rank_number}" + (f" of {of}" if of else "") + f" · {head}"
    lines = [head]
    if is_legal(candidate):
        lines.append(f"expected value {candidate.score:,.0f}" + (f" ({share_text(candidate)} of the best)"
                                                                  if candidate.loss > 0 else ""))
    if candidate.explanation:
        lines.append(candidate.explanation)
    return "\n".join(lines)


COLUMNS = (
    CandidateColumn("Share", share_text,
                    lambda c: "The expected value as a share of the best slide's.\n\n" + candidate_tooltip(c)),
    CandidateColumn("Depth", depth_text,
                    lambda c: "Player moves searched ahead (expectimax, adaptive depth).\n\n" + candidate_tooltip(c)),
)
