"""HATETRIS board reader: the landed cells, the live piece and the score, from a screenshot of
qntm's official page or of Kibitz's own HATETRIS view (spec section 5).

What the two looks share (facts from the spec and the official page's stylesheet): a well of
10 x 20 square cells (the four buffer rows included), empty cells black, landed cells
rgb(0, 162, 232) (a 2010 version of the page used plain blue), the live piece red, a thin red line
on top of row 4 (the bar), and "score: N" to the right of the well. The official well is a black
table on a white page with no border and no cell grid; Kibitz's view draws it on black with a
faint grey grid.

How it reads:

1. **Colours.** Every pixel is labelled empty / landed / live / other by its nearest reference
   colour in Lab (a 32 x 32 x 32 look-up table built once), "other" when it is far from all.
2. **The well.** Three finders, each using the well's known 10 x 20 shape:
   *frame*: a connected block of well-coloured pixels whose bounding box is twice as tall as
   wide and filled (the official page: black, blue and red cells against the page);
   *grid*: 11 evenly spaced faint grey vertical lines and 21 horizontal ones (Kibitz's view,
   whose well is as black as its surroundings);
   *bar*: a red line ten cells long, the top of row 4 (when nothing else stands out, e.g. a
   dark page around the official well).
   An empty official well shows no cell boundary, so the pitch comes from the frame's size
   (width / 10, height / 20), not from edges inside it. A candidate must show the bar (a line
   at the top of row 4 redder than the cells under it); among those, the one whose cells read
   most cleanly wins.
3. **Cells.** Each cell's central patch (60 % of the pitch each way, clear of grid lines and of
   the bar) votes with its pixels' labels; the cell takes the majority, and its confidence is the
   margin between the two largest shares (pixels of no reference colour count half against it).
   When the engine rejects the cells read (a cell count no score allows, a full row), the
   fewest flips of doubtful cells that it accepts are made; they stay doubtful.
4. **The live piece**: the live cells must be the four cells of one orientation of one piece;
   the piece and every (x, y, o) that covers those cells (S, Z and I have two, spec 1.2) go to the
   diagnostics. Kibitz's state has no live-piece position: the state is the landed well with the
   live piece as the piece to place (``cells`` marks the live cells 2).
5. **The score**, "score: N" right of the well, is read with digit templates
   (``assets/vision/hatetris/digits.png``, rendered from fonts by ``make_templates.py``).

``previous``, when given, settles doubtful cells with the well it had or one of the wells its
piece can lock into (one lock and its line clears), and gives the score when the page's could
not be read.
"""

from __future__ import annotations

import dataclasses
import functools
import itertools
import time
from importlib import resources
from typing import Any

import cv2
import numpy as np

from engines import GAMES
from engines.errors import NotationError
from engines.hatetris import reference
from engines.hatetris.pieces import CELLS, PIECE_INDEX, PIECES
from engines.hatetris.state import BAR, DEFAULT_RULES, State
from vision.colour import components, label_table, labels, shrink_to, srgb_to_lab
from vision.grid import even_lines, run_centres
from vision.images import board_image
from vision.reading import DOUBTFUL_BELOW, CellGrid, NoBoardFound, Reading

GAME = "hatetris"
COLUMNS, ROWS = DEFAULT_RULES.width, DEFAULT_RULES.depth

# Cell classes, as in ``Reading.cells``; OTHER is a pixel of none of the well's colours.
EMPTY, LANDED, LIVE, OTHER = 0, 1, 2, 3
#: Reference colours (RGB) of each class: the official stylesheet's black, rgb(0,162,232) and
#: red (also Kibitz's view), and the blue of the 2010 page's landed cells.
REFERENCE_RGB = {
    EMPTY: ((0, 0, 0),),
    LANDED: ((0, 162, 232), (0, 0, 255)),
    LIVE: ((255, 0, 0),),
}
#: A pixel farther than this (CIE76 delta E) from every reference colour is OTHER.
MATCH_DISTANCE = 30.0

#: Images with more pixels are shrunk to this many first (for speed; the well stays large).
WORK_PIXELS = 2_200_000
#: The frame finder looks for blocks on an overview of at most this many pixels.
FRAME_PIXELS = 500_000
#: The smallest readable cell, in working pixels.
MIN_PITCH = 5.0
#: The part of a cell that is sampled: this fraction of the pitch is left out on each side.
INSET = 0.2
#: An edge inside the well more than this share of a pitch from every cell boundary is off the grid.
EDGE_SLACK = 0.2
#: Height over width of the well's frame (20 rows of 10 square cells), and the tolerance.
WELL_ASPECT = ROWS / COLUMNS
ASPECT_TOLERANCE = 0.08
#: A candidate well is a board when this share of its cells read with a clear majority.
CLEAR_SHARE = 0.5
MIN_CLEAR_CELLS = 0.9
#: How much the pixels of no well colour in a cell's patch count against its confidence.
OTHER_WEIGHT = 0.5
#: The bar must look redder than the cell under it (by this much red minus max(green, blue), of
#: 255) in this share of the columns.
BAR_REDNESS = 25
MIN_BAR_SHARE = 0.7
#: Kibitz's grid lines are grey 26 on black; pixels with every channel in this range count as grid.
GRID_GREY = (12, 56)
#: The bar finder's red: BGR bounds.
RED_LOW, RED_HIGH = (0, 0, 160), (90, 90, 255)
#: The bar finder looks at no more than this many rows with a long red run.
MAX_BAR_ROWS = 200

