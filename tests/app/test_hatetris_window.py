"""The main window with the HATETRIS board, driven like a player: clicks, the board's ghost-cursor
keys, the advisor panel, the move tree's keys and the sequence editor.

Expected wells come from the spec (shared/specs/hatetris.md 1.2 piece cells, 2.4 the all-Down
replay) and its reference data (the per-piece trace of the 86-point game, the decoded records),
worked out by hand where noted, never from the program's own output.
"""

from __future__ import annotations

import csv

import pytest
from PySide6.QtCore import Qt

from advisors.hatetris.heuristic import rank
from app.gui.games.hatetris.board import HatetrisBoard
from engines.hatetris import GAME, Placement

ALL_DOWN = "௨ටໃݹ௨ටໃݹठ"  # spec 2.4: 90 x Down (and a pad key): 9 pieces, game over at 0 lines
EMPTY = (0,) * 20


@pytest.fixture
def window(make_window):
    window = make_window()
    window.set_game("hatetris")
    window.board.setFocus()
    return window


@pytest.fixture(scope="module")
def decoded_records(hatetris_data):
    with open(hatetris_data / "records_decoded.tsv", newline="", encoding="utf-8") as file:
        return {row["label"]: row for row in csv.DictReader(file, delimiter="\t")}


@pytest.fixture(scope="module")
def record_86(hatetris_data):
    with open(hatetris_data / "records.tsv", newline="", encoding="utf-8") as file:
        rows = list(csv.DictReader(file, delimiter="\t"))
    return next(r["replay"] for r in rows if r["label"] == "David & Felipe (1)" and r["encoding"] == "Base2048")


@pytest.fixture(scope="module")
def hatetris_data(reference_data):
    return reference_data / "hatetris"


def key(qtbot, window, key) -> None:
    qtbot.keyClick(window.board, key)


def click_cell(qtbot, window, x: int, y: int) -> None:
    qtbot.mouseClick(window.board, Qt.MouseButton.LeftButton, pos=window.board.cell_center(x, y))


def test_opens_on_the_first_piece(window):
    assert window.windowTitle() == "Kibitz — HATETRIS"
    assert isinstance(window.board, HatetrisBoard)
    # the empty well: the AI sends S first (spec 1.6); 34 (x, o) per row for S on width 10 (1.2)
    assert window.position_text() == "score 0 · 0 pieces · next S · 34 placements"
    assert window.advisor_panel.headers()[4:] == ["Lines", "Next", "Height", "Holes"]


def test_clicking_a_cell_plays_the_lowest_placement_covering_it(qtbot, window):
    window.board.set_advice_visible(False)  # no advisor preference: the lowest placement wins
    # S o=0 is .##/##. in its box's rows 1-2: at x=6 it covers (8,18) (9,18) (7,19) (8,19); the
    # other S covering (9,18), upright against the wall, reaches only row 17 at the top
    click_cell(qtbot, window, 9, 18)
    assert window.tree.current.move == Placement("S", 6, 17, 0)
    # trace_df86 piece 0: the same lock gives rows 18/19 = 768/384
    assert window.state.well == EMPTY[:18] + (768, 384)
    assert window.position_text() == "score 0 · 1 piece · next S · 34 placements"
    assert window.message_text() == "S locked at (6,17,0) · AI sends S"
    assert set(window.board.turn_marks.locked) == {(8, 18), (9, 18), (7, 19), (8, 19)}
    qtbot.waitUntil(lambda: not window.board.turn_marks, timeout=3000)  # the highlight fades

    click_cell(qtbot, window, 0, 2)  # a buffer cell no resting placement covers: nothing happens
    assert window.tree.current.move_number == 1


def test_hover_shows_the_advisors_best_placement_of_a_cell(qtbot, window):
    board = window.board
    best = window.advisor_panel.moves()[0]
    assert board.ghosts()["best"] == best
    x, y = max(((x, y) for x, y in _cells(best)), key=lambda cell: cell[1])
    qtbot.mouseMove(board, board.cell_center(x, y))
    qtbot.waitUntil(lambda: board.hovered_placement is not None, timeout=1000)
    assert set(_cells(board.hovered_placement)) == set(_cells(best))
    qtbot.mouseClick(board, Qt.MouseButton.LeftButton, pos=board.cell_center(x, y))
    assert set(_cells(window.tree.current.move)) == set(_cells(best))


