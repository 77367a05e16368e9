"""Where the 2048 board, its cells and the four arrow bands sit inside the widget.

The board keeps the real page's proportions (spec section 5.2, wide layout: a 500 px board, 15 px
gaps, 106.25 px cells) at whatever size fits. Around it runs a band ``BAND_SHARE`` of the board's
side wide on each side: the advisor's arrow for a slide sits in the band on that side, outside the
board, so it never covers a tile; the top band also says when a tile is due.
"""

from __future__ import annotations

import dataclasses

from PySide6.QtCore import QPoint, QPointF, QRect, QRectF, QSize

from engines.g2048.state import DOWN, LEFT, RIGHT, SIZE, UP

BAND_SHARE = 0.2  # the band around the board, as a share of the board's side
GAP_SHARE = 15 / 500  # spec 5.2: 15 px gaps on a 500 px board
CELL_SHARE = 106.25 / 500
RADIUS_SHARE = 6 / 500  # the board's rounded corners
TILE_RADIUS_SHARE = 3 / 106.25  # a tile's, against its side


@dataclasses.dataclass(frozen=True)
class BoardLayout:
    left: int  # x of the board's left edge
    top: int  # y of the board's top edge
    side: int  # the board's side in pixels
    band: int  # the width of the arrow band around the board
    width: int = 0  # the widget's size
    height: int = 0

    @classmethod
    def fit(cls, width: int, height: int) -> BoardLayout:
        """The largest square board, with its bands, that fits a widget of this size, centred."""
        side = max(40, int(min(width, height) / (1 + 2 * BAND_SHARE)))
        band = round(BAND_SHARE * side)
        return cls((width - side) // 2, (height - side) // 2, side, band, width, height)

    # -- the board and its cells ------------------------------------------------------------------
    @property
    def gap(self) -> float:
        return GAP_SHARE * self.side

    @property
    def cell(self) -> float:
        return CELL_SHARE * self.side

    @property
    def radius(self) -> float:
        return max(2.0, RADIUS_SHARE * self.side)

    @property
    def tile_radius(self) -> float:
        return max(1.5, TILE_RADIUS_SHARE * self.cell)

    def board_rect(self) -> QRect:
        return QRect(self.left, self.top, self.side, self.side)

    def cell_rect(self, row: int, column: int) -> QRectF:
        """The tile's square at (row, column)."""
        pitch = self.cell + self.gap
        return QRectF(self.left + self.gap + column * pitch, self.top + self.gap + row * pitch, self.cell, self.cell)

    def cell_center(self, row: int, column: int) -> QPoint:
        return self.cell_rect(row, column).center().toPoint()

    def cell_at(self, point: QPoint | QPointF) -> tuple[int, int] | None:
        """The (row, column) of the cell under a widget point (a gap counts for the nearest
        cell), or None off the board."""
        x, y = point.x() - self.left, point.y() - self.top
        if not (0 <= x < self.side and 0 <= y < self.side):
            return None
        pitch = self.side / SIZE
        return min(SIZE - 1, int(y // pitch)), min(SIZE - 1, int(x // pitch))

    # -- the arrow bands ----------------------------------------------------------------------------
    def band_rect(self, direction: int) -> QRect:
        """The band beside the board on the side of ``direction`` (as long as the board's side)."""
        if direction == UP:
            return QRect(self.left, self.top - self.band, self.side, self.band)
        if direction == DOWN:
            return QRect(self.left, self.top + self.side, self.side, self.band)
        if direction == LEFT:
            return QRect(self.left - self.band, self.top, self.band, self.side)
        if direction == RIGHT:
            return QRect(self.left + self.side, self.top, self.band, self.side)
        raise ValueError(f"no direction {direction!r}")

    def arrow_center(self, direction: int) -> QPoint:
        """The middle of the arrow for ``direction`` (a click there plays the slide)."""
        return self.band_rect(direction).center()

    def arrow_at(self, point: QPoint | QPointF) -> int | None:
        """The direction whose band holds ``point``, or None."""
        for direction in (UP, RIGHT, DOWN, LEFT):
            if QRectF(self.band_rect(direction)).contains(QPointF(point)):
                return direction
        return None

    def message_rect(self) -> QRect:
        """Where the "tile due" words go: everything above the board (at least the top band), as
        wide as the widget (at least the board and both side bands)."""
        left = min(0, self.left - self.band)
        right = max(self.width, self.left + self.side + self.band)
        top = min(0, self.top - self.band)
        return QRect(left, top, right - left, self.top - top)


def widget_size(side: int) -> QSize:
    """The widget size that holds a board ``side`` pixels across with its bands."""
    total = round(side * (1 + 2 * BAND_SHARE)) + 1
    return QSize(total, total)
