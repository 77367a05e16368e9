"""The seam between HATETRIS's friendly values and the numba kernel."""

from __future__ import annotations

import dataclasses
import functools

import numpy as np

from engines.contract import Step
from engines.hatetris import kernel
from engines.hatetris.pieces import PIECES
from engines.hatetris.reference import KEYS, turn
from engines.hatetris.state import Memory, Placement, Rules, State

KEY_CODES = {key: code for code, key in enumerate(KEYS)}


def well_array(well: tuple[int, ...]) -> np.ndarray:
    return np.array(well, dtype=np.int64)


@functools.lru_cache(maxsize=256)
def resting_positions(well: tuple[int, ...], rules: Rules, piece: int) -> tuple[tuple[int, int, int], ...]:
    """Every reachable resting (x, y, o) of ``piece``, in the kernel's search order."""
    out = np.empty((kernel.MAX_RESTING, 3), dtype=np.int64)
    found = kernel.resting_positions(well_array(well), rules.width, rules.depth, piece, out)
    return tuple((int(x), int(y), int(o)) for x, y, o in out[:found])


def fits(well: tuple[int, ...], rules: Rules, piece: int, x: int, y: int, o: int) -> bool:
    return bool(kernel.fits(well_array(well), rules.width, rules.depth, piece, x, y, o))


@dataclasses.dataclass
class MemoryTable:
    """The kernel's hash table of seen wells."""

    table: np.ndarray
    wells: np.ndarray
    hashes: np.ndarray
    counts: np.ndarray

    @classmethod
    def of(cls, wells: list[tuple[int, ...]], depth: int) -> MemoryTable:
        capacity = kernel.memory_capacity(len(wells))
        memory = cls(np.zeros(capacity, dtype=np.int64), np.zeros((len(wells) + 1, depth), dtype=np.int64),
                     np.zeros(len(wells) + 1, dtype=np.int64), np.zeros(len(wells) + 1, dtype=np.int64))
        if wells:
            kernel.memory_from_wells(np.array(wells, dtype=np.int64), depth, memory.table, memory.wells,
                                     memory.hashes, memory.counts)
        return memory


def choose_piece(well: tuple[int, ...], rules: Rules, memory: Memory | None):
    """(piece index, peaks, loops) of the AI for ``well``; ``memory`` includes ``well`` itself."""
    relevant: list[tuple[int, ...]] = []
    if memory is not None and not rules.mild:
        # A future can only equal a well seen a multiple of ``repeat_period`` pieces earlier (4
        # cells per piece, a row's width per line), so only those are passed on.
        period = rules.repeat_period
        residue = (memory.pieces + 1) % period
        relevant = [link.well for link in memory.links() if link.pieces % period == residue]
    table = MemoryTable.of(relevant, rules.depth)
    peaks = np.zeros(7, dtype=np.int64)
    loops = np.zeros(7, dtype=np.int64)
    piece = kernel.choose_piece(well_array(well), rules.width, rules.depth, rules.mild, table.table,
                                table.wells, table.hashes, table.counts, peaks, loops)
    return int(piece), tuple(int(p) for p in peaks), tuple(int(n) for n in loops)


def start(rules: Rules) -> State:
    well = (0,) * rules.depth
    memory = Memory(well, 0)
    piece, _, _ = choose_piece(well, rules, memory)
    return State(well, 0, PIECES[piece], rules, memory)


def play(state: State, move: Placement) -> Step:
    return turn(state, move, resting_positions, fits, choose_piece)


@dataclasses.dataclass(frozen=True)
class KeyReplay:
    """A key sequence played from the start as the official game plays it."""

    placements: tuple[Placement, ...]
    pieces: str  # every piece the AI sent, one letter per spawn
    peaks: np.ndarray  # (spawns, 7): the AI's peaks before each spawn
    loops: np.ndarray  # (spawns, 7)
    lines: tuple[int, ...]  # per placement, -1 for the lock that ended the game
    keys_used: int  # keys before game over (the rest are ignored)
    score: int
    over: bool
    well: tuple[int, ...]
    live: tuple[int, int, int] | None  # where the last piece stands when the game goes on


def replay_keys(keys: str, rules: Rules) -> KeyReplay:
    """Play ``keys`` (letters L R D U; anything else raises KeyError) from the start."""
    codes = np.fromiter((KEY_CODES[key] for key in keys), dtype=np.int64, count=len(keys))
    rows = len(keys) + 2
    placements = np.zeros((rows, 5), dtype=np.int64)
    sent = np.zeros(rows, dtype=np.int64)
    peaks = np.zeros((rows, 7), dtype=np.int64)
    loops = np.zeros((rows, 7), dtype=np.int64)
    well = np.zeros(rules.depth, dtype=np.int64)
    used, spawned, locked, score, over, x, y, o = kernel.replay_keys(
        codes, rules.width, rules.depth, rules.mild, placements, sent, peaks, loops, well)
    return KeyReplay(
        placements=tuple(Placement(PIECES[p], int(px), int(py), int(po)) for p, px, py, po, _ in placements[:locked]),
        pieces="".join(PIECES[p] for p in sent[:spawned]),
        peaks=peaks[:spawned].copy(),
        loops=loops[:spawned].copy(),
        lines=tuple(int(n) for n in placements[:locked, 4]),
        keys_used=int(used),
        score=int(score),
        over=bool(over),
        well=tuple(int(row) for row in well),
        live=None if over else (int(x), int(y), int(o)),
    )


def key_path(state: State, move: Placement) -> str:
    """The shortest keys from spawn that lock the piece at ``move`` (ending with the locking D);
    raises ValueError when the placement cannot be reached."""
    out = np.empty(state.rules.depth * (state.rules.width + kernel.X_OFFSET) * 4 + 1, dtype=np.int64)
    length = kernel.key_path(well_array(state.well), state.rules.width, state.rules.depth, move.piece_index,
                             move.x, move.y, move.o, out)
    if length < 0:
        raise ValueError(f"{move} cannot be reached from the spawn")
    return "".join(KEYS[code] for code in out[:length])
