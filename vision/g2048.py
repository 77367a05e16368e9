"""2048 board reader: the 4×4 board, every tile's value (super tiles by their digits), the overlay,
and the SCORE / BEST boxes.

How the original page looks is in ``shared/specs/2048.md`` section 5: a rounded #bbada0 square
whose 15 px border and gaps (on a 500 px board) frame 16 cells, empty ones #ccc0b4, tiles in one
colour per value up to 2048 and one dark colour for every value above, numbers in Clear Sans Bold.

Finding the board (any scale, any page around it): the most common colours of a reduced copy of
the image are tried as the board's colour; a connected patch of one of them (or patches a tile's
glow cut apart) that is square and whose column and row profiles show five bands of that colour
at equal steps (the border, three gaps, the border) with little of it in between is the board.
A small board in a large screenshot is looked for again on larger copies. Its gap is fitted from
the profiles,
then the board is cut from the full image and scaled to ``CANONICAL_SIDE`` pixels, where the
edges are measured again and every cell is read.

Reading a cell: its background is the commonest colour inside it (digits, overlay letters and a
glow cover less); the tile's extent is where that colour reaches, so a tile still growing in its
appear animation is read too. Every value 0, 2 ... 131072 gets a cost: how far the background
is from the value's colour in Lab, plus how badly its digits match what is written. The digits
are the patches of ink on the text line, ink being pixels toward the page's text colour for the
value (dark on 2 and 4, light above, so an overlay's words of the other colour fall out); each
is scaled to a template patch and correlated with the templates of
``assets/vision/g2048/digits.png`` (Clear Sans Bold, the page's font, and DejaVu Sans Bold,
rendered by ``make_templates.py``). The cheapest value wins and the cell's confidence is the
margin to the next cheapest. Tiles above 2048 share one colour, so only their digits tell them
apart; with no digit to see, every value of the colour costs the same and the cell is doubtful.

SCORE and BEST are read with the same templates from the two boxes of the board's colour above
the board (a "+N" floating over them is dark and left out); digits under 8 px are not read. A
screenshot without them (Kibitz's own view) has no score in the diagnostics and the state's score
is 0, unless the previous state settles it.

Overlays: "You win!" and "Game over!" lay a half-transparent veil (gold, or the 2 tile's beige)
over the whole board, which tints the board's colour; the tint's strength is fitted against the
page's board colour, reported as ``diagnostics["overlay"]`` ("win", "over" or None) and the
palette is tinted the same way before the cells are read.

Covered cells: a cell is doubtful whatever its costs say when its background is no tile's colour
(a button, an ad), when something that is neither its background nor its digits lies over the
band its number is written in (an overlay's words or buttons, a tile sliding or growing), or when
more marks stand on its number's line than the number has digits (letters of "Game over!" over a
2). A tile caught part way through a slide is drawn off its cell: where its colour reaches is not
centred in the cell (beyond what resampling moves an edge); the other tiles of the slide, each at
its own speed, may be passing just over a cell then, so every cell of such a frame is covered.
With no overlay on the board, covered cells mean a frame caught mid-animation:
``diagnostics["in_motion"]`` says so for follow mode. The tiles' glow (a gold box-shadow from
128 to 2048) tints the border, gaps and cells around them: the board's colour is taken where it is
plainest, the board's extent is measured through the glow, and an overlay is fitted with the glow
beside its veil. The empty cells' colour is taken from the image's own plain empty cells.

``previous`` (the state before, if known): when cells are doubtful, the boards one slide and one
spawn away from it (the engine's moves and chance outcomes) that agree on the sure cells and the
score read are tried, and the cheapest of them is taken, with its score; a covered cell is settled
only when all of them agree on it. A SCORE read unsure is the doubtful field "score".
"""

from __future__ import annotations

import dataclasses
import functools
import time
from importlib import resources
from typing import Any

import cv2
import numpy as np

from vision.colour import components, lab_image, rgb_of_hex, rgb_of_lab, shrink_by, srgb_to_lab
from vision.grid import banded_grid
from vision.images import board_image
from vision.reading import DOUBTFUL_BELOW, CellGrid, NoBoardFound, Reading

GAME = "2048"
SIZE = 4
#: Every tile value the rules allow (spec 1.7), and 0 for an empty cell.
TILE_VALUES = tuple(1 << exponent for exponent in range(1, 18))
CELL_VALUES = (0, *TILE_VALUES)

#: The board is looked for on a copy halved until its longer side is at most this many pixels
#: (then, if not found, on copies twice as large up to DETECT_LARGEST_SIDE: a small board in a
#: large screenshot) ...
DETECT_LONG_SIDE = 400
DETECT_LARGEST_SIDE = 1000
#: ... and read from a copy where the board is this many pixels across.
CANONICAL_SIDE = 400
#: The commonest colours tried as the board's.
MAX_CANDIDATE_COLOURS = 12
#: A bold digit's usual width against its height (a wider patch is digits that touch).
DIGIT_ASPECT = 0.68
#: The side of a digit template (and of every glyph scaled to be compared with one), and the
#: blur (pixels) both get before they are compared.
TEMPLATE_SIDE = 32
TEMPLATE_BLUR = 1.0

#: The page's colours (spec 5.3), RGB.
BOARD_HEX = "#bbada0"
EMPTY_HEX = "#ccc0b4"
SUPER_HEX = "#3c3a32"
#: Numbers are dark on 2 and 4, light on every other tile.
DARK_TEXT_HEX = "#776e65"
LIGHT_TEXT_HEX = "#f9f6f2"
TILE_HEX = {
    2: "#eee4da", 4: "#ede0c8", 8: "#f2b179", 16: "#f59563", 32: "#f67c5f", 64: "#f65e3b",
    128: "#edcf72", 256: "#edcc61", 512: "#edc850", 1024: "#edc53f", 2048: "#edc22e",
}
#: The glow of the tiles 128 to 2048 over the board around them (spec 5.3: box-shadow in this
#: colour, up to 0.56 opaque), and how far off that line a pixel may be (RGB).
GLOW_HEX = "#f3d774"
GLOW_MAX_ALPHA = 0.6
GLOW_RESIDUAL = 10.0
#: The veil each overlay lays over the board (spec 5.4); its alpha is fitted from the board colour.
OVERLAY_HEX = {"win": "#edc22e", "over": "#eee4da"}
#: An overlay counts from this alpha on (it fades in from 0 to 0.5 on the page).
OVERLAY_MIN_ALPHA = 0.15
OVERLAY_MAX_RESIDUAL = 6.0  # RGB units off the tint line

