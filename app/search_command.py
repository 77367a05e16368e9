"""``kibitz search splt ...``: run a search headless, with a progress line and a resumable folder."""

from __future__ import annotations

import dataclasses
import json
import sys
import time
from datetime import datetime

from engines.errors import KibitzInputError


def add_parser(verbs) -> None:
    search = verbs.add_parser(
        "search",
        help="search for long games on all cores (SPL-T: greedy, weighted random, ParanoidPlay; "
        "HATETRIS: beam search)",
        description="Search for the longest game. Every new best is written at once to the output folder "
        "in both sequence formats; the folder also holds checkpoints, so a killed search continues "
        "with --resume FOLDER. Ctrl-C stops cleanly.",
    )
    search.add_argument("game", help="short name of the game: splt or hatetris")
    search.add_argument("--player", choices=("greedy", "weighted", "paranoid"), default="paranoid")
    search.add_argument("--from", dest="from_file", metavar="FILE",
                        help="start from this sequence file instead of the empty board (HATETRIS: a "
                        "replay code or a file holding one)")
    search.add_argument("--from-move", type=int, metavar="K",
                        help="keep the file's first K moves and search only after them "
                        "(default: all of its moves); the first game replays the rest of the file")
    search.add_argument("--format", default=None, help="the --from file's format (detected when omitted)")
    search.add_argument("--minutes", type=float, help="stop after this many minutes (default: until Ctrl-C)")
    search.add_argument("--games", type=int, help="stop after this many more games")
    search.add_argument("--workers", type=int, help="worker processes (default: one per core)")
    search.add_argument("--resume", metavar="FOLDER", help="continue the search saved in FOLDER")
    search.add_argument("--out", metavar="FOLDER",
                        help="where bests and checkpoints go (default: splt-PLAYER-DATE-TIME here)")
    search.add_argument("--seed", type=int, help="random seed (default: from the clock)")
    search.add_argument("--checkpoint-seconds", type=float, default=30.0,
                        help="how often each worker saves its state (default 30)")
    paranoid = search.add_argument_group("ParanoidPlay (spec 3.6)")
    paranoid.add_argument("--variant", choices=("blog", "reference-1053"), default="blog",
                          help="blog: the algorithm as the blog describes it (default); reference-1053: "
                          "paranoidAlgoPlay.py as committed, which reproduces the logged 1053 run")
    paranoid.add_argument("--opening-moves", type=int, help="weighted-random opening moves (blog: 50)")
    paranoid.add_argument("--reseed-below", type=int,
                          help="backtracking to this split count or lower starts a new opening (blog: 250; 0 never)")
    paranoid.add_argument("--close-call-every", type=int,
                          help="branch on every n-th close call (blog: 2; 0 never)")
    paranoid.add_argument("--close-call-after", type=int, help="close calls only after this split (blog: 0)")
    paranoid.add_argument("--stale-games", type=int,
                          help="start a new opening after this many games without a longer game since the "
                          "last one (default 20000; 0 never, as the blog)")
    paranoid.add_argument("--trigger", choices=("cluster", "last-box", "off"),
                          help="big-cluster branch points: cluster (the split made point blocks bigger than "
                          "1x1; blog), last-box (the reference code's test), off")
    from app import hatetris_search

    hatetris_search.add_arguments(search)
    search.add_argument("--json", action="store_true", help="print the result as one JSON object")


def _settings(args):
    from advisors.splt.search import Settings

    if args.player != "paranoid":
        return Settings.for_player(args.player)
    settings = Settings.reference_1053() if args.variant == "reference-1053" else Settings()
    changes = {
        "opening_moves": args.opening_moves,
        "reseed_below": args.reseed_below,
        "close_call_every": args.close_call_every,
        "close_call_after": args.close_call_after,
        "trigger": args.trigger,
        "stale_games": args.stale_games,
    }
    return dataclasses.replace(settings, **{k: v for k, v in changes.items() if v is not None})


