"""The Kibitz window (PySide6): a frame holding one game's board view, picked from
:data:`engines.GAMES`, with undo/redo, copy/paste of positions and a status line.

``run(argv)`` is what ``kibitz`` with no verb calls.
"""

from __future__ import annotations

from app.gui.application import run

__all__ = ["run"]
