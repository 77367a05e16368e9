"""Checking a placement against a position, shared by the fast and the reference path."""

from __future__ import annotations

from collections.abc import Callable, Collection

from engines.errors import IllegalMoveError
from engines.hatetris.state import Placement, State


def check(state: State, move: Placement, resting: Callable[[], Collection[tuple[int, int, int]]],
          fits: Callable[[int, int, int], bool]) -> None:
    """Raise :class:`IllegalMoveError` saying why ``move`` cannot be played in ``state``;
    ``resting()`` gives the current piece's resting positions (asked only once the piece is
    known to be the right one)."""
    if not isinstance(move, Placement):
        raise IllegalMoveError(f"a HATETRIS move is a placement such as S@6,17,0, not {move!r}")
    if state.over:
        raise IllegalMoveError("the game is over", token=str(move))
    if move.piece != state.piece:
        raise IllegalMoveError(f"the piece to place is {state.piece}, not {move.piece}", token=str(move))
    position = (move.x, move.y, move.o)
    if position in resting():
        return
    if not fits(*position):
        reason = f"{move} does not fit: it overlaps filled cells or leaves the well"
    elif fits(move.x, move.y + 1, move.o):
        reason = f"{move} is not a resting position: the piece can still move down"
    else:
        reason = f"{move} cannot be reached from the spawn"
    raise IllegalMoveError(reason, token=str(move))
