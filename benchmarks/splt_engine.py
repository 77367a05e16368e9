"""SPL-T engine speed beside josh-holder's Python emulator, run live: random games and record replays.

    python benchmarks/splt_engine.py --anchor ../anchors/SPLT [--rounds 8] [--games 20] [--markdown]
    python benchmarks/splt_engine.py                 # Kibitz alone: the anchor is absent

The anchor is the SPL-T emulator of https://github.com/josh-holder/SPLT (measured at commit
86d8fbe26d02418a66b2f12eccb9302d3cd64cc4): its ``core_update.py`` and the ``weighting.py`` (and
``weighting_new.py``) it imports, plain Python 3 with the standard library only. Whoever runs the
benchmark fetches it outside Kibitz; there is nothing to build::

    git clone https://github.com/josh-holder/SPLT ../anchors/SPLT

``--anchor PATH`` is that checkout. Its modules are imported into this process from PATH (a
``sys.path`` entry): it is Python like Kibitz's driver, so one interpreter pinned to one core
(``--core``) runs both in turn with nothing between them, where a second process would only add a
pipe per batch. Each of its splits is ``core_update.makeMove(board, index, calcWeights=False)``:
the whole turn and the cluster table its next turn reads (``weighting.findCluster``), without the
move weights of its heuristic player, which are no part of the rules.

Workloads, the same on both sides, in rounds: the anchor's batch, then Kibitz's, round after round.

- Uniform random games from the empty board: round ``r`` plays ``--games`` games from seed
  ``--seed + r``. Kibitz's side is the numba playout kernel (``engines.splt.fast.random_playouts``);
  the anchor is driven by the kernel's own random words (``fast.playout_words``): at each split it
  splits ``legal[word % len(legal)]`` of its legal boxes in box-list order, as the kernel does, so
  both play the very same games. Every game's final split count and score are compared.
- Replays of the record index files in ``shared/data/splt`` (``KIBITZ_REFERENCE_DATA``): both
  replay the file's box indices from the empty board (``fast.replay_indices`` on Kibitz's side);
  the final split count and score are compared, and that the game is over.

Kibitz repeats its batch until it has run ``--kibitz-seconds`` (its batches are hundreds of times
shorter than the anchor's). Times are the CPU time of the benchmark's thread (``time.thread_time``):
on a shared machine the wall clock also counts the time other programs held the core, which
varied several-fold between batches here. Printed: splits per second on each side (all rounds),
the ratio, the median of the per-round ratios with their 10th-90th percentiles, the wall-clock
ratio, the games compared and the mismatches, the load average before and after. ``--markdown``
prints only the facts (machine, date, the anchor's commit, load) and a Markdown table on standard
output, for ``benchmarks/readme_tables.py``; the notes go to standard error then.
"""

from __future__ import annotations

import argparse
import gc
import importlib
import inspect
import os
import re
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from benchmarks.anchor_runs import anchor_commit, machine, now, print_facts_and_table  # noqa: E402

import numpy as np  # noqa: E402

from engines.splt import Move, State, fast, reference  # noqa: E402

ANCHOR_REPOSITORY = "https://github.com/josh-holder/SPLT"
ANCHOR_MEASURED_COMMIT = "86d8fbe26d02418a66b2f12eccb9302d3cd64cc4"
TARGET_RATIO = 300
RECORDS = ("1053seq.txt", "1133seq.txt", "1196seq.txt")


# -- the games, on any implementation of the rules ---------------------------------------------------

class ReferenceGame:
    """Kibitz's plain-Python rules (``engines.splt.reference``) behind the driver's four calls."""

    def __init__(self, start: State = State()) -> None:
        self.start_position = start

    def start(self) -> None:
        self.state = self.start_position

    def legal(self) -> list[int]:
        orientation = self.state.orientation
        return [index for index, box in enumerate(self.state.boxes) if box.can_split(orientation)]

    def play(self, index: int) -> None:
        self.state = reference.play(self.state, Move.of(self.state.boxes[index])).state

    def result(self) -> tuple[int, int]:
        return self.state.splits, self.state.score


