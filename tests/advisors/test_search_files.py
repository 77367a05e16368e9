"""The long searches' files and the sizes of every search (issue 23): one minimal damaged input
per case the issue lists, each refused with a message naming the file and why; checkpoints
written early and as often as asked; searches too big for memory or time refused up front."""

from __future__ import annotations

import io
import json
import zipfile
from pathlib import Path

import numpy as np
import pytest

from advisors.destructo import ranking, selfplay
from advisors.hatetris.beam import BeamSearch, BeamSettings
from advisors.splt import kernel
from advisors.splt.parallel import SEARCH_FILE, START_FILE, ParallelSearch
from advisors.splt.search import Search, Settings
from engines import limits
from engines.contract import Line
from engines.destructo import GAME as DESTRUCTO
from engines.errors import KibitzInputError, NotationError
from engines.hatetris import GAME as HATETRIS
from engines.splt import notation


# -- SPL-T worker checkpoints ------------------------------------------------------------------------
@pytest.fixture(scope="module")
def paranoid_checkpoint(tmp_path_factory) -> Path:
    """A ParanoidPlay search 200 games in, with branch points on its stack."""
    search = Search.start_from(Settings(), seed=7)
    search.run(games=200)
    assert search.arrays["state"][kernel.S_TOP] > 0
    path = tmp_path_factory.mktemp("splt") / "worker-0.npz"
    search.save(path)
    return path


def rewrite(source: Path, target: Path, description: str, change, checksum: bool = False) -> Path:
    """``source``'s arrays changed by ``change(arrays, description)``, written to ``target``
    without its checksum (as older Kibitz wrote them) unless ``checksum``."""
    with np.load(source) as archive:
        arrays = {name: archive[name].copy() for name in archive.files}
    meta = json.loads(arrays.pop(description).tobytes())
    change(arrays, meta)
    meta.pop("checksum", None)
    if checksum:
        meta["checksum"] = limits.arrays_checksum(arrays)
    np.savez(target, **{description: np.frombuffer(json.dumps(meta).encode(), np.uint8)}, **arrays)
    return target


def test_a_checkpoint_without_checksum_still_loads_and_resumes_exactly(paranoid_checkpoint, tmp_path):
    old = rewrite(paranoid_checkpoint, tmp_path / "old.npz", "meta", lambda arrays, meta: None)
    assert "checksum" not in json.loads(np.load(old)["meta"].tobytes())
    resumed, saved = Search.load(old), Search.load(paranoid_checkpoint)
    assert resumed.snapshot() == saved.snapshot()
    assert resumed.run(games=20) == saved.run(games=20)


def test_altered_arrays_are_refused_by_their_checksum(paranoid_checkpoint, tmp_path):
    path = tmp_path / "worker-0.npz"
    with np.load(paranoid_checkpoint) as archive:
        arrays = {name: archive[name].copy() for name in archive.files}
    arrays["state"][kernel.S_GAMES] += 1
    np.savez(path, **arrays)  # the description, checksum included, as saved
    with pytest.raises(KibitzInputError, match=r"worker-0\.npz: damaged: its arrays do not match the checksum"):
        Search.load(path)


@pytest.mark.parametrize("change, reason", [
    # The IndexError "index 9223372036854775807": a branch point's split count.
    (lambda a: a["stack_meta"].__setitem__((0, 1), 2 ** 63 - 1),
     "branch point 0 is at split 9223372036854775807, not between"),
    (lambda a: a["state"].__setitem__(kernel.S_COUNT, 200), "the current board is not the position its moves lead to"),
    (lambda a: a["boxes"].__setitem__((0, 2), 3), "the current board is not the position its moves lead to"),
    (lambda a: a["stack_boxes"].__setitem__((0, 0, 3), 0), "branch point 0 is not the position its moves lead to"),
    (lambda a: a["state"].__setitem__(kernel.S_TOP, 10 ** 6), "the branch stack's height is 1000000, outside 0.."),
    (lambda a: a["params"].__setitem__(kernel.K_TRIGGER, 7), "parameter 4 is 7, but the settings and start make it 2"),
    (lambda a: a["params"].__setitem__(kernel.K_BASE_COUNT, -1), "the base position is not the one the fixed moves"),
    (lambda a: a["stack_weights"].__setitem__((0, 0), np.nan), "'stack_weights' holds a value that is not finite"),
    (lambda a: a["rng"].__setitem__(0, 0), "'rng' holds 0, below 1"),
    (lambda a: a["line"].__setitem__(5, 100), "the current game: move 6 \\(box 100\\) cannot be played"),
    (lambda a: a["state"].__setitem__(kernel.S_GAMES, -1), "the games played is -1, outside 0.."),
    (lambda a: a["best_line"].__setitem__(0, 3), "the best game: move 1 \\(box 3\\) cannot be played"),
])
def test_altered_values_are_refused_naming_the_file_and_what(paranoid_checkpoint, tmp_path, change, reason):
    # Shapes and dtypes right, values wrong, checksum recomputed: the full checks must catch it.
    path = rewrite(paranoid_checkpoint, tmp_path / "worker-3.npz", "meta", lambda arrays, meta: change(arrays),
                   checksum=True)
    with pytest.raises(KibitzInputError, match=r"worker-3\.npz: .*" + reason):
        Search.load(path)


