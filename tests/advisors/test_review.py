"""Reviewing a line (issue 27): per-move loss, classes, the summary and the review files.

Where the expected values come from:

- Hand-worked positions, one per game, priced with the spec's rules and weights: 2048 (spec 1.3, 1.5, 3.2: a
  slide after which every new tile ends the game is worth 0), HATETRIS (D&F's published weights, spec 3.4, and
  the terms' definitions, 3.3), 1010! (Coelho's evaluation with 10025, spec 3.2), Destruct-o-Match (the scores
  and the end bonus of spec 1.2, every line of a 4 x 2 board followed by hand) and SPL-T (the weights playAssist
  printed at split 1006 of the 1196 record, ``playAssist.png``, spec 3.7; the 534-split greedy game, spec 3.6).
- Record games from ``../shared/data``: the 1196 SPL-T record (its index file names the played box of every
  move) and HATETRIS records (``records_decoded.tsv`` gives their piece counts).
- Rules that hold by construction (a beam from a well reaches at least the well's score, and at most the lines
  its cells and the pieces to come can fill).
"""

from __future__ import annotations

import csv
import io
import json
import re
import time

import numpy as np
import pytest

from advisors import review
from advisors.g2048.search import Budget, Expectimax
from advisors.hatetris.review import BEAM_BEST, BEAM_PLAYED
from advisors.review import (BEST, BLUNDER, EXCUSED, GOOD, INACCURACY, MISTAKE, Judgement, MoveReview, Thresholds,
                             from_json, review_line, review_move, summarize, to_csv, to_json)
from advisors.splt.review import BEST_INDEX, PLAYED_INDEX, ROLLOUT_BEST, ROLLOUT_PLAYED
from engines import GAMES
from engines.contract import Line
from engines.errors import KibitzInputError, NotationError
from engines.g2048.state import Slide
from engines.hatetris import State as HatetrisState
from engines.splt import Move as SpltMove

SPLT, G2048, HATETRIS, TENTEN, DESTRUCTO = (GAMES[name] for name in ("splt", "2048", "hatetris", "1010", "destructo"))


def flagged_class(row: MoveReview) -> bool:
    return row.classification in (INACCURACY, MISTAKE, BLUNDER)


# -- the classes ------------------------------------------------------------------------------------
def test_classes_start_at_their_thresholds():
    absolute = Thresholds(10.0, 40.0, 100.0, "weight", "")
    assert [absolute.classify(loss, 500.0) for loss in (0.0, 9.99, 10.0, 39.9, 40.0, 99.9, 100.0, 1e6)] == [
        BEST, GOOD, INACCURACY, INACCURACY, MISTAKE, MISTAKE, BLUNDER, BLUNDER]
    # relative: the share of the position's value. 1 of 200 is 0.5 %, 4 of 200 is 2 %, 16 of 200 is 8 %.
    relative = Thresholds(0.005, 0.02, 0.08, "of the value", "", relative=True)
    assert [relative.classify(loss, 200.0) for loss in (0.0, 0.9, 1.0, 4.0, 15.9, 16.0)] == [
        BEST, GOOD, INACCURACY, MISTAKE, MISTAKE, BLUNDER]
    # a loss from a position worth nothing is all it had: a blunder; no loss is still the best
    assert relative.classify(1.0, 0.0) == BLUNDER
    assert relative.classify(0.0, 0.0) == BEST
    assert absolute.describe() == "inaccuracy ?! ≥ 10 weight, mistake ? ≥ 40 weight, blunder ?? ≥ 100 weight"
    # shares as percentages, a half percent not rounded away to 0 %
    assert relative.describe() == "inaccuracy ?! ≥ 0.5%, mistake ? ≥ 2%, blunder ?? ≥ 8%"


class _Fixed:
    """A stand-in reviewer judging every move the same way."""

    thresholds = Thresholds(10.0, 40.0, 100.0, "points", "")
    scale = "points"
    settings = "fixed"

    def __init__(self, value: float, played: float, excused: str = "") -> None:
        self.value, self.played, self.excused = value, played, excused

    def judge(self, state, move) -> Judgement:
        return Judgement(move, self.value, self.played, (("figure", 7),), self.excused)


