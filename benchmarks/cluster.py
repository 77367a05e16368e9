"""Kibitz's searches on a two-node Ray cluster beside the same searches on this machine alone (issue 25).

    python benchmarks/cluster.py                          # 60 s ParanoidPlay runs, width 20,000, 25 layers, 2 repeats
    python benchmarks/cluster.py --seconds 15 --width 5000 --layers 10 --repeats 1
    python benchmarks/cluster.py --markdown               # the facts line and a Markdown table on standard output

The benchmark starts two Ray nodes on this machine itself, a head and a second node joined to it
(``ray start --address``), one CPU each, under a short temporary folder (/tmp/kb-ray-PID: Ray's
socket paths must stay short) and with free ports, and stops them at the end, on errors too. It
checks that the cluster has 2 CPUs on 2 live nodes before measuring, then runs, interleaved so that
the machine's other load falls on both sides alike (local 1, cluster 1, local 2, cluster 2, that
round ``--repeats`` times):

1. SPL-T ParanoidPlay from the empty board for ``--seconds``: games/s of the local process pool
   (``ParallelSearch.run``) and of the cluster's worker actors (``run(cluster="auto")``) with 1 and
   2 workers, the same seed for the local and the cluster run of one size. The cluster's clock
   starts once its actors are ready; the local pool's includes starting the worker processes
   (nothing is subtracted), so the games/s from 3 s after each run's first finished game on (from
   the progress reports) are given too, and each run's time to its first game. A few games in
   worker processes come first, off the clock. Target: 2 cluster workers >= 1.8x one.
2. The HATETRIS beam from the empty well at ``--width`` for ``--layers`` layers: wells/s of the
   one-machine beam (``BeamSearch.run``, 1 and 2 numba threads) and of the cluster beam
   (``ClusterBeam``, 1 and 2 shards; the shards' start-up is outside the clock and printed), after
   a warm-up run so that no numba compilation is timed. Every run must keep the same beam (best
   score, depth, children and the hash of every kept well); a difference is printed as MISMATCH.
   The cluster's overhead per layer is (cluster seconds - local seconds) / layers, also as a share
   of the local time. Target: at most 15 % at the same worker count. (At width 20,000 the beam
   from the empty well is still alive after 60 layers.)

A run that fails or is disturbed (a cluster worker lost and started again) is printed as FAILED,
left out of the medians, and the others go on; Ray's logs are then kept and their folder named,
and the exit status is 1, as for a MISMATCH.

Printed: every run's figure as it comes, then the medians over the repeats and their ratios, the
load average before and after, the date, Ray's version and the processor. ``--markdown`` prints
the facts line and the table as Markdown on standard output (the rest goes to standard error).
The nodes are stopped by signalling the ``ray start --block`` processes this benchmark started
(and their process groups), not with ``ray stop``, which would stop every Ray on the machine.
"""

from __future__ import annotations

import argparse
import dataclasses
import math
import os
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from benchmarks.anchor_runs import machine, now, print_facts_and_table  # noqa: E402

from advisors import cluster  # noqa: E402
from advisors.hatetris.beam import BeamSearch, BeamSettings  # noqa: E402
from advisors.hatetris.cluster import ClusterBeam  # noqa: E402
from advisors.splt.parallel import ParallelSearch, Progress  # noqa: E402
from advisors.splt.search import Search, Settings  # noqa: E402
from engines.contract import Line  # noqa: E402
from engines.hatetris import GAME  # noqa: E402

RAY = Path(sys.executable).with_name("ray")
NODES = 2
WORKER_COUNTS = (1, 2)
#: Seconds the nodes may take to start and register.
NODE_START_SECONDS = 120
#: Each node's shared-memory object store: the searches send a few megabytes a layer at most.
OBJECT_STORE_BYTES = 512 * 1024 * 1024
#: The games/s "after start-up" leave out each ParanoidPlay run until this long after its first
#: finished game (a worker process may first have to load, or rebuild, its kernels' numba cache).
STEADY_AFTER_SECONDS = 3.0
SPEED_UP_TARGET = 1.8
OVERHEAD_TARGET = 0.15


