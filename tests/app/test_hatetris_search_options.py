"""The HATETRIS beam's settings in the window's Search section (width, lookahead, evaluation),
used as a player does: chosen with the keyboard on the drop-downs, a search started, the window
closed and opened again.

The expected settings are the ones the test chooses; they are read back from the search's own
checkpoint file (``beam.npz``), which ``kibitz search hatetris --resume`` continues.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import Qt

from advisors.hatetris.beam import BeamSearch
from advisors.hatetris.heuristic import BEAM_WEIGHTS, DF_WEIGHTS
from app.cli.games.hatetris import CHECKPOINT_FILE

OPTIONS = ("width", "lookahead", "evaluation")


@pytest.fixture
def window(make_window):
    window = make_window()
    window.set_game("hatetris")
    return window


def boxes(window) -> dict:
    return {key: window.advisor_panel.findChild(type(window.advisor_panel.budget_box), f"searchOption-{key}")
            for key in OPTIONS}


def shown(window) -> dict[str, str]:
    return {key: box.currentText() for key, box in boxes(window).items()}


def test_a_first_start_offers_the_three_settings_at_their_defaults_whole_and_enabled(window):
    panel = window.advisor_panel
    assert shown(window) == {"width": "width 10,000", "lookahead": "lookahead 8", "evaluation": "learned network"}
    group = panel.search_group
    for key, box in boxes(window).items():
        assert box.isVisible() and box.isEnabled(), key
        # the whole box inside the Search section, and wide enough for its longest choice
        corner = box.mapTo(group, box.rect().topLeft())
        assert corner.x() >= 0 and corner.y() >= 0, key
        assert corner.x() + box.width() <= group.width() and corner.y() + box.height() <= group.height(), key
        assert box.width() >= box.sizeHint().width(), key
    assert [boxes(window)["width"].itemText(i) for i in range(boxes(window)["width"].count())] == [
        "width 1,000", "width 2,000", "width 10,000", "width 30,000", "width 100,000", "width 250,000"]
    assert [boxes(window)["evaluation"].itemText(i) for i in range(boxes(window)["evaluation"].count())] == [
        "learned network", "D&F's weights", "D&F's + Tim's terms", "Kibitz's weights"]
    assert panel.search_options() == {"width": 10_000, "lookahead": 8, "evaluation": "learned"}


def test_the_settings_chosen_are_the_searchs_and_are_kept_for_the_next_start(qtbot, make_window, window):
    chosen = boxes(window)
    chosen["width"].setFocus()
    qtbot.keyClick(chosen["width"], Qt.Key.Key_Home)  # the narrowest: 1,000
    qtbot.keyClick(chosen["lookahead"], Qt.Key.Key_Home)  # none
    qtbot.keyClick(chosen["evaluation"], Qt.Key.Key_End)  # the last: Kibitz's weights
    assert shown(window) == {"width": "width 1,000", "lookahead": "no lookahead", "evaluation": "Kibitz's weights"}

    window.advisor_panel.budget_seconds = lambda: 3.0
    assert window.start_search()
    assert all(not box.isEnabled() for box in boxes(window).values())  # not while it runs
    message = window.advisor_panel.search_texts()["message"]
    assert "Beam search from move 0 (width 1,000, no lookahead, Kibitz's weights)" in message
    qtbot.waitUntil(lambda: not window.search_runner.is_running(), timeout=120_000)
    assert all(box.isEnabled() for box in boxes(window).values())
    saved = BeamSearch.load(Path(window.analysis.search_folder) / CHECKPOINT_FILE).settings
    assert (saved.width, saved.lookahead, saved.evaluation, saved.weights) == (1_000, 0, "hand", BEAM_WEIGHTS)

    window.set_game("splt")  # ParanoidPlay has no such settings
    assert not window.advisor_panel.options_box.isVisible()
    assert window.advisor_panel.search_options() == {}
    window.set_game("hatetris")
    assert shown(window) == {"width": "width 1,000", "lookahead": "no lookahead", "evaluation": "Kibitz's weights"}
    window.close()

    again = make_window()  # a new start of Kibitz
    again.set_game("hatetris")
    assert shown(again) == {"width": "width 1,000", "lookahead": "no lookahead", "evaluation": "Kibitz's weights"}


def test_d_and_f_weights_with_a_lookahead_reach_the_search(qtbot, window):
    chosen = boxes(window)
    chosen["width"].setCurrentIndex(0)
    chosen["lookahead"].setCurrentIndex(chosen["lookahead"].findText("lookahead 4"))
    chosen["evaluation"].setCurrentIndex(chosen["evaluation"].findText("D&F's weights"))
    window.advisor_panel.budget_seconds = lambda: 2.0
    assert window.start_search()
    qtbot.waitUntil(lambda: not window.search_runner.is_running(), timeout=120_000)
    saved = BeamSearch.load(Path(window.analysis.search_folder) / CHECKPOINT_FILE).settings
    assert (saved.width, saved.lookahead, saved.evaluation, saved.weights) == (1_000, 4, "hand", DF_WEIGHTS)


def test_a_damaged_settings_value_falls_back_to_the_default(make_window, window):
    window._settings.setValue("search/hatetris/width", "12 thousand")
    window._settings.setValue("search/hatetris/lookahead", "99")
    window._settings.setValue("search/hatetris/evaluation", "df")
    window._settings.sync()
    window.close()
    again = make_window()
    again.set_game("hatetris")
    assert shown(again) == {"width": "width 10,000", "lookahead": "lookahead 8", "evaluation": "D&F's weights"}



def test_the_compact_layout_leaves_the_settings_out_and_says_them_while_searching(qtbot, window):
    from app.gui.main_window import ANALYSIS_LAYOUT, COMPACT_LAYOUT

    panel = window.advisor_panel
    boxes(window)["width"].setCurrentIndex(0)
    window.set_layout(COMPACT_LAYOUT)
    assert not panel.search_group.isVisible()  # beside the real game: no search section at rest
    panel.budget_seconds = lambda: 2.0
    assert window.start_search()
    assert panel.search_group.isVisible() and not panel.options_box.isVisible()
    assert "(width 1,000, lookahead 8, learned network)" in panel.search_texts()["message"]
    qtbot.waitUntil(lambda: not window.search_runner.is_running(), timeout=120_000)
    window.set_layout(ANALYSIS_LAYOUT)
    assert panel.options_box.isVisible() and shown(window)["width"] == "width 1,000"
