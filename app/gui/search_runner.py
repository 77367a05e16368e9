"""Run a game's long search (SPL-T's ParanoidPlay, ...) behind the window without blocking it.

The job protocol
----------------
A *search job* is any object with

- ``folder``: the :class:`~pathlib.Path` where it keeps its checkpoints, so a stopped search can
  be continued from there;
- ``run(progress, should_stop) -> SearchOutcome``: search until the job's own budget (time,
  games) is spent, nothing is left to explore, or ``should_stop()`` turns true; save a checkpoint
  and return. While it works it calls ``progress(SearchProgress(...))`` now and then (a few times
  a second at most is plenty) and *at every new best*, with ``new_best`` set to the full line of
  that best: start position and every move, the fixed prefix included. ``run`` raises a precise
  exception (``KibitzInputError``, ``OSError``, ...) when it cannot search.

``run`` is called once, in a worker thread; it may start processes of its own. A game offers its
jobs through ``GameUi.search_jobs`` (``start(folder, line, from_move, ...)``, ``resume(folder,
...)``; see ``app/gui/games/splt/search_jobs.py``). A plug may also list ``options``: the
:class:`SearchOption` settings of a new search (HATETRIS: the beam's width, lookahead and
evaluation), which the Search section offers as drop-downs and passes to ``start`` by their keys.

The runner
----------
:class:`SearchRunner` runs one job at a time in a worker thread and reports through queued
signals, so every slot runs in the GUI thread:

- ``progress(SearchProgress)``: at most :data:`PROGRESS_INTERVAL` apart (4 a second), the latest
  report wins; the last one before the end is always delivered; ``new_best`` is None here;
- ``new_best(SearchProgress)``: every new best, never dropped or merged; ``report.new_best`` is
  the line, ``report.best_value`` and ``report.best_text`` say what it achieved;
- ``finished(SearchOutcome)``: the job returned (budget spent, stopped, or exhausted);
- ``failed(str)``: the job raised; the text says what and where (e.g. the folder).

The GUI thread never waits for the job: :meth:`SearchRunner.stop` only asks it to stop. The
runner waits (with a time limit) only when it is destroyed or the application quits while a job
runs, so the job can save its checkpoint first.
"""

from __future__ import annotations

import dataclasses
import functools
import logging
import threading
import time
from pathlib import Path
from typing import Callable, Protocol

from PySide6.QtCore import QCoreApplication, QObject, Qt, QTimer, Signal, Slot

from engines.contract import Line

PROGRESS_INTERVAL = 0.25  # seconds between two progress signals at most 4 a second
SHUTDOWN_SECONDS = 20.0  # how long destruction or quitting waits for a job to checkpoint and end

_log = logging.getLogger(__name__)


@dataclasses.dataclass(frozen=True)
class SearchOption:
    """A setting of a game's new searches: ``start`` takes it as the keyword ``key``; the window
    offers ``choices`` ((text shown, value) pairs; each text names the setting too, "width
    10,000", as no label stands beside it), ``default`` (an index) at first, ``label`` and
    ``tooltip`` in its tooltip. A continued search keeps the settings it was started with."""

    key: str
    label: str
    choices: tuple[tuple[str, object], ...]
    default: int = 0
    tooltip: str = ""

    def __post_init__(self) -> None:
        if not self.choices or not 0 <= self.default < len(self.choices):
            raise ValueError(f"search option {self.key!r}: the default must be one of its {len(self.choices)} choices")

    def index_of(self, saved: object) -> int:
        """The choice a saved value (its text form, as settings files keep it) names; the default
        when it names none (a damaged or older settings file)."""
        return next((index for index, (_text, value) in enumerate(self.choices) if str(value) == str(saved)),
                    self.default)


@dataclasses.dataclass(frozen=True)
class SearchProgress:
    """Where a running search stands."""

    games: int  # its count since it began, continued runs included (games finished; HATETRIS: depth)
    rate: float  # games per second over this run
    elapsed: float  # seconds of this run
    best_value: int  # the best's value on the game's scale (SPL-T: splits)
    best_text: str  # the best in words, e.g. "1,234 splits · score 1,030,000"
    fraction: float | None = None  # share of this run's time or game budget spent (0..1); None: no budget
    new_best: Line | None = None  # the full line of a best found since the last report


