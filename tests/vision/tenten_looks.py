"""Pictures of 1010! positions in the real game's looks, for the reader's tests and the benchmark.

The project has one real screenshot of 1010! (the dark theme, ``shared/data/1010``); the other look
is known as facts (issue 22, ``shared/specs/1010.md`` section 5). Both are drawn here from those
facts, with the truth known by construction:

- **dark**: near-black page #232124, 10 x 10 rounded empty cells #454246 on a pitch of 0.087 of a
  phone's width, filled cells as rounded squares in the game's colours (spec 5), the score, a
  trophy and the best score above the board, the "1010!" logo above them, the tray's three pieces
  under the board at 62 % of its scale, a little darker than on the board.
- **light**: white or near-white page, empty cells light grey #ebebeb, rounded squares in the
  game's palette, tray pieces at about 0.9 of the board's scale (less for a piece too wide for its
  slot), the score at the left and the best score at the right above the board. The phone app's
  default look and the "1010! Deluxe" web page.

Layouts: ``phone`` (portrait, 320 to 1440 px wide, the board 87 % of the width) and ``web`` (a
landscape page 1024 to 3840 px wide with the game in a column in its middle). Shapes are drawn
with cv2 (each rounded square antialiased from a 4x drawing); text with Qt from a font file
shipped in assets/fonts, never the machine's fonts. ``captures(count, seed)`` gives a seeded
series of such pictures, PNG or JPEG (quality 60-95), a third of them resized afterwards (0.55-0.95
or 1.2-1.6), for the tests and the benchmark.
"""

from __future__ import annotations

import dataclasses
import functools
import os
from collections.abc import Iterator
from typing import Any

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import cv2  # noqa: E402
import numpy as np  # noqa: E402

from assets.fonts import CLEAR_SANS, DEJAVU_SANS_BOLD, qt_font  # noqa: E402
from engines.tenten.pieces import BY_LETTER, LETTERS, SIZE  # noqa: E402
from engines.tenten import reference as rules  # noqa: E402
from tests.vision.pictures import jpeg, resized  # noqa: E402

#: The colour family of each piece (spec 5: red 5-bar, yellow 2-bar, purple single confirmed; the
#: others consistent with the real screenshot).
FAMILY = {".": "purple", "i": "yellow", "-": "yellow", "I": "orange", "_": "orange", "v": "pink", "h": "pink",
          "V": "red", "H": "red", "o": "lime", "O": "teal", "r": "green", "l": "green", "j": "green", "t": "green",
          "R": "blue", "L": "blue", "J": "blue", "T": "blue"}


@dataclasses.dataclass(frozen=True)
class Look:
    name: str
    page: tuple[str, ...]  # page colours drawn from (#rrggbb)
    empty: str
    palette: dict[str, str]
    empty_fill: float  # side of an empty cell's square, in pitches
    filled_fill: float
    corner: float  # corner radius, share of the square's side
    tray_scale: float
    tray_shade: float  # tray colours = board colours x this
    score_colour: str
    best_colour: str
    trophy_colour: str
    score_at_left: bool  # light: score at the left, best at the right; dark: both by the trophy


DARK = Look(
    "dark", ("#232124",), "#454246",
    {"blue": "#66c5e6", "green": "#64dc8d", "red": "#d45858", "teal": "#5ae6b4", "pink": "#e05b86",
     "lime": "#9eee5e", "orange": "#e6965a", "yellow": "#d5a42d", "purple": "#848edc"},
    0.9, 0.86, 0.12, 0.62, 0.9, "#a7a88a", "#8fb0c4", "#4fa3d9", False)
LIGHT = Look(
    "light", ("#ffffff", "#fdfdfd", "#fafafa", "#f6f6f6"), "#ebebeb",
    {"blue": "#5cbee4", "green": "#5bcb83", "red": "#dc6554", "teal": "#4dd5b0", "pink": "#e76a82",
     "lime": "#98dc55", "orange": "#ed954b", "yellow": "#fdc535", "purple": "#7e8ed5"},
    0.9, 0.9, 0.18, 0.9, 1.0, "#4a90c8", "#8a8a8a", "#f2b632", True)
