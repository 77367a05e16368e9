"""SPL-T text forms: moves, positions, sequence files; precise errors on bad input."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engines import GAMES, IllegalMoveError, KibitzInputError, Line, NotationError
from engines.splt import Box, Move, Rules, State, notation

SPLT = GAMES["splt"]

# The worked opening of spec 1.9 (boxes before each split).
OPENING = [
    (0, 0, 8, 16), (0, 0, 8, 8), (0, 0, 4, 8), (0, 8, 8, 8), (4, 0, 4, 8),
    (0, 8, 4, 8), (0, 8, 2, 8), (0, 8, 2, 4), (0, 8, 1, 4), (4, 8, 4, 8),
]


def _after_opening(splits: int) -> State:
    return SPLT.replay(State(), [Move(*m) for m in OPENING[:splits]])


# -- moves ----------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("text", "move"),
    [
        ("4,6,1,1", Move(4, 6, 1, 1)),
        ("4,6", Move(4, 6)),
        ("(4,6,1,1)", Move(4, 6, 1, 1)),
        ("[4, 6, 1, 1]", Move(4, 6, 1, 1)),
        (" 0,0 ", Move(0, 0)),
    ],
)
def test_parse_move(text, move):
    assert SPLT.parse_move(text) == move


@pytest.mark.parametrize("text", ["", "4", "4,6,1", "a,b", "4;6", "4,6,1,1,1"])
def test_bad_move_text_names_the_token(text):
    with pytest.raises(NotationError) as caught:
        SPLT.parse_move(text)
    assert caught.value.location.token == text
    assert "x,y or x,y,w,h" in str(caught.value)


@given(st.text(max_size=30))
def test_parse_move_raises_only_notation_errors(text):
    try:
        move = SPLT.parse_move(text)
    except NotationError:
        return
    assert SPLT.parse_move(str(move)) == move


# -- positions ------------------------------------------------------------------------------------
def test_one_line_text_of_the_opening():
    # After 5 splits of the worked opening (1.9): H (0,0,8,16) -> [0] (0,0,8,8), [1] (0,8,8,8);
    # V [0] -> (0,0,4,8), [2] (4,0,4,8); H [0] -> (0,0,4,4), [3] (0,4,4,4); V [1] -> (0,8,4,8),
    # [4] (4,8,4,8); H [2] -> (4,0,4,4), [5] (4,4,4,4): four 4x4 at the top, value 5, score 9.
    state = _after_opening(5)
    assert SPLT.board_text(state) == (
        "splits=5 score=9 | 0,0,4,4:5 0,8,4,8 4,0,4,4:5 0,4,4,4:5 4,8,4,8 4,4,4,4:5"
    )


def test_diagram_of_the_opening():
    state = _after_opening(5)
    expected = "\n".join(
        ["splits=5 score=9"]
        + ["5 - - - 5 - - -"]
        + ["| + + + | + + +"] * 3
        + ["5 - - - 5 - - -"]
        + ["| + + + | + + +"] * 3
        + ["o - - - o - - -"]
        + ["| + + + | + + +"] * 7
    )
    assert str(state) == expected
    assert SPLT.parse_board(str(state)).same_position(state)


def test_hand_written_diagram_with_voids_and_rules():
    text = "\n".join(
        ["splits=3 score=10 rules=unconditional_refill"]
        + [". . o - o - o -"]
        + [". . | + | + | +"] * 7
        + ["o - - - - - - -"]
        + ["| + + + + + + +"] * 7
    )
    state = SPLT.parse_board(text)
    assert state.rules == Rules(unconditional_refill=True)
    assert state.voids() == [(x, y) for y in range(8) for x in (0, 1)]
    assert sorted(state.boxes) == sorted(
        [Box(2, 0, 2, 8), Box(4, 0, 2, 8), Box(6, 0, 2, 8), Box(0, 8, 8, 8)]
    )


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("splits=1 | 4,0,8,16", "box (4,0,8,16) does not fit"),
        ("splits=1 | 0,0,3,16 3,0,5,16", "sides must be powers of two"),
        ("splits=1 | 0,0,8,8 0,4,8,8", "overlap"),
        ("splits=1 | 0,0,8,8", "box (0,0,8,8) has nothing under it and would fall"),
        ("splits=3 | 0,0,8,8:5 0,8,8,8", "shows 5 but only 3 splits were made"),
        ("splits=x | 0,0,8,16", "splits must be a whole number"),
        ("moves=3 | 0,0,8,16", "unknown key 'moves'"),
        ("rules=gravity | 0,0,8,16", "unknown rule option 'gravity'"),
        ("0,0,8,16", "a one-line position is"),
        ("splits=1 | 0,0,8,16,2", "a box is x,y,w,h or x,y,w,h:points"),
        ("", "empty position text"),
    ],
)
def test_bad_positions_say_why(text, message):
    with pytest.raises(NotationError, match=message.replace("(", r"\(").replace(")", r"\)")):
        SPLT.parse_board(text)


def test_bad_diagram_cell_names_line_and_column():
    rows = ["o - - - - - - -"] + ["| + + + + + + +"] * 15
    rows[3] = "| + + + + x + +"
    with pytest.raises(NotationError) as caught:
        SPLT.parse_board("\n".join(rows))
    assert (caught.value.location.line, caught.value.location.column, caught.value.location.token) == (4, 11, "x")


def test_diagram_with_missing_row():
    rows = ["o - - - - - - -"] + ["| + + + + + + +"] * 14
    with pytest.raises(NotationError, match="16 rows of 8 cells; found 15 rows"):
        SPLT.parse_board("\n".join(rows))


@settings(max_examples=60, deadline=None)
@given(st.integers(min_value=0, max_value=2**32 - 1))
def test_random_positions_round_trip_both_forms(seed):
    rng = np.random.default_rng(seed)
    state = State()
    for _ in range(int(rng.integers(0, 120))):
        moves = state.legal_moves()
        if not moves:
            break
        state = SPLT.play(state, moves[int(rng.integers(len(moves)))]).state
    assert SPLT.parse_board(SPLT.board_text(state)) == state
    assert SPLT.parse_board(str(state)).same_position(state)


@given(st.text(alphabet="0123456789,:|= .-+o\n", max_size=200))
def test_parse_board_raises_only_notation_errors(text):
    try:
        SPLT.parse_board(text)
    except NotationError:
        pass


# -- index-list files -----------------------------------------------------------------------------
def test_index_list_reads_with_and_without_brackets_and_whitespace():
    # The records' opening 0, 1, 1, 3: H [0] (0,0,8,16) -> [1] (0,8,8,8); V [1] -> (0,8,4,8),
    # [2] (4,8,4,8); H [1] (0,8,4,8) -> (0,8,4,4), [3] (0,12,4,4); V [3].
    expected = (Move(0, 0, 8, 16), Move(0, 8, 8, 8), Move(0, 8, 4, 8), Move(0, 12, 4, 4))
    for text in ("[0, 1, 1, 3]", "0, 1, 1, 3", "  [0, 1, 1, 3]\n", "0,1,1,3\n".replace(",", ", ")):
        assert SPLT.parse_sequence(text).moves == expected


def test_index_list_is_written_like_the_reference_tools():
    # The worked opening's first four splits take boxes [0], [0], [0] and [1] (see above).
    line = Line(State(), tuple(Move(*m) for m in OPENING[:4]))
    assert SPLT.sequence_text(line, "index") == "[0, 0, 0, 1]"


@pytest.mark.parametrize(
    ("text", "kind", "move_number", "token", "column", "reason"),
    [
        ("[0, 1, 1, 7]", IllegalMoveError, 4, "7", 11, "index 7 but the board has only 4 boxes (0-3)"),
        ("[0, 1, x1, 3]", NotationError, 3, "x1", 8, "not a box index"),
        ("[0, 1, -1]", NotationError, 3, "-1", 8, "not a box index"),
        ("[0, 1,, 3]", NotationError, 3, None, 7, "empty entry"),
        ("[0, 1, 1, 3, ]", NotationError, 5, None, 14, "empty entry"),
        # index 0 is always the top-left box: 8x16, 8x8, 4x8, 4x4, 2x4, 2x2, 1x2, then the
        # eighth split (V) meets (0,0,1,1)
        ("[0, 0, 0, 0, 0, 0, 0, 0]", IllegalMoveError, 8, "0", 23, "box (0,0,1,1) cannot split vertically: width 1"),
    ],
)
def test_index_list_errors_are_precise(text, kind, move_number, token, column, reason):
    with pytest.raises(kind) as caught:
        SPLT.parse_sequence(text, source="game.txt")
    location = caught.value.location
    assert (location.source, location.line, location.move_number, location.token, location.column) == (
        "game.txt", 1, move_number, token, column
    )
    assert reason in caught.value.reason


def test_unbalanced_bracket():
    with pytest.raises(NotationError, match="unbalanced brackets: the list has no '\\]'"):
        SPLT.parse_sequence("[0, 1, 1", source="cut.txt")


@given(st.text(alphabet="0123456789, []x\n", max_size=80))
def test_parse_index_list_raises_only_input_errors(text):
    try:
        SPLT.parse_sequence(text, format="index")
    except KibitzInputError:
        pass


# -- geometric files ------------------------------------------------------------------------------
def test_geometric_file_round_trip_with_a_start_position():
    start = _after_opening(5)
    line = Line(start, (Move(0, 8, 4, 8), Move(0, 8, 2, 8)))
    text = SPLT.sequence_text(line)
    assert text.splitlines()[0] == "# kibitz splt sequence"
    assert "start: splits=5 score=9 | 0,0,4,4:5 0,8,4,8 4,0,4,4:5 0,4,4,4:5 4,8,4,8 4,4,4,4:5" in text.splitlines()
    assert text.splitlines()[-1] == "1. 0,8,4,8 0,8,2,8"
    assert SPLT.parse_sequence(text) == line
    # Index lists from a non-empty start refer to that start's box list: (0,8,4,8) is [1], and
    # its left half (0,8,2,8) keeps that place.
    assert SPLT.sequence_text(line, "index") == "[1, 1]"


def test_geometric_file_accepts_short_moves_and_checks_labels():
    text = "# kibitz splt sequence\n1. 0,0 0,0\n3. 0,0,4,8\n"
    assert SPLT.parse_sequence(text).moves == (Move(0, 0), Move(0, 0), Move(0, 0, 4, 8))
    with pytest.raises(NotationError) as caught:
        SPLT.parse_sequence("# kibitz splt sequence\n1. 0,0 0,0\n4. 0,0\n", source="g.kibitz")
    assert caught.value.location.line == 3
    assert "label says move 4 but the next move is 3" in str(caught.value)


def test_geometric_file_bad_token_and_illegal_move():
    with pytest.raises(NotationError) as caught:
        SPLT.parse_sequence("# kibitz splt sequence\n0,0,8,16 0;0\n", source="g.kibitz")
    assert (caught.value.location.line, caught.value.location.column, caught.value.location.move_number) == (2, 10, 2)
    # H (0,0,8,16); V (0,0,8,8); H (0,0,4,8) -> (0,0,4,4); V (0,0,4,4) -> (0,0,2,4): the fifth
    # move names (0,0) as 2x2 but it is 2x4.
    line = SPLT.parse_sequence("# kibitz splt sequence\n0,0,8,16 0,0,8,8 0,0,4,8 0,0,4,4 0,0,2,2\n")
    with pytest.raises(IllegalMoveError) as caught:
        SPLT.replay_line(line)
    assert caught.value.location.move_number == 5
    assert "the box at (0,0) is 2x4, not 2x2" in str(caught.value)
