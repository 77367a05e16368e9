"""The list of positions the window walks with undo and redo (no Qt here).

Every entry is an immutable game state plus the move and events that led to it, so stepping
back never has to re-derive anything and stepping forward can replay the turn's highlights.
Playing after an undo drops the redo tail. The move tree of later versions replaces this.
"""

from __future__ import annotations

import dataclasses
from typing import Any


@dataclasses.dataclass(frozen=True)
class Entry:
    """One position in the history: ``state``, reached by ``move`` (None for the start), with
    the ``events`` of that turn."""

    state: Any
    move: Any = None
    events: tuple[Any, ...] = ()


class History:
    """Immutable states in order, with a cursor on the one shown."""

    def __init__(self, start: Any) -> None:
        self._entries: list[Entry] = [Entry(start)]
        self._cursor = 0

    @property
    def current(self) -> Entry:
        return self._entries[self._cursor]

    @property
    def state(self) -> Any:
        return self.current.state

    @property
    def cursor(self) -> int:
        """Index of the entry shown; 0 is the start position."""
        return self._cursor

    def __len__(self) -> int:
        return len(self._entries)

    def can_undo(self) -> bool:
        return self._cursor > 0

    def can_redo(self) -> bool:
        return self._cursor < len(self._entries) - 1

    def push(self, state: Any, move: Any = None, events: tuple[Any, ...] = ()) -> Entry:
        """Record a new position after the current one, dropping any redo tail."""
        del self._entries[self._cursor + 1 :]
        entry = Entry(state, move, tuple(events))
        self._entries.append(entry)
        self._cursor += 1
        return entry

    def undo(self) -> Entry | None:
        """Step back one position; None (and no change) at the start."""
        if not self.can_undo():
            return None
        self._cursor -= 1
        return self.current

    def redo(self) -> Entry | None:
        """Step forward again; None (and no change) at the end."""
        if not self.can_redo():
            return None
        self._cursor += 1
        return self.current

    def reset(self, start: Any) -> None:
        """Forget everything and start again from ``start``."""
        self._entries = [Entry(start)]
        self._cursor = 0
