r"""HATETRIS speed and strength beside the anchors of spec 4.

1. Children of a well, beside David & Felipe's own Rust (``--anchor PATH``): the AI's choice (all
   seven pieces' reachable resting placements, rated) and the chosen piece's distinct child wells,
   for every well of the archived HATETRIS record games (2,503 wells). Kibitz runs
   ``engines.hatetris.kernel.children_of_well`` in a compiled loop (no interpreter time); the
   anchor runs its own ``single_move`` (src/emulator.rs) in a small harness. Both are pinned to one
   core (``--core``) and run in turn, anchor batch then Kibitz batch, ``--rounds`` times, each
   batch ``--passes`` passes over all the wells. Printed: microseconds per well of each (median of
   the rounds, CPU time of the running thread, and wall time), the speed-up (anchor time / Kibitz
   time) as the median of the per-round ratios with the 10th-90th percentiles, the load average
   before and after, and the exactness check: at every well the piece Kibitz's kernel chooses must
   be the piece the anchor chooses and the child wells must be the same set (mismatches are
   counted and printed). ``--markdown`` prints only that result, as a Markdown table with the
   machine, the date and the anchor's commit, on standard output (the rest goes to standard
   error), for ``benchmarks/readme_tables.py hatetris-children``; no beam searches then. Without
   the anchor it says so and times Kibitz alone.
2. Beam searches from the empty well at the widths asked (default 1,000, 10,000 and 100,000) on
   all cores, each with each evaluation asked (``--weights``: the hand heuristic's weight sets
   kibitz and df, and the learned evaluation, learned) in a process of its own: lines reached,
   pieces, minutes, wells scored per second, the process's peak memory. Anchor: the 2010-2017
   record of 31 lines, to be reached within 30 minutes. The best game's Base2048 replay is
   printed and replayed on Kibitz's engine and, where the real page can run
   (``../shared/clients/hatetris``, Playwright, chromium), pasted into the page's "show a
   replay" and its final score read from the page; ``--replays DIR`` keeps it as
   ``DIR/beam-<lines>.txt`` (the README links the one in docs/hatetris).

    python benchmarks/hatetris.py --anchor ../anchors/HATETRIS-public-beamsearch --children-only [--markdown]
    python benchmarks/hatetris.py [--widths 1000,10000,100000] [--minutes 30] [--lookahead 0,4] \
        [--weights df,learned] [--replays docs/hatetris] [--beams-markdown beams.md]

The anchor: David & Felipe's beam search, https://github.com/thecog19/HATETRIS-public-beamsearch
(measured at commit d0f6b2f3c8fa4c28bcc314170f595ff72839b10a), fetched by whoever runs the
benchmark, outside Kibitz::

    git clone https://github.com/thecog19/HATETRIS-public-beamsearch

PATH is that checkout. Nothing of it is copied into Kibitz: the benchmark writes its own small
harness (a ``main.rs`` that includes the checkout's ``src/constants.rs``, ``emulator.rs``,
``masks.rs``, ``pieces.rs`` and ``types.rs`` unchanged, by path) into a temporary folder and
compiles it with ``rustc`` at the anchor's release settings (Cargo.toml: opt-level 3, lto "fat",
codegen-units 1, debug info; .cargo/config.toml: target-cpu=native). Those files use five crates
(fnv, lazy_static, rand, rand_distr, savefile) that ``single_move`` does not need except
lazy_static; crate registries may be out of reach, so the harness gets small stand-ins: lazy_static
as ``std::sync::LazyLock`` statics, fnv's maps as std's HashMap, a ``Savefile`` derive that adds
nothing, rand and rand_distr types that panic if called (never, on this path), and for the
``neural`` module (whose ``decompose_well`` and ``forward_pass`` emulator.rs imports for its
heuristics) two functions that panic if called. The commands, in the build folder (``main.rs``
and the stand-ins are written there by the benchmark; ``main.rs`` names PATH/src/*.rs by their
absolute paths)::

    R="rustc --edition 2021 -C opt-level=3 -C codegen-units=1 -C target-cpu=native"
    $R --crate-type proc-macro --crate-name savefile_derive savefile_derive.rs -o libsavefile_derive.so
    $R --crate-type rlib --crate-name savefile --extern savefile_derive=libsavefile_derive.so savefile.rs \
        -o libsavefile.rlib
    for c in fnv lazy_static rand rand_distr; do $R --crate-type rlib --crate-name $c $c.rs -o lib$c.rlib; done
    $R -C lto=fat -C debuginfo=2 -L . --extern fnv=libfnv.rlib --extern lazy_static=liblazy_static.rlib \
        --extern savefile=libsavefile.rlib --extern rand=librand.rlib --extern rand_distr=librand_distr.rlib \
        main.rs -o harness

``--build-dir DIR`` keeps the folder (with those sources) to look at or rebuild by hand. The
harness reads the wells from a text file (one well a line: the 16 rows below the bar, top first,
as the anchor's row values, where bit 9 is the leftmost column) and answers ``time N`` (N passes
over all wells: wall and CPU seconds) and ``check`` (per well the anchor's piece and its distinct
child wells) on its standard input.
"""

