"""Expectimax over the nibble bitboard (spec 3.2), compiled by numba.

A chance node averages over every empty cell a 2 (p 0.9) and a 4 (p 0.1), each followed by the
player's best slide; a chance node less likely than ``threshold`` or at the depth limit gets the
heuristic instead. Chance nodes are remembered in a transposition table (direct-mapped, always
replace) with the depth still to search; a hit counts when it was searched at least as deep,
however likely its node was, as in nneonneo's program. The table starts afresh for every decision.
A node's probability is worked out in float32, as nneonneo's program does (and the cut-off is the
float32 nearest it), so that the two programs cut the very same nodes: in float64, a node a hair
either side of the cut-off changes a subtree.

Each root slide's subtree is searched by one thread, in a table of that thread's own, and its keys
are salted with a number of its own, so it sees a table of its own, as each of nneonneo's top-level
moves does: no slide's values depend on another's search, nor on the threads. Most of the work is
at the horizon: :func:`horizon_chance` scores a node whose spawns all lie there by re-sliding only
the line each spawn changes.

The table is one flat array, two 64-bit words a slot (16 bytes: 2^20 slots in 16 MB, which the
processor's last cache holds far better than 32 MB), so finding a slot is a shift rather than a
multiplication by the array's stride. A slot's first word is its entry: the value as a float32
(nneonneo's program keeps float32 values too), 27 check bits of the key and the depth (5 bits);
one word, so no thread can see half of an entry. The key is the board XOR a salt drawn for each
root slide of each decision, so the table is never cleared; with the 20 bits of the slot's index,
47 bits tell one key from another. The second word: the last horizon value computed for a board
of that slot, a float32 with 32 check bits of the board. A horizon node's value depends on its
board alone, so it is reused by any root slide and any later decision that meets the board at the
horizon (a quarter of a decision's horizon nodes are met more than once); it is rounded to float32
when computed, so a remembered value is the very value a fresh one would be. The table is far
larger than the processor's first caches, so the slots a node will ask for are prefetched a step
ahead: the next spawn's replies, and the first spawn's replies of each reply that will be
searched deeper (whose slides are kept for when it is).
"""

from __future__ import annotations

import numpy as np

from engines.g2048.kernel import empty_count, transpose
from engines.jit import (FAST_BIT_DEPOSIT, deposit_bits, fetch_add, inline_kernel, kernel, prefetch,
                         single_bits, single_from_bits, trailing_zeros)

ROW_MASK = np.uint64(0xFFFF)
HASH_MULTIPLIER = np.uint64(0x9E3779B97F4A7C15)

#: counters[...] indices
EVALUATIONS = 0
TABLE_HITS = 1


@kernel
def board_heuristic(board, heuristic):
    """The heuristic of a board: its 4 rows and its 4 columns looked up in the row table."""
    columns = transpose(board)
    total = 0.0
    for r in range(4):
        shift = np.uint64(16 * r)
        total += heuristic[(board >> shift) & ROW_MASK]
        total += heuristic[(columns >> shift) & ROW_MASK]
    return total


@kernel
def distinct_tiles(board):
    seen = 0
    while board:
        seen |= 1 << np.int64(board & np.uint64(0xF))
        board >>= np.uint64(4)
    seen >>= 1
    count = 0
    while seen:
        count += seen & 1
        seen >>= 1
    return count


@kernel
def adaptive_depth(board):
    """nneonneo's depth limit: max(3, distinct tile values - 2) player moves below the root."""
    return max(3, distinct_tiles(board) - 2)


MAX_LEVELS = 32
NIBBLE_LOW_BITS = np.uint64(0x1111111111111111)


@kernel
def _empty_cells(board):
    """Bit 4 i set where cell i of ``board`` is empty."""
    folded = board | (board >> np.uint64(2))
    folded |= folded >> np.uint64(1)
    return ~folded & NIBBLE_LOW_BITS


