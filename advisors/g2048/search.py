"""The expectimax advisor's Python face: budgets, the transposition table, ranked candidates."""

from __future__ import annotations

import dataclasses
import threading
import time
from concurrent.futures import ThreadPoolExecutor

import numpy as np

from advisors.candidate import Candidate
from advisors.g2048 import heuristic, kernel
from advisors.instances import shared
from engines import limits
from engines.errors import NotationError
from engines.g2048 import kernel as engine_kernel
from engines.g2048.fast import NIBBLE_LIMIT, pack
from engines.g2048.state import DIRECTION_NAMES, Slide, State

#: A chance node less likely than this gets the heuristic. nneonneo cuts at 1e-4; 3e-4 evaluates
#: about 2.1 times fewer slides (150 positions along a whole game: the same best slide at 137).
PROBABILITY_THRESHOLD = 3e-4
#: The longest time budget of one decision (ten minutes), and the most search threads.
MAX_MILLISECONDS = 600_000
#: The deepest fixed depth: the adaptive depth never goes past it (16 distinct tiles - 2), and a
#: crowded board takes seconds a move there but minutes at depth 30 (a checkerboard of 2s and 4s:
#: 4 s at depth 12, over 4 minutes at 30). A time budget deepens past it while the next depth fits.
MAX_FIXED_DEPTH = 14
MAX_THREADS = 256
NNEONNEO_THRESHOLD = 1e-4


@dataclasses.dataclass(frozen=True)
class Budget:
    """How hard to search: a fixed ``depth`` (player moves below the root's slide), a time limit
    in ``milliseconds`` (deepening one move at a time while the next depth is expected to fit), or
    neither for nneonneo's adaptive depth, max(3, distinct tiles - 2)."""

    depth: int | None = None
    milliseconds: float | None = None

    def __post_init__(self) -> None:
        if self.depth is not None:
            limits.check_int(self.depth, "the depth (player moves)", 1, MAX_FIXED_DEPTH)
        if self.milliseconds is not None and (
                isinstance(self.milliseconds, bool) or not isinstance(self.milliseconds, (int, float))
                or not 0 < self.milliseconds <= MAX_MILLISECONDS):
            raise NotationError(f"a time budget is a number of milliseconds above 0 and at most {MAX_MILLISECONDS:,}, "
                                f"not {self.milliseconds!r}")


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


#: Spawns of one decision: 4 slides x at most 15 empty cells x 2 tiles; each has up to 4 replies.
MAX_SPAWNS = 4 * 15 * 2
MAX_ITEMS = 4 * MAX_SPAWNS


SLOT_BYTES = 16
CACHE_LINE = 64


