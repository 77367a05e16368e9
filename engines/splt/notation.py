"""SPL-T text forms: moves, positions and sequence files.

Moves
    ``x,y,w,h`` -- the box split, as it was before the split (``x,y`` alone is accepted when
    reading). Orientation is never written: it follows from the move number.

Positions, one line (keeps box-list order; used for the clipboard and in sequence files)::

    splits=10 score=98 | 0,8,8,8 4,0,4,4:5 0,0,4,4:5 ...

    Header ``key=value`` tokens (``splits``, ``score``, ``rules`` = comma-separated option names)
    before the bar, then every box as ``x,y,w,h`` or ``x,y,w,h:points``. Cells no box covers are
    voids.

Positions, diagram (what ``str(state)`` prints; boxes are read in reading order)::

    splits=5 score=9
    o - - -  5 -  5 -
    | + + +  | +  | +
    ...            (16 rows of 8 cells)

    A cell is ``o`` (top-left cell of a plain box), a number (top-left cell of a point block),
    ``-`` (same box as the cell to its left), ``|`` (same box as the cell above), ``+`` (inside a
    box, same as the cells above and to the left) or ``.`` (void).

Sequence files
    *Index lists* as players share them (josh-holder/SPLT): ``[0, 1, 1, 3, ...]``, brackets
    optional, each number the 0-based place in the box list of the box to split.
    *Kibitz geometric files*: a ``# kibitz splt sequence`` first line, comment lines starting
    with ``#``, an optional ``start: <one-line position>`` line, then move tokens separated by
    whitespace; a line may begin with a move-number label ``N.`` which must match.
"""

from __future__ import annotations

import dataclasses
import re

from engines.contract import Line
from engines.errors import IllegalMoveError, NotationError
from engines.limits import INT32_MAX, INT32_MIN, MAX_SCORE, parse_int
from engines.move_lines import line_offsets
from engines.splt.state import HEIGHT, MAX_SPLITS, WIDTH, Box, Move, Rules, State, validate_boxes

GEOMETRIC_HEADER = "# kibitz splt sequence"
GEOMETRIC_EXPLANATION = (
    "# each move is the box split, x,y,w,h before the split (x right, y down, 0-based);\n"
    "# the split is horizontal on odd move numbers and vertical on even ones"
)
MOVES_PER_LINE = 10

_INT = r"-?[0-9]+"
_MOVE_RE = re.compile(rf"^\s*[\(\[]?\s*({_INT})\s*,\s*({_INT})\s*(?:,\s*({_INT})\s*,\s*({_INT})\s*)?[\)\]]?\s*$")
_BOX_RE = re.compile(rf"^({_INT}),({_INT}),({_INT}),({_INT})(?::({_INT}))?$")
_RULE_NAMES = [field.name for field in dataclasses.fields(Rules)]


# -- moves -----------------------------------------------------------------------------------------
def move_text(move: Move) -> str:
    return str(move)


def parse_move(text: str) -> Move:
    """Read ``x,y`` or ``x,y,w,h`` (parentheses or brackets and spaces allowed)."""
    match = _MOVE_RE.match(text)
    if not match:
        raise NotationError("a move is x,y or x,y,w,h (the box to split)", token=text)
    x, y, w, h = (None if group is None else _coordinate(group, name, token=text)
                  for group, name in zip(match.groups(), ("x", "y", "w", "h")))
    return Move(x, y, w, h)


def _coordinate(text: str, field: str, **where: object) -> int:
    """A box's x, y, w, h or points as written: any value the kernels' int32 boxes hold (whether
    it fits the board is the rules' to say, with their reason)."""
    return parse_int(text, field, INT32_MIN, INT32_MAX, **where)


# -- positions -----------------------------------------------------------------------------------
def board_text(state: State) -> str:
    """The one-line form of a position, boxes in list order."""
    header = [f"splits={state.splits}", f"score={state.score}"]
    if state.rules.names():
        header.append("rules=" + ",".join(state.rules.names()))
    boxes = [_box_token(box) for box in state.boxes]
    return " ".join(header + ["|"] + boxes)


def _box_token(box: Box) -> str:
    text = f"{box.x},{box.y},{box.w},{box.h}"
    return f"{text}:{box.points}" if box.points else text


