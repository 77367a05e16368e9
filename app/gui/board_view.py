"""The base of every game's board widget.

A board view only draws positions and turns clicks into moves; it never plays them. The window
plays the move it emits with the game's ``play`` and shows the engine's reason when the move is
illegal, so the rules live in ``engines/`` alone.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QEvent, QPoint, QPointF, QSize, Qt, Signal
from PySide6.QtGui import QColor, QCursor, QKeyEvent, QMouseEvent, QPainter
from PySide6.QtWidgets import QToolTip, QWidget

from engines import Game


class BoardView(QWidget):
    """Shows one position of ``game``; emits :attr:`move_chosen` when the player picks a move
    (legal or not: the window asks the engine)."""

    move_chosen = Signal(object)

    def __init__(self, game: Game, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.game = game
        self.state: Any = game.initial_state()
        self._advice_visible = True
        self.setFocusPolicy(Qt.FocusPolicy.StrongFocus)

    @staticmethod
    def has_command_modifier(event: QKeyEvent) -> bool:
        """Whether a key comes with Ctrl, Alt or Meta (Shift and the keypad do not count): such
        keys belong to the window's shortcuts, not to a board's letters."""
        ignored = Qt.KeyboardModifier.KeypadModifier | Qt.KeyboardModifier.ShiftModifier
        return (event.modifiers() & ~ignored) != Qt.KeyboardModifier.NoModifier

    def tooltip_text(self, point: QPointF) -> str:
        """The tooltip at ``point`` of the widget ("" for none); a view with tooltips says them
        here and the base shows them."""
        return ""

    def event(self, event: QEvent) -> bool:
        if event.type() == QEvent.Type.ToolTip and type(self).tooltip_text is not BoardView.tooltip_text:
            QToolTip.showText(event.globalPos(), self.tooltip_text(QPointF(event.pos())), self)
            return True
        return super().event(event)

    def show_position(self, state: Any, events: tuple[Any, ...] = ()) -> None:
        """Draw ``state``; ``events`` are the turn that led to it (empty after undo, new game or
        paste), which a view may briefly highlight."""
        self.state = state
        self.update()

    # -- advice (the advisor panel's candidates drawn on the board; a view may ignore them) -----
    def show_advice(self, candidates: list[Any]) -> None:
        """Mark the advisor's ``candidates`` (best first) for the position shown. Call it after
        :meth:`show_position`; a new position clears the marks."""

    def preview_move(self, move: Any | None) -> None:
        """Preview ``move`` (a candidate the player points at in the panel); None clears it."""

    def set_advice_visible(self, visible: bool) -> None:
        """Show or hide the advice marks (the candidates are kept)."""
        self._advice_visible = bool(visible)
        self._refresh_hover()  # what hovering previews can depend on the advice
        self.update()

    @property
    def advice_visible(self) -> bool:
        return self._advice_visible

    # -- hover -----------------------------------------------------------------------------------
    def _set_hover(self, point: QPoint | None) -> None:
        """The mouse is at ``point`` (widget coordinates; None: it left the board). A view that
        previews what a click would do overrides this."""

    def _refresh_hover(self) -> None:
        """Hover again where the mouse is now (after the position or the advice changed)."""
        self._set_hover(self.mapFromGlobal(QCursor.pos()) if self.underMouse() else None)

    def mouseMoveEvent(self, event: QMouseEvent) -> None:  # noqa: N802 (Qt name)
        self._set_hover(event.position().toPoint())
        super().mouseMoveEvent(event)

    def leaveEvent(self, event) -> None:  # noqa: N802 (Qt name)
        self._set_hover(None)
        super().leaveEvent(event)


class PlaceholderBoard(BoardView):
    """Stands in for a game whose board view is not written yet."""

    def paintEvent(self, event) -> None:  # noqa: N802 (Qt name)
        painter = QPainter(self)
        painter.fillRect(self.rect(), QColor(0, 0, 0))
        painter.setPen(QColor(200, 200, 200))
        painter.drawText(
            self.rect(), Qt.AlignmentFlag.AlignCenter, f"No board view for {self.game.title} yet"
        )


class PreparingBoard(BoardView):
    """Stands in for a game's board while its kernels are prepared in another process."""

    def __init__(self, game: Game, parent: QWidget | None = None) -> None:
        QWidget.__init__(self, parent)  # no initial state: making one may need the kernels
        self.game = game
        self.state = None
        self._advice_visible = True
        self.setFocusPolicy(Qt.FocusPolicy.StrongFocus)

    def sizeHint(self) -> QSize:  # noqa: N802 (Qt name)
        return QSize(420, 620)

    def minimumSizeHint(self) -> QSize:  # noqa: N802 (Qt name)
        return QSize(240, 320)

    def show_position(self, state: Any, events: tuple[Any, ...] = ()) -> None:
        """Nothing to draw until the game is ready."""

    def paintEvent(self, event) -> None:  # noqa: N802 (Qt name)
        painter = QPainter(self)
        painter.fillRect(self.rect(), self.palette().window())
        painter.setPen(self.palette().windowText().color())
        painter.drawText(
            self.rect().adjusted(16, 16, -16, -16), Qt.AlignmentFlag.AlignCenter | Qt.TextFlag.TextWordWrap,
            f"Preparing the {self.game.title} engine…\n\nIts kernels are compiled once, in the background; "
            "the game opens as soon as they are ready.",
        )
