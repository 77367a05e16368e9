"""Errors raised by the engines: precise about where and why.

Both are ``ValueError``s (as in python-chess). Each carries the pieces of its location separately
(file, line, column, move number, token) so callers can add what they know -- the command line adds
the file name, a sequence reader adds the move number -- without re-parsing a message.
"""

from __future__ import annotations

import dataclasses
from typing import Self


@dataclasses.dataclass(frozen=True)
class Location:
    """Where in an input something went wrong; every part is optional."""

    source: str | None = None
    line: int | None = None
    column: int | None = None
    move_number: int | None = None
    token: str | None = None

    def describe(self) -> str:
        place = []
        if self.source is not None:
            place.append(self.source)
        if self.line is not None:
            place.append(f"line {self.line}")
        if self.column is not None:
            place.append(f"column {self.column}")
        parts = [", ".join(place)] if place else []
        what = []
        if self.move_number is not None:
            what.append(f"move {self.move_number}")
        if self.token is not None:
            what.append(f"token {self.token!r}")
        if what:
            parts.append(" ".join(what))
        return ": ".join(parts)


class KibitzInputError(ValueError):
    """Base of the precise input errors: a reason plus a :class:`Location`."""

    def __init__(self, reason: str, location: Location | None = None, **where: object) -> None:
        self.reason = reason
        self.location = dataclasses.replace(location or Location(), **where)
        super().__init__(self._message())

    def _message(self) -> str:
        place = self.location.describe()
        return f"{place}: {self.reason}" if place else self.reason

    def located(self, **where: object) -> Self:
        """The same error with more of its location filled in (existing parts are kept)."""
        known = {key: value for key, value in where.items() if getattr(self.location, key) is None}
        return type(self)(self.reason, dataclasses.replace(self.location, **known))

    def __reduce__(self):  # keep the parts when pickled across processes
        return (type(self), (self.reason, self.location))


class NotationError(KibitzInputError):
    """Text that cannot be read: a bad token, a malformed board, a garbled file."""


class IllegalMoveError(KibitzInputError):
    """A well-formed move that the rules do not allow in this position."""
