"""1010! planner speed beside Coelho's own program, and Kibitz's strength in long games.

Beside Coelho (``--anchor PATH``): the anchor is Fabien Coelho's C program zx80/1010,
https://github.com/zx80/1010 (measured at commit 14ccfeff4e0fcdc2bb975adccfe305ef7e3e6402), fetched and
built by whoever runs the benchmark, outside Kibitz, with its own Makefile (gcc -Ofast -march=native,
PARALLEL=12, ONE_RANDOM, MY_RANDOM, MAX_SCORE)::

    git clone https://github.com/zx80/1010 && cd 1010 && make      # builds ./1010

PATH is that checkout (or its ``1010`` binary). The benchmark runs ``1010 auto SEED WEIGHTS`` (its
self-play: it deals, plans and prints every round's board, the three pieces in tray order and its
plan, ``best o13 H25 O0: 96.809``), line-buffered through coreutils' ``stdbuf -oL`` when there is
one. Its Makefile's MY_RANDOM mixes /dev/urandom into every deal, so its games differ from run to
run even with the same seed; the deals are therefore read from its output, and Kibitz plans each
printed board with the printed pieces, with the same weights and Coelho's tie-break of that build
(first-piece anchors in two classes, even cells then odd: ``Planner(classes=2)``). A round counts
as identical when Kibitz's plan (pieces, order and anchors) is the anchor's; a game the anchor ends
must end for Kibitz too (no plan places all three pieces). Kibitz also replays the anchor's plan
with its own rules and checks the next board the anchor prints.

Timing: this process and the anchor's are pinned to one core (``--core``). The anchor runs for a
batch of ``--batch`` rounds and is then stopped (SIGSTOP); Kibitz plans the same rounds on one
thread; the anchor is continued; and so on, until ``--rounds`` rounds. Each side is timed by its
CPU time (the anchor's whole process, all its threads, from the kernel's process clock; Kibitz's
planning thread), not by the anchor's own printed time per round (it scales microseconds by 1e-7).
Printed: rounds per second of each, the ratio of the totals, the median of the per-batch ratios
with their 10th-90th percentiles, evaluations per round of each, the plan mismatches and the load
average before and after. When the anchor's game ends a new one starts (the next seed). Without
the anchor it says so and times Kibitz alone on seeded deals. ``--markdown`` prints the result as a
Markdown table with the machine, the date and the anchor's commit, and nothing else on standard
output (for ``benchmarks/readme_tables.py``).

    python benchmarks/tenten.py --anchor ../1010 [--rounds 3000] [--batch 100] [--core 1] [--markdown]
    python benchmarks/tenten.py                       # anchor absent: Kibitz alone

Strength (``--strength``): plays games from a fixed list of seeds (1, 2, 3, ...), one after another,
every round planned by the exhaustive search with Coelho's evaluation (``--weights``, default
10025), until ``--rounds`` rounds are played in all. Games end rarely (Coelho's blog: 22,226 rounds
on average), so the mean rounds per game is estimated as all rounds played over the games that
ended; the game still running at the end counts its rounds but not as an ending. Prints each game
as it ends and a table beside the figures the spec quotes from Coelho's blog (published, not run
here).

    python benchmarks/tenten.py --strength [--rounds 200000] [--threads 2] [--log games.jsonl] [--json out.json]
    python benchmarks/tenten.py --table games.jsonl        # the table of a log, no play
"""

from __future__ import annotations

import argparse
import dataclasses
import datetime
import json
import math
import os
import re
import shutil
import signal
import statistics
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from benchmarks.anchor_runs import anchor_commit, machine  # noqa: E402

import numpy as np  # noqa: E402

from advisors.tenten import Planner, Weights, evaluation  # noqa: E402
from advisors.tenten.planner import COELHO_CLASSES  # noqa: E402
from advisors.tenten.selfplay import GameRecord, play_game, summary  # noqa: E402
from engines.files import write_text_atomic  # noqa: E402
from engines.tenten import kernel as board  # noqa: E402
from engines.tenten import random_letters, reference  # noqa: E402
from engines.tenten.pieces import INDEX, SIZE  # noqa: E402

