"""A game whose kernels are not prepared: the window shows it is preparing, stays responsive,
and opens the game once the helper process is done (a stand-in process here: the real one is
measured by benchmarks/gui_responsiveness.py --cold-start)."""

from __future__ import annotations

import sys
import time

import pytest
from PySide6.QtCore import QTimer

from app import prepare
from app.gui import preparation
from app.gui.board_view import PreparingBoard
from app.gui.main_window import MainWindow


@pytest.fixture
def unprepared(monkeypatch):
    """No game counts as prepared; the helper is a process that sleeps, then says it is done."""
    monkeypatch.delenv(prepare.IN_PROCESS_ENV)
    prepared: set[str] = set()
    monkeypatch.setattr(prepare, "is_prepared", lambda name: name in prepared)
    stand_in = [sys.executable, "-c", "import sys, time; time.sleep(0.8); print(sys.argv[1], 'prepared')"]
    original = preparation.KernelPreparation.__init__

    def with_stand_in(self, parent=None, command=None):
        original(self, parent, stand_in)

    monkeypatch.setattr(preparation.KernelPreparation, "__init__", with_stand_in)
    return prepared


def test_a_cold_game_is_prepared_in_another_process_while_the_window_paints(qtbot, unprepared):
    window = MainWindow("hatetris")
    qtbot.addWidget(window)
    window.resize(1200, 900)
    window.show()
    qtbot.waitExposed(window)
    assert window.is_preparing()
    assert isinstance(window.board, PreparingBoard)
    assert "Preparing the HATETRIS engine" in window.advisor_panel.summary_text()
    assert not window.play_best_action.isEnabled() and not window.start_search_action.isEnabled()
    assert window.game_picker.isEnabled()

    # the event loop keeps turning while the helper works: a 5 ms timer never waits long
    gaps, last = [], [time.perf_counter()]

    def tick():  # while the helper prepares (what follows is measured by the benchmark)
        now = time.perf_counter()
        if window.is_preparing():
            gaps.append(now - last[0])
        last[0] = now

    timer = QTimer()
    timer.timeout.connect(tick)
    timer.start(5)
    qtbot.waitUntil(lambda: not window.is_preparing(), timeout=20_000)
    timer.stop()
    assert len(gaps) > 20
    assert max(gaps) < 0.25

    assert window.game.short_name == "hatetris" and not isinstance(window.board, PreparingBoard)
    assert window.state.piece == "S"  # the empty well's first piece (HATETRIS spec)
    # an S in the empty 10-wide well rests in 8 flat columns and 9 upright ones: 17 placements
    assert window.advisor_panel.candidate_count() == 17
    assert window.play_best_action.isEnabled() and window.start_search_action.isEnabled()
    # the sequence's Format box was empty when first shown; it fits the game's names once they come
    box = window.sequence_editor.format_box
    assert box.currentText() == "base2048"
    assert box.width() >= box.sizeHint().width()
    assert box.fontMetrics().horizontalAdvance("base2048") < box.width() - 20  # the text beside the arrow


def test_switching_to_a_cold_game_and_back_keeps_the_ready_one(qtbot, unprepared):
    unprepared.add("splt")
    window = MainWindow("splt")
    qtbot.addWidget(window)
    window.show()
    qtbot.waitExposed(window)
    assert not window.is_preparing() and window.advisor_panel.candidate_count() == 1
    window.set_game("1010")
    assert window.is_preparing() and window.game_picker.currentData() == "1010"
    window.set_game("splt")  # back before 1010 is ready: SPL-T's board and advice again
    assert not window.is_preparing()
    assert window.game.short_name == "splt" and not isinstance(window.board, PreparingBoard)
    assert window.advisor_panel.candidate_count() == 1 and window.play_best_action.isEnabled()
    # 1010! becoming ready later does not pull the window away from SPL-T
    qtbot.waitUntil(lambda: window.preparation.is_ready("1010"), timeout=20_000)
    assert window.game.short_name == "splt"


