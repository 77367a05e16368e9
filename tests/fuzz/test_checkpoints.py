"""Fuzz targets for the long searches' checkpoints (issue 23): SPL-T's ``worker-N.npz`` and
HATETRIS's ``beam.npz``.

Valid checkpoints come from short real searches written by the searches' own ``save`` (a
ParanoidPlay piggybacking on the start of the greedy game, a weighted-random search, beams from
the empty well and from a few placements in). Each is then damaged two ways: its archive's bytes
mutated, or its arrays' values altered with their shapes and dtypes kept (a value out of range,
huge, swapped with or copied from another, nudged by one; the description's text mutated too),
written back with the checksum dropped, recomputed (so the full checks, not the checksum, must
catch it) or kept. Each case is resumed the way the app resumes: loaded, then run for a few games
or a layer, in this process, so a value that reached a kernel unchecked would crash the run.

A case passes when the load refuses with a KibitzInputError or the search loads and runs; an
accepted search must then save and load back to the same arrays and description.
"""

from __future__ import annotations

import dataclasses
import functools
import io
import json
import math
import tempfile
from pathlib import Path

import numpy as np
from hypothesis import given
from hypothesis import strategies as st

from advisors.hatetris.beam import CHECKPOINT_ARRAYS, BeamSearch, BeamSettings
from advisors.splt.search import Search, Settings
from engines import limits
from engines.contract import Line
from engines.hatetris import GAME as HATETRIS
from tests.fuzz.mutations import check, fuzz_settings, mutated_bytes, mutated_text

SPLT_BYTES = "checkpoints: SPL-T worker-N.npz, mutated bytes -> load -> run"
SPLT_VALUES = "checkpoints: SPL-T worker-N.npz, altered array values -> load -> run"
BEAM_BYTES = "checkpoints: HATETRIS beam.npz, mutated bytes -> load -> run"
BEAM_VALUES = "checkpoints: HATETRIS beam.npz, altered array values -> load -> run"

#: Where the cases' files go: one folder for the whole run (each case overwrites its file).
WORK = Path(tempfile.mkdtemp(prefix="kibitz-fuzz-checkpoints-"))


# -- valid checkpoints, from real searches --------------------------------------------------------------
def _saved(search, name: str) -> bytes:
    path = WORK / name
    search.save(path)
    return path.read_bytes()


@functools.cache
def splt_checkpoints() -> tuple[bytes, ...]:
    greedy = Search.start_from(Settings.for_player("greedy"))
    greedy.run(games=1)
    opening = greedy.best_line()
    piggyback = Search.start_from(Settings(stale_games=8), Line(opening.start, opening.moves[:40]), from_move=30,
                                  seed=5)
    piggyback.run(games=25)
    weighted = Search.start_from(Settings.for_player("weighted"), seed=3)
    weighted.run(games=3)
    fresh = Search.start_from(Settings(), seed=9)
    return _saved(piggyback, "piggyback.npz"), _saved(weighted, "weighted.npz"), _saved(fresh, "fresh.npz")


@functools.cache
def beam_checkpoints() -> tuple[bytes, ...]:
    empty = Line(HATETRIS.initial_state(), ())
    first = BeamSearch(empty, BeamSettings(width=6))
    first.run(max_depth=10, checkpoint=WORK / "beam-empty.npz")
    later = BeamSearch(Line(empty.start, first.best_line().moves[:4]), BeamSettings(width=5, lookahead=1))
    later.run(max_depth=8, checkpoint=WORK / "beam-later.npz")
    return (WORK / "beam-empty.npz").read_bytes(), (WORK / "beam-later.npz").read_bytes()


def _unpacked(data: bytes, description: str) -> tuple[dict[str, np.ndarray], str]:
    with np.load(io.BytesIO(data), allow_pickle=False) as archive:
        arrays = {name: archive[name].copy() for name in archive.files}
    return arrays, arrays.pop(description).tobytes().decode()


