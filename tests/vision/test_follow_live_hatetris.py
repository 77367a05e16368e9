"""Follow mode on the live HATETRIS page: the real game is played in headless chromium (the test
presses the keys of Kibitz's own best placement, from its HATETRIS advisor's ranking with Kibitz's
weights, which clears a few lines before the AI wins), screenshots
of the page taken at arbitrary moments (mid-move too: after any key) are the screen, and a
:class:`vision.follow.Follower` follows untouched.

At game over the follower's line must be the real game's: the page's replay code (shown under the
well when the game ends) read by Kibitz's codecs is the game's line (every placement and every
piece the AI sent); the follower must have played the same placements (the same cells: S, Z and I
cover the same cells from two states) and got the same pieces, the same final well and score.
No frame may be unexplained and no move may be played before the page made it (a frame caught
mid-move taken as a move).

:func:`follow_games` plays several games (``benchmarks/vision.py`` calls it); the suite plays one.
"""

from __future__ import annotations

import random
import time
from typing import Any

import pytest

from engines.hatetris import GAME
from engines.hatetris.pieces import CELLS, PIECE_INDEX
from tests import real_pages
from tests.vision.pages_hatetris import ENEMIES, HatetrisPage
from vision.follow import Follower, NoBoard, Played, Unexplained

#: The page: wide enough that the well, its score and the keys' buttons show without scrolling.
VIEWPORT = (800, 640)
#: The chance, after each key, of a screenshot then (a piece mid-move) and of a second one at once
#: (a settled screen the follower reads).
SHOT_AFTER_KEY = 0.2
SECOND_SHOT = 0.6
#: Every placement is on a settled screen before the next one locks, somewhere in the next
#: piece's fall: two placements between two readings can be told apart by no one when they commute
#: (two S pieces placed apart, in either order, leave the same well and the AI sends the same).
MOST_PLACEMENTS_UNSEEN = 1
#: The chance that the player takes the advisor's second or third choice instead of its best (so
#: seeded games differ: the AI is deterministic).
OTHER_CHOICE = 0.2


def _cells(move) -> frozenset[tuple[int, int]]:
    return frozenset((move.x + cx, move.y + cy) for cx, cy in CELLS[PIECE_INDEX[move.piece]][move.o])


def _pieces_sent(start, moves) -> list[str | None]:
    """The piece of the start and the piece the AI sent after each move (None: game over)."""
    state, pieces = start, [start.piece]
    for move in moves:
        state = GAME.play(state, move).state
        pieces.append(state.piece)
    return pieces


