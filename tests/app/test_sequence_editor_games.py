"""The sequence editor with every game's formats: the selected move's token is the one marked,
whatever comes before the moves (a start board, comments, labels); HATETRIS replay codes are
readable on a machine without special fonts, and Copy gives them back as Base2048.

Expected values are worked out by hand from how each text is written here (the module
docstrings of the games' notations describe the formats), or come from the reference data of
the real games (shared/data/hatetris: the record replays and their decoded pieces and scores).
"""

from __future__ import annotations

import csv
import os
import re
import subprocess
import sys
import textwrap
from pathlib import Path

import numpy as np
import pytest
from PySide6.QtCore import QByteArray, QtMsgType, qInstallMessageHandler
from PySide6.QtGui import QFontMetrics, QGuiApplication, QRawFont

from app.gui.sequence_editor import REPLAY_FONT_FILE, SequenceEditor
from engines import GAMES
from engines.contract import Line

PROJECT = Path(__file__).resolve().parents[2]
FONT_FILE = PROJECT / "assets" / "fonts" / REPLAY_FONT_FILE


@pytest.fixture
def make_editor(qtbot):
    def make(game_name: str) -> SequenceEditor:
        editor = SequenceEditor()
        qtbot.addWidget(editor)
        editor.set_game(GAMES[game_name])
        editor.resize(700, 420)
        return editor

    return make


def shown_at(editor: SequenceEditor, text: str, move: int) -> str | None:
    """Put ``text`` in the editor as the tree's line (typed, then applied) and select ``move``;
    the marked text, checked against what the text box itself paints, or None."""
    editor.set_text(text)
    assert editor.apply(), editor.error_text()
    editor.show_line(editor.validated_line(), move)
    assert editor.text() == text  # the tree's line is the applied text: it is not rewritten
    return marked(editor)


def marked(editor: SequenceEditor) -> str | None:
    span = editor.current_move_span()
    painted = [selection.cursor.selectedText() for selection in editor.editor.extraSelections()]
    if span is None:
        assert painted == []
        return None
    assert painted == [editor.text()[span[0] : span[1]]]
    return painted[0]


# -- texts that begin with the start position, written by hand -------------------------------------
G2048_TEXT = """\
score 96 · spawn due
   2    .    .    4
   .   16    .    .
   .    .    .    .
   .    .    .    2
2@2,1 L 4@0,3
U 2@3,3 D
"""
G2048_MOVES = ["2@2,1", "L", "4@0,3", "U", "2@3,3", "D"]

TENTEN_TEXT = "score 0 · tray V i .\n" + "..........\n" * 10 + "V@0,0 i@0,1 .@9,9\ndeal:ooO o@2,2 o@4,4 O@6,6\n"
TENTEN_MOVES = ["V@0,0", "i@0,1", ".@9,9", "deal:ooO", "o@2,2", "o@4,4", "O@6,6"]

DESTRUCTO_TEXT = "level 1 · score 0 · shuffle 0 · undo 0\ng g a\na b b\na o o\n0,0\n1,0\n"
DESTRUCTO_MOVES = ["0,0", "1,0"]

# the start: line's boxes look like moves (0,0,8,8 is move 3 too); "1." and "3." are labels
SPLT_TEXT = "# kibitz splt sequence\nstart: splits=1 score=0 | 0,0,8,8 0,8,8,8\n1. 0,8,8,8 0,8,4,8\n3. (0,0,8,8)\n"
SPLT_MOVES = ["0,8,8,8", "0,8,4,8", "0,0,8,8"]


