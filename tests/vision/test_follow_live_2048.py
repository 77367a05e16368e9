"""Follow mode on the live 2048 page: the real game plays in headless chromium, the test presses
the keys (Kibitz's own best slide from its 2048 advisor), the page's screenshots are the screen,
grabbed as the window's follow timer grabs it (every ``FOLLOW_MILLISECONDS`` during the animation,
from a random phase, sometimes held still mid-animation, then settled), and the follower is never
touched. After every key the follower's position must be the page's own
(``localStorage["gameState"]``), and at the end the moves it played must be the real game's:
every slide and every spawn, the spawn being where the page's board differs from the slide's
result. Frames caught mid-animation never play a move that is not the real one.

:func:`follow_games` is what ``benchmarks/vision.py`` runs for longer games.
"""

from __future__ import annotations

import dataclasses
import time

import numpy as np
import pytest

from app.gui.capture import FOLLOW_MILLISECONDS
from engines import GAMES
from engines.g2048.state import Slide, Spawn, State
from tests import real_pages
from tests.real_pages import Browser, clients_dir, served, unavailable
from tests.vision.pages_2048 import Page2048
from vision.follow import Follower, Played, Settling, Unexplained

GAME = GAMES["2048"]
KEY_OF_DIRECTION = {0: "up", 1: "right", 2: "down", 3: "left"}
#: A wide layout small enough for quick screenshots (the board is 500 CSS pixels).
VIEWPORT = (560, 760)
#: The page's slide (100 ms) and its new tile's appearance (200 ms after 100 ms) end by then.
ANIMATION_MILLISECONDS = 300


@dataclasses.dataclass
class GameFollowed:
    """What one followed game gives."""

    moves: int = 0                     # keys that moved the page's board
    real_line: list = dataclasses.field(default_factory=list)      # slides and spawns, from the page
    followed_line: list = dataclasses.field(default_factory=list)  # what the follower played
    frames: int = 0
    mid_animation_frames: int = 0
    mid_animation_played: int = 0      # frames caught mid-animation that played the key's real move
    animation_frames_taken_as_moves: int = 0  # ... that played anything else
    unexplained: int = 0               # Unexplained events (each a frame the follower could not explain)
    positions_off: int = 0             # keys after which the follower's position was not the page's
    #: keys whose slide and spawn the follower took for another slide and spawn that leave the
    #: very same position (e.g. a lone 2 slid up and a 2 spawned at its left, or slid left and a
    #: 2 spawned above it): no screenshot can tell them apart
    same_position_other_line: int = 0
    notes: list = dataclasses.field(default_factory=list)
    final_score: int = 0
    top_tile: int = 0
    over: bool = False
    seconds: float = 0.0
    read_ms: list = dataclasses.field(default_factory=list)

    @property
    def equal(self) -> bool:
        return self.followed_line == self.real_line and self.positions_off == 0

    @property
    def positions_equal(self) -> bool:
        """After every key the follower stood where the page did, each key explained."""
        return self.positions_off == 0 and len(self.followed_line) == len(self.real_line)

    def summary(self) -> dict:
        return {"moves": self.moves, "tree_equal": self.equal, "positions_equal": self.positions_equal,
                "same_position_other_line": self.same_position_other_line, "frames": self.frames,
                "mid_animation_frames": self.mid_animation_frames,
                "mid_animation_played_right": self.mid_animation_played,
                "animation_frames_taken_as_moves": self.animation_frames_taken_as_moves,
                "unexplained": self.unexplained, "positions_off": self.positions_off,
                "final_score": self.final_score, "top_tile": self.top_tile, "over": self.over,
                "seconds": round(self.seconds, 1),
                "read_ms_median": round(float(np.median(self.read_ms)), 1) if self.read_ms else None,
                "notes": self.notes[:10]}


def _state(truth: dict) -> State:
    return State.from_rows(truth["cells"], score=truth["score"])


