"""The SPL-T board widget: draws positions like the game, previews and chooses splits, briefly
highlights what a turn did, and marks the advisor's candidates (fills by predictor, the best
outlined, the cluster a previewed split would make)."""

from __future__ import annotations

from PySide6.QtCore import QEasingCurve, QPoint, Qt, QVariantAnimation
from PySide6.QtGui import QMouseEvent, QPainter
from PySide6.QtWidgets import QWidget

from app.gui.board_view import BoardView
from app.gui.games.splt.advice import SplitPreview, advice_marks_of, split_preview
from app.gui.games.splt.highlights import Highlight, highlights_of
from app.gui.games.splt.layout import BoardGeometry, BoardLayout
from app.gui.games.splt.painting import (
    BACKGROUND,
    LATE_CLUSTER_OUTLINE,
    paint_advice,
    paint_board,
    paint_cluster_outline,
    paint_header,
    paint_highlights,
    paint_preview,
)
from engines import Game
from engines.splt import Box, Move

FADE_MILLISECONDS = 550


class SpltBoard(BoardGeometry, BoardView):
    """Click a box to split it. Hovering a box that can be split now shows the split line;
    other boxes do not react, but clicking one still asks the window, which shows the engine's
    reason."""

    preferred_cell = 48
    minimum_cell = 22  # four-digit point numbers and the header still readable

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
        self._candidates: list = []
        self._previewed: Box | None = None  # the candidate the panel points at
        self._split_previews: dict[Move, SplitPreview] = {}

    # -- what the window and tests use ----------------------------------------------------------
    def show_position(self, state, events=()) -> None:
        if state != self.state:
            self._candidates = []
            self._previewed = None
            self._split_previews.clear()
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

    # -- advice ---------------------------------------------------------------------------------
    def show_advice(self, candidates) -> None:
        """Mark the advisor's candidates (best first) for the position shown."""
        self._candidates = list(candidates)
        self.update()

    def preview_move(self, move: Move | None) -> None:
        """Show the split line of ``move`` and outline the cluster it would make, as when the
        mouse is on its box; None (or a move that is not a legal split here) clears it."""
        box = None
        if move is not None:
            box = self.state.box_at(move.x, move.y)
            if box is None or (box.x, box.y) != (move.x, move.y) or not box.can_split(self.state.orientation):
                box = None
        if box != self._previewed:
            self._previewed = box
            self.update()

    @property
    def previewed_box(self) -> Box | None:
        """The box whose split the panel previews, if any."""
        return self._previewed

    def advice_marks(self) -> dict[int, str]:
        """Box-list index -> "best", "halving" (green), "cluster" (red), "both" (amber) or
        "ranked" (neutral), for every candidate shown (empty when hidden)."""
        if not self._advice_visible:
            return {}
        return advice_marks_of(self.state, self._candidates)

    def previewed_clusters(self) -> tuple[set[tuple[int, int]], set[tuple[int, int]]]:
        """The cells outlined now: the cluster the previewed split (the panel's, else the mouse's)
        would make, and the unexpected cluster boxes would fall into. Empty while no advice is
        shown."""
        box = self._previewed or self._hover
        if box is None or not (self._advice_visible and self._candidates):
            return set(), set()
        preview = self.split_preview(box)
        return ({cell for b in preview.made for cell in b.cells()},
                {cell for b in preview.late for cell in b.cells()})

    def split_preview(self, box: Box) -> SplitPreview:
        """The clusters splitting ``box`` would make (from the engine's turn), cached per position."""
        move = Move.of(box)
        found = self._split_previews.get(move)
        if found is None:
            found = split_preview(self.game, self.state, move)
            self._split_previews[move] = found
        return found


    # -- painting -------------------------------------------------------------------------------
    def paintEvent(self, event) -> None:  # noqa: N802 (Qt name)
        painter = QPainter(self)
        painter.fillRect(self.rect(), BACKGROUND)
        layout = self.board_layout()
        state = self.state
        paint_board(painter, layout, state)
        advice = self._advice_visible
        if advice and self._candidates:
            paint_advice(painter, layout, state, self._candidates)
        paint_header(painter, layout, state.score, state.splits, state.orientation)
        for box in dict.fromkeys(b for b in (self._hover, self._previewed) if b is not None):
            paint_preview(painter, layout, box, state.orientation)
            if advice and self._candidates:
                preview = self.split_preview(box)
                paint_cluster_outline(painter, layout, preview.made)
                paint_cluster_outline(painter, layout, preview.late, LATE_CLUSTER_OUTLINE)
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
