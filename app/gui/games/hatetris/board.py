"""The HATETRIS board widget: the well as the official page draws it, the advisor's ghosts, and
placements chosen with the mouse or a ghost cursor on the keys.

Mouse: hovering a cell shows the ghost of the legal placement that covers it best (the advisor's
best-ranked one among those covering the cell, else the lowest); the wheel cycles through the
others covering that cell; a click plays the ghost.

Keys (while the board has the focus; none clashes with the window's tree keys): A / J and D / L
move the ghost cursor one column left / right, W / I turn it clockwise, E tries the next resting
height at that column (a piece slid under an overhang), S / K / Enter play it (the first press
only shows the cursor), Esc hides it. The cursor starts where the live piece would land if
dropped straight down from its spawn.
"""

from __future__ import annotations

from PySide6.QtCore import QEasingCurve, QEvent, QPoint, Qt, QVariantAnimation
from PySide6.QtGui import QKeyEvent, QMouseEvent, QPainter, QWheelEvent
from PySide6.QtWidgets import QToolTip, QWidget

from app.gui.board_view import BoardView
from app.gui.games.hatetris.advice import badge_text
from app.gui.games.hatetris.layout import WellLayout, widget_size
from app.gui.games.hatetris.painting import (
    BACKGROUND,
    BEST,
    PLAYER,
    PREVIEW,
    badge_rect,
    paint_badge,
    paint_ghost,
    paint_side,
    paint_turn_marks,
    paint_well,
)
from app.gui.games.hatetris.placements import (
    Cell,
    TurnMarks,
    candidate_for,
    compact_keys,
    cursor_lower,
    cursor_rotate,
    cursor_start,
    cursor_step,
    placement_cells,
    placements_covering,
    rank_by_cells,
    turn_marks,
)
from engines import Game
from engines.hatetris import Placement

FADE_MILLISECONDS = 650

#: The board's own keys, for the tooltip and the window's shortcut list: (keys, what they do).
KEY_HELP: tuple[tuple[str, str], ...] = (
    ("A / J, D / L", "move the ghost cursor one column left / right"),
    ("W / I", "turn the ghost cursor clockwise"),
    ("E", "next resting height at that column (slide under an overhang)"),
    ("S / K / Enter", "play the ghost cursor's placement (the first press shows it)"),
    ("Esc", "hide the ghost cursor"),
)
MOUSE_HELP: tuple[tuple[str, str], ...] = (
    ("Hover a cell", "ghost of the best placement covering it"),
    ("Wheel", "the other placements covering that cell"),
    ("Click", "play the ghost"),
)

_LEFT = (Qt.Key.Key_A, Qt.Key.Key_J)
_RIGHT = (Qt.Key.Key_D, Qt.Key.Key_L)
_ROTATE = (Qt.Key.Key_W, Qt.Key.Key_I)
_LOWER = (Qt.Key.Key_E,)
_PLAY = (Qt.Key.Key_S, Qt.Key.Key_K, Qt.Key.Key_Return, Qt.Key.Key_Enter)

LEGEND = ((BEST, "best"), (PREVIEW, "previewed"), (PLAYER, "yours"))


def help_text() -> str:
    """The board's keys and mouse gestures, one per line."""
    rows = [f"{keys}: {what}" for keys, what in MOUSE_HELP + KEY_HELP]
    return "HATETRIS board\n" + "\n".join(rows)