from __future__ import annotations

import argparse
import concurrent.futures
import contextlib
import csv
import dataclasses
import io
import multiprocessing
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numba
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from benchmarks.anchor_runs import anchor_commit, machine, now, print_facts_and_table  # noqa: E402

from advisors.hatetris import learned  # noqa: E402
from advisors.hatetris.beam import EVALUATION_NAMES, BeamSearch, BeamSettings  # noqa: E402
from engines.contract import Line  # noqa: E402
from engines.files import write_text_atomic  # noqa: E402
from engines.hatetris import DEFAULT_RULES, GAME, codecs  # noqa: E402
from engines.hatetris import kernel  # noqa: E402
from engines.hatetris.pieces import PIECES  # noqa: E402

DATA = Path(os.environ.get("KIBITZ_REFERENCE_DATA", Path(__file__).resolve().parents[2] / "shared" / "data"))


def record_wells() -> list[np.ndarray]:
    """Every well the AI was called with in the archived HATETRIS (not Mild) record games."""
    wells = []
    with open(DATA / "hatetris" / "records_decoded.tsv", encoding="utf-8") as handle:
        for row in csv.DictReader(handle, delimiter="\t"):
            if row["enemy_ai"] != "HATETRIS":
                continue
            replay = GAME.replay_keys(row["keys"])
            state_well = (0,) * 20
            for move in replay.placements:
                from engines.hatetris.reference import lock

                _, state_well, _, over = lock(state_well, DEFAULT_RULES, move.piece_index, move.x, move.y, move.o)
                if over:
                    break
                wells.append(np.array(state_well, dtype=np.int64))
    return wells


@numba.njit(nogil=True)
def _children_of_all(wells, passes, scratch, children, lines, pieces_out, counts_out):
    """``passes`` times over ``wells``: the AI's piece and the chosen piece's distinct child wells
    (``children_of_well``); compiled, so no interpreter time is counted. Keeps the last pass's
    pieces and child counts; returns the children made."""
    made = 0
    for _ in range(passes):
        for index in range(wells.shape[0]):
            piece, count = kernel.children_of_well(wells[index], 10, 20, scratch, children, lines)
            pieces_out[index] = piece
            counts_out[index] = count
            made += count
    return made


class KibitzChildren:
    """Kibitz's children of every well, timed in compiled batches."""

    def __init__(self, wells: list[np.ndarray]) -> None:
        self.wells = np.ascontiguousarray(np.array(wells, dtype=np.int64))
        self.scratch = kernel.well_scratch(20)
        self.children = np.empty((kernel.MAX_RESTING, 20), dtype=np.int64)
        self.lines = np.empty(kernel.MAX_RESTING, dtype=np.int64)
        self.pieces = np.empty(len(wells), dtype=np.int64)
        self.counts = np.empty(len(wells), dtype=np.int64)
        self.run(1)  # compile (or load the cache) outside the timing

    def run(self, passes: int) -> tuple[float, float, int]:
        """(wall seconds, CPU seconds of this thread, children made) for ``passes`` passes."""
        wall, cpu = time.perf_counter(), time.thread_time()
        made = _children_of_all(self.wells, passes, self.scratch, self.children, self.lines, self.pieces,
                                self.counts)
        return time.perf_counter() - wall, time.thread_time() - cpu, int(made)

    def of(self, index: int) -> tuple[int, list[tuple[int, tuple[int, ...]]]]:
        """(piece, [(lines cleared, child well), ...]) of one well."""
        piece, count = kernel.children_of_well(self.wells[index], 10, 20, self.scratch, self.children, self.lines)
        return int(piece), [(int(self.lines[i]), tuple(int(v) for v in self.children[i])) for i in range(count)]