@kernel
def _next_empty(board, cell):
    """The first empty cell of ``board`` after ``cell`` (-1: the first of all), 16 when there is
    none: found without a loop, whose ending the processor could not foresee."""
    half = np.uint64(2 * (cell + 1))  # the 4 (cell + 1) bits below in two shifts: one of 64 is undefined
    below = ((np.uint64(1) << half) << half) - np.uint64(1)
    return trailing_zeros(_empty_cells(board) & ~below) >> 2


@kernel
def _four_slides(board, left, right):
    """The slides of ``board`` up, right, down and left; the columns are transposed once for
    both vertical slides."""
    columns = transpose(board)
    up = np.uint64(0)
    down = np.uint64(0)
    to_left = np.uint64(0)
    to_right = np.uint64(0)
    for r in range(4):
        shift = np.uint64(16 * r)
        row = (board >> shift) & ROW_MASK
        column = (columns >> shift) & ROW_MASK
        to_left |= np.uint64(left[row]) << shift
        to_right |= np.uint64(right[row]) << shift
        up |= np.uint64(left[column]) << shift
        down |= np.uint64(right[column]) << shift
    return transpose(up), to_right, transpose(down), to_left


@kernel
def _all_slides(board, left, right, out):
    """The four slides of ``board`` (up, right, down, left) into ``out``."""
    out[0], out[1], out[2], out[3] = _four_slides(board, left, right)


@kernel
def _replies(board, left, right, out):
    """The four slides of ``board`` in the order the search tries them: up, down, left, right.
    The order decides which of two paths to one node stores it in the table first, and so the
    values; it is nneonneo's order, so both programs search the same tree."""
    up, to_right, down, to_left = _four_slides(board, left, right)
    out[0] = up
    out[1] = down
    out[2] = to_left
    out[3] = to_right


@kernel
def _table_index(board, shift):
    return ((board ^ (board >> np.uint64(31))) * HASH_MULTIPLIER) >> shift


#: Words of a table slot: the entry, then the horizon value.
SLOT_WORDS = 2
#: An entry's low 32 bits: the check (bits 5-31) and the depth still searched (bits 0-4; a search
#: is at most MAX_LEVELS - 2 = 30 moves deep). The value is in the high 32 bits.
DEPTH_BITS = np.uint64(0x1F)
CHECK_BITS = np.uint64(0xFFFFFFE0)
LOW_HALF = np.uint64(0xFFFFFFFF)
#: Another odd multiplier than the index's, so the check bits are not the index's over again.
CHECK_MULTIPLIER = np.uint64(0xC2B2AE3D27D4EB4F)


@kernel
def _entry_check(key):
    return ((key * CHECK_MULTIPLIER) >> np.uint64(32)) & CHECK_BITS


@kernel
def _probe(table, index, key, depth_left):
    """(hit, value) of the entry at ``index`` for ``key``: a hit was searched at least
    ``depth_left`` moves deep. A zeroed slot holds depth 0, which no search asks for."""
    entry = table[SLOT_WORDS * index]
    if entry & CHECK_BITS != _entry_check(key) or entry & DEPTH_BITS < np.uint64(depth_left):
        return False, 0.0
    return True, single_from_bits(entry >> np.uint64(32))


@kernel
def _store(table, index, key, depth_left, value):
    """The value is kept as the float32 nearest it."""
    table[SLOT_WORDS * index] = (single_bits(value) << np.uint64(32)) | _entry_check(key) | np.uint64(depth_left)


@kernel
def _board_check(board):
    """32 bits of ``board`` (never 0, which a zeroed slot holds)."""
    return ((board * CHECK_MULTIPLIER) >> np.uint64(32)) | np.uint64(1)


@kernel
def _recall_horizon(table, index, board):
    """(known, value) of the horizon value kept at ``index`` beside the entry: a horizon node's
    value is its board's alone (not its depth's, nor its root slide's), so it serves any search
    that meets that board at the horizon again, in any root slide or decision."""
    word = table[SLOT_WORDS * index + 1]
    if word & LOW_HALF != _board_check(board):
        return False, 0.0
    return True, single_from_bits(word >> np.uint64(32))


@kernel
def _remember_horizon(table, index, board, value):
    table[SLOT_WORDS * index + 1] = (single_bits(value) << np.uint64(32)) | _board_check(board)


