"""Regenerate ``digits.png``, the HATETRIS reader's digit templates for "score: N".

The official page writes the score in Arial (its stylesheet's font-family): Arial itself, or on
Linux its usual substitute Liberation Sans (Arial's metrics), or where neither is installed the
system's sans-serif, DejaVu Sans on most Linux desktops. Kibitz's own view writes it in DejaVu
Sans Bold. Each look is the shipped font file in ``assets/fonts`` (``STYLES``), never a family the
machine resolves. Each digit is rendered large with Qt, cropped to its ink and scaled by
``vision.hatetris.glyph_patch``, the same normalisation the reader applies to a glyph in a
screenshot. One row of ten templates per look, in the order of ``STYLES``; the reader takes a
glyph's best match over all rows.

Run: ``QT_QPA_PLATFORM=offscreen python -m assets.vision.hatetris.make_templates``
"""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np

from assets.fonts import DEJAVU_SANS, DEJAVU_SANS_BOLD, LIBERATION_SANS
from assets.vision.glyphs import render_glyph

OUTPUT = Path(__file__).with_name("digits.png")
RENDER_PIXELS = 64
#: The looks, one template row each: (what shows it, the shipped font file).
STYLES = (
    ("the official page where Arial is Arial or Liberation Sans", LIBERATION_SANS),
    ("the official page where Arial is missing (DejaVu Sans)", DEJAVU_SANS),
    ("Kibitz's own view (app/gui/games/hatetris/painting.py)", DEJAVU_SANS_BOLD),
)
_application = None


def render_digit(digit: str, font_file: str) -> np.ndarray:
    """The digit's ink (0..1) in the shipped font ``font_file``, cropped to its box."""
    return render_glyph(digit, font_file, RENDER_PIXELS)


def templates() -> np.ndarray:
    """The template strip as 8-bit grey: one row per look of ``STYLES``, ten digits across."""
    from PySide6.QtGui import QGuiApplication

    from vision.hatetris import glyph_patch

    global _application
    if QGuiApplication.instance() is None:
        _application = QGuiApplication([])  # fonts need a GUI application; kept alive here
    rows = [np.hstack([glyph_patch(render_digit(str(digit), font_file)) for digit in range(10)])
            for _, font_file in STYLES]
    return np.clip(np.vstack(rows) * 255 + 0.5, 0, 255).astype(np.uint8)


def main() -> None:
    cv2.imwrite(str(OUTPUT), templates())
    print(f"wrote {OUTPUT}")


if __name__ == "__main__":
    main()
