"""Follow mode end to end: frames of consecutive positions (drawn by Kibitz's own views along a
record or seeded game, and real screenshots) go through the real readers, and the follower must
end at the game's position having played the game's own moves.

Each frame is fed twice, as the poll sees a settled screen: once to notice the change, once to
read it."""

from __future__ import annotations

import csv

import numpy as np
import pytest

from engines import GAMES
from tests.vision.render import render_board
from vision.follow import Follower, Played


def follow(game, start, frames):
    """Feed ``frames`` (each twice) to a follower from ``start``; the moves it played, in order,
    and the follower."""
    follower = Follower(game, start)
    played = []
    for number, frame in enumerate(frames):
        follower.feed(frame)
        event = follower.feed(frame)
        assert isinstance(event, Played), f"frame {number}: {event}"
        played.extend(event.moves)
    return played, follower


def test_hatetris_follows_a_record_game_drawn_by_our_view():
    game = GAMES["hatetris"]
    rows = list(csv.DictReader(open(_data() / "hatetris" / "records.tsv"), delimiter="\t"))
    record = next(r for r in rows if r["label"] == "SDA (1)" and r["encoding"] == "hex")
    line = game.parse_sequence(record["replay"])
    placements = line.moves[:14]
    states, state = [], line.start
    for move in placements:
        state = game.play(state, move).state
        states.append(state)
    frames = [render_board("hatetris", s, (300, 560), noise=2, seed=i) for i, s in enumerate(states)]
    played, follower = follow(game, line.start, frames)
    assert played == list(placements)
    assert follower.state.well == states[-1].well and follower.state.score == states[-1].score


def test_1010_follows_a_seeded_game_drawn_by_our_view():
    game = GAMES["1010"]
    rng = np.random.default_rng(7)
    state = game.initial_state()
    line, states = [], []
    start = None
    while len(states) < 10:
        if game.is_chance_node(state):
            deal = game.random_deal(state, rng)
            line.append(deal)
            state = game.apply_chance(state, deal).state
            if start is None:  # follow from the first deal on screen
                start, line = state, []
            continue
        moves = game.legal_moves(state)
        move = moves[int(rng.integers(len(moves)))]
        line.append(move)
        state = game.play(state, move).state
        if game.is_chance_node(state):  # the real game deals at once: the next frame shows it
            deal = game.random_deal(state, rng)
            line.append(deal)
            state = game.apply_chance(state, deal).state
        states.append(state)
    frames = [render_board("1010", s, (520, 760), noise=2, seed=i) for i, s in enumerate(states)]
    played, follower = follow(game, start, frames)
    assert played == line
    assert (follower.state.filled, follower.state.tray) == (states[-1].filled, states[-1].tray)
    assert follower.state.score == states[-1].score


def _data():
    from tests.conftest import reference_data_dir

    found = reference_data_dir()
    if found is None:
        pytest.skip("reference data from the real games not found: set KIBITZ_REFERENCE_DATA")
    return found


def test_2048_follows_a_seeded_game_drawn_by_our_view():
    game = GAMES["2048"]
    rng = np.random.default_rng(11)
    state = game.initial_state()
    while game.is_chance_node(state):  # the page opens with two tiles
        state = game.apply_chance(state, game.random_spawn(state, rng)).state
    start, line, states = state, [], []
    for _ in range(12):
        slide = game.legal_moves(state)[int(rng.integers(len(game.legal_moves(state))))]
        state = game.play(state, slide).state
        spawn = game.random_spawn(state, rng)
        state = game.apply_chance(state, spawn).state
        line += [slide, spawn]
        states.append(state)
    frames = [render_board("2048", s, (560, 560), noise=2, seed=i) for i, s in enumerate(states)]
    played, follower = follow(game, start, frames)
    assert played == line
    assert follower.state == states[-1]


def test_destructo_follows_a_seeded_level_drawn_by_our_view():
    game = GAMES["destructo"]
    rng = np.random.default_rng(5)
    state = game.initial_state()
    state = game.apply_chance(state, game.sample_chance(state, rng)).state  # level 1's board
    start, line, states = state, [], []
    for _ in range(10):
        clicks = game.legal_moves(state)
        click = clicks[int(rng.integers(len(clicks)))]
        state = game.play(state, click).state
        line.append(click)
        states.append(state)
        if game.is_chance_node(state) or game.is_over(state):
            break
    frames = [render_board("destructo", s, (640, 480), noise=2, seed=i) for i, s in enumerate(states)]
    played, follower = follow(game, start, frames)
    assert played == line  # legal moves name each group by one boulder, the same on both sides
    assert follower.state.board == states[-1].board and follower.state.score == states[-1].score


def test_splt_follows_the_world_record_drawn_by_our_view():
    # splits 100..111 of the 1196-split record, one frame per split, as the SPL-T view draws them
    import json

    from engines.splt.state import Move

    game = GAMES["splt"]
    record = json.loads((_data() / "splt" / "record_sequences_geometric.json").read_text())["1196"]
    moves = [Move(x, y, w, h) for x, y, w, h in record["moves_xywh"]]
    state = game.replay(game.initial_state(), moves[:100])
    start, states = state, []
    for move in moves[100:112]:
        state = game.play(state, move).state
        states.append(state)
    assert states[-1].score == record["score_after_each_split"][111]
    frames = [render_board("splt", s, (460, 960), noise=2, seed=i) for i, s in enumerate(states)]
    played, follower = follow(game, start, frames)
    assert played == moves[100:112]
    assert follower.state.same_position(states[-1])


def test_splt_follows_the_real_158_to_169_screenshot_pair():
    # the two real screenshots of 6ptblock.png, 11 splits apart: the follower starts from what it
    # reads on the left one and must find the transcribed 11 splits to the right one
    import json

    from engines.splt.state import Move
    from tests.vision.truth_splt import cases
    from vision import read

    game = GAMES["splt"]
    by_name = {case.name: case for case in cases(_data())}
    left, right = by_name["splt/6ptblock.png#left"].load(), by_name["splt/6ptblock.png#right"].load()
    start = read("splt", left).state
    assert (start.splits, start.score) == (158, 11834)
    truth = json.loads((_data() / "splt" / "screenshot_truth.json").read_text())["_validated_transition"]
    expected = [Move(x, y, w, h) for x, y, w, h, _ in truth["moves_box_before_split_xywh_and_orientation"]]
    played, follower = follow(game, start, [right])
    assert played == expected
    assert (follower.state.splits, follower.state.score) == (169, 13177)