LOOKS = {"dark": DARK, "light": LIGHT}
LAYOUTS = ("phone", "web")
#: The share of ``captures`` pictures caught with a piece in mid-drag.
DRAG_SHARE = 0.15


def bgr_of_hex(colour: str, shade: float = 1.0) -> tuple[int, int, int]:
    red, green, blue = (int(colour[i:i + 2], 16) for i in (1, 3, 5))
    return tuple(int(round(v * shade)) for v in (blue, green, red))


@dataclasses.dataclass(frozen=True)
class Position:
    """What a picture shows: per cell the colour family or None, the tray, the scores."""

    colours: tuple[tuple[str | None, ...], ...]
    tray: tuple[str | None, str | None, str | None]
    score: int
    best: int

    @property
    def grid(self) -> list[list[int]]:
        return [[int(colour is not None) for colour in row] for row in self.colours]


def random_position(rng: np.random.Generator, placements: int | None = None) -> Position:
    """A board the rules reach (random pieces at random legal anchors, with the clears), each cell
    keeping the colour of the piece that filled it; a tray of up to three pieces; scores."""
    if placements is None:
        placements = int(rng.integers(0, 70))
    filled = 0
    colours: dict[tuple[int, int], str] = {}
    for _ in range(placements):
        letter = LETTERS[rng.integers(len(LETTERS))]
        anchors = rules.placements(filled, letter)
        if not anchors:
            continue
        row, column = anchors[rng.integers(len(anchors))]
        for r, c in BY_LETTER[letter].cells:
            colours[(row + r, column + c)] = FAMILY[letter]
        filled = rules.place(filled, letter, row, column)[0]
    grid = tuple(tuple(colours[(r, c)] if filled >> (SIZE * r + c) & 1 else None for c in range(SIZE))
                 for r in range(SIZE))
    tray = tuple(None if rng.random() < 0.2 else LETTERS[rng.integers(len(LETTERS))] for _ in range(3))
    score = int(rng.choice([rng.integers(0, 100), rng.integers(100, 10_000), rng.integers(10_000, 1_000_000)]))
    best = score + int(rng.integers(0, 50_000))
    return Position(grid, tray, score, best)


# -- drawing ----------------------------------------------------------------------------------------
@functools.lru_cache(maxsize=256)
def _rounded_square(side: int, corner: float) -> np.ndarray:
    """Coverage (float32, side x side, 0..1) of a square with rounded corners, from a 4x drawing."""
    big = 4 * side
    radius = max(1, round(corner * big))
    mask = np.zeros((big, big), np.uint8)
    cv2.rectangle(mask, (radius, 0), (big - 1 - radius, big - 1), 255, -1)
    cv2.rectangle(mask, (0, radius), (big - 1, big - 1 - radius), 255, -1)
    for cx in (radius, big - 1 - radius):
        for cy in (radius, big - 1 - radius):
            cv2.circle(mask, (cx, cy), radius, 255, -1)
    return cv2.resize(mask, (side, side), interpolation=cv2.INTER_AREA).astype(np.float32) / 255


def _paint(canvas: np.ndarray, x: float, y: float, side: float, colour: tuple[int, int, int], corner: float) -> None:
    """A rounded square of ``side`` px centred at (x, y)."""
    size = max(1, int(round(side)))
    x0, y0 = int(round(x - size / 2)), int(round(y - size / 2))
    alpha = _rounded_square(size, corner)
    h, w = canvas.shape[:2]
    cx0, cy0, cx1, cy1 = max(0, x0), max(0, y0), min(w, x0 + size), min(h, y0 + size)
    if cx1 <= cx0 or cy1 <= cy0:
        return
    a = alpha[cy0 - y0:cy1 - y0, cx0 - x0:cx1 - x0, None]
    region = canvas[cy0:cy1, cx0:cx1].astype(np.float32)
    canvas[cy0:cy1, cx0:cx1] = np.round(region * (1 - a) + np.float32(colour) * a).astype(np.uint8)


