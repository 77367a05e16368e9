"""2048 rules: the 816 move vectors produced by the real game's own GameManager.move(), and
positions worked out by hand from shared/specs/2048.md section 1.

Board layout everywhere: rows top to bottom, columns left to right, tile values, 0 = empty.
"""

from __future__ import annotations

import json

import numpy as np
import pytest

from engines.errors import IllegalMoveError, NotationError
from engines.g2048 import GAME, GameOver, Slide, Spawn, State, TileSpawned, TilesSlid, Won, fast, kernel, reference
from engines.g2048 import notation

DIRECTION = {"up": 0, "right": 1, "down": 2, "left": 3}


@pytest.fixture(scope="module")
def move_vectors(reference_data):
    return json.loads((reference_data / "2048" / "move_vectors.json").read_text())["cases"]


def _check_vectors(cases, slide_function):
    failures = []
    for number, case in enumerate(cases):
        before = State.from_rows(case["before"])
        after, gain, *_ = slide_function(before.exponents, DIRECTION[case["dir"]])
        expected = State.from_rows(case["after"]).exponents
        if (after, gain, after != before.exponents) != (expected, case["score_gain"], case["moved"]):
            failures.append(number)
    return failures


def test_all_816_vectors_numba_path(move_vectors):
    assert len(move_vectors) == 816
    assert _check_vectors(move_vectors, fast.slide) == []


def test_all_816_vectors_python_path(move_vectors):
    assert _check_vectors(move_vectors, reference.slide) == []


def test_vectors_through_the_game(move_vectors):
    """Game.play: legal exactly when the real game moved (and spawned), same score gain."""
    for case in move_vectors:
        before = State.from_rows(case["before"], score=100)
        move = Slide(DIRECTION[case["dir"]])
        if not case["moved"]:
            with pytest.raises(IllegalMoveError):
                GAME.play(before, move)
            assert move not in GAME.legal_moves(before)
            continue
        step = GAME.play(before, move)
        assert step.state.rows == tuple(map(tuple, case["after"]))
        assert step.state.score == 100 + case["score_gain"]
        assert step.state.spawns_due == 1
        assert move in GAME.legal_moves(before)


# Spec 1.3's table of lines (verified there against the real code), each read in a row moved left
# or right; the same line as a column moved up or down must give the transposed answer.
SPEC_LINES = [
    ([2, 2, 2, 2], "left", [4, 4, 0, 0], 8),
    ([2, 2, 2, 2], "right", [0, 0, 4, 4], 8),
    ([2, 2, 2, 0], "left", [4, 2, 0, 0], 4),
    ([2, 2, 2, 0], "right", [0, 0, 2, 4], 4),
    ([4, 4, 8, 0], "left", [8, 8, 0, 0], 8),
    ([2, 0, 2, 0], "left", [4, 0, 0, 0], 4),
    ([2, 2, 4, 4], "left", [4, 8, 0, 0], 12),
]


@pytest.mark.parametrize("line, direction, expected, gain", SPEC_LINES)
@pytest.mark.parametrize("path", [fast.slide, reference.slide], ids=["numba", "python"])
def test_spec_lines_in_rows_and_columns(line, direction, expected, gain, path):
    empty = [0, 0, 0, 0]
    row_board = State.from_rows([empty, line, empty, empty])
    after, points, *_ = path(row_board.exponents, DIRECTION[direction])
    assert State(after).rows[1] == tuple(expected)
    assert points == gain
    column_board = State.from_rows([[0, v, 0, 0] for v in line])
    vertical = {"left": "up", "right": "down"}[direction]
    after, points, *_ = path(column_board.exponents, DIRECTION[vertical])
    assert tuple(row[1] for row in State(after).rows) == tuple(expected)
    assert points == gain


def test_merged_cells_and_events():
    # 2 2 2 2 left -> 4 4 . . : both 4s are merged tiles, at (0,0) and (0,1); gain 8.
    state = State.from_rows([[2, 2, 2, 2], [0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 4]], score=10)
    step = GAME.play(state, Slide(3))
    assert step.events == (TilesSlid(3, 8, ((0, 0), (0, 1))),)
    assert step.state.score == 18
    assert step.state.is_chance_node
    assert GAME.reference_play(state, Slide(3)) == step


def test_making_2048_announces_the_win_once():
    # 1024 1024 . . left -> 2048 (gain 2048); a second 2048 later is not announced again.
    state = State.from_rows([[1024, 1024, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0]])
    step = GAME.play(state, Slide(3))
    assert step.events[-1] == Won()
    assert step.state.won and step.state.score == 2048
    again = State.from_rows([[4096, 0, 0, 0], [1024, 1024, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0]])
    assert Won() not in GAME.play(again, Slide(3)).events


