"""Drawing a HATETRIS position the way the official page shows it (spec section 5), and the
assistant's marks on it.

Black well, landed cells rgb(0,162,232), the live piece red, a red line on top of row 4 (the bar
the stack must stay under), a faint cell grid; "score: N" right of the well. The assistant adds
ghosts (a translucent fill and an outline of a placement's cells), badges saying which piece the
AI sends after a placement, and the fading marks of the last turn.
"""

from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtCore import QLine, QPoint, QRect, QRectF, Qt
from PySide6.QtGui import QColor, QFont, QFontMetrics, QPainter, QPen

from app.gui.cell_outline import outline_edges
from app.gui.games.hatetris.layout import WellLayout
from app.gui.games.hatetris.placements import Cell, TurnMarks
from assets.fonts import DEJAVU_SANS, DEJAVU_SANS_BOLD, qt_font
from engines.hatetris import BAR, State
from engines.hatetris.pieces import CELLS, PIECE_INDEX

BACKGROUND = QColor(0, 0, 0)
LANDED = QColor(0, 162, 232)
LIVE = QColor(255, 0, 0)
BAR_LINE = QColor(255, 0, 0)
GRID = QColor(26, 26, 26)
SIDE_TEXT = QColor(215, 215, 215)
SIDE_MUTED = QColor(130, 130, 130)
GAME_OVER_TEXT = QColor(255, 90, 80)

#: Ghost colours: the advisor's best, the candidate the panel points at, the player's own
#: (the mouse's hover and the keys' cursor).
BEST = QColor(70, 235, 120)
PREVIEW = QColor(255, 196, 30)
PLAYER = QColor(255, 255, 255)
HIGHLIGHT = QColor(255, 255, 255)

GHOST_FILL_ALPHA = 0.28


def _font(pixels: float, bold: bool = False) -> QFont:
    """DejaVu Sans from its shipped file (assets/fonts), not the machine's default font, so the
    HATETRIS reader's templates of this view's score (assets/vision/hatetris) match it anywhere."""
    return qt_font(DEJAVU_SANS_BOLD if bold else DEJAVU_SANS, max(7, round(pixels)))


def score_font(cell: int) -> QFont:
    """The font of "score: N" (and of the side panel's other big text)."""
    return _font(0.62 * cell, bold=True)


def line_width(cell: int) -> int:
    """Outline width: two pixels at small sizes, growing with the cell."""
    return max(2, round(cell / 12))


