"""Reviewing a line in the window: Moves ▸ Review this line, the Review panel, the marks it leaves.

:class:`ReviewController` runs the game's reviewer (``advisors.<game>.review``) over the line
through the current move in a process of its own (a thread would share the GIL with the window,
and a paint calling back into Python waited for it: stalls of 40-60 ms were measured), with a
progress bar and Cancel; each row is put on
its move's node (``Node.review``), so the move list and the score graph mark it, the session saves
it and reopening shows it at once. Rows computed with other settings than the panel's current ones
are stale: shown muted and reviewed again by the next review. Moves already reviewed with the
current settings are not reviewed again.

:class:`ReviewPanel` shows the line's rows (click one to go there), the summary (accuracy, counts
by class, the three costliest moves) with the game's thresholds, the reviewer's options, and the
exports (CSV, JSON; the JSON is read back by Import review).

Training (Moves ▸ Training): the advisor's candidates stay hidden at a position until the player
has chosen a move there; the move chosen is reviewed at once and its class said.
"""

from __future__ import annotations

import dataclasses
import multiprocessing
import multiprocessing.connection  # noqa: F401 - loaded with the window, not at the first review
import multiprocessing.synchronize  # noqa: F401
import threading
import time
from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QAbstractTableModel, QModelIndex, QObject, QSettings, Qt, QTimer, Signal
from PySide6.QtGui import QBrush, QFontMetrics, QPalette
from PySide6.QtWidgets import (
    QAbstractItemView,
    QCheckBox,
    QFileDialog,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QProgressBar,
    QPushButton,
    QSpinBox,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from advisors import review as reviews
from app.gui.review_style import class_color, is_stale
from app.gui.tree_view import mix
from engines import GAMES
from engines.contract import Game, Line
from engines.errors import KibitzInputError
from engines.files import write_text_atomic
from engines.limits import read_text_file
from engines.tree import Change, MoveTree, Node

OPTIONS_KEY = "review/{game}/{field}"
#: Progress reaches the window at most this often (the worker may finish a move every millisecond).
PROGRESS_MILLISECONDS = 100
#: While a review sends its rows, the panel shows them at most this often.
REFRESH_WHILE_REVIEWING_MILLISECONDS = 500
#: A review asked to stop that has not stopped by then (one move can take seconds with a wide
#: beam) is ended by ending its process; the rows it sent are kept.
CANCEL_MILLISECONDS = 1000
#: How long closing the window waits for the rows a review under way has made.
CLOSING_MILLISECONDS = 1500


class _Signals(QObject):
    judged = Signal(object, object)  # node, row or exception (training)


@dataclasses.dataclass
class _Job:
    tree: MoveTree
    name: str  # the analysis reviewed
    nodes: list[Node]  # the line's nodes, root first: nodes[n] is move n
    started: float
    kept: int = 0  # rows put on nodes still in the tree
    dropped: int = 0  # rows of moves deleted meanwhile
    total: int = 0


class _Worker:
    """The review process, started once (spawning it from the window's large process took 70-130
    ms) and kept: each review is a job sent to it, answered through a pipe."""

    def __init__(self) -> None:
        context = multiprocessing.get_context("spawn")  # a fresh interpreter: no Qt, no threads copied
        self.jobs, jobs_end = context.Pipe()
        self.answers, answers_end = context.Pipe(duplex=False)
        self.stop = context.Event()
        self.process = context.Process(target=reviews.review_worker, name="kibitz-review", daemon=True,
                                       args=(jobs_end, answers_end, self.stop))
        self.process.start()
        jobs_end.close()
        answers_end.close()

    def alive(self) -> bool:
        return self.process.is_alive()

    def close(self) -> None:
        self.stop.set()  # a review under way ends at its next move
        try:
            self.jobs.send(None)
        except OSError:
            pass
        self.jobs.close()
        self.answers.close()


class ReviewController(QObject):
    """Runs reviews for the window and keeps the Review panel up to date (see the module docstring)."""

    panel_wanted = Signal()  # a review starts, or there is nothing left to review: show the panel
    finished = Signal(str)  # what to tell the player

    def __init__(self, window: Any, settings: QSettings) -> None:
        super().__init__(window)
        self.window = window
        self.settings = settings
        self.panel = ReviewPanel(self)
        self._signals = _Signals(self)
        self._signals.judged.connect(self._judged)
        self._job: _Job | None = None
        self._worker: _Worker | None = None
        self._poll_timer = QTimer(self)
        self._poll_timer.setInterval(PROGRESS_MILLISECONDS)
        self._poll_timer.timeout.connect(self._poll)
        self._cancel_timer = QTimer(self)
        self._cancel_timer.setSingleShot(True)
        self._cancel_timer.setInterval(CANCEL_MILLISECONDS)
        self._cancel_timer.timeout.connect(self._end_stuck_review)
        self.destroyed.connect(self._poll_timer.stop)
        window.destroyed.connect(self.close)
        self.training = False
        self._refresh_timer = QTimer(self)
        self._refresh_timer.setSingleShot(True)
        self._refresh_timer.timeout.connect(self.panel.refresh)

    # -- what is reviewed and how -----------------------------------------------------------------
    @property
    def game(self) -> Game:
        return self.window.game

    def can_review(self, game: Game | None = None) -> bool:
        return reviews.reviewer_module((game or self.game).short_name) is not None

    def options(self, game: Game | None = None) -> dict[str, Any]:
        """The reviewer's options for ``game`` as the panel has them (kept in the settings)."""
        game = game or self.game
        module = reviews.reviewer_module(game.short_name)
        if module is None:
            return {}
        defaults = reviews.option_defaults(game.short_name)
        values = {}
        for name, control in module.OPTIONS.items():
            stored = self.settings.value(OPTIONS_KEY.format(game=game.short_name, field=name))
            default = defaults[name]
            if isinstance(default, bool):
                values[name] = str(stored).lower() == "true" if stored is not None else default
            else:
                try:
                    value = int(stored) if stored is not None else default
                except (TypeError, ValueError):
                    value = default
                values[name] = min(max(value, control[2]), control[3])
        return values

    def set_option(self, name: str, value: Any) -> None:
        self.settings.setValue(OPTIONS_KEY.format(game=self.game.short_name, field=name), value)
        self.panel.refresh()

    def reviewer(self, game: Game | None = None):
        game = game or self.game
        return reviews.reviewer_for(game.short_name, **self.options(game))

    def current_settings(self) -> str | None:
        return self.reviewer().settings if self.can_review() else None

    def thresholds(self) -> reviews.Thresholds | None:
        module = reviews.reviewer_module(self.game.short_name)
        return None if module is None else module.THRESHOLDS

    def line_nodes(self) -> list[Node]:
        """The nodes of the line through the current move (root first), as Review this line takes it."""
        return self.window.tree.line_nodes()

    def rows(self) -> list[tuple[Node, reviews.MoveReview]]:
        """(node, review) of every reviewed move of the line shown."""
        return [(node, node.review) for node in self.line_nodes()[1:] if node.review is not None]

    # -- running -------------------------------------------------------------------------------
    def is_running(self) -> bool:
        return self._job is not None

    def start(self) -> None:
        """Review the line through the current move (Moves ▸ Review this line)."""
        if self._job is not None:
            self.finished.emit(f"A review of {self._job.name} is under way ({self.panel.progress.format()}): "
                               "Cancel it first")
            return
        if not self.can_review():
            self.finished.emit(f"Kibitz cannot review {self.game.title} games yet.")
            return
        tree = self.window.tree
        nodes = tree.line_nodes()
        if len(nodes) < 2:
            self.finished.emit("Nothing to review: this line has no moves yet")
            return
        line = Line(tree.root.state, tuple(node.move for node in nodes[1:]))
        reviewer = self.reviewer()
        done = [node.move_number for node in nodes[1:]
                if node.review is not None and node.review.settings == reviewer.settings]
        game = self.game
        decisions = sum(1 for node in nodes[1:] if not game.is_chance_node(node.parent.state))
        if len(done) >= decisions:
            self.finished.emit(f"Every move of this line is reviewed already ({len(done)}, with {reviewer.settings})")
            self.panel_wanted.emit()
            return
        worker = self.worker()
        worker.stop.clear()
        worker.jobs.send((game.short_name, game.board_text(line.start), [game.move_text(move) for move in line.moves],
                          self.options(game), done))
        self._job = _Job(tree, self.window.analysis.name, nodes, time.perf_counter())
        self.panel.show_running(0, 0)
        self.panel_wanted.emit()
        self._poll_timer.start()

    def worker(self) -> _Worker:
        """The review process (started now if it is not running)."""
        if self._worker is None or not self._worker.alive():
            if self._worker is not None:
                self._worker.close()
            self._worker = _Worker()
        return self._worker

    def prepare(self) -> None:
        """Start the review process ahead of the first review (it loads the advisors' code)."""
        if self.can_review():
            self.worker()

    def close(self) -> None:
        if self._worker is not None:
            self._worker.close()
            self._worker = None

    def cancel(self) -> None:
        if self._job is not None and self._worker is not None:
            self._worker.stop.set()
            self._cancel_timer.start()

    def _end_stuck_review(self) -> None:
        """A review that has not stopped within CANCEL_MILLISECONDS: its process is ended (its
        rows so far are on their nodes already) and the next review starts another."""
        if self._job is None or self._worker is None:
            return
        self._poll()  # what it sent meanwhile
        if self._job is None:
            return
        self._worker.process.terminate()
        self._worker = None
        self._finished(True, "")

    def _poll(self) -> bool:
        """Put the rows the review process sent on their nodes and show its progress, without
        waiting; True once the review has ended."""
        job = self._job
        if job is None or self._worker is None:
            self._poll_timer.stop()
            return True
        answers = self._worker.answers
        try:
            while answers.poll():
                message = answers.recv()
                if message[0] == "rows":
                    self._keep(job, message[1])
                    if message[2] >= 0:
                        self.panel.show_running(message[2], message[3])
                        job.total = message[3]
                elif message[0] == "done":
                    self._finished(message[1], message[2])
                    return True
        except (EOFError, OSError):
            process = self._worker.process
            process.join(1.0)
            self._worker = None
            self._finished(False, f"the review process ended unexpectedly (exit code {process.exitcode})")
            return True
        return False

    def _keep(self, job: _Job, rows: list[reviews.MoveReview]) -> None:
        """Rows onto their nodes; a node deleted from the tree meanwhile loses its row."""
        # the line's nodes still in the tree: those before the first one deleted (or all of them
        # gone when the tree was reset); one walk down the line, not one walk up per row
        alive_up_to = len(job.nodes) if job.nodes[0] is job.tree.root else 0
        for place in range(1, alive_up_to):
            node = job.nodes[place]
            if not any(child is node for child in node.parent.children):
                alive_up_to = place
                break
        alive = []
        for row in rows:
            if row.number < alive_up_to:
                alive.append((job.nodes[row.number], row))
            else:
                job.dropped += 1
        job.kept += len(alive)
        if alive:
            job.tree.set_reviews(alive, alive[-1][0])
            if job.tree is not self.window.tree:  # (the window saves the tree it shows when it changes)
                self.window.schedule_save()

    def _finished(self, stopped: bool, error: str) -> None:
        job = self._job
        if job is None:
            return
        self._job = None
        self._poll_timer.stop()
        self._cancel_timer.stop()
        seconds = time.perf_counter() - job.started
        self.panel.show_idle()
        where = "" if job.tree is self.window.tree else f" in {job.name}"
        counted = f"{job.kept} move{'s' if job.kept != 1 else ''} reviewed{where}"
        if job.dropped:
            counted += f" ({job.dropped} more were deleted meanwhile)"
        if error:
            self.finished.emit(f"The review failed after {counted}, kept: {error}")
        elif stopped:
            self.finished.emit(f"Review cancelled: {counted}, kept ({seconds:.1f} s)")
        else:
            self.finished.emit(f"Review done: {counted} in {seconds:.1f} s")
        self._refresh_timer.stop()  # (a refresh the last rows asked for is this one)
        self.panel.refresh()

    def finish_before_closing(self) -> None:
        """The window closes: a review under way stops and the rows it has made are kept (the
        session is saved after this)."""
        if self._job is None or self._worker is None:
            return
        self._worker.stop.set()
        end = time.perf_counter() + CLOSING_MILLISECONDS / 1000.0
        while self._job is not None and time.perf_counter() < end:
            if self._worker.answers.poll(0.05):
                self._poll()
        if self._job is not None:
            self._end_stuck_review()

    # -- training --------------------------------------------------------------------------------
    def set_training(self, on: bool) -> None:
        self.training = on
        self.panel.training_box.setChecked(on)

    def withholds(self, node: Node) -> bool:
        """Training: whether the advisor's choice at ``node`` stays hidden (no move chosen there yet)."""
        return (self.training and not node.children and not self.game.is_over(node.state)
                and not self.game.is_chance_node(node.state))

    def judge_played(self, node: Node) -> None:
        """Training: review the move that made ``node`` (in the worker), then say its class."""
        if not self.can_review() or node.parent is None or self.game.is_chance_node(node.parent.state):
            return
        game, reviewer, tree = self.game, self.reviewer(), self.window.tree

        def work() -> None:
            try:
                result: Any = reviews.review_move(game, reviewer, node.parent.state, node.move, node.move_number)
            except Exception as failure:  # noqa: BLE001
                result = failure
            try:
                self._signals.judged.emit((tree, node), result)
            except RuntimeError:
                pass

        threading.Thread(target=work, name="kibitz-review-move", daemon=True).start()

    def _judged(self, where: tuple[MoveTree, Node], result: Any) -> None:
        tree, node = where
        if isinstance(result, Exception):
            self.finished.emit(f"The review of the move failed: {result}")
            return
        if not tree.contains(node):
            return  # taken back meanwhile
        tree.set_reviews([(node, result)])
        if tree is not self.window.tree:
            return  # the player has gone to another analysis: the verdict would name another game's move
        row: reviews.MoveReview = result
        if row.loss <= 0:
            verdict = "the advisor's choice too"
        else:
            module = reviews.reviewer_module(self.game.short_name)
            verdict = (f"{row.verdict}, loss {row.loss_text(module.THRESHOLDS if module else None)}; "
                       f"the advisor chose {row.best}")
        self.finished.emit(f"You played {row.move}: {verdict}")

    # -- going to moves --------------------------------------------------------------------------
    def go_to_mistake(self, step: int) -> bool:
        """Go to the next (``step`` 1) or previous (-1) flagged move of the line; False if none."""
        nodes = self.line_nodes()
        current = self.window.tree.current.move_number
        flagged = [node for node in nodes[1:] if node.review is not None and node.review.flagged]
        target = (next((node for node in flagged if node.move_number > current), None) if step > 0
                  else next((node for node in reversed(flagged) if node.move_number < current), None))
        if target is None:
            return False
        self.window.tree.go_to(target)
        return True

    def tree_changed(self, change: Change) -> None:
        """Refresh the panel once the event loop is free (a burst of changes refreshes once; while
        a review sends its rows, twice a second: a refresh of 1,200 rows takes tens of ms)."""
        if change is Change.LABEL or not self.panel.isVisible():
            return
        if change is Change.REVIEW and self._job is not None:
            if not self._refresh_timer.isActive():
                self._refresh_timer.start(REFRESH_WHILE_REVIEWING_MILLISECONDS)
        else:
            self._refresh_timer.start(0)

    # -- files -----------------------------------------------------------------------------------
    def export(self, kind: str, path: str | None = None) -> str | None:
        """Write the line's reviewed rows as ``kind`` ("csv" or "json") to ``path`` (asked when
        None); returns the path written, or None."""
        rows = [row for _, row in self.rows()]
        if not rows:
            self.finished.emit("Nothing to export: review the line first (Moves ▸ Review this line).")
            return None
        if path is None:
            path, _ = QFileDialog.getSaveFileName(self.window, f"Export the review as {kind.upper()}",
                                                  f"review.{kind}", f"{kind.upper()} files (*.{kind})")
            if not path:
                return None
        tree = self.window.tree
        nodes = self.line_nodes()
        if kind == "csv":
            text = reviews.to_csv(rows)
        else:
            line = Line(tree.root.state, tuple(node.move for node in nodes[1:]))
            text = reviews.to_json(self.game, line, rows, self.thresholds())
        try:
            write_text_atomic(path, text)
        except OSError as error:
            self.finished.emit(f"Could not write {path}: {error.strerror or error}")
            return None
        self.finished.emit(f"Exported the review of {len(rows)} moves to {path}")
        return path

    def import_file(self, path: str | None = None,
                    add_line: Callable[[reviews.ReviewFile], MoveTree | None] | None = None) -> bool:
        """Read a review JSON file: its line joins the tree (a new analysis when it starts
        elsewhere, or is another game's) and its rows go on the line's nodes."""
        if path is None:
            path, _ = QFileDialog.getOpenFileName(self.window, "Import a review", "", "Review files (*.json)")
            if not path:
                return False
        try:
            loaded = reviews.from_json(GAMES, read_text_file(path), path)
        except KibitzInputError as error:
            self.finished.emit(f"Cannot import the review: {error}")
            return False
        tree = add_line(loaded) if add_line is not None else self.window.tree
        if tree is None:
            self.finished.emit(f"Kibitz is preparing {GAMES[loaded.game].title} first (its kernels compile once, in "
                               "a process of their own): import the review again in a moment")
            return False
        leaf = tree.add_line(loaded.line.moves)
        nodes = tree.path(leaf)
        tree.set_reviews(((nodes[row.number], row) for row in loaded.rows), leaf)
        tree.go_to(leaf)
        self.finished.emit(f"Imported the review of {len(loaded.rows)} moves from {path}")
        self.panel.refresh()
        return True


# -- the panel ------------------------------------------------------------------------------------
COLUMNS = ("Move", "Played", "Best", "Value", "Loss", "Class")


class ReviewRowsModel(QAbstractTableModel):
    """The reviewed moves of the line shown, one row each (a model: 1,200 rows cost nothing)."""

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.rows: list[tuple[Node, reviews.MoveReview]] = []
        self.extras: list[str] = []
        self.settings: str | None = None
        self.current: Node | None = None
        self.dark = False
        self.muted: Any = None
        self.current_color: Any = None
        self.thresholds: reviews.Thresholds | None = None

    def set_rows(self, rows: list[tuple[Node, reviews.MoveReview]], settings: str | None, current: Node | None) -> None:
        self.beginResetModel()
        self.rows = rows
        self.settings = settings
        self.current = current
        self.extras = reviews.extra_names([row for _, row in rows])
        self.endResetModel()

    def rowCount(self, parent: QModelIndex = QModelIndex()) -> int:  # noqa: N802 (Qt name)
        return 0 if parent.isValid() else len(self.rows)

    def columnCount(self, parent: QModelIndex = QModelIndex()) -> int:  # noqa: N802 (Qt name)
        return 0 if parent.isValid() else len(COLUMNS) + len(self.extras)

    def headerData(self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole) -> Any:  # noqa: N802
        if orientation == Qt.Orientation.Horizontal and role == Qt.ItemDataRole.DisplayRole:
            return COLUMNS[section] if section < len(COLUMNS) else self.extras[section - len(COLUMNS)]
        return None

    def text(self, row_number: int, column: int) -> str:
        _, row = self.rows[row_number]
        if column == 0:
            return str(row.number)
        if column == 1:
            return row.move + (f" {row.symbol}" if row.symbol else "")
        if column == 2:
            return row.best
        if column == 3:
            return f"{row.value:,.1f}"
        if column == 4:
            return row.loss_text(self.thresholds) if self.thresholds is not None and self.thresholds.relative and \
                row.loss > 0 else f"{row.loss:,.1f}"
        if column == 5:
            return row.classification + (" (stale)" if is_stale(row, self.settings) else "")
        value = row.extra(self.extras[column - len(COLUMNS)], "")
        return f"{value:,.1f}" if isinstance(value, float) else str(value)

    def data(self, index: QModelIndex, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid():
            return None
        node, row = self.rows[index.row()]
        column = index.column()
        if role == Qt.ItemDataRole.DisplayRole:
            return self.text(index.row(), column)
        if role == Qt.ItemDataRole.TextAlignmentRole and column in (0, 3, 4):
            return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        if role == Qt.ItemDataRole.ForegroundRole:
            if is_stale(row, self.settings):
                return QBrush(self.muted) if self.muted is not None else None
            color = class_color(row.classification, self.dark)
            if color is not None and column in (1, 5):
                return QBrush(color)
        if role == Qt.ItemDataRole.BackgroundRole and node is self.current:
            return QBrush(self.current_color) if self.current_color is not None else None
        if role == Qt.ItemDataRole.ToolTipRole:
            stale = (f"\nstale: reviewed with “{row.settings}”, the panel now says “{self.settings}”"
                     if is_stale(row, self.settings) else "")
            excused = row.extra(reviews.EXCUSED)
            return (f"move {row.number}: {row.move}, best {row.best}\nvalue {row.value:,.2f}, played "
                    f"{row.played_value:,.2f}, loss {row.loss_text(self.thresholds)}: {row.verdict}"
                    + (f"\nnot flagged: {excused}" if excused else "") + stale)
        return None


class ReviewPanel(QWidget):
    """The Review dock's contents (see the module docstring)."""

    def __init__(self, controller: ReviewController) -> None:
        super().__init__()
        self.controller = controller
        self.setObjectName("reviewPanel")
        layout = QVBoxLayout(self)
        layout.setContentsMargins(6, 4, 6, 4)
        top = QHBoxLayout()
        self.review_button = QPushButton("Review this line")
        self.review_button.setToolTip("Review every move of the line through the current move (Ctrl+L)")
        self.review_button.clicked.connect(controller.start)
        self.cancel_button = QPushButton("Cancel")
        self.cancel_button.clicked.connect(controller.cancel)
        self.cancel_button.hide()
        self.progress = QProgressBar()
        self.progress.setTextVisible(True)
        self.progress.hide()
        self.options_row = QHBoxLayout()
        top.addWidget(self.review_button)
        top.addWidget(self.cancel_button)
        top.addWidget(self.progress, 1)
        top.addLayout(self.options_row)
        top.addStretch(0)
        layout.addLayout(top)
        self.summary_label = QLabel()
        self.summary_label.setObjectName("reviewSummary")
        self.summary_label.setWordWrap(True)
        self.summary_label.setTextFormat(Qt.TextFormat.RichText)
        self.summary_label.linkActivated.connect(self._link)
        layout.addWidget(self.summary_label)
        self.table = QTableView()
        self.table.setObjectName("reviewTable")
        self.model = ReviewRowsModel(self)
        self.table.setModel(self.model)
        self.table.verticalHeader().hide()
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.setFocusPolicy(Qt.FocusPolicy.NoFocus)  # the window's arrow keys walk the tree
        # columns fitted by _fit_columns from the texts themselves: Qt's fitting to contents asks
        # data() for every cell (a third of a second for 1,200 rows) or guesses from a few rows
        # (and cut "0,0,4,4 ?" short)
        self.table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
        self.table.horizontalHeader().setStretchLastSection(True)
        self.table.verticalHeader().setDefaultSectionSize(self.fontMetrics().height() + 4)
        self.table.clicked.connect(self._row_clicked)
        layout.addWidget(self.table, 1)
        bottom = QHBoxLayout()
        self.previous_button = QPushButton("◀ Previous mistake")
        self.previous_button.clicked.connect(lambda: controller.go_to_mistake(-1))
        self.next_button = QPushButton("Next mistake ▶")
        self.next_button.clicked.connect(lambda: controller.go_to_mistake(1))
        self.training_box = QCheckBox("Training")
        self.training_box.setToolTip("Hide the advisor's choice until you have chosen your move (Ctrl+T)")
        self.training_box.toggled.connect(lambda on: controller.window.set_training(on))
        self.csv_button = QPushButton("Export CSV…")
        self.csv_button.clicked.connect(lambda: controller.export("csv"))
        self.json_button = QPushButton("Export JSON…")
        self.json_button.clicked.connect(lambda: controller.export("json"))
        for widget in (self.previous_button, self.next_button, self.training_box):
            bottom.addWidget(widget)
        bottom.addStretch(1)
        bottom.addWidget(self.csv_button)
        bottom.addWidget(self.json_button)
        layout.addLayout(bottom)
        self._option_widgets: list[QWidget] = []
        self._options_game: str | None = None

    # -- showing --------------------------------------------------------------------------------
    def show_running(self, done: int, total: int) -> None:
        self.review_button.hide()
        self.cancel_button.show()
        self.progress.show()
        self.progress.setMaximum(max(total, 1) if total else 0)  # 0: busy until the first report
        self.progress.setValue(done)
        self.progress.setFormat(f"move {done} of {total}" if total else "starting…")

    def show_idle(self) -> None:
        self.cancel_button.hide()
        self.progress.hide()
        self.review_button.show()

    def _build_options(self) -> None:
        game = self.controller.game
        if self._options_game == game.short_name:
            return
        self._options_game = game.short_name
        for widget in self._option_widgets:
            self.options_row.removeWidget(widget)
            widget.deleteLater()
        self._option_widgets = []
        module = reviews.reviewer_module(game.short_name)
        if module is None:
            return
        values = self.controller.options(game)
        for name, control in module.OPTIONS.items():
            if isinstance(values[name], bool):
                box = QCheckBox(control[0])
                box.setToolTip(control[1][:1].upper() + control[1][1:])
                box.setChecked(values[name])
                box.toggled.connect(lambda on, name=name: self.controller.set_option(name, on))
                self._option_widgets.append(box)
                continue
            label = QLabel(control[0])
            spin = QSpinBox()
            spin.setObjectName(f"reviewOption_{name}")
            spin.setRange(control[2], control[3])
            spin.setValue(values[name])
            spin.setToolTip(control[1][:1].upper() + control[1][1:])
            spin.setKeyboardTracking(False)
            spin.valueChanged.connect(lambda value, name=name: self.controller.set_option(name, value))
            self._option_widgets += [label, spin]
        for widget in self._option_widgets:
            self.options_row.addWidget(widget)

    def refresh(self) -> None:
        """Show the line's reviews and the summary (after any change of the tree or the options)."""
        controller = self.controller
        if not hasattr(controller.window, "analysis"):
            return
        self._build_options()
        palette = self.palette()
        base, text = palette.color(QPalette.ColorRole.Base), palette.color(QPalette.ColorRole.Text)
        self.model.dark = base.lightness() < 128
        self.model.muted = mix(text, base, 0.55)
        self.model.current_color = mix(palette.color(QPalette.ColorRole.Highlight), base, 0.8)
        self.model.thresholds = controller.thresholds()
        can = controller.can_review()
        self.review_button.setEnabled(can)
        settings = controller.current_settings()
        window = controller.window
        window.tree_view.set_review_settings(settings)  # stale marks muted there too
        window.score_graph.set_review_settings(settings)
        if not self.isVisible():
            return  # the rows are shown when the panel is (its dock's visibility refreshes it)
        rows = controller.rows()
        self.model.set_rows(rows, settings, controller.window.tree.current)
        self._fit_columns()
        current = controller.window.tree.current
        place = next((i for i, (node, _) in enumerate(rows) if node is current), None)
        if place is not None:
            self.table.scrollTo(self.model.index(place, 0))
        flagged = any(row.flagged for _, row in rows)
        for button in (self.previous_button, self.next_button):
            button.setEnabled(flagged)
        for button in (self.csv_button, self.json_button):
            button.setEnabled(bool(rows))
        self.summary_label.setText(self.summary_html(rows, settings))

    def _fit_columns(self) -> None:
        """Each column as wide as its widest text (the move columns over every row, the others
        over rows spread through the line: their texts are of a few lengths)."""
        model, metrics = self.model, self.table.fontMetrics()
        count = model.rowCount()
        spread = range(0, count, max(1, count // 200))
        header = self.table.horizontalHeader()
        bold = self.table.font()
        bold.setBold(True)
        heading = QFontMetrics(bold)
        for column in range(model.columnCount()):
            rows = range(count) if column in (1, 2) else spread
            widest = max((metrics.horizontalAdvance(model.text(row, column)) for row in rows), default=0)
            title = str(model.headerData(column, Qt.Orientation.Horizontal))
            header.resizeSection(column, max(widest, heading.horizontalAdvance(title)) + 14)

    def summary_html(self, rows: list[tuple[Node, reviews.MoveReview]], settings: str | None) -> str:
        controller = self.controller
        thresholds = controller.thresholds()
        if thresholds is None:
            return f"Kibitz cannot review {controller.game.title} games yet."
        limits = (f"<span title='{_escape(thresholds.meaning)}'>Classes: {_escape(thresholds.describe())} "
                  f"(loss in {_escape(thresholds.unit)})</span>")
        if not rows:
            return f"No move of this line is reviewed yet: Review this line (Ctrl+L).<br>{limits}"
        summary = reviews.summarize([row for _, row in rows], thresholds)
        parts = [f"<b>{_escape(summary.text(thresholds))}</b>"]
        stale = sum(1 for _, row in rows if is_stale(row, settings))
        if stale:
            parts.append(f"<span style='color:#a05a00'>{stale} stale (other settings than “{_escape(settings or '')}”):"
                         " Review this line again</span>")
        if summary.costliest:
            links = [f"<a href='move:{row.number}'>move {row.number} {_escape(row.move)}"
                     f"{' ' + row.symbol if row.symbol else ''}</a> (loss {_escape(row.loss_text(thresholds))}, "
                     f"best {_escape(row.best)})" for row in summary.costliest]
            parts.append("Costliest: " + "; ".join(links))
        parts.append(limits)
        return "<br>".join(parts)

    def _link(self, target: str) -> None:
        if target.startswith("move:"):
            number = int(target.split(":", 1)[1])
            nodes = self.controller.line_nodes()
            if 0 < number < len(nodes):
                self.controller.window.tree.go_to(nodes[number])

    def _row_clicked(self, index: QModelIndex) -> None:
        if 0 <= index.row() < len(self.model.rows):
            self.controller.window.tree.go_to(self.model.rows[index.row()][0])


def _escape(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("'", "&#39;")
