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


@dataclasses.dataclass(frozen=True)
class CellGrid:
    """Where a reading's cells lie in the image read, in its pixels: cell (row, column) is the
    ``pitch_x`` x ``pitch_y`` square from (``left`` + column x pitch_x, ``top`` + row x pitch_y),
    less ``gap_x`` / ``gap_y`` at its left and top (the lines between 2048's tiles). Rows count
    from the top, as every engine's rows do; ``image_size`` is (width, height) of the image."""

    left: float
    top: float
    pitch_x: float
    pitch_y: float
    rows: int
    columns: int
    image_size: tuple[int, int]
    gap_x: float = 0.0
    gap_y: float = 0.0

    def point(self, row: float, column: float) -> tuple[float, float]:
        """(x, y) of a point given in cells: (0, 0) is the first cell's top-left corner (its
        gap's), (rows, columns) the last one's bottom-right."""
        return (self.left + column * self.pitch_x + (self.gap_x if column >= self.columns else 0.0),
                self.top + row * self.pitch_y + (self.gap_y if row >= self.rows else 0.0))

    def cell_rect(self, row: int, column: int) -> tuple[float, float, float, float]:
        """(x, y, width, height) of the cell, without its gap."""
        return (self.left + column * self.pitch_x + self.gap_x, self.top + row * self.pitch_y + self.gap_y,
                self.pitch_x - self.gap_x, self.pitch_y - self.gap_y)

    def board_rect(self) -> tuple[float, float, float, float]:
        """(x, y, width, height) of all the cells, with the gaps around them."""
        return (self.left, self.top, self.columns * self.pitch_x + self.gap_x, self.rows * self.pitch_y + self.gap_y)

    def to_json(self) -> dict[str, Any]:
        return {"left": round(float(self.left), 2), "top": round(float(self.top), 2),
                "pitch_x": round(float(self.pitch_x), 3), "pitch_y": round(float(self.pitch_y), 3),
                "rows": int(self.rows), "columns": int(self.columns),
                "image_size": [int(self.image_size[0]), int(self.image_size[1])],
                "gap_x": round(float(self.gap_x), 2), "gap_y": round(float(self.gap_y), 2)}

    @classmethod
    def from_json(cls, value: Any) -> "CellGrid | None":
        """The grid a reading's ``diagnostics["cell_grid"]`` holds; None when it holds none (or
        no usable one: the marks drawn from it would land anywhere)."""
        try:
            grid = cls(float(value["left"]), float(value["top"]), float(value["pitch_x"]), float(value["pitch_y"]),
                       int(value["rows"]), int(value["columns"]),
                       (int(value["image_size"][0]), int(value["image_size"][1])),
                       float(value.get("gap_x", 0.0)), float(value.get("gap_y", 0.0)))
        except (KeyError, IndexError, TypeError, ValueError, OverflowError):
            return None
        numbers = (grid.left, grid.top, grid.pitch_x, grid.pitch_y, grid.gap_x, grid.gap_y)
        if not all(np.isfinite(numbers)) or grid.pitch_x <= 0 or grid.pitch_y <= 0 or grid.rows < 1 \
                or grid.columns < 1 or min(grid.image_size) < 1:
            return None
        return grid


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

    @property
    def cell_grid(self) -> CellGrid | None:
        """Where the cells lie in the image read (None if the reader did not say)."""
        return CellGrid.from_json(self.diagnostics.get("cell_grid"))

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
