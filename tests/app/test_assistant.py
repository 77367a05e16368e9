"""The whole assistant window for SPL-T, driven like a player: the advisor panel against the
advisor, the move tree's keys, the sequence editor, ParanoidPlay sending branches back, the
board editor, and the session surviving a restart or a damaged file.

Expected values come from the 1196 record (end score 878,866 is the real end screen), the spec's
opening (shared/specs/splt.md 1.9) and hand-worked positions, never from the program's output.
"""

from __future__ import annotations

import json

import pytest
from PySide6.QtCore import Qt

from advisors.splt.heuristic import rank
from app.gui.main_window import BEST_MARK
from app.gui.session import SessionStore
from engines.splt import GAME, Move

CTRL = Qt.KeyboardModifier.ControlModifier


@pytest.fixture(scope="module")
def record(splt_data):
    return GAME.parse_sequence((splt_data / "1196seq.txt").read_text(), source="1196seq.txt")


def key(qtbot, window, key, modifiers=Qt.KeyboardModifier.NoModifier) -> None:
    qtbot.keyClick(window.board, key, modifiers)


def open_record(window, splt_data, at: int):
    assert window.open_sequence(str(splt_data / "1196seq.txt"))
    window.tree.go_to(window.tree.main_line()[at])


def test_the_candidates_are_the_advisors_ranking(window, splt_data, record):
    for at in (0, 1, 250, 1006):
        open_record(window, splt_data, at) if at else window.new_game()
        expected = rank(window.state)
        assert window.advisor_panel.moves() == [candidate.move for candidate in expected]
        assert window.board.advice_marks()  # the board shows them too
    # split 1006 of the 1196 game, as playAssist showed it (spec 3.7): [108] is the best split
    assert window.advisor_panel.row_texts(0)[1].startswith("[108]")
    assert window.board.advice_marks()[108] == "best"
    assert window.board.advice_marks()[93] == "cluster"


def test_clicking_a_candidate_plays_it_and_the_keys_play_the_best(qtbot, window, splt_data, record):
    open_record(window, splt_data, 1006)
    panel = window.advisor_panel
    third = panel.moves()[2]
    table = panel.table
    rect = table.visualRect(table.model().index(2, 1))
    qtbot.mouseClick(table.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())
    assert window.tree.current.move == third and window.tree.current.move_number == 1007
    key(qtbot, window, Qt.Key.Key_Left)
    key(qtbot, window, Qt.Key.Key_Space)  # the best: [108], the record's own move 1007
    assert window.state == window.tree.main_line()[1007].state
    assert window.tree.current.is_main_line


def test_tree_keys_branch_promote_and_delete(qtbot, window, splt_data, record):
    open_record(window, splt_data, 1100)
    main_leaf = window.tree.main_line()[-1]
    # a different move at 1101 makes a variation; nothing of the record changes
    other = next(m for m in GAME.legal_moves(window.state) if m != record.moves[1100])
    assert window.play(other)
    assert window.tree.current.variation_index == 1
    assert GAME.score(main_leaf.state) == 878_866 and window.tree.main_line()[-1] is main_leaf
    key(qtbot, window, Qt.Key.Key_Up)  # the record's move 1101
    assert window.tree.current is window.tree.main_line()[1101]
    key(qtbot, window, Qt.Key.Key_Down)
    variation = window.tree.current
    assert variation.move == other
    key(qtbot, window, Qt.Key.Key_P, CTRL)  # promote
    assert window.tree.main_line()[1101] is variation and len(window.tree.main_line()) == 1102
    key(qtbot, window, Qt.Key.Key_Home)
    assert window.tree.current.is_root
    key(qtbot, window, Qt.Key.Key_End)  # the end of the line last visited: the promoted move
    assert window.tree.current is variation
    key(qtbot, window, Qt.Key.Key_Delete, CTRL)
    assert window.tree.current is window.tree.main_line()[1100]
    assert window.tree.main_line()[-1] is main_leaf  # the record is the main line again
    assert len(window.tree) == 1196


def test_a_sequence_with_an_error_says_where_and_loses_nothing(qtbot, window, splt_data, record):
    open_record(window, splt_data, 1196)
    editor = window.sequence_editor
    tree_before = len(window.tree)
    text = GAME.sequence_text(window.tree.line(), "geometric")
    lines = text.splitlines()
    # the geometric file has ten moves a line, each line labelled with its first move number
    # ("1. a b c ..."); move 10 is the last token of the line labelled "1."
    first = next(i for i, line in enumerate(lines) if line.startswith("1. "))
    tokens = lines[first].split(" ")
    assert len(tokens) == 11
    tokens[10] = "9,0"
    lines[first] = " ".join(tokens)
    broken = "\n".join(lines) + "\n"
    editor.set_text(broken)
    assert editor.validate() is None
    assert "move 10" in editor.error_text() and "9,0" in editor.error_text()
    start, end = editor.highlighted_span()
    assert broken[start:end] == "9,0"
    assert editor.text() == broken  # nothing typed is lost
    editor.apply()
    assert len(window.tree) == tree_before  # nothing applied


