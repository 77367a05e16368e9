r"""HATETRIS's learned evaluation: its training data, its training, and how it plays beside the
hand heuristic (issue 28; spec 3.7 in miniature, advisors/hatetris/learned.py).

1. ``data``: wells from Kibitz's own beams, each labelled by the lines still to come from it. For
   each training start (the empty well and record-game prefixes of benchmarks/hatetris_tuning.py)
   a "master" beam (hand heuristic) runs a layer at a time; after each layer ``--per-layer`` of its
   wells are drawn at random. Each drawn well is labelled by a small beam from it (Kibitz's weights,
   no lookahead): the lines its best game clears in ``--label-pieces`` pieces. With ``--bootstrap``
   a network of an earlier generation values the small beam's last layer instead: the label is the
   best of (lines cleared + the network's value) over that layer's wells, or the lines cleared when
   the small beam died (D&F's generations, spec 3.7). The labelling runs in ``--processes``
   worker processes, one thread each; the file is rewritten after every start, so a run cut short
   keeps what it labelled.
2. ``train``: a one-hidden-layer tanh network (plain numpy, Adam, mean squared error) from the
   wells' inputs (advisors.hatetris.kernel.fill_features) to their labels; 10 % of the wells are
   held out for validation, training stops when their loss has not improved for 20 epochs and
   keeps the best epoch. Saved as a network file whose term weights are all 0 but the score's
   (-1): a well's cost is minus its lines earned and minus the lines the network expects to come.
   The file is read back and the kernel's value of some wells checked against numpy's.
3. ``compare``: beams from the empty well and the held-back starts at each width, the hand
   heuristic (D&F's weights) against the learned evaluation, each beam in a process of its own on
   one thread, two at a time (the hand and the learned beam of one start and width side by side,
   so they share the load). Printed as a Markdown table with, for each learned beam, the hand
   beam's result at about the same time (``--hand-widths`` adds hand beams for that column alone;
   otherwise the width that would take as long is estimated and marked "not measured").

    python benchmarks/hatetris_learned.py data --out gen1.npz [--per-layer 8] [--max-layers 150] \
        [--master-width 2000] [--label-width 100] [--label-pieces 20] [--bootstrap NET.npz] \
        [--processes 2] [--seed 1]
    python benchmarks/hatetris_learned.py train gen1.npz [more.npz ...] --out assets/evaluations/hatetris.npz \
        [--units 16] [--epochs 300] [--seed 1]
    python benchmarks/hatetris_learned.py compare [--widths 1000,3000,10000] [--lookahead 4] \
        [--hand-widths 2000,6000] [--network NET.npz] [--starts empty,...] [--minutes 30] [--markdown table.md]

Without ``--network``, ``compare`` plays the shipped network (assets/evaluations/hatetris.npz).
"""

from __future__ import annotations

import argparse
import concurrent.futures
import io
import json
import multiprocessing
import os
import sys
import time
from pathlib import Path

import numba
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from benchmarks.anchor_runs import machine, now  # noqa: E402
from benchmarks.hatetris import BeamRun, run_beam  # noqa: E402
from benchmarks.hatetris_tuning import HELD_BACK, TRAINING, start_line  # noqa: E402

from advisors.hatetris import kernel, learned  # noqa: E402
from advisors.hatetris.beam import BeamSearch, BeamSettings  # noqa: E402
from advisors.hatetris.heuristic import WEIGHT_SETS  # noqa: E402
from engines.contract import Line  # noqa: E402
from engines.files import write_bytes_atomic, write_text_atomic  # noqa: E402
from engines.hatetris import fast  # noqa: E402
from engines.hatetris.pieces import PIECES  # noqa: E402
from engines.hatetris.state import DEFAULT_RULES, Memory, State, cell_count  # noqa: E402

VALIDATION_SHARE = 0.1
PATIENCE = 20  # epochs without a better validation loss before training stops
BATCH = 256
LEARNING_RATE = 1e-3
ADAM_BETAS = (0.9, 0.999)
ADAM_EPSILON = 1e-8


# --- 1. the training data --------------------------------------------------------------------------

