"""Destruct-o-Match turns: levels, the end bonus, banked items, Fill and Shuffle chance steps
(spec 1.2-1.5), on hand-worked boards."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from engines.destructo import levels
from engines.destructo.notation import parse_board
from engines.destructo.reference import Banked, GameOver, LevelCleared, Removed, apply_chance, play
from engines.destructo.rules import Boulder, groups
from engines.destructo import GAME
from engines.destructo.state import (FILL_DUE, LEVEL_DUE, SHUFFLE_DUE, Click, FillRow, NewBoard, State, UseShuffle,
                                     UseUndo)
from engines.errors import IllegalMoveError


def started(text: str, **fields) -> State:
    return apply_chance(dataclasses.replace(State(), **fields), NewBoard(parse_board(text))).state


def test_a_level_ends_with_its_bonus_and_the_next_board_is_due():
    state = started("g a\ng a")
    step = play(state, Click(0, 0))
    assert step.events[0] == Removed(frozenset({(0, 0), (1, 0)}), 2)
    after = play(step.state, Click(1, 1))
    assert after.events[-1] == LevelCleared(1, 0, 100)
    assert after.state.level == 2 and after.state.due == LEVEL_DUE and after.state.score == 2 + 2 + 100


def test_leftovers_cut_the_bonus_and_the_tenth_level_ends_the_game():
    state = started("g a b\ng o y", level=10, score=2000)
    step = play(state, Click(1, 0))
    assert step.events[1:] == (LevelCleared(10, 4, 60), GameOver(2000 + 2 + 60))
    assert step.state.finished
    with pytest.raises(IllegalMoveError, match="game is over"):
        play(step.state, Click(0, 0))


def test_shuffle_and_undo_are_banked_at_most_once():
    state = started("gS gU a\na b a", shuffles=1)
    step = play(state, Click(0, 0))
    assert Banked("shuffle") in step.events and Banked("undo") in step.events
    assert (step.state.shuffles, step.state.undos) == (1, 1)
    used = play(step.state, UseShuffle())
    assert used.state.due == SHUFFLE_DUE and used.state.shuffles == 0
    with pytest.raises(IllegalMoveError, match="chance step is due"):
        play(used.state, Click(1, 0))
    reshuffled = parse_board(". . a\na a a")
    done = apply_chance(used.state, NewBoard(reshuffled))
    assert done.state.board == reshuffled and done.state.due is None
    with pytest.raises(IllegalMoveError, match="shape and the power-ups stay"):
        apply_chance(used.state, NewBoard(parse_board("a a a\na a a")))


def test_the_banked_undo_takes_back_a_plain_click_and_keeps_its_points():
    state = started("g g a\na b b\na o o", undos=1, score=50)
    assert UseUndo() not in GAME.legal_moves(state)  # nothing clicked yet this level
    step = play(state, Click(0, 0))  # the two greens: 2 points
    assert step.state.board == parse_board(". . a\na b b\na o o") and step.state.score == 52
    assert UseUndo() in GAME.legal_moves(step.state)
    undone = play(step.state, UseUndo()).state
    assert undone.board == state.board and undone.score == 52 and undone.undos == 0
    assert UseUndo() not in GAME.legal_moves(undone)
    with pytest.raises(IllegalMoveError, match="no Undo is banked"):
        play(undone, UseUndo())


def test_a_position_fits_on_one_line_with_slashes_between_rows():
    state = GAME.parse_board("level 2 · score 30 · shuffle 1 · undo 0 / a g g / g a aM")
    assert (state.level, state.score, state.shuffles, state.due) == (2, 30, 1, None)
    assert state.board == parse_board("a g g\ng a aM")
    assert GAME.parse_board("a g g/g a a").board == parse_board("a g g\ng a a")


def test_without_an_undo_banked_no_board_is_kept_to_undo_to():
    state = play(started("g g a\na b b\na o o"), Click(0, 0)).state
    assert state.undo_board == () and "undo board:" not in GAME.board_text(state)


def test_a_board_of_more_than_fifteen_colours_is_refused():
    from engines.errors import NotationError

    with pytest.raises(NotationError, match="at most 15 colours"):
        parse_board(" ".join("abcdefghijklmnopq"))


def test_a_board_past_64_rows_or_columns_is_refused_at_the_line_that_passes_it():
    from engines.destructo.state import State
    from engines.errors import NotationError

    assert len(parse_board("\n".join(["g a"] * 64))) == 64  # the largest taken
    with pytest.raises(NotationError, match=r"^line 65: a board has at most 64 rows"):
        parse_board("\n".join(["g a"] * 65))
    # 65 cells of 'g ': the 65th token starts at column 129
    with pytest.raises(NotationError, match=r"^line 2, column 129: a row has at most 64 cells"):
        parse_board("g\n" + " ".join(["g"] * 65))
    with pytest.raises(ValueError, match="at most 64 rows and 64 columns; this one has 1 rows of 300"):
        State(board=((None,) * 300,), due=None)


def test_a_click_with_a_power_up_in_it_cannot_be_undone():
    state = started("gM g a\na b b\na o o", undos=1)
    step = play(state, Click(0, 0))  # 2 boulders x3
    assert step.state.score == 6 and not step.state.can_undo
    with pytest.raises(IllegalMoveError, match="involved a power-up"):
        play(step.state, UseUndo())


def test_the_board_an_undo_returns_to_survives_the_position_text():
    state = play(started("g g a\na b b\na o o", undos=1, level=4), Click(2, 1)).state
    text = GAME.board_text(state)
    assert text.splitlines()[0] == "level 4 · score 2 · shuffle 0 · undo 1"
    assert text.splitlines()[4] == "undo board:"
    assert GAME.parse_board(text) == state
    line = GAME.parse_sequence(text + "\nundo\n0,0\n")
    assert line.start == state and line.moves == (UseUndo(), Click(0, 0))


def test_a_fill_drops_one_boulder_on_each_column_with_room():
    state = started("gF g a\nb a a")
    step = play(state, Click(0, 1))
    assert step.state.due == FILL_DUE
    row = (Boulder("blue"), Boulder("grey"), None)
    filled = apply_chance(step.state, FillRow(row)).state
    assert filled.board == parse_board("b a a\nb a a")
    with pytest.raises(IllegalMoveError, match="exactly where a column has room"):
        apply_chance(step.state, FillRow((Boulder("blue"), None, None)))


def test_a_lonely_click_says_why():
    with pytest.raises(IllegalMoveError, match="no neighbour of its colour"):
        play(started("g a g\na g g"), Click(0, 0))


def test_dealt_levels_have_the_tables_sizes_palettes_and_power_ups():
    rng = np.random.default_rng(7)
    counts = []
    for level in range(1, 11):
        board = levels.deal_level(level, rng)
        spec = levels.LEVEL_TABLE[level - 1]
        assert (len(board), len(board[0])) == (spec.rows, spec.columns)
        assert {cell.colour for row in board for cell in row if cell.colour} <= set(spec.palette)
        counts.append(sum(cell.power is not None for row in board for cell in row))
        assert groups(board)
    assert levels.LEVEL_TABLE[0].rows == 12 and levels.LEVEL_TABLE[0].columns == 14
    assert levels.LEVEL_TABLE[9].rows == 16 and levels.LEVEL_TABLE[9].columns == 18 and levels.LEVEL_TABLE[9].colours == 9
    assert max(counts) <= 3
    many = [sum(c.power is not None for row in levels.deal_level(1, rng) for c in row) for _ in range(400)]
    assert abs(np.mean(many) - (0.2 + 0.7 + 1.2)) < 0.15  # spec 1.4: 0/1/2/3 at 5/20/35/40 %


def test_a_dealt_board_without_a_group_ends_its_level_at_once():
    step = apply_chance(State(), NewBoard(parse_board("g a\na g")))
    assert step.events == (LevelCleared(1, 4, 60),)
    assert step.state.level == 2 and step.state.due == LEVEL_DUE and step.state.score == 60