def ray_environment() -> dict[str, str]:
    # Ray's token authentication would otherwise ask every command and the driver for a token.
    return {**os.environ, "RAY_AUTH_MODE": "disabled"}


def free_ports(count: int) -> list[int]:
    """``count`` distinct ports free on this machine now (held open together so none repeats)."""
    sockets = []
    try:
        for _ in range(count):
            held = socket.socket()
            held.bind(("127.0.0.1", 0))
            sockets.append(held)
        return [held.getsockname()[1] for held in sockets]
    finally:
        for held in sockets:
            held.close()


class TwoNodes:
    """A head and a second Ray node on this machine, one CPU each, each a ``ray start --block``
    process in its own process group, so that stopping them touches no other Ray on the machine."""

    def __init__(self) -> None:
        self.folder = Path(f"/tmp/kb-ray-{os.getpid()}")
        self.processes: list[subprocess.Popen] = []
        self.port = 0

    def start(self) -> str:
        """Start both nodes; the head's address (HOST:PORT)."""
        self.folder.mkdir(parents=True, exist_ok=True)
        self.port, client_port = free_ports(2)
        address = f"127.0.0.1:{self.port}"
        self._start_node("head", ["--head", "--port", str(self.port), "--ray-client-server-port", str(client_port),
                                  "--include-dashboard", "false"])
        self._wait_for_port(self.port, self.processes[0], "head")
        self._start_node("second", ["--address", address])
        return address

    def _start_node(self, name: str, options: list[str]) -> None:
        # Every node gets its own free ports for its agents: both nodes share this machine, and
        # the other Ray instances on it keep the default ones.
        agent, agent_grpc, runtime_env, metrics = free_ports(4)
        command = [str(RAY), "start", "--block", *options, "--num-cpus", "1", "--node-ip-address", "127.0.0.1",
                   "--temp-dir", str(self.folder), "--object-store-memory", str(OBJECT_STORE_BYTES),
                   "--dashboard-agent-listen-port", str(agent), "--dashboard-agent-grpc-port", str(agent_grpc),
                   "--runtime-env-agent-port", str(runtime_env), "--metrics-export-port", str(metrics),
                   "--disable-usage-stats"]
        log = open(self.folder / f"{name}-node.log", "wb")
        try:
            self.processes.append(subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT,
                                                   stdin=subprocess.DEVNULL, env=ray_environment(),
                                                   start_new_session=True))
        finally:
            log.close()

    def _wait_for_port(self, port: int, process: subprocess.Popen, name: str) -> None:
        deadline = time.monotonic() + NODE_START_SECONDS
        while time.monotonic() < deadline:
            if process.poll() is not None:
                raise RuntimeError(f"the {name} node stopped at start (exit {process.returncode}):\n"
                                   f"{self.log_tail(name)}")
            with socket.socket() as probe:
                probe.settimeout(1)
                if probe.connect_ex(("127.0.0.1", port)) == 0:
                    return
            time.sleep(0.5)
        raise RuntimeError(f"the {name} node did not open port {port} within {NODE_START_SECONDS} s:\n"
                           f"{self.log_tail(name)}")

    def log_tail(self, name: str, lines: int = 20) -> str:
        try:
            text = (self.folder / f"{name}-node.log").read_text(encoding="utf-8", errors="replace")
        except OSError:
            return ""
        return "\n".join(text.splitlines()[-lines:])

    def stop(self, keep_logs: bool = False) -> None:
        """SIGTERM to each node's ``ray start`` (it stops the processes it started), then SIGKILL to
        whatever is left of its process group; the second node first, the head last."""
        for process in reversed(self.processes):
            if process.poll() is None:
                process.send_signal(signal.SIGTERM)
                try:
                    process.wait(timeout=30)
                except subprocess.TimeoutExpired:
                    pass
            try:
                os.killpg(process.pid, signal.SIGKILL)
            except (ProcessLookupError, PermissionError):
                pass
            if process.poll() is None:
                process.wait(timeout=10)
        self.processes = []
        if not keep_logs:
            shutil.rmtree(self.folder, ignore_errors=True)