def test_an_excused_loss_is_good_and_says_why():
    state = SPLT.initial_state()
    move = SPLT.legal_moves(state)[0]
    plain = review_move(SPLT, _Fixed(500.0, 300.0), state, move, 1)
    assert (plain.loss, plain.classification, plain.flagged) == (200.0, BLUNDER, True)
    assert plain.symbol == "??"
    excused = review_move(SPLT, _Fixed(500.0, 300.0, "the beam says so"), state, move, 1)
    assert (excused.loss, excused.classification, excused.flagged) == (200.0, GOOD, False)
    assert excused.extra(EXCUSED) == "the beam says so" and excused.extra("figure") == 7
    # a loss below the inaccuracy threshold needs no excuse: nothing is added
    small = review_move(SPLT, _Fixed(500.0, 495.0, "the beam says so"), state, move, 1)
    assert small.classification == GOOD and small.extra(EXCUSED) is None
    # a played move judged above the best (a deeper look) has no loss
    above = review_move(SPLT, _Fixed(500.0, 501.0), state, move, 1)
    assert (above.loss, above.classification) == (0.0, BEST)


def test_reviewing_a_line_reports_progress_stops_and_skips():
    state, moves = SPLT.initial_state(), []
    for _ in range(6):  # always the first legal split
        move = SPLT.legal_moves(state)[0]
        moves.append(move)
        state = SPLT.play(state, move).state
    line = Line(SPLT.initial_state(), tuple(moves))
    reviewer = _Fixed(50.0, 50.0)
    calls = []
    rows = review_line(SPLT, reviewer, line, progress=lambda done, total: calls.append((done, total)))
    assert [row.number for row in rows] == [1, 2, 3, 4, 5, 6]
    assert calls == [(1, 6), (2, 6), (3, 6), (4, 6), (5, 6), (6, 6)]
    asked = []
    stopped = review_line(SPLT, reviewer, line, should_stop=lambda: asked.append(1) or len(asked) > 3)
    assert [row.number for row in stopped] == [1, 2, 3]
    assert [row.number for row in review_line(SPLT, reviewer, line, skip={1, 2, 5})] == [3, 4, 6]


class _EqualValues:
    """A reviewer whose best and played moves are worth the same, written two ways (the last
    bits of a sum taken in another order)."""

    thresholds = review.reviewer_module("2048").THRESHOLDS
    scale = "expected score"
    settings = "depth 2"

    def judge(self, state, move):
        return Judgement(Slide(1), 1607973.6775593658, 1607973.677559365)


def test_a_move_worth_the_best_to_the_last_bits_loses_nothing():
    state = G2048.parse_board("2 4 . ./. . . ./. . . ./. . . .")
    row = review.review_move(G2048, _EqualValues(), state, Slide(3), 1)
    assert (row.loss, row.classification, row.move, row.best) == (0.0, BEST, "L", "R")


def test_summary_of_hand_made_rows():
    # Relative thresholds: move 3 loses less than move 4 in points but a larger share of its position.
    thresholds = Thresholds(0.01, 0.1, 0.5, "of the value", "", relative=True)

    def row(number, value, loss, classification):
        return MoveReview(number, "m", "b", value, value - loss, loss, classification, "s")

    rows = [row(1, 100.0, 0.0, BEST), row(2, 100.0, 0.5, GOOD), row(3, 100.0, 5.0, INACCURACY),
            row(4, 1000.0, 20.0, INACCURACY), row(5, 40.0, 8.0, MISTAKE)]
    summary = summarize(rows, thresholds, costliest=2)
    assert summary.moves == 5
    assert dict(summary.counts) == {BEST: 1, GOOD: 1, INACCURACY: 2, MISTAKE: 1, BLUNDER: 0}
    assert summary.accuracy == pytest.approx(2 / 5) and summary.best_share == pytest.approx(1 / 5)
    assert summary.total_loss == pytest.approx(33.5)
    # shares: move 5 loses 20 %, move 3 5 %, move 4 2 %
    assert [r.number for r in summary.costliest] == [5, 3]
    assert summary.text(thresholds) == (
        "5 moves · accuracy 40.0% · best move 20.0% · 2 inaccuracies ?!, 1 mistake ?, 0 blunders ??")
    assert summarize([], thresholds).text(thresholds) == "no move reviewed"


