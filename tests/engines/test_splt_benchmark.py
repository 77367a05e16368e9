"""benchmarks/splt_engine.py plays the kernel's very games on other rules implementations, and runs
without the anchor (josh-holder's emulator is not in the project: absent, it says so).

The random games are checked against the plain-Python reference rules, an independent path: the
benchmark's driver splits ``legal[word % len(legal)]`` with the kernel's random words, so the
reference's final split counts and scores must equal the kernel's game for game.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

from engines.splt import Box, Move, State, fast, reference

BENCHMARK = Path(__file__).resolve().parents[2] / "benchmarks" / "splt_engine.py"


@pytest.fixture(scope="module")
def bench():
    spec = importlib.util.spec_from_file_location("splt_engine_benchmark", BENCHMARK)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look their module up there
    try:
        spec.loader.exec_module(module)
        yield module
    finally:
        del sys.modules[spec.name]


@pytest.mark.parametrize("seed", [1, 2, 3, 17, 4_000_000_000])
def test_reference_rules_play_the_kernels_random_games(bench, seed):
    games = 4
    lengths, scores, total = fast.random_playouts(State(), games, seed)
    ends = bench.uniform_games(bench.ReferenceGame(), seed, games)
    assert ends == list(zip(lengths.tolist(), scores.tolist()))
    assert total == sum(splits for splits, _ in ends)
    assert len(set(ends)) > 1  # different games, not one game repeated


def test_kernel_and_reference_agree_on_many_seeded_games(bench):
    ends = []
    for seed in range(100, 180):
        ends += bench.uniform_games(bench.ReferenceGame(), seed, 1)
        assert ends[-1] == bench.kibitz_uniform_games(seed, 1)[0], f"seed {seed}"
    assert sum(splits for splits, _ in ends) > 6000


def test_record_replay_on_the_reference_rules(bench, splt_data):
    indices = bench.record_indices((splt_data / "nonrandomAlgorithm_seq.txt").read_text(encoding="utf-8"))
    # data README: the 166-split greedy game scores 14,666 and ends the game
    assert bench.replay_on(bench.ReferenceGame(), indices) == (166, 14_666, True)
    assert bench.kibitz_replay(indices) == (166, 14_666, True)


def test_a_different_anchor_game_is_reported_as_a_mismatch(bench):
    class OffByOne(bench.ReferenceGame):
        def result(self):
            splits, score = super().result()
            return splits, score + 1

    random_games, = bench.run(OffByOne(), {}, rounds=1, games=2, seed=5, kibitz_seconds=0)
    assert random_games.compared == 2
    assert len(random_games.mismatches) == 2
    assert random_games.anchor_splits == random_games.kibitz_splits


def test_without_the_anchor_it_says_so_and_times_kibitz_alone(bench, capsys, tmp_path):
    assert bench.main(["--rounds", "1", "--games", "2", "--kibitz-seconds", "0", "--records", "--markdown"]) == 0
    printed = capsys.readouterr()
    assert "# anchor absent: no --anchor given" in printed.err  # standard output: the facts and the table
    assert "https://github.com/josh-holder/SPLT" in printed.err
    assert "| uniform random games (2 a round, seeds 1-1) |" in printed.out
    assert "| absent |" in printed.out and "josh-holder/SPLT commit absent" in printed.out
    assert "#" not in printed.out

    assert bench.main(["--anchor", str(tmp_path), "--rounds", "1", "--games", "1", "--kibitz-seconds", "0",
                       "--records"]) == 0
    out = capsys.readouterr().out
    assert f"# anchor absent: {tmp_path} has no core_update.py; timing Kibitz alone" in out


def test_a_start_position_with_a_box_over_a_void(bench):
    """The kernel's loops skip the fall pass on turns that cannot start a fall, which holds only
    once a turn has been played: a start position's box over a void falls on the first turn, as
    in the reference rules."""
    start = State(boxes=(Box(0, 0, 8, 8), Box(0, 12, 8, 4)))  # rows 8-11 empty
    after = reference.play(start, Move(0, 12)).state
    assert after.box_at(0, 4) == Box(0, 4, 8, 8)  # the reference lets the top box fall 4 rows
    assert fast.replay_moves(start, [Move(0, 12)]).state == after
    lengths, scores, _ = fast.random_playouts(start, 6, 9)
    assert bench.uniform_games(bench.ReferenceGame(start), 9, 6) == list(zip(lengths.tolist(), scores.tolist()))
