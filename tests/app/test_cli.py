"""The headless command line: ``kibitz replay``, ``kibitz convert``, ``kibitz bench``."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from app import cli


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = cli.main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize(
    ("file_name", "moves", "score"),
    [
        ("1196seq.txt", 1196, 878_866),
        ("sequence1027.txt", 1027, 640_207),
        ("nonrandomAlgorithm_seq.txt", 166, 14_666),
    ],
)
def test_replay_json(capsys, splt_data, file_name, moves, score):
    code, out, err = run(capsys, "replay", "splt", str(splt_data / file_name), "--json")
    assert code == 0, err
    assert json.loads(out) == {"game": "splt", "moves": moves, "score": score, "over": True}


def test_replay_text(capsys, splt_data):
    code, out, _ = run(capsys, "replay", "splt", str(splt_data / "1053seq.txt"))
    assert code == 0
    assert out.splitlines()[1:] == ["moves  1053", "score  676275", "over   yes"]


def test_replay_of_an_unfinished_game(capsys, tmp_path):
    path = tmp_path / "short.txt"
    path.write_text("[0, 1, 1, 3]")
    code, out, _ = run(capsys, "replay", "splt", str(path), "--json")
    assert code == 0
    assert json.loads(out) == {"game": "splt", "moves": 4, "score": 4, "over": False}


def test_replay_illegal_move_names_move_token_box_and_reason(capsys, tmp_path):
    # Index 0 eight times: the top-left box goes 8x16, 8x8, 4x8, 4x4, 2x4, 2x2, 1x2, 1x1 and the
    # eighth split is vertical.
    path = tmp_path / "bad.txt"
    path.write_text("0, 0, 0, 0, 0, 0, 0, 0, 0")
    code, out, err = run(capsys, "replay", "splt", str(path), "--json")
    assert code == 1
    assert f"{path}, line 1, column 22: move 8 token '0': box (0,0,1,1) cannot split vertically: width 1" in err
    payload = json.loads(out)
    assert payload["move"] == 8
    assert payload["token"] == "0"
    assert payload["reason"] == "box (0,0,1,1) cannot split vertically: width 1"


def test_replay_garbled_file(capsys, tmp_path):
    path = tmp_path / "garbled.txt"
    path.write_text("[0, 1, 1, 3, 3, 5, 4, 3, 7,, 9]")
    code, _, err = run(capsys, "replay", "splt", str(path))
    assert code == 1
    assert "line 1, column 28: move 10: empty entry" in err


def test_replay_truncated_geometric_file(capsys, tmp_path):
    path = tmp_path / "cut.kibitz"
    path.write_text("# kibitz splt sequence\n1. 0,0,8,16 0,8,8,8 0,8,4")
    code, _, err = run(capsys, "replay", "splt", str(path))
    assert code == 1
    assert "line 2, column 21: move 3 token '0,8,4': a move is x,y or x,y,w,h" in err


def test_replay_missing_and_binary_files(capsys, splt_data, tmp_path):
    code, _, err = run(capsys, "replay", "splt", str(tmp_path / "nothing.txt"))
    assert (code, err) == (1, f"kibitz: {tmp_path / 'nothing.txt'}: no such file\n")
    code, _, err = run(capsys, "replay", "splt", str(splt_data / "6ptblock.png"))
    assert code == 1 and "not UTF-8 text (byte 0 is 0x89)" in err


def test_unknown_game_and_format(capsys, splt_data):
    code, _, err = run(capsys, "replay", "chess", "x.txt")
    assert code == 2 and "unknown game 'chess'" in err
    code, _, err = run(capsys, "replay", "splt", str(splt_data / "1196seq.txt"), "--format", "pgn")
    assert code == 2 and "argument --format: invalid choice: 'pgn' (choose from 'geometric', 'index')" in err


def test_convert_round_trip_writes_atomically(capsys, splt_data, tmp_path):
    geometric = tmp_path / "1196.kibitz"
    code, _, err = run(capsys, "convert", "splt", str(splt_data / "1196seq.txt"), "--to", "geometric", "-o", str(geometric))
    assert code == 0, err
    assert geometric.read_text().startswith("# kibitz splt sequence\n")
    assert [p.name for p in tmp_path.iterdir()] == ["1196.kibitz"]  # no temporary file left
    code, out, _ = run(capsys, "convert", "splt", str(geometric), "--to", "index")
    assert code == 0
    original = (splt_data / "1196seq.txt").read_text().strip()
    assert out.strip() == "[" + original + "]"


def test_convert_refuses_illegal_input_and_keeps_the_old_output(capsys, tmp_path):
    target = tmp_path / "out.txt"
    target.write_text("precious")
    bad = tmp_path / "bad.txt"
    bad.write_text("[0, 0, 0, 0, 0, 0, 0, 0]")
    code, _, err = run(capsys, "convert", "splt", str(bad), "--to", "geometric", "-o", str(target))
    assert code == 1 and "move 8" in err
    assert target.read_text() == "precious"


def test_bench_json(capsys):
    code, out, _ = run(capsys, "bench", "splt", "--seconds", "0.2", "--json")
    assert code == 0
    payload = json.loads(out)
    assert [path["path"] for path in payload["paths"]] == ["numba kernel", "plain-Python reference"]
    assert all(path["splits"] > 0 for path in payload["paths"])


def test_entry_point_runs_as_a_module(splt_data):
    result = subprocess.run(
        [sys.executable, "-m", "app", "replay", "splt", str(splt_data / "1196seq.txt"), "--json"],
        capture_output=True, text=True, timeout=300,
    )
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["score"] == 878_866
