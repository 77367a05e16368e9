"""Rendering a shipped font's glyphs for the readers' digit templates (used by the
``make_templates`` scripts; needs a Qt application object). The fonts are files in
``assets/fonts``, never a family the machine resolves."""

from __future__ import annotations

import numpy as np

from assets.fonts import qt_font


def render_glyph(text: str, font_file: str, pixels: int) -> np.ndarray:
    """The ink (0..1) of ``text`` in the shipped font ``font_file`` (a file name in
    ``assets/fonts``, its weight the file's) at ``pixels`` pixels, cropped to its box."""
    from PySide6.QtCore import QPoint
    from PySide6.QtGui import QColor, QImage, QPainter

    image = QImage(pixels * 2, pixels * 2, QImage.Format.Format_Grayscale8)
    image.fill(QColor(0, 0, 0))
    painter = QPainter(image)
    painter.setRenderHint(QPainter.RenderHint.TextAntialiasing, True)
    painter.setFont(qt_font(font_file, pixels))
    painter.setPen(QColor(255, 255, 255))
    painter.drawText(QPoint(pixels // 2, pixels * 3 // 2), text)
    painter.end()
    ink = np.array(image.constBits(), dtype=np.uint8).reshape(image.height(), image.bytesPerLine())
    ink = ink[:, :image.width()].astype(np.float32) / 255.0
    rows = np.flatnonzero(ink.max(axis=1) > 0.3)
    columns = np.flatnonzero(ink.max(axis=0) > 0.3)
    return ink[rows[0]:rows[-1] + 1, columns[0]:columns[-1] + 1]
