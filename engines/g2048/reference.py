"""The rules in plain Python, straight from spec 1.3: the path the numba kernel is checked against,
and the one used for tiles beyond 32768 (which do not fit a nibble)."""

from __future__ import annotations

from engines.contract import Step
from engines.errors import IllegalMoveError
from engines.g2048.events import GameOver, TileSpawned, TilesSlid, Won
from engines.g2048.state import CELLS, MAX_EXPONENT, SIZE, WIN_EXPONENT, DOWN, LEFT, RIGHT, UP, Slide, Spawn, State


def line_cells(direction: int) -> list[list[int]]:
    """The four lines of cells for a slide, each listed from the destination wall outward."""
    lines = []
    for index in range(SIZE):
        if direction == LEFT:
            lines.append([SIZE * index + c for c in range(SIZE)])
        elif direction == RIGHT:
            lines.append([SIZE * index + c for c in reversed(range(SIZE))])
        elif direction == UP:
            lines.append([SIZE * r + index for r in range(SIZE)])
        else:
            lines.append([SIZE * r + index for r in reversed(range(SIZE))])
    return lines


def slide_line(line: list[int]) -> tuple[list[int], int, list[int]]:
    """One line of exponents read from the destination wall: drop the gaps, merge equal
    neighbours in pairs from the wall (a merged tile does not merge again), pad. Returns the new
    line, the points scored and the positions holding merged tiles."""
    tiles = [e for e in line if e]
    result, gain, merged = [], 0, []
    index = 0
    while index < len(tiles):
        if index + 1 < len(tiles) and tiles[index] == tiles[index + 1] and tiles[index] < MAX_EXPONENT:
            merged.append(len(result))
            result.append(tiles[index] + 1)
            gain += 1 << (tiles[index] + 1)
            index += 2
        else:
            result.append(tiles[index])
            index += 1
    return result + [0] * (len(line) - len(result)), gain, merged


def slide(exponents: tuple[int, ...], direction: int) -> tuple[tuple[int, ...], int, tuple[int, ...]]:
    """The board after a slide, the points and the cells holding merged tiles."""
    board = list(exponents)
    gain, merged_cells = 0, []
    for cells in line_cells(direction):
        new_line, line_gain, merged = slide_line([board[c] for c in cells])
        for cell, exponent in zip(cells, new_line):
            board[cell] = exponent
        gain += line_gain
        merged_cells.extend(cells[i] for i in merged)
    return tuple(board), gain, tuple(sorted(merged_cells))


def can_move(exponents: tuple[int, ...]) -> bool:
    """Whether some slide moves a tile: an empty cell or two equal neighbours."""
    if 0 in exponents:
        return True
    for r in range(SIZE):
        for c in range(SIZE):
            e = exponents[SIZE * r + c]
            if c + 1 < SIZE and e == exponents[SIZE * r + c + 1] and e < MAX_EXPONENT:
                return True
            if r + 1 < SIZE and e == exponents[SIZE * (r + 1) + c] and e < MAX_EXPONENT:
                return True
    return False


def play(state: State, move: Slide | Spawn) -> Step:
    if isinstance(move, Spawn):
        return spawn(state, move)
    if state.spawns_due:
        raise IllegalMoveError("a tile must spawn first (the game adds one after every slide)",
                               token=str(move))
    board, gain, merged = slide(state.exponents, move.direction)
    if board == state.exponents:
        raise IllegalMoveError(f"sliding {move.name} moves no tile", token=str(move))
    events = [TilesSlid(move.direction, gain, tuple(divmod(cell, SIZE) for cell in merged))]
    if not state.won and any(board[cell] == WIN_EXPONENT for cell in merged):
        events.append(Won())
    return Step(State(board, state.score + gain, 1), tuple(events))


def spawn(state: State, move: Spawn) -> Step:
    if not state.spawns_due:
        raise IllegalMoveError("no tile is due: the player moves now", token=str(move))
    if state.exponents[move.cell]:
        raise IllegalMoveError(f"cell ({move.row}, {move.column}) already holds a tile", token=str(move))
    board = list(state.exponents)
    board[move.cell] = move.exponent
    board = tuple(board)
    due = state.spawns_due - 1 if 0 in board else 0
    after = State(board, state.score, due)
    events: list = [TileSpawned(move.row, move.column, move.value)]
    if not due and not can_move(board):
        events.append(GameOver(state.score))
    return Step(after, tuple(events))


def spawn_outcomes(state: State) -> list[tuple[Spawn, float]]:
    """Every spawn with its probability: a uniform empty cell, then 2 (0.9) or 4 (0.1)."""
    empty = state.empty_cells
    if not state.spawns_due or not empty:
        return []
    share = 1.0 / len(empty)
    return [(Spawn(cell // SIZE, cell % SIZE, value), share * p)
            for cell in empty for value, p in ((2, 0.9), (4, 0.1))]


assert CELLS == SIZE * SIZE
