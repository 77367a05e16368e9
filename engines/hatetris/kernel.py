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
    positions = np.empty((MAX_RESTING, 3), dtype=np.int64)
    future = np.empty(depth, dtype=np.int64)
    remembers = False  # whether any seen well could be a future (else no well need be built)
    if not mild:
        for slot in range(table.shape[0]):
            if table[slot] != 0:
                remembers = True
                break
    first_filled = top_row(well, depth)
    best = -1
    for piece in range(PIECE_COUNT):
        found = resting_positions(well, width, depth, piece, positions)
        peak = -1
        seen_most = 0
        for index in range(found):
            x = positions[index, 0]
            y = positions[index, 1]
            o = positions[index, 2]
            if remembers:
                lock(well, width, depth, piece, x, y, o, future)
                rating = top_row(future, depth)
                count = memory_count(table, entry_wells, entry_hashes, entry_counts, future, depth)
                if count > seen_most:
                    seen_most = count
            else:
                rating = rating_after(well, width, depth, piece, x, y, o, first_filled)
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
def resting_positions(well, width, depth, piece, out):
    """Every position (x, y, o) reachable from spawn where Down is blocked, found a row at a
    time: the reachable (x, o) of a row are bit masks closed under left, right and rotate, and
    only Down leads to the next row (the waveform technique of spec 3.8). Starts where the spawn
    drops to through empty rows, which reaches the same positions. Writes (x, y, o) rows into
    ``out`` in row order; returns how many."""
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
