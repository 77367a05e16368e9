"""The 2048 board reader (``vision.g2048``).

Expected values come from the shared transcription of five real screenshots of the original page
(``tests/vision/truth_g2048.py``), from hand-worked moves (spec 1.3: tiles slide to the wall,
equal neighbours merge once; 1.4: a merge scores the new tile) and, for boards drawn by Kibitz's
own 2048 view, from the state put on the board; never from the reader's own output.
"""

from __future__ import annotations

import json
import time
from pathlib import Path

import cv2
import numpy as np
import pytest

from app import cli
from engines.g2048 import State
from tests.vision.pictures import jpeg, resized
from tests.vision.render import render_board
from tests.vision.truth_g2048 import cases
from vision import NoBoardFound, read
from vision import g2048

SCREENSHOTS = ["new_game.png", "after_18_moves.png", "quiet_board.png", "board_all_values_desktop.png",
               "win_overlay.png"]
#: The page's geometry (spec 5.2, wide layout): a cell's rectangle in a 1× screenshot.
CELL_ORIGIN, CELL_PITCH, CELL_SIDE = (265, 289), 121.25, 106


@pytest.fixture(scope="module")
def truth(reference_data: Path) -> dict:
    found = {Path(case.name).name: case for case in cases(reference_data)}
    if not found:
        pytest.skip("2048/truth.json not in the reference data")
    return found


@pytest.fixture(scope="module")
def screenshots(truth) -> dict:
    return {name: case.load() for name, case in truth.items()}



def cell_box(row: int, column: int) -> tuple[int, int, int, int]:
    """(x0, y0, x1, y1) of a cell in a 1× screenshot of the page."""
    x = round(CELL_ORIGIN[0] + column * CELL_PITCH)
    y = round(CELL_ORIGIN[1] + row * CELL_PITCH)
    return x, y, x + CELL_SIDE, y + CELL_SIDE


def hide_number(image: np.ndarray, row: int, column: int) -> np.ndarray:
    """A copy with the number of tile (row, column) painted over in the tile's own colour."""
    x0, y0, x1, y1 = cell_box(row, column)
    covered = image.copy()
    tile_colour = image[y0 + 10, x0 + 10].tolist()
    cv2.rectangle(covered, (x0 + 4, y0 + 24), (x1 - 4, y1 - 24), tile_colour, thickness=-1)
    return covered


# -- the real screenshots -----------------------------------------------------------------------------
@pytest.mark.parametrize("name", SCREENSHOTS)
def test_real_screenshot_cell_for_cell(truth, screenshots, name):
    case = truth[name]
    reading = read("2048", screenshots[name])
    assert case.compare(case.expected, reading.cells) == (16, 16)
    assert reading.cells == case.expected
    assert reading.state.rows == tuple(tuple(row) for row in case.expected)
    assert reading.diagnostics["overlay"] == case.extra["overlay"]
    assert reading.diagnostics["score"] == case.extra["score"]
    assert reading.diagnostics["best"] == case.extra["best"]
    assert reading.state.score == case.extra["score"]
    assert reading.doubtful == []
    # where the page puts the board (truth geometry), to about a pixel
    x, y, width, height = reading.diagnostics["board_xywh"]
    assert np.allclose([x, y, width, height], case.extra["board_xywh"], atol=2.0)
    assert reading.diagnostics["pitch_px"] == pytest.approx(case.extra["cell_pitch"], abs=1.5)


@pytest.mark.parametrize("name", SCREENSHOTS)
def test_a_small_print_score_is_right_or_doubtful(truth, screenshots, name):
    """The real screenshots shrunk as the page at 40-60 % zoom shows them: SCORE digits of 7 to 12
    pixels. A score read there is the transcribed one, or doubtful -- never another number."""
    case = truth[name]
    for factor in (0.4, 0.45, 0.5, 0.55, 0.6):
        reading = read("2048", resized(screenshots[name], factor))
        if "score" in reading.diagnostics:
            assert reading.diagnostics["score_digit_px"] < g2048.SMALL_PRINT
        if "score" not in reading.doubtful_fields and "score" in reading.diagnostics:
            assert reading.state.score == case.extra["score"], (factor, reading.diagnostics)


