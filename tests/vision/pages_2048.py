"""The real 2048 page (``shared/clients/2048``) driven in headless chromium, for the reader tests,
follow mode on the live page and ``benchmarks/vision.py``.

:class:`Page2048` shows any position (it writes the page's own ``localStorage["gameState"]`` and
reloads), presses arrow keys, reads the truth back from the page (localStorage; when the game
ends the page clears it, so the page's last ``actuate`` call is kept as well), waits until the
page is settled or stops it mid-animation on purpose.

:func:`captures` yields (image, truth, look) over the looks a player's screenshot may have: the
wide and the narrow (phone) layout, device scale factors 1 to 3, browser zoom 50-200 %, every
overlay, tiles up to 131072, the 2024 redesign of the official site and clones with ads beside
the board (both made by injecting CSS / HTML into the real page), dithered GIF frames and frames
caught mid-animation.

Truth dicts: ``cells`` (rows top to bottom, 0 empty), ``score``, ``over``, ``won``,
``keep_playing``, ``overlay`` ("win", "over" or None: what the page shows), ``score_visible``
(the SCORE box is on the image), ``animating`` (a frame caught mid-animation; then
``before_cells`` holds the board the animation started from, ``between_cells`` the boards the page
shows between (:func:`in_between_boards`), ``direction`` the key, and a cell may rightly show any
of them).
"""

from __future__ import annotations

import contextlib
import json
from collections.abc import Iterator
from typing import Any

import cv2
import numpy as np
from numba import njit

from tests.real_pages import screenshot

SIZE = 4
KEYS = {"up": "ArrowUp", "right": "ArrowRight", "down": "ArrowDown", "left": "ArrowLeft"}

#: Kept by the page after every ``actuate`` (the page clears localStorage when the game is over).
_RECORD_ACTUATE = """
() => {
  if (window.__kibitzRecording) return;
  window.__kibitzRecording = true;
  const original = HTMLActuator.prototype.actuate;
  HTMLActuator.prototype.actuate = function (grid, metadata) {
    window.__kibitzShown = {grid: grid.serialize(), score: metadata.score, over: metadata.over,
                            won: metadata.won, terminated: metadata.terminated};
    return original.call(this, grid, metadata);
  };
}
"""

#: Waits for the frames in which the page starts its transitions (actuate runs in one animation
#: frame, moved tiles get their new place in the next), then ends every animation at once.
_SETTLE = """
async () => {
  const frame = () => new Promise(resolve => requestAnimationFrame(resolve));
  for (let i = 0; i < 3; i++) await frame();
  for (const animation of document.getAnimations()) animation.finish();
  await frame();
}
"""

#: Waits for the transitions to start, then stops every animation at ``ms`` milliseconds in.
_FREEZE = """
async (ms) => {
  const frame = () => new Promise(resolve => requestAnimationFrame(resolve));
  for (let i = 0; i < 3; i++) await frame();
  for (const animation of document.getAnimations()) { animation.pause(); animation.currentTime = ms; }
  await frame();
  return document.getAnimations().length;
}
"""


#: A seeded Math.random (mulberry32), the seed taken from sessionStorage at each load.
_SEEDED_RANDOM = """
(() => {
  const stored = sessionStorage.getItem('kibitzSeed');
  if (stored === null) return;
  let a = Number(stored) >>> 0;
  Math.random = function () {
    a = (a + 0x6D2B79F5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
})();
"""


def rows_of_cells(cells: list[list[Any]]) -> list[list[int]]:
    """The page's column-major ``cells[x][y]`` as rows top to bottom (0 empty)."""
    return [[(cells[x][y] or {}).get("value", 0) if cells[x][y] else 0 for x in range(SIZE)] for y in range(SIZE)]


def cells_of_rows(rows: list[list[int]]) -> list[list[Any]]:
    """Rows top to bottom as the page's column-major cells."""
    return [[{"position": {"x": x, "y": y}, "value": rows[y][x]} if rows[y][x] else None for y in range(SIZE)]
            for x in range(SIZE)]


def overlay_of(over: bool, won: bool, keep_playing: bool) -> str | None:
    """What the page lays over the board for these flags (``GameManager.isGameTerminated``)."""
    if over:
        return "over"
    if won and not keep_playing:
        return "win"
    return None