#: Coelho's blog as quoted in spec section 4 (2016 code, 500 games, weights 10025): published
#: strength figures, shown beside Kibitz's --strength table; no speed is taken from them.
PUBLISHED = {"mean_rounds": 22226, "games": 500}

ANCHOR_URL = "https://github.com/zx80/1010"
ANCHOR_BUILD = "git clone https://github.com/zx80/1010 && cd 1010 && make"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--anchor", type=Path, default=None,
                        help=f"checkout of {ANCHOR_URL} built with its Makefile (or its 1010 binary)")
    parser.add_argument("--rounds", type=int, default=None,
                        help="rounds to time (default 3,000) or, with --strength, to play (default 200,000)")
    parser.add_argument("--batch", type=int, default=100, help="rounds per interleaved batch (default 100)")
    parser.add_argument("--core", type=int, default=None, help="the core both are pinned to (default: the last)")
    parser.add_argument("--seed", type=int, default=1, help="the anchor's seed, or Kibitz's deals alone")
    parser.add_argument("--weights", default="10025")
    parser.add_argument("--markdown", action="store_true", help="also print the result as a Markdown table")
    parser.add_argument("--strength", action="store_true", help="play Kibitz's long games (no anchor)")
    parser.add_argument("--threads", type=int, default=2, help="planner threads for --strength")
    parser.add_argument("--first-seed", type=int, default=1, help="first game's seed for --strength")
    parser.add_argument("--log", type=Path, default=None, help="append each game to this JSON-lines file")
    parser.add_argument("--json", type=Path, default=None, help="also write every game and the summary here")
    parser.add_argument("--table", type=Path, default=None, help="print the table of a --log file and stop")
    args = parser.parse_args()
    weights = Weights.parse(args.weights)
    if args.table is not None:
        print_table(read_log(args.table), f"Kibitz, log {args.table.name}")
    elif args.strength:
        strength(args, weights)
    else:
        speed(args, weights)


# ----------------------------------------------------------------------------------- beside Coelho


@dataclasses.dataclass(frozen=True)
class Round:
    """One round as the anchor printed it: the board it starts from, the pieces in tray order, its
    plan as (letter, cell) pairs (None when no order places all three: its game ends), and its
    game's evaluations so far (its running average per round times the rounds)."""

    filled: int
    tray: tuple[str, str, str]
    plan: list[tuple[str, int]] | None
    game_evaluations: int


@dataclasses.dataclass
class Batch:
    rounds: int
    anchor_seconds: float
    kibitz_seconds: float
    kibitz_wall: float
    anchor_evaluations: int
    kibitz_evaluations: int

    @property
    def ratio(self) -> float:
        """Kibitz's rounds per second over the anchor's."""
        return self.anchor_seconds / self.kibitz_seconds


_TRYING = re.compile(r"^(\d+): trying (\S)(\S)(\S) \d+$")
_BEST = re.compile(r"^best (\S)(\d+) (\S)(\d+) (\S)(\d+): [-\d.]+$")
_EVALS = re.compile(r"evals=(\d+)")
_GRID_ROW = re.compile(r"^(\d) ((?: [x.]){10})$")


def process_seconds(pid: int) -> float:
    """CPU time of a whole process (all its threads, living and ended): the kernel's per-process
    CPU clock, the clockid glibc's clock_getcpuclockid gives: (~pid << 3) | CPUCLOCK_SCHED."""
    return time.clock_gettime(((~pid) << 3) | 2)


