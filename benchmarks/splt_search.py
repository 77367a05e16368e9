"""ParanoidPlay strength against time, beside the anchors of spec 4.1-4.2.

    python benchmarks/splt_search.py                 # 3 runs of 10 minutes on 2 workers
    python benchmarks/splt_search.py --minutes 30 --runs 1

Each run is a fresh ``kibitz search splt`` (ParanoidPlay with the default settings: the blog's
algorithm of spec 3.6 plus a new opening after 20,000 games without progress) from the empty board
with its own seed. The table gives the best game after each mark (each best is replayed with the plain-Python rules
as a check), the time and games needed to
first reach 1000 splits, and games per second, then the median over the runs and the reference
Python implementation's figures measured on the same kind of machine. A last row replays the
1053 variant (the reference code as committed), which is deterministic.
"""

from __future__ import annotations

import argparse
import dataclasses
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from advisors.splt.parallel import ParallelSearch, Progress  # noqa: E402
from advisors.splt.search import Settings  # noqa: E402
from engines.splt import reference  # noqa: E402

TARGET = 1000


@dataclasses.dataclass
class RunResult:
    seed: int
    verified: bool  # the best game replayed by the plain-Python reference path ends as reported
    best_at: dict[float, int]
    seconds_to_target: float | None
    games_to_target: int | None
    best: int
    games: int
    seconds: float


def _verify(result) -> bool:
    """Replay the best game move by move with the plain-Python rules (not the numba kernel)."""
    state = result.best_line.start
    for move in result.best_line.moves:
        state = reference.play(state, move).state
    return state.is_over() and (state.splits, state.score) == (result.best_splits, result.best_score)


def one_run(minutes: float, marks: list[float], workers: int, seed: int, settings: Settings,
            keep: str | None) -> RunResult:
    timeline: list[tuple[float, int, int]] = []  # (elapsed, best, games)

    def progress(report: Progress) -> None:
        timeline.append((report.elapsed, report.best_splits, report.games))
        if report.new_best:
            print(f"  {report.elapsed:7.1f} s  best {report.best_splits:5d}  games {report.games:,}", flush=True)

    with tempfile.TemporaryDirectory() as scratch:
        folder = Path(keep) / f"seed-{seed}" if keep else Path(scratch) / "run"
        search = ParallelSearch.create(folder, settings, workers=workers, seed=seed)
        result = search.run(seconds=minutes * 60, progress=progress)
    verified = _verify(result)
    best_at = {}
    for mark in marks:
        reached = [best for elapsed, best, _ in timeline if elapsed <= mark * 60]
        best_at[mark] = max(reached, default=0)
    first = next(((elapsed, games) for elapsed, best, games in timeline if best >= TARGET), (None, None))
    return RunResult(seed, verified, best_at, first[0], first[1], result.best_splits, result.games, result.seconds)


def reference_variant() -> tuple[float, int, int]:
    with tempfile.TemporaryDirectory() as folder:
        search = ParallelSearch.create(Path(folder) / "run", Settings.reference_1053(), workers=1, seed=1)
        began = time.monotonic()
        result = search.run(games=696)
        return time.monotonic() - began, result.best_splits, result.games


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--minutes", type=float, default=10.0)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1, help="seed of the first run; run i uses seed + i")
    parser.add_argument("--keep", metavar="FOLDER", help="keep each run's search folder (best games) here")
    args = parser.parse_args()
    marks = [m for m in (1.0, 5.0, 10.0, 30.0) if m <= args.minutes]
    runs = []
    for number in range(args.runs):
        seed = args.seed + number
        print(f"run {number + 1}/{args.runs}: ParanoidPlay (default settings), {args.workers} workers, "
              f"{args.minutes:g} min, seed {seed}", flush=True)
        runs.append(one_run(args.minutes, marks, args.workers, seed, Settings(), args.keep))

    def cell(value, fmt="{:,}"):
        return "-" if value is None else fmt.format(value)

    header = ["", *[f"best @{m:g} min" for m in marks], f"time to {TARGET}", f"games to {TARGET}", "games/s",
              "best verified"]
    rows = []
    for run in runs:
        rows.append([
            f"seed {run.seed}", *[cell(run.best_at[m]) for m in marks],
            cell(run.seconds_to_target, "{:.0f} s"), cell(run.games_to_target),
            f"{run.games / run.seconds:,.0f}", "yes" if run.verified else "NO",
        ])
    if len(runs) > 1:
        reached = [r.seconds_to_target for r in runs if r.seconds_to_target is not None]
        rows.append([
            f"median of {len(runs)}", *[cell(statistics.median_low(r.best_at[m] for r in runs)) for m in marks],
            cell(statistics.median(reached), "{:.0f} s") if len(reached) * 2 > len(runs) else f"{len(reached)}/{len(runs)} reached",
            "", f"{statistics.median(r.games / r.seconds for r in runs):,.0f}", "",
        ])
    anchor = {1.0: "-", 5.0: "779", 10.0: "-", 30.0: "-"}
    rows.append([
        "anchor: reference Python", *[anchor[m] for m in marks], "~2 h (blog)", "~34,000", "6.4", "",
    ])
    rows.append(["anchor: records (spec 4.1)", *["" for _ in marks], "1196 algorithm", "1208 human-aided", "", ""])
    seconds, best, games = reference_variant()
    rows.append([
        "1053 variant (deterministic)", *["" for _ in marks], f"{seconds:.1f} s to {best}", f"{games:,}", "", "",
    ])
    widths = [max(len(str(row[i])) for row in [header, *rows]) for i in range(len(header))]
    print()
    print(f"SPL-T ParanoidPlay from the empty board, {args.workers} workers")
    for row in [header, *rows]:
        print("  ".join(str(value).rjust(width) if i else str(value).ljust(width)
                        for i, (value, width) in enumerate(zip(row, widths))))


if __name__ == "__main__":
    main()
