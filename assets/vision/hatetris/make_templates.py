"""Regenerate ``digits.png``, the HATETRIS reader's digit templates for "score: N".

The official page writes the score in Arial (its stylesheet's font-family; where Arial is not
installed the system's substitute), Kibitz's own view in the default font, bold. Each digit is
rendered large with Qt, cropped to its ink and scaled by ``vision.hatetris.glyph_patch``, the
same normalisation the reader applies to a glyph in a screenshot. One row of ten templates per
style: regular "Arial", then the default font bold.

Run: ``QT_QPA_PLATFORM=offscreen python -m assets.vision.hatetris.make_templates``
"""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np

from assets.vision.glyphs import render_glyph

OUTPUT = Path(__file__).with_name("digits.png")
RENDER_PIXELS = 64
#: (family or None for the default font, bold)
STYLES = (("Arial", False), (None, True))
_application = None


def render_digit(digit: str, family: str | None, bold: bool) -> np.ndarray:
    """The digit's ink (0..1), cropped to its box."""
    return render_glyph(digit, family, RENDER_PIXELS, bold)


def templates() -> np.ndarray:
    """The template strip as 8-bit grey: one row per style, ten digits across."""
    from PySide6.QtGui import QGuiApplication

    from vision.hatetris import glyph_patch

    global _application
    if QGuiApplication.instance() is None:
        _application = QGuiApplication([])  # fonts need a GUI application; kept alive here
    rows = [np.hstack([glyph_patch(render_digit(str(digit), family, bold)) for digit in range(10)])
            for family, bold in STYLES]
    return np.clip(np.vstack(rows) * 255 + 0.5, 0, 255).astype(np.uint8)


def main() -> None:
    cv2.imwrite(str(OUTPUT), templates())
    print(f"wrote {OUTPUT}")


if __name__ == "__main__":
    main()
