"""Regenerate the Destruct-o-Match reader's references (``references.json``, ``templates.png``,
``templates.json`` beside this file) from the shared reference data and Kibitz's own board::

    QT_QPA_PLATFORM=offscreen python -m assets.vision.destructo.make_templates [SHARED_DATA_DIR]

(the shared data folder defaults to ``$KIBITZ_REFERENCE_DATA``, else ``../shared/data`` beside the
project).

Two renderings are described:

* ``game``: the real HTML5 game. Each colour's reference is measured on the shared screenshots
  ``destructo/blocks_before.png`` and ``blocks_after.png`` at the cells their transcription
  (``truth.json``) names; the empty cell too. Colours those crops do not show (yellow and beyond)
  are *inferred*: Kibitz's stone mapped by the fit between Kibitz's and the game's four known
  stones (lighter by one offset, chroma scaled). Icon templates: the nine power-up sprites
  (``dom3_boulder_*.jpg``) and the four plain stones of the crops, each reduced to a 26 x 18
  picture (the 24 x 16 template with a pixel to spare all round).
* ``kibitz``: Kibitz's own board (``app.gui.games.destructo``) painted offscreen: every colour in
  its three textures, an empty cell and every power-up icon.

``digits.png``: the digits 0-9 of DejaVu Sans (``fonts-dejavu-core``) rendered with Qt, for the final
score on the end-of-game panel; the panel's own typeface is not available.

Only reduced pictures and numbers are stored, never the shared files themselves; the tests check
that this script still reproduces them.
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import cv2
import numpy as np

from assets.fonts import DEJAVU_SANS, qt_font
from engines.destructo.levels import PALETTE
from engines.destructo.rules import (COLOURLESS, EXPLODE, FILL, MORPH, MULTIPLY, OVERKILL, SHUFFLE, TIMER, UNDO, WILD,
                                     Boulder)
from vision.destructo import (CELL_HEIGHT, CELL_WIDTH, DIGIT_WIDTH, Lattice, canvas_of, cell_features, digit_glyph,
                              icon_picture)

HERE = Path(__file__).resolve().parent
SPRITE_POWERS = {"explode": EXPLODE, "fill": FILL, "morph": MORPH, "multiplier": MULTIPLY, "overkill": OVERKILL,
                 "shuffle": SHUFFLE, "timer": TIMER, "undo": UNDO, "wildcard": WILD}
#: Kibitz's carried icons are templated on every carrier: the icon's contrast with its carrier
#: differs from one to the next.
KIBITZ_CARRIERS = PALETTE
CARRIED = (OVERKILL, MULTIPLY, TIMER, FILL, SHUFFLE, UNDO)
#: The crops' boulders are 231 x 156 px apart; the transcription's cell box starts inside the
#: left and top gap, about this far from the gap's middle.
HALF_GAP = 2.0


def _round(values) -> list[float]:
    return [round(float(v), 2) for v in np.atleast_1d(values)]


# -- the real game --------------------------------------------------------------------------------
def _crop_cells(data: Path, name: str) -> tuple[np.ndarray, list[list[str | None]]]:
    """The crop's canvas (cells resampled as the reader does) and its transcribed grid."""
    truth = json.loads((data / "destructo" / "truth.json").read_text())
    entry = truth[name]
    box = entry.get("cell_px") or truth["blocks_before.png"]["cell_px"]
    image = cv2.imread(str(data / "destructo" / name), cv2.IMREAD_COLOR)
    lattice = Lattice(box["left"] - HALF_GAP, box["top"] - HALF_GAP, box["pitch_x"], box["pitch_y"], entry["cols"],
                      entry["rows"])
    return canvas_of(image, lattice), entry["grid_rows_top_to_bottom"]


def game_rendering(data: Path) -> tuple[dict, dict[str, np.ndarray]]:
    """The real game's colour references (known colours and the empty cell) and its plain stones'
    icon pictures, by colour."""
    labs: dict[str, list] = {}
    darks: dict[str, list] = {}
    pictures: dict[str, list] = {}
    for name in ("blocks_before.png", "blocks_after.png"):
        canvas, grid = _crop_cells(data, name)
        features = cell_features(canvas)
        columns = len(grid[0])
        for r, row in enumerate(grid):
            for c, colour in enumerate(row):
                key = colour or "empty"
                index = r * columns + c
                labs.setdefault(key, []).append(features.lab[index])
                darks.setdefault(key, []).append(features.dark[index])
                if colour is not None:
                    cell = canvas[r * CELL_HEIGHT:(r + 1) * CELL_HEIGHT, c * CELL_WIDTH:(c + 1) * CELL_WIDTH]
                    pictures.setdefault(colour, []).append(icon_picture(cell, soft=False).astype(np.float32))
    known = {colour: {"lab": _round(np.mean(labs[colour], axis=0)), "dark": round(float(np.mean(darks[colour])), 1)}
             for colour in PALETTE if colour in labs}
    empty = {"lab": _round(np.mean(labs["empty"], axis=0)), "dark": round(float(np.mean(darks["empty"])), 1)}
    plain = {colour: np.clip(np.mean(found, axis=0).round(), 0, 255).astype(np.uint8)
             for colour, found in pictures.items()}
    return {"known": known, "empty": empty}, plain


