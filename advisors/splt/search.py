"""SPL-T searches (spec 3.6): greedy, weighted random and ParanoidPlay, in one process.

A :class:`Search` holds its whole state in numpy arrays and advances in slices
(:meth:`Search.advance`), so it can report progress, stop after any game, be saved to a file and
resumed (:meth:`Search.save`, :meth:`Search.load`). ``advisors.splt.parallel`` runs several on all
cores. Every search starts from a :class:`~engines.contract.Line`: the moves before ``from_move``
are fixed and never changed; with ``follow_rest`` the first game plays the rest of the line before
the search branches away from it (the "piggyback" workflow).
"""

from __future__ import annotations

import dataclasses
import io
import json
import os
import time
import zipfile
from pathlib import Path

import numpy as np

from advisors.splt import kernel
from engines.contract import Line
from engines.errors import KibitzInputError
from engines.files import write_bytes_atomic
from engines.splt import fast, notation
from engines.splt.state import State

PLAYERS = ("greedy", "weighted", "paranoid")
TRIGGERS = {"off": kernel.TRIGGER_OFF, "last-box": kernel.TRIGGER_LAST_BOX, "cluster": kernel.TRIGGER_CLUSTER}
_FOREVER = 1 << 40
_FORMAT_VERSION = 1


@dataclasses.dataclass(frozen=True)
class Settings:
    """How a search plays. The defaults are ParanoidPlay as the blog describes it (spec 3.6,
    "intended") plus ``stale_games``; :meth:`reference_1053` is the 1053-split run as its code
    really behaved."""

    player: str = "paranoid"
    opening_moves: int = 50  # weighted-random moves before the paranoid loop
    reseed_below: int = 250  # a pop at or below this split count starts a new opening (0: never)
    close_call_low: float = 1.0  # a close call: low < best - second < high
    close_call_high: float = 3.0
    close_call_after: int = 0  # close calls count only when the split number exceeds this
    close_call_every: int = 2  # branch on every n-th close call (0: never)
    trigger: str = "cluster"  # big-cluster branch points: off, last-box (the reference's test), cluster
    stop_when_empty: bool = False  # an exhausted stack ends the search instead of a new opening
    # A new opening after this many games without a longer game since the last opening (0: never).
    # Not in the blog: without it an unlucky opening keeps the search below 500 splits for minutes,
    # because backtracking rarely gets down to 250 (see benchmarks/splt_search.py).
    stale_games: int = 20_000

    def __post_init__(self) -> None:
        if self.player not in PLAYERS:
            raise ValueError(f"unknown player {self.player!r}; choose one of {', '.join(PLAYERS)}")
        if self.trigger not in TRIGGERS:
            raise ValueError(f"unknown trigger {self.trigger!r}; choose one of {', '.join(TRIGGERS)}")
        if min(self.opening_moves, self.reseed_below, self.close_call_every, self.stale_games) < 0:
            raise ValueError("opening moves, reseed depth and close-call spacing cannot be negative")

    @classmethod
    def for_player(cls, player: str, **changes) -> Settings:
        if player == "greedy":
            return cls(
                player="greedy", opening_moves=0, reseed_below=0, close_call_every=0, trigger="off",
                stop_when_empty=True, stale_games=0, **changes,
            )
        if player == "weighted":
            return cls(player="weighted", opening_moves=_FOREVER, reseed_below=0, close_call_every=0,
                       trigger="off", stale_games=0, **changes)
        return cls(player=player, **changes)

    @classmethod
    def reference_1053(cls) -> Settings:
        """``paranoidAlgoPlay.py`` as committed, piggyback off: no opening, no reseeding, the
        last-box trigger, close calls only from split 875 on (its throttle never advanced)."""
        return cls(
            opening_moves=0, reseed_below=0, close_call_after=874, close_call_every=1,
            trigger="last-box", stop_when_empty=True, stale_games=0,
        )

    @property
    def is_random(self) -> bool:
        return self.opening_moves > 0

    def to_json(self) -> dict:
        return dataclasses.asdict(self)


@dataclasses.dataclass(frozen=True)
class Snapshot:
    """Where a search stands."""

    games: int
    best_splits: int
    best_score: int
    best_game: int
    openings: int  # times the search began at the base position (the first start included)
    exploring_from: int | None  # the lowest split count backtracked to since the last opening
    restart_from: int  # the split count the current game started from
    done: bool