#: Cost weights: a value's cost = (colour distance / COLOUR_SCALE)² (capped) + DIGIT_WEIGHT ×
#: the sum over its digits of (1 - the glyph's similarity to the digit); a margin of
#: CONFIDENT_MARGIN between the two cheapest is certain.
COLOUR_SCALE = 12.0
COLOUR_COST_CAP = 9.0
DIGIT_WEIGHT = 4.0
SPLIT_PENALTY = 0.1  # per digit found by cutting the ink in equal parts rather than as a patch
INK_ON_EMPTY_COST = 2.0
NO_DIGITS_COST = 3.0  # a tile value where no digit is seen (hidden, or a tile still growing)
UNREADABLE_DIGITS_COST = 6.0  # the most a tile value's digits can cost (a 65536 at phone scale)
UNREAD_DIGITS_COST = 11.0  # digits costing more fit no value: a value above 2048 is not told then
WRONG_LENGTH_SIMILARITY = 0.5  # per digit, for a value with more or fewer digits than the glyphs
SMALLEST_SCORE_DIGIT = 8  # pixels of the image: smaller SCORE / BEST digits are not read
NUMBER_DIGIT_SIMILARITY = 0.4  # a glyph of SCORE / BEST less like any digit leaves the number unread
SURE_DIGIT_SIMILARITY = 0.8  # glyphs that read this well as a value are not cut into other counts
PLAUSIBLE_COLOUR_COST = 3.0  # values this much dearer by colour than the nearest are not split for
CONFIDENT_MARGIN = 2.0
#: A SCORE read with less confidence than this (its digits' least template margin, see
#: read_number) is a doubtful field.
SURE_SCORE_CONFIDENCE = 0.25
#: SCORE digits shorter than this (pixels of the image: about 12 on the page at 50 % zoom, 18 at
#: 75 %) are a few pixels wide: a 3 can pass for a 1 with a fair margin, so they are sure only
#: with SMALL_PRINT_CONFIDENCE.
SMALL_PRINT = 15
SMALL_PRINT_CONFIDENCE = 0.5
#: A doubtful cell settled by the only board reachable from the previous state.
PREVIOUS_CONFIDENCE = 0.8
#: Colours are compared in CIE Lab (``vision.colour``) with lightness counted LIGHTNESS_WEIGHT
#: times (CIE94's parametric lightness factor): the page's colours that must be told apart (the
#: empty cells, the border, the 2 and its text) differ mostly in lightness, and every distance
#: below was measured so. Histogram bins start at LAB_OFFSET below zero (a and b are signed).
LIGHTNESS_WEIGHT = 2.55
LAB_WEIGHTS = np.array([LIGHTNESS_WEIGHT, 1.0, 1.0], dtype=np.float32)
LAB_OFFSET = np.array([0.0, 128.0, 128.0], dtype=np.float32)
#: Lab distances: a pixel this near a tile's colour is the tile; text nearer its tile than
#: INK_DISTANCE is not read.
EXTENT_DISTANCE = 14.0
#: A tile at rest fills its cell, so its colour's extent is centred in it to within what moves an
#: edge: a pixel of the image and one of the board's copy at each of its two edges, and a pixel more.
#: A tile whose extent is farther off centre (board pixels) is drawn part way through a slide.
OFF_CENTRE_PER_IMAGE_PIXEL = 2.0
OFF_CENTRE_SLACK = 3.0
INK_DISTANCE = 20.0
#: A cell is covered (doubtful whatever it reads as) when its background is this far (Lab, times
#: what an overlay leaves of the contrast) from the colour of the value read, or when more than
#: FOREIGN_SHARE of the band its number is written in (or FOREIGN_WHOLE_SHARE of its inside,
#: FOREIGN_INSET in from each side) is farther than FOREIGN_DISTANCE from its background and not on
#: its digits' line.
UNLIKE_PALETTE = 26.0
#: How far (Lab) the empty cells' colour in an image may be from the page's to be taken as it.
EMPTY_COLOUR_REACH = 16.0
FOREIGN_INSET = 0.1
GLYPH_COUNT_INSET = 0.03
FOREIGN_DISTANCE = 18.0
GLOW_STEP_DISTANCE = 7.0
FOREIGN_SHARE = 0.025
FOREIGN_WHOLE_SHARE = 0.3
#: Where a tile's number is written, from the cell's top (share of its height).
NUMBER_BAND = (0.25, 0.75)


def _rgb(hex_colour: str) -> np.ndarray:
    """RGB (0..255, float32) of a page colour."""
    return rgb_of_hex(hex_colour).astype(np.float32)


def _lab(bgr: np.ndarray) -> np.ndarray:
    """The reader's colour space of BGR pixels: Lab (``vision.colour``) with lightness weighted
    by ``LIGHTNESS_WEIGHT``, float32."""
    lab = lab_image(bgr)
    lab[..., 0] *= LIGHTNESS_WEIGHT
    return lab


def _lab_of_rgb(rgb: np.ndarray) -> np.ndarray:
    """The reader's Lab (see :func:`_lab`) of RGB colours (0..255), shape (n, 3)."""
    rgb = np.asarray(rgb, dtype=np.float64).reshape(-1, 3)
    return (srgb_to_lab(rgb / 255.0) * LAB_WEIGHTS).astype(np.float32)


def _rgb_of_lab(lab: np.ndarray) -> np.ndarray:
    """RGB (0..255, float32) of a colour in the reader's Lab."""
    return rgb_of_lab(np.asarray(lab, np.float32) / LAB_WEIGHTS).astype(np.float32)


def _palette_rgb() -> np.ndarray:
    """RGB of every cell value of ``CELL_VALUES``, in that order."""
    colours = [_rgb(EMPTY_HEX)]
    colours += [_rgb(TILE_HEX.get(value, SUPER_HEX)) for value in TILE_VALUES]
    return np.stack(colours)


PALETTE_RGB = _palette_rgb()
DARK_TEXT_VALUES = np.array([value in (2, 4) for value in CELL_VALUES])
LIGHT_TEXT_VALUES = np.array([value >= 8 for value in CELL_VALUES])
DIGIT_COUNTS = np.array([len(str(value)) if value else 0 for value in CELL_VALUES])


# -- templates ----------------------------------------------------------------------------------
def glyph_patch(ink: np.ndarray) -> np.ndarray:
    """A glyph's ink (0..1, cropped to its box) scaled to the template height (or width, for a
    glyph wider than tall) and centred in the square template; shared by the reader and the
    template script."""
    height, width = ink.shape
    if height >= width:
        new_height, new_width = TEMPLATE_SIDE, max(1, min(TEMPLATE_SIDE, round(width * TEMPLATE_SIDE / height)))
    else:
        new_height, new_width = max(1, round(height * TEMPLATE_SIDE / width)), TEMPLATE_SIDE
    shrinking = new_height < height
    scaled = cv2.resize(ink.astype(np.float32), (new_width, new_height),
                        interpolation=cv2.INTER_AREA if shrinking else cv2.INTER_LINEAR)
    patch = np.zeros((TEMPLATE_SIDE, TEMPLATE_SIDE), dtype=np.float32)
    top, left = (TEMPLATE_SIDE - new_height) // 2, (TEMPLATE_SIDE - new_width) // 2
    patch[top:top + new_height, left:left + new_width] = scaled
    return patch


def _standardised(patches: np.ndarray) -> np.ndarray:
    """Rows of flattened patches with zero mean and unit length (for correlation by a dot)."""
    flat = patches.reshape(len(patches), -1).astype(np.float32)
    flat = flat - flat.mean(axis=1, keepdims=True)
    norms = np.linalg.norm(flat, axis=1, keepdims=True)
    return flat / np.maximum(norms, 1e-6)


@dataclasses.dataclass(frozen=True)
class DigitTemplates:
    """The digit templates, ready to compare: ``rows`` (fonts, 10, TEMPLATE_SIDE²) standardised
    after the ``mean`` template is taken off (what every digit shares tells none apart)."""

    rows: np.ndarray
    mean: np.ndarray


def _comparable(patches: np.ndarray) -> np.ndarray:
    """Template-sized patches softened a little (a glyph cut from a screenshot is never as crisp
    as a rendered one)."""
    return np.stack([cv2.GaussianBlur(patch, (0, 0), TEMPLATE_BLUR) for patch in patches])


@functools.lru_cache(maxsize=1)
def digit_templates() -> DigitTemplates:
    """The templates of ``assets/vision/g2048/digits.png`` (one row of ten per font)."""
    data = (resources.files("assets.vision.g2048") / "digits.png").read_bytes()
    strip = cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_GRAYSCALE).astype(np.float32) / 255.0
    fonts = strip.shape[0] // TEMPLATE_SIDE
    patches = _comparable(np.stack([
        strip[f * TEMPLATE_SIDE:(f + 1) * TEMPLATE_SIDE, d * TEMPLATE_SIDE:(d + 1) * TEMPLATE_SIDE]
        for f in range(fonts) for d in range(10)]))
    mean = patches.mean(axis=0)
    return DigitTemplates(_standardised(patches - mean).reshape(fonts, 10, -1), mean)


