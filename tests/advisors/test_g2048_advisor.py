"""The 2048 expectimax: nneonneo's heuristic on hand-worked lines, the compiled search against a
plain-Python expectimax written from spec 3.2, and the ranking's shape."""

from __future__ import annotations

import numpy as np
import pytest

from advisors.g2048 import Budget, Expectimax, heuristic, kernel, search
from advisors.g2048.selfplay import play_game, summary
from engines.g2048 import State, reference
from engines.g2048 import kernel as engine_kernel
from engines.g2048.fast import pack


# Lines of exponents, worked by hand from spec 3.3 (200,000 + 270 empty + 700 merges
# - 47 min(L, R) with 4th powers - 11 sum of e^3.5).
@pytest.mark.parametrize("line, expected", [
    ((0, 0, 0, 0), 200_000 + 270 * 4),
    # 2 2 . . : 2 empty, one pair (merges 2), L = 1 (1 -> 0), R = 0, sum 2.
    ((1, 1, 0, 0), 200_000 + 540 + 1400 - 22),
    # 8 2 4 . : 1 empty, no pair, L = (81 - 1) + 16 = 96, R = 16 - 1 = 15, sum 3^3.5 + 1 + 2^3.5.
    ((3, 1, 2, 0), 200_000 + 270 - 47 * 15 - 11 * (3 ** 3.5 + 1 + 2 ** 3.5)),
    # 2 . 2 2 : a run of three across the gap counts 3 merges; L = 1, R = 1.
    ((1, 0, 1, 1), 200_000 + 270 + 2100 - 47 * 1 - 11 * 3),
])
def test_line_heuristic_hand_worked(line, expected):
    assert heuristic.line_value(line) == pytest.approx(expected)
    table = heuristic.row_table(heuristic.PUBLISHED.as_array())
    row = line[0] | line[1] << 4 | line[2] << 8 | line[3] << 12
    assert table[row] == pytest.approx(expected, rel=1e-6)


def test_every_row_of_the_heuristic_table_against_the_plain_terms():
    # All 65,536 lines through line_value (plain Python from spec 3.3); the table holds float32.
    table = heuristic.row_table(heuristic.PUBLISHED.as_array())
    expected = np.array([heuristic.line_value(tuple((row >> (4 * p)) & 0xF for p in range(4)))
                         for row in range(65536)], np.float32)
    assert np.array_equal(table, expected)


def _heuristic(exponents) -> float:
    rows = [tuple(exponents[4 * r:4 * r + 4]) for r in range(4)]
    columns = [tuple(exponents[4 * r + c] for r in range(4)) for c in range(4)]
    return sum(heuristic.line_value(line) for line in rows + columns)


def _chance(exponents, depth, probability, threshold) -> float:
    """Spec 3.2 in plain Python, without a transposition table."""
    if probability < threshold or depth <= 0:
        return _heuristic(exponents)
    empty = [cell for cell, e in enumerate(exponents) if e == 0]
    total = 0.0
    for cell in empty:
        for exponent, p in ((1, 0.9), (2, 0.1)):
            spawned = list(exponents)
            spawned[cell] = exponent
            spawned = tuple(spawned)
            best = 0.0
            for direction in range(4):
                after = reference.slide(spawned, direction)[0]
                if after != spawned:
                    best = max(best, _chance(after, depth - 1, probability * p / len(empty), threshold))
            total += p * best
    return total / len(empty)


@pytest.mark.parametrize("rows, depth", [
    ([[2, 4, 8, 16], [32, 64, 128, 256], [2, 4, 0, 2], [8, 0, 0, 4]], 2),
    ([[1024, 512, 256, 2], [2, 4, 8, 16], [0, 2, 4, 0], [0, 0, 0, 2]], 2),
    ([[4, 2, 4, 2], [2, 4, 2, 4], [4, 2, 4, 2], [2, 4, 2, 0]], 3),
])
def test_compiled_search_equals_the_plain_expectimax(rows, depth):
    state = State.from_rows(rows)
    threshold = 1e-3
    expected = []
    for direction in range(4):
        after = reference.slide(state.exponents, direction)[0]
        expected.append(None if after == state.exponents else _chance(after, depth, 1.0, threshold))
    for threads in (1, 2):
        values = Expectimax(threshold=threshold, threads=threads).evaluate(
            state, Budget(depth=depth)).values
        for got, want in zip(values, expected):
            if want is None:
                assert got is None
            else:
                assert got == pytest.approx(want, rel=1e-5)