def test_pending_weights_on_a_box_that_cannot_split_are_refused(paranoid_checkpoint, tmp_path):
    saved = Search.load(paranoid_checkpoint)
    state = saved.arrays["state"]
    boxes = saved.arrays["boxes"][: state[kernel.S_COUNT]]
    orientation_h = state[kernel.S_SPLITS] % 2 == 0
    # the first box that cannot split now (a point block, or too thin across the split line)
    stuck = next(i for i, (x, y, w, h, points) in enumerate(boxes)
                 if points or (h < 2 if orientation_h else w < 2))

    def change(arrays, meta):
        arrays["state"][kernel.S_PENDING] = 1
        arrays["pending"][:] = 0
        arrays["pending"][stuck] = 5.0

    path = rewrite(paranoid_checkpoint, tmp_path / "worker-2.npz", "meta", change)
    with pytest.raises(KibitzInputError, match=r"worker-2\.npz: .*the pending branch's weights do not fit its board"):
        Search.load(path)


def test_a_checkpoint_of_other_settings_is_refused(paranoid_checkpoint, tmp_path):
    path = rewrite(paranoid_checkpoint, tmp_path / "worker-0.npz", "meta",
                   lambda arrays, meta: meta["settings"].__setitem__("close_call_every", 3))
    with pytest.raises(KibitzInputError, match=r"parameter 3 is 2, but the settings and start make it 3"):
        Search.load(path)


# -- SPL-T search folders ------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def search_folder(tmp_path_factory) -> Path:
    """A real folder: a greedy search from the first 10 moves of the greedy game, run to its end."""
    greedy = Search.start_from(Settings.for_player("greedy"))
    greedy.run(games=1)
    opening = greedy.best_line()
    folder = tmp_path_factory.mktemp("search") / "greedy"
    search = ParallelSearch.create(folder, Settings.for_player("greedy"), Line(opening.start, opening.moves[:10]),
                                   from_move=4, seed=3)
    result = search.run()
    assert result.best_splits == 534 and result.exhausted  # the greedy game (spec 3.6)
    return folder


def copy_of(folder: Path, target: Path) -> Path:
    import shutil

    shutil.copytree(folder, target)
    return target


def edit_description(folder: Path, text_change) -> None:
    path = folder / SEARCH_FILE
    path.write_text(text_change(path.read_text()))


def test_the_folder_resumes(search_folder):
    search = ParallelSearch.resume(search_folder)
    assert search.description["best"]["splits"] == 534
    assert search.description["saved_workers"] == [0]