def well_state(well: tuple[int, ...], score: int) -> State:
    """A position with ``well`` and ``score``, the AI's piece chosen for it, and no memory of
    earlier wells (the labelling beam only needs the well: the loop rule sees its own game)."""
    rules = DEFAULT_RULES
    pieces = (cell_count(well) + rules.width * score) // 4
    memory = Memory(well, pieces)
    piece = PIECES[fast.choose_piece(well, rules, memory)[0]]
    return State(well, score, piece, rules, memory)


def forward(network: np.ndarray, features: np.ndarray) -> np.ndarray:
    """The network's value of each row of ``features`` (inputs before normalising), in numpy:
    the same arithmetic as kernel.network_value, for many wells at once."""
    means, scales, hidden, biases, outputs, output_bias = learned.unpack(network)
    return np.tanh((features - means) / scales @ hidden + biases) @ outputs + output_bias


_bootstrap_network: learned.Network | None = None


def _labelling_worker(bootstrap: str | None) -> None:
    global _bootstrap_network
    numba.set_num_threads(1)  # the workers are the parallelism
    _bootstrap_network = learned.load(bootstrap) if bootstrap else None


def label_wells(wells: np.ndarray, scores: np.ndarray, width: int, pieces: int) -> list[float]:
    """Each well's label: the lines a small beam from it clears in ``pieces`` pieces, or with a
    bootstrap network the best (lines cleared + the network's value) over that beam's last layer."""
    labels = []
    for well, score in zip(wells, scores):
        start = well_state(tuple(int(row) for row in well), int(score))
        search = BeamSearch(Line(start, ()), BeamSettings.named(width, 0, "kibitz"))
        result = search.run(max_depth=pieces, threads=1)
        gained = float(result.score - start.score)
        if _bootstrap_network is not None and not result.finished:
            network = _bootstrap_network
            values = forward(network.network, learned.well_features(search.layer_wells, network.width))
            gained = float(np.max(search.layer_scores - start.score + values))
        labels.append(gained)
    return labels


def save_data(path: Path, wells: list, labels: list, starts: list, scores: list, layers: list, facts: dict) -> None:
    buffer = io.BytesIO()
    np.savez(buffer, wells=np.array(wells, dtype=np.int64).reshape(-1, DEFAULT_RULES.depth),
             labels=np.array(labels, dtype=np.float64), starts=np.array(starts, dtype=np.int64),
             scores=np.array(scores, dtype=np.int64), layers=np.array(layers, dtype=np.int64),
             facts=np.array(json.dumps(facts, sort_keys=True)))
    write_bytes_atomic(path, buffer.getvalue())


