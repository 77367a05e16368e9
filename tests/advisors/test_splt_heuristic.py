"""The SPL-T heuristic advisor's ranking, checked against playAssist at split 1006 of the 1196
record (printed weights, best-move outline, fill colours read off playAssist.png)."""

from __future__ import annotations

import json

import pytest

from advisors.splt.heuristic import rank
from advisors.splt.predictors import makes_new_halving
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


@pytest.fixture(scope="module")
def split_1007(splt_data) -> State:
    line = SPLT.parse_sequence((splt_data / "1196seq.txt").read_text())
    return SPLT.replay(State(), line.moves[:1007])


def test_cluster_on_plain_boxes_is_no_new_halving(split_1007):
    # Split 1008 is vertical. [74] = (0,4,2,1) splits into the 1x1 (0,4) and (1,4) over the
    # plain 1x1 (0,5) and (1,5): a cluster of 4 whose lowest members rest on the plain (0,6,1,1)
    # and (1,6,1,2). [112] = (0,0,2,2) makes four 1x2 over the plain (0,4,2,1). No point block is
    # under either cluster, so nothing halves them and their explosion adds no halving to a
    # stack: no "new halving" (the reference's check says yes, trivially: stack [1008] alone).
    by_index = {c.index: c for c in rank(split_1007)}
    for index in (74, 112):
        candidate = by_index[index]
        assert candidate.forecast.stack == (1008,)
        assert makes_new_halving(split_1007, candidate.move) is True
        assert candidate.new_halving is False
        assert not any(w.startswith("new halving") for w in candidate.warnings)
        assert candidate.explanation.startswith("makes a cluster of 4 on plain boxes;")
    assert by_index[74].move == Move(0, 4, 2, 1) and by_index[112].move == Move(0, 0, 2, 2)


def test_new_halving_warning_names_its_halvings(split_1006):
    # [108] = (3,2,1,2) splits into (3,2,1,1) and (3,3,1,1) beside the plain 1x1 (2,2), (2,3):
    # the lowest new blocks (2,3), (3,3) stand on the 497s, 245s, 118s, 54s, 23s and 7s (each
    # 2 tall, one less after this turn): stack [1007, 496x2, 244x2, 117x2, 53x2, 22x2, 6x2].
    # The 6s go first (1001 -> 500), then the 22s (492 -> 246), 53s (239 -> 119), 117s
    # (111 -> 55), 244s (47 -> 23) and 496s (16 -> 8): six halvings, then the new blocks reach 0
    # alone.
    candidate = {c.index: c for c in rank(split_1006)}[108]
    assert candidate.new_halving is True and candidate.halvings == 6
    assert candidate.warnings[0] == ("new halving: these blocks explode on their own, halving what lies above "
                                     "(the blocks under them halve them 6 times first)")


def test_advise_command_at_split_1007(capsys, splt_data, tmp_path):
    indices = (splt_data / "1196seq.txt").read_text().strip().split(", ")[:1007]
    path = tmp_path / "first1007.txt"
    path.write_text(", ".join(indices))
    assert cli.main(["advise", "splt", str(path)]) == 0
    lines = capsys.readouterr().out.splitlines()
    first = next(line for line in lines if "[ 74]" in line)
    assert first.split("]", 1)[1].split()[2] == "--"  # after move and weight: no H (new halving), no U
    assert "makes a cluster of 4 on plain boxes" in first
    assert not any("new halving" in line for line in lines)
    assert cli.main(["advise", "splt", str(path), "--json"]) == 0
    payload = json.loads(capsys.readouterr().out)
    by_index = {c["index"]: c for c in payload["candidates"]}
    assert by_index[74]["new_halving"] is False and by_index[112]["new_halving"] is False
