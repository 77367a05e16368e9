"""HATETRIS's words for the status bar: the position line and a one-sentence turn summary."""

from __future__ import annotations

from collections.abc import Iterable

from engines import Game
from engines.hatetris import GameEnded, LinesCleared, PieceLocked, PieceSent, State


def _plural(count: int, singular: str) -> str:
    return f"{count} {singular}{'' if count == 1 else 's'}"


def describe(game: Game, state: State) -> str:
    """The permanent status line, e.g. "score 12 · 87 pieces · next S · 34 placements", or
    "score 0 · 9 pieces · game over"."""
    parts = [f"score {state.score}", _plural(state.pieces, "piece")]
    if game.is_over(state):
        parts.append("game over")
    else:
        parts.append(f"next {state.piece}")
        parts.append(_plural(len(game.legal_moves(state)), "placement"))
    if state.rules.mild:
        parts.append("HATETRIS Mild")
    return " · ".join(parts)


def summarize_turn(events: Iterable[object]) -> str:
    """What a turn did, e.g. "S locked at (6,17,0): 1 line · AI sends Z (loop rule)",
    "S locked at (3,1,0) · above the bar: game over at 0 lines"."""
    head = ""
    lines = ""
    parts: list[str] = []
    for event in events:
        if isinstance(event, PieceLocked):
            head = f"{event.piece} locked at ({event.x},{event.y},{event.o})"
        elif isinstance(event, LinesCleared):
            lines = _plural(len(event.rows), "line")
        elif isinstance(event, PieceSent):
            parts.append(f"AI sends {event.piece}" + (" (loop rule)" if event.loop_rule_decided else ""))
        elif isinstance(event, GameEnded):
            parts.append(f"above the bar: game over at {_plural(event.score, 'line')}")
    if lines:
        head = f"{head}: {lines}" if head else lines
    return " · ".join(part for part in (head, *parts) if part)
