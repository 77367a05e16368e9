"""The outer boundary of a set of grid cells, for boards that outline clusters or pieces."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Protocol

from PySide6.QtCore import QLine


class GridEdges(Protocol):
    def x_edge(self, column: int) -> int: ...

    def y_edge(self, row: int) -> int: ...


def outline_edges(layout: GridEdges, cells: Iterable[tuple[int, int]]) -> list[QLine]:
    """Pixel lines on the cell edges that separate ``cells`` from the cells outside them."""
    cells = set(cells)
    lines = []
    for x, y in cells:
        left, top = layout.x_edge(x), layout.y_edge(y)
        right, bottom = layout.x_edge(x + 1), layout.y_edge(y + 1)
        if (x, y - 1) not in cells:
            lines.append(QLine(left, top, right, top))
        if (x, y + 1) not in cells:
            lines.append(QLine(left, bottom, right, bottom))
        if (x - 1, y) not in cells:
            lines.append(QLine(left, top, left, bottom))
        if (x + 1, y) not in cells:
            lines.append(QLine(right, top, right, bottom))
    return lines
