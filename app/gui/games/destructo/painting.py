"""Drawing a Destruct-o-Match position the way the game looks (spec 5), and the assistant's marks.

Boulders are stone rectangles with thick dark outlines on a light ground (the thin gaps between
them): each palette colour has its own stone, lit from the top left, with a bevel, a few cracks
and specks, so the board reads as rock. Power-ups are Kibitz's own simple icons painted here (no
image from the game is used): Explode a volcano, Wild crossed clubs and Morph a ring of colours,
all three on a dark boulder; on the carrier's colour, Overkill a rainbow burst, Multiplier "×3",
Timer a clock, Fill three little blocks, Shuffle two crossed arrows and Undo a curved arrow.

The assistant draws the advisor's best group with a bright outline, numbers the first few
candidates at their first cell, outlines the group under the mouse (with its points) and the one
the advisor panel points at, and shows the Fill row being entered as ghost boulders.
"""

from __future__ import annotations

import math
import random
import zlib
from collections.abc import Iterable

import numpy as np

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import (
    QColor,
    QFont,
    QFontMetricsF,
    QLinearGradient,
    QPainter,
    QPainterPath,
    QPen,
    QImage,
    QPixmap,
    QPolygonF,
    QRadialGradient,
)

from app.gui.cell_outline import outline_edges
from app.gui.games.destructo.advice import BEST_RGB
from app.gui.games.destructo.layout import DestructoLayout
from assets.fonts import DEJAVU_SANS, DEJAVU_SANS_BOLD, DEJAVU_SERIF_BOLD, qt_font
from engines.destructo.rules import (EXPLODE, FILL, INDESTRUCTIBLE, MORPH, MULTIPLY, OVERKILL, SHUFFLE, TIMER, UNDO, WILD,
                                     Boulder)

Cell = tuple[int, int]

#: The page around the board, the board's light ground (the gaps, the empty cells) and its frame.
BACKGROUND = QColor("#2a2521")
GROUND = QColor("#ddd6c6")
EMPTY = QColor("#bfb5a0")
FRAME = QColor("#4b3f33")
FRAME_LIGHT = QColor("#7a6853")
OUTLINE = QColor("#1b1713")
TEXT = QColor("#f1e9d8")
FAINT_TEXT = QColor("#b3a690")

#: The stone of each palette colour (engines.destructo.levels.PALETTE).
STONES = {
    "green": QColor("#5c9e36"),
    "grey": QColor("#9b9890"),
    "blue": QColor("#4a7fc1"),
    "orange": QColor("#c4843b"),
    "yellow": QColor("#dcbd33"),
    "black": QColor("#4a525c"),
    "red": QColor("#bf4334"),
    "purple": QColor("#875ab3"),
    "white": QColor("#e9e6de"),
}
#: The carrier of Explode, Wild and Morph (they have no colour of their own).
DARK_STONE = QColor("#3b3530")

#: The assistant's colours: the best group (also the panel's row cue), the group under the mouse,
#: the one the panel points at, and the numbered candidates' badges.
BEST = QColor(*BEST_RGB)
HOVER = QColor(255, 255, 255)
PREVIEW = QColor(255, 160, 30)
BADGE = QColor(250, 246, 236)
BADGE_TEXT = QColor("#1b1713")
HALO = QColor(15, 12, 10, 210)

#: The view's lettering, from the files shipped in assets/fonts (never the machine's fonts): the
#: level, score, board messages and end tablet in DejaVu Serif Bold, the rest in DejaVu Sans.
SERIF_FONT = DEJAVU_SERIF_BOLD
UI_FONT, UI_BOLD_FONT = DEJAVU_SANS, DEJAVU_SANS_BOLD

#: The icon's square against the boulder's height (the dark boulders' icons fill more of them).
ICON_SHARES = {EXPLODE: 0.95, WILD: 0.92, MORPH: 0.86, OVERKILL: 0.95, TIMER: 0.8}

RAINBOW = ("#e53935", "#fb8c00", "#fdd835", "#43a047", "#1e88e5", "#8e24aa")


INDESTRUCTIBLE_STONE = "#1e1e22"


def stone_colour(name: str | None) -> QColor:
    """A palette colour's stone; a colour name the palette does not know gets a steady hue of
    its own; None (Explode, Wild, Morph) the dark stone."""
    if name is None:
        return QColor(DARK_STONE)
    found = STONES.get(name)
    if found is not None:
        return QColor(found)
    hue = zlib.crc32(name.encode()) % 360
    return QColor.fromHsv(hue, 150, 180)


def font(pixels: float, bold: bool = False, serif: bool = False) -> QFont:
    """A shipped font at ``pixels`` (at least 7): DejaVu Serif Bold if ``serif`` (its only weight
    shipped), else DejaVu Sans or DejaVu Sans Bold. Unhinted, because the hinting the machine's
    fontconfig asks for moves glyph outlines, and the "×3" icon is one of the boulders the reader's
    templates of this view hold."""
    result = qt_font(SERIF_FONT if serif else UI_BOLD_FONT if bold else UI_FONT, max(7, round(pixels)))
    result.setHintingPreference(QFont.HintingPreference.PreferNoHinting)
    return result


