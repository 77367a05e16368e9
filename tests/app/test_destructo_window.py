"""The main window with the Destruct-o-Match board, driven like a player: groups destroyed by
click and by the candidates' digits, the chance steps drawn with N (a level's board, a Shuffle's
colours, a Fill row) or entered by hand (a Fill row), the banked Shuffle by key and by its icon,
the advisor's ranked clicks in the panel and on the board, the move tree's keys, and the paint.

Expected boards and scores are worked out by hand from the rules (shared/specs/destructo.md 1.1:
4-connected groups of two or more, boulders fall straight down; 1.2: s(n) = 2 3 4 6 7 9 11 12 14
... for n = 2 3 4 5 6 7 8 9 10, 2n from 16 on, and an end bonus of max(0, 100 - 10 * left)),
never from the program.
"""

from __future__ import annotations

import numpy as np
import pytest
from PySide6.QtCore import QEvent, QPoint, QPointF, Qt
from PySide6.QtGui import QColor, QMouseEvent
from PySide6.QtWidgets import QApplication

from app.gui.games.destructo import advice
from app.gui.games.destructo.board import DestructoBoard
from app.gui.games.destructo.painting import EMPTY, GROUND, STONES
from app.gui.games.destructo.text import describe, summarize_turn
from engines.destructo import GAME, Click, FillRow, NewBoard, State, UseShuffle
from engines.destructo.notation import board_text, parse_board
from engines.destructo.reference import Banked, GameOver, LevelCleared, Removed
from engines.destructo.rules import Boulder

LEFT_BUTTON, RIGHT_BUTTON = Qt.MouseButton.LeftButton, Qt.MouseButton.RightButton
RANK_TIMEOUT = 30_000  # the first ranking may compile the advisor's kernels

#: Two green blocks of 8 kept apart by a blue column of 4, a lone green on top of it. Destroying
#: the blue (s(4) = 4) drops the lone green between the blocks: one group of 17 (2 x 17 = 34) that
#: clears the board (bonus 100), 138 in all. Taking a green block first gives at most
#: 11 + 4 + s(9) = 12 + 100 = 127.
BRIDGE = """\
. . g . .
g g b g g
g g b g g
g g b g g
g g b g g"""
LEFT_BLOCK = frozenset((r, c) for r in range(1, 5) for c in (0, 1))
RIGHT_BLOCK = frozenset((r, c) for r in range(1, 5) for c in (3, 4))
BLUE = frozenset((r, 2) for r in range(1, 5))


@pytest.fixture
def window(make_window):
    window = make_window()
    window.set_game("destructo")
    window.board.setFocus()
    return window


def click_cell(qtbot, window, row: int, column: int, button=LEFT_BUTTON) -> None:
    qtbot.mouseClick(window.board, button, pos=window.board.cell_center(row, column))


def key(qtbot, window, key, text: str = "") -> None:
    if text:
        qtbot.keyClicks(window.board, text)
    else:
        qtbot.keyClick(window.board, key)


def hover(board, point: QPoint) -> None:
    """A mouse move sent to the board itself (the offscreen cursor may already rest there)."""
    event = QMouseEvent(QEvent.Type.MouseMove, QPointF(point), board.mapToGlobal(QPointF(point)),
                        Qt.MouseButton.NoButton, Qt.MouseButton.NoButton, Qt.KeyboardModifier.NoModifier)
    QApplication.sendEvent(board, event)


def board_rows(state: State) -> list[str]:
    return board_text(state.board).splitlines()


def text_rows(text: str) -> list[str]:
    return board_text(parse_board(text)).splitlines()


def test_opens_with_the_first_levels_board_due(window):
    assert window.windowTitle() == "Kibitz — Destruct-o-Match"
    assert isinstance(window.board, DestructoBoard)
    assert window.position_text() == "level 1/10 · score 0 · level 1's board is due"
    assert window.board.board_size() == (12, 14)  # spec 1.3: level 1 is 12 x 14
    assert window.board.header_texts() == (
        "Level 1/10", "Score 0", "Level 1's board is due: paste it (Ctrl+V) or press N to deal one")
    assert window.advisor_panel.headers()[1:] == ["Move", "Line value", "Loss", "Boulders", "Points", "Line"]
    assert window.advisor_panel.candidate_count() == 0