class Page2048:
    """One tab of the real page at one viewport, scale and zoom (see ``tests.real_pages``)."""

    def __init__(self, browser, base_url: str, viewport: tuple[int, int] = (1024, 900), scale: float = 1.0,
                 zoom: float = 1.0):
        self.browser = browser
        self.page = browser.open(base_url + "/index.html", viewport=viewport, scale=scale, zoom=zoom)
        self._ready()
        self._injected: list[str] = []
        self._shown: dict[str, Any] | None = None
        self._seeded = False

    def close(self) -> None:
        self.browser.close(self.page)

    def _ready(self) -> None:
        self.page.wait_for_function("document.querySelector('.tile-container') !== null "
                                    "&& typeof HTMLActuator !== 'undefined'")
        self.page.evaluate(_RECORD_ACTUATE)

    # -- positions -----------------------------------------------------------------------------
    def show(self, rows: list[list[int]], score: int = 0, over: bool = False, won: bool = False,
             keep_playing: bool = False, best: int | None = None, settle: bool = True) -> dict[str, Any]:
        """Show a position by the page's own saved game, reloaded; returns its truth."""
        state = {"grid": {"size": SIZE, "cells": cells_of_rows(rows)}, "score": score, "over": over,
                 "won": won, "keepPlaying": keep_playing}
        self.page.evaluate("([state, best]) => { localStorage.setItem('gameState', JSON.stringify(state));"
                           " localStorage.setItem('bestScore', String(best)); }",
                           [state, max(score, best or 0)])
        self.page.reload()
        self._ready()
        self.page.wait_for_function("(count) => document.querySelector('.tile-container').children.length >= count",
                                    arg=sum(v > 0 for row in rows for v in row))
        for injection in self._injected:
            self.page.evaluate(injection)
        if settle:
            self.settle()
        self._shown = self._truth(rows, score, over, won, keep_playing)
        return dict(self._shown)

    def new_game(self, seed: int | None = None) -> dict[str, Any]:
        """A fresh game (the page's two random tiles); with ``seed``, the page's ``Math.random``
        is a seeded generator from the reload on (the same game for the same keys)."""
        self.page.evaluate("() => { localStorage.removeItem('gameState'); }")
        if seed is not None and not self._seeded:
            self.page.add_init_script(_SEEDED_RANDOM)
            self._seeded = True
        if seed is not None:
            self.page.evaluate("(seed) => { sessionStorage.setItem('kibitzSeed', String(seed)); }", seed)
        self.page.reload()
        self._ready()
        self.page.wait_for_function("document.querySelector('.tile-container').children.length >= 2")
        for injection in self._injected:
            self.page.evaluate(injection)
        self.settle()
        return self.truth()

    @staticmethod
    def _truth(rows, score, over, won, keep_playing) -> dict[str, Any]:
        return {"cells": [list(row) for row in rows], "score": score, "over": over, "won": won,
                "keep_playing": keep_playing, "overlay": overlay_of(over, won, keep_playing)}

    def truth(self) -> dict[str, Any]:
        """The page's own state: localStorage's saved game, or (when the page cleared it at game
        over) what its last ``actuate`` showed."""
        saved, shown = self.page.evaluate("() => [localStorage.getItem('gameState'), window.__kibitzShown || null]")
        if saved:
            state = json.loads(saved)
            return self._truth(rows_of_cells(state["grid"]["cells"]), state["score"], state["over"],
                               state["won"], state["keepPlaying"])
        if shown is None:  # the position written before the reload, shown as the page loaded
            if self._shown is None:
                raise RuntimeError("the 2048 page has neither a saved game nor a shown one")
            return dict(self._shown)
        return self._truth(rows_of_cells(shown["grid"]["cells"]), shown["score"], shown["over"], shown["won"],
                           shown["won"] and not shown["terminated"] and not shown["over"])

    # -- playing ---------------------------------------------------------------------------------
    def press(self, direction: str, settle: bool = True) -> dict[str, Any]:
        """Press an arrow key ("up", "right", "down", "left"); the page's state after it."""
        self.page.keyboard.press(KEYS[direction])
        if settle:
            self.settle()
        return self.truth()

    def keep_going(self) -> None:
        """Click the win message's "Keep going"."""
        self.page.click(".keep-playing-button")
        self.settle()

    # -- time ------------------------------------------------------------------------------------
    def settle(self) -> None:
        """Every transition and animation ended (the overlay's 2 s fade-in too)."""
        self.page.evaluate(_SETTLE)

    def freeze(self, ms: float) -> int:
        """Stop every animation ``ms`` milliseconds in (a frame caught mid-animation); returns how
        many were running. :meth:`settle` ends them."""
        return int(self.page.evaluate(_FREEZE, ms))

    def screenshot(self) -> np.ndarray:
        return screenshot(self.page)

    # -- other looks -------------------------------------------------------------------------------
    def inject(self, script: str) -> None:
        """Run ``script`` (a JS function) now and after every reload."""
        self._injected.append(script)
        self.page.evaluate(script)


