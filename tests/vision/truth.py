"""Ground truth for the readers: each real screenshot in the shared data with the ``cells`` its
transcription says a reader must return. Used by the reader tests and by ``benchmarks/vision.py``.

Each game's module ``tests/vision/truth_<module>.py`` has ``cases(data: Path) -> list[TruthCase]``
(``data`` is the shared data folder, e.g. ``../shared/data``).
"""

from __future__ import annotations

import dataclasses
import importlib
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np


@dataclasses.dataclass(frozen=True)
class TruthCase:
    game: str                 # short name, as in engines.GAMES
    name: str                 # e.g. "2048/quiet_board.png" or "splt/6ptblock.png#left"
    image: Path
    expected: Any             # the ``cells`` a reader must return (``kibitz read --json`` shape)
    #: (right, total) cells of a reading's ``cells`` against ``expected``
    compare: Callable[[Any, Any], tuple[int, int]]
    crop: tuple[int, int, int, int] | None = None   # (x, y, width, height) read instead of the whole image
    extra: dict[str, Any] = dataclasses.field(default_factory=dict)  # score, overlay, tray, ... to check too

    def load(self) -> np.ndarray:
        from vision.images import load

        image = load(self.image)
        if self.crop is not None:
            x, y, width, height = self.crop
            image = np.ascontiguousarray(image[y:y + height, x:x + width])
        return image


def compare_rows(expected: list[list[Any]], got: Any) -> tuple[int, int]:
    """(right, total) over a grid's transcribed cells, row by row; a reading whose shape differs
    (not rows, or a row of another length) gets no cell of that row right."""
    total = sum(len(row) for row in expected)
    if not isinstance(got, list):
        return 0, total
    right = 0
    for expected_row, got_row in zip(expected, got):
        if isinstance(got_row, list) and len(got_row) == len(expected_row):
            right += sum(e == g for e, g in zip(expected_row, got_row))
    return right, total


def _grid(cells):
    """The rows of a grid reading's ``cells`` (1010!'s are under "grid"), or None."""
    if isinstance(cells, dict):
        cells = cells.get("grid")
    return cells if isinstance(cells, list) and all(isinstance(row, list) for row in cells) else None


def judge_cells(game: str, expected, reading, alternatives=()) -> tuple[int, int, int]:
    """(cells right, cells, wrong cells not marked doubtful) of a reading against the truth's
    ``cells``; a reading that failed (None) has every cell wrong and none unflagged. A grid
    cell may also rightly show its value in any of ``alternatives`` (boards a frame caught
    mid-animation shows between the move's two positions)."""
    from vision.reading import DOUBTFUL_BELOW

    if game == "splt":
        from tests.vision.truth_splt import HEIGHT, WIDTH, cell_owners

        want = cell_owners(expected)
        total = WIDTH * HEIGHT
        if reading is None:
            return 0, total, 0
        have = cell_owners(reading.cells)
        confidence = reading.per_cell_confidence
        right = unflagged = 0
        for y in range(HEIGHT):
            for x in range(WIDTH):
                if (x, y) in have and have[(x, y)] == want.get((x, y), "missing"):
                    right += 1
                elif confidence.shape == (HEIGHT, WIDTH) and confidence[y, x] >= DOUBTFUL_BELOW:
                    unflagged += 1
        return right, total, unflagged
    want = _grid(expected)
    total = sum(len(row) for row in want)
    if reading is None:
        return 0, total, 0
    have = _grid(reading.cells)
    confidence = reading.per_cell_confidence
    right = unflagged = 0
    for r, row in enumerate(want):
        for c, value in enumerate(row):
            got = have[r][c] if have is not None and r < len(have) and c < len(have[r]) else object()
            if got == value or any(got == _grid(board)[r][c] for board in alternatives):
                right += 1
            elif confidence.shape[:2] == (len(want), len(row)) and confidence[r, c] >= DOUBTFUL_BELOW:
                unflagged += 1
    return right, total, unflagged


#: game short name -> module under tests/vision with its cases
TRUTH_MODULES = {
    "splt": "tests.vision.truth_splt",
    "2048": "tests.vision.truth_g2048",
    "1010": "tests.vision.truth_tenten",
    "destructo": "tests.vision.truth_destructo",
}


def all_cases(data: Path) -> list[TruthCase]:
    cases: list[TruthCase] = []
    for module_name in TRUTH_MODULES.values():
        try:
            module = importlib.import_module(module_name)
        except ModuleNotFoundError:
            continue
        cases.extend(module.cases(data))
    return cases
