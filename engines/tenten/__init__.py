"""1010! (Gram Games, 2014): the exact rules of ``shared/specs/1010.md``.

A player's move is a :class:`Place` (a tray piece and its anchor, the top-left cell of its bounding
box); the three pieces the game deals when the tray is empty are a chance step, a :class:`Deal`, so
the real game's deal can be entered (or read from the screen). Both are moves of a line:
``deal:Vi. V@0,0 i@0,1 .@9,9``.

>>> from engines.tenten import GAME, Deal, Place
>>> state = GAME.replay(GAME.initial_state(), [Deal(("H", "H", ".")), Place("H", 0, 0), Place("H", 0, 5)])
>>> state.score, state.filled_count
(20, 0)
"""

from __future__ import annotations

import functools
import itertools

import numpy as np

from engines.contract import Game, Line, Step
from engines.errors import IllegalMoveError
from engines.tenten import fast, notation, reference
from engines.tenten.events import GameOver, PiecePlaced, PiecesDealt
from engines.tenten.pieces import BY_LETTER, LETTERS, PIECES, SIZE, TOTAL_WEIGHT, Piece, piece, points
from engines.tenten.state import TRAY_SLOTS, Deal, Place, State, parse_move


class TenTen(Game):
    short_name = "1010"
    title = "1010!"

    def initial_state(self) -> State:
        return notation.start()

    def legal_moves(self, state: State) -> list[Place | Deal]:
        """Every placement of every distinct piece in the tray (tray order, anchors row by row); at
        a chance step, every deal."""
        if state.deal_due:
            return [deal for deal, _ in self.chance_outcomes(state)]
        moves = []
        for letter in dict.fromkeys(state.pieces_left):
            moves.extend(Place(letter, r, c) for r, c in fast.placements(state, letter))
        return moves

    def play(self, state: State, move: Place | Deal) -> Step:
        return fast.play(state, move)

    def reference_play(self, state: State, move: Place | Deal) -> Step:
        return reference.play(state, move)

    def warm_up(self) -> None:
        fast.play(State(0, ("o", None, None)), Place("o", 0, 0))

    def is_over(self, state: State) -> bool:
        return not state.deal_due and not fast.can_place_any(state)

    def score(self, state: State) -> int:
        return state.score

    def move_space(self, state: State) -> list[Place | Deal]:
        """The tray's pieces at every anchor (most are illegal here), every other piece at one
        anchor (not in the tray), and two deals."""
        in_tray = set(state.pieces_left)
        places = [Place(letter, r, c) for letter in sorted(in_tray) for r in range(SIZE) for c in range(SIZE)]
        places += [Place(p.letter, 0, 0) for p in PIECES if p.letter not in in_tray]
        return places + [Deal(("o", "o", "o")), Deal(("V", "i", "."))]

    # -- chance ---------------------------------------------------------------------------------
    def is_chance_node(self, state: State) -> bool:
        return state.deal_due

    def chance_outcomes(self, state: State) -> list[tuple[Deal, float]]:
        """All 19³ ordered deals, each piece drawn independently with its weight out of 42."""
        return list(all_deals()) if state.deal_due else []

    def apply_chance(self, state: State, outcome: Deal) -> Step:
        if not isinstance(outcome, Deal):
            raise IllegalMoveError("a chance step of 1010! is a deal such as deal:Vi.", token=str(outcome))
        return reference.deal(state, outcome)

    def random_deal(self, state: State, rng: np.random.Generator) -> Deal:
        """Three pieces drawn as spec 1.5 models the game: each independently, by weight."""
        if not state.deal_due:
            raise IllegalMoveError("pieces are still in the tray")
        return Deal(tuple(random_letters(rng)))

    def new_game(self, rng: np.random.Generator) -> State:
        """The empty board with its first three pieces dealt."""
        return reference.deal(self.initial_state(), self.random_deal(self.initial_state(), rng)).state

    # -- notation -------------------------------------------------------------------------------
    def move_text(self, move: Place | Deal) -> str:
        return str(move)

    def parse_move(self, text: str) -> Place | Deal:
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


@functools.cache
def all_deals() -> tuple[tuple[Deal, float], ...]:
    return tuple((Deal(tuple(p.letter for p in triple)),
                  triple[0].weight * triple[1].weight * triple[2].weight / TOTAL_WEIGHT ** TRAY_SLOTS)
                 for triple in itertools.product(PIECES, repeat=TRAY_SLOTS))


_DRAW_TABLE = np.array([number for number, p in enumerate(PIECES) for _ in range(p.weight)], np.int64)


def random_letters(rng: np.random.Generator, count: int = TRAY_SLOTS) -> list[str]:
    """``count`` pieces, each drawn independently with probability weight/42."""
    return [PIECES[_DRAW_TABLE[i]].letter for i in rng.integers(0, len(_DRAW_TABLE), count)]


GAME = TenTen()

__all__ = [
    "BY_LETTER",
    "Deal",
    "GAME",
    "GameOver",
    "LETTERS",
    "PIECES",
    "Piece",
    "PiecePlaced",
    "PiecesDealt",
    "Place",
    "SIZE",
    "State",
    "piece",
    "points",
]