def _spawn(after_slide: State, truth: dict) -> Spawn:
    """The page's spawn: the one cell where its board differs from the slide's result."""
    differing = [(r, c) for r in range(4) for c in range(4) if after_slide.rows[r][c] != truth["cells"][r][c]]
    if len(differing) != 1 or after_slide.rows[differing[0][0]][differing[0][1]] != 0:
        raise AssertionError(f"the page's board is not one spawn from the slide's: {differing}")
    row, column = differing[0]
    return Spawn(row, column, truth["cells"][row][column])


class _TimedReader:
    """vision.read, timed."""

    def __init__(self, record: GameFollowed):
        from vision import read

        self._read, self.record = read, record

    def __call__(self, game, image, previous=None):
        started = time.perf_counter()
        try:
            return self._read(game, image, previous=previous)
        finally:
            self.record.read_ms.append((time.perf_counter() - started) * 1000)


def follow_game(browser, base_url: str, moves: int, seed: int, advisor_ms: float | None = None) -> GameFollowed:
    """Play ``moves`` keys of a seeded game on the live page and follow it from its screenshots."""
    from advisors.g2048 import Budget, Expectimax

    record = GameFollowed()
    started = time.perf_counter()
    rng = np.random.default_rng(seed)
    advisor = Expectimax()
    budget = Budget(milliseconds=advisor_ms) if advisor_ms else Budget(depth=1)
    page = Page2048(browser, base_url, viewport=VIEWPORT)
    try:
        truth = page.new_game(seed=seed)
        state = _state(truth)
        follower = Follower(GAME, state, read=_TimedReader(record))

        def feed(image, mid_animation: bool, slide_end: State | None):
            record.frames += 1
            record.mid_animation_frames += mid_animation
            event = follower.feed(image)
            if isinstance(event, Unexplained):
                record.unexplained += 1
                record.notes.append(f"key {record.moves}: unexplained ({event.reason}); read {event.reading.cells}")
            if isinstance(event, Played):
                record.followed_line.extend(event.moves)
                if mid_animation:
                    if slide_end is not None and event.state.exponents == slide_end.exponents:
                        record.mid_animation_played += 1
                    else:
                        record.animation_frames_taken_as_moves += 1
            return event

        settled = page.screenshot()
        feed(settled, False, None)
        feed(settled, False, None)
        for _ in range(moves):
            slide = advisor.best_slide(state, budget)
            if slide is None:
                record.over = True
                break
            # the page's own result (its saved game is written as the key is handled; the
            # tiles are drawn over the next frames)
            truth = page.press(KEY_OF_DIRECTION[slide.direction], settle=False)
            after_slide = GAME.play(state, slide).state
            spawn = _spawn(after_slide, truth)
            end = GAME.apply_chance(after_slide, spawn).state
            record.real_line += [slide, spawn]
            record.moves += 1
            # the frames the window's follow timer grabs during the animation: one every
            # FOLLOW_MILLISECONDS from a random phase, each frozen at its time so that a slow
            # screenshot on a loaded machine still shows that moment; sometimes one is held still
            # (fed twice, as a screen that stopped mid-animation would be); then settled
            played_before = len(record.followed_line)
            held = int(rng.integers(0, 3)) if rng.random() < 0.35 else -1
            moments = np.arange(rng.uniform(0, FOLLOW_MILLISECONDS), ANIMATION_MILLISECONDS, FOLLOW_MILLISECONDS)
            for index, moment in enumerate(moments):
                page.freeze(float(moment))
                frame = page.screenshot()
                for _ in range(2 if index == held else 1):
                    feed(frame, True, end)
            page.settle()
            image = page.screenshot()
            for _ in range(4):  # until it is read (a change is read once it held for a frame)
                if not isinstance(feed(image, False, end), Settling):
                    break
            if follower.state.exponents != end.exponents or follower.state.score != truth["score"]:
                record.positions_off += 1
                record.notes.append(f"key {record.moves}: follower at {follower.state.rows}, page at {end.rows}")
                follower.reset(_state(truth))  # go on from the page's position (counted above)
            elif record.followed_line[played_before:] != [slide, spawn]:
                record.same_position_other_line += 1
                record.notes.append(f"key {record.moves}: {slide} {spawn} followed as "
                                    f"{' '.join(map(str, record.followed_line[played_before:]))}")
            state = _state(truth)
            if truth["won"] and not truth["keep_playing"]:
                page.keep_going()
        record.final_score = state.score
        record.top_tile = max(max(row) for row in state.rows)
    finally:
        page.close()
    record.seconds = time.perf_counter() - started
    return record


