"""Checking a doubtful reading before it is loaded: a low-confidence board never loads silently.

:class:`ReadingReview` shows the captured image with the grid the reader found outlined and the
doubtful cells marked, and the board as text the user corrects (checked by the game's
``parse_board`` on every change: the parser's precise error is shown and "Load this position"
stays off while the text is not a position). Games with a board editor (SPL-T) can open it on the
reading, with the doubtful cells marked there too; accepting the editor loads its position.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from PySide6.QtCore import QEvent, QObject, QRectF, QSize, Qt, Signal
from PySide6.QtGui import QBrush, QColor, QFontDatabase, QFontMetrics, QImage, QPainter, QPen
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QHBoxLayout,
    QLabel,
    QPlainTextEdit,
    QPushButton,
    QSizePolicy,
    QSplitter,
    QStyle,
    QVBoxLayout,
    QWidget,
)

from app.gui.position_dialog import CheckedPositionDialog
from engines import Game

GRID_COLOR = QColor(60, 170, 255)
DOUBT_COLOR = QColor(255, 60, 50)
ERROR_COLOR = QColor(200, 40, 30)
GOOD_COLOR = QColor(40, 140, 70)
LISTED_CELLS = 12

#: Where the readers say (in ``Reading.diagnostics``) their grid lies in the image, in the order
#: looked for. A value is ``[left, top, width, height]`` or a dict with ``left``/``x`` and
#: ``top``/``y`` and either ``right`` and ``bottom``, or ``width`` and ``height``, or the cell
#: pitch (``pitch_x``/``pitch_y``, ``cell_width``/``cell_height``, ``cell_pitch``, ``pitch`` or
#: ``cell``, as SPL-T's reader gives it).
GEOMETRY_KEYS = ("board_rect", "grid_rect", "board_xywh", "board_px", "cell_px", "well", "board", "grid")


def _number(mapping: dict[str, Any], *keys: str) -> float | None:
    for key in keys:
        if isinstance(mapping.get(key), (int, float)):
            return float(mapping[key])
    return None


def _rect_from(value: Any, rows: int, columns: int) -> QRectF | None:
    if isinstance(value, (list, tuple)) and len(value) == 4 and all(isinstance(v, (int, float)) for v in value):
        return QRectF(*(float(v) for v in value))
    if not isinstance(value, dict):
        return None
    left, top = _number(value, "left", "x"), _number(value, "top", "y")
    if left is None or top is None:
        return None
    right, bottom = _number(value, "right"), _number(value, "bottom")
    if right is not None and bottom is not None:
        return QRectF(left, top, right - left, bottom - top)
    width, height = _number(value, "width", "w"), _number(value, "height", "h")
    if width is not None and height is not None:
        return QRectF(left, top, width, height)
    pitch_x = _number(value, "pitch_x", "cell_width", "cell_pitch", "pitch", "cell")
    pitch_y = _number(value, "pitch_y", "cell_height", "cell_pitch", "pitch", "cell")
    if pitch_x is not None and pitch_y is not None:
        return QRectF(left, top, pitch_x * columns, pitch_y * rows)
    return None


def board_rect(diagnostics: dict[str, Any], shape: tuple[int, int]) -> QRectF | None:
    """The rectangle of the ``shape`` (rows, columns) cells in image pixels as the reader
    reported it (see :data:`GEOMETRY_KEYS`), or None when it did not say."""
    rows, columns = shape
    for key in GEOMETRY_KEYS:
        rect = _rect_from(diagnostics.get(key), rows, columns)
        if rect is None or rect.width() <= 0 or rect.height() <= 0:
            continue
        gap = diagnostics.get("gap_px") if key == "board_xywh" else None
        if isinstance(gap, (int, float)):  # a frame around the cells (2048): half a gap each side
            rect = rect.adjusted(gap / 2, gap / 2, -gap / 2, -gap / 2)
        return rect
    return None


#: What a doubtful value outside the grid (``Reading.doubtful_fields``) means, when the reader's
#: diagnostics give no sentence of their own.
FIELD_WORDS = {
    "extent": "The board may continue past the captured region's edge",
    "splits": "The SPLITS count above the board is doubtful",
    "score": "The SCORE above the board is doubtful",
    "previous": ("The position shown in Kibitz does not lead to this board: the split count and score were "
                 "read from the image alone"),
}


def doubt_reasons(reading: Any) -> list[str]:
    """Why ``reading`` is not sure, one sentence each: the doubtful cells, then every doubtful
    value outside the grid in the reader's own words where it gives them (Destruct-o-Match's
    ``extent``: the boulders reach the capture's edge, so the board may go on beyond it)."""
    reasons = []
    doubtful = reading.doubtful
    if doubtful:
        reasons.append(f"The reader is unsure of {len(doubtful)} cell{'' if len(doubtful) == 1 else 's'} "
                       f"(lowest confidence {reading.confidence:.0%}), marked red on the capture.")
    diagnostics = reading.diagnostics if isinstance(reading.diagnostics, dict) else {}
    for name in reading.doubtful_fields:
        words = FIELD_WORDS.get(name, f"The {name} read is doubtful")
        said = diagnostics.get(name)
        if name == "extent" and isinstance(said, str) and said:
            words = said[0].upper() + said[1:]  # the reader's own reason
        elif isinstance(diagnostics.get(f"{name}_confidence"), (int, float)):
            value = f"read {said}, " if said is not None else ""
            words = f"{words} ({value}{float(diagnostics[f'{name}_confidence']):.0%} sure)"
        reasons.append(words.rstrip(".") + ".")
    return reasons


