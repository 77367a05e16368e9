"""Does the window stay responsive while a long search runs (no stall over 50 ms), and how long
from a move to its ranked candidates on screen (target 100 ms)?

    python benchmarks/gui_responsiveness.py                  # both, 30 s of search, offscreen
    python benchmarks/gui_responsiveness.py --seconds 120 --platform xcb
    python benchmarks/gui_responsiveness.py --no-stall       # first ranking only (a minute)
    python benchmarks/gui_responsiveness.py --bare-board     # the stall with a bare SpltBoard
    python benchmarks/gui_responsiveness.py --cold-start     # launch → first advice, cold and warm (minutes)
    python benchmarks/gui_responsiveness.py --cold-start --games splt 2048 --sample-stacks --json out.json

Both parts use a real :class:`app.gui.main_window.MainWindow` at 1280x900 in the analysis layout
(board, advisor panel, move tree, score graph and sequence editor visible) with the 1196-split
record open (``--record``; default ``../shared/data/splt/1196seq.txt`` beside the repository).

First ranking (:func:`measure_first_ranking`): at every 25th move of the record and at its last,
play the record's move, go back and forward with the arrow keys, play a new move (a variation), go
back off it, and switch from it to the record's move with Up (the variation is then deleted: the
tree does not change). Each action is timed to
the new position's candidates in the advisor panel (the window refreshes synchronously: when the
call returns) and to the next paint of the board (the event loop run until it happened); the table
gives the median, 95th percentile and worst against 100 ms, then a breakdown of each action into
the window's parts (rank, advisor panel fill, board, sequence editor, move tree view, score graph,
the rest of the refresh, the tree and engine) and the paint pass by panel.

Stall (:func:`measure_window`): a 5 ms QTimer ticks in the GUI thread and every 300 ms its callback
plays a move and goes back (a player using the window; the board is not repainted at every tick as
in the bare-board form: in the window a board paint takes about as long as the tick interval);
first for ``--baseline-seconds`` with no search, then with ``window.start_search()`` running
(ParanoidPlay from move 1100, the window's default workers, its own slots taking progress and
every new best into the tree) for ``--seconds``, then while ``window.stop_search()`` stops it. The
gaps between ticks are how long the event loop could not react: per phase the worst, the 99th
percentile, the mean and the number over 50 ms; the worst *wait* (a gap less the time the GUI
thread spent dispatching events: time it could not run at all, the GIL held by another thread or
no free core); the moves played in the timer and how long until their candidates were in the
panel; the bests received and how long the window's slot took. With ``--bare-board``, the earlier
form: a bare SpltBoard and the search from the empty board through a SearchRunner (:func:`measure`).
Load from other processes on the machine widens every column; the load average is printed.

Cold start (``--cold-start``, :func:`run_cold_starts`; the issue's targets: worst gap ≤ 100 ms
cold, ≤ 50 ms warm, first advice ≤ 100 ms warm): for each game of ``--games`` (default all five),
interleaved, a *cold* start then a *warm* one, each in a fresh process (this file again with
``--cold-start-child``, :func:`cold_start_child`) with fresh settings and session folders
(``KIBITZ_SETTINGS_DIR``, ``KIBITZ_SESSION_DIR``) and never ``KIBITZ_PREPARE_IN_PROCESS``: cold
with a new empty ``NUMBA_CACHE_DIR``, so the window prepares the game's kernels in its helper
process (``python -m app.prepare GAME``); warm with that cache again, filled and stamped by the cold
run. The child does what ``app.gui.application.run`` does: imports, creates the QApplication
(*launch*), builds ``MainWindow(game)``, shows it and queues ``settle_memory``; a 5 ms QTimer ticks
from launch, and the event loop runs until the first advice is on screen (the advisor panel holds a
candidate for a position with a move, then the panel is painted). 2048, 1010 and destructo start
with a chance step and no advice: once the window no longer prepares, the benchmark opens the
position after seeded chance steps with ``window.load_position`` and times its advice. Per start:
process start → window shown, launch → shown, launch → advice, the window ready → advice, the
preparation's seconds, and the gaps from the window shown to the advice (worst, 99th percentile,
number over 50 ms, worst while preparing / after). Every gap over 50 ms is listed with the event
dispatches, garbage collections and window steps (``_build_game``, ``_refresh``, ...) in it; with
``--sample-stacks`` also the Python stacks sampled every 2 ms (file and function of what stalled).
A start that crashes, or runs over ``--timeout`` (240 s; then it is killed with its helper), gives a
row saying so. ``--json PATH`` writes every figure.

A new QApplication dispatches its events through a timed ``notify`` (a few microseconds an event)
so the benchmark knows what the GUI thread was doing in a long gap.
"""

from __future__ import annotations

import argparse
import gc
import json
import math
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

# Worker processes are spawned and import this file again as __mp_main__: keep the top light.
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

TARGET_MS = 50.0


def percentile(values: list[float], share: float) -> float:
    """The value below which ``share`` of ``values`` lie (nearest rank)."""
    ordered = sorted(values)
    if not ordered:
        return 0.0
    return ordered[min(len(ordered) - 1, max(0, math.ceil(share * len(ordered)) - 1))]


BOARD_GAME = Path(__file__).resolve().parents[1] / "docs" / "splt" / "paranoid-1836.txt"
PHASES = ("no search", "search running", "stopping")


def measure(seconds: float, workers: int | None, interval_ms: int, baseline_seconds: float,
            board_move: int, show_gaps_over: float | None = None) -> dict:
    """Tick and paint for ``baseline_seconds`` with no search, then for ``seconds`` beside the
    search, then while it stops; return the figures of each phase. With ``show_gaps_over``
    (ms), every longer gap is listed on stderr with the time the GUI thread was busy in it."""
    from PySide6.QtCore import QElapsedTimer, Qt, QTimer
    from PySide6.QtWidgets import QApplication

    from app.gui.games.splt.board import SpltBoard
    from app.gui.games.splt.search_jobs import SEARCH_JOBS, default_workers
    from app.gui.search_runner import SearchRunner
    from engines.contract import Line
    from engines.splt import GAME

    application = QApplication.instance() or QApplication([sys.argv[0]])
    GAME.warm_up()  # the window warms the kernels up at start too
    clock = QElapsedTimer()
    ticks: list[int] = []  # nanoseconds since the clock started
    work: list[tuple[int, int]] = []  # (start, end) of everything the GUI thread did for the bench
    paint_ms: list[tuple[int, float]] = []  # (start, milliseconds)
    best_slot_ms: list[float] = []
    marks: dict[str, int] = {}
    reports: list = []
    outcome: dict = {}

    collections: list[float] = []  # milliseconds of each garbage collection (any thread: all wait)
    collection_began = [0]

    def time_collection(phase: str, info: dict) -> None:
        if phase == "start":
            collection_began[0] = clock.nsecsElapsed()
        else:
            collections.append((clock.nsecsElapsed() - collection_began[0]) / 1e6)

    class TimedBoard(SpltBoard):
        def paintEvent(self, event) -> None:  # noqa: N802 (Qt name)
            began = clock.nsecsElapsed()
            super().paintEvent(event)
            ended = clock.nsecsElapsed()
            work.append((began, ended))
            paint_ms.append((began, (ended - began) / 1e6))

    # A fixed position (the same in every phase, so the phases compare): by default move 100 of
    # the 1836-split game in docs/, a board with a few dozen point blocks.
    game_line = GAME.parse_sequence(BOARD_GAME.read_text(), str(BOARD_GAME))
    board = TimedBoard(GAME)
    board.show_position(GAME.replay(game_line.start, game_line.moves[:board_move]))
    board.resize(420, 640)
    board.show()

    def tick() -> None:
        ticks.append(clock.nsecsElapsed())
        board.update()

    def take_best(report) -> None:
        """What the window does with a new best: replay it to show it or add it to the tree."""
        began = clock.nsecsElapsed()
        line = report.new_best
        GAME.replay(line.start, line.moves)
        ended = clock.nsecsElapsed()
        work.append((began, ended))
        best_slot_ms.append((ended - began) / 1e6)

    runner = SearchRunner()
    runner.progress.connect(reports.append)
    runner.new_best.connect(take_best)

    def start_search() -> None:
        marks["start"] = clock.nsecsElapsed()
        runner.start(job)
        QTimer.singleShot(int(seconds * 1000), stop_search)

    def stop_search() -> None:
        marks["stop"] = clock.nsecsElapsed()
        runner.stop()

    def ended(result) -> None:
        marks["end"] = clock.nsecsElapsed()
        outcome["result"] = result
        QTimer.singleShot(100, application.quit)  # a few more ticks after the end

    def failed(message: str) -> None:
        outcome["error"] = message
        application.quit()

    runner.finished.connect(ended)
    runner.failed.connect(failed)
    timer = QTimer()
    timer.setTimerType(Qt.TimerType.PreciseTimer)
    timer.setInterval(interval_ms)
    timer.timeout.connect(tick)

    workers = workers or default_workers()
    with tempfile.TemporaryDirectory(prefix="kibitz-gui-bench-") as scratch:
        job = SEARCH_JOBS.start(Path(scratch) / "run", Line(GAME.initial_state(), ()), 0, workers=workers)
        clock.start()
        gc.callbacks.append(time_collection)
        timer.start()
        QTimer.singleShot(int(baseline_seconds * 1000), start_search)
        application.exec()
        timer.stop()
        runner.wait()
    gc.callbacks.remove(time_collection)
    if "error" in outcome:
        raise SystemExit(f"the search failed: {outcome['error']}")

    bounds = {"no search": (0, marks["start"]), "search running": (marks["start"], marks["stop"]),
              "stopping": (marks["stop"], marks["end"])}
    gaps: dict[str, list[float]] = {phase: [] for phase in PHASES}
    waits: dict[str, list[float]] = {phase: [] for phase in PHASES}  # gap less work, less the interval
    for before, after in zip(ticks, ticks[1:]):
        busy = sum(min(e, after) - max(b, before) for b, e in work if b < after and e > before)
        for phase, (low, high) in bounds.items():
            if low <= before < high:
                gaps[phase].append((after - before) / 1e6)
                waits[phase].append(max(0.0, (after - before - busy) / 1e6 - interval_ms))
        if show_gaps_over is not None and after - before > show_gaps_over * 1e6:
            print(f"gap {(after - before) / 1e6:.1f} ms, busy {busy / 1e6:.1f} ms, at "
                  f"{(before - marks['start']) / 1e9:+.3f} s from the search's start", file=sys.stderr)
    paints = {phase: [ms for began, ms in paint_ms if low <= began < high] for phase, (low, high) in bounds.items()}
    result = outcome["result"]
    return {
        "gaps": gaps,
        "waits": waits,
        "paints": paints,
        "workers": workers,
        "seconds": seconds,
        "board_move": board_move,
        "stopping_seconds": (marks["end"] - marks["stop"]) / 1e9,
        "games": result.games,
        "games_per_second": reports[-1].rate if reports else 0.0,
        "best": result.best_text,
        "bests": len(best_slot_ms),
        "best_slot_ms": max(best_slot_ms, default=0.0),
        "progress_signals": len(reports),
        "collections": collections,
    }