@dataclasses.dataclass(frozen=True)
class SearchOutcome:
    """How a search run ended."""

    games: int  # its count since it began, continued runs included (games finished; HATETRIS: depth)
    best_line: Line | None  # the best game found (full line), None when none was finished
    best_value: int
    stopped: bool  # stopped because the user asked (not by its budget or exhaustion)
    reason: str  # why it ended, in words ("stopped after 1,234 games", "30 s budget spent", ...)
    best_text: str = ""
    folder: Path | None = None  # where it can be continued from


class SearchJob(Protocol):
    """A long search the runner can run (see the module's docstring)."""

    folder: Path

    def run(
        self, progress: Callable[[SearchProgress], None], should_stop: Callable[[], bool]
    ) -> SearchOutcome: ...


class StopLatch:
    """A job's ``should_stop`` that stays true once it was, so the job can say afterwards whether
    the user asked it to stop (``asked``) rather than its budget running out."""

    def __init__(self, should_stop: Callable[[], bool]) -> None:
        self._should_stop = should_stop
        self.asked = False

    def __call__(self) -> bool:
        self.asked = self.asked or self._should_stop()
        return self.asked


def error_text(error: BaseException) -> str:
    """What went wrong, for a person: the input errors' own precise text, the file an OSError
    is about, otherwise the exception's type and message."""
    if isinstance(error, OSError):
        reason = error.strerror or str(error)
        return f"{error.filename}: {reason}" if error.filename else reason
    if isinstance(error, (ValueError, RuntimeError)) and str(error):
        return str(error)
    return f"{type(error).__name__}: {error}"


class _Bridge(QObject):
    """Carries a job's reports out of the worker thread. It belongs to one run, not to the
    runner, so a worker still ending after the runner is gone emits into a live object (whose
    connections Qt has already dropped)."""

    reported = Signal()  # a report waits in _Run.pending (at most one of these is queued)
    best = Signal(object)  # SearchProgress with new_best
    ended = Signal(object)  # SearchOutcome
    crashed = Signal(str)


class _Run:
    """One job in its worker thread. Nothing here touches Qt except emitting the bridge's signals."""

    def __init__(self, job: SearchJob, bridge: _Bridge):
        self.job = job
        self.bridge = bridge
        self.stop = threading.Event()
        self.lock = threading.Lock()
        self.pending: SearchProgress | None = None
        self.signalled = False  # a `reported` signal is queued and pending has not been taken yet
        self.thread = threading.Thread(target=self._main, name="kibitz-search-runner", daemon=True)

    def take_pending(self) -> SearchProgress | None:
        with self.lock:
            report, self.pending, self.signalled = self.pending, None, False
        return report

    def _report(self, report: SearchProgress) -> None:
        """The job's progress callback (worker thread): bests go out at once, ordinary reports
        are merged so the GUI thread never has more than one waiting."""
        if report.new_best is not None:
            self._emit(self.bridge.best, report)
            report = dataclasses.replace(report, new_best=None)
        with self.lock:
            self.pending = report
            notify = not self.signalled
            self.signalled = True
        if notify:
            self._emit(self.bridge.reported)

    def _main(self) -> None:
        try:
            outcome = self.job.run(self._report, self.stop.is_set)
        except BaseException as error:  # noqa: BLE001 -- every failure must reach the GUI as text
            if not isinstance(error, (OSError, ValueError, RuntimeError)):
                _log.exception("search job %r failed", self.job)
            self._emit(self.bridge.crashed, error_text(error))
        else:
            self._emit(self.bridge.ended, outcome)

    @staticmethod
    def _emit(signal, *arguments) -> None:
        try:
            signal.emit(*arguments)
        except RuntimeError:  # the bridge's C++ side is gone (the application is being torn down)
            pass


def _shut_down(runs: list[_Run], timeout: float = SHUTDOWN_SECONDS) -> None:
    """Ask every run to stop and wait for their threads, each for at most ``timeout`` seconds."""
    for run in runs:
        run.stop.set()
    deadline = time.monotonic() + timeout
    for run in runs:
        run.thread.join(max(0.0, deadline - time.monotonic()))
        if run.thread.is_alive():
            _log.warning("search job %r did not stop within %.0f s", run.job, timeout)