# nneonneo's program tries the replies up, down, left, right (Kibitz's directions 0, 2, 3, 1).
NNEONNEO_REPLY_ORDER = (0, 2, 3, 1)


def _line_value32(line, cache={}) -> float:
    if line not in cache:
        cache[line] = float(np.float32(heuristic.line_value(line)))
    return cache[line]


def _heuristic32(exponents) -> float:
    """The heuristic from float32 line values, as the compiled search's table holds them."""
    rows = [tuple(exponents[4 * r:4 * r + 4]) for r in range(4)]
    columns = [tuple(exponents[4 * r + c] for r in range(4)) for c in range(4)]
    return sum(_line_value32(line) for line in rows + columns)


def _single(value: float) -> float:
    return float(np.float32(value))


def _chance_with_table(exponents, depth, probability, threshold, table, level=0, single=True) -> float:
    """Spec 3.2 with nneonneo's transposition table, in plain Python: a dict per root slide; a
    node is looked up after the cut-off test and used when it was searched at least as deep
    (however likely it was then), and stored when searched. ``table`` None: no table. The table
    keeps float32 values, as nneonneo's does; a node two replies below the root slide (``level``
    2 or more) whose spawns all lie at the horizon is worth its value rounded so, as the compiled
    search keeps horizon values. Probabilities are float32, as nneonneo's program has them (float64
    with ``single`` False)."""
    rounded = _single if single else float
    if probability < rounded(threshold) or depth <= 0:
        return _heuristic32(exponents)
    if table is not None and exponents in table and table[exponents][0] >= depth:
        return table[exponents][1]
    empty = [cell for cell, e in enumerate(exponents) if e == 0]
    total = 0.0
    for cell in empty:
        for exponent, p in ((1, 0.9), (2, 0.1)):
            spawned = list(exponents)
            spawned[cell] = exponent
            spawned = tuple(spawned)
            best = 0.0
            for direction in NNEONNEO_REPLY_ORDER:
                after = reference.slide(spawned, direction)[0]
                if after != spawned:
                    chance = rounded(rounded(probability / len(empty)) * rounded(p))
                    best = max(best, _chance_with_table(after, depth - 1, chance, threshold, table, level + 1, single))
            total += p * best
    value = total / len(empty)
    first_spawn = rounded(rounded(probability / len(empty)) * rounded(0.9))
    if table is not None and level >= 2 and (depth <= 1 or first_spawn < rounded(threshold)):
        value = _single(value)
    if table is not None:
        table[exponents] = (depth, _single(value))
    return value


@pytest.mark.parametrize("rows, depth, threshold, table_matters", [
    ([[1024, 512, 256, 2], [2, 4, 8, 16], [0, 2, 4, 0], [0, 0, 0, 2]], 3, 1e-2, False),
    ([[2, 2, 4, 4], [2, 2, 4, 4], [8, 8, 0, 0], [0, 0, 0, 0]], 4, 2e-2, False),
    ([[8, 4, 4, 2], [2, 2, 4, 8], [0, 2, 0, 2], [0, 0, 0, 4]], 4, 2e-2, False),
    # Here a node met again takes the value stored when it was met under other conditions (more or
    # less likely, or deeper): the values differ from a search without a table (by 8e-6, 1.4e-4).
    ([[16, 0, 4, 16], [4, 2, 4, 2], [4, 0, 4, 0], [0, 2, 8, 2]], 3, 1e-3, True),
    ([[2, 4, 0, 16], [2, 2, 4, 16], [16, 16, 2, 0], [8, 4, 8, 0]], 4, 5e-3, True),
])
def test_search_equals_a_plain_search_with_nneonneos_table(rows, depth, threshold, table_matters):
    # The compiled search (its horizon shortcuts, its table, one or two threads) against the
    # expectimax with nneonneo's table rule written plainly: the same values to 1e-12 (float
    # sums in another order) and so the same best slide.
    state = State.from_rows(rows)
    expected, differences = [], []
    for direction in range(4):
        after = reference.slide(state.exponents, direction)[0]
        expected.append(None if after == state.exponents
                        else _chance_with_table(after, depth, 1.0, threshold, {}) + 1e-6)
        if table_matters and expected[-1] is not None:
            without_table = _chance_with_table(after, depth, 1.0, threshold, None) + 1e-6
            differences.append(abs(without_table - expected[-1]) / expected[-1])
    assert (max(differences) > 1e-6) if table_matters else not differences
    best = max((value, -d) for d, value in enumerate(expected) if value is not None)
    for threads in (1, 2):
        evaluation = Expectimax(threshold=threshold, threads=threads).evaluate(state, Budget(depth=depth))
        for got, want in zip(evaluation.values, expected):
            assert (got is None) == (want is None)
            if want is not None:
                assert got == pytest.approx(want, rel=1e-12)
        assert evaluation.best_direction == -best[1]


