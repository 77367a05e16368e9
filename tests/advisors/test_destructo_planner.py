"""The level planner (beam search to the end of the level) and ``rank`` on hand-worked boards; its
lines replayed through the rules score what it says."""

from __future__ import annotations

import numpy as np
import pytest

from advisors.destructo import rank
from advisors.destructo.planner import LevelPlanner, search
from engines.destructo import GAME, Click, NewBoard, State
from engines.destructo.levels import deal_level
from engines.destructo.notation import parse_board


def started(text: str) -> State:
    return State(board=parse_board(text), due=None)


# The greens first (2) strand a grey and a green: then the greys (2), two left: 4 + 80. The greys
# first (2) drop the greens into a row of three with the lone green (3), one grey left: 5 + 90.
SPLIT = "a g g\ng a a"
# The grey pair first drops the lone green into a group of 5 with both green pairs: 2 + 6 + 100;
# a green pair first leaves a group of 3 after the greys: 2 + 2 + 3 + 100.
MERGE = ". g .\ng a g\ng a g"


def test_rank_values_every_click_by_its_best_line_to_the_end_of_the_level():
    candidates = rank(started(SPLIT))
    values = {c.move: c.score for c in candidates}
    assert values == {Click(0, 1): 84.0, Click(1, 1): 95.0}
    green = candidates[-1]
    assert green.move == Click(0, 1) and green.loss == 11.0 and green.points == 2
    assert green.cells == frozenset({(0, 1), (0, 2)}) and green.principal_variation == (Click(0, 1), Click(1, 1))
    assert "a line of 2 clicks ends the level with 84" in green.explanation
    assert candidates[0].principal_variation == (Click(1, 1), Click(1, 0))


def test_rank_prefers_the_click_that_joins_the_greens():
    candidates = rank(started(MERGE))
    assert candidates[0].move == Click(1, 1) and candidates[0].score == 108.0
    assert {c.move: c.score for c in candidates[1:]} == {Click(1, 0): 107.0, Click(1, 2): 107.0}
    assert candidates[0].principal_variation == (Click(1, 1), Click(1, 0))  # the greens' first cell


def test_the_planner_follows_its_remembered_line_to_the_end():
    state = started(MERGE)
    planner = LevelPlanner(width=8)
    clicks = []
    while state.due is None and not state.finished and state.level == 1:
        click = planner.choose(state)
        clicks.append(click)
        state = GAME.play(state, click).state
    assert clicks == [Click(1, 1), Click(1, 0)] and state.score == 108


@pytest.mark.parametrize("seed, level", [(1, 1), (2, 3), (3, 6), (4, 10)])
def test_a_plan_replayed_through_the_rules_scores_its_total(seed, level):
    board = deal_level(level, np.random.default_rng(seed))
    state = GAME.apply_chance(State(level=min(level, 9)), NewBoard(board)).state
    found = search(board, 16)
    for click in found.best.clicks:
        assert click in GAME.legal_moves(state)
        state = GAME.play(state, click).state
    assert state.due == "level" and state.score == found.best.total


def test_nothing_to_rank_while_a_board_is_due():
    assert rank(State()) == []


def test_a_banked_undo_replays_a_big_click_for_its_points_again():
    # 19 greens (2 x 19 = 38 points) hold the two oranges apart; after them the oranges meet (2)
    # and four singles are left (bonus 60). The HTML5 Undo keeps the undone click's points
    # (spec 1.4): greens, undo, greens again, oranges = 38 + 38 + 2 + 60.
    state = State(board=parse_board("o g g g g\ng g g g g\ng g g g g\ng g g g g\no a b a b"), due=None, undos=1)
    planner = LevelPlanner(width=8)
    moves = []
    while state.due is None:
        move = planner.choose(state)
        moves.append(GAME.move_text(move))
        state = GAME.play(state, move).state
    assert moves == ["0,1", "undo", "0,1", "3,0"] and state.score == 138
    without = State(board=parse_board("o g g g g\ng g g g g\ng g g g g\ng g g g g\no a b a b"), due=None, undos=1)
    assert LevelPlanner(width=8, use_undo=False).choose(GAME.play(without, Click(0, 1)).state) == Click(3, 0)


def test_rank_values_the_banked_undo_by_the_board_it_returns_to():
    start = State(board=parse_board("o g g g g\ng g g g g\ng g g g g\ng g g g g\no a b a b"), due=None, undos=1)
    after = GAME.play(start, Click(0, 1)).state  # 38 points; the oranges now touch
    candidates = rank(after)
    assert [GAME.move_text(c.move) for c in candidates] == ["undo", "3,0"]
    undo, oranges = candidates
    assert undo.score == 38 + 2 + 60 and oranges.score == 2 + 60 and oranges.loss == 38
    assert "38 more than playing on" in undo.explanation and undo.cells == frozenset()


def test_every_first_click_keeps_its_own_line_when_the_orders_meet():
    # Three separate pairs and a lone orange: any two pairs in either order reach the same board,
    # and each first click still gets a line of its own to the end: 2 + 2 + 2 + bonus 90.
    candidates = rank(started("g g a a b b o"), width=1)
    assert len(candidates) == 3
    for candidate in candidates:
        assert candidate.score == 96.0 and "a line of 3 clicks ends the level with 96" in candidate.explanation


def test_a_board_of_explodes_alone_is_searched_to_its_end():
    # Thirty Explodes in a row (more clicks than half the cells), no colour: every click is an
    # Explode taking itself and its neighbours, no points; every line clears the row: bonus 100.
    found = search(parse_board(" ".join(["X"] * 30)), 8)
    assert len(found.by_first) == 30
    assert found.best.complete and found.best.total == 100.0 and 10 <= len(found.best.clicks) <= 15