# -- altered values ------------------------------------------------------------------------------------
INT_EXTREMES = (-1, 0, 1, 2, 3, 4, 7, 8, 15, 16, 127, 128, 255, 4095, 4096, 2 ** 31 - 1, 2 ** 31, 2 ** 40,
                2 ** 62, 2 ** 63 - 1, -2 ** 63, -2 ** 31)
FLOAT_EXTREMES = (math.nan, math.inf, -math.inf, -1.0, 0.0, 0.01, 1.0, 3.0, 1e9, 1e308, 5e-324, -0.0)


@st.composite
def altered_values(draw: st.DrawFn, arrays: dict[str, np.ndarray], weighted_names: tuple[str, ...]
                   ) -> dict[str, np.ndarray]:
    """Copies of ``arrays`` with 1-3 values altered, shapes and dtypes kept."""
    altered = {name: array.copy() for name, array in arrays.items()}
    for _ in range(draw(st.integers(1, 3))):
        name = draw(st.sampled_from(weighted_names))
        flat = altered[name].reshape(-1)
        if not flat.size:
            continue
        # The live part of long arrays is near their start: aim there half the time.
        index = draw(st.one_of(st.integers(0, min(flat.size, 48) - 1), st.integers(0, flat.size - 1)))
        kind = draw(st.sampled_from(("extreme", "any", "swap", "copy", "nudge")))
        if kind in ("swap", "copy"):
            other = draw(st.integers(0, flat.size - 1))
            if kind == "swap":
                flat[index], flat[other] = flat[other], flat[index]
            else:
                flat[index] = flat[other]
        elif flat.dtype.kind == "f":
            flat[index] = draw(st.sampled_from(FLOAT_EXTREMES)) if kind == "extreme" else (
                flat[index] + draw(st.sampled_from((-1.0, 1.0))) if kind == "nudge" else draw(st.floats()))
        else:
            info = np.iinfo(flat.dtype)
            if kind == "extreme":
                value = draw(st.sampled_from(INT_EXTREMES))
            elif kind == "nudge":
                value = int(flat[index]) + draw(st.sampled_from((-2, -1, 1, 2)))
            else:
                value = draw(st.integers(int(info.min), int(info.max)))
            flat[index] = min(max(value, int(info.min)), int(info.max))
    return altered


def _write(path: Path, arrays: dict[str, np.ndarray], description_name: str, description: str) -> None:
    np.savez(path, **{description_name: np.frombuffer(description.encode("utf-8", "surrogatepass"), np.uint8)},
             **arrays)


@st.composite
def altered_checkpoint(draw: st.DrawFn, checkpoints: tuple[bytes, ...], description_name: str,
                       weighted_names: tuple[str, ...]) -> tuple[dict[str, np.ndarray], str]:
    """A valid checkpoint's arrays with altered values, and its description: the checksum
    dropped, recomputed or kept, and sometimes the description's text mutated."""
    arrays, text = _unpacked(draw(st.sampled_from(checkpoints)), description_name)
    altered = draw(altered_values(arrays, weighted_names))
    description = json.loads(text)
    mode = draw(st.sampled_from(("dropped", "recomputed", "recomputed", "kept")))
    if mode == "dropped":
        description.pop("checksum", None)
    elif mode == "recomputed":
        description["checksum"] = limits.arrays_checksum(altered)
    text = json.dumps(description)
    if draw(st.integers(0, 4)) == 0:
        text = draw(mutated_text(st.just(text)))
    return altered, text


# -- resuming as the app does ------------------------------------------------------------------------
def resume_splt(path: Path) -> Search:
    search = Search.load(path)
    search.run(games=2)
    return search


def resume_beam(path: Path) -> BeamSearch:
    search = BeamSearch.load(path)
    search.run(max_depth=1)
    return search


def assert_splt_round_trip(search: Search) -> None:
    path = WORK / "round-trip.npz"
    search.save(path)
    again = Search.load(path)
    assert (again.settings, again.start, again.from_move, again.snapshot()) == (
        search.settings, search.start, search.from_move, search.snapshot())
    assert sorted(again.arrays) == sorted(search.arrays)
    for name, array in search.arrays.items():
        assert np.array_equal(again.arrays[name], array), name


