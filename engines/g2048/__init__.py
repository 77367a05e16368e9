"""2048 (Gabriele Cirulli, 2014): the exact rules of ``shared/specs/2048.md``.

A player's move is a :class:`Slide`; the tile the game adds after it is a chance step, a
:class:`Spawn`, so the real game's actual tile can be entered (or read from the screen). Both are
moves of a line: ``2@0,3 2@2,2 L 2@1,1 U``.

>>> from engines.g2048 import GAME, Slide, Spawn
>>> state = GAME.replay(GAME.initial_state(), [Spawn(0, 0, 2), Spawn(0, 3, 2), Slide(3)])
>>> state.rows[0], state.score
((4, 0, 0, 0), 4)
"""

from __future__ import annotations

import numpy as np

from engines.contract import Game, Line, Step
from engines.errors import IllegalMoveError
from engines.g2048 import fast, notation, reference
from engines.g2048.events import GameOver, TileSpawned, TilesSlid, Won
from engines.g2048.state import (CELLS, DIRECTION_LETTERS, DIRECTION_NAMES, DOWN, LEFT, RIGHT, SIZE, UP, Slide,
                                 Spawn, State, parse_move)


class G2048(Game):
    short_name = "2048"
    title = "2048"

    def initial_state(self) -> State:
        return notation.start()

    def legal_moves(self, state: State) -> list[Slide | Spawn]:
        """The slides that move a tile; at a chance step, every possible spawn."""
        if state.spawns_due:
            return [spawn for spawn, _ in reference.spawn_outcomes(state)]
        return [Slide(direction) for direction in fast.legal_directions(state)]

    def play(self, state: State, move: Slide | Spawn) -> Step:
        return fast.play(state, move)

    def reference_play(self, state: State, move: Slide | Spawn) -> Step:
        return reference.play(state, move)

    def warm_up(self) -> None:
        fast.play(State.from_rows([[2, 2, 0, 0], [0] * 4, [0] * 4, [0] * 4]), Slide(LEFT))

    def is_over(self, state: State) -> bool:
        return not state.spawns_due and not fast.legal_directions(state)

    def score(self, state: State) -> int:
        return state.score

    def move_space(self, state: State) -> list[Slide | Spawn]:
        """All four slides, and spawns on every cell (occupied ones are illegal)."""
        slides = [Slide(direction) for direction in range(4)]
        spawns = [Spawn(cell // SIZE, cell % SIZE, value) for cell in range(CELLS) for value in (2, 4)]
        return slides + spawns

    # -- chance ---------------------------------------------------------------------------------
    def is_chance_node(self, state: State) -> bool:
        return state.spawns_due > 0

    def chance_outcomes(self, state: State) -> list[tuple[Spawn, float]]:
        return reference.spawn_outcomes(state)

    def apply_chance(self, state: State, outcome: Spawn) -> Step:
        if not isinstance(outcome, Spawn):
            raise IllegalMoveError("a chance step of 2048 is a spawn such as 2@0,3", token=str(outcome))
        return reference.spawn(state, outcome)

    def random_spawn(self, state: State, rng: np.random.Generator) -> Spawn:
        """A spawn drawn as the real game draws it: a uniform empty cell, then 2 (p 0.9) or 4."""
        empty = state.empty_cells
        if not state.spawns_due or not empty:
            raise IllegalMoveError("no tile is due")
        cell = empty[int(rng.integers(len(empty)))]
        value = 2 if rng.random() < 0.9 else 4
        return Spawn(cell // SIZE, cell % SIZE, value)

    def new_game(self, rng: np.random.Generator) -> State:
        """The empty board with its two start tiles spawned."""
        state = self.initial_state()
        while state.spawns_due:
            state = reference.spawn(state, self.random_spawn(state, rng)).state
        return state

    # -- notation -------------------------------------------------------------------------------
    def move_text(self, move: Slide | Spawn) -> str:
        return str(move)

    def parse_move(self, text: str) -> Slide | Spawn:
        return parse_move(text)

    def board_text(self, state: State) -> str:
        return notation.board_text(state)

    def parse_board(self, text: str) -> State:
        return notation.parse_board(text)

    sequence_formats = notation.SEQUENCE_FORMATS

    def sequence_text(self, line: Line, format: str | None = None) -> str:
        return notation.sequence_text(line, format)

    def parse_sequence(self, text: str, source: str | None = None, format: str | None = None) -> Line:
        return notation.parse_sequence(text, source, format)

    def sequence_move_spans(self, text: str, format: str | None = None) -> list[tuple[int, int]]:
        return notation.sequence_move_spans(text, format)


GAME = G2048()

__all__ = [
    "DIRECTION_LETTERS",
    "DIRECTION_NAMES",
    "DOWN",
    "GAME",
    "GameOver",
    "LEFT",
    "RIGHT",
    "Slide",
    "Spawn",
    "State",
    "TileSpawned",
    "TilesSlid",
    "UP",
    "Won",
]
