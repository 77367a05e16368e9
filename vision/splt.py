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
   dropped first.
2. **The board.** Box walls are long runs of the masks, digit bars short ones (at most 0.4 of a
   cell). Candidate cell sizes come from the longest runs (the dotted line spans the board's
   width, 8 cells; a wall may span all 16 rows), and each candidate is judged by how well the long
   runs sit on one grid of that pitch (circular phase coherence) and how many cell edges they
   explain; the best is then fitted by least squares (left, top and pitch together). The board
   is 16 cells tall below its top line, which must have room below it.
3. **Cells.** Each cell's inside is white (void), hatched (point block: brightness changes much
   more across the hatching's direction than along it) or black (plain box). Adjacent cells of
   the same kind belong to the same box unless a wall runs between them; the boxes are the
   connected groups, which must be rectangles (checked by the engine: power-of-two sides, no
   overlap).
4. **Numbers.** The digits of a point block, the score and the split count are the strokes of the
   line masks near the block's centre (or in the header), cut into glyphs at empty columns and
   matched against segmented-font templates (``assets/vision/splt/glyphs.png``, drawn by
   ``assets/vision/splt/make_templates.py``); a glyph much narrower than tall is a 1.
5. **The header**: the score left of the figure, the split count right of it; the figure's arms
   (out: horizontal next, up: vertical next) are checked against the split count's parity.
6. **The end screen** (SCORE and SPLITS in big digits between hatched bands, no board) is
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
from engines.splt.state import HEIGHT, WIDTH, Box, State, validate_boxes
from vision.images import as_bgr
from vision.reading import NoBoardFound, Reading

GAME = "splt"

#: The board is looked for on a copy of the image shrunk to about this many pixels (for speed).
FIND_PIXELS = 300_000
#: Then the board (with its header) is cut from the full image and read at the image's own
#: resolution (resampling blurs the one-pixel strokes into the hatching), unless its cells are
#: more than READ_CELL pixels: then it is shrunk to that.
READ_CELL = 64.0
#: Line masks: the blur along the line, the distance of the neighbours compared and the margin.
LINE_BLUR = 5
LINE_OFFSET = 2
LINE_CONTRAST = 22
#: Digit strokes: the blur along them and the shortest piece kept (in cells).
STROKE_BLUR = 5
STROKE_RUN = 0.07
#: Pixels whose channels differ by more than this are annotations, not the game's greys.
ANNOTATION_SPREAD = 60
#: The smallest cell the reader looks for, in working pixels.
MIN_CELL = 8.0
#: A run of a line mask this long (in cells) or longer may be a wall; digit bars are shorter.
WALL_RUN = 0.6
#: How far (in cells) a run may sit from its grid line.
GRID_TOLERANCE = 0.08
#: The least phase coherence of the long runs for a grid to be a board.
MIN_COHERENCE = 0.85
#: The part of a cell looked at for its kind: this fraction of the cell is left out on each side.
CELL_INSET = 0.15
#: A cell whose inside is at least this share white is a void.
VOID_SHARE = 0.5
#: Hatching: mean brightness change across the diagonals minus along them (grey levels).
HATCH_CONTRAST = 5.0
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

    def scaled(self, factor: float) -> dict[str, float]:
        """The geometry in the caller's image pixels (the working copy was shrunk by ``factor``)."""
        return {"left": round(self.left / factor, 1), "top": round(self.top / factor, 1),
                "cell": round(self.cell / factor, 2)}


@dataclasses.dataclass(frozen=True)
class Runs:
    """The connected runs of one line mask: position across the line, start, end and length."""

    across: np.ndarray
    start: np.ndarray
    end: np.ndarray
    label: np.ndarray  # the run's label in its mask's label image

    @property
    def length(self) -> np.ndarray:
        return self.end - self.start

    def longer_than(self, length: float) -> "Runs":
        keep = self.length >= length
        return Runs(self.across[keep], self.start[keep], self.end[keep], self.label[keep])


