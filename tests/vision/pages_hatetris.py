"""The real HATETRIS page (``shared/clients/hatetris``) driven in headless chromium, for the reader
tests, follow mode on the live page and ``benchmarks/vision.py``.

:class:`HatetrisPage` starts a game (with any of the page's AIs), presses keys, plays a replay code
through the page's own "show a replay" (on a clock the test advances, so a record replay of
thousands of keys takes a second, not minutes) and reads the truth back from the page itself:

* the page's own state (its React component's ``wellStates[wellStateId]``: well, score, live
  piece, and the keys played so far);
* the well's cells in the DOM (``well__cell--landed`` / ``--live``);
* for the two AIs Kibitz's engine knows (HATETRIS and HATETRIS without loop prevention), the
  keys of the page's replay code run through Kibitz's engine (``engines.hatetris``: its codecs
  and ``replay_keys``).

:meth:`HatetrisPage.truth` checks that all three agree and raises :class:`PageDisagrees` if not.

:func:`captures` yields (image, truth, look) over what a player's screenshot may show: games in
play (pieces at rest and mid-move, game over with the replay code under the well), record replays
from ``shared/data/hatetris/records.tsv`` mid-way and at their end, the page's other AIs, long
scores (the page's own state given a score, drawn by the page), the wide and the narrow (phone)
layout, device scale factors 1, 1.5, 2 and 3, browser zoom 50-200 %, and the page's Arial drawn
from a shipped font file (Liberation Sans, as Arial shows on most machines, or DejaVu Sans, as
where Arial is missing), so the captures are the same on every machine. Looks are words: the kind
("play", "replay", "other-AI", "long-score"), the layout ("wide", "narrow") and "clipped" when part
of the well lies outside the screenshot (a phone page zoomed wider than its window).

Truth dicts: ``cells`` (rows top to bottom: 0 empty, 1 landed, 2 live, as ``Reading.cells``),
``well`` (the engine's row bits), ``score``, ``live`` ({piece, x, y, o} or None), ``mode`` (the
page's: PLAYING, REPLAYING, GAME_OVER), ``enemy``, ``engine_checked`` (the engine replayed the
keys and agreed), ``well_whole`` (the well's table lies wholly inside the screenshot),
``score_whole`` (so does the text of the score's line), ``viewport``,
``scale``, ``zoom``, ``font`` (the shipped font file of the page's Arial).
"""

from __future__ import annotations

import base64
import csv
import functools
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np

from assets.fonts import DEJAVU_SANS, LIBERATION_SANS, font_data
from engines.hatetris import codecs, fast
from engines.hatetris.pieces import CELLS, PIECE_INDEX
from engines.hatetris.state import DEFAULT_RULES, MILD_RULES, Rules, State
from tests.real_pages import screenshot

PAGE = "hatetris.html"
KEY_NAMES = {"L": "ArrowLeft", "R": "ArrowRight", "D": "ArrowDown", "U": "ArrowUp"}
#: The page's replay timer (its ``replayTimeout`` prop): one key every 50 ms.
REPLAY_MS_PER_KEY = 50
#: The page's AIs: Kibitz's name -> (the button's text, the engine's rules or None when Kibitz's
#: engine does not play that AI).
ENEMIES: dict[str, tuple[str, Rules | None]] = {
    "hatetris": ("HATETRIS, the original and worst", DEFAULT_RULES),
    "mild": ("HATETRIS without loop-prevention", MILD_RULES),
    "lovetris": ("all 4x1 pieces, all the time", None),
    "brzustowski": ("Brzustowski (1992)", None),
    "burgiel": ("Burgiel (1997)", None),
}
ENEMY_OF_RECORD = {"HATETRIS": "hatetris", "HATETRIS Mild": "mild"}

#: The page's Game component state: mode, the keys so far, the well state shown.
_STATE = """
() => {
  const node = document.querySelector('.game');
  if (!node) return null;
  const key = Object.keys(node).find(k => k.startsWith('__reactFiber'));
  let fiber = node[key];
  while (fiber && !(fiber.stateNode && fiber.stateNode.state && 'wellStateId' in fiber.stateNode.state)) {
    fiber = fiber.return;
  }
  if (!fiber) return null;
  const s = fiber.stateNode.state;
  const shown = s.wellStates[s.wellStateId] || null;
  const cells = Array.from(document.querySelectorAll('td.well__cell')).map(td =>
    td.classList.contains('well__cell--live') ? 2 : td.classList.contains('well__cell--landed') ? 1 : 0);
  const out = document.querySelector('[data-testid="replay-out"]');
  return {mode: s.mode, id: s.wellStateId, replay: s.replay.join(''),
          enemy: s.enemy && s.enemy.buttonDescription,
          well: shown && shown.core.well, score: shown && shown.core.score,
          piece: shown && shown.piece, cells: cells, replay_out: out ? out.textContent : null};
}
"""

