"""The advisor panel: the advisor's ranked candidates for the position shown, why each is good or
risky, and the controls and progress of the game's long search.

The panel knows no game. Everything game-specific comes through the game's
:class:`~app.gui.games.GameUi`: the advisor (``rank``), its name and scale, the extra columns, the
Move column's text, the colour cue of a row (the board's colour for the same warning) and an
optional slower summary line (``rollout_text``, run in a worker thread). The panel never plays a
move nor runs a search: it emits :attr:`AdvisorPanel.candidate_played`,
:attr:`AdvisorPanel.candidate_hovered` and the search buttons' signals, and the window acts.
"""

from __future__ import annotations

import collections
import concurrent.futures
import dataclasses
import functools
import math
import html
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from PySide6.QtCore import (
    QEvent,
    QModelIndex,
    QObject,
    Qt,
    QSize,
    Signal,
)
from PySide6.QtGui import QBrush, QColor, QIcon, QPainter, QPixmap, QTextDocumentFragment
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QFrame,
    QGridLayout,
    QGroupBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QProgressBar,
    QPushButton,
    QSizePolicy,
    QStyle,
    QStyledItemDelegate,
    QStyleOptionViewItem,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from app.gui.games import GameUi
from app.gui.search_runner import SearchOption
from engines import Game

COMPACT_ROWS = 5
LONG_COLUMN_WIDTH = 240  # the last column's width at most when it is counted as needed
DETAIL_LINES = 6
#: The colour cue of a row with warnings when the game gives none.
DEFAULT_WARNING_RGB = (235, 160, 20)
#: Search budgets offered, in seconds (None: until stopped).
BUDGETS: tuple[tuple[str, float | None], ...] = (
    ("1 min", 60.0),
    ("5 min", 300.0),
    ("10 min", 600.0),
    ("30 min", 1800.0),
    ("until stopped", None),
)
DEFAULT_BUDGET = 1  # 5 minutes
ROLLOUT_CACHE_SIZE = 64

RANK_COLUMN, MOVE_COLUMN, SCORE_COLUMN, LOSS_COLUMN = range(4)
NUMERIC_COLUMNS = (RANK_COLUMN, SCORE_COLUMN, LOSS_COLUMN)
NUMBER_ALIGNMENT = Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter
ITEM_FLAGS = Qt.ItemFlag.ItemIsSelectable | Qt.ItemFlag.ItemIsEnabled


def format_elapsed(seconds: float) -> str:
    """``0:07``, ``12:30``, ``1:02:03``."""
    total = max(0, int(seconds))
    hours, rest = divmod(total, 3600)
    minutes, secs = divmod(rest, 60)
    return f"{hours}:{minutes:02d}:{secs:02d}" if hours else f"{minutes}:{secs:02d}"


def format_rate(rate: float) -> str:
    """Games per second, short: ``0.4``, ``37``, ``12.5k``."""
    if rate >= 10_000:
        return f"{rate / 1000:.0f}k"
    if rate >= 1000:
        return f"{rate / 1000:.1f}k"
    if rate >= 10:
        return f"{rate:.0f}"
    return f"{rate:.1f}"


def _swatch(rgb: tuple[int, int, int], size: int = 10) -> QIcon:
    pixmap = QPixmap(size, size)
    pixmap.fill(QColor(*rgb))
    return QIcon(pixmap)


@dataclasses.dataclass
class _Rows:
    """The candidates' rows as ready-made texts, formatted once per position."""

    texts: list[list[str]] = dataclasses.field(default_factory=list)
    tooltips: list[list[str]] = dataclasses.field(default_factory=list)
    colors: list[tuple[int, int, int] | None] = dataclasses.field(default_factory=list)


