"""SPL-T rules on hand-worked positions (spec ``shared/specs/splt.md`` section 1).

Every expectation below was worked out on paper from the spec text, never by running the engine;
the derivation is in the comment above each check. Each test runs through both turn paths, the
numba kernel (``fast.play``) and the plain-Python reference (``reference.play``), and compares the
whole resulting state (boxes in list order, score, split count) and the events of the turn.

Conventions of the comments: boxes are (x, y, w, h[, points]), y grows downwards; N is the number
of the split being played (split count after the turn); "cd" = countdown.
"""

from __future__ import annotations

import pytest

from engines.errors import IllegalMoveError, NotationError
from engines.splt import fast, reference
from engines.splt.events import (
    BlockHalved,
    BlocksExploded,
    BoxesRefilled,
    BoxFell,
    BoxSplit,
    PointBlocksCreated,
    TurnScored,
)
from engines.splt.notation import parse_board
from engines.splt.state import Box, Move, Rules, State

B = Box
PATHS = {"fast": fast.play, "reference": reference.play}


@pytest.fixture(params=sorted(PATHS))
def turn(request):
    """One SPL-T turn, through the numba path or the reference path."""
    return PATHS[request.param]


# -- helpers -----------------------------------------------------------------------------------------
def of(step, kind):
    return [event for event in step.events if isinstance(event, kind)]


def kinds(step):
    return [type(event).__name__ for event in step.events]


def assert_state(step, boxes, score, splits, rules=Rules()):
    assert step.state == State(boxes=tuple(boxes), score=score, splits=splits, rules=rules)


def m(x, y, w, h):
    return Move(x, y, w, h)


# =====================================================================================================
# 1.2 Orientation, legal moves, split geometry
# =====================================================================================================
def test_first_split_is_horizontal_and_orientation_alternates(turn):
    # Start: (0,0,8,16), n = 0 -> H. Split 1 (H): top half (0,0,8,8) keeps index 0, bottom half
    # (0,8,8,8) appended. No point blocks, no voids: score 0 + 1 (the split).
    start = State()
    assert start.orientation == "H"
    step = turn(start, m(0, 0, 8, 16))
    assert_state(step, [B(0, 0, 8, 8), B(0, 8, 8, 8)], score=1, splits=1)
    assert step.events == (
        BoxSplit(B(0, 0, 8, 16), "H", B(0, 0, 8, 8), B(0, 8, 8, 8)),
        TurnScored(1, 0, 0, 0, 0),
    )
    # n = 1 -> V: split (0,8,8,8) into left (0,8,4,8) (keeps index 1) and right (4,8,4,8) (appended).
    assert step.state.orientation == "V"
    step = turn(step.state, m(0, 8, 8, 8))
    assert_state(step, [B(0, 0, 8, 8), B(0, 8, 4, 8), B(4, 8, 4, 8)], score=2, splits=2)
    assert step.events[0] == BoxSplit(B(0, 8, 8, 8), "V", B(0, 8, 4, 8), B(4, 8, 4, 8))
    assert step.state.orientation == "H"


def test_split_box_keeps_its_index_and_new_half_is_appended(turn):
    # n = 2 (H). Splitting the FIRST box (0,0,4,8) -> (0,0,4,4) stays at index 0, (0,4,4,4) goes last.
    # Clusters: a 4x4 square would need (4,0) or (4,4) to be a 4x4 box; (4,0,4,8) is 4x8 -> none.
    state = parse_board("splits=2 score=2 | 0,0,4,8 4,0,4,8 0,8,8,8")
    step = turn(state, m(0, 0, 4, 8))
    assert_state(
        step, [B(0, 0, 4, 4), B(4, 0, 4, 8), B(0, 8, 8, 8), B(0, 4, 4, 4)], score=3, splits=3
    )
    assert kinds(step) == ["BoxSplit", "TurnScored"]


# A full board with a 1x1 box at (4,6) (and another at (5,6)) and a 2x1 box at (4,7).
SMALL_BOXES = "| 0,0,8,4 0,4,4,4 4,4,4,2 4,6,1,1 5,6,1,1 4,7,2,1 6,6,2,2 0,8,8,8"


@pytest.mark.parametrize(
    "splits, move, reason",
    [
        # V turn (n odd): a 1-wide box cannot be split vertically.
        (11, Move(4, 6), "box (4,6,1,1) cannot split vertically: width 1"),
        # H turn (n even): 1x1 and 2x1 boxes cannot be split horizontally.
        (12, Move(4, 6), "box (4,6,1,1) cannot split horizontally: height 1"),
        (12, Move(4, 7, 2, 1), "box (4,7,2,1) cannot split horizontally: height 1"),
        # A cell inside a box that is not its top-left corner.
        (12, Move(1, 1), "cell (1,1) is inside box (0,0,8,4), not its top-left corner"),
        # Off the 8x16 board.
        (12, Move(8, 0), "cell (8,0) is outside the 8x16 board"),
        (12, Move(0, 16), "cell (0,16) is outside the 8x16 board"),
        (12, Move(-1, 3), "cell (-1,3) is outside the 8x16 board"),
        # Right corner, wrong size.
        (12, Move(0, 0, 8, 8), "the box at (0,0) is 8x4, not 8x8"),
    ],
    ids=["1-wide-on-V", "1x1-on-H", "1-tall-on-H", "inside-a-box", "off-right", "off-bottom", "off-left",
         "wrong-size"],
)
def test_illegal_moves_say_why(turn, splits, move, reason):
    state = parse_board(f"splits={splits} score=0 " + SMALL_BOXES)
    with pytest.raises(IllegalMoveError) as caught:
        turn(state, move)
    assert str(caught.value) == reason
    assert move not in state.legal_moves()


def test_point_block_and_void_are_not_moves(turn):
    # Row 0 of columns 0-1 is a void; (4,0,4,4) is a point block showing 3.
    state = parse_board("splits=9 score=0 | 0,1,2,1 0,2,2,2 2,0,2,4 4,0,4,4:3 0,4,8,4 0,8,8,8")
    with pytest.raises(IllegalMoveError) as caught:
        turn(state, Move(4, 0))
    assert str(caught.value) == "box (4,0,4,4) is a point block (3); point blocks cannot be split"
    with pytest.raises(IllegalMoveError) as caught:
        turn(state, Move(1, 0))
    assert str(caught.value) == "cell (1,0) is a void, not a box"


def test_legal_moves_follow_orientation():
    # V turn: every plain box with w >= 2 -> (0,0,8,4), (0,4,4,4), (4,4,4,2), (4,7,2,1), (6,6,2,2),
    # (0,8,8,8); the 1x1 boxes are out. H turn: every plain box with h >= 2 -> the same minus (4,7,2,1).
    v_turn = parse_board("splits=11 score=0 " + SMALL_BOXES)
    assert v_turn.orientation == "V"
    assert [(mv.x, mv.y) for mv in v_turn.legal_moves()] == [
        (0, 0), (0, 4), (4, 4), (4, 7), (6, 6), (0, 8),
    ]
    h_turn = parse_board("splits=12 score=0 " + SMALL_BOXES)
    assert [(mv.x, mv.y) for mv in h_turn.legal_moves()] == [(0, 0), (0, 4), (4, 4), (6, 6), (0, 8)]


def test_one_wide_box_splits_on_h_turns(turn):
    # Columns of 1x16 boxes (plus a 2x16): on an H turn the 1x16 at x=0 splits into (0,0,1,8) and
    # (0,8,1,8). A 1x8 square needs a 1x8 neighbour column: (1,0) is 1x16 -> no cluster.
    state = parse_board("splits=4 score=7 | 0,0,1,16 1,0,1,16 2,0,2,16 4,0,4,16")
    step = turn(state, m(0, 0, 1, 16))
    assert_state(
        step,
        [B(0, 0, 1, 8), B(1, 0, 1, 16), B(2, 0, 2, 16), B(4, 0, 4, 16), B(0, 8, 1, 8)],
        score=8,
        splits=5,
    )


