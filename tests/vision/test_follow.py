"""Follow mode: the moves and chance outcomes between two readings, worked out by hand from the
rules, and the follower's handling of a stream of frames (change, settle, read, explain)."""

from __future__ import annotations

import numpy as np
import pytest

from engines import GAMES
from engines.destructo.state import Click
from engines.g2048 import LEFT, Slide, Spawn
from engines.tenten.state import Deal, Place
from vision import NoBoardFound, Reading
from vision.follow import Follower, NoBoard, Played, Settling, Unchanged, Unexplained, explain

G2048, TENTEN, DESTRUCTO = GAMES["2048"], GAMES["1010"], GAMES["destructo"]
EMPTY_1010_ROW = ".........."


def test_2048_slide_and_spawn_between_two_readings():
    # L merges the top pair into a 4 (scoring 4) and moves the 4 to the wall; a 2 then appears
    # top right. R, U and D give other boards, so the line is unique.
    before = G2048.parse_board("2 2 . ./. . . ./. . . ./. . . 4")
    read = G2048.parse_board("score 4\n4 . . 2/. . . ./. . . ./4 . . .")
    found = explain(G2048, before, read)
    assert found.moves == (Slide(LEFT), Spawn(0, 3, 2))
    assert found.state.score == 4


def test_2048_same_board_needs_no_move_and_an_impossible_one_is_not_explained():
    before = G2048.parse_board("2 2 . ./. . . ./. . . ./. . . 4")
    assert explain(G2048, before, before).moves == ()
    # a 2048 tile cannot come from this board in three slides
    impossible = G2048.parse_board("2048 . . ./. . . ./. . . ./. . . .")
    assert explain(G2048, before, impossible) is None


def test_1010_placement_that_clears_a_row_then_the_deal_the_image_shows():
    # the single completes row 9 (cleared: 1 cell + 10 bonus); the tray is then empty, and the
    # next reading shows the new deal V i .
    before = TENTEN.parse_board("score 0 · tray . 0 0/" + "/".join([EMPTY_1010_ROW] * 9 + ["#########."]))
    read = TENTEN.parse_board("score 11 · tray V i ./" + "/".join([EMPTY_1010_ROW] * 10))
    found = explain(TENTEN, before, read)
    assert found.moves == (Place(".", 9, 9), Deal(("V", "i", ".")))
    assert found.state.score == 11


def test_1010_one_piece_of_three_placed():
    before = TENTEN.parse_board("score 0 · tray o . V/" + "/".join([EMPTY_1010_ROW] * 10))
    rows = [EMPTY_1010_ROW] * 10
    for row in range(5):
        rows[row] = "....." + "#" + "...."
    read = TENTEN.parse_board("score 5 · tray o . 0/" + "/".join(rows))
    found = explain(TENTEN, before, read)
    assert found.moves == (Place("V", 0, 5),)


def test_destructo_click_removes_the_group_and_the_column_falls():
    # the grey pair in column 0 goes; the blue under it stays at the bottom
    before = DESTRUCTO.parse_board("a b a/a b b/b a a")
    read = DESTRUCTO.parse_board(". b a/. b b/b a a")
    found = explain(DESTRUCTO, before, read)
    assert len(found.moves) == 1 and isinstance(found.moves[0], Click)
    assert (found.moves[0].row, found.moves[0].column) in {(0, 0), (1, 0)}
    assert found.state.board == read.board


# -- the follower on a stream of frames ------------------------------------------------------------
def _frame(seed: int) -> np.ndarray:
    return np.random.default_rng(seed).integers(0, 256, (120, 120, 3), dtype=np.uint8)


class _Screens:
    """A fake reader: each frame (told apart by its first pixel) stands for one board text."""

    def __init__(self, game, boards: dict[int, str | None], unsure: set[int] = frozenset()):
        self.game, self.boards, self.unsure = game, boards, unsure
        self.reads = 0

    def __call__(self, short_name, image, previous=None):
        self.reads += 1
        key = next(k for k in self.boards if np.array_equal(_frame(k), image))
        text = self.boards[key]
        if text is None:
            raise NoBoardFound("no 4 x 4 grid")
        confidence = np.ones((4, 4))
        if key in self.unsure:
            confidence[2, 1] = 0.3
        return Reading(short_name, self.game.parse_board(text), [], confidence)