class HatetrisBoard(BoardView):
    """The well, the live piece at its spawn, the ghosts and the badges (see the module doc)."""

    preferred_cell = 34
    minimum_cell = 18  # the side panel's score and legend text still readable (~9 px)

    def __init__(self, game: Game, parent: QWidget | None = None) -> None:
        super().__init__(game, parent)
        self.setMouseTracking(True)
        self.setAttribute(Qt.WidgetAttribute.WA_OpaquePaintEvent)
        self._moves: list[Placement] = game.legal_moves(self.state)
        self._candidates: list = []
        self._ranks: dict[frozenset[Cell], int] = {}
        self._previewed: Placement | None = None
        self._hover_cell: Cell | None = None
        self._hover_options: list[Placement] = []
        self._hover_choice = 0
        self._pressed_cell: Cell | None = None
        self._cursor: Placement | None = None
        self._cursor_shown = False
        self._marks = TurnMarks()
        self._key_paths: dict[Placement, str] = {}
        self._fade = QVariantAnimation(self)
        self._fade.setStartValue(1.0)
        self._fade.setEndValue(0.0)
        self._fade.setDuration(FADE_MILLISECONDS)
        self._fade.setEasingCurve(QEasingCurve.Type.InQuad)
        self._fade.valueChanged.connect(lambda _value: self.update())
        self._fade.finished.connect(self._clear_marks)

    # -- what the window and tests use ----------------------------------------------------------
    def show_position(self, state, events=()) -> None:
        if state != self.state or state.memory is not self.state.memory:
            self._candidates = []
            self._ranks = {}
            self._previewed = None
        self.state = state
        self._moves = self.game.legal_moves(state)
        self._key_paths = {}
        if self._cursor_shown:
            self._cursor = cursor_start(self._moves, state.rules.spawn_x)
            self._cursor_shown = self._cursor is not None
        else:
            self._cursor = None
        self._fade.stop()
        self._marks = turn_marks(events)
        if self._marks:
            self._fade.start()
        self._forget_hover()
        self._refresh_hover()
        self.update()

    def well_layout(self) -> WellLayout:
        return WellLayout.fit(self.width(), self.height(), self.state.rules)

    def cell_center(self, x: int, y: int) -> QPoint:
        """The widget point in the middle of cell (column x, row y)."""
        return self.well_layout().cell_center(x, y)

    def sizeHint(self):  # noqa: N802 (Qt name)
        return widget_size(self.preferred_cell, self.state.rules)

    def minimumSizeHint(self):  # noqa: N802 (Qt name)
        return widget_size(self.minimum_cell, self.state.rules)

    @property
    def legal_placements(self) -> list[Placement]:
        return list(self._moves)

    @property
    def turn_marks(self) -> TurnMarks:
        """The last turn's marks while they fade (empty once the fade is over)."""
        return self._marks

    @property
    def hovered_placement(self) -> Placement | None:
        """The placement the mouse's ghost shows (a click plays it)."""
        if not self._hover_options:
            return None
        return self._hover_options[self._hover_choice % len(self._hover_options)]

    @property
    def cursor_placement(self) -> Placement | None:
        """The keys' ghost cursor, None while it is hidden."""
        return self._cursor if self._cursor_shown else None

    def placement_at(self, cell: Cell) -> Placement | None:
        """The placement a click on ``cell`` plays: the advisor's best-ranked legal placement
        covering it (while advice is shown), else the lowest; None if no placement covers it."""
        options = placements_covering(cell, self._moves, self._ranks if self._advice_visible else None)
        return options[0] if options else None

    # -- advice ---------------------------------------------------------------------------------
    def show_advice(self, candidates) -> None:
        self._candidates = list(candidates)
        self._ranks = rank_by_cells(self._candidates)
        self._forget_hover()
        self._refresh_hover()
        self.update()

    def preview_move(self, move: Placement | None) -> None:
        if move is not None and move not in self._moves:
            move = None
        if move != self._previewed:
            self._previewed = move
            self.update()

    def set_advice_visible(self, visible: bool) -> None:
        self._forget_hover()  # the hovered cell's placements are ranked by the advice
        super().set_advice_visible(visible)

    @property
    def previewed_placement(self) -> Placement | None:
        return self._previewed

    def best_placement(self) -> Placement | None:
        """The advisor's best, as its ghost shows it (None while advice is hidden or absent)."""
        if not (self._advice_visible and self._candidates):
            return None
        return self._candidates[0].move

    def candidate_of(self, move: Placement | None):
        """The advisor's candidate for ``move`` (or for its twin on the same cells), if any."""
        return None if move is None else candidate_for(move, self._candidates)

    def ghosts(self) -> dict[str, Placement]:
        """The ghosts drawn now: "best", "previewed", "hover", "cursor" -> placement."""
        found = {"best": self.best_placement(), "previewed": self._previewed,
                 "hover": self.hovered_placement, "cursor": self.cursor_placement}
        return {name: move for name, move in found.items() if move is not None}

    # -- painting -------------------------------------------------------------------------------
    def paintEvent(self, event) -> None:  # noqa: N802 (Qt name)
        painter = QPainter(self)
        painter.fillRect(self.rect(), BACKGROUND)
        layout = self.well_layout()
        paint_well(painter, layout, self.state)
        if self._marks and self._fade.state() == QVariantAnimation.State.Running:
            paint_turn_marks(painter, layout, self._marks, float(self._fade.currentValue()))
        ghosts = self.ghosts()
        styles = {"best": (BEST, True), "previewed": (PREVIEW, False), "hover": (PLAYER, False),
                  "cursor": (PLAYER, False)}
        for name, move in ghosts.items():
            color, dashed = styles[name]
            paint_ghost(painter, layout, placement_cells(move), color, dashed)
        if self._advice_visible and self._candidates:
            taken = []
            badged: set[frozenset[Cell]] = set()
            for name, move in ghosts.items():
                cells = placement_cells(move)
                candidate = self.candidate_of(move)
                if candidate is None or frozenset(cells) in badged:
                    continue
                badged.add(frozenset(cells))
                text = badge_text(candidate)
                rect = badge_rect(layout, cells, text, taken)
                taken.append(rect)
                paint_badge(painter, layout, rect, text, styles[name][0])
        paint_side(painter, layout, self.state, LEGEND, self._keys_shown(ghosts, styles))
        painter.end()

    def _keys_shown(self, ghosts: dict[str, Placement], styles) -> tuple[str, object, str] | None:
        """The keys of the ghost the player looks at (the mouse's, the cursor's, the panel's,
        else the best): (whose, colour, compact keys)."""
        for name, whose in (("hover", "yours"), ("cursor", "yours"), ("previewed", "previewed"), ("best", "best")):
            move = ghosts.get(name)
            if move is not None:
                keys = self.key_path(move)
                return (whose, styles[name][0], compact_keys(keys)) if keys else None
        return None

    def key_path(self, move: Placement) -> str:
        """The shortest keys from the spawn that lock the piece at ``move`` ("" if none)."""
        candidate = self.candidate_of(move)
        if candidate is not None and candidate.move == move and getattr(candidate, "keys", ""):
            return candidate.keys
        found = self._key_paths.get(move)
        if found is None:
            try:
                found = self.game.key_path(self.state, move)
            except ValueError:
                found = ""
            self._key_paths[move] = found
        return found

    def _clear_marks(self) -> None:
        self._marks = TurnMarks()
        self.update()

    # -- mouse ----------------------------------------------------------------------------------
    def _cell_at(self, point: QPoint) -> Cell | None:
        return self.well_layout().cell_at(point)

    def _forget_hover(self) -> None:
        self._hover_cell = None
        self._hover_options = []
        self._hover_choice = 0

    def _set_hover(self, point: QPoint | None) -> None:
        cell = None if point is None else self._cell_at(point)
        if cell != self._hover_cell:
            self._hover_cell = cell
            self._hover_choice = 0
            ranks = self._ranks if self._advice_visible else None
            self._hover_options = [] if cell is None else placements_covering(cell, self._moves, ranks)
            self.update()
        shape = Qt.CursorShape.PointingHandCursor if self._hover_options else Qt.CursorShape.ArrowCursor
        self.setCursor(shape)

    def wheelEvent(self, event: QWheelEvent) -> None:  # noqa: N802 (Qt name)
        self._set_hover(event.position().toPoint())
        if len(self._hover_options) > 1 and event.angleDelta().y():
            self._hover_choice += -1 if event.angleDelta().y() > 0 else 1
            self._hover_choice %= len(self._hover_options)
            self.update()
            event.accept()
            return
        super().wheelEvent(event)

    def mousePressEvent(self, event: QMouseEvent) -> None:  # noqa: N802 (Qt name)
        if event.button() == Qt.MouseButton.LeftButton:
            self._pressed_cell = self._cell_at(event.position().toPoint())
        super().mousePressEvent(event)

    def mouseReleaseEvent(self, event: QMouseEvent) -> None:  # noqa: N802 (Qt name)
        if event.button() != Qt.MouseButton.LeftButton:
            return
        pressed, self._pressed_cell = self._pressed_cell, None
        point = event.position().toPoint()
        released = self._cell_at(point)
        if pressed is None or released != pressed:
            return  # the press moved off the cell: cancelled
        self._set_hover(point)
        move = self.hovered_placement
        if move is not None:
            self.move_chosen.emit(move)

    def event(self, event: QEvent) -> bool:
        if event.type() == QEvent.Type.ToolTip:
            self._show_tooltip(event)
            return True
        return super().event(event)

    def _show_tooltip(self, event) -> None:
        """Over a ghost: the placement, its keys and what follows; elsewhere: the board's keys."""
        point = event.pos()
        move = self.hovered_placement if self._cell_at(point) is not None else None
        if move is None:
            QToolTip.showText(event.globalPos(), help_text(), self)
            return
        QToolTip.showText(event.globalPos(), self.placement_text(move), self)

    def placement_text(self, move: Placement) -> str:
        """A placement in words: its text, the keys that reach it, and the advisor's words."""
        candidate = self.candidate_of(move)
        keys = self.key_path(move)
        lines = [str(move) + (f" · keys {keys}" if keys else "")]
        if candidate is not None and self._advice_visible:
            rank = self._candidates.index(candidate) + 1
            lines.append(f"#{rank} of {len(self._candidates)} · {badge_text(candidate)}")
            if candidate.explanation:
                lines.append(candidate.explanation)
        if len(self._hover_options) > 1:
            lines.append(f"({len(self._hover_options)} placements cover this cell: the wheel shows the others)")
        return "\n".join(lines)

    # -- keys -----------------------------------------------------------------------------------
    def keyPressEvent(self, event: QKeyEvent) -> None:  # noqa: N802 (Qt name)
        modifiers = event.modifiers() & ~Qt.KeyboardModifier.KeypadModifier
        key = event.key()
        if modifiers != Qt.KeyboardModifier.NoModifier or not self._moves:
            super().keyPressEvent(event)
            return
        if key == Qt.Key.Key_Escape and self._cursor_shown:
            self._cursor_shown = False
            self._cursor = None
            self.update()
            return
        if key not in _LEFT + _RIGHT + _ROTATE + _LOWER + _PLAY:
            super().keyPressEvent(event)
            return
        if not self._cursor_shown or self._cursor is None:
            self._cursor = cursor_start(self._moves, self.state.rules.spawn_x)
            self._cursor_shown = True
            if key in _PLAY:  # the first press only shows where the piece would go
                self.update()
                return
        if key in _LEFT:
            self._cursor = cursor_step(self._moves, self._cursor, -1)
        elif key in _RIGHT:
            self._cursor = cursor_step(self._moves, self._cursor, 1)
        elif key in _ROTATE:
            self._cursor = cursor_rotate(self._moves, self._cursor)
        elif key in _LOWER:
            self._cursor = cursor_lower(self._moves, self._cursor)
        else:
            self.move_chosen.emit(self._cursor)
            return
        self.update()
