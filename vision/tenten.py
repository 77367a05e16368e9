"""1010! board reader: the 10×10 grid, the tray's three pieces, the score and a piece being dragged.

How the real game looks is in ``shared/specs/1010.md`` section 5 and issue 22. The dark theme: a
near-black page, the board as 10×10 rounded grey squares (filled ones in their piece's colour),
the tray's pieces under it at about 62 % of the board's scale, the score and the best score above
it. The light theme (the phone app's default, "1010! Deluxe" on the web): a white or near-white
page, empty cells light grey, tray pieces at nearly the board's scale.

The reader finds the board from its structure, not from one palette, at any scale: the page is
one of the image's most common colours (each is tried); every pixel apart from it (an empty cell
lighter than a dark page or darker than a light one, a filled cell in colour) belongs to a cell,
so after closing the thin gaps between cells the board is one square blob. Its grid is then
fitted to the nine gaps each way (``vision.grid``: regular lines, checked by their period) and
every cell must show a piece's colour or a grey apart from the page. Cells are read by colour in
Lab (``vision.colour``; the image's own empty grey against the game's piece colours); each cell's
confidence is the margin between the nearer and the farther of the two readings. A piece in
mid-drag (cell-sized coloured squares off the grid's steps) is reported and the cells it covers
are read from what shows around it, with their confidence lowered. Tray pieces are found under
the board at whatever scale they are drawn: each piece's cells are counted from the gaps between
them (a bar's from its length), then its drawing is matched to the engine's piece letters. The
score is read with digit templates (``assets/vision/tenten``: the real screenshot's digits and
those of a shipped font) when every digit matches one well. What is not told is doubtful, never
guessed: a cell below the confidence threshold, and the fields ``tray`` and ``score``.
"""

from __future__ import annotations

import dataclasses
import functools
import hashlib
import json
import time
from importlib import resources
from typing import Any

import cv2
import numpy as np

from engines.tenten import BY_LETTER, PIECES, State
from engines.tenten import reference as rules
from engines.tenten.pieces import SIZE
from vision import colour as colour_model
from vision import grid as grid_finder
from vision.colour import components, delta_e, lab_image, lab_of_hex
from vision.images import board_image
from vision.reading import DOUBTFUL_BELOW, CellGrid, NoBoardFound, Reading

#: The game's colours sampled from a real screenshot (spec 5 and the transcription); the names are
#: the ones ``cells``' diagnostics use. Tray pieces are drawn a little darker than board cells.
PIECE_COLOURS = {
    "blue": "#66c5e6",
    "green": "#64dc8d",
    "red": "#d45858",
    "teal": "#5ae6b4",
    "pink": "#e05b86",
    "lime": "#9eee5e",
    "orange": "#e6965a",
    "yellow": "#d5a42d",
    "purple": "#848edc",
    "dark red": "#bf4b49",
}
#: A tray colour that is a darker shade of a board colour is named as the board colour.
SAME_COLOUR = {"dark red": "red"}
EMPTY_COLOUR = "#454246"
#: Tray pieces are drawn at about 62 % of the board's pitch in the dark theme (spec 5), at nearly
#: the board's in the light one; a tray cell is never smaller than this share of the board's pitch.
TRAY_SMALLEST_CELL = 0.4
#: ... and never larger than this share (0.9 x 0.9 in the light one).
TRAY_LARGEST_CELL = 0.95
#: The board is looked for in a copy of the image shrunk to these longer sides in turn (pixels) ...
OVERVIEW_SIDES = (600, 1600)
#: ... and read in a crop around it shrunk to this many pixels a cell: plenty for colours and
#: the tray's shapes, and it keeps the reading time the same at any scale.
READ_PITCH = 24.0
#: The crop reaches this many pitches above the board (the score) and below it (the tray).
HEADER_PITCHES = 3.0
TRAY_PITCHES = 6.5
#: A cell whose Lab colour has at least this chroma is a coloured (filled) cell.
COLOURED_CHROMA = 18.0
#: Closing kernels tried in turn to join the cells of the board into one blob (pixels).
CLOSING_SIZES = (1, 3, 5, 9, 15, 25)
PIECE_BY_ROWS = {piece.rows: piece.letter for piece in PIECES}


PALETTE_NAMES = tuple(PIECE_COLOURS)
PALETTE_LAB = np.array([lab_of_hex(PIECE_COLOURS[name]) for name in PALETTE_NAMES], np.float32)
DEFAULT_EMPTY_LAB = lab_of_hex(EMPTY_COLOUR)
_MERGED_INDEX = np.array([PALETTE_NAMES.index(SAME_COLOUR.get(name, name)) for name in PALETTE_NAMES], np.int16)


@dataclasses.dataclass(frozen=True)
class BoardGeometry:
    """Where the board lies in the (possibly shrunk) image: its top-left corner and cell pitch."""

    left: float
    top: float
    pitch: float
    #: the page's colour around the board (BGR), where it was found
    page: tuple[float, float, float] | None = dataclasses.field(default=None, compare=False)

    @property
    def side(self) -> float:
        return SIZE * self.pitch

    @property
    def right(self) -> float:
        return self.left + self.side

    @property
    def bottom(self) -> float:
        return self.top + self.side

    def cell_box(self, row: int, column: int, inset: float) -> tuple[int, int, int, int]:
        """Pixel box (x0, y0, x1, y1) of a cell shrunk by ``inset`` pitches on every side."""
        x0 = self.left + (column + inset) * self.pitch
        y0 = self.top + (row + inset) * self.pitch
        x1 = self.left + (column + 1 - inset) * self.pitch
        y1 = self.top + (row + 1 - inset) * self.pitch
        return round(x0), round(y0), max(round(x1), round(x0) + 1), max(round(y1), round(y0) + 1)

    def scaled(self, factor: float) -> BoardGeometry:
        return BoardGeometry(self.left * factor, self.top * factor, self.pitch * factor, self.page)

    def to_json(self) -> dict[str, float]:
        return {"left": round(self.left, 1), "top": round(self.top, 1), "right": round(self.right, 1),
                "bottom": round(self.bottom, 1), "cell_pitch": round(self.pitch, 2)}


def cell_samples(geometry: BoardGeometry, inset: float, points: int = 6) -> tuple[np.ndarray, np.ndarray]:
    """Pixel rows and columns (each 10 × 10 × points²) of a points × points lattice inside each
    cell, ``inset`` pitches in from its sides: cells are read from these samples all at once."""
    steps = inset + (1 - 2 * inset) * (np.arange(points) + 0.5) / points
    offsets_y, offsets_x = np.meshgrid(steps, steps, indexing="ij")
    index = np.arange(SIZE)
    ys = geometry.top + (index[:, None, None] + offsets_y.reshape(1, 1, -1)) * geometry.pitch
    xs = geometry.left + (index[None, :, None] + offsets_x.reshape(1, 1, -1)) * geometry.pitch
    ys, xs = np.broadcast_arrays(ys, xs)
    return ys.astype(np.intp), xs.astype(np.intp)


@dataclasses.dataclass(frozen=True)
class DraggedPiece:
    """A piece drawn over the board off the grid's steps: the player is moving it."""

    letter: str | None
    colour: str
    boxes: tuple[tuple[int, int, int, int], ...]  # (x0, y0, x1, y1) of each of its cells