@dataclasses.dataclass(frozen=True)
class LineMasks:
    vertical: np.ndarray    # bool, on vertical lines
    horizontal: np.ndarray  # bool, on horizontal lines
    vertical_runs: Runs
    horizontal_runs: Runs
    vertical_labels: np.ndarray    # int32 label image of the vertical runs
    horizontal_labels: np.ndarray
    _walls: dict = dataclasses.field(default_factory=dict, repr=False)

    def walls(self, vertical: bool, cell: float, least: float = WALL_RUN) -> np.ndarray:
        """The mask with only the runs at least ``least`` cells long (digit bars left out)."""
        key = (vertical, cell, least)
        if key not in self._walls:
            self._walls[key] = self._long_runs(vertical, cell * least)
        return self._walls[key]

    def _long_runs(self, vertical: bool, length: float) -> np.ndarray:
        runs = (self.vertical_runs if vertical else self.horizontal_runs).longer_than(length)
        labels = self.vertical_labels if vertical else self.horizontal_labels
        keep = np.zeros(labels.max() + 1, bool)
        keep[runs.label] = True
        return keep[labels]


# -- working image and masks ---------------------------------------------------------------------
def _working_copy(bgr: np.ndarray, most_pixels: int = FIND_PIXELS) -> tuple[np.ndarray, float]:
    pixels = bgr.shape[0] * bgr.shape[1]
    if pixels <= most_pixels:
        return bgr, 1.0
    factor = (most_pixels / pixels) ** 0.5
    return cv2.resize(bgr, None, fx=factor, fy=factor, interpolation=cv2.INTER_AREA), factor


