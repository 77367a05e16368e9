"""The main window: a game picker, the chosen game's board view, undo/redo over a list of
positions, copy/paste of positions and a status line.

The window is game-agnostic: it plays moves through ``engines.GAMES[name]`` and gets the board
widget and status words from :func:`app.gui.games.ui_for`. Later versions add the advisor panel
and the move tree around the same board view.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QByteArray, QSettings, Qt, QThreadPool, QTimer
from PySide6.QtGui import QAction, QCloseEvent, QGuiApplication, QKeySequence
from PySide6.QtWidgets import (
    QComboBox,
    QLabel,
    QMainWindow,
    QMessageBox,
    QToolBar,
    QVBoxLayout,
    QWidget,
)

from app.gui.board_view import BoardView
from app.gui.games import GameUi, ui_for
from app.gui.history import History
from app.gui.settings import open_settings
from engines import GAMES, Game

DEFAULT_SIZE = (600, 940)
GEOMETRY_KEY = "window/geometry"
TURN_MESSAGE_MILLISECONDS = 8000


class MainWindow(QMainWindow):
    """Kibitz's window for one game at a time (``game_name`` is a key of ``engines.GAMES``)."""

    def __init__(
        self,
        game_name: str = "splt",
        settings: QSettings | None = None,
        remember_geometry: bool = True,
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self._settings = settings if settings is not None else open_settings()
        self._remember_geometry = remember_geometry
        self._error_box: QMessageBox | None = None
        self.game: Game = GAMES[game_name]
        self.ui: GameUi = ui_for(game_name)
        self.history = History(self.game.initial_state())
        self.board: BoardView

        self._create_actions()
        self._create_menus()
        self._create_toolbar()
        self._create_status_bar()
        self.set_game(game_name)

        self.resize(*DEFAULT_SIZE)
        if remember_geometry:
            geometry = self._settings.value(GEOMETRY_KEY)
            if isinstance(geometry, QByteArray) and not geometry.isEmpty():
                self.restoreGeometry(geometry)

    # -- building -------------------------------------------------------------------------------
    def _action(self, text: str, shortcuts: list, slot, tip: str) -> QAction:
        action = QAction(text, self)
        action.setShortcuts([QKeySequence(shortcut) for shortcut in shortcuts])
        action.setStatusTip(tip)
        action.triggered.connect(lambda _checked=False: slot())
        self.addAction(action)  # shortcuts work whatever widget has the focus
        return action

    def _create_actions(self) -> None:
        self.new_action = self._action("&New game", ["Ctrl+N"], self.new_game, "Start a new game")
        self.quit_action = self._action("&Quit", ["Ctrl+Q"], self.close, "Close Kibitz")
        self.undo_action = self._action(
            "&Undo", ["Ctrl+Z", "Left"], self.undo, "Go back one move (Ctrl+Z, Left)"
        )
        self.redo_action = self._action(
            "&Redo", ["Ctrl+Y", "Ctrl+Shift+Z", "Right"], self.redo, "Play the undone move again (Ctrl+Y, Right)"
        )
        self.copy_action = self._action(
            "&Copy position", ["Ctrl+C"], self.copy_position, "Copy the position as text"
        )
        self.paste_action = self._action(
            "&Paste position", ["Ctrl+V"], self.paste_position, "Set up the position in the clipboard"
        )

    def _create_menus(self) -> None:
        game_menu = self.menuBar().addMenu("&Game")
        game_menu.addAction(self.new_action)
        game_menu.addSeparator()
        game_menu.addAction(self.quit_action)
        edit_menu = self.menuBar().addMenu("&Edit")
        edit_menu.addAction(self.undo_action)
        edit_menu.addAction(self.redo_action)
        edit_menu.addSeparator()
        edit_menu.addAction(self.copy_action)
        edit_menu.addAction(self.paste_action)

    def _create_toolbar(self) -> None:
        toolbar = QToolBar("Game", self)
        toolbar.setObjectName("gameToolbar")
        toolbar.setMovable(False)
        toolbar.addWidget(QLabel(" Game: "))
        self.game_picker = QComboBox()
        self.game_picker.setObjectName("gamePicker")
        self.game_picker.setFocusPolicy(Qt.FocusPolicy.ClickFocus)
        for short_name, game in GAMES.items():
            self.game_picker.addItem(game.title, short_name)
        self.game_picker.activated.connect(self._game_picked)
        toolbar.addWidget(self.game_picker)
        toolbar.addSeparator()
        toolbar.addAction(self.new_action)
        toolbar.addAction(self.undo_action)
        toolbar.addAction(self.redo_action)
        self.addToolBar(toolbar)

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
        self.position_label = QLabel()
        self.position_label.setObjectName("positionLabel")
        for label in (self.message_label, self.position_label):
            label.setMinimumWidth(1)  # long text is cut, it never widens the window
            lines.addWidget(label)
        self.statusBar().addWidget(panel, 1)
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

    # -- game and position ----------------------------------------------------------------------
    @property
    def state(self) -> Any:
        """The position shown."""
        return self.history.state

    def set_game(self, short_name: str) -> None:
        """Switch to another game of ``engines.GAMES`` and start a new game of it."""
        self.game = GAMES[short_name]
        # The first start compiles the numba kernels (seconds); do it off the GUI thread so the
        # window paints and reacts meanwhile (later starts only load them from numba's cache).
        QThreadPool.globalInstance().start(self.game.warm_up)
        self.ui = ui_for(short_name)
        self.history.reset(self.game.initial_state())
        self.board = self.ui.make_board(self.game, self)
        self.board.move_chosen.connect(self.play)
        self.setCentralWidget(self.board)  # deletes the previous board
        self.board.show_position(self.state)
        self.game_picker.setCurrentIndex(self.game_picker.findData(short_name))
        self.setWindowTitle(f"Kibitz — {self.game.title}")
        self.show_message("")
        self._refresh()
        self.board.setFocus()

    def _game_picked(self, index: int) -> None:
        short_name = self.game_picker.itemData(index)
        if short_name != self.game.short_name:
            self.set_game(short_name)

    def play(self, move: Any) -> bool:
        """Play ``move`` in the position shown. An illegal move changes nothing and its reason,
        as the engine words it, goes to the status bar."""
        try:
            step = self.game.play(self.state, move)
        except ValueError as error:  # IllegalMoveError, or a move the game cannot read
            self.show_message(f"Cannot play {self.game.move_text(move)}: {error}")
            return False
        self.history.push(step.state, move, step.events)
        self.board.show_position(step.state, step.events)
        self.show_message(self.ui.summarize_turn(step.events), TURN_MESSAGE_MILLISECONDS)
        self._refresh()
        return True

    def undo(self) -> None:
        if self.history.undo() is None:
            return
        self.board.show_position(self.state)
        self.show_message("")
        self._refresh()

    def redo(self) -> None:
        entry = self.history.redo()
        if entry is None:
            return
        self.board.show_position(entry.state, entry.events)
        self.show_message(self.ui.summarize_turn(entry.events), TURN_MESSAGE_MILLISECONDS)
        self._refresh()

    def new_game(self) -> None:
        self.history.reset(self.game.initial_state())
        self.board.show_position(self.state)
        self.show_message("")
        self._refresh()

    def load_position(self, state: Any) -> None:
        """Show ``state`` as the next position of the history (undo goes back to the one
        before)."""
        self.history.push(state)
        self.board.show_position(state)
        self._refresh()

    def copy_position(self) -> None:
        QGuiApplication.clipboard().setText(self.game.board_text(self.state))
        self.show_message("Position copied", TURN_MESSAGE_MILLISECONDS)

    def paste_position(self, text: str | None = None) -> bool:
        """Set up the position in ``text`` (the clipboard's text by default). Text that is not
        a position opens a message box with the parser's precise error; nothing changes."""
        if text is None:
            text = QGuiApplication.clipboard().text()
        try:
            state = self.game.parse_board(text)
        except ValueError as error:
            self._show_error(
                "Paste position", f"The clipboard does not hold a {self.game.title} position.", str(error)
            )
            return False
        self.load_position(state)
        self.show_message("Position pasted", TURN_MESSAGE_MILLISECONDS)
        return True

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

    def _refresh(self) -> None:
        self.position_label.setText(self.ui.describe(self.game, self.state))
        self.undo_action.setEnabled(self.history.can_undo())
        self.redo_action.setEnabled(self.history.can_redo())

    # -- closing --------------------------------------------------------------------------------
    def closeEvent(self, event: QCloseEvent) -> None:  # noqa: N802 (Qt name)
        if self._remember_geometry:
            self._settings.setValue(GEOMETRY_KEY, self.saveGeometry())
            self._settings.sync()
        super().closeEvent(event)
