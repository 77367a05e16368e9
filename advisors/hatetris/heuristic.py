"""The HATETRIS advisor the player sees: every distinct resting placement of the piece the AI
sent, with the well after it, the lines it clears, the piece the AI will send next, and the hand
heuristic's value, best first.

The heuristic is the knewjade / David & Felipe cost of spec 3.3-3.4 (holes, enclosed holes, lines
with enclosed holes, surface height, erasability, score) with D&F's published weights; the value
shown is minus the cost, so higher is better. Holes count down to the surface row (the deepest a
1 x 1 probe from the top reaches); those under it are buried for good and named apart.
``lookahead`` levels turn on the "bird in the hand" lookahead of spec 3.5.
"""

from __future__ import annotations

import dataclasses

import numpy as np

from advisors.candidate import Candidate
from advisors.hatetris import kernel
from engines.hatetris import GAME, PieceSent, Placement, State
from engines.hatetris.fast import well_array

TERM_NAMES = ("holes", "enclosed holes", "enclosed-hole lines", "surface depth", "erasable pieces", "score",
              "stack height", "cells S cannot reach", "S surface depth", "edge column heights",
              "surface depth after one clear")
#: How many terms there were before the last ones were added: weights saved then (a search's
#: checkpoint, a network file, a tuning log) get 0 for the terms they did not know.
EARLIER_TERM_COUNTS = (8, 10)
#: D&F's final weights (spec 3.4), as costs: lower is better; they had none of the last five terms.
DF_WEIGHTS = (11.2106, 83.7646, 83.7646, -83.7646, -83.7646, -332.2211, 0.0, 0.0, 0.0, 0.0, 0.0)
#: Kibitz's set for the beam search: D&F's set plus the S-reach term, then a random local search
#: on the lines two beams from the empty well reach. With holes counted down to the surface row
#: (from the empty well, one thread): widths 1,000 and 3,000 without the lookahead, 16 and 18 lines
#: (D&F's set: 9 and 11); 10,000 wide with lookahead 4, 26 (D&F's set: 45).
#: Tim's S surface, edge columns and surface after one clear (spec 3.6) are not weighed yet.
BEAM_WEIGHTS = (14.09, 0.0, -42.12, -12.57, -93.48, -332.22, -22.96, 109.73, 0.0, 0.0, 0.0)
#: D&F's set with Tim's three terms weighed (spec 3.6): S surface depth, edge column heights and
#: the surface after one clear, tuned by benchmarks/hatetris_tuning.py at widths 10,000 and 12,000,
#: lookahead 8, on five starts (the empty well and four record-game prefixes), 4 iterations: a mean
#: of 42.2 lines gained (D&F's set: 37.2), and on the four held-back starts 39.25 (D&F's: 28.75).
#: From the empty well at width 100,000 it is not the better: 70 lines in 37 minutes (D&F's: 72 in 30).
DF_TIM_WEIGHTS = DF_WEIGHTS[:8] + (-22.98, -34.46, 3.3)
WEIGHT_SETS = {"df": DF_WEIGHTS, "df-tim": DF_TIM_WEIGHTS, "kibitz": BEAM_WEIGHTS}
DEFAULT_WEIGHTS = DF_WEIGHTS
GAME_OVER_MARGIN = 10_000.0


def all_terms_weighed(weights: tuple[float, ...]) -> tuple[float, ...]:
    """``weights`` saved before the last terms were added (EARLIER_TERM_COUNTS), with 0 for those;
    any other length is returned as it is, for the caller to refuse by its length."""
    if len(weights) in EARLIER_TERM_COUNTS:
        return tuple(weights) + (0.0,) * (len(TERM_NAMES) - len(weights))
    return tuple(weights)


@dataclasses.dataclass(frozen=True)
class HatetrisCandidate(Candidate):
    """A ranked placement. ``next_piece`` is the piece the AI sends after it (None when the
    placement ends the game); ``keys`` the shortest key presses from spawn, the locking Down
    included; ``same_wells`` the other placements that leave the same well."""

    lines: int = 0
    next_piece: str | None = None
    well_after: tuple[int, ...] = ()
    keys: str = ""
    terms: tuple[tuple[str, float], ...] = ()
    game_over: bool = False
    loop_rule_decided: bool = False
    same_wells: tuple[Placement, ...] = ()


def heuristic_terms(well: tuple[int, ...], score: int, width: int = 10) -> tuple[tuple[str, float], ...]:
    """The heuristic terms of a well, named (TERM_NAMES)."""
    out = np.empty(kernel.TERM_COUNT, dtype=np.float64)
    kernel.terms(well_array(well), width, len(well), score, np.empty((512, 3), dtype=np.int64),
                 kernel.work_space(len(well), 0), out, True)
    return tuple(zip(TERM_NAMES, (float(v) for v in out)))