def make_data(args) -> int:
    starts = [start for start in args.starts.split(",") if start]
    lines = [start_line(start) for start in starts]  # every start is checked before any search
    bootstrap_facts = None
    if args.bootstrap is not None:
        network = learned.load(args.bootstrap)
        network.check_well(DEFAULT_RULES.width, DEFAULT_RULES.depth)
        bootstrap_facts = network.facts
    rng = np.random.default_rng(args.seed)
    facts = {"starts": starts, "master": {"width": args.master_width, "lookahead": args.master_lookahead,
                                          "weights": args.master_weights},
             "per_layer": args.per_layer, "max_layers": args.max_layers, "seed": args.seed,
             "label": {"width": args.label_width, "pieces": args.label_pieces, "lookahead": 0, "weights": "kibitz",
                       "bootstrap": str(args.bootstrap) if args.bootstrap else None,
                       "bootstrap_facts": bootstrap_facts},
             "width": DEFAULT_RULES.width, "depth": DEFAULT_RULES.depth, "machine": machine(), "date": now()}
    wells, labels, start_of, scores, layers = [], [], [], [], []
    began = time.monotonic()
    ceiling = len(starts) * args.max_layers * args.per_layer
    print(f"# {machine()}; {now()}; at most {ceiling:,} wells from {len(starts)} starts; {args.processes} "
          f"labelling processes", file=sys.stderr, flush=True)
    context = multiprocessing.get_context("spawn")
    numba.set_num_threads(1)
    with concurrent.futures.ProcessPoolExecutor(args.processes, mp_context=context, initializer=_labelling_worker,
                                                initargs=(str(args.bootstrap) if args.bootstrap else None,)) as pool:
        for index, (start, line) in enumerate(zip(starts, lines)):
            before = len(labels)
            search = BeamSearch(line, BeamSettings.named(args.master_width, args.master_lookahead, args.master_weights))
            jobs = []
            for layer in range(1, args.max_layers + 1):
                search.run(max_depth=1, threads=1)
                if search.finished:
                    break
                drawn = rng.choice(len(search.layer_wells), size=min(args.per_layer, len(search.layer_wells)),
                                   replace=False)
                drawn_wells = np.ascontiguousarray(search.layer_wells[drawn])
                drawn_scores = np.ascontiguousarray(search.layer_scores[drawn])
                jobs.append((drawn_wells, drawn_scores, layer,
                             pool.submit(label_wells, drawn_wells, drawn_scores, args.label_width,
                                         args.label_pieces)))
            master = f"master beam {search.depth} layers, best {search.best_score} lines" + (
                ", died" if search.finished else "")
            for drawn_wells, drawn_scores, layer, job in jobs:
                wells.extend(drawn_wells.tolist())
                labels.extend(job.result())
                start_of.extend([index] * len(drawn_wells))
                scores.extend(drawn_scores.tolist())
                layers.extend([layer] * len(drawn_wells))
                if layer % 25 == 0 or job is jobs[-1][-1]:
                    elapsed = time.monotonic() - began
                    print(f"  {start}: layer {layer}, {len(labels):,} wells labelled, {len(labels) / elapsed:.2f} "
                          f"a second, {elapsed / 60:.1f} min", file=sys.stderr, flush=True)
            facts["seconds"] = round(time.monotonic() - began, 1)
            facts["samples"] = len(labels)
            save_data(args.out, wells, labels, start_of, scores, layers, facts)
            mine = np.array(labels[before:]) if len(labels) > before else np.zeros(1)
            print(f"{start}: {master}; {len(labels) - before} wells, labels mean {mine.mean():.2f}, "
                  f"max {mine.max():.2f}; {len(labels):,} in all, "
                  f"{(time.monotonic() - began) / 60:.1f} min", flush=True)
    print(f"{len(labels):,} labelled wells in {args.out} ({(time.monotonic() - began) / 60:.1f} min)")
    return 0


# --- 2. training -------------------------------------------------------------------------------------

#: What a network's facts repeat of each data file's facts (how its wells were drawn and labelled).
DATA_FACTS = ("starts", "master", "per_layer", "max_layers", "seed", "label", "samples", "date")


def read_data(paths: list[Path]) -> tuple[np.ndarray, np.ndarray, np.ndarray, list[str], int, list[dict]]:
    """Wells, labels, start numbers (into the returned start names), the start names, the well's
    width, and each file's facts."""
    all_wells, all_labels, all_starts, names, widths, all_facts = [], [], [], [], set(), []
    for path in paths:
        with np.load(path, allow_pickle=False) as archive:
            facts = json.loads(str(archive["facts"]))
            for name in facts["starts"]:
                if name not in names:
                    names.append(name)
            numbers = [names.index(name) for name in facts["starts"]]
            all_wells.append(archive["wells"])
            all_labels.append(archive["labels"])
            all_starts.append(np.array(numbers, dtype=np.int64)[archive["starts"]])
            widths.add(int(facts["width"]))
            all_facts.append({key: facts.get(key) for key in DATA_FACTS})
    if len(widths) != 1:
        raise SystemExit(f"the data files are of wells of several widths: {sorted(widths)}")
    return (np.concatenate(all_wells), np.concatenate(all_labels), np.concatenate(all_starts), names,
            widths.pop(), all_facts)


class Adam:
    def __init__(self, parameters: list[np.ndarray]) -> None:
        self.first = [np.zeros_like(p) for p in parameters]
        self.second = [np.zeros_like(p) for p in parameters]
        self.steps = 0

    def step(self, parameters: list[np.ndarray], gradients: list[np.ndarray]) -> None:
        self.steps += 1
        beta1, beta2 = ADAM_BETAS
        for parameter, gradient, first, second in zip(parameters, gradients, self.first, self.second):
            first *= beta1
            first += (1 - beta1) * gradient
            second *= beta2
            second += (1 - beta2) * gradient * gradient
            corrected = first / (1 - beta1 ** self.steps)
            parameter -= LEARNING_RATE * corrected / (np.sqrt(second / (1 - beta2 ** self.steps)) + ADAM_EPSILON)