# --- the anchor: David & Felipe's single_move in a harness of ours -----------------------------

ANCHOR_REPOSITORY = "https://github.com/thecog19/HATETRIS-public-beamsearch"
ANCHOR_FILES = ("constants", "emulator", "masks", "pieces", "types")
RUSTC_RELEASE = ("--edition", "2021", "-C", "opt-level=3", "-C", "codegen-units=1", "-C", "target-cpu=native")

HARNESS_MAIN = r"""// Kibitz's timing harness around the anchor's emulator (its files are included unchanged by path).
#![allow(unused_parens, unused_imports, dead_code, unused_variables, unused_mut, unused_assignments, unused_must_use)]
{modules}
/// Stand-ins for the two neural-network functions emulator.rs imports; single_move never calls them.
pub mod neural {{
    use crate::constants::CONV_COUNT;
    use crate::types::{{WeightT, WellT}};
    pub fn decompose_well(_well: &WellT) -> [usize; CONV_COUNT] {{ unreachable!("not used by single_move") }}
    pub fn forward_pass(_conv: [usize; CONV_COUNT], _weight: &WeightT) -> f64 {{ unreachable!("not used by single_move") }}
}}
use std::io::{{BufRead, Write}};
use types::State;

#[repr(C)]
struct Timespec {{ seconds: i64, nanoseconds: i64 }}
extern "C" {{ fn clock_gettime(clock: i32, time: *mut Timespec) -> i32; }}
/// CPU seconds of this thread (CLOCK_THREAD_CPUTIME_ID).
fn thread_seconds() -> f64 {{
    let mut time = Timespec {{ seconds: 0, nanoseconds: 0 }};
    unsafe {{ clock_gettime(3, &mut time); }}
    time.seconds as f64 + time.nanoseconds as f64 * 1e-9
}}

fn main() {{
    let path = std::env::args().nth(1).expect("usage: harness WELLS_FILE");
    let text = std::fs::read_to_string(&path).expect("cannot read the wells file");
    let mut wells: Vec<State> = Vec::new();
    for line in text.lines().filter(|l| !l.trim().is_empty()) {{
        let rows: Vec<u16> = line.split_whitespace().map(|v| v.parse().expect("a row value")).collect();
        let mut state = State::new();
        assert_eq!(rows.len(), state.well.len(), "rows per well");
        state.well.copy_from_slice(&rows);
        wells.push(state);
    }}
    for state in &wells {{ std::hint::black_box(emulator::single_move(state)); }}  // builds the lazy tables
    let stdin = std::io::stdin();
    let mut out = std::io::stdout().lock();
    writeln!(out, "ready {{}}", wells.len()); out.flush();
    for command in stdin.lock().lines() {{
        let command = command.unwrap();
        let words: Vec<&str> = command.split_whitespace().collect();
        match words.as_slice() {{
            ["time", passes] => {{
                let passes: usize = passes.parse().unwrap();
                let (wall, cpu) = (std::time::Instant::now(), thread_seconds());
                let mut children = 0usize;
                for _ in 0..passes {{
                    for state in &wells {{
                        children += std::hint::black_box(emulator::single_move(std::hint::black_box(state))).len();
                    }}
                }}
                writeln!(out, "wall {{:.9}} cpu {{:.9}} children {{}}", wall.elapsed().as_secs_f64(), thread_seconds() - cpu, children);
            }}
            ["check"] => {{
                for state in &wells {{
                    let (piece, _) = emulator::get_legal(state);
                    let mut children = emulator::single_move(state);
                    let returned = children.len();
                    children.sort();
                    children.dedup();
                    write!(out, "{{}} {{}}", piece, returned);
                    for child in &children {{
                        let rows: Vec<String> = child.well.iter().map(|r| r.to_string()).collect();
                        write!(out, " {{}}:{{}}", child.score, rows.join(","));
                    }}
                    writeln!(out);
                }}
                writeln!(out, "end");
            }}
            _ => break,
        }}
        out.flush();
    }}
}}
"""

