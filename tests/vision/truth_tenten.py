"""1010! ground truth: the real phone screenshot of the shared data and its transcription.

``1010/truth.json`` gives the 10 × 10 occupancy (41 filled cells), the colour of each cell, the
tray (slot 1 ``V``, slot 2 ``i``, slot 3 empty), score 661 and best 3854, and a single ``.`` in
mid-drag over row 8. The dragged piece is not on the board and not in the tray: the transcription
reads its slot as empty ("by elimination it held the single cell that is being dragged"), so the
expected tray is ``["V", "i", None]`` and the cell it half hides, (8, 9), is filled (its orange
shows around it).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from tests.vision.truth import TruthCase, compare_rows

FOLDER = "1010"
TRUTH = "truth.json"


def expected_cells(truth: dict[str, Any]) -> dict[str, Any]:
    """The ``cells`` of ``kibitz read 1010 --json`` that the transcription says."""
    grid = [[1 if mark == "#" else 0 for mark in row] for row in truth["occupancy_rows_top_to_bottom"]]
    tray = [slot["piece"] for slot in sorted(truth["tray"], key=lambda slot: slot["slot"])]
    return {"grid": grid, "tray": tray}


def compare(expected: dict[str, Any], got: dict[str, Any]) -> tuple[int, int]:
    """(right, total) over the 100 grid cells and the 3 tray slots."""
    right, total = compare_rows(expected["grid"], got.get("grid") if isinstance(got, dict) else None)
    tray = got.get("tray") if isinstance(got, dict) else None
    right += sum(e == g for e, g in zip(expected["tray"], tray or []))
    return right, total + len(expected["tray"])


def cases(data: Path) -> list[TruthCase]:
    folder = Path(data) / FOLDER
    if not (folder / TRUTH).is_file():
        return []
    truth = json.loads((folder / TRUTH).read_text())
    dragged = truth["dragged"]
    extra = {
        "score": truth["score"],
        "best": truth["best"],
        "colours": truth["grid_colours_rows_top_to_bottom"],
        "tray_colours": [slot["colour"] for slot in sorted(truth["tray"], key=lambda slot: slot["slot"])],
        "dragged_piece": dragged["piece"],
        "dragged_box": dragged["bbox_px_x0y0x1y1"],
        "board_px": truth["board_px"],
    }
    return [TruthCase("1010", f"{FOLDER}/{truth['file']}", folder / truth["file"], expected_cells(truth), compare,
                      extra=extra)]