def test_super_tiles_share_one_colour_and_are_told_by_their_digits(screenshots):
    image = screenshots["board_all_values_desktop.png"]
    samples = {value: image[cell_box(row, column)[1] + 12, cell_box(row, column)[0] + 12].tolist()
               for value, (row, column) in {4096: (2, 3), 8192: (3, 0), 65536: (3, 2), 131072: (3, 3)}.items()}
    assert len({tuple(colour) for colour in samples.values()}) == 1  # the page's #3c3a32 for all four
    reading = read("2048", image)
    assert [reading.cells[2][3], reading.cells[3][0], reading.cells[3][2], reading.cells[3][3]] == \
        [4096, 8192, 65536, 131072]


def test_header_text_is_not_a_score(screenshots):
    # after_18_moves shows a fading "+24" over the SCORE box: the score stays 96
    reading = read("2048", screenshots["after_18_moves.png"])
    assert (reading.diagnostics["score"], reading.diagnostics["best"]) == (96, 96)


@pytest.mark.parametrize("factor", [0.6, 1.7])
@pytest.mark.parametrize("name", SCREENSHOTS)
def test_resized_screenshot_reads_the_same(truth, screenshots, name, factor):
    case = truth[name]
    reading = read("2048", resized(screenshots[name], factor))
    assert reading.cells == case.expected
    assert reading.diagnostics["overlay"] == case.extra["overlay"]
    assert reading.diagnostics["score"] == case.extra["score"]
    assert reading.doubtful == []
    x, y, width, _ = reading.diagnostics["board_xywh"]
    assert np.allclose([x, y, width], np.array(case.extra["board_xywh"][:3]) * factor, atol=2.5 * max(1, factor))


def test_screenshot_inside_a_desktop_and_compressed(truth, screenshots):
    """The page as part of a larger screen (another window beside it), saved as JPEG."""
    name = "board_all_values_desktop.png"
    page = resized(screenshots[name], 0.8)
    desktop = np.full((1200, 1920, 3), (90, 60, 40), np.uint8)
    desktop[100:100 + page.shape[0], 700:700 + page.shape[1]] = page
    desktop[200:700, 60:600] = (220, 220, 220)
    cv2.putText(desktop, "2048 4096 8192", (80, 400), cv2.FONT_HERSHEY_SIMPLEX, 1.5, (20, 20, 20), 3)
    reading = read("2048", jpeg(desktop, 75))
    assert reading.cells == truth[name].expected
    assert reading.diagnostics["score"] == 123456
    x, y, width, _ = reading.diagnostics["board_xywh"]
    assert np.allclose([x, y, width], [700 + 250 * 0.8, 100 + 274 * 0.8, 500 * 0.8], atol=2.5)


