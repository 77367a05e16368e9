"""SPL-T reader ground truth: the hand transcriptions of ``splt/screenshot_truth.json`` as the
``cells`` a reader must return, one case per board (``6ptblock.png`` holds two screenshots side
by side: its cases read the left and the right half of the image).

A reading is compared cell by cell: each of the 128 cells is right when it lies in the same box
(position, size and points) or is a void in both, and the split count and the score count as one
cell each.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from tests.vision.truth import TruthCase

GAME = "splt"
WIDTH, HEIGHT = 8, 16


def cell_owners(cells: dict[str, Any]) -> dict[tuple[int, int], tuple[int, ...] | None]:
    """What covers each cell: the box (x, y, w, h, points), None for a void, absent if nothing."""
    owners: dict[tuple[int, int], tuple[int, ...] | None] = {}
    for box in cells.get("boxes", []):
        x, y, w, h, _ = box
        for cy in range(y, y + h):
            for cx in range(x, x + w):
                owners[(cx, cy)] = tuple(box)
    for x, y in cells.get("voids", []):
        owners[(x, y)] = None
    return owners


def compare(expected: dict[str, Any], got: dict[str, Any]) -> tuple[int, int]:
    """(right, total): the 128 cells, then the split count and the score."""
    want, have = cell_owners(expected), cell_owners(got)
    right = sum(1 for y in range(HEIGHT) for x in range(WIDTH)
                if (x, y) in have and have[(x, y)] == want.get((x, y), "missing"))
    right += int(got.get("splits") == expected["splits"]) + int(got.get("score") == expected["score"])
    return right, WIDTH * HEIGHT + 2


def expected_cells(board: dict[str, Any]) -> dict[str, Any]:
    """A transcription's board in the reader's ``cells`` shape (boxes and voids in reading order)."""
    return {
        "boxes": sorted((list(box) for box in board["boxes"]), key=lambda box: (box[1], box[0])),
        "voids": sorted((list(cell) for cell in board["void"]), key=lambda cell: (cell[1], cell[0])),
        "splits": board["splits"],
        "score": board["score"],
    }


def _halves(image: Path) -> tuple[tuple[int, int, int, int], tuple[int, int, int, int]]:
    """The crops (x, y, width, height) of the left and right halves of an image."""
    from vision.images import load

    height, width = load(image).shape[:2]
    half = width // 2
    return (0, 0, half, height), (half, 0, width - half, height)


def cases(data: Path) -> list[TruthCase]:
    folder = data / "splt"
    truth_file = folder / "screenshot_truth.json"
    if not truth_file.exists():
        return []
    truth = json.loads(truth_file.read_text())
    result = []
    for key, board in truth.items():
        if key.startswith("_") or "boxes" not in board:
            continue
        file_name, _, half = key.partition("#")
        image = folder / file_name
        crop = None
        if half:
            left, right = _halves(image)
            crop = left if half == "left" else right
        result.append(TruthCase(
            game=GAME,
            name=f"splt/{key}",
            image=image,
            expected=expected_cells(board),
            compare=compare,
            crop=crop,
            extra={"next": board["next"], "note": board.get("note", "")},
        ))
    return result
