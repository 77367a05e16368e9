"""Pictures of Destruct-o-Match boards in every look the project knows, with their truth, for the
reader's tests and ``benchmarks/vision.py``:

* ``html5``: the real HTML5 game. Its boulders are cut, with the thin light gaps around them, out
  of the shared real screenshots (``destructo/blocks_before.png``, ``blocks_after.png``: grey,
  green, blue and orange stones and the white empty cell, at the cells their transcription names)
  and laid out as a whole level-1 or level-2 board (12 x 14, the four colours those levels have),
  groups destroyed so that empty cells show at the top. With ``selected`` a green group is drawn
  pale with the selected boulders of ``blocks_during.png``.
* ``sprites``: the same board with the game's nine real power-up sprites (``dom3_boulder_*.jpg``,
  Flash-era art) on some of its boulders.
* ``kibitz``: Kibitz's own view (``tests.vision.render``) of a dealt board of any level, power-ups
  and empty cells included.

The real looks are composed at the crops' own zoom (a boulder every 231 x 156 px) and the whole
board is then resized to the cell size wanted (the game's own boulders are 69 x 45 px): boulder
heights from 20 to 120 px, so that the lattice has fractional pitches as a screenshot does. The
board sits in a frame on a page with a title line (OpenCV's built-in stroke font, no font of the
machine). Every picture may be saved as JPEG (quality 50-95).

The truth is the board laid out, never a reading: ``cells`` in ``Reading.cells``' terms (colour,
power-up, ``"<carrier> <power-up>"``, None for empty), ``selected`` cells, the boulder pitch and
the format. ``captures(count, seed)`` yields (BGR image, truth, look label), the label's words
being the look, the boulder size (``small`` under 32 px high, ``native`` to 64 px, ``large``)
and ``png`` or ``jpeg`` (and ``selected``).
"""

from __future__ import annotations

import functools
import json
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from engines.destructo import State
from engines.destructo.levels import LEVEL_TABLE, deal_level
from engines.destructo.rules import COLOURLESS, Boulder, group_at, remove
from tests.vision.pictures import jpeg

LOOKS = ("html5", "sprites", "kibitz")
#: The crops' boulder pitch (px) and how far the transcription's cell box starts past the gap's
#: middle.
PITCH_X, PITCH_Y = 231, 156
HALF_GAP = 2
CROP_BOXES = ("blocks_before.png", "blocks_after.png")
#: truth.json's words for the sprites' power-ups and carriers, as the reader names them.
SPRITE_POWERS = {"Explode": "explode", "Fill": "fill", "Morph": "morph", "Multiplier": "multiplier",
                 "Overkill": "overkill", "Shuffle": "shuffle", "Timer": "timer", "Undo": "undo", "Wild": "wild"}
SPRITE_CARRIERS = {"blue boulder": "blue", "grey boulder": "grey", "green boulder": "green", "dark boulder": None}
#: Boulder heights (px) of the pictures, and where the size words change.
HEIGHTS = (20.0, 120.0)
SMALL_BELOW, LARGE_ABOVE = 32.0, 64.0
PAGES = ((215, 235, 245), (40, 48, 60), (245, 245, 245), (30, 30, 30))
FRAMES = ((50, 90, 140), (60, 70, 80), (120, 150, 170))


def data_dir() -> Path | None:
    """``$KIBITZ_REFERENCE_DATA`` or ``../shared/data`` beside the project, if it holds the
    Destruct-o-Match transcription."""
    configured = os.environ.get("KIBITZ_REFERENCE_DATA")
    folder = Path(configured) if configured else Path(__file__).resolve().parents[3] / "shared" / "data"
    return folder if (folder / "destructo" / "truth.json").is_file() else None


def cell_name(boulder: Boulder | None) -> str | None:
    """A boulder as ``Reading.cells`` names it."""
    if boulder is None:
        return None
    if boulder.power is None:
        return boulder.colour
    return boulder.power if boulder.colour is None else f"{boulder.colour} {boulder.power}"


