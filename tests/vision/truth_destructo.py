"""Destruct-o-Match ground truth: the three real HTML5 crops of 5 x 5 boulders and their
transcription.

``destructo/truth.json`` gives, per crop, the grid (rows top to bottom, colour names, ``null`` for
an empty cell) and for ``blocks_during.png`` the selected (pale) group. The ``cells`` a reader must
return are those rows as they stand (the crops show no power-up); the extras are the board's size
and the selected cells as ``diagnostics["selected"]`` lists them ([row, column], row-major; none
in the other two crops).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from tests.vision.truth import TruthCase, compare_rows

FOLDER = "destructo"
TRUTH = "truth.json"
CROPS = ("blocks_before.png", "blocks_during.png", "blocks_after.png")


def compare(expected: list[list[str | None]], got: Any) -> tuple[int, int]:
    """(right, total) over the transcribed cells; rows or cells the reading lacks count wrong."""
    return compare_rows(expected, got)


def cases(data: Path) -> list[TruthCase]:
    folder = Path(data) / FOLDER
    if not (folder / TRUTH).is_file():
        return []
    truth = json.loads((folder / TRUTH).read_text())
    found = []
    for name in CROPS:
        entry = truth[name]
        grid = [list(row) for row in entry["grid_rows_top_to_bottom"]]
        extra = {
            "rows": entry["rows"],
            "columns": entry["cols"],
            "selected": sorted([list(cell) for cell in entry.get("selected_cells", [])]),
        }
        found.append(TruthCase("destructo", f"{FOLDER}/{name}", folder / name, grid, compare, extra=extra))
    return found
