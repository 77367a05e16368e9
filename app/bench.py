"""Speed measurements shared by ``kibitz bench`` and the scripts in ``benchmarks/``."""

from __future__ import annotations

import dataclasses
import time

import numpy as np


@dataclasses.dataclass(frozen=True)
class PlayoutSpeed:
    """Uniformly random games played from the empty board by one engine path on one core."""

    path: str
    games: int
    splits: int
    seconds: float
    mean_length: float
    shortest: int
    longest: int

    @property
    def splits_per_second(self) -> float:
        return self.splits / self.seconds

    @property
    def games_per_second(self) -> float:
        return self.games / self.seconds


def splt_numba_playouts(seconds: float, seed: int = 1) -> PlayoutSpeed:
    """Random SPL-T playouts in the numba kernel for about ``seconds`` (after a warm-up call
    that compiles or loads the kernel)."""
    from engines.splt import State, fast

    start = State()
    fast.random_playouts(start, 1, seed)  # compile / load from cache outside the timing
    lengths: list[np.ndarray] = []
    splits = 0
    chunk = 200
    began = time.perf_counter()
    elapsed = 0.0
    while elapsed < seconds:
        game_lengths, _, played = fast.random_playouts(start, chunk, seed + len(lengths))
        lengths.append(game_lengths)
        splits += played
        elapsed = time.perf_counter() - began
        chunk = min(chunk * 2, 20000)
    every = np.concatenate(lengths)
    return PlayoutSpeed(
        "numba kernel", len(every), splits, elapsed, float(every.mean()), int(every.min()), int(every.max())
    )


def splt_reference_playouts(seconds: float, seed: int = 1) -> PlayoutSpeed:
    """Random SPL-T playouts through the plain-Python reference path for about ``seconds``."""
    from engines.splt import State, reference

    rng = np.random.default_rng(seed)
    lengths = []
    splits = 0
    began = time.perf_counter()
    elapsed = 0.0
    while elapsed < seconds:
        state = State()
        moves = state.legal_moves()
        while moves:
            state = reference.play(state, moves[int(rng.integers(len(moves)))]).state
            moves = state.legal_moves()
        lengths.append(state.splits)
        splits += state.splits
        elapsed = time.perf_counter() - began
    return PlayoutSpeed(
        "plain-Python reference", len(lengths), splits, elapsed,
        float(np.mean(lengths)), int(min(lengths)), int(max(lengths)),
    )


def splt_playout_table(seconds: float, seed: int = 1) -> list[PlayoutSpeed]:
    """Both paths, measured one after the other in the same process."""
    return [splt_numba_playouts(seconds, seed), splt_reference_playouts(seconds, seed)]
