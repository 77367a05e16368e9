"""SPL-T board reader: every box (plain or point block with its number), the voids, the split
count, the score and the next orientation, from a screenshot of the game or of Kibitz's SPL-T view
(spec section 5).

What the game's screen is made of: a black board of 8 x 16 square cells under a header
("SCORE n", a little figure, "n SPLITS") closed by a dotted line on the board's top edge; every
box is outlined by a thin grey line on cell edges, point blocks are hatched with thin grey
diagonals (top-left to bottom-right) and carry their number in a segmented font, voids are solid
white. The board usually fills the phone's width, so its left and right edges are often the
screen's edges and show no line.

How it reads:

1. **Line masks.** A pixel is on a vertical line when, after a short vertical blur, it is clearly
   brighter than the pixels two to the left and right (the horizontal mask likewise). The blur
   flattens the diagonal hatching, so what is left are box walls, the dotted line and the bars
   of the digits. Saturated pixels (red annotations drawn over published screenshots) are
   blacked out first.
2. **The board** is looked for on a small grey copy of the image (150k pixels, then 300k or 500k
   if none is seen there). Box walls are long runs of the masks, digit bars short ones.
   Candidate cell sizes come from the longest runs (the dotted line spans the board's width, 8
   cells; a wall may span all 16 rows); a candidate must have the long runs on one grid of that
   pitch (circular phase coherence, weighed by their squared length), and the board is placed
   on that grid where it holds the most walls (across the board's columns first, then along
   its rows: text beside the board is left out; its top line, with the header above it, inside
   the image); the best is fitted by least squares (left, top and pitch together). A board
   whose cells are small on that copy (a small board on a big screen) is looked for again on a
   closer copy of its part of the image. Cell sides are also tried at the pitches the walls
   repeat at (autocorrelation, ``vision.grid``), so a board among other lines (Kibitz's whole
   window) is found; lines running on past the board's sides do not count as its walls, and
   the board is moved by whole cells to stand under the header's figure, which is centred
   over it just above its top line. A board of big cells (its one-pixel walls fade into the
   hatching when shrunk by area much) is looked for on copies first halved keeping the brightest
   pixels too, and the better board kept.
3. **The normal copy.** The board and its header are cut from the image and scaled so that a cell
   is NORMAL_CELL (48) pixels: every later step works at one size, whatever the screenshot's,
   and a small board's faint strokes are spread over enough pixels. A big board is first halved
   keeping the brightest pixels; its thin strokes may then fall on one pixel or be spread over
   two at half the brightness, so its numbers are read strictly, as a small board's are. The grid is fitted again to
   the peaks of the masks' column and row counts.
4. **Cells.** Each cell's inside is white (void), hatched (point block: brightness changes much
   more across the hatching's direction than along it) or black (plain box). Kibitz's own view
   may draw over the board: the last turn's highlights (coloured outlines, translucent fills)
   and the advisor's marks (tints, rank numbers, dashed frames). What lies under a tint is
   never sure; a grey cell without visible hatching is doubtful, or a plain box when tinted
   with the advice's bluish grey; a box not one shade inside is doubtful.
5. **Walls** are the stretches along each grid line, at least WALL_RUN cells long, where a mask has
   a pixel near the line (an annotation crossing a wall bridges it). Adjacent cells of the same
   kind belong to the same box unless a wall runs between them; the boxes are the connected
   groups, which must be rectangles (checked by the engine: power-of-two sides, no overlap).
   Kibitz previews the split of the box under the mouse by filling it (a stipple) and drawing a
   dashed line across its middle, just where a wall between its halves would be: two equal
   plain boxes side by side, both lit inside, or with a broken line between them, are doubtful;
   with both, they are read as the one box (still doubtful).
6. **Numbers.** The digits are drawn in the walls' grey: their strokes are the ridges (brighter
   than both sides, by a share of the walls' own ridge) that are not walls, solid (the gap
   between two digits stays dark) and straight. In the middle of each point block (and left and
   right of the header's figure) they are cut into glyphs at empty columns (a 1 bridged to the
   next digit, or digits joined by a blurred bar, are cut apart; the phone's home bar is left
   out) and matched against segmented-font templates (``assets/vision/splt/glyphs.png``, drawn
   by ``assets/vision/splt/make_templates.py``); a glyph much narrower than tall is a 1. A
   doubtful number is read again with the strokes taken fainter and stronger, and the surest
   reading wins by its margin over the others. A glyph whose side bar meets none of its across
   bars may be a 1 against the next digit (a 13 read as one 8): doubtful. An annotation's colour
   over a number blacks out its strokes: a digit the strokes seen and those the colour may hide
   could make instead leaves the number doubtful.
7. **The header**: the score left of the figure, the split count right of it; the figure's arms
   (out: horizontal next, up: vertical next) are checked against the split count's parity. A
   split count below the numbers of sure blocks is the misread; read surely, it leaves those
   blocks doubtful too (two blocks whose wall was missed read as one, their numbers run together).
8. **The previous position**, when given: doubtful numbers (and an unread split count) take the
   reading that legal splits from it reach, checked by ``vision.follow.explain`` (at most two
   splits apart). It is used only then: when no reading is reached (or the two are too far apart
   to check), the image is read alone, what it leaves doubtful stays doubtful, and a previous
   position that does not lead to the board makes the reading doubtful too (``"previous"`` in
   ``Reading.doubtful_fields``). The previous position settles the split count and the score
   only when every continuation reaching the board (that the image does not rule out: a split
   count or score read, the figure's arms) agrees on them; otherwise they stay doubtful.
9. **The end screen** (SCORE and SPLITS in big digits between hatched bands, no board) is
   recognised when no board is found: ``NoBoardFound`` then carries ``diagnostics["end_screen"]``.
"""

from __future__ import annotations

import dataclasses
import functools
import time
from importlib import resources
from typing import Any

import cv2
import numpy as np

from engines import GAMES
from engines.errors import NotationError
from engines.splt.state import HEIGHT, WIDTH, Box, State
from vision.colour import components, shrink_by
from vision.grid import autocorrelation
from vision.images import board_image
from vision.reading import CellGrid, NoBoardFound, Reading

GAME = "splt"

#: The board is looked for on a copy of the image shrunk to at most this many pixels (for
#: speed), then, if none is found there, on larger ones (the hatching of a small copy can hide
#: its walls); it is then read on a copy of its own part at NORMAL_CELL.
FIND_PIXELS = (150_000, 300_000, 500_000)
#: Line masks: the blur along the line, the distance of the neighbours compared and the margin.
LINE_BLUR = 5
LINE_OFFSET = 2
LINE_CONTRAST = 22
#: Walls between boxes are measured on line masks of this lower margin (a wall between two boxes
#: tinted grey by Kibitz's advice stands out less).
WALL_CONTRAST = 12
#: Digit strokes: the shortest piece kept (in cells).
STROKE_RUN = 0.07
#: Pixels whose channels differ by more than this are annotations, not the game's greys.
ANNOTATION_SPREAD = 60
#: The smallest cell the reader looks for, in the small copy's pixels.
MIN_CELL = 8.0
#: A run of a line mask this long (in cells) or longer may be a wall; digit bars are shorter.
WALL_RUN = 0.6
#: How far (in cells) a run may sit from its grid line.
GRID_TOLERANCE = 0.08
#: The least phase coherence of the long runs for a grid to be a board, and the least score
#: (coherence times the shares of the walls inside it times how much of it they span).
MIN_COHERENCE = 0.85
MIN_SCORE = 0.2
#: A board found with cells under CLOSER_CELL pixels on the small copy is looked for again on a
#: copy of its part of the image (with CLOSER_MARGIN cells around it) at CLOSER_LOOK a cell (or
#: the image's own size, if smaller: a board's one-pixel walls between hatched or tinted boxes
#: fade when shrunk much).
CLOSER_CELL = 20.0
CLOSER_LOOK = 32.0
CLOSER_MARGIN = 2.5
#: The part of a cell looked at for its kind: this fraction of the cell is left out on each side.
CELL_INSET = 0.15
#: A cell whose inside is at least this share white is a void.
VOID_SHARE = 0.5
#: Hatching: mean brightness change across the diagonals minus along them (grey levels).
HATCH_CONTRAST = 5.0
#: A cell with at least this share of its inside coloured is tinted (Kibitz's highlights and
#: advice): its hatching is looked for under the colour.
TINTED = 0.5
TINTED_CONFIDENCE = 0.5
#: A cell whose inside is this grey on average (a plain box's is black) but not hatched is
#: doubtful.
GREY_INSIDE = 20.0
#: A coloured line bridges a wall it crosses over at most this length (in cells).
LONGEST_BRIDGE = 0.35
#: A wall is drawn between two cells when the mask covers at least this share of their edge.
WALL_SHARE = 0.5


@dataclasses.dataclass(frozen=True)
class BoardGeometry:
    """The board in working pixels: the left and top edge lines and the cell's side."""

    left: float
    top: float
    cell: float

    def x_edge(self, column: float) -> float:
        return self.left + column * self.cell

    def y_edge(self, row: float) -> float:
        return self.top + row * self.cell

    @property
    def right(self) -> float:
        return self.x_edge(WIDTH)

    @property
    def bottom(self) -> float:
        return self.y_edge(HEIGHT)


@dataclasses.dataclass(frozen=True)
class Runs:
    """The connected runs of one line mask: position across the line, start, end and length."""

    across: np.ndarray
    start: np.ndarray
    end: np.ndarray

    @property
    def length(self) -> np.ndarray:
        return self.end - self.start

    def longer_than(self, length: float) -> "Runs":
        keep = self.length >= length
        return Runs(self.across[keep], self.start[keep], self.end[keep])


@dataclasses.dataclass(frozen=True)
class LineMasks:
    vertical: np.ndarray    # bool, on vertical lines
    horizontal: np.ndarray  # bool, on horizontal lines
    vertical_runs: Runs
    horizontal_runs: Runs


# -- working image and masks ---------------------------------------------------------------------
def _working_copy(bgr: np.ndarray, most_pixels: int = FIND_PIXELS[1]) -> tuple[np.ndarray, float]:
    """The image's grey levels (annotation colours blacked out) shrunk by area averaging to at
    most ``most_pixels``, and the factor (a big image is first shrunk by a whole factor with
    ``vision.colour.shrink_by``, which is fast, to no less than 1.5 times that)."""
    pixels = bgr.shape[0] * bgr.shape[1]
    step = int(np.sqrt(pixels / (1.5 * most_pixels)))
    small = shrink_by(bgr, step)
    grey, _ = _grey_and_colour(small)
    factor = 1.0 / max(step, 1)
    if grey.shape[0] * grey.shape[1] > most_pixels:
        more = (most_pixels / (grey.shape[0] * grey.shape[1])) ** 0.5
        size = (max(int(round(grey.shape[1] * more)), 1), max(int(round(grey.shape[0] * more)), 1))
        factor *= size[0] / grey.shape[1]
        grey = cv2.resize(grey, size, interpolation=cv2.INTER_AREA)
    return grey, factor


