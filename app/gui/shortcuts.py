"""The "?" window: every keyboard shortcut of the main window, with what it does, then the board's
own keys and mouse gestures (they differ per game), then the gestures of the tree and graph.

It is a reference: every row is drawn in the normal text colour whatever the actions' state when it
opens (an action disabled at that moment, e.g. Back at the start, still has its key). Bold section
rows tell the window's keys, the board's and the mouse gestures apart."""

from __future__ import annotations

from collections.abc import Iterable

from PySide6.QtCore import Qt
from PySide6.QtGui import QAction, QFont, QKeySequence, QPalette
from PySide6.QtWidgets import QDialog, QDialogButtonBox, QHeaderView, QTreeWidget, QTreeWidgetItem, QVBoxLayout, QWidget

MOUSE = (
    ("Click a candidate row", "Play it"),
    ("Hover a candidate row", "Preview it on the board"),
    ("Click a move or the score graph", "Jump to that position"),
    ("Right-click a move", "Promote, delete, copy the line"),
)


def shortcut_rows(actions: Iterable[QAction]) -> list[tuple[str, str]]:
    """(keys, what) for every action with a shortcut, in the window's order, without repeats."""
    rows, seen = [], set()
    for action in actions:
        keys = [shortcut.toString(QKeySequence.SequenceFormat.NativeText) for shortcut in action.shortcuts()]
        keys = [key for key in keys if key]
        if not keys or action.text() in seen:
            continue
        seen.add(action.text())
        rows.append((", ".join(keys), action.text().replace("&", "").rstrip("…")))
    return rows


class ShortcutsDialog(QDialog):
    """A table of keys and mouse gestures; closes with Esc, Enter or "?"."""

    def __init__(self, actions: Iterable[QAction], parent: QWidget | None = None,
                 board_rows: Iterable[tuple[str, str]] = (), board_name: str = "") -> None:
        super().__init__(parent)
        self.setWindowTitle("Keyboard shortcuts")
        self.table = QTreeWidget()
        self.table.setRootIsDecorated(False)
        self.table.setHeaderLabels(["Keys", "Does"])
        self.table.setAlternatingRowColors(True)
        self.rows = shortcut_rows(actions)
        self.board_rows = tuple(board_rows)
        self._section("Window")
        for keys, what in self.rows:
            self._row(keys, what)
        if self.board_rows:
            self._section(f"{board_name} board" if board_name else "Board")
        for keys, what in self.board_rows:
            self._row(keys, what)
        self._section("Mouse")
        for gesture, what in MOUSE:
            self._row(gesture, what)
        self.table.header().setSectionResizeMode(0, QHeaderView.ResizeMode.ResizeToContents)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(self.table)
        layout.addWidget(buttons)
        self.resize(680, 640)

    def _row(self, keys: str, what: str) -> QTreeWidgetItem:
        item = QTreeWidgetItem([keys, what])
        item.setFlags(Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsSelectable)
        text = self.palette().color(QPalette.ColorGroup.Active, QPalette.ColorRole.Text)
        for column in range(2):
            item.setForeground(column, text)
        self.table.addTopLevelItem(item)
        return item

    def _section(self, title: str) -> None:
        item = self._row(title, "")
        item.setFlags(Qt.ItemFlag.ItemIsEnabled)
        bold = QFont(self.table.font())
        bold.setBold(True)
        item.setFont(0, bold)
        item.setFirstColumnSpanned(True)

    def keyPressEvent(self, event) -> None:  # noqa: N802 (Qt name)
        if event.text() == "?":
            self.reject()
            return
        super().keyPressEvent(event)
