"""The advice overlay's marks land on the right cells of the real game: checked on the pixels of
the image ``render_marks`` paints, for one hand-worked position of each game.

For each game a small position is built by hand (each comment says why its best move is the one
it is), the game's ``overlay_marks`` turns its candidates into marks, and the marks are painted
on a grid that does not start at the image's corner (left 37.5, top 52, pitch 40; 2048 with a
gap of 6 between tiles), at scale 1 and at scale 2 (the overlay at device-pixel ratio 2). Then:

- the centre of every cell the advice tints shows the tint's colour, translucent;
- the centre of every cell the advice does not mark is fully transparent;
- a point midway along each side of an outlined box is opaque (in the outline's colour where
  the outline is solid); a point well inside an outlined box without a fill is transparent;
- SPL-T's split line passes through the middle of the line it splits along;
- the 2048 arrow's head lies on the side of the board's centre it points to;
- a badge is opaque where it stands and shows its colour there.

Also: without blending (``translucent=False``) the fills are left out and the outlines kept;
``opacity`` lowers the alpha of a mark's pixel; ``cells_outline`` of an L; ``CellGrid.from_json``
refusing unusable grids.

Every expected cell, edge and pixel position is worked out by hand from the rules, the grid's
definition (cell (r, c) spans x from left + c*pitch, y from top + r*pitch; a 2048 tile starts a
gap further) and the mark vocabulary, never read off the program's output.
"""

from __future__ import annotations

import dataclasses
import functools
import json
import math

import pytest

from advisors.candidate import Candidate
from advisors.g2048.search import G2048Candidate
from advisors.hatetris.heuristic import HatetrisCandidate
from advisors.splt.heuristic import SpltCandidate
from advisors.tenten.planner import Plan, TenTenCandidate
from app.gui.games import ui_for
from app.gui.games.hatetris.placements import placement_cells
from app.gui.overlay_marks import ArrowMark, BadgeMark, CellsMark, LineMark, cells_outline, render_marks
from engines import GAMES
from engines.destructo import Click
from engines.destructo import State as DestructoState
from engines.destructo.notation import parse_board
from engines.g2048 import State as State2048
from engines.g2048.state import Slide
from engines.hatetris import Placement
from engines.splt import Box, Move
from engines.splt import State as SpltState
from engines.tenten import Place
from engines.tenten import State as TenTenState
from vision.reading import CellGrid

LEFT, TOP, PITCH = 37.5, 52.0, 40.0
SCALES = (1, 2)

# the colours the games' marks use (their modules' constants, written out)
G2048_BEST = (46, 160, 67)
HATETRIS_BEST = (70, 235, 120)
SPLT_BEST = (90, 225, 255)
SPLT_HALVING = (40, 205, 70)
SPLT_CLUSTER = (240, 55, 45)
SPLT_RANKED_BADGE = (235, 235, 235)
TENTEN_PLAN = (46, 200, 90)
TENTEN_3_BAR = (0xE6, 0x96, 0x5A)  # "_" (the 3-bars, I and _)
TENTEN_SQUARE = (0x9E, 0xEE, 0x5E)  # "o"
TENTEN_SINGLE = (0x84, 0x8E, 0xDC)  # "."
DESTRUCTO_BEST = (0, 229, 255)
DESTRUCTO_OTHER = (250, 250, 250)


# -- geometry and pixels -------------------------------------------------------------------------------
def grid_of(rows: int, columns: int, gap: float = 0.0) -> CellGrid:
    """A grid at (37.5, 52) with a margin of 24 pixels right and below."""
    width = math.ceil(LEFT + columns * PITCH + gap) + 24
    height = math.ceil(TOP + rows * PITCH + gap) + 24
    return CellGrid(LEFT, TOP, PITCH, PITCH, rows, columns, (width, height), gap, gap)


def xy(point: tuple[float, float]) -> tuple[float, float]:
    """Image pixel (x, y) of a grid point (row, column) of a grid without gaps."""
    row, column = point
    return LEFT + column * PITCH, TOP + row * PITCH


def centre(cell: tuple[int, int]) -> tuple[float, float]:
    return cell[0] + 0.5, cell[1] + 0.5


def render(marks, grid: CellGrid, scale: int = 1, **options):
    width, height = grid.image_size
    return render_marks(marks, grid, width * scale, height * scale, scale, scale, **options)