def assert_beam_round_trip(search: BeamSearch) -> None:
    path = WORK / "round-trip-beam.npz"
    search.save(path)
    again = BeamSearch.load(path)
    assert (again.settings, again.line, again.depth, again.children, again.best_node, again.best_score,
            again.finished, again.root) == (search.settings, search.line, search.depth, search.children,
                                            search.best_node, search.best_score, search.finished, search.root)
    mine, theirs = search._arrays(), again._arrays()
    for name in CHECKPOINT_ARRAYS:
        assert np.array_equal(mine[name], theirs[name]), name


def assert_names_the_file(error: Exception, path: Path) -> None:
    """A refusal names the checkpoint and never suggests unpickling it."""
    assert str(path) in str(error), error
    assert "allow_pickle" not in str(error), error


# -- the targets ---------------------------------------------------------------------------------------
@st.composite
def splt_bytes(draw: st.DrawFn) -> bytes:
    return draw(mutated_bytes(st.sampled_from(splt_checkpoints()), max_mutations=4))


@fuzz_settings()
@given(st.data())
def test_mutated_splt_checkpoint_bytes(data):
    path = WORK / "worker-0.npz"
    path.write_bytes(data.draw(splt_bytes()))
    accepted, search = check(SPLT_BYTES, resume_splt, path)
    if accepted:
        assert_splt_round_trip(search)
    else:
        assert_names_the_file(search, path)


#: Arrays a value is altered in, the small ones every value of which the kernel reads more often.
SPLT_NAMES = ("params", "params", "state", "state", "state", "floats", "rng", "boxes", "boxes", "pending", "line",
              "line", "best_line", "base_boxes", "forced", "stack_boxes", "stack_meta", "stack_meta", "stack_meta",
              "stack_weights", "stack_weights")


@fuzz_settings()
@given(st.data())
def test_altered_splt_checkpoint_values(data):
    arrays, meta = data.draw(altered_checkpoint(splt_checkpoints(), "meta", SPLT_NAMES))
    path = WORK / "worker-1.npz"
    _write(path, arrays, "meta", meta)
    accepted, search = check(SPLT_VALUES, resume_splt, path)
    if accepted:
        assert_splt_round_trip(search)
    else:
        assert_names_the_file(search, path)


@fuzz_settings()
@given(st.data())
def test_mutated_beam_checkpoint_bytes(data):
    path = WORK / "beam.npz"
    path.write_bytes(data.draw(mutated_bytes(st.sampled_from(beam_checkpoints()), max_mutations=4)))
    accepted, search = check(BEAM_BYTES, resume_beam, path)
    if accepted:
        assert_beam_round_trip(search)
    else:
        assert_names_the_file(search, path)


BEAM_NAMES = ("parent", "parent", "hashes", "pieces", "scores", "cells", "moves", "moves", "moves", "layer_wells",
              "layer_wells", "layer_scores", "layer_cells", "layer_nodes", "layer_nodes")


@fuzz_settings()
@given(st.data())
def test_altered_beam_checkpoint_values(data):
    arrays, description = data.draw(altered_checkpoint(beam_checkpoints(), "description", BEAM_NAMES))
    path = WORK / "beam-altered.npz"
    _write(path, arrays, "description", description)
    accepted, search = check(BEAM_VALUES, resume_beam, path)
    if accepted:
        assert_beam_round_trip(search)
    else:
        assert_names_the_file(search, path)


def test_the_valid_checkpoints_resume_and_keep_their_state():
    """The unmutated checkpoints are accepted (so the targets do test the loaders' acceptance)."""
    for index, data in enumerate(splt_checkpoints()):
        path = WORK / f"valid-{index}.npz"
        path.write_bytes(data)
        before = Search.load(path)
        assert dataclasses.asdict(before.snapshot())["games"] in (25, 3, 0)
        assert_splt_round_trip(resume_splt(path))
    for index, data in enumerate(beam_checkpoints()):
        path = WORK / f"valid-beam-{index}.npz"
        path.write_bytes(data)
        assert BeamSearch.load(path).depth in (10, 8)
        assert_beam_round_trip(resume_beam(path))