def read(image: np.ndarray, previous: State | None = None) -> Reading:
    """Read a 1010! screenshot (BGR) as a :class:`Reading` of ``engines.GAMES["1010"]``.

    ``previous`` (the state before, if known) settles doubtful cells when every grid one
    placement from it can leave that agrees with the sure cells agrees on them. Raises
    :class:`NoBoardFound`.
    """
    started = time.perf_counter()
    image = board_image(image)
    found = _find_board_at_a_scale(image)
    region = Region.around(found, image.shape)
    crop = region.cut(image)
    geometry = region.geometry(found)
    # the board was found in a shrunk overview: its grid is fitted again at the reading's scale
    distance = _distance_from(crop, np.array(found.page)) if found.page else None
    refined = _fit_grid(distance, geometry) if distance is not None else None
    if refined is not None:
        geometry, found = refined, region.image_geometry(refined)
    labels = colour_labels(crop)

    dragged = find_dragged(labels, geometry)
    grid, colours, confidence, empty_lab = read_cells(crop, geometry, dragged)
    tray, tray_found = read_tray(crop, labels, geometry)
    scores = read_scores(crop, geometry)

    diagnostics: dict[str, Any] = {
        "board_px": found.to_json(),
        "cell_grid": CellGrid(found.left, found.top, found.pitch, found.pitch, SIZE, SIZE,
                              (image.shape[1], image.shape[0])).to_json(),
        "colours": colours,
        "empty_lab": [round(float(x), 1) for x in empty_lab],
        "tray": [{**slot, "box_px": region.to_image(slot["box_px"])} if "box_px" in slot else slot
                 for slot in tray_found],
        **scores,
    }
    if geometry.bottom + 5 * geometry.pitch > crop.shape[0]:
        diagnostics["tray_note"] = "the image ends less than 5 cells under the board: the tray may be cut off"
    if dragged is not None:
        diagnostics["dragged"] = {
            "piece": dragged.letter,
            "colour": dragged.colour,
            "boxes_px": [region.to_image(box) for box in dragged.boxes],
            "covers": [[r, c] for r in range(SIZE) for c in range(SIZE) if covered_share(dragged, geometry, r, c) > 0],
            "note": "a piece in mid-drag: not on the board; the slot it came from shows empty",
        }
    partly = partly_covered(labels, geometry)
    across = colour_across_gaps(distance, geometry, grid, dragged) if distance is not None else []
    if across:
        # a board cell never reaches over the gap to its neighbour: something lies over both
        diagnostics["across_gaps"] = across
        for r, c in across:
            confidence[r, c] = min(confidence[r, c], PARTLY_COVERED_CONFIDENCE)
    if partly:
        # colour over part of a cell, or off its middle: something lies over the board there
        diagnostics["partly_covered"] = partly
        for r, c in partly:
            confidence[r, c] = min(confidence[r, c], PARTLY_COVERED_CONFIDENCE)
    full_lines = _full_lines(grid)
    if full_lines:
        diagnostics["full_lines"] = full_lines
        for kind, index in full_lines:
            line = confidence[index, :] if kind == "row" else confidence[:, index]
            np.minimum(line, 0.5, out=line)
    if previous is not None:
        diagnostics["previous"] = reconcile_with_previous(grid, confidence, previous)

    score = scores.get("score")
    try:
        state = State.from_rows(grid.tolist(), tuple(tray), score if isinstance(score, int) else 0)
    except ValueError as error:
        raise NoBoardFound(f"the engine refuses the board read: {error}") from None
    doubtful_fields = []
    # a tray slot whose shape was not told, or told by size alone, or a tray the image may cut off
    if "tray_note" in diagnostics or any(
            "unread" in slot or (slot.get("piece") and slot.get("confidence", 1.0) < DOUBTFUL_BELOW)
            for slot in tray_found):
        doubtful_fields.append("tray")
    if not isinstance(score, int):  # the state holds 0 for it: never a silent guess
        doubtful_fields.append("score")
    diagnostics["ms"] = round((time.perf_counter() - started) * 1000, 1)
    cells = {"grid": grid.tolist(), "tray": list(tray)}
    return Reading("1010", state, cells, confidence, diagnostics, tuple(doubtful_fields))


def _find_board_at_a_scale(image: np.ndarray) -> BoardGeometry:
    """The board in the image's pixels, looked for in a copy shrunk to OVERVIEW_SIDES[0] and, when
    it is not there (a small game window in a large screenshot), in a larger one."""
    longest = max(image.shape[:2])
    failure = None
    for side in OVERVIEW_SIDES:
        # whole blocks: OpenCV averages them many times faster than any other shrinking factor
        block = max(1, int(np.ceil(longest / side)))
        overview = colour_model.shrink_by(image, block)
        try:
            return find_board(overview).scaled(block)
        except NoBoardFound as error:
            failure = error
        if block == 1:
            break
    raise failure


