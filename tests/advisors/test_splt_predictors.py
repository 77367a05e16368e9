"""The SPL-T warnings (spec 3.5) on hand-worked positions and on the real playAssist screen."""

from __future__ import annotations

import pytest

from advisors.splt.predictors import (
    FLOOR, PLAIN, halving_forecast, makes_new_halving, simulate_stack, unexpected_cluster,
)
from engines import GAMES
from engines.splt import Box, Move, State

SPLT = GAMES["splt"]


def test_blog_stack_example():
    # Spec 1.9: 100 / 50 / 10 / 1 top to bottom. The 1 goes first (49 / 24 / 4), then the 10
    # (22 / 10), then the 50 (6), then the 100 reaches 0 alone: one 0 at the end, three halvings.
    assert simulate_stack([100, 50, 10, 1]) == ([0], 3)


def test_blocks_exploding_together_are_not_a_new_halving():
    # [9, 9]: both reach 0 on the same countdown -> two zeros -> not a separate event.
    final, halvings = simulate_stack([9, 9])
    assert final == [0, 0] and halvings == 0


def _board(first_row_points: tuple[int, int, int, int], splits: int = 10) -> State:
    # Rows 0-3: (0,0,2,4) and two 2x2 boxes to its right, (4,0,4,4); row 4: four 1x1 point
    # blocks and a plain 4x1; rows 5-15 plain. Splitting (0,0,2,4) horizontally makes a cluster
    # of four 2x2 boxes whose lowest members, (0,2) and (2,2), rest on the row-4 blocks.
    a, b, c, d = first_row_points
    boxes = (
        Box(0, 0, 2, 4), Box(2, 0, 2, 2), Box(2, 2, 2, 2), Box(4, 0, 4, 4),
        Box(0, 4, 1, 1, a), Box(1, 4, 1, 1, b), Box(2, 4, 1, 1, c), Box(3, 4, 1, 1, d), Box(4, 4, 4, 1),
        Box(0, 5, 8, 1), Box(0, 6, 8, 2), Box(0, 8, 8, 8),
    )
    return State(boxes=boxes, splits=splits)


def test_cluster_on_mismatched_blocks_is_not_a_new_halving():
    # Under (0,2): 5 and 7 (after this turn 4 and 6: they disagree, the walk gives up); under
    # (2,2): 3 and 4 likewise. No representative qualifies.
    state = _board((5, 7, 3, 4))
    assert halving_forecast(state, Move(0, 0, 2, 4)).new_halving is False
    assert makes_new_halving(state, Move(0, 0, 2, 4)) is False


def test_cluster_on_a_block_exploding_first_is_a_new_halving():
    # Under (0,2): 5 and 5 -> v = 4 (F narrows to column 1), then the plain (0,5,8,1): stack
    # [11, 4]. 11,4 -> 10,3 -> 9,2 -> 8,1 -> 7,0 -> halve 7 to 3, drop the 0 -> 2 -> 1 -> 0:
    # one zero, one halving.
    state = _board((5, 5, 3, 4))
    forecast = halving_forecast(state, Move(0, 0, 2, 4))
    assert forecast.new_halving is True
    assert forecast.stack == (11, 4)
    assert forecast.halvings == 1


def test_no_cluster_no_forecast():
    state = _board((5, 5, 3, 4))
    assert halving_forecast(state, Move(0, 8, 8, 8)) is None
    assert makes_new_halving(state, Move(0, 8, 8, 8)) is False


def test_unexpected_cluster_after_an_explosion():
    # (0,14,2,2) shows 1 and explodes on any split. Above it (0,12,1,2), (1,12,1,1) and
    # (1,13,1,1) fall two rows; the two 1x1 land at (1,14) and (1,15) beside the plain 1x1 boxes
    # (2,14) and (2,15): a 2x2 of equal plain boxes nobody split for.
    boxes = (
        Box(0, 0, 8, 8), Box(0, 8, 8, 4),
        Box(0, 12, 1, 2), Box(1, 12, 1, 1), Box(1, 13, 1, 1), Box(2, 12, 1, 2), Box(3, 12, 1, 4),
        Box(4, 12, 4, 4), Box(0, 14, 2, 2, 1), Box(2, 14, 1, 1), Box(2, 15, 1, 1),
    )
    state = State(boxes=boxes, splits=10)
    found = unexpected_cluster(state, Move(0, 0, 8, 8))
    assert set(found) == {Box(1, 14, 1, 1), Box(2, 14, 1, 1), Box(1, 15, 1, 1), Box(2, 15, 1, 1)}


