"""Destruct-o-Match board reader: the boulder grid, each boulder's colour and power-up, the
selected (pale) group and the empty cells, from a screenshot of the real game or of Kibitz's own
board (spec 5), at any scale, with page or window around it.

How it reads:

1. **The lattice.** Boulders sit on a regular grid, so in the image's busiest region (the board,
   with page or window around it) the edge profiles (how much of each column and row is a strong
   edge) repeat with the boulder pitch: the pitch is the shortest autocorrelation peak whose first
   multiples are peaks too. The cell boundaries are the gaps: thin
   lines lighter than the dark outlines on both sides of them, which run the whole board. Starting
   from the strongest gap, the reader steps by the pitch to the strongest gap near each next place
   and fits a straight line through them (sub-pixel pitch, no drift over eighteen columns). A
   lattice whose cells are not about 1.5 times as wide as tall is no board. Small boulders (a
   board in a full-screen screenshot) are looked for again on a larger copy. Rows x columns are
   not assumed: they are the block of lattice cells that hold boulders.
2. **The cells**, every whole lattice cell of the image, are resampled to one size
   (``CELL_WIDTH`` x ``CELL_HEIGHT``), so everything after this works at any scale.
3. **Colours.** A boulder's colour is the median Lab colour (``vision.colour``'s, as every grid
   reader's) of its central patch (the stones are textured: cracks, facets, highlights) with the
   grey of its darkest pixels (the outline). The
   selected group is drawn washed out towards white; every colour is also tried washed, by as much
   as the outline says (a washed black outline turns grey), so a pale green reads as a selected
   green. Two renderings have their own references (``assets/vision/destructo``, made by
   ``make_templates.py`` there): the real game's stones, measured on the shared screenshots (colours they
   do not show are inferred from Kibitz's), and Kibitz's own board; the one that explains the cells
   better is used.
4. **Power-ups** are matched by their icon: the cell's inner picture, small, softened and with its
   median colour taken away (the icon, not the carrier), against templates of the real sprites, of
   Kibitz's icons and of plain stones, one picture pixel off either way. The carrier's colour is
   read from the boulder's ends, beside the icon.
5. **The board** is the block of lattice cells holding boulders; cells of it that show the ground
   are empty (gravity keeps them on top; an empty cell under a boulder is a misread and takes its
   best boulder, as doubtful). Rows or columns entirely empty cannot be seen: the block is grown
   to the smallest level size (rows x columns of the level table) that holds it, when the cells
   that needs show the ground and the missing columns fit on one side only. The page is no part
   of it: an edge row or column mostly of neither boulders nor ground, or a top row with nothing
   surely a boulder that makes the block no level's size, is left out (a title line just over
   the frame can pass for a few boulders). A pale boulder with no pale neighbour of its colour is
   doubtful: a selection is a group of two or more.

The level is not visible on a board: without ``previous`` the state's level is the lowest whose
palette holds every colour read; with ``previous`` its level, score and banked items are kept, and
a board one click (or none) away from it that agrees with every sure cell settles the doubtful
ones (and gives the click's points).

When the end-of-game panel ("Your Score" over a number) hides the board, NoBoardFound says so and
carries the final score it shows (:func:`read_end_score`).

``Reading.cells`` are rows of colour names, power-up names (``explode``, ``wild``, ``morph``,
``indestructible``), ``"<carrier> <power-up>"`` for carried ones (``"blue fill"``) and None for
empty cells. ``diagnostics["selected"]`` lists the pale cells as [row, column].
"""

from __future__ import annotations

import dataclasses
import functools
import json
import time
from importlib import resources
from typing import Any

import cv2
import numpy as np

from engines import GAMES
from engines.destructo.levels import LEVEL_TABLE
from engines.destructo.notation import board_text
from engines.destructo.rules import COLOURLESS, Boulder, group_at, removal
from engines.errors import NotationError
from vision import grid
from vision.colour import components, lab_image, shrink_by
from vision.images import as_bgr, board_image
from vision.reading import DOUBTFUL_BELOW, CellGrid, NoBoardFound, Reading

GAME = "destructo"

# -- the lattice
#: The lattice is searched on a copy whose longer side is at most this (for speed; the image
#: averaged over whole squares, vision.colour.shrink_by), then on a larger one if that fails.
WORK_SIDES = (720, 1440)
#: Boulders shorter than this on the working copy are looked for again on a copy where they are
#: at least this tall.
FINE_PITCH = 40
#: The smallest pitch (working pixels) searched: smaller boulders cannot be read.
SHORTEST_PITCH = 7
#: How many multiples of a lag the period search checks, and how strongly they must repeat.
COMB_MULTIPLES = 3
REPEATS_ENOUGH = 0.25
#: Width over height of a cell: the real sprite is 1.53, the shared crops 1.48, Kibitz's 1.53.
ASPECT_RANGE = (1.25, 1.9)
#: A gap is lighter, by GAP_CONTRAST grey levels, than the darkest pixel within GAP_REACH of a
#: boulder's height on both sides of it (the gap and an outline are narrower than that).
GAP_REACH = 0.07
GAP_CONTRAST = 15.0
#: Gaps weaker than this share of the strongest are not fitted.
STRONG_GAP = 0.6

# -- the cells
#: Every cell is resampled to this size (near the sprite's 69 x 45).
CELL_WIDTH, CELL_HEIGHT = 72, 48
#: Share of the cell (each side) left out of the central colour patch.
PATCH_MARGIN = 0.25
#: The icon picture (columns x rows) a template holds. It is taken ICON_INSET (rows, columns)
#: inside the cell, one picture pixel wider all round, so an icon can be matched one pixel off.
ICON_WIDTH, ICON_HEIGHT = 24, 16
ICON_INSET = (4, 6)
SHIFTS = tuple((dy, dx) for dy in (-1, 0, 1) for dx in (-1, 0, 1))

# -- the classes
#: The outline's grey counts in a colour's distance past this slack, with this weight.
DARK_SLACK, DARK_WEIGHT = 25.0, 0.15
#: A boulder is washed (selected) when less than this share of its colour is left; the washed
#: reading must still beat the plain one after this handicap (Lab units).
WASHED_BELOW = 0.8
WASH_PENALTY = 3.0
#: A washed colour this near white (Lab units) cannot be told from the white it is washed towards
#: (or from the game's white ground): no cell is read as that.
WASHES_FROM_WHITE = 12.0
WHITE_LAB = np.array([100.0, 0.0, 0.0], np.float32)
#: Distances (Lab units) above which a cell matches no colour, or is no empty cell.
FARTHEST_COLOUR = 26.0
FARTHEST_EMPTY = 20.0
#: A boulder's sides (all but the faintest) are darker than its centre by this (grey levels); by
#: RING_FAINT at least when its colour is as close as CLOSE_COLOUR (Lab units).
RING_DARKER = 25.0
RING_FAINT = 12.0
CLOSE_COLOUR = 8.0
#: An icon is found when its template is nearer (RMS Lab) than every plain stone's and nearer than
#: FARTHEST_ICON. A cell without an outline (an Indestructible boulder is as dark as its outline)
#: needs its icon STANDALONE_ICON times nearer than a plain stone.
FARTHEST_ICON = 22.0
STANDALONE_ICON = 0.6
#: Unshifted, no icon is this many times farther than a plain stone (at most 1.15 in Kibitz's
#: rendered icons; a shift gains at most 40 %): such a cell is not tried shifted.
PLAIN_UNSHIFTED = 1.7
#: A cell that is neither a clear boulder nor clearly empty is at most this sure.
ODD_CELL = 0.3
#: Confidence scales: a colour margin (Lab units) and an icon log-ratio that make a cell 63 % sure.
COLOUR_SURE = 6.0
ICON_SURE = 0.25


