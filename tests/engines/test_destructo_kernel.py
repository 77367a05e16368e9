"""The numba core of Destruct-o-Match against the plain-Python rules on random boards."""

from __future__ import annotations

import numpy as np
import pytest

from engines.destructo import fast, kernel, rules
from engines.destructo.rules import COLOURLESS, POWER_UPS, Boulder


def random_board(rng, rows=8, columns=9, colours=4, powers=6, holes=True):
    palette = ("green", "grey", "blue", "orange", "yellow")[:colours]
    cells = [[Boulder(palette[int(rng.integers(colours))]) for _ in range(columns)] for _ in range(rows)]
    for index in rng.choice(rows * columns, size=powers, replace=False):
        r, c = divmod(int(index), columns)
        power = POWER_UPS[int(rng.integers(len(POWER_UPS)))]
        cells[r][c] = Boulder(None, power) if power in COLOURLESS else Boulder(cells[r][c].colour, power)
    board = tuple(tuple(row) for row in cells)
    if holes:  # empty some tops, as after play
        for c in range(columns):
            depth = int(rng.integers(0, 3))
            board = rules.remove(board, {(r, c) for r in range(depth)})
    return board


@pytest.mark.parametrize("seed", range(12))
def test_every_click_removes_and_scores_as_the_rules_say(seed):
    rng = np.random.default_rng(seed)
    board = random_board(rng)
    grid, _ = fast.encode(board)
    assert kernel.has_move(grid) == (not rules.level_over(board))
    for r in range(len(board)):
        for c in range(len(board[0])):
            cells, points, after = fast.removal(board, r, c)
            try:
                expected_cells, expected_points = rules.removal(board, r, c)
            except ValueError:
                assert points == -1
                continue
            assert (cells, points) == (expected_cells, expected_points)
            assert after == rules.remove(board, expected_cells)


def test_group_scores_match_the_table():
    assert [kernel.group_score(n) for n in range(2, 19)] == [rules.group_score(n) for n in range(2, 19)]


def test_encoding_round_trips():
    board = random_board(np.random.default_rng(3))
    assert fast.decode(*fast.encode(board)) == board
