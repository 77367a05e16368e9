"""Where the window keeps its settings (geometry now; more later).

Normally the platform's place for organization "Kibitz", application "kibitz". When the
environment variable ``KIBITZ_SETTINGS_DIR`` names a directory, an INI file in it is used
instead, so tests and screenshot runs never write to the user's home.
"""

from __future__ import annotations

import os
from pathlib import Path

from PySide6.QtCore import QSettings

ORGANIZATION = "Kibitz"
APPLICATION = "kibitz"
SETTINGS_DIR_ENV = "KIBITZ_SETTINGS_DIR"


def open_settings() -> QSettings:
    """The settings store for this run (see the module docstring)."""
    directory = os.environ.get(SETTINGS_DIR_ENV)
    if directory:
        return QSettings(str(Path(directory) / f"{APPLICATION}.ini"), QSettings.Format.IniFormat)
    return QSettings(ORGANIZATION, APPLICATION)
