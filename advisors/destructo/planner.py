"""The level planner: before every click, a beam search to the end of the level
(:mod:`advisors.destructo.beam`) with its width fitted to a time budget, and the best line found
so far remembered, so a later search that finds less never undoes what an earlier one found (the
memorisation that makes nested Monte-Carlo search strong, spec 3.3).
"""

from __future__ import annotations

import dataclasses
import time

import numpy as np

from advisors.destructo import beam
from engines import limits
from engines.destructo.fast import encode, removal
from engines.destructo.rules import Board
from engines.destructo.state import Click, State, UseUndo

MIN_WIDTH, MAX_WIDTH = 4, 5000
#: Seconds a search takes per unit of width x depth of the line x boulders on the board x cells of
#: the board, about, on the 2-core machines Kibitz is measured on (a board's cost is a pass over
#: its cells; the boards a layer makes grow with its boulders); each planner corrects it.
SECONDS_PER_UNIT = 1.5e-9
#: Only searches this long, on a board at least this full, correct the rate: a level's last clicks
#: take microseconds whatever the width, and a sparse board makes far fewer boards per boulder.
MEASURABLE_SECONDS = 0.02
#: A board with no line remembered (a level's start, after a Fill or a Shuffle) gets this many
#: clicks' budgets (the line it finds is followed; later searches only improve on it), the other
#: clicks this share of one, so that a level's clicks take about the budget on average (measured:
#: 146-150 ms a click over whole games with a budget of 150 ms; the opening searches take 3-5 s).
OPENING_SHARE = 10
ORDINARY_SHARE = 0.8
MEASURABLE_FULLNESS = 0.5


#: HTML5 keeps an undone click's points (spec 1.4), so a banked Undo spent right after a big click
#: pays that click again. Worth waiting for a group of 16 (32 points) early; the Undo is lost with
#: the game, so the bar drops in the last levels.
UNDO_BAR = {9: 20, 10: 12}
UNDO_BAR_EARLY = 30


def fitted_width(budget_seconds: float, depth: int, board: Board, seconds_per_unit: float = SECONDS_PER_UNIT) -> int:
    """The beam width a search of a line ``depth`` clicks long from ``board`` can afford in
    ``budget_seconds``."""
    units = max(depth, 1) * max(boulders_on(board), 1) * len(board) * len(board[0])
    return int(np.clip(budget_seconds / (seconds_per_unit * units), MIN_WIDTH, MAX_WIDTH))


def boulders_on(board: Board) -> int:
    return sum(cell is not None for row in board for cell in row)


@dataclasses.dataclass(frozen=True)
class Plan:
    """A line of clicks from a board: ``total`` = its points plus the end bonus when it reaches
    the end of the level (``complete``), else plus Irpan's V where it stops (an estimate)."""

    clicks: tuple[Click, ...]
    total: float
    complete: bool


@dataclasses.dataclass(frozen=True)
class Planning:
    """One search: the best plan, the best plan through each first click, and its cost."""

    best: Plan
    by_first: dict
    width: int
    boards: int
    seconds: float


def _clicks(cells: np.ndarray, columns: int) -> tuple[Click, ...]:
    return tuple(Click(int(cell) // columns, int(cell) % columns) for cell in cells if cell >= 0)


def search(board: Board, width: int, per_first: int = 0) -> Planning:
    """Beam search of ``width`` from ``board`` to the end of its level; ``per_first`` more boards
    a layer are kept through each first click, so each gets a line to the end (for ranking)."""
    limits.check_int(width, "the beam width", 1, limits.INT64_MAX)
    limits.check_int(per_first, "the boards kept per first click", 0, limits.INT64_MAX)
    grid, _ = encode(board)
    columns = grid.shape[1]
    limits.check_memory(f"a beam search of width {width:,} on this {grid.shape[0]}x{columns} board",
                        beam.search_bytes(grid.ravel(), width, per_first), field="the width")
    began = time.perf_counter()
    best_total, best_line, roots, root_total, root_lines, root_ended, boards = beam.beam_search(
        grid.ravel().copy(), columns, width, per_first)
    seconds = time.perf_counter() - began
    by_first = {}
    for index, cell in enumerate(roots):
        line = _clicks(root_lines[index], columns)
        by_first[Click(int(cell) // columns, int(cell) % columns)] = Plan(line, float(root_total[index]),
                                                                          bool(root_ended[index]))
    best = Plan(_clicks(best_line, columns), float(best_total), True)
    if best_total < 0 and by_first:  # no line reached the end: the best estimate
        best = max(by_first.values(), key=lambda plan: plan.total)
    return Planning(best, by_first, width, int(boards), seconds)


class LevelPlanner:
    """Chooses clicks for one game, remembering its best line between them.

    With ``width`` the beam's width is fixed (reproducible); otherwise the clicks take about
    ``budget_ms`` milliseconds on average, the first search of a board with no line remembered
    taking ``opening_ms`` (default ten budgets) and the others less: a search's time grows as
    width x depth of the line left x boulders x cells, and the last measurable search's time per
    unit of that fits the next width.
    """

    def __init__(self, budget_ms: float = 150.0, width: int | None = None, use_undo: bool = True,
                 opening_ms: float | None = None):
        self.budget = ORDINARY_SHARE * budget_ms / 1000.0
        self.opening = (opening_ms if opening_ms is not None else OPENING_SHARE * budget_ms) / 1000.0
        self.fixed_width = width
        self.use_undo = use_undo
        self._remembered: tuple[Board, Plan] | None = None
        self._last: tuple[Board, int, Plan] | None = None  # the board before the last click, its points, the plan
        self._seconds_per_unit = SECONDS_PER_UNIT

    def forget(self) -> None:
        self._remembered = None

    def _width(self, depth: int, board: Board, opening: bool) -> int:
        if self.fixed_width is not None:
            return self.fixed_width
        return fitted_width(self.opening if opening else self.budget, depth, board, self._seconds_per_unit)

    def plan(self, state: State) -> Plan | None:
        """The best line from ``state``'s board: this search's or the remembered one."""
        board = state.board
        remembered = self._remembered[1] if self._remembered and self._remembered[0] == board else None
        boulders = boulders_on(board)
        depth = len(remembered.clicks) if remembered else max(boulders // 4, 1)  # levels end ~1 click per 4
        width = self._width(depth, board, opening=remembered is None)
        found = search(board, width)
        cells = len(board) * len(board[0])
        if (found.best.clicks and found.seconds >= MEASURABLE_SECONDS and width < MAX_WIDTH
                and boulders >= MEASURABLE_FULLNESS * cells):
            self._seconds_per_unit = found.seconds / (width * len(found.best.clicks) * boulders * cells)
        best = found.best
        if remembered is not None and remembered.total >= best.total:
            best = remembered
        return best if best.clicks else None

    def choose(self, state: State) -> Click | UseUndo | None:
        """The first click of the best line (None when the board has none), remembering the rest;
        with ``use_undo``, the banked Undo right after a click worth the level's bar."""
        if (self.use_undo and state.can_undo and self._last is not None and self._last[0] == state.undo_board
                and self._last[1] >= UNDO_BAR.get(state.level, UNDO_BAR_EARLY)):
            self._remembered = (self._last[0], self._last[2])
            self._last = None
            return UseUndo()
        best = self.plan(state)
        if best is None:
            self._remembered = None
            return None
        first = best.clicks[0]
        _, points, after = removal(state.board, first.row, first.column)
        self._remembered = (after, Plan(best.clicks[1:], best.total - points, best.complete))
        self._last = (state.board, points, best)
        return first
