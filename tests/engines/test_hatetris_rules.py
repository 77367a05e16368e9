"""HATETRIS rules on small positions worked out by hand from shared/specs/hatetris.md section 1.

Expected values come from the spec's tables and text (the piece table of 1.2, the spawn of 1.3,
the empty well's peaks of 1.6, the 90 x Down game of 2.4) or from positions worked out by hand
below, each with its arithmetic in a comment. Coordinates: row 0 is the top, rows 0-3 the buffer
above the bar; a row's bit x is column x (value 2**x, leftmost column = least significant bit).
A placement is the (x, y, o) of the piece's 4 x 4 box; cell (cx, cy) of the box sits at column
x + cx, row y + cy.

Nothing here needs the reference data files.
"""

from __future__ import annotations

import pytest

from engines.errors import IllegalMoveError, NotationError
from engines.hatetris import (
    DEFAULT_RULES,
    GAME,
    MILD_RULES,
    GameEnded,
    LinesCleared,
    PieceLocked,
    PieceSent,
    Placement,
    Rules,
)
from engines.hatetris import pieces as piece_tables

# -- the spec's piece table (1.2), typed from the spec -----------------------------------------------
# (piece, o): (cells (cx, cy) in the spec's order, (xMin, yMin, xDim, yDim))
SPEC_PIECE_TABLE = {
    ("I", 0): ("(0,1) (1,1) (2,1) (3,1)", (0, 1, 4, 1)),
    ("I", 1): ("(2,0) (2,1) (2,2) (2,3)", (2, 0, 1, 4)),
    ("I", 2): ("(0,2) (1,2) (2,2) (3,2)", (0, 2, 4, 1)),
    ("I", 3): ("(1,0) (1,1) (1,2) (1,3)", (1, 0, 1, 4)),
    ("J", 0): ("(1,1) (2,1) (1,2) (1,3)", (1, 1, 2, 3)),
    ("J", 1): ("(0,1) (1,1) (2,1) (2,2)", (0, 1, 3, 2)),
    ("J", 2): ("(2,0) (2,1) (1,2) (2,2)", (1, 0, 2, 3)),
    ("J", 3): ("(1,1) (1,2) (2,2) (3,2)", (1, 1, 3, 2)),
    ("L", 0): ("(1,1) (2,1) (3,1) (1,2)", (1, 1, 3, 2)),
    ("L", 1): ("(1,1) (2,1) (2,2) (2,3)", (1, 1, 2, 3)),
    ("L", 2): ("(2,1) (0,2) (1,2) (2,2)", (0, 1, 3, 2)),
    ("L", 3): ("(1,0) (1,1) (1,2) (2,2)", (1, 0, 2, 3)),
    ("O", 0): ("(1,1) (2,1) (1,2) (2,2)", (1, 1, 2, 2)),
    ("O", 1): ("(1,1) (2,1) (1,2) (2,2)", (1, 1, 2, 2)),
    ("O", 2): ("(1,1) (2,1) (1,2) (2,2)", (1, 1, 2, 2)),
    ("O", 3): ("(1,1) (2,1) (1,2) (2,2)", (1, 1, 2, 2)),
    ("S", 0): ("(2,1) (3,1) (1,2) (2,2)", (1, 1, 3, 2)),
    ("S", 1): ("(1,1) (1,2) (2,2) (2,3)", (1, 1, 2, 3)),
    ("S", 2): ("(1,1) (2,1) (0,2) (1,2)", (0, 1, 3, 2)),
    ("S", 3): ("(1,0) (1,1) (2,1) (2,2)", (1, 0, 2, 3)),
    ("T", 0): ("(1,1) (2,1) (3,1) (2,2)", (1, 1, 3, 2)),
    ("T", 1): ("(2,1) (1,2) (2,2) (2,3)", (1, 1, 2, 3)),
    ("T", 2): ("(1,1) (0,2) (1,2) (2,2)", (0, 1, 3, 2)),
    ("T", 3): ("(1,0) (1,1) (2,1) (1,2)", (1, 0, 2, 3)),
    ("Z", 0): ("(1,1) (2,1) (2,2) (3,2)", (1, 1, 3, 2)),
    ("Z", 1): ("(2,1) (1,2) (2,2) (1,3)", (1, 1, 2, 3)),
    ("Z", 2): ("(0,1) (1,1) (1,2) (2,2)", (0, 1, 3, 2)),
    ("Z", 3): ("(2,0) (1,1) (2,1) (1,2)", (1, 0, 2, 3)),
}


