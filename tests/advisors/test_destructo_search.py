"""Irpan's value and search (spec 3.1) on hand-worked boards; its moves are the rules' moves."""

from __future__ import annotations

import numpy as np
import pytest

from advisors.destructo import kernel
from advisors.destructo.selfplay import best_click
from engines.destructo import GAME, Click, NewBoard, State
from engines.destructo.fast import encode
from engines.destructo.levels import deal_level
from engines.destructo.notation import parse_board


def scratch(grid):
    rows, columns = grid.shape
    return (np.zeros((rows, columns), np.uint8), np.zeros((rows, columns), np.uint8),
            np.zeros((rows * columns + 1, 2), np.int64))


@pytest.mark.parametrize("text, value", [
    ("g g\na a", 2 + 2 + 100),            # two groups of 2, nothing left over
    ("g a\na g", 0 + max(0, 100 - 40)),    # no group: the four boulders are left over
    ("g g g\ng a b", 4 + 100 - 20),       # a group of 4 (4 points), two singletons
    ("g g g g g\ng g g g g\ng g g g g\ng a a a a", 32 + 4 + 100),  # 16 greens score 2n = 32
])
def test_board_value_on_hand_worked_boards(text, value):
    grid, _ = encode(parse_board(text))
    assert kernel.board_value(grid, *scratch(grid)) == value


def test_ties_go_to_the_first_group_in_reading_order():
    grid, _ = encode(parse_board("g g\na a"))
    assert kernel.search(grid, 1, 10) == (104.0, 0, 0)
    assert kernel.search(grid, 2, 10) == (104.0, 0, 0)  # 2 + 2 and the full bonus either way


def test_a_line_that_clears_the_board_backs_up_its_points_and_the_full_bonus():
    # Four separate groups (blue column 0, grey column 1, blue column 2, the green row): no column
    # shift, so they never join; any order clears the board for 2 + 2 + 2 + 3 points and 100.
    grid, _ = encode(parse_board("b a b\nb a b\ng g g"))
    assert kernel.search(grid, 3, 10)[0] == 109.0
    assert kernel.search(grid, 1, 10)[0] == 109.0  # depth 1: 3 points + V = 6 + 100 after the greens


@pytest.mark.parametrize("seed", range(4))
def test_the_search_moves_are_the_rules_moves(seed):
    rng = np.random.default_rng(seed)
    state = GAME.apply_chance(State(), NewBoard(deal_level(3, rng))).state
    grid, _ = encode(state.board)
    out = np.zeros((kernel.MAX_MOVES, 2), np.int64)
    count = kernel.moves_of(grid, out, *scratch(grid))
    clicks = sorted(Click(int(r), int(c)) for r, c in out[:count])
    assert clicks == sorted(m for m in GAME.legal_moves(state) if isinstance(m, Click))
    assert best_click(state) in GAME.legal_moves(state)
