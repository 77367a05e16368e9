"""The 2048 reader on the real page: a seeded sample of captures from ``tests/vision/pages_2048.py``
(wide and phone layouts, device scale factors 1 to 3, browser zoom 50-200 %, every overlay, tiles
up to 131072, the 2024 redesign, clones with ads, dithered GIF frames, frames caught
mid-animation), each checked against the page's own state (its ``localStorage["gameState"]``):
every cell the reader is sure of is the page's (a frame caught mid-animation may show a cell as it
was before the key, as it ends, or as the slid tiles show it before the merges and the new tile
appear), the overlay is the page's, the score is the page's or said to be
doubtful."""

from __future__ import annotations

import numpy as np
import pytest

from tests.real_pages import live_page, read_captures
from tests.vision.pages_2048 import captures
from vision import NoBoardFound

COUNT = 36
SEED = 22


@pytest.fixture(scope="module")
def sample():
    with live_page("2048") as (browser, url):
        return read_captures("2048", list(captures(browser, url, COUNT, seed=SEED)))


def _wrong_and_sure(truth, reading) -> list[tuple[int, int, int, int]]:
    """(row, column, page's value, value read) of every cell read wrong and not doubtful."""
    doubtful = set(reading.doubtful)
    wrong = []
    for row in range(4):
        for column in range(4):
            got = reading.cells[row][column]
            allowed = {truth["cells"][row][column]}
            if truth["animating"]:
                allowed.add(truth["before_cells"][row][column])
                allowed.update(board[row][column] for board in truth["between_cells"])
            if (row, column) not in doubtful and got not in allowed:
                wrong.append((row, column, truth["cells"][row][column], got))
    return wrong


@pytest.mark.parametrize("index", range(COUNT))
def test_capture_read_as_the_page_shows_it(sample, index):
    truth, look, reading = sample[index]
    assert not isinstance(reading, NoBoardFound), f"{look}: {reading}"
    assert _wrong_and_sure(truth, reading) == [], look
    if not truth["animating"]:
        assert reading.diagnostics["overlay"] == truth["overlay"], look
        if "score" not in reading.doubtful_fields:
            assert reading.diagnostics.get("score") == truth["score"], look
    if reading.sure and not truth["animating"]:
        assert reading.cells == truth["cells"], look


def test_the_sample_covers_the_looks_and_is_mostly_read_sure(sample):
    looks = " ".join(look for _, look, _ in sample)
    for word in ("narrow", "wide", "dpr2", "over", "win", "keep-going", "redesign2024", "ads", "gif"):
        assert word in looks, word
    settled = [(truth, reading) for truth, _, reading in sample
               if not truth["animating"] and not isinstance(reading, NoBoardFound)]
    assert len(settled) >= 0.75 * len(sample)
    cells = sum(np.sum(np.array(reading.cells) == np.array(truth["cells"])) for truth, reading in settled)
    assert cells >= 0.9 * 16 * len(settled)
    scores = sum(reading.diagnostics.get("score") == truth["score"] for truth, reading in settled)
    assert scores >= 0.8 * len(settled)


#: Up from this board, the 64 and the 8 slide two cells (row 3 to row 1): some 50 ms into the
#: page's 100 ms slide they are drawn a little below row 2, where no board of the move has them.
SLIDING_BEFORE = [[4, 16, 0, 0], [0, 0, 2, 2], [0, 2, 0, 0], [64, 32, 8, 2]]


@pytest.mark.parametrize("ms", [40, 48, 56])
def test_tiles_caught_part_way_through_a_slide_are_doubtful(ms):
    from tests.vision.pages_2048 import Page2048, in_between_boards
    from vision import read

    with live_page("2048") as (browser, url):
        page = Page2048(browser, url, viewport=(1400, 1400), scale=1.0, zoom=1.5)
        try:
            for _ in range(3):  # on a busy machine the slide may be over before it is frozen
                page.show(SLIDING_BEFORE)
                page.page.keyboard.press("ArrowUp")
                if page.freeze(ms) > 0:
                    break
            else:
                pytest.skip("the page's slide was over before it could be frozen (a busy machine)")
            truth = {**page.truth(), "animating": True, "before_cells": SLIDING_BEFORE,
                     "between_cells": in_between_boards(SLIDING_BEFORE, "up")}
            image = page.screenshot()
        finally:
            page.close()
    reading = read("2048", image)
    assert truth["cells"] != SLIDING_BEFORE, "the page did not take the key"
    assert _wrong_and_sure(truth, reading) == [], (reading.cells, reading.diagnostics.get("covered"))
    assert reading.diagnostics.get("in_motion") is True, reading.diagnostics


#: The 2024 redesign at 50 % zoom writes SCORE in digits about 12 pixels tall: once read 41565 for
#: 43565 with the least digit margin a normal-sized score needs. Small print needs a wider margin.
@pytest.mark.parametrize("score", [43565, 13531, 31313])
def test_a_small_print_score_of_the_redesign_is_right_or_doubtful(score):
    import json

    from tests.vision.pages_2048 import _REDESIGN, Page2048, _redesign_css
    from vision import g2048, read

    rows = [[0, 0, 0, 2], [2, 0, 0, 0], [4, 32, 32, 128], [2048, 1024, 512, 256]]
    with live_page("2048") as (browser, url):
        page = Page2048(browser, url, viewport=(1280, 900), scale=1.0, zoom=0.5)
        try:
            page.inject(f"() => ({_REDESIGN})({json.dumps(_redesign_css())})")
            truth = page.show(rows, score, won=True)
            image = page.screenshot()
        finally:
            page.close()
    reading = read("2048", image)
    assert reading.diagnostics["score_digit_px"] < g2048.SMALL_PRINT, reading.diagnostics
    if "score" not in reading.doubtful_fields:
        assert reading.state.score == truth["score"] == score, reading.diagnostics
