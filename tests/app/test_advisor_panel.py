"""The advisor panel, driven like a player: the candidate table against the SPL-T advisor at
positions of the 1196 record, clicks, Return, hover, compact mode, the search controls.

Independent anchors: playAssist's printed weights and labels at split 1006 of the 1196 game
(``shared/data/splt/playAssist.png``, spec 3.7), the first move's weight 1 (spec 3.2), greedy's
534 splits from the empty board (spec 3.6).
"""

from __future__ import annotations

import time

import pytest
from PySide6.QtCore import QPoint, Qt

from advisors.candidate import Candidate
from advisors.splt.heuristic import rank
from app.gui.advisor_panel import BUDGETS, COMPACT_ROWS, DEFAULT_WARNING_RGB, AdvisorPanel
from app.gui.games import GameUi, ui_for
from app.gui.games.splt import advice
from engines import GAMES
from engines.splt import Move, State

SPLT = GAMES["splt"]


@pytest.fixture
def panel(qtbot):
    panel = AdvisorPanel()
    qtbot.addWidget(panel)
    panel.set_game(SPLT, ui_for("splt"))
    panel.resize(560, 640)
    panel.show()
    qtbot.waitExposed(panel)
    return panel


@pytest.fixture(scope="module")
def record_1196(splt_data):
    return SPLT.parse_sequence((splt_data / "1196seq.txt").read_text())


@pytest.fixture(scope="module")
def split_1006(record_1196) -> State:
    state = SPLT.replay(State(), record_1196.moves[:1006])
    assert (state.splits, state.score) == (1006, 624_496)  # playAssist.png's title bar
    return state


def wait_rollout(qtbot, panel) -> None:
    qtbot.waitUntil(lambda: not panel.rollout_pending(), timeout=60_000)  # the first run may compile


def row_point(panel, row: int, column: int = 1) -> QPoint:
    return panel.table.visualItemRect(panel.table.item(row, column)).center()


# -- the list against the advisor ------------------------------------------------------------------
@pytest.mark.parametrize("splits", [0, 1, 9, 57, 300, 640, 1006, 1150, 1195])
def test_rows_are_the_advisors_ranking(panel, record_1196, splits):
    state = SPLT.replay(State(), record_1196.moves[:splits])
    expected = rank(state)
    panel.show_position(state)
    assert panel.candidate_count() == len(expected) == len(state.legal_moves())
    assert panel.moves() == [c.move for c in expected]
    for row, candidate in enumerate(expected):
        texts = panel.row_texts(row)
        assert texts[:4] == [
            str(row + 1),
            f"[{candidate.index}] {SPLT.move_text(candidate.move)}",
            f"{candidate.score:.1f}",
            f"{candidate.loss:.1f}",
        ]
    # the best is the move the record's greedy-minded advisor and the summary name
    assert f"{len(expected)} legal split" in panel.summary_text()


def test_first_move_has_weight_one(panel):
    # Spec 3.2: at the very first move no weights are computed, all are 1; one legal split.
    panel.show_position(State())
    assert panel.candidate_count() == 1
    assert panel.row_texts(0)[:4] == ["1", "[0] 0,0,8,16", "1.0", "0.0"]
    assert panel.headers()[:4] == ["#", "Move", "Weight", "Loss"]


def test_split_1006_as_playassist_printed_it(panel, split_1006):
    panel.show_position(split_1006)
    rows = [panel.row_texts(r) for r in range(panel.candidate_count())]
    # playAssist: "Weight of box 81 is 16, 86 is 194, 93 is 194, 108 is 222, 110 is 0, 114 is 211";
    # [108] (column 3, rows 2-3 on its board) is the outlined best.
    assert [row[1].split()[0] for row in rows] == ["[108]", "[114]", "[86]", "[93]", "[81]", "[110]"]
    assert rows[0][1] == "[108] 3,2,1,2"
    printed = [222, 211, 194, 194, 16, 0]
    # playAssist printed the weights cut to whole numbers; the panel rounds to one decimal
    assert all(weight <= float(row[2]) <= weight + 1 for row, weight in zip(rows, printed))
    assert all(float(row[3]) == pytest.approx(float(rows[0][2]) - float(row[2]), abs=0.11) for row in rows)
    # Row colours = playAssist's fills: [93] red, [81] and [110] green, [108] green too,
    # [114] and [86] grey (no cue).
    colors = [panel.row_color(r) for r in range(6)]
    green, red = advice.KIND_RGB[advice.HALVING], advice.KIND_RGB[advice.CLUSTER]
    assert colors == [green, None, None, red, green, green]
    assert rows[3][5] == "unexpected cluster"
    assert rows[1][4:] == ["", ""]
    summary = panel.summary_text()
    assert summary.startswith("Advisor: reference weights · 6 legal splits · best [108] 3,2,1,2")


