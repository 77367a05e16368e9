"""The sequence editor: the current line of the move tree as text the player can edit, check,
apply to the tree, load, save, paste and hand to a long search.

The widget is game-agnostic. It reads and writes text only through the game's contract
(``sequence_formats``, ``sequence_text``, ``parse_sequence``, ``replay``, ``score``, ``is_over``)
and shows errors in the engine's own words, with the bad token highlighted in the text.

Nothing the player typed is ever lost: an invalid text stays exactly as typed, errors never
clear it, text the tree sends while the player has unapplied edits only raises a note ("the tree
moved on; Revert to see it"), and Load, Paste, Revert and a format switch replace the text as one
undoable edit (Ctrl+Z brings the previous text back). Saving is atomic.

Finding a move's token
    A replay error names the illegal move's number but not where it is in the text, and the
    selected move is marked in the text too. For both the editor needs the place of the n-th
    move's token, which the game says exactly (``Game.sequence_move_spans``)::

        game.sequence_move_spans(text: str, format: str | None) -> list[tuple[int, int]] | None

    (start, end) character offsets of each move's token in ``text``, in move order: the tokens its
    parser reads as moves, so a start position written before them (2048's ``score 96`` and rows,
    say) is never counted. An empty list means the format has no token per move (a HATETRIS replay
    code: nothing is marked); None that the game cannot tell, and then
    :func:`generic_move_spans` guesses from whitespace-separated tokens.

Replay codes
    HATETRIS replay codes in Base2048 (what players share and the page's "copy replay" gives) are
    written with letters of some 40 scripts that few machines have fonts for. The editor shows
    any text holding such letters in the font Kibitz ships for them (assets/fonts, built by
    assets/fonts/build_base2048_font.py from open fonts), so the code is readable on any machine and Qt
    looks for no fallback font (which on a stock machine drew empty boxes and printed
    "OpenType support missing" for each font it tried). Copy puts the text, the code as shown,
    on the clipboard.
"""

from __future__ import annotations

import dataclasses
import functools
import importlib.resources
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

from PySide6.QtCore import QByteArray, QMimeData, Qt, QTimer, Signal
from PySide6.QtGui import (
    QColor,
    QFont,
    QFontDatabase,
    QGuiApplication,
    QKeySequence,
    QRawFont,
    QShortcut,
    QTextCharFormat,
    QTextCursor,
)
from PySide6.QtWidgets import (
    QComboBox,
    QFileDialog,
    QHBoxLayout,
    QLabel,
    QPlainTextEdit,
    QPushButton,
    QSizePolicy,
    QTextEdit,
    QVBoxLayout,
    QWidget,
)

from engines.contract import Game, Line
from engines.errors import KibitzInputError, Location
from engines.files import read_text, write_text_atomic

LIVE_VALIDATION_MILLISECONDS = 300
EDITOR_SOURCE = "editor"
FILE_FILTER = "Sequence files (*.txt *.kibitz);;All files (*)"

ERROR_BACKGROUND = QColor(255, 205, 210)
ERROR_UNDERLINE = QColor(198, 40, 40)
CURRENT_MOVE_BACKGROUND = QColor(255, 236, 179)

Span = tuple[int, int]

REPLAY_FONT_FILE = "KibitzBase2048-Regular.ttf"  # in assets/fonts, with its licence


# -- the font for replay codes ------------------------------------------------------------------
@dataclasses.dataclass(frozen=True)
class ReplayFont:
    """The font Kibitz ships for the letters of HATETRIS Base2048 codes, registered with Qt."""

    family: str
    raw: QRawFont  # the file itself, to ask which characters it has

    def covers(self, character: str) -> bool:
        return self.raw.supportsCharacter(ord(character))


def replay_font_data() -> bytes:
    """The bytes of the shipped replay-code font (assets/fonts)."""
    return (importlib.resources.files("assets") / "fonts" / REPLAY_FONT_FILE).read_bytes()


@functools.cache
def replay_font() -> ReplayFont | None:
    """The shipped replay-code font, registered once per process (a QGuiApplication must
    exist); None when it cannot be read or Qt refuses it (the editor then keeps its fixed font)."""
    try:
        data = replay_font_data()
    except OSError:
        return None
    font_id = QFontDatabase.addApplicationFontFromData(QByteArray(data))
    families = QFontDatabase.applicationFontFamilies(font_id) if font_id >= 0 else []
    if not families:
        return None
    return ReplayFont(families[0], QRawFont(QByteArray(data), 12))


