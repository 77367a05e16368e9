r"""Tunes the HATETRIS beam's heuristic weights on several start positions, not one trajectory.

A weight set is scored by the lines beam searches gain from each training start: the empty well
and prefixes of the archived record games (each a well a strong player reached, with its AI
memory). A random local search moves from the current set: every weight but the score's (a cost
is unchanged by scaling, so the score's weight fixes the scale) is moved by a Gaussian step
relative to its size; the move is kept when the mean gain over the training starts is at least
the current one (ties drift), and the step grows after a success and shrinks after failures (the
one-fifth rule). At the end the first and the best set are run on the held-back starts, which
the search never saw, and both results are printed apart from the training figures.

    python benchmarks/hatetris_tuning.py [--start kibitz] [--widths 2000] [--lookahead 4]
        [--iterations 30] [--processes 2] [--seed 1] [--log tuning.jsonl]
        [--move "S surface depth,edge column heights,surface depth after one clear"] [--step 0.3]

Beams are chaotic (one width more or less can end 20 lines apart), so ``--widths`` may name
several: each start is searched at each width and scores the mean. ``--move`` keeps every
weight but those named: new terms can be tuned on top of a set that is known to work.

Every evaluated set is appended to ``--log`` (JSON lines: weights, gain per start, mean, widths,
lookahead), so a long run can be read while it goes and resumed from its best set (``--start``
accepts a log file: its best set, whose gains are reused when it was measured on the same starts,
widths and lookahead). Each beam runs in a worker process on one thread; ``--processes`` of them at once.
Starts are given as LABEL@PIECES (a record game's label in shared/data/hatetris/records_decoded.tsv
and how many of its pieces to keep; "empty" is the empty well).
"""

from __future__ import annotations

import argparse
import concurrent.futures
import csv
import json
import math
import multiprocessing
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from benchmarks.anchor_runs import machine, now  # noqa: E402
from benchmarks.hatetris import DATA, run_beam  # noqa: E402

from advisors.hatetris.beam import BeamSettings  # noqa: E402
from advisors.hatetris.heuristic import TERM_NAMES, WEIGHT_SETS, all_terms_weighed  # noqa: E402
from engines.contract import Line  # noqa: E402
from engines.hatetris import GAME  # noqa: E402

TRAINING = ("empty", "Deasuke@40", "knewjade (4)@60", "David & Felipe (1)@80", "Tim (1)@100")
HELD_BACK = ("chromeyhex@50", "knewjade (3)@70", "David & Felipe (2)@120", "knewjade loop basis@90")
SCORE_TERM = TERM_NAMES.index("score")  # fixes the scale: never moved


def start_line(start: str) -> Line:
    """The line of a start: the empty well, or the first PIECES placements of a record game."""
    if start == "empty":
        return Line(GAME.initial_state(), ())
    label, _, pieces = start.rpartition("@")
    if not label or not pieces.isdigit():
        raise SystemExit(f"start {start!r}: expected LABEL@PIECES or 'empty'")
    path = DATA / "hatetris" / "records_decoded.tsv"
    if not path.is_file():
        raise SystemExit(f"start {start!r}: the record games are not at {path} (set KIBITZ_REFERENCE_DATA "
                         "to the shared reference data folder)")
    with open(path, encoding="utf-8") as handle:
        rows = [row for row in csv.DictReader(handle, delimiter="\t") if row["label"] == label]
    if not rows or rows[0]["enemy_ai"] != "HATETRIS":
        raise SystemExit(f"start {start!r}: no HATETRIS record game labelled {label!r} in {path}")
    placements = GAME.replay_keys(rows[0]["keys"]).placements
    if int(pieces) >= len(placements):
        raise SystemExit(f"start {start!r}: the game has only {len(placements)} pieces")
    return Line(GAME.initial_state(), tuple(placements[: int(pieces)]))


def evaluate(pool, starts, lines, weights, args) -> list[float]:
    """The lines beam searches gain from each start (its line in ``lines``), the mean over the
    widths asked (one beam width more or less can end 20 lines apart, so one width alone is a
    noisy judge), one thread a beam, in ``pool``'s workers."""
    jobs = {(start, width): pool.submit(run_beam, lines[start],
                                        BeamSettings(width=width, lookahead=args.lookahead, weights=weights),
                                        args.minutes, threads=1)
            for start in starts for width in args.widths}
    return [sum(jobs[start, width].result().lines_gained for width in args.widths) / len(args.widths)
            for start in starts]


def first_weights(start: str) -> tuple[tuple[float, ...], dict]:
    """The weights to start from (a named set, or a log's best entry) and, for a log, that entry
    (its gains are reused when they were measured as this run measures)."""
    if start in WEIGHT_SETS:
        return WEIGHT_SETS[start], {}
    path = Path(start)
    if not path.is_file():
        raise SystemExit(f"--start {start!r}: neither a weight set ({', '.join(WEIGHT_SETS)}) nor a log file")
    best = None
    for number, text in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        try:
            entry = json.loads(text)
            weights, mean = all_terms_weighed(tuple(float(w) for w in entry["weights"])), float(entry["mean"])
        except (ValueError, KeyError, TypeError) as error:
            raise SystemExit(f"{path}, line {number}: not a tuning log entry ({error})") from None
        if len(weights) != len(TERM_NAMES):
            raise SystemExit(f"{path}, line {number}: {len(weights)} weights, expected {len(TERM_NAMES)}")
        if best is None or mean > best[1]:
            best = (weights, mean, entry)
    if best is None:
        raise SystemExit(f"{path}: no entries")
    return best[0], best[2]