def review_summary(reading: Any) -> str:
    """The review's first lines: why it opened, and what to do."""
    reasons = doubt_reasons(reading)
    if reading.doubtful:
        return " ".join(reasons) + " Check them, correct the board below, then load it."
    sure = f" No cell is in doubt (lowest confidence {reading.confidence:.0%})"
    if "extent" in reading.doubtful_fields:
        return (" ".join(reasons) + sure + ": check that the board below is the whole board, then load it, or "
                "capture again with some of the page around the board.")
    return " ".join(reasons) + sure + ": check the board below against the game, correct it if needed, then load it."


def review_status(reading: Any) -> str:
    """The status line's words while the review is open."""
    if reading.doubtful:
        count = len(reading.doubtful)
        return f"The reader is unsure of {count} cell{'' if count == 1 else 's'}: check them"
    reasons = doubt_reasons(reading)
    if "extent" in reading.doubtful_fields:
        return "The board may continue past the captured region's edge: check the reading"
    first = reasons[0].rstrip(".") if reasons else "The reading is doubtful"
    return f"{first}: check the reading"


def cell_words(cells: Sequence[tuple[int, int]], confidence: Any) -> str:
    """"row 3, column 2 (41 %)" for each cell (1-based, as the CLI says them), the first few."""
    words = [f"row {r + 1}, column {c + 1} ({float(confidence[r, c]):.0%})" for r, c in cells[:LISTED_CELLS]]
    more = len(cells) - LISTED_CELLS
    return "; ".join(words) + (f"; and {more} more" if more > 0 else "")


class CapturedImageView(QWidget):
    """The captured image, scaled to fit, with the reader's grid outlined and the doubtful cells
    filled red."""

    def __init__(self, image: QImage, grid: QRectF | None, shape: tuple[int, int],
                 doubtful: Sequence[tuple[int, int]], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.image = image
        self.grid = grid
        self.rows, self.columns = shape
        self.doubtful = list(doubtful)
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Expanding)
        self.setMinimumSize(240, 240)

    def sizeHint(self) -> QSize:  # noqa: N802 (Qt name)
        size = self.image.size()
        size.scale(QSize(560, 640), Qt.AspectRatioMode.KeepAspectRatio)
        return size

    def image_rect(self) -> QRectF:
        """Where the image is drawn (aspect kept, centred)."""
        size = self.image.size().toSizeF()
        size.scale(self.size().toSizeF(), Qt.AspectRatioMode.KeepAspectRatio)
        return QRectF((self.width() - size.width()) / 2, (self.height() - size.height()) / 2, size.width(), size.height())

    def cell_rect(self, row: int, column: int) -> QRectF | None:
        """Where cell (row, column) is drawn, when the reader said where its grid is."""
        if self.grid is None or not self.rows or not self.columns:
            return None
        shown = self.image_rect()
        scale = shown.width() / max(1, self.image.width())
        width, height = self.grid.width() / self.columns, self.grid.height() / self.rows
        return QRectF(shown.x() + (self.grid.x() + column * width) * scale,
                      shown.y() + (self.grid.y() + row * height) * scale, width * scale, height * scale)

    def paintEvent(self, event) -> None:  # noqa: N802 (Qt name)
        painter = QPainter(self)
        painter.setRenderHint(QPainter.RenderHint.SmoothPixmapTransform)
        painter.fillRect(self.rect(), QColor(40, 40, 40))
        painter.drawImage(self.image_rect(), self.image)
        if self.grid is not None and self.rows and self.columns:
            first, last = self.cell_rect(0, 0), self.cell_rect(self.rows - 1, self.columns - 1)
            outline = QRectF(first.topLeft(), last.bottomRight())
            lines = QColor(GRID_COLOR)
            lines.setAlpha(90)
            painter.setPen(QPen(lines, 1))
            for row in range(1, self.rows):
                y = first.y() + row * first.height()
                painter.drawLine(outline.left(), y, outline.right(), y)
            for column in range(1, self.columns):
                x = first.x() + column * first.width()
                painter.drawLine(x, outline.top(), x, outline.bottom())
            painter.setPen(QPen(GRID_COLOR, 2))
            painter.drawRect(outline)
            fill = QColor(DOUBT_COLOR)
            fill.setAlpha(90)
            for row, column in self.doubtful:
                cell = self.cell_rect(row, column)
                painter.fillRect(cell, fill)
                painter.setPen(QPen(DOUBT_COLOR, 3))
                painter.drawRect(cell.adjusted(1.5, 1.5, -1.5, -1.5))
        painter.end()


