"""SPL-T's long search in the window: ParanoidPlay jobs for :class:`app.gui.search_runner.SearchRunner`.

``SEARCH_JOBS`` is the value of ``GameUi.search_jobs`` for SPL-T:

>>> job = SEARCH_JOBS.start("runs/piggyback", record_line, from_move=1100, seconds=60)
>>> runner.start(job)                      # later, after runner.stop():
>>> runner.start(SEARCH_JOBS.resume("runs/piggyback", seconds=60))

A job is ``kibitz search splt --from FILE --from-move K --out FOLDER`` (or ``--resume FOLDER``)
run from a worker thread: the folder gets the same files (``search.json``, ``start.txt``, each
worker's checkpoint, ``best-N.txt`` and ``best-N-index.txt`` at every new best), so the command
line can continue a search the window started and the other way round. Nothing touches the disk
before :meth:`ParanoidPlayJob.run`, so every problem (a folder that is a file, a folder that
cannot be written, a folder that already holds a search) arrives as the runner's ``failed``.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Callable

import numpy as np

from advisors import cluster
from advisors.splt import kernel
from advisors.splt.parallel import SEARCH_FILE, ParallelSearch, Progress, Result, read_description
from advisors.splt.search import MAX_COUNT, Settings
from app.gui.search_runner import SearchOutcome, SearchProgress, StopLatch
from engines.contract import Line
from engines import limits
from engines.errors import KibitzInputError
from engines.files import read_text
from engines.splt import GAME

PLAYER_NAMES = {"paranoid": "ParanoidPlay", "greedy": "greedy", "weighted": "weighted random"}


def default_workers() -> int:
    """One worker process per core but one, which the window keeps."""
    return max(1, (os.cpu_count() or 1) - 1)


def best_text(splits: int, score: int) -> str:
    return f"{splits:,} splits · score {score:,}"


class ParanoidPlayJob:
    """One run of a ParanoidPlay search kept in ``folder``: a new one (``line``, ``from_move``)
    or the continuation of the one saved there (``resume=True``). Budgets: ``seconds`` and/or
    ``games`` (more games in this run); neither means until stopped."""

    def __init__(
        self,
        folder: str | os.PathLike,
        line: Line | None = None,
        from_move: int | None = None,
        *,
        resume: bool = False,
        seconds: float | None = None,
        games: int | None = None,
        workers: int | None = None,
        seed: int | None = None,
        settings: Settings | None = None,
        checkpoint_seconds: float = 30.0,
        cluster: str | None = None,
    ):
        for name, value in (("seconds", seconds), ("games", games), ("workers", workers),
                            ("checkpoint_seconds", checkpoint_seconds)):
            if value is not None and value <= 0:
                raise ValueError(f"{name} must be positive, not {value}")
        self.folder = Path(folder)
        self.line = line
        self.from_move = from_move
        self.resuming = resume
        self.seconds = seconds
        self.games = games
        self.workers = workers
        self.seed = seed
        self.settings = settings or Settings()
        self.checkpoint_seconds = checkpoint_seconds
        self.cluster = cluster  # a Ray address, None for this computer

    def __repr__(self) -> str:
        return f"ParanoidPlayJob({str(self.folder)!r}, resume={self.resuming})"

    # -- the job protocol (worker thread) --------------------------------------------------------
    def run(self, progress: Callable[[SearchProgress], None], should_stop: Callable[[], bool]) -> SearchOutcome:
        search = self._open()
        stop_requested = StopLatch(should_stop)

        best_reported = (search.description["best"] or {}).get("splits", 0)  # a continued search's old best

        def report(state: Progress) -> None:
            nonlocal best_reported
            line = None
            if state.new_best and state.best_file is not None and state.best_splits > best_reported:
                # Written (atomically) by this thread just before this report.
                line = GAME.parse_sequence(read_text(state.best_file), str(state.best_file))
                best_reported = state.best_splits
            progress(self._progress(state, line))

        result = search.run(seconds=self.seconds, games=self.games, progress=report, should_stop=stop_requested,
                            cluster=self.cluster)
        if result.best_line is not None and result.best_splits > best_reported:
            # Found while the workers were stopping, after the last report.
            progress(SearchProgress(
                games=result.games, rate=result.games_this_run / result.seconds if result.seconds else 0.0,
                elapsed=result.seconds, best_value=result.best_splits,
                best_text=best_text(result.best_splits, result.best_score), new_best=result.best_line,
            ))
        return SearchOutcome(
            games=result.games,
            best_line=result.best_line,
            best_value=result.best_splits,
            stopped=stop_requested.asked,
            reason=self._reason(result, stop_requested.asked),
            best_text=best_text(result.best_splits, result.best_score) if result.best_line else "no game yet",
            folder=result.folder,
        )

    # -- helpers ---------------------------------------------------------------------------------
    def _open(self) -> ParallelSearch:
        folder = self.folder
        if folder.exists() and not folder.is_dir():
            raise KibitzInputError(f"{folder} is a file, not a folder; choose a folder for the search")
        if not self.resuming:
            if (folder / SEARCH_FILE).exists():
                raise KibitzInputError(f"{folder} already holds a search; continue it or choose another folder")
            moves = len(self.line.moves) if self.line is not None else 0
            if self.from_move is not None and not 0 <= self.from_move <= moves:
                raise KibitzInputError(f"cannot search from move {self.from_move}: the line has {moves} moves")
        workers = self.workers
        if self.cluster is not None and workers is None and not self.resuming:
            _, workers = cluster.join(self.cluster)  # one worker per cluster CPU
        try:
            if self.resuming:
                return ParallelSearch.resume(folder, workers=workers)
            return ParallelSearch.create(
                folder, self.settings, self.line, self.from_move,
                workers=workers or default_workers(), seed=self.seed,
                checkpoint_seconds=self.checkpoint_seconds,
            )
        except OSError as error:
            where = f" ({error.filename})" if error.filename and str(error.filename) != str(folder) else ""
            raise KibitzInputError(
                f"cannot write the search folder {folder}{where}: {error.strerror or error}"
            ) from None

    def _progress(self, state: Progress, line: Line | None) -> SearchProgress:
        this_run = state.games_per_second * state.elapsed
        shares = []
        if self.seconds is not None:
            shares.append(state.elapsed / self.seconds)
        if self.games is not None:
            shares.append(this_run / self.games)
        return SearchProgress(
            games=state.games,
            rate=state.games_per_second,
            elapsed=state.elapsed,
            best_value=state.best_splits,
            best_text=best_text(state.best_splits, state.best_score) if state.best_splits else "no game yet",
            fraction=min(1.0, max(shares)) if shares else None,
            new_best=line,
        )

    def _reason(self, result: Result, asked: bool) -> str:
        if asked:
            return f"stopped after {result.games_this_run:,} games ({result.games:,} in all)"
        if result.exhausted:
            return f"nothing left to explore after {result.games:,} games"
        if self.games is not None and result.games_this_run >= self.games:
            return f"played the {self.games:,} games asked for"
        if self.seconds is not None:
            return f"searched for the {self.seconds:g} s asked for ({result.games_this_run:,} games)"
        return f"ended after {result.games_this_run:,} games"


class SpltSearchJobs:
    """The SPL-T plug for ``GameUi.search_jobs``."""

    name = "ParanoidPlay"
    counts = "Games"
    rate_unit = "games/s"

    def start(self, folder: str | os.PathLike, line: Line, from_move: int, seconds: float | None = None,
              games: int | None = None, workers: int | None = None, seed: int | None = None,
              cluster: str | None = None) -> ParanoidPlayJob:
        """A new ParanoidPlay that keeps the first ``from_move`` moves of ``line``, first plays the
        rest of it, then branches away (``kibitz search splt --from FILE --from-move K``).
        ``workers`` defaults to one process per core but one, or on a ``cluster`` (a Ray
        address) one per cluster CPU."""
        return ParanoidPlayJob(folder, line, from_move, seconds=seconds, games=games,
                               workers=workers or (None if cluster else default_workers()), seed=seed, cluster=cluster)

    def resume(self, folder: str | os.PathLike, seconds: float | None = None, games: int | None = None,
               workers: int | None = None, cluster: str | None = None) -> ParanoidPlayJob:
        """Continue the search saved in ``folder`` (the window's "Continue"), with its games and
        best kept, here or on a ``cluster``. ``workers`` defaults to the number the search was
        started with (each worker continues from its own checkpoint)."""
        return ParanoidPlayJob(folder, resume=True, seconds=seconds, games=games, workers=workers, cluster=cluster)

    def describe(self, folder: str | os.PathLike) -> str:
        """One line about the search saved in ``folder`` (for a "Continue?" prompt), e.g.
        "ParanoidPlay from move 1100 of 1196 · best 1,203 splits · score 1,100,245 · 5,120 games
        on 1 worker". Reads only small files; raises KibitzInputError when ``folder`` holds no
        search."""
        folder, description = read_description(folder)
        player = PLAYER_NAMES[description["player"]]
        from_move, start_moves = description["from_move"], description["start_moves"]
        workers = description["workers"]
        best = description["best"]
        best_words = f"best {best_text(best['splits'], best['score'])}" if best else "no game finished yet"
        start = f"from move {from_move} of {start_moves}" if start_moves else "from the empty board"
        games = _checkpointed_games(folder, workers)
        return " · ".join(
            (f"{player} {start}", best_words, f"{games:,} games on {workers} worker{'' if workers == 1 else 's'}")
        )


def _checkpointed_games(folder: Path, workers: int) -> int:
    """Games saved in the workers' checkpoints (reads one small array of each)."""
    total = 0
    for index in range(workers):
        path = folder / f"worker-{index}.npz"
        try:
            state = limits.check_array(limits.load_npz(path, ("state",)), "state", str(path), dtype=np.int64,
                                       shape=(kernel.SCALARS,))
        except KibitzInputError:
            continue  # damaged or missing: resuming checks the whole file and says why precisely
        total += min(max(int(state[kernel.S_GAMES]), 0), MAX_COUNT)
    return total


SEARCH_JOBS = SpltSearchJobs()
