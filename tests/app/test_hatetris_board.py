"""The HATETRIS board's pieces without a window: which placement a cell or the ghost cursor
means, what a turn flashes, the status-bar words and the panel's labels.

Expected placements and cells are worked out by hand from the piece table (shared/specs/hatetris.md
1.2: S o=0 is cells (2,1) (3,1) (1,2) (2,2) of its box, S o=1 is (1,1) (1,2) (2,2) (2,3), O is
(1,1) (2,1) (1,2) (2,2)) and the spawn (1.3: x=3, y=0, o=0).
"""

from __future__ import annotations

import types

from app.gui.games.hatetris import advice
from app.gui.games.hatetris.placements import (
    compact_keys,
    cursor_lower,
    cursor_rotate,
    cursor_start,
    cursor_step,
    placement_cells,
    placements_covering,
    rank_by_cells,
    spawn_cells,
    turn_marks,
)
from app.gui.games.hatetris.text import describe, summarize_turn
from engines.hatetris import GAME, GameEnded, LinesCleared, PieceLocked, PieceSent, Placement


def candidate(move: Placement, **fields):
    defaults = dict(score=0.0, loss=0.0, explanation="", warnings=(), lines=0, next_piece="S",
                    well_after=(), keys="", terms=(), game_over=False)
    return types.SimpleNamespace(move=move, **{**defaults, **fields})


def test_cells_of_a_placement_and_of_the_spawned_piece():
    assert placement_cells(Placement("S", 6, 17, 0)) == ((8, 18), (9, 18), (7, 19), (8, 19))
    assert set(spawn_cells(GAME.initial_state())) == {(5, 1), (6, 1), (4, 2), (5, 2)}


def test_a_cell_means_the_lowest_placement_covering_it_unless_the_advisor_ranks_another():
    state = GAME.initial_state()
    moves = GAME.legal_moves(state)
    # (9,18) on the empty well: the flat S at the wall (rows 18-19) or the upright one (rows 17-19)
    covering = placements_covering((9, 18), moves)
    assert covering[0] == Placement("S", 6, 17, 0)
    upright = {frozenset(placement_cells(m)) for m in covering[1:]}
    assert frozenset({(8, 17), (8, 18), (9, 18), (9, 19)}) in upright
    # O-like twins are listed once: S o=1 at x=7 and S o=3 at x=7 one row lower cover the same cells
    assert len(covering) == len({frozenset(placement_cells(m)) for m in covering})
    ranked = [candidate(Placement("S", 7, 16, 1)), candidate(Placement("S", 6, 17, 0))]
    assert placements_covering((9, 18), moves, rank_by_cells(ranked))[0] == Placement("S", 7, 16, 1)


def test_the_ghost_cursor_walks_columns_turns_and_stops_at_the_walls():
    moves = GAME.legal_moves(GAME.initial_state())
    start = cursor_start(moves, spawn_x=3)
    assert start == Placement("S", 3, 17, 0)  # dropped straight down from the spawn
    assert cursor_step(moves, start, -1) == Placement("S", 2, 17, 0)
    wall = Placement("S", 6, 17, 0)  # cells reach column 9
    assert cursor_step(moves, wall, 1) == wall
    assert cursor_step(moves, Placement("S", -1, 17, 0), -1) == Placement("S", -1, 17, 0)
    assert cursor_rotate(moves, start) == Placement("S", 3, 16, 1)  # upright: bottom cell on row 19
    assert cursor_lower(moves, start) == start  # the empty well has one height per column


def test_the_cursor_slides_under_an_overhang():
    # a roof over columns 0-3 on row 17; an O can rest on it or be slid under it
    board = "score 0 · next O\n" + "\n".join(["." * 10] * 17 + ["####......", "." * 10, "." * 10])
    state = GAME.parse_board(board)
    moves = GAME.legal_moves(state)
    on_roof = Placement("O", -1, 14, 0)  # cells (0,15) (1,15) (0,16) (1,16)
    under = Placement("O", -1, 17, 0)  # cells (0,18) (1,18) (0,19) (1,19)
    assert on_roof in moves and under in moves
    cursor = cursor_step(moves, Placement("O", 0, 14, 0), -1)
    assert cursor == on_roof
    assert cursor_lower(moves, cursor) == under
    assert cursor_lower(moves, under) == on_roof


def test_a_turn_marks_the_locked_piece_where_it_is_after_the_clear():
    # a J locked in rows 17-19 whose middle row (18) was cleared: the top cell moves down one row
    events = (
        PieceLocked("J", 0, 16, 0, ((1, 17), (2, 17), (1, 18), (1, 19))),
        LinesCleared((18,), 1),
        PieceSent("Z", (18,) * 7, (0,) * 7, True),
    )
    marks = turn_marks(events)
    assert marks.cleared_rows == (18,)
    assert set(marks.locked) == {(1, 18), (2, 18), (1, 19)}
    assert summarize_turn(events) == "J locked at (0,16,0): 1 line · AI sends Z (loop rule)"
    assert not turn_marks(())


def test_status_words():
    start = GAME.initial_state()
    assert describe(GAME, start) == "score 0 · 0 pieces · next S · 34 placements"
    step = GAME.play(start, Placement("S", 6, 17, 0))
    assert summarize_turn(step.events) == "S locked at (6,17,0) · AI sends S"
    ending = (PieceLocked("S", 3, 1, 0, ((5, 2), (6, 2), (4, 3), (5, 3))), GameEnded(0))
    assert summarize_turn(ending) == "S locked at (3,1,0) · above the bar: game over at 0 lines"


def test_panel_labels_badges_and_colours():
    flat = candidate(Placement("S", 6, 17, 0), next_piece="Z")
    assert advice.candidate_label(flat) == "S cols 7–9 rot 0"
    assert advice.badge_text(flat) == "→ Z"
    assert advice.candidate_color(flat) is None
    assert advice.next_text(flat) == "Z"
    line = candidate(Placement("I", 0, 18, 0), lines=1, next_piece="O")
    assert advice.candidate_label(line) == "I cols 0–3 rot 0"
    assert advice.badge_text(line) == "→ O +1"
    assert advice.candidate_color(line) == advice.LINE_RGB[1]
    upright = candidate(Placement("I", 7, 16, 1), next_piece=None, game_over=True)
    assert advice.candidate_label(upright) == "I col 9 rot 1"
    assert advice.badge_text(upright) == "✕ over"
    assert advice.candidate_color(upright) == advice.GAME_OVER_RGB
    assert advice.next_text(upright) == "–"
    high = candidate(Placement("S", 6, 17, 0), well_after=(0,) * 15 + (1, 1, 1, 1, 1))
    assert advice.height_text(high) == "5"


def test_key_paths_are_written_short():
    # trace_df86 pieces 0 and 1: RRR then 18 Downs; U RRRR then 15 Downs
    assert compact_keys("RRR" + "D" * 18) == "R3 ↓"
    assert compact_keys("URRRR" + "D" * 15) == "U R4 ↓"
    assert compact_keys("D" * 18) == "↓"
    assert compact_keys("LL" + "D" * 14 + "RRD") == "L2 D14 R2 ↓"
