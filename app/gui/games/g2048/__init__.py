"""2048 in the window: the board widget with the advisor's arrows, spawns entered by clicking
empty cells, the status-bar words, and the expectimax advisor's ranked slides."""

from __future__ import annotations

from app.gui.games import GameUi
from app.gui.games.g2048 import advice, overlay
from app.gui.games.g2048.board import KEY_HELP, MOUSE_HELP, G2048Board
from app.gui.games.g2048.text import describe, summarize_turn

UI = GameUi(
    make_board=G2048Board,
    describe=describe,
    summarize_turn=summarize_turn,
    rank=advice.rank,
    advisor_name="expectimax",
    score_header="Expected value",
    candidate_columns=advice.COLUMNS,
    candidate_label=advice.candidate_label,
    candidate_color=advice.candidate_color,
    move_noun="slide",
    board_help=MOUSE_HELP + KEY_HELP,
    rank_off_thread=True,
    overlay_marks=overlay.overlay_marks,
)

__all__ = ["UI", "G2048Board"]
