"""SPL-T against the real game's records and screenshots (shared/data/splt).

Expected values come from the records themselves (split counts, the real end screen's score, the
per-split scores of ``record_sequences_geometric.json``) and from hand transcriptions of real
screenshots (``screenshot_truth.json``).
"""

from __future__ import annotations

import numpy as np
import pytest

from engines import GAMES
from engines.splt import Box, Move, Rules, State, fast, notation, reference

SPLT = GAMES["splt"]

# file name, key in record_sequences_geometric.json, splits, final score (spec 4.1 / data README)
RECORDS = [
    ("sequence1027.txt", "1027", 1027, 640_207),
    ("1053seq.txt", "1053", 1053, 676_275),
    ("1133seq.txt", "1133", 1133, 794_511),
    ("1196seq.txt", "1196", 1196, 878_866),  # the real end screen, 1196_splits.PNG
    ("nonrandomAlgorithm_seq.txt", "nonrandom166", 166, 14_666),
]


def _boxes(rows) -> list[Box]:
    return sorted(Box(*row) for row in rows)


@pytest.mark.parametrize(("file_name", "key", "splits", "score"), RECORDS)
def test_record_replays_to_its_split_count_and_score(splt_data, splt_records, file_name, key, splits, score):
    record = splt_records[key]
    line = SPLT.parse_sequence((splt_data / file_name).read_text(), source=file_name)

    # The index file converts to exactly the geometric moves of the reference replay.
    assert [[m.x, m.y, m.w, m.h] for m in line.moves] == record["moves_xywh"]
    assert len(line.moves) == splits

    result = fast.replay_moves(State(), list(line.moves))
    final = result.state
    assert result.played == splits
    assert list(result.score_after) == record["score_after_each_split"]
    assert final.score == score
    assert final.splits == splits
    assert _boxes(record["final_board"]) == sorted(final.boxes)
    assert final.is_over() and final.legal_moves() == []


@pytest.mark.parametrize(("file_name", "key", "splits", "score"), RECORDS)
def test_record_through_both_paths_move_by_move(splt_records, file_name, key, splits, score):
    """The numba turn and the plain-Python turn agree on every split of every record, events
    included, and both give the recorded score after every split."""
    record = splt_records[key]
    state = State()
    for number, (xywh, expected) in enumerate(
        zip(record["moves_xywh"], record["score_after_each_split"]), start=1
    ):
        move = Move(*xywh)
        step = SPLT.play(state, move)
        assert step == reference.play(state, move), f"move {number}"
        assert step.state.score == expected, f"move {number}"
        assert sum(e.total for e in step.events if hasattr(e, "total")) == step.state.score - state.score
        state = step.state
    assert state.score == score and state.is_over()


@pytest.mark.parametrize(("file_name", "key", "splits", "score"), RECORDS)
def test_index_file_round_trip(splt_data, file_name, key, splits, score):
    text = (splt_data / file_name).read_text()
    line = SPLT.parse_sequence(text)
    written = notation.index_list_text(line)
    numbers = [int(token) for token in text.strip().strip("[]").split(", ")]
    assert written == "[" + ", ".join(map(str, numbers)) + "]"
    geometric = SPLT.sequence_text(line, "geometric")
    assert SPLT.parse_sequence(geometric) == line
    assert notation.index_list_text(SPLT.parse_sequence(geometric)) == written


def test_the_1196_world_record_end_screen(splt_data):
    final = SPLT.replay_line(SPLT.parse_sequence((splt_data / "1196seq.txt").read_text()))
    assert (final.splits, final.score) == (1196, 878_866)
    assert SPLT.is_over(final)
    # Spec 1.8: the record games end with all 128 cells as 1x1 point blocks.
    assert len(final.boxes) == 128
    assert all(box.w == box.h == 1 and box.points > 0 for box in final.boxes)


def test_records_are_unchanged_by_the_open_edge_case_options(splt_records):
    """Spec 1.10: no record tells the three open variants apart (2 and 3 change nothing)."""
    for key in ("1053", "1196"):
        record = splt_records[key]
        moves = [Move(*xywh) for xywh in record["moves_xywh"]]
        for rules in (Rules(unconditional_refill=True), Rules(always_late_clusters=True)):
            result = fast.replay_moves(State(rules=rules), moves)
            assert result.played == record["splits"]
            assert list(result.score_after) == record["score_after_each_split"]


# -- real screenshots -----------------------------------------------------------------------------
def _screenshot_state(truth: dict) -> State:
    boxes = tuple(Box(*row) for row in truth["boxes"])
    return State(boxes=boxes, score=truth["score"], splits=truth["splits"])


@pytest.mark.parametrize("name", ["imbalance.jpg", "width4splt.png", "6ptblock.png#left", "6ptblock.png#right"])
def test_screenshot_boards_are_valid_positions(splt_screenshots, name):
    truth = splt_screenshots[name]
    state = _screenshot_state(truth)
    assert sorted(state.voids()) == sorted(tuple(cell) for cell in truth["void"])
    assert state.orientation == truth["next"]
    # The one-line text of a real board reads back as the same position.
    assert SPLT.parse_board(SPLT.board_text(state)) == state
    assert SPLT.parse_board(str(state)).same_position(state)


def test_imbalance_screenshot_is_game_over(splt_screenshots):
    state = _screenshot_state(splt_screenshots["imbalance.jpg"])
    assert state.orientation == "V"
    assert SPLT.is_over(state)
    assert SPLT.legal_moves(state) == []


def test_width4_screenshot_has_three_legal_moves(splt_screenshots):
    state = _screenshot_state(splt_screenshots["width4splt.png"])
    # H next: the three plain 4x2 boxes at the top right can each be split.
    assert sorted(SPLT.legal_moves(state), key=lambda m: m.y) == [
        Move(4, 0, 4, 2), Move(4, 2, 4, 2), Move(4, 4, 4, 2)
    ]


@pytest.mark.parametrize("play", [SPLT.play, reference.play], ids=["numba", "reference"])
def test_screenshot_transition_158_to_169(splt_screenshots, play):
    left = _screenshot_state(splt_screenshots["6ptblock.png#left"])
    right = _screenshot_state(splt_screenshots["6ptblock.png#right"])
    transition = splt_screenshots["_validated_transition"]["moves_box_before_split_xywh_and_orientation"]
    state = left
    for x, y, w, h, orientation in transition:
        assert state.orientation == orientation
        state = play(state, Move(x, y, w, h)).state
    assert state.splits == 169
    assert state.score - left.score == 1343
    assert state.same_position(right)
    assert sorted(state.voids()) == [(4, 0), (5, 0)]


def test_uniform_random_games_match_the_reference_lengths():
    """Spec 4.2: uniform random games from the empty board last 93.8 splits on average (200
    games), min 7. 20,000 games: the mean must be within a few splits, the minimum 7."""
    lengths, _, total = fast.random_playouts(State(), 20_000, seed=7)
    assert total == int(lengths.sum())
    assert 90 <= float(np.mean(lengths)) <= 100
    assert int(lengths.min()) == 7
