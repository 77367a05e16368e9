"""SPL-T's words for the status bar: the position line and a one-sentence turn summary."""

from __future__ import annotations

from collections.abc import Iterable

from engines import Game
from engines.splt import (
    BlockHalved,
    BlocksExploded,
    BoxesRefilled,
    BoxFell,
    BoxSplit,
    PointBlocksCreated,
    State,
    TurnScored,
)

ORIENTATION_NAME = {"H": "horizontal", "V": "vertical"}
GAME_OVER = "Game over — no more splits"


def _plural(count: int, singular: str, plural: str | None = None) -> str:
    return f"{count} {singular if count == 1 else (plural or singular + 's')}"


def describe(game: Game, state: State) -> str:
    """The permanent status line: splits, score, next orientation, legal moves, game over."""
    moves = len(game.legal_moves(state))
    parts = [
        _plural(state.splits, "split"),
        f"score {state.score}",
        f"next {state.orientation} ({ORIENTATION_NAME[state.orientation]})",
        _plural(moves, "legal move"),
    ]
    if game.is_over(state):
        parts.append(GAME_OVER)
    return " · ".join(parts)


def summarize_turn(events: Iterable[object]) -> str:
    """What a turn did, e.g. "Split (4,0,4,8) horizontally: 4 point blocks (5) · +6"."""
    head = ""
    parts: list[str] = []
    landed: set[tuple[int, int, int, int]] = set()  # where fallen boxes are (one per box)
    halvings: list[str] = []
    total = None
    for event in events:
        if isinstance(event, BoxSplit):
            word = "horizontally" if event.orientation == "H" else "vertically"
            head = f"Split {event.box.label()} {word}"
        elif isinstance(event, PointBlocksCreated):
            late = " after the fall" if event.late else ""
            parts.append(f"{_plural(len(event.boxes), 'point block')} ({event.value}){late}")
        elif isinstance(event, BlocksExploded):
            parts.append(f"{_plural(len(event.boxes), 'block')} exploded (+{event.points})")
        elif isinstance(event, BoxFell):
            landed.discard(event.before.geometry())  # a box falling again in a later pass
            landed.add(event.after.geometry())
        elif isinstance(event, BoxesRefilled):
            parts.append(f"{_plural(len(event.boxes), 'new box', 'new boxes')} from the top")
        elif isinstance(event, BlockHalved):
            halvings.append(f"{event.before}→{event.after}")
        elif isinstance(event, TurnScored):
            total = event.total
    if landed:
        parts.append(f"{_plural(len(landed), 'box', 'boxes')} fell")
    if halvings:
        parts.append("halved " + ", ".join(halvings))
    if total is not None:
        parts.append(f"+{total}")
    if not head:
        return " · ".join(parts)
    return f"{head}: " + " · ".join(parts) if parts else head
