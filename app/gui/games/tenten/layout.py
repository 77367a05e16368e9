"""Where the 1010! board, the tray and the piece palette sit inside the widget.

As on the phone: the 10×10 board on top, the three tray slots under it (pieces drawn at
``TRAY_SCALE`` of the board's cells, spec 5), and under the tray the palette of the 19 pieces, the
place to enter the game's deal.
"""

from __future__ import annotations

import dataclasses

from PySide6.QtCore import QPointF, QRectF, QSize

from engines.tenten.pieces import PIECES, SIZE

MARGIN_SHARE = 0.04  # around the board, as a share of its side
TRAY_SHARE = 0.34  # the tray's height
PALETTE_SHARE = 0.24  # the palette's height
TRAY_SCALE = 0.62
PALETTE_COLUMNS = 10
HEIGHT_SHARE = 1 + 2 * MARGIN_SHARE + TRAY_SHARE + PALETTE_SHARE + MARGIN_SHARE


@dataclasses.dataclass(frozen=True)
class TenTenLayout:
    left: float
    top: float
    side: float

    @classmethod
    def fit(cls, width: int, height: int) -> TenTenLayout:
        """The largest board whose tray and palette still fit below it, centred across."""
        side = max(60.0, min(width / (1 + 2 * MARGIN_SHARE), height / HEIGHT_SHARE))
        return cls((width - side) / 2, MARGIN_SHARE * side, side)

    @property
    def pitch(self) -> float:
        return self.side / SIZE

    def board_rect(self) -> QRectF:
        return QRectF(self.left, self.top, self.side, self.side)

    def cell_rect(self, row: int, column: int) -> QRectF:
        gap = 0.08 * self.pitch
        return QRectF(self.left + column * self.pitch + gap / 2, self.top + row * self.pitch + gap / 2,
                      self.pitch - gap, self.pitch - gap)

    def cell_at(self, point: QPointF) -> tuple[int, int] | None:
        x, y = point.x() - self.left, point.y() - self.top
        if not (0 <= x < self.side and 0 <= y < self.side):
            return None
        return min(SIZE - 1, int(y // self.pitch)), min(SIZE - 1, int(x // self.pitch))

    # -- the tray ---------------------------------------------------------------------------------
    def tray_rect(self) -> QRectF:
        return QRectF(self.left, self.top + self.side + MARGIN_SHARE * self.side, self.side, TRAY_SHARE * self.side)

    def slot_rect(self, slot: int) -> QRectF:
        tray = self.tray_rect()
        width = tray.width() / 3
        return QRectF(tray.left() + slot * width, tray.top(), width, tray.height())

    def slot_at(self, point: QPointF) -> int | None:
        for slot in range(3):
            if self.slot_rect(slot).contains(point):
                return slot
        return None

    # -- the palette ------------------------------------------------------------------------------
    def palette_rect(self) -> QRectF:
        tray = self.tray_rect()
        return QRectF(self.left, tray.bottom(), self.side, PALETTE_SHARE * self.side)

    def palette_piece_rect(self, index: int) -> QRectF:
        palette = self.palette_rect()
        rows = -(-len(PIECES) // PALETTE_COLUMNS)
        width, height = palette.width() / PALETTE_COLUMNS, palette.height() / rows
        row, column = divmod(index, PALETTE_COLUMNS)
        return QRectF(palette.left() + column * width, palette.top() + row * height, width, height)

    def palette_at(self, point: QPointF) -> int | None:
        for index in range(len(PIECES)):
            if self.palette_piece_rect(index).contains(point):
                return index
        return None


def widget_size(side: int) -> QSize:
    return QSize(round(side * (1 + 2 * MARGIN_SHARE)) + 1, round(side * HEIGHT_SHARE) + 1)