def _grey_and_colour(bgr: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The grey levels with annotation colours blacked out, and the mask of those colours
    (spread between the largest and smallest channel: the game draws only greys)."""
    spread = cv2.subtract(cv2.max(cv2.max(bgr[..., 0], bgr[..., 1]), bgr[..., 2]),
                          cv2.min(cv2.min(bgr[..., 0], bgr[..., 1]), bgr[..., 2]))
    coloured = spread > ANNOTATION_SPREAD
    grey = cv2.cvtColor(bgr, cv2.COLOR_BGR2GRAY)
    grey[coloured] = 0
    return grey, coloured


@functools.lru_cache(maxsize=2)
def _side_kernel(vertical: bool) -> np.ndarray:
    """A dilation kernel taking the larger of the two pixels LINE_OFFSET away across a line."""
    kernel = np.zeros(2 * LINE_OFFSET + 1, np.uint8)
    kernel[0] = kernel[-1] = 1
    return kernel.reshape(1, -1) if vertical else kernel.reshape(-1, 1)


def _line_mask(grey: np.ndarray, vertical: bool, blur: int = LINE_BLUR) -> np.ndarray:
    """Pixels on thin lines of one direction: brighter, after a blur along the line, than the
    pixels LINE_OFFSET away on both sides."""
    blurred = cv2.blur(grey, (1, blur) if vertical else (blur, 1))
    side = cv2.dilate(blurred, _side_kernel(vertical), borderType=cv2.BORDER_REPLICATE)
    mask = cv2.subtract(blurred, side) > LINE_CONTRAST
    # next to the image's edge there is nothing to compare with
    if vertical:
        mask[:, :LINE_OFFSET] = mask[:, -LINE_OFFSET:] = False
    else:
        mask[:LINE_OFFSET, :] = mask[-LINE_OFFSET:, :] = False
    return mask


def _runs(mask: np.ndarray, vertical: bool) -> tuple[Runs, np.ndarray]:
    """The 4-connected pieces of a line mask that are thin across the line (at most 4 pixels),
    and the label image."""
    count, labels, stats, centroids = cv2.connectedComponentsWithStats(mask.view(np.uint8), connectivity=4)
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
    runs = Runs(across[keep].astype(np.float64), start[keep].astype(np.float64), end[keep].astype(np.float64),
                np.nonzero(keep)[0] + 1)
    return runs, labels


def line_masks(grey: np.ndarray, blur: int = LINE_BLUR, bridge: np.ndarray | None = None) -> LineMasks:
    """The line masks and their runs; a longer ``blur`` (along the lines) sees walls through
    coarse hatching but loses the digits' short bars. Pixels of ``bridge`` (annotations drawn
    over the board) count as line in both masks, so a wall they cross stays one run."""
    vertical = _line_mask(grey, True, blur)
    horizontal = _line_mask(grey, False, blur)
    if bridge is not None:
        vertical |= bridge
        horizontal |= bridge
    vertical_runs, vertical_labels = _runs(vertical, True)
    horizontal_runs, horizontal_labels = _runs(horizontal, False)
    return LineMasks(vertical, horizontal, vertical_runs, horizontal_runs, vertical_labels, horizontal_labels)


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


def _judge(masks: LineMasks, cell: float, shape: tuple[int, int]) -> Candidate | None:
    """The board of pitch ``cell`` that the long runs of the masks suggest, and how good it is."""
    vertical = masks.vertical_runs.longer_than(WALL_RUN * cell)
    horizontal = masks.horizontal_runs.longer_than(WALL_RUN * cell)
    if vertical.across.size < 2 or horizontal.across.size < 2:
        return None
    coherence_x, offset_x = _coherence(vertical.across, vertical.length, cell)
    coherence_y, offset_y = _coherence(horizontal.across, horizontal.length, cell)
    # the board's edges: the grid lines nearest to where the walls begin
    left = _snap(offset_x, cell, np.percentile(horizontal.start, 3))
    top = _snap(offset_y, cell, np.percentile(vertical.start, 3))
    height, width = shape
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


def find_board(masks: LineMasks, shape: tuple[int, int]) -> Candidate | None:
    """The best board the line masks show, or None."""
    pitches = set()
    for extent in _line_extents(masks.horizontal_runs, False):
        pitches.update((extent / WIDTH, extent / (WIDTH // 2)))
    for extent in _line_extents(masks.vertical_runs, True):
        pitches.update((extent / HEIGHT, extent / WIDTH))
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
        return Candidate(_refine(masks, again.geometry), again.score, again.coherence)
    return best


# -- cells ---------------------------------------------------------------------------------------
PLAIN, POINT, VOID = 0, 1, 2
KIND_NAMES = ("plain", "point", "void")


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


def classify_cells(grey: np.ndarray, coloured: np.ndarray, geometry: BoardGeometry) -> CellKinds:
    """White (void), hatched (point block) or black (plain box), per cell, with a margin."""
    x0, y0, x1, y1 = _cell_patches(geometry, grey.shape, CELL_INSET)
    area = np.maximum((x1 - x0) * (y1 - y0), 1)
    # annotation pixels count neither way (their grey is zeroed, so they are not white)
    white = cv2.integral(((grey > 200) & ~coloured).view(np.uint8))
    known = cv2.integral((~coloured).view(np.uint8))
    known_area = np.maximum(_box_sums(known, x0, y0, x1, y1), 1)
    white_share = _box_sums(white, x0, y0, x1, y1) / known_area
    # hatching runs along (1, 1): pixels change little along it, much across it
    signed = grey.astype(np.int16)
    along = np.zeros(grey.shape, np.float32)
    across = np.zeros(grey.shape, np.float32)
    along[:-1, :-1] = np.abs(signed[1:, 1:] - signed[:-1, :-1])
    across[1:, :-1] = np.abs(signed[:-1, 1:] - signed[1:, :-1])
    contrast = cv2.integral(across - along)
    hatch = _box_sums(contrast, x0, y0, x1, y1) / area
    empty = (x1 <= x0) | (y1 <= y0)

    kinds = np.where(white_share >= VOID_SHARE, VOID, np.where(hatch >= HATCH_CONTRAST, POINT, PLAIN))
    void_margin = np.abs(white_share - VOID_SHARE) / VOID_SHARE
    hatch_margin = np.abs(hatch - HATCH_CONTRAST) / HATCH_CONTRAST
    confidence = np.where(kinds == VOID, void_margin, np.minimum(void_margin, hatch_margin))
    confidence = np.clip(confidence, 0.0, 1.0)
    confidence[empty] = 0.0
    return CellKinds(kinds, confidence, white_share, hatch)


# -- walls and boxes -----------------------------------------------------------------------------
@dataclasses.dataclass(frozen=True)
class Walls:
    """Share of each inner cell edge covered by a line: ``between_columns[y, x]`` is the edge
    between cells (x, y) and (x + 1, y), ``between_rows[y, x]`` between (x, y) and (x, y + 1)."""

    between_columns: np.ndarray  # 16 x 7
    between_rows: np.ndarray     # 15 x 8


def _edge_share(mask: np.ndarray, line: float, lo: float, hi: float, tolerance: float, vertical: bool) -> float:
    """The share of the edge from ``lo`` to ``hi`` (along the line at ``line``) where the mask has
    a pixel within ``tolerance`` of the line."""
    height, width = mask.shape
    a = int(np.floor(line - tolerance))
    b = int(np.ceil(line + tolerance)) + 1
    start, stop = int(round(lo)), int(round(hi))
    if vertical:
        a, b = max(a, 0), min(b, width)
        start, stop = max(start, 0), min(stop, height)
        if a >= b or start >= stop:
            return 0.0
        return float(mask[start:stop, a:b].any(axis=1).mean())
    a, b = max(a, 0), min(b, height)
    start, stop = max(start, 0), min(stop, width)
    if a >= b or start >= stop:
        return 0.0
    return float(mask[a:b, start:stop].any(axis=0).mean())


def measure_walls(masks: LineMasks, geometry: BoardGeometry) -> Walls:
    """How much of each inner cell edge a wall covers. Only runs of at least WALL_RUN cells count:
    a wall between two cells runs on into the corners, while the bars of a number centred on an
    edge (a block two cells high or wide) stop well short of a cell."""
    cell = geometry.cell
    tolerance = max(1.5, GRID_TOLERANCE * cell)
    end_gap = 0.2 * cell  # clear of the crossing walls at the edge's ends
    vertical_walls = masks.walls(True, cell)
    horizontal_walls = masks.walls(False, cell)
    between_columns = np.zeros((HEIGHT, WIDTH - 1))
    between_rows = np.zeros((HEIGHT - 1, WIDTH))
    for y in range(HEIGHT):
        lo, hi = geometry.y_edge(y) + end_gap, geometry.y_edge(y + 1) - end_gap
        for x in range(WIDTH - 1):
            between_columns[y, x] = _edge_share(vertical_walls, geometry.x_edge(x + 1), lo, hi, tolerance, True)
    for x in range(WIDTH):
        lo, hi = geometry.x_edge(x) + end_gap, geometry.x_edge(x + 1) - end_gap
        for y in range(HEIGHT - 1):
            between_rows[y, x] = _edge_share(horizontal_walls, geometry.y_edge(y + 1), lo, hi, tolerance, False)
    return Walls(between_columns, between_rows)


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

    def edge(share: float, a: tuple[int, int], b: tuple[int, int]) -> None:
        (xa, ya), (xb, yb) = a, b
        if kinds[ya, xa] == VOID or kinds[yb, xb] == VOID:
            return
        sure = min(1.0, abs(share - WALL_SHARE) / 0.35)
        confidence[ya, xa] = min(confidence[ya, xa], sure)
        confidence[yb, xb] = min(confidence[yb, xb], sure)
        if share < WALL_SHARE and kinds[ya, xa] == kinds[yb, xb]:
            parent[find(ya * WIDTH + xa)] = find(yb * WIDTH + xb)

    for y in range(HEIGHT):
        for x in range(WIDTH - 1):
            edge(walls.between_columns[y, x], (x, y), (x + 1, y))
    for y in range(HEIGHT - 1):
        for x in range(WIDTH):
            edge(walls.between_rows[y, x], (x, y), (x, y + 1))

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
        if w * h != len(cells_of_box):
            problems.append(f"the cells joined at ({x},{y}) do not form a rectangle")
            for cx, cy in cells_of_box:
                confidence[cy, cx] = 0.0
        boxes.append((x, y, w, h))
        box_kinds.append(int(kinds[cells_of_box[0][1], cells_of_box[0][0]]))
    return BoxShapes(boxes, box_kinds, voids, confidence, problems)


# -- glyphs --------------------------------------------------------------------------------------
#: Templates are this many pixels wide and high (``glyphs.png``).
TEMPLATE_WIDTH, TEMPLATE_HEIGHT = 10, 20
#: A glyph whose ink is at most this wide for its height is a 1 (a lone bar).
ONE_ASPECT = 0.3
#: A glyph is read when its strokes differ from the best template's by at most this much (sum
#: over the zones of the difference in coverage, each 0..1).
GLYPH_DISTANCE = 2.5
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
    height, width = ink.shape
    size = (TEMPLATE_WIDTH, TEMPLATE_HEIGHT)
    if height >= TEMPLATE_HEIGHT and width >= TEMPLATE_WIDTH:
        patch = cv2.resize(ink.astype(np.float32), size, interpolation=cv2.INTER_AREA) > 0.02
    else:
        patch = cv2.resize(ink.view(np.uint8), size, interpolation=cv2.INTER_NEAREST) > 0
    return patch.astype(np.float32)


def stroke_coverage(patch: np.ndarray) -> np.ndarray:
    """How much of each zone (``ZONES``) a stroke covers, 0..1 each."""
    height, width = patch.shape
    inked = patch > 0.5
    values = []
    for left, right, top, bottom, across in ZONES:
        x0, x1 = int(round(left * width)), max(int(round(right * width)), int(round(left * width)) + 1)
        y0, y1 = int(round(top * height)), max(int(round(bottom * height)), int(round(top * height)) + 1)
        zone = inked[y0:y1, x0:x1]
        values.append(zone.any(axis=0).mean() if across else zone.any(axis=1).mean())
    return np.array(values)


@functools.lru_cache(maxsize=1)
def _templates() -> tuple[str, np.ndarray]:
    """The template characters and the stroke coverage of each."""
    from assets.vision.splt.make_templates import CHARACTERS

    data = resources.files("assets.vision.splt").joinpath("glyphs.png").read_bytes()
    strip = cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_GRAYSCALE).astype(np.float32) / 255.0
    patches = strip.reshape(TEMPLATE_HEIGHT, len(CHARACTERS), TEMPLATE_WIDTH).transpose(1, 0, 2)
    return CHARACTERS, np.array([stroke_coverage(patch) for patch in patches])


@dataclasses.dataclass(frozen=True)
class Glyph:
    character: str   # "?" when nothing matched
    confidence: float
    left: int        # ink box in the searched region's pixels
    right: int
    top: int
    bottom: int


def _match(ink: np.ndarray) -> tuple[str, float]:
    """The character of a glyph's ink box and how sure (0..1: the margin over the runner-up)."""
    height, width = ink.shape
    if width <= ONE_ASPECT * height:
        # a lone bar: sure when clearly narrow
        return "1", float(np.clip((ONE_ASPECT * height - width) / (0.15 * height), 0.0, 1.0))
    characters, coverages = _templates()
    distances = np.abs(coverages - stroke_coverage(glyph_patch(ink))).sum(axis=1)
    order = np.argsort(distances)
    best, second = distances[order[0]], distances[order[1]]
    if best > GLYPH_DISTANCE:
        return "?", 0.0
    return characters[order[0]], float(np.clip((second - best) / 1.5, 0.0, 1.0))