class _ProgressPrinter:
    """A bar rewritten in place on a terminal; otherwise a line every ``every`` seconds."""

    def __init__(self, stream, every: float = 10.0):
        self.stream = stream
        self.interactive = stream.isatty()
        self.every = every
        self.last = 0.0

    def __call__(self, progress) -> None:
        now = time.monotonic()
        if not self.interactive and not progress.new_best and now - self.last < self.every:
            return
        self.last = now
        exploring = "-" if progress.exploring_from is None else str(progress.exploring_from)
        minutes, seconds = divmod(int(progress.elapsed), 60)
        text = (
            f"{minutes:d}:{seconds:02d}  games {progress.games:,} ({progress.games_per_second:,.0f}/s, "
            f"{progress.workers} worker{'s' if progress.workers != 1 else ''})  best {progress.best_splits} "
            f"splits, score {progress.best_score:,}  exploring from {exploring}"
        )
        if self.interactive:
            self.stream.write("\r\x1b[K" + text)
            if progress.new_best:
                self.stream.write("\n")
        else:
            self.stream.write(text + "\n")
        self.stream.flush()

    def close(self) -> None:
        if self.interactive:
            self.stream.write("\n")
            self.stream.flush()


def run(game, args) -> int:
    from app.cli import fail, load_line

    if game.short_name == "hatetris":
        from app import hatetris_search

        return hatetris_search.run(game, args)
    if game.short_name != "splt":
        print(f"kibitz: no search for {game.title} yet", file=sys.stderr)
        return 2
    from advisors.splt.parallel import ParallelSearch

    for name in ("minutes", "games", "workers", "checkpoint_seconds"):
        value = getattr(args, name)
        if value is not None and value <= 0:
            print(f"kibitz: --{name.replace('_', '-')} must be positive", file=sys.stderr)
            return 2
    try:
        settings = _settings(args)
    except ValueError as error:
        print(f"kibitz: {error}", file=sys.stderr)
        return 2
    try:
        if args.resume:
            if args.from_file or args.from_move is not None:
                print("kibitz: --resume continues a saved search; it cannot take --from/--from-move",
                      file=sys.stderr)
                return 2
            search = ParallelSearch.resume(args.resume, workers=args.workers)
        else:
            line = None
            if args.from_file:
                line, _ = load_line(game, args.from_file, args.format)
                if args.from_move is not None and not 0 <= args.from_move <= len(line.moves):
                    return fail(
                        f"{args.from_file}: --from-move {args.from_move} is outside the file, which has "
                        f"{len(line.moves)} moves", args.json, game.short_name,
                    )
            elif args.from_move is not None:
                print("kibitz: --from-move needs --from FILE", file=sys.stderr)
                return 2
            folder = args.out or f"splt-{settings.player}-{datetime.now():%Y%m%d-%H%M%S}"
            search = ParallelSearch.create(
                folder, settings, line, args.from_move, workers=args.workers, seed=args.seed,
                checkpoint_seconds=args.checkpoint_seconds,
            )
    except OSError as error:
        name = getattr(error, "filename", None) or args.from_file or args.resume
        return fail(f"{name}: {error.strerror or error}", args.json, game.short_name)
    except KibitzInputError as error:
        return fail(str(error), args.json, game.short_name, error)
    except ValueError as error:
        return fail(str(error), args.json, game.short_name)

    printer = _ProgressPrinter(sys.stderr)
    if not args.json:
        print(f"searching ({settings.player}) in {search.folder}; Ctrl-C stops, --resume {search.folder} "
              "continues", file=sys.stderr)
    try:
        result = search.run(
            seconds=args.minutes * 60 if args.minutes else None, games=args.games, progress=printer
        )
    except RuntimeError as error:
        printer.close()
        return fail(str(error), args.json, game.short_name)
    printer.close()
    summary = {
        "game": "splt",
        "player": result.player,
        "best_moves": result.best_splits,
        "best_score": result.best_score,
        "games": result.games,
        "best_file": str(result.best_file) if result.best_file else None,
        "best_index_file": str(result.best_index_file) if result.best_index_file else None,
        "folder": str(result.folder),
        "games_this_run": result.games_this_run,
        "seconds": round(result.seconds, 1),
        "games_per_second": round(result.games_this_run / result.seconds, 1) if result.seconds else 0.0,
        "exhausted": result.exhausted,
    }
    if args.json:
        print(json.dumps(summary))
    else:
        print(f"best      {result.best_splits} splits, score {result.best_score:,}")
        print(f"games     {result.games:,} ({summary['games_per_second']:,}/s this run)")
        if result.best_file:
            print(f"best game {result.best_file} (index list: {result.best_index_file})")
        print(f"resume    kibitz search splt --resume {result.folder}")
    return 0
