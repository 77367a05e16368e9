"""The expectimax advisor's Python face: budgets, the transposition table, ranked candidates."""

from __future__ import annotations

import dataclasses
import threading
import time
from concurrent.futures import ThreadPoolExecutor

import numpy as np

from advisors.candidate import Candidate
from advisors.g2048 import heuristic, kernel
from engines.g2048 import kernel as engine_kernel
from engines.g2048.fast import NIBBLE_LIMIT, pack
from engines.g2048.state import DIRECTION_NAMES, Slide, State

#: A chance node less likely than this gets the heuristic. nneonneo cuts at 1e-4; 3e-4 searches
#: about 2.4 times fewer nodes (measured on five mid- and late-game boards, same best slides), which
#: with two threads keeps a move near a quarter of nneonneo's time on the same machine.
PROBABILITY_THRESHOLD = 3e-4
NNEONNEO_THRESHOLD = 1e-4


@dataclasses.dataclass(frozen=True)
class Budget:
    """How hard to search: a fixed ``depth`` (player moves below the root's slide), a time limit
    in ``milliseconds`` (deepening one move at a time while the next depth is expected to fit), or
    neither for nneonneo's adaptive depth, max(3, distinct tiles - 2)."""

    depth: int | None = None
    milliseconds: float | None = None

    def __post_init__(self) -> None:
        if self.depth is not None and not 1 <= self.depth <= kernel.MAX_LEVELS - 2:
            raise ValueError(f"depth is 1..{kernel.MAX_LEVELS - 2} player moves, not {self.depth}")
        if self.milliseconds is not None and self.milliseconds <= 0:
            raise ValueError("a time budget is a positive number of milliseconds")


ADAPTIVE = Budget()


@dataclasses.dataclass(frozen=True)
class Evaluation:
    """The expected value of each slide (None when it moves nothing), and what the search did."""

    values: tuple[float | None, ...]
    depth: int
    evaluations: int
    milliseconds: float

    @property
    def best_direction(self) -> int | None:
        legal = [(value, d) for d, value in enumerate(self.values) if value is not None]
        return max(legal, key=lambda pair: (pair[0], -pair[1]))[1] if legal else None


@dataclasses.dataclass(frozen=True)
class G2048Candidate(Candidate):
    """A slide with its expected value (``score``); ``legal`` is False for a slide that moves
    nothing (listed last so all four directions show)."""

    legal: bool = True
    depth: int = 0


def packed(state: State) -> np.uint64:
    """The bitboard the search sees; tiles beyond 32768 count as 32768 (they are rare, and the
    engine plays the chosen slide exactly)."""
    return pack(tuple(min(e, NIBBLE_LIMIT) for e in state.exponents))


class _Worker:
    """One search thread's transposition table and counters."""

    def __init__(self, table_bits: int) -> None:
        self.table = np.zeros((1 << table_bits, 4), np.uint64)
        self.table_values = self.table.view(np.float64)
        self.shift = np.uint64(64 - table_bits)
        self.counters = np.zeros(2, np.int64)


