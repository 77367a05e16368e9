"""Drawing an SPL-T position the way the real game shows it (spec section 5).

Black board, plain boxes outlined in thin grey, point blocks hatched with thin grey diagonals
(top-left to bottom-right, one pattern across the whole board) with their number in the middle,
voids solid white; above the board "SCORE n", the stick figure (arms out: horizontal next, arms
up: vertical next), "n SPLITS", and a dotted line. Sizes are in cells, measured on the real
screenshots in ``shared/data/splt``. Everything is drawn without antialiasing, one pixel wide
at usual sizes, as crisp as the game.
"""

from __future__ import annotations

import math
from collections.abc import Iterable

from PySide6.QtCore import QLine, QPoint, QRect, Qt
from PySide6.QtGui import QBrush, QColor, QFont, QPainter, QPen

from app.gui.cell_outline import outline_edges
from app.gui.games.splt.advice import BEST_RGB, CLUSTER, KIND_RGB, advice_kind, split_line, tint_strength
from app.gui.games.splt.glyphs import Lettering
from app.gui.games.splt.highlights import Highlight, Kind
from app.gui.games.splt.layout import BoardLayout
from engines.splt import Box, State

BACKGROUND = QColor(0, 0, 0)
VOID = QColor(255, 255, 255)
OUTLINE = QColor(120, 120, 120)
HATCH = QColor(90, 90, 90)
NUMBER = QColor(145, 145, 145)
HEADER_TEXT = QColor(190, 190, 190)
DOTS = QColor(120, 120, 120)
FIGURE_BODY = QColor(245, 245, 245)
FIGURE_LIMBS = QColor(150, 150, 150)
PREVIEW_STIPPLE = QColor(100, 100, 100)
PREVIEW_LINE = QColor(175, 175, 175)

HIGHLIGHT_COLORS = {
    Kind.EXPLODED: QColor(255, 80, 60),
    Kind.REFILLED: QColor(80, 220, 120),
    Kind.FELL: QColor(70, 180, 255),
    Kind.HALVED: QColor(200, 130, 255),
    Kind.CREATED: QColor(255, 190, 40),
    Kind.SPLIT: QColor(255, 255, 255),
}

# what is there after the turn is filled; what left (exploded) or only moved (fell) is outlined
FILLED_HIGHLIGHTS = {Kind.REFILLED, Kind.HALVED, Kind.CREATED}

HATCH_LINES_PER_CELL = 9


def stroke(cell: int) -> int:
    """Line width of numbers and lettering: one pixel up to about 70-pixel cells."""
    return max(1, round(cell / 70))


def block_lettering(cell: int) -> Lettering:
    """Numbers on point blocks (monospaced like the header, centred on their ink)."""
    return Lettering(0.21 * cell, 0.34 * cell, 0.1 * cell, monospaced=True)


def header_lettering(cell: int) -> Lettering:
    """Score and split count: monospaced, the same height as block numbers."""
    return Lettering(0.22 * cell, 0.34 * cell, 0.085 * cell, monospaced=True)


def label_lettering(cell: int) -> Lettering:
    """The small words SCORE and SPLITS."""
    return Lettering(0.115 * cell, 0.14 * cell, 0.045 * cell, monospaced=False)


# -- board ---------------------------------------------------------------------------------------
def paint_board(painter: QPainter, layout: BoardLayout, state: State) -> None:
    """Voids, point blocks (hatching and number) and every box outline."""
    painter.setRenderHint(QPainter.RenderHint.Antialiasing, False)
    for x, y in state.voids():
        painter.fillRect(layout.rect(x, y), VOID)
    for box in state.boxes:
        if box.points:
            paint_point_block(painter, layout, box)
    painter.setPen(QPen(OUTLINE, 1))
    painter.setBrush(Qt.BrushStyle.NoBrush)
    for box in state.boxes:
        painter.drawRect(layout.rect(box.x, box.y, box.w, box.h))


def paint_point_block(painter: QPainter, layout: BoardLayout, box: Box) -> None:
    rect = layout.rect(box.x, box.y, box.w, box.h)
    paint_hatching(painter, layout, rect)
    painter.setPen(QPen(NUMBER, stroke(layout.cell)))
    painter.drawLines(block_number_lines(rect, str(box.points), layout.cell))


def number_room(rect: QRect) -> QRect:
    """The pixels a block's number may ink: inside the outline (drawn on the rect's left and top
    edge lines and on the next cells' ones, just past its right and bottom), with a margin of a
    tenth of the block's shorter side (at least two pixels), so neighbouring numbers never run
    together."""
    margin = max(2, round(0.1 * min(rect.width(), rect.height())))
    return QRect(rect.left() + 1 + margin, rect.top() + 1 + margin,
                 rect.width() - 1 - 2 * margin, rect.height() - 1 - 2 * margin)


