"""numba kernels of the HATETRIS advisors: the hand heuristic of spec 3.3-3.5 and the beam search's
expansion of a layer.

Heuristic terms (a cost, lower is better; the value shown to players is its negative):
holes (empty cells under a filled cell of their column), enclosed holes (empty cells with no path
to the open top), lines holding an enclosed hole, all three counted only down to the surface row,
the deepest row a 1 x 1 probe reaches moving left, right and down (below it the stack is buried
for good, spec 3.3); surface height (that row), erasability (how many of the seven pieces could clear a
line now, each tried on its own), score, the stack's height (rows from the floor to the highest
filled cell) and the empty cells below the stack's top that no reachable S position covers
(Tim's term of spec 3.6: shafts and mazes), and Tim's S surface (the deepest row a reachable S
covers), edge column heights and surface after one clear (the deepest surface row of the wells the
lookahead's single clears leave). The last five are not D&F terms: weight 0 in their set.

The learned evaluation (:mod:`advisors.hatetris.learned`) adds a small network's value of the well
to that cost: :func:`network_value` of the inputs :func:`fill_features` finds.
"""

from __future__ import annotations

import numba
import numpy as np

from engines.hatetris.kernel import (
    _LANES_BY_COUNT,
    BAR,
    GAP_ROW,
    LANE,
    LANE_BITS,
    MAX_RESTING,
    PACKED_WIDTH,
    PIECE_COUNT,
    X_OFFSET,
    _closure,
    _fit_at,
    _piece_lanes,
    _prepare_well,
    ai_prefers,
    bit_index,
    fits,
    lock,
    lowest_bit,
    rating_after,
    reachable_cells,
    resting_positions,
    spawn_x,
    top_row,
    well_hash,
)
from engines.hatetris.pieces import BOXES, ROW_MASKS
from engines.jit import kernel, parallel_kernel

_ROW_MASKS = np.ascontiguousarray(ROW_MASKS)
_BOXES = np.ascontiguousarray(BOXES)


def _run_lengths() -> np.ndarray:
    """RUN_LENGTHS[piece]: bit k set when some row of the piece, in some orientation, has k cells
    (every such row is one run of cells)."""
    table = np.zeros(len(ROW_MASKS), dtype=np.int64)
    for piece in range(len(ROW_MASKS)):
        for mask in ROW_MASKS[piece].ravel():
            if mask:
                assert mask >> _lowest(mask) & (mask >> _lowest(mask)) + 1 == 0, "a piece row with a hole"
                table[piece] |= 1 << bin(int(mask)).count("1")
    return table


def _lowest(mask) -> int:
    return (int(mask) & -int(mask)).bit_length() - 1


_RUN_LENGTHS = _run_lengths()

# Term order of ``terms`` and of the weight vector.
(HOLES, ENCLOSED, ENCLOSED_LINES, SURFACE, ERASABLE, SCORE, STACK, S_UNREACHABLE, S_SURFACE, EDGE_HEIGHTS,
 SURFACE_AFTER_CLEAR) = range(11)
TERM_COUNT = 11
NO_PIECE = -1
SCORE_MIX = -7046029254386353131  # mixes the score into a child's dedup key
COST_BLOCK = 64  # children per thread task when costing a layer
S_PIECE = 0  # pieces are numbered in the AI's order S Z O I L J T

# Rows of the work space of terms and of the lookahead (:func:`work_space`): the free lanes and
# gaps of the well being costed (rows FREE_ROW and GAP_ROW, filled by the engine's
# _prepare_well), the terms' flood fill and S reach, then for each level of the lookahead the
# single-clear placements found, the well after one of them, and the wells already followed.
CONNECTED_ROW = 2
REACHED_ROW = 3
LEVEL_ROWS = 4
SINGLES, AFTER, FOLLOWED = range(3)


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
def work_space(depth, levels):
    """The int64 work space of :func:`terms` and of :func:`quiescent_cost` up to ``levels`` levels
    deep, made once and reused from well to well: nothing is allocated per well."""
    return np.zeros((LEVEL_ROWS + 3 * (levels + 1), max(depth + 5, MAX_RESTING)), dtype=np.int64)