# -- the references -------------------------------------------------------------------------------
@dataclasses.dataclass(frozen=True)
class Rendering:
    """One way the board is drawn: each colour's reference (median Lab of the central patch, grey
    of the outline), the empty cell's, and which colours are inferred (never seen)."""

    name: str
    colours: tuple[str, ...]
    lab: np.ndarray  # (colours, 3)
    dark: np.ndarray  # (colours,)
    empty_lab: np.ndarray  # (3,)
    empty_dark: float
    inferred: tuple[str, ...]


@dataclasses.dataclass(frozen=True)
class Templates:
    """Icon templates: their vectors (see :func:`icon_vectors`) and what each shows."""

    vectors: np.ndarray  # (templates, ICON_HEIGHT * ICON_WIDTH * 3)
    kinds: tuple[str, ...]  # a power-up's name, or "plain"
    renderings: tuple[str, ...]
    sources: tuple[str, ...]


def _asset(name: str):
    return resources.files("assets.vision.destructo").joinpath(name)


@functools.lru_cache(maxsize=1)
def renderings() -> tuple[Rendering, ...]:
    """The colour references of each rendering (``assets/vision/destructo/references.json``)."""
    data = json.loads(_asset("references.json").read_text())
    found = []
    for name, entry in data["renderings"].items():
        colours = tuple(entry["colours"])
        found.append(Rendering(
            name, colours,
            np.array([entry["colours"][c]["lab"] for c in colours], dtype=np.float32),
            np.array([entry["colours"][c]["dark"] for c in colours], dtype=np.float32),
            np.array(entry["empty"]["lab"], dtype=np.float32), float(entry["empty"]["dark"]),
            tuple(c for c in colours if entry["colours"][c].get("inferred"))))
    return tuple(found)


@functools.lru_cache(maxsize=1)
def templates() -> Templates:
    """The icon templates (``templates.png``: one (ICON_WIDTH + 2) x (ICON_HEIGHT + 2) picture each,
    side by side, described in ``templates.json``)."""
    index = json.loads(_asset("templates.json").read_text())
    sheet = cv2.imdecode(np.frombuffer(_asset("templates.png").read_bytes(), np.uint8), cv2.IMREAD_COLOR)
    width = ICON_WIDTH + 2
    pictures = np.stack([soften(sheet[:, i * width:(i + 1) * width]) for i in range(len(index))])
    return Templates(icon_vectors(pictures)[0], tuple(t["kind"] for t in index),
                     tuple(t["rendering"] for t in index), tuple(t["source"] for t in index))


# -- the lattice ----------------------------------------------------------------------------------
@dataclasses.dataclass(frozen=True)
class Lattice:
    """Cell boundaries at ``left + k * pitch_x`` and ``top + k * pitch_y`` (image pixels), for
    ``columns`` x ``rows`` whole cells from there."""

    left: float
    top: float
    pitch_x: float
    pitch_y: float
    columns: int
    rows: int


def _edge_profile(grey: np.ndarray, axis: int) -> np.ndarray:
    """How much of each column (axis 1: vertical edges) or row (axis 0) is a strong edge (above
    the region's upper quartile): the boulders' sides run the board's whole height, a texture's
    cracks only a little of it."""
    if axis == 1:
        gradient = np.abs(cv2.Sobel(grey, cv2.CV_32F, 1, 0, ksize=3))
    else:
        gradient = np.abs(cv2.Sobel(grey, cv2.CV_32F, 0, 1, ksize=3))
    strong = gradient > np.percentile(gradient[::3, ::3], 75)  # a sample is enough
    return strong.mean(axis=0 if axis == 1 else 1).astype(np.float32)


def _gap_profile(grey: np.ndarray, axis: int, reach: int) -> np.ndarray:
    """How much each column (axis 1) or row (axis 0) looks like a gap: the share of its length
    lighter than the darkest pixel within ``reach`` on both sides (the boulders' outlines). A gap
    runs the whole board; a light line in a texture only crosses the boulders of one colour."""
    lines = grey if axis == 1 else np.ascontiguousarray(grey.T)
    before = np.ones((1, reach + 1), np.uint8)
    before[0, reach] = 0
    after = np.ones((1, reach + 1), np.uint8)
    after[0, 0] = 0
    darkest_before = cv2.erode(lines, before, anchor=(reach, 0), borderType=cv2.BORDER_REPLICATE)
    darkest_after = cv2.erode(lines, after, anchor=(0, 0), borderType=cv2.BORDER_REPLICATE)
    ridge = np.minimum(lines - darkest_before, lines - darkest_after)
    return (ridge > GAP_CONTRAST).mean(axis=0)


