"""The advice overlay (Capture ▸ Show advice on the game): its window's flags, its geometry over
the captured region at device-pixel ratios 1 and 2 and on a second screen (a process of its own on
simulated screens), and when it shows in the window's journeys: only once follow mode has read the
game and the advisor has ranked that position, hidden on a reading no legal move explains and back
after the next explained move, refused on Wayland, hidden when the region leaves every screen.

Follow mode runs the real ``vision.follow.Follower`` on frames the test paints; the reader is a
fake answering the position the test chose, with a cell grid written out by hand. The expected
pixels and rectangles are worked out from the region and the grid, by hand.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from PySide6.QtCore import QRect, Qt
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import QApplication

import vision
import vision.capture
from app.gui.advice_overlay import OPACITY_KEY, AdviceOverlay
from app.gui.capture import RememberedRegion
from engines import GAMES
from engines.g2048 import UP, Slide, Spawn
from engines.g2048 import State as G2048State
from vision.capture import Monitor, Region
from vision.reading import CellGrid, Reading

RUNNER = Path(__file__).with_name("overlay_geometry_runner.py")
G2048 = GAMES["2048"]
BOARD_ROWS = ((2, 0, 0, 4), (0, 8, 0, 0), (0, 0, 16, 0), (2, 0, 0, 0))
SIDE = 400  # the region and the board read in it: 400 pixels square, four 100-pixel cells


def board_state(rows=BOARD_ROWS, score=20) -> G2048State:
    return G2048State.from_rows(rows, score=score)


def reading_of(state) -> Reading:
    grid = CellGrid(0, 0, SIDE / 4, SIDE / 4, 4, 4, (SIDE, SIDE))
    return Reading("2048", state, cells=None, per_cell_confidence=np.full((4, 4), 0.97),
                   diagnostics={"cell_grid": grid.to_json()})


class Reader:
    """Stands for ``vision.read``: answers the reading of ``state``."""

    def __init__(self, state) -> None:
        self.state = state
        self.calls = 0

    def __call__(self, game, image, previous=None):
        self.calls += 1
        return reading_of(self.state)


def frame(shade: int) -> np.ndarray:
    """A frame of the region: a flat shade with a band (follow mode compares frames, the fake
    reader does the reading)."""
    image = np.full((SIDE, SIDE, 3), shade, np.uint8)
    image[10:30, :, :] = 255 - shade
    return image


# -- the window ------------------------------------------------------------------------------------
def test_the_window_lets_input_through_stays_on_top_and_never_takes_focus(qapp):
    overlay = AdviceOverlay()
    flags = overlay.windowFlags()
    for flag in (Qt.WindowType.WindowTransparentForInput, Qt.WindowType.WindowStaysOnTopHint,
                 Qt.WindowType.WindowDoesNotAcceptFocus, Qt.WindowType.FramelessWindowHint, Qt.WindowType.Tool):
        assert flags & flag, flag
    for attribute in (Qt.WidgetAttribute.WA_TransparentForMouseEvents, Qt.WidgetAttribute.WA_ShowWithoutActivating,
                      Qt.WidgetAttribute.WA_TranslucentBackground):
        assert overlay.testAttribute(attribute), attribute
    assert overlay.focusPolicy() == Qt.FocusPolicy.NoFocus
    overlay.deleteLater()


def test_geometry_matches_the_region_at_ratios_1_and_2_and_on_a_second_screen(tmp_path):
    """Left: 1000 x 700 at ratio 1. Right: 800 x 600 logical at ratio 2, from x = 1000. The region's
    image is its physical pixels; cell (1, 2) of its 4 x 4 grid is filled and outlined."""
    screens = {"screens": [
        {"name": "left", "x": 0, "y": 0, "width": 1000, "height": 700, "logicalDpi": 96, "logicalBaseDpi": 96,
         "dpr": 1},
        {"name": "right", "x": 1000, "y": 0, "width": 800, "height": 600, "logicalDpi": 96, "logicalBaseDpi": 96,
         "dpr": 2},
    ]}
    cases = [
        # ratio 1: the 400-pixel image over 400 logical pixels; cell (1, 2) spans x 200..300, y 100..200
        {"screen": "left", "logical": [100, 80, 400, 400], "image": [400, 400],
         "samples": [[250, 150], [50, 50], [350, 350]], "mask_samples": [[250, 150], [50, 50]],
         "covered_samples": [[250, 150], [50, 50]]},
        # ratio 2: 200 logical pixels, 400 device pixels; the cell's centre is device (250, 150),
        # logical (125, 75)
        {"screen": "right", "logical": [1250, 150, 200, 200], "image": [400, 400],
         "samples": [[250, 150], [50, 50]], "mask_samples": [[125, 75], [25, 25]],
         "covered_samples": [[250, 150], [50, 50]]},
        # a region half a logical pixel off the whole pixels: the window starts at the whole pixel
        # and draws one device pixel further in
        {"screen": "right", "logical": [1250.5, 150.5, 200, 200], "image": [400, 400],
         "samples": [[251, 151], [202, 151], [199, 151], [51, 51]], "mask_samples": [[126, 76], [25, 25]],
         "covered_samples": [[250, 150], [50, 50]]},
    ]
    config, case_file = tmp_path / "screens.json", tmp_path / "cases.json"
    config.write_text(json.dumps(screens))
    case_file.write_text(json.dumps(cases))
    environment = {**os.environ, "QT_QPA_PLATFORM": f"offscreen:configfile={config}"}
    finished = subprocess.run([sys.executable, str(RUNNER), str(case_file)], env=environment, capture_output=True,
                              text=True, timeout=300)
    assert finished.returncode == 0, finished.stderr[-3000:]
    results = [json.loads(line) for line in finished.stdout.splitlines() if line.startswith("{")]
    assert len(results) == 3, finished.stderr[-3000:]
    mark = [250, 40, 200, 255]
    clear = [0, 0, 0, 0]

    first, second, third = results
    assert first["geometry"] == [100, 80, 400, 400] and first["screen"] == "left"
    assert first["image"] == [400, 400] and first["ratio"] == 1
    assert first["colour_at"] == {"250,150": mark, "50,50": clear, "350,350": clear}
    assert first["mask_contains"] == {"250,150": True, "50,50": False}
    assert first["covered"] == [400, 400] and first["covered_at"] == {"250,150": True, "50,50": False}

    assert second["geometry"] == [1250, 150, 200, 200] and second["screen"] == "right"
    assert second["image"] == [400, 400] and second["ratio"] == 2
    assert second["colour_at"] == {"250,150": mark, "50,50": clear}
    assert second["mask_contains"] == {"125,75": True, "25,25": False}
    assert second["covered_at"] == {"250,150": True, "50,50": False}

    assert third["geometry"] == [1250, 150, 201, 201] and third["screen"] == "right"
    assert third["image"] == [402, 402] and third["ratio"] == 2
    # the cell spans device x 201..301: its fill at 251 and just inside the left edge's stroke,
    # nothing drawn left of the stroke's halo
    assert third["colour_at"]["251,151"] == mark and third["colour_at"]["51,51"] == clear
    assert third["colour_at"]["199,151"][3] > 0  # the edge's halo, centred on 201
    assert third["mask_contains"] == {"126,76": True, "25,25": False}


# -- journeys in the window ------------------------------------------------------------------------
@pytest.fixture
def followed(window, monkeypatch):
    """The 2048 window with a region remembered over a painted screen, the real follower and a
    fake reader answering ``reader.state``."""
    window.set_game("2048")
    window.load_position(board_state(), "start")
    frames = {"now": frame(60)}
    monkeypatch.setattr(vision.capture, "grab", lambda region: frames["now"])
    monkeypatch.setattr(vision.capture, "monitors", lambda: [Monitor(0, 0, 1600, 1000)])
    reader = Reader(board_state())
    monkeypatch.setattr(vision, "read", reader)
    screen = QGuiApplication.primaryScreen().name()
    window.capture.remember("2048", RememberedRegion(screen, (30, 40, SIDE, SIDE), Region(30, 40, SIDE, SIDE)))
    window.capture.follow_timer.setInterval(10)
    return window, frames, reader


def shown(window) -> bool:
    return window.advice_overlay.is_shown()


def test_it_shows_the_best_slide_once_the_game_is_read_and_ranked_and_hides_on_an_unexplained_board(
        qtbot, followed):
    window, frames, reader = followed
    window.activateWindow()
    qtbot.waitUntil(lambda: QApplication.activeWindow() is window, timeout=2000)
    window.board.setFocus()
    qtbot.keyClick(window.board, Qt.Key.Key_A, Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier)
    assert window.overlay_action.isChecked() and window.capture.is_following()  # follow mode came on with it
    qtbot.waitUntil(lambda: shown(window), timeout=60000)
    overlay = window.advice_overlay.overlay
    assert overlay.geometry() == QRect(30, 40, SIDE, SIDE)
    best = window.candidates[0].move.direction
    assert [mark.direction for mark in overlay.marks] == [best]
    qtbot.waitUntil(lambda: QApplication.activeWindow() is window, timeout=2000)  # the keyboard stays there

    # the board changes to one no legal move explains: hidden, and said so
    reader.state = board_state(((2, 2, 2, 2), (0, 0, 0, 0), (0, 0, 0, 0), (0, 0, 0, 0)), 24)
    frames["now"] = frame(120)
    qtbot.waitUntil(lambda: not shown(window), timeout=5000)
    qtbot.waitUntil(lambda: "not explained" in window.capture.indicator.text(), timeout=5000)
    assert "Advice overlay hidden" in window.message_text() or "not explained" in window.message_text()
    assert "not known" in window.advice_overlay.reason
    qtbot.wait(200)
    assert not shown(window)  # and stays hidden while the board stays unexplained

    # the next board is the position after sliding up and a 2 in the corner: played, shown again
    after = G2048.play(G2048.play(board_state(), Slide(UP)).state, Spawn(3, 3, 2)).state
    reader.state = after
    frames["now"] = frame(180)
    qtbot.waitUntil(lambda: window.state == after, timeout=5000)
    qtbot.waitUntil(lambda: shown(window), timeout=60000)
    assert window.advice_overlay.overlay.marks[0].direction == window.candidates[0].move.direction

    # moving back in Kibitz: the window no longer shows the game's position, the overlay hides
    window.undo_action.trigger()
    qtbot.waitUntil(lambda: not shown(window), timeout=5000)

    window.overlay_action.trigger()  # off
    assert not window.overlay_action.isChecked() and window.advice_overlay.overlay is None


def test_on_wayland_it_says_why_and_the_panel_stays(qtbot, followed, monkeypatch):
    window, _, _ = followed
    monkeypatch.setattr(QGuiApplication, "platformName", staticmethod(lambda: "wayland"))
    window.overlay_action.trigger()
    assert not window.overlay_action.isChecked()
    assert not window.capture.is_following()
    assert "Wayland" in window.message_text()
    assert window.advisor_dock.isVisible()


def test_it_needs_a_captured_region(qtbot, window):
    window.set_game("2048")
    window.overlay_action.trigger()
    assert not window.overlay_action.isChecked()
    assert "Capture the board first" in window.message_text()


def test_a_region_off_every_screen_hides_it_and_says_so(qtbot, followed, monkeypatch):
    window, _, _ = followed
    window.overlay_action.trigger()
    qtbot.waitUntil(lambda: shown(window), timeout=60000)
    monkeypatch.setattr(vision.capture, "monitors", lambda: [Monitor(2000, 0, 800, 600)])  # unplugged
    QGuiApplication.instance().screenRemoved.emit(QGuiApplication.primaryScreen())  # what Qt says then
    assert not shown(window)
    assert "off every screen" in window.message_text()


def test_captured_again_while_following_it_moves_to_the_new_region(qtbot, followed):
    window, frames, reader = followed
    window.overlay_action.trigger()
    qtbot.waitUntil(lambda: shown(window), timeout=60000)
    assert window.advice_overlay.overlay.geometry() == QRect(30, 40, SIDE, SIDE)
    screen = QGuiApplication.primaryScreen().name()
    # the player drags the rectangle again, 50 pixels further right (what Capture board leaves)
    window.capture.remember("2048", RememberedRegion(screen, (80, 40, SIDE, SIDE), Region(80, 40, SIDE, SIDE)))
    assert window.capture.followed.region == Region(80, 40, SIDE, SIDE)
    qtbot.waitUntil(lambda: shown(window) and window.advice_overlay.overlay.geometry() == QRect(80, 40, SIDE, SIDE),
                    timeout=10000)


def test_the_opacity_is_a_setting_kept_across_starts(qtbot, make_window, followed):
    window, _, _ = followed
    sixty = next(action for action in window.overlay_opacity_actions if action.text() == "60%")
    sixty.trigger()
    assert window.advice_overlay.opacity == pytest.approx(0.6)
    assert float(window._settings.value(OPACITY_KEY)) == pytest.approx(0.6)
    again = make_window()
    assert next(action for action in again.overlay_opacity_actions if action.isChecked()).text() == "60%"