class ElidedLabel(QLabel):
    """One line of text, cut with "…" when the panel is narrow (the full text is the tooltip).
    Its height never changes, so the table under it never jumps when the text does."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Fixed)

    def setText(self, text: str) -> None:  # noqa: N802 (Qt name)
        super().setText(text)
        self.setToolTip(text)

    def minimumSizeHint(self) -> QSize:  # noqa: N802 (Qt name)
        return QSize(0, super().minimumSizeHint().height())

    def paintEvent(self, event) -> None:  # noqa: N802 (Qt name)
        painter = QPainter(self)
        painter.setPen(self.palette().color(self.foregroundRole()))
        rect = self.contentsRect()
        text = self.fontMetrics().elidedText(self.text(), Qt.TextElideMode.ElideRight, rect.width())
        painter.drawText(rect, int(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter), text)


class _NoFocusFrameDelegate(QStyledItemDelegate):
    """Rows are selected whole: no dotted frame around the current cell."""

    def initStyleOption(self, option: QStyleOptionViewItem, index: QModelIndex) -> None:  # noqa: N802
        super().initStyleOption(option, index)
        option.state &= ~QStyle.StateFlag.State_HasFocus


def _number(value: float, decimals: int = 1) -> str:
    """A score or loss for the table; a move the rules forbid has none."""
    return f"{value:.{decimals}f}" if math.isfinite(value) else "—"


class _RolloutSignals(QObject):
    done = Signal(int, str)  # token, text


def _run_rollout(function, state: Any, token: int, latest: Callable[[], int], signals: _RolloutSignals) -> None:
    """Runs the game's ``rollout_text(state)`` off the GUI thread (a plain Python thread: numba
    kernels called from Qt's own pool threads could deadlock with a search thread compiling)."""
    if token != latest():
        return  # a position left before its rollout began needs none
    try:
        text = function(state)
    except Exception as error:  # noqa: BLE001 - shown, never raised in a worker thread
        text = f"rollout failed: {error}"
    try:
        signals.done.emit(token, text)
    except RuntimeError:  # the panel was closed meanwhile
        pass


