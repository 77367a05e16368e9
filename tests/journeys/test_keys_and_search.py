"""Journeys by keyboard: playing by keys right after opening a position or a screenshot, and a long
search started, stopped and continued from the menu and from keys, with what the menu, the
buttons and the panel show through the search's life."""

from __future__ import annotations

import csv
import time

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication

from app.gui.main_window import BEST_MARK, MainWindow
from engines import GAMES

CTRL = Qt.KeyboardModifier.ControlModifier
SHIFT = Qt.KeyboardModifier.ShiftModifier


@pytest.fixture
def open_window(qtbot):
    def make(game: str) -> MainWindow:
        window = MainWindow(game)
        qtbot.addWidget(window)
        window.resize(1280, 900)
        window.show()
        qtbot.waitExposed(window)
        window.activateWindow()
        qtbot.waitUntil(lambda: QApplication.activeWindow() is window, timeout=2000)
        return window

    return make


def press(qtbot, key, modifiers=Qt.KeyboardModifier.NoModifier) -> None:
    """A key as a person presses it: to whatever has the focus now (no click first)."""
    focused = QApplication.focusWidget()
    assert focused is not None
    qtbot.keyClick(focused, key, modifiers)


def test_2048_keys_act_right_after_a_position_is_pasted(qtbot, open_window):
    window = open_window("2048")
    window.sequence_editor.editor.setFocus()  # the player was typing in the sequence editor
    assert window.paste_position("score 96\n. . . .\n. . 2 .\n4 . . .\n4 16 16 4")
    assert QApplication.focusWidget() is window.board
    press(qtbot, Qt.Key.Key_A)  # slide left, worked by hand: 16+16 -> 32, score 96 + 32
    assert window.state.rows == ((0, 0, 0, 0), (2, 0, 0, 0), (4, 0, 0, 0), (4, 32, 4, 0))
    assert window.state.score == 128


def test_2048_keys_act_right_after_a_screenshot_is_opened(qtbot, open_window, reference_data):
    window = open_window("2048")
    before = window.analysis
    window.menuBar().setFocus()  # the menu was used to open it
    assert window.capture.open_image_file(str(reference_data / "2048" / "after_18_moves.png"))
    qtbot.waitUntil(lambda: window.analysis is not before, timeout=20_000)
    # the real page's own state when the screenshot was taken (shared/data/2048/truth.json)
    assert window.state.rows == ((0, 0, 0, 0), (0, 0, 2, 0), (4, 0, 0, 0), (4, 16, 16, 4))
    assert QApplication.focusWidget() is window.board
    press(qtbot, Qt.Key.Key_A)
    assert window.state.rows == ((0, 0, 0, 0), (2, 0, 0, 0), (4, 0, 0, 0), (4, 32, 4, 0))
    assert window.state.score == 96 + 32


def test_hatetris_keys_act_after_switching_games(qtbot, open_window):
    window = open_window("splt")
    window.game_picker.activated.emit(window.game_picker.findData("hatetris"))
    assert QApplication.focusWidget() is window.board
    press(qtbot, Qt.Key.Key_S)  # the first press shows where the piece would go (README)
    assert window.tree.current.move_number == 0
    press(qtbot, Qt.Key.Key_S)  # the second plays it
    assert window.tree.current.move_number == 1
    assert window.state.pieces == 1


def actions(window) -> tuple[bool, bool, bool]:
    return (window.start_search_action.isEnabled(), window.stop_search_action.isEnabled(),
            window.continue_search_action.isEnabled())


def buttons(window) -> tuple[bool, bool, bool]:
    panel = window.advisor_panel
    return panel.start_button.isEnabled(), panel.stop_button.isEnabled(), panel.continue_button.isEnabled()


