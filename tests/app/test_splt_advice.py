"""The SPL-T advisor's marks on the board, checked against real screens.

- Split 1006 of the 1196 record is josh-holder's ``playAssist.png`` (spec 3.7): [108] is the
  outlined best, [93] is filled red (unexpected cluster), [81] and [110] green (new halving),
  [114] and [86] grey. The box geometry used below is read off that image.
- The boards transcribed in ``screenshot_truth.json`` (spec 6) are small enough to work out by
  hand which splits make a cluster, which of those are a new halving (spec 3.5) and whether
  anything can fall; each test says how.
"""

from __future__ import annotations

import pytest
from PySide6.QtGui import QColor

from advisors.splt.heuristic import rank
from app.gui.games import ui_for
from app.gui.games.splt import advice
from engines import GAMES
from engines.splt import Box, Move, State

SPLT = GAMES["splt"]
CELL = 40


@pytest.fixture
def board(qtbot):
    board = ui_for("splt").make_board(SPLT, None)
    qtbot.addWidget(board)
    board.resize(8 * CELL + 1, round(16.75 * CELL) + 1)
    board.show()
    qtbot.waitExposed(board)
    return board


@pytest.fixture(scope="module")
def split_1006(splt_data) -> State:
    line = SPLT.parse_sequence((splt_data / "1196seq.txt").read_text())
    state = SPLT.replay(State(), line.moves[:1006])
    assert (state.splits, state.score) == (1006, 624_496)
    return state


def screenshot_state(screenshots: dict, name: str) -> State:
    entry = screenshots[name]
    return State(boxes=tuple(Box(*box) for box in entry["boxes"]), score=entry["score"], splits=entry["splits"])


def advise(board, state: State) -> list:
    board.show_position(state)
    candidates = rank(state)
    board.show_advice(candidates)
    return candidates