def print_table(figures: dict, platform: str, interval_ms: int) -> None:
    load = os.getloadavg() if hasattr(os, "getloadavg") else None
    print(
        f"GUI responsiveness: ParanoidPlay from the empty board, {figures['workers']} worker"
        f"{'' if figures['workers'] == 1 else 's'}, {figures['seconds']:g} s, {platform}, "
        f"{interval_ms} ms timer repainting an SPL-T board (move {figures['board_move']} of the 1836 game), "
        f"{os.cpu_count()} cores" + (f", load average {load[0]:.2f}" if load else "")
    )
    header = f"{'':<30}" + "".join(f"{phase:>16}" for phase in PHASES) + f"{'target':>10}"
    print(header)
    print("-" * len(header))

    def row(label: str, key: str, value, target: str = "") -> None:
        cells = "".join(f"{value(figures[key][phase]):>16}" for phase in PHASES)
        print(f"{label:<30}{cells}{target:>10}")

    def worst(values: list[float]) -> str:
        return f"{max(values, default=0):.1f} ms"

    def mean(values: list[float]) -> str:
        return f"{statistics.fmean(values) if values else 0:.1f} ms"

    row("worst gap between ticks", "gaps", worst, f"≤ {TARGET_MS:g} ms")
    row("99th percentile gap", "gaps", lambda g: f"{percentile(g, 0.99):.1f} ms", f"≤ {TARGET_MS:g} ms")
    row("mean gap", "gaps", mean, f"{interval_ms} ms")
    row(f"gaps > {TARGET_MS:g} ms", "gaps", lambda g: f"{sum(1 for x in g if x > TARGET_MS)}", "0")
    row("ticks", "gaps", lambda g: f"{len(g):,}")
    row("worst wait, not painting", "waits", worst)
    row("paints", "paints", lambda p: f"{len(p):,}")
    row("mean paint", "paints", mean)
    row("worst paint", "paints", worst)
    print("-" * len(header))
    search_gaps = figures["gaps"]["search running"] + figures["gaps"]["stopping"]
    largest = max(search_gaps, default=0)
    print(f"{'verdict (search phases)':<30}{'PASS' if largest <= TARGET_MS else 'FAIL'} (worst gap {largest:.1f} ms)")
    print(f"{'games searched':<30}{figures['games']:,} ({figures['games_per_second']:,.0f}/s)")
    print(f"{'best found':<30}{figures['best']}")
    print(f"{'new bests received':<30}{figures['bests']} (slowest slot, replaying the line: "
          f"{figures['best_slot_ms']:.1f} ms)")
    print(f"{'progress signals':<30}{figures['progress_signals']} "
          f"({figures['progress_signals'] / figures['seconds']:.1f}/s)")
    print(f"{'stopping took':<30}{figures['stopping_seconds']:.2f} s")
    collections = figures["collections"]
    print(f"{'garbage collections':<30}{len(collections)} (worst {max(collections, default=0):.1f} ms, "
          f"{sum(1 for ms in collections if ms > 10)} over 10 ms; they stop every thread)")


# == the real window ===========================================================================
# Everything below drives a real MainWindow (1280x900, analysis layout: board, advisor panel, move
# tree, score graph and sequence editor all visible) with the 1196-split record open.

RANKING_TARGET_MS = 100.0
RECORD = Path(__file__).resolve().parents[2] / "shared" / "data" / "splt" / "1196seq.txt"
ACTIONS = ("record move", "new move", "back (Left)", "forward (Right)", "back off new move", "new → record (Up)")
ACTION_TITLES = {
    "record move": "play the record's move",
    "new move": "play a new move (variation)",
    "back (Left)": "back (Left key)",
    "forward (Right)": "forward (Right key)",
    "back off new move": "back off the new move (Left)",
    "new → record (Up)": "new move → record's move (Up key)",
}
# The synchronous parts of one action, in the order of the breakdown (self times: a part nested in
# another, e.g. the board's advice marks inside the panel's fill, is not counted twice).
SYNC_PARTS = (
    "rank (advisor)",
    "advisor panel fill",
    "board advice marks",
    "board show_position",
    "sequence editor show_line",
    "window refresh, rest",
    "move tree view",
    "score graph",
    "tree, engine, key dispatch",
)
PANELS = ("board", "advisor panel", "move tree view", "score graph", "sequence editor")
PAINT_PARTS = tuple(f"paint: {panel}" for panel in PANELS) + ("paint: rest of the window", "layout, other events")
WINDOW_PHASES = PHASES
now_ns = time.perf_counter_ns


def make_application(record_events: bool = True):
    """The QApplication; a new one dispatches every event through a timed ``notify`` (see
    :func:`_timed_application_class`) so the benchmark knows what the GUI thread was doing."""
    from PySide6.QtWidgets import QApplication

    existing = QApplication.instance()
    if existing is not None:
        return existing
    if not record_events:
        return QApplication([sys.argv[0]])
    return _timed_application_class()([sys.argv[0]])


def _timed_application_class():
    """A QApplication whose ``notify`` times the events it dispatches while ``recording``: every
    top-level dispatch (a timer, a queued signal, a window's paint pass: what the event loop runs
    between two ticks) as (start ns, end ns, label or None), and every Paint event as (start, end,
    the panel it belongs to). Labels are made only for dispatches over 2 ms (cheap otherwise)."""
    from PySide6.QtCore import QEvent
    from PySide6.QtWidgets import QApplication

    paint_type = QEvent.Type.Paint

    class TimedApplication(QApplication):
        def __init__(self, argv: list[str]) -> None:
            super().__init__(argv)
            self.recording = False
            self.depth = 0
            self.top: list[tuple[int, int, str | None]] = []
            self.paints: list[tuple[int, int, str]] = []
            self.classify = lambda receiver: "other"

        def notify(self, receiver, event) -> bool:
            if not self.recording:
                return super().notify(receiver, event)
            began = now_ns()
            self.depth += 1
            try:
                return super().notify(receiver, event)
            finally:
                self.depth -= 1
                ended = now_ns()
                if self.depth == 0:
                    label = None
                    if ended - began > 2_000_000:
                        try:  # the C++ class (a reused wrapper can show another type)
                            kind = receiver.metaObject().className()
                            name = receiver.objectName()
                        except (AttributeError, RuntimeError):  # deleted in its own event (a QProcess's notifier)
                            kind, name = f"{type(receiver).__name__} (deleted since)", ""
                        label = f"{event.type().name} → {kind}" + (f" '{name}'" if name else "")
                    self.top.append((began, ended, label))
                elif event.type() == paint_type:
                    self.paints.append((began, ended, self.classify(receiver)))

    return TimedApplication


def is_timed(application) -> bool:
    return hasattr(application, "top") and hasattr(application, "recording")


def open_window(record: Path, application):
    """A shown MainWindow at 1280x900 (analysis layout) with ``record`` open, kernels warm."""
    from PySide6.QtWidgets import QWidget

    from app.gui.application import settle_memory
    from app.gui.main_window import ANALYSIS_LAYOUT, DEFAULT_SIZE, MainWindow

    window = MainWindow(session_store=False, remember_geometry=False)
    window.set_layout(ANALYSIS_LAYOUT)
    window.resize(*DEFAULT_SIZE)
    window.show()
    window.game.warm_up()  # the window does it in a thread too; the timings must not include it
    if not window.open_sequence(str(record)):
        box = window.error_box
        raise SystemExit(f"cannot open {record}: {box.informativeText() if box is not None else '?'}")
    window.activateWindow()
    window.board.setFocus()
    settle(application, window, 1.0)
    settle_memory()  # as app.gui.application.run does once the window is up
    panels = {
        "board": lambda: window.board,
        "advisor panel": lambda: window.advisor_panel,
        "move tree view": lambda: window.tree_view,
        "score graph": lambda: window.score_graph,
        "sequence editor": lambda: window.sequence_editor,
    }

    def classify(receiver) -> str:
        if isinstance(receiver, QWidget):
            for name, panel in panels.items():
                widget = panel()
                if receiver is widget or widget.isAncestorOf(receiver):
                    return f"paint: {name}"
        return "paint: rest of the window"

    if is_timed(application):
        application.classify = classify
    hidden = [name for name, dock in (("advisor", window.advisor_dock), ("moves", window.tree_dock),
                                      ("sequence", window.sequence_dock)) if not dock.isVisible()]
    if hidden:
        raise SystemExit(f"the analysis layout should show every panel; hidden: {', '.join(hidden)}")
    return window


def settle(application, window, seconds: float = 0.5) -> None:
    """Run the event loop until the advisor's rollout line (a worker thread) is in and nothing
    is left to paint, so one timed action does not pay for the previous one."""
    deadline = time.monotonic() + seconds
    application.processEvents()
    while window.advisor_panel.rollout_pending() and time.monotonic() < deadline:
        time.sleep(0.002)
        application.processEvents()
    application.processEvents()


class PartClock:
    """Self times (ms) of the wrapped calls of one action, by part name, and their call counts."""

    def __init__(self) -> None:
        self.parts: dict[str, float] = {}
        self.calls: dict[str, int] = {}
        self._stack: list[list[int]] = []

    def reset(self) -> None:
        self.parts, self.calls, self._stack = {}, {}, []

    def wrap(self, name: str, function):
        def timed(*args, **kwargs):
            frame = [0]  # nanoseconds spent in wrapped calls inside this one
            self._stack.append(frame)
            began = now_ns()
            try:
                return function(*args, **kwargs)
            finally:
                total = now_ns() - began
                self._stack.pop()
                self.parts[name] = self.parts.get(name, 0.0) + (total - frame[0]) / 1e6
                self.calls[name] = self.calls.get(name, 0) + 1
                if self._stack:
                    self._stack[-1][0] += total

        return timed