def predict(parameters: list[np.ndarray], normalised: np.ndarray) -> np.ndarray:
    hidden, biases, outputs, output_bias = parameters
    return np.tanh(normalised @ hidden + biases) @ outputs + output_bias[0]


def train(args) -> int:
    began = time.monotonic()
    wells, labels, starts, names, width, data_facts = read_data(args.data)
    depth = wells.shape[1]
    features = learned.well_features(wells, width)
    means = features.mean(axis=0)
    deviations = features.std(axis=0)
    scales = np.where(deviations < 1e-6, 1.0, deviations)
    normalised = (features - means) / scales
    rng = np.random.default_rng(args.seed)
    order = rng.permutation(len(labels))
    held = order[: max(1, int(len(labels) * VALIDATION_SHARE))]
    used = order[len(held):]
    inputs = features.shape[1]
    parameters = [rng.normal(size=(inputs, args.units)) / np.sqrt(inputs), np.zeros(args.units),
                  rng.normal(size=args.units) / np.sqrt(args.units), np.array([labels[used].mean()])]
    adam = Adam(parameters)

    def loss(rows: np.ndarray, values: list[np.ndarray]) -> float:
        return float(np.mean((predict(values, normalised[rows]) - labels[rows]) ** 2))

    best = (loss(held, parameters), 0, [p.copy() for p in parameters])
    epoch = 0
    for epoch in range(1, args.epochs + 1):
        shuffled = rng.permutation(used)
        for first in range(0, len(shuffled), BATCH):
            rows = shuffled[first:first + BATCH]
            hidden, biases, outputs, output_bias = parameters
            activations = np.tanh(normalised[rows] @ hidden + biases)
            error = 2 * (activations @ outputs + output_bias[0] - labels[rows]) / len(rows)
            through = np.outer(error, outputs) * (1 - activations ** 2)
            adam.step(parameters, [normalised[rows].T @ through, through.sum(axis=0), activations.T @ error,
                                   np.array([error.sum()])])
        validation = loss(held, parameters)
        if validation < best[0]:
            best = (validation, epoch, [p.copy() for p in parameters])
        if epoch % 20 == 0:
            print(f"  epoch {epoch}: train RMSE {np.sqrt(loss(used, parameters)):.3f}, validation RMSE "
                  f"{np.sqrt(validation):.3f} (best {np.sqrt(best[0]):.3f} at epoch {best[1]})", file=sys.stderr,
                  flush=True)
        if epoch - best[1] >= PATIENCE:
            break
    parameters = best[2]
    predicted = predict(parameters, normalised)
    residual = predicted - labels
    correlation = float(np.corrcoef(predicted[held], labels[held])[0, 1]) if labels[held].std() > 0 else 0.0
    per_start = {names[number]: {"wells": int((starts[held] == number).sum()),
                                 "validation_rmse": round(float(np.sqrt(np.mean(residual[held][starts[held] == number]
                                                                                ** 2))), 4)}
                 for number in np.unique(starts[held])}
    facts = {"data": [str(path) for path in args.data], "data_facts": data_facts, "samples": int(len(labels)),
             "training": int(len(used)), "validation": int(len(held)), "units": args.units, "epochs": epoch,
             "best_epoch": best[1], "seed": args.seed,
             "train_rmse": round(float(np.sqrt(np.mean(residual[used] ** 2))), 4),
             "validation_rmse": round(float(np.sqrt(np.mean(residual[held] ** 2))), 4),
             "validation_rmse_of_the_mean": round(float(np.sqrt(np.mean((labels[held] - labels[used].mean()) ** 2))),
                                                  4),
             "validation_correlation": round(correlation, 4), "label_mean": round(float(labels.mean()), 4),
             "per_start": per_start, "date": now(), "machine": machine()}
    hidden, biases, outputs, output_bias = parameters
    packed = learned.pack(means, scales, hidden, biases, outputs, float(output_bias[0]))
    learned.Network(packed, learned.LEARNED_WEIGHTS, width, depth, facts).save(args.out)
    check_saved(args.out, packed, features, rng)
    print(json.dumps(facts, indent=1, sort_keys=True))
    print(f"saved {args.out} ({os.path.getsize(args.out):,} bytes; {time.monotonic() - began:.0f} s); read back and "
          f"the kernel's values agree with numpy's")
    return 0


