"""The numba HATETRIS rules: legality, resting positions, locking, the enemy AI and whole replays.

A well is an int64 array of ``depth`` rows, top row first; bit x of a row is column x (least
significant bit = leftmost column, as in the official code). The buffer above the bar is rows
0..3. Widths and depths other than 10 x 20 serve the small-well searches of the spec (3.10).

The AI's memory of seen wells is a hash table: ``table`` (power-of-two int64 slots holding an entry
number + 1, 0 for empty), and per entry its rows (``entry_wells``), hash and count. Every function
here is jitted and they call only each other, so numba's cache stays valid.
"""

from __future__ import annotations

import numpy as np

from engines.hatetris.pieces import BOXES, ROW_MASKS
from engines.jit import kernel

BAR = 4
PIECE_COUNT = 7
KEY_LEFT, KEY_RIGHT, KEY_DOWN, KEY_UP = 0, 1, 2, 3
X_OFFSET = 3  # x runs from -3 (the box hanging out on the left) upwards
MAX_RESTING = 512  # resting positions of one piece; a 10-wide well has at most 34 per row

_ROW_MASKS = np.ascontiguousarray(ROW_MASKS)
_BOXES = np.ascontiguousarray(BOXES)

# The packed search keeps every (x, o) of one box row in one int64: orientation o in the 16 bits
# from 16 * o, x + X_OFFSET in those. Wells up to PACKED_WIDTH wide leave bit 15 of each lane
# empty, so shifts by one never carry a position from one orientation into the next.
LANE = 16
LANE_BITS = (1 << LANE) - 1
PACKED_WIDTH = 12
LANE_COPIES = 1 | 1 << 16 | 1 << 32 | 1 << 48  # a lane value times this fills all four lanes
LOW_LANES = (1 << 48) - 1


def _signed(value: int) -> int:
    value &= (1 << 64) - 1
    return value - (1 << 64) if value >= 1 << 63 else value


def _cell_lanes() -> np.ndarray:
    """CELL_LANES[piece, cy, cx] = all bits except the lanes whose orientation has cell (cx, cy):
    OR-ing it into a shifted free-cells value leaves the other orientations unconstrained."""
    table = np.zeros((PIECE_COUNT, 4, 4), dtype=np.int64)
    for piece in range(PIECE_COUNT):
        for cy in range(4):
            for cx in range(4):
                lanes = sum(LANE_BITS << (LANE * o) for o in range(4) if ROW_MASKS[piece, o, cy] >> cx & 1)
                table[piece, cy, cx] = _signed(~lanes)
    return table


def _twins() -> np.ndarray:
    """TWINS[piece, o] = (o2, dx, dy): orientation o at (x, y) covers the same cells as o2 at
    (x + dx, y + dy), a position met before it (dy <= 0, and o2 < o on the same row); o2 = -1
    when there is none. Two placements with the same cells leave the same well."""
    table = np.full((PIECE_COUNT, 4, 3), -1, dtype=np.int64)
    for piece in range(PIECE_COUNT):
        for o in range(4):
            cells = {(cx, cy) for cy in range(4) for cx in range(4) if ROW_MASKS[piece, o, cy] >> cx & 1}
            for other in range(4):
                if other == o:
                    continue
                others = {(cx, cy) for cy in range(4) for cx in range(4) if ROW_MASKS[piece, other, cy] >> cx & 1}
                dx = min(c[0] for c in cells) - min(c[0] for c in others)
                dy = min(c[1] for c in cells) - min(c[1] for c in others)
                if {(cx - dx, cy - dy) for cx, cy in cells} != others:
                    continue
                if dy < 0 or (dy == 0 and other < o):
                    table[piece, o] = (other, dx, dy)
                    break
    assert set(table[:, :, 2].ravel()) <= {-1, 0}  # children_of_well looks one row back at most
    return table


def _bit_index_table() -> np.ndarray:
    table = np.zeros(64, dtype=np.int64)
    for index in range(63):
        table[((DE_BRUIJN * (1 << index)) & ((1 << 64) - 1)) >> 58] = index
    return table


def _lanes_by_count() -> np.ndarray:
    """LANES_BY_COUNT[piece, cy, k] = the lanes whose orientation has k cells in box row cy: a
    resting position there completes a row with k empty cells exactly when k matches (none for
    k = 0, a row that cannot be completed)."""
    table = np.zeros((PIECE_COUNT, 4, 5), dtype=np.int64)
    for piece in range(PIECE_COUNT):
        for cy in range(4):
            for cells in range(1, 5):  # 0: the row cannot be completed
                table[piece, cy, cells] = _signed(sum(LANE_BITS << (LANE * o) for o in range(4)
                                                      if bin(int(ROW_MASKS[piece, o, cy])).count("1") == cells))
    return table


DE_BRUIJN = 0x03F79D71B4CB0A89  # every 6-bit window of it differs: a power of two times it has a unique top 6 bits
_CELL_LANES = _cell_lanes()
_TWINS = _twins()
_BIT_INDEX = _bit_index_table()
_LANES_BY_COUNT = _lanes_by_count()


