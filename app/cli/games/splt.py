"""SPL-T on the command line: ``advise`` (the heuristic ranking), ``search`` (greedy, weighted
random, ParanoidPlay on all cores) and ``bench`` (random playouts on one core, also measured by
``benchmarks/splt_engine.py``)."""

from __future__ import annotations

import dataclasses
import json
import sys
import time

import numpy as np

from app.cli import search as search_verb
from app.cli.games import GamePlug, review_option_values, review_options_adder
from app.cli.inputs import load_line
from app.cli.options import SEED, THREADS, UsageError, number, whole_number
from app.cli.reporting import progress as say_progress
from engines.errors import KibitzInputError

#: bounds of ParanoidPlay's counts (splits and games; a game has at most some thousands of splits)
MAX_SPLITS = 100_000
MAX_GAMES = 10 ** 12


# -- advise -----------------------------------------------------------------------------------------
def add_advise_options(group) -> None:
    from engines import GAMES

    group.add_argument("--format", default=None, choices=GAMES["splt"].sequence_formats,
                       help="the file's format (detected when omitted)")


def advise(game, args) -> int:
    from advisors.splt.heuristic import rank

    line, final = load_line(game, args.file, args.format)
    candidates = rank(final)
    if args.json:
        print(json.dumps({
            "game": game.short_name,
            "moves": len(line.moves),
            "candidates": [
                {"move": game.move_text(c.move), "index": c.index, "weight": c.score, "loss": c.loss,
                 "new_halving": c.new_halving, "halvings": c.halvings, "unexpected_cluster": bool(c.unexpected),
                 "explanation": c.explanation}
                for c in candidates
            ],
        }))
        return 0
    print(f"{args.file}: {game.title} after {len(line.moves)} moves, score {game.score(final)}")
    if not candidates:
        print("game over: no legal move")
    for rank_number, c in enumerate(candidates, start=1):
        flags = ("H" if c.new_halving else "-") + ("U" if c.unexpected else "-")
        print(f"{rank_number:>2}. [{c.index:>3}] {game.move_text(c.move):<10} {c.score:>8.2f} {flags}  {c.explanation}")
        for warning in c.warnings:
            print(f"{'':22}! {warning}")
    return 0


# -- search -----------------------------------------------------------------------------------------
def add_search_options(group) -> None:
    from engines import GAMES

    counted = whole_number(0, MAX_SPLITS)
    group.add_argument("--player", choices=("greedy", "weighted", "paranoid"), default="paranoid",
                       help="the player that plays the games (default paranoid: ParanoidPlay, spec 3.6)")
    group.add_argument("--format", default=None, choices=GAMES["splt"].sequence_formats,
                       help="the --from file's format (detected when omitted)")
    group.add_argument("--games", type=whole_number(1, MAX_GAMES), help="stop after this many more games")
    group.add_argument("--workers", type=THREADS, help="worker processes, 1 to 256 (default: one per core; with "
                       "--cluster, one per cluster CPU)")
    group.add_argument("--seed", type=SEED, help="random seed, 0 to 2^32-1 (default: from the clock)")
    group.add_argument("--variant", choices=("blog", "reference-1053"), default="blog",
                       help="ParanoidPlay: blog, the algorithm as the blog describes it (default); reference-1053: "
                       "paranoidAlgoPlay.py as committed, which reproduces the logged 1053 run")
    group.add_argument("--opening-moves", type=counted, help="ParanoidPlay: weighted-random opening moves (blog: 50)")
    group.add_argument("--reseed-below", type=counted,
                       help="ParanoidPlay: backtracking to this split count or lower starts a new opening "
                       "(blog: 250; 0 never)")
    group.add_argument("--close-call-every", type=counted,
                       help="ParanoidPlay: branch on every n-th close call (blog: 2; 0 never)")
    group.add_argument("--close-call-after", type=counted,
                       help="ParanoidPlay: close calls only after this split (blog: 0)")
    group.add_argument("--stale-games", type=whole_number(0, MAX_GAMES),
                       help="ParanoidPlay: start a new opening after this many games without a longer game since "
                       "the last one (default 20000; 0 never, as the blog)")
    group.add_argument("--trigger", choices=("cluster", "last-box", "off"),
                       help="ParanoidPlay: big-cluster branch points: cluster (the split made point blocks bigger "
                       "than 1x1; blog), last-box (the reference code's test), off")