class Search:
    """One search in this process. Create it with :meth:`start` or :meth:`load`."""

    def __init__(self, arrays: dict[str, np.ndarray], settings: Settings, start: State, from_move: int):
        self.arrays = arrays
        self.settings = settings
        self.start = start  # the position the line begins at
        self.from_move = from_move

    # --- creation ---------------------------------------------------------------------------

    @classmethod
    def start_from(
        cls,
        settings: Settings,
        line: Line | None = None,
        from_move: int | None = None,
        follow_rest: bool = True,
        seed: int = 1,
        stack_capacity: int = 256,
    ) -> Search:
        """A new search. ``line`` (default: the empty board and no moves) is replayed; the search
        never changes its first ``from_move`` moves (default: all of them). With ``follow_rest`` the
        first game plays the line's remaining moves before branching away from them."""
        if line is None:
            line = Line(State(), ())
        moves = tuple(line.moves)
        if from_move is None:
            from_move = len(moves)
        if not 0 <= from_move <= len(moves):
            raise KibitzInputError(
                f"--from-move {from_move} is outside the sequence, which has {len(moves)} moves"
            )
        replay = fast.replay_checked(line.start, moves)
        base = _state_after(line.start, moves[:from_move])
        arrays = _empty_arrays(stack_capacity)
        params = arrays["params"]
        params[kernel.K_OPENING] = settings.opening_moves
        params[kernel.K_RESEED_BELOW] = settings.reseed_below
        params[kernel.K_CLOSE_AFTER] = settings.close_call_after
        params[kernel.K_CLOSE_EVERY] = settings.close_call_every
        params[kernel.K_TRIGGER] = TRIGGERS[settings.trigger]
        params[kernel.K_STOP_WHEN_EMPTY] = int(settings.stop_when_empty)
        params[kernel.K_STALE_GAMES] = settings.stale_games
        params[kernel.K_FLAGS] = line.start.rules.flags()
        arrays["floats"][kernel.F_CLOSE_LOW] = settings.close_call_low
        arrays["floats"][kernel.F_CLOSE_HIGH] = settings.close_call_high
        base_boxes, base_count = fast.pack(base)
        arrays["base_boxes"][:] = base_boxes
        params[kernel.K_BASE_COUNT] = base_count
        params[kernel.K_BASE_SPLITS] = base.splits
        params[kernel.K_BASE_SCORE] = base.score
        indices = list(replay.indices)
        # The kernel numbers moves by split count, so a line that starts after split s0 sits at s0.
        first = line.start.splits
        if first + len(indices) >= kernel.MAX_LINE:
            raise KibitzInputError(f"the sequence ends after split {first + len(indices)}; searches stop at "
                                   f"{kernel.MAX_LINE - 1}")
        arrays["line"][first : first + len(indices)] = indices
        arrays["forced"][first : first + len(indices)] = indices
        following = follow_rest and from_move < len(moves)
        params[kernel.K_FORCED_END] = base.splits + (len(moves) - from_move if following else 0)
        arrays["rng"][0] = (seed * 0x9E3779B97F4A7C15 + 0x632BE59BD9B4E019) % (1 << 64) or 1
        state = arrays["state"]
        state[kernel.S_BEST_SPLITS] = -1
        kernel.start_opening(params, state, arrays["boxes"], arrays["base_boxes"])
        if following:
            state[kernel.S_FOLLOWING] = 1
            state[kernel.S_OPENING_END] = base.splits
        return cls(arrays, settings, line.start, from_move)

    # --- running ------------------------------------------------------------------------------

    def advance(self, max_games: int) -> int:
        """Play until ``max_games`` more games are over, a new best is found or the search is
        exhausted; returns the kernel's status (``kernel.NEW_BEST`` etc.)."""
        a = self.arrays
        while True:
            status = kernel.search(
                a["params"], a["floats"], a["state"], a["rng"], a["boxes"], a["pending"], a["line"],
                a["best_line"], a["base_boxes"], a["forced"], a["stack_boxes"], a["stack_meta"],
                a["stack_weights"], max_games,
            )
            if status != kernel.STACK_FULL:
                return status
            self._grow_stack()

    def _grow_stack(self) -> None:
        a = self.arrays
        for name in ("stack_boxes", "stack_meta", "stack_weights"):
            old = a[name]
            grown = np.zeros((old.shape[0] * 2,) + old.shape[1:], old.dtype)
            grown[: old.shape[0]] = old
            a[name] = grown

    def run(self, seconds: float | None = None, games: int | None = None, progress=None, should_stop=None,
            on_best=None, slice_seconds: float = 0.25) -> Snapshot:
        """Advance until the time or game budget is spent, ``should_stop()`` is true or the search
        is exhausted. ``progress(snapshot)`` is called after every slice, ``on_best(search)`` at
        every new best."""
        deadline = None if seconds is None else time.monotonic() + seconds
        start_games = self.snapshot().games
        per_slice = 1
        while True:
            snapshot = self.snapshot()
            if snapshot.done:
                break
            if games is not None and snapshot.games - start_games >= games:
                break
            if deadline is not None and time.monotonic() >= deadline:
                break
            if should_stop is not None and should_stop():
                break
            budget = per_slice
            if games is not None:
                budget = min(budget, games - (snapshot.games - start_games))
            began = time.monotonic()
            status = self.advance(budget)
            spent = time.monotonic() - began
            if status == kernel.NEW_BEST and on_best is not None:
                on_best(self)
            if status == kernel.RAN_GAMES:
                per_slice = _next_slice(per_slice, spent, slice_seconds)
            if progress is not None:
                progress(self.snapshot())
        return self.snapshot()

    # --- results ------------------------------------------------------------------------------

    def snapshot(self) -> Snapshot:
        s = self.arrays["state"]
        exploring = int(s[kernel.S_EXPLORING_FROM])
        return Snapshot(
            games=int(s[kernel.S_GAMES]),
            best_splits=max(int(s[kernel.S_BEST_SPLITS]), 0),
            best_score=int(s[kernel.S_BEST_SCORE]),
            best_game=int(s[kernel.S_BEST_GAME]),
            openings=int(s[kernel.S_OPENINGS]),
            exploring_from=None if exploring >= kernel.MAX_LINE else exploring,
            restart_from=int(s[kernel.S_RESTART_FROM]),
            done=bool(s[kernel.S_DONE]),
        )

    def best_indices(self) -> list[int]:
        """The best game's moves (box-list indices) from the search's start position."""
        length = max(int(self.arrays["state"][kernel.S_BEST_SPLITS]), 0)
        return [int(i) for i in self.arrays["best_line"][self.start.splits : length]]

    def best_line(self) -> Line:
        """The best game as a line of moves from the search's start position."""
        replay = fast.replay_indices(self.start, self.best_indices())
        return Line(self.start, tuple(replay.moves))

    # --- checkpoints ----------------------------------------------------------------------------

    def save(self, path: str | os.PathLike) -> None:
        """Write the whole search to ``path`` atomically (numpy's .npz)."""
        meta = {
            "format": _FORMAT_VERSION,
            "settings": self.settings.to_json(),
            "start": notation.board_text(self.start),
            "from_move": self.from_move,
        }
        buffer = io.BytesIO()
        np.savez(buffer, meta=np.frombuffer(json.dumps(meta).encode(), np.uint8), **self.arrays)
        write_bytes_atomic(path, buffer.getvalue())

    @classmethod
    def load(cls, path: str | os.PathLike) -> Search:
        path = Path(path)
        try:
            with np.load(path) as data:
                arrays = {name: np.array(data[name]) for name in data.files if name != "meta"}
                meta = json.loads(bytes(data["meta"]).decode())
        except (OSError, ValueError, KeyError, EOFError, zipfile.BadZipFile) as error:
            raise KibitzInputError(f"{path}: not a Kibitz SPL-T search checkpoint ({error})") from None
        if not isinstance(meta, dict) or meta.get("format") != _FORMAT_VERSION:
            found = meta.get("format") if isinstance(meta, dict) else None
            raise KibitzInputError(f"{path}: checkpoint format {found} is not {_FORMAT_VERSION}")
        expected = _empty_arrays(1)
        for name, model in expected.items():
            if name not in arrays:
                raise KibitzInputError(f"{path}: checkpoint lacks the array {name!r}")
            array = arrays[name]
            fixed = model.shape[1:] if name.startswith("stack_") else model.shape
            shape = array.shape[1:] if name.startswith("stack_") else array.shape
            if array.dtype != model.dtype or shape != fixed or (name.startswith("stack_") and not array.shape[0]):
                raise KibitzInputError(f"{path}: checkpoint array {name!r} has shape {array.shape} and type "
                                       f"{array.dtype}, expected {model.shape} and {model.dtype}")
        try:
            settings = Settings(**meta["settings"])
            start = notation.parse_board(meta["start"])
            from_move = int(meta["from_move"])
        except (KeyError, TypeError, ValueError) as error:
            raise KibitzInputError(f"{path}: checkpoint description is damaged ({error})") from None
        return cls(arrays, settings, start, from_move)


