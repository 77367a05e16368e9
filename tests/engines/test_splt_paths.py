"""The numba turn equals the plain-Python reference turn under every rule option (spec 1.10).

The conformance test covers the default rules; here each open edge-case option is switched on and
random games are played through both paths, comparing whole steps (state and events).
"""

from __future__ import annotations

import numpy as np
import pytest

from engines.splt import Rules, State, fast, reference

VARIANTS = [
    Rules(stale_cluster_conversion=True),
    Rules(unconditional_refill=True),
    Rules(always_late_clusters=True),
    Rules(stale_cluster_conversion=True, unconditional_refill=True, always_late_clusters=True),
]


@pytest.mark.parametrize("rules", VARIANTS, ids=lambda rules: "+".join(rules.names()))
def test_paths_agree_under_rule_options(rules):
    rng = np.random.default_rng(sum(rules.flags() << k for k in range(3)))
    splits = 0
    for _ in range(25):
        state = State(rules=rules)
        moves = state.legal_moves()
        while moves:
            move = moves[int(rng.integers(len(moves)))]
            step = fast.play(state, move)
            assert step == reference.play(state, move)
            state = step.state
            moves = state.legal_moves()
            splits += 1
    assert splits > 1000

