"""``kibitz review GAME FILE [--json|--csv] [-o PATH]`` (issue 27) on record games.

Expected values: the 1196 SPL-T record has 1,196 splits and its move 1007 is box [108] at weight 222 (the
weights playAssist printed at split 1006, ``playAssist.png``); the 166-split greedy game of
``nonrandomAlgorithm_seq.txt`` has 166; HATETRIS records have the piece counts of ``records_decoded.tsv``;
the usage and file errors are those of the other verbs (tests/app/test_cli_errors.py).
"""

from __future__ import annotations

import csv
import io
import json
import re
from pathlib import Path

import pytest

from advisors.review import from_json
from app import cli
from engines import GAMES


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = cli.main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture(scope="module")
def record_1196(splt_data) -> str:
    return str(splt_data / "1196seq.txt")


SUMMARY = re.compile(r"(\d+) moves · accuracy (\d+\.\d)% · best move (\d+\.\d)% · (\d+) inaccurac(?:y|ies) \?!, "
                     r"(\d+) mistakes? \?, (\d+) blunders? \?\?")


def test_text_review_of_the_1196_record(capsys, record_1196):
    code, out, err = run(capsys, "review", "splt", record_1196)
    assert code == 0, err
    lines = out.splitlines()
    assert lines[0] == f"{record_1196}: SPL-T, reviewed by reference weight (weights)"
    assert lines[1].split()[:6] == ["move", "played", "best", "value", "loss", "class"]
    table = [line.split() for line in lines[2:lines.index("")]]
    assert [int(cells[0]) for cells in table] == list(range(1, 1197))
    # move 1007: box [108] (x 3, y 2, 1 x 2) played and best, weight 222.x, no loss
    move_1007 = table[1006]
    assert move_1007[:3] == ["1007", "3,2,1,2", "3,2,1,2"]
    assert move_1007[3].startswith("222.") and move_1007[4] == "0.0" and move_1007[5] == "best"
    # the summary agrees with the table above it
    summary = next(SUMMARY.fullmatch(line) for line in lines if SUMMARY.fullmatch(line))
    classes = [next(cell for cell in cells if cell in ("best", "good", "inaccuracy", "mistake", "blunder"))
               for cells in table]
    moves, accuracy, best, inaccuracies, mistakes, blunders = (summary.group(i) for i in range(1, 7))
    assert int(moves) == 1196
    assert (int(inaccuracies), int(mistakes), int(blunders)) == (
        classes.count("inaccuracy"), classes.count("mistake"), classes.count("blunder"))
    assert float(accuracy) == round(100 * (classes.count("best") + classes.count("good")) / 1196, 1)
    assert float(best) == round(100 * classes.count("best") / 1196, 1)
    thresholds = next(line for line in lines if line.startswith("thresholds: "))
    assert re.match(r"thresholds: inaccuracy \?! ≥ [\d.]+ weight, mistake \? ≥ [\d.]+ weight, "
                    r"blunder \?\? ≥ [\d.]+ weight \(.+\)$", thresholds)
    flagged = int(inaccuracies) + int(mistakes) + int(blunders)
    if flagged:
        assert next(line for line in lines if line.startswith("costliest: move "))


def test_json_review_reads_back(capsys, record_1196):
    code, out, err = run(capsys, "review", "splt", record_1196, "--json")
    assert code == 0, err
    data = json.loads(out)
    assert data["summary"]["moves"] == 1196 and len(data["moves"]) == 1196
    review = from_json(GAMES, out, "review.json")
    assert [row.number for row in review.rows] == list(range(1, 1197))
    row = review.rows[1006]
    assert (row.move, row.best, int(row.value), row.loss, row.extra("best box")) == (
        "3,2,1,2", "3,2,1,2", 222, 0.0, 108)
    assert review.line.moves == GAMES["splt"].parse_sequence(Path(record_1196).read_text()).moves
    counts = data["summary"]["counts"]
    assert sum(counts.values()) == 1196
    assert counts == {name: sum(r.classification == name for r in review.rows) for name in counts}


def test_csv_review_has_a_line_per_split(capsys, record_1196):
    code, out, err = run(capsys, "review", "splt", record_1196, "--csv")
    assert code == 0, err
    table = list(csv.reader(io.StringIO(out)))
    assert table[0][:8] == ["number", "move", "best", "value", "played_value", "loss", "class", "settings"]
    assert len(table) - 1 == 1196
    assert table[1007][:3] == ["1007", "3,2,1,2", "3,2,1,2"]


