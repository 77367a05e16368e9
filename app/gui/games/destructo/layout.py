"""Where the Destruct-o-Match board, its cells and the header above it sit inside the widget.

Boulders keep the real sprite's proportions (spec 1.1 and 5: 69 x 45 px, about 1.53 : 1, wider
than tall) at whatever size fits, for any number of rows and columns (12 x 14 on level 1 up to
16 x 18 on level 10, spec 1.3). Above the board runs a header ``HEADER_ROWS`` cell heights tall:
the level, the score and the banked items on its first line, what is due or what the mouse points
at on its second. Thin gaps between the cells show the board's light ground, as in the game.
"""

from __future__ import annotations

import dataclasses

from PySide6.QtCore import QPoint, QPointF, QRectF, QSize

#: Spec 1.1: the native boulder sprite is 69 x 45 px.
ASPECT = 69 / 45
HEADER_ROWS = 2.4  # the header's height, in cell heights
MARGIN_ROWS = 0.45  # around the header and the board, in cell heights
GAP_SHARE = 0.07  # the light gap between two boulders, as a share of a cell's height
FRAME_SHARE = 0.22  # the frame around the board, as a share of a cell's height
MINIMUM_CELL_HEIGHT = 6.0
#: The header's unit (its "cell height") never exceeds this: a tiny board's huge cells would
#: make huge words.
HEADER_UNIT_MAX = 34.0
HEADER_WIDTH_UNITS = 26  # the header is at least this many units wide where the widget allows

Cell = tuple[int, int]


@dataclasses.dataclass(frozen=True)
class DestructoLayout:
    """A ``rows`` x ``columns`` board whose cells are ``cell_height`` pixels tall (and
    ``ASPECT`` times as wide), its top-left corner at (``left``, ``top``), the header above it."""

    rows: int
    columns: int
    left: float
    top: float
    cell_height: float
    header_width: float = 0.0  # at least the board's width

    @classmethod
    def fit(cls, width: int, height: int, rows: int, columns: int) -> DestructoLayout:
        """The largest board (with its header and margins) that fits the widget, centred."""
        rows, columns = max(1, rows), max(1, columns)
        across = columns * ASPECT + 2 * MARGIN_ROWS
        down = height / (rows + HEADER_ROWS + 3 * MARGIN_ROWS)
        if down > HEADER_UNIT_MAX:  # the header stops growing: the board gets the rest
            down = max(HEADER_UNIT_MAX, (height - HEADER_ROWS * HEADER_UNIT_MAX) / (rows + 3 * MARGIN_ROWS))
        cell = max(MINIMUM_CELL_HEIGHT, min(width / across, down))
        unit = min(cell, HEADER_UNIT_MAX)
        left = (width - columns * ASPECT * cell) / 2
        header = HEADER_ROWS * unit + MARGIN_ROWS * cell  # the header and the gap under it
        top = max(MARGIN_ROWS * cell, (height - header - rows * cell) / 2) + header
        header_width = max(columns * ASPECT * cell, min(width - 2 * MARGIN_ROWS * cell, HEADER_WIDTH_UNITS * unit))
        return cls(rows, columns, left, top, cell, header_width)

    # -- the board and its cells ------------------------------------------------------------------
    @property
    def cell_width(self) -> float:
        return ASPECT * self.cell_height

    @property
    def gap(self) -> float:
        return max(1.0, GAP_SHARE * self.cell_height)

    @property
    def frame(self) -> float:
        return max(2.0, FRAME_SHARE * self.cell_height)

    def board_rect(self) -> QRectF:
        return QRectF(self.left, self.top, self.columns * self.cell_width, self.rows * self.cell_height)

    def frame_rect(self) -> QRectF:
        """The board with its frame around it."""
        frame = self.frame
        return self.board_rect().adjusted(-frame, -frame, frame, frame)

    def cell_rect(self, row: int, column: int) -> QRectF:
        """The boulder's rectangle at (row, column), inside the gaps."""
        half = self.gap / 2
        return QRectF(self.left + column * self.cell_width + half, self.top + row * self.cell_height + half,
                      self.cell_width - self.gap, self.cell_height - self.gap)

    def cell_center(self, row: int, column: int) -> QPoint:
        return self.cell_rect(row, column).center().toPoint()

    def cell_at(self, point: QPoint | QPointF) -> Cell | None:
        """The (row, column) under a widget point (a gap counts for the cell it borders), or None
        off the board."""
        x, y = point.x() - self.left, point.y() - self.top
        if not (0 <= x < self.columns * self.cell_width and 0 <= y < self.rows * self.cell_height):
            return None
        return min(self.rows - 1, int(y // self.cell_height)), min(self.columns - 1, int(x // self.cell_width))

    # the cell edges, for app.gui.cell_outline (its cells are (x, y) = (column, row))
    def x_edge(self, column: int) -> int:
        return round(self.left + column * self.cell_width)

    def y_edge(self, row: int) -> int:
        return round(self.top + row * self.cell_height)

    # -- the header -------------------------------------------------------------------------------
    @property
    def unit(self) -> float:
        """The header's scale: the cell height, up to ``HEADER_UNIT_MAX``."""
        return min(self.cell_height, HEADER_UNIT_MAX)

    def header_rect(self) -> QRectF:
        """Above the board's frame, centred over it, as wide as the board or wider (a small
        board's header keeps room for its words)."""
        height = HEADER_ROWS * self.unit
        bottom = self.frame_rect().top() - 0.15 * self.unit
        board_width = self.columns * self.cell_width
        width = max(board_width, self.header_width)
        return QRectF(self.left + board_width / 2 - width / 2, bottom - height, width, height)

    def title_line(self) -> QRectF:
        """The header's first line: level, score, banked items."""
        header = self.header_rect()
        return QRectF(header.left(), header.top(), header.width(), 0.56 * header.height())

    def message_line(self) -> QRectF:
        """The header's second line: what is due, what the mouse points at."""
        title = self.title_line()
        header = self.header_rect()
        return QRectF(header.left(), title.bottom(), header.width(), header.bottom() - title.bottom())

    def item_rect(self, slot: int) -> QRectF:
        """The banked item's icon at the right end of the first line (0 Shuffle, 1 Undo): a small
        boulder."""
        title = self.title_line()
        height = min(0.8 * title.height(), 1.25 * self.unit)
        width = ASPECT * height
        space = 0.3 * width
        right = title.right() - (1 - slot) * (width + space)
        return QRectF(right - width, title.center().y() - height / 2, width, height)

    def item_at(self, point: QPoint | QPointF) -> int | None:
        for slot in (0, 1):
            if self.item_rect(slot).contains(QPointF(point)):
                return slot
        return None


def widget_size(cell_height: float, rows: int, columns: int) -> QSize:
    """The widget size that shows a ``rows`` x ``columns`` board with cells this tall."""
    width = (columns * ASPECT + 2 * MARGIN_ROWS) * cell_height
    height = (rows + HEADER_ROWS + 3 * MARGIN_ROWS) * cell_height
    return QSize(round(width) + 1, round(height) + 1)
