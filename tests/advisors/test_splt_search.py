"""The SPL-T searches (``advisors.splt.search``, spec 3.6) against what the spec and the shared
reference games say: greedy reaches 534 splits, the logged ParanoidPlay run reaches the 1053
record game for game, piggybacking keeps the given line, checkpoints resume exactly.
"""

from __future__ import annotations


import numpy as np
import pytest

from advisors.splt.search import Search, Settings
from engines import GAMES
from engines.contract import Line
from engines.errors import KibitzInputError
from engines.splt import fast, notation

SPLT = GAMES["splt"]


def record_indices(line) -> list[int]:
    return list(fast.replay_checked(line.start, list(line.moves)).indices)


def assert_best_is_a_legal_finished_game(search: Search) -> None:
    snapshot = search.snapshot()
    line = search.best_line()
    assert len(line.moves) == snapshot.best_splits
    end = SPLT.replay(line.start, line.moves)
    assert end.is_over()
    assert (end.splits, end.score) == (snapshot.best_splits, snapshot.best_score)


# --- greedy -----------------------------------------------------------------------------------


def test_greedy_plays_one_game_of_534_splits():
    search = Search.start_from(Settings.for_player("greedy"))
    snapshot = search.run(games=10)
    assert (snapshot.games, snapshot.best_splits, snapshot.best_game) == (1, 534, 1)  # spec 3.6
    assert snapshot.done
    assert_best_is_a_legal_finished_game(search)
    assert search.run(games=10).games == 1  # nothing left to explore


# --- the logged 1053 run ------------------------------------------------------------------------

# logParanoid_final.txt (spec 3.6): the record after the games the spec names.
LOGGED_RECORDS = {1: 534, 193: 685, 231: 748, 622: 779, 657: 1000, 668: 1043, 696: 1053}
LOGGED_RECORD_LENGTHS = [534, 578, 623, 641, 685, 748, 779, 847, 876, 879, 1000, 1043, 1053]


@pytest.fixture(scope="module")
def run_1053():
    search = Search.start_from(Settings.reference_1053())
    records: dict[int, int] = {}

    def on_best(found: Search) -> None:
        snapshot = found.snapshot()
        records[snapshot.best_game] = snapshot.best_splits

    snapshot = search.run(games=696, on_best=on_best)
    return search, snapshot, records


def test_1053_run_finds_the_logged_records_at_the_logged_games(run_1053):
    _, snapshot, records = run_1053
    assert snapshot.games == 696
    assert {game: records.get(game) for game in LOGGED_RECORDS} == LOGGED_RECORDS
    # The spec lists only some of the new records; those it lists come in this order.
    found = iter(records[game] for game in sorted(records))
    assert all(length in found for length in LOGGED_RECORD_LENGTHS)
    assert (snapshot.best_splits, snapshot.best_game) == (1053, 696)


def test_1053_run_best_is_the_shared_1053_game(run_1053, splt_data):
    search, snapshot, _ = run_1053
    record = notation.parse_sequence((splt_data / "1053seq.txt").read_text())
    assert search.best_line().moves == record.moves
    assert search.best_indices() == record_indices(record)
    assert snapshot.best_score == 676_275  # spec 4.1
    assert_best_is_a_legal_finished_game(search)


def test_1053_run_backtracks_down_to_300_splits(run_1053, tmp_path):
    # "backtracking went down to base states at 300 splits" over the 711 logged games.
    search, _, _ = run_1053
    search.save(tmp_path / "1053.npz")
    rest = Search.load(tmp_path / "1053.npz")  # leave the module's search at game 696
    snapshot = rest.run(games=711 - 696)
    assert snapshot.games == 711
    assert snapshot.exploring_from == 300
    assert snapshot.best_splits == 1053  # the log's last record


# --- checkpoints ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "settings, seed",
    [(Settings.reference_1053(), 1), (Settings(), 7)],
    ids=["reference_1053", "paranoid"],
)
def test_saved_and_resumed_search_equals_a_straight_run(settings, seed, tmp_path):
    straight = Search.start_from(settings, seed=seed)
    straight.run(games=600)

    first = Search.start_from(settings, seed=seed)
    first.run(games=300)
    path = tmp_path / "search.npz"
    first.save(path)
    resumed = Search.load(path)
    assert resumed.settings == settings
    assert resumed.snapshot() == first.snapshot()
    resumed.run(games=300)

    assert resumed.snapshot() == straight.snapshot()
    assert resumed.snapshot().games == 600
    assert resumed.best_indices() == straight.best_indices()
    assert resumed.best_line() == straight.best_line()
    # The whole search state (board, stack, random generator) goes on identically.
    for name in ("state", "rng", "boxes", "line"):
        assert np.array_equal(resumed.arrays[name], straight.arrays[name]), name
    resumed.run(games=50)
    straight.run(games=50)
    assert resumed.snapshot() == straight.snapshot()


def _checkpoint_bytes(tmp_path) -> bytes:
    search = Search.start_from(Settings.reference_1053())
    search.run(games=5)
    search.save(tmp_path / "good.npz")
    return (tmp_path / "good.npz").read_bytes()


