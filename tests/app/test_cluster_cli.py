"""``kibitz search splt|hatetris --cluster ADDRESS``: run as a person would, in a process of its
own; without Ray, with a wrong address, and on a local Ray instance (then continued here)."""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from advisors.splt.search import Search

PROJECT = Path(__file__).resolve().parents[2]


def kibitz(*argv: str, extra_path: str | None = None, timeout: float = 300) -> subprocess.CompletedProcess:
    paths = [path for path in (extra_path, str(PROJECT)) if path]
    # Ray's session files, and (token authentication) its token in a home folder of the test's own.
    folder = f"/tmp/kibitz-ray-cli-{os.getpid()}"
    environment = {name: value for name, value in os.environ.items() if name != "RAY_AUTH_MODE"}
    environment.update(PYTHONPATH=os.pathsep.join(paths), KIBITZ_RAY_TEMP_DIR=folder, HOME=f"{folder}/home")
    return subprocess.run([sys.executable, "-m", "app", *argv], capture_output=True, text=True, timeout=timeout,
                          env=environment, cwd=PROJECT)


@pytest.mark.parametrize("game", ["splt", "hatetris"])
def test_without_ray_the_cluster_option_says_how_to_install_it(game, tmp_path):
    hidden = tmp_path / "no-ray"
    (hidden / "ray").mkdir(parents=True)
    (hidden / "ray" / "__init__.py").write_text('raise ImportError("No module named \'ray\'")\n')
    result = kibitz("search", game, "--cluster", "local", "--out", str(tmp_path / "run"), extra_path=str(hidden))
    assert result.returncode != 0
    assert 'pip install "kibitz[cluster]"' in result.stderr
    assert "Traceback" not in result.stderr
    assert not (tmp_path / "run").exists()  # refused before anything was written


@pytest.mark.parametrize("address", ["bogus", "ray://host", "ray://host:0", "http://host:10001"])
def test_a_wrong_address_is_refused_with_the_ones_known(address, tmp_path):
    result = kibitz("search", "hatetris", "--cluster", address, "--out", str(tmp_path / "run"))
    assert result.returncode != 0
    assert f"--cluster '{address}'" in result.stderr and "ray://HOST:PORT" in result.stderr
    assert "Traceback" not in result.stderr and not (tmp_path / "run").exists()


def test_hatetris_workers_need_a_cluster(tmp_path):
    result = kibitz("search", "hatetris", "--workers", "2", "--out", str(tmp_path / "run"))
    assert result.returncode != 0 and "--workers counts cluster CPUs and needs --cluster" in result.stderr


@pytest.fixture
def ray_files():
    """Ray's session files (and sockets: a short path) in a folder of the test's own, removed after."""
    folder = Path(f"/tmp/kibitz-ray-cli-{os.getpid()}")
    yield folder
    shutil.rmtree(folder, ignore_errors=True)


def test_a_beam_on_a_local_ray_instance_then_continued_on_this_machine(tmp_path, ray_files):
    pytest.importorskip("ray", reason='needs Ray: pip install "kibitz[cluster]"')
    folder = tmp_path / "beam"
    first = kibitz("search", "hatetris", "--cluster", "local", "--workers", "2", "--width", "200", "--minutes", "0.05",
                   "--out", str(folder), "--json")
    assert first.returncode == 0, first.stderr
    assert "on the cluster at local: 2 shards" in first.stderr
    summary = json.loads(first.stdout)
    assert summary["depth"] > 0 and (folder / "beam.npz").exists() and (folder / "best-replay.txt").exists()
    more = kibitz("search", "hatetris", "--resume", str(folder), "--minutes", "0.02", "--json")
    assert more.returncode == 0, more.stderr
    assert json.loads(more.stdout)["depth"] >= summary["depth"]


def test_ctrl_c_stops_a_cluster_search_cleanly_and_saves(tmp_path, ray_files):
    pytest.importorskip("ray", reason='needs Ray: pip install "kibitz[cluster]"')
    folder = tmp_path / "s"
    environment = {name: value for name, value in os.environ.items() if name != "RAY_AUTH_MODE"}
    environment.update(PYTHONPATH=str(PROJECT), KIBITZ_RAY_TEMP_DIR=str(ray_files), HOME=f"{ray_files}/home")
    process = subprocess.Popen(
        [sys.executable, "-m", "app", "search", "splt", "--cluster", "local", "--workers", "2", "--seed", "4",
         "--checkpoint-seconds", "1", "--out", str(folder), "--json"],
        cwd=tmp_path, env=environment, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        start_new_session=True,
    )
    try:
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline and not list(folder.glob("worker-1.npz")):
            time.sleep(0.2)
        os.killpg(process.pid, signal.SIGINT)  # what Ctrl-C in a terminal sends, to the whole group
        out, err = process.communicate(timeout=90)
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
    assert process.returncode == 0, err
    assert "Traceback" not in err
    result = json.loads(out)
    assert result["games"] > 0 and result["best_moves"] > 0 and Path(result["best_file"]).exists()
    saved = sum(Search.load(folder / f"worker-{index}.npz").snapshot().games for index in range(2))
    assert saved == result["games"]  # the workers' last checkpoints came back before the end
