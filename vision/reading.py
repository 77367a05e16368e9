"""What a board reader returns: the state it read, how sure it is, and why.

Every reader (``vision.<game>.read``) returns a :class:`Reading` or raises :class:`NoBoardFound`.
A reading never hides doubt: each cell carries a confidence in [0, 1] and the cells below
:data:`DOUBTFUL_BELOW` are listed, so the app can open the board editor on them instead of
loading a guess.
"""

from __future__ import annotations

import dataclasses
from typing import Any

import numpy as np

#: A cell whose confidence is below this is reported as doubtful.
DOUBTFUL_BELOW = 0.6


class NoBoardFound(ValueError):
    """The image holds no board of the game (or too little of one to read); ``reason`` says why.
    ``diagnostics`` holds what was seen instead (e.g. SPL-T's end screen with its score)."""

    def __init__(self, reason: str, diagnostics: dict[str, Any] | None = None):
        super().__init__(reason)
        self.reason = reason
        self.diagnostics = dict(diagnostics or {})


@dataclasses.dataclass(frozen=True, eq=False)
class Reading:
    """A board read from an image.

    ``state``: the engine state (``engines.GAMES[game]``'s type), ready to load.
    ``cells``: the JSON-ready structure of ``kibitz read --json`` (per game: SPL-T a dict of boxes,
    voids, splits and score; the grid games a list of rows, top to bottom).
    ``per_cell_confidence``: rows x columns of the game's grid, each in [0, 1].
    ``diagnostics``: where the board was found (pixel geometry) and what else the reader saw
    (an overlay, the score, timings); JSON-ready values only.
    """

    game: str
    state: Any
    cells: Any
    per_cell_confidence: np.ndarray
    diagnostics: dict[str, Any] = dataclasses.field(default_factory=dict)
    #: Values read outside the grid that are doubtful too (e.g. SPL-T's "splits", "score").
    doubtful_fields: tuple[str, ...] = ()

    @property
    def confidence(self) -> float:
        """The board's confidence: that of its least certain cell (1.0 for an empty grid)."""
        if self.per_cell_confidence.size == 0:
            return 1.0
        return float(self.per_cell_confidence.min())

    @property
    def doubtful(self) -> list[tuple[int, int]]:
        """The (row, column) of every cell read with a confidence below :data:`DOUBTFUL_BELOW`,
        row-major."""
        rows, columns = np.nonzero(self.per_cell_confidence < DOUBTFUL_BELOW)
        return [(int(r), int(c)) for r, c in zip(rows, columns)]

    @property
    def sure(self) -> bool:
        """No doubtful cell and no doubtful value outside the grid."""
        return not self.doubtful and not self.doubtful_fields

    def board_text(self) -> str:
        from engines import GAMES

        return GAMES[self.game].board_text(self.state)

    def to_json(self) -> dict[str, Any]:
        """The object ``kibitz read GAME IMAGE --json`` prints."""
        return {
            "game": self.game,
            "board": self.board_text(),
            "cells": self.cells,
            "confidence": round(self.confidence, 4),
            "doubtful": [list(cell) for cell in self.doubtful],
            "doubtful_fields": list(self.doubtful_fields),
            "diagnostics": self.diagnostics,
        }