def test_follower_reads_only_settled_changes_and_plays_the_explained_moves():
    start = G2048.parse_board("2 2 . ./. . . ./. . . ./. . . 4")
    screens = _Screens(G2048, {1: "2 2 . ./. . . ./. . . ./. . . 4",
                               2: "score 4\n4 . . 2/. . . ./. . . ./4 . . ."})
    follower = Follower(G2048, start, read=screens)
    assert isinstance(follower.feed(_frame(1)), Settling)       # first frame: wait for a second
    assert isinstance(follower.feed(_frame(1)), Unchanged)      # read: the same board as Kibitz's
    assert isinstance(follower.feed(_frame(1)), Unchanged) and screens.reads == 1
    assert isinstance(follower.feed(_frame(2)), Settling)       # mid-animation
    event = follower.feed(_frame(2))
    assert isinstance(event, Played) and event.moves == (Slide(LEFT), Spawn(0, 3, 2))
    assert follower.state.exponents == G2048.parse_board("4 . . 2/. . . ./. . . ./4 . . .").exponents
    assert isinstance(follower.feed(_frame(2)), Unchanged) and screens.reads == 2


def test_follower_flags_what_no_move_explains_and_keeps_its_position():
    start = G2048.parse_board("2 2 . ./. . . ./. . . ./. . . 4")
    screens = _Screens(G2048, {3: "2048 . . ./. . . ./. . . ./. . . .", 4: None, 5: "4 . . ./. . . ./. . . ./. . . 4"},
                       unsure={5})
    follower = Follower(G2048, start, read=screens)
    follower.feed(_frame(3))
    event = follower.feed(_frame(3))
    assert isinstance(event, Unexplained) and "no legal move" in event.reason
    assert follower.state == start
    follower.feed(_frame(4))
    event = follower.feed(_frame(4))
    assert isinstance(event, NoBoard) and event.reason == "no 4 x 4 grid"
    follower.feed(_frame(5))
    event = follower.feed(_frame(5))
    assert isinstance(event, Unexplained) and "(3,2)" in event.reason and follower.state == start


@pytest.mark.parametrize("noise", [0, 1])
def test_small_noise_does_not_count_as_a_change(noise):
    start = G2048.parse_board("2 2 . ./. . . ./. . . ./. . . 4")
    screens = _Screens(G2048, {1: "2 2 . ./. . . ./. . . ./. . . 4"})
    follower = Follower(G2048, start, read=screens)
    follower.feed(_frame(1))
    follower.feed(_frame(1))
    jitter = np.clip(_frame(1).astype(int) + noise, 0, 255).astype(np.uint8)
    assert isinstance(follower.feed(jitter), Unchanged) and screens.reads == 1


def test_lines_that_leave_the_same_board_are_reported_not_hidden():
    """From 2 in two opposite corners, several slide-and-spawn pairs leave the same board (every
    pair is enumerated with the engine's own moves and spawns): the explanation gives one and
    lists the others, so follow mode can say the capture cannot tell them apart."""
    before = G2048.parse_board("2 . . ./. . . ./. . . ./. . . 2")
    lines: dict = {}
    for slide in G2048.legal_moves(before):
        after = G2048.play(before, slide).state
        for spawn, _ in G2048.chance_outcomes(after):
            lines.setdefault(G2048.apply_chance(after, spawn).state, []).append((slide, spawn))
    shared = next(board for board, ways in lines.items() if len(ways) > 1)
    found = explain(G2048, before, shared)
    assert found is not None and found.state == shared
    every = {found.moves, *found.alternatives}
    assert every == {tuple(way) for way in lines[shared]} and len(every) > 1
    # a board only one pair leaves has no alternative
    single = next(board for board, ways in lines.items() if len(ways) == 1)
    assert explain(G2048, before, single).alternatives == ()


# -- lines that leave the same board, told apart by the frames caught while the tiles moved -------------
#: A 2048 board drawn the page's way: 500 px, 15 px gaps, at (20, 20) in a 540 px image.
_BOARD_LEFT, _GAP, _PITCH = 20, 15, 121.25
_BOARD_RGB, _EMPTY_RGB, _TWO_RGB = (187, 173, 160), (205, 193, 180), (238, 228, 218)


