"""The reference SPL-T weighting heuristic (spec 3.2 and 3.3), in plain Python.

Weights are bit-identical to josh-holder/SPLT's ``findWeights``: every term is computed on its own
and added once to a running weight starting at 0, in the order 1 to 9, with the floating-point
evaluation order the spec gives. Ties are decided by exact equality (greedy: lowest box-list index),
so that order matters. Each term is also kept with its name, so the advisor can explain a weight.
"""

from __future__ import annotations

import dataclasses
import math

from engines.splt import reference
from engines.splt.state import HEIGHT, State

# Term names, in the order they are added.
IMBALANCE = "imbalance"
ASPECT_RATIO = "aspect ratio"
TIMING = "point-block timing"
OLD_STACK = "old stack"
HEIGHT_TERM = "height"
CLUSTER_SIZE = "cluster size"
OFF_GRID = "off-grid cluster"
WIDE_BLOCK = "wide block"
TRIPLE_EDGE = "triple edge case"


@dataclasses.dataclass(frozen=True)
class BoardFacts:
    """Quantities of spec 3.2, computed once per position."""

    horizontal_capacity: int  # sum of (h - 1) over plain boxes
    vertical_capacity: int  # sum of (w - 1) over plain boxes
    splits_until_fall: tuple[int, ...]  # S per box, list order
    stacks: tuple[tuple[int, ...], ...]  # P per box, list order
    lowest_in_band: tuple[int, ...]  # per 2-wide column band
    about_to_lose: bool

    @property
    def total(self) -> int:
        return self.horizontal_capacity + self.vertical_capacity

    @property
    def imbalance(self) -> int:
        return self.horizontal_capacity - self.vertical_capacity


@dataclasses.dataclass(frozen=True)
class Weighting:
    """The weight of every box (list order; 0 for boxes that cannot split) and, for each
    candidate, its raw terms (name, value) before normalisation and its cluster members."""

    weights: tuple[float, ...]
    terms: dict[int, tuple[tuple[str, float], ...]]
    clusters: dict[int, tuple[int, ...]]
    facts: BoardFacts | None


