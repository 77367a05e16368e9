"""``kibitz advise 2048 BOARD``, ``kibitz play 2048`` and ``kibitz replay 2048`` headless."""

from __future__ import annotations

import json

from app import cli


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = cli.main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_advise_a_board_given_as_text(capsys):
    # A full top row without equal neighbours: only Down moves a tile.
    code, out, err = run(capsys, "advise", "2048", "2 4 8 16/. . . ./. . . ./. . . .", "--json", "--depth", "2",
                         "--threads", "1")
    assert code == 0, err
    result = json.loads(out)
    assert result["game"] == "2048" and result["depth"] == 2
    moves = [(c["move"], c["legal"]) for c in result["candidates"]]
    assert moves[0] == ("down", True)
    assert sorted(moves[1:]) == [("left", False), ("right", False), ("up", False)]
    assert result["candidates"][1]["expected_value"] is None


def test_advise_plain_text_and_a_sequence_file(capsys, tmp_path):
    path = tmp_path / "line.txt"
    # 2 . . 2 slides left into a 4 at (0, 0); a 2 spawns below it at (1, 0): both tiles rest
    # against the top-left walls and differ, so Up and Left move nothing.
    path.write_text("2@0,0 2@0,3 L 2@1,0\n")
    code, out, err = run(capsys, "advise", "2048", str(path), "--depth", "1")
    assert code == 0, err
    assert "score 4" in out
    assert out.count("illegal") == 2
    code, out, err = run(capsys, "advise", "2048", str(path), "--depth", "1", "--json")
    letters = sorted(c["letter"] for c in json.loads(out)["candidates"] if not c["legal"])
    assert letters == ["L", "U"]


def test_advise_errors_say_where_and_why(capsys):
    code, out, err = run(capsys, "advise", "2048", "2 4 8/. . . ./. . . ./. . . .", "--json")
    assert code == 1
    assert json.loads(out)["reason"] == "a row has 4 cells, this one 3"
    code, out, err = run(capsys, "advise", "2048", "score 0 · spawn due\n2 . . .\n. . . .\n. . . .\n. . . .")
    assert code == 1 and "spawn" in err


def test_play_prints_games_and_the_summary(capsys):
    code, out, err = run(capsys, "play", "2048", "--games", "2", "--seed", "5", "--max-moves", "40", "--json",
                         "--depth", "1")
    assert code == 0, err
    result = json.loads(out)
    assert [g["seed"] for g in result["games"]] == [5, 6]
    assert all(g["moves"] == 40 for g in result["games"])
    assert set(result["games"][0]) >= {"seed", "score", "max_tile", "moves", "ms_per_move"}
    assert result["summary"]["games"] == 2 and result["summary"]["moves"] == 80
    assert set(result["summary"]["reached_percent"]) == {"2048", "4096", "8192", "16384", "32768", "65536"}


def test_replay_a_2048_line(capsys, tmp_path):
    path = tmp_path / "line.txt"
    path.write_text("# start tiles, then slides and spawns\n2@0,0 2@0,3 L 2@1,0 R\n")
    code, out, err = run(capsys, "replay", "2048", str(path), "--json")
    assert code == 0, err
    # 2 . . 2 left -> 4 (score 4); a 2 at (1, 0); right: both slide to column 3, no merge.
    assert json.loads(out) == {"game": "2048", "moves": 5, "score": 4, "over": False}
    path.write_text("2@0,0 2@0,3 U\n")
    code, out, err = run(capsys, "replay", "2048", str(path), "--json")
    assert code == 1
    assert json.loads(out)["move"] == 3
