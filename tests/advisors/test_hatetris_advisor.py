"""The HATETRIS advisor: heuristic terms on hand-worked wells, the ranked placements, and the
beam search (against the exact small-well optimum of spec 3.10, checkpoints, the exported replay)."""

from __future__ import annotations

import csv
import functools

import pytest

from advisors.hatetris import MAX_LOOKAHEAD
from advisors.hatetris.beam import BeamSearch, BeamSettings
from advisors.hatetris.heuristic import BEAM_WEIGHTS, DF_WEIGHTS, heuristic_terms, rank, value
from engines.contract import Line
from engines.hatetris import DEFAULT_RULES, GAME, PieceSent, Rules, codecs
from engines.hatetris import reference


def well_of(rows_from_bottom: dict[int, str]) -> tuple[int, ...]:
    """A 20-row well from strings of '#'/'.' keyed by row number (19 = bottom)."""
    well = [0] * 20
    for row, text in rows_from_bottom.items():
        well[row] = sum(1 << x for x, char in enumerate(text) if char == "#")
    return tuple(well)


def test_terms_after_the_first_s_of_the_86_game():
    # S locked at (6,17,0): cells (8,18) (9,18) (7,19) (8,19) (trace_df86 row 0). Column 9 of the
    # bottom row is covered by (9,18): one hole, enclosed (its only neighbours are filled or the
    # wall), on one line. The probe still reaches the bottom row in columns 0-6; no line can clear.
    # An S covers every other empty cell of rows 18-19 (flat in row 19/18, standing for (18,0)),
    # so the S probe too reaches the bottom row. Edge columns: the left one is empty (0), the
    # right one is filled from row 18, 2 rows above the floor.
    terms = dict(heuristic_terms(well_of({18: "........##", 19: ".......##."}), 0))
    assert terms == {"holes": 1, "enclosed holes": 1, "enclosed-hole lines": 1, "surface depth": 19,
                     "erasable pieces": 0, "score": 0, "stack height": 2, "cells S cannot reach": 1,
                     "S surface depth": 19, "edge column heights": 2, "surface depth after one clear": 19}


def test_an_s_probe_stops_above_a_shaft_a_one_cell_probe_goes_down():
    # Tim's terms (spec 3.6). Column 0 is an open shaft from row 16 to the floor, the rest of
    # rows 16-19 filled: the 1 x 1 probe reaches row 19, but no turn of an S fits in a shaft one
    # cell wide, so the deepest cells an S covers are in row 15 (lying flat on row 16). Edge
    # columns: the left one has no filled cell (0), the right one is filled from row 16 (4 rows).
    shaft = well_of({row: ".#########" for row in range(16, 20)})
    terms = dict(heuristic_terms(shaft, 0))
    assert (terms["surface depth"], terms["S surface depth"], terms["edge column heights"]) == (19, 15, 4)
    # Weighed alone, each is the cost (the value shown is minus the cost).
    alone = [0.0] * len(BEAM_WEIGHTS)
    alone[8] = 1.0
    assert value(shaft, 0, weights=tuple(alone)) == -15.0
    alone[8], alone[9] = 0.0, 1.0
    assert value(shaft, 0, weights=tuple(alone)) == -4.0
    assert terms["cells S cannot reach"] == 4  # the shaft's four cells


def test_the_surface_after_one_clear_goes_down_where_a_single_clear_opens_a_gap():
    # Tim's deepest row reachable after one clear (spec 3.6). The probe reaches row 17 (its gap at
    # column 9) and no lower: column 1 of rows 18-19 is open but covered by (17,1). An S standing
    # at x 8 fills (9,17) and completes row 17 alone (its other cells (8,15), (8,16), (9,16));
    # S is the lookahead's piece (it cannot clear two rows). After the clear the S's cells drop to
    # rows 16-17 at columns 8-9, (17,1) is empty, and the probe goes down column 1 to row 19.
    well = well_of({17: "#########.", 18: "#.########", 19: "#.########"})
    terms = dict(heuristic_terms(well, 0))
    assert (terms["surface depth"], terms["surface depth after one clear"]) == (17, 19)
    alone = [0.0] * len(BEAM_WEIGHTS)
    alone[10] = 1.0
    assert value(well, 0, weights=tuple(alone)) == -19.0
    # No clear at all: the well's own surface row. Row 17's gaps are five runs (no piece fills
    # them at once) and the gaps below are shut in, so the probe stops in row 17 and stays there.
    shut = dict(heuristic_terms(well_of({17: ".#.#.#.#.#", 18: "#.########", 19: "#.########"}), 0))
    assert (shut["erasable pieces"], shut["surface depth"], shut["surface depth after one clear"]) == (0, 17, 17)


