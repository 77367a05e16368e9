"""The SPL-T board editor: set up a position by hand, drawn like the real game, to analyse it.

A player copies a real screen with four tools on the board:

- **Split** halves a box, horizontally or vertically (left click the chosen way, right click or
  Shift+click the other); any box can be halved here, a point block's halves keep its value.
- **Points** gives a box its number (0 = plain box); a drag sets every box it touches.
- **Void** removes a box and leaves void cells; a click on a void cell puts a 1x1 box back; a drag
  removes every box it touches.
- **Box** turns the cells of a dragged rectangle into one plain box (sides powers of two), so
  boxes that falls and refills left off the halving grid can be drawn too.

Score and split count are plain fields; the orientation of the next split follows from the split
count's parity and the header's stick figure shows it. Every change is checked by the engine (the
position goes through ``board_text`` and ``parse_board``): while the engine refuses it, its reason
is shown, the boxes it names are outlined in red and OK is disabled. Things a real screen would
hardly show (a 2x2 group of equal plain boxes, a game-over position) are warnings only.

The editor keeps its own undo history and never touches the position it started from: Cancel
(or Esc) leaves the main window as it was; after OK, :meth:`SpltBoardEditor.state` is the new
position.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Iterable

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import (
    QAction,
    QBrush,
    QColor,
    QFont,
    QGuiApplication,
    QKeySequence,
    QMouseEvent,
    QPainter,
    QPen,
)
from PySide6.QtWidgets import (
    QButtonGroup,
    QDialogButtonBox,
    QFormLayout,
    QGridLayout,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QRadioButton,
    QSizePolicy,
    QSpinBox,
    QStackedWidget,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from app.gui.games.splt.layout import BoardGeometry, BoardLayout
from app.gui.position_dialog import CheckedPositionDialog
from app.gui.games.splt.painting import BACKGROUND, paint_board, paint_header, paint_preview
from engines import Game
from engines.splt import HEIGHT, WIDTH, Box, Rules, State
from engines.splt.checks import standing_clusters

ORIENTATION_NAME = {"H": "horizontal", "V": "vertical"}
OTHER = {"H": "V", "V": "H"}

MAX_POINTS = 9999  # the game shows up to four digits (the split count)
MAX_SPLITS = 9999
MAX_SCORE = 999_999_999

ERROR_COLOR = QColor(255, 70, 60)
WARNING_COLOR = QColor(255, 190, 40)
GOOD_COLOR = QColor(80, 220, 120)
POINTS_COLOR = QColor(255, 190, 40)

_BOX_LABEL = re.compile(r"\((\d+),(\d+),(\d+),(\d+)\)")


class Tool:
    """The editor's tools (their values are the names the tests and shortcuts use)."""

    SPLIT = "split"
    POINTS = "points"
    VOID = "void"
    BOX = "box"
    ALL = (SPLIT, POINTS, VOID, BOX)


TOOL_KEYS = {Tool.SPLIT: "S", Tool.POINTS: "P", Tool.VOID: "X", Tool.BOX: "B"}
TOOL_TITLES = {Tool.SPLIT: "Split", Tool.POINTS: "Points", Tool.VOID: "Void", Tool.BOX: "Box"}


# -- the position being edited -------------------------------------------------------------------
@dataclasses.dataclass(frozen=True)
class Draft:
    """A position while it is edited: it may be one the engine refuses (a box over a void, a
    value above the split count). Boxes keep the box-list order of the starting position; a
    halving keeps the box in place and appends the new half, new boxes are appended."""

    boxes: tuple[Box, ...]
    score: int
    splits: int
    rules: Rules

    @classmethod
    def of(cls, state: State) -> "Draft":
        return cls(tuple(state.boxes), state.score, state.splits, state.rules)

    def state(self) -> State:
        """The draft as an engine State, unchecked."""
        return State(boxes=self.boxes, score=self.score, splits=self.splits, rules=self.rules)


class EditRefused(ValueError):
    """An edit that cannot be made, with the reason in words."""


def _is_power_of_two(value: int) -> bool:
    return value > 0 and value & (value - 1) == 0


def _overlaps(box: Box, x: int, y: int, w: int, h: int) -> bool:
    return box.x < x + w and x < box.right and box.y < y + h and y < box.bottom


