"""The texts issue 23 found crashing, hanging or misleading the parsers: each now ends in a
precise error naming where and why (or, for the hangs, answers at once). One minimal input each."""

from __future__ import annotations

import json
import time

import pytest

from engines import GAMES, IllegalMoveError, NotationError
from engines.tree import MoveTree

SPLT, HATETRIS, G2048, TENTEN, DESTRUCTO = (GAMES[name] for name in ("splt", "hatetris", "2048", "1010", "destructo"))
EMPTY_SAVED_GRID = [[None] * 4 for _ in range(4)]


def refused(call, *args, kind=NotationError):
    with pytest.raises(kind) as caught:
        call(*args)
    return caught.value


# -- integers past 64 bits ----------------------------------------------------------------------------
def test_splt_split_count_past_64_bits():
    error = refused(SPLT.parse_board, "splits=99999999999999999999999 score=0 | 0,0,8,16")
    assert error.location.line == 1 and error.location.column == 1
    assert error.location.token == "splits=99999999999999999999999"
    assert "splits is 99999999999999999999999" in error.reason and "1,073,741,824" in error.reason


def test_splt_split_count_is_bounded_where_points_fit_the_kernels():
    # 2^30 is the bound; one more is refused, the bound itself plays
    assert SPLT.parse_board("splits=1073741824 score=0 | 0,0,8,16").splits == 2 ** 30
    error = refused(SPLT.parse_board, "splits=1073741825 score=0 | 0,0,8,16")
    assert "splits is 1073741825; it must be from 0 to 1,073,741,824" in error.reason
    state = SPLT.parse_board("splits=1073741824 score=0 | 0,0,8,16")
    assert SPLT.play(state, SPLT.parse_move("0,0")).state.splits == 2 ** 30 + 1


def test_splt_move_past_64_bits():
    error = refused(SPLT.parse_move, "0,9223372036854775808")
    assert error.location.token == "0,9223372036854775808"
    assert "y is 9223372036854775808; it must be from -2,147,483,648 to 2,147,483,647" in error.reason


def test_splt_move_off_the_board_is_still_the_rules_reason():
    move = SPLT.parse_move("9,0")
    error = refused(SPLT.play, SPLT.initial_state(), move, kind=IllegalMoveError)
    assert "cell (9,0) is outside the 8x16 board" in error.reason


def test_splt_sequence_past_64_bits():
    error = refused(SPLT.parse_sequence, "4,4,9223372036854775808,1", "moves.txt")
    where = error.location
    assert (where.source, where.line, where.column, where.move_number) == ("moves.txt", 1, 1, 1)
    assert where.token == "4,4,9223372036854775808,1" and "w is 9223372036854775808" in error.reason


def test_hatetris_placement_past_64_bits():
    error = refused(HATETRIS.parse_move, "S@6,9223372036854775808,0")
    assert error.location.token == "S@6,9223372036854775808,0"
    # the widest and deepest well the rules allow (16 x 40) puts a piece's box at rows -3 to 39
    assert "the box's row y is 9223372036854775808; it must be from -3 to 39" in error.reason


@pytest.mark.parametrize("score", ["Infinity", "1e999", "NaN"])
def test_2048_saved_state_with_a_score_that_is_no_number(score):
    text = f'{{"grid": {{"size": 4, "cells": {json.dumps(EMPTY_SAVED_GRID)}}}, "score": {score}}}'
    error = refused(G2048.parse_board, text)
    assert "not the game's saved state" in error.reason and score in error.reason


def test_tree_file_with_a_move_past_64_bits():
    tree = MoveTree(SPLT)
    tree.play(SPLT.parse_move("0,0"))
    data = tree.to_dict()
    data["nodes"].append([0, "0,9223372036854775808", ""])
    error = refused(MoveTree.from_json, SPLT, json.dumps(data), "tree.json")
    assert error.location.source == "tree.json" and error.location.move_number == 2
    assert error.location.token == "0,9223372036854775808" and "y is 9223372036854775808" in error.reason


def test_hatetris_tree_file_with_a_placement_past_64_bits():
    data = MoveTree(HATETRIS).to_dict()
    data["nodes"].append([-1, "S@6,9223372036854775808,0", ""])
    error = refused(MoveTree.from_json, HATETRIS, json.dumps(data), "tree.json")
    assert error.location.source == "tree.json" and error.location.move_number == 1
    assert "row y is 9223372036854775808" in error.reason


# -- deep nesting -------------------------------------------------------------------------------------
def test_deeply_nested_tree_file():
    error = refused(MoveTree.from_json, SPLT, "[" * 100_000, "tree.json")
    assert error.location.source == "tree.json"
    assert (error.location.line, error.location.column) == (1, 65)  # the 65th '[' is one level too deep
    assert "nested deeper than 64 levels" in error.reason


# -- index errors, plain int() errors, key errors -----------------------------------------------------
def test_1010_board_of_a_slash_alone():
    error = refused(TENTEN.parse_board, "/")
    assert "empty board: expected ten rows" in error.reason


def test_destructo_position_ending_in_undo_board():
    error = refused(DESTRUCTO.parse_board, "level 1 · score 0 · shuffle 0 · undo 1\ng a\nundo board:")
    assert error.location.line == 3
    assert "'undo board:' is followed by the board before the last click" in error.reason


def test_2048_board_with_a_superscript_two():
    error = refused(G2048.parse_board, "2 4 . ²\n. . . .\n. . . .\n. . . .")
    assert (error.location.line, error.location.token) == (1, "²")
    assert "a cell is a tile value" in error.reason