def test_a_search_started_stopped_and_continued_by_keys(qtbot, open_window, reference_data):
    window = open_window("hatetris")
    # the first 100 placements of David & Felipe's 86-point record: a well with a future
    with open(reference_data / "hatetris" / "records.tsv", newline="", encoding="utf-8") as file:
        rows = list(csv.DictReader(file, delimiter="\t"))
    replay = next(r["replay"] for r in rows if r["label"] == "David & Felipe (1)" and r["encoding"] == "Base2048")
    line = GAMES["hatetris"].parse_sequence(replay)
    window.apply_line(type(line)(line.start, line.moves[:100]))
    assert window.tree.current.move_number == 100
    assert actions(window) == buttons(window) == (True, False, False)

    press(qtbot, Qt.Key.Key_R, CTRL)  # Search > Start
    assert window.search_runner.is_running()
    assert actions(window) == buttons(window) == (False, True, False)
    started = time.monotonic()
    press(qtbot, Qt.Key.Key_R, CTRL)  # a second start does nothing while one runs
    press(qtbot, Qt.Key.Key_R, CTRL | SHIFT)
    assert window.search_runner.is_running()

    # the clock moves even before the beam reports its first level
    qtbot.waitUntil(lambda: window.advisor_panel.search_texts()["elapsed"] != "0:00", timeout=5000)
    assert time.monotonic() - started < 3.0
    qtbot.waitUntil(lambda: window.advisor_panel.search_texts()["best"] != "–", timeout=60_000)

    press(qtbot, Qt.Key.Key_Period, CTRL)  # Search > Stop
    qtbot.waitUntil(lambda: not window.search_runner.is_running(), timeout=60_000)
    assert actions(window) == buttons(window) == (True, False, True)
    texts = window.advisor_panel.search_texts()
    assert texts["best"] != "–" and texts["games"] not in ("", "0")  # the numbers stay after Stop

    window.continue_search_action.trigger()  # Search > Continue, from the menu
    assert window.search_runner.is_running()
    assert actions(window) == (False, True, False)
    window.stop_search_action.trigger()
    qtbot.waitUntil(lambda: not window.search_runner.is_running(), timeout=60_000)
    assert actions(window) == (True, False, True)


def test_a_search_line_no_better_than_the_best_is_not_added(qtbot, open_window):
    window = open_window("splt")
    game = GAMES["splt"]
    start = game.initial_state()
    moves = [game.legal_moves(start)[0]]
    state = game.play(start, moves[0]).state
    longer = moves + [game.legal_moves(state)[0]]

    class Found:  # what the search runner sends at a new best
        def __init__(self, line, value):
            self.new_best, self.best_value = line, value

    Line = type(game.parse_sequence(""))
    window._search_analysis = window.analysis
    window._best_value = None
    window._search_new_best(Found(Line(start, tuple(longer)), 54))
    window._search_new_best(Found(Line(start, tuple(moves)), 53))  # a beam's later, lower depth
    labels = [node.label for node in window.tree.nodes() if node.label]
    assert labels == [f"{BEST_MARK}ParanoidPlay: 54"]


def test_play_actions_are_on_exactly_when_there_is_a_candidate(qtbot, open_window):
    window = open_window("2048")
    # the start of a 2048 game is a chance step (two tiles due): nothing to play yet
    assert window.game.is_chance_node(window.state)
    assert not window.play_best_action.isEnabled()
    assert not any(action.isEnabled() for action in window.play_candidate_actions)
    assert window.paste_position("score 0\n2 . . .\n2 . . .\n. . . .\n. . . .")
    qtbot.waitUntil(lambda: not window.rank_pending(), timeout=20_000)
    # two tiles in column 0: up, down and right move them, left does not (worked by hand); the
    # panel lists the four slides, the one that moves nothing last
    assert [getattr(c, "legal", True) for c in window.candidates] == [True, True, True, False]
    assert window.play_best_action.isEnabled()
    assert [action.isEnabled() for action in window.play_candidate_actions[:4]] == [True, True, True, False]
