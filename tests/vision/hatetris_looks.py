"""Pictures of the official HATETRIS page for the reader's tests, drawn from facts about it
(Kibitz's own view is rendered by ``tests.vision.render``).

There is no real screenshot of HATETRIS in the shared data. The official page's look is known as
facts (shared/specs/hatetris.md section 5 and the page's stylesheet in qntm/hatetris,
``src/components/Well/Well.css``, ``Game.css`` and the reset stylesheet): a white page, the game
50 px in; the well a borderless table of 10 x 20 cells of 20 x 20 px (buffer rows included), empty
cells black, landed rgb(0,162,232), the live piece red, a 1 px red top border on the cells of row 4
(the bar); right of the well, 10 px away, paragraphs in 16 px Arial with 10 px between them
("you're playing HATETRIS by qntm", "AI: ...", "score: N"), and the control buttons below the well.
An earlier version of the page put six white control symbols in the well's top-left cells
(rows 0-1, columns 0-2; its Well component); ``buttons_in_well`` draws those. Shapes are drawn with cv2 at the page's zoom
(``scale`` = device pixels per CSS pixel, edges rounded like a browser's); text is rendered with
Qt, because cv2 has no proportional font, from a font file shipped in assets/fonts (``LOOKS``:
the page's Arial as Arial or Liberation Sans shows it, or DejaVu Sans where Arial is missing),
never from the machine's fonts. The buttons' symbols are DejaVu Sans in both looks (Liberation
Sans lacks three of them, and a browser falls back to such a font).
"""

from __future__ import annotations

import cv2
import numpy as np

from app.gui.capture import image_to_bgr
from assets.fonts import DEJAVU_SANS, LIBERATION_SANS, qt_font
from engines.hatetris.pieces import CELLS, PIECE_INDEX

PAGE_SIZE = (720, 620)  # CSS px, width x height
WELL_ORIGIN = (50, 50)  # .game padding
CELL = 20
BAR_ROW = 4
BLACK = (0, 0, 0)
LANDED_BGR = (232, 162, 0)
LIVE_BGR = (0, 0, 255)
BUTTON_FACE = (239, 239, 239)
BUTTON_EDGE = (118, 118, 118)
LINK_BGR = (238, 0, 0)
#: The page's text in each look: the shipped font file that draws its Arial.
LOOKS = {"Arial as Liberation Sans": LIBERATION_SANS, "DejaVu Sans for a missing Arial": DEJAVU_SANS}
ARIAL_LOOK = LIBERATION_SANS
BUTTON_FONT = DEJAVU_SANS


def live_cells(piece: str, x: int, y: int, o: int) -> list[tuple[int, int]]:
    """The well cells (column, row) of the piece's state (x, y, o), from the spec's piece table."""
    return [(x + cx, y + cy) for cx, cy in CELLS[PIECE_INDEX[piece]][o]]


def expected_cells(well: tuple[int, ...], live: list[tuple[int, int]] = ()) -> list[list[int]]:
    """Rows top to bottom: 1 landed, 2 live, 0 empty."""
    rows = [[1 if row >> x & 1 else 0 for x in range(10)] for row in well]
    for x, y in live:
        rows[y][x] = 2
    return rows


def _text_layer(width: int, height: int, scale: float, paragraphs, links, buttons, font_file: str) -> np.ndarray:
    """White page with the text: ``paragraphs`` = [(x, y, text, bgr)] in CSS px, in the shipped
    font ``font_file``."""
    from PySide6.QtCore import QPoint
    from PySide6.QtGui import QColor, QFontMetrics, QImage, QPainter
    from PySide6.QtWidgets import QApplication

    assert QApplication.instance() is not None, "needs the qapp fixture"
    image = QImage(width, height, QImage.Format.Format_RGB888)
    image.fill(QColor(255, 255, 255))
    painter = QPainter(image)
    painter.setRenderHint(QPainter.RenderHint.TextAntialiasing, True)
    for x, y, text, bgr in paragraphs + links + buttons:
        font = qt_font(font_file, max(4, round(16 * scale)))
        painter.setFont(font)
        painter.setPen(QColor(bgr[2], bgr[1], bgr[0]))
        metrics = QFontMetrics(font)
        painter.drawText(QPoint(round(x * scale), round(y * scale) + metrics.ascent()), text)
        if (x, y, text, bgr) in links:
            underline = round(y * scale) + metrics.ascent() + max(1, round(scale))
            painter.fillRect(round(x * scale), underline, metrics.horizontalAdvance(text), max(1, round(scale)),
                             QColor(bgr[2], bgr[1], bgr[0]))
    painter.end()
    return image_to_bgr(image)


