"""1010! planner: Coelho's criteria against hand-computed values, the planner against a plain-Python
exhaustive search, hand-worked plans and Coelho's tie-break."""

from __future__ import annotations

import numpy as np
import pytest

from advisors.tenten import Planner, Weights, orders
from advisors.tenten import evaluation, kernel
from advisors.tenten.selfplay import play_game, summary
from engines.tenten import GAME, Place, State, reference
from engines.tenten import kernel as board
from engines.tenten.pieces import BY_LETTER, SIZE


def cross_with_a_dot() -> int:
    """Row 4 filled but (4,9), column 4 filled but (9,4), and (7,7)."""
    filled = 0
    for c in range(9):
        filled |= 1 << (40 + c)
    for r in range(9):
        filled |= 1 << (10 * r + 4)
    return filled | 1 << 77


def test_weight_strings_are_base_36_digits():
    assert Weights.parse("10025") == Weights(1, 0, 0, 2, 5)
    assert Weights.parse("1a0k5") == Weights(1, 10, 0, 20, 5)
    assert Weights.parse("1A0K5") == Weights(1, 10, 0, 20, 5)
    assert str(Weights(1, 10, 0, 20, 5)) == "1a0k5"
    with pytest.raises(ValueError, match="base-36"):
        Weights.parse("10-25")


@pytest.mark.parametrize("filled, free, squares, differing", [
    (0, 100, 0, 0),
    (1, 99, 2, 2),                               # a corner cell: the border is not counted
    (1 << 44, 99, 2, 4),                         # a cell in the middle
    (BY_LETTER["O"].mask(0, 0), 91, 54, 6),      # a 3x3 in the corner: six lines of 3
    (cross_with_a_dot(), 82, 184, 38),           # worked cell by cell in the test's notes
])
def test_criteria_on_hand_worked_boards(filled, free, squares, differing):
    terms = evaluation.terms(filled)
    assert (terms.free, terms.squares, terms.differing) == (free, squares, differing)
    rows, columns = np.zeros(SIZE, np.int64), np.zeros(SIZE, np.int64)
    low, high = board.split(filled)
    assert kernel.board_terms(low, high, board.COLUMN_LOW, board.COLUMN_HIGH, rows, columns) == (
        100 - free, squares, differing)


def test_probes_and_weighted_values_on_the_cross():
    # The cross leaves a 5x5 only at rows 5-9, columns 5-9, and (7,7) is there: no 5x5. A 3x3
    # fits at the top left, a 5-bar across row 0 and down column 0 from row 5.
    filled = cross_with_a_dot()
    terms = evaluation.terms(filled)
    assert (terms.square5, terms.big_pieces) == (0, 3)
    assert evaluation.terms(filled & ~(1 << 77)).square5 == 1
    assert evaluation.evaluate(filled, 0, Weights.parse("10025")) == 82 + 2 * (184 / 1620) + 5 * (142 / 180)
    assert evaluation.evaluate(filled, 0, Weights.parse("11100")) == 85.0
    assert evaluation.evaluate(filled, 7, Weights.parse("1a0k5")) == (
        1e-7 * 7 + 82 + 20 * (184 / 1620) + 5 * (142 / 180))
    for weights in ("10025", "1a0k5", "11100", "1z9z9"):
        w = np.array(Weights.parse(weights).as_tuple(), np.float64)
        low, high = board.split(filled)
        scratch = np.zeros(SIZE, np.int64), np.zeros(SIZE, np.int64)
        assert kernel.full_value(low, high, 7, w, kernel.TABLES, *scratch) == evaluation.evaluate(
            filled, 7, Weights.parse(weights))


def test_three_singles_on_an_empty_board_go_in_a_row_in_the_first_corner():
    # Three cells touch empty cells along at least 4 inner edges; a corner row or column of three
    # does that with the most alignment (9 + 3); of the eight such plans Coelho's order keeps the
    # first: the smallest first anchor, then the smallest second, then the third.
    state = State(0, (".", ".", "."))
    expected = 1e-7 * 3 + 97 + 2 * (12 / 1620) + 5 * (176 / 180)
    for threads in (1, 2):
        planner = Planner(threads=threads)
        best = planner.rank(state)[0]
        assert best.plan.placements == (Place(".", 0, 0), Place(".", 0, 1), Place(".", 0, 2))
        assert best.score == expected
        item, placements, _ = planner.best(*board.split(0), state.tray)
        assert placements == [(".", 0), (".", 1), (".", 2)]


