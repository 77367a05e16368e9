"""The numba SPL-T turn and the loops built on it (random playouts, index replays).

Packed state: ``boxes`` is an int32 array (MAX_BOXES, 5) of x, y, w, h, points in box-list order,
the first ``count`` rows in use; ``owner`` is an int16 (16, 8) grid of box indices, -1 for a void.
Every function here is jitted and they call only each other, so numba's cache stays valid.

A turn can write an event log (int32 rows of LOG_WIDTH) that ``engines.splt.fast`` turns into the
same events as the reference path; pass a zero-row log to skip recording.
"""

from __future__ import annotations

import numpy as np

from engines.jit import kernel

WIDTH = 8
HEIGHT = 16
MAX_BOXES = 128
X, Y, W, H, P = 0, 1, 2, 3, 4

# Rule option bits (engines.splt.state.Rules.flags).
STALE_CLUSTER_CONVERSION = 1
UNCONDITIONAL_REFILL = 2
ALWAYS_LATE_CLUSTERS = 4

# Event log rows: kind, x, y, w, h, a, b, 0.
LOG_WIDTH = 8
LOG_ROWS = 8 * MAX_BOXES
EVENT_SPLIT = 1  # box before the split; a = 0 for H, 1 for V
EVENT_CREATED = 2  # a cluster member; a = value after the countdown, b = 1 if late
EVENT_EXPLODED = 3  # a removed block; a = its points (1)
EVENT_FELL = 4  # position before the fall; a = new y, b = points
EVENT_REFILLED = 5  # a new plain box
EVENT_HALVED = 6  # final position; a = value before, b = value after

# Score parts of a turn, in the order of engines.splt.events.TurnScored.
PART_SPLIT, PART_COUNTDOWN, PART_EXPLOSIONS, PART_HALVINGS, PART_LATE = range(5)


@kernel
def paint(owner, boxes, index, value):
    for cy in range(boxes[index, Y], boxes[index, Y] + boxes[index, H]):
        for cx in range(boxes[index, X], boxes[index, X] + boxes[index, W]):
            owner[cy, cx] = value


@kernel
def build_owner(boxes, count, owner):
    owner[:, :] = -1
    for index in range(count):
        paint(owner, boxes, index, index)


@kernel
def can_split(boxes, index, splits):
    if boxes[index, P] != 0:
        return False
    if splits % 2 == 0:
        return boxes[index, H] >= 2
    return boxes[index, W] >= 2


@kernel
def list_legal(boxes, count, splits, out):
    """Write the indices of the splittable boxes into ``out``; return how many."""
    found = 0
    for index in range(count):
        if can_split(boxes, index, splits):
            out[found] = index
            found += 1
    return found


@kernel
def log_row(log, n_log, kind, x, y, w, h, a, b):
    if log.shape[0] == 0:
        return n_log
    log[n_log, 0] = kind
    log[n_log, 1] = x
    log[n_log, 2] = y
    log[n_log, 3] = w
    log[n_log, 4] = h
    log[n_log, 5] = a
    log[n_log, 6] = b
    log[n_log, 7] = 0
    return n_log + 1


@kernel
def mark_squares_anywhere(boxes, owner, count, only_w, only_h, member):
    """Mark every 2x2 group of equal plain boxes (of size only_w x only_h when they are > 0).
    Written out without calls, as :func:`mark_squares_at_halves` (why there)."""
    for index in range(count):
        w = boxes[index, W]
        h = boxes[index, H]
        if boxes[index, P] != 0 or (only_w > 0 and (w != only_w or h != only_h)):
            continue
        left = boxes[index, X]
        top = boxes[index, Y]
        if left + 2 * w > WIDTH or top + 2 * h > HEIGHT:
            continue
        b = owner[top, left + w]
        c = owner[top + h, left]
        d = owner[top + h, left + w]
        if b < 0 or c < 0 or d < 0:
            continue
        if (boxes[b, P] != 0 or boxes[b, X] != left + w or boxes[b, Y] != top or boxes[b, W] != w
                or boxes[b, H] != h):
            continue
        if (boxes[c, P] != 0 or boxes[c, X] != left or boxes[c, Y] != top + h or boxes[c, W] != w
                or boxes[c, H] != h):
            continue
        if (boxes[d, P] != 0 or boxes[d, X] != left + w or boxes[d, Y] != top + h or boxes[d, W] != w
                or boxes[d, H] != h):
            continue
        member[index] = 1
        member[b] = 1
        member[c] = 1
        member[d] = 1