# Stand-ins for the crates the anchor's files name (see the module's docstring).
CRATE_STAND_INS = {
    "savefile_derive": "extern crate proc_macro;\nuse proc_macro::TokenStream;\n#[proc_macro_derive(Savefile)]\n"
                       "pub fn derive_savefile(_item: TokenStream) -> TokenStream { TokenStream::new() }\n",
    "savefile": "pub mod prelude { pub use savefile_derive::Savefile; }\n",
    "fnv": "pub type FnvHashMap<K, V> = std::collections::HashMap<K, V>;\n"
           "pub type FnvHashSet<K> = std::collections::HashSet<K>;\n",
    "lazy_static": "#[macro_export]\nmacro_rules! lazy_static {\n"
                   "    ($(#[$attr:meta])* $vis:vis static ref $name:ident : $t:ty = $e:expr; $($rest:tt)*) => {\n"
                   "        $(#[$attr])* $vis static $name: ::std::sync::LazyLock<$t> = ::std::sync::LazyLock::new(|| $e);\n"
                   "        $crate::lazy_static!($($rest)*);\n    };\n    () => {};\n}\n",
    "rand": "pub struct ThreadRng;\npub fn thread_rng() -> ThreadRng { unreachable!(\"not used by single_move\") }\n",
    "rand_distr": "pub trait Distribution<T> { fn sample<R: ?Sized>(&self, rng: &mut R) -> T; }\n"
                  "#[derive(Debug)] pub struct Error;\npub struct Normal;\n"
                  "impl Normal { pub fn new(_mean: f64, _std: f64) -> Result<Normal, Error> "
                  "{ unreachable!(\"not used by single_move\") } }\n"
                  "impl Distribution<f64> for Normal { fn sample<R: ?Sized>(&self, _rng: &mut R) -> f64 "
                  "{ unreachable!(\"not used by single_move\") } }\n",
}


def anchor_sources(anchor: Path) -> Path | None:
    """The checkout's src folder when it holds the emulator files, else None."""
    source = anchor / "src"
    return source if all((source / f"{name}.rs").is_file() for name in ANCHOR_FILES) else None


def build_anchor_harness(source: Path, folder: Path, rustc: str = "rustc") -> Path:
    """Write the harness and the crate stand-ins into ``folder`` and compile them; the binary."""
    folder.mkdir(parents=True, exist_ok=True)
    for name, text in CRATE_STAND_INS.items():
        (folder / f"{name}.rs").write_text(text, encoding="utf-8")
    modules = "\n".join(f'#[path = "{(source / f"{name}.rs").resolve()}"] pub mod {name};' for name in ANCHOR_FILES)
    (folder / "main.rs").write_text(HARNESS_MAIN.format(modules=modules), encoding="utf-8")
    release = [rustc, *RUSTC_RELEASE]
    steps = [release + ["--crate-type", "proc-macro", "--crate-name", "savefile_derive", "savefile_derive.rs",
                        "-o", "libsavefile_derive.so"],
             release + ["--crate-type", "rlib", "--crate-name", "savefile", "--extern",
                        "savefile_derive=libsavefile_derive.so", "savefile.rs", "-o", "libsavefile.rlib"]]
    for crate in ("fnv", "lazy_static", "rand", "rand_distr"):
        steps.append(release + ["--crate-type", "rlib", "--crate-name", crate, f"{crate}.rs", "-o", f"lib{crate}.rlib"])
    externs = [arg for crate in ("fnv", "lazy_static", "savefile", "rand", "rand_distr")
               for arg in ("--extern", f"{crate}=lib{crate}.rlib")]
    steps.append(release + ["-C", "lto=fat", "-C", "debuginfo=2", "-L", ".", *externs, "main.rs", "-o", "harness"])
    for step in steps:
        done = subprocess.run(step, cwd=folder, capture_output=True, text=True)
        if done.returncode != 0:
            raise RuntimeError(f"building the anchor's harness failed: {' '.join(step)}\n{done.stderr}")
    return folder / "harness"


def _mirrored(row: int) -> int:
    """A row between Kibitz's order (bit 0 = leftmost column) and the anchor's (bit 9 = leftmost)."""
    return int(f"{row:010b}"[::-1], 2)


def anchor_well_line(well: np.ndarray) -> str:
    """A well as the harness reads it: the 16 rows below the bar, in the anchor's bit order."""
    return " ".join(str(_mirrored(int(row))) for row in well[4:])


