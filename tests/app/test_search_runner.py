"""The window's long search: SearchRunner with SPL-T's ParanoidPlay jobs.

Expectations come from the 1196-split record (shared data: its first 1100 moves are kept by a
search started at move 1100, and its first game replays the record), from the plain-Python rules
(every best line must replay legally to the length it claims), and from the checkpoint the
workers leave in the folder.
"""

from __future__ import annotations

import threading
import time

import pytest
import shiboken6

from advisors.splt.search import Search
from app.gui.games.splt.search_jobs import SEARCH_JOBS
from app.gui.search_runner import PROGRESS_INTERVAL, SearchOutcome, SearchProgress, SearchRunner
from engines.contract import Line
from engines.splt import GAME, reference

SEARCH_TIMEOUT_MS = 60_000


@pytest.fixture(scope="module")
def record(splt_data) -> Line:
    return GAME.parse_sequence((splt_data / "1196seq.txt").read_text(), "1196seq.txt")


class Recorder:
    """Everything a runner emitted, in order, with the time it arrived."""

    def __init__(self, runner: SearchRunner):
        self.events: list[tuple[str, float, object]] = []
        for name in ("progress", "new_best", "finished", "failed"):
            getattr(runner, name).connect(lambda value, name=name: self.events.append((name, time.monotonic(), value)))

    def values(self, name: str) -> list:
        return [value for kind, _, value in self.events if kind == name]

    def times(self, name: str) -> list[float]:
        return [when for kind, when, _ in self.events if kind == name]


def replayed_by_the_rules(line: Line):
    """The position after ``line``, played move by move by the plain-Python rules (raises on an
    illegal move)."""
    state = line.start
    for move in line.moves:
        state = reference.play(state, move).state
    return state


def test_piggyback_search_delivers_best_lines_that_keep_the_record_prefix(qtbot, tmp_path, record):
    runner = SearchRunner()
    seen = Recorder(runner)
    job = SEARCH_JOBS.start(tmp_path / "s", record, 1100, games=300, workers=1, seed=5)
    with qtbot.waitSignal(runner.finished, timeout=SEARCH_TIMEOUT_MS) as finished:
        runner.start(job)
        assert runner.is_running()
    outcome: SearchOutcome = finished.args[0]
    assert not runner.is_running()
    assert not seen.values("failed")
    assert not outcome.stopped
    assert outcome.games >= 300
    bests: list[SearchProgress] = seen.values("new_best")
    assert bests, "no new best was delivered"
    values = [best.best_value for best in bests]
    assert values == sorted(set(values)), "bests arrive once each, each longer than the last"
    # The first game re-plays the record from move 1101, so the record itself is reached.
    assert values[-1] >= 1196 and outcome.best_value == values[-1]
    for best in bests:
        line = best.new_best
        assert line.moves[:1100] == record.moves[:1100]
        end = replayed_by_the_rules(line)
        assert end.is_over()
        assert end.splits == len(line.moves) == best.best_value
        assert f"{end.splits:,} splits · score {end.score:,}" == best.best_text
    assert outcome.best_line.moves == bests[-1].new_best.moves
    # Progress: throttled, without lines, and the last report comes before `finished`.
    reports = seen.values("progress")
    assert reports and all(report.new_best is None for report in reports)
    times = seen.times("progress")[:-1]  # the last report is sent at the end, throttle or not
    gaps = [b - a for a, b in zip(times, times[1:])]
    assert min(gaps, default=PROGRESS_INTERVAL) >= PROGRESS_INTERVAL * 0.8
    assert [kind for kind, _, _ in seen.events][-1] == "finished"
    assert 0 < reports[-1].fraction <= 1


