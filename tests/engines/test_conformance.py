"""The one conformance test every registered game must pass (DESIGN.md, "Conformance").

Random playouts from the start position check, at every position: legal moves play and illegal
ones raise IllegalMoveError; states are immutable and hashable; move, board and sequence texts
round-trip; replaying the moves reproduces the state; the fast path equals the plain-Python
reference path, events included.
"""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from engines import GAMES, IllegalMoveError, Line

GAME_NAMES = sorted(GAMES)
PLAYOUTS = 40
EVERY_MOVE_CHECK_INTERVAL = 5  # play every legal move at every 5th position
MAX_MOVES = 2000


def settle_chance(game, state, rng: np.random.Generator, played: list):
    """Apply seeded chance outcomes until a player is to move (or the game is over); each outcome
    joins ``played``, since a line records chance steps between the moves."""
    while game.is_chance_node(state):
        pick = game.sample_chance(state, rng)
        state = game.apply_chance(state, pick).state
        played.append(pick)
    return state


@pytest.fixture(params=GAME_NAMES)
def game(request):
    return GAMES[request.param]


def test_registry_names_match(game):
    assert GAMES[game.short_name] is game
    assert game.title


def test_initial_state_is_a_value(game):
    start = game.initial_state()
    assert start == game.initial_state()
    assert hash(start) == hash(game.initial_state())
    assert not game.is_over(start)


def test_random_playouts(game):
    rng = np.random.default_rng(20261122)
    positions = 0
    playouts = getattr(game, "conformance_playouts", PLAYOUTS)
    for playout in range(playouts):
        start = game.initial_state()
        played = []
        state = settle_chance(game, start, rng, played)
        for position_number in range(MAX_MOVES):
            legal = game.legal_moves(state)
            if not legal:
                break
            positions += 1
            _check_position(game, state, every_move=position_number % EVERY_MOVE_CHECK_INTERVAL == 0)
            move = legal[int(rng.integers(len(legal)))]
            step = game.play(state, move)
            reference = game.reference_play(state, move)
            if reference is not None:
                assert step == reference, f"playout {playout}, move {len(played) + 1} {game.move_text(move)}"
            played.append(move)
            state = settle_chance(game, step.state, rng, played)
        final = state
        assert game.is_over(final)
        assert game.legal_moves(final) == []
        assert game.replay(start, played) == final
        _check_sequence_round_trip(game, Line(start, tuple(played)), final)
    assert positions > playouts * 5


def _check_position(game, state, every_move: bool) -> None:
    hash(state)
    field = dataclasses.fields(state)[0].name if dataclasses.is_dataclass(state) else None
    if field is not None:
        with pytest.raises(dataclasses.FrozenInstanceError):
            setattr(state, field, None)
    assert game.parse_board(game.board_text(state)) == state
    legal = game.legal_moves(state)
    assert legal, "a position reached before the end has a legal move"
    assert not game.is_over(state)
    for move in legal:
        assert game.parse_move(game.move_text(move)) == move
    if every_move:
        for move in legal:
            after = game.play(state, move).state
            hash(after)
    for move in game.move_space(state):
        if move not in legal:
            with pytest.raises(IllegalMoveError):
                game.play(state, move)


def _check_sequence_round_trip(game, line: Line, final) -> None:
    for format in game.sequence_formats or (None,):
        text = game.sequence_text(line, format)
        again = game.parse_sequence(text, source="round-trip", format=format)
        assert game.replay(again.start, again.moves) == final
        detected = game.parse_sequence(text, source="round-trip")
        assert detected == again