def board_facts(state: State) -> BoardFacts:
    boxes = state.boxes
    horizontal = sum(box.h - 1 for box in boxes if box.is_plain)
    vertical = sum(box.w - 1 for box in boxes if box.is_plain)

    until_fall: list[int] = [0] * len(boxes)
    stacks: list[list[int]] = [[] for _ in boxes]
    by_top: dict[int, list[int]] = {}
    for index, box in enumerate(boxes):
        by_top.setdefault(box.y, []).append(index)
    # Supports lie lower, so they are done first when boxes go by decreasing bottom edge.
    for index in sorted(range(len(boxes)), key=lambda i: -boxes[i].bottom):
        box = boxes[index]
        if box.bottom == HEIGHT:
            until_fall[index] = box.points
            stacks[index] = [box.points]
            continue
        most = 0
        below: list[int] = []
        for support in by_top.get(box.bottom, []):  # list order
            other = boxes[support]
            if other.x >= box.right or other.right <= box.x:
                continue
            if until_fall[support] == 0:
                most = 0
                break
            if until_fall[support] > most:
                most = until_fall[support]
                below = list(stacks[support])
        stack = below
        if box.points > 0 and most > 0:
            until_fall[index] = min(box.points, most)
            if box.points > most and box.points not in stack:
                stack.append(box.points)
        else:
            until_fall[index] = most
        stacks[index] = stack

    lowest = [0, 0, 0, 0]
    for box in boxes:
        if box.is_plain:
            band = box.x // 2
            lowest[band] = max(lowest[band], box.y // 2)
    about_to_lose = bool(boxes) and horizontal + vertical < min(until_fall)
    return BoardFacts(
        horizontal, vertical, tuple(until_fall), tuple(tuple(s) for s in stacks), tuple(lowest), about_to_lose
    )


def _quadratic(s: int) -> float:
    return ((-0.2 * (s * s)) + 1.6 * s) + 13


def _logistic(turns: int) -> float:
    if 1.14 * turns > 709:  # past a double's range: the kernel's exp is inf there, and this is 20 too
        return 20.0
    return 29.53 / (1 + 0.1518 * math.exp(1.14 * turns)) + 20


def candidate_terms(
    state: State, facts: BoardFacts, index: int, members: list[int]
) -> list[tuple[str, float]]:
    """The raw terms of splitting box ``index`` (spec 3.3), in the order they are added."""
    box = state.boxes[index]
    n = state.splits
    horizontal_turn = state.orientation == "H"
    x, y, w, h = box.x, box.y, box.w, box.h
    s = facts.splits_until_fall[index]
    stack = facts.stacks[index]
    cluster = bool(members)
    new_half = len(state.boxes)
    terms: list[tuple[str, float]] = []

    # 1. Imbalance (only without a cluster).
    if not cluster:
        imbalance = facts.imbalance
        magnitude = abs(imbalance)
        added = (w - 1) if horizontal_turn else (h - 1)
        linear_side = imbalance <= 0 if horizontal_turn else imbalance >= 0
        value = 0.0
        if imbalance != 0:
            if linear_side:
                value = ((-15 / 7) * added) * ((4 * magnitude) / facts.total)
            else:
                p = added / magnitude
                value = ((-12.5 * (p * p)) + 27.5 * p) * ((4 * magnitude) / facts.total)
            if horizontal_turn and facts.about_to_lose:
                value = value * 100
        terms.append((IMBALANCE, value))

    # 2. Aspect ratio.
    before = max(w, h) / min(w, h)
    half_w, half_h = (w, h // 2) if horizontal_turn else (w // 2, h)
    after = max(half_w, half_h) / min(half_w, half_h)
    jump = after - before
    if jump > 1:
        if jump >= 4:
            terms.append((ASPECT_RATIO, -20.0))
        elif jump >= 2:
            terms.append((ASPECT_RATIO, -15.0 if n > 450 else -10.0))

    # 3. Point-block timing (only when the box sits on a stack that will fall).
    if s != 0 and stack:
        k = len(stack) - 1
        top = stack[-1]
        diff = (n + 1) - (top - 1)
        value = 0.0
        if cluster:
            if diff >= 2**k:
                value = _logistic(math.ceil(s / 2))
                if diff < 2 ** (k + 1):
                    value = value * 0.85
        else:
            if (diff >= 2**k or s <= 5) and 2 < s < 13:
                value = _quadratic(s)
            if s <= 2 and len(stack) > 1:
                t = math.ceil((min(stack[1:]) - s) / 2)
                if 2 < t < 13:
                    value = value + _quadratic(s)
        if n > 300 and y // 2 < facts.lowest_in_band[x // 2]:
            value = value * 0.5
        terms.append((TIMING, value))

    # 4. Old stack.
    if n > 800 and stack:
        terms.append((OLD_STACK, 9 * ((n - stack[-1]) / n)))

    # 5. Height.
    if cluster:
        deepest = max(state.boxes[m].y + state.boxes[m].h for m in members if m != new_half)
        terms.append((HEIGHT_TERM, 20 * (deepest / 16) ** 2))
    else:
        terms.append((HEIGHT_TERM, 10 * ((y + h) / 16) ** 2))

    if cluster:
        # 6. Cluster size.
        cells = ((w * h) / 2) * len(members)
        if cells > 4:
            terms.append((CLUSTER_SIZE, (-60 * (cells / facts.total)) * (n / 200)))
        # 7. Off-grid cluster: corners of the members other than the new half.
        corners = [(state.boxes[m].x, state.boxes[m].y) for m in members if m != new_half]
        top_edge = min(cy for _, cy in corners)
        left_edge = min(cx for cx, _ in corners)
        bottom_edge = max(cy for _, cy in corners) + half_h
        right_edge = max(cx for cx, _ in corners) + half_w
        penalty = 0
        if top_edge % 2 or bottom_edge % 2:
            penalty -= 50
        if left_edge % 2 or right_edge % 2:
            penalty -= 50
        if penalty:
            terms.append((OFF_GRID, float(penalty)))

    # 8. Wide blocks.
    if horizontal_turn and h > 2 and w > 2:
        terms.append((WIDE_BLOCK, -5.0))
    elif not horizontal_turn and w > 2:
        terms.append((WIDE_BLOCK, 5.0))

    # 9. The "triple edge case": a 2x1 box over a 1-wide box of height 2 and one of height 1.
    if not horizontal_turn and w == 2 and h == 1:
        heights = {
            other.h
            for other in state.boxes
            if other.y == y + 1 and other.x in (x, x + 1) and other.w == 1
        }
        if {1, 2} <= heights:
            terms.append((TRIPLE_EDGE, -1.0))
    return terms


def weighting(state: State) -> Weighting:
    """Every box's normalised weight with the terms behind it (spec 3.3)."""
    boxes = state.boxes
    orientation = state.orientation
    splittable = [box.can_split(orientation) for box in boxes]
    if state.splits == 0:  # the reference computes no weights before the first split
        return Weighting(tuple(1.0 if ok else 0.0 for ok in splittable), {}, {}, None)
    facts = board_facts(state)
    raw = [0.0] * len(boxes)
    terms: dict[int, tuple[tuple[str, float], ...]] = {}
    clusters: dict[int, tuple[int, ...]] = {}
    for index, ok in enumerate(splittable):
        if not ok:
            continue
        members = reference.split_cluster(state, index)
        found = candidate_terms(state, facts, index, members)
        total = 0.0
        for _, value in found:
            total = total + value
        raw[index] = total
        terms[index] = tuple(found)
        clusters[index] = tuple(members)
    lowest = min(raw) if raw else 0.0
    if lowest <= 0:
        raw = [((value + (-lowest)) + 0.01) if ok else 0.0 for value, ok in zip(raw, splittable)]
    return Weighting(tuple(raw), terms, clusters, facts)


def weights(state: State) -> tuple[float, ...]:
    return weighting(state).weights


def greedy_index(state: State) -> int:
    """The reference greedy choice: the highest weight, the lowest list index on ties."""
    values = weights(state)
    best = max(values)
    return values.index(best)