# =====================================================================================================
# 1.4 Clusters (split check)
# =====================================================================================================
def test_four_4x4_cluster_of_the_opening(turn):
    # Opening after 4 splits; split 5 (H) of (4,0,4,8) -> (4,0,4,4) + (4,4,4,4). With (0,0,4,4) and
    # (0,4,4,4) this is a 2x2 group of equal plain 4x4 boxes -> all four get N+1 = 6, cd -> 5.
    # Score: 4 + 1 (split) + 4 (cd) = 9.
    state = parse_board("splits=4 score=4 | 0,0,4,4 0,8,4,8 4,0,4,8 0,4,4,4 4,8,4,8")
    step = turn(state, m(4, 0, 4, 8))
    assert_state(
        step,
        [B(0, 0, 4, 4, 5), B(0, 8, 4, 8), B(4, 0, 4, 4, 5), B(0, 4, 4, 4, 5), B(4, 8, 4, 8), B(4, 4, 4, 4, 5)],
        score=9,
        splits=5,
    )
    assert of(step, PointBlocksCreated) == [
        PointBlocksCreated((B(0, 0, 4, 4), B(4, 0, 4, 4), B(0, 4, 4, 4), B(4, 4, 4, 4)), 5, late=False)
    ]
    assert of(step, TurnScored) == [TurnScored(1, 4, 0, 0, 0)]


def test_four_2x1_cluster(turn):
    # V split 8 of (0,1,4,1) -> (0,1,2,1) + (2,1,2,1), under (0,0,2,1) and (2,0,2,1): four equal
    # 2x1 plain boxes at (0,0),(2,0),(0,1),(2,1) -> value N+1 = 9, cd -> 8. Other squares: (4,0) is
    # 4x2, (0,2) is 8x2 -> no. Score +1 +4 = 5.
    state = parse_board("splits=7 score=20 | 0,0,2,1 2,0,2,1 4,0,4,2 0,1,4,1 0,2,8,2 0,4,8,4 0,8,8,8")
    step = turn(state, m(0, 1, 4, 1))
    assert_state(
        step,
        [B(0, 0, 2, 1, 8), B(2, 0, 2, 1, 8), B(4, 0, 4, 2), B(0, 1, 2, 1, 8), B(0, 2, 8, 2),
         B(0, 4, 8, 4), B(0, 8, 8, 8), B(2, 1, 2, 1, 8)],
        score=25,
        splits=8,
    )
    assert of(step, PointBlocksCreated)[0].boxes == (B(0, 0, 2, 1), B(2, 0, 2, 1), B(0, 1, 2, 1), B(2, 1, 2, 1))


def test_four_1x2_cluster(turn):
    # H split 11 of (1,0,1,4) -> (1,0,1,2) + (1,2,1,2), right of (0,0,1,2) and (0,2,1,2): a 2x2 group
    # of 1x2 boxes -> value 11. (2,0) is 2x4 -> no second square. Score +5.
    state = parse_board("splits=10 score=0 | 0,0,1,2 0,2,1,2 1,0,1,4 2,0,2,4 4,0,4,4 0,4,8,4 0,8,8,8")
    step = turn(state, m(1, 0, 1, 4))
    assert_state(
        step,
        [B(0, 0, 1, 2, 11), B(0, 2, 1, 2, 11), B(1, 0, 1, 2, 11), B(2, 0, 2, 4), B(4, 0, 4, 4),
         B(0, 4, 8, 4), B(0, 8, 8, 8), B(1, 2, 1, 2, 11)],
        score=5,
        splits=11,
    )


def test_four_4x2_cluster(turn):
    # V split 4 of (0,2,8,2) -> (0,2,4,2) + (4,2,4,2) under (0,0,4,2), (4,0,4,2): value 5 -> 4. +5.
    state = parse_board("splits=3 score=3 | 0,0,4,2 4,0,4,2 0,2,8,2 0,4,8,4 0,8,8,8")
    step = turn(state, m(0, 2, 8, 2))
    assert_state(
        step,
        [B(0, 0, 4, 2, 4), B(4, 0, 4, 2, 4), B(0, 2, 4, 2, 4), B(0, 4, 8, 4), B(0, 8, 8, 8), B(4, 2, 4, 2, 4)],
        score=8,
        splits=4,
    )


def test_four_1x1_cluster(turn):
    # V split 12 of (4,7,2,1) -> (4,7,1,1) + (5,7,1,1) under the 1x1 boxes (4,6), (5,6): value 12.
    # Other corners: (6,6) is 2x2, (3,6)/(3,7) inside (0,4,4,4), (4,8) is 8x8 -> one square. +5.
    state = parse_board("splits=11 score=0 " + SMALL_BOXES)
    step = turn(state, m(4, 7, 2, 1))
    assert_state(
        step,
        [B(0, 0, 8, 4), B(0, 4, 4, 4), B(4, 4, 4, 2), B(4, 6, 1, 1, 12), B(5, 6, 1, 1, 12),
         B(4, 7, 1, 1, 12), B(6, 6, 2, 2), B(0, 8, 8, 8), B(5, 7, 1, 1, 12)],
        score=5,
        splits=12,
    )


def test_six_cluster_3x2_new_halves_in_the_middle(turn):
    # H split 5 of (2,0,2,4) -> (2,0,2,2) + (2,2,2,2) between columns of 2x2 boxes at x=0 and x=4.
    # Squares with corner (0,0) and (2,0) both hold; (6,0) is 2x4 so no third. 6 members, value 5.
    # Score +1 +6 = 7.
    state = parse_board("splits=4 score=0 | 0,0,2,2 0,2,2,2 2,0,2,4 4,0,2,2 4,2,2,2 6,0,2,4 0,4,8,4 0,8,8,8")
    step = turn(state, m(2, 0, 2, 4))
    assert_state(
        step,
        [B(0, 0, 2, 2, 5), B(0, 2, 2, 2, 5), B(2, 0, 2, 2, 5), B(4, 0, 2, 2, 5), B(4, 2, 2, 2, 5),
         B(6, 0, 2, 4), B(0, 4, 8, 4), B(0, 8, 8, 8), B(2, 2, 2, 2, 5)],
        score=7,
        splits=5,
    )
    assert of(step, PointBlocksCreated) == [
        PointBlocksCreated(
            (B(0, 0, 2, 2), B(0, 2, 2, 2), B(2, 0, 2, 2), B(4, 0, 2, 2), B(4, 2, 2, 2), B(2, 2, 2, 2)), 5, False
        )
    ]
    assert of(step, TurnScored) == [TurnScored(1, 6, 0, 0, 0)]


def test_eight_cluster_2x4_new_halves_in_the_middle(turn):
    # Columns x=0 and x=2 of 2x2 boxes, rows 0..7; x=0 rows 2-5 is one 2x4 split H on split 7 into
    # (0,2,2,2) + (0,4,2,2). Squares: corner (0,0) (top half as bottom-left), (0,2) (both halves),
    # (0,4) (bottom half as top-left) -> all 8 boxes, value 7. Score +1 +8 = 9.
    state = parse_board(
        "splits=6 score=0 | 0,0,2,2 0,2,2,4 0,6,2,2 2,0,2,2 2,2,2,2 2,4,2,2 2,6,2,2 4,0,4,8 0,8,8,8"
    )
    step = turn(state, m(0, 2, 2, 4))
    assert_state(
        step,
        [B(0, 0, 2, 2, 7), B(0, 2, 2, 2, 7), B(0, 6, 2, 2, 7), B(2, 0, 2, 2, 7), B(2, 2, 2, 2, 7),
         B(2, 4, 2, 2, 7), B(2, 6, 2, 2, 7), B(4, 0, 4, 8), B(0, 8, 8, 8), B(0, 4, 2, 2, 7)],
        score=9,
        splits=7,
    )
    assert of(step, TurnScored) == [TurnScored(1, 8, 0, 0, 0)]


