"""HATETRIS texts: placements, the board grid, and sequences (replay codes or placement lists).

Board text: a header ``score 12 · next S`` (plus ``· mild`` for HATETRIS Mild and ``· well WxH``
for a reduced well), then one line per row, top row first, ``#`` filled and ``.`` empty, the four
buffer rows above the bar included. ``next -`` marks a finished game.

Sequences: the four replay codes the official page reads (the game's own order of detection, see
``engines.hatetris.codecs``), or Kibitz's placement list ``S@6,17,0 Z@0,16,1 ...``, optionally
after a board that the line starts from.
"""

from __future__ import annotations

import re

from engines.contract import Line
from engines.errors import KibitzInputError, NotationError
from engines.limits import MAX_SCORE, parse_int
from engines.move_lines import read_moves, token_spans
from engines.hatetris import codecs, fast, reference
from engines.hatetris.pieces import PIECE_INDEX
from engines.hatetris.state import BAR, DEFAULT_RULES, Memory, Placement, Rules, State, cell_count

REPLAY_FORMATS = ("base2048", "base65536", "hex", "raw")
SEQUENCE_FORMATS = REPLAY_FORMATS + ("placements",)
SEPARATOR = " · "


def move_text(move: Placement) -> str:
    return str(move)


def parse_move(text: str) -> Placement:
    return Placement.parse(text)


def board_text(state: State) -> str:
    rules = state.rules
    header = [f"score {state.score}", f"next {state.piece or '-'}"]
    if rules.mild:
        header.append("mild")
    if (rules.width, rules.depth) != (DEFAULT_RULES.width, DEFAULT_RULES.depth):
        header.append(f"well {rules.width}x{rules.height}")
    rows = ["".join("#" if row >> x & 1 else "." for x in range(rules.width)) for row in state.well]
    return "\n".join([SEPARATOR.join(header), *rows])


_HEADER_PART = re.compile(r"score ([0-9]+)|next ([A-Za-z]|-)|mild|well ([0-9]+)x([0-9]+)")


def parse_board(text: str, source: str | None = None, first_line: int = 1) -> State:
    """Read a board text; the piece is computed by the AI when the header has no ``next``."""
    lines = [line.rstrip() for line in text.strip("\n").splitlines()]
    if not lines or not lines[0].strip():
        raise NotationError("empty board: expected a header such as 'score 0 · next S' and the rows",
                            source=source, line=first_line)
    score, piece, enemy, width, height = 0, None, "hatetris", DEFAULT_RULES.width, DEFAULT_RULES.height
    piece_given = False
    for part in (p.strip() for p in re.split(r"·|\|", lines[0])):
        match = _HEADER_PART.fullmatch(part)
        if match is None:
            raise NotationError("expected 'score N', 'next P', 'mild' or 'well WxH' in the header",
                                source=source, line=first_line, token=part)
        if match.group(1) is not None:
            score = parse_int(match.group(1), "score", 0, MAX_SCORE, source=source, line=first_line, token=part)
        elif match.group(2) is not None:
            piece_given = True
            letter = match.group(2)
            if letter != "-" and letter not in PIECE_INDEX:
                raise NotationError(f"unknown piece {letter!r}; the pieces are S Z O I L J T",
                                    source=source, line=first_line, token=part)
            piece = None if letter == "-" else letter
        elif part == "mild":
            enemy = "mild"
        else:
            width = parse_int(match.group(3), "the well's width", 4, 16, source=source, line=first_line, token=part)
            height = parse_int(match.group(4), "the well's height", 1, 36, source=source, line=first_line, token=part)
    try:
        rules = Rules(enemy, width, height + BAR)
    except ValueError as error:
        raise NotationError(str(error), source=source, line=first_line) from None
    rows = lines[1:]
    if len(rows) != rules.depth:
        raise NotationError(f"expected {rules.depth} rows ({BAR} above the bar and {rules.height} below), "
                            f"found {len(rows)}", source=source, line=first_line + len(lines) - 1)
    well = []
    for number, row_text in enumerate(rows):
        line_number = first_line + 1 + number
        row_text = row_text.strip()
        if len(row_text) != rules.width:
            raise NotationError(f"a row has {rules.width} cells, this one {len(row_text)}",
                                source=source, line=line_number, token=row_text)
        value = 0
        for x, char in enumerate(row_text):
            if char == "#":
                value |= 1 << x
            elif char != ".":
                raise NotationError("a cell is '#' (filled) or '.' (empty)", source=source,
                                    line=line_number, column=x + 1, token=char)
        well.append(value)
    state = _checked_state(tuple(well), score, piece, piece_given, rules, source, first_line)
    return state


def _checked_state(well: tuple[int, ...], score: int, piece: str | None, piece_given: bool, rules: Rules,
                   source: str | None, first_line: int) -> State:
    cells = cell_count(well)
    if (cells + rules.width * score) % 4:
        raise NotationError(f"{cells} cells with score {score} cannot occur: every piece adds 4 cells and "
                            f"every line removes {rules.width}", source=source, line=first_line)
    buffer_used = any(well[:BAR])
    if piece_given and piece is None:
        if not buffer_used:
            raise NotationError("'next -' marks a finished game, but nothing stands above the bar",
                                source=source, line=first_line)
        return State(well, score, None, rules, None)
    if buffer_used:
        raise NotationError("cells above the bar end the game: write 'next -'", source=source,
                            line=first_line + 1 + next(i for i, row in enumerate(well) if row))
    for index, row in enumerate(well):
        if row == rules.full_row:
            raise NotationError("a full row would have been cleared", source=source, line=first_line + 1 + index)
    pieces = (cells + rules.width * score) // 4
    memory = Memory(well, pieces)
    if piece is None:
        piece = "SZOILJT"[fast.choose_piece(well, rules, memory)[0]]
    return State(well, score, piece, rules, memory)


