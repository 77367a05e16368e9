"""SPL-T in the window: the board widget, the status-bar words, the advisor's candidates and
columns, the board editor and ParanoidPlay."""

from __future__ import annotations

from advisors.splt import heuristic
from app.gui.games import GameUi
from app.gui.games.splt import advice, overlay
from app.gui.games.splt.board import SpltBoard
from app.gui.games.splt.board_editor import SpltBoardEditor
from app.gui.games.splt.search_jobs import SEARCH_JOBS
from app.gui.games.splt.text import describe, summarize_turn

UI = GameUi(
    make_board=SpltBoard,
    describe=describe,
    summarize_turn=summarize_turn,
    rank=heuristic.rank,
    advisor_name="reference weights",
    score_header="Weight",
    candidate_columns=advice.COLUMNS,
    candidate_label=advice.candidate_label,
    candidate_color=advice.candidate_color,
    move_noun="split",
    rollout_text=advice.rollout_text,
    make_board_editor=SpltBoardEditor,
    search_jobs=SEARCH_JOBS,
    board_help=(
        ("Click a box", "split it"),
        ("Hover a box", "preview the split and the cluster it makes"),
    ),
    overlay_marks=overlay.overlay_marks,
)

__all__ = ["UI", "SpltBoard"]
