"""Where the command line keeps what it writes on its own (search folders, crash reports): the
platform's folder for an application's data, as ``platformdirs.user_data_dir("kibitz")`` gives it,
or the folder ``$KIBITZ_DATA_DIR`` names (tests point it at a temporary folder)."""

from __future__ import annotations

import os
import sys
from datetime import datetime
from pathlib import Path

DATA_DIR_ENV = "KIBITZ_DATA_DIR"
APPLICATION = "kibitz"


def data_folder(environment: dict[str, str] | None = None, platform: str | None = None) -> Path:
    """``$KIBITZ_DATA_DIR``, else the platform's data folder for Kibitz: ``$XDG_DATA_HOME/kibitz``
    or ``~/.local/share/kibitz`` on Linux and other Unixes, ``~/Library/Application Support/kibitz``
    on macOS, ``%LOCALAPPDATA%\\kibitz`` on Windows."""
    environment = os.environ if environment is None else environment
    platform = sys.platform if platform is None else platform
    configured = environment.get(DATA_DIR_ENV)
    if configured:
        return Path(configured)
    home = Path(environment.get("HOME") or environment.get("USERPROFILE") or Path.home())
    if platform == "win32":
        base = environment.get("LOCALAPPDATA") or environment.get("APPDATA")
        return (Path(base) if base else home / "AppData" / "Local") / APPLICATION
    if platform == "darwin":
        return home / "Library" / "Application Support" / APPLICATION
    xdg = environment.get("XDG_DATA_HOME", "")
    # the XDG specification ignores a relative path
    return (Path(xdg) if os.path.isabs(xdg) else home / ".local" / "share") / APPLICATION


def new_search_folder(name: str) -> Path:
    """A new search folder's path, ``searches/NAME-DATE-TIME`` in the data folder (not created)."""
    return data_folder() / "searches" / f"{name}-{datetime.now():%Y%m%d-%H%M%S}"