def test_game_over_veil_laid_on_a_real_board(truth, screenshots):
    """The page's game-over overlay (spec 5.4): rgba(238,228,218,0.5) over the board and "Game
    over!" in #776e65 across its middle, laid here on board_all_values_desktop.png's board."""
    name = "board_all_values_desktop.png"
    image = screenshots[name].astype(np.float32)
    x, y, width, height = truth[name].extra["board_xywh"]
    veil = np.array([218, 228, 238], np.float32)  # BGR of #eee4da
    image[y:y + height, x:x + width] = 0.5 * image[y:y + height, x:x + width] + 0.5 * veil
    image = image.round().astype(np.uint8)
    cv2.putText(image, "Game over!", (x + 60, y + height // 2 + 22), cv2.FONT_HERSHEY_DUPLEX, 2.0,
                (101, 110, 119), 6, cv2.LINE_AA)
    reading = read("2048", image)
    assert reading.diagnostics["overlay"] == "over"
    assert reading.diagnostics["overlay_alpha"] == pytest.approx(0.5, abs=0.05)
    assert reading.cells == truth[name].expected
    assert reading.diagnostics["score"] == 123456  # the header is not under the veil


def test_reading_time(screenshots):
    g2048.read(screenshots["quiet_board.png"])  # templates loaded once
    for name, image in screenshots.items():
        times = []
        for _ in range(3):
            started = time.perf_counter()
            read("2048", image)
            times.append((time.perf_counter() - started) * 1000)
        assert min(times) <= 100, f"{name}: {times}"


# -- confidence and the previous state ------------------------------------------------------------------
def test_a_super_tile_without_its_digits_is_doubtful(screenshots):
    covered = hide_number(screenshots["board_all_values_desktop.png"], 3, 2)  # the 65536
    reading = read("2048", covered)
    assert reading.doubtful == [(3, 2)]
    assert reading.per_cell_confidence[3, 2] < 0.6
    assert reading.cells[3][2] >= 4096  # the dark colour still says "above 2048"
    assert reading.per_cell_confidence[0, 0] == 1.0


def test_confidence_is_a_margin_not_a_constant(screenshots):
    """The 2 at row 1, column 2 repainted halfway between the 2's colour (#eee4da) and the 4's
    (#ede0c8), without its digit: nothing tells 2 from 4 any more."""
    image = screenshots["after_18_moves.png"]
    x0, y0, x1, y1 = cell_box(1, 2)
    blurred = image.copy()
    blurred[y0 + 2:y1 - 2, x0 + 2:x1 - 2] = (209, 226, 238)  # BGR of rgb(238, 226, 209)
    sure, unsure = read("2048", image), read("2048", blurred)
    assert sure.per_cell_confidence[1, 2] == 1.0
    assert unsure.per_cell_confidence[1, 2] < 0.6
    assert unsure.cells[1][2] in (2, 4)
    assert unsure.doubtful == [(1, 2)]
    assert unsure.diagnostics["alternatives"]["1,2"][:2] in ([2, 4], [4, 2])


@pytest.mark.parametrize("name, row, column", [("board_all_values_desktop.png", 1, 1),   # a 32
                                               ("after_18_moves.png", 2, 2)])              # an empty cell
def test_a_button_over_the_number_makes_the_cell_doubtful(truth, screenshots, name, row, column):
    """The page's "Try again" button (#8f7a66, spec 5.4) as the phone layout lays it, over the
    middle of a cell: that cell cannot be read, the others still are."""
    image = screenshots[name].copy()
    x0, y0, x1, y1 = cell_box(row, column)
    cv2.rectangle(image, (x0 + 8, y0 + 40), (x1 - 8, y0 + 80), (102, 122, 143), thickness=-1)
    reading = read("2048", image)
    assert reading.doubtful == [(row, column)]
    expected = truth[name].expected
    assert all(reading.cells[r][c] == expected[r][c] for r in range(4) for c in range(4) if (r, c) != (row, column))


def test_overlay_letters_across_a_number_make_the_cell_doubtful(truth, screenshots):
    """'Game over!' in the page's #776e65 written across the middle of the 2 at row 0, column 0
    (the phone layout's message crosses row 1 so): the letters are the 2's own ink colour."""
    name = "board_all_values_desktop.png"
    image = screenshots[name].copy()
    x0, y0, x1, y1 = cell_box(0, 0)
    cv2.putText(image, "ame o", (x0 - 10, y0 + 70), cv2.FONT_HERSHEY_DUPLEX, 1.4, (101, 110, 119), 4, cv2.LINE_AA)
    reading = read("2048", image)
    assert (0, 0) in reading.doubtful
    expected = truth[name].expected
    assert all(reading.cells[r][c] == expected[r][c] for r in range(4) for c in range(4) if (r, c) not in reading.doubtful)


def test_previous_state_settles_a_doubtful_tile(screenshots):
    """win_overlay.png was made by injecting 1024 1024 . . in the top row (score 20000) and
    sliding left (truth notes): 2048 at the top-left, +2048, and a 2 spawned at row 3, column 2.
    Under the gold veil a 1024 and a 2048 look alike; with the 2048's digits hidden only the
    previous state tells them apart."""
    covered = hide_number(screenshots["win_overlay.png"], 0, 0)
    alone = read("2048", covered)
    assert (0, 0) in alone.doubtful
    previous = State.from_rows([[1024, 1024, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0]], score=20000)
    reading = read("2048", covered, previous=previous)
    assert reading.cells == [[2048, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 2, 0]]
    assert reading.doubtful == []
    assert reading.diagnostics["matched_previous"] is True
    assert reading.state.score == 22048


def test_previous_state_gives_the_score_when_no_header_is_seen():
    """Kibitz's own view shows no SCORE box. Previous: 2048 2048 . . on top, a 2 bottom right,
    score 20000; slide left: 4096 (+4096 = 24096) and the 2 goes to the bottom left; a 2 spawns
    at row 1, column 3. The 4096's digits are smudged, so it is doubtful alone."""
    previous = State.from_rows([[2048, 2048, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 2]], score=20000)
    after = State.from_rows([[4096, 0, 0, 0], [0, 0, 0, 2], [0, 0, 0, 0], [2, 0, 0, 0]])
    image = render_board("2048", after, (520, 520))
    board = g2048.find_board(image)
    x, y, w, h = board.cell_rect(0, 0)
    cv2.rectangle(image, (int(x + 0.05 * w), int(y + 0.3 * h)), (int(x + 0.95 * w), int(y + 0.7 * h)),
                  (50, 58, 60), thickness=-1)
    alone = read("2048", image)
    assert (0, 0) in alone.doubtful and "score" not in alone.diagnostics
    reading = read("2048", image, previous=previous)
    assert reading.cells == [[4096, 0, 0, 0], [0, 0, 0, 2], [0, 0, 0, 0], [2, 0, 0, 0]]
    assert reading.doubtful == []
    assert reading.state.score == 24096


# -- Kibitz's own view ------------------------------------------------------------------------------------
OWN_BOARDS = {
    "mixed": [[2, 0, 4, 8], [16, 4096, 0, 32], [64, 8192, 16384, 128], [256, 32768, 65536, 2]],
    "sparse": [[0, 0, 0, 2], [0, 0, 0, 0], [0, 4, 0, 0], [512, 1024, 2048, 131072]],
    # full and no two equal neighbours: the view lays "Game over!" over it
    "over": [[2, 4, 8, 16], [32, 64, 128, 256], [512, 1024, 2048, 4096], [8192, 16384, 32768, 65536]],
}


@pytest.mark.parametrize("size", [(260, 240), (520, 420), (900, 900)])
@pytest.mark.parametrize("board", sorted(OWN_BOARDS))
def test_own_view_boards(size, board):
    rows = OWN_BOARDS[board]
    image = render_board("2048", State.from_rows(rows), size, noise=6.0, seed=sum(size))
    reading = read("2048", image)
    if board == "over" and size == (260, 240):
        # under the veil at this size a super tile's digits are a few pixels: doubtful, never wrong
        assert all(rows[r][c] > 2048 for r, c in reading.doubtful)
        assert all(reading.cells[r][c] == rows[r][c] for r in range(4) for c in range(4)
                   if (r, c) not in reading.doubtful)
        return
    assert reading.cells == rows
    assert reading.doubtful == []
    assert reading.diagnostics["overlay"] == ("over" if board == "over" else None)


# -- not a board --------------------------------------------------------------------------------------------
def _gradient() -> np.ndarray:
    x, y = np.meshgrid(np.linspace(0, 255, 640), np.linspace(0, 255, 480))
    return np.dstack([x, y, 255 - x]).astype(np.uint8)


NOT_BOARDS = {
    "uniform": lambda: np.full((480, 640, 3), (160, 173, 187), np.uint8),  # all the board's colour
    "noise": lambda: np.random.default_rng(3).integers(0, 256, (480, 640, 3), dtype=np.uint8),
    "gradient": _gradient,
    "tiny": lambda: np.zeros((12, 12, 3), np.uint8),
}


@pytest.mark.parametrize("name", sorted(NOT_BOARDS))
def test_not_a_board(name):
    with pytest.raises(NoBoardFound):
        read("2048", NOT_BOARDS[name]())


@pytest.mark.parametrize("other", ["1010/mfkasim_snapshot-1010.png", "splt/imbalance.jpg", "destructo/score1.png"])
def test_another_games_screenshot_is_not_a_board(reference_data, other):
    from vision.images import load

    path = reference_data / other
    if not path.is_file():
        pytest.skip(f"{other} not in the reference data")
    with pytest.raises(NoBoardFound):
        read("2048", load(path))



@pytest.mark.parametrize("channels", ["grey", "bgra"])
def test_grey_and_bgra_screenshots_read_as_the_colour_one(truth, screenshots, channels):
    # the other readers take grey and BGRA images; 2048's raised an OpenCV error on a grey one
    image = screenshots["quiet_board.png"]
    image = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY if channels == "grey" else cv2.COLOR_BGR2BGRA)
    try:
        reading = read("2048", image)
    except NoBoardFound:
        return  # a grey 2048 board may well be unreadable (its tiles are told by colour)
    if channels == "bgra":
        assert reading.cells == truth["quiet_board.png"].expected