class AnchorGame:
    """josh-holder's emulator (its ``core_update`` module) behind the driver's four calls."""

    def __init__(self, emulator) -> None:
        self.emulator = emulator
        # its move weights are the heuristic player's, not the rules; older commits compute none
        weighs = "calcWeights" in inspect.signature(emulator.makeMove).parameters
        self.options = {"calcWeights": False} if weighs else {}

    def start(self) -> None:
        self.board = self.emulator.Board(8, 16)

    def legal(self) -> list[int]:
        return self.board.getMoveOptions()

    def play(self, index: int) -> None:
        self.emulator.makeMove(self.board, index, **self.options)

    def result(self) -> tuple[int, int]:
        return len(self.board.splitRecord), self.board.score


def uniform_games(game, seed: int, games: int) -> list[tuple[int, int]]:
    """(splits, score) at the end of each of ``games`` uniform random games from the empty board,
    the choices drawn as the numba kernel draws them for ``seed``: the kernel's very games."""
    words = fast.playout_words(seed)
    ends = []
    for _ in range(games):
        game.start()
        legal = game.legal()
        while legal:
            game.play(legal[next(words) % len(legal)])
            legal = game.legal()
        ends.append(game.result())
    return ends


def kibitz_uniform_games(seed: int, games: int) -> list[tuple[int, int]]:
    lengths, scores, _ = fast.random_playouts(State(), games, seed)
    return list(zip(lengths.tolist(), scores.tolist()))


def replay_on(game, indices: list[int]) -> tuple[int, int, bool]:
    """(splits, score, game over) after splitting the boxes ``indices`` names, in turn."""
    game.start()
    for index in indices:
        game.play(index)
    return (*game.result(), not game.legal())


def kibitz_replay(indices: list[int]) -> tuple[int, int, bool]:
    replayed = fast.replay_indices(State(), indices)
    return replayed.state.splits, replayed.state.score, replayed.played == len(indices) and replayed.state.is_over()


def record_indices(text: str) -> list[int]:
    """The box indices of an index-list file (``[0, 1, 1, ...]``, brackets optional)."""
    return [int(token) for token in re.findall(r"\d+", text)]


# -- the anchor and the machine -------------------------------------------------------------------

def load_anchor(path: Path):
    """josh-holder's ``core_update`` module from the checkout at ``path``, or the reason it is absent."""
    if not (path / "core_update.py").is_file():
        return None, f"{path} has no core_update.py"
    sys.path.insert(0, str(path.resolve()))
    try:
        return importlib.import_module("core_update"), ""
    except Exception as error:  # noqa: BLE001 - whatever its import raises, the anchor is absent
        return None, f"importing {path / 'core_update.py'} failed: {type(error).__name__}: {error}"


def data_dir() -> Path | None:
    configured = os.environ.get("KIBITZ_REFERENCE_DATA")
    path = Path(configured) if configured else Path(__file__).resolve().parents[2] / "shared" / "data"
    return path / "splt" if (path / "splt").is_dir() else None


# -- timing ---------------------------------------------------------------------------------------

@dataclass
class Workload:
    """One workload's batches: splits and seconds per round on each side, and the checks."""

    name: str
    kibitz_splits: list[int] = field(default_factory=list)
    kibitz_seconds: list[float] = field(default_factory=list)  # CPU time of this thread
    kibitz_wall: list[float] = field(default_factory=list)
    anchor_splits: list[int] = field(default_factory=list)
    anchor_seconds: list[float] = field(default_factory=list)
    anchor_wall: list[float] = field(default_factory=list)
    compared: int = 0
    mismatches: list[str] = field(default_factory=list)
    note: str = ""

    def rate(self, side: str, clock: str = "seconds") -> float:
        splits, seconds = getattr(self, f"{side}_splits"), getattr(self, f"{side}_{clock}")
        return sum(splits) / sum(seconds) if seconds else float("nan")

    def ratios(self) -> list[float]:
        return [(ks / kt) / (a_s / at) for ks, kt, a_s, at in
                zip(self.kibitz_splits, self.kibitz_seconds, self.anchor_splits, self.anchor_seconds)]