def test_no_fall_no_unexpected_cluster():
    state = _board((5, 5, 3, 4))
    assert unexpected_cluster(state, Move(0, 8, 8, 8)) == ()


@pytest.fixture(scope="module")
def split_1006(splt_data) -> State:
    line = SPLT.parse_sequence((splt_data / "1196seq.txt").read_text())
    return SPLT.replay(State(), line.moves[:1006])


def test_play_assist_colours(split_1006):
    # playAssist.png: green fill (new halving) on [81], [108] and [110]; red on [93]; grey on
    # [86] and [114] (fill colours read off the image: green is (0,150,0)).
    green = {81, 108, 110}
    red = {93}
    for index in (81, 86, 93, 108, 110, 114):
        move = Move.of(split_1006.boxes[index])
        assert makes_new_halving(split_1006, move) is (index in green), index
        assert bool(unexpected_cluster(split_1006, move)) is (index in red), index


def test_cluster_with_no_point_block_under_it():
    # Rows 0-3 as in _board, but row 4 is one plain (0,4,4,1): splitting (0,0,2,4) makes the
    # cluster of four 2x2 boxes whose lowest members (0,2) and (2,2) rest on that plain box. The
    # walk stops at once: stack [11] (n + 1), which counts down alone to one 0, so the reference
    # answers "new halving" (nothing can explode with it), yet no point block lies under it: it
    # is not stacked, adds no halving to a stack and gets no halving from one.
    boxes = (
        Box(0, 0, 2, 4), Box(2, 0, 2, 2), Box(2, 2, 2, 2), Box(4, 0, 4, 4),
        Box(0, 4, 4, 1), Box(4, 4, 4, 1), Box(0, 5, 8, 1), Box(0, 6, 8, 2), Box(0, 8, 8, 8),
    )
    state = State(boxes=boxes, splits=10)
    forecast = halving_forecast(state, Move(0, 0, 2, 4))
    assert forecast.stack == (11,) and forecast.base == PLAIN
    assert forecast.new_halving is True and makes_new_halving(state, Move(0, 0, 2, 4)) is True
    assert forecast.stacked is False and forecast.adds_halving is False
    assert forecast.halvings == 0


def test_cluster_on_the_floor():
    # Splitting (0,14,2,2) horizontally gives (0,14,2,1) and (0,15,2,1) beside the plain
    # (2,14,2,1) and (2,15,2,1): a cluster of four 2x1 whose lowest members lie on row 15.
    # Nothing is under them: stack [11], trivially alone (the reference's yes), not stacked.
    boxes = (
        Box(0, 0, 8, 8), Box(0, 8, 8, 4), Box(0, 12, 8, 2),
        Box(0, 14, 2, 2), Box(2, 14, 2, 1), Box(2, 15, 2, 1), Box(4, 14, 4, 2),
    )
    state = State(boxes=boxes, splits=10)
    forecast = halving_forecast(state, Move(0, 14, 2, 2))
    assert forecast.stack == (11,) and forecast.base == FLOOR
    assert forecast.new_halving is True and forecast.adds_halving is False
    assert forecast.halvings == 0


def test_stacked_new_halving_adds_one():
    # The (5, 5, 3, 4) board of test_cluster_on_a_block_exploding_first_is_a_new_halving: the
    # stack [11, 4] has a point block in it and ends with one 0.
    forecast = halving_forecast(_board((5, 5, 3, 4)), Move(0, 0, 2, 4))
    assert forecast.stacked is True and forecast.adds_halving is True and forecast.base == PLAIN