def _without_specks(ink: np.ndarray, size: float) -> np.ndarray:
    """The ink without its pieces smaller than ``size`` both ways (noise, hatching's remains)."""
    count, labels, stats, _ = cv2.connectedComponentsWithStats(ink.view(np.uint8), connectivity=8)
    keep = np.maximum(stats[:, cv2.CC_STAT_WIDTH], stats[:, cv2.CC_STAT_HEIGHT]) >= size
    keep[0] = False
    return keep[labels]


#: A digit's ink is about this wide for its height, and the gap to the next about this share of
#: its width.
DIGIT_ASPECT = 0.62
DIGIT_GAP = 0.4


def _split_joined(piece: np.ndarray, offset: int) -> list[tuple[int, int]]:
    """Column ranges of the glyphs in a piece of ink: more than one where a blurred bar bridged
    the narrow gap between two digits (the piece is then too wide for one). Each cut goes where
    the fewest pixels are inked near the place the digits' widths put it."""
    rows = np.nonzero(piece.any(axis=1))[0]
    width = piece.shape[1]
    if rows.size == 0:
        return [(offset, offset + width)]
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
        cuts.append(lo + int(np.argmin(inked[lo:hi])) if hi > lo else centre)
    cuts.append(width)
    return [(offset + a, offset + b) for a, b in zip(cuts, cuts[1:]) if b > a]