class Anchor:
    """Coelho's program playing by itself, pinned to one core, read round by round."""

    def __init__(self, binary: Path, seed: int, weights: Weights, core: int) -> None:
        command = [str(binary), "auto", str(seed), str(weights)]
        self.line_buffered = shutil.which("stdbuf") is not None
        if self.line_buffered:
            command = ["stdbuf", "-oL", *command]  # stdbuf execs the program: the same process
        self.process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
                                        preexec_fn=lambda: os.sched_setaffinity(0, {core}))
        self._lines = iter(self.process.stdout)
        self.running = True
        self._evaluations = 0  # the game's evaluations so far, from its running average

    def seconds(self) -> float:
        return process_seconds(self.process.pid)

    # Signalled by pid, without Popen's poll(): a program that has just ended must stay unreaped (a
    # zombie) until finish(), or its CPU clock is gone.
    def stop(self) -> None:
        if self.running:
            os.kill(self.process.pid, signal.SIGSTOP)
        self.running = False

    def go_on(self) -> None:
        if not self.running:
            os.kill(self.process.pid, signal.SIGCONT)
        self.running = True

    def finish(self) -> float:
        """After its game ended: wait for the program to exit; its whole CPU time."""
        for _ in self._lines:  # its closing statistics
            pass
        self.process.stdout.close()
        _, status, usage = os.wait4(self.process.pid, 0)
        self.process.returncode = os.waitstatus_to_exitcode(status)
        return usage.ru_utime + usage.ru_stime

    def close(self) -> None:
        if self.process.poll() is None:
            self.process.kill()
        self.process.wait()

    def rounds(self) -> Iterator[Round]:
        """The rounds in play order; the last of a finished game has no plan."""
        grid_rows: list[str] = []
        filled = 0
        tray = ("", "", "")
        number = 0
        plan = None
        for line in self._lines:
            line = line.rstrip("\n")
            row = _GRID_ROW.match(line)
            if row:
                grid_rows.append(row.group(2).replace(" ", ""))
                if len(grid_rows) == SIZE:
                    filled = sum(1 << (SIZE * r + c) for r, text in enumerate(grid_rows)
                                 for c, mark in enumerate(text) if mark == "x")
            elif line.startswith("current:"):
                grid_rows = []
            elif trying := _TRYING.match(line):
                number = int(trying.group(1))
                tray = (trying.group(2), trying.group(3), trying.group(4))
            elif best := _BEST.match(line):
                plan = [(best.group(1), int(best.group(2))), (best.group(3), int(best.group(4))),
                        (best.group(5), int(best.group(6)))]
            elif line.startswith("per round:") and plan is not None:
                average = _EVALS.search(line)
                yield Round(filled, tray, plan, round(float(average.group(1)) * (number + 1)) if average else 0)
                plan = None
            elif line.startswith("stopped after"):
                yield Round(filled, tray, None, 0)
                return


def anchor_binary(path: Path) -> Path | None:
    binary = path / "1010" if path.is_dir() else path
    return binary if binary.is_file() and os.access(binary, os.X_OK) else None


def final_board(filled: int, plan: list[tuple[str, int]]) -> tuple[int, int]:
    """The board a plan leaves and its points, by the plain rules."""
    points = 0
    for letter, cell in plan:
        filled, _, _, gained = reference.place(filled, letter, *divmod(cell, SIZE))
        points += gained
    return filled, points


@dataclasses.dataclass
class Checks:
    """How Kibitz's plans compare with the anchor's on the same rounds."""

    rounds: int = 0
    same_plans: int = 0
    equal_value_mismatches: int = 0
    examples: list[str] = dataclasses.field(default_factory=list)
    endings: int = 0
    endings_agreed: int = 0
    boards: int = 0
    boards_agreed: int = 0

    @property
    def mismatches(self) -> int:
        return self.rounds - self.same_plans


