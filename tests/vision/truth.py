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
