"""The SPL-T heuristic advisor: every legal split ranked by the reference weights, each with its
terms in words and the two warnings (new halving, unexpected cluster)."""

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
        if forecast is not None and forecast.new_halving:
            warnings.append(
                f"new halving: these blocks' explosion halves what lies above "
                f"(they get {forecast.halvings} halving{'s' if forecast.halvings != 1 else ''})"
            )
        if unexpected:
            warnings.append(f"unexpected cluster: {len(unexpected)} boxes fall into a cluster")
        if members:
            parts.insert(0, f"makes a cluster of {len(members)}")
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
                new_halving=bool(forecast and forecast.new_halving),
                halvings=forecast.halvings if forecast else 0,
                unexpected=unexpected,
            )
        )
    return candidates