@kernel
def _prepare(well, width, depth, top, work):
    """Fill the work space for ``well`` (``top``: its first filled row): the empty cells connected
    to the open top, and for wells up to PACKED_WIDTH wide the free lanes and the gaps of the rows
    a piece could complete. Returns the row the spawn drops to, whether the box's rows there are
    empty, those rows (bits) and the deepest of them (-1: none)."""
    full = (1 << width) - 1
    connected = work[CONNECTED_ROW]
    _connect(well, full, depth, top, connected)
    if width > PACKED_WIDTH:
        return 0, False, np.int64(0), -1
    spawn_row, empty, clearable = _prepare_well(well, width, depth, work)
    # Each turn of a piece overlaps its cells before, so every reachable position lies in the
    # empty cells connected to the top: a row with an enclosed gap cannot be completed. Nor can a
    # row whose gap is not one run (a piece's rows are). The walks stop above the deepest row left.
    last = -1
    for row in range(depth):
        if (clearable >> row) & 1:
            gap = ~well[row] & full
            run = gap >> lowest_bit(gap)
            if gap & ~connected[row] or run & (run + 1):
                clearable &= ~(np.int64(1) << row)
                work[GAP_ROW, row] = 0
            else:
                last = row
    return spawn_row, empty, clearable, last


@kernel
def _connect(well, full, depth, top, connected):
    """``connected[row]``: the empty cells of the row connected to the open top through empty
    cells (any direction); every row above the stack is wholly connected."""
    start = max(top, 1)
    for row in range(start):
        connected[row] = full
    for row in range(start, depth):
        connected[row] = 0
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


@kernel
def _placement_code(x, y, o):
    return (((y << 2) | o) << 6) | (x + X_OFFSET)


@kernel
def most_cleared(well, width, depth, piece, positions, work, spawn_row, empty, clearable, last, top, singles):
    """How many rows one reachable resting placement of ``piece`` completes: 0, 1, or 2 for two or
    more. With ``singles`` -1 it stops at the first placement that completes any (erasability);
    else at the first that completes two, and writes the placements completing exactly one into
    work row ``singles`` (:func:`_placement_code`), returning (most, how many written).
    ``spawn_row``, ``empty``, ``clearable``, ``last`` from :func:`_prepare`; ``top`` is the
    well's first filled row.

    The walk is the engine's row-at-a-time search of resting positions, stopped below the deepest
    row a piece could complete; which rows a resting position completes comes from the rows' gap
    counts (it fits, so its cells in a row are gaps: it completes the row when their counts
    match). Wider wells fall back to :func:`can_clear` and the list of resting positions."""
    if width > PACKED_WIDTH:
        return _most_cleared_wide(well, width, depth, piece, positions, work, top, singles)
    count = 0
    while last >= 0 and not (_RUN_LENGTHS[piece] >> work[GAP_ROW, last]) & 1:
        last -= 1  # no row of the piece fills that gap
    if last < 0:
        return 0, count
    lanes = _piece_lanes(piece)
    y = spawn_row
    reach = _fit_at(work, y, lanes)
    if not empty:
        reach = _closure((np.int64(1) << (spawn_x(width) + X_OFFSET)) & reach, reach)
    # else the box turns at the spawn and slides to every fitting x
    most = 0
    while reach != 0 and y <= last:
        below = _fit_at(work, y + 1, lanes)
        resting = reach & ~below
        reach &= below
        if reach != 0 and reach != below:  # most rows: every fitting position is reached from above
            reach = _closure(reach, below)
        if resting != 0 and (clearable >> y) & 15:
            if y < BAR:
                for o in range(4):
                    if y + _BOXES[piece, o, 1] < BAR:  # nothing clears while the piece's top is above the bar
                        resting &= ~(np.int64(LANE_BITS) << (LANE * o))
            row0 = _LANES_BY_COUNT[piece, 0, work[GAP_ROW, y]] & resting
            row1 = _LANES_BY_COUNT[piece, 1, work[GAP_ROW, y + 1]] & resting
            row2 = _LANES_BY_COUNT[piece, 2, work[GAP_ROW, y + 2]] & resting
            row3 = _LANES_BY_COUNT[piece, 3, work[GAP_ROW, y + 3]] & resting
            one = (row0 | row1) | (row2 | row3)
            if one != 0:
                if (row0 & (row1 | row2 | row3)) | (row1 & (row2 | row3)) | (row2 & row3):
                    return 2, count
                most = 1
                if singles < 0:
                    return most, count
                while one:
                    low = one & -one
                    one ^= low
                    index = bit_index(low)
                    work[singles, count] = _placement_code((index & (LANE - 1)) - X_OFFSET, y, index >> 4)
                    count += 1
        y += 1
    return most, count