def follow_game(browser, url: str, seed: int, scale: float = 1.0, zoom: float = 1.0,
                enemy: str = "hatetris", most_placements: int = 400) -> dict[str, Any]:
    """One game on the live page, to game over, followed from screenshots; the numbers of it."""
    from advisors.hatetris.heuristic import WEIGHT_SETS, rank

    rng = random.Random(seed)  # when the screenshots are taken
    chooser = random.Random(-1 - seed)  # which of the advisor's placements is played
    rules = ENEMIES[enemy][1]
    page = HatetrisPage(browser, url, VIEWPORT, scale, zoom)
    numbers: dict[str, Any] = {"seed": seed, "enemy": enemy, "frames": 0, "reads": 0, "unexplained": 0,
                               "no_board": 0, "animation_moves": 0, "moves": 0}
    try:
        page.start(enemy)
        actual = GAME.initial_state(rules)  # the game as played, in Kibitz's engine
        placed = []
        follower = Follower(GAME, GAME.initial_state(rules))
        followed: list[Any] = []
        read_ms: list[float] = []
        notes: list[str] = []
        unseen = 0

        def shoot(times: int) -> None:
            nonlocal unseen
            for _ in range(times):
                image = page.image()
                started = time.perf_counter()
                event = follower.feed(image)
                elapsed = (time.perf_counter() - started) * 1000
                numbers["frames"] += 1
                if isinstance(event, (Played, Unexplained, NoBoard)):
                    numbers["reads"] += 1
                    read_ms.append(elapsed)
                if isinstance(event, Played):
                    followed.extend(event.moves)
                    if len(followed) > len(placed):  # the follower is ahead of the page
                        numbers["animation_moves"] += len(followed) - len(placed)
                        notes.append(f"after {len(placed)} placements the follower played {len(followed)}")
                elif isinstance(event, Unexplained):
                    numbers["unexplained"] += 1
                    notes.append(f"after {len(placed)} placements: {event.reason}")
                elif isinstance(event, NoBoard):
                    numbers["no_board"] += 1
                    notes.append(f"after {len(placed)} placements: no board ({event.reason})")
            if times >= 2:
                unseen = 0

        while not actual.over and len(placed) < most_placements:
            choices = rank(actual, limit=3, weights=WEIGHT_SETS["kibitz"])
            pick = choices[0] if chooser.random() >= OTHER_CHOICE or len(choices) == 1 else chooser.choice(choices[1:])
            for number, key in enumerate(pick.keys):
                locks = number == len(pick.keys) - 1  # the last Down locks the piece
                if locks and unseen >= MOST_PLACEMENTS_UNSEEN:
                    page.settled()
                    shoot(2)
                page.press(key)
                if locks:
                    actual = GAME.play(actual, pick.move).state
                    placed.append(pick.move)
                    unseen += 1
                if rng.random() < SHOT_AFTER_KEY:
                    page.settled()
                    shoot(2 if rng.random() < SECOND_SHOT else 1)
            page.settled()
            if rng.random() < 0.5:
                shoot(2)
        page.settled()
        shoot(3)  # the final screen, settled

        truth = page.truth()
        code = page.raw_state()["replay_out"]
        real = GAME.parse_sequence(code) if code else None  # Kibitz's codecs read the page's code
        real_moves = list(real.moves) if real else []
        numbers.update(
            moves=len(real_moves), placements_played=len(placed), followed=len(followed),
            score=truth["score"], over=truth["mode"] == "GAME_OVER",
            read_ms_median=sorted(read_ms)[len(read_ms) // 2] if read_ms else None,
            notes=notes[:10])
        numbers["ms_per_frame"] = numbers["read_ms_median"] or 0.0
        for index, (mine, theirs) in enumerate(zip(followed, real_moves)):
            if _cells(mine) != _cells(theirs):
                notes.append(f"placement {index + 1}: followed {mine}, the page's {theirs}")
                break
        numbers["notes"] = notes[:10]
        numbers["checks"] = checks = {
            "the page's game is over and its replay code read": numbers["over"] and real is not None,
            "every placement": [_cells(m) for m in followed] == [_cells(m) for m in real_moves],
            "every piece the AI sent": real is not None and _pieces_sent(GAME.initial_state(rules), followed)
            == _pieces_sent(real.start, real_moves),
            "the well": follower.state.well == truth["well"],
            "the score": follower.state.score == truth["score"],
            "game over": follower.state.over,
        }
        numbers["tree_equal"] = all(checks.values())
    finally:
        page.close()
    return numbers


def follow_games(count: int, seed: int = 0) -> list[dict[str, Any]]:
    """``count`` games to game over on the live page (served and driven here), each followed from
    screenshots; per game: moves, frames, reads, unexplained, animation_moves, tree_equal, ..."""
    reason = real_pages.unavailable()
    if reason:
        raise RuntimeError(reason)
    games = []
    with real_pages.served(real_pages.clients_dir() / "hatetris") as url, real_pages.Browser() as browser:
        for number in range(count):
            enemy = "mild" if number % 3 == 2 else "hatetris"
            scale = (1.0, 2.0, 1.5)[number % 3]
            games.append(follow_game(browser, url + "/hatetris.html", seed + number, scale=scale, enemy=enemy))
    return games


@pytest.fixture(scope="module")
def page_url():
    reason = real_pages.unavailable()
    if reason:
        pytest.skip(reason)
    with real_pages.served(real_pages.clients_dir() / "hatetris") as url:
        yield url + "/hatetris.html"


def test_a_live_game_is_followed_to_game_over_move_for_move(qapp, page_url):
    with real_pages.Browser() as browser:
        numbers = follow_game(browser, page_url, seed=0)  # 37 placements, 2 lines
    assert numbers["over"], numbers
    assert numbers["moves"] >= 10 and numbers["moves"] == numbers["placements_played"], numbers
    assert numbers["score"] >= 1, numbers  # lines were cleared: the follower followed them too
    assert numbers["unexplained"] == 0 and numbers["no_board"] == 0, numbers["notes"]
    assert numbers["animation_moves"] == 0, numbers["notes"]
    assert numbers["followed"] == numbers["moves"], numbers
    assert numbers["tree_equal"], numbers
