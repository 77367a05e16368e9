"""Where the HATETRIS well and the side panel sit inside the widget.

The official page draws the well as a table of square cells (spec section 5: 10 x 20 cells, the
four buffer rows included) with "score: N" to its right. Here the cell size is the largest whole
number of pixels that fits the well plus a side panel ``SIDE_CELLS`` wide across, and the well's
rows down; what is left over is black margin, shared equally.
"""

from __future__ import annotations

import dataclasses

from PySide6.QtCore import QPoint, QRect, QSize

from engines.hatetris import DEFAULT_RULES, Rules

SIDE_CELLS = 4.6  # the side panel right of the well: score, the piece, the legend
MARGIN_CELLS = 0.3  # black margin above, below and left of the well


@dataclasses.dataclass(frozen=True)
class WellLayout:
    left: int  # x of the well's left edge
    top: int  # y of the well's top edge (row 0)
    cell: int  # side of a cell in pixels
    columns: int = DEFAULT_RULES.width
    rows: int = DEFAULT_RULES.depth

    @classmethod
    def fit(cls, width: int, height: int, rules: Rules = DEFAULT_RULES) -> "WellLayout":
        """The largest layout of a ``rules`` well that fits a widget of this size."""
        across = rules.width + SIDE_CELLS + MARGIN_CELLS
        down = rules.depth + 2 * MARGIN_CELLS
        cell = max(2, int(min((width - 1) / across, (height - 1) / down)))
        used_width = round(across * cell)
        left = (width - 1 - used_width) // 2 + round(MARGIN_CELLS * cell)
        top = (height - 1 - rules.depth * cell) // 2
        return cls(left, top, cell, rules.width, rules.depth)

    @property
    def right(self) -> int:
        return self.left + self.columns * self.cell

    @property
    def bottom(self) -> int:
        return self.top + self.rows * self.cell

    @property
    def side(self) -> QRect:
        """The side panel right of the well (score, piece, legend)."""
        gap = max(4, round(0.4 * self.cell))
        return QRect(self.right + gap, self.top, round(SIDE_CELLS * self.cell) - gap, self.rows * self.cell)

    def x_edge(self, column: int) -> int:
        return self.left + column * self.cell

    def y_edge(self, row: int) -> int:
        return self.top + row * self.cell

    def rect(self, x: int, y: int, w: int = 1, h: int = 1) -> QRect:
        """Pixels of the cells x..x+w-1, y..y+h-1."""
        x0, y0 = self.x_edge(x), self.y_edge(y)
        return QRect(x0, y0, self.x_edge(x + w) - x0, self.y_edge(y + h) - y0)

    def well_rect(self) -> QRect:
        return self.rect(0, 0, self.columns, self.rows)

    def cell_at(self, point: QPoint) -> tuple[int, int] | None:
        """The (column, row) under a widget point, or None off the well."""
        if not (self.left <= point.x() < self.right and self.top <= point.y() < self.bottom):
            return None
        return ((point.x() - self.left) // self.cell, (point.y() - self.top) // self.cell)

    def cell_center(self, x: int, y: int) -> QPoint:
        return QPoint(self.x_edge(x) + self.cell // 2, self.y_edge(y) + self.cell // 2)


def widget_size(cell: int, rules: Rules = DEFAULT_RULES) -> QSize:
    """The widget size that holds the well and the side panel with ``cell``-pixel cells."""
    return QSize(round((rules.width + SIDE_CELLS + MARGIN_CELLS) * cell) + 1,
                 round((rules.depth + 2 * MARGIN_CELLS) * cell) + 1)