def test_n_deals_the_levels_board_from_a_seeded_generator(qtbot, window):
    window.board.rng = np.random.default_rng(3)
    key(qtbot, window, Qt.Key.Key_N)
    move = window.tree.current.move
    assert isinstance(move, NewBoard)
    state = window.state
    assert (state.level, state.due, state.rows, state.columns) == (1, None, 12, 14)
    colours = {cell.colour for row in state.board for cell in row if cell.colour is not None}
    assert colours <= {"green", "grey", "blue", "orange"}  # level 1's four colours
    key(qtbot, window, Qt.Key.Key_N)  # nothing is due now: nothing happens
    assert window.tree.current.move_number == 1
    window.board.rng = np.random.default_rng(3)  # the same seed deals the same board
    key(qtbot, window, Qt.Key.Key_Left)
    key(qtbot, window, Qt.Key.Key_N)
    assert window.tree.current.move == move and window.tree.current.variation_index == 0


def test_groups_are_destroyed_by_click_wherever_they_are_clicked(qtbot, window):
    assert window.paste_position(BRIDGE)
    click_cell(qtbot, window, 0, 0)  # an empty cell: nothing
    assert window.tree.current.is_root and window.message_text() == "Position pasted (a new analysis)"
    click_cell(qtbot, window, 0, 2)  # the lone green: no group, the engine says why
    assert window.tree.current.is_root
    assert window.message_text().startswith("Cannot play 0,2:")

    click_cell(qtbot, window, 4, 2)  # the bottom of the blue column: the group's move is its top cell
    assert window.tree.current.move == Click(1, 2)
    assert board_rows(window.state) == text_rows(". . . . .\ng g . g g\ng g . g g\ng g . g g\ng g g g g")
    assert window.state.score == 4
    assert window.message_text() == "4 points for 4 boulders"
    assert window.position_text() == "level 1/10 · score 4 · 1 group · 17 boulders"

    click_cell(qtbot, window, 4, 2)  # the green that fell: the group of 17, written at its first cell
    assert window.tree.current.move == Click(1, 0)
    assert window.state.score == 4 + 34 + 100
    assert window.message_text() == "34 points for 17 boulders · level 1 cleared: 0 left, bonus 100"
    assert window.position_text() == "level 2/10 · score 138 · level 2's board is due"
    assert window.state.board == () and window.board.board_size() == (12, 14)


def test_the_advisor_ranks_the_clicks_and_the_board_marks_the_best(qtbot, window):
    assert window.paste_position(BRIDGE)
    qtbot.waitUntil(lambda: not window.rank_pending(), timeout=RANK_TIMEOUT)
    panel = window.advisor_panel
    assert panel.moves() == [Click(1, 2), Click(1, 0), Click(1, 3)]
    boulders, points = panel.headers().index("Boulders"), panel.headers().index("Points")
    assert [panel.row_texts(0)[i] for i in (1, boulders, points)] == ["1,2", "4", "4"]
    assert [panel.row_texts(1)[i] for i in (1, boulders, points)] == ["1,0", "8", "11"]
    assert panel.row_color(0) == advice.BEST_RGB and panel.row_color(1) is None
    assert panel.candidates()[0].score == 138  # the whole level: 4 + 34 + bonus 100

    board = window.board
    overlay = board.overlay()
    assert overlay.best == BLUE
    assert overlay.numbered == ((1, (1, 2)), (2, (1, 0)), (3, (1, 3)))
    board.preview_move(Click(1, 3))  # the panel points at a row
    assert board.overlay().previewed == RIGHT_BLOCK
    board.preview_move(None)
    hover(board, board.cell_center(3, 1))
    qtbot.waitUntil(lambda: board.overlay().hovered == LEFT_BLOCK, timeout=1000)
    assert board.overlay().hovered_move == Click(1, 0)
    assert board.hover_text() == "8 boulders: 11 points · #2 of 3, line 127"
    hover(board, board.cell_center(0, 2))
    qtbot.waitUntil(lambda: board.hovered_cell == (0, 2), timeout=1000)
    assert board.overlay().hovered == frozenset()
    assert board.hover_text() == "Green boulder: no neighbour of its colour, not a group"

    board.set_advice_visible(False)
    assert board.overlay().best == frozenset() and board.overlay().numbered == ()
    board.set_advice_visible(True)
    key(qtbot, window, Qt.Key.Key_2)  # the window's digit: candidate 2, the left block
    assert window.tree.current.move == Click(1, 0) and window.state.score == 11
    qtbot.waitUntil(lambda: not window.rank_pending(), timeout=RANK_TIMEOUT)
    key(qtbot, window, Qt.Key.Key_1)  # then the blue: the lone green joins the right block
    assert window.tree.current.move == Click(1, 2) and window.state.score == 15
    assert board_rows(window.state) == text_rows(". . . . .\n. . . g g\n. . . g g\n. . . g g\n. . g g g")