def pixel(image, x: float, y: float, scale: int = 1):
    """The colour of the image pixel covering grid-image pixel position (x, y)."""
    return image.pixelColor(math.floor(x * scale), math.floor(y * scale))


def near(colour, rgb, tolerance: int = 10) -> bool:
    return all(abs(a - b) <= tolerance for a, b in zip((colour.red(), colour.green(), colour.blue()), rgb))


def describe(colour) -> tuple[int, int, int, int]:
    return colour.red(), colour.green(), colour.blue(), colour.alpha()


@dataclasses.dataclass
class Expected:
    """What a position's marks must show, in grid points (row, column):
    ``tints``: (point, rgb) where a translucent fill of that colour shows;
    ``strokes``: (point, rgb) on a solid outline or line of that colour (opaque);
    ``edges``: points on an outline drawn dashed (opaque: the dash or its halo);
    ``badges``: (point, rgb) badge centres;
    ``clear``: points nothing is drawn on (transparent)."""

    tints: list = dataclasses.field(default_factory=list)
    strokes: list = dataclasses.field(default_factory=list)
    edges: list = dataclasses.field(default_factory=list)
    badges: list = dataclasses.field(default_factory=list)
    clear: list = dataclasses.field(default_factory=list)


def check(image, expected: Expected, scale: int, translucent: bool = True) -> None:
    for point, rgb in expected.tints:
        colour = pixel(image, *xy(point), scale)
        if translucent:
            assert 0 < colour.alpha() < 255 and near(colour, rgb), (point, describe(colour))
        else:
            assert colour.alpha() == 0, (point, describe(colour))
    for point, rgb in expected.strokes:
        colour = pixel(image, *xy(point), scale)
        assert colour.alpha() >= 250 and near(colour, rgb), (point, describe(colour))
    for point in expected.edges:
        colour = pixel(image, *xy(point), scale)
        assert colour.alpha() >= 200, (point, describe(colour))
    for point, rgb in expected.badges:
        x, y = xy(point)
        colour = pixel(image, x, y, scale)
        assert colour.alpha() >= 200, (point, describe(colour))
        # the badge's own colour is right there (its face; the digit is drawn in the halo shade)
        window = [image.pixelColor(math.floor(x * scale) + dx, math.floor(y * scale) + dy)
                  for dx in range(-3 * scale, 3 * scale + 1) for dy in range(-3 * scale, 3 * scale + 1)]
        assert any(c.alpha() >= 250 and near(c, rgb) for c in window), point
    for point in expected.clear:
        colour = pixel(image, *xy(point), scale)
        assert colour.alpha() == 0, (point, describe(colour))


# -- HATETRIS --------------------------------------------------------------------------------------------
#: Rows 18 and 19 (the bottom two of the 20, buffer rows 0-3 included) are full but for columns 4
#: and 5; the piece is an O. Dropped into that 2x2 hole (its box at x=3, y=17: O's cells (1,1)
#: (2,1) (1,2) (2,2) of the box, so well cells (4,18) (5,18) (4,19) (5,19)) it completes both
#: rows, which clear and leave the well empty; every other placement leaves the hole covered or
#: open and the stack higher. So that placement is the best, clearing 2 lines (the candidate is
#: written by hand; the engine's turn checks the clear).
HATETRIS_WELL = "score 0 · next O\n" + "\n".join(["." * 10] * 18 + ["####..####"] * 2)
HATETRIS_GHOST = {(18, 4), (18, 5), (19, 4), (19, 5)}  # (row, column)
HATETRIS_BEST_MOVE = Placement("O", 3, 17, 0)


@functools.lru_cache(maxsize=None)
def hatetris_position():
    """The well, the engine's turn of the O into the hole (the rules' own reference code, plain
    Python) and the advisor's best candidate for it, written by hand: its next piece is a letter
    the badge must repeat, whichever the AI would send."""
    game = GAMES["hatetris"]
    state = game.parse_board(HATETRIS_WELL)
    step = game.reference_play(state, HATETRIS_BEST_MOVE)
    best = HatetrisCandidate(HATETRIS_BEST_MOVE, 100.0, 0.0, "", lines=2, next_piece="Z")
    return game, state, step, (best,)