def _drawn_2048(tiles: list[tuple[float, ...]], key: int) -> np.ndarray:
    """The board with a 2 at each (row, column), fractional while it slides, or (row, column,
    scale) while it grows; pixel (0, 0) keys the frame for the fake reader."""
    import cv2

    image = np.full((540, 540, 3), 250, np.uint8)
    side = _PITCH - _GAP

    def square(row: float, column: float, rgb, scale: float = 1.0) -> None:
        x = _BOARD_LEFT + _GAP + column * _PITCH + (1 - scale) * side / 2
        y = _BOARD_LEFT + _GAP + row * _PITCH + (1 - scale) * side / 2
        cv2.rectangle(image, (round(x), round(y)), (round(x + scale * side) - 1, round(y + scale * side) - 1),
                      rgb[::-1], -1)

    cv2.rectangle(image, (_BOARD_LEFT, _BOARD_LEFT), (_BOARD_LEFT + 499, _BOARD_LEFT + 499), _BOARD_RGB[::-1], -1)
    for row in range(4):
        for column in range(4):
            square(row, column, _EMPTY_RGB)
    for tile in tiles:
        square(*tile[:2], _TWO_RGB, *tile[2:])
    image[0, 0] = key
    return image


class _DrawnScreens:
    """A fake reader for :func:`_drawn_2048` frames: frame k reads as board k, with the geometry
    the real reader reports."""

    def __init__(self, boards: dict[int, str]):
        self.boards = boards

    def __call__(self, short_name, image, previous=None):
        board = self.boards[int(image[0, 0, 0])]
        return Reading("2048", G2048.parse_board(board), [], np.ones((4, 4)),
                       {"board_xywh": [_BOARD_LEFT, _BOARD_LEFT, 500, 500], "gap_px": _GAP, "pitch_px": _PITCH})


_BEFORE = "2 . . ./. . . ./. . . ./. . . 2"
#: Worked by hand: sliding down takes the top-left 2 to the bottom-left corner, sliding left the
#: bottom-right 2; a 2 spawned where the other slide's tile stood leaves 2s in three corners either way.
_AFTER = "2 . . ./. . . ./. . . ./2 . . 2"
_DOWN_LINE = (Slide(2), Spawn(0, 0, 2))
_LEFT_LINE = (Slide(LEFT), Spawn(3, 3, 2))


def _followed(moving: list[list[tuple[float, float]]]) -> Played:
    screens = _DrawnScreens({1: _BEFORE, 2: _AFTER, **{10 + k: _BEFORE for k in range(len(moving))}})
    follower = Follower(G2048, G2048.parse_board(_BEFORE), read=screens)
    settled = _drawn_2048([(0, 0), (3, 3)], 1)
    follower.feed(settled)
    assert isinstance(follower.feed(settled), Unchanged)
    for k, tiles in enumerate(moving):
        assert isinstance(follower.feed(_drawn_2048(tiles, 10 + k)), (Settling, Unchanged))
    after = _drawn_2048([(0, 0), (3, 0), (3, 3)], 2)
    assert isinstance(follower.feed(after), Settling)
    event = follower.feed(after)
    assert isinstance(event, Played) and follower.state == G2048.parse_board(_AFTER)
    return event


def test_a_slide_seen_moving_decides_between_lines_that_leave_the_same_board():
    assert {_DOWN_LINE, _LEFT_LINE} <= {explain(G2048, G2048.parse_board(_BEFORE), G2048.parse_board(_AFTER)).moves,
                                        *explain(G2048, G2048.parse_board(_BEFORE), G2048.parse_board(_AFTER)).alternatives}
    down = _followed([[(0.5, 0), (3, 3)], [(1.5, 0), (3, 3)], [(2.5, 0), (3, 3)]])
    assert down.moves == _DOWN_LINE and down.seen_moving and _LEFT_LINE in down.alternatives
    left = _followed([[(0, 0), (3, 1.5)]])
    assert left.moves == _LEFT_LINE and left.seen_moving and _DOWN_LINE in left.alternatives


def test_a_new_tile_seen_growing_decides_when_the_slide_itself_was_missed():
    """The slide is over (the moved 2 already in the bottom-left corner) and the new 2 pops up:
    growing in the top-left corner it was spawned after sliding down, in the bottom-right after
    sliding left."""
    down = _followed([[(0, 0, 0.5), (3, 0), (3, 3)]])
    assert down.moves == _DOWN_LINE and down.seen_moving
    left = _followed([[(0, 0), (3, 0), (3, 3, 0.6)]])
    assert left.moves == _LEFT_LINE and left.seen_moving
    # grown past its cell (the pop): nothing told
    assert not _followed([[(0, 0), (3, 0), (3, 3, 1.15)]]).seen_moving