def join(address: str):
    """Ray in this process, joined to the two nodes; checks 2 CPUs on 2 live nodes."""
    os.environ.update(RAY_ADDRESS=address, RAY_AUTH_MODE="disabled")
    ray = cluster.connect(cluster.AUTO)
    deadline = time.monotonic() + NODE_START_SECONDS
    while True:
        alive = [node for node in ray.nodes() if node["Alive"]]
        cpus = ray.cluster_resources().get("CPU", 0)
        if len(alive) == NODES and cpus == NODES:
            return ray
        if time.monotonic() > deadline:
            raise RuntimeError(f"the cluster has {len(alive)} live nodes and {cpus:g} CPUs, not {NODES} and {NODES}")
        time.sleep(0.5)


# -- ParanoidPlay ---------------------------------------------------------------------------------

@dataclasses.dataclass
class GamesRun:
    games: int
    seconds: float
    steady_games_per_second: float  # from STEADY_AFTER_SECONDS after the first game on, from the progress reports
    first_game: float  # seconds from the start of the clock to the first finished game
    first_worker_games: int  # games of worker 0, which plays the same games (its seed) at every size

    @property
    def games_per_second(self) -> float:
        return self.games / self.seconds

    @property
    def first_worker_games_per_second(self) -> float:
        return self.first_worker_games / self.seconds


def paranoid_run(scratch: Path, workers: int, seed: int, seconds: float, address: str | None) -> GamesRun:
    """One ParanoidPlay search from the empty board in a fresh folder, locally or on the cluster."""
    reports: list[tuple[float, int]] = []

    notices: list[str] = []

    def progress(report: Progress) -> None:
        reports.append((report.elapsed, report.games))
        if report.notice:
            notices.append(report.notice)

    folder = Path(tempfile.mkdtemp(prefix="paranoid-", dir=scratch))
    search = ParallelSearch.create(folder / "search", Settings.for_player("paranoid"), workers=workers, seed=seed,
                                   checkpoint_seconds=30)
    result = search.run(seconds=seconds, progress=progress, cluster=address)
    first_worker_games = Search.load(folder / "search" / "worker-0.npz").snapshot().games  # saved as it stopped
    shutil.rmtree(folder, ignore_errors=True)
    if notices:  # a worker lost and started again: its games since its checkpoint are gone from the count
        raise RuntimeError(f"the run was disturbed: {notices[0]}")
    first_game = next((elapsed for elapsed, games in reports if games > 0), math.nan)
    steady = [(elapsed, games) for elapsed, games in reports if elapsed >= first_game + STEADY_AFTER_SECONDS]
    if len(steady) >= 2 and steady[-1][0] > steady[0][0]:
        steady_rate = (steady[-1][1] - steady[0][1]) / (steady[-1][0] - steady[0][0])
    else:
        steady_rate = math.nan
    return GamesRun(result.games_this_run, result.seconds, steady_rate, first_game, first_worker_games)


def warm_up_paranoid(scratch: Path) -> None:
    """A few games in worker processes, off the clock, so that a stale numba cache (a kernel's
    source changed since) is rebuilt here and not inside the first timed run."""
    folder = Path(tempfile.mkdtemp(prefix="warm-up-", dir=scratch))
    search = ParallelSearch.create(folder / "search", Settings.for_player("paranoid"), workers=max(WORKER_COUNTS),
                                   seed=0)
    search.run(games=100)
    shutil.rmtree(folder, ignore_errors=True)


# -- the HATETRIS beam ----------------------------------------------------------------------------

@dataclasses.dataclass
class BeamRun:
    children: int
    seconds: float
    layers: int
    start_up: float  # the cluster's shard actors made and ready (0 for the local beam)
    finished: bool  # the beam died before the layers asked
    beam: tuple  # best score, depth, children, and the hashes of every kept well: the same beam?

    @property
    def wells_per_second(self) -> float:
        return self.children / self.seconds


