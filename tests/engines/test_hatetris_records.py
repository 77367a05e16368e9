"""HATETRIS against the archived record games and the 86-point trace (spec 1, 2 and 6).

Every expected value is read from shared/data/hatetris: ``records_decoded.tsv`` (per game: score,
keys used, spawns, piece sequence, final well, loop-rule decisions), ``records.tsv`` (the replay
strings as archived, with their scores) and ``trace_df86.tsv`` (per piece of David & Felipe's
86-point game: the AI's seven peaks and loop counts, the lock position, lines, score and wells).
Those files were produced by an independent re-implementation and checked against the official
TypeScript logic (data/README.md). The one value taken from the spec's text is the 106 that the
"knewjade loop basis" game scores against HATETRIS Mild (spec 1.6, notes).

Everything here is fast (the whole file runs in a couple of seconds), so every game is checked in
full, the per-move ``GAME.replay`` of every record string included.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from engines.hatetris import DEFAULT_RULES, GAME, MILD_RULES, PieceSent, Placement, Rules, notation
from engines.hatetris.pieces import CELLS as PIECE_CELLS
from engines.hatetris.pieces import PIECES

MILD_TITLE = "HATETRIS Mild"


@pytest.fixture(scope="session")
def hatetris_data(reference_data: Path) -> Path:
    return reference_data / "hatetris"


def _read_tsv(path: Path) -> list[dict[str, str]]:
    # Not the csv module: replay strings and notes may hold quote characters.
    header, *lines = path.read_text(encoding="utf-8").splitlines()
    names = header.split("\t")
    return [dict(zip(names, line.split("\t"), strict=True)) for line in lines if line]


def _rules(enemy_ai: str) -> Rules:
    assert enemy_ai in ("HATETRIS", MILD_TITLE), enemy_ai
    return MILD_RULES if enemy_ai == MILD_TITLE else DEFAULT_RULES


def _ints(text: str) -> tuple[int, ...]:
    return tuple(int(value) for value in text.split(","))


def _height_choice(peaks) -> int:
    """The piece the AI would send on height alone: the lowest peak, then the earliest in
    S Z O I L J T (spec 1.6)."""
    return min(range(len(PIECES)), key=lambda piece: (int(peaks[piece]), piece))


@pytest.fixture(scope="session")
def decoded_games(hatetris_data: Path) -> list[dict[str, str]]:
    return _read_tsv(hatetris_data / "records_decoded.tsv")


@pytest.fixture(scope="session")
def decoded_by_label(decoded_games) -> dict[str, dict[str, str]]:
    return {row["label"]: row for row in decoded_games}


@pytest.fixture(scope="session")
def record_strings(hatetris_data: Path) -> list[dict[str, str]]:
    return _read_tsv(hatetris_data / "records.tsv")


@pytest.fixture(scope="session")
def trace(hatetris_data: Path) -> list[dict[str, str]]:
    return _read_tsv(hatetris_data / "trace_df86.tsv")


def test_the_data_holds_the_eighteen_games(decoded_games, record_strings):
    assert len(decoded_games) == 18
    assert {row["label"] for row in record_strings} == {row["label"] for row in decoded_games}


# -- records_decoded.tsv: whole games from their keys ------------------------------------------------
GAME_LABELS = [
    "qntm", "Atypical", "SDA (1)", "SDA (2)", "Ivenris", "SDA (3)", "Deasuke", "chromeyhex", "knewjade (1)",
    "knewjade (2)", "knewjade (3)", "knewjade (4)", "David & Felipe (1)", "David & Felipe (2)", "Tim (1)",
    "knewjade loop basis", "knewjade loop", "Tim loop",
]


def test_game_labels_cover_the_file(decoded_games):
    assert sorted(GAME_LABELS) == sorted(row["label"] for row in decoded_games)


@pytest.mark.parametrize("label", GAME_LABELS)
def test_replaying_the_keys_gives_the_recorded_game(decoded_by_label, label):
    row = decoded_by_label[label]
    keys = row["keys"]
    assert len(keys) == int(row["keys_total"])
    replay = GAME.replay_keys(keys, _rules(row["enemy_ai"]))

    assert replay.score == int(row["score"])
    assert replay.keys_used == int(row["keys_used"])
    assert len(replay.pieces) == int(row["pieces_count"])
    assert replay.pieces == row["piece_sequence"]
    assert replay.well == _ints(row["final_well"])
    assert len(replay.peaks) == len(replay.loops) == len(replay.pieces)

    # A spawn where the loop rule was decisive: the piece sent is not the one height alone picks.
    decisive = sum(
        PIECES.index(piece) != _height_choice(replay.peaks[spawn]) for spawn, piece in enumerate(replay.pieces)
    )
    assert decisive == int(row["loop_rule_decisive"])
    if row["enemy_ai"] == MILD_TITLE:
        assert not replay.loops.any(), "HATETRIS Mild never counts loops"


def test_every_finished_record_ends_with_a_game_over(decoded_by_label):
    # Keys left unused (the trailing pad key) mean the game ended before them.
    for label in GAME_LABELS:
        row = decoded_by_label[label]
        replay = GAME.replay_keys(row["keys"], _rules(row["enemy_ai"]))
        if int(row["keys_used"]) < int(row["keys_total"]):
            assert replay.over, label
        if replay.over:
            # The game-ending lock is the last placement, after every spawn had locked.
            assert replay.lines[-1] == -1
            assert len(replay.placements) == len(replay.pieces)
            assert replay.live is None
        else:
            # The loop demos stop with a live piece waiting: one spawn more than locks.
            assert len(replay.placements) == len(replay.pieces) - 1


@pytest.mark.parametrize("label", ["knewjade loop basis", "David & Felipe (2)", "Tim loop"])
def test_play_sends_the_recorded_pieces(decoded_by_label, label):
    """The placement-by-placement path (``GAME.play``, with its own loop memory) sends the same
    pieces as the record and reports the loop rule's decisions in ``PieceSent``."""
    row = decoded_by_label[label]
    rules = _rules(row["enemy_ai"])
    line = GAME.parse_sequence(row["keys"], format="raw", rules=rules)
    state = line.start
    sent = [state.piece]
    decided = 0
    for move in line.moves:
        step = GAME.play(state, move)
        state = step.state
        for event in step.events:
            if isinstance(event, PieceSent):
                sent.append(event.piece)
                decided += event.loop_rule_decided
    assert "".join(sent) == row["piece_sequence"]
    assert decided == int(row["loop_rule_decisive"])
    assert state.score == int(row["score"])