@kernel
def moved(x, y, o, key):
    """The position after a key press (L, R and D move the box, U turns it clockwise)."""
    if key == KEY_LEFT:
        return x - 1, y, o
    if key == KEY_RIGHT:
        return x + 1, y, o
    if key == KEY_DOWN:
        return x, y + 1, o
    return x, y, (o + 1) % 4


@kernel
def spawn_x(width):
    return (width - 4) // 2


@kernel
def fits(well, width, depth, piece, x, y, o):
    """Whether the piece's cells are inside the well and on empty cells."""
    x_min = _BOXES[piece, o, 0]
    y_min = _BOXES[piece, o, 1]
    if x + x_min < 0 or x + x_min + _BOXES[piece, o, 2] > width:
        return False
    if y + y_min < 0 or y + y_min + _BOXES[piece, o, 3] > depth:
        return False
    for cy in range(y_min, y_min + _BOXES[piece, o, 3]):
        mask = _ROW_MASKS[piece, o, cy]
        shifted = mask << x if x >= 0 else mask >> -x
        if well[y + cy] & shifted:
            return False
    return True


@kernel
def state_index(width, x, y, o):
    return ((y * (width + X_OFFSET)) + (x + X_OFFSET)) * 4 + o


@kernel
def resting_positions_bfs(well, width, depth, piece, out):
    """Every position (x, y, o) reachable from spawn where Down is blocked, in search order: the
    plain state-by-state search that :func:`resting_positions` must agree with.

    Breadth-first over (x, y, o) with the keys L, R, D, U, starting from the spawn dropped through
    the empty rows below it (the set of resting positions is the same as from the spawn itself).
    Writes rows (x, y, o) into ``out`` and returns how many.
    """
    states = depth * (width + X_OFFSET) * 4
    seen = np.zeros(states, dtype=np.bool_)
    queue = np.empty((states, 3), dtype=np.int64)
    x = spawn_x(width)
    y = 0
    while y + 4 < depth and well[y + 4] == 0:
        y += 1
    head = 0
    tail = 1
    queue[0, 0] = x
    queue[0, 1] = y
    queue[0, 2] = 0
    seen[state_index(width, x, y, 0)] = True
    found = 0
    while head < tail:
        x = queue[head, 0]
        y = queue[head, 1]
        o = queue[head, 2]
        head += 1
        for key in range(4):
            nx, ny, no = moved(x, y, o, key)
            if not fits(well, width, depth, piece, nx, ny, no):
                if key == KEY_DOWN:
                    out[found, 0] = x
                    out[found, 1] = y
                    out[found, 2] = o
                    found += 1
                continue
            index = state_index(width, nx, ny, no)
            if not seen[index]:
                seen[index] = True
                queue[tail, 0] = nx
                queue[tail, 1] = ny
                queue[tail, 2] = no
                tail += 1
    return found


@kernel
def lock(well, width, depth, piece, x, y, o, out):
    """Lock the piece at (x, y, o) into a copy of ``well`` in ``out``; clear full rows when the
    piece's top is at or below the bar. Returns the lines cleared, or -1 when the game ends."""
    out[:] = well[:]
    y_min = _BOXES[piece, o, 1]
    y_dim = _BOXES[piece, o, 3]
    for cy in range(y_min, y_min + y_dim):
        mask = _ROW_MASKS[piece, o, cy]
        out[y + cy] |= mask << x if x >= 0 else mask >> -x
    lines = 0
    if y + y_min >= BAR:
        full = (1 << width) - 1
        for row in range(y + y_min, y + y_min + y_dim):
            if out[row] == full:
                for above in range(row, 0, -1):
                    out[above] = out[above - 1]
                out[0] = 0
                lines += 1
    if out[BAR - 1] != 0:
        return -1
    return lines


@kernel
def top_row(well, depth):
    """The index of the first non-empty row, ``depth`` for an empty well (the AI's rating)."""
    for row in range(depth):
        if well[row] != 0:
            return row
    return depth


@kernel
def rating_after(well, width, depth, piece, x, y, o, first_filled):
    """The AI's rating (first non-empty row after line clears) of locking the piece at (x, y, o),
    without building the well; ``first_filled`` is the well's own first non-empty row."""
    y_min = _BOXES[piece, o, 1]
    y_dim = _BOXES[piece, o, 3]
    top = y + y_min
    full = (1 << width) - 1
    cleared = 0  # bit (row - top) set for a cleared row
    if top >= BAR:
        for cy in range(y_min, y_min + y_dim):
            mask = _ROW_MASKS[piece, o, cy]
            if (well[y + cy] | (mask << x if x >= 0 else mask >> -x)) == full:
                cleared |= 1 << (y + cy - top)
    start = top if top < first_filled else first_filled
    for row in range(start, depth):
        if row >= top and row < top + y_dim:
            if cleared >> (row - top) & 1:
                continue
            # a piece row that is not cleared is non-empty
            below = 0
            for other in range(row + 1, top + y_dim):
                if cleared >> (other - top) & 1:
                    below += 1
            return row + below
        if well[row] != 0:
            below = 0
            for other in range(top, top + y_dim):
                if other > row and cleared >> (other - top) & 1:
                    below += 1
            return row + below
    return depth