def beam_run(width: int, layers: int, workers: int, address: str | None) -> BeamRun:
    """``layers`` layers of the beam from the empty well, on ``workers`` numba threads or shards."""
    search = BeamSearch(Line(GAME.initial_state(), ()), BeamSettings(width=width))
    start_up = 0.0
    if address is None:
        result = search.run(max_depth=layers, threads=workers)
    else:
        began = time.perf_counter()
        beam = ClusterBeam(search, address, shards=workers)
        start_up = time.perf_counter() - began
        try:
            result = beam.run(max_depth=layers)
        finally:
            beam.close()
    same_beam = (search.best_score, search.depth, search.children, search.hashes.view().tobytes())
    return BeamRun(result.children, result.seconds, search.depth, start_up, result.finished, same_beam)


def warm_up_beam() -> None:
    """Compile (or load from numba's cache) the beam's kernels in this process, off the clock."""
    for threads in WORKER_COUNTS:
        BeamSearch(Line(GAME.initial_state(), ()), BeamSettings(width=200)).run(max_depth=3, threads=threads)


# -- the report -----------------------------------------------------------------------------------

def median(values) -> float:
    return statistics.median(values) if values else math.nan


def ratio(numerator: float, denominator: float) -> float:
    return numerator / denominator if denominator and not math.isnan(denominator) else math.nan


def shown(value: float, form: str) -> str:
    """``value`` in ``form``, or "failed" when no run of it finished."""
    return "failed" if math.isnan(value) else form.format(value)