def digit_similarities(glyphs: list[np.ndarray]) -> np.ndarray:
    """(glyphs, 10): each glyph's correlation with each digit's best-matching template."""
    if not glyphs:
        return np.zeros((0, 10), dtype=np.float32)
    templates = digit_templates()
    rows = _standardised(_comparable(np.stack([glyph_patch(glyph) for glyph in glyphs])) - templates.mean)
    return np.einsum("gp,fdp->gfd", rows, templates.rows).max(axis=1)


# -- finding the board ----------------------------------------------------------------------------
@dataclasses.dataclass(frozen=True)
class Board:
    """Where the board is in an image (pixels), and its colour there (RGB, under any overlay)."""

    left: float
    top: float
    width: float
    height: float
    gap_x: float
    gap_y: float
    colour_rgb: np.ndarray

    @property
    def pitch_x(self) -> float:
        return (self.width - self.gap_x) / SIZE

    @property
    def pitch_y(self) -> float:
        return (self.height - self.gap_y) / SIZE

    def cell_rect(self, row: int, column: int) -> tuple[float, float, float, float]:
        """(x, y, width, height) of cell (row, column)."""
        return (self.left + self.gap_x + column * self.pitch_x, self.top + self.gap_y + row * self.pitch_y,
                self.pitch_x - self.gap_x, self.pitch_y - self.gap_y)

    def scaled(self, factor: float, dx: float = 0.0, dy: float = 0.0) -> Board:
        """The same board in an image scaled by ``factor`` after shifting by (dx, dy)."""
        return dataclasses.replace(self, left=(self.left + dx) * factor, top=(self.top + dy) * factor,
                                   width=self.width * factor, height=self.height * factor,
                                   gap_x=self.gap_x * factor, gap_y=self.gap_y * factor)

    def to_json(self) -> dict[str, Any]:
        return {
            "board_xywh": [round(self.left, 1), round(self.top, 1), round(self.width, 1), round(self.height, 1)],
            "gap_px": round((self.gap_x + self.gap_y) / 2, 2),
            "pitch_px": round((self.pitch_x + self.pitch_y) / 2, 2),
            # each way apart: a capture that cuts the board makes the two differ
            "pitch_xy_px": [round(self.pitch_x, 2), round(self.pitch_y, 2)],
            "gap_xy_px": [round(self.gap_x, 2), round(self.gap_y, 2)],
            "board_colour": "#" + "".join(f"{int(round(v)):02x}" for v in self.colour_rgb),
        }


def _candidate_colours(lab: np.ndarray) -> list[tuple[np.ndarray, float]]:
    """The image's most common colours (Lab) with the tolerance that keeps each apart from the
    others: (colour, tolerance), commonest first."""
    flat = lab[::2, ::2].reshape(-1, 3)
    bins = np.clip(((flat + LAB_OFFSET) * 0.125).astype(np.int32), 0, 31)  # non-negative: truncation floors
    keys = (bins[:, 0] << 10) | (bins[:, 1] << 5) | bins[:, 2]
    counts = np.bincount(keys, minlength=1 << 15)
    sums = [np.bincount(keys, weights=flat[:, channel], minlength=1 << 15) for channel in range(3)]
    minimum = max(12, 0.002 * len(keys))
    top = np.argsort(counts)[::-1][:48]
    top = top[counts[top] >= minimum / 4]
    means = np.stack(sums, axis=1)[top] / counts[top, None]
    # a colour on the edge of two bins is split between them: each bin joins the commonest
    # colour within 5 of it
    owner = np.full(len(top), -1)
    for seed in range(len(top)):
        if owner[seed] < 0:
            owner[(owner < 0) & (np.abs(means - means[seed]).max(axis=1) <= 5.0)] = seed
    seeds = np.unique(owner)
    weights = np.array([counts[top[owner == seed]].sum() for seed in seeds], dtype=np.float64)
    colours = [np.average(means[owner == seed], axis=0, weights=counts[top[owner == seed]]).astype(np.float32)
               for seed in seeds]
    order = [i for i in np.argsort(weights)[::-1] if weights[i] >= minimum][:MAX_CANDIDATE_COLOURS]
    if not order:
        return []
    palette = np.array([colours[i] for i in order])
    distances = np.sqrt(((palette[:, None, :] - palette[None, :, :]) ** 2).sum(axis=2))
    np.fill_diagonal(distances, 80.0)
    tolerances = np.clip(0.5 * distances.min(axis=1), 3.0, 9.0)
    return [(colour, float(tolerance)) for colour, tolerance in zip(palette, tolerances)]


def _components(mask: np.ndarray):
    """OpenCV's connected components (8-connected) with stats, by a one-thread algorithm: the
    default's threads cost more than they save on a reader's small masks."""
    return components(mask, 8, cv2.CCL_BBDT)


def _colour_mask(lab: np.ndarray, colour: np.ndarray, tolerance: float) -> np.ndarray:
    """255 where a Lab pixel is within ``tolerance`` of ``colour`` in every channel, else 0."""
    low = tuple(float(v) for v in np.floor(colour - tolerance))
    high = tuple(float(v) for v in np.ceil(colour + tolerance))
    return cv2.inRange(lab, low, high)


def _patch_groups(stats: np.ndarray, minimum_side: int) -> list[tuple[int, int, int, int]]:
    """Boxes (x, y, w, h) of the large patches of one colour, alone and joined with the patches
    just beside them: a tile's glow can tint a whole gap and cut the board's colour in two."""
    stats = stats[1:]
    large = stats[(np.maximum(stats[:, 2], stats[:, 3]) >= minimum_side / 2) & (stats[:, 4] >= minimum_side)]
    large = large[np.argsort(-large[:, 2] * large[:, 3])][:12]
    boxes = [tuple(int(v) for v in stat[:4]) for stat in large]
    groups = list(boxes)
    for first in boxes[:4]:
        x0, y0, x1, y1 = first[0], first[1], first[0] + first[2], first[1] + first[3]
        grown = True
        while grown:
            grown = False
            for x, y, w, h in boxes:
                if x >= x0 and y >= y0 and x + w <= x1 and y + h <= y1:
                    continue
                reach = 0.06 * max(x1 - x0, y1 - y0, w, h)
                overlap_x = min(x1, x + w) - max(x0, x)
                overlap_y = min(y1, y + h) - max(y0, y)
                beside = (overlap_x >= 0.5 * min(w, x1 - x0) and max(y - y1, y0 - y - h) <= reach) \
                    or (overlap_y >= 0.5 * min(h, y1 - y0) and max(x - x1, x0 - x - w) <= reach)
                if beside:
                    x0, y0, x1, y1 = min(x0, x), min(y0, y), max(x1, x + w), max(y1, y + h)
                    grown = True
        if (x0, y0, x1 - x0, y1 - y0) not in groups:
            groups.append((x0, y0, x1 - x0, y1 - y0))
    return groups


def _board_box(mask: np.ndarray, minimum_side: int) -> tuple[int, int, int, int] | None:
    """The largest square patch (or group of patches) of ``mask`` that looks like a 4×4 board."""
    _, _, stats, _ = _components(mask)
    found = None
    for x, y, w, h in _patch_groups(stats, minimum_side):
        if w < minimum_side or h < minimum_side or not 0.85 <= w / h <= 1.18:
            continue
        if found is not None and w * h <= found[2] * found[3]:
            continue
        patch = mask[y:y + h, x:x + w] > 0
        if banded_grid(patch.mean(axis=0), SIZE) is not None and banded_grid(patch.mean(axis=1), SIZE) is not None:
            found = (x, y, w, h)
    return found