def _next_slice(per_slice: int, spent: float, target: float) -> int:
    if spent <= 0:
        return per_slice * 2
    scaled = int(per_slice * target / spent)
    return max(1, min(per_slice * 4, scaled))


def _state_after(start: State, moves) -> State:
    replay = fast.replay_checked(start, tuple(moves))
    return replay.state


def _empty_arrays(stack_capacity: int) -> dict[str, np.ndarray]:
    boxes = kernel.MAX_BOXES
    return {
        "params": np.zeros(kernel.PARAMETERS, np.int64),
        "floats": np.zeros(kernel.FLOATS, np.float64),
        "state": np.zeros(kernel.SCALARS, np.int64),
        "rng": np.zeros(1, np.uint64),
        "boxes": np.zeros((boxes, 5), np.int32),
        "pending": np.zeros(boxes, np.float64),
        "line": np.zeros(kernel.MAX_LINE, np.int32),
        "best_line": np.zeros(kernel.MAX_LINE, np.int32),
        "base_boxes": np.zeros((boxes, 5), np.int32),
        "forced": np.zeros(kernel.MAX_LINE, np.int32),
        "stack_boxes": np.zeros((stack_capacity, boxes, 5), np.int32),
        "stack_meta": np.zeros((stack_capacity, 3), np.int64),
        "stack_weights": np.zeros((stack_capacity, boxes), np.float64),
    }
