"""SPL-T engine speed: random playouts (one core) and record replays, with the spec's anchors.

    python benchmarks/splt_engine.py [--seconds 10]

Both engine paths run in the same process, one after the other. The anchors are the figures of
josh-holder/SPLT's Python emulator measured in shared/specs/splt.md section 4.2 on a 2-core
virtual machine of the same kind as ours.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from app.cli.games.splt import playout_table  # noqa: E402
from engines import GAMES  # noqa: E402

TARGET_SPLITS_PER_SECOND = 200_000
ANCHOR_EMULATOR_SPLITS_PER_SECOND = 1_900  # uniform random games, 20.5 games/s
ANCHOR_REPLAY_SECONDS = {"1053seq.txt": 1.8, "1133seq.txt": 1.7, "1196seq.txt": 1.7}


def _data_dir() -> Path | None:
    configured = os.environ.get("KIBITZ_REFERENCE_DATA")
    path = Path(configured) if configured else Path(__file__).resolve().parents[2] / "shared" / "data"
    return path / "splt" if (path / "splt").is_dir() else None


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=10.0, help="time per engine path")
    args = parser.parse_args()

    numba_row, python_row = playout_table(args.seconds)
    print("SPL-T random playouts from the empty board, one core")
    print(f"{'engine':<26} {'splits/s':>10} {'games/s':>9} {'games':>9} {'mean len':>9} {'min':>4} {'max':>4}")
    for row in (numba_row, python_row):
        print(
            f"{row.path:<26} {row.splits_per_second:>10,.0f} {row.games_per_second:>9,.1f} {row.games:>9,} "
            f"{row.mean_length:>9.1f} {row.shortest:>4} {row.longest:>4}"
        )
    print(f"{'anchor: reference emulator':<26} {ANCHOR_EMULATOR_SPLITS_PER_SECOND:>10,} {20.5:>9,.1f} "
          f"{200:>9,} {93.8:>9.1f} {7:>4} {247:>4}")
    print(f"numba target: >= {TARGET_SPLITS_PER_SECOND:,} splits/s -> "
          f"{'met' if numba_row.splits_per_second >= TARGET_SPLITS_PER_SECOND else 'NOT met'}; "
          f"numba / our Python path = {numba_row.splits_per_second / python_row.splits_per_second:,.0f}x; "
          f"numba / reference emulator = {numba_row.splits_per_second / ANCHOR_EMULATOR_SPLITS_PER_SECOND:,.0f}x")

    data = _data_dir()
    if data is None:
        print("\n(record replays skipped: shared/data/splt not found; set KIBITZ_REFERENCE_DATA)")
        return 0
    game = GAMES["splt"]
    print("\nRecord replays (parse the index file, then replay every split)")
    print(f"{'file':<14} {'splits':>6} {'score':>8} {'ours (s)':>9} {'anchor (s)':>10}")
    game.replay_line(game.parse_sequence((data / "1196seq.txt").read_text()))  # warm caches
    for name, anchor in ANCHOR_REPLAY_SECONDS.items():
        began = time.perf_counter()
        final = game.replay_line(game.parse_sequence((data / name).read_text()))
        elapsed = time.perf_counter() - began
        print(f"{name:<14} {final.splits:>6} {final.score:>8} {elapsed:>9.3f} {anchor:>10.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