def test_splt_diagram_with_a_stray_glyph():
    rows = ["|+ - - - - - - -"] + ["| + + + + + + +"] * 15
    error = refused(SPLT.parse_board, "splits=0 score=0\n" + "\n".join(rows))
    assert (error.location.line, error.location.column, error.location.token) == (2, 1, "|+")
    assert "a diagram cell is o, a number, -, |, + or ." in error.reason


def test_2048_board_file_with_a_3_tile_blames_the_3():
    # a board without a header read as a sequence file (how kibitz advise reads a board file)
    error = refused(G2048.parse_sequence, "2 3 . .\n. . . .\n. . . .\n. . . .\n", "board.txt")
    assert (error.location.source, error.location.line, error.location.token) == ("board.txt", 1, "3")
    assert "a tile is a power of two" in error.reason


def test_2048_board_file_without_a_header_is_a_start():
    line = G2048.parse_sequence("2 4 . .\n. . . .\n. . . .\n. . . 8\nL\n")
    assert line.start.rows == ((2, 4, 0, 0), (0, 0, 0, 0), (0, 0, 0, 0), (0, 0, 0, 8))
    assert [str(move) for move in line.moves] == ["L"]


# -- hangs --------------------------------------------------------------------------------------------
def test_splt_position_past_the_split_bound_is_refused_before_any_advice():
    error = refused(SPLT.parse_board, "splits=2147483647 score=0 | 0,0,8,16")
    assert "splits is 2147483647" in error.reason


def test_splt_halving_forecast_of_a_stack_at_the_split_bound_answers_at_once():
    from advisors.splt.predictors import simulate_stack

    started = time.perf_counter()
    # by hand: the 4 below reaches 0 after 4 splits and halves the top, 2^30 - 4 -> 2^29 - 2,
    # which then counts down to 0: one halving
    assert simulate_stack([2 ** 30, 4]) == ([0], 1)
    assert simulate_stack([10, 4]) == ([0], 1)  # 6 -> 3 at the halving, then 3 splits
    assert time.perf_counter() - started < 1


def test_splt_advice_on_a_position_at_the_split_bound_answers():
    from advisors.splt.heuristic import rank
    from advisors.splt.predictors import halving_forecast

    # a V turn whose split of 0,4,8,4 makes a 2x2 cluster of 4x4 boxes over two stacked point
    # blocks: the cluster shows 2^30 over rows of 2^30 - 2 and 999 (points - 1)
    state = SPLT.parse_board("splits=1073741823 score=0 | 0,0,4,4 4,0,4,4 0,4,8,4 0,8,8,4:1073741823 "
                             "0,12,8,4:1000")
    started = time.perf_counter()
    forecast = halving_forecast(state, SPLT.parse_move("0,4,8,4"))
    candidates = rank(state)
    assert time.perf_counter() - started < 5  # the forecast counted down one split at a time: never returned
    # by hand: after 999 splits the bottom block explodes and halves everything above it, then the
    # middle one, now the lowest, explodes before the cluster and halves it again
    assert forecast.new_halving and forecast.halvings == 2
    assert sorted(str(candidate.move) for candidate in candidates) == ["0,0,4,4", "0,4,8,4", "4,0,4,4"]


def test_long_index_file_fails_at_its_first_bad_move_at_once():
    text = "[0, 0, 0, 0, 0, 0, 0, 50, " + ", ".join(["1"] * 200_000) + "]"  # about 600 KB
    started = time.perf_counter()
    error = refused(SPLT.parse_sequence, text, "index.txt", kind=IllegalMoveError)
    assert time.perf_counter() - started < 5  # 31 s before, by counting lines from the start per entry
    where = error.location
    assert (where.source, where.line, where.column, where.move_number, where.token) == ("index.txt", 1, 23, 8, "50")
    assert "index 50 but the board has only 8 boxes (0-7)" in error.reason


def test_index_file_names_an_illegal_move_before_a_later_unreadable_entry():
    error = refused(SPLT.parse_sequence, "[0, 0, 9, x]", kind=IllegalMoveError)
    assert error.location.move_number == 3 and error.location.token == "9"


# -- the window's --position reads a board with the same parser ----------------------------------------
@pytest.mark.parametrize(
    "game_name, text, words",
    [
        ("destructo", "level 1\ng a\nundo board:", "line 3: 'undo board:' is followed by the board before"),
        ("2048", '{"grid": {"size": 4, "cells": [[null, null, null, null], [null, null, null, null], '
                 '[null, null, null, null], [null, null, null, null]]}, "score": 1e999}', "1e999 is too large a number"),
        ("1010", "/", "empty board: expected ten rows"),
        ("splt", "splits=99999999999999999999999 score=0 | 0,0,8,16", "splits is 99999999999999999999999"),
    ],
)
def test_position_option_gives_the_parsers_error_and_opens_no_window(capsys, game_name, text, words):
    from app.gui import application

    assert application.run(["--game", game_name, "--position", text]) == 2
    error = capsys.readouterr().err
    assert words in error and "Traceback" not in error


# -- found by the fuzz targets -------------------------------------------------------------------------
def test_hatetris_placement_list_of_no_moves_reads_back():
    from engines.contract import Line

    text = HATETRIS.sequence_text(Line(HATETRIS.initial_state(), ()), "placements")
    assert text.startswith("score 0 · next S\n")  # an empty text would be no sequence at all
    line = HATETRIS.parse_sequence(text)
    assert line.start == HATETRIS.initial_state() and line.moves == ()


def test_hatetris_replay_code_beginning_with_the_letters_of_score_is_a_replay_code():
    from engines.hatetris import notation

    assert notation.detect("score 0 · next S") == "placements"
    assert notation.detect("scoreABC") == "base2048"
