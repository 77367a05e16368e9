"""numba kernels of the SPL-T advisors: the reference weights (spec 3.2-3.3) and the searches built
on them (greedy, weighted random, ParanoidPlay, spec 3.6).

The weights are bit-identical to ``advisors.splt.weights`` (the plain-Python path): the same terms
in the same floating-point order, so exact ties break the same way. The searches keep their whole
state in numpy arrays (see ``advisors.splt.search``), so a search can stop after any game, be saved
to disk and go on later.

These kernels call the engine's jitted turn. numba's cache checks only this file's date, so a stale
cache after an edit of ``engines/splt/kernel.py`` is prevented by ``ENGINE_KERNEL_SHA256``: a test
fails until it is updated, and updating it touches this file.
"""

from __future__ import annotations

import math

import numpy as np

from engines.jit import kernel
from engines.splt.kernel import (
    HEIGHT,
    LOG_WIDTH,
    MAX_BOXES,
    P,
    W,
    H,
    X,
    Y,
    build_owner,
    can_split,
    is_over,
    next_random,
    paint,
    split_and_check,
    turn,
)

ENGINE_KERNEL_SHA256 = "a859549a8cf1311e54123c0a932aca90a2632a0c12a1dfb0babffe8a92cae151"

MAX_STACK = HEIGHT + 1  # a point-block stack never holds more entries than rows
MAX_LINE = 4096  # splits in one game (the theoretical ceiling is about 3,700)

# --- search state: scalars in one int64 array -----------------------------------------------
S_COUNT = 0  # boxes on the current board
S_SPLITS = 1
S_SCORE = 2
S_TOP = 3  # entries on the branch stack
S_GAMES = 4  # finished games
S_BEST_SPLITS = 5
S_BEST_SCORE = 6
S_CLOSE_CALLS = 7  # close calls met (for "every other")
S_EXPLORING_FROM = 8  # lowest split count popped since the last opening
S_PENDING = 9  # 1: the next move uses the popped weights in ``pending``
S_FOLLOWING = 10  # 1: the first game still follows the forced line
S_OPENING_END = 11  # split count where the current opening ends
S_RESTART_FROM = 12  # split count the current game restarted from
S_OPENINGS = 13  # times the search began at the base position (the first start included)
S_BEST_GAME = 14  # the game number that found the best
S_DONE = 15  # 1: nothing is left to explore
S_ROUND_BEST = 16  # the longest game since the last opening
S_ROUND_STALE = 17  # games since the last opening's best last improved
SCALARS = 20

# --- search parameters: one int64 array and one float64 array ----------------------------------
K_OPENING = 0  # weighted-random moves after the base (a huge value: the weighted-random player)
K_RESEED_BELOW = 1  # pop at or below this split count: new opening (0: never)
K_CLOSE_AFTER = 2  # close calls only when the split number exceeds this
K_CLOSE_EVERY = 3  # record every n-th close call (0: never, 1: all, 2: every other)
K_TRIGGER = 4  # big-cluster trigger: 0 off, 1 "the last box is a point block bigger than 1x1"
#                 (the reference's test), 2 "the split made point blocks bigger than 1x1"
K_BASE_SPLITS = 5  # the fixed part of the line ends here
K_FORCED_END = 6  # the first game follows ``forced`` up to this split count
K_STOP_WHEN_EMPTY = 7  # 1: an empty stack ends the search instead of a new opening
K_FLAGS = 8  # engine rule flags
K_BASE_COUNT = 9  # boxes of the base position (``base_boxes``)
K_BASE_SCORE = 10
K_STALE_GAMES = 11  # a new opening after this many games without a longer game since the last (0: never)
PARAMETERS = 12
F_CLOSE_LOW = 0
F_CLOSE_HIGH = 1
FLOATS = 4

TRIGGER_OFF = 0
TRIGGER_LAST_BOX = 1
TRIGGER_CLUSTER = 2

# Why a search slice returned.
RAN_GAMES = 0  # played the games asked for
NEW_BEST = 1  # a game beat the best (the caller saves it before going on)
STACK_FULL = 2  # the branch stack needs more room
EXHAUSTED = 3  # nothing left to explore (greedy, or an empty stack with K_STOP_WHEN_EMPTY)


# --- spec 3.2: quantities per board -------------------------------------------------------------


