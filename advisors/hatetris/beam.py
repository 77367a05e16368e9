"""Beam search over HATETRIS wells (spec 3.1): keep the ``width`` best distinct wells after each
piece, where a well's children are the placements of the one piece the AI would send, until no
child survives; then rebuild the best game and export it as a replay the official page accepts.

The AI's loop rule is applied along each search path: every kept node remembers its parent and
its well's hash, so the AI sees the wells of the path (and of the line the search started from).
A layer is expanded on all cores (numba threads) in chunks, so progress and Stop come often. The
search saves itself after every layer (atomically) and :meth:`BeamSearch.load` continues it.
"""

from __future__ import annotations

import dataclasses
import io
import json
import math
import time
from collections.abc import Callable, Mapping
from pathlib import Path

import numba
import numpy as np

from advisors.hatetris import MAX_LOOKAHEAD, kernel, learned
from advisors.hatetris.heuristic import BEAM_WEIGHTS, TERM_NAMES, WEIGHT_SETS, all_terms_weighed
from engines import limits
from engines.contract import Line
from engines.errors import KibitzInputError, NotationError
from engines.files import write_bytes_atomic
from engines.hatetris import GAME, Placement, State, codecs
from engines.hatetris import kernel as rules_kernel
from engines.hatetris.notation import replay_keys_of
from engines.hatetris.pieces import PIECES
from engines.hatetris.state import Rules, cell_count

CHUNK = 2048  # parents per kernel call: progress and Stop at least this often
CHECKPOINT_VERSION = 2
EVALUATIONS = ("hand", "learned")
#: What a beam's wells are valued by, by name: a weight set of the hand heuristic
#: (``WEIGHT_SETS``) or the learned network (the names the command line, the benchmarks and the
#: window's Evaluation choice use; :meth:`BeamSettings.named`).
EVALUATION_NAMES = (*WEIGHT_SETS, "learned")
#: The arrays of a checkpoint besides its description.
CHECKPOINT_ARRAYS = ("parent", "hashes", "pieces", "scores", "cells", "moves", "layer_wells", "layer_scores",
                     "layer_cells", "layer_nodes")
#: Children a well has at most, about (every resting placement of one piece; a 10-wide well's
#: pieces rest in 9 columns x 4 turns at most, rarely in two rows): sizes a layer's arrays.
CHILDREN_PER_WELL = 40
#: Bytes one child takes while a layer is expanded: its parent, placement, score and key, the
#: copies that drop game-over children and keep the distinct ones, the sort that finds them, its
#: cost (measured peak: about 170 per child at width 20,000).
BYTES_PER_CHILD = 200
#: Counters (pieces, scores, children) a checkpoint may hold: far beyond any real search.
MAX_COUNT = 1 << 60
#: The longest pause between two checkpoints (a day).
MAX_CHECKPOINT_SECONDS = 86_400.0


def layer_bytes(width: int, depth: int) -> int:
    """About what expanding one layer of a ``width``-wide beam over wells ``depth`` rows deep takes."""
    kept = 2 * depth * 8 + 6 * 8 + 8  # the layer's wells and the next one's, their numbers, the history row
    return width * (CHILDREN_PER_WELL * BYTES_PER_CHILD + kept)