def _qt_app():
    # a QApplication, not a bare QGuiApplication: the same process may draw Kibitz's own views
    from PySide6.QtWidgets import QApplication

    return QApplication.instance() or QApplication([])


def _text_mask(text: str, font_file: str, pixels: float) -> np.ndarray:
    """Coverage (float32 0..1) of ``text`` in a shipped font, cut to its ink."""
    from PySide6.QtCore import QPoint
    from PySide6.QtGui import QColor, QFontMetrics, QImage, QPainter

    _qt_app()
    font = qt_font(font_file, max(4, pixels))
    metrics = QFontMetrics(font)
    width, height = metrics.horizontalAdvance(text) + 4, metrics.height() + 4
    image = QImage(width, height, QImage.Format.Format_Grayscale8)
    image.fill(QColor(0, 0, 0))
    painter = QPainter(image)
    painter.setRenderHint(QPainter.RenderHint.TextAntialiasing, True)
    painter.setFont(font)
    painter.setPen(QColor(255, 255, 255))
    painter.drawText(QPoint(2, 2 + metrics.ascent()), text)
    painter.end()
    stride = image.bytesPerLine()
    mask = np.frombuffer(image.constBits(), np.uint8, count=stride * height).reshape(height, stride)[:, :width]
    mask = mask.astype(np.float32) / 255
    rows, columns = np.nonzero(mask.max(axis=1) > 0.1)[0], np.nonzero(mask.max(axis=0) > 0.1)[0]
    if not len(rows):
        return np.zeros((1, 1), np.float32)
    return mask[rows[0]:rows[-1] + 1, columns[0]:columns[-1] + 1].copy()


def _stamp(canvas: np.ndarray, mask: np.ndarray, x: float, y: float, colour: tuple[int, int, int],
           anchor: str = "left") -> tuple[int, int, int, int]:
    """Blend a coverage mask into the canvas with its ink's top at y and its left (``anchor``
    "left"), right ("right") or middle ("middle") at x; returns its box."""
    h, w = mask.shape
    x0 = int(round(x - {"left": 0, "right": w, "middle": w / 2}[anchor]))
    y0 = int(round(y))
    H, W = canvas.shape[:2]
    cx0, cy0, cx1, cy1 = max(0, x0), max(0, y0), min(W, x0 + w), min(H, y0 + h)
    if cx1 > cx0 and cy1 > cy0:
        a = mask[cy0 - y0:cy1 - y0, cx0 - x0:cx1 - x0, None]
        region = canvas[cy0:cy1, cx0:cx1].astype(np.float32)
        canvas[cy0:cy1, cx0:cx1] = np.round(region * (1 - a) + np.float32(colour) * a).astype(np.uint8)
    return x0, y0, x0 + w, y0 + h


def _digits(text: str, height: float) -> np.ndarray:
    """The score's digits in Clear Sans (shipped) with their ink ``height`` px tall."""
    mask = _text_mask(text, CLEAR_SANS, height * 1.0 / 0.72)  # Clear Sans digits are 0.72 em tall
    if mask.shape[0] != round(height) and mask.shape[0] > 1:
        width = max(1, round(mask.shape[1] * height / mask.shape[0]))
        mask = cv2.resize(mask, (width, max(1, round(height))), interpolation=cv2.INTER_AREA)
    return mask


