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
from PySide6.QtGui import QBrush, QPalette
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


class _Signals(QObject):
    judged = Signal(object, object)  # node, row or exception (training)


@dataclasses.dataclass
class _Job:
    tree: MoveTree
    nodes: list[Node]  # the line's nodes, root first: nodes[n] is move n
    started: float


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

    started = Signal()
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
        defaults = {field.name: field.default for field in dataclasses.fields(module.Reviewer)}
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
            return
        if not self.can_review():
            self.finished.emit(f"Kibitz cannot review {self.game.title} games yet.")
            return
        tree = self.window.tree
        nodes = tree.line_nodes()
        line = Line(tree.root.state, tuple(node.move for node in nodes[1:]))
        reviewer = self.reviewer()
        done = [node.move_number for node in nodes[1:]
                if node.review is not None and node.review.settings == reviewer.settings]
        game = self.game
        worker = self.worker()
        worker.stop.clear()
        worker.jobs.send((game.short_name, game.board_text(line.start), [game.move_text(move) for move in line.moves],
                          self.options(game), done))
        self._job = _Job(tree, nodes, time.perf_counter())
        self.panel.show_running(0, 0)
        self.started.emit()
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

    def _poll(self) -> None:
        """Read what the review process sent (progress, then its rows), without waiting."""
        job = self._job
        if job is None:
            self._poll_timer.stop()
            return
        answers = self._worker.answers
        try:
            while answers.poll():
                message = answers.recv()
                if message[0] == "progress":
                    self.panel.show_running(message[1], message[2])
                elif message[0] == "done":
                    self._finished(message[1], message[2], message[3])
                    return
        except (EOFError, OSError):
            process = self._worker.process
            process.join(1.0)
            self._worker = None
            self._finished([], False, f"the review process ended unexpectedly (exit code {process.exitcode})")

    def _finished(self, rows: list, stopped: bool, error: str) -> None:
        job = self._job
        if job is None:
            return
        self._job = None
        self._poll_timer.stop()
        job.tree.set_reviews(((job.nodes[row.number], row) for row in rows), job.nodes[-1])
        seconds = time.perf_counter() - job.started
        self.panel.show_idle()
        if error:
            self.finished.emit(f"The review failed: {error}")
        elif stopped:
            self.finished.emit(f"Review cancelled: {len(rows)} moves reviewed, kept ({seconds:.1f} s)")
        else:
            self.finished.emit(f"Review done: {len(rows)} moves reviewed in {seconds:.1f} s")
        if not rows:  # (rows set on nodes refresh the panel through the tree's change)
            self.panel.refresh()

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
        game, reviewer = self.game, self.reviewer()

        def work() -> None:
            try:
                result: Any = reviews.review_move(game, reviewer, node.parent.state, node.move, node.move_number)
            except Exception as failure:  # noqa: BLE001
                result = failure
            try:
                self._signals.judged.emit(node, result)
            except RuntimeError:
                pass

        threading.Thread(target=work, name="kibitz-review-move", daemon=True).start()

    def _judged(self, node: Node, result: Any) -> None:
        if isinstance(result, Exception):
            self.finished.emit(f"The review of the move failed: {result}")
            return
        tree = self.window.tree
        tree.set_reviews([(node, result)])
        row: reviews.MoveReview = result
        if row.loss <= 0:
            verdict = "the advisor's choice too"
        else:
            verdict = (f"{row.classification}{' ' + row.symbol if row.symbol else ''}, loss {row.loss:,.1f}; "
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
        """Refresh the panel once the event loop is free (a burst of changes refreshes once)."""
        if change is not Change.LABEL and self.panel.isVisible():
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

    def import_file(self, path: str | None = None, add_line: Callable[[reviews.ReviewFile], MoveTree] | None = None
                    ) -> bool:
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
            return f"{row.loss:,.1f}"
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
            return QBrush(self.current_color) if getattr(self, "current_color", None) is not None else None
        if role == Qt.ItemDataRole.ToolTipRole:
            stale = (f"\nstale: reviewed with “{row.settings}”, the panel now says “{self.settings}”"
                     if is_stale(row, self.settings) else "")
            excused = row.extra(reviews.EXCUSED)
            return (f"move {row.number}: {row.move}, best {row.best}\nvalue {row.value:,.2f}, played "
                    f"{row.played_value:,.2f}, loss {row.loss:,.2f}: {row.classification}"
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
        self.table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        # columns fitted to the rows on screen and a few more, not to all 1,200 (which costs
        # a data() call per cell and froze the window for a third of a second)
        self.table.horizontalHeader().setResizeContentsPrecision(40)
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
                box.setToolTip(control[1])
                box.setChecked(values[name])
                box.toggled.connect(lambda on, name=name: self.controller.set_option(name, on))
                self._option_widgets.append(box)
                continue
            label = QLabel(control[0])
            spin = QSpinBox()
            spin.setObjectName(f"reviewOption_{name}")
            spin.setRange(control[2], control[3])
            spin.setValue(values[name])
            spin.setToolTip(control[1])
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
        can = controller.can_review()
        self.review_button.setEnabled(can)
        rows = controller.rows()
        settings = controller.current_settings()
        self.model.set_rows(rows, settings, controller.window.tree.current)
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
                     f"{' ' + row.symbol if row.symbol else ''}</a> (loss {row.loss:,.1f}, best {_escape(row.best)})"
                     for row in summary.costliest]
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