@dataclasses.dataclass(frozen=True)
class BeamSettings:
    width: int = 1000
    lookahead: int = 0  # levels of the "bird in the hand" lookahead (0: off)
    weights: tuple[float, ...] = BEAM_WEIGHTS  # the advisor panel shows D&F's; the search uses ours
    #: "hand": the terms weighed by ``weights``; "learned": the shipped network (its own weights)
    evaluation: str = "hand"

    def __post_init__(self) -> None:
        limits.check_int(self.width, "the beam width", 1, limits.INT64_MAX)
        limits.check_int(self.lookahead, "the lookahead levels", 0, MAX_LOOKAHEAD)
        if self.evaluation not in EVALUATIONS:
            raise NotationError(f"the evaluation must be {' or '.join(EVALUATIONS)}, "
                                f"not {limits.shown(self.evaluation)}")
        if not isinstance(self.weights, tuple) or len(self.weights) != len(TERM_NAMES):
            raise NotationError(f"{len(TERM_NAMES)} weights expected ({', '.join(TERM_NAMES)})")
        if any(isinstance(weight, bool) or not isinstance(weight, (int, float)) or not math.isfinite(weight)
               for weight in self.weights):
            raise NotationError("every weight must be a finite number")

    @classmethod
    def from_json(cls, value: object, source: str | None = None) -> BeamSettings:
        """Settings from their JSON object, every field present, typed and within bounds."""
        if not isinstance(value, Mapping):
            raise NotationError(f"the settings must be a JSON object, not {type(value).__name__}", source=source)
        unknown = sorted(set(value) - {"width", "lookahead", "weights", "evaluation"})
        if unknown:
            raise NotationError(f"unknown setting {unknown[0]!r}", source=source)
        width = limits.require(value, "width", int, source)
        lookahead = limits.require(value, "lookahead", int, source)
        weights = all_terms_weighed(tuple(limits.require(value, "weights", list, source)))
        # Searches saved before the learned evaluation have no "evaluation": the hand heuristic.
        evaluation = limits.require(value, "evaluation", str, source) if "evaluation" in value else "hand"
        try:
            return cls(width, lookahead, weights, evaluation)
        except KibitzInputError as error:
            raise error.located(source=source) from None

    @classmethod
    def named(cls, width: int, lookahead: int, evaluation: str) -> BeamSettings:
        """The settings valuing wells by ``evaluation``, one of :data:`EVALUATION_NAMES`."""
        if evaluation == "learned":
            return cls(width=width, lookahead=lookahead, evaluation="learned")
        if evaluation not in WEIGHT_SETS:
            raise NotationError(f"the evaluation must be one of {', '.join(EVALUATION_NAMES)}, "
                                f"not {limits.shown(evaluation)}")
        return cls(width=width, lookahead=lookahead, weights=WEIGHT_SETS[evaluation])

    @property
    def evaluation_name(self) -> str | None:
        """This evaluation's name in :data:`EVALUATION_NAMES`; None for weights of no named set."""
        if self.evaluation == "learned":
            return "learned"
        return next((name for name, weights in WEIGHT_SETS.items() if tuple(weights) == self.weights), None)

    def cost_arrays(self) -> tuple[np.ndarray, np.ndarray]:
        """The term weights and the network (empty for the hand heuristic) the kernels cost with."""
        if self.evaluation == "learned":
            network = learned.shipped()
            return np.array(network.weights, dtype=np.float64), network.network
        return np.array(self.weights, dtype=np.float64), kernel.NO_NETWORK


@dataclasses.dataclass(frozen=True)
class BeamProgress:
    depth: int  # pieces placed since the start of the search
    best_score: int  # best score of any kept well so far
    beam_size: int  # wells kept at this depth
    wells_per_second: float  # children generated and scored per second (this run)
    elapsed: float  # seconds of this run
    children: int  # children generated in all
    finished: bool = False


@dataclasses.dataclass(frozen=True)
class BeamResult:
    line: Line  # from the search's start line's start: its moves then the search's
    score: int
    pieces: int
    replay: str  # Base2048, a complete game (padded with Down until it ends)
    depth: int
    children: int
    seconds: float
    finished: bool  # the beam died out (nothing left to search)
    stopped: bool
    reason: str = ""  # why it stopped before its budget, when not asked to (the memory limit)