def test_hatetris_the_o_in_the_hole_clears_both_rows():
    _, _, step, _ = hatetris_position()
    assert step.state.score == 2 and not any(step.state.well) and step.state.piece is not None
    assert set(placement_cells(HATETRIS_BEST_MOVE)) == {(column, row) for row, column in HATETRIS_GHOST}


def hatetris_case():
    game, state, step, candidates = hatetris_position()
    marks = ui_for("hatetris").overlay_marks(game, state, list(candidates))
    ghost = [mark for mark in marks if isinstance(mark, CellsMark)]
    badge = [mark for mark in marks if isinstance(mark, BadgeMark)]
    assert len(ghost) == 1 and ghost[0].cells == HATETRIS_GHOST
    # the badge says the next piece and the 2 lines, just above the ghost's top row (18), over
    # its middle (the line between columns 4 and 5)
    assert len(badge) == 1 and badge[0].text == "→ Z +2"
    expected = Expected(
        tints=[(centre(cell), HATETRIS_BEST) for cell in HATETRIS_GHOST],
        # the 2x2 box's sides: columns 4 and 6 at row 19 (midway down rows 18-19), rows 18 and 20
        # at column 5
        strokes=[((19, 4), HATETRIS_BEST), ((19, 6), HATETRIS_BEST), ((18, 5), HATETRIS_BEST),
                 ((20, 5), HATETRIS_BEST)],
        badges=[((17.4, 5.0), HATETRIS_BEST)],
        # the rest of rows 18-19 (the well's own blocks), the well above, the corners
        clear=[centre((19, 0)), centre((19, 3)), centre((18, 2)), centre((18, 7)), centre((19, 9)),
               centre((15, 4)), centre((10, 5)), centre((0, 0)), centre((0, 9))],
    )
    return marks, grid_of(20, 10), expected


# -- SPL-T -----------------------------------------------------------------------------------------------
#: Three splits from the empty board: H (rows 0-7 | 8-15), V of the bottom half (columns 0-3 |
#: 4-7), H of its right half (rows 8-11 | 12-15). Box list in the game's order: A (0,0,8,8),
#: B (0,8,4,8), C (4,8,4,4), D (4,12,4,4); split 4 is vertical, so each box splits across its middle
#: column. The ranking is given here (the overlay draws whatever the advisor ranks, so the test
#: fixes it): C best (no warning: a vertical split of a 4x4 box makes two 2x4 boxes, no 2x2 group
#: of equal boxes, so no cluster), then B marked as making an unexpected cluster, D as a new
#: halving, A with no warning.
SPLT_A, SPLT_B, SPLT_C, SPLT_D = Box(0, 0, 8, 8), Box(0, 8, 4, 8), Box(4, 8, 4, 4), Box(4, 12, 4, 4)


def splt_case():
    state = SpltState(boxes=(SPLT_A, SPLT_B, SPLT_C, SPLT_D), splits=3)
    assert state.orientation == "V"
    candidates = [
        SpltCandidate(Move.of(SPLT_C), 10.0, 0.0, "", index=2),
        SpltCandidate(Move.of(SPLT_B), 8.0, 2.0, "", index=1, unexpected=(SPLT_B,)),
        SpltCandidate(Move.of(SPLT_D), 6.0, 4.0, "", index=3, new_halving=True),
        SpltCandidate(Move.of(SPLT_A), 4.0, 6.0, "", index=0),
    ]
    marks = ui_for("splt").overlay_marks(GAMES["splt"], state, candidates)
    lines = [mark for mark in marks if isinstance(mark, LineMark)]
    # C splits along column 4 + 4 // 2 = 6, from its top (row 8) to its bottom (row 12)
    assert len(lines) == 1 and {lines[0].start, lines[0].end} == {(8, 6), (12, 6)}
    assert sorted(mark.text for mark in marks if isinstance(mark, BadgeMark)) == ["1", "2", "3", "4"]
    expected = Expected(
        # B (columns 0-3, rows 8-15) red, D (columns 4-7, rows 12-15) green
        tints=[(centre((12, 1)), SPLT_CLUSTER), (centre((15, 3)), SPLT_CLUSTER), (centre((10, 2)), SPLT_CLUSTER),
               (centre((14, 6)), SPLT_HALVING), (centre((13, 4)), SPLT_HALVING), (centre((15, 7)), SPLT_HALVING)],
        strokes=[
            # the split line, midway and a quarter of the way down
            ((10, 6), SPLT_BEST), ((9, 6), SPLT_BEST), ((11, 6), SPLT_BEST),
            # C's outline: left side (column 4) and right side (column 8) at row 10, top (row 8)
            # and bottom (row 12) midway at column 6, and a quarter along them at column 5
            ((10, 4), SPLT_BEST), ((10, 8), SPLT_BEST), ((8, 6), SPLT_BEST), ((12, 6), SPLT_BEST),
            ((8, 5), SPLT_BEST), ((12, 7), SPLT_BEST),
        ],
        # rank badges at (box y + 0.42, box x + 0.42): in each box's top-left cell
        badges=[((8.42, 4.42), SPLT_BEST), ((8.42, 0.42), SPLT_CLUSTER), ((12.42, 4.42), SPLT_HALVING),
                ((0.42, 0.42), SPLT_RANKED_BADGE)],
        # inside C, clear of the line and the badge: no fill; A (ranked, no warning): no fill
        clear=[centre((9, 5)), centre((11, 7)), centre((11, 5)), centre((4, 4)), centre((7, 7)), centre((2, 6))],
    )
    return marks, grid_of(16, 8), expected


