"""Every click of a Destruct-o-Match position ranked, best first (DESIGN.md, "Advisors")."""

from __future__ import annotations

import dataclasses

from advisors.candidate import Candidate
from advisors.destructo import kernel
from engines.destructo import GAME, Click, State
from engines.destructo.fast import encode
from engines.destructo.rules import EXPLODE, removal


@dataclasses.dataclass(frozen=True)
class DestructoCandidate(Candidate):
    """A click with what it removes (``cells``: the group, an Overkill's whole colour or an
    Explode's 3x3), its immediate ``points`` and the number of boulders in the group ``size``
    (the Explode's cells for an Explode). ``score`` is the value of the best line found that
    starts with the click: points along it plus the value of where it ends."""

    cells: frozenset = frozenset()
    points: int = 0
    size: int = 0


def rank(state: State, limit: int | None = None, depth: int = 3, expand: int = 6) -> list[DestructoCandidate]:
    """Every click best first, valued by Irpan's search (``depth``, ``expand``) after it; nothing
    at a chance step or after the game."""
    if state.due is not None or state.finished:
        return []
    clicks = [move for move in GAME.legal_moves(state) if isinstance(move, Click)]
    scored = []
    for click in clicks:
        cells, points = removal(state.board, click.row, click.column)
        after = GAME.play(state, click).state
        if after.board and after.level == state.level and after.due is None:
            grid, _ = encode(after.board)
            rest, row, column = kernel.search(grid, depth - 1, expand) if depth > 1 else (
                kernel.value_of(grid), -1, -1)
            line = (click,) if row < 0 else (click, Click(int(row), int(column)))
        else:
            rest = float(after.score - state.score - points)  # the level ended: its real end bonus
            line = (click,)
        scored.append((points + rest, click, cells, points, line))
    scored.sort(key=lambda item: (-item[0], item[1]))
    best = scored[0][0] if scored else 0.0
    candidates = []
    for value, click, cells, points, line in scored[:limit]:
        explode = state.board[click.row][click.column].power == EXPLODE
        what = (f"Explode: {len(cells)} boulders, no points" if explode
                else f"{len(cells)} boulders for {points} point{'' if points == 1 else 's'}")
        candidates.append(DestructoCandidate(
            move=click, score=value, loss=best - value, explanation=f"{what}; line value {value:.0f}",
            principal_variation=line, cells=frozenset(cells), points=points, size=len(cells)))
    return candidates
