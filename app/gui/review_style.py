"""How a reviewed move looks wherever the window shows it (move list, score graph, review panel):
one colour per class, chosen to stay apart for colour-blind readers (Okabe and Ito's orange and
vermillion, and a dark wine), and always beside its symbol (?!, ?, ??) so the colour is never the
only cue."""

from __future__ import annotations

from typing import Any

from PySide6.QtGui import QColor

from advisors.review import BLUNDER, INACCURACY, MISTAKE, SYMBOLS

CLASS_RGB = {INACCURACY: (230, 159, 0), MISTAKE: (213, 94, 0), BLUNDER: (160, 30, 90)}
#: Lighter shades of the same hues, readable on a dark background.
CLASS_RGB_ON_DARK = {INACCURACY: (240, 190, 60), MISTAKE: (245, 130, 60), BLUNDER: (235, 110, 170)}


def class_color(classification: str, dark: bool = False) -> QColor | None:
    rgb = (CLASS_RGB_ON_DARK if dark else CLASS_RGB).get(classification)
    return None if rgb is None else QColor(*rgb)


def mark_of(review: Any) -> str:
    """The symbol shown after a reviewed move ("" for a move that is not flagged, or none)."""
    return SYMBOLS.get(getattr(review, "classification", ""), "") if review is not None else ""


def is_stale(review: Any, settings: str | None) -> bool:
    """Whether a review was computed with other settings than the reviewer's current ones."""
    return review is not None and settings is not None and review.settings != settings
