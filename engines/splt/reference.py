"""The plain-Python reference path of an SPL-T turn, written straight from spec 1.3-1.6.

It favours being obviously right over being fast; the numba kernel (``engines.splt.kernel``) is
checked against it on many random games. Both produce the same :class:`~engines.contract.Step`.
"""

from __future__ import annotations

from engines.contract import Step
from engines.splt.events import (
    BlockHalved,
    BlocksExploded,
    BoxesRefilled,
    BoxFell,
    BoxSplit,
    PointBlocksCreated,
    TurnScored,
)
from engines.splt.state import HEIGHT, WIDTH, Box, Move, State

# A box while a turn is being played: [x, y, w, h, points].
_X, _Y, _W, _H, _P = range(5)


def _freeze(box: list[int]) -> Box:
    return Box(*box)


def _largest_power_of_two_at_most(value: int) -> int:
    power = 1
    while power * 2 <= value:
        power *= 2
    return power


class _Board:
    """Mutable boxes in list order plus a cell -> box-object grid, for one turn."""

    def __init__(self, boxes: tuple[Box, ...]) -> None:
        self.boxes = [[b.x, b.y, b.w, b.h, b.points] for b in boxes]
        self.grid: list[list[list[int] | None]] = [[None] * WIDTH for _ in range(HEIGHT)]
        for box in self.boxes:
            self._paint(box, box)

    def _paint(self, box: list[int], value: list[int] | None) -> None:
        for cy in range(box[_Y], box[_Y] + box[_H]):
            for cx in range(box[_X], box[_X] + box[_W]):
                self.grid[cy][cx] = value

    def at(self, x: int, y: int) -> list[int] | None:
        if 0 <= x < WIDTH and 0 <= y < HEIGHT:
            return self.grid[y][x]
        return None

    def is_void(self, x: int, y: int) -> bool:
        return self.grid[y][x] is None

    def remove(self, doomed: list[list[int]]) -> None:
        ids = {id(box) for box in doomed}
        for box in doomed:
            self._paint(box, None)
        self.boxes = [box for box in self.boxes if id(box) not in ids]

    def move_down(self, box: list[int], distance: int) -> None:
        self._paint(box, None)
        box[_Y] += distance
        self._paint(box, box)

    def add(self, box: list[int]) -> None:
        self.boxes.append(box)
        self._paint(box, box)

    def split(self, box: list[int], orientation: str) -> list[int]:
        """Split ``box`` in place into its top/left half; append and return the other half."""
        self._paint(box, None)
        if orientation == "H":
            box[_H] //= 2
            second = [box[_X], box[_Y] + box[_H], box[_W], box[_H], 0]
        else:
            box[_W] //= 2
            second = [box[_X] + box[_W], box[_Y], box[_W], box[_H], 0]
        self._paint(box, box)
        self.add(second)
        return second

    # -- clusters ----------------------------------------------------------------------------------
    def split_check(self, first: list[int], second: list[int], stale_conversion: bool) -> list[list[int]]:
        """Members of the clusters a split makes (spec 1.4), or with ``stale_conversion`` every
        2x2 group of the halves' size (Craig Polley's variant)."""
        if stale_conversion:
            return self.squares_anywhere(second[_W], second[_H])
        return self.squares_containing(first) + self.squares_containing(second)

    def _equal_plain_at(self, x: int, y: int, w: int, h: int) -> list[int] | None:
        box = self.at(x, y)
        if box is None or box[_P] != 0:
            return None
        if box[_X] != x or box[_Y] != y or box[_W] != w or box[_H] != h:
            return None
        return box

    def square_with_corner(self, x: int, y: int, w: int, h: int) -> list[list[int]] | None:
        """The four boxes of a 2x2 group of equal plain w x h boxes whose top-left member sits at
        (x, y), or None."""
        members = []
        for dy in (0, h):
            for dx in (0, w):
                box = self._equal_plain_at(x + dx, y + dy, w, h)
                if box is None:
                    return None
                members.append(box)
        return members

    def squares_containing(self, half: list[int]) -> list[list[int]]:
        """Members of every 2x2 group that has ``half`` as one of its four corners."""
        x, y, w, h = half[_X], half[_Y], half[_W], half[_H]
        found: list[list[int]] = []
        for corner_y in (y, y - h):
            for corner_x in (x, x - w):
                square = self.square_with_corner(corner_x, corner_y, w, h)
                if square:
                    found.extend(square)
        return found

    def squares_anywhere(self, w: int | None = None, h: int | None = None) -> list[list[int]]:
        """Members of every 2x2 group of equal plain boxes (optionally only of size w x h)."""
        found: list[list[int]] = []
        for box in self.boxes:
            if box[_P] or (w is not None and (box[_W], box[_H]) != (w, h)):
                continue
            square = self.square_with_corner(box[_X], box[_Y], box[_W], box[_H])
            if square:
                found.extend(square)
        return found


def _unique_in_list_order(board: _Board, members: list[list[int]]) -> list[list[int]]:
    ids = {id(box) for box in members}
    return [box for box in board.boxes if id(box) in ids]


def split_cluster(state: State, index: int) -> list[int]:
    """List indices of the boxes that splitting box ``index`` now would turn into point blocks
    (the split check of spec 1.4, under the state's rules); the new half, if it is a member, is
    numbered ``len(state.boxes)``. Empty when the split makes no cluster."""
    board = _Board(state.boxes)
    box = board.boxes[index]
    second = board.split(box, state.orientation)
    members = board.split_check(box, second, state.rules.stale_cluster_conversion)
    ids = {id(member) for member in members}
    return [position for position, candidate in enumerate(board.boxes) if id(candidate) in ids]