def _settings(args):
    from advisors.splt.search import Settings

    if args.player != "paranoid":
        return Settings.for_player(args.player)
    settings = Settings.reference_1053() if args.variant == "reference-1053" else Settings()
    changes = {"opening_moves": args.opening_moves, "reseed_below": args.reseed_below,
               "close_call_every": args.close_call_every, "close_call_after": args.close_call_after,
               "trigger": args.trigger, "stale_games": args.stale_games}
    try:
        return dataclasses.replace(settings, **{k: v for k, v in changes.items() if v is not None})
    except ValueError as error:
        raise UsageError(f"kibitz search splt: {error}") from None


class ProgressPrinter:
    """A bar rewritten in place on a terminal; otherwise a line every ``every`` seconds."""

    def __init__(self, stream, every: float = 10.0):
        self.stream = stream
        self.interactive = stream.isatty()
        self.every = every
        self.last = 0.0

    def __call__(self, progress) -> None:
        now = time.monotonic()
        if not self.interactive and not progress.new_best and not progress.notice and now - self.last < self.every:
            return
        self.last = now
        exploring = "-" if progress.exploring_from is None else str(progress.exploring_from)
        minutes, seconds = divmod(int(progress.elapsed), 60)
        text = (f"{minutes:d}:{seconds:02d}  games {progress.games:,} ({progress.games_per_second:,.0f}/s, "
                f"{progress.workers} worker{'s' if progress.workers != 1 else ''})  best {progress.best_splits} "
                f"splits, score {progress.best_score:,}  exploring from {exploring}")
        if progress.notice:
            text = f"{text}\n{progress.notice}" if not self.interactive else f"{progress.notice}\n{text}"
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