def test_nine_cluster_3x3(turn):
    # 3x3 grid of 2x2 boxes (x = 0, 2, 4; y = 0, 2, 4) whose middle column top is one 2x4, split H on
    # split 13: the top half is a corner of squares (0,0), (2,0); the bottom half of (0,0), (2,0),
    # (0,2), (2,2). Union: all 9 boxes, value 13. (6,0) is 2x4, (6,4) 2x2 but (6,2) is inside
    # (6,0,2,4) and row 6 is one 8x2 -> nothing more. Score +1 +9 = 10.
    state = parse_board(
        "splits=12 score=0 | 0,0,2,2 0,2,2,2 0,4,2,2 2,0,2,4 2,4,2,2 4,0,2,2 4,2,2,2 4,4,2,2 "
        "6,0,2,4 6,4,2,2 0,6,8,2 0,8,8,8"
    )
    step = turn(state, m(2, 0, 2, 4))
    assert_state(
        step,
        [B(0, 0, 2, 2, 13), B(0, 2, 2, 2, 13), B(0, 4, 2, 2, 13), B(2, 0, 2, 2, 13), B(2, 4, 2, 2, 13),
         B(4, 0, 2, 2, 13), B(4, 2, 2, 2, 13), B(4, 4, 2, 2, 13), B(6, 0, 2, 4), B(6, 4, 2, 2),
         B(0, 6, 8, 2), B(0, 8, 8, 8), B(2, 2, 2, 2, 13)],
        score=10,
        splits=13,
    )


def test_misaligned_equal_boxes_do_not_cluster(turn):
    # H split of (2,1,2,4) -> (2,1,2,2) + (2,3,2,2), next to (0,0,2,2), (0,2,2,2): same size but the
    # right column is one row lower. Corners tried: (2,1),(2,3) -> (4,y) is inside (4,0,4,8);
    # (0,1),(0,3) are not top-left cells of boxes; (2,-1),(0,-1) off board. No cluster, score +1.
    state = parse_board(
        "splits=8 score=50 | 0,0,2,2 0,2,2,2 2,0,2,1 2,1,2,4 0,4,2,1 0,5,4,1 0,6,4,2 4,0,4,8 0,8,8,8"
    )
    step = turn(state, m(2, 1, 2, 4))
    assert_state(
        step,
        [B(0, 0, 2, 2), B(0, 2, 2, 2), B(2, 0, 2, 1), B(2, 1, 2, 2), B(0, 4, 2, 1), B(0, 5, 4, 1),
         B(0, 6, 4, 2), B(4, 0, 4, 8), B(0, 8, 8, 8), B(2, 3, 2, 2)],
        score=51,
        splits=9,
    )
    assert kinds(step) == ["BoxSplit", "TurnScored"]


def test_point_block_never_joins_a_cluster(turn):
    # H split 9 of (4,4,4,8) -> (4,4,4,4) + (4,8,4,4). With (0,0,4,4):3, (4,0,4,4), (0,4,4,4) this would
    # be an aligned 2x2 of 4x4 boxes, but (0,0) is a point block -> no cluster. (0,8) is 4x8 -> no
    # square below either. Countdown 3 -> 2 (+1). Score +2.
    state = parse_board("splits=8 score=0 | 0,0,4,4:3 4,0,4,4 0,4,4,4 4,4,4,8 0,8,4,8 4,12,4,4")
    step = turn(state, m(4, 4, 4, 8))
    assert_state(
        step,
        [B(0, 0, 4, 4, 2), B(4, 0, 4, 4), B(0, 4, 4, 4), B(4, 4, 4, 4), B(0, 8, 4, 8), B(4, 12, 4, 4),
         B(4, 8, 4, 4)],
        score=2,
        splits=9,
    )
    assert of(step, TurnScored) == [TurnScored(1, 1, 0, 0, 0)]


# A stale 2x2 group of plain 2x2 boxes at (4,0)..(6,2); splitting (0,0,2,4) makes 2x2 halves that
# complete nothing ((2,0) is 2x4, (2,2) is inside it).
STALE = "| 0,0,2,4 2,0,2,4 4,0,2,2 6,0,2,2 4,2,2,2 6,2,2,2 0,4,8,4 0,8,8,8"


def test_stale_group_stays_plain_by_default(turn):
    # Split check looks only at squares containing a new half -> the stale group stays plain. +1.
    state = parse_board("splits=2 score=0 " + STALE)
    step = turn(state, m(0, 0, 2, 4))
    assert_state(
        step,
        [B(0, 0, 2, 2), B(2, 0, 2, 4), B(4, 0, 2, 2), B(6, 0, 2, 2), B(4, 2, 2, 2), B(6, 2, 2, 2),
         B(0, 4, 8, 4), B(0, 8, 8, 8), B(0, 2, 2, 2)],
        score=1,
        splits=3,
    )
    assert kinds(step) == ["BoxSplit", "TurnScored"]


def test_stale_group_of_the_new_half_size_converts_with_the_option(turn):
    # Rules(stale_cluster_conversion): every 2x2 group of plain boxes of the new half's size (2x2)
    # converts: the group at (4,0) -> N+1 = 4, cd -> 3. Score +1 +4 = 5.
    rules = Rules(stale_cluster_conversion=True)
    state = parse_board("splits=2 score=0 rules=stale_cluster_conversion " + STALE)
    assert state.rules == rules
    step = turn(state, m(0, 0, 2, 4))
    assert_state(
        step,
        [B(0, 0, 2, 2), B(2, 0, 2, 4), B(4, 0, 2, 2, 3), B(6, 0, 2, 2, 3), B(4, 2, 2, 2, 3), B(6, 2, 2, 2, 3),
         B(0, 4, 8, 4), B(0, 8, 8, 8), B(0, 2, 2, 2)],
        score=5,
        splits=3,
        rules=rules,
    )
    assert of(step, PointBlocksCreated) == [
        PointBlocksCreated((B(4, 0, 2, 2), B(6, 0, 2, 2), B(4, 2, 2, 2), B(6, 2, 2, 2)), 3, late=False)
    ]


def test_stale_group_of_another_size_stays_plain_with_the_option(turn):
    # Same option, but the split makes 8x2 halves ((0,4,8,4) -> (0,4,8,2) + (0,6,8,2)): only groups of
    # 8x2 boxes would convert; the 2x2 group stays plain. +1.
    rules = Rules(stale_cluster_conversion=True)
    state = parse_board("splits=2 score=0 rules=stale_cluster_conversion " + STALE)
    step = turn(state, m(0, 4, 8, 4))
    assert_state(
        step,
        [B(0, 0, 2, 4), B(2, 0, 2, 4), B(4, 0, 2, 2), B(6, 0, 2, 2), B(4, 2, 2, 2), B(6, 2, 2, 2),
         B(0, 4, 8, 2), B(0, 8, 8, 8), B(0, 6, 8, 2)],
        score=1,
        splits=3,
        rules=rules,
    )


