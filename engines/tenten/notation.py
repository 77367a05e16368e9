"""1010! texts: moves, the board, sequences.

Board text: an optional header ``score 661 · tray V i 0`` (the three tray slots left to right, ``0``
for an empty slot; no tray part, or ``tray 0 0 0``, when a deal is due), then ten rows top to
bottom, ``#`` filled and ``.`` empty (``x``/``1`` and ``0`` also read). The header and the rows may
also be written on one line separated by ``/``::

    score 661 · tray V i 0
    ..........
    ....##....
    ...

Sequences: placements and deals in play order, ``deal:Vi. V@0,0 i@0,1 .@9,9 deal:ooO ...`` (a
placement is ``piece@row,column`` with the piece's top-left cell at (row, column), rows and columns
0..9 from the top-left), optionally after a board that the line starts from; without one the
line starts from the empty board with a deal due.
"""

from __future__ import annotations

import re

from engines.contract import Line
from engines.errors import NotationError
from engines.limits import MAX_SCORE, parse_int
from engines.move_lines import board_and_moves_spans, read_board_and_moves, wrapped
from engines.tenten.pieces import BY_LETTER, LETTERS, SIZE
from engines.tenten.state import TRAY_SLOTS, State, parse_move

SEQUENCE_FORMATS = ("moves",)
SEPARATOR = " · "
EMPTY_SLOT = "0"
FILLED_MARKS = "#xX1"
EMPTY_MARKS = ".0"


def start() -> State:
    """A new game: the empty board, three pieces to be dealt."""
    return State()


def board_text(state: State) -> str:
    header = f"score {state.score}"
    if not state.deal_due:
        header += SEPARATOR + "tray " + " ".join(slot or EMPTY_SLOT for slot in state.tray)
    return "\n".join([header, *state.rows])


_SCORE = re.compile(r"score\s+([0-9]+)")
_TRAY = re.compile(r"tray((?:\s+\S+)*)")


def parse_board(text: str, source: str | None = None, first_line: int = 1) -> State:
    """Read a board text (see the module's docstring)."""
    lines = [(number, line.strip()) for number, line in enumerate(text.splitlines(), start=first_line)]
    lines = [(number, line) for number, line in lines if line and not line.startswith(";")]
    if len(lines) == 1 and "/" in lines[0][1]:  # the one-line form: header / row / row ...
        number = lines[0][0]
        lines = [(number, part.strip()) for part in lines[0][1].split("/") if part.strip()]
    if not lines:
        raise NotationError("empty board: expected ten rows of '#' and '.'", source=source, line=first_line)
    score, tray = 0, (None, None, None)
    if lines[0][1].startswith(("score", "tray")):
        header_line, header = lines.pop(0)
        for part in (p.strip() for p in re.split(r"·|\|", header)):
            if (match := _SCORE.fullmatch(part)) is not None:
                score = parse_int(match.group(1), "score", 0, MAX_SCORE, source=source, line=header_line, token=part)
            elif (match := _TRAY.fullmatch(part)) is not None:
                tray = _tray(match.group(1).split(), source, header_line, part)
            else:
                raise NotationError("expected 'score N' or 'tray A B C' in the header", source=source,
                                    line=header_line, token=part)
    rows: list[tuple[int, str]] = []
    for number, line in lines:
        rows.extend((number, part.strip()) for part in line.split("/") if part.strip())
    if len(rows) != SIZE:
        raise NotationError(f"a board has {SIZE} rows, found {len(rows)}", source=source,
                            line=rows[-1][0] if rows else first_line)
    filled = 0
    for r, (number, row) in enumerate(rows):
        cells = row.replace(" ", "")
        if len(cells) != SIZE:
            raise NotationError(f"a row has {SIZE} cells, this one {len(cells)}", source=source, line=number,
                                token=row)
        for c, mark in enumerate(cells):
            if mark in FILLED_MARKS:
                filled |= 1 << (SIZE * r + c)
            elif mark not in EMPTY_MARKS:
                raise NotationError("a cell is '#' (filled) or '.' (empty)", source=source, line=number,
                                    column=c + 1, token=mark)
    return State(filled, tray, score)


def _tray(tokens: list[str], source: str | None, line: int, part: str) -> tuple[str | None, ...]:
    if len(tokens) != TRAY_SLOTS:
        raise NotationError(f"a tray has {TRAY_SLOTS} slots (0 for an empty one), found {len(tokens)}",
                            source=source, line=line, token=part)
    slots = []
    for token in tokens:
        if token == EMPTY_SLOT:
            slots.append(None)
        elif token in BY_LETTER:
            slots.append(token)
        else:
            raise NotationError(f"a tray slot holds a piece ({LETTERS}) or 0 for empty", source=source, line=line,
                                token=token)
    return tuple(slots)


def sequence_text(line: Line, format: str | None = None) -> str:
    if format not in (None, "moves"):
        raise ValueError(f"unknown 1010! sequence format {format!r}; known: moves")
    parts = []
    if line.start != start():
        parts.append(board_text(line.start))
    parts.extend(wrapped(line.moves, 16))
    return "\n".join(parts) + "\n"


def _sections(text: str) -> tuple[list[tuple[int, str]], list[tuple[int, str]]]:
    """The (line number, line) pairs of a sequence text's start board (none when the line
    starts from the empty board) and those of its moves; blank and ``;`` lines are in neither."""
    numbered = [(number, line) for number, line in enumerate(text.splitlines(), start=1)
                if line.strip() and not line.lstrip().startswith(";")]
    if numbered and numbered[0][1].lstrip().startswith(("score", "tray")):
        return numbered[:SIZE + 1], numbered[SIZE + 1:]
    return [], numbered


def parse_sequence(text: str, source: str | None = None, format: str | None = None) -> Line:
    return read_board_and_moves(text, source, format, "1010!", _sections, start, parse_board, parse_move)


def sequence_move_spans(text: str, format: str | None = None) -> list[tuple[int, int]]:
    """(start, end) offsets of each move's token in a sequence text, in move order."""
    return board_and_moves_spans(text, format, "1010!", _sections)
