"""The 1010! board's drawing of the advisor's plan when a placement clears a line before the next
one: the later ghost is drawn in the cells the clear frees, as the board will be then.

Expected cells are worked out by hand from the rules (shared/specs/1010.md 1.2: a full row or
column vanishes right after the placement that completes it)."""

from __future__ import annotations

import pytest

from advisors.tenten.planner import Plan, TenTenCandidate
from app.gui.games.tenten.board import TenTenBoard
from engines.tenten import GAME, Place, State

EMPTY_ROW = "." * 10


@pytest.fixture
def board(qtbot):
    board = TenTenBoard(GAME)
    qtbot.addWidget(board)
    board.resize(500, 700)
    board.show()
    qtbot.waitExposed(board)
    return board


def show_plan(board, rows: list[str], tray: tuple[str, str, str], plan: tuple[Place, ...]) -> State:
    state = State.from_rows(rows, tray=tray)
    candidate = TenTenCandidate(plan[0], 1.0, 0.0, "", principal_variation=plan, plan=Plan(plan, 1.0, True, state))
    board.show_position(state)
    board.show_advice([candidate])
    return state


def test_a_ghost_after_a_line_clear_takes_the_freed_cells(board):
    # Row 0 holds five cells (columns 0-4). Piece 1, the 5-bar H at (0,5), fills columns 5-9:
    # row 0 is full and clears at once. Piece 2, the 2-bar - at (0,8), then goes into (0,8) and
    # (0,9), cells ghost 1 covers now. Piece 3, a single at (5,5), touches nothing.
    show_plan(board, ["#####....."] + [EMPTY_ROW] * 9, ("H", "-", "."),
              (Place("H", 0, 5), Place("-", 0, 8), Place(".", 5, 5)))
    drawing = board.plan_drawing()
    assert drawing.clears == ((1, "row", 0),)
    assert drawing.vanishing == {(0, column) for column in range(5)}
    assert drawing.ghosts[(0, 8)] == (1, 2) and drawing.ghosts[(0, 9)] == (1, 2)
    assert drawing.ghosts[(0, 5)] == (1,) and drawing.ghosts[(5, 5)] == (3,)
    assert drawing.reused == {1: (), 2: ((0, 8), (0, 9)), 3: ()}
    # each number in a cell of its own: 1 on (0,5), 2 on (0,8), 3 on (5,5)
    assert drawing.labels == {1: (0, 5), 2: (0, 8), 3: (5, 5)}
    # On screen the middle of (0,8) is the 2-bar's yellow (#d5a42d) drawn inset over ghost 1's
    # red, not a faint mix of the two.
    image = board.grab().toImage()
    layout = board.board_layout()
    point = layout.cell_rect(0, 8).center()
    off = round(0.22 * layout.pitch)  # inside the inset, below and right of the digit
    color = image.pixelColor(round(point.x()) + off, round(point.y()) + off)
    assert color.green() > 120 and color.green() > 2 * color.blue(), color.getRgb()
    # The tooltip of that cell says the order.
    assert board.tooltip_text(board.cell_center(0, 8)) == (
        "plan piece 1: H@0,5, completes row 0 (cleared before the next piece)\n"
        "plan piece 2: -@0,8; this cell is free only once piece 1 has cleared row 0")


def test_a_ghost_in_a_filled_cell_that_a_column_clear_frees(board):
    # Column 9 is full but its top cell; the single at (0,9) completes it. The vertical 3-bar I
    # then goes at (7,9): cells (7,9), (8,9), (9,9), filled now, free after the clear.
    rows = [EMPTY_ROW] + ["." * 9 + "#"] * 9
    show_plan(board, rows, (".", "I", "o"), (Place(".", 0, 9), Place("I", 7, 9), Place("o", 0, 0)))
    drawing = board.plan_drawing()
    assert drawing.clears == ((1, "column", 9),)
    assert drawing.vanishing == {(row, 9) for row in range(1, 10)}
    assert drawing.reused[2] == ((7, 9), (8, 9), (9, 9))
    assert drawing.labels[2] == (7, 9) and drawing.ghosts[(7, 9)] == (2,)


def test_a_plan_without_clears_draws_plain_ghosts(board):
    show_plan(board, [EMPTY_ROW] * 10, ("o", ".", "i"), (Place("o", 4, 4), Place(".", 0, 0), Place("i", 8, 9)))
    drawing = board.plan_drawing()
    assert drawing.clears == () and drawing.vanishing == frozenset()
    assert drawing.reused == {1: (), 2: (), 3: ()}
    assert drawing.labels == {1: (4, 4), 2: (0, 0), 3: (8, 9)}
    assert drawing.ghosts[(5, 5)] == (1,)


@pytest.mark.parametrize("width", [239, 280, 336, 420, 600])
def test_the_deal_prompt_fits_the_tray_at_every_width(qtbot, width):
    # a narrow board (the compact window, a squeezed panel) cut "click three pieces below" at both
    # ends; the line now wraps and shrinks inside the tray, whose width is the board's
    from app.gui.games.tenten.board import PROMPT_FLAGS
    from app.gui.games.tenten.layout import TenTenLayout
    from PySide6.QtGui import QFontMetricsF

    board = TenTenBoard(GAME)
    qtbot.addWidget(board)
    board.resize(width, round(width * 1.6))
    board.show_position(GAME.initial_state())  # a deal is due at the start
    layout = TenTenLayout.fit(board.width(), board.height())
    rect, font, text = board.deal_prompt(layout)
    used = QFontMetricsF(font).boundingRect(rect, PROMPT_FLAGS, text)
    assert text.startswith("deal due: click three pieces below")
    assert layout.tray_rect().left() - 0.5 <= used.left() and used.right() <= layout.tray_rect().right() + 0.5
    assert used.top() >= layout.tray_rect().top() and used.bottom() <= layout.tray_rect().bottom() + 0.5
    assert font.pixelSize() >= 7