def test_holes_below_the_surface_row_are_buried_and_not_counted():
    # The 1 x 1 probe enters from the top, reaches (17,9) and can go no lower: (18,9) is filled
    # and row 17 is full elsewhere. So row 17 is the surface row. (18,0) and (19,5) are holes,
    # enclosed, under it: garbage no line clear will reach again (spec 3.3: only the part of the
    # well down to the surface row is evaluated). Row 17's gap is open to the top: no hole there.
    terms = dict(heuristic_terms(well_of({17: "#########.", 18: ".#########", 19: "#####.####"}), 0))
    assert terms["surface depth"] == 17
    assert (terms["holes"], terms["enclosed holes"], terms["enclosed-hole lines"]) == (0, 0, 0)
    assert terms["stack height"] == 3
    # With row 17's gap over (18,0) the probe reaches row 18: there (18,5), covered and shut in,
    # is a live hole; (19,9) under the surface row, covered by (18,9), is buried and not counted.
    terms = dict(heuristic_terms(well_of({17: ".#########", 18: ".####.####", 19: "#########."}), 0))
    assert terms["surface depth"] == 18
    assert (terms["holes"], terms["enclosed holes"], terms["enclosed-hole lines"]) == (1, 1, 1)


def test_the_ranked_placements_name_the_buried_holes_apart():
    # The first well above with one more cell, (16,0), so that 28 cells make 7 pieces. A
    # placement that leaves column 9 open down to row 17 (nothing cleared) keeps the surface row
    # at 17 and (18,0), (19,5) buried: its explanation counts them apart from its holes.
    board = "next O\n" + "\n".join(["." * 10] * 16 + ["#.........", "#########.", ".#########", "#####.####"])
    kept = [c for c in rank(GAME.parse_board(board))
            if not c.game_over and c.lines == 0 and all(not row >> 9 & 1 for row in c.well_after[:18])]
    assert kept
    for candidate in kept:
        assert "2 buried under the surface" in candidate.explanation, candidate.explanation


def test_cells_s_cannot_reach_count_shafts_and_enclosed_cells():
    # Column 0 is a one-wide shaft three deep (rows 17-19) and (19,3) is enclosed: an S, two
    # columns wide in every orientation, reaches none of those four cells.
    terms = dict(heuristic_terms(well_of({17: ".#########", 18: ".#########", 19: ".##.######"}), 0))
    assert terms["cells S cannot reach"] == 4
    # A two-wide gap is the foot of a flat S.
    assert dict(heuristic_terms(well_of({19: "##..######"}), 0))["cells S cannot reach"] == 0


def test_erasability_counts_each_piece_on_its_own():
    # Bottom row full but for column 0, nothing above. A piece clears it iff one of its
    # orientations has a bottom row made of a single cell in the piece's leftmost column:
    # Z (o1, o3), I (vertical), L (o0), J (o0), T (o3); S and O cannot.
    terms = dict(heuristic_terms(well_of({19: ".#########"}), 3))
    assert terms["erasable pieces"] == 5
    assert terms["holes"] == 0 and terms["enclosed holes"] == 0
    assert terms["surface depth"] == 19
    assert terms["score"] == 3


def test_erasability_agrees_with_the_reference_rules_on_the_86_games_wells(reference_data):
    # The advisor finds clearing placements from the rows' gaps and generates every resting
    # position only when a piece has to slide or turn under an overhang; the count must be the
    # plain one: pieces with a reachable resting position (reference BFS) that clears a line.
    with open(reference_data / "hatetris" / "trace_df86.tsv", encoding="utf-8") as handle:
        wells = [tuple(int(v) for v in row["well_before"].split(","))
                 for row in csv.DictReader(handle, delimiter="\t")]
    checked = 0
    for well in wells[::3]:
        expected = sum(
            any(reference.lock(well, DEFAULT_RULES, piece, *position)[2]
                for position in reference.resting_positions(well, DEFAULT_RULES, piece))
            for piece in range(7))
        assert dict(heuristic_terms(well, 0))["erasable pieces"] == expected, well
        checked += expected
    assert checked > 100  # the game's wells are mostly clearable: the test is not vacuous


