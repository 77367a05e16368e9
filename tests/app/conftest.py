"""Qt tests run without a display, and never touch the user's settings."""

from __future__ import annotations

import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import pytest  # noqa: E402


@pytest.fixture(autouse=True)
def settings_dir(tmp_path, monkeypatch):
    """Settings go to an INI file in a temporary directory (see app.gui.settings)."""
    directory = tmp_path / "settings"
    monkeypatch.setenv("KIBITZ_SETTINGS_DIR", str(directory))
    return directory