def official_page(well: tuple[int, ...], score: int | None, live: list[tuple[int, int]] = (),
                  scale: float = 1.0, buttons_in_well: bool = False, enemy: str | None = None,
                  font_file: str = ARIAL_LOOK) -> np.ndarray:
    """A screenshot-like BGR image of the official page showing ``well``, the ``live`` cells and
    "score: N" (no score line when ``score`` is None, as before a game starts), its text in the
    shipped font ``font_file`` (a value of ``LOOKS``)."""
    width, height = round(PAGE_SIZE[0] * scale), round(PAGE_SIZE[1] * scale)
    left, top = WELL_ORIGIN
    text_x = left + 10 * CELL + 10
    paragraphs = [(text_x, top + 10, "you're playing HATETRIS by qntm", BLACK)]
    y = top + 10 + 26
    if enemy is not None:
        paragraphs.append((text_x, y, f"AI: {enemy}", BLACK))
        y += 26
    if score is not None:
        paragraphs.append((text_x, y, f"score: {score}", BLACK))
    bottom = top + 20 * CELL
    links = [(text_x, bottom - 3 * 26 + 10, "about", LINK_BGR),
             (text_x, bottom - 2 * 26 + 10, "source code", LINK_BGR),
             (text_x, bottom - 26 + 10, "replays encoded using Base2048", BLACK)]
    symbols = ["\u21b6", "\u27f3", "\u21b7", "\u2190", "\u2193", "\u2192"]
    button_boxes = [(left + 10 + 40 * (i % 3), bottom + 14 + 34 * (i // 3)) for i in range(6)]
    buttons = [(bx + 8, by + 6, symbol, BLACK) for (bx, by), symbol in zip(button_boxes, symbols)]

    page = _text_layer(width, height, scale, paragraphs, links, [], font_file)

    def edge(value: float) -> int:
        return int(round(value * scale))

    for bx, by in button_boxes:  # browser-default buttons under the well
        cv2.rectangle(page, (edge(bx), edge(by)), (edge(bx + 32) - 1, edge(by + 28) - 1), BUTTON_FACE, -1)
        cv2.rectangle(page, (edge(bx), edge(by)), (edge(bx + 32) - 1, edge(by + 28) - 1), BUTTON_EDGE, 1)
    page = np.minimum(page, _text_layer(width, height, scale, [], [], buttons, BUTTON_FONT))

    live = set(live)
    for row in range(20):
        for column in range(10):
            colour = BLACK
            if (column, row) in live:
                colour = LIVE_BGR
            elif well[row] >> column & 1:
                colour = LANDED_BGR
            x0, y0 = edge(left + column * CELL), edge(top + row * CELL)
            x1, y1 = edge(left + (column + 1) * CELL), edge(top + (row + 1) * CELL)
            page[y0:y1, x0:x1] = colour
    bar_top = edge(top + BAR_ROW * CELL)
    page[bar_top:bar_top + max(1, edge(1)), edge(left):edge(left + 10 * CELL)] = LIVE_BGR
    if buttons_in_well:
        for i in range(6):
            column, row = i % 3, i // 3
            cx, cy = edge(left + (column + 0.5) * CELL), edge(top + (row + 0.5) * CELL)
            half = edge(6)
            thickness = max(1, edge(1.5))
            if i in (0, 2):
                cv2.ellipse(page, (cx, cy), (half, half), 0, 200 if i == 0 else -20, 340 if i == 0 else 160,
                            (255, 255, 255), thickness, cv2.LINE_AA)
            elif i == 1:
                cv2.circle(page, (cx, cy), half, (255, 255, 255), thickness, cv2.LINE_AA)
            else:
                direction = {3: (-1, 0), 4: (0, 1), 5: (1, 0)}[i]
                start = (cx - direction[0] * half, cy - direction[1] * half)
                end = (cx + direction[0] * half, cy + direction[1] * half)
                cv2.arrowedLine(page, start, end, (255, 255, 255), thickness, cv2.LINE_AA, tipLength=0.4)
    return page


def with_noise(image: np.ndarray, sigma: float, seed: int) -> np.ndarray:
    noise = np.random.default_rng(seed).normal(0.0, sigma, image.shape)
    return np.clip(image.astype(np.float32) + noise, 0, 255).astype(np.uint8)