def inked_rect(lines: Iterable[QLine], width: int) -> QRect:
    """The pixels ``lines`` cover drawn with a ``width``-pixel pen without antialiasing (square
    caps; an even width leans right and down, as Qt draws it)."""
    lines = list(lines)
    if not lines:
        return QRect()
    before, after = (width - 1) // 2, width // 2
    xs = [v for line in lines for v in (line.x1(), line.x2())]
    ys = [v for line in lines for v in (line.y1(), line.y2())]
    return QRect(QPoint(min(xs) - before, min(ys) - before), QPoint(max(xs) + after, max(ys) + after))


def block_number_lines(rect: QRect, text: str, cell: int) -> list[QLine]:
    """The strokes of a point block's number: the block lettering centred on its ink and shrunk,
    as the game shrinks its font to the box, until the ink (the pen's width included, every stroke
    snapped to whole pixels) lies inside :func:`number_room`. A four-digit number in a 1-wide block
    of a small board ends up a few pixels per digit, never over the outline or the next block."""
    room = number_room(rect)
    width = stroke(cell)
    lettering = block_lettering(cell)
    ink_left, ink_right = lettering.ink_span(text)
    fit = min((room.width() - width) / max(ink_right - ink_left, 1e-9), (room.height() - width) / lettering.height)
    if fit < 1:
        lettering = lettering.scaled(max(fit, 0.0))
    lines: list[QLine] = []
    for _ in range(100):
        ink_left, ink_right = lettering.ink_span(text)
        center_x = room.left() + (room.width() - 1) / 2
        center_y = room.top() + (room.height() - 1) / 2
        lines = lettering.lines(text, center_x - (ink_left + ink_right) / 2, center_y - lettering.height / 2)
        if not lines or room.contains(inked_rect(lines, width)):
            return lines
        lettering = lettering.scaled(0.97)  # snapping pushed an end out: a little smaller
    return []  # too small a block for any number (a board a few pixels a cell)


def paint_hatching(painter: QPainter, layout: BoardLayout, rect: QRect) -> None:
    """Diagonals x - y = constant, spaced evenly from the board's corner, inside ``rect``."""
    spacing = max(3, round(layout.cell / HATCH_LINES_PER_CELL))
    origin = layout.left - layout.top
    x0, y0 = rect.x(), rect.y()
    x1, y1 = x0 + rect.width(), y0 + rect.height()
    first = math.floor((x0 - y1 - origin) / spacing)
    last = math.ceil((x1 - y0 - origin) / spacing)
    lines = []
    for k in range(first, last + 1):
        c = origin + k * spacing
        lines.append(QLine(c + y0, y0, c + y1, y1))
    painter.save()
    painter.setClipRect(rect.adjusted(1, 1, 0, 0))
    painter.setPen(QPen(HATCH, 1))
    painter.drawLines(lines)
    painter.restore()