class AnchorHarness:
    """The anchor's harness as a process pinned to ``core``, answering on its standard input."""

    def __init__(self, binary: Path, wells_file: Path, core: int) -> None:
        self.process = subprocess.Popen([str(binary), str(wells_file)], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                        text=True)
        os.sched_setaffinity(self.process.pid, {core})
        ready = self.process.stdout.readline().split()
        if not ready or ready[0] != "ready":
            raise RuntimeError(f"the anchor's harness did not start: {ready}")
        self.wells = int(ready[1])

    def _ask(self, command: str) -> None:
        self.process.stdin.write(command + "\n")
        self.process.stdin.flush()

    def run(self, passes: int) -> tuple[float, float, int]:
        """(wall seconds, CPU seconds, children returned) for ``passes`` passes over the wells."""
        self._ask(f"time {passes}")
        words = self.process.stdout.readline().split()
        return float(words[1]), float(words[3]), int(words[5])

    def check(self) -> list[tuple[int, int, set[tuple[int, tuple[int, ...]]]]]:
        """Per well: (the anchor's piece, children single_move returned, its distinct child wells as
        (lines cleared, Kibitz's 20 rows))."""
        self._ask("check")
        answers = []
        for _ in range(self.wells):
            words = self.process.stdout.readline().split()
            children = set()
            for child in words[2:]:
                score, rows = child.split(":")
                children.add((int(score), (0,) * 4 + tuple(_mirrored(int(r)) for r in rows.split(","))))
            answers.append((int(words[0]), int(words[1]), children))
        if self.process.stdout.readline().strip() != "end":
            raise RuntimeError("the anchor's harness answered out of step")
        return answers

    def close(self) -> None:
        self._ask("quit")
        self.process.wait(timeout=30)


def _spread(values: list[float]) -> tuple[float, float, float]:
    return float(np.median(values)), float(np.percentile(values, 10)), float(np.percentile(values, 90))


