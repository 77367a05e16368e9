"""The game's thin segmented lettering, drawn with lines (no font files).

SPL-T writes numbers like a seven-segment display with square corners and a one-pixel stroke,
and its few words (SCORE, SPLITS) in the same style. A glyph is a list of strokes in a box one
unit wide and two tall (y down; the middle bar at y = 1).

The game's numbers are monospaced like a seven-segment display: a "1" keeps a full-width slot
with its bar on the right, so "115" reads "1 15" and "61" reads "6 1". Numbers on point blocks are
centred on their ink, not on their slots (measured on ``6ptblock.png``). A proportional spacing,
where a "1" is only its bar, is kept for the words.
"""

from __future__ import annotations

import dataclasses

from PySide6.QtCore import QLine, QLineF
from PySide6.QtGui import QPainter

Stroke = tuple[float, float, float, float]

_TOP = (0, 0, 1, 0)
_MIDDLE = (0, 1, 1, 1)
_BOTTOM = (0, 2, 1, 2)
_UPPER_LEFT = (0, 0, 0, 1)
_UPPER_RIGHT = (1, 0, 1, 1)
_LOWER_LEFT = (0, 1, 0, 2)
_LOWER_RIGHT = (1, 1, 1, 2)
_LEFT = (0, 0, 0, 2)
_RIGHT = (1, 0, 1, 2)
_STEM = (0.5, 0, 0.5, 2)


@dataclasses.dataclass(frozen=True)
class Glyph:
    strokes: tuple[Stroke, ...]
    narrow: bool = False  # one bar only: drawn at x = 0 and zero units wide when proportional


_GLYPHS: dict[str, Glyph] = {
    "0": Glyph((_TOP, _LEFT, _RIGHT, _BOTTOM)),
    "1": Glyph(((0, 0, 0, 2),), narrow=True),
    "2": Glyph((_TOP, _UPPER_RIGHT, _MIDDLE, _LOWER_LEFT, _BOTTOM)),
    "3": Glyph((_TOP, _RIGHT, _MIDDLE, _BOTTOM)),
    "4": Glyph((_UPPER_LEFT, _MIDDLE, _RIGHT)),
    "5": Glyph((_TOP, _UPPER_LEFT, _MIDDLE, _LOWER_RIGHT, _BOTTOM)),
    "6": Glyph((_TOP, _LEFT, _MIDDLE, _LOWER_RIGHT, _BOTTOM)),
    "7": Glyph((_TOP, _RIGHT)),
    "8": Glyph((_TOP, _LEFT, _RIGHT, _MIDDLE, _BOTTOM)),
    "9": Glyph((_TOP, _UPPER_LEFT, _RIGHT, _MIDDLE)),
    "C": Glyph((_TOP, _LEFT, _BOTTOM)),
    "E": Glyph((_TOP, _LEFT, _MIDDLE, _BOTTOM)),
    "I": Glyph(((0, 0, 0, 2),), narrow=True),
    "L": Glyph((_LEFT, _BOTTOM)),
    "O": Glyph((_TOP, _LEFT, _RIGHT, _BOTTOM)),
    "P": Glyph((_TOP, _LEFT, _UPPER_RIGHT, _MIDDLE)),
    "R": Glyph((_TOP, _LEFT, _UPPER_RIGHT, _MIDDLE, (0.5, 1, 1, 2))),
    "S": Glyph((_TOP, _UPPER_LEFT, _MIDDLE, _LOWER_RIGHT, _BOTTOM)),
    "T": Glyph((_TOP, _STEM)),
}


@dataclasses.dataclass(frozen=True)
class Lettering:
    """A size and spacing of the segmented lettering, in pixels."""

    width: float  # of a full glyph
    height: float
    gap: float  # between glyphs
    monospaced: bool = False

    def advance(self, character: str) -> float:
        glyph = _GLYPHS.get(character)
        if character == " ":
            return self.width
        if glyph is None:
            return 0.0
        return 0.0 if glyph.narrow and not self.monospaced else self.width

    def text_width(self, text: str) -> float:
        """Width of the inked part of ``text`` (no gap after the last glyph)."""
        shown = [c for c in text if c == " " or c in _GLYPHS]
        if not shown:
            return 0.0
        return sum(self.advance(c) for c in shown) + self.gap * (len(shown) - 1)

    def ink_span(self, text: str) -> tuple[float, float]:
        """Left and right x of the strokes of ``text`` written from x = 0 (before snapping)."""
        strokes = self._lines(text, 0.0, 0.0, snap=False)
        xs = [line.x1() for line in strokes] + [line.x2() for line in strokes]
        return (min(xs), max(xs)) if xs else (0.0, 0.0)

    def scaled(self, factor: float) -> "Lettering":
        return Lettering(self.width * factor, self.height * factor, self.gap * factor, self.monospaced)

    def lines(self, text: str, left: float, top: float) -> list[QLine]:
        """Every stroke of ``text`` written from (``left``, ``top``), snapped to whole pixels."""
        return self._lines(text, left, top, snap=True)

    def _lines(self, text: str, left: float, top: float, snap: bool) -> list:
        make = (lambda *xy: QLine(*(round(v) for v in xy))) if snap else QLineF
        result: list = []
        x = left
        half = self.height / 2
        for character in text:
            glyph = _GLYPHS.get(character)
            if character != " " and glyph is None:
                continue
            if glyph is not None:
                # a monospaced "1" sits on the right of its slot, like a seven-segment display
                shift = self.width if glyph.narrow and self.monospaced else 0.0
                for x1, y1, x2, y2 in glyph.strokes:
                    result.append(
                        make(
                            x + shift + x1 * self.width,
                            top + y1 * half,
                            x + shift + x2 * self.width,
                            top + y2 * half,
                        )
                    )
            x += self.advance(character) + self.gap
        return result

    def draw(self, painter: QPainter, text: str, left: float, top: float) -> None:
        """Write ``text`` with the painter's current pen."""
        painter.drawLines(self.lines(text, left, top))
