"""Fuzz targets for an SPL-T search folder's descriptions (issue 23): ``search.json`` and
``start.txt``.

The valid folder is a real one: ``ParallelSearch.create`` then ``run`` (two worker processes, a
ParanoidPlay piggybacking on the start of the greedy game), written by the search's own writers.
Its search.json is then mutated as text (truncation, huge numbers, Infinity, odd characters,
deep nesting, ...) or field by field (a field deleted or given a value of another type or out of
range), and its start.txt as text. Each case resumes the folder as the app does
(``ParallelSearch.resume``); an accepted one then runs every worker's first game in this process
(``_worker_main``, what each worker process runs) on a copy of the folder, so nothing resume let
through can fail later. Refusals must be KibitzInputErrors naming the file.
"""

from __future__ import annotations

import copy
import functools
import json
import queue
import shutil
import signal
import tempfile
import threading
from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st

from advisors.splt.parallel import SEARCH_FILE, START_FILE, ParallelSearch, _worker_main, read_description
from advisors.splt.search import Search, Settings
from engines.contract import Line
from tests.fuzz.mutations import HUGE_NUMBERS, check, fuzz_settings, mutated_text

SEARCH_JSON_TEXT = "search.json: mutated text -> ParallelSearch.resume -> each worker's first game"
SEARCH_JSON_FIELDS = "search.json: fields deleted or retyped -> ParallelSearch.resume -> each worker's first game"
START_TEXT = "start.txt: mutated text -> ParallelSearch.resume -> each worker's first game"

WORK = Path(tempfile.mkdtemp(prefix="kibitz-fuzz-search-json-"))


@functools.cache
def search_folder() -> Path:
    """A real search folder: two workers that have saved, a best game, a piggyback start line."""
    greedy = Search.start_from(Settings.for_player("greedy"))
    greedy.run(games=1)
    opening = greedy.best_line()
    folder = WORK / "valid"
    search = ParallelSearch.create(folder, Settings(stale_games=8), Line(opening.start, opening.moves[:40]),
                                   from_move=30, workers=2, seed=4, checkpoint_seconds=0.05)
    search.run(games=40)
    assert sorted(read_description(folder)[1]["saved_workers"]) == [0, 1]
    return folder


def case_folder() -> Path:
    """The folder each case mutates: the valid one's files, copied once (resume only reads)."""
    folder = WORK / "case"
    if not folder.exists():
        shutil.copytree(search_folder(), folder)
    return folder


def first_games(search: ParallelSearch) -> None:
    """What each worker process does, in this process, for one game, on a copy of the folder."""
    copy = WORK / "played"
    shutil.rmtree(copy, ignore_errors=True)
    shutil.copytree(search.folder, copy)
    search.folder = copy
    # Every worker with a checkpoint, and two that start afresh (a search.json may rightly ask for
    # many more workers than the folder holds; each fresh one goes the same way).
    saved = [index for index in range(search.description["workers"]) if search._checkpoint(index).exists()]
    fresh = [index for index in range(search.description["workers"]) if index not in saved][:2]
    for index in saved + fresh:
        messages: queue.Queue = queue.Queue()
        previous = signal.getsignal(signal.SIGINT)
        try:
            _worker_main(search._worker_config(index, 1), messages, threading.Event())
        finally:
            signal.signal(signal.SIGINT, previous)
        kinds = []
        while not messages.empty():
            kinds.append(messages.get())
        assert [kind for kind in kinds if kind[0] == "error"] == [], kinds


def resume_and_play(folder: Path) -> ParallelSearch:
    search = ParallelSearch.resume(folder)
    first_games(search)
    return search


def assert_accepted_description_round_trips(folder: Path) -> None:
    """An accepted search.json reads back as the same description once written out again."""
    _, description = read_description(folder)
    copy = WORK / "round-trip"
    copy.mkdir(exist_ok=True)
    (copy / SEARCH_FILE).write_text(json.dumps(description))
    assert read_description(copy)[1] == description


