"""The main window: the board, the advisor panel, the move tree with its score graph, the
sequence editor and a status bar, for whichever game is picked.

The window is game-agnostic: it plays moves through ``engines.GAMES[name]`` and gets the board,
the advisor and the long search from the game's :class:`app.gui.games.GameUi`. Every position
shown is a node of an :class:`engines.tree.MoveTree`; the trees (one per analysis) are the
session, saved atomically a moment after every change and when the window closes.
"""

from __future__ import annotations

import collections
import concurrent.futures
import datetime
import functools
import os
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

from PySide6.QtCore import QByteArray, QCoreApplication, QEvent, QObject, QRect, QSettings, QSize, Qt, QTimer, Signal
from PySide6.QtGui import QAction, QActionGroup, QCloseEvent, QGuiApplication, QKeySequence
from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QDockWidget,
    QFileDialog,
    QLabel,
    QMainWindow,
    QMessageBox,
    QSplitter,
    QStyle,
    QStyleOptionComboBox,
    QStylePainter,
    QToolBar,
    QVBoxLayout,
    QWidget,
)

from app.gui.advisor_panel import AdvisorPanel, ElidedLabel
from app.gui.board_view import BoardView, PreparingBoard
from app.gui.advice_overlay import OPACITIES, OverlayController
from app.gui.capture import CaptureController
from app.gui.games import GameUi, ui_for
from app.gui.preparation import KernelPreparation
from app.gui.review import ReviewController
from app.gui.score_graph import ScoreGraph
from app.gui.search_runner import SearchRunner
from app.gui.sequence_editor import SequenceEditor
from app.gui.session import Analysis, Session, SessionStore
from advisors.cluster import check_address
from app.gui.settings import open_settings
from app.gui.shortcuts import ShortcutsDialog
from app.gui.tree_view import MoveTreeView
from engines import GAMES, Game, KibitzInputError, Line
from engines.files import read_text, write_text_atomic
from engines.tree import Change, MoveTree, Node

DEFAULT_SIZE = (1280, 900)
GEOMETRY_KEY = "window/geometry/"  # + layout name: where the window was
SIZE_KEY = "window/size/"  # + layout name / game: its size for that game
LAYOUT_KEY = "window/layout"
DOCKS_KEY = "window/docks/"  # + layout name
CLUSTER_KEY = "search/cluster"  # the Ray address searches run on; empty: this computer
TURN_MESSAGE_MILLISECONDS = 8000
AUTOSAVE_MILLISECONDS = 800
SEQUENCE_DELAY_MILLISECONDS = 120
# While follow mode plays the real game's moves, the advisor ranks a position once the player has
# paused this long: a ranking per passing position took both cores from the reader on a 2-core
# machine, follow mode fell behind a player moving every 300 ms and lost the game
# (benchmarks/follow_on_screen.py); the player reads the advice when pausing anyway.
FOLLOWED_RANK_DELAY_MILLISECONDS = 250
BEST_MARK = "★ "
PREPARING_TEXT = "Preparing the {title} engine… (its kernels compile once, in the background)"

ANALYSIS_LAYOUT = "analysis"
COMPACT_LAYOUT = "compact"
ADVISOR_WIDTH = 400  # the advisor panel's width at least, analysis layout
MOVES_WIDTH = 240  # the moves panel's (move tree and score graph) width when it can be had
MOVES_MINIMUM_WIDTH = 200  # and never less
SEQUENCE_HEIGHT = 215
DOCK_SEPARATORS = 8  # pixels between the board and a dock, or two docks
WINDOW_FRAME = 40  # the window manager's frame and title bar, about
ANALYSIS_PICKER_LETTERS = 18
COMPACT_PICKER_LETTERS = 8


def search_option_key(game: str, option: str) -> str:
    """The settings key of ``game``'s search ``option`` as last chosen (its value kept as text)."""
    return f"search/{game}/{option}"


RANK_CACHE_SIZE = 512


class _RankSignals(QObject):
    done = Signal(int, object, object)  # token, state, candidates (or the exception raised)


class ElidingComboBox(QComboBox):
    """A combo box whose shown text is cut in the middle with "…" when it is too long for the box
    (Qt would clip it: "Destruct-o-Match position ·" lost its time)."""

    def paintEvent(self, event) -> None:  # noqa: N802 (Qt name)
        painter = QStylePainter(self)
        option = QStyleOptionComboBox()
        self.initStyleOption(option)
        painter.drawComplexControl(QStyle.ComplexControl.CC_ComboBox, option)
        field = self.style().subControlRect(QStyle.ComplexControl.CC_ComboBox, option,
                                            QStyle.SubControl.SC_ComboBoxEditField, self)
        option.currentText = self.fontMetrics().elidedText(option.currentText, Qt.TextElideMode.ElideMiddle,
                                                           field.width())
        painter.drawControl(QStyle.ControlElement.CE_ComboBoxLabel, option)

    def shown_text(self) -> str:
        """The text as painted (for tests)."""
        option = QStyleOptionComboBox()
        self.initStyleOption(option)
        field = self.style().subControlRect(QStyle.ComplexControl.CC_ComboBox, option,
                                            QStyle.SubControl.SC_ComboBoxEditField, self)
        return self.fontMetrics().elidedText(option.currentText, Qt.TextElideMode.ElideMiddle, field.width())


class _LoadSignals(QObject):
    loaded = Signal(str)  # a prepared game's code and kernels are loaded (from a worker thread)