def test_loop_basis_game_scores_106_against_mild(decoded_by_label):
    # Spec 1.6: the "knewjade loop basis" game triggered the loop rule once (S -> Z at score 105);
    # without loop prevention the AI sends S there and the game ends at 106.
    row = decoded_by_label["knewjade loop basis"]
    assert int(row["score"]) == 107
    assert GAME.replay_keys(row["keys"], MILD_RULES).score == 106


def test_loop_demos_are_not_valid_against_hatetris(decoded_by_label):
    # Spec 1.6 / records.tsv notes: the loop demos only work without loop prevention.
    for label in ("knewjade loop", "Tim loop"):
        row = decoded_by_label[label]
        assert GAME.replay_keys(row["keys"], DEFAULT_RULES).score < int(row["score"])


# -- records.tsv: every archived string through the sequence reader --------------------------------
def test_every_record_string_replays_move_by_move(record_strings):
    for row in record_strings:
        rules = _rules(row["enemy_ai"])
        line = GAME.parse_sequence(row["replay"], rules=rules)
        assert line.start.rules == rules
        final = GAME.replay(line.start, line.moves)
        assert final.score == int(row["score"]), (row["label"], row["encoding"])


def test_record_strings_re_encode_to_the_same_game(record_strings, decoded_by_label):
    """Our Base2048 of a record holds our shortest key paths, not the player's keys, but it must
    be the same game: the same placements, final well, score and piece sequence."""
    for row in record_strings:
        rules = _rules(row["enemy_ai"])
        line = GAME.parse_sequence(row["replay"], rules=rules)
        text = GAME.sequence_text(line, "base2048")
        again = GAME.parse_sequence(text, rules=rules)
        where = (row["label"], row["encoding"])
        assert again.moves == line.moves, where

        expected = decoded_by_label[row["label"]]
        replay = GAME.replay_keys(notation.decode_keys(text), rules)
        assert replay.well == _ints(expected["final_well"]), where
        assert replay.score == int(expected["score"]), where
        assert replay.pieces == expected["piece_sequence"], where

        final = GAME.replay(again.start, again.moves)
        assert final == GAME.replay(line.start, line.moves), where
        assert final.well == _ints(expected["final_well"]), where


# -- trace_df86.tsv: the 86-point game piece by piece ---------------------------------------------------
def _trace_placement(row: dict[str, str]) -> Placement:
    return Placement(row["piece"], int(row["lock_x"]), int(row["lock_y"]), int(row["lock_o"]))