# -- 1010! -----------------------------------------------------------------------------------------------
#: Row 9 (the bottom) holds seven blocks, columns 0-6; the tray is _ (horizontal 3-bar), o (2x2)
#: and . (single). The plan: the 3-bar at (9,7) fills columns 7-9 and completes row 9, which
#: clears at once (the one placement that clears a line with the first piece); then the 2x2 at
#: (8,8) takes (8,8) (8,9) (9,8) (9,9), two of them cells the 3-bar covers now and the clear
#: frees (its outline is dashed); then the single at (2,2). Numbers go on each piece's first cell
#: in reading order: 1 on (9,7), 2 on (8,8), 3 on (2,2).
TENTEN_ROWS = ["." * 10] * 9 + ["#######..."]
TENTEN_PLAN_MOVES = (Place("_", 9, 7), Place("o", 8, 8), Place(".", 2, 2))


def tenten_case():
    state = TenTenState.from_rows(TENTEN_ROWS, tray=("_", "o", "."))
    candidate = TenTenCandidate(TENTEN_PLAN_MOVES[0], 1.0, 0.0, "", principal_variation=TENTEN_PLAN_MOVES,
                                plan=Plan(TENTEN_PLAN_MOVES, 1.0, True, state))
    marks = ui_for("1010").overlay_marks(GAMES["1010"], state, [candidate])
    ghosts = [mark for mark in marks if isinstance(mark, CellsMark)]
    assert [mark.cells for mark in ghosts] == [frozenset({(9, 7), (9, 8), (9, 9)}),
                                               frozenset({(8, 8), (8, 9), (9, 8), (9, 9)}), frozenset({(2, 2)})]
    assert [mark.dashed for mark in ghosts] == [False, True, False]
    assert [mark.thick for mark in ghosts] == [True, False, False]
    assert [(mark.at, mark.text) for mark in marks if isinstance(mark, BadgeMark)] == [
        ((9.5, 7.5), "1"), ((8.5, 8.5), "2"), ((2.5, 2.5), "3")]
    expected = Expected(
        # (8,9): the 2x2's own cell (its number is on (8,8)); the single's cell off its number
        # (0.3 of a cell right and down from its centre, clear of the number and the outline)
        tints=[(centre((8, 9)), TENTEN_SQUARE), ((2.8, 2.8), TENTEN_SINGLE), ((9.8, 7.8), TENTEN_3_BAR)],
        strokes=[
            # the single (2,2): columns 2 and 3 at row 2.5, rows 2 and 3 at column 2.5
            ((2.5, 2), TENTEN_PLAN), ((2.5, 3), TENTEN_PLAN), ((2, 2.5), TENTEN_PLAN), ((3, 2.5), TENTEN_PLAN),
            # the 3-bar (row 9, columns 7-9): its left side, its top over column 7 (the 2x2 takes
            # columns 8-9 above it, its own top is there)
            ((9.5, 7), TENTEN_PLAN), ((9, 7.5), TENTEN_PLAN),
        ],
        # the 2x2's dashed sides (rows 8 and 10 at column 9, columns 8 and 10 at row 9), the
        # bottom of the 3-bar under column 8
        edges=[(8, 9), (8, 8.5), (9, 8), (9, 10), (10, 8.5), (10, 9.5)],
        badges=[((9.5, 7.5), TENTEN_PLAN), ((8.5, 8.5), TENTEN_PLAN), ((2.5, 2.5), TENTEN_PLAN)],
        # the filled blocks of row 9 nobody places on, the cells around the plan, the corners
        clear=[centre((9, 0)), centre((9, 3)), centre((9, 5)), centre((8, 6)), centre((7, 8)), centre((7, 9)),
               centre((8, 7)), centre((5, 5)), centre((2, 1)), centre((1, 2)), centre((3, 3)), centre((0, 9))],
    )
    return marks, grid_of(10, 10), expected


