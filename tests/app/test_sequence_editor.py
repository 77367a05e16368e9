"""The sequence editor, driven like a player: load, edit, break, fix, switch format, save, apply.

Expected values come from outside the program: the 1196-split world record ends on the real end
screen's score 878,866 (shared/data/splt/README, spec 6); its moves as geometry come from
record_sequences_geometric.json; the places of hand-made errors (which move, which line and
column) are counted by hand from how each text is laid out here, not read back from the editor.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QTextCursor

from app.gui.sequence_editor import SequenceEditor, generic_move_spans
from engines.contract import Line
from engines.splt import GAME, Move, Splt, State

WORLD_RECORD_SCORE = 878_866  # the real end screen (1196_splits.PNG)
HEADER = "# kibitz splt sequence"


@pytest.fixture
def editor(qtbot):
    widget = SequenceEditor()
    qtbot.addWidget(widget)
    widget.set_game(GAME)
    widget.resize(640, 420)
    return widget


@pytest.fixture
def record_file(splt_data: Path) -> Path:
    path = splt_data / "1196seq.txt"
    if not path.is_file():
        pytest.skip(f"the 1196-split world record {path} is not in the reference data")
    return path


@pytest.fixture
def record_line(splt_records: dict) -> Line:
    """The 1196 game as geometry, from the reference JSON (not from Kibitz's index reader)."""
    return Line(State(), tuple(Move(*xywh) for xywh in splt_records["1196"]["moves_xywh"]))


def geometric_text_by_hand(moves: list[str]) -> str:
    """A geometric file laid out here: the header on line 1, then ten moves per line with a
    label, so moves 10k+1 .. 10k+10 are on line k + 2."""
    rows = [HEADER]
    for first in range(0, len(moves), 10):
        rows.append(f"{first + 1}. " + " ".join(moves[first : first + 10]))
    return "\n".join(rows) + "\n"


def xywh(move: Move) -> str:
    return f"{move.x},{move.y},{move.w},{move.h}"


# -- reading the world record ---------------------------------------------------------------------
def test_loading_the_world_record_is_valid_with_the_real_end_screen_score(editor, record_file, record_line):
    assert editor.load_file(record_file)
    assert editor.error_text() == ""
    assert "valid: 1196 moves, final score 878,866" in editor.status_text()
    assert editor.format() == "index"  # no brackets, comma-space: an index list (spec 2.1)
    assert editor.validated_line() == record_line
    assert editor.text() == record_file.read_text()  # exactly as in the file
    assert editor.highlighted_span() is None


# -- errors: precise, highlighted, the text untouched ----------------------------------------------
def test_illegal_move_in_a_geometric_text_is_found_by_its_move_number(editor, record_line):
    moves = [xywh(move) for move in record_line.moves]
    moves[602] = "9,0"  # move 603: x = 9 is off the 8-wide board, illegal in any position
    text = geometric_text_by_hand(moves)
    # move 603 is the third on the line labelled "601.", which is line 60 + 2 = 62
    rows = text.split("\n")
    assert rows[61].startswith("601. ")
    column = len("601. ") + len(moves[600]) + 1 + len(moves[601]) + 1 + 1
    start = sum(len(row) + 1 for row in rows[:61]) + column - 1

    editor.set_text(text)

    message = editor.error_text()
    assert "move 603" in message and "'9,0'" in message
    assert f"line 62, column {column}" in message
    assert "outside" in message  # the engine's reason: the cell is off the board
    assert editor.highlighted_span() == (start, start + 3)
    assert editor.text()[start : start + 3] == "9,0"
    assert editor.text() == text  # the error never changes the text
    assert editor.editor.textCursor().position() == start  # the cursor is on the bad token
    assert editor.validated_line() is None


def test_illegal_index_in_an_index_list_names_move_line_and_column(editor, record_file):
    original = record_file.read_text()
    numbers = original.split(", ")
    numbers[499] = "128"  # move 500: the 8x16 board never has more than 128 boxes (0-127)
    text = ", ".join(numbers)
    start = sum(len(number) + 2 for number in numbers[:499])

    editor.paste_text(text)

    message = editor.error_text()
    assert "move 500" in message and "'128'" in message
    assert f"line 1, column {start + 1}" in message
    assert editor.highlighted_span() == (start, start + 3)
    assert editor.text() == text


def test_syntax_error_names_line_and_column_and_keeps_the_text(editor):
    text = f"{HEADER}\n1. 0,0,8,16 (0,0,8\n"
    editor.set_text(text)
    # "1. 0,0,8,16 " is 12 characters, so the bad token starts in column 13 of line 2
    assert "line 2, column 13" in editor.error_text()
    start = len(HEADER) + 1 + 12
    assert editor.highlighted_span() == (start, start + len("(0,0,8"))
    assert editor.text() == text
    assert editor.validated_line() is None
    assert not editor.apply()


# -- apply and continue ----------------------------------------------------------------------------
def test_apply_emits_the_line_and_nothing_while_invalid(editor, qtbot, record_file, record_line):
    editor.set_text("0,0,8,16 (0,0,8")
    with qtbot.assertNotEmitted(editor.line_applied):
        assert not editor.apply()

    editor.load_file(record_file)
    assert editor.is_modified()
    with qtbot.waitSignal(editor.line_applied, timeout=1000) as applied:
        qtbot.mouseClick(editor.apply_button, Qt.MouseButton.LeftButton)
    assert applied.args == [record_line]
    assert not editor.is_modified()


def test_continue_hands_the_validated_line_and_the_selected_move(editor, qtbot, record_line):
    editor.set_search_name("ParanoidPlay")
    editor.show_line(record_line, 812)
    assert editor.continue_button.text() == "Continue with ParanoidPlay from move 812"
    assert not editor.continue_button.isHidden()
    # the selected move's token is marked: move 812 is the second on the line labelled "811."
    start, end = editor.current_move_span()
    assert editor.text()[start:end] == xywh(record_line.moves[811])
    assert editor.text()[:start].rstrip().rsplit("\n", 1)[-1].split()[0] == "811."

    with qtbot.waitSignal(editor.continue_search_requested, timeout=1000) as requested:
        editor.continue_button.click()
    assert requested.args == [record_line, 812]

    editor.set_search_name(None)
    assert editor.continue_button.isHidden()


def test_continue_is_refused_while_the_text_is_invalid(editor, qtbot):
    editor.set_search_name("ParanoidPlay")
    editor.set_text("0,0,8,16 9,0")
    with qtbot.assertNotEmitted(editor.continue_search_requested):
        assert not editor.request_continue()
    assert "move 2" in editor.error_text()


# -- formats ---------------------------------------------------------------------------------------
def test_format_switch_round_trips_geometric_and_index(editor, record_file, record_line):
    editor.load_file(record_file)
    assert editor.set_format("geometric")
    assert editor.text().startswith(HEADER)
    assert editor.validated_line() == record_line
    assert "1196 moves" in editor.status_text()

    assert editor.set_format("index")
    assert editor.text().strip("[]") == record_file.read_text().strip()  # brackets are optional
    assert editor.validated_line() == record_line


def test_format_switch_is_refused_while_the_text_is_invalid(editor):
    text = "0,0,8,16 (0,0,8"
    editor.set_text(text)
    assert editor.format() == "geometric"
    editor.format_box.activated.emit(editor.format_box.findData("index"))  # as the player picks it
    assert editor.format() == "geometric"
    assert editor.format_box.currentData() == "geometric"
    assert editor.text() == text
    assert "column 10" in editor.error_text()


def test_a_line_with_a_start_position_is_shown_geometric_and_not_as_an_index_list(editor):
    # spec 1.9: the first split is the whole board, the second its top half
    start = GAME.replay(State(), [Move(0, 0, 8, 16), Move(0, 0, 8, 8)])
    line = Line(start, (Move(0, 0, 4, 8),))
    assert editor.set_format("index")  # the empty line can be an index list
    editor.show_line(line, 1)
    assert editor.format() == "geometric"
    assert "start: " in editor.text()
    assert not editor.set_format("index")
    assert "start position" in editor.error_text()
    assert editor.format() == "geometric"


# -- files -----------------------------------------------------------------------------------------
def test_save_is_atomic_and_reloading_gives_the_same_line(editor, qtbot, tmp_path, record_file, record_line):
    editor.load_file(record_file)
    editor.set_format("geometric")
    folder = tmp_path / "saved"
    folder.mkdir()
    target = folder / "1196.kibitz"
    assert editor.save_file(target)
    assert os.listdir(folder) == ["1196.kibitz"]  # no temporary file left beside it
    assert target.read_text().startswith(HEADER)

    other = SequenceEditor()
    qtbot.addWidget(other)
    other.set_game(GAME)
    assert other.load_file(target)
    assert other.format() == "geometric"
    assert other.validated_line() == record_line


def test_saving_to_an_unwritable_path_names_it_and_leaves_no_file(editor, tmp_path):
    editor.set_text("0,0,8,16 0,0,8,8")
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("a file, so nothing can be saved inside it")
    target = blocker / "line.txt"
    before = sorted(os.listdir(tmp_path))
    assert not editor.save_file(target)
    assert str(target) in editor.error_text()
    assert sorted(os.listdir(tmp_path)) == before
    assert editor.text() == "0,0,8,16 0,0,8,8"


def test_a_failed_save_leaves_the_old_file_as_it_was(editor, tmp_path, monkeypatch):
    folder = tmp_path / "saved"
    folder.mkdir()
    target = folder / "line.txt"
    target.write_text("old contents\n")
    editor.set_text("0,0,8,16 0,0,8,8")

    def refuse(source, destination):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", refuse)  # the last step of the atomic write fails
    assert not editor.save_file(target)
    monkeypatch.undo()
    assert f"Cannot save to {target}: No space left on device" in editor.error_text()
    assert target.read_text() == "old contents\n"
    assert os.listdir(folder) == ["line.txt"]


def test_an_unreadable_file_is_named_and_the_text_kept(editor, tmp_path):
    editor.set_text("0,0,8,16")
    missing = tmp_path / "missing.txt"
    assert not editor.load_file(missing)
    assert str(missing) in editor.error_text()
    assert editor.text() == "0,0,8,16"


def test_load_over_edits_can_be_undone(editor, record_file):
    editor.set_text("0,0,8,16 my edits")
    editor.load_file(record_file)
    editor.editor.undo()
    assert editor.text() == "0,0,8,16 my edits"


def test_paste_replaces_and_detects_the_format(editor):
    editor.paste_text("[0, 1, 1]")
    assert editor.format() == "index"
    assert "valid: 3 moves" in editor.status_text()
    assert editor.validated_line().moves == (Move(0, 0, 8, 16), Move(0, 8, 8, 8), Move(0, 8, 4, 8))


# -- the tree and the player's edits ---------------------------------------------------------------
def test_the_tree_never_overwrites_unapplied_edits(editor, record_line):
    editor.show_line(Line(State(), record_line.moves[:5]), 5)
    assert not editor.is_modified()
    edited = editor.text() + "9,0\n"
    editor.set_text(edited)
    assert editor.is_modified()

    editor.show_line(Line(State(), record_line.moves[:7]), 7)
    assert editor.text() == edited
    assert not editor.note_label.isHidden()

    editor.revert()
    assert not editor.is_modified()
    assert editor.note_label.isHidden()
    assert editor.validated_line() == Line(State(), record_line.moves[:7])
    editor.editor.undo()  # revert is one undoable edit too
    assert editor.text() == edited


def test_live_validation_after_typing(editor, qtbot):
    editor.show()
    qtbot.waitExposed(editor)
    editor.editor.setFocus()
    empty_line_text = editor.text()  # the empty line: the geometric header and comments
    editor.editor.moveCursor(QTextCursor.MoveOperation.End)
    qtbot.keyClicks(editor.editor, "1. 0,0,8,16 9,0")
    qtbot.waitUntil(lambda: "move 2" in editor.error_text(), timeout=3000)
    assert "'9,0'" in editor.error_text()
    start = len(empty_line_text) + len("1. 0,0,8,16 ")
    assert editor.highlighted_span() == (start, start + 3)
    assert editor.text() == empty_line_text + "1. 0,0,8,16 9,0"


# -- finding move tokens ---------------------------------------------------------------------------
def test_generic_move_spans_skip_comments_headers_labels_and_punctuation():
    text = "# kibitz splt sequence\nstart: splits=0 score=0 | 0,0,8,16\n1. 0,0,8,16 (0,8,8,8)\n"
    first = text.index("0,0,8,16\n1.") + len("0,0,8,16\n1. ")
    assert generic_move_spans(text) == [(first, first + 8), (first + 10, first + 17)]
    assert generic_move_spans("[0, 1, 1]") == [(1, 2), (4, 5), (7, 8)]
    assert generic_move_spans("[0,1,1]", expected_count=3) == [(1, 2), (3, 4), (5, 6)]


def test_a_game_can_say_where_its_moves_are(qtbot):
    calls = []

    class SpltWithSpans(Splt):
        def sequence_move_spans(self, text, format):
            calls.append(format)
            return [(0, 8), (9, 12)]

    widget = SequenceEditor()
    qtbot.addWidget(widget)
    widget.set_game(SpltWithSpans())
    widget.set_text("0,0,8,16 9,0")
    assert "geometric" in calls
    assert widget.highlighted_span() == (9, 12)
    assert "line 1, column 10" in widget.error_text()
