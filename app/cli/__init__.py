"""The command line: ``kibitz`` opens the window; ``kibitz VERB ...`` runs the engines headless.

One module per verb (:mod:`app.cli.replay`, ``convert``, ``advise``, ``play``, ``search``, ``read``,
``bench``) and one for the window's options (:mod:`app.cli.window`); :mod:`app.cli.main` parses and
dispatches; what differs between games is declared by each game's plug in :mod:`app.cli.games`.
Nothing here imports the window (:mod:`app.gui`) at import time; the window imports
:mod:`app.cli.window`.
"""

from __future__ import annotations

from app.cli.main import VERBS, main
from app.cli.window import window_option_error, window_parser

__all__ = ["VERBS", "main", "window_option_error", "window_parser"]
