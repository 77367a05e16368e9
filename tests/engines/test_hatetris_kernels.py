"""The packed-row HATETRIS kernels (engines/hatetris/kernel.py) against the plain rules, and the
beam search that runs on them.

The wells: every well the AI was called with in the archived HATETRIS record games
(shared/data/hatetris/records_decoded.tsv, replayed by keys, each placement locked by the
plain-Python rules of engines/hatetris/reference.py), and random wells of every size. At each,
the fast kernels (``ai_piece``, ``children_of_well``, ``choose_piece``, ``resting_positions``)
must give the piece the plain rules choose and the same child wells, as a set and without repeats.
The plain rules' choice is ``reference.choose_piece`` itself; on the 2,503 record wells its
resting positions come from the state-by-state breadth-first search compiled
(``kernel.resting_positions_bfs``), which is checked against ``reference.resting_positions`` on a
sample of those wells and on every random well (the plain-Python search of all 2,503 wells would
take minutes).
"""

from __future__ import annotations

import random

import numpy as np
import pytest

from advisors.hatetris.beam import BeamSearch, BeamSettings
from engines.contract import Line
from engines.hatetris import DEFAULT_RULES, GAME, Placement, Rules, kernel, reference

PIECE_COUNT = 7


@pytest.fixture(scope="module")
def record_wells(reference_data) -> list[tuple[int, ...]]:
    """Every well the AI was called with in the HATETRIS (not Mild) record games."""
    header, *lines = (reference_data / "hatetris" / "records_decoded.tsv").read_text(encoding="utf-8").splitlines()
    names = header.split("\t")
    wells = []
    for line in lines:
        row = dict(zip(names, line.split("\t"), strict=True))
        if row["enemy_ai"] != "HATETRIS":
            continue
        well = (0,) * DEFAULT_RULES.depth
        for move in GAME.replay_keys(row["keys"]).placements:
            _, well, _, over = reference.lock(well, DEFAULT_RULES, move.piece_index, move.x, move.y, move.o)
            if over:
                break
            wells.append(well)
    return wells


def _searched_positions(well: tuple[int, ...], rules: Rules, piece: int) -> list[tuple[int, int, int]]:
    """The resting positions of the state-by-state breadth-first search, compiled."""
    out = np.empty((kernel.MAX_RESTING, 3), dtype=np.int64)
    found = kernel.resting_positions_bfs(np.array(well, dtype=np.int64), rules.width, rules.depth, piece, out)
    return [tuple(int(v) for v in position) for position in out[:found]]


def _plain_children(well: tuple[int, ...], rules: Rules, piece: int, positions) -> set:
    """(lines cleared, well) of every placement that does not end the game, by the plain rules."""
    children = set()
    for x, y, o in positions:
        _, after, cleared, over = reference.lock(well, rules, piece, x, y, o)
        if not over:
            children.add((len(cleared), after))
    return children


def _fast(well: tuple[int, ...], rules: Rules):
    """The fast kernels' (choose_piece, ai_piece, children_of_well) answers for ``well``: the
    three pieces, choose_piece's peaks, and the child wells as a list."""
    array = np.array(well, dtype=np.int64)
    table = np.zeros(16, dtype=np.int64)
    no_wells = np.zeros((1, rules.depth), dtype=np.int64)
    no_counts = np.zeros(1, dtype=np.int64)
    peaks = np.zeros(PIECE_COUNT, dtype=np.int64)
    loops = np.zeros(PIECE_COUNT, dtype=np.int64)
    chosen = kernel.choose_piece(array, rules.width, rules.depth, rules.mild, table, no_wells, no_counts, no_counts,
                                 peaks, loops)
    scratch = kernel.well_scratch(rules.depth)
    alone = kernel.ai_piece(array, rules.width, rules.depth, scratch)
    children = np.empty((kernel.MAX_RESTING, rules.depth), dtype=np.int64)
    lines = np.empty(kernel.MAX_RESTING, dtype=np.int64)
    piece, count = kernel.children_of_well(array, rules.width, rules.depth, scratch, children, lines)
    made = [(int(lines[i]), tuple(int(v) for v in children[i])) for i in range(count)]
    return (int(chosen), int(alone), int(piece)), tuple(int(p) for p in peaks), made


def test_the_fast_kernels_choose_the_plain_rules_piece_and_children_on_every_record_well(record_wells,
                                                                                         monkeypatch):
    assert len(record_wells) == 2503
    monkeypatch.setattr(reference, "resting_positions", _searched_positions)
    for index, well in enumerate(record_wells):
        piece, peaks, _ = reference.choose_piece(well, DEFAULT_RULES, {})
        pieces, fast_peaks, children = _fast(well, DEFAULT_RULES)
        assert pieces == (piece, piece, piece), index
        assert fast_peaks == peaks, index
        assert len(children) == len(set(children)), index
        assert set(children) == _plain_children(well, DEFAULT_RULES, piece, _searched_positions(well, DEFAULT_RULES,
                                                                                               piece)), index


