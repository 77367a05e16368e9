"""The SPL-T heuristic advisor: every legal split ranked by the reference weights, each with its
terms in words and the two warnings (new halving, unexpected cluster).

A candidate is a new halving when its cluster's explosion adds a halving to a stack of point
blocks under it (:attr:`predictors.HalvingForecast.adds_halving`). The reference's check also says
yes for a cluster with no point block under it (on a plain box or the floor), where nothing can
explode with it, trivially; such a cluster adds no halving to any stack (nothing under it halves
it, it only counts down), so the advisor does not call it a new halving, and its explanation says
what the cluster rests on ("makes a cluster of 4 on plain boxes")."""

from __future__ import annotations

import dataclasses

from advisors.candidate import Candidate
from advisors.splt import predictors, weights
from engines.splt.state import Box, Move, State


@dataclasses.dataclass(frozen=True)
class SpltCandidate(Candidate):
    """A ranked split. ``index`` is the box's place in the box list (as playAssist labels it)."""

    index: int = -1
    terms: tuple[tuple[str, float], ...] = ()
    cluster: tuple[Box, ...] = ()
    new_halving: bool = False
    halvings: int = 0
    forecast: predictors.HalvingForecast | None = None  # None when the split makes no cluster
    unexpected: tuple[Box, ...] = ()


def _describe(name: str, value: float, state: State, index: int, facts) -> str:
    s = facts.splits_until_fall[index] if facts else 0
    words = {
        weights.IMBALANCE: f"balance of splits left (H {facts.horizontal_capacity}, V {facts.vertical_capacity})"
        if facts else "balance",
        weights.ASPECT_RATIO: "makes a long thin box",
        weights.TIMING: f"on a stack that falls in {s} split{'s' if s != 1 else ''}",
        weights.OLD_STACK: "old stack below",
        weights.HEIGHT_TERM: "low on the board",
        weights.CLUSTER_SIZE: "big cluster",
        weights.OFF_GRID: "cluster off the 2x2 grid",
        weights.WIDE_BLOCK: "wide box",
        weights.TRIPLE_EDGE: "triple edge case",
    }
    return f"{words.get(name, name)}: {value:+.1f}"


def rank(state: State, limit: int | None = None) -> list[SpltCandidate]:
    """Every legal split, best first (ties: lowest box-list index, as the reference)."""
    result = weights.weighting(state)
    orientation = state.orientation
    order = [i for i, box in enumerate(state.boxes) if box.can_split(orientation)]
    order.sort(key=lambda i: (-result.weights[i], i))
    if limit is not None:
        order = order[:limit]
    best = result.weights[order[0]] if order else 0.0
    candidates = []
    for index in order:
        box = state.boxes[index]
        move = Move.of(box)
        members = result.clusters.get(index, ())
        new_half = len(state.boxes)
        cluster = tuple(state.boxes[m] for m in members if m != new_half)
        forecast = predictors.halving_forecast(state, move, list(members)) if members else None
        unexpected = predictors.unexpected_cluster(state, move)
        terms = result.terms.get(index, ())
        parts = [_describe(name, value, state, index, result.facts) for name, value in terms if value]
        warnings = []
        new_halving = bool(forecast and forecast.adds_halving)
        if new_halving:
            warnings.append(
                f"new halving: these blocks explode on their own, halving what lies above "
                f"(the blocks under them halve them {forecast.halvings} "
                f"time{'s' if forecast.halvings != 1 else ''} first)"
            )
        if unexpected:
            warnings.append(f"unexpected cluster: {len(unexpected)} boxes fall into a cluster")
        if members:
            where = ""
            if forecast is not None and forecast.known and not forecast.stacked:
                where = " on the floor" if forecast.base == predictors.FLOOR else " on plain boxes"
            parts.insert(0, f"makes a cluster of {len(members)}{where}")
        candidates.append(
            SpltCandidate(
                move=move,
                score=result.weights[index],
                loss=best - result.weights[index],
                explanation="; ".join(parts) if parts else "no term applies",
                warnings=tuple(warnings),
                index=index,
                terms=terms,
                cluster=cluster,
                new_halving=new_halving,
                halvings=forecast.halvings if forecast else 0,
                forecast=forecast,
                unexpected=unexpected,
            )
        )
    return candidates
