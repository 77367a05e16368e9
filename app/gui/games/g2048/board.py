"""The 2048 board widget: the board as the original page draws it, the advisor's arrows around it,
and slides and spawns chosen with the mouse or the keys.

Mouse: a click on an arrow (in the band beside the board on that side) plays that slide; a drag
across the board slides that way. While a tile is due, a click on an empty cell spawns a 2 there,
a right-click or a Shift+click a 4; hovering an empty cell shows the ghost of that tile.

Keys (while the board has the focus; none clashes with the window's tree keys): W / K up, D / L
right, S / J down, A / H left (the real game's vim keys), N a random tile where one is due, drawn as
the real game draws it.
"""

from __future__ import annotations

import dataclasses
from typing import Any

import numpy as np
from PySide6.QtCore import QEasingCurve, QEvent, QPoint, QPointF, Qt, QVariantAnimation
from PySide6.QtGui import QGuiApplication, QKeyEvent, QMouseEvent, QPainter
from PySide6.QtWidgets import QToolTip, QWidget

from app.gui.board_view import BoardView
from app.gui.games.g2048.advice import arrow_label, candidate_tooltip, direction_label, is_legal
from app.gui.games.g2048.layout import BoardLayout, widget_size
from app.gui.games.g2048.painting import (
    PAGE,
    paint_arrow,
    paint_board,
    paint_ghost_tile,
    paint_message,
    paint_overlay,
    paint_turn_marks,
)
from engines import Game
from engines.errors import IllegalMoveError
from engines.g2048 import DOWN, LEFT, RIGHT, UP, Slide, Spawn, TileSpawned, TilesSlid
from engines.g2048.state import State

FADE_MILLISECONDS = 700
#: A press that moves this share of the board's side before its release is a drag (a slide).
DRAG_SHARE = 0.12

#: The board's own keys, for the tooltip and the window's shortcut list: (keys, what they do).
KEY_HELP: tuple[tuple[str, str], ...] = (
    ("W / K", "slide up"),
    ("D / L", "slide right"),
    ("S / J", "slide down"),
    ("A / H", "slide left"),
    ("N", "a random tile where one is due (as the game draws it: a 2 nine times in ten, else a 4)"),
)
MOUSE_HELP: tuple[tuple[str, str], ...] = (
    ("Click an arrow", "play that slide (the arrows beside the board; the best is green)"),
    ("Drag across the board", "slide that way"),
    ("Click an empty cell", "a 2 spawns there (while a tile is due)"),
    ("Right-click / Shift+click an empty cell", "a 4 spawns there"),
)

SLIDE_KEYS = {
    Qt.Key.Key_W: UP, Qt.Key.Key_K: UP,
    Qt.Key.Key_D: RIGHT, Qt.Key.Key_L: RIGHT,
    Qt.Key.Key_S: DOWN, Qt.Key.Key_J: DOWN,
    Qt.Key.Key_A: LEFT, Qt.Key.Key_H: LEFT,
}
RANDOM_TILE_KEY = Qt.Key.Key_N

DUE_HINT = "click an empty cell (2) or right-click (4)"
DUE_SECOND_LINE = "Shift+click: a 4 · N: a random tile, as the game draws it"

Cell = tuple[int, int]


def help_text() -> str:
    """The board's keys and mouse gestures, one per line."""
    rows = [f"{keys}: {what}" for keys, what in MOUSE_HELP + KEY_HELP]
    return "2048 board\n" + "\n".join(rows)


def turn_cells(events: tuple[Any, ...]) -> tuple[Cell, ...]:
    """The cells a turn outlines: the tiles its slide merged, or the tile it spawned."""
    cells: list[Cell] = []
    for event in events:
        if isinstance(event, TilesSlid):
            cells.extend(event.merged)
        elif isinstance(event, TileSpawned):
            cells.append((event.row, event.column))
    return tuple(cells)