def spec_cells(piece: str, o: int) -> frozenset[tuple[int, int]]:
    text, _ = SPEC_PIECE_TABLE[piece, o]
    return frozenset(tuple(int(v) for v in cell.strip("()").split(",")) for cell in text.split())


def test_the_spec_table_turns_clockwise_as_the_spec_says():
    # A check of the typing above: o + 1 is o turned by (cx, cy) -> (3 - cy, cx) (spec 1.2).
    for piece in "IJLOSTZ":
        for o in range(4):
            turned = frozenset((3 - cy, cx) for cx, cy in spec_cells(piece, o))
            assert turned == spec_cells(piece, (o + 1) % 4), (piece, o)


def test_piece_table_equals_the_spec():
    assert piece_tables.PIECES == "SZOILJT"  # the AI's tie-break order (spec 1.6)
    for (piece, o), (_, box) in SPEC_PIECE_TABLE.items():
        index = piece_tables.PIECE_INDEX[piece]
        assert frozenset(piece_tables.CELLS[index][o]) == spec_cells(piece, o), (piece, o)
        assert len(piece_tables.CELLS[index][o]) == 4
        assert tuple(int(v) for v in piece_tables.BOXES[index, o]) == box, (piece, o)
        assert piece_tables.bounding_box(index, o) == box, (piece, o)


# -- an independent key simulator on the spec's table (spec 1.3) --------------------------------------
def simulate_keys(well: tuple[int, ...], piece: str, keys: str, width: int = 10) -> tuple[int, int, int] | None:
    """Play ``keys`` for one piece from the spawn; the (x, y, o) where a failing Down locks it,
    None if no Down failed. Written from spec 1.3 only, to check the engine's key paths."""
    depth = len(well)

    def legal(x: int, y: int, o: int) -> bool:
        return all(0 <= x + cx < width and 0 <= y + cy < depth and not well[y + cy] >> (x + cx) & 1
                   for cx, cy in spec_cells(piece, o))

    x, y, o = (width - 4) // 2, 0, 0
    for key in keys:
        candidate = {"L": (x - 1, y, o), "R": (x + 1, y, o), "D": (x, y + 1, o), "U": (x, y, (o + 1) % 4)}[key]
        if legal(*candidate):
            x, y, o = candidate
        elif key == "D":
            return x, y, o
    return None


# -- board texts -------------------------------------------------------------------------------------
def board(rows: dict[int, str], header: str = "score 0 · next I", width: int = 10, depth: int = 20) -> str:
    """A board text (header, then ``depth`` rows top first) with ``rows`` filled in, the rest empty."""
    return "\n".join([header] + [rows.get(y, "." * width) for y in range(depth)])


def row_value(text: str) -> int:
    return sum(1 << x for x, char in enumerate(text) if char == "#")


# -- spawn and the first piece -----------------------------------------------------------------------
def test_spawn_is_3_0_0():
    # Spec 1.3: x = floor((10 - 4) / 2) = 3, y = 0, o = 0; a fresh piece waits there (no gravity).
    assert DEFAULT_RULES.spawn_x == 3
    assert GAME.replay_keys("").live == (3, 0, 0)
    assert GAME.replay_keys("", MILD_RULES).live == (3, 0, 0)
    # The reduced wells of spec 3.10 spawn at floor((w - 4) / 2): 2 for 8 wide, 0 for 4 wide.
    assert GAME.replay_keys("", Rules(enemy="mild", width=8, depth=9)).live == (2, 0, 0)
    assert GAME.replay_keys("", Rules(enemy="mild", width=4, depth=6)).live == (0, 0, 0)