# =====================================================================================================
# 1.3 steps 3-4, 1.9: countdown and explosion timing
# =====================================================================================================
def test_cluster_made_on_split_4_explodes_on_split_8(turn):
    # Split 4 (V) of (0,2,8,2): four 4x2 blocks, value 4 (+1 split +4 cd = 5).
    # Splits 5-7 are filler that makes no cluster: 5 H (0,8,8,8) -> 8x4 halves; 6 V (0,4,8,4) -> 4x4
    # halves (corner (0,0) is a point block, (0,8) is 8x4); 7 H (0,12,8,4) -> 8x2 halves. Blocks
    # 4 -> 3 -> 2 -> 1, each turn +1 +4 = 5. Split 8 (V) of (0,12,8,2) -> 4x2 halves, no square
    # ((0,14) is 8x2, (0,10) inside (0,8,8,4)). The four 1s explode: +1 +4 cd +32 area = 37.
    # Destroyed rows 0-3; (0,4,4,4) and (4,4,4,4) rest on (0,8,8,4): nothing falls. Refill, special
    # case (destroyed, nothing moved): each column rows 0-3 void and destroyed -> count 4; one pocket,
    # D = 4, W = 8 -> one 8x4 box dropped onto row 4 -> (0,0,8,4). No late scan (nothing moved).
    state = parse_board("splits=3 score=0 | 0,0,4,2 4,0,4,2 0,2,8,2 0,4,8,4 0,8,8,8")
    scores = []
    for move in [m(0, 2, 8, 2), m(0, 8, 8, 8), m(0, 4, 8, 4), m(0, 12, 8, 4)]:
        step = turn(state, move)
        state = step.state
        scores.append(state.score)
    assert scores == [5, 10, 15, 20]
    assert [b.points for b in state.boxes if b.points] == [1, 1, 1, 1]  # still there after split 7
    step = turn(state, m(0, 12, 8, 2))
    assert_state(
        step,
        [B(0, 4, 4, 4), B(0, 8, 8, 4), B(0, 12, 4, 2), B(4, 4, 4, 4), B(0, 14, 8, 2), B(4, 12, 4, 2),
         B(0, 0, 8, 4)],
        score=57,
        splits=8,
    )
    assert step.events == (
        BoxSplit(B(0, 12, 8, 2), "V", B(0, 12, 4, 2), B(4, 12, 4, 2)),
        BlocksExploded((B(0, 0, 4, 2, 1), B(4, 0, 4, 2, 1), B(0, 2, 4, 2, 1), B(4, 2, 4, 2, 1)), 32),
        BoxesRefilled((B(0, 0, 8, 4),)),
        TurnScored(1, 4, 32, 0, 0),
    )


def test_the_ten_split_opening(turn):
    # Spec 1.9. Splits 1-4 score 1 each. Split 5 (H of (4,0,4,8)) makes four 4x4 blocks of 5: +1 +4.
    # Splits 6-9 split (0,8,...) down to 1-wide pieces, never completing a square (sizes 2x8, 2x4,
    # 1x4, 1x2 each meet a differently sized neighbour): +1 +4 cd each -> 14, 19, 24, 29; the blocks
    # show 4, 3, 2, 1. Split 10 (V of (4,8,4,8) -> 2x8 halves, no square): the 1s explode,
    # +1 +4 +64 = 69 -> 98. Nothing is above rows 0-7 -> nothing falls; refill counts rows 0-7 in
    # every column (all destroyed) -> D = 8, W = 8 -> one plain (0,0,8,8).
    moves = [
        m(0, 0, 8, 16), m(0, 0, 8, 8), m(0, 0, 4, 8), m(0, 8, 8, 8), m(4, 0, 4, 8),
        m(0, 8, 4, 8), m(0, 8, 2, 8), m(0, 8, 2, 4), m(0, 8, 1, 4), m(4, 8, 4, 8),
    ]
    state = State()
    scores = []
    for number, move in enumerate(moves, start=1):
        step = turn(state, move)
        state = step.state
        scores.append(state.score)
        if number == 5:
            assert_state(
                step,
                [B(0, 0, 4, 4, 5), B(0, 8, 4, 8), B(4, 0, 4, 4, 5), B(0, 4, 4, 4, 5), B(4, 8, 4, 8),
                 B(4, 4, 4, 4, 5)],
                score=9,
                splits=5,
            )
    assert scores == [1, 2, 3, 4, 9, 14, 19, 24, 29, 98]
    assert_state(
        step,
        [B(0, 8, 1, 2), B(4, 8, 2, 8), B(2, 8, 2, 8), B(0, 12, 2, 4), B(1, 8, 1, 4), B(0, 10, 1, 2),
         B(6, 8, 2, 8), B(0, 0, 8, 8)],
        score=98,
        splits=10,
    )
    assert step.events == (
        BoxSplit(B(4, 8, 4, 8), "V", B(4, 8, 2, 8), B(6, 8, 2, 8)),
        BlocksExploded((B(0, 0, 4, 4, 1), B(4, 0, 4, 4, 1), B(0, 4, 4, 4, 1), B(4, 4, 4, 4, 1)), 64),
        BoxesRefilled((B(0, 0, 8, 8),)),
        TurnScored(1, 4, 64, 0, 0),
    )


# =====================================================================================================
# 1.5 Falling and step 8 halving
# =====================================================================================================
def test_rigid_box_supported_under_one_column_stays_up(turn):
    # V split 10 of (0,8,8,8) -> 4x8 halves (no square). (0,2,2,2):1 explodes: +1 cd +4 area.
    # (0,0,4,2) now has void under columns 0-1 but (2,2,2,2) under columns 2-3 -> it stays; nothing
    # moves. Refill special case: column 0/1 row 0 is covered -> count 0: no refill, the enclosed
    # 2x2 void at (0,2) stays. Score +1 +1 +4 = 6.
    state = parse_board("splits=9 score=0 | 0,0,4,2 0,2,2,2:1 2,2,2,2 4,0,4,4 0,4,8,4 0,8,8,8")
    step = turn(state, m(0, 8, 8, 8))
    assert_state(
        step,
        [B(0, 0, 4, 2), B(2, 2, 2, 2), B(4, 0, 4, 4), B(0, 4, 8, 4), B(0, 8, 4, 8), B(4, 8, 4, 8)],
        score=6,
        splits=10,
    )
    assert step.state.voids() == [(0, 2), (1, 2), (0, 3), (1, 3)]
    assert step.events == (
        BoxSplit(B(0, 8, 8, 8), "V", B(0, 8, 4, 8), B(4, 8, 4, 8)),
        BlocksExploded((B(0, 2, 2, 2, 1),), 4),
        TurnScored(1, 1, 4, 0, 0),
    )


def test_plain_boxes_fall_but_are_not_halved(turn):
    # Column 0-1 from the top: plain (0,0,2,2), block (0,2,2,2):7, plain (0,4,2,4), block (0,8,2,8):1.
    # V split 12 of (4,0,4,16) -> 2x16 halves (no square possible). Countdown: 7 -> 6, 1 explodes:
    # +2 cd, +16 area, destroyed rows 8-15. Falling in list order, passes: pass 1 only (0,4,2,4)
    # can move (8 rows, to the floor); pass 2 the 6-block drops 8; pass 3 the plain 2x2 drops 8.
    # Refill: columns 0-1 rows 0-7 void -> D = 8, W = 2 -> (0,0,2,8). Late scan: (0,8,2,2) has no
    # 2x2 neighbours ((2,8) is inside (2,0,2,16)) -> none. Halving: only the point block: 6 -> 3,
    # +3; the plain boxes that fell stay plain. Score 1 + 2 + 16 + 3 = 22.
    state = parse_board("splits=11 score=100 | 0,0,2,2 0,2,2,2:7 0,4,2,4 0,8,2,8:1 2,0,2,16 4,0,4,16")
    step = turn(state, m(4, 0, 4, 16))
    assert_state(
        step,
        [B(0, 8, 2, 2), B(0, 10, 2, 2, 3), B(0, 12, 2, 4), B(2, 0, 2, 16), B(4, 0, 2, 16), B(6, 0, 2, 16),
         B(0, 0, 2, 8)],
        score=122,
        splits=12,
    )
    assert of(step, BoxFell) == [
        BoxFell(B(0, 0, 2, 2), B(0, 8, 2, 2)),
        BoxFell(B(0, 2, 2, 2, 6), B(0, 10, 2, 2, 6)),
        BoxFell(B(0, 4, 2, 4), B(0, 12, 2, 4)),
    ]
    assert of(step, BoxesRefilled) == [BoxesRefilled((B(0, 0, 2, 8),))]
    assert of(step, BlockHalved) == [BlockHalved(B(0, 10, 2, 2, 3), 6, 3, 3)]
    assert of(step, PointBlocksCreated) == []
    assert of(step, TurnScored) == [TurnScored(1, 2, 16, 3, 0)]


