"""numba kernels of the HATETRIS advisors: the hand heuristic of spec 3.3-3.5 and the beam search's
expansion of a layer.

Heuristic terms (a cost, lower is better; the value shown to players is its negative):
holes (empty cells under a filled cell of their column), enclosed holes (empty cells with no path
to the open top), lines holding an enclosed hole, surface height (the deepest row a 1 x 1 probe
reaches moving left, right and down), erasability (how many of the seven pieces could clear a
line now, each tried on its own), score, the stack's height (rows from the floor to the highest
filled cell) and the empty cells below the stack's top that no reachable S position covers
(Tim's term of spec 3.6: shafts and mazes). The last two are not D&F terms: weight 0 in their set.
"""

from __future__ import annotations

import numba
import numpy as np

from engines.hatetris.kernel import (
    BAR,
    MAX_RESTING,
    PIECE_COUNT,
    ai_prefers,
    fits,
    lock,
    lowest_bit,
    rating_after,
    reachable_cells,
    resting_positions,
    top_row,
    well_hash,
)
from engines.hatetris.pieces import BOXES, ROW_MASKS
from engines.jit import kernel, parallel_kernel

_ROW_MASKS = np.ascontiguousarray(ROW_MASKS)
_BOXES = np.ascontiguousarray(BOXES)

# Term order of ``terms`` and of the weight vector.
HOLES, ENCLOSED, ENCLOSED_LINES, SURFACE, ERASABLE, SCORE, STACK, S_UNREACHABLE = range(8)
TERM_COUNT = 8
NO_PIECE = -1
SCORE_MIX = -7046029254386353131  # mixes the score into a child's dedup key
COST_BLOCK = 64
S_PIECE = 0  # pieces are numbered in the AI's order S Z O I L J T  # children per thread task when costing a layer


@kernel
def spread(row_cells, open_cells):
    """Grow ``row_cells`` sideways inside ``open_cells`` (one row)."""
    while True:
        grown = (row_cells | (row_cells << 1) | (row_cells >> 1)) & open_cells
        if grown == row_cells:
            return row_cells
        row_cells = grown


@kernel
def _completed_rows(well, width, depth, piece, x, y, o):
    """Rows the piece at (x, y, o) completes (none when its top is above the bar)."""
    if y + _BOXES[piece, o, 1] < BAR:
        return 0
    full = (1 << width) - 1
    completed = 0
    for cy in range(4):
        mask = _ROW_MASKS[piece, o, cy]
        if mask == 0:
            continue
        shifted = mask << x if x >= 0 else mask >> -x
        if (well[y + cy] | shifted) == full:
            completed += 1
    return completed


@kernel
def _drops_straight(well, width, depth, piece, x, y, o, top):
    """Whether the piece fits at (x, y', o) for every y' above y: then it is reachable from spawn,
    since any fitting (x, o) in the empty buffer is (rotate at spawn, then slide)."""
    first = top - 4
    if first < 0:
        first = 0
    for above in range(first, y):
        if not fits(well, width, depth, piece, x, above, o):
            return False
    return True


@kernel
def can_clear(well, width, depth, piece, positions, minimum, top):
    """The most rows one reachable resting placement of ``piece`` completes, or at least
    ``minimum`` when it has found that many (``top``: the well's first filled row).

    A clearing placement must fill some row's gap exactly, so the candidates come from the gaps;
    a candidate the piece can drop straight into is reachable. Only when a candidate needs a
    slide or turn under an overhang are all resting positions generated."""
    full = (1 << width) - 1
    sure = 0
    unsure = 0
    for row in range(max(top, BAR), depth):
        gap = ~well[row] & full
        size = _popcount(gap)
        if size == 0 or size > 4:
            continue
        low = lowest_bit(gap)
        for o in range(4):
            y_min = _BOXES[piece, o, 1]
            for cy in range(y_min, y_min + _BOXES[piece, o, 3]):
                mask = _ROW_MASKS[piece, o, cy]
                if _popcount(mask) != size:
                    continue
                x = low - lowest_bit(mask)
                if (mask << x if x >= 0 else mask >> -x) != gap:
                    continue
                y = row - cy
                if not fits(well, width, depth, piece, x, y, o) or fits(well, width, depth, piece, x, y + 1, o):
                    continue
                completed = _completed_rows(well, width, depth, piece, x, y, o)
                if completed <= sure:
                    continue
                if _drops_straight(well, width, depth, piece, x, y, o, top):
                    sure = completed
                    if sure >= minimum:
                        return sure
                elif completed > unsure:
                    unsure = completed
    if unsure <= sure:
        return sure
    found = resting_positions(well, width, depth, piece, positions)
    most = sure
    for index in range(found):
        completed = _completed_rows(well, width, depth, piece, positions[index, 0], positions[index, 1],
                                    positions[index, 2])
        if completed > most:
            most = completed
            if most >= minimum:
                break
    return most


