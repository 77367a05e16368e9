"""The session file: every analysis survives a restart; a damaged file is reported and set aside,
never lost. Positions come from the 1196 record (end score 878,866, the real end screen)."""

from __future__ import annotations

import json
import os

import pytest

from advisors.review import MoveReview
from app.gui.session import Analysis, Session, SessionStore, session_to_dict
from engines.splt import GAME, Move, State
from engines.tree import MoveTree


@pytest.fixture(scope="module")
def record(splt_data):
    return GAME.parse_sequence((splt_data / "1196seq.txt").read_text(), source="1196seq.txt")


def two_analyses(record) -> Session:
    first = MoveTree(GAME, record.start)
    first.add_line(record.moves, label="1196 record")
    first.go_to(first.main_line()[900])
    first.play(next(m for m in GAME.legal_moves(first.state) if m != record.moves[900]))
    second = MoveTree(GAME, State())
    second.play(Move(0, 0))
    return Session([Analysis("record", first, file="/somewhere/1196seq.txt"), Analysis("new", second)], current=1)


def test_a_session_comes_back_as_it_was(tmp_path, record):
    store = SessionStore(tmp_path)
    store.save(two_analyses(record))
    loaded = store.load()
    assert loaded.problem is None
    session = loaded.session
    assert session.current == 1 and [a.name for a in session.analyses] == ["record", "new"]
    tree = session.analyses[0].tree
    assert len(tree) == 1197
    assert GAME.score(tree.main_line()[-1].state) == 878_866
    assert tree.main_line()[-1].label == "1196 record"
    assert tree.current.move_number == 901 and not tree.current.is_main_line
    assert session.analyses[0].file == "/somewhere/1196seq.txt"
    assert session.analyses[1].tree.state.splits == 1


def test_no_session_file_is_no_problem(tmp_path):
    loaded = SessionStore(tmp_path).load()
    assert loaded.session is None and loaded.problem is None


@pytest.mark.parametrize(
    "damage, words",
    [
        (b'{"version": 1, "analyses": [', "line 1, column 29"),
        (b"\xff\xfe garbage", "not UTF-8"),
        (b'{"version": 7, "analyses": []}', "version 7"),
    ],
)
def test_a_damaged_file_is_set_aside_byte_for_byte(tmp_path, damage, words):
    store = SessionStore(tmp_path)
    store.path.write_bytes(damage)
    loaded = store.load()
    assert loaded.session is None
    assert words in loaded.problem and str(store.path) in loaded.problem
    assert loaded.set_aside is not None and loaded.set_aside.read_bytes() == damage
    assert not store.path.exists()


def test_one_bad_analysis_keeps_the_others(tmp_path, record):
    store = SessionStore(tmp_path)
    store.save(two_analyses(record))
    original = store.path.read_bytes()
    data = json.loads(original)
    data["analyses"][0]["tree"]["nodes"][99][1] = "9,9"  # move 100 of the record: not a box corner
    store.path.write_text(json.dumps(data))
    loaded = store.load()
    assert [a.name for a in loaded.session.analyses] == ["new"]
    assert "analysis 1" in loaded.problem and "move 100" in loaded.problem
    assert "1 of 2 analyses" in loaded.problem
    assert json.loads(loaded.set_aside.read_text()) == data


def test_a_failed_write_leaves_the_previous_session(tmp_path, record, monkeypatch):
    store = SessionStore(tmp_path)
    store.save(two_analyses(record))
    before = store.path.read_bytes()

    def refuse(*args):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", refuse)
    with pytest.raises(OSError):
        store.save(Session([Analysis("other", MoveTree(GAME))]))
    monkeypatch.undo()
    assert store.path.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["session.json"]  # no temporary left


# -- whatever is wrong with the file, the app opens (issue 23) -----------------------------------------
def test_a_deeply_nested_file_is_set_aside(tmp_path):
    store = SessionStore(tmp_path)
    damage = b'{"version": 1, "analyses": ' + b"[" * 100_000
    store.path.write_bytes(damage)
    assert store.game_names() == []
    loaded = store.load()
    assert loaded.session is None
    # the object is level 1: the 64th '[', right after the 27 characters before the list, is level 65
    assert "line 1, column 91" in loaded.problem and "nested deeper than 64 levels" in loaded.problem
    assert loaded.set_aside.read_bytes() == damage and not store.path.exists()