def test_first_piece_is_s():
    # Spec 1.6: in the empty well S, Z, O, L, J, T all have peak 18 and I has 19, so the lowest
    # peak 18 ties six pieces and S comes first in S Z O I L J T.
    assert GAME.initial_state().piece == "S"
    assert GAME.initial_state(MILD_RULES).piece == "S"
    replay = GAME.replay_keys("")
    assert replay.pieces == "S"
    assert tuple(int(p) for p in replay.peaks[0]) == (18, 18, 18, 19, 18, 18, 18)
    assert tuple(int(n) for n in replay.loops[0]) == (0,) * 7


def test_s_dropped_one_column_right_lands_on_the_floor():
    # S o=0 has cells (2,1) (3,1) (1,2) (2,2); from the spawn (3,0,0) one R gives x=4, and the
    # lowest box row y with y + 2 <= 19 is 17: 17 Downs move it, the 18th locks it at S@4,17,0.
    # Cells: (6,18) (7,18) (5,19) (6,19) -> row 18 = 64 + 128 = 192, row 19 = 32 + 64 = 96.
    replay = GAME.replay_keys("R" + "D" * 18)
    assert replay.placements == (Placement("S", 4, 17, 0),)
    assert replay.well[18:] == (192, 96)
    assert replay.well[:18] == (0,) * 18
    assert replay.keys_used == 19
    assert replay.live == (3, 0, 0)  # the next piece waits at the spawn


# -- locking, line clears, game over (spec 1.4, 1.5) --------------------------------------------------
# Row 4 (the first row below the bar) has every cell but column 0; row 5 and below have column 0
# filled (column 9 open). A vertical I (o=1, cells (2,0)..(2,3)) at x=-2 covers column 0; it falls
# to y=1 (rows 1-4) because row 5 is filled in column 0. Its top row is 1 < 4 (spec 1.4.3), so the
# now full row 4 is NOT cleared and the game is over. Cells: 9 + 15 * 9 = 144, a multiple of 4.
TOP_ABOVE_BAR = board({4: ".#########", **{y: "#########." for y in range(5, 20)}})


def test_lock_above_the_bar_clears_nothing_and_ends_the_game():
    state = GAME.parse_board(TOP_ABOVE_BAR)
    move = Placement("I", -2, 1, 1)
    assert move in GAME.legal_moves(state)
    step = GAME.play(state, move)
    after = step.state
    assert after.over and GAME.is_over(after)
    assert after.piece is None
    assert after.score == 0
    assert after.well[4] == 1023  # the full row stays
    assert after.well[1:4] == (1, 1, 1)  # the I sticks out above the bar in column 0
    assert after.well[5:] == (row_value("#########."),) * 15
    assert step.events == (
        PieceLocked("I", -2, 1, 1, ((0, 1), (0, 2), (0, 3), (0, 4))),
        GameEnded(0),
    )
    assert GAME.legal_moves(after) == []


def test_key_path_to_the_lock_above_the_bar():
    # Shortest: U (o=1, column 5), five L (x=-2, column 0), one D (rows 1-4) and the locking D.
    state = GAME.parse_board(TOP_ABOVE_BAR)
    path = GAME.key_path(state, Placement("I", -2, 1, 1))
    assert sorted(path) == sorted("ULLLLLDD")
    assert path.endswith("D")
    assert simulate_keys(state.well, "I", path) == (-2, 1, 1)