def read_glyphs(ink: np.ndarray, min_height: float) -> list[Glyph]:
    """The glyphs in a region's ink, left to right: pieces between empty columns whose ink is at
    least ``min_height`` tall (specks of noise are left out)."""
    ink = _without_specks(np.ascontiguousarray(ink), 0.4 * min_height)
    columns = ink.any(axis=0)
    # a one-column gap is a corner the two masks both missed, not the space between glyphs
    columns[1:-1] |= columns[:-2] & columns[2:]
    if not columns.any():
        return []
    padded = np.concatenate([[False], columns, [False]])
    changes = np.nonzero(np.diff(padded.astype(np.int8)))[0]
    glyphs = []
    pieces = []
    for left, right in zip(changes[::2], changes[1::2]):
        pieces.extend(_split_joined(ink[:, left:right], int(left)))
    for left, right in pieces:
        piece = ink[:, left:right]
        rows = np.nonzero(piece.any(axis=1))[0]
        top, bottom = rows[0], rows[-1] + 1
        if bottom - top < min_height:
            continue
        character, confidence = _match(piece[top:bottom])
        glyphs.append(Glyph(character, confidence, int(left), int(right), int(top), int(bottom)))
    if glyphs:
        # digits of one number share a height: drop shorter marks (letters, dots)
        tallest = max(g.bottom - g.top for g in glyphs)
        glyphs = [g for g in glyphs if g.bottom - g.top >= 0.75 * tallest]
    return glyphs


