"""``kibitz search hatetris ...``: a beam search from the empty well or a replay's end, with a
progress line, a checkpoint to continue from and the best game as a playable Base2048 replay."""

from __future__ import annotations

import json
import sys
import time
from datetime import datetime
from pathlib import Path

from engines.errors import KibitzInputError

CHECKPOINT_FILE = "beam.npz"
BEST_FILE = "best-replay.txt"


def add_arguments(search) -> None:
    group = search.add_argument_group("HATETRIS beam search (spec 3.1)")
    group.add_argument("--width", type=int, default=None, help="wells kept per piece (default 1000)")
    group.add_argument("--lookahead", type=int, default=None,
                       help="levels of the 'bird in the hand' lookahead (spec 3.5; default 0, off)")
    group.add_argument("--weights", choices=("df", "kibitz"), default=None,
                       help="heuristic weights: David & Felipe's published set, or Kibitz's set with the "
                            "S-reach term, tuned on beams from the empty well (default kibitz)")
    group.add_argument("--mild", action="store_true", help="play against HATETRIS Mild (no loop prevention)")
    group.add_argument("--threads", type=int, help="cores to use (default: all)")


def read_line(game, source: str, rules):
    """A replay code or a file holding one (or a placement list)."""
    from engines.files import read_text

    path = Path(source)
    try:
        is_file = path.is_file()
    except OSError:
        is_file = False
    text, name = (read_text(path), str(path)) if is_file else (source, "the replay")
    return game.parse_sequence(text, source=name, rules=rules)


def run(game, args) -> int:
    from advisors.hatetris.beam import BeamSearch, BeamSettings
    from advisors.hatetris.heuristic import WEIGHT_SETS
    from app.cli import fail
    from engines.files import write_text_atomic
    from engines.hatetris import MILD_RULES, DEFAULT_RULES

    rules = MILD_RULES if args.mild else DEFAULT_RULES
    for name in ("minutes", "width", "threads"):
        value = getattr(args, name, None)
        if value is not None and value <= 0:
            print(f"kibitz: --{name} must be positive", file=sys.stderr)
            return 2
    try:
        if args.resume:
            if args.from_file:
                print("kibitz: --resume continues a saved search; it cannot take --from", file=sys.stderr)
                return 2
            folder = Path(args.resume)
            search = BeamSearch.load(folder / CHECKPOINT_FILE)
        else:
            from engines.contract import Line

            line = read_line(game, args.from_file, rules) if args.from_file else Line(game.initial_state(rules), ())
            keep = args.from_move
            if keep is not None and not 0 <= keep <= len(line.moves):
                return fail(f"--from-move {keep} is outside the replay, which has {len(line.moves)} placements",
                            args.json, game.short_name)
            if keep is None and line.moves and game.replay(line.start, line.moves).over:
                keep = len(line.moves) - 1  # a finished game: search on from before its last lock
                if not args.json:
                    print(f"the replay ends the game; searching from placement {keep}", file=sys.stderr)
            if keep is not None:
                line = Line(line.start, line.moves[:keep])
            settings = BeamSettings(width=args.width or 1000, lookahead=args.lookahead or 0,
                                    weights=WEIGHT_SETS[args.weights or "kibitz"])
            search = BeamSearch(line, settings)
            folder = Path(args.out or f"hatetris-beam-{settings.width}-{datetime.now():%Y%m%d-%H%M%S}")
            if (folder / CHECKPOINT_FILE).exists():
                return fail(f"{folder} already holds a search; continue it with --resume {folder}",
                            args.json, game.short_name)
            folder.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        return fail(f"{error.filename or args.from_file or args.resume}: {error.strerror or error}",
                    args.json, game.short_name)
    except KibitzInputError as error:
        return fail(str(error), args.json, game.short_name, error)
    except ValueError as error:
        return fail(str(error), args.json, game.short_name)

    last = [0.0]

    def report(progress) -> None:
        now = time.monotonic()
        if now - last[0] < 5 and not progress.finished:
            return
        last[0] = now
        minutes, seconds = divmod(int(progress.elapsed), 60)
        print(f"{minutes:d}:{seconds:02d}  depth {progress.depth}  best score {progress.best_score}  "
              f"beam {progress.beam_size:,}  {progress.wells_per_second:,.0f} wells/s", file=sys.stderr, flush=True)

    if not args.json:
        print(f"beam search (width {search.settings.width:,}) in {folder}; Ctrl-C stops, "
              f"--resume {folder} continues", file=sys.stderr)
    try:
        result = search.run(seconds=args.minutes * 60 if args.minutes else None, progress=report,
                            checkpoint=folder / CHECKPOINT_FILE, threads=args.threads)
    except KeyboardInterrupt:
        result = search.result(stopped=True)
    best_file = folder / BEST_FILE
    if result.replay:
        write_text_atomic(best_file, result.replay + "\n")
    summary = {
        "game": "hatetris",
        "score": result.score,
        "pieces": result.pieces,
        "depth": result.depth,
        "width": search.settings.width,
        "lookahead": search.settings.lookahead,
        "enemy": search.rules.enemy,
        "replay": result.replay,
        "best_file": str(best_file) if result.replay else None,
        "folder": str(folder),
        "children": result.children,
        "seconds": round(result.seconds, 1),
        "finished": result.finished,
    }
    if args.json:
        print(json.dumps(summary))
    else:
        print(f"best      {result.score} lines in {result.pieces} pieces (depth {result.depth})")
        print(f"replay    {result.replay}")
        print(f"saved     {best_file}" if result.replay else "saved     (no replay: the line starts from a set-up board)")
        print(f"resume    kibitz search hatetris --resume {folder}")
    return 0