class BeamSearch:
    """A beam search from the end of ``line`` (its moves are kept in the exported game)."""

    def __init__(self, line: Line, settings: BeamSettings = BeamSettings()) -> None:
        self.settings = settings
        self.line = line
        self.start: State = GAME.replay(line.start, line.moves)
        if self.start.over:
            raise KibitzInputError("the game is already over at the start of the search")
        self.rules: Rules = self.start.rules
        if settings.evaluation == "learned":
            learned.shipped().check_well(self.rules.width, self.rules.depth)
        # History of every kept node: parent (-1 for roots), well hash, pieces locked, score,
        # filled cells (the loop check's filter) and the placement that made it. The start line's
        # own wells come first, as one chain.
        self.parent = Growable(np.int64)
        self.hashes = Growable(np.int64)
        self.pieces = Growable(np.int64)
        self.scores = Growable(np.int64)
        self.cells = Growable(np.int64)
        self.moves = Growable(np.int16, columns=4)
        memory = self.start.memory.links() if self.start.memory else []
        previous = -1
        for link in memory:
            well = np.array(link.well, dtype=np.int64)
            previous = self._append(previous, rules_kernel.well_hash(well, self.rules.depth), link.pieces, 0,
                                    cell_count(link.well), (-1, 0, 0, 0))
        self.root = previous
        self.check_memory()  # before the first layer is allocated
        self.layer_wells = np.array([self.start.well], dtype=np.int64)
        self.layer_scores = np.array([self.start.score], dtype=np.int64)
        self.layer_cells = np.array([self.start.cells], dtype=np.int64)
        self.layer_nodes = np.array([self.root], dtype=np.int64)
        self.depth = 0
        self.children = 0
        self.best_node = self.root
        self.best_score = self.start.score
        self.finished = False

    def memory_bytes(self) -> int:
        """About what the search holds (every kept node's history) plus what its next layer takes."""
        history = sum(column._data.nbytes for column in (self.parent, self.hashes, self.pieces, self.scores,
                                                         self.cells, self.moves))
        return history + layer_bytes(self.settings.width, self.rules.depth)

    def check_memory(self) -> None:
        """Refuse (KibitzInputError with the figures) a search whose next layer would pass the limit."""
        kept = f" with {len(self.parent):,} wells kept" if len(self.parent) > 1 else ""
        limits.check_memory(f"a beam of width {self.settings.width:,}{kept}", self.memory_bytes(),
                            limits.search_memory_limit(), field="the width")

    # -- the search ------------------------------------------------------------------------------
    def run(self, seconds: float | None = None, max_depth: int | None = None,
            progress: Callable[[BeamProgress], None] | None = None,
            should_stop: Callable[[], bool] | None = None,
            checkpoint: str | Path | None = None, threads: int | None = None,
            checkpoint_seconds: float = 30.0) -> BeamResult:
        """Search until the beam dies out, ``seconds`` pass, ``max_depth`` more pieces are placed,
        or ``should_stop()``; save to ``checkpoint`` at once when it does not exist yet (a kill at
        any time leaves a search to continue), then after a layer once ``checkpoint_seconds`` have
        passed since the last save, and at the end."""
        if threads:
            numba.set_num_threads(max(1, min(threads, numba.config.NUMBA_NUM_THREADS)))

        def layer() -> bool:
            found = self._expand(should_stop)
            if found is not None:
                self._keep(*found)
            return found is not None

        return run_layers(self, layer, self.check_memory, self.save, lambda: len(self.layer_nodes), seconds,
                          max_depth, progress, should_stop, checkpoint, checkpoint_seconds)

    def _expand(self, should_stop):
        """Every distinct child of the layer as (parent, placement, score, key, cost); None when
        stopped midway. Child wells are not kept: a cost or a kept child locks its placement into
        its parent's well again, which is cheaper than moving millions of wells around."""
        wells, scores, nodes = self.layer_wells, self.layer_scores, self.layer_nodes
        rules = self.rules
        parts = []
        for first in range(0, len(nodes), CHUNK):
            if should_stop is not None and first and should_stop():
                return None
            chunk = slice(first, first + CHUNK)
            chunk_wells = np.ascontiguousarray(wells[chunk])
            pieces, counts = self._choose(chunk)
            _, child_parents, child_moves, child_scores, child_keys = layer_children(
                chunk_wells, np.ascontiguousarray(scores[chunk]), pieces, counts, rules.width, rules.depth)
            self.children += len(child_parents)
            alive = child_parents >= 0
            parts.append((child_parents[alive] + first, child_moves[alive], child_scores[alive], child_keys[alive]))
        parents, moves, child_scores, keys = (np.concatenate([part[index] for part in parts]) for index in range(4))
        # Children with the same (well, score) have the same cost and the same future: keep the
        # first (the one from the best parent) and score only those.
        _, first_seen = np.unique(keys, return_index=True)
        distinct = np.sort(first_seen)
        parents = np.ascontiguousarray(parents[distinct])
        moves = np.ascontiguousarray(moves[distinct])
        child_scores = np.ascontiguousarray(child_scores[distinct])
        costs = np.empty(len(distinct), dtype=np.float64)
        weights, network = self.settings.cost_arrays()
        block = CHUNK * 32
        for first in range(0, len(distinct), block):
            if should_stop is not None and first and should_stop():
                return None
            part = slice(first, first + block)
            kernel.cost_layer(wells, parents[part], moves[part], child_scores[part], rules.width, rules.depth,
                              weights, self.settings.lookahead, network, costs[part])
        return parents, moves, child_scores, keys[distinct], costs

    def ai_pieces(self) -> np.ndarray:
        """The piece the AI sends for each well of the current layer (loop rule included)."""
        return np.concatenate([self._choose(slice(first, first + CHUNK))[0]
                               for first in range(0, len(self.layer_nodes), CHUNK)])

    def _choose(self, chunk: slice) -> tuple[np.ndarray, np.ndarray]:
        """The AI's piece for the layer's wells in ``chunk`` and how many resting placements it has."""
        rules = self.rules
        wells = np.ascontiguousarray(self.layer_wells[chunk])
        pieces = np.empty(len(wells), dtype=np.int64)
        counts = np.empty(len(wells), dtype=np.int64)
        kernel.choose_layer(wells, np.ascontiguousarray(self.layer_nodes[chunk]), rules.width, rules.depth,
                            rules.mild, rules.repeat_period, self.parent.view(), self.hashes.view(),
                            self.pieces.view(), self.cells.view(), len(self.parent) + 1, pieces, counts)
        return pieces, counts

    def _keep(self, parents, moves, scores, keys, costs) -> None:
        self.depth += 1
        if len(costs) == 0:
            self.finished = True
            return
        kept = np.argsort(costs, kind="stable")[: self.settings.width]
        kept_scores = np.ascontiguousarray(scores[kept])
        kept_parents = np.ascontiguousarray(parents[kept])
        kept_moves = np.ascontiguousarray(moves[kept])
        layer_wells = np.empty((len(kept), self.rules.depth), dtype=np.int64)
        kernel.build_layer(self.layer_wells, kept_parents, kept_moves, self.rules.width, self.rules.depth,
                           layer_wells)
        lines = kept_scores - self.layer_scores[kept_parents]
        kept_cells = self.layer_cells[kept_parents] + 4 - self.rules.width * lines
        nodes = self.record_layer(self.layer_nodes[kept_parents], keys[kept], kept_scores, kept_cells, kept_moves)
        self.layer_wells = layer_wells
        self.layer_scores = kept_scores
        self.layer_cells = kept_cells
        self.layer_nodes = nodes

    def record_layer(self, parents: np.ndarray, keys: np.ndarray, scores: np.ndarray, cells: np.ndarray,
                     moves: np.ndarray) -> np.ndarray:
        """Add a kept layer, best first, to the history (its wells' parent nodes, dedup keys,
        scores, cell counts and placements) and the best node; returns the layer's node numbers."""
        first_node = len(self.parent)
        nodes = np.arange(first_node, first_node + len(scores), dtype=np.int64)
        self.parent.extend(parents)
        self.hashes.extend(keys ^ (scores * np.int64(kernel.SCORE_MIX)))  # the well's own hash
        self.pieces.extend(np.full(len(scores), self.start.pieces + self.depth, dtype=np.int64))
        self.scores.extend(scores)
        self.cells.extend(cells)
        self.moves.extend(moves)
        top = int(np.argmax(scores))
        if scores[top] >= self.best_score:  # ties: the deeper game
            self.best_score = int(scores[top])
            self.best_node = int(nodes[top])
        return nodes

    def _append(self, parent: int, well_hash: int, pieces: int, score: int, cells: int,
                move: tuple[int, int, int, int]) -> int:
        self.parent.append(parent)
        self.hashes.append(well_hash)
        self.pieces.append(pieces)
        self.scores.append(score)
        self.cells.append(cells)
        self.moves.append(move)
        return len(self.parent) - 1

    # -- the game found --------------------------------------------------------------------------
    def best_line(self) -> Line:
        """The start line's moves, then the placements leading to the best node."""
        found = []
        node = self.best_node
        moves = self.moves.view()
        parent = self.parent.view()
        while node != self.root and node >= 0:
            piece, x, y, o = (int(v) for v in moves[node])
            found.append(Placement(PIECES[piece], x, y, o))
            node = int(parent[node])
        found.reverse()
        return Line(self.line.start, tuple(self.line.moves) + tuple(found))

    def result(self, seconds: float = 0.0, stopped: bool = False) -> BeamResult:
        line = self.best_line()
        final = GAME.replay(line.start, line.moves)  # checks every placement under the exact rules
        replay = ""
        if final.well == (0,) * self.rules.depth or line.start == GAME.initial_state(self.rules):
            replay = finished_replay(line, self.rules)
        return BeamResult(line, final.score, final.pieces, replay, self.depth, self.children, seconds,
                          self.finished, stopped)

    # -- checkpoints -----------------------------------------------------------------------------
    def _arrays(self) -> dict[str, np.ndarray]:
        return {"parent": self.parent.view(), "hashes": self.hashes.view(), "pieces": self.pieces.view(),
                "scores": self.scores.view(), "cells": self.cells.view(), "moves": self.moves.view(),
                "layer_wells": self.layer_wells, "layer_scores": self.layer_scores,
                "layer_cells": self.layer_cells, "layer_nodes": self.layer_nodes}

    def save(self, path: str | Path) -> None:
        """Write the whole search to ``path`` (.npz) atomically, with a checksum of its arrays."""
        buffer = io.BytesIO()
        arrays = self._arrays()
        description = {
            "version": CHECKPOINT_VERSION,
            "settings": dataclasses.asdict(self.settings),
            "line": GAME.sequence_text(self.line, "placements"),
            "enemy": self.rules.enemy, "well_width": self.rules.width, "well_depth": self.rules.depth,
            "depth": self.depth, "children": self.children, "best_node": self.best_node,
            "best_score": self.best_score, "finished": self.finished, "root": self.root,
            "checksum": limits.arrays_checksum(arrays),
        }
        np.savez(buffer, description=np.frombuffer(json.dumps(description).encode(), dtype=np.uint8), **arrays)
        write_bytes_atomic(path, buffer.getvalue())

    @classmethod
    def load(cls, path: str | Path) -> BeamSearch:
        """The search saved in ``path``, checked in full before it runs: its description, the
        checksum of its arrays (older checkpoints have none), every array's type and shape, the
        start line's own wells, every kept well rebuilt layer by layer from its parent (each
        placement a resting position its piece reaches, each hash, score and cell count as
        stored), the last layer, the best node, and the best game replayed under the exact rules.
        Anything else is a KibitzInputError naming the file."""
        source = str(path)
        arrays = limits.load_npz(path, ("description", *CHECKPOINT_ARRAYS))
        description = _checkpoint_description(arrays.pop("description"), source)
        unknown = sorted(set(arrays) - set(CHECKPOINT_ARRAYS))
        if unknown:
            raise KibitzInputError(f"not a beam-search checkpoint (it holds the array {unknown[0]!r})", source=source)
        checksum = description.get("checksum")
        if checksum is not None and checksum != limits.arrays_checksum(arrays):
            raise KibitzInputError("damaged: its arrays do not match the checksum saved with them", source=source)
        settings = BeamSettings.from_json(description["settings"], source)
        try:
            rules = Rules(enemy=description["enemy"], width=description.get("well_width", 10),
                          depth=description.get("well_depth", 20))
        except (TypeError, ValueError) as error:
            raise NotationError(f"the rules are damaged ({error})", source=source) from None
        line = GAME.parse_sequence(description["line"], source=source, format="placements", rules=rules)
        try:
            search = cls(line, settings)
        except KibitzInputError as error:
            raise error.located(source=source) from None
        _restore(search, arrays, description, source)
        try:
            search.check_memory()
        except KibitzInputError as error:
            raise error.located(source=source) from None
        try:
            GAME.replay(line.start, search.best_line().moves)  # the AI's pieces, under the exact rules
        except KibitzInputError as error:
            raise KibitzInputError(f"damaged search: its best game cannot be replayed ({error.reason})",
                                   source=source) from None
        return search