#: Gives the shown well state another score (the page draws it like any other): long scores
#: without playing thousands of lines.
_SET_SCORE = """
(score) => {
  const node = document.querySelector('.game');
  const key = Object.keys(node).find(k => k.startsWith('__reactFiber'));
  let fiber = node[key];
  while (!(fiber.stateNode && fiber.stateNode.state && 'wellStateId' in fiber.stateNode.state)) fiber = fiber.return;
  const game = fiber.stateNode;
  return new Promise(resolve => game.setState(s => ({
    wellStates: s.wellStates.map((w, i) => i === s.wellStateId ? {...w, core: {...w.core, score: score}} : w)
  }), resolve));
}
"""


#: Arrow keys would also scroll a page wider or taller than its window, smoothly, so on after the
#: key and the screenshot: the harness keeps the page still (the game hears the keys as before).
_NO_KEY_SCROLLING = """
() => window.addEventListener('keydown', event => {
  if (event.key.startsWith('Arrow')) event.preventDefault();
}, {capture: true})
"""

#: The page's Arial drawn from a given font file (a data URL), once it has loaded.
_ARIAL_FROM = """
async (url) => {
  const face = new FontFace('arial', `url(${url})`);
  document.fonts.add(await face.load());
  await document.fonts.ready;
}
"""

#: Scrolls the page to its top left at once; whether it is there.
_SCROLLED_TO_TOP = """
() => {
  window.scrollTo({top: 0, left: 0, behavior: 'instant'});
  return window.scrollX === 0 && window.scrollY === 0;
}
"""

#: Whether the well's table, and the score's line, lie wholly inside the viewport.
_WHOLE = """
() => {
  const inside = element => {
    if (!element) return false;
    const box = element.getBoundingClientRect();
    return box.left >= 0 && box.top >= 0 && box.right <= window.innerWidth && box.bottom <= window.innerHeight;
  };
  const score = document.querySelector('[data-testid="score"]');
  const range = document.createRange();
  if (score) range.selectNodeContents(score);
  return [inside(document.querySelector('table')), score ? inside(range) : false];
}
"""


class PageDisagrees(AssertionError):
    """The page's state, its DOM and Kibitz's engine replaying the page's keys disagree."""


def records(path: Path | None = None) -> list[dict[str, str]]:
    """The record replays of ``shared/data/hatetris/records.tsv`` (one row per game and code)."""
    from tests.real_pages import clients_dir

    if path is None:
        clients = clients_dir()
        path = (clients.parent if clients else Path("..") / "shared") / "data" / "hatetris" / "records.tsv"
    with open(path, newline="", encoding="utf-8") as file:
        return list(csv.DictReader(file, delimiter="\t"))


def well_cells(well: tuple[int, ...], live: list[tuple[int, int]] = ()) -> list[list[int]]:
    rows = [[1 if row >> x & 1 else 0 for x in range(DEFAULT_RULES.width)] for row in well]
    for x, y in live:
        rows[y][x] = 2
    return rows


@functools.lru_cache(maxsize=4)
def _font_url(font_file: str) -> str:
    return "data:font/ttf;base64," + base64.b64encode(font_data(font_file)).decode("ascii")


def _state_cells(raw: dict[str, Any]) -> list[list[int]]:
    """The cells the page's state shows, flat like the DOM's list (row by row)."""
    well = tuple(int(row) for row in raw["well"] or ())
    piece = raw["piece"]
    live = [] if piece is None else [(piece["x"] + cx, piece["y"] + cy)
                                     for cx, cy in CELLS[PIECE_INDEX[piece["id"]]][piece["o"]]]
    return [value for row in well_cells(well, live) for value in row]