def compare_children(anchor: Path | None, core: int, rounds: int, passes: int, markdown: bool,
                     build_dir: Path | None, rustc: str) -> None:
    """Children of every record well, the anchor's batch then Kibitz's, ``rounds`` times on one core."""
    os.sched_setaffinity(0, {core})
    wells = record_wells()
    kibitz = KibitzChildren(wells)
    source = anchor_sources(anchor) if anchor is not None else None
    if anchor is not None and source is None:
        print(f"the anchor is absent: {anchor} has no src/{{{','.join(ANCHOR_FILES)}}}.rs "
              f"(fetch it: git clone {ANCHOR_REPOSITORY}); timing Kibitz alone", file=sys.stderr)
    elif anchor is None:
        print(f"no --anchor given (a checkout of {ANCHOR_REPOSITORY}): timing Kibitz alone", file=sys.stderr)
    harness = None
    with tempfile.TemporaryDirectory() as temporary:
        if source is not None:
            folder = build_dir if build_dir is not None else Path(temporary) / "build"
            binary = build_anchor_harness(source, folder, rustc)
            wells_file = Path(temporary) / "wells.txt"
            wells_file.write_text("".join(anchor_well_line(well) + "\n" for well in wells), encoding="utf-8")
            harness = AnchorHarness(binary, wells_file, core)
        try:
            piece_mismatches = child_mismatches = duplicates = 0
            anchor_returned = 0
            kibitz_children = 0
            answers = harness.check() if harness is not None else [None] * len(wells)
            for index, answer in enumerate(answers):
                piece, children = kibitz.of(index)
                kibitz_children += len(children)
                duplicates += len(children) - len(set(children))
                if answer is None:
                    continue
                anchor_piece, returned, anchor_children = answer
                anchor_returned += returned
                if anchor_piece != piece:
                    piece_mismatches += 1
                    print(f"well {index}: the anchor chooses {PIECES[anchor_piece]}, Kibitz {PIECES[piece]}",
                          file=sys.stderr)
                elif anchor_children != set(children):
                    child_mismatches += 1
                    print(f"well {index}: {len(anchor_children)} distinct child wells by the anchor, "
                          f"{len(set(children))} by Kibitz, not the same", file=sys.stderr)
            load_before = os.getloadavg()
            times: dict[str, dict[str, list[float]]] = {"anchor": {"wall": [], "cpu": []},
                                                        "kibitz": {"wall": [], "cpu": []}}
            calls = passes * len(wells)
            for _ in range(rounds):
                if harness is not None:
                    wall, cpu, _ = harness.run(passes)
                    times["anchor"]["wall"].append(wall / calls * 1e6)
                    times["anchor"]["cpu"].append(cpu / calls * 1e6)
                wall, cpu, _ = kibitz.run(passes)
                times["kibitz"]["wall"].append(wall / calls * 1e6)
                times["kibitz"]["cpu"].append(cpu / calls * 1e6)
            load_after = os.getloadavg()
        finally:
            if harness is not None:
                harness.close()
    rows = []
    for name, label in (("kibitz", "Kibitz children_of_well (numba)"),
                        ("anchor", "David & Felipe single_move (Rust)")):
        if not times[name]["cpu"]:
            continue
        cpu, wall = float(np.median(times[name]["cpu"])), float(np.median(times[name]["wall"]))
        row = [label, f"{cpu:.2f}", f"{wall:.2f}"]
        if harness is not None:
            ratio = _spread([a / k for a, k in zip(times["anchor"]["cpu"], times["kibitz"]["cpu"])])
            wall_ratio = _spread([a / k for a, k in zip(times["anchor"]["wall"], times["kibitz"]["wall"])])
            row += ([f"{ratio[0]:.2f}x ({ratio[1]:.2f}-{ratio[2]:.2f})", f"{wall_ratio[0]:.2f}x "
                     f"({wall_ratio[1]:.2f}-{wall_ratio[2]:.2f})"] if name == "kibitz" else ["1", "1"])
        rows.append(row)
    header = ["children of a well", "us/well (CPU)", "us/well (wall)"]
    if harness is not None:
        header += ["speed-up, CPU: median (10th-90th pct)", "speed-up, wall"]
    commit = anchor_commit(anchor) if source is not None else "absent"
    checked = (f"same piece at {len(wells) - piece_mismatches:,} of {len(wells):,} wells, same child wells at "
               f"{len(wells) - piece_mismatches - child_mismatches:,}; {kibitz_children / len(wells):.2f} distinct "
               f"children a well (the anchor's single_move returns {anchor_returned / len(wells):.2f}, with "
               f"repeats)" if harness is not None else f"{kibitz_children / len(wells):.2f} children a well")
    facts = (f"{len(wells):,} wells of the archived HATETRIS record games; {rounds} rounds of {passes} passes each, "
             f"the anchor's batch then Kibitz's, on core {core}; load average {load_before[0]:.2f} before, "
             f"{load_after[0]:.2f} after; {machine()}; {now()}; "
             f"thecog19/HATETRIS-public-beamsearch commit {commit}; {checked}; "
             f"Kibitz's own duplicate children: {duplicates}")
    print_facts_and_table(facts, header, rows, markdown)
    if harness is not None and (piece_mismatches or child_mismatches):
        print(f"\nMISMATCHES: {piece_mismatches} pieces, {child_mismatches} child sets")


@dataclasses.dataclass(frozen=True)
class BeamRun:
    """One beam search's outcome, as its own process reports it."""

    score: int
    pieces: int
    seconds: float
    children: int
    finished: bool
    replay: str
    peak_mb: float  # the process's largest resident size
    start_score: int = 0  # the start line's lines and pieces, before the search
    start_pieces: int = 0

    @property
    def children_per_second(self) -> float:
        return self.children / self.seconds if self.seconds else 0.0

    @property
    def lines_gained(self) -> int:
        return self.score - self.start_score

    @property
    def pieces_gained(self) -> int:
        return self.pieces - self.start_pieces


def run_beam(line: Line, settings: BeamSettings, minutes: float, threads: int | None = None,
             network: str | None = None, report_every: float | None = None) -> BeamRun:
    """One beam search from ``line``, capped at ``minutes``, run in this process: the benchmarks
    call it in a spawned worker, so that its peak memory and its numba threads are its own.
    ``threads``: numba's threads (None: every core); ``network``: a network file the learned
    evaluation uses in place of the shipped one; ``report_every``: seconds between progress lines
    on standard error (None: none)."""
    first = GAME.replay(line.start, line.moves)
    last = [0.0]

    def progress(p):
        if time.monotonic() - last[0] > report_every:
            last[0] = time.monotonic()
            print(f"    width {settings.width:,}: depth {p.depth}, best {p.best_score}, "
                  f"{p.wells_per_second:,.0f} wells/s, {p.elapsed / 60:.1f} min", file=sys.stderr, flush=True)

    shipped = learned.shipped
    if network is not None:
        chosen = learned.load(network)
        learned.shipped = lambda: chosen  # the beam asks the module for its network at each layer
    try:
        result = BeamSearch(line, settings).run(seconds=minutes * 60, threads=threads,
                                                progress=progress if report_every is not None else None)
    finally:
        learned.shipped = shipped  # a worker used again values wells with the shipped network
    peak_kb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss  # kilobytes on Linux
    return BeamRun(result.score, result.pieces, result.seconds, result.children, result.finished, result.replay,
                   peak_kb / 1024, first.score, first.pieces)