@kernel
def as_single(value):
    """``value`` rounded to the float32 nearest it, as a table keeps it and nneonneo's program
    works out probabilities. A float32 product or quotient of float32s is the float64 one rounded
    so: the float64 one is exact (a product) or close enough that rounding twice changes nothing
    (a quotient: 53 bits >= 2 x 24 + 2)."""
    return single_from_bits(single_bits(value))


#: The chances of a 2 and of a 4, as float32 (as nneonneo's program weighs a node's probability).
TWO_CHANCE = float(np.float32(0.9))
FOUR_CHANCE = float(np.float32(0.1))


@kernel
def _spawn_chance(probability, board):
    """The probability of the first spawn (a 2) of a node of ``probability`` on ``board``: below
    the cut-off, every child of the node lies beyond the horizon."""
    return as_single(as_single(probability / empty_count(board)) * TWO_CHANCE)


@kernel
def _line_sum(lines, heuristic):
    """The heuristic of the four 16-bit lines of ``lines``, summed in float64: a few of the table's
    float32 values add up exactly there, so any order of summing gives the same bits."""
    return (np.float64(heuristic[lines & ROW_MASK]) + np.float64(heuristic[(lines >> np.uint64(16)) & ROW_MASK])
            + np.float64(heuristic[(lines >> np.uint64(32)) & ROW_MASK])
            + np.float64(heuristic[lines >> np.uint64(48)]))


@inline_kernel
def best_leaf(board, left, right, heuristic):
    """The heuristic of the best slide of ``board`` (0 when nothing moves): the player's move at
    the search's horizon. Up and down are slid and scored in the transposed board, so each slide
    is transposed only once."""
    columns = transpose(board)
    to_left = np.uint64(0)
    to_right = np.uint64(0)
    up = np.uint64(0)
    down = np.uint64(0)
    for r in range(4):
        shift = np.uint64(16 * r)
        row = (board >> shift) & ROW_MASK
        column = (columns >> shift) & ROW_MASK
        to_left |= np.uint64(left[row]) << shift
        to_right |= np.uint64(right[row]) << shift
        up |= np.uint64(left[column]) << shift
        down |= np.uint64(right[column]) << shift
    # All four scored without a branch, so their lookups overlap; one that moves nothing counts 0.
    value_left = _line_sum(to_left, heuristic) + _line_sum(transpose(to_left), heuristic)
    value_right = _line_sum(to_right, heuristic) + _line_sum(transpose(to_right), heuristic)
    value_up = _line_sum(up, heuristic) + _line_sum(transpose(up), heuristic)
    value_down = _line_sum(down, heuristic) + _line_sum(transpose(down), heuristic)
    return max(max(max(value_left if to_left != board else 0.0, value_right if to_right != board else 0.0),
                   max(value_up if up != columns else 0.0, value_down if down != columns else 0.0)), 0.0)


COLUMN_NIBBLES = np.uint64(0x000F000F000F000F)


if FAST_BIT_DEPOSIT:
    @kernel
    def _spread(line):
        """A 16-bit line's four nibbles moved to bits 0, 16, 32 and 48: a row written down a
        column of the transposed board (or a column along a row). One instruction, where the
        processor has a quick one: it is done for every slide of every horizon spawn."""
        return deposit_bits(np.uint64(line), COLUMN_NIBBLES)
else:
    @kernel
    def _spread(line):
        """A 16-bit line's four nibbles moved to bits 0, 16, 32 and 48: a row written down a
        column of the transposed board (or a column along a row)."""
        x = np.uint64(line)
        return (x | (x << np.uint64(12)) | (x << np.uint64(24)) | (x << np.uint64(36))) & COLUMN_NIBBLES


@kernel
def _reslid(slide_index, line, along, table, heuristic, slid, slid_values):
    """The heuristic of slide ``slide_index`` of a horizon node's board after a spawn put into
    ``line`` (its row or column ``along``), from the node's slid lines (see :func:`horizon_chance`);
    0 when the slide moves nothing."""
    after = np.uint64(table[line])
    others_moved = slid[slide_index, 5] & ~(np.uint64(1) << np.uint64(along))
    along_total = slid_values[slide_index, 4] - slid_values[slide_index, along] + np.float64(heuristic[after])
    crossing = slid[slide_index, 4] ^ (_spread(slid[slide_index, along] ^ after) << np.uint64(4 * along))
    value = along_total + _line_sum(crossing, heuristic)
    return value if (after != line) | (others_moved != 0) else 0.0