def test_the_banked_shuffle_by_key_and_by_its_icon_and_n_draws_its_colours(qtbot, window):
    assert window.paste_position("level 4 · score 300 · shuffle 1 · undo 1\n" + BRIDGE)
    board = window.board
    assert board.header_texts()[:2] == ("Level 4/10", "Score 300")
    assert window.position_text() == "level 4/10 · score 300 · 3 groups · 21 boulders · Shuffle and Undo banked"
    key(qtbot, window, Qt.Key.Key_S)
    assert window.tree.current.move == UseShuffle()
    assert (window.state.due, window.state.shuffles, window.state.undos) == ("shuffle", 0, 1)
    assert window.position_text() == "level 4/10 · score 300 · the Shuffle's new colours are due · Undo banked"
    assert board.header_texts()[2].startswith("Shuffle: paste the board")
    key(qtbot, window, Qt.Key.Key_S)  # none banked any more: nothing
    assert window.tree.current.move_number == 1

    board.rng = np.random.default_rng(11)
    key(qtbot, window, Qt.Key.Key_N)
    assert isinstance(window.tree.current.move, NewBoard)
    after = window.state
    assert after.due is None and after.shuffles == 0
    # a Shuffle re-colours: the same cells hold boulders, from the colours on the board
    assert [[cell is None for cell in row] for row in after.board] == [[cell is None for cell in row]
                                                                      for row in parse_board(BRIDGE)]
    assert {cell.colour for row in after.board for cell in row if cell} <= {"green", "blue"}

    key(qtbot, window, Qt.Key.Key_Home)  # the icon in the header spends it too
    qtbot.mouseClick(board, LEFT_BUTTON, pos=board.item_center("shuffle"))
    assert window.tree.current.move == UseShuffle() and window.tree.current.move_number == 1


def test_a_board_pasted_while_one_is_due_is_played_as_that_chance_step(qtbot, window):
    assert window.paste_position("level 4 · score 300 · shuffle 1 · undo 0\n" + BRIDGE)
    key(qtbot, window, Qt.Key.Key_S)  # the Shuffle's colours are due
    # the real game's board after the Shuffle, read off the screen: same shape, new colours
    shuffled = ". . b . .\ng b b g g\ng g b b g\nb g b g g\ng g b g b"
    assert window.paste_position(shuffled)
    assert window.tree.current.move == NewBoard(parse_board(shuffled)) and window.tree.current.move_number == 2
    assert window.state.due is None and board_rows(window.state) == text_rows(shuffled)
    key(qtbot, window, Qt.Key.Key_Left)  # back to the Shuffle: a board of another shape is no
    assert window.paste_position("g g/b b")  # Shuffle of this one, so it is a new position
    assert window.tree.current.is_root and window.state.board == parse_board("g g\nb b")
    window.new_game()  # level 1's board due: a full board pasted is that board, the first move
    level_board = "g a b o g a\na a b b o o\ng o o b a g"
    assert window.paste_position(level_board)
    assert window.tree.current.move == NewBoard(parse_board(level_board)) and window.tree.current.move_number == 1
    window.new_game()  # a whole position (with its header) is always a new analysis
    assert window.paste_position("level 2 · score 10 · shuffle 0 · undo 0 / g g / b b")
    assert window.tree.current.is_root and window.state.level == 2


