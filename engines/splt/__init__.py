"""SPL-T (Simogo, 2015): the exact rules of ``shared/specs/splt.md``.

>>> from engines.splt import GAME, State, Move
>>> state = GAME.play(State(), Move(0, 0)).state   # split the whole board horizontally
>>> state.splits, state.score, state.orientation
(1, 1, 'V')
"""

from __future__ import annotations

from engines.contract import Game, Line, Step
from engines.splt import fast, notation, reference
from engines.splt.events import (
    BlockHalved,
    BlocksExploded,
    BoxesRefilled,
    BoxFell,
    BoxSplit,
    PointBlocksCreated,
    TurnScored,
)
from engines.splt.state import DEFAULT_RULES, HEIGHT, WIDTH, Box, Move, Rules, State


class Splt(Game):
    short_name = "splt"
    title = "SPL-T"

    def initial_state(self, rules: Rules = DEFAULT_RULES) -> State:
        return State(rules=rules)

    def legal_moves(self, state: State) -> list[Move]:
        return state.legal_moves()

    def play(self, state: State, move: Move) -> Step:
        return fast.play(state, move)

    def warm_up(self) -> None:
        start = State()
        fast.play(start, Move(0, 0))
        fast.replay_moves(start, [Move(0, 0)])

    def reference_play(self, state: State, move: Move) -> Step:
        return reference.play(state, move)

    def replay(self, start: State, moves, first_move_number: int = 1) -> State:
        """Play a whole line in the kernel; an illegal move raises naming its number and why."""
        moves = list(moves)
        if not moves:
            return start
        return fast.replay_checked(start, moves, first_move_number).state

    def is_over(self, state: State) -> bool:
        return state.is_over()

    def score(self, state: State) -> int:
        return state.score

    def move_space(self, state: State) -> list[Move]:
        """Every box plus a cell inside a box and a cell off the board: legal or not."""
        moves = [Move.of(box) for box in state.boxes]
        moves += [Move(box.x + box.w - 1, box.y + box.h - 1) for box in state.boxes if box.area > 1]
        moves += [Move(x, y) for x, y in state.voids()[:2]]
        moves.append(Move(WIDTH, 0))
        return moves

    def move_text(self, move: Move) -> str:
        return notation.move_text(move)

    def parse_move(self, text: str) -> Move:
        return notation.parse_move(text)

    def board_text(self, state: State) -> str:
        return notation.board_text(state)

    def parse_board(self, text: str) -> State:
        return notation.parse_board(text)

    sequence_formats = ("geometric", "index")

    def sequence_text(self, line: Line, format: str | None = None) -> str:
        if format in (None, "geometric"):
            return notation.geometric_text(line)
        if format == "index":
            return notation.index_list_text(line)
        raise ValueError(f"unknown SPL-T sequence format {format!r}; known: {', '.join(self.sequence_formats)}")

    def parse_sequence(self, text: str, source: str | None = None, format: str | None = None) -> Line:
        if format is None:
            return notation.parse_sequence(text, source)
        if format == "geometric":
            return notation.parse_geometric(text, source)
        if format == "index":
            return notation.parse_index_list(text, source=source)
        raise ValueError(f"unknown SPL-T sequence format {format!r}; known: {', '.join(self.sequence_formats)}")

    def sequence_move_spans(self, text: str, format: str | None = None) -> list[tuple[int, int]]:
        return notation.sequence_move_spans(text, format)


GAME = Splt()

__all__ = [
    "GAME",
    "BlockHalved",
    "BlocksExploded",
    "Box",
    "BoxFell",
    "BoxSplit",
    "BoxesRefilled",
    "HEIGHT",
    "Move",
    "PointBlocksCreated",
    "Rules",
    "State",
    "TurnScored",
    "WIDTH",
]
