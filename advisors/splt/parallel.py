"""Run SPL-T searches on all cores: one :class:`~advisors.splt.search.Search` per worker process.

Everything lives in one output folder, so a run can be killed at any moment and resumed:

- ``search.json``: what is being searched (player, settings, start line, fixed prefix, seed) and the
  best found so far; rewritten atomically at the start and at every new best;
- ``start.txt``: the line the search started from (Kibitz's geometric format);
- ``worker-<i>.npz``: each worker's whole search state, saved atomically every
  ``checkpoint_seconds`` and when the run stops;
- ``best-<N>.txt`` and ``best-<N>-index.txt``: every new best game, written the moment a worker finds
  it, in both sequence formats (geometric, and the index list other SPL-T tools read).

Worker 0 begins by re-playing the rest of the start line (the piggyback workflow); the others begin
with random openings, each from its own seed. Deterministic settings (greedy, the 1053 reference)
use one worker: more would repeat the same games.
"""

from __future__ import annotations

import dataclasses
import json
import multiprocessing
import os
import queue
import signal
import time
from pathlib import Path
from typing import Callable

from advisors.splt.search import Search, Settings, Snapshot
from engines.contract import Line
from engines.errors import KibitzInputError
from engines.files import read_text, write_text_atomic
from engines.splt import fast, notation
from engines.splt.state import State

SEARCH_FILE = "search.json"
START_FILE = "start.txt"
_PROGRESS_SECONDS = 0.5


@dataclasses.dataclass(frozen=True)
class Progress:
    """What a running search reports (to a progress bar, the GUI, a log)."""

    games: int  # finished games, all workers, since the search began (resumed runs included)
    games_per_second: float  # over this run
    best_splits: int
    best_score: int
    best_file: Path | None
    exploring_from: int | None  # the deepest backtrack of any worker since its last opening
    elapsed: float  # seconds of this run
    workers: int
    new_best: bool  # this report announces a new best


@dataclasses.dataclass(frozen=True)
class Result:
    player: str
    best_splits: int
    best_score: int
    best_line: Line | None
    best_file: Path | None
    best_index_file: Path | None
    games: int
    games_this_run: int
    seconds: float
    folder: Path
    exhausted: bool


