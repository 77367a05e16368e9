"""Regenerate ``glyphs.png``, the SPL-T reader's templates of the game's segmented font.

SPL-T writes numbers (and its few words) like a seven-segment display with square corners and a
thin stroke: a glyph is a set of strokes in a box one unit wide and two tall. The strokes of each
character below were read off the game's own screens (the digits of ``6ptblock.png``,
``imbalance.jpg`` and ``1196_splits.PNG`` in the shared data; letters of SCORE and SPLITS). A 1
is a lone bar (the reader knows it by its narrow ink, it has no template); in this font O is
drawn like 0 and S like 5, so they have none either.

Each template is the glyph's strokes drawn on a large canvas, cropped to the glyph's box and
shrunk to ``TEMPLATE_WIDTH`` x ``TEMPLATE_HEIGHT`` with ``vision.splt.glyph_patch`` (the
normalisation the reader applies to a glyph found in an image); the reader compares how much of
each stroke zone a glyph and a template cover. The characters, left to right,
are ``CHARACTERS``.

Run: ``python -m assets.vision.splt.make_templates``
"""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np

OUTPUT = Path(__file__).with_name("glyphs.png")
#: The characters of the templates, left to right in ``glyphs.png``.
CHARACTERS = "023456789CELPRT"
CANVAS_UNIT = 40  # pixels per glyph unit when drawing
STROKE = 5

TOP, MIDDLE, BOTTOM = (0, 0, 1, 0), (0, 1, 1, 1), (0, 2, 1, 2)
UPPER_LEFT, UPPER_RIGHT = (0, 0, 0, 1), (1, 0, 1, 1)
LOWER_LEFT, LOWER_RIGHT = (0, 1, 0, 2), (1, 1, 1, 2)
LEFT, RIGHT = (0, 0, 0, 2), (1, 0, 1, 2)
STEM = (0.5, 0, 0.5, 2)

STROKES = {
    "0": (TOP, LEFT, RIGHT, BOTTOM),
    "2": (TOP, UPPER_RIGHT, MIDDLE, LOWER_LEFT, BOTTOM),
    "3": (TOP, RIGHT, MIDDLE, BOTTOM),
    "4": (UPPER_LEFT, MIDDLE, RIGHT),
    "5": (TOP, UPPER_LEFT, MIDDLE, LOWER_RIGHT, BOTTOM),
    "6": (TOP, LEFT, MIDDLE, LOWER_RIGHT, BOTTOM),
    "7": (TOP, RIGHT),
    "8": (TOP, LEFT, RIGHT, MIDDLE, BOTTOM),
    "9": (TOP, UPPER_LEFT, RIGHT, MIDDLE),
    "C": (TOP, LEFT, BOTTOM),
    "E": (TOP, LEFT, MIDDLE, BOTTOM),
    "L": (LEFT, BOTTOM),
    "P": (TOP, LEFT, UPPER_RIGHT, MIDDLE),
    "R": (TOP, LEFT, UPPER_RIGHT, MIDDLE, (0.5, 1, 1, 2)),
    "T": (TOP, STEM),
}


def draw_glyph(character: str) -> np.ndarray:
    """The glyph's strokes as ink (0/1) on a canvas cropped to the glyph's box."""
    unit = CANVAS_UNIT
    pad = STROKE
    canvas = np.zeros((2 * unit + 2 * pad + 1, unit + 2 * pad + 1), np.uint8)
    for x1, y1, x2, y2 in STROKES[character]:
        start = (round(pad + x1 * unit), round(pad + y1 * unit))
        end = (round(pad + x2 * unit), round(pad + y2 * unit))
        cv2.line(canvas, start, end, 1, STROKE)
    rows = np.nonzero(canvas.any(axis=1))[0]
    columns = np.nonzero(canvas.any(axis=0))[0]
    return canvas[rows[0]:rows[-1] + 1, columns[0]:columns[-1] + 1]


def templates() -> np.ndarray:
    """Every template side by side, 0..255."""
    from vision.splt import glyph_patch

    patches = [glyph_patch(draw_glyph(character).astype(bool)) for character in CHARACTERS]
    return np.round(np.hstack(patches) * 255).astype(np.uint8)


def main() -> None:
    cv2.imwrite(str(OUTPUT), templates())
    print(f"wrote {OUTPUT} ({len(CHARACTERS)} templates: {CHARACTERS})")


if __name__ == "__main__":
    main()