def test_rank_on_the_empty_well_lists_the_17_distinct_s_wells():
    # S lies flat in 8 columns (o0 and o2 cover the same cells one box apart) and stands in 9
    # (o1 and o3 cover the same cells one row apart): 17 different wells.
    start = GAME.initial_state()
    candidates = rank(start)
    assert len(candidates) == 17
    assert len({c.well_after for c in candidates}) == 17
    assert sorted(len(c.same_wells) for c in candidates) == [1] * 17
    assert candidates == sorted(candidates, key=lambda c: -c.score)
    for candidate in candidates[:5]:
        step = GAME.play(start, candidate.move)
        sent = next(e for e in step.events if isinstance(e, PieceSent))
        assert candidate.next_piece == sent.piece
        assert candidate.well_after == step.state.well
        assert candidate.lines == 0
        assert GAME.replay_keys(candidate.keys).placements == (candidate.move,)


def test_rank_puts_game_ending_placements_last():
    # Rows 6-19 hold 9 cells each (column 9 open), score 1: 126 + 10 = 136 = 4 x 34 pieces. A flat
    # S rests on row 6 with its top in row 4 (alive); a standing S elsewhere reaches row 3, above
    # the bar, and ends the game.
    board = "score 1 · next S\n" + "\n".join(["." * 10] * 6 + ["#########."] * 14)
    state = GAME.parse_board(board)
    candidates = rank(state)
    over = [c.game_over for c in candidates]
    assert any(over) and not all(over)
    assert over == sorted(over)  # every game-ending placement after every other one
    for candidate in candidates:
        if candidate.game_over:
            assert candidate.next_piece is None and candidate.warnings
        else:
            assert candidate.next_piece in "SZOILJT"


@pytest.fixture(scope="module")
def small_wells(reference_data):
    with open(reference_data / "hatetris" / "small_well_bfs.tsv", encoding="utf-8") as handle:
        return {(int(r["width"]), int(r["height"])): r for r in csv.DictReader(handle, delimiter="\t")}


@pytest.mark.parametrize("size", [(6, 6), (5, 8), (8, 4), (10, 3)])
def test_a_beam_wider_than_every_layer_is_the_exhaustive_search(small_wells, size):
    # With the beam wider than the widest layer nothing is dropped, so the beam search is the
    # breadth-first search of spec 3.10 and must find its exact optimum.
    width, height = size
    expected = small_wells[size]
    rules = Rules(enemy="mild", width=width, depth=height + 4)
    search = BeamSearch(Line(GAME.initial_state(rules), ()),
                        BeamSettings(width=int(expected["rerun_max_width"]) + 1))
    result = search.run()
    assert result.finished
    assert result.score == int(expected["rerun_score"])
    assert result.depth - 1 == int(expected["rerun_length"])


def test_checkpoint_resume_gives_the_same_search(tmp_path):
    start = Line(GAME.initial_state(), ())
    whole = BeamSearch(start, BeamSettings(width=40)).run()
    first = BeamSearch(start, BeamSettings(width=40))
    first.run(max_depth=20, checkpoint=tmp_path / "beam.npz")
    resumed = BeamSearch.load(tmp_path / "beam.npz")
    assert resumed.depth == 20
    rest = resumed.run()
    assert (rest.score, rest.pieces, rest.line.moves) == (whole.score, whole.pieces, whole.line.moves)


def test_the_exported_replay_is_a_finished_game_with_the_reported_score():
    result = BeamSearch(Line(GAME.initial_state(), ()), BeamSettings(width=30)).run()
    played = GAME.replay_keys(codecs.decode(result.replay))
    assert played.over
    assert played.score >= result.score
    assert played.placements[: len(result.line.moves)] == result.line.moves


def test_a_search_from_a_replay_prefix_keeps_the_prefix(reference_data):
    with open(reference_data / "hatetris" / "records.tsv", encoding="utf-8") as handle:
        rows = [r for r in csv.DictReader(handle, delimiter="\t") if r["label"] == "Deasuke"]
    line = GAME.parse_sequence(rows[0]["replay"])
    prefix = Line(line.start, line.moves[:60])
    result = BeamSearch(prefix, BeamSettings(width=50)).run()
    assert result.line.moves[:60] == line.moves[:60]
    assert GAME.replay(result.line.start, result.line.moves).score == result.score


def test_the_beams_ai_sends_the_recorded_pieces_through_the_loop_rule_decision(reference_data):
    # The beam keeps only hashes of the path's wells (and their cell counts, to skip futures that
    # cannot repeat one); from every prefix of the "knewjade loop basis" game it must still send
    # the recorded next piece, including the one the loop rule decides (S -> Z at score 105).
    with open(reference_data / "hatetris" / "records_decoded.tsv", encoding="utf-8") as handle:
        row = next(r for r in csv.DictReader(handle, delimiter="\t") if r["label"] == "knewjade loop basis")
    game = GAME.replay_keys(row["keys"])
    sequence = row["piece_sequence"]
    state = start = GAME.initial_state()
    decisions = 0
    for k, move in enumerate(game.placements):
        search = BeamSearch(Line(start, game.placements[:k]), BeamSettings(width=1))
        assert "SZOILJT"[int(search.ai_pieces()[0])] == sequence[k], k
        step = GAME.play(state, move)
        state = step.state
        if state.over:
            break
        decisions += sum(e.loop_rule_decided for e in step.events if isinstance(e, PieceSent))
    assert decisions == 1  # the decision was among the prefixes checked


