"""The SPL-T board widget: draws positions like the game, previews and chooses splits, and
briefly highlights what a turn did."""

from __future__ import annotations

from PySide6.QtCore import QEasingCurve, QPoint, QSize, Qt, QVariantAnimation
from PySide6.QtGui import QCursor, QMouseEvent, QPainter
from PySide6.QtWidgets import QWidget

from app.gui.board_view import BoardView
from app.gui.games.splt.highlights import Highlight, highlights_of
from app.gui.games.splt.layout import HEADER_CELLS, BoardLayout
from app.gui.games.splt.painting import (
    BACKGROUND,
    paint_board,
    paint_header,
    paint_highlights,
    paint_preview,
)
from engines import Game
from engines.splt import HEIGHT, WIDTH, Box, Move

FADE_MILLISECONDS = 550


class SpltBoard(BoardView):
    """Click a box to split it. Hovering a box that can be split now shows the split line;
    other boxes do not react, but clicking one still asks the window, which shows the engine's
    reason."""

    def __init__(self, game: Game, parent: QWidget | None = None) -> None:
        super().__init__(game, parent)
        self.setMouseTracking(True)
        self.setAttribute(Qt.WidgetAttribute.WA_OpaquePaintEvent)
        self._hover: Box | None = None
        self._pressed_cell: tuple[int, int] | None = None
        self._highlights: list[Highlight] = []
        self._fade = QVariantAnimation(self)
        self._fade.setStartValue(1.0)
        self._fade.setEndValue(0.0)
        self._fade.setDuration(FADE_MILLISECONDS)
        self._fade.setEasingCurve(QEasingCurve.Type.InQuad)
        self._fade.valueChanged.connect(lambda _value: self.update())
        self._fade.finished.connect(self._clear_highlights)

    # -- what the window and tests use ----------------------------------------------------------
    def show_position(self, state, events=()) -> None:
        self.state = state
        self._fade.stop()
        self._highlights = highlights_of(events)
        if self._highlights:
            self._fade.start()
        self._refresh_hover()
        self.update()

    @property
    def highlights(self) -> list[Highlight]:
        """The highlights still fading (empty once the fade is over)."""
        return list(self._highlights)

    @property
    def hovered_box(self) -> Box | None:
        """The box whose split is previewed, if any."""
        return self._hover

    def board_layout(self) -> BoardLayout:
        return BoardLayout.fit(self.width(), self.height())

    def cell_center(self, x: int, y: int) -> QPoint:
        """The widget point in the middle of cell (x, y)."""
        return self.board_layout().cell_center(x, y)

    def sizeHint(self) -> QSize:  # noqa: N802 (Qt name)
        return self._size_for_cell(48)

    def minimumSizeHint(self) -> QSize:  # noqa: N802 (Qt name)
        return self._size_for_cell(14)

    @staticmethod
    def _size_for_cell(cell: int) -> QSize:
        return QSize(WIDTH * cell + 1, round((HEIGHT + HEADER_CELLS) * cell) + 1)

    # -- painting -------------------------------------------------------------------------------
    def paintEvent(self, event) -> None:  # noqa: N802 (Qt name)
        painter = QPainter(self)
        painter.fillRect(self.rect(), BACKGROUND)
        layout = self.board_layout()
        state = self.state
        paint_board(painter, layout, state)
        paint_header(painter, layout, state.score, state.splits, state.orientation)
        if self._hover is not None:
            paint_preview(painter, layout, self._hover, state.orientation)
        if self._highlights and self._fade.state() == QVariantAnimation.State.Running:
            paint_highlights(painter, layout, self._highlights, float(self._fade.currentValue()))
        painter.end()

    def _clear_highlights(self) -> None:
        self._highlights = []
        self.update()

    # -- mouse ----------------------------------------------------------------------------------
    def _cell_at(self, point: QPoint) -> tuple[int, int] | None:
        return self.board_layout().cell_at(point)

    def _splittable_box_at(self, point: QPoint | None) -> Box | None:
        cell = None if point is None else self._cell_at(point)
        if cell is None:
            return None
        box = self.state.box_at(*cell)
        if box is None or not box.can_split(self.state.orientation):
            return None
        return box

    def _set_hover(self, point: QPoint | None) -> None:
        box = self._splittable_box_at(point)
        if box != self._hover:
            self._hover = box
            self.update()
        shape = Qt.CursorShape.PointingHandCursor if box is not None else Qt.CursorShape.ArrowCursor
        self.setCursor(shape)

    def _refresh_hover(self) -> None:
        self._set_hover(self.mapFromGlobal(QCursor.pos()) if self.underMouse() else None)

    def mouseMoveEvent(self, event: QMouseEvent) -> None:  # noqa: N802 (Qt name)
        self._set_hover(event.position().toPoint())

    def leaveEvent(self, event) -> None:  # noqa: N802 (Qt name)
        self._set_hover(None)
        super().leaveEvent(event)

    def mousePressEvent(self, event: QMouseEvent) -> None:  # noqa: N802 (Qt name)
        if event.button() == Qt.MouseButton.LeftButton:
            self._pressed_cell = self._cell_at(event.position().toPoint())
        super().mousePressEvent(event)

    def mouseReleaseEvent(self, event: QMouseEvent) -> None:  # noqa: N802 (Qt name)
        if event.button() != Qt.MouseButton.LeftButton:
            return
        pressed, self._pressed_cell = self._pressed_cell, None
        released = self._cell_at(event.position().toPoint())
        if pressed is None or released is None:
            return
        pressed_box = self.state.box_at(*pressed)
        released_box = self.state.box_at(*released)
        if pressed_box != released_box or (pressed_box is None and pressed != released):
            return  # the press moved off the box: a cancelled split, as in the game
        move = Move.of(released_box) if released_box is not None else Move(*released)
        self.move_chosen.emit(move)