@kernel
def _most_cleared_wide(well, width, depth, piece, positions, work, top, singles):
    """:func:`most_cleared` for wells wider than PACKED_WIDTH."""
    count = 0
    if singles < 0:
        return min(can_clear(well, width, depth, piece, positions, 1, top), 2), count
    most = min(can_clear(well, width, depth, piece, positions, 2, top), 2)
    if most != 1:
        return most, count
    found = resting_positions(well, width, depth, piece, positions)
    for index in range(found):
        x = positions[index, 0]
        y = positions[index, 1]
        o = positions[index, 2]
        if _completed_rows(well, width, depth, piece, x, y, o) == 1:
            work[singles, count] = _placement_code(x, y, o)
            count += 1
    return most, count


@kernel
def terms(well, width, depth, score, positions, work, out, with_reach):
    """The heuristic terms of ``well`` into ``out`` (``work`` from :func:`work_space`)."""
    top = top_row(well, depth)
    spawn_row, empty, clearable, last = _prepare(well, width, depth, top, work)
    singles = LEVEL_ROWS + SINGLES
    follow, count, known, erasable = _chain_piece(well, width, depth, positions, work, spawn_row, empty, clearable,
                                                  last, top, singles)
    _fill_terms(well, width, depth, score, positions, work, out, with_reach, True, top, spawn_row, empty, clearable,
                last, known, erasable)
    out[SURFACE_AFTER_CLEAR] = _deepest_after_clear(well, width, depth, follow, count, work, singles,
                                                    LEVEL_ROWS + AFTER, out[SURFACE])


@kernel
def _chain_piece(well, width, depth, positions, work, spawn_row, empty, clearable, last, top, singles):
    """The lookahead's piece (spec 3.5): the first in S Z O I L J T order that cannot clear two
    rows in one placement. Returns it (-1 when it clears nothing: the chain ends), how many of
    its single clears it wrote into work row ``singles``, and how many pieces were walked and
    how many of those clear a row (their erasability, so the terms do not walk them again)."""
    follow = -1
    known = 0
    erasable = 0
    count = 0
    for piece in range(PIECE_COUNT):
        most, count = most_cleared(well, width, depth, piece, positions, work, spawn_row, empty, clearable, last,
                                   top, singles)
        known = piece + 1
        if most > 0:
            erasable += 1
        if most < 2:
            if most == 1:
                follow = piece
            break
    return follow, count, known, erasable


@kernel
def _surface_row(well, width, depth, top):
    """The deepest row a 1 x 1 probe dropped from the top reaches, moving left, right and down
    only (``top``: the well's first filled row)."""
    full = (1 << width) - 1
    start = max(top, 1)
    probe = full
    surface = start - 1
    for row in range(start, depth):
        empty_cells = ~well[row] & full
        probe = spread(probe & empty_cells, empty_cells)
        if probe == 0:
            break
        surface = row
    return surface