def _number(glyphs: list[Glyph]) -> tuple[int | None, float]:
    """The number the glyphs spell and the least sure glyph's confidence (None if not digits)."""
    text = "".join(g.character for g in glyphs)
    if not text or not text.isdigit():
        return None, 0.0
    return int(text), min(g.confidence for g in glyphs)


def _grid_bands(geometry: BoardGeometry, shape: tuple[int, int]) -> tuple[np.ndarray, np.ndarray]:
    """Masks of the columns near the board's vertical grid lines and the rows near its horizontal
    ones (where walls can be)."""
    height, width = shape
    tolerance = max(1.5, GRID_TOLERANCE * geometry.cell)
    columns = np.zeros(width, bool)
    rows = np.zeros(height, bool)
    for k in range(WIDTH + 1):
        x = geometry.x_edge(k)
        columns[max(int(np.floor(x - tolerance)), 0):max(int(np.ceil(x + tolerance)) + 1, 0)] = True
    for k in range(HEIGHT + 1):
        y = geometry.y_edge(k)
        rows[max(int(np.floor(y - tolerance)), 0):max(int(np.ceil(y + tolerance)) + 1, 0)] = True
    return columns, rows


def stroke_ink(grey: np.ndarray, masks: LineMasks, geometry: BoardGeometry) -> np.ndarray:
    """Strokes that are not walls: the digits' bars (and whatever short lines annotations add).
    The line masks are made again with a shorter blur, so the gap between two digits' bars stays
    open, and only pieces of at least STROKE_RUN cells along their direction are kept, so what
    the hatching leaves (diagonal steps) goes."""
    cell = geometry.cell
    length = max(3, int(round(STROKE_RUN * cell)))
    vertical = _line_mask(grey, True, STROKE_BLUR)
    horizontal = _line_mask(grey, False, STROKE_BLUR)
    vertical = cv2.morphologyEx(vertical.view(np.uint8), cv2.MORPH_OPEN, np.ones((length, 1), np.uint8)).view(bool)
    horizontal = cv2.morphologyEx(horizontal.view(np.uint8), cv2.MORPH_OPEN, np.ones((1, length), np.uint8)).view(bool)
    # walls are long runs on grid lines (digits of the header may join into long runs, off them)
    columns, rows = _grid_bands(geometry, grey.shape)
    vertical_walls = masks.walls(True, cell) & columns[None, :]
    horizontal_walls = masks.walls(False, cell) & rows[:, None]
    return (vertical & ~vertical_walls) | (horizontal & ~horizontal_walls)