def timed(work):
    """``work()``'s result, the CPU time of this thread it took and the wall-clock time."""
    gc.collect()  # the other side's garbage is not collected on this side's time
    began, began_cpu = time.perf_counter(), time.thread_time()
    result = work()
    return result, time.thread_time() - began_cpu, time.perf_counter() - began


def timed_repeatedly(work, seconds: float):
    """``work()``'s first result, how many times it ran (for at least ``seconds``), and the CPU
    time of this thread and the wall-clock time that took."""
    gc.collect()
    began, began_cpu = time.perf_counter(), time.thread_time()
    first = work()
    calls = 1
    while time.perf_counter() - began < seconds:
        work()
        calls += 1
    return first, calls, time.thread_time() - began_cpu, time.perf_counter() - began


def run(anchor, records: dict[str, list[int]], rounds: int, games: int, seed: int,
        kibitz_seconds: float) -> list[Workload]:
    """Every round: the anchor's random games, then Kibitz's; then each record, the anchor's
    replay, then Kibitz's."""
    random_games = Workload(f"uniform random games ({games} a round, seeds {seed}-{seed + rounds - 1})")
    replays = {name: Workload(f"replay of {name}") for name in records}
    for round_number in range(rounds):
        round_seed = seed + round_number
        theirs = None
        if anchor is not None:
            theirs, seconds, wall = timed(lambda: uniform_games(anchor, round_seed, games))
            random_games.anchor_splits.append(sum(splits for splits, _ in theirs))
            random_games.anchor_seconds.append(seconds)
            random_games.anchor_wall.append(wall)
        ours, calls, seconds, wall = timed_repeatedly(lambda: kibitz_uniform_games(round_seed, games),
                                                      kibitz_seconds)
        random_games.kibitz_splits.append(calls * sum(splits for splits, _ in ours))
        random_games.kibitz_seconds.append(seconds)
        random_games.kibitz_wall.append(wall)
        if theirs is not None:
            random_games.compared += games
            random_games.mismatches += [
                f"seed {round_seed} game {number}: anchor {a[0]} splits {a[1]:,} points, Kibitz {k[0]} splits "
                f"{k[1]:,} points" for number, (a, k) in enumerate(zip(theirs, ours)) if a != k]
        for name, indices in records.items():
            workload = replays[name]
            theirs = None
            if anchor is not None:
                theirs, seconds, wall = timed(lambda: replay_on(anchor, indices))
                workload.anchor_splits.append(len(indices))
                workload.anchor_seconds.append(seconds)
                workload.anchor_wall.append(wall)
            ours, calls, seconds, wall = timed_repeatedly(lambda: kibitz_replay(indices), kibitz_seconds)
            workload.kibitz_splits.append(calls * len(indices))
            workload.kibitz_seconds.append(seconds)
            workload.kibitz_wall.append(wall)
            workload.note = f"{ours[0]} splits, {ours[1]:,} points, {'over' if ours[2] else 'NOT over'}"
            if theirs is not None:
                workload.compared += 1
                if theirs != ours:
                    workload.mismatches.append(f"{name}: anchor {theirs}, Kibitz {ours}")
        print(f"  round {round_number + 1}/{rounds} done, load {os.getloadavg()[0]:.2f}", file=sys.stderr, flush=True)
    return [random_games, *replays.values()]


def _spread(values: list[float]) -> str:
    if not values:
        return ""
    return (f"{np.median(values):,.0f}x ({np.percentile(values, 10):,.0f}-{np.percentile(values, 90):,.0f})")


