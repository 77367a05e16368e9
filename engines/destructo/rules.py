"""The deterministic core of Destruct-o-Match (spec 1.1-1.5) in plain Python: groups, removal,
gravity, group scores, the end-of-level bonus and the deterministic power-ups.

States, turns and chance steps are in :mod:`engines.destructo.state` and
:mod:`engines.destructo.reference`; the compiled core in :mod:`engines.destructo.kernel`.

A board is a tuple of rows, top to bottom; a cell is None (empty) or a :class:`Boulder`. Boulders
fall straight down (no sideways shift, spec 1.1) unless ``shift_columns`` asks for SameGame's.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable

#: Spec 1.2: a group of n <= 15 scores n plus this bonus; n >= 16 scores 2n.
GROUP_BONUS = {2: 0, 3: 0, 4: 0, 5: 1, 6: 1, 7: 2, 8: 3, 9: 3, 10: 4, 11: 6, 12: 7, 13: 7, 14: 8, 15: 9}
MULTIPLIER = 3

#: Power-ups. Explode and Wild have no colour of their own; the others ride on a coloured carrier.
#: An Indestructible boulder (what an expired Timer leaves, spec 1.4) is kept with them: no colour,
#: never in a group, removed only by an Explode. The game never deals it; it comes in entered boards.
EXPLODE, WILD, MORPH, OVERKILL, MULTIPLY, TIMER, FILL, SHUFFLE, UNDO, INDESTRUCTIBLE = (
    "explode", "wild", "morph", "overkill", "multiplier", "timer", "fill", "shuffle", "undo", "indestructible")
POWER_UPS = (EXPLODE, WILD, MORPH, OVERKILL, MULTIPLY, TIMER, FILL, SHUFFLE, UNDO, INDESTRUCTIBLE)
COLOURLESS = (EXPLODE, WILD, MORPH, INDESTRUCTIBLE)


@dataclasses.dataclass(frozen=True, slots=True)
class Boulder:
    """A boulder: its colour (a name such as ``"green"``; None for Explode, Wild, Morph and
    Indestructible) and the power-up it carries, if any."""

    colour: str | None
    power: str | None = None

    def __post_init__(self) -> None:
        if self.power is not None and self.power not in POWER_UPS:
            raise ValueError(f"unknown power-up {self.power!r}; known: {', '.join(POWER_UPS)}")
        if (self.colour is None) != (self.power in COLOURLESS):
            raise ValueError("Explode, Wild, Morph and Indestructible boulders have no colour; every other boulder has one")

    @property
    def matches_any(self) -> bool:
        """Wild, and Morph treated as Wild (spec 1.5)."""
        return self.power in (WILD, MORPH)


Board = tuple[tuple[Boulder | None, ...], ...]
Cell = tuple[int, int]


def group_score(size: int) -> int:
    """Points of a group of ``size`` boulders (spec 1.2): n plus a bonus up to 15, then 2n."""
    if size < 2:
        raise ValueError("a group has at least 2 boulders")
    return 2 * size if size >= 16 else size + GROUP_BONUS[size]


def end_bonus(left: int) -> int:
    """The end-of-level bonus for ``left`` boulders left over: max(0, 100 - 10 * left)."""
    return max(0, 100 - 10 * left)


def _neighbours(board: Board, row: int, column: int) -> Iterable[Cell]:
    for r, c in ((row - 1, column), (row + 1, column), (row, column - 1), (row, column + 1)):
        if 0 <= r < len(board) and 0 <= c < len(board[0]):
            yield r, c


def group_at(board: Board, row: int, column: int) -> frozenset[Cell]:
    """The 4-connected group a click on (row, column) takes: boulders of the clicked boulder's
    colour and Wild ones, joined through each other. An Explode, an empty cell or a Wild clicked
    on its own take no group (an empty set)."""
    start = board[row][column]
    if start is None or start.colour is None:
        return frozenset()
    seen = {(row, column)}
    stack = [(row, column)]
    while stack:
        cell = stack.pop()
        for r, c in _neighbours(board, *cell):
            other = board[r][c]
            if (r, c) in seen or other is None:
                continue
            if other.colour == start.colour or other.matches_any:
                seen.add((r, c))
                stack.append((r, c))
    return frozenset(seen)


def groups(board: Board) -> list[frozenset[Cell]]:
    """Every group of two or more boulders, each once, in reading order of its first coloured
    cell. A Wild may belong to several (one per colour around it)."""
    found: list[frozenset[Cell]] = []
    taken: set[Cell] = set()  # coloured cells already in a group of their colour
    for r, row in enumerate(board):
        for c, boulder in enumerate(row):
            if boulder is None or boulder.colour is None or (r, c) in taken:
                continue
            group = group_at(board, r, c)
            taken.update(cell for cell in group if board[cell[0]][cell[1]].colour == boulder.colour)
            if len(group) >= 2:
                found.append(group)
    return found


def has_group(board: Board) -> bool:
    """Whether some coloured boulder touches one of its colour or a Wild (no flood fill needed)."""
    for r, row in enumerate(board):
        for c, boulder in enumerate(row):
            if boulder is None or boulder.colour is None:
                continue
            for nr, nc in _neighbours(board, r, c):
                other = board[nr][nc]
                if other is not None and (other.colour == boulder.colour or other.matches_any):
                    return True
    return False


def explode_cells(board: Board, row: int, column: int) -> frozenset[Cell]:
    """An Explode and its 8 neighbours (diagonals too), whatever they are."""
    return frozenset((r, c) for r in range(row - 1, row + 2) for c in range(column - 1, column + 2)
                     if 0 <= r < len(board) and 0 <= c < len(board[0]) and board[r][c] is not None)


def removal(board: Board, row: int, column: int) -> tuple[frozenset[Cell], int]:
    """What a click on (row, column) removes and scores: a group (x3 with a Multiplier in it; with
    an Overkill in it every boulder of its colour goes too, only the group scoring), or an
    Explode's 3x3 (no points). A click that takes nothing raises ValueError saying why."""
    boulder = board[row][column] if 0 <= row < len(board) and 0 <= column < len(board[0]) else None
    if boulder is None:
        raise ValueError(f"({row}, {column}) holds no boulder")
    if boulder.power == EXPLODE:
        return explode_cells(board, row, column), 0
    group = group_at(board, row, column)
    if len(group) < 2:
        reason = "is Indestructible: only an Explode removes it" if boulder.power == INDESTRUCTIBLE else \
            "has no neighbour of its colour"
        raise ValueError(f"the boulder at ({row}, {column}) {reason}")
    points = group_score(len(group))
    powers = [board[r][c].power for r, c in group]
    if MULTIPLY in powers:
        points *= MULTIPLIER
    if OVERKILL in powers:
        same = {(r, c) for r, line in enumerate(board) for c, other in enumerate(line)
                if other is not None and other.colour == boulder.colour}
        group = group | same
    return frozenset(group), points


def remove(board: Board, cells: Iterable[Cell], shift_columns: bool = False) -> Board:
    """The board with ``cells`` emptied and the boulders above them fallen straight down; with
    ``shift_columns`` empty columns also close up to the left, as in SameGame."""
    gone = set(cells)
    height = len(board)
    columns = []
    for c in range(len(board[0])):
        kept = [board[r][c] for r in range(height) if board[r][c] is not None and (r, c) not in gone]
        columns.append([None] * (height - len(kept)) + kept)
    if shift_columns:
        full = [column for column in columns if any(cell is not None for cell in column)]
        columns = full + [[None] * height for _ in range(len(columns) - len(full))]
    return tuple(tuple(columns[c][r] for c in range(len(columns))) for r in range(height))


def boulders_left(board: Board) -> int:
    return sum(cell is not None for row in board for cell in row)


def level_over(board: Board) -> bool:
    """No group of two and no Explode left."""
    if any(cell is not None and cell.power == EXPLODE for row in board for cell in row):
        return False
    return not has_group(board)
