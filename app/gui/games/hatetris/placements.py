"""Placements as the board handles them: their cells, which one a hovered cell means, the ghost
cursor the keys walk, and what to flash after a turn. No rule is decided here: the legal
placements come from ``GAME.legal_moves``, the turn from the engine's events.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Sequence
from typing import Any

from engines.hatetris import LinesCleared, PieceLocked, Placement, State
from engines.hatetris.pieces import CELLS, PIECE_INDEX

Cell = tuple[int, int]


def placement_cells(move: Placement) -> tuple[Cell, ...]:
    """The four (column, row) cells a placement covers in the well."""
    return tuple((move.x + cx, move.y + cy) for cx, cy in CELLS[move.piece_index][move.o])


def spawn_cells(state: State) -> tuple[Cell, ...]:
    """The cells of the live piece where it appears: (spawn x, 0, 0), as the page shows it."""
    if state.piece is None:
        return ()
    x = state.rules.spawn_x
    return tuple((x + cx, cy) for cx, cy in CELLS[PIECE_INDEX[state.piece]][0])


def rank_by_cells(candidates: Sequence[Any]) -> dict[frozenset[Cell], int]:
    """Cells -> rank (0 = best) of the first candidate covering them. The advisor lists a well
    once even when several placements reach it (O's orientations, S/Z twins); those placements
    cover the same cells, so the cells find the candidate of any of them."""
    ranks: dict[frozenset[Cell], int] = {}
    for rank, candidate in enumerate(candidates):
        ranks.setdefault(frozenset(placement_cells(candidate.move)), rank)
    return ranks


def candidate_for(move: Placement, candidates: Sequence[Any]) -> Any | None:
    """The candidate of ``move`` itself, else the one covering the same cells, else None."""
    cells = frozenset(placement_cells(move))
    twin = None
    for candidate in candidates:
        if candidate.move == move:
            return candidate
        if twin is None and frozenset(placement_cells(candidate.move)) == cells:
            twin = candidate
    return twin


def placements_covering(cell: Cell, moves: Iterable[Placement],
                        ranks: dict[frozenset[Cell], int] | None = None) -> list[Placement]:
    """The legal placements whose cells include ``cell``, the one a click there means first:
    the advisor's best-ranked (when ``ranks`` are given), else the lowest in the well; placements
    covering the same cells as an earlier one are left out."""
    covering = [move for move in moves if cell in placement_cells(move)]

    def preference(move: Placement) -> tuple:
        cells = placement_cells(move)
        rank = ranks.get(frozenset(cells), len(ranks)) if ranks else 0
        lowest = max(y for _, y in cells)
        depth = sum(y for _, y in cells)
        return (rank, -lowest, -depth, move)

    chosen, seen = [], set()
    for move in sorted(covering, key=preference):
        cells = frozenset(placement_cells(move))
        if cells not in seen:
            seen.add(cells)
            chosen.append(move)
    return chosen


# -- the ghost cursor the keys move ------------------------------------------------------------------
def _drops(moves: Sequence[Placement], o: int) -> dict[int, Placement]:
    """Per box column x, the highest resting placement of orientation ``o``: where the piece
    lands when dropped straight down at that column."""
    drops: dict[int, Placement] = {}
    for move in moves:
        if move.o == o and (move.x not in drops or move.y < drops[move.x].y):
            drops[move.x] = move
    return drops


def cursor_start(moves: Sequence[Placement], spawn_x: int) -> Placement | None:
    """Where the cursor starts: the live piece dropped straight down from its spawn (x, 0, 0),
    or as near to it as the well allows."""
    if not moves:
        return None
    for o in (0, 1, 2, 3):
        drops = _drops(moves, o)
        if drops:
            x = min(drops, key=lambda column: (abs(column - spawn_x), column))
            return drops[x]
    return moves[0]


def cursor_step(moves: Sequence[Placement], cursor: Placement, dx: int) -> Placement:
    """The cursor moved one box column left (dx < 0) or right: the nearest column that way with
    a placement of the same orientation, dropped straight down; at the wall it stays."""
    drops = _drops(moves, cursor.o)
    ahead = [x for x in drops if (x - cursor.x) * dx > 0]
    if not ahead:
        return cursor
    return drops[min(ahead, key=lambda x: abs(x - cursor.x))]


def cursor_rotate(moves: Sequence[Placement], cursor: Placement) -> Placement:
    """The cursor turned clockwise about its box, as the Up key turns the piece: the next
    orientation that has placements, at the nearest box column, dropped straight down."""
    for turn in (1, 2, 3):
        drops = _drops(moves, (cursor.o + turn) % 4)
        if drops:
            x = min(drops, key=lambda column: (abs(column - cursor.x), column))
            return drops[x]
    return cursor


def cursor_lower(moves: Sequence[Placement], cursor: Placement) -> Placement:
    """Another resting height at the cursor's column and orientation (a piece slid under an
    overhang), cycling from the drop position downwards."""
    heights = sorted(move for move in moves if (move.x, move.o) == (cursor.x, cursor.o))
    if len(heights) < 2 or cursor not in heights:
        return cursor
    return heights[(heights.index(cursor) + 1) % len(heights)]


# -- what a turn did ---------------------------------------------------------------------------------
@dataclasses.dataclass(frozen=True)
class TurnMarks:
    """What to flash after a turn: the locked piece's cells where they are now (cells in a
    cleared row are gone) and the rows that were cleared (their numbers before the clear)."""

    locked: tuple[Cell, ...] = ()
    cleared_rows: tuple[int, ...] = ()

    def __bool__(self) -> bool:
        return bool(self.locked or self.cleared_rows)


def turn_marks(events: Iterable[object]) -> TurnMarks:
    """The marks of one turn, read from its events."""
    locked: tuple[Cell, ...] = ()
    cleared: tuple[int, ...] = ()
    for event in events:
        if isinstance(event, PieceLocked):
            locked = tuple(event.cells)
        elif isinstance(event, LinesCleared):
            cleared = tuple(event.rows)
    if cleared:
        # rows above a cleared row move down one row per cleared row below them
        locked = tuple((x, y + sum(1 for row in cleared if row > y)) for x, y in locked if y not in cleared)
    return TurnMarks(locked, cleared)


def compact_keys(keys: str) -> str:
    """A key path to type into the real game, short: runs as ``R4``, the final run of Downs (the
    drop that rests and locks the piece) as ``↓``. ``URRRRDDDD`` -> ``U R4 ↓``."""
    runs: list[tuple[str, int]] = []
    for key in keys:
        if runs and runs[-1][0] == key:
            runs[-1] = (key, runs[-1][1] + 1)
        else:
            runs.append((key, 1))
    words = [key if count == 1 else f"{key}{count}" for key, count in runs]
    if runs and runs[-1][0] == "D":
        words[-1] = "↓"
    return " ".join(words)
