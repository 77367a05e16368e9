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

OUTPUT = Path(__file__).with_name("digits.png")
RENDER_PIXELS = 64
#: (family or None for the default font, bold)
STYLES = (("Arial", False), (None, True))
_application = None


def render_digit(digit: str, family: str | None, bold: bool) -> np.ndarray:
    """The digit's ink (0..1), cropped to its box."""
    from PySide6.QtCore import QPoint
    from PySide6.QtGui import QColor, QFont, QImage, QPainter

    image = QImage(RENDER_PIXELS * 2, RENDER_PIXELS * 2, QImage.Format.Format_Grayscale8)
    image.fill(QColor(0, 0, 0))
    font = QFont(family) if family else QFont()
    font.setPixelSize(RENDER_PIXELS)
    font.setBold(bold)
    painter = QPainter(image)
    painter.setRenderHint(QPainter.RenderHint.TextAntialiasing, True)
    painter.setFont(font)
    painter.setPen(QColor(255, 255, 255))
    painter.drawText(QPoint(RENDER_PIXELS // 2, RENDER_PIXELS * 3 // 2), digit)
    painter.end()
    pixels = np.array(image.constBits(), dtype=np.uint8).reshape(image.height(), image.bytesPerLine())
    pixels = pixels[:, :image.width()].astype(np.float32) / 255.0
    rows = np.flatnonzero(pixels.max(axis=1) > 0.3)
    columns = np.flatnonzero(pixels.max(axis=0) > 0.3)
    return pixels[rows[0]:rows[-1] + 1, columns[0]:columns[-1] + 1]


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
