"""Playing Destruct-o-Match in plain Python: clicks, the end of a level, banked items and the
chance steps (a level's board, a Fill row, a Shuffle), on top of :mod:`engines.destructo.rules`."""

from __future__ import annotations

import dataclasses

from engines.contract import Event, Step
from engines.destructo.rules import (FILL, SHUFFLE, UNDO, Board, boulders_left, end_bonus, level_over, remove,
                                     removal)
from engines.destructo.state import (FILL_DUE, LEVEL_DUE, LEVELS, SHUFFLE_DUE, Click, FillRow, NewBoard, State,
                                     UseShuffle, UseUndo)
from engines.errors import IllegalMoveError


@dataclasses.dataclass(frozen=True)
class Removed(Event):
    """A click removed ``cells`` (a group, an Overkill's colour or an Explode's 3x3) for ``points``."""

    cells: frozenset
    points: int


@dataclasses.dataclass(frozen=True)
class Banked(Event):
    item: str  # "shuffle" or "undo"


@dataclasses.dataclass(frozen=True)
class LevelCleared(Event):
    level: int
    left: int
    bonus: int


@dataclasses.dataclass(frozen=True)
class GameOver(Event):
    score: int


def _end_level_if_done(state: State, events: list) -> State:
    if state.due is not None or not level_over(state.board):
        return state
    left = boulders_left(state.board)
    bonus = end_bonus(left)
    events.append(LevelCleared(state.level, left, bonus))
    score = state.score + bonus
    if state.level == LEVELS:
        events.append(GameOver(score))
        return dataclasses.replace(state, score=score, finished=True, undo_board=())
    return dataclasses.replace(state, board=(), level=state.level + 1, score=score, due=LEVEL_DUE, undo_board=())


@dataclasses.dataclass(frozen=True)
class Undone(Event):
    """The banked Undo took the last click back (its points stay)."""


def play(state: State, move: Click | UseShuffle | UseUndo) -> Step:
    if state.finished:
        raise IllegalMoveError("the game is over: all ten levels are played", token=str(move))
    if state.due is not None:
        raise IllegalMoveError(f"a chance step is due ({state.due}): enter it first", token=str(move))
    if isinstance(move, UseShuffle):
        if not state.shuffles:
            raise IllegalMoveError("no Shuffle is banked", token=str(move))
        return Step(dataclasses.replace(state, shuffles=0, due=SHUFFLE_DUE, undo_board=()))
    if isinstance(move, UseUndo):
        if not state.undos:
            raise IllegalMoveError("no Undo is banked", token=str(move))
        if not state.undo_board:
            raise IllegalMoveError("nothing to undo: the last click involved a power-up, or there was none this "
                                   "level", token=str(move))
        return Step(dataclasses.replace(state, board=state.undo_board, undos=0, undo_board=()), (Undone(),))
    try:
        cells, points = removal(state.board, move.row, move.column)
    except ValueError as error:
        raise IllegalMoveError(str(error), token=str(move)) from None
    powers = [state.board[r][c].power for r, c in cells]
    events: list = [Removed(frozenset(cells), points)]
    shuffles, undos = state.shuffles, state.undos
    if SHUFFLE in powers:
        shuffles = 1
        events.append(Banked(SHUFFLE))
    if UNDO in powers:
        undos = 1
        events.append(Banked(UNDO))
    plain = all(power is None for power in powers)
    new = dataclasses.replace(state, board=remove(state.board, cells), score=state.score + points, shuffles=shuffles,
                              undos=undos, due=FILL_DUE if FILL in powers else None,
                              undo_board=state.board if plain and undos else ())
    return Step(_end_level_if_done(new, events), tuple(events))


def apply_chance(state: State, outcome: NewBoard | FillRow) -> Step:
    events: list = []
    if state.due == LEVEL_DUE and isinstance(outcome, NewBoard):
        if not outcome.board or any(cell is None for row in outcome.board for cell in row):
            raise IllegalMoveError("a level starts with a full board")
        new = dataclasses.replace(state, board=outcome.board, due=None, undo_board=())
    elif state.due == SHUFFLE_DUE and isinstance(outcome, NewBoard):
        before = [(cell is None, None if cell is None else cell.power) for row in state.board for cell in row]
        after = [(cell is None, None if cell is None else cell.power) for row in outcome.board for cell in row]
        if len(outcome.board) != state.rows or before != after:
            raise IllegalMoveError("a Shuffle re-colours the boulders: the shape and the power-ups stay")
        new = dataclasses.replace(state, board=outcome.board, due=None)
    elif state.due == FILL_DUE and isinstance(outcome, FillRow):
        if len(outcome.boulders) != state.columns:
            raise IllegalMoveError(f"a Fill row has {state.columns} cells, one per column")
        columns = [[state.board[r][c] for r in range(state.rows)] for c in range(state.columns)]
        for c, boulder in enumerate(outcome.boulders):
            room = sum(cell is None for cell in columns[c])
            if (boulder is None) != (room == 0):
                raise IllegalMoveError(f"column {c}: a Fill adds a boulder exactly where a column has room")
            if boulder is not None:
                columns[c][room - 1] = boulder
        board: Board = tuple(tuple(columns[c][r] for c in range(state.columns)) for r in range(state.rows))
        new = dataclasses.replace(state, board=board, due=None, undo_board=())
    else:
        raise IllegalMoveError(f"no such chance step is due (due: {state.due or 'nothing'})")
    return Step(_end_level_if_done(new, events), tuple(events))