@kernel
def terms(well, width, depth, score, positions, out, with_reach):
    """The heuristic terms of ``well`` into ``out``. Rows above the stack are empty, so every
    scan starts at the stack's top row."""
    full = (1 << width) - 1
    top = top_row(well, depth)
    covered = 0
    holes = 0
    for row in range(max(top, BAR), depth):
        holes += _popcount(~well[row] & covered & full)
        covered |= well[row]
    # Cells connected to the open top through empty cells (any direction); every row above the
    # stack is wholly connected.
    start = max(top, 1)
    connected = np.zeros(depth, dtype=np.int64)
    for row in range(start):
        connected[row] = full
    changed = True
    while changed:
        changed = False
        for row in range(start, depth):
            empty = ~well[row] & full
            grown = spread(connected[row] | (connected[row - 1] & empty), empty)
            if grown != connected[row]:
                connected[row] = grown
                changed = True
        for row in range(depth - 2, start - 1, -1):
            empty = ~well[row] & full
            grown = spread(connected[row] | (connected[row + 1] & empty), empty)
            if grown != connected[row]:
                connected[row] = grown
                changed = True
    enclosed = 0
    enclosed_lines = 0
    for row in range(max(top, BAR), depth):
        shut = ~well[row] & full & ~connected[row]
        if shut:
            enclosed += _popcount(shut)
            enclosed_lines += 1
    # A 1 x 1 probe dropped from the top, moving left, right and down only.
    probe = full
    surface = start - 1
    for row in range(start, depth):
        empty = ~well[row] & full
        probe = spread(probe & empty, empty)
        if probe == 0:
            break
        surface = row
    erasable = 0
    for piece in range(PIECE_COUNT):
        if can_clear(well, width, depth, piece, positions, 1, top) > 0:
            erasable += 1
    out[HOLES] = holes
    out[ENCLOSED] = enclosed
    out[ENCLOSED_LINES] = enclosed_lines
    out[SURFACE] = surface
    out[ERASABLE] = erasable
    out[SCORE] = score
    out[STACK] = depth - top
    unreachable = 0
    if with_reach:
        reached = np.empty(depth, dtype=np.int64)
        reachable_cells(well, width, depth, S_PIECE, reached)
        for row in range(max(top, BAR), depth):
            unreachable += _popcount(~well[row] & full & ~reached[row])
    out[S_UNREACHABLE] = unreachable


@kernel
def _popcount(value):
    count = 0
    while value:
        value &= value - 1
        count += 1
    return count


@kernel
def cost(well, width, depth, score, weights, positions, scratch):
    terms(well, width, depth, score, positions, scratch, weights[S_UNREACHABLE] != 0)
    total = 0.0
    for index in range(TERM_COUNT):
        total += weights[index] * scratch[index]
    return total


@kernel
def quiescent_cost(well, width, depth, score, weights, levels, positions, scratch):
    """The "bird in the hand" cost (spec 3.5): the best cost over ``well`` and the wells reached
    from it by chains of single-line clears with the first piece (S Z O I L J T order) that cannot
    clear two lines at once; the lines of the chain count half."""
    best = cost(well, width, depth, score, weights, positions, scratch)
    if levels <= 0:
        return best
    follow = -1
    top = top_row(well, depth)
    for piece in range(PIECE_COUNT):
        most = can_clear(well, width, depth, piece, positions, 2, top)
        if most < 2:
            if most == 0:
                return best  # the chain's piece clears nothing: the chain ends here
            follow = piece
            break
    if follow < 0:
        return best
    own = np.empty((MAX_RESTING, 3), dtype=np.int64)
    found = resting_positions(well, width, depth, follow, own)
    after = np.empty(depth, dtype=np.int64)
    followed = np.empty(found, dtype=np.int64)  # hashes of the wells already followed
    count = 0
    for index in range(found):
        if _completed_rows(well, width, depth, follow, own[index, 0], own[index, 1], own[index, 2]) != 1:
            continue
        lines = lock(well, width, depth, follow, own[index, 0], own[index, 1], own[index, 2], after)
        if lines != 1:
            continue
        # Two placements can leave the same well (S, Z and I cover the same cells turned half way).
        hashed = well_hash(after, depth)
        repeated = False
        for other in range(count):
            if followed[other] == hashed:
                repeated = True
                break
        if repeated:
            continue
        followed[count] = hashed
        count += 1
        # Lines still to be earned count half: shift the score term by half a line.
        value = quiescent_cost(after, width, depth, score, weights, levels - 1, positions, scratch)
        value += weights[SCORE] * 0.5
        if value < best:
            best = value
    return best