@dataclasses.dataclass(frozen=True)
class ArrowMark:
    """One arrow as drawn: its slide's rank among the advisor's candidates and the value beside it
    (None and "" while the advice is hidden or not there yet)."""

    direction: int
    rank: int | None = None
    value_text: str = ""
    best: bool = False
    highlighted: bool = False

    @property
    def faint(self) -> bool:
        return self.rank is None


class G2048Board(BoardView):
    """The board, the arrows, the ghost tile and the last turn's outlines (see the module doc)."""

    preferred_side = 440
    minimum_side = 230

    def __init__(self, game: Game, parent: QWidget | None = None) -> None:
        super().__init__(game, parent)
        self.setMouseTracking(True)
        self.setAttribute(Qt.WidgetAttribute.WA_OpaquePaintEvent)
        #: Draws the tiles of N (a test may put a seeded generator here).
        self.rng = np.random.default_rng()
        self._directions: tuple[int, ...] = ()
        self._candidates: list[Any] = []
        self._previewed: int | None = None
        self._hover_arrow: int | None = None
        self._hover_cell: Cell | None = None
        self._pressed: tuple[Any, ...] | None = None
        self._press_point: QPointF | None = None
        self._marks: tuple[Cell, ...] = ()
        self._fade = QVariantAnimation(self)
        self._fade.setStartValue(1.0)
        self._fade.setEndValue(0.0)
        self._fade.setDuration(FADE_MILLISECONDS)
        self._fade.setEasingCurve(QEasingCurve.Type.InQuad)
        self._fade.valueChanged.connect(lambda _value: self.update())
        self._fade.finished.connect(self._clear_marks)
        self._update_directions()

    # -- what the window and tests use ------------------------------------------------------------
    def show_position(self, state: State, events: tuple[Any, ...] = ()) -> None:
        if state != self.state:
            self._candidates = []
            self._previewed = None
        self.state = state
        self._update_directions()
        self._fade.stop()
        self._marks = turn_cells(events)
        if self._marks:
            self._fade.start()
        self._refresh_hover()
        self.update()

    def _update_directions(self) -> None:
        state = self.state
        self._directions = () if state.spawns_due else tuple(move.direction for move in self.game.legal_moves(state))

    def board_layout(self) -> BoardLayout:
        return BoardLayout.fit(self.width(), self.height())

    def cell_center(self, row: int, column: int) -> QPoint:
        """The widget point in the middle of cell (row, column)."""
        return self.board_layout().cell_center(row, column)

    def arrow_center(self, direction: int) -> QPoint:
        """The widget point in the middle of the arrow of ``direction`` (a click there slides)."""
        return self.board_layout().arrow_center(direction)

    def sizeHint(self):  # noqa: N802 (Qt name)
        return widget_size(self.preferred_side)

    def minimumSizeHint(self):  # noqa: N802 (Qt name)
        return widget_size(self.minimum_side)

    @property
    def legal_directions(self) -> tuple[int, ...]:
        """The directions whose slide moves a tile (none while a tile is due)."""
        return self._directions

    @property
    def turn_marks(self) -> tuple[Cell, ...]:
        """The last turn's outlined cells while they fade (empty once the fade is over)."""
        return self._marks

    @property
    def hovered_direction(self) -> int | None:
        """The arrow under the mouse (a click plays it)."""
        return self._hover_arrow

    @property
    def ghost_tile(self) -> tuple[int, int, int] | None:
        """(row, column, value) of the ghost under the mouse while a tile is due."""
        if self._hover_cell is None or not self._can_spawn(self._hover_cell):
            return None
        shift = bool(QGuiApplication.keyboardModifiers() & Qt.KeyboardModifier.ShiftModifier)
        return (*self._hover_cell, 4 if shift else 2)

    def message_lines(self) -> tuple[str, str] | None:
        """The words in the band above the board: a due tile says how to enter it."""
        due = self.state.spawns_due
        if not due:
            return None
        head = "tile due" if due == 1 else f"{due} tiles due"
        return f"{head}: {DUE_HINT}", DUE_SECOND_LINE

    # -- advice -------------------------------------------------------------------------------------
    def show_advice(self, candidates) -> None:
        self._candidates = list(candidates)
        self.update()

    def preview_move(self, move: Any | None) -> None:
        direction = move.direction if isinstance(move, Slide) and move.direction in self._directions else None
        if direction != self._previewed:
            self._previewed = direction
            self.update()

    @property
    def previewed_direction(self) -> int | None:
        return self._previewed

    def candidate_of(self, direction: int) -> tuple[int, Any] | None:
        """(rank, candidate) of the advisor's candidate for the slide ``direction``, if any."""
        for rank, candidate in enumerate(self._candidates, start=1):
            if isinstance(candidate.move, Slide) and candidate.move.direction == direction:
                return rank, candidate
        return None

    def arrow_marks(self) -> list[ArrowMark]:
        """The arrows drawn now: one per legal slide, ranked while the advice is shown."""
        marks = []
        for direction in self._directions:
            highlighted = direction in (self._hover_arrow, self._previewed)
            found = self.candidate_of(direction) if self._advice_visible else None
            if found is None or not is_legal(found[1]):
                marks.append(ArrowMark(direction, highlighted=highlighted))
                continue
            rank, candidate = found
            marks.append(ArrowMark(direction, rank, arrow_label(candidate), rank == 1, highlighted))
        return marks

    # -- painting -----------------------------------------------------------------------------------
    def paintEvent(self, event) -> None:  # noqa: N802 (Qt name)
        painter = QPainter(self)
        painter.fillRect(self.rect(), PAGE)
        layout = self.board_layout()
        paint_board(painter, layout, self.state)
        ghost = self.ghost_tile
        if ghost is not None:
            paint_ghost_tile(painter, layout, *ghost)
        if self._marks and self._fade.state() == QVariantAnimation.State.Running:
            paint_turn_marks(painter, layout, self._marks, float(self._fade.currentValue()))
        if self.game.is_over(self.state):
            paint_overlay(painter, layout, "Game over!")
        lines = self.message_lines()
        if lines is not None:
            paint_message(painter, layout, lines)
        # the best last, so its plate is never under another arrow's
        for mark in sorted(self.arrow_marks(), key=lambda m: (m.best, m.highlighted)):
            paint_arrow(painter, layout, mark.direction, best=mark.best, highlighted=mark.highlighted,
                        rank=mark.rank, value_text=mark.value_text, faint=mark.faint)
        painter.end()

    def _clear_marks(self) -> None:
        self._marks = ()
        self.update()

    # -- mouse --------------------------------------------------------------------------------------
    def _can_spawn(self, cell: Cell) -> bool:
        return bool(self.state.spawns_due) and self.state.value(*cell) == 0

    def _target(self, point: QPoint | QPointF) -> tuple[Any, ...] | None:
        """What a click at ``point`` means: ("arrow", direction) or ("cell", row, column)."""
        layout = self.board_layout()
        cell = layout.cell_at(point)
        if cell is not None:
            return ("cell", *cell)
        direction = layout.arrow_at(point)
        if direction is not None and direction in self._directions:
            return ("arrow", direction)
        return None

    def _set_hover(self, point: QPoint | None) -> None:
        target = None if point is None else self._target(point)
        arrow = target[1] if target is not None and target[0] == "arrow" else None
        cell = (target[1], target[2]) if target is not None and target[0] == "cell" else None
        if arrow != self._hover_arrow or cell != self._hover_cell:
            self._hover_arrow, self._hover_cell = arrow, cell
            self.update()
        clickable = arrow is not None or (cell is not None and self._can_spawn(cell))
        self.setCursor(Qt.CursorShape.PointingHandCursor if clickable else Qt.CursorShape.ArrowCursor)

    def mousePressEvent(self, event: QMouseEvent) -> None:  # noqa: N802 (Qt name)
        if event.button() in (Qt.MouseButton.LeftButton, Qt.MouseButton.RightButton):
            self._pressed = self._target(event.position())
            self._press_point = event.position()
            event.accept()
            return
        super().mousePressEvent(event)

    def mouseReleaseEvent(self, event: QMouseEvent) -> None:  # noqa: N802 (Qt name)
        button = event.button()
        if button not in (Qt.MouseButton.LeftButton, Qt.MouseButton.RightButton):
            return
        pressed, self._pressed = self._pressed, None
        start, self._press_point = self._press_point, None
        point = event.position()
        layout = self.board_layout()
        if start is not None and button == Qt.MouseButton.LeftButton and layout.cell_at(start) is not None:
            dx, dy = point.x() - start.x(), point.y() - start.y()
            if max(abs(dx), abs(dy)) >= DRAG_SHARE * layout.side:  # a drag across the board: a slide
                if abs(dx) >= abs(dy):
                    self.move_chosen.emit(Slide(RIGHT if dx > 0 else LEFT))
                else:
                    self.move_chosen.emit(Slide(DOWN if dy > 0 else UP))
                return
        if pressed is None or self._target(point) != pressed:
            return  # released elsewhere: cancelled
        if pressed[0] == "arrow" and button == Qt.MouseButton.LeftButton:
            self.move_chosen.emit(Slide(pressed[1]))
        elif pressed[0] == "cell" and self._can_spawn(pressed[1:]):
            shift = bool(event.modifiers() & Qt.KeyboardModifier.ShiftModifier)
            four = button == Qt.MouseButton.RightButton or shift
            self.move_chosen.emit(Spawn(pressed[1], pressed[2], 4 if four else 2))

    def contextMenuEvent(self, event) -> None:  # noqa: N802 (Qt name)
        event.accept()  # a right-click spawns a 4: no window menu

    def event(self, event: QEvent) -> bool:
        if event.type() == QEvent.Type.ToolTip:
            self._show_tooltip(event)
            return True
        return super().event(event)

    def _show_tooltip(self, event) -> None:
        """Over an arrow: the candidate in words; over an empty cell while a tile is due: what a
        click spawns; elsewhere: the board's keys."""
        target = self._target(event.pos())
        if target is not None and target[0] == "arrow":
            found = self.candidate_of(target[1]) if self._advice_visible else None
            text = (candidate_tooltip(found[1], found[0], len(self._candidates)) if found is not None
                    else f"slide {direction_label(target[1])}")
        elif target is not None and target[0] == "cell" and self._can_spawn(target[1:]):
            row, column = target[1:]
            text = f"click: a 2 here (2@{row},{column})\nright-click or Shift+click: a 4 (4@{row},{column})"
        else:
            text = help_text()
        QToolTip.showText(event.globalPos(), text, self)

    # -- keys ---------------------------------------------------------------------------------------
    def keyPressEvent(self, event: QKeyEvent) -> None:  # noqa: N802 (Qt name)
        key = event.key()
        if key == Qt.Key.Key_Shift:
            self.update()  # the ghost becomes a 4
        modifiers = event.modifiers() & ~Qt.KeyboardModifier.KeypadModifier
        if modifiers != Qt.KeyboardModifier.NoModifier:
            super().keyPressEvent(event)
            return
        if key in SLIDE_KEYS:
            self.move_chosen.emit(Slide(SLIDE_KEYS[key]))
            return
        if key == RANDOM_TILE_KEY:
            try:
                spawn = self.game.random_spawn(self.state, self.rng)
            except IllegalMoveError:
                super().keyPressEvent(event)  # no tile is due
                return
            self.move_chosen.emit(spawn)
            return
        super().keyPressEvent(event)

    def keyReleaseEvent(self, event: QKeyEvent) -> None:  # noqa: N802 (Qt name)
        if event.key() == Qt.Key.Key_Shift:
            self.update()
        super().keyReleaseEvent(event)