def start(rules: Rules = DEFAULT_RULES) -> State:
    return fast.start(rules)


def _is_start(state: State) -> bool:
    return state.well == (0,) * state.rules.depth and state.score == 0 and state.piece == start(state.rules).piece


def replay_keys_of(line: Line) -> str:
    """The keys of a line: for each placement, the shortest key path from spawn."""
    keys = []
    state_well = line.start.well
    rules = line.start.rules
    for number, move in enumerate(line.moves, start=1):
        probe = State(state_well, 0, move.piece, rules, None)
        try:
            keys.append(fast.key_path(probe, move))
        except ValueError as error:
            raise NotationError(str(error), move_number=number, token=str(move)) from None
        _, state_well, _, over = reference.lock(state_well, rules, move.piece_index, move.x, move.y, move.o)
        if over:
            break
    return "".join(keys)


def sequence_text(line: Line, format: str | None = None) -> str:
    format = format or "base2048"
    if format == "placements":
        parts = []
        # a line of no moves writes its board: an empty text is no sequence at all
        if not line.moves or not _is_start(line.start) or line.start.rules != DEFAULT_RULES:
            parts.append(board_text(line.start))
        parts.append(" ".join(str(move) for move in line.moves))
        return "\n".join(parts) + "\n"
    if format not in REPLAY_FORMATS:
        raise ValueError(f"unknown HATETRIS sequence format {format!r}; known: {', '.join(SEQUENCE_FORMATS)}")
    if not _is_start(line.start):
        raise ValueError("a replay code starts from the empty well; this line starts from a set-up board "
                         "(write it as placements instead)")
    return codecs.encode(replay_keys_of(line), format) + "\n"


def detect(text: str) -> str:
    """``placements`` for a placement list, else the replay code's format as the official game
    detects it."""
    # a board's header: no replay code holds '@', nor lowercase letters and a space together
    if "@" in text or text.lstrip().startswith("score "):
        return "placements"
    return codecs.detect(text)


def parse_sequence(text: str, source: str | None = None, format: str | None = None,
                   rules: Rules = DEFAULT_RULES) -> Line:
    format = format or detect(text)
    if format == "placements":
        return _parse_placements(text, source, rules)
    if format not in REPLAY_FORMATS:
        raise ValueError(f"unknown HATETRIS sequence format {format!r}; known: {', '.join(SEQUENCE_FORMATS)}")
    keys = decode_keys(text, source, format)
    replayed = fast.replay_keys(keys, rules)
    return Line(start(rules), replayed.placements)


def decode_keys(text: str, source: str | None = None, format: str | None = None) -> str:
    decoders = {None: codecs.decode, "raw": codecs.decode_raw, "hex": codecs.decode_hex,
                "base65536": codecs.decode_base65536, "base2048": codecs.decode_base2048}
    try:
        return decoders[format](text)
    except KibitzInputError as error:
        raise error.located(source=source) from None


def _placement_sections(text: str) -> tuple[tuple[int, list[str]] | None, list[tuple[int, str]]]:
    """A placement list's start board (its first line number and its lines: the header and the
    rows), None when the line starts from the empty well; and the (line number, line) pairs of
    its placements (blank and ``#`` lines hold none)."""
    lines = text.splitlines()
    numbered = [(number, line) for number, line in enumerate(lines, start=1)
                if line.strip() and not line.lstrip().startswith("#")]
    if numbered and numbered[0][1].lstrip().startswith("score"):
        first = numbered[0][0]
        depth = _header_depth(numbered[0][1])
        board = (first, lines[first - 1:first + depth])
        return board, [(number, line) for number, line in numbered if number > first + depth]
    return None, numbered


def _parse_placements(text: str, source: str | None, rules: Rules) -> Line:
    board, move_lines = _placement_sections(text)
    begin = start(rules)
    if board is not None:
        first, board_lines = board
        begin = parse_board("\n".join(board_lines), source, first_line=first)
    return Line(begin, read_moves(move_lines, Placement.parse, source))


def sequence_move_spans(text: str, format: str | None = None) -> list[tuple[int, int]]:
    """(start, end) offsets of each placement's token in a placement list, in move order (a
    start board's header and rows hold none). A replay code has no token per placement (its
    characters carry key runs, which cross the placements' bounds): no spans, an empty list."""
    format = format or detect(text)
    if format == "placements":
        return token_spans(text, _placement_sections(text)[1])
    if format not in REPLAY_FORMATS:
        raise ValueError(f"unknown HATETRIS sequence format {format!r}; known: {', '.join(SEQUENCE_FORMATS)}")
    return []


def _header_depth(header: str) -> int:
    match = re.search(r"well ([0-9]+)x([0-9]+)", header)
    return (int(match.group(2)) if match else DEFAULT_RULES.height) + BAR