# -- header --------------------------------------------------------------------------------------
def paint_header(painter: QPainter, layout: BoardLayout, score: int, splits: int, orientation: str) -> None:
    """SCORE n, the stick figure, n SPLITS and the dotted line on the board's top edge."""
    cell = layout.cell
    painter.setRenderHint(QPainter.RenderHint.Antialiasing, False)
    numbers = header_lettering(cell)
    labels = label_lettering(cell)
    top = layout.top - round(0.44 * cell)
    margin = round(0.06 * cell)
    between = round(0.12 * cell)
    painter.setPen(QPen(HEADER_TEXT, stroke(cell)))

    labels.draw(painter, "SCORE", layout.left + margin, top)
    numbers.draw(painter, str(score), layout.left + margin + labels.text_width("SCORE") + between, top)

    splits_left = layout.right - margin - labels.text_width("SPLITS")
    labels.draw(painter, "SPLITS", splits_left, top)
    text = str(splits)
    numbers.draw(painter, text, splits_left - between - numbers.text_width(text), top)

    paint_figure(painter, (layout.left + layout.right) // 2, layout.top - round(0.09 * cell), cell, orientation)

    # the dotted line replaces the top outline of the first row
    painter.setPen(QPen(BACKGROUND, 1))
    painter.drawLine(layout.left, layout.top, layout.right, layout.top)
    painter.setPen(QPen(DOTS, 1))
    step = max(2, round(cell / 20))
    painter.drawPoints([QPoint(x, layout.top) for x in range(layout.left, layout.right + 1, step)])


def paint_figure(painter: QPainter, centre: int, feet: int, cell: int, orientation: str) -> None:
    """The little man of the header: arms sideways when the next split is horizontal, raised
    when it is vertical. ``feet`` is the y of the bottom of his legs."""
    unit = cell / 62.4  # measured in pixels of a 62.4-pixel cell

    def px(value: float) -> int:
        return max(1, round(value * unit))

    head_w, head_h = px(9), px(7)
    body_w, body_h = px(6), px(6)
    leg_h = px(7)
    body_bottom = feet - leg_h
    body_top = body_bottom - body_h
    head_top = body_top - px(1) - head_h  # a one-pixel neck between head and body
    limb = QPen(FIGURE_LIMBS, max(1, round(1.4 * unit)))
    painter.setPen(limb)
    # legs from the body's bottom corners, slightly apart
    body_left = centre - body_w // 2
    body_right = body_left + body_w - 1
    splay = px(1.5)
    painter.drawLine(body_left, body_bottom, body_left - splay, feet)
    painter.drawLine(body_right, body_bottom, body_right + splay, feet)
    # arms
    shoulder = body_top
    if orientation == "H":
        reach = px(9)
        painter.drawLine(body_left - reach, shoulder, body_right + reach, shoulder)
    else:
        side = px(4.5)
        painter.drawLine(body_left, shoulder, body_left - side, shoulder)
        painter.drawLine(body_right, shoulder, body_right + side, shoulder)
        painter.drawLine(body_left - side, shoulder, body_left - side, head_top - px(1))
        painter.drawLine(body_right + side, shoulder, body_right + side, head_top - px(1))
    # head and body
    head_left = centre - head_w // 2
    painter.fillRect(QRect(head_left, head_top, head_w, head_h), FIGURE_BODY)
    painter.fillRect(QRect(body_left, body_top, body_w, body_h), FIGURE_BODY)
    eye = max(1, px(2))
    eye_y = head_top + px(3)
    eye_h = max(1, px(1.2))
    painter.fillRect(QRect(head_left + px(2), eye_y, eye, eye_h), BACKGROUND)
    painter.fillRect(QRect(head_left + head_w - px(2) - eye, eye_y, eye, eye_h), BACKGROUND)


# -- interaction overlays ------------------------------------------------------------------------
def paint_preview(painter: QPainter, layout: BoardLayout, box: Box, orientation: str) -> None:
    """The split the player is about to make: the box stippled and a dashed line across it,
    like the game's touch-and-hold preview."""
    rect = layout.rect(box.x, box.y, box.w, box.h)
    painter.setRenderHint(QPainter.RenderHint.Antialiasing, False)
    painter.fillRect(rect.adjusted(1, 1, 0, 0), QBrush(PREVIEW_STIPPLE, Qt.BrushStyle.Dense6Pattern))
    width = max(2, round(layout.cell / 22))
    pen = QPen(PREVIEW_LINE, width)
    pen.setCapStyle(Qt.PenCapStyle.FlatCap)
    pen.setDashPattern([max(1.0, layout.cell / 8 / width), max(1.0, layout.cell / 14 / width)])
    painter.setPen(pen)
    (row, column), _ = split_line(box, orientation)
    if orientation == "H":
        y = layout.y_edge(row)
        painter.drawLine(rect.left() + 1, y, rect.left() + rect.width(), y)
    else:
        x = layout.x_edge(column)
        painter.drawLine(x, rect.top() + 1, x, rect.top() + rect.height())


def paint_highlights(painter: QPainter, layout: BoardLayout, highlights: Iterable[Highlight], strength: float) -> None:
    """The turn's highlights, fading with ``strength`` (1 = full, 0 = gone)."""
    if strength <= 0:
        return
    painter.setRenderHint(QPainter.RenderHint.Antialiasing, False)
    painter.setBrush(Qt.BrushStyle.NoBrush)
    border = max(2, round(layout.cell / 20))
    for highlight in highlights:
        color = QColor(HIGHLIGHT_COLORS[highlight.kind])
        if highlight.kind is Kind.SPLIT:
            color.setAlphaF(strength)
            painter.setPen(QPen(color, border + 1))
            x0, y0 = layout.x_edge(highlight.x), layout.y_edge(highlight.y)
            painter.drawLine(x0, y0, layout.x_edge(highlight.x + highlight.w), layout.y_edge(highlight.y + highlight.h))
            continue
        rect = layout.rect(highlight.x, highlight.y, highlight.w, highlight.h)
        if highlight.kind in FILLED_HIGHLIGHTS:
            fill = QColor(color)
            fill.setAlphaF(0.35 * strength)
            painter.fillRect(rect.adjusted(1, 1, 0, 0), fill)
        color.setAlphaF(strength)
        pen = QPen(color, border)
        pen.setJoinStyle(Qt.PenJoinStyle.MiterJoin)
        painter.setPen(pen)
        inset = border // 2 + 1
        painter.drawRect(rect.adjusted(inset, inset, -inset + 1, -inset + 1))


# -- advice --------------------------------------------------------------------------------------
ADVICE_BEST = QColor(*BEST_RGB)
ADVICE_RANK_TEXT = QColor(235, 235, 235)
CLUSTER_OUTLINE = QColor(255, 255, 255)
LATE_CLUSTER_OUTLINE = QColor(*KIND_RGB[CLUSTER])


def paint_advice(painter: QPainter, layout: BoardLayout, state: State, candidates) -> None:
    """The advisor's candidates (best first) on the board: each legal split filled with its
    predictor colour, fading with rank, its rank in the top-left corner; the best outlined with a
    thick dashed line, other splits tied with it with a thinner one."""
    painter.setRenderHint(QPainter.RenderHint.Antialiasing, False)
    boxes = []
    for candidate in candidates:
        index = state.box_index_at(candidate.move.x, candidate.move.y)
        boxes.append(state.boxes[index] if index >= 0 else None)
    count = len(candidates)
    for rank, (candidate, box) in enumerate(zip(candidates, boxes)):
        if box is None:
            continue
        kind = advice_kind(candidate)
        fill = QColor(*KIND_RGB[kind])
        fill.setAlphaF(tint_strength(rank, count, kind))
        painter.fillRect(layout.rect(box.x, box.y, box.w, box.h).adjusted(1, 1, 0, 0), fill)

    cell = layout.cell
    if cell >= 16:
        font = QFont()
        font.setPixelSize(max(8, round(0.25 * cell)))
        font.setBold(True)
        painter.setFont(font)
        painter.setPen(ADVICE_RANK_TEXT)
        pad = max(3, round(0.13 * cell))  # clear of the best's frame
        for rank, box in enumerate(boxes):
            if box is not None:
                rect = layout.rect(box.x, box.y, box.w, box.h).adjusted(pad, pad - 1, -pad, -pad)
                painter.drawText(rect, Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignTop, str(rank + 1))

    if not candidates or boxes[0] is None:
        return
    best_score = candidates[0].score
    for rank, (candidate, box) in enumerate(zip(candidates, boxes)):
        if box is None or (rank > 0 and candidate.score != best_score):
            continue
        width = max(3, round(cell / 11)) if rank == 0 else max(2, round(cell / 20))
        _dashed_frame(painter, layout.rect(box.x, box.y, box.w, box.h), ADVICE_BEST, width)


def _dashed_frame(painter: QPainter, rect: QRect, color: QColor, width: int) -> None:
    """A frame just inside ``rect``: dashes of ``color`` over a black line, readable on any fill."""
    inset = width // 2 + 1
    inner = rect.adjusted(inset, inset, -inset + 1, -inset + 1)
    under = QPen(BACKGROUND, width)
    under.setJoinStyle(Qt.PenJoinStyle.MiterJoin)
    painter.setBrush(Qt.BrushStyle.NoBrush)
    painter.setPen(under)
    painter.drawRect(inner)
    over = QPen(color, width)
    over.setJoinStyle(Qt.PenJoinStyle.MiterJoin)
    over.setCapStyle(Qt.PenCapStyle.FlatCap)
    over.setDashPattern([2.5, 1.5])
    painter.setPen(over)
    painter.drawRect(inner)


def cluster_edges(layout: BoardLayout, boxes: Iterable[Box]) -> list[QLine]:
    """The outer boundary of the cells the boxes cover, as pixel lines on cell edges."""
    return outline_edges(layout, (cell for box in boxes for cell in box.cells()))


def paint_cluster_outline(painter: QPainter, layout: BoardLayout, boxes, color: QColor = CLUSTER_OUTLINE) -> None:
    """Outline the region ``boxes`` cover (the cluster a previewed split would make)."""
    boxes = list(boxes)
    if not boxes:
        return
    painter.setRenderHint(QPainter.RenderHint.Antialiasing, False)
    width = max(2, round(layout.cell / 14))
    lines = cluster_edges(layout, boxes)
    under = QPen(BACKGROUND, width + 2)
    under.setCapStyle(Qt.PenCapStyle.SquareCap)
    painter.setPen(under)
    painter.drawLines(lines)
    pen = QPen(color, width)
    pen.setCapStyle(Qt.PenCapStyle.SquareCap)
    painter.setPen(pen)
    painter.drawLines(lines)

