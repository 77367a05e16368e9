"""The Destruct-o-Match board widget: the board as the game draws it, the advisor's best group
outlined and the first candidates numbered, clicks on groups, the banked items and the chance
steps (a level's board, a Fill row, a Shuffle).

Mouse: hovering a group outlines what a click would remove and tags it with its points; a click
anywhere on a group (or on an Explode) destroys it. The move played is the group's own click
(its first cell in reading order), so a group is one move of the tree wherever it was clicked. A
Wild belongs to every group it touches: a click on it takes the one the advisor ranks best (else
the one worth most). A click on a boulder in no group is sent too, and the window shows the
engine's reason. A click on the Shuffle or Undo icon in the header spends it. While a Fill row
is due, a click on a ghost slot picks its colour (right-click: the previous colour).

Keys (none clashes with the window's digits, Space, arrows, Home or End): S spends the banked
Shuffle, U the banked Undo (when the rules allow one), N draws the due chance step as the game
would (a level's board, a Fill row, a Shuffle's colours); while a Fill row is due, colour letters
(g a b o y k r p w) fill its slots left to right, Backspace takes one back, Enter drops the row,
Esc clears it.
"""

from __future__ import annotations

import dataclasses
import math
from typing import Any

import numpy as np
from PySide6.QtCore import QPoint, QPointF, QSize, Qt
from PySide6.QtGui import QKeyEvent, QMouseEvent, QPainter
from PySide6.QtWidgets import QWidget

from app.gui.board_view import BoardView
from app.gui.games.destructo.layout import Cell, DestructoLayout, widget_size
from app.gui.games.destructo.painting import (
    BACKGROUND,
    BEST,
    FAINT_TEXT,
    HOVER,
    PREVIEW,
    TEXT,
    BoulderCache,
    paint_badge,
    paint_board_message,
    paint_boulders,
    paint_frame,
    paint_ghosts,
    paint_group_outline,
    paint_header,
    paint_points_tag,
    paint_tablet,
)
from app.gui.games.destructo.text import plural
from engines import Game
from engines.destructo.levels import LEVEL_TABLE
from engines.destructo.notation import COLOUR_LETTERS, LETTER_OF_COLOUR
from engines.destructo.rules import EXPLODE, Boulder, explode_cells, group_at, removal
from engines.destructo.state import FILL_DUE, LEVEL_DUE, LEVELS, SHUFFLE_DUE, Click, FillRow, State
from engines.errors import IllegalMoveError

#: How many of the advisor's candidates get a number on the board (the digits 1-9 play any).
NUMBERED = 5
#: The banked items' move texts and keys, found among the legal moves by their text.
ITEMS = ("shuffle", "undo")
ITEM_KEYS = {Qt.Key.Key_S: "shuffle", Qt.Key.Key_U: "undo"}
RANDOM_KEY = Qt.Key.Key_N

KEY_HELP: tuple[tuple[str, str], ...] = (
    ("1–9, Space", "play the numbered candidate / the best (the window's keys)"),
    ("S", "spend the banked Shuffle"),
    ("U", "spend the banked Undo (when the rules allow it)"),
    ("N", "draw the due chance step as the game would: a level's board, a Fill row, a Shuffle's colours"),
    ("g a b o y k r p w", "while a Fill row is due: its colours, left to right"),
    ("Enter / Backspace / Esc", "drop the Fill row / take back a colour / clear it"),
)
MOUSE_HELP: tuple[tuple[str, str], ...] = (
    ("Hover a group", "outline what a click removes, with its points"),
    ("Click a group or an Explode", "destroy it"),
    ("Click the Shuffle / Undo icon", "spend it (lit: banked)"),
    ("Click a ghost slot", "while a Fill row is due: its next colour (right-click: the previous one)"),
)


def help_text() -> str:
    return "Destruct-o-Match board\n" + "\n".join(f"{keys}: {what}" for keys, what in MOUSE_HELP + KEY_HELP)


@dataclasses.dataclass(frozen=True)
class Target:
    """One legal click of the position: the cells its group takes (an Explode: its 3x3), the
    cells it removes (an Overkill adds every boulder of the colour) and its points."""

    move: Click
    group: frozenset
    removed: frozenset
    points: int
    explode: bool


