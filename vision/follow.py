"""Follow mode: which moves (and chance outcomes) lead from the position Kibitz holds to the one
read off the real game, and when the captured image is worth reading at all.

:func:`explain` searches the engine's own moves: a layered beam over player moves and the chance
steps that fit the reading (the spawn, the deal, the Fill row or the level's board the image
shows), ranked by how far each position still is from the reading. It never invents a move the
rules do not allow, so a reading it cannot explain is reported, not forced into the tree.

:class:`Follower` watches a stream of captured images: it waits until the image has changed and
then stayed the same for one more frame (animations settle), reads it, and explains the change.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable
from typing import Any

import cv2
import numpy as np

from engines import GAMES, Game, KibitzInputError


# -- what the image shows of a state ------------------------------------------------------------
def _splt_key(state) -> Any:
    return tuple(sorted((box.x, box.y, box.w, box.h, box.points) for box in state.boxes))


def _g2048_key(state) -> Any:
    return state.exponents


def _tenten_key(state) -> Any:
    return state.filled, state.tray


def _destructo_key(state) -> Any:
    return state.board


def _hatetris_key(state) -> Any:
    return state.well


#: The part of a state a screenshot shows (scores and counters are checked apart, when read).
BOARD_KEYS: dict[str, Callable[[Any], Any]] = {
    "splt": _splt_key,
    "2048": _g2048_key,
    "1010": _tenten_key,
    "destructo": _destructo_key,
    "hatetris": _hatetris_key,
}


def board_key(game: Game, state: Any) -> Any:
    return BOARD_KEYS.get(game.short_name, lambda s: s)(state)


# -- how far a position is from the reading (0 only when the boards agree) ----------------------
def _splt_distance(state, target) -> int:
    # cells whose covering box differs (geometry, or plain versus point block)
    def owners(s):
        grid = {}
        for box in s.boxes:
            signature = (box.x, box.y, box.w, box.h, box.points > 0)
            for cell in box.cells():
                grid[cell] = signature
        return grid

    mine, theirs = owners(state), owners(target)
    cells = set(mine) | set(theirs)
    return sum(mine.get(cell) != theirs.get(cell) for cell in cells)


def _g2048_distance(state, target) -> int:
    return sum(a != b for a, b in zip(state.exponents, target.exponents))


def _tenten_distance(state, target) -> int:
    grid = bin(state.filled ^ target.filled).count("1")
    return grid + sum(a != b for a, b in zip(state.tray, target.tray))


def _grid_distance(a, b) -> int:
    if len(a) != len(b) or (a and len(a[0]) != len(b[0])):
        return 10_000
    return sum(x != y for row_a, row_b in zip(a, b) for x, y in zip(row_a, row_b))


def _destructo_distance(state, target) -> int:
    return _grid_distance(state.board, target.board)


def _hatetris_distance(state, target) -> int:
    return sum(bin(a ^ b).count("1") for a, b in zip(state.well, target.well))


DISTANCES: dict[str, Callable[[Any, Any], int]] = {
    "splt": _splt_distance,
    "2048": _g2048_distance,
    "1010": _tenten_distance,
    "destructo": _destructo_distance,
    "hatetris": _hatetris_distance,
}


# -- the chance outcomes that fit the reading -----------------------------------------------------
def _tenten_deals(game: Game, state, target) -> Iterable[Any]:
    """Deals whose pieces agree with every slot the reading still shows full (an empty slot's
    piece was placed since, so any piece may have stood there)."""
    from engines.tenten.pieces import LETTERS
    from engines.tenten.state import Deal

    choices = [[slot] if slot is not None else list(LETTERS) for slot in target.tray]
    for first in choices[0]:
        for second in choices[1]:
            for third in choices[2]:
                yield Deal((first, second, third))


def _destructo_outcomes(game: Game, state, target) -> Iterable[Any]:
    from engines.destructo.state import FILL_DUE, FillRow, NewBoard

    if state.due == FILL_DUE:
        if len(target.board) != state.rows or not target.board or len(target.board[0]) != state.columns:
            return
        boulders = []
        for column in range(state.columns):
            room = sum(state.board[row][column] is None for row in range(state.rows))
            boulders.append(target.board[room - 1][column] if room else None)
        yield FillRow(tuple(boulders))
    else:  # a level's board or a Shuffle's colours: the board the image shows
        yield NewBoard(target.board)


def _listed_outcomes(game: Game, state, target) -> Iterable[Any]:
    return (outcome for outcome, _ in game.chance_outcomes(state))


CHANCE_CANDIDATES: dict[str, Callable[[Game, Any, Any], Iterable[Any]]] = {
    "1010": _tenten_deals,
    "destructo": _destructo_outcomes,
}

#: How many player moves may separate two readings before follow mode gives up explaining.
MAX_PLAYER_MOVES = {"splt": 24, "2048": 3, "1010": 3, "destructo": 3, "hatetris": 2}


def _splt_exact_moves(previous, target) -> int | None:
    """SPL-T counts its splits on screen: the number of moves between two readings is known."""
    difference = target.splits - previous.splits
    return difference if 0 < difference <= MAX_PLAYER_MOVES["splt"] else None


@dataclasses.dataclass(frozen=True)
class Explanation:
    moves: tuple[Any, ...]      # player moves and chance outcomes, in the order they are played
    state: Any                  # the position they lead to (the engine's, with its score)


def explain(game: Game, previous: Any, target: Any, *, beam_width: int = 400,
            max_player_moves: int | None = None) -> Explanation | None:
    """See :func:`_explain`; a reading with a score (read off the screen) is first explained with
    that score, then, if no line gives it, by its board alone (a misread score)."""
    if getattr(target, "score", 0):
        found = _explain(game, previous, target, beam_width, max_player_moves, check_score=True)
        if found is not None:
            return found
    return _explain(game, previous, target, beam_width, max_player_moves, check_score=False)


def _explain(game: Game, previous: Any, target: Any, beam_width: int, max_player_moves: int | None,
             check_score: bool) -> Explanation | None:
    """The shortest line of legal moves and fitting chance outcomes from ``previous`` to a
    position whose board equals ``target``'s (the reading), or None when none is found within
    ``max_player_moves`` player moves (a beam of ``beam_width`` positions a layer).

    An empty line (the boards already agree) is an :class:`Explanation` with no moves. When the
    game shows a move counter (SPL-T's splits), the line has exactly that many moves."""
    key = BOARD_KEYS.get(game.short_name, lambda s: s)
    distance = DISTANCES.get(game.short_name)
    candidates = CHANCE_CANDIDATES.get(game.short_name, _listed_outcomes)
    goal = key(target)
    exact = _splt_exact_moves(previous, target) if game.short_name == "splt" else None
    if game.short_name == "splt" and exact is None and key(previous) != goal:
        return None
    limit = exact if exact is not None else (max_player_moves or MAX_PLAYER_MOVES.get(game.short_name, 2))

    def settle(state, line):
        """Play the chance steps that fit the reading; yields (state, line) once per way."""
        if not game.is_chance_node(state):
            yield state, line
            return
        for outcome in candidates(game, state, target):
            try:
                after = game.apply_chance(state, outcome).state
            except (KibitzInputError, ValueError):
                continue
            yield from settle(after, line + (outcome,))

    def done(state, moves_played) -> bool:
        return (key(state) == goal and (exact is None or moves_played == exact)
                and (not check_score or state.score == target.score))

    layer: list[tuple[Any, tuple[Any, ...]]] = []
    if exact is None and done(previous, 0):
        return Explanation((), previous)
    for state, line in settle(previous, ()):
        if done(state, 0):
            return Explanation(line, state)
        layer.append((state, line))
    for played in range(1, limit + 1):
        seen: set[Any] = set()
        following: list[tuple[int, Any, tuple[Any, ...]]] = []
        for state, line in layer:
            for move in game.legal_moves(state):
                try:
                    after = game.play(state, move).state
                except KibitzInputError:
                    continue
                for settled, settled_line in settle(after, line + (move,)):
                    if done(settled, played):
                        return Explanation(settled_line, settled)
                    settled_key = key(settled)
                    if settled_key in seen:
                        continue
                    seen.add(settled_key)
                    rank = distance(settled, target) if distance is not None else 0
                    following.append((rank, settled, settled_line))
        if not following:
            return None
        following.sort(key=lambda entry: entry[0])
        layer = [(state, line) for _, state, line in following[:beam_width]]
    return None


# -- watching the captured region ------------------------------------------------------------------
@dataclasses.dataclass(frozen=True)
class Unchanged:
    """Nothing new on screen (or a change that left the board as it was)."""


@dataclasses.dataclass(frozen=True)
class Settling:
    """The image is changing; it is read once it has stayed the same for a frame."""


@dataclasses.dataclass(frozen=True)
class Played:
    moves: tuple[Any, ...]   # play these in the tree, in order
    state: Any


@dataclasses.dataclass(frozen=True)
class Unexplained:
    reading: Any             # the vision.Reading no legal line explains
    reason: str


@dataclasses.dataclass(frozen=True)
class NoBoard:
    reason: str


#: A thumbnail pixel counts as changed when it moves by more than this (0..255): above capture
#: noise, below any tile, piece or boulder appearing.
CHANGED_PIXEL = 24
#: Two frames differ when more than this share of their thumbnail pixels changed (a single 1010!
#: cell is about 1 % of the board).
CHANGED_SHARE = 0.001


def _thumbnail(image: np.ndarray) -> np.ndarray:
    grey = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY) if image.ndim == 3 else image
    return cv2.resize(grey, (128, 128), interpolation=cv2.INTER_AREA).astype(np.int16)


