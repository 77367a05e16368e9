"""2048 strength and speed of the expectimax advisor beside the anchors of spec 4.

Plays whole games from a fixed list of seeds (1, 2, 3, ...), one after another, each move searched
by the expectimax with nneonneo's published heuristic and adaptive depth (probability cut-off
``--cutoff``, default Kibitz's 3e-4; nneonneo's is 1e-4) on ``--threads`` threads, until ``--minutes`` are spent (at least ``--games`` games are played).
Prints each game as it ends and a table: average and median score, the share of games reaching
2048 ... 65536, and milliseconds per move (wall clock), beside nneonneo's and macroxue's rows.

    python benchmarks/g2048.py [--games 20] [--minutes 60] [--threads 2] [--json results.json]
    python benchmarks/g2048.py --log games.jsonl --first-seed 13   # go on where a run stopped
    python benchmarks/g2048.py --table games.jsonl                 # the table of a log, no play

With ``--log`` every finished game is appended to a JSON-lines file, so a run cut short keeps its
games and a later run with the next ``--first-seed`` adds to them; the table covers the whole log.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from advisors.g2048 import Budget, Expectimax  # noqa: E402
from advisors.g2048.search import PROBABILITY_THRESHOLD  # noqa: E402
from advisors.g2048.selfplay import GameRecord, play_game, summary  # noqa: E402
from engines.files import write_text_atomic  # noqa: E402

TILES = ("2048", "4096", "8192", "16384", "32768", "65536")

# Spec 4 (average or median score, % reaching each tile, time per move).
ANCHORS = [
    ("nneonneo/2048-ai, 100 games (2014)", "median 387,222", ("100", "100", "100", "94", "36", "-"),
     "10-200 ms"),
    ("nneonneo/2048-ai on this machine, 1 core", "1 game to 8192", ("", "", "", "", "", ""), "86 ms"),
    ("macroxue 2019 small tables, depth 3", "417,381", ("-", "-", "91.6", "77.4", "37.8", "1.0"), "0.2 ms"),
    ("macroxue 2019 small tables, depth 8", "647,347", ("-", "-", "99.5", "96.8", "72.1", "2.8"), "67 ms"),
    ("macroxue 2022 big tables, depth 3", "493,058", ("99.7", "98.3", "93.7", "81.4", "52.5", "1.3"), "0.155 ms"),
    ("macroxue 2022 big tables, depth 8", "711,769", ("100", "100", "99.7", "98.7", "80.5", "3.5"), "58 ms"),
]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=20, help="at least this many games (default 20)")
    parser.add_argument("--minutes", type=float, default=60.0, help="start no new game after this (default 60)")
    parser.add_argument("--first-seed", type=int, default=1)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--depth", type=int, default=None, help="fixed depth instead of the adaptive one")
    parser.add_argument("--cutoff", type=float, default=PROBABILITY_THRESHOLD,
                        help=f"probability cut-off (default {PROBABILITY_THRESHOLD:g})")
    parser.add_argument("--json", type=Path, default=None, help="also write every game and the summary here")
    parser.add_argument("--log", type=Path, default=None, help="append each finished game to this JSON-lines file")
    parser.add_argument("--table", type=Path, default=None, help="print the table of a --log file and stop")
    args = parser.parse_args()
    if args.table is not None:
        records = read_log(args.table)
        print_table(records, f"Kibitz ({len(records)} games)")
        return

    print(f"# 2048 expectimax benchmark: {platform.processor() or platform.machine()}, {os.cpu_count()} cores, "
          f"{args.threads} search threads, depth {'adaptive' if args.depth is None else args.depth}, "
          f"cut-off {args.cutoff:g}")
    budget = Budget(depth=args.depth)
    began = time.perf_counter()
    records = []
    seed = args.first_seed
    while len(records) < args.games or (time.perf_counter() - began) < args.minutes * 60:
        advisor = Expectimax(threshold=args.cutoff, threads=args.threads)
        game_began = time.perf_counter()
        record = play_game(seed, advisor, budget)
        records.append(record)
        if args.log is not None:
            with open(args.log, "a", encoding="utf-8") as log:
                log.write(json.dumps(record.as_json()) + "\n")
        print(f"seed {seed:>3}: score {record.score:>9,}  max {record.max_tile:>6}  {record.moves:>6} moves  "
              f"{record.ms_per_move:6.2f} ms/move  {(time.perf_counter() - game_began) / 60:5.1f} min", flush=True)
        seed += 1
    total = summary(records)
    elapsed = (time.perf_counter() - began) / 60
    print(f"\n{len(records)} games in {elapsed:.1f} min\n")
    if args.log is not None:
        records = read_log(args.log)
    print_table(records, f"Kibitz ({len(records)} games, {args.threads} threads, {args.cutoff:g})")
    if args.json is not None:
        write_text_atomic(args.json, json.dumps(
            {"games": [r.as_json() for r in records], "summary": summary(records), "threads": args.threads,
             "cutoff": args.cutoff, "depth": args.depth, "minutes": round(elapsed, 1)}, indent=1) + "\n")


def read_log(path: Path) -> list[GameRecord]:
    records = []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        if line.strip():
            try:
                records.append(GameRecord(**json.loads(line)))
            except (ValueError, TypeError) as error:
                raise SystemExit(f"{path}, line {number}: not a game record: {error}") from None
    return records


def print_table(records: list[GameRecord], name: str) -> None:
    total = summary(records)
    header = f"| {'system':<42} | {'score':>34} | " + " | ".join(f"{t:>5}" for t in TILES) + f" | {'ms/move':>9} |"
    print(header)
    print("|" + "|".join("-" * (len(part)) for part in header.split("|")[1:-1]) + "|")
    ours = (f"average {total['average_score']:,.0f} / median {total['median_score']:,.0f}",
            tuple(f"{total['reached_percent'][t]:g}" for t in TILES), f"{total['ms_per_move']:.1f} ms")
    for row_name, score, shares, speed in [(name, *ours)] + ANCHORS:
        print(f"| {row_name:<42} | {score:>34} | " + " | ".join(f"{s:>5}" for s in shares) + f" | {speed:>9} |")


if __name__ == "__main__":
    main()