# Row 4 has columns 4-9 filled; rows 5-18 everything but column 9 and row 19 columns 0-7, so
# cells = 6 + 14 * 9 + 8 = 140. A flat I (o=0, cells (0,1)..(3,1)) at x=0 falls to y=3 (row 4,
# columns 0-3) and stops on row 5. Its top row is y + yMin = 3 + 1 = 4: at the bar, so row 4,
# now full, is cleared.
AT_THE_BAR = board({4: "....######", **{y: "#########." for y in range(5, 19)}, 19: "########.."})


def test_line_clear_with_the_piece_top_at_the_bar():
    state = GAME.parse_board(AT_THE_BAR)
    step = GAME.play(state, Placement("I", 0, 3, 0))
    after = step.state
    assert not after.over
    assert after.score == 1
    # Row 4 is removed, the empty rows above shift down: rows 0-4 are empty, rows 5-19 unchanged.
    assert after.well[:5] == (0,) * 5
    assert after.well[5:] == state.well[5:]
    assert step.events[1] == LinesCleared((4,), 1)
    assert isinstance(step.events[2], PieceSent)
    assert simulate_keys(state.well, "I", GAME.key_path(state, Placement("I", 0, 3, 0))) == (0, 3, 0)


# Rows 18 and 19 have every cell but column 9 (18 cells; score 1 makes 18 + 10 = 28 a multiple of
# 4). A vertical I in column 9 rests on the floor at rows 16-19 and completes rows 18 and 19: two
# lines. Two states cover column 9: o=1 (cells at cx=2) with x=7 and o=3 (cx=1) with x=8.
TWO_LINES = board({18: "#########.", 19: "#########."}, header="score 1 · next I")


@pytest.mark.parametrize("move", [Placement("I", 7, 16, 1), Placement("I", 8, 16, 3)])
def test_two_line_clear(move):
    state = GAME.parse_board(TWO_LINES)
    assert move in GAME.legal_moves(state)
    step = GAME.play(state, move)
    after = step.state
    assert after.score == 3
    # Left: the I's cells of rows 16 and 17 (column 9 = 512), shifted down two rows.
    assert after.well == (0,) * 18 + (512, 512)
    assert step.events[0].cells == ((9, 16), (9, 17), (9, 18), (9, 19))
    assert step.events[1] == LinesCleared((18, 19), 3)


def test_s_orientations_0_and_2_are_different_placements_of_the_same_cells():
    # S o=2 is S o=0 shifted one column left in the box (spec 1.2), so S@6,17,0 and S@7,17,2 both
    # cover (8,18) (9,18) (7,19) (8,19) in the empty well. Both are reachable resting states.
    start = GAME.initial_state()
    zero, two = Placement("S", 6, 17, 0), Placement("S", 7, 17, 2)
    assert zero != two
    legal = GAME.legal_moves(start)
    assert zero in legal and two in legal
    zero_step, two_step = GAME.play(start, zero), GAME.play(start, two)
    assert set(zero_step.events[0].cells) == set(two_step.events[0].cells) == {(8, 18), (9, 18), (7, 19), (8, 19)}
    assert zero_step.state.well == two_step.state.well

    # Rotating from them differs: from (6,17,0) the turn to o=1 needs row 20 (blocked, no-op);
    # from (7,17,2) the turn to o=3 covers (8,17) (8,18) (9,18) (9,19) and succeeds, after which the
    # Down locks the piece at S@7,17,3.
    assert GAME.replay_keys("RRR" + "D" * 17 + "U" + "D").placements == (zero,)
    assert GAME.replay_keys("UURRRR" + "D" * 17 + "U" + "D").placements == (Placement("S", 7, 17, 3),)
    assert GAME.replay_keys("UURRRR" + "D" * 18).placements == (two,)


# -- move errors -------------------------------------------------------------------------------------
def _illegal(state, move) -> IllegalMoveError:
    with pytest.raises(IllegalMoveError) as caught:
        GAME.play(state, move)
    return caught.value


def test_wrong_piece_is_illegal():
    error = _illegal(GAME.initial_state(), Placement("Z", 6, 17, 0))
    assert "S" in error.reason and "Z" in error.reason
    assert error.location.token == "Z@6,17,0"