# -- Destruct-o-Match ------------------------------------------------------------------------------------
#: A blue column of 3 between two green columns of 3, a lone green on top of the blue.
#: Destroying the blue first (s(3) = 3) drops the lone green into row 3 between the green columns:
#: one group of 7 (s(7) = 9) that clears the board (bonus 100): 112. A green column first (3),
#: then the blue (3), leaves the other column and the fallen green, 4 (s(4) = 4): 110, and the
#: lone green cannot be taken before the blue. So the blue is the best click; the engine names
#: a group's click by its first cell in reading order: (1,1) blue, (1,0) left green, (1,2) right.
DESTRUCTO_BOARD = """\
. g .
g b g
g b g
g b g"""
DESTRUCTO_BLUE = {(1, 1), (2, 1), (3, 1)}


def destructo_case():
    game = GAMES["destructo"]
    state = DestructoState(parse_board(DESTRUCTO_BOARD), due=None)
    candidates = [Candidate(Click(1, 1), 112.0, 0.0, ""), Candidate(Click(1, 0), 110.0, 2.0, ""),
                  Candidate(Click(1, 2), 110.0, 2.0, "")]
    marks = ui_for("destructo").overlay_marks(game, state, candidates)
    removed = [mark for mark in marks if isinstance(mark, CellsMark)]
    assert len(removed) == 1 and removed[0].cells == DESTRUCTO_BLUE
    expected = Expected(
        tints=[(centre((2, 1)), DESTRUCTO_BEST), (centre((3, 1)), DESTRUCTO_BEST)],
        # the blue column's sides: columns 1 and 2 midway down rows 1-3 (row 2.5), its top (row 1)
        # and bottom (row 4, the board's) at column 1.5
        strokes=[((2.5, 1), DESTRUCTO_BEST), ((2.5, 2), DESTRUCTO_BEST), ((1, 1.5), DESTRUCTO_BEST),
                 ((4, 1.5), DESTRUCTO_BEST), ((3.5, 1), DESTRUCTO_BEST)],
        badges=[(centre((1, 1)), DESTRUCTO_BEST), (centre((1, 0)), DESTRUCTO_OTHER), (centre((1, 2)), DESTRUCTO_OTHER)],
        # the lone green, the green columns under their numbers, the empty corners
        clear=[centre((0, 1)), centre((2, 0)), centre((3, 0)), centre((2, 2)), centre((3, 2)), centre((0, 0)),
               centre((0, 2))],
    )
    return marks, grid_of(4, 3), expected


CASES = {"hatetris": hatetris_case, "splt": splt_case, "1010": tenten_case, "destructo": destructo_case}


@pytest.mark.parametrize("scale", SCALES)
@pytest.mark.parametrize("game", list(CASES))
def test_marks_lie_on_the_expected_cells(qapp, game, scale):
    marks, grid, expected = CASES[game]()
    image = render(marks, grid, scale)
    assert (image.width(), image.height()) == (grid.image_size[0] * scale, grid.image_size[1] * scale)
    check(image, expected, scale)


@pytest.mark.parametrize("game", list(CASES))
def test_without_blending_fills_are_left_out_and_outlines_kept(qapp, game):
    marks, grid, expected = CASES[game]()
    for scale in SCALES:
        check(render(marks, grid, scale, translucent=False), expected, scale, translucent=False)