class SearchRunner(QObject):
    """Runs one :class:`SearchJob` at a time in a worker thread; see the module docstring."""

    progress = Signal(object)  # SearchProgress, throttled, new_best None
    new_best = Signal(object)  # SearchProgress whose new_best is the line; every one
    finished = Signal(object)  # SearchOutcome
    failed = Signal(str)

    def __init__(self, parent: QObject | None = None, interval: float = PROGRESS_INTERVAL):
        super().__init__(parent)
        self._interval = interval
        self._run: _Run | None = None
        self._live: list[_Run] = []  # runs whose thread may still work (plain list: see below)
        self._held: SearchProgress | None = None  # a report waiting for the throttle
        self._last_progress = float("-inf")
        self._flush = QTimer(self)
        self._flush.setSingleShot(True)
        self._flush.timeout.connect(self._emit_held)
        # Neither callback holds the runner: they must work while (or after) it is destroyed.
        self.destroyed.connect(functools.partial(_shut_down, self._live))
        application = QCoreApplication.instance()
        if application is not None:
            application.aboutToQuit.connect(functools.partial(_shut_down, self._live))

    # -- what the window uses --------------------------------------------------------------------
    def start(self, job: SearchJob) -> None:
        """Run ``job`` in a worker thread. One job at a time: starting while one runs is an error."""
        if self._run is not None:
            raise RuntimeError("a search is already running; stop it first")
        bridge = _Bridge()
        run = _Run(job, bridge)
        queued = Qt.ConnectionType.QueuedConnection
        bridge.reported.connect(self._take_report, queued)
        bridge.best.connect(self._deliver_best, queued)
        bridge.ended.connect(self._ended, queued)
        bridge.crashed.connect(self._crashed, queued)
        self._live[:] = [r for r in self._live if r.thread.is_alive()] + [run]
        self._run = run
        self._held = None
        self._last_progress = float("-inf")
        run.thread.start()

    def stop(self) -> None:
        """Ask the running job to save its checkpoint and stop; ``finished`` follows (with
        ``stopped`` set). Returns at once."""
        if self._run is not None:
            self._run.stop.set()

    def is_running(self) -> bool:
        """True from :meth:`start` until ``finished`` or ``failed`` has been emitted."""
        return self._run is not None

    def job(self) -> SearchJob | None:
        """The running job, if any."""
        return self._run.job if self._run is not None else None

    def wait(self, timeout: float = SHUTDOWN_SECONDS) -> bool:
        """Stop the running job and block until its thread ends (for quitting and tests; the
        window uses :meth:`stop`). True when it ended in time. Its signals still arrive through
        the event loop."""
        if self._run is None:
            return True
        _shut_down([self._run], timeout)
        return not self._run.thread.is_alive()

    # -- slots (GUI thread) ----------------------------------------------------------------------
    @Slot()
    def _take_report(self) -> None:
        if self._run is None:
            return
        report = self._run.take_pending()
        if report is None:
            return
        wait = self._last_progress + self._interval - time.monotonic()
        if wait <= 0:
            self._held = None
            self._flush.stop()
            self._send_progress(report)
        else:
            self._held = report
            if not self._flush.isActive():
                self._flush.start(max(1, int(wait * 1000 + 0.5)))

    @Slot()
    def _emit_held(self) -> None:
        if self._held is not None:
            report, self._held = self._held, None
            self._send_progress(report)

    def _send_progress(self, report: SearchProgress) -> None:
        self._last_progress = time.monotonic()
        self.progress.emit(report)

    @Slot(object)
    def _deliver_best(self, report: SearchProgress) -> None:
        if self._run is None:
            return
        self.new_best.emit(report)

    @Slot(object)
    def _ended(self, outcome: SearchOutcome) -> None:
        if self._run is None:
            return
        self._flush_last_report()
        self._release()
        self.finished.emit(outcome)

    @Slot(str)
    def _crashed(self, message: str) -> None:
        if self._run is None:
            return
        self._flush_last_report()
        self._release()
        self.failed.emit(message)

    def _flush_last_report(self) -> None:
        self._flush.stop()
        last = self._run.take_pending() or self._held
        self._held = None
        if last is not None:
            self._send_progress(last)

    def _release(self) -> None:
        run, self._run = self._run, None
        run.bridge.deleteLater()  # its run has emitted its last signal

