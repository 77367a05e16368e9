"""1010! rules on hand-worked positions (spec 1), the piece table, texts and errors."""

from __future__ import annotations

import json

import pytest

from engines.errors import IllegalMoveError, NotationError
from engines.tenten import GAME, PIECES, Deal, GameOver, PiecePlaced, PiecesDealt, Place, State, points
from engines.tenten import fast, reference
from engines.tenten.notation import board_text, parse_board, parse_sequence


def board(*rows: str, tray=(None, None, None), score: int = 0) -> State:
    return State.from_rows(rows, tray, score)


EMPTY_ROW = "." * 10


def test_piece_table_matches_the_spec():
    assert len(PIECES) == 19
    assert "".join(p.letter for p in PIECES) == ".i-I_rljtovhVHRLJTO"
    assert sum(p.weight for p in PIECES) == 42
    assert [p.size for p in PIECES] == [1, 2, 2, 3, 3, 3, 3, 3, 3, 4, 4, 4, 5, 5, 5, 5, 5, 5, 9]
    shapes = {p.letter: "/".join(p.rows) for p in PIECES}
    assert shapes["r"] == "##/#." and shapes["l"] == "#./##" and shapes["j"] == ".#/##" and shapes["t"] == "##/.#"
    assert shapes["R"] == "###/#../#.." and shapes["J"] == "..#/..#/###" and shapes["T"] == "###/..#/..#"
    # Spec 1.5: 11 cells expected per round, P(o) = 1/7, three O in one deal 1 in 9,261.
    assert 3 * sum(p.weight * p.size for p in PIECES) / 42 == pytest.approx(11.0)
    outcomes = dict(GAME.chance_outcomes(State()))
    assert len(outcomes) == 19 ** 3
    assert sum(outcomes.values()) == pytest.approx(1.0)
    assert outcomes[Deal(("O", "O", "O"))] == pytest.approx(1 / 9261)


@pytest.mark.parametrize("lines, bonus", [(0, 0), (1, 10), (2, 30), (3, 60), (4, 100), (5, 150), (6, 210)])
def test_line_bonus_table(lines, bonus):
    assert points(0, lines) == bonus


def test_row_and_column_clear_at_once_and_the_crossing_cell_counts_once():
    rows = ["....#....." for _ in range(10)]
    rows[4] = "####.#####"
    start = board(*rows, tray=(".", "o", "i"))
    step = GAME.play(start, Place(".", 4, 4))
    assert step.state.filled == 0  # 19 cells and the new one gone
    assert step.state.score == 1 + 30
    assert step.events[0] == PiecePlaced(".", 4, 4, (4,), (4,), 31)
    assert step.state.tray == (None, "o", "i")


def test_a_3x3_square_completing_three_rows_and_three_columns_scores_219():
    rows = ["...#######"] * 3 + ["###......."] * 7
    start = board(*rows, tray=("O", None, None))
    step = GAME.play(start, Place("O", 0, 0))
    assert step.events[0].rows == (0, 1, 2) and step.events[0].columns == (0, 1, 2)
    assert step.state.score == 9 + 210
    assert step.state.filled == 0
    assert step.state.deal_due


def test_order_matters_the_single_clears_row_0_and_makes_room_for_the_5_bar():
    rows = ["#########."] + ["#...#...#.", ".#...#...#"] * 4 + ["#...#...#."]
    start = board(*rows, tray=("H", ".", None))
    assert fast.placements(start, "H") == []
    after_single = GAME.play(start, Place(".", 0, 9)).state
    assert after_single.rows[0] == EMPTY_ROW
    assert fast.placements(after_single, "H") == [(0, c) for c in range(6)]
    final = GAME.play(after_single, Place("H", 0, 0)).state
    assert final.score == 1 + 10 + 5 and final.deal_due


def test_game_over_when_no_piece_in_the_tray_fits():
    diagonal_holes = ["".join("." if c == r else "#" for c in range(10)) for r in range(10)]
    start = board(*diagonal_holes)
    step = GAME.apply_chance(start, Deal(("O", "o", "H")))
    assert step.events == (PiecesDealt(("O", "o", "H")), GameOver(0))
    assert GAME.is_over(step.state) and GAME.legal_moves(step.state) == []
    alive = GAME.apply_chance(start, Deal(("O", ".", "H"))).state
    assert not GAME.is_over(alive)
    # The single fills the last hole of row 0 and of column 0; both go, and the 5-bar fits in row 0.
    after = GAME.play(alive, Place(".", 0, 0))
    assert after.events[0].rows == (0,) and after.events[0].columns == (0,)
    assert not GAME.is_over(after.state)