@pytest.mark.parametrize("game", list(CASES))
def test_opacity_lowers_the_alpha_of_the_marks(qapp, game):
    marks, grid, expected = CASES[game]()
    full = render(marks, grid)
    half = render(marks, grid, opacity=0.5)
    # a tint is one translucent layer: at half the opacity, half its alpha
    for point, _ in expected.tints:
        tinted, faded = pixel(full, *xy(point)), pixel(half, *xy(point))
        assert abs(faded.alpha() - tinted.alpha() / 2) <= 3, (point, describe(tinted), describe(faded))
    # the drawing fades as one: a solid stroke over its halo is at half alpha, its halo not showing through
    for point, _ in expected.strokes:
        solid, faded = pixel(full, *xy(point)), pixel(half, *xy(point))
        assert solid.alpha() == 255 and abs(faded.alpha() - 128) <= 2, (point, describe(faded))
    for point, _ in expected.badges:
        assert 0 < pixel(half, *xy(point)).alpha() < 255
    for point in expected.clear:
        assert pixel(half, *xy(point)).alpha() == 0


def test_splt_split_line_follows_the_offset(qapp):
    # with the image shifted by (7, 5) pixels the line is at x = 37.5 + 6 * 40 + 7 = 284.5
    marks, grid, _ = splt_case()
    width, height = grid.image_size
    image = render_marks(marks, grid, width + 7, height + 5, offset=(7.0, 5.0))
    for row in (9, 10, 11):
        y = TOP + row * PITCH + 5
        on_line = image.pixelColor(284, math.floor(y))
        assert on_line.alpha() == 255 and near(on_line, SPLT_BEST), (row, describe(on_line))
        # half a cell to either side: inside the unfilled box (left) or its right half (right)
        assert image.pixelColor(284 - 20, math.floor(y)).alpha() == 0
        assert image.pixelColor(284 + 20, math.floor(y)).alpha() == 0


# -- 2048 ------------------------------------------------------------------------------------------------
#: Columns 0-2 are full and column 3 empty; no two neighbours are equal, across or down. Up and
#: down move nothing (the full columns cannot move, the empty one has nothing), left moves nothing
#: (the rows are packed left, no pair merges): right is the only slide that moves a tile.
G2048_ROWS = [[2, 4, 8, 0], [4, 8, 2, 0], [8, 2, 4, 0], [2, 4, 8, 0]]
GAP = 6.0
#: The board: 4 * 40 + 6 = 166 wide and high, its centre at (37.5 + 83, 52 + 83).
BOARD = 4 * PITCH + GAP
CENTRE_X, CENTRE_Y = LEFT + BOARD / 2, TOP + BOARD / 2
#: (d x, d y) of up, right, down, left on the image (rows grow downwards).
STEPS = {0: (0, -1), 1: (1, 0), 2: (0, 1), 3: (-1, 0)}


def tile_centre(row: int, column: int) -> tuple[float, float]:
    """(x, y) of a tile's centre: the tile starts a gap into its pitch."""
    return LEFT + column * PITCH + GAP + (PITCH - GAP) / 2, TOP + row * PITCH + GAP + (PITCH - GAP) / 2


def check_arrow(image, direction: int, scale: int) -> None:
    """The arrow spans 0.6 of the board across its centre, its head 0.42 of its length (so from
    0.111 to 0.3 of the board from the centre, 0.126 of the board to either side at its base),
    its shaft 0.16 of its length thick (0.048 to either side), with a halo of 3 pixels round it."""
    dx, dy = STEPS[direction]
    px, py = -dy, dx  # across the arrow

    def at(along: float, across: float):
        x = CENTRE_X + BOARD * (along * dx + across * px)
        y = CENTRE_Y + BOARD * (along * dy + across * py)
        return pixel(image, x, y, scale)

    # the head, wide, on the side it points to: opaque 0.08 of the board to either side; the same
    # on the tail side is beside the thin shaft, transparent
    for across in (-0.08, 0.08):
        assert at(0.15, across).alpha() >= 200, (direction, across, describe(at(0.15, across)))
        assert at(-0.15, across).alpha() == 0, (direction, across, describe(at(-0.15, across)))
    # filled in the slide's colour along the middle, head and shaft; opaque near the tip
    for along in (0.2, 0.0, -0.2):
        assert at(along, 0).alpha() >= 250 and near(at(along, 0), G2048_BEST), (direction, along)
    assert at(0.25, 0).alpha() >= 200 and at(0.28, 0).alpha() >= 200
    # nothing beyond the tip
    assert at(0.36, 0).alpha() == 0