@kernel
def well_hash(well, depth):
    """A non-zero 64-bit hash of the rows (FNV-1a over the row values)."""
    value = np.int64(-3750763034362895579)
    for row in range(depth):
        value = (value ^ well[row]) * np.int64(1099511628211)
    if value == 0:
        value = 1
    return value


@kernel
def memory_find(table, entry_wells, entry_hashes, well, depth, hashed):
    """The entry number of ``well`` in the memory, or -1."""
    mask = table.shape[0] - 1
    slot = hashed & mask
    while table[slot] != 0:
        entry = table[slot] - 1
        if entry_hashes[entry] == hashed:
            same = True
            for row in range(depth):
                if entry_wells[entry, row] != well[row]:
                    same = False
                    break
            if same:
                return entry
        slot = (slot + 1) & mask
    return -1


@kernel
def memory_count(table, entry_wells, entry_hashes, entry_counts, well, depth):
    entry = memory_find(table, entry_wells, entry_hashes, well, depth, well_hash(well, depth))
    return 0 if entry < 0 else entry_counts[entry]


@kernel
def memory_add(table, entry_wells, entry_hashes, entry_counts, entries, well, depth):
    """Count one more visit of ``well``; returns the new number of entries. The caller keeps
    the table at most half full and ``entry_wells`` long enough."""
    hashed = well_hash(well, depth)
    entry = memory_find(table, entry_wells, entry_hashes, well, depth, hashed)
    if entry >= 0:
        entry_counts[entry] += 1
        return entries
    mask = table.shape[0] - 1
    slot = hashed & mask
    while table[slot] != 0:
        slot = (slot + 1) & mask
    table[slot] = entries + 1
    entry_wells[entries, :depth] = well[:depth]
    entry_hashes[entries] = hashed
    entry_counts[entries] = 1
    return entries + 1


@kernel
def choose_piece(well, width, depth, mild, table, entry_wells, entry_hashes, entry_counts, peaks, loops):
    """The enemy AI: the piece to send for ``well`` (spec 1.6).

    ``peaks[p]`` is the best rating (highest first non-empty row) piece p can reach, ``loops[p]``
    the most times any of its futures has been seen (0 under Mild). The choice is the piece with
    the fewest loops, then the lowest peak, then the earliest in S Z O I L J T.
    """
    remembers = False  # whether any seen well could be a future (else no well need be built)
    if not mild:
        for slot in range(table.shape[0]):
            if table[slot] != 0:
                remembers = True
                break
    if width <= PACKED_WIDTH and not remembers:  # the packed search rates without building wells
        loops[:] = 0
        return _peaks(well, width, depth, well_scratch(depth), peaks, False)[0]
    first_filled = top_row(well, depth)
    best = -1
    for piece in range(PIECE_COUNT):
        seen_most = 0
        positions = np.empty((MAX_RESTING, 3), dtype=np.int64)
        future = np.empty(depth, dtype=np.int64)
        found = resting_positions(well, width, depth, piece, positions)
        peak = -1
        for index in range(found):
            if remembers:
                lock(well, width, depth, piece, positions[index, 0], positions[index, 1], positions[index, 2],
                     future)
                rating = top_row(future, depth)
                count = memory_count(table, entry_wells, entry_hashes, entry_counts, future, depth)
                if count > seen_most:
                    seen_most = count
            else:
                rating = rating_after(well, width, depth, piece, positions[index, 0], positions[index, 1],
                                      positions[index, 2], first_filled)
            if rating > peak:
                peak = rating
        peaks[piece] = peak
        loops[piece] = seen_most
        if best < 0 or ai_prefers(seen_most, peak, loops[best], peaks[best]):
            best = piece
    return best


@kernel
def ai_prefers(loops, peak, best_loops, best_peak):
    """Whether the AI sends a piece with these (loops, peak) rather than the best so far, an
    earlier piece in S Z O I L J T order: fewer times seen first, then the lower peak."""
    return loops < best_loops or (loops == best_loops and peak < best_peak)


@kernel
def memory_capacity(entries):
    capacity = 16
    while capacity < 2 * entries + 2:
        capacity *= 2
    return capacity