def test_the_plan_places_the_single_first_when_only_that_order_fits():
    rows = ["#########."] + ["#...#...#.", ".#...#...#"] * 4 + ["#...#...#."]
    state = State.from_rows(rows, ("H", ".", None))
    ranked = Planner().rank(state)
    assert ranked[0].plan.complete
    assert ranked[0].plan.placements[0] == Place(".", 0, 9)
    assert ranked[0].plan.placements[1].piece == "H"
    # Every plan that starts with the single elsewhere cannot place the 5-bar.
    assert all(c.plan.complete == (c.move == Place(".", 0, 9)) for c in ranked)
    assert "game ends" in ranked[-1].explanation


def test_no_order_places_all_three_ends_the_game():
    diagonal_holes = ["".join("." if c == r else "#" for c in range(10)) for r in range(10)]
    state = State.from_rows(diagonal_holes, ("O", ".", "O"))
    ranked = Planner().rank(state)
    assert ranked and not any(c.plan.complete for c in ranked)
    item, placements, _ = Planner().best(*board.split(state.filled), state.tray)
    assert len(placements) < 3


def test_orders_follow_coelhos_slot_order_without_repeats():
    assert orders(("a", "b", "c")) == [("a", "b", "c"), ("a", "c", "b"), ("b", "a", "c"), ("b", "c", "a"),
                                       ("c", "a", "b"), ("c", "b", "a")]
    assert orders(("o", "o", "V")) == [("o", "o", "V"), ("o", "V", "o"), ("V", "o", "o")]
    assert orders(("o", None, "V")) == [("o", "V"), ("V", "o")]


def brute_force(state: State, weights: Weights) -> float:
    """Plain-Python exhaustive search: the best complete plan's evaluation (None if none)."""
    best = None
    for letters in orders(state.tray):
        def extend(filled: int, points: int, rest: tuple[str, ...]):
            nonlocal best
            if not rest:
                value = evaluation.evaluate(filled, points, weights)
                best = value if best is None or value > best else best
                return
            for r, c in reference.placements(filled, rest[0]):
                after, rows, columns, gain = reference.place(filled, rest[0], r, c)
                extend(after, points + gain, rest[1:])
        extend(state.filled, 0, letters)
    return best


@pytest.mark.parametrize("seed", range(6))
def test_the_compiled_planner_finds_the_plain_python_best(seed):
    rng = np.random.default_rng(seed)
    filled = 0
    for cell in rng.choice(100, size=60, replace=False):
        filled |= 1 << int(cell)
    # Keep the board legal (no full line) by emptying a cell of every full row and column.
    state_filled = filled
    for r in range(10):
        if all(state_filled >> (10 * r + c) & 1 for c in range(10)):
            state_filled &= ~(1 << (10 * r + int(rng.integers(10))))
    for c in range(10):
        if all(state_filled >> (10 * r + c) & 1 for r in range(10)):
            state_filled &= ~(1 << (10 * int(rng.integers(10)) + c))
    trays = [("o", "I", "_"), ("r", "h", "."), ("v", "o", "o"), ("t", "j", "-"), ("O", "i", "l"), ("_", "_", "V")]
    state = State(state_filled, trays[seed])
    weights = Weights.parse("10025" if seed < 4 else "1a0k5")
    expected = brute_force(state, weights)
    planner = Planner(weights, threads=2)
    ranked = planner.rank(state)
    if expected is None:
        assert not ranked or not ranked[0].plan.complete
        return
    assert ranked[0].score == expected
    # Every plan's value is the plain-Python evaluation of the board it leaves.
    for candidate in ranked:
        if candidate.plan.complete:
            final = candidate.plan.final
            assert candidate.score == evaluation.evaluate(final.filled, final.score - state.score, weights)
    item, placements, _ = planner.best(*board.split(state.filled), state.tray)
    replayed = state
    for letter, cell in placements:
        replayed = GAME.play(replayed, Place(letter, *divmod(cell, 10))).state
    assert evaluation.evaluate(replayed.filled, replayed.score, weights) == expected


def test_seeded_games_repeat_and_count_rounds():
    first = play_game(3, Planner(threads=2), rounds_cap=40)
    again = play_game(3, Planner(threads=1), rounds_cap=40)
    assert first.rounds == 40 and not first.over
    assert (first.score, first.rounds) == (again.score, again.rounds)
    total = summary([first])
    assert total["games_ended"] == 0 and total["mean_rounds_estimate"] is None
