"""The contract every game engine meets (see DESIGN.md, "Engines: the contract every game meets").

A game is a :class:`Game` object registered in :data:`engines.GAMES`. States and moves are small
immutable values of the game's own types; playing returns a :class:`Step` with the new state and the
events that explain the turn. Chance (spawns, deals, fills) is explicit: a state can be a chance
node whose outcomes are listed and applied like moves.
"""

from __future__ import annotations

import abc
import dataclasses
from collections.abc import Hashable, Iterable, Sequence
from typing import Any, ClassVar

from engines.errors import IllegalMoveError, KibitzInputError

State = Hashable
Move = Hashable


@dataclasses.dataclass(frozen=True)
class Event:
    """Base of the per-game event types: something that happened during a turn."""


@dataclasses.dataclass(frozen=True)
class Step:
    """The result of playing a move: the new state and what happened, in order."""

    state: Any
    events: tuple[Event, ...] = ()


@dataclasses.dataclass(frozen=True)
class Line:
    """A start position and the moves played from it (what a sequence file holds)."""

    start: Any
    moves: tuple[Any, ...]


class Game(abc.ABC):
    """One game's rules, notation and files. Subclasses are stateless singletons."""

    short_name: ClassVar[str]
    title: ClassVar[str]

    # -- rules ----------------------------------------------------------------------------------
    @abc.abstractmethod
    def initial_state(self) -> State:
        """The position a new game starts from."""

    @abc.abstractmethod
    def legal_moves(self, state: State) -> list[Move]:
        """Every legal move, in the game's canonical order."""

    @abc.abstractmethod
    def play(self, state: State, move: Move) -> Step:
        """Play ``move``; raise :class:`IllegalMoveError` saying why when it is not allowed."""

    @abc.abstractmethod
    def is_over(self, state: State) -> bool:
        """Whether the game has ended (no legal move and no chance step pending)."""

    @abc.abstractmethod
    def score(self, state: State) -> int:
        """The score the real game would show."""

    def move_space(self, state: State) -> list[Move]:
        """Well-formed moves for this position, legal or not (the conformance test plays the
        illegal ones and expects :class:`IllegalMoveError`)."""
        return self.legal_moves(state)

    def warm_up(self) -> None:
        """Compile (first run) or load (later runs) the game's fast kernels ahead of first use.
        Safe to call from a worker thread; the default does nothing."""

    def reference_play(self, state: State, move: Move) -> Step | None:
        """The plain-Python path of :meth:`play`, for checking the fast path; None if the game
        has only one path."""
        return None

    # -- chance ---------------------------------------------------------------------------------
    def is_chance_node(self, state: State) -> bool:
        """True when the next step is chance (a spawn, a deal), not a player's move."""
        return False

    def chance_outcomes(self, state: State) -> list[tuple[Any, float]]:
        """The possible outcomes of the pending chance step with their probabilities."""
        return []

    def apply_chance(self, state: State, outcome: Any) -> Step:
        raise IllegalMoveError(f"{self.title} has no chance steps")

    def sample_chance(self, state: State, rng: Any) -> Any:
        """One outcome of the pending chance step drawn with its probability from the seeded
        ``numpy.random.Generator`` ``rng``. A game whose outcomes are too many to list (a whole
        new board) overrides this and draws one directly."""
        outcomes = self.chance_outcomes(state)
        if not outcomes:
            raise IllegalMoveError("no chance step is due")
        weights = [probability for _, probability in outcomes]
        total = sum(weights)
        return outcomes[int(rng.choice(len(outcomes), p=[w / total for w in weights]))][0]

    # -- notation -------------------------------------------------------------------------------
    @abc.abstractmethod
    def move_text(self, move: Move) -> str:
        """The context-free text of a move."""

    @abc.abstractmethod
    def parse_move(self, text: str) -> Move:
        """Read a move's text; raise :class:`NotationError` saying why when it cannot."""

    @abc.abstractmethod
    def board_text(self, state: State) -> str:
        """A compact text of a position that round-trips through :meth:`parse_board`."""

    @abc.abstractmethod
    def parse_board(self, text: str) -> State:
        """Read a position's text; raise :class:`NotationError` saying where and why."""

    #: Names of the sequence-file formats the game reads and writes; the first is its own.
    sequence_formats: ClassVar[tuple[str, ...]] = ()

    @abc.abstractmethod
    def sequence_text(self, line: Line, format: str | None = None) -> str:
        """The text of a sequence file for a line of moves (the game's own format by default)."""

    @abc.abstractmethod
    def parse_sequence(self, text: str, source: str | None = None, format: str | None = None) -> Line:
        """Read a sequence file; ``format`` None detects it. ``source`` names the file in errors."""

    def sequence_move_spans(self, text: str, format: str | None = None) -> list[tuple[int, int]] | None:
        """Where each move is written in a sequence text: (start, end) character offsets of the
        tokens :meth:`parse_sequence` reads as moves, in move order (a start position written
        before them holds none); an empty list for a format with no token per move (a HATETRIS
        replay code); None when the game cannot tell (the sequence editor then guesses)."""
        return None

    # -- helpers shared by every game -----------------------------------------------------------
    def replay(self, start: State, moves: Iterable[Move], first_move_number: int = 1) -> State:
        """Play ``moves`` from ``start``; an illegal move raises naming its move number."""
        state = start
        for number, move in enumerate(moves, start=first_move_number):
            try:
                state = self.play(state, move).state
            except KibitzInputError as error:
                raise error.located(move_number=number, token=self.move_text(move)) from None
        return state

    def replay_line(self, line: Line) -> State:
        return self.replay(line.start, line.moves)


def check_unique_names(games: Sequence[Game]) -> dict[str, Game]:
    """Build the registry mapping, refusing two games with one short name."""
    registry: dict[str, Game] = {}
    for game in games:
        if game.short_name in registry:
            raise ValueError(f"two games registered as {game.short_name!r}")
        registry[game.short_name] = game
    return registry
