"""The leaf evaluation of the expectimax: nneonneo's line heuristic (spec 3.3).

Each of the 8 lines (4 rows, 4 columns) is scored from its tile exponents and the scores are
summed; since a line has only 65,536 possible contents, the score of every line is computed once
into a table (``row_table``) and a board costs 8 lookups.
"""

from __future__ import annotations

import dataclasses

import numpy as np

from engines.jit import kernel


@dataclasses.dataclass(frozen=True)
class Weights:
    """The published weights (CMA-ES tuned by xificurk, June 2014), per line."""

    lost_penalty: float = 200_000.0
    empty: float = 270.0
    merges: float = 700.0
    monotonicity: float = 47.0
    monotonicity_power: float = 4.0
    sum: float = 11.0
    sum_power: float = 3.5

    def as_array(self) -> np.ndarray:
        return np.array(dataclasses.astuple(self), dtype=np.float64)


PUBLISHED = Weights()


def line_terms(line: tuple[int, int, int, int]) -> dict[str, float]:
    """The heuristic's terms for one line of exponents, in plain Python (the tests' reference)."""
    empty = sum(1 for e in line if e == 0)
    merges, run, previous = 0, 0, 0
    for e in line:
        if e == 0:
            continue  # gaps do not break a run: 2 . 2 can merge
        if e == previous:
            run += 1
        elif run:
            merges += run + 1
            run = 0
        previous = e
    if run:
        merges += run + 1
    falling = rising = 0.0
    for a, b in zip(line, line[1:]):
        if a > b:
            falling += a ** 4 - b ** 4
        else:
            rising += b ** 4 - a ** 4
    total = sum(e ** 3.5 for e in line if e)
    return {"empty": empty, "merges": merges, "monotonicity": min(falling, rising), "sum": total}


def line_value(line: tuple[int, int, int, int], weights: Weights = PUBLISHED) -> float:
    terms = line_terms(line)
    return (weights.lost_penalty + weights.empty * terms["empty"] + weights.merges * terms["merges"]
            - weights.monotonicity * terms["monotonicity"] - weights.sum * terms["sum"])


@kernel
def row_table(weights):
    """The heuristic of every 16-bit row (low nibble = column 0); ``weights`` as in
    :meth:`Weights.as_array`."""
    lost, empty_weight, merge_weight, mono_weight, mono_power, sum_weight, sum_power = (
        weights[0], weights[1], weights[2], weights[3], weights[4], weights[5], weights[6])
    table = np.zeros(65536, np.float32)
    line = np.zeros(4, np.int64)
    for row in range(65536):
        for position in range(4):
            line[position] = (row >> (4 * position)) & 0xF
        total = 0.0
        empty = 0
        merges = 0
        run = 0
        previous = 0
        for position in range(4):
            rank = line[position]
            if rank == 0:
                empty += 1
                continue
            total += rank ** sum_power
            if rank == previous:
                run += 1
            elif run > 0:
                merges += 1 + run
                run = 0
            previous = rank
        if run > 0:
            merges += 1 + run
        falling = 0.0
        rising = 0.0
        for position in range(1, 4):
            a = line[position - 1]
            b = line[position]
            if a > b:
                falling += a ** mono_power - b ** mono_power
            else:
                rising += b ** mono_power - a ** mono_power
        table[row] = (lost + empty_weight * empty + merge_weight * merges
                      - mono_weight * min(falling, rising) - sum_weight * total)
    return table