def test_the_ghost_cursor_keys_play_the_traced_opening(qtbot, window):
    # trace_df86: piece 0 keys RRRD... lock S at (6,17,0); piece 1 keys URRRRD... lock S at (7,14,1)
    for _ in range(3):
        key(qtbot, window, Qt.Key.Key_D)  # the cursor starts at the spawn column x=3
    assert window.board.cursor_placement == Placement("S", 6, 17, 0)
    key(qtbot, window, Qt.Key.Key_S)
    assert window.tree.current.move == Placement("S", 6, 17, 0)
    assert window.board.cursor_placement == Placement("S", 3, 17, 0)  # back at the spawn column

    key(qtbot, window, Qt.Key.Key_W)  # turn clockwise at x=3, then four columns right
    for _ in range(4):
        key(qtbot, window, Qt.Key.Key_L)
    assert window.board.cursor_placement == Placement("S", 7, 14, 1)
    key(qtbot, window, Qt.Key.Key_Return)
    assert window.tree.current.move_number == 2
    assert window.state.well == EMPTY[:15] + (256, 768, 512, 768, 384)

    key(qtbot, window, Qt.Key.Key_A)
    assert window.board.cursor_placement == Placement("S", 2, 17, 0)
    key(qtbot, window, Qt.Key.Key_Escape)
    assert window.board.cursor_placement is None
    key(qtbot, window, Qt.Key.Key_S)  # the first press only shows the cursor again
    assert window.tree.current.move_number == 2 and window.board.cursor_placement == Placement("S", 3, 17, 0)


def test_the_candidates_are_the_advisors_ranking_with_the_next_piece(window, record_86):
    line = GAME.parse_sequence(record_86)
    window.apply_line(type(line)(line.start, line.moves[:120]))
    state = window.state
    assert state.score == 40  # trace_df86: score after piece 119
    expected = rank(state)
    panel = window.advisor_panel
    assert panel.moves() == [candidate.move for candidate in expected]
    next_column = panel.headers().index("Next")
    for row, candidate in enumerate(expected):
        after = GAME.play(state, candidate.move).state  # the engine says which piece follows
        assert panel.row_texts(row)[next_column] == (after.piece or "–")
    assert window.board.ghosts()["best"] == expected[0].move
    window.board.preview_move(expected[3].move)
    assert window.board.ghosts()["previewed"] == expected[3].move


def test_tree_keys_walk_back_forward_and_branch(qtbot, window):
    first, second, other = Placement("S", 6, 17, 0), Placement("S", 7, 14, 1), Placement("S", 0, 17, 0)
    assert window.play(first) and window.play(second)
    after_two = window.state
    key(qtbot, window, Qt.Key.Key_Left)
    assert window.state.well == EMPTY[:18] + (768, 384)
    key(qtbot, window, Qt.Key.Key_Left)
    assert window.state.well == EMPTY and window.tree.current.is_root
    key(qtbot, window, Qt.Key.Key_Right)
    key(qtbot, window, Qt.Key.Key_Right)
    assert window.state == after_two
    key(qtbot, window, Qt.Key.Key_Left)
    assert window.play(other)  # a variation of move 2
    assert window.tree.current.variation_index == 1
    # S o=0 at x=0 covers (2,18) (3,18) (1,19) (2,19), beside the first S's 768/384
    assert window.state.well[18:] == (768 | 4 | 8, 384 | 2 | 4)
    key(qtbot, window, Qt.Key.Key_Up)
    assert window.state == after_two
    key(qtbot, window, Qt.Key.Key_Down)
    assert window.tree.current.move == other
    key(qtbot, window, Qt.Key.Key_Home)
    assert window.tree.current.is_root