def _find_board_reduced(image: np.ndarray, halvings: int, through_glow: bool = False):
    """On a copy halved ``halvings`` times: ((x, y, w, h) in the image's pixels, board colour in
    Lab, its tolerance), or None. The commonest colours are tried in turn; the first that makes
    a board is the board's. ``through_glow``: a colour's patch takes in that colour under the
    tiles' glow too (a board full of 128 to 2048 tiles is tinted all over)."""
    small = image
    for _ in range(halvings):  # OpenCV halves much faster than it averages larger squares
        small = shrink_by(small, 2)
    # halving averages noise away; at full size a blur does it (it would wipe thin gaps out)
    lab = _lab(small if halvings else cv2.blur(small, (3, 3)))
    minimum_side = max(24, int(0.05 * max(small.shape[:2])))
    for colour, tolerance in _candidate_colours(lab):
        mask = _colour_mask(lab, colour, tolerance)
        if through_glow:
            rgb = _rgb_of_lab(colour)
            mask |= _glowing_board(small, rgb).astype(np.uint8) * 255
        if cv2.countNonZero(mask) > 0.5 * mask.size:  # the page around the board, not the board
            continue
        # a board's border is an unbroken line of its colour, at least minimum_side long, both ways
        run = int(0.8 * minimum_side)
        if not cv2.erode(mask, np.ones((1, run), np.uint8)).any() \
                or not cv2.erode(mask, np.ones((run, 1), np.uint8)).any():
            continue
        box = _board_box(mask, minimum_side)
        if box is not None:
            scale = image.shape[1] / small.shape[1]
            return tuple(float(v) * scale for v in box), colour, tolerance
    return None


def _resized(image: np.ndarray, factor: float) -> np.ndarray:
    """``image`` scaled by ``factor``: halved by averaging while that is at most half, then
    interpolated (cheaper than averaging at an arbitrary ratio, and as good for reading)."""
    while factor <= 0.5:  # OpenCV halves much faster than it averages larger squares
        image, factor = shrink_by(image, 2), factor * 2
    if abs(factor - 1.0) < 1e-3:
        return image
    return cv2.resize(image, None, fx=factor, fy=factor, interpolation=cv2.INTER_LINEAR)


def locate_board(image: np.ndarray) -> tuple[tuple[float, float, float, float], np.ndarray, float]:
    """Roughly where the board is: ((x, y, w, h) in the image's pixels, its colour in Lab, the
    colour's tolerance). Raises :class:`NoBoardFound`."""
    height, width = image.shape[:2]
    if min(height, width) < 32:
        raise NoBoardFound(f"the image is too small ({width}×{height} px) to hold a readable board")
    halvings = 0
    while max(height, width) >> halvings > DETECT_LONG_SIDE:
        halvings += 1
    found = _find_board_reduced(image, halvings)
    first = halvings
    # a small board in a large screenshot: look again on larger copies
    while found is None and halvings > 0 and max(height, width) >> (halvings - 1) <= DETECT_LARGEST_SIDE:
        halvings -= 1
        found = _find_board_reduced(image, halvings)
    # a board tinted all over by its tiles' glow
    halvings = first
    found = found or _find_board_reduced(image, halvings, through_glow=True)
    while found is None and halvings > 0 and max(height, width) >> (halvings - 1) <= DETECT_LARGEST_SIDE:
        halvings -= 1
        found = _find_board_reduced(image, halvings, through_glow=True)
    if found is None:
        raise NoBoardFound("no square of one colour with a 4×4 grid of cells in it "
                           "(the board's border and gaps)")
    return found


@dataclasses.dataclass(frozen=True)
class BoardImage:
    """The board cut from the image and scaled to about ``CANONICAL_SIDE`` pixels across, with
    the board measured on it; ``factor`` and ``offset`` lead back to the image's pixels."""

    lab: np.ndarray  # float32
    board: Board  # in this crop's pixels
    factor: float
    offset: tuple[int, int]

    def board_in_image(self) -> Board:
        return self.board.scaled(1 / self.factor).scaled(1.0, *self.offset)


def cut_board(image: np.ndarray, box: tuple[float, float, float, float], colour: np.ndarray,
                tolerance: float) -> BoardImage:
    """Cut the board found at ``box`` (on a reduced copy, so only roughly) with a margin, scale it
    and measure it again: its edges are where the board's colour fills most of a column (row)."""
    x, y, w, h = box
    margin = 0.025 * max(w, h) + 2
    x0, y0 = max(0, int(x - margin)), max(0, int(y - margin))
    x1, y1 = min(image.shape[1], int(np.ceil(x + w + margin))), min(image.shape[0], int(np.ceil(y + h + margin)))
    factor = CANONICAL_SIDE / max(w, h)
    crop = _resized(image[y0:y1, x0:x1], factor)
    lab = _lab(crop)
    # the board's colour: its pixels nearest the commonest board colour found (a tile's glow
    # tints the border and gaps near it, and must not tint the colour an overlay is told by)
    plain = _colour_mask(cv2.blur(lab, (3, 3)), colour, min(tolerance, 4.0))
    if cv2.countNonZero(plain) < 16:
        plain = _colour_mask(lab, colour, tolerance + 2)
    colour_rgb = np.array(cv2.mean(crop, plain)[2::-1], dtype=np.float32)
    mask = (_colour_mask(lab, colour, tolerance + 2) > 0) | _glowing_board(crop, colour_rgb)
    rough = ((x - x0) * factor, (x + w - x0) * factor), ((y - y0) * factor, (y + h - y0) * factor)
    edges = []
    for axis in (0, 1):
        profile = mask.mean(axis=axis)
        inside = np.flatnonzero(profile > 0.4 * profile.max())
        if len(inside) < 2:
            raise NoBoardFound("the board vanished when measured at full resolution")
        edges.append((int(inside[0]), int(inside[-1]) + 1))
    # the board is square: a side much shorter than the other lost a border or a gap to a glow
    # or a cover; the rough box (found on the patch as a whole) tells that side's edges then
    lengths = [end - start for start, end in edges]
    for axis in (0, 1):
        if lengths[axis] < 0.96 * lengths[1 - axis]:
            start, end = rough[axis]
            if abs((end - start) - lengths[1 - axis]) < 0.06 * lengths[1 - axis]:
                edges[axis] = (int(round(start)), int(round(end)))
    # a line of the board's colour just beside it (an ad's frame, a toolbar) lengthens a side: keep
    # the square whose edges the rough box agrees with
    lengths = [end - start for start, end in edges]
    longer = int(np.argmax(lengths))
    if lengths[longer] > 1.015 * lengths[1 - longer]:
        side = lengths[1 - longer]
        start, end = edges[longer]
        rough_start, rough_end = rough[longer]
        if abs((rough_end - rough_start) - side) < 0.03 * side:
            edges[longer] = (int(round(rough_start)), int(round(rough_end)))
        else:
            edges[longer] = min([(start, start + side), (end - side, end)],
                                key=lambda edge: abs(edge[0] - rough_start) + abs(edge[1] - rough_end))
    (bx0, bx1), (by0, by1) = edges
    patch = mask[by0:by1, bx0:bx1]
    across, down = banded_grid(patch.mean(axis=0), SIZE), banded_grid(patch.mean(axis=1), SIZE)
    if across is None or down is None:
        raise NoBoardFound("the board's grid of cells did not hold at full resolution")
    board = Board(float(bx0), float(by0), float(bx1 - bx0), float(by1 - by0), across.gap, down.gap, colour_rgb)
    return BoardImage(lab.astype(np.float32), board, factor, (x0, y0))