def test_the_compiled_search_and_the_packed_one_find_the_plain_rules_positions(record_wells):
    positions = np.empty((kernel.MAX_RESTING, 3), dtype=np.int64)
    for index, well in enumerate(record_wells[::60]):
        array = np.array(well, dtype=np.int64)
        for piece in range(PIECE_COUNT):
            expected = set(reference.resting_positions(well, DEFAULT_RULES, piece))
            assert set(_searched_positions(well, DEFAULT_RULES, piece)) == expected, (index, piece)
            found = kernel.resting_positions(array, 10, 20, piece, positions)
            assert {tuple(p) for p in positions[:found].tolist()} == expected, (index, piece)


def _random_well(generator: random.Random, width: int, depth: int) -> tuple[int, ...]:
    """Rows below the bar filled at random from some height down (holes, overhangs and shafts
    included); the buffer and the rows above the stack empty."""
    rows = [0] * depth
    top = generator.randrange(4, depth + 1)
    density = generator.uniform(0.2, 0.9)
    for row in range(top, depth):
        rows[row] = sum(1 << x for x in range(width) if generator.random() < density)
    if generator.random() < 0.5 and top < depth:  # rows a piece can complete
        row = generator.randrange(top, depth)
        gap = generator.sample(range(width), generator.randint(1, 4))
        rows[row] = ((1 << width) - 1) & ~sum(1 << x for x in gap)
    return tuple(rows)


@pytest.mark.parametrize("width", [4, 5, 7, 8, 10, 12, 13, 16])
def test_the_fast_kernels_agree_with_the_plain_rules_on_random_wells(width):
    generator = random.Random(width)
    positions = np.empty((kernel.MAX_RESTING, 3), dtype=np.int64)
    for case in range(12):
        depth = generator.randint(8, 22)
        rules = Rules(enemy="mild", width=width, depth=depth)
        well = _random_well(generator, width, depth)
        array = np.array(well, dtype=np.int64)
        for piece in range(PIECE_COUNT):
            expected = reference.resting_positions(well, rules, piece)
            found = kernel.resting_positions(array, width, depth, piece, positions)
            assert {tuple(p) for p in positions[:found].tolist()} == set(expected), (case, piece)
        piece, peaks, _ = reference.choose_piece(well, rules, {})
        array = np.array(well, dtype=np.int64)
        table = np.zeros(16, dtype=np.int64)
        fast_peaks = np.zeros(PIECE_COUNT, dtype=np.int64)
        loops = np.zeros(PIECE_COUNT, dtype=np.int64)
        assert kernel.choose_piece(array, width, depth, True, table, np.zeros((1, depth), dtype=np.int64),
                                   np.zeros(1, dtype=np.int64), np.zeros(1, dtype=np.int64), fast_peaks,
                                   loops) == piece, case
        assert tuple(int(p) for p in fast_peaks) == peaks, case
        if width <= kernel.PACKED_WIDTH:
            pieces, _, children = _fast(well, rules)
            assert pieces[1:] == (piece, piece), case
            assert len(children) == len(set(children)), case
            assert set(children) == _plain_children(well, rules, piece,
                                                    reference.resting_positions(well, rules, piece)), case


# The best line of a 300-wide beam from the empty well, a regression pin: as the search found it
# when holes came to count down to the surface row only (the packed kernels' speed-ups must not
# change it); the plain rules play it to its 14 lines below.
BEAM_300_LINE = (
    "S6,17,0 S4,17,0 S2,17,0 S-1,16,1 I7,14,1 I5,15,2 S1,16,0 I6,14,1 I4,15,2 S0,16,0 I7,12,1 I7,8,1 "
    "I7,4,1 I5,14,1 I3,15,2 I4,13,1 I-2,16,1 S0,15,0 S-1,14,1 S-1,12,1 S6,12,1 S3,12,0 I6,10,1 T5,10,2 "
    "T3,14,1 S1,14,0 S1,13,0 Z7,4,1 Z-1,13,0 S5,11,1 S2,13,0 O-1,12,0 S3,10,1 S1,12,0 O7,4,0 O6,11,0 "
    "O6,9,0 O4,10,0 O-1,11,0 S1,10,0 S4,9,0 S2,8,1 S0,10,0 S3,7,1 S-1,9,0 S7,3,1 S5,8,0 S4,7,0 S5,5,0 "
    "S3,5,1 S-1,7,1 S1,7,0 S0,7,0 S4,6,0 S3,5,0 S1,5,0 S-1,7,0 L5,4,1 S7,4,1 S-1,6,0 S7,3,1 S2,5,0 S0,5,0 "
    "S-1,4,0 S4,5,0 S1,3,0 S2,4,0 S5,3,0 S-1,3,0"
)


def test_a_300_wide_beam_from_the_empty_well_finds_the_same_line():
    result = BeamSearch(Line(GAME.initial_state(), ()), BeamSettings(width=300)).run()
    line = " ".join(f"{m.piece}{m.x},{m.y},{m.o}" for m in result.line.moves)
    assert (result.score, result.pieces, line) == (14, 69, BEAM_300_LINE)
    # and the plain rules play that line to 14 lines
    state = GAME.initial_state()
    for text in BEAM_300_LINE.split():
        x, y, o = (int(v) for v in text[1:].split(","))
        state = GAME.reference_play(state, Placement(text[0], x, y, o)).state
    assert state.score == 14