def _trophy(canvas: np.ndarray, x: float, y: float, height: float, colour: tuple[int, int, int]) -> None:
    """A cup with handles on a stem and a base, ``height`` px tall, top middle at (x, y); drawn 4x."""
    size = max(4, int(round(height)))
    big = 4 * size
    mask = np.zeros((big, big), np.uint8)
    cup = np.array([[0.15, 0.0], [0.85, 0.0], [0.78, 0.45], [0.55, 0.62], [0.45, 0.62], [0.22, 0.45]]) * big
    cv2.fillPoly(mask, [cup.astype(np.int32)], 255)
    cv2.ellipse(mask, (int(0.12 * big), int(0.2 * big)), (int(0.1 * big), int(0.14 * big)), 0, 90, 270, 255,
                max(1, big // 16))
    cv2.ellipse(mask, (int(0.88 * big), int(0.2 * big)), (int(0.1 * big), int(0.14 * big)), 0, -90, 90, 255,
                max(1, big // 16))
    cv2.rectangle(mask, (int(0.45 * big), int(0.6 * big)), (int(0.55 * big), int(0.82 * big)), 255, -1)
    cv2.rectangle(mask, (int(0.25 * big), int(0.82 * big)), (int(0.75 * big), big - 1), 255, -1)
    small = cv2.resize(mask, (size, size), interpolation=cv2.INTER_AREA).astype(np.float32) / 255
    _stamp(canvas, small, x, y, colour, "middle")


def _logo(canvas: np.ndarray, x: float, y: float, height: float) -> None:
    """"1010!" in the game's logo colours, ``height`` px tall, top middle at (x, y)."""
    colours = ["#4fa3d9", "#ed954b", "#dc6554", "#5bcb83", "#fdc535"]
    masks = [_text_mask(ch, DEJAVU_SANS_BOLD, height / 0.73) for ch in "1010!"]
    widths = [m.shape[1] for m in masks]
    gap = 0.12 * height
    left = x - (sum(widths) + gap * 4) / 2
    for mask, colour, width in zip(masks, colours, widths):
        _stamp(canvas, mask, left, y, bgr_of_hex(colour))
        left += width + gap


@dataclasses.dataclass(frozen=True)
class Frame:
    """Where a picture puts the game: image size, board top-left and pitch (px)."""

    width: int
    height: int
    left: float
    top: float
    pitch: float


def frame_for(layout: str, width: int) -> Frame:
    if layout == "phone":
        height = round(width * 16 / 9)
        pitch = 0.087 * width
        return Frame(width, height, (width - 10 * pitch) / 2, 0.24 * height, pitch)
    if layout == "web":
        height = round(width * 9 / 16)
        pitch = height / 22
        return Frame(width, height, (width - 10 * pitch) / 2, 5.6 * pitch, pitch)
    raise ValueError(f"layout {layout!r} is not one of {', '.join(LAYOUTS)}")


def draw(position: Position, look: Look | str, layout: str = "phone", width: int = 540,
         page: str | None = None, dragged: tuple[str, float, float] | None = None
         ) -> tuple[np.ndarray, dict[str, Any]]:
    """The picture (BGR) of ``position`` in ``look`` and its truth: grid, tray, score, best, where
    the board is and the tray pieces' scale. ``dragged``: (letter, column, row) of a piece in
    mid-drag, drawn at the board's scale over it with its top-left cell's middle at that (fractional)
    column and row; the truth then lists the board cells it hides part of (``covered``)."""
    look = LOOKS[look] if isinstance(look, str) else look
    frame = frame_for(layout, width)
    page = page or look.page[0]
    canvas = np.empty((frame.height, frame.width, 3), np.uint8)
    canvas[:] = bgr_of_hex(page)
    p, left, top = frame.pitch, frame.left, frame.top
    side = 10 * p
    for r in range(SIZE):
        for c in range(SIZE):
            x, y = left + (c + 0.5) * p, top + (r + 0.5) * p
            family = position.colours[r][c]
            _paint(canvas, x, y, look.empty_fill * p, bgr_of_hex(look.empty), look.corner)
            if family is not None:
                _paint(canvas, x, y, look.filled_fill * p, bgr_of_hex(look.palette[family]), look.corner)

    # the tray: three slots under the board, each piece centred in its slot
    tray_width = min(frame.width, side + 2 * p) if look is LIGHT else side
    tray_left = left + side / 2 - tray_width / 2
    slot_width = tray_width / 3
    tray_middle = top + side + (3.4 if look is LIGHT else 3.3) * p
    tray_scales = []
    for slot, letter in enumerate(position.tray):
        if letter is None:
            tray_scales.append(None)
            continue
        piece = BY_LETTER[letter]
        scale = min(look.tray_scale, 0.92 * slot_width / (piece.width * p))
        tray_scales.append(round(scale, 3))
        q = scale * p
        middle_x = tray_left + (slot + 0.5) * slot_width
        colour = bgr_of_hex(look.palette[FAMILY[letter]], look.tray_shade)
        for r, c in piece.cells:
            x = middle_x + (c + 0.5 - piece.width / 2) * q
            y = tray_middle + (r + 0.5 - piece.height / 2) * q
            _paint(canvas, x, y, look.filled_fill * q, colour, look.corner)

    covered = []
    if dragged is not None:
        letter, column, row = dragged
        colour = bgr_of_hex(look.palette[FAMILY[letter]])
        side_px = look.filled_fill * p
        boxes = []
        for r, c in BY_LETTER[letter].cells:
            x, y = left + (column + c + 0.5) * p, top + (row + r + 0.5) * p
            _paint(canvas, x, y, side_px, colour, look.corner)
            boxes.append((x - side_px / 2, y - side_px / 2, x + side_px / 2, y + side_px / 2))
        for r in range(SIZE):
            for c in range(SIZE):
                cell = (left + c * p, top + r * p, left + (c + 1) * p, top + (r + 1) * p)
                if any(min(b[2], cell[2]) > max(b[0], cell[0]) and min(b[3], cell[3]) > max(b[1], cell[1])
                       for b in boxes):
                    covered.append([r, c])

    # the header: logo, score, trophy, best
    digit_height = 0.62 * p
    digits_top = top - 1.9 * p - digit_height / 2
    middle = left + side / 2
    score_mask, best_mask = _digits(str(position.score), digit_height), _digits(str(position.best), digit_height)
    if look.score_at_left:
        _stamp(canvas, score_mask, left + 0.1 * p, digits_top, bgr_of_hex(look.score_colour))
        _trophy(canvas, left + side - 0.1 * p - best_mask.shape[1] - 0.75 * p, digits_top - 0.2 * p, 0.85 * p,
                bgr_of_hex(look.trophy_colour))
        _stamp(canvas, best_mask, left + side - 0.1 * p, digits_top, bgr_of_hex(look.best_colour), "right")
    else:
        _stamp(canvas, score_mask, middle - 0.7 * p, digits_top, bgr_of_hex(look.score_colour), "right")
        _trophy(canvas, middle, digits_top - 0.15 * p, 0.85 * p, bgr_of_hex(look.trophy_colour))
        _stamp(canvas, best_mask, middle + 0.7 * p, digits_top, bgr_of_hex(look.best_colour))
    _logo(canvas, middle, top - 4.4 * p, 1.0 * p)
    # the pause button: two bars at the top right, level with the logo
    bar = bgr_of_hex("#9a9a9a")
    for dx in (-0.75, -0.35):
        x0 = int(round(left + side + dx * p))
        cv2.rectangle(canvas, (x0, int(round(top - 4.4 * p))),
                      (x0 + max(1, int(round(0.22 * p))), int(round(top - 3.5 * p))), bar, -1)

    truth = {
        "grid": position.grid,
        "tray": list(position.tray),
        "score": position.score,
        "best": position.best,
        "colours": [list(row) for row in position.colours],
        "board_px": {"left": round(left, 2), "top": round(top, 2), "right": round(left + side, 2),
                     "bottom": round(top + side, 2), "cell_pitch": round(p, 3)},
        "tray_scales": tray_scales,
    }
    if dragged is not None:
        truth["dragged"] = {"piece": dragged[0], "column": dragged[1], "row": dragged[2], "covered": covered}
    return canvas, truth



def random_render(rng: np.random.Generator, theme: str | None = None, layout: str | None = None
                  ) -> tuple[np.ndarray, dict[str, Any], str]:
    """One seeded picture: a random position, look, layout, size and compression."""
    theme = theme or ("dark", "light")[int(rng.integers(2))]
    layout = layout or LAYOUTS[int(rng.integers(2))]
    look = LOOKS[theme]
    low, high = (320, 1440) if layout == "phone" else (1024, 3840)
    width = int(round(np.exp(rng.uniform(np.log(low), np.log(high)))))
    page = look.page[int(rng.integers(len(look.page)))]
    quality = None if rng.random() < 0.4 else int(rng.integers(60, 96))
    position = random_position(rng)
    dragged = None
    slots = [slot for slot, letter in enumerate(position.tray) if letter is not None]
    if slots and rng.random() < DRAG_SHARE:
        # a piece in mid-drag: out of its slot, over the board off the grid's steps
        slot = slots[int(rng.integers(len(slots)))]
        letter = position.tray[slot]
        piece = BY_LETTER[letter]
        column = float(rng.uniform(-0.4, SIZE - piece.width + 0.4))
        row = float(rng.uniform(-0.4, SIZE - piece.height + 0.4))
        if min(abs(column - round(column)), abs(row - round(row))) < 0.2:
            column = np.floor(column) + float(rng.uniform(0.2, 0.8))
        dragged = (letter, column, row)
        tray = tuple(None if k == slot else t for k, t in enumerate(position.tray))
        position = dataclasses.replace(position, tray=tray)
    image, truth = draw(position, look, layout, width, page, dragged)
    # a third of the pictures are shared at another size than they were taken (mostly smaller)
    factor = 1.0
    if rng.random() < 1 / 3:
        factor = float(rng.uniform(0.55, 0.95) if rng.random() < 0.75 else rng.uniform(1.2, 1.6))
        image = resized(image, factor)
        truth["board_px"] = {key: round(value * factor, 2) for key, value in truth["board_px"].items()}
    image = jpeg(image, quality)
    label = f"{theme} {layout}"
    truth.update(look=theme, layout=layout, width=image.shape[1], drawn_width=width, resized=round(factor, 3),
                 format="png" if quality is None else f"jpeg q{quality}")
    return image, truth, label



def captures(count: int, seed: int = 0) -> Iterator[tuple[np.ndarray, dict[str, Any], str]]:
    """``count`` seeded pictures as (BGR image, truth, look label "dark phone" / "light web" ...),
    the looks taking turns. The truth: ``grid`` (10 x 10 of 0/1), ``tray`` (three letters or
    None), ``score``, ``best``, ``board_px``, ``format``."""
    rng = np.random.default_rng(seed)
    combos = [(theme, layout) for theme in LOOKS for layout in LAYOUTS]
    for index in range(count):
        theme, layout = combos[index % len(combos)]
        yield random_render(rng, theme, layout)


def judge(reading, truth: dict[str, Any]) -> dict[str, int]:
    """How a reading of a picture of ``captures`` fares against its truth, as counts to add up:
    cells right / wrong / wrong and not marked doubtful, the board exact (and exact among pictures
    with no piece in mid-drag), the tray and the score right, or wrong without their doubtful
    field, the reading sure."""
    from vision.reading import DOUBTFUL_BELOW

    wrong = np.array(reading.cells["grid"]) != np.array(truth["grid"])
    unflagged = wrong & (reading.per_cell_confidence >= DOUBTFUL_BELOW)
    tray_right = reading.cells["tray"] == truth["tray"]
    score_right = reading.diagnostics.get("score") == truth["score"]
    return {
        "pictures": 1,
        "cells_right": int((~wrong).sum()),
        "cells_wrong": int(wrong.sum()),
        "cells_wrong_not_doubtful": int(unflagged.sum()),
        "boards_exact": int(not wrong.any()),
        # a piece in mid-drag hides cells: those pictures apart
        "dragged": int("dragged" in truth),
        "boards_exact_not_dragged": int(not wrong.any() and "dragged" not in truth),
        "tray_right": int(tray_right),
        "tray_wrong_not_doubtful": int(not tray_right and "tray" not in reading.doubtful_fields),
        "score_right": int(score_right),
        "score_wrong_not_doubtful": int(not score_right and "score" not in reading.doubtful_fields),
        "sure": int(reading.sure),
    }