def halve(boxes: tuple[Box, ...], box: Box, orientation: str) -> tuple[Box, ...]:
    """``box`` cut in two: its top or left half stays in its place in the list, the other half
    (same points) is appended."""
    if orientation == "H":
        if box.h < 2:
            raise EditRefused(f"box {box.label()} is 1 cell tall: it cannot be halved horizontally")
        first = dataclasses.replace(box, h=box.h // 2)
        second = dataclasses.replace(box, y=box.y + box.h // 2, h=box.h // 2)
    else:
        if box.w < 2:
            raise EditRefused(f"box {box.label()} is 1 cell wide: it cannot be halved vertically")
        first = dataclasses.replace(box, w=box.w // 2)
        second = dataclasses.replace(box, x=box.x + box.w // 2, w=box.w // 2)
    return tuple(first if other == box else other for other in boxes) + (second,)


def with_points(boxes: tuple[Box, ...], targets: Iterable[Box], value: int) -> tuple[Box, ...]:
    """The boxes with every target showing ``value`` (0 = plain)."""
    chosen = set(targets)
    return tuple(dataclasses.replace(box, points=value) if box in chosen else box for box in boxes)


def without(boxes: tuple[Box, ...], targets: Iterable[Box]) -> tuple[Box, ...]:
    """The boxes without the targets (their cells become voids)."""
    doomed = set(targets)
    return tuple(box for box in boxes if box not in doomed)


def merged(boxes: tuple[Box, ...], x: int, y: int, w: int, h: int) -> tuple[Box, ...]:
    """The boxes with the rectangle (x, y, w, h) made one plain box: boxes inside it are
    replaced, void cells in it are filled; a box partly outside it refuses the edit."""
    if not (_is_power_of_two(w) and _is_power_of_two(h)):
        raise EditRefused(f"a box is 1, 2, 4 or 8 cells wide and 1, 2, 4, 8 or 16 tall, not {w}x{h}")
    inside = [box for box in boxes if _overlaps(box, x, y, w, h)]
    for box in inside:
        if box.x < x or box.y < y or box.right > x + w or box.bottom > y + h:
            raise EditRefused(
                f"box {box.label()} sticks out of the rectangle ({x},{y},{w},{h}): "
                "take it apart first (Split or Void)"
            )
    if len(inside) == 1 and inside[0].geometry() == (x, y, w, h) and inside[0].is_plain:
        raise EditRefused(f"({x},{y},{w},{h}) is already one plain box")
    return without(boxes, inside) + (Box(x, y, w, h),)


def boxes_in(state: State, x: int, y: int, w: int, h: int) -> list[Box]:
    """Every box of ``state`` that covers a cell of the rectangle, in list order."""
    return [box for box in state.boxes if _overlaps(box, x, y, w, h)]


class _UndoList:
    """The editor's own history of drafts. Edits with the same ``key`` made one after another
    (typing a score digit by digit) make one step."""

    def __init__(self, first: Draft) -> None:
        self._drafts = [first]
        self._index = 0
        self._last_key: str | None = None

    @property
    def current(self) -> Draft:
        return self._drafts[self._index]

    def push(self, draft: Draft, key: str | None = None) -> None:
        if key is not None and key == self._last_key and self._index > 0 and self._index == len(self._drafts) - 1:
            self._drafts[self._index] = draft
        else:
            del self._drafts[self._index + 1 :]
            self._drafts.append(draft)
            self._index += 1
        self._last_key = key

    def can_undo(self) -> bool:
        return self._index > 0

    def can_redo(self) -> bool:
        return self._index < len(self._drafts) - 1

    def undo(self) -> Draft | None:
        self._last_key = None
        if not self.can_undo():
            return None
        self._index -= 1
        return self.current

    def redo(self) -> Draft | None:
        self._last_key = None
        if not self.can_redo():
            return None
        self._index += 1
        return self.current


# -- the board -----------------------------------------------------------------------------------
class EditorCanvas(BoardGeometry, QWidget):
    """The board as the game draws it, with the editor's overlays: what the tool under the
    mouse would do, the rectangle being dragged, and the boxes a problem is about.

    It only reports clicks and drags in cells; the dialog edits the position."""

    preferred_cell = 38
    minimum_cell = 20

    clicked = Signal(object, object, object)  # (x, y), Qt.MouseButton, Qt.KeyboardModifiers
    dragged = Signal(object, object)  # (x, y, w, h), Qt.MouseButton
    hovered = Signal(object)  # (x, y) or None

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setMouseTracking(True)
        self.setAttribute(Qt.WidgetAttribute.WA_OpaquePaintEvent)
        self.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Expanding)
        self.state = State()
        self.tool = Tool.SPLIT
        self.split_orientation = "H"
        self.error_boxes: list[tuple[int, int, int, int]] = []
        self.warning_boxes: list[tuple[int, int, int, int]] = []
        self._hover: tuple[int, int] | None = None
        self._shift = False
        self._press: tuple[tuple[int, int], Qt.MouseButton] | None = None
        self._drag_to: tuple[int, int] | None = None

    # -- geometry ------------------------------------------------------------------------------

    def show_state(self, state: State, error_boxes=(), warning_boxes=()) -> None:
        self.state = state
        self.error_boxes = list(error_boxes)
        self.warning_boxes = list(warning_boxes)
        self.update()

    def effective_orientation(self, button: Qt.MouseButton | None = None, shift: bool | None = None) -> str:
        """The way the Split tool halves: the chosen one, or the other with right click or
        Shift."""
        shift = self._shift if shift is None else shift
        flipped = shift or button == Qt.MouseButton.RightButton
        return OTHER[self.split_orientation] if flipped else self.split_orientation

    # -- painting ------------------------------------------------------------------------------
    def paintEvent(self, event) -> None:  # noqa: N802 (Qt name)
        painter = QPainter(self)
        painter.fillRect(self.rect(), BACKGROUND)
        layout = self.board_layout()
        state = self.state
        paint_board(painter, layout, state)
        paint_header(painter, layout, state.score, state.splits, state.orientation)
        for geometry in self.warning_boxes:
            self._outline(painter, layout, geometry, WARNING_COLOR, dashed=True)
        for geometry in self.error_boxes:
            self._outline(painter, layout, geometry, ERROR_COLOR)
        if self._press is not None and self._drag_to is not None and self._is_dragging():
            self._paint_drag(painter, layout)
        elif self._hover is not None:
            self._paint_hover(painter, layout, self._hover)
        painter.end()

    @property
    def hovered_cell(self) -> tuple[int, int] | None:
        """The cell under the mouse, if any."""
        return self._hover

    @staticmethod
    def _outline(painter: QPainter, layout: BoardLayout, geometry, color: QColor, dashed: bool = False) -> None:
        x, y, w, h = geometry
        border = max(2, round(layout.cell / (24 if dashed else 16)))
        pen = QPen(color, border)
        pen.setJoinStyle(Qt.PenJoinStyle.MiterJoin)
        if dashed:
            pen.setStyle(Qt.PenStyle.DashLine)
        painter.setPen(pen)
        painter.setBrush(Qt.BrushStyle.NoBrush)
        inset = border // 2 + 1
        painter.drawRect(layout.rect(x, y, w, h).adjusted(inset, inset, -inset + 1, -inset + 1))

    @staticmethod
    def _tint(painter: QPainter, layout: BoardLayout, geometry, color: QColor, alpha: float) -> None:
        x, y, w, h = geometry
        fill = QColor(color)
        fill.setAlphaF(alpha)
        painter.fillRect(layout.rect(x, y, w, h).adjusted(1, 1, 0, 0), QBrush(fill, Qt.BrushStyle.Dense5Pattern))

    def _paint_hover(self, painter: QPainter, layout: BoardLayout, cell: tuple[int, int]) -> None:
        box = self.state.box_at(*cell)
        if self.tool == Tool.BOX or box is None:
            if box is None and self.tool in (Tool.VOID, Tool.BOX):
                self._outline(painter, layout, (*cell, 1, 1), GOOD_COLOR)
            elif self.tool == Tool.BOX:
                self._outline(painter, layout, box.geometry(), GOOD_COLOR, dashed=True)
            return
        if self.tool == Tool.SPLIT:
            orientation = self.effective_orientation()
            side = box.h if orientation == "H" else box.w
            if side >= 2:
                paint_preview(painter, layout, box, orientation)
            else:
                self._outline(painter, layout, box.geometry(), ERROR_COLOR, dashed=True)
        elif self.tool == Tool.POINTS:
            self._outline(painter, layout, box.geometry(), POINTS_COLOR)
        elif self.tool == Tool.VOID:
            self._tint(painter, layout, box.geometry(), ERROR_COLOR, 0.9)
            self._outline(painter, layout, box.geometry(), ERROR_COLOR)

    def _drag_rect(self) -> tuple[int, int, int, int]:
        (x0, y0), _button = self._press
        x1, y1 = self._drag_to
        x, y = min(x0, x1), min(y0, y1)
        return (x, y, abs(x1 - x0) + 1, abs(y1 - y0) + 1)

    def _is_dragging(self) -> bool:
        return self.tool == Tool.BOX or (self.tool in (Tool.POINTS, Tool.VOID) and self._drag_to != self._press[0])

    def _paint_drag(self, painter: QPainter, layout: BoardLayout) -> None:
        x, y, w, h = rect = self._drag_rect()
        if self.tool == Tool.BOX:
            good = _is_power_of_two(w) and _is_power_of_two(h)
            color = GOOD_COLOR if good else ERROR_COLOR
            self._outline(painter, layout, rect, color)
            font = QFont(self.font())
            font.setPixelSize(max(10, round(layout.cell * 0.42)))
            font.setBold(True)
            painter.setFont(font)
            painter.setPen(color)
            area = layout.rect(x, y, w, h)
            painter.fillRect(area.adjusted(1, 1, 0, 0), QColor(0, 0, 0, 150))
            painter.drawText(area, Qt.AlignmentFlag.AlignCenter, f"{w}×{h}")
        else:
            color = ERROR_COLOR if self.tool == Tool.VOID else POINTS_COLOR
            for box in boxes_in(self.state, *rect):
                self._tint(painter, layout, box.geometry(), color, 0.9)
            self._outline(painter, layout, rect, color, dashed=True)

    # -- mouse and keys ------------------------------------------------------------------------
    def _cell(self, event: QMouseEvent) -> tuple[int, int] | None:
        return self.board_layout().cell_at(event.position().toPoint())

    def _set_hover(self, cell: tuple[int, int] | None) -> None:
        if cell != self._hover:
            self._hover = cell
            self.hovered.emit(cell)
        self.update()

    def mouseMoveEvent(self, event: QMouseEvent) -> None:  # noqa: N802 (Qt name)
        self._shift = bool(event.modifiers() & Qt.KeyboardModifier.ShiftModifier)
        cell = self._cell(event)
        if self._press is not None and cell is not None:
            self._drag_to = cell
        self._set_hover(cell)

    def leaveEvent(self, event) -> None:  # noqa: N802 (Qt name)
        self._set_hover(None)
        super().leaveEvent(event)

    def mousePressEvent(self, event: QMouseEvent) -> None:  # noqa: N802 (Qt name)
        cell = self._cell(event)
        if cell is not None and event.button() in (Qt.MouseButton.LeftButton, Qt.MouseButton.RightButton):
            self._press = (cell, event.button())
            self._drag_to = cell
            self.update()
        self.setFocus()

    def mouseReleaseEvent(self, event: QMouseEvent) -> None:  # noqa: N802 (Qt name)
        press, self._press = self._press, None
        self._drag_to = None
        self.update()
        if press is None or event.button() != press[1]:
            return
        start, button = press
        end = self._cell(event)
        if end is None:
            return  # released off the board: cancelled
        modifiers = event.modifiers()
        if self.tool == Tool.BOX:
            x, y = min(start[0], end[0]), min(start[1], end[1])
            self.dragged.emit((x, y, abs(end[0] - start[0]) + 1, abs(end[1] - start[1]) + 1), button)
        elif self.tool == Tool.SPLIT:
            pressed_box = self.state.box_at(*start)  # released off the pressed box: cancelled
            if start == end or (pressed_box is not None and pressed_box == self.state.box_at(*end)):
                self.clicked.emit(end, button, modifiers)
        elif start == end:
            self.clicked.emit(end, button, modifiers)
        else:
            x, y = min(start[0], end[0]), min(start[1], end[1])
            self.dragged.emit((x, y, abs(end[0] - start[0]) + 1, abs(end[1] - start[1]) + 1), button)

    def keyPressEvent(self, event) -> None:  # noqa: N802 (Qt name)
        if event.key() == Qt.Key.Key_Shift:
            self._shift = True
            self.update()
        super().keyPressEvent(event)

    def keyReleaseEvent(self, event) -> None:  # noqa: N802 (Qt name)
        if event.key() == Qt.Key.Key_Shift:
            self._shift = False
            self.update()
        super().keyReleaseEvent(event)


# -- the dialog ----------------------------------------------------------------------------------
TOOL_HINTS = {
    Tool.SPLIT: "Click a box to halve it the way chosen below; right-click or Shift+click halves it "
    "the other way. A point block's halves keep its number.",
    Tool.POINTS: "Click a box to give it this number (0 = plain box); right-click makes it plain. "
    "Drag to set every box the rectangle touches.",
    Tool.VOID: "Click a box to remove it (its cells become void, white); click a void cell to put a "
    "1×1 box back. Drag to remove every box the rectangle touches.",
    Tool.BOX: "Drag over cells to make them one plain box (1, 2, 4 or 8 wide; 1 to 16 tall, powers "
    "of two). Boxes inside are replaced; void cells are filled.",
}


class SpltBoardEditor(CheckedPositionDialog):
    """A dialog to set up an SPL-T position by hand, starting from ``state``.

    ``SpltBoardEditor(game, state, parent)`` fits ``GameUi.make_board_editor``. After the dialog
    is accepted, :meth:`state` is the edited position (checked by the engine); after Cancel it is
    None.
    """

    def __init__(self, game: Game, state: State, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.game = game
        self.setWindowTitle(f"Set up position — {game.title}")
        self._start = Draft.of(state)
        self._history = _UndoList(self._start)
        self._error: str | None = None
        self._warnings: list[str] = []

        self.canvas = EditorCanvas(self)
        self.canvas.clicked.connect(self._clicked)
        self.canvas.dragged.connect(self._dragged)
        self.canvas.hovered.connect(self._hovered)

        self.hover_label = QLabel()
        self.hover_label.setObjectName("hoverLabel")
        self.hover_label.setMinimumWidth(1)

        board_column = QVBoxLayout()
        board_column.addWidget(self.canvas, 1)
        board_column.addWidget(self.hover_label)

        side = QVBoxLayout()
        side.addWidget(self._tool_group())
        side.addWidget(self._position_group())
        side.addWidget(self._board_group())
        side.addWidget(self._check_group(), 1)

        panel = QWidget()
        panel.setLayout(side)
        panel.setFixedWidth(300)

        top = QHBoxLayout()
        top.addLayout(board_column, 1)
        top.addWidget(panel)

        self.message_label = QLabel()
        self.message_label.setObjectName("messageLabel")
        self.message_label.setWordWrap(True)
        self.message_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)

        self.buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel, self
        )
        self.ok_button.setText("Use this position")
        for button in self.buttons.buttons():
            button.setAutoDefault(False)
            button.setDefault(False)
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)

        root = QVBoxLayout(self)
        root.addLayout(top, 1)
        root.addWidget(self.message_label)
        root.addWidget(self.buttons)

        self._create_shortcuts()
        self.set_tool(Tool.SPLIT)
        self._show()
        self.resize(760, 860)
        self.canvas.setFocus()

    # -- building ------------------------------------------------------------------------------
    def _tool_group(self) -> QGroupBox:
        group = QGroupBox("Tool")
        layout = QVBoxLayout(group)
        row = QHBoxLayout()
        self.tool_buttons: dict[str, QToolButton] = {}
        self._tool_group_buttons = QButtonGroup(self)
        for tool in Tool.ALL:
            button = QToolButton()
            button.setText(TOOL_TITLES[tool])
            button.setCheckable(True)
            button.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextOnly)
            button.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Fixed)
            button.setToolTip(f"{TOOL_TITLES[tool]} ({TOOL_KEYS[tool]}): {TOOL_HINTS[tool]}")
            button.clicked.connect(lambda _checked=False, tool=tool: self.set_tool(tool))
            self._tool_group_buttons.addButton(button)
            self.tool_buttons[tool] = button
            row.addWidget(button)
        layout.addLayout(row)

        self.tool_hint = QLabel()
        self.tool_hint.setWordWrap(True)
        self.tool_hint.setMinimumHeight(self.tool_hint.fontMetrics().lineSpacing() * 4)
        self.tool_hint.setAlignment(Qt.AlignmentFlag.AlignTop | Qt.AlignmentFlag.AlignLeft)
        layout.addWidget(self.tool_hint)

        self.tool_options = QStackedWidget()
        # Split: the orientation of a left click
        split_page = QWidget()
        split_row = QHBoxLayout(split_page)
        split_row.setContentsMargins(0, 0, 0, 0)
        split_row.addWidget(QLabel("Click halves:"))
        self.horizontal_button = QRadioButton("horizontally (H)")
        self.vertical_button = QRadioButton("vertically (V)")
        self.horizontal_button.setChecked(True)
        self.horizontal_button.toggled.connect(self._orientation_toggled)
        self._orientation_buttons = QButtonGroup(self)
        for button in (self.horizontal_button, self.vertical_button):
            self._orientation_buttons.addButton(button)
        split_column = QVBoxLayout()
        split_column.addWidget(self.horizontal_button)
        split_column.addWidget(self.vertical_button)
        split_row.addLayout(split_column)
        split_row.addStretch(1)
        # Points: the value a click gives
        points_page = QWidget()
        points_row = QHBoxLayout(points_page)
        points_row.setContentsMargins(0, 0, 0, 0)
        points_row.addWidget(QLabel("Number:"))
        self.points_field = QSpinBox()
        self.points_field.setObjectName("pointsField")
        self.points_field.setRange(0, MAX_POINTS)
        self.points_field.setSpecialValueText("0 (plain)")
        self.points_field.setValue(self._start.splits if self._start.splits > 0 else 1)
        self.points_field.setToolTip("The number a click gives a box; 0 makes it a plain box")
        points_row.addWidget(self.points_field, 1)
        self.points_from_splits = QPushButton("= splits")
        self.points_from_splits.setToolTip(
            "The split count: the number a cluster made on the last split shows"
        )
        self.points_from_splits.setAutoDefault(False)
        self.points_from_splits.clicked.connect(lambda: self.points_field.setValue(self.splits_field.value()))
        points_row.addWidget(self.points_from_splits)
        for page in (split_page, points_page, QWidget(), QWidget()):
            self.tool_options.addWidget(page)
        layout.addWidget(self.tool_options)
        return group

    def _position_group(self) -> QGroupBox:
        group = QGroupBox("Position")
        form = QFormLayout(group)
        self.score_field = QSpinBox()
        self.score_field.setObjectName("scoreField")
        self.score_field.setRange(0, MAX_SCORE)
        self.score_field.setGroupSeparatorShown(True)
        self.score_field.valueChanged.connect(lambda value: self._edit_number("score", value))
        self.splits_field = QSpinBox()
        self.splits_field.setObjectName("splitsField")
        self.splits_field.setRange(0, MAX_SPLITS)
        self.splits_field.valueChanged.connect(lambda value: self._edit_number("splits", value))
        self.next_label = QLabel()
        self.next_label.setObjectName("nextLabel")
        self.next_label.setToolTip(
            "The next split is horizontal when the split count is even, vertical when it is odd; "
            "the figure above the board shows it too (arms out: H, arms up: V)"
        )
        form.addRow("Score:", self.score_field)
        form.addRow("Splits:", self.splits_field)
        form.addRow("Next split:", self.next_label)
        return group

    def _board_group(self) -> QGroupBox:
        group = QGroupBox("Board")
        grid = QGridLayout(group)

        def button(text: str, tip: str, slot) -> QPushButton:
            made = QPushButton(text)
            made.setToolTip(tip)
            made.setAutoDefault(False)
            made.clicked.connect(lambda _checked=False: slot())
            return made

        self.undo_button = button("Undo", "Undo the last change (Ctrl+Z)", self.undo)
        self.redo_button = button("Redo", "Redo the change undone (Ctrl+Y, Ctrl+Shift+Z)", self.redo)
        self.one_box_button = button(
            "One box", "Start again from one plain 8×16 box, as a new game does", self.reset_to_one_box
        )
        self.clear_button = button(
            "All void", "Remove every box; then draw boxes with the Box tool", self.clear_board
        )
        self.copy_button = button("Copy text", "Copy the position as one line of text (Ctrl+C)", self.copy_text)
        self.paste_button = button(
            "Paste text", "Set up the position in the clipboard's text (Ctrl+V)", lambda: self.paste_text()
        )
        self.revert_button = button(
            "Revert", "Back to the position the editor started from", self.revert
        )
        grid.addWidget(self.undo_button, 0, 0)
        grid.addWidget(self.redo_button, 0, 1)
        grid.addWidget(self.one_box_button, 1, 0)
        grid.addWidget(self.clear_button, 1, 1)
        grid.addWidget(self.copy_button, 2, 0)
        grid.addWidget(self.paste_button, 2, 1)
        grid.addWidget(self.revert_button, 3, 0, 1, 2)
        return group

    def _check_group(self) -> QGroupBox:
        group = QGroupBox("Engine check")
        layout = QVBoxLayout(group)
        self.problem_label = QLabel()
        self.problem_label.setObjectName("problemLabel")
        self.problem_label.setWordWrap(True)
        self.problem_label.setAlignment(Qt.AlignmentFlag.AlignTop | Qt.AlignmentFlag.AlignLeft)
        self.problem_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        layout.addWidget(self.problem_label, 1)
        return group

    def _create_shortcuts(self) -> None:
        def action(keys: list, slot) -> QAction:
            made = QAction(self)
            made.setShortcuts([QKeySequence(key) for key in keys])
            made.triggered.connect(lambda _checked=False: slot())
            self.addAction(made)
            return made

        action([QKeySequence.StandardKey.Undo], self.undo)
        action([QKeySequence.StandardKey.Redo, "Ctrl+Y"], self.redo)
        action([QKeySequence.StandardKey.Copy], self.copy_text)
        action([QKeySequence.StandardKey.Paste], lambda: self.paste_text())
        action(["Ctrl+Return", "Ctrl+Enter"], self.accept)
        for tool, key in TOOL_KEYS.items():
            action([key], lambda tool=tool: self.set_tool(tool))
        action(["H"], lambda: self.set_split_orientation("H"))
        action(["V"], lambda: self.set_split_orientation("V"))

    # -- public ----------------------------------------------------------------------------------
    def edited_state(self) -> State:
        """The position as it stands in the editor (possibly one the engine refuses)."""
        return self._history.current.state()

    def checked_state(self) -> State | None:
        """The position as the engine reads it back, or None while the engine refuses it."""
        return self._checked

    def error(self) -> str | None:
        """The engine's reason for refusing the position, or None when it is valid."""
        return self._error

    def warnings(self) -> list[str]:
        """What a real screen would hardly show (the position is still accepted)."""
        return list(self._warnings)

    def message(self) -> str:
        """The answer to the last edit or command (why an edit was refused, a paste error...)."""
        return self.message_label.text()

    @property
    def ok_button(self) -> QPushButton:
        return self.buttons.button(QDialogButtonBox.StandardButton.Ok)

    @property
    def cancel_button(self) -> QPushButton:
        return self.buttons.button(QDialogButtonBox.StandardButton.Cancel)

    @property
    def tool(self) -> str:
        return self.canvas.tool

    def set_tool(self, tool: str) -> None:
        self.canvas.tool = tool
        self.tool_buttons[tool].setChecked(True)
        self.tool_hint.setText(TOOL_HINTS[tool])
        self.tool_options.setCurrentIndex(Tool.ALL.index(tool))
        self.canvas.update()

    def set_split_orientation(self, orientation: str) -> None:
        """The way a left click of the Split tool halves a box (H or V)."""
        (self.horizontal_button if orientation == "H" else self.vertical_button).setChecked(True)

    def can_undo(self) -> bool:
        return self._history.can_undo()

    def can_redo(self) -> bool:
        return self._history.can_redo()

    def undo(self) -> None:
        if self._history.undo() is not None:
            self._say("Undone")
            self._show()

    def redo(self) -> None:
        if self._history.redo() is not None:
            self._say("Redone")
            self._show()

    def reset_to_one_box(self) -> None:
        """One plain 8x16 box; score and split count are kept."""
        self._change(dataclasses.replace(self._current, boxes=(Box(0, 0, WIDTH, HEIGHT),)), "One plain 8×16 box")

    def clear_board(self) -> None:
        """No box at all: every cell void."""
        self._change(dataclasses.replace(self._current, boxes=()), "Every cell is void: draw boxes with the Box tool")

    def revert(self) -> None:
        self._change(self._start, "Back to the starting position")

    def copy_text(self) -> str:
        """Put the position's one-line text on the clipboard (and return it)."""
        text = self.game.board_text(self.edited_state())
        QGuiApplication.clipboard().setText(text)
        if self._error:
            self._say("Copied — but the engine refuses this position: " + self._error, problem=True)
        else:
            self._say("Position copied as text")
        return text

    def paste_text(self, text: str | None = None) -> bool:
        """Set up the position in ``text`` (the clipboard's by default). Text the parser refuses
        changes nothing; its precise error is shown."""
        if text is None:
            text = QGuiApplication.clipboard().text()
        try:
            state = self.game.parse_board(text)
        except ValueError as error:
            self._say(f"Cannot paste: {error}", problem=True)
            return False
        self._change(Draft.of(state), "Position pasted")
        return True

    # -- editing ---------------------------------------------------------------------------------
    @property
    def _current(self) -> Draft:
        return self._history.current

    def _say(self, text: str, problem: bool = False) -> None:
        self.message_label.setText(text)
        self.message_label.setStyleSheet(f"color: {ERROR_COLOR.darker(130).name()};" if problem else "")

    def _change(self, draft: Draft, message: str = "", key: str | None = None) -> None:
        if draft == self._current:
            return
        self._history.push(draft, key)
        self._say(message)
        self._show()

    def _refuse(self, reason: str) -> None:
        self._say(reason[:1].upper() + reason[1:], problem=True)

    def _edit_number(self, field: str, value: int) -> None:
        if getattr(self._current, field) != value:
            self._change(dataclasses.replace(self._current, **{field: value}), key=field)

    def _orientation_toggled(self) -> None:
        self.canvas.split_orientation = "H" if self.horizontal_button.isChecked() else "V"
        self.canvas.update()

    def _clicked(self, cell: tuple[int, int], button, modifiers) -> None:
        draft = self._current
        state = draft.state()
        box = state.box_at(*cell)
        tool = self.canvas.tool
        right = button == Qt.MouseButton.RightButton
        try:
            if tool == Tool.SPLIT:
                if box is None:
                    raise EditRefused(f"cell ({cell[0]},{cell[1]}) is void: there is no box to halve")
                shift = bool(modifiers & Qt.KeyboardModifier.ShiftModifier)
                orientation = self.canvas.effective_orientation(button, shift)
                boxes = halve(draft.boxes, box, orientation)
                message = f"Halved {box.label()} {ORIENTATION_NAME[orientation]}ly"
            elif tool == Tool.POINTS:
                if box is None:
                    raise EditRefused(f"cell ({cell[0]},{cell[1]}) is void: there is no box to number")
                value = 0 if right else self.points_field.value()
                if box.points == value:
                    raise EditRefused(f"box {box.label()} already shows {_points_words(value)}")
                boxes = with_points(draft.boxes, [box], value)
                message = f"Box {box.label()} now {_points_words(value, verb=True)}"
            elif tool == Tool.VOID:
                if box is None:
                    boxes = draft.boxes + (Box(cell[0], cell[1], 1, 1),)
                    message = f"Plain 1×1 box put at ({cell[0]},{cell[1]})"
                else:
                    boxes = without(draft.boxes, [box])
                    message = f"Removed box {box.label()}: {box.area} void cell{'s' if box.area > 1 else ''}"
            else:
                self._dragged((cell[0], cell[1], 1, 1), button)
                return
        except EditRefused as refusal:
            self._refuse(str(refusal))
            return
        self._change(dataclasses.replace(draft, boxes=boxes), message)

    def _dragged(self, rect: tuple[int, int, int, int], button) -> None:
        draft = self._current
        state = draft.state()
        tool = self.canvas.tool
        x, y, w, h = rect
        touched = boxes_in(state, *rect)
        try:
            if tool == Tool.BOX:
                boxes = merged(draft.boxes, *rect)
                message = f"One plain box ({x},{y},{w},{h})"
            elif tool == Tool.VOID:
                if not touched:
                    raise EditRefused("the rectangle holds no box")
                boxes = without(draft.boxes, touched)
                message = f"Removed {len(touched)} box{'es' if len(touched) > 1 else ''}"
            elif tool == Tool.POINTS:
                value = 0 if button == Qt.MouseButton.RightButton else self.points_field.value()
                if not touched:
                    raise EditRefused("the rectangle holds no box")
                boxes = with_points(draft.boxes, touched, value)
                message = f"{len(touched)} box{'es' if len(touched) > 1 else ''} now {_points_words(value, verb=True)}"
            else:
                return
        except EditRefused as refusal:
            self._refuse(str(refusal))
            return
        self._change(dataclasses.replace(draft, boxes=boxes), message)

    def _hovered(self, cell: tuple[int, int] | None) -> None:
        if cell is None:
            self.hover_label.setText("")
            return
        box = self.edited_state().box_at(*cell)
        if box is None:
            text = f"cell ({cell[0]},{cell[1]}) · void"
        else:
            kind = f"point block {box.points}," if box.points else "plain box"
            text = f"cell ({cell[0]},{cell[1]}) · {kind} {box.w}×{box.h} at ({box.x},{box.y})"
            if self.canvas.tool == Tool.SPLIT:
                orientation = self.canvas.effective_orientation()
                if (box.h if orientation == "H" else box.w) < 2:
                    text += f" · cannot be halved {ORIENTATION_NAME[orientation]}ly"
        self.hover_label.setText(text)

    # -- checking and showing ----------------------------------------------------------------------
    def _check(self) -> None:
        """Ask the engine whether the draft is a position: through its text form and parser,
        which refuse what the game cannot show (overlaps, sides, boxes over a void, values above
        the split count)."""
        candidate = self.edited_state()
        self._warnings = []
        self._cluster_boxes: list[tuple[int, int, int, int]] = []
        try:
            self._checked = self.game.parse_board(self.game.board_text(candidate))
            self._error = None
        except ValueError as error:
            self._checked = None
            self._error = getattr(error, "reason", str(error))
            return
        members = standing_clusters(self._checked)
        self._cluster_boxes = [box.geometry() for box in members]
        if members:
            labels = " ".join(box.label() for box in members[:4]) + (" …" if len(members) > 4 else "")
            self._warnings.append(
                f"{len(members)} plain boxes form 2×2 groups of equal boxes ({labels}); the game "
                "turns such a group into point blocks at once — set their numbers?"
            )
        if self.game.is_over(self._checked):
            way = "horizontally" if self._checked.orientation == "H" else "vertically"
            self._warnings.append(f"No plain box can be halved {way}: a game-over position.")

    def _show(self) -> None:
        draft = self._current
        for field, value in ((self.score_field, draft.score), (self.splits_field, draft.splits)):
            if field.value() != value:
                field.blockSignals(True)
                field.setValue(value)
                field.blockSignals(False)
        orientation = "H" if draft.splits % 2 == 0 else "V"
        parity = "even" if orientation == "H" else "odd"
        self.next_label.setText(f"{orientation} — {ORIENTATION_NAME[orientation]} ({draft.splits} is {parity})")
        self._check()
        error_boxes = [tuple(map(int, found)) for found in _BOX_LABEL.findall(self._error or "")]
        self.canvas.show_state(draft.state(), error_boxes, self._cluster_boxes)
        self.ok_button.setEnabled(self._error is None)
        self.undo_button.setEnabled(self._history.can_undo())
        self.redo_button.setEnabled(self._history.can_redo())
        self._show_problems()
        self._hovered(self.canvas.hovered_cell)

    def _show_problems(self) -> None:
        if self._error is not None:
            text = (
                f"✗ Not a position the game can show: {self._error}.\n\n"
                "“Use this position” stays off until it is fixed."
            )
            color = ERROR_COLOR.darker(130)
        else:
            moves = len(self.game.legal_moves(self._checked))
            text = f"✓ Valid position · {moves} legal split{'' if moves == 1 else 's'} next"
            color = GOOD_COLOR.darker(170)
            if self._warnings:
                text += "\n\n" + "\n\n".join("⚠ " + warning for warning in self._warnings)
                color = WARNING_COLOR.darker(170)
        self.problem_label.setText(text)
        self.problem_label.setStyleSheet(f"color: {color.name()};")



def _points_words(value: int, verb: bool = False) -> str:
    if value == 0:
        return "is plain" if verb else "nothing (plain box)"
    return f"shows {value}" if verb else str(value)