def _glowing_board(crop: np.ndarray, board_rgb: np.ndarray) -> np.ndarray:
    """Where the board's colour shows under a tile's glow (the page's 128 to 2048 tiles cast a
    gold glow over the border and gaps around them): pixels on the line from the board's colour
    toward the glow's, up to the glow's strongest."""
    # under an overlay's veil the glow shows that much fainter (and a veiled gold tile would
    # otherwise lie on its line)
    _, veil = fit_overlay(board_rgb)
    strongest = GLOW_MAX_ALPHA * (1.0 - veil)
    direction = (_rgb(GLOW_HEX) - _rgb(BOARD_HEX))[::-1]  # BGR, as the image
    length2 = float(np.dot(direction, direction))
    pixels = cv2.subtract(crop.astype(np.float32), tuple(float(v) for v in board_rgb[::-1]) + (0.0,))
    along = cv2.transform(pixels, (direction / length2).reshape(1, 3).astype(np.float32))
    squares = cv2.transform(cv2.multiply(pixels, pixels), np.ones((1, 3), np.float32))
    across2 = squares - along * along * length2  # what is off the line, squared
    return (along > -0.03) & (along < strongest) & (across2 < GLOW_RESIDUAL ** 2)


def find_board(image: np.ndarray) -> Board:
    """The board in a BGR image, in the image's pixels. Raises :class:`NoBoardFound`."""
    return cut_board(image, *locate_board(image)).board_in_image()


# -- overlays --------------------------------------------------------------------------------------
def fit_overlay(board_rgb: np.ndarray) -> tuple[str | None, float]:
    """Which overlay veils the board, and how strongly: the board's measured colour against the
    page's board colour tinted toward each overlay's colour. (None, 0.0) when there is none."""
    base = _rgb(BOARD_HEX)
    glow = _rgb(GLOW_HEX) - base
    best: tuple[str | None, float] = (None, 0.0)
    best_residual = OVERLAY_MAX_RESIDUAL
    for name, hex_colour in OVERLAY_HEX.items():
        # the board seen may be tinted by tiles' glows under the veil: fit both at once
        direction = _rgb(hex_colour) - base
        (alpha, glowing), *_ = np.linalg.lstsq(np.stack([direction, glow], axis=1), board_rgb - base, rcond=None)
        if not 0.0 <= glowing <= GLOW_MAX_ALPHA:
            glowing = float(np.clip(glowing, 0.0, GLOW_MAX_ALPHA))
            alpha = float(np.dot(board_rgb - base - glowing * glow, direction) / np.dot(direction, direction))
        residual = float(np.linalg.norm(board_rgb - base - alpha * direction - glowing * glow))
        if OVERLAY_MIN_ALPHA <= alpha <= 1.0 and residual < best_residual:
            best, best_residual = (name, float(alpha)), residual
    return best


@dataclasses.dataclass(frozen=True)
class Palette:
    """The page's colours in Lab as they show under an overlay (or none): each cell value's
    background, the two text colours, and how much of the colours' contrast the veil leaves."""

    tiles: np.ndarray  # one per CELL_VALUES
    dark_text: np.ndarray
    light_text: np.ndarray
    contrast: float


def tinted_palette(overlay: str | None, alpha: float) -> Palette:
    """The palette under ``overlay`` laid with ``alpha`` (the plain palette without one)."""
    colours = np.vstack([PALETTE_RGB, _rgb(DARK_TEXT_HEX), _rgb(LIGHT_TEXT_HEX)])
    if overlay is None:
        alpha = 0.0
    else:
        colours = (1 - alpha) * colours + alpha * _rgb(OVERLAY_HEX[overlay])
    lab = _lab_of_rgb(colours)
    return Palette(lab[:-2], lab[-2], lab[-1], max(0.2, 1.0 - alpha))


# -- reading a cell ----------------------------------------------------------------------------------
@dataclasses.dataclass(frozen=True)
class CellReading:
    """What one cell may hold: a cost per value of ``CELL_VALUES`` (lower is likelier), and why
    it cannot be trusted whatever the costs say (``covered``: something not of a tile or an empty
    cell lies on it; None when nothing does)."""

    costs: np.ndarray
    covered: str | None = None

    @property
    def order(self) -> np.ndarray:
        return np.argsort(self.costs)

    @property
    def value(self) -> int:
        return CELL_VALUES[int(self.order[0])]

    @property
    def confidence(self) -> float:
        if self.covered:
            return 0.0
        best, second = self.costs[self.order[:2]]
        return float(np.clip((second - best) / CONFIDENT_MARGIN, 0.0, 1.0))

    def cost_of(self, value: int) -> float:
        return float(self.costs[CELL_VALUES.index(value)])


def _backgrounds(insides: np.ndarray) -> np.ndarray:
    """The commonest colour (Lab) of each of a stack of cell insides (cells, h, w, 3): the mode
    of a coarse histogram, then the mean of the pixels near it."""
    count = len(insides)
    flat = insides.reshape(count, -1, 3)
    bins = np.clip(((flat + LAB_OFFSET) * 0.125).astype(np.int32), 0, 31)  # non-negative: truncation floors
    keys = ((bins[..., 0] << 10) | (bins[..., 1] << 5) | bins[..., 2]) + (np.arange(count)[:, None] << 15)
    modes = np.bincount(keys.ravel(), minlength=count << 15).reshape(count, -1).argmax(axis=1)
    centres = np.stack([modes >> 10, (modes >> 5) & 31, modes & 31], axis=1).astype(np.float32) * 8 + 4 - LAB_OFFSET
    near = (((flat - centres[:, None, :]) ** 2).sum(axis=2) < 10 ** 2).astype(np.float32)
    sums = np.einsum("np,npc->nc", near, flat)
    found = near.sum(axis=1)[:, None]
    return np.where(found > 0, sums / np.maximum(found, 1), centres)


def _runs(flags: np.ndarray) -> list[tuple[int, int]]:
    """(start, end) of the runs of True, end exclusive."""
    edges = np.diff(np.concatenate([[0], flags.astype(np.int8), [0]]))
    return list(zip(np.flatnonzero(edges == 1).tolist(), np.flatnonzero(edges == -1).tolist()))


def _ink(lab_region: np.ndarray, background: np.ndarray, text_lab: np.ndarray) -> np.ndarray | None:
    """How much each pixel is ink of ``text_lab`` (0..1): its position from the background toward
    that colour, so letters of another colour (an overlay's words, a button) fall out. None when
    there is no such ink, or the text's colour is too near the background's to tell."""
    axis = text_lab - background
    length2 = float(np.dot(axis, axis))
    if length2 < INK_DISTANCE ** 2:
        return None
    ink = np.clip((lab_region - background) @ (axis / length2), 0.0, 1.0)
    if (ink > 0.5).mean() < 0.004:
        return None
    return ink


def glyphs_of(ink: np.ndarray) -> list[tuple[int, int, int, int]]:
    """The boxes (x, y, w, h) of the glyphs on the text line of an ink map, left to right: the
    patches of ink at least half as tall as the tallest, on its line, not cut by the top or bottom
    edge (overlay letters, buttons)."""
    height, width = ink.shape
    count, _, stats, _ = _components((ink > 0.5).astype(np.uint8))
    boxes = []
    for x, y, w, h, area in stats[1:]:
        if y <= 0 or y + h >= height or h < 0.12 * height or area < 0.1 * h * max(1, w) or area < 6:
            continue
        boxes.append((int(x), int(y), int(w), int(h)))
    if not boxes:
        return []
    tallest = max(boxes, key=lambda box: box[3])
    line_top, line_bottom = tallest[1], tallest[1] + tallest[3]
    line = [box for box in boxes if box[3] >= 0.5 * tallest[3]
            and line_top - 0.2 * tallest[3] <= box[1] + box[3] / 2 <= line_bottom + 0.2 * tallest[3]]
    return sorted(line)