class HatetrisPage:
    """One page of the real game in its own browser context."""

    def __init__(self, browser, url: str, viewport: tuple[int, int] = (1024, 900), scale: float = 1.0,
                 zoom: float = 1.0, clock: bool = False, font_file: str | None = LIBERATION_SANS):
        """``font_file``: the shipped font (assets/fonts) the page's Arial is drawn in, so the page
        looks the same on every machine (LIBERATION_SANS: as where Arial is Arial or Liberation
        Sans; DEJAVU_SANS: as where Arial is missing); None leaves it to the machine's fonts."""
        self.browser = browser
        self.viewport, self.scale, self.zoom = viewport, scale, zoom
        self.font_file = font_file
        self.page = browser.open(url if url.endswith(".html") else url.rstrip("/") + "/" + PAGE,
                                 viewport=viewport, scale=scale, zoom=zoom)
        self.page.wait_for_selector("td.well__cell")
        self.page.evaluate(_NO_KEY_SCROLLING)
        if font_file is not None:
            self.page.evaluate(_ARIAL_FROM, _font_url(font_file))
        self.clock = clock
        if clock:
            self.page.clock.install()
            # installed, the clock runs on by itself; paused, only :meth:`advance` moves it
            self.page.clock.pause_at(self.page.evaluate("Date.now()") + 1000)
        self.enemy = "hatetris"
        self.score_set = False
        self.code_keys: str | None = None

    def close(self) -> None:
        self.browser.close(self.page)

    def __enter__(self) -> HatetrisPage:
        return self

    def __exit__(self, *exc_info) -> None:
        self.close()

    # -- driving ---------------------------------------------------------------------------------
    def _to_initial(self) -> None:
        done = self.page.locator('[data-testid="done"]')
        if done.count():
            done.click()

    def select_enemy(self, enemy: str) -> None:
        self._to_initial()
        self.page.click('[data-testid="select-ai"]')
        self.page.click(f'button:text-is("{ENEMIES[enemy][0]}")')
        self.enemy = enemy

    def start(self, enemy: str = "hatetris") -> None:
        if enemy != self.enemy:
            self.select_enemy(enemy)
        self._to_initial()
        self.page.click("text=start new game")
        self.score_set = False
        self.code_keys = None
        self.page.mouse.move(0, 0)  # no button hovered

    def press(self, keys: str) -> None:
        for key in keys:
            self.page.keyboard.press(KEY_NAMES[key])

    def show_replay(self, code: str, enemy: str = "hatetris") -> None:
        """Starts the page's replay of ``code`` (needs ``clock=True``; advance with :meth:`advance`)."""
        if not self.clock:
            raise ValueError("a replay is advanced with the page's clock: open the page with clock=True")
        if enemy != self.enemy:
            self.select_enemy(enemy)
        self._to_initial()
        self.code_keys = codecs.decode(code)  # the code as Kibitz's codecs read it
        self.page.once("dialog", lambda dialog: dialog.accept(code))
        self.page.click("text=show a replay")
        self.score_set = False
        self.page.mouse.move(0, 0)

    def replay_to_end(self, code: str, enemy: str = "hatetris") -> dict[str, Any]:
        """Plays ``code`` through the page's "show a replay" to its end and returns the truth the
        page shows then (its score, its mode: GAME_OVER when the code ends the game)."""
        self.show_replay(code, enemy)
        keys = len(self.code_keys)
        self.advance(keys + 2)
        for _ in range(50):  # the page renders the last key's move a moment after it
            if self.raw_state()["id"] >= keys - 1:
                break
            self.page.wait_for_timeout(10)
        return self.truth()

    def advance(self, keys: int) -> None:
        """Lets the replay play ``keys`` more keys."""
        self.page.clock.run_for(REPLAY_MS_PER_KEY * keys)

    def set_score(self, score: int) -> None:
        self.page.evaluate(_SET_SCORE, score)
        self.score_set = True

    def image(self) -> np.ndarray:
        # a click may have scrolled a page taller than its window (a button brought into view):
        # the screenshot is of the page at its top left, as a player who scrolls back sees it
        for _ in range(20):
            if self.page.evaluate(_SCROLLED_TO_TOP):
                break
            self.page.wait_for_timeout(20)
        return screenshot(self.page)

    # -- the truth -------------------------------------------------------------------------------
    def raw_state(self) -> dict[str, Any]:
        state = self.page.evaluate(_STATE)
        if state is None:
            raise PageDisagrees("the page shows no HATETRIS game")
        return state

    def settled(self) -> dict[str, Any]:
        """The page's state once its DOM shows it (the page renders a key's move a moment after
        the key: React commits asynchronously)."""
        for _ in range(50):
            raw = self.raw_state()
            if raw["well"] is not None and raw["cells"] == _state_cells(raw):
                return raw
            self.page.wait_for_timeout(10)
        raise PageDisagrees("the DOM's cells never came to show the page's state")

    def capture(self) -> tuple[np.ndarray, dict[str, Any]]:
        """A screenshot and the truth it shows (the truth is settled first, so the screenshot is of
        the state it gives, and read again after it to be sure nothing moved)."""
        truth = self.truth()
        image = self.image()
        if self.truth() != truth:
            raise PageDisagrees("the page changed while its screenshot was taken")
        truth["well_whole"], truth["score_whole"] = self.page.evaluate(_WHOLE)
        return image, truth

    def truth(self) -> dict[str, Any]:
        """The page's state, checked against its DOM and (for the AIs Kibitz plays) against
        Kibitz's engine replaying the page's keys."""
        raw = self.settled()
        well = tuple(int(row) for row in raw["well"])
        piece = raw["piece"]
        live = None if piece is None else {"piece": piece["id"], "x": piece["x"], "y": piece["y"], "o": piece["o"]}
        cells = _state_cells(raw)
        keys = raw["replay"][:raw["id"]]
        if self.code_keys is not None and raw["replay"] != self.code_keys:
            raise PageDisagrees("the page replays other keys than Kibitz's codecs read in the replay code")
        if raw["replay_out"]:
            coded = codecs.decode(raw["replay_out"])
            # the page's code may carry one pad key (spec 2.4)
            if coded != raw["replay"] and coded[:-1] != raw["replay"]:
                raise PageDisagrees("the page's replay code does not decode to the keys it played")
        rules = ENEMIES[self.enemy][1]
        engine_checked = False
        if rules is not None:
            replayed = fast.replay_keys(keys, rules)
            engine_live = None
            if not replayed.over:
                x, y, o = replayed.live
                engine_live = {"piece": replayed.pieces[-1], "x": x, "y": y, "o": o}
            if replayed.well != well or engine_live != live or (not self.score_set and replayed.score != raw["score"]):
                raise PageDisagrees(f"Kibitz's engine replaying the page's {len(keys)} keys gives well "
                                    f"{replayed.well}, score {replayed.score}, live {engine_live}; the page "
                                    f"shows {well}, {raw['score']}, {live}")
            engine_checked = True
        width = DEFAULT_RULES.width
        return {"cells": [cells[row:row + width] for row in range(0, len(cells), width)], "well": well, "score": int(raw["score"]), "live": live, "mode": raw["mode"],
                "enemy": self.enemy, "keys": keys, "engine_checked": engine_checked,
                "viewport": list(self.viewport), "scale": self.scale, "zoom": self.zoom}

    def state(self) -> State:
        """The page's position as Kibitz's engine state (the live piece as the piece to place)."""
        raw = self.raw_state()
        piece = raw["piece"]["id"] if raw["piece"] else None
        rules = ENEMIES[self.enemy][1] or DEFAULT_RULES
        return State(tuple(int(row) for row in raw["well"]), int(raw["score"]), piece, rules)