def test_u_spends_the_banked_undo_and_the_points_stay(qtbot, window):
    assert window.paste_position("level 4 · score 300 · shuffle 0 · undo 1\n" + BRIDGE)
    board = window.board
    key(qtbot, window, Qt.Key.Key_U)  # no click to take back yet: nothing
    assert window.tree.current.is_root
    click_cell(qtbot, window, 2, 3)  # the right block: s(8) = 11
    assert window.state.score == 311
    assert "U: Undo" in board.header_texts()[2]
    # the advisor ranks the Undo by the board it returns to: blue 4, then the 17 greens 34, bonus
    # 100 = 138; playing on, the best is blue 4, the lone green joins the left block (9: 12),
    # bonus 100 = 116
    qtbot.waitUntil(lambda: not window.rank_pending(), timeout=RANK_TIMEOUT)
    panel = window.advisor_panel
    assert GAME.move_text(panel.moves()[0]) == "undo" and panel.row_texts(0)[1] == "undo"
    assert [c.score for c in panel.candidates()[:2]] == [138, 116]
    assert "22 more than playing on" in panel.candidates()[0].explanation
    key(qtbot, window, Qt.Key.Key_U)
    assert GAME.move_text(window.tree.current.move) == "undo"
    # spec 1.4: the board comes back, the HTML5 game keeps the undone click's points
    assert board_rows(window.state) == text_rows(BRIDGE)
    assert (window.state.score, window.state.undos) == (311, 0)
    assert "Undo" in window.message_text()


def test_a_fill_row_is_entered_by_typing_and_clicking_or_drawn_with_n(qtbot, window):
    assert window.paste_position("level 2 · score 50 · shuffle 0 · undo 0\n.  .  .\ngF g  a\na  b  a")
    board = window.board
    click_cell(qtbot, window, 1, 1)  # the Fill's group: 2 points, then a Fill row is due
    assert window.tree.current.move == Click(1, 0)
    assert window.state.score == 52 and window.state.due == "fill"
    assert window.message_text() == "2 points for 2 boulders"
    # the boulders land on the lowest empty cell of each column: rows 1, 1 and 0
    assert board.overlay().ghosts == (((1, 0), None), ((1, 1), None), ((0, 2), None))
    assert board.header_texts()[2].startswith("Fill row due: 3 slots to go")

    key(qtbot, window, None, "ba")
    assert board.pending_fill == {0: "blue", 1: "grey"}
    key(qtbot, window, Qt.Key.Key_Backspace)
    assert board.pending_fill == {0: "blue"}
    click_cell(qtbot, window, 1, 1)  # a click on a slot: level 2's first colour, green
    click_cell(qtbot, window, 1, 1)  # then grey
    click_cell(qtbot, window, 1, 1, RIGHT_BUTTON)  # and back to green
    assert board.pending_fill == {0: "blue", 1: "green"}
    key(qtbot, window, Qt.Key.Key_Return)  # a slot is still empty: nothing
    assert window.tree.current.move_number == 1
    key(qtbot, window, None, "g")
    key(qtbot, window, Qt.Key.Key_Return)
    assert window.tree.current.move == FillRow((Boulder("blue"), Boulder("green"), Boulder("green")))
    assert board_rows(window.state) == text_rows(".  .  g\nb  g  a\na  b  a")
    assert window.state.due is None and window.state.score == 52

    key(qtbot, window, Qt.Key.Key_Left)  # back to the Fill due: N draws one, a variation
    board.rng = np.random.default_rng(2)
    key(qtbot, window, Qt.Key.Key_N)
    move = window.tree.current.move
    assert isinstance(move, FillRow) and window.tree.current.variation_index == 1
    assert all(boulder is not None and boulder.colour in {"grey", "blue"} for boulder in move.boulders)