# -- boulders ------------------------------------------------------------------------------------
class BoulderCache:
    """Boulders painted once per (colour, power-up, size) and reused: a 16 x 18 board repaints on
    every mouse move."""

    LIMIT = 512

    def __init__(self) -> None:
        self._pixmaps: dict[tuple, QPixmap] = {}

    def pixmap(self, boulder: Boulder, width: float, height: float, ratio: float, faint: bool = False,
               variant: int = 0, unlit: bool = False) -> QPixmap:
        """``faint``: see-through (a ghost of a boulder to come); ``unlit``: an empty socket, the
        boulder's shape in dark grey without its colour (a banked item that is not there)."""
        key = (boulder.colour, boulder.power, round(width * ratio), round(height * ratio), faint, variant, unlit)
        found = self._pixmaps.get(key)
        if found is None:
            if len(self._pixmaps) >= self.LIMIT:
                self._pixmaps.clear()
            found = QPixmap(max(1, key[2]), max(1, key[3]))
            found.setDevicePixelRatio(ratio)
            found.fill(Qt.GlobalColor.transparent)
            painter = QPainter(found)
            painter.setRenderHint(QPainter.RenderHint.Antialiasing, True)
            rect = QRectF(0, 0, key[2] / ratio, key[3] / ratio)
            paint_boulder(painter, rect, boulder, variant)
            if faint:
                painter.setCompositionMode(QPainter.CompositionMode.CompositionMode_DestinationIn)
                painter.fillRect(rect, QColor(0, 0, 0, 120))
            painter.end()
            if unlit:
                found = _unlit(found, ratio)
            self._pixmaps[key] = found
        return found


#: An unbanked item's icon: its grey level scaled to this share and drawn at this opacity, so it
#: reads as an empty socket on the page, never as a lit (usable) item.
UNLIT_SHADE = 0.45
UNLIT_ALPHA = 0.55