def compare(checks: Checks, anchor_round: Round, placements: list[tuple[str, int]], weights: Weights) -> None:
    if anchor_round.plan is None:
        checks.endings += 1
        checks.endings_agreed += len(placements) < 3
        return
    checks.rounds += 1
    if placements == anchor_round.plan:
        checks.same_plans += 1
        return
    theirs = evaluation.evaluate(*final_board(anchor_round.filled, anchor_round.plan), weights)
    ours = (evaluation.evaluate(*final_board(anchor_round.filled, placements), weights)
            if len(placements) == 3 else float("-inf"))
    checks.equal_value_mismatches += theirs == ours
    if len(checks.examples) < 5:
        checks.examples.append(f"board {anchor_round.filled:#x}, tray {''.join(anchor_round.tray)}: anchor "
                               f"{anchor_round.plan} ({theirs!r}), Kibitz {placements} ({ours!r})")


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return float(np.percentile(ordered, share * 100.0)) if ordered else float("nan")


def speed(args: argparse.Namespace, weights: Weights) -> None:
    rounds_wanted = args.rounds or 3000
    core = args.core if args.core is not None else max(os.sched_getaffinity(0))
    os.sched_setaffinity(0, {core})
    planner = Planner(weights, threads=1, classes=COELHO_CLASSES)
    planner.best(*board.split(0), ("o", "o", "o"))  # compile or load the kernels before any clock
    binary = anchor_binary(args.anchor) if args.anchor is not None else None
    if binary is None:
        where = f"{args.anchor} holds no built 1010 program" if args.anchor is not None else "no --anchor given"
        print(f"# anchor absent ({where}); fetch and build it with: {ANCHOR_BUILD}\n"
              f"# Kibitz alone, one thread on core {core}, its own seeded deals, weights {weights}")
        kibitz_alone(planner, args.seed, rounds_wanted, weights)
        return
    commit = anchor_commit(args.anchor)
    print(f"# 1010! planner beside Coelho's zx80/1010 ({binary}, commit {commit}): {machine()}, both pinned to "
          f"core {core}, weights {weights}, batches of {args.batch} rounds",
          file=sys.stderr if args.markdown else sys.stdout, flush=True)
    load_before = os.getloadavg()
    batches: list[Batch] = []
    checks = Checks()
    seed = args.seed
    anchor = Anchor(binary, seed, weights, core)
    if not anchor.line_buffered:
        print("# no stdbuf: the anchor's output comes in blocks, so its batches are timed less sharply",
              file=sys.stderr)
    stream = anchor.rounds()
    clock = anchor.seconds()
    game_evaluations = 0
    next_board = None  # the board the anchor's last plan leaves, by Kibitz's rules
    played = 0
    try:
        while played < rounds_wanted:
            want = min(args.batch, rounds_wanted - played)
            anchor.go_on()
            collected: list[Round] = []
            anchor_seconds = 0.0
            anchor_evaluations = 0
            while len(collected) < want:
                current = next(stream, None)
                if current is None or current.plan is None:  # its game ended: start the next
                    anchor_seconds += anchor.finish() - clock
                    if current is None:
                        raise SystemExit(f"{binary} stopped without ending its game (exit {anchor.process.returncode})")
                    collected.append(current)
                    seed += 1
                    anchor = Anchor(binary, seed, weights, core)
                    stream = anchor.rounds()
                    clock = anchor.seconds()
                    game_evaluations = 0
                    continue
                collected.append(current)
                anchor_evaluations += current.game_evaluations - game_evaluations
                game_evaluations = current.game_evaluations
            anchor.stop()
            now = anchor.seconds()
            anchor_seconds += now - clock
            clock = now
            began_cpu, began_wall = time.thread_time(), time.perf_counter()
            answers = [planner.best(*board.split(r.filled), r.tray) for r in collected]
            kibitz_seconds, kibitz_wall = time.thread_time() - began_cpu, time.perf_counter() - began_wall
            for anchor_round, (_, placements, _) in zip(collected, answers):
                if next_board is not None:
                    checks.boards += 1
                    checks.boards_agreed += next_board == anchor_round.filled
                compare(checks, anchor_round, placements, weights)
                next_board = final_board(anchor_round.filled, anchor_round.plan)[0] if anchor_round.plan else None
            batches.append(Batch(len(collected), anchor_seconds, kibitz_seconds, kibitz_wall, anchor_evaluations,
                                 sum(leaves for _, _, leaves in answers)))
            played += len(collected)
            print(f"  {played:>6,} rounds: anchor {len(collected) / anchor_seconds:6.1f} rounds/s, Kibitz "
                  f"{len(collected) / kibitz_seconds:6.1f}, ratio {batches[-1].ratio:5.2f}, plans differ in "
                  f"{checks.mismatches}, load {os.getloadavg()[0]:.2f}", file=sys.stderr, flush=True)
    finally:
        anchor.close()
    load_after = os.getloadavg()
    report(batches, checks, weights, core, commit, binary, load_before, load_after, args)