def test_applying_an_edited_sequence_adds_a_branch(window, splt_data, record):
    window.new_game()
    moves = record.moves[:40]
    window.sequence_editor.set_text(GAME.sequence_text(type(record)(record.start, moves), "index"))
    assert window.sequence_editor.validate() is not None
    window.sequence_editor.apply()
    assert window.tree.current.move_number == 40
    assert window.state == GAME.replay(record.start, moves)


def test_paranoidplay_from_move_1100_sends_back_a_marked_branch(qtbot, window, splt_data, record):
    open_record(window, splt_data, 1100)
    window.tree.delete(window.tree.main_line()[1101])  # keep the record's first 1100 moves only
    assert window.tree.current.move_number == 1100
    window.advisor_panel.budget_seconds = lambda: 4.0
    assert window.start_search()
    qtbot.waitUntil(lambda: not window.search_runner.is_running(), timeout=120_000)
    marked = [node for node in window.tree.nodes() if node.label.startswith(BEST_MARK)]
    assert len(marked) == 1
    best = marked[0]
    assert best.move_number > 1100 and "ParanoidPlay" in best.label
    path = window.tree.path(best)
    assert path[1100] is window.tree.main_line()[1100]  # the branch keeps the record's moves
    assert tuple(node.move for node in path[1:1101]) == record.moves[:1100]
    assert GAME.is_over(best.state)  # a finished game
    assert window.analysis.search_folder is not None
    assert window.advisor_panel.search_texts()  # progress was shown


def test_board_editor_starts_a_new_analysis(qtbot, window):
    dialog = window.edit_board()
    assert dialog is not None
    dialog.paste_text("splits=2 score=2 | 0,0,4,8 0,8,8,8 4,0,4,8")
    dialog.ok_button.click()
    assert window.tree.current.is_root
    assert window.state.splits == 2 and {(b.x, b.y, b.w, b.h) for b in window.state.boxes} == {
        (0, 0, 4, 8), (0, 8, 8, 8), (4, 0, 4, 8)
    }


def test_shortcuts_are_listed(qtbot, window):
    key(qtbot, window, Qt.Key.Key_Question)
    dialog = window._shortcuts_dialog
    assert dialog is not None and dialog.isVisible()
    listed = dict((what, keys) for keys, what in dialog.rows)
    for what in ("Back", "Forward", "Previous variation", "Next variation", "Go to start", "Go to end",
                 "Promote to main line", "Play the best move", "Keyboard shortcuts"):
        assert what in listed
    assert "Left" in listed["Back"] and listed["Go to start"] == "Home"


def test_the_session_comes_back_after_a_restart(qtbot, make_window, settings_dir, splt_data):
    first = make_window()
    open_record(first, splt_data, 700)
    first.play(next(m for m in GAME.legal_moves(first.state) if m != first.tree.main_line()[701].move))
    first.set_layout("compact")
    first.close()
    second = make_window()
    assert second.analysis.name == "1196seq.txt"
    assert second.tree.current.move_number == 701 and not second.tree.current.is_main_line
    assert GAME.score(second.tree.main_line()[-1].state) == 878_866
    assert second.layout_name == "compact"
    assert second.advisor_panel.is_compact()


def test_a_damaged_session_is_reported_and_set_aside(qtbot, make_window, settings_dir):
    settings_dir.mkdir(parents=True, exist_ok=True)
    damaged = b'{"version": 1, "analyses": [{"name": "x", "tree": '
    (settings_dir / "session.json").write_bytes(damaged)
    window = make_window()
    box = window.error_box
    assert box is not None and box.isVisible()
    assert "line 1, column" in box.informativeText()
    aside = list(settings_dir.glob("session-damaged-*.json"))
    assert len(aside) == 1 and aside[0].read_bytes() == damaged
    assert str(aside[0]) in box.informativeText()
    assert window.tree.current.is_root  # a fresh game to play
    window.play(Move(0, 0))
    assert window.save_session()
    assert json.loads((settings_dir / "session.json").read_text())["analyses"][0]["tree"]["nodes"] == [[-1, "0,0", ""]]
    assert SessionStore(settings_dir).load().session.analyses[0].tree.state.splits == 1