# -- hand-worked positions, one per game ------------------------------------------------------------
def test_2048_a_slide_that_ends_the_game_is_a_blunder():
    # . 8 16 32 / 4 2 4 64 / 2 4 2 4 / 4 2 4 2: no two equal neighbours and one empty cell in the corner,
    # so only Left (row 0) and Up (column 0) move a tile (spec 1.3).
    # Left leaves 8 16 32 . over 4 2 4 64: the new tile (2 or 4) lands at (0,3) beside 32 and 64, the board
    # is full without a pair: game over after every spawn (spec 1.5), worth 0 (spec 3.2).
    # Up lifts column 0 to 4 2 4 .: row 1 becomes 2 2 4 64, a pair whatever spawns: the game goes on.
    state = G2048.parse_board(". 8 16 32/4 2 4 64/2 4 2 4/4 2 4 2")
    assert sorted(G2048.move_text(move) for move in G2048.legal_moves(state)) == ["L", "U"]
    reviewer = review.reviewer_for("2048", depth=3)
    left = review_move(G2048, reviewer, state, G2048.parse_move("L"), 1)
    assert left.best == "U"
    assert left.played_value < 1e-3  # 0 (plus the epsilon that keeps a legal slide above an illegal one)
    assert left.value > 1e5  # eight lines of 200,000 less penalties: a live board
    assert left.loss == pytest.approx(left.value - left.played_value)
    assert left.classification == BLUNDER and left.symbol == "??"  # the whole value given up
    up = review_move(G2048, reviewer, state, G2048.parse_move("U"), 1)
    assert (up.move, up.best, up.loss, up.classification) == ("U", "U", 0.0, BEST)
    assert up.value == left.value and up.extra("depth") == 3


HATETRIS_SHAFT = tuple([0] * 16 + [0b0111111111] * 4)  # rows 16-19 full but for column 9


def test_hatetris_a_hole_over_a_four_line_shaft_against_the_tetris():
    # The I piece in a well whose bottom four rows are full but for column 9 (D&F's weights, spec 3.4):
    # - upright in column 9 it clears 4 lines: an empty well, score 4. Terms: no holes, the probe reaches the
    #   floor (surface 19), no piece can clear a line of an empty well (erasable 0):
    #   cost = 19 x -83.7646 + 4 x -332.2211 = -2920.4118.
    # - flat over columns 6-9 on row 15 it roofs the shaft: the probe stops on row 15 (surface 15), so the 4 shut
    #   cells under it are buried (holes count down to the surface row, spec 3.3); row 15's gap is 6 cells and the
    #   shaft cannot be reached: erasable 0; score 0: cost = 15 x -83.7646 = -1256.469.
    state = HatetrisState(well=HATETRIS_SHAFT, score=0, piece="I")
    reviewer = review.reviewer_for("hatetris", beam_width=0)
    assert reviewer.settings == "heuristic"
    roof = review_move(HATETRIS, reviewer, state, HATETRIS.parse_move("I@6,14,0"), 1)
    assert roof.value == pytest.approx(2920.4118, abs=1e-6)
    assert roof.played_value == pytest.approx(1256.469, abs=1e-6)
    assert roof.loss == pytest.approx(1663.9428, abs=1e-6)
    assert roof.classification == BLUNDER  # more than a line's 332
    # the upright I is box x 7 in orientation 1 (cells at cx 2) or x 8 in orientation 3 (cx 1): the same well
    assert roof.best in ("I@7,16,1", "I@8,16,3")
    for text in ("I@7,16,1", "I@8,16,3"):
        tetris = review_move(HATETRIS, reviewer, state, HATETRIS.parse_move(text), 1)
        assert (tetris.loss, tetris.classification) == (0.0, BEST)
        assert tetris.played_value == pytest.approx(2920.4118, abs=1e-6)


def test_hatetris_beam_extras_on_the_hand_worked_well():
    # With the beam on, the extras are the lines a beam reaches within one more piece (4 cells), whatever the AI
    # sends: after the tetris the well is empty and one piece fills no row: 4 lines. After the roof, row 15 lacks
    # 6 cells and the shaft's rows are sealed: still 0. The beam does not clear the roof, so it stays a blunder.
    state = HatetrisState(well=HATETRIS_SHAFT, score=0, piece="I")
    reviewer = review.reviewer_for("hatetris", beam_width=4, beam_depth=1)
    assert reviewer.settings == "heuristic + beam 4 x 1"
    roof = review_move(HATETRIS, reviewer, state, HATETRIS.parse_move("I@6,14,0"), 1)
    assert (roof.extra(BEAM_PLAYED), roof.extra(BEAM_BEST)) == (0, 4)
    assert roof.classification == BLUNDER and roof.extra(EXCUSED) is None
    tetris = review_move(HATETRIS, reviewer, state, HATETRIS.parse_move("I@7,16,1"), 1)
    assert (tetris.extra(BEAM_PLAYED), tetris.extra(BEAM_BEST), tetris.classification) == (4, 4, BEST)


