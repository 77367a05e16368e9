"""1010! in the window: the board with tray and piece palette, the planner's best plan as ghost
pieces, the status-bar words, and the planner's ranked first placements."""

from __future__ import annotations

from app.gui.games import GameUi
from app.gui.games.tenten import advice, overlay
from app.gui.games.tenten.board import KEY_HELP, MOUSE_HELP, TenTenBoard
from app.gui.games.tenten.text import describe, summarize_turn

UI = GameUi(
    make_board=TenTenBoard,
    describe=describe,
    summarize_turn=summarize_turn,
    rank=advice.rank,
    advisor_name="round planner (Coelho 10025)",
    score_header="Value",
    score_decimals=3,
    candidate_columns=advice.COLUMNS,
    candidate_label=advice.candidate_label,
    candidate_color=advice.candidate_color,
    move_noun="placement",
    board_help=MOUSE_HELP + KEY_HELP,
    rank_off_thread=True,
    overlay_marks=overlay.overlay_marks,
)

__all__ = ["UI", "TenTenBoard"]
