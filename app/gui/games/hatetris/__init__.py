"""HATETRIS in the window: the well widget, the status-bar words, and the hand heuristic's
ranked placements with the piece the AI sends after each, and the beam search."""

from __future__ import annotations

from advisors.hatetris import heuristic
from app.gui.games import GameUi
from app.gui.games.hatetris import advice, overlay
from app.gui.games.hatetris.board import KEY_HELP, MOUSE_HELP, HatetrisBoard
from app.gui.games.hatetris.search_jobs import SEARCH_JOBS
from app.gui.games.hatetris.text import describe, summarize_turn

UI = GameUi(
    make_board=HatetrisBoard,
    describe=describe,
    summarize_turn=summarize_turn,
    rank=heuristic.rank,
    advisor_name="hand heuristic",
    score_header="Value",
    candidate_columns=advice.COLUMNS,
    candidate_label=advice.candidate_label,
    candidate_color=advice.candidate_color,
    move_noun="placement",
    search_jobs=SEARCH_JOBS,
    board_help=MOUSE_HELP + KEY_HELP,
    overlay_marks=overlay.overlay_marks,
)

__all__ = ["UI", "HatetrisBoard"]
