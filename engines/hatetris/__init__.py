"""HATETRIS (qntm, 2010): the exact rules of ``shared/specs/hatetris.md``, enemy AI included.

A move is a :class:`Placement`: where the piece the AI sent comes to rest. Replays (key presses)
convert to and from placement lines.

>>> from engines.hatetris import GAME, Placement
>>> start = GAME.initial_state()
>>> start.piece
'S'
>>> GAME.play(start, Placement("S", 6, 17, 0)).state.piece
'S'
"""

from __future__ import annotations

from engines.contract import Game, Line, Step
from engines.hatetris import fast, notation, reference
from engines.hatetris.events import GameEnded, LinesCleared, PieceLocked, PieceSent
from engines.hatetris.pieces import PIECES
from engines.hatetris.state import BAR, DEFAULT_RULES, DEPTH, MILD_RULES, WIDTH, Memory, Placement, Rules, State


class Hatetris(Game):
    short_name = "hatetris"
    title = "HATETRIS"

    def initial_state(self, rules: Rules = DEFAULT_RULES) -> State:
        return fast.start(rules)

    def legal_moves(self, state: State) -> list[Placement]:
        if state.over:
            return []
        positions = fast.resting_positions(state.well, state.rules, state.piece_index)
        return sorted(Placement(state.piece, x, y, o) for x, y, o in positions)

    def play(self, state: State, move: Placement) -> Step:
        return fast.play(state, move)

    def reference_play(self, state: State, move: Placement) -> Step:
        return reference.play(state, move)

    def warm_up(self) -> None:
        start = fast.start(DEFAULT_RULES)
        fast.play(start, Placement("S", 6, 17, 0))
        fast.replay_keys("DDDD", DEFAULT_RULES)
        fast.key_path(start, Placement("S", 6, 17, 0))

    def is_over(self, state: State) -> bool:
        return state.over

    def score(self, state: State) -> int:
        return state.score

    def move_space(self, state: State) -> list[Placement]:
        """The legal placements plus ones one row higher (not resting), off the well, and of
        another piece."""
        legal = self.legal_moves(state)
        if not legal:
            return [Placement("S", 3, 0, 0)]
        first = legal[0]
        other = next(p for p in PIECES if p != first.piece)
        return legal + [
            Placement(first.piece, first.x, first.y - 1, first.o),
            Placement(first.piece, state.rules.width + 2, first.y, first.o),
            Placement(other, first.x, first.y, first.o),
        ]

    def move_text(self, move: Placement) -> str:
        return notation.move_text(move)

    def parse_move(self, text: str) -> Placement:
        return notation.parse_move(text)

    def board_text(self, state: State) -> str:
        return notation.board_text(state)

    def parse_board(self, text: str) -> State:
        return notation.parse_board(text)

    sequence_formats = notation.SEQUENCE_FORMATS

    def sequence_text(self, line: Line, format: str | None = None) -> str:
        return notation.sequence_text(line, format)

    def parse_sequence(self, text: str, source: str | None = None, format: str | None = None,
                       rules: Rules = DEFAULT_RULES) -> Line:
        return notation.parse_sequence(text, source, format, rules)

    def sequence_move_spans(self, text: str, format: str | None = None) -> list[tuple[int, int]]:
        return notation.sequence_move_spans(text, format)

    # -- HATETRIS's own helpers ------------------------------------------------------------------
    def replay_keys(self, keys: str, rules: Rules = DEFAULT_RULES) -> fast.KeyReplay:
        """Play key presses (L R D U) as the official page does."""
        return fast.replay_keys(keys, rules)

    def key_path(self, state: State, move: Placement) -> str:
        """The shortest keys from spawn that lock the piece at ``move``."""
        return fast.key_path(state, move)


GAME = Hatetris()

__all__ = [
    "BAR",
    "DEFAULT_RULES",
    "DEPTH",
    "GAME",
    "GameEnded",
    "LinesCleared",
    "MILD_RULES",
    "Memory",
    "PIECES",
    "PieceLocked",
    "PieceSent",
    "Placement",
    "Rules",
    "State",
    "WIDTH",
]