def test_1010_completing_the_row_against_a_single_in_the_corner():
    # Row 0 is filled but for (0,9); the tray holds one single '.'. Coelho's evaluation with 10025 (spec 3.2):
    # - at (0,9) it completes row 0: an empty board, free 100, alignment 0, compaction 1: 100 + 0 + 5 = 105.
    # - at (9,9): free 90; alignment: row 0 has 9 cells (81), row 9 one (1), columns 0-8 one each (9), column 9
    #   one (1): 92 / 1620; compaction: row 0 and row 9 each have one differing pair across (8,9), the 9 pairs
    #   under row 0 differ, and (8,9)-(9,9) differs: S = 12, (180 - 12) / 180.
    #   90 + 2 x 92/1620 + 5 x 168/180 = 94.780247 (+ the round points' 1e-7 tie-breaker).
    rows = ["#########."] + [".........."] * 9
    state = TENTEN.parse_board("score 0 · tray . 0 0 / " + " / ".join(rows))
    reviewer = review.reviewer_for("1010")
    corner = review_move(TENTEN, reviewer, state, TENTEN.parse_move(".@9,9"), 1)
    assert corner.best == ".@0,9"
    assert corner.value == pytest.approx(105.0, abs=1e-4)
    assert corner.played_value == pytest.approx(90 + 2 * 92 / 1620 + 5 * 168 / 180, abs=1e-4)
    assert corner.loss == pytest.approx(15 - 2 * 92 / 1620 - 5 * 168 / 180, abs=1e-4)  # 10.2198: a line's worth
    assert corner.classification == MISTAKE
    assert corner.extra("pieces in the best plan") == 1
    line = review_move(TENTEN, reviewer, state, TENTEN.parse_move(".@0,9"), 1)
    assert (line.loss, line.classification) == (0.0, BEST)


DESTRUCTO_BOARD = "a a/b c/a c/b a"


def test_destructo_clicking_the_pair_that_strands_four_boulders():
    # a a      Groups: the a pair on top, the c pair at (1,1)-(2,1). Every line by hand (spec 1.2: a pair scores 2,
    # b c      three score 3; the end bonus is 100 - 10 a boulder left):
    # a c      - c pair first (2): column 1 drops to . . a a, joining a(2,0): a three (3); then column 0 is
    # b a        . a b b: the b pair (2) leaves one a: 2 + 3 + 2 + 90 = 97.
    #          - a pair first (2): then only the c pair (2), and b / a b / a is left with no pair: 2 + 2 + 60 = 64.
    state = DESTRUCTO.parse_board(DESTRUCTO_BOARD)
    reviewer = review.reviewer_for("destructo", width=64)
    top = review_move(DESTRUCTO, reviewer, state, DESTRUCTO.parse_move("0,0"), 1)
    assert (top.value, top.played_value, top.loss) == (97.0, 64.0, 33.0)
    assert top.classification == MISTAKE
    assert top.best in ("1,1", "2,1")
    assert top.extra("points of the click") == 2
    # a click anywhere in a group is the group's click: both cells of the c pair are the best
    for cell in ("1,1", "2,1"):
        best = review_move(DESTRUCTO, reviewer, state, DESTRUCTO.parse_move(cell), 1)
        assert (best.played_value, best.loss, best.classification) == (97.0, 0.0, BEST)
    other_a = review_move(DESTRUCTO, reviewer, state, DESTRUCTO.parse_move("0,1"), 1)
    assert (other_a.loss, other_a.classification) == (33.0, MISTAKE)


# -- SPL-T: the 1196 record and playAssist's printed weights ----------------------------------------
#: playAssist.png, split 1006 of the 1196 record: "Weight of box N is W", printed as int(weight) (see
#: tests/advisors/test_splt_weights.py); [110]'s 0 is the normalised minimum 0.01.
PLAY_ASSIST_WEIGHTS = {81: 16, 86: 194, 93: 194, 108: 222, 110: 0, 114: 211}


@pytest.fixture(scope="module")
def record_1196(splt_data):
    text = (splt_data / "1196seq.txt").read_text()
    return SPLT.parse_sequence(text), [int(token) for token in re.findall(r"[0-9]+", text)]


@pytest.fixture(scope="module")
def reviewed_1196(record_1196):
    line, _ = record_1196
    SPLT.warm_up()
    reviewer = review.reviewer_for("splt")
    review_line(SPLT, reviewer, Line(line.start, line.moves[:20]))  # the weights' kernels loaded
    started = time.perf_counter()
    rows = review_line(SPLT, reviewer, line)
    return rows, time.perf_counter() - started