@dataclasses.dataclass(frozen=True)
class Region:
    """The part of the image read closely: the board with the header above it and the tray
    below, shrunk so that a cell is about READ_PITCH pixels. ``x``/``y``: its top-left corner in
    the image; ``scale``: crop pixels per image pixel."""

    x: int
    y: int
    width: int
    height: int
    scale: float

    @classmethod
    def around(cls, board: BoardGeometry, shape: tuple[int, ...]) -> Region:
        pitch = board.pitch
        x0 = max(0, int(board.left - pitch))
        y0 = max(0, int(board.top - HEADER_PITCHES * pitch))
        x1 = min(shape[1], int(np.ceil(board.right + pitch)))
        y1 = min(shape[0], int(np.ceil(board.bottom + TRAY_PITCHES * pitch)))
        scale = min(1.0, READ_PITCH / pitch)
        block = cls.block_of(scale)
        # a whole number of blocks each way, so that shrinking by blocks first keeps the scale exact
        return cls(x0, y0, (x1 - x0) // block * block, (y1 - y0) // block * block, scale)

    @staticmethod
    def block_of(scale: float) -> int:
        return max(1, int(1 / scale))

    def cut(self, image: np.ndarray) -> np.ndarray:
        crop = image[self.y:self.y + self.height, self.x:self.x + self.width]
        if self.scale == 1.0:
            return crop
        # whole blocks first (fast), the rest of the way by area
        block = self.block_of(self.scale)
        crop = colour_model.shrink_by(crop, block)
        rest = self.scale * block
        if rest >= 0.999:
            return crop
        return cv2.resize(crop, None, fx=rest, fy=rest, interpolation=cv2.INTER_AREA)

    def geometry(self, board: BoardGeometry) -> BoardGeometry:
        return BoardGeometry((board.left - self.x) * self.scale, (board.top - self.y) * self.scale,
                             board.pitch * self.scale, board.page)

    def image_geometry(self, board: BoardGeometry) -> BoardGeometry:
        """A board in the crop's pixels, in the image's."""
        return BoardGeometry(board.left / self.scale + self.x, board.top / self.scale + self.y,
                             board.pitch / self.scale, board.page)

    def to_image(self, box) -> list[int]:
        """A crop box (x0, y0, x1, y1) in the image's pixels."""
        x0, y0, x1, y1 = box
        return [round(x0 / self.scale + self.x), round(y0 / self.scale + self.y),
                round(x1 / self.scale + self.x), round(y1 / self.scale + self.y)]


# -- the board -------------------------------------------------------------------------------------
def find_board(image: np.ndarray) -> BoardGeometry:
    """The board's square: the blob of pixels that differ from the page (empty cells lighter than a
    dark page or darker than a light one, filled cells in colour), joined across the gaps between
    cells, which shows 10 × 10 cells at even steps. Raises :class:`NoBoardFound`."""
    smooth = cv2.blur(image, (3, 3))
    tried: set[tuple[int, int, int]] = set()
    masks: set[bytes] = set()
    pages = page_colours(smooth)
    for apart_by in PAGE_APART:
        seen: list[np.ndarray] = []
        for page in pages:
            # a colour within the step of one tried gives much the same blobs: on noise, the five
            # candidates are all neighbours of mid-grey, and each try costs a search of many blobs
            if any(np.abs(page - other).max() <= apart_by for other in seen):
                continue
            seen.append(page)
            apart = (_distance_from(smooth, page) > apart_by).astype(np.uint8)
            # the gaps between cells are a pixel or two at a small scale: judged unblurred
            geometry = _board_blob(image, _distance_from(image, page), apart, page, tried, masks)
            if geometry is not None:
                return geometry
    raise NoBoardFound("no 10 × 10 grid of cells found (no square blob of cells with nine even gaps each way)")


#: A pixel differs from the page when one of its channels is more than this apart: light grey empty
#: cells #ebebeb are 15-20 from a white or near-white page, a dark page's empty cells about 34 from
#: it; the second, closer step is tried when the first finds no board (a page a shade off white).
PAGE_APART = (12, 6)
#: The colours that may be the game's page: the most common lattice colours, each covering at
#: least this share of the image (a game in a window on a desktop, or in a web page, has a page
#: that is not the image's most common colour).
PAGE_SHARE = 0.005
PAGE_CANDIDATES = 5
_LATTICE_INDEX = np.arange(1 << (3 * colour_model.LATTICE_BITS), dtype=np.int32)


def page_colours(image: np.ndarray) -> list[np.ndarray]:
    """BGR (float) of the colours that may be the page, most common first."""
    index = colour_model.labels(image, _LATTICE_INDEX).ravel()
    counts = np.bincount(index, minlength=len(_LATTICE_INDEX))
    pixels = image.reshape(-1, 3)
    common = [colour for colour in np.argsort(-counts)[:PAGE_CANDIDATES] if counts[colour] >= PAGE_SHARE * len(index)]
    if not common:
        return []
    # the mean of each common lattice colour's pixels, channel by channel
    sums = [np.bincount(index, weights=pixels[:, channel], minlength=len(_LATTICE_INDEX))[common]
            for channel in range(3)]
    return list(np.stack(sums, axis=1) / counts[common][:, None])


def _distance_from(image: np.ndarray, colour: np.ndarray) -> np.ndarray:
    """Each pixel's largest channel difference from ``colour`` (uint8)."""
    reference = np.empty_like(image)
    reference[:] = np.round(colour).astype(np.uint8)
    difference = cv2.absdiff(image, reference)
    return np.maximum(np.maximum(difference[..., 0], difference[..., 1]), difference[..., 2])


def _board_blob(image: np.ndarray, distance: np.ndarray, apart: np.ndarray, page: np.ndarray,
                tried: set[tuple[int, int, int]], masks: set[bytes]) -> BoardGeometry | None:
    """The first square blob of ``apart`` pixels that is a board, joining cells across ever wider
    gaps (CLOSING_SIZES); ``tried`` holds the squares already refused, ``masks`` the digests of
    the joined masks already searched."""
    smallest = 30  # a board under 3 px a cell cannot be read
    page_lab = lab_image(np.round(page).astype(np.uint8).reshape(1, 1, 3))[0, 0]
    for size in CLOSING_SIZES:
        joined = apart if size == 1 else cv2.morphologyEx(
            apart, cv2.MORPH_CLOSE, cv2.getStructuringElement(cv2.MORPH_RECT, (size, size)))
        # the same mask again (a wider closing that joins nothing more, another page colour that
        # parts the same pixels: on busy pictures, often the whole image) holds the same blobs, each
        # tried or refused already; labelling it was most of the reading time
        digest = hashlib.blake2b(np.ascontiguousarray(joined), digest_size=16).digest()
        if digest in masks:
            continue
        masks.add(digest)
        count, blobs, stats, _ = components(joined, connectivity=4)
        order = np.argsort(-stats[1:, cv2.CC_STAT_AREA])[:4] + 1
        for label in order:
            x, y, w, h, area = stats[label]
            if min(w, h) < smallest or area < 0.5 * w * h:
                continue
            square = _square_extent(blobs[y:y + h, x:x + w] == label)
            if square is None:
                continue
            left, top, side = x + square[0], y + square[1], square[2]
            key = (round(left), round(top), round(side))
            if key in tried:
                continue
            tried.add(key)
            geometry = _fit_grid(distance, BoardGeometry(left, top, side / SIZE, tuple(map(float, page))))
            if geometry is not None and _looks_like_board(image, distance, page_lab, geometry):
                return geometry
    return None


def _square_extent(blob: np.ndarray) -> tuple[float, float, float] | None:
    """(left, top, side) of the square a blob mostly covers: the columns and rows covered for at
    least half the blob's extent (so a piece dragged over its edge does not widen it)."""
    columns = blob.mean(axis=0)
    rows = blob.mean(axis=1)
    column_span = np.nonzero(columns >= 0.5 * columns.max())[0]
    row_span = np.nonzero(rows >= 0.5 * rows.max())[0]
    width = column_span[-1] - column_span[0] + 1
    height = row_span[-1] - row_span[0] + 1
    if abs(width - height) > 0.06 * max(width, height) + 1:
        return None
    return float(column_span[0]), float(row_span[0]), (width + height) / 2


#: A line of ten cells may hold a single empty one: its pixels are a tenth of the line's.
NEAREST_PERCENTILE = 4


def _line_profile(distance: np.ndarray, geometry: BoardGeometry, axis: int, low: int, high: int) -> np.ndarray:
    """How near the page each column (axis 0) or row (axis 1) from ``low`` to ``high`` is, across
    the cells' middles only (the gaps the other way left out): the few of those pixels nearest
    the page (NEAREST_PERCENTILE: less than a cell's share of them). A column through a gap is
    the page all along; one through cells is as far from the page as its nearest cell (an empty
    cell, unless the whole line is filled)."""
    pitch = geometry.pitch
    origin = geometry.top if axis == 0 else geometry.left
    limit = distance.shape[axis]
    middles = np.concatenate([np.arange(round(origin + (k + 0.25) * pitch), round(origin + (k + 0.75) * pitch))
                              for k in range(SIZE)])
    middles = middles[(middles >= 0) & (middles < limit)]
    low, high = max(0, low), min(distance.shape[1 - axis], high)
    pixels = distance[middles, low:high] if axis == 0 else distance[low:high, middles]
    if pixels.size == 0:
        return np.zeros(0)
    return np.percentile(pixels, NEAREST_PERCENTILE, axis=axis)


def _gaps_high(profile: np.ndarray) -> np.ndarray:
    """A line profile turned so that gaps are high and cells 0: cut at the cells' level (gaps are
    a tenth of the positions or so), so that a line of coloured cells does not outweigh them."""
    level = np.percentile(profile, 25)
    return level - np.minimum(profile, level)


def _fit_grid(distance: np.ndarray, geometry: BoardGeometry) -> BoardGeometry | None:
    """The board's grid fitted to the nine gaps between its cells each way (vision/grid.py's
    regular lines), from the blob's square: the blob's edges can be a pixel or two off (soft
    rounded corners, a light grey barely apart from a white page), the gaps are where they are.
    None when the gaps are not about a tenth of the square apart."""
    pitch = geometry.pitch
    inset = 0.3 * pitch  # the square's own edges may look like gaps
    starts, steps = [], []
    for axis, origin in ((0, geometry.left), (1, geometry.top)):
        low = round(origin + inset)
        profile = _line_profile(distance, geometry, axis, low, round(origin + SIZE * pitch - inset))
        if len(profile) < 2 * SIZE:
            return None
        gaps = _gaps_high(profile)
        if gaps.max() <= 0:
            return None
        try:
            first, step = grid_finder.regular_lines(gaps, max(2, round(pitch)))
        except ZeroDivisionError:  # the gaps it found fitted a step of 0: no grid
            return None
        if abs(step - pitch) > 0.1 * pitch:
            return None
        # the line nearest where the first inner gap should be
        first_gap = low + first + step * round((origin + pitch - low - first) / step)
        if abs(first_gap - (origin + pitch)) > 0.4 * pitch:
            return None
        starts.append(first_gap - step)
        steps.append(step)
    return BoardGeometry(starts[0], starts[1], float(np.mean(steps)), geometry.page)


#: Of the nine gaps each way, at least this many must show (a piece over the board, JPEG on a
#: faint light grey, a thin gap shrunk may hide some).
GAPS_SEEN = 7


def _looks_like_board(image: np.ndarray, distance: np.ndarray, page_lab: np.ndarray, geometry: BoardGeometry
                      ) -> bool:
    """Nine gaps nearer the page than the cells beside them at equal steps across and down (the
    grid's period is the square's tenth), and a cell's colour in (nearly) every cell: a piece's
    colour, or a grey apart from the page."""
    if min(geometry.side, distance.shape[0] - geometry.top, distance.shape[1] - geometry.left) < 20:
        return False
    for axis, origin in ((0, geometry.left), (1, geometry.top)):
        profile = _line_profile(distance, geometry, axis, round(origin), round(origin + geometry.side))
        if len(profile) < 0.9 * geometry.side or _gap_count(profile, geometry.pitch) < GAPS_SEEN:
            return False
        # gaps a pixel wide on a pitch of a fractional pixel count: widened so whole-pixel lags meet
        gaps = np.convolve(_gaps_high(profile), (0.25, 0.5, 0.25), mode="same")
        seen = grid_finder.period(gaps, max(3, int(0.7 * geometry.pitch)))
        # JPEG noise on an empty light board can make every other gap the stronger repeat
        multiple = round(seen / geometry.pitch) if seen else 0
        if multiple not in (1, 2, 3) or abs(seen - multiple * geometry.pitch) > 0.1 * seen + 1:
            return False
    ys, xs = cell_samples(geometry, 0.3, 4)
    if ys.min() < 0 or xs.min() < 0 or ys.max() >= image.shape[0] or xs.max() >= image.shape[1]:
        return False
    lab = np.median(lab_image(image[ys, xs]), axis=2)
    chroma = np.hypot(lab[..., 1], lab[..., 2])
    coloured = (chroma >= COLOURED_CHROMA) & (lab[..., 0] >= 35)
    grey = (chroma < 12) & (delta_e(lab, page_lab) >= 2.5)  # #ebebeb on #f6f6f6: 3.6
    cell_like = int((coloured | grey).sum())
    return cell_like >= 90


def _gap_count(profile: np.ndarray, pitch: float) -> int:
    """How many of the nine inner cell boundaries are nearer the page than the middles of both
    cells (``profile``: distance from the page)."""
    dips = 0
    half_window = max(1, round(0.12 * pitch))
    for k in range(1, SIZE):
        at = round(k * pitch)
        gap = profile[max(0, at - half_window):at + half_window + 1].min()
        before = profile[round((k - 0.5) * pitch)]
        after = profile[min(len(profile) - 1, round((k + 0.5) * pitch))]
        # a light grey barely apart from a near-white page dips less than a dark page's cells
        cells = min(before, after)
        dips += gap < cells - min(4.0, 0.25 * cells)
    return dips


# -- cells -----------------------------------------------------------------------------------------
def read_cells(image: np.ndarray, geometry: BoardGeometry, dragged: DraggedPiece | None
               ) -> tuple[np.ndarray, list[list[str | None]], np.ndarray, np.ndarray]:
    """Occupancy (10×10 of 0/1), colour names, per-cell confidence and the empty grey used.

    A cell is compared with the image's own empty grey and with the nearest piece colour; its
    confidence is the margin between the two distances. Cells a dragged piece covers are read
    from the part that shows and their confidence shrinks with the part hidden."""
    ys, xs = cell_samples(geometry, 0.2)
    ys = np.clip(ys, 0, image.shape[0] - 1)
    xs = np.clip(xs, 0, image.shape[1] - 1)
    samples = lab_image(image[ys, xs])  # 10 × 10 × points² × 3
    visible = np.ones((SIZE, SIZE), np.float32)
    if dragged is not None:
        hidden = _dragged_mask(image.shape[:2], dragged, geometry)[ys, xs]
        shows = ~hidden
        visible = shows.mean(axis=2)
        # a cell hidden (nearly) all over is read from all its samples, at a confidence near 0
        shows |= (shows.sum(axis=2) < 3)[:, :, None]
        samples = np.where(shows[..., None], samples, np.nan)
        colours_lab = np.nanmedian(samples, axis=2)
    else:
        colours_lab = np.median(samples, axis=2)
    cell_chroma = np.hypot(colours_lab[..., 1], colours_lab[..., 2])
    greys = colours_lab[cell_chroma < 12]
    empty_lab = np.median(greys, axis=0) if len(greys) else DEFAULT_EMPTY_LAB
    to_empty = np.linalg.norm(colours_lab - empty_lab, axis=2)
    to_pieces = np.linalg.norm(colours_lab[:, :, None, :] - PALETTE_LAB[None, None], axis=3)
    nearest_piece = to_pieces.argmin(axis=2)
    # a filled cell in a shade the palette lacks still stands far from the grey: a chroma of 60
    # or more counts as a piece colour outright, less as that much short of one
    to_piece = np.minimum(to_pieces.min(axis=2), np.maximum(0.0, 60.0 - cell_chroma))
    grid = (to_piece < to_empty).astype(np.int8)
    nearer, farther = np.minimum(to_piece, to_empty), np.maximum(to_piece, to_empty)
    confidence = ((farther - nearer) / np.maximum(farther + nearer, 1e-6)).astype(np.float64)
    confidence *= np.clip(visible / 0.9, 0.0, 1.0)
    colours = [[SAME_COLOUR.get(PALETTE_NAMES[nearest_piece[r, c]], PALETTE_NAMES[nearest_piece[r, c]])
                if grid[r, c] else None for c in range(SIZE)] for r in range(SIZE)]
    return grid, colours, np.round(confidence, 4), empty_lab


#: A filled cell's colour covers at least this share of its square (0.05 pitch in from its sides)
#: with its middle within PIECE_OFF_MIDDLE pitches of the cell's; an empty cell's at most
#: EMPTY_COLOURED. Between them something lies over the cell (a dragged piece, an overlay).
FILLED_COLOURED = 0.8
EMPTY_COLOURED = 0.12
PIECE_OFF_MIDDLE = 0.07
PARTLY_COVERED_CONFIDENCE = 0.4


def partly_covered(labels: np.ndarray, geometry: BoardGeometry) -> list[list[int]]:
    """The cells whose colour covers only part of them, or lies off their middle: a cell of the
    board is all grey or all of one piece's colour, centred."""
    coloured = (labels >= 0).astype(np.float64)
    height, width = coloured.shape
    ys, xs = np.mgrid[0:height, 0:width]
    sums = [cv2.integral(layer) for layer in (coloured, coloured * xs, coloured * ys)]
    index = np.arange(SIZE)
    inset = 0.05
    x0 = np.clip(np.round(geometry.left + (index + inset) * geometry.pitch).astype(int), 0, width)
    x1 = np.clip(np.round(geometry.left + (index + 1 - inset) * geometry.pitch).astype(int), 0, width)
    y0 = np.clip(np.round(geometry.top + (index + inset) * geometry.pitch).astype(int), 0, height)
    y1 = np.clip(np.round(geometry.top + (index + 1 - inset) * geometry.pitch).astype(int), 0, height)
    top, bottom, left, right = y0[:, None], y1[:, None], x0[None, :], x1[None, :]
    area, along_x, along_y = (t[bottom, right] - t[top, right] - t[bottom, left] + t[top, left] for t in sums)
    box = np.maximum((right - left) * (bottom - top), 1)
    share = area / box
    counted = np.maximum(area, 1e-9)
    off = np.maximum(np.abs(along_x / counted - (left + right - 1) / 2),
                     np.abs(along_y / counted - (top + bottom - 1) / 2))
    suspect = (share > EMPTY_COLOURED) & ((share < FILLED_COLOURED) | (off > PIECE_OFF_MIDDLE * geometry.pitch))
    suspect &= (right > left) & (bottom > top)
    return [[int(r), int(c)] for r, c in zip(*np.nonzero(suspect))]


#: A gap between two cells is crossed by colour when its middle line stands from the page at
#: least this share of the farther of the two cells' distance (a piece over it: about 1; a clean
#: gap, blurred: under 0.5 in drawn looks, up to 0.75 in the real screenshot shrunk to 12-pixel
#: cells, where a gap is about a pixel wide) ...
GAP_CROSSED_SHARE = 0.85
#: ... and at least this many times as far from the page as the board's empty cells (an empty
#: cell's grey is never a piece's colour).
GAP_CROSSED_OVER_EMPTY = 2.0


def colour_across_gaps(distance: np.ndarray, geometry: BoardGeometry, grid: np.ndarray,
                       dragged: DraggedPiece | None = None) -> list[list[int]]:
    """The cells beside a gap of the grid that is not the page: a piece in mid-drag or an overlay
    lying over the board off the grid's steps, even when it has the colour of the cells under it
    (then no one-colour square of it shows apart, and the cell it half covers may look filled).
    ``distance``: each pixel's distance from the page; ``grid``: the occupancy read (its empty
    cells tell how far from the page the board's grey is); gaps under the cells of ``dragged``
    (found and accounted for already) are left out."""
    height, width = distance.shape
    pitch = geometry.pitch
    ys, xs = cell_samples(geometry, 0.25, 4)
    cells = np.median(distance[np.clip(ys, 0, height - 1), np.clip(xs, 0, width - 1)], axis=2).astype(np.float64)
    empty = float(np.median(cells[grid == 0])) if (grid == 0).any() else 0.0
    lines = np.arange(SIZE + 1)
    along = np.arange(SIZE)[:, None] + np.linspace(0.3, 0.7, 7)[None]  # the middle of each cell's side
    reach = max(1, round(0.04 * pitch))  # the fit may be a pixel off the gap's middle
    # down the gaps between columns: per row (10) and line (11), the least distance across the gap
    line_x = np.round(geometry.left + lines * pitch).astype(int)
    rows_y = np.clip(np.round(geometry.top + along * pitch).astype(int), 0, height - 1)
    down = np.min([np.median(distance[rows_y[:, :, None], np.clip(line_x + dx, 0, width - 1)[None, None, :]], axis=1)
                   for dx in range(-reach, reach + 1)], axis=0)
    # across the gaps between rows: per line (11) and column (10)
    line_y = np.round(geometry.top + lines * pitch).astype(int)
    columns_x = np.clip(np.round(geometry.left + along * pitch).astype(int), 0, width - 1)
    across = np.min([np.median(distance[np.clip(line_y + dy, 0, height - 1)[:, None, None], columns_x[None, :, :]], axis=2)
                     for dy in range(-reach, reach + 1)], axis=0)
    padded = np.pad(cells, 1)
    beside_down = np.maximum(padded[1:-1, :-1], padded[1:-1, 1:])  # 10 rows x 11 lines
    beside_across = np.maximum(padded[:-1, 1:-1], padded[1:, 1:-1])  # 11 lines x 10 columns
    floor = GAP_CROSSED_OVER_EMPTY * empty
    crossed_down = (down >= GAP_CROSSED_SHARE * beside_down) & (down > floor) & (down > 0)
    crossed_across = (across >= GAP_CROSSED_SHARE * beside_across) & (across > floor) & (across > 0)
    if dragged is not None:
        hidden = _dragged_mask(distance.shape, dragged, geometry)
        middle = np.clip(np.round(geometry.top + (np.arange(SIZE) + 0.5) * pitch).astype(int), 0, height - 1)
        crossed_down &= ~hidden[middle[:, None], np.clip(line_x, 0, width - 1)[None, :]]
        middle = np.clip(np.round(geometry.left + (np.arange(SIZE) + 0.5) * pitch).astype(int), 0, width - 1)
        crossed_across &= ~hidden[np.clip(line_y, 0, height - 1)[:, None], middle[None, :]]
    found = set()
    for r, line in zip(*np.nonzero(crossed_down)):
        found.update((int(r), int(c)) for c in (line - 1, line) if 0 <= c < SIZE)
    for line, c in zip(*np.nonzero(crossed_across)):
        found.update((int(r), int(c)) for r in (line - 1, line) if 0 <= r < SIZE)
    return [list(cell) for cell in sorted(found)]


def _dragged_mask(shape: tuple[int, int], dragged: DraggedPiece, geometry: BoardGeometry) -> np.ndarray:
    mask = np.zeros(shape, bool)
    margin = max(1, round(0.08 * geometry.pitch))
    for x0, y0, x1, y1 in dragged.boxes:
        mask[max(0, y0 - margin):y1 + margin, max(0, x0 - margin):x1 + margin] = True
    return mask


def covered_share(dragged: DraggedPiece, geometry: BoardGeometry, row: int, column: int) -> float:
    """The share of a cell's middle (inset 0.2 pitch) that the dragged piece's cells hide."""
    x0, y0, x1, y1 = geometry.cell_box(row, column, 0.2)
    hidden = 0
    for bx0, by0, bx1, by1 in dragged.boxes:
        hidden += max(0, min(x1, bx1) - max(x0, bx0)) * max(0, min(y1, by1) - max(y0, by0))
    return min(1.0, hidden / ((x1 - x0) * (y1 - y0)))


def _full_lines(grid: np.ndarray) -> list[list[str | int]]:
    """Rows and columns read as full, as ["row", 3] or ["column", 0]: the game removes them at
    once, so a reading with one was caught mid-animation (or is wrong)."""
    return ([["row", int(r)] for r in np.nonzero(grid.all(axis=1))[0]]
            + [["column", int(c)] for c in np.nonzero(grid.all(axis=0))[0]])


# -- coloured shapes: the dragged piece and the tray ------------------------------------------------
@functools.cache
def _label_table() -> np.ndarray:
    """The nearest piece colour (index into PALETTE_NAMES) of every lattice colour, -1 for colours
    too grey or too dark to be a piece's."""

    def classify(lab: np.ndarray) -> np.ndarray:
        chroma = np.hypot(lab[:, 1], lab[:, 2])
        distances = ((lab[:, None, :] - PALETTE_LAB[None]) ** 2).sum(axis=2)
        table = _MERGED_INDEX[distances.argmin(axis=1)]
        table[(chroma < COLOURED_CHROMA) | (lab[:, 0] < 35)] = -1
        return table

    return colour_model.label_table(classify)


def colour_labels(image: np.ndarray) -> np.ndarray:
    """Each pixel's nearest piece colour (index into PALETTE_NAMES), -1 where it is not coloured."""
    return colour_model.labels(image, _label_table())


def _one_colour_regions(labels: np.ndarray) -> np.ndarray:
    """The coloured pixels minus the borders between two colours, so that each connected region
    is of one colour (cells of different colours that touch come apart)."""
    regions = labels >= 0
    regions[:, 1:] &= labels[:, 1:] == labels[:, :-1]
    regions[1:, :] &= labels[1:, :] == labels[:-1, :]
    return regions.astype(np.uint8)


def find_dragged(colours: np.ndarray, geometry: BoardGeometry) -> DraggedPiece | None:
    """Cell-sized squares of one colour over the board whose middles are off the grid's steps."""
    pitch = geometry.pitch
    margin = round(pitch)
    ox, oy = max(0, round(geometry.left) - margin), max(0, round(geometry.top) - margin)
    window = (slice(oy, round(geometry.bottom) + margin), slice(ox, round(geometry.right) + margin))
    labels = colours[window]
    count, _, stats, _ = components(_one_colour_regions(labels), connectivity=4)
    boxes: list[tuple[int, int, int, int]] = []
    names: list[int] = []
    for label in range(1, count):
        x, y, w, h, area = stats[label]
        if not (0.55 * pitch <= min(w, h) and max(w, h) <= 1.0 * pitch and area >= 0.75 * w * h):
            continue
        column = (ox + x + w / 2 - geometry.left) / pitch - 0.5
        row = (oy + y + h / 2 - geometry.top) / pitch - 0.5
        over_board = -0.8 <= column <= SIZE - 0.2 and -0.8 <= row <= SIZE - 0.2
        if over_board and max(abs(column - round(column)), abs(row - round(row))) > 0.15:
            boxes.append((ox + x, oy + y, ox + x + w, oy + y + h))
            names.append(int(labels[y + h // 2, x + w // 2]))
    if not boxes:
        return None
    colour = max(set(names), key=names.count)
    boxes = [box for box, name in zip(boxes, names) if name == colour]
    return DraggedPiece(_shape_of_boxes(boxes, pitch), PALETTE_NAMES[colour], tuple(boxes))


def _shape_of_boxes(boxes: list[tuple[int, int, int, int]], pitch: float) -> str | None:
    """The piece letter of cell boxes laid out on ``pitch``, or None when no piece has that shape."""
    x0 = min(box[0] for box in boxes)
    y0 = min(box[1] for box in boxes)
    cells = {(round((box[1] - y0) / pitch), round((box[0] - x0) / pitch)) for box in boxes}
    height = 1 + max(r for r, _ in cells)
    width = 1 + max(c for _, c in cells)
    rows = tuple("".join("#" if (r, c) in cells else "." for c in range(width)) for r in range(height))
    return PIECE_BY_ROWS.get(rows)


def read_tray(image: np.ndarray, colours: np.ndarray, geometry: BoardGeometry
              ) -> tuple[list[str | None], list[dict[str, Any]]]:
    """The three tray slots under the board, left to right: a piece letter or None.

    Coloured blobs under the board (the cells of a piece joined across their thin gaps) are
    pieces. The tray's scale differs between looks (about 0.62 of the board's in the dark theme,
    nearly the board's in the light one, less for a piece too wide for its slot), so each piece's
    cells are counted by the gaps across it (:func:`_cells_along`), then its drawing is read on
    that many cells a side. Each must be of one colour, with square cells, and fill exactly the
    cells of one of the 19 pieces; a coloured blob that is not is reported ``"unread"``."""
    pitch = geometry.pitch
    x0 = max(0, round(geometry.left - 1.0 * pitch))
    x1 = round(geometry.right + 1.0 * pitch)
    y0 = round(geometry.bottom + 0.15 * pitch)
    y1 = round(geometry.bottom + 6.2 * pitch)
    slots: list[str | None] = [None, None, None]
    found: list[dict[str, Any]] = [{"slot": slot + 1, "piece": None} for slot in range(3)]
    if y0 >= colours.shape[0] - 2:
        return slots, found
    labels = colours[y0:y1, x0:x1]
    patch_image = image[y0:y1, x0:x1]
    coloured = (labels >= 0).astype(np.uint8)
    joint = max(3, round(0.18 * pitch) | 1)
    joined = cv2.morphologyEx(coloured, cv2.MORPH_CLOSE, cv2.getStructuringElement(cv2.MORPH_RECT, (joint, joint)))
    count, blobs, stats, _ = components(joined, connectivity=4)
    shapes = []
    for label in range(1, count):
        x, y, w, h, area = stats[label]
        middle_y = y0 + y + h / 2 - geometry.bottom
        # a tray cell is at least TRAY_SMALLEST_CELL of the board's pitch in every look
        if (min(w, h) < TRAY_SMALLEST_CELL * pitch or max(w, h) > 5.2 * pitch
                or not 0.8 * pitch <= middle_y <= 4.6 * pitch):
            continue
        blob = blobs[y:y + h, x:x + w] == label
        inside = blob & (coloured[y:y + h, x:x + w] > 0)
        shapes.append(_TrayShape((x, y, w, h), blob, inside, labels[y:y + h, x:x + w], patch_image[y:y + h, x:x + w]))
    shapes = _joined_within_slots(shapes, coloured, labels, patch_image, x0, geometry)
    # the tray's cell size where some piece shows the gaps between its cells: a piece whose gaps
    # do not show (too small, blurred) is measured by it, and stays doubtful
    counted = [shape for shape in shapes if shape.columns and shape.rows]
    sizes = [size for shape in counted for size in (shape.box[2] / shape.columns, shape.box[3] / shape.rows)
             if size >= TRAY_SMALLEST_CELL * pitch]
    cell = float(np.median(sizes)) if sizes else None
    per_slot: list[list[dict[str, Any]]] = [[], [], []]
    for shape in shapes:
        x, y, w, h = shape.box
        letter, confidence, why = shape.read(cell, pitch)
        if letter is not None and min(w / len(BY_LETTER[letter].rows[0]), h / len(BY_LETTER[letter].rows)) \
                < TRAY_SMALLEST_CELL * pitch:
            continue  # a drawing of a piece smaller than the tray's (a legend, an icon)
        slot = _slot_of(shape, x0, geometry)
        entry = {"slot": slot + 1, "piece": letter, "colour": PALETTE_NAMES[shape.colour],
                 "confidence": round(confidence, 3),
                 "box_px": [int(x0 + x), int(y0 + y), int(x0 + x + w), int(y0 + y + h)]}
        if letter is None:
            entry["unread"] = why
        per_slot[slot].append(entry)
    for slot, entries in enumerate(per_slot):
        pieces = [entry for entry in entries if entry["piece"] is not None]
        if len(pieces) == 1:
            found[slot] = pieces[0]
            slots[slot] = pieces[0]["piece"]
        elif len(pieces) > 1:
            # a slot holds one piece: two in it are a piece come apart (or something else)
            found[slot] = {"slot": slot + 1, "piece": None, "confidence": 0.0,
                           "unread": f"{len(pieces)} coloured shapes in the slot",
                           "box_px": [min(e["box_px"][0] for e in pieces), min(e["box_px"][1] for e in pieces),
                                      max(e["box_px"][2] for e in pieces), max(e["box_px"][3] for e in pieces)]}
        elif entries:
            found[slot] = max(entries, key=lambda entry: entry["box_px"][2] - entry["box_px"][0])
    return slots, found


#: Shapes in one slot this close (board pitches) are cells of one piece whose gaps are wider than
#: the joining closed; two pieces are never in one slot.
SLOT_JOIN = 0.35


def _slot_of(shape: _TrayShape, x0: int, geometry: BoardGeometry) -> int:
    x, _, w, _ = shape.box
    return int(np.clip((x0 + x + w / 2 - geometry.left) // (geometry.side / 3), 0, 2))


def _joined_within_slots(shapes: list[_TrayShape], coloured: np.ndarray, labels: np.ndarray, image: np.ndarray,
                         x0: int, geometry: BoardGeometry) -> list[_TrayShape]:
    """The shapes, those of one slot that lie within SLOT_JOIN pitches of each other joined into
    one (closed across their gaps)."""
    by_slot: dict[int, list[_TrayShape]] = {}
    for shape in shapes:
        by_slot.setdefault(_slot_of(shape, x0, geometry), []).append(shape)
    joined = []
    for group in by_slot.values():
        if len(group) == 1:
            joined += group
            continue
        gaps = [max(b.box[0] - (a.box[0] + a.box[2]), a.box[0] - (b.box[0] + b.box[2]),
                    b.box[1] - (a.box[1] + a.box[3]), a.box[1] - (b.box[1] + b.box[3]))
                for i, a in enumerate(group) for b in group[i + 1:]]
        if max(gaps) > SLOT_JOIN * geometry.pitch:
            joined += group
            continue
        union = np.zeros(coloured.shape, np.uint8)
        for shape in group:
            x, y, w, h = shape.box
            union[y:y + h, x:x + w] |= shape.blob.astype(np.uint8)
        size = max(3, int(np.ceil(max(gaps))) + 2) | 1
        union = cv2.morphologyEx(union, cv2.MORPH_CLOSE, cv2.getStructuringElement(cv2.MORPH_RECT, (size, size)))
        count, blobs, stats, _ = components(union, connectivity=4)
        for label in range(1, count):
            x, y, w, h, _ = stats[label]
            blob = blobs[y:y + h, x:x + w] == label
            joined.append(_TrayShape((x, y, w, h), blob, blob & (coloured[y:y + h, x:x + w] > 0),
                                     labels[y:y + h, x:x + w], image[y:y + h, x:x + w]))
    return joined


class _TrayShape:
    """A coloured blob under the board: its box (x, y, w, h) in the tray's band, its cells
    counted across and down by the gaps between them (None where they do not show)."""

    def __init__(self, box, blob: np.ndarray, inside: np.ndarray, labels: np.ndarray, patch: np.ndarray):
        self.box, self.blob, self.inside, self.labels = box, blob, inside, labels
        self.colour = int(np.bincount(labels[inside]).argmax())
        lab = lab_image(patch)
        distance = delta_e(lab, np.median(lab[inside & (labels == self.colour)], axis=0))
        (self.columns, self.clear_across), (self.rows, self.clear_down) = (
            _cells_along(distance, blob, axis) for axis in (0, 1))
        self.distance = distance

    def read(self, cell: float | None, pitch: float) -> tuple[str | None, float, str]:
        """The piece letter, the confidence of the reading and, for None, why. ``cell``: the
        tray's cell size seen on other pieces, for a piece whose gaps do not show; ``pitch``: the
        board's."""
        _, _, width, height = self.box
        columns, rows = self.columns, self.rows
        clarity = min(self.clear_across, self.clear_down)
        if columns == rows == 1 and max(width, height) > TRAY_LARGEST_CELL * pitch:
            columns = rows = None  # no gaps seen, yet larger than any tray cell: they do not show
        if max(width, height) >= 1.5 * min(width, height):
            # only bars are longer than wide: the length of a bar of square cells tells its count
            long_axis = 0 if width > height else 1
            length = max(width, height)
            counts = _bar_cells(length / min(width, height))
            scores, contrast, _ = _count_scores(self.distance, self.blob, long_axis)
            ranked = sorted(counts, key=lambda n: scores.get(n, -np.inf), reverse=True)
            if len(counts) == 1:
                count, clarity = counts[0], BAR_LENGTH_CLARITY
            elif len(counts) > 1 and contrast >= TRAY_GAP_CONTRAST and scores.get(ranked[0], 0) > 0:
                # the gaps choose among the counts its length allows, by how much better they fit
                count = ranked[0]
                clarity = float(np.clip((scores[count] - scores.get(ranked[1], -np.inf)) / contrast, 0, 1))
            elif counts and cell is not None:
                count = min(counts, key=lambda n: abs(length / cell - n))
                clarity = 0.5 * float(np.clip(1 - 2 * abs(length / cell - count), 0, 1))  # by size alone
            else:
                return None, 0.0, (f"a bar of {' or '.join(map(str, counts)) or 'no whole number of'} cells by "
                                   f"its length, not told apart by the gaps across it")
            columns, rows = (count, 1) if long_axis == 0 else (1, count)
        elif columns is None or rows is None:
            if cell is None:
                return None, 0.0, "its cells cannot be counted (no clear gaps between them)"
            columns, rows = max(1, round(width / cell)), max(1, round(height / cell))
            fit = max(abs(width / cell - columns), abs(height / cell - rows))
            if fit > 0.25 or columns > 5 or rows > 5:
                return None, 0.0, "its cells cannot be counted (no clear gaps, not a whole number of cells)"
            # measured by another piece's cells only: below DOUBTFUL_BELOW
            clarity = 0.5 * (1 - 2 * fit)
        cell_w, cell_h = width / columns, height / rows
        squareness = 1 - abs(cell_w - cell_h) / max(cell_w, cell_h)
        if squareness < 0.8:
            return None, 0.0, f"its {rows} × {columns} cells are not square"
        drawing, fill_margin, middles = _sub_cells(self.inside, rows, columns)
        letter = PIECE_BY_ROWS.get(drawing)
        if letter is None:
            return None, 0.0, f"no piece is drawn {'/'.join(drawing)}"
        # one colour all over, judged in the cells' middles (their soft edges blend with the page) by
        # distance, not by palette label: JPEG's chroma noise moves a pink pixel to red's label
        same_colour = float((self.distance[middles & self.inside] <= SAME_PIECE_COLOUR).mean())
        if same_colour < 0.85:
            return None, 0.0, "it is not of one colour"
        return letter, float(min(fill_margin, clarity, same_colour, 2 * squareness - 1)), ""


#: A tray piece's pixels are within this Lab distance of its median colour.
SAME_PIECE_COLOUR = 25.0
#: The gaps between cells are at most this share of the pitch in every look.
MAX_GAP_SHARE = 0.2
#: How sure a bar's count is when its length alone tells it.
BAR_LENGTH_CLARITY = 0.9


#: A blob's edges may reach this share of its width past its cells, or stop short of them
#: (antialiasing, blur, the joining of its cells).
EDGE_SHARE = 0.12


def _bar_cells(ratio: float) -> list[int]:
    """The cell counts a bar may have when it is ``ratio`` times as long as it is wide: n cells of
    pitch p with gaps of share f are (n - f) / (1 - f) widths long (f up to MAX_GAP_SHARE), and
    the blob's edges may be off by EDGE_SHARE of its width at each end."""
    shortest = (ratio + 2 * EDGE_SHARE) / (1 + 2 * EDGE_SHARE)
    longest = (ratio - 2 * EDGE_SHARE) / (1 - 2 * EDGE_SHARE)
    low, high = shortest * (1 - MAX_GAP_SHARE) + MAX_GAP_SHARE, longest
    return [n for n in range(2, 6) if low <= n <= high]


#: A gap between a tray piece's cells stands this much (Lab ΔE) above the cells' own colour at least.
TRAY_GAP_CONTRAST = 5.0


def _count_scores(distance: np.ndarray, blob: np.ndarray, axis: int) -> tuple[dict[int, float], float, float]:
    """How well each count n of cells (2 to 5) fits a tray blob across (axis 0) or down (axis 1):
    the profile of how far the blob's pixels are from the piece's colour, column by column (row by
    row), peaks at every gap; for n cells the gaps are expected at the n-th parts of the blob and
    the cells' middles between them, and n scores how much its gaps stand out from its middles.
    Also the profile's contrast and how much a single cell's middle stands out (for n = 1)."""
    weights = blob.sum(axis=axis)
    profile = np.where(weights > 0, (distance * blob).sum(axis=axis) / np.maximum(weights, 1), 0.0)
    length = len(profile)
    trim = max(2, round(0.1 * min(blob.shape)))
    interior = profile[trim:length - trim] if length > 2 * trim + 2 else profile
    level = float(np.median(interior))
    contrast = float(interior.max()) - level

    def middles_max(n: int) -> float:
        cell = length / n
        return max(float(profile[int((i + 0.25) * cell):max(int((i + 0.75) * cell), int((i + 0.25) * cell) + 1)].max())
                   for i in range(n))

    scores = {}
    for n in range(2, 6):
        cell = length / n
        if cell < 3:
            break
        reach = max(1, round(0.12 * cell))
        gaps = min(float(profile[max(0, round(k * cell) - reach):round(k * cell) + reach + 1].max())
                   for k in range(1, n))
        scores[n] = gaps - middles_max(n)
    return scores, contrast, middles_max(1) - level


def _cells_along(distance: np.ndarray, blob: np.ndarray, axis: int) -> tuple[int | None, float]:
    """How many cells a tray piece has across (axis 0: columns) or down (axis 1: rows), from the
    gaps between them (:func:`_count_scores`): the best count, or 1 when nothing in the blob's
    middle stands out like a gap. Returns (count, clarity 0..1) or (None, 0)."""
    scores, contrast, single_bump = _count_scores(distance, blob, axis)
    if contrast < TRAY_GAP_CONTRAST:
        return 1, 1.0
    best = max(scores, key=scores.get) if scores else None
    single = TRAY_GAP_CONTRAST - single_bump
    if best is None or single > scores[best]:
        return (1, float(np.clip(single / contrast, 0, 1))) if single > 0 else (None, 0.0)
    clarity = float(np.clip(scores[best] / contrast, 0, 1))
    return (best, clarity) if scores[best] > 0 else (None, 0.0)


def _sub_cells(inside: np.ndarray, rows: int, columns: int) -> tuple[tuple[str, ...], float, np.ndarray]:
    """The drawing (``#``/``.`` rows) of a blob cut into rows × columns cells, judged by the middle
    of each cell; how clear the least clear cell was (0 = half covered, 1 = all or nothing); and
    the mask of the cells' middles."""
    height, width = inside.shape
    drawing = []
    margin = 1.0
    middles = np.zeros_like(inside)
    def middle(index: int, cells: int, extent: int) -> slice:
        start = int((index + 0.25) * extent / cells)
        return slice(start, max(int((index + 0.75) * extent / cells), start + 1))

    for r in range(rows):
        line = ""
        for c in range(columns):
            ys, xs = middle(r, rows, height), middle(c, columns, width)
            share = float(inside[ys, xs].mean())
            middles[ys, xs] = True
            line += "#" if share >= 0.5 else "."
            margin = min(margin, abs(share - 0.5) * 2)
        drawing.append(line)
    return tuple(drawing), margin, middles


# -- the score --------------------------------------------------------------------------------------
#: Digits are compared at this size (width, height), scaled to the height, centred across.
GLYPH_SIZE = (14, 20)
#: A digit is read when its template correlates at least this well and this much better than the
#: next template.
DIGIT_MATCH = 0.8
DIGIT_MARGIN = 0.08
TEMPLATES = "assets.vision.tenten"


@dataclasses.dataclass(frozen=True)
class Glyph:
    """A bright mark of digit height above the board: its box in the crop and its normalised image."""

    box: tuple[int, int, int, int]  # x0, y0, x1, y1
    #: GLYPH_SIZE (width, height), float32, 0..1, lightly blurred; None for a mark too wide to be
    #: one digit (digits run together)
    image: np.ndarray | None
    #: the same mark a little narrower and wider (WIDTH_FACTORS): a small digit's width is blurred
    #: by a pixel either way, a large part of its width
    variants: tuple[np.ndarray, ...] = ()


def header_numbers(image: np.ndarray, geometry: BoardGeometry) -> list[list[Glyph]]:
    """The runs of digit-high marks above the board, left to right (the score, then the best
    score beyond the trophy)."""
    return _header_marks(image, geometry)[0]


def _header_marks(image: np.ndarray, geometry: BoardGeometry
                  ) -> tuple[list[list[Glyph]], list[tuple[tuple[int, int, int, int], list[Glyph]]]]:
    """:func:`header_numbers`' runs, and the other marks at least half a digit high that were
    not taken as digits (a trophy, or digits that ran together into a mark taller than the
    others): each mark's box (x0, y0, x1, y1 in the crop) and its parts cut as digits."""
    pitch = geometry.pitch
    y0, y1 = max(0, round(geometry.top - 2.8 * pitch)), max(0, round(geometry.top - 0.8 * pitch))
    x0, x1 = max(0, round(geometry.left - 0.5 * pitch)), round(geometry.right)
    if y1 - y0 < 0.4 * pitch or x1 - x0 < pitch:
        return [], []
    band = image[y0:y1, x0:x1]
    # ink is what differs from the page: light digits on the dark theme, dark or coloured ones on
    # the light theme
    ink = _distance_from(band, np.median(band.reshape(-1, 3), axis=0)).astype(np.float32)
    count, _, stats, _ = components((ink > 30).astype(np.uint8), connectivity=8)
    marks = [tuple(int(v) for v in stats[label][:4]) for label in range(1, count)]
    boxes = [box for box in marks if 0.4 * pitch <= box[3] <= 0.85 * pitch]
    if not boxes:
        return [], []
    height = float(np.median([h for _, _, _, h in boxes]))
    boxes = sorted(box for box in boxes if abs(box[3] - height) <= 0.12 * height + 0.5)
    others = [((x0 + x, y0 + y, x0 + x + w, y0 + y + h),
               [_glyph(ink, (part_x, y, part_width, h), (x0, y0)) for part_x, part_width in _split_touching(ink[y:y + h], x, w, h)])
              for x, y, w, h in marks if (x, y, w, h) not in boxes and h >= 0.5 * height]
    runs: list[list[Glyph]] = []
    last_right = None
    for x, y, w, h in boxes:
        if last_right is None or x - last_right > 0.6 * height:
            runs.append([])
        last_right = x + w
        for part_x, part_width in _split_touching(ink[y:y + h], x, w, h):
            runs[-1].append(_glyph(ink, (part_x, y, part_width, h), (x0, y0)))
    return runs, others


def _number_goes_on(run: list[Glyph], marks: list[tuple[tuple[int, int, int, int], list[Glyph]]]) -> bool:
    """Whether the number of ``run`` may go on in one of ``marks`` on its line, no farther from
    its ends than digits of one number lie apart: any such mark before its first digit, or one
    after its last that reads as digits (the trophy may stand right after the score: on the dark
    theme it does)."""
    left, top = run[0].box[0], min(glyph.box[1] for glyph in run)
    right, bottom = run[-1].box[2], max(glyph.box[3] for glyph in run)
    reach = 0.6 * (bottom - top)
    for (mx0, my0, mx1, my1), glyphs in marks:
        if not (my0 < bottom and my1 > top):
            continue
        if left - reach <= mx1 and mx0 < left:
            return True
        if right < mx1 and mx0 <= right + reach and read_number(glyphs)[0] is not None:
            return True
    return False


def _split_touching(rows: np.ndarray, x: int, w: int, h: int) -> list[tuple[int, int]]:
    """(x, width) of the digits in a mark: a mark wider than a digit is cut at its faintest
    column away from its ends, again while a part stays too wide."""
    if w <= 0.9 * h:
        return [(x, w)]
    profile = rows[:, x:x + w].sum(axis=0)
    low, high = round(0.3 * h), w - round(0.3 * h)
    if high <= low:
        return [(x, w)]
    cut = low + int(np.argmin(profile[low:high]))
    return _split_touching(rows, x, cut, h) + _split_touching(rows, x + cut + 1, w - cut - 1, h)


def _glyph(ink: np.ndarray, box: tuple[int, int, int, int], offset: tuple[int, int]) -> Glyph:
    """The mark in ``box`` (of the band whose top-left is ``offset`` in the crop), cut to where
    its ink is at least 40 % of its brightest (so blur does not change its size) and scaled to
    GLYPH_SIZE by its height."""
    x, y, w, h = box
    top_left = (offset[0] + x, offset[1] + y)
    corners = (*top_left, top_left[0] + w, top_left[1] + h)
    if w > 0.9 * h:
        return Glyph(corners, None)
    patch = ink[max(0, y - 1):y + h + 1, max(0, x - 1):x + w + 1]
    return Glyph(corners, normalised_glyph(patch),
                 tuple(normalised_glyph(patch, factor) for factor in WIDTH_FACTORS if factor != 1.0))


#: Glyphs are compared at their own width and at these shares of it.
WIDTH_FACTORS = (0.85, 1.0, 1.15)


def normalised_glyph(patch: np.ndarray, width_factor: float = 1.0) -> np.ndarray:
    """A digit's ink (float, any scale) cut to where it is at least 40 % of its brightest (so blur
    does not change its size), scaled to GLYPH_SIZE by its height, centred across, lightly
    blurred: what templates are compared in."""
    strong = patch >= 0.4 * patch.max()
    rows, columns = np.nonzero(strong.any(axis=1))[0], np.nonzero(strong.any(axis=0))[0]
    patch = patch[rows[0]:rows[-1] + 1, columns[0]:columns[-1] + 1] / patch.max()
    width, height = GLYPH_SIZE
    scaled_width = max(1, min(width, round(width_factor * patch.shape[1] * height / patch.shape[0])))
    scaled = cv2.resize(patch.astype(np.float32), (scaled_width, height), interpolation=cv2.INTER_AREA)
    canvas = np.zeros((height, width), np.float32)
    left = (width - scaled_width) // 2
    canvas[:, left:left + scaled_width] = scaled
    return cv2.GaussianBlur(canvas, (3, 3), 0.8)


@functools.cache
def digit_templates() -> dict[str, np.ndarray]:
    """The digit templates cut from the real screenshot (``assets/vision/tenten/digit_<d>.png``,
    made by its ``make_templates.py``)."""
    folder = resources.files(TEMPLATES)
    listing = json.loads(folder.joinpath("digits.json").read_text())
    return {digit: _template(folder, f"digit_{digit}.png") for digit in listing["digits"]}


@functools.cache
def font_digit_templates() -> dict[str, dict[str, np.ndarray]]:
    """Per shipped font of ``digits.json``'s ``fonts``: the templates of its digits drawn by
    ``make_templates.py`` from the font file (the game's own font is not shipped)."""
    folder = resources.files(TEMPLATES)
    listing = json.loads(folder.joinpath("digits.json").read_text())
    return {name: {digit: _template(folder, f"{font['prefix']}{digit}.png") for digit in font["digits"]}
            for name, font in listing.get("fonts", {}).items()}


def _template(folder, name: str) -> np.ndarray:
    data = np.frombuffer(folder.joinpath(name).read_bytes(), np.uint8)
    return cv2.imdecode(data, cv2.IMREAD_GRAYSCALE).astype(np.float32) / 255


@functools.cache
def all_digit_templates() -> tuple[tuple[str, ...], np.ndarray]:
    """Every template, the real screenshot's then each shipped font's: their digits and their
    images flattened, centred and scaled to unit length (rows), so that one product correlates a
    glyph with all of them."""
    found = list(digit_templates().items())
    for templates in font_digit_templates().values():
        found += list(templates.items())
    return tuple(digit for digit, _ in found), _unit_rows(np.stack([image.ravel() for _, image in found]))


def _unit_rows(rows: np.ndarray) -> np.ndarray:
    rows = rows - rows.mean(axis=1, keepdims=True)
    return rows / np.maximum(np.linalg.norm(rows, axis=1, keepdims=True), 1e-9)


def read_number(glyphs: list[Glyph]) -> tuple[int | None, str]:
    """A run of glyphs as a number, or None and why (a glyph like no template, or like two
    digits). Each digit scores its best template (of the real screenshot's or a shipped font's)
    against the glyph at any of its widths."""
    names, templates = all_digit_templates()
    known = "".join(sorted(set(names)))
    digits = ""
    for position, glyph in enumerate(glyphs, start=1):
        if glyph.image is None:
            return None, f"digit {position} runs into the next one"
        images = _unit_rows(np.stack([image.ravel() for image in (glyph.image, *glyph.variants)]))
        scores = (images @ templates.T).max(axis=0)
        best_of: dict[str, float] = {}
        for digit, score in zip(names, scores):
            best_of[digit] = max(best_of.get(digit, -1.0), float(score))
        (best, digit), (second, _) = sorted(((score, d) for d, score in best_of.items()), reverse=True)[:2]
        if best < DIGIT_MATCH or best - second < DIGIT_MARGIN:
            return None, (f"digit {position} matches no template well (best {digit} at {best:.2f}, next "
                          f"{second:.2f}; templates exist for {known})")
        digits += digit
    return int(digits), "read"


def read_scores(image: np.ndarray, geometry: BoardGeometry) -> dict[str, Any]:
    """The score (left of the trophy) and the best score (right of it) above the board, when
    every digit matches a template; otherwise None with the reason."""
    runs, marks = _header_marks(image, geometry)
    middle = geometry.left + geometry.side / 2
    found: dict[str, Any] = {"score": None, "best": None}
    left_runs = [run for run in runs if run[0].box[0] < middle]
    right_runs = [run for run in runs if run[0].box[0] >= middle]
    for name, run in (("score", left_runs[-1:]), ("best", right_runs[:1])):
        if not run:
            found[f"{name}_note"] = "no digits found"
            continue
        number, why = read_number(run[0])
        if number is not None and name == "score" and _number_goes_on(run[0], marks):
            number, why = None, ("a mark not taken as digits lies right beside the digits read "
                                 f"({number}): the score may go on in it")
        found[name] = number
        if number is None:
            found[f"{name}_note"] = why
    return found


# -- the state before -------------------------------------------------------------------------------
def reconcile_with_previous(grid: np.ndarray, confidence: np.ndarray, previous: State) -> dict[str, Any]:
    """Settle doubtful cells with the grids one placement from ``previous`` can leave (or the
    same grid): when every such grid that agrees with all sure cells agrees on a doubtful cell,
    that cell takes its value. Changes ``grid`` and ``confidence`` in place."""
    doubtful = confidence < DOUBTFUL_BELOW
    if not doubtful.any():
        return {"used": False, "settled": [], "why": "no doubtful cell"}
    if not isinstance(previous, State):
        return {"used": False, "settled": [], "why": "previous is not a 1010! state"}
    successors = {previous.filled}
    for letter in set(previous.pieces_left):
        for row, column in rules.placements(previous.filled, letter):
            successors.add(rules.place(previous.filled, letter, row, column)[0])
    sure_mask = sure_filled = 0
    for r, c in zip(*np.nonzero(~doubtful)):
        bit = 1 << (SIZE * int(r) + int(c))
        sure_mask |= bit
        if grid[r, c]:
            sure_filled |= bit
    agreeing = [filled for filled in successors if filled & sure_mask == sure_filled]
    if not agreeing:
        return {"used": False, "settled": [],
                "why": "no grid one placement from the previous state agrees with the sure cells"}
    settled = []
    for r, c in zip(*np.nonzero(doubtful)):
        values = {filled >> (SIZE * int(r) + int(c)) & 1 for filled in agreeing}
        if len(values) == 1:
            grid[r, c] = values.pop()
            confidence[r, c] = max(confidence[r, c], DOUBTFUL_BELOW)
            settled.append([int(r), int(c)])
    return {"used": bool(settled), "settled": settled, "candidates": len(agreeing)}