def value(well: tuple[int, ...], score: int, width: int = 10, weights=DEFAULT_WEIGHTS, lookahead: int = 0) -> float:
    """Minus the heuristic cost of a well (higher is better)."""
    return -float(kernel.quiescent_cost(well_array(well), width, len(well), score,
                                        np.array(weights, dtype=np.float64), lookahead,
                                        np.empty((512, 3), dtype=np.int64), kernel.work_space(len(well), lookahead),
                                        kernel.scratch_space(width), kernel.NO_NETWORK))


def rank(state: State, limit: int | None = None, weights=DEFAULT_WEIGHTS, lookahead: int = 0) -> list[HatetrisCandidate]:
    """Every distinct placement of the current piece, best first (a placement that ends the
    game last); ties keep the shorter key path, then the placement order."""
    if state.over:
        return []
    width = state.rules.width
    by_well: dict[tuple[int, ...], list[Placement]] = {}
    steps = {}
    for move in GAME.legal_moves(state):
        step = GAME.play(state, move)
        key = (step.state.well, step.state.score, step.state.piece)
        if key not in by_well:
            by_well[key] = []
            steps[key] = step
        by_well[key].append(move)
    entries = []
    for key, placements in by_well.items():
        step = steps[key]
        keys_of = {move: GAME.key_path(state, move) for move in placements}
        move = min(placements, key=lambda m: (len(keys_of[m]), m))
        after = step.state
        sent = next((e for e in step.events if isinstance(e, PieceSent)), None)
        if after.over:
            score = float("-inf")
            terms: tuple[tuple[str, float], ...] = ()
        else:
            score = value(after.well, after.score, width, weights, lookahead)
            terms = heuristic_terms(after.well, after.score, width)
        entries.append((score, len(keys_of[move]), move, after, sent, keys_of[move], terms,
                        tuple(m for m in sorted(placements) if m != move)))
    # A placement that ends the game ranks last, a fixed margin below the worst other one (a
    # finite value, so it can be shown and compared).
    finite = [entry[0] for entry in entries if entry[0] != float("-inf")]
    floor = (min(finite) if finite else 0.0) - GAME_OVER_MARGIN
    entries = [(floor, *entry[1:]) if entry[0] == float("-inf") else entry for entry in entries]
    entries.sort(key=lambda entry: (-entry[0], entry[1], entry[2]))
    if limit is not None:
        entries = entries[:limit]
    best = entries[0][0] if entries else 0.0
    candidates = []
    for score, _, move, after, sent, keys, terms, others in entries:
        lines = after.score - state.score
        words = _explain(lines, sent, terms, after)
        warnings = []
        if after.over:
            warnings.append("ends the game: the piece sticks out above the bar")
        elif sent is not None and sent.loop_rule_decided:
            warnings.append(f"the loop rule makes the AI send {sent.piece} (height alone would pick another)")
        candidates.append(HatetrisCandidate(
            move=move,
            score=score,
            loss=best - score,
            explanation=words,
            warnings=tuple(warnings),
            lines=lines,
            next_piece=None if after.over else after.piece,
            well_after=after.well,
            keys=keys,
            terms=terms,
            game_over=after.over,
            loop_rule_decided=bool(sent and sent.loop_rule_decided),
            same_wells=others,
        ))
    return candidates


def _explain(lines: int, sent: PieceSent | None, terms, after: State) -> str:
    if after.over:
        return "game over"
    named = dict(terms)
    parts = []
    if lines:
        parts.append(f"clears {lines} line{'s' if lines != 1 else ''}")
    parts.append(f"AI sends {after.piece}")
    holes = int(named.get("holes", 0))
    enclosed = int(named.get("enclosed holes", 0))
    buried = _all_holes(after.well, after.rules.width) - holes
    parts.append(f"{holes} hole{'s' if holes != 1 else ''}" + (f" ({enclosed} enclosed)" if enclosed else "")
                 + (f", {buried} buried under the surface" if buried > 0 else ""))
    parts.append(f"{int(named.get('erasable pieces', 0))}/7 pieces can clear")
    parts.append(f"stack {after.stack_height()} high")
    return "; ".join(parts)


def _all_holes(well: tuple[int, ...], width: int) -> int:
    """Empty cells under a filled cell of their column, in the whole well."""
    covered = holes = 0
    full = (1 << width) - 1
    for row in well:
        holes += (~row & covered & full).bit_count()
        covered |= row
    return holes