# -- the real game's pieces --------------------------------------------------------------------------
class GamePieces:
    """Boulders of the real HTML5 game cut out of the shared screenshots at the crops' zoom
    (PITCH_Y x PITCH_X each, gaps included): ``stones`` by colour, ``empty`` cells, ``pale``
    (selected) green boulders, and the nine ``sprites`` as (cell name, picture)."""

    def __init__(self, data: Path) -> None:
        folder = data / "destructo"
        truth = json.loads((folder / "truth.json").read_text())
        self.stones: dict[str, list[np.ndarray]] = {}
        self.empty: list[np.ndarray] = []
        for name in CROP_BOXES:
            for (r, c), tile in self._tiles(folder, truth, name):
                colour = truth[name]["grid_rows_top_to_bottom"][r][c]
                (self.empty if colour is None else self.stones.setdefault(colour, [])).append(tile)
        selected = {tuple(cell) for cell in truth["blocks_during.png"]["selected_cells"]}
        self.pale = [tile for cell, tile in self._tiles(folder, truth, "blocks_during.png") if cell in selected]
        self.sprites: list[tuple[str, np.ndarray]] = []
        for file, entry in sorted(truth["sprites"].items()):
            if file.startswith("_"):
                continue
            power = SPRITE_POWERS[entry["power_up"]]
            name = power if power in COLOURLESS else f"{SPRITE_CARRIERS[entry['carrier']]} {power}"
            self.sprites.append((name, cv2.imread(str(folder / file), cv2.IMREAD_COLOR)))

    @staticmethod
    def _tiles(folder: Path, truth: dict, name: str):
        entry = truth[name]
        box = entry.get("cell_px") or truth["blocks_before.png"]["cell_px"]
        image = cv2.imread(str(folder / name), cv2.IMREAD_COLOR)
        for r in range(entry["rows"]):
            for c in range(entry["cols"]):
                x, y = box["left"] - HALF_GAP + c * PITCH_X, box["top"] - HALF_GAP + r * PITCH_Y
                yield (r, c), image[y:y + PITCH_Y, x:x + PITCH_X]

    def sprite_tile(self, picture: np.ndarray, under: np.ndarray) -> np.ndarray:
        """A sprite over a stone tile, inside the gap (as the game draws a power-up boulder)."""
        tile = under.copy()
        inner = (PITCH_X - 2 * HALF_GAP, PITCH_Y - 2 * HALF_GAP)
        tile[HALF_GAP:PITCH_Y - HALF_GAP, HALF_GAP:PITCH_X - HALF_GAP] = cv2.resize(picture, inner,
                                                                                    interpolation=cv2.INTER_CUBIC)
        return tile


@functools.cache
def game_pieces(data: Path) -> GamePieces:
    return GamePieces(data)


