"""Fuzz targets: the command line's verbs, run in-process through :func:`app.cli.main`, on mutated
sequence files of every game (random legal games written by the games' own writers, then mutated)
and on mutated option values.

A case passes when ``kibitz`` answers with exit code 0 (done), 1 (bad input) or 2 (usage), an
error being one line on standard error that starts with ``kibitz`` and no traceback anywhere;
exit 1 and 2 count as refused. Where a verb accepted a file, what it printed or wrote is checked
against the engines' own reading of the same file.
"""

from __future__ import annotations

import contextlib
import io
import json
import uuid

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from app.cli import main
from engines import GAMES, KibitzInputError, Line
from engines.hatetris import codecs
from tests.engines.test_conformance import settle_chance
from tests.fuzz.mutations import check, fuzz_settings, mutated_bytes, mutated_text

GAME_NAMES = sorted(GAMES)
#: moves of the random legal games the files hold (short: each case replays its file)
MAX_MOVES = 40
#: options that keep each advisor's work to milliseconds, whatever the position
QUICK_ADVICE = {"splt": [], "2048": ["--depth", "1", "--threads", "1"], "1010": ["--threads", "1"],
                "destructo": ["--width", "2", "--limit", "3"]}


class CommandRefused(KibitzInputError):
    """``kibitz`` refused the case the documented way: exit 1 or 2 with a one-line message."""


def kibitz(*argv: str) -> dict:
    """Run ``kibitz ARGV`` in-process; its exit code and output, or CommandRefused for exit 1 and
    2. Anything else (another code, a traceback, an error that is not one line) fails."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(list(argv))
    errors = err.getvalue()
    assert "Traceback" not in errors and "Traceback" not in out.getvalue(), errors
    assert code in (0, 1, 2), f"exit code {code}: {errors}"
    if code == 0:
        return {"out": out.getvalue(), "err": errors}
    lines = errors.splitlines()
    assert len(lines) == 1 and lines[0].startswith("kibitz"), f"exit {code} with {errors!r}"
    raise CommandRefused(lines[0])


def random_line(game, seed: int, moves: int) -> Line:
    """A random legal game of ``game`` from its start, cut after about ``moves`` moves (chance
    steps included, as a line records them)."""
    rng = np.random.default_rng(seed)
    start = game.initial_state()
    played: list = []
    state = settle_chance(game, start, rng, played)
    while len(played) < moves:
        legal = game.legal_moves(state)
        if not legal:
            break
        move = legal[int(rng.integers(len(legal)))]
        played.append(move)
        state = settle_chance(game, game.play(state, move).state, rng, played)
    return Line(start, tuple(played))


@st.composite
def sequence_files(draw, names=GAME_NAMES) -> tuple[str, str]:
    """(game, text) of a valid sequence file, in one of the game's formats."""
    name = draw(st.sampled_from(names))
    game = GAMES[name]
    line = random_line(game, draw(st.integers(0, 2 ** 16)), draw(st.integers(1, MAX_MOVES)))
    return name, game.sequence_text(line, draw(st.sampled_from(game.sequence_formats)))


@st.composite
def mutated_files(draw, names=GAME_NAMES) -> tuple[str, bytes]:
    """(game, bytes) of a mutated sequence file: its text mutated, or its UTF-8 bytes."""
    name, text = draw(sequence_files(names))
    if draw(st.booleans()):
        return name, draw(mutated_text(st.just(text))).encode("utf-8", "surrogatepass")
    return name, draw(mutated_bytes(st.just(text.encode("utf-8"))))


def engines_reading(name: str, path) -> Line | None:
    """The line the engines read from a file (None when they refuse it or it is empty)."""
    try:
        text = path.read_bytes().decode("utf-8").removeprefix("\ufeff")
        return GAMES[name].parse_sequence(text, source=str(path)) if text.strip() else None
    except (KibitzInputError, UnicodeDecodeError):
        return None


@pytest.fixture(scope="module", autouse=True)
def warmed_up(tmp_path_factory):
    """Every game's kernels, and its advisor's, compiled or loaded before the first timed case."""
    folder = tmp_path_factory.mktemp("warm-up")
    for name, game in GAMES.items():
        game.warm_up()
        if name in QUICK_ADVICE:
            path = folder / f"{name}.txt"
            path.write_text(game.sequence_text(random_line(game, 1, 6)), encoding="utf-8")
            kibitz("advise", name, str(path), *QUICK_ADVICE[name])


def typed(data: bytes) -> str:
    """A file's bytes as text typed on the command line (which holds no NUL)."""
    return data.decode("utf-8", "replace").replace("\x00", "")


@given(case=mutated_files(), typing=st.booleans())
@fuzz_settings()
def test_replay_of_mutated_files(case, typing, tmp_path):
    name, data = case
    path = tmp_path / "line.txt"
    if typing and name == "hatetris":  # a replay code typed on the command line
        data = typed(data).encode("utf-8", "surrogatepass")
    path.write_bytes(data)
    argument = typed(data) if typing and name == "hatetris" and typed(data).strip() else str(path)
    accepted, result = check("cli replay (mutated sequence files)", kibitz, "replay", name, argument, "--json")
    if accepted:
        line = engines_reading(name, path)
        assert line is not None, "replayed a file the engines refuse"
        answer = json.loads(result["out"])
        counted = answer["placements"] if name == "hatetris" else answer["moves"]
        assert counted == len(line.moves)


