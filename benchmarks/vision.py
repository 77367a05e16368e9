"""Board readers on the real screenshots: cells read right and milliseconds per read, per game.

Every transcribed real screenshot in the shared data (``tests/vision/truth_*.py`` turns each
transcription into the cells a reader must return) is read ``--repeat`` times; the table gives,
per game and per screenshot, the cells right out of the cells transcribed and the mean and
slowest time of a read (image already in memory, as in follow mode), beside the issue's targets.

    python benchmarks/vision.py [--data ../shared/data] [--repeat 20] [--json]
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

TARGET_ACCURACY = "100 %"
TARGET_MS = 100.0


def _data_dir(given: str | None) -> Path:
    if given:
        return Path(given)
    configured = os.environ.get("KIBITZ_REFERENCE_DATA")
    return Path(configured) if configured else Path(__file__).resolve().parents[2] / "shared" / "data"


def measure(data: Path, repeat: int) -> list[dict]:
    import vision
    from tests.vision.truth import all_cases

    rows = []
    for case in all_cases(data):
        image = case.load()
        times = []
        right = total = 0
        error = ""
        for attempt in range(repeat):
            started = time.perf_counter()
            try:
                reading = vision.read(case.game, image)
            except Exception as failure:  # a reader that fails is a row of the table, not a crash
                error = f"{type(failure).__name__}: {failure}"
                reading = None
            times.append((time.perf_counter() - started) * 1000)
            if attempt == 0:
                if reading is not None:
                    right, total = case.compare(case.expected, reading.cells)
                else:
                    right, total = 0, case.compare(case.expected, case.expected)[1]
        rows.append({"game": case.game, "image": case.name, "right": right, "total": total,
                     "ms_mean": statistics.fmean(times[1:] or times), "ms_max": max(times[1:] or times),
                     "error": error})
    return rows


def table(rows: list[dict]) -> str:
    lines = [f"| {'game':9} | {'real screenshot':36} | {'cells right':>13} | {'accuracy':>8} | "
             f"{'ms/read':>7} | {'slowest':>7} |",
             f"|{'-' * 11}|{'-' * 38}|{'-' * 15}|{'-' * 10}|{'-' * 9}|{'-' * 9}|"]
    for game in sorted({row["game"] for row in rows}):
        mine = [row for row in rows if row["game"] == game]
        for row in mine:
            accuracy = 100.0 * row["right"] / row["total"] if row["total"] else 0.0
            note = f"  ({row['error']})" if row["error"] else ""
            lines.append(f"| {game:9} | {row['image']:36} | {row['right']:>6} / {row['total']:<4} | "
                         f"{accuracy:7.1f}% | {row['ms_mean']:7.1f} | {row['ms_max']:7.1f} |{note}")
        right, total = sum(r["right"] for r in mine), sum(r["total"] for r in mine)
        lines.append(f"| {game:9} | {'all (' + str(len(mine)) + ')':36} | {right:>6} / {total:<4} | "
                     f"{100.0 * right / max(total, 1):7.1f}% | {statistics.fmean(r['ms_mean'] for r in mine):7.1f} | "
                     f"{max(r['ms_max'] for r in mine):7.1f} |")
    lines.append(f"| {'target':9} | {'(issue 9)':36} | {'':>13} | {TARGET_ACCURACY:>8} | {'≤ 100':>7} | {'':>7} |")
    return "\n".join(lines)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", default=None, help="the shared data folder (default ../shared/data or "
                        "$KIBITZ_REFERENCE_DATA)")
    parser.add_argument("--repeat", type=int, default=20, help="reads per screenshot (the first is not timed "
                        "in the mean: it loads templates)")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    data = _data_dir(args.data)
    if not data.is_dir():
        print(f"vision benchmark: no shared data at {data} (set KIBITZ_REFERENCE_DATA or --data)", file=sys.stderr)
        return 1
    rows = measure(data, max(2, args.repeat))
    if args.json:
        print(json.dumps(rows, indent=1))
        return 0
    print(f"Board readers on the real screenshots ({platform.processor() or platform.machine()}, "
          f"{os.cpu_count()} cores; {max(2, args.repeat)} reads each)\n")
    print(table(rows))
    return 0


if __name__ == "__main__":
    sys.exit(main())
