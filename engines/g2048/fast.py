"""The fast path: states packed into the nibble bitboard and played by ``engines.g2048.kernel``.
Boards with a tile beyond 32768, and slides that would make one, use the plain-Python rules."""

from __future__ import annotations

import numpy as np

from engines.contract import Step
from engines.errors import IllegalMoveError
from engines.g2048 import kernel, reference
from engines.g2048.events import TilesSlid, Won
from engines.g2048.state import CELLS, SIZE, WIN_EXPONENT, Slide, Spawn, State

NIBBLE_LIMIT = 15


def pack(exponents) -> np.uint64:
    """The bitboard of 16 exponents (each at most 15)."""
    board = 0
    for cell, exponent in enumerate(exponents):
        board |= exponent << (4 * cell)
    return np.uint64(board)


def unpack(board) -> tuple[int, ...]:
    value = int(board)
    return tuple((value >> (4 * cell)) & 0xF for cell in range(CELLS))


def fits(exponents) -> bool:
    return max(exponents) <= NIBBLE_LIMIT


def slide(exponents: tuple[int, ...], direction: int):
    """(board, points, merged cells, overflowed) from the kernel; the board is None on overflow."""
    after, points, merged_mask, overflow = kernel.slide_details(
        pack(exponents), direction, kernel.LEFT_TABLE, kernel.RIGHT_TABLE, kernel.GAIN_TABLE,
        kernel.MERGED_LEFT_TABLE, kernel.MERGED_RIGHT_TABLE, kernel.OVERFLOW_TABLE)
    if overflow:
        return None, 0, (), True
    merged = tuple(cell for cell in range(CELLS) if merged_mask >> cell & 1)
    return unpack(after), int(points), merged, False


def play(state: State, move: Slide | Spawn) -> Step:
    if isinstance(move, Spawn) or state.spawns_due or not fits(state.exponents):
        return reference.play(state, move)
    board, gain, merged, overflow = slide(state.exponents, move.direction)
    if overflow:
        return reference.play(state, move)
    if board == state.exponents:
        raise IllegalMoveError(f"sliding {move.name} moves no tile", token=str(move))
    events = [TilesSlid(move.direction, gain, tuple(divmod(cell, SIZE) for cell in merged))]
    if not state.won and any(board[cell] == WIN_EXPONENT for cell in merged):
        events.append(Won())
    return Step(State(board, state.score + gain, 1), tuple(events))


def legal_directions(state: State) -> list[int]:
    if state.spawns_due:
        return []
    if not fits(state.exponents):
        return [d for d in range(4) if reference.slide(state.exponents, d)[0] != state.exponents]
    board = pack(state.exponents)
    return [d for d in range(4)
            if kernel.slide(board, d, kernel.LEFT_TABLE, kernel.RIGHT_TABLE) != board]
