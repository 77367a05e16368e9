"""``kibitz search splt``: results, files written at once, piggyback, kill and resume, bad input.

Expectations come from spec 3.6 and 4.1 (the greedy 534 game, the logged 1053 ParanoidPlay run)
and from the shared record sequences.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from app import cli
from engines.splt import notation

PROJECT = Path(__file__).resolve().parents[2]


def run(capsys, *argv: str) -> tuple[int, dict | None, str]:
    code = cli.main(["search", "splt", *argv])
    out, err = capsys.readouterr()
    return code, json.loads(out) if out.strip() else None, err


def test_greedy_plays_the_534_game(capsys, tmp_path):
    code, result, err = run(capsys, "--player", "greedy", "--out", str(tmp_path / "s"), "--json")
    assert code == 0, err
    assert result["best_moves"] == 534
    assert result["games"] == 1
    assert result["exhausted"] is True
    line = notation.parse_sequence(Path(result["best_file"]).read_text())
    assert len(line.moves) == 534


def test_reference_1053_variant_reproduces_the_logged_run(capsys, tmp_path, splt_data):
    folder = tmp_path / "s"
    code, result, err = run(
        capsys, "--variant", "reference-1053", "--games", "696", "--out", str(folder), "--json"
    )
    assert code == 0, err
    assert (result["best_moves"], result["best_score"], result["games"]) == (1053, 676_275, 696)
    record = (splt_data / "1053seq.txt").read_text()
    # Both formats were written, and the index list is the record file itself.
    assert Path(result["best_index_file"]).read_text().strip() == record.strip()
    assert notation.parse_sequence(Path(result["best_file"]).read_text()).moves == notation.parse_sequence(record).moves
    # Every record of the log was written when it was found (spec 3.6: 685, 748, 779, 1000, 1043).
    for splits in (534, 685, 748, 779, 1000, 1043, 1053):
        assert (folder / f"best-{splits}.txt").exists()
        assert (folder / f"best-{splits}-index.txt").exists()
    saved = json.loads((folder / "search.json").read_text())
    assert saved["best"]["splits"] == 1053


def test_piggyback_never_changes_the_fixed_moves(capsys, tmp_path, splt_data):
    record = notation.parse_sequence((splt_data / "1196seq.txt").read_text())
    folder = tmp_path / "s"
    code, result, err = run(
        capsys, "--from", str(splt_data / "1196seq.txt"), "--from-move", "1100", "--games", "300",
        "--workers", "2", "--seed", "5", "--out", str(folder), "--json",
    )
    assert code == 0, err
    assert result["games"] >= 300
    # The first game re-plays the record, so the best is at least the record.
    assert result["best_moves"] >= 1196
    written = sorted(folder.glob("best-*[0-9].txt"))
    assert written
    for path in written:
        moves = notation.parse_sequence(path.read_text()).moves
        assert moves[:1100] == record.moves[:1100], path.name
        assert len(moves) > 1100


def test_killed_search_resumes_with_its_games_and_best(capsys, tmp_path):
    folder = tmp_path / "s"
    env = dict(os.environ, PYTHONPATH=str(PROJECT))
    process = subprocess.Popen(
        [sys.executable, "-m", "app", "search", "splt", "--workers", "1", "--seed", "2",
         "--checkpoint-seconds", "0.3", "--out", str(folder)],
        cwd=tmp_path, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True,
    )
    checkpoint = folder / "worker-0.npz"
    try:
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline and not checkpoint.exists():
            time.sleep(0.2)
        assert checkpoint.exists(), "no checkpoint within 2 minutes"
        time.sleep(1.0)
    finally:
        os.killpg(process.pid, signal.SIGKILL)  # parent and worker at once, as a crash would
        process.wait()

    from advisors.splt.search import Search

    saved = Search.load(checkpoint).snapshot()
    best_before = json.loads((folder / "search.json").read_text())["best"]["splits"]
    assert saved.games > 0
    code, result, err = run(capsys, "--resume", str(folder), "--games", "50", "--json")
    assert code == 0, err
    assert result["games"] == saved.games + 50
    assert result["best_moves"] >= best_before
    assert Path(result["best_file"]).exists()


def test_bad_input_is_reported_precisely(capsys, tmp_path, splt_data):
    code, _, err = run(capsys, "--from", str(tmp_path / "missing.txt"), "--out", str(tmp_path / "a"))
    assert code == 1 and "missing.txt" in err
    code, _, err = run(
        capsys, "--from", str(splt_data / "1196seq.txt"), "--from-move", "1300", "--out", str(tmp_path / "b")
    )
    assert code == 1
    assert "--from-move 1300 is outside the file, which has 1196 moves" in err
    assert not (tmp_path / "b").exists()
    code, _, err = run(capsys, "--resume", str(tmp_path))
    assert code == 1 and "no search.json" in err
    code, _, err = run(capsys, "--from-move", "3", "--out", str(tmp_path / "c"))
    assert code == 2 and "needs --from" in err


def test_an_existing_search_folder_is_not_overwritten(capsys, tmp_path):
    folder = tmp_path / "s"
    assert run(capsys, "--player", "greedy", "--out", str(folder), "--json")[0] == 0
    before = (folder / "search.json").read_text()
    code, _, err = run(capsys, "--player", "greedy", "--out", str(folder))
    assert code == 1 and "already holds a search" in err
    assert (folder / "search.json").read_text() == before


def test_ctrl_c_stops_cleanly_and_saves(tmp_path):
    folder = tmp_path / "s"
    env = dict(os.environ, PYTHONPATH=str(PROJECT))
    process = subprocess.Popen(
        [sys.executable, "-m", "app", "search", "splt", "--workers", "1", "--seed", "4", "--out", str(folder),
         "--json"],
        cwd=tmp_path, env=env, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, start_new_session=True,
    )
    try:
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline and not list(folder.glob("best-*-index.txt")):
            time.sleep(0.2)
        os.killpg(process.pid, signal.SIGINT)  # what Ctrl-C in a terminal sends
        out, _ = process.communicate(timeout=30)
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
    assert process.returncode == 0
    result = json.loads(out)
    assert result["games"] > 0 and result["best_moves"] > 0
    assert Path(result["best_file"]).exists()
    assert (folder / "worker-0.npz").exists()