def find_lattice(bgr: np.ndarray) -> Lattice:
    """The boulder lattice of the image, covering every whole cell in it; NoBoardFound if none.
    Searched on a copy at most WORK_SIDES[0] pixels long, else on a larger one; small boulders
    (a board in a large screenshot) are searched again, around the board only, on a copy where
    they are at least FINE_PITCH pixels tall, so that the gaps between them are found to the
    pixel. Copies are averages over whole squares of pixels (fast, and no pixel is blurred into
    a fraction of another)."""
    height, width = bgr.shape[:2]
    failure = None
    for side in WORK_SIDES:
        block = max(1, int(np.ceil(max(height, width) / side)))
        try:
            lattice, (x0, y0, x1, y1) = _lattice_at(bgr, block)
        except NoBoardFound as error:
            failure = failure or error
            if block == 1:
                break
            continue
        if lattice.pitch_y / block < FINE_PITCH and block > 1:
            margin_x, margin_y = round(lattice.pitch_x), round(lattice.pitch_y)
            x0, y0 = max(0, x0 - margin_x), max(0, y0 - margin_y)
            around = bgr[y0:min(height, y1 + margin_y), x0:min(width, x1 + margin_x)]
            try:
                fine, _ = _lattice_at(around, max(1, int(lattice.pitch_y // FINE_PITCH)))
            except NoBoardFound:
                return lattice
            return _spread(fine.left + x0, fine.top + y0, fine.pitch_x, fine.pitch_y, width, height)
        return lattice
    raise failure


def _busy_box(grey: np.ndarray) -> tuple[int, int, int, int]:
    """(x0, y0, x1, y1) of the image's largest busy region (dense edges: the board, in a
    screenshot with page or window around it)."""
    edges = np.abs(cv2.Sobel(grey, cv2.CV_32F, 1, 0)) + np.abs(cv2.Sobel(grey, cv2.CV_32F, 0, 1))
    size = max(3, int(0.04 * max(grey.shape)))
    density = cv2.blur(edges, (size, size))
    busy = (density > 0.5 * np.percentile(density[::3, ::3], 99)).astype(np.uint8)  # a sample is enough
    count, _, stats, _ = components(busy, connectivity=8)
    if count < 2:
        return 0, 0, grey.shape[1], grey.shape[0]
    x, y, w, h = stats[1 + int(np.argmax(stats[1:, cv2.CC_STAT_AREA])), :4]
    if min(w, h) < 3 * SHORTEST_PITCH:
        return 0, 0, grey.shape[1], grey.shape[0]
    return (max(0, x - size // 2), max(0, y - size // 2), min(grey.shape[1], x + w + size // 2),
            min(grey.shape[0], y + h + size // 2))


def _lattice_at(bgr: np.ndarray, block: int) -> tuple[Lattice, tuple[int, int, int, int]]:
    """The lattice found on a copy of the image averaged over ``block`` x ``block`` squares, and
    the busy region it was found in, both in the image's pixels."""
    height, width = bgr.shape[:2]
    scale = 1.0 / block
    work = shrink_by(bgr, block)
    grey = cv2.cvtColor(work, cv2.COLOR_BGR2GRAY).astype(np.float32)
    if min(grey.shape) < 3 * SHORTEST_PITCH:
        raise NoBoardFound(f"the image ({width} x {height} px) is too small to hold a board")
    if float(grey.std()) < 2.0:
        raise NoBoardFound("the image is uniform: no boulders")
    failure = None
    for x0, y0, x1, y1 in _busy_boxes(grey):
        try:
            left, top, pitch_x, pitch_y = _lines_in(grey[y0:y1, x0:x1], scale)
        except NoBoardFound as error:
            failure = failure or error
            continue
        lattice = _spread((left + x0) / scale, (top + y0) / scale, pitch_x / scale, pitch_y / scale, width, height)
        busy = (int(x0 / scale), int(y0 / scale), int(np.ceil(x1 / scale)), int(np.ceil(y1 / scale)))
        return lattice, busy
    raise failure


def _busy_boxes(grey: np.ndarray):
    """Where to look for the board, in turn: the busiest region; the busiest once that one is
    blanked (small boulders' edges are fainter than a page's text, whose line may be the busiest);
    the whole image."""
    height, width = grey.shape
    first = _busy_box(grey)
    yield first
    x0, y0, x1, y1 = first
    if (x1 - x0) * (y1 - y0) < 0.9 * width * height:
        rest = grey.copy()
        rest[y0:y1, x0:x1] = float(np.median(grey[::3, ::3]))
        second = _busy_box(rest)
        if second != (0, 0, width, height):
            yield second
        yield 0, 0, width, height


def _lines_in(region: np.ndarray, scale: float) -> tuple[float, float, float, float]:
    """(left, top, pitch_x, pitch_y) of the boulder lattice in a region of the working copy."""
    period_x = grid.period(_edge_profile(region, 1), SHORTEST_PITCH, COMB_MULTIPLES, REPEATS_ENOUGH)
    period_y = grid.period(_edge_profile(region, 0), SHORTEST_PITCH, COMB_MULTIPLES, REPEATS_ENOUGH)
    if period_x is None or period_y is None:
        raise NoBoardFound("no repeating grid of boulders (the image does not repeat across or down)")
    reach = max(2, round(GAP_REACH * period_y))
    left, pitch_x = grid.regular_lines(_gap_profile(region, 1, reach), period_x, STRONG_GAP)
    top, pitch_y = grid.regular_lines(_gap_profile(region, 0, reach), period_y, STRONG_GAP)
    aspect = pitch_x / pitch_y
    if not ASPECT_RANGE[0] <= aspect <= ASPECT_RANGE[1]:
        raise NoBoardFound(f"the repeating cells are {pitch_x / scale:.0f} x {pitch_y / scale:.0f} px (width over "
                           f"height {aspect:.2f}); boulders are about 1.5 times as wide as tall")
    return left, top, pitch_x, pitch_y


def _spread(left: float, top: float, pitch_x: float, pitch_y: float, width: int, height: int) -> Lattice:
    """The lattice through a boundary at (``left``, ``top``) over every whole cell of a ``width``
    x ``height`` image (a cell may stick out by 6 % of its size)."""
    slack_x, slack_y = 0.06 * pitch_x, 0.06 * pitch_y
    first_x = left - np.floor((left + slack_x) / pitch_x) * pitch_x
    first_y = top - np.floor((top + slack_y) / pitch_y) * pitch_y
    columns = int(np.floor((width + slack_x - first_x) / pitch_x))
    rows = int(np.floor((height + slack_y - first_y) / pitch_y))
    if columns < 2 or rows < 2:
        raise NoBoardFound("fewer than two whole cells across or down")
    return Lattice(float(first_x), float(first_y), float(pitch_x), float(pitch_y), columns, rows)


def canvas_of(bgr: np.ndarray, lattice: Lattice) -> np.ndarray:
    """The lattice's cells resampled to CELL_WIDTH x CELL_HEIGHT each (past the image's edge the
    border pixels repeat)."""
    x0, y0 = lattice.left, lattice.top
    x1, y1 = x0 + lattice.columns * lattice.pitch_x, y0 + lattice.rows * lattice.pitch_y
    height, width = bgr.shape[:2]
    pad = [max(0, -int(np.floor(y0))), max(0, int(np.ceil(y1)) - height), max(0, -int(np.floor(x0))),
           max(0, int(np.ceil(x1)) - width)]
    padded = cv2.copyMakeBorder(bgr, *pad, cv2.BORDER_REPLICATE) if any(pad) else bgr
    region = padded[int(round(y0)) + pad[0]:int(round(y1)) + pad[0], int(round(x0)) + pad[2]:int(round(x1)) + pad[2]]
    size = (lattice.columns * CELL_WIDTH, lattice.rows * CELL_HEIGHT)
    shrinking = region.shape[1] > size[0]
    return cv2.resize(region, size, interpolation=cv2.INTER_AREA if shrinking else cv2.INTER_LINEAR)


# -- features of the cells ------------------------------------------------------------------------
def _cells(image: np.ndarray, rows: int, columns: int, ys: slice, xs: slice) -> np.ndarray:
    """The same window (rows ``ys``, columns ``xs``) of every cell of a canvas, as (cells, pixels,
    channels); only the windows are copied."""
    channels = image.shape[2] if image.ndim == 3 else 1
    view = image.reshape(rows, CELL_HEIGHT, columns, CELL_WIDTH, channels)[:, ys, :, xs]
    return view.transpose(0, 2, 1, 3, 4).reshape(rows * columns, -1, channels)


def icon_pictures(canvas: np.ndarray, soft: bool = True) -> np.ndarray:
    """Each cell's inner picture (inside the outline) with one picture pixel to spare all round:
    (cells, ICON_HEIGHT + 2, ICON_WIDTH + 2, 3) BGR, row-major; one resize for all of them;
    ``soft``: softened (see :func:`soften`)."""
    rows, columns = canvas.shape[0] // CELL_HEIGHT, canvas.shape[1] // CELL_WIDTH
    dy, dx = ICON_INSET
    inner = canvas.reshape(rows, CELL_HEIGHT, columns, CELL_WIDTH, 3)[:, dy:CELL_HEIGHT - dy, :, dx:CELL_WIDTH - dx]
    inner = np.ascontiguousarray(inner).reshape(rows * (CELL_HEIGHT - 2 * dy), columns * (CELL_WIDTH - 2 * dx), 3)
    height, width = ICON_HEIGHT + 2, ICON_WIDTH + 2
    small = cv2.resize(inner, (columns * width, rows * height), interpolation=cv2.INTER_AREA)
    if soft:
        small = soften(small)
    return small.reshape(rows, height, columns, width, 3).transpose(0, 2, 1, 3, 4).reshape(-1, height, width, 3)


def soften(pictures: np.ndarray) -> np.ndarray:
    """Icon pictures blurred by a pixel, so that a fraction of a pixel's misalignment is no
    different icon (one picture, or pictures side by side)."""
    return cv2.GaussianBlur(pictures, (3, 3), 0, borderType=cv2.BORDER_REFLECT)


def icon_picture(cell_bgr: np.ndarray, soft: bool = True) -> np.ndarray:
    """The inner picture of one CELL_WIDTH x CELL_HEIGHT cell (see :func:`icon_pictures`)."""
    return icon_pictures(cell_bgr, soft)[0]


def icon_vectors(pictures: np.ndarray, shifts: tuple[tuple[int, int], ...] = ((0, 0),)) -> np.ndarray:
    """Icon pictures (softened) as vectors that ignore the carrier's colour: in Lab minus the
    picture's median, the ICON_WIDTH x ICON_HEIGHT window moved by each of ``shifts``. Returns
    (shifts, pictures, values), float32."""
    return _windows(_icon_lab(pictures), shifts)


def _icon_lab(pictures: np.ndarray) -> np.ndarray:
    count = len(pictures)
    lab = lab_image(pictures)
    return lab - np.median(lab[:, ::2, ::2].reshape(count, -1, 3), axis=1)[:, None, None, :]


def _windows(lab: np.ndarray, shifts: tuple[tuple[int, int], ...]) -> np.ndarray:
    count = len(lab)
    return np.stack([lab[:, 1 + dy:1 + dy + ICON_HEIGHT, 1 + dx:1 + dx + ICON_WIDTH].reshape(count, -1)
                     for dy, dx in shifts])


@dataclasses.dataclass(frozen=True)
class CellFeatures:
    """Per cell of a canvas (row-major): ``lab`` the median Lab of the centre; ``dark`` the grey
    of its darkest pixels (the outline); ``ring`` how much darker than the centre its sides are
    (all but the faintest: a boulder is outlined all round, a frame or a header darkens one
    side); ``sides`` the median Lab of its two ends (a power-up's carrier shows there);
    ``icons`` its icon picture."""

    lab: np.ndarray
    dark: np.ndarray
    ring: np.ndarray
    sides: np.ndarray
    icons: np.ndarray


def cell_features(canvas: np.ndarray) -> CellFeatures:
    """The features of every CELL_WIDTH x CELL_HEIGHT cell of ``canvas`` (BGR)."""
    rows, columns = canvas.shape[0] // CELL_HEIGHT, canvas.shape[1] // CELL_WIDTH
    count = rows * columns
    grey = cv2.cvtColor(canvas, cv2.COLOR_BGR2GRAY)

    def window(image: np.ndarray, ys: slice, xs: slice) -> np.ndarray:
        return _cells(image, rows, columns, ys, xs)

    py, px = round(PATCH_MARGIN * CELL_HEIGHT), round(PATCH_MARGIN * CELL_WIDTH)
    centre_y, centre_x = slice(py, CELL_HEIGHT - py), slice(px, CELL_WIDTH - px)
    every_other_y, every_other_x = slice(py, CELL_HEIGHT - py, 2), slice(px, CELL_WIDTH - px, 2)  # enough for a median
    median = np.median(lab_image(window(canvas, every_other_y, every_other_x)), axis=1)
    centre_grey = np.median(window(grey, every_other_y, every_other_x)[..., 0], axis=1)
    inner = window(grey, slice(1, CELL_HEIGHT - 1), slice(1, CELL_WIDTH - 1))[..., 0]
    darkest = max(1, int(0.03 * inner.shape[1]))
    dark = np.partition(inner, darkest, axis=1)[:, darkest].astype(np.float32)
    band_y, band_x = round(0.14 * CELL_HEIGHT), round(0.12 * CELL_WIDTH)
    bands = [  # per cell and place along a side, the darkest pixel across the side's band
        window(grey, slice(1, 1 + band_y), centre_x)[..., 0].reshape(count, band_y, -1).min(axis=1),
        window(grey, slice(CELL_HEIGHT - 1 - band_y, CELL_HEIGHT - 1), centre_x)[..., 0].reshape(
            count, band_y, -1).min(axis=1),
        window(grey, centre_y, slice(1, 1 + band_x))[..., 0].reshape(count, -1, band_x).min(axis=2),
        window(grey, centre_y, slice(CELL_WIDTH - 1 - band_x, CELL_WIDTH - 1))[..., 0].reshape(
            count, -1, band_x).min(axis=2),
    ]
    sides_darkness = np.sort([np.percentile(band, 40, axis=1) for band in bands], axis=0)
    ring = (centre_grey - sides_darkness[2]).astype(np.float32)
    y0, y1 = round(0.25 * CELL_HEIGHT), round(0.75 * CELL_HEIGHT)
    x0, x1 = round(0.1 * CELL_WIDTH), round(0.2 * CELL_WIDTH)
    ends = np.concatenate([window(canvas, slice(y0, y1), slice(x0, x1)),
                           window(canvas, slice(y0, y1), slice(CELL_WIDTH - x1, CELL_WIDTH - x0))], axis=1)
    return CellFeatures(median, dark, ring, np.median(lab_image(ends), axis=1), icon_pictures(canvas))


# -- matching -------------------------------------------------------------------------------------
@dataclasses.dataclass(frozen=True)
class ColourMatch:
    """Cells against one rendering's colours: ``distance`` (cells, colours), the better of the
    plain and the washed reading; ``washed`` which one it was; ``share`` how much of the colour
    the washed reading keeps; ``empty`` each cell's distance to the empty cell."""

    rendering: Rendering
    distance: np.ndarray
    washed: np.ndarray
    share: np.ndarray
    empty: np.ndarray


def _bgr_of_lab(lab: np.ndarray) -> np.ndarray:
    """Lab (L 0..100) to BGR in 0..1, any leading shape."""
    flat = np.ascontiguousarray(lab.reshape(1, -1, 3), dtype=np.float32)
    return cv2.cvtColor(flat, cv2.COLOR_LAB2BGR).reshape(lab.shape)


def _lab_of_bgr(bgr: np.ndarray) -> np.ndarray:
    flat = np.ascontiguousarray(bgr.reshape(1, -1, 3), dtype=np.float32)
    return cv2.cvtColor(flat, cv2.COLOR_BGR2LAB).reshape(bgr.shape)


def washed_ring(share: np.ndarray) -> np.ndarray:
    """How much darker than its centre the sides of a boulder washed to ``share`` of its colour
    are at least: its outline is washed too, so RING_DARKER times the share, but never as faint as
    the ground's own shading (RING_FAINT)."""
    return np.maximum(RING_DARKER * share, RING_FAINT)


def match_colours(lab: np.ndarray, dark: np.ndarray, rendering: Rendering, ring: np.ndarray) -> ColourMatch:
    """Distances of cells (median Lab, outline grey) to the rendering's colours, plain or washed
    towards white as the selected group is: how washed, the outline tells (its grey against the
    colour's own outline). Only outlined cells can be washed boulders: their ``ring`` darker than
    :func:`washed_ring`."""
    plain = np.linalg.norm(lab[:, None, :] - rendering.lab[None, :, :], axis=2)
    plain += DARK_WEIGHT * np.clip(np.abs(dark[:, None] - rendering.dark[None, :]) - DARK_SLACK, 0, None)
    share = np.clip((255 - dark[:, None]) / (255 - rendering.dark[None, :]), 0.2, 1.0)
    washed_bgr = share[..., None] * _bgr_of_lab(rendering.lab)[None] + (1 - share[..., None])
    washed_lab = _lab_of_bgr(washed_bgr)
    washed = np.linalg.norm(lab[:, None, :] - washed_lab, axis=2) + WASH_PENALTY
    washed[(share >= WASHED_BELOW) | (ring[:, None] <= washed_ring(share))] = np.inf
    washed[np.linalg.norm(washed_lab - WHITE_LAB, axis=2) < WASHES_FROM_WHITE] = np.inf
    is_washed = washed < plain
    empty = np.linalg.norm(lab - rendering.empty_lab[None, :], axis=1)
    empty += DARK_WEIGHT * np.clip(np.abs(dark - rendering.empty_dark) - DARK_SLACK, 0, None)
    return ColourMatch(rendering, np.where(is_washed, washed, plain), is_washed, share, empty)


@dataclasses.dataclass(frozen=True)
class IconMatch:
    """Per cell: the nearest power-up template's kind and distance, the nearest plain stone's
    distance, and whether the icon wins."""

    kind: list[str]
    icon: np.ndarray
    plain: np.ndarray
    found: np.ndarray


def match_icons(pictures: np.ndarray, contrast: np.ndarray | None = None) -> IconMatch:
    """Icon pictures against the templates (RMS Lab). A cell clearly a plain stone unshifted
    (icon PLAIN_UNSHIFTED times farther than plain) keeps that; the others are matched at every
    one-pixel shift. A washed cell's picture is divided by its ``contrast`` (the share of its
    colour left) first."""
    found = templates()
    template_norms = (found.vectors ** 2).sum(1)[None, :]
    kinds = np.array(found.kinds)
    is_plain = kinds == "plain"
    lab = _icon_lab(pictures)
    if contrast is not None:
        lab /= contrast.astype(np.float32)[:, None, None, None]
    count, size = len(lab), ICON_HEIGHT * ICON_WIDTH * 3

    def squared(vectors: np.ndarray) -> np.ndarray:
        # OpenCV's product: numpy's BLAS spins up threads that cost more than the product on a busy machine
        products = cv2.gemm(np.ascontiguousarray(vectors), found.vectors, 1.0, None, 0.0, flags=cv2.GEMM_2_T)
        return np.clip((vectors ** 2).sum(1)[:, None] + template_norms - 2 * products, 0, None)

    distance = squared(_windows(lab, ((0, 0),))[0])
    nearest_icon, nearest_plain = distance[:, ~is_plain].min(axis=1), distance[:, is_plain].min(axis=1)
    unsure = np.nonzero(nearest_icon < PLAIN_UNSHIFTED ** 2 * nearest_plain)[0]
    if len(unsure):  # one product for every shift of them
        flat = _windows(lab[unsure], SHIFTS).reshape(len(SHIFTS) * len(unsure), size)
        distance[unsure] = squared(flat).reshape(len(SHIFTS), len(unsure), -1).min(axis=0)
    distance = np.sqrt(distance / size)
    plain = distance[:, is_plain].min(axis=1)
    icons = distance[:, ~is_plain]
    nearest = icons.argmin(axis=1)
    icon = icons[np.arange(count), nearest]
    return IconMatch([str(kind) for kind in kinds[~is_plain][nearest]], icon, plain,
                     (icon < FARTHEST_ICON) & (icon < plain))


def _margin_confidence(best, second, scale: float):
    """The margin between the best and the second-best class as a confidence in 0..1."""
    return 1 - np.exp(-np.clip(second - best, 0, None) / scale)


def _fit_confidence(best, farthest: float):
    """1 for a close match, falling to 0 at ``farthest``."""
    return np.clip((farthest - best) / (0.6 * farthest), 0, 1)


# -- the board ------------------------------------------------------------------------------------
def board_region(boulder: np.ndarray, board_like: np.ndarray) -> tuple[int, int, int, int] | None:
    """(top, left, bottom, right), inclusive, of the boulders among the lattice's cells: the
    largest 4-connected block of boulders, joined by blocks that stand on its bottom row with only
    ``board_like`` cells (empty ground, a faint icon) between (a column emptied to the floor).
    None without a block of two boulders. (Wholly empty top rows and edge columns: see
    :func:`completed`.)"""
    count, _, stats, _ = components(boulder.astype(np.uint8), connectivity=4)
    if count < 2:
        return None
    largest = 1 + int(np.argmax(stats[1:, cv2.CC_STAT_AREA]))
    if stats[largest, cv2.CC_STAT_AREA] < 2:
        return None

    def box(index: int) -> tuple[int, int, int, int]:
        x, y, w, h = (int(stats[index, key]) for key in (cv2.CC_STAT_LEFT, cv2.CC_STAT_TOP, cv2.CC_STAT_WIDTH,
                                                         cv2.CC_STAT_HEIGHT))
        return y, x, y + h - 1, x + w - 1

    board_like = board_like | boulder
    top, left, bottom, right = box(largest)
    for other in range(1, count):
        other_top, other_left, other_bottom, other_right = box(other)
        if other == largest or other_bottom != bottom:
            continue
        joined_top, joined_left, joined_right = min(top, other_top), min(left, other_left), max(right, other_right)
        if np.all(board_like[joined_top:bottom + 1, joined_left:joined_right + 1]):
            top, left, right = joined_top, joined_left, joined_right
    # a board's edge row or column is boulders and ground; one mostly of neither is the page (a
    # title line over the frame can pass for a few boulders joined to the board's top row)
    while bottom > top and board_like[top, left:right + 1].mean() < 0.5:
        top += 1
    while bottom > top and board_like[bottom, left:right + 1].mean() < 0.5:
        bottom -= 1
    while right > left and board_like[top:bottom + 1, left].mean() < 0.5:
        left += 1
    while right > left and board_like[top:bottom + 1, right].mean() < 0.5:
        right -= 1
    return top, left, bottom, right


def completed(board_like: np.ndarray, region: tuple[int, int, int, int], colours: set[str]
              ) -> tuple[tuple[int, int, int, int], int | None]:
    """Wholly empty top rows and edge columns cannot be told from the page around the board: the
    boulders' ``region`` grown to the size (rows x columns) of the lowest level whose palette holds
    the ``colours`` read and whose board holds the region, when the cells that adds are
    ``board_like`` (the ground) and the missing columns fit on one side only. Returns the region
    and the level whose size it took (None: left as it was)."""
    top, left, bottom, right = region
    seen_rows, seen_columns = bottom - top + 1, right - left + 1
    for number, level in enumerate(LEVEL_TABLE, start=1):
        if colours <= set(level.palette) and level.rows >= seen_rows and level.columns >= seen_columns:
            break
    else:
        return region, None
    if (level.rows, level.columns) == (seen_rows, seen_columns) or bottom - level.rows + 1 < 0:
        return region, None
    new_top = bottom - level.rows + 1
    placements = [start for start in range(left - (level.columns - seen_columns), left + 1)
                  if start >= 0 and start + level.columns <= board_like.shape[1]
                  and np.all(board_like[new_top:bottom + 1, start:start + level.columns])]
    if len(placements) != 1:
        return region, None
    return (new_top, placements[0], bottom, placements[0] + level.columns - 1), number


def _page_row_on_top(cells: _Cells, lattice_columns: int, region: tuple[int, int, int, int]) -> bool:
    """Whether the region's top row is the page over the board (a title line just over the frame
    passes for a few boulders): the region is no level's size but is one without that row, and
    nothing in the row is surely a boulder."""
    top, left, bottom, right = region
    rows, columns = bottom - top + 1, right - left + 1
    sizes = {(level.rows, level.columns) for level in LEVEL_TABLE}
    if (rows, columns) in sizes or (rows - 1, columns) not in sizes:
        return False
    found = [_boulder_at(cells, top * lattice_columns + c) for c in range(left, right + 1)]
    return all(boulder is None or sure < DOUBTFUL_BELOW for boulder, sure in found)


def cell_name(boulder: Boulder | None) -> str | None:
    """A cell as ``Reading.cells`` gives it: a colour's name, a colourless power-up's name, the
    carrier's colour and the power-up (``"blue fill"``), or None for an empty cell."""
    if boulder is None:
        return None
    if boulder.power is None:
        return boulder.colour
    if boulder.colour is None:
        return boulder.power
    return f"{boulder.colour} {boulder.power}"


def lowest_level(colours: set[str]) -> int:
    """The lowest level whose palette holds every colour of ``colours`` (a board does not show its
    level)."""
    for number, level in enumerate(LEVEL_TABLE, start=1):
        if colours <= set(level.palette):
            return number
    return len(LEVEL_TABLE)


def _selection_note(board: tuple, selected: list[tuple[int, int]]) -> str | None:
    """Why the pale cells are not the one group a first click selects (None when they are)."""
    if selected and set(group_at(board, *selected[0])) != set(selected):
        return "the pale cells are not one group of one colour"
    return None


def follow_previous(previous: Any, board: tuple, confidence: np.ndarray) -> tuple[Any, tuple, str]:
    """What ``previous`` (the state before) says about the board read: the previous position
    itself (a group only selected) or the one a click leads to, if its board agrees with every sure
    cell (the doubtful ones take its boulders); else only its level, score and banked items.
    Returns (the engine state or those fields, the board, what was found)."""
    game = GAMES[GAME]
    sure = confidence >= DOUBTFUL_BELOW

    def differing(candidate: tuple) -> list[tuple[int, int]]:
        return [(r, c) for r, row in enumerate(board) for c, cell in enumerate(row) if candidate[r][c] != cell]

    previous_board = getattr(previous, "board", ())
    found = None
    if previous_board and len(previous_board) == len(board) and len(previous_board[0]) == len(board[0]) \
            and previous.due is None and not previous.finished:
        changed = differing(previous_board)
        if not any(sure[cell] for cell in changed):
            found = (len(changed), "the previous position (no click yet)", previous)
        changed_columns = {c for r, c in changed if sure[r, c]}
        for move in game.legal_moves(previous):
            if not hasattr(move, "row"):
                continue
            removed, _ = removal(previous_board, move.row, move.column)
            if not changed_columns <= {c for _, c in removed}:  # a click changes only the columns it takes from
                continue
            after = game.play(previous, move).state
            if not after.board or len(after.board) != len(board):
                continue
            changed = differing(after.board)
            if not any(sure[cell] for cell in changed) and (found is None or len(changed) < found[0]):
                found = (len(changed), f"one click from the previous position ({game.move_text(move)})", after)
    if found is not None:
        settled, label, state = found
        return state, state.board, label + (f"; it settles {settled} doubtful cell(s)" if settled else "")
    fields = {"level": getattr(previous, "level", 1), "score": getattr(previous, "score", 0),
              "shuffles": getattr(previous, "shuffles", 0), "undos": getattr(previous, "undos", 0)}
    return fields, board, "no board one click from the previous position fits; its level, score and banked items kept"


@dataclasses.dataclass(frozen=True)
class _Cells:
    """What every lattice cell was found to be (flat arrays over the lattice, row-major)."""

    rendering: Rendering
    boulder: np.ndarray  # a boulder (colour or icon) is there
    empty: np.ndarray
    emptier: np.ndarray  # nearer the empty cell than any colour (for the cells that are neither)
    colour: np.ndarray  # index into rendering.colours
    colour_sure: np.ndarray
    empty_sure: np.ndarray
    washed: np.ndarray
    icons: IconMatch
    carrier: np.ndarray  # index into rendering.colours, of the cell's ends
    carrier_sure: np.ndarray


def _classify(features: CellFeatures, shape: tuple[int, int], rendering: str | None = None,
              icons_everywhere: bool = False) -> _Cells:
    """Colour, emptiness, washing and icon of every cell of a ``shape`` (rows, columns) lattice,
    with the named rendering or the one that explains the cells best. Icons are matched only
    around the outlined cells of the palette's colours (the board), for speed, unless
    ``icons_everywhere``."""
    def unexplained(match: ColourMatch) -> float:
        return float(np.minimum(np.minimum(match.distance.min(axis=1), match.empty), FARTHEST_COLOUR).sum())

    candidates = [r for r in renderings() if rendering in (None, r.name)]
    match = min((match_colours(features.lab, features.dark, r, features.ring) for r in candidates), key=unexplained)
    everywhere = np.arange(len(features.lab))
    order = np.argsort(match.distance, axis=1)
    best, second = match.distance[everywhere, order[:, 0]], match.distance[everywhere, order[:, 1]]
    washed = match.washed[everywhere, order[:, 0]]
    outlined = features.ring > np.where(washed, washed_ring(match.share[everywhere, order[:, 0]]), RING_DARKER)
    coloured = (outlined & (best < FARTHEST_COLOUR)).reshape(shape)
    near_board = np.zeros(shape, bool)
    if coloured.any():
        rows, columns = np.nonzero(coloured)
        near_board[max(0, rows.min() - 1):rows.max() + 2, max(0, columns.min() - 1):columns.max() + 2] = True
    near_board = near_board.ravel() | icons_everywhere
    icons = IconMatch(["plain"] * len(everywhere), np.full(len(everywhere), np.inf), np.zeros(len(everywhere)),
                      np.zeros(len(everywhere), bool))
    if near_board.any():
        contrast = np.where(washed, match.share[everywhere, order[:, 0]], 1.0)[near_board]
        matched = match_icons(features.icons[near_board], contrast)
        kinds = np.array(icons.kind, dtype=object)
        kinds[near_board] = matched.kind
        icons.icon[near_board], icons.plain[near_board], icons.found[near_board] = matched.icon, matched.plain, \
            matched.found
        icons = dataclasses.replace(icons, kind=list(kinds))
    faintly_outlined = features.ring > RING_FAINT  # small boulders, brown outlines: a close colour vouches
    boulder = (outlined & ((best < FARTHEST_COLOUR) | icons.found)) | (faintly_outlined & (best < CLOSE_COLOUR)) | (
        icons.found & (icons.icon < STANDALONE_ICON * icons.plain))
    boulder &= ~(washed & (match.empty <= best))  # washed nearly white: the ground explains it better
    empty = ~boulder & (match.empty < FARTHEST_EMPTY)
    carriers = match_colours(features.sides, features.dark, match.rendering, np.where(outlined, features.ring, 0))
    carrier_order = np.argsort(carriers.distance, axis=1)
    carrier_best = carriers.distance[everywhere, carrier_order[:, 0]]
    return _Cells(
        match.rendering, boulder, empty, match.empty < best, order[:, 0],
        _margin_confidence(best, second, COLOUR_SURE) * _fit_confidence(best, FARTHEST_COLOUR),
        _margin_confidence(match.empty, np.minimum(best, FARTHEST_COLOUR), COLOUR_SURE)
        * _fit_confidence(match.empty, FARTHEST_EMPTY),
        washed, icons, carrier_order[:, 0],
        _margin_confidence(carrier_best, carriers.distance[everywhere, carrier_order[:, 1]], COLOUR_SURE)
        * _fit_confidence(carrier_best, 1.5 * FARTHEST_COLOUR))


def _boulder_at(cells: _Cells, index: int) -> tuple[Boulder | None, float]:
    """The boulder (or None) of one lattice cell of the board and how sure that is. A cell that
    looks neither like a boulder nor like the ground gets its nearer guess, as doubtful."""
    icons = cells.icons
    if not cells.boulder[index] and (cells.empty[index] or (cells.emptier[index] and not icons.found[index])):
        return None, float(cells.empty_sure[index] if cells.empty[index] else min(cells.empty_sure[index], ODD_CELL))
    icon, plain = float(icons.icon[index]), float(icons.plain[index])
    sure = 1 - np.exp(-abs(np.log(max(plain, 1e-6) / max(icon, 1e-6))) / ICON_SURE) if np.isfinite(icon) else 1.0
    if not cells.boulder[index]:
        sure = min(sure, ODD_CELL)
    colours = cells.rendering.colours
    power = icons.kind[index] if icons.found[index] else None
    if power is None:
        return Boulder(colours[cells.colour[index]]), float(min(cells.colour_sure[index], sure))
    if power in COLOURLESS:
        return Boulder(None, power), float(sure)
    return Boulder(colours[cells.carrier[index]], power), float(min(cells.carrier_sure[index], sure))


def _settle_gravity(board: list[list[Boulder | None]], confidence: np.ndarray, guesses: list[list[Boulder]]) -> None:
    """An empty cell under a boulder is a misread (boulders fall): it takes its best boulder
    guess, as doubtful."""
    for c in range(len(board[0])):
        top = next((r for r in range(len(board)) if board[r][c] is not None), len(board))
        for r in range(top, len(board)):
            if board[r][c] is None:
                board[r][c] = guesses[r][c]
                confidence[r, c] = min(confidence[r, c], ODD_CELL)


def read(image: np.ndarray, previous: Any = None) -> Reading:
    """Read a Destruct-o-Match board from a BGR (or grey, or BGRA) screenshot; see the module's
    docstring. ``previous``, the state before, if known. Raises NoBoardFound; when the end-of-game
    panel hides the board, its ``diagnostics["end_panel"]`` holds the final score read."""
    image = board_image(image)
    try:
        return _read_board(image, previous)
    except NoBoardFound as error:
        panel = read_end_score(image)
        if panel is None:
            raise
        score, sure = panel
        raise NoBoardFound(f"the end-of-game panel covers the board: Your Score {score}",
                           {"end_panel": {"score": score, "confidence": round(sure, 3)},
                            "board": error.reason}) from None


def _read_board(bgr: np.ndarray, previous: Any) -> Reading:
    started = time.perf_counter()
    lattice = find_lattice(bgr)
    cells = _classify(cell_features(canvas_of(bgr, lattice)), (lattice.rows, lattice.columns))
    shape = (lattice.rows, lattice.columns)
    board_like = (cells.boulder | cells.empty | cells.icons.found).reshape(shape)
    region = board_region(cells.boulder.reshape(shape), board_like)
    if region is None:
        raise NoBoardFound("no block of boulders: the repeating cells do not look like Destruct-o-Match boulders")
    top, left, bottom, right = region
    seen = {boulder.colour for r in range(top, bottom + 1) for c in range(left, right + 1)
            for boulder in [_boulder_at(cells, r * lattice.columns + c)[0]] if boulder is not None and boulder.colour}
    (top, left, bottom, right), grown_to = completed(board_like, region, seen)
    if _page_row_on_top(cells, lattice.columns, (top, left, bottom, right)):
        top += 1
    rows, columns = bottom - top + 1, right - left + 1

    cells_of_board = [[(top + r) * lattice.columns + left + c for c in range(columns)] for r in range(rows)]
    confidence = np.zeros((rows, columns))
    rows_read = []
    for r, row in enumerate(cells_of_board):
        rows_read.append([])
        for c, index in enumerate(row):
            boulder, confidence[r, c] = _boulder_at(cells, index)
            rows_read[-1].append(boulder)
    if any(rows_read[r][c] is None and r and any(rows_read[above][c] is not None for above in range(r))
           for r in range(rows) for c in range(columns)):
        guesses = [[_boulder_at(dataclasses.replace(cells, boulder=np.ones_like(cells.boulder)), index)[0]
                    for index in row] for row in cells_of_board]
        _settle_gravity(rows_read, confidence, guesses)
    board = tuple(tuple(row) for row in rows_read)
    selected = [(r, c) for r, row in enumerate(cells_of_board) for c, index in enumerate(row)
                if board[r][c] is not None and cells.washed[index]]
    for r, c in selected:  # a selection is a group of two or more: a pale boulder alone is a misread
        if not any((r + dr, c + dc) in selected and board[r + dr][c + dc].colour == board[r][c].colour
                   for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1))):
            confidence[r, c] = min(confidence[r, c], ODD_CELL)

    colours = {b.colour for row in board for b in row if b is not None and b.colour is not None}
    diagnostics: dict[str, Any] = {
        "rendering": cells.rendering.name,
        "rows": rows, "columns": columns,
        "cell_px": {"left": round(lattice.left + left * lattice.pitch_x, 1),
                    "top": round(lattice.top + top * lattice.pitch_y, 1),
                    "pitch_x": round(lattice.pitch_x, 2), "pitch_y": round(lattice.pitch_y, 2)},
        "cell_grid": CellGrid(lattice.left + left * lattice.pitch_x, lattice.top + top * lattice.pitch_y,
                              lattice.pitch_x, lattice.pitch_y, rows, columns, (bgr.shape[1], bgr.shape[0])).to_json(),
        "selected": [[r, c] for r, c in selected],
        "power_ups": [{"cell": [r, c], "power": b.power, "carrier": b.colour} for r, row in enumerate(board)
                      for c, b in enumerate(row) if b is not None and b.power is not None],
    }
    if grown_to is not None:
        diagnostics["grown"] = (f"{rows} x {columns}, level {grown_to}'s size: its top rows or edge columns show "
                                "the ground only")
    note = _selection_note(board, selected)
    if note:
        diagnostics["selected_note"] = note
    inferred = sorted(colours & set(cells.rendering.inferred))
    if inferred:
        diagnostics["inferred_colours"] = inferred  # never seen in the real game: their look is a guess
    state = None
    if previous is not None:
        found, board, diagnostics["previous"] = follow_previous(previous, board, confidence)
        if isinstance(found, dict):
            fields = found
        else:
            state, fields = found, {"level": found.level}
        diagnostics["level"] = f"{fields['level']}, the previous position's"
    else:
        fields = {"level": lowest_level(colours), "score": 0, "shuffles": 0, "undos": 0}
        diagnostics["level"] = (f"{fields['level']}: the lowest level whose palette holds the {len(colours)} "
                                "colour(s) read (a board does not show its level)")
    if state is None:
        header = " · ".join(f"{name} {fields[key]}" for name, key in (("level", "level"), ("score", "score"),
                                                                      ("shuffle", "shuffles"), ("undo", "undos")))
        try:
            state = GAMES[GAME].parse_board(header + "\n" + board_text(board))
        except NotationError as error:
            raise NoBoardFound(f"the boulders read are no position: {error}") from None
    cut = _edges_touched(diagnostics["cell_px"], rows, columns, bgr.shape)
    doubtful_fields: tuple[str, ...] = ()
    if cut and (previous is None or not getattr(previous, "board", None)
                or (len(previous.board), len(previous.board[0])) != (rows, columns)):
        # boards come in many sizes: boulders up to the capture's edge may go on beyond it
        sides = cut[0] if len(cut) == 1 else f"{', '.join(cut[:-1])} and {cut[-1]}"
        diagnostics["extent"] = (f"the boulders reach the image's {sides} edge{'s' if len(cut) > 1 else ''}: the "
                                 "board may go on beyond the capture")
        doubtful_fields = ("extent",)
    diagnostics["ms"] = round((time.perf_counter() - started) * 1000, 1)
    return Reading(GAME, state, [[cell_name(cell) for cell in row] for row in board], confidence, diagnostics,
                   doubtful_fields)


def _edges_touched(cell_px: dict[str, float], rows: int, columns: int, shape: tuple[int, ...]) -> list[str]:
    """The image edges the board's outer boulders come within a quarter of a cell of."""
    left, top, pitch_x, pitch_y = cell_px["left"], cell_px["top"], cell_px["pitch_x"], cell_px["pitch_y"]
    gaps = {"left": left, "top": top, "right": shape[1] - (left + columns * pitch_x),
            "bottom": shape[0] - (top + rows * pitch_y)}
    return [side for side, gap in gaps.items() if gap < 0.25 * (pitch_x if side in ("left", "right") else pitch_y)]


def read_boulder(image: np.ndarray, rendering: str = "game") -> tuple[Boulder, float]:
    """One boulder shown alone (a sprite, a cut-out cell), drawn as ``rendering`` ("game" or
    "kibitz") draws it: its colour, or its power-up and carrier, and how sure that is. The image is
    taken as one cell (its outline at the edges)."""
    cell = cv2.resize(as_bgr(image), (CELL_WIDTH, CELL_HEIGHT), interpolation=cv2.INTER_AREA)
    features = cell_features(cell)
    features = dataclasses.replace(features, ring=np.full(1, 2 * RING_DARKER, np.float32))  # its own cell
    cells = _classify(features, (1, 1), rendering, icons_everywhere=True)
    boulder, sure = _boulder_at(dataclasses.replace(cells, boulder=np.ones(1, bool)), 0)
    return boulder, sure


# -- the end-of-game panel ------------------------------------------------------------------------
#: A digit glyph is its ink scaled to DIGIT_HEIGHT rows, centred in DIGIT_WIDTH columns.
DIGIT_WIDTH, DIGIT_HEIGHT = 32, 24
#: Text is darker than the panel around it by this many grey levels.
INK_CONTRAST = 18
#: A digit correlates with its template at least this much; a margin over the next digit of
#: DIGIT_SURE makes it 63 % sure.
DIGIT_LEAST = 0.55
DIGIT_SURE = 0.08
#: The panel is looked for with the image's longer side at this many pixels; around its text the
#: grey varies less than PANEL_PLAIN.
PANEL_SIDE = 800
PANEL_PLAIN = 14.0


def digit_glyph(ink: np.ndarray) -> np.ndarray:
    """A digit's ink (a boolean or 0..1 mask, any size) cropped to its box, scaled to DIGIT_HEIGHT
    rows (its proportions kept) and centred, softened: what digit templates hold too."""
    ys, xs = np.nonzero(ink)
    if len(ys) == 0:
        return np.zeros((DIGIT_HEIGHT, DIGIT_WIDTH), np.float32)
    crop = ink[ys.min():ys.max() + 1, xs.min():xs.max() + 1].astype(np.float32)
    height, width = crop.shape
    scaled_width = min(DIGIT_WIDTH, max(1, round(width * DIGIT_HEIGHT / height)))
    scaled = cv2.resize(crop, (scaled_width, DIGIT_HEIGHT), interpolation=cv2.INTER_AREA)
    glyph = np.zeros((DIGIT_HEIGHT, DIGIT_WIDTH), np.float32)
    start = (DIGIT_WIDTH - scaled_width) // 2
    glyph[:, start:start + scaled_width] = scaled
    return cv2.GaussianBlur(glyph, (3, 3), 0)


@functools.lru_cache(maxsize=1)
def digit_templates() -> np.ndarray:
    """(10, DIGIT_HEIGHT, DIGIT_WIDTH) glyphs of 0..9 (``assets/vision/destructo/digits.png``)."""
    sheet = cv2.imdecode(np.frombuffer(_asset("digits.png").read_bytes(), np.uint8), cv2.IMREAD_GRAYSCALE)
    return np.stack([sheet[:, d * DIGIT_WIDTH:(d + 1) * DIGIT_WIDTH] for d in range(10)]).astype(np.float32) / 255


def _text_pieces(grey: np.ndarray) -> tuple[list[tuple[int, int, int, int]], np.ndarray]:
    """Boxes (x, y, width, height) of dark text pieces on a lighter panel, letter-sized, and the
    ink mask they come from."""
    height = grey.shape[0]
    background = cv2.medianBlur(grey, int(0.06 * height) | 1)
    ink = ((background.astype(np.int16) - grey.astype(np.int16)) > INK_CONTRAST).astype(np.uint8)
    ink = cv2.morphologyEx(ink, cv2.MORPH_CLOSE, np.ones((3, 3), np.uint8))
    _, _, stats, _ = components(ink, connectivity=8)
    width = grey.shape[1]
    return [tuple(int(v) for v in box[:4]) for box in stats[1:]
            if 0.03 * height <= box[3] <= 0.15 * height and box[2] <= 3 * box[3] and box[4] >= 0.1 * box[2] * box[3]
            and box[0] > 0 and box[1] > 0 and box[0] + box[2] < width and box[1] + box[3] < height], ink


def read_end_score(image: np.ndarray) -> tuple[int, float] | None:
    """The final score on the end-of-game panel ("Your Score" over a number, spec 5): the number
    and how sure it is (the least sure digit), or None when no such panel shows. Digits are
    matched to DejaVu Sans glyphs (the panel's own typeface is not available; its eight digits in
    the shared panels read right)."""
    grey = cv2.cvtColor(as_bgr(image), cv2.COLOR_BGR2GRAY)
    if min(grey.shape) < 60:
        return None
    scale = PANEL_SIDE / max(grey.shape)  # thin strokes stay whole when a small image is enlarged
    # explicit sizes of at least a pixel: a very long, thin image would round one side to nothing
    size = (max(1, round(grey.shape[1] * scale)), max(1, round(grey.shape[0] * scale)))
    grey = cv2.resize(grey, size, interpolation=cv2.INTER_AREA if scale < 1 else cv2.INTER_CUBIC)
    pieces, ink = _text_pieces(grey)
    lines: list[list[tuple[int, int, int, int]]] = []
    for piece in sorted(pieces, key=lambda box: box[1] + box[3] / 2):
        centre = piece[1] + piece[3] / 2
        if lines and abs(centre - np.mean([b[1] + b[3] / 2 for b in lines[-1]])) < 0.35 * piece[3]:
            lines[-1].append(piece)
        else:
            lines.append([piece])
    for index, words in enumerate(lines):
        if len(words) < 3:
            continue
        words_bottom = max(b[1] + b[3] for b in words)
        capitals = max(b[3] for b in words)
        words_left, words_right = min(b[0] for b in words), max(b[0] + b[2] for b in words)
        for number in lines[index + 1:]:
            centre = np.mean([b[0] + b[2] / 2 for b in number])
            if (words_bottom <= min(b[1] for b in number) <= words_bottom + 1.5 * capitals
                    and words_left < centre < words_right
                    and float(np.median([b[3] for b in number])) >= 0.7 * capitals
                    and _on_plain_panel(grey, ink, words + number)):
                found = _read_digits(ink, _joined(sorted(number)))
                if found is not None:
                    return found
    return None


def _joined(pieces: list[tuple[int, int, int, int]]) -> list[tuple[int, int, int, int]]:
    """Pieces sorted left to right, those that overlap across (parts of one glyph) made one."""
    joined: list[tuple[int, int, int, int]] = []
    for x, y, width, height in pieces:
        if joined and x < joined[-1][0] + joined[-1][2] - 0.3 * min(width, joined[-1][2]):
            last_x, last_y, last_width, last_height = joined[-1]
            right, bottom = max(last_x + last_width, x + width), max(last_y + last_height, y + height)
            top = min(last_y, y)
            joined[-1] = (last_x, top, right - last_x, bottom - top)
        else:
            joined.append((x, y, width, height))
    return joined


def _on_plain_panel(grey: np.ndarray, ink: np.ndarray, pieces: list[tuple[int, int, int, int]]) -> bool:
    """Whether the text sits on a plain panel (the tablet), not on textured boulders: around its
    letters the grey hardly varies."""
    left, top = min(b[0] for b in pieces), min(b[1] for b in pieces)
    right, bottom = max(b[0] + b[2] for b in pieces), max(b[1] + b[3] for b in pieces)
    around = cv2.dilate(ink[top:bottom, left:right], np.ones((5, 5), np.uint8)) == 0
    return bool(around.mean() > 0.5 and grey[top:bottom, left:right][around].std() < PANEL_PLAIN)


def _read_digits(ink: np.ndarray, pieces: list[tuple[int, int, int, int]]) -> tuple[int, float] | None:
    """The number written by these pieces of ink (left to right); touching digits are cut where
    the ink is thinnest near each expected boundary."""
    height = float(np.median([b[3] for b in pieces]))
    digit_width = 0.72 * height  # the widest digits; two touching ones are still twice that
    glyphs = []
    for x, y, width, piece_height in pieces:
        box = ink[y:y + piece_height, x:x + width]
        count = max(1, round(width / digit_width))
        cuts = [0]
        for k in range(1, count):
            expected = round(k * width / count)
            low, high = max(1, expected - round(0.2 * digit_width)), min(width - 1, expected + round(0.2 * digit_width))
            cuts.append(low + int(np.argmin(box[:, low:high + 1].sum(axis=0))) if high > low else expected)
        cuts.append(width)
        glyphs += [digit_glyph(box[:, a:b]) for a, b in zip(cuts, cuts[1:]) if b > a]
    templates = digit_templates().reshape(10, -1)
    templates = templates - templates.mean(axis=1, keepdims=True)
    digits, sure = [], 1.0
    for glyph in glyphs:
        vector = glyph.ravel() - glyph.mean()
        correlation = templates @ vector / (np.linalg.norm(templates, axis=1) * max(np.linalg.norm(vector), 1e-6))
        order = np.argsort(correlation)[::-1]
        best, second = float(correlation[order[0]]), float(correlation[order[1]])
        if best < DIGIT_LEAST:
            return None
        digits.append(str(order[0]))
        sure = min(sure, float(_margin_confidence(second, best, DIGIT_SURE)))
    return (int("".join(digits)), sure) if digits else None
