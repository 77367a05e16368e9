"""The 1010! board reader (``vision.tenten``).

Expected values come from the shared transcription of the real phone screenshot
(``tests/vision/truth_tenten.py``), for boards drawn by Kibitz's own 1010! view from the state put
on the board (grids the engine's rules reach by placing pieces), and for pictures of the real
game's dark and light looks (``tests/vision/tenten_looks.py``) from what was drawn, never from the
reader.
"""

from __future__ import annotations

import dataclasses
import json
import statistics
import time
from pathlib import Path

import cv2
import numpy as np
import pytest

from app import cli
from app.gui.games.tenten.layout import widget_size
from engines.tenten import BY_LETTER, LETTERS, State
from engines.tenten import reference as rules
from tests.vision import tenten_looks
from tests.vision.pictures import jpeg, resized
from tests.vision.render import render_board
from tests.vision.truth_tenten import cases
from vision import NoBoardFound, read
from vision import tenten

TRUTH_ROWS_HEADER = "score 661 · tray V i 0"


@pytest.fixture(scope="module")
def case(reference_data: Path):
    found = cases(reference_data)
    if not found:
        pytest.skip("1010/truth.json not in the reference data")
    return found[0]


@pytest.fixture(scope="module")
def screenshot(case) -> np.ndarray:
    return case.load()



def test_real_screenshot_cell_for_cell(case, screenshot):
    reading = read("1010", screenshot)
    assert reading.cells == case.expected
    assert case.compare(case.expected, reading.cells) == (103, 103)
    assert reading.diagnostics["colours"] == case.extra["colours"]
    assert [slot.get("colour") for slot in reading.diagnostics["tray"]] == case.extra["tray_colours"]
    header, *rows = reading.board_text().splitlines()
    assert header == TRUTH_ROWS_HEADER
    assert reading.state == State.from_rows(rows, ("V", "i", None), 661)
    assert reading.state.filled_count == 41
    assert (reading.diagnostics["score"], reading.diagnostics["best"]) == (case.extra["score"], case.extra["best"])
    board = reading.diagnostics["board_px"]
    truth_board = case.extra["board_px"]
    for side in ("left", "top", "right", "bottom"):
        assert board[side] == pytest.approx(truth_board[side], abs=1.5)


def test_the_dragged_single_is_reported_and_the_cell_it_hides_is_doubtful(case, screenshot):
    reading = read("1010", screenshot)
    dragged = reading.diagnostics["dragged"]
    assert dragged["piece"] == case.extra["dragged_piece"] == "."
    assert dragged["colour"] == "purple"
    (box,) = dragged["boxes_px"]
    assert box == pytest.approx(case.extra["dragged_box"], abs=3)
    assert [8, 9] in dragged["covers"]
    # the orange cell under it is read from the part that shows, but flagged for the user
    assert reading.cells["grid"][8][9] == 1
    assert reading.doubtful == [(8, 9)]
    # and the slot it came from is empty: the dragged piece is in neither the grid nor the tray
    assert reading.state.tray == ("V", "i", None)


def test_confidence_is_a_margin_not_a_constant(screenshot):
    confidence = read("1010", screenshot).per_cell_confidence
    assert confidence.shape == (10, 10)
    sure = np.delete(confidence.ravel(), 89)  # all but the dragged-over cell (8, 9)
    assert sure.min() >= 0.6 and len(np.unique(sure)) > 10
    assert confidence[8, 9] < sure.min()


@pytest.mark.parametrize("factor", [0.5, 0.6, 1.7, 2.5])
def test_resized_screenshot_reads_the_same(case, screenshot, factor):
    reading = read("1010", resized(screenshot, factor))
    assert reading.cells == case.expected
    assert reading.diagnostics["colours"] == case.extra["colours"]
    assert reading.doubtful == [(8, 9)]
    assert reading.diagnostics["dragged"]["piece"] == "."
    # the score is read or left unread, never misread
    assert reading.diagnostics["score"] in (661, None)
    assert reading.state.score == (reading.diagnostics["score"] or 0)
    assert reading.diagnostics["best"] in (3854, None)