def board_diagram(state: State) -> str:
    """The multi-line picture of a position (see the module docstring)."""
    cells = [["."] * WIDTH for _ in range(HEIGHT)]
    for box in state.boxes:
        for cx, cy in box.cells():
            if (cx, cy) == (box.x, box.y):
                cells[cy][cx] = str(box.points) if box.points else "o"
            elif cy == box.y:
                cells[cy][cx] = "-"
            elif cx == box.x:
                cells[cy][cx] = "|"
            else:
                cells[cy][cx] = "+"
    width = max(len(token) for row in cells for token in row)
    header = board_text(state).split(" | ")[0].split(" |")[0]
    rows = [" ".join(token.rjust(width) for token in row).rstrip() for row in cells]
    return "\n".join([header] + rows)


def parse_board(text: str) -> State:
    """Read a position in either form (one line, or a diagram of 16 rows)."""
    lines = [
        (number, line)
        for number, line in enumerate(text.splitlines(), start=1)
        if line.strip() and not line.lstrip().startswith("#")
    ]
    if not lines:
        raise NotationError("empty position text")
    if len(lines) == 1:
        return _parse_one_line(lines[0][1], lines[0][0])
    return _parse_diagram(lines)


def _parse_header(tokens: list[tuple[str, int]], line: int) -> tuple[int, int, Rules]:
    values = {"splits": 0, "score": 0}
    rules = Rules()
    for token, column in tokens:
        key, sep, value = token.partition("=")
        if not sep:
            raise NotationError("expected key=value (splits=, score= or rules=)", line=line, column=column, token=token)
        if key in values:
            values[key] = parse_int(value, key, 0, _HEADER_BOUNDS[key], line=line, column=column, token=token)
        elif key == "rules":
            names = [name for name in value.split(",") if name]
            unknown = [name for name in names if name not in _RULE_NAMES]
            if unknown:
                raise NotationError(
                    f"unknown rule option {unknown[0]!r}; known: {', '.join(_RULE_NAMES)}",
                    line=line, column=column, token=token,
                )
            rules = Rules(**{name: True for name in names})
        else:
            raise NotationError(f"unknown key {key!r}; known: splits, score, rules", line=line, column=column, token=token)
    return values["splits"], values["score"], rules


#: splits: the kernels keep a point block (at most the split count + 2) in int32, with room for any
#: sequence a file can hold; score: see engines.limits.MAX_SCORE.
_HEADER_BOUNDS = {"splits": MAX_SPLITS, "score": MAX_SCORE}


def _tokens(line: str) -> list[tuple[str, int]]:
    """Whitespace-separated tokens with their 1-based columns."""
    return [(match.group(), match.start() + 1) for match in re.finditer(r"\S+", line)]


def _parse_one_line(line: str, line_number: int = 1) -> State:
    tokens = _tokens(line)
    bars = [i for i, (token, _) in enumerate(tokens) if token == "|"]
    if not bars:
        raise NotationError(
            "a one-line position is 'splits=N score=S | x,y,w,h x,y,w,h:points ...'", line=line_number
        )
    splits, score, rules = _parse_header(tokens[: bars[0]], line_number)
    boxes = []
    for token, column in tokens[bars[0] + 1 :]:
        match = _BOX_RE.match(token)
        if not match:
            raise NotationError(
                "a box is x,y,w,h or x,y,w,h:points", line=line_number, column=column, token=token
            )
        x, y, w, h, points = (_coordinate(group or "0", name, line=line_number, column=column, token=token)
                              for group, name in zip(match.groups(), ("x", "y", "w", "h", "points")))
        boxes.append(Box(x, y, w, h, points))
    return _checked_state(tuple(boxes), score, splits, rules, line_number)


def _parse_diagram(lines: list[tuple[int, str]]) -> State:
    header_line = lines[0]
    if "=" in header_line[1]:
        splits, score, rules = _parse_header(_tokens(header_line[1]), header_line[0])
        lines = lines[1:]
    else:
        splits, score, rules = 0, 0, Rules()
    if len(lines) != HEIGHT:
        raise NotationError(f"a diagram has {HEIGHT} rows of {WIDTH} cells; found {len(lines)} rows")
    grid: list[list[tuple[str, int, int]]] = []
    for line_number, line in lines:
        row = [(token, line_number, column) for token, column in _tokens(line)]
        if len(row) != WIDTH:
            raise NotationError(f"a diagram row has {WIDTH} cells; found {len(row)}", line=line_number)
        grid.append(row)

    owner: list[list[Box | None]] = [[None] * WIDTH for _ in range(HEIGHT)]
    boxes = []
    for y in range(HEIGHT):
        for x in range(WIDTH):
            token, line_number, column = grid[y][x]
            where = {"line": line_number, "column": column, "token": token}
            if token == ".":
                continue
            if token == "o" or (token.isascii() and token.isdigit()):
                w = 1
                while x + w < WIDTH and grid[y][x + w][0] == "-":
                    w += 1
                h = 1
                while y + h < HEIGHT and grid[y + h][x][0] == "|":
                    h += 1
                box = Box(x, y, w, h, 0 if token == "o" else _coordinate(token, "points", **where))
                for cx, cy in box.cells():
                    expected = "+" if cx > x and cy > y else None
                    if expected and grid[cy][cx][0] != expected:
                        inner = grid[cy][cx]
                        raise NotationError(
                            f"cell ({cx},{cy}) is inside box {box.label()} and must be '+'",
                            line=inner[1], column=inner[2], token=inner[0],
                        )
                    owner[cy][cx] = box
                boxes.append(box)
            elif token in ("-", "|", "+"):
                if owner[y][x] is None:
                    direction = {"-": "left", "|": "above", "+": "above and to the left"}[token]
                    raise NotationError(
                        f"cell ({x},{y}) says it belongs to the box {direction}, but there is none", **where
                    )
            else:
                raise NotationError("a diagram cell is o, a number, -, |, + or .", **where)
    return _checked_state(tuple(boxes), score, splits, rules, None)