class AdvisorPanel(QWidget):
    """Ranked candidates and the long search's controls for any game (see the module doc).

    Signals: :attr:`candidate_played` (a move: a row was clicked, or Return pressed on it),
    :attr:`candidate_hovered` (a move, or None when the mouse leaves the table),
    :attr:`candidates_shown` (the full candidate list, best first, after every
    :meth:`show_candidates`: connect it to the board's ``show_advice``), and the search buttons'
    :attr:`start_requested`, :attr:`stop_requested`, :attr:`continue_requested`.
    """

    candidate_played = Signal(object)
    candidate_hovered = Signal(object)
    candidates_shown = Signal(object)
    start_requested = Signal()
    stop_requested = Signal()
    continue_requested = Signal()
    cluster_address_changed = Signal(str)  # the Run-on field, edited
    search_option_changed = Signal(str, str)  # a search option's key and its new value (as text), chosen

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        # The pool is created before the signal object so that, when the panel is destroyed, it
        # is destroyed first and waits for a running rollout (a few milliseconds).
        self._pool = concurrent.futures.ThreadPoolExecutor(max_workers=1, thread_name_prefix="kibitz-rollout")
        self.destroyed.connect(functools.partial(self._pool.shutdown, wait=False, cancel_futures=True))
        self._rollout_signals = _RolloutSignals(self)
        self._rollout_signals.done.connect(self._rollout_done)
        self._rollout_token = 0
        self._rollout_cache: collections.OrderedDict[Any, str] = collections.OrderedDict()
        self._rollout_pending = False

        self.game: Game | None = None
        self.ui = GameUi()
        self._state: Any = None
        self._candidates: list[Any] = []
        self._compact = False
        self._hovered_row: int | None = None
        self._search_name: str | None = None
        self._search_options: tuple[SearchOption, ...] = ()
        self._option_boxes: dict[str, QComboBox] = {}
        self._search_running = False
        self.withheld = ""  # training: why the candidates are not shown ("" when they are)

        self._build()
        self._show_search_buttons(running=False, can_continue=False)
        self.set_search_available(None)

    # -- building -------------------------------------------------------------------------------
    def _build(self) -> None:
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.setSpacing(4)

        self.summary_label = ElidedLabel()
        self.summary_label.setObjectName("advisorSummary")
        layout.addWidget(self.summary_label)
        self.rollout_label = ElidedLabel()  # the game's rollout line, e.g. greedy from here
        self.rollout_label.setObjectName("advisorRollout")
        self.rollout_label.hide()
        layout.addWidget(self.rollout_label)

        # A QTableWidget: its items keep the texts, tooltips and colours; 100 rows fill in
        # about 2 ms.
        self._rows = _Rows()
        self._icons: dict[tuple[int, int, int], QIcon] = {}
        self._backgrounds: dict[tuple[int, int, int], QBrush] = {}
        self.table = QTableWidget()
        self.table.setObjectName("candidateTable")
        self.table.setItemDelegate(_NoFocusFrameDelegate(self.table))
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.setMouseTracking(True)
        self.table.setShowGrid(False)
        self.table.setAlternatingRowColors(True)
        self.table.setWordWrap(False)
        self.table.setCornerButtonEnabled(False)
        self.table.setVerticalScrollMode(QAbstractItemView.ScrollMode.ScrollPerPixel)
        rows = self.table.verticalHeader()
        rows.hide()
        rows.setSectionResizeMode(QHeaderView.ResizeMode.Fixed)
        rows.setDefaultSectionSize(self.fontMetrics().height() + 6)
        columns = self.table.horizontalHeader()
        columns.setHighlightSections(False)
        columns.setStretchLastSection(True)
        columns.setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        columns.setResizeContentsPrecision(30)  # measure the first rows only: 100 rows stay fast
        columns.setMinimumSectionSize(24)
        self.table.entered.connect(self._row_entered)
        self.table.clicked.connect(lambda index: self._play_row(index.row()))
        self.table.selectionModel().currentRowChanged.connect(lambda *_: self._update_detail())
        self._viewport = self.table.viewport()  # kept: compared in eventFilter, even mid-teardown
        self._viewport.installEventFilter(self)
        self.table.installEventFilter(self)
        layout.addWidget(self.table, 1)

        self.detail_label = QLabel()
        self.detail_label.setObjectName("candidateDetail")
        self.detail_label.setWordWrap(True)
        self.detail_label.setTextFormat(Qt.TextFormat.RichText)
        self.detail_label.setAlignment(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignTop)
        self.detail_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.detail_label.setFrameShape(QFrame.Shape.StyledPanel)
        self.detail_label.setMargin(4)
        # a fixed height: the table above must not move while the pointer runs down its rows
        # (the tooltip has the whole text if a long explanation is cut)
        self.detail_label.setFixedHeight(DETAIL_LINES * self.fontMetrics().lineSpacing() + 12)
        layout.addWidget(self.detail_label)

        layout.addWidget(self._build_search())
        layout.addStretch(0)  # takes the room the table leaves in compact mode

    def _build_search(self) -> QGroupBox:
        self.search_group = QGroupBox("Search")
        self.search_group.setObjectName("searchGroup")
        grid = QGridLayout(self.search_group)
        grid.setContentsMargins(6, 4, 6, 4)
        grid.setHorizontalSpacing(10)
        grid.setVerticalSpacing(3)

        self.progress_bar = QProgressBar()
        self.progress_bar.setObjectName("searchProgress")
        self.progress_bar.setRange(0, 1000)
        self.progress_bar.setValue(0)
        self.progress_bar.setTextVisible(False)
        self.progress_bar.setMaximumHeight(self.fontMetrics().height())
        grid.addWidget(self.progress_bar, 0, 0, 1, 4)

        self.games_label = QLabel("–")
        self.best_label = QLabel("–")
        self.rate_label = QLabel("–")
        self.elapsed_label = QLabel("–")
        self.count_caption = QLabel("Games")
        self._rate_unit = "games/s"
        for column, (caption, label) in enumerate(
            ((self.count_caption, self.games_label), (QLabel("Best"), self.best_label),
             (QLabel("Rate"), self.rate_label), (QLabel("Elapsed"), self.elapsed_label))
        ):
            caption.setEnabled(False)  # the palette's muted text
            grid.addWidget(caption, 1, column)
            label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
            grid.addWidget(label, 2, column)

        controls = QHBoxLayout()
        controls.setSpacing(6)
        controls.addWidget(QLabel("Budget"))
        self.budget_box = QComboBox()
        self.budget_box.setObjectName("searchBudget")
        for text, seconds in BUDGETS:
            self.budget_box.addItem(text, seconds)
        self.budget_box.setCurrentIndex(DEFAULT_BUDGET)
        controls.addWidget(self.budget_box)
        controls.addStretch(1)
        self.start_button = QPushButton("Start")
        self.stop_button = QPushButton("Stop")
        self.continue_button = QPushButton("Continue")
        self.start_button.setToolTip("Start a new search from the position shown")
        self.stop_button.setToolTip("Stop the search (it can be continued)")
        self.continue_button.setToolTip("Continue the stopped search for another budget")
        self.start_button.clicked.connect(self.start_requested)
        self.stop_button.clicked.connect(self.stop_requested)
        self.continue_button.clicked.connect(self.continue_requested)
        for button in (self.start_button, self.stop_button, self.continue_button):
            button.setFocusPolicy(Qt.FocusPolicy.TabFocus)
            controls.addWidget(button)
        grid.addLayout(controls, 3, 0, 1, 4)

        # the game's settings of a new search (HATETRIS: width, lookahead, evaluation), in one row
        # of drop-downs whose texts name them ("width 10,000"): the section stays one row taller
        # and no wider, so the board keeps its room beside the docks
        self.options_box = QWidget()
        self.options_box.setObjectName("searchOptions")
        self._options_row = QHBoxLayout(self.options_box)
        self._options_row.setContentsMargins(0, 0, 0, 0)
        self._options_row.setSpacing(6)
        self.options_box.hide()
        grid.addWidget(self.options_box, 4, 0, 1, 4)

        where = QHBoxLayout()
        where.setSpacing(6)
        where.addWidget(QLabel("Run on"))
        self.cluster_field = QLineEdit()
        self.cluster_field.setObjectName("searchCluster")
        self.cluster_field.setPlaceholderText("this computer (or a Ray cluster: local, auto, ray://host:port)")
        self.cluster_field.setToolTip(
            "Empty: the search runs on this computer. A Ray address runs it on a cluster "
            "(needs pip install \"kibitz[cluster]\"): 'local' starts Ray here, 'auto' joins the cluster "
            "this computer joined with 'ray start', ray://host:port a cluster's client port.")
        self.cluster_field.editingFinished.connect(
            lambda: self.cluster_address_changed.emit(self.cluster_field.text().strip()))
        where.addWidget(self.cluster_field, 1)
        grid.addLayout(where, 5, 0, 1, 4)

        self.search_message = QLabel()
        self.search_message.setObjectName("searchMessage")
        self.search_message.setWordWrap(True)
        self.search_message.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.search_message.hide()
        grid.addWidget(self.search_message, 6, 0, 1, 4)
        return self.search_group

    # -- game ------------------------------------------------------------------------------------
    def set_game(self, game: Game, ui: GameUi) -> None:
        """Switch to ``game`` with its UI plug; the candidates are cleared until the next
        :meth:`show_candidates`."""
        self.game = game
        self.ui = ui
        self._state = None
        self._candidates = []
        self._rollout_cache.clear()
        self._rollout_token += 1
        self._hovered_row = None
        headers = ["#", "Move", ui.score_header, "Loss", *(column.header for column in ui.candidate_columns)]
        self._rows = _Rows()
        self.table.clear()
        self.table.setRowCount(0)
        self.table.setColumnCount(len(headers))
        self.table.setHorizontalHeaderLabels(headers)
        for column in NUMERIC_COLUMNS:
            self.table.horizontalHeaderItem(column).setTextAlignment(NUMBER_ALIGNMENT)
        self._apply_compact()
        has_advisor = ui.rank is not None
        self.table.setVisible(has_advisor)
        self.detail_label.setVisible(has_advisor and not self._compact)
        if has_advisor:
            self.summary_label.setText(f"Advisor: {ui.advisor_name or 'on'}")
        else:
            self.summary_label.setText(f"No advisor for {game.title} yet.")
        self.rollout_label.setVisible(has_advisor and ui.rollout_text is not None)
        self.rollout_label.setText("")
        self._rollout_pending = False
        self.detail_label.clear()

    @property
    def has_advisor(self) -> bool:
        return self.ui.rank is not None

    def show_position(self, state: Any, limit: int | None = None) -> list[Any]:
        """Rank ``state`` with the game's advisor and show the candidates (none when the game
        has no advisor); returns them."""
        if self.ui.rank is None:
            self._state = state
            return []
        candidates = list(self.ui.rank(state, limit))
        self.show_candidates(state, candidates)
        return candidates

    def show_candidates(self, state: Any, candidates: Sequence[Any]) -> None:
        """Fill the table with ``candidates`` (best first) of the position ``state``."""
        if self.game is None:
            raise RuntimeError("AdvisorPanel.show_candidates before set_game")
        self._state = state
        self._candidates = [] if self.withheld else list(candidates)
        had_hover = self._hovered_row is not None
        self._hovered_row = None

        game, ui = self.game, self.ui
        label = ui.candidate_label or (lambda candidate: game.move_text(candidate.move))
        color_of = ui.candidate_color or (lambda candidate: DEFAULT_WARNING_RGB if candidate.warnings else None)
        columns = ui.candidate_columns
        texts, tooltips, colors = [], [], []
        for rank, candidate in enumerate(self._candidates, start=1):
            tip = self._row_tooltip(candidate)
            row = [str(rank), label(candidate), _number(candidate.score, ui.score_decimals),
                   _number(candidate.loss, ui.score_decimals)]
            tips = [tip] * 4
            for column in columns:
                row.append(column.text(candidate))
                tips.append(column.tooltip(candidate) if column.tooltip is not None else tip)
            texts.append(row)
            tooltips.append(tips)
            colors.append(color_of(candidate))
        self._rows = _Rows(texts, tooltips, colors)
        self._fill_table()

        if self.withheld:  # the rollout would tell the best move's worth
            self._rollout_token += 1
            self._rollout_pending = False
            self.rollout_label.setText("")
        else:
            self._start_rollout(state)
        self._update_summary()
        if self.withheld:
            self.summary_label.setText(self.withheld)
        self._update_detail()
        if had_hover:
            self.candidate_hovered.emit(None)
        self.candidates_shown.emit(list(self._candidates))

    def withhold(self, reason: str) -> None:
        """Training: show no candidate, only ``reason``, until called with "" (the next
        :meth:`show_candidates` applies it)."""
        self.withheld = reason

    def clear_candidates(self) -> None:
        """Empty the table (e.g. while a position is being edited)."""
        self._candidates = []
        self._state = None
        self._rollout_token += 1
        self._rollout_pending = False
        self._rows = _Rows()
        self._fill_table()
        self.summary_label.setText(f"Advisor: {self.ui.advisor_name}" if self.has_advisor else "")
        self.rollout_label.setText("")
        self._update_detail()
        self.candidates_shown.emit([])

    def _fill_table(self) -> None:
        """Put the rows into the table (the first five in compact mode)."""
        rows = self._rows
        count = len(rows.texts) if not self._compact else min(len(rows.texts), COMPACT_ROWS)
        table = self.table
        table.setUpdatesEnabled(False)
        try:
            table.clearSelection()
            table.setRowCount(0)  # drops the old items at once
            table.setRowCount(count)
            for row in range(count):
                color = rows.colors[row]
                background = self._background(color) if color is not None else None
                for column, (text, tip) in enumerate(zip(rows.texts[row], rows.tooltips[row])):
                    item = QTableWidgetItem(text)
                    item.setFlags(ITEM_FLAGS)
                    if tip:
                        item.setToolTip(tip)
                    if column in NUMERIC_COLUMNS:
                        item.setTextAlignment(NUMBER_ALIGNMENT)
                    if background is not None:
                        item.setBackground(background)
                        if column == RANK_COLUMN:
                            item.setIcon(self._icon(color))
                    table.setItem(row, column, item)
            table.scrollToTop()
        finally:
            table.setUpdatesEnabled(True)
        self._keep_columns_whole()

    def _keep_columns_whole(self) -> None:
        """The table never gets narrower than its columns: no column is cut off at the right."""
        self.table.setMinimumWidth(self._table_width())

    def _icon(self, color: tuple[int, int, int]) -> QIcon:
        icon = self._icons.get(color)
        if icon is None:
            icon = self._icons[color] = _swatch(color)
        return icon

    def _background(self, color: tuple[int, int, int]) -> QBrush:
        brush = self._backgrounds.get(color)
        if brush is None:
            tint = QColor(*color)
            tint.setAlphaF(0.22)
            brush = self._backgrounds[color] = QBrush(tint)
        return brush

    @staticmethod
    def _row_tooltip(candidate: Any) -> str:
        lines = [candidate.explanation]
        lines += [f"⚠ {warning}" for warning in candidate.warnings]
        return "\n".join(line for line in lines if line)

    # -- summary ---------------------------------------------------------------------------------
    def _update_summary(self) -> None:
        game, ui, state = self.game, self.ui, self._state
        if game is None or state is None:
            return
        parts = [f"Advisor: {ui.advisor_name}" if ui.advisor_name else "Advisor"]
        noun = ui.move_noun
        if game.is_over(state):
            parts.append(f"game over, no legal {noun}s")
        elif game.is_chance_node(state):
            parts.append("chance step due: enter what the game did on the board")
        else:
            legal = len(game.legal_moves(state))
            parts.append(f"{legal} legal {noun}{'' if legal == 1 else 's'}")
            if self._candidates:
                best = self._candidates[0]
                label = ui.candidate_label(best) if ui.candidate_label else game.move_text(best.move)
                text = f"best {label}"
                if len(self._candidates) > 1 and math.isfinite(self._candidates[1].loss - best.loss):
                    text += f" +{self._candidates[1].loss - best.loss:.1f} over #2"
                parts.append(text)
        self.summary_label.setText(" · ".join(parts))

    def _start_rollout(self, state: Any) -> None:
        """Fill the rollout line from the cache, or compute it in the worker thread."""
        self._rollout_token += 1
        self._rollout_pending = False
        function = self.ui.rollout_text
        if function is None:
            return
        try:
            cached = self._rollout_cache.get(state)
        except TypeError:  # an unhashable state: no cache
            cached = None
        if cached is not None:
            self._rollout_cache.move_to_end(state)
            self.rollout_label.setText(cached)
            return
        self._rollout_pending = True
        self.rollout_label.setText("…")
        self._pool.submit(
            _run_rollout, function, state, self._rollout_token, lambda: self._rollout_token, self._rollout_signals
        )

    def _rollout_done(self, token: int, text: str) -> None:
        if token != self._rollout_token:
            return  # an older position's answer
        try:
            self._rollout_cache[self._state] = text
            while len(self._rollout_cache) > ROLLOUT_CACHE_SIZE:
                self._rollout_cache.popitem(last=False)
        except TypeError:
            pass
        self._rollout_pending = False
        self.rollout_label.setText(text)

    def show_thinking(self) -> None:
        """Say the advisor is working on the position shown (its candidates follow)."""
        self.summary_label.setText(f"{self.summary_label.text()} · thinking…")

    def rollout_pending(self) -> bool:
        """True while the rollout line is being computed."""
        return self._rollout_pending

    def summary_text(self) -> str:
        """The summary as shown: the advisor line, then the rollout line if any."""
        lines = [self.summary_label.text()]
        if not self.rollout_label.isHidden() and self.rollout_label.text():
            lines.append(self.rollout_label.text())
        return " · ".join(lines)

    # -- detail ----------------------------------------------------------------------------------
    def _detail_row(self) -> int | None:
        if self._hovered_row is not None:
            return self._hovered_row
        current = self.table.currentIndex()
        if current.isValid():
            return current.row()
        return 0 if self.table.rowCount() else None

    def _update_detail(self) -> None:
        row = self._detail_row()
        if row is None or row >= len(self._candidates):
            self.detail_label.setText("")
            return
        candidate = self._candidates[row]
        texts = self._rows.texts[row]
        color = self._rows.colors[row]
        head = (f"<b>#{row + 1} {html.escape(texts[MOVE_COLUMN])}</b> · {html.escape(self.ui.score_header)} "
                f"{_number(candidate.score, self.ui.score_decimals)} · "
                f"loss {_number(candidate.loss, self.ui.score_decimals)}")
        lines = [head]
        if candidate.explanation:
            lines.append(html.escape(candidate.explanation))
        for warning in candidate.warnings:
            mark = "⚠"
            if color is not None:
                mark = f"<span style='color: rgb{color}'>■</span>"
            lines.append(f"{mark} <b>{html.escape(warning)}</b>")
        self.detail_label.setText("<br>".join(lines))

    def detail_text(self) -> str:
        """The detail area as plain text."""
        return QTextDocumentFragment.fromHtml(self.detail_label.text()).toPlainText()

    # -- table interaction -----------------------------------------------------------------------
    def _row_entered(self, index: QModelIndex) -> None:
        row = index.row() if index.isValid() else None
        if row == self._hovered_row:
            return
        self._hovered_row = row
        self._update_detail()
        self.candidate_hovered.emit(None if row is None else self._candidates[row].move)

    def _leave_table(self) -> None:
        if self._hovered_row is None:
            return
        self._hovered_row = None
        self._update_detail()
        self.candidate_hovered.emit(None)

    def _play_row(self, row: int) -> None:
        if 0 <= row < self.table.rowCount():
            self.candidate_played.emit(self._candidates[row].move)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802 (Qt name)
        kind = event.type()
        if kind == QEvent.Type.Leave and watched is self._viewport:
            self._leave_table()
        elif kind == QEvent.Type.MouseMove and watched is self._viewport:
            if self._hovered_row is not None and not self.table.indexAt(event.position().toPoint()).isValid():
                self._leave_table()  # below the last row: no candidate under the pointer
        elif kind == QEvent.Type.KeyPress and watched is self.table:
            if event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter):
                current = self.table.currentIndex()
                if current.isValid():
                    self._play_row(current.row())
                    return True
        return super().eventFilter(watched, event)

    # -- what the window and tests use -------------------------------------------------------------
    def candidate_count(self) -> int:
        """Rows shown (all candidates, or the first five in compact mode)."""
        return self.table.rowCount()

    def row_texts(self, row: int) -> list[str]:
        """The texts of a row as shown, every column (hidden ones too)."""
        return list(self._rows.texts[row])

    def cell_tooltip(self, row: int, column: int) -> str:
        """The tooltip of a cell as shown."""
        return self.table.item(row, column).toolTip()

    def headers(self) -> list[str]:
        return [self.table.horizontalHeaderItem(c).text() for c in range(self.table.columnCount())]

    def moves(self) -> list[Any]:
        """The moves of the rows shown, best first."""
        return [candidate.move for candidate in self._candidates[: self.table.rowCount()]]

    def candidates(self) -> list[Any]:
        """Every candidate of the position shown (also those compact mode hides)."""
        return list(self._candidates)

    def row_color(self, row: int) -> tuple[int, int, int] | None:
        """The colour cue of a row (None: none)."""
        return self._rows.colors[row]

    # -- compact mode ----------------------------------------------------------------------------
    def set_compact(self, compact: bool) -> None:
        """Compact: the first five candidates, only the game columns marked compact, no detail
        area (for the layout beside the real game)."""
        self._compact = bool(compact)
        self._apply_compact()

    def is_compact(self) -> bool:
        return self._compact

    def columns_width(self) -> int:
        """Pixels the visible columns need to show their header and every text unelided."""
        table, header = self.table, self.table.horizontalHeader()
        visible = [column for column in range(table.columnCount()) if not table.isColumnHidden(column)]
        if not visible:
            return 0
        # the header has sized every column to its contents already (ResizeToContents); only a
        # stretched last column is wider than it needs, so that one is measured
        *sized, last = visible
        need = max(header.sectionSizeHint(last), table.sizeHintForColumn(last))
        if header.stretchLastSection():
            # a long text column last (Destruct-o-Match's whole line to the level's end) is cut
            # with "…" past this width (its tooltip and the detail below have it whole) rather
            # than widening the window to the screen's edge
            need = min(need, max(header.sectionSizeHint(last), LONG_COLUMN_WIDTH))
        else:
            need = max(need, header.sectionSize(last))
        return sum(header.sectionSize(column) for column in sized) + need

    def _table_width(self) -> int:
        """The table's width that shows every visible column whole (and a vertical scroll bar)."""
        scroll_bar = self.style().pixelMetric(QStyle.PixelMetric.PM_ScrollBarExtent)
        return self.columns_width() + 2 * self.table.frameWidth() + scroll_bar

    def needed_width(self) -> int:
        """The panel's width that shows every visible column unelided (with room for a vertical
        scroll bar), and the search controls."""
        margins = self.layout().contentsMargins()
        search = self.search_group.sizeHint().width() if not self.search_group.isHidden() else 0
        return max(self._table_width(), search) + margins.left() + margins.right()

    def _apply_compact(self) -> None:
        self._fill_table()
        for place, extra in enumerate(self.ui.candidate_columns):
            self.table.setColumnHidden(LOSS_COLUMN + 1 + place, self._compact and not extra.compact)
        # the last column fills the width only when it is the game's (a stretched Loss column
        # would push the numbers far from the moves)
        shown = [extra for extra in self.ui.candidate_columns if extra.compact or not self._compact]
        self.table.horizontalHeader().setStretchLastSection(bool(shown))
        if self._compact:
            rows = self.table.verticalHeader().defaultSectionSize() * COMPACT_ROWS
            frame = 2 * self.table.frameWidth()
            self.table.setMaximumHeight(self.table.horizontalHeader().sizeHint().height() + rows + frame)
        else:
            self.table.setMaximumHeight(16_777_215)  # QWIDGETSIZE_MAX
        self.detail_label.setVisible(self.has_advisor and not self._compact)
        self._show_search_group()
        self._keep_columns_whole()
        self._hovered_row = None
        if self._candidates:
            self._update_detail()

    # -- search ----------------------------------------------------------------------------------
    def set_search_available(self, name: str | None, counts: str = "Games", rate_unit: str = "games/s",
                             options: Sequence[SearchOption] = (), chosen: Mapping[str, object] | None = None) -> None:
        """Show the search section for the search called ``name`` ("ParanoidPlay"), whose progress
        counts ``counts`` ("Games", "Depth") at a rate in ``rate_unit``, with a drop-down for each
        of its ``options`` set to the value ``chosen`` keeps for it (its default when none or
        none of its choices); None hides it (the game has no long search)."""
        self._search_name = name
        if name is not None:
            self.search_group.setTitle(f"Search: {name}")
            self.count_caption.setText(counts)
            self._rate_unit = rate_unit
        self._build_options(tuple(options) if name is not None else (), chosen or {})
        self._show_search_group()

    def _build_options(self, options: tuple[SearchOption, ...], chosen: Mapping[str, object]) -> None:
        if options == self._search_options and not chosen:
            return
        while self._options_row.count():
            widget = self._options_row.takeAt(0).widget()
            if widget is not None:
                widget.deleteLater()
        self._search_options = options
        self._option_boxes = {}
        for option in options:
            box = QComboBox()
            box.setObjectName(f"searchOption-{option.key}")
            box.setAccessibleName(option.label)
            box.setToolTip(f"<b>{html.escape(option.label)}</b>: {html.escape(option.tooltip)}")
            for text, value in option.choices:
                box.addItem(text, value)
            box.setCurrentIndex(option.index_of(chosen[option.key]) if option.key in chosen else option.default)
            box.currentIndexChanged.connect(functools.partial(self._option_chosen, option.key))
            self._options_row.addWidget(box)
            self._option_boxes[option.key] = box
        self._options_row.addStretch(1)
        self._show_options()
        self.options_box.setEnabled(not self._search_running)

    def _show_options(self) -> None:
        # compact: the section shows only while a search runs, whose message says its settings
        self.options_box.setVisible(bool(self._search_options) and not self._compact)

    def _option_chosen(self, key: str, _index: int) -> None:
        self.search_option_changed.emit(key, str(self._option_boxes[key].currentData()))

    def search_options(self) -> dict[str, object]:
        """The values chosen for the search's options, by key (what ``start`` takes)."""
        return {key: box.currentData() for key, box in self._option_boxes.items()}

    def _show_search_group(self) -> None:
        """The search section shows when the game has a search: in the compact layout (a narrow
        window beside the game) only while a search runs; the Search menu and keys always work."""
        self.search_group.setVisible(self._search_name is not None and (not self._compact or self._search_running))
        self._show_options()
        self._fit_height()

    def _fit_height(self) -> None:
        """Compact: the panel is as tall as its rows (the board below it takes the rest of the
        window, never an empty band under the table)."""
        if self._compact:
            self.layout().activate()
            self.setMaximumHeight(self.layout().sizeHint().height())
        else:
            self.setMaximumHeight(16_777_215)  # QWIDGETSIZE_MAX

    def search_available(self) -> bool:
        return self._search_name is not None

    def cluster_address(self) -> str | None:
        """The Ray address the search should run on, None for this computer."""
        return self.cluster_field.text().strip() or None

    def set_cluster_address(self, address: str) -> None:
        self.cluster_field.setText(address)

    def budget_seconds(self) -> float | None:
        """The chosen budget in seconds, None for "until stopped"."""
        value = self.budget_box.currentData()
        return None if value is None else float(value)

    def show_search_progress(
        self,
        *,
        running: bool,
        games: int,
        best: str,
        rate: float,
        elapsed: float,
        fraction: float | None,
        can_continue: bool,
        message: str = "",
    ) -> None:
        """Show where the search stands. ``fraction`` is the share of the budget spent (None:
        unknown, a busy bar while running); ``best`` is the game's own words for the best found."""
        self.games_label.setText(f"{games:,}")
        self.best_label.setText(best or "–")
        self.best_label.setToolTip(best)
        self.rate_label.setText(f"{format_rate(rate)} {self._rate_unit}" if rate > 0 else "–")
        self.elapsed_label.setText(format_elapsed(elapsed))
        if fraction is None:
            if running:
                self.progress_bar.setRange(0, 0)  # busy
            else:
                self.progress_bar.setRange(0, 1000)
                self.progress_bar.setValue(0)
        else:
            self.progress_bar.setRange(0, 1000)
            self.progress_bar.setValue(round(1000 * min(1.0, max(0.0, fraction))))
        self.search_message.setText(message)
        self.search_message.setVisible(bool(message))
        self._show_search_buttons(running=running, can_continue=can_continue)

    def _show_search_buttons(self, *, running: bool, can_continue: bool) -> None:
        if running != self._search_running:
            self._search_running = running
            self._show_search_group()
        self.start_button.setEnabled(not running)
        self.stop_button.setEnabled(running)
        self.continue_button.setEnabled(not running and can_continue)
        self.budget_box.setEnabled(not running)
        self.cluster_field.setEnabled(not running)
        self.options_box.setEnabled(not running)

    def search_texts(self) -> dict[str, str]:
        """The search labels as shown (for tests)."""
        return {
            "games": self.games_label.text(),
            "best": self.best_label.text(),
            "rate": self.rate_label.text(),
            "elapsed": self.elapsed_label.text(),
            "message": self.search_message.text(),
        }

