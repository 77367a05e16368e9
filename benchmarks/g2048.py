"""2048 strength and speed of the expectimax advisor beside the anchors of spec 4.

Plays whole games from a fixed list of seeds (1, 2, 3, ...), one after another, each move searched
by the expectimax with nneonneo's published heuristic and adaptive depth (probability cut-off
``--cutoff``, default Kibitz's 3e-4; nneonneo's is 1e-4) on ``--threads`` threads, until
``--minutes`` are spent and at least ``--games`` games are played.
Prints each game as it ends and a table: average and median score, the share of games reaching
2048 ... 65536, and milliseconds per move (wall clock), beside nneonneo's and macroxue's rows.

    python benchmarks/g2048.py [--games 20] [--minutes 60] [--threads 2] [--json results.json]
    python benchmarks/g2048.py --log games.jsonl --first-seed 13   # go on where a run stopped
    python benchmarks/g2048.py --table games.jsonl                 # the table of a log, no play
    python benchmarks/g2048.py --table games.jsonl --nneonneo 2048-ai/bin/2048.so

With ``--log`` every finished game is appended to a JSON-lines file, so a run cut short keeps its
games and a later run with the next ``--first-seed`` adds to them; the table covers the whole log.
The log also keeps every ``--every``-th position of each game (the board before the slide).

``--nneonneo LIBRARY`` times nneonneo's own search on those logged positions (``--positions``
of them, evenly spread, 1000 by default), each position searched by Kibitz and by nneonneo in turn, so both meet the machine in the same state (a shared
machine's speed drifts by a third over minutes). LIBRARY is the ``bin/2048.so`` that nneonneo's
repository builds (``./configure && make``); its ``score_toplevel_move(board, move)`` is called for
the four slides, as its ``find_best_move`` does, on one core. Kibitz is timed twice: as the
benchmark plays, and with nneonneo's settings (cut-off 1e-4, one thread) to compare the engines.
"""

from __future__ import annotations

import argparse
import dataclasses
import contextlib
import ctypes
import json
import os
import platform
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import numpy as np  # noqa: E402

from advisors.g2048 import Budget, Expectimax  # noqa: E402
from advisors.g2048.search import NNEONNEO_THRESHOLD, PROBABILITY_THRESHOLD, packed  # noqa: E402
from advisors.g2048.selfplay import GameRecord, play_game, summary  # noqa: E402
from engines.files import write_text_atomic  # noqa: E402
from engines.g2048 import State  # noqa: E402
from engines.g2048.fast import unpack  # noqa: E402

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
    parser.add_argument("--every", type=int, default=50, help="log every N-th position of each game (default 50)")
    parser.add_argument("--nneonneo", type=Path, default=None,
                        help="nneonneo's bin/2048.so: time it and Kibitz on the logged positions")
    parser.add_argument("--positions", type=int, default=1000,
                        help="with --nneonneo: at most this many logged positions, evenly spread (default 1000)")
    args = parser.parse_args()
    if args.table is not None:
        records, positions = read_log(args.table)
        print_table(records, f"Kibitz ({len(records)} games)")
        if args.nneonneo is not None:
            if len(positions) > args.positions > 0:
                step = len(positions) / args.positions
                positions = [positions[int(i * step)] for i in range(args.positions)]
            compare_with_nneonneo(args.nneonneo, positions, args.threads, args.cutoff)
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
        positions: list[str] = []

        def keep(state: State, moves: int) -> None:
            if moves % args.every == 0 and not state.spawns_due:
                positions.append(f"{int(packed(state)):016x}")

        record = play_game(seed, advisor, budget, progress=keep)
        records.append(record)
        if args.log is not None:
            with open(args.log, "a", encoding="utf-8") as log:
                log.write(json.dumps({**record.as_json(), "positions": positions}) + "\n")
        print(f"seed {seed:>3}: score {record.score:>9,}  max {record.max_tile:>6}  {record.moves:>6} moves  "
              f"{record.ms_per_move:6.2f} ms/move  {(time.perf_counter() - game_began) / 60:5.1f} min", flush=True)
        seed += 1
    elapsed = (time.perf_counter() - began) / 60
    print(f"\n{len(records)} games in {elapsed:.1f} min\n")
    if args.log is not None:
        records, _ = read_log(args.log)
    print_table(records, f"Kibitz ({len(records)} games, {args.threads} threads, {args.cutoff:g})")
    if args.json is not None:
        write_text_atomic(args.json, json.dumps(
            {"games": [r.as_json() for r in records], "summary": summary(records), "threads": args.threads,
             "cutoff": args.cutoff, "depth": args.depth, "minutes": round(elapsed, 1)}, indent=1) + "\n")