def test_one_halving_however_far_and_in_however_many_passes(turn):
    # Columns 0-1: X (0,0,2,2):9 on E1 (0,2,2,2):1 on Y (0,4,2,4):5 on E2 (0,8,2,8):1.
    # V split 12 of (4,0,4,16). Countdown: X 8, E1 explodes, Y 4, E2 explodes: +4 cd, +4 +16 area.
    # Pass 1: X drops 2 (onto Y), then Y drops 8 to the floor; pass 2: X drops 8 more (rows 10-11).
    # X fell 10 rows in two passes but is halved once: 8 -> 4 (+4); Y 4 -> 2 (+2).
    # Refill: columns 0-1 rows 0-9 void -> D = 10: P = 8 lands on X -> (0,2,2,8), then 2 -> (0,0,2,2).
    # Score 1 + 4 + 20 + 6 = 31.
    state = parse_board("splits=11 score=0 | 0,0,2,2:9 0,2,2,2:1 0,4,2,4:5 0,8,2,8:1 2,0,2,16 4,0,4,16")
    step = turn(state, m(4, 0, 4, 16))
    assert_state(
        step,
        [B(0, 10, 2, 2, 4), B(0, 12, 2, 4, 2), B(2, 0, 2, 16), B(4, 0, 2, 16), B(6, 0, 2, 16),
         B(0, 2, 2, 8), B(0, 0, 2, 2)],
        score=31,
        splits=12,
    )
    assert step.events == (
        BoxSplit(B(4, 0, 4, 16), "V", B(4, 0, 2, 16), B(6, 0, 2, 16)),
        BlocksExploded((B(0, 2, 2, 2, 1), B(0, 8, 2, 8, 1)), 20),
        BoxFell(B(0, 0, 2, 2, 8), B(0, 10, 2, 2, 8)),
        BoxFell(B(0, 4, 2, 4, 4), B(0, 12, 2, 4, 4)),
        BoxesRefilled((B(0, 2, 2, 8), B(0, 0, 2, 2))),
        BlockHalved(B(0, 10, 2, 2, 4), 8, 4, 4),
        BlockHalved(B(0, 12, 2, 4, 2), 4, 2, 2),
        TurnScored(1, 4, 20, 6, 0),
    )


def test_halving_floors_gains_ceil_and_one_stays_one(turn):
    # Top half: A (0,0,2,8):2, B (2,0,2,8):3, C (4,0,2,8):6, plain D (6,0,2,8); bottom (0,8,8,8):1.
    # H split 21 of D -> (6,0,2,4) + (6,4,2,4) (2x4 squares: (8,..) off board, (4,0) a point block).
    # Countdown A 1, B 2, C 5, bottom explodes: +4 cd, +64 area. Everything above drops 8 (D's top
    # half in a second pass). Refill: rows 0-7 void in all columns -> (0,0,8,8). Late scan: D halves
    # at (6,8),(6,12) have no equal neighbours -> none. Halving: A is 1 -> stays 1 (no event);
    # B 2 -> 1 (+1 = ceil(2/2)); C 5 -> 2 (+3 = ceil(5/2)). So before the turn 6 -> 2, 3 -> 1, 2 -> 1
    # (the blog's "5 -> 2, 2 -> 1"). Score 1 + 4 + 64 + 4 = 73.
    state = parse_board("splits=20 score=0 | 0,0,2,8:2 2,0,2,8:3 4,0,2,8:6 6,0,2,8 0,8,8,8:1")
    step = turn(state, m(6, 0, 2, 8))
    assert_state(
        step,
        [B(0, 8, 2, 8, 1), B(2, 8, 2, 8, 1), B(4, 8, 2, 8, 2), B(6, 8, 2, 4), B(6, 12, 2, 4), B(0, 0, 8, 8)],
        score=73,
        splits=21,
    )
    assert of(step, BoxFell) == [
        BoxFell(B(0, 0, 2, 8, 1), B(0, 8, 2, 8, 1)),
        BoxFell(B(2, 0, 2, 8, 2), B(2, 8, 2, 8, 2)),
        BoxFell(B(4, 0, 2, 8, 5), B(4, 8, 2, 8, 5)),
        BoxFell(B(6, 0, 2, 4), B(6, 8, 2, 4)),
        BoxFell(B(6, 4, 2, 4), B(6, 12, 2, 4)),
    ]
    assert of(step, BlockHalved) == [
        BlockHalved(B(2, 8, 2, 8, 1), 2, 1, 1),
        BlockHalved(B(4, 8, 2, 8, 2), 5, 2, 3),
    ]
    assert of(step, TurnScored) == [TurnScored(1, 4, 64, 4, 0)]
    # Next split (22, V) of the refill box (0,0,8,8) -> (0,0,4,8) + (4,0,4,8) (4x8 squares: (0,8) is a
    # point block). The two 1s explode (+3 cd incl. C 2 -> 1, +32 area); (0,0,4,8) drops 8 onto the
    # floor, (4,0,4,8) rests on C and D. Refill: columns 0-3 rows 0-7 -> (0,0,4,8). Late scan: the
    # 4x8 group would need (4,8) to be a plain 4x8 -> none. No point block fell. +1 +3 +32 = 36.
    step = turn(step.state, m(0, 0, 8, 8))
    assert_state(
        step,
        [B(4, 8, 2, 8, 1), B(6, 8, 2, 4), B(6, 12, 2, 4), B(0, 8, 4, 8), B(4, 0, 4, 8), B(0, 0, 4, 8)],
        score=109,
        splits=22,
    )
    assert of(step, TurnScored) == [TurnScored(1, 3, 32, 0, 0)]


def test_new_cluster_on_an_exploding_block_falls_and_halves_at_once(turn):
    # H split 11 of (2,0,2,4) -> (2,0,2,2) + (2,2,2,2): with (0,0,2,2), (0,2,2,2) a cluster, value
    # N+1 = 12. Countdown: the four -> 11, (0,4,4,4):1 under them explodes: +5 cd, +16 area.
    # Falling: the lower pair drops 4 in pass 1, the upper pair in pass 2. Refill: columns 0-3
    # rows 0-3 -> (0,0,4,4). Late scan: (0,0,4,4) next to (4,0,4,8) -> none. Halving: 11 -> 5 each,
    # +6 x 4 = 24 (12 -> 11 -> 5). Score 1 + 5 + 16 + 24 = 46.
    state = parse_board("splits=10 score=0 | 0,0,2,2 0,2,2,2 2,0,2,4 0,4,4,4:1 4,0,4,8 0,8,8,8")
    step = turn(state, m(2, 0, 2, 4))
    assert_state(
        step,
        [B(0, 4, 2, 2, 5), B(0, 6, 2, 2, 5), B(2, 4, 2, 2, 5), B(4, 0, 4, 8), B(0, 8, 8, 8), B(2, 6, 2, 2, 5),
         B(0, 0, 4, 4)],
        score=46,
        splits=11,
    )
    assert step.events == (
        BoxSplit(B(2, 0, 2, 4), "H", B(2, 0, 2, 2), B(2, 2, 2, 2)),
        PointBlocksCreated((B(0, 0, 2, 2), B(0, 2, 2, 2), B(2, 0, 2, 2), B(2, 2, 2, 2)), 11, late=False),
        BlocksExploded((B(0, 4, 4, 4, 1),), 16),
        BoxFell(B(0, 0, 2, 2, 11), B(0, 4, 2, 2, 11)),
        BoxFell(B(0, 2, 2, 2, 11), B(0, 6, 2, 2, 11)),
        BoxFell(B(2, 0, 2, 2, 11), B(2, 4, 2, 2, 11)),
        BoxFell(B(2, 2, 2, 2, 11), B(2, 6, 2, 2, 11)),
        BoxesRefilled((B(0, 0, 4, 4),)),
        BlockHalved(B(0, 4, 2, 2, 5), 11, 5, 6),
        BlockHalved(B(0, 6, 2, 2, 5), 11, 5, 6),
        BlockHalved(B(2, 4, 2, 2, 5), 11, 5, 6),
        BlockHalved(B(2, 6, 2, 2, 5), 11, 5, 6),
        TurnScored(1, 5, 16, 24, 0),
    )


