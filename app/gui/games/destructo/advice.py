"""The Destruct-o-Match pieces of the advisor panel.

The advisor (``advisors.destructo``) values every group and Explode by the best line it finds
after the click. The panel adds the boulders the click removes, its own points and the line; the
best row gets the colour the board outlines the best group with.
"""

from __future__ import annotations

from typing import Any

import advisors.destructo
from app.gui.games import CandidateColumn
from engines.destructo.state import Click, State

#: (r, g, b) of the best candidate's row: the board's outline of the best group.
BEST_RGB = (0, 229, 255)


def rank(state: State, limit: int | None = None) -> list[Any]:
    """The window's ``rank(state, limit)``: every click best first (none at a chance step or
    after the game)."""
    if state.due is not None or state.finished:
        return []
    return advisors.destructo.rank(state, limit)


def is_explode(candidate: Any) -> bool:
    """An Explode scores nothing; every group scores at least 2 (spec 1.2). (The banked Undo,
    ranked too, is no click.)"""
    return isinstance(candidate.move, Click) and candidate.points == 0


def candidate_label(candidate: Any) -> str:
    """The Move column: the click as the move tree writes it (``3,7``, row and column from the
    top left, from 0), ``3,7 Explode`` for an Explode."""
    text = str(candidate.move)
    return f"{text} Explode" if is_explode(candidate) else text


def candidate_color(candidate: Any) -> tuple[int, int, int] | None:
    return BEST_RGB if candidate.loss == 0 else None


#: How many clicks of a line the Line column shows before it says how long the line is.
LINE_CLICKS_SHOWN = 2


def line_text(candidate: Any) -> str:
    """The line the value comes from: ``11,8 → 1,4``, or its length and first clicks
    (``39 clicks: 11,8 → 1,4 …``; the tooltip has them all)."""
    line = candidate.principal_variation
    shown = " → ".join(str(move) for move in line[:LINE_CLICKS_SHOWN])
    return shown if len(line) <= LINE_CLICKS_SHOWN else f"{len(line)} clicks: {shown} …"


def full_line(candidate: Any) -> str:
    """Every click of the line, a few to a row (for the tooltip)."""
    clicks = [str(move) for move in candidate.principal_variation]
    rows = [" → ".join(clicks[start:start + 8]) for start in range(0, len(clicks), 8)]
    return " →\n".join(rows)


def boulders_text(candidate: Any) -> str:
    return str(candidate.size) if isinstance(candidate.move, Click) else ""


def points_text(candidate: Any) -> str:
    if not isinstance(candidate.move, Click):
        return ""  # the Undo: no points of its own, the undone click's stay
    return "—" if is_explode(candidate) else str(candidate.points)


def explanation(candidate: Any) -> str:
    return candidate.explanation


COLUMNS = (
    CandidateColumn("Boulders", boulders_text,
                    lambda c: "Boulders the click removes (an Explode: its 3×3).\n\n" + explanation(c)),
    CandidateColumn("Points", points_text,
                    lambda c: "Points of the click itself (spec 1.2; ×3 with a Multiplier; an Explode scores none)."
                    "\n\n" + explanation(c)),
    CandidateColumn("Line", line_text,
                    lambda c: f"The line the value comes from:\n{full_line(c)}\n\n" + explanation(c)),
)
