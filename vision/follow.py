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


# -- how far a position is from the reading (0 only when the boards agree) ----------------------
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

# -- frames caught mid-animation that look like a settled board ------------------------------------
def _g2048_in_between(game: Game, state, target) -> bool:
    """Does the reading show a slide from ``state`` half done? The page draws the slid tiles at
    their new places before the merged tiles pop up and the new tile appears: for a moment the
    board is the slide's result with each merged tile still showing the two it came from (one
    value lower) and no new tile, or the slide's result without the new tile."""
    from engines.g2048.state import SIZE as SIDE

    goal = target.exponents
    for move in game.legal_moves(state):
        slid = game.play(state, move).state.exponents
        if slid == goal or _g2048_unmerged(state.exponents, move.direction, SIDE) == goal:
            return True
    return False


def _g2048_line(direction: int, line: int, side: int) -> list[int]:
    """The cells of row or column ``line``, from the wall a slide toward ``direction`` (0 up,
    1 right, 2 down, 3 left) pushes the tiles against."""
    if direction == 0:
        return [line + side * k for k in range(side)]
    if direction == 2:
        return [line + side * (side - 1 - k) for k in range(side)]
    if direction == 3:
        return [side * line + k for k in range(side)]
    return [side * line + side - 1 - k for k in range(side)]


def _g2048_unmerged(exponents: tuple[int, ...], direction: int, side: int) -> tuple[int, ...]:
    """The board after sliding toward ``direction`` with every merge not yet made: the merged
    pair's tile shows its old value."""
    board = [0] * (side * side)
    for line in range(side):
        cells = _g2048_line(direction, line, side)
        tiles = [exponents[cell] for cell in cells if exponents[cell]]
        placed, index = [], 0
        while index < len(tiles):
            placed.append(tiles[index])
            index += 2 if index + 1 < len(tiles) and tiles[index + 1] == tiles[index] else 1
        for cell, value in zip(cells, placed):
            board[cell] = value
    return tuple(board)


def _g2048_motion(exponents: tuple[int, ...], direction: int, side: int) -> tuple[set[tuple[int, int]], set[int]]:
    """What sliding toward ``direction`` shows while it runs: the gaps between neighbouring cells
    (each a pair of cells, lower index first) some tile crosses, and the cells where two tiles
    merge (the merged tile pops up there from nothing, as a new tile does)."""
    crossed: set[tuple[int, int]] = set()
    merged: set[int] = set()
    for line in range(side):
        cells = _g2048_line(direction, line, side)
        tiles = [k for k, cell in enumerate(cells) if exponents[cell]]
        slot, index = 0, 0
        while index < len(tiles):
            group = 2 if index + 1 < len(tiles) and exponents[cells[tiles[index + 1]]] == exponents[cells[tiles[index]]] else 1
            if group == 2:
                merged.add(cells[slot])
            for k in tiles[index:index + group]:
                for step in range(slot + 1, k + 1):
                    crossed.add((min(cells[step], cells[step - 1]), max(cells[step], cells[step - 1])))
            slot += 1
            index += group
    return crossed, merged


#: A gap counts as crossed in a frame when this share of each third of it (across) changed from the
#: settled frame before the move; a merged tile's pop or a new tile's growth never covers all three.
GAP_COVERED = 0.6
#: ... and as untouched below this share.
GAP_UNTOUCHED = 0.25
#: A pixel of a gap changed when a channel moved by more than this (0..255).
GAP_PIXEL_CHANGED = 40
#: ... and a pixel of a cell (a 2 differs from an empty cell by under 40 on the page).
CELL_PIXEL_CHANGED = 16


def _changed_share(frame: np.ndarray, reference: np.ndarray, rect: tuple[float, float, float, float],
                   threshold: int) -> float | None:
    """The share of the pixels of ``rect`` (x, y, width, height) where a channel of ``frame``
    differs from ``reference`` by more than ``threshold``; None when the rectangle leaves the image."""
    x, y, w, h = rect
    x1, y1 = int(round(x)), int(round(y))
    x2, y2 = max(x1 + 1, int(round(x + w))), max(y1 + 1, int(round(y + h)))
    if x1 < 0 or y1 < 0 or y2 > frame.shape[0] or x2 > frame.shape[1]:
        return None
    change = np.abs(frame[y1:y2, x1:x2].astype(np.int16) - reference[y1:y2, x1:x2].astype(np.int16))
    return float((change.reshape(y2 - y1, x2 - x1, -1).max(axis=2) > threshold).mean())


