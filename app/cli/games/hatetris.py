"""HATETRIS on the command line: ``replay`` of a replay code (typed, or in a file) against
HATETRIS or HATETRIS Mild, and ``search``, a beam search from the empty well or a replay's end,
with a progress line, a checkpoint to continue from and the best game as a playable Base2048
replay."""

from __future__ import annotations

import json
import time
from pathlib import Path

from advisors.cluster import MAX_WORKERS as MAX_CLUSTER_WORKERS
from advisors.hatetris import MAX_LOOKAHEAD
from app.cli import search as search_verb
from app.cli.games import GamePlug, review_option_values, review_options_adder
from app.cli.inputs import parse_line, read_argument, replay_line
from app.cli.options import THREADS, UsageError, whole_number
from app.cli.reporting import progress as say_progress
from engines.errors import KibitzInputError

#: the files of a search folder (the window's HATETRIS search jobs use the same)
CHECKPOINT_FILE = "beam.npz"
BEST_FILE = "best-replay.txt"
#: the widest beam taken (a million wells take about 8 GB while a layer is expanded)
MAX_WIDTH = 1_000_000
TYPED_NAME = "the replay"


def _rules(args):
    from engines.hatetris import DEFAULT_RULES, MILD_RULES

    return MILD_RULES if getattr(args, "mild", False) else DEFAULT_RULES


def reading_options(args) -> dict:
    return {"rules": _rules(args)}


def add_mild_option(group) -> None:
    group.add_argument("--mild", action="store_true", help="play against HATETRIS Mild (no loop prevention)")


def read_line(game, argument: str, rules):
    """A replay code (or placement list) typed on the command line or in a file: (line, source)."""
    text, source = read_argument(argument, TYPED_NAME)
    return parse_line(game, text, source, rules=rules), source


# -- replay -----------------------------------------------------------------------------------------
def replay(game, args) -> int:
    rules = _rules(args)
    line, source = read_line(game, args.file, rules)
    final = replay_line(game, line, source)
    pieces = len(line.moves) + (0 if final.over else 1)  # every piece the AI sent
    result = {"game": "hatetris", "score": final.score, "pieces": pieces, "over": final.over,
              "placements": len(line.moves), "enemy": rules.enemy}
    if args.json:
        print(json.dumps(result))
    else:
        print(f"HATETRIS ({'HATETRIS Mild' if args.mild else 'HATETRIS'} enemy)")
        print(f"score  {final.score}")
        print(f"pieces {pieces}")
        print(f"over   {'yes' if final.over else 'no'}")
    return 0


# -- search -----------------------------------------------------------------------------------------
def add_search_options(group) -> None:
    group.add_argument("--width", type=whole_number(1, MAX_WIDTH), default=None,
                       help=f"wells kept per piece, 1 to {MAX_WIDTH:,} (default 1000)")
    group.add_argument("--lookahead", type=whole_number(0, MAX_LOOKAHEAD), default=None,
                       help=f"levels of the 'bird in the hand' lookahead (spec 3.5), 0 to {MAX_LOOKAHEAD} "
                       "(default 0, off)")
    group.add_argument("--weights", choices=("df", "df-tim", "kibitz"), default=None,
                       help="heuristic weights: David & Felipe's published set, theirs with Tim's three terms "
                            "tuned on five start positions (df-tim), or Kibitz's set with the "
                            "S-reach term (default kibitz, the stronger in narrow beams without the "
                            "lookahead; wide beams go further with df and a lookahead of 8, 72 lines at width "
                            "100,000: README, HATETRIS)")
    group.add_argument("--evaluation", choices=("hand", "learned"), default=None,
                       help="how wells are valued: the hand heuristic with --weights (default), or the "
                            "learned network shipped with Kibitz (its own weights; README, HATETRIS)")
    add_mild_option(group)
    group.add_argument("--threads", type=THREADS, help="cores to use, 1 to 256 (default: all)")
    group.add_argument("--workers", type=whole_number(1, MAX_CLUSTER_WORKERS),
                       help="with --cluster: shards of the beam, one cluster CPU each (default: all the cluster's)")