def test_trace_matches_the_key_replay_piece_by_piece(trace, decoded_by_label):
    keys = decoded_by_label["David & Felipe (1)"]["keys"]
    replay = GAME.replay_keys(keys, DEFAULT_RULES)
    assert len(trace) == 248
    assert len(replay.pieces) == len(replay.placements) == len(trace)

    score = 0
    for row in trace:
        i = int(row["i"])
        game_over = row["game_over"] == "1"
        assert replay.pieces[i] == row["piece"], i
        assert tuple(int(v) for v in replay.peaks[i]) == _ints(row["peaks_SZOILJT"]), i
        assert tuple(int(v) for v in replay.loops[i]) == _ints(row["maxloops_SZOILJT"]), i
        assert replay.placements[i] == _trace_placement(row), i
        # The game-ending lock reports -1 lines (no line counts once the game is lost).
        assert replay.lines[i] == (-1 if game_over else int(row["lines"])), i
        if not game_over:
            score += replay.lines[i]
        assert score == int(row["score_after"]), i
        assert (i == len(trace) - 1) == game_over
    assert replay.over
    assert replay.well == _ints(trace[-1]["well_after"])
    # The keys per piece of the trace are the record's keys, cut at each lock.
    assert "".join(row["keys_for_this_piece"] for row in trace) == keys[:replay.keys_used]


def test_trace_matches_play_placement_by_placement(trace):
    state = GAME.initial_state()
    assert state.well == _ints(trace[0]["well_before"])
    assert state.piece == trace[0]["piece"]
    for i, row in enumerate(trace):
        assert state.well == _ints(row["well_before"]), i
        assert state.piece == row["piece"], i
        step = GAME.play(state, _trace_placement(row))
        state = step.state
        assert state.well == _ints(row["well_after"]), i
        assert state.score == int(row["score_after"]), i
        assert state.over == (row["game_over"] == "1"), i
        sent = [event for event in step.events if isinstance(event, PieceSent)]
        if state.over:
            assert sent == [], i
            continue
        # The piece sent after this lock is the next row's, with the AI's reasons of that row.
        following = trace[i + 1]
        assert len(sent) == 1, i
        peaks, loops = _ints(following["peaks_SZOILJT"]), _ints(following["maxloops_SZOILJT"])
        assert sent[0].piece == following["piece"], i
        assert sent[0].peaks == peaks, i
        assert sent[0].loops == loops, i
        assert sent[0].loop_rule_decided == (PIECES.index(following["piece"]) != _height_choice(peaks)), i
    assert state.score == 86


def test_reference_play_agrees_with_play_on_the_first_30_moves(trace):
    fast_state = reference_state = GAME.initial_state()
    for i, row in enumerate(trace[:30]):
        move = _trace_placement(row)
        fast_step = GAME.play(fast_state, move)
        reference_step = GAME.reference_play(reference_state, move)
        assert reference_step.state == fast_step.state, i
        assert reference_step.events == fast_step.events, i
        assert reference_step.state.well == _ints(row["well_after"]), i
        fast_state, reference_state = fast_step.state, reference_step.state


def test_row_at_a_time_move_generation_agrees_with_the_reference_search(trace):
    # The numba generator works a row at a time on bit masks; the reference is a plain
    # breadth-first search over (x, y, o). On the 86 game's wells, for every piece: the same
    # resting positions, and (below the stack's top) the same cells covered by reachable positions.
    import numpy as np

    from engines.hatetris import kernel, reference

    positions = np.empty((kernel.MAX_RESTING, 3), dtype=np.int64)
    covered = np.empty(20, dtype=np.int64)
    for row in trace[::4]:
        well = _ints(row["well_before"])
        array = np.array(well, dtype=np.int64)
        top = next((y for y, bits in enumerate(well) if bits), 20)
        for piece in range(7):
            found = kernel.resting_positions(array, 10, 20, piece, positions)
            assert {tuple(p) for p in positions[:found].tolist()} == \
                set(reference.resting_positions(well, DEFAULT_RULES, piece)), (row["i"], piece)
            start = (DEFAULT_RULES.spawn_x, 0, 0)
            seen, frontier = {start}, [start]
            while frontier:
                frontier = {n for p in frontier for key in "LRDU" for n in [reference.moved(*p, key)]
                            if n not in seen and reference.fits(well, DEFAULT_RULES, piece, *n)}
                seen.update(frontier)
            expected = [0] * 20
            for x, y, o in seen:
                for cx, cy in PIECE_CELLS[piece][o]:
                    expected[y + cy] |= 1 << (x + cx)
            kernel.reachable_cells(array, 10, 20, piece, covered)
            assert covered.tolist()[top:] == expected[top:], (row["i"], piece)