def read_block_number(ink: np.ndarray, geometry: BoardGeometry, box: tuple[int, int, int, int]) -> tuple[int | None, float]:
    """The number written in the middle of a point block, and how sure."""
    x, y, w, h = box
    cell = geometry.cell
    centre_y = geometry.y_edge(y + h / 2)
    x0 = int(round(geometry.x_edge(x) + 0.06 * cell))
    x1 = int(round(geometry.x_edge(x + w) - 0.06 * cell))
    y0 = int(round(centre_y - min(0.3, h / 2 - 0.06) * cell))
    y1 = int(round(centre_y + min(0.3, h / 2 - 0.06) * cell))
    height, width = ink.shape
    region = ink[max(y0, 0):min(y1, height), max(x0, 0):min(x1, width)]
    return _number(read_glyphs(region, 0.18 * cell))


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


def read_header(grey: np.ndarray, ink: np.ndarray, geometry: BoardGeometry) -> Header:
    """Score (left of the figure), split count (right of it) and the figure's arms."""
    cell = geometry.cell
    height, width = grey.shape
    y0 = max(int(round(geometry.top - HEADER_BAND[0] * cell)), 0)
    y1 = max(int(round(geometry.top - HEADER_BAND[1] * cell)), 0)
    left = max(int(round(geometry.left)), 0)
    right = min(int(round(geometry.right)), width)
    middle = (geometry.left + geometry.right) / 2
    figure_left = int(round(middle - FIGURE_HALF_WIDTH * cell))
    figure_right = int(round(middle + FIGURE_HALF_WIDTH * cell))
    if y1 - y0 < 0.3 * cell:
        return Header(None, 0.0, None, 0.0, None, 0.0)
    score, score_confidence = _number(read_glyphs(ink[y0:y1, left:max(figure_left, left)], 0.2 * cell))
    splits, splits_confidence = _number(read_glyphs(ink[y0:y1, min(figure_right, right):right], 0.2 * cell))

    figure = grey[y0:y1, max(figure_left, 0):min(figure_right, width)] > FIGURE_GREY
    figure = _without_specks(figure, 0.1 * cell)
    arms, arms_confidence = None, 0.0
    if figure.any():
        rows = np.nonzero(figure.any(axis=1))[0]
        columns = np.nonzero(figure.any(axis=0))[0]
        aspect = (columns[-1] - columns[0] + 1) / (rows[-1] - rows[0] + 1)
        arms = "H" if aspect >= ARMS_OUT_ASPECT else "V"
        arms_confidence = float(np.clip(abs(aspect - ARMS_OUT_ASPECT) / 0.2, 0.0, 1.0))
    return Header(score, score_confidence, splits, splits_confidence, arms, arms_confidence)


# -- reading -------------------------------------------------------------------------------------
@dataclasses.dataclass(frozen=True)
class ReadingImage:
    """The board and its header cut from the caller's image and scaled to READ_CELL pixels a
    cell: ``origin`` is the cut's top-left corner in the caller's pixels, ``factor`` the scale."""

    bgr: np.ndarray
    origin: tuple[int, int]
    factor: float
    geometry: BoardGeometry


def _reading_image(bgr: np.ndarray, found: BoardGeometry) -> ReadingImage:
    """Cut the board found (in the caller's pixels) with a cell of margin above for the header."""
    height, width = bgr.shape[:2]
    cell = found.cell
    x0 = max(int(np.floor(found.left - 0.3 * cell)), 0)
    x1 = min(int(np.ceil(found.right + 0.3 * cell)), width)
    y0 = max(int(np.floor(found.top - 1.0 * cell)), 0)
    y1 = min(int(np.ceil(found.bottom + 0.3 * cell)), height)
    factor = min(1.0, READ_CELL / cell)
    cut = bgr[y0:y1, x0:x1]
    scaled = cut if factor == 1.0 else cv2.resize(cut, None, fx=factor, fy=factor, interpolation=cv2.INTER_AREA)
    geometry = BoardGeometry((found.left - x0) * factor, (found.top - y0) * factor, cell * factor)
    return ReadingImage(scaled, (x0, y0), factor, geometry)