# -- looks made on the real page ------------------------------------------------------------------
#: The 2024 redesign of the official site: rounded tiles in new colours (2 to 64 as seen on the
#: site; 128 and above are not known here, so nearby golds a shade off the classic ones and a
#: warmer dark for the super tiles stand in for them), SCORE / BEST as pills, a toolbar under the
#: board.
REDESIGN_TILES = {2: "#ece4db", 4: "#e8d9ba", 8: "#e8b581", 16: "#e9996b", 32: "#e8866b", 64: "#e66e4f",
                  128: "#f2d86a", 256: "#f1d457", 512: "#efd046", 1024: "#eecb34", 2048: "#edc624",
                  "super": "#3d3a33"}


def _redesign_css() -> str:
    tiles = "\n".join(f".tile.tile-{value} .tile-inner {{ background: {colour} !important; box-shadow: none !important; }}"
                      for value, colour in REDESIGN_TILES.items() if value != "super")
    return f"""
{tiles}
.tile.tile-super .tile-inner {{ background: {REDESIGN_TILES['super']} !important; }}
.tile .tile-inner {{ border-radius: 8px !important; }}
.grid-cell {{ border-radius: 8px !important; }}
.game-container {{ border-radius: 12px !important; }}
.score-container, .best-container {{ border-radius: 999px !important; }}
@media screen and (min-width: 521px) {{ .score-container, .best-container {{ padding: 15px 28px !important; }} }}
.kibitz-toolbar {{ display: flex; gap: 10px; justify-content: center; margin-top: 14px; }}
.kibitz-toolbar span {{ background: #8f7a66; color: #f9f6f2; border-radius: 999px; padding: 8px 16px;
                        font: bold 15px "Clear Sans", sans-serif; }}
"""


_REDESIGN = """
(css) => {
  if (document.querySelector('.kibitz-toolbar')) return;
  const style = document.createElement('style'); style.textContent = css; document.head.appendChild(style);
  const bar = document.createElement('div'); bar.className = 'kibitz-toolbar';
  for (const label of ['Undo', 'New Game', 'Leaderboard', 'Share']) {
    const item = document.createElement('span'); item.textContent = label; bar.appendChild(item);
  }
  const board = document.querySelector('.game-container');
  board.parentNode.insertBefore(bar, board.nextSibling);
}
"""

#: A clone site: the original look with ads beside the board (coloured panels, a picture-like
#: gradient, big numbers in the ad text): down both sides where the page leaves room, else as
#: banners above the heading and under the board (a phone).
_ADS = """
(seed) => {
  if (document.querySelector('.kibitz-ad')) return;
  const colours = ['#1e88e5', '#f4511e', '#43a047', '#fdd835', '#8e24aa', '#ffffff', '#edc22e', '#3c3a32'];
  const texts = ['Play 2048 4096 8192!', 'SALE 50% off', 'Win 1024 coins', 'Ad'];
  const style = (index) => `background: linear-gradient(135deg, ${colours[(seed + index) % colours.length]}, #ffffff);
      border:1px solid #999; font: bold 22px sans-serif; color:#222; text-align:center; padding-top:20px;
      box-sizing:border-box; overflow:hidden`;
  const container = document.querySelector('.container');
  const box = container.getBoundingClientRect();
  if (box.left >= 180) {
    [[box.left - 172, 120], [box.right + 12, 120], [box.left - 172, 400], [box.right + 12, 420]].forEach(([x, y], i) => {
      const ad = document.createElement('div'); ad.className = 'kibitz-ad'; ad.textContent = texts[i];
      ad.style.cssText = `position:absolute; left:${x}px; top:${y}px; width:160px; height:240px; ${style(i)}`;
      document.body.appendChild(ad);
    });
  } else {
    const board = document.querySelector('.game-container');
    [[container, container.firstChild], [board.parentNode, board.nextSibling]].forEach(([parent, before], i) => {
      const ad = document.createElement('div'); ad.className = 'kibitz-ad'; ad.textContent = texts[i];
      ad.style.cssText = `width:100%; height:90px; margin:10px 0; ${style(i)}`;
      parent.insertBefore(ad, before);
    });
  }
}
"""