# -- boards ----------------------------------------------------------------------------------------
def played_board(level: int, rng: np.random.Generator, plain: bool) -> tuple:
    """A dealt board of ``level`` with a few groups destroyed (empty cells at the top);
    ``plain``: its power-ups turned back into plain boulders of a palette colour."""
    board = deal_level(level, rng)
    palette = LEVEL_TABLE[level - 1].palette
    if plain:
        board = tuple(tuple(Boulder(cell.colour or palette[int(rng.integers(len(palette)))]) for cell in row)
                      for row in board)
    for _ in range(int(rng.integers(0, 7))):
        rows, columns = len(board), len(board[0])
        r, c = int(rng.integers(rows // 2, rows)), int(rng.integers(columns))
        group = group_at(board, r, c)
        if len(group) >= 2:
            board = remove(board, group)
    return board


def pale_group(board: tuple, rng: np.random.Generator) -> frozenset:
    """A green group of the board (2 to 12 boulders) to be shown selected, or none."""
    groups = {group_at(board, r, c) for r, row in enumerate(board) for c, cell in enumerate(row)
              if cell is not None and cell.colour == "green" and cell.power is None}
    fitting = sorted((g for g in groups if 2 <= len(g) <= 12 and all(board[r][c].power is None for r, c in g)),
                     key=sorted)
    return fitting[int(rng.integers(len(fitting)))] if fitting else frozenset()


def compose_game(board: tuple, pieces: GamePieces, rng: np.random.Generator, sprites: dict | None = None,
                 selected: frozenset = frozenset()) -> np.ndarray:
    """The board at the crops' zoom: each cell a tile of its colour (a random one of the crops'),
    ``sprites`` {cell: picture} over their boulders, the ``selected`` cells pale."""
    rows, columns = len(board), len(board[0])
    picture = np.empty((rows * PITCH_Y, columns * PITCH_X, 3), np.uint8)
    for r, row in enumerate(board):
        for c, boulder in enumerate(row):
            if boulder is None:
                choices = pieces.empty
            elif (r, c) in selected:
                choices = pieces.pale
            else:
                choices = pieces.stones[boulder.colour or "grey"]
            tile = choices[int(rng.integers(len(choices)))]
            if sprites and (r, c) in sprites:
                tile = pieces.sprite_tile(sprites[(r, c)], tile)
            picture[r * PITCH_Y:(r + 1) * PITCH_Y, c * PITCH_X:(c + 1) * PITCH_X] = tile
    return picture


def on_page(board: np.ndarray, rng: np.random.Generator) -> tuple[np.ndarray, tuple[int, int]]:
    """The board in a frame on a page with a title line; the board's top-left on the page."""
    height, width = board.shape[:2]
    frame = max(4, round(0.01 * width))
    margin_x, margin_y = int(rng.integers(20, 200)), int(rng.integers(70, 200))
    page = np.full((height + 2 * margin_y, width + 2 * margin_x, 3), PAGES[int(rng.integers(len(PAGES)))], np.uint8)
    colour = FRAMES[int(rng.integers(len(FRAMES)))]
    cv2.rectangle(page, (margin_x - frame, margin_y - frame),
                  (margin_x + width + frame - 1, margin_y + height + frame - 1), colour, -1)
    page[margin_y:margin_y + height, margin_x:margin_x + width] = board
    ink = (20, 20, 20) if page[0, 0].mean() > 128 else (235, 235, 235)
    cv2.putText(page, f"Destruct-o-Match   Level {int(rng.integers(1, 3))}   Score {int(rng.integers(0, 9999))}",
                (margin_x, max(24, margin_y - frame - 20)), cv2.FONT_HERSHEY_SIMPLEX, 0.8, ink, 2, cv2.LINE_AA)
    return page, (margin_x, margin_y)



def size_word(boulder_height: float) -> str:
    return "small" if boulder_height < SMALL_BELOW else "large" if boulder_height > LARGE_ABOVE else "native"


# -- pictures --------------------------------------------------------------------------------------
def game_render(rng: np.random.Generator, look: str, data: Path, boulder_height: float | None = None,
                quality: int | None = -1, selected: bool | None = None) -> tuple[np.ndarray, dict[str, Any], str]:
    """One picture of the real game: ``look`` "html5" or "sprites"; the boulder height, JPEG
    quality (None: PNG) and a selection drawn at random unless given."""
    pieces = game_pieces(data)
    level = int(rng.integers(1, 3))
    board = played_board(level, rng, plain=True)
    sprites: dict = {}
    names = [[cell_name(cell) for cell in row] for row in board]
    if look == "sprites":
        filled = [(r, c) for r, row in enumerate(board) for c, cell in enumerate(row) if cell is not None]
        chosen = rng.choice(len(filled), size=min(len(filled), int(rng.integers(3, 10))), replace=False)
        for number, index in enumerate(chosen):
            r, c = filled[int(index)]
            name, picture = pieces.sprites[(number + int(rng.integers(len(pieces.sprites)))) % len(pieces.sprites)]
            sprites[(r, c)] = picture
            names[r][c] = name
    if selected is None:
        selected = look == "html5" and rng.random() < 0.3
    pale = pale_group(board, rng) if selected else frozenset()
    pale = frozenset(cell for cell in pale if cell not in sprites)
    native = compose_game(board, pieces, rng, sprites, pale)
    height = boulder_height or float(np.exp(rng.uniform(*np.log(HEIGHTS))))
    scale = height / PITCH_Y
    size = (max(1, round(native.shape[1] * scale)), max(1, round(native.shape[0] * scale)))
    board_image = cv2.resize(native, size, interpolation=cv2.INTER_AREA if scale < 1 else cv2.INTER_CUBIC)
    page, origin = on_page(board_image, rng)
    if quality == -1:
        quality = None if rng.random() < 0.4 else int(rng.integers(50, 96))
    image = jpeg(page, quality)
    words = [look, size_word(height), "png" if quality is None else "jpeg"] + (["selected"] if pale else [])
    truth = {"cells": names, "selected": sorted([list(cell) for cell in pale]), "level": level,
             "board_px": {"left": origin[0], "top": origin[1], "pitch_x": PITCH_X * scale, "pitch_y": height},
             "format": "png" if quality is None else f"jpeg q{quality}"}
    return image, truth, " ".join(words)


def kibitz_render(rng: np.random.Generator, boulder_height: float | None = None,
                  quality: int | None = -1) -> tuple[np.ndarray, dict[str, Any], str]:
    """One picture of Kibitz's own view of a dealt board of a random level."""
    from app.gui.games.destructo.layout import widget_size
    from tests.vision.render import render_board

    level = int(rng.integers(1, len(LEVEL_TABLE) + 1))
    board = played_board(level, rng, plain=False)
    state = State(board, level=level, due=None)
    height = boulder_height or float(np.exp(rng.uniform(np.log(HEIGHTS[0]), np.log(80.0))))
    size = widget_size(height, state.rows, state.columns)
    noise = float(rng.uniform(0.0, 3.0))
    image = render_board("destructo", state, (size.width(), size.height()), noise=noise,
                         seed=int(rng.integers(1 << 30)))
    if quality == -1:
        quality = None if rng.random() < 0.4 else int(rng.integers(50, 96))
    image = jpeg(image, quality)
    truth = {"cells": [[cell_name(cell) for cell in row] for row in board], "selected": [], "level": level,
             "format": "png" if quality is None else f"jpeg q{quality}"}
    return image, truth, " ".join(["kibitz", size_word(height), "png" if quality is None else "jpeg"])


def captures(count: int, seed: int = 0, data: Path | None = None) -> Iterator[tuple[np.ndarray, dict[str, Any], str]]:
    """``count`` seeded pictures as (BGR image, truth, look label), the looks taking turns (only
    Kibitz's own view when the shared data is missing)."""
    data = data or data_dir()
    looks = LOOKS if data is not None else ("kibitz",)
    rng = np.random.default_rng(seed)
    for index in range(count):
        look = looks[index % len(looks)]
        yield kibitz_render(rng) if look == "kibitz" else game_render(rng, look, data)
