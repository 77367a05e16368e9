"""``kibitz advise 1010 BOARD`` and ``kibitz play 1010`` headless."""

from __future__ import annotations

import json

from app import cli

ROWS = ["#########."] + ["#...#...#.", ".#...#...#"] * 4 + ["#...#...#."]


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = cli.main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_advise_a_board_given_as_one_line(capsys):
    # Row 0 lacks only its last cell: the single there clears it, and only then the 5-bar fits.
    board = "score 7 · tray H . 0 / " + " / ".join(ROWS)
    code, out, err = run(capsys, "advise", "1010", board, "--json", "--limit", "3")
    assert code == 0, err
    result = json.loads(out)
    assert result["weights"] == "10025" and len(result["candidates"]) == 3
    best = result["candidates"][0]
    assert best["move"] == ".@0,9" and best["plan"][0] == ".@0,9" and best["plan"][1].startswith("H@0,")
    assert best["complete"] and best["points"] == 1 + 10 + 5 and best["loss"] == 0
    assert not result["candidates"][1]["complete"]
    code, out, err = run(capsys, "advise", "1010", board)
    assert code == 0 and " 1. .@0,9 " in out and "the game ends" in out


def test_advise_a_sequence_file_and_weight_strings(capsys, tmp_path):
    path = tmp_path / "game.txt"
    path.write_text("deal:Hh. H@0,0 h@0,5\n")  # row 0 needs one more cell: the single
    code, out, err = run(capsys, "advise", "1010", str(path), "--json", "--weights", "1a0k5")
    assert code == 0, err
    result = json.loads(out)
    assert result["weights"] == "1a0k5"
    assert result["candidates"][0]["move"] == ".@0,9" and result["candidates"][0]["points"] == 11


def test_errors_say_where(capsys, tmp_path):
    code, out, err = run(capsys, "advise", "1010", "score 1 / " + " / ".join(ROWS[:9]))
    assert code == 1 and "a board has 10 rows, found 9" in err
    path = tmp_path / "bad.txt"
    path.write_text("deal:Hh.\nH@0,0 O@3,3\n")
    code, out, err = run(capsys, "advise", "1010", str(path))
    assert code == 1 and "move 3" in err and "O is not in the tray" in err
    code, out, err = run(capsys, "play", "1010", "--weights", "1-0", "--rounds-cap", "3")
    assert code == 2 and "base-36" in err
    code, out, err = run(capsys, "advise", "1010", "score 1 / " + " / ".join(ROWS))
    assert code == 1 and "deal" in err


def test_play_json_shape_and_seeds_repeat(capsys):
    code, out, err = run(capsys, "play", "1010", "--games", "2", "--seed", "4", "--rounds-cap", "25", "--json")
    assert code == 0, err
    result = json.loads(out)
    assert [g["seed"] for g in result["games"]] == [4, 5]
    for game in result["games"]:
        assert game["rounds"] == 25 and not game["over"] and game["score"] >= 25 * 3 and game["ms_per_round"] > 0
    summary = result["summary"]
    assert summary["games"] == 2 and summary["rounds"] == 50 and summary["games_ended"] == 0
    code, again, err = run(capsys, "play", "1010", "--games", "1", "--seed", "4", "--rounds-cap", "25", "--json",
                           "--threads", "1")
    assert json.loads(again)["games"][0]["score"] == result["games"][0]["score"]
    code, out, err = run(capsys, "play", "1010", "--games", "1", "--seed", "4", "--rounds-cap", "25")
    assert code == 0 and "seed 4: score" in out and "1 game: average score" in out