def test_the_1196_record_has_a_row_per_split(record_1196, reviewed_1196):
    line, indices = record_1196
    rows, seconds = reviewed_1196
    assert len(indices) == 1196
    assert [row.number for row in rows] == list(range(1, 1197))
    assert seconds <= 10.0
    # the index file names the box each move split; the rows say the same
    assert [row.extra(PLAYED_INDEX) for row in rows] == indices
    assert all(row.move == SPLT.move_text(move) for row, move in zip(rows, line.moves))
    assert all(row.loss >= 0 and row.settings == "weights" for row in rows)


def test_the_first_split_has_weight_one_and_no_loss(reviewed_1196):
    rows, _ = reviewed_1196
    # spec 3.2: no weights at move 0; the one box of the empty board gets 1
    first = rows[0]
    assert (first.move, first.best, first.value, first.played_value, first.loss, first.classification) == (
        "0,0,8,16", "0,0,8,16", 1.0, 1.0, 0.0, BEST)


def test_move_1007_is_play_assists_box_108_at_weight_222(reviewed_1196):
    rows, _ = reviewed_1196
    row = rows[1006]  # move 1007 is played from the position after split 1006 (playAssist.png)
    assert row.number == 1007
    assert (row.extra(BEST_INDEX), row.extra(PLAYED_INDEX)) == (108, 108)
    assert row.move == row.best == "3,2,1,2"  # box [108] read off the image: x 3, y 2, 1 wide, 2 high
    assert int(row.value) == 222 and row.played_value == row.value
    assert (row.loss, row.classification) == (0.0, BEST)


def test_the_other_boxes_of_split_1006_priced_by_play_assists_weights(record_1196):
    line, _ = record_1196
    state = SPLT.replay(line.start, line.moves[:1006])
    assert (state.splits, state.score) == (1006, 624_496)  # playAssist's window title
    reviewer = review.reviewer_for("splt")
    best = PLAY_ASSIST_WEIGHTS[108]
    expected_class = {81: BLUNDER, 110: BLUNDER, 86: INACCURACY, 93: INACCURACY, 114: INACCURACY, 108: BEST}
    for index, printed in PLAY_ASSIST_WEIGHTS.items():
        move = SpltMove.of(state.boxes[index])
        row = review_move(SPLT, reviewer, state, move, 1007)
        assert row.best == "3,2,1,2" and row.extra(BEST_INDEX) == 108 and row.extra(PLAYED_INDEX) == index
        assert int(row.played_value) == printed or (printed == 0 and row.played_value == pytest.approx(0.01))
        if index != 108:
            # the value is in [222, 223) and the played weight in [printed, printed + 1)
            assert best - printed - 1 < row.loss < best + 1 - printed, index
        assert row.classification == expected_class[index], index
    # [110], the normalised minimum, gives up the whole 222: a blunder; [114] at 211 only an inaccuracy
    worst = review_move(SPLT, reviewer, state, SpltMove.of(state.boxes[110]), 1007)
    assert 221 < worst.loss < 223 and worst.symbol == "??"


def test_splt_rollouts_of_the_first_split_are_the_534_greedy_game():
    # playAssist printed "Default Algorithm Record: 534" on the empty board (spec 3.6, 3.7); the only first split
    # is the greedy game's own, so the greedy game after it is the same 534-split game.
    reviewer = review.reviewer_for("splt", rollouts=True)
    assert reviewer.settings == "weights + greedy rollouts"
    state = SPLT.initial_state()
    row = review_move(SPLT, reviewer, state, SPLT.legal_moves(state)[0], 1)
    assert (row.extra(ROLLOUT_PLAYED), row.extra(ROLLOUT_BEST)) == (534, 534)


# -- HATETRIS records -----------------------------------------------------------------------------
@pytest.fixture(scope="module")
def hatetris_records(reference_data):
    with open(reference_data / "hatetris" / "records.tsv", encoding="utf-8") as handle:
        codes = {(r["label"], r["encoding"]): r["replay"] for r in csv.DictReader(handle, delimiter="\t")}
    with open(reference_data / "hatetris" / "records_decoded.tsv", encoding="utf-8") as handle:
        decoded = {r["label"]: r for r in csv.DictReader(handle, delimiter="\t")}
    return codes, decoded