def session_with_start(record, game_name: str, start_text: str) -> dict:
    """A saved session of the record's analysis and one analysis of ``game_name`` whose start
    position is ``start_text``."""
    from engines import GAMES

    session = two_analyses(record)
    session.analyses[1] = Analysis("damaged", MoveTree(GAMES[game_name]))
    data = session_to_dict(session)
    data["analyses"][1]["tree"]["start"] = start_text
    return data


@pytest.mark.parametrize(
    "game_name, start_text, words",
    [
        ("destructo", "level 1 · score 0 · shuffle 0 · undo 1\ng a\nundo board:",
         "line 3: 'undo board:' is followed by the board before the last click"),
        ("2048", '{"grid": {"size": 4, "cells": [[null, null, null, null], [null, null, null, null], '
                 '[null, null, null, null], [null, null, null, null]]}, "score": 1e999}',
         "1e999 is too large a number"),
    ],
)
def test_an_analysis_whose_start_cannot_be_read_is_dropped_and_the_others_open(tmp_path, record, game_name,
                                                                               start_text, words):
    store = SessionStore(tmp_path)
    data = session_with_start(record, game_name, start_text)
    store.path.write_text(json.dumps(data))
    written = store.path.read_bytes()
    loaded = store.load()
    assert [analysis.name for analysis in loaded.session.analyses] == ["record"]
    assert "analysis 2" in loaded.problem and words in loaded.problem and "1 of 2 analyses" in loaded.problem
    assert loaded.set_aside.read_bytes() == written


def _reviewed(record) -> Session:
    """The record's session with its move 27 reviewed by hand-written figures (an inaccuracy)."""
    session = two_analyses(record)
    node = session.analyses[0].tree.main_line()[27]
    review = MoveReview(27, GAME.move_text(node.move), "6,4,2,2", 64.25, 49.0, 15.25, "inaccuracy", "weights",
                        (("played box", 0), ("best box", 16)))
    session.analyses[0].tree.set_reviews([(node, review)])
    return session


def test_reviews_come_back_with_the_session(tmp_path, record):
    store = SessionStore(tmp_path)
    store.save(_reviewed(record))
    loaded = store.load()
    assert loaded.problem is None
    node = loaded.session.analyses[0].tree.main_line()[27]
    assert node.review == MoveReview(27, "0,0,4,4", "6,4,2,2", 64.25, 49.0, 15.25, "inaccuracy", "weights",
                                     (("played box", 0), ("best box", 16)))
    assert sum(1 for n in loaded.session.analyses[0].tree.nodes() if n.review is not None) == 1


@pytest.mark.parametrize("damage, words", [
    (lambda row: row.update(loss=-5), "negative"),
    (lambda row: row.update(move="9,9"), "it is for move '9,9', but the line plays '0,0,4,4' there"),
    (lambda row: row.update(best="7,0"), "its best move '7,0' cannot be played there"),
    (lambda row: row.update({"class": "best"}), "class 'best' with a loss of 15.25"),
    (lambda row: row.update({"class": "brilliant"}), "'class' must be one of"),
])
def test_a_damaged_saved_review_is_left_out_and_the_moves_are_kept(tmp_path, record, damage, words):
    store = SessionStore(tmp_path)
    store.save(_reviewed(record))
    data = json.loads(store.path.read_text())
    damage(data["analyses"][0]["tree"]["reviews"][0][1])
    store.path.write_text(json.dumps(data))
    written = store.path.read_bytes()
    loaded = store.load()
    assert [analysis.name for analysis in loaded.session.analyses] == ["record", "new"]
    tree = loaded.session.analyses[0].tree
    assert len(tree) == 1196 + 1 and tree.main_line()[27].review is None
    assert "analysis 1: 1 saved review left out" in loaded.problem and words in loaded.problem
    assert loaded.set_aside.read_bytes() == written  # the file itself is kept, aside


def test_any_failure_while_reading_an_analysis_keeps_the_others(tmp_path, record, monkeypatch):
    store = SessionStore(tmp_path)
    store.save(two_analyses(record))
    written = store.path.read_bytes()
    rebuild = MoveTree.from_dict

    def fail_on_the_second(game, data, source=None, read_review=None):
        if source.endswith("analysis 2"):
            raise RuntimeError("a kernel failed")
        return rebuild(game, data, source, read_review)

    monkeypatch.setattr(MoveTree, "from_dict", staticmethod(fail_on_the_second))
    loaded = store.load()
    assert [analysis.name for analysis in loaded.session.analyses] == ["record"]
    assert "analysis 2: RuntimeError: a kernel failed" in loaded.problem
    assert loaded.set_aside.read_bytes() == written