def _g2048_layout(geometry: dict[str, Any]) -> tuple[float, float, float, float]:
    """(left, top, pitch, gap) of the board a 2048 reading found. The board is square: when the
    capture cuts it (one side shorter), the whole side's pitch and gap serve both ways and a board
    cut at the top is placed from its bottom edge."""
    left, top, width, height = geometry["board_xywh"]
    pitches, gaps = geometry.get("pitch_xy_px"), geometry.get("gap_xy_px")
    if not pitches or not gaps:
        return left, top, geometry["pitch_px"], geometry["gap_px"]
    if width >= height:
        pitch, gap = pitches[0], gaps[0]
        if height < width - 2 and top <= 1:
            top = top + height - width
    else:
        pitch, gap = pitches[1], gaps[1]
        if left <= 1:
            left = left + width - height
    return left, top, pitch, gap


def _g2048_gap_coverage(before: np.ndarray, frame: np.ndarray, geometry: dict[str, Any],
                        gap: tuple[int, int], side: int) -> float:
    """How much of the gap between two neighbouring cells a tile covers in ``frame``: the least,
    over the gap's three thirds across, of the share of its pixels changed from ``before``."""
    left, top, pitch, width = _g2048_layout(geometry)
    first, second = gap
    row, column = divmod(first, side)
    cell = pitch - width
    if second == first + 1:   # side by side: an upright strip between the columns
        x0, y0 = left + (column + 1) * pitch, top + width + row * pitch + 0.2 * cell
        thirds = [(x0 + k * width / 3, y0, width / 3, 0.6 * cell) for k in range(3)]
    else:                     # one above the other: a lying strip between the rows
        x0, y0 = left + width + column * pitch + 0.2 * cell, top + (row + 1) * pitch
        thirds = [(x0, y0 + k * width / 3, 0.6 * cell, width / 3) for k in range(3)]
    shares = [_changed_share(frame, before, third, GAP_PIXEL_CHANGED) for third in thirds]
    return 0.0 if None in shares else min(shares)


def _g2048_cell_growing(frame: np.ndarray, after: np.ndarray, geometry: dict[str, Any], cell: int,
                        side: int) -> float:
    """How surely ``frame`` shows a tile growing in ``cell`` (a new or merged tile popping up):
    its middle already looks as it does once settled (``after``) while all four edges of the cell
    still do not; the least share of changed pixels over the four edges (0 when the middle differs).
    A tile sliding in covers the edge it comes from first, so it never looks like this."""
    left, top, pitch, width = _g2048_layout(geometry)
    row, column = divmod(cell, side)
    size = pitch - width
    x0, y0 = left + width + column * pitch, top + width + row * pitch
    band = max(1.0, 0.1 * size)
    regions = {
        "middle": (x0 + 0.4 * size, y0 + 0.4 * size, 0.2 * size, 0.2 * size),
        "top": (x0 + 0.2 * size, y0 + 0.02 * size, 0.6 * size, band),
        "bottom": (x0 + 0.2 * size, y0 + 0.98 * size - band, 0.6 * size, band),
        "left": (x0 + 0.02 * size, y0 + 0.2 * size, band, 0.6 * size),
        "right": (x0 + 0.98 * size - band, y0 + 0.2 * size, band, 0.6 * size),
    }
    shares = {name: _changed_share(frame, after, rect, CELL_PIXEL_CHANGED) for name, rect in regions.items()}
    if None in shares.values() or shares.pop("middle") > GAP_UNTOUCHED:
        return 0.0
    return min(shares.values())


def _g2048_move_seen(game: Game, state, lines: list[tuple[Any, ...]], before: np.ndarray, after: np.ndarray,
                     geometry: dict[str, Any], frames: list[np.ndarray]) -> int | None:
    """Which of ``lines`` (each a slide and its spawn, all leaving the same board) the frames
    caught while the board moved show: the one whose own motion was seen (its tiles crossing a gap
    no other line's slide crosses, or a tile growing in a cell where only it spawns or merges) while
    nothing only another line does was seen; None when the frames do not tell (none caught the
    move, or the board moved in the region)."""
    from engines.g2048.state import SIZE as SIDE

    frames = [frame for frame in frames if frame.shape == before.shape == after.shape]
    if not frames or "board_xywh" not in geometry or any(len(line) != 2 for line in lines):
        return None
    motions = []
    for slide, spawn in lines:
        crossed, merged = _g2048_motion(state.exponents, slide.direction, SIDE)
        motions.append((crossed, merged | {spawn.row * SIDE + spawn.column}))
    seen = []
    for index, (crossed, growing) in enumerate(motions):
        others = [motion for k, motion in enumerate(motions) if k != index]
        own_gaps = crossed - set().union(*(motion[0] for motion in others))
        own_cells = growing - set().union(*(motion[1] for motion in others))
        seen.append(max([_g2048_gap_coverage(before, frame, geometry, gap, SIDE) for gap in own_gaps for frame in frames]
                        + [_g2048_cell_growing(frame, after, geometry, cell, SIDE) for cell in own_cells
                           for frame in frames], default=0.0))
    best = max(range(len(lines)), key=lambda k: seen[k])
    if seen[best] >= GAP_COVERED and all(seen[k] <= GAP_UNTOUCHED for k in range(len(lines)) if k != best):
        return best
    return None