def test_screenshot_inside_a_page_and_a_desktop(case, screenshot):
    page = np.full((900, 1400, 3), 255, np.uint8)
    cv2.putText(page, "1010! Challenge Part 1", (50, 80), cv2.FONT_HERSHEY_SIMPLEX, 2, (30, 30, 30), 3)
    page[200:676, 300:568] = screenshot
    desktop = np.full((1440, 2560, 3), (60, 50, 40), np.uint8)
    desktop[300:776, 1000:1268] = screenshot
    for image in (page, desktop):
        reading = read("1010", image)
        assert reading.cells == case.expected
        assert reading.diagnostics["board_px"]["left"] == pytest.approx(16 + (300 if image is page else 1000), abs=1.5)


def reading_ms(image: np.ndarray, repeats: int = 7) -> float:
    """The median time of a read in milliseconds, as the processor time of this thread with
    OpenCV on one thread: what the reader costs, not how busy the machine is (the tests of other
    work share its two cores)."""
    read("1010", image)
    threads = cv2.getNumThreads()
    cv2.setNumThreads(1)
    try:
        times = []
        for _ in range(repeats):
            started = time.thread_time()
            read("1010", image)
            times.append((time.thread_time() - started) * 1000)
    finally:
        cv2.setNumThreads(threads)
    return statistics.median(times)


def test_reading_time(screenshot):
    assert reading_ms(screenshot) <= 100


def test_digit_templates_are_regenerated_from_the_shared_screenshot(reference_data):
    from assets.vision.tenten.make_templates import templates_from

    regenerated = templates_from(reference_data)
    stored = tenten.digit_templates()
    assert sorted(regenerated) == sorted(stored) == list("134568")
    for digit, template in regenerated.items():
        assert np.abs(template.astype(np.float32) / 255 - stored[digit]).max() <= 1 / 255 + 1e-6


def test_font_digit_templates_are_what_the_script_draws_from_the_shipped_font(qapp):
    from assets.vision.tenten.make_templates import FONTS, font_templates

    stored = tenten.font_digit_templates()
    assert sorted(stored) == sorted(FONTS) == ["Clear Sans"]
    drawn = font_templates(FONTS["Clear Sans"][0])
    assert sorted(drawn) == sorted(stored["Clear Sans"]) == list("0123456789")
    for digit, template in drawn.items():
        # the same shipped file drawn by the same Qt: at most a rounding step apart per pixel
        assert np.abs(template.astype(np.float32) / 255 - stored["Clear Sans"][digit]).max() <= 2 / 255 + 1e-6


# -- the state before ------------------------------------------------------------------------------
def test_previous_state_settles_the_hidden_cell(case, screenshot):
    rows = ["".join("#" if cell else "." for cell in row) for row in case.expected["grid"]]
    # before the drag: the single still in slot 3; no placement of V, i or . leaves a grid that
    # agrees with every sure cell except the previous grid itself, so (8, 9) is as it was: filled
    before = State.from_rows(rows, ("V", "i", "."), 650)
    reading = read("1010", screenshot, previous=before)
    assert reading.diagnostics["previous"]["settled"] == [[8, 9]]
    assert reading.cells["grid"][8][9] == 1 and reading.doubtful == []
    # had (8, 9) been empty before, the single could have gone there: both grids agree with the
    # sure cells, so the cell stays doubtful
    rows[8] = rows[8][:9] + "."
    reading = read("1010", screenshot, previous=State.from_rows(rows, ("V", "i", "."), 650))
    assert reading.diagnostics["previous"]["settled"] == [] and reading.doubtful == [(8, 9)]


def test_previous_state_corrects_a_doubtful_misread():
    # row 0 read "#########." with (0, 9) doubtful and read filled; the state before had row 0
    # "########.." with a domino 'i' in the tray: i at (0, 9) would fill row 0 and clear it, which
    # disagrees with the sure cells, so the only grid that agrees is the one before: (0, 9) empty
    grid = np.zeros((10, 10), np.int8)
    grid[0, :10] = 1
    grid[1, 9] = 0
    confidence = np.ones((10, 10))
    confidence[0, 9] = 0.3
    before = State.from_rows(["########.."] + ["." * 10] * 9, ("i", None, None))
    grid[0, 8] = 0
    found = tenten.reconcile_with_previous(grid, confidence, before)
    assert found["settled"] == [[0, 9]] and grid[0, 9] == 0 and confidence[0, 9] >= 0.6


