"""Regenerate the 1010! reader's digit templates (``digit_<d>.png`` and ``digits.json``).

The templates are cut from the real phone screenshot of the shared reference data
(``1010/mfkasim_snapshot-1010.png``) with the reader's own steps: find the board, take the runs
of digit-sized marks above it (``vision.tenten.header_numbers``) and name each mark by the
transcription's score and best score (``truth.json``: 661 and 3854). Marks of the same digit are
averaged. That screenshot shows the digits 1, 3, 4, 5, 6 and 8 only.

The game's own font is not shipped, so the other digits come from a font file shipped in
``assets/fonts`` (``FONTS``: Clear Sans, the thin sans the test pictures of the game's looks draw
their scores in): each digit drawn large with Qt and cut and scaled by the reader's own steps
(``vision.tenten.normalised_glyph``), as ``<prefix><d>.png``. A digit of another font that matches
no template well is left unread, and the reader says so.

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


#: Shipped fonts whose digits are templates too: name -> (font file, file prefix).
FONTS = {"Clear Sans": ("ClearSans-Regular.ttf", "clear_sans_")}
#: The reader compares digits in a crop scaled to about 24 px a cell, where the header's digits
#: are some 15 px tall: templates are drawn near that size (font pixel sizes; Clear Sans digits are
#: 0.72 of it), at sub-pixel offsets, and averaged, so they blur as the digits read do.
FONT_PIXELS = (19, 21, 23)
OFFSETS = (0.0, 1 / 3, 2 / 3)
#: ... and drawn larger and shrunk by these factors too, as a screenshot shared smaller is
SHRINKS = (1.0, 0.75, 0.5)


def font_templates(font_file: str) -> dict[str, np.ndarray]:
    """The ten digits of a shipped font as templates (uint8, ``vision.tenten.GLYPH_SIZE``)."""
    from PySide6.QtCore import QPointF
    from PySide6.QtGui import QColor, QFontMetrics, QGuiApplication, QImage, QPainter

    from assets.fonts import qt_font
    from vision import tenten

    QGuiApplication.instance() or QGuiApplication([])
    templates = {}
    for digit in "0123456789":
        drawn = []
        for size in FONT_PIXELS:
            for shrink in SHRINKS:
                pixels = round(size / shrink)
                font = qt_font(font_file, pixels)
                ascent = QFontMetrics(font).ascent()
                for dx in OFFSETS:
                    for dy in OFFSETS:
                        image = QImage(3 * pixels, 3 * pixels, QImage.Format.Format_Grayscale8)
                        image.fill(QColor(0, 0, 0))
                        painter = QPainter(image)
                        painter.setRenderHint(QPainter.RenderHint.TextAntialiasing, True)
                        painter.setFont(font)
                        painter.setPen(QColor(255, 255, 255))
                        painter.drawText(QPointF(pixels + dx / shrink, pixels + dy / shrink + ascent), digit)
                        painter.end()
                        stride = image.bytesPerLine()
                        ink = np.frombuffer(image.constBits(), np.uint8, count=stride * image.height())
                        ink = ink.reshape(image.height(), stride)[:, :image.width()].astype(np.float32)
                        if shrink != 1.0:
                            ink = cv2.resize(ink, None, fx=shrink, fy=shrink, interpolation=cv2.INTER_AREA)
                        drawn.append(tenten.normalised_glyph(ink))
        templates[digit] = np.round(np.mean(drawn, axis=0) * 255).astype(np.uint8)
    return templates


def main(argv: list[str]) -> int:
    data_dir = Path(argv[0]) if argv else default_data_dir()
    templates = templates_from(data_dir)
    for digit, template in templates.items():
        cv2.imwrite(str(FOLDER / f"digit_{digit}.png"), template)
    fonts = {}
    for name, (font_file, prefix) in FONTS.items():
        drawn = font_templates(font_file)
        for digit, template in drawn.items():
            cv2.imwrite(str(FOLDER / f"{prefix}{digit}.png"), template)
        fonts[name] = {"file": font_file, "prefix": prefix, "digits": sorted(drawn)}
    listing = {"digits": sorted(templates), "source": SCREENSHOT,
               "note": "cut from the real screenshot by make_templates.py; the other digits only from fonts",
               "fonts": fonts}
    (FOLDER / "digits.json").write_text(json.dumps(listing, indent=1) + "\n")
    print(f"wrote templates of {''.join(sorted(templates))} to {FOLDER}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