def test_tree_keys_walk_back_forward_and_branch(qtbot, window):
    assert window.paste_position(BRIDGE)
    click_cell(qtbot, window, 2, 0)  # the left block: s(8) = 11
    click_cell(qtbot, window, 2, 2)  # the blue: 4
    after_two = window.state
    assert after_two.score == 15
    key(qtbot, window, Qt.Key.Key_Left)
    assert window.state.score == 11
    key(qtbot, window, Qt.Key.Key_Left)
    assert window.tree.current.is_root
    key(qtbot, window, Qt.Key.Key_Right)
    key(qtbot, window, Qt.Key.Key_Right)
    assert window.state == after_two
    key(qtbot, window, Qt.Key.Key_Home)
    click_cell(qtbot, window, 3, 2)  # the blue first: a variation of the first move
    assert window.tree.current.move == Click(1, 2) and window.tree.current.variation_index == 1
    assert window.state.score == 4
    key(qtbot, window, Qt.Key.Key_Up)  # the previous variation: the left block
    assert window.tree.current.move == Click(1, 0) and window.tree.current.variation_index == 0
    key(qtbot, window, Qt.Key.Key_End)
    assert window.state == after_two
    key(qtbot, window, Qt.Key.Key_Left)
    key(qtbot, window, Qt.Key.Key_Down)  # the next variation: the blue
    assert window.tree.current.move == Click(1, 2)
    key(qtbot, window, Qt.Key.Key_Home)
    assert window.tree.current.is_root


def test_the_last_level_ends_the_game_with_its_score(qtbot, window):
    assert window.paste_position("level 10 · score 2400 · shuffle 0 · undo 0\ng g a")
    click_cell(qtbot, window, 0, 1)  # 2 points; the grey is left: bonus 100 - 10 = 90
    assert window.state.finished and window.state.score == 2492
    assert window.message_text() == ("2 points for 2 boulders · level 10 cleared: 1 left, bonus 90 · "
                                     "game over: 2,492 points")
    assert window.position_text() == "game over · final score 2,492"
    assert window.board.header_texts()[2] == "Game over: final score 2,492"
    assert window.advisor_panel.candidate_count() == 0


def test_the_line_column_gives_a_long_lines_length_and_first_clicks():
    short = type("Candidate", (), {"principal_variation": (Click(1, 2), Click(1, 0))})()
    long = type("Candidate", (), {"principal_variation": tuple(Click(r, 0) for r in range(10))})()
    assert advice.line_text(short) == "1,2 → 1,0"
    assert advice.line_text(long) == "10 clicks: 0,0 → 1,0 …"
    assert advice.full_line(long) == "0,0 → 1,0 → 2,0 → 3,0 → 4,0 → 5,0 → 6,0 → 7,0 →\n8,0 → 9,0"


def test_turn_summaries_and_status_words():
    assert summarize_turn((Removed(frozenset({(0, 0), (0, 1), (1, 1)}), 9), Banked("shuffle"))) == (
        "9 points for 3 boulders · Shuffle banked")
    assert summarize_turn((Removed(frozenset((r, c) for r in range(3) for c in range(3)), 0),)) == (
        "Explode: 9 boulders, no points")
    assert summarize_turn((LevelCleared(3, 2, 80),)) == "level 3 cleared: 2 left, bonus 80"
    assert summarize_turn((GameOver(2433),)) == "game over: 2,433 points"
    explode_board = State(parse_board("g g X\na b b"), level=5, score=7, undos=1, due=None)
    assert describe(GAME, explode_board) == "level 5/10 · score 7 · 2 groups · 1 Explode · 6 boulders · Undo banked"
    assert describe(GAME, State(level=7, score=900, due="fill", board=parse_board(". g\na b"))) == (
        "level 7/10 · score 900 · a Fill row is due")


def test_the_shortcuts_window_lists_the_boards_keys(window):
    dialog = window.show_shortcuts()
    listed = [dialog.table.topLevelItem(i).text(0) for i in range(dialog.table.topLevelItemCount())]
    dialog.close()  # left open, it would sit over the next test's board
    assert {"S", "U", "N", "Click a group or an Explode", "Hover a group"} <= set(listed)