def layer_children(wells: np.ndarray, scores: np.ndarray, pieces: np.ndarray, counts: np.ndarray, width: int,
                   depth: int) -> tuple[np.ndarray, ...]:
    """Every child of ``wells`` (scores ``scores``), each well's AI piece and number of resting
    placements given (``kernel.choose_layer``): each well's first child slot, and each child's
    parent (-1 for a child that ends the game), placement, score and dedup key, in slot order."""
    offsets = np.zeros(len(pieces), dtype=np.int64)
    np.cumsum(counts[:-1], out=offsets[1:])
    total = int(counts.sum())
    parents = np.empty(total, dtype=np.int64)
    moves = np.empty((total, 4), dtype=np.int64)
    child_scores = np.zeros(total, dtype=np.int64)
    keys = np.empty(total, dtype=np.int64)
    kernel.generate_layer(wells, scores, pieces, offsets, width, depth, parents, moves, child_scores, keys)
    return offsets, parents, moves, child_scores, keys


def run_layers(search: BeamSearch, layer: Callable[[], bool], check_memory: Callable[[], None],
               save: Callable[[str | Path], None], beam_size: Callable[[], int], seconds: float | None,
               max_depth: int | None, progress: Callable[[BeamProgress], None] | None,
               should_stop: Callable[[], bool] | None, checkpoint: str | Path | None,
               checkpoint_seconds: float) -> BeamResult:
    """The beam's loop, wherever its layers are worked out (here, or on a cluster): a ``layer()``
    at a time (False: stopped midway) until the beam dies out, ``seconds`` pass, ``max_depth``
    more pieces are placed, ``should_stop()``, or the next layer would pass the memory limit
    (``check_memory``); saved with ``save`` as :meth:`BeamSearch.run` says, progress after each
    layer."""
    if isinstance(checkpoint_seconds, bool) or not isinstance(checkpoint_seconds, (int, float)) or not (
            0 < checkpoint_seconds <= MAX_CHECKPOINT_SECONDS):
        raise NotationError(f"the checkpoint interval is {checkpoint_seconds!r}; it must be a number of seconds "
                            f"above 0 and at most {MAX_CHECKPOINT_SECONDS:,.0f}")
    if checkpoint is not None and not Path(checkpoint).exists():
        save(checkpoint)
    began = time.perf_counter()
    children_before = search.children
    stopped = False
    reason = ""
    saved = began
    target = None if max_depth is None else search.depth + max_depth
    while not search.finished and (target is None or search.depth < target):
        if should_stop is not None and should_stop():
            stopped = True
            break
        try:
            check_memory()  # the history grows by a layer of nodes every piece
        except KibitzInputError as error:
            stopped, reason = True, f"stopped at depth {search.depth:,}: {error}"
            break
        if seconds is not None and time.perf_counter() - began >= seconds:
            break
        if not layer():
            stopped = True
            break
        if checkpoint is not None and time.perf_counter() - saved >= checkpoint_seconds:
            save(checkpoint)
            saved = time.perf_counter()
        if progress is not None:
            elapsed = time.perf_counter() - began
            progress(BeamProgress(search.depth, search.best_score, beam_size(),
                                  (search.children - children_before) / elapsed if elapsed else 0.0,
                                  elapsed, search.children, search.finished))
    elapsed = time.perf_counter() - began
    if checkpoint is not None:
        save(checkpoint)
    return dataclasses.replace(search.result(elapsed, stopped), reason=reason)


