"""Exhaustive breadth-first search of small HATETRIS wells (spec 3.10).

The setting of David & Felipe's small-well tables: a well ``width`` columns wide with ``height``
playable rows below the bar (the 4 buffer rows are added above, so ``Rules(enemy="mild",
width=width, depth=height + 4)``), spawn x = (width - 4) // 2, and the enemy AI **without** loop
prevention (HATETRIS Mild, no memory). The states of one depth are the distinct (well, score)
pairs after that many placements that leave the game alive; the children of a state are every
resting placement of the one piece the Mild AI sends in its well, game-ending placements dropped.

What is counted (found by experiment against ``data/hatetris/small_well_bfs.tsv``, whose
``rerun_*`` columns this reproduces exactly, see ``tests/advisors/test_hatetris_exhaustive.py``):

- depth 0 is the empty well alone and **counts as one state** of ``total_states`` (for example the
  4 x 2 well: 1 state at depth 0 + 2 at depth 1 = 3; length 1, width 2);
- ``max_width`` is the largest number of distinct states at one depth, depth 0 included;
- ``length`` is the deepest depth that still has a live state, ``score`` the best score of any
  live state at any depth;
- states are de-duplicated per depth only: a well met again at a later depth is searched again.
  (At a fixed depth the score follows from the well -- 4 cells per piece, 10 per line -- so
  de-duplicating by well or by (well, score) gives the same counts.)

The per-depth expansion runs in one numba kernel that calls the engine's own kernels
(``choose_piece`` with an empty memory, ``resting_positions`` and ``lock``), so the rules are the
engine's. Note: numba's on-disk cache does not notice edits to ``engines/hatetris/kernel.py``;
after changing that file, clear this module's ``__pycache__`` numba files.

>>> breadth_first(5, 4).score
1
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable

import numpy as np

from engines import limits
from engines.hatetris.kernel import BAR, MAX_RESTING, PIECE_COUNT, choose_piece, lock, resting_positions
from engines.hatetris.state import Rules
from engines.jit import kernel

#: ``progress(depth, states at that depth, states so far)`` after each finished depth.
Progress = Callable[[int, int, int], None]

_FIRST_CAPACITY = 1024


@dataclasses.dataclass(frozen=True)
class SmallWellResult:
    """The outcome of an exhaustive search of a ``width`` x ``height`` well (spec 3.10).

    ``per_depth_widths[d]`` is the number of distinct live (well, score) states after d
    placements, from depth 0 (the empty well, 1 state) to depth ``length``. ``complete`` is False
    when ``max_depth`` stopped the search while live states remained (the 4-wide wells from height
    4 up never end without loop prevention)."""

    score: int
    length: int
    max_width: int
    total_states: int
    per_depth_widths: tuple[int, ...]
    complete: bool = True


def key_layout(width: int, height: int) -> tuple[int, int]:
    """(rows per 64-bit word, words per well) of the packed playable rows."""
    rows_per_word = 64 // width
    return rows_per_word, -(-height // rows_per_word)


@kernel
def _pack(well, width, depth, rows_per_word, key):
    """Write the playable rows (BAR .. depth - 1) of ``well`` into ``key[:words]``."""
    words = key.shape[0] - 1
    for word in range(words):
        key[word] = 0
    for row in range(BAR, depth):
        index = row - BAR
        key[index // rows_per_word] |= well[row] << ((index % rows_per_word) * width)


@kernel
def _unpack(key, width, depth, rows_per_word, well):
    mask = (np.int64(1) << width) - 1
    for row in range(BAR):
        well[row] = 0
    for row in range(BAR, depth):
        index = row - BAR
        well[row] = (key[index // rows_per_word] >> ((index % rows_per_word) * width)) & mask


@kernel
def _key_hash(key):
    value = np.int64(-7046029254386353131)
    for column in range(key.shape[0]):
        value = (value ^ key[column]) * np.int64(-4658895280553007687)
        value ^= (value >> 29) & np.int64(0x7FFFFFFFF)
    return value


@kernel
def _same(keys, row, key):
    for column in range(key.shape[0]):
        if keys[row, column] != key[column]:
            return False
    return True


@kernel
def _rehashed(keys, stored, table_size):
    table = np.zeros(table_size, dtype=np.int64)
    mask = table_size - 1
    for row in range(stored):
        slot = _key_hash(keys[row]) & mask
        while table[slot] != 0:
            slot = (slot + 1) & mask
        table[slot] = row + 1
    return table


@kernel
def expand_depth(frontier, width, depth, rows_per_word, limit):
    """Every distinct live child (packed well words + score) of the states in ``frontier``, and
    whether there were more than ``limit`` (then the children stop at ``limit``).

    Each row of ``frontier`` is a packed well followed by its score. Returns the children as a
    new array of the same layout, in order of first appearance.
    """
    columns = frontier.shape[1]
    words = columns - 1
    capacity = min(max(_FIRST_CAPACITY, 2 * frontier.shape[0]), limit + 1)
    keys = np.empty((capacity, columns), dtype=np.int64)
    table_size = 1
    while table_size < 2 * capacity:
        table_size *= 2
    table = np.zeros(table_size, dtype=np.int64)
    stored = 0

    well = np.zeros(depth, dtype=np.int64)
    after = np.zeros(depth, dtype=np.int64)
    key = np.zeros(columns, dtype=np.int64)
    positions = np.empty((MAX_RESTING, 3), dtype=np.int64)
    # An empty memory: the Mild AI never looks at it.
    memory_table = np.zeros(16, dtype=np.int64)
    memory_wells = np.zeros((1, depth), dtype=np.int64)
    memory_hashes = np.zeros(1, dtype=np.int64)
    memory_counts = np.zeros(1, dtype=np.int64)
    peaks = np.zeros(PIECE_COUNT, dtype=np.int64)
    loops = np.zeros(PIECE_COUNT, dtype=np.int64)

    for state in range(frontier.shape[0]):
        _unpack(frontier[state], width, depth, rows_per_word, well)
        score = frontier[state, words]
        piece = choose_piece(well, width, depth, True, memory_table, memory_wells, memory_hashes,
                             memory_counts, peaks, loops)
        found = resting_positions(well, width, depth, piece, positions)
        for index in range(found):
            lines = lock(well, width, depth, piece, positions[index, 0], positions[index, 1],
                         positions[index, 2], after)
            if lines < 0:
                continue  # the placement ends the game
            _pack(after, width, depth, rows_per_word, key)
            key[words] = score + lines
            mask = table_size - 1
            slot = _key_hash(key) & mask
            duplicate = False
            while table[slot] != 0:
                if _same(keys, table[slot] - 1, key):
                    duplicate = True
                    break
                slot = (slot + 1) & mask
            if duplicate:
                continue
            if stored == limit:
                return keys[:stored].copy(), True
            if stored == capacity:
                capacity = min(2 * capacity, limit + 1)
                grown = np.empty((capacity, columns), dtype=np.int64)
                grown[:stored] = keys[:stored]
                keys = grown
            keys[stored] = key
            table[slot] = stored + 1
            stored += 1
            if 2 * stored > table_size:
                table_size *= 2
                table = _rehashed(keys, stored, table_size)
    return keys[:stored].copy(), False


def states_within(max_bytes: int, words: int) -> int:
    """The most states of one depth that ``max_bytes`` holds while the next depth is built: the
    frontier and the children (a row of ``words`` + 1 int64 each, the children's array briefly
    twice while it grows) and the children's hash table (two int64 slots a state, twice while
    rehashed)."""
    per_state = 8 * (words + 1) * 3 + 8 * 2 * 2
    return max(1, int(max_bytes // per_state))


def breadth_first(width: int, height: int, max_depth: int | None = None,
                  progress: Progress | None = None, max_bytes: int = limits.MAX_MEMORY_BYTES) -> SmallWellResult:
    """Search every game in a ``width`` x ``height`` well against the Mild AI, depth by depth.

    ``max_depth`` stops after that many placements (needed for the 4-wide wells from height 4 up,
    which never end); ``progress`` is told about each finished depth. A depth with more states
    than ``max_bytes`` holds (:func:`states_within`) stops the search with a KibitzInputError
    naming the depth, before more memory is taken.
    """
    rules = Rules(enemy="mild", width=width, depth=height + BAR)
    rows_per_word, words = key_layout(width, height)
    limit = states_within(max_bytes, words)

    def expand(frontier: np.ndarray, depth: int) -> np.ndarray:
        children, over = expand_depth(frontier, rules.width, rules.depth, rows_per_word, limit)
        if over:
            raise limits.KibitzInputError(
                f"the {width} x {height} well has more than {limit:,} states at depth {depth}: holding them "
                f"would take over the limit of {limits.shown_bytes(max_bytes)}; lower the height or the depth")
        return children

    frontier = np.zeros((1, words + 1), dtype=np.int64)  # the empty well, score 0
    widths = [1]
    best = 0
    if progress is not None:
        progress(0, 1, 1)
    while max_depth is None or len(widths) - 1 < max_depth:
        children = expand(frontier, len(widths))
        if children.shape[0] == 0:
            break
        frontier = children
        widths.append(int(children.shape[0]))
        best = max(best, int(children[:, words].max()))
        if progress is not None:
            progress(len(widths) - 1, widths[-1], sum(widths))
    else:
        # Stopped by max_depth: complete only if the last depth has no live child.
        complete = expand(frontier, len(widths)).shape[0] == 0
        return SmallWellResult(best, len(widths) - 1, max(widths), sum(widths), tuple(widths), complete)
    return SmallWellResult(best, len(widths) - 1, max(widths), sum(widths), tuple(widths), True)
