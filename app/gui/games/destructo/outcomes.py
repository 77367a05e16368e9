"""Chance outcomes pasted from the real game: a level's board, or the board after a Shuffle."""

from __future__ import annotations

from typing import Any

from engines.destructo.notation import parse_state
from engines.destructo.state import LEVEL_DUE, SHUFFLE_DUE, NewBoard


def pasted_outcome(game: Any, state: Any, text: str) -> NewBoard | None:
    """While a level's board or a Shuffle's colours are due, pasted rows (without a ``level``
    header, which makes a whole position) that can be that board (a full board for a level, the
    same shape and power-ups for a Shuffle) are that board; None otherwise."""
    if state.due not in (LEVEL_DUE, SHUFFLE_DUE) or text.lstrip().startswith("level"):
        return None
    try:
        outcome = NewBoard(parse_state(text).board)
        game.apply_chance(state, outcome)
    except ValueError:
        return None
    return outcome