@kernel
def choose_piece_hashed(well, width, depth, mild, seen_hashes, seen_lines, seen, peaks, loops, positions, future):
    """The enemy AI with its memory given as the hashes of the wells seen (one entry per visit,
    only those a whole number of repeat periods before the futures) and, for each, the lines a
    future must clear to hold as many cells; the same choice as the engine's. Only futures that
    clear such a number of lines are built and hashed."""
    best = -1
    first_filled = top_row(well, depth)
    wanted = 0  # bit L: some seen well has the cells of a future that clears L lines
    if not mild:
        for entry in range(seen):
            wanted |= 1 << seen_lines[entry]
    for piece in range(PIECE_COUNT):
        found = resting_positions(well, width, depth, piece, positions)
        peak = -1
        seen_most = 0
        for index in range(found):
            x = positions[index, 0]
            y = positions[index, 1]
            o = positions[index, 2]
            rating = rating_after(well, width, depth, piece, x, y, o, first_filled)
            if rating > peak:
                peak = rating
            if wanted == 0:
                continue
            lines = _completed_rows(well, width, depth, piece, x, y, o)
            if not (wanted >> lines) & 1:
                continue
            if lock(well, width, depth, piece, x, y, o, future) < 0:
                continue  # a game-over well was never seen alive
            hashed = well_hash(future, depth)
            count = 0
            for entry in range(seen):
                if seen_lines[entry] == lines and seen_hashes[entry] == hashed:
                    count += 1
            if count > seen_most:
                seen_most = count
        peaks[piece] = peak
        loops[piece] = seen_most
        if best < 0 or ai_prefers(seen_most, peak, loops[best], peaks[best]):
            best = piece
    return best


@kernel
def ancestors_for_loops(node, pieces_now, period, width, history_parent, history_hash, history_pieces,
                        history_cells, hashes_out, lines_out):
    """The wells on the path to ``node`` (itself included) seen a multiple of ``period`` pieces
    before the next placement's futures that a future could equal: their hashes, and the lines
    the future must clear to hold as many cells (0 to 4). Returns how many."""
    count = 0
    cells_after = history_cells[node] + 4  # a future's cells before its clears
    while node >= 0:
        if (pieces_now + 1 - history_pieces[node]) % period == 0:
            surplus = cells_after - history_cells[node]
            if surplus >= 0 and surplus % width == 0 and surplus // width <= 4:
                hashes_out[count] = history_hash[node]
                lines_out[count] = surplus // width
                count += 1
        node = history_parent[node]
    return count


@parallel_kernel
def choose_layer(wells, nodes, width, depth, mild, period, history_parent, history_hash, history_pieces,
                 history_cells, max_depth, pieces_out, counts_out):
    """Pass 1 of a layer's expansion: the AI's piece for every parent and its number of resting
    placements."""
    for index in numba.prange(wells.shape[0]):
        positions = np.empty((MAX_RESTING, 3), dtype=np.int64)
        future = np.empty(depth, dtype=np.int64)
        seen_hashes = np.empty(max_depth + 1, dtype=np.int64)
        seen_lines = np.empty(max_depth + 1, dtype=np.int64)
        peaks = np.empty(PIECE_COUNT, dtype=np.int64)
        loops = np.empty(PIECE_COUNT, dtype=np.int64)
        node = nodes[index]
        seen = 0
        if not mild:
            seen = ancestors_for_loops(node, history_pieces[node], period, width, history_parent, history_hash,
                                       history_pieces, history_cells, seen_hashes, seen_lines)
        piece = choose_piece_hashed(wells[index], width, depth, mild, seen_hashes, seen_lines, seen, peaks, loops,
                                    positions, future)
        pieces_out[index] = piece
        counts_out[index] = resting_positions(wells[index], width, depth, piece, positions)