def test_no_frame_of_the_slide_leaves_the_lines_undecided():
    event = _followed([])
    assert not event.seen_moving and {event.moves, *event.alternatives} >= {_DOWN_LINE, _LEFT_LINE}
    # a tile caught on its cell (before it left) says nothing either
    event = _followed([[(0, 0), (3, 3)]])
    assert not event.seen_moving


def test_a_change_under_the_overlays_marks_is_not_looked_for_one_beside_them_is():
    """While the advice overlay covers part of the region, follow mode only asks whether the rest
    changed since the last reading: a frame with new pixels only under the marks is the same
    game; a frame changed beside them is a change (and, before any reading, everything is)."""
    start = G2048.parse_board("2 2 . ./. . . ./. . . ./. . . 4")
    screens = _Screens(G2048, {1: "2 2 . ./. . . ./. . . ./. . . 4", 3: "2048 . . ./. . . ./. . . ./. . . ."})
    follower = Follower(G2048, start, read=screens)
    covered = np.zeros((120, 120), bool)
    covered[40:80, 20:100] = True  # the marks: a band across the middle
    assert follower.changed_outside(_frame(1), covered)  # nothing read yet: nothing to compare with
    follower.feed(_frame(1))
    follower.feed(_frame(1))
    assert follower.reading is not None and follower.reading.state == start
    drawn_over = _frame(1).copy()
    drawn_over[40:80, 20:100] = (46, 160, 67)  # the overlay's green on the screen grabbed
    assert not follower.changed_outside(drawn_over, covered)
    moved = drawn_over.copy()
    moved[90:110, 0:30] = 255 - moved[90:110, 0:30]  # a tile changes below the marks
    assert follower.changed_outside(moved, covered)
    assert follower.changed_outside(_frame(1)[:100], covered)  # another size: not the same region
    # a board no move explains: the screen no longer shows the follower's position
    follower.feed(_frame(3))
    assert isinstance(follower.feed(_frame(3)), Unexplained)
    assert follower.reading is None and isinstance(follower.feed(_frame(3)), Unchanged)
    assert follower.reading is None  # still that board: still no reading of the follower's position
    follower.reset(start)
    assert follower.reading is None and follower.changed_outside(_frame(1), covered)


def test_through_the_overlays_tint_a_change_is_seen_under_its_solid_marks_it_is_not():
    """The overlay's first image (its tint and marks drawn over the game) becomes the reference;
    a piece appearing under the tint shows through it and is a change, one under a solid mark is
    not seen. A new showing of the overlay starts from a new reference."""
    start = G2048.parse_board("2 2 . ./. . . ./. . . ./. . . 4")
    follower = Follower(G2048, start, read=_Screens(G2048, {1: "2 2 . ./. . . ./. . . ./. . . 4"}))
    follower.feed(_frame(1))
    follower.feed(_frame(1))
    hidden = np.zeros((120, 120), bool)
    hidden[10:20, 10:110] = True  # a solid line
    drawn = hidden.copy()
    drawn[60:100, 20:60] = True  # and a tint
    with_overlay = _frame(1).copy()
    with_overlay[10:20, 10:110] = (46, 160, 67)
    tinted = with_overlay[60:100, 20:60].astype(int)
    with_overlay[60:100, 20:60] = (0.5 * tinted + 0.5 * np.array((46, 160, 67))).astype(np.uint8)
    assert not follower.changed_under_overlay(with_overlay, hidden, drawn, 1)  # the reference
    assert not follower.changed_under_overlay(with_overlay, hidden, drawn, 1)
    piece = with_overlay.copy()
    piece[65:95, 25:55] = (0.5 * np.array((250, 250, 250)) + 0.5 * np.array((46, 160, 67))).astype(np.uint8)
    assert follower.changed_under_overlay(piece, hidden, drawn, 1)  # seen through the tint
    under_line = with_overlay.copy()
    under_line[12:18, 40:60] = 0  # only under the solid line: cannot be seen, is not
    assert not follower.changed_under_overlay(under_line, hidden, drawn, 1)
    # a new showing: its first image is checked against the last reading outside all it draws
    assert not follower.changed_under_overlay(with_overlay, hidden, drawn, 2)
    moved = _frame(1).copy()
    moved[100:120, 0:40] = 255 - moved[100:120, 0:40]  # changed where nothing is drawn
    assert follower.changed_under_overlay(moved, hidden, drawn, 3)
