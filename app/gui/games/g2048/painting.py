"""Drawing a 2048 position the way the original page shows it (spec section 5.3), and the
assistant's marks around and on it.

The board is a rounded #bbada0 square with #ccc0b4 empty cells; tiles are rounded squares in the
page's colour for their value (#3c3a32 for every value above 2048), the number in a bold font that
shrinks with its digits, dark #776e65 on 2 and 4, light #f9f6f2 above. The assistant adds an arrow
per legal slide in the band on that side of the board (the best green and larger, each with its
rank and expected value), a faint ghost tile under the mouse while a tile is due, the outlines of
the last turn's merged or spawned tiles, and the words for a due tile or a finished game.
"""

from __future__ import annotations

import math
from collections.abc import Iterable

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QColor, QFont, QFontMetricsF, QPainter, QPainterPath, QPen, QTransform

from app.gui.games.g2048.layout import BoardLayout
from assets.fonts import CLEAR_SANS, CLEAR_SANS_BOLD, qt_font
from engines.g2048.state import DOWN, SIZE, UP, State

PAGE = QColor("#faf8ef")
BOARD = QColor("#bbada0")
EMPTY = QColor("#ccc0b4")
DARK_TEXT = QColor("#776e65")
LIGHT_TEXT = QColor("#f9f6f2")
SUPER = QColor("#3c3a32")
TILE_COLORS = {
    2: QColor("#eee4da"), 4: QColor("#ede0c8"), 8: QColor("#f2b179"), 16: QColor("#f59563"),
    32: QColor("#f67c5f"), 64: QColor("#f65e3b"), 128: QColor("#edcf72"), 256: QColor("#edcc61"),
    512: QColor("#edc850"), 1024: QColor("#edc53f"), 2048: QColor("#edc22e"),
}
#: The page's font size against the 107 px tile, by digit count (55 / 45 / 35 / 30 px).
FONT_SHARE = {1: 55 / 107, 2: 55 / 107, 3: 45 / 107, 4: 35 / 107}
SUPER_FONT_SHARE = 30 / 107
#: The smallest pixel sizes of the "tile due" lines and of an arrow's value and rank.
MESSAGE_PIXELS = (12, 10)
LABEL_PIXELS = (10, 9)
#: After the shipped Clear Sans, for a character it lacks.
FONT_FAMILIES = ["Helvetica Neue", "Arial", "DejaVu Sans", "sans-serif"]

#: The assistant's colours: the best slide's arrow, the others', the arrow the mouse or the panel
#: points at, and the outline of the last turn's tiles.
BEST = QColor(46, 160, 67)
ARROW = QColor("#8f7a66")  # the page's buttons
HIGHLIGHT = QColor(230, 126, 0)
HIGHLIGHT_FILL = QColor(255, 232, 190)
TURN_MARK = QColor(30, 136, 229)
OVERLAY = QColor(238, 228, 218, 150)  # the page's game-over veil, rgba(238,228,218,0.5) and a bit


def tile_color(value: int) -> QColor:
    return TILE_COLORS.get(value, SUPER)


def text_color(value: int) -> QColor:
    return DARK_TEXT if value <= 4 else LIGHT_TEXT


def font(pixels: float, bold: bool = True) -> QFont:
    """The page's Clear Sans (Bold) from its file shipped in assets/fonts, so the view looks like
    the page and the 2048 reader's templates (assets/vision/g2048) match it on any machine."""
    result = qt_font(CLEAR_SANS_BOLD if bold else CLEAR_SANS, max(6, round(pixels)))
    result.setFamilies([result.family(), *FONT_FAMILIES])
    return result


def tile_font(value: int, cell: float) -> QFont:
    """The page's size for the value's digit count, shrunk if the number would not fit."""
    text = str(value)
    share = FONT_SHARE.get(len(text), SUPER_FONT_SHARE) if value <= 2048 else SUPER_FONT_SHARE
    pixels = share * cell
    result = font(pixels)
    width = QFontMetricsF(result).horizontalAdvance(text)
    if width > 0.86 * cell:
        result = font(pixels * 0.86 * cell / width)
    return result