class GcLog:
    """Every garbage collection while entered: (start ns, end ns, generation). A collection stops
    every Python thread, so it lands in whatever part was running."""

    def __init__(self) -> None:
        self.spans: list[tuple[int, int, int]] = []
        self._began = 0

    def __call__(self, phase: str, info: dict) -> None:
        if phase == "start":
            self._began = now_ns()
        else:
            self.spans.append((self._began, now_ns(), info.get("generation", -1)))

    def __enter__(self) -> GcLog:
        gc.callbacks.append(self)
        return self

    def __exit__(self, *exc) -> None:
        gc.callbacks.remove(self)

    def within(self, low: int, high: int) -> tuple[float, int]:
        """Milliseconds of collection inside [low, high) and the oldest generation collected."""
        spent, oldest = 0, -1
        for began, ended, generation in self.spans:
            if began < high and ended > low:
                spent += min(ended, high) - max(began, low)
                oldest = max(oldest, generation)
        return spent / 1e6, oldest


class Instrumented:
    """While entered, the window's refresh chain reports to ``clock``: the tree's three listeners
    (the window's, the move tree view's, the score graph's, re-subscribed in the same order),
    the advisor's ``rank``, the panel's fill, the sequence editor's ``show_line`` and the board's
    ``show_position``/``show_advice``. Nothing of the app is changed: only these objects'
    attributes, and they are put back on exit."""

    def __init__(self, window, clock: PartClock) -> None:
        self.window, self.clock = window, clock

    def __enter__(self) -> Instrumented:
        import dataclasses

        window, clock = self.window, self.clock
        self.tree = window.tree
        self.listeners = [window._tree_changed, window.tree_view._tree_changed, window.score_graph._tree_changed]
        names = ("window refresh, rest", "move tree view", "score graph")
        for listener in self.listeners:
            self.tree.unsubscribe(listener)
        self.wrapped = [clock.wrap(name, listener) for name, listener in zip(names, self.listeners)]
        for listener in self.wrapped:
            self.tree.subscribe(listener)
        self.ui = window.ui
        window.ui = dataclasses.replace(self.ui, rank=clock.wrap("rank (advisor)", self.ui.rank))
        self.patched = [
            (window.advisor_panel, "show_candidates", "advisor panel fill"),
            (window.sequence_editor, "show_line", "sequence editor show_line"),
            (window.board, "show_position", "board show_position"),
            (window.board, "show_advice", "board advice marks"),
        ]
        for owner, attribute, name in self.patched:
            setattr(owner, attribute, clock.wrap(name, getattr(owner, attribute)))
        return self

    def __exit__(self, *exc) -> None:
        for listener in self.wrapped:
            self.tree.unsubscribe(listener)
        for listener in self.listeners:
            self.tree.subscribe(listener)
        self.window.ui = self.ui
        for owner, attribute, _name in self.patched:
            delattr(owner, attribute)  # the class's method again


def ranking_positions(moves: int, every: int) -> list[int]:
    """Every ``every``-th move of the line and the last one that has a move to play (the record
    ends in game over), so the end of a 1000+-move line is measured too."""
    positions = list(range(0, moves, every))
    if moves - 1 not in positions:
        positions.append(moves - 1)
    return positions