@functools.cache
def plain_clears(well, rules):
    """For each piece: the most lines one of its placements clears, and every placement's
    (well with the piece, well after, rows cleared, game over), from the plain rules."""
    most = []
    for piece in range(7):
        cleared = [reference.lock(well, rules, piece, *position)
                   for position in reference.resting_positions(well, rules, piece)]
        most.append((max((len(lock[2]) for lock in cleared), default=0), cleared))
    return most


def plain_lookahead_value(well, score, rules, weights, levels):
    """Minus the "bird in the hand" cost of spec 3.5 worked out step by step on the plain rules:
    every resting position of every piece, the lines each placement clears, the chain's piece (the
    first that cannot clear two lines at once) and each distinct well its single clears leave. The
    terms come from the kernel, but for the erasability, counted here from the same placements."""
    most = plain_clears(well, rules)
    terms = dict(heuristic_terms(well, score, rules.width))
    terms["erasable pieces"] = sum(lines > 0 for lines, _ in most)
    best = sum(weight * terms[name] for weight, name in zip(weights, terms))
    follow = next((piece for piece in range(7) if most[piece][0] < 2), None)
    if levels == 0 or follow is None or most[follow][0] == 0:
        return -best
    for after in {lock[1] for lock in most[follow][1] if len(lock[2]) == 1}:
        best = min(best, -plain_lookahead_value(after, score, rules, weights, levels - 1) + weights[5] * 0.5)
    return -best


def widened(well, extra):
    """The well ``extra`` columns wider, the new columns filled in every non-empty row."""
    return tuple(row | (((1 << extra) - 1) << 10) if row else 0 for row in well)


@pytest.fixture(scope="module")
def df86_wells(reference_data):
    with open(reference_data / "hatetris" / "trace_df86.tsv", encoding="utf-8") as handle:
        return [(tuple(int(v) for v in row["well_after"].split(",")), int(row["score_after"]))
                for row in csv.DictReader(handle, delimiter="\t") if row["game_over"] == "0"]


@pytest.mark.parametrize("weights", [BEAM_WEIGHTS, DF_WEIGHTS], ids=["kibitz", "df"])
def test_the_lookahead_is_the_plain_chain_of_single_clears_on_the_86_games_wells(df86_wells, weights):
    # The kernel finds the chain's piece, its single clears and the erasability in one packed
    # walk per piece, stopped below the deepest completable row, with no allocation per well; the
    # values must be those of the plain step-by-step version, to the last bit.
    followed = 0
    for well, score in df86_wells[::4]:
        for levels in (1, 2):
            expected = plain_lookahead_value(well, score, DEFAULT_RULES, weights, levels)
            assert value(well, score, weights=weights, lookahead=levels) == expected, (well, levels)
        followed += value(well, score, weights=weights, lookahead=2) != value(well, score, weights=weights)
    assert followed > 10  # many of the game's wells have chains: the test is not vacuous
    # The longest chains the beam may follow: every level of the work space is used as it should be.
    deeper = 0
    for well, score in df86_wells[::8]:
        expected = plain_lookahead_value(well, score, DEFAULT_RULES, weights, MAX_LOOKAHEAD)
        assert value(well, score, weights=weights, lookahead=MAX_LOOKAHEAD) == expected, well
        deeper += expected != plain_lookahead_value(well, score, DEFAULT_RULES, weights, 2)
    assert deeper > 0  # some chains are longer than two clears


def test_the_lookahead_on_wells_wider_than_the_packed_search(df86_wells):
    # 13 to 16 columns do not fit the packed walk: the kernel lists resting positions instead.
    rules = Rules(width=14)
    followed = 0
    for well, score in df86_wells[1::12]:
        wide = widened(well, 4)
        expected = plain_lookahead_value(wide, score, rules, BEAM_WEIGHTS, 2)
        assert value(wide, score, width=14, weights=BEAM_WEIGHTS, lookahead=2) == expected, well
        followed += expected != value(wide, score, width=14, weights=BEAM_WEIGHTS)
    assert followed > 2