def _unlit(pixmap: QPixmap, ratio: float) -> QPixmap:
    """``pixmap`` without colour: each pixel's luminance, darkened and partly see-through."""
    image = pixmap.toImage().convertToFormat(QImage.Format.Format_ARGB32)
    width, height = image.width(), image.height()
    pixels = np.frombuffer(image.constBits(), dtype=np.uint8).reshape(height, image.bytesPerLine() // 4, 4)
    pixels = pixels[:, :width].astype(np.float32)  # B, G, R, A, not premultiplied
    grey = (0.114 * pixels[..., 0] + 0.587 * pixels[..., 1] + 0.299 * pixels[..., 2]) * UNLIT_SHADE
    alpha = pixels[..., 3] * UNLIT_ALPHA
    out = np.empty((height, width, 4), dtype=np.uint8)
    out[..., 0] = out[..., 1] = out[..., 2] = np.clip(grey * alpha / 255, 0, 255)  # premultiplied
    out[..., 3] = np.clip(alpha, 0, 255)
    result = QImage(out.data, width, height, 4 * width, QImage.Format.Format_ARGB32_Premultiplied).copy()
    converted = QPixmap.fromImage(result)
    converted.setDevicePixelRatio(ratio)
    return converted


#: How many stone textures each colour has (a board of one sprite per colour looks printed).
TEXTURE_VARIANTS = 3


def texture_variant(row: int, column: int) -> int:
    """Which of a colour's textures the boulder at (row, column) wears: chosen by the cell, so
    that neighbours of one colour differ."""
    return (row * 5 + column * 3) % TEXTURE_VARIANTS


def paint_boulder(painter: QPainter, rect: QRectF, boulder: Boulder, variant: int = 0) -> None:
    """One boulder: its stone, then its power-up's icon (an Indestructible one is black)."""
    base = QColor(INDESTRUCTIBLE_STONE) if boulder.power == INDESTRUCTIBLE else stone_colour(boulder.colour)
    paint_stone(painter, rect, base, f"{boulder.colour or 'dark'}-{variant}")
    if boulder.power is not None:
        paint_power(painter, rect, boulder.power)


def paint_stone(painter: QPainter, rect: QRectF, base: QColor, texture_seed: str) -> None:
    """A stone rectangle: thick dark outline, lit top-left, darker bottom-right, a bevel, and
    cracks and specks that are the same on every boulder of a colour (as a sprite would be)."""
    height = rect.height()
    outline = max(1.2, 0.085 * height)
    radius = 0.16 * height
    body = rect.adjusted(outline / 2, outline / 2, -outline / 2, -outline / 2)
    gradient = QLinearGradient(body.topLeft(), body.bottomRight())
    gradient.setColorAt(0.0, base.lighter(128))
    gradient.setColorAt(0.45, base)
    gradient.setColorAt(1.0, base.darker(140))
    painter.setPen(QPen(OUTLINE, outline))
    painter.setBrush(gradient)
    painter.drawRoundedRect(body, radius, radius)

    inner = body.adjusted(outline * 0.9, outline * 0.9, -outline * 0.9, -outline * 0.9)
    if inner.width() > 4 and inner.height() > 4:
        painter.save()
        clip = QPainterPath()
        clip.addRoundedRect(body.adjusted(outline / 2, outline / 2, -outline / 2, -outline / 2), radius * 0.8,
                            radius * 0.8)
        painter.setClipPath(clip)
        _paint_texture(painter, inner, base, texture_seed)
        painter.restore()
        # the bevel: a light rim top and left, a shadow bottom and right
        bevel = max(1.0, 0.07 * height)
        light, shade = QColor(255, 255, 255, 95), QColor(0, 0, 0, 80)
        painter.setBrush(Qt.BrushStyle.NoBrush)
        painter.setPen(QPen(light, bevel, Qt.PenStyle.SolidLine, Qt.PenCapStyle.RoundCap))
        painter.drawLine(QPointF(inner.left() + radius * 0.4, inner.top()), QPointF(inner.right() - radius * 0.4,
                                                                                    inner.top()))
        painter.drawLine(QPointF(inner.left(), inner.top() + radius * 0.4), QPointF(inner.left(),
                                                                                    inner.bottom() - radius * 0.4))
        painter.setPen(QPen(shade, bevel, Qt.PenStyle.SolidLine, Qt.PenCapStyle.RoundCap))
        painter.drawLine(QPointF(inner.left() + radius * 0.4, inner.bottom()), QPointF(inner.right() - radius * 0.4,
                                                                                       inner.bottom()))
        painter.drawLine(QPointF(inner.right(), inner.top() + radius * 0.4), QPointF(inner.right(),
                                                                                     inner.bottom() - radius * 0.4))
    painter.setBrush(Qt.BrushStyle.NoBrush)


def _paint_texture(painter: QPainter, area: QRectF, base: QColor, seed: str) -> None:
    """Cracks and specks in unit coordinates from a generator seeded by the colour's name."""
    generator = random.Random(zlib.crc32(seed.encode()))
    width, height = area.width(), area.height()

    def point(x: float, y: float) -> QPointF:
        return QPointF(area.left() + x * width, area.top() + y * height)

    # facets: two soft darker patches
    for _ in range(2):
        x, y = generator.uniform(0.15, 0.85), generator.uniform(0.2, 0.8)
        facet = QRadialGradient(point(x, y), 0.45 * width)
        shade = QColor(base.darker(135))
        shade.setAlpha(90)
        facet.setColorAt(0.0, shade)
        shade.setAlpha(0)
        facet.setColorAt(1.0, shade)
        painter.setPen(Qt.PenStyle.NoPen)
        painter.setBrush(facet)
        painter.drawRect(area)
    # cracks: short jagged polylines, dark with a light edge
    crack = QColor(base.darker(190))
    crack.setAlpha(170)
    edge = QColor(base.lighter(150))
    edge.setAlpha(110)
    pen_width = max(0.8, 0.045 * height)
    for _ in range(3):
        x, y = generator.uniform(0.05, 0.95), generator.uniform(0.05, 0.95)
        angle = generator.uniform(0, math.tau)
        points = [point(x, y)]
        for _step in range(generator.randint(2, 4)):
            angle += generator.uniform(-0.9, 0.9)
            length = generator.uniform(0.08, 0.2)
            x = min(1.0, max(0.0, x + length * math.cos(angle) * 0.66))
            y = min(1.0, max(0.0, y + length * math.sin(angle)))
            points.append(point(x, y))
        polygon = QPolygonF(points)
        painter.setBrush(Qt.BrushStyle.NoBrush)
        painter.setPen(QPen(edge, pen_width, Qt.PenStyle.SolidLine, Qt.PenCapStyle.RoundCap,
                            Qt.PenJoinStyle.RoundJoin))
        painter.drawPolyline(polygon.translated(0.6 * pen_width, 0.6 * pen_width))
        painter.setPen(QPen(crack, pen_width, Qt.PenStyle.SolidLine, Qt.PenCapStyle.RoundCap,
                            Qt.PenJoinStyle.RoundJoin))
        painter.drawPolyline(polygon)
    # specks
    painter.setPen(Qt.PenStyle.NoPen)
    for index in range(14):
        speck = QColor(base.lighter(160) if index % 2 else base.darker(170))
        speck.setAlpha(120)
        painter.setBrush(speck)
        size = generator.uniform(0.02, 0.045) * height
        painter.drawEllipse(point(generator.random(), generator.random()), size, size)


# -- power-up icons --------------------------------------------------------------------------------
def icon_box(rect: QRectF, share: float = 0.7) -> QRectF:
    """A square in the middle of a boulder for its icon."""
    side = share * min(rect.width(), rect.height())
    center = rect.center()
    return QRectF(center.x() - side / 2, center.y() - side / 2, side, side)


def paint_power(painter: QPainter, rect: QRectF, power: str) -> None:
    """The icon of ``power`` on the boulder ``rect``."""
    box = icon_box(rect, ICON_SHARES.get(power, 0.74))
    painter.save()
    painter.setRenderHint(QPainter.RenderHint.Antialiasing, True)
    {EXPLODE: _paint_explode, WILD: _paint_wild, MORPH: _paint_morph, OVERKILL: _paint_overkill,
     MULTIPLY: _paint_multiplier, TIMER: _paint_timer, FILL: _paint_fill, SHUFFLE: _paint_shuffle,
     UNDO: _paint_undo, INDESTRUCTIBLE: _paint_skull}[power](painter, box, rect)
    painter.restore()


def _ink(box: QRectF, share: float = 0.09) -> float:
    return max(1.0, share * box.width())


def _paint_explode(painter: QPainter, box: QRectF, rect: QRectF) -> None:
    """A volcano: a dark cone with a burst of lava at its top."""
    s = box.width()
    left, top = box.left(), box.top()
    cone = QPolygonF([QPointF(left + 0.05 * s, top + 0.95 * s), QPointF(left + 0.38 * s, top + 0.42 * s),
                      QPointF(left + 0.62 * s, top + 0.42 * s), QPointF(left + 0.95 * s, top + 0.95 * s)])
    gradient = QLinearGradient(QPointF(left, top + 0.4 * s), QPointF(left, top + s))
    gradient.setColorAt(0, QColor("#6d4c3d"))
    gradient.setColorAt(1, QColor("#2e211a"))
    painter.setPen(QPen(OUTLINE, _ink(box, 0.05)))
    painter.setBrush(gradient)
    painter.drawPolygon(cone)
    # lava running down
    painter.setPen(QPen(QColor("#ff6d00"), _ink(box, 0.07), Qt.PenStyle.SolidLine, Qt.PenCapStyle.RoundCap))
    painter.drawLine(QPointF(left + 0.47 * s, top + 0.45 * s), QPointF(left + 0.40 * s, top + 0.7 * s))
    painter.drawLine(QPointF(left + 0.55 * s, top + 0.45 * s), QPointF(left + 0.6 * s, top + 0.62 * s))
    # the burst
    center = QPointF(left + 0.5 * s, top + 0.3 * s)
    burst = QPolygonF()
    for index in range(16):
        radius = (0.3 if index % 2 == 0 else 0.13) * s
        angle = math.pi * index / 8 - math.pi / 2
        burst.append(QPointF(center.x() + radius * math.cos(angle), center.y() + 0.85 * radius * math.sin(angle)))
    glow = QRadialGradient(center, 0.3 * s)
    glow.setColorAt(0, QColor("#fff59d"))
    glow.setColorAt(0.5, QColor("#ffb300"))
    glow.setColorAt(1, QColor("#e64a19"))
    painter.setPen(QPen(QColor("#7f1d00"), _ink(box, 0.035)))
    painter.setBrush(glow)
    painter.drawPolygon(burst)


def _club(painter: QPainter, start: QPointF, end: QPointF, width: float) -> None:
    painter.setPen(QPen(OUTLINE, width + 2.2, Qt.PenStyle.SolidLine, Qt.PenCapStyle.RoundCap))
    painter.drawLine(start, end)
    painter.setPen(QPen(QColor("#e08a2c"), width, Qt.PenStyle.SolidLine, Qt.PenCapStyle.RoundCap))
    painter.drawLine(start, end)
    painter.setPen(QPen(OUTLINE, 1.0))
    painter.setBrush(QColor("#f0a040"))
    knob = 0.9 * width
    painter.drawEllipse(end, knob, knob)


def _paint_wild(painter: QPainter, box: QRectF, rect: QRectF) -> None:
    """Two crossed clubs, and a small star where they cross."""
    s = box.width()
    width = max(1.5, 0.13 * s)
    _club(painter, QPointF(box.left() + 0.12 * s, box.bottom() - 0.1 * s), QPointF(box.right() - 0.18 * s,
                                                                                  box.top() + 0.2 * s), width)
    _club(painter, QPointF(box.right() - 0.12 * s, box.bottom() - 0.1 * s), QPointF(box.left() + 0.18 * s,
                                                                                   box.top() + 0.2 * s), width)
    _star(painter, QPointF(box.center().x(), box.center().y() + 0.08 * s), 0.17 * s, QColor("#fff176"))


def _star(painter: QPainter, center: QPointF, radius: float, colour: QColor) -> None:
    star = QPolygonF()
    for index in range(10):
        r = radius if index % 2 == 0 else 0.45 * radius
        angle = math.pi * index / 5 - math.pi / 2
        star.append(QPointF(center.x() + r * math.cos(angle), center.y() + r * math.sin(angle)))
    painter.setPen(QPen(OUTLINE, max(0.8, 0.12 * radius)))
    painter.setBrush(colour)
    painter.drawPolygon(star)


def _paint_morph(painter: QPainter, box: QRectF, rect: QRectF) -> None:
    """A ring of colours (Morph cycles through them)."""
    ring = box.adjusted(0.1 * box.width(), 0.1 * box.width(), -0.1 * box.width(), -0.1 * box.width())
    width = 0.2 * box.width()
    painter.setBrush(Qt.BrushStyle.NoBrush)
    painter.setPen(QPen(OUTLINE, width + 2.5))
    painter.drawEllipse(ring)
    colours = [STONES["green"], STONES["blue"], STONES["orange"], STONES["grey"]]
    for index, colour in enumerate(colours):
        painter.setPen(QPen(colour.lighter(120), width, Qt.PenStyle.SolidLine, Qt.PenCapStyle.FlatCap))
        painter.drawArc(ring, int(16 * (90 * index + 8)), int(16 * 74))


def _paint_overkill(painter: QPainter, box: QRectF, rect: QRectF) -> None:
    """A rainbow burst: rays of the rainbow's colours round a white core."""
    center = box.center()
    s = box.width()
    for index in range(12):
        angle = math.tau * index / 12
        colour = QColor(RAINBOW[index % len(RAINBOW)])
        ray = QPolygonF([
            QPointF(center.x() + 0.08 * s * math.cos(angle + 1.2), center.y() + 0.08 * s * math.sin(angle + 1.2)),
            QPointF(center.x() + 0.52 * s * math.cos(angle), center.y() + 0.42 * s * math.sin(angle)),
            QPointF(center.x() + 0.08 * s * math.cos(angle - 1.2), center.y() + 0.08 * s * math.sin(angle - 1.2)),
        ])
        painter.setPen(QPen(OUTLINE, max(0.6, 0.02 * s)))
        painter.setBrush(colour)
        painter.drawPolygon(ray)
    painter.setPen(QPen(OUTLINE, max(0.8, 0.03 * s)))
    painter.setBrush(QColor("#fffde7"))
    painter.drawEllipse(center, 0.14 * s, 0.14 * s)


def _outlined_text(painter: QPainter, rect: QRectF, text: str, pixels: float, fill: QColor) -> None:
    path = QPainterPath()
    text_font = font(pixels, bold=True)
    metrics = QFontMetricsF(text_font)
    width = metrics.horizontalAdvance(text)
    baseline = rect.center().y() + (metrics.ascent() - metrics.descent()) / 2
    path.addText(QPointF(rect.center().x() - width / 2, baseline), text_font, text)
    painter.setPen(QPen(OUTLINE, max(1.5, 0.16 * pixels), Qt.PenStyle.SolidLine, Qt.PenCapStyle.RoundCap,
                        Qt.PenJoinStyle.RoundJoin))
    painter.setBrush(Qt.BrushStyle.NoBrush)
    painter.drawPath(path)
    painter.setPen(Qt.PenStyle.NoPen)
    painter.setBrush(fill)
    painter.drawPath(path)


def _paint_multiplier(painter: QPainter, box: QRectF, rect: QRectF) -> None:
    """"×3" in bold gold."""
    _outlined_text(painter, rect, "×3", 0.62 * rect.height(), QColor("#ffe082"))


def _paint_timer(painter: QPainter, box: QRectF, rect: QRectF) -> None:
    """A clock face with its hands at a quarter past."""
    face = box.adjusted(0.06 * box.width(), 0.06 * box.width(), -0.06 * box.width(), -0.06 * box.width())
    painter.setPen(QPen(OUTLINE, _ink(box, 0.1)))
    painter.setBrush(QColor("#fbf7ea"))
    painter.drawEllipse(face)
    center = face.center()
    radius = face.width() / 2
    painter.setPen(QPen(OUTLINE, _ink(box, 0.04)))
    for index in range(12):
        angle = math.tau * index / 12
        inner = 0.78 if index % 3 else 0.66
        painter.drawLine(QPointF(center.x() + inner * radius * math.cos(angle), center.y() + inner * radius * math.sin(angle)),
                         QPointF(center.x() + 0.9 * radius * math.cos(angle), center.y() + 0.9 * radius * math.sin(angle)))
    painter.setPen(QPen(OUTLINE, _ink(box, 0.08), Qt.PenStyle.SolidLine, Qt.PenCapStyle.RoundCap))
    painter.drawLine(center, QPointF(center.x(), center.y() - 0.62 * radius))
    painter.setPen(QPen(QColor("#c62828"), _ink(box, 0.06), Qt.PenStyle.SolidLine, Qt.PenCapStyle.RoundCap))
    painter.drawLine(center, QPointF(center.x() + 0.5 * radius, center.y()))


def _paint_fill(painter: QPainter, box: QRectF, rect: QRectF) -> None:
    """Three small white blocks, two below and one on top."""
    s = box.width()
    block_width, block_height = 0.4 * s, 0.26 * s
    places = ((0.08, 0.62), (0.52, 0.62), (0.3, 0.3))
    painter.setPen(QPen(OUTLINE, _ink(box, 0.06)))
    painter.setBrush(QColor("#fbfaf6"))
    for x, y in places:
        painter.drawRoundedRect(QRectF(box.left() + x * s, box.top() + y * s, block_width, block_height),
                                0.2 * block_height, 0.2 * block_height)
    # a little arrow dropping in from above, at the left
    arrow_x = box.left() + 0.16 * s
    painter.setPen(QPen(OUTLINE, _ink(box, 0.07), Qt.PenStyle.SolidLine, Qt.PenCapStyle.RoundCap))
    painter.drawLine(QPointF(arrow_x, box.top()), QPointF(arrow_x, box.top() + 0.3 * s))
    _arrow_head(painter, QPointF(arrow_x, box.top() + 0.5 * s), math.pi / 2, 0.22 * s, QColor("#fbfaf6"))


def _arrow_head(painter: QPainter, tip: QPointF, angle: float, size: float, colour: QColor) -> None:
    head = QPolygonF([tip, QPointF(tip.x() - size * math.cos(angle - 0.5), tip.y() - size * math.sin(angle - 0.5)),
                      QPointF(tip.x() - size * math.cos(angle + 0.5), tip.y() - size * math.sin(angle + 0.5))])
    painter.setPen(QPen(OUTLINE, max(0.8, 0.12 * size)))
    painter.setBrush(colour)
    painter.drawPolygon(head)


def _paint_shuffle(painter: QPainter, box: QRectF, rect: QRectF) -> None:
    """Two arrows that cross (the usual shuffle sign)."""
    s = box.width()
    colour = QColor("#e3f2fd")
    width = max(1.2, 0.1 * s)
    left, right = box.left() + 0.02 * s, box.right() - 0.2 * s
    top, bottom = box.top() + 0.25 * s, box.bottom() - 0.25 * s
    for start_y, end_y in ((top, bottom), (bottom, top)):
        path = QPainterPath(QPointF(left, start_y))
        path.cubicTo(QPointF(left + 0.45 * s, start_y), QPointF(right - 0.45 * s, end_y), QPointF(right, end_y))
        painter.setBrush(Qt.BrushStyle.NoBrush)
        painter.setPen(QPen(OUTLINE, width + 2.2, Qt.PenStyle.SolidLine, Qt.PenCapStyle.FlatCap))
        painter.drawPath(path)
        painter.setPen(QPen(colour, width, Qt.PenStyle.SolidLine, Qt.PenCapStyle.FlatCap))
        painter.drawPath(path)
        _arrow_head(painter, QPointF(right + 0.2 * s, end_y), 0.0, 0.28 * s, colour)


def _paint_undo(painter: QPainter, box: QRectF, rect: QRectF) -> None:
    """A curved arrow turning back to the left."""
    s = box.width()
    colour = QColor("#f1f8e9")
    width = max(1.2, 0.12 * s)
    arc = QRectF(box.left() + 0.18 * s, box.top() + 0.18 * s, 0.66 * s, 0.62 * s)
    path = QPainterPath()
    path.arcMoveTo(arc, 180)
    path.arcTo(arc, 180, -250)
    painter.setBrush(Qt.BrushStyle.NoBrush)
    painter.setPen(QPen(OUTLINE, width + 2.2, Qt.PenStyle.SolidLine, Qt.PenCapStyle.FlatCap))
    painter.drawPath(path)
    painter.setPen(QPen(colour, width, Qt.PenStyle.SolidLine, Qt.PenCapStyle.FlatCap))
    painter.drawPath(path)
    start = path.pointAtPercent(0.0)
    _arrow_head(painter, QPointF(start.x(), start.y() + 0.2 * s), math.pi / 2, 0.3 * s, colour)


def _paint_skull(painter: QPainter, box: QRectF, rect: QRectF) -> None:
    """Skull and crossbones, bone white on the black stone."""
    s = box.width()
    bone = QColor("#ece7da")
    painter.setPen(QPen(bone, max(1.2, 0.1 * s), Qt.PenStyle.SolidLine, Qt.PenCapStyle.RoundCap))
    painter.drawLine(QPointF(box.left() + 0.15 * s, box.top() + 0.62 * s), QPointF(box.right() - 0.15 * s,
                                                                                    box.bottom() - 0.05 * s))
    painter.drawLine(QPointF(box.right() - 0.15 * s, box.top() + 0.62 * s), QPointF(box.left() + 0.15 * s,
                                                                                     box.bottom() - 0.05 * s))
    painter.setPen(QPen(OUTLINE, max(1.0, 0.04 * s)))
    painter.setBrush(bone)
    painter.drawEllipse(QRectF(box.left() + 0.25 * s, box.top() + 0.05 * s, 0.5 * s, 0.48 * s))
    painter.drawRoundedRect(QRectF(box.left() + 0.36 * s, box.top() + 0.42 * s, 0.28 * s, 0.2 * s), 0.04 * s,
                            0.04 * s)
    painter.setPen(Qt.PenStyle.NoPen)
    painter.setBrush(QColor("#1b1b1b"))
    for x in (0.37, 0.53):
        painter.drawEllipse(QRectF(box.left() + x * s, box.top() + 0.22 * s, 0.11 * s, 0.12 * s))


# -- the board -------------------------------------------------------------------------------------
def paint_frame(painter: QPainter, layout: DestructoLayout) -> None:
    """The board's stone frame and its light ground (the gaps and the empty cells)."""
    frame = layout.frame_rect()
    painter.setPen(QPen(OUTLINE, max(1.0, 0.3 * layout.frame)))
    gradient = QLinearGradient(frame.topLeft(), frame.bottomLeft())
    gradient.setColorAt(0, FRAME_LIGHT)
    gradient.setColorAt(1, FRAME)
    painter.setBrush(gradient)
    radius = 0.6 * layout.frame
    painter.drawRoundedRect(frame, radius, radius)
    painter.setPen(Qt.PenStyle.NoPen)
    painter.setBrush(GROUND)
    painter.drawRect(layout.board_rect())
    painter.setBrush(Qt.BrushStyle.NoBrush)


def paint_empty(painter: QPainter, rect: QRectF) -> None:
    """An empty cell: a slot sunk into the ground, shaded along its top."""
    radius = 0.16 * rect.height()
    gradient = QLinearGradient(rect.topLeft(), rect.bottomLeft())
    gradient.setColorAt(0.0, EMPTY.darker(118))
    gradient.setColorAt(0.35, EMPTY)
    gradient.setColorAt(1.0, EMPTY.lighter(104))
    painter.setPen(Qt.PenStyle.NoPen)
    painter.setBrush(gradient)
    painter.drawRoundedRect(rect, radius, radius)
    painter.setBrush(Qt.BrushStyle.NoBrush)


def paint_boulders(painter: QPainter, layout: DestructoLayout, board, cache: BoulderCache) -> None:
    ratio = painter.device().devicePixelRatioF() if painter.device() is not None else 1.0
    for r, row in enumerate(board):
        for c, boulder in enumerate(row):
            rect = layout.cell_rect(r, c)
            if boulder is None:
                paint_empty(painter, rect)
                continue
            painter.drawPixmap(rect.topLeft(), cache.pixmap(boulder, rect.width(), rect.height(), ratio,
                                                            variant=texture_variant(r, c)))


def paint_ghosts(painter: QPainter, layout: DestructoLayout, ghosts: Iterable[tuple[Cell, str | None]],
                 cache: BoulderCache) -> None:
    """The Fill row being entered: a faint boulder of the chosen colour where it will land, a
    dashed empty slot where no colour is chosen yet."""
    ratio = painter.device().devicePixelRatioF() if painter.device() is not None else 1.0
    for (r, c), colour in ghosts:
        rect = layout.cell_rect(r, c)
        if colour is not None:
            painter.drawPixmap(rect.topLeft(), cache.pixmap(Boulder(colour), rect.width(), rect.height(), ratio,
                                                            faint=True))
        painter.setBrush(Qt.BrushStyle.NoBrush)
        painter.setPen(QPen(PREVIEW, max(1.0, 0.07 * rect.height()), Qt.PenStyle.DashLine))
        inset = 0.06 * rect.height()
        painter.drawRoundedRect(rect.adjusted(inset, inset, -inset, -inset), 0.15 * rect.height(),
                                0.15 * rect.height())


def paint_group_outline(painter: QPainter, layout: DestructoLayout, cells: Iterable[Cell], colour: QColor,
                        width: float, dashed: bool = False) -> None:
    """The outer boundary of ``cells`` in ``colour`` over a dark halo, so it reads on any stone."""
    lines = outline_edges(layout, ((c, r) for r, c in cells))
    if not lines:
        return
    cap = Qt.PenCapStyle.RoundCap
    painter.setBrush(Qt.BrushStyle.NoBrush)
    painter.setPen(QPen(HALO, width + max(2.0, 0.8 * width), Qt.PenStyle.SolidLine, cap))
    painter.drawLines(lines)
    painter.setPen(QPen(colour, width, Qt.PenStyle.DashLine if dashed else Qt.PenStyle.SolidLine, cap))
    painter.drawLines(lines)


def paint_tint(painter: QPainter, layout: DestructoLayout, cells: Iterable[Cell], colour: QColor) -> None:
    painter.setPen(Qt.PenStyle.NoPen)
    painter.setBrush(colour)
    for r, c in cells:
        painter.drawRect(layout.cell_rect(r, c))
    painter.setBrush(Qt.BrushStyle.NoBrush)


def paint_badge(painter: QPainter, layout: DestructoLayout, cell: Cell, number: int, best: bool) -> None:
    """A candidate's rank on a round badge at its first cell (the best on the highlight colour)."""
    rect = layout.cell_rect(*cell)
    radius = 0.36 * rect.height()
    center = QPointF(rect.left() + 0.3 * rect.width(), rect.center().y())
    painter.setPen(QPen(HALO, max(1.2, 0.09 * rect.height())))
    painter.setBrush(BEST if best else BADGE)
    painter.drawEllipse(center, radius, radius)
    painter.setPen(BADGE_TEXT)
    painter.setFont(font(1.3 * radius, bold=True))
    painter.drawText(QRectF(center.x() - radius, center.y() - radius, 2 * radius, 2 * radius),
                     Qt.AlignmentFlag.AlignCenter, str(number))


def paint_points_tag(painter: QPainter, layout: DestructoLayout, cell: Cell, text: str) -> None:
    """A small tag with a group's points, above the cell the mouse is on."""
    rect = layout.cell_rect(*cell)
    tag_font = font(max(10.0, 0.5 * layout.unit), bold=True)
    metrics = QFontMetricsF(tag_font)
    width, height = metrics.horizontalAdvance(text) + 0.5 * metrics.height(), 1.25 * metrics.height()
    board = layout.board_rect()
    x = min(max(rect.center().x() - width / 2, board.left()), board.right() - width)
    y = rect.top() - height - 0.1 * layout.cell_height
    if y < board.top():
        y = rect.bottom() + 0.1 * layout.cell_height
    tag = QRectF(x, y, width, height)
    painter.setPen(QPen(HALO, 1.5))
    painter.setBrush(QColor(30, 26, 22, 225))
    painter.drawRoundedRect(tag, 0.3 * height, 0.3 * height)
    painter.setPen(HOVER)
    painter.setFont(tag_font)
    painter.drawText(tag, Qt.AlignmentFlag.AlignCenter, text)


def paint_board_message(painter: QPainter, layout: DestructoLayout, lines: tuple[str, str]) -> None:
    """Words in the middle of an empty board (a level's board is due)."""
    board = layout.board_rect()
    painter.setPen(QColor("#5a4c3d"))
    painter.setFont(font(max(13.0, 0.9 * layout.unit), bold=True, serif=True))
    metrics = QFontMetricsF(painter.font())
    middle = board.center().y()
    painter.drawText(QRectF(board.left(), middle - 1.3 * metrics.height(), board.width(), 1.2 * metrics.height()),
                     Qt.AlignmentFlag.AlignCenter, lines[0])
    painter.setFont(font(max(11.0, 0.5 * layout.unit)))
    painter.drawText(QRectF(board.left() + 0.05 * board.width(), middle, 0.9 * board.width(), 0.4 * board.height()),
                     int(Qt.AlignmentFlag.AlignHCenter | Qt.AlignmentFlag.AlignTop | Qt.TextFlag.TextWordWrap),
                     lines[1])


def paint_tablet(painter: QPainter, layout: DestructoLayout, score: int) -> None:
    """The end of the game: the board dimmed and a stone tablet "Your Score N" over it (as the
    game's end panel, spec 5)."""
    board = layout.board_rect()
    painter.fillRect(board, QColor(20, 16, 12, 140))
    width, height = min(board.width() * 0.6, 16 * layout.cell_height), min(board.height() * 0.5, 6 * layout.cell_height)
    tablet = QRectF(board.center().x() - width / 2, board.center().y() - height / 2, width, height)
    paint_stone(painter, tablet, QColor("#a89a84"), "tablet")
    painter.setPen(OUTLINE)
    painter.setFont(font(0.16 * height, bold=True, serif=True))
    painter.drawText(QRectF(tablet.left(), tablet.top() + 0.12 * height, width, 0.3 * height),
                     Qt.AlignmentFlag.AlignCenter, "Your Score")
    _outlined_text(painter, QRectF(tablet.left(), tablet.top() + 0.42 * height, width, 0.42 * height), f"{score:,}",
                   0.3 * height, QColor("#ffe082"))


# -- the header ------------------------------------------------------------------------------------
def paint_header(painter: QPainter, layout: DestructoLayout, level_text: str, score_text: str, message: str,
                 items: tuple[bool, bool], cache: BoulderCache, message_colour: QColor = TEXT) -> None:
    """Level and score on the first line, the banked Shuffle and Undo at its right (in colour when
    banked, an unlit grey socket otherwise: ``items`` = (Shuffle banked, Undo banked)), and
    ``message`` on the second line."""
    title = layout.title_line()
    items_left = layout.item_rect(0).left()
    score_area = QRectF(title.left(), title.top(), items_left - title.left() - 0.4 * layout.unit,
                        title.height())
    pixels = max(12.0, 0.6 * title.height())
    title_font = font(pixels, bold=True, serif=True)
    needed = QFontMetricsF(title_font).horizontalAdvance(f"{level_text}   {score_text}")
    if needed > score_area.width() > 0:  # a narrow board: smaller words, never overlapping
        title_font = font(max(7.0, pixels * score_area.width() / needed), bold=True, serif=True)
    painter.setFont(title_font)
    painter.setPen(TEXT)
    painter.drawText(title, int(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter), level_text)
    painter.drawText(score_area, int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter), score_text)
    ratio = painter.device().devicePixelRatioF() if painter.device() is not None else 1.0
    for slot, (power, colour) in enumerate(((SHUFFLE, "grey"), (UNDO, "green"))):
        rect = layout.item_rect(slot)
        banked = items[slot]
        pixmap = cache.pixmap(Boulder(colour, power), rect.width(), rect.height(), ratio, unlit=not banked)
        painter.drawPixmap(rect.topLeft(), pixmap)
    painter.setFont(font(max(11.0, 0.5 * layout.message_line().height())))
    painter.setPen(message_colour)
    line = layout.message_line()
    metrics = QFontMetricsF(painter.font())
    painter.drawText(line, int(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter),
                     metrics.elidedText(message, Qt.TextElideMode.ElideRight, line.width()))