def measure_first_ranking(window, positions: list[int], application=None, use_keys: bool = True) -> dict:
    """The time from a move in ``window`` to its ranked candidates shown, at ``positions`` (move
    numbers on the main line of the open record).

    At each position: play the record's next move; back (Left key) and forward (Right key); then
    from the same position a *new* move (the advisor's best when the record differs from it, else
    the next candidate; a variation), back off it (Left), and from the variation to the record's
    move with Up (the line shown becomes the whole record again); the variation is then deleted, so
    the tree stays as it was. Each action is timed from its call to (a) the candidates of the new
    position in the advisor panel (the panel's ``candidates_shown`` for it; the window refreshes
    synchronously, so this is when the call returns) and (b) the next paint of the board (the
    event loop run until it happened). A :class:`PartClock` splits the synchronous part (rank,
    panel, sequence editor, tree view, graph, ...) and the timed application the paint pass (by
    panel). Returns ``{"samples": {action: [sample, ...]}, "keys": bool, ...}``; a sample is a
    dict with ``move``, ``shown``, ``painted`` (ms), ``parts`` (ms by part) and ``refreshes``.
    """
    from PySide6.QtCore import QEvent, QObject, Qt
    from PySide6.QtTest import QTest

    application = application or make_application()
    timed = is_timed(application)
    tree = window.tree
    main = tree.main_line()
    clock = PartClock()
    board_paints = [0]
    shown_at: list[int] = []
    # The node an action leaves: the panel's candidates count once the tree's current node is
    # another (the window's first refresh for a new move is still for the old position: the tree
    # reports the new node before it becomes current).
    leaving: list = [None]

    class BoardPaints(QObject):
        def eventFilter(self, watched, event) -> bool:  # noqa: N802 (Qt name)
            if event.type() == QEvent.Type.Paint:
                board_paints[0] += 1
            return False

    board_filter = BoardPaints()
    window.board.installEventFilter(board_filter)

    def candidates_shown(_candidates) -> None:
        if leaving[0] is not None and tree.current is not leaving[0]:
            shown_at.append(now_ns())

    window.advisor_panel.candidates_shown.connect(candidates_shown)
    keys = [use_keys]

    def press(key, fallback) -> None:
        if keys[0]:
            QTest.keyClick(window.board, key)
        else:
            fallback()

    def run(action, target_of) -> dict:
        """Time ``action`` (a callable); ``target_of()`` gives the node it must reach."""
        clock.reset()
        shown_at.clear()
        before = tree.current
        leaving[0] = before
        painted_before = board_paints[0]
        if timed:
            application.paints.clear()
            application.top.clear()
            application.recording = True
        began = now_ns()
        clock.wrap("tree, engine, key dispatch", action)()
        returned = now_ns()
        target = target_of()
        if tree.current is not target:
            raise SystemExit(f"the action did not reach the expected move (at move {before.move_number})")
        deadline = time.monotonic() + 2.0
        while not shown_at and time.monotonic() < deadline:  # a window ranking in the background
            application.processEvents()
        shown = shown_at[0] if shown_at else None
        painting = now_ns()
        while board_paints[0] == painted_before and time.monotonic() < deadline:
            application.processEvents()
        painted = now_ns()
        leaving[0] = None
        if timed:
            application.recording = False
        if shown is None:
            raise SystemExit(f"the advisor panel never showed the candidates (at move {before.move_number})")
        if board_paints[0] == painted_before:
            raise SystemExit(f"the board was not repainted (at move {before.move_number})")
        collected, generation = gc_log.within(began, painted)
        collected_sync, _ = gc_log.within(began, returned)
        parts = dict(clock.parts)
        if timed:
            paint_total = (painted - painting) / 1e6
            by_panel: dict[str, float] = {}
            for start, end, panel in application.paints:
                if start >= painting:
                    by_panel[panel] = by_panel.get(panel, 0.0) + (end - start) / 1e6
            parts.update(by_panel)
            parts["layout, other events"] = max(0.0, paint_total - sum(by_panel.values()))
        return {
            "move": before.move_number,
            "shown": (max(shown, returned) - began) / 1e6,
            "in_panel": (shown - began) / 1e6,
            "painted": (painted - began) / 1e6,
            "paint_pass": (painted - painting) / 1e6,
            "parts": parts,
            "refreshes": clock.calls.get("window refresh, rest", 0),
            "candidates": window.advisor_panel.candidate_count(),
            "gc": collected,
            "gc_sync": collected_sync,
            "gc_generation": generation,
        }

    samples: dict[str, list[dict]] = {action: [] for action in ACTIONS}
    skipped_new = []
    with GcLog() as gc_log, Instrumented(window, clock):
        # a first, untimed round trip: lazily built things (fonts, icons, caches) are not counted
        tree.go_to(main[len(main) // 2])
        window.play(main[len(main) // 2 + 1].move)
        window.undo()
        settle(application, window)
        # do the arrow keys reach the window's actions? (they need an active window)
        tree.go_to(main[1])
        settle(application, window)
        QTest.keyClick(window.board, Qt.Key.Key_Left)
        keys[0] = use_keys and tree.current is main[0]
        settle(application, window)
        for number in positions:
            here, record_next = main[number], main[number + 1]
            tree.go_to(here)
            settle(application, window)
            samples["record move"].append(run(lambda: window.play(record_next.move), lambda: record_next))
            settle(application, window)
            samples["back (Left)"].append(run(lambda: press(Qt.Key.Key_Left, window.undo), lambda: here))
            settle(application, window)
            samples["forward (Right)"].append(run(lambda: press(Qt.Key.Key_Right, window.redo), lambda: record_next))
            tree.go_to(here)
            settle(application, window)
            new = next((candidate.move for candidate in window.candidates
                        if window.game.play(here.state, candidate.move).state != record_next.state), None)
            if new is None:
                skipped_new.append(number)
                continue
            made: list = []

            def play_new() -> None:
                window.play(new)
                made.append(tree.current)

            samples["new move"].append(run(play_new, lambda: made[0]))
            if made[0].parent is not here or made[0] is record_next:
                raise SystemExit(f"the new move at {number} did not make a variation")
            settle(application, window)
            samples["back off new move"].append(run(lambda: press(Qt.Key.Key_Left, window.undo), lambda: here))
            tree.go_to(made[0])
            settle(application, window)
            # the variation's previous sibling is the record's move: the line shown is the record again
            samples["new → record (Up)"].append(
                run(lambda: press(Qt.Key.Key_Up, window.previous_variation), lambda: record_next))
            tree.delete(made[0])  # the tree is the record again
            settle(application, window)
        tree.go_to(main[-1])
        settle(application, window)
    window.advisor_panel.candidates_shown.disconnect(candidates_shown)
    window.board.removeEventFilter(board_filter)
    return {
        "samples": samples,
        "keys": keys[0],
        "positions": positions,
        "line_moves": len(main) - 1,
        "skipped_new": skipped_new,
        "paint_breakdown": timed,
        "tree_moves": len(tree),
    }


def _describe_positions(positions: list[int]) -> str:
    if len(positions) <= 6:
        return ", ".join(str(p) for p in positions)
    return f"{positions[0]}, {positions[1]}, …, {positions[-2]} and {positions[-1]} ({len(positions)} positions)"


def print_ranking_table(figures: dict, record: Path, platform: str) -> None:
    samples = figures["samples"]
    load = os.getloadavg() if hasattr(os, "getloadavg") else None
    print(
        f"First ranking after a move: MainWindow 1280x900 (analysis layout), {record.name} open "
        f"({figures['line_moves']} moves, {figures['tree_moves']} in the tree), from moves "
        f"{_describe_positions(figures['positions'])}; {platform}, no search running"
        + (f", load average {load[0]:.2f}" if load else "")
    )
    if not figures["keys"]:
        print("(the arrow keys did not reach the window's actions: back/forward called undo()/redo())")
    header = (f"{'action → candidates':<50}{'n':>5}{'median':>10}{'p95':>10}{'worst':>10}"
              f"{'worst at':>10}{'gc in worst':>13}{'target':>11}")
    print(header)
    print("-" * len(header))
    for action in ACTIONS:
        rows = samples[action]
        for key, what in (("shown", "in the panel"), ("painted", "painted")):
            values = [row[key] for row in rows]
            if not values:
                continue
            worst_row = max(rows, key=lambda row: row[key])
            print(f"{ACTION_TITLES[action] + ' → ' + what:<50}{len(values):>5}"
                  f"{statistics.median(values):>8.1f}ms{percentile(values, 0.95):>8.1f}ms{max(values):>8.1f}ms"
                  f"{'move ' + str(worst_row['move']):>10}{_gc_text(worst_row):>13}"
                  f"{'≤ ' + format(RANKING_TARGET_MS, 'g') + ' ms':>11}")
    print("-" * len(header))
    every = [row["painted"] for action in ACTIONS for row in samples[action]]
    plays = [row["painted"] for action in ("record move", "new move") for row in samples[action]]
    worst = max(every, default=0.0)
    print(f"{'verdict (every action, painted)':<50}{'PASS' if worst <= RANKING_TARGET_MS else 'FAIL'} "
          f"(worst {worst:.1f} ms; moves played: median {statistics.median(plays):.1f} ms, "
          f"p95 {percentile(plays, 0.95):.1f} ms)")
    if figures["skipped_new"]:
        print(f"(no new move possible at {', '.join(map(str, figures['skipped_new']))}: one legal move)")
    print()
    print_breakdown(figures)


def _gc_text(sample: dict) -> str:
    if not sample["gc"]:
        return "–"
    return f"{sample['gc']:.1f} ms g{sample['gc_generation']}"


def print_breakdown(figures: dict) -> None:
    samples = figures["samples"]
    parts = SYNC_PARTS + (PAINT_PARTS if figures["paint_breakdown"] else ())
    width = 18
    print("Breakdown per action, ms: median / worst (self times; the paint rows are the paint pass after "
          "the call returned)")
    header = f"{'part':<30}" + "".join(f"{action:>{width}}" for action in ACTIONS)
    print(header)
    print("-" * len(header))

    def cell(values: list[float]) -> str:
        return f"{statistics.median(values):.1f} / {max(values):.1f}" if values else "–"

    def line(label: str, value) -> None:
        print(f"{label:<30}" + "".join(f"{cell([value(row) for row in samples[a]]):>{width}}" for a in ACTIONS))

    for part in SYNC_PARTS:
        line(part, lambda row, part=part: row["parts"].get(part, 0.0))
    line("(garbage collection in these)", lambda row: row["gc_sync"])
    line("= candidates in the panel", lambda row: row["in_panel"])
    line("= call returned", lambda row: row["shown"])
    if figures["paint_breakdown"]:
        print("-" * len(header))
        for part in PAINT_PARTS:
            line(part, lambda row, part=part: row["parts"].get(part, 0.0))
    line("= paint pass", lambda row: row["paint_pass"])
    print("-" * len(header))
    line("= painted (total)", lambda row: row["painted"])
    line("(garbage collection in total)", lambda row: row["gc"])
    print(f"{'window refreshes per action':<30}" + "".join(
        f"{'/'.join(sorted({str(row['refreshes']) for row in samples[a]})) or '–':>{width}}" for a in ACTIONS))


# -- the stall measurement with the whole window ----------------------------------------------------
def measure_window(window, application, seconds: float, interval_ms: int, baseline_seconds: float,
                   from_move: int, action_ms: int, show_gaps_over: float | None = None) -> dict:
    """Like :func:`measure`, with the real window: it shows the record at ``from_move``; a 5 ms
    QTimer ticks and every ``action_ms`` its callback plays a move
    (alternately the record's and another candidate) and goes back, as a player using the window
    during the search would; after ``baseline_seconds`` the search starts with
    ``window.start_search()`` (ParanoidPlay from ``from_move``, the window's default workers and
    folder, under a scratch TMPDIR) and is stopped with ``window.stop_search()`` after
    ``seconds``. The window's own slots handle progress and every new best (a best is added to the
    tree as a marked branch); the benchmark only times them."""
    import itertools

    from PySide6.QtCore import Qt, QTimer

    from app.gui.games.splt.search_jobs import default_workers

    timed = is_timed(application)
    tree = window.tree
    main = tree.main_line()
    if not 0 <= from_move < len(main) - 1:
        raise SystemExit(f"--from-move must be below {len(main) - 1} (the record has {len(main) - 1} moves)")
    base, record_next = main[from_move], main[from_move + 1]
    tree.go_to(base)
    settle(application, window, 1.0)
    runner = window.search_runner

    ticks: list[int] = []
    actions: list[tuple[int, int, float, float, str]] = []  # start, end, play ms, back ms, kind
    bests: list[tuple[int, int]] = []  # start, end of the window's new-best slot
    reports: list = []
    marks: dict[str, int] = {}
    outcome: dict = {}
    gc_log = GcLog()
    kinds = itertools.cycle(("record move", "other candidate"))
    last_action = [0]
    action_ns = action_ms * 1_000_000

    def act() -> None:
        if tree.current is not base:
            tree.go_to(base)
        kind = next(kinds)
        move = record_next.move
        if kind == "other candidate":
            move = next((c.move for c in window.candidates
                         if window.game.play(base.state, c.move).state != record_next.state), move)
        began = now_ns()
        window.play(move)
        played = now_ns()
        window.undo()
        ended = now_ns()
        actions.append((began, ended, (played - began) / 1e6, (ended - played) / 1e6, kind))

    def tick() -> None:
        moment = now_ns()
        ticks.append(moment)
        if moment - last_action[0] >= action_ns:
            last_action[0] = moment
            act()

    def take_best(report) -> None:
        began = now_ns()
        window._search_new_best(report)
        bests.append((began, now_ns()))

    own_slot = True
    try:
        runner.new_best.disconnect(window._search_new_best)
    except (RuntimeError, TypeError):
        own_slot = False  # the window's slot stays; only count
    runner.new_best.connect(take_best if own_slot else (lambda report: bests.append((now_ns(), now_ns()))))
    runner.progress.connect(reports.append)

    def start_search() -> None:
        marks["start"] = now_ns()
        if tree.current is not base:
            tree.go_to(base)
        base.last_visited = record_next  # the line searched is the record, whatever was tried
        previous = os.environ.get("TMPDIR")
        os.environ["TMPDIR"] = scratch  # the window's folder without a session store: $TMPDIR/searches
        try:
            started = window.start_search()
        finally:
            if previous is None:
                os.environ.pop("TMPDIR", None)
            else:
                os.environ["TMPDIR"] = previous
        marks["started"] = now_ns()
        if not started:
            outcome["error"] = f"start_search() refused: {window.message_text()}"
            application.quit()
            return
        stopper.start(int(seconds * 1000))

    def stop_search() -> None:
        marks["stop"] = now_ns()
        window.stop_search()

    # named single-shot timers, so a long dispatch is recognised in the list of longest gaps
    starter, stopper = QTimer(), QTimer()
    for named, name, slot in ((starter, "benchmarkStartSearch", start_search),
                              (stopper, "benchmarkStopSearch", stop_search)):
        named.setObjectName(name)
        named.setSingleShot(True)
        named.timeout.connect(slot)

    def ended(result) -> None:
        marks["end"] = now_ns()
        marks.setdefault("stop", marks["end"])  # the window's budget ran out first
        outcome["result"] = result
        QTimer.singleShot(100, application.quit)

    def failed(message: str) -> None:
        outcome["error"] = message
        application.quit()

    runner.finished.connect(ended)
    runner.failed.connect(failed)
    timer = QTimer()
    timer.setObjectName("benchmarkProbe")
    timer.setTimerType(Qt.TimerType.PreciseTimer)
    timer.setInterval(interval_ms)
    timer.timeout.connect(tick)

    with tempfile.TemporaryDirectory(prefix="kibitz-gui-bench-") as scratch:
        if timed:
            application.top.clear()
            application.paints.clear()
            application.recording = True
        gc_log.__enter__()
        timer.start()
        starter.start(int(baseline_seconds * 1000))
        application.exec()
        timer.stop()
        gc_log.__exit__()
        if timed:
            application.recording = False
        runner.wait()
        folder = window.analysis.search_folder
    runner.finished.disconnect(ended)
    runner.failed.disconnect(failed)
    runner.progress.disconnect(reports.append)
    if own_slot:
        runner.new_best.disconnect(take_best)
        runner.new_best.connect(window._search_new_best)
    if "error" in outcome:
        raise SystemExit(f"the search failed: {outcome['error']}")

    bounds = {"no search": (0, marks["start"]), "search running": (marks["start"], marks["stop"]),
              "stopping": (marks["stop"], marks["end"])}

    def phase_of(moment: int) -> str | None:
        for phase, (low, high) in bounds.items():
            if low <= moment < high:
                return phase
        return None

    top = application.top if timed else []
    busy_spans = [(b, e) for b, e, _ in top] if timed else [(b, e) for b, e, *_ in actions] + bests
    gaps: dict[str, list[float]] = {phase: [] for phase in WINDOW_PHASES}
    waits: dict[str, list[float]] = {phase: [] for phase in WINDOW_PHASES}
    long_gaps: list[tuple[float, int, int, str]] = []
    first = 0
    busy_spans.sort()
    for before, after in zip(ticks, ticks[1:]):
        while first < len(busy_spans) and busy_spans[first][1] <= before:
            first += 1
        busy = 0
        for b, e in busy_spans[first:]:
            if b >= after:
                break
            busy += min(e, after) - max(b, before)
        phase = phase_of(after)  # a gap across a boundary counts for the later phase (start_search...)
        if phase is None:
            continue
        gap = (after - before) / 1e6
        gaps[phase].append(gap)
        waits[phase].append(max(0.0, (after - before - busy) / 1e6 - interval_ms))
        if gap > (show_gaps_over if show_gaps_over is not None else TARGET_MS):
            long_gaps.append((gap, before, after, phase))

    def what_ran(before: int, after: int) -> str:
        parts = []
        for b, e, play_ms, back_ms, kind in actions:
            if b < after and e > before:
                parts.append(f"timer: play {kind} {play_ms:.0f} ms + back {back_ms:.0f} ms")
        for b, e in bests:
            if b < after and e > before:
                parts.append(f"new-best slot {(e - b) / 1e6:.0f} ms")
        for b, e, label in top:
            if b < after and e > before and label is not None and e - b > 5_000_000:
                parts.append(f"{label} {(e - b) / 1e6:.0f} ms")
        collected, generation = gc_log.within(before, after)
        if collected > 1:
            parts.append(f"garbage collection {collected:.0f} ms (generation {generation})")
        busy = sum(min(e, after) - max(b, before) for b, e in busy_spans if b < after and e > before) / 1e6
        return f"GUI thread busy {busy:.0f} ms" + (": " + "; ".join(parts) if parts else "")

    def per_phase(items, start_of) -> dict[str, list]:
        grouped: dict[str, list] = {phase: [] for phase in WINDOW_PHASES}
        for item in items:
            phase = phase_of(start_of(item))
            if phase is not None:
                grouped[phase].append(item)
        return grouped

    result = outcome["result"]
    return {
        "gaps": gaps,
        "waits": waits,
        "long_gaps": [(gap, phase, (before - marks["start"]) / 1e9, what_ran(before, after))
                      for gap, before, after, phase in sorted(long_gaps, reverse=True)],
        "actions": per_phase(actions, lambda a: a[0]),
        "bests_by_phase": per_phase(bests, lambda b: b[0]),
        "events": per_phase(top, lambda t: t[1]),
        "timed": timed,
        "own_slot": own_slot,
        "workers": default_workers(),
        "seconds": seconds,
        "from_move": from_move,
        "action_ms": action_ms,
        "start_search_ms": (marks["started"] - marks["start"]) / 1e6,
        "stopping_seconds": (marks["end"] - marks["stop"]) / 1e9,
        "games": result.games,
        "games_per_second": reports[-1].rate if reports else 0.0,
        "best": result.best_text,
        "reason": result.reason,
        "bests": len(bests),
        "progress_signals": len(reports),
        "collections": [(e - b) / 1e6 for b, e, _ in gc_log.spans],
        "collection_generations": [generation for _, _, generation in gc_log.spans],
        "tracked_objects": len(gc.get_objects()),
        "folder": folder,
        "tree_moves": len(tree),
    }


def print_window_table(figures: dict, platform: str, interval_ms: int, record: Path) -> None:
    load = os.getloadavg() if hasattr(os, "getloadavg") else None
    print(
        f"GUI responsiveness, whole window: MainWindow 1280x900 (analysis layout), {record.name} at move "
        f"{figures['from_move']}; window.start_search() = ParanoidPlay from move {figures['from_move']}, "
        f"{figures['workers']} worker{'' if figures['workers'] == 1 else 's'} (the window's default), "
        f"{figures['seconds']:g} s; {platform}; {interval_ms} ms timer, every "
        f"{figures['action_ms']} ms playing a move (the record's / another candidate) and going back; "
        f"{os.cpu_count()} cores" + (f", load average {load[0]:.2f}" if load else "")
    )
    header = f"{'':<34}" + "".join(f"{phase:>16}" for phase in WINDOW_PHASES) + f"{'target':>10}"
    print(header)
    print("-" * len(header))

    def row(label: str, values: dict, show, target: str = "") -> None:
        print(f"{label:<34}" + "".join(f"{show(values[phase]):>16}" for phase in WINDOW_PHASES) + f"{target:>10}")

    def ms(value: float) -> str:
        return f"{value:.1f} ms"

    gaps, waits = figures["gaps"], figures["waits"]
    row("worst gap between ticks", gaps, lambda g: ms(max(g, default=0)), f"≤ {TARGET_MS:g} ms")
    row("99th percentile gap", gaps, lambda g: ms(percentile(g, 0.99)), f"≤ {TARGET_MS:g} ms")
    row("mean gap", gaps, lambda g: ms(statistics.fmean(g) if g else 0), f"{interval_ms} ms")
    row(f"gaps > {TARGET_MS:g} ms", gaps, lambda g: f"{sum(1 for x in g if x > TARGET_MS)}", "0")
    row("ticks", gaps, lambda g: f"{len(g):,}")
    row("worst wait, GUI thread not busy", waits, lambda w: ms(max(w, default=0)))
    if figures["timed"]:
        events = figures["events"]
        row("worst event-loop dispatch", events, lambda e: ms(max(((b2 - b1) / 1e6 for b1, b2, _ in e), default=0)))
        row("GUI thread busy (share)", events, lambda e: _busy_share(e))
    actions = figures["actions"]
    row("moves played + taken back", actions, lambda a: f"{len(a)}")
    row("play → candidates in panel, med", actions,
        lambda a: ms(statistics.median([x[2] for x in a])) if a else "–")
    row("play → candidates in panel, worst", actions, lambda a: ms(max(x[2] for x in a)) if a else "–",
        f"≤ {RANKING_TARGET_MS:g} ms")
    row("back (undo), worst", actions, lambda a: ms(max(x[3] for x in a)) if a else "–")
    bests = figures["bests_by_phase"]
    row("new bests received", bests, lambda b: f"{len(b)}")
    if figures["own_slot"]:
        row("window's new-best slot, worst", bests, lambda b: ms(max((e - s) / 1e6 for s, e in b)) if b else "–")
    print("-" * len(header))
    search_gaps = gaps["search running"] + gaps["stopping"]
    largest = max(search_gaps, default=0)
    print(f"{'verdict (search phases)':<34}{'PASS' if largest <= TARGET_MS else 'FAIL'} (worst gap {largest:.1f} ms, "
          f"p99 {percentile(search_gaps, 0.99):.1f} ms, {sum(1 for g in search_gaps if g > TARGET_MS)} gaps > "
          f"{TARGET_MS:g} ms)")
    print(f"{'games searched':<34}{figures['games']:,} ({figures['games_per_second']:,.0f}/s)")
    print(f"{'best found':<34}{figures['best']}")
    print(f"{'new bests received':<34}{figures['bests']} (each added to the tree: {figures['tree_moves']:,} moves now)")
    print(f"{'progress signals':<34}{figures['progress_signals']} "
          f"({figures['progress_signals'] / figures['seconds']:.1f}/s)")
    print(f"{'start_search() took':<34}{figures['start_search_ms']:.1f} ms")
    print(f"{'stopping took':<34}{figures['stopping_seconds']:.2f} s ({figures['reason']})")
    collections = figures["collections"]
    generations = figures["collection_generations"]
    worst_gc = max(range(len(collections)), key=collections.__getitem__, default=None)
    print(f"{'garbage collections':<34}{len(collections)} (worst {max(collections, default=0):.1f} ms"
          + (f", generation {generations[worst_gc]}" if worst_gc is not None else "")
          + f"; {sum(1 for ms_ in collections if ms_ > 10)} over 10 ms; "
          f"{sum(1 for g in generations if g == 2)} full, over {figures['tracked_objects']:,} tracked objects; "
          f"they stop every Python thread)")
    if figures["long_gaps"]:
        print(f"longest gaps (of {len(figures['long_gaps'])} listed):")
        for gap, phase, at, what in figures["long_gaps"][:8]:
            print(f"  {gap:6.1f} ms  {phase:<15} at {at:+8.3f} s from the search's start: {what}")


def _busy_share(events: list) -> str:
    if not events:
        return "–"
    busy = sum(e - b for b, e, _ in events)
    span = events[-1][1] - events[0][0]
    return f"{100 * busy / span:.0f} %" if span > 0 else "–"


def print_targets(ranking: dict | None, stall: dict | None, bare: bool) -> None:
    """The issue's two targets beside the measured figures."""
    print("Targets")
    header = f"{'':<58}{'measured':>14}{'target':>11}{'verdict':>9}"
    print(header)
    print("-" * len(header))
    if stall is not None:
        gaps = stall["gaps"]["search running"] + stall["gaps"]["stopping"]
        worst = max(gaps, default=0)
        what = "bare board" if bare else "whole window"
        print(f"{'(a) GUI stall, ParanoidPlay running (' + what + '), worst gap':<58}{worst:>11.1f} ms"
              f"{'≤ 50 ms':>11}{'PASS' if worst <= TARGET_MS else 'FAIL':>9}")
        print(f"{'    99th percentile gap':<58}{percentile(gaps, 0.99):>11.1f} ms")
        if not bare:
            plays = [a[2] for phase in ("search running", "stopping") for a in stall["actions"][phase]]
            if plays:
                worst_play = max(plays)
                print(f"{'    play → candidates in panel during the search, worst':<58}{worst_play:>11.1f} ms"
                      f"{'≤ 100 ms':>11}{'PASS' if worst_play <= RANKING_TARGET_MS else 'FAIL':>9}")
    if ranking is not None:
        samples = ranking["samples"]
        for label, actions, key in (
            ("(b) first ranking after a move, in the panel, worst", ("record move", "new move"), "shown"),
            ("(b) first ranking after a move, painted, worst", ("record move", "new move"), "painted"),
            ("    back/forward/variations (arrow keys), painted, worst",
             ("back (Left)", "forward (Right)", "back off new move", "new → record (Up)"), "painted"),
        ):
            values = [row[key] for action in actions for row in samples[action]]
            worst = max(values, default=0)
            verdict = "PASS" if worst <= RANKING_TARGET_MS else "FAIL"
            print(f"{label:<58}{worst:>11.1f} ms{'≤ 100 ms':>11}{verdict:>9}")
        plays = [row["painted"] for action in ("record move", "new move") for row in samples[action]]
        print(f"{'    moves played, painted: median / p95':<58}"
              f"{f'{statistics.median(plays):.1f} / {percentile(plays, 0.95):.1f} ms':>14}")


# == cold start ====================================================================================
# From launch to the first advice of each game, in a fresh process: cold (an empty numba cache, the
# window prepares the game's kernels in its helper process) and warm (the cache that run filled).

COLD_START_GAMES = ("splt", "hatetris", "2048", "1010", "destructo")  # engines.GAMES (kept light here)
COLD_GAP_TARGET_MS = {"cold": 100.0, "warm": 50.0}
WARM_ADVICE_TARGET_MS = 100.0
COLD_START_TIMEOUT = 240.0
CHANCE_SEED = 7  # the chance steps dealt for the games that start with one
# The games whose start is a chance step (2048: 2 tiles due; 1010: deal due; destructo: the level's
# board is due). Named here because asking a game (initial_state) may compile its kernels, in the
# measured process, before launch (HATETRIS); the child checks the window's start agrees.
CHANCE_START_GAMES = ("2048", "1010", "destructo")
SETTLE_MEMORY = ("app", "freeze", "none")
IN_PROCESS_ENV = "KIBITZ_PREPARE_IN_PROCESS"  # app.prepare.IN_PROCESS_ENV (the child checks it is)
LONG_GAPS_KEPT = 8
# The window's steps timed in the child (wrapped on the class or module before the window is made;
# a name the app no longer has is skipped), to say which one a long gap or the constructor spent.
WINDOW_PARTS = (
    ("app.gui.main_window", "MainWindow._kernels_ready", "_kernels_ready (the helper is done)"),
    ("app.gui.main_window", "MainWindow._show_analysis", "_show_analysis"),
    ("app.gui.main_window", "MainWindow._build_game", "_build_game"),
    ("app.gui.main_window", "ui_for", "ui_for (imports the game's UI and advisor)"),
    ("app.gui.main_window", "MainWindow._refresh", "_refresh (ranks unless off-thread)"),
    ("app.gui.main_window", "MainWindow._ranked", "_ranked (the rank worker's answer)"),
    ("app.gui.main_window", "MainWindow.load_position", "load_position"),
    ("app.gui.advisor_panel", "AdvisorPanel.show_candidates", "AdvisorPanel.show_candidates"),
)


def _time_window_parts(spans: list[tuple[int, int, str]]) -> None:
    """Wrap :data:`WINDOW_PARTS` so that every call appends (start ns, end ns, label) to ``spans``."""
    import importlib

    for module_name, attribute, label in WINDOW_PARTS:
        owner = importlib.import_module(module_name)
        *path, name = attribute.split(".")
        for step in path:
            owner = getattr(owner, step)
        original = getattr(owner, name, None)
        if original is None:
            continue

        def timed(*args, _original=original, _label=label, **kwargs):
            began = now_ns()
            try:
                return _original(*args, **kwargs)
            finally:
                spans.append((began, now_ns(), _label))

        setattr(owner, name, timed)


def _parts_text(spans: list[tuple[int, int, str]], low: int, high: int) -> str:
    """The timed window steps that ran in [low, high), in the order they began (nested ones
    after the step they are in), over 2 ms."""
    inside = sorted((b, e, label) for b, e, label in spans if b < high and e > low and e - b > 2_000_000)
    return ", ".join(f"{label} {(e - b) / 1e6:.0f} ms" for b, e, label in inside)


class StackSampler:
    """A thread that samples every other thread's Python stack every ``interval`` seconds, so a
    long gap can be put down to a file and function. A stack is (file, line, function) tuples,
    innermost first. It takes the GIL a moment at every sample: a little load of its own."""

    def __init__(self, interval: float = 0.002) -> None:
        import threading

        self.interval = interval
        self.samples: list[tuple[int, dict[str, tuple]]] = []  # (ns, {thread name: stack})
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="benchmark-stack-sampler", daemon=True)

    def start(self) -> None:
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        self._thread.join(1.0)

    def _run(self) -> None:
        import threading

        own = threading.get_ident()
        while not self._stop.wait(self.interval):
            moment = now_ns()
            names = {thread.ident: thread.name for thread in threading.enumerate()}
            stacks = {}
            for ident, frame in sys._current_frames().items():
                if ident == own:
                    continue
                entries = []
                while frame is not None and len(entries) < 60:
                    entries.append((frame.f_code.co_filename, frame.f_lineno, frame.f_code.co_name))
                    frame = frame.f_back
                stacks[names.get(ident, str(ident))] = tuple(entries)
            self.samples.append((moment, stacks))

    def within(self, low: int, high: int) -> list[dict[str, tuple]]:
        return [stacks for moment, stacks in self.samples if low <= moment < high]


def _where(stack: tuple, root: str) -> str:
    """The innermost frame of the project in ``stack`` (and the innermost frame if elsewhere);
    a stack ending in the benchmark's ``notify`` is Qt's own (C++) work in an event dispatch."""
    if not stack:
        return "?"
    inner_file, inner_line, inner_name = stack[0]
    in_qt = inner_name == "notify" and "/benchmarks/" in inner_file
    for file, line, name in stack:
        if file.startswith(root) and "/benchmarks/" not in file:
            place = f"{os.path.relpath(file, root)}:{line} {name}()"
            if in_qt:
                return f"Qt (C++) called from {place}"
            if (file, line, name) != stack[0]:
                place += f" → {Path(inner_file).name}:{inner_line} {inner_name}()"
            return place
    return "Qt (C++) in an event dispatch" if in_qt else f"{Path(inner_file).name}:{inner_line} {inner_name}()"


def _stall_summary(samples: list[dict[str, tuple]], root: str) -> str:
    """What the main thread was doing in the samples of a gap (the most frequent places), and
    which other thread ran when the main thread sat in the event loop (waiting for the GIL)."""
    if not samples:
        return "no stack sample in the gap (the GIL was never free: C code or one long Python call)"
    import collections

    main_places: collections.Counter = collections.Counter()
    others: collections.Counter = collections.Counter()
    for stacks in samples:
        main = stacks.get("MainThread", ())
        idle = bool(main) and main[0][2] == "cold_start_child"  # inside application.exec()
        main_places["event loop (no Python running)" if idle else _where(main, root)] += 1
        for name, stack in stacks.items():
            if name == "MainThread" or not stack or stack[0][2] in ("wait", "_wait_for_tstate_lock", "select",
                                                                     "poll", "_worker", "get"):
                continue
            if any(file.startswith(root) and "/benchmarks/" not in file for file, _, _ in stack):
                others[f"{name}: {_where(stack, root)}"] += 1
    total = len(samples)
    text = "; ".join(f"{count}/{total} {place}" for place, count in main_places.most_common(3))
    if others:
        text += " | other threads: " + "; ".join(f"{count}/{total} {place}" for place, count in others.most_common(2))
    return text


def _main_stack(samples: list[dict[str, tuple]], root: str) -> list[str]:
    """The main thread's project frames (outermost first) in the sample of the gap that has the
    most of them: the call chain of what stalled."""
    best: tuple = ()
    for stacks in samples:
        main = stacks.get("MainThread", ())
        frames = tuple(f for f in main if f[0].startswith(root) and "/benchmarks/" not in f[0])
        if len(frames) > len(best):
            best = frames
    return [f"{os.path.relpath(file, root)}:{line} {name}()" for file, line, name in reversed(best)]


def cold_start_child(game_name: str, interval_ms: int, result_file: Path, spawned_at: int,
                     deadline_seconds: float, sample_stacks: bool, settle_memory_as: str = "app") -> int:
    """One start of the window in this (fresh) process; writes its figures to ``result_file``.

    Imports as ``app.gui.application`` does, then *launch*: the QApplication is created, a
    ``interval_ms`` QTimer starts ticking, ``MainWindow(game_name)`` is built (session and
    settings in the folders the parent gave) and shown, and ``settle_memory`` is queued, as
    :func:`app.gui.application.run` does. The event loop then runs until the first advice is on
    screen: the advisor panel holds at least one candidate for a position with a move, and a
    paint of the panel followed. A game whose start is a chance step has no advice there: at the
    first tick once the window is no longer preparing, ``window.load_position`` opens the
    position after the chance steps dealt from ``numpy.random.default_rng(CHANCE_SEED)`` (dealt
    before launch by the engines' plain-Python chance code: no kernel) and its advice is the one
    timed. ``settle_memory_as``: "app" queues :func:`app.gui.application.settle_memory` as
    ``run`` does, "freeze" a bare ``gc.freeze()`` instead (no full collection first), "none"
    nothing (what-ifs for the first gap)."""
    import numpy as np
    from PySide6.QtCore import Qt, QTimer

    from app import prepare
    from app.gui.application import settle_memory
    from app.gui.main_window import MainWindow
    from app.gui.settings import APPLICATION, ORGANIZATION
    from engines import GAMES

    if prepare.IN_PROCESS_ENV != IN_PROCESS_ENV:
        raise SystemExit(f"app.prepare.IN_PROCESS_ENV is {prepare.IN_PROCESS_ENV} now: update the benchmark")
    if os.environ.get(IN_PROCESS_ENV) == "1":
        raise SystemExit(f"{IN_PROCESS_ENV}=1 would skip the preparation: unset it")
    game = GAMES[game_name]
    stamped = prepare.is_prepared(game_name)
    dealt = None
    if game_name in CHANCE_START_GAMES:
        rng = np.random.default_rng(CHANCE_SEED)
        dealt = game.initial_state()
        steps = 0
        while game.is_chance_node(dealt) and steps < 10:
            dealt = game.apply_chance(dealt, game.sample_chance(dealt, rng)).state
            steps += 1

    application = _timed_application_class()([sys.argv[0]])
    launch, launch_mono = now_ns(), time.monotonic_ns()
    application.setOrganizationName(ORGANIZATION)
    application.setApplicationName(APPLICATION)
    application.recording = True
    ticks: list[int] = []
    marks: dict[str, int] = {}
    own: list[tuple[int, int, str]] = []  # the benchmark's own work in the GUI thread
    gc_log = GcLog()
    gc_log.__enter__()
    sampler = StackSampler() if sample_stacks else None
    outcome: dict = {}
    paint_seen = [0]  # application.paints already looked at

    timer = QTimer()
    timer.setObjectName("benchmarkProbe")
    timer.setTimerType(Qt.TimerType.PreciseTimer)
    timer.setInterval(interval_ms)

    def advice_target() -> bool:
        """The panel shows candidates for the position the run waits for."""
        if window.is_preparing() or window.advisor_panel.candidate_count() < 1:
            return False
        if dealt is not None:
            return "loaded" in marks and window.state == dealt
        return not game.is_chance_node(window.state)

    def candidates_shown(candidates) -> None:
        if candidates and "in_panel" not in marks and advice_target():
            marks["in_panel"] = now_ns()

    def finish(error: str | None = None) -> None:
        if error is not None:
            outcome["error"] = error
        timer.stop()
        application.quit()

    def tick() -> None:
        moment = now_ns()
        ticks.append(moment)
        if "ready_tick" not in marks and not window.is_preparing():
            marks["ready_tick"] = moment
            if game.is_chance_node(window.state) != (dealt is not None):
                finish(f"the start of {game_name} is {'' if dealt is None else 'not '}a chance step: "
                       "update CHANCE_START_GAMES in the benchmark")
                return
            if dealt is not None:
                began = now_ns()
                window.load_position(dealt, "benchmark deal")
                marks["loaded"] = began
                own.append((began, now_ns(), "window.load_position (the dealt position)"))
        if "in_panel" not in marks and advice_target():
            marks["in_panel"] = moment
        if "in_panel" in marks:
            panel_painted = [end for start, end, where in application.paints[paint_seen[0]:]
                             if where == "advisor" and start >= marks["in_panel"]]
            paint_seen[0] = len(application.paints)
            if panel_painted:
                marks["painted"] = panel_painted[0]
                finish()
            elif moment - marks["in_panel"] > 2_000_000_000:
                finish("the advisor panel was not painted within 2 s of its candidates")

    timer.timeout.connect(tick)
    parts: list[tuple[int, int, str]] = []
    _time_window_parts(parts)
    if sampler is not None:
        sampler.start()
    timer.start()
    window = MainWindow(game_name)
    marks["built"] = now_ns()
    panel = window.advisor_panel

    def classify(receiver) -> str:
        try:
            return "advisor" if receiver is panel or panel.isAncestorOf(receiver) else "other"
        except (RuntimeError, TypeError):
            return "other"

    application.classify = classify
    panel.candidates_shown.connect(candidates_shown)
    # (connected after the window's own slot: called once the window has built the game's board)
    window.preparation.ready.connect(lambda name: marks.setdefault("ready_slot_end", now_ns())
                                     if name == game_name else None)
    if advice_target():  # ranked in the constructor (a warm start of a game with a move to play)
        marks["in_panel"] = marks["built"]
    window.show()
    marks["shown"] = now_ns()
    if settle_memory_as == "app":
        QTimer.singleShot(0, settle_memory)
    elif settle_memory_as == "freeze":
        QTimer.singleShot(0, gc.freeze)
    ticks.append(marks["shown"])  # the first gap runs from the window shown to the first tick
    QTimer.singleShot(int(deadline_seconds * 1000), lambda: finish(
        f"no advice within {deadline_seconds:g} s of launch (preparing: {window.is_preparing()}, "
        f"candidates: {window.advisor_panel.candidate_count()}, rank pending: {window.rank_pending()})"))
    application.exec()
    application.recording = False
    if sampler is not None:
        sampler.stop()
    gc_log.__exit__()

    root = str(Path(__file__).resolve().parents[1]) + os.sep
    end = marks.get("painted", ticks[-1])
    top = sorted(application.top)
    # ready: when the window stopped preparing: shown if it never was, else the start of the event
    # dispatch in which it took the helper's end (building the game's board and ranking in it)
    if "ready_slot_end" in marks:
        marks["ready"] = next((b for b, e, _ in top if b <= marks["ready_slot_end"] <= e), marks["ready_slot_end"])
    elif "ready_tick" in marks:
        marks["ready"] = marks["shown"] if stamped else marks["ready_tick"]
    gaps = [(after - before) / 1e6 for before, after in zip(ticks, ticks[1:])]
    long_gaps = []
    for before, after in zip(ticks, ticks[1:]):
        gap = (after - before) / 1e6
        if gap <= TARGET_MS:
            continue
        what = [f"{label} {(e - b) / 1e6:.0f} ms" for b, e, label in top
                if b < after and e > before and label is not None and e - b > 5_000_000]
        what += [f"benchmark: {label} {(e - b) / 1e6:.0f} ms" for b, e, label in own if b < after and e > before]
        collected, generation = gc_log.within(before, after)
        if collected > 1:
            what.append(f"garbage collection {collected:.0f} ms (generation {generation})")
        busy = sum(min(e, after) - max(b, before) for b, e, _ in top if b < after and e > before) / 1e6
        if before == marks["shown"]:
            what.insert(0, "first turn of the event loop after show()")
        phase = "preparing" if after <= marks.get("ready", end) else "after ready"
        samples = sampler.within(before, after) if sampler is not None else []
        long_gaps.append({"gap_ms": gap, "at_s": (before - launch) / 1e9, "phase": phase,
                          "busy_ms": busy, "what": "; ".join(what), "steps": _parts_text(parts, before, after),
                          "stacks": _stall_summary(samples, root) if sampler is not None else None,
                          "main_stack": _main_stack(samples, root)})
    long_gaps.sort(key=lambda g: -g["gap_ms"])
    ready = marks.get("ready")

    def since(mark: str, origin: int) -> float | None:
        return (marks[mark] - origin) / 1e6 if mark in marks else None

    # a gap across the moment the window stopped preparing counts as after it (the board's build)
    preparing_gaps = [(b - a) / 1e6 for a, b in zip(ticks, ticks[1:]) if ready is None or b <= ready]
    after_gaps = [(b - a) / 1e6 for a, b in zip(ticks, ticks[1:]) if ready is not None and b > ready]
    figures = {
        "game": game_name,
        "stamped": stamped,
        "dealt": game.board_text(dealt) if dealt is not None else None,
        "preparation_s": window.preparation.seconds.get(game_name),
        "spawn_to_launch_ms": (launch_mono - spawned_at) / 1e6,
        "spawn_to_shown_ms": (launch_mono - spawned_at) / 1e6 + (marks["shown"] - launch) / 1e6,
        "launch_to_built_ms": since("built", launch),
        "launch_to_shown_ms": since("shown", launch),
        "launch_to_ready_ms": since("ready", launch),
        "launch_to_in_panel_ms": since("in_panel", launch),
        "launch_to_advice_ms": since("painted", launch),
        "ready_to_advice_ms": (marks["painted"] - (marks.get("loaded") or max(ready, marks["shown"]))) / 1e6
        if "painted" in marks and ready is not None else None,
        "candidates": window.advisor_panel.candidate_count(),
        "gaps": gaps,
        "worst_gap_ms": max(gaps, default=0.0),
        "p99_gap_ms": percentile(gaps, 0.99),
        "gaps_over_target": sum(1 for g in gaps if g > TARGET_MS),
        "worst_gap_preparing_ms": max(preparing_gaps, default=0.0),
        "worst_gap_after_ready_ms": max(after_gaps, default=0.0),
        "first_gap_ms": gaps[0] if gaps else None,
        "ticks": len(ticks),
        "collections": [(e - b) / 1e6 for b, e, _ in gc_log.spans],
        "long_gaps": long_gaps[:LONG_GAPS_KEPT],
        "constructor_steps": _parts_text(parts, launch, marks["built"]),
        "long_gap_count": len(long_gaps),
        "error": outcome.get("error"),
    }
    window.close()
    result_file.write_text(json.dumps(figures), encoding="utf-8")
    return 0


def run_cold_starts(games: list[str], platform: str, interval_ms: int, timeout: float,
                    sample_stacks: bool, settle_memory_as: str = "app") -> list[dict]:
    """Each game cold then warm, each start a fresh ``--cold-start-child`` process (see
    :func:`cold_start_child`): cold with a new empty ``NUMBA_CACHE_DIR``, warm with the same
    cache again (the cold run's preparation filled and stamped it); fresh settings and session
    folders for every start. A child that crashes or overruns ``timeout`` gives a row saying so."""
    import shutil
    import signal
    import subprocess

    results = []
    for game in games:
        cache = tempfile.mkdtemp(prefix=f"kibitz-bench-numba-{game}-")
        try:
            for mode in ("cold", "warm"):
                print(f"{game} {mode} start…", file=sys.stderr, flush=True)
                with tempfile.TemporaryDirectory(prefix="kibitz-bench-start-") as scratch:
                    folder = Path(scratch)
                    for name in ("settings", "session"):
                        (folder / name).mkdir()
                    environment = {**os.environ, "NUMBA_CACHE_DIR": cache, "QT_QPA_PLATFORM": platform,
                                   "KIBITZ_SETTINGS_DIR": str(folder / "settings"),
                                   "KIBITZ_SESSION_DIR": str(folder / "session")}
                    environment.pop(IN_PROCESS_ENV, None)
                    result_file = folder / "result.json"
                    command = [sys.executable, str(Path(__file__).resolve()), "--cold-start-child", game,
                               "--platform", platform, "--interval-ms", str(interval_ms),
                               "--result-file", str(result_file),
                               "--timeout", str(timeout)]
                    if sample_stacks:
                        command.append("--sample-stacks")
                    if settle_memory_as != "app":
                        command += ["--settle-memory", settle_memory_as]
                    command += ["--spawned-at", str(time.monotonic_ns())]
                    began = time.monotonic()
                    child = subprocess.Popen(command, env=environment, stdout=subprocess.PIPE,
                                             stderr=subprocess.PIPE, text=True, start_new_session=True,
                                             cwd=str(Path(__file__).resolve().parents[1]))
                    try:
                        out, err = child.communicate(timeout=timeout)
                        problem = None
                    except subprocess.TimeoutExpired:
                        os.killpg(child.pid, signal.SIGKILL)  # the child and its preparation helper
                        out, err = child.communicate()
                        problem = f"timed out after {timeout:g} s (killed)"
                    row = {"game": game, "mode": mode, "wall_s": time.monotonic() - began}
                    if problem is None and child.returncode != 0:
                        tail = " / ".join([line.strip() for line in err.splitlines() if line.strip()][-3:])
                        code = child.returncode
                        how = f"signal {signal.Signals(-code).name}" if code < 0 else f"exit code {code}"
                        problem = f"the child crashed ({how}): {tail or 'no output'}"
                    if problem is None and not result_file.exists():
                        problem = "the child wrote no result"
                    if problem is None:
                        row.update(json.loads(result_file.read_text(encoding="utf-8")))
                    else:
                        row["error"] = problem
                        print(f"  {problem}", file=sys.stderr)
                    results.append(row)
        finally:
            shutil.rmtree(cache, ignore_errors=True)
    return results


def print_cold_start_table(results: list[dict], platform: str, interval_ms: int, sample_stacks: bool,
                           settle_memory_as: str = "app") -> None:
    load = os.getloadavg() if hasattr(os, "getloadavg") else None
    print(
        f"Cold start: a fresh process per start, MainWindow(game) shown at once (default layout), {platform}, "
        f"{interval_ms} ms timer; cold = empty NUMBA_CACHE_DIR, warm = the same cache after the cold run; "
        f"{os.cpu_count()} cores" + (f", load average {load[0]:.2f}" if load else "")
        + (" (stack sampler on)" if sample_stacks else "")
        + {"app": "", "freeze": "; settle_memory replaced by a bare gc.freeze()",
           "none": "; no settle_memory"}[settle_memory_as]
    )
    print()

    def ms(value) -> str:
        return "–" if value is None else f"{value:,.0f} ms"

    def gap(value) -> str:
        return "–" if value is None else f"{value:.1f} ms"

    print("| game | start | preparation | process start → shown | launch → shown | launch → advice "
          "| ready → advice | worst gap | p99 gap | gaps > 50 ms | worst gap preparing / after ready "
          "| target (gap; advice) | verdict |")
    print("|---|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|---|---|")
    for row in results:
        mode = row["mode"]
        if row.get("error") and "gaps" not in row:
            error = row["error"].replace("|", "\\|")
            print(f"| {row['game']} | {mode} | – | – | – | – | – | – | – | – | – | – | **{error}** |")
            continue
        gap_target = COLD_GAP_TARGET_MS[mode]
        target = f"≤ {gap_target:g} ms" + (f"; ≤ {WARM_ADVICE_TARGET_MS:g} ms" if mode == "warm" else "")
        failures = []
        if row["worst_gap_ms"] > gap_target:
            failures.append("gap")
        advice = row["launch_to_advice_ms"]
        if mode == "warm" and (advice is None or advice > WARM_ADVICE_TARGET_MS):
            failures.append("advice")
        if row.get("error"):
            failures.append(row["error"])
        if mode == "cold" and row.get("stamped"):
            failures.append("was not cold (stamped)")
        if mode == "warm" and not row.get("stamped"):
            failures.append("was not warm (no stamp)")
        verdict = "PASS" if not failures else "FAIL (" + ", ".join(failures) + ")"
        preparation = f"{row['preparation_s']:.1f} s" if row.get("preparation_s") is not None else "–"
        print(f"| {row['game']} | {mode} | {preparation} | {ms(row['spawn_to_shown_ms'])} "
              f"| {ms(row['launch_to_shown_ms'])} | {ms(advice)} | {ms(row['ready_to_advice_ms'])} "
              f"| {gap(row['worst_gap_ms'])} | {gap(row['p99_gap_ms'])} | {row['gaps_over_target']} "
              f"| {gap(row['worst_gap_preparing_ms'])} / {gap(row['worst_gap_after_ready_ms'])} "
              f"| {target} | {verdict} |")
    print()
    print("*launch* = the QApplication created (after the imports); *process start* = the child spawned. "
          "*shown* = MainWindow(game) built and show() returned (the constructor blocks: no tick runs in it, "
          "and no window is on screen yet). *advice* = the first paint of the advisor panel after it holds "
          "≥ 1 candidate for a position with a move: for splt and hatetris the game's start; for 2048, 1010 "
          "and destructo, whose start is a chance step with no advice, the position after its chance steps "
          f"(seeded rng {CHANCE_SEED}) opened with window.load_position at the first tick once the window is "
          "no longer preparing. *ready → advice* = from that load_position call (splt, hatetris: from the "
          "window no longer preparing, or shown if later) to that paint. *preparation* = "
          "window.preparation.seconds (the helper process; none when stamped). Gaps: between ticks of the "
          "probe timer from the window shown to the advice painted (the first gap is the first turn of the "
          "event loop); *preparing* = until the window stopped preparing.")
    built = [row for row in results if row.get("constructor_steps")]
    if built:
        print()
        print("The constructor, MainWindow(game) (launch → shown less show()), by window step:")
        for row in built:
            print(f"- {row['game']} {row['mode']}: {row['launch_to_built_ms']:.0f} ms: {row['constructor_steps']}")
    listed = [(row, g) for row in results for g in row.get("long_gaps", [])]
    if listed:
        print()
        print("Gaps over 50 ms (the longest of each start):")
        for row in results:
            for g in row.get("long_gaps", [])[:4]:
                print(f"- {row['game']} {row['mode']}: {g['gap_ms']:.0f} ms at {g['at_s']:.2f} s ({g['phase']}), "
                      f"GUI thread busy {g['busy_ms']:.0f} ms" + (f": {g['what']}" if g["what"] else ""))
                if g.get("steps"):
                    print(f"  - window steps: {g['steps']}")
                if g.get("stacks"):
                    print(f"  - stacks: {g['stacks']}")
                if g.get("main_stack"):
                    print(f"  - deepest: {' → '.join(g['main_stack'])}")
            more = row.get("long_gap_count", 0) - min(4, len(row.get("long_gaps", [])))
            if more > 0:
                print(f"- {row['game']} {row['mode']}: {more} more")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=30.0, help="how long the search runs (default 30)")
    parser.add_argument("--platform", default="offscreen", help="Qt platform: offscreen (default) or xcb")
    parser.add_argument("--interval-ms", type=int, default=5, help="the probe timer's interval (default 5)")
    parser.add_argument("--baseline-seconds", type=float, default=10.0,
                        help="ticking with no search first, for comparison (default 10)")
    parser.add_argument("--show-gaps-over", type=float, metavar="MS",
                        help="list every gap longer than this on stderr (bare board) or in the table (window)")
    parser.add_argument("--record", type=Path, default=RECORD,
                        help="the record the window opens (default ../shared/data/splt/1196seq.txt)")
    parser.add_argument("--every", type=int, default=25,
                        help="first ranking: measure at every N-th move of the record and at its end (default 25)")
    parser.add_argument("--no-keys", action="store_true", help="first ranking: call undo()/redo() instead of "
                        "sending the Left/Right keys")
    parser.add_argument("--from-move", type=int, default=1100,
                        help="whole-window stall: the move shown and searched from (default 1100)")
    parser.add_argument("--action-ms", type=int, default=300,
                        help="whole-window stall: play a move and go back this often (default 300)")
    parser.add_argument("--no-ranking", action="store_true", help="skip the first-ranking measurement")
    parser.add_argument("--no-stall", action="store_true", help="skip the stall measurement")
    parser.add_argument("--bare-board", action="store_true",
                        help="stall measurement with a bare SpltBoard and the search from the empty board "
                        "(the earlier form) instead of the whole window")
    parser.add_argument("--workers", type=int, help="bare board only: search worker processes (default: one "
                        "per core but one; the window always uses its default)")
    parser.add_argument("--board-move", type=int, default=100,
                        help="bare board only: the board shows the 1836 game in docs/ after this many moves")
    parser.add_argument("--cold-start", action="store_true",
                        help="instead: each game's start, cold and warm, each in a fresh process, to its first advice")
    parser.add_argument("--games", nargs="+", choices=COLD_START_GAMES, default=list(COLD_START_GAMES),
                        metavar="GAME", help="cold start: the games (default: all five)")
    parser.add_argument("--timeout", type=float, default=COLD_START_TIMEOUT,
                        help=f"cold start: seconds a start may take before it is killed (default {COLD_START_TIMEOUT:g})")
    parser.add_argument("--sample-stacks", action="store_true",
                        help="cold start: sample the Python stacks every 2 ms to say what runs in a long gap")
    parser.add_argument("--settle-memory", choices=SETTLE_MEMORY, default="app",
                        help="cold start: queue app.gui.application.settle_memory once shown as the app does "
                        "(app, default), a bare gc.freeze() instead (freeze), or nothing (none)")
    parser.add_argument("--json", type=Path, metavar="PATH", help="cold start: also write the figures here")
    parser.add_argument("--cold-start-child", metavar="GAME", help=argparse.SUPPRESS)
    parser.add_argument("--result-file", type=Path, help=argparse.SUPPRESS)
    parser.add_argument("--spawned-at", type=int, default=0, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    os.environ["QT_QPA_PLATFORM"] = args.platform
    if args.cold_start_child:
        return cold_start_child(args.cold_start_child, args.interval_ms, args.result_file,
                                args.spawned_at or time.monotonic_ns(), max(10.0, args.timeout - 15.0),
                                args.sample_stacks, args.settle_memory)
    if args.cold_start:
        if os.environ.get(IN_PROCESS_ENV):
            print(f"({IN_PROCESS_ENV} is set here; the starts run without it)", file=sys.stderr)
        results = run_cold_starts(args.games, args.platform, args.interval_ms, args.timeout, args.sample_stacks,
                                  args.settle_memory)
        print_cold_start_table(results, args.platform, args.interval_ms, args.sample_stacks, args.settle_memory)
        if args.json is not None:
            args.json.write_text(json.dumps(results, indent=1), encoding="utf-8")
        return 0 if all(not row.get("error") for row in results) else 1
    record = args.record if args.record.is_absolute() else Path.cwd() / args.record
    application = make_application()
    window = None
    ranking = stall = None
    if not args.no_ranking or (not args.no_stall and not args.bare_board):
        window = open_window(record, application)
    if not args.no_ranking:
        main_moves = len(window.tree.main_line()) - 1
        ranking = measure_first_ranking(window, ranking_positions(main_moves, args.every), application,
                                        use_keys=not args.no_keys)
        print_ranking_table(ranking, record, args.platform)
        print()
    if not args.no_stall:
        if args.bare_board:
            if window is not None:
                window.hide()
            stall = measure(args.seconds, args.workers, args.interval_ms, args.baseline_seconds, args.board_move,
                            args.show_gaps_over)
            print_table(stall, args.platform, args.interval_ms)
        else:
            stall = measure_window(window, application, args.seconds, args.interval_ms, args.baseline_seconds,
                                   args.from_move, args.action_ms, args.show_gaps_over)
            print_window_table(stall, args.platform, args.interval_ms, record)
        print()
    print_targets(ranking, stall, args.bare_board)
    if window is not None:
        window.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