def dithered(image: np.ndarray, colours: int = 64, seed: int = 0) -> np.ndarray:
    """``image`` as a GIF frame: quantised to at most ``colours`` palette colours (k-means) with
    Floyd-Steinberg error diffusion, as GIF encoders do."""
    rng = np.random.default_rng(seed)
    pixels = image.reshape(-1, 3).astype(np.float32)
    sample = pixels[rng.choice(len(pixels), size=min(len(pixels), 20000), replace=False)]
    criteria = (cv2.TERM_CRITERIA_EPS + cv2.TERM_CRITERIA_MAX_ITER, 12, 1.0)
    cv2.setRNGSeed(seed)
    _, _, palette = cv2.kmeans(sample, colours, None, criteria, 1, cv2.KMEANS_PP_CENTERS)
    return _error_diffused(image, palette.astype(np.float32))


def _error_diffused(image: np.ndarray, palette: np.ndarray) -> np.ndarray:
    """Floyd-Steinberg onto ``palette`` (rows of BGR): each pixel takes its nearest palette
    colour (looked up on a 6-bit lattice) and passes its error on to the pixels right and below,
    so it runs pixel by pixel (compiled with numba, the project's own dependency)."""
    levels = np.arange(64, dtype=np.float32) * 4 + 2
    lattice = np.stack(np.meshgrid(levels, levels, levels, indexing="ij"), axis=-1).reshape(-1, 3)
    nearest = np.empty(len(lattice), np.int32)
    for start in range(0, len(lattice), 32768):
        chunk = lattice[start:start + 32768]
        nearest[start:start + 32768] = ((chunk[:, None, :] - palette[None, :, :]) ** 2).sum(axis=2).argmin(axis=1)
    return _diffuse(image.astype(np.float32), palette, nearest)


@njit(cache=True)
def _diffuse(work, palette, nearest):
    height, width, _ = work.shape
    out = np.empty((height, width, 3), np.uint8)
    for y in range(height):
        for x in range(width):
            b = min(255.0, max(0.0, work[y, x, 0]))
            g = min(255.0, max(0.0, work[y, x, 1]))
            r = min(255.0, max(0.0, work[y, x, 2]))
            index = nearest[(int(b) >> 2) * 4096 + (int(g) >> 2) * 64 + (int(r) >> 2)]
            for c in range(3):
                value = palette[index, c]
                out[y, x, c] = np.uint8(value)
                error = (b, g, r)[c] - value
                if x + 1 < width:
                    work[y, x + 1, c] += error * 7 / 16
                if y + 1 < height:
                    if x > 0:
                        work[y + 1, x - 1, c] += error * 3 / 16
                    work[y + 1, x, c] += error * 5 / 16
                    if x + 1 < width:
                        work[y + 1, x + 1, c] += error * 1 / 16
    return out


