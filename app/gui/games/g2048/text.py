"""2048's words for the status bar: the position line and a one-sentence turn summary."""

from __future__ import annotations

from collections.abc import Iterable

from engines import Game
from engines.g2048 import DIRECTION_NAMES, GameOver, TileSpawned, TilesSlid, Won
from engines.g2048.state import State


def describe(game: Game, state: State) -> str:
    """The permanent status line, e.g. "score 12,345 · max tile 2048 · 3 slides",
    "score 4 · max tile 4 · tile due", "score 0 · 2 tiles due", "... · game over"."""
    parts = [f"score {state.score:,}"]
    if state.max_tile:
        parts.append(f"max tile {state.max_tile}")
    if game.is_over(state):
        parts.append("game over")
    elif state.spawns_due:
        parts.append("tile due" if state.spawns_due == 1 else f"{state.spawns_due} tiles due")
    else:
        slides = len(game.legal_moves(state))
        parts.append(f"{slides} slide{'' if slides == 1 else 's'}")
    return " · ".join(parts)


def summarize_turn(events: Iterable[object]) -> str:
    """What a turn did: "slid left: +36 (2 merges)", "slid up", "2 spawned at row 1, column 3
    (2@0,2)", with "· 2048! (You win)" or "· game over at 1,234" when that happened."""
    parts: list[str] = []
    for event in events:
        if isinstance(event, TilesSlid):
            text = f"slid {DIRECTION_NAMES[event.direction]}"
            if event.gain:
                merges = len(event.merged)
                text += f": +{event.gain:,} ({merges} merge{'' if merges == 1 else 's'})"
            parts.append(text)
        elif isinstance(event, TileSpawned):
            parts.append(f"{event.value} spawned at row {event.row + 1}, column {event.column + 1} "
                         f"({event.value}@{event.row},{event.column})")
        elif isinstance(event, Won):
            parts.append("2048! (the game says You win)")
        elif isinstance(event, GameOver):
            parts.append(f"game over at {event.score:,}")
    return " · ".join(parts)
