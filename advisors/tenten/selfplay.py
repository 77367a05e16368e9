"""Whole games played by the planner, deals drawn from a seeded generator (``kibitz play 1010``
and ``benchmarks/tenten.py``). A round is counted when all three of its pieces are placed; the
game ends with the first round that no order of its pieces can place (spec 1.4)."""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Callable

import numpy as np

from advisors.tenten.planner import Planner
from engines.tenten import kernel as board
from engines.tenten import random_letters
from engines.tenten.pieces import INDEX, PIECES, points


@dataclasses.dataclass(frozen=True)
class GameRecord:
    seed: int
    score: int
    rounds: int
    ms_per_round: float
    over: bool
    evaluations: int = 0

    def as_json(self) -> dict:
        return {"seed": self.seed, "score": self.score, "rounds": self.rounds,
                "ms_per_round": round(self.ms_per_round, 4), "over": self.over, "evaluations": self.evaluations}


def play_game(seed: int, planner: Planner | None = None, rounds_cap: int | None = None,
              progress: Callable[[int, int], None] | None = None, progress_every: int = 1000) -> GameRecord:
    """Play a new game until a round cannot be placed, or ``rounds_cap`` rounds. ``progress(rounds,
    score)`` is called every ``progress_every`` rounds."""
    planner = planner or Planner()
    rng = np.random.default_rng(seed)
    low, high = board.split(0)
    score = rounds = evaluations = 0
    thinking = 0.0
    over = False
    while rounds_cap is None or rounds < rounds_cap:
        tray = tuple(random_letters(rng))
        began = time.perf_counter()
        item, placements, leaves = planner.best(low, high, tray)
        thinking += time.perf_counter() - began
        evaluations += leaves
        if item < 0 or len(placements) < len(tray):
            over = True
            break
        for letter, cell in placements:
            piece = INDEX[letter]
            low, high, rows, columns = board.place(low, high, piece, cell, board.PIECE_LOW, board.PIECE_HIGH,
                                                   board.COLUMN_LOW, board.COLUMN_HIGH)
            score += points(PIECES[piece].size, int(rows).bit_count() + int(columns).bit_count())
        rounds += 1
        if progress is not None and rounds % progress_every == 0:
            progress(rounds, score)
    return GameRecord(seed, score, rounds, thinking * 1000.0 / max(rounds, 1), over, evaluations)


def summary(records: list[GameRecord]) -> dict:
    """Totals, and the mean rounds per game estimated as all rounds played over the games that
    ended (a game cut off by the cap counts its rounds but not as an ending)."""
    rounds = sum(r.rounds for r in records)
    ended = sum(r.over for r in records)
    scores = sorted(r.score for r in records)
    return {
        "games": len(records),
        "games_ended": ended,
        "rounds": rounds,
        "mean_rounds_estimate": round(rounds / ended, 1) if ended else None,
        "average_score": round(float(np.mean(scores)), 1) if scores else 0.0,
        "median_score": float(np.median(scores)) if scores else 0.0,
        "max_score": scores[-1] if scores else 0,
        "ms_per_round": round(sum(r.ms_per_round * r.rounds for r in records) / max(rounds, 1), 4),
        "evaluations_per_round": round(sum(r.evaluations for r in records) / max(rounds, 1), 1),
    }