@given(case=mutated_files(), target=st.integers(0, 4))
@fuzz_settings()
def test_convert_of_mutated_files(case, target, tmp_path):
    name, data = case
    game = GAMES[name]
    to = game.sequence_formats[target % len(game.sequence_formats)]
    path, written = tmp_path / "line.txt", tmp_path / "converted.txt"
    path.write_bytes(data)
    written.unlink(missing_ok=True)
    accepted, _ = check("cli convert (mutated sequence files)", kibitz, "convert", name, str(path), "--to", to,
                        "-o", str(written))
    if accepted:  # the round trip: the converted file reads as the same line
        original = engines_reading(name, path)
        again = game.parse_sequence(written.read_text(encoding="utf-8"), format=to)
        assert (again.start, again.moves) == (original.start, original.moves)
    else:
        assert not written.exists(), "a refused conversion wrote a file"


@given(case=mutated_files(["hatetris"]), typing=st.booleans())
@fuzz_settings()
def test_hatetris_search_from_mutated_replays(case, typing, tmp_path):
    _, data = case
    path = tmp_path / "replay.txt"
    path.write_bytes(data)
    argument = typed(data) if typing and typed(data).strip() else str(path)
    folder = tmp_path / f"beam-{uuid.uuid4().hex}"
    accepted, result = check("cli search hatetris (mutated --from)", kibitz, "search", "hatetris", "--from", argument,
                             "--width", "2", "--minutes", "0.002", "--out", str(folder), "--json")
    if accepted:  # the best game found is a replay that scores at least what the search says
        answer = json.loads(result["out"])
        if answer["replay"]:
            # (a stopped search's replay ends with Down presses until the game is over, which may
            # still clear a line; a search that died out scores exactly: tests/app/test_hatetris_cli.py)
            assert GAMES["hatetris"].replay_keys(codecs.decode(answer["replay"])).score >= answer["score"]
        assert (folder / "beam.npz").is_file()


ADVISED = [name for name in GAME_NAMES if name in QUICK_ADVICE]


@st.composite
def positions(draw) -> tuple[str, str, bool]:
    """(game, text, typed): a mutated sequence file or board text of a game with an advisor,
    to be given as a file or (boards of 2048, 1010!, Destruct-o-Match) typed."""
    name, text = draw(sequence_files(ADVISED))
    game = GAMES[name]
    if name != "splt" and draw(st.booleans()):
        line = game.parse_sequence(text)
        text = game.board_text(game.replay(line.start, line.moves))
    mutated = draw(mutated_text(st.just(text)))
    return name, mutated, name != "splt" and draw(st.booleans())


@given(case=positions())
@fuzz_settings()
def test_advise_on_mutated_positions(case, tmp_path):
    name, text, typed = case
    path = tmp_path / "position.txt"
    path.write_text(text, encoding="utf-8", errors="surrogatepass")
    argument = text if typed else str(path)
    if typed and not text.strip("\x00"):
        argument = str(path)
    accepted, result = check("cli advise (mutated positions)", kibitz, "advise", name, argument.replace("\x00", ""),
                             *QUICK_ADVICE[name], "--json")
    if accepted:
        assert json.loads(result["out"])["game"] == name


#: (verb arguments, the option whose value is mutated, its valid value): each runs at once
#: whatever the value (positions where the game is over or nothing is left to search)
FULL_2048 = "2 4 2 4/4 2 4 2/2 4 2 4/4 2 4 2"
FULL_1010 = "score 0 · tray O . . / " + " / ".join(["#.#.#.#.#."] * 10)
DONE_DESTRUCTO = "a g/g a"
OPTIONS = [
    (["advise", "2048", FULL_2048], "--depth", "3"),
    (["advise", "2048", FULL_2048], "--ms", "50"),
    (["advise", "2048", FULL_2048], "--threads", "2"),
    (["advise", "1010", FULL_1010], "--weights", "1a0k5"),
    (["advise", "1010", FULL_1010], "--limit", "5"),
    (["advise", "1010", FULL_1010], "--threads", "1"),
    (["advise", "destructo", DONE_DESTRUCTO], "--width", "40"),
    (["advise", "destructo", DONE_DESTRUCTO], "--ms", "20"),
    (["advise", "destructo", DONE_DESTRUCTO], "--limit", "3"),
    (["advise", "destructo", DONE_DESTRUCTO], "--search", "planner"),
    (["replay", "hatetris", "Atypical"], "--format", "raw"),
    (["replay", "splt", "LINE"], "--format", "index"),
    (["convert", "splt", "LINE"], "--to", "geometric"),
    (["advise", "splt", "LINE"], "--format", "index"),
]


@given(choice=st.sampled_from(OPTIONS), value=st.data())
@fuzz_settings()
def test_mutated_option_values(choice, value, tmp_path):
    arguments, option, valid = choice
    path = tmp_path / "line.txt"
    path.write_text("[0, 1, 1, 3]", encoding="utf-8")
    mutated = value.draw(mutated_text(st.just(valid)))
    argv = [str(path) if argument == "LINE" else argument for argument in arguments]
    check("cli options (mutated values)", kibitz, *argv, option, mutated.replace("\x00", ""))
