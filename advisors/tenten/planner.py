"""The round planner's Python face: plans, ranked candidates with their explanation, threads."""

from __future__ import annotations

import dataclasses
import itertools
import threading
import time
from concurrent.futures import ThreadPoolExecutor

import numpy as np

from advisors.candidate import Candidate
from advisors.instances import shared
from advisors.tenten import evaluation, kernel
from advisors.tenten.evaluation import DEFAULT, Weights
from engines import limits
from engines.tenten import kernel as board
from engines.tenten import reference
from engines.tenten.pieces import CELLS, INDEX, SIZE
from engines.tenten.state import TRAY_SLOTS, Place, State

MAX_ORDERS = 6
MAX_ITEMS = MAX_ORDERS * CELLS


def orders(tray: tuple[str | None, ...]) -> list[tuple[str, ...]]:
    """The distinct orders of the tray's pieces, in Coelho's slot order (1 2 3, 1 3 2, 2 1 3, ...);
    an order spelling the same pieces as an earlier one is left out."""
    slots = [index for index, letter in enumerate(tray) if letter is not None]
    seen: dict[tuple[str, ...], None] = {}
    for permutation in itertools.permutations(slots):
        seen.setdefault(tuple(tray[index] for index in permutation), None)
    return list(seen)


@dataclasses.dataclass(frozen=True)
class Plan:
    """The tray's pieces in the order to place them, with the evaluation of the board they leave.
    ``complete`` is False when no order places them all (the game ends this round); such a plan's
    value has 10,000 taken off per piece left over, so it ranks below every complete plan."""

    placements: tuple[Place, ...]
    value: float
    complete: bool
    final: State


@dataclasses.dataclass(frozen=True)
class TenTenCandidate(Candidate):
    """A first placement with the best plan that starts with it (``plan``; the first placement is
    ``move``). ``score`` is the plan's evaluation."""

    plan: Plan | None = None


@dataclasses.dataclass(frozen=True)
class Planning:
    """What one search found: the best plan per first placement, best first, and its cost."""

    plans: tuple[Plan, ...]
    leaves: int
    milliseconds: float


#: The most planner threads (each a worker of the pool).
MAX_THREADS = 256


#: Coelho's threaded build (his Makefile: PARALLEL = 12) searches the first piece's anchors in
#: (12 + 5) // 6 = 2 classes, even cells then odd (spec 3.1).
COELHO_CLASSES = 2
MAX_CLASSES = CELLS


