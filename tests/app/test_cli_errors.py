"""The command line's answers to wrong input and wrong usage (issue 23): options out of range are
usage errors naming the option and its range; an unknown verb is an error, not the window; a
missing file or a folder is said so; an empty file is refused; every error about a file's content
names the file; nothing is lost silently; no traceback reaches the user; output into a closed pipe
ends quietly; searches write to the data folder unless --out is given.

Expected values come from the rules (spec) and from the ranges the help documents, worked out by
hand for each case.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from app import cli
from app.cli.data_folder import data_folder
from app.cli.inputs import names_a_file

PROJECT = Path(__file__).resolve().parents[2]


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = cli.main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def one_line(err: str) -> str:
    assert err.count("\n") == 1 and err.endswith("\n"), err
    assert "Traceback" not in err
    return err.rstrip("\n")


# -- option values out of range: exit 2, the option and its range named ------------------------------
BOARD_2048 = "2 4 . ./. . . ./. . . ./. . . ."
ROWS_1010 = ["#########."] + ["#...#...#.", ".#...#...#"] * 4 + ["#...#...#."]
BOARD_1010 = "score 7 · tray H . 0 / " + " / ".join(ROWS_1010)


@pytest.mark.parametrize(("argv", "expected"), [
    (["advise", "2048", BOARD_2048, "--threads", "0"],
     "kibitz advise: argument --threads: must be a whole number from 1 to 256, not '0'"),
    (["play", "2048", "--seed", "-5"],
     "kibitz play: argument --seed: must be a whole number from 0 to 4,294,967,295, not '-5'"),
    (["bench", "--seconds", "0"], "kibitz bench: argument --seconds: must be a number above 0 and at most 3,600, not '0'"),
    (["bench", "--seconds", "-1"], "kibitz bench: argument --seconds: must be a number above 0 and at most 3,600, not '-1'"),
    (["advise", "1010", BOARD_1010, "--limit", "-3"],
     "kibitz advise: argument --limit: must be a whole number from 1 to 1,000, not '-3'"),
    (["advise", "1010", BOARD_1010, "--weights", "-1"],
     "kibitz advise: argument --weights: must be five base-36 digits (0-9, a-z) such as 10025 or 1a0k5, not '-1'"),
    (["advise", "1010", BOARD_1010, "--weights", "zzzzzz"],
     "kibitz advise: argument --weights: must be five base-36 digits (0-9, a-z) such as 10025 or 1a0k5, not 'zzzzzz'"),
    (["advise", "1010", BOARD_1010, "--weights", "xyz"],
     "kibitz advise: argument --weights: must be five base-36 digits (0-9, a-z) such as 10025 or 1a0k5, not 'xyz'"),
    (["search", "hatetris", "--width", "100000000000"],
     "kibitz search: argument --width: must be a whole number from 1 to 1,000,000, not '100000000000'"),
    (["play", "destructo", "--search", "irpan", "--depth", "99"],
     "kibitz play: argument --depth: must be a whole number from 1 to 6, not '99'"),
    (["advise", "destructo", "a g g/g a a", "--width", "10000000"],
     "kibitz advise: argument --width: must be a whole number from 1 to 100,000, not '10000000'"),
    (["search", "splt", "--checkpoint-seconds", "nan"],
     "kibitz search: argument --checkpoint-seconds: must be a number above 0 and at most 86,400, not 'nan'"),
])
def test_an_option_out_of_range_is_a_usage_error_naming_it_and_its_range(capsys, argv, expected):
    code, out, err = run(capsys, *argv)
    assert code == 2 and out == ""
    assert one_line(err).startswith(expected), err


def test_the_weights_in_range_are_read_as_coelho_writes_them(capsys):
    # 1A0K5: base-36 digits 1, 10, 0, 20, 5 (case does not matter), printed back in lower case
    code, out, err = run(capsys, "advise", "1010", BOARD_1010, "--weights", "1A0K5", "--limit", "1", "--json")
    assert code == 0, err
    assert json.loads(out)["weights"] == "1a0k5"


def test_an_option_of_another_game_is_a_usage_error(capsys):
    code, _, err = run(capsys, "advise", "splt", "x.txt", "--depth", "3")
    assert code == 2 and "unrecognized arguments: --depth 3" in one_line(err)


def test_a_verb_a_game_does_not_have_is_a_usage_error(capsys):
    code, _, err = run(capsys, "play", "splt")
    assert code == 2
    assert one_line(err) == "kibitz play: play takes 2048, 1010, destructo, not SPL-T (splt)"


# -- an unknown verb ------------------------------------------------------------------------------------
def test_a_mistyped_verb_is_an_error_with_a_suggestion(capsys):
    code, out, err = run(capsys, "replya", "splt", "x.txt")
    assert code == 2 and out == ""
    assert one_line(err).startswith("kibitz: unknown verb 'replya'; did you mean replay?")


def test_a_mistyped_verb_never_opens_the_window_even_without_a_display(tmp_path):
    environment = {key: value for key, value in os.environ.items()
                   if key not in ("DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM")}
    result = subprocess.run([sys.executable, "-m", "app", "replya", "splt", "x.txt"], capture_output=True, text=True,
                            timeout=120, env={**environment, "PYTHONPATH": str(PROJECT)}, cwd=tmp_path)
    assert result.returncode == 2
    assert result.stderr.startswith("kibitz: unknown verb 'replya'; did you mean replay?")
    assert "xcb" not in result.stderr


# -- kibitz --help -----------------------------------------------------------------------------------------
# every option of every verb, and of each game under a verb (read off the verbs' descriptions in the README)
EVERY_OPTION = {
    "replay": ["--format", "--json", "--mild"],
    "convert": ["--to", "--format", "--output", "--mild"],
    "advise": ["--json", "--format", "--depth", "--ms", "--threads", "--weights", "--limit", "--search", "--width"],
    "play": ["--games", "--seed", "--json", "--depth", "--ms", "--threads", "--max-moves", "--weights", "--rounds-cap",
             "--search", "--width", "--expand"],
    "search": ["--from", "--from-move", "--minutes", "--resume", "--out", "--checkpoint-seconds", "--json", "--player",
               "--format", "--games", "--workers", "--seed", "--variant", "--opening-moves", "--reseed-below",
               "--close-call-every", "--close-call-after", "--stale-games", "--trigger", "--width", "--lookahead",
               "--weights", "--mild", "--threads"],
    "bench": ["--seconds", "--seed", "--json"],
    "read": ["--json"],
}


def test_help_lists_every_option_of_every_verb_and_the_exit_codes(capsys):
    code, help_text, _ = run(capsys, "--help")
    assert code == 0
    for verb, options in EVERY_OPTION.items():
        section = help_text[help_text.index(f"options of {verb}: "):]
        following = [f"options of {other}: " for other in EVERY_OPTION if f"options of {other}: " in section[1:]]
        end = min((section.index(mark, 1) for mark in following), default=len(section))
        for option in options:
            assert re.search(rf"^  (-\w \S+, )?{option}\b", section[:end], re.MULTILINE), (verb, option)
    assert "exit codes:\n  0    done\n  1    bad input" in help_text
    assert "\n  2    wrong command-line usage" in help_text


# -- files: missing, folders, empty ------------------------------------------------------------------------------
def test_a_missing_file_is_no_such_file_not_a_replay_code(capsys):
    code, _, err = run(capsys, "replay", "hatetris", "/nonexistent/replay.txt")
    assert code == 1 and one_line(err) == "kibitz: /nonexistent/replay.txt: no such file"


def test_a_missing_board_file_is_no_such_file_not_a_board(capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    code, _, err = run(capsys, "advise", "2048", "missing.txt")
    assert code == 1 and one_line(err) == "kibitz: missing.txt: no such file"


def test_a_folder_is_said_to_be_a_folder(capsys, tmp_path):
    code, _, err = run(capsys, "replay", "splt", str(tmp_path))
    assert code == 1 and one_line(err) == f"kibitz: {tmp_path}: is a folder, not a file"
    code, _, err = run(capsys, "advise", "2048", str(tmp_path))
    assert code == 1 and one_line(err) == f"kibitz: {tmp_path}: is a folder, not a file"


def test_a_missing_or_folder_screenshot_is_said_so(capsys, tmp_path):
    code, _, err = run(capsys, "read", "2048", str(tmp_path / "shot.png"))
    assert code == 1 and one_line(err) == f"kibitz: {tmp_path / 'shot.png'}: no such file"
    code, _, err = run(capsys, "read", "2048", str(tmp_path))
    assert code == 1 and one_line(err) == f"kibitz: {tmp_path}: is a folder, not a file"


def test_an_empty_file_is_refused(capsys, tmp_path):
    path = tmp_path / "empty.txt"
    path.write_text("\n  \n")
    code, out, err = run(capsys, "replay", "splt", str(path), "--json")
    assert code == 1 and one_line(err) == f"kibitz: {path}: the file is empty"
    assert json.loads(out)["reason"] == "the file is empty"


@pytest.mark.parametrize(("argument", "is_path"), [
    ("missing.txt", True), ("games/atypical", True), ("/nonexistent/replay.txt", True), ("~/line.kibitz", True),
    ("./line", True), ("C:\\games\\line.txt", True), ("my game.TXT", True),
    # board texts written on one line, and replay codes, are typed text
    (BOARD_2048, False), ("#########./#...#...#./.#...#...#", False), ("a g g/g a a", False), (BOARD_1010, False),
    ("LLRRDDUU", False), ("0123 4567 89AB", False), ("2 4 8 16\n. . . .", False),
])
def test_which_arguments_name_files(argument, is_path):
    assert names_a_file(argument) is is_path


# -- errors about a file's content name the file -------------------------------------------------------------------
def test_an_illegal_hatetris_placement_names_the_file(capsys, tmp_path):
    # an S piece at the top of the well can still fall: not where a piece locks
    path = tmp_path / "placements.txt"
    path.write_text("S@0,0,0\n")
    expected = (f"kibitz: {path}: move 1 token 'S@0,0,0': S@0,0,0 is not a resting position: the piece can still "
                "move down")
    code, _, err = run(capsys, "replay", "hatetris", str(path))
    assert code == 1 and one_line(err) == expected
    code, out, err = run(capsys, "convert", "hatetris", str(path), "--to", "raw")
    assert code == 1 and one_line(err) == expected and out == ""


def test_an_illegal_2048_move_names_the_file(capsys, tmp_path):
    # 2 . . 2 slides left into a 4; one tile spawns (2@0,3); a second spawn is not due
    path = tmp_path / "line.txt"
    path.write_text("2@0,0 2@0,3 L 2@0,3 2@3,2\n")
    code, _, err = run(capsys, "advise", "2048", str(path), "--depth", "1")
    assert code == 1
    assert one_line(err) == f"kibitz: {path}: move 5 token '2@3,2': no tile is due: the player moves now"


def test_a_2048_board_file_with_a_3_is_blamed_on_the_3(capsys, tmp_path):
    path = tmp_path / "board.txt"
    path.write_text("3 4 . .\n. . . .\n. . . .\n. . . .\n")
    code, _, err = run(capsys, "advise", "2048", str(path))
    assert code == 1 and one_line(err).startswith(f"kibitz: {path}, line 1: token '3': ")


def test_an_illegal_1010_placement_names_the_file(capsys, tmp_path):
    path = tmp_path / "game.txt"
    path.write_text("deal:Hh.\nH@0,0 O@3,3\n")  # the tray holds h and . once H is placed
    code, _, err = run(capsys, "advise", "1010", str(path))
    assert code == 1 and one_line(err) == f"kibitz: {path}: move 3 token 'O@3,3': O is not in the tray (h .)"


def test_an_illegal_destructo_click_names_the_file(capsys, tmp_path):
    # the greys at (1,1) (1,2) go, the greens above them fall: the grey at (0,0) stands alone
    path = tmp_path / "game.txt"
    path.write_text("board:a,g,g/g,a,a\n1,1\n0,0\n")
    code, _, err = run(capsys, "advise", "destructo", str(path))
    assert code == 1
    assert one_line(err) == f"kibitz: {path}: move 3 token '0,0': the boulder at (0, 0) has no neighbour of its colour"


def test_an_empty_2048_board_is_not_game_over(capsys):
    code, out, err = run(capsys, "advise", "2048", ". . . ./. . . ./. . . ./. . . .")
    assert code == 1 and "game over" not in out + err
    assert one_line(err).startswith("kibitz: the board text: the board is empty: a game starts with two tiles")


# -- nothing lost silently ----------------------------------------------------------------------------------------
def test_converting_a_set_up_start_to_an_index_list_is_refused(capsys, tmp_path):
    # an index list always starts from the empty board (spec: index lists): the start: line cannot go in it
    path = tmp_path / "line.kibitz"
    path.write_text("# kibitz splt sequence\nstart: splits=1 score=1 | 0,0,8,8 0,8,8,8\n1. 0,0\n")
    target = tmp_path / "out.txt"
    code, out, err = run(capsys, "convert", "splt", str(path), "--to", "index", "-o", str(target))
    assert code == 1 and out == "" and not target.exists()
    assert one_line(err) == (f"kibitz: {path}: the line starts from a set-up position, which the index format cannot "
                             "hold (it always starts from a new game); nothing was written")
    code, out, err = run(capsys, "convert", "splt", str(path), "--to", "geometric")
    assert code == 0 and "start: splits=1 score=1 | 0,0,8,8 0,8,8,8\n1. 0,0\n" in out


# -- no traceback, quiet pipes ------------------------------------------------------------------------------------
def test_a_bug_is_one_line_naming_a_crash_report(capsys, monkeypatch, tmp_path):
    import dataclasses

    from app.cli.games import g2048

    def broken(game, args):
        raise ZeroDivisionError("a bug")

    monkeypatch.setattr(g2048, "PLUG", dataclasses.replace(g2048.PLUG, work={**g2048.PLUG.work, "advise": broken}))
    code, _, err = run(capsys, "advise", "2048", BOARD_2048)
    assert code == 3
    line = one_line(err)
    assert line.startswith("kibitz: internal error (ZeroDivisionError): this is a bug in Kibitz, not in your input; "
                           "the details are in ")
    report = Path(line.rsplit("the details are in ", 1)[1])
    assert report.parent == data_folder() / "crash-reports"
    text = report.read_text()
    assert "Traceback" in text and "ZeroDivisionError: a bug" in text and "'advise', '2048'" in text


def test_output_into_a_closed_pipe_ends_quietly(splt_data):
    process = subprocess.Popen([sys.executable, "-m", "app", "convert", "splt", str(splt_data / "1196seq.txt"),
                                "--to", "geometric"], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               env={**os.environ, "PYTHONPATH": str(PROJECT)})
    process.stdout.close()  # the reader is gone before anything is written, as `| head -1` after its line
    _, errors = process.communicate(timeout=300)
    assert process.returncode == 0
    assert errors == b""


# -- searches: the data folder ----------------------------------------------------------------------------------------
def test_a_search_without_out_writes_to_the_data_folder_and_says_where(capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path / ".")
    code, out, err = run(capsys, "search", "splt", "--player", "greedy", "--json")
    assert code == 0, err
    folder = Path(json.loads(out)["folder"])
    assert folder.parent == data_folder() / "searches" and folder.name.startswith("splt-greedy-")
    assert f"in {folder};" in err.splitlines()[0]
    assert list(tmp_path.iterdir()) == []  # nothing in the current folder


def test_a_hatetris_search_takes_its_checkpoint_interval(capsys, tmp_path, monkeypatch):
    from advisors.hatetris.beam import BeamSearch

    intervals = []
    original = BeamSearch.run

    def recording(self, *args, **kwargs):
        intervals.append(kwargs.get("checkpoint_seconds"))
        return original(self, *args, **kwargs)

    monkeypatch.setattr(BeamSearch, "run", recording)
    code, _, err = run(capsys, "search", "hatetris", "--width", "5", "--checkpoint-seconds", "0.5", "--out",
                       str(tmp_path / "beam"), "--json")
    assert code == 0, err
    assert intervals == [0.5]
    assert (tmp_path / "beam" / "beam.npz").is_file()


@pytest.fixture(scope="module")
def saved_beam(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("beam") / "search"
    code = cli.main(["search", "hatetris", "--width", "5", "--minutes", "0.02", "--checkpoint-seconds", "0.5",
                     "--out", str(folder), "--json"])
    assert code == 0 and (folder / "beam.npz").is_file()
    return folder


def _flip_a_byte_inside(data: bytes) -> bytes:
    middle = len(data) // 2
    return data[:middle] + bytes([data[middle] ^ 0xFF]) + data[middle + 1:]


@pytest.mark.parametrize(("damage", "said"), [
    (lambda data: data[: len(data) // 2], r"damaged archive \(BadZipFile: File is not a zip file\)"),
    (lambda data: b"\x93NUMPY" + bytes(range(90)), r"not an \.npz archive \(damaged, or another kind of file\)"),
    (lambda data: b"", r"not an \.npz archive"),
    (_flip_a_byte_inside, r"damaged archive \(BadZipFile: Bad CRC-32 for file|damaged archive \(error: Error -3"),
])
def test_a_hatetris_search_resumed_from_a_damaged_beam_says_so_and_keeps_the_file(capsys, saved_beam, tmp_path,
                                                                                  damage, said):
    import shutil

    folder = tmp_path / "search"
    shutil.copytree(saved_beam, folder)
    damaged = damage((folder / "beam.npz").read_bytes())
    (folder / "beam.npz").write_bytes(damaged)
    code, out, err = run(capsys, "search", "hatetris", "--resume", str(folder), "--minutes", "0.02")
    assert code == 1 and out == ""
    assert re.fullmatch(rf"kibitz: {re.escape(str(folder / 'beam.npz'))}: ({said}).*\n", err), err
    assert (folder / "beam.npz").read_bytes() == damaged  # nothing overwritten


@pytest.mark.parametrize(("platform", "environment", "expected"), [
    # platformdirs.user_data_dir("kibitz", appauthor=False) on each platform
    ("linux", {"HOME": "/home/ann"}, "/home/ann/.local/share/kibitz"),
    ("linux", {"HOME": "/home/ann", "XDG_DATA_HOME": "/data/ann"}, "/data/ann/kibitz"),
    ("linux", {"HOME": "/home/ann", "XDG_DATA_HOME": "relative"}, "/home/ann/.local/share/kibitz"),
    ("darwin", {"HOME": "/Users/ann"}, "/Users/ann/Library/Application Support/kibitz"),
    ("win32", {"USERPROFILE": "C:/Users/ann", "LOCALAPPDATA": "C:/Users/ann/AppData/Local"},
     "C:/Users/ann/AppData/Local/kibitz"),
    ("linux", {"HOME": "/home/ann", "KIBITZ_DATA_DIR": "/tmp/kibitz-tests"}, "/tmp/kibitz-tests"),
])
def test_the_data_folder_of_each_platform(platform, environment, expected):
    assert data_folder(environment, platform) == Path(expected)


# -- one package, no import circle ------------------------------------------------------------------------------
CLI_MODULES = ["app.cli", "app.cli.main", "app.cli.window", "app.cli.replay", "app.cli.convert", "app.cli.advise",
               "app.cli.play", "app.cli.search", "app.cli.read", "app.cli.bench", "app.cli.games.splt",
               "app.cli.games.hatetris", "app.cli.games.g2048", "app.cli.games.tenten", "app.cli.games.destructo"]


def test_each_module_of_the_command_line_imports_first_and_without_the_window():
    script = ("import importlib, sys\n"
              "importlib.import_module(sys.argv[1])\n"
              "assert 'PySide6' not in sys.modules and 'app.gui' not in sys.modules, 'the window was imported'\n")
    for module in CLI_MODULES:  # each first in a fresh interpreter: a circle fails on a half-made module
        result = subprocess.run([sys.executable, "-c", script, module], capture_output=True, text=True, timeout=120,
                                env={**os.environ, "PYTHONPATH": str(PROJECT)})
        assert result.returncode == 0, (module, result.stderr)