def new_table(bits: int) -> np.ndarray:
    """A transposition table of 2^``bits`` slots of two words (one flat array, slot i at words 2i
    and 2i + 1), zeroed, starting on a cache line so that no slot straddles two: the entry and the
    horizon value beside it arrive in one load."""
    words = (1 << bits) * SLOT_BYTES // 8
    raw = np.zeros(words + CACHE_LINE // 8, np.uint64)
    skip = (-raw.ctypes.data % CACHE_LINE) // 8
    return raw[skip:skip + words]


class Expectimax:
    """nneonneo's expectimax. The root slides are shared out among ``threads`` workers (the kernel
    releases the GIL), which take them one at a time, largest first, each with a transposition
    table of its own; each slide's search sees a table of its own, started afresh, as in nneonneo's
    program. So a decision's values are the same on every run and with any number of threads.
    One decision at a time per instance (a lock guards it)."""

    def __init__(self, weights: heuristic.Weights = heuristic.PUBLISHED, threshold: float = PROBABILITY_THRESHOLD,
                 table_bits: int = 20, threads: int = 2) -> None:
        limits.check_int(threads, "the search threads", 1, MAX_THREADS)
        limits.check_int(table_bits, "the table size (bits)", 1, 40)
        if not 0 < threshold <= 1:
            raise NotationError(f"the probability threshold is {threshold!r}; it must be above 0 and at most 1")
        # A transposition table per thread: two 64-bit words a slot (an entry and a horizon value).
        limits.check_memory(f"{min(threads, 4)} transposition tables of 2^{table_bits} slots",
                            SLOT_BYTES * min(threads, 4) << table_bits, field="the table size")
        self.weights = weights
        self.threshold = threshold
        # nneonneo's program compares float32 probabilities with the float32 nearest its cut-off.
        self._cutoff = float(np.float32(threshold))
        self.threads = threads
        # A worker searches whole root slides, so more than four would idle.
        workers = min(threads, 4)
        # The row table's float32 values widened once: the kernels sum them in float64, and a
        # float64 table spares a conversion per lookup (the same values, to the last bit).
        self._heuristic = heuristic.row_table(weights.as_array()).astype(np.float64)
        self._tables = [new_table(table_bits) for _ in range(workers)]
        self._shift = np.uint64(64 - table_bits)
        self._counters = [np.zeros(2, np.int64) for _ in range(workers)]
        self._items = np.zeros(MAX_ITEMS, np.uint64)
        self._item_spawn = np.zeros(MAX_ITEMS, np.int64)
        self._values = np.zeros(MAX_ITEMS, np.float64)
        self._spawn_probability = np.zeros(MAX_SPAWNS, np.float64)
        self._spawn_chance = np.zeros(MAX_SPAWNS, np.float64)
        self._spawn_direction = np.zeros(MAX_SPAWNS, np.int64)
        self._next_slide = np.zeros(1, np.int64)
        self._slide_order = np.zeros(4, np.int64)
        self._pool = ThreadPoolExecutor(workers - 1, thread_name_prefix="expectimax") if workers > 1 else None
        self._salts = np.random.default_rng(2048)
        self._lock = threading.Lock()

    def _search(self, board: np.uint64, depth: int) -> np.ndarray:
        # A salt per root slide: each slide's subtree sees a table of its own, as in nneonneo's
        # program, so no slide's values depend on what another slide's search stored.
        salts = self._salts.integers(1, 2**63, size=4).astype(np.uint64)
        count, spawns = kernel.root_items(board, engine_kernel.LEFT_TABLE, engine_kernel.RIGHT_TABLE, self._items,
                                          self._item_spawn, self._spawn_probability, self._spawn_chance,
                                          self._spawn_direction, self._counters[0])
        slides = kernel.slide_order(self._item_spawn, self._spawn_direction, count, self._slide_order)
        self._next_slide[0] = 0

        def work(index: int) -> None:
            kernel.item_values(self._items, self._item_spawn, self._spawn_chance, self._spawn_direction, count,
                               self._slide_order, slides, depth - 1, self._values, self._next_slide, self._cutoff,
                               engine_kernel.LEFT_TABLE, engine_kernel.RIGHT_TABLE, self._heuristic,
                               self._tables[index], salts, self._shift, self._counters[index])

        helpers = ([self._pool.submit(work, index) for index in range(1, min(len(self._tables), slides))]
                   if self._pool is not None else [])
        work(0)
        for helper in helpers:
            helper.result()
        return kernel.root_values(self._values, self._item_spawn, count, self._spawn_probability,
                                  self._spawn_direction, spawns)

    def evaluate(self, state: State, budget: Budget = ADAPTIVE) -> Evaluation:
        """Expected values of the four slides of a position where the player moves."""
        with self._lock:
            board = packed(state)
            began = time.perf_counter()
            for counters in self._counters:
                counters[:] = 0
            if budget.milliseconds is None:
                depth = budget.depth or int(kernel.adaptive_depth(board))
                raw = self._search(board, depth)
            else:
                depth, raw = self._deepen(board, budget)
            elapsed = (time.perf_counter() - began) * 1000.0
            values = tuple(None if v < 0 else float(v) for v in raw)
            evaluations = sum(int(counters[kernel.EVALUATIONS]) for counters in self._counters)
            return Evaluation(values, depth, evaluations, elapsed)

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
        return candidates(self.evaluate(state, budget))


def candidates(evaluation: Evaluation) -> list[G2048Candidate]:
    """An evaluation's four slides as ranked candidates (see :meth:`Expectimax.rank`)."""
    legal = [(v, d) for d, v in enumerate(evaluation.values) if v is not None]
    legal.sort(key=lambda pair: (-pair[0], pair[1]))
    best = legal[0][0] if legal else 0.0
    ranked = []
    for value, direction in legal:
        ranked.append(G2048Candidate(
            Slide(direction), value, best - value, _explain(value, best, evaluation.depth),
            legal=True, depth=evaluation.depth))
    for direction, value in enumerate(evaluation.values):
        if value is None:
            ranked.append(G2048Candidate(
                Slide(direction), float("-inf"), float("inf"),
                f"sliding {DIRECTION_NAMES[direction]} moves no tile", legal=False, depth=evaluation.depth))
    return ranked


def _explain(value: float, best: float, depth: int) -> str:
    if value == best:
        return f"best expected value, searched {depth} moves ahead"
    share = value / best if best > 0 else 0.0
    return f"{share:.1%} of the best expected value ({depth} moves ahead)"


def shared_advisor() -> Expectimax:
    """One advisor for callers that do not keep their own, such as the window. Its table starts
    afresh for every position, so a position shows the same values however it was reached (to the
    last digits, which the two threads' timing can change)."""
    return shared("2048 advisor", Expectimax)


def rank(state: State, budget: Budget = ADAPTIVE) -> list[G2048Candidate]:
    return shared_advisor().rank(state, budget)