class Planner:
    """Coelho's exhaustive round search with his evaluation; the items (order, first anchor) are
    shared out among ``threads`` workers. The plan chosen does not depend on the threads.

    ``classes`` is Coelho's k: among equally good plans the first is kept in the order (order, first
    anchor mod k, first anchor, second, third); 1 is his single-threaded build, 2 (:data:`COELHO_CLASSES`)
    the build of his Makefile. Only the choice among equal values depends on it."""

    def __init__(self, weights: Weights = DEFAULT, threads: int = 2, classes: int = 1) -> None:
        limits.check_int(threads, "the planner threads", 1, MAX_THREADS)
        limits.check_int(classes, "the first anchor classes", 1, MAX_CLASSES)
        self.weights = weights
        self.threads = threads
        self.classes = classes
        self._weights = np.array(weights.as_tuple(), np.float64)
        self._orders = np.zeros((MAX_ORDERS, TRAY_SLOTS), np.int64)
        self._swapped = np.zeros(MAX_ORDERS, np.int64)
        self._repeats = np.zeros(MAX_ORDERS, np.int64)
        self._item_order = np.zeros(MAX_ITEMS, np.int64)
        self._item_first = np.zeros(MAX_ITEMS, np.int64)
        self._results = np.zeros((MAX_ITEMS, 4), np.float64)
        self._next_item = np.zeros(1, np.int64)
        self._pool = ThreadPoolExecutor(threads - 1, thread_name_prefix="planner") if threads > 1 else None
        self._lock = threading.Lock()

    def _search(self, low, high, tray, every_first: bool) -> tuple[list[tuple[str, ...]], int, int]:
        """Fill the item arrays and results; (orders, items, pieces per plan). With
        ``every_first`` each first placement gets its own best plan; without, only the overall
        best is sure to be right: the search skips plans met before in another order and plans
        below the best of an earlier item, and ranks no partial plan while complete ones exist."""
        low, high = np.uint64(low), np.uint64(high)  # numba hands back uint64 words as Python ints
        letter_orders = orders(tray)
        for o, letters in enumerate(letter_orders):
            self._orders[o, :len(letters)] = [INDEX[letter] for letter in letters]
            self._swapped[o] = 0
            self._repeats[o] = kernel.EVERY_PLAN
            if not every_first and len(letters) >= 2:
                exchanged = (letters[1], letters[0], *letters[2:])
                if exchanged == letters:
                    self._swapped[o] = 2
                elif letter_orders.index(exchanged) < o:
                    self._swapped[o] = 1
            if not every_first and len(letters) == 3:
                self._repeats[o] = _repeats(o, letters)
        count = kernel.make_items(low, high, self._orders, len(letter_orders), self.classes, kernel.TABLES,
                                  self._item_order, self._item_first)
        pieces = len(letter_orders[0]) if letter_orders else 0
        self._next_item[0] = 0

        def work() -> None:
            kernel.run_items(low, high, self._orders, self.classes, self._swapped, self._repeats, not every_first,
                             pieces, self._item_order, self._item_first, count, self._next_item, self._weights,
                             kernel.TABLES, self._results)

        helpers = ([self._pool.submit(work) for _ in range(1, min(self.threads, count))]
                   if self._pool is not None and count > 1 else [])
        work()
        for helper in helpers:
            helper.result()
        return letter_orders, count, pieces

    def best(self, low, high, tray) -> tuple[int, list[tuple[str, int]], int]:
        """The fast path for self-play: (index of the best item, its placements as (letter, cell), leaves).
        Index -1 when no piece fits."""
        with self._lock:
            letter_orders, count, pieces = self._search(low, high, tray, every_first=False)
            if count == 0:
                return -1, [], 0
            values = self._results[:count, kernel.VALUE]
            if values.max() < 0.0:
                # No plan places every piece (the game ends): the skipping search does not rank
                # the partial plans, so search them all.
                letter_orders, count, pieces = self._search(low, high, tray, every_first=True)
                values = self._results[:count, kernel.VALUE]
            item = int(np.argmax(values))  # the first of equal maxima: Coelho's tie-break
            return item, self._placements(letter_orders, item, pieces), int(self._results[:count, kernel.LEAVES].sum())

    def _placements(self, letter_orders, item: int, pieces: int) -> list[tuple[str, int]]:
        letters = letter_orders[self._item_order[item]]
        cells = [int(self._item_first[item]), int(self._results[item, kernel.SECOND]),
                 int(self._results[item, kernel.THIRD])][:pieces]
        return [(letter, cell) for letter, cell in zip(letters, cells) if cell >= 0]

    def plan(self, state: State) -> Planning:
        """The best plan for each first placement, best first (ties: Coelho's order)."""
        if state.deal_due:
            return Planning((), 0, 0.0)
        with self._lock:
            began = time.perf_counter()
            low, high = board.split(state.filled)
            letter_orders, count, pieces = self._search(low, high, state.tray, every_first=True)
            results = self._results[:count].copy()
            firsts = [(letter_orders[self._item_order[i]][0], int(self._item_first[i])) for i in range(count)]
            placements = [self._placements(letter_orders, i, pieces) for i in range(count)]
            elapsed = (time.perf_counter() - began) * 1000.0
        best_per_first: dict[tuple[str, int], int] = {}
        for item in range(count):
            kept = best_per_first.get(firsts[item])
            if kept is None or results[item, kernel.VALUE] > results[kept, kernel.VALUE]:
                best_per_first[firsts[item]] = item
        ranked = sorted(best_per_first.values(), key=lambda item: (-results[item, kernel.VALUE], item))
        plans = tuple(self._make_plan(state, placements[item], pieces, float(results[item, kernel.VALUE]))
                      for item in ranked)
        return Planning(plans, int(results[:, kernel.LEAVES].sum()), elapsed)

    @staticmethod
    def _make_plan(state: State, placements: list[tuple[str, int]], pieces: int, value: float) -> Plan:
        moves = tuple(Place(letter, *divmod(cell, SIZE)) for letter, cell in placements)
        final = state
        for move in moves:
            final = reference.play(final, move).state
        complete = len(moves) == pieces
        return Plan(moves, value, complete, final)

    def rank(self, state: State, limit: int | None = None) -> list[TenTenCandidate]:
        """Each first placement with its best plan, best first; ``limit`` keeps the first few."""
        return candidates(state, self.plan(state), self.weights, limit)


def candidates(state: State, planning: Planning, weights: Weights = DEFAULT,
               limit: int | None = None) -> list[TenTenCandidate]:
    """A planning's plans as ranked candidates (see :meth:`Planner.rank`)."""
    plans = planning.plans[:limit] if limit else planning.plans
    if not plans:
        return []
    best = plans[0].value
    return [TenTenCandidate(plan.placements[0], plan.value, best - plan.value, explain(state, plan, weights),
                            principal_variation=plan.placements, plan=plan)
            for plan in plans]


def explain(state: State, plan: Plan, weights: Weights = DEFAULT) -> str:
    """The plan and the criteria of the board it leaves, in words."""
    steps = " then ".join(str(move) for move in plan.placements)
    gained = plan.final.score - state.score
    t = evaluation.terms(plan.final.filled, probes=bool(weights.square5 or weights.big_pieces))
    parts = [f"{steps}: +{gained} points, {t.free} cells free"]
    if weights.square5:
        parts.append("a 5×5 fits" if t.square5 else "no 5×5 fits")
    if weights.big_pieces:
        parts.append(f"{t.big_pieces} of O/H/V fit")
    parts.append(f"alignment {t.alignment:.3f}, compaction {t.compaction:.3f}")
    text = ", ".join(parts)
    if not plan.complete:
        left = len(state.pieces_left) - len(plan.placements)
        text = f"no order places every piece ({left} left over): the game ends. " + text
    return text


def _repeats(order: int, letters: tuple[str, ...]) -> int:
    """What the search does with this order's rounds that clear no line (see the kernel): every
    order after the first spells a permutation of the first, which meets the same placements
    earlier; in the first, equal pieces are met again with their anchors exchanged."""
    if order > 0:
        return kernel.CLEARING_ONLY
    first, second, third = letters
    if first == second == third:
        return kernel.ALL_EQUAL
    if second == third:
        return kernel.SECOND_AFTER_THIRD
    if first == third:
        return kernel.FIRST_AFTER_THIRD
    return kernel.EVERY_PLAN


def shared_planner() -> Planner:
    """One planner for callers that do not keep their own, such as the window."""
    return shared("1010 planner", Planner)