@pytest.mark.parametrize(
    ("game_name", "text", "moves"),
    [
        ("2048", G2048_TEXT, G2048_MOVES),
        ("1010", TENTEN_TEXT, TENTEN_MOVES),
        ("destructo", DESTRUCTO_TEXT, DESTRUCTO_MOVES),
        ("splt", SPLT_TEXT, SPLT_MOVES),
        ("splt", "[0, 1, 1, 3, 2]", ["0", "1", "1", "3", "2"]),
    ],
    ids=["2048", "1010", "destructo", "splt-geometric", "splt-index"],
)
def test_the_selected_move_is_marked_after_a_start_position(make_editor, game_name, text, moves):
    editor = make_editor(game_name)
    for number, token in enumerate(moves, start=1):
        assert shown_at(editor, text, number) == token, f"move {number}"
    # the offsets too, where a token also stands elsewhere in the text
    if game_name == "2048":
        editor.show_line(editor.validated_line(), 6)
        assert editor.current_move_span() == (len(text) - 2, len(text) - 1)  # "D", the last token
    assert shown_at(editor, text, 0) is None  # the start position: nothing marked


def test_the_35th_move_of_a_2048_line_from_a_board_is_marked(make_editor):
    """The player's case: with move 35 selected the editor marked move 17 (it counted the
    header's and the rows' 18 tokens), and at move 1 the word "score"."""
    editor = make_editor("2048")
    game = GAMES["2048"]
    line = played_line(game, game.parse_board("2 . . 4/. 16 . ./. . . ./. . . 2"), 40)
    editor.show_line(line, 35)
    # the text is the board (a header line and four rows) and then the moves
    assert editor.text().split("\n")[0].startswith("score")
    assert marked(editor) == game.move_text(line.moves[34])
    assert editor.current_move_span()[0] == nth_token_start(editor.text(), first_line=5, n=35)
    editor.show_line(line, 1)
    assert marked(editor) == game.move_text(line.moves[0])
    assert editor.current_move_span()[0] == nth_token_start(editor.text(), first_line=5, n=1)
    editor.show_line(line, 0)
    assert marked(editor) is None


@pytest.mark.parametrize(
    ("game_name", "start_text", "board_lines"),
    [
        ("2048", "2 . . 4/. 16 . ./. . . ./. . . 2", 5),  # header + 4 rows
        ("1010", "score 12 · tray V i .\n" + "..........\n" * 9 + "####......", 11),  # header + 10 rows
        ("destructo", "g g a b\na b b o\na o o g\nb g a a", 5),  # header + 4 rows
        ("hatetris", None, 21),  # header + 4 buffer rows + 16 rows
        ("2048", None, 0),
        ("1010", None, 0),
        ("splt", None, 2),  # the header comment and its two-line explanation, labels on each line
    ],
    ids=["2048-board", "1010-board", "destructo-board", "hatetris-board", "2048", "1010", "splt"],
)
def test_long_lines_in_each_games_own_layout(request, make_editor, game_name, start_text, board_lines):
    game = GAMES[game_name]
    editor = make_editor(game_name)
    if game_name == "hatetris":  # Tim's record from its second piece on (a plain player loses fast)
        assert editor.set_format("placements")
        record = game.parse_sequence(request.getfixturevalue("tim_record")[0])
        line = Line(game.replay(record.start, record.moves[:1]), record.moves[1:46])
    else:
        start = game.parse_board(start_text) if start_text else game.initial_state()
        line = played_line(game, start, 45)
    for number in (1, 2, 17, 35, 45):
        editor.show_line(line, number)
        token = game.move_text(line.moves[number - 1])
        assert marked(editor) == token, f"move {number}"
        if game_name == "splt":
            expected = nth_token_start(editor.text(), first_line=3, n=number, skip=r"\d+\.")
        else:
            expected = nth_token_start(editor.text(), first_line=board_lines, n=number)
        assert editor.current_move_span()[0] == expected, f"move {number}"
    editor.show_line(line, 0)
    assert marked(editor) is None


def played_line(game, start, count: int) -> Line:
    """``count`` moves from ``start``: chance steps drawn with a fixed seed, the player's moves
    taken in turn from the legal ones (1010!: the one scoring most)."""
    rng = np.random.default_rng(7)
    state, moves = start, []
    while len(moves) < count and not game.is_over(state):
        if game.is_chance_node(state):
            move = game.sample_chance(state, rng)
        else:
            legal = game.legal_moves(state)
            if game.short_name == "1010":  # clear lines when it can, or the board fills up
                move = max(legal, key=lambda move: game.score(game.play(state, move).state))
            else:
                move = legal[len(moves) * 7 % len(legal)]
        moves.append(move)
        state = game.play(state, move).state
    assert len(moves) == count
    return Line(start, tuple(moves))