def test_a_piece_that_can_still_fall_is_not_resting():
    error = _illegal(GAME.initial_state(), Placement("S", 6, 5, 0))
    assert "resting" in error.reason


def test_a_piece_outside_the_well_does_not_fit():
    # S o=0 at x=8 would put cell (3,1) in column 11.
    error = _illegal(GAME.initial_state(), Placement("S", 8, 17, 0))
    assert "fit" in error.reason


# A closed pocket: roof row 16 columns 0-2, wall column 2 in rows 17-18, floor row 19 columns 0-2
# (8 cells). An O at x=-1, y=16 (cells columns 0-1, rows 17-18) fits and rests on row 19, but no
# path leads into the pocket.
POCKET = board({16: "###.......", 17: "..#.......", 18: "..#.......", 19: "###......."}, header="score 0 · next O")


def test_a_resting_placement_inside_a_closed_pocket_is_unreachable():
    state = GAME.parse_board(POCKET)
    move = Placement("O", -1, 16, 0)
    assert move not in GAME.legal_moves(state)
    error = _illegal(state, move)
    assert "reach" in error.reason
    with pytest.raises(ValueError):
        GAME.key_path(state, move)


def test_no_move_after_game_over():
    over = GAME.play(GAME.parse_board(TOP_ABOVE_BAR), Placement("I", -2, 1, 1)).state
    error = _illegal(over, Placement("I", 7, 16, 1))
    assert "over" in error.reason


def test_replay_names_the_illegal_move_number():
    start = GAME.initial_state()
    with pytest.raises(IllegalMoveError) as caught:
        GAME.replay(start, [Placement("S", 6, 17, 0), Placement("Z", 0, 0, 0)])
    assert caught.value.location.move_number == 2


# -- placement text ----------------------------------------------------------------------------------
def test_placement_text_round_trips():
    for text in ("S@6,17,0", "I@-2,1,1", "O@-1,16,3"):
        move = Placement.parse(text)
        assert str(move) == text
        assert GAME.parse_move(text) == move
    assert Placement.parse("S@6,17,0") == Placement("S", 6, 17, 0)


@pytest.mark.parametrize("text", ["S@6,17", "Q@1,2,3", "S@1,2,4", "S 6 17 0", ""])
def test_bad_placement_text(text):
    with pytest.raises(NotationError):
        Placement.parse(text)


def test_placement_list_errors_say_line_column_and_move():
    with pytest.raises(NotationError) as caught:
        GAME.parse_sequence("S@6,17,0 Q@1,2,3")
    # "S@6,17,0 " is 9 characters: the bad token starts in column 10; it is the 2nd move.
    assert (caught.value.location.line, caught.value.location.column) == (1, 10)
    assert caught.value.location.move_number == 2
    assert caught.value.location.token == "Q@1,2,3"

    with pytest.raises(NotationError) as caught:
        GAME.parse_sequence("S@6,17,0\n  S@1,2,9\n", format="placements")
    assert (caught.value.location.line, caught.value.location.column) == (2, 3)
    assert caught.value.location.move_number == 2


# -- board text --------------------------------------------------------------------------------------
def _board_error(text: str) -> NotationError:
    with pytest.raises(NotationError) as caught:
        GAME.parse_board(text)
    return caught.value


def test_board_text_reads_the_cells():
    state = GAME.parse_board(TWO_LINES)
    assert state.score == 1 and state.piece == "I" and state.rules == DEFAULT_RULES
    assert state.well == (0,) * 18 + (511, 511)  # columns 0-8 = 2**9 - 1
    assert GAME.board_text(state) == TWO_LINES


def test_board_text_of_a_reduced_mild_well():
    text = board({8: "####...."}, header="score 0 · next I · mild · well 8x5", width=8, depth=9)
    state = GAME.parse_board(text)
    assert state.rules == Rules(enemy="mild", width=8, depth=9)
    assert state.well == (0,) * 8 + (15,)
    assert GAME.board_text(state) == text