def test_tiles_beyond_32768():
    # 32768 + 32768 = 65536 (gain 65536) does not fit a nibble: the plain rules take over, and
    # 65536 + 65536 = 131072 after that.
    state = State.from_rows([[32768, 32768, 0, 0], [65536, 65536, 0, 0], [0, 0, 0, 0], [0, 0, 0, 2]])
    step = GAME.play(state, Slide(3))
    assert step.state.rows[:2] == ((65536, 0, 0, 0), (131072, 0, 0, 0))
    assert step.state.score == 65536 + 131072
    assert step == GAME.reference_play(state, Slide(3))
    assert State.from_rows([[131072, 0, 0, 0]] + [[0] * 4] * 3).max_tile == 131072


def test_illegal_slides_and_spawns():
    state = State.from_rows([[2, 4, 8, 16], [0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0]])
    with pytest.raises(IllegalMoveError, match="moves no tile"):
        GAME.play(state, Slide(0))  # everything already against the top wall
    with pytest.raises(IllegalMoveError, match="no tile is due"):
        GAME.play(state, Spawn(3, 3, 2))
    due = GAME.play(state, Slide(2)).state
    with pytest.raises(IllegalMoveError, match="spawn first"):
        GAME.play(due, Slide(0))
    with pytest.raises(IllegalMoveError, match="already holds a tile"):
        GAME.play(due, Spawn(3, 0, 2))  # the 2 slid down to (3, 0)
    # A full top row with no equal neighbours moves only down.
    assert [str(m) for m in GAME.legal_moves(state)] == ["D"]


def test_spawn_outcomes_and_probabilities():
    # 3 empty cells: each cell 1/3, then 2 with 0.9 and 4 with 0.1.
    state = State.from_rows([[2, 4, 8, 16], [32, 64, 128, 256], [512, 1024, 2, 4], [8, 0, 0, 0]], spawns_due=1)
    outcomes = GAME.chance_outcomes(state)
    assert [str(spawn) for spawn, _ in outcomes] == ["2@3,1", "4@3,1", "2@3,2", "4@3,2", "2@3,3", "4@3,3"]
    assert [p for _, p in outcomes] == pytest.approx([0.3, 1 / 30] * 3)
    assert sum(p for _, p in outcomes) == pytest.approx(1.0)


def test_game_over_after_the_spawn():
    # One empty cell; the spawned 2 at (3, 3) has neighbours 4 and 8: no empty cell, no equal pair.
    state = State.from_rows([[2, 4, 2, 4], [4, 2, 4, 2], [2, 4, 2, 8], [4, 2, 8, 0]], score=500, spawns_due=1)
    step = GAME.apply_chance(state, Spawn(3, 3, 2))
    assert step.events == (TileSpawned(3, 3, 2), GameOver(500))
    assert GAME.is_over(step.state) and GAME.legal_moves(step.state) == []
    # With a 2 at (2, 3) instead of the 8, the 2s at (2, 2) and (2, 3) can still merge.
    alive = State.from_rows([[2, 4, 2, 4], [4, 2, 4, 2], [2, 4, 2, 2], [4, 2, 8, 0]], spawns_due=1)
    step = GAME.apply_chance(alive, Spawn(3, 3, 4))
    assert not GAME.is_over(step.state) and GameOver(0) not in step.events


def test_new_game_has_two_spawns_and_is_seeded():
    start = GAME.initial_state()
    assert start.spawns_due == 2 and start.exponents == (0,) * 16
    first = GAME.new_game(np.random.default_rng(7))
    assert first == GAME.new_game(np.random.default_rng(7))
    assert sorted(e for e in first.exponents if e) in ([1, 1], [1, 2], [2, 2])
    assert first.spawns_due == 0


def test_spawn_frequencies_match_the_rules():
    rng = np.random.default_rng(1)
    state = State.from_rows([[2, 0, 0, 0], [0] * 4, [0] * 4, [0] * 4], spawns_due=1)
    draws = [GAME.random_spawn(state, rng) for _ in range(20000)]
    fours = sum(spawn.value == 4 for spawn in draws) / len(draws)
    assert 0.09 < fours < 0.11
    cells = {spawn.cell for spawn in draws}
    assert cells == set(range(1, 16))


def test_kernel_helpers_against_the_plain_rules():
    rng = np.random.default_rng(3)
    for _ in range(200):
        exponents = tuple(int(e) for e in rng.integers(0, 5, 16))
        board = fast.pack(exponents)
        transposed = fast.unpack(kernel.transpose(board))
        assert all(transposed[4 * r + c] == exponents[4 * c + r] for r in range(4) for c in range(4))
        assert kernel.empty_count(board) == exponents.count(0)
        assert kernel.can_move(board, kernel.LEFT_TABLE, kernel.RIGHT_TABLE) == reference.can_move(exponents)