# -- the command line and the templates -------------------------------------------------------------------
def test_kibitz_read_json(capsys, truth):
    case = truth["win_overlay.png"]
    code = cli.main(["read", "2048", str(case.image), "--json"])
    out, _ = capsys.readouterr()
    assert code == 0
    result = json.loads(out)
    assert set(result) >= {"game", "board", "cells", "confidence", "doubtful", "diagnostics"}
    assert result["game"] == "2048"
    assert result["cells"] == case.expected
    assert result["doubtful"] == []
    assert result["board"].splitlines()[0] == "score 22048"
    assert result["diagnostics"]["overlay"] == "win"
    assert (result["diagnostics"]["score"], result["diagnostics"]["best"]) == (22048, 22048)


def test_digit_templates_are_what_the_script_renders(qapp):
    """digits.png is made by assets/vision/g2048/make_templates.py from the font files shipped in
    assets/fonts: every row is what the script renders, whatever fonts the machine has."""
    from assets.fonts import draws_with, qt_font
    from assets.vision.g2048 import make_templates

    stored = cv2.imread(str(make_templates.OUTPUT), cv2.IMREAD_GRAYSCALE)
    side = g2048.TEMPLATE_SIDE
    assert stored.shape == (len(make_templates.FONTS) * side, 10 * side)
    for index, (name, font_file) in enumerate(make_templates.FONTS):
        assert draws_with(qt_font(font_file, 24), font_file), name
        made = make_templates.template_row(font_file)
        assert np.abs(made.astype(int) - stored[index * side:(index + 1) * side].astype(int)).mean() < 2, name


@pytest.mark.parametrize("colour", ["#bbada0", "#eee4da", "#edc22e", "#3c3a32", "#f3d774"])
def test_a_page_colour_comes_back_from_lab(colour):
    """The reader mixes glows in RGB from colours it measured in Lab: ``vision.colour.rgb_of_lab``
    undoes the Lab of the page's own colours (spec 5.3) to a fraction of a unit."""
    from vision.colour import lab_of_hex, rgb_of_hex, rgb_of_lab

    assert np.allclose(rgb_of_lab(lab_of_hex(colour)), rgb_of_hex(colour), atol=0.5)