@kernel
def replay_keys(keys, width, depth, mild, placements, pieces_sent, peaks_log, loops_log, well_out):
    """Play a key sequence (0 L, 1 R, 2 D, 3 U) from the empty well, as the official game does.

    Writes per locked piece its (piece, x, y, o, lines) into ``placements``; per spawn the piece
    and the AI's peaks and loops; the final well into ``well_out``. Keys after game over are
    ignored. Returns (keys used, pieces spawned, pieces locked, score, game over, live x, live y,
    live o).
    ``placements`` and the logs need len(keys) + 2 rows.
    """
    capacity = memory_capacity(keys.shape[0] + 2)
    table = np.zeros(capacity, dtype=np.int64)
    entry_wells = np.zeros((keys.shape[0] + 2, depth), dtype=np.int64)
    entry_hashes = np.zeros(keys.shape[0] + 2, dtype=np.int64)
    entry_counts = np.zeros(keys.shape[0] + 2, dtype=np.int64)
    well = np.zeros(depth, dtype=np.int64)
    after = np.zeros(depth, dtype=np.int64)
    entries = memory_add(table, entry_wells, entry_hashes, entry_counts, 0, well, depth)
    piece = choose_piece(well, width, depth, mild, table, entry_wells, entry_hashes, entry_counts,
                         peaks_log[0], loops_log[0])
    pieces_sent[0] = piece
    spawned = 1
    locked = 0
    score = 0
    over = False
    x = spawn_x(width)
    y = 0
    o = 0
    used = 0
    for key in keys:
        if over:
            break
        used += 1
        nx, ny, no = moved(x, y, o, key)
        if fits(well, width, depth, piece, nx, ny, no):
            x, y, o = nx, ny, no
            continue
        if key != KEY_DOWN:
            continue
        lines = lock(well, width, depth, piece, x, y, o, after)
        placements[locked, 0] = piece
        placements[locked, 1] = x
        placements[locked, 2] = y
        placements[locked, 3] = o
        placements[locked, 4] = lines
        locked += 1
        well[:] = after[:]
        if lines < 0:
            over = True
            break
        score += lines
        entries = memory_add(table, entry_wells, entry_hashes, entry_counts, entries, well, depth)
        piece = choose_piece(well, width, depth, mild, table, entry_wells, entry_hashes, entry_counts,
                             peaks_log[spawned], loops_log[spawned])
        pieces_sent[spawned] = piece
        spawned += 1
        x = spawn_x(width)
        y = 0
        o = 0
    well_out[:depth] = well[:depth]
    return used, spawned, locked, score, over, x, y, o


@kernel
def key_path(well, width, depth, piece, target_x, target_y, target_o, out):
    """The shortest key sequence from spawn that ends by locking at the target, preferring
    Up, Left, Right, Down on ties; written into ``out``, returns its length (-1: unreachable)."""
    states = depth * (width + X_OFFSET) * 4
    parent = np.full(states, -1, dtype=np.int64)
    parent_key = np.zeros(states, dtype=np.int64)
    queue = np.empty(states, dtype=np.int64)
    order = np.array([KEY_UP, KEY_LEFT, KEY_RIGHT, KEY_DOWN])
    x0 = spawn_x(width)
    start = state_index(width, x0, 0, 0)
    target = state_index(width, target_x, target_y, target_o)
    if fits(well, width, depth, piece, target_x, target_y + 1, target_o):
        return -1
    parent[start] = start
    queue[0] = start
    head = 0
    tail = 1
    row_states = (width + X_OFFSET) * 4
    while head < tail and parent[target] < 0:
        index = queue[head]
        head += 1
        y = index // row_states
        x = (index % row_states) // 4 - X_OFFSET
        o = index % 4
        for key in order:
            nx, ny, no = moved(x, y, o, key)
            if not fits(well, width, depth, piece, nx, ny, no):
                continue
            next_index = state_index(width, nx, ny, no)
            if parent[next_index] < 0:
                parent[next_index] = index
                parent_key[next_index] = key
                queue[tail] = next_index
                tail += 1
    if parent[target] < 0:
        return -1
    length = 0
    index = target
    while index != start:
        length += 1
        index = parent[index]
    index = target
    position = length - 1
    while index != start:
        out[position] = parent_key[index]
        index = parent[index]
        position -= 1
    out[length] = KEY_DOWN
    return length + 1


@kernel
def memory_from_wells(wells, depth, table, entry_wells, entry_hashes, entry_counts):
    """Fill an empty memory with one visit per row of ``wells``; returns the number of entries."""
    entries = 0
    for index in range(wells.shape[0]):
        entries = memory_add(table, entry_wells, entry_hashes, entry_counts, entries, wells[index], depth)
    return entries


@kernel
def _fit_masks(well, width, depth, piece, y, out):
    """For box row y: out[o] = bits xi (x = xi - 3) where the piece in orientation o fits."""
    full = (1 << width) - 1
    for o in range(4):
        allowed = np.int64((1 << (width + X_OFFSET)) - 1)
        for cy in range(4):
            mask = _ROW_MASKS[piece, o, cy]
            if mask == 0:
                continue
            row = y + cy
            if row < 0 or row >= depth:
                allowed = 0
                break
            free = (~well[row] & full) << X_OFFSET
            for cx in range(4):
                if mask >> cx & 1:
                    allowed &= free >> cx
        out[o] = allowed


@kernel
def lowest_bit(value):
    """The index of the lowest set bit of a non-zero ``value``."""
    index = 0
    while not (value >> index) & 1:
        index += 1
    return index