def search(game, args) -> int:
    from advisors.splt.parallel import ParallelSearch

    settings = _settings(args)
    address = search_verb.cluster_address(args)
    if address is not None and args.workers is None:
        from advisors import cluster

        _, args.workers = cluster.join(address)
    try:
        if args.resume:
            if args.from_file or args.from_move is not None:
                raise UsageError("kibitz search: --resume continues a saved search; it cannot take --from/--from-move")
            search = ParallelSearch.resume(args.resume, workers=args.workers)
        else:
            line = None
            if args.from_file:
                line, _ = load_line(game, args.from_file, args.format)
                if args.from_move is not None and args.from_move > len(line.moves):
                    raise KibitzInputError(f"--from-move {args.from_move} is outside the file, which has "
                                           f"{len(line.moves)} moves", source=args.from_file)
            elif args.from_move is not None:
                raise UsageError("kibitz search: --from-move needs --from FILE")
            folder = search_verb.output_folder(args, f"splt-{settings.player}")
            search = ParallelSearch.create(folder, settings, line, args.from_move, workers=args.workers,
                                           seed=args.seed, checkpoint_seconds=args.checkpoint_seconds)
    except OSError as error:
        name = getattr(error, "filename", None) or args.from_file or args.resume or args.out
        raise KibitzInputError(f"{error.strerror or error}", source=str(name)) from None
    except KibitzInputError:
        raise
    except ValueError as error:  # the search's own refusals (a folder already holding a search)
        raise KibitzInputError(str(error)) from None

    printer = ProgressPrinter(sys.stderr)
    say_progress(f"searching ({settings.player}) in {search.folder}; Ctrl-C stops, --resume {search.folder} continues")
    try:
        result = search.run(seconds=args.minutes * 60 if args.minutes else None, games=args.games, progress=printer,
                            cluster=address)
    except RuntimeError as error:
        printer.close()
        raise KibitzInputError(str(error)) from None
    printer.close()
    summary = {
        "game": "splt", "player": result.player, "best_moves": result.best_splits, "best_score": result.best_score,
        "games": result.games, "best_file": str(result.best_file) if result.best_file else None,
        "best_index_file": str(result.best_index_file) if result.best_index_file else None,
        "folder": str(result.folder), "games_this_run": result.games_this_run, "seconds": round(result.seconds, 1),
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


# -- bench ------------------------------------------------------------------------------------------
@dataclasses.dataclass(frozen=True)
class PlayoutSpeed:
    """Uniformly random games played from the empty board by one engine path on one core."""

    path: str
    games: int
    splits: int
    seconds: float
    mean_length: float
    shortest: int
    longest: int

    @property
    def splits_per_second(self) -> float:
        return self.splits / self.seconds

    @property
    def games_per_second(self) -> float:
        return self.games / self.seconds


def numba_playouts(seconds: float, seed: int = 1) -> PlayoutSpeed:
    """Random SPL-T playouts in the numba kernel for about ``seconds`` (after a warm-up call
    that compiles or loads the kernel)."""
    from engines.splt import State, fast

    start = State()
    fast.random_playouts(start, 1, seed)  # compile / load from cache outside the timing
    lengths: list[np.ndarray] = []
    splits = 0
    chunk = 200
    began = time.perf_counter()
    elapsed = 0.0
    while elapsed < seconds or not lengths:
        game_lengths, _, played = fast.random_playouts(start, chunk, seed + len(lengths))
        lengths.append(game_lengths)
        splits += played
        elapsed = time.perf_counter() - began
        chunk = min(chunk * 2, 20000)
    every = np.concatenate(lengths)
    return PlayoutSpeed("numba kernel", len(every), splits, elapsed, float(every.mean()), int(every.min()),
                        int(every.max()))


def reference_playouts(seconds: float, seed: int = 1) -> PlayoutSpeed:
    """Random SPL-T playouts through the plain-Python reference path for about ``seconds``."""
    from engines.splt import State, reference

    rng = np.random.default_rng(seed)
    lengths = []
    splits = 0
    began = time.perf_counter()
    elapsed = 0.0
    while elapsed < seconds or not lengths:
        state = State()
        moves = state.legal_moves()
        while moves:
            state = reference.play(state, moves[int(rng.integers(len(moves)))]).state
            moves = state.legal_moves()
        lengths.append(state.splits)
        splits += state.splits
        elapsed = time.perf_counter() - began
    return PlayoutSpeed("plain-Python reference", len(lengths), splits, elapsed, float(np.mean(lengths)),
                        int(min(lengths)), int(max(lengths)))


def playout_table(seconds: float, seed: int = 1) -> list[PlayoutSpeed]:
    """Both paths, measured one after the other in the same process."""
    return [numba_playouts(seconds, seed), reference_playouts(seconds, seed)]


def add_bench_options(group) -> None:
    group.add_argument("--seconds", type=number(0, 3600), default=3.0,
                       help="time per engine path, above 0 and at most 3,600 (default 3)")
    group.add_argument("--seed", type=SEED, default=1, help="the playouts' seed, 0 to 2^32-1 (default 1)")


def bench(game, args) -> int:
    rows = playout_table(args.seconds, args.seed)
    if args.json:
        print(json.dumps({
            "game": "splt",
            "benchmark": "random playouts from the empty board, one core",
            "paths": [
                {"path": row.path, "games": row.games, "splits": row.splits, "seconds": round(row.seconds, 3),
                 "splits_per_second": round(row.splits_per_second), "games_per_second": round(row.games_per_second, 1),
                 "mean_length": round(row.mean_length, 1)}
                for row in rows
            ],
        }))
        return 0
    print("SPL-T random playouts from the empty board, one core")
    print(f"{'path':<24} {'splits/s':>10} {'games/s':>9} {'games':>8} {'mean len':>9}")
    for row in rows:
        print(f"{row.path:<24} {row.splits_per_second:>10,.0f} {row.games_per_second:>9,.1f} "
              f"{row.games:>8,} {row.mean_length:>9.1f}")
    return 0


PLUG = GamePlug(
    options={"advise": add_advise_options, "search": add_search_options, "bench": add_bench_options,
             "review": review_options_adder("splt")},
    work={"advise": advise, "search": search, "bench": bench},
    review_options=review_option_values("splt"),
)