def _paths_to_continue(parent: np.ndarray, first_nodes: np.ndarray, chain: int, best_node: int) -> np.ndarray:
    """Which saved nodes lie on the paths to the last layer and to the best node (the only paths
    a continued search builds on), found going back a layer at a time; parents outside the saved
    nodes are left for the layer checks to refuse."""
    count = len(parent)
    needed = np.zeros(count, dtype=bool)
    if count == chain:
        return needed
    needed[first_nodes[-2]:] = True
    if chain <= best_node < count:
        needed[best_node] = True
    for begin, end in zip(first_nodes[-2::-1], first_nodes[:0:-1]):
        parents = parent[begin:end][needed[begin:end]]
        needed[parents[(parents >= chain) & (parents < count)]] = True
    return needed


def _checkpoint_description(array: np.ndarray, source: str) -> dict:
    description = limits.json_of_array(array, source, "beam-search checkpoint")
    if not isinstance(description, dict) or description.get("version") != CHECKPOINT_VERSION:
        raise KibitzInputError(f"not a beam-search checkpoint of version {CHECKPOINT_VERSION}", source=source)
    for field, kinds in (("settings", dict), ("line", str), ("enemy", str), ("depth", int), ("children", int),
                         ("best_node", int), ("best_score", int), ("finished", bool), ("root", int)):
        limits.require(description, field, kinds, source)
    for field in ("well_width", "well_depth"):
        if field in description:
            limits.require(description, field, int, source)
    if "checksum" in description:
        limits.require(description, "checksum", str, source)
    return description