@kernel
def _spawn_row(well, width, depth, piece, fit, reach):
    """Set up the row-at-a-time search: the spawn dropped through the empty rows below it (it
    reaches the same positions as from the top). Fills ``fit`` and ``reach`` for that row and
    returns it."""
    start = 0
    while start + 4 < depth and well[start + 4] == 0:
        start += 1
    _fit_masks(well, width, depth, piece, start, fit)
    reach[0] = (np.int64(1) << (spawn_x(width) + X_OFFSET)) & fit[0]
    return start


@kernel
def _close_row(reach, fit):
    """Grow the reachable (x, o) masks of one row under left, right and rotate."""
    changed = True
    while changed:
        changed = False
        for o in range(4):
            grown = (reach[o] | (reach[o] << 1) | (reach[o] >> 1) | reach[(o + 3) % 4]) & fit[o]
            if grown != reach[o]:
                reach[o] = grown
                changed = True


@kernel
def _resting_positions_lanes(well, width, depth, piece, out):
    """:func:`resting_positions` for wells wider than PACKED_WIDTH: one bit mask per orientation,
    closed under left, right and rotate a row at a time (the waveform technique of spec 3.8)."""
    fit = np.empty(4, dtype=np.int64)
    below = np.empty(4, dtype=np.int64)
    reach = np.zeros(4, dtype=np.int64)
    start = _spawn_row(well, width, depth, piece, fit, reach)
    found = 0
    for y in range(start, depth):
        _close_row(reach, fit)
        _fit_masks(well, width, depth, piece, y + 1, below)
        any_left = False
        for o in range(4):
            resting = reach[o] & ~below[o]
            while resting:
                low = resting & -resting
                out[found, 0] = lowest_bit(low) - X_OFFSET
                out[found, 1] = y
                out[found, 2] = o
                found += 1
                resting ^= low
            reach[o] &= below[o]
            if reach[o]:
                any_left = True
            fit[o] = below[o]
        if not any_left:
            break
    return found


@kernel
def free_lanes(well, width, depth, row):
    """The empty cells of ``row`` at bits x + X_OFFSET, copied into the four lanes (none below
    the floor)."""
    if row >= depth:
        return np.int64(0)
    return ((~well[row] & ((1 << width) - 1)) << X_OFFSET) * LANE_COPIES


@kernel
def _slide(reach, fit):
    """``reach`` grown left and right inside the runs of ``fit`` it touches (reach inside fit).
    Rightwards an addition carries through a run; leftwards a doubling fill (runs are at most
    15 bits)."""
    right = reach | (fit & ~(fit + reach))
    through = fit
    left = reach | (through & (reach >> 1))
    through &= through >> 1
    left |= through & (left >> 2)
    through &= through >> 2
    left |= through & (left >> 4)
    through &= through >> 4
    left |= through & (left >> 8)
    return right | left


@kernel
def _closure(reach, fit):
    """The packed positions reachable from ``reach`` by left, right and clockwise turns
    (orientation o to o + 1: lane o to lane o + 1) inside ``fit``."""
    reach = _slide(reach, fit)
    while True:
        turned = ((reach & LOW_LANES) << LANE | reach >> (3 * LANE)) & fit & ~reach
        if turned == 0:
            return reach
        reach = _slide(reach | turned, fit)


@kernel
def bit_index(low):
    """The index of the single set bit of ``low`` (a power of two below 2**63)."""
    return _BIT_INDEX[((low * DE_BRUIJN) >> 58) & 63]


@kernel
def resting_positions(well, width, depth, piece, out):
    """Every position (x, y, o) reachable from spawn where Down is blocked, found a row at a
    time: the reachable (x, o) of a row are bit masks closed under left, right and rotate, and
    only Down leads to the next row (the waveform technique of spec 3.8). Starts where the spawn
    drops to through empty rows, which reaches the same positions. Writes (x, y, o) rows into
    ``out`` in row order, then o, then x; returns how many."""
    if width > PACKED_WIDTH:
        return _resting_positions_lanes(well, width, depth, piece, out)
    lanes = _piece_lanes(piece)
    y = 0
    while y + 4 < depth and well[y + 4] == 0:
        y += 1
    # the free lanes of the box's four rows, moved down a row at a time
    free0 = free_lanes(well, width, depth, y)
    free1 = free_lanes(well, width, depth, y + 1)
    free2 = free_lanes(well, width, depth, y + 2)
    free3 = free_lanes(well, width, depth, y + 3)
    reach = _fit_of(free0, free1, free2, free3, lanes)
    if well[y] != 0 or well[y + 1] != 0 or well[y + 2] != 0 or well[y + 3] != 0:
        reach = _closure((np.int64(1) << (spawn_x(width) + X_OFFSET)) & reach, reach)
    # else the box turns at the spawn and slides to every fitting x
    found = 0
    while reach != 0:
        free4 = free_lanes(well, width, depth, y + 4)
        below = _fit_of(free1, free2, free3, free4, lanes)
        resting = reach & ~below
        reach &= below
        if reach != 0 and reach != below:  # most rows: every fitting position is reached from above
            reach = _closure(reach, below)
        free1, free2, free3 = free2, free3, free4
        while resting:
            low = resting & -resting
            index = bit_index(low)
            out[found, 0] = (index & (LANE - 1)) - X_OFFSET
            out[found, 1] = y
            out[found, 2] = index >> 4
            found += 1
            resting ^= low
        y += 1
    return found


