"""Destruct-o-Match (Neopets, HTML5): the rules of ``shared/specs/destructo.md``.

Ten levels; a :class:`Click` destroys a group (or fires an Explode). A level's board, a Fill's new
boulders and a Shuffle's colours are chance steps whose outcomes are too many to list: they are
drawn with :meth:`DestructoMatch.sample_chance` (seeded) or entered from the real game
(``board:...``, ``fill:...`` in a line). A banked Undo takes back the last click without a power-up.

>>> from engines.destructo import GAME, Click, NewBoard
>>> from engines.destructo.notation import parse_board
>>> state = GAME.apply_chance(GAME.initial_state(), NewBoard(parse_board("g a\\ng a"))).state
>>> GAME.legal_moves(state)
[Click(row=0, column=0), Click(row=0, column=1)]
>>> GAME.play(state, Click(1, 1)).state.score
2
"""

from __future__ import annotations

import numpy as np

from engines.contract import Game, Line, Step
from engines.destructo import levels, notation, reference
from engines.destructo.rules import EXPLODE, groups
from engines.destructo.notation import UNDO_BOARD_LINE
from engines.destructo.state import (FILL_DUE, LEVEL_DUE, SHUFFLE_DUE, Click, FillRow, NewBoard, State,
                                     UseShuffle, UseUndo)
from engines.errors import IllegalMoveError

SEQUENCE_FORMATS = ("moves",)


class DestructoMatch(Game):
    short_name = "destructo"
    title = "Destruct-o-Match"
    #: Whole ten-level games in plain Python are slow: the conformance test plays fewer.
    conformance_playouts = 3

    def initial_state(self) -> State:
        return State()

    def legal_moves(self, state: State) -> list[Click | UseShuffle | UseUndo]:
        """One click per group (its first cell in reading order), every Explode, the banked
        Shuffle and the banked Undo when it has a click to take back; nothing at a chance step or
        after the game."""
        if state.due is not None or state.finished:
            return []
        return self._legal_moves(state, groups(state.board))

    def _legal_moves(self, state: State, found: list) -> list[Click | UseShuffle | UseUndo]:
        """The legal moves of a position in play whose groups are ``found``."""
        board = state.board
        moves: list = [Click(*min(cell for cell in group if board[cell[0]][cell[1]].colour is not None))
                       for group in found]
        moves += [Click(r, c) for r, row in enumerate(state.board) for c, boulder in enumerate(row)
                  if boulder is not None and boulder.power == EXPLODE]
        moves.sort()
        if state.shuffles:
            moves.append(UseShuffle())
        if state.can_undo:
            moves.append(UseUndo())
        return moves

    def play(self, state: State, move) -> Step:
        if isinstance(move, (NewBoard, FillRow)):
            return reference.apply_chance(state, move)
        return reference.play(state, move)

    def is_over(self, state: State) -> bool:
        return state.finished

    def score(self, state: State) -> int:
        return state.score

    def move_space(self, state: State) -> list:
        """The legal moves; clicks on a sample of the cells that take nothing (empty, a Wild alone,
        a boulder in no group: every fifth, for speed), all illegal; and a Shuffle when none is
        banked (illegal)."""
        found = groups(state.board)
        moves = [] if state.due is not None or state.finished else self._legal_moves(state, found)
        grouped = set().union(*found)
        idle = [Click(r, c) for r, row in enumerate(state.board) for c, boulder in enumerate(row)
                if boulder is None or boulder.matches_any or (boulder.colour is not None and (r, c) not in grouped)]
        moves += idle[::5]
        if not state.shuffles:
            moves.append(UseShuffle())
        if not state.can_undo:
            moves.append(UseUndo())
        return moves

    # -- chance ---------------------------------------------------------------------------------
    def is_chance_node(self, state: State) -> bool:
        return state.due is not None and not state.finished

    def chance_outcomes(self, state: State) -> list:
        return []  # boards are too many to list: see sample_chance

    def apply_chance(self, state: State, outcome) -> Step:
        if not isinstance(outcome, (NewBoard, FillRow)):
            raise IllegalMoveError("a chance step of Destruct-o-Match is a board: or a fill: outcome",
                                   token=str(outcome))
        return reference.apply_chance(state, outcome)

    def sample_chance(self, state: State, rng: np.random.Generator):
        if state.due == LEVEL_DUE:
            return NewBoard(levels.deal_level(state.level, rng))
        if state.due == FILL_DUE:
            return FillRow(levels.deal_fill(state.board, rng))
        if state.due == SHUFFLE_DUE:
            return NewBoard(levels.deal_shuffle(state.board, rng))
        raise IllegalMoveError("no chance step is due")

    # -- notation -------------------------------------------------------------------------------
    def move_text(self, move) -> str:
        return notation.move_text(move)

    def parse_move(self, text: str):
        return notation.parse_move(text)

    def board_text(self, state: State) -> str:
        return notation.state_text(state)

    def parse_board(self, text: str) -> State:
        return notation.parse_state(text)

    sequence_formats = SEQUENCE_FORMATS

    def sequence_text(self, line: Line, format: str | None = None) -> str:
        if format not in (None, "moves"):
            raise ValueError(f"unknown Destruct-o-Match sequence format {format!r}; known: moves")
        parts = [] if line.start == State() else [notation.state_text(line.start)]
        parts.extend(notation.move_text(move) for move in line.moves)
        return "\n".join(parts) + "\n"

    def parse_sequence(self, text: str, source: str | None = None, format: str | None = None) -> Line:
        from engines.move_lines import read_moves

        if format not in (None, "moves"):
            raise ValueError(f"unknown Destruct-o-Match sequence format {format!r}; known: moves")
        state_lines, move_lines = _sequence_sections(text)
        start = State()
        if state_lines:
            start = notation.parse_state("\n".join(line for _, line in state_lines), source, state_lines[0][0])
        return Line(start, read_moves(move_lines, notation.parse_move, source))

    def sequence_move_spans(self, text: str, format: str | None = None) -> list[tuple[int, int]]:
        """(start, end) offsets of each move's token in a sequence text, in move order (the start
        position's header, rows and undo board hold none)."""
        from engines.move_lines import token_spans

        if format not in (None, "moves"):
            raise ValueError(f"unknown Destruct-o-Match sequence format {format!r}; known: moves")
        return token_spans(text, _sequence_sections(text)[1])


def _is_board_row(line: str) -> bool:
    return all(len(token) <= 2 and "," not in token and ":" not in token and token not in ("shuffle", "undo")
               for token in line.split())


def _sequence_sections(text: str) -> tuple[list[tuple[int, str]], list[tuple[int, str]]]:
    """The (line number, line) pairs of a sequence text's start position (none when the line
    starts from a new game: a header ``level ...``, its rows and an undo board) and those of its
    moves; blank lines are in neither."""
    numbered = [(number, line) for number, line in enumerate(text.splitlines(), start=1) if line.strip()]
    if not (numbered and numbered[0][1].lstrip().startswith("level")):
        return [], numbered
    end = 1
    while end < len(numbered) and (_is_board_row(numbered[end][1]) or numbered[end][1].strip() == UNDO_BOARD_LINE):
        end += 1
    return numbered[:end], numbered[end:]


GAME = DestructoMatch()

__all__ = ["Click", "DestructoMatch", "FillRow", "GAME", "NewBoard", "State", "UseShuffle", "UseUndo"]
