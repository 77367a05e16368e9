"""Destruct-o-Match in the window: the board in the game's look with the advisor's best group
outlined and the first candidates numbered, groups played by click, the banked items and the
chance steps (a level's board, a Fill row, a Shuffle), the status-bar words, and the advisor's
ranked clicks."""

from __future__ import annotations

from app.gui.games import GameUi
from app.gui.games.destructo import advice, overlay
from app.gui.games.destructo.board import KEY_HELP, MOUSE_HELP, DestructoBoard
from app.gui.games.destructo.outcomes import pasted_outcome
from app.gui.games.destructo.text import describe, summarize_turn

UI = GameUi(
    make_board=DestructoBoard,
    describe=describe,
    summarize_turn=summarize_turn,
    rank=advice.rank,
    advisor_name="level planner (beam search to the end of the level)",
    score_header="Line value",
    score_decimals=0,
    candidate_columns=advice.COLUMNS,
    candidate_label=advice.candidate_label,
    candidate_color=advice.candidate_color,
    move_noun="click",
    board_help=MOUSE_HELP + KEY_HELP,
    rank_off_thread=True,
    pasted_outcome=pasted_outcome,
    overlay_marks=overlay.overlay_marks,
)

__all__ = ["UI", "DestructoBoard"]
