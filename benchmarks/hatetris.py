"""HATETRIS speed and strength beside the anchors of spec 4.

1. Children of a well: the AI's choice (all seven pieces' resting placements and the wells they
   leave) plus the chosen piece's child wells, averaged over every well of the archived record
   games. Anchor: David & Felipe's Rust, 48 us with waveforms (spec 4.2).
2. Beam searches from the empty well at the widths asked (default 1,000, 10,000 and 100,000) on
   all cores: lines reached, pieces, minutes, wells scored per second. Anchor: the 2010-2017 record
   of 31 lines, to be reached within 30 minutes; the best game's Base2048 replay is printed.

    python benchmarks/hatetris.py [--widths 1000,10000,100000] [--minutes 30] [--lookahead 0]
"""

from __future__ import annotations

import argparse
import csv
import os
import platform
import sys
import time
from pathlib import Path

import numba
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from advisors.hatetris.beam import BeamSearch, BeamSettings  # noqa: E402
from advisors.hatetris.heuristic import WEIGHT_SETS  # noqa: E402
from engines.contract import Line  # noqa: E402
from engines.hatetris import DEFAULT_RULES, GAME  # noqa: E402
from engines.hatetris import kernel  # noqa: E402
from engines.hatetris.fast import MemoryTable  # noqa: E402

DATA = Path(os.environ.get("KIBITZ_REFERENCE_DATA", Path(__file__).resolve().parents[2] / "shared" / "data"))


def record_wells() -> list[np.ndarray]:
    """Every well the AI was called with in the archived HATETRIS (not Mild) record games."""
    wells = []
    with open(DATA / "hatetris" / "records_decoded.tsv", encoding="utf-8") as handle:
        for row in csv.DictReader(handle, delimiter="\t"):
            if row["enemy_ai"] != "HATETRIS":
                continue
            replay = GAME.replay_keys(row["keys"])
            state_well = (0,) * 20
            for move in replay.placements:
                from engines.hatetris.reference import lock

                _, state_well, _, over = lock(state_well, DEFAULT_RULES, move.piece_index, move.x, move.y, move.o)
                if over:
                    break
                wells.append(np.array(state_well, dtype=np.int64))
    return wells


@numba.njit(nogil=True)
def _children_of_all(wells, table, entry_wells, entry_hashes, entry_counts, peaks, loops, positions, child):
    """For each well: the AI's piece (all seven pieces' resting placements, rated) and the wells of
    that piece's placements; compiled, so no interpreter time is counted."""
    made = 0
    for index in range(wells.shape[0]):
        well = wells[index]
        piece = kernel.choose_piece(well, 10, 20, False, table, entry_wells, entry_hashes, entry_counts, peaks,
                                    loops)
        found = kernel.resting_positions(well, 10, 20, piece, positions)
        for place in range(found):
            kernel.lock(well, 10, 20, piece, positions[place, 0], positions[place, 1], positions[place, 2], child)
            made += 1
    return made


def children_timing(wells: list[np.ndarray], repeats: int = 5) -> tuple[float, float]:
    """Microseconds per well, and child wells per well."""
    table = MemoryTable.of([], 20)
    peaks = np.zeros(7, dtype=np.int64)
    loops = np.zeros(7, dtype=np.int64)
    positions = np.empty((kernel.MAX_RESTING, 3), dtype=np.int64)
    child = np.empty(20, dtype=np.int64)
    stacked = np.ascontiguousarray(np.array(wells, dtype=np.int64))
    arguments = (table.table, table.wells, table.hashes, table.counts, peaks, loops, positions, child)
    _children_of_all(stacked[:1], *arguments)
    best = float("inf")
    made = 0
    for _ in range(repeats):
        began = time.perf_counter()
        made = _children_of_all(stacked, *arguments)
        best = min(best, (time.perf_counter() - began) / len(wells))
    return best * 1e6, made / len(wells)


def beam_run(width: int, minutes: float, lookahead: int, weights: tuple[float, ...]):
    search = BeamSearch(Line(GAME.initial_state(), ()), BeamSettings(width=width, lookahead=lookahead, weights=weights))
    last = [0.0]

    def progress(p):
        if time.monotonic() - last[0] > 30:
            last[0] = time.monotonic()
            print(f"    width {width:,}: depth {p.depth}, best {p.best_score}, {p.wells_per_second:,.0f} wells/s, "
                  f"{p.elapsed / 60:.1f} min", file=sys.stderr, flush=True)

    return search.run(seconds=minutes * 60, progress=progress)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--widths", default="1000,10000,100000")
    parser.add_argument("--minutes", type=float, default=30.0, help="time cap per beam search")
    parser.add_argument("--lookahead", type=int, default=0)
    parser.add_argument("--weights", default="kibitz,df", help="weight sets to run, of: kibitz, df")
    parser.add_argument("--skip-children", action="store_true")
    args = parser.parse_args()
    print(f"machine: {platform.processor() or platform.machine()}, {os.cpu_count()} cores")
    if not args.skip_children:
        wells = record_wells()
        micros, per_well = children_timing(wells)
        print("\nChildren of a well (AI choice over 7 pieces + the chosen piece's child wells), one core")
        print(f"{'wells':>8} {'children/well':>14} {'ours':>10} {'anchor (D&F Rust, waveforms)':>30}")
        print(f"{len(wells):>8} {per_well:>14.1f} {micros:>7.1f} us {'48 us':>30}")
    print(f"\nBeam search from the empty well, lookahead {args.lookahead}, cap {args.minutes:g} min")
    print(f"{'weights':>8} {'width':>8} {'lines':>6} {'pieces':>7} {'minutes':>8} {'wells/s':>10} {'ended':>10}  anchor")
    best = None
    for weights in args.weights.split(","):
        for width in (int(w) for w in args.widths.split(",")):
            result = beam_run(width, args.minutes, args.lookahead, WEIGHT_SETS[weights])
            rate = result.children / result.seconds if result.seconds else 0
            ended = "beam died" if result.finished else "time cap"
            print(f"{weights:>8} {width:>8,} {result.score:>6} {result.pieces:>7} {result.seconds / 60:>8.1f} "
                  f"{rate:>10,.0f} {ended:>10}  31 lines (2010-2017 record) within 30 min", flush=True)
            if best is None or result.score > best.score:
                best = result
    if best is not None:
        print(f"\nbest game: {best.score} lines, {best.pieces} pieces; Base2048 replay:\n{best.replay}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
