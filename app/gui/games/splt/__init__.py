"""SPL-T in the window: the board widget and the status-bar words."""

from __future__ import annotations

from app.gui.games import GameUi
from app.gui.games.splt.board import SpltBoard
from app.gui.games.splt.text import describe, summarize_turn

UI = GameUi(make_board=SpltBoard, describe=describe, summarize_turn=summarize_turn)

__all__ = ["UI", "SpltBoard"]