def first_line(error: BaseException) -> str:
    text = str(error).strip().splitlines()
    return f"{type(error).__name__}: {text[-1] if text else ''}"[:300]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seconds", type=float, default=60.0, help="length of each ParanoidPlay run")
    parser.add_argument("--width", type=int, default=20_000, help="the HATETRIS beam's width")
    parser.add_argument("--layers", type=int, default=25, help="beam layers timed per run")
    parser.add_argument("--repeats", type=int, default=2, help="rounds of interleaved runs (local 1, cluster 1, "
                                                                "local 2, cluster 2)")
    parser.add_argument("--seed", type=int, default=1, help="ParanoidPlay seed of the first round; round i uses "
                                                             "seed + i, locally and on the cluster")
    parser.add_argument("--markdown", action="store_true",
                        help="the facts line and the table as Markdown on standard output; the rest on standard error")
    args = parser.parse_args()
    log = sys.stderr if args.markdown else sys.stdout

    def say(text: str) -> None:
        print(text, file=log, flush=True)

    import ray
    say(f"# {machine()}; Ray {ray.__version__}; {now()}")
    load_before = os.getloadavg()
    say(f"# load average before: {load_before[0]:.2f} {load_before[1]:.2f} {load_before[2]:.2f}")
    games: dict[tuple[str, int], list[GamesRun]] = {}
    beams: dict[tuple[str, int], list[BeamRun]] = {}
    mismatches: list[str] = []
    failures: list[str] = []
    nodes = TwoNodes()
    scratch = Path(tempfile.mkdtemp(prefix="kibitz-cluster-bench-"))
    try:
        address = nodes.start()
        joined = join(address)
        say(f"# two Ray nodes on this machine, head at {address}: {cluster.cluster_cpus(joined)} CPUs, "
            f"{sum(node['Alive'] for node in joined.nodes())} live nodes")
        places = (("local", None), ("cluster", cluster.AUTO))

        say(f"\nSPL-T ParanoidPlay from the empty board, {args.seconds:g} s a run")
        warm_up_paranoid(scratch)
        for round_number in range(args.repeats):
            seed = args.seed + round_number
            for workers in WORKER_COUNTS:
                for place, where in places:
                    name = (f"round {round_number + 1}, ParanoidPlay {place} {workers} "
                            f"worker{'s' if workers > 1 else ''}")
                    try:
                        run = paranoid_run(scratch, workers, seed, args.seconds, where)
                    except Exception as error:  # one configuration failing leaves the others to measure
                        failures.append(f"{name}: {first_line(error)}")
                        say(f"  FAILED: {failures[-1]}")
                        continue
                    games.setdefault((place, workers), []).append(run)
                    say(f"  {name:38} seed {seed}: {run.games:,} games in {run.seconds:.1f} s = "
                        f"{run.games_per_second:,.1f} games/s (first game after {run.first_game:.1f} s; "
                        f"{run.steady_games_per_second:,.1f} games/s from {STEADY_AFTER_SECONDS:g} s later on), "
                        f"load {os.getloadavg()[0]:.2f}")

        say(f"\nHATETRIS beam from the empty well, width {args.width:,}, {args.layers} layers a run")
        warm_up_beam()
        reference = None
        for round_number in range(args.repeats):
            for workers in WORKER_COUNTS:
                for place, where in places:
                    name = (f"round {round_number + 1}, beam {place} {workers} "
                            f"{'shard' if where else 'thread'}{'s' if workers > 1 else ''}")
                    try:
                        run = beam_run(args.width, args.layers, workers, where)
                    except Exception as error:  # one configuration failing leaves the others to measure
                        failures.append(f"{name}: {first_line(error)}")
                        say(f"  FAILED: {failures[-1]}")
                        continue
                    beams.setdefault((place, workers), []).append(run)
                    if reference is None:
                        reference = (name, run.beam)
                    elif run.beam != reference[1]:
                        mismatches.append(f"{name} kept another beam than {reference[0]} (best score "
                                          f"{run.beam[0]} vs {reference[1][0]}, depth {run.beam[1]} vs "
                                          f"{reference[1][1]}, children {run.beam[2]:,} vs {reference[1][2]:,})")
                        say(f"  MISMATCH: {mismatches[-1]}")
                    start_up = f", shards ready in {run.start_up:.1f} s" if where else ""
                    died = f", THE BEAM DIED after {run.layers} layers" if run.finished else ""
                    say(f"  {name:38}: {run.children:,} wells in {run.seconds:.2f} s = "
                        f"{run.wells_per_second:,.0f} wells/s, {run.seconds / run.layers * 1000:,.0f} ms a layer"
                        f"{start_up}{died}, load {os.getloadavg()[0]:.2f}")
    finally:
        cluster.disconnect()
        nodes.stop(keep_logs=bool(failures))
        if failures:
            say(f"# Ray's logs kept in {nodes.folder} (some runs failed)")
        shutil.rmtree(scratch, ignore_errors=True)
    load_after = os.getloadavg()
    say(f"# load average after: {load_after[0]:.2f} {load_after[1]:.2f} {load_after[2]:.2f}")

    def rate(place: str, workers: int, steady: bool = False) -> float:
        return median([run.steady_games_per_second if steady else run.games_per_second
                       for run in games.get((place, workers), [])])

    def first_worker_rate(place: str, workers: int) -> float:
        return median([run.first_worker_games_per_second for run in games.get((place, workers), [])])

    def wells(place: str, workers: int) -> float:
        return median([run.wells_per_second for run in beams.get((place, workers), [])])

    def layer_seconds(place: str, workers: int) -> float:
        return median([run.seconds / run.layers for run in beams.get((place, workers), [])])

    def overhead(workers: int) -> tuple[float, float]:
        extra = layer_seconds("cluster", workers) - layer_seconds("local", workers)
        return extra, ratio(extra, layer_seconds("local", workers))

    header = ["", "1 worker", "2 workers", "2 / 1"]
    rows = []
    for label, place, steady in (("ParanoidPlay games/s, local process pool", "local", False),
                                 ("ParanoidPlay games/s, Ray cluster", "cluster", False),
                                 ("ParanoidPlay games/s after start-up, local", "local", True),
                                 ("ParanoidPlay games/s after start-up, cluster", "cluster", True)):
        one, two = rate(place, 1, steady), rate(place, 2, steady)
        rows.append([label, shown(one, "{:,.1f}"), shown(two, "{:,.1f}"), shown(ratio(two, one), "{:.2f}x")])
    # Worker 0 plays the same games (the same seed) alone and beside another worker: its rate in
    # the 2-worker run over the lone worker's is the efficiency on equal work, and twice that the
    # speed-up (the run's two workers play different games, of different lengths).
    for label, place in (("ParanoidPlay worker 0 games/s, the same games at both sizes, local", "local"),
                         ("ParanoidPlay worker 0 games/s, the same games at both sizes, cluster", "cluster")):
        one, two = first_worker_rate(place, 1), first_worker_rate(place, 2)
        rows.append([label, shown(one, "{:,.1f}"), shown(two, "{:,.1f}"),
                     shown(2 * ratio(two, one), "{:.2f}x") + " speed-up"])
    rows.append(["ParanoidPlay cluster / local",
                 *[shown(ratio(rate("cluster", n), rate("local", n)), "{:.2f}x") for n in WORKER_COUNTS], ""])
    for label, place in (("beam wells/s, local (numba threads)", "local"),
                         ("beam wells/s, Ray cluster (shards)", "cluster")):
        one, two = wells(place, 1), wells(place, 2)
        rows.append([label, shown(one, "{:,.0f}"), shown(two, "{:,.0f}"), shown(ratio(two, one), "{:.2f}x")])
    for label, place in (("beam ms a layer, local", "local"), ("beam ms a layer, cluster", "cluster")):
        rows.append([label, *[shown(layer_seconds(place, n) * 1000, "{:,.0f}") for n in WORKER_COUNTS], ""])
    rows.append(["beam cluster overhead a layer",
                 *[shown(overhead(n)[0] * 1000, "{:+,.0f} ms") + shown(overhead(n)[1], " ({:+.0%})")
                   if not math.isnan(overhead(n)[0]) else "failed" for n in WORKER_COUNTS], ""])
    all_beams = [run for runs in beams.values() for run in runs]
    died = [run for run in all_beams if run.finished]
    start_ups = [run.start_up for run in beams.get(("cluster", 2), [])]
    layers = sorted({run.layers for run in all_beams})
    facts = (f"Kibitz on two Ray nodes of this machine (1 CPU each) beside the one-machine searches, medians of "
             f"{args.repeats} interleaved rounds; ParanoidPlay from the empty board, {args.seconds:g} s a run, seeds "
             f"{args.seed}-{args.seed + args.repeats - 1} (the local pool's time includes starting its worker "
             f"processes, the cluster's starts once its actors are ready; \"after start-up\" counts from "
             f"{STEADY_AFTER_SECONDS:g} s after a run's first game); HATETRIS beam from the empty well, width "
             f"{args.width:,}, {'/'.join(map(str, layers)) or '-'} layers a run, "
             + ("the same beam in every run" if not mismatches else f"{len(mismatches)} MISMATCHED beams")
             + (f", the beam died in {len(died)} runs" if died else "")
             + (f", 2 shards ready in {median(start_ups):.1f} s (off the clock)" if start_ups else "")
             + (f"; {len(failures)} runs FAILED" if failures else "")
             + f"; load average {load_before[0]:.2f} before, {load_after[0]:.2f} after; Ray {ray.__version__}; "
             f"{machine()}; {now()}")
    print_facts_and_table(facts, header, rows, args.markdown)
    speed_up = 2 * ratio(first_worker_rate("cluster", 2), first_worker_rate("cluster", 1))
    print(f"\ntarget: ParanoidPlay on 2 cluster workers >= {SPEED_UP_TARGET}x one, on the same games: "
          f"{shown(speed_up, '{:.2f}x')}, {'met' if speed_up >= SPEED_UP_TARGET else 'NOT met'} (all games: "
          f"{shown(ratio(rate('cluster', 2), rate('cluster', 1)), '{:.2f}x')})")
    for workers in WORKER_COUNTS:
        share = overhead(workers)[1]
        print(f"target: beam cluster overhead <= {OVERHEAD_TARGET:.0%} of the local search at {workers} "
              f"worker{'s' if workers > 1 else ''}: {shown(share, '{:+.1%}')}, "
              f"{'met' if share <= OVERHEAD_TARGET else 'NOT met'}")
    for problem in [*(f"MISMATCH: {m}" for m in mismatches), *(f"FAILED: {f}" for f in failures)]:
        print(problem)
    return 1 if mismatches or failures else 0


if __name__ == "__main__":
    raise SystemExit(main())