# -- positions ---------------------------------------------------------------------------------------
def random_position(rng: np.random.Generator, top_exponent: int | None = None) -> tuple[list[list[int]], int]:
    """A realistic board: a snake of falling values from a corner (as good play builds), a few
    small tiles and empty cells elsewhere; with a plausible score."""
    top = int(top_exponent or rng.integers(3, 18))
    order = [(r, c if r % 2 == 0 else SIZE - 1 - c) for r in range(SIZE) for c in range(SIZE)]
    if rng.random() < 0.5:
        order = [(r, SIZE - 1 - c) for r, c in order]
    if rng.random() < 0.5:
        order = [(SIZE - 1 - r, c) for r, c in order]
    rows = [[0] * SIZE for _ in range(SIZE)]
    exponent = top
    for index, (r, c) in enumerate(order):
        if exponent < 1:
            break
        if index and rng.random() < 0.25:
            exponent -= 1 + int(rng.integers(0, 2))
            if exponent < 1:
                break
        rows[r][c] = 1 << exponent
        exponent -= 1
    for r in range(SIZE):
        for c in range(SIZE):
            if rows[r][c] == 0 and rng.random() < 0.45:
                rows[r][c] = int(rng.choice([2, 2, 2, 4, 4, 8, 16]))
    if not any(v == 0 for row in rows for v in row) and rng.random() < 0.7:
        r, c = order[-1]
        rows[r][c] = 0
    score = sum(v * (v.bit_length() - 2) for row in rows for v in row if v > 4)
    return rows, int(score * rng.uniform(1.0, 1.4))


def full_position(rng: np.random.Generator, top_exponent: int) -> tuple[list[list[int]], int]:
    """A full board without two equal neighbours (a lost game): the page shows "Game over!"."""
    while True:
        rows = [[int(1 << rng.integers(1, top_exponent + 1)) for _ in range(SIZE)] for _ in range(SIZE)]
        rows[int(rng.integers(SIZE))][int(rng.integers(SIZE))] = 1 << top_exponent
        if all(rows[r][c] != rows[r][c + 1] for r in range(SIZE) for c in range(SIZE - 1)) \
                and all(rows[r][c] != rows[r + 1][c] for r in range(SIZE - 1) for c in range(SIZE)):
            score = sum(v * (v.bit_length() - 2) for row in rows for v in row if v > 4)
            return rows, score


# -- the capture generator -------------------------------------------------------------------------------
#: (name, viewport at 100 % zoom, device scale factor, browser zoom)
SETUPS = [
    ("wide", (1024, 900), 1.0, 1.0), ("wide", (1280, 1000), 1.5, 1.0), ("wide", (1024, 900), 2.0, 1.0),
    ("wide", (900, 900), 3.0, 1.0), ("wide", (1280, 900), 1.0, 0.5), ("wide", (1280, 1000), 1.0, 0.75),
    ("wide", (1400, 1400), 1.0, 1.5), ("wide", (1600, 2000), 1.0, 2.0), ("wide", (1366, 1024), 1.25, 1.1),
    ("narrow", (375, 700), 1.0, 1.0), ("narrow", (390, 844), 2.0, 1.0), ("narrow", (414, 896), 3.0, 1.0),
    ("narrow", (360, 740), 1.5, 1.0), ("narrow", (500, 900), 2.0, 1.25), ("narrow", (320, 640), 1.0, 1.0),
]
STYLES = ("classic", "classic", "classic", "redesign2024", "ads")
OVERLAYS = ("none", "none", "over", "win", "keep-going")


def _position(rng: np.random.Generator, overlay: str, narrow: bool) -> tuple[list[list[int]], int, bool, bool, bool]:
    """(rows, score, over, won, keep_playing) for an overlay."""
    top = int(rng.integers(3, 18))
    if narrow and rng.random() < 0.3:
        top = 16  # 65536 at phone scale
    if overlay == "over":
        rows, score = full_position(rng, max(top, 5))
        return rows, score, True, False, False
    if overlay in ("win", "keep-going"):
        rows, score = random_position(rng, max(top, 11))
        if not any(v == 2048 for row in rows for v in row):
            free = [(r, c) for r in range(SIZE) for c in range(SIZE) if rows[r][c] < 2048]
            r, c = free[int(rng.integers(len(free)))]
            rows[r][c] = 2048
        return rows, score, False, True, overlay == "keep-going"
    rows, score = random_position(rng, top)
    return rows, score, False, False, False


