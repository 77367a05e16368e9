"""Destruct-o-Match's deterministic core (spec 1.1-1.5) on hand-worked boards and the real crops'
transcription."""

from __future__ import annotations

import json

import pytest

from engines.destructo.rules import (EXPLODE, INDESTRUCTIBLE, MULTIPLY, OVERKILL, WILD, Boulder, boulders_left, end_bonus, group_at,
                                     group_score, groups, level_over, remove, removal)

LETTERS = {"g": "green", "r": "grey", "b": "blue", "o": "orange", "y": "yellow"}


def board(*rows: str, powers: dict | None = None):
    """Rows of letters (g green, r grey, b blue, o orange, y yellow, . empty, X explode, W wild);
    ``powers`` puts a power-up on a coloured cell: {(row, column): power}."""
    powers = powers or {}
    cells = []
    for r, row in enumerate(rows):
        line = []
        for c, mark in enumerate(row):
            if mark == ".":
                line.append(None)
            elif mark == "X":
                line.append(Boulder(None, EXPLODE))
            elif mark == "W":
                line.append(Boulder(None, WILD))
            else:
                line.append(Boulder(LETTERS[mark], powers.get((r, c))))
        cells.append(tuple(line))
    return tuple(cells)


@pytest.mark.parametrize("size, points", [(2, 2), (3, 3), (4, 4), (5, 6), (6, 7), (7, 9), (8, 11), (9, 12),
                                          (10, 14), (11, 17), (12, 19), (13, 20), (14, 22), (15, 24), (16, 32),
                                          (17, 34), (18, 36), (40, 80)])
def test_group_scores_follow_the_html5_table(size, points):
    assert group_score(size) == points


@pytest.mark.parametrize("left, bonus", [(0, 100), (1, 90), (3, 70), (9, 10), (10, 0), (14, 0)])
def test_end_of_level_bonus(left, bonus):
    assert end_bonus(left) == bonus


def test_the_real_crop_before_and_after(reference_data):
    truth = json.loads((reference_data / "destructo" / "truth.json").read_text())
    colour = {name: Boulder(name) for name in ("grey", "green", "blue", "orange")}
    before = tuple(tuple(colour[name] for name in row) for row in truth["blocks_before.png"]["grid_rows_top_to_bottom"])
    after = tuple(tuple(None if name is None else colour[name] for name in row)
                  for row in truth["blocks_after.png"]["grid_rows_top_to_bottom"])
    selected = {tuple(cell) for cell in truth["blocks_during.png"]["selected_cells"]}
    assert group_at(before, 2, 3) == selected
    cells, points = removal(before, 3, 4)
    assert cells == selected and points == 4
    assert remove(before, cells) == after  # straight down, two empty cells on top, no sideways shift


def test_boulders_fall_straight_down_and_columns_shift_only_when_asked():
    start = board("ro", "gg", "gg")
    cells, points = removal(start, 1, 0)
    assert points == 4
    assert remove(start, cells) == board("..", "..", "ro")
    column = board("rg", "rg")
    assert remove(column, removal(column, 0, 0)[0]) == board(".g", ".g")
    assert remove(column, removal(column, 0, 0)[0], shift_columns=True) == board("g.", "g.")


def test_explode_takes_its_3x3_whatever_the_colours_and_scores_nothing():
    start = board("rgbo", "gXrb", "orgy", "bbbb")
    cells, points = removal(start, 1, 1)
    assert points == 0
    assert cells == {(r, c) for r in range(3) for c in range(3)}
    # columns 0-2 keep only their bottom blue; column 3 is untouched
    assert remove(start, cells) == board("...o", "...b", "...y", "bbbb")
    corner = board("Xg", "gr")
    assert removal(corner, 0, 0)[0] == {(0, 0), (0, 1), (1, 0), (1, 1)}


def test_two_explodes_do_not_make_a_group_and_keep_the_level_going():
    start = board("Xg", "Xr")
    assert groups(start) == []
    assert not level_over(start)
    assert level_over(board("gr", "rg"))


def test_multiplier_triples_its_group():
    start = board("ggg", "rbr", powers={(0, 1): MULTIPLY})
    cells, points = removal(start, 0, 0)
    assert cells == {(0, 0), (0, 1), (0, 2)} and points == 3 * 3


