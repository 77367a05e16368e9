"""HATETRIS small wells solved exactly: our breadth-first search against the reference table.

    python benchmarks/hatetris_small_wells.py [--max-states N]

Runs ``advisors.hatetris.exhaustive.breadth_first`` on every row of
``shared/data/hatetris/small_well_bfs.tsv`` that has exhaustive re-run values (spec 3.10), smallest
first, and prints our score / length / width / total states beside the file's re-run values and the
values published on hallofdreams.org, with the seconds each search took. ``--max-states`` skips the
rows whose re-run searched more states than that (the largest, 6 x 10, visits 38 million states).
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from advisors.hatetris.exhaustive import breadth_first  # noqa: E402


def _data_dir() -> Path | None:
    configured = os.environ.get("KIBITZ_REFERENCE_DATA")
    path = Path(configured) if configured else Path(__file__).resolve().parents[2] / "shared" / "data"
    return path / "hatetris" if (path / "hatetris").is_dir() else None


def _rows(path: Path) -> list[dict[str, str]]:
    header, *lines = path.read_text(encoding="utf-8").splitlines()
    names = header.split("\t")
    return [dict(zip(names, line.split("\t"), strict=True)) for line in lines if line.strip()]


def _values(row: dict[str, str], prefix: str) -> str:
    parts = [row[f"{prefix}_{name}"] for name in ("score", "length", "max_width")]
    if prefix == "rerun":
        parts.append(row["rerun_total_states"])
    return " / ".join(f"{int(part):,}" if part else "-" for part in parts)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--max-states", type=int, default=None,
                        help="skip rows whose re-run searched more states than this")
    args = parser.parse_args()

    data = _data_dir()
    if data is None:
        print("shared/data/hatetris not found; set KIBITZ_REFERENCE_DATA")
        return 1
    rows = [row for row in _rows(data / "small_well_bfs.tsv") if row["rerun_total_states"]]
    rows.sort(key=lambda row: int(row["rerun_total_states"]))
    skipped = [row for row in rows if args.max_states is not None and int(row["rerun_total_states"]) > args.max_states]
    rows = [row for row in rows if row not in skipped]

    started = time.perf_counter()
    breadth_first(4, 2)  # compile or load the kernels outside the timings
    print(f"(kernels ready in {time.perf_counter() - started:.1f} s)")
    print("score / length / max width / total states")
    header = f"{'w x h':>6}  {'ours':<40} {'file re-run':<40} {'blog':<28} {'match':>5} {'seconds':>8}"
    print(header)
    print("-" * len(header))
    mismatches = 0
    for row in rows:
        width, height = int(row["width"]), int(row["height"])
        started = time.perf_counter()
        result = breadth_first(width, height)
        seconds = time.perf_counter() - started
        ours = (result.score, result.length, result.max_width, result.total_states)
        expected = tuple(int(row[f"rerun_{name}"]) for name in ("score", "length", "max_width", "total_states"))
        match = ours == expected
        mismatches += not match
        ours_text = " / ".join(f"{value:,}" for value in ours)
        print(f"{width:>2} x {height:<2}  {ours_text:<40} {_values(row, 'rerun'):<40} {_values(row, 'blog'):<28} "
              f"{'yes' if match else 'NO':>5} {seconds:>8.2f}", flush=True)
    for row in skipped:
        print(f"{row['width']:>2} x {row['height']:<2}  skipped (--max-states): re-run searched "
              f"{int(row['rerun_total_states']):,} states")
    print(f"{len(rows) - mismatches} of {len(rows)} rows reproduce the file's re-run values")
    return 1 if mismatches else 0


if __name__ == "__main__":
    sys.exit(main())