def check_saved(path: Path, packed: np.ndarray, features: np.ndarray, rng: np.random.Generator) -> None:
    """The saved file reads back to the same network, and the kernel values wells as numpy does."""
    network = learned.load(path)
    if not np.array_equal(network.network, packed) or network.weights != learned.LEARNED_WEIGHTS:
        raise SystemExit(f"{path} does not read back to the network trained")
    rows = rng.choice(len(features), size=min(50, len(features)), replace=False)
    expected = forward(packed, features[rows])
    for row, value in zip(rows, expected):
        found = kernel.network_value(network.network, features[row].copy())
        if abs(found - value) > 1e-9:
            raise SystemExit(f"the kernel values a well {found!r}, numpy {value!r}")


# --- 3. the comparison -------------------------------------------------------------------------------

def equal_time(run: BeamRun, hand_runs: dict[int, BeamRun]) -> str:
    """The hand beam from the same start that took about as long as the learned ``run`` (within
    a third), or the width that would, estimated from the nearest measured one."""
    if not hand_runs:
        return "not measured"
    width, nearest = min(hand_runs.items(), key=lambda item: abs(np.log(max(item[1].seconds, 1e-3)
                                                                        / max(run.seconds, 1e-3))))
    ratio = run.seconds / max(nearest.seconds, 1e-3)
    if 0.75 <= ratio <= 1.33:
        return f"{width:,}: {nearest.lines_gained} lines"
    return f"~{round(width * ratio, -2):,.0f} (not measured)"


