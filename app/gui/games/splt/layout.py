"""Where the SPL-T header and the 8x16 cells sit inside the widget.

The board keeps square cells whatever the widget's shape: the cell size is the largest whole
number of pixels that fits 8 cells across and the header plus 16 cells down; what is left over
is black margin, shared equally. Sizes of the header parts are in cells, measured on the real
game's screenshots (``shared/data/splt/6ptblock.png``, 62.4-pixel cells).
"""

from __future__ import annotations

import dataclasses

from PySide6.QtCore import QPoint, QRect, QSize

from engines.splt import HEIGHT, WIDTH

HEADER_CELLS = 0.75  # header height above the dotted line


@dataclasses.dataclass(frozen=True)
class BoardLayout:
    left: int  # x of the board's left edge
    top: int  # y of the board's top edge (the dotted line)
    cell: int  # side of a cell in pixels

    @classmethod
    def fit(cls, width: int, height: int) -> "BoardLayout":
        """The largest layout that fits a widget of this size (one pixel kept for the last
        outline on the right and at the bottom)."""
        cell = int(min((width - 1) / WIDTH, (height - 1) / (HEIGHT + HEADER_CELLS)))
        cell = max(cell, 2)
        header = round(HEADER_CELLS * cell)
        left = (width - 1 - WIDTH * cell) // 2
        top = (height - 1 - HEIGHT * cell - header) // 2 + header
        return cls(left, top, cell)

    @property
    def header_height(self) -> int:
        return round(HEADER_CELLS * self.cell)

    @property
    def right(self) -> int:
        return self.left + WIDTH * self.cell

    @property
    def bottom(self) -> int:
        return self.top + HEIGHT * self.cell

    def x_edge(self, column: int) -> int:
        return self.left + column * self.cell

    def y_edge(self, row: int) -> int:
        return self.top + row * self.cell

    def rect(self, x: int, y: int, w: int = 1, h: int = 1) -> QRect:
        """Pixels of the cells x..x+w-1, y..y+h-1, from the left/top edge line to just before the
        right/bottom one."""
        x0, y0 = self.x_edge(x), self.y_edge(y)
        return QRect(x0, y0, self.x_edge(x + w) - x0, self.y_edge(y + h) - y0)

    def cell_at(self, point: QPoint) -> tuple[int, int] | None:
        """The cell under a widget point, or None off the board."""
        if not (self.left <= point.x() < self.right and self.top <= point.y() < self.bottom):
            return None
        return ((point.x() - self.left) // self.cell, (point.y() - self.top) // self.cell)

    def cell_center(self, x: int, y: int) -> QPoint:
        return QPoint(self.x_edge(x) + self.cell // 2, self.y_edge(y) + self.cell // 2)


def widget_size(cell: int) -> QSize:
    """The widget size that holds the header and the 8x16 cells of ``cell`` pixels."""
    return QSize(WIDTH * cell + 1, round((HEIGHT + HEADER_CELLS) * cell) + 1)


class BoardGeometry:
    """Where the cells are in a widget drawing the SPL-T board (mixed into QWidgets: uses
    ``width()`` and ``height()``); the preferred and smallest cell sizes set the size hints."""

    preferred_cell = 48
    minimum_cell = 14

    def board_layout(self) -> BoardLayout:
        return BoardLayout.fit(self.width(), self.height())

    def cell_center(self, x: int, y: int) -> QPoint:
        """The widget point in the middle of cell (x, y)."""
        return self.board_layout().cell_center(x, y)

    def sizeHint(self) -> QSize:  # noqa: N802 (Qt name)
        return widget_size(self.preferred_cell)

    def minimumSizeHint(self) -> QSize:  # noqa: N802 (Qt name)
        return widget_size(self.minimum_cell)
