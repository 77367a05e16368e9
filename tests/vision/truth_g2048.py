"""2048 ground truth: the five real screenshots of the original page and their transcription.

``2048/truth.json`` gives, per screenshot, the board (rows top to bottom, 0 = empty), the score
and best shown in the header, the overlay (``null``, or a description beginning with the page's
class ``game-won`` / ``game-over``) and the page geometry of the wide layout. The ``cells`` a
reader must return are the board's rows as they stand; the overlay is named as the reader's
``diagnostics["overlay"]`` says it ("win", "over" or None).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from tests.vision.truth import TruthCase, compare_rows

FOLDER = "2048"
TRUTH = "truth.json"
OVERLAY_NAMES = {"game-won": "win", "game-over": "over"}


def overlay_name(description: str | None) -> str | None:
    """``"win"`` / ``"over"`` for the transcription's overlay text, None for none."""
    if description is None:
        return None
    page_class = description.split(":", 1)[0].strip()
    return OVERLAY_NAMES[page_class]


def compare(expected: list[list[int]], got: Any) -> tuple[int, int]:
    """(right, total) over the 16 cells; a malformed reading gets no cell right."""
    if not isinstance(got, list) or len(got) != len(expected):
        return 0, sum(len(row) for row in expected)
    return compare_rows(expected, got)


def cases(data: Path) -> list[TruthCase]:
    folder = Path(data) / FOLDER
    if not (folder / TRUTH).is_file():
        return []
    truth = json.loads((folder / TRUTH).read_text())
    geometry = truth["geometry_wide_layout"]
    found = []
    for name, image in truth["images"].items():
        extra = {
            "score": image["score"],
            "best": image["best"],
            "overlay": overlay_name(image["overlay"]),
            # the page's board rectangle scales with the image: it is the same in every screenshot
            "board_xywh": geometry["board_outer_rect_xywh"],
            "cell_pitch": geometry["cell_pitch_px"],
        }
        found.append(TruthCase("2048", f"{FOLDER}/{name}", folder / image["file"],
                               [list(row) for row in image["board_rows_top_to_bottom"]], compare, extra=extra))
    return found