def read_log(path: Path) -> tuple[list[GameRecord], list[int]]:
    """The games of a --log file and the positions logged with them (as bitboards)."""
    fields = {field.name for field in dataclasses.fields(GameRecord)}
    records, positions = [], []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        if not line.strip():
            continue
        try:
            entry = json.loads(line)
            records.append(GameRecord(**{key: value for key, value in entry.items() if key in fields}))
            positions.extend(int(board, 16) for board in entry.get("positions", []))
        except (ValueError, TypeError) as error:
            raise SystemExit(f"{path}, line {number}: not a game record: {error}") from None
    return records, positions


def print_table(records: list[GameRecord], name: str) -> None:
    total = summary(records)
    header = f"| {'system':<42} | {'score':>34} | " + " | ".join(f"{t:>5}" for t in TILES) + f" | {'ms/move':>9} |"
    print(header)
    print("|" + "|".join("-" * (len(part)) for part in header.split("|")[1:-1]) + "|")
    ours = (f"average {total['average_score']:,.0f} / median {total['median_score']:,.0f}",
            tuple(f"{total['reached_percent'][t]:g}" for t in TILES), f"{total['ms_per_move']:.1f} ms")
    for row_name, score, shares, speed in [(name, *ours)] + ANCHORS:
        print(f"| {row_name:<42} | {score:>34} | " + " | ".join(f"{s:>5}" for s in shares) + f" | {speed:>9} |")


def compare_with_nneonneo(library: Path, positions: list[int], threads: int, cutoff: float) -> None:
    """Time nneonneo's search and Kibitz's on the same positions, in turn position by position."""
    if not positions:
        raise SystemExit("the log holds no positions: play with --log (and --every) first")
    try:
        nneonneo = ctypes.CDLL(str(library.resolve()))
    except OSError as error:
        raise SystemExit(f"{library}: cannot load: {error}") from None
    nneonneo.init_tables()
    nneonneo.score_toplevel_move.argtypes = [ctypes.c_uint64, ctypes.c_int]
    nneonneo.score_toplevel_move.restype = ctypes.c_float
    # nneonneo's codes: 0 up, 1 down, 2 left, 3 right; Kibitz's: 0 up, 1 right, 2 down, 3 left.
    nneonneo_to_kibitz = (0, 2, 3, 1)
    kibitz = Expectimax(threshold=cutoff, threads=threads)
    like_nneonneo = Expectimax(threshold=NNEONNEO_THRESHOLD, threads=1)
    spent = {"kibitz": 0.0, "like": 0.0, "nneonneo": 0.0}
    agree = 0
    print(f"\n# {len(positions)} logged positions, each searched by Kibitz ({threads} threads, {cutoff:g}), "
          f"Kibitz (1 thread, {NNEONNEO_THRESHOLD:g}) and nneonneo's library, in turn")
    for done, board in enumerate(positions, start=1):
        state = State(unpack(np.uint64(board)))
        began = time.perf_counter()
        ours = kibitz.evaluate(state).best_direction
        spent["kibitz"] += time.perf_counter() - began
        began = time.perf_counter()
        like_nneonneo.evaluate(state)
        spent["like"] += time.perf_counter() - began
        began = time.perf_counter()
        with _quiet_stdout():  # its score_toplevel_move prints a line per call
            scores = [nneonneo.score_toplevel_move(board, move) for move in range(4)]
        spent["nneonneo"] += time.perf_counter() - began
        theirs = nneonneo_to_kibitz[max(range(4), key=lambda move: (scores[move], -move))]
        agree += ours == theirs
        if done % 500 == 0:
            print(f"  {done} positions", file=sys.stderr, flush=True)
    per_move = {name: 1000.0 * seconds / len(positions) for name, seconds in spent.items()}
    print(f"| {'on the same positions':<42} | {'ms/move':>9} | {'vs nneonneo':>11} |")
    print(f"|{'-' * 44}|{'-' * 11}|{'-' * 13}|")
    for name, label in (("nneonneo", "nneonneo/2048-ai (its library, 1 core)"),
                        ("like", "Kibitz, nneonneo's cut-off, 1 thread"),
                        ("kibitz", f"Kibitz as benchmarked ({threads} threads, {cutoff:g})")):
        print(f"| {label:<42} | {per_move[name]:>9.1f} | {per_move[name] / per_move['nneonneo']:>10.2f}x |")
    print(f"\nKibitz as benchmarked chose nneonneo's slide at {agree} of {len(positions)} positions "
          f"({100.0 * agree / len(positions):.0f} %).")


@contextlib.contextmanager
def _quiet_stdout():
    sys.stdout.flush()
    saved = os.dup(1)
    with open(os.devnull, "wb") as null:
        os.dup2(null.fileno(), 1)
        try:
            yield
        finally:
            os.dup2(saved, 1)
            os.close(saved)


if __name__ == "__main__":
    main()
