"""Whole ten-level games played by an advisor, boards and Fill rows dealt from a seed.

Two players: Irpan's pruned search (the published baseline, spec 3.1) and the level planner
(:mod:`advisors.destructo.planner`), which also spends a banked Undo after a big click (Irpan did
that by hand). Neither uses the Shuffle; a Fill's row is dealt when its group goes and the plan is
made again.
"""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Callable

import numpy as np

from advisors.destructo import kernel
from advisors.destructo.planner import LevelPlanner
from engines import limits
from engines.destructo import GAME, Click, State
from engines.errors import KibitzInputError
from engines.destructo.fast import encode

Chooser = Callable[[State], "Click | None"]


@dataclasses.dataclass(frozen=True)
class GameRecord:
    seed: int
    score: int
    moves: int
    ms_per_move: float
    slowest_ms: float
    level_scores: tuple[int, ...]

    def as_json(self) -> dict:
        return {"seed": self.seed, "score": self.score, "moves": self.moves, "ms_per_move": round(self.ms_per_move, 3),
                "slowest_ms": round(self.slowest_ms, 1), "level_scores": list(self.level_scores)}


#: Boards Irpan's search may expand for one click (each clicks every group of its board): a
#: million take some seconds; its cost grows as expand ** (depth - 1).
MAX_IRPAN_BOARDS = 1_000_000


def check_irpan(depth: int, expand: int) -> None:
    """Refuse, before searching, a depth and expand whose search could not end in reasonable time."""
    limits.check_int(expand, "the expand", 1, 1000)
    limits.check_int(depth, "the depth", 1, 1000)
    boards = sum(expand ** level for level in range(depth))
    if boards > MAX_IRPAN_BOARDS:
        deepest = max(level for level in range(1, depth) if sum(expand ** d for d in range(level)) <= MAX_IRPAN_BOARDS)
        raise KibitzInputError(f"Irpan's search of depth {depth} expanding {expand} boards at each level would "
                               f"search up to {boards:,.3g} boards a click, over the limit of {MAX_IRPAN_BOARDS:,}; "
                               f"at expand {expand} the depth is at most {deepest}")


def best_click(state: State, depth: int = 3, expand: int = 6) -> Click | None:
    """Irpan's choice: the first click of the best depth-``depth``, expand-``expand`` line."""
    check_irpan(depth, expand)
    grid, _ = encode(state.board)
    value, row, column = kernel.search(grid, depth, expand)
    return None if row < 0 else Click(int(row), int(column))


def irpan_player(depth: int = 3, expand: int = 6) -> Callable[[], Chooser]:
    check_irpan(depth, expand)
    return lambda: (lambda state: best_click(state, depth, expand))


def planner_player(budget_ms: float = 150.0, width: int | None = None, use_undo: bool = True
                   ) -> Callable[[], Chooser]:
    return lambda: LevelPlanner(budget_ms, width, use_undo).choose


def play_game(seed: int, player: Callable[[], Chooser] | None = None, depth: int = 3,
              expand: int = 6) -> GameRecord:
    """One game from ``seed``'s deals; ``player`` makes a fresh chooser for it (default: Irpan's
    search with ``depth`` and ``expand``)."""
    choose = (player or irpan_player(depth, expand))()
    rng = np.random.default_rng(seed)
    state = GAME.initial_state()
    moves = 0
    thinking = 0.0
    slowest = 0.0
    level_scores = []
    level_start = 0
    while not GAME.is_over(state):
        if GAME.is_chance_node(state):
            level = state.level
            state = GAME.apply_chance(state, GAME.sample_chance(state, rng)).state
            if state.level != level:
                level_scores.append(state.score - level_start)
                level_start = state.score
            continue
        began = time.perf_counter()
        move = choose(state)
        spent = time.perf_counter() - began
        thinking += spent
        slowest = max(slowest, spent)
        level = state.level
        state = GAME.play(state, move).state
        moves += 1
        if state.level != level or state.finished:
            level_scores.append(state.score - level_start)
            level_start = state.score
    return GameRecord(seed, state.score, moves, thinking * 1000.0 / max(moves, 1), slowest * 1000.0,
                      tuple(level_scores))