# -- a simple player ------------------------------------------------------------------------------
def placement_keys(state: State, rng: random.Random, low_share: float = 0.5) -> str:
    """The keys of a placement of the state's piece: one of the lowest (a seeded pick), so the stack
    stays varied and the game goes on a while."""
    from engines.hatetris.state import Placement

    positions = fast.resting_positions(state.well, state.rules, state.piece_index)
    ranked = sorted(positions, key=lambda p: (-p[1], rng.random()))
    pick = ranked[rng.randrange(max(1, int(len(ranked) * low_share)))]
    return fast.key_path(state, Placement(state.piece, *pick))


# -- captures -------------------------------------------------------------------------------------
NARROW = ((320, 640), (360, 740), (412, 915))
WIDE = ((800, 600), (1024, 900), (1366, 768), (1920, 1080))
SCALES = (1.0, 1.5, 2.0, 3.0)
ZOOMS = (0.5, 0.67, 0.75, 0.9, 1.0, 1.1, 1.25, 1.5, 1.75, 2.0)
#: Device pixels past this many a capture is not taken at (a 4K screen has 8.3 million).
MOST_PIXELS = 9_000_000
FITS = (230, 430)
#: The sessions' kinds, in turn: play with the page's AI (or another), a record replay, long scores.
SESSION_KINDS = ("play", "replay", "other-AI", "play", "replay", "long-score", "other-AI")
LONG_SCORES = (90, 900, 1235, 7, 10, 11, 100, 1000, 4444, 8080, 12345, 99999, 606, 31)


def _configuration(rng: random.Random, most_pixels: int, layout: str) -> tuple[str, tuple[int, int], float, float]:
    while True:
        viewport = rng.choice(WIDE if layout == "wide" else NARROW)
        scale, zoom = rng.choice(SCALES), rng.choice(ZOOMS)
        # the well (200 x 400 CSS px, 10 px in) whole in the viewport, as a player's screenshot has it
        fits = viewport[0] / zoom >= FITS[0] and viewport[1] / zoom >= FITS[1]
        if fits and viewport[0] * viewport[1] * scale * scale <= most_pixels and scale * zoom <= 4:
            return layout, viewport, scale, zoom