@inline_kernel
def horizon_chance(board, left, right, heuristic, slid, slid_values):
    """The expected value of a chance node all of whose spawns lie at the horizon: the average
    over its spawns of :func:`best_leaf`, to the last bit, found faster.

    A spawn changes one row and one column of ``board``. So each slide of ``board`` is worked out
    once (slides 0, 1: left, right along the rows; 2, 3: up, down along the columns, as left and
    right of the transposed board) with its slid lines and their values; a spawn then re-slides
    only its own line, and patches that line's change into the crossing lines, which are scored
    afresh. ``slid`` (uint64, 4 x 6) and ``slid_values`` (float64, 4 x 5) are the caller's scratch."""
    columns = transpose(board)
    for slide_index in range(4):
        lines = board if slide_index < 2 else columns
        table = left if slide_index % 2 == 0 else right
        result = np.uint64(0)
        moved = np.uint64(0)
        total = 0.0
        for index in range(4):
            shift = np.uint64(16 * index)
            line = (lines >> shift) & ROW_MASK
            after = np.uint64(table[line])
            slid[slide_index, index] = after
            value = heuristic[after]
            slid_values[slide_index, index] = value
            total += value
            result |= after << shift
            if after != line:
                moved |= np.uint64(1) << np.uint64(index)
        slid[slide_index, 4] = transpose(result)
        slid[slide_index, 5] = moved
        slid_values[slide_index, 4] = total
    expected = 0.0
    empties = 0
    # The empty cells one after another, each in one step (see _next_empty).
    unspawned = _empty_cells(board)
    while unspawned != 0:
        cell = trailing_zeros(unspawned) >> 2
        unspawned &= unspawned - np.uint64(1)
        empties += 1
        row = cell >> 2
        column = cell & 3
        row_line = (board >> np.uint64(16 * row)) & ROW_MASK
        column_line = (columns >> np.uint64(16 * column)) & ROW_MASK
        # The four slides written out, each without a branch, so the processor overlaps their
        # table lookups; a slide that moves nothing counts 0, which the best (from 0) ignores.
        for tile in range(1, 3):
            along_row = row_line | np.uint64(tile << (4 * column))
            along_column = column_line | np.uint64(tile << (4 * row))
            best = max(max(_reslid(0, along_row, row, left, heuristic, slid, slid_values),
                           _reslid(1, along_row, row, right, heuristic, slid, slid_values)),
                       max(_reslid(2, along_column, column, left, heuristic, slid, slid_values),
                           _reslid(3, along_column, column, right, heuristic, slid, slid_values)))
            expected += (0.9 if tile == 1 else 0.1) * max(best, 0.0)
    return expected / empties


@kernel
def new_frames():
    """Scratch space for :func:`chance_value`: a frame per chance node on the current path, which
    keeps the node while a child of it is searched (its board, depth still to search, probability
    of each spawn cell, number of empty cells, running sum, the spawn being tried: cell and tile,
    the best reply value so far and the replies still to try, a bit each), and, per level, the
    spawn's four slides, the next spawn's board with its four slides, worked out ahead, and each
    reply's first spawn with its four slides (worked out for the prefetch, kept for when that
    reply is searched deeper); then a horizon node's slides. A thread makes it once and reuses it
    for all its items."""
    return (np.zeros(MAX_LEVELS, np.uint64), np.zeros(MAX_LEVELS, np.int64), np.zeros(MAX_LEVELS, np.float64),
            np.zeros(MAX_LEVELS, np.int64), np.zeros(MAX_LEVELS, np.float64), np.zeros(MAX_LEVELS, np.int64),
            np.zeros(MAX_LEVELS, np.int64), np.zeros(MAX_LEVELS, np.float64), np.zeros(MAX_LEVELS, np.uint64),
            np.zeros((MAX_LEVELS, 4), np.uint64), np.zeros((MAX_LEVELS, 4), np.uint64), np.zeros(MAX_LEVELS, np.uint64),
            np.zeros((MAX_LEVELS, 4, 4), np.uint64), np.zeros((MAX_LEVELS, 4), np.uint64),
            np.zeros((4, 6), np.uint64), np.zeros((4, 5), np.float64))


