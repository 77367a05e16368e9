"""The long searches on a Ray cluster (``kibitz[cluster]``): a local Ray instance with two CPUs,
started on 127.0.0.1 by the tests with its files in a temporary folder.

The HATETRIS beam on the cluster keeps, layer after layer, exactly the wells the one-machine beam
keeps (same history, same last layer, same best game and replay); SPL-T's ParanoidPlay on the
cluster keeps the fixed moves of the 1196 record, survives a worker process killed mid-run, and
its folder continues on one machine and the other way round.
"""

from __future__ import annotations

import csv
import os
import shutil
import signal
from pathlib import Path

import numpy as np
import pytest

from advisors.hatetris.beam import BeamSearch, BeamSettings
from advisors.splt.parallel import ParallelSearch
from advisors.splt.search import Search, Settings
from engines.contract import Line
from engines.errors import KibitzInputError
from engines.hatetris import GAME as HATETRIS
from engines.splt import notation

pytest.importorskip("ray", reason='the cluster searches need Ray: pip install "kibitz[cluster]"')

from advisors import cluster  # noqa: E402
from advisors.hatetris.cluster import ClusterBeam, best_first, first_copies, CANDIDATE  # noqa: E402

HISTORY = ("parent", "hashes", "pieces", "scores", "cells", "moves")
LAYER = ("layer_wells", "layer_scores", "layer_cells", "layer_nodes")


@pytest.fixture(scope="module")
def ray_local(tmp_path_factory):
    """A Ray instance of 2 CPUs for this module, its session files in a temporary folder, with
    Ray's token authentication, its token in a home folder of the test's own (Ray writes it to
    ~/.ray: never the real home)."""
    saved = {name: os.environ.get(name) for name in ("KIBITZ_RAY_TEMP_DIR", "RAY_AUTH_MODE", "HOME")}
    # Ray's sockets live in this folder: a short path keeps them within the 107-byte limit.
    folder = Path(f"/tmp/kibitz-ray-{os.getpid()}")
    (folder / "home").mkdir(parents=True, exist_ok=True)
    os.environ["KIBITZ_RAY_TEMP_DIR"] = str(folder)
    os.environ["HOME"] = str(folder / "home")
    os.environ.pop("RAY_AUTH_MODE", None)  # Ray's default: a token, made at the start
    cluster.disconnect()
    ray = cluster.connect("local", cpus=2)
    yield ray
    cluster.disconnect()
    shutil.rmtree(folder, ignore_errors=True)
    for name, value in saved.items():
        if value is None:
            os.environ.pop(name, None)
        else:
            os.environ[name] = value


# --- HATETRIS: the same beam -------------------------------------------------------------------


def assert_same_beam(local: BeamSearch, spread: BeamSearch) -> None:
    for name in HISTORY + LAYER:
        ours, theirs = getattr(local, name), getattr(spread, name)
        ours = ours.view() if hasattr(ours, "view") and not isinstance(ours, np.ndarray) else ours
        theirs = theirs.view() if hasattr(theirs, "view") and not isinstance(theirs, np.ndarray) else theirs
        assert np.array_equal(ours, theirs), name
    assert (local.depth, local.children, local.best_node, local.best_score, local.finished) == (
        spread.depth, spread.children, spread.best_node, spread.best_score, spread.finished)


def record_prefix(reference_data: Path, placements: int) -> Line:
    with open(reference_data / "hatetris" / "records.tsv", encoding="utf-8") as handle:
        rows = [r for r in csv.DictReader(handle, delimiter="\t") if r["label"] == "Deasuke"]
    line = HATETRIS.parse_sequence(rows[0]["replay"])
    return Line(line.start, line.moves[:placements])


def local_and_cluster(line: Line, settings: BeamSettings, layers: int, shards: int = 2):
    """The same beam run ``layers`` deep here and on ``shards`` shards: (local search, its
    result, cluster search, its result), the cluster's history gathered."""
    local = BeamSearch(line, settings)
    local_result = local.run(max_depth=layers)
    spread = BeamSearch(line, settings)
    beam = ClusterBeam(spread, "local", shards=shards)
    try:
        spread_result = beam.run(max_depth=layers)
        beam.gather()
    finally:
        beam.close()
    return local, local_result, spread, spread_result