def captures(browser, base_url: str, count: int, seed: int = 0) -> Iterator[tuple[np.ndarray, dict[str, Any], str]]:
    """``count`` captures of the real page: (BGR image, truth dict, look label), seeded. The
    setups and styles are taken in a seeded order that goes through all of them before repeating
    (a small sample still covers every layout, scale and style); each tab is reused for a few
    positions (a position is a write and a reload)."""
    rng = np.random.default_rng(seed)
    made = 0
    per_page = 3 if count < 200 else 6
    combinations = [(setup, style) for setup in SETUPS for style in dict.fromkeys(STYLES)]
    order: list[int] = []
    overlays: list[str] = []
    while made < count:
        if not order:
            order = list(rng.permutation(len(combinations)))
        (name, viewport, scale, zoom), style = combinations[order.pop()]
        page = Page2048(browser, base_url, viewport, scale, zoom)
        try:
            if style == "redesign2024":
                page.inject(f"() => ({_REDESIGN})({json.dumps(_redesign_css())})")
            elif style == "ads":
                page.inject(f"() => ({_ADS})({int(rng.integers(100))})")
            for _ in range(min(per_page, count - made)):
                if not overlays:
                    overlays = list(rng.permutation(OVERLAYS))
                overlay = str(overlays.pop())
                rows, score, over, won, keep = _position(rng, overlay, name == "narrow")
                truth = page.show(rows, score, over=over, won=won, keep_playing=keep)
                label_bits = [name, f"dpr{scale:g}", f"zoom{round(zoom * 100)}", style,
                              truth["overlay"] or ("keep-going" if keep else "plain")]
                if rng.random() < 0.15 and not over and not (won and not keep):
                    image, truth = _mid_animation(page, truth, rng)
                    if truth.get("animating"):
                        label_bits.append("mid-animation")
                else:
                    image = page.screenshot()
                if rng.random() < 0.12:
                    image = dithered(image, int(rng.choice([32, 64, 128, 256])), seed=int(rng.integers(1 << 30)))
                    label_bits.append("gif")
                truth["score_visible"] = True
                truth.setdefault("animating", False)
                made += 1
                yield image, truth, " ".join(label_bits)
        finally:
            with contextlib.suppress(Exception):
                page.close()


def in_between_boards(before: list[list[int]], direction: str) -> list[list[list[int]]]:
    """What the page shows between a slide's start and its end besides the two boards: the slid
    tiles in their places with no new tile yet, first with each merged pair still showing its old
    value (the rules' slide, worked here on rows)."""
    turned = {"left": 0, "down": 1, "right": 2, "up": 3}[direction]  # quarter turns clockwise to slide left
    board = [list(row) for row in before]
    for _ in range(turned):
        board = [list(row) for row in zip(*board[::-1])]
    slid, unmerged = [], []
    for row in board:
        tiles = [value for value in row if value]
        merged, kept, index = [], [], 0
        while index < len(tiles):
            pair = index + 1 < len(tiles) and tiles[index + 1] == tiles[index]
            merged.append(tiles[index] * (2 if pair else 1))
            kept.append(tiles[index])
            index += 2 if pair else 1
        slid.append(merged + [0] * (SIZE - len(merged)))
        unmerged.append(kept + [0] * (SIZE - len(kept)))
    results = []
    for found in (slid, unmerged):
        for _ in range((4 - turned) % 4):
            found = [list(row) for row in zip(*found[::-1])]
        results.append(found)
    return results


def _mid_animation(page: Page2048, truth: dict[str, Any], rng: np.random.Generator) -> tuple[np.ndarray, dict[str, Any]]:
    """A key pressed and the frame taken while the tiles slide, merge or appear. The truth says
    ``animating``; ``before_cells`` and ``between_cells`` (see :func:`in_between_boards`) are
    what the frame may show besides ``cells``."""
    before = truth["cells"]
    for direction in rng.permutation(list(KEYS)):
        page.page.keyboard.press(KEYS[str(direction)])
        ms = float(rng.uniform(10, 300))
        page.freeze(ms)
        after = page.truth()
        if after["cells"] != before:
            image = page.screenshot()
            page.settle()
            return image, {**after, "animating": True, "before_cells": before, "direction": str(direction),
                           "between_cells": in_between_boards(before, str(direction)), "frozen_ms": round(ms)}
        page.settle()
    return page.screenshot(), truth
