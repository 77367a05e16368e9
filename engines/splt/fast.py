"""The seam between SPL-T's friendly :class:`State` and the packed arrays of the numba kernel.

Everything that converts between the two lives here: playing one move with events, replaying an
index list, random playouts.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator

import numpy as np

from engines.contract import Step
from engines.errors import KibitzInputError
from engines.splt import kernel
from engines.splt.events import (
    BlockHalved,
    BlocksExploded,
    BoxesRefilled,
    BoxFell,
    BoxSplit,
    PointBlocksCreated,
    TurnScored,
)
from engines.splt.state import Box, Move, State


def pack(state: State) -> tuple[np.ndarray, int]:
    """The state's boxes as the kernel's int32 (MAX_BOXES, 5) array, and how many are in use."""
    boxes = np.zeros((kernel.MAX_BOXES, 5), np.int32)
    count = len(state.boxes)
    if count:
        boxes[:count] = [(b.x, b.y, b.w, b.h, b.points) for b in state.boxes]
    return boxes, count


def unpack_boxes(boxes: np.ndarray, count: int) -> tuple[Box, ...]:
    return tuple(Box(*map(int, row)) for row in boxes[:count].tolist())


def play(state: State, move: Move) -> Step:
    """Play one split with the numba kernel and decode its event log."""
    index = state.resolve(move)
    boxes, count = pack(state)
    owner = np.full((kernel.HEIGHT, kernel.WIDTH), -1, np.int16)
    kernel.build_owner(boxes, count, owner)
    log = np.zeros((kernel.LOG_ROWS, kernel.LOG_WIDTH), np.int32)
    parts = np.zeros(5, np.int64)
    count, n_log = kernel.turn(boxes, count, owner, state.splits, index, state.rules.flags(), log, parts)
    scored = TurnScored(*(int(part) for part in parts))
    new_state = State(
        boxes=unpack_boxes(boxes, count),
        score=state.score + scored.total,
        splits=state.splits + 1,
        rules=state.rules,
    )
    return Step(new_state, _decode_events(log[:n_log].tolist(), state.splits + 1) + (scored,))


def _decode_events(rows: list[list[int]], split_number: int) -> tuple:
    """Turn event-log rows into the reference path's events (consecutive rows of one kind that
    belong together, such as cluster members, become one event)."""
    events: list = []
    pending: list[Box] = []
    pending_kind = 0
    pending_late = 0

    def flush() -> None:
        nonlocal pending
        if not pending:
            return
        if pending_kind == kernel.EVENT_CREATED:
            events.append(PointBlocksCreated(tuple(pending), split_number, late=bool(pending_late)))
        elif pending_kind == kernel.EVENT_EXPLODED:
            events.append(BlocksExploded(tuple(pending), sum(b.area for b in pending)))
        elif pending_kind == kernel.EVENT_REFILLED:
            events.append(BoxesRefilled(tuple(pending)))
        pending = []

    for kind, x, y, w, h, a, b, _ in rows:
        grouped = kind in (kernel.EVENT_CREATED, kernel.EVENT_EXPLODED, kernel.EVENT_REFILLED)
        if not grouped or kind != pending_kind or (kind == kernel.EVENT_CREATED and b != pending_late):
            flush()
        if kind == kernel.EVENT_SPLIT:
            box = Box(x, y, w, h)
            if a == 0:
                halves = (Box(x, y, w, h // 2), Box(x, y + h // 2, w, h // 2))
            else:
                halves = (Box(x, y, w // 2, h), Box(x + w // 2, y, w // 2, h))
            events.append(BoxSplit(box, "H" if a == 0 else "V", *halves))
        elif kind == kernel.EVENT_CREATED:
            pending.append(Box(x, y, w, h))
            pending_late = b
        elif kind == kernel.EVENT_EXPLODED:
            pending.append(Box(x, y, w, h, a))
        elif kind == kernel.EVENT_REFILLED:
            pending.append(Box(x, y, w, h))
        elif kind == kernel.EVENT_FELL:
            events.append(BoxFell(Box(x, y, w, h, b), Box(x, a, w, h, b)))
        elif kind == kernel.EVENT_HALVED:
            events.append(BlockHalved(Box(x, y, w, h, b), a, b, a - b))
        pending_kind = kind
    flush()
    return tuple(events)


@dataclasses.dataclass(frozen=True)
class Replay:
    """A line played in the kernel up to its first illegal move (``played`` < given means the
    move at position ``played`` cannot be played in ``state``; the caller explains why)."""

    state: State
    moves: tuple[Move, ...]  # the boxes split, as played
    indices: tuple[int, ...]  # their box-list indices
    score_after: tuple[int, ...]  # score after each split
    played: int


def _replay(state: State, indices: np.ndarray, moves: np.ndarray, by_index: bool) -> Replay:
    boxes, count = pack(state)
    scores = np.zeros(len(indices), np.int64)
    played, count = kernel.replay(
        boxes, count, state.splits, state.rules.flags(), indices, moves, by_index, scores
    )
    played = int(played)
    score_after = tuple(state.score + int(s) for s in scores[:played])
    final = State(
        boxes=unpack_boxes(boxes, count),
        score=score_after[-1] if played else state.score,
        splits=state.splits + played,
        rules=state.rules,
    )
    return Replay(
        final,
        tuple(Move(*map(int, row)) for row in moves[:played].tolist()),
        tuple(int(i) for i in indices[:played]),
        score_after,
        played,
    )


def replay_indices(state: State, indices: list[int]) -> Replay:
    """Play box-list indices from ``state`` in the kernel, stopping at the first illegal one."""
    # Any index past the largest possible box list is illegal; -1 stops the kernel there without
    # overflowing int64 on absurd input.
    given = np.array([i if 0 <= i < kernel.MAX_BOXES else -1 for i in indices], dtype=np.int64)
    return _replay(state, given, np.zeros((len(indices), 4), np.int64), True)


def replay_moves(state: State, moves: list[Move]) -> Replay:
    """Play geometric moves from ``state`` in the kernel, stopping at the first illegal one."""
    rows = np.array(
        [(m.x, m.y, -1 if m.w is None else m.w, -1 if m.h is None else m.h) for m in moves],
        dtype=np.int64,
    ).reshape(len(moves), 4)
    return _replay(state, np.zeros(len(moves), np.int64), rows, False)


def replay_checked(state: State, moves: list[Move], first_move_number: int = 1) -> Replay:
    """:func:`replay_moves`, raising IllegalMoveError (with the move number, the move and why)
    if some move cannot be played."""
    result = replay_moves(state, moves)
    if result.played < len(moves):
        failing = moves[result.played]
        try:
            result.state.resolve(failing)
        except KibitzInputError as error:
            raise error.located(move_number=first_move_number + result.played, token=str(failing)) from None
        raise AssertionError(f"the kernel refused move {failing} that the state accepts")
    return result


def random_playouts(state: State, games: int, seed: int) -> tuple[np.ndarray, np.ndarray, int]:
    """Play ``games`` uniformly random games from ``state`` in the kernel.

    Returns (final split count per game, score gained per game, total splits played).
    """
    boxes, count = pack(state)
    lengths = np.zeros(games, np.int64)
    scores = np.zeros(games, np.int64)
    total = kernel.random_playouts(
        boxes, count, state.splits, state.rules.flags(), games, seed, lengths, scores
    )
    return lengths, scores, int(total)


_WORD = (1 << 64) - 1


def playout_words(seed: int) -> Iterator[int]:
    """The random words :func:`random_playouts` draws for ``seed``, in plain Python: a player that
    splits ``legal[word % len(legal)]`` (the legal boxes in box-list order), one word per split
    and its games one after the other, plays the kernel's very games. For benchmarks and tests
    that drive other implementations of the rules through the same games."""
    state = (seed * 0x9E3779B97F4A7C15 + 1) & _WORD  # as kernel.random_playouts seeds its state
    while True:  # kernel.next_random
        state ^= state >> 12
        state ^= (state << 25) & _WORD
        state ^= state >> 27
        yield (state * 2685821657736338717) & _WORD