def test_summary_gives_greedy_rollout_from_the_empty_board(qtbot, panel):
    # Spec 3.6 / 3.7: greedy from the empty board reaches 534 splits ("Default Algorithm Record").
    panel.show_position(State())
    wait_rollout(qtbot, panel)
    assert panel.summary_text().endswith("greedy from here: 534 splits (+534)")


def test_game_over_summary(panel, record_1196):
    state = SPLT.replay(State(), record_1196.moves)
    panel.show_position(state)
    assert panel.candidate_count() == 0
    assert "game over, no legal splits" in panel.summary_text()


def test_explanation_is_tooltip_and_detail(qtbot, panel, split_1006):
    panel.show_position(split_1006)
    candidates = rank(split_1006)
    red_row = 3  # [93], the unexpected cluster
    tooltip = panel.cell_tooltip(red_row, 1)
    assert candidates[red_row].explanation in tooltip
    assert candidates[red_row].warnings[0] in tooltip
    # the Warning column's tooltip is the full warning
    warning_tip = panel.cell_tooltip(red_row, 5)
    assert warning_tip == candidates[red_row].warnings[0]
    # nothing selected or hovered: the detail shows the best; selecting a row shows that one
    assert "#1 [108] 3,2,1,2" in panel.detail_text()
    panel.table.selectRow(red_row)
    detail = panel.detail_text()
    assert "#4 [93] 1,0,1,2" in detail and candidates[red_row].explanation in detail
    assert candidates[red_row].warnings[0] in detail


# -- playing and previewing ------------------------------------------------------------------------
def test_clicking_a_row_plays_its_move(qtbot, panel, split_1006):
    panel.show_position(split_1006)
    with qtbot.waitSignal(panel.candidate_played, timeout=2000) as played:
        qtbot.mouseClick(panel.table.viewport(), Qt.MouseButton.LeftButton, pos=row_point(panel, 4))
    assert played.args == [Move(1, 4, 1, 2)]  # [81]: column 1, rows 4-5 in playAssist.png


def test_return_plays_the_selected_row(qtbot, panel, split_1006):
    panel.show_position(split_1006)
    panel.table.setFocus()
    panel.table.selectRow(1)
    with qtbot.waitSignal(panel.candidate_played, timeout=2000) as played:
        qtbot.keyClick(panel.table, Qt.Key.Key_Return)
    assert played.args == [Move(2, 0, 2, 2)]  # [114]


def test_arrow_keys_select_without_playing(qtbot, panel, split_1006):
    panel.show_position(split_1006)
    played = []
    panel.candidate_played.connect(played.append)
    panel.table.setFocus()
    panel.table.selectRow(0)
    qtbot.keyClick(panel.table, Qt.Key.Key_Down)
    assert played == []
    assert panel.table.currentIndex().row() == 1
    assert "#2 [114]" in panel.detail_text()


def test_hovering_a_row_previews_it_and_leaving_clears(qtbot, panel, split_1006):
    panel.show_position(split_1006)
    hovered = []
    panel.candidate_hovered.connect(hovered.append)
    qtbot.mouseMove(panel.table.viewport(), row_point(panel, 3))
    qtbot.waitUntil(lambda: hovered == [Move(1, 0, 1, 2)], timeout=2000)
    assert "#4 [93]" in panel.detail_text()
    qtbot.mouseMove(panel.table.viewport(), row_point(panel, 5))
    qtbot.waitUntil(lambda: hovered[-1] == Move(4, 0, 2, 2), timeout=2000)
    qtbot.mouseMove(panel.summary_label, QPoint(5, 5))
    qtbot.waitUntil(lambda: hovered[-1] is None, timeout=2000)
    assert "#1 [108]" in panel.detail_text()
    # the empty space below the last row is no candidate either
    qtbot.mouseMove(panel.table.viewport(), row_point(panel, 2))
    qtbot.waitUntil(lambda: hovered[-1] == Move(0, 0, 1, 2), timeout=2000)
    below = row_point(panel, 5) + QPoint(0, 5 * panel.table.rowHeight(5))
    qtbot.mouseMove(panel.table.viewport(), below)
    qtbot.waitUntil(lambda: hovered[-1] is None, timeout=2000)


def test_panel_previews_on_the_board(qtbot, panel, split_1006):
    board = ui_for("splt").make_board(SPLT, None)
    qtbot.addWidget(board)
    panel.candidates_shown.connect(board.show_advice)
    panel.candidate_hovered.connect(board.preview_move)
    board.show_position(split_1006)
    panel.show_position(split_1006)
    assert board.advice_marks()[108] == "best"
    qtbot.mouseMove(panel.table.viewport(), row_point(panel, 4))
    qtbot.waitUntil(lambda: board.previewed_box is not None, timeout=2000)
    assert board.previewed_box.geometry() == (1, 4, 1, 2)
    qtbot.mouseMove(panel.summary_label, QPoint(5, 5))
    qtbot.waitUntil(lambda: board.previewed_box is None, timeout=2000)