def nth_token_start(text: str, first_line: int, n: int, skip: str | None = None) -> int:
    """Where the n-th whitespace-separated token after the first ``first_line`` lines starts
    (tokens matching ``skip``, move-number labels, do not count)."""
    lines = text.split("\n")
    offset = sum(len(line) + 1 for line in lines[:first_line])
    rest = text[offset:]
    tokens = [match for match in re.finditer(r"\S+", rest) if not (skip and re.fullmatch(skip, match.group()))]
    return offset + tokens[n - 1].start()


# -- HATETRIS --------------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def hatetris_data(reference_data):
    return reference_data / "hatetris"


@pytest.fixture(scope="module")
def tim_record(hatetris_data):
    """Tim's 157-line game: the Base2048 code and its decoded piece count, from the records."""
    with open(hatetris_data / "records.tsv", newline="", encoding="utf-8") as file:
        replay = next(row["replay"] for row in csv.DictReader(file, delimiter="\t")
                      if row["label"] == "Tim (1)" and row["encoding"] == "Base2048")
    with open(hatetris_data / "records_decoded.tsv", newline="", encoding="utf-8") as file:
        decoded = next(row for row in csv.DictReader(file, delimiter="\t") if row["label"] == "Tim (1)")
    return replay, decoded


def test_hatetris_placements_after_a_start_board_mark_the_selected_placement(make_editor, tim_record):
    game = GAMES["hatetris"]
    record = game.parse_sequence(tim_record[0])
    start = game.replay(game.initial_state(), record.moves[:5])
    words = [str(move) for move in record.moves[5:12]]
    text = game.board_text(start) + "\n" + " ".join(words[:4]) + "\n" + " ".join(words[4:]) + "\n"
    editor = make_editor("hatetris")
    assert editor.set_format("placements")
    for number, word in enumerate(words, start=1):
        assert shown_at(editor, text, number) == word, f"move {number}"
    assert shown_at(editor, text, 0) is None


def test_a_replay_code_marks_no_part_of_itself(make_editor, tim_record):
    """A Base2048 character carries 11 bits of key runs, which cross the placements' bounds:
    no character is a placement's, so nothing is marked (the whole code was, at move 1)."""
    editor = make_editor("hatetris")
    editor.paste_text(tim_record[0])
    assert editor.apply()
    for number in (0, 1, 2, 300):
        editor.show_line(editor.validated_line(), number)
        assert marked(editor) is None


def test_a_record_replay_shows_in_the_shipped_font_without_font_warnings(make_editor, qtbot, tim_record):
    replay, decoded = tim_record
    messages: list[str] = []

    def collect(kind: QtMsgType, context, message: str) -> None:
        messages.append(message)

    previous = qInstallMessageHandler(collect)
    try:
        editor = make_editor("hatetris")
        editor.show()
        qtbot.waitExposed(editor)
        editor.paste_text(replay)
        editor.editor.viewport().repaint()  # lay out and draw every line now
        editor.editor.document().documentLayout().documentSize()
        image = editor.grab()
        shown = GAMES["hatetris"].parse_sequence(replay)
        editor.show_line(shown, 100)  # the tree's line, written by Kibitz: another Base2048 code
        editor.editor.viewport().repaint()
        editor.grab()
    finally:
        qInstallMessageHandler(previous)
    assert not image.isNull()
    assert [m for m in messages if "OpenType" in m or "font" in m.lower()] == []
    assert f"valid: {decoded['pieces_count']} moves, final score {decoded['score']}" in editor.status_text()

    # every character shown has a glyph in the font file Kibitz ships (not a machine font) ...
    raw = QRawFont(QByteArray(FONT_FILE.read_bytes()), 12)
    assert raw.isValid()
    for text in (replay, editor.text()):
        missing = sorted({c for c in text.strip() if not raw.supportsCharacter(ord(c))})
        assert missing == []
    # ... and that font is the one the text box asks for first, and Qt finds every glyph in it
    font = editor.text_font()
    assert font.families()[0] == raw.familyName() == "Kibitz Base2048"
    metrics = QFontMetrics(font)
    assert all(metrics.inFontUcs4(ord(c)) for c in editor.text().strip())