@dataclasses.dataclass(frozen=True)
class Overlay:
    """The assistant's marks as drawn now: the best candidate's cells (outlined), the numbered
    candidates as (number, first cell), the group under the mouse and the one the panel points at
    (cells removed), and the Fill row being entered as (cell where it lands, colour or None)."""

    best: frozenset = frozenset()
    numbered: tuple[tuple[int, Cell], ...] = ()
    hovered: frozenset = frozenset()
    hovered_move: Click | None = None
    previewed: frozenset = frozenset()
    ghosts: tuple[tuple[Cell, str | None], ...] = ()


def targets_of(game: Game, state: State) -> dict[Click, Target]:
    """Every legal click of ``state`` with what it takes (plain Python: a few milliseconds)."""
    found: dict[Click, Target] = {}
    board = state.board
    if state.due is not None or state.finished or not board:
        return found
    for move in (move for move in game.legal_moves(state) if isinstance(move, Click)):
        boulder = board[move.row][move.column]
        removed, points = removal(board, move.row, move.column)
        explode = boulder.power == EXPLODE
        group = explode_cells(board, move.row, move.column) if explode else group_at(board, move.row, move.column)
        found[move] = Target(move, frozenset(group), frozenset(removed), points, explode)
    return found


class DestructoBoard(BoardView):
    """The board, the header and the advisor's marks (see the module doc)."""

    preferred_cell = 34
    minimum_cell = 18  # the compact layout's narrow window is this wide: boulders still readable

    def __init__(self, game: Game, parent: QWidget | None = None) -> None:
        super().__init__(game, parent)
        self.setMouseTracking(True)
        self.setAttribute(Qt.WidgetAttribute.WA_OpaquePaintEvent)
        #: Draws the chance steps of N (a test may put a seeded generator here).
        self.rng = np.random.default_rng()
        self._cache = BoulderCache()
        self._candidates: list[Any] = []
        self._previewed: Click | None = None
        self._hover_cell: Cell | None = None
        self._targets: dict[Click, Target] = {}
        self._owners: dict[Cell, tuple[Click, ...]] = {}
        self._items: dict[str, Any] = {}  # the banked items' legal moves, by their text
        self._fill: dict[int, str] = {}  # the Fill row being entered: column -> colour
        self._fill_order: list[int] = []
        self._update_targets()

    # -- what the window and tests use ------------------------------------------------------------
    def show_position(self, state: State, events: tuple[Any, ...] = ()) -> None:
        if state != self.state:
            self._candidates = []
            self._previewed = None
            self._fill, self._fill_order = {}, []
        size = self.board_size()
        self.state = state
        if self.board_size() != size:
            self.updateGeometry()  # the size hints follow the level's board size
        self._update_targets()
        self._refresh_hover()
        self.update()

    def _update_targets(self) -> None:
        self._targets = targets_of(self.game, self.state)
        owners: dict[Cell, list[Click]] = {}
        for move, target in self._targets.items():
            for cell in ((move.row, move.column),) if target.explode else target.group:
                owners.setdefault(cell, []).append(move)
        self._owners = {cell: tuple(moves) for cell, moves in owners.items()}
        self._items = {}
        if not (self.game.is_chance_node(self.state) or self.game.is_over(self.state)):
            for move in self.game.legal_moves(self.state):
                text = self.game.move_text(move)
                if text in ITEMS:
                    self._items[text] = move

    def board_size(self) -> tuple[int, int]:
        """(rows, columns) of the board shown: the level's size while its board is due."""
        state = self.state
        if state.board:
            return state.rows, state.columns
        level = LEVEL_TABLE[min(max(state.level, 1), len(LEVEL_TABLE)) - 1]
        return level.rows, level.columns

    def board_layout(self) -> DestructoLayout:
        return DestructoLayout.fit(self.width(), self.height(), *self.board_size())

    def cell_center(self, row: int, column: int) -> QPoint:
        """The widget point in the middle of cell (row, column)."""
        return self.board_layout().cell_center(row, column)

    def item_center(self, item: str) -> QPoint:
        """The middle of the header's Shuffle or Undo icon."""
        return self.board_layout().item_rect(ITEMS.index(item)).center().toPoint()

    def sizeHint(self) -> QSize:  # noqa: N802 (Qt name)
        return widget_size(self.preferred_cell, *self.board_size())

    def minimumSizeHint(self) -> QSize:  # noqa: N802 (Qt name)
        return widget_size(self.minimum_cell, *self.board_size())

    def targets(self) -> dict[Click, Target]:
        """Every legal click of the position shown, with the cells it takes and its points."""
        return dict(self._targets)

    def move_at(self, cell: Cell) -> Click | None:
        """The click a press on ``cell`` plays: its group's, an Explode's own; for a Wild in
        several groups the advisor's best ranked (else the one worth most); None for a cell in no
        group."""
        moves = self._owners.get(cell)
        if not moves:
            return None
        if len(moves) == 1:
            return moves[0]
        ranks = {candidate.move: place for place, candidate in enumerate(self._candidates)}
        return min(moves, key=lambda move: (ranks.get(move, math.inf), -self._targets[move].points, move))

    def item_moves(self) -> dict[str, Any]:
        """The banked items' moves that are legal now, by their text ("shuffle", "undo")."""
        return dict(self._items)

    # -- advice -----------------------------------------------------------------------------------
    def show_advice(self, candidates) -> None:
        self._candidates = list(candidates)
        self.update()

    def preview_move(self, move: Any | None) -> None:
        previewed = move if isinstance(move, Click) and move in self._targets else None
        if previewed != self._previewed:
            self._previewed = previewed
            self.update()

    @property
    def previewed_move(self) -> Click | None:
        return self._previewed

    def _cells_of(self, candidate: Any) -> frozenset:
        target = self._targets.get(candidate.move)
        return target.removed if target is not None else frozenset(getattr(candidate, "cells", ()))

    def overlay(self) -> Overlay:
        """What the assistant draws on the board now (see :class:`Overlay`)."""
        best, numbered = frozenset(), ()
        if self._advice_visible and self._candidates:
            best = self._cells_of(self._candidates[0])
            numbered = tuple((place, (candidate.move.row, candidate.move.column))
                             for place, candidate in enumerate(self._candidates[:NUMBERED], start=1)
                             if isinstance(candidate.move, Click))
        hovered_move = self.move_at(self._hover_cell) if self._hover_cell is not None else None
        hovered = self._targets[hovered_move].removed if hovered_move is not None else frozenset()
        previewed = self._targets[self._previewed].removed if self._previewed is not None else frozenset()
        return Overlay(best, numbered, hovered, hovered_move, previewed, self.fill_ghosts())

    # -- the Fill row being entered ---------------------------------------------------------------
    def fill_columns(self) -> tuple[int, ...]:
        """The columns a Fill adds a boulder to (those with room), while a Fill row is due."""
        state = self.state
        if state.due != FILL_DUE or state.finished or not state.board:
            return ()
        return tuple(c for c in range(state.columns) if state.board[0][c] is None)

    def fill_cell(self, column: int) -> Cell:
        """Where the Fill's boulder of ``column`` lands: the lowest empty cell."""
        room = sum(row[column] is None for row in self.state.board)
        return room - 1, column

    def fill_palette(self) -> tuple[str, ...]:
        """The colours a Fill row's slot cycles through: the level's palette."""
        level = LEVEL_TABLE[min(max(self.state.level, 1), len(LEVEL_TABLE)) - 1]
        return level.palette

    def fill_ghosts(self) -> tuple[tuple[Cell, str | None], ...]:
        return tuple((self.fill_cell(c), self._fill.get(c)) for c in self.fill_columns())

    @property
    def pending_fill(self) -> dict[int, str]:
        """The Fill row entered so far: column -> colour."""
        return dict(self._fill)

    def _set_fill(self, column: int, colour: str) -> None:
        self._fill[column] = colour
        if column in self._fill_order:
            self._fill_order.remove(column)
        self._fill_order.append(column)
        self.update()

    def _type_fill(self, colour: str) -> bool:
        free = [c for c in self.fill_columns() if c not in self._fill]
        if not free:
            return False
        self._set_fill(free[0], colour)
        return True

    def _cycle_fill(self, column: int, step: int) -> None:
        palette = self.fill_palette()
        current = self._fill.get(column)
        index = palette.index(current) + step if current in palette else (0 if step > 0 else -1)
        self._set_fill(column, palette[index % len(palette)])

    def _drop_fill(self) -> bool:
        columns = self.fill_columns()
        if not columns or any(c not in self._fill for c in columns):
            return False
        boulders = tuple(Boulder(self._fill[c]) if c in columns else None for c in range(self.state.columns))
        self._fill, self._fill_order = {}, []
        self.move_chosen.emit(FillRow(boulders))
        return True

    # -- the words in the header --------------------------------------------------------------------
    def header_texts(self) -> tuple[str, str, str]:
        """(level, score, message) as the header shows them."""
        state = self.state
        level = f"Level {state.level}/{LEVELS}"
        score = f"Score {state.score:,}"
        return level, score, self.message()

    def message(self) -> str:
        """The header's second line: what is due, the game's end, what the mouse points at, or
        how to play."""
        state = self.state
        if state.finished:
            return f"Game over: final score {state.score:,}"
        if state.due == LEVEL_DUE:
            return f"Level {state.level}'s board is due: paste it (Ctrl+V) or press N to deal one"
        if state.due == SHUFFLE_DUE:
            return "Shuffle: paste the board the game shows (Ctrl+V) or press N to shuffle at random"
        if state.due == FILL_DUE:
            missing = sum(c not in self._fill for c in self.fill_columns())
            if missing:
                return (f"Fill row due: {plural(missing, 'slot')} to go — click a slot or type colours "
                        f"({' '.join(LETTER_OF_COLOUR.get(c, c) for c in self.fill_palette())}), or N at random")
            return "Fill row entered: Enter drops it, Backspace takes a colour back"
        hover = self.hover_text()
        if hover:
            return hover
        if not self._targets:
            return "No group left"
        items = self.item_moves()
        extra = "".join(f" · {key}: {name.capitalize()}" for key, name in (("S", "shuffle"), ("U", "undo"))
                        if name in items)
        numbered = min(NUMBERED, len(self._candidates)) if self._advice_visible else 0
        digits = "" if not numbered else " · 1: the best group" if numbered == 1 else f" · 1–{numbered}: the numbered groups"
        return f"Click a group to destroy it{digits}{extra}"

    def hover_text(self) -> str:
        """What the cell under the mouse is and what a click there does."""
        cell = self._hover_cell
        if cell is None or not self.state.board or self.state.due is not None:
            return ""
        boulder = self.state.board[cell[0]][cell[1]]
        if boulder is None:
            return ""
        move = self.move_at(cell)
        if move is None:
            if boulder.matches_any:
                return "A Wild on its own: no group to join"
            return f"{boulder.colour.capitalize()} boulder: no neighbour of its colour, not a group"
        target = self._targets[move]
        if target.explode:
            text = f"Explode: {plural(len(target.removed), 'boulder')}, no points"
        else:
            text = f"{plural(len(target.group), 'boulder')}: {plural(target.points, 'point')}"
            if len(target.removed) > len(target.group):
                text += f" (Overkill takes {len(target.removed) - len(target.group)} more)"
        for place, candidate in enumerate(self._candidates, start=1):
            if candidate.move == move:
                text += f" · #{place} of {len(self._candidates)}, line {candidate.score:,.0f}"
                break
        if len(self._owners.get(cell, ())) > 1:
            text += f" · the Wild joins {len(self._owners[cell])} groups: a click takes this one"
        return text

    # -- painting -----------------------------------------------------------------------------------
    def paintEvent(self, event) -> None:  # noqa: N802 (Qt name)
        painter = QPainter(self)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing, True)
        painter.setRenderHint(QPainter.RenderHint.SmoothPixmapTransform, True)
        painter.fillRect(self.rect(), BACKGROUND)
        layout = self.board_layout()
        state = self.state
        overlay = self.overlay()
        paint_frame(painter, layout)
        if state.board:
            paint_boulders(painter, layout, state.board, self._cache)
        if overlay.ghosts:
            paint_ghosts(painter, layout, overlay.ghosts, self._cache)
        width = max(2.0, 0.13 * layout.cell_height)
        if overlay.best:
            paint_group_outline(painter, layout, overlay.best, BEST, width)
        if overlay.previewed and overlay.previewed != overlay.best:
            paint_group_outline(painter, layout, overlay.previewed, PREVIEW, width)
        if overlay.hovered:
            paint_group_outline(painter, layout, overlay.hovered, HOVER, 0.8 * width, dashed=overlay.hovered == overlay.best)
        for number, cell in reversed(overlay.numbered):
            paint_badge(painter, layout, cell, number, number == 1)
        if overlay.hovered_move is not None and self._hover_cell is not None:
            target = self._targets[overlay.hovered_move]
            paint_points_tag(painter, layout, self._hover_cell,
                             f"{len(target.removed)} · no points" if target.explode else f"+{target.points}")
        if not state.board and state.due == LEVEL_DUE:
            paint_board_message(painter, layout, (f"Level {state.level}",
                                                  "paste its board (Ctrl+V) or press N to deal one"))
        if state.finished:
            paint_tablet(painter, layout, state.score)
        level, score, message = self.header_texts()
        due = state.due is not None and not state.finished
        paint_header(painter, layout, level, score, message, (bool(state.shuffles), bool(state.undos)), self._cache,
                     PREVIEW if due else (TEXT if self._hover_cell is not None else FAINT_TEXT))
        painter.end()

    # -- mouse --------------------------------------------------------------------------------------
    def _set_hover(self, point: QPoint | None) -> None:
        layout = self.board_layout()
        cell = None if point is None else layout.cell_at(point)
        if cell != self._hover_cell:
            self._hover_cell = cell
            self.update()
        item = None if point is None else layout.item_at(point)
        clickable = (cell is not None and (self.move_at(cell) is not None or cell in dict(self.fill_ghosts()))
                     or (item is not None and ITEMS[item] in self.item_moves()))
        self.setCursor(Qt.CursorShape.PointingHandCursor if clickable else Qt.CursorShape.ArrowCursor)

    @property
    def hovered_cell(self) -> Cell | None:
        return self._hover_cell

    def mousePressEvent(self, event: QMouseEvent) -> None:  # noqa: N802 (Qt name)
        button = event.button()
        if button not in (Qt.MouseButton.LeftButton, Qt.MouseButton.RightButton):
            super().mousePressEvent(event)
            return
        event.accept()
        layout = self.board_layout()
        point = event.position()
        item = layout.item_at(point)
        if item is not None and button == Qt.MouseButton.LeftButton:
            move = self.item_moves().get(ITEMS[item])
            if move is not None:
                self.move_chosen.emit(move)
            return
        cell = layout.cell_at(point)
        if cell is None:
            return
        if self.fill_columns():
            column = cell[1]
            if column in self.fill_columns() and cell == self.fill_cell(column):
                self._cycle_fill(column, 1 if button == Qt.MouseButton.LeftButton else -1)
            return
        if button != Qt.MouseButton.LeftButton or not self.state.board:
            return
        move = self.move_at(cell)
        if move is not None:
            self.move_chosen.emit(move)
        elif self.state.board[cell[0]][cell[1]] is not None:
            self.move_chosen.emit(Click(*cell))  # in no group: the window says why, nothing changes

    def contextMenuEvent(self, event) -> None:  # noqa: N802 (Qt name)
        event.accept()  # a right-click steps a Fill slot's colour back: no window menu

    def tooltip_text(self, point: QPointF) -> str:
        layout = self.board_layout()
        item = layout.item_at(point)
        if item is not None:
            name = ITEMS[item]
            banked = bool(self.state.shuffles if name == "shuffle" else self.state.undos)
            key = "S" if name == "shuffle" else "U"
            if not banked:
                return f"{name.capitalize()}: none banked (a {name.capitalize()} boulder banks one, at most one)"
            usable = name in self.item_moves()
            return f"{name.capitalize()} banked" + (f": click or press {key} to use it" if usable else "")
        cell = layout.cell_at(point)
        if cell is not None:
            text = self.hover_text() if self._hover_cell == cell else ""
            if text:
                return text
        return help_text()

    # -- keys ---------------------------------------------------------------------------------------
    def keyPressEvent(self, event: QKeyEvent) -> None:  # noqa: N802 (Qt name)
        key = event.key()
        text = event.text()
        if self.has_command_modifier(event):
            super().keyPressEvent(event)
            return
        if key == RANDOM_KEY and text.lower() == "n" and self.game.is_chance_node(self.state):
            try:
                outcome = self.game.sample_chance(self.state, self.rng)
            except IllegalMoveError:
                super().keyPressEvent(event)
                return
            self._fill, self._fill_order = {}, []
            self.move_chosen.emit(outcome)
            return
        if self.fill_columns():
            if text and text in COLOUR_LETTERS and self._type_fill(COLOUR_LETTERS[text]):
                return
            if key == Qt.Key.Key_Backspace and self._fill_order:
                del self._fill[self._fill_order.pop()]
                self.update()
                return
            if key in (Qt.Key.Key_Return, Qt.Key.Key_Enter) and self._drop_fill():
                return
            if key == Qt.Key.Key_Escape and self._fill:
                self._fill, self._fill_order = {}, []
                self.update()
                return
        if key in ITEM_KEYS:
            move = self.item_moves().get(ITEM_KEYS[key])
            if move is not None:
                self.move_chosen.emit(move)
                return
        super().keyPressEvent(event)