def compare(args) -> int:
    starts = [start for start in args.starts.split(",") if start]
    lines = {start: start_line(start) for start in starts}  # all checked before any search
    widths = [int(width) for width in args.widths.split(",")]
    # Extra hand beams only for the equal-time column (the learned evaluation costs more a well).
    hand_only = [int(width) for width in args.hand_widths.split(",") if width and int(width) not in widths]
    network = learned.load(args.network) if args.network else learned.shipped()
    network_facts = network.facts
    load_before = os.getloadavg()
    began = time.monotonic()
    print(f"# {machine()}; {now()}; lookahead {args.lookahead}; network {args.network or 'shipped'}", flush=True)
    context = multiprocessing.get_context("spawn")
    runs = {}
    with concurrent.futures.ProcessPoolExecutor(2, mp_context=context, max_tasks_per_child=1) as pool:
        planned = [(start, width, evaluation) for start in starts for width in widths
                   for evaluation in ("hand", "learned")]
        planned += [(start, width, "hand") for start in starts for width in hand_only]
        jobs = {(start, width, evaluation): pool.submit(
                    run_beam, lines[start],
                    BeamSettings.named(width, args.lookahead, "df" if evaluation == "hand" else evaluation),
                    args.minutes, threads=1, network=str(args.network) if args.network else None)
                for start, width, evaluation in planned}
        for key, job in jobs.items():
            runs[key] = job.result()
            start, width, evaluation = key
            print(f"  {start:<28} {width:>7,} {evaluation:<8} {runs[key].lines_gained:>4} lines "
                  f"{runs[key].pieces_gained:>4} pieces {runs[key].seconds / 60:6.1f} min "
                  f"({(time.monotonic() - began) / 60:.1f} min so far)", file=sys.stderr, flush=True)
    load_after = os.getloadavg()
    header = ("start", "width", "hand lines", "hand pieces", "hand min", "learned lines", "learned pieces",
              "learned min", "hand at the learned one's time")
    rows = []

    def cells(run: BeamRun) -> list[str]:
        cap = "" if run.finished else " (cap)"
        return [f"{run.lines_gained}", f"{run.pieces_gained}", f"{run.seconds / 60:.2f}{cap}"]

    for start in starts:
        hand_runs = {width: runs[start, width, "hand"] for width in widths + hand_only}
        for width in widths:
            learned_run = runs[start, width, "learned"]
            rows.append([start, f"{width:,}", *cells(hand_runs[width]), *cells(learned_run),
                         equal_time(learned_run, hand_runs)])
    for width in widths:
        mean = {evaluation: np.mean([runs[start, width, evaluation].lines_gained for start in starts])
                for evaluation in ("hand", "learned")}
        minutes = {evaluation: np.mean([runs[start, width, evaluation].seconds for start in starts]) / 60
                   for evaluation in ("hand", "learned")}
        rows.append([f"**mean of {len(starts)} starts**", f"{width:,}", f"{mean['hand']:.1f}", "",
                     f"{minutes['hand']:.2f}", f"{mean['learned']:.1f}", "", f"{minutes['learned']:.2f}", ""])
    for width in hand_only:
        mean = np.mean([runs[start, width, "hand"].lines_gained for start in starts])
        minutes = np.mean([runs[start, width, "hand"].seconds for start in starts]) / 60
        rows.append([f"**mean of {len(starts)} starts**", f"{width:,}", f"{mean:.1f}", "", f"{minutes:.2f}",
                     "", "", "", "hand only (equal time)"])
    summary = {key: network_facts.get(key) for key in ("samples", "units", "validation_rmse", "validation_correlation",
                                                        "date")}
    facts = (f"Lines and pieces gained from each start (record-game starts: after their prefix); hand: D&F's weights; "
             f"learned: {args.network or 'the shipped network'} ({json.dumps(summary)}); lookahead {args.lookahead}, "
             f"one thread a beam, two beams at a time, cap {args.minutes:g} min; {machine()}; load average "
             f"{load_before[0]:.2f} before, {load_after[0]:.2f} after; {now()}")
    table = [f"{facts}", "", "| " + " | ".join(header) + " |",
             "|" + "|".join("---" if index == 0 else "---:" for index in range(len(header))) + "|"]
    table += ["| " + " | ".join(row) + " |" for row in rows]
    text = "\n".join(table) + "\n"
    print(text)
    if args.markdown is not None:
        write_text_atomic(args.markdown, text)
        print(f"the table is in {args.markdown}")
    print(f"{(time.monotonic() - began) / 60:.1f} min in all")
    return 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    verbs = parser.add_subparsers(dest="verb", required=True)
    data = verbs.add_parser("data", help="label wells of master beams with small beams' lines")
    data.add_argument("--out", type=Path, required=True)
    data.add_argument("--starts", default=",".join(TRAINING))
    data.add_argument("--master-width", type=int, default=2000)
    data.add_argument("--master-lookahead", type=int, default=4)
    data.add_argument("--master-weights", default="df", choices=sorted(WEIGHT_SETS))
    data.add_argument("--per-layer", type=int, default=8, help="wells drawn from each master layer")
    data.add_argument("--max-layers", type=int, default=150)
    data.add_argument("--label-width", type=int, default=100)
    data.add_argument("--label-pieces", type=int, default=20)
    data.add_argument("--bootstrap", type=Path, help="an earlier generation's network: values the small beam's "
                                                     "last layer")
    data.add_argument("--processes", type=int, default=2)
    data.add_argument("--seed", type=int, default=1)
    fit = verbs.add_parser("train", help="train a network on labelled wells")
    fit.add_argument("data", type=Path, nargs="+")
    fit.add_argument("--out", type=Path, required=True)
    fit.add_argument("--units", type=int, default=16)
    fit.add_argument("--epochs", type=int, default=300)
    fit.add_argument("--seed", type=int, default=1)
    against = verbs.add_parser("compare", help="beams with the hand heuristic and with the learned evaluation")
    against.add_argument("--widths", default="1000,3000,10000")
    against.add_argument("--lookahead", type=int, default=4)
    against.add_argument("--hand-widths", default="", help="more widths for the hand heuristic alone, to "
                                                           "find its result at the learned beams' times")
    against.add_argument("--network", type=Path, help="a network file (default: the shipped one)")
    against.add_argument("--starts", default=",".join(("empty", *HELD_BACK)))
    against.add_argument("--minutes", type=float, default=30.0, help="time cap of one beam")
    against.add_argument("--markdown", type=Path, help="write the table and its facts line here")
    args = parser.parse_args()
    return {"data": make_data, "train": train, "compare": compare}[args.verb](args)


if __name__ == "__main__":
    raise SystemExit(main())