@kernel
def fall_distance(boxes, owner, index):
    bottom = boxes[index, Y] + boxes[index, H]
    distance = HEIGHT - bottom
    for column in range(boxes[index, X], boxes[index, X] + boxes[index, W]):
        run = 0
        while bottom + run < HEIGHT and owner[bottom + run, column] < 0:
            run += 1
        if run < distance:
            distance = run
        if distance == 0:
            return 0
    return distance


@kernel
def largest_power_of_two_at_most(value):
    power = 1
    while power * 2 <= value:
        power *= 2
    return power


@kernel
def refill(boxes, count, owner, anything_moved, destroyed_rows, unconditional, log, n_log, counts):
    """Spec 1.6. ``destroyed_rows`` is a bit mask of rows; ``counts`` is scratch (int32[WIDTH]).
    Returns (count, n_log)."""
    only_destroyed = (not anything_moved) and destroyed_rows != 0 and not unconditional
    for column in range(WIDTH):
        depth = 0
        while depth < HEIGHT and owner[depth, column] < 0:
            if only_destroyed and (destroyed_rows >> depth) & 1 == 0:
                break
            depth += 1
        counts[column] = depth
    while True:
        start = -1
        for column in range(WIDTH):
            if counts[column] > 0:
                start = column
                break
        if start < 0:
            break
        end = start
        while end + 1 < WIDTH and counts[end + 1] > 0:
            end += 1
        if start == end:
            counts[start] = 0
            continue
        depth = 0
        for column in range(start, end + 1):
            if counts[column] > depth:
                depth = counts[column]
        valley = start
        while counts[valley] != depth:
            valley += 1
        valley_end = valley
        while valley_end + 1 <= end and counts[valley_end + 1] == depth:
            valley_end += 1
        width = largest_power_of_two_at_most(valley_end - valley + 1)
        if width == 1:
            counts[valley] -= 1
            continue
        if depth % 2 == 1:
            for column in range(valley, valley + width):
                counts[column] -= 1
            continue
        height = largest_power_of_two_at_most(depth)
        landing = HEIGHT
        for column in range(valley, valley + width):
            row = 0
            while row < HEIGHT and owner[row, column] < 0:
                row += 1
            if row < landing:
                landing = row
        boxes[count, X] = valley
        boxes[count, Y] = landing - height
        boxes[count, W] = width
        boxes[count, H] = height
        boxes[count, P] = 0
        paint(owner, boxes, count, count)
        n_log = log_row(log, n_log, EVENT_REFILLED, valley, landing - height, width, height, 0, 0)
        count += 1
        for column in range(valley, valley + width):
            counts[column] -= height
    return count, n_log