def beam_run(width: int, minutes: float, lookahead: int, evaluation: str) -> BeamRun:
    """A beam search from the empty well in a process of its own, so its peak memory is its own."""
    context = multiprocessing.get_context("spawn")
    with concurrent.futures.ProcessPoolExecutor(1, mp_context=context) as pool:
        return pool.submit(run_beam, Line(GAME.initial_state(), ()), BeamSettings.named(width, lookahead, evaluation),
                           minutes, report_every=30).result()


def check_replay(replay: str) -> tuple[int, str]:
    """The lines ``replay`` ends with on Kibitz's engine, and what the real page says of it."""
    replayed = GAME.replay_keys(codecs.decode(replay))
    try:
        from tests.vision.pages_hatetris import replay_on_real_page
    except ImportError as error:  # the tests are not beside the benchmark
        return replayed.score, f"not checked on the real page ({error})"
    truth = replay_on_real_page(replay)
    if isinstance(truth, str):
        return replayed.score, f"not checked on the real page: {truth}"
    return replayed.score, f"the real page shows {truth['score']} lines, {truth['mode']}"


def keep_replay(folder: Path, lines: int, replay: str) -> Path:
    path = folder / f"beam-{lines}.txt"
    folder.mkdir(parents=True, exist_ok=True)
    write_text_atomic(path, replay + "\n")
    return path


WEIGHT_NAMES = {"df": "D&F's published weights", "df-tim": "D&F's weights with Tim's three terms (df-tim)",
                "kibitz": "Kibitz's weights", "learned": "the learned evaluation"}
#: The anchors of spec 3.5 and 1: lines reached and how.
BEAM_ANCHORS = (("David & Felipe's beam: hand heuristic and the same lookahead (2022, spec 3.5)", "100,000", "62"),
                ("the 2010-2017 record (chromeyhex, by hand)", "", "31"))