def table(workloads: list[Workload], with_anchor: bool) -> tuple[tuple[str, ...], list[tuple[str, ...]]]:
    header = ("workload", "Kibitz splits/s", "anchor splits/s", "ratio", "median ratio (10th-90th pct)",
              "wall-clock ratio", "same games")
    rows = []
    for workload in workloads:
        if with_anchor:
            same = f"{workload.compared - len(workload.mismatches)}/{workload.compared}"
            wall = workload.rate("kibitz", "wall") / workload.rate("anchor", "wall")
            rows.append((workload.name, f"{workload.rate('kibitz'):,.0f}", f"{workload.rate('anchor'):,.0f}",
                         f"{workload.rate('kibitz') / workload.rate('anchor'):,.0f}x", _spread(workload.ratios()),
                         f"{wall:,.0f}x", same))
        else:
            rows.append((workload.name, f"{workload.rate('kibitz'):,.0f}", "absent", "", "", "", ""))
    return header, rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--anchor", type=Path, default=None,
                        help=f"a checkout of {ANCHOR_REPOSITORY} (git clone it; nothing to build)")
    parser.add_argument("--rounds", type=int, default=8, help="rounds of every workload (default 8)")
    parser.add_argument("--games", type=int, default=20, help="random games per round (default 20)")
    parser.add_argument("--seed", type=int, default=1, help="the first round's seed (default 1)")
    parser.add_argument("--kibitz-seconds", type=float, default=0.2,
                        help="Kibitz repeats each batch for at least this long (default 0.2)")
    parser.add_argument("--records", nargs="*", default=list(RECORDS),
                        help=f"record index files in shared/data/splt to replay (default {' '.join(RECORDS)})")
    parser.add_argument("--core", type=int, default=None, help="the core to pin to (default the last one allowed)")
    parser.add_argument("--markdown", action="store_true", help="print the result as a Markdown table")
    args = parser.parse_args(argv)
    if args.rounds < 1 or args.games < 1:
        parser.error("--rounds and --games must be at least 1")
    # with --markdown, standard output is only the facts and the table (benchmarks/readme_tables.py)
    notes = sys.stderr if args.markdown else sys.stdout

    anchor, absent = None, f"no --anchor given (git clone {ANCHOR_REPOSITORY}, measured at {ANCHOR_MEASURED_COMMIT})"
    if args.anchor is not None:
        emulator, absent = load_anchor(args.anchor)
        anchor = AnchorGame(emulator) if emulator is not None else None
    if anchor is None:
        print(f"# anchor absent: {absent}; timing Kibitz alone", file=notes, flush=True)

    records: dict[str, list[int]] = {}
    data = data_dir()
    if data is None and args.records:
        print("# record replays skipped: shared/data/splt not found (set KIBITZ_REFERENCE_DATA)", file=notes,
              flush=True)
    elif data is not None:
        for name in args.records:
            records[name] = record_indices((data / name).read_text(encoding="utf-8"))

    everywhere = os.sched_getaffinity(0)
    core = args.core if args.core is not None else max(everywhere)
    os.sched_setaffinity(0, {core})
    try:
        kibitz_uniform_games(args.seed, 2)  # compile or load the kernels before any timing
        kibitz_replay([0, 1, 1])
        if anchor is not None:
            uniform_games(anchor, args.seed, 1)
        load_before = os.getloadavg()
        workloads = run(anchor, records, args.rounds, args.games, args.seed, args.kibitz_seconds)
        load_after = os.getloadavg()
    finally:
        os.sched_setaffinity(0, everywhere)

    header, rows = table(workloads, anchor is not None)
    commit = anchor_commit(args.anchor) if anchor is not None else "absent"
    facts = (f"SPL-T, one core (core {core}), {args.rounds} rounds, anchor then Kibitz each round; splits per "
             f"second of CPU time (the wall-clock ratio beside it); load average "
             f"{load_before[0]:.2f} before, {load_after[0]:.2f} after; {machine()}; "
             f"{now()}; josh-holder/SPLT commit {commit}")
    print_facts_and_table(facts, header, rows, args.markdown)
    for workload in workloads[1:]:
        print(f"# {workload.name}: Kibitz {workload.note}", file=notes)
    mismatches = [line for workload in workloads for line in workload.mismatches]
    for line in mismatches:
        print(f"# MISMATCH {line}", file=notes)
    if anchor is not None:
        ratio = workloads[0].rate("kibitz") / workloads[0].rate("anchor")
        print(f"# target >= {TARGET_RATIO}x the anchor's splits/s in random games: "
              f"{'met' if ratio >= TARGET_RATIO else 'NOT met'} ({ratio:,.0f}x); {len(mismatches)} mismatches",
              file=notes)
    return 1 if mismatches else 0


if __name__ == "__main__":
    sys.exit(main())