def test_any_failure_while_reading_the_file_sets_it_aside(tmp_path, record, monkeypatch):
    from app.gui import session as session_module

    store = SessionStore(tmp_path)
    store.save(two_analyses(record))
    written = store.path.read_bytes()

    def exhausted(*args, **kwargs):
        raise MemoryError("no memory left")

    monkeypatch.setattr(session_module, "read_json", exhausted)
    loaded = store.load()
    assert loaded.session is None and "MemoryError: no memory left" in loaded.problem
    assert loaded.set_aside.read_bytes() == written and not store.path.exists()


def test_temporary_files_of_killed_saves_are_removed_on_loading(tmp_path, record):
    store = SessionStore(tmp_path)
    store.save(two_analyses(record))
    for name in (".session.json.a1b2c3.tmp", ".session.json.x_9.tmp"):
        (tmp_path / name).write_bytes(b'{"version": 1, "anal')
    (tmp_path / "notes.tmp").write_text("not Kibitz's")
    loaded = store.load()
    assert loaded.problem is None and len(loaded.session.analyses) == 2
    assert sorted(path.name for path in tmp_path.iterdir()) == ["notes.tmp", "session.json"]


SAVING_FOREVER = """
import itertools, sys
from pathlib import Path
from app.gui.session import Analysis, Session, SessionStore, session_to_dict
from engines.splt import GAME
from engines.tree import MoveTree

record = GAME.parse_sequence(Path(sys.argv[2]).read_text())
sessions = []
for length in (600, 1196):
    tree = MoveTree(GAME, record.start)
    tree.add_line(record.moves[:length])
    sessions.append(Session([Analysis(f"first {length}", tree)]))
store = SessionStore(Path(sys.argv[1]))
store.save(sessions[0])
print("saving", flush=True)
for turn in itertools.count():
    store.save(sessions[turn % 2])
"""


def test_kill_9_during_saves_loses_nothing_and_leaves_no_temporary_file(tmp_path, splt_data):
    import random
    import signal
    import subprocess
    import sys
    import time

    timing = random.Random(23)
    for _ in range(5):
        process = subprocess.Popen([sys.executable, "-c", SAVING_FOREVER, str(tmp_path), str(splt_data / "1196seq.txt")],
                                   stdout=subprocess.PIPE, text=True)
        try:
            assert process.stdout.readline().strip() == "saving"
            time.sleep(timing.uniform(0.0, 0.2))
        finally:
            process.send_signal(signal.SIGKILL)
            process.wait()
            process.stdout.close()
        loaded = SessionStore(tmp_path).load()
        assert loaded.problem is None
        assert [analysis.name for analysis in loaded.session.analyses] in (["first 600"], ["first 1196"])
        assert len(loaded.session.analyses[0].tree) in (600, 1196)
        assert sorted(path.name for path in tmp_path.iterdir()) == ["session.json"]


@pytest.mark.parametrize("damage", ["deep nesting", "a start no parser reads"])
def test_the_window_opens_on_a_damaged_session_with_what_could_be_read(qtbot, make_window, settings_dir, record,
                                                                        damage):
    settings_dir.mkdir(parents=True, exist_ok=True)
    if damage == "deep nesting":
        written = b'{"version": 1, "analyses": ' + b"[" * 100_000
        words, kept = "nested deeper than 64 levels", []
    else:
        data = session_with_start(record, "destructo", "level 1\ng a\nundo board:")
        data["current"] = 1
        written = json.dumps(data).encode()
        words, kept = "'undo board:' is followed by the board before the last click", ["record"]
    (settings_dir / "session.json").write_bytes(written)
    (settings_dir / ".session.json.k1ll3d.tmp").write_bytes(written[:100])  # a save killed midway
    window = make_window()
    if kept:  # the analyses that could be read are open
        assert [analysis.name for analysis in window.session.analyses] == kept
    else:  # nothing could be read: a fresh game to play
        assert window.tree.current.is_root and len(window.tree) == 0
    box = window.error_box
    assert box is not None and box.isVisible() and words in box.informativeText()
    aside = list(settings_dir.glob("session-damaged-*.json"))
    assert len(aside) == 1 and aside[0].read_bytes() == written
    assert not list(settings_dir.glob(".session.json.*.tmp"))