def test_the_df86_record_reviewed_by_the_heuristic(hatetris_records):
    codes, decoded = hatetris_records
    line = HATETRIS.parse_sequence(codes[("David & Felipe (1)", "Base2048")])
    pieces = int(decoded["David & Felipe (1)"]["pieces_count"])
    assert pieces == 248
    reviewer = review.reviewer_for("hatetris", beam_width=0)
    review_line(HATETRIS, reviewer, Line(line.start, line.moves[:3]))  # the heuristic's kernels loaded
    started = time.perf_counter()
    rows = review_line(HATETRIS, reviewer, line)
    assert time.perf_counter() - started < 10.0
    assert [row.number for row in rows] == list(range(1, pieces + 1))
    assert [row.move for row in rows] == [HATETRIS.move_text(move) for move in line.moves]
    for row in rows:
        assert row.extras == () and row.settings == "heuristic"
        assert row.loss == pytest.approx(max(0.0, row.value - row.played_value), abs=1e-9 * max(1.0, abs(row.value)))
        assert row.classification == reviewer.thresholds.classify(row.loss, row.value)
        if row.move == row.best:
            assert (row.loss, row.classification) == (0.0, BEST)
    assert HATETRIS.replay_line(line).score == int(decoded["David & Felipe (1)"]["score"]) == 86


def test_the_beam_extras_on_the_deasuke_record_follow_the_rules(hatetris_records):
    codes, _ = hatetris_records
    line = HATETRIS.parse_sequence(codes[("Deasuke", "Base2048")])
    prefix = Line(line.start, line.moves[:12])
    depth = 6
    with_beam = review_line(HATETRIS, review.reviewer_for("hatetris", beam_width=4, beam_depth=depth), prefix)
    heuristic = review_line(HATETRIS, review.reviewer_for("hatetris", beam_width=0), prefix)
    assert len(with_beam) == 12
    state = line.start
    for row, plain, move in zip(with_beam, heuristic, prefix.moves):
        assert row.settings == f"heuristic + beam 4 x {depth}"
        # the beam adds figures, never changes the heuristic's judgement
        assert (row.best, row.value, row.played_value, row.loss) == (plain.best, plain.value, plain.played_value,
                                                                      plain.loss)
        for name, placement in ((BEAM_PLAYED, move), (BEAM_BEST, HATETRIS.parse_move(row.best))):
            after = HATETRIS.play(state, placement).state
            lines = row.extra(name)
            assert isinstance(lines, int)
            # lines are never lost, and within `depth` more pieces (4 cells each) at most the well's cells and
            # theirs can fill rows of 10
            assert after.score <= lines <= after.score + (after.cells + 4 * depth) // 10, (row.number, name)
        if row.move == row.best:
            assert row.extra(BEAM_PLAYED) == row.extra(BEAM_BEST)
        excused = row.extra(EXCUSED)
        if flagged_class(plain) and row.extra(BEAM_PLAYED) >= row.extra(BEAM_BEST):
            assert row.classification == GOOD and excused
        else:
            assert row.classification == plain.classification and excused is None
        state = HATETRIS.play(state, move).state


# -- 2048: a seeded game ---------------------------------------------------------------------------
def seeded_2048_line(seed: int, slides: int) -> Line:
    """Spawns drawn from a seeded generator; slides by a corner rule (Left, Down, Right, Up: the first that
    moves), every third one drawn at random."""
    rng = np.random.default_rng(seed)
    start = state = G2048.initial_state()
    moves, made = [], 0
    order = [G2048.parse_move(letter) for letter in "LDRU"]
    while made < slides:
        if G2048.is_chance_node(state):
            move = G2048.sample_chance(state, rng)
        else:
            legal = G2048.legal_moves(state)
            move = legal[int(rng.integers(len(legal)))] if made % 3 == 0 else next(m for m in order if m in legal)
            made += 1
        moves.append(move)
        state = G2048.play(state, move).state
    return Line(start, tuple(moves))


