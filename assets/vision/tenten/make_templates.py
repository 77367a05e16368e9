"""Regenerate the 1010! reader's digit templates (``digit_<d>.png`` and ``digits.json``).

The templates are cut from the real phone screenshot of the shared reference data
(``1010/mfkasim_snapshot-1010.png``) with the reader's own steps: find the board, take the runs
of digit-sized marks above it (``vision.tenten.header_numbers``) and name each mark by the
transcription's score and best score (``truth.json``: 661 and 3854). Marks of the same digit are
averaged. That screenshot shows the digits 1, 3, 4, 5, 6 and 8 only, so there are no templates
for 0, 2, 7 and 9: the reader leaves a score with one of those unread and says so.

Run: ``python -m assets.vision.tenten.make_templates [DATA_DIR]`` (the shared data folder; by
default ``$KIBITZ_REFERENCE_DATA`` or ``../shared/data`` beside the project).
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import cv2
import numpy as np

FOLDER = Path(__file__).parent
SCREENSHOT = "1010/mfkasim_snapshot-1010.png"
TRUTH = "1010/truth.json"


def default_data_dir() -> Path:
    configured = os.environ.get("KIBITZ_REFERENCE_DATA")
    return Path(configured) if configured else FOLDER.parents[3] / "shared" / "data"


def templates_from(data_dir: Path) -> dict[str, np.ndarray]:
    """The digit templates (uint8, ``vision.tenten.GLYPH_SIZE``) cut from the shared screenshot."""
    from vision import tenten
    from vision.images import load

    image = load(data_dir / SCREENSHOT)
    truth = json.loads((data_dir / TRUTH).read_text())
    found = tenten.find_board(image)
    region = tenten.Region.around(found, image.shape)
    runs = tenten.header_numbers(region.cut(image), region.geometry(found))
    numbers = [str(truth["score"]), str(truth["best"])]
    if [len(run) for run in runs] != [len(number) for number in numbers]:
        raise ValueError(f"expected runs of {', '.join(numbers)} above the board, found runs of "
                         f"{[len(run) for run in runs]} marks")
    samples: dict[str, list[np.ndarray]] = {}
    for run, number in zip(runs, numbers):
        for glyph, digit in zip(run, number):
            if glyph.image is None:
                raise ValueError(f"digits of {number} run together above the board")
            samples.setdefault(digit, []).append(glyph.image)
    return {digit: np.round(np.mean(images, axis=0) * 255).astype(np.uint8)
            for digit, images in sorted(samples.items())}


def main(argv: list[str]) -> int:
    data_dir = Path(argv[0]) if argv else default_data_dir()
    templates = templates_from(data_dir)
    for digit, template in templates.items():
        cv2.imwrite(str(FOLDER / f"digit_{digit}.png"), template)
    listing = {"digits": sorted(templates), "source": SCREENSHOT,
               "note": "cut from the real screenshot by make_templates.py; no sample of the other digits"}
    (FOLDER / "digits.json").write_text(json.dumps(listing, indent=1) + "\n")
    print(f"wrote templates of {''.join(sorted(templates))} to {FOLDER}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