def pixel(board, x: int, y: int) -> QColor:
    """The colour in the middle of cell (x, y) (away from the rank digit and the outlines)."""
    point = board.cell_center(x, y)
    return board.grab().toImage().pixelColor(point.x() + CELL // 8, point.y() + CELL // 8)


def is_green(color: QColor) -> bool:
    """Clearly green, even at the fainter fill of a low-ranked split."""
    return color.green() >= 60 and color.green() > 1.8 * max(color.red(), color.blue())


def is_red(color: QColor) -> bool:
    return color.red() >= 60 and color.red() > 1.8 * max(color.green(), color.blue())


def is_neutral_tint(color: QColor) -> bool:
    """The grey-blue of a legal split with no warning: lighter than the black board, no hue."""
    channels = (color.red(), color.green(), color.blue())
    return min(channels) > 40 and max(channels) - min(channels) < 40


# -- playAssist.png ----------------------------------------------------------------------------
def test_split_1006_marks_as_in_playassist(board, split_1006):
    advise(board, split_1006)
    assert board.advice_marks() == {
        108: "best", 93: "cluster", 81: "halving", 110: "halving", 114: "ranked", 86: "ranked",
    }


def test_split_1006_colours_on_screen(board, split_1006):
    advise(board, split_1006)
    # Cells read off playAssist.png: [93] column 1 rows 0-1; [81] column 1 rows 4-5; [110]
    # columns 4-5 rows 0-1; [108] column 3 rows 2-3 (also green there); [114] columns 2-3 rows
    # 0-1 and [86] column 0 rows 0-1 grey.
    assert is_red(pixel(board, 1, 1))
    assert is_green(pixel(board, 1, 5))
    assert is_green(pixel(board, 5, 1))
    assert is_green(pixel(board, 3, 3))
    assert is_neutral_tint(pixel(board, 2, 1)) and is_neutral_tint(pixel(board, 0, 1))
    # a point block and a plain box that is not a candidate keep the game's black
    assert pixel(board, 6, 1).getRgb()[:3] == (0, 0, 0)  # [92], cannot split horizontally
    # the best's frame: cyan dashes along [108]'s left edge
    layout = board.board_layout()
    image = board.grab().toImage()
    x = layout.x_edge(3) + 3
    best = QColor(*advice.BEST_RGB)
    on_frame = [image.pixelColor(x, y) for y in range(layout.y_edge(2) + 4, layout.y_edge(4) - 4)]
    assert sum(color == best for color in on_frame) > len(on_frame) // 3


def test_hiding_the_advice_shows_the_plain_game(board, split_1006):
    advise(board, split_1006)
    board.set_advice_visible(False)
    assert board.advice_marks() == {}
    assert pixel(board, 1, 1).getRgb()[:3] == (0, 0, 0)
    board.set_advice_visible(True)
    assert is_red(pixel(board, 1, 1))


def test_a_new_position_clears_the_marks(board, split_1006):
    candidates = advise(board, split_1006)
    board.show_position(SPLT.play(split_1006, candidates[0].move).state)
    assert board.advice_marks() == {}


def test_preview_outlines_the_cluster_a_split_makes(board, split_1006):
    advise(board, split_1006)
    # [81] is (1,4,1,2): split horizontally its halves are 1x1 at (1,4) and (1,5), beside the
    # plain 1x1 boxes [87] (0,3), [103] (1,3), [76] (0,4), [91] (0,5): a 3x2 arrangement of six
    # equal boxes, the blog's 6-block cluster.
    board.preview_move(Move(1, 4, 1, 2))
    assert board.previewed_box == Box(1, 4, 1, 2)
    made, late = board.previewed_clusters()
    assert made == {(0, 3), (1, 3), (0, 4), (1, 4), (0, 5), (1, 5)} and late == set()
    layout = board.board_layout()
    image = board.grab().toImage()
    top_edge = image.pixelColor(layout.x_edge(1) + CELL // 2, layout.y_edge(3))
    assert top_edge.getRgb()[:3] == (255, 255, 255)
    board.preview_move(None)
    assert board.previewed_box is None and board.previewed_clusters() == (set(), set())


def test_preview_outlines_the_unexpected_cluster(board, split_1006):
    advise(board, split_1006)
    # [93] is (1,0,1,2). The four blocks showing 1 at the bottom of columns 0-1 ([4], [10],
    # [37], [39]) explode on any split, so everything in columns 0-1 falls two rows: [93]'s two
    # 1x1 halves land at (1,2) and (1,3), beside the plain 1x1 boxes [105] (2,2) and [112]
    # (2,3) that do not move: a 2x2 of equal plain boxes nobody split for.
    board.preview_move(Move(1, 0, 1, 2))
    made, late = board.previewed_clusters()
    assert made == set() and late == {(1, 2), (2, 2), (1, 3), (2, 3)}


def test_mouse_hover_outlines_the_cluster_too(qtbot, board, split_1006):
    advise(board, split_1006)
    qtbot.mouseMove(board, board.cell_center(1, 5))  # the lower cell of [81]
    qtbot.waitUntil(lambda: board.hovered_box == Box(1, 4, 1, 2), timeout=2000)
    assert board.previewed_clusters()[0] == {(0, 3), (1, 3), (0, 4), (1, 4), (0, 5), (1, 5)}


def test_preview_ignores_a_move_that_is_not_a_split_here(board, split_1006):
    advise(board, split_1006)
    board.preview_move(Move(6, 0))  # [92], 2x1: no horizontal split
    assert board.previewed_box is None


# -- screenshot_truth.json -------------------------------------------------------------------------
def test_width4_screen_has_no_warning(board, splt_screenshots):
    # 56 splits, H next: the only plain boxes are the three 4x2 boxes of columns 4-7 (rows 0-5).
    # Their halves are 4x1; a 2x2 of 4x1 boxes needs another 4-wide plain box beside them, and
    # columns 0-3 hold point blocks: no cluster, so no new halving. The lowest block shows 6:
    # nothing explodes, nothing falls, so no unexpected cluster either.
    state = screenshot_state(splt_screenshots, "width4splt.png")
    advise(board, state)
    marks = board.advice_marks()
    plain = {state.box_index_at(4, y) for y in (0, 2, 4)}
    assert set(marks) == plain
    assert sorted(marks.values()) == ["best", "ranked", "ranked"]
    for y in (1, 3, 5):
        assert not is_green(pixel(board, 5, y)) and not is_red(pixel(board, 5, y))


def test_6ptblock_left_screen(board, splt_screenshots):
    # 158 splits, H next (n + 1 = 159). Only two of the six legal splits make a cluster:
    # - (7,8,1,2) -> 1x1 halves beside the plain 1x1 (6,8), (6,9): a 2x2 cluster (the data file
    #   says a cluster was made at split 159 in columns 6-7). Under its lower blocks: the two 6s
    #   (5 after this turn, 2 cells tall each, exploding together), then the two 18s (17 twice).
    #   Stack [159, 5, 5, 5, 5, 17, 17]: the 6s go first (halving 154 -> 77), the 18s next
    #   (65 -> 32), then the new blocks alone: one 0 at the end -> a new halving, 2 halvings.
    # - (1,0,1,2) -> 1x1 halves beside the plain (0,0), (0,1): a cluster, but its stack
    #   [159, 157, 157, 125, 125, 55 x4, 39, 39, 27, 27, 13, 13] ends with the 158s: three 0s, no
    #   new halving; the new blocks are halved 5 times (13s, 27s, 39s, 55s, 125s).
    # No block shows 1 (the lowest is 6): nothing falls, no unexpected cluster.
    state = screenshot_state(splt_screenshots, "6ptblock.png#left")
    candidates = advise(board, state)
    by_move = {c.move: c for c in candidates}
    assert len(candidates) == 6
    assert [advice.advice_kind(c) for c in candidates].count(advice.HALVING) == 1
    assert advice.advice_kind(by_move[Move(7, 8, 1, 2)]) == advice.HALVING
    assert not any(c.unexpected for c in candidates)
    assert advice.halving_text(by_move[Move(7, 8, 1, 2)]) == "new ×2"
    assert advice.halving_text(by_move[Move(1, 0, 1, 2)]) == "×5"
    assert {c.move for c in candidates if c.cluster} == {Move(7, 8, 1, 2), Move(1, 0, 1, 2)}
    marks = board.advice_marks()
    assert marks[state.box_index_at(7, 8)] in ("halving", "best")
    assert all(mark in ("ranked", "best") for index, mark in marks.items() if index != state.box_index_at(7, 8))
    assert is_green(pixel(board, 7, 9))
    assert not is_green(pixel(board, 1, 1)) and not is_red(pixel(board, 1, 1))
    board.preview_move(Move(7, 8, 1, 2))
    assert board.previewed_clusters() == ({(6, 8), (7, 8), (6, 9), (7, 9)}, set())


def test_6ptblock_right_screen(board, splt_screenshots):
    # 169 splits, V next (n + 1 = 170). Of the six legal splits only (4,5,2,2) makes a cluster:
    # its 1x2 halves sit on the plain 1x2 boxes (4,7), (5,7). The lowest members are those two;
    # under them the two 15s (14 twice), then the 2x2 5s (4 for four rows), then the plain
    # (4,15,2,1). Stack [170, 14, 14, 4, 4, 4, 4]: the 5s explode first (166 -> 83), the 15s
    # next (78 -> 39), then the new blocks alone: a new halving, 2 halvings. The lowest block
    # shows 3: nothing falls, no unexpected cluster.
    state = screenshot_state(splt_screenshots, "6ptblock.png#right")
    candidates = advise(board, state)
    by_move = {c.move: c for c in candidates}
    assert len(candidates) == 6
    assert [c.move for c in candidates if c.cluster] == [Move(4, 5, 2, 2)]
    assert [c.move for c in candidates if c.new_halving] == [Move(4, 5, 2, 2)]
    assert not any(c.unexpected for c in candidates)
    assert advice.halving_text(by_move[Move(4, 5, 2, 2)]) == "new ×2"
    assert is_green(pixel(board, 5, 6))
    board.preview_move(Move(4, 5, 2, 2))
    made, _ = board.previewed_clusters()
    assert made == {(4, 5), (5, 5), (4, 6), (5, 6), (4, 7), (5, 7), (4, 8), (5, 8)}


def test_imbalance_screen_is_game_over(board, splt_screenshots):
    # 87 splits, V next, every plain box is 1 wide: no legal split, nothing to mark.
    state = screenshot_state(splt_screenshots, "imbalance.jpg")
    assert advise(board, state) == []
    assert board.advice_marks() == {}


# -- the plug pieces ---------------------------------------------------------------------------------
def test_columns_label_and_colour(split_1006):
    by_index = {c.index: c for c in rank(split_1006)}
    assert advice.candidate_label(by_index[108]) == "[108] 3,2,1,2"
    assert [column.header for column in advice.COLUMNS] == ["Halving", "Warning"]
    assert advice.warning_text(by_index[93]) == "unexpected cluster"
    assert advice.warning_tooltip(by_index[93]) == by_index[93].warnings[0]
    assert advice.warning_text(by_index[114]) == "" and advice.halving_text(by_index[114]) == ""
    assert advice.candidate_color(by_index[93]) == advice.KIND_RGB[advice.CLUSTER]
    assert advice.candidate_color(by_index[81]) == advice.KIND_RGB[advice.HALVING]
    assert advice.candidate_color(by_index[114]) is None


def test_greedy_rollout():
    # Spec 3.6: greedy from the empty board plays 534 splits.
    assert advice.greedy_rollout_length(State()) == 534
    assert advice.rollout_text(State()) == "greedy from here: 534 splits (+534)"


def test_rollout_at_game_over(splt_data):
    line = SPLT.parse_sequence((splt_data / "1196seq.txt").read_text())
    end = SPLT.replay(State(), line.moves)
    assert advice.rollout_text(end) == "greedy from here: 1196 splits (game over)"


def test_kinds_of_both_warnings():
    class Fake:
        def __init__(self, new_halving, unexpected):
            self.new_halving, self.unexpected = new_halving, unexpected

    assert advice.advice_kind(Fake(True, (Box(0, 0, 1, 1),))) == advice.BOTH
    assert advice.advice_kind(Fake(True, ())) == advice.HALVING
    assert advice.advice_kind(Fake(False, (Box(0, 0, 1, 1),))) == advice.CLUSTER
    assert advice.advice_kind(Fake(False, ())) == advice.RANKED


# -- the Halving column says what the forecast knows ------------------------------------------------
@pytest.fixture(scope="module")
def split_1007(splt_data) -> State:
    line = SPLT.parse_sequence((splt_data / "1196seq.txt").read_text())
    return SPLT.replay(State(), line.moves[:1007])


def test_cluster_on_plain_boxes_is_not_called_a_new_halving(board, split_1007):
    # Split 1008 (V): [74] = (0,4,2,1) and [112] = (0,0,2,2) each make a cluster of 4 whose
    # lowest members rest on plain boxes ((0,6), (1,6) and (0,4,2,1)): no point block under
    # them, nothing halves them, their explosion adds no halving to a stack. The column must not
    # say "new ×0" next to a text that says they get 0 halvings.
    candidates = advise(board, split_1007)
    by_index = {c.index: c for c in candidates}
    for index in (74, 112):
        assert advice.halving_text(by_index[index]) == "no stack"
        assert advice.halving_tooltip(by_index[index]).startswith(
            "No new halving: this cluster rests on plain boxes, with no point block under it.")
        assert advice.warning_text(by_index[index]) == ""
        assert advice.candidate_color(by_index[index]) is None
    assert candidates[0].index == 74
    assert board.advice_marks()[112] == "ranked"
    assert not is_green(pixel(board, 0, 1))  # [112], last of six: the faint neutral tint


def test_halving_column_texts():
    # Hand-made boards (tests/advisors/test_splt_predictors.py): splitting (0,0,2,4) H makes four
    # 2x2 over row 4. Row 4 = 1x1 blocks 5, 5, 3, 4 (then plain): under (0,2) the 5s give the
    # stack [11, 4], a new halving with one halving. Blocks 5, 7 / 3, 4: the values under each
    # lowest member disagree, the walk gives up: unknown. Row 4 plain: no stack. And a cluster
    # on the floor: no stack, the tooltip says so.
    def board_with(row4: tuple[Box, ...]) -> State:
        top = (Box(0, 0, 2, 4), Box(2, 0, 2, 2), Box(2, 2, 2, 2), Box(4, 0, 4, 4))
        rest = (Box(0, 5, 8, 1), Box(0, 6, 8, 2), Box(0, 8, 8, 8))
        return State(boxes=top + row4 + rest, splits=10)

    def candidate_for(state: State, move: Move):
        return next(c for c in rank(state) if c.move == move)

    def row_of(a, b, c, d):
        return (Box(0, 4, 1, 1, a), Box(1, 4, 1, 1, b), Box(2, 4, 1, 1, c), Box(3, 4, 1, 1, d), Box(4, 4, 4, 1))

    split = Move(0, 0, 2, 4)
    stacked = candidate_for(board_with(row_of(5, 5, 3, 4)), split)
    assert advice.halving_text(stacked) == "new ×1"
    unknown = candidate_for(board_with(row_of(5, 7, 3, 4)), split)
    assert advice.halving_text(unknown) == "?" and "cannot tell" in advice.halving_tooltip(unknown)
    plain = candidate_for(board_with((Box(0, 4, 4, 1), Box(4, 4, 4, 1))), split)
    assert advice.halving_text(plain) == "no stack" and not plain.new_halving
    floor = State(boxes=(
        Box(0, 0, 8, 8), Box(0, 8, 8, 4), Box(0, 12, 8, 2),
        Box(0, 14, 2, 2), Box(2, 14, 2, 1), Box(2, 15, 2, 1), Box(4, 14, 4, 2),
    ), splits=10)
    on_floor = candidate_for(floor, Move(0, 14, 2, 2))
    assert advice.halving_text(on_floor) == "no stack"
    assert advice.halving_tooltip(on_floor).startswith("No new halving: this cluster rests on the floor.")
    assert on_floor.explanation.startswith("makes a cluster of 4 on the floor")
