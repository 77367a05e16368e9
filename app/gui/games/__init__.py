"""What the window needs to know about each game, keyed like :data:`engines.GAMES`.

A game's UI module exposes ``UI``, a :class:`GameUi`. Adding a game means adding one entry to
``_UI_MODULES``; a game without one still opens, with a placeholder board and a generic status.
"""

from __future__ import annotations

import dataclasses
import importlib
from collections.abc import Callable
from typing import Any

from PySide6.QtWidgets import QWidget

from app.gui.board_view import BoardView, PlaceholderBoard
from engines import Game

_UI_MODULES = {"splt": "app.gui.games.splt", "hatetris": "app.gui.games.hatetris", "2048": "app.gui.games.g2048",
               "1010": "app.gui.games.tenten", "destructo": "app.gui.games.destructo"}


def describe_generic(game: Game, state: Any) -> str:
    """A status line any game can give: score, legal moves, game over."""
    if game.is_over(state):
        return f"score {game.score(state)} · game over"
    moves = len(game.legal_moves(state))
    return f"score {game.score(state)} · {moves} legal move{'' if moves == 1 else 's'}"


def summarize_nothing(events: tuple[Any, ...]) -> str:
    return ""


@dataclasses.dataclass(frozen=True)
class CandidateColumn:
    """An extra column of the advisor panel for one game: a header and the cell's text (and
    tooltip) for a candidate; ``compact`` keeps it in the compact layout (what the player beside
    the real game cannot see there: SPL-T's warnings, the piece HATETRIS sends next)."""

    header: str
    text: Callable[[Any], str]
    tooltip: Callable[[Any], str] | None = None
    compact: bool = False


@dataclasses.dataclass(frozen=True)
class GameUi:
    """The window's plug for one game.

    - ``make_board(game, parent)``: the central board widget;
    - ``describe(game, state)``: the permanent status line for a position;
    - ``summarize_turn(events)``: a short sentence saying what a turn did ("" if nothing to say);
    - ``rank(state, limit)``: the advisor's candidates, best first (None: no advisor yet);
      ``advisor_name`` names it, ``score_header`` its scale in the panel and ``score_decimals``
      the decimals its values and losses are shown with;
      ``candidate_columns`` are the game's extra columns; ``candidate_label(candidate)`` is the
      text of the panel's Move column (default: the move's text), ``candidate_color(candidate)``
      the (r, g, b) colour cue of a row, the same as the board's (None: no cue), and
      ``move_noun`` what the game calls a move ("split");
    - ``overlay_marks(game, state, candidates)``: what the advice overlay draws over the real
      game for a position and its candidates (``app.gui.overlay_marks``), in the game's cells
      (None: the game has no overlay);
    - ``rollout_text(state)``: a slow-ish extra line for the advisor summary ("greedy from here:
      534 splits"), run off the GUI thread (None: nothing);
    - ``make_board_editor(game, state, parent)``: a dialog to set up a position by hand;
    - ``search_jobs``: how to start and resume the game's long search (None: no search);
    - ``board_help``: the board's own keys and mouse gestures, (keys, what they do), for the "?"
      window;
    - ``rank_off_thread``: the advisor takes long enough (tens of milliseconds or more) that the
      window runs it in a worker and shows its candidates when they come;
    - ``pasted_outcome(game, state, text)``: while a chance step is due, the outcome a pasted text
      stands for (a level's board read off the real game), played as a move of the tree; None
      when the text is no such outcome (it is then pasted as a new position).
    """

    make_board: Callable[[Game, QWidget | None], BoardView] = PlaceholderBoard
    describe: Callable[[Game, Any], str] = describe_generic
    summarize_turn: Callable[[tuple[Any, ...]], str] = summarize_nothing
    rank: Callable[[Any, int | None], list[Any]] | None = None
    advisor_name: str = ""
    score_header: str = "Score"
    score_decimals: int = 1
    candidate_columns: tuple[CandidateColumn, ...] = ()
    candidate_label: Callable[[Any], str] | None = None
    candidate_color: Callable[[Any], tuple[int, int, int] | None] | None = None
    move_noun: str = "move"
    rollout_text: Callable[[Any], str] | None = None
    make_board_editor: Callable[[Game, Any, QWidget | None], Any] | None = None
    search_jobs: Any = None
    board_help: tuple[tuple[str, str], ...] = ()
    rank_off_thread: bool = False
    pasted_outcome: Callable[[Game, Any, str], Any] | None = None
    overlay_marks: Callable[[Game, Any, Any], tuple[Any, ...]] | None = None


def ui_for(short_name: str) -> GameUi:
    """The UI plug of the game named ``short_name`` (a generic one if it has none)."""
    module_name = _UI_MODULES.get(short_name)
    if module_name is None:
        return GameUi()
    return importlib.import_module(module_name).UI