def search(game, args) -> int:
    from advisors.hatetris.beam import BeamSearch, BeamSettings
    from engines.contract import Line
    from engines.files import write_text_atomic

    rules = _rules(args)
    address = search_verb.cluster_address(args)
    if address is None and args.workers is not None:
        raise UsageError("kibitz search hatetris: --workers counts cluster CPUs and needs --cluster "
                         "(on this machine, --threads gives the cores)")
    if address is not None and args.threads is not None:
        raise UsageError("kibitz search hatetris: --threads is for this machine's beam; on a cluster, "
                         "--workers gives the shards")
    try:
        if args.resume:
            if args.from_file or args.from_move is not None:
                raise UsageError("kibitz search: --resume continues a saved search; it cannot take --from/--from-move")
            folder = Path(args.resume)
            if not folder.is_dir():
                raise KibitzInputError("no such folder" if not folder.exists() else "is a file, not a search folder",
                                       source=args.resume)
            if not (folder / CHECKPOINT_FILE).is_file():
                raise KibitzInputError(f"no {CHECKPOINT_FILE} here; is this a search folder?", source=args.resume)
            search = BeamSearch.load(folder / CHECKPOINT_FILE)
        else:
            if args.from_file:
                line, source = read_line(game, args.from_file, rules)
                final = replay_line(game, line, source)
            else:
                line, source, final = Line(game.initial_state(rules), ()), None, None
            keep = args.from_move
            if keep is not None and keep > len(line.moves):
                raise KibitzInputError(f"--from-move {keep} is outside the replay, which has {len(line.moves)} "
                                       "placements", source=source)
            if keep is None and line.moves and final is not None and final.over:
                keep = len(line.moves) - 1  # a finished game: search on from before its last lock
                say_progress(f"the replay ends the game; searching from placement {keep}")
            if keep is not None:
                line = Line(line.start, line.moves[:keep])
            if args.evaluation == "learned" and args.weights is not None:
                raise UsageError("kibitz search hatetris: --weights is for the hand heuristic; the learned "
                                 "evaluation brings its own")
            settings = BeamSettings.named(args.width or 1000, args.lookahead or 0,
                                          "learned" if args.evaluation == "learned" else args.weights or "kibitz")
            search = BeamSearch(line, settings)
            folder = search_verb.output_folder(args, f"hatetris-beam-{settings.width}")
            if (folder / CHECKPOINT_FILE).exists():
                raise KibitzInputError(f"already holds a search; continue it with --resume {folder}", source=str(folder))
            folder.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise KibitzInputError(f"{error.strerror or error}",
                               source=str(error.filename or args.from_file or args.resume or args.out)) from None

    last = [0.0]

    def report(progress) -> None:
        now = time.monotonic()
        if now - last[0] < 5 and not progress.finished:
            return
        last[0] = now
        minutes, seconds = divmod(int(progress.elapsed), 60)
        say_progress(f"{minutes:d}:{seconds:02d}  depth {progress.depth}  best score {progress.best_score}  "
                     f"beam {progress.beam_size:,}  {progress.wells_per_second:,.0f} wells/s")

    runner = search
    if address is not None:
        from advisors.hatetris.cluster import ClusterBeam

        runner = ClusterBeam(search, address, args.workers)
        say_progress(f"on the cluster at {address}: {runner.shards} shard{'s' if runner.shards != 1 else ''}")
    say_progress(f"beam search (width {search.settings.width:,}) in {folder}; Ctrl-C stops, --resume {folder} continues")
    try:
        if address is None:
            result = search.run(seconds=args.minutes * 60 if args.minutes else None, progress=report,
                                checkpoint=folder / CHECKPOINT_FILE, threads=args.threads,
                                checkpoint_seconds=args.checkpoint_seconds)
        else:
            result = runner.run(seconds=args.minutes * 60 if args.minutes else None, progress=report,
                                checkpoint=folder / CHECKPOINT_FILE, checkpoint_seconds=args.checkpoint_seconds)
    except KeyboardInterrupt:
        result = search.result(stopped=True)
    finally:
        if address is not None:
            runner.close()
    best_file = folder / BEST_FILE
    if result.replay:
        write_text_atomic(best_file, result.replay + "\n")
    summary = {
        "game": "hatetris", "score": result.score, "pieces": result.pieces, "depth": result.depth,
        "width": search.settings.width, "lookahead": search.settings.lookahead,
        "evaluation": search.settings.evaluation, "enemy": search.rules.enemy,
        "replay": result.replay, "best_file": str(best_file) if result.replay else None, "folder": str(folder),
        "children": result.children, "seconds": round(result.seconds, 1), "finished": result.finished,
    }
    if args.json:
        print(json.dumps(summary))
    else:
        print(f"best      {result.score} lines in {result.pieces} pieces (depth {result.depth})")
        print(f"replay    {result.replay}")
        print(f"saved     {best_file}" if result.replay else "saved     (no replay: the line starts from a set-up board)")
        print(f"resume    kibitz search hatetris --resume {folder}")
    return 0


PLUG = GamePlug(
    options={"replay": add_mild_option, "convert": add_mild_option, "search": add_search_options,
             "review": review_options_adder("hatetris", before=add_mild_option)},
    work={"replay": replay, "search": search},
    reading_options=reading_options,
    review_options=review_option_values("hatetris"),
)
