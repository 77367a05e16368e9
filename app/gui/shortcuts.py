"""The "?" window: every keyboard shortcut of the main window, with what it does, then the board's
own keys and mouse gestures (they differ per game), then the gestures of the tree and graph."""

from __future__ import annotations

from collections.abc import Iterable

from PySide6.QtCore import Qt
from PySide6.QtGui import QAction, QKeySequence
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
        for keys, what in self.rows:
            self.table.addTopLevelItem(QTreeWidgetItem([keys, what]))
        self.board_rows = tuple(board_rows)
        for keys, what in self.board_rows:
            self.table.addTopLevelItem(QTreeWidgetItem([keys, f"{board_name} board: {what}" if board_name else what]))
        for gesture, what in MOUSE:
            item = QTreeWidgetItem([gesture, what])
            item.setForeground(0, self.palette().placeholderText())
            self.table.addTopLevelItem(item)
        self.table.header().setSectionResizeMode(0, QHeaderView.ResizeMode.ResizeToContents)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(self.table)
        layout.addWidget(buttons)
        self.resize(680, 640)

    def keyPressEvent(self, event) -> None:  # noqa: N802 (Qt name)
        if event.text() == "?":
            self.reject()
            return
        super().keyPressEvent(event)