@kernel
def mark_squares_at_halves(boxes, owner, first, second, member):
    """Mark the boxes of every 2x2 group of equal plain boxes that has box ``first`` or ``second``
    (the halves of a split, of one size) as one of its corners.

    Written out without calls to helpers that take arrays: numba increments and decrements the
    arrays' reference counts around each such call, which made this check, run every turn, half
    the cost of a turn. One helper for the 2x2 check shared with :func:`mark_squares_anywhere`,
    even inlined by numba (``inline="always"``), cost 27-33 % of the random games' speed
    (benchmarks/splt_engine.py: 1.70 M splits/s written out, 1.13-1.23 M with it), so both stay
    written out."""
    w = boxes[first, W]
    h = boxes[first, H]
    for half in range(2):
        box = first if half == 0 else second
        x = boxes[box, X]
        y = boxes[box, Y]
        for corner in range(4):
            left = x - w * (corner & 1)
            top = y - h * (corner >> 1)
            if left < 0 or top < 0 or left + 2 * w > WIDTH or top + 2 * h > HEIGHT:
                continue
            a = owner[top, left]
            b = owner[top, left + w]
            c = owner[top + h, left]
            d = owner[top + h, left + w]
            if a < 0 or b < 0 or c < 0 or d < 0:
                continue
            if (boxes[a, P] != 0 or boxes[a, X] != left or boxes[a, Y] != top or boxes[a, W] != w
                    or boxes[a, H] != h):
                continue
            if (boxes[b, P] != 0 or boxes[b, X] != left + w or boxes[b, Y] != top or boxes[b, W] != w
                    or boxes[b, H] != h):
                continue
            if (boxes[c, P] != 0 or boxes[c, X] != left or boxes[c, Y] != top + h or boxes[c, W] != w
                    or boxes[c, H] != h):
                continue
            if (boxes[d, P] != 0 or boxes[d, X] != left + w or boxes[d, Y] != top + h or boxes[d, W] != w
                    or boxes[d, H] != h):
                continue
            member[a] = 1
            member[b] = 1
            member[c] = 1
            member[d] = 1


@kernel
def split_and_check(boxes, owner, index, second, splits, flags, member):
    """Steps 1-2 of a turn: split box ``index`` in place into its top/left half and the new half
    at row ``second`` (painted into ``owner``), then mark in ``member`` the boxes the split check
    converts. ``member`` is not cleared here."""
    x = boxes[index, X]
    y = boxes[index, Y]
    w = boxes[index, W]
    h = boxes[index, H]
    if splits % 2 == 0:
        boxes[index, H] = h // 2
        boxes[second, X] = x
        boxes[second, Y] = y + h // 2
        boxes[second, W] = w
        boxes[second, H] = h // 2
    else:
        boxes[index, W] = w // 2
        boxes[second, X] = x + w // 2
        boxes[second, Y] = y
        boxes[second, W] = w // 2
        boxes[second, H] = h
    boxes[second, P] = 0
    paint(owner, boxes, second, second)
    if flags & STALE_CLUSTER_CONVERSION:
        mark_squares_anywhere(boxes, owner, second + 1, boxes[second, W], boxes[second, H], member)
    else:
        mark_squares_at_halves(boxes, owner, index, second, member)


@kernel
def turn(boxes, count, owner, splits, index, flags, log, parts):
    """Play one split (spec 1.3) of the legal box ``index`` in place.

    ``parts`` (int64[5]) receives the score by part; returns (new count, event rows written).
    """
    return play_turn(
        boxes, count, owner, splits, index, flags, log, parts,
        np.zeros(MAX_BOXES, np.int8), np.empty(MAX_BOXES, np.int32), np.empty(WIDTH, np.int32), False,
    )