COLD_CHILD = r"""
import json, sys, time
from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QApplication
app = QApplication([])
from app.gui.main_window import MainWindow
window = MainWindow("1010")
window.show()
gaps, last, seen = [], [time.perf_counter()], {"preparing": window.is_preparing()}
def tick():
    now = time.perf_counter()
    gaps.append(now - last[0])
    last[0] = now
    if not window.is_preparing() and not window.rank_pending():
        app.quit()
timer = QTimer()
timer.timeout.connect(tick)
timer.start(5)
QTimer.singleShot(180_000, app.quit)
app.exec()
print(json.dumps({"was_preparing": seen["preparing"], "preparing": window.is_preparing(),
                  "board": type(window.board).__name__, "gaps": len(gaps), "worst": max(gaps),
                  "seconds": window.preparation.seconds.get("1010")}))
"""


def test_a_real_cold_start_prepares_in_the_helper_process_and_opens_the_game(tmp_path):
    # a fresh numba cache: 1010!'s kernels are compiled by `python -m app.prepare 1010` while the
    # window's event loop keeps turning (the other games wait: the window quits once 1010! is open)
    import json
    import os
    import subprocess

    environment = {key: value for key, value in os.environ.items() if key != prepare.IN_PROCESS_ENV}
    environment.update(NUMBA_CACHE_DIR=str(tmp_path / "numba-cache"), QT_QPA_PLATFORM="offscreen",
                       PYTHONPATH=str(prepare.PROJECT_ROOT))
    finished = subprocess.run([sys.executable, "-c", COLD_CHILD], env=environment, capture_output=True,
                              text=True, timeout=240)
    assert finished.returncode == 0, finished.stderr[-2000:]
    result = json.loads(finished.stdout.strip().splitlines()[-1])
    assert result["was_preparing"] and not result["preparing"]
    assert result["board"] == "TenTenBoard"
    assert result["seconds"] is not None and result["seconds"] > 0.5  # it really compiled
    assert result["worst"] < 0.25  # no stall while compiling (the benchmark measures it finely)
    assert (tmp_path / "numba-cache" / "kibitz-prepared-1010.json").is_file()


STALE_CHILD = r"""
import json, sys
from pathlib import Path
from app import prepare
cache = Path(sys.argv[1])
prepare.clear_stale_kernels()                        # a fresh cache: nothing to delete, the mark written
from engines import GAMES
GAMES["2048"].warm_up()                              # kernels compiled into the cache
ours = sorted(p.name for p in cache.rglob("*.nb[ic]"))
foreign = next(p for p in cache.rglob("*.nbi")).parent / "someone_else.f-1.py311.nbi"
foreign.write_text("not ours")
unchanged = prepare.clear_stale_kernels()            # same sources: kept
(cache / prepare.SOURCES_MARK).write_text(json.dumps({"fingerprint": "sources of an older Kibitz"}))
changed = prepare.clear_stale_kernels()              # sources changed since: every cached kernel goes
left = sorted(p.name for p in cache.rglob("*.nb[ic]"))
mark = json.loads((cache / prepare.SOURCES_MARK).read_text())["fingerprint"]
print(json.dumps({"ours": len(ours), "unchanged": unchanged, "changed": changed, "left": left,
                  "mark_is_current": mark == prepare.fingerprint()}))
"""


def test_cached_kernels_of_changed_sources_are_deleted_before_they_can_run(tmp_path):
    # numba checks only a cached kernel's own file: a kernel whose helpers in another module
    # changed (an update of Kibitz) would run its old machine code, so all of ours go
    import json
    import os
    import subprocess

    cache = tmp_path / "numba-cache"
    environment = {**os.environ, "NUMBA_CACHE_DIR": str(cache), "PYTHONPATH": str(prepare.PROJECT_ROOT)}
    finished = subprocess.run([sys.executable, "-c", STALE_CHILD, str(cache)], env=environment,
                              capture_output=True, text=True, timeout=240)
    assert finished.returncode == 0, finished.stderr[-2000:]
    result = json.loads(finished.stdout.strip().splitlines()[-1])
    assert result["ours"] > 0 and result["unchanged"] == 0
    assert result["changed"] == result["ours"]
    assert result["left"] == ["someone_else.f-1.py311.nbi"]
    assert result["mark_is_current"]