def test_blog_stack_100_50_10_1(turn):
    # Spec 1.9 blog example as a legal board: a 1-wide stack in column 0, top to bottom 100/50/10/1
    # (1x4 blocks, splits = 100). Being 1 wide, its top voids are never refilled. Filler in columns
    # 1-7 that never makes a cluster: H splits halve the 1x16 column 1 (column 0 holds only point
    # blocks or voids, column 2 never holds two stacked equal 1-wide boxes); V splits halve boxes of
    # the bands rows 0-7 (h 8), 8-11 (h 4), 12-13 (h 2) whose heights differ, so no equal boxes stack.
    # Split 1: 1 explodes (+4 area), the rest fall 4 and halve: 99 -> 49 (+50), 49 -> 24 (+25),
    # 9 -> 4 (+5); +4 cd +1 -> 89.   After 4 more (the 4 explodes on the 4th): 49-4 = 45 -> 22 (+23),
    # 24-4 = 20 -> 10 (+10); scores 4, 4, 4, 1+3+4+33 = 41.   After 10 more: 22-10 = 12 -> 6 (+6);
    # 9 x 3 then 1+2+4+6 = 13.   After 6 more: 6 is gone; 5 x 2 then 1+1+4 = 6, and nothing falls
    # (column 0 was already empty above it). Total 89 + 12 + 41 + 27 + 13 + 10 + 6 = 198
    # (= 161 starting points + 4 x 4 areas + 21 splits).
    state = parse_board(
        "splits=100 score=0 | 0,0,1,4:100 0,4,1,4:50 0,8,1,4:10 0,12,1,4:1 1,0,1,16 "
        "2,0,2,8 4,0,4,8 2,8,2,4 4,8,4,4 2,12,2,2 4,12,4,2 2,14,2,2 4,14,4,2"
    )
    h_moves = [
        m(1, 0, 1, 16), m(1, 0, 1, 8), m(1, 8, 1, 8), m(1, 0, 1, 4), m(1, 4, 1, 4), m(1, 8, 1, 4),
        m(1, 12, 1, 4), m(1, 0, 1, 2), m(1, 2, 1, 2), m(1, 4, 1, 2), m(1, 6, 1, 2),
    ]
    v_moves = [
        m(2, 0, 2, 8), m(4, 0, 4, 8), m(4, 0, 2, 8), m(6, 0, 2, 8), m(2, 8, 2, 4),
        m(4, 8, 4, 4), m(4, 8, 2, 4), m(6, 8, 2, 4), m(2, 12, 2, 2), m(4, 12, 4, 2),
    ]
    moves = [h_moves[k // 2] if k % 2 == 0 else v_moves[k // 2] for k in range(21)]

    def stack(state):
        return [b.points for b in state.boxes if b.x == 0]

    gains = []
    for number, move in enumerate(moves, start=1):
        step = turn(state, move)
        gains.append(step.state.score - state.score)
        state = step.state
        assert of(step, PointBlocksCreated) == []
        if number == 1:
            assert stack(state) == [49, 24, 4]
            assert of(step, TurnScored) == [TurnScored(1, 4, 4, 80, 0)]
            assert of(step, BoxesRefilled) == []  # the 4-deep void is 1 wide
        if number == 5:
            assert stack(state) == [22, 10]
        if number == 15:
            assert stack(state) == [6]
    assert stack(state) == []
    assert gains == [89, 4, 4, 4, 41] + [3] * 9 + [13] + [2] * 5 + [6]
    assert_state(
        step,
        [B(1, 0, 1, 1), B(2, 0, 1, 8), B(4, 0, 1, 8), B(2, 8, 1, 4), B(4, 8, 1, 4), B(2, 12, 1, 2),
         B(4, 12, 2, 2), B(2, 14, 2, 2), B(4, 14, 4, 2),
         B(1, 8, 1, 2), B(3, 0, 1, 8), B(1, 4, 1, 1), B(6, 0, 1, 8), B(1, 12, 1, 2), B(5, 0, 1, 8),
         B(1, 2, 1, 1), B(7, 0, 1, 8), B(1, 6, 1, 1), B(3, 8, 1, 4), B(1, 10, 1, 2), B(6, 8, 1, 4),
         B(1, 14, 1, 2), B(5, 8, 1, 4), B(1, 1, 1, 1), B(7, 8, 1, 4), B(1, 3, 1, 1), B(3, 12, 1, 2),
         B(1, 5, 1, 1), B(6, 12, 2, 2), B(1, 7, 1, 1)],
        score=198,
        splits=121,
    )


# =====================================================================================================
# 1.6 Refill
# =====================================================================================================
def test_odd_depth_peels_and_leaves_the_void_on_top(turn):
    # Columns 0-1: plain (0,0,2,1), (0,1,2,2):1, (0,3,2,1):1, plain (0,4,2,4). V split 6 of (4,0,4,8)
    # -> 2x8 halves ((2,8) is 8x8: no square). Both 1s explode (+2 cd, +4 +2 area, rows 1-3).
    # (0,0,2,1) drops 3 onto (0,4,2,4) -> something moved -> full top run: columns 0-1 rows 0-2 -> 3.
    # D = 3 odd, W = 2 -> peel (3 -> 2); D = 2 -> a 2x2 box dropped from the top lands on (0,3,2,1):
    # (0,1,2,2). The void is row 0, at the top. Score 1 + 2 + 6 = 9.
    state = parse_board("splits=5 score=0 | 0,0,2,1 0,1,2,2:1 0,3,2,1:1 0,4,2,4 2,0,2,8 4,0,4,8 0,8,8,8")
    step = turn(state, m(4, 0, 4, 8))
    assert_state(
        step,
        [B(0, 3, 2, 1), B(0, 4, 2, 4), B(2, 0, 2, 8), B(4, 0, 2, 8), B(0, 8, 8, 8), B(6, 0, 2, 8),
         B(0, 1, 2, 2)],
        score=9,
        splits=6,
    )
    assert step.state.voids() == [(0, 0), (1, 0)]
    assert of(step, BoxFell) == [BoxFell(B(0, 0, 2, 1), B(0, 3, 2, 1))]
    assert of(step, BoxesRefilled) == [BoxesRefilled((B(0, 1, 2, 2),))]
    assert of(step, TurnScored) == [TurnScored(1, 2, 6, 0, 0)]


def test_depth_6_refills_as_4_below_and_2_on_top(turn):
    # (0,0,2,4):1 and (0,4,2,2):1 at the top of columns 0-1 explode (+2 cd, +8 +4 area; rows 0-5);
    # nothing above -> nothing moves; special case counts rows 0-5 (void and destroyed) -> 6.
    # D = 6, P = 4: dropped onto (0,6,2,2) -> (0,2,2,4); then 2 -> (0,0,2,2). Score 1 + 2 + 12 = 15.
    state = parse_board("splits=7 score=0 | 0,0,2,4:1 0,4,2,2:1 0,6,2,2 2,0,2,8 4,0,4,8 0,8,8,8")
    step = turn(state, m(4, 0, 4, 8))
    assert_state(
        step,
        [B(0, 6, 2, 2), B(2, 0, 2, 8), B(4, 0, 2, 8), B(0, 8, 8, 8), B(6, 0, 2, 8), B(0, 2, 2, 4),
         B(0, 0, 2, 2)],
        score=15,
        splits=8,
    )
    assert step.events == (
        BoxSplit(B(4, 0, 4, 8), "V", B(4, 0, 2, 8), B(6, 0, 2, 8)),
        BlocksExploded((B(0, 0, 2, 4, 1), B(0, 4, 2, 2, 1)), 12),
        BoxesRefilled((B(0, 2, 2, 4), B(0, 0, 2, 2))),
        TurnScored(1, 2, 12, 0, 0),
    )


def test_depth_14_refills_as_8_4_2(turn):
    # (0,0,2,8):1, (0,8,2,4):1, (0,12,2,2):1 explode (+3 cd, +16 +8 +4 area; rows 0-13), nothing
    # moves, count 14 in columns 0-1: 8 lands on (0,14,2,2) -> (0,6,2,8); 4 -> (0,2,2,4); 2 -> (0,0,2,2).
    # Score 1 + 3 + 28 = 32.
    state = parse_board("splits=9 score=0 | 0,0,2,8:1 0,8,2,4:1 0,12,2,2:1 0,14,2,2 2,0,2,16 4,0,4,16")
    step = turn(state, m(4, 0, 4, 16))
    assert_state(
        step,
        [B(0, 14, 2, 2), B(2, 0, 2, 16), B(4, 0, 2, 16), B(6, 0, 2, 16), B(0, 6, 2, 8), B(0, 2, 2, 4),
         B(0, 0, 2, 2)],
        score=32,
        splits=10,
    )
    assert of(step, BoxesRefilled) == [BoxesRefilled((B(0, 6, 2, 8), B(0, 2, 2, 4), B(0, 0, 2, 2)))]


def test_valley_of_width_3_fills_2_and_leaves_a_1_wide_void(turn):
    # (0,0,2,4):1 and (2,0,1,4):1 explode (+2 cd, +8 +4 area), nothing moves: counts 4,4,4,0,...
    # Pocket 0-2, D = 4, valley 0-2 is 3 wide -> W = 2: (0,0,2,4). Column 2 is then a 1-wide pocket:
    # never filled, stays white. V split 8 of (4,0,4,4) -> 2x4 halves ((4,4) is 8x4). Score 15.
    state = parse_board("splits=7 score=0 | 0,0,2,4:1 2,0,1,4:1 3,0,1,4 4,0,4,4 0,4,8,4 0,8,8,8")
    step = turn(state, m(4, 0, 4, 4))
    assert_state(
        step,
        [B(3, 0, 1, 4), B(4, 0, 2, 4), B(0, 4, 8, 4), B(0, 8, 8, 8), B(6, 0, 2, 4), B(0, 0, 2, 4)],
        score=15,
        splits=8,
    )
    assert step.state.voids() == [(2, 0), (2, 1), (2, 2), (2, 3)]


def test_leftover_column_of_a_3_wide_valley_is_handled_later(turn):
    # As above plus (3,0,1,2):1 exploding over a plain (3,2,1,2): counts 4,4,4,2 (rows 0-3 destroyed).
    # Pocket 0-3, D = 4, valley 0-2 (3 wide) -> W = 2 -> (0,0,2,4); counts 0,0,4,2.
    # Pocket 2-3, D = 4, valley = column 2 only -> peel -> 3 -> peel -> 2; counts 2,2: D = 2, W = 2 ->
    # a 2x2 box dropped from the top stops on (3,2,1,2) -> (2,0,2,2); cells (2,2),(2,3) stay void
    # under it. Score 1 + 3 + (8 + 4 + 2) = 18.
    state = parse_board(
        "splits=7 score=0 | 0,0,2,4:1 2,0,1,4:1 3,0,1,2:1 3,2,1,2 4,0,4,4 0,4,8,4 0,8,8,8"
    )
    step = turn(state, m(4, 0, 4, 4))
    assert_state(
        step,
        [B(3, 2, 1, 2), B(4, 0, 2, 4), B(0, 4, 8, 4), B(0, 8, 8, 8), B(6, 0, 2, 4), B(0, 0, 2, 4),
         B(2, 0, 2, 2)],
        score=18,
        splits=8,
    )
    assert of(step, BoxesRefilled) == [BoxesRefilled((B(0, 0, 2, 4), B(2, 0, 2, 2)))]
    assert step.state.voids() == [(2, 2), (2, 3)]


# Row 0 of columns 0-1 is an old void; (0,1,2,1):1 under it explodes on the next split (V, of
# (4,0,4,4) -> 2x4 halves; (2,0,2,4) + (4,0,2,4) would need 2x4 boxes at row 4, which is 8x4).
OLD_VOID = "| 0,1,2,1:1 0,2,2,2 2,0,2,4 4,0,4,4 0,4,8,4 0,8,8,8"


def test_explosion_under_an_old_top_void_is_not_refilled_at_once(turn):
    # +1 cd, +2 area, destroyed rows {1}. Nothing above -> nothing moves -> special case: column 0
    # row 0 is void but not destroyed -> the run stops at once: counts all 0, no refill; the 2x2 void
    # at the top stays. Score 1 + 1 + 2 = 4.
    state = parse_board("splits=9 score=0 " + OLD_VOID)
    step = turn(state, m(4, 0, 4, 4))
    assert_state(
        step,
        [B(0, 2, 2, 2), B(2, 0, 2, 4), B(4, 0, 2, 4), B(0, 4, 8, 4), B(0, 8, 8, 8), B(6, 0, 2, 4)],
        score=4,
        splits=10,
    )
    assert kinds(step) == ["BoxSplit", "BlocksExploded", "TurnScored"]
    assert step.state.voids() == [(0, 0), (1, 0), (0, 1), (1, 1)]
    # Next split (11, H) of (0,4,8,4) -> 8x2 halves: nothing explodes -> the whole top run counts:
    # columns 0-1 -> 2 -> (0,0,2,2) on (0,2,2,2). Score +1.
    step = turn(step.state, m(0, 4, 8, 4))
    assert_state(
        step,
        [B(0, 2, 2, 2), B(2, 0, 2, 4), B(4, 0, 2, 4), B(0, 4, 8, 2), B(0, 8, 8, 8), B(6, 0, 2, 4),
         B(0, 6, 8, 2), B(0, 0, 2, 2)],
        score=5,
        splits=11,
    )
    assert of(step, BoxesRefilled) == [BoxesRefilled((B(0, 0, 2, 2),))]


def test_unconditional_refill_counts_the_whole_top_run(turn):
    # Same turn with Rules(unconditional_refill): columns 0-1 count rows 0-1 -> 2 -> (0,0,2,2) at once.
    rules = Rules(unconditional_refill=True)
    state = parse_board("splits=9 score=0 rules=unconditional_refill " + OLD_VOID)
    step = turn(state, m(4, 0, 4, 4))
    assert_state(
        step,
        [B(0, 2, 2, 2), B(2, 0, 2, 4), B(4, 0, 2, 4), B(0, 4, 8, 4), B(0, 8, 8, 8), B(6, 0, 2, 4),
         B(0, 0, 2, 2)],
        score=4,
        splits=10,
        rules=rules,
    )
    assert of(step, BoxesRefilled) == [BoxesRefilled((B(0, 0, 2, 2),))]


# =====================================================================================================
# 1.3 step 7: late clusters
# =====================================================================================================
def test_late_cluster_after_a_fall(turn):
    # (0,0,2,2) sits on (0,2,2,2):1; right of them (2,0,2,2) and (2,2,2,2). V split 10 of (4,0,4,8)
    # -> 2x8 halves ((2,0) is 2x2, (4,8) inside 8x8: no square). The 1 explodes (+1 cd, +4 area);
    # (0,0,2,2) drops 2 -> moved -> full top run: columns 0-1 rows 0-1 -> refill (0,0,2,2).
    # Late scan: (0,0) refill, (2,0), (0,2) fallen, (2,2) = 2x2 group of equal plain boxes -> all
    # get N = 10 (+4). The fallen one was plain when it moved: no halving. Score 1 + 1 + 4 + 4 = 10.
    state = parse_board("splits=9 score=0 | 0,0,2,2 0,2,2,2:1 2,0,2,2 2,2,2,2 0,4,2,4 2,4,2,4 4,0,4,8 0,8,8,8")
    step = turn(state, m(4, 0, 4, 8))
    assert_state(
        step,
        [B(0, 2, 2, 2, 10), B(2, 0, 2, 2, 10), B(2, 2, 2, 2, 10), B(0, 4, 2, 4), B(2, 4, 2, 4), B(4, 0, 2, 8),
         B(0, 8, 8, 8), B(6, 0, 2, 8), B(0, 0, 2, 2, 10)],
        score=10,
        splits=10,
    )
    assert step.events == (
        BoxSplit(B(4, 0, 4, 8), "V", B(4, 0, 2, 8), B(6, 0, 2, 8)),
        BlocksExploded((B(0, 2, 2, 2, 1),), 4),
        BoxFell(B(0, 0, 2, 2), B(0, 2, 2, 2)),
        BoxesRefilled((B(0, 0, 2, 2),)),
        PointBlocksCreated((B(0, 2, 2, 2), B(2, 0, 2, 2), B(2, 2, 2, 2), B(0, 0, 2, 2)), 10, late=True),
        TurnScored(1, 1, 4, 0, 4),
    )


# (0,0,2,2):1 on top of (0,2,2,2), next to (2,0,2,2), (2,2,2,2). When it explodes, nothing is above:
# nothing moves, the refill (0,0,2,2) completes a 2x2 group of plain 2x2 boxes.
NO_FALL = "| 0,0,2,2:1 2,0,2,2 0,2,2,2 2,2,2,2 0,4,4,4 4,0,4,8 0,8,8,8"


def test_no_late_cluster_without_a_fall(turn):
    # V split 10 of (4,0,4,8): +1 cd +4 area; rows 0-1 refilled by (0,0,2,2). Step 7 is skipped
    # (nothing moved) -> the group stays plain (the stale cluster of 1.10). Score 1 + 1 + 4 = 6.
    state = parse_board("splits=9 score=0 " + NO_FALL)
    step = turn(state, m(4, 0, 4, 8))
    assert_state(
        step,
        [B(2, 0, 2, 2), B(0, 2, 2, 2), B(2, 2, 2, 2), B(0, 4, 4, 4), B(4, 0, 2, 8), B(0, 8, 8, 8),
         B(6, 0, 2, 8), B(0, 0, 2, 2)],
        score=6,
        splits=10,
    )
    assert of(step, PointBlocksCreated) == []


def test_late_cluster_without_a_fall_with_the_option(turn):
    # Rules(always_late_clusters): the same group converts to N = 10 (+4). Score 10.
    rules = Rules(always_late_clusters=True)
    state = parse_board("splits=9 score=0 rules=always_late_clusters " + NO_FALL)
    step = turn(state, m(4, 0, 4, 8))
    assert_state(
        step,
        [B(2, 0, 2, 2, 10), B(0, 2, 2, 2, 10), B(2, 2, 2, 2, 10), B(0, 4, 4, 4), B(4, 0, 2, 8), B(0, 8, 8, 8),
         B(6, 0, 2, 8), B(0, 0, 2, 2, 10)],
        score=10,
        splits=10,
        rules=rules,
    )
    assert of(step, PointBlocksCreated) == [
        PointBlocksCreated((B(2, 0, 2, 2), B(0, 2, 2, 2), B(2, 2, 2, 2), B(0, 0, 2, 2)), 10, late=True)
    ]
    assert of(step, TurnScored) == [TurnScored(1, 1, 4, 0, 4)]


# =====================================================================================================
# 1.8 Game end
# =====================================================================================================
COLUMNS = "| " + " ".join(f"{x},0,1,16" for x in range(8))


def test_every_plain_box_one_wide_on_a_v_turn_is_over(turn):
    v_turn = parse_board("splits=31 score=0 " + COLUMNS)
    assert v_turn.is_over() and v_turn.legal_moves() == []
    with pytest.raises(IllegalMoveError) as caught:
        turn(v_turn, Move(0, 0))
    assert str(caught.value) == "box (0,0,1,16) cannot split vertically: width 1"
    # The same boxes on an H turn: all 8 columns can split.
    assert len(parse_board("splits=30 score=0 " + COLUMNS).legal_moves()) == 8


def test_split_that_ends_the_game(turn):
    # H turn, eight 1x16 columns: splitting (0,0,1,16) -> (0,0,1,8) + (0,8,1,8) (a 1x8 square would
    # need (1,0) or (1,8) to be 1x8; (1,0,1,16) is not -> none). Score +1. Now a V turn and every
    # plain box is 1 wide: no legal move.
    state = parse_board("splits=40 score=0 " + COLUMNS)
    step = turn(state, m(0, 0, 1, 16))
    assert step.state.score == 1 and step.state.splits == 41
    assert step.state.is_over()


def test_every_plain_box_one_tall_on_an_h_turn_is_over():
    rows = "| " + " ".join(f"0,{y},8,1" for y in range(16))
    assert parse_board("splits=2 score=0 " + rows).is_over()
    assert len(parse_board("splits=3 score=0 " + rows).legal_moves()) == 16


def test_no_plain_box_is_over():
    for splits in (9, 10):
        state = parse_board(f"splits={splits} score=0 | 0,0,8,8:5 0,8,8,8:7")
        assert state.is_over() and state.legal_moves() == []


# =====================================================================================================
# Impossible boards are refused by the parser
# =====================================================================================================
@pytest.mark.parametrize(
    "text, reason",
    [
        ("splits=0 score=0 | 0,0,8,8", "box (0,0,8,8) has nothing under it and would fall"),
        # (4,4,4,4) is above columns 4-7, but the box under row 8 only covers columns 0-3.
        ("splits=0 score=0 | 0,8,4,8 4,4,4,4", "box (4,4,4,4) has nothing under it and would fall"),
        ("splits=3 score=0 | 0,0,8,16:5", "point block (0,0,8,16) shows 5 but only 3 splits were made"),
        ("splits=0 score=0 | 0,0,8,16 0,0,4,4", "boxes (0,0,8,16) and (0,0,4,4) overlap at cell 0,0"),
        ("splits=0 score=0 | 0,0,3,16", "box (0,0,3,16): sides must be powers of two (w 1-8, h 1-16)"),
        ("splits=0 score=0 | 4,0,8,16", "box (4,0,8,16) does not fit on the 8x16 board"),
    ],
    ids=["floating", "floating-over-other-columns", "points-over-splits", "overlap", "not-power-of-two",
         "off-board"],
)
def test_impossible_boards_are_refused(text, reason):
    with pytest.raises(NotationError) as caught:
        parse_board(text)
    assert caught.value.reason == reason
    assert str(caught.value) == f"line 1: {reason}"


def test_a_box_resting_on_one_column_is_a_legal_board():
    # (0,0,4,2) over an enclosed void in columns 0-1 but on (2,2,2,2): legal (spec 1.5 rigid boxes).
    state = parse_board("splits=9 score=0 | 0,0,4,2 2,2,2,2 4,0,4,4 0,4,8,4 0,8,8,8")
    assert state.voids() == [(0, 2), (1, 2), (0, 3), (1, 3)]


def test_diagram_form_reads_the_opening_after_5_splits():
    # The same position as the one-line form of the opening after split 5, drawn as a diagram.
    diagram = "\n".join(
        ["splits=5 score=9"]
        + ["5 - - - 5 - - -"] + ["| + + + | + + +"] * 3
        + ["5 - - - 5 - - -"] + ["| + + + | + + +"] * 3
        + ["o - - - o - - -"] + ["| + + + | + + +"] * 7
    )
    state = parse_board(diagram)
    expected = parse_board("splits=5 score=9 | 0,0,4,4:5 0,8,4,8 4,0,4,4:5 0,4,4,4:5 4,8,4,8 4,4,4,4:5")
    assert state.same_position(expected)
    assert state.orientation == "V"