#: When the engine rejects the cells read, up to MAX_FLIPS of the MAX_FLIPPED_CANDIDATES least
#: sure cells are tried the other way.
MAX_FLIPS = 2
MAX_FLIPPED_CANDIDATES = 6

#: Digit templates: each is TEMPLATE_HEIGHT high and TEMPLATE_WIDTH wide, ink white on black.
TEMPLATE_HEIGHT, TEMPLATE_WIDTH = 24, 20
#: A glyph is read as a digit when its best template correlates at least this well.
DIGIT_MATCH = 0.6
#: Pieces of small print cut wherever they match best must each match at least this well (so
#: many ways of cutting find a poor match more easily).
CUT_DIGIT_MATCH = 0.7
#: Digits fewer pixels high than this are not read (their score is doubtful).
SMALLEST_DIGIT = 7
#: Digits touching in small print: a glyph wider than MOST_DIGIT_WIDTH times its height holds
#: more than one; it is cut at columns of at most THIN_JOIN of its fullest column's ink, at least
#: DIGIT_SPACING of its height apart.
MOST_DIGIT_WIDTH = 1.05
THIN_JOIN = 0.2
DIGIT_SPACING = 0.4
#: Digits at most this many pixels high are small print: touching ones may be cut wherever the
#: pieces match best.
SMALL_PRINT = 16


@dataclasses.dataclass(frozen=True)
class WellGeometry:
    """Where the well is, in working-image pixels: its top-left corner and the cell pitch."""

    left: float
    top: float
    pitch_x: float
    pitch_y: float
    found_by: str  # "frame", "grid" or "bar"

    @property
    def right(self) -> float:
        return self.left + COLUMNS * self.pitch_x

    @property
    def bottom(self) -> float:
        return self.top + ROWS * self.pitch_y

    def patch_edges(self) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """Pixel bounds of every cell's central patch: x0, x1 per column; y0, y1 per row."""
        columns = np.arange(COLUMNS)
        rows = np.arange(ROWS)
        x0 = np.floor(self.left + (columns + INSET) * self.pitch_x).astype(int)
        x1 = np.ceil(self.left + (columns + 1 - INSET) * self.pitch_x).astype(int)
        y0 = np.floor(self.top + (rows + INSET) * self.pitch_y).astype(int)
        y1 = np.ceil(self.top + (rows + 1 - INSET) * self.pitch_y).astype(int)
        return x0, np.maximum(x1, x0 + 1), y0, np.maximum(y1, y0 + 1)

    def scaled(self, factor: float) -> dict[str, Any]:
        """The geometry in the caller's image pixels (the working copy was shrunk by ``factor``)."""
        return {"left": round(float(self.left) / factor, 1), "top": round(float(self.top) / factor, 1),
                "cell_width": round(float(self.pitch_x) / factor, 2),
                "cell_height": round(float(self.pitch_y) / factor, 2), "found_by": self.found_by}


@dataclasses.dataclass(frozen=True)
class CellVotes:
    """The cells of one candidate well: class, confidence and the share of the winning class."""

    classes: np.ndarray      # ROWS x COLUMNS of EMPTY / LANDED / LIVE
    confidence: np.ndarray   # margin between the two largest shares (see _vote), in [0, 1]
    share: np.ndarray        # share of the winning class among the patch's pixels

    @property
    def quality(self) -> float:
        return float(self.share.mean())

    @property
    def clear_cells(self) -> float:
        return float((self.share >= CLEAR_SHARE).mean())


# -- colours -------------------------------------------------------------------------------------
def _classify(lab: np.ndarray) -> np.ndarray:
    """The class of each Lab colour: the nearest reference colour within MATCH_DISTANCE, else OTHER."""
    best = np.full(lab.shape[0], np.inf)
    classes = np.full(lab.shape[0], OTHER, dtype=np.uint8)
    for cls, colours in REFERENCE_RGB.items():
        for colour in colours:
            distance = np.linalg.norm(lab - srgb_to_lab(np.array(colour) / 255.0), axis=1)
            closer = (distance < best) & (distance <= MATCH_DISTANCE)
            classes[closer] = cls
            best = np.where(closer, distance, best)
    return classes


@functools.lru_cache(maxsize=1)
def _label_table() -> np.ndarray:
    return label_table(_classify)


def colour_labels(bgr: np.ndarray) -> np.ndarray:
    """EMPTY / LANDED / LIVE / OTHER for every pixel of a BGR image."""
    return labels(bgr, _label_table())