@kernel
def play_turn(boxes, count, owner, splits, index, flags, log, parts, member, origin_y, counts, stable):
    """:func:`turn` with its scratch arrays given, for loops of many turns (no allocation per
    turn): ``member`` int8[MAX_BOXES], all 0 (and left so), ``origin_y`` int32[MAX_BOXES],
    ``counts`` int32[WIDTH].

    ``stable``: the caller knows no box of the board can fall, as after any turn (falls run until
    nothing moves, and refill boxes land on something). A split leaves every cell covered, so
    then only a turn that destroys blocks, or a vertical split whose half is left over a void,
    can start a fall; the other turns skip the fall pass. A start position may hold a box over a
    void: pass False for its first turn."""
    n_log = 0
    for part in range(5):
        parts[part] = 0
    split_number = splits + 1

    # 1. Split; 2. clusters from the split.
    n_log = log_row(
        log, n_log, EVENT_SPLIT, boxes[index, X], boxes[index, Y], boxes[index, W], boxes[index, H],
        splits % 2, 0,
    )
    second = count
    count += 1
    split_and_check(boxes, owner, index, second, splits, flags, member)
    for box in range(count):
        if member[box]:
            boxes[box, P] = split_number + 1
            n_log = log_row(
                log, n_log, EVENT_CREATED, boxes[box, X], boxes[box, Y], boxes[box, W], boxes[box, H], split_number, 0
            )
            member[box] = 0  # cleared as read: the late-cluster scan and the next turn find it clear

    # 3. Countdown and 4. destruction (survivors keep their order).
    destroyed_rows = 0
    kept = 0
    for box in range(count):
        if boxes[box, P] > 0:
            parts[PART_COUNTDOWN] += 1
            if boxes[box, P] == 1:
                parts[PART_EXPLOSIONS] += boxes[box, W] * boxes[box, H]
                for row in range(boxes[box, Y], boxes[box, Y] + boxes[box, H]):
                    destroyed_rows |= 1 << row
                n_log = log_row(
                    log, n_log, EVENT_EXPLODED, boxes[box, X], boxes[box, Y], boxes[box, W], boxes[box, H], 1, 0
                )
                continue
            boxes[box, P] -= 1
        if kept != box:
            for field in range(5):
                boxes[kept, field] = boxes[box, field]
        kept += 1
    if kept != count:
        count = kept
        build_owner(boxes, count, owner)

    # 5. Falling, in list-order passes until nothing moves. On a stable board only an explosion
    # or a half of a vertical split left over a void can start a fall.
    anything_moved = False
    moved = True
    if stable and kept == second + 1:
        moved = splits % 2 == 1 and (
            fall_distance(boxes, owner, index) > 0 or fall_distance(boxes, owner, second) > 0
        )
    if moved:
        origin_y[:] = -1
    while moved:
        moved = False
        for box in range(count):
            distance = fall_distance(boxes, owner, box)
            if distance > 0:
                if origin_y[box] < 0:
                    origin_y[box] = boxes[box, Y]
                paint(owner, boxes, box, -1)
                boxes[box, Y] += distance
                paint(owner, boxes, box, box)
                moved = True
                anything_moved = True
    if anything_moved and log.shape[0] > 0:
        for box in range(count):
            if origin_y[box] >= 0:
                n_log = log_row(
                    log, n_log, EVENT_FELL, boxes[box, X], origin_y[box], boxes[box, W], boxes[box, H],
                    boxes[box, Y], boxes[box, P],
                )

    # 6. Refill.
    count, n_log = refill(
        boxes, count, owner, anything_moved, destroyed_rows, flags & UNCONDITIONAL_REFILL != 0, log, n_log, counts
    )

    # 7. Late clusters.
    if anything_moved or flags & ALWAYS_LATE_CLUSTERS:
        mark_squares_anywhere(boxes, owner, count, 0, 0, member)
        for box in range(count):
            if member[box]:
                boxes[box, P] = split_number
                parts[PART_LATE] += 1
                n_log = log_row(
                    log, n_log, EVENT_CREATED, boxes[box, X], boxes[box, Y], boxes[box, W], boxes[box, H],
                    split_number, 1,
                )

    # 8. Halving of point blocks that fell (late-cluster members were plain when they moved).
    if anything_moved:
        for box in range(count):
            if origin_y[box] >= 0 and boxes[box, P] > 1 and member[box] == 0:
                value = boxes[box, P]
                boxes[box, P] = value // 2
                parts[PART_HALVINGS] += value - value // 2
                n_log = log_row(
                    log, n_log, EVENT_HALVED, boxes[box, X], boxes[box, Y], boxes[box, W], boxes[box, H],
                    value, value // 2,
                )

    if anything_moved or flags & ALWAYS_LATE_CLUSTERS:
        member[:count] = 0  # the next turn finds it clear
    parts[PART_SPLIT] = 1
    return count, n_log


@kernel
def is_over(boxes, count, splits):
    for index in range(count):
        if can_split(boxes, index, splits):
            return False
    return True


@kernel
def next_random(rng_state):
    """xorshift64*: a small, fast generator owned by the caller (rng_state is uint64[1])."""
    value = rng_state[0]
    value ^= value >> np.uint64(12)
    value ^= value << np.uint64(25)
    value ^= value >> np.uint64(27)
    rng_state[0] = value
    return value * np.uint64(2685821657736338717)