def _same(a: np.ndarray | None, b: np.ndarray | None) -> bool:
    if a is None or b is None:
        return False
    return float((np.abs(a - b) > CHANGED_PIXEL).mean()) <= CHANGED_SHARE


class Follower:
    """Follows the real game through a stream of captured images of its board.

    ``feed(image)`` returns what happened: :class:`Unchanged`, :class:`Settling`, :class:`Played`
    (the moves to play in the tree; the follower now stands at their end), :class:`Unexplained`
    or :class:`NoBoard`. ``reset(state)`` after the user moves or loads a position in Kibitz.
    ``read`` is ``vision.read`` by default (a test may pass its own)."""

    def __init__(self, game: Game | str, state: Any, read: Callable[..., Any] | None = None,
                 beam_width: int = 400):
        self.game = GAMES[game] if isinstance(game, str) else game
        self.state = state
        self.beam_width = beam_width
        if read is None:
            from vision import read as vision_read

            read = vision_read
        self._read = read
        self._last_frame: np.ndarray | None = None
        self._last_read_frame: np.ndarray | None = None

    def reset(self, state: Any) -> None:
        self.state = state
        self._last_read_frame = None

    def feed(self, image: np.ndarray) -> Unchanged | Settling | Played | Unexplained | NoBoard:
        frame = _thumbnail(image)
        stable = _same(frame, self._last_frame)
        self._last_frame = frame
        if _same(frame, self._last_read_frame):
            return Unchanged()
        if not stable:
            return Settling()
        self._last_read_frame = frame
        return self.read(image)

    def read(self, image: np.ndarray) -> Unchanged | Played | Unexplained | NoBoard:
        """Read ``image`` now (no stability check) and explain it from the follower's state."""
        from vision import NoBoardFound

        try:
            reading = self._read(self.game.short_name, image, previous=self.state)
        except NoBoardFound as error:
            return NoBoard(error.reason)
        # an unsure reading is still taken when legal moves lead to it: the rules vouch for it
        found = explain(self.game, self.state, reading.state, beam_width=self.beam_width)
        if found is None:
            if not reading.sure:
                cells = ", ".join(f"({r + 1},{c + 1})" for r, c in reading.doubtful[:6])
                return Unexplained(reading, f"the reading is unsure of {len(reading.doubtful)} cell(s): {cells}")
            return Unexplained(reading, "no legal move of this position leads to the board read")
        if not found.moves:
            return Unchanged()
        self.state = found.state
        return Played(found.moves, found.state)