# -- boards drawn by Kibitz's own view --------------------------------------------------------------
def random_board(seed: int, placements: int) -> int:
    """A grid the rules reach: ``placements`` pieces, each a random piece at a random legal anchor,
    with the clears after each."""
    rng = np.random.default_rng(seed)
    filled = 0
    for _ in range(placements):
        letter = LETTERS[rng.integers(len(LETTERS))]
        anchors = rules.placements(filled, letter)
        if anchors:
            row, column = anchors[rng.integers(len(anchors))]
            filled = rules.place(filled, letter, row, column)[0]
    return filled


OWN_VIEW_STATES = [
    State(random_board(1, 30), ("O", "J", "h"), 0),  # a full tray of three different pieces
    State(random_board(2, 45), ("V", "i", None), 0),
    State(random_board(3, 25), ("r", "-", "T"), 0),
    State(0, ("H", ".", "L"), 0),
    State(random_board(4, 40), (None, "R", "o"), 0),
    State(random_board(5, 35), (None, None, None), 0),  # a deal due
]


@pytest.mark.parametrize("side", [230, 420, 800])
@pytest.mark.parametrize("number", range(len(OWN_VIEW_STATES)))
def test_own_view_boards(side, number):
    state = OWN_VIEW_STATES[number]
    assert state.deal_due or rules.can_place_any(state)
    size = widget_size(side)
    image = render_board("1010", state, (size.width(), size.height()), noise=5.0, seed=number)
    reading = read("1010", image)
    assert reading.state.filled == state.filled
    assert reading.state.tray == state.tray
    assert reading.cells["tray"] == list(state.tray)
    assert reading.doubtful == []
    assert "dragged" not in reading.diagnostics


def test_own_view_full_tray_pieces_are_told_by_shape():
    # every piece letter appears in some tray slot, at a small size with noise (on boards where
    # the game goes on: the view darkens a finished game's board)
    for first in range(0, len(LETTERS), 3):
        tray = tuple(LETTERS[(first + k) % len(LETTERS)] for k in range(3))
        state = State(random_board(first, 12), tray, 0)
        assert rules.can_place_any(state)
        size = widget_size(260)
        image = render_board("1010", state, (size.width(), size.height()), noise=4.0, seed=first)
        assert read("1010", image).state == state


def test_a_full_line_makes_its_cells_doubtful():
    # the game removes a full row at once: a reading with one was caught mid-clear
    state = State.from_rows(["#" * 10] + ["#...#....."] * 3 + ["." * 10] * 6, ("o", None, None))
    size = widget_size(300)
    reading = read("1010", render_board("1010", state, (size.width(), size.height()), noise=3.0))
    assert reading.state.filled == state.filled
    assert reading.diagnostics["full_lines"] == [["row", 0]]
    assert reading.doubtful == [(0, c) for c in range(10)]


def test_a_piece_dragged_over_an_own_view_board():
    state = State.from_rows(["." * 10] * 5 + ["##########"[:9] + "."] + ["." * 10] * 4, ("V", None, None))
    size = widget_size(400)
    image = render_board("1010", state, (size.width(), size.height()), noise=3.0)
    reading = read("1010", image)
    geometry = reading.diagnostics["board_px"]
    pitch = geometry["cell_pitch"]
    # a purple single drawn at board scale, 0.4 of a cell right of and 0.3 below the middle of (2, 4)
    x = round(geometry["left"] + 4.4 * pitch + 0.06 * pitch)
    y = round(geometry["top"] + 2.3 * pitch + 0.06 * pitch)
    cv2.rectangle(image, (x, y), (x + round(0.88 * pitch), y + round(0.88 * pitch)), (220, 142, 132), -1)
    reading = read("1010", image)
    assert reading.diagnostics["dragged"]["piece"] == "."
    assert reading.state.filled == state.filled
    assert set(reading.doubtful) <= {(2, 4), (2, 5), (3, 4), (3, 5)} and reading.doubtful