def play(state: State, move: Move) -> Step:
    """Play one split by the rules of spec 1.3, in pure Python."""
    index = state.resolve(move)
    rules = state.rules
    board = _Board(state.boxes)
    events = []
    split_number = state.splits + 1
    orientation = state.orientation

    # 1. Split: the box keeps its place as the top/left half; the other half is appended.
    box = board.boxes[index]
    before = _freeze(box)
    second = board.split(box, orientation)
    events.append(BoxSplit(before, orientation, _freeze(box), _freeze(second)))

    # 2. Clusters from the split: 2x2 groups that contain a new half.
    members = board.split_check(box, second, rules.stale_cluster_conversion)
    members = _unique_in_list_order(board, members)
    for member in members:
        member[_P] = split_number + 1
    if members:
        events.append(
            PointBlocksCreated(tuple(Box(*m[:4]) for m in members), split_number, late=False)
        )

    # 3. Countdown; a block at 1 explodes instead of reaching 0.
    countdown = 0
    exploded: list[list[int]] = []
    for block in board.boxes:
        if block[_P] > 0:
            countdown += 1
            if block[_P] == 1:
                exploded.append(block)
            else:
                block[_P] -= 1

    # 4. Destruction.
    explosion_points = sum(block[_W] * block[_H] for block in exploded)
    destroyed_rows = {row for block in exploded for row in range(block[_Y], block[_Y] + block[_H])}
    if exploded:
        events.append(BlocksExploded(tuple(_freeze(b) for b in exploded), explosion_points))
        board.remove(exploded)

    # 5. Falling: passes in list order, each box dropping its full distance, until stable.
    fell: list[list[int]] = []  # point blocks that moved, by identity, once each
    origins: dict[int, Box] = {}
    anything_moved = False
    moved_this_pass = True
    while moved_this_pass:
        moved_this_pass = False
        for block in board.boxes:
            distance = _fall_distance(board, block)
            if distance:
                if id(block) not in origins:
                    origins[id(block)] = _freeze(block)
                board.move_down(block, distance)
                moved_this_pass = anything_moved = True
                if block[_P] > 0 and all(block is not other for other in fell):
                    fell.append(block)
    for block in board.boxes:
        if id(block) in origins:
            events.append(BoxFell(origins[id(block)], _freeze(block)))

    # 6. Refill from the top.
    refilled = _refill(board, anything_moved, destroyed_rows, rules.unconditional_refill)
    if refilled:
        events.append(BoxesRefilled(tuple(_freeze(b) for b in refilled)))

    # 7. Late clusters, only after a fall (unless the rules say always).
    late_points = 0
    if anything_moved or rules.always_late_clusters:
        late = _unique_in_list_order(board, board.squares_anywhere())
        for member in late:
            member[_P] = split_number
        late_points = len(late)
        if late:
            events.append(PointBlocksCreated(tuple(Box(*m[:4]) for m in late), split_number, late=True))

    # 8. Halving of point blocks that fell: floor, but 1 stays 1.
    halving_points = 0
    for block in board.boxes:
        if any(block is other for other in fell) and block[_P] > 1:
            value = block[_P]
            gained = value - value // 2
            block[_P] = value // 2
            halving_points += gained
            events.append(BlockHalved(_freeze(block), value, block[_P], gained))

    scored = TurnScored(1, countdown, explosion_points, halving_points, late_points)
    events.append(scored)
    new_state = State(
        boxes=tuple(_freeze(b) for b in board.boxes),
        score=state.score + scored.total,
        splits=split_number,
        rules=rules,
    )
    return Step(new_state, tuple(events))


def _fall_distance(board: _Board, box: list[int]) -> int:
    """How far ``box`` can drop: the shortest run of voids under any of its columns."""
    bottom = box[_Y] + box[_H]
    distance = HEIGHT - bottom
    for column in range(box[_X], box[_X] + box[_W]):
        run = 0
        while bottom + run < HEIGHT and board.is_void(column, bottom + run):
            run += 1
        distance = min(distance, run)
        if distance == 0:
            return 0
    return distance


def _refill(
    board: _Board, anything_moved: bool, destroyed_rows: set[int], unconditional: bool
) -> list[list[int]]:
    """Spec 1.6: count the top voids per column, then fill pockets left to right."""
    only_destroyed_rows = not anything_moved and bool(destroyed_rows) and not unconditional
    counts = []
    for column in range(WIDTH):
        count = 0
        while count < HEIGHT and board.is_void(column, count):
            if only_destroyed_rows and count not in destroyed_rows:
                break
            count += 1
        counts.append(count)

    created: list[list[int]] = []
    while any(counts):
        start = next(c for c in range(WIDTH) if counts[c] > 0)
        end = start
        while end + 1 < WIDTH and counts[end + 1] > 0:
            end += 1
        if start == end:  # 1-wide voids are never filled
            counts[start] = 0
            continue
        depth = max(counts[start : end + 1])
        valley = next(c for c in range(start, end + 1) if counts[c] == depth)
        valley_end = valley
        while valley_end + 1 <= end and counts[valley_end + 1] == depth:
            valley_end += 1
        width = _largest_power_of_two_at_most(valley_end - valley + 1)
        if width == 1:
            counts[valley] -= 1
            continue
        columns = range(valley, valley + width)
        if depth % 2:
            for column in columns:
                counts[column] -= 1
            continue
        height = _largest_power_of_two_at_most(depth)
        landing = HEIGHT
        for column in columns:
            row = 0
            while row < HEIGHT and board.is_void(column, row):
                row += 1
            landing = min(landing, row)
        new_box = [valley, landing - height, width, height, 0]
        board.add(new_box)
        created.append(new_box)
        for column in columns:
            counts[column] -= height
    return created