def kibitz_alone(planner: Planner, seed: int, rounds: int, weights: Weights) -> None:
    rng = np.random.default_rng(seed)
    low, high = board.split(0)
    seconds = 0.0
    evaluations = played = 0
    load_before = os.getloadavg()
    while played < rounds:
        tray = tuple(random_letters(rng))
        began = time.thread_time()
        _, placements, leaves = planner.best(low, high, tray)
        seconds += time.thread_time() - began
        evaluations += leaves
        played += 1
        if len(placements) < 3:  # the game ended: a new one
            low, high = board.split(0)
            continue
        for letter, cell in placements:
            low, high, _, _ = board.place(low, high, INDEX[letter], cell, board.PIECE_LOW, board.PIECE_HIGH,
                                          board.COLUMN_LOW, board.COLUMN_HIGH)
    print(f"| Kibitz, 1 thread | {played:,} rounds | {played / seconds:.1f} rounds/s | {seconds * 1000 / played:.2f} "
          f"ms/round | {evaluations / played:,.0f} evaluations/round |\n"
          f"load {load_before[0]:.2f} before, {os.getloadavg()[0]:.2f} after")


def report(batches: list[Batch], checks: Checks, weights: Weights, core: int, commit: str, binary: Path,
           load_before: tuple[float, ...], load_after: tuple[float, ...], args: argparse.Namespace) -> None:
    rounds = sum(b.rounds for b in batches)
    anchor_seconds = sum(b.anchor_seconds for b in batches)
    kibitz_seconds = sum(b.kibitz_seconds for b in batches)
    kibitz_wall = sum(b.kibitz_wall for b in batches)
    anchor_speed, kibitz_speed = rounds / anchor_seconds, rounds / kibitz_seconds
    ratios = [b.ratio for b in batches]
    median, low, high = statistics.median(ratios), percentile(ratios, 0.1), percentile(ratios, 0.9)
    anchor_evaluations = sum(b.anchor_evaluations for b in batches) / max(checks.rounds, 1)
    kibitz_evaluations = sum(b.kibitz_evaluations for b in batches) / rounds
    rows = [
        ("Coelho zx80/1010, its Makefile build (12 threads on the one core)", anchor_speed, anchor_evaluations),
        ("Kibitz, 1 thread", kibitz_speed, kibitz_evaluations),
    ]
    plans = (f"{checks.same_plans:,} of {checks.rounds:,} plans identical ({checks.mismatches} differ, "
             f"{checks.equal_value_mismatches} of them between plans of equal value)")
    endings = (f"game endings agreed {checks.endings_agreed} of {checks.endings}" if checks.endings
               else "no game ended")
    boards = (f"the anchor's next board equals Kibitz's replay of its plan in {checks.boards_agreed:,} of "
              f"{checks.boards:,}")
    load = f"load average {load_before[0]:.2f} before, {load_after[0]:.2f} after"
    if not args.markdown:
        print("\n| program | rounds/s (one core, CPU time) | ms/round | evaluations/round |")
        print("|---|---:|---:|---:|")
        for name, rate, evaluations in rows:
            print(f"| {name} | {rate:.1f} | {1000.0 / rate:.2f} | {evaluations:,.0f} |")
        print(f"\nKibitz / anchor: {kibitz_speed / anchor_speed:.2f}x over {rounds:,} rounds; per batch median "
              f"{median:.2f}x (10th-90th percentile {low:.2f}-{high:.2f}x, {len(batches)} batches of {args.batch}); "
              f"Kibitz wall clock {rounds / kibitz_wall:.1f} rounds/s")
        print(f"{plans}; {endings}; {boards}; {load}")
        for example in checks.examples:
            print(f"  differs: {example}")
    else:  # only Markdown on standard output, for benchmarks/readme_tables.py
        command = " ".join(["python", "benchmarks/tenten.py", *sys.argv[1:]])
        print(f"\n1010! planner speed beside Coelho's zx80/1010 ({ANCHOR_URL}, commit `{commit}`, built with its "
              f"Makefile), the same rounds (the anchor's deals and boards), weights {weights}, both pinned to one "
              f"core, interleaved in batches of {args.batch} rounds, CPU time. {machine()}, "
              f"{datetime.datetime.now(datetime.timezone.utc):%Y-%m-%d %H:%M} UTC, {load}.\n")
        print("| program | rounds/s | ms/round | evaluations/round |")
        print("|---|---:|---:|---:|")
        for name, rate, evaluations in rows:
            print(f"| {name} | {rate:.1f} | {1000.0 / rate:.2f} | {evaluations:,.0f} |")
        print(f"| **Kibitz / zx80/1010** | **{kibitz_speed / anchor_speed:.2f}x** (per-batch median {median:.2f}x, "
              f"10th-90th percentile {low:.2f}-{high:.2f}x) | | |")
        print(f"\n{plans}; {endings}; {boards}. Command: `{command}`")
        for example in checks.examples:
            print(f"\n- differs: {example}")