def _digit_costs(ink: np.ndarray | None, plausible: np.ndarray) -> tuple[np.ndarray, int]:
    """Per cell value, the digit part of its cost, and the number of glyphs found. Values with as
    many digits as glyphs are compared glyph by glyph; ``plausible`` values (by colour) with one
    digit fewer or up to two more are compared with the ink cut into equal parts (glyphs that
    touch, or a speck taken for a glyph); the rest cost as if each digit matched badly. Without
    any glyph every value costs the same: the colour decides."""
    boxes = glyphs_of(ink) if ink is not None else []
    if not boxes:
        return np.array([0.0, *[NO_DIGITS_COST] * len(TILE_VALUES)], dtype=np.float32), 0
    costs = np.array([0.0, *(DIGIT_WEIGHT * WRONG_LENGTH_SIMILARITY * max(len(str(value)), len(boxes))
                             for value in TILE_VALUES)], dtype=np.float32)
    costs[0] = INK_ON_EMPTY_COST
    found = digit_similarities([ink[y:y + h, x:x + w] for x, y, w, h in boxes])
    left, right = min(x for x, _, _, _ in boxes), max(x + w for x, _, w, _ in boxes)
    top, bottom = min(y for _, y, _, _ in boxes), max(y + h for _, y, _, h in boxes)
    for index in np.flatnonzero(DIGIT_COUNTS == len(boxes)):
        digits = [int(d) for d in str(CELL_VALUES[index])]
        costs[index] = DIGIT_WEIGHT * float(np.sum(1.0 - found[np.arange(len(digits)), digits]))
    matched = plausible & (DIGIT_COUNTS == len(boxes))
    if matched.any() and costs[matched].min() <= DIGIT_WEIGHT * (1 - SURE_DIGIT_SIMILARITY) * len(boxes):
        return costs, len(boxes)  # the patches read well: no need to look for touching glyphs
    for count in sorted(set(DIGIT_COUNTS[plausible & (DIGIT_COUNTS != len(boxes))].tolist())):
        if count == 0 or not -1 <= count - len(boxes) <= 2:
            continue
        edges = np.round(np.linspace(left, right, count + 1)).astype(int)
        slots = [ink[top:bottom, edges[k]:max(edges[k + 1], edges[k] + 1)] for k in range(count)]
        similarities = digit_similarities([_tight(slot) for slot in slots])
        for index in np.flatnonzero(plausible & (DIGIT_COUNTS == count)):
            digits = [int(d) for d in str(CELL_VALUES[index])]
            mismatch = np.sum(1.0 - similarities[np.arange(count), digits])
            costs[index] = DIGIT_WEIGHT * float(mismatch + SPLIT_PENALTY * count)
    return costs, len(boxes)


def _tight(ink: np.ndarray) -> np.ndarray:
    """``ink`` cropped to where it is."""
    rows, columns = np.flatnonzero(ink.max(axis=1) > 0.3), np.flatnonzero(ink.max(axis=0) > 0.3)
    if not len(rows) or not len(columns):
        return ink
    return ink[rows[0]:rows[-1] + 1, columns[0]:columns[-1] + 1]


SLIDING = "a tile is drawn out of its place"
MID_SLIDE = "the board is caught mid-slide"


def _off_centre(near: np.ndarray) -> float:
    """How far (pixels) the extent of a cell's ``near`` pixels (its background's colour) is from
    centred in the cell, across or down, whichever is more."""
    side = near.shape[0]
    columns = np.flatnonzero(near.mean(axis=0) > 0.3)
    rows = np.flatnonzero(near.mean(axis=1) > 0.3)
    across = abs(int(columns[0]) - (side - 1 - int(columns[-1]))) if len(columns) else 0
    down = abs(int(rows[0]) - (side - 1 - int(rows[-1]))) if len(rows) else 0
    return float(max(across, down))


def _near_under_glow(cell: np.ndarray, background: np.ndarray, contrast: float) -> np.ndarray:
    """Where a cell shows its background's colour, plain or under a neighbour's glow (the page
    draws later tiles' glow over earlier tiles, tinting an edge)."""
    difference = cell - background
    near = np.einsum("yxc,yxc->yx", difference, difference) < EXTENT_DISTANCE ** 2
    for glow in _glow_steps(background, contrast):
        step = cell - glow
        near |= np.einsum("yxc,yxc->yx", step, step) < EXTENT_DISTANCE ** 2
    return near


def read_cells(lab: np.ndarray, board: Board, palette: Palette, image_pixel: float = 1.0,
               veiled: bool = False) -> list[CellReading]:
    """Costs of every value for each cell, row by row, of a Lab (float32) image of the board.
    ``image_pixel``: the board copy's pixels per pixel of the image it was cut from; ``veiled``:
    an overlay lies over the board (its words and buttons cut tiles' edges, and nothing slides
    under it)."""
    rects = [board.cell_rect(row, column) for row in range(SIZE) for column in range(SIZE)]
    side = int(min(min(w, h) for _, _, w, h in rects))
    corners = [(int(round(x + (w - side) / 2)), int(round(y + (h - side) / 2))) for x, y, w, h in rects]
    cells = np.stack([lab[y:y + side, x:x + side] for x, y in corners])
    smooth = cv2.blur(lab, (3, 3))  # dithering and JPEG noise averaged out
    smooth_cells = [smooth[y:y + side, x:x + side] for x, y in corners]
    inset = int(0.12 * side)
    backgrounds = _backgrounds(cells[:, inset:side - inset:2, inset:side - inset:2])
    differences = cells - backgrounds[:, None, None, :]
    # each tile's extent: where its colour reaches (a new tile grows from the middle)
    near = np.einsum("nyxc,nyxc->nyx", differences, differences) < EXTENT_DISTANCE ** 2
    column_share, row_share = near.mean(axis=1), near.mean(axis=2)
    palette = _with_empty_colour_seen(palette, backgrounds, near.mean(axis=(1, 2)))
    palette_distance = np.sqrt(((backgrounds[:, None, :] - palette.tiles[None, :, :]) ** 2).sum(axis=2))
    colour_costs = np.minimum((palette_distance / (COLOUR_SCALE * palette.contrast)) ** 2, COLOUR_COST_CAP)
    off_centre_limit = OFF_CENTRE_PER_IMAGE_PIXEL * image_pixel + OFF_CENTRE_SLACK
    readings = []
    for index in range(len(cells)):
        columns = np.flatnonzero(column_share[index] > 0.3)
        rows = np.flatnonzero(row_share[index] > 0.3)
        left, right = (columns[0], columns[-1] + 1) if len(columns) else (0, side)
        top, bottom = (rows[0], rows[-1] + 1) if len(rows) else (0, side)
        margin_x, margin_y = max(1, int(0.015 * side)), int(0.12 * (bottom - top))
        region = cells[index][top + margin_y:bottom - margin_y, left + margin_x:right - margin_x]
        costs = colour_costs[index]
        plausible = costs <= costs.min() + PLAUSIBLE_COLOUR_COST
        # the digits, in the text colour of the values the colour allows (dark on 2 and 4)
        digit_costs = np.array([0.0, *[NO_DIGITS_COST] * len(TILE_VALUES)], dtype=np.float32)
        glyphs = 0
        unread = np.zeros(len(CELL_VALUES), bool)  # values whose digits were seen but fit none
        weak = np.zeros(len(CELL_VALUES), bool)  # ... or fit badly
        for text_lab, written in ((palette.dark_text, DARK_TEXT_VALUES), (palette.light_text, LIGHT_TEXT_VALUES)):
            if not region.size or not (plausible & written).any():
                continue
            found_costs, found = _digit_costs(_ink(region, backgrounds[index], text_lab), plausible & written)
            # digits that fit no value well still rank the values, but say no more against the
            # colour than digits hardly seen (a 65536 at phone scale is not an empty cell)
            best = float(found_costs[plausible & written].min())
            digit_costs[written] = found_costs[written] - max(0.0, best - UNREADABLE_DIGITS_COST)
            if best > UNREAD_DIGITS_COST:
                unread |= written
            if best > UNREADABLE_DIGITS_COST:
                weak |= written
            glyphs = max(glyphs, found)
        if glyphs:
            digit_costs[0] = INK_ON_EMPTY_COST
        total = costs + digit_costs
        chosen = int(np.argmin(total))
        covered = None
        if palette_distance[index, chosen] > UNLIKE_PALETTE * palette.contrast:
            covered = "its colour is no tile's"
        elif not veiled and _off_centre(near[index]) > off_centre_limit \
                and _off_centre(_near_under_glow(cells[index], backgrounds[index], palette.contrast)) > off_centre_limit:
            # part of the cell shows another colour along one edge only: a tile caught part way
            # through a slide (the cell may hold it before, after or neither)
            covered = SLIDING
        elif CELL_VALUES[chosen] > 2048 and (glyphs != DIGIT_COUNTS[chosen] or unread[chosen]):
            # the values above 2048 share one colour: only their digits, each found on its own
            # and fitting, tell them apart (tiny ones run together or fit no template)
            covered = "its digits cannot be told apart"
        elif palette.contrast < 1.0 and CELL_VALUES[chosen] and weak[chosen]:
            # under an overlay's veil the golds look alike and the message's letters are drawn
            # in the digits' colour: digits that fit badly may be letters
            covered = "its digits are not clear under the overlay"
        else:
            middle, whole = _foreign_shares(smooth_cells[index], cells[index], backgrounds[index], chosen, palette)
            if middle > FOREIGN_SHARE or whole > FOREIGN_WHOLE_SHARE:
                covered = "something lies over it"
        readings.append(CellReading(total, covered))
    if any(reading.covered == SLIDING for reading in readings):
        # the tiles of a slide move together, each at its own speed: one of them may be passing
        # just over a cell as the frame is taken, drawn there as if it rested
        readings = [reading if reading.covered else dataclasses.replace(reading, covered=MID_SLIDE)
                    for reading in readings]
    return readings


