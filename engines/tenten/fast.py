"""The fast path: a state's board split into the two words of ``engines.tenten.kernel``."""

from __future__ import annotations

import numpy as np

from engines.contract import Step
from engines.tenten import kernel as k
from engines.tenten import reference
from engines.tenten.events import GameOver, PiecePlaced
from engines.tenten.pieces import INDEX, SIZE, points
from engines.tenten.state import Deal, Place, State


def placements(state: State, letter: str) -> list[tuple[int, int]]:
    """Every anchor (row, column) where the piece fits on the state's board, row by row."""
    low, high = k.split(state.filled)
    out = np.zeros(SIZE * SIZE, np.int64)
    count = k.fitting_anchors(low, high, INDEX[letter], k.PIECE_LOW, k.PIECE_HIGH, k.ANCHORS, k.ANCHOR_COUNT, out)
    return [divmod(int(m), SIZE) for m in out[:count]]


def can_place_any(state: State) -> bool:
    low, high = k.split(state.filled)
    return any(k.fits_anywhere(low, high, INDEX[letter], k.PIECE_LOW, k.PIECE_HIGH, k.ANCHORS, k.ANCHOR_COUNT)
               for letter in set(state.pieces_left))


def play(state: State, move: Place | Deal) -> Step:
    if isinstance(move, Deal) or state.deal_due or move.piece not in state.tray:
        return reference.play(state, move)  # deals, and the errors, are the reference's
    piece = INDEX[move.piece]
    height, width, cells = (int(v) for v in k.SHAPE[piece])
    m = SIZE * move.row + move.column
    low, high = k.split(state.filled)
    if move.row + height > SIZE or move.column + width > SIZE or (
            low & k.PIECE_LOW[piece, m]) or (high & k.PIECE_HIGH[piece, m]):
        return reference.play(state, move)
    low, high, rows, columns = k.place(low, high, piece, m, k.PIECE_LOW, k.PIECE_HIGH, k.COLUMN_LOW, k.COLUMN_HIGH)
    cleared_rows = tuple(r for r in range(SIZE) if rows >> r & 1)
    cleared_columns = tuple(c for c in range(SIZE) if columns >> c & 1)
    gain = points(cells, len(cleared_rows) + len(cleared_columns))
    slot = state.tray.index(move.piece)
    tray = tuple(None if index == slot else letter for index, letter in enumerate(state.tray))
    new = State(k.join(low, high), tray, state.score + gain)
    events = [PiecePlaced(move.piece, move.row, move.column, cleared_rows, cleared_columns, gain)]
    if not new.deal_due and not can_place_any(new):
        events.append(GameOver(new.score))
    return Step(new, tuple(events))