# ------------------------------------------------------------------------------------- strength


def strength(args: argparse.Namespace, weights: Weights) -> None:
    rounds_wanted = args.rounds or 200_000
    planner = Planner(weights, threads=args.threads)
    print(f"# 1010! planner strength: {machine()}, {args.threads} planner threads, weights {weights}, "
          f"{rounds_wanted:,} rounds", flush=True)
    play_game(0, planner, rounds_cap=3)  # compile or load the kernels before the clock starts
    records: list[GameRecord] = []
    began = time.perf_counter()
    seed = args.first_seed
    played = 0
    while played < rounds_wanted:
        game_began = time.perf_counter()
        record = play_game(seed, planner, rounds_cap=rounds_wanted - played)
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
    """Mean rounds per game beside the figure Coelho published (spec 4; not run here), and
    Kibitz's speed in these games (wall clock, its threads)."""
    total = summary(records)
    ended = total["games_ended"]
    if ended:
        mean = total["rounds"] / ended
        # Rounds to the end are close to geometric: the estimate's standard error is about mean/sqrt(ended).
        estimate = f"{mean:,.0f} ± {mean / math.sqrt(ended):,.0f} ({ended} ended, {total['rounds']:,} rounds)"
    else:
        estimate = f"none ended in {total['rounds']:,} rounds"
    speed_figure = f"{1000.0 / total['ms_per_round']:.0f}" if total["ms_per_round"] else "-"
    published = f"{PUBLISHED['mean_rounds']:,} ({PUBLISHED['games']} games)"
    print(f"| {'system':<44} | {'mean rounds per game':>42} | {'rounds/s':>8} | {'evaluations/round':>17} |")
    print(f"|{'-' * 46}|{'-' * 44}|{'-' * 10}|{'-' * 19}|")
    print(f"| {'Coelho zx80/1010, 10025: published (spec 4)':<44} | {published:>42} | {'-':>8} | {'-':>17} |")
    print(f"| {name:<44} | {estimate:>42} | {speed_figure:>8} | {total['evaluations_per_round']:>17,.0f} |")
    print(f"\naverage score {total['average_score']:,.0f} over {total['games']} games (the last may be cut short); "
          f"best {total['max_score']:,}. For speed beside Coelho's program run with --anchor.")


if __name__ == "__main__":
    main()