def test_the_last_piece_of_a_round_leaves_a_deal_due():
    state = board(*[EMPTY_ROW] * 10, tray=(".", None, None))
    after = GAME.play(state, Place(".", 9, 9)).state
    assert after.deal_due and GAME.is_chance_node(after)
    assert len(GAME.legal_moves(after)) == 19 ** 3


@pytest.mark.parametrize("move, why", [
    (Place("O", 0, 0), "not in the tray"),
    (Place("V", 6, 0), "does not fit inside the board"),
    (Place("V", 0, 0), "covers a filled cell"),
    (Deal(("o", "o", "o")), "still in the tray"),
])
def test_illegal_moves_say_why(move, why):
    state = board("#" + "." * 9, *[EMPTY_ROW] * 9, tray=("V", "i", None))
    with pytest.raises(IllegalMoveError, match=why):
        GAME.play(state, move)


def test_a_placement_before_the_deal_is_refused():
    with pytest.raises(IllegalMoveError, match="dealt"):
        GAME.play(State(), Place(".", 0, 0))


def test_fast_and_reference_paths_agree_on_every_placement_of_a_busy_board():
    rows = ["#.#.##..#.", "##..#.####", ".#########", "#...#.#..#", "##########"[:9] + ".",
            "..##..##..", "#..#..#..#", "#########.", ".#.#.#.#.#", "...#######"]
    for letter in "._iIoOHVRLJTrljt-hv":
        state = board(*rows, tray=(letter, None, None))
        for r in range(10):
            for c in range(10):
                move = Place(letter, r, c)
                try:
                    expected = reference.play(state, move)
                except IllegalMoveError:
                    with pytest.raises(IllegalMoveError):
                        fast.play(state, move)
                    continue
                assert fast.play(state, move) == expected


def test_board_text_round_trips_and_reads_the_one_line_form():
    state = board("##........", *[EMPTY_ROW] * 8, "#########.", tray=("V", None, "i"), score=661)
    text = board_text(state)
    assert text.splitlines()[0] == "score 661 · tray V 0 i"
    assert parse_board(text) == state
    assert parse_board("tray V 0 i · score 661\n" + "/".join(state.rows)) == state
    assert parse_board("score 661 · tray V 0 i / " + " / ".join(state.rows)) == state


@pytest.mark.parametrize("text, where, why", [
    ("score 5\n" + "\n".join(["." * 10] * 9), "line 10", "a board has 10 rows, found 9"),
    ("score 5\n" + "\n".join(["." * 10] * 4 + [".....?...."] + ["." * 10] * 5), "line 6, column 6", "'#' .*'.'"),
    ("score 5 · tray V i\n" + "\n".join(["." * 10] * 10), "line 1", "3 slots"),
    ("score 5 · tray V i Q\n" + "\n".join(["." * 10] * 10), "token 'Q'", "piece"),
    ("score 5\n" + "\n".join(["." * 10] * 3 + ["." * 9] + ["." * 10] * 6), "line 5", "10 cells, this one 9"),
])
def test_board_errors_name_the_place(text, where, why):
    with pytest.raises(NotationError, match=f"{where}.*{why}"):
        parse_board(text, source="b.txt")


def test_sequence_errors_name_the_move():
    with pytest.raises(NotationError, match=r"game.txt, line 2, column 7: move 3 token 'V@4,a'"):
        parse_sequence("deal:Vi.\nV@0,0 V@4,a\n", source="game.txt")


def test_move_texts():
    assert str(Place("_", 3, 7)) == "_@3,7" and GAME.parse_move("_@3,7") == Place("_", 3, 7)
    assert str(Deal(("V", "i", "."))) == "deal:Vi." and GAME.parse_move("deal:Vi.") == Deal(("V", "i", "."))
    with pytest.raises(NotationError, match="off the board"):
        GAME.parse_move("o@10,0")
    with pytest.raises(NotationError, match="'Q' is not a piece"):
        GAME.parse_move("deal:VQ.")


def test_the_real_screenshot_position(reference_data):
    """The transcription of the real phone screenshot: 41 filled cells, tray V and i; its notes say a
    single at row 8, column 1 would complete row 8."""
    truth = json.loads((reference_data / "1010" / "truth.json").read_text())
    state = State.from_rows(truth["occupancy_rows_top_to_bottom"], ("V", "i", "."), truth["score"])
    assert state.filled_count == truth["filled_count"] == 41
    step = GAME.play(state, Place(".", 8, 1))
    assert step.events[0].rows == (8,) and step.events[0].columns == ()
    assert step.state.score == 661 + 1 + 10
    assert step.state.filled_count == 41 + 1 - 10