def _set_long_score(page: HatetrisPage, rng: random.Random) -> None:
    """One of LONG_SCORES (or the next number: a score's parity goes with the landed cells, 4 a
    piece and 10 a line, and Kibitz's engine holds a reading to it)."""
    cells = sum(int(row).bit_count() for row in page.raw_state()["well"])
    score = rng.choice(LONG_SCORES)
    page.set_score(score if (cells + 10 * score) % 4 == 0 else score + 1)


def _play_session(page: HatetrisPage, rng: random.Random, shots: int, enemy: str, look: str,
                  long_score: bool) -> Iterator[tuple[np.ndarray, dict, str]]:
    page.start(enemy)
    taken = 0
    while taken < shots:
        truth = page.truth()
        if truth["mode"] == "GAME_OVER":
            yield (*page.capture(), look)
            return
        keys = placement_keys(page.state(), rng)
        moving = rng.random() < 0.3
        shoot = rng.random() < 0.35
        if shoot and moving:
            page.press(keys[:rng.randrange(len(keys))])
            if long_score:
                _set_long_score(page, rng)
            image, shown = page.capture()
            yield image, shown, look
            taken += 1
            page.press(keys[len(shown["keys"]) - len(truth["keys"]):])
            continue
        page.press(keys)
        if shoot:
            if long_score:
                _set_long_score(page, rng)
            yield (*page.capture(), look)
            taken += 1


def _replay_session(page: HatetrisPage, rng: random.Random, shots: int, look: str) -> Iterator[tuple[np.ndarray, dict, str]]:
    record = rng.choice([r for r in records() if r["enemy_ai"] in ENEMY_OF_RECORD and int(r["score"]) > 0])
    enemy = ENEMY_OF_RECORD[record["enemy_ai"]]
    keys = len(codecs.decode(record["replay"]))
    page.show_replay(record["replay"], enemy)
    stops = sorted(rng.randrange(1, keys + 40) for _ in range(shots))
    played = 0
    for stop in stops:
        page.advance(stop - played)
        played = stop
        yield (*page.capture(), look)


def captures(browser, url: str, count: int, seed: int = 0, most_pixels: int = MOST_PIXELS) \
        -> Iterator[tuple[np.ndarray, dict, str]]:
    """``count`` captures of the real page (see the module doc), seeded; each session opens the page
    at one viewport, scale and zoom and takes a few captures from it. Screenshots have at most
    ``most_pixels`` device pixels (a 4K screen's 8.3 million by default)."""
    rng = random.Random(seed)
    made = 0
    sessions = 0
    while made < count:
        # the kinds and layouts take turns, so that even a small sample has each
        kind = SESSION_KINDS[sessions % len(SESSION_KINDS)]
        layout, viewport, scale, zoom = _configuration(rng, most_pixels, ("wide", "narrow")[sessions % 2])
        sessions += 1
        shots = min(count - made, rng.randint(3, 6))
        font_file = rng.choice((LIBERATION_SANS, LIBERATION_SANS, DEJAVU_SANS))
        page = HatetrisPage(browser, url, viewport, scale, zoom, clock=kind == "replay", font_file=font_file)
        try:
            if kind == "replay":
                session = _replay_session(page, rng, shots, f"replay {layout}")
            else:
                enemy = rng.choice(list(ENEMIES)[1:]) if kind == "other-AI" else "hatetris"
                session = _play_session(page, rng, shots, enemy, f"{kind} {layout}", kind == "long-score")
            for image, truth, look in session:
                if not truth["well_whole"]:
                    look += " clipped"  # part of the well lies outside the screenshot
                truth["look"] = look
                truth["font"] = font_file
                yield image, truth, look
                made += 1
                if made >= count:
                    break
        finally:
            page.close()


def replay_on_real_page(code: str, enemy: str = "hatetris") -> dict[str, Any] | str:
    """The truth the real page shows at the end of replay ``code`` (served and opened here), or
    why the real page cannot run on this machine."""
    from tests import real_pages

    reason = real_pages.unavailable()
    if reason:
        return reason
    with real_pages.served(real_pages.clients_dir() / "hatetris") as url, real_pages.Browser() as browser, \
            HatetrisPage(browser, url, clock=True) as page:
        return page.replay_to_end(code, enemy)