def test_board_with_too_few_rows():
    text = "\n".join(board({}).splitlines()[:-1])  # header + 19 rows
    error = _board_error(text)
    assert error.location.line == 20  # the last line of the text
    assert "19" in error.reason


def test_board_with_a_short_row():
    error = _board_error(board({5: "#########"}))  # row 5 is on line 7 (the header is line 1)
    assert error.location.line == 7
    assert error.location.token == "#########"


def test_board_with_a_bad_character():
    error = _board_error(board({10: "###x......"}))
    assert (error.location.line, error.location.column) == (12, 4)
    assert error.location.token == "x"


def test_board_with_an_impossible_cell_count():
    # 3 cells and no line: every piece adds 4 cells and every line removes 10.
    error = _board_error(board({19: "###......."}))
    assert error.location.line == 1
    assert "3 cells" in error.reason


def test_board_with_cells_above_the_bar_needs_next_dash():
    # One cell in row 2 (line 4) and three in row 19: 4 cells, a possible count.
    rows = {2: "#.........", 19: "###......."}
    error = _board_error(board(rows, header="score 0 · next S"))
    assert error.location.line == 4
    # With 'next -' it is a finished game.
    over = GAME.parse_board(board(rows, header="score 0 · next -"))
    assert over.over and over.piece is None


def test_board_with_next_dash_but_nothing_above_the_bar():
    error = _board_error(board({19: "####......"}, header="score 0 · next -"))
    assert error.location.line == 1


def test_board_with_a_full_row():
    error = _board_error(board({19: "##########", 18: "##........"}))  # 12 cells
    assert error.location.line == 21


# -- key paths ---------------------------------------------------------------------------------------
def test_key_path_of_every_first_placement_replays_to_it():
    start = GAME.initial_state()
    legal = GAME.legal_moves(start)
    # S in the empty well: o=0 and o=2 rest on the floor (y=17) in 8 columns each; o=1 and o=3
    # stand upright at y=16 and y=17 (box rows 1-3 and 0-2) in 9 columns each: 34 (spec 1.2).
    assert len(legal) == 34
    for move in legal:
        path = GAME.key_path(start, move)
        assert path.endswith("D")
        replay = GAME.replay_keys(path)
        assert replay.placements == (move,), (move, path)
        assert replay.keys_used == len(path)
        assert simulate_keys(start.well, "S", path) == (move.x, move.y, move.o)


# Roof over columns 0-2 in row 16, floor row 19 columns 0-4 (8 cells). An O at x=-1, y=16 (cells
# columns 0-1, rows 17-18) rests on row 19; coming straight down it would hit the roof, so the only
# way in is to fall to y=16 further right and slide left under the roof.
TUCK = board({16: "###.......", 19: "#####....."}, header="score 0 · next O")


def test_tuck_under_an_overhang_slides_after_falling():
    state = GAME.parse_board(TUCK)
    move = Placement("O", -1, 16, 0)
    assert move in GAME.legal_moves(state)
    path = GAME.key_path(state, move)
    last_down = path[:-1].rfind("D")
    assert last_down >= 0 and any(key in "LR" for key in path[last_down:-1]), path
    # 16 Downs, 4 Lefts and the locking Down, in some order: the shortest.
    assert len(path) == 21 and path.count("L") == 4 and path.count("D") == 17
    assert simulate_keys(state.well, "O", path) == (-1, 16, 0)
    assert GAME.play(state, move).state.well[17:] == (3, 3, 31)


