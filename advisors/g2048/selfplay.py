"""Whole games played by the advisor, spawns drawn from a seeded generator (``kibitz play 2048``
and ``benchmarks/g2048.py``)."""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Callable

import numpy as np

from advisors.g2048.search import ADAPTIVE, Budget, Expectimax
from engines.g2048 import GAME, State


@dataclasses.dataclass(frozen=True)
class GameRecord:
    seed: int
    score: int
    max_tile: int
    moves: int
    ms_per_move: float
    over: bool

    def as_json(self) -> dict:
        return {"seed": self.seed, "score": self.score, "max_tile": self.max_tile, "moves": self.moves,
                "ms_per_move": round(self.ms_per_move, 3), "over": self.over}


def play_game(seed: int, advisor: Expectimax | None = None, budget: Budget = ADAPTIVE, max_moves: int | None = None,
              progress: Callable[[State, int], None] | None = None) -> GameRecord:
    """Play from a new game (the two start tiles drawn from ``seed``) until no slide moves a
    tile, or ``max_moves`` slides."""
    advisor = advisor or Expectimax()
    rng = np.random.default_rng(seed)
    state = GAME.new_game(rng)
    moves = 0
    thinking = 0.0
    while max_moves is None or moves < max_moves:
        began = time.perf_counter()
        ranked = advisor.rank(state, budget)
        thinking += time.perf_counter() - began
        legal = [c for c in ranked if c.legal]
        if not legal:
            break
        # Tiles beyond 32768 are clipped in the search; the exact rules have the last word.
        for candidate in legal:
            try:
                state = GAME.play(state, candidate.move).state
                break
            except ValueError:
                continue
        else:
            break
        moves += 1
        state = GAME.apply_chance(state, GAME.random_spawn(state, rng)).state
        if progress is not None:
            progress(state, moves)
    return GameRecord(seed, state.score, state.max_tile, moves, thinking * 1000.0 / max(moves, 1),
                      GAME.is_over(state))


def summary(records: list[GameRecord]) -> dict:
    scores = sorted(r.score for r in records)
    moves = sum(r.moves for r in records)
    reached = {str(tile): round(100.0 * sum(r.max_tile >= tile for r in records) / len(records), 1)
               for tile in (2048, 4096, 8192, 16384, 32768, 65536)}
    return {
        "games": len(records),
        "average_score": round(float(np.mean(scores)), 1),
        "median_score": float(np.median(scores)),
        "min_score": scores[0],
        "max_score": scores[-1],
        "reached_percent": reached,
        "moves": moves,
        "ms_per_move": round(sum(r.ms_per_move * r.moves for r in records) / max(moves, 1), 3),
    }