def test_overkill_removes_its_whole_colour_but_scores_only_its_group():
    start = board("ggr", "rbr", "grg", powers={(0, 0): OVERKILL})
    cells, points = removal(start, 0, 1)
    assert points == 2  # the group of two
    assert cells == {(0, 0), (0, 1), (2, 0), (2, 2)}
    assert boulders_left(remove(start, cells)) == 5


def test_a_wild_joins_either_colour_and_belongs_to_both_groups():
    start = board("gWr", "bbb")  # the Wild touches green, grey and the blue row below
    assert group_at(start, 0, 0) == {(0, 0), (0, 1)}
    assert group_at(start, 0, 2) == {(0, 1), (0, 2)}
    assert group_at(start, 1, 0) == {(0, 1), (1, 0), (1, 1), (1, 2)}
    assert group_at(start, 0, 1) == frozenset()  # a click on the Wild alone picks no colour
    assert len(groups(start)) == 3


def test_a_morph_is_planned_as_a_wild():
    from engines.destructo.notation import parse_board

    start = parse_board("g Z a\nb b b")  # spec 1.5: the Morph joins whatever colour is clicked
    assert group_at(start, 0, 0) == {(0, 0), (0, 1)}
    assert group_at(start, 0, 2) == {(0, 1), (0, 2)}
    assert group_at(start, 1, 1) == {(0, 1), (1, 0), (1, 1), (1, 2)}
    assert removal(start, 0, 2) == ({(0, 1), (0, 2)}, 2)


def test_a_timer_goes_with_its_group_like_any_boulder_of_its_colour():
    from engines.destructo.notation import parse_board

    start = parse_board("gT g a\nb a a")  # the player clears the Timer first (spec 1.4)
    cells, points = removal(start, 0, 1)
    assert cells == {(0, 0), (0, 1)} and points == 2
    assert remove(start, cells) == parse_board(". . a\nb a a")


def test_a_lonely_boulder_is_no_move():
    with pytest.raises(ValueError, match="no neighbour of its colour"):
        removal(board("gr", "rg"), 0, 0)
    with pytest.raises(ValueError, match="holds no boulder"):
        removal(board("g.", "gg"), 0, 1)


def test_an_indestructible_boulder_goes_only_by_explode_and_counts_as_left():
    from engines.destructo.notation import parse_board
    from engines.destructo.fast import removal as compiled_removal

    start = parse_board("g I g\ng X a\na a a")
    assert start[0][1] == Boulder(None, INDESTRUCTIBLE)
    with pytest.raises(ValueError, match="Indestructible: only an Explode removes it"):
        removal(start, 0, 1)
    assert group_at(start, 0, 0) == {(0, 0), (1, 0)}  # the greens do not join through it
    cells, points = removal(start, 1, 1)  # the Explode takes it with the rest of its 3x3
    assert (0, 1) in cells and points == 0
    assert compiled_removal(start, 0, 1)[1] == -1 and compiled_removal(start, 1, 1)[0] == cells
    stuck = parse_board("I g\na I")
    assert level_over(stuck) and boulders_left(stuck) == 4


def test_board_text_round_trips_every_kind_of_cell():
    from engines.destructo.notation import board_text, parse_board

    text = "g  g  a  bM\no  X  a  aO\nyT W  Z  q\nI  gU gF gS"
    parsed = parse_board(text)
    assert parsed[0][3] == Boulder("blue", MULTIPLY) and parsed[1][1] == Boulder(None, EXPLODE)
    assert parsed[2][0].power == "timer" and parsed[2][3] == Boulder("q")  # an unnamed colour keeps its letter
    assert parse_board(board_text(parsed)) == parsed


@pytest.mark.parametrize("text, message", [
    ("g g\ng", "line 2: every row has 2 cells"),
    ("g g\ng gQ", "line 2, column 3: token 'gQ': after the colour comes a power-up letter"),
    ("g G", "line 1, column 3: token 'G': a cell is a colour letter"),
    ("g g\n. g", "line 2, column 1: column 1 has a boulder over an empty cell"),
])
def test_board_errors_name_the_place(text, message):
    from engines.destructo.notation import parse_board
    from engines.errors import NotationError

    with pytest.raises(NotationError, match=message):
        parse_board(text)
