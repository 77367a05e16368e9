"""Regenerate ``digits.png``, the 2048 reader's digit templates.

The original page writes its numbers (tiles, SCORE, BEST) in Clear Sans Bold, and so does Kibitz's
own board view; DejaVu Sans Bold is the look of a page or view where Clear Sans is missing. Both
are font files shipped in ``assets/fonts`` (``FONTS``), never fonts the machine resolves. Each
digit is rendered large with Qt, cropped to its ink and scaled by ``vision.g2048.glyph_patch``,
the same normalisation the reader applies to a glyph it cut from a screenshot. One row of ten
templates (0 to 9) per font, in the order of ``FONTS``.

Run: ``QT_QPA_PLATFORM=offscreen python -m assets.vision.g2048.make_templates``
"""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np

from assets.fonts import CLEAR_SANS_BOLD, DEJAVU_SANS_BOLD
from assets.vision.glyphs import render_glyph

OUTPUT = Path(__file__).with_name("digits.png")
RENDER_PIXELS = 96
#: The fonts, one template row each: (name, the shipped font file).
FONTS = (
    ("Clear Sans Bold", CLEAR_SANS_BOLD),
    ("DejaVu Sans Bold", DEJAVU_SANS_BOLD),
)


_qt_application = None


def _ensure_qt_application() -> None:
    """Fonts need Qt's application object: make one if there is none (and keep it)."""
    global _qt_application
    from PySide6.QtGui import QGuiApplication

    if QGuiApplication.instance() is None:
        _qt_application = QGuiApplication([])


def render_digit(digit: str, font_file: str) -> np.ndarray:
    """The digit's ink (0..1) in the shipped font ``font_file``, cropped to its box."""
    return render_glyph(digit, font_file, RENDER_PIXELS)


def template_row(font_file: str) -> np.ndarray:
    """The ten templates (0..9) of the shipped font ``font_file``, side by side, as 8-bit grey."""
    from vision.g2048 import glyph_patch

    _ensure_qt_application()
    row = np.hstack([glyph_patch(render_digit(str(digit), font_file)) for digit in range(10)])
    return np.clip(row * 255 + 0.5, 0, 255).astype(np.uint8)


def templates() -> np.ndarray:
    """The template strip: one row per font of ``FONTS``, ten digits across."""
    return np.vstack([template_row(font_file) for _, font_file in FONTS])


def main() -> None:
    cv2.imwrite(str(OUTPUT), templates())
    print(f"wrote {OUTPUT}")


if __name__ == "__main__":
    main()