def _checked_state(boxes: tuple[Box, ...], score: int, splits: int, rules: Rules, line: int | None) -> State:
    """Build a state, refusing boards the game cannot show."""
    problem = validate_boxes(boxes) or _impossible(boxes, splits)
    if problem:
        raise NotationError(problem, line=line)
    return State(boxes=boxes, score=score, splits=splits, rules=rules)


def _impossible(boxes: tuple[Box, ...], splits: int) -> str | None:
    covered = {cell for box in boxes for cell in box.cells()}
    for box in boxes:
        if box.points > splits:
            return f"point block {box.label()} shows {box.points} but only {splits} splits were made"
        if box.bottom < HEIGHT and not any((cx, box.bottom) in covered for cx in range(box.x, box.right)):
            return f"box {box.label()} has nothing under it and would fall"
    return None


# -- sequence files -----------------------------------------------------------------------------
def looks_like_index_list(text: str) -> bool:
    """Whether a sequence text is an index list (as opposed to a Kibitz geometric file): no
    comment or ``start:`` line, and list punctuation (brackets or comma-space) or one number."""
    body = text.strip()
    if not body or body.startswith("#") or "start:" in body:
        return False
    return body.startswith("[") or ", " in body or bool(re.fullmatch(r"\d+", body))


def _line_and_column(text: str, at: int) -> tuple[int, int]:
    """The 1-based line and column of offset ``at`` (counted only for what an error names, so a
    long file costs nothing more)."""
    return text.count("\n", 0, at) + 1, at - (text.rfind("\n", 0, at) + 1) + 1


def _index_tokens(text: str, source: str | None) -> list[tuple[int, str, int]]:
    """(value, token, offset) of each number of an index list, with precise errors."""
    values, error = _index_tokens_until_error(text, source)
    if error is not None:
        raise error
    return values


def _index_tokens_until_error(text: str, source: str | None
                              ) -> tuple[list[tuple[int, str, int]], NotationError | None]:
    """The numbers of an index list before the first entry that is not one, and the error that
    entry gives (None when every entry is a number)."""
    body_start = len(text) - len(text.lstrip())
    body = text.strip()
    opened = body.startswith("[")
    closed = body.endswith("]")
    if opened != closed:
        missing = "]" if opened else "["
        return [], NotationError(f"unbalanced brackets: the list has no {missing!r}", source=source)
    offset = body_start + (1 if opened else 0)
    inner = body[1:-1] if opened else body
    if not inner.strip():
        return [], None
    values = []
    position = offset
    for number, piece in enumerate(inner.split(","), start=1):
        token = piece.strip()
        token_at = position + (len(piece) - len(piece.lstrip()))
        if token.isdigit() and token.isascii() and len(token) <= 18:  # what any int64 holds
            values.append((int(token), token, token_at))
        else:
            line, column = _line_and_column(text, token_at)
            where = {"source": source, "line": line, "column": column, "move_number": number}
            if not token:
                return values, NotationError("empty entry (two commas in a row, or a comma at the end)", **where)
            if not (token.isascii() and token.isdigit()):
                return values, NotationError("not a box index (a whole number >= 0)", token=token, **where)
            try:
                values.append((parse_int(token, "a box index", 0, None, token=token, **where), token, token_at))
            except NotationError as error:
                return values, error
        position += len(piece) + 1
    return values, None