def test_output_file(capsys, splt_data, tmp_path):
    target = tmp_path / "review.json"
    code, out, err = run(capsys, "review", "splt", str(splt_data / "nonrandomAlgorithm_seq.txt"), "--json",
                         "-o", str(target))
    assert code == 0, err
    assert out == ""
    assert err == f"wrote the review of 166 moves to {target}\n"
    review = from_json(GAMES, target.read_text(encoding="utf-8"), str(target))
    assert len(review.rows) == 166 and len(review.line.moves) == 166
    # plain text goes to the file as well
    text_target = tmp_path / "review.txt"
    code, out, _ = run(capsys, "review", "splt", str(splt_data / "nonrandomAlgorithm_seq.txt"), "-o", str(text_target))
    assert code == 0 and out == ""
    assert SUMMARY.search(text_target.read_text(encoding="utf-8")).group(1) == "166"


def test_a_2048_file_reviews_its_slides(capsys, tmp_path):
    # 2 . . 2 slides left into a 4; a 2 appears at (1,0); Down drops the 4 and the 2 to the foot of column 0
    # (spec 1.3); the chance steps (moves 1, 2, 4 and 6) are not reviewed.
    path = tmp_path / "line.txt"
    path.write_text("2@0,0 2@0,3 L 2@1,0 D 2@0,3\n")
    code, out, err = run(capsys, "review", "2048", str(path), "--csv", "--depth", "1")
    assert code == 0, err
    table = list(csv.DictReader(io.StringIO(out)))
    assert [(row["number"], row["move"], row["settings"]) for row in table] == [("3", "L", "depth 1"),
                                                                                 ("5", "D", "depth 1")]


def test_an_option_out_of_range_is_a_usage_error(capsys, tmp_path):
    path = tmp_path / "line.txt"
    path.write_text("2@0,0 2@0,3 L\n")
    code, out, err = run(capsys, "review", "2048", str(path), "--depth", "99")
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and "Traceback" not in err
    assert err.startswith("kibitz review: argument --depth: ") and "'99'" in err
    code, _, err = run(capsys, "review", "hatetris", "x", "--beam-width", "-1")
    assert code == 2 and err.startswith("kibitz review: argument --beam-width: ") and "'-1'" in err


def test_missing_and_empty_files_are_named(capsys, tmp_path):
    missing = tmp_path / "nowhere.txt"
    code, out, err = run(capsys, "review", "splt", str(missing))
    assert code == 1 and out == ""
    assert str(missing) in err and "no such file" in err and err.count("\n") == 1
    empty = tmp_path / "empty.txt"
    empty.write_text("")
    code, out, err = run(capsys, "review", "splt", str(empty))
    assert code == 1 and out == ""
    assert str(empty) in err and "empty" in err.replace(str(empty), "")


@pytest.fixture(scope="module")
def hatetris_records(reference_data):
    with open(reference_data / "hatetris" / "records.tsv", encoding="utf-8") as handle:
        codes = {(r["label"], r["encoding"]): r["replay"] for r in csv.DictReader(handle, delimiter="\t")}
    with open(reference_data / "hatetris" / "records_decoded.tsv", encoding="utf-8") as handle:
        pieces = {r["label"]: int(r["pieces_count"]) for r in csv.DictReader(handle, delimiter="\t")}
    return codes, pieces


def test_hatetris_takes_a_typed_replay_code(capsys, hatetris_records):
    codes, pieces = hatetris_records
    assert pieces["Atypical"] == 61
    code, out, err = run(capsys, "review", "hatetris", codes[("Atypical", "Base2048")], "--beam-width", "0", "--csv")
    assert code == 0, err
    table = list(csv.DictReader(io.StringIO(out)))
    assert [int(row["number"]) for row in table] == list(range(1, 62))
    assert {row["settings"] for row in table} == {"heuristic"}
    # the all-Down demo (9 pieces) with a small beam: its figures are columns of the table
    code, out, err = run(capsys, "review", "hatetris", codes[("qntm", "hex")], "--beam-width", "2",
                         "--beam-depth", "2", "--csv")
    assert code == 0, err
    table = list(csv.DictReader(io.StringIO(out)))
    assert len(table) == pieces["qntm"] == 9
    # Pressing Down stacks every piece in the middle columns: no row of the well ever holds more
    # than 4 cells, and two more pieces add at most 8, so no beam of 2 pieces clears a line.
    assert {int(row["beam lines after played"]) for row in table} == {0}
    assert {row["settings"] for row in table} == {"heuristic + beam 2 x 2"}


def test_a_bad_replay_code_says_where(capsys, hatetris_records):
    codes, _ = hatetris_records
    text = codes[("Atypical", "Base2048")]
    code, out, err = run(capsys, "review", "hatetris", text[:9] + "é" + text[10:], "--beam-width", "0")
    assert code == 1 and out == ""
    assert "character 10" in err