class Expectimax:
    """nneonneo-style expectimax. The legal slides of the root are shared out among ``threads``
    workers (the kernel releases the GIL), each with its own transposition table, used for all the
    slides it searches. With ``keep_table`` the tables carry over from one move to the next (hits
    then need a node at least as likely; measured slower than starting afresh, so off by default).

    One decision at a time per instance (a lock guards it)."""

    def __init__(self, weights: heuristic.Weights = heuristic.PUBLISHED, threshold: float = PROBABILITY_THRESHOLD,
                 table_bits: int = 20, keep_table: bool = False, threads: int = 2) -> None:
        if threads < 1:
            raise ValueError("at least one search thread")
        self.weights = weights
        self.threshold = threshold
        self.keep_table = keep_table
        # Within one decision a hit ignores how likely its node was, as nneonneo's table does;
        # entries kept from earlier moves must come from nodes at least as likely.
        self.trust = 1.0 if keep_table else 0.0
        self.threads = threads
        self._heuristic = heuristic.row_table(weights.as_array())
        self._workers = [_Worker(table_bits) for _ in range(threads)]
        self._pool = ThreadPoolExecutor(threads - 1, thread_name_prefix="expectimax") if threads > 1 else None
        self._salts = np.random.default_rng(2048)
        self._salt = np.uint64(0)
        self._lock = threading.Lock()

    @property
    def _counters(self) -> np.ndarray:
        return sum(worker.counters for worker in self._workers)

    def _search(self, board: np.uint64, depth: int) -> np.ndarray:
        if not self.keep_table or self._salt == 0:
            self._salt = np.uint64(self._salts.integers(1, 2**63))
        directions = [d for d in range(4)
                      if engine_kernel.slide(board, d, engine_kernel.LEFT_TABLE, engine_kernel.RIGHT_TABLE) != board]
        result = np.full(4, -1.0)

        # A fixed share per worker (slides i, i + threads, ...) keeps each table's history, and so
        # the values, the same from run to run.
        def work(index: int) -> None:
            worker = self._workers[index]
            for direction in directions[index::self.threads]:
                result[direction] = kernel.slide_value(
                    board, direction, depth, self.threshold, engine_kernel.LEFT_TABLE, engine_kernel.RIGHT_TABLE,
                    self._heuristic, worker.table, worker.table_values, self._salt, worker.shift, self.trust,
                    worker.counters)

        helpers = ([self._pool.submit(work, index) for index in range(1, min(self.threads, len(directions)))]
                   if self._pool is not None else [])
        work(0)
        for helper in helpers:
            helper.result()
        return result

    def evaluate(self, state: State, budget: Budget = ADAPTIVE) -> Evaluation:
        """Expected values of the four slides of a position where the player moves."""
        with self._lock:
            board = packed(state)
            began = time.perf_counter()
            for worker in self._workers:
                worker.counters[:] = 0
            if budget.milliseconds is None:
                depth = budget.depth or int(kernel.adaptive_depth(board))
                raw = self._search(board, depth)
            else:
                depth, raw = self._deepen(board, budget)
            elapsed = (time.perf_counter() - began) * 1000.0
            values = tuple(None if v < 0 else float(v) for v in raw)
            return Evaluation(values, depth, int(self._counters[kernel.EVALUATIONS]), elapsed)

    def _deepen(self, board: np.uint64, budget: Budget) -> tuple[int, np.ndarray]:
        limit = budget.depth or kernel.MAX_LEVELS - 2
        began = time.perf_counter()
        depth, raw, last = 1, self._search(board, 1), 0.0
        while depth < limit:
            spent = (time.perf_counter() - began) * 1000.0
            took = spent - last
            # Each extra move multiplies the work; stop when the next depth would not fit.
            if spent + took * 4.0 > budget.milliseconds:
                break
            last = spent
            depth += 1
            raw = self._search(board, depth)
        return depth, raw

    def best_slide(self, state: State, budget: Budget = ADAPTIVE) -> Slide | None:
        direction = self.evaluate(state, budget).best_direction
        return None if direction is None else Slide(direction)

    def rank(self, state: State, budget: Budget = ADAPTIVE) -> list[G2048Candidate]:
        """All four slides, best first; slides that move nothing last, marked illegal."""
        if state.spawns_due:
            return []
        evaluation = self.evaluate(state, budget)
        legal = [(v, d) for d, v in enumerate(evaluation.values) if v is not None]
        legal.sort(key=lambda pair: (-pair[0], pair[1]))
        best = legal[0][0] if legal else 0.0
        candidates = []
        for value, direction in legal:
            candidates.append(G2048Candidate(
                Slide(direction), value, best - value, _explain(value, best, evaluation.depth),
                legal=True, depth=evaluation.depth))
        for direction, value in enumerate(evaluation.values):
            if value is None:
                candidates.append(G2048Candidate(
                    Slide(direction), float("-inf"), float("inf"),
                    f"sliding {DIRECTION_NAMES[direction]} moves no tile", legal=False, depth=evaluation.depth))
        return candidates


def _explain(value: float, best: float, depth: int) -> str:
    if value == best:
        return f"best expected value, searched {depth} moves ahead"
    share = value / best if best > 0 else 0.0
    return f"{share:.1%} of the best expected value ({depth} moves ahead)"


_shared: Expectimax | None = None
_shared_lock = threading.Lock()


def shared_advisor() -> Expectimax:
    """One advisor for callers that do not keep their own, such as the window. Its tables start
    afresh for every position, so a position shows the same values however it was reached."""
    global _shared
    with _shared_lock:
        if _shared is None:
            _shared = Expectimax()
        return _shared


def rank(state: State, budget: Budget = ADAPTIVE) -> list[G2048Candidate]:
    return shared_advisor().rank(state, budget)