def test_probabilities_are_float32_as_in_nneonneos_program():
    # A spawn of a 2 on one of 5 empty cells, below a 4 on one of 5 after the root slide, has the
    # probability 0.0036000001709908247 in float32 (each step rounded, as nneonneo's program has
    # it) and 0.0036000000000000008 in float64. With the cut-off at the first, that spawn's replies
    # are searched in float32 but would be cut in float64: the two plain searches differ by 0.4 %
    # at one root slide, and Kibitz must give the float32 one.
    f32 = np.float32
    cut = float(f32(f32(f32(f32(1) / f32(5)) * f32(0.1)) / f32(5)) * f32(0.9))
    assert cut == 0.0036000001709908247
    state = State.from_rows([[1024, 512, 256, 2], [2, 4, 8, 16], [0, 2, 4, 0], [0, 0, 0, 2]])
    afters = [reference.slide(state.exponents, direction)[0] for direction in range(4)]
    single = [_chance_with_table(after, 3, 1.0, cut, {}) + 1e-6 for after in afters]
    double = [_chance_with_table(after, 3, 1.0, cut, {}, single=False) + 1e-6 for after in afters]
    assert max(abs(a - b) / a for a, b in zip(single, double)) > 1e-3     # the cut-off decides
    got = Expectimax(threshold=cut, threads=1).evaluate(state, Budget(depth=3)).values
    assert got == pytest.approx(single, rel=1e-12)


@pytest.mark.parametrize("rows", [
    [[2, 4, 8, 16], [32, 64, 128, 256], [2, 4, 0, 2], [8, 0, 0, 4]],
    [[1024, 512, 256, 2], [2, 4, 8, 16], [0, 2, 4, 0], [0, 0, 0, 2]],
    [[0, 0, 0, 2], [0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0]],
    [[2, 4, 8, 16], [0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0]],   # only Down moves
    [[2, 4, 2, 4], [4, 2, 4, 2], [2, 4, 2, 4], [4, 2, 4, 2]],   # nothing moves: 0
])
def test_horizon_spawn_scores_its_best_slide(rows):
    exponents = State.from_rows(rows).exponents
    legal = [after for after in (reference.slide(exponents, d)[0] for d in range(4)) if after != exponents]
    expected = max((_heuristic(after) for after in legal), default=0.0)
    table = heuristic.row_table(heuristic.PUBLISHED.as_array())
    got = kernel.best_leaf(pack(exponents), engine_kernel.LEFT_TABLE, engine_kernel.RIGHT_TABLE, table)
    assert got == pytest.approx(expected, rel=1e-6)


