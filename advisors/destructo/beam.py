"""Beam search to the end of a Destruct-o-Match level, compiled.

From a board, every line of clicks is extended a layer (one click) at a time; of all the boards a
layer reaches, the ``width`` best by points so far + Irpan's V (spec 3.1) are kept, a board reached
by two orders of the same clicks only once. A line whose board has no click left ends there with
its real end bonus; the best ended line is the plan. The best ended line through each first click
is kept as well, so every click of the position gets a value (``rank``).

Boards are flat int16 arrays (``colour | power << 4`` as in ``engines.destructo.kernel``); flood
fills mark cells with a running stamp instead of clearing a mask, so a board's groups, V and hash
cost one pass. Fill rows, Shuffles and Timers are not foreseen: a Fill's group is planned as if no
row came (the plan is made again after the row is known).
"""

from __future__ import annotations

import numpy as np

from engines.destructo.kernel import COLOUR_BITS, EXPLODE, MORPH, MULTIPLY, OVERKILL, POWER_SHIFT, WILD
from engines.destructo.kernel import group_score as _group_score
from engines.jit import kernel


@kernel
def _joins(value, colour):
    if value == 0:
        return False
    power = value >> POWER_SHIFT
    return (value & COLOUR_BITS) == colour or power == WILD or power == MORPH


@kernel
def _flood(board, columns, start, queue, visit, stamp):
    """The group of the coloured boulder at ``start``: its cells in ``queue[:size]``, marked
    ``stamp`` in ``visit``; returns size."""
    colour = board[start] & COLOUR_BITS
    cells = board.shape[0]
    visit[start] = stamp
    queue[0] = start
    head = 0
    tail = 1
    while head < tail:
        p = queue[head]
        head += 1
        c = p % columns
        if p >= columns and visit[p - columns] != stamp and _joins(board[p - columns], colour):
            visit[p - columns] = stamp
            queue[tail] = p - columns
            tail += 1
        if p + columns < cells and visit[p + columns] != stamp and _joins(board[p + columns], colour):
            visit[p + columns] = stamp
            queue[tail] = p + columns
            tail += 1
        if c > 0 and visit[p - 1] != stamp and _joins(board[p - 1], colour):
            visit[p - 1] = stamp
            queue[tail] = p - 1
            tail += 1
        if c + 1 < columns and visit[p + 1] != stamp and _joins(board[p + 1], colour):
            visit[p + 1] = stamp
            queue[tail] = p + 1
            tail += 1
    return tail


@kernel
def _survey(board, columns, moves, queue, visit, done, grouped, counter):
    """One pass over a board: its clicks (each group's first coloured cell, every Explode) into
    ``moves``; returns (number of clicks, V, hash, boulders)."""
    cells = board.shape[0]
    counter[0] += 1
    pass_stamp = counter[0]
    total = 0
    count = 0
    boulders = 0
    digest = 0
    for p in range(cells):
        value = board[p]
        if value == 0:
            continue
        boulders += 1
        digest = (digest ^ (p * 256 + value)) * 1099511628211  # FNV-style: order and cell both count
        if (value >> POWER_SHIFT) == EXPLODE:
            moves[count] = p
            count += 1
            continue
        colour = value & COLOUR_BITS
        if colour == 0 or done[p] == pass_stamp:
            continue
        counter[0] += 1
        size = _flood(board, columns, p, queue, visit, counter[0])
        for i in range(size):
            q = queue[i]
            if (board[q] & COLOUR_BITS) == colour:
                done[q] = pass_stamp
            if size >= 2:
                grouped[q] = pass_stamp
        if size >= 2:
            total += _group_score(size)
            moves[count] = p
            count += 1
    left = 0
    for p in range(cells):
        if board[p] != 0 and grouped[p] != pass_stamp:
            left += 1
    return count, total + max(0, 100 - 10 * left), digest, boulders


@kernel
def _click(board, columns, cell, out, queue, visit, counter):
    """Play the click at ``cell`` of ``board`` into ``out`` (removal and fall); returns its points."""
    cells = board.shape[0]
    rows = cells // columns
    counter[0] += 1
    stamp = counter[0]
    value = board[cell]
    points = 0
    if (value >> POWER_SHIFT) == EXPLODE:
        r0 = cell // columns
        c0 = cell % columns
        for r in range(max(0, r0 - 1), min(rows, r0 + 2)):
            for c in range(max(0, c0 - 1), min(columns, c0 + 2)):
                visit[r * columns + c] = stamp
    else:
        size = _flood(board, columns, cell, queue, visit, stamp)
        points = _group_score(size)
        overkill = False
        for i in range(size):
            power = board[queue[i]] >> POWER_SHIFT
            if power == MULTIPLY:
                points = _group_score(size) * 3
            elif power == OVERKILL:
                overkill = True
        if overkill:
            colour = value & COLOUR_BITS
            for p in range(cells):
                if board[p] != 0 and (board[p] & COLOUR_BITS) == colour:
                    visit[p] = stamp
    for c in range(columns):
        write = rows - 1
        for r in range(rows - 1, -1, -1):
            p = r * columns + c
            if board[p] != 0 and visit[p] != stamp:
                out[write * columns + c] = board[p]
                write -= 1
        for r in range(write, -1, -1):
            out[r * columns + c] = 0
    return points