def parse_index_list(text: str, start: State | None = None, source: str | None = None) -> Line:
    """Read an index-list file and turn it into geometric moves by replaying it from ``start``
    (the empty board by default). Errors name the move number, the token and why."""
    from engines.splt import fast

    start = start or State()
    # the moves before an entry that is not a number are played first: the first bad move is named
    tokens, unreadable = _index_tokens_until_error(text, source)
    result = fast.replay_indices(start, [value for value, _, _ in tokens])
    if result.played == len(tokens) and unreadable is not None:
        raise unreadable
    if result.played < len(tokens):
        index, token, at = tokens[result.played]
        line, column = _line_and_column(text, at)
        where = {"source": source, "line": line, "column": column, "move_number": result.played + 1, "token": token}
        boxes = result.state.boxes
        if index >= len(boxes):
            raise IllegalMoveError(f"index {index} but the board has only {len(boxes)} boxes (0-{len(boxes) - 1})", **where)
        raise IllegalMoveError(boxes[index].why_not_splittable(result.state.orientation), **where)
    return Line(start, result.moves)


def index_list_text(line: Line) -> str:
    """The index-list text of a line: ``[i, j, ...]`` with no trailing newline, as the reference
    tools write it."""
    from engines.splt import fast

    return "[" + ", ".join(map(str, fast.replay_checked(line.start, list(line.moves)).indices)) + "]"


def geometric_text(line: Line) -> str:
    """The Kibitz geometric sequence text of a line."""
    out = [GEOMETRIC_HEADER, GEOMETRIC_EXPLANATION]
    if line.start != State():
        out.append("start: " + board_text(line.start))
    moves = [move_text(move) for move in line.moves]
    for first in range(0, len(moves), MOVES_PER_LINE):
        chunk = moves[first : first + MOVES_PER_LINE]
        out.append(f"{first + 1}. " + " ".join(chunk))
    return "\n".join(out) + "\n"


def parse_geometric(text: str, source: str | None = None) -> Line:
    """Read a Kibitz geometric sequence file (moves are only parsed here, not played)."""
    start = State()
    moves: list[Move] = []
    seen_start = False
    for line_number, raw in enumerate(text.splitlines(), start=1):
        stripped = raw.strip()
        if not stripped or stripped.startswith("#"):
            continue
        if stripped.startswith("start:"):
            if moves or seen_start:
                raise NotationError("'start:' must come once, before the moves", source=source, line=line_number)
            try:
                start = _parse_one_line(stripped[len("start:") :], line_number)
            except NotationError as error:
                raise error.located(source=source) from None
            seen_start = True
            continue
        for token, column in _tokens(raw):
            label = re.fullmatch(r"(\d+)\.", token)
            if label:
                if int(label.group(1)) != len(moves) + 1:
                    raise NotationError(
                        f"label says move {label.group(1)} but the next move is {len(moves) + 1}",
                        source=source, line=line_number, column=column, token=token,
                    )
                continue
            try:
                moves.append(parse_move(token))
            except NotationError as error:
                raise error.located(
                    source=source, line=line_number, column=column, move_number=len(moves) + 1
                ) from None
    return Line(start, tuple(moves))


def sequence_move_spans(text: str, format: str | None = None) -> list[tuple[int, int]]:
    """(start, end) offsets of each move's token in a sequence text, in move order: the numbers
    of an index list; the ``x,y,w,h`` tokens of a geometric file (its comments, ``start:`` line
    and ``N.`` labels hold none; brackets around a move are not part of it). Raises
    NotationError for an index list that cannot be read, ValueError for an unknown format."""
    format = format or ("index" if looks_like_index_list(text) else "geometric")
    if format == "index":
        return [(at, at + len(token)) for _value, token, at in _index_tokens(text, None)]
    if format != "geometric":
        raise ValueError(f"unknown SPL-T sequence format {format!r}; known: geometric, index")
    spans = []
    for base, raw in zip(line_offsets(text), text.splitlines()):
        stripped = raw.strip()
        if not stripped or stripped.startswith("#") or stripped.startswith("start:"):
            continue
        for token, column in _tokens(raw):
            if re.fullmatch(r"\d+\.", token):
                continue
            begin = base + column - 1
            end = begin + len(token)
            inner = token.lstrip("([")
            begin += len(token) - len(inner)
            end -= len(inner) - len(inner.rstrip(")]"))
            spans.append((begin, end))
    return spans


def parse_sequence(text: str, source: str | None = None, start: State | None = None) -> Line:
    """Read either sequence format (auto-detected). Index lists are replayed from ``start`` to
    resolve their boxes, so their illegal moves are reported here; geometric files are only
    parsed (replay them to check legality)."""
    if looks_like_index_list(text):
        return parse_index_list(text, start, source)
    line = parse_geometric(text, source)
    if start is not None and line.start == State():
        line = Line(start, line.moves)
    return line
