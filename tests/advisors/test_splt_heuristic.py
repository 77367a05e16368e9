"""The SPL-T heuristic advisor's ranking, checked against playAssist at split 1006 of the 1196
record (printed weights, best-move outline, fill colours read off playAssist.png)."""

from __future__ import annotations

import json

import pytest

from advisors.splt.heuristic import rank
from app import cli
from engines import GAMES
from engines.splt import Move, State

SPLT = GAMES["splt"]


@pytest.fixture(scope="module")
def split_1006(splt_data) -> State:
    line = SPLT.parse_sequence((splt_data / "1196seq.txt").read_text())
    return SPLT.replay(State(), line.moves[:1006])


def test_rank_orders_every_legal_split(split_1006):
    candidates = rank(split_1006)
    # Printed weights 222, 211, 194, 194, 16, 0; the two 194s tie and keep list order (86, 93).
    assert [c.index for c in candidates] == [108, 114, 86, 93, 81, 110]
    assert candidates[0].move == Move(3, 2, 1, 2) and candidates[0].loss == 0
    assert [int(c.score) for c in candidates] == [222, 211, 194, 194, 16, 0]
    assert all(c.loss == pytest.approx(candidates[0].score - c.score) for c in candidates)
    assert {c.index for c in candidates if c.new_halving} == {81, 108, 110}
    assert {c.index for c in candidates if c.unexpected} == {93}


def test_explanations_name_the_terms(split_1006):
    by_index = {c.index: c for c in rank(split_1006)}
    assert "cluster off the 2x2 grid: -50.0" in by_index[81].explanation
    assert by_index[81].explanation.startswith("makes a cluster of 6")
    assert any(w.startswith("unexpected cluster: 4 boxes") for w in by_index[93].warnings)
    assert any(w.startswith("new halving") for w in by_index[108].warnings)


def test_limit_and_game_over(split_1006):
    assert [c.index for c in rank(split_1006, limit=2)] == [108, 114]
    assert rank(State(boxes=(), splits=1)) == []


def test_advise_command_json(capsys, splt_data, tmp_path):
    indices = (splt_data / "1196seq.txt").read_text().strip().split(", ")[:1006]
    path = tmp_path / "first1006.txt"
    path.write_text(", ".join(indices))
    assert cli.main(["advise", "splt", str(path), "--json"]) == 0
    payload = json.loads(capsys.readouterr().out)
    first = payload["candidates"][0]
    assert (first["move"], first["index"], int(first["weight"])) == ("3,2,1,2", 108, 222)
    assert first["new_halving"] is True and first["unexpected_cluster"] is False
    assert [c["unexpected_cluster"] for c in payload["candidates"]].count(True) == 1