@kernel
def _line_into(layer, slot, parents, clicks, line):
    """Write the clicks that led to beam slot ``slot`` of ``layer`` into ``line``; returns length."""
    length = layer + 1
    for depth in range(layer, -1, -1):
        line[depth] = clicks[depth, slot]
        slot = parents[depth, slot]
    return length


def search_bytes(start: np.ndarray, width: int, per_first: int) -> int:
    """About the memory :func:`beam_search` takes from the flat board ``start``: its arrays are
    sized by the beam's room (width, plus ``per_first`` per first click) times the clicks a line
    can hold, and by the board's cells."""
    cells = int(start.shape[0])
    power = start >> POWER_SHIFT
    extra = 1 + int((power == EXPLODE).sum()) + 4 * int(((power == WILD) | (power == MORPH)).sum())
    coloured = int(((start != 0) & ((start & COLOUR_BITS) != 0) & (power != EXPLODE) & (power != WILD)
                    & (power != MORPH)).sum())
    max_moves = coloured // 2 + extra
    room = width + per_first * max_moves
    per_board = (max_moves * (2 * 8 + 41 + 16)  # parents and clicks; the children; their sort
                 + 16 * 8  # the table of boards seen
                 + 2 * cells * 2 + 4 * 8)  # this layer's and the next layer's boards, points, roots
    return room * per_board + max_moves * max_moves * 8


