"""The numba weights of the SPL-T advisor (``advisors.splt.kernel``) against the plain-Python
reference (``advisors.splt.weights``): bit for bit, because exact ties decide the searches
(spec 3.3, "Floating-point order").

Also a guard against numba's stale cache: the advisor kernels call the engine's jitted turn, and
numba's cache only watches the advisor file's own date.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

import numpy as np
import pytest

from advisors.splt import kernel as advisor_kernel
from advisors.splt.weights import weights
from engines import GAMES
from engines.splt import Box, Rules, State, fast
from engines.splt import kernel as engine_kernel

SPLT = GAMES["splt"]


def kernel_weights(state: State) -> tuple[float, ...]:
    """``compute_weights`` on ``state``; also checks that it left the board's boxes and owner grid
    as it found them (it splits boxes in place to look for clusters and must undo that)."""
    boxes, count = fast.pack(state)
    owner = np.full((16, 8), -1, np.int16)
    engine_kernel.build_owner(boxes, count, owner)
    boxes_before = boxes.copy()
    owner_before = owner.copy()
    out = np.zeros(128)
    advisor_kernel.compute_weights(boxes, count, owner, state.splits, state.rules.flags(), out)
    # Row ``count`` is scratch space (the kernel builds each candidate's new half there).
    assert np.array_equal(boxes[:count], boxes_before[:count]), (
        f"compute_weights changed the boxes at split {state.splits}"
    )
    assert np.array_equal(owner, owner_before), f"compute_weights changed the owner grid at split {state.splits}"
    return tuple(float(value) for value in out[:count])


def assert_same_weights(state: State, where: str) -> None:
    fast_weights = kernel_weights(state)
    slow_weights = weights(state)
    assert len(fast_weights) == len(slow_weights) == len(state.boxes), where
    differing = [
        (index, fast_weights[index], slow_weights[index])
        for index in range(len(slow_weights))
        if fast_weights[index] != slow_weights[index]  # exact: no approx
    ]
    assert not differing, f"{where}: (box, numba, python) differ: {differing[:5]}"


def random_game(rng: np.random.Generator, rules: Rules = Rules()) -> list[State]:
    """Every position of one game of uniformly random legal moves, the final one included."""
    state = SPLT.initial_state(rules)
    positions = [state]
    while not state.is_over():
        moves = SPLT.legal_moves(state)
        state = SPLT.play(state, moves[int(rng.integers(len(moves)))]).state
        positions.append(state)
    return positions


def test_first_move_weights_match():
    assert kernel_weights(State()) == weights(State()) == (1.0,)


def test_random_games_match_bit_for_bit():
    rng = np.random.default_rng(20220915)
    positions = 0
    for game in range(30):
        for state in random_game(rng):
            assert_same_weights(state, f"random game {game}, split {state.splits}")
            positions += 1
    assert positions > 30 * 20  # the games were not all trivially short


def test_every_position_of_the_1196_record_matches(splt_data):
    line = SPLT.parse_sequence((splt_data / "1196seq.txt").read_text())
    assert len(line.moves) == 1196
    state = line.start
    for move in line.moves:
        assert_same_weights(state, f"1196 record, split {state.splits}")
        state = SPLT.play(state, move).state
    assert state.splits == 1196 and state.is_over()
    assert_same_weights(state, "1196 record, final position")


@pytest.mark.parametrize(
    "rules",
    [
        Rules(stale_cluster_conversion=True),
        Rules(unconditional_refill=True),
        Rules(always_late_clusters=True),
        Rules(stale_cluster_conversion=True, unconditional_refill=True, always_late_clusters=True),
    ],
    ids=lambda rules: "+".join(rules.names()),
)
def test_other_rule_options_match(rules):
    assert rules.flags() != 0
    rng = np.random.default_rng(1027 + rules.flags())
    for game in range(4):
        for state in random_game(rng, rules):
            assert state.rules == rules
            assert_same_weights(state, f"{rules.names()} game {game}, split {state.splits}")


def test_stale_cluster_conversion_reaches_the_kernel():
    # H turn. Splitting (0,0,2,4) makes two 2x2 halves that form no group with a neighbour, but the
    # bottom-right corner already holds four plain 2x2 boxes: with stale_cluster_conversion the
    # split check converts those (spec 1.10), so the split counts as a cluster move.
    boxes = (
        Box(0, 0, 2, 4), Box(2, 0, 2, 4), Box(4, 0, 4, 12), Box(0, 4, 4, 12),
        Box(4, 12, 2, 2), Box(6, 12, 2, 2), Box(4, 14, 2, 2), Box(6, 14, 2, 2),
    )
    default = State(boxes=boxes, splits=10)
    stale = State(boxes=boxes, splits=10, rules=Rules(stale_cluster_conversion=True))
    assert_same_weights(default, "hand-built board, default rules")
    assert_same_weights(stale, "hand-built board, stale cluster conversion")
    assert kernel_weights(stale)[0] != kernel_weights(default)[0]


def test_engine_kernel_hash_is_current():
    """numba caches the advisor kernels keyed on advisors/splt/kernel.py alone; after an edit of
    the engine's kernel it would keep running the old engine turn inside them."""
    engine_file = Path(engine_kernel.__file__)
    digest = hashlib.sha256(engine_file.read_bytes()).hexdigest()
    assert advisor_kernel.ENGINE_KERNEL_SHA256 == digest, (
        f"{engine_file} changed since advisors/splt/kernel.py was last updated: set "
        f'ENGINE_KERNEL_SHA256 = "{digest}" in advisors/splt/kernel.py. Editing that file also '
        "refreshes numba's cache of the advisor kernels, which otherwise keep calling the old "
        "compiled engine turn."
    )
