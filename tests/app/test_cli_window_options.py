"""``kibitz`` with the window's options: its help, the options that do not go together, and the
README's examples of them.

Expected values are worked out by hand from the SPL-T rules (spec: the first split is horizontal,
then they alternate; a move names its box by the top-left corner) and the 2048 spec's cell
convention (row r = 0..3 top to bottom, column c = 0..3 left to right).
"""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

from app import cli
from app.cli import main

PROJECT = Path(__file__).resolve().parents[2]
README = (PROJECT / "README.md").read_text(encoding="utf-8")
WINDOW_OPTIONS = ("--game", "--position", "--moves", "--open", "--at", "--layout", "--size", "--screenshot")


def kibitz(*argv: str, timeout: float = 300) -> subprocess.CompletedProcess:
    environment = {**os.environ, "QT_QPA_PLATFORM": "offscreen", "PYTHONPATH": str(PROJECT)}
    return subprocess.run([sys.executable, "-m", "app", *argv], capture_output=True, text=True,
                          timeout=timeout, env=environment, cwd=PROJECT)


# -- help ------------------------------------------------------------------------------------------
@pytest.mark.parametrize("argv", [["--help"], ["-h"], ["--game", "splt", "--help"]])
def test_help_lists_the_window_options_and_the_verbs(argv):
    result = kibitz(*argv)
    assert result.returncode == 0, result.stderr
    help_text = result.stdout
    assert help_text.startswith("usage: kibitz [WINDOW OPTION ...]    open the window\n"
                                "       kibitz VERB ...               run the engines headless")
    for option in WINDOW_OPTIONS:
        assert re.search(rf"^  {option}\b", help_text, re.MULTILINE), option
    for verb in ("replay", "convert", "advise", "play", "search", "bench", "read"):
        assert re.search(rf"^    {verb}\s", help_text, re.MULTILINE), verb
    assert "with --open: show the position after move N" in help_text


def test_a_verbs_own_help_is_still_its_own(capsys):
    assert cli.main(["replay", "--help"]) == 0
    help_text = capsys.readouterr().out
    assert help_text.startswith("usage: kibitz replay [-h] [--format FORMAT] [--json] game file")
    # each game's own options of the verb, under the game's name
    assert re.search(r"^HATETRIS options \(kibitz replay hatetris \.\.\.\):\n  --mild\b", help_text, re.MULTILINE)
    assert cli.main(["replay", "hatetris", "--help"]) == 0
    assert capsys.readouterr().out.startswith("usage: kibitz replay [-h] [--format {base2048,base65536,hex,raw,placements}]")


# -- options that do not go together --------------------------------------------------------------
@pytest.mark.parametrize(("argv", "number"), [(["--at", "3"], 3), (["--game", "2048", "--at", "0", "--layout", "compact"], 0)])
def test_at_without_open_is_refused_saying_why(tmp_path, argv, number):
    shot = tmp_path / "shot.png"  # (a window that opened anyway would save it and quit)
    result = kibitz(*argv, "--screenshot", str(shot), "--screenshot-delay", "0")
    assert result.returncode == 2
    assert result.stderr == (f"kibitz: --at {number} needs --open FILE: it shows the position after move "
                             f"{number} of the opened sequence file\n")
    assert result.stdout == "" and not shot.exists()


def test_at_with_open_past_the_end_names_the_file_and_its_length(capsys, tmp_path):
    path = tmp_path / "three.txt"
    path.write_text("[0, 1, 1]")  # three splits
    assert main(["--open", str(path), "--at", "4"]) == 2
    assert capsys.readouterr().err == f"kibitz: --at 4: {path} has 3 moves\n"


# -- the README's examples -------------------------------------------------------------------------
def readme_window_examples() -> list[list[str]]:
    return [shlex.split(line)[1:] for line in README.splitlines() if line.startswith("kibitz --game splt ")]


# three splits from the empty board: 0,0,8,16 across (move 1, horizontal), then 0,8,8,8 down the
# middle (move 2, vertical), then 0,8,4,8 across (move 3): both examples end here
THREE_SPLITS = {(0, 0, 8, 8), (0, 8, 4, 4), (0, 12, 4, 4), (4, 8, 4, 8)}


def test_the_readme_examples_give_the_position_it_says():
    from engines import GAMES

    examples = readme_window_examples()
    assert len(examples) == 2
    game = GAMES["splt"]
    for argv in examples:
        options, rest = cli.window_parser().parse_known_args(argv)
        assert rest == [] and options.game == "splt"
        start = game.parse_board(options.position) if options.position else game.initial_state()
        end = game.replay(start, [game.parse_move(token) for token in options.moves.split()])
        assert {(box.x, box.y, box.w, box.h) for box in end.boxes} == THREE_SPLITS
        assert end.splits == 3


def test_the_readme_examples_open_the_window(tmp_path):
    for number, argv in enumerate(readme_window_examples()):
        shot = tmp_path / f"example-{number}.png"
        result = kibitz(*argv, "--size", "700x800", "--screenshot", str(shot), "--screenshot-delay", "0")
        assert result.returncode == 0, result.stderr
        assert shot.is_file()


def test_the_old_readme_moves_need_their_position(capsys):
    """``--moves "0,8 0,8"`` alone: from the empty board the only box is 0,0,8,16."""
    assert main(["--game", "splt", "--moves", "0,8 0,8"]) == 2
    assert capsys.readouterr().err == ("kibitz: --moves: move 1 token '0,8': cell (0,8) is inside box "
                                       "(0,0,8,16), not its top-left corner\n")


@pytest.mark.parametrize("argv, said", [
    # a 2048 board has four rows (spec); one word is one row
    (["--game", "2048", "--position", "x"], "kibitz: --position: line 1: a board has 4 rows, found 1\n"),
    # the number of splits is bounded (SPL-T spec: 2**30); the token is named with its column
    (["--game", "splt", "--position", "splits=99999999999999999999999 score=0 | 0,0,8,16"],
     "kibitz: --position: line 1, column 1: token 'splits=99999999999999999999999': splits is "
     "99999999999999999999999; it must be from 0 to 1,073,741,824\n"),
    # a word that is no slide at all is named by its place in --moves
    (["--game", "2048", "--moves", "L U X"],
     "kibitz: --moves: move 3: token 'X': expected a slide U, R, D or L, or a spawn such as 2@0,3 "
     "(value@row,column)\n"),
])
def test_a_bad_window_option_text_is_named_by_its_option(capsys, argv, said):
    assert main(argv) == 2
    assert capsys.readouterr().err == said


def test_readme_and_the_app_count_2048_rows_and_columns_alike():
    from app.gui.games.g2048.text import summarize_turn
    from engines.g2048 import GAME

    match = re.search(r"`2@(\d),(\d)` is a 2 in row (\d), column (\d)", README)
    assert match, "the README explains a spawn's cell"
    row, column, said_row, said_column = map(int, match.groups())
    assert (said_row, said_column) == (row + 1, column + 1)  # the spec counts from 0 at the top-left
    step = GAME.play(GAME.initial_state(), GAME.parse_move(f"2@{row},{column}"))
    assert [[step.state.value(r, c) for c in range(4)] for r in range(4)][row][column] == 2
    assert sum(step.state.value(r, c) for r in range(4) for c in range(4)) == 2
    status = summarize_turn(step.events)
    assert status == f"2 spawned at row {said_row}, column {said_column} (2@{row},{column})"
    assert f'"{status}"' in README.replace("\n", " ")