@pytest.mark.parametrize("rows", [
    [[2, 4, 8, 16], [32, 64, 128, 256], [2, 4, 0, 2], [8, 0, 0, 4]],
    [[1024, 512, 256, 2], [2, 4, 8, 16], [0, 2, 4, 0], [0, 0, 0, 2]],
    [[0, 0, 0, 2], [0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0]],
    [[8192, 4096, 2048, 1024], [64, 128, 256, 512], [32, 16, 8, 4], [2, 0, 0, 2]],
])
def test_horizon_node_averages_its_spawns_best_slides(rows):
    exponents = State.from_rows(rows).exponents
    empty = [cell for cell, e in enumerate(exponents) if e == 0]
    expected = 0.0
    for cell in empty:
        for exponent, p in ((1, 0.9), (2, 0.1)):
            spawned = list(exponents)
            spawned[cell] = exponent
            legal = [a for a in (reference.slide(tuple(spawned), d)[0] for d in range(4)) if a != tuple(spawned)]
            expected += p * max((_heuristic(a) for a in legal), default=0.0)
    expected /= len(empty)
    table = heuristic.row_table(heuristic.PUBLISHED.as_array())
    left, right = engine_kernel.LEFT_TABLE, engine_kernel.RIGHT_TABLE
    got = kernel.horizon_chance(pack(exponents), left, right, table, np.zeros((4, 6), np.uint64),
                                np.zeros((4, 5), np.float64))
    assert got == pytest.approx(expected, rel=1e-6)  # the row table holds float32
    # Re-sliding one line gives the very sums the whole board gives, to the last bit.
    board = pack(exponents)
    exact = sum(p * kernel.best_leaf(board | np.uint64(e << (4 * cell)), left, right, table)
                for cell in empty for e, p in ((1, 0.9), (2, 0.1))) / len(empty)
    assert got == exact


def test_table_entries_need_their_key_and_depth():
    table = np.zeros(8 * kernel.SLOT_WORDS, np.uint64)
    first, second = np.uint64(0x1234_5678_9ABC_DEF0), np.uint64(0x0FED_CBA9_8765_4321)
    kernel._store(table, 3, first, 4, 1_475_605.6)
    kernel._store(table, 5, second, 2, 900_000.25)
    hit, value = kernel._probe(table, 3, first, 4)
    assert hit and value == 1_475_605.625                  # the float32 nearest, as nneonneo keeps it
    assert kernel._probe(table, 5, second, 2) == (True, 900_000.25)
    assert kernel._probe(table, 3, first, 3)[0]          # searched deeper than asked: usable
    assert not kernel._probe(table, 3, first, 5)[0]      # shallower than asked
    assert not kernel._probe(table, 3, second, 2)[0]     # another board in that slot
    assert not kernel._probe(table, 4, first, 1)[0]      # a slot never written
    kernel._store(table, 6, first, 30, 2.5)              # the deepest search, 30 moves, fits its bits
    assert kernel._probe(table, 6, first, 30) == (True, 2.5)


def test_horizon_values_are_kept_beside_the_entry_by_board_alone():
    table = search.new_table(3)
    assert table.ctypes.data % search.CACHE_LINE == 0 and table.shape == (8 * kernel.SLOT_WORDS,)
    board, other = np.uint64(0x0000_1200_0031_0002), np.uint64(0x0000_1200_0031_0003)
    assert not kernel._recall_horizon(table, 6, board)[0]      # a zeroed slot knows no board
    kernel._remember_horizon(table, 6, board, 1_475_605.625)
    kernel._store(table, 6, board ^ np.uint64(0x5A17), 3, 2_000_000.5)   # the entry beside it
    assert kernel._recall_horizon(table, 6, board) == (True, 1_475_605.625)   # every bit of a float32
    assert not kernel._recall_horizon(table, 6, other)[0]
    assert kernel._probe(table, 6, board ^ np.uint64(0x5A17), 3)[0]


def test_remembered_horizon_values_change_no_value():
    # An advisor keeps horizon values from decision to decision (all root slides' and depths'):
    # searched again after another position, a position gets the values of the plain search with
    # nneonneo's table rule, each root slide with a table started afresh, to 1e-12 as above.
    rows = [[2, 4, 0, 16], [2, 2, 4, 16], [16, 16, 2, 0], [8, 4, 8, 0]]
    state, other = State.from_rows(rows), State.from_rows([[2, 2, 4, 4], [2, 2, 4, 4], [8, 8, 0, 0], [0, 0, 0, 0]])
    expected = [None if after == state.exponents else _chance_with_table(after, 4, 1.0, 5e-3, {}) + 1e-6
                for after in (reference.slide(state.exponents, d)[0] for d in range(4))]
    advisor = Expectimax(threads=1, threshold=5e-3, table_bits=16)   # no slot lost to another board
    for position in (state, other, state, state):
        values = advisor.evaluate(position, Budget(depth=4)).values
    for got, want in zip(values, expected):
        assert (got is None) == (want is None)
        if want is not None:
            assert got == pytest.approx(want, rel=1e-12)