@kernel
def random_playouts(start_boxes, start_count, start_splits, flags, games, seed, lengths, scores):
    """Play ``games`` uniformly random games from a packed position; write each game's final
    split count and score. Returns the total number of splits played."""
    boxes = np.zeros((MAX_BOXES, 5), np.int32)
    owner = np.full((HEIGHT, WIDTH), -1, np.int16)
    legal = np.zeros(MAX_BOXES, np.int32)
    parts = np.zeros(5, np.int64)
    no_log = np.zeros((0, LOG_WIDTH), np.int32)
    rng_state = np.zeros(1, np.uint64)
    rng_state[0] = np.uint64(seed) * np.uint64(0x9E3779B97F4A7C15) + np.uint64(1)
    member = np.zeros(MAX_BOXES, np.int8)
    origin_y = np.empty(MAX_BOXES, np.int32)
    counts = np.empty(WIDTH, np.int32)
    total = 0
    for game in range(games):
        boxes[:start_count, :] = start_boxes[:start_count, :]
        count = start_count
        splits = start_splits
        score = 0
        build_owner(boxes, count, owner)
        stable = False  # the start position may hold a box over a void
        while True:
            n_legal = list_legal(boxes, count, splits, legal)
            if n_legal == 0:
                break
            choice = legal[next_random(rng_state) % np.uint64(n_legal)]
            count, _ = play_turn(
                boxes, count, owner, splits, choice, flags, no_log, parts, member, origin_y, counts, stable
            )
            stable = True
            splits += 1
            total += 1
            for part in range(5):
                score += parts[part]
        lengths[game] = splits
        scores[game] = score
    return total


@kernel
def move_index(boxes, owner, splits, x, y, w, h):
    """The list index of the splittable box whose top-left cell is (x, y) (and size w x h, when
    w >= 0), or -1."""
    if x < 0 or y < 0 or x >= WIDTH or y >= HEIGHT:
        return -1
    index = owner[y, x]
    if index < 0 or boxes[index, X] != x or boxes[index, Y] != y:
        return -1
    if w >= 0 and (w != boxes[index, W] or h != boxes[index, H]):
        return -1
    if not can_split(boxes, index, splits):
        return -1
    return index


@kernel
def replay(boxes, count, splits, flags, indices, moves, by_index, scores_after):
    """Play a line from a packed position in place. With ``by_index`` each move is
    ``indices[i]`` (a box-list index) and the box split is written to ``moves[i]`` (x, y, w, h);
    otherwise each move is ``moves[i]`` (w and h -1 when not given) and its index is written to
    ``indices[i]``. ``scores_after[i]`` gets the score gained up to that split. Stops at the first
    move that is not a legal split; returns (moves played, count)."""
    owner = np.full((HEIGHT, WIDTH), -1, np.int16)
    build_owner(boxes, count, owner)
    parts = np.zeros(5, np.int64)
    no_log = np.zeros((0, LOG_WIDTH), np.int32)
    member = np.zeros(MAX_BOXES, np.int8)
    origin_y = np.empty(MAX_BOXES, np.int32)
    counts = np.empty(WIDTH, np.int32)
    score = 0
    for move in range(indices.shape[0]):
        if by_index:
            index = indices[move]
            if index < 0 or index >= count or not can_split(boxes, index, splits):
                return move, count
            for field in range(4):
                moves[move, field] = boxes[index, field]
        else:
            index = move_index(
                boxes, owner, splits, moves[move, 0], moves[move, 1], moves[move, 2], moves[move, 3]
            )
            if index < 0:
                return move, count
            indices[move] = index
        stable = move > 0  # the start position may hold a box over a void
        count, _ = play_turn(boxes, count, owner, splits, index, flags, no_log, parts, member, origin_y, counts, stable)
        splits += 1
        for part in range(5):
            score += parts[part]
        scores_after[move] = score
    return indices.shape[0], count