@kernel
def board_facts(boxes, count, until_fall, stack_len, stacks, lowest_in_band):
    """Fill S, P (``stacks[i, :stack_len[i]]``) and the lowest plain box per 2-wide band; return
    (horizontal capacity, vertical capacity, about to lose)."""
    horizontal = 0
    vertical = 0
    for band in range(4):
        lowest_in_band[band] = 0
    for index in range(count):
        if boxes[index, P] == 0:
            horizontal += boxes[index, H] - 1
            vertical += boxes[index, W] - 1
            band = boxes[index, X] // 2
            if boxes[index, Y] // 2 > lowest_in_band[band]:
                lowest_in_band[band] = boxes[index, Y] // 2
    # Supports lie strictly lower, so going by decreasing bottom edge does them first.
    for bottom in range(HEIGHT, 0, -1):
        for index in range(count):
            if boxes[index, Y] + boxes[index, H] != bottom:
                continue
            points = boxes[index, P]
            if bottom == HEIGHT:
                until_fall[index] = points
                stacks[index, 0] = points
                stack_len[index] = 1
                continue
            most = 0
            source = -1
            left = boxes[index, X]
            right = left + boxes[index, W]
            for support in range(count):  # list order
                if boxes[support, Y] != bottom:
                    continue
                if boxes[support, X] >= right or boxes[support, X] + boxes[support, W] <= left:
                    continue
                if until_fall[support] == 0:
                    most = 0
                    break
                if until_fall[support] > most:
                    most = until_fall[support]
                    source = support
            length = 0
            if source >= 0:
                length = stack_len[source]
                for entry in range(length):
                    stacks[index, entry] = stacks[source, entry]
            if points > 0 and most > 0:
                until_fall[index] = min(points, most)
                if points > most:
                    present = False
                    for entry in range(length):
                        if stacks[index, entry] == points:
                            present = True
                    if not present:
                        stacks[index, length] = points
                        length += 1
            else:
                until_fall[index] = most
            stack_len[index] = length
    lowest = 1 << 30
    for index in range(count):
        if until_fall[index] < lowest:
            lowest = until_fall[index]
    about_to_lose = count > 0 and horizontal + vertical < lowest
    return horizontal, vertical, about_to_lose


@kernel
def cluster_of_split(boxes, count, owner, index, splits, flags, member):
    """Mark in ``member`` the boxes that splitting ``index`` now would convert (the new half is
    ``count``); the board is left as it was. Returns how many."""
    w = boxes[index, W]
    h = boxes[index, H]
    second = count
    for box in range(count + 1):
        member[box] = 0
    split_and_check(boxes, owner, index, second, splits, flags, member)
    paint(owner, boxes, second, index)
    boxes[index, W] = w
    boxes[index, H] = h
    found = 0
    for box in range(count + 1):
        found += member[box]
    return found


@kernel
def quadratic(s):
    return ((-0.2 * (s * s)) + 1.6 * s) + 13


@kernel
def logistic(turns):
    return 29.53 / (1 + 0.1518 * math.exp(1.14 * turns)) + 20