#: Per game: does the reading show a move from the state caught half way (a frame to wait out)?
IN_BETWEEN: dict[str, Callable[[Game, Any, Any], bool]] = {
    "2048": _g2048_in_between,
}

#: Per game: of several lines that leave the same board, which one the frames caught while the
#: board moved show (their index), or None.
MOTION_SEEN: dict[str, Callable[[Game, Any, list[tuple[Any, ...]], np.ndarray, np.ndarray, dict[str, Any],
                                 list[np.ndarray]], int | None]] = {
    "2048": _g2048_move_seen,
}

#: How many player moves may separate two readings before follow mode gives up explaining.
MAX_PLAYER_MOVES = {"splt": 24, "2048": 3, "1010": 3, "destructo": 3, "hatetris": 2}


@dataclasses.dataclass(frozen=True)
class Explanation:
    moves: tuple[Any, ...]      # player moves and chance outcomes, in the order they are played
    state: Any                  # the position they lead to (the engine's, with its score)
    #: other lines as short that lead to the same position (2048: a slide and its spawn can leave
    #: the board another slide and spawn leaves): the board alone cannot tell which was played
    alternatives: tuple[tuple[Any, ...], ...] = ()


def explain(game: Game, previous: Any, target: Any, *, beam_width: int = 400,
            max_player_moves: int | None = None) -> Explanation | None:
    """See :func:`_explain`; a reading with a score (read off the screen) is first explained with
    that score, then, if no line gives it, by its board alone (a misread score).

    SPL-T has its own search (:func:`_explain_splt`); ``beam_width`` does not apply to it."""
    if game.short_name == "splt":
        if max_player_moves is not None and target.splits - previous.splits > max_player_moves:
            return None
        if target.score:
            found = _explain_splt(game, previous, target, check_score=True)
            if found is not None:
                return found
        return _explain_splt(game, previous, target, check_score=False)
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

    An empty line (the boards already agree) is an :class:`Explanation` with no moves. (SPL-T,
    whose split counter fixes the number of moves, has its own search: :func:`_explain_splt`.)"""
    key = BOARD_KEYS.get(game.short_name, lambda s: s)
    distance = DISTANCES.get(game.short_name)
    candidates = CHANCE_CANDIDATES.get(game.short_name, _listed_outcomes)
    goal = key(target)
    limit = max_player_moves or MAX_PLAYER_MOVES.get(game.short_name, 2)

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

    def done(state) -> bool:
        return key(state) == goal and (not check_score or state.score == target.score)

    layer: list[tuple[Any, tuple[Any, ...]]] = []
    if done(previous):
        return Explanation((), previous)
    for state, line in settle(previous, ()):
        if done(state):
            return Explanation(line, state)
        layer.append((state, line))
    for played in range(1, limit + 1):
        reached: list[tuple[tuple[Any, ...], Any]] = []
        seen: set[Any] = set()
        following: list[tuple[int, Any, tuple[Any, ...]]] = []
        for state, line in layer:
            for move in game.legal_moves(state):
                try:
                    after = game.play(state, move).state
                except KibitzInputError:
                    continue
                for settled, settled_line in settle(after, line + (move,)):
                    if done(settled):
                        reached.append((settled_line, settled))
                        continue
                    settled_key = key(settled)
                    if settled_key in seen:
                        continue
                    seen.add(settled_key)
                    rank = distance(settled, target) if distance is not None else 0
                    following.append((rank, settled, settled_line))
        if reached:  # the layer is finished first: every line as short that reaches the board
            line, state = reached[0]
            same = [other for other, reached_state in reached[1:] if reached_state == state and other != line]
            return Explanation(line, state, tuple(same))
        if not following:
            return None
        following.sort(key=lambda entry: entry[0])
        layer = [(state, line) for _, state, line in following[:beam_width]]
    return None


# -- SPL-T: a search pinned by the split count, the score and the blocks' countdown clocks ---------
#
# Between two SPL-T readings the number of splits is known (it is on screen), and so, nearly
# always, is the score. The search walks the legal splits depth first, exactly that many deep, and
# cuts every position from which the rules cannot reach the reading:
#
# * Score bookkeeping (spec 1.7). Over the remaining r splits a point block adds to the score its
#   value now (or, made on split N, N + 1) minus the value it ends with, plus its area if it
#   explodes; every split adds 1. With the reading's values V and the position's values P,
#   ``score_target - score - r - P + V`` is exactly what clusters made from now on (N + 1 per
#   member) and explosions (their area) still have to earn. Blocks that must explode (they count
#   down to nothing in time, or the reading has no block they could become) and blocks of the
#   reading no block of the position can become (new clusters, whose values tell their earliest
#   split) must be paid from it; what is left over (the spare) bounds everything else. Real boards
#   spend it almost exactly, so a cluster made a split late, or one made by accident, is cut at once.
# * Columns (spec 1.5, 1.6). Boxes fall straight down, never past each other; a split only divides
#   a box; refill boxes come in above everything left in their columns. So each column of the
#   reading, bottom to top, is the position's column with some boxes gone, the others replaced by
#   their pieces (in place unless something under them can go), then refill boxes on top. A point
#   block keeps its size and counts down: in place it shows ``p - r``; fallen, it is lower and
#   halved (at most ``(p - r) // 2``). Pieces also count splits: horizontal ones for a column cut
#   into more boxes, vertical ones for narrower pieces; the remaining splits alternate H and V, so
#   how many of each are left is known.
#
# Positions found to be dead ends are remembered (two orders of independent splits reach the same
# position), column verdicts too (a split changes one to four columns), and the splits that leave
# more of the reading's boxes in place are tried first. The kernel plays the splits.

#: How many positions the SPL-T search looks at before it gives up, with the score read and by the
#: board alone (a misread score: the board pins the line down far less). The real 11-split
#: screenshot pair takes a few hundred; readings far apart early in a game can take more.
SPLT_POSITIONS_WITH_SCORE = 60_000
SPLT_POSITIONS_BOARD_ONLY = 12_000

_SPLT_NO_LOG = np.zeros((0, 8), np.int32)
_SPLT_AREA = 8 * 16    # the board's area: no explosion scores more


def _splt_turns_to_explode(points: int) -> int:
    """The fewest splits after which a block showing ``points`` is gone: halved on every one."""
    turns = 1
    while points > 1:
        points = max(1, (points - 1) // 2)
        turns += 1
    return turns


class _SpltGoal:
    """The target reading, prepared for the checks (columns bottom to top, values, clock)."""

    def __init__(self, target, check_score: bool):
        self.splits = target.splits
        self.score = target.score if check_score else None
        self.boxes = tuple(sorted((b.x, b.y, b.w, b.h, b.points) for b in target.boxes))
        self.box_set = frozenset(self.boxes)
        self.points = tuple(box for box in self.boxes if box[4])
        self.point_total = sum(box[4] for box in self.points)
        self.points_by_shape: dict[tuple[int, int, int], list[tuple[int, int, int, int, int]]] = {}
        for box in self.points:
            self.points_by_shape.setdefault((box[0], box[2], box[3]), []).append(box)
        columns: list[list[tuple[int, int, int, int, int]]] = [[] for _ in range(8)]
        for box in self.boxes:
            for column in range(box[0], box[0] + box[2]):
                columns[column].append(box)
        self.columns = [sorted(column, key=lambda box: -box[1]) for column in columns]
        self.column_needs: dict[Any, tuple[int, int] | None] = {}
        self.shape_costs: dict[Any, int | None] = {}

    def earliest_creation(self, value: int, splits: int) -> int | None:
        """The first split, after ``splits``, on which a cluster can be made that shows ``value``
        in the target T: unhalved it shows 2N - T (so N is known). Halved first on split j, it
        shows at most (2N - j) // 2 - (T - j), largest for j = T: so 2N - T >= 2 * value."""
        last = self.splits
        candidates = []
        if (value + last) % 2 == 0 and splits < (value + last) // 2 <= last:
            candidates.append((value + last) // 2)
        halved = max(splits + 1, value + (last + 1) // 2)
        if halved <= last:
            candidates.append(halved)
        return min(candidates) if candidates else None


def _splt_could_become(points: int, y: int, target_box, remaining: int) -> bool:
    """Can a block showing ``points`` at row ``y`` (same column and size) end as ``target_box``?"""
    if points <= remaining:
        return False
    if target_box[1] == y:
        return target_box[4] == points - remaining
    return target_box[1] > y and 1 <= target_box[4] <= max(1, (points - remaining) // 2)


def _splt_score_spare(goal: _SpltGoal, boxes, splits: int, score: int) -> int | None:
    """The score bookkeeping check (see above): what the budget still to earn leaves over once
    what must come is paid, or None if it does not cover that."""
    remaining = goal.splits - splits
    by_shape: dict[tuple[int, int, int], list[tuple[int, int]]] = {}
    values = 0
    for x, y, w, h, points in boxes:
        if points:
            values += points
            by_shape.setdefault((x, w, h), []).append((y, points))
    budget = goal.score - score - remaining - values + goal.point_total
    if budget < 0:
        return None
    needed = 0
    for shape in goal.points_by_shape.keys() | by_shape.keys():
        key = (shape, splits, tuple(by_shape.get(shape, ())))
        cost = goal.shape_costs.get(key, -1)
        if cost == -1:
            cost = goal.shape_costs[key] = _splt_shape_cost(goal, shape, by_shape.get(shape, ()), splits)
        if cost is None:
            return None
        needed += cost
        if needed > budget:
            return None
    return budget - needed


def _splt_shape_cost(goal: _SpltGoal, shape, blocks, splits: int) -> int | None:
    """What the point blocks of one column and size must still earn: the area of the position's
    blocks that must explode, N + 1 for each target block only a cluster made on split N (at the
    earliest) can give; None if some target block cannot be made at all."""
    remaining = goal.splits - splits
    x, w, h = shape
    targets = goal.points_by_shape.get(shape, ())
    cost = 0
    for y, points in blocks:
        if not any(_splt_could_become(points, y, target, remaining) for target in targets):
            cost += w * h
    for target in targets:
        if any(_splt_could_become(points, y, target, remaining) for y, points in blocks):
            continue
        made = goal.earliest_creation(target[4], splits)
        if made is None:
            return None
        cost += made + 1
    return cost


def _splt_columns_allow(goal: _SpltGoal, boxes, splits: int, spare: int | None) -> bool:
    """The column check (see above), one column at a time, and a count of the splits it implies.

    A column's verdict is remembered (a split changes one to four columns, the others are looked
    up). A column whose boxes become more pieces needs that many horizontal splits of boxes over
    it, and a piece narrower than its box as many vertical splits as it is halved; columns that no
    plain box joins are split apart, so their needs add up. The remaining splits alternate, so how
    many of each kind are left is known. ``spare`` is the score left over (None: not known)."""
    columns: list[list[tuple[int, int, int, int, int]]] = [[] for _ in range(8)]
    joined = [False] * 8        # joined[c]: a plain box covers columns c - 1 and c
    for box in boxes:
        x, w = box[0], box[2]
        for column in range(x, x + w):
            columns[column].append(box)
            if column > x and not box[4]:
                joined[column] = True
    if spare is not None:
        spare = min(spare, splits + 2 + _SPLT_AREA)    # more changes nothing below
    horizontal: dict[int, int] = {}     # per group of joined columns: the most any column needs
    vertical: dict[int, int] = {}
    group = 0
    for column, stack in enumerate(columns):
        stack.sort(key=lambda box: -box[1])
        key = (column, splits, tuple(stack), spare)
        if key in goal.column_needs:
            needs = goal.column_needs[key]
        else:
            needs = goal.column_needs[key] = _splt_column_needs(goal, column, stack, splits, spare)
        if needs is None:
            return False
        if not joined[column]:
            group = column
        horizontal[group] = max(horizontal.get(group, 0), needs[0])
        vertical[group] = max(vertical.get(group, 0), needs[1])
    remaining = goal.splits - splits
    horizontal_left = (goal.splits + 1) // 2 - (splits + 1) // 2    # splits made with n even
    vertical_left = remaining - horizontal_left
    return sum(horizontal.values()) <= horizontal_left and sum(vertical.values()) <= vertical_left


def _splt_column_needs(goal: _SpltGoal, column: int, stack, splits: int,
                       spare: int | None) -> tuple[int, int] | None:
    """Can this column of the position (boxes bottom to top) become the target's column in the
    remaining splits? A small alignment: each box goes, or becomes the next target boxes (its
    pieces, or itself for a point block), and whatever target boxes are left on top came in as
    refill. None if it cannot, else the fewest horizontal and vertical splits of its boxes that
    an alignment needs (each counted over all alignments, so both are lower bounds).

    With the score known, a box goes only if the score allows it: a block the bookkeeping already
    counts as exploding, another one if ``spare`` covers its area, a plain box only if it covers
    what a cluster member made from now on that explodes earns (N + 1 and its area)."""
    remaining = goal.splits - splits
    covered = 0
    for _, y, _, h, _ in stack:
        covered |= ((1 << h) - 1) << y
    voids = ~covered & 0xFFFF
    # A plain box goes only as a cluster that explodes in time: without falling it needs the
    # split count to double; falling, it is halved at once and then on every split.
    plain_goes_unmoved = 2 * (splits + 1) <= goal.splits
    plain_goes_falling = _splt_turns_to_explode(max(1, (splits + 1) // 2)) <= remaining - 1
    if spare is not None and spare < splits + 3:
        plain_goes_unmoved = plain_goes_falling = False

    def new_ok(value: int) -> bool:
        return goal.earliest_creation(value, splits) is not None

    def reach_with(states, state, horizontal, vertical):
        known = states.get(state)
        states[state] = (horizontal, vertical) if known is None else \
            (min(known[0], horizontal), min(known[1], vertical))

    wanted = goal.columns[column]
    count = len(wanted)
    # (target boxes accounted for, something under here went or is void) -> splits needed
    reach: dict[tuple[int, bool], tuple[int, int]] = {(0, False): (0, 0)}
    for x, y, w, h, points in stack:
        void_below = (voids >> (y + h)) != 0
        following: dict[tuple[int, bool], tuple[int, int]] = {}
        for (start, moved), (horizontal, vertical) in reach.items():
            can_move = moved or void_below
            if points:
                goes = points <= remaining or (can_move and _splt_turns_to_explode(points) <= remaining)
                if goes and spare is not None and w * h > spare and points > remaining:
                    goes = not any(_splt_could_become(points, y, target, remaining)
                                   for target in goal.points_by_shape.get((x, w, h), ()))
            else:
                goes = plain_goes_unmoved or (can_move and plain_goes_falling)
            if goes:
                reach_with(following, (start, True), horizontal, vertical)
            if points:
                if start < count:
                    tx, ty, tw, th, _ = target = wanted[start]
                    if (tx, tw, th) == (x, w, h) and (ty == y or can_move) \
                            and _splt_could_become(points, y, target, remaining):
                        reach_with(following, (start + 1, can_move), horizontal, vertical)
                continue
            height = 0
            halvings = 0
            for end in range(start, count):
                tx, ty, tw, th, tv = wanted[end]
                height += th
                top = y + h - height     # the piece's row before anything fell
                if (tx < x or tx + tw > x + w or (tx - x) % tw or height > h or (top - y) % th
                        or ty < top or (ty != top and not can_move) or (tv and not new_ok(tv))):
                    break
                halvings = max(halvings, (w // tw).bit_length() - 1)
                if height == h:
                    reach_with(following, (end + 1, can_move), horizontal + end - start, vertical + halvings)
                    break
        reach = following
        if not reach:
            return None
    best = None
    for (start, moved), needs in reach.items():
        refilled = wanted[start:]      # came in from the top: needs a box gone or a void
        if not refilled or ((moved or voids) and all(not box[4] or new_ok(box[4]) for box in refilled)):
            best = needs if best is None else (min(best[0], needs[0]), min(best[1], needs[1]))
    return best


def _splt_children(boxes, splits: int, flags: int):
    """Every legal split of the packed position: (box split, boxes after, score gained)."""
    from engines.splt import kernel

    count = len(boxes)
    packed = np.zeros((kernel.MAX_BOXES, 5), np.int32)
    packed[:count] = boxes
    owner = np.full((kernel.HEIGHT, kernel.WIDTH), -1, np.int16)
    kernel.build_owner(packed, count, owner)
    parts = np.zeros(5, np.int64)
    vertical = splits % 2
    for index, box in enumerate(boxes):
        if box[4] or (box[2] if vertical else box[3]) < 2:
            continue
        after, after_owner = packed.copy(), owner.copy()
        after_count, _ = kernel.turn(after, count, after_owner, splits, index, flags, _SPLT_NO_LOG, parts)
        yield box, tuple(map(tuple, after[:after_count].tolist())), int(parts.sum())


class _SpltGaveUp(Exception):
    """The search looked at its allowance of positions without settling the question."""


def _explain_splt(game: Game, previous: Any, target: Any, check_score: bool) -> Explanation | None:
    """The splits from ``previous`` to a position with ``target``'s boxes (and, with
    ``check_score``, its score) in exactly the number of splits between their counters; None if
    there are none, or if the search gives up after its allowance of positions."""
    from engines.splt.state import Move

    depth = target.splits - previous.splits
    if depth < 0 or depth > MAX_PLAYER_MOVES["splt"]:
        return None
    goal = _SpltGoal(target, check_score)
    flags = previous.rules.flags()
    dead: set[Any] = set()
    line: list[Any] = []
    allowance = [SPLT_POSITIONS_WITH_SCORE if check_score else SPLT_POSITIONS_BOARD_ONLY]

    def finished(boxes, score) -> bool:
        return tuple(sorted(boxes)) == goal.boxes and (goal.score is None or score == goal.score)

    def search(boxes, splits: int, score: int) -> bool:
        if splits == goal.splits:
            return finished(boxes, score)
        key = (tuple(sorted(boxes)), splits, score if goal.score is not None else None)
        if key in dead:
            return False
        allowance[0] -= 1
        if allowance[0] < 0:
            raise _SpltGaveUp
        spare = None if goal.score is None else _splt_score_spare(goal, boxes, splits, score)
        if (goal.score is None or spare is not None) and _splt_columns_allow(goal, boxes, splits, spare):
            children = list(_splt_children(boxes, splits, flags))
            children.sort(key=lambda child: -sum(box in goal.box_set for box in child[1]))
            for box, after, gained in children:
                if search(after, splits + 1, score + gained):
                    line.append(Move(*box[:4]))
                    return True
        dead.add(key)
        return False

    start = tuple((b.x, b.y, b.w, b.h, b.points) for b in previous.boxes)
    try:
        if not search(start, previous.splits, previous.score):
            return None
    except _SpltGaveUp:
        return None
    moves = tuple(reversed(line))
    return Explanation(moves, game.replay(previous, moves) if moves else previous)


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
    #: other lines that lead to the same position (the board read cannot tell them apart)
    alternatives: tuple[tuple[Any, ...], ...] = ()
    #: the frames caught while the board moved showed ``moves`` were played, not the alternatives
    #: (which are then the lines ruled out)
    seen_moving: bool = False


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
#: A settled-looking frame that still shows an animation (the reader says tiles are in motion, or
#: the board is a move caught half way) is read again this many times while it stays, before it is
#: taken as it is: a real animation never holds still that long.
MOTION_REREADS = 2
#: The frames kept from a change (the last ones), to tell apart lines that leave the same board.
MOVING_FRAMES_KEPT = 8


def _thumbnail(image: np.ndarray) -> np.ndarray:
    grey = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY) if image.ndim == 3 else image
    return cv2.resize(grey, (128, 128), interpolation=cv2.INTER_AREA).astype(np.int16)


def _changed_apart_from(frame: np.ndarray, reference: np.ndarray, covered: np.ndarray) -> bool:
    """Whether two thumbnails differ outside ``covered`` (bool, the full image's pixels): a
    thumbnail pixel any covered pixel falls in is left out."""
    hidden = cv2.resize(covered.astype(np.float32), (128, 128), interpolation=cv2.INTER_AREA) > 0
    open_pixels = ~hidden
    if not open_pixels.any():
        return False
    changed = np.abs(frame - reference) > CHANGED_PIXEL
    return float(changed[open_pixels].mean()) > CHANGED_SHARE


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
        self._motion_reads = 0
        #: the image the follower's state was last read from, with the reading's geometry
        self._settled: tuple[np.ndarray, dict[str, Any]] | None = None
        #: the images seen since, while the board moved
        self._moving: list[np.ndarray] = []
        #: the reading the follower's state was last explained by (where the board is on screen),
        #: None while the screen shows something else (no board, a board no move explains)
        self.reading: Any = None
        #: the advice overlay's showing being watched, and its first image (a thumbnail)
        self._overlay_showing = 0
        self._overlay_reference: np.ndarray | None = None

    def reset(self, state: Any) -> None:
        self.state = state
        self._last_read_frame = None
        self._motion_reads = 0
        self._settled = None
        self._moving = []
        self.reading = None
        self._overlay_reference = None

    def changed_outside(self, image: np.ndarray, covered: np.ndarray) -> bool:
        """Whether ``image`` differs from the one the follower's state was last read from, apart
        from its ``covered`` pixels (a bool mask of the image's size: where something of ours,
        the advice overlay, lies over the game). True when there is nothing to compare with."""
        return self._changed_since_reading(_thumbnail(image), image.shape, covered)

    def _changed_since_reading(self, frame: np.ndarray, shape: tuple[int, ...], covered: np.ndarray) -> bool:
        """:meth:`changed_outside` of an image of ``shape`` whose thumbnail is ``frame``."""
        settled = self._settled  # once: reset() may run meanwhile on another thread
        if settled is None or covered.shape != shape[:2] or settled[0].shape != shape:
            return True
        return _changed_apart_from(frame, _thumbnail(settled[0]), covered)

    def changed_under_overlay(self, image: np.ndarray, hidden: np.ndarray, drawn: np.ndarray, showing: int) -> bool:
        """Whether the game changed since it was last read, seen through the advice overlay:
        ``hidden`` are the pixels its marks hide, ``drawn`` every pixel it draws on (a tint lets
        the game show through), ``showing`` tells one showing of the overlay from the next. The
        first image of a showing is compared with the last reading's outside everything drawn, and
        becomes the reference; later ones are compared with it wherever the game can be seen."""
        frame = _thumbnail(image)
        if self._overlay_showing != showing or self._overlay_reference is None:
            self._overlay_showing, self._overlay_reference = showing, None
            if self._changed_since_reading(frame, image.shape, drawn):
                return True
            self._overlay_reference = frame
            return False
        if hidden.shape != image.shape[:2]:
            return True
        return _changed_apart_from(frame, self._overlay_reference, hidden)

    def feed(self, image: np.ndarray) -> Unchanged | Settling | Played | Unexplained | NoBoard:
        frame = _thumbnail(image)
        stable = _same(frame, self._last_frame)
        self._last_frame = frame
        if _same(frame, self._last_read_frame):
            return Unchanged()
        if not stable:
            self._motion_reads = 0
            self._keep_moving(image)
            return Settling()
        event = self.read(image, wait_out_motion=self._motion_reads < MOTION_REREADS)
        if isinstance(event, Settling):  # caught mid-animation: read it again if it stays
            self._motion_reads += 1
            self._keep_moving(image)
            return event
        self._motion_reads = 0
        self._last_read_frame = frame
        return event

    def _keep_moving(self, image: np.ndarray) -> None:
        if self._settled is not None:
            self._moving = [*self._moving[-(MOVING_FRAMES_KEPT - 1):], image]

    def read(self, image: np.ndarray, wait_out_motion: bool = False
             ) -> Unchanged | Settling | Played | Unexplained | NoBoard:
        """Read ``image`` now (no stability check) and explain it from the follower's state. With
        ``wait_out_motion``, a frame that shows an animation (the reader says so, or the board
        is a move caught half way) is :class:`Settling` instead."""
        from vision import NoBoardFound

        try:
            reading = self._read(self.game.short_name, image, previous=self.state)
        except NoBoardFound as error:
            self.reading = None  # the screen no longer shows the follower's position
            return NoBoard(error.reason)
        if wait_out_motion and reading.diagnostics.get("in_motion"):
            return Settling()
        # an unsure reading is still taken when legal moves lead to it: the rules vouch for it
        found = explain(self.game, self.state, reading.state, beam_width=self.beam_width)
        in_between = IN_BETWEEN.get(self.game.short_name)
        if found is None and wait_out_motion and in_between is not None \
                and in_between(self.game, self.state, reading.state):
            return Settling()
        if found is None:
            self.reading = None  # the screen shows a board the follower's position does not explain
            if reading.doubtful:
                cells = ", ".join(f"({r + 1},{c + 1})" for r, c in reading.doubtful[:6])
                return Unexplained(reading, f"the reading is unsure of {len(reading.doubtful)} cell(s): {cells}")
            return Unexplained(reading, "no legal move of this position leads to the board read")
        settled, moving, before = self._settled, self._moving, self.state
        self._settled, self._moving = (image, reading.diagnostics), []
        self.reading = reading
        if not found.moves:
            return Unchanged()
        self.state = found.state
        lines = [found.moves, *found.alternatives]
        seen = MOTION_SEEN.get(self.game.short_name)
        if len(lines) > 1 and seen is not None and settled is not None:
            chosen = seen(self.game, before, lines, settled[0], image, settled[1], moving)
            if chosen is not None:
                others = tuple(line for k, line in enumerate(lines) if k != chosen)
                return Played(lines[chosen], found.state, others, seen_moving=True)
        return Played(found.moves, found.state, found.alternatives)