def _grey_and_colour(bgr: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The grey levels with annotation colours blacked out, and the mask of those colours
    (spread between the largest and smallest channel: the game draws only greys)."""
    bgr = np.ascontiguousarray(bgr)
    blue, green, red = cv2.split(bgr)
    spread = cv2.subtract(cv2.max(cv2.max(blue, green), red), cv2.min(cv2.min(blue, green), red))
    coloured = spread > ANNOTATION_SPREAD
    grey = cv2.cvtColor(bgr, cv2.COLOR_BGR2GRAY)
    if coloured.any():
        grey[coloured] = 0
    return grey, coloured


@functools.lru_cache(maxsize=16)
def _side_kernel(vertical: bool, offset: int = LINE_OFFSET) -> np.ndarray:
    """A dilation kernel taking the larger of the two pixels ``offset`` away across a line."""
    kernel = np.zeros(2 * offset + 1, np.uint8)
    kernel[0] = kernel[-1] = 1
    return kernel.reshape(1, -1) if vertical else kernel.reshape(-1, 1)


def _line_mask(grey: np.ndarray, vertical: bool, offset: int = LINE_OFFSET, black_beyond: bool = False,
               contrast: int = LINE_CONTRAST) -> np.ndarray:
    """Pixels on thin lines of one direction: brighter, after a blur along the line, than the
    pixels ``offset`` away on both sides. With ``black_beyond`` the image is taken as black
    past its edges (a board drawn to the edges of a whole image, Kibitz's board widget grabbed,
    shows its outline there); otherwise nothing next to the edges is a line."""
    blurred = cv2.blur(grey, (1, LINE_BLUR) if vertical else (LINE_BLUR, 1))
    if black_beyond:
        side = cv2.dilate(blurred, _side_kernel(vertical, offset), borderType=cv2.BORDER_CONSTANT, borderValue=0)
        mask = cv2.subtract(blurred, side) > contrast
        if not vertical:
            # the board's top line has the header above it: nothing at the image's top edge is
            # a wall (a window's menu bar there is)
            mask[:offset, :] = False
        return mask
    side = cv2.dilate(blurred, _side_kernel(vertical, offset), borderType=cv2.BORDER_REPLICATE)
    mask = cv2.subtract(blurred, side) > contrast
    # next to the image's edge there is nothing to compare with
    if vertical:
        mask[:, :offset] = mask[:, -offset:] = False
    else:
        mask[:offset, :] = mask[-offset:, :] = False
    return mask


def _runs(mask: np.ndarray, vertical: bool) -> Runs:
    """The 4-connected pieces of a line mask that are thin across the line (at most 4 pixels)."""
    count, _, stats, centroids = components(mask.view(np.uint8), connectivity=4)
    stats, centroids = stats[1:], centroids[1:]
    if vertical:
        thin = stats[:, cv2.CC_STAT_WIDTH] <= 4
        across = centroids[:, 0]
        start = stats[:, cv2.CC_STAT_TOP]
        end = start + stats[:, cv2.CC_STAT_HEIGHT]
    else:
        thin = stats[:, cv2.CC_STAT_HEIGHT] <= 4
        across = centroids[:, 1]
        start = stats[:, cv2.CC_STAT_LEFT]
        end = start + stats[:, cv2.CC_STAT_WIDTH]
    long_enough = (end - start) >= 3
    keep = thin & long_enough
    return Runs(across[keep].astype(np.float64), start[keep].astype(np.float64), end[keep].astype(np.float64))


def line_masks(grey: np.ndarray) -> LineMasks:
    """The line masks and their runs; only straight pieces of at least LINE_BLUR pixels are
    kept (what the hatching leaves next to a wall would make it look wider than a line)."""
    vertical = cv2.morphologyEx(_line_mask(grey, True, black_beyond=True).view(np.uint8), cv2.MORPH_OPEN,
                                np.ones((LINE_BLUR, 1), np.uint8)).view(bool)
    horizontal = cv2.morphologyEx(_line_mask(grey, False, black_beyond=True).view(np.uint8), cv2.MORPH_OPEN,
                                  np.ones((1, LINE_BLUR), np.uint8)).view(bool)
    return LineMasks(vertical, horizontal, _runs(vertical, True), _runs(horizontal, False))


# -- finding the board ---------------------------------------------------------------------------
def _line_extents(runs: Runs, vertical: bool) -> np.ndarray:
    """The span of each line made of runs at the same position across (a wall is broken where
    others cross it): lengths of the longest few, longest first."""
    if runs.across.size == 0:
        return np.zeros(0)
    order = np.argsort(runs.across)
    across, start, end = runs.across[order], runs.start[order], runs.end[order]
    breaks = np.nonzero(np.diff(across) > 1.5)[0] + 1
    spans = [e.max() - s.min() for s, e in zip(np.split(start, breaks), np.split(end, breaks))]
    return np.sort(np.array(spans))[::-1][:8]


def _coherence(positions: np.ndarray, weights: np.ndarray, cell: float) -> tuple[float, float]:
    """How well ``positions`` sit on one grid of pitch ``cell`` (1 = all on it) and the grid's
    offset in [0, cell)."""
    if weights.sum() <= 0:
        return 0.0, 0.0
    phasor = (weights * np.exp(2j * np.pi * positions / cell)).sum() / weights.sum()
    offset = (np.angle(phasor) / (2 * np.pi)) % 1.0 * cell
    return float(abs(phasor)), float(offset)


def _snap(offset: float, cell: float, near: float) -> float:
    """The grid line (offset + k * cell) nearest to ``near``."""
    return offset + round((near - offset) / cell) * cell


@dataclasses.dataclass(frozen=True)
class Candidate:
    geometry: BoardGeometry
    score: float
    coherence: float


def _crossing(runs: Runs, low: float, high: float, across: bool = False) -> Runs:
    """The runs that reach into [low, high]: along their length, or (``across``) by their
    position across."""
    if across:
        keep = (runs.across >= low) & (runs.across <= high)
    else:
        keep = (runs.end > low) & (runs.start < high)
    return Runs(runs.across[keep], runs.start[keep], runs.end[keep])


def _on_grid(runs: Runs, offset: float, cell: float) -> Runs:
    """The runs that lie on the grid's lines (walls; the header's digits stand between them)."""
    off = np.abs((runs.across - offset + 0.5 * cell) % cell - 0.5 * cell)
    keep = off <= 2 * GRID_TOLERANCE * cell
    return Runs(runs.across[keep], runs.start[keep], runs.end[keep])


def _within(runs: Runs, low: float, high: float) -> Runs:
    """The runs that lie within [low, high] along their length."""
    keep = (runs.start >= low) & (runs.end <= high)
    return Runs(runs.across[keep], runs.start[keep], runs.end[keep])


def _clipped(runs: Runs, low: float, high: float) -> Runs:
    """The runs that reach into [low, high] along their length, cut to it."""
    keep = (runs.end > low) & (runs.start < high)
    return Runs(runs.across[keep], np.maximum(runs.start[keep], low), np.minimum(runs.end[keep], high))


#: Placing the board along an axis, the walls crossing it (on the grid, inside the board's span
#: across) count this many times their length: they are the board's own, where lines along the
#: axis may be a window's panels.
ALONG_WEIGHT = 2.0


def _place(across: Runs, along: Runs, offset: float, cell: float, count: int, size: int, lowest: float) -> float:
    """Where the board's first line goes along one axis: the grid line (``offset`` + k ``cell``,
    at least ``lowest`` cells into the image) that puts the most wall inside the board's
    ``count`` cells: the runs across that axis whose position falls inside, and the part of the
    runs along it that does."""
    first = int(np.ceil((lowest * cell - offset) / cell))
    last = int(np.floor((size + 0.5 * cell - count * cell - offset) / cell))
    if last < first:
        return _snap(offset, cell, 0.0)
    starts = offset + np.arange(first, last + 1) * cell
    ends = starts + count * cell
    margin = GRID_TOLERANCE * cell * 2
    inside = ((across.across[None, :] > starts[:, None] - margin) & (across.across[None, :] < ends[:, None] + margin))
    held = (inside * across.length[None, :]).sum(axis=1)
    overlap = np.clip(np.minimum(along.end[None, :], ends[:, None]) - np.maximum(along.start[None, :], starts[:, None]), 0, None)
    held = held + ALONG_WEIGHT * overlap.sum(axis=1)
    return float(starts[int(np.argmax(held))])


def _judge(masks: LineMasks, cell: float, shape: tuple[int, int]) -> Candidate | None:
    """The board of pitch ``cell`` that the long runs of the masks suggest, and how good it is
    (None when the runs do not sit on one grid of that pitch: a board must be coherent)."""
    vertical = masks.vertical_runs.longer_than(WALL_RUN * cell)
    horizontal = masks.horizontal_runs.longer_than(WALL_RUN * cell)
    if vertical.across.size < 2 or horizontal.across.size < 2:
        return None
    # weighed by the square of their length: walls span cells, a header's text only a little
    coherence_x, offset_x = _coherence(vertical.across, vertical.length ** 2, cell)
    coherence_y, offset_y = _coherence(horizontal.across, horizontal.length ** 2, cell)
    height, width = shape
    if max(coherence_x, coherence_y) >= MIN_COHERENCE > min(coherence_x, coherence_y):
        # other lines across the image (a window's panels and toolbars) blur one axis: its
        # coherence is taken again over the runs crossing the board's span along the other axis
        # (lines running on well past the board's edges, or beyond the walls' own span, are
        # not its walls)
        if coherence_x >= MIN_COHERENCE:
            left = _place(vertical, horizontal, offset_x, cell, WIDTH, width, -0.5)
            inside = _within(horizontal, left - 0.5 * cell, left + (WIDTH + 0.5) * cell)
            walls = _on_grid(_crossing(vertical, left, left + WIDTH * cell, across=True), offset_x, cell)
            inside = _crossing(inside, walls.start.min() - 0.5 * cell, walls.end.max() + 0.5 * cell, across=True) \
                if walls.across.size else inside
            coherence_y, offset_y = _coherence(inside.across, inside.length ** 2, cell)
        else:
            top = _place(horizontal, vertical, offset_y, cell, HEIGHT, height, -GRID_TOLERANCE)
            inside = _within(vertical, top - 0.5 * cell, top + (HEIGHT + 0.5) * cell)
            walls = _on_grid(_crossing(horizontal, top, top + HEIGHT * cell, across=True), offset_y, cell)
            inside = _crossing(inside, walls.start.min() - 0.5 * cell, walls.end.max() + 0.5 * cell, across=True) \
                if walls.across.size else inside
            coherence_x, offset_x = _coherence(inside.across, inside.length ** 2, cell)
    if min(coherence_x, coherence_y) < MIN_COHERENCE:
        return None
    # the board's edges: across first, then along with the runs that cross the board's columns,
    # then across again with those that cross its rows (text beside the board is left out)
    # the board may reach past the image's sides (its side lines are often the screen's edges),
    # but its top line, with the header above it, is in the image
    left = _place(vertical, horizontal, offset_x, cell, WIDTH, width, -0.5)
    columns = (left, left + WIDTH * cell)
    # (a line running on well past the board's sides, a window's panel, is none of its walls)
    top = _place(_within(horizontal, columns[0] - 0.5 * cell, columns[1] + 0.5 * cell),
                 _on_grid(_crossing(vertical, *columns, across=True), offset_x, cell),
                 offset_y, cell, HEIGHT, height, -GRID_TOLERANCE)
    # no wall goes on above the board's top line (the header is there): walls that do put the
    # board lower than it is (its inner walls: a panel's border may run on beside its sides)
    walls = _on_grid(_crossing(vertical, columns[0] + 0.5 * cell, columns[1] - 0.5 * cell, across=True),
                     offset_x, cell)
    while top - cell >= -GRID_TOLERANCE * cell:
        above = (walls.start < top - 0.5 * cell) & (walls.end > top + GRID_TOLERANCE * cell)
        if walls.length[above].sum() < cell:
            break
        top -= cell
    rows = (top, top + HEIGHT * cell)
    left = _place(_within(vertical, rows[0] - 0.5 * cell, rows[1] + 0.5 * cell),
                  _on_grid(_crossing(horizontal, *rows, across=True), offset_y, cell),
                  offset_x, cell, WIDTH, width, -0.5)
    if top + HEIGHT * cell > height + 0.5 * cell or left + WIDTH * cell < 0.5 * cell or left > width - 0.5 * cell:
        return None
    geometry = BoardGeometry(left, top, cell)
    margin = GRID_TOLERANCE * cell * 2

    def inside(runs: Runs, lo: float, hi: float, lo_along: float, hi_along: float) -> tuple[float, float]:
        within = ((runs.across > lo - margin) & (runs.across < hi + margin)
                  & (runs.start > lo_along - margin) & (runs.end < hi_along + margin))
        share = runs.length[within].sum() / runs.length.sum()
        extent = (runs.end[within].max() - runs.start[within].min()) if within.any() else 0.0
        return float(share), float(extent)

    share_v, extent_v = inside(vertical, geometry.left, geometry.right, geometry.top, geometry.bottom)
    share_h, extent_h = inside(horizontal, geometry.top, geometry.bottom, geometry.left, geometry.right)
    fill = min(1.0, extent_h / (WIDTH * cell)) * min(1.0, extent_v / (HEIGHT * cell))
    coherence = min(coherence_x, coherence_y)
    return Candidate(geometry, coherence * share_v * share_h * fill, coherence)


def _refine(masks: LineMasks, geometry: BoardGeometry) -> BoardGeometry:
    """Least-squares fit of left, top and the pitch to the walls inside the board."""
    cell = geometry.cell
    rows: list[list[float]] = []
    targets: list[float] = []
    weights: list[float] = []
    for runs, vertical in ((masks.vertical_runs, True), (masks.horizontal_runs, False)):
        runs = runs.longer_than(WALL_RUN * cell)
        origin = geometry.left if vertical else geometry.top
        count = WIDTH if vertical else HEIGHT
        index = np.round((runs.across - origin) / cell)
        near = (np.abs(runs.across - origin - index * cell) < GRID_TOLERANCE * cell) & (index >= 0) & (index <= count)
        for k, position, length in zip(index[near], runs.across[near], runs.length[near]):
            rows.append([1.0, 0.0, k] if vertical else [0.0, 1.0, k])
            targets.append(position)
            weights.append(length)
    if len(rows) < 4:
        return geometry
    a = np.array(rows)
    if np.linalg.matrix_rank(a) < 3:
        return geometry
    w = np.sqrt(np.array(weights))
    solution, *_ = np.linalg.lstsq(a * w[:, None], np.array(targets) * w, rcond=None)
    left, top, fitted = solution
    if abs(fitted - cell) > 0.05 * cell:
        return geometry
    return BoardGeometry(float(left), float(top), float(fitted))


#: How many autocorrelation peaks of each axis's wall positions are tried as the cell's side.
PERIOD_PEAKS = 4


def _repeating_pitches(runs: Runs, size: int) -> list[float]:
    """Pitches at which the long runs of one direction repeat across the image: the strongest
    peaks of the autocorrelation of their positions (weighed by length), to a tenth of a pixel.
    A board among other lines (Kibitz's whole window, a desktop) has its walls on one grid even
    where the longest lines of the image are not the board's."""
    long = runs.longer_than(2 * MIN_CELL)
    if long.across.size < 3 or size < 3 * MIN_CELL:
        return []
    profile = np.zeros(size)
    np.add.at(profile, np.clip(np.round(long.across).astype(int), 0, size - 1), long.length)
    correlation = autocorrelation(profile)
    lags = np.arange(int(MIN_CELL), min(size // 3, correlation.size - 1))
    if lags.size == 0:
        return []
    peak = (correlation[lags] >= correlation[lags - 1]) & (correlation[lags] >= correlation[lags + 1])
    lags = lags[peak]
    best = lags[np.argsort(-correlation[lags])[:PERIOD_PEAKS]]
    pitches = []
    for lag in best.tolist():
        before, at, after = correlation[lag - 1:lag + 2]
        curvature = before - 2 * at + after
        pitches.append(lag + (0.5 * (before - after) / curvature if curvature < 0 else 0.0))
    return pitches


def _sharpened(masks: LineMasks, pitch: float) -> float:
    """The pitch within 3 % of ``pitch`` at which the long runs of both directions sit best on
    one grid each (an autocorrelation peak is a pixel or so off: over eight cells that is a
    grid line's width)."""
    vertical = masks.vertical_runs.longer_than(WALL_RUN * pitch)
    horizontal = masks.horizontal_runs.longer_than(WALL_RUN * pitch)
    trials = pitch * (1.0 + np.linspace(-0.03, 0.03, 25))

    def fit(runs: Runs) -> np.ndarray:
        if runs.across.size == 0:
            return np.zeros(trials.size)
        weights = runs.length ** 2
        phasors = np.exp(2j * np.pi * runs.across[None, :] / trials[:, None]) @ weights
        return np.abs(phasors) / weights.sum()

    return float(trials[int(np.argmax(np.maximum(fit(vertical), fit(horizontal))))])


def find_board(masks: LineMasks, shape: tuple[int, int]) -> Candidate | None:
    """The best board the line masks show, or None. The cell's side is tried at what the longest
    lines suggest (the dotted line spans 8 cells, a wall up to 16) and at the pitches the walls
    repeat at."""
    pitches = set()
    for extent in _line_extents(masks.horizontal_runs, False):
        pitches.update((extent / WIDTH, extent / (WIDTH // 2)))
    for extent in _line_extents(masks.vertical_runs, True):
        pitches.update((extent / HEIGHT, extent / WIDTH))
    pitches.update(_sharpened(masks, pitch) for pitch in _repeating_pitches(masks.vertical_runs, shape[1]))
    pitches.update(_sharpened(masks, pitch) for pitch in _repeating_pitches(masks.horizontal_runs, shape[0]))
    best: Candidate | None = None
    for cell in sorted(pitches):
        if cell < MIN_CELL:
            continue
        candidate = _judge(masks, cell, shape)
        if candidate is not None and (best is None or candidate.score > best.score):
            best = candidate
    if best is None or best.coherence < MIN_COHERENCE:
        return best
    refined = _refine(masks, best.geometry)
    again = _judge(masks, refined.cell, shape)
    if again is not None and again.score >= best.score * 0.98:
        best = Candidate(_refine(masks, again.geometry), again.score, again.coherence)
    return best


# -- the board at its normal size ----------------------------------------------------------------
#: The board (with its header) is cut from the caller's image and scaled so that a cell is this
#: many pixels: shrunk by area averaging, enlarged by linear interpolation. Every threshold of the
#: reading is then in these pixels, the work is the same for any screenshot, and a small board's
#: strokes are spread over enough pixels to be told from the hatching.
NORMAL_CELL = 48
#: The cut's margins around the board, in cells (the header is a cell high).
CUT_MARGIN = (0.3, 1.0, 0.3, 0.3)  # left, top, right, bottom


@dataclasses.dataclass(frozen=True)
class BoardImage:
    """The board cut from the caller's image at NORMAL_CELL pixels a cell: its grey levels, the
    annotation pixels, the board's geometry in these pixels, where the cut starts in the caller's
    pixels and the scale (copy pixels per caller pixel, x and y)."""

    grey: np.ndarray
    coloured: np.ndarray
    geometry: BoardGeometry
    origin: tuple[int, int]
    scale: tuple[float, float]
    #: the grey levels with annotation colours kept (a tint's hatching shows through)
    shaded: np.ndarray | None = None

    @property
    def line_offset(self) -> int:
        """How far across a line its sides are looked at: LINE_OFFSET, more on an enlarged board
        (its lines are as many pixels wider)."""
        return max(LINE_OFFSET, int(round(LINE_OFFSET * (self.scale[0] + self.scale[1]) / 2)))

    def in_caller_pixels(self, geometry: BoardGeometry) -> dict[str, float]:
        (sx, sy), (x0, y0) = self.scale, self.origin
        return {"left": round(x0 + (geometry.left + 0.5) / sx - 0.5, 1),
                "top": round(y0 + (geometry.top + 0.5) / sy - 0.5, 1),
                "cell": round(geometry.cell * 2 / (sx + sy), 2)}


def _cell_grid(board_px: dict[str, float], shape: tuple[int, ...]) -> dict[str, Any]:
    """The reading's cell grid (``vision.reading.CellGrid``) from the board's caller pixels."""
    return CellGrid(board_px["left"], board_px["top"], board_px["cell"], board_px["cell"], HEIGHT, WIDTH,
                    (shape[1], shape[0])).to_json()


def _halved_brightest(image: np.ndarray) -> np.ndarray:
    """``image`` at half its size, each pixel the brightest of the 2 x 2 it covers."""
    brightest = cv2.dilate(image, np.ones((2, 2), np.uint8), anchor=(0, 0), borderType=cv2.BORDER_REPLICATE)
    return brightest[::2, ::2]


def normal_board(bgr: np.ndarray, found: BoardGeometry) -> BoardImage:
    """The board found (``found`` in the caller's pixels) and its header at NORMAL_CELL: the
    grey levels and annotation mask of the cut, shrunk by area averaging or enlarged linearly."""
    height, width = bgr.shape[:2]
    cell = found.cell
    left, top, right, bottom = CUT_MARGIN
    x0 = min(max(int(np.floor(found.left - left * cell)), 0), width - 1)
    x1 = max(min(int(np.ceil(found.right + right * cell)), width), x0 + 1)
    y0 = min(max(int(np.floor(found.top - top * cell)), 0), height - 1)
    y1 = max(min(int(np.ceil(found.bottom + bottom * cell)), height), y0 + 1)
    cut = np.ascontiguousarray(bgr[y0:y1, x0:x1])
    grey, coloured = _grey_and_colour(cut)
    # the grey levels under a tint too (Kibitz's highlights and advice fill boxes with a
    # translucent colour: the hatching still shows through)
    shaded = cv2.cvtColor(cut, cv2.COLOR_BGR2GRAY) if coloured.any() else grey
    factor = NORMAL_CELL / cell
    size = (max(int(round((x1 - x0) * factor)), 1), max(int(round((y1 - y0) * factor)), 1))
    coloured = coloured.view(np.uint8)
    if factor < 0.5:
        # a big board's lines may be a single pixel, which shrinking by area fades into the
        # hatching: it is first halved keeping the brightest pixel of every 2 x 2
        grey, coloured, shaded = _halved_brightest(grey), _halved_brightest(coloured), _halved_brightest(shaded)
    interpolation = cv2.INTER_AREA if factor < 1 else cv2.INTER_LINEAR
    same = shaded is grey
    grey = cv2.resize(grey, size, interpolation=interpolation)
    shaded = grey if same else cv2.resize(shaded, size, interpolation=interpolation)
    coloured = cv2.resize(coloured, size, interpolation=cv2.INTER_NEAREST) > 0
    sx, sy = size[0] / (x1 - x0), size[1] / (y1 - y0)
    geometry = BoardGeometry((found.left - x0 + 0.5) * sx - 0.5, (found.top - y0 + 0.5) * sy - 0.5,
                             cell * (sx + sy) / 2)
    return BoardImage(grey, coloured, geometry, (x0, y0), (sx, sy), shaded)


#: Fitting the grid: a line is looked for this far (in cells) from where the first guess puts it,
#: and counts when the mask covers at least this many cells of its length.
FIT_WINDOW = 0.15
FIT_LEAST = 0.5


def _line_positions(profile: np.ndarray, origin: float, cell: float, count: int):
    """Where each of the ``count + 1`` grid lines peaks in ``profile`` (mask pixels per position
    across the lines) near ``origin + k * cell``: (k, position, weight) of the lines seen."""
    half = max(2, int(round(FIT_WINDOW * cell)))
    found = []
    for k in range(count + 1):
        guess = int(round(origin + k * cell))
        lo, hi = max(guess - half, 0), min(guess + half + 1, profile.size)
        if hi - lo < 3:
            continue
        window = profile[lo:hi]
        peak = int(np.argmax(window))
        if window[peak] < FIT_LEAST * cell:
            continue
        a, b = max(peak - 1, 0), min(peak + 2, window.size)
        weights = window[a:b].astype(np.float64)
        found.append((k, lo + float((np.arange(a, b) * weights).sum() / weights.sum()), float(window[peak])))
    return found


def fit_grid(vertical: np.ndarray, horizontal: np.ndarray, geometry: BoardGeometry) -> BoardGeometry:
    """Left, top and the cell's side fitted (weighted least squares) to the lines the masks show
    near the first guess: the columns' and rows' counts of line pixels inside the board peak on
    its grid lines."""
    height, width = vertical.shape
    for _ in range(2):
        cell = geometry.cell
        rows = slice(max(int(geometry.top), 0), max(min(int(geometry.bottom) + 1, height), 0))
        columns = slice(max(int(geometry.left), 0), max(min(int(geometry.right) + 1, width), 0))
        column_counts = np.count_nonzero(vertical[rows], axis=0)
        row_counts = np.count_nonzero(horizontal[:, columns], axis=1)
        equations, targets, weights = [], [], []
        for k, position, weight in _line_positions(column_counts, geometry.left, cell, WIDTH):
            equations.append((1.0, 0.0, k))
            targets.append(position)
            weights.append(weight)
        for k, position, weight in _line_positions(row_counts, geometry.top, cell, HEIGHT):
            equations.append((0.0, 1.0, k))
            targets.append(position)
            weights.append(weight)
        a = np.array(equations, np.float64).reshape(-1, 3)
        seen = a[:, :2].any(axis=0)
        if a.shape[0] < 3 or not seen.any():
            return geometry
        # an axis without a line keeps its first guess
        known = np.array([geometry.left, geometry.top])
        fixed = ~seen
        b = np.array(targets) - a[:, :2][:, fixed] @ known[fixed]
        a = a[:, np.concatenate([seen, [True]])]
        if np.linalg.matrix_rank(a) < a.shape[1]:
            return geometry
        w = np.sqrt(np.array(weights))
        solution, *_ = np.linalg.lstsq(a * w[:, None], b * w, rcond=None)
        values = dict(zip([name for name, s in zip(("left", "top"), seen) if s] + ["cell"], solution))
        if abs(values["cell"] - cell) > 0.05 * cell:
            return geometry
        geometry = BoardGeometry(float(values.get("left", geometry.left)), float(values.get("top", geometry.top)),
                                 float(values["cell"]))
    return geometry


# -- cells ---------------------------------------------------------------------------------------
PLAIN, POINT, VOID = 0, 1, 2


def _box_sums(integral: np.ndarray, x0: np.ndarray, y0: np.ndarray, x1: np.ndarray, y1: np.ndarray) -> np.ndarray:
    """Sums over the rectangles [x0, x1) x [y0, y1) of the image whose integral is given."""
    return integral[y1, x1] - integral[y0, x1] - integral[y1, x0] + integral[y0, x0]


def _cell_patches(geometry: BoardGeometry, shape: tuple[int, int], inset: float):
    """Pixel bounds (clipped to the image) of every cell's inside, as 16 x 8 arrays."""
    height, width = shape
    columns = np.arange(WIDTH)[None, :]
    rows = np.arange(HEIGHT)[:, None]
    x0 = np.floor(geometry.x_edge(columns + inset)).astype(int)
    x1 = np.ceil(geometry.x_edge(columns + 1 - inset)).astype(int)
    y0 = np.floor(geometry.y_edge(rows + inset)).astype(int)
    y1 = np.ceil(geometry.y_edge(rows + 1 - inset)).astype(int)
    x0, x1 = np.clip(x0, 0, width), np.clip(x1, 0, width)
    y0, y1 = np.clip(y0, 0, height), np.clip(y1, 0, height)
    shape16 = (HEIGHT, WIDTH)
    return (np.broadcast_to(x0, shape16), np.broadcast_to(y0, shape16),
            np.broadcast_to(x1, shape16), np.broadcast_to(y1, shape16))


@dataclasses.dataclass(frozen=True)
class CellKinds:
    kinds: np.ndarray       # 16 x 8 of PLAIN / POINT / VOID
    confidence: np.ndarray  # 16 x 8 in [0, 1]
    white: np.ndarray       # share of white pixels in each cell's inside
    hatch: np.ndarray       # hatching contrast of each cell's inside
    unhatched: np.ndarray   # taken as point blocks for their grey, no hatching seen
    advice: np.ndarray | None = None  # plain for the advice's bluish tint
    tinted: np.ndarray | None = None  # mostly under a colour (a highlight's or the advice's fill)


def classify_cells(grey: np.ndarray, coloured: np.ndarray, geometry: BoardGeometry,
                   shaded: np.ndarray | None = None) -> CellKinds:
    """White (void), hatched (point block) or black (plain box), per cell, with a margin. The
    hatching is looked for in ``shaded`` (the grey levels with annotation colours kept: a tint
    lets it show through) when given. A cell grey inside but not hatched (hatching finer than
    the pixels can show, or a box tinted grey) is doubtful: taken as a point block."""
    shaded = grey if shaded is None else shaded
    x0, y0, x1, y1 = _cell_patches(geometry, grey.shape, CELL_INSET)
    area = np.maximum((x1 - x0) * (y1 - y0), 1)
    # annotation pixels count neither way (their grey is zeroed, so they are not white)
    white = cv2.integral(((grey > 200) & ~coloured).view(np.uint8))
    known = cv2.integral((~coloured).view(np.uint8))
    known_area = np.maximum(_box_sums(known, x0, y0, x1, y1), 1)
    # a cell mostly under a colour is tinted: its few uncoloured pixels (a rank number drawn on
    # the tint) are not the cell's colour
    tinted = known_area < (1.0 - TINTED) * area
    white_share = _box_sums(white, x0, y0, x1, y1) / np.where(tinted, area, known_area)
    # hatching runs along (1, 1): pixels change little along it, much across it
    x1c, y1c = np.minimum(x1, grey.shape[1] - 1), np.minimum(y1, grey.shape[0] - 1)

    def hatching(image: np.ndarray) -> np.ndarray:
        along = cv2.absdiff(image[1:, 1:], image[:-1, :-1]).astype(np.int16)
        across = cv2.absdiff(image[:-1, 1:], image[1:, :-1]).astype(np.int16)
        return _box_sums(cv2.integral(across - along), np.minimum(x0, x1c), np.minimum(y0, y1c), x1c, y1c) / area

    hatch = hatching(grey)
    # the grey levels show through a tint; an annotation's lines over a cell are not its hatching
    if shaded is not grey and tinted.any():
        hatch = np.where(tinted, hatching(shaded), hatch)
    empty = (x1 <= x0) | (y1 <= y0)

    inside = _box_sums(cv2.integral(grey), x0, y0, x1, y1) / area
    hatched = hatch >= HATCH_CONTRAST
    kinds = np.where(white_share >= VOID_SHARE, VOID, np.where(hatched | (inside >= GREY_INSIDE), POINT, PLAIN))
    void_margin = np.abs(white_share - VOID_SHARE) / VOID_SHARE
    hatch_margin = np.abs(hatch - HATCH_CONTRAST) / HATCH_CONTRAST
    dark_margin = np.where(hatched, 1.0, (GREY_INSIDE - inside) / (0.5 * GREY_INSIDE))
    confidence = np.where(kinds == VOID, void_margin, np.minimum(np.minimum(void_margin, hatch_margin), dark_margin))
    confidence = np.clip(confidence, 0.0, 1.0)
    confidence[empty] = 0.0
    # what is under a tint is seen through a colour: never sure
    confidence[tinted] = np.minimum(confidence[tinted], TINTED_CONFIDENCE)
    return CellKinds(kinds, confidence, white_share, hatch, (kinds == POINT) & ~hatched, tinted=tinted)


#: Kibitz's advice fills the boxes it ranks with a bluish grey (blue above green above red, blue
#: above red by at least this many levels): a grey box so tinted is a plain box (only those can
#: be split), however grey.
ADVICE_TINT = 3.0
#: How sure a cell so recognised is.
ADVICE_TINT_CONFIDENCE = 0.7


def _advice_tinted(bgr: np.ndarray, board: BoardImage, geometry: BoardGeometry, cells: CellKinds) -> CellKinds:
    """``cells`` with the grey unhatched ones tinted like Kibitz's advice taken as plain boxes."""
    x0, y0, x1, y1 = _cell_patches(geometry, board.grey.shape, CELL_INSET)
    (sx, sy), (ox, oy) = board.scale, board.origin
    height, width = bgr.shape[:2]
    kinds, confidence = cells.kinds.copy(), cells.confidence.copy()
    for y, x in zip(*np.nonzero(cells.unhatched)):
        left, right = int(ox + x0[y, x] / sx), int(np.ceil(ox + x1[y, x] / sx))
        top, bottom = int(oy + y0[y, x] / sy), int(np.ceil(oy + y1[y, x] / sy))
        patch = bgr[max(top, 0):min(bottom, height), max(left, 0):min(right, width)]
        if patch.size == 0:
            continue
        # the median: a rank number is drawn on the tint
        blue, green, red = np.median(patch.reshape(-1, 3), axis=0)
        if blue > green > red and blue >= red + ADVICE_TINT:
            kinds[y, x] = PLAIN
            confidence[y, x] = min(ADVICE_TINT_CONFIDENCE, abs(cells.white[y, x] - VOID_SHARE) / VOID_SHARE)
    return dataclasses.replace(cells, kinds=kinds, confidence=confidence, unhatched=cells.unhatched & (kinds == POINT),
                               advice=cells.unhatched & (kinds == PLAIN))


#: A wall running on this share of a cell past the board's side (unbroken) crosses it.
PAST_SIDE = 0.25


def _walls_run_past_sides(vertical: np.ndarray, horizontal: np.ndarray, geometry: BoardGeometry,
                          walls: "Walls") -> bool:
    """Whether a wall meeting the board's left, right or bottom side runs on unbroken past it
    (the top side is left out: the header stands there)."""
    height, width = horizontal.shape
    cell = geometry.cell
    reach = PAST_SIDE * cell
    tolerance = LINE_OFFSET

    def runs_on(mask: np.ndarray, line: float, start: float, stop: float, along_rows: bool) -> bool:
        lo, hi = int(np.ceil(min(start, stop))), int(np.floor(max(start, stop)))
        extent = width if along_rows else height
        if lo < 0 or hi >= extent or hi - lo < 2:
            return False
        centre = int(round(line))
        for offset in range(-tolerance, tolerance + 1):
            index = centre + offset
            if not 0 <= index < (height if along_rows else width):
                continue
            if (mask[index, lo:hi + 1] if along_rows else mask[lo:hi + 1, index]).all():
                return True
        return False

    left, right, bottom = geometry.x_edge(0), geometry.x_edge(8), geometry.y_edge(16)
    for row in range(1, 16):
        y = geometry.y_edge(row)
        if walls.between_rows[row - 1, 7] >= 0.5 and runs_on(horizontal, y, right + tolerance + 1,
                                                             right + reach, True):
            return True
        if walls.between_rows[row - 1, 0] >= 0.5 and runs_on(horizontal, y, left - reach,
                                                             left - tolerance - 1, True):
            return True
    for column in range(1, 8):
        x = geometry.x_edge(column)
        if walls.between_columns[15, column - 1] >= 0.5 and runs_on(vertical, x, bottom + tolerance + 1,
                                                                    bottom + reach, False):
            return True
    return False


def _straight(mask: np.ndarray, vertical: bool) -> np.ndarray:
    """The pieces of a line mask at least LINE_BLUR pixels long along their direction."""
    run = np.ones((LINE_BLUR, 1) if vertical else (1, LINE_BLUR), np.uint8)
    return cv2.morphologyEx(mask.view(np.uint8), cv2.MORPH_OPEN, run).view(bool)


#: A plain box is one colour inside (black, or one tint of Kibitz's advice): cells of one box
#: whose median grey levels differ by more than this were joined across a wall not seen.
TINT_STEP = 6


def _uneven_tints_doubtful(shapes: BoxShapes, grey: np.ndarray, geometry: BoardGeometry,
                           advice: np.ndarray | None = None, tinted: np.ndarray | None = None) -> BoxShapes:
    """``shapes`` with every cell of a plain box whose cells differ in shade made doubtful, and
    of a box tinted by the advice next to another so tinted (two ranks' tints differ by a few
    grey levels: the wall between them is faint, and nothing else tells them apart)."""
    x0, y0, x1, y1 = _cell_patches(geometry, grey.shape, CELL_INSET)
    confidence, problems = shapes.confidence, list(shapes.problems)
    for (x, y, w, h), kind in zip(shapes.boxes, shapes.kinds):
        if w * h == 1:
            continue
        if tinted is not None and 0 < tinted[y:y + h, x:x + w].sum() < w * h:
            # a tint fills a whole box: a box partly tinted was joined across a wall not seen
            if confidence is shapes.confidence:
                confidence = confidence.copy()
            confidence[y:y + h, x:x + w] = np.minimum(confidence[y:y + h, x:x + w], IMPOSSIBLE_CONFIDENCE)
            continue
        if kind != PLAIN:
            continue
        if advice is not None and advice[y:y + h, x:x + w].any():
            around = np.zeros_like(advice)
            around[max(y - 1, 0):y + h + 1, x:x + w] = True
            around[y:y + h, max(x - 1, 0):x + w + 1] = True
            around[y:y + h, x:x + w] = False
            if (advice & around).any():
                if confidence is shapes.confidence:
                    confidence = confidence.copy()
                confidence[y:y + h, x:x + w] = np.minimum(confidence[y:y + h, x:x + w], IMPOSSIBLE_CONFIDENCE)
                continue
        shades = [float(np.median(grey[y0[cy, cx]:y1[cy, cx], x0[cy, cx]:x1[cy, cx]]))
                  for cy in range(y, y + h) for cx in range(x, x + w) if y1[cy, cx] > y0[cy, cx] and x1[cy, cx] > x0[cy, cx]]
        if shades and max(shades) - min(shades) > TINT_STEP:
            if confidence is shapes.confidence:
                confidence = confidence.copy()
            confidence[y:y + h, x:x + w] = np.minimum(confidence[y:y + h, x:x + w], IMPOSSIBLE_CONFIDENCE)
            problems.append(f"the box at ({x},{y}) is not one shade inside: a wall between boxes may be missed")
    return dataclasses.replace(shapes, confidence=confidence, problems=problems)


#: A plain box is black inside; Kibitz fills the box under the mouse (stippled) and the boxes the
#: advice ranks (tinted): a cell whose inside is on average this many grey levels above black (or
#: mostly under a colour) is lit. Black boxes stay within two levels, JPEG and scaling included;
#: the stipple is at least ten.
LIT = 5.0
#: Cells of at least this many of the caller's pixels show the hatching of point blocks.
HATCHING_SHOWN_CELL = 40.0
#: How sure the cells of two equal boxes that may be one box whose split is previewed are.
CUT_BY_PREVIEW_CONFIDENCE = 0.5
#: A wall is drawn solid; Kibitz's preview draws a dashed line across the box under the mouse:
#: a line whose tenth-darkest point along it rises less than this share of its median above the
#: cells beside it is broken (walls keep 0.85 or more, JPEG and scaling included; the dashes
#: 0.15 or less wherever the gaps are wider than a pixel of the caller's).
SOLID_ALONG = 0.5


def _lit_cells(grey: np.ndarray, geometry: BoardGeometry, tinted: np.ndarray | None) -> np.ndarray:
    """16 x 8: whether each cell's inside is lit (brighter than black, or tinted)."""
    x0, y0, x1, y1 = _cell_patches(geometry, grey.shape, CELL_INSET)
    area = (x1 - x0) * (y1 - y0)
    inside = _box_sums(cv2.integral(grey), x0, y0, x1, y1) / np.maximum(area, 1)
    lit = (inside >= LIT) & (area > 0)
    return lit | tinted if tinted is not None else lit


def _line_solidity(grey: np.ndarray, geometry: BoardGeometry, vertical: bool, line: int, first: int,
                   count: int) -> float:
    """How unbroken the line on grid line ``line`` (a column edge when ``vertical``, else a row
    edge) is along cells ``first`` .. ``first + count - 1`` (their corners left out): the tenth
    percentile of its brightness above the cells beside it over the median; 1.0 when no line
    stands out there."""
    cell = geometry.cell
    reach = max(3, int(round(0.1 * cell)))
    image = grey.T if vertical else grey
    centre = int(round((geometry.x_edge if vertical else geometry.y_edge)(line)))
    along = geometry.y_edge if vertical else geometry.x_edge
    low, high = max(centre - reach, 0), min(centre + reach + 1, image.shape[0])
    pieces = [image[low:high, int(np.ceil(along(k + 0.2))):int(along(k + 0.8))] for k in range(first, first + count)]
    pieces = [piece for piece in pieces if piece.size]
    if not pieces or high - low < 3:
        return 1.0
    band = np.concatenate(pieces, axis=1).astype(np.float32)
    # the line's own pixels: a frame drawn beside a wall (the advice's dashed one) is no gap in it
    profile = band[int(np.argmax(band.mean(axis=1)))]
    above = np.clip(profile - np.median(np.concatenate((band[0], band[-1]))), 0, None)
    middle = float(np.median(above))
    return float(np.percentile(above, 10)) / middle if middle > 0 else 1.0


def _previewed_splits(shapes: BoxShapes, grey: np.ndarray, geometry: BoardGeometry, lit: np.ndarray,
                      unhatched: np.ndarray | None = None) -> BoxShapes:
    """``shapes`` with two plain boxes of one size, side by side or one above the other, that may
    be one box whose split Kibitz previews (the box under the mouse filled, a dashed line drawn
    across its middle, where a wall between its halves would be), made doubtful: both lit inside
    alike (the advice's tints make two boxes so too), or the line between them broken. Both at
    once are that preview: the two are read as the one plain box, still doubtful. A box grey
    inside without hatching (``unhatched``, taken as a point block; given only where the board
    shows hatching) may be such a fill too (a big board's stipple, its dots shrunk together)."""
    plain = {box for box, kind in zip(shapes.boxes, shapes.kinds)
             if kind == PLAIN or (unhatched is not None and unhatched[box[1]:box[1] + box[3], box[0]:box[0] + box[2]].all())}
    boxes, kinds = list(shapes.boxes), list(shapes.kinds)
    confidence, problems = shapes.confidence, list(shapes.problems)
    merged: set[tuple[int, int, int, int]] = set()
    for x, y, w, h in sorted(plain, key=lambda box: (box[1], box[0])):
        for vertical, other in ((True, (x + w, y, w, h)), (False, (x, y + h, w, h))):
            if other not in plain or {(x, y, w, h), other} & merged:
                continue
            right, bottom = other[0] + w, other[1] + h
            both_lit = bool(lit[y:bottom, x:right].all())
            broken = (_line_solidity(grey, geometry, True, x + w, y, h) if vertical
                      else _line_solidity(grey, geometry, False, y + h, x, w)) < SOLID_ALONG
            if not (both_lit or broken):
                continue
            if confidence is shapes.confidence:
                confidence = confidence.copy()
            confidence[y:bottom, x:right] = np.minimum(confidence[y:bottom, x:right], CUT_BY_PREVIEW_CONFIDENCE)
            if both_lit and broken:
                merged |= {(x, y, w, h), other}
                boxes[boxes.index((x, y, w, h))] = (x, y, right - x, bottom - y)
                kinds[boxes.index((x, y, right - x, bottom - y))] = PLAIN
                gone = boxes.index(other)
                del boxes[gone], kinds[gone]
                problems.append(f"a dashed line across the lit box at ({x},{y}): its split previewed, read as one box")
            else:
                why = "both lit inside" if both_lit else "the line between them broken"
                problems.append(f"the boxes at ({x},{y}) and ({other[0]},{other[1]}) may be one box whose split "
                                f"is previewed ({why})")
    return dataclasses.replace(shapes, boxes=boxes, kinds=kinds, confidence=confidence, problems=problems)


def _drawn_lines(coloured: np.ndarray, cell: float) -> np.ndarray:
    """The coloured pixels that are lines drawn over the board (an annotation's arrow or ellipse
    may cross a wall: it is bridged), not filled areas (a tint over a box, across which no wall
    goes on)."""
    if not coloured.any():
        return coloured
    side = max(3, int(round(0.3 * cell)))
    filled = cv2.morphologyEx(coloured.view(np.uint8), cv2.MORPH_OPEN, np.ones((side, side), np.uint8))
    return coloured & ~filled.view(bool)


# -- walls and boxes -----------------------------------------------------------------------------
@dataclasses.dataclass(frozen=True)
class Walls:
    """Share of each inner cell edge covered by a wall: ``between_columns[y, x]`` is the edge
    between cells (x, y) and (x + 1, y), ``between_rows[y, x]`` between (x, y) and (x, y + 1);
    and the walls' pixels in the line masks (so the digits' ink can leave them out)."""

    between_columns: np.ndarray  # 16 x 7
    between_rows: np.ndarray     # 15 x 8
    vertical: np.ndarray         # bool image
    horizontal: np.ndarray
    #: edges along which a coloured line runs (a highlight's outline): the wall is not seen
    hidden_columns: np.ndarray | None = None
    hidden_rows: np.ndarray | None = None


def _long_stretches(on: np.ndarray, least: float, bridge: np.ndarray | None = None,
                    longest_bridge: float | None = None) -> np.ndarray:
    """``on`` (1-D bool) with only its stretches of at least ``least`` elements kept. Elements of
    ``bridge`` join the stretches on either side (an annotation crossing a wall; at most
    ``longest_bridge`` of them in a row: a coloured line running along the grid line is no wall
    crossing it); a stretch so joined must still be mostly ``on``."""
    if bridge is not None and longest_bridge is not None:
        gaps = np.concatenate(([0], (bridge & ~on).view(np.int8), [0]))
        edges = np.flatnonzero(np.diff(gaps))
        long_gaps = np.zeros(on.size + 1, np.int32)
        for start, end in zip(edges[::2], edges[1::2]):
            if end - start > longest_bridge:
                long_gaps[start] += 1
                long_gaps[end] -= 1
        bridge = bridge & ~(np.cumsum(long_gaps[:-1]) > 0)
    joined = on if bridge is None else on | bridge
    padded = np.concatenate(([0], joined.view(np.int8), [0]))
    changes = np.flatnonzero(np.diff(padded))
    starts, ends = changes[::2], changes[1::2]
    keep = (ends - starts) >= least
    if bridge is not None and keep.any():
        real = np.concatenate(([0], np.cumsum(on)))
        keep &= (real[ends] - real[starts]) >= 0.5 * (ends - starts)
    marks = np.zeros(on.size + 1, np.int32)
    marks[starts[keep]] = 1  # stretches neither touch nor overlap: no index twice
    marks[ends[keep]] = -1
    return np.cumsum(marks[:-1]) > 0


def _band(line: float, tolerance: float, size: int) -> tuple[int, int]:
    return max(int(np.floor(line - tolerance)), 0), min(max(int(np.ceil(line + tolerance)) + 1, 0), size)


def find_walls(vertical: np.ndarray, horizontal: np.ndarray, geometry: BoardGeometry, offset: int = LINE_OFFSET,
               annotations: np.ndarray | None = None, faint: tuple[np.ndarray, np.ndarray] | None = None) -> Walls:
    """The walls: along each grid line, the stretches where a line mask has a pixel within
    GRID_TOLERANCE of it for at least WALL_RUN cells (a wall between two cells runs on into the
    corners; the bars of a number centred on a grid line stop well short of a cell), and how much
    of each inner cell edge they cover (the edge's ends, where crossing walls meet, left out).
    Pixels of ``annotations`` (drawn over the board) bridge a wall they cross. With ``faint``
    (the masks again at a lower contrast), an edge's share is measured on those: a wall between
    two boxes tinted grey stands out less."""
    cell = geometry.cell
    tolerance = max(1.5, GRID_TOLERANCE * cell)
    least = WALL_RUN * cell
    end_gap = 0.2 * cell
    shares, hiddens = {}, {}
    walls = {}
    faint_masks = faint if faint is not None else (vertical, horizontal)
    for is_vertical, mask, faint_mask, count, crossing_count in ((True, vertical, faint_masks[0], WIDTH, HEIGHT),
                                                                (False, horizontal, faint_masks[1], HEIGHT, WIDTH)):
        # rows across the lines, columns along them (a band of rows is then fast to read)
        lines = np.ascontiguousarray(mask.T) if is_vertical else mask
        faint_lines = np.ascontiguousarray(faint_mask.T) if is_vertical else faint_mask
        drawn = None
        if annotations is not None and annotations.any():
            drawn = np.ascontiguousarray(annotations.T) if is_vertical else annotations
        wall = np.zeros_like(lines)
        across, length = lines.shape
        edge = geometry.x_edge if is_vertical else geometry.y_edge
        along_edge = geometry.y_edge if is_vertical else geometry.x_edge
        def edge_part(begin: float, end: float) -> tuple[np.ndarray, np.ndarray]:
            """Pixel bounds of the part [begin, end] (in cells) of every edge along the line."""
            cells = np.arange(crossing_count)
            return (np.clip(np.round(along_edge(cells + begin)).astype(int), 0, length),
                    np.clip(np.round(along_edge(cells + end)).astype(int), 0, length))

        parts = [edge_part(end_gap / cell, 1 - end_gap / cell)]
        share = np.zeros((count - 1, crossing_count))
        hidden = np.zeros((count - 1, crossing_count), bool)
        inside = (max(int(np.floor(along_edge(0) - tolerance)), 0),
                  max(int(np.ceil(along_edge(crossing_count) + tolerance)) + 1, 0))
        for k in range(count + 1):
            a, b = _band(edge(k), tolerance, across)
            if a >= b:
                continue
            band = lines[a:b]
            stretch = _long_stretches(band.any(axis=0), least, None if drawn is None else drawn[a:b].any(axis=0),
                                      LONGEST_BRIDGE * cell)
            # a wall ends at the board's edge (a header digit's bar standing on a line drawn
            # down from it, a highlight, is not wall)
            stretch[:inside[0]] = False
            stretch[inside[1]:] = False
            if stretch.any():
                # the wall's own pixels: those within ``offset`` of where the band's stretch
                # peaks (a header digit's bar just above the board's top line stays ink)
                peak = a + int(np.argmax(np.count_nonzero(band & stretch, axis=1)))
                lo, hi = max(peak - offset, 0), peak + offset + 1
                wall[lo:hi] |= lines[lo:hi] & stretch
            if 1 <= k <= count - 1:
                if faint is not None:
                    stretch = _long_stretches(faint_lines[a:b].any(axis=0), least,
                                              None if drawn is None else drawn[a:b].any(axis=0), LONGEST_BRIDGE * cell)
                    stretch[:inside[0]] = False
                    stretch[inside[1]:] = False
                covered = np.concatenate(([0], np.cumsum(stretch)))
                share[k - 1] = np.min([(covered[stops] - covered[starts]) / np.maximum(stops - starts, 1)
                                       for starts, stops in parts], axis=0)
                if drawn is not None:
                    # a coloured line along the edge hides whether a wall is under it
                    along = np.concatenate(([0], np.cumsum(drawn[a:b].any(axis=0))))
                    starts, stops = parts[0]
                    hidden[k - 1] = (along[stops] - along[starts]) / np.maximum(stops - starts, 1) >= WALL_SHARE
        shares[is_vertical] = share
        hiddens[is_vertical] = hidden
        walls[is_vertical] = wall.T if is_vertical else wall
    return Walls(shares[True].T, shares[False], walls[True], walls[False], hiddens[True].T, hiddens[False])


@dataclasses.dataclass(frozen=True)
class BoxShapes:
    boxes: list[tuple[int, int, int, int]]   # x, y, w, h of every box (plain and point)
    kinds: list[int]                         # PLAIN or POINT, per box
    voids: list[tuple[int, int]]
    confidence: np.ndarray                   # 16 x 8: how sure the cell's box is
    problems: list[str]


def group_boxes(cells: CellKinds, walls: Walls) -> BoxShapes:
    """The boxes: cells of the same kind joined where no wall separates them."""
    kinds = cells.kinds
    parent = list(range(HEIGHT * WIDTH))

    def find(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    confidence = cells.confidence.copy()
    # an edge is sure when its wall share is far from WALL_SHARE (an edge next to a void is moot)
    edge_columns = np.minimum(1.0, np.abs(walls.between_columns - WALL_SHARE) / 0.35)
    edge_rows = np.minimum(1.0, np.abs(walls.between_rows - WALL_SHARE) / 0.35)
    if walls.hidden_columns is not None:
        edge_columns = np.where(walls.hidden_columns, np.minimum(edge_columns, TINTED_CONFIDENCE), edge_columns)
        edge_rows = np.where(walls.hidden_rows, np.minimum(edge_rows, TINTED_CONFIDENCE), edge_rows)
    void = kinds == VOID
    edge_columns[void[:, :-1] | void[:, 1:]] = 1.0
    edge_rows[void[:-1, :] | void[1:, :]] = 1.0
    # boxes of two kinds with no wall seen between them: a box ends at a wall, so the boxes end
    # there only if both kinds are right (a plain box whose lower half was taken for a point
    # block made two boxes of one): each cell is as sure as the less sure kind of the two
    either = np.minimum(cells.confidence[:, :-1], cells.confidence[:, 1:])
    edge_columns = np.where((kinds[:, :-1] != kinds[:, 1:]) & (walls.between_columns < WALL_SHARE)
                            & ~(void[:, :-1] | void[:, 1:]),
                            np.minimum(edge_columns, either), edge_columns)
    either = np.minimum(cells.confidence[:-1, :], cells.confidence[1:, :])
    edge_rows = np.where((kinds[:-1, :] != kinds[1:, :]) & (walls.between_rows < WALL_SHARE)
                         & ~(void[:-1, :] | void[1:, :]),
                         np.minimum(edge_rows, either), edge_rows)
    confidence[:, :-1] = np.minimum(confidence[:, :-1], edge_columns)
    confidence[:, 1:] = np.minimum(confidence[:, 1:], edge_columns)
    confidence[:-1, :] = np.minimum(confidence[:-1, :], edge_rows)
    confidence[1:, :] = np.minimum(confidence[1:, :], edge_rows)
    join_columns = (walls.between_columns < WALL_SHARE) & (kinds[:, :-1] == kinds[:, 1:]) & ~void[:, :-1]
    join_rows = (walls.between_rows < WALL_SHARE) & (kinds[:-1, :] == kinds[1:, :]) & ~void[:-1, :]
    for y, x in zip(*np.nonzero(join_columns)):
        parent[find(y * WIDTH + x)] = find(y * WIDTH + x + 1)
    for y, x in zip(*np.nonzero(join_rows)):
        parent[find(y * WIDTH + x)] = find((y + 1) * WIDTH + x)

    members: dict[int, list[tuple[int, int]]] = {}
    voids: list[tuple[int, int]] = []
    for y in range(HEIGHT):
        for x in range(WIDTH):
            if kinds[y, x] == VOID:
                voids.append((x, y))
            else:
                members.setdefault(find(y * WIDTH + x), []).append((x, y))
    boxes, box_kinds, problems = [], [], []
    for cells_of_box in members.values():
        xs = [x for x, _ in cells_of_box]
        ys = [y for _, y in cells_of_box]
        x, y = min(xs), min(ys)
        w, h = max(xs) - x + 1, max(ys) - y + 1
        kind = int(kinds[cells_of_box[0][1], cells_of_box[0][0]])
        if w * h == len(cells_of_box) and _power_of_two(w) and _power_of_two(h):
            boxes.append((x, y, w, h))
            box_kinds.append(kind)
            continue
        # a wall was missed (or seen where there is none): the cells are read as boxes the
        # game can have, all doubtful
        shape = "a rectangle" if w * h != len(cells_of_box) else "a box with sides of powers of two"
        problems.append(f"the cells joined at ({x},{y}) do not form {shape}")
        for cx, cy in cells_of_box:
            confidence[cy, cx] = 0.0
        for piece in _possible_boxes(cells_of_box):
            boxes.append(piece)
            box_kinds.append(kind)
    return BoxShapes(boxes, box_kinds, voids, confidence, problems)


def _power_of_two(side: int) -> bool:
    return side > 0 and side & (side - 1) == 0


def _possible_boxes(cells: list[tuple[int, int]]) -> list[tuple[int, int, int, int]]:
    """The cells cut into boxes with sides of powers of two: from the top-left cell left, the
    largest such rectangle of them each time."""
    left = set(cells)
    pieces = []
    while left:
        x, y = min(left, key=lambda cell: (cell[1], cell[0]))
        best = (1, 1)
        for w in (8, 4, 2, 1):
            for h in (16, 8, 4, 2, 1):
                if w * h > best[0] * best[1] and all((x + i, y + j) in left for i in range(w) for j in range(h)):
                    best = (w, h)
        w, h = best
        left -= {(x + i, y + j) for i in range(w) for j in range(h)}
        pieces.append((x, y, w, h))
    return pieces


# -- glyphs --------------------------------------------------------------------------------------
#: Templates are this many pixels wide and high (``glyphs.png``).
TEMPLATE_WIDTH, TEMPLATE_HEIGHT = 10, 20
#: A glyph whose ink is at most this wide for its height is a 1 (a lone bar).
ONE_ASPECT = 0.3
#: A glyph is read when its strokes differ from the best template's by at most this much (sum
#: over the zones of the difference in coverage, each 0..1).
GLYPH_DISTANCE = 2.5
#: A glyph differing from its best template by this much (most of one stroke) is read doubtfully,
#: at most MISFIT_CONFIDENCE.
MISFIT = 0.8
MISFIT_CONFIDENCE = 0.5
#: The zones where a segmented glyph may have strokes, as (left, right, top, bottom) fractions of
#: its ink box and whether a stroke there runs across (its coverage is the share of columns
#: inked) or up and down (the share of rows): top, middle and bottom bars; the four side bars;
#: the centre above and below the middle (T's stem, R's leg).
ZONES = (
    (0.25, 0.75, 0.0, 0.17, True), (0.25, 0.75, 0.4, 0.6, True), (0.25, 0.75, 0.83, 1.0, True),
    (0.0, 0.25, 0.17, 0.4, False), (0.75, 1.0, 0.17, 0.4, False),
    (0.0, 0.25, 0.6, 0.83, False), (0.75, 1.0, 0.6, 0.83, False),
    (0.38, 0.62, 0.17, 0.4, False), (0.38, 0.62, 0.6, 0.83, False),
)


def glyph_patch(ink: np.ndarray) -> np.ndarray:
    """A glyph's ink (bool, cropped to its box) scaled to the template size, 0 or 1 (a pixel of the
    patch is inked when any pixel under it is, so thin strokes survive)."""
    size = (TEMPLATE_WIDTH, TEMPLATE_HEIGHT)
    patch = cv2.resize(ink.view(np.uint8) * np.uint8(255), size, interpolation=cv2.INTER_AREA) > 5
    return patch.astype(np.float32)


@functools.lru_cache(maxsize=1)
def _zone_slices() -> tuple[tuple[slice, slice, bool], ...]:
    """ZONES in template pixels."""
    zones = []
    for left, right, top, bottom, across in ZONES:
        x0 = int(round(left * TEMPLATE_WIDTH))
        x1 = max(int(round(right * TEMPLATE_WIDTH)), x0 + 1)
        y0 = int(round(top * TEMPLATE_HEIGHT))
        y1 = max(int(round(bottom * TEMPLATE_HEIGHT)), y0 + 1)
        zones.append((slice(y0, y1), slice(x0, x1), across))
    return tuple(zones)


def stroke_coverage(patches: np.ndarray) -> np.ndarray:
    """How much of each zone (``ZONES``) a stroke covers, 0..1 each, for one template-sized patch
    or a stack of them."""
    inked = np.asarray(patches) > 0.5
    single = inked.ndim == 2
    inked = inked[None] if single else inked
    values = np.empty((inked.shape[0], len(ZONES)))
    for index, (rows, columns, across) in enumerate(_zone_slices()):
        zone = inked[:, rows, columns]
        values[:, index] = zone.any(axis=1).mean(axis=1) if across else zone.any(axis=2).mean(axis=1)
    return values[0] if single else values


#: The whole length of the stroke of each zone of ZONES, as (left, right, top, bottom) fractions
#: of the glyph's box: a bar across runs the box's width, a side bar or the stem half its height.
STROKE_SPANS = (
    (0.0, 1.0, 0.0, 0.17), (0.0, 1.0, 0.4, 0.6), (0.0, 1.0, 0.83, 1.0),
    (0.0, 0.25, 0.0, 0.5), (0.75, 1.0, 0.0, 0.5), (0.0, 0.25, 0.5, 1.0), (0.75, 1.0, 0.5, 1.0),
    (0.38, 0.62, 0.0, 0.5), (0.38, 0.62, 0.5, 1.0),
)


def straight_coverage(patch: np.ndarray) -> np.ndarray:
    """How much of each stroke (``STROKE_SPANS``, in the order of ``ZONES``) one straight line
    along it covers, 0..1 each, for a template-sized patch: the most of the stroke's length one
    row covers (a bar across) or one column (a bar up and down). A line crossing a stroke's
    place aslant could hide only the short stretch of it that it crosses."""
    inked = np.asarray(patch) > 0.5
    values = np.empty(len(STROKE_SPANS))
    for index, (left, right, top, bottom) in enumerate(STROKE_SPANS):
        x0, y0 = int(round(left * TEMPLATE_WIDTH)), int(round(top * TEMPLATE_HEIGHT))
        x1 = max(int(round(right * TEMPLATE_WIDTH)), x0 + 1)
        y1 = max(int(round(bottom * TEMPLATE_HEIGHT)), y0 + 1)
        span = inked[y0:y1, x0:x1]
        values[index] = span.mean(axis=1).max() if ZONES[index][4] else span.mean(axis=0).max()
    return values


@functools.lru_cache(maxsize=1)
def _templates() -> tuple[str, np.ndarray]:
    """The template characters and the stroke coverage of each."""
    from assets.vision.splt.make_templates import CHARACTERS

    data = resources.files("assets.vision.splt").joinpath("glyphs.png").read_bytes()
    strip = cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_GRAYSCALE).astype(np.float32) / 255.0
    patches = strip.reshape(TEMPLATE_HEIGHT, len(CHARACTERS), TEMPLATE_WIDTH).transpose(1, 0, 2)
    return CHARACTERS, stroke_coverage(patches)


@dataclasses.dataclass(frozen=True)
class Glyph:
    character: str   # "?" when nothing matched
    confidence: float
    left: int        # ink box in the searched region's pixels
    right: int
    top: int
    bottom: int


def match_glyphs(inks: list[np.ndarray]) -> list[tuple[str, float]]:
    """The character of each glyph's ink box and how sure (0..1: the margin over the runner-up)."""
    results: list[tuple[str, float] | None] = [None] * len(inks)
    wide = []
    for index, ink in enumerate(inks):
        height, width = ink.shape
        if width <= ONE_ASPECT * height:
            # a lone bar: sure when clearly narrow
            results[index] = ("1", float(np.clip((ONE_ASPECT * height - width) / (0.15 * height), 0.0, 1.0)))
        else:
            wide.append(index)
    if wide:
        characters, coverages = _templates()
        found = stroke_coverage(np.stack([glyph_patch(inks[index]) for index in wide]))
        distances = np.abs(found[:, None, :] - coverages[None, :, :]).sum(axis=2)
        order = np.argsort(distances, axis=1)
        for row, index in enumerate(wide):
            best, second = distances[row, order[row, 0]], distances[row, order[row, 1]]
            if best > GLYPH_DISTANCE:
                results[index] = ("?", 0.0)
            else:
                sure = float(np.clip((second - best) / 1.5, 0.0, 1.0))
                if best >= MISFIT:
                    # most of a stroke is where the template has none, or missing where it has
                    # one: the ink is not cleanly this character (a 17 read as a 0 without its foot)
                    sure = min(sure, MISFIT_CONFIDENCE)
                results[index] = (characters[order[row, 0]], sure)
    return results  # type: ignore[return-value]


def _without_specks(ink: np.ndarray, size: float) -> np.ndarray:
    """The ink without its pieces smaller than ``size`` both ways (noise, hatching's remains)."""
    count, labels, stats, _ = components(ink.view(np.uint8), connectivity=8)
    keep = np.maximum(stats[:, cv2.CC_STAT_WIDTH], stats[:, cv2.CC_STAT_HEIGHT]) >= size
    keep[0] = False
    return keep[labels]


#: A digit's ink is about this wide for its height, and the gap to the next about this share of
#: its width.
DIGIT_ASPECT = 0.62
DIGIT_GAP = 0.4
#: The digits of a number are at least this share of the tallest one's height (the letters of
#: SCORE and SPLITS are about half as tall).
SAME_HEIGHT = 0.65
#: A column with at most this many inked pixels between a 1 and the next digit is a bridge
#: drawn across their gap.
BRIDGE = 1
#: A piece this many digits' widths wide or more holds more than one glyph.
WIDE_PIECE = 1.25
#: Rows of a glyph are one stretch with gaps of at most this many empty rows.
ROW_GAP = 2


def _inked_columns(ink: np.ndarray) -> np.ndarray:
    """The columns with ink, one-column gaps closed where a stroke runs on across them (ink on
    both sides in one row): a gap of the font between two strokes of a digit, or a corner the masks missed, not
    the space between two glyphs."""
    columns = ink.any(axis=0)
    if ink.shape[1] < 3:
        return columns
    columns[1:-1] |= (ink[:, :-2] & ink[:, 2:]).any(axis=0)
    return columns


def _bridged_one(piece: np.ndarray, column_ink: list[int], height: int) -> int:
    """The width of a 1 standing a column or so before the next digit at the left of a piece of
    ink (0 if none): a full-height bar, then a digit's gap empty but for a thin line the blur
    drew across it (not the inside of an 8 or a 0, wider), then a glyph as tall (not an L's
    foot). A piece too wide for one digit may be bridged by all three of the next digit's bars."""
    width = len(column_ink)
    bridges = [BRIDGE] + ([3 * BRIDGE] if width >= WIDE_PIECE * DIGIT_ASPECT * height else [])
    for bridge in bridges:
        bar = _bridged_at(piece, column_ink, height, bridge)
        if bar:
            return bar
    return 0


def _bridged_at(piece: np.ndarray, column_ink: list[int], height: int, bridge: int) -> int:
    """:func:`_bridged_one` for gap columns of at most ``bridge`` inked pixels."""
    width = len(column_ink)
    for bar in range(1, min(int(ONE_ASPECT * height), width - 1) + 1):
        if column_ink[bar] <= bridge:
            if width - bar - 1 < 0.45 * height or column_ink[bar - 1] <= bridge:
                return 0
            if np.count_nonzero(piece[:, :bar].any(axis=1)) < 0.75 * height:
                return 0
            # the gap is a digit's gap (a single column crossed by a bar is the font's own gap
            # between an 8's bars)
            end = bar
            while end < width and column_ink[end] <= bridge:
                end += 1
            gap = end - bar
            if (gap < 2 and column_ink[bar]) or gap > DIGIT_GAP * DIGIT_ASPECT * height or end >= width:
                return 0
            rest = np.nonzero(piece[:, bar + 1:].any(axis=1))[0]
            return bar if rest.size and rest[-1] - rest[0] + 1 >= 0.6 * height else 0
    return 0


def _split_joined(piece: np.ndarray, offset: int) -> list[tuple[int, int]]:
    """Column ranges of the glyphs in a piece of ink: more than one where a blurred bar bridged
    the narrow gap between two digits (the piece is then too wide for one), or where a 1 (a lone
    bar) stands a column away from the digit after it. Each cut goes where the fewest pixels are
    inked near the place the digits' widths put it."""
    rows = np.nonzero(piece.any(axis=1))[0]
    width = piece.shape[1]
    if rows.size == 0:
        return [(offset, offset + width)]
    height = rows[-1] - rows[0] + 1
    bar = _bridged_one(piece, np.count_nonzero(piece, axis=0).tolist(), height)
    if bar:
        return [(offset, offset + bar)] + _split_joined(piece[:, bar + 1:], offset + bar + 1)
    glyph = DIGIT_ASPECT * (rows[-1] - rows[0] + 1)
    gap = DIGIT_GAP * glyph
    count = int(round((width + gap) / (glyph + gap)))
    if count <= 1 or width < 1.4 * glyph:
        return [(offset, offset + width)]
    inked = piece.sum(axis=0)
    pitch = (width + gap) / count
    cuts = [0]
    for k in range(1, count):
        centre = int(round(k * pitch - gap / 2))
        lo, hi = max(centre - int(gap), cuts[-1] + 1), min(centre + int(gap) + 1, width - 1)
        if hi > lo:
            # the emptiest column, the one nearest to where the pitch puts it among equals
            cost = inked[lo:hi] + np.abs(np.arange(lo, hi) - centre) / (2 * gap + 1)
            cuts.append(lo + int(np.argmin(cost)))
        else:
            cuts.append(centre)
    cuts.append(width)
    return [(offset + a, offset + b) for a, b in zip(cuts, cuts[1:]) if b > a]


def _main_rows(piece: np.ndarray) -> tuple[int, int, int]:
    """The rows of the text in a piece of ink: the stretch of inked rows (gaps of up to
    ROW_GAP rows bridged) holding the most ink, with the other stretches over its columns (a
    digit missing a side bar falls apart in two); a line passing below or above the digits and
    beyond them on both sides (the phone's home bar) is left out. Also how many stretches that
    might have been part of the text were left out."""
    counts = np.count_nonzero(piece, axis=1)
    rows = np.nonzero(counts)[0]
    if rows.size == 0:
        return 0, 0, 0
    breaks = np.nonzero(np.diff(rows) > ROW_GAP + 1)[0] + 1
    if breaks.size == 0:
        return int(rows[0]), int(rows[-1]) + 1, 0
    stretches = [(int(stretch[0]), int(stretch[-1]) + 1) for stretch in np.split(rows, breaks)]

    def columns(top: int, bottom: int) -> tuple[int, int]:
        inked = np.nonzero(piece[top:bottom].any(axis=0))[0]
        return int(inked[0]), int(inked[-1]) + 1

    main = max(stretches, key=lambda stretch: counts[stretch[0]:stretch[1]].sum())
    top, bottom = main
    left, right = columns(top, bottom)
    left_out = 0
    for other_top, other_bottom in stretches:
        if (other_top, other_bottom) == main:
            continue
        other_left, other_right = columns(other_top, other_bottom)
        if other_left < left - 1 and other_right > right + 1:
            continue  # a line across the text
        overlap = min(right, other_right) - max(left, other_left)
        if overlap >= 0.5 * min(right - left, other_right - other_left):
            top, bottom = min(top, other_top), max(bottom, other_bottom)
        else:
            left_out += 1
    return top, bottom, left_out


def glyph_boxes(region: np.ndarray, min_height: float) -> tuple[list[tuple[int, int, int, int]], int]:
    """The ink boxes (left, right, top, bottom) of the glyphs in a region's ink, left to right:
    in the rows of its text, pieces between empty columns whose ink is at least ``min_height``
    tall; digits of one number share a height, so shorter marks (letters, dots) are left out.
    Also how many pieces were left out."""
    ink = region
    top, bottom, left_out = _main_rows(ink)
    if top > 0 or bottom < ink.shape[0]:
        ink = np.zeros_like(ink)
        ink[top:bottom] = region[top:bottom]
    columns = _inked_columns(ink)
    if not columns.any():
        return [], left_out
    padded = np.concatenate([[False], columns, [False]])
    changes = np.nonzero(np.diff(padded.astype(np.int8)))[0]
    pieces = []
    for left, right in zip(changes[::2], changes[1::2]):
        pieces.extend(piece for piece in _split_joined(ink[:, left:right], int(left)) if piece[1] > piece[0])
    boxes = []
    for left, right in pieces:
        top, bottom, beside = _main_rows(ink[:, left:right])
        left_out += beside
        if bottom - top < min_height:
            continue
        inked = np.nonzero(ink[top:bottom, left:right].any(axis=0))[0]
        boxes.append((int(left + inked[0]), int(left + inked[-1] + 1), top, bottom))
    if boxes:
        tallest = max(bottom - top for _, _, top, bottom in boxes)
        boxes = [box for box in boxes if box[3] - box[2] >= SAME_HEIGHT * tallest]
    return boxes, len(pieces) - len(boxes) + left_out


def _side_by_side(regions: list[np.ndarray]) -> tuple[np.ndarray, dict[int, int]]:
    """The regions (those not empty) side by side in one strip, three empty columns apart (never
    closed as a one-column gap), and where each starts."""
    sized = [index for index, region in enumerate(regions) if region.size]
    height = max((regions[index].shape[0] for index in sized), default=0)
    starts, position = {}, 0
    for index in sized:
        starts[index] = position
        position += regions[index].shape[1] + 3
    strip = np.zeros((height, position), bool)
    for index in sized:
        region = regions[index]
        strip[:region.shape[0], starts[index]:starts[index] + region.shape[1]] = region
    return strip, starts


def _without_specks_each(regions: list[np.ndarray], size: float) -> list[np.ndarray]:
    """Each region's ink without its pieces smaller than ``size`` both ways (found for all
    regions at once, side by side)."""
    strip, starts = _side_by_side(regions)
    if not starts:
        return regions
    strip = _without_specks(strip, size)
    return [strip[:region.shape[0], starts[index]:starts[index] + region.shape[1]] if index in starts else region
            for index, region in enumerate(regions)]


def _simple_glyph_boxes(regions: list[np.ndarray], min_height: float) -> list[tuple[list, int] | None]:
    """:func:`glyph_boxes` of every region whose ink is simple: its rows and every piece's rows
    one unbroken stretch, and no piece to cut. All regions are looked at together, side by side
    in one strip (most numbers are simple, and numpy works on them all at once); None for the
    regions that need the full treatment."""
    results: list[tuple[list, int] | None] = [([], 0) for _ in regions]
    strip, starts = _side_by_side(regions)
    sized = list(starts)
    if not sized:
        return results
    height = strip.shape[0]
    columns = _inked_columns(strip)
    changes = np.flatnonzero(np.diff(np.concatenate(([False], columns, [False])).view(np.int8)))
    lefts, rights = changes[::2], changes[1::2]
    if lefts.size == 0:
        return results

    def row_spans(boundaries: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Top, bottom and whether the inked rows are unbroken, for the column groups starting
        at ``boundaries``."""
        rows = np.logical_or.reduceat(strip, boundaries, axis=1)
        tops = np.argmax(rows, axis=0)
        bottoms = height - np.argmax(rows[::-1], axis=0)
        return tops, bottoms, np.count_nonzero(rows, axis=0) == bottoms - tops

    region_starts = np.array([starts[index] for index in sized])
    _, _, region_unbroken = row_spans(region_starts)
    tops, bottoms, unbroken = row_spans(lefts)
    column_ink = np.count_nonzero(strip, axis=0).tolist()
    owners = np.searchsorted(region_starts, lefts, side="right") - 1
    simple = dict.fromkeys(sized, True)
    for index, ok in zip(sized, region_unbroken.tolist()):
        simple[index] = ok
    pieces: dict[int, list[tuple[int, int, int, int]]] = {index: [] for index in sized}
    for left, right, top, bottom, whole, owner in zip(lefts.tolist(), rights.tolist(), tops.tolist(),
                                                      bottoms.tolist(), unbroken.tolist(), owners.tolist()):
        index = sized[owner]
        if not simple[index]:
            continue
        piece_height, width = bottom - top, right - left
        glyph = DIGIT_ASPECT * piece_height
        joined = round((width + DIGIT_GAP * glyph) / (glyph + DIGIT_GAP * glyph)) > 1 and width >= 1.4 * glyph
        if not whole or joined or _bridged_one(strip[:, left:right], column_ink[left:right], piece_height):
            simple[index] = False
            continue
        pieces[index].append((left - starts[index], right - starts[index], top, bottom))
    for index in sized:
        if not simple[index]:
            results[index] = None
            continue
        boxes = [box for box in pieces[index] if box[3] - box[2] >= min_height]
        if boxes:
            tallest = max(bottom - top for _, _, top, bottom in boxes)
            boxes = [box for box in boxes if box[3] - box[2] >= SAME_HEIGHT * tallest]
        results[index] = (boxes, len(pieces[index]) - len(boxes))
    return results


def read_glyphs(ink: np.ndarray, min_height: float) -> list[Glyph]:
    """The glyphs in a region's ink, left to right (specks of noise left out first)."""
    ink = _without_specks(np.ascontiguousarray(ink), 0.4 * min_height)
    boxes, _ = glyph_boxes(ink, min_height)
    matches = match_glyphs([ink[top:bottom, left:right] for left, right, top, bottom in boxes])
    return [Glyph(character, confidence, *box) for (character, confidence), box in zip(matches, boxes)]


def _number(glyphs: list[Glyph]) -> tuple[int | None, float]:
    """The number the glyphs spell and the least sure glyph's confidence (None if not digits)."""
    text = "".join(g.character for g in glyphs)
    if not text or not text.isdigit():
        return None, 0.0
    return int(text), min(g.confidence for g in glyphs)


def _centred_number(boxes: list[tuple[int, int, int, int]], centre: float) -> list[tuple[int, int, int, int]]:
    """The glyphs of the number centred at column ``centre``: glyphs are cut into groups where a
    gap is wider than NUMBER_GAP of their height, and the group nearest the centre is kept (a
    wall's remains at the side of a block are not a 1 of its number)."""
    tallest = max(bottom - top for _, _, top, bottom in boxes)
    groups = [[boxes[0]]]
    for box in boxes[1:]:
        if box[0] - groups[-1][-1][1] > NUMBER_GAP * tallest:
            groups.append([])
        groups[-1].append(box)

    def distance(group: list[tuple[int, int, int, int]]) -> float:
        left, right = group[0][0], group[-1][1]
        return max(left - centre, centre - right, 0.0)

    return min(groups, key=distance)


#: Within a number, the gap between two glyphs is at most this share of their height (a 1 is a
#: bar on the right of its digit's place, so the gap before it is the widest).
NUMBER_GAP = 1.2


def read_numbers(ink: np.ndarray, regions: list[tuple[int, int, int, int]], min_height: float,
                 only_digits: bool = True, widest: float | None = None) -> list[tuple[int | None, float]]:
    """The number written in each region (x0, y0, x1, y1) of the ink and how sure; the glyphs of
    all regions are matched together. Pieces of ink too small for a digit (SPECK of its height)
    are left out first. With ``only_digits`` the region holds nothing else, so a piece of ink
    left out later (too short for a digit) makes its number doubtful, and so does a digit wider
    than ``widest`` (by default, than the widths of the digits read here allow)."""
    return [(read.number, read.sure) for read in _read_numbers(ink, regions, min_height, only_digits, widest)[0]]


@dataclasses.dataclass(frozen=True)
class _NumberRead:
    """One reading of a number at one stroke share: the number (None if not digits), how sure,
    the number it reads as when a side bar of a glyph that meets none of its across bars is
    parted from it as a 1 and the rest reads as a digit (``parted``: a 13 read as one 8), and
    whether a side bar misses some of the across bars (``loose``: the mark of such a 1
    touching a bar, but also of a corner the scaling opened, so it only asks for the other
    shares' readings)."""

    number: int | None
    sure: float
    parted: int | None = None
    loose: bool = False


def _read_numbers(ink: np.ndarray, regions: list[tuple[int, int, int, int]], min_height: float,
                  only_digits: bool = True, widest: float | None = None
                  ) -> tuple[list[_NumberRead], float]:
    """:func:`read_numbers` with what each reading's glyphs leave open, and the widest a digit
    may be that it went by."""
    height, width = ink.shape
    crops, owners = [], []
    found: list[list[Glyph]] = []
    left_out = []
    cut = _without_specks_each([ink[max(y0, 0):min(y1, height), max(x0, 0):min(x1, width)]
                                for x0, y0, x1, y1 in regions], SPECK / DIGIT_HEIGHT * min_height)
    simple = _simple_glyph_boxes(cut, min_height)
    for index, region in enumerate(cut):
        if simple[index] is not None:
            boxes, dropped = simple[index]
        else:
            boxes, dropped = glyph_boxes(region, min_height) if region.size else ([], 0)
        if only_digits and boxes:
            kept = _centred_number(boxes, region.shape[1] / 2)
            dropped += len(boxes) - len(kept)
            boxes = kept
        found.append([])
        left_out.append(dropped)
        for left, right, top, bottom in boxes:
            crops.append(region[top:bottom, left:right])
            owners.append((index, (left, right, top, bottom)))
    for (character, confidence), (index, box) in zip(match_glyphs(crops), owners):
        found[index].append(Glyph(character, confidence, *box))
    if widest is None:
        widest = _widest_digit(found)
    numbers = []
    for glyphs, dropped, region in zip(found, left_out, cut):
        number, sure = _number(glyphs)
        bars = [_side_bars_meet(region, g) for g in glyphs]
        if (only_digits and dropped) or _uneven(glyphs) or _ink_between(region, glyphs) \
                or (only_digits and _off_centre(glyphs, region.shape[1] / 2)) or _too_wide(glyphs) \
                or any(g.character != "1" and g.right - g.left > widest for g in glyphs) \
                or _cut_reads_otherwise(region, glyphs) or any(meets == 0 < runs for meets, runs in bars):
            sure = min(sure, LEFT_OUT_CONFIDENCE)
        parted = None
        if number is not None and any(meets == 0 < runs for meets, runs in bars):
            parts = [_parted(region, g) or g.character for g in glyphs]
            parted = int("".join(parts)) if any(len(part) == 2 for part in parts) else None
        numbers.append(_NumberRead(number, sure, parted, any(meets < runs for meets, runs in bars)))
    return numbers, widest


#: A block's number is centred on it: the digits' middle is at most this share of their height
#: off the block's middle (a wall's remains read as a 1 beside the digits put it off).
OFF_CENTRE = 0.3


#: A digit's ink is about DIGIT_ASPECT as wide as tall: one this much wider has taken in a
#: neighbour (a 1 standing a pixel from the next digit, read as one glyph).
TOO_WIDE = 0.85


#: The font's digits are all as wide: on one board a digit wider than the others' median by this
#: share (and at least WIDER_PIXELS, the scaling's rounding) may be a 1 standing against the
#: next digit (a 13 read as one 8).
WIDER = 0.15
WIDER_PIXELS = 3
#: At least this many digits (1s aside) on the board make their median width a measure.
WIDTH_SAMPLE = 4


def _widest_digit(numbers: list[list[Glyph]]) -> float:
    """The widest a digit (not a 1) may be among the digits read on a board (no limit with
    too few of them to tell)."""
    widths = [g.right - g.left for glyphs in numbers for g in glyphs if g.character not in "1?"]
    if len(widths) < WIDTH_SAMPLE:
        return float("inf")
    median = float(np.median(widths))
    return median + max(WIDER * median, WIDER_PIXELS - 0.5)


#: A side column of a glyph holding ink in at most this share of its rows is no stroke of it
#: (a stroke's end crossing it: a 3's bars fill about a third of them) but what joined it to
#: its neighbour.
JOINT_SHARE = 0.2


def _cut_reads_otherwise(region: np.ndarray, glyphs: list[Glyph]) -> bool:
    """Whether a glyph cut from ink joined to its neighbour reads as another character once the
    joint's columns at the cut are left out (the cut put a 48's joint inside the 8, so its
    left bar fell among the middle strokes and it read as a 3)."""
    for before, after in zip(glyphs, glyphs[1:]):
        if after.left > before.right:
            continue
        for glyph, from_left in ((after, True), (before, False)):
            ink = region[glyph.top:glyph.bottom, glyph.left:glyph.right]
            counts = np.count_nonzero(ink, axis=0)
            thin = counts <= JOINT_SHARE * ink.shape[0]
            if not thin.any() or glyph.character == "1":
                continue
            side = thin if from_left else thin[::-1]
            trim = int(np.argmin(side)) if not side.all() else 0
            if trim == 0:
                continue
            kept = ink[:, trim:] if from_left else ink[:, :ink.shape[1] - trim]
            rows = np.nonzero(kept.any(axis=1))[0]
            if rows.size == 0:
                continue
            character, _ = match_glyphs([kept[rows[0]:rows[-1] + 1]])[0]
            if character != glyph.character:
                return True
    return False


#: A column of a glyph inked over this share of its height is a side bar; a row inked over
#: ACROSS_BAR of its width is an across bar.
SIDE_BAR = 0.6
ACROSS_BAR = 0.5


def _side_bars_meet(region: np.ndarray, glyph: Glyph) -> tuple[int, int]:
    """How many of the glyph's across bars its side bars meet (the fewest, over a side bar on
    either side) and how many it has. In this font a side bar running the glyph's height meets
    every across bar (an 8's left bar its top, middle and bottom bars): one meeting none is a 1
    standing against the next digit, both read as one glyph (a 13 read as an 8); one missing
    some may be such a 1 touching a bar, or a digit's corner the scaling opened."""
    if glyph.character == "1":
        return 0, 0
    ink = region[glyph.top:glyph.bottom, glyph.left:glyph.right]
    height, width = ink.shape
    across = np.count_nonzero(ink, axis=1) >= ACROSS_BAR * width
    # each across bar is a run of rows (a bar a few pixels thick, or blurred over its neighbours)
    starts = np.flatnonzero(across & ~np.concatenate(([False], across[:-1])))
    ends = np.flatnonzero(across & ~np.concatenate((across[1:], [False]))) + 1
    runs = len(starts)
    bars = np.count_nonzero(ink, axis=0) > SIDE_BAR * height
    fewest = runs
    for side in (bars, bars[::-1]):
        count = int(np.argmin(side)) if not side.all() else width
        if count == 0 or count >= width - 1:
            continue
        inner = count if side is bars else width - 1 - count
        fewest = min(fewest, sum(bool(ink[start:end, inner].any()) for start, end in zip(starts, ends)))
    return fewest, runs


def _parted(region: np.ndarray, glyph: Glyph) -> str | None:
    """The glyph as a 1 and a digit ("13", "31") when a side bar of it meets none of its across
    bars and the rest, from where its across bars begin, matches a digit's template cleanly
    (closer than MISFIT: a 13 read as one 8 leaves a 3; a 4 whose middle bar stops a pixel
    short of its right bar leaves no digit); None otherwise."""
    if glyph.character in "1?":
        return None
    ink = region[glyph.top:glyph.bottom, glyph.left:glyph.right]
    height, width = ink.shape
    across = np.count_nonzero(ink, axis=1) >= ACROSS_BAR * width
    if not across.any():
        return None
    bars = np.count_nonzero(ink, axis=0) > SIDE_BAR * height
    characters, coverages = _templates()
    for from_left, side in ((True, bars), (False, bars[::-1])):
        count = int(np.argmin(side)) if not side.all() else width
        if count == 0 or count >= width - 1:
            continue
        inner = count if from_left else width - 1 - count
        if ink[across, inner].any():
            continue
        # the rest begins where its across bars do (the bar may be two pixels thick in places)
        reached = ink[across].any(axis=0)
        reached = reached if from_left else reached[::-1]
        skip = count + int(np.argmax(reached[count:]))
        rest = ink[:, skip:] if from_left else ink[:, :width - skip]
        rows = np.flatnonzero(rest.any(axis=1))
        if rows.size == 0 or rest.shape[1] <= ONE_ASPECT * rows.size:
            continue
        distances = np.abs(stroke_coverage(glyph_patch(rest[rows[0]:rows[-1] + 1])) - coverages).sum(axis=1)
        best = int(np.argmin(distances))
        if distances[best] < MISFIT and characters[best].isdigit():
            return "1" + characters[best] if from_left else characters[best] + "1"
    return None


def _too_wide(glyphs: list[Glyph]) -> bool:
    return any(g.right - g.left > TOO_WIDE * (g.bottom - g.top) for g in glyphs)


def _off_centre(glyphs: list[Glyph], centre: float) -> bool:
    """Whether the glyphs' middle is farther from ``centre`` than the font's centring allows."""
    if not glyphs:
        return False
    height = max(g.bottom - g.top for g in glyphs)
    middle = (min(g.left for g in glyphs) + max(g.right for g in glyphs)) / 2
    return abs(middle - centre) > OFF_CENTRE * height


def _ink_between(region: np.ndarray, glyphs: list[Glyph]) -> bool:
    """Whether ink was left out between two of a number's glyphs set wider apart than digits are
    (a digit missing strokes, too small to be read, is still there)."""
    for before, after in zip(glyphs, glyphs[1:]):
        height = max(before.bottom - before.top, after.bottom - after.top)
        if after.left - before.right >= DIGIT_GAP * height and region[
                min(before.top, after.top):max(before.bottom, after.bottom), before.right + 1:after.left - 1].any():
            return True
    return False


def _uneven(glyphs: list[Glyph]) -> bool:
    """Whether a number's digits (1s aside) differ in width by more than UNEVEN: the font's
    digits are all as wide, so one much wider has taken in a piece of its neighbour."""
    widths = sorted(g.right - g.left for g in glyphs if g.character not in "1?")
    return len(widths) >= 2 and widths[-1] > UNEVEN * widths[len(widths) // 2 - (len(widths) % 2 == 0)]


@dataclasses.dataclass(frozen=True)
class NumberReading:
    """A number read (None if none), how sure, and every number the readings gave, surest first."""

    value: int | None
    sure: float
    alternatives: tuple[int, ...] = ()


def read_again(strokes: Strokes, regions: list[tuple[int, int, int, int]], numbers: list[_NumberRead],
               min_height: float, only_digits: bool = True, strict: bool = False,
               widest: float | None = None) -> list[NumberReading]:
    """Every number read again from fainter strokes (STROKE_CHECK: a faint stroke the first
    reading missed turns an 8 into a 3); those read the same and sure both times, with every
    glyph's side bars meeting its across bars, are settled; the others are read at the other
    shares of STROKE_RETRIES too (a small board's faint or thin strokes, a noisy one's specks, a
    1 standing against the next digit that a stronger share parts from it). When every reading
    gives the same number, the strokes are clear and it is as sure as its best reading (the rest
    of the doubt is the font's), unless the first reading saw a side bar standing apart from a
    glyph's across bars that parts from it as a 1 (``_parted``): fainter shares joining the two
    do not part them (a 13 read as an 8 at every share), so the number stays doubtful, with the
    parted reading among its alternatives. Otherwise the readings vote: each number gets the
    confidence of the readings giving it, and the winner is as sure as its lead over the next,
    over all readings.
    ``strict`` (a small board's few-pixel strokes): every number is read at every share, and
    one that any of them reads otherwise is doubtful."""
    height, width = strokes.shape
    margin = 4
    checks, _ = _read_numbers(strokes.ink(STROKE_CHECK), regions, min_height, only_digits, widest)
    pending = [index for index, (first, check) in enumerate(zip(numbers, checks))
               if not (first.sure >= DOUBTFUL and check.number == first.number and check.sure >= DOUBTFUL
                       and not (strict or first.loose or check.loose))]
    retried: dict[int, list[_NumberRead]] = {index: [] for index in pending}
    if widest is not None and len(pending) > 1:
        # many numbers to read again (a strict reading): each share's strokes are found once for
        # the whole board (the same inside each region as in a window around it) and the numbers
        # read together; with the width limit given, each is read as it would be alone
        for share in STROKE_RETRIES:
            again, _ = _read_numbers(strokes.ink(share), [regions[index] for index in pending], min_height,
                                     only_digits, widest)
            for index, reading in zip(pending, again):
                retried[index].append(reading)
    settled = []
    for index, (first, check, (x0, y0, x1, y1)) in enumerate(zip(numbers, checks, regions)):
        if index not in retried:
            settled.append(NumberReading(first.number, first.sure, (first.number,)))
            continue
        if not retried[index]:
            window = (max(x0 - margin, 0), max(y0 - margin, 0), min(x1 + margin, width), min(y1 + margin, height))
            inside = (x0 - window[0], y0 - window[1], x1 - window[0], y1 - window[1])
            retried[index] = [_read_numbers(strokes.ink(share, window), [inside], min_height, only_digits,
                                            widest)[0][0] for share in STROKE_RETRIES]
        readings = [first, check] + retried[index]
        support: dict[int | None, float] = {}
        for reading in readings:
            support[reading.number] = support.get(reading.number, 0.0) + reading.sure
        support.pop(None, None)
        ranked = sorted(support.items(), key=lambda item: -item[1])
        if not ranked:
            settled.append(NumberReading(None, 0.0, ()))
            continue
        values = [value for value, _ in ranked]
        if len(ranked) == 1 and all(reading.number is not None for reading in readings):
            # every threshold reads the same: the strokes are clear, the margin is the font's
            sure = max(reading.sure for reading in readings)
            if first.parted is not None:
                sure = min(sure, LEFT_OUT_CONFIDENCE)
                values.append(first.parted)
            settled.append(NumberReading(ranked[0][0], sure, tuple(values)))
            continue
        lead = ranked[0][1] - (ranked[1][1] if len(ranked) > 1 else 0.0)
        confidence = lead / len(readings)
        settled.append(NumberReading(ranked[0][0], min(confidence, SPLIT_VOTE) if strict else confidence,
                                     tuple(values)))
    return settled


#: On a board whose cells are under this many pixels in the caller's image (digits under about
#: 14 pixels) a number the stroke shares do not all read alike is doubtful, at most SPLIT_VOTE.
STRICT_CELL = 40.0
SPLIT_VOTE = 0.5
#: Above this many pixels a cell (in the caller's image) the board is halved keeping the brightest
#: pixels before it is shrunk to NORMAL_CELL (``normal_board``): the hatching's lines, as bright
#: as a digit's, stay whole, but a bar that the shrinking spreads over two pixels is half as bright
#: as one falling on a single pixel, and may be no stronger than the hatching crossing it (an 8
#: read as a sure 3 at 235-px cells). Numbers there are read strictly too.
HALVED_CELL = 2 * NORMAL_CELL


def _strict(caller_cell: float) -> bool:
    """Whether numbers are read strictly (``read_again``) on a board of cells of ``caller_cell``
    pixels in the caller's image: a small board's few-pixel strokes, or a halved big board's."""
    return caller_cell < STRICT_CELL or caller_cell > HALVED_CELL


#: On a board whose cells are under this many pixels in the caller's image the digits are eleven
#: pixels tall or less, their strokes a pixel or less: a 3 and an 8 differ by a stroke the scaling
#: may have faded, a 1 a pixel from a 5 makes it a 6 (and at 32-px cells, scaled or JPEG'd, an 8
#: lost its left bar to read 6, a 6 its bottom-left to read 5), so no number read there is sure
#: (the previous position can settle them).
SMALL_DIGITS_CELL = 34.0
#: Under this many pixels a cell, no cell is sure.
TOO_SMALL_CELL = 18.0
SMALL_DIGITS_CONFIDENCE = 0.5
#: A number read with less confidence than this is read again (the reading's doubtful cut).
DOUBTFUL = 0.6
#: Digits of one number are this many times as wide as each other at most.
UNEVEN = 1.3
#: The confidence of a number when some ink beside its digits was left out (or its digits'
#: widths are uneven).
LEFT_OUT_CONFIDENCE = 0.3


def _ridge(grey: np.ndarray, vertical: bool, offset: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """After a blur along the lines of one direction: how much brighter each pixel is than the
    mean of the pixels ``offset`` away on both sides, and than the brighter of them (int16),
    and the blurred image."""
    blurred = cv2.blur(grey, (1, LINE_BLUR) if vertical else (LINE_BLUR, 1))
    kernel = np.zeros(2 * offset + 1, np.float32)
    kernel[0] = kernel[-1] = -0.5
    kernel[offset] = 1.0
    ridge = cv2.filter2D(blurred, cv2.CV_16S, kernel.reshape((1, -1) if vertical else (-1, 1)),
                         borderType=cv2.BORDER_REPLICATE)
    brightest_side = cv2.dilate(blurred, _side_kernel(vertical, offset), borderType=cv2.BORDER_REPLICATE)
    return ridge, cv2.subtract(blurred, brightest_side), blurred


#: Digit strokes: how much brighter than their sides for the walls' ridge (share; never less
#: than LEAST_CONTRAST grey levels), and the least share of its blurred brightness a stroke's
#: pixel has. Every number is read again at STROKE_CHECK; one that is doubtful or reads
#: differently there, at the shares of STROKE_RETRIES too.
STROKE_CONTRAST = 0.5
STROKE_CHECK = 0.4
STROKE_RETRIES = (0.6, 0.33)
LEAST_CONTRAST = 12
SOLID = 0.6


class Strokes:
    """The digits' strokes: where the walls are not, pixels that are, after a blur along the
    stroke, a ridge: brighter than the mean of the pixels ``offset`` away on both sides by a
    share of what the walls are (digits and walls are drawn in the same grey, and both fade
    alike when a small board is enlarged), and brighter than each side by a third of that (not
    the edge of something bright); and solid: at least SOLID times their blurred brightness (the
    dark gap between two digits' bars, which the blur bridges, is not).

    The ridges are measured once; :meth:`ink` thresholds them (at STROKE_CONTRAST, or another
    share to read a doubtful number again) in the whole board or a window of it."""

    def __init__(self, grey: np.ndarray, walls: Walls, geometry: BoardGeometry, offset: int = LINE_OFFSET):
        self.geometry = geometry
        self.shape = grey.shape
        self.directions = []
        self.offset = offset
        for vertical, wall in ((True, walls.vertical), (False, walls.horizontal)):
            ridge, above_sides, blurred = _ridge(grey, vertical, offset)
            if vertical:
                self.blurred = blurred
            on_walls = ridge[wall]
            wall_ridge = float(np.median(on_walls)) if on_walls.size else 60.0
            # pixels that can never be strokes: walls, and those not solid
            allowed = ~wall & (grey.astype(np.float32) >= SOLID * blurred)
            self.directions.append((vertical, ridge, above_sides, allowed, wall_ridge))

    def beside_bars(self, ink: np.ndarray, share: float = STROKE_CONTRAST) -> np.ndarray:
        """Pixels of the whole board that may be a side bar the ridge test lost: a bar standing
        next to another (the next digit's, as many pixels away as the test looks) is not brighter
        than that side. Such a pixel is brighter than its other side like a stroke, with a dip
        toward the bright side (the gap between the two bars), which is a stroke of ``ink`` (the
        strokes at ``share``). Only upright runs as long as :meth:`ink`'s, stretched to the bar's
        ends."""
        _, _, _, allowed, wall_ridge = self.directions[0]
        contrast = max(share * wall_ridge, LEAST_CONTRAST)
        blurred = self.blurred.astype(np.int16)
        offset = self.offset

        def shifted(image: np.ndarray, by: int) -> np.ndarray:
            """``image`` moved ``by`` columns right (left when negative), its edge column repeated."""
            out = np.empty_like(image)
            if by > 0:
                out[:, by:], out[:, :by] = image[:, :-by], image[:, :1]
            else:
                out[:, :by], out[:, by:] = image[:, -by:], image[:, -1:]
            return out

        mask = np.zeros(blurred.shape, bool)
        for toward in (1, -1):  # the bright side on the left, then on the right
            bright, other = shifted(blurred, toward * offset), shifted(blurred, -toward * offset)
            dip = bright
            for k in range(1, offset):
                dip = np.minimum(dip, shifted(blurred, toward * k))
            # the bright side a stroke (the next digit's bar), not a wall nor the hatching
            beside_ink = shifted(ink, toward * offset) | shifted(ink, toward * (offset + 1))
            mask |= (bright > blurred - contrast / 3) & (other < blurred - contrast) \
                & (dip < blurred - contrast / 2) & beside_ink
        mask &= allowed
        length = max(3, int(round(STROKE_RUN * self.geometry.cell)))
        runs = cv2.morphologyEx(mask.view(np.uint8), cv2.MORPH_OPEN, np.ones((length, 1), np.uint8))
        # to the bar's ends: where it meets an across bar it is no dip's neighbour
        return cv2.dilate(runs, np.ones((2 * length + 1, 1), np.uint8)).view(bool)

    def ink(self, share: float = STROKE_CONTRAST, window: tuple[int, int, int, int] | None = None) -> np.ndarray:
        """The strokes at ``share`` of the walls' ridge, in ``window`` (x0, y0, x1, y1) or the
        whole board. Only pieces of at least STROKE_RUN cells along their direction are kept, so
        what the hatching leaves (diagonal steps) goes (pieces too small to be part of a digit
        go when the numbers are read)."""
        part = np.s_[:, :] if window is None else np.s_[window[1]:window[3], window[0]:window[2]]
        length = max(3, int(round(STROKE_RUN * self.geometry.cell)))
        masks = []
        for vertical, ridge, above_sides, allowed, wall_ridge in self.directions:
            contrast = max(share * wall_ridge, LEAST_CONTRAST)
            mask = (ridge[part] > contrast) & (above_sides[part] > contrast / 3) & allowed[part]
            run = np.ones((length, 1) if vertical else (1, length), np.uint8)
            masks.append(cv2.morphologyEx(mask.view(np.uint8), cv2.MORPH_OPEN, run))
        return cv2.bitwise_or(*masks).view(bool)


#: Ink pieces smaller than this (in cells, both ways; in the header as much smaller than its
#: digits) are not part of a digit.
SPECK = 0.07
#: A number's digits are at least this tall (in cells), in a point block and in the header.
DIGIT_HEIGHT = 0.18
HEADER_DIGIT_HEIGHT = 0.2


#: A point block's number is centred on it, at most this far (in cells) above and below its middle
#: (its digits are about 0.36 cells tall; the phone's home bar passes 0.3 cells below the middle
#: of the bottom row).
NUMBER_HALF_HEIGHT = 0.25


def block_number_region(geometry: BoardGeometry, box: tuple[int, int, int, int]) -> tuple[int, int, int, int]:
    """Where the number of a point block is written: the middle of the block (x0, y0, x1, y1)."""
    x, y, w, h = box
    cell = geometry.cell
    centre_y = geometry.y_edge(y + h / 2)
    half = min(NUMBER_HALF_HEIGHT, h / 2 - 0.06) * cell
    return (int(round(geometry.x_edge(x) + 0.06 * cell)), int(round(centre_y - half)),
            int(round(geometry.x_edge(x + w) - 0.06 * cell)), int(round(centre_y + half)))


#: A stroke may lie under an annotation when what is seen and the colour together cover this
#: much of its length along one line; a stroke is missing when what is seen covers less than
#: STROKE_SEEN of its zone.
STROKE_HIDDEN = 0.75
STROKE_SEEN = 0.5


def _hidden_strokes_confidence(ink: np.ndarray, coloured: np.ndarray, region: tuple[int, int, int, int],
                               min_height: float) -> float:
    """How sure a number's glyphs stay when an annotation drawn over them (an ellipse in a shared
    screenshot) may hide strokes: its pixels are blacked out, so an 8 whose left bar is under a
    red line reads as a 3. Each glyph's place touched by the colour (its ink box, widened over
    the colour beside it to a digit's width) is matched with the font's other digits: one whose
    every stroke is seen or may be under the colour (STROKE_HIDDEN), and whose every missing
    stroke is not seen (STROKE_SEEN), may be what is written: the number is then doubtful
    (LEFT_OUT_CONFIDENCE); otherwise 1."""
    height, width = ink.shape
    x0, y0, x1, y1 = max(region[0], 0), max(region[1], 0), min(region[2], width), min(region[3], height)
    colour = coloured[y0:y1, x0:x1]
    if not colour.any():
        return 1.0
    piece = _without_specks_each([ink[y0:y1, x0:x1]], SPECK / DIGIT_HEIGHT * min_height)[0]
    boxes, _ = glyph_boxes(piece, min_height) if piece.size else ([], 0)
    if not boxes:
        return 1.0
    characters, coverages = _templates()
    digits = np.array([character.isdigit() for character in characters])
    strokes = coverages > 0.5
    for left, right, top, bottom in _centred_number(boxes, piece.shape[1] / 2):
        digit = int(round(DIGIT_ASPECT * (bottom - top)))
        beside = colour[top:bottom].any(axis=0)
        wider = np.flatnonzero(beside[max(right - digit, 0):left])
        start = max(right - digit, 0) + int(wider[0]) if wider.size else left
        wider = np.flatnonzero(beside[right:min(left + digit, piece.shape[1])])
        stop = right + int(wider[-1]) + 1 if wider.size else right
        hidden = colour[top:bottom, start:stop]
        if not hidden.any():
            continue
        seen = np.zeros_like(hidden)
        seen[:, left - start:right - start] = piece[top:bottom, left:right]
        shown = stroke_coverage(glyph_patch(seen)) >= STROKE_SEEN
        possible = shown | (straight_coverage(glyph_patch(seen | hidden)) >= STROKE_HIDDEN)
        fits = digits & ~(strokes & ~possible).any(axis=1) & ~(~strokes & shown).any(axis=1)
        if right - left > ONE_ASPECT * (bottom - top):
            # the character the glyph reads as fits however the colour lies
            read, _ = match_glyphs([piece[top:bottom, left:right]])[0]
            fits &= np.array([character != read for character in characters])
        if fits.any():
            return LEFT_OUT_CONFIDENCE
    return 1.0


# -- header --------------------------------------------------------------------------------------
#: The header's band above the board's top line, in cells.
HEADER_BAND = (0.75, 0.04)
#: Half the width (in cells) of the header's middle, where the figure stands.
FIGURE_HALF_WIDTH = 0.45
#: The figure's limbs are dim grey: pixels brighter than this are the figure.
FIGURE_GREY = 45
#: The figure's ink box is at least this wide for its height with arms out (H), less with arms up.
ARMS_OUT_ASPECT = 0.9


@dataclasses.dataclass(frozen=True)
class Header:
    score: int | None
    score_confidence: float
    splits: int | None
    splits_confidence: float
    figure: str | None        # "H" (arms out), "V" (arms up) or None if not seen
    figure_confidence: float
    splits_alternatives: tuple[int, ...] = ()


def header_regions(geometry: BoardGeometry, shape: tuple[int, int]) -> tuple[tuple[int, int, int, int], ...] | None:
    """The header's score, figure and split count regions (x0, y0, x1, y1), or None when the
    image has no room above the board."""
    cell = geometry.cell
    height, width = shape
    y0 = max(int(round(geometry.top - HEADER_BAND[0] * cell)), 0)
    y1 = max(int(round(geometry.top - HEADER_BAND[1] * cell)), 0)
    if y1 - y0 < 0.3 * cell:
        return None
    left = max(int(round(geometry.left)), 0)
    right = min(int(round(geometry.right)), width)
    middle = (geometry.left + geometry.right) / 2
    figure_left = int(round(middle - FIGURE_HALF_WIDTH * cell))
    figure_right = int(round(middle + FIGURE_HALF_WIDTH * cell))
    return ((left, y0, max(figure_left, left), y1), (max(figure_left, 0), y0, min(figure_right, width), y1),
            (min(figure_right, right), y0, right, y1))


def read_figure(grey: np.ndarray, region: tuple[int, int, int, int], cell: float) -> tuple[str | None, float]:
    """The figure's arms: out ("H", a horizontal split next) or up ("V"), and how sure."""
    x0, y0, x1, y1 = region
    figure = grey[y0:y1, x0:x1] > FIGURE_GREY
    figure = _without_specks(figure, 0.1 * cell)
    if not figure.any():
        return None, 0.0
    rows = np.nonzero(figure.any(axis=1))[0]
    columns = np.nonzero(figure.any(axis=0))[0]
    aspect = (columns[-1] - columns[0] + 1) / (rows[-1] - rows[0] + 1)
    return ("H" if aspect >= ARMS_OUT_ASPECT else "V"), float(np.clip(abs(aspect - ARMS_OUT_ASPECT) / 0.2, 0.0, 1.0))


# -- reading -------------------------------------------------------------------------------------
def _no_board(bgr: np.ndarray, reason: str) -> NoBoardFound:
    """NoBoardFound, saying so when the image is the game's end screen (and what it shows)."""
    end_screen = read_end_screen(bgr)
    if end_screen is None:
        return NoBoardFound(reason)
    return NoBoardFound(f"the SPL-T end screen (score {end_screen['score']}, {end_screen['splits']} splits), "
                        "no board visible", {"end_screen": end_screen})


def _acceptable(found: Candidate | None) -> bool:
    return found is not None and found.coherence >= MIN_COHERENCE and found.score >= MIN_SCORE


def _in_image(found: Candidate, factor: float, origin: tuple[int, int] = (0, 0)) -> BoardGeometry:
    """A board found on a copy (shrunk by ``factor``, cut at ``origin``) in the image's pixels."""
    geometry = found.geometry
    return BoardGeometry(origin[0] + (geometry.left + 0.5) / factor - 0.5,
                         origin[1] + (geometry.top + 0.5) / factor - 0.5, geometry.cell / factor)


#: The header's figure: its head and body are the brightest thing above the board, at least
#: FIGURE_LEAST and at most FIGURE_MOST of a cell across.
FIGURE_LEAST, FIGURE_MOST = 0.06, 0.45
FIGURE_WHITE = 200
FIGURE_ABOVE = 0.2


def _centred_on_figure(bgr: np.ndarray, geometry: BoardGeometry) -> BoardGeometry:
    """``geometry`` moved by whole cells so that the header's figure, which stands over the
    board's middle just above its top line, is there (a column of boxes tinted grey by Kibitz's
    advice can hide the board's first wall, and a window's panels and toolbars beside and above
    it can put the board a column or a few rows over). Unchanged when no figure is seen."""
    cell = geometry.cell
    height, width = bgr.shape[:2]
    y0, y1 = int(max(geometry.top - 1.9 * cell, 0)), int(min(max(geometry.top + 3.2 * cell, 0), height))
    x0, x1 = int(max(geometry.left - 2.5 * cell, 0)), int(min(geometry.right + 2.5 * cell, width))
    if y1 - y0 < 0.3 * cell or x1 - x0 < 2 * cell:
        return geometry
    grey, coloured = _grey_and_colour(bgr[y0:y1, x0:x1])
    bright = ((grey > FIGURE_WHITE) & ~coloured).view(np.uint8)
    count, _, stats, centroids = components(bright, connectivity=8)
    if count < 2:
        return geometry
    middle = (geometry.left + geometry.right) / 2
    best = None
    for index in range(1, count):
        size = max(stats[index, cv2.CC_STAT_WIDTH], stats[index, cv2.CC_STAT_HEIGHT])
        if not FIGURE_LEAST * cell <= size <= FIGURE_MOST * cell:
            continue
        across = (x0 + centroids[index, 0] - middle) / cell
        # the head and body end about FIGURE_ABOVE cells above the top line (the legs below)
        down = (y0 + stats[index, cv2.CC_STAT_TOP] + stats[index, cv2.CC_STAT_HEIGHT] + FIGURE_ABOVE * cell
                - geometry.top) / cell
        shift_x, shift_y = round(across), round(down)
        if abs(across - shift_x) > 0.25 or abs(down - shift_y) > 0.3 or abs(shift_x) > 2 or not -1 <= shift_y <= 3:
            continue
        # the figure is centred to a pixel: the best fit wins, then the smallest move
        key = (round(abs(across - shift_x) + abs(down - shift_y), 2), abs(shift_x) + abs(shift_y))
        if best is None or key < best[0]:
            best = (key, shift_x, shift_y)
    if best is None:
        return geometry
    _, shift_x, shift_y = best
    if geometry.top + (shift_y + HEIGHT) * cell > height + 0.5 * cell:
        shift_y = 0
    return dataclasses.replace(geometry, left=geometry.left + shift_x * cell, top=geometry.top + shift_y * cell)


#: A board found on the small copies with a score under this (the walls of a board shown whole
#: score about 0.9 or more) is looked for on brightest-halved copies too.
BRIGHTER_SCORE = 0.8


def _found_on_copies(bgr: np.ndarray, brightest: bool) -> tuple[Candidate | None, float]:
    """The board found on the first of the small copies (FIND_PIXELS) that shows one, and that
    copy's factor; with ``brightest`` the image is first halved keeping the brightest pixels, as
    often as that leaves more than twice the copy's pixels."""
    for most_pixels in FIND_PIXELS:
        source, halved = bgr, 1.0
        while brightest and source.shape[0] * source.shape[1] > 2 * most_pixels:
            source, halved = _halved_brightest(source), halved / 2
        grey, factor = _working_copy(source, most_pixels)
        found = find_board(line_masks(grey), grey.shape)
        if _acceptable(found):
            return found, factor * halved
    return None, 1.0


def locate(bgr: np.ndarray) -> tuple[Candidate, BoardGeometry]:
    """The board found on a small copy of the image, and its geometry in the image's pixels. A
    board whose cells are small on that copy (a small board on a big screen) is looked for again
    around where it was seen, on a copy of that part with CLOSER_LOOK pixels a cell (its thin
    lines fade on the small copy, and a line missed there can put the board a cell off)."""
    found, factor = _found_on_copies(bgr, brightest=False)
    if (found is None or found.score < BRIGHTER_SCORE) and bgr.shape[0] * bgr.shape[1] > 2 * FIND_PIXELS[0]:
        # a big board's one-pixel walls fade into the hatching when shrunk by area much (none
        # is found, or a wrong grid of the hatching and a few walls): it is looked for on copies
        # first halved keeping the brightest pixels too, and the better board kept
        again, again_factor = _found_on_copies(bgr, brightest=True)
        if again is not None and (found is None or again.score > found.score):
            found, factor = again, again_factor
    if found is None:
        raise _no_board(bgr, "no 8 x 16 grid of box walls found")
    seen = _in_image(found, factor)
    if found.geometry.cell >= CLOSER_CELL or factor >= 1.0:
        return found, _centred_on_figure(bgr, seen)
    height, width = bgr.shape[:2]
    margin = CLOSER_MARGIN * seen.cell
    x0, y0 = max(int(seen.left - margin), 0), max(int(seen.top - margin), 0)
    x1, y1 = min(int(seen.right + margin) + 1, width), min(int(seen.bottom + margin) + 1, height)
    part = bgr[y0:y1, x0:x1]
    closer_cell = min(CLOSER_LOOK, seen.cell)
    closer, closer_factor = _working_copy(part, int(part.shape[0] * part.shape[1] * (closer_cell / seen.cell) ** 2) + 1)
    again = find_board(line_masks(closer), closer.shape)
    if _acceptable(again) and again.score >= found.score * 0.9:
        return again, _centred_on_figure(bgr, _in_image(again, closer_factor, (x0, y0)))
    return found, _centred_on_figure(bgr, seen)


def read(image: np.ndarray, previous: State | None = None) -> Reading:
    """Read the SPL-T board in ``image`` (BGR). Raises NoBoardFound when there is none."""
    started = time.perf_counter()
    bgr = board_image(image)
    if min(bgr.shape[:2]) < 2 * 2 * LINE_OFFSET + 1:
        raise NoBoardFound("the image is too small to hold an SPL-T board")
    found, in_caller = locate(bgr)
    board = normal_board(bgr, in_caller)
    grey = board.grey
    offset = board.line_offset
    vertical, horizontal = _line_mask(grey, True, offset), _line_mask(grey, False, offset)
    geometry = fit_grid(vertical, horizontal, board.geometry)
    cells = classify_cells(grey, board.coloured, geometry, board.shaded)
    if cells.unhatched.any():
        cells = _advice_tinted(bgr, board, geometry, cells)
    # walls are straight: what thick hatching leaves in the masks (short steps across the line,
    # which can join a number's bars on a line inside its block into a wall) is dropped
    # (and a wall drawn thick, as Kibitz's highlight of the last split is, is a ridge only
    # against pixels farther away)
    wide = 2 * offset + 1
    straight = [_straight(mask, is_vertical) for mask, is_vertical in (
        (vertical, True), (horizontal, False),
        (_line_mask(grey, True, offset, contrast=WALL_CONTRAST) | _line_mask(grey, True, wide), True),
        (_line_mask(grey, False, offset, contrast=WALL_CONTRAST) | _line_mask(grey, False, wide), False))]
    walls = find_walls(straight[0], straight[1], geometry, offset, _drawn_lines(board.coloured, geometry.cell),
                       (straight[2], straight[3]))
    shapes = _uneven_tints_doubtful(group_boxes(cells, walls), grey, geometry, cells.advice, cells.tinted)
    # a grey box without hatching where the board's cells are big enough to show it is no point
    # block seen poorly but maybe a fill: the preview's, its stipple's dots shrunk together
    shows_hatching = board.in_caller_pixels(geometry)["cell"] >= HATCHING_SHOWN_CELL
    shapes = _previewed_splits(shapes, grey, geometry, _lit_cells(grey, geometry, cells.tinted),
                               cells.unhatched if shows_hatching else None)
    strokes = Strokes(grey, walls, geometry, offset)
    ink = strokes.ink()
    beside_bars = strokes.beside_bars(ink)
    confidence = shapes.confidence.copy()
    problems = list(shapes.problems)
    if _walls_run_past_sides(vertical, horizontal, geometry, walls):
        # a board's walls end at its outline: walls running on across a side are those of a
        # larger board found at part of its size (a pitch of half its cells, a quarter of it)
        confidence = np.minimum(confidence, IMPOSSIBLE_CONFIDENCE)
        problems.append("walls run on past the board's sides: it may be part of a larger board")
        beyond = True
    else:
        beyond = False
    if board.in_caller_pixels(geometry)["cell"] < TOO_SMALL_CELL:
        # hatching and one-pixel walls are below what such a small board's pixels can show
        confidence = np.minimum(confidence, TINTED_CONFIDENCE)
        problems.append(f"the board's cells are under {TOO_SMALL_CELL:.0f} pixels: nothing on it is sure")

    points = [box for box, kind in zip(shapes.boxes, shapes.kinds) if kind == POINT]
    regions = [block_number_region(geometry, box) for box in points]
    # one width limit for the board's digits, so every stroke share judges them alike
    numbers, widest = _read_numbers(ink, regions, DIGIT_HEIGHT * geometry.cell)
    caller_cell = board.in_caller_pixels(geometry)["cell"]
    numbers = read_again(strokes, regions, numbers, DIGIT_HEIGHT * geometry.cell, strict=_strict(caller_cell),
                         widest=widest)
    read_points = {}
    alternatives = {}
    sure_numbers: set[tuple[int, int, int, int]] = set()
    small = caller_cell < SMALL_DIGITS_CELL
    for (x, y, w, h), region, reading in zip(points, regions, numbers):
        number, sure = reading.value, reading.sure
        if small:
            sure = min(sure, SMALL_DIGITS_CONFIDENCE)
        hidden = _hidden_strokes_confidence(ink, board.coloured, region, DIGIT_HEIGHT * geometry.cell)
        if hidden < DOUBTFUL:
            problems.append(f"an annotation over the number of the point block at ({x},{y}) may hide a stroke")
            sure = min(sure, hidden)
        elif sure >= DOUBTFUL:
            beside = _hidden_strokes_confidence(ink, beside_bars & ~ink, region, DIGIT_HEIGHT * geometry.cell)
            if beside < DOUBTFUL:
                problems.append(f"a bar of the number of the point block at ({x},{y}) may be lost against the "
                                "next digit's")
                sure = min(sure, beside)
        alternatives[(x, y, w, h)] = reading.alternatives
        if number is None or number == 0:
            problems.append(f"the number of the point block at ({x},{y}) could not be read")
            number, sure = max(number or 0, 1), 0.0
        read_points[(x, y, w, h)] = number
        if sure >= DOUBTFUL:
            sure_numbers.add((x, y, w, h))
        confidence[y:y + h, x:x + w] = np.minimum(confidence[y:y + h, x:x + w], sure)
    boxes = sorted(([x, y, w, h, read_points.get((x, y, w, h), 0)] for x, y, w, h in shapes.boxes),
                   key=lambda box: (box[1], box[0]))

    header = read_header(grey, strokes, ink, geometry, strict=caller_cell > HALVED_CELL)
    if beyond:
        header = dataclasses.replace(header, score_confidence=min(header.score_confidence, IMPOSSIBLE_CONFIDENCE),
                                     splits_confidence=min(header.splits_confidence, IMPOSSIBLE_CONFIDENCE))
    if small:
        header = dataclasses.replace(header, score_confidence=min(header.score_confidence, SMALL_DIGITS_CONFIDENCE),
                                     splits_confidence=min(header.splits_confidence, SMALL_DIGITS_CONFIDENCE))
    # the image alone, then (when given) with the previous position's help; the latter is used only
    # when legal splits from the previous position reach it
    alone = _from_header(boxes, confidence, header, None)
    chosen, followed, doubtful_fields = alone, None, alone.doubtful_fields()
    if previous is not None:
        shown = _from_header(boxes, confidence, header, previous)
        followed = follow_previous(previous, shown.state, shown.boxes, shown.confidence, alternatives, shown.header,
                                   sure_numbers)
        if followed is not None and followed.reached:
            chosen = dataclasses.replace(shown, state=followed.state, boxes=followed.boxes,
                                         confidence=followed.confidence,
                                         problems=shown.problems + followed.problems)
            # the previous position settled the header, but for what several ways here leave open
            doubtful_fields = followed.doubtful_fields
        elif followed is not None:
            # read afresh: nothing the previous position gave is kept, and what it would have
            # settled stays doubtful
            chosen = dataclasses.replace(alone, problems=alone.problems + followed.problems)
            if followed.contradicted:
                doubtful_fields = ("previous", *doubtful_fields)
    problems.extend(chosen.problems)
    state, boxes, confidence, header = chosen.state, chosen.boxes, chosen.confidence, chosen.header
    splits, score, splits_from, parity = state.splits, state.score, chosen.splits_from, chosen.parity
    if followed is None or not followed.reached:
        splits, score = chosen.splits, chosen.score
    voids = [[x, y] for x, y in shapes.voids]
    cells_json = {"boxes": boxes, "voids": voids, "splits": splits, "score": score}
    board_px = board.in_caller_pixels(geometry)
    diagnostics: dict[str, Any] = {
        "board_px": board_px,
        "cell_grid": _cell_grid(board_px, bgr.shape),
        "grid_coherence": round(found.coherence, 3),
        "score": header.score, "score_confidence": round(header.score_confidence, 3),
        "splits": header.splits, "splits_confidence": round(header.splits_confidence, 3),
        "splits_from": splits_from,
        "next": header.figure if header.figure is not None else parity,
        "next_from": "figure" if header.figure is not None else "splits parity",
        "figure": header.figure, "figure_confidence": round(header.figure_confidence, 3),
        "next_by_parity": parity,
        "problems": problems,
    }
    if previous is not None:
        diagnostics["previous"] = followed.note if followed is not None else "not needed (nothing doubtful)"
    diagnostics["ms"] = round((time.perf_counter() - started) * 1000, 1)
    return Reading(GAME, state, cells_json, confidence, diagnostics, doubtful_fields)


@dataclasses.dataclass(frozen=True)
class _HeaderValues:
    """The split count, score and engine state a header reading gives the boxes read."""

    header: Header
    splits: int
    splits_from: str                         # "header", "previous" or "unknown"
    score: int
    parity: str
    state: State
    boxes: list[list[int]]
    confidence: np.ndarray
    problems: list[str]

    def doubtful_fields(self) -> tuple[str, ...]:
        return tuple(name for name, confidence_read in (("splits", self.header.splits_confidence),
                                                        ("score", self.header.score_confidence))
                     if confidence_read < DOUBTFUL)


def _from_header(boxes: list[list[int]], confidence: np.ndarray, header: Header,
                 previous: State | None) -> _HeaderValues:
    """The header's split count and score checked against the blocks' numbers (and, with
    ``previous``, against its split count: splits only grow; an unread split count or score is
    taken from it), and the engine state they make with ``boxes`` (copied, not changed)."""
    boxes = [list(box) for box in boxes]
    confidence = confidence.copy()
    problems: list[str] = []
    sure_values = [box[4] for box in boxes if confidence[box[1]:box[1] + box[3], box[0]:box[0] + box[2]].min() >= DOUBTFUL]
    exceeding = [value for value in sure_values if header.splits is not None and value > header.splits]
    if len(exceeding) >= 2 or (previous is not None and header.splits is not None and header.splits < previous.splits):
        # blocks are numbered with the split count when they are made, and splits only grow:
        # the split count is what was misread
        least = max(exceeding + ([previous.splits] if previous is not None else []))
        problems.append(f"the split count reads {header.splits}, fewer than the blocks or the previous "
                        f"position show: taken as {least}, doubtful")
        if header.splits_confidence >= DOUBTFUL and exceeding:
            # read surely, the split count may be right and the blocks wrong: two point blocks side
            # by side whose wall between them was missed read as one, their numbers run together
            # (a 71 beside a 71 read as 7171)
            problems.append("the point blocks numbered above the split count read are doubtful too")
            for x, y, w, h, value in boxes:
                if value > header.splits:
                    confidence[y:y + h, x:x + w] = np.minimum(confidence[y:y + h, x:x + w], LEFT_OUT_CONFIDENCE)
        header = dataclasses.replace(header, splits=least, splits_confidence=0.0)
    splits, splits_from = header.splits, "header"
    if splits is None and previous is not None:
        splits, splits_from = previous.splits, "previous"
    if splits is None:
        splits, splits_from = 0, "unknown"
    score = header.score if header.score is not None else (previous.score if previous is not None else 0)
    parity = "H" if splits % 2 == 0 else "V"
    if header.figure is not None and splits_from == "header" and header.figure != parity:
        problems.append(f"the figure shows {header.figure} next but {splits} splits make it {parity}")

    if splits_from != "unknown":
        for box in boxes:
            x, y, w, h, value = box
            if value > splits:  # a block is numbered with the split count when it is made
                problems.append(f"the point block at ({x},{y}) reads {value}, more than the {splits} splits")
                box[4] = max(splits, 1)
                confidence[y:y + h, x:x + w] = 0.0
    splits_made = max(splits, max((box[4] for box in boxes), default=0))
    try:
        state = _engine_state(boxes, splits_made, score)
    except NoBoardFound as refused:
        if not (confidence < DOUBTFUL).any():
            raise
        # what was read with doubt makes a board the game cannot have (a box over a void, most
        # often): it is shown as read for the review to correct, every cell doubtful
        problems.append(f"{refused.reason}; every cell doubtful")
        confidence = np.minimum(confidence, IMPOSSIBLE_CONFIDENCE)
        # such a board may be one placed wrongly in the image (a row or more off), and the header
        # is read where that placement puts it: its numbers are no surer (a window's board put
        # five rows low read its score as 1, sure)
        header = dataclasses.replace(
            header, score_confidence=min(header.score_confidence, IMPOSSIBLE_CONFIDENCE),
            splits_confidence=min(header.splits_confidence, IMPOSSIBLE_CONFIDENCE))
        state = State(boxes=tuple(Box(*box) for box in boxes), score=score, splits=splits_made)
    return _HeaderValues(header, splits, splits_from, score, parity, state, boxes, confidence, problems)


def read_header(grey: np.ndarray, strokes: Strokes, ink: np.ndarray, geometry: BoardGeometry,
                strict: bool = False) -> Header:
    """Score (left of the figure), split count (right of it) and the figure's arms; ``strict``
    as for :func:`read_again`."""
    regions = header_regions(geometry, grey.shape)
    if regions is None:
        return Header(None, 0.0, None, 0.0, None, 0.0)
    score_region, figure_region, splits_region = regions
    numbers, _ = _read_numbers(ink, [score_region, splits_region], HEADER_DIGIT_HEIGHT * geometry.cell,
                               only_digits=False)
    score, splits = read_again(strokes, [score_region, splits_region], numbers, HEADER_DIGIT_HEIGHT * geometry.cell,
                               only_digits=False, strict=strict)
    figure, figure_confidence = read_figure(grey, figure_region, geometry.cell)
    return Header(score.value, score.sure, splits.value, splits.sure, figure, figure_confidence, splits.alternatives)


# -- the previous position -------------------------------------------------------------------------
#: With the previous position, at most this many readings of the doubtful cells are checked
#: against the rules (each a search for the splits that lead there from it), and only when the
#: two are at most PREVIOUS_SPLITS splits apart (the search is then quick).
PREVIOUS_CANDIDATES = 12
PREVIOUS_SPLITS = 2
#: How many values are tried for one doubtful number.
PREVIOUS_VALUES = 4
#: A doubtful cell the only reachable reading settles is this sure.
REACHED_CONFIDENCE = 0.8


@dataclasses.dataclass(frozen=True)
class Followed:
    """A reading settled by the previous position: the engine's state reached, the boxes, the
    cells' confidence, and what was done."""

    state: State
    boxes: list[list[int]]
    confidence: np.ndarray
    note: str
    problems: list[str]
    #: False when no reading was reached from the previous position (the reader then reads the
    #: image alone); ``contradicted`` when the readings were checked and none is reached.
    reached: bool = True
    contradicted: bool = False
    #: the header's values the previous position does not settle: several continuations reach
    #: the board read with different split counts (or scores), and the image does not tell
    doubtful_fields: tuple[str, ...] = ()


def _value_options(box: tuple[int, int, int, int], read: tuple[int, ...], previous: State,
                   steps: list[int]) -> list[int]:
    """Values to try for a doubtful point block, likeliest first: the surest reading, then what
    the previous position gives ``steps`` splits later (its number at that place counted down, or
    at a place above it in the same column counted down and halved as it fell; for a block that was not there, the number a
    split just made gives it), then the other readings."""
    x, y, w, h = box
    before = sorted((b for b in previous.boxes if b.points and (b.x, b.w, b.h) == (x, w, h) and b.y <= y),
                    key=lambda b: y - b.y)
    # a block that fell is halved
    counted = [(b.points - step) // (1 if b.y == y else 2) for b in before for step in steps]
    made = [previous.splits + split - (step - split) for step in steps for split in range(1, step + 1)]
    options = [*read[:1], *counted, *made, *read[1:]]
    # last, a plain box: a box tinted by a highlight, or grey for hatching too fine to see, was
    # taken as a point block
    return [value for value in dict.fromkeys(options) if value > 0][:PREVIOUS_VALUES] + [0]


def _readings_best_first(options: list[list[int]], limit: int):
    """Index vectors into ``options`` (one list per doubtful cell), fewest changes from the first
    choices first (a best-first walk over the index sums)."""
    import heapq

    start = (0,) * len(options)
    heap = [(0, start)]
    seen = {start}
    while heap and limit > 0:
        cost, indices = heapq.heappop(heap)
        yield indices
        limit -= 1
        for position in range(len(options)):
            if indices[position] + 1 < len(options[position]):
                following = indices[:position] + (indices[position] + 1,) + indices[position + 1:]
                if following not in seen:
                    seen.add(following)
                    heapq.heappush(heap, (cost + 1, following))


def follow_previous(previous: State, state: State, boxes: list[list[int]], confidence: np.ndarray,
                    alternatives: dict[tuple[int, int, int, int], tuple[int, ...]], header: Header,
                    sure_numbers: set[tuple[int, int, int, int]] = frozenset()) -> Followed | None:
    """The reading of the doubtful cells that legal splits from ``previous`` reach: doubtful
    point numbers take the values their readings or the previous position suggest, a doubtful
    split count one of the next few, and each reading so made is checked by
    ``vision.follow.explain`` (which plays the rules). The first one reached wins; it is sure
    only if no other one tried is reached too. None when nothing is doubtful. Numbers read
    surely (``sure_numbers``) are kept, though their cells be doubtful for a tint or a wall."""
    from vision.follow import explain

    game = GAMES[GAME]
    doubtful = [index for index, (x, y, w, h, points) in enumerate(boxes)
                if points and confidence[y:y + h, x:x + w].min() < DOUBTFUL and (x, y, w, h) not in sure_numbers]
    splits_sure = header.splits is not None and header.splits_confidence >= DOUBTFUL
    score_sure = header.score is not None and header.score_confidence >= DOUBTFUL
    if (confidence >= DOUBTFUL).all() and splits_sure and score_sure:
        return None
    if splits_sure:
        split_options = [state.splits]
    else:
        split_options = list(dict.fromkeys([*header.splits_alternatives,
                                            *(previous.splits + step for step in (1, 2, 0))]))
    split_options = [s for s in split_options if 0 <= s - previous.splits <= PREVIOUS_SPLITS]
    if not split_options:
        return Followed(state, boxes, confidence, f"too far from the previous position "
                        f"({state.splits - previous.splits} splits) to check", [], reached=False)
    steps = [splits - previous.splits for splits in split_options]
    options = [_value_options(tuple(boxes[index][:4]), alternatives.get(tuple(boxes[index][:4]), ()), previous, steps)
               for index in doubtful] + [split_options]
    reached = []
    for choice in _readings_best_first(options, PREVIOUS_CANDIDATES):
        trial = [list(box) for box in boxes]
        for index, values, option in zip(doubtful, options, choice):
            trial[index][4] = values[option]
        splits = split_options[choice[-1]]
        if any(box[4] > splits for box in trial):
            continue
        # the read board passed the engine's checks; only numbers change here
        candidate = dataclasses.replace(state, boxes=tuple(Box(*box) for box in trial), splits=splits,
                                        score=state.score if score_sure else 0)
        explanation = explain(game, previous, candidate)
        if explanation is not None:
            reached.append((trial, explanation))
            if len(reached) == 2:
                break
    if not reached:
        return Followed(state, boxes, confidence, "no reading is reached from the previous position: "
                        "the board, split count and score are read from the image alone",
                        ["the previous position does not lead to this board"],
                        reached=False, contradicted=True)
    trial, explanation = reached[0]
    settled = confidence.copy()
    if len(reached) == 1:
        # the one reading reached is the board the rules make from the previous position, box
        # for box: its cells doubtful for a number, a tint or a hidden wall are settled
        settled = np.maximum(settled, REACHED_CONFIDENCE)
    moves = len(explanation.moves)
    note = (f"reached from the previous position in {moves} split{'s' if moves != 1 else ''}"
            + ("" if len(reached) == 1 else " (another reading is reached too: still doubtful)"))
    reached_state = explanation.state
    ways = _ways_here(previous, [found.state for _, found in reached], steps) if not (splits_sure and score_sure) else []
    fields, ways = open_fields(ways, header, splits_sure, score_sure)
    if fields:
        shown = ", ".join(f"{splits} splits and score {score}" for splits, score in ways[:4])
        note += (f"; continuations reach this board with {shown}" if ways else
                 "; the continuations that reach this board could not all be looked at")
    if score_sure and reached_state.score != state.score:
        return Followed(reached_state, trial, settled, note, [f"the score reads {state.score} but the splits "
                                                             f"that lead here make it {reached_state.score}"],
                        doubtful_fields=tuple(dict.fromkeys([*fields, "score"])))
    return Followed(reached_state, trial, settled, note, [], doubtful_fields=fields)


#: The most positions looked at when telling apart the continuations that reach a board.
CONTINUATIONS_LOOKED_AT = 6000


def _ways_here(previous: State, boards: list[State], steps: list[int]) -> list[tuple[int, int]] | None:
    """The (split count, score) of every continuation of ``steps`` splits from ``previous`` that
    ends with the boxes of one of ``boards`` (the readings reached), or None when there are
    too many continuations to look at."""
    game = GAMES[GAME]
    goals = {tuple(sorted((b.x, b.y, b.w, b.h, b.points) for b in board.boxes)) for board in boards}
    wanted = set(steps)
    ways: set[tuple[int, int]] = set()
    layer, looked_at = [previous], 0
    for depth in range(max(wanted) + 1):
        if depth in wanted:
            ways.update((s.splits, s.score) for s in layer
                        if tuple(sorted((b.x, b.y, b.w, b.h, b.points) for b in s.boxes)) in goals)
        if depth == max(wanted):
            break
        following = []
        for state in layer:
            for move in game.legal_moves(state):
                looked_at += 1
                if looked_at > CONTINUATIONS_LOOKED_AT:
                    return None
                following.append(game.play(state, move).state)
        layer = following
    return sorted(ways)


def open_fields(ways: list[tuple[int, int]] | None, header: Header, splits_sure: bool,
                score_sure: bool) -> tuple[tuple[str, ...], list[tuple[int, int]]]:
    """Which of the split count and the score the ways the game can have come here leave open:
    ``ways`` are the (split count, score) of the continuations from the previous position that
    reach the board read (None: too many to look at). Those the image rules out are left out (a
    split count or score read surely; the figure's next orientation, which gives the split
    count's parity); a field not read surely on which the others differ is doubtful, and so is
    every such field when no way is left (or they could not be looked at). Also the ways left."""
    unsure = tuple(name for name, sure in (("splits", splits_sure), ("score", score_sure)) if not sure)
    if not unsure:
        return (), list(ways or [])
    if ways is None:
        return unsure, []
    left = [way for way in ways
            if (not splits_sure or way[0] == header.splits) and (not score_sure or way[1] == header.score)
            and (header.figure is None or header.figure_confidence < DOUBTFUL
                 or ("H" if way[0] % 2 == 0 else "V") == header.figure)]
    if not left:
        return unsure, []
    fields = tuple(name for index, name in ((0, "splits"), (1, "score"))
                   if name in unsure and len({way[index] for way in left}) > 1)
    return fields, left


#: The confidence of every cell of a board read with doubt that the game cannot have.
IMPOSSIBLE_CONFIDENCE = 0.3


def _engine_state(boxes: list[list[int]], splits: int, score: int) -> State:
    """The engine's state of the read board; NoBoardFound with the engine's reason if it is not a
    possible SPL-T board."""
    tokens = [f"{x},{y},{w},{h}" + (f":{points}" if points else "") for x, y, w, h, points in boxes]
    text = f"splits={splits} score={score} | " + " ".join(tokens)
    try:
        return GAMES[GAME].parse_board(text)
    except NotationError as error:
        raise NoBoardFound(f"the boxes read do not make an SPL-T board: {error}") from None


# -- end screen ----------------------------------------------------------------------------------
def _text_lines(ink: np.ndarray, least_height: int) -> list[tuple[int, int]]:
    """Row ranges of the lines of text in the ink: runs of inked rows at least ``least_height``
    tall."""
    rows = np.concatenate([[False], ink.any(axis=1), [False]])
    changes = np.nonzero(np.diff(rows.astype(np.int8)))[0]
    return [(int(a), int(b)) for a, b in zip(changes[::2], changes[1::2]) if b - a >= least_height]


def _as_word(glyphs: list[Glyph]) -> str:
    """The glyphs as letters: in this font 0 is O, 1 is I and 5 is S; R is P with a diagonal leg,
    which the line masks do not keep, so R is compared as P."""
    return "".join(g.character for g in glyphs).translate(str.maketrans("015R", "OISP"))


def read_end_screen(bgr: np.ndarray) -> dict[str, int] | None:
    """SCORE n and SPLITS n of the game's end screen (big lettering between hatched bands, no
    board), or None if the image is not one."""
    grey, _ = _working_copy(bgr)
    ink = _without_specks(_line_mask(grey, True) | _line_mask(grey, False), max(3.0, 0.01 * grey.shape[0]))
    lines = []
    for top, bottom in _text_lines(ink, max(6, int(0.02 * grey.shape[0]))):
        glyphs = read_glyphs(ink[top:bottom], 0.5 * (bottom - top))
        if glyphs:
            lines.append(glyphs)
    found: dict[str, int] = {}
    for label, value in zip(lines, lines[1:]):
        word = _as_word(label)
        number, _ = _number(value)
        for name in ("score", "splits"):
            if number is not None and word == name.upper().replace("R", "P"):
                found[name] = number
    if "score" in found and "splits" in found:
        return {"score": found["score"], "splits": found["splits"]}
    return None
