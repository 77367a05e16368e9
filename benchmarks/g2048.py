"""2048 strength and speed of the expectimax advisor, and its speed beside nneonneo's own program.

Plays whole games from a fixed list of seeds (1, 2, 3, ...), one after another, each move searched
by the expectimax with nneonneo's published heuristic and adaptive depth (probability cut-off
``--cutoff``, default Kibitz's 3e-4; nneonneo's is 1e-4) on ``--threads`` threads, until
``--minutes`` are spent and at least ``--games`` games are played.
Prints each game as it ends and a table: average and median score, the share of games reaching
2048 ... 65536, and milliseconds per move (wall clock), beside nneonneo's and macroxue's rows.

    python benchmarks/g2048.py [--games 20] [--minutes 60] [--threads 2] [--json results.json]
    python benchmarks/g2048.py --log games.jsonl --first-seed 13   # go on where a run stopped
    python benchmarks/g2048.py --table games.jsonl                 # the table of a log, no play
    python benchmarks/g2048.py --anchor ../2048-ai [--positions 300] [--markdown]   # beside nneonneo

With ``--log`` every finished game is appended to a JSON-lines file, so a run cut short keeps its
games and a later run with the next ``--first-seed`` adds to them; the table covers the whole log.
The log also keeps every ``--every``-th position of each game (the board before the slide).

Beside nneonneo (``--anchor PATH``, also spelt ``--nneonneo``): the anchor is nneonneo's own C++
program, https://github.com/nneonneo/2048-ai (measured at commit 41e298f4571a9505e421e3a19af7a1cb372a368c),
fetched and built by whoever runs the benchmark, outside Kibitz, with its own build settings::

    git clone https://github.com/nneonneo/2048-ai && cd 2048-ai && ./configure && make   # bin/2048.so

PATH is that checkout (or its ``bin/2048.so``). Its ``score_toplevel_move(board, move)`` is called
through ctypes for the four slides, as its ``find_best_move`` does. The positions are the 300 of
``benchmarks/g2048_positions.txt`` (spread over one game Kibitz played at a fixed depth of 3 from
seed 5 with its search of 2026-11-27: fixed, since that game changes with the search), or those of
``--table LOG``, or of one short game Kibitz plays now at depth 3 from ``--first-seed``;
``--positions`` of them evenly spread. The process is pinned to one core (``--core``; nneonneo's library runs in it), and
each position is searched in turn by nneonneo, by Kibitz at nneonneo's settings (cut-off 1e-4, its
adaptive depth max(3, distinct tiles - 2), its heuristic, one thread) and by Kibitz at its default
settings (cut-off 3e-4, one thread), so all meet the machine in the same state. Printed: each one's
ms per move (mean) in CPU time of the searching thread (the machine is shared: wall time also
counts other programs' turns on the core) and in wall time, the ratios of the means, the median
of the per-position CPU-time ratios with their 10th-90th percentiles, how often Kibitz chose
nneonneo's best slide, and the load average before and after. ``--two-threads`` also times
Kibitz's default with two threads on both cores (wall time, and CPU time of both threads).
Without the anchor it says so (on standard error) and times Kibitz alone. ``--markdown`` prints
only the result, a line of facts (machine, date, load, the anchor's commit) and a Markdown table,
for benchmarks/readme_tables.py.
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
from benchmarks.anchor_runs import anchor_commit, machine, now, print_facts_and_table  # noqa: E402

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
    parser.add_argument("--first-seed", type=int, default=None,
                        help="the first game's seed (default 1); beside the anchor, time the positions of a game "
                             "Kibitz plays now from this seed instead of benchmarks/g2048_positions.txt")
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--depth", type=int, default=None, help="fixed depth instead of the adaptive one")
    parser.add_argument("--cutoff", type=float, default=PROBABILITY_THRESHOLD,
                        help=f"probability cut-off (default {PROBABILITY_THRESHOLD:g})")
    parser.add_argument("--json", type=Path, default=None, help="also write every game and the summary here")
    parser.add_argument("--log", type=Path, default=None, help="append each finished game to this JSON-lines file")
    parser.add_argument("--table", type=Path, default=None, help="print the table of a --log file and stop")
    parser.add_argument("--every", type=int, default=50, help="log every N-th position of each game (default 50)")
    parser.add_argument("--anchor", "--nneonneo", dest="anchor", type=Path, default=None,
                        help=f"a checkout of {NNEONNEO_REPOSITORY} built with ./configure && make (or its "
                             "bin/2048.so): time it and Kibitz on the same positions")
    parser.add_argument("--positions", type=int, default=300,
                        help="beside the anchor: at most this many positions, evenly spread (default 300)")
    parser.add_argument("--core", type=int, default=None,
                        help="beside the anchor: the core to pin to (default the last one allowed)")
    parser.add_argument("--two-threads", action="store_true",
                        help="beside the anchor: also time Kibitz's default on two threads (wall and CPU time)")
    parser.add_argument("--markdown", action="store_true", help="beside the anchor: print a Markdown table")
    args = parser.parse_args()
    comparing = args.anchor is not None or args.markdown or args.two_threads
    if args.table is not None:
        records, positions = read_log(args.table)
        source = f"logged in {args.table.name}"
        if not comparing:
            print_table(records, f"Kibitz ({len(records)} games)")
            return
    elif comparing and args.first_seed is None:
        positions = read_positions(POSITIONS)
        source = f"{POSITIONS.name}: one game Kibitz played at depth 3 from seed 5 with its search of 2026-11-27"
    elif comparing:
        positions = game_positions(args.first_seed)
        source = f"one game Kibitz played at depth 3 from seed {args.first_seed}"
    if comparing:
        if len(positions) > args.positions > 0:
            step = len(positions) / args.positions
            positions = [positions[int(i * step)] for i in range(args.positions)]
        core = args.core if args.core is not None else max(os.sched_getaffinity(0))
        compare_with_nneonneo(args.anchor, positions, core, args.two_threads, args.markdown, source)
        return

    print(f"# 2048 expectimax benchmark: {platform.processor() or platform.machine()}, {os.cpu_count()} cores, "
          f"{args.threads} search threads, depth {'adaptive' if args.depth is None else args.depth}, "
          f"cut-off {args.cutoff:g}")
    budget = Budget(depth=args.depth)
    began = time.perf_counter()
    records = []
    seed = 1 if args.first_seed is None else args.first_seed
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


NNEONNEO_REPOSITORY = "https://github.com/nneonneo/2048-ai"
# nneonneo's move codes: 0 up, 1 down, 2 left, 3 right; Kibitz's: 0 up, 1 right, 2 down, 3 left.
NNEONNEO_TO_KIBITZ = (0, 2, 3, 1)


#: The boards timed beside nneonneo unless --table or --first-seed says otherwise: fixed, so that a
#: change to the search is timed on the boards it was timed on before (a game Kibitz plays itself
#: changes with its search).
POSITIONS = Path(__file__).resolve().parent / "g2048_positions.txt"


def read_positions(path: Path) -> list[int]:
    """The boards of a positions file: one 16-digit hexadecimal board a line, # comments."""
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        raise SystemExit(f"{path}: cannot read the positions: {error}") from None
    boards = []
    for number, line in enumerate(text.splitlines(), start=1):
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        if len(line) != 16 or any(digit not in "0123456789abcdefABCDEF" for digit in line):
            raise SystemExit(f"{path} line {number}: {line[:40]!r} is not a board (16 hexadecimal digits)")
        boards.append(int(line, 16))
    if not boards:
        raise SystemExit(f"{path}: no boards")
    return boards


