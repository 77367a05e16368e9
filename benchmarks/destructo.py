"""Destruct-o-Match advisors, strength and speed, beside the anchors of spec 4.1.

Plays full ten-level games from seeds 1..N (levels, power-ups and Fill rows dealt from the seed,
the same deals for every player) with Irpan's published search (depth 3, expand 6) and with the
level planner (beam search to the end of the level, ``--ms`` a click; it spends a banked Undo after
a big click, ``planner-no-undo`` does not), and prints mean, spread and
seconds per click beside the published figures. ``--jobs 2`` plays two games at once, each in
its own process on its own core (the search itself is single-threaded).

    python benchmarks/destructo.py [--games 30] [--ms 150] [--jobs 2] [--log games.jsonl]
    python benchmarks/destructo.py --table games.jsonl        # the table of a log, no play
"""

from __future__ import annotations

import argparse
import json
import math
import os
import platform
import sys
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

#: Spec 4.1 (Irpan 2025; 100 simulated games each; seconds per move on his laptop, Python).
ANCHORS = (
    ("Irpan: random group", "≈ 1,700", "", ""),
    ("Irpan: colour order, then top-most", "≈ 1,870–1,900", "", ""),
    ("Irpan: search depth 1", "2,233.38", "", ""),
    ("Irpan: depth 2, expand 9", "2,343.34", "", ""),
    ("Irpan: depth 3, expand 3", "2,373.37", "", ""),
    ("Irpan: depth 3, expand 6", "2,426.84", "", "≈ 1.5 s"),
    ("avatar threshold", "2,500", "", ""),
)


PLAYERS = ("irpan", "planner", "planner-no-undo")


def _play(job: tuple[str, int, float]) -> dict:
    from advisors.destructo.selfplay import irpan_player, play_game, planner_player

    player, seed, budget = job
    chooser = irpan_player(3, 6) if player == "irpan" else planner_player(budget, use_undo=player == "planner")
    record = play_game(seed, chooser)
    return {"player": player, **record.as_json()}


def _warm_up(_: int = 0) -> None:
    """Compile or load the kernels before any clock starts."""
    from advisors.destructo.selfplay import best_click
    from advisors.destructo.planner import search
    from engines.destructo import GAME
    import numpy as np

    state = GAME.initial_state()
    state = GAME.apply_chance(state, GAME.sample_chance(state, np.random.default_rng(0))).state
    best_click(state)
    search(state.board, 4)


def read_log(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def _row(name: str, games: list[dict]) -> tuple[str, str, str, str]:
    scores = [g["score"] for g in games]
    mean = sum(scores) / len(scores)
    spread = math.sqrt(sum((s - mean) ** 2 for s in scores) / (len(scores) - 1)) if len(scores) > 1 else 0.0
    moves = sum(g["moves"] for g in games)
    seconds = sum(g["ms_per_move"] * g["moves"] for g in games) / moves / 1000.0
    slowest = max(g["slowest_ms"] for g in games) / 1000.0
    reached = 100.0 * sum(s >= 2500 for s in scores) / len(scores)
    return (f"{name} ({len(games)} games)", f"{mean:,.1f} ± {spread:,.0f} (σ)",
            f"{min(scores):,}–{max(scores):,}, {reached:.0f} % ≥ 2,500", f"{seconds:.3f} s (slowest {slowest:.2f} s)")


def print_table(games: list[dict], budget: float | None) -> None:
    header = ("system", "mean score", "range", "per click")
    rows = []
    irpan = [g for g in games if g["player"] == "irpan"]
    ours = [g for g in games if g["player"] == "planner"]
    no_undo = [g for g in games if g["player"] == "planner-no-undo"]
    if irpan:
        rows.append(_row("Kibitz: Irpan's search D3E6", irpan))
    if no_undo:
        rows.append(_row(f"Kibitz: level planner, no Undo{f', {budget:g} ms' if budget else ''}", no_undo))
    if ours:
        rows.append(_row(f"Kibitz: level planner{f', {budget:g} ms' if budget else ''}", ours))
    rows.extend(ANCHORS)
    print()
    widths = [max(len(row[i]) for row in rows + [header]) for i in range(4)]
    line = "| " + " | ".join(f"{{:<{w}}}" for w in widths) + " |"
    print(line.format(*header))
    print("|" + "|".join("-" * (w + 2) for w in widths) + "|")
    for row in rows:
        print(line.format(*row))
    both = {g["seed"]: g["score"] for g in irpan}
    for name, player in (("the planner without Undo", no_undo), ("the planner", ours)):
        pairs = [(g["score"], both[g["seed"]]) for g in player if g["seed"] in both]
        if pairs:
            wins = sum(a > b for a, b in pairs)
            gain = sum(a - b for a, b in pairs) / len(pairs)
            print(f"same deals: {name} beats D3E6 in {wins} of {len(pairs)} games, by {gain:+,.1f} points on average")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=30, help="games per player, seeds 1..N (default 30)")
    parser.add_argument("--first-seed", type=int, default=1)
    parser.add_argument("--ms", type=float, default=150.0, help="the planner's budget a click (default 150)")
    parser.add_argument("--players", default="irpan,planner",
                        help="which players, comma-separated: irpan (D3E6), planner, planner-no-undo (the planner "
                             "without spending the banked Undo)")
    parser.add_argument("--jobs", type=int, default=2, help="games at once, one process each (default 2)")
    parser.add_argument("--log", type=Path, default=None, help="append each game to this JSON-lines file")
    parser.add_argument("--table", type=Path, default=None, help="print the table of a --log file and stop")
    args = parser.parse_args()
    if args.table is not None:
        print_table(read_log(args.table), None)
        return
    players = [p.strip() for p in args.players.split(",") if p.strip()]
    if not players or any(p not in PLAYERS for p in players):
        parser.error(f"--players takes {', '.join(PLAYERS)}")
    print(f"# Destruct-o-Match benchmark: {platform.processor() or platform.machine()}, {os.cpu_count()} cores, "
          f"{args.jobs} games at once, {args.games} games a player, planner {args.ms:g} ms a click", flush=True)
    jobs = [(player, seed, args.ms) for player in players
            for seed in range(args.first_seed, args.first_seed + args.games)]
    games = []
    with ProcessPoolExecutor(args.jobs) as pool:
        list(pool.map(_warm_up, range(args.jobs)))
        for result in pool.map(_play, jobs):
            games.append(result)
            print(f"{result['player']:>8} seed {result['seed']:>3}: {result['score']:,} in {result['moves']} clicks, "
                  f"{result['ms_per_move']:.1f} ms a click", flush=True)
            if args.log is not None:
                with args.log.open("a") as log:
                    log.write(json.dumps(result) + "\n")
    print()
    print_table(games, args.ms)


if __name__ == "__main__":
    main()
