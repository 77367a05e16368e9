"""1010! planner speed and strength beside the anchors of spec 4.

Plays games from a fixed list of seeds (1, 2, 3, ...), one after another, every round planned by
the exhaustive search with Coelho's evaluation (``--weights``, default 10025), until ``--rounds``
rounds are played in all. Games end rarely (Coelho: 22,226 rounds on average), so the mean
rounds per game is estimated as all rounds played over the games that ended; the game still
running at the end counts its rounds but not as an ending. Prints each game as it ends and a table:
rounds per second (wall clock, ``--threads`` planner threads), evaluations per round, the mean
rounds estimate with the games it rests on, beside Coelho's figures.

    python benchmarks/tenten.py [--rounds 200000] [--threads 2] [--log games.jsonl] [--json out.json]
    python benchmarks/tenten.py --table games.jsonl        # the table of a log, no play
"""

from __future__ import annotations

import argparse
import json
import math
import os
import platform
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from advisors.tenten import Planner, Weights  # noqa: E402
from advisors.tenten.selfplay import GameRecord, play_game, summary  # noqa: E402
from engines.files import write_text_atomic  # noqa: E402

COELHO = {"mean_rounds": 22226, "rounds_per_second": 120.0, "evaluations_per_round": 558000}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rounds", type=int, default=200_000, help="rounds to play in all (default 200,000)")
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--weights", default="10025")
    parser.add_argument("--first-seed", type=int, default=1)
    parser.add_argument("--log", type=Path, default=None, help="append each game to this JSON-lines file")
    parser.add_argument("--json", type=Path, default=None, help="also write every game and the summary here")
    parser.add_argument("--table", type=Path, default=None, help="print the table of a --log file and stop")
    args = parser.parse_args()
    if args.table is not None:
        print_table(read_log(args.table), f"Kibitz, log {args.table.name}")
        return
    weights = Weights.parse(args.weights)
    planner = Planner(weights, threads=args.threads)
    print(f"# 1010! planner benchmark: {platform.processor() or platform.machine()}, {os.cpu_count()} cores, "
          f"{args.threads} planner threads, weights {weights}, {args.rounds:,} rounds", flush=True)
    play_game(0, planner, rounds_cap=3)  # compile or load the kernels before the clock starts
    records: list[GameRecord] = []
    began = time.perf_counter()
    seed = args.first_seed
    played = 0
    while played < args.rounds:
        game_began = time.perf_counter()
        record = play_game(seed, planner, rounds_cap=args.rounds - played)
        records.append(record)
        played += record.rounds
        if args.log is not None:
            with open(args.log, "a", encoding="utf-8") as log:
                log.write(json.dumps({**record.as_json(), "weights": str(weights), "threads": args.threads}) + "\n")
        print(f"seed {seed:>4}: {'ended' if record.over else 'cut  '} after {record.rounds:>9,} rounds, score "
              f"{record.score:>12,}, {record.ms_per_round:6.3f} ms/round, "
              f"{(time.perf_counter() - game_began) / 60:5.1f} min", flush=True)
        seed += 1
    elapsed = (time.perf_counter() - began) / 60
    print(f"\n{len(records)} games, {played:,} rounds in {elapsed:.1f} min\n")
    if args.log is not None:
        records = read_log(args.log)
    print_table(records, f"Kibitz ({args.threads} threads, {weights})")
    if args.json is not None:
        write_text_atomic(args.json, json.dumps(
            {"games": [r.as_json() for r in records], "summary": summary(records), "threads": args.threads,
             "weights": str(weights), "minutes": round(elapsed, 1)}, indent=1) + "\n")


def read_log(path: Path) -> list[GameRecord]:
    fields = set(GameRecord.__dataclass_fields__)
    records = []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        if not line.strip():
            continue
        try:
            entry = json.loads(line)
            records.append(GameRecord(**{key: value for key, value in entry.items() if key in fields}))
        except (ValueError, TypeError) as error:
            raise SystemExit(f"{path}, line {number}: not a game record: {error}") from None
    return records


def print_table(records: list[GameRecord], name: str) -> None:
    total = summary(records)
    ended = total["games_ended"]
    if ended:
        mean = total["rounds"] / ended
        # Rounds to the end are close to geometric: the estimate's standard error is about mean/sqrt(ended).
        estimate = f"{mean:,.0f} ± {mean / math.sqrt(ended):,.0f} ({ended} ended, {total['rounds']:,} rounds)"
    else:
        estimate = f"none ended in {total['rounds']:,} rounds"
    speed = 1000.0 / total["ms_per_round"] if total["ms_per_round"] else 0.0
    print(f"| {'system':<38} | {'mean rounds per game':>42} | {'rounds/s':>8} | {'ms/round':>8} | "
          f"{'evaluations/round':>17} |")
    print(f"|{'-' * 40}|{'-' * 44}|{'-' * 10}|{'-' * 10}|{'-' * 19}|")
    print(f"| {'Coelho zx80/1010, 10025 (spec 4)':<38} | {'22,226 (500 games)':>42} | {'≈ 120':>8} | "
          f"{'≈ 8':>8} | {'≈ 558,000':>17} |")
    print(f"| {name:<38} | {estimate:>42} | {speed:>8.0f} | {total['ms_per_round']:>8.2f} | "
          f"{total['evaluations_per_round']:>17,.0f} |")
    print(f"\naverage score {total['average_score']:,.0f} over {total['games']} games (the last may be cut short); "
          f"best {total['max_score']:,}")


if __name__ == "__main__":
    main()