def test_a_seeded_2048_game_reviews_the_slides_only():
    line = seeded_2048_line(2026, 30)
    reviewer = review.reviewer_for("2048", depth=2)
    rows = review_line(G2048, reviewer, line)
    slide_numbers = [number for number, move in enumerate(line.moves, start=1) if isinstance(move, Slide)]
    assert len(slide_numbers) == 30 and len(line.moves) > 30  # two start tiles and a tile after every slide
    assert [row.number for row in rows] == slide_numbers
    for row in rows:
        assert row.move == G2048.move_text(line.moves[row.number - 1]) and row.move in ("L", "D", "R", "U")
        assert row.settings == "depth 2" and row.extra("depth") == 2
        assert row.loss == pytest.approx(max(0.0, row.value - row.played_value), abs=1e-9 * row.value)
        share = row.loss / row.value
        expected = (BEST if row.loss == 0 else GOOD if share < 0.005 else INACCURACY if share < 0.02
                    else MISTAKE if share < 0.08 else BLUNDER)
        assert row.classification == expected, row
    # the values are the expectimax's at depth 2, searched again here by another search object
    states = [line.start]
    for move in line.moves:
        states.append(G2048.play(states[-1], move).state)
    search = Expectimax(threads=1)
    for row in rows[::6]:
        values = search.evaluate(states[row.number - 1], Budget(depth=2)).values
        assert row.value == pytest.approx(max(v for v in values if v is not None), rel=1e-12)
        assert row.played_value == pytest.approx(values[line.moves[row.number - 1].direction], rel=1e-12)
    agreeing = [row for row in rows if row.move == row.best]
    assert agreeing, "the corner rule never chose the advisor's slide"
    assert all((row.loss, row.classification) == (0.0, BEST) for row in agreeing)


# -- files ---------------------------------------------------------------------------------------------
def test_csv_columns_and_the_row_of_move_1007(reviewed_1196):
    rows, _ = reviewed_1196
    table = list(csv.reader(io.StringIO(to_csv(rows))))
    assert table[0] == ["number", "move", "best", "value", "played_value", "loss", "class", "settings",
                        "played box", "best box"]
    assert len(table) == 1 + 1196
    fields = dict(zip(table[0], table[1007]))
    assert {k: fields[k] for k in ("number", "move", "best", "loss", "class", "settings", "played box", "best box")} \
        == {"number": "1007", "move": "3,2,1,2", "best": "3,2,1,2", "loss": "0", "class": "best",
            "settings": "weights", "played box": "108", "best box": "108"}
    assert int(float(fields["value"])) == 222 and fields["played_value"] == fields["value"]
    assert table[1][:8] == ["1", "0,0,8,16", "0,0,8,16", "1", "1", "0", "best", "weights"]


def test_csv_of_hatetris_rows_with_text_extras(hatetris_records):
    codes, _ = hatetris_records
    line = HATETRIS.parse_sequence(codes[("Deasuke", "Base2048")])
    rows = review_line(HATETRIS, review.reviewer_for("hatetris", beam_width=2, beam_depth=2),
                       Line(line.start, line.moves[:6]))
    table = list(csv.DictReader(io.StringIO(to_csv(rows))))
    assert len(table) == 6
    for record, row in zip(table, rows):
        assert int(record[BEAM_PLAYED]) == row.extra(BEAM_PLAYED)
        assert record.get(EXCUSED, "") == (row.extra(EXCUSED) or "")


def test_json_round_trip_keeps_the_rows_and_the_line():
    line = seeded_2048_line(7, 8)
    reviewer = review.reviewer_for("2048", depth=1)
    rows = review_line(G2048, reviewer, line)
    text = to_json(G2048, line, rows, reviewer.thresholds)
    data = json.loads(text)
    assert (data["format"], data["version"], data["game"]) == ("kibitz-review", 1, "2048")
    assert len(data["moves"]) == len(line.moves) and len(data["rows"]) == 8
    read = from_json(GAMES, text, "review.json")
    assert read.game == "2048"
    assert read.rows == tuple(rows)
    assert read.line == line
    assert (read.thresholds.inaccuracy, read.thresholds.mistake, read.thresholds.blunder, read.thresholds.relative) \
        == (0.005, 0.02, 0.08, True)
    # without thresholds the file still reads
    assert from_json(GAMES, to_json(G2048, line, rows), "review.json").thresholds is None


def test_json_round_trip_of_text_extras(hatetris_records):
    codes, _ = hatetris_records
    line = HATETRIS.parse_sequence(codes[("Deasuke", "Base2048")])
    prefix = Line(line.start, line.moves[:6])
    rows = review_line(HATETRIS, review.reviewer_for("hatetris", beam_width=2, beam_depth=2), prefix)
    read = from_json(GAMES, to_json(HATETRIS, prefix, rows), "review.json")
    assert read.rows == tuple(rows) and read.line.moves == prefix.moves


@pytest.fixture(scope="module")
def splt_review_text():
    state, moves = SPLT.initial_state(), []
    for _ in range(5):
        move = SPLT.legal_moves(state)[-1]
        moves.append(move)
        state = SPLT.play(state, move).state
    line = Line(SPLT.initial_state(), tuple(moves))
    reviewer = review.reviewer_for("splt")
    return to_json(SPLT, line, review_line(SPLT, reviewer, line), reviewer.thresholds), [SPLT.move_text(m) for m in moves]