def sprite_pictures(data: Path) -> list[tuple[str, str, np.ndarray]]:
    """Each power-up sprite as a cell (the 69 x 45 boulder resampled to the reader's cell size):
    (power-up, file, inner picture)."""
    found = []
    for suffix, power in SPRITE_POWERS.items():
        file = f"dom3_boulder_{suffix}.jpg"
        sprite = cv2.imread(str(data / "destructo" / file), cv2.IMREAD_COLOR)
        cell = cv2.resize(sprite, (CELL_WIDTH, CELL_HEIGHT), interpolation=cv2.INTER_LINEAR)
        found.append((power, file, icon_picture(cell, soft=False)))
    return found


def infer_colours(game_known: dict, kibitz_colours: dict) -> dict:
    """The game's look of the colours the crops do not show: Kibitz's stone mapped by the fit of
    Kibitz's known stones onto the game's (the game's stones are lighter by one offset and more
    colourful by one factor)."""
    shared = [c for c in game_known if c in kibitz_colours]
    ours = np.array([kibitz_colours[c]["lab"] for c in shared])
    theirs = np.array([game_known[c]["lab"] for c in shared])
    lighter = float(np.mean(theirs[:, 0] - ours[:, 0]))
    chroma = float((ours[:, 1:] * theirs[:, 1:]).sum() / (ours[:, 1:] ** 2).sum())
    dark = float(np.median([game_known[c]["dark"] for c in shared]))
    inferred = {}
    for colour, entry in kibitz_colours.items():
        if colour in game_known:
            continue
        lab = np.array(entry["lab"], dtype=float)
        mapped = [min(100.0, max(0.0, lab[0] + lighter)), chroma * lab[1], chroma * lab[2]]
        inferred[colour] = {"lab": _round(mapped), "dark": round(dark, 1), "inferred": True}
    return inferred


# -- Kibitz's board --------------------------------------------------------------------------------
def render_board(board, cell_height: float = CELL_HEIGHT, level: int = 1):
    """Kibitz's board view showing ``board`` (rows of Boulder/None) painted offscreen, as BGR,
    with its layout (a QApplication must exist)."""
    from PySide6.QtGui import QImage

    from app.gui.games.destructo.board import DestructoBoard
    from app.gui.games.destructo.layout import widget_size
    from engines.destructo import GAME, State

    view = DestructoBoard(GAME)
    view.show_position(State(tuple(tuple(row) for row in board), level=level, due=None))
    size = widget_size(cell_height, len(board), len(board[0]))
    view.resize(size)
    image = view.grab().toImage().convertToFormat(QImage.Format.Format_RGB888)
    width, height = image.width(), image.height()
    pixels = np.frombuffer(image.constBits(), np.uint8).reshape(height, image.bytesPerLine())[:, :3 * width]
    bgr = np.ascontiguousarray(pixels.reshape(height, width, 3)[:, :, ::-1])
    layout = view.board_layout()
    view.deleteLater()
    return bgr, layout


def reference_board() -> list[list[Boulder | None]]:
    """Every colour in each of its three textures (three rows), every power-up (carried ones on
    every colour) and empty cells at the top."""
    columns = len(PALETTE)
    board: list[list[Boulder | None]] = [[None] * 4 + [Boulder(PALETTE[c]) for c in range(4, columns)]]
    for shift in (0, 3, 6):
        board.append([Boulder(PALETTE[(c + shift) % columns]) for c in range(columns)])
    powers = [Boulder(carrier, power) for power in CARRIED for carrier in KIBITZ_CARRIERS]
    powers += [Boulder(None, power) for power in COLOURLESS]
    powers += [Boulder(PALETTE[c % columns]) for c in range(-len(powers) % columns)]
    board += [powers[i:i + columns] for i in range(0, len(powers), columns)]
    return board


def kibitz_rendering() -> tuple[dict, dict, list[tuple[str, str, str, np.ndarray]]]:
    """Kibitz's colour references, empty cell, and icon pictures (kind, carrier, source, picture)."""
    board = reference_board()
    image, layout = render_board(board)
    lattice = Lattice(layout.left, layout.top, layout.cell_width, layout.cell_height, len(board[0]), len(board))
    canvas = canvas_of(image, lattice)
    features = cell_features(canvas)
    columns = len(board[0])
    labs: dict[str, list] = {}
    darks: dict[str, list] = {}
    tiles = []
    for r, row in enumerate(board):
        for c, boulder in enumerate(row):
            index = r * columns + c
            cell = canvas[r * CELL_HEIGHT:(r + 1) * CELL_HEIGHT, c * CELL_WIDTH:(c + 1) * CELL_WIDTH]
            if boulder is None:
                labs.setdefault("empty", []).append(features.lab[index])
                darks.setdefault("empty", []).append(features.dark[index])
            elif boulder.power is None:
                labs.setdefault(boulder.colour, []).append(features.lab[index])
                darks.setdefault(boulder.colour, []).append(features.dark[index])
                if 1 <= r <= 3:
                    tiles.append(("plain", boulder.colour, f"kibitz {boulder.colour} texture {r}",
                                  icon_picture(cell, soft=False)))
            else:
                tiles.append((boulder.power, boulder.colour or "", f"kibitz {boulder.power}",
                              icon_picture(cell, soft=False)))
    colours = {colour: {"lab": _round(np.mean(labs[colour], axis=0)), "dark": round(float(np.mean(darks[colour])), 1)}
               for colour in PALETTE}
    empty = {"lab": _round(np.mean(labs["empty"], axis=0)), "dark": round(float(np.mean(darks["empty"])), 1)}
    return colours, empty, tiles


