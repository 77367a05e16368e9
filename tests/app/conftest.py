"""Qt tests run without a display, and never touch the user's settings."""

from __future__ import annotations

import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import pytest  # noqa: E402


@pytest.fixture(autouse=True)
def settings_dir(private_settings_and_session):
    """Settings go to an INI file in a temporary directory (see app.gui.settings and
    tests/conftest.py, which also gives the session its own folder)."""
    return private_settings_and_session


@pytest.fixture
def make_window(qtbot):
    """Builds main windows as a player sees them: shown, 1200x1000, the board focused. Each
    call is a new start of Kibitz (it reads the session the previous one saved)."""
    from app.gui.main_window import MainWindow

    def make():
        window = MainWindow()
        qtbot.addWidget(window)
        window.resize(1200, 1000)
        window.show()
        qtbot.waitExposed(window)
        window.activateWindow()
        window.board.setFocus()
        return window

    return make


@pytest.fixture
def window(make_window):
    return make_window()
