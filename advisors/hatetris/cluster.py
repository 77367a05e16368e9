"""The HATETRIS beam search spread over a Ray cluster: the same beam as :mod:`advisors.hatetris.beam`
(same width, weights and lookahead: the same wells kept at every depth, the same best game and
replay), with the layer's wells and the work of expanding them shared out among shard actors.

Every layer's wells are held by the shards, each well by one. A shard expands its own wells (the
AI's piece, every placement, each distinct child's cost), so children are made where their parents
live, and sends each child it might keep to the shard its well hash names, where the copies of one
child meet and the first in the beam's order is kept. Each shard sends its best ``width`` children
to the coordinator, which keeps the ``width`` best of those lists and records them in the search's
history (one row per kept well, as the one-machine beam does); the shard that made each kept child
builds its well and hands it to the shard that will hold it.

The order is the one-machine beam's: a child's place is its parent's rank in the layer and its own
slot among the parent's placements; the first copy of a child in that order is the one kept, and
ties in cost keep the earlier child. So any number of shards, on any nodes, keep the same wells.
Each shard keeps a copy of the history's parents, hashes, pieces and cells, which the AI's loop
rule reads along a well's path.

The coordinator keeps a :class:`~advisors.hatetris.beam.BeamSearch` for the history, the best game
and the checkpoint: a checkpoint gathers the layer from the shards and is the one-machine beam's
own file, so a search saved here continues on one machine and the other way round.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import numba
import numpy as np

from advisors import cluster
from advisors.hatetris import kernel
from advisors.hatetris.beam import (BeamProgress, BeamResult, BeamSearch, BeamSettings, Growable, layer_children,
                                    run_layers)
from engines import limits
from engines.errors import KibitzInputError
from engines.hatetris.kernel import MAX_RESTING

#: A child's place in the beam's order: its parent's rank in the layer times this, plus its slot.
ORDER_STRIDE = MAX_RESTING
#: What a shard sends about a child it might keep: enough for the coordinator to record it and for
#: the shard that made it to build its well later.
CANDIDATE = np.dtype([
    ("key", np.int64), ("order", np.int64), ("cost", np.float64), ("score", np.int64), ("move", np.int16, 4),
    ("parent_node", np.int64), ("parent_score", np.int64), ("parent_cells", np.int64),
    ("maker", np.int64), ("maker_row", np.int64),
])
#: History columns a shard keeps for the loop rule (8 bytes each per kept well).
SHARD_HISTORY = ("parent", "hashes", "pieces", "cells")


def owner_of(well_hashes: np.ndarray, shards: int) -> np.ndarray:
    """The shard that holds each well: its hash, mixed so that wells spread evenly."""
    mixed = (np.asarray(well_hashes).astype(np.uint64) * np.uint64(0x9E3779B97F4A7C15)) >> np.uint64(33)
    return (mixed % np.uint64(shards)).astype(np.int64)


def best_first(candidates: np.ndarray, width: int) -> np.ndarray:
    """The ``width`` best candidates in the beam's order: lowest cost, then earliest place."""
    return candidates[np.lexsort((candidates["order"], candidates["cost"]))[:width]]


def first_copies(candidates: np.ndarray) -> np.ndarray:
    """One candidate per child (key): the earliest in the beam's order."""
    ordered = candidates[np.argsort(candidates["order"], kind="stable")]
    _, first = np.unique(ordered["key"], return_index=True)
    return ordered[np.sort(first)]