def _no_board(bgr: np.ndarray, reason: str) -> NoBoardFound:
    """NoBoardFound, saying so when the image is the game's end screen (and what it shows)."""
    end_screen = read_end_screen(bgr)
    if end_screen is None:
        return NoBoardFound(reason)
    error = NoBoardFound(f"the SPL-T end screen (score {end_screen['score']}, "
                         f"{end_screen['splits']} splits), no board visible")
    error.diagnostics = {"end_screen": end_screen}
    return error


def read(image: np.ndarray, previous: State | None = None) -> Reading:
    """Read the SPL-T board in ``image`` (BGR). Raises NoBoardFound when there is none."""
    started = time.perf_counter()
    bgr = as_bgr(image)
    if min(bgr.shape[:2]) < 2 * 2 * LINE_OFFSET + 1:
        raise NoBoardFound("the image is too small to hold an SPL-T board")
    small, shrink = _working_copy(bgr)
    grey, _ = _grey_and_colour(small)
    found = find_board(line_masks(grey), grey.shape)
    if found is None or found.coherence < MIN_COHERENCE:
        raise _no_board(bgr, "no 8 x 16 grid of box walls found")
    first = found.geometry
    board = _reading_image(bgr, BoardGeometry(first.left / shrink, first.top / shrink, first.cell / shrink))

    grey, coloured = _grey_and_colour(board.bgr)
    masks = line_masks(grey)
    geometry = _refine(masks, board.geometry)
    cells = classify_cells(grey, coloured, geometry)
    walls = measure_walls(masks, geometry)
    shapes = group_boxes(cells, walls)
    ink = stroke_ink(grey, masks, geometry)
    confidence = shapes.confidence.copy()
    problems = list(shapes.problems)

    boxes: list[list[int]] = []
    for (x, y, w, h), kind in zip(shapes.boxes, shapes.kinds):
        points = 0
        if kind == POINT:
            number, sure = read_block_number(ink, geometry, (x, y, w, h))
            number, sure = _settle_number(number, sure, (x, y, w, h), previous)
            if number is None or number == 0:
                problems.append(f"the number of the point block at ({x},{y}) could not be read")
                number, sure = max(number or 0, 1), 0.0
            points = number
            confidence[y:y + h, x:x + w] = np.minimum(confidence[y:y + h, x:x + w], sure)
        boxes.append([x, y, w, h, points])
    boxes.sort(key=lambda box: (box[1], box[0]))

    header = read_header(grey, ink, geometry)
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
            x, y, w, h, points = box
            if points > splits:  # a block is numbered with the split count when it is made
                problems.append(f"the point block at ({x},{y}) reads {points}, more than the {splits} splits")
                box[4] = max(splits, 1)
                confidence[y:y + h, x:x + w] = 0.0
    state = _engine_state(boxes, max(splits, max((box[4] for box in boxes), default=0)), score)
    voids = [[x, y] for x, y in shapes.voids]
    cells_json = {"boxes": boxes, "voids": voids, "splits": splits, "score": score}
    scale = shrink  # geometry in the caller's pixels
    diagnostics: dict[str, Any] = {
        "board_px": {"left": round(board.origin[0] + geometry.left / board.factor, 1),
                     "top": round(board.origin[1] + geometry.top / board.factor, 1),
                     "cell": round(geometry.cell / board.factor, 2)},
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
    del scale
    diagnostics["ms"] = round((time.perf_counter() - started) * 1000, 1)
    return Reading(GAME, state, cells_json, confidence, diagnostics)


def _settle_number(number: int | None, sure: float, box: tuple[int, int, int, int],
                   previous: State | None) -> tuple[int | None, float]:
    """A doubtful number of a point block that was there before: the previous reading's number,
    if that is what was read or nothing could be read (a block counts down by one a split, so the
    reader's guess is only kept when it is plausible)."""
    if previous is None or sure >= 0.6:
        return number, sure
    before = next((b for b in previous.boxes if b.points and (b.x, b.y, b.w, b.h) == box), None)
    if before is None:
        return number, sure
    if number is None:
        return before.points, 0.5
    return number, sure


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
    small, _ = _working_copy(bgr)
    grey, _ = _grey_and_colour(small)
    masks = line_masks(grey)
    ink = _without_specks(masks.vertical | masks.horizontal, max(3.0, 0.01 * grey.shape[0]))
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