@parallel_kernel
def generate_layer(wells, scores, pieces, offsets, width, depth, child_parents, child_moves, child_scores,
                   child_keys):
    """Pass 2: every child of every parent (placements of the AI's piece): its placement, score and
    dedup key, without keeping its well; a child that ends the game gets parent -1.
    ``offsets[i]`` is parent i's first child slot."""
    for index in numba.prange(wells.shape[0]):
        own = np.empty((MAX_RESTING, 3), dtype=np.int64)
        after = np.empty(depth, dtype=np.int64)
        piece = pieces[index]
        found = resting_positions(wells[index], width, depth, piece, own)
        for child in range(found):
            slot = offsets[index] + child
            lines = lock(wells[index], width, depth, piece, own[child, 0], own[child, 1], own[child, 2], after)
            child_moves[slot, 0] = piece
            child_moves[slot, 1] = own[child, 0]
            child_moves[slot, 2] = own[child, 1]
            child_moves[slot, 3] = own[child, 2]
            if lines < 0:
                child_parents[slot] = -1
                child_keys[slot] = 0
                continue
            child_parents[slot] = index
            child_scores[slot] = scores[index] + lines
            child_keys[slot] = well_hash(after, depth) ^ (child_scores[slot] * np.int64(SCORE_MIX))


@parallel_kernel
def cost_layer(wells, parents, moves, scores, width, depth, weights, levels, costs):
    """Pass 3: the cost of each child given as (parent, placement) (the distinct ones only: a cost
    depends on the well and score alone). Children go to the threads in blocks, to reuse scratch
    space."""
    count = parents.shape[0]
    blocks = (count + COST_BLOCK - 1) // COST_BLOCK
    for block in numba.prange(blocks):
        positions = np.empty((MAX_RESTING, 3), dtype=np.int64)
        scratch = np.empty(TERM_COUNT, dtype=np.float64)
        after = np.empty(depth, dtype=np.int64)
        for index in range(block * COST_BLOCK, min(count, (block + 1) * COST_BLOCK)):
            lock(wells[parents[index]], width, depth, moves[index, 0], moves[index, 1], moves[index, 2],
                 moves[index, 3], after)
            costs[index] = quiescent_cost(after, width, depth, scores[index], weights, levels, positions, scratch)


@kernel
def build_layer(wells, parents, moves, width, depth, out):
    """The wells of the kept children, from their parents' wells and placements."""
    for index in range(parents.shape[0]):
        lock(wells[parents[index]], width, depth, moves[index, 0], moves[index, 1], moves[index, 2],
             moves[index, 3], out[index])


@kernel
def check_layer(wells, parents, moves, width, depth, out_wells, out_lines, out_hashes, out_cells):
    """Rebuild a saved layer of kept children from their parents' ``wells``, checking each first
    (the values come from a file): the parent exists, the placement is one of its piece's resting
    positions reachable in the parent's well, and locking it does not end the game. Fills the
    child's well, cleared lines, hash and filled cells; returns the first child that fails, or -1."""
    positions = np.empty((MAX_RESTING, 3), dtype=np.int64)
    for index in range(parents.shape[0]):
        parent = parents[index]
        piece = moves[index, 0]
        o = moves[index, 3]
        if parent < 0 or parent >= wells.shape[0] or piece < 0 or piece >= PIECE_COUNT or o < 0 or o > 3:
            return index
        found = resting_positions(wells[parent], width, depth, piece, positions)
        reachable = False
        for position in range(found):
            if positions[position, 0] == moves[index, 1] and positions[position, 1] == moves[index, 2] \
                    and positions[position, 2] == o:
                reachable = True
                break
        if not reachable:
            return index
        lines = lock(wells[parent], width, depth, piece, moves[index, 1], moves[index, 2], o, out_wells[index])
        if lines < 0:
            return index
        out_lines[index] = lines
        out_hashes[index] = well_hash(out_wells[index], depth)
        cells = 0
        for row in range(depth):
            cells += _popcount(out_wells[index, row])
        out_cells[index] = cells
    return -1