def needs_replay_font(text: str, font: ReplayFont) -> bool:
    """Whether ``text`` holds a letter beyond ASCII that the replay-code font has (a Base2048
    code does; board texts, move lists and SPL-T files do not)."""
    return any(not character.isascii() and font.covers(character) for character in set(text))


# -- where the moves are in a text --------------------------------------------------------------
_SKIPPED_LINE = re.compile(r"\s*(?:$|#|//|;|[A-Za-z][\w-]*\s*:)")  # blank, comment, "start:" ...
_MOVE_LABEL = re.compile(r"\d+\.")
_TOKEN_EDGES = "[](){},;"


def generic_move_spans(text: str, expected_count: int | None = None) -> list[Span]:
    """Where each move's token is in a sequence text, for games that do not say
    (see the module docstring): (start, end) offsets in move order.

    Lines that are blank, comments (``#``, ``//``, ``;``) or headers (``word:``, as SPL-T's
    ``start:``) hold no moves. The other lines are split at whitespace; list punctuation at a
    token's ends (``[`` ``]`` ``(`` ``)`` ``,`` ...) is not part of it, and move-number labels
    (``12.``) are skipped. That reads ``1. 0,0,8,16 0,8,8,8`` as two moves and ``[0, 1, 1]`` as
    three. When ``expected_count`` (the number of moves the game parsed) disagrees and splitting
    at commas as well gives that count, the comma split is used (``[0,1,1]``).
    """
    by_whitespace = _token_spans(text, re.compile(r"\S+"))
    if expected_count is None or len(by_whitespace) == expected_count:
        return by_whitespace
    by_comma = _token_spans(text, re.compile(r"[^\s,]+"))
    return by_comma if len(by_comma) == expected_count else by_whitespace


def _token_spans(text: str, token_pattern: re.Pattern[str]) -> list[Span]:
    spans = []
    line_start = 0
    for raw_line in text.split("\n"):
        if not _SKIPPED_LINE.match(raw_line):
            for match in token_pattern.finditer(raw_line):
                start, end = match.span()
                while start < end and raw_line[start] in _TOKEN_EDGES:
                    start += 1
                while end > start and raw_line[end - 1] in _TOKEN_EDGES:
                    end -= 1
                if start < end and not _MOVE_LABEL.fullmatch(raw_line, start, end):
                    spans.append((line_start + start, line_start + end))
        line_start += len(raw_line) + 1
    return spans


def move_token_spans(game: Game, text: str, format: str | None, expected_count: int | None = None) -> list[Span]:
    """Where each move's token is in ``text``: the game's own ``sequence_move_spans`` when it
    has one and it can tell, else :func:`generic_move_spans`."""
    provided: Callable[[str, str | None], Any] | None = getattr(game, "sequence_move_spans", None)
    if callable(provided):
        try:
            spans = provided(text, format)
        except ValueError:
            spans = None
        if spans is not None:
            return [(int(start), int(end)) for start, end in spans]
    return generic_move_spans(text, expected_count)


def line_and_column(text: str, offset: int) -> tuple[int, int]:
    """The 1-based line and column of a character offset (as the engines' parsers count)."""
    line = text.count("\n", 0, offset) + 1
    column = offset - (text.rfind("\n", 0, offset) + 1) + 1
    return line, column


def _span_of_location(text: str, location: Location) -> Span | None:
    """The characters a parser's line/column (and token) point at; a whole line when the error
    names only the line."""
    lines = text.split("\n")
    if location.line is None or not 1 <= location.line <= len(lines):
        return None
    line_start = sum(len(line) + 1 for line in lines[: location.line - 1])
    line_text = lines[location.line - 1]
    if location.column is None:
        content = line_text.strip()
        if not content:
            return None
        start = line_start + line_text.index(content)
        return start, start + len(content)
    start = line_start + min(max(location.column - 1, 0), len(line_text))
    line_end = line_start + len(line_text)
    if location.token and text.startswith(location.token, start):
        return start, start + len(location.token)
    word = re.compile(r"[^\s,]+").match(text, start, line_end)
    if word and word.end() > start:
        return start, word.end()
    if start < line_end:
        return start, start + 1
    return (start - 1, start) if start > line_start else None  # the end of a non-empty line


def _same_token(game: Game, found: str, token: str) -> bool:
    """Whether the text at a span is the token an error names (``(9,0)`` is the move ``9,0``)."""
    if found == token:
        return True
    try:
        return game.parse_move(found) == game.parse_move(token)
    except ValueError:
        return False


def _qt_position(text: str, offset: int) -> int:
    """A Python string offset as a QTextDocument position (which counts UTF-16 units)."""
    prefix = text[:offset]
    return offset if prefix.isascii() else len(prefix.encode("utf-16-le")) // 2