class BeamShard:
    """One shard of a cluster beam (a Ray actor; a plain object in tests): a part of the layer's
    wells, a copy of the history the loop rule reads, and the children it may keep."""

    def __init__(self, index: int, shards: int, rules: tuple[int, int, bool, int], width: int, lookahead: int,
                 weights: tuple[float, ...], evaluation: str = "hand") -> None:
        numba.set_num_threads(1)  # one CPU per shard: the cluster's CPUs are counted in shards
        self.index, self.shards = index, shards
        self.well_width, self.well_depth, self.mild, self.period = rules
        self.width, self.lookahead = width, lookahead
        self.weights, self.network = BeamSettings(width, lookahead, tuple(weights), evaluation).cost_arrays()
        self.history = {name: Growable(np.int64) for name in SHARD_HISTORY}
        self._warm_up()
        self._empty_layer()

    def _warm_up(self) -> None:
        """Load the layer kernels (from numba's cache when the node has compiled them) on the
        empty well, so that the first layer does not wait for them."""
        mild, self.mild = self.mild, True  # the loop rule reads no history here
        self.wells = np.zeros((1, self.well_depth), dtype=np.int64)
        self.scores, self.cells = np.zeros(1, dtype=np.int64), np.zeros(1, dtype=np.int64)
        self.nodes, self.ranks = np.full(1, -1, dtype=np.int64), np.zeros(1, dtype=np.int64)
        made = np.concatenate(self.expand()[:-1])
        self.build(made["maker_row"][:1], made["move"][:1], made["order"][:1], np.zeros(1, dtype=np.int64))
        self.mild = mild

    def _empty_layer(self) -> None:
        self.wells = np.zeros((0, self.well_depth), dtype=np.int64)
        self.scores, self.cells, self.nodes, self.ranks = (np.zeros(0, dtype=np.int64) for _ in range(4))

    def extend_history(self, rows: tuple[np.ndarray, ...]) -> None:
        for name, values in zip(SHARD_HISTORY, rows):
            self.history[name].extend(values)

    def next_layer(self, history_rows, ranks, scores, cells, nodes, *well_batches) -> int:
        """The shard's wells of the next layer (its ranks, scores, cells and history nodes from
        the coordinator, the wells from the shards that made them), after the layer's history."""
        self.extend_history(history_rows)
        made_ranks = np.concatenate([batch[0] for batch in well_batches]) if well_batches else np.zeros(0, np.int64)
        wells = (np.concatenate([batch[1] for batch in well_batches]) if well_batches
                 else np.zeros((0, self.well_depth), dtype=np.int64))
        order = np.argsort(ranks, kind="stable")
        self.ranks, self.scores, self.cells, self.nodes = ranks[order], scores[order], cells[order], nodes[order]
        made = np.argsort(made_ranks, kind="stable")
        if not np.array_equal(made_ranks[made], self.ranks):
            raise RuntimeError(f"shard {self.index}: the wells built for it are not the ones it was given")
        self.wells = np.ascontiguousarray(wells[made])
        return len(self.ranks)

    def expand(self) -> tuple:
        """Every child of the shard's wells, the first copy of each, costed; its ``width`` best in
        the beam's order, split by the shard that holds each (one array per shard), and the number
        of children made."""
        empty = np.zeros(0, dtype=CANDIDATE)
        if len(self.nodes) == 0:
            return (*([empty] * self.shards), 0)
        width, depth = self.well_width, self.well_depth
        history = [self.history[name].view() for name in SHARD_HISTORY]
        count = len(self.nodes)
        pieces, counts = np.empty(count, dtype=np.int64), np.empty(count, dtype=np.int64)
        kernel.choose_layer(self.wells, self.nodes, width, depth, self.mild, self.period, *history,
                            len(history[0]) + 1, pieces, counts)
        offsets, parents, moves, scores, keys = layer_children(self.wells, self.scores, pieces, counts, width, depth)
        total = len(parents)
        slots = np.arange(total, dtype=np.int64) - np.repeat(offsets, counts)
        alive = np.flatnonzero(parents >= 0)
        # The shard's wells are in rank order, so its children come in the beam's order: the first
        # of equal keys is the earliest copy.
        _, first = np.unique(keys[alive], return_index=True)
        chosen = alive[np.sort(first)]
        made = np.zeros(len(chosen), dtype=CANDIDATE)
        made["key"], made["score"], made["move"] = keys[chosen], scores[chosen], moves[chosen]
        rows = parents[chosen]
        made["order"] = self.ranks[rows] * ORDER_STRIDE + slots[chosen]
        made["parent_node"], made["parent_score"], made["parent_cells"] = (
            self.nodes[rows], self.scores[rows], self.cells[rows])
        made["maker"], made["maker_row"] = self.index, rows
        costs = np.empty(len(chosen), dtype=np.float64)
        kernel.cost_layer(self.wells, np.ascontiguousarray(rows), np.ascontiguousarray(moves[chosen]),
                          np.ascontiguousarray(scores[chosen]), width, depth, self.weights, self.lookahead,
                          self.network, costs)
        made["cost"] = costs
        best = best_first(made, self.width)
        owners = owner_of(best["key"] ^ (best["score"] * np.int64(kernel.SCORE_MIX)), self.shards)
        return (*(best[owners == shard] for shard in range(self.shards)), total)

    def meet(self, *batches: np.ndarray) -> np.ndarray:
        """The children this shard holds from every maker's batch: the earliest copy of each, and
        the ``width`` best of them."""
        return best_first(first_copies(np.concatenate(batches)), self.width)

    def build(self, rows: np.ndarray, moves: np.ndarray, ranks: np.ndarray, owners: np.ndarray) -> tuple:
        """The wells of the kept children this shard made (placement ``moves`` in its wells
        ``rows``), with their ranks, split by the shard that will hold each."""
        wells = np.empty((len(rows), self.well_depth), dtype=np.int64)
        kernel.build_layer(self.wells, np.ascontiguousarray(rows), np.ascontiguousarray(moves, dtype=np.int64),
                           self.well_width, self.well_depth, wells)
        parts = tuple((ranks[owners == shard], wells[owners == shard]) for shard in range(self.shards))
        return parts if self.shards > 1 else parts[0]  # one return value is the value itself, not a 1-tuple

    def layer(self) -> tuple[np.ndarray, ...]:
        """The shard's wells with their ranks, scores, cells and nodes (for a checkpoint)."""
        return self.ranks, self.wells, self.scores, self.cells, self.nodes