# -- the board -------------------------------------------------------------------------------------
def paint_board(painter: QPainter, layout: BoardLayout, state: State) -> None:
    """The rounded board, the empty cells and the tiles."""
    painter.setRenderHint(QPainter.RenderHint.Antialiasing, True)
    painter.setRenderHint(QPainter.RenderHint.TextAntialiasing, True)
    painter.setPen(Qt.PenStyle.NoPen)
    painter.setBrush(BOARD)
    painter.drawRoundedRect(QRectF(layout.board_rect()), layout.radius, layout.radius)
    radius = layout.tile_radius
    for row in range(SIZE):
        for column in range(SIZE):
            value = state.value(row, column)
            rect = layout.cell_rect(row, column)
            painter.setPen(Qt.PenStyle.NoPen)
            painter.setBrush(tile_color(value) if value else EMPTY)
            painter.drawRoundedRect(rect, radius, radius)
            if value:
                painter.setFont(tile_font(value, layout.cell))
                painter.setPen(text_color(value))
                painter.drawText(rect, Qt.AlignmentFlag.AlignCenter, str(value))
    painter.setBrush(Qt.BrushStyle.NoBrush)


def paint_ghost_tile(painter: QPainter, layout: BoardLayout, row: int, column: int, value: int) -> None:
    """A faint tile of ``value`` where a click would spawn it."""
    rect = layout.cell_rect(row, column)
    fill = QColor(tile_color(value))
    fill.setAlphaF(0.55)
    painter.setPen(Qt.PenStyle.NoPen)
    painter.setBrush(fill)
    painter.drawRoundedRect(rect, layout.tile_radius, layout.tile_radius)
    painter.setBrush(Qt.BrushStyle.NoBrush)
    ink = QColor(DARK_TEXT)
    ink.setAlphaF(0.5)
    painter.setFont(tile_font(value, layout.cell))
    painter.setPen(ink)
    painter.drawText(rect, Qt.AlignmentFlag.AlignCenter, str(value))


def paint_turn_marks(painter: QPainter, layout: BoardLayout, cells: Iterable[tuple[int, int]],
                     strength: float) -> None:
    """Outline the last turn's merged or spawned tiles, fading with ``strength`` (1 full, 0 gone)."""
    if strength <= 0:
        return
    color = QColor(TURN_MARK)
    color.setAlphaF(max(0.0, min(1.0, strength)))
    width = max(2.0, 0.055 * layout.cell)
    painter.setPen(QPen(color, width))
    painter.setBrush(Qt.BrushStyle.NoBrush)
    inset = width / 2
    for row, column in cells:
        rect = layout.cell_rect(row, column).adjusted(inset, inset, -inset, -inset)
        painter.drawRoundedRect(rect, layout.tile_radius, layout.tile_radius)


def paint_overlay(painter: QPainter, layout: BoardLayout, text: str) -> None:
    """The page's veil over the board with ``text`` ("Game over!") in the middle."""
    painter.setPen(Qt.PenStyle.NoPen)
    painter.setBrush(OVERLAY)
    painter.drawRoundedRect(QRectF(layout.board_rect()), layout.radius, layout.radius)
    painter.setBrush(Qt.BrushStyle.NoBrush)
    painter.setFont(font(0.12 * layout.side))
    painter.setPen(DARK_TEXT)
    painter.drawText(layout.board_rect(), Qt.AlignmentFlag.AlignCenter, text)


def paint_message(painter: QPainter, layout: BoardLayout, lines: tuple[str, str]) -> None:
    """Two lines centred above the board, just over it (the first bold), wrapped rather than
    shrunk below a readable size when the widget is narrow."""
    area = QRectF(layout.message_rect()).adjusted(6, 4, -6, -0.12 * layout.band)
    flags = int(Qt.AlignmentFlag.AlignHCenter | Qt.AlignmentFlag.AlignTop | Qt.TextFlag.TextWordWrap)
    scale = 1.0
    while True:
        big = _narrowed(font(max(MESSAGE_PIXELS[0], 0.24 * layout.band) * scale), lines[0], area.width())
        small = _narrowed(font(max(MESSAGE_PIXELS[1], 0.19 * layout.band) * scale, bold=False), lines[1],
                          area.width())
        heights = [QFontMetricsF(f).boundingRect(area, flags, text).height() for f, text in zip((big, small), lines)]
        if sum(heights) <= area.height() or big.pixelSize() <= 7:
            break
        scale *= 0.9
    top = area.bottom() - sum(heights)
    painter.setPen(DARK_TEXT)
    for text, line_font, height in zip(lines, (big, small), heights):
        painter.setFont(line_font)
        painter.drawText(QRectF(area.left(), top, area.width(), height), flags, text)
        top += height


def _narrowed(base: QFont, text: str, width: float, smallest: int = 10) -> QFont:
    """``base``, smaller if ``text`` would need more than ``width`` on one line, down to
    ``smallest`` pixels (then the text wraps)."""
    advance = QFontMetricsF(base).horizontalAdvance(text)
    if advance <= width or base.pixelSize() <= smallest:
        return base
    return font(max(smallest, math.floor(base.pixelSize() * width / advance)), base.bold())