@kernel
def chance_value(board, depth_left, probability, threshold, left, right, heuristic, table, salt, shift, frames,
                 counters):
    """Expected value of ``board`` before its spawn, ``depth_left`` player moves still to search.

    Depth first with an explicit stack of frames rather than recursion: numba's calls would pass
    and reference-count every table each time. The node being searched lives in local variables;
    its frame keeps it only while a child of it is searched, so a spawn whose replies all lie in
    the table or at the horizon (most do) is tried, its replies scored and its value added in one
    pass. A spawn whose children lie beyond the horizon (too unlikely, or the last move) is scored
    at once by :func:`best_leaf`. ``frames`` is scratch from :func:`new_frames`."""
    if probability < threshold or depth_left <= 0:
        return board_heuristic(board, heuristic)
    hit, value = _probe(table, _table_index(board, shift), board ^ salt, depth_left)
    if hit:
        counters[TABLE_HITS] += 1
        return value
    (boards, depth, cell_probability, empties, totals, cells, spawns, bests, pending, slides, ahead, ahead_spawned,
     grand, grand_spawned, slid, slid_values) = frames

    level = 0
    node = board
    node_depth = depth_left
    node_empties = empty_count(board)
    node_probability = as_single(probability / node_empties)
    total = 0.0
    cell = -1
    spawn = 1  # 0: a 2 on ``cell``, 1: a 4; the first step goes on to a 2 on the first empty cell
    best = 0.0
    remaining = np.uint64(0)
    # Set when a child's value has come back into the middle of its spawn's replies.
    resumed = False
    # Counted here and written once at the end: an array's count in memory would chain every step.
    evaluations = 0
    hits = 0
    while True:
        if not resumed:
            # The next spawn: a 4 on the same cell after a 2, else a 2 on the next empty cell.
            if spawn == 0:
                spawn = 1
            else:
                spawn = 0
                cell = _next_empty(node, cell)
                if cell == 16:
                    # Every spawn tried: the node's value goes to its parent.
                    value = total / node_empties
                    _store(table, _table_index(node, shift), node ^ salt, node_depth, value)
                    if level == 0:
                        counters[EVALUATIONS] += evaluations
                        counters[TABLE_HITS] += hits
                        return value
                    level -= 1
                    node = boards[level]
                    node_depth = depth[level]
                    node_empties = empties[level]
                    node_probability = cell_probability[level]
                    total = totals[level]
                    cell = cells[level]
                    spawn = spawns[level]
                    best = max(bests[level], value)
                    remaining = pending[level]
                    resumed = True
                    continue
            tile_probability = TWO_CHANCE if spawn == 0 else FOUR_CHANCE
            spawned = node | (np.uint64(spawn + 1) << np.uint64(4 * cell))
            if node_depth <= 1 or as_single(node_probability * tile_probability) < threshold:
                evaluations += 4
                total += (0.9 if spawn == 0 else 0.1) * best_leaf(spawned, left, right, heuristic)
                continue
            if ahead_spawned[level] == spawned:
                for direction in range(4):
                    slides[level, direction] = ahead[level, direction]
            else:
                _replies(spawned, left, right, slides[level])
                for direction in range(4):
                    prefetch(table, SLOT_WORDS * _table_index(slides[level, direction], shift))
            if node_depth > 2:
                # A reply searched deeper will first try a 2 on its first empty cell: those replies'
                # table slots are asked for right after, too soon for a prefetch made then.
                child_probability = as_single(node_probability * tile_probability)
                for direction in range(4):
                    reply = slides[level, direction]
                    grand_spawned[level, direction] = 0
                    if reply == spawned or _spawn_chance(child_probability, reply) < threshold:
                        continue
                    first = reply | (np.uint64(1) << np.uint64(4 * _next_empty(reply, -1)))
                    grand_spawned[level, direction] = first
                    _replies(first, left, right, grand[level, direction])
                    for grandchild in range(4):
                        prefetch(table, SLOT_WORDS * _table_index(grand[level, direction, grandchild], shift))
            # The spawn searched after this one, slid now so that its table slots load while this
            # spawn's replies are searched: a 4 here if it is likely enough, else a 2 on the next
            # empty cell (as likely as this spawn, so searched too).
            following = np.uint64(0)
            if spawn == 0 and as_single(node_probability * FOUR_CHANCE) >= threshold:
                following = node | (np.uint64(2) << np.uint64(4 * cell))
            else:
                next_cell = _next_empty(node, cell)
                if next_cell < 16:
                    following = node | (np.uint64(1) << np.uint64(4 * next_cell))
            if following != 0:
                _replies(following, left, right, ahead[level])
                for direction in range(4):
                    prefetch(table, SLOT_WORDS * _table_index(ahead[level, direction], shift))
            ahead_spawned[level] = following
            best = 0.0
            evaluations += 4
            remaining = np.uint64(0)
            for direction in range(4):
                remaining |= np.uint64(slides[level, direction] != spawned) << np.uint64(direction)
        resumed = False
        # The replies that move something, in order, each found in one step; their values are at
        # hand (in the table, or a horizon node's) but for a reply to search deeper, which leaves
        # this spawn for its own node.
        child_depth = node_depth - 1
        child_probability = as_single(node_probability * (TWO_CHANCE if spawn == 0 else FOUR_CHANCE))
        deeper = np.uint64(0)
        deeper_direction = 0
        while remaining != 0:
            direction = trailing_zeros(remaining)
            remaining &= remaining - np.uint64(1)
            after = slides[level, direction]
            index = _table_index(after, shift)
            hit, value = _probe(table, index, after ^ salt, child_depth)
            if hit:
                hits += 1
            elif child_depth <= 1 or _spawn_chance(child_probability, after) < threshold:
                # Counted as searched even when remembered, so the count is the search's own,
                # whatever the slot held.
                evaluations += 8 * empty_count(after)
                known, value = _recall_horizon(table, index, after)
                if not known:
                    # Rounded as the table keeps it, so a value found there later is this one.
                    value = as_single(horizon_chance(after, left, right, heuristic, slid, slid_values))
                    _remember_horizon(table, index, after, value)
                _store(table, index, after ^ salt, child_depth, value)
            else:
                deeper = after
                deeper_direction = direction
                break
            best = max(best, value)
        if deeper == 0:
            total += (0.9 if spawn == 0 else 0.1) * best
            continue
        boards[level] = node
        depth[level] = node_depth
        empties[level] = node_empties
        cell_probability[level] = node_probability
        totals[level] = total
        cells[level] = cell
        spawns[level] = spawn
        bests[level] = best
        pending[level] = remaining
        # Its first spawn's replies were slid (and their slots prefetched) with this spawn's.
        for direction in range(4):
            ahead[level + 1, direction] = grand[level, deeper_direction, direction]
        ahead_spawned[level + 1] = grand_spawned[level, deeper_direction]
        level += 1
        node = deeper
        node_depth = child_depth
        node_empties = empty_count(deeper)
        node_probability = as_single(child_probability / node_empties)
        total = 0.0
        cell = -1
        spawn = 1


