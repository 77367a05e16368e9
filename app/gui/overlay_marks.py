"""The marks the advice overlay draws over the real game, and their painting.

A game says what to mark for a position and its candidates (``GameUi.overlay_marks``) in cells of
its own grid: rows from the top, columns from the left, a point (row, column) being a corner
between cells (so (0.5, 0.5) is the first cell's centre). Where those cells lie on the screen comes
from the reading of the captured image (:class:`vision.reading.CellGrid`), never from Kibitz's own
board view, so a mark sits on the real game's cell.

The real game may be light (2048's beige) or dark (SPL-T's black), so every stroke and label is
drawn over a halo of the contrasting shade, and a fill is a tint that leaves the game visible.
Where the desktop cannot blend windows (an X11 session without a compositing manager) fills are
left out: a translucent pixel would show as a dark one there.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Iterable, Sequence

from PySide6.QtCore import QLineF, QPointF, QRectF, Qt
from PySide6.QtGui import QColor, QFont, QFontMetricsF, QImage, QPainter, QPainterPath, QPen, QTransform

from assets.fonts import DEJAVU_SANS_BOLD, qt_font
from vision.reading import CellGrid

Cell = tuple[int, int]  # (row, column)
Point = tuple[float, float]  # (row, column) in cells; whole numbers are the lines between cells
RGB = tuple[int, int, int]

#: Up, right, down, left (the 2048 engine's directions), as unit steps (d column, d row).
DIRECTION_STEPS = ((0.0, -1.0), (1.0, 0.0), (0.0, 1.0), (-1.0, 0.0))


@dataclasses.dataclass(frozen=True)
class CellsMark:
    """A set of cells: tinted with ``fill`` at ``fill_alpha`` and/or outlined along its outer
    edge in ``outline`` (``thick`` for the best move, ``dashed`` for a ghost to come)."""

    cells: frozenset[Cell]
    outline: RGB | None = None
    fill: RGB | None = None
    fill_alpha: float = 0.35
    thick: bool = False
    dashed: bool = False


@dataclasses.dataclass(frozen=True)
class LineMark:
    """A straight line between two grid points (an SPL-T split)."""

    start: Point
    end: Point
    colour: RGB
    thick: bool = True


@dataclasses.dataclass(frozen=True)
class BadgeMark:
    """A short label (a rank, a piece) in a rounded box centred on ``at``."""

    at: Point
    text: str
    colour: RGB
    best: bool = False


@dataclasses.dataclass(frozen=True)
class ArrowMark:
    """A large arrow across the board's middle in ``direction`` (0 up, 1 right, 2 down, 3 left),
    with a label at its tail (2048's slide)."""

    direction: int
    colour: RGB
    label: str = ""
    detail: str = ""


Mark = CellsMark | LineMark | BadgeMark | ArrowMark


def halo_for(colour: QColor) -> QColor:
    """The contrasting shade under a mark of ``colour``: near-black under a light colour, white
    under a dark one."""
    luminance = 0.2126 * colour.redF() + 0.7152 * colour.greenF() + 0.0722 * colour.blueF()
    return QColor(15, 15, 15, 230) if luminance > 0.45 else QColor(255, 255, 255, 235)


def cells_outline(cells: Iterable[Cell]) -> list[tuple[Point, Point]]:
    """The outer edges of a set of cells, as (start, end) grid points, each edge once."""
    cells = set(cells)
    edges = []
    for row, column in sorted(cells):
        if (row - 1, column) not in cells:
            edges.append(((row, column), (row, column + 1)))
        if (row + 1, column) not in cells:
            edges.append(((row + 1, column), (row + 1, column + 1)))
        if (row, column - 1) not in cells:
            edges.append(((row, column), (row + 1, column)))
        if (row, column + 1) not in cells:
            edges.append(((row, column + 1), (row + 1, column + 1)))
    return edges


class MarkPainter:
    """Paints marks in the pixels of the image the grid was read from (the caller's painter maps
    them onto the overlay). ``translucent``: the desktop blends windows, so fills can be drawn."""

    def __init__(self, grid: CellGrid, translucent: bool = True) -> None:
        self.grid = grid
        self.translucent = translucent
        pitch = min(grid.pitch_x, grid.pitch_y)
        self.pitch = pitch
        self.stroke = max(2.0, pitch / 14)
        self.halo = self.stroke + max(2.0, pitch / 28)

    def xy(self, point: Point) -> QPointF:
        row, column = point
        x, y = self.grid.point(row, column)
        return QPointF(x, y)

    def paint(self, painter: QPainter, marks: Sequence[Mark]) -> None:
        painter.setRenderHint(QPainter.RenderHint.Antialiasing, True)
        painter.setRenderHint(QPainter.RenderHint.TextAntialiasing, True)
        # fills first, so every outline, line and label lies over every tint
        for mark in marks:
            if isinstance(mark, CellsMark) and mark.fill is not None and self.translucent:
                self._fill(painter, mark)
        for mark in marks:
            if isinstance(mark, CellsMark) and mark.outline is not None:
                self._outline(painter, mark)
            elif isinstance(mark, CellsMark) and mark.fill is not None and not self.translucent:
                # a tint cannot be drawn here: its cells are outlined, dashed, in its colour instead
                self._outline(painter, dataclasses.replace(mark, outline=mark.fill, dashed=True))
            elif isinstance(mark, LineMark):
                width = self.stroke * (1.6 if mark.thick else 1.0)
                self._stroke(painter, [QLineF(self.xy(mark.start), self.xy(mark.end))], QColor(*mark.colour), width)
            elif isinstance(mark, ArrowMark):
                self._arrow(painter, mark)
        for mark in marks:
            if isinstance(mark, BadgeMark):
                self._badge(painter, mark)

    # -- the pieces ----------------------------------------------------------------------------
    def _fill(self, painter: QPainter, mark: CellsMark) -> None:
        colour = QColor(*mark.fill)
        colour.setAlphaF(max(0.0, min(1.0, mark.fill_alpha)))
        painter.setPen(Qt.PenStyle.NoPen)
        painter.setBrush(colour)
        for row, column in mark.cells:
            x, y, w, h = self.grid.cell_rect(row, column)
            painter.drawRect(QRectF(x, y, w, h))
        painter.setBrush(Qt.BrushStyle.NoBrush)

    def _outline(self, painter: QPainter, mark: CellsMark) -> None:
        lines = [QLineF(self.xy(start), self.xy(end)) for start, end in cells_outline(mark.cells)]
        width = self.stroke * (1.6 if mark.thick else 1.0)
        self._stroke(painter, lines, QColor(*mark.outline), width, dashed=mark.dashed)

    def _stroke(self, painter: QPainter, lines: list[QLineF], colour: QColor, width: float,
                dashed: bool = False) -> None:
        under = QPen(halo_for(colour), width + 2 * (self.halo - self.stroke))
        under.setCapStyle(Qt.PenCapStyle.SquareCap)
        under.setJoinStyle(Qt.PenJoinStyle.MiterJoin)
        painter.setPen(under)
        painter.drawLines(lines)
        over = QPen(colour, width)
        over.setCapStyle(Qt.PenCapStyle.SquareCap if not dashed else Qt.PenCapStyle.FlatCap)
        over.setJoinStyle(Qt.PenJoinStyle.MiterJoin)
        if dashed:
            over.setDashPattern([2.2, 1.4])
        painter.setPen(over)
        painter.drawLines(lines)

    def _font(self, pixels: float) -> QFont:
        # the shipped DejaVu Sans Bold, so labels look alike on every machine; in the image's
        # pixels, which are the screen's: a label under 11 pixels is hard to read
        return qt_font(DEJAVU_SANS_BOLD, max(11, round(pixels)))

    def _badge(self, painter: QPainter, mark: BadgeMark) -> None:
        font = self._font(self.pitch * (0.42 if mark.best else 0.36))
        metrics = QFontMetricsF(font)
        width = metrics.horizontalAdvance(mark.text) + metrics.height() * 0.6
        height = metrics.height() * 1.15
        centre = self.xy(mark.at)
        box = QRectF(centre.x() - width / 2, centre.y() - height / 2, width, height)
        colour = QColor(*mark.colour)
        painter.setPen(QPen(halo_for(colour), max(1.5, self.stroke * 0.6)))
        painter.setBrush(colour)
        painter.drawRoundedRect(box, height * 0.3, height * 0.3)
        painter.setFont(font)
        painter.setPen(halo_for(colour))
        painter.drawText(box, Qt.AlignmentFlag.AlignCenter, mark.text)
        painter.setBrush(Qt.BrushStyle.NoBrush)

    def arrow_path(self, mark: ArrowMark) -> QPainterPath:
        """The arrow's outline in image pixels: across the middle 60 % of the board."""
        left, top, width, height = self.grid.board_rect()
        centre = QPointF(left + width / 2, top + height / 2)
        length = 0.6 * (width if mark.direction % 2 else height)
        head = 0.42 * length
        shaft = 0.16 * length
        path = QPainterPath()
        # pointing right along +x from the tail at -length/2, then turned
        path.moveTo(-length / 2, -shaft / 2)
        path.lineTo(length / 2 - head * 0.75, -shaft / 2)
        path.lineTo(length / 2 - head * 0.75, -head / 2)
        path.lineTo(length / 2, 0)
        path.lineTo(length / 2 - head * 0.75, head / 2)
        path.lineTo(length / 2 - head * 0.75, shaft / 2)
        path.lineTo(-length / 2, shaft / 2)
        path.closeSubpath()
        step_x, step_y = DIRECTION_STEPS[mark.direction % 4]
        turn = QTransform()
        turn.translate(centre.x(), centre.y())
        turn.rotate(math.degrees(math.atan2(step_y, step_x)))
        return turn.map(path)

    def _arrow(self, painter: QPainter, mark: ArrowMark) -> None:
        path = self.arrow_path(mark)
        colour = QColor(*mark.colour)
        halo = halo_for(colour)
        painter.setPen(QPen(halo, 2 * (self.halo - self.stroke) + 2, Qt.PenStyle.SolidLine, Qt.PenCapStyle.RoundCap,
                            Qt.PenJoinStyle.RoundJoin))
        painter.setBrush(colour)
        painter.drawPath(path)
        painter.setBrush(Qt.BrushStyle.NoBrush)
        if not (mark.label or mark.detail):
            return
        text = mark.label + (f"  {mark.detail}" if mark.detail else "")
        font = self._font(self.pitch * 0.26)
        metrics = QFontMetricsF(font)
        box = QRectF(0, 0, metrics.horizontalAdvance(text) + metrics.height() * 0.6, metrics.height() * 1.2)
        # the label lies clear of the arrow: under a sideways one, past the tail of an upright one
        bounds = path.boundingRect()
        gap = max(2.0, 0.08 * self.pitch)
        box.moveCenter(bounds.center())
        if mark.direction % 4 == 0:
            box.moveTop(bounds.bottom() + gap)
        elif mark.direction % 4 == 2:
            box.moveBottom(bounds.top() - gap)
        else:
            box.moveTop(bounds.bottom() + gap)
        left, top, width, height = self.grid.board_rect()
        board = QRectF(left, top, width, height)
        box.moveLeft(min(max(box.left(), board.left()), board.right() - box.width()))
        box.moveTop(min(max(box.top(), board.top()), board.bottom() - box.height()))
        # the words in the arrow's colour on its halo's shade: the label never reads as more arrow
        painter.setPen(QPen(colour, max(1.5, self.stroke * 0.5)))
        painter.setBrush(halo)
        painter.drawRoundedRect(box, box.height() * 0.3, box.height() * 0.3)
        painter.setFont(font)
        painter.setPen(colour)
        painter.drawText(box, Qt.AlignmentFlag.AlignCenter, text)
        painter.setBrush(Qt.BrushStyle.NoBrush)


def render_marks(marks: Sequence[Mark], grid: CellGrid, width: int, height: int, scale_x: float = 1.0,
                 scale_y: float = 1.0, translucent: bool = True, opacity: float = 1.0,
                 offset: tuple[float, float] = (0.0, 0.0)) -> QImage:
    """The marks on a transparent ``width`` x ``height`` image whose pixel (x, y) is the grid's
    image pixel ((x - offset x) / scale_x, (y - offset y) / scale_y)."""
    image = QImage(max(1, width), max(1, height), QImage.Format.Format_ARGB32_Premultiplied)
    image.fill(Qt.GlobalColor.transparent)
    painter = QPainter(image)
    painter.translate(offset[0], offset[1])
    painter.scale(scale_x, scale_y)
    MarkPainter(grid, translucent).paint(painter, marks)
    painter.end()
    if opacity >= 1.0:
        return image
    # the whole drawing faded at once: a stroke over its halo fades as one, the halo not showing through
    faded = QImage(image.size(), QImage.Format.Format_ARGB32_Premultiplied)
    faded.fill(Qt.GlobalColor.transparent)
    painter = QPainter(faded)
    painter.setOpacity(max(0.05, opacity))
    painter.drawImage(0, 0, image)
    painter.end()
    return faded

