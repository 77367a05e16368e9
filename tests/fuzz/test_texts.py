"""Fuzz targets for every text the engines read: each game's boards, moves and sequences (as the
command line and the window read them: parsed, then played), 2048's saved-state JSON and the four
HATETRIS replay codecs.

Valid inputs come from random legal games played with the engines and written with the project's
own writers; :func:`tests.fuzz.mutations.mutated_text` damages them. A case passes when the text
is refused with a documented error, or accepted and its round trip (parse, write, parse) gives the
same value.
"""

from __future__ import annotations

import functools

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from engines import GAMES
from engines.contract import Line
from engines.g2048 import notation as g2048_notation
from engines.hatetris import codecs
from engines.splt import notation as splt_notation
from tests.fuzz.mutations import check, fuzz_settings, mutated_text

GAME_NAMES = tuple(GAMES)
GAMES_PLAYED = 4  # random games per game, the pool every valid input is drawn from
LONGEST_GAME = 120


@functools.cache
def played(name: str) -> tuple[tuple[tuple, tuple], ...]:
    """Seeded random legal games of ``name`` (chance steps drawn with their probabilities): each as
    (the states, the moves and chance outcomes between them)."""
    game = GAMES[name]
    game.warm_up()
    games = []
    for seed in range(GAMES_PLAYED):
        rng = np.random.default_rng(seed)
        state = game.initial_state()
        states, moves = [state], []
        while len(moves) < LONGEST_GAME and not game.is_over(state):
            if game.is_chance_node(state):
                move = game.sample_chance(state, rng)
                state = game.apply_chance(state, move).state
            else:
                legal = game.legal_moves(state)
                move = legal[int(rng.integers(len(legal)))]
                state = game.play(state, move).state
            states.append(state)
            moves.append(move)
        games.append((tuple(states), tuple(moves)))
    # every path the targets take runs once here, so loading or compiling kernels is not a case's time
    for format in game.sequence_formats:
        read_sequence(game, game.sequence_text(Line(games[0][0][0], games[0][1]), format))
    read_board(game, game.board_text(games[0][0][-1]))
    return tuple(games)


@st.composite
def positions(draw: st.DrawFn, name: str):
    states, _ = draw(st.sampled_from(played(name)))
    return draw(st.sampled_from(states))


@st.composite
def lines(draw: st.DrawFn, name: str, from_the_start: bool = False) -> Line:
    """A stretch of a played game: from its start, or (where the format can say so) from a
    position inside it."""
    states, moves = draw(st.sampled_from(played(name)))
    first = 0 if from_the_start else draw(st.integers(0, len(moves)))
    last = draw(st.integers(first, len(moves)))
    return Line(states[first], moves[first:last])


def board_texts(name: str) -> st.SearchStrategy[str]:
    game = GAMES[name]
    texts = positions(name).map(game.board_text)
    if name == "splt":  # the diagram is SPL-T's second board form
        texts = st.one_of(texts, positions(name).map(splt_notation.board_diagram))
    return texts


def move_texts(name: str) -> st.SearchStrategy[str]:
    game = GAMES[name]

    @st.composite
    def move_text(draw: st.DrawFn) -> str:
        states, moves = draw(st.sampled_from(played(name)))
        if not moves:
            return game.move_text(game.legal_moves(states[0])[0])
        return game.move_text(draw(st.sampled_from(moves)))

    return move_text()


@st.composite
def sequence_texts(draw: st.DrawFn, name: str) -> str:
    game = GAMES[name]
    format = draw(st.sampled_from(game.sequence_formats))
    # replay codes and index lists say nothing of a start position: they start from the start
    from_the_start = format in ("index", *codecs.FORMATS)
    line = draw(lines(name, from_the_start))
    return game.sequence_text(line, format)


# -- what each target does with a text -------------------------------------------------------------
def read_board(game, text: str):
    """A board read as ``--position`` and the board editor read it, then used: its legal moves,
    and the first of them (or a chance outcome) played, so the kernels see the parsed state."""
    state = game.parse_board(text)
    if game.is_over(state):
        return state
    if game.is_chance_node(state):
        game.apply_chance(state, game.sample_chance(state, np.random.default_rng(0)))
    else:
        legal = game.legal_moves(state)
        if legal:
            game.play(state, legal[0])
    return state


def read_sequence(game, text: str) -> Line:
    """A sequence file read as ``kibitz replay`` and the window read it: where its moves are
    written (the sequence editor), the line, and the line replayed with the rules."""
    game.sequence_move_spans(text)
    line = game.parse_sequence(text, source="fuzz.txt")
    game.replay(line.start, line.moves)
    return line


# -- targets -----------------------------------------------------------------------------------------
@pytest.mark.parametrize("name", GAME_NAMES)
@fuzz_settings()
@given(data=st.data())
def test_boards(name, data):
    game = GAMES[name]
    text = data.draw(mutated_text(board_texts(name)))
    accepted, state = check(f"{name} board", read_board, game, text)
    if accepted:
        assert game.parse_board(game.board_text(state)) == state


@pytest.mark.parametrize("name", GAME_NAMES)
@fuzz_settings()
@given(data=st.data())
def test_moves(name, data):
    game = GAMES[name]
    text = data.draw(mutated_text(move_texts(name)))
    accepted, move = check(f"{name} move", game.parse_move, text)
    if accepted:
        assert game.parse_move(game.move_text(move)) == move


#: the format that writes any line, its start position included (a replay code cannot)
WRITTEN_WITH_START = {"hatetris": "placements", "splt": "geometric"}


@pytest.mark.parametrize("name", GAME_NAMES)
@fuzz_settings()
@given(data=st.data())
def test_sequences(name, data):
    game = GAMES[name]
    text = data.draw(mutated_text(sequence_texts(name)))
    accepted, line = check(f"{name} sequence", read_sequence, game, text)
    if accepted:
        again = game.parse_sequence(game.sequence_text(line, WRITTEN_WITH_START.get(name, game.sequence_formats[0])))
        assert again.start == line.start and again.moves == line.moves


@fuzz_settings()
@given(data=st.data())
def test_2048_saved_state(data):
    game = GAMES["2048"]
    text = data.draw(mutated_text(positions("2048").map(g2048_notation.game_state_json)))
    accepted, state = check("2048 saved state", read_board, game, text)
    if accepted:
        assert game.parse_board(g2048_notation.game_state_json(state)) == state


def replay_keys(name: str = "hatetris") -> st.SearchStrategy[str]:
    """The keys of a stretch of a played HATETRIS game from its start, as the page replays it."""
    from engines.hatetris import notation

    return lines(name, from_the_start=True).map(notation.replay_keys_of)


#: the pad key a decoder may add to keys written again (spec 2.4): hex pads with D, the RLE codes with L
PAD_KEY = {"raw": "", "hex": "D", "base65536": "L", "base2048": "L"}
DECODERS = {"raw": codecs.decode_raw, "hex": codecs.decode_hex, "base65536": codecs.decode_base65536,
            "base2048": codecs.decode_base2048}


@pytest.mark.parametrize("format", codecs.FORMATS)
@fuzz_settings()
@given(data=st.data())
def test_hatetris_codecs(format, data):
    text = data.draw(mutated_text(replay_keys().filter(bool).map(lambda keys: codecs.encode(keys, format))))
    accepted, keys = check(f"hatetris codec {format}", DECODERS[format], text)
    if accepted:
        again = DECODERS[format](codecs.encode(keys, format))
        assert again in (keys, keys + PAD_KEY[format])
        assert codecs.detect(codecs.encode(keys, format)) in codecs.FORMATS