@kernel
def compute_weights(boxes, count, owner, splits, flags, weights):
    """Every box's normalised weight (spec 3.3; 0 for boxes that cannot split), bit-identical to
    ``advisors.splt.weights.weights``. ``owner`` must describe ``boxes``; it and ``boxes[:count]`` are
    left as found (row ``count`` is used as scratch for the new half)."""
    if splits == 0:
        for index in range(count):
            weights[index] = 1.0 if can_split(boxes, index, splits) else 0.0
        return
    until_fall = np.zeros(MAX_BOXES, np.int64)
    stack_len = np.zeros(MAX_BOXES, np.int64)
    stacks = np.zeros((MAX_BOXES, MAX_STACK), np.int64)
    lowest_in_band = np.zeros(4, np.int64)
    member = np.zeros(MAX_BOXES + 1, np.int8)
    horizontal, vertical, about_to_lose = board_facts(boxes, count, until_fall, stack_len, stacks, lowest_in_band)
    total_capacity = horizontal + vertical
    imbalance = horizontal - vertical
    magnitude = abs(imbalance)
    n = splits
    horizontal_turn = splits % 2 == 0
    lowest = np.inf
    for index in range(count):
        if not can_split(boxes, index, splits):
            weights[index] = 0.0
            if lowest > 0.0:
                lowest = 0.0
            continue
        x = boxes[index, X]
        y = boxes[index, Y]
        w = boxes[index, W]
        h = boxes[index, H]
        s = until_fall[index]
        length = stack_len[index]
        members = cluster_of_split(boxes, count, owner, index, splits, flags, member)
        cluster = members > 0
        if horizontal_turn:
            half_w = w
            half_h = h // 2
        else:
            half_w = w // 2
            half_h = h
        weight = 0.0

        # 1. Imbalance (only without a cluster).
        if not cluster:
            added = w - 1 if horizontal_turn else h - 1
            linear_side = imbalance <= 0 if horizontal_turn else imbalance >= 0
            value = 0.0
            if imbalance != 0:
                if linear_side:
                    value = ((-15 / 7) * added) * ((4 * magnitude) / total_capacity)
                else:
                    p = added / magnitude
                    value = ((-12.5 * (p * p)) + 27.5 * p) * ((4 * magnitude) / total_capacity)
                if horizontal_turn and about_to_lose:
                    value = value * 100
            weight = weight + value

        # 2. Aspect ratio.
        before = max(w, h) / min(w, h)
        after = max(half_w, half_h) / min(half_w, half_h)
        jump = after - before
        if jump > 1:
            if jump >= 4:
                weight = weight + -20.0
            elif jump >= 2:
                weight = weight + (-15.0 if n > 450 else -10.0)

        # 3. Point-block timing.
        if s != 0 and length > 0:
            k = length - 1
            top = stacks[index, length - 1]
            diff = (n + 1) - (top - 1)
            value = 0.0
            if cluster:
                if diff >= 2**k:
                    value = logistic(math.ceil(s / 2))
                    if diff < 2 ** (k + 1):
                        value = value * 0.85
            else:
                if (diff >= 2**k or s <= 5) and 2 < s < 13:
                    value = quadratic(s)
                if s <= 2 and length > 1:
                    smallest = stacks[index, 1]
                    for entry in range(2, length):
                        if stacks[index, entry] < smallest:
                            smallest = stacks[index, entry]
                    t = math.ceil((smallest - s) / 2)
                    if 2 < t < 13:
                        value = value + quadratic(s)
            if n > 300 and y // 2 < lowest_in_band[x // 2]:
                value = value * 0.5
            weight = weight + value

        # 4. Old stack.
        if n > 800 and length > 0:
            weight = weight + 9 * ((n - stacks[index, length - 1]) / n)

        # 5. Height; 6. cluster size; 7. off-grid cluster.
        if cluster:
            deepest = 0
            top_edge = HEIGHT
            left_edge = 8
            lowest_corner = 0
            rightmost_corner = 0
            for box in range(count):  # the new half (``count``) is left out
                if member[box] == 0:
                    continue
                bx = boxes[box, X]
                by = boxes[box, Y]
                if by + boxes[box, H] > deepest:
                    deepest = by + boxes[box, H]
                if by < top_edge:
                    top_edge = by
                if bx < left_edge:
                    left_edge = bx
                if by > lowest_corner:
                    lowest_corner = by
                if bx > rightmost_corner:
                    rightmost_corner = bx
            weight = weight + 20 * (deepest / 16) ** 2
            cells = ((w * h) / 2) * members
            if cells > 4:
                weight = weight + (-60 * (cells / total_capacity)) * (n / 200)
            bottom_edge = lowest_corner + half_h
            right_edge = rightmost_corner + half_w
            penalty = 0
            if top_edge % 2 or bottom_edge % 2:
                penalty -= 50
            if left_edge % 2 or right_edge % 2:
                penalty -= 50
            if penalty:
                weight = weight + float(penalty)
        else:
            weight = weight + 10 * ((y + h) / 16) ** 2

        # 8. Wide blocks.
        if horizontal_turn and h > 2 and w > 2:
            weight = weight + -5.0
        elif not horizontal_turn and w > 2:
            weight = weight + 5.0

        # 9. The "triple edge case".
        if not horizontal_turn and w == 2 and h == 1:
            tall = False
            short = False
            for other in range(count):
                if boxes[other, Y] == y + 1 and boxes[other, W] == 1 and (
                    boxes[other, X] == x or boxes[other, X] == x + 1
                ):
                    if boxes[other, H] == 1:
                        short = True
                    elif boxes[other, H] == 2:
                        tall = True
            if tall and short:
                weight = weight + -1.0
        weights[index] = weight
        if weight < lowest:
            lowest = weight
    # Normalisation: the minimum includes the zeros of boxes that cannot split.
    if count > 0 and lowest <= 0:
        for index in range(count):
            if can_split(boxes, index, splits):
                weights[index] = (weights[index] + (-lowest)) + 0.01


