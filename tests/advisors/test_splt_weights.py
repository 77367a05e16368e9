"""The reference SPL-T weighting (spec 3.2-3.3) against the reference's known answers.

- Greedy play with the weights from the empty board reaches 534 splits (spec 3.6, 4.1).
- ``playAssist.png`` (josh-holder's playAssist at split 1006 of the 1196 record) prints the box-list
  labels and the weights of that position; we read them off the image.
"""

from __future__ import annotations

import pytest

from advisors.splt.weights import board_facts, greedy_index, weighting, weights
from engines import GAMES
from engines.splt import Box, State, fast

SPLT = GAMES["splt"]


def test_greedy_from_the_empty_board_reaches_534_splits():
    state = State()
    while not state.is_over():
        state = fast.replay_indices(state, [greedy_index(state)]).state
    assert state.splits == 534


def test_first_move_weights_are_one():
    assert weights(State()) == (1.0,)


@pytest.fixture(scope="module")
def split_1006(splt_data) -> State:
    line = SPLT.parse_sequence((splt_data / "1196seq.txt").read_text())
    state = SPLT.replay(State(), line.moves[:1006])
    assert (state.splits, state.score) == (1006, 624_496)  # the window title in the image
    return state


def test_play_assist_labels_are_our_box_list_order(split_1006):
    # [label] -> box, read off the image (cell x from the left, y from the top; values shown).
    labelled = {
        108: Box(3, 2, 1, 2), 110: Box(4, 0, 2, 2), 114: Box(2, 0, 2, 2), 86: Box(0, 0, 1, 2),
        93: Box(1, 0, 1, 2), 81: Box(1, 4, 1, 2),
        57: Box(4, 2, 1, 1, 494), 70: Box(5, 2, 1, 1, 494), 48: Box(6, 2, 1, 1, 1006),
        113: Box(7, 2, 1, 1, 1006), 73: Box(4, 3, 1, 1, 494), 104: Box(5, 3, 1, 1, 494),
        58: Box(6, 3, 1, 1, 1006), 111: Box(7, 3, 1, 1, 1006),
        4: Box(0, 14, 1, 1, 1), 37: Box(0, 15, 1, 1, 1), 16: Box(7, 14, 1, 1, 15), 14: Box(7, 15, 1, 1, 15),
    }
    for label, box in labelled.items():
        assert split_1006.boxes[label] == box, label


def test_play_assist_weights(split_1006):
    # "Weight of box 81 is 16" ... printed as int(weight); [108] is the algorithm's move.
    printed = {81: 16, 86: 194, 93: 194, 108: 222, 110: 0, 114: 211}
    values = weights(split_1006)
    assert {i: int(v) for i, v in enumerate(values) if v} == printed
    assert greedy_index(split_1006) == 108
    # The normalised minimum is 0.01 (printed as 0): box [110].
    assert values[110] == pytest.approx(0.01, abs=1e-12)


def test_board_facts_of_a_hand_worked_position():
    # Two plain boxes side by side on the floor: (0,0,4,16) and (4,0,4,16), one split made.
    state = State(boxes=(Box(0, 0, 4, 16), Box(4, 0, 4, 16)), splits=1)
    facts = board_facts(state)
    assert (facts.horizontal_capacity, facts.vertical_capacity) == (30, 6)
    assert (facts.total, facts.imbalance) == (36, 24)
    assert facts.splits_until_fall == (0, 0)
    assert facts.stacks == ((0,), (0,))
    assert facts.lowest_in_band == (0, 0, 0, 0)


def test_terms_of_a_hand_worked_v_turn():
    # Same position, V turn (n = 1). Box 0 (4x16): no cluster possible (neighbour is 4x16, the
    # halves are 2x16). Term 1, V turn, I = 24 >= 0: a = h - 1 = 15, linear:
    # ((-15/7) * 15) * ((4 * 24) / 36) = -32.142857... * 2.6666... = -85.714285...
    # Term 2: AR 4 -> 8, jump 4: -20. Term 3: S = 0, none. Term 5: 10 * (16/16)^2 = 10.
    # Term 8: V turn, w = 4 > 2: +5. Raw = -85.714... - 20 + 10 + 5 = -90.714...
    state = State(boxes=(Box(0, 0, 4, 16), Box(4, 0, 4, 16)), splits=1)
    result = weighting(state)
    names = [name for name, _ in result.terms[0]]
    assert names == ["imbalance", "aspect ratio", "height", "wide block"]
    assert result.terms[0][0][1] == pytest.approx(-(15 / 7) * 15 * 96 / 36)
    assert result.terms[0][1][1] == -20.0
    assert result.terms[0][2][1] == 10.0
    # Both boxes are alike, so both get the normalised minimum 0.01.
    assert result.weights == pytest.approx((0.01, 0.01))