@pytest.mark.parametrize("width, layers, shards", [(1000, 30, 2), (5000, 12, 2), (1000, 8, 1)])
def test_cluster_beam_from_the_empty_well_is_the_local_beam(ray_local, width, layers, shards):
    line = Line(HATETRIS.initial_state(), ())
    local, local_result, spread, spread_result = local_and_cluster(line, BeamSettings(width=width), layers, shards)
    assert_same_beam(local, spread)
    assert local.depth == layers and len(local.layer_nodes) == width  # a full beam, not a dead one
    assert (spread_result.score, spread_result.pieces, spread_result.replay, spread_result.line) == (
        local_result.score, local_result.pieces, local_result.replay, local_result.line)


def test_a_cluster_beam_with_the_learned_evaluation_is_the_local_beam(ray_local):
    # The shards cost with the shipped network and the lookahead, as the local beam does.
    line = Line(HATETRIS.initial_state(), ())
    local, local_result, spread, spread_result = local_and_cluster(
        line, BeamSettings(width=400, lookahead=2, evaluation="learned"), 10)
    assert_same_beam(local, spread)
    assert (spread_result.score, spread_result.line) == (local_result.score, local_result.line)


@pytest.mark.parametrize("width", [1000, 5000])
def test_cluster_beam_from_a_record_prefix_is_the_local_beam(ray_local, reference_data, width):
    prefix = record_prefix(reference_data, 60)
    local, local_result, spread, spread_result = local_and_cluster(prefix, BeamSettings(width=width), 10)
    assert_same_beam(local, spread)
    assert spread_result.line.moves[:60] == prefix.moves
    assert spread_result.replay == local_result.replay


def test_a_beam_saved_on_the_cluster_continues_on_one_machine_and_back(ray_local, tmp_path):
    line = Line(HATETRIS.initial_state(), ())
    straight = BeamSearch(line, BeamSettings(width=300))
    straight.run(max_depth=24)
    checkpoint = tmp_path / "beam.npz"
    first = ClusterBeam(BeamSearch(line, BeamSettings(width=300)), "local", shards=2)
    try:
        first.run(max_depth=8, checkpoint=checkpoint)
    finally:
        first.close()
    middle = BeamSearch.load(checkpoint)  # on one machine
    middle.run(max_depth=8, checkpoint=checkpoint)
    last = ClusterBeam(BeamSearch.load(checkpoint), "local", shards=2)
    try:
        last.run(max_depth=8, checkpoint=checkpoint)
    finally:
        last.close()
    assert_same_beam(straight, BeamSearch.load(checkpoint))


def test_a_lost_shard_stops_the_beam_with_its_checkpoint_whole(ray_local, tmp_path):
    line = Line(HATETRIS.initial_state(), ())
    straight = BeamSearch(line, BeamSettings(width=300))
    straight.run(max_depth=12)
    checkpoint = tmp_path / "beam.npz"
    beam = ClusterBeam(BeamSearch(line, BeamSettings(width=300)), "local", shards=2)

    def kill_a_shard(report) -> None:
        if report.depth == 4:
            os.kill(_actor_pids(b"ray::BeamShard")[0], signal.SIGKILL)

    try:
        with pytest.raises(KibitzInputError, match=r"a shard of the cluster beam was lost at depth .*"
                                                   r"the checkpoint .*beam\.npz continues it"):
            beam.run(max_depth=12, progress=kill_a_shard, checkpoint=checkpoint, checkpoint_seconds=0.001)
    finally:
        beam.close()
    saved = BeamSearch.load(checkpoint)  # the last whole layer, checked in full
    assert saved.depth >= 4
    saved.run(max_depth=12 - saved.depth)  # continued on one machine: the straight beam
    assert_same_beam(straight, saved)


def test_the_first_copy_of_a_child_and_the_best_in_the_beams_order():
    made = np.zeros(5, dtype=CANDIDATE)
    made["key"] = [7, 3, 7, 9, 3]
    made["order"] = [40, 12, 5, 30, 2]
    made["cost"] = [1.0, 2.0, 1.0, 2.0, 2.0]
    kept = first_copies(made)
    assert sorted(zip(kept["key"], kept["order"])) == [(3, 2), (7, 5), (9, 30)]
    # equal costs: the earlier place first
    assert list(best_first(kept, 2)["order"]) == [5, 2]


# --- SPL-T ParanoidPlay --------------------------------------------------------------------------


@pytest.fixture(scope="module")
def record_1196(splt_data):
    return notation.parse_sequence((splt_data / "1196seq.txt").read_text())