def game_positions(seed: int, depth: int = 3) -> list[int]:
    """Every position (before the slide) of one game Kibitz plays at a fixed depth from ``seed``:
    a few seconds from the opening to the late game."""
    positions: list[int] = []

    def keep(state: State, moves: int) -> None:
        if not state.spawns_due:
            positions.append(int(packed(state)))

    play_game(seed, Expectimax(threads=1), Budget(depth=depth), progress=keep)
    return positions


def anchor_library(path: Path) -> Path | None:
    """nneonneo's bin/2048.so from a checkout (or the library itself); None when absent."""
    library = path / "bin" / "2048.so" if path.is_dir() else path
    return library if library.is_file() else None


class Nneonneo:
    """nneonneo's library, its four top-level scores per position."""

    def __init__(self, library: Path) -> None:
        try:
            self._library = ctypes.CDLL(str(library.resolve()))
        except OSError as error:
            raise SystemExit(f"{library}: cannot load: {error}") from None
        self._library.init_tables()
        self._library.score_toplevel_move.argtypes = [ctypes.c_uint64, ctypes.c_int]
        self._library.score_toplevel_move.restype = ctypes.c_float
        self._libc = ctypes.CDLL(None)

    def scores(self, board: int) -> list[float]:
        """The expected value of each slide in Kibitz's order (up, right, down, left); 0 when it
        moves nothing, as nneonneo scores it."""
        with _quiet_stdout(self._libc):  # its score_toplevel_move prints a line per call
            theirs = [self._library.score_toplevel_move(board, move) for move in range(4)]
        return [theirs[NNEONNEO_TO_KIBITZ.index(direction)] for direction in range(4)]


def best_of(scores: list[float]) -> int:
    return max(range(4), key=lambda direction: (scores[direction], -direction))


def _spread(values: list[float]) -> tuple[float, float, float]:
    return (float(np.median(values)), float(np.percentile(values, 10)), float(np.percentile(values, 90)))