class DoubtfulCellMarks(QObject):
    """Marks the doubtful cells on a board editor's canvas (one with ``board_layout()`` whose
    ``rect(x, y)`` is a cell, as SPL-T's): painted over the canvas after it has painted itself."""

    def __init__(self, canvas: QWidget, cells: Sequence[tuple[int, int]]) -> None:
        super().__init__(canvas)
        self.cells = list(cells)
        canvas.installEventFilter(self)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802 (Qt name)
        if event.type() != QEvent.Type.Paint:
            return False
        watched.paintEvent(event)
        painter = QPainter(watched)
        layout = watched.board_layout()
        pen = QPen(DOUBT_COLOR, max(2, layout.cell // 12))
        pen.setStyle(Qt.PenStyle.DotLine)
        painter.setPen(pen)
        fill = QColor(DOUBT_COLOR)
        fill.setAlpha(120)
        for row, column in self.cells:
            rect = layout.rect(column, row)
            painter.fillRect(rect, QBrush(fill, Qt.BrushStyle.BDiagPattern))
            painter.drawRect(rect.adjusted(2, 2, -2, -2))
        painter.end()
        return True


class ReadingReview(CheckedPositionDialog):
    """Check a doubtful reading (see the module docstring). After it is accepted,
    :meth:`state` is the position to load; ``recapture_requested`` asks for a new capture."""

    recapture_requested = Signal()

    def __init__(self, game: Game, reading: Any, image: QImage,
                 make_board_editor: Callable[[Game, Any, QWidget | None], Any] | None = None,
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.game = game
        self.reading = reading
        self.setWindowTitle(f"Check the board read — {game.title}")
        self._make_board_editor = make_board_editor
        self._checked = reading.state
        self._error: str | None = None
        self.editor: QDialog | None = None
        doubtful = reading.doubtful
        grid = board_rect(reading.diagnostics, reading.per_cell_confidence.shape[:2])

        self.image_view = CapturedImageView(image, grid, reading.per_cell_confidence.shape[:2], doubtful)
        summary = review_summary(reading)
        if grid is None and doubtful:
            summary += " (The reader did not say where the grid is, so the capture is not marked.)"
        self.summary_label = QLabel(summary)
        self.summary_label.setWordWrap(True)
        self.cells_label = QLabel(f"Doubtful: {cell_words(doubtful, reading.per_cell_confidence)}" if doubtful
                                  else "Doubtful cells: none")
        self.cells_label.setObjectName("doubtfulCells")
        self.cells_label.setWordWrap(True)
        self.cells_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)

        self.text_edit = QPlainTextEdit(reading.board_text())
        self.text_edit.setObjectName("boardText")
        self.text_edit.setFont(QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont))
        self.text_edit.setLineWrapMode(QPlainTextEdit.LineWrapMode.NoWrap)
        self.text_edit.textChanged.connect(self._check)
        self._fit_text_width()
        self.error_label = QLabel()
        self.error_label.setObjectName("boardError")
        self.error_label.setWordWrap(True)
        self.error_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)

        text_column = QWidget()
        column = QVBoxLayout(text_column)
        column.setContentsMargins(0, 0, 0, 0)
        column.addWidget(QLabel("Board (as Copy position gives it):"))
        column.addWidget(self.text_edit, 1)
        column.addWidget(self.error_label)
        splitter = QSplitter(Qt.Orientation.Horizontal)
        splitter.addWidget(self.image_view)
        splitter.addWidget(text_column)
        splitter.setStretchFactor(0, 3)
        splitter.setStretchFactor(1, 2)

        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel, self)
        self.ok_button.setText("Load this position")
        self.recapture_button = self.buttons.addButton("Capture again", QDialogButtonBox.ButtonRole.ResetRole)
        self.recapture_button.clicked.connect(self._recapture)
        self.edit_button: QPushButton | None = None
        if make_board_editor is not None:
            self.edit_button = self.buttons.addButton("Edit on the board…", QDialogButtonBox.ButtonRole.ActionRole)
            self.edit_button.clicked.connect(self.edit_on_board)
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)

        top = QHBoxLayout()
        top.addWidget(self.summary_label, 1)
        root = QVBoxLayout(self)
        root.addLayout(top)
        root.addWidget(self.cells_label)
        root.addWidget(splitter, 1)
        root.addWidget(self.buttons)
        self._check()
        self.resize(980, 720)

    def _fit_text_width(self) -> None:
        """The board text column is as wide as its longest line (a header such as Destruct-o-Match's
        "level 1 · score 0 · shuffle 0 · undo 0" hid behind a scroll bar), up to 640 px."""
        metrics = QFontMetrics(self.text_edit.font())
        longest = max((metrics.horizontalAdvance(line) for line in self.text_edit.toPlainText().splitlines()), default=0)
        margins = 2 * (self.text_edit.frameWidth() + round(self.text_edit.document().documentMargin()))
        scroll_bar = self.style().pixelMetric(QStyle.PixelMetric.PM_ScrollBarExtent)
        self.text_edit.setMinimumWidth(min(640, longest + margins + scroll_bar + 4))

    # -- public ----------------------------------------------------------------------------------
    @property
    def ok_button(self) -> QPushButton:
        return self.buttons.button(QDialogButtonBox.StandardButton.Ok)

    @property
    def doubtful(self) -> list[tuple[int, int]]:
        return list(self.image_view.doubtful)

    def checked_state(self) -> Any:
        """The text's position, or None while the game's parser refuses it."""
        return self._checked

    def error(self) -> str | None:
        """The parser's reason for refusing the text, or None."""
        return self._error

    def board_text(self) -> str:
        return self.text_edit.toPlainText()

    def set_board_text(self, text: str) -> None:
        self.text_edit.setPlainText(text)

    def edit_on_board(self) -> QDialog | None:
        """Open the game's board editor on the text's position (the reading's while the text is
        refused), the doubtful cells marked; accepting it loads the edited position."""
        if self._make_board_editor is None:
            return None
        editor = self._make_board_editor(self.game, self._checked if self._checked is not None else self.reading.state, self)
        canvas = getattr(editor, "canvas", None)
        if canvas is not None and hasattr(canvas, "board_layout"):
            DoubtfulCellMarks(canvas, self.doubtful)
        editor.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose, True)
        editor.accepted.connect(lambda: self._edited(editor.state()))
        self.editor = editor
        editor.open()
        return editor

    # -- checking ----------------------------------------------------------------------------------
    def _check(self) -> None:
        try:
            self._checked = self.game.parse_board(self.board_text())
            self._error = None
        except ValueError as error:
            self._checked = None
            self._error = str(error)
        if self._error is None:
            self.error_label.setText("✓ A valid position")
            self.error_label.setStyleSheet(f"color: {GOOD_COLOR.name()};")
        else:
            self.error_label.setText(f"✗ {self._error}")
            self.error_label.setStyleSheet(f"color: {ERROR_COLOR.name()};")
        self.ok_button.setEnabled(self._error is None)

    def _edited(self, state: Any) -> None:
        if state is None:
            return
        self.set_board_text(self.game.board_text(state))
        self.accept()

    def _recapture(self) -> None:
        self.reject()
        self.recapture_requested.emit()

