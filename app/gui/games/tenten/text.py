"""1010!'s words for the status bar: the position line and a one-sentence turn summary."""

from __future__ import annotations

from collections.abc import Iterable

from engines import Game
from engines.tenten import GameOver, PiecePlaced, PiecesDealt
from engines.tenten.state import State


def describe(game: Game, state: State) -> str:
    """"score 661 · 59 cells free · tray V i –", "score 0 · deal due", "... · no more moves"."""
    parts = [f"score {state.score:,}", f"{100 - state.filled_count} cells free"]
    if state.deal_due:
        parts.append("deal due")
    else:
        parts.append("tray " + " ".join(slot or "–" for slot in state.tray))
    if game.is_over(state):
        parts.append("no more moves")
    return " · ".join(parts)


def summarize_turn(events: Iterable[object]) -> str:
    """"placed V at row 1, column 1: +5", "... +35, 2 lines (row 3, column 7)", "dealt V i ."."""
    parts: list[str] = []
    for event in events:
        if isinstance(event, PiecePlaced):
            text = f"placed {event.piece} at row {event.row + 1}, column {event.column + 1}: +{event.points}"
            if event.lines:
                lines = [f"row {r + 1}" for r in event.rows] + [f"column {c + 1}" for c in event.columns]
                text += f", {event.lines} line{'' if event.lines == 1 else 's'} ({', '.join(lines)})"
            parts.append(text)
        elif isinstance(event, PiecesDealt):
            parts.append("dealt " + " ".join(event.pieces))
        elif isinstance(event, GameOver):
            parts.append(f"no more moves at {event.score:,}")
    return " · ".join(parts)
