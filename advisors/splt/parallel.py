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
import math
import multiprocessing
import os
import queue
import signal
import tempfile
import threading
import time
from pathlib import Path
from typing import Callable

from advisors import cluster
from advisors.splt import kernel
from advisors.splt.search import MAX_COUNT, PLAYERS, Search, Settings, Snapshot
from engines import limits
from engines.contract import Line
from engines.errors import KibitzInputError, NotationError
from engines.files import write_bytes_atomic, write_text_atomic
from engines.splt import fast, notation
from engines.splt.state import State

SEARCH_FILE = "search.json"
START_FILE = "start.txt"
_PROGRESS_SECONDS = 0.5
#: Worker processes one search may run (each holds a few megabytes).
MAX_WORKERS = 256
#: The longest pause between two checkpoints of a worker (a day).
MAX_CHECKPOINT_SECONDS = 86_400.0


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
    notice: str = ""  # an event to show once, such as a cluster worker lost and started again


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
        self._resumed: dict[int, Search] = {}  # checkpoints checked by resume, used by run

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
        """A new search in ``folder`` (its start line and search.json are written; each worker
        writes its checkpoint as it goes, and search.json lists the workers that have)."""
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
        limits.check_int(workers, "workers", 1, MAX_WORKERS)
        if not settings.is_random:
            workers = 1
        if seed is None:
            seed = time.time_ns() % 1_000_000_007
        limits.check_int(seed, "seed", 0, limits.INT64_MAX // 2048)
        _check_interval(checkpoint_seconds, "checkpoint seconds")
        folder.mkdir(parents=True, exist_ok=True)
        description = {
            "game": "splt",
            "player": settings.player,
            "settings": settings.to_json(),
            "from_move": from_move,
            "start_moves": len(line.moves),
            "workers": workers,
            "seed": seed,
            "checkpoint_seconds": checkpoint_seconds,
            "best": None,
            "saved_workers": [],
        }
        write_text_atomic(folder / START_FILE, notation.geometric_text(line))
        search = cls(folder, description, line)
        search._write_description()
        return search

    @classmethod
    def resume(cls, path: str | os.PathLike, workers: int | None = None) -> ParallelSearch:
        """The search saved in ``path`` (its folder, or the folder's search.json), checked in full
        before anything runs: search.json, start.txt, the best game's file and every worker's
        checkpoint, each against the others. ``workers``: how many to run now (more start fresh)."""
        folder, description = read_description(path)
        start_path = folder / START_FILE
        if not start_path.is_file():
            raise KibitzInputError(f"{START_FILE} is missing; the search folder is damaged", source=str(folder))
        line = notation.parse_sequence(limits.read_text_file(start_path), str(start_path))
        _replay_located(line, str(start_path))
        if len(line.moves) != description["start_moves"]:
            raise KibitzInputError(
                f"holds {len(line.moves)} moves but {SEARCH_FILE} says the search started from "
                f"{description['start_moves']}; the file was cut or changed", source=str(start_path))
        search = cls(folder, description, line)
        search._check_best_file()
        search._check_checkpoints()
        if workers is not None:
            limits.check_int(workers, "workers", 1, MAX_WORKERS)
            description["workers"] = workers if search.settings.is_random else 1
        return search

    def _check_best_file(self) -> None:
        best = self.description["best"]
        if best is None:
            return
        path = self.folder / best["file"]
        if not path.is_file():
            raise KibitzInputError(f"the best game's file {best['file']} named in {SEARCH_FILE} is missing",
                                   source=str(self.folder))
        found = notation.parse_sequence(limits.read_text_file(path), str(path), start=self.line.start)
        end = _replay_located(found, str(path))
        if found.start != self.line.start or (end.splits, end.score) != (best["splits"], best["score"]):
            raise KibitzInputError(f"does not hold the best game {SEARCH_FILE} names ({best['splits']} splits, "
                                   f"score {best['score']:,})", source=str(path))

    def _check_checkpoints(self) -> None:
        """Every worker checkpoint search.json says was saved is there, and every checkpoint there
        is sound and of this very search (a worker that never saved starts afresh: nothing of it
        was kept)."""
        self._resumed = {}
        expected_forced = [int(i) for i in fast.replay_checked(self.line.start, list(self.line.moves)).indices]
        first = self.line.start.splits
        for index in range(self.description["workers"]):
            path = self._checkpoint(index)
            if not path.exists():
                if index in self.description["saved_workers"]:
                    raise KibitzInputError(
                        f"is missing, though {SEARCH_FILE} records that worker {index} saved its search there; "
                        "restore the file or start a new search", source=str(path))
                continue
            search = Search.load(path)
            forced = search.arrays["forced"]
            same = (search.settings == self.settings and search.start == self.line.start
                    and search.from_move == self.description["from_move"]
                    and list(forced[first:first + len(expected_forced)]) == expected_forced
                    and search.arrays["params"][kernel.K_FORCED_END] <= first + len(expected_forced))
            if not same:
                raise KibitzInputError(f"is the checkpoint of another search than the one {SEARCH_FILE} and "
                                       f"{START_FILE} describe", source=str(path))
            self._resumed[index] = search

    # --- running --------------------------------------------------------------------------------

    def run(
        self,
        seconds: float | None = None,
        games: int | None = None,
        progress: Callable[[Progress], None] | None = None,
        should_stop: Callable[[], bool] | None = None,
        cluster: str | None = None,
    ) -> Result:
        """Search until ``seconds`` pass, ``games`` more games are played, ``should_stop()`` turns
        true, Ctrl-C, or nothing is left to explore. Workers save their state before they exit.
        ``cluster``: a Ray address (see :mod:`advisors.cluster`); the workers are then actors on
        the cluster's nodes, which send their checkpoints here to be written into the folder, and a
        worker lost mid-run starts again from its last checkpoint while the others go on."""
        workers = int(self.description["workers"])
        share = None if games is None else -(-games // workers)
        snapshots: dict[int, Snapshot] = {}
        resumed, self._resumed = self._resumed, {}
        for index in range(workers):
            saved = resumed.get(index)
            if saved is None and self._checkpoint(index).exists():
                saved = Search.load(self._checkpoint(index))
            if saved is not None:
                snapshots[index] = saved.snapshot()
                # A best the worker saved but the parent had no time to record before a kill.
                if saved.snapshot().best_splits > 0:
                    self._record_best(saved.snapshot(), saved.best_indices())
        configs = [self._worker_config(index, share) for index in range(workers)]
        pool = _ProcessPool(configs) if cluster is None else _ClusterPool(cluster, configs, self.folder)
        games_at_start = sum(s.games for s in snapshots.values())
        finished: set[int] = set()
        failures: list[str] = []
        notices: list[str] = []

        def handle(message) -> bool:
            """One worker message; True when it announced a new overall best."""
            kind, index, *payload = message
            if kind == "error":
                failures.append(f"search worker {index} failed: {payload[0]}")
                finished.add(index)
                return False
            if kind == "saved":
                self._record_saved(index)
                return False
            if kind == "checkpoint":  # a cluster worker's state, written here where the folder is
                write_bytes_atomic(self._checkpoint(index), payload[0])
                self._record_saved(index)
                return False
            snapshots[index] = payload[0]
            if kind == "done":
                finished.add(index)
            return kind == "best" and self._record_best(payload[0], payload[1])

        def receive(timeout: float) -> bool:
            new_best = False
            for message in pool.receive(timeout):
                new_best = handle(message) or new_best
            return new_best

        last_report = 0.0
        # Ctrl-C only raises a flag: the loop below stops the workers (a cluster's by remote calls,
        # which a signal handler should not make).
        ctrl_c = threading.Event()
        restore = _stop_on_ctrl_c(ctrl_c.set)
        try:
            pool.start()  # a cluster's workers are ready when it returns: the clock starts then
            began = time.monotonic()
            while len(finished) < workers:
                new_best = receive(0.2)
                for index, reason in pool.lost(finished):
                    if pool.restart(index):
                        # Its games since its last checkpoint are lost; the saved ones count again.
                        saved = self._checkpoint(index)
                        if saved.exists():
                            snapshots[index] = Search.load(saved).snapshot()
                        else:
                            snapshots.pop(index, None)
                        notices.append(f"worker {index} was lost ({reason}); it starts again from "
                                       f"{'its last checkpoint' if saved.exists() else 'the beginning'}")
                    else:
                        failures.append(f"search worker {index} {reason}")
                        finished.add(index)
                elapsed = time.monotonic() - began
                total = sum(s.games for s in snapshots.values())
                if not pool.stopping and (
                    ctrl_c.is_set()
                    or (seconds is not None and elapsed >= seconds)
                    or (games is not None and total - games_at_start >= games)
                    or (should_stop is not None and should_stop())
                    or failures
                ):
                    pool.stop()
                now = time.monotonic()
                if progress is not None and (new_best or notices or now - last_report >= _PROGRESS_SECONDS):
                    last_report = now
                    report = self._progress(snapshots, games_at_start, elapsed, workers, new_best)
                    progress(dataclasses.replace(report, notice="; ".join(notices)) if notices else report)
                    notices.clear()
        finally:
            restore()
            pool.stop()
            pool.finish(receive)
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
        return checkpoint_path(self.folder, index)


    def _worker_config(self, index: int, games: int | None) -> dict:
        return {
            "index": index,
            "games": games,
            "checkpoint": str(self._checkpoint(index)),
            "start": str(self.folder / START_FILE),
            "start_text": notation.geometric_text(self.line),
            "settings": self.description["settings"],
            "from_move": self.description["from_move"],
            "seed": int(self.description["seed"]) * 1009 + index,
            "checkpoint_seconds": float(self.description["checkpoint_seconds"]),
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

    def _record_saved(self, index: int) -> None:
        saved = self.description["saved_workers"]
        if index not in saved:
            saved.append(index)
            saved.sort()
            self._write_description()

    def _best_line(self) -> Line | None:
        best = self.description["best"]
        if not best:
            return None
        path = self.folder / best["file"]
        return notation.parse_sequence(limits.read_text_file(path), str(path), start=self.line.start)

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


def _stop_on_ctrl_c(stop: Callable[[], None]) -> Callable[[], None]:
    """While a search runs in the main thread, Ctrl-C asks the workers to save and stop (instead of
    interrupting the parent mid-write). Returns the function that puts the old handler back."""
    try:
        previous = signal.signal(signal.SIGINT, lambda signum, frame: stop())
    except ValueError:  # not the main thread (the GUI runs searches from a worker thread)
        return lambda: None
    return lambda: signal.signal(signal.SIGINT, previous)


def _work(config: dict, put: Callable[[tuple], None], should_stop: Callable[[], bool],
          load: Callable[[], Search | None], save: Callable[[Search], None]) -> None:
    """One worker's search, wherever it runs: its checkpoint (``load``) or a fresh start, run in
    slices until ``should_stop()``, saved (``save``) every checkpoint interval and at the end.
    Progress, bests, the end and any failure go to the coordinator through ``put``."""
    index = config["index"]
    try:
        search = load()
        if search is None:
            settings = Settings(**config["settings"])
            line = notation.parse_sequence(config["start_text"], config["start"])
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
                put(("progress", index, snapshot))
            if now - last_save >= interval:
                save(search)
                last_save = time.monotonic()

        def found(current: Search) -> None:
            put(("best", index, current.snapshot(), current.best_indices()))

        search.run(games=config["games"], progress=report, should_stop=should_stop, on_best=found)
        save(search)
        put(("done", index, search.snapshot()))
    except KibitzInputError as error:  # a file damaged since the parent checked it: said, no traceback
        put(("error", index, str(error)))
    except BaseException as error:  # report instead of dying silently
        put(("error", index, f"{type(error).__name__}: {error}"))
        raise


def _worker_main(config: dict, messages, stop) -> None:
    """One worker process on this machine: it writes its own checkpoint into the folder."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the parent handles Ctrl-C and tells us to stop
    index = config["index"]
    parent = os.getppid()
    checkpoint = Path(config["checkpoint"])
    saved_once = checkpoint.exists()

    def should_stop() -> bool:
        # A killed parent cannot tell us to stop: save and leave instead of searching on as an orphan.
        return stop.is_set() or os.getppid() != parent

    def load() -> Search | None:
        return Search.load(checkpoint) if checkpoint.exists() else None  # checked by the parent too

    def save(search: Search) -> None:
        nonlocal saved_once
        search.save(checkpoint)
        if not saved_once:  # the parent records it in search.json: from now on the file must be there
            saved_once = True
            messages.put(("saved", index))

    _work(config, messages.put, should_stop, load, save)


class _ProcessPool:
    """The workers as processes of this machine, talking through a queue."""

    def __init__(self, configs: list[dict]) -> None:
        context = multiprocessing.get_context("spawn")
        self._messages = context.Queue()
        self._stop = context.Event()
        self._processes = [
            context.Process(target=_worker_main, args=(config, self._messages, self._stop),
                            name=f"kibitz-splt-search-{config['index']}", daemon=True)
            for config in configs
        ]

    @property
    def stopping(self) -> bool:
        return self._stop.is_set()

    def start(self) -> None:
        for process in self._processes:
            process.start()

    def stop(self) -> None:
        self._stop.set()

    def receive(self, timeout: float) -> list[tuple]:
        try:
            return [self._messages.get(timeout=timeout)]
        except queue.Empty:
            return []

    def lost(self, finished: set[int]) -> list[tuple[int, str]]:
        return [(index, f"stopped with exit code {process.exitcode}")
                for index, process in enumerate(self._processes)
                if index not in finished and not process.is_alive() and process.exitcode not in (0, None)]

    def restart(self, index: int) -> bool:
        return False  # a worker process of this machine that crashed would crash again

    def finish(self, receive: Callable[[float], bool]) -> None:
        # A worker cannot exit before its queued messages are read, so keep reading while joining.
        deadline = time.monotonic() + 60
        while any(process.is_alive() for process in self._processes) and time.monotonic() < deadline:
            receive(0.1)
        while not self._messages.empty():  # every worker has exited, so nothing more is coming
            receive(0.1)
        for process in self._processes:
            process.join(timeout=1)
            if process.is_alive():
                process.terminate()


#: How often one cluster worker may be started again after its process or node was lost.
MAX_RESTARTS = 3
#: How long a worker holds the coordinator's take() call when it has nothing to say.
TAKE_WAIT_SECONDS = 0.5


class ClusterWorker:
    """A search worker as a Ray actor: one long ``run`` call searches, while ``take`` hands the
    coordinator what it reported since the last call and ``stop`` asks it to save and stop. Its
    checkpoints travel to the coordinator as bytes (a node of the cluster need not see the
    folder). Made once per worker and run: its kernels load from numba's cache once."""

    def __init__(self) -> None:
        self._messages: list[tuple] = []
        self._said = threading.Condition()
        self._stop = threading.Event()
        _warm_up()

    def pid(self) -> int:
        return os.getpid()

    def _put(self, message: tuple) -> None:
        with self._said:
            self._messages.append(message)
            self._said.notify_all()

    def take(self, wait_seconds: float = 0.0) -> list[tuple]:
        """What the worker said since the last call; with ``wait_seconds``, the call waits that
        long for something to be said (so the coordinator is woken by news, not busy asking)."""
        with self._said:
            if not self._messages and wait_seconds > 0:
                self._said.wait(wait_seconds)
            messages, self._messages = self._messages, []
        return messages

    def stop(self) -> None:
        self._stop.set()

    def run(self, config: dict, checkpoint: bytes | None) -> None:
        index = config["index"]

        def load() -> Search | None:
            if checkpoint is None:
                return None
            with tempfile.TemporaryDirectory(prefix="kibitz-splt-worker-") as folder:
                path = Path(folder) / f"worker-{index}.npz"
                path.write_bytes(checkpoint)
                return Search.load(path)

        def save(search: Search) -> None:
            self._put(("checkpoint", index, search.to_bytes()))

        _work(config, self._put, self._stop.is_set, load, save)


class _ClusterPool:
    """The workers as actors on a Ray cluster, polled for their messages."""

    def __init__(self, address: str, configs: list[dict], folder: Path) -> None:
        self._ray, _ = cluster.join(address, len(configs))
        self._actor = cluster.actor_class(self._ray, ClusterWorker, concurrency=3)  # run, take, stop
        self._configs = configs
        self._folder = folder
        self._actors: dict[int, object] = {}
        self._runs: dict[int, object] = {}
        self._restarts = dict.fromkeys(range(len(configs)), 0)
        self._lost: dict[int, str] = {}
        self._taking: dict[int, object] = {}  # each worker's take() call not yet answered
        self._ended: set[int] = set()  # workers whose run() call has returned
        self._draining = False
        self.stopping = False

    def _launch(self, index: int, actor=None) -> None:
        saved = checkpoint_path(self._folder, index)
        checkpoint = saved.read_bytes() if saved.exists() else None
        actor = actor or self._actor.remote()
        self._actors[index] = actor
        self._runs[index] = actor.run.remote(self._configs[index], checkpoint)

    def start(self) -> None:
        """Every worker made and its kernels loaded, then all set searching at once."""
        actors = [self._actor.remote() for _ in self._configs]
        self._ray.get([actor.pid.remote() for actor in actors])
        for index, actor in enumerate(actors):
            self._launch(index, actor)

    def stop(self) -> None:
        if self.stopping:
            return
        self.stopping = True
        for actor in self._actors.values():
            actor.stop.remote()

    def receive(self, timeout: float) -> list[tuple]:
        ray = self._ray
        if self._draining:
            return self._drain()
        # One take() in flight per worker: a slow node's answer is collected at a later call,
        # never dropped (the worker has already handed those messages over).
        for index, actor in self._actors.items():
            if index not in self._lost and index not in self._taking:
                self._taking[index] = actor.take.remote(TAKE_WAIT_SECONDS)
        messages: list[tuple] = []
        if self._taking:
            ready, _ = ray.wait(list(self._taking.values()), num_returns=len(self._taking),
                                timeout=max(timeout, 0.05))
            answered = set(ready)
            for index, call in list(self._taking.items()):
                if call not in answered:
                    continue
                del self._taking[index]
                try:
                    messages.extend(ray.get(call))
                except ray.exceptions.RayActorError as error:
                    self._lost[index] = _lost_reason(error)
        running = {run: index for index, run in self._runs.items() if index not in self._lost and index not in self._ended}
        if running:
            ended, _ = ray.wait(list(running), num_returns=len(running), timeout=0)
            for run in ended:
                index = running[run]
                self._ended.add(index)
                try:
                    ray.get(run)
                except ray.exceptions.RayActorError as error:
                    self._lost[index] = _lost_reason(error)
                except ray.exceptions.RayTaskError:
                    pass  # the worker said why in an "error" message
        return messages

    def lost(self, finished: set[int]) -> list[tuple[int, str]]:
        return [(index, reason) for index, reason in self._lost.items() if index not in finished]

    def restart(self, index: int) -> bool:
        reason = self._lost.pop(index, "")
        self._runs.pop(index, None)
        self._actors.pop(index, None)
        self._taking.pop(index, None)
        self._ended.discard(index)
        if self.stopping or self._restarts[index] >= MAX_RESTARTS:
            self._lost[index] = reason
            return False
        self._restarts[index] += 1
        self._launch(index)
        return True

    def finish(self, receive: Callable[[float], bool]) -> None:
        ray = self._ray
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            running = [run for index, run in self._runs.items() if index not in self._lost]
            done, pending = ray.wait(running, num_returns=len(running), timeout=0.2) if running else ([], [])
            receive(0.0)
            if not pending:
                break
        self._draining = True
        receive(0.0)  # what the workers said last, their final checkpoints among it
        for actor in self._actors.values():
            ray.kill(actor)
        self._actors.clear()

    def _drain(self) -> list[tuple]:
        """Everything the stopped workers still hold: the answers in flight, then a last take()
        of each (asked after its run ended, so nothing is said after it)."""
        ray = self._ray
        messages: list[tuple] = []
        asked_after_the_end: set[int] = set()
        for _ in range(2):
            for index, actor in self._actors.items():
                if index not in self._lost and index not in self._taking and index not in asked_after_the_end:
                    self._taking[index] = actor.take.remote()
                    asked_after_the_end.add(index)
            for index, call in list(self._taking.items()):
                del self._taking[index]
                try:
                    messages.extend(ray.get(call, timeout=30))
                except (ray.exceptions.RayActorError, ray.exceptions.GetTimeoutError):
                    pass  # lost with its worker
        return messages


def _warm_up() -> None:
    """Load the search kernels (from numba's cache when the node has compiled them before) with
    one short game, so the first slice of the real search is not the one that waits."""
    search = Search.start_from(Settings.for_player("paranoid"), Line(State(), ()), 0, seed=1)
    search.run(games=1)


def _lost_reason(error: BaseException) -> str:
    return f"its process or node died: {cluster.first_line(error)[:160]}"


def checkpoint_path(folder: Path, index: int) -> Path:
    return folder / f"worker-{index}.npz"


def _saved_workers_of_old_folder(folder: Path, workers: int, where: str) -> list[int]:
    """The workers that saved, in a folder from before search.json recorded them: the ones whose
    checkpoint is there, when all or none are; a missing one beside others cannot be told from a
    lost one, so it is refused (nothing is resumed or overwritten)."""
    present = [index for index in range(workers) if checkpoint_path(folder, index).exists()]
    missing = [index for index in range(workers) if index not in present]
    if present and missing:
        names = ", ".join(checkpoint_path(folder, index).name for index in missing)
        raise KibitzInputError(
            f"{names} {'is' if len(missing) == 1 else 'are'} missing while the other workers' checkpoints are "
            f"there, and this folder is older than the record of which workers saved ('saved_workers'), so a "
            f"lost file cannot be told from one never written; restore it, or add \"saved_workers\": {present} "
            f"to {SEARCH_FILE} to resume without it", source=where)
    return present


def read_description(path: str | os.PathLike) -> tuple[Path, dict]:
    """The folder of the search saved at ``path`` (the folder or its search.json) and its
    search.json, every field present, of its type and within its bounds (a KibitzInputError naming
    the file and the field otherwise)."""
    path = Path(path)
    folder = path.parent if path.name == SEARCH_FILE else path
    if folder.exists() and not folder.is_dir():
        raise KibitzInputError("is a file, not a search folder", source=str(folder))
    source = folder / SEARCH_FILE
    if not source.is_file():
        raise KibitzInputError(f"no {SEARCH_FILE} here; is this a search folder?", source=str(folder))
    where = str(source)
    description = limits.read_json(source)
    if not isinstance(description, dict):
        raise NotationError(f"expected a JSON object, found {type(description).__name__}", source=where)
    if limits.require(description, "game", str, where) != "splt":
        raise NotationError(f"the search is of {description['game']!r}, not SPL-T ('splt')", source=where)
    player = limits.require(description, "player", str, where)
    if player not in PLAYERS:
        raise NotationError(f"unknown player {player!r}; one of {', '.join(PLAYERS)}", source=where)
    settings = Settings.from_json(limits.require(description, "settings", dict, where), where)
    if settings.player != player:
        raise NotationError(f"the player is {player!r} but the settings are {settings.player!r}'s", source=where)

    def whole(field: str, low: int, high: int) -> int:
        return limits.check_int(limits.require(description, field, int, where), field, low, high, source=where)

    start_moves = whole("start_moves", 0, kernel.MAX_LINE)
    whole("from_move", 0, start_moves)
    whole("workers", 1, MAX_WORKERS)
    whole("seed", 0, limits.INT64_MAX // 2048)
    # Searches saved before the interval was recorded used 30 s.
    seconds = limits.require(description, "checkpoint_seconds", (int, float), where) \
        if "checkpoint_seconds" in description else description.setdefault("checkpoint_seconds", 30.0)
    _check_interval(seconds, "checkpoint_seconds", where)
    if "saved_workers" in description:
        saved = limits.require(description, "saved_workers", list, where)
    else:
        saved = description["saved_workers"] = _saved_workers_of_old_folder(folder, description["workers"], where)
    if any(isinstance(index, bool) or not isinstance(index, int) or not 0 <= index < MAX_WORKERS for index in saved) \
            or len(set(saved)) != len(saved):
        raise NotationError(f"saved_workers must list distinct worker numbers 0 to {MAX_WORKERS - 1}", source=where)
    if "best" not in description:
        raise NotationError("the field 'best' is missing", source=where)
    best = description["best"]
    if best is not None:
        if not isinstance(best, dict):
            raise NotationError(f"the field 'best' is {type(best).__name__}, not an object or null", source=where)
        splits = limits.check_int(limits.require(best, "splits", int, where), "best splits", 1, kernel.MAX_LINE - 1,
                                  source=where)
        limits.check_int(limits.require(best, "score", int, where), "best score", 0, MAX_COUNT, source=where)
        for field, name in (("file", f"best-{splits}.txt"), ("index_file", f"best-{splits}-index.txt")):
            if limits.require(best, field, str, where) != name:
                raise NotationError(f"the best game's {field} is {best[field]!r}, not {name!r}", source=where)
    return folder, description


def _check_interval(value: object, field: str, source: str | None = None) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value) or not (
            0 < value <= MAX_CHECKPOINT_SECONDS):
        raise NotationError(f"{field} is {value!r}; it must be a number of seconds above 0 and at most "
                            f"{MAX_CHECKPOINT_SECONDS:,.0f}", source=source)
    return float(value)


def _replay_located(line: Line, source: str) -> State:
    """The end of ``line``, its illegal moves refused with the file and move number."""
    try:
        return fast.replay_checked(line.start, list(line.moves)).state
    except KibitzInputError as error:
        raise error.located(source=source) from None