class ClusterBeam:
    """A :class:`BeamSearch` run by ``shards`` shard actors on the Ray cluster at ``address``."""

    def __init__(self, search: BeamSearch, address: str, shards: int | None = None) -> None:
        self.search = search
        ray, shards = cluster.join(address, shards)
        self._ray, self.shards = ray, shards
        rules = search.rules
        settings = search.settings
        actor = cluster.actor_class(ray, BeamShard)
        self._actors = [actor.remote(index, shards, (rules.width, rules.depth, rules.mild, rules.repeat_period),
                                     settings.width, settings.lookahead, tuple(settings.weights),
                                     settings.evaluation)
                        for index in range(shards)]
        history = ray.put(tuple(np.ascontiguousarray(getattr(search, name).view()) for name in SHARD_HISTORY))
        # A layer from a checkpoint or the start: shared out by rank (any split gives the same beam).
        count = len(search.layer_nodes)
        ranks = np.arange(count, dtype=np.int64)
        owners = ranks % shards
        calls = []
        for shard, actor in enumerate(self._actors):
            mine = owners == shard
            batch = (ranks[mine], np.ascontiguousarray(search.layer_wells[mine]))
            calls.append(actor.next_layer.remote(history, ranks[mine], search.layer_scores[mine],
                                                 search.layer_cells[mine], search.layer_nodes[mine], batch))
        ray.get(calls)
        self.beam_size = count

    def close(self) -> None:
        for actor in self._actors:
            self._ray.kill(actor)
        self._actors = []

    def _returns(self, refs, count: int) -> list:
        return [refs] if count == 1 else list(refs)

    def step(self) -> None:
        """One layer: expand, meet, keep the ``width`` best, send the kept wells to their shards."""
        ray, search, shards = self._ray, self.search, self.shards
        made = [self._returns(actor.expand.options(num_returns=shards + 1).remote(), shards + 1)
                for actor in self._actors]
        tops = [self._actors[owner].meet.remote(*[made[maker][owner] for maker in range(shards)])
                for owner in range(shards)]
        lists = ray.get(tops)
        search.children += sum(ray.get([made[maker][shards] for maker in range(shards)]))
        candidates = np.concatenate(lists)
        search.depth += 1
        if len(candidates) == 0:
            search.finished = True
            return
        kept = best_first(candidates, search.settings.width)
        count = len(kept)
        ranks = np.arange(count, dtype=np.int64)
        scores = np.ascontiguousarray(kept["score"])
        cells = kept["parent_cells"] + 4 - search.rules.width * (scores - kept["parent_score"])
        moves = np.ascontiguousarray(kept["move"])
        first = len(search.parent)
        nodes = search.record_layer(np.ascontiguousarray(kept["parent_node"]), kept["key"], scores, cells, moves)
        parents, well_hashes, pieces = (getattr(search, name).view()[first:] for name in ("parent", "hashes", "pieces"))
        owners = owner_of(well_hashes, shards)
        built = {}
        for maker, actor in enumerate(self._actors):
            mine = kept["maker"] == maker
            if mine.any():
                built[maker] = self._returns(actor.build.options(num_returns=shards).remote(
                    kept["maker_row"][mine], moves[mine], ranks[mine], owners[mine]), shards)
        history = ray.put((parents, well_hashes, pieces, cells))
        ray.get([actor.next_layer.remote(history, ranks[owners == shard], scores[owners == shard],
                                         cells[owners == shard], nodes[owners == shard],
                                         *[refs[shard] for refs in built.values()])
                 for shard, actor in enumerate(self._actors)])
        self.beam_size = count

    def gather(self) -> None:
        """The layer's wells back from the shards into the search (for a checkpoint)."""
        parts = self._ray.get([actor.layer.remote() for actor in self._actors])
        ranks = np.concatenate([part[0] for part in parts])
        order = np.argsort(ranks, kind="stable")
        search = self.search
        search.layer_wells = np.ascontiguousarray(np.concatenate([part[1] for part in parts])[order])
        search.layer_scores, search.layer_cells, search.layer_nodes = (
            np.ascontiguousarray(np.concatenate([part[index] for part in parts])[order]) for index in (2, 3, 4))

    def save(self, path: str | Path) -> None:
        self.gather()
        self.search.save(path)

    def run(self, seconds: float | None = None, max_depth: int | None = None,
            progress: Callable[[BeamProgress], None] | None = None,
            should_stop: Callable[[], bool] | None = None,
            checkpoint: str | Path | None = None, checkpoint_seconds: float = 30.0) -> BeamResult:
        """As :meth:`BeamSearch.run`, a layer at a time on the cluster; the checkpoint is the
        one-machine beam's file."""

        def layer() -> bool:
            try:
                self.step()
            except self._ray.exceptions.RayActorError as error:
                # The lost shard's wells are gone with it: what is on disk is the last whole beam.
                kept = f"; the checkpoint {checkpoint} continues it" if checkpoint is not None else ""
                raise KibitzInputError(f"a shard of the cluster beam was lost at depth {self.search.depth:,} "
                                       f"({cluster.first_line(error)}): the search stopped{kept}") from None
            return True

        return run_layers(self.search, layer, self.check_memory, self.save, lambda: self.beam_size, seconds,
                          max_depth, progress, should_stop, checkpoint, checkpoint_seconds)

    def check_memory(self) -> None:
        """Refuse a layer whose coordinator's share would pass the limit: the history (every kept
        well) and the shards' best lists it merges."""
        search = self.search
        history = sum(getattr(search, name)._data.nbytes for name in ("parent", "hashes", "pieces", "scores",
                                                                       "cells", "moves"))
        merged = self.shards * search.settings.width * CANDIDATE.itemsize
        limits.check_memory(f"a cluster beam of width {search.settings.width:,} over {self.shards} shards",
                            history + merged, limits.search_memory_limit(), field="the width")