# Rows of the per-well scratch of :func:`ai_piece` and :func:`children_of_well` (see
# :func:`well_scratch`): the free lanes of every row, the empty cells of every row a piece could
# complete (else 0), the peaks, and per piece the resting positions of every row.
FREE_ROW = 0
GAP_ROW = 1
PEAK_ROW = 2  # the pieces' peaks (bounds for the dropped ones)
REST_ROWS = 3


@kernel
def well_scratch(depth):
    """Scratch space for one well's search (reused from well to well: nothing is allocated per well)."""
    return np.zeros((REST_ROWS + PIECE_COUNT, depth + 5), dtype=np.int64)


@kernel
def _prepare_well(well, width, depth, scratch):
    """Fill the free lanes of every row (none below the floor) and the gaps of the rows one
    piece could complete (1 to 4 empty cells, at or below the bar). Returns the row the spawn
    drops to, whether the box's four rows there are empty, and the clearable rows as bits
    (only placements touching them can clear lines)."""
    full = (1 << width) - 1
    clearable = np.int64(0)
    for row in range(depth):
        scratch[FREE_ROW, row] = ((~well[row] & full) << X_OFFSET) * LANE_COPIES
        gap = ~well[row] & full
        cells = 0
        while gap and cells <= 4:
            gap &= gap - 1
            cells += 1
        if row < BAR or cells > 4:
            cells = 0
        scratch[GAP_ROW, row] = cells
        if cells:
            clearable |= np.int64(1) << row
    for row in range(depth, depth + 5):
        scratch[FREE_ROW, row] = 0
        scratch[GAP_ROW, row] = 0
    start = 0
    while start + 4 < depth and well[start + 4] == 0:
        start += 1
    empty = well[start] == 0 and well[start + 1] == 0 and well[start + 2] == 0 and well[start + 3] == 0
    return start, empty, clearable


@kernel
def _completing(scratch, piece, y):
    """The packed positions of box top ``y`` that complete a row if they rest there: a resting
    piece covers only empty cells, so it completes a row when its box row there has as many
    cells as the row has gaps."""
    return ((_LANES_BY_COUNT[piece, 0, scratch[GAP_ROW, y]] | _LANES_BY_COUNT[piece, 1, scratch[GAP_ROW, y + 1]])
            | (_LANES_BY_COUNT[piece, 2, scratch[GAP_ROW, y + 2]]
               | _LANES_BY_COUNT[piece, 3, scratch[GAP_ROW, y + 3]]))


@kernel
def _piece_lanes(piece):
    """The piece's CELL_LANES as one tuple, read once per piece."""
    return (_CELL_LANES[piece, 0, 0], _CELL_LANES[piece, 0, 1], _CELL_LANES[piece, 0, 2], _CELL_LANES[piece, 0, 3],
            _CELL_LANES[piece, 1, 0], _CELL_LANES[piece, 1, 1], _CELL_LANES[piece, 1, 2], _CELL_LANES[piece, 1, 3],
            _CELL_LANES[piece, 2, 0], _CELL_LANES[piece, 2, 1], _CELL_LANES[piece, 2, 2], _CELL_LANES[piece, 2, 3],
            _CELL_LANES[piece, 3, 0], _CELL_LANES[piece, 3, 1], _CELL_LANES[piece, 3, 2], _CELL_LANES[piece, 3, 3])


@kernel
def _fit_at(scratch, y, lanes):
    """The piece's packed fitting positions with its box top at ``y``, from the scratch's free lanes."""
    return _fit_of(scratch[FREE_ROW, y], scratch[FREE_ROW, y + 1], scratch[FREE_ROW, y + 2], scratch[FREE_ROW, y + 3],
                   lanes)


@kernel
def _fit_of(f0, f1, f2, f3, lanes):
    """The piece's packed fitting positions given the free lanes of its box's four rows and its
    cell lanes (from :func:`_piece_lanes`)."""
    return ((((f0 | lanes[0]) & ((f0 >> 1) | lanes[1])) & (((f0 >> 2) | lanes[2]) & ((f0 >> 3) | lanes[3])))
            & (((f1 | lanes[4]) & ((f1 >> 1) | lanes[5])) & (((f1 >> 2) | lanes[6]) & ((f1 >> 3) | lanes[7])))
            & (((f2 | lanes[8]) & ((f2 >> 1) | lanes[9])) & (((f2 >> 2) | lanes[10]) & ((f2 >> 3) | lanes[11])))
            & (((f3 | lanes[12]) & ((f3 >> 1) | lanes[13])) & (((f3 >> 2) | lanes[14]) & ((f3 >> 3) | lanes[15]))))