@kernel
def root_items(board, left, right, items, item_spawn, spawn_probability, spawn_chance, spawn_direction, counters):
    """The work items of a decision: for every legal slide of ``board``, every spawn after it
    and every legal reply to that spawn, the board after the reply (a chance node two moves deep).
    ``item_spawn`` gives each item's spawn, and ``spawn_probability`` and ``spawn_direction`` each
    spawn's probability (the tile's over the empty cells) and root slide; ``spawn_chance`` its
    probability in float32, as the search weighs it against the cut-off. Items follow the slides,
    the cells, the 2 before the 4, then the replies: neighbouring items share most of their
    subtrees, so the table entries they need are still in the cache. Items are small (a few
    hundred per decision), so the threads run out of work at nearly the same time. Returns the
    numbers of items and of spawns; the arrays need MAX_ITEMS and MAX_SPAWNS places."""
    slides = np.zeros(4, np.uint64)
    replies = np.zeros(4, np.uint64)
    _all_slides(board, left, right, slides)
    counters[EVALUATIONS] += 4
    count = 0
    spawns = 0
    for slide_direction in range(4):
        after = slides[slide_direction]
        if after == board:
            continue
        empties = empty_count(after)
        for cell in range(16):
            shift = np.uint64(4 * cell)
            if (after >> shift) & np.uint64(0xF) != 0:
                continue
            for tile in range(1, 3):
                spawned = after | (np.uint64(tile) << shift)
                spawn_probability[spawns] = (0.9 if tile == 1 else 0.1) / empties
                spawn_chance[spawns] = as_single(as_single(1.0 / empties) * (TWO_CHANCE if tile == 1 else FOUR_CHANCE))
                spawn_direction[spawns] = slide_direction
                _replies(spawned, left, right, replies)
                counters[EVALUATIONS] += 4
                for reply in range(4):
                    if replies[reply] != spawned:
                        items[count] = replies[reply]
                        item_spawn[count] = spawns
                        count += 1
                spawns += 1
    return count, spawns