# -- the result of checking a text --------------------------------------------------------------
@dataclasses.dataclass(frozen=True)
class _Check:
    """What reading and replaying one text gave: a valid line and its final state, or an error
    with the span of text it points at."""

    text: str
    format: str | None
    source: str
    line: Line | None = None
    final: Any = None
    move_spans: tuple[Span, ...] = ()
    error: ValueError | None = None
    error_span: Span | None = None

    @property
    def valid(self) -> bool:
        return self.error is None


class _TextEdit(QPlainTextEdit):
    """The text box; text pasted or dropped into it gets its font before it is laid out."""

    def __init__(self, fit_font: Callable[[str], None]) -> None:
        super().__init__()
        self._fit_font = fit_font

    def insertFromMimeData(self, source: QMimeData) -> None:  # noqa: N802 (Qt's name)
        if source.hasText():
            self._fit_font(source.text())
        super().insertFromMimeData(source)


class SequenceEditor(QWidget):
    """The current line as editable text (see the module docstring).

    Signals: ``line_applied(Line)`` when the player applies a valid text (the window adds it to
    the move tree); ``continue_search_requested(Line, from_move)`` when the player hands a valid
    line to the game's long search, keeping moves 1..from_move.
    """

    line_applied = Signal(object)
    continue_search_requested = Signal(object, int)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._game: Game | None = None
        self._format: str | None = None
        self._shown: tuple[Line, int] | None = None  # what the tree last showed, and its move
        self._pending: tuple[Line, int] | None = None  # what the tree showed during edits
        self._current_move = 0
        self._baseline = ""  # the text as the tree (or the last Apply) left it
        self._file_path: str | None = None
        self._search_name: str | None = None
        self._last_check: _Check | None = None
        self._cached_check: tuple[tuple[str, str, str | None], _Check] | None = None
        self._action_error = ""
        self._message = ""
        self._mark_span: Span | None = None
        self._mark_cursor: QTextCursor | None = None
        self._error_cursor: QTextCursor | None = None
        self._setting_text = False
        self._fixed_font = QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont)
        self._replay_font_shown = False

        self._live_timer = QTimer(self)
        self._live_timer.setSingleShot(True)
        self._live_timer.setInterval(LIVE_VALIDATION_MILLISECONDS)
        self._live_timer.timeout.connect(lambda: self._validate(move_cursor=False))
        self._build()
        self._refresh_controls()

    # -- building -------------------------------------------------------------------------------
    def _button(self, text: str, slot: Callable[[], Any], tip: str, name: str) -> QPushButton:
        button = QPushButton(text)
        button.setObjectName(name)
        button.setToolTip(tip)
        button.clicked.connect(lambda _checked=False: slot())
        return button

    def _build(self) -> None:
        self.format_box = QComboBox()
        self.format_box.setObjectName("sequenceFormat")
        # its names change with the game (and come after a cold start's first paint): fit each set
        self.format_box.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToContents)
        self.format_box.setToolTip("The format the text is written in; switching rewrites the text")
        self.format_box.activated.connect(lambda index: self.set_format(self.format_box.itemData(index)))
        self.load_button = self._button(
            "Load…", self._load_with_dialog, "Read a sequence file into the editor (Ctrl+Z undoes)", "loadButton"
        )
        self.save_button = self._button(
            "Save…", self._save_with_dialog, "Write the line to a file in the chosen format", "saveButton"
        )
        self.paste_button = self._button(
            "Paste", self._paste_clipboard, "Replace the text with the clipboard's (Ctrl+Z undoes)", "pasteButton"
        )
        self.copy_button = self._button(
            "Copy",
            self.copy_text,
            "Put the whole text on the clipboard, in the format shown (HATETRIS: Base2048, as the page's copy replay)",
            "copyButton",
        )
        self.file_label = QLabel()
        self.file_label.setObjectName("sequenceFile")
        self.file_label.setMinimumWidth(1)
        self.file_label.setWordWrap(True)
        self.file_label.setAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        self.file_label.setStyleSheet("color: #8a6d00;")

        top = QHBoxLayout()
        top.addWidget(QLabel("Format"))
        top.addWidget(self.format_box)
        top.addSpacing(6)
        for button in (self.load_button, self.save_button, self.paste_button, self.copy_button):
            top.addWidget(button)
        top.addStretch(1)

        self.editor = _TextEdit(self._fit_font)
        self.editor.setObjectName("sequenceText")
        self.editor.setFont(self._fixed_font)
        self.editor.setLineWrapMode(QPlainTextEdit.LineWrapMode.WidgetWidth)
        self.editor.setPlaceholderText("Moves of the line, or Load… / Paste a sequence file")
        self.editor.textChanged.connect(self._text_changed)

        self.note_label = QLabel()
        self.note_label.setObjectName("treeMovedNote")
        self.note_label.setWordWrap(True)
        self.note_label.setTextFormat(Qt.TextFormat.RichText)
        self.note_label.setText(
            "The move tree moved on while you were editing. "
            '<a href="revert">Revert</a> to see it (your edits are dropped; Ctrl+Z brings them back).'
        )
        self.note_label.linkActivated.connect(lambda _link: self.revert())
        self.note_label.setStyleSheet(
            "QLabel { background: #fff8e1; border: 1px solid #ffe082; border-radius: 3px; padding: 3px; }"
        )
        self.note_label.hide()

        self.status_label = QLabel()
        self.status_label.setObjectName("sequenceStatus")
        self.status_label.setWordWrap(True)
        self.status_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)

        self.error_label = QLabel()
        self.error_label.setObjectName("sequenceError")
        self.error_label.setWordWrap(True)
        self.error_label.setTextFormat(Qt.TextFormat.PlainText)
        self.error_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.error_label.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Minimum)
        self.error_label.setStyleSheet(
            "QLabel { color: #8e0000; background: #fdecea; border: 1px solid #f5c2c0;"
            " border-radius: 3px; padding: 4px; }"
        )
        self.error_label.hide()

        self.validate_button = self._button(
            "Validate", self.validate, "Read and replay the text; show the first error", "validateButton"
        )
        self.revert_button = self._button(
            "Revert", self.revert, "Drop the edits and show the tree's line again", "revertButton"
        )
        self.apply_button = self._button(
            "Apply", self.apply, "Add this line to the move tree (Ctrl+Return)", "applyButton"
        )
        self.apply_button.setDefault(True)
        self.continue_button = self._button("Continue", self.request_continue, "", "continueButton")
        self.continue_button.hide()
        QShortcut(QKeySequence("Ctrl+Return"), self, self.apply, context=Qt.ShortcutContext.WidgetWithChildrenShortcut)

        actions = QHBoxLayout()
        for button in (self.validate_button, self.revert_button, self.apply_button):
            actions.addWidget(button)
        actions.addSpacing(6)
        actions.addWidget(self.file_label, 1)
        search = QHBoxLayout()  # a row of its own: the label grows with the move number
        search.addStretch(1)
        search.addWidget(self.continue_button)

        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.setSpacing(4)
        layout.addLayout(top)
        layout.addWidget(self.editor, 1)
        layout.addWidget(self.note_label)
        layout.addWidget(self.status_label)
        layout.addWidget(self.error_label)
        layout.addLayout(actions)
        layout.addLayout(search)

    # -- game and the tree's line ---------------------------------------------------------------
    @property
    def game(self) -> Game | None:
        return self._game

    def set_game(self, game: Game) -> None:
        """Edit lines of ``game``: an empty line in its own format. The long search is forgotten
        too (call :meth:`set_search_name` afterwards when the game has one)."""
        self._game = game
        self._format = game.sequence_formats[0] if game.sequence_formats else None
        self.format_box.clear()
        for name in game.sequence_formats:
            self.format_box.addItem(name, name)
        self.format_box.setEnabled(len(game.sequence_formats) > 1)
        self._file_path = None
        self._pending = None
        self._shown = None
        self._search_name = None
        self._cached_check = None
        # undoable: text the player had not applied comes back with Ctrl+Z
        self._show(Line(game.initial_state(), ()), 0, force=True, undoable=True)

    def show_line(self, line: Line, current_move: int) -> None:
        """Show the tree's ``line`` with move ``current_move`` (0: the start) selected. While the
        player has edits that are not applied, the text stays as it is and only a note says
        the tree moved on (:meth:`revert` shows the latest line)."""
        self._require_game()
        if self.is_modified():
            if self._shown is None or (line, current_move) != self._shown:
                self._pending = (line, current_move)
                self.note_label.show()
                self._refresh_controls()
            return
        self._pending = None
        self.note_label.hide()
        self._show(line, current_move, force=False, undoable=False)

    def revert(self) -> None:
        """Drop the edits and show the tree's latest line (one undoable edit)."""
        self._require_game()
        target = self._pending or self._shown or (Line(self._game.initial_state(), ()), 0)
        self._pending = None
        self.note_label.hide()
        self._show(*target, force=True, undoable=True)

    def _show(self, line: Line, current_move: int, force: bool, undoable: bool) -> None:
        same = (
            not force
            and self._shown is not None
            and self._shown[0] == line
            and self.text() == self._baseline
        )
        self._shown = (line, current_move)
        self._current_move = current_move
        if not same:
            text, note = self._display_text(line)
            self._replace_text(text, undoable)
            self._baseline = text
            self._message = note
        self._validate(move_cursor=False)
        # on the selected move, or after the last one so that typing adds moves
        self._place_cursor(self._mark_span[0] if self._mark_span is not None else len(self.text()))

    def _display_text(self, line: Line) -> tuple[str, str]:
        """The line in the chosen format, or in the first of the game's formats that can hold it
        when the chosen one cannot (an index list cannot hold a start position, say); and a note
        saying so. A line without moves from the game's start is an empty text, whatever the
        format (a replay code of no keys is empty, and some readers refuse that)."""
        try:
            return self._render(line, self._format), ""
        except ValueError as error:
            if not line.moves and line.start == self._game.initial_state():
                return "", ""
            for name in self._game.sequence_formats:
                if name == self._format:
                    continue
                try:
                    text = self._render(line, name)
                except ValueError:
                    continue
                self._format = name
                self._sync_format_box()
                return text, f"shown as {name}: {error}"
            raise

    def _render(self, line: Line, format: str | None) -> str:
        """The text of ``line`` in ``format``, refused (ValueError saying why) when reading it
        back would not give the same line."""
        game = self._require_game()
        text = game.sequence_text(line, format)
        back = game.parse_sequence(text, format=format)
        if back == line:
            return text
        name = format or "this"
        if back.start != line.start:
            raise ValueError(f"the {name} format cannot hold this line: it does not keep the start position")
        if len(back.moves) != len(line.moves):
            raise ValueError(f"the {name} format keeps only {len(back.moves)} of the {len(line.moves)} moves")
        if game.replay(back.start, back.moves) != game.replay(line.start, line.moves):
            raise ValueError(f"the {name} format does not give back the same moves")
        return text

    # -- the text -------------------------------------------------------------------------------
    def text(self) -> str:
        """The text in the editor, exactly as typed."""
        return self.editor.toPlainText()

    def set_text(self, text: str) -> None:
        """Replace the text (one undoable edit, as if typed) and check it at once."""
        self._require_game()
        self._replace_text(_normalized(text), undoable=True)
        self._validate(move_cursor=True)

    def paste_text(self, text: str) -> None:
        """Replace the text with pasted ``text`` (undoable), not tied to any file, and check it."""
        self._require_game()
        self._file_path = None
        self._replace_text(_normalized(text), undoable=True)
        self._validate(move_cursor=True)
        self._message = "pasted"
        self._refresh_status()

    def is_modified(self) -> bool:
        """Whether the text differs from the tree's line as last shown (or last applied)."""
        return self.text() != self._baseline

    def format(self) -> str | None:
        """The chosen sequence format (one of ``game.sequence_formats``)."""
        return self._format

    def current_move(self) -> int:
        """The selected move's number as the tree last showed it (0: the start)."""
        return self._current_move

    def set_format(self, name: str) -> bool:
        """Rewrite the text in format ``name``. Refused, with the error shown and nothing
        changed, when the text is not valid or the format cannot hold the line."""
        game = self._require_game()
        if name not in game.sequence_formats:
            raise ValueError(f"unknown format {name!r}; known: {', '.join(game.sequence_formats)}")
        if name == self._format:
            return True
        check = self._check(self.text())
        if not check.valid:
            self._show_check(check, move_cursor=True)
            self._action_error = f"Not rewritten as {name}: the text has an error. {check.error}"
            self._sync_format_box()
            self._refresh_status()
            return False
        try:
            text = self._render(check.line, name)
        except ValueError as error:
            self._action_error = f"Not rewritten as {name}: {error}"
            self._sync_format_box()
            self._refresh_status()
            return False
        was_modified = self.is_modified()
        self._format = name
        self._sync_format_box()
        self._replace_text(text, undoable=True)
        if not was_modified:
            self._baseline = text
        self._validate(move_cursor=False)
        return True

    def _replace_text(self, text: str, undoable: bool) -> None:
        self._message = ""
        self._fit_font(text)  # before the text is laid out: in a font without its letters Qt warns
        self._setting_text = True
        try:
            if undoable:
                cursor = QTextCursor(self.editor.document())
                cursor.beginEditBlock()
                cursor.select(QTextCursor.SelectionType.Document)
                cursor.insertText(text)
                cursor.endEditBlock()
            else:
                self.editor.setPlainText(text)
        finally:
            self._setting_text = False
        self._live_timer.stop()
        self._fit_font()
        self._refresh_controls()

    def _text_changed(self) -> None:
        if not self._setting_text:
            self._message = ""
            self._live_timer.start()
            self._fit_font()
        self._refresh_controls()

    def _fit_font(self, coming: str | None = None) -> None:
        """The shipped replay-code font first while the text holds its letters (a Base2048
        code), else the fixed-width font (see the module docstring). With ``coming``, text about
        to be put in: the replay-code font is taken now if that text needs it (it is left only
        once the text no longer needs it)."""
        font = replay_font()
        wanted = font is not None and needs_replay_font(self.text() if coming is None else coming, font)
        if coming is not None and not wanted:
            return
        if wanted == self._replay_font_shown:
            return
        self._replay_font_shown = wanted
        shown = QFont(self._fixed_font)
        if wanted:
            shown.setFamilies([font.family, *self._fixed_font.families()])
        self.editor.setFont(shown)

    def text_font(self) -> QFont:
        """The font the text is shown in."""
        return self.editor.font()

    def copy_text(self) -> str:
        """Put the whole text on the clipboard, as shown (without the line break at its end),
        and return it: in the chosen format, so a HATETRIS line gives the Base2048 code the
        page reads, and a pasted code comes back exactly as it was pasted."""
        text = self.text().rstrip("\n")
        QGuiApplication.clipboard().setText(text)
        self._message = "copied" if text else "nothing to copy: the text is empty"
        self._refresh_status()
        return text

    # -- checking -------------------------------------------------------------------------------
    def validate(self) -> Line | None:
        """Read and replay the text now. Valid: the line (and "valid: N moves, final score S").
        Not valid: None; the engine's message is shown, the bad token highlighted and the
        cursor put on it. The text is never changed."""
        self._require_game()
        return self._validate(move_cursor=True)

    def validated_line(self) -> Line | None:
        """The line of the text as last checked, None when it was not valid."""
        check = self._last_check
        return check.line if check is not None and check.valid else None

    def error_text(self) -> str:
        """The error shown (a failed load or save, else the text's error); "" when none."""
        return self.error_label.text()

    def status_text(self) -> str:
        """The status line ("valid: 1196 moves, final score 878,866", ...)."""
        return self.status_label.text()

    def highlighted_span(self) -> Span | None:
        """(start, end) offsets in :meth:`text` of the token the error points at, if any."""
        check = self._last_check
        return check.error_span if check is not None and not check.valid else None

    def current_move_span(self) -> Span | None:
        """(start, end) offsets in :meth:`text` of the selected move's token, if it is marked."""
        return self._mark_span

    def _validate(self, move_cursor: bool) -> Line | None:
        self._live_timer.stop()
        check = self._check(self.text())
        self._show_check(check, move_cursor)
        return check.line if check.valid else None

    def _source(self) -> str:
        return Path(self._file_path).name if self._file_path else EDITOR_SOURCE

    def _check(self, text: str) -> _Check:
        """Read ``text`` (the chosen format first, then the game's others) and replay it."""
        key = (text, self._source(), self._format)
        if self._cached_check is not None and self._cached_check[0] == key:
            return self._cached_check[1]
        check = self._read_and_replay(text, key[1])
        self._cached_check = (key, check)
        return check

    def _read_and_replay(self, text: str, source: str) -> _Check:
        game = self._require_game()
        formats: list[str | None] = [self._format] if self._format is not None else [None]
        formats += [name for name in game.sequence_formats if name != self._format]
        line = None
        used = self._format
        first_error: ValueError | None = None
        for name in formats:
            try:
                line = game.parse_sequence(text, source=source, format=name)
            except ValueError as error:
                first_error = first_error or error
                continue
            used = name
            break
        if line is None:
            error = first_error
            if len(formats) > 1:  # let the game's own detection pick whose error to show
                try:
                    game.parse_sequence(text, source=source, format=None)
                except ValueError as detected:
                    error = detected
            return self._failed(text, used, source, error, None)
        try:
            final = game.replay(line.start, line.moves)
        except ValueError as error:
            if isinstance(error, KibitzInputError):
                error = error.located(source=source)
            return self._failed(text, used, source, error, line)
        spans = move_token_spans(game, text, used, len(line.moves))
        return _Check(text, used, source, line=line, final=final, move_spans=tuple(spans))

    def _failed(self, text: str, format: str | None, source: str, error: ValueError, line: Line | None) -> _Check:
        """An error with the span it points at: the parser's line and column, or else the
        token of the move it names (whose line and column are then added to the message)."""
        location = getattr(error, "location", None)
        span = None
        if isinstance(location, Location):
            span = _span_of_location(text, location)
            if span is None and location.move_number is not None:
                expected = len(line.moves) if line is not None else None
                spans = move_token_spans(self._game, text, format, expected)
                if 1 <= location.move_number <= len(spans):
                    found = spans[location.move_number - 1]
                    token = location.token
                    if token is None or _same_token(self._game, text[found[0] : found[1]], token):
                        span = found
                        if isinstance(error, KibitzInputError):
                            error = error.located(**dict(zip(("line", "column"), line_and_column(text, found[0]))))
        return _Check(text, format, source, error=error, error_span=span)

    def _show_check(self, check: _Check, move_cursor: bool) -> None:
        self._last_check = check
        self._action_error = ""
        if check.format != self._format and check.format is not None and check.text.strip():
            self._format = check.format
            self._sync_format_box()
        # The selected move's token; in a text that is not valid, the token in its place, which
        # is the move Continue would start from once the text is fixed.
        spans = check.move_spans if check.valid else move_token_spans(self._game, check.text, check.format)
        self._mark_span = spans[self._current_move - 1] if 1 <= self._current_move <= len(spans) else None
        self._mark_cursor = self._cursor_for(self._mark_span)
        self._error_cursor = None if check.valid else self._cursor_for(check.error_span)
        if not check.valid and move_cursor and check.error_span is not None:
            self._place_cursor(check.error_span[0])
        self._paint_selections()
        self._refresh_status()
        self._refresh_controls()

    # -- marks in the text ----------------------------------------------------------------------
    def _cursor_for(self, span: Span | None) -> QTextCursor | None:
        if span is None:
            return None
        text = self.text()
        cursor = QTextCursor(self.editor.document())
        cursor.setPosition(_qt_position(text, span[0]))
        cursor.setPosition(_qt_position(text, span[1]), QTextCursor.MoveMode.KeepAnchor)
        return cursor

    def _place_cursor(self, offset: int) -> None:
        cursor = self.editor.textCursor()
        cursor.setPosition(_qt_position(self.text(), offset))
        self.editor.setTextCursor(cursor)
        self.editor.centerCursor()  # the line in the middle, with its neighbours around it

    def _paint_selections(self) -> None:
        selections = []
        if self._mark_cursor is not None:
            mark = QTextEdit.ExtraSelection()
            look = QTextCharFormat()
            look.setBackground(CURRENT_MOVE_BACKGROUND)
            mark.format = look
            mark.cursor = self._mark_cursor
            selections.append(mark)
        if self._error_cursor is not None:
            error = QTextEdit.ExtraSelection()
            look = QTextCharFormat()
            look.setBackground(ERROR_BACKGROUND)
            look.setUnderlineStyle(QTextCharFormat.UnderlineStyle.WaveUnderline)
            look.setUnderlineColor(ERROR_UNDERLINE)
            error.format = look
            error.cursor = self._error_cursor
            selections.append(error)
        self.editor.setExtraSelections(selections)

    # -- status and buttons ---------------------------------------------------------------------
    def _refresh_status(self) -> None:
        check = self._last_check
        game = self._game
        if check is None or game is None:
            status = ""
        elif check.valid:
            count = len(check.line.moves)
            status = f"✓ valid: {count} move{'' if count == 1 else 's'}, final score {game.score(check.final):,}"
            if game.is_over(check.final):
                status += " · game over"
        else:
            status = "✗ not valid; nothing is applied until it is"
        if self._message:
            status += f" — {self._message}"
        self.status_label.setText(status)
        color = "#1b5e20" if check is not None and check.valid else "#8e0000"
        self.status_label.setStyleSheet(f"QLabel {{ color: {color}; }}")
        error = self._action_error or ("" if check is None or check.valid else str(check.error))
        self.error_label.setText(error)
        self.error_label.setVisible(bool(error))

    def _refresh_controls(self) -> None:
        modified = self.is_modified()
        has_game = self._game is not None
        for widget in (self.load_button, self.save_button, self.paste_button, self.copy_button, self.validate_button):
            widget.setEnabled(has_game)
        self.apply_button.setEnabled(has_game and modified)
        self.revert_button.setEnabled(has_game and (modified or self._pending is not None))
        name = self._file_path and Path(self._file_path).name
        state = "edited, not applied" if modified else ""
        self.file_label.setText(" · ".join(part for part in (name, state) if part))
        self.file_label.setToolTip(self._file_path or "")
        self._refresh_continue()

    def _from_move(self) -> int:
        line = self.validated_line()
        return self._current_move if line is None else min(self._current_move, len(line.moves))

    def _refresh_continue(self) -> None:
        name = self._search_name
        self.continue_button.setVisible(name is not None and self._game is not None)
        if name is None:
            return
        move = self._from_move()
        where = f"from move {move}" if move > 0 else "from the start"
        self.continue_button.setText(f"Continue with {name} {where}")
        kept = f"moves 1–{move} are kept, " if move > 0 else ""
        self.continue_button.setToolTip(f"Hand this line to {name}: {kept}the search continues from there")

    def _sync_format_box(self) -> None:
        index = self.format_box.findData(self._format)
        if index >= 0 and index != self.format_box.currentIndex():
            self.format_box.blockSignals(True)
            self.format_box.setCurrentIndex(index)
            self.format_box.blockSignals(False)

    def _report(self, error: str) -> None:
        """Show a failed action's message (the text is left as it is)."""
        self._action_error = error
        self._refresh_status()

    # -- apply and the long search --------------------------------------------------------------
    def apply(self) -> bool:
        """Emit ``line_applied`` with the text's line, when it is valid (else show why)."""
        line = self._validate(move_cursor=True)
        if line is None:
            return False
        self._baseline = self.text()
        self._pending = None
        self.note_label.hide()
        self._current_move = min(self._current_move, len(line.moves))
        self._shown = (line, self._current_move)
        self._message = "applied"
        self._refresh_status()
        self._refresh_controls()
        self.line_applied.emit(line)
        return True

    def set_search_name(self, name: str | None) -> None:
        """Name the game's long search ("ParanoidPlay") for the Continue button; None hides it."""
        self._search_name = name
        self._refresh_continue()

    def request_continue(self) -> bool:
        """Emit ``continue_search_requested(line, from_move)`` for the text's line, when valid;
        ``from_move`` is the selected move (at most the line's length)."""
        line = self._validate(move_cursor=True)
        if line is None:
            return False
        self.continue_search_requested.emit(line, min(self._current_move, len(line.moves)))
        return True

    # -- files and the clipboard ----------------------------------------------------------------
    def load_file(self, path: str | Path) -> bool:
        """Read a sequence file into the editor (one undoable edit) and check it. False, with
        the error naming the file, when it cannot be read; True otherwise, valid or not
        (see :meth:`error_text`)."""
        self._require_game()
        try:
            text = read_text(path)
        except OSError as error:
            self._report(f"Cannot read {path}: {error.strerror or error}")
            return False
        except ValueError as error:  # not text; the message names the file
            self._report(f"Cannot read {path}: {error}")
            return False
        self._file_path = str(path)
        self._replace_text(_normalized(text), undoable=True)
        self._validate(move_cursor=True)
        self._message = f"loaded {Path(path).name}"
        self._refresh_status()
        self._refresh_controls()
        return True

    def save_file(self, path: str | Path) -> bool:
        """Write the text's line to ``path`` in the chosen format, atomically (the file holds
        its old contents or all of the new ones). False, with the reason, when the text is not
        valid or the file cannot be written."""
        self._require_game()
        line = self._validate(move_cursor=True)
        if line is None:
            self._report(f"Not saved to {path}: the text has an error. {self._last_check.error}")
            return False
        try:
            text = self._render(line, self._format)
            write_text_atomic(path, text)
        except OSError as error:
            self._report(f"Cannot save to {path}: {error.strerror or error}")
            return False
        except ValueError as error:
            self._report(f"Not saved to {path}: {error}")
            return False
        self._file_path = str(path)
        self._message = f"saved to {Path(path).name} ({self._format})"
        self._refresh_status()
        self._refresh_controls()
        return True

    def _start_directory(self) -> str:
        return str(Path(self._file_path).parent) if self._file_path else ""

    def _load_with_dialog(self) -> None:
        path, _filter = QFileDialog.getOpenFileName(self, "Load a sequence file", self._start_directory(), FILE_FILTER)
        if path:
            self.load_file(path)

    def _save_with_dialog(self) -> None:
        suggested = self._file_path or ""
        path, _filter = QFileDialog.getSaveFileName(self, "Save the line", suggested, FILE_FILTER)
        if path:
            self.save_file(path)

    def _paste_clipboard(self) -> None:
        text = QGuiApplication.clipboard().text()
        if not text:
            self._report("The clipboard holds no text; nothing was pasted.")
            return
        self.paste_text(text)

    def _require_game(self) -> Game:
        if self._game is None:
            raise RuntimeError("SequenceEditor.set_game() first")
        return self._game


def _normalized(text: str) -> str:
    """Text with the line ends the editor uses (it keeps \\n only)."""
    return text.replace("\r\n", "\n").replace("\r", "\n")