@kernel
def _deepest_after_clear(well, width, depth, follow, count, work, singles, after_row, surface):
    """Tim's deepest row reachable after one clear (spec 3.6): the deepest surface row (the 1 x 1
    probe's) of the wells left by the ``count`` single clears of piece ``follow`` in work row
    ``singles`` (:func:`_chain_piece`), or ``surface``, the well's own, when none goes deeper.
    Work row ``after_row`` takes each well after."""
    deepest = surface
    if follow < 0:
        return deepest
    after = work[after_row, :depth]
    for index in range(count):
        code = work[singles, index]
        if lock(well, width, depth, follow, (code & 63) - X_OFFSET, code >> 8, (code >> 6) & 3, after) != 1:
            continue
        row = _surface_row(after, width, depth, top_row(after, depth))
        if row > deepest:
            deepest = row
    return deepest


@kernel
def _fill_terms(well, width, depth, score, positions, work, out, with_reach, with_edges, top, spawn_row, empty,
                clearable, last, known, erasable):
    """:func:`terms` with the work space prepared (:func:`_prepare`) and the erasability of the
    first ``known`` pieces already found (``erasable`` of them clear a line). Rows above the stack
    are empty, so every scan starts at the stack's top row. The S piece's reach and the edge
    columns are left 0 unless asked for (``with_reach``, ``with_edges``): a beam that weighs them
    0 would pay for them at every well it costs."""
    full = (1 << width) - 1
    surface = _surface_row(well, width, depth, top)
    # Holes count only down to the surface row: below it the stack is buried for good (the
    # surface almost never goes down again, spec 3.3), and counting that garbage steers the beam
    # to keep a floor it can never clear.
    live_end = min(surface + 1, depth)
    covered = 0
    holes = 0
    for row in range(max(top, BAR), live_end):
        holes += _popcount(~well[row] & covered & full)
        covered |= well[row]
    connected = work[CONNECTED_ROW]  # from _prepare
    enclosed = 0
    enclosed_lines = 0
    for row in range(max(top, BAR), live_end):
        shut = ~well[row] & full & ~connected[row]
        if shut:
            enclosed += _popcount(shut)
            enclosed_lines += 1
    for piece in range(known, PIECE_COUNT):
        if most_cleared(well, width, depth, piece, positions, work, spawn_row, empty, clearable, last, top, -1)[0] > 0:
            erasable += 1
    out[HOLES] = holes
    out[ENCLOSED] = enclosed
    out[ENCLOSED_LINES] = enclosed_lines
    out[SURFACE] = surface
    out[ERASABLE] = erasable
    out[SCORE] = score
    out[STACK] = depth - top
    # Tim's edge columns (spec 3.6): how high the leftmost and the rightmost columns stand
    edges = 0
    if with_edges:
        edges = _column_height(well, depth, top, 0) + _column_height(well, depth, top, width - 1)
    out[EDGE_HEIGHTS] = edges
    unreachable = 0
    s_surface = 0
    if with_reach:
        reached = work[REACHED_ROW]
        reachable_cells(well, width, depth, S_PIECE, reached)
        for row in range(max(top, BAR), depth):
            unreachable += _popcount(~well[row] & full & ~reached[row])
        # Tim's surface for an S probe: the deepest row a reachable S covers a cell of (the
        # 1 x 1 probe's SURFACE slips through gaps an S cannot)
        for row in range(depth - 1, -1, -1):
            if reached[row] != 0:
                s_surface = row
                break
    out[S_UNREACHABLE] = unreachable
    out[S_SURFACE] = s_surface
    out[SURFACE_AFTER_CLEAR] = surface  # the caller puts in the single clears' (_deepest_after_clear)