# --- spec 3.6: players and ParanoidPlay -----------------------------------------------------------


@kernel
def random_unit(rng):
    """A uniform float in [0, 1) from the caller's xorshift state."""
    return float(next_random(rng) >> np.uint64(11)) * (1.0 / 9007199254740992.0)


@kernel
def choose_weighted(weights, count, rng):
    """A box index drawn with probability proportional to its weight."""
    total = 0.0
    for index in range(count):
        total += weights[index]
    target = random_unit(rng) * total
    reached = 0.0
    last = -1
    for index in range(count):
        if weights[index] > 0.0:
            reached += weights[index]
            last = index
            if target < reached:
                return index
    return last


@kernel
def deduplicate(weights, count, out):
    """Copy ``weights`` with every value equal to an earlier one set to 0 (prunes symmetric
    choices)."""
    for index in range(count):
        out[index] = weights[index]
        if weights[index] == 0.0:
            continue
        for earlier in range(index):
            if weights[earlier] == weights[index]:
                out[index] = 0.0
                break


@kernel
def best_other_than(weights, count, excluded):
    """The index of the highest weight other than ``excluded`` (lowest index on ties), or -1."""
    best = -1
    for index in range(count):
        if index == excluded:
            continue
        if best < 0 or weights[index] > weights[best]:
            best = index
    return best


@kernel
def start_opening(params, state, boxes, base_boxes):
    """Put the board back to the base position and begin a new opening (the stack is dropped)."""
    base_count = params[K_BASE_COUNT]
    base_splits = params[K_BASE_SPLITS]
    for row in range(base_count):
        for field in range(5):
            boxes[row, field] = base_boxes[row, field]
    state[S_COUNT] = base_count
    state[S_SPLITS] = base_splits
    state[S_SCORE] = params[K_BASE_SCORE]
    state[S_TOP] = 0
    state[S_PENDING] = 0
    state[S_FOLLOWING] = 0
    state[S_OPENING_END] = base_splits + params[K_OPENING]
    state[S_EXPLORING_FROM] = MAX_LINE
    state[S_RESTART_FROM] = base_splits
    state[S_OPENINGS] += 1
    state[S_ROUND_BEST] = 0
    state[S_ROUND_STALE] = 0


