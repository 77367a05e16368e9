"""Regenerate ``digits.png``, the 2048 reader's digit templates.

The original page writes its numbers (tiles, SCORE, BEST) in Clear Sans Bold; Kibitz's own board
view asks for Clear Sans and falls back to DejaVu Sans Bold where it is not installed. Each digit
is rendered large with Qt from the font file, cropped to its ink and scaled by
``vision.g2048.glyph_patch``, the same normalisation the reader applies to a glyph it cut from a
screenshot. One row of ten templates (0 to 9) per font, in the order of ``FONTS``.

Clear Sans Bold is Debian's ``fonts-clear-sans`` (``apt-get install fonts-clear-sans``, or
``apt-get download fonts-clear-sans`` and ``dpkg-deb -x`` it and pass the .ttf with ``--font``);
DejaVu Sans Bold is ``fonts-dejavu-core``.

Run: ``QT_QPA_PLATFORM=offscreen python -m assets.vision.g2048.make_templates [--font NAME=PATH ...]``
"""

from __future__ import annotations

import argparse
from pathlib import Path

import cv2
import numpy as np

from assets.vision.glyphs import render_glyph

OUTPUT = Path(__file__).with_name("digits.png")
RENDER_PIXELS = 96
#: The fonts, one template row each: (name, where Debian installs the file).
FONTS = (
    ("Clear Sans Bold", Path("/usr/share/fonts/truetype/clear-sans/ClearSans-Bold.ttf")),
    ("DejaVu Sans Bold", Path("/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf")),
)


_qt_application = None


def _ensure_qt_application() -> None:
    """Fonts need Qt's application object: make one if there is none (and keep it)."""
    global _qt_application
    from PySide6.QtGui import QGuiApplication

    if QGuiApplication.instance() is None:
        _qt_application = QGuiApplication([])


def render_digit(digit: str, family: str) -> np.ndarray:
    """The digit's ink (0..1) in ``family``, cropped to its box."""
    return render_glyph(digit, family, RENDER_PIXELS, bold=True)


def template_row(path: Path) -> np.ndarray:
    """The ten templates (0..9) of the font in ``path``, side by side, as 8-bit grey."""
    from PySide6.QtGui import QFontDatabase

    from vision.g2048 import glyph_patch

    _ensure_qt_application()
    font_id = QFontDatabase.addApplicationFont(str(path))
    if font_id < 0:
        raise FileNotFoundError(f"cannot load a font from {path} (see this script's docstring)")
    family = QFontDatabase.applicationFontFamilies(font_id)[0]
    row = np.hstack([glyph_patch(render_digit(str(digit), family)) for digit in range(10)])
    return np.clip(row * 255 + 0.5, 0, 255).astype(np.uint8)


def templates(font_files: dict[str, Path] | None = None) -> np.ndarray:
    """The template strip: one row per font of ``FONTS``, ten digits across. ``font_files``
    overrides where a font's file is (by name)."""
    return np.vstack([template_row((font_files or {}).get(name, path)) for name, path in FONTS])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--font", action="append", default=[], metavar="NAME=PATH",
                        help="where a font's file is, e.g. 'Clear Sans Bold=/tmp/ClearSans-Bold.ttf'")
    args = parser.parse_args()
    font_files = dict((name, Path(path)) for name, path in (item.split("=", 1) for item in args.font))
    cv2.imwrite(str(OUTPUT), templates(font_files))
    print(f"wrote {OUTPUT}")


if __name__ == "__main__":
    main()