# -- compact mode ----------------------------------------------------------------------------------
def test_compact_mode_shows_the_top_five(panel, split_1006):
    panel.show_position(split_1006)
    assert panel.candidate_count() == 6
    panel.set_compact(True)
    assert panel.candidate_count() == COMPACT_ROWS == 5
    assert panel.moves() == [c.move for c in rank(split_1006)][:5]
    # Halving goes, the Warning stays: beside the real game it is what the player cannot see
    assert panel.headers()[4:] == ["Halving", "Warning"]
    assert panel.table.isColumnHidden(4) and not panel.table.isColumnHidden(5)
    assert not panel.table.isColumnHidden(2)
    assert panel.detail_label.isHidden()
    panel.show_position(split_1006)  # stays compact for the next position
    assert panel.candidate_count() == 5
    panel.set_compact(False)
    assert panel.candidate_count() == 6
    assert not panel.table.isColumnHidden(5) and not panel.detail_label.isHidden()


# -- generic behaviour -----------------------------------------------------------------------------
def test_a_game_without_advisor(qtbot):
    panel = AdvisorPanel()
    qtbot.addWidget(panel)
    panel.set_game(SPLT, GameUi())
    assert panel.summary_text() == "No advisor for SPL-T yet."
    assert panel.table.isHidden()
    assert panel.show_position(State()) == []
    assert not panel.search_available()


def test_hundred_rows_are_fast_and_warnings_get_the_default_cue(qtbot):
    panel = AdvisorPanel()
    qtbot.addWidget(panel)
    panel.set_game(SPLT, GameUi(rank=lambda state, limit: [], advisor_name="test", score_header="Score"))
    panel.resize(500, 600)
    panel.show()
    qtbot.waitExposed(panel)
    candidates = [
        Candidate(Move(i % 8, i // 8), 100.0 - i, float(i), f"reason {i}",
                  warnings=("careful: something",) if i % 10 == 3 else ())
        for i in range(100)
    ]
    panel.show_candidates(State(), candidates)  # first run: fonts, icons
    began = time.perf_counter()
    panel.show_candidates(State(), candidates)
    panel.repaint()
    elapsed = time.perf_counter() - began
    assert elapsed < 0.1, f"100 rows took {elapsed * 1000:.1f} ms"
    assert panel.candidate_count() == 100
    assert panel.row_texts(13) == ["14", "5,1", "87.0", "13.0"]
    assert panel.row_color(13) == DEFAULT_WARNING_RGB and panel.row_color(12) is None
    assert panel.summary_text().startswith("Advisor: test · 1 legal move · best 0,0 +1.0 over #2")


# -- search controls -------------------------------------------------------------------------------
def test_search_section(qtbot, panel):
    assert not panel.search_available()
    panel.set_search_available("ParanoidPlay")
    assert panel.search_available() and panel.search_group.title() == "Search: ParanoidPlay"

    assert [seconds for _, seconds in BUDGETS] == [60, 300, 600, 1800, None]
    for index, (_, seconds) in enumerate(BUDGETS):
        panel.budget_box.setCurrentIndex(index)
        assert panel.budget_seconds() == seconds

    assert (panel.start_button.isEnabled(), panel.stop_button.isEnabled(), panel.continue_button.isEnabled()) == (
        True, False, False)
    for button, signal in ((panel.start_button, panel.start_requested), (panel.stop_button, panel.stop_requested),
                           (panel.continue_button, panel.continue_requested)):
        button.setEnabled(True)
        with qtbot.waitSignal(signal, timeout=1000):
            qtbot.mouseClick(button, Qt.MouseButton.LeftButton)

    panel.show_search_progress(running=True, games=12345, best="1085 splits", rate=4.66, elapsed=83.0,
                               fraction=None, can_continue=True)
    assert (panel.start_button.isEnabled(), panel.stop_button.isEnabled(), panel.continue_button.isEnabled()) == (
        False, True, False)
    assert panel.search_texts() == {"games": "12,345", "best": "1085 splits", "rate": "4.7 games/s",
                                    "elapsed": "1:23", "message": ""}
    assert panel.progress_bar.maximum() == 0  # busy: the budget is "until stopped"

    panel.show_search_progress(running=False, games=20000, best="1090 splits", rate=1234.0, elapsed=3723.0,
                               fraction=0.5, can_continue=True, message="stopped")
    assert (panel.start_button.isEnabled(), panel.stop_button.isEnabled(), panel.continue_button.isEnabled()) == (
        True, False, True)
    assert panel.search_texts()["elapsed"] == "1:02:03"
    assert panel.search_texts()["rate"] == "1.2k games/s"
    assert panel.progress_bar.value() == 500 and panel.progress_bar.maximum() == 1000
    assert not panel.search_message.isHidden() and panel.search_texts()["message"] == "stopped"

    panel.show_search_progress(running=False, games=0, best="", rate=0.0, elapsed=0.0, fraction=None,
                               can_continue=False)
    assert not panel.continue_button.isEnabled() and panel.search_message.isHidden()
    panel.set_search_available(None)
    assert not panel.search_available()