@kernel
def search(
    params, floats, state, rng, boxes, pending, line, best_line,
    base_boxes, forced, stack_boxes, stack_meta, stack_weights, max_games,
):
    """Play until ``max_games`` more games have finished, a game beats the best, the branch stack
    is full or nothing is left to explore; return which (RAN_GAMES, NEW_BEST, STACK_FULL,
    EXHAUSTED). Everything the search needs to go on is in the arrays, so a later call continues
    exactly where this one stopped."""
    if state[S_DONE] == 1:
        return EXHAUSTED
    flags = params[K_FLAGS]
    base_splits = params[K_BASE_SPLITS]
    reseed_below = params[K_RESEED_BELOW]
    if reseed_below > 0 and reseed_below < base_splits:
        reseed_below = base_splits
    count = state[S_COUNT]
    splits = state[S_SPLITS]
    score = state[S_SCORE]
    owner = np.full((HEIGHT, 8), -1, np.int16)
    build_owner(boxes, count, owner)
    weights = np.zeros(MAX_BOXES, np.float64)
    choice = np.zeros(MAX_BOXES, np.float64)
    member = np.zeros(MAX_BOXES + 1, np.int8)
    saved = np.zeros((MAX_BOXES, 5), np.int32)
    parts = np.zeros(5, np.int64)
    no_log = np.zeros((0, LOG_WIDTH), np.int32)
    finished = 0
    status = RAN_GAMES
    while True:
        # A game that reaches the end of ``line`` is treated as over (no real game gets near it).
        if splits < line.shape[0] - 1 and not is_over(boxes, count, splits):
            if splits < state[S_OPENING_END] and state[S_FOLLOWING] == 0:
                # Weighted-random opening: no branch points.
                compute_weights(boxes, count, owner, splits, flags, weights)
                played = choose_weighted(weights, count, rng)
                count, _ = turn(boxes, count, owner, splits, played, flags, no_log, parts)
            else:
                if state[S_TOP] >= stack_meta.shape[0]:
                    status = STACK_FULL
                    break
                if state[S_PENDING] == 1:
                    for index in range(count):
                        choice[index] = pending[index]
                    state[S_PENDING] = 0
                else:
                    compute_weights(boxes, count, owner, splits, flags, weights)
                    deduplicate(weights, count, choice)
                best = best_other_than(choice, count, -1)
                second = best_other_than(choice, count, best)
                diff = 100.0 if count == 1 else choice[best] - choice[second]
                played = best
                if state[S_FOLLOWING] == 1:
                    if splits < params[K_FORCED_END]:
                        played = forced[splits]
                    else:
                        state[S_FOLLOWING] = 0
                alternative = best_other_than(choice, count, played)
                branch = alternative >= 0 and choice[alternative] != 0.0
                direct_big = False
                if branch and params[K_TRIGGER] == TRIGGER_CLUSTER:
                    if cluster_of_split(boxes, count, owner, played, splits, flags, member) > 0:
                        direct_big = boxes[played, W] * boxes[played, H] > 2
                if branch:
                    for row in range(count):
                        for field in range(5):
                            saved[row, field] = boxes[row, field]
                before_count = count
                before_score = score
                count, _ = turn(boxes, count, owner, splits, played, flags, no_log, parts)
                fired = False
                if branch:
                    if params[K_TRIGGER] == TRIGGER_LAST_BOX:
                        last = count - 1
                        fired = boxes[last, P] != 0 and not (boxes[last, W] == 1 and boxes[last, H] == 1)
                    elif params[K_TRIGGER] == TRIGGER_CLUSTER:
                        fired = direct_big
                    every = params[K_CLOSE_EVERY]
                    if every > 0 and floats[F_CLOSE_LOW] < diff < floats[F_CLOSE_HIGH]:
                        if splits + 1 > params[K_CLOSE_AFTER]:
                            state[S_CLOSE_CALLS] += 1
                            if (state[S_CLOSE_CALLS] - 1) % every == 0:
                                fired = True
                if fired:
                    top = state[S_TOP]
                    for row in range(before_count):
                        for field in range(5):
                            stack_boxes[top, row, field] = saved[row, field]
                        stack_weights[top, row] = choice[row]
                    stack_weights[top, alternative] = max(choice[played], choice[alternative])
                    stack_weights[top, played] = 0.0
                    stack_meta[top, 0] = before_count
                    stack_meta[top, 1] = splits
                    stack_meta[top, 2] = before_score
                    state[S_TOP] = top + 1
            line[splits] = played
            splits += 1
            for part in range(5):
                score += parts[part]
            continue

        # Game over.
        state[S_GAMES] += 1
        finished += 1
        state[S_FOLLOWING] = 0
        if splits > state[S_BEST_SPLITS]:
            state[S_BEST_SPLITS] = splits
            state[S_BEST_SCORE] = score
            state[S_BEST_GAME] = state[S_GAMES]
            for move in range(splits):
                best_line[move] = line[move]
            status = NEW_BEST
        if splits > state[S_ROUND_BEST]:
            state[S_ROUND_BEST] = splits
            state[S_ROUND_STALE] = 0
        else:
            state[S_ROUND_STALE] += 1
        stale = params[K_STALE_GAMES] > 0 and state[S_ROUND_STALE] >= params[K_STALE_GAMES]
        if state[S_TOP] == 0 or stale:
            if params[K_STOP_WHEN_EMPTY] == 1 and not stale:
                state[S_DONE] = 1
                if status != NEW_BEST:
                    status = EXHAUSTED
                break
            start_opening(params, state, boxes, base_boxes)
        else:
            top = state[S_TOP] - 1
            state[S_TOP] = top
            popped_splits = stack_meta[top, 1]
            if reseed_below > 0 and popped_splits <= reseed_below:
                start_opening(params, state, boxes, base_boxes)
            else:
                popped_count = stack_meta[top, 0]
                for row in range(popped_count):
                    for field in range(5):
                        boxes[row, field] = stack_boxes[top, row, field]
                    pending[row] = stack_weights[top, row]
                state[S_COUNT] = popped_count
                state[S_SPLITS] = popped_splits
                state[S_SCORE] = stack_meta[top, 2]
                state[S_PENDING] = 1
                state[S_RESTART_FROM] = popped_splits
                if popped_splits < state[S_EXPLORING_FROM]:
                    state[S_EXPLORING_FROM] = popped_splits
        count = state[S_COUNT]
        splits = state[S_SPLITS]
        score = state[S_SCORE]
        build_owner(boxes, count, owner)
        if status == NEW_BEST or finished >= max_games:
            return status
    state[S_COUNT] = count
    state[S_SPLITS] = splits
    state[S_SCORE] = score
    return status
