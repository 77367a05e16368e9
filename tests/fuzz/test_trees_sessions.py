"""Fuzz targets for the move-tree files and the window's session file, loaded the way the app
loads them.

Valid inputs are move trees of seeded random legal games (the main line and a variation) and a
session holding one tree of each game, written by ``MoveTree.to_json`` and ``SessionStore.save``;
:mod:`tests.fuzz.mutations` damages their text and bytes. A tree file is either refused with a
documented error or rebuilt (and then writes the same file again). A session file never stops the
app: either it loads whole (and saves and loads again the same), or it is moved aside byte for
byte with the reason, and what could be read is kept.
"""

from __future__ import annotations

import functools
import json
import tempfile
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from app.gui.session import Analysis, Session, SessionStore, session_to_dict
from engines import GAMES, NotationError
from engines.tree import MoveTree
from tests.fuzz.mutations import check, fuzz_settings, mutated_bytes, mutated_text
from tests.fuzz.test_texts import played

GAME_NAMES = tuple(GAMES)


def tree_of(name: str, seed: int, longest: int | None = None) -> MoveTree:
    """The main line of played game ``seed`` of ``name`` (its first ``longest`` moves), a
    variation from its middle and the current node inside it."""
    game = GAMES[name]
    states, moves = played(name)[seed % len(played(name))]
    moves = moves[:longest]
    tree = MoveTree(game, states[0])
    tree.add_line(moves, label=f"game {seed}")
    middle = tree.main_line()[len(moves) // 2]
    others = [move for move in game.legal_moves(middle.state) if move != (middle.children or [None])[0]] \
        if not game.is_chance_node(middle.state) and not game.is_over(middle.state) else []
    if others:
        tree.go_to(middle)
        tree.play(others[-1])
    return tree


@functools.cache
def tree_files(name: str) -> tuple[str, ...]:
    files = tuple(tree_of(name, seed).to_json() for seed in range(len(played(name))))
    MoveTree.from_json(GAMES[name], files[0])  # kernels loaded here, not in a case's time
    return files


@pytest.mark.parametrize("name", GAME_NAMES)
@fuzz_settings()
@given(data=st.data())
def test_move_tree_files(name, data):
    game = GAMES[name]
    text = data.draw(mutated_text(st.sampled_from(tree_files(name))))
    accepted, tree = check(f"{name} move tree", MoveTree.from_json, game, text, "tree.json")
    if accepted:
        again = MoveTree.from_json(game, tree.to_json(), "again.json")
        assert again.to_dict() == tree.to_dict()


#: values of another JSON type, or numbers out of every range, put in place of a field
ODD_VALUES = st.one_of(st.none(), st.booleans(), st.integers(-3, 300), st.sampled_from([2 ** 31, 2 ** 63, -2 ** 63 - 1]),
                       st.floats(allow_nan=False, allow_infinity=False), st.text(max_size=8), st.just([]), st.just({}))


@st.composite
def mutated_fields(draw: st.DrawFn, document: dict) -> str:
    """A JSON document with one to three of its fields (nested lists and objects included)
    replaced: a text by a mutation of it, anything by a value of another type, or removed."""
    document = json.loads(json.dumps(document))
    for _ in range(draw(st.integers(1, 3))):
        parent, key = draw(_field_of(document))
        if parent is None:
            break
        value = parent[key]
        kind = draw(st.sampled_from(("mutate", "retype", "remove")))
        if kind == "mutate" and isinstance(value, str):
            parent[key] = draw(mutated_text(st.just(value)))
        elif kind == "remove" and isinstance(parent, dict):
            del parent[key]
        else:
            parent[key] = draw(ODD_VALUES)
    return json.dumps(document)


@st.composite
def _field_of(draw: st.DrawFn, document):
    """(the list or object holding a field, its key or index), chosen among all of the document's
    fields at any depth; (None, None) for a document without any."""
    fields = []
    stack = [document]
    while stack:
        container = stack.pop()
        keys = container.keys() if isinstance(container, dict) else range(len(container))
        for key in keys:
            fields.append((container, key))
            if isinstance(container[key], (dict, list)):
                stack.append(container[key])
    return draw(st.sampled_from(fields)) if fields else (None, None)


@pytest.mark.parametrize("name", GAME_NAMES)
@fuzz_settings()
@given(data=st.data())
def test_move_tree_fields(name, data):
    game = GAMES[name]
    document = json.loads(data.draw(st.sampled_from(tree_files(name))))
    text = data.draw(mutated_fields(document))
    accepted, tree = check(f"{name} move tree (fields)", MoveTree.from_json, game, text, "tree.json")
    if accepted:
        again = MoveTree.from_json(game, tree.to_json(), "again.json")
        assert again.to_dict() == tree.to_dict()


@functools.cache
def session_file() -> bytes:
    """A session of one analysis per game, as the window saves it (short lines: a case loads
    every tree, twice when it is accepted)."""
    with tempfile.TemporaryDirectory() as folder:
        store = SessionStore(Path(folder))
        analyses = [Analysis(f"{name} analysis", tree_of(name, seed, longest=30), file=f"/games/{name}.txt")
                    for seed, name in enumerate(GAME_NAMES)]
        store.save(Session(analyses, current=2))
        return store.path.read_bytes()


def open_session(data: bytes) -> Session | None:
    """Load a session file as the window does at start (its games first, then the file); a file
    set aside is refused with the reason shown, after checking the contract: set aside byte for
    byte, no session file left, no temporary file left."""
    with tempfile.TemporaryDirectory() as folder:
        store = SessionStore(Path(folder))
        store.path.write_bytes(data)
        (store.directory / f".{store.path.name}.killed.tmp").write_bytes(data[: len(data) // 2])
        names = store.game_names()
        assert all(name in GAMES for name in names)
        loaded = store.load()
        assert not store.stale_temporary_files()
        if loaded.problem is None:
            assert loaded.session is not None and store.path.read_bytes() == data
            store.save(loaded.session)
            again = store.load()
            assert again.problem is None
            assert session_to_dict(again.session) == session_to_dict(loaded.session)
            return loaded.session
        assert loaded.set_aside is not None and loaded.set_aside.read_bytes() == data
        assert not store.path.exists()
        if loaded.session is not None:  # what could be read is kept
            assert len(loaded.session.analyses) < len(json.loads(session_file())["analyses"])
        raise NotationError(loaded.problem)


@fuzz_settings()
@given(data=st.data())
def test_session_texts(data):
    text = data.draw(mutated_text(st.just(session_file().decode("utf-8"))))
    check("session (text)", open_session, text.encode("utf-8", "surrogatepass"))


@fuzz_settings()
@given(data=st.data())
def test_session_bytes(data):
    check("session (bytes)", open_session, data.draw(mutated_bytes(st.just(session_file()))))


@fuzz_settings()
@given(data=st.data())
def test_session_fields(data):
    text = data.draw(mutated_fields(json.loads(session_file())))
    check("session (fields)", open_session, text.encode("utf-8", "surrogatepass"))