def test_two_threads_search_what_one_thread_does():
    # A late-game board (max tile 8192, adaptive depth 11). Each root slide is searched by one
    # thread in a table it sees alone, as in nneonneo's program, so the threads change nothing:
    # the same values to the last bit, and the same slides evaluated.
    state = State.from_rows([[8192, 4096, 2048, 1024], [64, 128, 256, 512], [32, 16, 8, 4], [2, 0, 0, 2]])
    alone = Expectimax(threads=1).evaluate(state)
    for threads in (2, 4):
        shared = Expectimax(threads=threads).evaluate(state)
        assert shared.values == alone.values
        assert shared.evaluations == alone.evaluations


def test_rank_lists_all_four_slides_illegal_last():
    # A full top row with no equal neighbours: only Down moves a tile.
    state = State.from_rows([[2, 4, 8, 16], [0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0]])
    ranked = Expectimax(threads=1).rank(state, Budget(depth=2))
    assert [c.move.letter for c in ranked][0] == "D"
    assert [c.legal for c in ranked] == [True, False, False, False]
    assert {c.move.letter for c in ranked[1:]} == {"U", "R", "L"}
    assert "moves no tile" in ranked[1].explanation
    assert ranked[0].loss == 0


def test_rank_is_empty_while_a_tile_is_due_and_at_game_over():
    due = State.from_rows([[2, 0, 0, 0], [0] * 4, [0] * 4, [0] * 4], spawns_due=1)
    assert Expectimax(threads=1).rank(due) == []
    over = State.from_rows([[2, 4, 2, 4], [4, 2, 4, 2], [2, 4, 2, 4], [4, 2, 4, 2]])
    assert [c.legal for c in Expectimax(threads=1).rank(over, Budget(depth=1))] == [False] * 4


def test_time_budget_deepens_within_bounds():
    state = State.from_rows([[2, 4, 8, 16], [32, 64, 128, 256], [2, 0, 0, 2], [0, 0, 0, 4]])
    advisor = Expectimax(threads=1)
    advisor.evaluate(state, Budget(depth=2))  # loads the compiled kernels, which alone can take 50 ms
    evaluation = advisor.evaluate(state, Budget(milliseconds=50))
    assert evaluation.depth >= 2
    assert evaluation.milliseconds < 400


def test_budget_rejects_nonsense():
    with pytest.raises(ValueError):
        Budget(depth=0)
    with pytest.raises(ValueError):
        Budget(milliseconds=-5)


def test_short_seeded_game_is_reproducible_and_sound():
    first = play_game(11, Expectimax(threads=2), Budget(depth=1), max_moves=300)
    again = play_game(11, Expectimax(threads=1), Budget(depth=1), max_moves=300)
    assert first.moves == again.moves == 300
    assert (first.score, first.max_tile) == (again.score, again.max_tile)
    # 300 slides merge at least 300 tiles' worth: random play rarely passes 128 by then, the
    # search keeps the board open and builds 256 or more.
    assert first.max_tile >= 256
    totals = summary([first, again])
    assert totals["games"] == 2 and totals["reached_percent"]["2048"] == 0.0


def test_spread_writes_a_line_down_a_column():
    # Every 16-bit line: nibble i goes to bits 16 i (the quick bit-deposit path where the
    # processor has one, else shifts), against the nibbles placed one by one in Python.
    spread = np.vectorize(lambda line: int(kernel._spread(np.uint64(line))), otypes=[np.uint64])
    lines = np.arange(65536, dtype=np.uint64)
    expected = np.zeros(65536, np.uint64)
    for i in range(4):
        expected |= ((lines >> np.uint64(4 * i)) & np.uint64(0xF)) << np.uint64(16 * i)
    assert np.array_equal(spread(lines), expected)


def test_next_empty_cell_without_a_loop():
    # Random boards with 0 to 16 empty cells, against a scan of the cells in Python.
    rng = np.random.default_rng(24)
    for _ in range(300):
        exponents = rng.integers(1, 16, 16) * (rng.random(16) < rng.random())
        board = pack(tuple(int(e) for e in exponents))
        empty = [cell for cell in range(16) if exponents[cell] == 0]
        assert kernel._empty_cells(board) == sum(1 << (4 * cell) for cell in empty)
        for after in range(-1, 16):
            assert kernel._next_empty(board, after) == next((cell for cell in empty if cell > after), 16)