@pytest.fixture(scope="module")
def g2048_candidates():
    """The advisor's list for that board, written by hand as it gives it: the one legal slide
    (its value made up: the arrow does not depend on it), then the three that move nothing."""
    state = State2048.from_rows(G2048_ROWS)
    candidates = [G2048Candidate(Slide(1), 5000.0, 0.0, "")] + [
        G2048Candidate(Slide(direction), -math.inf, math.inf, "", legal=False) for direction in (0, 2, 3)]
    return state, candidates


def test_2048_only_the_right_slide_moves_a_tile(g2048_candidates):
    state, _ = g2048_candidates
    assert GAMES["2048"].legal_moves(state) == [Slide(1)]


@pytest.mark.parametrize("scale", SCALES)
def test_2048_arrow_points_right_across_the_board(qapp, g2048_candidates, scale):
    state, candidates = g2048_candidates
    marks = ui_for("2048").overlay_marks(GAMES["2048"], state, candidates)
    assert len(marks) == 1 and isinstance(marks[0], ArrowMark)
    # 5000 in three figures, no share of a next slide (none moves a tile)
    assert marks == (ArrowMark(1, G2048_BEST, "5.00k", ""),)
    grid = grid_of(4, 4, GAP)
    image = render(marks, grid, scale)
    check_arrow(image, 1, scale)
    # the tiles in the corners are not covered (the arrow and its label lie across the middle)
    for row, column in ((0, 0), (0, 3), (3, 0), (3, 3)):
        assert pixel(image, *tile_centre(row, column), scale).alpha() == 0, (row, column)


def test_2048_arrow_of_hand_ranked_slides(qapp):
    # left best at 2000, right next at 1000: "2.00k" (2000 / 1000 with two decimals under 10),
    # the next slide at 1000 / 2000 = 50.0 % of it
    state = State2048.from_rows([[2, 0, 0, 2], [0] * 4, [0] * 4, [0] * 4])
    candidates = [Candidate(Slide(3), 2000.0, 0.0, ""), Candidate(Slide(1), 1000.0, 1000.0, "")]
    marks = ui_for("2048").overlay_marks(GAMES["2048"], state, candidates)
    assert marks == (ArrowMark(3, G2048_BEST, "2.00k", "next 50.0%"),)
    for scale in SCALES:
        check_arrow(render(marks, grid_of(4, 4, GAP), scale), 3, scale)


@pytest.mark.parametrize("direction", [0, 1, 2, 3])
def test_arrow_head_is_on_the_side_it_points_to(qapp, direction):
    image = render([ArrowMark(direction, G2048_BEST)], grid_of(4, 4, GAP))
    check_arrow(image, direction, 1)


# -- the pieces ------------------------------------------------------------------------------------------
def test_outline_of_an_l():
    # cells (0,0), (1,0), (1,1):   X .
    #                              X X
    # 3 cells x 4 sides = 12, less 2 x 2 shared sides ((0,0)-(1,0), (1,0)-(1,1)): 8 unit edges
    edges = cells_outline([(0, 0), (1, 0), (1, 1)])
    assert len(edges) == 8

    def unordered(edge):
        return frozenset(edge)

    assert {unordered(edge) for edge in edges} == {unordered(edge) for edge in [
        ((0, 0), (0, 1)),  # top of (0,0)
        ((0, 0), (1, 0)),  # left of (0,0)
        ((0, 1), (1, 1)),  # right of (0,0)
        ((1, 0), (2, 0)),  # left of (1,0)
        ((2, 0), (2, 1)),  # bottom of (1,0)
        ((1, 1), (1, 2)),  # top of (1,1)
        ((1, 2), (2, 2)),  # right of (1,1)
        ((2, 1), (2, 2)),  # bottom of (1,1)
    ]}
    # every edge is one cell long, along a row or a column line
    for (r0, c0), (r1, c1) in edges:
        assert abs(r1 - r0) + abs(c1 - c0) == 1
    assert cells_outline([]) == []
    assert len(cells_outline([(5, 5)])) == 4