# -- finding the well ----------------------------------------------------------------------------
def _frame_candidates(bgr: np.ndarray) -> list[WellGeometry]:
    """Blocks of well-coloured pixels shaped like the well: twice as tall as wide and filled.

    The blocks are found on an overview of at most FRAME_PIXELS (for speed), then each edge is
    placed on the full image. A row boundary across the whole well where every cell changes
    colour, or the 1 px bar once a screenshot is scaled, blends into colours of no class; so
    blocks of the same left and right edges separated by such a seam are joined first."""
    overview, block = shrink_to(bgr, FRAME_PIXELS)
    mask = (colour_labels(overview) != OTHER).astype(np.uint8)
    count, _, stats, _ = components(mask, connectivity=4)
    blocks = sorted(stats[1:count].tolist(), key=lambda s: s[1])
    stacks: list[list[int]] = []  # [left, top, width, height, area]
    for left, top, width, height, area in blocks:
        if width * block < COLUMNS * MIN_PITCH:
            continue
        tolerance = max(2, 0.03 * width)
        seam = max(3, 0.3 * width / COLUMNS)
        for stack in stacks:
            if abs(stack[0] - left) <= tolerance and abs(stack[0] + stack[2] - left - width) <= tolerance \
                    and top - (stack[1] + stack[3]) <= seam:
                right = max(stack[0] + stack[2], left + width)
                stack[0] = min(stack[0], left)
                stack[2] = right - stack[0]
                stack[3] = max(stack[1] + stack[3], top + height) - stack[1]
                stack[4] += area
                break
        else:
            stacks.append([left, top, width, height, area])
    # A top or bottom row whose cells all differ from their neighbours' (a row of alternate landed
    # and empty cells) is cut apart by the blends between its cells into narrow blocks; each block
    # inside a stack's columns and touching it extends the stack. Text under the well can touch it
    # too at small scales, so the stacks before this step stay candidates.
    grown = [list(stack) for stack in stacks]
    for stack in grown:
        tolerance = max(2, 0.03 * stack[2])
        seam = max(3, 0.3 * stack[2] / COLUMNS)
        changed = True
        while changed:
            changed = False
            for left, top, width, height, _ in blocks:
                bottom = stack[1] + stack[3]
                if left >= stack[0] - tolerance and left + width <= stack[0] + stack[2] + tolerance \
                        and top <= bottom + seam and top + height >= stack[1] - seam \
                        and (top < stack[1] or top + height > bottom):
                    stack[3] = max(bottom, top + height) - min(stack[1], top)
                    stack[1] = min(stack[1], top)
                    changed = True
    stacks += [stack for stack in grown if stack not in stacks]
    found = []
    for left, top, width, height, area in stacks:
        if height * block < ROWS * MIN_PITCH or abs(height / width / WELL_ASPECT - 1) > ASPECT_TOLERANCE:
            continue
        # the fill counts every well-coloured pixel in the box: at small scales the blends between
        # cells of different colours cut a busy stack into several blocks
        if mask[top:top + height, left:left + width].sum() < 0.8 * width * height:
            continue
        box = (left * block, top * block, (left + width) * block, (top + height) * block)
        x0, y0, x1, y1 = _refined_box(bgr, box, block) if block > 1 else box
        found.append(WellGeometry(float(x0), float(y0), (x1 - x0) / COLUMNS, (y1 - y0) / ROWS, "frame"))
    return found