def _restore(search: BeamSearch, arrays: dict[str, np.ndarray], description: dict, source: str) -> None:
    """Put the saved nodes and layer into ``search`` (made from the same line and settings) after
    checking every value against what the rules rebuild."""

    def refuse(reason: str):
        raise KibitzInputError(f"damaged search: {reason}", source=source)

    rules, start = search.rules, search.start
    count = arrays["parent"].shape[0] if arrays["parent"].ndim == 1 else -1
    for name in ("parent", "hashes", "pieces", "scores", "cells"):
        limits.check_array(arrays, name, source, dtype=np.int64, shape=(count,))
    limits.check_array(arrays, "moves", source, dtype=np.int16, shape=(count, 4))
    layer = arrays["layer_nodes"].shape[0] if arrays["layer_nodes"].ndim == 1 else -1
    for name in ("layer_scores", "layer_cells", "layer_nodes"):
        limits.check_array(arrays, name, source, dtype=np.int64, shape=(layer,))
    limits.check_array(arrays, "layer_wells", source, dtype=np.int64, shape=(layer, rules.depth))
    chain = len(search.parent)
    if count < chain:
        refuse(f"it holds {count} nodes, fewer than the {chain} wells of its start line")
    for name in ("parent", "hashes", "pieces", "scores", "cells", "moves"):
        if not np.array_equal(arrays[name][:chain], getattr(search, name).view()):
            refuse(f"the start line's wells differ in {name!r}")
    if description["root"] != search.root:
        refuse(f"the root is node {description['root']}, not {search.root}")
    parent, pieces, moves = arrays["parent"], arrays["pieces"], arrays["moves"].astype(np.int64)
    layers = pieces[chain:] - start.pieces
    if count > chain and (layers[0] != 1 or (np.diff(layers) < 0).any() or (np.diff(layers) > 1).any()):
        refuse("the nodes' piece counts do not go up one layer at a time from the start")
    # Layer by layer: its nodes, their parents in the layer before, their wells rebuilt.
    first_nodes = np.searchsorted(layers, np.arange(1, (layers[-1] if count > chain else 0) + 2)) + chain
    needed = _paths_to_continue(parent, first_nodes, chain, description["best_node"])
    history = [np.ascontiguousarray(arrays[name]) for name in ("parent", "hashes", "pieces", "cells")]
    previous_nodes = np.array([search.root], dtype=np.int64)
    previous_wells = search.layer_wells
    previous_scores, previous_cells = search.layer_scores, search.layer_cells
    width = search.settings.width
    for begin, end in zip(first_nodes[:-1], first_nodes[1:]):
        size = end - begin
        if size > width:
            refuse(f"layer {layers[begin - chain]} keeps {size} wells, more than the width {width}")
        position = parent[begin:end] - previous_nodes[0]
        if (position < 0).any() or (position >= len(previous_nodes)).any() or (
                len(previous_nodes) == 1 and (parent[begin:end] != previous_nodes[0]).any()):
            refuse(f"a node of layer {layers[begin - chain]} has a parent outside the layer before")
        wells = np.zeros((size, rules.depth), dtype=np.int64)
        lines, hashes, cells = (np.zeros(size, dtype=np.int64) for _ in range(3))
        failed = kernel.check_layer(previous_wells, np.ascontiguousarray(position), np.ascontiguousarray(moves[begin:end]),
                                    rules.width, rules.depth, wells, lines, hashes, cells)
        if failed >= 0:
            refuse(f"node {begin + failed}'s placement cannot be played in its parent's well")
        scores = previous_scores[position] + lines
        if not (np.array_equal(hashes, arrays["hashes"][begin:end]) and np.array_equal(scores, arrays["scores"][begin:end])
                and np.array_equal(cells, arrays["cells"][begin:end])):
            refuse(f"layer {layers[begin - chain]}'s hashes, scores or cell counts are not what its placements give")
        # The AI's piece, on every path the search goes on from (the last layer's and the best
        # node's): a node with another piece would make a game the official page refuses.
        marked = np.flatnonzero(needed[begin:end])
        if len(marked):
            sources = np.unique(position[marked])
            sent, counts = np.empty(len(sources), dtype=np.int64), np.empty(len(sources), dtype=np.int64)
            kernel.choose_layer(np.ascontiguousarray(previous_wells[sources]),
                                np.ascontiguousarray(previous_nodes[sources]), rules.width, rules.depth, rules.mild,
                                rules.repeat_period, *history, count + 1, sent, counts)
            wrong = np.flatnonzero(moves[begin:end][marked, 0] != sent[np.searchsorted(sources, position[marked])])
            if len(wrong):
                refuse(f"node {begin + marked[wrong[0]]} places a piece the AI does not send in its parent's well")
        previous_nodes = np.arange(begin, end, dtype=np.int64)
        previous_wells, previous_scores, previous_cells = wells, scores, cells
    for name, value in (("layer_nodes", previous_nodes), ("layer_wells", previous_wells),
                        ("layer_scores", previous_scores), ("layer_cells", previous_cells)):
        if not np.array_equal(arrays[name], value):
            refuse(f"{name!r} is not the last layer of its nodes")
    kept_layers = len(first_nodes) - 1
    depth, finished = description["depth"], description["finished"]
    if depth != kept_layers + (1 if finished else 0):
        refuse(f"its depth is {depth} but it holds {kept_layers} layers{' and has finished' if finished else ''}")
    best_node, best_score = description["best_node"], description["best_score"]
    scores = arrays["scores"][chain:]
    top = max(int(scores.max()) if len(scores) else start.score, start.score)
    if not (best_node == search.root or chain <= best_node < count) or best_score != top or best_score != (
            start.score if best_node == search.root else arrays["scores"][best_node]):
        refuse(f"its best node {best_node} with score {best_score} is not a node holding the best score {top}")
    limits.check_int(description["children"], "children", count - chain, MAX_COUNT, source=source)
    for name in ("parent", "hashes", "pieces", "scores", "cells", "moves"):
        getattr(search, name).replace(np.array(arrays[name]))
    search.layer_wells, search.layer_scores = previous_wells, np.ascontiguousarray(previous_scores)
    search.layer_cells, search.layer_nodes = np.ascontiguousarray(previous_cells), previous_nodes
    search.depth, search.children, search.finished = depth, description["children"], finished
    search.best_node, search.best_score = best_node, best_score


