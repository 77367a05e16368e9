"""The "?" sheet is a reference: every key and gesture is readable, none greyed, whatever the
state of the window's actions when it opens."""

from __future__ import annotations

import pytest
from PySide6.QtGui import QAction, QKeySequence, QPalette
from PySide6.QtWidgets import QWidget

from app.gui.shortcuts import MOUSE, ShortcutsDialog


@pytest.fixture
def dialog(qtbot):
    owner = QWidget()
    qtbot.addWidget(owner)
    actions = []
    for text, key, enabled in (("New game", "Ctrl+N", True), ("Back", "Left", False), ("Forward", "Right", False),
                               ("Stop search", "Ctrl+.", False), ("Keyboard shortcuts", "F1", True)):
        action = QAction(text, owner)
        action.setShortcut(QKeySequence(key))
        action.setEnabled(enabled)  # Back, Forward and Stop are off at the start of a game
        actions.append(action)
    dialog = ShortcutsDialog(actions, None, (("Click a box", "split it"),), "SPL-T")
    qtbot.addWidget(dialog)
    dialog.resize(680, 900)
    dialog.show()
    qtbot.waitExposed(dialog)
    yield dialog
    dialog.close()
    owner.close()


def items(dialog):
    return [dialog.table.topLevelItem(i) for i in range(dialog.table.topLevelItemCount())]


def test_every_row_is_enabled_and_in_the_text_colour(dialog):
    text = dialog.palette().color(QPalette.ColorGroup.Active, QPalette.ColorRole.Text)
    rows = items(dialog)
    listed = [item.text(0) for item in rows]
    assert {"Ctrl+N", "Left", "Right", "Ctrl+.", "F1", "Click a box"} | {g for g, _ in MOUSE} <= set(listed)
    for item in rows:
        assert not item.isDisabled(), item.text(0)
        for column in range(2):
            assert item.foreground(column).color() == text, (item.text(0), column)


def darkest(image, rect) -> int:
    """The darkest grey level (0 black .. 255 white) inside ``rect`` of ``image``."""
    return min(min(image.pixelColor(x, y).getRgb()[:3])
               for y in range(rect.top(), rect.bottom()) for x in range(rect.left(), rect.right()))


def test_every_key_is_drawn_as_dark_as_the_first(dialog):
    # The keys of disabled actions (Left, Right, Ctrl+.) and the mouse gestures are drawn as dark
    # as Ctrl+N's: the old sheet drew the gestures in the grey of placeholder text.
    table = dialog.table
    image = table.viewport().grab().toImage()
    width = table.columnWidth(0)
    rows = {item.text(0): item for item in items(dialog)}

    def key_rect(name):
        rect = table.visualItemRect(rows[name])
        rect.setWidth(width)
        assert rect.bottom() < image.height(), name  # on screen
        return rect

    reference = darkest(image, key_rect("Ctrl+N"))
    assert reference < 90
    for name in ["Left", "Right", "Ctrl+.", "Click a box"] + [gesture for gesture, _ in MOUSE]:
        assert darkest(image, key_rect(name)) <= reference + 25, name
