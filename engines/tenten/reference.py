"""The rules in plain Python, straight from spec 1: the path the numba kernel is checked against."""

from __future__ import annotations

from engines.contract import Step
from engines.errors import IllegalMoveError
from engines.tenten.events import GameOver, PiecePlaced, PiecesDealt
from engines.tenten.pieces import BY_LETTER, SIZE, points
from engines.tenten.state import Deal, Place, State

ROW_MASKS = tuple(((1 << SIZE) - 1) << (SIZE * r) for r in range(SIZE))
COLUMN_MASKS = tuple(sum(1 << (SIZE * r + c) for r in range(SIZE)) for c in range(SIZE))


def fits(filled: int, letter: str, row: int, column: int) -> bool:
    """Whether the piece lies inside the board with its anchor at (row, column), on empty cells."""
    shape = BY_LETTER[letter]
    if row + shape.height > SIZE or column + shape.width > SIZE:
        return False
    return not filled & shape.mask(row, column)


def placements(filled: int, letter: str) -> list[tuple[int, int]]:
    """Every anchor where the piece fits, row by row."""
    return [(r, c) for r, c in BY_LETTER[letter].anchors() if not filled & BY_LETTER[letter].mask(r, c)]


def place(filled: int, letter: str, row: int, column: int) -> tuple[int, tuple[int, ...], tuple[int, ...], int]:
    """The board after placing and clearing, the rows and columns removed, the points scored.
    Rows and columns are judged together on the board after the placement (spec 1.2)."""
    after = filled | BY_LETTER[letter].mask(row, column)
    rows = tuple(r for r in range(SIZE) if after & ROW_MASKS[r] == ROW_MASKS[r])
    columns = tuple(c for c in range(SIZE) if after & COLUMN_MASKS[c] == COLUMN_MASKS[c])
    for r in rows:
        after &= ~ROW_MASKS[r]
    for c in columns:
        after &= ~COLUMN_MASKS[c]
    return after, rows, columns, points(BY_LETTER[letter].size, len(rows) + len(columns))


def can_place_any(state: State) -> bool:
    return any(placements(state.filled, letter) for letter in set(state.pieces_left))


def play(state: State, move: Place | Deal) -> Step:
    if isinstance(move, Deal):
        return deal(state, move)
    if state.deal_due:
        raise IllegalMoveError("the tray is empty: three pieces are to be dealt (e.g. deal:Vi.) first",
                               token=str(move))
    if move.piece not in state.tray:
        raise IllegalMoveError(f"{move.piece} is not in the tray ({' '.join(state.pieces_left)})", token=str(move))
    shape = BY_LETTER[move.piece]
    if move.row + shape.height > SIZE or move.column + shape.width > SIZE:
        raise IllegalMoveError(f"{move.piece} ({shape.width} wide, {shape.height} high) does not fit inside the "
                               f"board with its top-left at ({move.row}, {move.column})", token=str(move))
    if state.filled & shape.mask(move.row, move.column):
        raise IllegalMoveError(f"{move.piece} at ({move.row}, {move.column}) covers a filled cell", token=str(move))
    after, rows, columns, gain = place(state.filled, move.piece, move.row, move.column)
    slot = state.tray.index(move.piece)
    tray = tuple(None if index == slot else letter for index, letter in enumerate(state.tray))
    new = State(after, tray, state.score + gain)
    events = [PiecePlaced(move.piece, move.row, move.column, rows, columns, gain)]
    if not new.deal_due and not can_place_any(new):
        events.append(GameOver(new.score))
    return Step(new, tuple(events))


def deal(state: State, outcome: Deal) -> Step:
    if not state.deal_due:
        raise IllegalMoveError(f"pieces are still in the tray ({' '.join(state.pieces_left)}): place them first",
                               token=str(outcome))
    new = State(state.filled, tuple(outcome.pieces), state.score)
    events = [PiecesDealt(tuple(outcome.pieces))]
    if not can_place_any(new):
        events.append(GameOver(new.score))
    return Step(new, tuple(events))