# -- the end panel's digits -----------------------------------------------------------------------
DIGIT_FONT = "DejaVu Sans"
DIGIT_FONT_FILE = DEJAVU_SANS  # shipped in assets/fonts, not the machine's DejaVu Sans
DIGIT_RENDER_PIXELS = 120


def digit_sheet() -> np.ndarray:
    """The ten digit glyphs of DIGIT_FONT side by side, grey 0..255 (a QGuiApplication must exist)."""
    from PySide6.QtCore import QRect, Qt
    from PySide6.QtGui import QColor, QFont, QImage, QPainter

    side = 2 * DIGIT_RENDER_PIXELS
    glyphs = []
    for digit in "0123456789":
        image = QImage(side, side, QImage.Format.Format_Grayscale8)
        image.fill(0)
        painter = QPainter(image)
        digit_font = qt_font(DIGIT_FONT_FILE, DIGIT_RENDER_PIXELS)
        # unhinted: the hinting the machine's fontconfig asks for would move the outlines
        digit_font.setHintingPreference(QFont.HintingPreference.PreferNoHinting)
        painter.setFont(digit_font)
        painter.setPen(QColor(255, 255, 255))
        painter.drawText(QRect(0, 0, side, side), Qt.AlignmentFlag.AlignCenter, digit)
        painter.end()
        pixels = np.frombuffer(image.constBits(), np.uint8).reshape(side, image.bytesPerLine())[:, :side]
        glyphs.append(digit_glyph(pixels > 128))
    return np.clip(np.hstack(glyphs) * 255, 0, 255).round().astype(np.uint8)


# -- all of it ------------------------------------------------------------------------------------
def build(data: Path) -> tuple[dict, np.ndarray, list[dict]]:
    """(references.json's content, the template sheet (BGR), templates.json's content)."""
    game, game_plain = game_rendering(data)
    kibitz_colours, kibitz_empty, kibitz_tiles = kibitz_rendering()
    game_colours = dict(game["known"])
    game_colours.update(infer_colours(game["known"], kibitz_colours))
    references = {
        "about": "Colour references of the Destruct-o-Match reader (vision/destructo.py), made by "
                 "assets/vision/destructo/make_templates.py: median Lab (L 0..100) of each colour's central "
                 "patch and the grey level (0..255) of its outline; 'inferred' colours were never seen in the "
                 "real game.",
        "renderings": {
            "game": {"colours": {c: game_colours[c] for c in PALETTE}, "empty": game["empty"]},
            "kibitz": {"colours": kibitz_colours, "empty": kibitz_empty},
        },
    }
    tiles: list[tuple[str, str, str, str, np.ndarray]] = []
    for power, file, picture in sprite_pictures(data):
        tiles.append((power, "", "game", f"destructo/{file}", picture))
    for colour, picture in game_plain.items():
        tiles.append(("plain", colour, "game", f"destructo/blocks_before.png, blocks_after.png: {colour}", picture))
    for kind, carrier, source, picture in kibitz_tiles:
        tiles.append((kind, carrier, "kibitz", source, picture))
    sheet = np.hstack([tile[4] for tile in tiles])
    index = [{"kind": kind, "carrier": carrier or None, "rendering": rendering, "source": source}
             for kind, carrier, rendering, source, _ in tiles]
    return references, sheet, index


def default_data() -> Path:
    configured = os.environ.get("KIBITZ_REFERENCE_DATA")
    return Path(configured) if configured else HERE.parents[3] / "shared" / "data"


def main(argv: list[str] | None = None) -> int:
    from PySide6.QtWidgets import QApplication

    argv = sys.argv[1:] if argv is None else argv
    data = Path(argv[0]) if argv else default_data()
    if not (data / "destructo" / "truth.json").is_file():
        print(f"no Destruct-o-Match reference data in {data}", file=sys.stderr)
        return 1
    application = QApplication.instance() or QApplication([])  # painting needs one
    references, sheet, index = build(data)
    del application
    (HERE / "references.json").write_text(json.dumps(references, indent=1) + "\n")
    cv2.imwrite(str(HERE / "templates.png"), sheet)
    (HERE / "templates.json").write_text(json.dumps(index, indent=1) + "\n")
    cv2.imwrite(str(HERE / "digits.png"), digit_sheet())
    print(f"wrote references for {len(references['renderings'])} renderings, {len(index)} icon templates and "
          f"{DIGIT_FONT}'s digits ({10 * DIGIT_WIDTH} px wide) to {HERE}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