@kernel
def _peaks(well, width, depth, scratch, peaks, prune):
    """The AI's peak for every piece into ``peaks`` (with nothing remembered): the best rating
    (first non-empty row after clears) of its reachable resting placements, searched a row at a
    time; returns the piece with the lowest peak (the earliest on ties), the first row searched and
    the clearable rows (from :func:`_prepare_well`). With ``prune``, a piece is
    dropped as soon as it rates at least the best peak so far (its peak is then only a bound).
    The scratch (from :func:`well_scratch`) keeps each piece's resting positions row by row, the
    row after its last one set to -1 when it was searched to the end. A resting placement
    completes a row exactly when its box row there has as many cells as the row has gaps (it
    fits, so they are the gaps); the others rate in closed form: the piece's top row, or the
    well's first filled row when that is higher. Wells up to PACKED_WIDTH wide. The seven
    searches are one loop here (not a call per piece): it is the hot path of the AI."""
    first_filled = top_row(well, depth)
    start, empty, clearable = _prepare_well(well, width, depth, scratch)
    best = 0
    best_peak = depth + 1
    for piece in range(PIECE_COUNT):
        limit = best_peak if prune else depth + 1
        rests_row = REST_ROWS + piece
        lanes = _piece_lanes(piece)
        top0 = _BOXES[piece, 0, 1]
        top1 = _BOXES[piece, 1, 1]
        top2 = _BOXES[piece, 2, 1]
        top3 = _BOXES[piece, 3, 1]
        top_most = max(max(top0, top1), max(top2, top3))
        peak = -1
        searched = True
        y = start
        reach = _fit_at(scratch, start, lanes)
        if not empty:
            reach = _closure((np.int64(1) << (spawn_x(width) + X_OFFSET)) & reach, reach)
        # else the box turns at the spawn and slides to every fitting x
        while reach != 0:
            below = _fit_at(scratch, y + 1, lanes)
            resting = reach & ~below
            reach &= below
            if reach != 0 and reach != below:  # most rows: every fitting position is reached from above
                reach = _closure(reach, below)
            scratch[rests_row, y] = resting
            if resting != 0:
                if (clearable >> y) & 15:
                    # the resting positions completing box row 0, 1, 2, 3
                    row0 = _LANES_BY_COUNT[piece, 0, scratch[GAP_ROW, y]] & resting
                    row1 = _LANES_BY_COUNT[piece, 1, scratch[GAP_ROW, y + 1]] & resting
                    row2 = _LANES_BY_COUNT[piece, 2, scratch[GAP_ROW, y + 2]] & resting
                    row3 = _LANES_BY_COUNT[piece, 3, scratch[GAP_ROW, y + 3]] & resting
                    completing = (row0 | row1) | (row2 | row3)
                    resting ^= completing
                    while completing:
                        low = completing & -completing
                        completing ^= low
                        index = bit_index(low)
                        top = y + _BOXES[piece, index >> 4, 1]
                        if top < BAR:  # nothing clears above the bar
                            rating = top if top < first_filled else first_filled
                        elif top > first_filled:  # the first filled row survives, moved down by the lines
                            rating = first_filled + ((row0 & low) != 0) + ((row1 & low) != 0) + ((row2 & low) != 0) \
                                + ((row3 & low) != 0)
                        elif top < first_filled and width > 4:  # the piece's top row survives (an empty row before)
                            rating = top + ((row0 & low) != 0) + ((row1 & low) != 0) + ((row2 & low) != 0) \
                                + ((row3 & low) != 0)
                        else:
                            rating = rating_after(well, width, depth, piece, (index & (LANE - 1)) - X_OFFSET, y,
                                                  index >> 4, first_filled)
                        if rating > peak:
                            peak = rating
                if peak < first_filled and y + top_most > peak:  # else no placement without clears rates higher
                    top = -1
                    if resting & LANE_BITS:
                        top = top0
                    if (resting >> LANE) & LANE_BITS and top1 > top:
                        top = top1
                    if (resting >> (2 * LANE)) & LANE_BITS and top2 > top:
                        top = top2
                    if resting >> (3 * LANE) and top3 > top:
                        top = top3
                    if top >= 0:
                        rating = y + top
                        if rating > first_filled:
                            rating = first_filled
                        if rating > peak:
                            peak = rating
                if peak >= limit:
                    searched = False
                    break
            y += 1
        if searched:
            scratch[rests_row, y] = -1
        peaks[piece] = peak
        if peak < best_peak:
            best = piece
            best_peak = peak
    return best, start, clearable


@kernel
def ai_piece(well, width, depth, scratch):
    """The enemy AI's piece for ``well`` with nothing remembered (every piece's futures seen 0
    times): the lowest peak, the earliest piece on ties. Wells up to PACKED_WIDTH wide;
    ``scratch`` from :func:`well_scratch`, which then holds the chosen piece's resting positions
    row by row."""
    return _peaks(well, width, depth, scratch, scratch[PEAK_ROW], True)[0]