def _with_empty_colour_seen(palette: Palette, backgrounds: np.ndarray, plain_shares: np.ndarray) -> Palette:
    """The palette with the empty cells' colour as this image shows it: the median of the plain
    cells (all one colour) nearer the page's empty colour than EMPTY_COLOUR_REACH and nearer it
    than any tile's (a clone's, a screen's or a capture's colours are a little off the page's)."""
    distances = np.sqrt(((backgrounds[:, None, :] - palette.tiles[None, :, :]) ** 2).sum(axis=2))
    empty = (plain_shares > 0.97) & (distances.argmin(axis=1) == 0) \
        & (distances[:, 0] < EMPTY_COLOUR_REACH * palette.contrast)
    if not empty.any():
        return palette
    tiles = palette.tiles.copy()
    tiles[0] = np.median(backgrounds[empty], axis=0)
    return dataclasses.replace(palette, tiles=tiles)


def _glow_steps(background_lab: np.ndarray, contrast: float) -> np.ndarray:
    """Lab of ``background_lab`` under the tiles' glow at a few strengths up to the strongest
    (less under an overlay's veil, which leaves ``contrast`` of it)."""
    rgb = _rgb_of_lab(background_lab)
    alphas = np.linspace(0.1, 1.0, 6)[:, None] * GLOW_MAX_ALPHA * contrast
    return _lab_of_rgb((1 - alphas) * rgb + alphas * _rgb(GLOW_HEX))


