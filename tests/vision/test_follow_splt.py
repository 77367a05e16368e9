"""Follow mode for SPL-T: the splits between two readings, found by the rules alone.

The expected answers come from outside the search: the real screenshot pair of ``6ptblock.png``
(158 and 169 splits) with the 11 splits its transcription validated, positions along the record
games, and the spec's 10-split opening. Time limits are generous against a loaded machine; the
search itself takes a fraction of them (see the timings in the issue's report).
"""

from __future__ import annotations

import dataclasses
import random
import time

import numpy as np
import pytest

from engines import GAMES
from engines.splt.state import Box, Move, State
from vision import Reading
from vision.follow import Follower, Played, explain

SPLT = GAMES["splt"]


@pytest.fixture(scope="module", autouse=True)
def _compiled_kernel():
    SPLT.warm_up()


def _screenshot_state(truth: dict, name: str) -> State:
    entry = truth[name]
    boxes = tuple(Box(*box) for box in entry["boxes"])
    return State(boxes=boxes, score=entry["score"], splits=entry["splits"])


@pytest.fixture(scope="module")
def screenshot_pair(splt_screenshots):
    return (_screenshot_state(splt_screenshots, "6ptblock.png#left"),
            _screenshot_state(splt_screenshots, "6ptblock.png#right"))


def _explained_in(seconds: float, *args, **kwargs):
    started = time.perf_counter()
    found = explain(SPLT, *args, **kwargs)
    elapsed = time.perf_counter() - started
    assert elapsed < seconds, f"took {elapsed:.2f} s"
    return found


def _reaches(found, target: State, score: int | None = None) -> bool:
    """The line replays, from the engine's own rules, to the target's board and split count."""
    return (found is not None and found.state.canonical().boxes == target.canonical().boxes
            and found.state.splits == target.splits and (score is None or found.state.score == score))


# -- the real screenshot pair --------------------------------------------------------------------
def test_the_real_158_to_169_screenshot_pair_is_explained_by_eleven_splits(splt_screenshots, screenshot_pair):
    before, after = screenshot_pair
    transition = splt_screenshots["_validated_transition"]
    validated = [Move(*move[:4]) for move in transition["moves_box_before_split_xywh_and_orientation"]]
    expected = SPLT.replay(before, validated)
    assert expected.same_position(after)          # the transcription agrees with itself

    found = _explained_in(10.0, before, after)
    assert len(found.moves) == 11
    assert found.state.same_position(expected)    # cell for cell, 169 splits, score 13177
    assert (found.state.splits, found.state.score) == (169, 13177)
    assert SPLT.replay(before, found.moves).same_position(after)


def test_the_screenshot_pair_without_a_score_is_explained_by_its_board(screenshot_pair):
    before, after = screenshot_pair
    unread = dataclasses.replace(after, score=0)
    found = _explained_in(10.0, before, unread)
    assert _reaches(found, after, score=13177)


def test_a_misread_score_falls_back_to_the_board(screenshot_pair):
    before, after = screenshot_pair
    found = _explained_in(10.0, before, dataclasses.replace(after, score=13178))
    assert _reaches(found, after, score=13177)    # the engine's score, not the misread one


def _changed(state: State, old: tuple, new: tuple[tuple, ...]) -> State:
    boxes = [box for box in state.boxes if (box.x, box.y, box.w, box.h, box.points) != old]
    assert len(boxes) == len(state.boxes) - 1
    return dataclasses.replace(state, boxes=tuple(boxes) + tuple(Box(*box) for box in new))


@pytest.mark.parametrize("old, new", [
    ((2, 0, 2, 2, 129), ((2, 0, 2, 2, 128),)),                     # an untouched block one too low
    ((4, 11, 2, 2, 5), ((4, 11, 2, 2, 4),)),                       # a fallen block halved differently
    ((6, 0, 2, 2, 0), ((6, 0, 1, 2, 0), (7, 0, 1, 2, 0))),         # a refill box split once more
    ((4, 15, 2, 1, 0), ((4, 15, 1, 1, 0), (5, 15, 1, 1, 0))),      # an old plain box split
], ids=["value", "halving", "refill-split", "old-split"])
def test_a_board_with_one_box_changed_is_not_explained(screenshot_pair, old, new):
    before, after = screenshot_pair
    assert _explained_in(5.0, before, _changed(after, old, new)) is None


def test_counters_that_do_not_fit_are_not_explained(screenshot_pair):
    before, after = screenshot_pair
    assert explain(SPLT, after, before) is None                                       # backwards
    assert explain(SPLT, before, dataclasses.replace(after, splits=168)) is None      # one split short
    assert explain(SPLT, before, after, max_player_moves=10) is None
    assert explain(SPLT, before, before).moves == ()


# -- positions along the record games ------------------------------------------------------------
def _record_positions(records: dict) -> dict[str, list[State]]:
    games = {}
    for name, record in records.items():
        if name.startswith("_"):
            continue
        states = [State()]
        for move in record["moves_xywh"]:
            states.append(SPLT.play(states[-1], Move(*move)).state)
        games[name] = states
    return games


@pytest.fixture(scope="module")
def record_positions(splt_records):
    return _record_positions(splt_records)


@pytest.mark.parametrize("gap", [1, 2, 3, 5])
def test_splits_skipped_along_the_record_games_are_found(record_positions, gap):
    rng = random.Random(gap)
    for name, states in record_positions.items():
        for start in rng.sample(range(len(states) - gap), 4):
            before, after = states[start], states[start + gap]
            found = _explained_in(1.0, before, after)
            assert _reaches(found, after, score=after.score), (name, start, gap)
            unread = dataclasses.replace(after, score=0)
            found = _explained_in(1.0, before, unread)
            assert _reaches(found, after), (name, start, gap, "board only")


def test_eleven_splits_skipped_along_the_record_games_are_found(record_positions):
    rng = random.Random(11)
    for name, states in record_positions.items():
        start = rng.randrange(len(states) - 11)
        found = _explained_in(10.0, states[start], states[start + 11])
        assert _reaches(found, states[start + 11], score=states[start + 11].score), (name, start)


def test_the_spec_opening_is_found_from_the_empty_board():
    # spec 1.9: ten splits, the four 5-blocks explode on the tenth, score 98
    opening = [Move(0, 0, 8, 16), Move(0, 0, 8, 8), Move(0, 0, 4, 8), Move(0, 8, 8, 8), Move(4, 0, 4, 8),
               Move(0, 8, 4, 8), Move(0, 8, 2, 8), Move(0, 8, 2, 4), Move(0, 8, 1, 4), Move(4, 8, 4, 8)]
    after = SPLT.replay(State(), opening)
    assert after.score == 98
    assert _reaches(_explained_in(10.0, State(), after), after, score=98)


# -- the follower ---------------------------------------------------------------------------------
def test_the_follower_plays_the_splits_between_two_screenshots(screenshot_pair):
    before, after = screenshot_pair
    frame = np.full((64, 32, 3), 90, np.uint8)

    def read(short_name, image, previous=None):
        return Reading(short_name, after, {}, np.ones((16, 8)))

    follower = Follower(SPLT, before, read=read)
    follower.feed(frame)
    event = follower.feed(frame)
    assert isinstance(event, Played) and len(event.moves) == 11
    assert follower.state.same_position(SPLT.replay(before, event.moves))
    assert (follower.state.splits, follower.state.score) == (169, 13177)