def test_the_shipped_font_covers_the_whole_base2048_repertoire(hatetris_data):
    """Every code point of base2048_repertoire.tsv (the 2048 letters), and the tail 0-7."""
    raw = QRawFont(QByteArray(FONT_FILE.read_bytes()), 12)
    code_points = []
    with open(hatetris_data / "base2048_repertoire.tsv", newline="", encoding="utf-8") as file:
        for row in csv.DictReader(file, delimiter="\t"):
            first, last = (int(row[key].removeprefix("U+"), 16) for key in ("codepoint_first", "codepoint_last"))
            code_points += range(first, last + 1)
    assert len(code_points) == 2048 + 8  # the 11-bit letters and the 3-bit tail 0-7
    assert [f"U+{cp:04X}" for cp in code_points if not raw.supportsCharacter(cp)] == []


def test_other_texts_keep_the_fixed_width_font(make_editor):
    editor = make_editor("2048")
    editor.set_text(G2048_TEXT)
    assert "Kibitz Base2048" not in editor.text_font().families()
    hatetris = make_editor("hatetris")
    assert hatetris.set_format("placements")
    hatetris.paste_text("S@3,17,0 S@3,15,0")
    assert "Kibitz Base2048" not in hatetris.text_font().families()


def test_copy_gives_the_records_base2048_code_and_pasting_it_works(make_editor, tim_record):
    replay, decoded = tim_record
    editor = make_editor("hatetris")
    editor.paste_text(replay)
    assert editor.format() == "base2048"
    assert f"valid: {decoded['pieces_count']} moves" in editor.status_text()
    QGuiApplication.clipboard().clear()
    editor.copy_button.click()
    assert QGuiApplication.clipboard().text() == replay  # exactly the code that was pasted

    # a line the tree shows is written as Base2048 too, and Copy gives that code: the same game
    line = editor.validated_line()
    other = make_editor("hatetris")
    other.show_line(line, 10)
    assert other.format() == "base2048"
    copied = other.copy_text()
    assert QGuiApplication.clipboard().text() == copied
    again = GAMES["hatetris"].parse_sequence(copied, format="base2048")
    assert len(again.moves) == int(decoded["pieces_count"])
    assert "".join(move.piece for move in again.moves) == decoded["piece_sequence"][: len(again.moves)]
    assert GAMES["hatetris"].score(GAMES["hatetris"].replay(again.start, again.moves)) == int(decoded["score"])


def test_no_font_warning_reaches_stderr_in_a_fresh_process(tim_record, tmp_path):
    """As a player's run would: a new process, the long record shown and painted."""
    code = tmp_path / "code.txt"
    code.write_text(tim_record[0], encoding="utf-8")
    script = textwrap.dedent(f"""
        from pathlib import Path
        from PySide6.QtWidgets import QApplication
        app = QApplication([])
        from app.gui.sequence_editor import SequenceEditor
        from engines import GAMES
        editor = SequenceEditor()
        editor.set_game(GAMES["hatetris"])
        editor.resize(700, 420)
        editor.show()
        editor.paste_text(Path({str(code)!r}).read_text(encoding="utf-8"))
        editor.grab()
        app.processEvents()
        print(editor.status_text())
    """)
    result = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120,
                            cwd=PROJECT, env={**os.environ, "QT_QPA_PLATFORM": "offscreen"})
    assert result.returncode == 0, result.stderr
    assert "valid: 420 moves" in result.stdout
    assert "OpenType" not in result.stderr
    assert [line for line in result.stderr.splitlines() if "font" in line.lower()] == []