@kernel
def children_of_well(well, width, depth, scratch, children, lines):
    """The AI's piece for ``well`` (nothing remembered) and the distinct wells its reachable
    resting placements leave (placements that end the game excluded): written into
    ``children`` (rows) with the lines each cleared into ``lines``; returns (piece, count).
    Placements covering the same cells are skipped; two other placements can only leave the
    same well when both clear lines, so only those are compared. Wells up to PACKED_WIDTH
    wide; ``scratch`` from :func:`well_scratch`."""
    piece, y, clearable = _peaks(well, width, depth, scratch, scratch[PEAK_ROW], True)
    rests_row = REST_ROWS + piece
    count = 0
    previous = np.int64(0)  # the resting positions of the row above
    while scratch[rests_row, y] >= 0:
        resting = scratch[rests_row, y]
        kept = resting
        near = (clearable >> y) & 15
        completing = _completing(scratch, piece, y) & resting if near else np.int64(0)
        for o in range(4):
            twin = _TWINS[piece, o, 0]
            if twin < 0:
                continue
            source = resting if _TWINS[piece, o, 2] == 0 else previous
            lane = (source >> (LANE * twin)) & LANE_BITS
            dx = _TWINS[piece, o, 1]
            lane = (lane >> dx if dx >= 0 else lane << -dx) & LANE_BITS
            kept &= ~(lane << (LANE * o))
        while kept:
            low = kept & -kept
            kept ^= low
            index = bit_index(low)
            x = (index & (LANE - 1)) - X_OFFSET
            o = index >> 4
            if completing & low:
                count = _add_child(well, width, depth, piece, x, y, o, children, lines, count)
                continue
            # no line can clear: the parent's rows with the piece's cells added
            for row in range(depth):
                children[count, row] = well[row]
            for cy in range(4):
                mask = _ROW_MASKS[piece, o, cy]
                if mask:
                    children[count, y + cy] |= mask << x if x >= 0 else mask >> -x
            if children[count, BAR - 1] == 0:  # else the game ends
                lines[count] = 0
                count += 1
        previous = resting
        y += 1
    return piece, count


@kernel
def _add_child(well, width, depth, piece, x, y, o, children, lines, count):
    """Lock the piece at (x, y, o) into ``children[count]`` (as :func:`lock` does); returns the
    new count (unchanged when the game ends or when the well, having cleared lines, equals an
    earlier child's)."""
    y_min = _BOXES[piece, o, 1]
    y_dim = _BOXES[piece, o, 3]
    top = y + y_min
    full = (1 << width) - 1
    cleared = 0
    if top >= BAR:
        for cy in range(y_min, y_min + y_dim):
            mask = _ROW_MASKS[piece, o, cy]
            if (well[y + cy] | (mask << x if x >= 0 else mask >> -x)) == full:
                cleared += 1
    if cleared == 0:
        for row in range(depth):
            children[count, row] = well[row]
        for cy in range(y_min, y_min + y_dim):
            mask = _ROW_MASKS[piece, o, cy]
            children[count, y + cy] |= mask << x if x >= 0 else mask >> -x
        if children[count, BAR - 1] != 0:
            return count  # the game ends
        lines[count] = 0
        return count + 1
    cleared = lock(well, width, depth, piece, x, y, o, children[count])
    if cleared < 0:
        return count
    for other in range(count):
        if lines[other] != cleared:
            continue
        same = True
        for row in range(depth):
            if children[other, row] != children[count, row]:
                same = False
                break
        if same:
            return count
    lines[count] = cleared
    return count + 1


@kernel
def reachable_cells(well, width, depth, piece, out):
    """``out[row]`` = the cells of that row some reachable position of ``piece`` (resting or
    not) covers: the same row-at-a-time search as :func:`resting_positions`, keeping the union
    of the piece's cells instead of the resting positions. Rows above the spawn's drop stay 0."""
    fit = np.empty(4, dtype=np.int64)
    below = np.empty(4, dtype=np.int64)
    reach = np.zeros(4, dtype=np.int64)
    full = (1 << width) - 1
    for row in range(depth):
        out[row] = 0
    start = _spawn_row(well, width, depth, piece, fit, reach)
    for y in range(start, depth):
        _close_row(reach, fit)
        any_left = False
        for o in range(4):
            if reach[o] == 0:
                continue
            for cy in range(4):
                mask = _ROW_MASKS[piece, o, cy]
                if mask == 0 or y + cy >= depth:
                    continue
                cells = 0
                for cx in range(4):
                    if mask >> cx & 1:
                        cells |= reach[o] << cx
                out[y + cy] |= (cells >> X_OFFSET) & full
        _fit_masks(well, width, depth, piece, y + 1, below)
        for o in range(4):
            reach[o] &= below[o]
            if reach[o]:
                any_left = True
            fit[o] = below[o]
        if not any_left:
            break
