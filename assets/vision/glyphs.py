"""Rendering a font's glyphs for the readers' digit templates (used by the ``make_templates``
scripts; needs a Qt application object)."""

from __future__ import annotations

import numpy as np


def render_glyph(text: str, family: str | None, pixels: int, bold: bool) -> np.ndarray:
    """The ink (0..1) of ``text`` in ``family`` (None: the default font) at ``pixels`` pixels,
    cropped to its box."""
    from PySide6.QtCore import QPoint
    from PySide6.QtGui import QColor, QFont, QImage, QPainter

    image = QImage(pixels * 2, pixels * 2, QImage.Format.Format_Grayscale8)
    image.fill(QColor(0, 0, 0))
    font = QFont(family) if family else QFont()
    font.setPixelSize(pixels)
    font.setBold(bold)
    painter = QPainter(image)
    painter.setRenderHint(QPainter.RenderHint.TextAntialiasing, True)
    painter.setFont(font)
    painter.setPen(QColor(255, 255, 255))
    painter.drawText(QPoint(pixels // 2, pixels * 3 // 2), text)
    painter.end()
    ink = np.array(image.constBits(), dtype=np.uint8).reshape(image.height(), image.bytesPerLine())
    ink = ink[:, :image.width()].astype(np.float32) / 255.0
    rows = np.flatnonzero(ink.max(axis=1) > 0.3)
    columns = np.flatnonzero(ink.max(axis=0) > 0.3)
    return ink[rows[0]:rows[-1] + 1, columns[0]:columns[-1] + 1]