@kernel
def _column_height(well, depth, top, column):
    """Rows from the floor to the highest filled cell of ``column`` (0: empty); ``top`` is the
    well's first filled row."""
    bit = np.int64(1) << column
    for row in range(top, depth):
        if well[row] & bit:
            return depth - row
    return 0


@kernel
def _popcount(value):
    count = 0
    while value:
        value &= value - 1
        count += 1
    return count


#: The inputs of the learned evaluation besides the column heights: the terms but the score (the
#: network values the well, the score is added as it is), and how full the rows from the stack's
#: top down are (FILL_ROWS of them; rows past the floor count as full).
FEATURE_TERMS = (HOLES, ENCLOSED, ENCLOSED_LINES, SURFACE, ERASABLE, STACK, S_UNREACHABLE)
FILL_ROWS = 6
NO_NETWORK = np.zeros(0, dtype=np.float64)


@kernel
def feature_count(width):
    """How many inputs the learned evaluation has for a well ``width`` cells wide."""
    return len(FEATURE_TERMS) + width + FILL_ROWS


@kernel
def scratch_space(width):
    """The float64 scratch of :func:`quiescent_cost`: the terms, then the network's inputs."""
    return np.empty(TERM_COUNT + feature_count(width), dtype=np.float64)


@kernel
def fill_features(well, width, depth, top, terms_found, out):
    """The learned evaluation's inputs for ``well`` (``top``: its first filled row) into ``out``:
    the terms but the score (from ``terms_found``, as :func:`terms` writes them), each column's
    height (rows from the floor to its highest filled cell), and the filled cells of the FILL_ROWS
    rows from the stack's top down."""
    index = 0
    for term in FEATURE_TERMS:
        out[index] = terms_found[term]
        index += 1
    for column in range(width):
        out[index] = _column_height(well, depth, top, column)
        index += 1
    for offset in range(FILL_ROWS):
        row = top + offset
        out[index] = _popcount(well[row]) if row < depth else width
        index += 1


@kernel
def features_of_wells(wells, width, depth, out):
    """The learned evaluation's inputs (:func:`fill_features`) of each of ``wells`` into ``out``."""
    positions = np.empty((MAX_RESTING, 3), dtype=np.int64)
    work = work_space(depth, 0)
    found = np.empty(TERM_COUNT, dtype=np.float64)
    for index in range(wells.shape[0]):
        terms(wells[index], width, depth, 0, positions, work, found, True)
        fill_features(wells[index], width, depth, top_row(wells[index], depth), found, out[index])


# The layout of a network (one float64 array, :mod:`advisors.hatetris.learned`): the number of
# inputs and of hidden units, each input's mean and scale, the hidden layer's weights (inputs x
# units, row by row) and biases, the output's weights and bias.
NETWORK_HEADER = 2


@kernel
def network_size(inputs, units):
    return NETWORK_HEADER + 2 * inputs + inputs * units + 2 * units + 1


@kernel
def network_value(network, features):
    """The network's value of a well from its inputs (lines still to come): one hidden layer of
    tanh units and a linear output. The inputs are normalised in place."""
    inputs = np.int64(network[0])
    units = np.int64(network[1])
    means = NETWORK_HEADER
    scales = means + inputs
    hidden = scales + inputs
    biases = hidden + inputs * units
    outputs = biases + units
    for index in range(inputs):
        features[index] = (features[index] - network[means + index]) / network[scales + index]
    value = network[outputs + units]
    for unit in range(units):
        total = network[biases + unit]
        for index in range(inputs):
            total += network[hidden + index * units + unit] * features[index]
        value += network[outputs + unit] * np.tanh(total)
    return value