# -- the arrows --------------------------------------------------------------------------------------
def arrow_path(length: float, head_width: float, shaft_width: float) -> QPainterPath:
    """An arrow pointing up, centred on (0, 0)."""
    half = length / 2
    head = 0.55 * length
    path = QPainterPath(QPointF(0, -half))
    for x, y in ((head_width / 2, -half + head), (shaft_width / 2, -half + head), (shaft_width / 2, half),
                 (-shaft_width / 2, half), (-shaft_width / 2, -half + head), (-head_width / 2, -half + head)):
        path.lineTo(x, y)
    path.closeSubpath()
    return path


def arrow_shape(layout: BoardLayout, direction: int, best: bool) -> QPainterPath:
    """The arrow of a slide in its band, pointing away from the board (the best one larger)."""
    scale = 1.0 if best else 0.8
    band = layout.band
    path = arrow_path(0.62 * band * scale, 0.56 * band * scale, 0.22 * band * scale)
    center = QPointF(layout.arrow_center(direction))
    transform = QTransform()
    transform.translate(center.x(), center.y())
    transform.rotate(90 * direction)
    return transform.map(path)


def label_rects(layout: BoardLayout, direction: int, rank_text: str, value_text: str,
                value_font: QFont, rank_font: QFont) -> tuple[QRectF, QRectF]:
    """Where an arrow's rank and value go: left and right of it in the top and bottom bands,
    above and below it in the side bands."""
    center = QPointF(layout.arrow_center(direction))
    band = layout.band
    value_metrics, rank_metrics = QFontMetricsF(value_font), QFontMetricsF(rank_font)
    value_size = (value_metrics.horizontalAdvance(value_text) + 2, value_metrics.height())
    rank_size = (rank_metrics.horizontalAdvance(rank_text) + 2, rank_metrics.height())
    clearance = 0.36 * band  # half the largest arrow's width, and a little air
    if direction in (UP, DOWN):
        rank = QRectF(center.x() - clearance - rank_size[0], center.y() - rank_size[1] / 2, *rank_size)
        value = QRectF(center.x() + clearance, center.y() - value_size[1] / 2, *value_size)
    else:
        rank = QRectF(center.x() - rank_size[0] / 2, center.y() - clearance - rank_size[1], *rank_size)
        value = QRectF(center.x() - value_size[0] / 2, center.y() + clearance, *value_size)
    return rank, value


def paint_arrow(painter: QPainter, layout: BoardLayout, direction: int, *, best: bool = False,
                highlighted: bool = False, rank: int | None = None, value_text: str = "",
                faint: bool = False) -> QRectF:
    """One slide's arrow with its rank and value (none while the advice is hidden: ``faint``);
    ``highlighted`` puts it on a pale plate with an orange rim. Returns the rectangle it covers."""
    shape = arrow_shape(layout, direction, best)
    band = layout.band
    value_font = font(max(LABEL_PIXELS[0], 0.22 * band))
    rank_font = font(max(LABEL_PIXELS[1], 0.2 * band), bold=False)
    rank_text = f"#{rank}" if rank is not None else ""
    covered = shape.boundingRect()
    rects = label_rects(layout, direction, rank_text, value_text, value_font, rank_font)
    if rank_text:
        covered = covered.united(rects[0])
    if value_text:
        covered = covered.united(rects[1])
    painter.setRenderHint(QPainter.RenderHint.Antialiasing, True)
    if highlighted:
        plate = covered.adjusted(-0.08 * band, -0.06 * band, 0.08 * band, 0.06 * band)
        painter.setPen(QPen(HIGHLIGHT, max(1.5, 0.035 * band)))
        painter.setBrush(HIGHLIGHT_FILL)
        painter.drawRoundedRect(plate, 0.12 * band, 0.12 * band)
    color = QColor(BEST if best else ARROW)
    if highlighted and not best:
        color = QColor(HIGHLIGHT)
    if faint:
        color.setAlphaF(0.45)
    outline = QColor(color).darker(130) if best else color
    painter.setPen(QPen(outline, max(1.0, (0.045 if best else 0.02) * band)))
    painter.setBrush(color)
    painter.drawPath(shape)
    painter.setBrush(Qt.BrushStyle.NoBrush)
    ink = QColor(BEST.darker(120) if best else DARK_TEXT)
    if rank_text:
        painter.setFont(rank_font)
        painter.setPen(ink)
        painter.drawText(rects[0], Qt.AlignmentFlag.AlignCenter, rank_text)
    if value_text:
        painter.setFont(value_font)
        painter.setPen(ink)
        painter.drawText(rects[1], Qt.AlignmentFlag.AlignCenter, value_text)
    return covered