@pytest.mark.parametrize("change, reason", [
    (lambda text: text.replace('"seed": 3', '"seed": Infinity'), r"not valid JSON \(Infinity is not a number JSON"),
    (lambda text: text.replace('"from_move": 4', '"from_move": Infinity'), r"Infinity is not a number JSON allows"),
    (lambda text: text.replace('"from_move": 4', '"from_move": 1e999'), r"1e999 is too large a number"),
    (lambda text: text.replace('"best": {', '"best": "x", "old": {'), r"the field 'best' is str, not an object or null"),
    (lambda text: text.replace('"seed": 3', '"seed": "3"'), r"the field 'seed' is '3', not a whole number"),
    (lambda text: text.replace('"seed": 3', '"seed": 99999999999999999999999'), r"seed is 99999999999999999999999"),
    (lambda text: text.replace('"seed": 3,', ''), r"the field 'seed' is missing"),
    (lambda text: text.replace('"from_move": 4', '"from_move": 11'), r"from_move is 11; it must be from 0 to 10"),
    (lambda text: text.replace('"workers": 1', '"workers": 0'), r"workers is 0; it must be from 1 to 256"),
    (lambda text: text.replace('"player": "greedy"', '"player": []'), r"the field 'player' is \[\], not a text"),
    (lambda text: text.replace('"stale_games": 0', '"stale_games": -5'), r"stale_games is -5; it must be from 0"),
    (lambda text: text.replace('"trigger": "off"', '"trigger": "always"'), r"unknown trigger 'always'"),
    (lambda text: text.replace('"best-534.txt"', '"../../best-534.txt"'), r"the best game's file is '../../best"),
    (lambda text: "[" * 100 + text, r"JSON nested deeper than 64 levels"),
    (lambda text: text[: len(text) // 2], r"not valid JSON"),
])
def test_a_damaged_search_json_is_refused_naming_it_and_the_field(search_folder, tmp_path, change, reason):
    folder = copy_of(search_folder, tmp_path / "s")
    edit_description(folder, change)
    with pytest.raises(KibitzInputError, match=r"search\.json.*" + reason):
        ParallelSearch.resume(folder)


def test_a_truncated_start_file_is_refused(search_folder, tmp_path):
    folder = copy_of(search_folder, tmp_path / "s")
    start = folder / START_FILE
    text = start.read_text()
    start.write_text(text.rstrip().rsplit(" ", 1)[0] + "\n")  # its last move cut
    with pytest.raises(KibitzInputError, match=r"start\.txt: holds 9 moves but search\.json says the search "
                                               r"started from 10; the file was cut or changed"):
        ParallelSearch.resume(folder)


def test_a_missing_start_file_is_refused(search_folder, tmp_path):
    folder = copy_of(search_folder, tmp_path / "s")
    (folder / START_FILE).unlink()
    with pytest.raises(KibitzInputError, match=r"start\.txt is missing"):
        ParallelSearch.resume(folder)


def test_a_missing_worker_file_that_was_saved_is_refused(search_folder, tmp_path):
    folder = copy_of(search_folder, tmp_path / "s")
    (folder / "worker-0.npz").unlink()
    with pytest.raises(KibitzInputError, match=r"worker-0\.npz: is missing, though search\.json records that "
                                               r"worker 0 saved"):
        ParallelSearch.resume(folder)


def test_a_truncated_worker_file_is_refused_before_any_worker_starts(search_folder, tmp_path):
    folder = copy_of(search_folder, tmp_path / "s")
    worker = folder / "worker-0.npz"
    worker.write_bytes(worker.read_bytes()[:5000])
    with pytest.raises(KibitzInputError, match=r"worker-0\.npz: damaged archive"):
        ParallelSearch.resume(folder)


def test_a_worker_file_of_another_search_is_refused(search_folder, tmp_path):
    folder = copy_of(search_folder, tmp_path / "s")
    Search.start_from(Settings.for_player("greedy")).save(folder / "worker-0.npz")
    with pytest.raises(KibitzInputError, match=r"worker-0\.npz: is the checkpoint of another search"):
        ParallelSearch.resume(folder)


def test_a_best_game_file_that_does_not_hold_the_best_is_refused(search_folder, tmp_path):
    folder = copy_of(search_folder, tmp_path / "s")
    (folder / "best-534.txt").write_text((folder / START_FILE).read_text())
    with pytest.raises(KibitzInputError, match=r"best-534\.txt: does not hold the best game search\.json names"):
        ParallelSearch.resume(folder)


def test_a_worker_that_never_saved_starts_afresh(tmp_path):
    folder = tmp_path / "s"
    ParallelSearch.create(folder, Settings(), workers=2, seed=1)
    assert json.loads((folder / SEARCH_FILE).read_text())["saved_workers"] == []
    search = ParallelSearch.resume(folder)  # killed before any worker saved: nothing was kept
    result = search.run(games=4)
    assert result.games == 4
    assert sorted(json.loads((folder / SEARCH_FILE).read_text())["saved_workers"]) == [0, 1]


def test_an_older_folder_missing_one_of_its_workers_checkpoints_is_refused(tmp_path):
    """Folders from before search.json listed the workers that saved: with worker-0.npz there and
    worker-1.npz gone, the loss cannot be told from a worker that never saved."""
    folder = tmp_path / "s"
    ParallelSearch.create(folder, Settings(), workers=2, seed=1).run(games=4)
    description = json.loads((folder / SEARCH_FILE).read_text())
    del description["saved_workers"]
    (folder / SEARCH_FILE).write_text(json.dumps(description))
    assert ParallelSearch.resume(folder).description["saved_workers"] == [0, 1]  # both there: both resumed
    (folder / "worker-1.npz").unlink()
    with pytest.raises(KibitzInputError, match=r"search\.json: worker-1\.npz is missing while the other workers' "
                                               r"checkpoints are there.*add \"saved_workers\": \[0\] to search\.json"):
        ParallelSearch.resume(folder)
    assert (folder / "worker-0.npz").is_file()  # nothing was touched


def test_settings_out_of_bounds_are_refused_with_the_field():
    with pytest.raises(NotationError, match="opening_moves is -1; it must be from 0 to"):
        Settings(opening_moves=-1)
    with pytest.raises(NotationError, match="close_call_low must be a finite number, not nan"):
        Settings(close_call_low=float("nan"))
    with pytest.raises(NotationError, match="seed is -5; it must be from 0"):
        Search.start_from(Settings(), seed=-5)


# -- HATETRIS beam.npz -------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def beam_checkpoint(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("beam") / "beam.npz"
    BeamSearch(Line(HATETRIS.initial_state(), ()), BeamSettings(width=5)).run(max_depth=6, checkpoint=path)
    return path


def _bad_crc(data: bytes) -> bytes:
    """The archive with one byte of a member's compressed data changed (its CRC no longer fits)."""
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        info = archive.getinfo("parent.npy")
    at = info.header_offset + 30 + len(info.filename) + len(info.extra) + 200
    return data[:at] + bytes([data[at] ^ 0xFF]) + data[at + 1:]


@pytest.mark.parametrize("damage, reason", [
    (lambda data: data[: len(data) // 2], r"damaged archive"),
    (lambda data: data[:-30], r"damaged archive"),
    (_bad_crc, r"damaged archive \(BadZipFile: Bad CRC-32"),
    (lambda data: bytes(range(256)) * 8, r"not an \.npz archive"),
    (lambda data: b"", r"not an \.npz archive"),
])
def test_a_damaged_beam_checkpoint_is_refused_naming_it(beam_checkpoint, tmp_path, damage, reason):
    path = tmp_path / "beam.npz"
    path.write_bytes(damage(beam_checkpoint.read_bytes()))
    with pytest.raises(KibitzInputError, match=r"beam\.npz: " + reason) as caught:
        BeamSearch.load(path)
    assert "pickle" not in str(caught.value)


def test_a_beam_checkpoint_holding_python_objects_is_never_unpickled(beam_checkpoint, tmp_path):
    with np.load(beam_checkpoint) as archive:
        arrays = {name: archive[name] for name in archive.files}
    arrays["parent"] = np.array([{"a": 1}], dtype=object)
    path = tmp_path / "beam.npz"
    np.savez(path, **arrays)
    with pytest.raises(KibitzInputError, match=r"beam\.npz: holds Python objects, which are never loaded") as caught:
        BeamSearch.load(path)
    assert "allow_pickle" not in str(caught.value)


@pytest.mark.parametrize("change, reason", [
    (lambda a, d: a["moves"].__setitem__((3, 1), 40), r"node 3's placement cannot be played in its parent's well"),
    (lambda a, d: a["moves"].__setitem__((2, 0), 9), r"node 2's placement cannot be played in its parent's well"),
    (lambda a, d: a["parent"].__setitem__(8, 2 ** 63 - 1), r"a node of layer 2 has a parent outside the layer before"),
    (lambda a, d: a["hashes"].__setitem__(1, 12345), r"layer 1's hashes, scores or cell counts are not what"),
    (lambda a, d: a["layer_wells"].__setitem__((0, 19), 1 << 40), r"'layer_wells' is not the last layer of its nodes"),
    (lambda a, d: d.__setitem__("depth", 2 ** 62), r"its depth is 4611686018427387904 but it holds 6 layers"),
    (lambda a, d: d.__setitem__("best_node", -7), r"its best node -7 with score 0 is not a node holding"),
    (lambda a, d: d["settings"].__setitem__("width", 2), r"layer 1 keeps 5 wells, more than the width 2"),
    (lambda a, d: d.__setitem__("line", "S@9,9,9"), r"move 1 token 'S@9,9,9': the orientation o is 9"),
])
def test_altered_beam_values_are_refused_naming_the_file_and_what(beam_checkpoint, tmp_path, change, reason):
    path = rewrite(beam_checkpoint, tmp_path / "beam.npz", "description", change, checksum=True)
    with pytest.raises(KibitzInputError, match=r"beam\.npz[:,] .*" + reason):
        BeamSearch.load(path)


def test_a_beam_checkpoint_without_checksum_still_loads(beam_checkpoint, tmp_path):
    old = rewrite(beam_checkpoint, tmp_path / "beam.npz", "description", lambda arrays, description: None)
    loaded, saved = BeamSearch.load(old), BeamSearch.load(beam_checkpoint)
    assert (loaded.depth, loaded.best_score, len(loaded.parent)) == (saved.depth, saved.best_score, len(saved.parent))
    assert loaded.run(max_depth=2).line == saved.run(max_depth=2).line


def test_the_beam_saves_at_once_and_as_often_as_asked(tmp_path):
    path = tmp_path / "beam.npz"
    search = BeamSearch(Line(HATETRIS.initial_state(), ()), BeamSettings(width=4))
    search.run(checkpoint=path, should_stop=lambda: True)  # stopped (or killed) before the first layer
    assert BeamSearch.load(path).depth == 0
    saved_depths = []
    search.run(max_depth=3, checkpoint=path, checkpoint_seconds=1e-9,
               progress=lambda progress: saved_depths.append((progress.depth, BeamSearch.load(path).depth)))
    assert saved_depths == [(1, 1), (2, 2), (3, 3)]
    with pytest.raises(NotationError, match="the checkpoint interval is 0; it must be a number of seconds above 0"):
        search.run(checkpoint=path, checkpoint_seconds=0)


# -- sizes bounded up front -------------------------------------------------------------------------------
def test_a_beam_too_wide_for_memory_is_refused_before_allocating(monkeypatch):
    monkeypatch.setattr(limits, "machine_memory_bytes", lambda: 2 * 1024 ** 3)  # a small machine: 4 GB at least
    with pytest.raises(KibitzInputError, match=r"a beam of width 100,000,000,000 would take about [\d,.]+ [GT]?B, "
                                               r"over the limit of 4\.0 GB; lower the width"):
        BeamSearch(Line(HATETRIS.initial_state(), ()), BeamSettings(width=100_000_000_000))


def test_a_beam_may_hold_three_quarters_of_a_large_machines_memory(monkeypatch):
    # 600,000 wide: about 4.7 GB for its first layer (40 children a well, 200 bytes each, and the
    # layer's wells): over the 4.0 GB any request may take, within 3/4 of a 16 GB machine
    settings = BeamSettings(width=600_000)
    monkeypatch.setattr(limits, "machine_memory_bytes", lambda: 4 * 1024 ** 3)  # 3/4 is 3.0 GB: 4.0 GB then
    with pytest.raises(KibitzInputError, match=r"a beam of width 600,000 would take about 4\.7 GB, over the limit of "
                                               r"4\.0 GB; lower the width"):
        BeamSearch(Line(HATETRIS.initial_state(), ()), settings)
    monkeypatch.setattr(limits, "machine_memory_bytes", lambda: 16 * 1024 ** 3)
    assert limits.search_memory_limit() == 12 * 1024 ** 3
    assert BeamSearch(Line(HATETRIS.initial_state(), ()), settings).depth == 0  # nothing allocated yet
    monkeypatch.setattr(limits, "machine_memory_bytes", lambda: None)  # unknown: 4.0 GB
    with pytest.raises(KibitzInputError, match=r"over the limit of 4\.0 GB"):
        BeamSearch(Line(HATETRIS.initial_state(), ()), settings)


def test_a_destructo_beam_too_wide_for_memory_is_refused_before_allocating():
    state = DESTRUCTO.parse_board("a g g/g a a")
    with pytest.raises(KibitzInputError, match=r"a beam search of width 10,000,000 on this 2x3 board would take about "
                                               r"[\d.]+ GB, over the limit of 4\.0 GB; lower the width"):
        ranking.rank(state, width=10_000_000)


def test_irpans_search_too_deep_is_refused_with_the_deepest_allowed():
    with pytest.raises(KibitzInputError, match=r"depth 99 expanding 6 boards .* over the limit of 1,000,000; at "
                                               r"expand 6 the depth is at most 8"):
        selfplay.irpan_player(depth=99, expand=6)
    # 1 + 6 + ... + 6^7 = 335,923 boards: allowed; 6^8 more is not
    selfplay.irpan_player(depth=8, expand=6)
    with pytest.raises(KibitzInputError):
        selfplay.irpan_player(depth=9, expand=6)


def test_start_text_is_the_searchs_line(search_folder):
    line = notation.parse_sequence((search_folder / START_FILE).read_text())
    assert len(line.moves) == 10


def test_a_game_said_to_follow_the_line_after_leaving_it_is_refused(tmp_path):
    # A piggyback search whose current game has left the line it followed at first.
    greedy = Search.start_from(Settings.for_player("greedy"))
    greedy.run(games=1)
    opening = greedy.best_line()
    search = Search.start_from(Settings(), Line(opening.start, opening.moves[:40]), from_move=30, seed=5)
    search.run(games=25)
    state = search.arrays["state"]
    assert state[kernel.S_FOLLOWING] == 0 and state[kernel.S_SPLITS] > 40  # past the line's 40 moves
    search.save(tmp_path / "piggyback.npz")
    path = rewrite(tmp_path / "piggyback.npz", tmp_path / "worker-0.npz", "meta",
                   lambda arrays, meta: arrays["state"].__setitem__(kernel.S_FOLLOWING, 1))
    with pytest.raises(KibitzInputError, match=r"worker-0\.npz: .*said to follow the line but has left it"):
        Search.load(path)


def test_a_2048_depth_past_the_adaptive_ones_is_refused_with_the_bound():
    from advisors.g2048.search import Budget

    # nneonneo's adaptive depth is max(3, distinct tiles - 2): 14 at most on a 16-cell board.
    Budget(depth=14)
    with pytest.raises(NotationError, match=r"the depth \(player moves\) is 30; it must be from 1 to 14"):
        Budget(depth=30)


def test_a_beam_stops_saved_with_its_reason_before_its_history_passes_the_memory_limit(tmp_path, monkeypatch):
    from advisors.hatetris import beam

    path = tmp_path / "beam.npz"
    search = BeamSearch(Line(HATETRIS.initial_state(), ()), BeamSettings(width=60))
    # The history's columns hold 1,024 nodes at first, then double: the limit falls in between.
    allowed = search.memory_bytes() + 1000
    monkeypatch.setattr(limits, "search_memory_limit", lambda: allowed)
    result = search.run(checkpoint=path)
    assert result.stopped and not result.finished
    assert result.reason.startswith(f"stopped at depth {result.depth:,}: a beam of width 60 with ")
    assert 1024 <= len(search.parent) < 1024 + 60
    assert "over the limit of" in result.reason
    assert BeamSearch.load(path).depth == result.depth  # saved where it stopped
    assert beam.layer_bytes(60, 20) < allowed


def test_a_node_placing_a_piece_the_ai_does_not_send_is_refused(beam_checkpoint, tmp_path):
    from engines.hatetris import kernel as rules_kernel
    from engines.hatetris.pieces import PIECES
    from engines.hatetris.state import Placement

    # A node of the last layer given another piece at one of its resting places, every stored
    # figure (hash, score, cells, the layer's well) made to agree: only the AI's choice is wrong.
    saved = BeamSearch.load(beam_checkpoint)
    node = int(saved.layer_nodes[0])
    parent = int(saved.parent.view()[node])
    path, walk = [], parent
    while walk != saved.root:
        path.append(Placement(PIECES[int(saved.moves.view()[walk][0])], *(int(v) for v in saved.moves.view()[walk][1:])))
        walk = int(saved.parent.view()[walk])
    parent_well = np.array(HATETRIS.replay(saved.line.start, tuple(reversed(path))).well, dtype=np.int64)
    other = (int(saved.moves.view()[node][0]) + 1) % 7
    positions = np.empty((512, 3), dtype=np.int64)
    found = rules_kernel.resting_positions(parent_well, 10, 20, other, positions)
    after = np.empty(20, dtype=np.int64)
    x, y, o = (int(v) for v in positions[0])
    lines = rules_kernel.lock(parent_well, 10, 20, other, x, y, o, after)
    assert found and lines >= 0

    def change(arrays, description):
        arrays["moves"][node] = (other, x, y, o)
        arrays["hashes"][node] = rules_kernel.well_hash(after, 20)
        arrays["scores"][node] = arrays["scores"][parent] + lines
        arrays["cells"][node] = sum(bin(int(row)).count("1") for row in after)
        arrays["layer_wells"][0] = after
        arrays["layer_scores"][0] = arrays["scores"][node]
        arrays["layer_cells"][0] = arrays["cells"][node]

    altered = rewrite(beam_checkpoint, tmp_path / "beam.npz", "description", change, checksum=True)
    with pytest.raises(KibitzInputError, match=rf"beam\.npz: damaged search: node {node} places a piece the AI does "
                                               r"not send in its parent's well"):
        BeamSearch.load(altered)