def follow_games(count: int = 5, moves: int = 300, seed: int = 0, advisor_ms: float | None = None) -> list[dict]:
    """``count`` seeded games of ``moves`` keys each on the live page: per game, the numbers of
    :meth:`GameFollowed.summary`. For ``benchmarks/vision.py``; raises RuntimeError when the real
    page cannot run here."""
    reason = unavailable()
    if reason:
        raise RuntimeError(reason)
    results = []
    with served(clients_dir() / "2048") as url, Browser() as browser:
        for game in range(count):
            results.append(follow_game(browser, url, moves, seed + game, advisor_ms).summary())
    return results


# -- the suite's small count ---------------------------------------------------------------------------
@pytest.fixture(scope="module")
def live_page():
    with real_pages.live_page("2048") as (browser, url):
        yield browser, url


def test_follows_a_live_game_move_for_move(live_page):
    browser, url = live_page
    record = follow_game(browser, url, moves=45, seed=2024)
    assert record.moves == 45
    assert record.mid_animation_frames >= 45
    assert record.positions_off == 0
    assert record.positions_equal
    assert record.followed_line == record.real_line, record.notes
    assert record.animation_frames_taken_as_moves == 0
    assert record.unexplained == 0


# -- frames that show a move half done are waited out ---------------------------------------------------
class _Frames:
    """A fake reader: frame k (told apart by its first pixel) reads as board k, maybe in motion."""

    def __init__(self, boards: dict[int, str], moving: set[int] = frozenset()):
        self.boards, self.moving = boards, moving

    def __call__(self, short_name, image, previous=None):
        from vision.reading import Reading

        key = int(image[0, 0, 0])
        return Reading("2048", GAME.parse_board(self.boards[key]), [], np.ones((4, 4)),
                       {"in_motion": key in self.moving})


def _frame(key: int) -> np.ndarray:
    image = np.random.default_rng(key).integers(0, 256, (64, 64, 3), dtype=np.uint8)
    image[0, 0, 0] = key
    return image


def test_a_slide_caught_before_its_merge_and_spawn_is_waited_out():
    """Start 2 2 . . / ... / . . . 4; slide left: the page first shows the two 2s at the left
    (not yet merged) and the 4 at the bottom left, with no new tile; then 4 . . 2 after the spawn."""
    start = GAME.parse_board("2 2 . ./. . . ./. . . ./. . . 4")
    frames = _Frames({1: "2 . . ./. . . ./. . . ./4 . . .", 2: "score 4\n4 . . 2/. . . ./. . . ./4 . . ."})
    follower = Follower(GAME, start, read=frames)
    assert isinstance(follower.feed(_frame(1)), Settling)
    assert isinstance(follower.feed(_frame(1)), Settling)    # read: half a slide, waited out
    assert follower.state == start
    assert isinstance(follower.feed(_frame(2)), Settling)
    event = follower.feed(_frame(2))
    assert isinstance(event, Played) and event.moves == (Slide(3), Spawn(0, 3, 2))


def test_a_frame_in_motion_that_holds_still_is_taken_in_the_end():
    start = GAME.parse_board("2 2 . ./. . . ./. . . ./. . . 4")
    frames = _Frames({1: "score 4\n4 . . 2/. . . ./. . . ./4 . . ."}, moving={1})
    follower = Follower(GAME, start, read=frames)
    events = [follower.feed(_frame(1)) for _ in range(4)]
    assert [type(event) for event in events[:3]] == [Settling, Settling, Settling]
    assert isinstance(events[3], Played) and events[3].moves == (Slide(3), Spawn(0, 3, 2))