def finished_replay(line: Line, rules: Rules) -> str:
    """The Base2048 replay of ``line`` followed by Down presses until the game ends (the way
    record replays end), checked by replaying the keys."""
    keys = replay_keys_of(line)
    played = GAME.replay_keys(keys, rules)
    extra = 0
    while not played.over and extra < 4 * rules.depth * 10:
        extra += rules.depth
        played = GAME.replay_keys(keys + "D" * extra, rules)
    keys = (keys + "D" * extra)[: max(played.keys_used, len(keys))]
    return codecs.encode(keys, "base2048")


class Growable:
    """An append-only numpy column with amortised growth."""

    def __init__(self, dtype, columns: int | None = None) -> None:
        shape = (1024,) if columns is None else (1024, columns)
        self._data = np.empty(shape, dtype=dtype)
        self._size = 0

    def append(self, value) -> None:
        if self._size == len(self._data):
            grown = np.empty((2 * len(self._data),) + self._data.shape[1:], dtype=self._data.dtype)
            grown[: self._size] = self._data[: self._size]
            self._data = grown
        self._data[self._size] = value
        self._size += 1

    def extend(self, values: np.ndarray) -> None:
        needed = self._size + len(values)
        if needed > len(self._data):
            capacity = max(needed, 2 * len(self._data))
            grown = np.empty((capacity,) + self._data.shape[1:], dtype=self._data.dtype)
            grown[: self._size] = self._data[: self._size]
            self._data = grown
        self._data[self._size:needed] = values
        self._size = needed

    def view(self) -> np.ndarray:
        return self._data[: self._size]

    def replace(self, values: np.ndarray) -> None:
        self._data = np.array(values, dtype=self._data.dtype, order="C")
        self._size = len(values)
        if self._size == 0:
            self._data = np.empty((1024,) + self._data.shape[1:], dtype=self._data.dtype)

    def __len__(self) -> int:
        return self._size