class MainWindow(QMainWindow):
    """Kibitz's window (see the module docstring).

    ``game_name`` opens that game (default: the session's last analysis, else SPL-T);
    ``session_store`` None uses the default session file, False keeps no session (screenshots).
    """

    def __init__(
        self,
        game_name: str | None = None,
        settings: QSettings | None = None,
        remember_geometry: bool = True,
        session_store: SessionStore | None | bool = None,
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self._settings = settings if settings is not None else open_settings()
        self._remember_geometry = remember_geometry
        self._store: SessionStore | None = (
            None if session_store is False else (session_store if isinstance(session_store, SessionStore) else SessionStore())
        )
        self._error_box: QMessageBox | None = None
        self._shortcuts_dialog: ShortcutsDialog | None = None
        self.session = Session()
        self.analysis: Analysis
        self.game: Game
        self.ui: GameUi
        self.board: BoardView
        self.candidates: list[Any] = []
        # Slow advisors (GameUi.rank_off_thread) rank in this worker; answers for positions
        # already left are dropped, and every answer is remembered for walking back.
        self._load_signals = _LoadSignals(self)
        self._load_signals.loaded.connect(self._game_loaded)
        self._rank_signals = _RankSignals(self)
        self._rank_signals.done.connect(self._ranked)
        self._rank_token = 0
        self._rank_pending = False
        self._rank_cache: collections.OrderedDict[Any, list[Any]] = collections.OrderedDict()
        self._rank_pool = concurrent.futures.ThreadPoolExecutor(max_workers=1, thread_name_prefix="kibitz-rank")
        self.destroyed.connect(functools.partial(self._rank_pool.shutdown, wait=False, cancel_futures=True))
        self._search_analysis: Analysis | None = None
        self._best_node: Node | None = None
        self._search_start_move = 0
        self._layout = ANALYSIS_LAYOUT
        self._save_timer = QTimer(self)
        self._save_timer.setSingleShot(True)
        self._save_timer.timeout.connect(self.save_session)
        self._refresh_timer = QTimer(self)
        self._refresh_timer.setSingleShot(True)
        self._refresh_timer.timeout.connect(self._refresh)
        self._sequence_timer = QTimer(self)
        self._sequence_timer.setSingleShot(True)
        self._sequence_timer.timeout.connect(self._show_line_in_editor)
        self._followed_rank_timer = QTimer(self)
        self._followed_rank_timer.setSingleShot(True)
        self._followed_rank_timer.setInterval(FOLLOWED_RANK_DELAY_MILLISECONDS)
        self._followed_rank_timer.timeout.connect(lambda: self._rank_in_background(self.state))

        self._best_value: Any = None  # the value of the best line the running search sent
        self._last_progress: Any = None  # its last report (shown after it ends)
        self._search_started_at = 0.0
        self._search_message = ""
        self._rebalance_timer = QTimer(self)  # a resize by the player, once it has stopped
        self._rebalance_timer.setSingleShot(True)
        self._rebalance_timer.setInterval(150)
        self._rebalance_timer.timeout.connect(self._rebalance_docks)
        self._search_clock = QTimer(self)
        self._search_clock.setInterval(1000)
        self._search_clock.timeout.connect(self._tick_search_clock)
        self.search_runner = SearchRunner(self)
        self.search_runner.progress.connect(self._search_progress)
        self.search_runner.new_best.connect(self._search_new_best)
        self.search_runner.finished.connect(self._search_finished)
        self.search_runner.failed.connect(self._search_failed)
        # screen capture, reading and follow mode (it must exist before an analysis is shown)
        self.capture = CaptureController(self, self._settings)
        self.advice_overlay = OverlayController(self, self.capture, self._settings)
        # reviews of whole lines, the Review panel and training
        self.review = ReviewController(self, self._settings)
        self.review.finished.connect(lambda text: self.show_message(text))
        self.review.panel_wanted.connect(self._show_review_dock)

        self._create_actions()
        self._create_menus()
        self._create_toolbar()
        self._create_docks()
        self._create_status_bar()

        # A game whose kernels are not in numba's cache is prepared in a helper process first
        # (compiling here would freeze the window); meanwhile the window shows it is preparing.
        self.preparation = KernelPreparation(self)
        self.preparation.ready.connect(self._kernels_ready)
        self.preparation.failed.connect(self._preparation_failed)
        self._first_game = game_name
        first, *others = self._games_to_open(game_name)
        waiting = [name for name in (first, *others) if not self.preparation.is_ready(name)]
        self._startup_waiting = set(waiting)
        if waiting:  # the session (its trees replay on loading) opens once its games are ready
            self._show_preparing(first)
            for name in waiting:
                self.preparation.request(name)
        else:
            self._open_first(game_name)

        available = self._available_screen()
        self.resize(min(DEFAULT_SIZE[0], available.width()), min(DEFAULT_SIZE[1], available.height() - WINDOW_FRAME))
        layout = self._settings.value(LAYOUT_KEY) if remember_geometry else None
        self.set_layout(layout if layout in (ANALYSIS_LAYOUT, COMPACT_LAYOUT) else ANALYSIS_LAYOUT)
        self._layout_applied = True

    def _games_to_open(self, game_name: str | None) -> list[str]:
        """The game shown first, then the other games of the saved session."""
        names = self._store.game_names() if self._store is not None else []
        first = game_name or (names[0] if names else "splt")
        return [first, *(name for name in dict.fromkeys(names) if name != first)]

    def _open_first(self, game_name: str | None) -> None:
        """Restore the saved session (or open ``game_name``), once the kernels are ready."""
        loaded = self._store.load() if self._store is not None else None
        restored = loaded.session if loaded is not None else None
        if restored is not None and restored.analyses:
            self.session = restored
            wanted = self.session.analyses[self.session.current]
            if game_name is not None and wanted.game.short_name != game_name:
                self._open_game(game_name)
            else:
                self._show_analysis(wanted)
        else:
            self._open_game(game_name or "splt")
        if loaded is not None and loaded.problem:
            where = f" It was moved to {loaded.set_aside}." if loaded.set_aside else ""
            self._show_error(
                "Session",
                "The saved session could not be read completely; what could be read is open.",
                f"{loaded.problem}.{where}",
            )
        for name in GAMES:  # the other games get ready in the background: a switch is then instant
            self.preparation.request(name)

    # -- preparing a game's kernels ---------------------------------------------------------------
    def _show_preparing(self, short_name: str) -> None:
        """Show that ``short_name``'s kernels are being prepared: a board saying so, no advice,
        the game's actions off until it is ready (the menus, the game picker and the other
        games keep working)."""
        self._preparing_game = short_name
        game = GAMES[short_name]
        switching = self._install_game(game, GameUi(describe=lambda game, state: ""), PreparingBoard(game, self))
        self.advisor_panel.summary_label.setText(PREPARING_TEXT.format(title=game.title))
        self.advisor_panel.set_search_available(None)
        for action in self._position_actions():
            action.setEnabled(False)
        self.position_label.setText(PREPARING_TEXT.format(title=game.title))
        self.analysis_picker.clear()
        if switching:
            self._fit_game_size()

    def _position_actions(self) -> list[QAction]:
        """The actions that act on the position shown (off while a game is being prepared)."""
        return [
            self.new_action, self.open_action, self.save_action, self.close_analysis_action, self.undo_action,
            self.redo_action, self.previous_variation_action, self.next_variation_action, self.start_action,
            self.end_action, self.promote_action, self.delete_action, self.play_best_action,
            *self.play_candidate_actions, self.copy_action, self.paste_action, self.edit_board_action,
            self.start_search_action, self.stop_search_action, self.continue_search_action, self.capture_action,
            self.recapture_action, self.follow_action, self.overlay_action, self.open_image_action,
            self.paste_image_action, self.review_action, self.next_mistake_action, self.previous_mistake_action,
            self.training_action, self.export_review_action, self.export_review_json_action,
            self.import_review_action,
        ]

    def is_preparing(self) -> bool:
        """True while the game shown waits for its kernels (see :mod:`app.gui.preparation`)."""
        return self._preparing_game is not None

    def _kernels_ready(self, short_name: str) -> None:
        """A game's kernels are in the cache: load its code and kernels in a plain thread (the
        GUI thread keeps painting between its slices), then open it (:meth:`_game_loaded`)."""
        if short_name != self._preparing_game and short_name not in self._startup_waiting:
            return  # prepared in the background: loaded when the player opens it
        threading.Thread(target=self._load_game, args=(short_name,), name="kibitz-load", daemon=True).start()

    def _load_game(self, short_name: str) -> None:
        try:
            ui_for(short_name)
            GAMES[short_name].warm_up()
        except Exception:  # noqa: BLE001 - opening the game shows the error where it belongs
            pass
        try:
            self._load_signals.loaded.emit(short_name)
        except RuntimeError:  # the window was closed meanwhile
            pass

    def _game_loaded(self, short_name: str) -> None:
        if self._startup_waiting:
            self._startup_waiting.discard(short_name)
            if not self._startup_waiting:
                self._preparing_game = None
                self._enable_position_actions()
                self._open_first(self._first_game)
                self._fit_game_size()
            return
        if self._preparing_game == short_name:
            self._preparing_game = None
            self._enable_position_actions()
            self._open_game(short_name)

    def _enable_position_actions(self) -> None:
        """Back from preparing: on, then the refresh and the game's build set what depends."""
        for action in self._position_actions():
            action.setEnabled(True)

    def _preparation_failed(self, short_name: str, problem: str) -> None:
        self.show_message(
            f"{GAMES[short_name].title}: {problem}; its kernels compile in the window instead (it may pause)."
        )

    # -- building -------------------------------------------------------------------------------
    def _action(self, text: str, shortcuts: list, slot, tip: str) -> QAction:
        action = QAction(text, self)
        action.setShortcuts([QKeySequence(shortcut) for shortcut in shortcuts])
        action.setStatusTip(tip)
        action.setToolTip(f"{tip} ({', '.join(shortcuts)})" if shortcuts else tip)
        action.triggered.connect(lambda _checked=False: slot())
        self.addAction(action)  # shortcuts work whatever widget has the focus
        return action

    def _create_actions(self) -> None:
        a = self._action
        self.new_action = a("&New game", ["Ctrl+N"], self.new_game, "Start a new game (a new analysis)")
        self.open_action = a("&Open sequence…", ["Ctrl+O"], self.open_sequence, "Open a sequence file as a new analysis")
        self.save_action = a("&Save sequence…", ["Ctrl+S"], self.save_sequence, "Save the current line as a sequence file")
        self.close_analysis_action = a("&Close analysis", ["Ctrl+W"], self.close_analysis, "Close this analysis (its tree is removed from the session)")
        self.quit_action = a("&Quit", ["Ctrl+Q"], self.close, "Close Kibitz")
        self.undo_action = a("&Back", ["Left", "Ctrl+Z"], self.undo, "One move back")
        self.redo_action = a("&Forward", ["Right", "Ctrl+Y", "Ctrl+Shift+Z"], self.redo, "One move forward, along the line last visited")
        self.previous_variation_action = a("&Previous variation", ["Up"], self.previous_variation, "Switch to the previous variation of this move")
        self.next_variation_action = a("Ne&xt variation", ["Down"], self.next_variation, "Switch to the next variation of this move")
        self.start_action = a("Go to &start", ["Home"], self.go_start, "Go to the start position")
        self.end_action = a("Go to &end", ["End"], self.go_end, "Go to the end of this line")
        self.promote_action = a("&Promote to main line", ["Ctrl+P"], self.promote, "Make the line through this move the main line")
        self.delete_action = a("&Delete from here", ["Ctrl+Delete", "Ctrl+Backspace"], self.delete_branch, "Delete this move and everything after it")
        self.play_best_action = a("Play the &best move", ["Space"], self.play_best, "Play the advisor's best move")
        self.play_candidate_actions = [
            a(f"Play candidate {n}", [str(n)], lambda n=n: self.play_candidate(n - 1), f"Play the advisor's candidate number {n}")
            for n in range(1, 10)
        ]
        self.copy_action = a("&Copy position", ["Ctrl+C"], self.copy_position, "Copy the position as text")
        self.paste_action = a("&Paste position", ["Ctrl+V"], self.paste_position, "Set up the position in the clipboard (a new analysis)")
        self.edit_board_action = a("&Edit board…", ["Ctrl+E"], self.edit_board, "Set up a position by hand (a new analysis)")
        self.start_search_action = a("&Start search from here", ["Ctrl+R"], self.start_search, "Start the long search from the current move")
        self.stop_search_action = a("S&top search", ["Ctrl+."], self.stop_search, "Stop the long search (it can be continued)")
        self.continue_search_action = a("C&ontinue search", ["Ctrl+Shift+R"], self.continue_search, "Continue the last search of this analysis")
        review = self.review
        self.review_action = a("&Review this line", ["Ctrl+L"], review.start, "Review every move of the line through this move: its loss against the advisor's best, and the mistakes")
        self.next_mistake_action = a("Next &mistake", ["Ctrl+Down"], lambda: review.go_to_mistake(1) or self.show_message("No flagged move after this one in the reviewed line", TURN_MESSAGE_MILLISECONDS), "Go to the next inaccuracy, mistake or blunder of the reviewed line")
        self.previous_mistake_action = a("Previous m&istake", ["Ctrl+Up"], lambda: review.go_to_mistake(-1) or self.show_message("No flagged move before this one in the reviewed line", TURN_MESSAGE_MILLISECONDS), "Go to the previous inaccuracy, mistake or blunder of the reviewed line")
        self.training_action = a("&Training: hide the best move", ["Ctrl+T"], lambda: self.set_training(self.training_action.isChecked()), "Hide the advisor's choice at a position until you have chosen your move there; your move is then reviewed")
        self.training_action.setCheckable(True)
        self.export_review_action = a("Export review as &CSV…", [], lambda: review.export("csv"), "Write the reviewed moves of this line as a CSV table")
        self.export_review_json_action = a("Export review as &JSON…", [], lambda: review.export("json"), "Write the line and its reviewed moves as JSON (Import review reads it back)")
        self.import_review_action = a("&Import review…", [], lambda: review.import_file(add_line=self._tree_for_review), "Read a review JSON file: its line joins the tree with its reviews")
        capture = self.capture
        self.capture_action = a("Capture &board…", ["Ctrl+Shift+C"], capture.capture_board, "Drag a rectangle around the real game's board on a frozen screenshot and read it")
        self.recapture_action = a("&Re-capture", ["F6"], capture.recapture, "Read the board again from the region last captured for this game")
        self.follow_action = a("&Follow the game", ["Ctrl+Shift+F"], lambda: capture.set_following(self.follow_action.isChecked()), "Watch the captured region and play the moves made in the real game")
        self.follow_action.setCheckable(True)
        capture.following_changed.connect(self.follow_action.setChecked)
        overlay = self.advice_overlay
        self.overlay_action = a("Show advice on the &game", ["Ctrl+Shift+A"], lambda: overlay.set_enabled(self.overlay_action.isChecked()), "Draw the best move over the real game, in the captured region (follows the game; clicks and keys pass through to it)")
        self.overlay_action.setCheckable(True)
        overlay.enabled_changed.connect(self.overlay_action.setChecked)
        self.overlay_opacity_actions = []
        opacity_group = QActionGroup(self)
        for value in OPACITIES:
            action = QAction(f"{value:.0%}", self)
            action.setCheckable(True)
            action.setChecked(abs(value - overlay.opacity) < 0.01)
            action.triggered.connect(functools.partial(overlay.set_opacity, value))
            opacity_group.addAction(action)
            self.overlay_opacity_actions.append(action)
        self.open_image_action = a("Open &screenshot file…", ["Ctrl+Shift+O"], capture.open_image_file, "Read the board from a screenshot file")
        self.paste_image_action = a("Paste &image", ["Ctrl+Shift+V"], capture.paste_image, "Read the board from the image in the clipboard")
        self.shortcuts_action = a("&Keyboard shortcuts", ["?", "F1"], self.show_shortcuts, "Show every keyboard shortcut")
        group = QActionGroup(self)
        self.analysis_layout_action = a("&Analysis layout", ["Ctrl+1"], lambda: self.set_layout(ANALYSIS_LAYOUT), "Board, advisor, move tree, graph and sequence editor")
        self.compact_layout_action = a("Co&mpact layout", ["Ctrl+2"], lambda: self.set_layout(COMPACT_LAYOUT), "A narrow window to keep beside the real game: board and the top candidates")
        for action in (self.analysis_layout_action, self.compact_layout_action):
            action.setCheckable(True)
            group.addAction(action)

    def _create_menus(self) -> None:
        menu = self.menuBar().addMenu("&Game")
        for action in (self.new_action, self.open_action, self.save_action, None, self.edit_board_action,
                       self.copy_action, self.paste_action, None, self.close_analysis_action, self.quit_action):
            menu.addSeparator() if action is None else menu.addAction(action)
        menu = self.menuBar().addMenu("&Moves")
        for action in (self.undo_action, self.redo_action, self.previous_variation_action, self.next_variation_action,
                       self.start_action, self.end_action, None, self.promote_action, self.delete_action, None,
                       self.play_best_action, None, self.review_action, self.next_mistake_action,
                       self.previous_mistake_action, self.training_action, None, self.export_review_action,
                       self.export_review_json_action, self.import_review_action):
            menu.addSeparator() if action is None else menu.addAction(action)
        menu = self.menuBar().addMenu("&Capture")
        for action in (self.capture_action, self.recapture_action, self.follow_action, self.overlay_action, None,
                       self.open_image_action, self.paste_image_action):
            menu.addSeparator() if action is None else menu.addAction(action)
        opacity_menu = menu.addMenu("Advice overlay &opacity")
        for action in self.overlay_opacity_actions:
            opacity_menu.addAction(action)
        menu = self.menuBar().addMenu("&Search")
        for action in (self.start_search_action, self.stop_search_action, self.continue_search_action):
            menu.addAction(action)
        self.view_menu = self.menuBar().addMenu("&View")
        self.view_menu.addAction(self.analysis_layout_action)
        self.view_menu.addAction(self.compact_layout_action)
        self.view_menu.addSeparator()
        menu = self.menuBar().addMenu("&Help")
        menu.addAction(self.shortcuts_action)

    def _create_toolbar(self) -> None:
        toolbar = QToolBar("Game", self)
        toolbar.setObjectName("gameToolbar")
        toolbar.setMovable(False)
        # the pickers' labels go in the compact layout (the pickers say what they hold)
        self._picker_labels = [toolbar.addWidget(QLabel(" Game: "))]
        self.game_picker = QComboBox()
        self.game_picker.setObjectName("gamePicker")
        self.game_picker.setFocusPolicy(Qt.FocusPolicy.ClickFocus)
        self.game_picker.setToolTip("The game")
        for short_name, game in GAMES.items():
            self.game_picker.addItem(game.title, short_name)
        self.game_picker.activated.connect(self._game_picked)
        toolbar.addWidget(self.game_picker)
        self._picker_labels.append(toolbar.addWidget(QLabel("  Analysis: ")))
        self.analysis_picker = ElidingComboBox()
        self.analysis_picker.setObjectName("analysisPicker")
        self.analysis_picker.setFocusPolicy(Qt.FocusPolicy.ClickFocus)
        self.analysis_picker.setMinimumContentsLength(ANALYSIS_PICKER_LETTERS)
        # as wide as the letters asked for, not as the longest name: the compact window is narrow
        self.analysis_picker.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
        self.analysis_picker.activated.connect(self._analysis_picked)
        toolbar.addWidget(self.analysis_picker)
        self.addToolBar(toolbar)
        # the buttons have a toolbar of their own: the compact layout hides it (the menus and
        # keys still have every action)
        self.buttons_toolbar = QToolBar("Buttons", self)
        self.buttons_toolbar.setObjectName("buttonsToolbar")
        self.buttons_toolbar.setMovable(False)
        for action in (self.new_action, self.edit_board_action, self.capture_action, self.follow_action, None,
                       self.start_action, self.undo_action, self.redo_action, self.end_action, None,
                       self.compact_layout_action):  # (this toolbar only shows in the analysis layout)
            self.buttons_toolbar.addSeparator() if action is None else self.buttons_toolbar.addAction(action)
        self.addToolBar(self.buttons_toolbar)

    def _dock(self, title: str, name: str, widget: QWidget, area: Qt.DockWidgetArea) -> QDockWidget:
        dock = QDockWidget(title, self)
        dock.setObjectName(name)
        dock.setWidget(widget)
        dock.setFeatures(
            QDockWidget.DockWidgetFeature.DockWidgetMovable | QDockWidget.DockWidgetFeature.DockWidgetClosable
            | QDockWidget.DockWidgetFeature.DockWidgetFloatable
        )
        self.addDockWidget(area, dock)
        self.view_menu.addAction(dock.toggleViewAction())
        return dock

    def _create_docks(self) -> None:
        self.advisor_panel = AdvisorPanel()
        self.advisor_panel.candidate_played.connect(self.play)
        self.advisor_panel.candidate_hovered.connect(lambda move: self.board.preview_move(move))
        self.advisor_panel.candidates_shown.connect(lambda candidates: self.board.show_advice(candidates))
        self.advisor_panel.candidates_shown.connect(self.advice_overlay.candidates_shown)
        self.advisor_panel.candidates_shown.connect(lambda _candidates: self._make_room_for_columns())
        self.advisor_panel.candidates_shown.connect(self._update_candidate_actions)
        self.advisor_panel.start_requested.connect(self.start_search)
        self.advisor_panel.stop_requested.connect(self.stop_search)
        self.advisor_panel.continue_requested.connect(self.continue_search)
        self.advisor_panel.set_cluster_address(str(self._settings.value(CLUSTER_KEY, "") or ""))
        self.advisor_panel.cluster_address_changed.connect(lambda text: self._settings.setValue(CLUSTER_KEY, text))
        self.advisor_panel.search_option_changed.connect(
            lambda key, value: self._settings.setValue(search_option_key(self.game.short_name, key), value))
        self.advisor_dock = self._dock("Advisor", "advisorDock", self.advisor_panel, Qt.DockWidgetArea.RightDockWidgetArea)

        self.tree_view = MoveTreeView()
        self.tree_view.tree_edited.connect(lambda text: self.show_message(text, TURN_MESSAGE_MILLISECONDS))
        self.tree_view.line_copied.connect(lambda text: self.show_message("Line copied", TURN_MESSAGE_MILLISECONDS))
        self.score_graph = ScoreGraph()
        moves = QSplitter(Qt.Orientation.Vertical)
        moves.addWidget(self.tree_view)
        moves.addWidget(self.score_graph)
        moves.setStretchFactor(0, 4)
        moves.setStretchFactor(1, 1)
        moves.setMinimumWidth(MOVES_MINIMUM_WIDTH)  # "110. Z@" and an unreadable graph below that
        self.tree_dock = self._dock("Moves", "treeDock", moves, Qt.DockWidgetArea.RightDockWidgetArea)

        self.sequence_editor = SequenceEditor()
        self.sequence_editor.line_applied.connect(self.apply_line)
        self.sequence_editor.continue_search_requested.connect(self.search_line)
        self.sequence_dock = self._dock("Sequence", "sequenceDock", self.sequence_editor, Qt.DockWidgetArea.BottomDockWidgetArea)
        self.review_dock = self._dock("Review", "reviewDock", self.review.panel, Qt.DockWidgetArea.BottomDockWidgetArea)
        self.review_dock.visibilityChanged.connect(lambda shown: shown and (self.review.prepare(), self.review.panel.refresh()))
        # beside the sequence, not tabified with it: after a layout switch Qt left the old tab bars
        # of tabified docks visible, drawn over the board
        self.splitDockWidget(self.sequence_dock, self.review_dock, Qt.Orientation.Horizontal)
        self.review_dock.hide()  # until the player reviews a line (or opens it from View)
        self.splitDockWidget(self.advisor_dock, self.tree_dock, Qt.Orientation.Horizontal)

    def _create_status_bar(self) -> None:
        """Two lines: the latest message (what a turn did, why a move is illegal) above the
        position line. Both stay visible, so nothing is hidden behind a temporary message."""
        panel = QWidget()
        lines = QVBoxLayout(panel)
        lines.setContentsMargins(4, 0, 4, 0)
        lines.setSpacing(0)
        self.message_label = QLabel()
        self.message_label.setObjectName("messageLabel")
        self.message_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.position_label = ElidedLabel()  # cut with "…" in a narrow window, whole in its tooltip
        self.position_label.setObjectName("positionLabel")
        for label in (self.message_label, self.position_label):
            label.setMinimumWidth(1)  # long text is cut, it never widens the window
            lines.addWidget(label)
        self.statusBar().addWidget(panel, 1)
        self.statusBar().addPermanentWidget(self.capture.indicator)
        self.statusBar().addPermanentWidget(self.capture.load_reading_button)
        self._message_timer = QTimer(self)
        self._message_timer.setSingleShot(True)
        self._message_timer.timeout.connect(self.message_label.clear)

    def show_message(self, text: str, milliseconds: int = 0) -> None:
        """Show ``text`` on the message line, for ``milliseconds`` (0: until the next one)."""
        self._message_timer.stop()
        self.message_label.setText(text)
        self.message_label.setToolTip(text)
        if milliseconds > 0 and text:
            self._message_timer.start(milliseconds)

    # -- layouts --------------------------------------------------------------------------------
    def set_layout(self, name: str) -> None:
        """``analysis`` (every panel) or ``compact`` (board and top candidates, to sit beside
        the real game). Each layout remembers its panels, and its window size per game; a
        layout shown for the first time is fitted to the board (see :meth:`fit_to_board`)."""
        if name not in (ANALYSIS_LAYOUT, COMPACT_LAYOUT):
            raise ValueError(f"unknown layout {name!r}")
        if self.isVisible() and self._remember_geometry:
            self._remember_layout()
        self._layout = name
        compact = name == COMPACT_LAYOUT
        saved = self._settings.value(DOCKS_KEY + name) if self._remember_geometry else None
        if not (isinstance(saved, QByteArray) and not saved.isEmpty() and self.restoreState(saved)):
            self._default_docks(compact)
        if compact:  # what compact shows does not depend on what was saved
            self.tree_dock.hide()
            self.sequence_dock.hide()
            self.review_dock.hide()
            self.advisor_dock.show()
            if self.dockWidgetArea(self.advisor_dock) != Qt.DockWidgetArea.BottomDockWidgetArea:
                self.addDockWidget(Qt.DockWidgetArea.BottomDockWidgetArea, self.advisor_dock)
        self.advisor_panel.set_compact(compact)
        self._show_toolbar_for_layout(compact)
        (self.compact_layout_action if compact else self.analysis_layout_action).setChecked(True)
        if self._remember_geometry:
            self._settings.setValue(LAYOUT_KEY, name)
        self.session.layout = name
        geometry = self._settings.value(GEOMETRY_KEY + name) if self._remember_geometry else None
        if isinstance(geometry, QByteArray) and not geometry.isEmpty():
            self.restoreGeometry(geometry)  # where the window was; its size is per game
        self._fit_game_size()
        # the restored panels settle at the next turn of the event loop: size them again then
        QTimer.singleShot(0, self._fit_docks)

    def _show_toolbar_for_layout(self, compact: bool) -> None:
        """The compact window keeps the game and analysis pickers; its buttons are in the menus."""
        self.buttons_toolbar.setVisible(not compact)
        for label in self._picker_labels:
            label.setVisible(not compact)
        self.analysis_picker.setMinimumContentsLength(COMPACT_PICKER_LETTERS if compact else ANALYSIS_PICKER_LETTERS)

    def _size_key(self) -> str:
        return f"{SIZE_KEY}{self._layout}/{self.game.short_name}"

    def _fit_game_size(self) -> None:
        """The window size remembered for this layout and game, else one fitted to the board;
        then the panels are sized around the board."""
        size = self._settings.value(self._size_key()) if self._remember_geometry else None
        if isinstance(size, QSize) and size.isValid():
            self._settle_layout()
            self.resize(size.expandedTo(self.minimumSizeHint()).boundedTo(self._available_screen().size()))
            if self._layout == COMPACT_LAYOUT:  # the board takes the height, the panel its rows
                self.resizeDocks([self.advisor_dock], [self.advisor_dock.sizeHint().height()], Qt.Orientation.Vertical)
            self._fit_docks()
        else:
            self.fit_to_board()

    def _settle_layout(self) -> None:
        """Lay the window out now (a board or dock just changed is otherwise placed at the next
        turn of the event loop), so sizes read next are the ones a person will see."""
        QCoreApplication.sendPostedEvents(None, QEvent.Type.LayoutRequest)
        self.layout().activate()

    def fit_to_board(self) -> None:
        """Give the board the room it needs: its natural size where the screen allows, never
        less than its readable minimum; the panels get the rest (never less than what their key
        columns need). Compact: the narrowest window that shows the board, the menus and the
        top candidates, as tall as its contents."""
        self._settle_layout()
        available = self._available_screen()
        natural, minimum = self.board.sizeHint(), self.board.minimumSizeHint()
        if self._layout == COMPACT_LAYOUT:
            panel_height = self.advisor_dock.sizeHint().height()
            toolbars = sum(bar.sizeHint().height() for bar in self.findChildren(QToolBar) if not bar.isHidden())
            around = (self.menuBar().sizeHint().height() + toolbars + panel_height + DOCK_SEPARATORS
                      + self.statusBar().sizeHint().height())
            board_height = max(minimum.height(), min(natural.height(), available.height() - around - WINDOW_FRAME))
            board_width = max(minimum.width(), round(natural.width() * board_height / natural.height()))
            toolbar_width = max((bar.sizeHint().width() for bar in self.findChildren(QToolBar) if not bar.isHidden()), default=0)
            width = max(board_width, self.minimumSizeHint().width(), self.menuBar().sizeHint().width(),
                        self.advisor_panel.needed_width(), toolbar_width)
            self.resize(min(width, available.width()), board_height + around)
            self.resizeDocks([self.advisor_dock], [panel_height], Qt.Orientation.Vertical)
            return
        self._fit_docks(grow=True)

    def _fit_docks(self, grow: bool = False) -> None:
        """Analysis layout: size the right-hand panels so that the board gets its natural width
        for the height it has (at least its minimum); with ``grow`` the window widens (within
        the screen) when the panels would otherwise go below what they need."""
        if self._layout != ANALYSIS_LAYOUT or not self.advisor_dock.isVisible():
            return
        self._settle_layout()
        minimum = self.board.minimumSizeHint()
        # the board's height is the right-hand panels' (a board just built is not laid out yet)
        board_height = max(minimum.height(), self.advisor_dock.height())
        board_width = max(minimum.width(), self._natural_board_width(board_height))
        docks, least, wanted = [self.advisor_dock], [self.advisor_panel.needed_width()], [ADVISOR_WIDTH]
        if self.tree_dock.isVisible() and self.dockWidgetArea(self.tree_dock) == self.dockWidgetArea(self.advisor_dock):
            docks.append(self.tree_dock)
            least.append(MOVES_MINIMUM_WIDTH)
            wanted.append(MOVES_WIDTH)
        wanted = [max(a, b) for a, b in zip(least, wanted)]
        separators = DOCK_SEPARATORS * len(docks)
        if grow and self.width() < board_width + sum(wanted) + separators:
            # a board fitted anew gets its natural width where the screen has room for it
            width = min(board_width + sum(wanted) + separators, self._available_screen().width() - WINDOW_FRAME)
            self.resize(max(width, self.width()), self.height())
            self._settle_layout()
        board_width = max(minimum.width(), min(board_width, self.width() - sum(least) - separators))
        spare = max(0, self.width() - board_width - separators - sum(least))
        widths = list(least)
        for place in range(len(widths)):  # first up to what each panel wants, then the advisor
            extra = min(spare, wanted[place] - widths[place])
            widths[place] += extra
            spare -= extra
        widths[0] += round(spare * (0.6 if len(widths) > 1 else 1.0))
        if len(widths) > 1:
            widths[1] += spare - round(spare * 0.6)
        self.resizeDocks(docks, widths, Qt.Orientation.Horizontal)
        self._settle_layout()

    def _natural_board_width(self, height: int) -> int:
        """The board's natural width at ``height`` (its natural shape, never wider than natural)."""
        natural = self.board.sizeHint()
        return min(natural.width(), round(natural.width() * height / max(1, natural.height())))

    def _update_candidate_actions(self, candidates: list[Any]) -> None:
        """Space and 1-9 act only when there is such a candidate (none while the advisor thinks,
        at a chance step or at the end of a game)."""
        playable = [getattr(candidate, "legal", True) for candidate in candidates]  # (2048 lists all four)
        self.play_best_action.setEnabled(bool(playable) and playable[0])
        for place, action in enumerate(self.play_candidate_actions):
            action.setEnabled(place < len(playable) and playable[place])

    def _make_room_for_columns(self) -> None:
        """Candidates whose columns need more width than the advisor has (a level's first
        advice, a long line): the panels are sized again, the window widening if the screen has
        room, rather than the board being squeezed to its minimum."""
        if self._layout_applied and self._layout == ANALYSIS_LAYOUT and self.isVisible() \
                and self.advisor_panel.needed_width() > self.advisor_dock.width():
            self._fit_docks(grow=True)

    def showEvent(self, event) -> None:  # noqa: N802 (Qt name)
        super().showEvent(event)
        if not self._shown_once:  # the first layout was computed hidden: fit it as it is seen
            self._shown_once = True
            if self._layout_applied:
                self._fit_game_size()

    _shown_once = False

    def resizeEvent(self, event) -> None:  # noqa: N802 (Qt name)
        super().resizeEvent(event)
        if self._layout_applied:
            self._rebalance_timer.start()

    def _rebalance_docks(self) -> None:
        """After the player resized the window: Qt takes a smaller window's width from the board
        alone; the panels give back what they hold beyond what they want first."""
        if self._layout != ANALYSIS_LAYOUT or not self.isVisible():
            return
        wanted = self._natural_board_width(self.board.height())
        spare = self.advisor_dock.width() - max(ADVISOR_WIDTH, self.advisor_panel.needed_width())
        if self.tree_dock.isVisible():
            spare += self.tree_dock.width() - MOVES_WIDTH
        if self.board.width() + 2 < wanted and spare > 0:
            self._fit_docks()

    def _available_screen(self) -> QRect:
        screen = self.screen() or QGuiApplication.primaryScreen()
        return screen.availableGeometry() if screen is not None else QRect(0, 0, *DEFAULT_SIZE)

    def _default_docks(self, compact: bool) -> None:
        """First use of a layout: compact puts the candidates under the board of a narrow
        window; analysis puts the advisor and the moves right of the board, the sequence below."""
        self.advisor_dock.setVisible(True)
        self.tree_dock.setVisible(not compact)
        self.sequence_dock.setVisible(not compact)
        self.review_dock.setVisible(False)  # it comes with a review (Ctrl+L) or from View
        if compact:
            self.addDockWidget(Qt.DockWidgetArea.BottomDockWidgetArea, self.advisor_dock)
        else:
            self.addDockWidget(Qt.DockWidgetArea.RightDockWidgetArea, self.advisor_dock)
            self.splitDockWidget(self.advisor_dock, self.tree_dock, Qt.Orientation.Horizontal)
            self.resizeDocks([self.sequence_dock], [SEQUENCE_HEIGHT], Qt.Orientation.Vertical)

    def _remember_layout(self) -> None:
        self._settings.setValue(DOCKS_KEY + self._layout, self.saveState())
        self._settings.setValue(GEOMETRY_KEY + self._layout, self.saveGeometry())
        if hasattr(self, "game"):
            self._settings.setValue(self._size_key(), self.size())

    @property
    def layout_name(self) -> str:
        return self._layout

    # -- games and analyses ---------------------------------------------------------------------
    @property
    def tree(self) -> MoveTree:
        return self.analysis.tree

    @property
    def state(self) -> Any:
        """The position shown."""
        return self.tree.current.state

    def set_game(self, short_name: str) -> None:
        """Switch to another game of ``engines.GAMES``: its most recent analysis, or a new game."""
        self._open_game(short_name)

    def _open_game(self, short_name: str) -> None:
        if not self.preparation.is_ready(short_name):
            self.preparation.request(short_name, first=True)
            self._show_preparing(short_name)
            return
        if self._preparing_game is not None:  # the player left a game still being prepared
            self._preparing_game = None
            self._enable_position_actions()
        for analysis in reversed(self.session.analyses):
            if analysis.game.short_name == short_name:
                self._show_analysis(analysis)
                return
        game = GAMES[short_name]
        self._add_analysis(Analysis(self._new_name(game, "new game"), MoveTree(game)))

    def _new_name(self, game: Game, what: str) -> str:
        return f"{game.title} {what} · {datetime.datetime.now():%H:%M:%S}"

    def _add_analysis(self, analysis: Analysis) -> None:
        self.session.analyses.append(analysis)
        self._show_analysis(analysis)
        self._schedule_save()

    def _show_analysis(self, analysis: Analysis) -> None:
        """Show ``analysis`` (building the game's board and panels if the game changes)."""
        previous = getattr(self, "analysis", None)
        if previous is not None:
            previous.tree.unsubscribe(self._tree_changed)
        self.analysis = analysis
        self.session.current = self.session.analyses.index(analysis)
        game = analysis.game
        if previous is None or previous.game is not game or not hasattr(self, "board") or isinstance(self.board, PreparingBoard):
            self._build_game(game)
        analysis.tree.subscribe(self._tree_changed)
        self.tree_view.set_tree(analysis.tree, game)
        self.score_graph.set_tree(analysis.tree, game)
        self.sequence_editor.set_game(game)  # (forgets the search's name: set it again)
        search = self.ui.search_jobs
        self.sequence_editor.set_search_name(search.name if search is not None else None)
        self._fill_analysis_picker()
        self.board.show_position(self.state)
        self._shown = analysis.tree.current
        self._update_search_panel()
        self.review.panel.refresh()
        self.show_message("")
        self._refresh()
        self.capture.analysis_shown()
        # a position shown is played on at once: its keys (2048's WASD, HATETRIS's ghost keys, ...)
        # must reach the board without a click first (a dialog closing gives the focus back here)
        self.board.setFocus(Qt.FocusReason.OtherFocusReason)

    def _build_game(self, game: Game) -> None:
        # The first start compiles the numba kernels (seconds); do it off the GUI thread so the
        # window paints and reacts meanwhile (later starts only load them from numba's cache).
        # (a plain Python thread: numba kernels run from Qt's pool threads could deadlock with
        # a search thread compiling the same kernels)
        threading.Thread(target=game.warm_up, name="kibitz-warm-up", daemon=True).start()
        ui = ui_for(game.short_name)
        board = ui.make_board(game, self)
        board.move_chosen.connect(self.play)
        switching = self._install_game(game, ui, board)
        search = self.ui.search_jobs
        if search is None:
            self.advisor_panel.set_search_available(None)
        else:
            options = getattr(search, "options", ())
            chosen = {option.key: self._settings.value(search_option_key(game.short_name, option.key))
                      for option in options}
            self.advisor_panel.set_search_available(search.name, search.counts, search.rate_unit, options,
                                                    {key: value for key, value in chosen.items() if value is not None})
        has_editor = self.ui.make_board_editor is not None
        self.edit_board_action.setEnabled(has_editor)
        self._update_search_actions()
        if switching:  # the new board gets the room it needs, not what the last one left
            self._fit_game_size()

    def _install_game(self, game: Game, ui: GameUi, board: BoardView) -> bool:
        """Put ``game``'s ``board`` in the window with ``ui`` (the last game's window size is
        remembered first); True when it replaces another game's board (a switch)."""
        switching = self._layout_applied and hasattr(self, "game")
        if switching and self._remember_geometry:
            self._settings.setValue(self._size_key(), self.size())
        self.game, self.ui, self.board = game, ui, board
        self.setCentralWidget(board)  # deletes the previous board
        if self.isVisible():  # (Qt would show it at the next turn of the event loop: lay it out now)
            board.show()
        self.advisor_panel.set_game(game, ui)
        self.game_picker.setCurrentIndex(self.game_picker.findData(game.short_name))
        self.setWindowTitle(f"Kibitz — {game.title}")
        return switching

    def _fill_analysis_picker(self) -> None:
        self.analysis_picker.clear()
        for index, analysis in enumerate(self.session.analyses):
            if analysis.game is self.game:
                self.analysis_picker.addItem(analysis.name, index)
        self.analysis_picker.setCurrentIndex(self.analysis_picker.findData(self.session.current))
        self.analysis_picker.setToolTip(self.analysis.name)

    def _game_picked(self, index: int) -> None:
        short_name = self.game_picker.itemData(index)
        if short_name != self.game.short_name:
            self.set_game(short_name)
            self.board.setFocus()

    def _analysis_picked(self, index: int) -> None:
        place = self.analysis_picker.itemData(index)
        if isinstance(place, int) and self.session.analyses[place] is not self.analysis:
            self._show_analysis(self.session.analyses[place])
            self.board.setFocus()

    def new_game(self) -> None:
        """A new analysis from the game's initial position (the others stay in the session)."""
        self._add_analysis(Analysis(self._new_name(self.game, "new game"), MoveTree(self.game)))

    def close_analysis(self) -> None:
        """Remove this analysis from the session (a new game replaces the last one)."""
        if self._search_analysis is self.analysis and self.search_runner.is_running():
            self.show_message("Stop the search of this analysis first.", TURN_MESSAGE_MILLISECONDS)
            return
        analyses = self.session.analyses
        place = analyses.index(self.analysis)
        analyses.pop(place)
        same_game = [a for a in analyses if a.game is self.game]
        if same_game:
            self._show_analysis(same_game[-1])
        else:
            self._add_analysis(Analysis(self._new_name(self.game, "new game"), MoveTree(self.game)))
        self._schedule_save()

    def load_position(self, state: Any, name: str = "position") -> None:
        """Start a new analysis from ``state``."""
        self._add_analysis(Analysis(self._new_name(self.game, name), MoveTree(self.game, state)))

    # -- moves ----------------------------------------------------------------------------------
    def play(self, move: Any) -> bool:
        """Play ``move`` in the position shown (a move already tried there is followed; a new
        one becomes a variation). An illegal move changes nothing and its reason, as the engine
        words it, goes to the status bar."""
        if move is None:
            return False
        training = self.review.withholds(self.tree.current)
        try:
            node = self.tree.play(move)
        except ValueError as error:  # IllegalMoveError, or a move the game cannot read
            self.show_message(f"Cannot play {self.game.move_text(move)}: {error}")
            return False
        if training:
            self.review.judge_played(node)
        return True

    def _show_review_dock(self) -> None:
        """The Review panel, shown when a review starts; the first time beside the sequence
        editor it gets the larger share of the bottom (its summary and table need the width)."""
        if self.review_dock.isVisible():
            return
        if self._layout == COMPACT_LAYOUT:  # the narrow window beside the game keeps its board's room
            self.show_message("Reviewing this line: the Review panel is in the analysis layout (Ctrl+1); "
                              "the window says here when it is done")
            return
        self.review_dock.show()
        if self.sequence_dock.isVisible() and self.dockWidgetArea(self.sequence_dock) == self.dockWidgetArea(
                self.review_dock):
            width = self.sequence_dock.width() + self.review_dock.width()
            self.resizeDocks([self.sequence_dock, self.review_dock], [width * 2 // 5, width * 3 // 5],
                             Qt.Orientation.Horizontal)

    def set_training(self, on: bool) -> None:
        """Training on or off (Moves ▸ Training): see :mod:`app.gui.review`."""
        self.review.set_training(on)
        self.training_action.setChecked(on)
        self._refresh()
        self.show_message("Training: the advisor's choice shows once you have chosen your move" if on
                          else "Training off", TURN_MESSAGE_MILLISECONDS)

    def _tree_for_review(self, loaded) -> MoveTree | None:
        """The tree an imported review's line joins: this one when it is the same game from the
        same start, else a new analysis; None (and the game's preparation asked for) when the
        review is of a game whose kernels are not ready: building it now would compile them in
        the window's process."""
        if loaded.game == self.game.short_name and loaded.line.start == self.tree.root.state:
            return self.tree
        if not self.preparation.is_ready(loaded.game):
            self.preparation.request(loaded.game, first=True)
            return None
        game = GAMES[loaded.game]
        analysis = Analysis(self._new_name(game, "review"), MoveTree(game, loaded.line.start))
        self._add_analysis(analysis)
        return analysis.tree

    def play_best(self) -> None:
        self.play_candidate(0)

    def play_candidate(self, place: int) -> None:
        if self.advisor_panel.withheld:  # training: the player chooses
            return
        if 0 <= place < len(self.candidates):
            self.play(self.candidates[place].move)

    def undo(self) -> None:
        self.tree.back()

    def redo(self) -> None:
        self.tree.forward()

    def previous_variation(self) -> None:
        self.tree.switch_variation(-1)

    def next_variation(self) -> None:
        self.tree.switch_variation(1)

    def go_start(self) -> None:
        self.tree.go_start()

    def go_end(self) -> None:
        self.tree.go_end()

    def promote(self) -> None:
        if self.tree.promote():
            self.show_message("This line is now the main line", TURN_MESSAGE_MILLISECONDS)

    def delete_branch(self) -> None:
        node = self.tree.current
        if node.is_root:
            self.show_message("The start position cannot be deleted (Close analysis removes the whole tree).")
            return
        if self._best_node is not None and any(n is node for n in self.tree.path(self._best_node)):
            self._best_node = None
        removed = self.tree.delete(node)
        self.show_message(f"Deleted {removed} move{'s' if removed != 1 else ''}", TURN_MESSAGE_MILLISECONDS)

    def _tree_changed(self, change: Change, node: Node) -> None:
        """Every change of the shown tree: redraw the board at once when the position changes,
        refresh the rest once the event loop is free, save soon."""
        if change is Change.CURRENT or change is Change.RESET:
            current = self.tree.current
            forward_one = change is Change.CURRENT and current.parent is not None and current is node and self._shown is current.parent
            events = current.events if forward_one else ()
            self.board.show_position(current.state, events)
            self.show_message(self.ui.summarize_turn(events) if events else "", TURN_MESSAGE_MILLISECONDS)
            self._shown = current
            self._refresh_timer.stop()
            self._refresh()
        elif change is not Change.REVIEW:  # the position is the same: one refresh once the event loop is free
            self._refresh_timer.start(0)
        self.review.tree_changed(change)
        self._schedule_save()

    _shown: Node | None = None
    _layout_applied = False
    _preparing_game: str | None = None

    def apply_line(self, line: Line) -> None:
        """Add a line from the sequence editor to the tree (sharing the moves already there) and
        go to its end. A line from another start position opens a new analysis."""
        if line.start != self.tree.root.state:
            analysis = Analysis(self._new_name(self.game, "sequence"), MoveTree(self.game, line.start))
            self._add_analysis(analysis)
        try:
            leaf = self.tree.add_line(line.moves)
        except KibitzInputError as error:  # the editor validates first; this is a safety net
            self.show_message(f"Cannot apply the sequence: {error}")
            return
        self.tree.go_to(leaf)
        self.show_message(f"Sequence applied: {leaf.move_number} moves", TURN_MESSAGE_MILLISECONDS)

    # -- files and positions --------------------------------------------------------------------
    def open_sequence(self, path: str | None = None) -> bool:
        """Open a sequence file as a new analysis; a bad file is reported precisely and changes
        nothing."""
        if path is None:
            path, _ = QFileDialog.getOpenFileName(self, "Open sequence", "", "Sequence files (*.txt);;All files (*)")
            if not path:
                return False
        try:
            line = self.game.parse_sequence(read_text(path), source=path)
            self.game.replay(line.start, line.moves)
        except OSError as error:
            self._show_error("Open sequence", f"Cannot read {path}.", error.strerror or str(error))
            return False
        except KibitzInputError as error:
            self._show_error("Open sequence", f"{os.path.basename(path)} is not a valid {self.game.title} sequence.", str(error))
            return False
        tree = MoveTree(self.game, line.start)
        leaf = tree.add_line(line.moves)
        self._add_analysis(Analysis(f"{Path(path).name}", tree, file=str(path)))
        self.tree.go_to(leaf)
        self.show_message(f"Opened {path}: {len(line.moves)} moves", TURN_MESSAGE_MILLISECONDS)
        return True

    def save_sequence(self, path: str | None = None) -> bool:
        """Save the line through the current move (to its end) as a sequence file."""
        if path is None:
            path, _ = QFileDialog.getSaveFileName(self, "Save sequence", self.analysis.file or "", "Sequence files (*.txt)")
            if not path:
                return False
        try:
            write_text_atomic(path, self.game.sequence_text(self.tree.line(through=True)))
        except OSError as error:
            self._show_error("Save sequence", f"Cannot write {path}; nothing was changed.", error.strerror or str(error))
            return False
        self.analysis.file = str(path)
        self._schedule_save()
        self.show_message(f"Saved {path}", TURN_MESSAGE_MILLISECONDS)
        return True

    def copy_position(self) -> None:
        QGuiApplication.clipboard().setText(self.game.board_text(self.state))
        self.show_message("Position copied", TURN_MESSAGE_MILLISECONDS)

    def paste_position(self, text: str | None = None) -> bool:
        """Start a new analysis from the position in ``text`` (the clipboard's text by default);
        while a chance step is due, text that is its outcome (the game's ``pasted_outcome``) is
        played as a move instead. Text that is not a position opens a message box with the
        parser's precise error; nothing changes. A clipboard holding an image and no text is
        read as a screenshot of the game (as Paste image)."""
        if text is None:
            clipboard = QGuiApplication.clipboard()
            text = clipboard.text()
            if not text.strip() and clipboard.mimeData() is not None and clipboard.mimeData().hasImage():
                return self.capture.paste_image()
        if self.ui.pasted_outcome is not None and self.game.is_chance_node(self.state):
            outcome = self.ui.pasted_outcome(self.game, self.state, text)
            if outcome is not None:
                return self.play(outcome)
        try:
            state = self.game.parse_board(text)
        except ValueError as error:
            self._show_error("Paste position", f"The clipboard does not hold a {self.game.title} position.", str(error))
            return False
        self.load_position(state, "pasted position")
        self.show_message("Position pasted (a new analysis)", TURN_MESSAGE_MILLISECONDS)
        return True

    def edit_board(self) -> QDialog | None:
        """Open the game's board editor on the position shown; accepting it starts a new
        analysis from the edited position. Returns the dialog (it does not block)."""
        if self.ui.make_board_editor is None:
            return None
        dialog = self.ui.make_board_editor(self.game, self.state, self)
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose, True)

        def accepted() -> None:
            self.load_position(dialog.state(), "edited position")
            self.show_message("Edited position (a new analysis)", TURN_MESSAGE_MILLISECONDS)

        dialog.accepted.connect(accepted)
        dialog.open()
        return dialog

    # -- the long search ------------------------------------------------------------------------
    def _search_folder(self) -> Path:
        directory = self._store.directory if self._store is not None else Path(tempfile.gettempdir())
        return directory / "searches" / f"{self.game.short_name}-{datetime.datetime.now():%Y%m%d-%H%M%S-%f}"

    def start_search(self) -> bool:
        """Start the game's long search from the current move of the line shown."""
        return self.search_line(self.tree.line(through=True), self.tree.current.move_number)

    def search_line(self, line: Line, from_move: int) -> bool:
        """Run the long search on ``line``, keeping its first ``from_move`` moves; the line is
        added to the tree first, and every better line found comes back as a branch."""
        jobs = self.ui.search_jobs
        if jobs is None:
            return False
        if self.search_runner.is_running():
            self.show_message("A search is already running; stop it first.", TURN_MESSAGE_MILLISECONDS)
            return False
        if line.start != self.tree.root.state:
            self.apply_line(line)
        else:
            self.tree.add_line(line.moves)
        folder = self._search_folder()
        try:
            job = jobs.start(folder, line, from_move, seconds=self.advisor_panel.budget_seconds(),
                             cluster=self._cluster_address(), **self.advisor_panel.search_options())
        except (OSError, ValueError) as error:
            self._search_failed(str(error))
            return False
        self.analysis.search_folder = str(folder)
        return self._run_search(job, from_move)

    def continue_search(self) -> bool:
        """Continue this analysis's last search from its checkpoint."""
        jobs = self.ui.search_jobs
        folder = self.analysis.search_folder
        if jobs is None or folder is None or self.search_runner.is_running():
            return False
        try:
            job = jobs.resume(folder, seconds=self.advisor_panel.budget_seconds(), cluster=self._cluster_address())
        except (OSError, ValueError) as error:
            self._search_failed(str(error))
            return False
        return self._run_search(job, self._search_start_move)

    def _cluster_address(self) -> str | None:
        """The panel's Run-on address, checked (a KibitzInputError, a ValueError, says which are
        known); None for this computer."""
        address = self.advisor_panel.cluster_address()
        return None if address is None else check_address(address)

    def _run_search(self, job: Any, from_move: int) -> bool:
        self._search_analysis = self.analysis
        self._search_start_move = from_move
        self._best_value = None
        self.search_runner.start(job)
        self._search_started_at = time.monotonic()
        self._last_progress = None
        where = getattr(job, "cluster", None)
        settings = getattr(job, "settings_text", None)  # a new search's options, in words
        self._search_message = f"{self.ui.search_jobs.name} from move {from_move}" + (
            f" ({settings})" if settings else "") + (f" on the cluster at {where}" if where else "")
        self._search_clock.start()
        self.advisor_panel.show_search_progress(
            running=True, games=0, best="–", rate=0.0, elapsed=0.0, fraction=None, can_continue=False,
            message=self._search_message,
        )
        self._update_search_actions()
        self._schedule_save()
        return True

    def _tick_search_clock(self) -> None:
        """The elapsed time moves on between progress reports (a beam's first level can take
        seconds before the search reports anything)."""
        if not self.search_runner.is_running():
            self._search_clock.stop()
            return
        if self._search_analysis is self.analysis:
            self._show_search_progress(self._last_progress, running=True)

    def _show_search_progress(self, progress: Any, running: bool, message: str | None = None) -> None:
        """The panel's numbers: the last report's (kept after the search ends), the clock's time."""
        elapsed = time.monotonic() - self._search_started_at if running else (progress.elapsed if progress else 0.0)
        if progress is not None and running:
            elapsed = max(elapsed, progress.elapsed)
        self.advisor_panel.show_search_progress(
            running=running,
            games=progress.games if progress is not None else 0,
            best=progress.best_text if progress is not None else "–",
            rate=progress.rate if progress is not None else 0.0,
            elapsed=elapsed,
            fraction=progress.fraction if progress is not None and running else None,
            can_continue=not running and self.analysis.search_folder is not None,
            message=self._search_message if message is None else message,
        )

    def _update_search_actions(self) -> None:
        """Start and Continue while no search runs (Continue with a search to continue), Stop
        while one runs: the menu and keys as the panel's buttons."""
        available = self.ui.search_jobs is not None and self._preparing_game is None
        running = self.search_runner.is_running()
        self.start_search_action.setEnabled(available and not running)
        self.stop_search_action.setEnabled(running)
        self.continue_search_action.setEnabled(
            available and not running and getattr(self, "analysis", None) is not None
            and self.analysis.search_folder is not None
        )

    def stop_search(self) -> None:
        if self.search_runner.is_running():
            self.search_runner.stop()
            self.show_message("Stopping the search…")

    def _search_progress(self, progress: Any) -> None:
        self._last_progress = progress
        if self._search_analysis is self.analysis:
            self._show_search_progress(progress, running=True)

    def _search_new_best(self, found: Any) -> None:
        """A better line: add it to the searched analysis's tree as a branch, marked best."""
        analysis = self._search_analysis
        if analysis is None:
            return
        line, value = found.new_best, found.best_value
        if line is None or (self._best_value is not None and value <= self._best_value):
            return  # not better than the best already in the tree (a beam reports each depth's)
        self._best_value = value
        tree = analysis.tree
        name = self.ui.search_jobs.name if self.ui.search_jobs is not None else "search"
        try:
            leaf = tree.add_line(line.moves)
        except KibitzInputError as error:
            self.show_message(f"The search sent a line that does not replay: {error}")
            return
        if self._best_node is not None and self._best_node is not leaf:
            tree.set_label(self._best_node, self._best_node.label.removeprefix(BEST_MARK))
        tree.set_label(leaf, f"{BEST_MARK}{name}: {value:,}")
        self._best_node = leaf
        self._schedule_save()

    def _search_finished(self, outcome: Any) -> None:
        self._update_search_panel(outcome.reason)
        self.show_message(f"Search ended: {outcome.reason}", TURN_MESSAGE_MILLISECONDS)
        self._schedule_save()

    def _search_failed(self, message: str) -> None:
        self._update_search_panel(message)
        self._show_error("Search", "The search could not run.", message)

    def _update_search_panel(self, message: str = "") -> None:
        running = self.search_runner.is_running() and self._search_analysis is self.analysis
        # the last numbers of this analysis's search stay (a stopped search's best is news)
        progress = self._last_progress if self._search_analysis is self.analysis else None
        self._show_search_progress(progress, running=running, message=message)
        self._update_search_actions()

    # -- status ---------------------------------------------------------------------------------
    def position_text(self) -> str:
        """The permanent status line (splits, score, ... for SPL-T)."""
        return self.position_label.text()

    def message_text(self) -> str:
        """The message line (a turn summary, an illegal move's reason)."""
        return self.message_label.text()

    @property
    def error_box(self) -> QMessageBox | None:
        """The last error message box opened (it does not block: it is shown with open())."""
        return self._error_box

    def _show_error(self, title: str, text: str, details: str) -> None:
        if self._error_box is not None:
            self._error_box.close()
        box = QMessageBox(QMessageBox.Icon.Warning, title, text, QMessageBox.StandardButton.Ok, self)
        box.setInformativeText(details)
        box.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose, False)
        self._error_box = box
        box.open()

    def show_shortcuts(self) -> ShortcutsDialog:
        """The "?" window, for the game shown (its board's keys differ per game)."""
        dialog = self._shortcuts_dialog
        if dialog is not None and dialog.board_rows != self.ui.board_help:
            dialog.close()
            dialog.deleteLater()
            self._shortcuts_dialog = None
        if self._shortcuts_dialog is None:
            self._shortcuts_dialog = ShortcutsDialog(self.actions(), self, self.ui.board_help, self.game.title)
        self._shortcuts_dialog.show()
        self._shortcuts_dialog.raise_()
        return self._shortcuts_dialog

    def _refresh(self) -> None:
        """Status line, actions, the advisor's candidates and the sequence editor, for the
        current node (the ranking is a few milliseconds; see benchmarks/gui_responsiveness.py)."""
        if self._preparing_game is not None:
            return
        tree, state = self.tree, self.state
        self.position_label.setText(self.ui.describe(self.game, state))
        current = tree.current
        self.undo_action.setEnabled(current.parent is not None)
        self.redo_action.setEnabled(bool(current.children))
        self.start_action.setEnabled(current.parent is not None)
        self.end_action.setEnabled(bool(current.children))
        siblings = current.parent.children if current.parent is not None else [current]
        self.previous_variation_action.setEnabled(siblings.index(current) > 0)
        self.next_variation_action.setEnabled(siblings.index(current) < len(siblings) - 1)
        self.promote_action.setEnabled(not current.is_main_line)
        self.delete_action.setEnabled(current.parent is not None)
        self._rank_token += 1
        self._followed_rank_timer.stop()
        self.advisor_panel.withhold(
            f"Training: choose your {self.ui.move_noun}; the advisor's choice shows once you have (Ctrl+T ends training)"
            if self.review.withholds(current) else "")
        if self.ui.rank is not None and self.ui.rank_off_thread:
            self._rank_in_background(state, wait_for_pause=self.capture.is_following())
        else:
            self.candidates = list(self.ui.rank(state, None)) if self.ui.rank is not None else []
            self.advisor_panel.show_candidates(state, self.candidates)  # the board gets them too
        # the editor re-renders and re-checks the whole line (~10 ms for 1,200 moves): after the
        # move has been shown, and once for a burst of moves
        self._sequence_timer.start(SEQUENCE_DELAY_MILLISECONDS)

    def _rank_in_background(self, state: Any, wait_for_pause: bool = False) -> None:
        """Rank ``state`` in the rank worker (a cached ranking is shown at once); with
        ``wait_for_pause`` (follow mode) the worker starts only once the position has stayed
        FOLLOWED_RANK_DELAY_MILLISECONDS."""
        try:
            cached = self._rank_cache.get(state)
        except TypeError:  # an unhashable state: no cache
            cached = None
        if cached is not None:
            self._rank_cache.move_to_end(state)
            self._rank_pending = False
            self.candidates = list(cached)
            self.advisor_panel.show_candidates(state, self.candidates)
            return
        self.candidates = []
        self.advisor_panel.show_candidates(state, [])
        if self.game.is_over(state) or self.game.is_chance_node(state):
            self._rank_pending = False
            return
        self._rank_pending = True
        self.advisor_panel.show_thinking()
        if wait_for_pause:
            self._followed_rank_timer.start()
            return
        self._rank_pool.submit(self._rank_job, self.ui.rank, state, self._rank_token)

    def _rank_job(self, rank, state: Any, token: int) -> None:
        """Runs in the rank worker (a plain Python thread, as the rollouts)."""
        if token != self._rank_token:
            return  # a position left before its turn came
        try:
            result: Any = list(rank(state, None))
        except Exception as error:  # noqa: BLE001 - reported in the window, never raised in a worker
            result = error
        try:
            self._rank_signals.done.emit(token, state, result)
        except RuntimeError:  # the window was closed meanwhile
            pass

    def _ranked(self, token: int, state: Any, result: Any) -> None:
        if isinstance(result, Exception):
            if token == self._rank_token:
                self._rank_pending = False
                self.statusBar().showMessage(f"The advisor failed: {result}", 10000)
            return
        try:
            self._rank_cache[state] = result
            while len(self._rank_cache) > RANK_CACHE_SIZE:
                self._rank_cache.popitem(last=False)
        except TypeError:
            pass
        if token != self._rank_token:
            return
        self._rank_pending = False
        self.candidates = list(result)
        self.advisor_panel.show_candidates(state, self.candidates)

    def rank_pending(self) -> bool:
        """True while a slow advisor works on the position shown."""
        return self._rank_pending

    def _show_line_in_editor(self) -> None:
        if self._preparing_game is not None:
            return
        self.sequence_editor.show_line(self.tree.line(through=True), self.tree.current.move_number)

    # -- session --------------------------------------------------------------------------------
    def _schedule_save(self) -> None:
        if self._store is not None:
            self._save_timer.start(AUTOSAVE_MILLISECONDS)

    def schedule_save(self) -> None:
        """Save the session soon (a tree not shown changed: a review finishing in it)."""
        self._schedule_save()

    def save_session(self) -> bool:
        """Write the session now (atomically). A failure is reported on the message line and
        the previous session file stays as it was."""
        self._save_timer.stop()
        if self._store is None:
            return False
        try:
            self._store.save(self.session)
        except OSError as error:
            self.show_message(f"Could not save the session to {self._store.path}: {error.strerror or error}")
            return False
        return True

    # -- closing --------------------------------------------------------------------------------
    def closeEvent(self, event: QCloseEvent) -> None:  # noqa: N802 (Qt name)
        self.preparation.stop()
        self.advice_overlay.set_enabled(False)
        self.capture.stop_following()
        if self.search_runner.is_running():
            self.search_runner.stop()
            self.search_runner.wait(10.0)
        self.review.finish_before_closing()  # its rows so far go into the session saved below
        self.review.close()
        if self._remember_geometry:
            self._remember_layout()
            self._settings.sync()
        self.save_session()
        super().closeEvent(event)