def _foreign_shares(cell: np.ndarray, sharp: np.ndarray, background: np.ndarray, value_index: int,
                    palette: Palette) -> tuple[float, float]:
    """The share of a cell's inside (smoothed Lab) that is neither its background nor the digits
    on its text line: an overlay's words or buttons, a tile sliding or growing, an ad. Digits are
    allowed where :func:`glyphs_of` finds them, a little widened. Two shares: in the middle band
    where a tile's number is written (a cover there may hide it), and over the whole inside (a
    cover along an edge leaves the number and the colour to be seen). ``cell`` is smoothed (for
    what lies over it), ``sharp`` is not (for digits a few pixels tall)."""
    side = cell.shape[0]
    inset = int(FOREIGN_INSET * side)
    inside = cell[inset:side - inset, inset:side - inset]
    difference = inside - background
    far = np.einsum("yxc,yxc->yx", difference, difference) > FOREIGN_DISTANCE ** 2
    if not far.any():
        return 0.0, 0.0
    # a neighbour's glow laid over the cell (the page draws later tiles' glow over earlier tiles)
    for glow in _glow_steps(background, palette.contrast):
        step = inside - glow
        far &= np.einsum("yxc,yxc->yx", step, step) > GLOW_STEP_DISTANCE ** 2
    if CELL_VALUES[value_index]:
        text = palette.dark_text if DARK_TEXT_VALUES[value_index] else palette.light_text
        ink = _ink(sharp[inset:side - inset, inset:side - inset], background, text)
        if ink is not None:
            allowed = np.zeros(far.shape, bool)
            pad = max(2, side // 40)
            boxes = glyphs_of(ink)
            for x, y, w, h in boxes:
                allowed[max(0, y - pad):y + h + pad, max(0, x - pad):x + w + pad] = True
            far &= ~allowed
            # more marks on the line than the number has (looked for nearly to the cell's edges):
            # an overlay's letters over it
            edge = int(GLYPH_COUNT_INSET * side)
            wide = _ink(sharp[edge:side - edge, edge:side - edge], background, text)
            if len(boxes) > DIGIT_COUNTS[value_index] \
                    or (wide is not None and len(glyphs_of(wide)) > DIGIT_COUNTS[value_index]):
                return 1.0, 1.0
    band = far[int(NUMBER_BAND[0] * side) - inset:int(NUMBER_BAND[1] * side) - inset]
    return float(band.mean()), float(far.mean())


# -- the SCORE and BEST boxes ------------------------------------------------------------------------
def read_number(ink: np.ndarray) -> tuple[int, float] | None:
    """The number written on the text line of an ink map, and how sure (the smallest margin
    between a digit's best and second-best template, over 0.3 = sure). None if a glyph matches
    no digit well."""
    glyphs = []
    for x, y, w, h in glyphs_of(ink):
        # digits that touch (small print) make one wide patch: cut it in digit-wide parts
        parts = max(1, round(w / (DIGIT_ASPECT * h)))
        edges = np.round(np.linspace(x, x + w, parts + 1)).astype(int)
        glyphs += [_tight(ink[y:y + h, edges[k]:edges[k + 1]]) for k in range(parts)]
    if not glyphs:
        return None
    similarities = digit_similarities(glyphs)
    ordered = np.sort(similarities, axis=1)
    if ordered[:, -1].min() < NUMBER_DIGIT_SIMILARITY:
        return None
    margin = float((ordered[:, -1] - ordered[:, -2]).min())
    digits = "".join(str(int(d)) for d in similarities.argmax(axis=1))
    return int(digits), float(np.clip(margin / 0.3, 0.0, 1.0))


def read_score_boxes(image: np.ndarray, board: Board) -> dict[str, Any]:
    """SCORE and BEST from the two boxes of the board's colour above the board (the page's
    header), as ``{"score": n, "best": n, "score_confidence": c, ...}``; what cannot be read is
    left out."""
    side = max(board.width, board.height)
    x0, x1 = max(0, int(board.left - 0.1 * side)), min(image.shape[1], int(board.left + 1.1 * side))
    y0, y1 = max(0, int(board.top - 0.5 * side)), max(0, int(board.top - 0.02 * side))
    if y1 - y0 < 0.05 * side or x1 <= x0:
        return {}
    factor = CANONICAL_SIDE / side
    region = _resized(image[y0:y1, x0:x1], factor)
    lab = _lab(region)
    box_lab = _lab_of_rgb(_rgb(BOARD_HEX))[0]
    count, _, stats, _ = _components(_colour_mask(cv2.blur(lab, (3, 3)), box_lab, 8.0))
    boxes = [tuple(int(v) for v in stats[index][:4]) for index in range(1, count)
             if 0.08 * CANONICAL_SIDE <= stats[index][2] <= 0.5 * CANONICAL_SIDE
             and 0.06 * CANONICAL_SIDE <= stats[index][3] <= 0.2 * CANONICAL_SIDE
             and stats[index][4] >= 0.5 * stats[index][2] * stats[index][3]]
    boxes.sort()
    found: dict[str, Any] = {}
    labf = lab.astype(np.float32)
    # the page's SCORE box is left of its BEST box (a lone box is the score)
    for name, (x, y, w, h) in zip(("score", "best"), boxes[-2:]):
        inside = labf[y:y + h, x:x + w]
        # light text on the box: the value is the lower, taller line (the label is above it)
        ink = np.clip((inside[..., 0] - box_lab[0] - 10) / 40, 0, 1)
        lines = [run for run in _runs((ink > 0.5).any(axis=1)) if run[1] - run[0] >= 0.2 * h]
        if not lines:
            continue
        start, end = max(lines, key=lambda run: (run[1] - run[0], run[0]))
        if (end - start) / factor < SMALLEST_SCORE_DIGIT:
            continue  # too few pixels to tell digits apart: better no score than a wrong one
        line = ink[max(0, start - 2):min(h, end + 2)]
        number = read_number(line)
        if number is not None:
            found[name], found[f"{name}_confidence"] = number[0], round(number[1], 3)
            found[f"{name}_digit_px"] = round((end - start) / factor, 1)
    return found


# -- previous ------------------------------------------------------------------------------------------
def reachable_boards(previous: Any) -> list[tuple[tuple[int, ...], int]]:
    """(cell values row by row, score) of every position one slide and one spawn from
    ``previous`` (or its due spawns), and ``previous`` itself."""
    from engines import GAMES

    game = GAMES[GAME]
    results = [(tuple(v for row in previous.rows for v in row), previous.score)]
    frontier = [previous]
    if not previous.spawns_due:
        frontier = [game.play(previous, move).state for move in game.legal_moves(previous)]
    for state in frontier:
        for spawn, _ in game.chance_outcomes(state):
            after = game.apply_chance(state, spawn).state
            results.append((tuple(v for row in after.rows for v in row), after.score))
    return results


def _prefer_previous(readings: list[CellReading], values: list[int], confidence: np.ndarray,
                     previous: Any, score: int | None) -> tuple[list[int], np.ndarray, int, bool] | None:
    """Where cells are doubtful: the cheapest board reachable from ``previous`` that keeps every
    sure cell (and the score read, if one was), with its confidence and score; None if there is
    none, and whether every such board has that score. The doubtful cells become sure only when
    no other such board comes close."""
    sure = confidence.ravel() >= DOUBTFUL_BELOW
    options = []
    for board, board_score in reachable_boards(previous):
        if (score is None or board_score == score) and all(board[i] == values[i] for i in range(16) if sure[i]):
            options.append((sum(readings[i].cost_of(board[i]) for i in range(16)), board, board_score))
    if not options:
        return None
    options.sort(key=lambda option: option[0])
    _, board, board_score = options[0]
    updated = confidence.ravel().copy()
    settled = len(options) == 1 or options[1][0] - options[0][0] >= CONFIDENT_MARGIN
    for index in np.flatnonzero(~sure):
        # a covered cell's costs say nothing: it is settled only when every such board agrees on it
        if readings[index].covered:
            agreed = len({option[1][index] for option in options}) == 1
        else:
            agreed = settled
        if agreed:
            updated[index] = max(updated[index], PREVIOUS_CONFIDENCE)
    scores_agree = len({option[2] for option in options}) == 1
    return list(board), updated.reshape(SIZE, SIZE), board_score, scores_agree


# -- the reader ------------------------------------------------------------------------------------------
def read(image: np.ndarray, previous: Any = None) -> Reading:
    """Read the 2048 board in a BGR image (see the module's docstring). Raises
    :class:`NoBoardFound` when there is none."""
    started = time.perf_counter()
    image = board_image(image)
    cut = cut_board(image, *locate_board(image))
    board = cut.board_in_image()
    overlay, alpha = fit_overlay(cut.board.colour_rgb)
    readings = read_cells(cut.lab, cut.board, tinted_palette(overlay, alpha), cut.factor, overlay is not None)
    values = [reading.value for reading in readings]
    confidence = np.array([reading.confidence for reading in readings], dtype=np.float64).reshape(SIZE, SIZE)

    diagnostics: dict[str, Any] = {**board.to_json(), "overlay": overlay,
                                   "overlay_alpha": round(alpha, 3) if overlay else 0.0,
                                   "cell_grid": CellGrid(board.left, board.top, board.pitch_x, board.pitch_y, SIZE,
                                                         SIZE, (image.shape[1], image.shape[0]), board.gap_x,
                                                         board.gap_y).to_json()}
    covered = [f"{index // SIZE},{index % SIZE}" for index, reading in enumerate(readings) if reading.covered]
    if covered:
        diagnostics["covered"] = {cell: readings[int(cell[0]) * SIZE + int(cell[2])].covered for cell in covered}
        # tiles drawn part way (sliding, growing) with no overlay on the board: a frame caught
        # mid-animation, which follow mode waits out
        diagnostics["in_motion"] = overlay is None
    diagnostics.update(read_score_boxes(image, board))
    score = diagnostics.get("score")
    doubtful_fields: tuple[str, ...] = ()
    small_print = diagnostics.get("score_digit_px", SMALL_PRINT) < SMALL_PRINT
    if score is not None and diagnostics.get("score_confidence", 0.0) < \
            (SMALL_PRINT_CONFIDENCE if small_print else SURE_SCORE_CONFIDENCE):
        # a SCORE box seen but its digits not told apart for sure (small print, a cover)
        score, doubtful_fields = None, ("score",)
    if previous is not None and ((confidence < DOUBTFUL_BELOW).any() or doubtful_fields):
        preferred = _prefer_previous(readings, values, confidence, previous, score)
        if preferred is not None:
            values, confidence, score, scores_agree = preferred
            diagnostics["matched_previous"] = True
            if scores_agree:
                doubtful_fields = ()
    doubtful = [(index // SIZE, index % SIZE) for index in np.flatnonzero(confidence.ravel() < DOUBTFUL_BELOW)]
    if doubtful:
        # what else each doubtful cell may be, likeliest first, for whoever checks it
        diagnostics["alternatives"] = {f"{row},{column}": [CELL_VALUES[int(k)] for k in
                                                          readings[row * SIZE + column].order[:3]]
                                       for row, column in doubtful}
    state = _state(values, score or 0)
    diagnostics["ms"] = round((time.perf_counter() - started) * 1000, 1)
    cells = [values[row * SIZE:(row + 1) * SIZE] for row in range(SIZE)]
    return Reading(GAME, state, cells, confidence, diagnostics, doubtful_fields)


def _state(values: list[int], score: int):
    """The engine's state for the board read, built from its board text."""
    from engines import GAMES, NotationError

    rows = [" ".join(str(value) if value else "." for value in values[row * SIZE:(row + 1) * SIZE])
            for row in range(SIZE)]
    try:
        return GAMES[GAME].parse_board("\n".join([f"score {score}", *rows]))
    except NotationError as error:
        raise NoBoardFound(f"the engine refuses the board read: {error}") from None
