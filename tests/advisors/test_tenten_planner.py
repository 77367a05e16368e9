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


def first_best_plan(filled: int, tray: tuple[str, str, str], weights: Weights, classes: int,
                    per_first: dict | None = None):
    """Plain-Python exhaustive search in Coelho's order (spec 3.1): the distinct orders of the tray
    slots (1 2 3, 1 3 2, 2 1 3, ...), the first piece's anchors class by class (cell mod
    ``classes``), then the second's and third's by cell; only a strictly greater value replaces the
    kept plan. The complete plan kept, as (letter, cell) pairs, and its value; None if none. Also
    fills ``per_first`` (when given) with the best value of the plans that start with each
    (letter, cell)."""
    permutations = [(0, 1, 2), (0, 2, 1), (1, 0, 2), (1, 2, 0), (2, 0, 1), (2, 1, 0)]
    spelled = []
    for permutation in permutations:
        letters = tuple(tray[i] for i in permutation)
        if letters not in spelled:
            spelled.append(letters)
    values: dict[tuple[int, int], float] = {}  # the same board and points recur across orders

    def value_of(board: int, points: int) -> float:
        if (board, points) not in values:
            values[(board, points)] = evaluation.evaluate(board, points, weights)
        return values[(board, points)]

    def cells(board: int, letter: str) -> list[int]:
        return [SIZE * r + c for r, c in reference.placements(board, letter)]

    best, best_plan = None, None
    for a, b, c in spelled:
        firsts = sorted(cells(filled, a), key=lambda m: (m % classes, m))
        for m1 in firsts:
            board1, _, _, points1 = reference.place(filled, a, *divmod(m1, SIZE))
            for m2 in cells(board1, b):
                board2, _, _, points2 = reference.place(board1, b, *divmod(m2, SIZE))
                for m3 in cells(board2, c):
                    board3, _, _, points3 = reference.place(board2, c, *divmod(m3, SIZE))
                    value = value_of(board3, points1 + points2 + points3)
                    if per_first is not None:
                        per_first[(a, m1)] = max(value, per_first.get((a, m1), value))
                    if best is None or value > best:
                        best, best_plan = value, [(a, m1), (b, m2), (c, m3)]
    return best_plan, best


def seeded_board(seed: int, cells: int, near_full: int) -> int:
    """``cells`` random cells, then ``near_full`` rows and columns filled but for one or two cells
    (so that plans clear lines), with no full line left."""
    rng = np.random.default_rng(seed)
    filled = 0
    for cell in rng.choice(100, size=cells, replace=False):
        filled |= 1 << int(cell)
    for _ in range(near_full):
        line = int(rng.integers(10))
        holes = set(int(h) for h in rng.choice(10, size=int(rng.integers(1, 3)), replace=False))
        for k in range(10):
            cell = 10 * line + k if rng.random() < 0.5 else 10 * k + line
            if k in holes:
                filled &= ~(1 << cell)
            else:
                filled |= 1 << cell
    for r in range(10):
        if all(filled >> (10 * r + c) & 1 for c in range(10)):
            filled &= ~(1 << (10 * r + int(rng.integers(10))))
    for c in range(10):
        if all(filled >> (10 * r + c) & 1 for r in range(10)):
            filled &= ~(1 << (10 * int(rng.integers(10)) + c))
    return filled


#: Trays with every kind of repeat (first two, last two, first and last, all three equal) and none,
#: with the random cells of their board (fewer for big pieces; the last board is too full for its
#: tray: no plan places all three).
DEALS = [(("o", "I", "_"), 25), (("i", "i", "-"), 40), (("-", "i", "i"), 40), ((".", "r", "."), 40),
         (("o", "o", "o"), 25), (("t", "j", "l"), 25), (("V", "H", "."), 25), ((".", ".", "."), 40),
         (("I", "_", "I"), 25), (("r", "o", "r"), 25), (("O", "O", "V"), 30)]


@pytest.mark.parametrize("case", range(len(DEALS)))
@pytest.mark.parametrize("classes", [1, 2])
def test_the_planner_keeps_the_plan_of_the_plain_exhaustive_search(case, classes):
    """The fast search skips plans met in an earlier order and plans below the best so far; the plan
    it keeps must still be the first best of the plain search, for Coelho's single-threaded (k = 1)
    and Makefile (k = 2) orders."""
    tray, cells = DEALS[case]
    filled = seeded_board(100 + case, cells=cells, near_full=2 + case % 3)
    per_first: dict[tuple[str, int], float] = {}
    expected_plan, expected_value = first_best_plan(filled, tray, evaluation.DEFAULT, classes, per_first)
    low, high = board.split(filled)
    for threads in (1, 2):
        _, placements, _ = Planner(threads=threads, classes=classes).best(low, high, tray)
        if expected_plan is None:
            assert len(placements) < 3
        else:
            assert placements == expected_plan, (case, threads)
    ranked = Planner(threads=1, classes=classes).rank(State(filled, tray))
    if expected_plan is None:
        assert not ranked[0].plan.complete
    else:  # the ranked list: each first placement with the value of the best plan that starts with it
        assert ranked[0].score == expected_value
        assert {(c.move.piece, SIZE * c.move.row + c.move.column): c.score for c in ranked} == per_first


def test_coelhos_anchor_classes_decide_between_equal_plans():
    """Row 0 full but for cells 1 and 3, three single cells: the best plans fill the row (it clears)
    and leave one dot in a corner (2 differing pairs). k = 1 meets first the plan starting at the
    first free cell: dots at 1 and 3, the row clears, the last dot at 0. k = 2 searches even first
    cells first; the best of those is the dot at 90 (the only free even corner), then 1 and 3."""
    filled = sum(1 << c for c in range(10) if c not in (1, 3))
    tray = (".", ".", ".")
    expected = {1: [(".", 1), (".", 3), (".", 0)], 2: [(".", 90), (".", 1), (".", 3)]}
    for classes, plan in expected.items():
        _, placements, _ = Planner(threads=1, classes=classes).best(*board.split(filled), tray)
        assert placements == plan
        assert first_best_plan(filled, tray, evaluation.DEFAULT, classes)[0] == plan