@kernel
def beam_search(start, columns, width, per_first):
    """Beam search from the flat board ``start``; besides the ``width`` best boards of a layer,
    the ``per_first`` best through each first click are kept (so each gets a line to the end of
    the level, for ranking; 0 when only the plan matters). Returns (best total, its line of cells, the
    first clicks, each first click's best total, its line, whether that line reached the end,
    the number of boards evaluated)."""
    cells = start.shape[0]
    # Clicks a board can offer, and clicks in a line: a group needs two boulders, one of them
    # coloured unless a Wild makes the pair (a Wild touches at most four groups); every Explode
    # is a click. Boards only lose boulders, so the start board's count bounds every board's.
    coloured = 0
    extra = 1
    for p in range(cells):
        power = start[p] >> POWER_SHIFT
        if power == EXPLODE:
            extra += 1
        elif power == WILD or power == MORPH:
            extra += 4
        elif start[p] != 0 and (start[p] & COLOUR_BITS) != 0:
            coloured += 1
    max_moves = coloured // 2 + extra
    queue = np.zeros(cells, np.int64)
    visit = np.zeros(cells, np.int64)
    done = np.zeros(cells, np.int64)
    grouped = np.zeros(cells, np.int64)
    counter = np.zeros(1, np.int64)
    moves = np.zeros(max_moves, np.int64)
    child_moves = np.zeros(max_moves, np.int64)
    scratch = np.zeros(cells, np.int16)

    root_count, value, digest, boulders = _survey(start, columns, moves, queue, visit, done, grouped, counter)
    roots = moves[:root_count].copy()
    root_total = np.full(root_count, -1.0)
    root_ended = np.zeros(root_count, np.bool_)
    root_lines = np.full((root_count, max_moves), -1, np.int64)
    best_total = -1.0
    best_line = np.full(max_moves, -1, np.int64)
    if root_count == 0:
        return float(max(0, 100 - 10 * boulders)), best_line[:0], roots, root_total, root_lines, root_ended, 0

    beam = np.zeros((1, cells), np.int16)
    beam[0] = start
    points_so_far = np.zeros(1, np.int64)
    root_of = np.zeros(1, np.int64)
    limit = width + per_first * root_count
    parents = np.zeros((max_moves, limit), np.int64)
    clicks = np.zeros((max_moves, limit), np.int64)
    line = np.zeros(max_moves, np.int64)
    capacity = limit * max_moves
    child_root = np.zeros(capacity, np.int64)
    chosen = np.zeros(capacity, np.bool_)
    kept_per_first = np.zeros(root_count, np.int64)
    child_value = np.zeros(capacity)
    child_parent = np.zeros(capacity, np.int64)
    child_cell = np.zeros(capacity, np.int64)
    child_hash = np.zeros(capacity, np.int64)
    table_size = 1
    while table_size < 4 * limit:
        table_size *= 2
    table = np.zeros(table_size, np.int64)
    table_stamp = np.zeros(table_size, np.int64)

    layer = 0
    evaluated = 0
    while beam.shape[0] > 0 and layer < max_moves:
        count = 0
        for slot in range(beam.shape[0]):
            board = beam[slot]
            if layer == 0:
                move_count = root_count
                moves[:root_count] = roots
            else:
                move_count = _survey(board, columns, moves, queue, visit, done, grouped, counter)[0]
            for m in range(move_count):
                points = _click(board, columns, moves[m], scratch, queue, visit, counter)
                after_moves, value, digest, boulders = _survey(scratch, columns, child_moves, queue, visit, done,
                                                               grouped, counter)
                total = points_so_far[slot] + points
                root = m if layer == 0 else root_of[slot]
                if after_moves == 0:  # the level ends on this click: its real end bonus
                    final = float(total + max(0, 100 - 10 * boulders))
                    if final > root_total[root] or not root_ended[root]:
                        root_total[root] = final
                        root_ended[root] = True
                        length = _line_into(layer - 1, slot, parents, clicks, line) if layer > 0 else 0
                        root_lines[root, :] = -1
                        root_lines[root, :length] = line[:length]
                        root_lines[root, length] = moves[m]
                    if final > best_total:
                        best_total = final
                        length = _line_into(layer - 1, slot, parents, clicks, line) if layer > 0 else 0
                        best_line[:] = -1
                        best_line[:length] = line[:length]
                        best_line[length] = moves[m]
                    continue
                estimate = float(total + value)
                if not root_ended[root] and estimate > root_total[root]:
                    root_total[root] = estimate
                    length = _line_into(layer - 1, slot, parents, clicks, line) if layer > 0 else 0
                    root_lines[root, :] = -1
                    root_lines[root, :length] = line[:length]
                    root_lines[root, length] = moves[m]
                child_value[count] = estimate
                child_parent[count] = slot
                child_cell[count] = moves[m]
                child_hash[count] = digest
                child_root[count] = root
                count += 1
        evaluated += count
        if count == 0:
            break
        order = np.argsort(-child_value[:count], kind="mergesort")
        kept = np.zeros(min(limit, count), np.int64)
        taken = 0
        kept_per_first[:] = 0
        # first the best few through each first click (a board counts once per first click), then
        # the best of the rest up to the limit (a board counts once)
        chosen[:count] = False
        for sweep in range(2 if per_first > 0 else 1):
            last = sweep == 1 or per_first == 0
            stamp = 2 * layer + 1 + sweep
            if last:
                for i in range(taken):  # the boards the first sweep kept are taken already
                    _claim(child_hash[kept[i]], table, table_stamp, stamp)
            for i in range(count):
                if taken == kept.shape[0] or (last and taken >= limit):
                    break
                candidate = order[i]
                if chosen[candidate] or (not last and kept_per_first[child_root[candidate]] >= per_first):
                    continue
                key = child_hash[candidate] if last else child_hash[candidate] ^ ((child_root[candidate] + 1)
                                                                                  * 0x5851F42D4C957F2D)
                if not _claim(key, table, table_stamp, stamp):
                    continue
                chosen[candidate] = True
                kept[taken] = candidate
                kept_per_first[child_root[candidate]] += 1
                taken += 1
        next_beam = np.zeros((taken, cells), np.int16)
        next_points = np.zeros(taken, np.int64)
        next_root = np.zeros(taken, np.int64)
        for i in range(taken):
            candidate = kept[i]
            slot = child_parent[candidate]
            gained = _click(beam[slot], columns, child_cell[candidate], next_beam[i], queue, visit, counter)
            next_points[i] = points_so_far[slot] + gained
            if layer == 0:
                next_root[i] = _root_index(roots, child_cell[candidate])
            else:
                next_root[i] = root_of[slot]
            parents[layer, i] = slot
            clicks[layer, i] = child_cell[candidate]
        beam = next_beam
        points_so_far = next_points
        root_of = next_root
        layer += 1
    return best_total, best_line, roots, root_total, root_lines, root_ended, evaluated


@kernel
def _claim(key, table, table_stamp, stamp):
    """Enter ``key`` in the open-addressing ``table`` for this ``stamp``; False if it is there."""
    size = table.shape[0]
    h = key & (size - 1)
    while table_stamp[h] == stamp:
        if table[h] == key:
            return False
        h = (h + 1) & (size - 1)
    table_stamp[h] = stamp
    table[h] = key
    return True


@kernel
def _root_index(roots, cell):
    for i in range(roots.shape[0]):
        if roots[i] == cell:
            return i
    return -1
