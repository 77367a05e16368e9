"""The session file: every analysis survives a restart; a damaged file is reported and set aside,
never lost. Positions come from the 1196 record (end score 878,866, the real end screen)."""

from __future__ import annotations

import json
import os

import pytest

from app.gui.session import Analysis, Session, SessionStore
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