def _refined_box(bgr: np.ndarray, box: tuple[int, int, int, int], block: int) -> tuple[int, int, int, int]:
    """A box found on the overview, its edges moved to where the full image's columns and rows
    become mostly well-coloured (within a block and a pixel)."""
    x0, y0, x1, y1 = box
    reach = block + 1
    left, top = max(0, x0 - reach), max(0, y0 - reach)
    mask = colour_labels(bgr[top:y1 + reach, left:x1 + reach]) != OTHER
    x0, x1, y0, y1 = x0 - left, x1 - left, y0 - top, y1 - top
    columns = mask[y0 + (y1 - y0) // 10:y1 - (y1 - y0) // 10].mean(axis=0) >= 0.5
    rows = mask[:, x0 + (x1 - x0) // 10:x1 - (x1 - x0) // 10].mean(axis=1) >= 0.5

    def first(flags: np.ndarray, start: int, stop: int) -> int:
        start, stop = max(0, start), min(len(flags), stop)
        hits = np.flatnonzero(flags[start:stop])
        return start + int(hits[0]) if len(hits) else start

    def last(flags: np.ndarray, start: int, stop: int) -> int:
        start, stop = max(0, start), min(len(flags), stop)
        hits = np.flatnonzero(flags[start:stop])
        return start + int(hits[-1]) + 1 if len(hits) else stop

    return (left + first(columns, x0 - reach, x0 + reach), top + first(rows, y0 - reach, y0 + reach),
            left + last(columns, x1 - reach, x1 + reach), top + last(rows, y1 - reach, y1 + reach))


def _bar_candidates(bgr: np.ndarray) -> list[WellGeometry]:
    """Wells placed by their bar alone: a thin red line ten cells long (red well above and below
    it would be a block, e.g. a live piece, not a line). For wells whose frame does not stand
    out: a dark page around the official well."""
    red = cv2.inRange(bgr, RED_LOW, RED_HIGH)
    counts = cv2.reduce(red, 1, cv2.REDUCE_SUM, dtype=cv2.CV_32S).ravel() // 255
    found: list[WellGeometry] = []
    for row in np.flatnonzero(counts >= COLUMNS * MIN_PITCH)[:MAX_BAR_ROWS]:
        start, end = max(_runs(red[row] > 0), key=lambda run: run[1] - run[0])
        pitch = (end - start) / COLUMNS
        if end - start < COLUMNS * MIN_PITCH:
            continue
        reach = max(2, round(0.35 * pitch))
        if any(not 0 <= row + step < len(counts) or (red[row + step, start:end] > 0).mean() >= 0.6
               for step in (-reach, reach)):
            continue
        top = row - BAR * pitch
        if any(abs(other.left - start) <= 1 and abs(other.top - top) <= 0.3 * pitch for other in found):
            continue  # the same bar, a pixel row lower
        found.append(WellGeometry(float(start), float(top), pitch, pitch, "bar"))
    return found


def _grid_candidates(bgr: np.ndarray) -> list[WellGeometry]:
    """Kibitz's view: 11 x 21 faint grey grid lines, evenly spaced."""
    mask = cv2.inRange(bgr, (GRID_GREY[0],) * 3, (GRID_GREY[1],) * 3)
    column_counts = cv2.reduce(mask, 0, cv2.REDUCE_SUM, dtype=cv2.CV_32S).ravel() // 255
    row_counts = cv2.reduce(mask, 1, cv2.REDUCE_SUM, dtype=cv2.CV_32S).ravel() // 255
    if column_counts.max() < ROWS * MIN_PITCH * 0.5:
        return []
    columns = run_centres(column_counts, max(ROWS * MIN_PITCH * 0.5, 0.35 * column_counts.max()))
    rows = run_centres(row_counts, max(COLUMNS * MIN_PITCH * 0.5, 0.35 * row_counts.max()))
    if len(columns) < COLUMNS or len(rows) < ROWS - 1 or len(columns) > 60 or len(rows) > 90:
        return []
    vertical = even_lines(columns, COLUMNS + 1, MIN_PITCH)
    horizontal = even_lines(rows, ROWS + 1, MIN_PITCH)
    if vertical is None or horizontal is None:
        return []
    (left, pitch_x, hits_x), (top, pitch_y, hits_y) = vertical, horizontal
    if hits_x < COLUMNS or hits_y < ROWS - 1 or abs(pitch_x / pitch_y - 1) > 0.1:
        return []
    # a line is a pixel wide: the cell starts right of it
    return [WellGeometry(left + 0.5, top + 0.5, pitch_x, pitch_y, "grid")]


def _vote(bgr: np.ndarray, geometry: WellGeometry) -> CellVotes:
    """Each cell's class by the majority of its central patch's pixel labels."""
    x0, x1, y0, y1 = geometry.patch_edges()
    height, width = bgr.shape[:2]
    x0, x1 = np.clip(x0, 0, width), np.clip(x1, 0, width)
    y0, y1 = np.clip(y0, 0, height), np.clip(y1, 0, height)
    left, top = x0[0], y0[0]
    window = colour_labels(bgr[top:y1[-1], left:x1[-1]])
    x0, x1, y0, y1 = x0 - left, x1 - left, y0 - top, y1 - top
    counts = np.zeros((4, ROWS, COLUMNS))
    for cls in (EMPTY, LANDED, LIVE):
        integral = cv2.integral((window == cls).astype(np.uint8))
        counts[cls] = (integral[np.ix_(y1, x1)] - integral[np.ix_(y0, x1)]
                       - integral[np.ix_(y1, x0)] + integral[np.ix_(y0, x0)])
    area = np.outer(y1 - y0, x1 - x0).astype(float)
    area[area == 0] = 1.0
    shares = counts[:3] / area
    order = np.sort(shares, axis=0)
    classes = shares.argmax(axis=0)
    share = order[-1]
    # pixels of no well colour (a symbol drawn on the cell, a blend) weigh half a vote against
    other = np.clip(1.0 - shares.sum(axis=0), 0.0, 1.0)
    confidence = np.clip((order[-1] - order[-2]) / (order[-1] + order[-2] + OTHER_WEIGHT * other + 1e-9), 0.0, 1.0)
    return CellVotes(classes.astype(np.int8), confidence, share)


def misaligned_edges(bgr: np.ndarray, geometry: WellGeometry) -> int:
    """How many strong edges inside the well lie off its cell boundaries: a change from one well
    colour to another between pixel columns (rows) one to three apart (symbols and blends, of no
    well colour, neither make nor hide one), along at least half a cell, farther than EDGE_SLACK
    of a pitch from every column (row) boundary of ``geometry``.

    The page's cells are square and evenly spaced, so on a right geometry every such edge is a
    cell boundary. A well partly hidden (a page scrolled or clipped sideways, its bar shorter than
    ten cells) placed by its bar has a wrong pitch: its pieces' edges fall between its lines."""
    height, width = bgr.shape[:2]
    left, top = max(0, int(np.ceil(geometry.left))), max(0, int(np.ceil(geometry.top)))
    right, bottom = min(width, int(geometry.right)), min(height, int(geometry.bottom))
    if right - left < 3 or bottom - top < 3:
        return 0
    window = colour_labels(bgr[top:bottom, left:right])
    off = 0
    for along, start, pitch, across in ((window, geometry.left - left, geometry.pitch_x, geometry.pitch_y),
                                        (window.T, geometry.top - top, geometry.pitch_y, geometry.pitch_x)):
        known = along != OTHER
        for gap in (1, 2, 3):  # a scaled screenshot blends a pixel or two at an edge into no class
            if along.shape[1] <= gap:
                continue
            changes = ((along[:, gap:] != along[:, :-gap]) & known[:, gap:] & known[:, :-gap]).sum(axis=0)
            edges = np.flatnonzero(changes >= 0.5 * across) + gap / 2  # between pixels e - gap/2 and e + gap/2
            offsets = (edges - start) / pitch
            distance = np.abs(offsets - np.round(offsets)) * pitch
            off += int((distance > max(2.0, EDGE_SLACK * pitch)).sum())
    return off


def bar_share(bgr: np.ndarray, geometry: WellGeometry, classes: np.ndarray) -> float:
    """The share of columns in which a line at the top of row 4 (the bar) is redder than the cell
    under it. Redness is red minus the larger of green and blue, so a thin bar that a scaled
    screenshot blended into its neighbours still shows; a live cell under the bar counts as seen."""
    bar = geometry.top + BAR * geometry.pitch_y
    y0 = max(0, int(np.floor(bar - 0.25 * geometry.pitch_y)))
    y1 = min(bgr.shape[0], int(np.ceil(bar + 0.25 * geometry.pitch_y)) + 1)
    below0 = int(np.floor(bar + 0.35 * geometry.pitch_y))
    below1 = int(np.ceil(bar + 0.65 * geometry.pitch_y))
    if y1 <= y0 or below1 > bgr.shape[0]:
        return 0.0
    x0, x1, _, _ = geometry.patch_edges()
    if x0[0] < 0 or x1[-1] > bgr.shape[1]:
        return 0.0
    band = bgr[y0:below1, x0[0]:x1[-1]].astype(np.int16)
    redness = band[..., 2] - np.maximum(band[..., 0], band[..., 1])
    seen = 0
    for column in range(COLUMNS):
        if classes[BAR, column] == LIVE:
            seen += 1
            continue
        span = redness[:, x0[column] - x0[0]:x1[column] - x0[0]]
        line = span[:y1 - y0].mean(axis=1).max()
        cell = span[below0 - y0:below1 - y0].mean()
        seen += line - cell >= BAR_REDNESS
    return seen / COLUMNS


def find_well(bgr: np.ndarray) -> tuple[WellGeometry, CellVotes, float]:
    """The well in a working image, its cells and the share of columns where its bar was seen;
    raises NoBoardFound."""
    height, width = bgr.shape[:2]
    candidates = [geometry for geometry in _grid_candidates(bgr) + _frame_candidates(bgr) + _bar_candidates(bgr)
                  if geometry.left >= -1 and geometry.top >= -1 and geometry.right <= width + 1
                  and geometry.bottom <= height + 1]
    if not candidates:
        raise NoBoardFound("no HATETRIS well: nothing shaped like a 10 x 20 well of black, blue and red "
                           "cells, and no 10 x 20 grid")
    judged = []
    for geometry in candidates:
        votes = _vote(bgr, geometry)
        judged.append((geometry, votes, bar_share(bgr, geometry, votes.classes)))
    wells = [entry for entry in judged if entry[2] >= MIN_BAR_SHARE]
    if not wells:
        raise NoBoardFound("a block shaped like a 10 x 20 well, but no red bar on top of its fifth row")
    wells = [entry for entry in wells if misaligned_edges(bgr, entry[0]) == 0]
    if not wells:
        raise NoBoardFound("a red bar, but the well's cells do not lie on a grid of ten columns as wide as "
                           "the bar (a well partly hidden?)")
    # a well placed by its bar alone guesses its row height from its width (cells are square), but a
    # narrow page squeezes the cells: a frame or grid measured whole is preferred
    geometry, votes, bar = max(wells, key=lambda entry: ((entry[1].classes == LIVE).sum() <= 4,
                                                         entry[1].clear_cells >= MIN_CLEAR_CELLS,
                                                         entry[0].found_by != "bar", entry[1].quality))
    if votes.clear_cells < MIN_CLEAR_CELLS:
        raise NoBoardFound(f"a 10 x 20 well with its bar, but only {votes.clear_cells:.0%} of its cells are "
                           "clearly empty, landed or live")
    return geometry, votes, bar


# -- the live piece ------------------------------------------------------------------------------
def live_piece(classes: np.ndarray) -> dict[str, Any] | None:
    """The live cells as a piece: its letter, cells and every (x, y, o) covering them; None when
    there are no live cells. Raises ValueError when the live cells are no piece."""
    rows, columns = np.nonzero(classes == LIVE)
    if len(rows) == 0:
        return None
    cells = sorted(zip(columns.tolist(), rows.tolist()), key=lambda cell: (cell[1], cell[0]))
    if len(cells) != 4:
        raise ValueError(f"{len(cells)} live cells; a piece has 4")
    x_min = min(x for x, _ in cells)
    y_min = min(y for _, y in cells)
    shape = {(x - x_min, y - y_min) for x, y in cells}
    letter = None
    states = []
    for piece in PIECES:
        for orientation, box_cells in enumerate(CELLS[PIECE_INDEX[piece]]):
            cx_min = min(cx for cx, _ in box_cells)
            cy_min = min(cy for _, cy in box_cells)
            if {(cx - cx_min, cy - cy_min) for cx, cy in box_cells} == shape:
                letter = piece
                states.append([x_min - cx_min, y_min - cy_min, orientation])
    if letter is None:
        raise ValueError("the live cells are not the shape of any piece")
    spawn = [DEFAULT_RULES.spawn_x, 0, 0]
    return {"piece": letter, "cells": [list(cell) for cell in cells], "states": states, "at_spawn": spawn in states}


# -- the score -----------------------------------------------------------------------------------
@functools.lru_cache(maxsize=1)
def digit_templates() -> np.ndarray:
    """(styles, 10, TEMPLATE_HEIGHT, TEMPLATE_WIDTH) float templates, ink 1, zero mean, unit norm."""
    data = resources.files("assets.vision.hatetris").joinpath("digits.png").read_bytes()
    strip = cv2.imdecode(np.frombuffer(data, dtype=np.uint8), cv2.IMREAD_GRAYSCALE)
    styles = strip.shape[0] // TEMPLATE_HEIGHT
    templates = strip.reshape(styles, TEMPLATE_HEIGHT, 10, TEMPLATE_WIDTH).transpose(0, 2, 1, 3)
    return np.stack([[_normalised(t.astype(np.float32) / 255.0) for t in style] for style in templates])


def _normalised(patch: np.ndarray) -> np.ndarray:
    centred = patch - patch.mean()
    norm = np.linalg.norm(centred)
    return centred / norm if norm > 0 else centred


def glyph_patch(ink: np.ndarray) -> np.ndarray:
    """A glyph's ink (0..1, cropped to its box) scaled to the template height, centred in the
    template width; shared by the reader and the template script."""
    height, width = ink.shape
    new_width = max(1, min(TEMPLATE_WIDTH, round(width * TEMPLATE_HEIGHT / height)))
    scaled = cv2.resize(ink.astype(np.float32), (new_width, TEMPLATE_HEIGHT), interpolation=cv2.INTER_AREA)
    patch = np.zeros((TEMPLATE_HEIGHT, TEMPLATE_WIDTH), dtype=np.float32)
    offset = (TEMPLATE_WIDTH - new_width) // 2
    patch[:, offset:offset + new_width] = scaled
    return patch


def _runs(flags: np.ndarray) -> list[tuple[int, int]]:
    """(start, end) of the runs of True, end exclusive."""
    edges = np.diff(np.concatenate([[0], flags.astype(np.int8), [0]]))
    return list(zip(np.flatnonzero(edges == 1).tolist(), np.flatnonzero(edges == -1).tolist()))


def _words(line: np.ndarray) -> list[list[tuple[int, int]]]:
    """The glyphs (column runs) of a text line, grouped into words at gaps wider than a third of
    the line's height."""
    words: list[list[tuple[int, int]]] = []
    gap = max(2.0, 0.3 * line.shape[0])
    for start, end in _runs(line.any(axis=0)):
        if words and start - words[-1][-1][1] <= gap:
            words[-1].append((start, end))
        else:
            words.append([(start, end)])
    return words


def _ink_rows(line: np.ndarray, start: int, end: int) -> tuple[int, int]:
    rows = np.flatnonzero(line[:, start:end].any(axis=1))
    return int(rows[0]), int(rows[-1]) + 1


def _touching_digits(line: np.ndarray, glyph: tuple[int, int], rows: tuple[int, int]) -> list[tuple[int, int]]:
    """A glyph cut where digits that touch in small print meet: a glyph wider than a digit is
    (no digit of the page's fonts is wider than it is tall) is cut in the middle of each run of
    thin columns (a join: at most THIN_JOIN of its fullest column's ink), runs at least
    DIGIT_SPACING of its height from its ends and from each other."""
    start, end = glyph
    top, bottom = rows
    height = bottom - top
    if end - start <= MOST_DIGIT_WIDTH * height:
        return [glyph]
    counts = line[top:bottom, start:end].sum(axis=0)
    spacing = DIGIT_SPACING * height
    cuts: list[int] = []
    for run_start, run_end in _runs(counts <= THIN_JOIN * counts.max()):
        cut = (run_start + run_end) // 2
        if spacing <= cut <= end - start - spacing and (not cuts or cut - cuts[-1] >= spacing):
            cuts.append(cut)
    edges = [0, *cuts, end - start]
    return [(start + a, start + b) for a, b in zip(edges, edges[1:])]


def _best_digit(box: np.ndarray, templates: np.ndarray) -> tuple[int, float]:
    patch = _normalised(glyph_patch(box))
    scores = np.tensordot(templates, patch, axes=([2, 3], [0, 1])).max(axis=0)
    return int(scores.argmax()), float(scores.max())


def _glyph_digits(box: np.ndarray, mask: np.ndarray, templates: np.ndarray) -> list[tuple[int, float]] | None:
    """The digits of one glyph (ink cropped to it, and its ink mask) with their matches: one digit,
    or touching digits cut at their joins (:func:`_touching_digits`; a cut may leave a column of the
    neighbour's ink on a piece, so its edges may give way by a column), or, when that leaves a
    piece no digit, small print cut wherever the pieces match best. None when no way of cutting
    matches every piece to a digit."""
    height, width = box.shape
    pieces = _touching_digits(mask, (0, width), (0, height))
    if len(pieces) == 1:
        digit = _best_digit(box, templates)
        if digit[1] >= DIGIT_MATCH or width <= MOST_DIGIT_WIDTH * height or height > SMALL_PRINT:
            return [digit]
        return _cut_by_templates(box, templates)
    digits = []
    for start, end in pieces:
        trims = ((0, 0), (1, 0), (0, 1), (1, 1)) if end - start > 4 else ((0, 0),)
        digits.append(max((_best_digit(box[:, start + left:end - right], templates) for left, right in trims),
                          key=lambda found: found[1]))
    if min(match for _, match in digits) >= DIGIT_MATCH or height > SMALL_PRINT:
        return digits
    return _cut_by_templates(box, templates)


def _cut_by_templates(box: np.ndarray, templates: np.ndarray) -> list[tuple[int, float]] | None:
    """Touching digits of small print cut where every piece matches a digit best: the cuts that
    make the worst piece's match highest (pieces 0.35 to 1.05 times the height wide)."""
    height, width = box.shape
    narrowest, widest = max(2, int(0.35 * height)), int(np.ceil(1.05 * height))
    # best[x] = (worst match of the pieces up to column x, their digits)
    best: dict[int, tuple[float, list[tuple[int, float]]]] = {0: (1.0, [])}
    for end in range(narrowest, width + 1):
        options = []
        for start in range(max(0, end - widest), end - narrowest + 1):
            if start in best:
                digit = _best_digit(box[:, start:end], templates)
                options.append((min(best[start][0], digit[1]), best[start][1] + [digit]))
        if options:
            best[end] = max(options, key=lambda option: option[0])
    if width not in best or best[width][0] < CUT_DIGIT_MATCH:
        return None
    return best[width][1]


def read_score(bgr: np.ndarray, geometry: WellGeometry) -> tuple[int | None, float]:
    """The number of the "score: N" line right of the well, and how well its worst digit matched
    (None, 0 when there is no such line).

    The line is told by its shape, not by reading letters: two words, the first ("score:") of
    mostly short (lower-case) glyphs, which may touch each other in small print, the second of
    glyphs all as tall as each other and taller than those (digits), each matching a template.
    """
    pitch = geometry.pitch_x
    height, width = bgr.shape[:2]
    x0 = int(min(width, geometry.right + 0.25 * pitch))
    x1 = int(min(width, geometry.right + 18 * pitch))
    y0 = int(max(0, geometry.top - 0.5 * pitch))
    y1 = int(min(height, geometry.top + 12 * pitch))
    if x1 - x0 < 2 * pitch or y1 - y0 < pitch:
        return None, 0.0
    region = cv2.cvtColor(bgr[y0:y1, x0:x1], cv2.COLOR_BGR2GRAY)
    # the background is the page's right beside the well; the region ends where another panel
    # starts (Kibitz's window: the advisor's table right of the board's black)
    background = int(np.bincount(region[:, :max(2, int(0.5 * pitch))].ravel(), minlength=256).argmax())
    other = np.abs(np.median(region, axis=0) - background) > 40
    panel = np.flatnonzero(other[:-2] & other[1:-1] & other[2:])
    if len(panel):
        x1 = x0 + int(panel[0])
        region = region[:, :panel[0]]
        if x1 - x0 < 2 * pitch:
            return None, 0.0
    contrast = np.abs(region.astype(np.float32) - background)
    if contrast.max() < 60:
        return None, 0.0
    ink_mask = contrast >= max(30.0, 0.35 * contrast.max())
    ink = np.clip(contrast / contrast.max(), 0, 1)
    templates = digit_templates()
    for line_start, line_end in _runs(ink_mask.any(axis=1)):
        line = ink_mask[line_start:line_end]
        if line.shape[0] < 5:
            continue
        words = _words(line)
        if len(words) != 2 or len(words[0]) < 2:
            continue
        letter_heights = sorted(bottom - top for top, bottom in (_ink_rows(line, *glyph) for glyph in words[0]))
        digit_rows = [_ink_rows(line, *glyph) for glyph in words[1]]
        digit_heights = [bottom - top for top, bottom in digit_rows]
        if min(digit_heights) < 1.15 * letter_heights[len(letter_heights) // 2] \
                or max(digit_heights) > 1.2 * min(digit_heights):
            continue
        if min(digit_heights) < SMALLEST_DIGIT:
            return None, 0.0  # too small to tell 1 from 3 or 4 for sure (50 % zoom on a 1x screen)
        if x1 == width and words[1][-1][1] >= region.shape[1] - 0.6 * line.shape[0]:
            return None, 0.0  # the number reaches the image's edge: more digits may be cut off
        digits = []
        for glyph, (top, bottom) in zip(words[1], digit_rows):
            box = ink[line_start + top:line_start + bottom, glyph[0]:glyph[1]]
            found = _glyph_digits(box, line[:, glyph[0]:glyph[1]][top:bottom], templates)
            if found is None:
                digits = []
                break
            digits.extend(found)
        if not digits:
            continue
        if all(match >= DIGIT_MATCH for _, match in digits):
            return int("".join(str(digit) for digit, _ in digits)), min(match for _, match in digits)
    return None, 0.0


# -- previous ------------------------------------------------------------------------------------
def _settle_with_previous(classes: np.ndarray, confidence: np.ndarray, previous: State) \
        -> tuple[tuple[int, ...], int] | None:
    """The well (and its score) reachable from ``previous`` by no lock or one lock that agrees
    with every sure cell, when there is exactly one; None otherwise."""
    rules = previous.rules
    if (rules.width, rules.depth) != (COLUMNS, ROWS):
        return None
    options = {previous.well: previous.score}
    if previous.piece is not None:
        piece = PIECE_INDEX[previous.piece]
        for x, y, o in reference.resting_positions(previous.well, rules, piece):
            _, after, cleared, _ = reference.lock(previous.well, rules, piece, x, y, o)
            options.setdefault(after, previous.score + len(cleared))
    sure = confidence >= DOUBTFUL_BELOW
    landed = classes == LANDED
    fitting = []
    for well, score in options.items():
        bits = np.array([[row >> x & 1 for x in range(COLUMNS)] for row in well], dtype=bool)
        if np.array_equal(bits[sure], landed[sure]):
            fitting.append((well, score))
    return fitting[0] if len(fitting) == 1 else None


# -- the reading ---------------------------------------------------------------------------------
def _working_copy(bgr: np.ndarray) -> tuple[np.ndarray, float]:
    """The image shrunk by a whole factor to at most WORK_PIXELS, and the scale factor."""
    working, block = shrink_to(bgr, WORK_PIXELS)
    return working, 1.0 / block


def _board_text(well: tuple[int, ...], score: int, piece: str | None, over: bool) -> str:
    header = f"score {score}"
    if over:
        header += " · next -"
    elif piece is not None:
        header += f" · next {piece}"
    rows = ["".join("#" if row >> x & 1 else "." for x in range(COLUMNS)) for row in well]
    return "\n".join([header, *rows])


def _well_of(classes: np.ndarray) -> tuple[int, ...]:
    return tuple(int(sum(1 << x for x in range(COLUMNS) if classes[y, x] == LANDED)) for y in range(ROWS))


def _engine_state(classes: np.ndarray, confidence: np.ndarray, score: int | None, piece: dict | None) \
        -> tuple[State, np.ndarray, list[list[int]], bool]:
    """The engine's state for the cells read: (state, classes, flipped cells, whether ``score``
    was kept).

    When the engine rejects the cells (a cell count no game can have with that score, a full row
    not cleared), the fewest flips (landed <-> empty) of doubtful cells that it accepts are made,
    the least sure cells first, keeping the score if possible; flipped cells stay doubtful.
    Raises NoBoardFound with the engine's reason when no such reading exists."""
    doubtful = sorted((confidence[row, column], row, column) for row, column in zip(*np.nonzero(
        (confidence < DOUBTFUL_BELOW) & (classes != LIVE))))[:MAX_FLIPPED_CANDIDATES]
    letter = piece["piece"] if piece else None
    first_error: NotationError | None = None
    for keep_score in ((True, False) if score is not None else (False,)):
        for size in range(MAX_FLIPS + 1):
            for flips in itertools.combinations(doubtful, size):
                trial = classes.copy()
                for _, row, column in flips:
                    trial[row, column] = EMPTY if trial[row, column] == LANDED else LANDED
                well = _well_of(trial)
                cells = sum(row.bit_count() for row in well)
                trial_score = score if keep_score else (0 if cells % 4 == 0 else 1)
                try:
                    state = GAMES[GAME].parse_board(_board_text(well, trial_score, letter, any(well[:BAR])))
                except NotationError as error:
                    first_error = first_error or error
                    continue
                return state, trial, [[int(row), int(column)] for _, row, column in flips], keep_score
    raise NoBoardFound(f"the well read is no HATETRIS position: {first_error}")


def read(image: np.ndarray, previous: Any = None) -> Reading:
    """Read the HATETRIS well in a BGR ``image`` (see the module doc); raises NoBoardFound."""
    started = time.perf_counter()
    bgr = board_image(image)
    if min(bgr.shape[:2]) < ROWS * MIN_PITCH / 2:
        raise NoBoardFound(f"the image ({bgr.shape[1]} x {bgr.shape[0]}) is too small to hold a readable well")
    working, factor = _working_copy(bgr)
    try:
        geometry, votes, bar = find_well(working)
    except NoBoardFound:
        if factor == 1.0:
            raise
        # a small well on a large screen (browser zoom 50 %) may be too small once shrunk
        working, factor = bgr, 1.0
        geometry, votes, bar = find_well(working)
    classes = votes.classes.copy()
    confidence = votes.confidence.copy()
    diagnostics: dict[str, Any] = {
        "well": geometry.scaled(factor), "bar_seen": round(float(bar), 2),
        "cell_grid": CellGrid(geometry.left / factor, geometry.top / factor, geometry.pitch_x / factor,
                              geometry.pitch_y / factor, ROWS, COLUMNS, (bgr.shape[1], bgr.shape[0])).to_json()}

    try:
        piece = live_piece(classes)
    except ValueError as error:
        piece = None
        diagnostics["live_piece_problem"] = str(error)
        live = classes == LIVE
        confidence[live] = np.minimum(confidence[live], 0.4)
    diagnostics["live_piece"] = piece
    if piece is not None:
        diagnostics["state_note"] = ("an engine state has no position for a falling piece: the state is the landed "
                                     "well with this piece as the piece to place")

    # the score's small print is read at the image's own resolution
    score, score_match = read_score(bgr, dataclasses.replace(
        geometry, left=geometry.left / factor, top=geometry.top / factor,
        pitch_x=geometry.pitch_x / factor, pitch_y=geometry.pitch_y / factor))
    diagnostics["score"] = score
    diagnostics["score_match"] = round(score_match, 3)
    diagnostics["score_source"] = "page" if score is not None else None

    if isinstance(previous, State) and (score is None or (confidence < DOUBTFUL_BELOW).any()):
        settled = _settle_with_previous(classes, confidence, previous)
        if settled is not None:
            well, previous_score = settled
            doubtful = confidence < DOUBTFUL_BELOW
            settled_cells = []
            for row, column in zip(*np.nonzero(doubtful)):
                filled = bool(well[row] >> column & 1)
                if filled or classes[row, column] == LANDED:
                    classes[row, column] = LANDED if filled else EMPTY
                confidence[row, column] = DOUBTFUL_BELOW
                settled_cells.append([int(row), int(column)])
            if settled_cells:
                diagnostics["settled_by_previous"] = settled_cells
            if score is None:
                score = previous_score
                diagnostics["score_source"] = "previous"

    state, classes, flipped, score_kept = _engine_state(classes, confidence, score, piece)
    if flipped:
        diagnostics["flipped_for_the_rules"] = flipped
    if score is not None and not score_kept:
        diagnostics["score_problem"] = f"score {score} cannot go with the {state.cells} landed cells read"
    if not score_kept:
        diagnostics["score_source"] = "assumed (not read; the smallest score the landed cells allow)"
    over = state.over
    diagnostics["game_over"] = over
    if piece is None and not over:
        seen = "the live cells are no piece" if "live_piece_problem" in diagnostics else "no live piece seen"
        diagnostics["piece_source"] = f"{seen}; the piece is the AI's choice for this well"
    diagnostics["ms"] = round((time.perf_counter() - started) * 1000, 1)
    # a score neither read nor settled by the previous position is an assumption: never sure
    doubtful_fields = ("score",) if not score_kept else ()
    return Reading(GAME, state, classes.astype(int).tolist(), confidence, diagnostics, doubtful_fields)