# -- not a board ------------------------------------------------------------------------------------
def _not_boards():
    rng = np.random.default_rng(7)
    y, x = np.mgrid[0:400, 0:600]
    yield "uniform", np.full((476, 268, 3), (36, 33, 35), np.uint8)
    yield "noise", rng.integers(0, 256, (480, 480, 3), dtype=np.uint8)
    yield "gradient", np.dstack([x * 255 // 600, y * 255 // 400, (x + y) * 255 // 1000]).astype(np.uint8)


@pytest.mark.parametrize("name,image", list(_not_boards()))
def test_not_a_board(name, image):
    with pytest.raises(NoBoardFound):
        read("1010", image)


@pytest.mark.parametrize("other", ["2048/new_game.png", "splt/imbalance.jpg", "destructo/blocks_before.png"])
def test_another_games_screenshot_is_not_a_board(reference_data, other):
    from vision.images import load

    path = reference_data / other
    if not path.is_file():
        pytest.skip(f"{other} not in the reference data")
    with pytest.raises(NoBoardFound):
        read("1010", load(path))


# -- the command line -------------------------------------------------------------------------------
def test_kibitz_read_json(capsys, case):
    code = cli.main(["read", "1010", str(case.image), "--json"])
    out, err = capsys.readouterr()
    assert code == 0, err
    result = json.loads(out)
    assert result["game"] == "1010"
    assert result["board"].splitlines()[0] == TRUTH_ROWS_HEADER
    assert result["cells"] == case.expected
    assert result["doubtful"] == [[8, 9]]
    assert 0 < result["confidence"] < 0.6
    assert result["diagnostics"]["dragged"]["piece"] == "."
    assert all(len(row) == 10 and set(row) <= {0, 1} for row in result["cells"]["grid"])
    assert set(result["cells"]["tray"]) <= set(BY_LETTER) | {None}


# -- the real game's looks, drawn from what is known of them -----------------------------------------
#: A seeded sample: every look and layout in turn, at phone to 4K sizes, PNG and JPEG 60-95, a third
#: resized after drawing.
LOOK_SAMPLE_SIZE = 32


@pytest.fixture(scope="module")
def look_sample(qapp):
    return list(tenten_looks.captures(LOOK_SAMPLE_SIZE, seed=22))


def test_drawn_looks_read_exactly_and_never_wrong_unflagged(look_sample):
    seen_looks, trays_right, scores_right, drags = set(), 0, 0, 0
    for image, truth, label in look_sample:
        where = f"{label} {truth['width']} px {truth['format']} resized {truth['resized']}"
        reading = read("1010", image)
        seen_looks.add(label)
        if "dragged" in truth:
            # a piece in mid-drag: seen; the cells it hides are read right or doubtful
            drags += 1
            assert reading.diagnostics["dragged"]["boxes_px"], where
            covered = {tuple(cell) for cell in truth["dragged"]["covered"]}
            wrong = {(r, c) for r in range(10) for c in range(10)
                     if reading.cells["grid"][r][c] != truth["grid"][r][c]}
            assert wrong <= covered and wrong <= set(reading.doubtful), where
            full = {(r, c) for kind, index in reading.diagnostics.get("full_lines", [])
                    for r, c in ([(index, k) for k in range(10)] if kind == "row" else [(k, index) for k in range(10)])}
            assert set(reading.doubtful) <= covered | full, where
        else:
            assert reading.cells["grid"] == truth["grid"], where
            assert reading.doubtful == [], where
            assert reading.state.filled == State.from_rows(truth["grid"]).filled, where
            assert "dragged" not in reading.diagnostics, where
        tolerance = 0.1 * truth["board_px"]["cell_pitch"]
        for side in ("left", "top", "right", "bottom"):
            assert reading.diagnostics["board_px"][side] == pytest.approx(truth["board_px"][side], abs=tolerance), where
        # the tray and the score are right, or doubtful: never silently wrong
        if reading.cells["tray"] == truth["tray"]:
            trays_right += 1
        else:
            assert "tray" in reading.doubtful_fields, where
        if reading.diagnostics["score"] == truth["score"]:
            scores_right += 1
            assert reading.state.score == truth["score"], where
        else:
            assert reading.diagnostics["score"] is None and "score" in reading.doubtful_fields, where
    assert seen_looks == {"dark phone", "dark web", "light phone", "light web"} and drags
    assert trays_right >= 0.9 * LOOK_SAMPLE_SIZE and scores_right >= 0.9 * LOOK_SAMPLE_SIZE


@pytest.mark.parametrize("look", ["dark", "light"])
@pytest.mark.parametrize("layout,width,quality", [("phone", 320, 60), ("phone", 1440, 90), ("web", 3840, None),
                                                  ("web", 1024, 75)])
def test_each_look_from_phone_to_4k(qapp, look, layout, width, quality):
    position = tenten_looks.random_position(np.random.default_rng(width), placements=40)
    image, truth = tenten_looks.draw(position, look, layout, width)
    image = jpeg(image, quality)
    reading = read("1010", image)
    assert reading.cells == {"grid": truth["grid"], "tray": truth["tray"]}
    assert reading_ms(image, repeats=3) <= 100
    assert reading.diagnostics["score"] == truth["score"]
    assert reading.diagnostics["best"] in (truth["best"], None)  # not part of the state: read or left
    assert reading.sure
    assert reading.state == State.from_rows(truth["grid"], tuple(truth["tray"]), truth["score"])


@pytest.mark.parametrize("look", ["dark", "light"])
def test_every_piece_in_the_tray_of_each_look(qapp, look):
    # the light look draws tray pieces at nearly the board's scale (less when too wide for a slot),
    # the dark one at 0.62: each letter is told by its cells, whatever the scale
    rng = np.random.default_rng(5)
    for first in range(0, len(LETTERS), 3):
        tray = tuple(LETTERS[(first + k) % len(LETTERS)] for k in range(3))
        position = dataclasses.replace(tenten_looks.random_position(rng, placements=20), tray=tray)
        image, truth = tenten_looks.draw(position, look, "phone", 420)
        reading = read("1010", jpeg(image, 80))
        assert reading.cells["tray"] == list(tray), truth["tray_scales"]
        assert "tray" not in reading.doubtful_fields


def test_light_look_on_near_white_pages_and_inside_a_desktop(qapp):
    position = tenten_looks.random_position(np.random.default_rng(3), placements=30)
    for page in tenten_looks.LIGHT.page:
        image, truth = tenten_looks.draw(position, "light", "phone", 360, page=page)
        assert read("1010", image).cells["grid"] == truth["grid"], page
    # the phone's picture on a dark desktop, far from its middle
    desktop = np.full((1440, 2560, 3), (48, 40, 36), np.uint8)
    desktop[700:700 + image.shape[0], 1900:1900 + image.shape[1]] = image
    reading = read("1010", desktop)
    assert reading.cells == {"grid": truth["grid"], "tray": truth["tray"]}
    assert reading.diagnostics["board_px"]["left"] == pytest.approx(1900 + truth["board_px"]["left"], abs=1.5)


@pytest.mark.parametrize("look", ["dark", "light"])
def test_a_cut_off_header_or_tray_is_doubtful_not_guessed(qapp, look):
    position = tenten_looks.random_position(np.random.default_rng(9), placements=30)
    image, truth = tenten_looks.draw(position, look, "phone", 480)
    board = truth["board_px"]
    pitch = board["cell_pitch"]
    no_header = image[round(board["top"] - 0.5 * pitch):]
    reading = read("1010", no_header)
    assert reading.cells["grid"] == truth["grid"]
    assert reading.diagnostics["score"] is None and reading.state.score == 0
    assert "score" in reading.doubtful_fields and not reading.sure
    no_tray = image[:round(board["bottom"] + 0.6 * pitch)]
    reading = read("1010", no_tray)
    assert reading.cells["grid"] == truth["grid"]
    assert "tray" in reading.doubtful_fields and not reading.sure


@pytest.mark.parametrize("look", ["dark", "light"])
def test_a_piece_dragged_over_each_look(qapp, look):
    # a 5-bar half a cell off the grid over a row of filled cells and an empty column
    colours = tuple(tuple("teal" if r in (3, 6) and c != 5 else None for c in range(10)) for r in range(10))
    image, truth = tenten_looks.draw(tenten_looks.Position(colours, ("V", None, "o"), 120, 999), look, "phone", 420,
                                     dragged=("H", 2.55, 5.6))
    reading = read("1010", image)
    assert reading.diagnostics["dragged"]["piece"] == "H"
    assert reading.cells["tray"] == ["V", None, "o"]
    wrong = {(r, c) for r in range(10) for c in range(10) if reading.cells["grid"][r][c] != truth["grid"][r][c]}
    assert wrong <= set(reading.doubtful) <= {tuple(cell) for cell in truth["dragged"]["covered"]}
    assert reading.doubtful and not reading.sure


def test_the_benchmark_judge_counts_silent_errors_apart():
    from vision.reading import Reading

    truth = {"grid": [[0] * 10 for _ in range(10)], "tray": ["o", None, "V"], "score": 42}
    grid = [row[:] for row in truth["grid"]]
    grid[2][3] = grid[5][5] = 1  # two cells wrong, one of them marked doubtful
    confidence = np.ones((10, 10))
    confidence[5, 5] = 0.3
    reading = Reading("1010", State.from_rows(grid, ("o", None, "I"), 0), {"grid": grid, "tray": ["o", None, "I"]},
                      confidence, {"score": None}, ("score",))
    counts = tenten_looks.judge(reading, truth)
    assert counts["cells_wrong"] == 2 and counts["cells_wrong_not_doubtful"] == 1 and counts["cells_right"] == 98
    assert counts["tray_right"] == 0 and counts["tray_wrong_not_doubtful"] == 1
    assert counts["score_right"] == 0 and counts["score_wrong_not_doubtful"] == 0
    assert counts["boards_exact"] == 0 and counts["sure"] == 0


#: Pictures of ``tenten_looks.captures(500, 22)`` (numbers 82, 198 and 483) that were read wrong
#: without a doubt, drawn again from their parameters: (board by colour initial, tray, score, best,
#: layout, width, page, dragged piece (letter, column, row), resize factor, JPEG quality).
_INITIALS = {"b": "blue", "g": "green", "r": "red", "t": "teal", "p": "pink", "l": "lime", "o": "orange",
             "y": "yellow", "u": "purple"}
SILENT_ERRORS_SEED_22 = {
    # a blue L dragged over blue cells: no square of it stands apart, the empty cells it half covers
    # looked filled
    "blue piece over blue cells": (
        ["...o.ybbbb", "...o.ypppp", "...obbbooo", "tttbbbbbb.", "u..bbb..b.", "g..y.b..b.", "gg.y.bbbb.",
         ".yy.yy.bbb", "ooo...gg.b", "..rrrrrgub"], (None, None, None), 97, 34064,
        "phone", 328, "#f6f6f6", ("L", 3.705195874969259, 2.9341493741624354), 0.8687215600214544, 71),
    # a red 5-bar dragged over red and other cells: two of its five cells were found, the empty
    # cell under a third looked filled
    "red bar partly found": (
        [".ooo..o...", ".gg.g.trg.", "..g.ggtr.o", "ggb....r.o", "llb....gg.", "llb.b.bg..", "lgg.b.r..p",
         "bg..b.rb.p", "b.ug..rbgp", "..gg..oo.."], ("j", None, "r"), 174, 5981,
        "phone", 359, "#ffffff", ("H", 1.7927492325200336, 4.904873883151745), 1.0, None),
    # the score's first three digits ran into one mark taller than the rest: 241 was read for 906241
    "score digits run together": (
        [".oooyygb.b", "ttt..ggy.b", ".bbb...b.b", "ybbbb.gg.b", ".b.....g..", "rpbttt...p", "rp.uullygp",
         ".yyy.yyggg", "r.gypppp.p", "rrrrrrbb.."], ("R", None, None), 906241, 931579,
        "web", 1178, "#ffffff", ("O", 6.727393252484754, 0.49986423226928967), 0.6448100024468334, 67),
}


@pytest.mark.parametrize("name", list(SILENT_ERRORS_SEED_22))
def test_silent_errors_found_in_the_seeded_looks_are_doubtful(qapp, name):
    rows, tray, score, best, layout, width, page, dragged, factor, quality = SILENT_ERRORS_SEED_22[name]
    colours = tuple(tuple(_INITIALS.get(code) for code in row) for row in rows)
    position = tenten_looks.Position(colours, tray, score, best)
    image, truth = tenten_looks.draw(position, "light", layout, width, page, dragged)
    if factor != 1.0:
        image = resized(image, factor)
    image = jpeg(image, quality)
    reading = read("1010", image)
    counts = tenten_looks.judge(reading, {**truth, "grid": position.grid, "tray": list(tray), "score": score})
    assert counts["cells_wrong_not_doubtful"] == 0
    assert counts["score_wrong_not_doubtful"] == 0
    assert not reading.sure
