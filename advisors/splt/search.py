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
import math
import os
import time
from collections.abc import Mapping
import numpy as np

from advisors.splt import kernel
from engines import limits
from engines.contract import Line
from engines.errors import KibitzInputError, NotationError
from engines.files import write_bytes_atomic
from engines.splt import fast, notation
from engines.splt.state import State

PLAYERS = ("greedy", "weighted", "paranoid")
TRIGGERS = {"off": kernel.TRIGGER_OFF, "last-box": kernel.TRIGGER_LAST_BOX, "cluster": kernel.TRIGGER_CLUSTER}
_FOREVER = 1 << 40
_FORMAT_VERSION = 1
#: Counters (games, close calls, openings) a checkpoint may hold: far beyond any real run, far from
#: int64's end so the kernel's increments never wrap.
MAX_COUNT = 1 << 60
#: A stack's entries branch at strictly increasing split counts, so it never holds more than
#: MAX_LINE of them; doubling from 256 gives at most twice that room.
MAX_STACK_CAPACITY = 2 * kernel.MAX_LINE
#: Branch weights are a few hundred at most (spec 3.3); anything past this is damage.
MAX_WEIGHT = 1e9
#: Bounds of the integer settings (the CLI options of the same names).
SETTING_BOUNDS = {
    "opening_moves": (0, _FOREVER),
    "reseed_below": (0, kernel.MAX_LINE),
    "close_call_after": (-kernel.MAX_LINE, kernel.MAX_LINE),
    "close_call_every": (0, kernel.MAX_LINE),
    "stale_games": (0, MAX_COUNT),
}


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
            raise NotationError(f"unknown player {self.player!r}; choose one of {', '.join(PLAYERS)}")
        if self.trigger not in TRIGGERS:
            raise NotationError(f"unknown trigger {self.trigger!r}; choose one of {', '.join(TRIGGERS)}")
        for name, (low, high) in SETTING_BOUNDS.items():
            limits.check_int(getattr(self, name), name, low, high)
        for name in ("close_call_low", "close_call_high"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
                raise NotationError(f"{name} must be a finite number, not {value!r}")
        if not isinstance(self.stop_when_empty, bool):
            raise NotationError(f"stop_when_empty must be true or false, not {self.stop_when_empty!r}")

    @classmethod
    def from_json(cls, value: object, source: str | None = None) -> Settings:
        """Settings from their JSON object (``to_json``), every field present, of its type and
        within its bounds; otherwise a NotationError naming ``source`` and the field."""
        if not isinstance(value, Mapping):
            raise NotationError(f"the settings must be a JSON object, not {type(value).__name__}", source=source)
        fields = {field.name: field.type for field in dataclasses.fields(cls)}
        unknown = sorted(set(value) - set(fields))
        if unknown:
            raise NotationError(f"unknown setting {unknown[0]!r}", source=source)
        kinds = {"str": str, "int": int, "float": (int, float), "bool": bool}
        for name, kind in fields.items():
            limits.require(value, name, kinds[kind], source)
        try:
            return cls(**value)
        except KibitzInputError as error:
            raise error.located(source=source) from None

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
        limits.check_int(seed, "seed", 0, limits.INT64_MAX)
        limits.check_int(stack_capacity, "stack capacity", 1, MAX_STACK_CAPACITY)
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
        if a["stack_meta"].shape[0] * 2 > MAX_STACK_CAPACITY:
            raise RuntimeError(f"the branch stack outgrew {MAX_STACK_CAPACITY} entries, which the rules rule out")
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
        """Write the whole search to ``path`` atomically (numpy's .npz), with a checksum of its
        arrays."""
        write_bytes_atomic(path, self.to_bytes())

    def to_bytes(self) -> bytes:
        """The search as the bytes of its .npz checkpoint (what :meth:`save` writes)."""
        meta = {
            "format": _FORMAT_VERSION,
            "settings": self.settings.to_json(),
            "start": notation.board_text(self.start),
            "from_move": self.from_move,
            "checksum": limits.arrays_checksum(self.arrays),
        }
        buffer = io.BytesIO()
        np.savez(buffer, meta=np.frombuffer(json.dumps(meta).encode(), np.uint8), **self.arrays)
        return buffer.getvalue()

    @classmethod
    def load(cls, path: str | os.PathLike) -> Search:
        """The search saved in ``path``, checked in full before anything runs: its description,
        the checksum of its arrays (when it has one: older checkpoints do not), every array's type,
        shape and range, and that every position it holds (the base, the current game, each
        branch point of the stack, the best game) is the one its moves lead to from the start.
        Anything else is a KibitzInputError naming the file."""
        source = str(path)
        expected = _empty_arrays(1)
        arrays = limits.load_npz(path, ("meta", *expected))
        meta = _checkpoint_meta(arrays.pop("meta"), source)
        unknown = sorted(set(arrays) - set(expected))
        if unknown:
            raise KibitzInputError(f"not a Kibitz SPL-T search checkpoint (it holds the array {unknown[0]!r})",
                                   source=source)
        checksum = meta.get("checksum")
        if checksum is not None and checksum != limits.arrays_checksum(arrays):
            raise KibitzInputError("damaged: its arrays do not match the checksum saved with them", source=source)
        settings = Settings.from_json(meta["settings"], source)
        try:
            start = notation.parse_board(meta["start"])
        except KibitzInputError as error:
            raise KibitzInputError(f"its start position is damaged ({error})", source=source) from None
        from_move = limits.check_int(meta["from_move"], "from_move", 0, kernel.MAX_LINE, source=source)
        arrays = {name: np.array(array, order="C") for name, array in arrays.items()}  # writable, C-ordered copies
        _check_arrays(arrays, expected, source)
        _check_search(arrays, settings, start, from_move, source)
        return cls(arrays, settings, start, from_move)


def _checkpoint_meta(array: np.ndarray, source: str) -> dict:
    meta = limits.json_of_array(array, source, "Kibitz SPL-T search checkpoint")
    if not isinstance(meta, dict) or meta.get("format") != _FORMAT_VERSION:
        found = meta.get("format") if isinstance(meta, dict) else None
        raise KibitzInputError(f"checkpoint format {repr(found)[:40]} is not {_FORMAT_VERSION}", source=source)
    limits.require(meta, "settings", dict, source)
    limits.require(meta, "start", str, source)
    limits.require(meta, "from_move", int, source)
    if "checksum" in meta:
        limits.require(meta, "checksum", str, source)
    return meta


def _check_arrays(arrays: dict[str, np.ndarray], expected: dict[str, np.ndarray], source: str) -> None:
    """Types, shapes and the ranges no kernel may step outside of."""
    for name, model in expected.items():
        shape = (None, *model.shape[1:]) if name.startswith("stack_") else model.shape
        limits.check_array(arrays, name, source, dtype=model.dtype, shape=shape)
    capacity = arrays["stack_meta"].shape[0]
    if not 1 <= capacity <= MAX_STACK_CAPACITY or any(arrays[name].shape[0] != capacity
                                                      for name in ("stack_boxes", "stack_weights")):
        raise KibitzInputError(f"its branch stack has room for {capacity} entries in one array and "
                               f"{arrays['stack_boxes'].shape[0]} or {arrays['stack_weights'].shape[0]} in "
                               f"others; it must be the same, 1 to {MAX_STACK_CAPACITY}", source=source)
    limits.check_array(arrays, "floats", source, low=-MAX_WEIGHT, high=MAX_WEIGHT)
    limits.check_array(arrays, "pending", source, low=0, high=MAX_WEIGHT)
    limits.check_array(arrays, "stack_weights", source, low=0, high=MAX_WEIGHT)
    limits.check_array(arrays, "rng", source, low=1)


def _check_search(arrays: dict[str, np.ndarray], settings: Settings, start: State, from_move: int,
                  source: str) -> None:
    """Every value the kernel reads agrees with the settings and with the moves that lead to it."""

    def refuse(reason: str):
        raise KibitzInputError(f"damaged search state: {reason}", source=source)

    params, floats, state = arrays["params"], arrays["floats"], arrays["state"]
    wanted = {
        kernel.K_OPENING: settings.opening_moves, kernel.K_RESEED_BELOW: settings.reseed_below,
        kernel.K_CLOSE_AFTER: settings.close_call_after, kernel.K_CLOSE_EVERY: settings.close_call_every,
        kernel.K_TRIGGER: TRIGGERS[settings.trigger], kernel.K_STOP_WHEN_EMPTY: int(settings.stop_when_empty),
        kernel.K_STALE_GAMES: settings.stale_games, kernel.K_FLAGS: start.rules.flags(),
        kernel.K_BASE_SPLITS: start.splits + from_move,
    }
    for slot, value in wanted.items():
        if params[slot] != value:
            refuse(f"parameter {slot} is {params[slot]}, but the settings and start make it {value}")
    if (floats[kernel.F_CLOSE_LOW], floats[kernel.F_CLOSE_HIGH]) != (settings.close_call_low, settings.close_call_high):
        refuse("the close-call bounds differ from the settings")
    first, base_splits = start.splits, start.splits + from_move
    last = kernel.MAX_LINE - 1
    forced_end = int(params[kernel.K_FORCED_END])
    if not base_splits <= forced_end <= last:
        refuse(f"the line to follow ends at split {forced_end}, outside {base_splits}..{last}")
    forced = arrays["forced"]
    base = _replayed(start, forced[first:base_splits], "the fixed moves", refuse)
    base_boxes, base_count = fast.pack(base)
    if (params[kernel.K_BASE_COUNT], params[kernel.K_BASE_SCORE]) != (base_count, base.score) or not np.array_equal(
            arrays["base_boxes"][:base_count], base_boxes[:base_count]):
        refuse("the base position is not the one the fixed moves lead to")
    _replayed(base, forced[base_splits:forced_end], "the line to follow", refuse)

    def scalar(slot: int, name: str, low: int, high: int) -> int:
        value = int(state[slot])
        if not low <= value <= high:
            refuse(f"{name} is {value}, outside {low}..{high}")
        return value

    splits = scalar(kernel.S_SPLITS, "the split count", base_splits, last)
    games = scalar(kernel.S_GAMES, "the games played", 0, MAX_COUNT)
    best_splits = scalar(kernel.S_BEST_SPLITS, "the best game's length", -1, last)
    scalar(kernel.S_BEST_SCORE, "the best score", 0, MAX_COUNT)
    scalar(kernel.S_BEST_GAME, "the best game's number", 0, games)
    scalar(kernel.S_CLOSE_CALLS, "the close calls", 0, MAX_COUNT)
    scalar(kernel.S_EXPLORING_FROM, "the deepest backtrack", base_splits, kernel.MAX_LINE)
    pending = scalar(kernel.S_PENDING, "the pending flag", 0, 1)
    following = scalar(kernel.S_FOLLOWING, "the following flag", 0, 1)
    scalar(kernel.S_DONE, "the done flag", 0, 1)
    scalar(kernel.S_OPENING_END, "the opening's end", base_splits, base_splits + settings.opening_moves)
    scalar(kernel.S_RESTART_FROM, "the restart split", base_splits, splits)
    scalar(kernel.S_OPENINGS, "the openings", 1, MAX_COUNT)
    scalar(kernel.S_ROUND_BEST, "the round's best", 0, last)
    scalar(kernel.S_ROUND_STALE, "the stale games", 0, MAX_COUNT)
    if state[kernel.SCALARS - 2:].any():
        refuse("its unused slots are not zero")
    line = arrays["line"]
    if not np.array_equal(line[first:base_splits], forced[first:base_splits]):
        refuse("the current game changes the fixed moves")
    # A game that follows the line plays its moves as they come: it must be on it.
    if following and (splits > forced_end or not np.array_equal(line[base_splits:splits], forced[base_splits:splits])):
        refuse("the current game is said to follow the line but has left it")
    # The stack's branch points and the current game lie on one path of the line, at strictly
    # increasing split counts: replay it once, checking each position on the way.
    top = scalar(kernel.S_TOP, "the branch stack's height", 0, arrays["stack_meta"].shape[0])
    meta = arrays["stack_meta"]
    position, reached = base, base_splits
    for entry in range(top):
        count, at, score = (int(value) for value in meta[entry])
        if not reached <= at < splits:
            refuse(f"branch point {entry} is at split {at}, not between {reached} and {splits - 1}")
        position = _replayed(position, line[reached:at], "the current game", refuse)
        reached = at
        _same_board(position, count, score, arrays["stack_boxes"][entry], f"branch point {entry}", refuse)
        _check_weights(position, arrays["stack_weights"][entry], f"branch point {entry}", refuse)
    position = _replayed(position, line[reached:splits], "the current game", refuse)
    _same_board(position, int(state[kernel.S_COUNT]), int(state[kernel.S_SCORE]), arrays["boxes"],
                "the current board", refuse)
    if pending:
        _check_weights(position, arrays["pending"], "the pending branch", refuse)
    if best_splits >= 0:
        if best_splits < base_splits or games == 0:
            refuse(f"the best game ends at split {best_splits}, before the search's base {base_splits}")
        best_line = arrays["best_line"]
        if not np.array_equal(best_line[first:base_splits], forced[first:base_splits]):
            refuse("the best game changes the fixed moves")
        best = _replayed(start, best_line[first:best_splits], "the best game", refuse)
        if best.score != state[kernel.S_BEST_SCORE] or not (best_splits == last or best.is_over()):
            refuse("the best game's score or end is not what its moves give")
    elif games:
        refuse("games were played but no best game is recorded")


def _replayed(position: State, indices: np.ndarray, what: str, refuse) -> State:
    replay = fast.replay_indices(position, [int(i) for i in indices])
    if replay.played < len(indices):
        refuse(f"{what}: move {position.splits + replay.played + 1} (box {int(indices[replay.played])}) "
               "cannot be played")
    return replay.state


def _same_board(position: State, count: int, score: int, boxes: np.ndarray, what: str, refuse) -> None:
    packed, expected = fast.pack(position)
    if count != expected or score != position.score or not np.array_equal(boxes[:count], packed[:count]):
        refuse(f"{what} is not the position its moves lead to")


def _check_weights(position: State, weights: np.ndarray, what: str, refuse) -> None:
    """Branch weights: zero for boxes that cannot split now, at least one box left to branch to."""
    count = len(position.boxes)
    orientation = position.orientation
    splittable = np.array([box.can_split(orientation) for box in position.boxes], dtype=bool)
    own = weights[:count]
    if (own[~splittable] != 0).any() or not (own[splittable] > 0).any():
        refuse(f"{what}'s weights do not fit its board")


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


def greedy_rollout_length(state: State) -> int:
    """The split count at the end of a greedy game (highest weight, lowest index on ties) played
    from ``state``, as playAssist printed after every move ("Default Algorithm Record: 534" on the
    empty board). One game of the numba search kernel: a few milliseconds."""
    search = Search.start_from(Settings.for_player("greedy"), Line(state, ()), stack_capacity=1)
    search.advance(1)
    return search.snapshot().best_splits