def assert_refusal_names(error: Exception, *names: str) -> None:
    assert any(name in str(error) for name in names), error


# -- search.json as text -----------------------------------------------------------------------------
@fuzz_settings()
@given(st.data())
def test_mutated_search_json_text(data):
    folder = case_folder()
    valid = (search_folder() / SEARCH_FILE).read_text()
    (folder / SEARCH_FILE).write_text(data.draw(mutated_text(st.just(valid))), encoding="utf-8",
                                      errors="surrogatepass")
    accepted, result = check(SEARCH_JSON_TEXT, resume_and_play, folder)
    if accepted:
        assert_accepted_description_round_trips(folder)
    else:
        assert_refusal_names(result, str(folder))


# -- search.json field by field ------------------------------------------------------------------------
ODD_VALUES = (None, "x", "", [], {}, [1], True, False, -1, 0, 1, 2, 1.5, 2 ** 63, 2 ** 64, -(2 ** 63) - 1, 10 ** 30,
              1e300, "Infinity", "best-1.txt", "../search.json", {"splits": 1})


def _paths(value, prefix=()):
    """Every field path of a JSON value (nested objects included)."""
    if isinstance(value, dict):
        for key, inner in value.items():
            yield (*prefix, key)
            yield from _paths(inner, (*prefix, key))


@st.composite
def retyped_description(draw: st.DrawFn) -> str:
    description = json.loads((search_folder() / SEARCH_FILE).read_text())
    for _ in range(draw(st.integers(1, 3))):
        path = draw(st.sampled_from(sorted(_paths(description))))
        holder = description
        for key in path[:-1]:
            holder = holder[key]
        if not isinstance(holder, dict) or path[-1] not in holder:
            continue
        if draw(st.integers(0, 4)) == 0:
            del holder[path[-1]]
        else:
            odd = draw(st.one_of(st.sampled_from(ODD_VALUES), st.integers(), st.text(max_size=8)))
            holder[path[-1]] = copy.deepcopy(odd)  # never the shared constant itself
    if draw(st.integers(0, 6)) == 0:
        description["extra"] = copy.deepcopy(draw(st.sampled_from(ODD_VALUES)))
    text = json.dumps(description)
    # Python's json writes Infinity and NaN: the reader must refuse them.
    if draw(st.integers(0, 5)) == 0:
        field = draw(st.sampled_from(('"seed": ', '"from_move": ', '"workers": ', '"start_moves": ')))
        if field in text:
            head, tail = text.split(field, 1)
            text = head + field + draw(st.sampled_from(HUGE_NUMBERS + ("Infinity", "NaN", "-Infinity"))) + \
                tail[len(tail) - len(tail.lstrip("-0123456789")):]
    return text


@fuzz_settings()
@given(retyped_description())
def test_retyped_search_json_fields(text):
    folder = case_folder()
    (folder / SEARCH_FILE).write_text(text)
    accepted, result = check(SEARCH_JSON_FIELDS, resume_and_play, folder)
    if accepted:
        assert_accepted_description_round_trips(folder)
    else:
        assert_refusal_names(result, str(folder))


# -- start.txt -----------------------------------------------------------------------------------------
@fuzz_settings()
@given(st.data())
def test_mutated_start_text(data):
    folder = case_folder()
    (folder / SEARCH_FILE).write_text((search_folder() / SEARCH_FILE).read_text())
    valid = (search_folder() / START_FILE).read_text()
    (folder / START_FILE).write_text(data.draw(mutated_text(st.just(valid))), encoding="utf-8", errors="surrogatepass")
    try:
        accepted, result = check(START_TEXT, resume_and_play, folder)
    finally:
        (folder / START_FILE).write_text(valid)
    if not accepted:
        assert_refusal_names(result, str(folder))


def test_the_valid_folder_resumes_and_plays():
    """The unmutated folder is accepted (so the targets do test the reader's acceptance)."""
    search = resume_and_play(search_folder())
    assert search.description["best"]["splits"] >= 40
