"""The Kibitz window (PySide6): the chosen game's board with the advisor panel, the move tree
and its score graph, the sequence editor and the session.

``run(argv)`` is what ``kibitz`` with no verb calls.
"""

from __future__ import annotations


def run(argv: list[str]) -> int:
    """Open the window (imported here so that importing a widget module does not build the
    whole window)."""
    from app.gui.application import run as run_application

    return run_application(argv)


__all__ = ["run"]