# -- the well ------------------------------------------------------------------------------------
def paint_well(painter: QPainter, layout: WellLayout, state: State) -> None:
    """Grid, landed cells, the live piece at its spawn and the bar."""
    painter.setRenderHint(QPainter.RenderHint.Antialiasing, False)
    painter.fillRect(layout.well_rect(), BACKGROUND)
    painter.setPen(QPen(GRID, 1))
    grid = [QLine(layout.x_edge(x), layout.top, layout.x_edge(x), layout.bottom) for x in range(layout.columns + 1)]
    grid += [QLine(layout.left, layout.y_edge(y), layout.right, layout.y_edge(y)) for y in range(layout.rows + 1)]
    painter.drawLines(grid)
    for y, row in enumerate(state.well):
        if row:
            for x in range(layout.columns):
                if row >> x & 1:
                    painter.fillRect(layout.rect(x, y).adjusted(1, 1, 0, 0), LANDED)
    if state.piece is not None:
        spawn_x = state.rules.spawn_x
        for cx, cy in CELLS[PIECE_INDEX[state.piece]][0]:
            painter.fillRect(layout.rect(spawn_x + cx, cy).adjusted(1, 1, 0, 0), LIVE)
    bar = layout.y_edge(BAR)
    thickness = max(1, round(layout.cell / 18))
    painter.fillRect(QRect(layout.left, bar - thickness // 2, layout.right - layout.left + 1, thickness), BAR_LINE)


def paint_mini_piece(painter: QPainter, left: int, top: int, cell: int, piece: str, color: QColor) -> int:
    """A small drawing of ``piece`` (orientation 0, trimmed) with its top-left at (left, top);
    returns its height in pixels."""
    cells = CELLS[PIECE_INDEX[piece]][0]
    x0 = min(cx for cx, _ in cells)
    y0 = min(cy for _, cy in cells)
    for cx, cy in cells:
        painter.fillRect(QRect(left + (cx - x0) * cell, top + (cy - y0) * cell, cell - 1, cell - 1), color)
    return (max(cy for _, cy in cells) - y0 + 1) * cell


# -- the side panel ------------------------------------------------------------------------------
def paint_side(painter: QPainter, layout: WellLayout, state: State, legend: Sequence[tuple[QColor, str]],
               keys: tuple[str, QColor, str] | None = None) -> None:
    """Right of the well: "score: N", the piece to place (a red drawing), the pieces so far or
    "game over", the keys of a ghost (``keys`` = (whose, colour, compact keys)) and the ghosts'
    legend at the bottom."""
    side = layout.side
    cell = layout.cell
    painter.setRenderHint(QPainter.RenderHint.Antialiasing, True)
    y = side.top()

    big = score_font(cell)
    small = _font(0.42 * cell)
    painter.setFont(big)
    painter.setPen(SIDE_TEXT)
    metrics = QFontMetrics(big)
    painter.drawText(QPoint(side.left(), y + metrics.ascent()), f"score: {state.score}")
    y += metrics.height() + round(0.5 * cell)

    painter.setFont(small)
    small_metrics = QFontMetrics(small)
    if state.piece is None:
        painter.setFont(big)
        painter.setPen(GAME_OVER_TEXT)
        painter.drawText(QPoint(side.left(), y + metrics.ascent()), "game over")
        y += metrics.height() + round(0.3 * cell)
    else:
        painter.setPen(SIDE_MUTED)
        painter.drawText(QPoint(side.left(), y + small_metrics.ascent()), "piece to place")
        y += small_metrics.height() + round(0.15 * cell)
        mini = max(4, round(0.55 * cell))
        painter.setRenderHint(QPainter.RenderHint.Antialiasing, False)
        height = paint_mini_piece(painter, side.left(), y, mini, state.piece, LIVE)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing, True)
        painter.setFont(big)
        painter.setPen(SIDE_TEXT)
        painter.drawText(QPoint(side.left() + 4 * mini + round(0.2 * cell), y + (height + metrics.capHeight()) // 2),
                         state.piece)
        y += height + round(0.4 * cell)
    painter.setFont(small)
    painter.setPen(SIDE_MUTED)
    painter.drawText(QPoint(side.left(), y + small_metrics.ascent()), f"{state.pieces} pieces")
    y += small_metrics.height() + round(0.6 * cell)

    if keys is not None:
        whose, color, text = keys
        painter.drawText(QPoint(side.left(), y + small_metrics.ascent()), f"keys · {whose}")
        y += small_metrics.height() + round(0.1 * cell)
        key_font = _font(0.5 * cell, bold=True)
        painter.setFont(key_font)
        painter.setPen(color)
        key_metrics = QFontMetrics(key_font)
        painter.drawText(QRect(side.left(), y, side.width(), 3 * key_metrics.height()),
                         int(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignTop | Qt.TextFlag.TextWordWrap), text)

    # the legend, bottom up
    painter.setFont(small)
    y = side.bottom()
    swatch = max(6, round(0.42 * cell))
    for color, words in reversed(list(legend)):
        y -= small_metrics.height() + 2
        painter.setRenderHint(QPainter.RenderHint.Antialiasing, False)
        fill = QColor(color)
        fill.setAlphaF(GHOST_FILL_ALPHA + 0.2)
        box = QRect(side.left(), y + (small_metrics.height() - swatch) // 2, swatch, swatch)
        painter.fillRect(box, fill)
        painter.setPen(QPen(color, 1))
        painter.drawRect(box.adjusted(0, 0, -1, -1))
        painter.setRenderHint(QPainter.RenderHint.Antialiasing, True)
        painter.setPen(SIDE_MUTED)
        painter.drawText(QPoint(side.left() + swatch + round(0.2 * cell), y + small_metrics.ascent()), words)


# -- ghosts and badges ---------------------------------------------------------------------------
def paint_ghost(painter: QPainter, layout: WellLayout, cells: Sequence[Cell], color: QColor,
                dashed: bool = False, fill_alpha: float = GHOST_FILL_ALPHA) -> None:
    """A placement's cells: a translucent fill and an outline (dashed for the advisor's best,
    so the player's own ghost on the same cells still shows)."""
    painter.setRenderHint(QPainter.RenderHint.Antialiasing, False)
    fill = QColor(color)
    fill.setAlphaF(fill_alpha)
    for x, y in cells:
        painter.fillRect(layout.rect(x, y).adjusted(1, 1, 0, 0), fill)
    width = line_width(layout.cell)
    lines = outline_edges(layout, cells)
    under = QPen(BACKGROUND, width + 2)
    under.setCapStyle(Qt.PenCapStyle.SquareCap)
    painter.setPen(under)
    painter.drawLines(lines)
    pen = QPen(color, width)
    pen.setCapStyle(Qt.PenCapStyle.FlatCap if dashed else Qt.PenCapStyle.SquareCap)
    if dashed:
        pen.setDashPattern([2.0, 1.5])
    painter.setPen(pen)
    painter.drawLines(lines)


def badge_rect(layout: WellLayout, cells: Sequence[Cell], text: str, taken: Sequence[QRect] = ()) -> QRect:
    """Where a ghost's badge goes: beside its top row, right of it if there is room in the well,
    else left of it, else below the ghost; clear of the badges already ``taken`` if possible."""
    metrics = QFontMetrics(badge_font(layout.cell))
    width = metrics.horizontalAdvance(text) + round(0.3 * layout.cell)
    height = max(metrics.height() + 2, round(0.62 * layout.cell))
    xs = [x for x, _ in cells]
    ys = [y for _, y in cells]
    top_row = min(ys)
    gap = max(2, round(0.12 * layout.cell))
    y = layout.y_edge(top_row) + (layout.cell - height) // 2
    right = QRect(layout.x_edge(max(xs) + 1) + gap, y, width, height)
    left = QRect(layout.x_edge(min(xs)) - gap - width, y, width, height)
    below = QRect(layout.x_edge(min(xs)), layout.y_edge(max(ys) + 1) + gap, width, height)
    above = QRect(layout.x_edge(min(xs)), layout.y_edge(top_row) - gap - height, width, height)
    well = layout.well_rect()
    options = [rect for rect in (right, left, above, below) if well.contains(rect)] or [right, left]
    for rect in options:
        if not any(rect.intersects(other) for other in taken):
            return rect
    rect = options[0]
    while any(rect.intersects(other) for other in taken) and rect.bottom() < well.bottom():
        rect = rect.translated(0, height + 1)
    return rect


def badge_font(cell: int) -> QFont:
    return _font(0.44 * cell, bold=True)


def paint_badge(painter: QPainter, layout: WellLayout, rect: QRect, text: str, color: QColor) -> None:
    """A rounded label in the ghost's colour with dark text."""
    painter.setRenderHint(QPainter.RenderHint.Antialiasing, True)
    painter.setPen(QPen(BACKGROUND, 1))
    painter.setBrush(color)
    radius = rect.height() / 3
    painter.drawRoundedRect(QRectF(rect), radius, radius)
    painter.setBrush(Qt.BrushStyle.NoBrush)
    painter.setFont(badge_font(layout.cell))
    painter.setPen(BACKGROUND)
    painter.drawText(rect, Qt.AlignmentFlag.AlignCenter, text)


# -- the last turn -------------------------------------------------------------------------------
def paint_turn_marks(painter: QPainter, layout: WellLayout, marks: TurnMarks, strength: float) -> None:
    """The cleared rows (a white band where they were) and the locked piece (a white outline),
    fading with ``strength`` (1 = full, 0 = gone)."""
    if strength <= 0 or not marks:
        return
    painter.setRenderHint(QPainter.RenderHint.Antialiasing, False)
    band = QColor(HIGHLIGHT)
    band.setAlphaF(0.55 * strength)
    for row in marks.cleared_rows:
        painter.fillRect(layout.rect(0, row, layout.columns, 1).adjusted(1, 1, 0, 0), band)
    if marks.locked:
        color = QColor(HIGHLIGHT)
        color.setAlphaF(strength)
        fill = QColor(HIGHLIGHT)
        fill.setAlphaF(0.35 * strength)
        for x, y in marks.locked:
            painter.fillRect(layout.rect(x, y).adjusted(1, 1, 0, 0), fill)
        pen = QPen(color, line_width(layout.cell))
        pen.setCapStyle(Qt.PenCapStyle.SquareCap)
        painter.setPen(pen)
        painter.drawLines(outline_edges(layout, marks.locked))