@pytest.mark.parametrize(
    "damage",
    [
        pytest.param(lambda data: data[: len(data) // 2], id="truncated"),
        pytest.param(lambda data: data[:-100], id="tail-cut"),
        pytest.param(lambda data: b"", id="empty"),
        pytest.param(lambda data: data[:2000] + bytes(100) + data[2100:], id="corrupted"),
        pytest.param(lambda data: data[100:], id="head-cut"),
        pytest.param(lambda data: b"not a checkpoint\n" * 20, id="text"),
    ],
)
def test_damaged_checkpoint_is_an_input_error_naming_the_file(damage, tmp_path):
    path = tmp_path / "damaged-search.npz"
    path.write_bytes(damage(_checkpoint_bytes(tmp_path)))
    with pytest.raises(KibitzInputError, match="damaged-search.npz"):
        Search.load(path)


def test_missing_checkpoint_is_an_input_error_naming_the_file(tmp_path):
    with pytest.raises(KibitzInputError, match="no-such-search.npz"):
        Search.load(tmp_path / "no-such-search.npz")


# --- piggyback ------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def record_1196(splt_data):
    return notation.parse_sequence((splt_data / "1196seq.txt").read_text())


def test_piggyback_first_game_replays_the_record(record_1196):
    search = Search.start_from(Settings(), record_1196, from_move=1100, seed=3)
    snapshot = search.run(games=1)
    assert (snapshot.games, snapshot.best_splits, snapshot.best_score) == (1, 1196, 878_866)  # spec 4.1
    assert search.best_line().moves == record_1196.moves


def test_piggyback_never_changes_the_fixed_moves(record_1196):
    indices = record_indices(record_1196)
    search = Search.start_from(Settings(), record_1196, from_move=1100, seed=3)
    restarts = []
    snapshot = search.run(games=200, progress=lambda s: restarts.append(s.restart_from))
    assert snapshot.games == 200
    assert snapshot.best_splits >= 1196  # the first game re-plays the record
    assert search.best_indices()[:1100] == indices[:1100]
    assert search.best_line().moves[:1100] == record_1196.moves[:1100]
    assert list(search.arrays["line"][:1100]) == indices[:1100]  # the current game keeps them too
    assert restarts and min(restarts) >= 1100
    assert_best_is_a_legal_finished_game(search)


@pytest.mark.parametrize("from_move", [1197, 5000, -1])
def test_piggyback_from_outside_the_line_is_an_input_error(record_1196, from_move):
    with pytest.raises(KibitzInputError, match=str(from_move)):
        Search.start_from(Settings(), record_1196, from_move=from_move)


# --- weighted random --------------------------------------------------------------------------------


def _weighted(seed: int) -> Search:
    search = Search.start_from(Settings.for_player("weighted"), seed=seed)
    search.run(games=40)
    return search


def test_weighted_player_games_are_legal_and_follow_the_seed():
    searches = {seed: _weighted(seed) for seed in (1, 2, 3)}
    for search in searches.values():
        assert search.snapshot().games == 40
        assert not search.snapshot().done
        assert_best_is_a_legal_finished_game(search)
    bests = {tuple(search.best_indices()) for search in searches.values()}
    assert len(bests) == 3  # different seeds play different games
    again = _weighted(2)
    assert again.snapshot() == searches[2].snapshot()
    assert again.best_indices() == searches[2].best_indices()


# --- ParanoidPlay as the blog describes it ------------------------------------------------------------


def test_paranoid_play_reseeds_below_250_splits():
    settings = Settings()
    assert settings.reseed_below == 250  # spec 3.6: a pop at <= 250 splits starts a new opening
    search = Search.start_from(settings, seed=1)
    openings = search.snapshot().openings
    new_openings = 0
    for _ in range(300):
        search.advance(1)
        snapshot = search.snapshot()
        assert snapshot.exploring_from is None or snapshot.exploring_from > 250, snapshot
        # The next game either goes back to a branch point above 250 splits or starts afresh.
        assert snapshot.restart_from == 0 or snapshot.restart_from > 250, snapshot
        if snapshot.openings > openings:
            new_openings += 1
            assert snapshot.restart_from == 0 and snapshot.exploring_from is None, snapshot
        openings = snapshot.openings
    assert snapshot.games == 300
    assert new_openings >= 1 and snapshot.openings >= 1
    assert_best_is_a_legal_finished_game(search)


def test_a_line_that_starts_after_the_empty_board(record_1196):
    # The start is the record's position after 40 splits; the search keeps the next 10 moves and
    # starts by replaying the following 30.
    start = SPLT.replay(record_1196.start, record_1196.moves[:40])
    line = Line(start, record_1196.moves[40:80])
    search = Search.start_from(Settings(), line, from_move=10, seed=4)
    snapshot = search.run(games=50)
    best = search.best_line()
    assert best.start == start
    assert best.moves[:10] == record_1196.moves[40:50]
    assert snapshot.best_splits == 40 + len(best.moves)
    final = SPLT.replay(best.start, best.moves)
    assert SPLT.is_over(final) and final.splits == snapshot.best_splits