def logged_gains(entry: dict, training: list[str], args) -> list[float] | None:
    """The training gains a log entry recorded, when it was measured on these starts at these
    widths and lookahead (so a resumed run need not search its start again); else None."""
    gains = entry.get("gains")
    if (entry.get("widths") != args.widths or entry.get("lookahead") != args.lookahead
            or not isinstance(gains, dict) or sorted(gains) != sorted(training)):
        return None
    return [float(gains[start]) for start in training]


def moved(weights: tuple[float, ...], step: float, rng: random.Random, moving: frozenset[int]) -> tuple[float, ...]:
    """``weights`` with each of the ``moving`` terms moved by a Gaussian step relative to its size
    (at least 10: a weight of 0 moves too)."""
    return tuple(round(weight + rng.gauss(0, step) * max(abs(weight), 10.0), 2) if index in moving else weight
                 for index, weight in enumerate(weights))


def moving_terms(names: str) -> frozenset[int]:
    """The indices of the terms named (comma-separated; empty: every term but the score, whose
    weight fixes the scale)."""
    if not names:
        return frozenset(index for index in range(len(TERM_NAMES)) if index != SCORE_TERM)
    chosen = set()
    for name in (name.strip() for name in names.split(",")):
        if name not in TERM_NAMES or name == "score":
            raise SystemExit(f"--move: {name!r} is not a term the search may move "
                             f"({', '.join(term for term in TERM_NAMES if term != 'score')})")
        chosen.add(TERM_NAMES.index(name))
    return frozenset(chosen)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--start", default="kibitz", help="a weight set's name or a tuning log (its best set)")
    parser.add_argument("--widths", default="2000", help="beam widths, comma-separated: each start is searched "
                                                         "at each, and its gain is their mean")
    parser.add_argument("--lookahead", type=int, default=4)
    parser.add_argument("--iterations", type=int, default=30)
    parser.add_argument("--minutes", type=float, default=10.0, help="time cap of one beam")
    parser.add_argument("--processes", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--training", default=",".join(TRAINING))
    parser.add_argument("--held-back", default=",".join(HELD_BACK))
    parser.add_argument("--log", type=Path)
    parser.add_argument("--move", default="", help="the terms whose weights the search moves, comma-separated "
                                                   "(default: all but the score)")
    parser.add_argument("--step", type=float, default=0.3, help="the first step, relative to a weight's size")
    args = parser.parse_args()
    try:
        args.widths = [int(width) for width in args.widths.split(",")]
    except ValueError:
        raise SystemExit(f"--widths: {args.widths!r} is not a list of whole numbers") from None
    moving = moving_terms(args.move)
    training = [start for start in args.training.split(",") if start]
    held_back = [start for start in args.held_back.split(",") if start]
    lines = {start: start_line(start) for start in training + held_back}  # all checked before any search
    rng = random.Random(args.seed)
    current, entry = first_weights(args.start)
    print(f"# {machine()}; {now()}; widths {', '.join(f'{width:,}' for width in args.widths)}, lookahead "
          f"{args.lookahead}, {args.processes} processes; training {training}; held back {held_back}; moving "
          f"{', '.join(TERM_NAMES[index] for index in sorted(moving))}", flush=True)
    context = multiprocessing.get_context("spawn")
    began = time.monotonic()
    with concurrent.futures.ProcessPoolExecutor(args.processes, mp_context=context) as pool:
        gains = logged_gains(entry, training, args)
        resumed = gains is not None
        if not resumed:
            gains = evaluate(pool, training, lines, current, args)
        first, first_gains = current, gains
        best_mean = sum(gains) / len(gains)
        log(args.log, current, training, gains, args)
        print(f"start  {best_mean:6.2f}  {gains}  {list(current)}{'  (from the log)' if resumed else ''}",
              flush=True)
        step, failures = args.step, 0
        for iteration in range(1, args.iterations + 1):
            candidate = moved(current, step, rng, moving)
            gains = evaluate(pool, training, lines, candidate, args)
            mean = sum(gains) / len(gains)
            log(args.log, candidate, training, gains, args)
            kept = mean >= best_mean
            print(f"{iteration:>5}  {mean:6.2f}  {gains}  {'kept' if kept else '    '}  step {step:.3f}  "
                  f"{(time.monotonic() - began) / 60:.1f} min  {list(candidate)}", flush=True)
            if kept:
                current, best_mean, failures = candidate, mean, 0
                step = min(step * 1.5, 2.0)
            else:
                failures += 1
                if failures % 4 == 0:
                    step = max(step / 1.5, 0.02)
        print(f"\nbest on the training starts: mean {best_mean:.2f} lines gained; weights "
              f"{dict(zip(TERM_NAMES, current))}")
        print(f"held-back starts {held_back} (never seen by the search):")
        for name, weights in (("first", first), ("best", current)):
            held = evaluate(pool, held_back, lines, weights, args)
            print(f"  {name:>5}: mean {sum(held) / len(held):.2f} lines gained, {held}")
        print(f"training starts: first {sum(first_gains) / len(first_gains):.2f}, best {best_mean:.2f}")
    return 0


def log(path: Path | None, weights, starts, gains, args) -> None:
    if path is None:
        return
    entry = {"weights": list(weights), "gains": dict(zip(starts, gains)),
             "mean": sum(gains) / len(gains) if gains else math.nan, "widths": args.widths,
             "lookahead": args.lookahead}
    with open(path, "a", encoding="utf-8") as handle:
        handle.write(json.dumps(entry) + "\n")


if __name__ == "__main__":
    raise SystemExit(main())