def beams_markdown(runs, best, kept: Path | None, args, load_before, page: str) -> str:
    """The beam searches' table for the README: each run's evaluation, width, lines (the best
    linked to its kept replay), pieces, minutes, wells scored a second and peak memory."""
    header = ("beam from the empty well", "width", "lines", "pieces", "minutes", "child wells/s", "peak memory")
    rows = []
    for weights, lookahead, width, result in runs:
        lines = f"{result.score}"
        if result is best and kept is not None:
            lines = f"**{result.score} lines** ([replay](docs/hatetris/{kept.name}))"
        rows.append((f"{WEIGHT_NAMES.get(weights, weights)}, lookahead {lookahead}", f"{width:,}", lines,
                     f"{result.pieces}", f"{result.seconds / 60:.1f}" + ("" if result.finished else " (cap)"),
                     f"{result.children_per_second:,.0f}", f"{result.peak_mb / 1024:.2f} GB"))
    for label, width, lines in BEAM_ANCHORS:
        rows.append((label, width, lines, "", "", "", ""))
    load_after = os.getloadavg()
    facts = (f"{machine()}, all cores, each beam in a process of its own, cap {args.minutes:g} min; load average "
             f"{load_before[0]:.2f} before, {load_after[0]:.2f} after; {now()}; the best game replayed on Kibitz's "
             f"engine: {best.score} lines; {page}")
    buffer = io.StringIO()
    with contextlib.redirect_stdout(buffer):
        print_facts_and_table(facts, header, rows, True)
    return buffer.getvalue()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--widths", default="1000,10000,100000")
    parser.add_argument("--minutes", type=float, default=30.0, help="time cap per beam search")
    parser.add_argument("--lookahead", default="0", help="lookahead levels, one or a comma-separated list")
    parser.add_argument("--weights", default="kibitz,df",
                        help="evaluations to run, of: kibitz, df (the hand heuristic's weight sets), learned")
    parser.add_argument("--replays", type=Path, help="keep the best game's replay here as beam-<lines>.txt, once "
                                                      "it is checked (e.g. docs/hatetris)")
    parser.add_argument("--beams-markdown", type=Path, help="write the beam searches' table here as Markdown, with "
                                                            "its facts line, for benchmarks/readme_tables.py "
                                                            "hatetris-beams")
    parser.add_argument("--skip-children", action="store_true")
    parser.add_argument("--children-only", action="store_true", help="no beam searches")
    parser.add_argument("--anchor", type=Path, help="a checkout of thecog19/HATETRIS-public-beamsearch")
    parser.add_argument("--core", type=int, default=max(os.sched_getaffinity(0)), help="the core both run on")
    parser.add_argument("--rounds", type=int, default=15, help="interleaved rounds (anchor batch, Kibitz batch)")
    parser.add_argument("--passes", type=int, default=20, help="passes over all wells per batch")
    parser.add_argument("--build-dir", type=Path, help="build the anchor's harness here (kept) instead of a "
                                                       "temporary folder")
    parser.add_argument("--rustc", default="rustc")
    parser.add_argument("--markdown", action="store_true",
                        help="print only the children table, as Markdown, on standard output (for "
                             "benchmarks/readme_tables.py); no beam searches")
    args = parser.parse_args()
    unknown = [name for name in args.weights.split(",") if name not in EVALUATION_NAMES]
    if unknown:
        parser.error(f"--weights: {unknown[0]!r} is none of {', '.join(EVALUATION_NAMES)}")
    if not args.skip_children:
        print("Children of a well (AI choice over 7 pieces + the chosen piece's distinct child wells), one core",
              file=sys.stderr if args.markdown else sys.stdout)
        compare_children(args.anchor, args.core, args.rounds, args.passes, args.markdown, args.build_dir, args.rustc)
    if args.children_only or args.markdown:
        return 0
    print(f"machine: {machine()}")
    print(f"\nBeam search from the empty well, cap {args.minutes:g} min")
    print(f"{'weights':>8} {'ahead':>5} {'width':>8} {'lines':>6} {'pieces':>7} {'minutes':>8} {'wells/s':>10} "
          f"{'peak MB':>8} {'ended':>10}  anchor")
    load_before = os.getloadavg()
    runs = []
    for weights in args.weights.split(","):
        for lookahead in (int(levels) for levels in args.lookahead.split(",")):
            for width in (int(w) for w in args.widths.split(",")):
                result = beam_run(width, args.minutes, lookahead, weights)
                runs.append((weights, lookahead, width, result))
                ended = "beam died" if result.finished else "time cap"
                print(f"{weights:>8} {lookahead:>5} {width:>8,} {result.score:>6} {result.pieces:>7} "
                      f"{result.seconds / 60:>8.1f} {result.children_per_second:>10,.0f} {result.peak_mb:>8,.0f} {ended:>10}  "
                      f"31 lines (2010-2017 record) within 30 min", flush=True)
    if not runs:
        return 0
    best = max((result for *_, result in runs), key=lambda result: result.score)
    print(f"\nbest game: {best.score} lines, {best.pieces} pieces; Base2048 replay:\n{best.replay}")
    engine_lines, page = check_replay(best.replay)
    print(f"replayed: Kibitz's engine ends it with {engine_lines} lines; {page}")
    kept = None
    if args.replays is not None and not best.finished:
        print("not kept: the time cap stopped that beam with its game still going (a kept replay is a whole game)",
              file=sys.stderr)
    elif args.replays is not None:
        if engine_lines != best.score:
            print(f"not kept: the replay ends with {engine_lines} lines, not the {best.score} found", file=sys.stderr)
            return 1
        kept = keep_replay(args.replays, best.score, best.replay)
        print(f"kept in {kept}")
    if args.beams_markdown is not None:
        write_text_atomic(args.beams_markdown, beams_markdown(runs, best, kept, args, load_before, page))
        print(f"the Markdown table is in {args.beams_markdown} (python benchmarks/readme_tables.py TABLE "
              f"{args.beams_markdown}; the README's tables: hatetris-beams for the hand heuristic's weight sets, "
              f"hatetris-evaluations for the hand heuristic beside the learned evaluation)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
