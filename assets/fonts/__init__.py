"""Font files shipped with Kibitz (where each comes from and its licence: ``SOURCES.txt``), so what
Kibitz's views draw, the readers' glyph templates and the tests' pictures never depend on the
fonts of the machine.

``qt_font`` registers a file with Qt once per process (``QFontDatabase.addApplicationFontFromData``)
and gives a font of the family that registration returns, with the file's weight and style. Qt
prefers a registered application font to an installed one of the same family and style, so the
file is what is drawn with even where the machine has its own copy (``draws_with`` checks it).
Qt itself is imported only when a font is asked for; a QGuiApplication must exist then.
"""

from __future__ import annotations

import functools
from importlib import resources
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from PySide6.QtGui import QFont

#: Liberation Sans Regular: the official HATETRIS page's Arial (its usual Linux substitute, with
#: Arial's metrics).
LIBERATION_SANS = "LiberationSans-Regular.ttf"
#: DejaVu Sans: the HATETRIS page's text where Arial is missing; Kibitz's HATETRIS view.
DEJAVU_SANS = "DejaVuSans.ttf"
DEJAVU_SANS_BOLD = "DejaVuSans-Bold.ttf"
#: Clear Sans: the original 2048 page's font; Kibitz's 2048 view.
CLEAR_SANS = "ClearSans-Regular.ttf"
CLEAR_SANS_BOLD = "ClearSans-Bold.ttf"
#: DejaVu Serif Bold: the lettering of Kibitz's Destruct-o-Match view.
DEJAVU_SERIF_BOLD = "DejaVuSerif-Bold.ttf"
#: Every shipped text font (the replay-code font, KibitzBase2048, is the sequence editor's).
TEXT_FONTS = (LIBERATION_SANS, DEJAVU_SANS, DEJAVU_SANS_BOLD, CLEAR_SANS, CLEAR_SANS_BOLD, DEJAVU_SERIF_BOLD)


def font_data(file_name: str) -> bytes:
    """The bytes of a shipped font file."""
    return (resources.files(__name__) / file_name).read_bytes()


@functools.cache
def qt_family(file_name: str) -> str:
    """The family Qt knows the shipped font ``file_name`` by, registering it on the first call."""
    from PySide6.QtCore import QByteArray
    from PySide6.QtGui import QFontDatabase

    font_id = QFontDatabase.addApplicationFontFromData(QByteArray(font_data(file_name)))
    families = QFontDatabase.applicationFontFamilies(font_id) if font_id >= 0 else []
    if not families:
        raise RuntimeError(f"Qt cannot load the shipped font {file_name} (is there a QGuiApplication?)")
    return families[0]


@functools.cache
def _weight_and_style(file_name: str):
    from PySide6.QtCore import QByteArray
    from PySide6.QtGui import QRawFont

    from PySide6.QtGui import QFont

    raw = QRawFont(QByteArray(font_data(file_name)), 12)
    return QFont.Weight(raw.weight()), raw.style()


def qt_font(file_name: str, pixels: float | None = None) -> QFont:
    """A QFont drawing with the shipped ``file_name`` (its family, weight and style), at
    ``pixels`` pixels if given (at least 1)."""
    from PySide6.QtGui import QFont

    font = QFont(qt_family(file_name))
    weight, style = _weight_and_style(file_name)
    font.setWeight(weight)
    font.setStyle(style)
    if pixels is not None:
        font.setPixelSize(max(1, round(pixels)))
    # the glyphs' pixels must not depend on the machine's fontconfig either: its hint style moves
    # outlines (a bare configuration hints fully, Debian's default slightly), so it is set here as
    # the templates were drawn (slight: vertical only)
    font.setHintingPreference(QFont.HintingPreference.PreferVerticalHinting)
    return font


def draws_with(font: QFont, file_name: str) -> bool:
    """Whether Qt draws ``font`` with the shipped file ``file_name`` (its tables, not only its
    name, are the file's)."""
    from PySide6.QtCore import QByteArray
    from PySide6.QtGui import QRawFont

    used = QRawFont.fromFont(font)
    shipped = QRawFont(QByteArray(font_data(file_name)), used.pixelSize())
    return all(used.fontTable(table) == shipped.fontTable(table) for table in ("head", "name", "glyf", "cmap"))