def test_a_pasted_replay_code_becomes_nine_placements_and_copies_back(qtbot, window, decoded_records):
    editor = window.sequence_editor
    editor.paste_text(ALL_DOWN)
    assert editor.apply()
    tree = window.tree
    assert tree.current.move_number == 9
    # all Down: every S falls straight from the spawn (x=3, o=0) onto the previous one, two rows
    # higher each time, the ninth sticking out above the bar
    assert [node.move for node in tree.main_line()[1:]] == [Placement("S", 3, 17 - 2 * k, 0) for k in range(9)]
    record = decoded_records["qntm"]
    assert record["piece_sequence"] == "S" * 9
    assert window.state.well == tuple(int(row) for row in record["final_well"].split(","))
    assert GAME.is_over(window.state) and window.state.score == 0
    assert window.position_text() == "score 0 · 9 pieces · game over"

    qtbot.waitUntil(lambda: not editor.is_modified() and editor.text().strip() != "", timeout=2000)
    assert editor.format() == "base2048"
    copied = editor.text()
    back = GAME.parse_sequence(copied)
    assert back.moves == tuple(node.move for node in tree.main_line()[1:])
    assert copied.strip() == ALL_DOWN  # the same 90 Downs, the same string as the official page


def _cells(move: Placement) -> list[tuple[int, int]]:
    from engines.hatetris.pieces import CELLS

    return [(move.x + cx, move.y + cy) for cx, cy in CELLS[move.piece_index][move.o]]


def test_beam_search_from_a_tree_node_sends_back_a_marked_branch(qtbot, window, record_86):
    from app.gui.main_window import BEST_MARK

    line = GAME.parse_sequence(record_86)
    window.apply_line(type(line)(line.start, line.moves[:100]))
    assert window.tree.current.move_number == 100
    window.advisor_panel.budget_seconds = lambda: 6.0
    assert window.start_search()
    qtbot.waitUntil(lambda: not window.search_runner.is_running(), timeout=120_000)
    marked = [node for node in window.tree.nodes() if node.label.startswith(BEST_MARK)]
    assert len(marked) == 1
    best = marked[0]
    assert best.move_number > 100 and "Beam search" in best.label
    path = window.tree.path(best)
    assert tuple(node.move for node in path[1:101]) == line.moves[:100]  # the record's moves kept
    assert best.state.score >= GAME.replay(line.start, line.moves[:100]).score
    assert window.analysis.search_folder is not None


def test_the_search_panel_counts_depth_and_wells(window):
    panel = window.advisor_panel
    assert panel.search_group.title() == "Search: Beam search"
    assert panel.count_caption.text() == "Depth"
    panel.show_search_progress(running=True, games=42, best="9 lines", rate=250_000.0, elapsed=3.0,
                               fraction=None, can_continue=False)
    assert panel.games_label.text() == "42"
    assert panel.rate_label.text().endswith("wells/s")
    window.set_game("splt")
    assert panel.count_caption.text() == "Games"


def test_the_shortcuts_window_lists_the_boards_keys_of_the_game_shown(window):
    listed = [window.show_shortcuts().table.topLevelItem(i).text(0)
              for i in range(window.show_shortcuts().table.topLevelItemCount())]
    assert "W / I" in listed and "S / K / Enter" in listed and "Click a box" not in listed
    window.set_game("splt")
    dialog = window.show_shortcuts()
    listed = [dialog.table.topLevelItem(i).text(0) for i in range(dialog.table.topLevelItemCount())]
    assert "Click a box" in listed and "W / I" not in listed


def test_the_run_on_field_is_kept_and_a_wrong_address_is_said_before_anything_runs(qtbot, make_window):
    window = make_window()
    window.set_game("hatetris")
    panel = window.advisor_panel
    field = panel.cluster_field
    assert field.text() == "" and panel.cluster_address() is None  # a first start: this computer
    assert field.isVisible() and field.isEnabled()
    field.setFocus()
    qtbot.keyClicks(field, "ray://head-node:10001")
    qtbot.keyClick(field, Qt.Key.Key_Return)
    window.close()
    again = make_window()  # a new start reads the address back
    again.set_game("hatetris")
    assert again.advisor_panel.cluster_address() == "ray://head-node:10001"
    again.advisor_panel.set_cluster_address("head-node")  # not an address Ray knows
    assert not again.start_search()
    assert not again.search_runner.is_running()
    message = again.advisor_panel.search_texts()["message"]
    assert "'head-node'" in message and "ray://HOST:PORT" in message
    assert again.start_search_action.isEnabled() and again.advisor_panel.start_button.isEnabled()
