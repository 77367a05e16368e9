"""Destruct-o-Match's words for the status bar: the position line and a one-sentence turn summary."""

from __future__ import annotations

from collections.abc import Iterable

from engines import Game
from engines.destructo import reference
from engines.destructo.reference import Banked, GameOver, LevelCleared, Removed
from engines.destructo.rules import EXPLODE
from engines.destructo.state import FILL_DUE, LEVEL_DUE, LEVELS, SHUFFLE_DUE, State


def plural(count: int, singular: str) -> str:
    return f"{count} {singular}{'' if count == 1 else 's'}"


def banked_text(state: State) -> str:
    """"Shuffle and Undo banked", "Shuffle banked", "" ..."""
    items = [name for name, count in (("Shuffle", state.shuffles), ("Undo", state.undos)) if count]
    return f"{' and '.join(items)} banked" if items else ""


def due_text(state: State) -> str:
    """What chance step is due, in words ("" if none)."""
    if state.finished or state.due is None:
        return ""
    if state.due == LEVEL_DUE:
        return f"level {state.level}'s board is due"
    if state.due == FILL_DUE:
        return "a Fill row is due"
    if state.due == SHUFFLE_DUE:
        return "the Shuffle's new colours are due"
    return f"{state.due} due"


def _is_undone(event: object) -> bool:
    """The banked Undo took a click back (an event of engines whose rules have the Undo move)."""
    undone = getattr(reference, "Undone", None)
    return undone is not None and isinstance(event, undone)


def describe(game: Game, state: State) -> str:
    """The permanent status line, e.g. "level 3/10 · score 412 · 35 groups · 1 Explode · 140
    boulders · Shuffle banked", "level 4/10 · score 655 · level 4's board is due", or
    "game over · final score 2,433"."""
    if state.finished:
        return f"game over · final score {state.score:,}"
    parts = [f"level {state.level}/{LEVELS}", f"score {state.score:,}"]
    due = due_text(state)
    if due:
        parts.append(due)
    else:
        explodes = sum(1 for row in state.board for cell in row if cell is not None and cell.power == EXPLODE)
        groups = sum(1 for move in game.legal_moves(state) if game.move_text(move) not in ("shuffle", "undo"))
        parts.append(plural(groups - explodes, "group"))
        if explodes:
            parts.append(plural(explodes, "Explode"))
        parts.append(plural(sum(cell is not None for row in state.board for cell in row), "boulder"))
    banked = banked_text(state)
    if banked:
        parts.append(banked)
    return " · ".join(parts)


def summarize_turn(events: Iterable[object]) -> str:
    """What a turn did: "14 points for 10 boulders", "Explode: 9 boulders, no points",
    "Shuffle banked", "Undo: the last click taken back, its points kept", "level 3 cleared: 2 left, bonus 80", "game over: 2,433 points"."""
    parts: list[str] = []
    for event in events:
        if isinstance(event, Removed):
            if event.points:
                parts.append(f"{plural(event.points, 'point')} for {len(event.cells)} boulders")
            else:
                parts.append(f"Explode: {plural(len(event.cells), 'boulder')}, no points")
        elif isinstance(event, Banked):
            parts.append(f"{event.item.capitalize()} banked")
        elif _is_undone(event):
            parts.append("Undo: the last click taken back, its points kept")
        elif isinstance(event, LevelCleared):
            parts.append(f"level {event.level} cleared: {event.left} left, bonus {event.bonus}")
        elif isinstance(event, GameOver):
            parts.append(f"game over: {event.score:,} points")
    return " · ".join(parts)