# -- replayed keys: no-ops and game over --------------------------------------------------------------
def test_blocked_left_at_the_wall_counts_but_changes_nothing():
    # S o=0 has xMin = 1: x can go down to -1, four Lefts from the spawn x=3; the fifth is blocked.
    assert GAME.replay_keys("LLLL").live == (-1, 0, 0)
    blocked = GAME.replay_keys("LLLLL")
    assert blocked.live == (-1, 0, 0)
    assert blocked.keys_used == 5
    plain, extra = GAME.replay_keys("LLLL" + "D" * 18), GAME.replay_keys("LLLLL" + "D" * 18)
    assert plain.placements == extra.placements == (Placement("S", -1, 17, 0),)
    assert (plain.keys_used, extra.keys_used) == (22, 23)
    assert plain.well == extra.well
    assert plain.pieces == extra.pieces


def test_keys_after_game_over_are_ignored():
    # Spec 2.4: 90 x Down is a whole game: game over at 0 lines after 9 pieces.
    ninety = GAME.replay_keys("D" * 90)
    assert ninety.over and ninety.score == 0
    assert len(ninety.placements) == len(ninety.pieces) == 9
    assert ninety.keys_used == 90
    assert not GAME.replay_keys("D" * 89).over
    more = GAME.replay_keys("D" * 90 + "L" + "D" * 50 + "RU")
    assert more.keys_used == 90
    assert more.placements == ninety.placements
    assert more.pieces == ninety.pieces
    assert more.well == ninety.well
    assert more.over and more.live is None


# -- reduced wells (spec 3.10): a line removes `width` cells, not 10 -----------------------------------
# The board-text check and the loop memory's filter must use the well's width (a line removes
# `width` cells; a well can repeat every width/gcd(width, 4) pieces).
def test_board_text_of_a_reduced_well_with_a_line_round_trips():
    # Six S pieces in the 8 x 5 Mild well, the sixth completing row 6: 6 * 4 - 8 = 16 cells,
    # score 1. 16 + 10 is not a multiple of 4, but 16 + 8 is.
    state = GAME.initial_state(Rules(enemy="mild", width=8, depth=9))
    for text in ("S@-1,5,1", "S@-1,3,0", "S@4,6,0", "S@5,3,1", "S@1,5,1", "S@3,5,0"):
        state = GAME.play(state, Placement.parse(text)).state
    assert state.score == 1 and state.cells == 16
    assert GAME.parse_board(GAME.board_text(state)) == state


# An 8-wide well (8 playable rows) under HATETRIS, loop prevention on. After S@3,8,1, S@1,8,1 and
# I@4,7,0 row 8 holds columns 4-7. An I laid flat at columns 0-3 of row 8 (I@0,7,0: reachable from
# the spawn x=2 with two Lefts, and resting on the S cell at column 2 of row 9) completes row 8,
# which is cleared, leaving exactly the well seen after the second piece: loops(I) = 1 (spec 1.6,
# the current well counted first; the well after the second piece was seen once).
LOOP_MOVES = ("S@3,8,1", "S@1,8,1", "I@4,7,0")


def _loop_rules() -> Rules:
    return Rules(enemy="hatetris", width=8, depth=12)


def test_loop_count_in_a_reduced_well_by_keys():
    state = GAME.initial_state(_loop_rules())
    keys = ""
    for text in LOOP_MOVES:
        keys += GAME.key_path(state, Placement.parse(text))
        state = GAME.play(state, Placement.parse(text)).state
    replay = GAME.replay_keys(keys, _loop_rules())
    assert replay.placements == tuple(Placement.parse(text) for text in LOOP_MOVES)
    assert int(replay.loops[3][3]) == 1  # the I column of the fourth spawn
    assert max(int(n) for n in replay.loops[3]) == 1


def test_loop_count_in_a_reduced_well_by_reference_play():
    state = GAME.initial_state(_loop_rules())
    for text in LOOP_MOVES:
        step = GAME.reference_play(state, Placement.parse(text))
        state = step.state
    assert step.events[-1].loops[3] == 1


def test_loop_count_in_a_reduced_well_by_play():
    state = GAME.initial_state(_loop_rules())
    for text in LOOP_MOVES:
        step = GAME.play(state, Placement.parse(text))
        state = step.state
    assert step.events[-1].loops[3] == 1