@kernel
def slide_order(item_spawn, spawn_direction, count, order):
    """The root slides that have items, most items first, into ``order``; returns how many. A
    thread takes a whole slide at a time, so handing out the largest first keeps the threads busy
    to nearly the same end."""
    sizes = np.zeros(4, np.int64)
    for item in range(count):
        sizes[spawn_direction[item_spawn[item]]] += 1
    slides = 0
    for _ in range(4):
        largest = -1
        for direction in range(4):
            if sizes[direction] > 0 and (largest < 0 or sizes[direction] > sizes[largest]):
                largest = direction
        if largest < 0:
            break
        order[slides] = largest
        slides += 1
        sizes[largest] = 0
    return slides


@kernel
def item_values(items, item_spawn, spawn_chance, spawn_direction, count, order, slides, depth_left, values,
                next_slide, threshold, left, right, heuristic, table, salts, shift, counters):
    """Each thread of a decision runs this with a table of its own: it takes root slide after
    root slide (``order[:slides]``) from the shared counter ``next_slide`` and writes the value of
    each of the slide's items, searched ``depth_left`` moves deep and in turn, into ``values``.

    A slide's search finds in the table only what it stored itself (its own salt), and nothing it
    stored is overwritten but by itself, so each slide's values are the same whichever thread
    searched it and whatever that thread searched before: as many threads as wanted, the values of
    one thread to the last bit."""
    frames = new_frames()
    while True:
        taken = fetch_add(next_slide, 0, 1)
        if taken >= slides:
            return
        direction = order[taken]
        salt = salts[direction]
        for item in range(count):
            spawn = item_spawn[item]
            if spawn_direction[spawn] != direction:
                continue
            values[item] = chance_value(items[item], depth_left, spawn_chance[spawn], threshold, left, right,
                                        heuristic, table, salt, shift, frames, counters)


@kernel
def root_values(values, item_spawn, count, spawn_probability, spawn_direction, spawns):
    """The expected value of each root slide (up, right, down, left) from its items' values: a
    spawn is worth its best reply (0 when none moves), a slide the spawns' probability-weighted
    sum. A slide that moves nothing gets -1; a tiny bonus keeps a legal slide above 0, the value
    of a dead end."""
    best = np.zeros(spawns)
    for item in range(count):
        spawn = item_spawn[item]
        if values[item] > best[spawn]:
            best[spawn] = values[item]
    result = np.full(4, -1.0)
    for spawn in range(spawns):
        direction = spawn_direction[spawn]
        if result[direction] < 0.0:
            result[direction] = 0.0
        result[direction] += spawn_probability[spawn] * best[spawn]
    for direction in range(4):
        if result[direction] >= 0.0:
            result[direction] += 1e-6
    return result