class ParallelSearch:
    """A search kept in ``folder``. Make one with :meth:`create` or :meth:`resume`, then :meth:`run`."""

    def __init__(self, folder: Path, description: dict, line: Line):
        self.folder = folder
        self.description = description
        self.line = line

    @property
    def settings(self) -> Settings:
        return Settings(**self.description["settings"])

    @classmethod
    def create(
        cls,
        folder: str | os.PathLike,
        settings: Settings,
        line: Line | None = None,
        from_move: int | None = None,
        workers: int | None = None,
        seed: int | None = None,
        checkpoint_seconds: float = 30.0,
    ) -> ParallelSearch:
        folder = Path(folder)
        if (folder / SEARCH_FILE).exists():
            raise KibitzInputError(
                f"{folder} already holds a search; resume it (--resume {folder}) or choose another folder"
            )
        if line is None:
            line = Line(State(), ())
        if from_move is None:
            from_move = len(line.moves)
        # Checks the line and from_move before anything is written.
        Search.start_from(settings, line, from_move, stack_capacity=1)
        if workers is None:
            workers = os.cpu_count() or 1
        if not settings.is_random:
            workers = 1
        if seed is None:
            seed = time.time_ns() % 1_000_000_007
        folder.mkdir(parents=True, exist_ok=True)
        description = {
            "game": "splt",
            "player": settings.player,
            "settings": settings.to_json(),
            "from_move": from_move,
            "start_moves": len(line.moves),
            "workers": max(1, workers),
            "seed": seed,
            "checkpoint_seconds": checkpoint_seconds,
            "best": None,
        }
        write_text_atomic(folder / START_FILE, notation.geometric_text(line))
        search = cls(folder, description, line)
        search._write_description()
        return search

    @classmethod
    def resume(cls, path: str | os.PathLike, workers: int | None = None) -> ParallelSearch:
        """The search saved in ``path`` (its folder, or the folder's search.json)."""
        path = Path(path)
        folder = path.parent if path.name == SEARCH_FILE else path
        source = folder / SEARCH_FILE
        try:
            description = json.loads(read_text(source))
        except FileNotFoundError:
            raise KibitzInputError(f"{folder}: no {SEARCH_FILE} here; is this a search folder?") from None
        except json.JSONDecodeError as error:
            raise KibitzInputError(f"{source}: not valid JSON ({error})") from None
        try:
            Settings(**description["settings"])
            int(description["from_move"])
            line = notation.parse_sequence(read_text(folder / START_FILE), str(folder / START_FILE))
        except (KeyError, TypeError) as error:
            raise KibitzInputError(f"{source}: missing or bad entry {error}") from None
        except FileNotFoundError:
            raise KibitzInputError(f"{folder}: {START_FILE} is missing") from None
        if workers is not None:
            description["workers"] = max(1, workers) if Settings(**description["settings"]).is_random else 1
        return cls(folder, description, line)

    # --- running --------------------------------------------------------------------------------

    def run(
        self,
        seconds: float | None = None,
        games: int | None = None,
        progress: Callable[[Progress], None] | None = None,
        should_stop: Callable[[], bool] | None = None,
    ) -> Result:
        """Search until ``seconds`` pass, ``games`` more games are played, ``should_stop()`` turns
        true, Ctrl-C, or nothing is left to explore. Workers save their state before they exit."""
        context = multiprocessing.get_context("spawn")
        messages = context.Queue()
        stop = context.Event()
        workers = int(self.description["workers"])
        share = None if games is None else -(-games // workers)
        processes = [
            context.Process(
                target=_worker_main,
                args=(self._worker_config(index, share), messages, stop),
                name=f"kibitz-splt-search-{index}",
                daemon=True,
            )
            for index in range(workers)
        ]
        snapshots: dict[int, Snapshot] = {}
        for index in range(workers):
            checkpoint = self._checkpoint(index)
            if checkpoint.exists():
                snapshots[index] = Search.load(checkpoint).snapshot()
        games_at_start = sum(s.games for s in snapshots.values())
        began = time.monotonic()
        for process in processes:
            process.start()
        finished: set[int] = set()
        failures: list[str] = []

        def receive(timeout: float) -> bool:
            """Handle one worker message; True when it announced a new overall best."""
            try:
                kind, index, *payload = messages.get(timeout=timeout)
            except queue.Empty:
                return False
            if kind == "error":
                failures.append(f"search worker {index} failed: {payload[0]}")
                finished.add(index)
                return False
            snapshots[index] = payload[0]
            if kind == "done":
                finished.add(index)
            return kind == "best" and self._record_best(payload[0], payload[1])

        last_report = 0.0
        restore = _stop_on_ctrl_c(stop)
        try:
            while len(finished) < workers:
                new_best = receive(0.2)
                for index, process in enumerate(processes):
                    if index not in finished and not process.is_alive() and process.exitcode not in (0, None):
                        failures.append(f"search worker {index} stopped with exit code {process.exitcode}")
                        finished.add(index)
                elapsed = time.monotonic() - began
                total = sum(s.games for s in snapshots.values())
                if not stop.is_set() and (
                    (seconds is not None and elapsed >= seconds)
                    or (games is not None and total - games_at_start >= games)
                    or (should_stop is not None and should_stop())
                    or failures
                ):
                    stop.set()
                now = time.monotonic()
                if progress is not None and (new_best or now - last_report >= _PROGRESS_SECONDS):
                    last_report = now
                    progress(self._progress(snapshots, games_at_start, elapsed, workers, new_best))
        finally:
            restore()
            stop.set()
            # A worker cannot exit before its queued messages are read, so keep reading while joining.
            deadline = time.monotonic() + 60
            while any(process.is_alive() for process in processes) and time.monotonic() < deadline:
                receive(0.1)
            while not messages.empty():  # every worker has exited, so nothing more is coming
                receive(0.1)
            for process in processes:
                process.join(timeout=1)
                if process.is_alive():
                    process.terminate()
        if failures:
            raise RuntimeError(failures[0])
        elapsed = time.monotonic() - began
        total = sum(s.games for s in snapshots.values())
        best = self.description["best"]
        exhausted = bool(snapshots) and all(s.done for s in snapshots.values())
        return Result(
            player=self.description["player"],
            best_splits=best["splits"] if best else 0,
            best_score=best["score"] if best else 0,
            best_line=self._best_line(),
            best_file=self.folder / best["file"] if best else None,
            best_index_file=self.folder / best["index_file"] if best else None,
            games=total,
            games_this_run=total - games_at_start,
            seconds=elapsed,
            folder=self.folder,
            exhausted=exhausted,
        )

    # --- helpers ----------------------------------------------------------------------------------

    def _checkpoint(self, index: int) -> Path:
        return self.folder / f"worker-{index}.npz"

    def _worker_config(self, index: int, games: int | None) -> dict:
        return {
            "index": index,
            "games": games,
            "checkpoint": str(self._checkpoint(index)),
            "start": str(self.folder / START_FILE),
            "settings": self.description["settings"],
            "from_move": self.description["from_move"],
            "seed": int(self.description["seed"]) * 1009 + index,
            "checkpoint_seconds": float(self.description.get("checkpoint_seconds", 30.0)),
            "best_splits": (self.description["best"] or {}).get("splits", 0),
        }

    def _record_best(self, snapshot: Snapshot, indices: list[int]) -> bool:
        splits, score = snapshot.best_splits, snapshot.best_score
        best = self.description["best"]
        if best is not None and splits <= best["splits"]:
            return False
        replay = fast.replay_indices(self.line.start, indices)
        line = Line(self.line.start, tuple(replay.moves))
        moves_file = f"best-{splits}.txt"
        index_file = f"best-{splits}-index.txt"
        write_text_atomic(self.folder / moves_file, notation.geometric_text(line))
        write_text_atomic(self.folder / index_file, notation.index_list_text(line))
        self.description["best"] = {"splits": splits, "score": score, "file": moves_file, "index_file": index_file}
        self._write_description()
        return True

    def _best_line(self) -> Line | None:
        best = self.description["best"]
        if not best:
            return None
        return notation.parse_sequence(read_text(self.folder / best["file"]), str(self.folder / best["file"]))

    def _write_description(self) -> None:
        write_text_atomic(self.folder / SEARCH_FILE, json.dumps(self.description, indent=2) + "\n")

    def _progress(self, snapshots: dict[int, Snapshot], games_at_start: int, elapsed: float, workers: int,
                  new_best: bool) -> Progress:
        total = sum(s.games for s in snapshots.values())
        best = self.description["best"]
        depths = [s.exploring_from for s in snapshots.values() if s.exploring_from is not None]
        return Progress(
            games=total,
            games_per_second=(total - games_at_start) / elapsed if elapsed > 0 else 0.0,
            best_splits=best["splits"] if best else 0,
            best_score=best["score"] if best else 0,
            best_file=self.folder / best["file"] if best else None,
            exploring_from=min(depths) if depths else None,
            elapsed=elapsed,
            workers=workers,
            new_best=new_best,
        )


def _stop_on_ctrl_c(stop) -> Callable[[], None]:
    """While a search runs in the main thread, Ctrl-C asks the workers to save and stop (instead of
    interrupting the parent mid-write). Returns the function that puts the old handler back."""
    try:
        previous = signal.signal(signal.SIGINT, lambda signum, frame: stop.set())
    except ValueError:  # not the main thread (the GUI runs searches from a worker thread)
        return lambda: None
    return lambda: signal.signal(signal.SIGINT, previous)


def _worker_main(config: dict, messages, stop) -> None:
    """One worker process: load or start its search, run it in slices, save it regularly."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the parent handles Ctrl-C and tells us to stop
    index = config["index"]
    parent = os.getppid()

    def should_stop() -> bool:
        # A killed parent cannot tell us to stop: save and leave instead of searching on as an orphan.
        return stop.is_set() or os.getppid() != parent

    try:
        checkpoint = Path(config["checkpoint"])
        if checkpoint.exists():
            search = Search.load(checkpoint)
        else:
            settings = Settings(**config["settings"])
            line = notation.parse_sequence(read_text(config["start"]), config["start"])
            search = Search.start_from(
                settings, line, config["from_move"], follow_rest=index == 0, seed=config["seed"]
            )
        last_save = time.monotonic()
        last_report = 0.0
        interval = config["checkpoint_seconds"]

        def report(snapshot: Snapshot) -> None:
            nonlocal last_save, last_report
            now = time.monotonic()
            if now - last_report >= _PROGRESS_SECONDS / 2:
                last_report = now
                messages.put(("progress", index, snapshot))
            if now - last_save >= interval:
                search.save(checkpoint)
                last_save = time.monotonic()

        def found(current: Search) -> None:
            snapshot = current.snapshot()
            messages.put(("best", index, snapshot, current.best_indices()))

        search.run(games=config["games"], progress=report, should_stop=should_stop, on_best=found)
        search.save(checkpoint)
        messages.put(("done", index, search.snapshot()))
    except BaseException as error:  # report instead of dying silently
        messages.put(("error", index, f"{type(error).__name__}: {error}"))
        raise
