"""``kibitz replay hatetris`` and ``kibitz search hatetris`` on the archived records."""

from __future__ import annotations

import argparse
import csv
import json

import pytest

from advisors.hatetris.heuristic import WEIGHT_SETS
from app import cli
from app.cli.games.hatetris import add_search_options
from engines.hatetris import GAME, codecs


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = cli.main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture(scope="module")
def records(reference_data):
    with open(reference_data / "hatetris" / "records.tsv", encoding="utf-8") as handle:
        return list(csv.DictReader(handle, delimiter="\t"))


def replay_of(records, label, encoding="Base2048"):
    return next(r["replay"] for r in records if r["label"] == label and r["encoding"] == encoding)


def test_replay_code_on_the_command_line(capsys, records):
    # records_decoded.tsv: David & Felipe (1) scores 86 with 248 pieces and ends the game.
    code, out, err = run(capsys, "replay", "hatetris", replay_of(records, "David & Felipe (1)"), "--json")
    assert code == 0, err
    result = json.loads(out)
    assert {k: result[k] for k in ("game", "score", "pieces", "over")} == {
        "game": "hatetris", "score": 86, "pieces": 248, "over": True}


def test_replay_file_in_hex_and_a_mild_loop(capsys, records, tmp_path):
    path = tmp_path / "atypical.txt"
    path.write_text(replay_of(records, "Atypical", "hex") + "\n", encoding="utf-8")
    code, out, _ = run(capsys, "replay", "hatetris", str(path), "--json")
    assert code == 0
    assert json.loads(out)["score"] == 11
    # The loop demos are played against HATETRIS Mild: "knewjade loop" scores 165 in 433 spawns.
    loop = replay_of(records, "knewjade loop", "raw")
    code, out, _ = run(capsys, "replay", "hatetris", loop, "--mild", "--json")
    assert json.loads(out)["score"] == 165 and json.loads(out)["pieces"] == 433


def test_a_bad_character_is_named_with_its_position(capsys, records):
    text = replay_of(records, "Atypical")
    bad = text[:9] + "é" + text[10:]
    code, out, err = run(capsys, "replay", "hatetris", bad, "--json")
    assert code == 1
    payload = json.loads(out)
    assert payload["column"] == 10 and payload["token"] == "é"
    assert "character 10" in err


def test_search_writes_a_playable_replay(capsys, tmp_path):
    folder = tmp_path / "beam"
    code, out, err = run(capsys, "search", "hatetris", "--width", "20", "--out", str(folder), "--json")
    assert code == 0, err
    result = json.loads(out)
    played = GAME.replay_keys(codecs.decode(result["replay"]))
    assert played.over and played.score == result["score"]
    assert (folder / "best-replay.txt").read_text(encoding="utf-8").strip() == result["replay"]
    assert (folder / "beam.npz").exists()
    code, out, err = run(capsys, "search", "hatetris", "--resume", str(folder), "--json")
    assert code == 0, err
    assert json.loads(out)["score"] == result["score"]  # the search had already died out


def test_search_from_a_replay_prefix(capsys, records, tmp_path):
    code, out, err = run(capsys, "search", "hatetris", "--from", replay_of(records, "Atypical"), "--width", "10",
                         "--out", str(tmp_path / "b"), "--json")
    assert code == 0, err
    played = GAME.replay_keys(codecs.decode(json.loads(out)["replay"]))
    # The record ends the game, so the search goes on from before its last lock.
    atypical = GAME.parse_sequence(replay_of(records, "Atypical"))
    kept = atypical.moves[:-1]
    assert played.placements[: len(kept)] == kept


def test_the_weights_option_offers_every_weight_set_and_no_other():
    # The command line names the sets literally (it does not import the kernels to parse its
    # arguments); they must stay the advisor's sets.
    parser = argparse.ArgumentParser()
    add_search_options(parser)
    weights = next(action for action in parser._actions if action.dest == "weights")
    assert tuple(weights.choices) == tuple(WEIGHT_SETS) == ("df", "df-tim", "kibitz")