def _patch_colour(image, rect) -> tuple[float, float, float]:
    """The median colour of a boulder's central patch (its texture has cracks and specks)."""
    xs = range(round(rect.center().x() - rect.width() / 5), round(rect.center().x() + rect.width() / 5))
    ys = range(round(rect.center().y() - rect.height() / 5), round(rect.center().y() + rect.height() / 5))
    pixels = [image.pixelColor(x, y) for x in xs for y in ys]
    return tuple(float(np.median([getattr(p, channel)() for p in pixels])) for channel in ("red", "green", "blue"))


def _close(found, colour: QColor, tolerance: float) -> bool:
    return all(abs(a - b) <= tolerance for a, b in zip(found, (colour.red(), colour.green(), colour.blue())))


@pytest.mark.parametrize("size", [(260, 240), (700, 520), (1100, 600)])
def test_the_board_paints_stones_in_the_palette_at_any_size(qtbot, size):
    board = DestructoBoard(GAME)
    qtbot.addWidget(board)
    board.resize(*size)
    names = ("green", "grey", "blue", "orange", "yellow", "black", "red", "purple", "white")
    text = ". . . . . . . . .\nX W Z gO bM aT oF aS gU\ng a b o y k r p w"
    state = State(parse_board(text), level=10, due=None)
    board.show_position(state)
    layout = board.board_layout()
    cell = layout.cell_rect(2, 0)
    assert abs(cell.width() / cell.height() - 69 / 45) < 0.1  # the sprite's proportions (spec 1.1)
    assert layout.frame_rect().right() <= size[0] and layout.header_rect().top() >= 0
    image = board.grab().toImage()
    for column, name in enumerate(names):
        assert _close(_patch_colour(image, layout.cell_rect(2, column)), STONES[name], 40), name
    assert _close(_patch_colour(image, layout.cell_rect(0, 4)), EMPTY, 20)  # an empty cell
    gap = QPoint(round(layout.x_edge(1)), round(layout.cell_rect(2, 0).center().y()))
    assert _close(tuple(float(v) for v in image.pixelColor(gap).getRgb()[:3]), GROUND, 30)


def test_the_level_due_and_game_over_screens_paint(qtbot):
    board = DestructoBoard(GAME)
    qtbot.addWidget(board)
    board.resize(600, 450)
    board.show_position(State(level=10, score=2300))  # level 10's board due: 16 x 18 (spec 1.3)
    assert board.board_size() == (16, 18)
    assert not board.grab().isNull()
    board.show_position(State(parse_board("a g"), level=10, score=2687, due=None, finished=True))
    assert board.header_texts()[2] == "Game over: final score 2,687"
    assert not board.grab().isNull()


def test_an_indestructible_boulder_is_black_and_only_an_explode_takes_it(qtbot, window):
    assert window.paste_position("level 7 · score 900 · shuffle 0 · undo 0\ng I g\ng X a\na a a")
    board = window.board
    image = board.grab().toImage()
    dark = _patch_colour(image, board.board_layout().cell_rect(0, 1))
    assert max(dark) < 90  # black stone (the skull's bone is only its middle)
    click_cell(qtbot, window, 0, 1)
    assert window.tree.current.is_root and "Indestructible: only an Explode removes it" in window.message_text()
    click_cell(qtbot, window, 1, 1)  # the Explode's 3x3 is the whole board: no points, nothing left, bonus 100
    assert window.tree.current.move == Click(1, 1) and window.state.score == 1000 and window.state.level == 8


def test_the_banked_items_say_what_they_do_in_their_tooltips(qtbot, window):
    from PySide6.QtGui import QHelpEvent
    from PySide6.QtWidgets import QToolTip

    assert window.paste_position("level 4 · score 300 · shuffle 1 · undo 0\n" + BRIDGE)
    board = window.board
    point = board.item_center("shuffle")
    QApplication.sendEvent(board, QHelpEvent(QEvent.Type.ToolTip, point, board.mapToGlobal(point)))
    try:
        assert QToolTip.text() == "Shuffle banked: click or press S to use it"
    finally:
        QToolTip.hideText()  # a tooltip left up would sit under the next test's mouse
    assert board.tooltip_text(QPointF(board.item_center("undo"))).startswith("Undo: none banked")