def test_every_row_table_entry_against_the_plain_rules():
    # All 65,536 rows (low nibble = column 0) through the plain rules' slide_line, toward column 0
    # and, read from the other wall, toward column 3: the slid row, the points, the merged
    # positions; a pair of 32768s (exponent 15) does not fit a nibble and is flagged instead.
    for row in range(65536):
        line = [(row >> (4 * position)) & 0xF for position in range(4)]
        toward_left, gain, merged_left = reference.slide_line(line)
        toward_right, _, merged_right = reference.slide_line(line[::-1])
        if max(toward_left) > 15:
            assert kernel.OVERFLOW_TABLE[row], row
            continue
        assert not kernel.OVERFLOW_TABLE[row], row
        assert kernel.LEFT_TABLE[row] == sum(e << (4 * p) for p, e in enumerate(toward_left)), row
        assert kernel.RIGHT_TABLE[row] == sum(e << (4 * (3 - p)) for p, e in enumerate(toward_right)), row
        assert kernel.GAIN_TABLE[row] == gain, row
        assert kernel.MERGED_LEFT_TABLE[row] == sum(1 << p for p in merged_left), row
        assert kernel.MERGED_RIGHT_TABLE[row] == sum(1 << (3 - p) for p in merged_right), row


# -- notation ---------------------------------------------------------------------------------------
def test_board_text_round_trip_and_forms():
    state = State.from_rows([[2, 0, 0, 4], [0, 16, 0, 0], [0, 0, 0, 0], [0, 0, 0, 2048]], score=96, spawns_due=1)
    text = GAME.board_text(state)
    assert text.splitlines()[0] == "score 96 · spawn due"
    assert GAME.parse_board(text) == state
    one_line = GAME.parse_board("2 . . 4/. 16 . ./0 0 0 0/. . . 2048")
    assert one_line.rows == state.rows and one_line.score == 0 and one_line.spawns_due == 0
    flat = GAME.parse_board("2 0 0 4 0 16 0 0 0 0 0 0 0 0 0 2048")
    assert flat.rows == state.rows


@pytest.mark.parametrize("text, message", [
    ("2 . . 4/. . . .", "4 rows, found 2"),
    ("2 . 4/. . . ./. . . ./. . . .", "a row has 4 cells, this one 3"),
    ("3 . . ./. . . ./. . . ./. . . .", "power of two"),
    ("x . . ./. . . ./. . . ./. . . .", "tile value"),
    ("score 5 · next\n. . . .\n. . . .\n. . . .\n. . . .", "header"),
    ("score 0 · spawn due\n2 4 2 4\n4 2 4 2\n2 4 2 4\n4 2 4 2", "board is full"),
])
def test_board_text_errors_say_where_and_why(text, message):
    with pytest.raises(NotationError, match=message):
        GAME.parse_board(text)


def test_sequence_round_trip_and_errors():
    moves = [Spawn(0, 0, 2), Spawn(0, 3, 2), Slide(3), Spawn(2, 1, 4), Slide(0)]
    line = GAME.parse_sequence("2@0,0 2@0,3 L\n4@2,1 u\n")
    assert list(line.moves) == moves
    final = GAME.replay_line(line)
    assert final.rows == ((4, 4, 0, 0), (0, 0, 0, 0), (0, 0, 0, 0), (0, 0, 0, 0))
    assert final.score == 4
    assert GAME.parse_sequence(GAME.sequence_text(line)) == line
    with pytest.raises(NotationError) as error:
        GAME.parse_sequence("2@0,0 2@0,3\nL 5@1,1", source="game.txt")
    assert "game.txt, line 2, column 3: move 4 token '5@1,1'" in str(error.value)
    with pytest.raises(IllegalMoveError, match="move 3"):
        GAME.replay_line(GAME.parse_sequence("2@0,0 2@0,3 U"))


def test_real_game_saved_state_round_trip():
    state = State.from_rows([[2, 0, 0, 4], [0, 16, 0, 0], [0, 0, 0, 0], [0, 0, 8, 2048]], score=2100)
    saved = json.loads(notation.game_state_json(state))
    assert saved["grid"]["cells"][3][0] == {"position": {"x": 3, "y": 0}, "value": 4}  # column first
    assert saved["grid"]["cells"][2][3]["value"] == 8
    assert saved["won"] is True
    assert GAME.parse_board(json.dumps(saved)) == state