@kernel
def quiescent_cost(well, width, depth, score, weights, levels, positions, work, scratch, network):
    """The "bird in the hand" cost (spec 3.5): the best cost over ``well`` and the wells reached
    from it by chains of single-line clears with the first piece (S Z O I L J T order) that cannot
    clear two lines at once; the lines of the chain count half. ``work`` from :func:`work_space`
    for at least ``levels`` levels (each level of the chain keeps its rows, found by the levels
    still to go); ``scratch`` from :func:`scratch_space`. A well's cost is its terms weighed by
    ``weights``, less the value ``network`` gives it (none when empty: NO_NETWORK)."""
    top = top_row(well, depth)
    spawn_row, empty, clearable, last = _prepare(well, width, depth, top, work)
    singles = LEVEL_ROWS + 3 * levels + SINGLES
    follow = -1
    known = 0
    erasable = 0
    count = 0
    with_after = weights[SURFACE_AFTER_CLEAR] != 0
    if levels > 0 or with_after:
        # The walk that finds the chain's piece also lists its single clears and gives the
        # erasability of every piece it tried, so the terms do not walk them again.
        follow, count, known, erasable = _chain_piece(well, width, depth, positions, work, spawn_row, empty,
                                                      clearable, last, top, singles)
    learned = network.shape[0] > 0
    with_reach = learned or weights[S_UNREACHABLE] != 0 or weights[S_SURFACE] != 0
    _fill_terms(well, width, depth, score, positions, work, scratch, with_reach, weights[EDGE_HEIGHTS] != 0, top,
                spawn_row, empty, clearable, last, known, erasable)
    if with_after:
        scratch[SURFACE_AFTER_CLEAR] = _deepest_after_clear(well, width, depth, follow, count, work, singles,
                                                            LEVEL_ROWS + 3 * levels + AFTER, scratch[SURFACE])
    best = 0.0
    for index in range(TERM_COUNT):
        best += weights[index] * scratch[index]
    if learned:
        features = scratch[TERM_COUNT:]
        fill_features(well, width, depth, top, scratch, features)
        best -= network_value(network, features)
    if follow < 0 or levels == 0:
        return best
    after = work[LEVEL_ROWS + 3 * levels + AFTER, :depth]
    followed = work[LEVEL_ROWS + 3 * levels + FOLLOWED]  # hashes of the wells already followed
    distinct = 0
    for index in range(count):
        code = work[singles, index]
        lines = lock(well, width, depth, follow, (code & 63) - X_OFFSET, code >> 8, (code >> 6) & 3, after)
        if lines != 1:
            continue
        # Two placements can leave the same well (S, Z and I cover the same cells turned half way).
        hashed = well_hash(after, depth)
        repeated = False
        for other in range(distinct):
            if followed[other] == hashed:
                repeated = True
                break
        if repeated:
            continue
        followed[distinct] = hashed
        distinct += 1
        # Lines still to be earned count half: shift the score term by half a line.
        # The recursion keeps its callers' argument types (the level is found from ``levels``):
        # numba's cache crashed on a recursion first called with a literal level 0.
        value = quiescent_cost(after, width, depth, score, weights, levels - 1, positions, work, scratch, network)
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
def cost_layer(wells, parents, moves, scores, width, depth, weights, levels, network, costs):
    """Pass 3: the cost of each child given as (parent, placement) (the distinct ones only: a cost
    depends on the well and score alone). Children go to the threads in blocks, to reuse scratch
    space."""
    count = parents.shape[0]
    blocks = (count + COST_BLOCK - 1) // COST_BLOCK
    for block in numba.prange(blocks):
        positions = np.empty((MAX_RESTING, 3), dtype=np.int64)
        work = work_space(depth, levels)
        scratch = scratch_space(width)
        after = np.empty(depth, dtype=np.int64)
        for index in range(block * COST_BLOCK, min(count, (block + 1) * COST_BLOCK)):
            lock(wells[parents[index]], width, depth, moves[index, 0], moves[index, 1], moves[index, 2],
                 moves[index, 3], after)
            costs[index] = quiescent_cost(after, width, depth, scores[index], weights, levels, positions, work,
                                          scratch, network)


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