GOOD_GRID = {"left": 37.5, "top": 52, "pitch_x": 40, "pitch_y": 40, "rows": 4, "columns": 4,
             "image_size": [240, 260], "gap_x": 6, "gap_y": 6}


def test_cell_grid_from_json_and_its_cells():
    grid = CellGrid.from_json(GOOD_GRID)
    assert grid == CellGrid(37.5, 52.0, 40.0, 40.0, 4, 4, (240, 260), 6.0, 6.0)
    assert CellGrid.from_json(json.loads(json.dumps(grid.to_json()))) == grid
    # tile (1, 2): from x = 37.5 + 2 * 40 + 6, y = 52 + 40 + 6, 34 square
    assert grid.cell_rect(1, 2) == (123.5, 98.0, 34.0, 34.0)
    # the gaps are optional
    without = {key: value for key, value in GOOD_GRID.items() if not key.startswith("gap")}
    assert CellGrid.from_json(without) == CellGrid(37.5, 52.0, 40.0, 40.0, 4, 4, (240, 260))


@pytest.mark.parametrize("change", [
    {"pitch_x": -40}, {"pitch_y": 0}, {"left": float("nan")}, {"pitch_y": float("nan")}, {"gap_x": float("nan")},
    {"top": float("inf")}, {"rows": 0}, {"columns": -1}, {"image_size": [0, 260]}, {"image_size": [240]},
    {"image_size": 240}, {"left": "left"}, {"rows": None}, {"rows": float("nan")},
])
def test_cell_grid_from_json_refuses_bad_values(change):
    assert CellGrid.from_json({**GOOD_GRID, **change}) is None


@pytest.mark.parametrize("key", ["left", "top", "pitch_x", "pitch_y", "rows", "columns", "image_size"])
def test_cell_grid_from_json_refuses_a_missing_key(key):
    assert CellGrid.from_json({k: v for k, v in GOOD_GRID.items() if k != key}) is None


@pytest.mark.parametrize("value", [None, [], "grid", 3])
def test_cell_grid_from_json_refuses_what_is_no_grid(value):
    assert CellGrid.from_json(value) is None


@pytest.mark.parametrize("change", [{"rows": float("inf")}, {"columns": float("-inf")},
                                    {"image_size": [float("inf"), 260]}, json.loads('{"rows": Infinity}')])
def test_cell_grid_from_json_refuses_an_infinite_count(change):
    assert CellGrid.from_json({**GOOD_GRID, **change}) is None


def test_destructo_numbers_follow_the_panels_ranks_when_the_best_is_no_click(qapp):
    """A banked Undo ranked first: no group is outlined as the best, the Undo is said as number 1,
    and the clicks keep their panel ranks (2 and 3), as the board view numbers them."""
    from engines.destructo.state import UseUndo

    game = GAMES["destructo"]
    state = DestructoState(parse_board(DESTRUCTO_BOARD), due=None)
    candidates = [Candidate(UseUndo(), 120.0, 0.0, ""), Candidate(Click(1, 1), 112.0, 8.0, ""),
                  Candidate(Click(1, 0), 110.0, 10.0, "")]
    marks = ui_for("destructo").overlay_marks(game, state, candidates)
    assert not [mark for mark in marks if isinstance(mark, CellsMark)]
    badges = {mark.text: mark.at for mark in marks if isinstance(mark, BadgeMark)}
    assert badges == {f"1 {UseUndo()}": (0.5, 1.5), "2": (1.5, 1.5), "3": (1.5, 0.5)}


def test_without_blending_a_tint_is_outlined_in_its_colour(qapp):
    """Where windows cannot be blended a tint (SPL-T's warnings) cannot be drawn: its cells are
    outlined, dashed, in its colour, so the warning is still on the board."""
    grid = CellGrid(0, 0, 40, 40, 4, 4, (160, 160))
    red = (240, 55, 45)
    image = render_marks([CellsMark(frozenset({(1, 1)}), fill=red)], grid, 160, 160, translucent=False)
    assert image.pixelColor(60, 60).alpha() == 0  # the cell's middle: the game shows
    dashes = [image.pixelColor(x, 40) for x in range(41, 80)]  # along its top edge (y = 40)
    assert any((c.red(), c.green(), c.blue(), c.alpha()) == (*red, 255) for c in dashes)
    assert image.pixelColor(20, 20).alpha() == 0  # another cell: nothing