def compare_with_nneonneo(anchor: Path | None, positions: list[int], core: int, two_threads: bool,
                          markdown: bool, source: str) -> None:
    """Time nneonneo's search and Kibitz's on the same positions, in turn position by position,
    on one core."""
    if not positions:
        raise SystemExit("no positions to search: play with --log (and --every) first, or leave out --table")
    library = anchor_library(anchor) if anchor is not None else None
    if anchor is not None and library is None:
        print(f"# nneonneo's library is not at {anchor} (build it: git clone {NNEONNEO_REPOSITORY} && cd 2048-ai "
              f"&& ./configure && make); timing Kibitz alone", file=sys.stderr, flush=True)
    elif anchor is None:
        print(f"# no --anchor: timing Kibitz alone (nneonneo's program: {NNEONNEO_REPOSITORY})", file=sys.stderr,
              flush=True)
    nneonneo = Nneonneo(library) if library is not None else None
    everywhere = os.sched_getaffinity(0)
    os.sched_setaffinity(0, {core})
    configs = {"like": Expectimax(threshold=NNEONNEO_THRESHOLD, threads=1),
               "default": Expectimax(threshold=PROBABILITY_THRESHOLD, threads=1)}
    if two_threads:
        configs["two"] = Expectimax(threshold=PROBABILITY_THRESHOLD, threads=2)
    first = State(unpack(np.uint64(positions[0])))
    for advisor in configs.values():  # compile (or load) the kernels before timing
        advisor.evaluate(first)
    if nneonneo is not None:
        nneonneo.scores(positions[0])
    load_before = os.getloadavg()
    # Per search and position: the calling thread's CPU time (what the search itself cost, not
    # the time other programs held the core: this machine is shared) and the wall time.
    cpu = {name: [] for name in ["nneonneo", *configs]}
    wall = {name: [] for name in ["nneonneo", *configs]}
    agree = {name: 0 for name in configs}
    for done, board in enumerate(positions, start=1):
        state = State(unpack(np.uint64(board)))
        theirs = None
        if nneonneo is not None:
            cpu_began, began = time.thread_time(), time.perf_counter()
            scores = nneonneo.scores(board)
            wall["nneonneo"].append(time.perf_counter() - began)
            cpu["nneonneo"].append(time.thread_time() - cpu_began)
            theirs = best_of(scores)
        for name, advisor in configs.items():
            if name == "two":
                os.sched_setaffinity(0, everywhere)  # its helper thread is made here, on every core
            cpu_began = time.process_time() if name == "two" else time.thread_time()
            began = time.perf_counter()
            ours = advisor.evaluate(state).best_direction
            wall[name].append(time.perf_counter() - began)
            cpu[name].append((time.process_time() if name == "two" else time.thread_time()) - cpu_began)
            if name == "two":
                os.sched_setaffinity(0, {core})
            agree[name] += theirs is not None and ours == theirs
        if done % 100 == 0:
            print(f"  {done} positions", file=sys.stderr, flush=True)
    load_after = os.getloadavg()
    os.sched_setaffinity(0, everywhere)
    count = len(positions)
    labels = {"nneonneo": "nneonneo/2048-ai, its library (1e-4, 1 thread)",
              "like": "Kibitz at nneonneo's settings (1e-4, 1 thread)",
              "default": f"Kibitz default ({PROBABILITY_THRESHOLD:g}, 1 thread)",
              "two": f"Kibitz default ({PROBABILITY_THRESHOLD:g}, 2 threads)"}
    header = ("search", "CPU ms/move", "wall ms/move", "CPU ratio of means", "median CPU ratio (10th-90th pct)",
              "wall ratio of means", "nneonneo's best slide")
    rows = []
    for name in cpu:
        if not cpu[name]:
            continue
        cpu_ms, wall_ms = (1000.0 * sum(times[name]) / count for times in (cpu, wall))
        if name == "nneonneo" or nneonneo is None:
            rows.append((labels[name], f"{cpu_ms:.2f}", f"{wall_ms:.2f}", "", "", "", ""))
            continue
        median, low, high = _spread([ours / theirs for ours, theirs in zip(cpu[name], cpu["nneonneo"])])
        rows.append((labels[name], f"{cpu_ms:.2f}", f"{wall_ms:.2f}", f"{sum(cpu[name]) / sum(cpu['nneonneo']):.3f}x",
                     f"{median:.3f}x ({low:.3f}-{high:.3f})", f"{sum(wall[name]) / sum(wall['nneonneo']):.3f}x",
                     f"{100.0 * agree[name] / count:.1f} %"))
    commit = anchor_commit(anchor) if library is not None else "absent"
    both = " (two threads: on both cores, CPU time of both)" if "two" in configs else ""
    facts = (f"{count} positions ({source}), each searched in turn on core {core}{both}; load average "
             f"{load_before[0]:.2f} before, {load_after[0]:.2f} after; {machine()}; "
             f"{now()}; nneonneo/2048-ai commit {commit}")
    print_facts_and_table(facts, header, rows, markdown)


@contextlib.contextmanager
def _quiet_stdout(libc):
    sys.stdout.flush()
    saved = os.dup(1)
    with open(os.devnull, "wb") as null:
        os.dup2(null.fileno(), 1)
        try:
            yield
        finally:
            libc.fflush(None)  # the library's buffered lines go to /dev/null, not after the table
            os.dup2(saved, 1)
            os.close(saved)


if __name__ == "__main__":
    main()
