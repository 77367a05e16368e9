"""The plain-Python HATETRIS rules (spec section 1), written for clarity; the kernel must agree."""

from __future__ import annotations

from collections import deque

from engines.contract import Step
from engines.hatetris import moves
from engines.hatetris.events import GameEnded, LinesCleared, PieceLocked, PieceSent
from engines.hatetris.pieces import BOXES, CELLS, PIECES
from engines.hatetris.state import BAR, Memory, Placement, Rules, State

KEYS = "LRDU"


def fits(well: tuple[int, ...], rules: Rules, piece: int, x: int, y: int, o: int) -> bool:
    x_min, y_min, x_dim, y_dim = (int(v) for v in BOXES[piece, o])
    if x + x_min < 0 or x + x_min + x_dim > rules.width or y + y_min < 0 or y + y_min + y_dim > rules.depth:
        return False
    return all(not (well[y + cy] >> (x + cx) & 1) for cx, cy in CELLS[piece][o])


def moved(x: int, y: int, o: int, key: str) -> tuple[int, int, int]:
    if key == "L":
        return x - 1, y, o
    if key == "R":
        return x + 1, y, o
    if key == "D":
        return x, y + 1, o
    return x, y, (o + 1) % 4


def resting_positions(well: tuple[int, ...], rules: Rules, piece: int) -> list[tuple[int, int, int]]:
    """Every (x, y, o) reachable from spawn whose Down is blocked, breadth-first."""
    start = (rules.spawn_x, 0, 0)
    seen = {start}
    queue = deque([start])
    resting = []
    while queue:
        position = queue.popleft()
        for key in KEYS:
            candidate = moved(*position, key)
            if not fits(well, rules, piece, *candidate):
                if key == "D":
                    resting.append(position)
                continue
            if candidate not in seen:
                seen.add(candidate)
                queue.append(candidate)
    return resting


def lock(well: tuple[int, ...], rules: Rules, piece: int, x: int, y: int, o: int):
    """(well with the piece, well after clears, cleared rows top first, game over)."""
    rows = list(well)
    for cx, cy in CELLS[piece][o]:
        rows[y + cy] |= 1 << (x + cx)
    locked = tuple(rows)
    top = y + int(BOXES[piece, o, 1])
    cleared: list[int] = []
    if top >= BAR:
        piece_rows = sorted({y + cy for _, cy in CELLS[piece][o]})
        cleared = [row for row in piece_rows if locked[row] == rules.full_row]
        kept = [row for index, row in enumerate(locked) if index not in cleared]
        rows = [0] * len(cleared) + kept
    after = tuple(rows)
    return locked, after, tuple(cleared), after[BAR - 1] != 0


def choose_piece(well: tuple[int, ...], rules: Rules, counts: dict[tuple[int, ...], int]):
    """(piece index, peaks, loops) of the enemy AI (spec 1.6)."""
    peaks, loops = [], []
    for piece in range(len(PIECES)):
        futures = [lock(well, rules, piece, *position)[1] for position in resting_positions(well, rules, piece)]
        peaks.append(max(_top_row(future, rules) for future in futures))
        loops.append(0 if rules.mild else max(counts.get(future, 0) for future in futures))
    choice = min(range(len(PIECES)), key=lambda piece: (loops[piece], peaks[piece], piece))
    return choice, tuple(peaks), tuple(loops)


def _top_row(well: tuple[int, ...], rules: Rules) -> int:
    return next((index for index, row in enumerate(well) if row), rules.depth)


def play(state: State, move: Placement) -> Step:
    return turn(state, move, resting_positions, fits,
                lambda well, rules, memory: choose_piece(well, rules, memory.counts()))


def turn(state: State, move: Placement, resting, fits, choose) -> Step:
    """One move, given the path's move generation (``resting(well, rules, piece)``,
    ``fits(well, rules, piece, x, y, o)``) and AI (``choose(well, rules, memory)`` ->
    (piece, peaks, loops)): check, lock, clear, and the AI's next piece, with the events."""
    moves.check(state, move, lambda: resting(state.well, state.rules, state.piece_index),
                lambda *position: fits(state.well, state.rules, state.piece_index, *position))
    piece = move.piece_index
    locked, after, cleared, over = lock(state.well, state.rules, piece, move.x, move.y, move.o)
    placed = PieceLocked(move.piece, move.x, move.y, move.o,
                         tuple((move.x + cx, move.y + cy) for cx, cy in CELLS[piece][move.o]))
    if over:
        return Step(State(locked, state.score, None, state.rules, state.memory), (placed, GameEnded(state.score)))
    score = state.score + len(cleared)
    memory = state.memory.extended(after, state.pieces + 1) if state.memory else Memory(after, state.pieces + 1)
    choice, peaks, loops = choose(after, state.rules, memory)
    height_choice = min(range(len(PIECES)), key=lambda p: (peaks[p], p))
    events = [placed]
    if cleared:
        events.append(LinesCleared(cleared, score))
    events.append(PieceSent(PIECES[choice], peaks, loops, choice != height_choice))
    return Step(State(after, score, PIECES[choice], state.rules, memory), tuple(events))
