"""``kibitz advise destructo POSITION`` and ``kibitz play destructo`` headless."""

from __future__ import annotations

import json

from app import cli

# Hand-worked (see tests/advisors/test_destructo_planner.py): the greys first end with 95, the
# greens first with 84.
SPLIT = "a g g\ng a a"


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = cli.main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_advise_ranks_every_group_with_its_cells_points_and_line(capsys):
    code, out, err = run(capsys, "advise", "destructo", SPLIT, "--json")
    assert code == 0, err
    result = json.loads(out)
    best, other = result["candidates"]
    assert best == {"move": "1,1", "points": 2, "cells": [[1, 1], [1, 2]], "value": 95.0, "loss": 0.0,
                    "line": ["1,1", "1,0"], "explanation": best["explanation"]}
    assert other["move"] == "0,1" and other["value"] == 84.0 and other["loss"] == 11.0
    code, out, err = run(capsys, "advise", "destructo", SPLIT)
    assert code == 0 and " 1. 1,1         95  2 boulders for 2 points" in out


def test_advise_refuses_a_position_waiting_for_its_board(capsys, tmp_path):
    path = tmp_path / "due.txt"
    path.write_text("level 3 · score 400 · shuffle 0 · undo 0 · due level\n")
    code, out, err = run(capsys, "advise", "destructo", str(path))
    assert code == 1 and "chance step is due (level)" in err
    code, out, err = run(capsys, "advise", "destructo", "g g\ng Q")
    assert code == 1 and "token 'Q'" in err


def test_play_reports_whole_games_in_the_shared_json_shape(capsys):
    code, out, err = run(capsys, "play", "destructo", "--games", "2", "--seed", "5", "--width", "4", "--json")
    assert code == 0, err
    result = json.loads(out)
    games = result["games"]
    assert [game["seed"] for game in games] == [5, 6] and result["search"] == "level planner, width 4"
    for game in games:
        assert len(game["level_scores"]) == 10 and sum(game["level_scores"]) == game["score"]
        assert game["moves"] > 100 and game["ms_per_move"] > 0
    assert result["summary"]["games"] == 2
    assert result["summary"]["average_score"] == sum(game["score"] for game in games) / 2


def test_advise_checks_its_numbers_and_says_when_nothing_is_left(capsys):
    code, out, err = run(capsys, "advise", "destructo", SPLIT, "--width", "-5")
    assert code == 2 and "argument --width: must be a whole number from 1 to 100,000, not '-5'" in err
    code, out, err = run(capsys, "advise", "destructo", SPLIT, "--search", "irpan")
    assert code == 2 and "argument --search: invalid choice: 'irpan' (choose from 'planner')" in err
    code, out, err = run(capsys, "advise", "destructo", "a g/g a")
    assert code == 0 and "no click takes anything" in out


def test_play_checks_its_numbers(capsys):
    code, out, err = run(capsys, "play", "destructo", "--games", "0")
    assert code == 2 and "argument --games: must be a whole number from 1 to 100,000, not '0'" in err
    code, out, err = run(capsys, "play", "destructo", "--search", "irpan", "--depth", "99")
    assert code == 2 and "argument --depth: must be a whole number from 1 to 6, not '99'" in err