def test_stop_checkpoints_and_continue_adds_games(qtbot, tmp_path, record):
    folder = tmp_path / "s"
    runner = SearchRunner()
    seen = Recorder(runner)
    runner.start(SEARCH_JOBS.start(folder, record, 1100, workers=1, seed=7))  # no budget
    qtbot.waitUntil(lambda: any(report.games > 0 for report in seen.values("progress")), timeout=SEARCH_TIMEOUT_MS)
    with qtbot.waitSignal(runner.finished, timeout=SEARCH_TIMEOUT_MS) as finished:
        runner.stop()
    stopped: SearchOutcome = finished.args[0]
    assert stopped.stopped and stopped.reason.startswith("stopped after")
    saved = Search.load(folder / "worker-0.npz").snapshot()
    assert stopped.games == saved.games > 0
    assert stopped.best_value == saved.best_splits >= 1196
    assert f"{saved.games:,} games on 1 worker" in SEARCH_JOBS.describe(folder)
    with qtbot.waitSignal(runner.failed, timeout=10_000) as failed:  # a new search may not overwrite it
        runner.start(SEARCH_JOBS.start(folder, record, 1100, games=10, workers=1))
    assert failed.args[0] == f"{folder} already holds a search; continue it or choose another folder"

    with qtbot.waitSignal(runner.finished, timeout=SEARCH_TIMEOUT_MS) as finished:
        runner.start(SEARCH_JOBS.resume(folder, games=40))
    continued: SearchOutcome = finished.args[0]
    assert not continued.stopped
    assert continued.games == saved.games + 40
    assert continued.best_value >= stopped.best_value
    assert continued.best_line.moves[:1100] == record.moves[:1100]
    assert Search.load(folder / "worker-0.npz").snapshot().games == saved.games + 40


def test_a_folder_that_is_a_file_fails_with_its_path(qtbot, tmp_path, record):
    runner = SearchRunner()
    seen = Recorder(runner)
    path = tmp_path / "taken.txt"
    path.write_text("not a folder\n")
    with qtbot.waitSignal(runner.failed, timeout=10_000) as failed:
        runner.start(SEARCH_JOBS.start(path, record, 1100, games=10, workers=1))
    assert str(path) in failed.args[0] and "not a folder" in failed.args[0]
    assert not runner.is_running() and not seen.values("finished")
    assert path.read_text() == "not a folder\n"

    with qtbot.waitSignal(runner.failed, timeout=10_000) as failed:
        runner.start(SEARCH_JOBS.start(tmp_path / "b", record, 1300, games=10, workers=1))
    assert "cannot search from move 1300: the line has 1196 moves" in failed.args[0]
    assert not (tmp_path / "b").exists()
    with qtbot.waitSignal(runner.failed, timeout=10_000) as failed:
        runner.start(SEARCH_JOBS.resume(tmp_path))
    assert f"{tmp_path}: no search.json here" in failed.args[0]


def test_deleting_a_running_runner_stops_its_job(qtbot, tmp_path, record):
    folder = tmp_path / "s"
    runner = SearchRunner()
    seen = Recorder(runner)
    runner.start(SEARCH_JOBS.start(folder, record, 1100, workers=1, seed=3))
    qtbot.waitUntil(lambda: any(report.games > 0 for report in seen.values("progress")), timeout=SEARCH_TIMEOUT_MS)
    began = time.monotonic()
    shiboken6.delete(runner)  # as when its window closes mid-search
    assert time.monotonic() - began < 20
    assert not [t for t in threading.enumerate() if t.name == "kibitz-search-runner"]
    assert Search.load(folder / "worker-0.npz").snapshot().games > 0  # saved before it stopped


class ChattyJob:
    """A fake job reporting far more often than anyone could read, with a best every 25 reports."""

    def __init__(self, folder):
        self.folder = folder

    def run(self, progress, should_stop) -> SearchOutcome:
        began = time.monotonic()
        for games in range(1, 501):
            best = games // 25
            line = Line("start", tuple(range(best))) if games % 25 == 0 else None
            progress(SearchProgress(games, 0.0, time.monotonic() - began, best, f"{best}", games / 500, line))
            time.sleep(0.002)
        return SearchOutcome(500, Line("start", tuple(range(20))), 20, False, "done")


def test_progress_is_throttled_but_every_best_arrives(qtbot, tmp_path):
    runner = SearchRunner()
    seen = Recorder(runner)
    with qtbot.waitSignal(runner.finished, timeout=10_000):
        runner.start(ChattyJob(tmp_path))
    assert [best.best_value for best in seen.values("new_best")] == list(range(1, 21))
    assert all(len(best.new_best.moves) == best.best_value for best in seen.values("new_best"))
    reports = seen.values("progress")
    elapsed = seen.times("finished")[0] - seen.times("progress")[0]
    assert len(reports) <= elapsed / PROGRESS_INTERVAL + 2
    assert reports[-1].games == 500  # the last report is never held back
    assert [report.games for report in reports] == sorted(report.games for report in reports)