def damaged(text: str, change) -> str:
    data = json.loads(text)
    change(data)
    return json.dumps(data)


def refusal(text: str) -> str:
    with pytest.raises(NotationError) as caught:
        from_json(GAMES, text, "bad.json")
    return str(caught.value)


def test_damaged_review_files_are_refused_saying_where(splt_review_text):
    text, moves = splt_review_text
    assert refusal(damaged(text, lambda d: d.update(format="kibitz-reveiw"))) == (
        'bad.json: not a Kibitz review file (it needs "format": "kibitz-review")')
    assert refusal(damaged(text, lambda d: d.update(version=2))) == (
        "bad.json: unknown review version 2 (this Kibitz reads 1)")
    assert refusal(damaged(text, lambda d: d.update(game="chess"))) == (
        "bad.json: unknown game 'chess'; known games: 1010, 2048, destructo, hatetris, splt")
    other = next(m for m in moves if m != moves[2])
    assert refusal(damaged(text, lambda d: d["rows"][2].update(move=other))) == (
        f"bad.json: row 3 (move 3): it is for move {other!r}, but the line plays {moves[2]!r} there")
    # the first position is the empty board: its only split is 0,0 (spec 1.9)
    assert refusal(damaged(text, lambda d: d["rows"][0].update(best="4,0"))).startswith(
        "bad.json: row 1 (move 1): its best move '4,0' cannot be played there: ")
    assert refusal(damaged(text, lambda d: d["rows"][1].update(loss=2.5))) == (
        "bad.json: row 2: class 'best' with a loss of 2.5: a move is 'best' exactly when it loses nothing")
    assert refusal(damaged(text, lambda d: d["rows"][2].update(number=9))) == (
        "bad.json: row 3 is for move 9, but the line has 5 moves")
    assert refusal(damaged(text, lambda d: d["rows"][1].update(loss=-1.5))) == (
        "bad.json: row 2: 'loss' cannot be negative (-1.5): the best move's value is the most")
    assert refusal(damaged(text, lambda d: d["rows"].append(dict(d["rows"][1])))) == (
        "bad.json: row 6: move 2 is reviewed twice")
    assert refusal(damaged(text, lambda d: d["rows"][0].update({"class": "brilliant"}))).startswith(
        "bad.json: row 1: 'class' must be one of best, good, inaccuracy, mistake, blunder")


def test_a_row_on_a_chance_step_is_refused():
    line = seeded_2048_line(7, 2)
    reviewer = review.reviewer_for("2048", depth=1)
    rows = review_line(G2048, reviewer, line)
    text = to_json(G2048, line, rows)
    # move 1 is the first start tile, a chance step: a row there is no review
    forged = damaged(text, lambda d: d["rows"].insert(0, {**d["rows"][0], "number": 1, "move": d["moves"][0]}))
    assert refusal(forged).startswith(f"bad.json: row 1 (move 1): move 1 is a chance step ({line.moves[0]})")


def test_non_finite_numbers_in_a_review_file_are_refused(splt_review_text):
    text, _ = splt_review_text
    # NaN and Infinity are not JSON: refused where they stand
    nan = damaged(text, lambda d: d["rows"][3].update(value="@@")).replace('"@@"', "NaN")
    message = refusal(nan)
    assert message.startswith("bad.json, line 1, column ") and "NaN" in message and "not valid JSON" in message
    infinite = damaged(text, lambda d: d["rows"][3].update(played_value="@@")).replace('"@@"', "-Infinity")
    assert "Infinity" in refusal(infinite)
    # a number too large to be a value is damage too
    assert refusal(damaged(text, lambda d: d["rows"][3].update(value=1e300))) == (
        "bad.json: row 4: 'value' must be a finite number of at most 1e+15, not 1e+300")


def test_a_review_file_whose_line_is_illegal_names_the_move(splt_review_text):
    text, _ = splt_review_text
    with pytest.raises(KibitzInputError) as caught:  # the rules' own error (an illegal move), located
        from_json(GAMES, damaged(text, lambda d: d["moves"].__setitem__(3, "9,9,1,1")), "bad.json")
    message = str(caught.value)
    assert message.startswith("bad.json: move 4") and "'9,9,1,1'" in message and "outside" in message


def test_a_review_for_a_game_without_a_reviewer_is_refused():
    with pytest.raises(NotationError, match="cannot review 'chess' games"):
        review.reviewer_for("chess")