def test_paranoid_play_on_the_cluster_keeps_the_records_first_1100_moves(ray_local, record_1196, tmp_path):
    search = ParallelSearch.create(tmp_path / "run", Settings(), record_1196, from_move=1100, workers=2, seed=7,
                                   checkpoint_seconds=1)
    result = search.run(games=40, cluster="local")
    assert result.best_line.moves[:1100] == record_1196.moves[:1100]
    assert result.best_splits >= 1196  # worker 0 first re-plays the record
    saved = notation.parse_sequence(result.best_file.read_text(), start=record_1196.start)
    assert saved.moves == result.best_line.moves
    assert result.games_this_run >= 40
    for index in range(2):  # the workers' checkpoints came back to the folder
        assert Search.load(tmp_path / "run" / f"worker-{index}.npz").snapshot().games > 0


def _actor_pids(title: bytes) -> list[int]:
    """The processes of this test's Ray instance (its session folder in their environment: never
    another Ray's on the machine) whose command line is Ray's title for an actor, such as
    b"ray::ClusterWorker"."""
    ours = f"KIBITZ_RAY_TEMP_DIR={os.environ['KIBITZ_RAY_TEMP_DIR']}".encode()
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            command = (entry / "cmdline").read_bytes()
            environment = (entry / "environ").read_bytes().split(b"\0")
        except OSError:
            continue
        if title in command and ours in environment:
            found.append(int(entry.name))
    return found


def test_a_worker_killed_mid_run_loses_only_its_games_since_its_checkpoint(ray_local, tmp_path):
    folder = tmp_path / "run"
    search = ParallelSearch.create(folder, Settings.for_player("paranoid"), workers=2, seed=11, checkpoint_seconds=1)
    killed: dict[str, object] = {}
    notices: list[str] = []

    def progress(report) -> None:
        if report.notice:
            notices.append(report.notice)
        if killed or report.elapsed < 3:
            return
        saved = {index: Search.load(folder / f"worker-{index}.npz").snapshot().games
                 for index in range(2) if (folder / f"worker-{index}.npz").exists()}
        pids = _actor_pids(b"ray::ClusterWorker")
        if len(saved) == 2 and pids:
            killed["saved"] = saved
            killed["best"] = report.best_splits
            os.kill(pids[0], signal.SIGKILL)

    result = search.run(seconds=9, progress=progress, cluster="local")
    assert killed, "no worker was killed: the test did not reach its point"
    assert any("was lost" in notice and "starts again from its last checkpoint" in notice for notice in notices)
    # Nothing saved before the kill is lost: each worker's final checkpoint holds at least the
    # games it had saved then, and the best found before is still the best or bettered.
    for index, games in killed["saved"].items():
        assert Search.load(folder / f"worker-{index}.npz").snapshot().games >= games
    assert result.best_splits >= killed["best"]
    assert result.games >= sum(killed["saved"].values())


def test_a_search_moves_between_the_cluster_and_one_machine(ray_local, tmp_path):
    folder = tmp_path / "run"
    ParallelSearch.create(folder, Settings.for_player("paranoid"), workers=2, seed=5).run(games=30, cluster="local")
    after_cluster = ParallelSearch.resume(folder)
    games_then = sum(Search.load(folder / f"worker-{i}.npz").snapshot().games for i in range(2))
    local = after_cluster.run(games=30)
    assert local.games - local.games_this_run == games_then  # went on from where the cluster stopped
    back = ParallelSearch.resume(folder).run(games=30, cluster="local")
    assert back.games - back.games_this_run == local.games
    assert back.best_splits >= local.best_splits


# --- the window's search jobs ------------------------------------------------------------------


def test_the_windows_beam_job_runs_on_the_cluster(ray_local, reference_data, tmp_path):
    from app.gui.games.hatetris.search_jobs import SEARCH_JOBS

    prefix = record_prefix(reference_data, 60)
    job = SEARCH_JOBS.start(tmp_path / "beam", prefix, 60, seconds=3, width=200, cluster="local")
    reports = []
    outcome = job.run(reports.append, lambda: False)
    assert reports and reports[-1].games == outcome.games > 0  # depth reached, reported as it went
    assert outcome.best_line.moves[:60] == prefix.moves
    saved = BeamSearch.load(tmp_path / "beam" / "beam.npz")
    assert saved.depth == outcome.games and saved.best_line() == outcome.best_line


def test_the_windows_paranoid_play_job_runs_on_the_cluster(ray_local, record_1196, tmp_path):
    from app.gui.games.splt.search_jobs import SEARCH_JOBS

    job = SEARCH_JOBS.start(tmp_path / "run", record_1196, 1100, games=20, cluster="local")
    outcome = job.run(lambda progress: None, lambda: False)
    assert outcome.best_value >= 1196 and outcome.best_line.moves[:1100] == record_1196.moves[:1100]
    assert (tmp_path / "run" / "worker-1.npz").exists()  # one worker per cluster CPU: 2
