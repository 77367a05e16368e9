"""Whole ten-level games played by Irpan's search, boards and Fill rows dealt from a seed."""

from __future__ import annotations

import dataclasses
import time

import numpy as np

from advisors.destructo import kernel
from engines.destructo import GAME, Click, State
from engines.destructo.fast import encode


@dataclasses.dataclass(frozen=True)
class GameRecord:
    seed: int
    score: int
    moves: int
    ms_per_move: float
    level_scores: tuple[int, ...]

    def as_json(self) -> dict:
        return {"seed": self.seed, "score": self.score, "moves": self.moves, "ms_per_move": round(self.ms_per_move, 3),
                "level_scores": list(self.level_scores)}


def best_click(state: State, depth: int = 3, expand: int = 6) -> Click | None:
    grid, _ = encode(state.board)
    value, row, column = kernel.search(grid, depth, expand)
    return None if row < 0 else Click(int(row), int(column))


def play_game(seed: int, depth: int = 3, expand: int = 6) -> GameRecord:
    rng = np.random.default_rng(seed)
    state = GAME.initial_state()
    moves = 0
    thinking = 0.0
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
        move = best_click(state, depth, expand)
        thinking += time.perf_counter() - began
        level = state.level
        state = GAME.play(state, move).state
        moves += 1
        if state.level != level or state.finished:
            level_scores.append(state.score - level_start)
            level_start = state.score
    return GameRecord(seed, state.score, moves, thinking * 1000.0 / max(moves, 1), tuple(level_scores))
