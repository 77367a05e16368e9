"""The game-agnostic move tree, exercised with SPL-T.

Positions are the spec's opening (shared/specs/splt.md 1.9, worked by hand) and the 1196 record
(whose end score 878,866 is the real game's end screen).
"""

from __future__ import annotations

import json

import pytest

from engines import IllegalMoveError, NotationError
from engines.splt import GAME, Move
from engines.tree import Change, MoveTree

# spec 1.9: the box split at each of the first splits, (x, y, w, h) before the split
OPENING = [(0, 0, 8, 16), (0, 0, 8, 8), (0, 0, 4, 8), (0, 8, 8, 8)]


def split(x, y, w, h) -> Move:
    return Move(x, y, w, h)


def boxes(state) -> set[tuple[int, int, int, int]]:
    return {(b.x, b.y, b.w, b.h) for b in state.boxes}


@pytest.fixture
def tree() -> MoveTree:
    tree = MoveTree(GAME)
    for box in OPENING:
        tree.play(split(*box))
    return tree


@pytest.fixture(scope="module")
def record_1196(splt_data):
    return GAME.parse_sequence((splt_data / "1196seq.txt").read_text(), source="1196seq.txt")


def test_playing_builds_the_main_line(tree):
    assert tree.current.move_number == 4
    assert [node.move_number for node in tree.main_line()] == [0, 1, 2, 3, 4]
    # after split 4 of the opening (hand-worked): the left quarter split H, the bottom half V
    assert boxes(tree.state) == {(0, 0, 4, 4), (0, 4, 4, 4), (4, 0, 4, 8), (0, 8, 4, 8), (4, 8, 4, 8)}
    assert tree.current.is_main_line


def test_back_and_forward_return_to_the_line_last_visited(tree):
    tree.back()
    tree.back()
    assert tree.current.move_number == 2
    other = tree.play(split(0, 8, 8, 8))  # a different third move: a variation
    assert other.variation_index == 1
    assert tree.play(split(0, 0, 4, 8)).move_number == 4
    tree.go_start()
    tree.forward()
    tree.forward()
    tree.forward()  # follows the variation visited last, not the main line
    assert tree.current is other
    tree.go_end()
    assert tree.current.move_number == 4 and not tree.current.is_main_line
    assert not tree.forward()


def test_rewinding_and_branching_never_changes_positions_already_played(tree):
    before = [(node.state, node.move) for node in tree.main_line()]
    tree.go_to(tree.main_line()[1])
    tree.play(split(0, 8, 8, 8))  # the fourth box of the opening, played second
    assert [(node.state, node.move) for node in tree.main_line()] == before


def test_playing_a_move_already_tried_follows_it_whatever_its_text(tree):
    tree.go_start()
    count = len(tree)
    node = tree.play(Move(0, 0))  # the same first split, named without its size
    assert node is tree.main_line()[1]
    assert len(tree) == count


def test_switching_variations(tree):
    tree.go_to(tree.main_line()[2])
    second = tree.play(split(4, 0, 4, 8))
    tree.back()
    third = tree.play(split(0, 8, 8, 8))
    assert [c.variation_index for c in tree.main_line()[2].children] == [0, 1, 2]
    assert tree.switch_variation(-1) and tree.current is second
    assert tree.switch_variation(-1) and tree.current is tree.main_line()[3]
    assert not tree.switch_variation(-1)
    assert tree.switch_variation(2) and tree.current is third
    assert not tree.switch_variation(1)


def test_promote_makes_a_variation_the_main_line(tree):
    tree.go_to(tree.main_line()[2])
    variation = tree.play(split(0, 8, 8, 8))
    leaf = tree.play(split(0, 0, 4, 8))
    assert tree.promote(leaf)
    assert tree.main_line()[-1] is leaf
    assert tree.main_line()[3] is variation
    assert not tree.promote(leaf)  # already the main line


def test_delete_removes_the_subtree_and_steps_out_of_it(tree):
    tree.go_to(tree.main_line()[2])
    variation = tree.play(split(0, 8, 8, 8))
    tree.play(split(0, 0, 4, 8))
    assert tree.delete(variation) == 2
    assert tree.current is tree.main_line()[2]
    assert len(tree) == 4
    with pytest.raises(ValueError):
        tree.delete(tree.root)


def test_illegal_moves_change_nothing(tree):
    count, current = len(tree), tree.current
    with pytest.raises(IllegalMoveError):
        tree.play(Move(8, 0))  # off the board
    assert len(tree) == count and tree.current is current
    with pytest.raises(IllegalMoveError) as caught:
        tree.add_line([split(0, 0, 8, 16), Move(7, 15)], start=tree.root)
    assert caught.value.location.move_number == 2
    assert len(tree) == count


def test_listeners_hear_every_change(tree):
    heard = []
    tree.subscribe(lambda change, node: heard.append((change, node.move_number)))
    tree.back()
    tree.play(split(4, 0, 4, 8))
    tree.promote()
    tree.delete()
    assert heard == [
        (Change.CURRENT, 3),
        (Change.ADDED, 4),
        (Change.CURRENT, 4),
        (Change.REORDERED, 4),
        (Change.REMOVED, 3),
        (Change.CURRENT, 3),
    ]


def test_a_record_game_fits_and_branches_share_its_moves(record_1196):
    tree = MoveTree(GAME, record_1196.start)
    leaf = tree.add_line(record_1196.moves, label="1196 record")
    assert leaf.move_number == 1196 and leaf.label == "1196 record"
    assert GAME.score(leaf.state) == 878_866
    assert tree.current is tree.root  # adding a line does not move
    # the same first 1100 moves and one different split: one new node, branching at move 1101
    at_1100 = tree.main_line()[1100]
    other = next(m for m in GAME.legal_moves(at_1100.state) if m != record_1196.moves[1100])
    branch = tree.add_line([*record_1196.moves[:1100], other])
    assert len(tree) == 1197
    assert branch.parent is at_1100 and branch.variation_index == 1
    # rewinding to move 500 and playing on does not touch the record's line
    tree.go_to(tree.main_line()[500])
    tree.play(next(m for m in GAME.legal_moves(tree.state) if m != record_1196.moves[500]))
    assert GAME.score(tree.main_line()[-1].state) == 878_866
    assert tree.line(tree.main_line()[-1]).moves == record_1196.moves


def test_saving_and_loading_keep_every_line(record_1196):
    tree = MoveTree(GAME, record_1196.start)
    tree.add_line(record_1196.moves[:700], label="first 700")
    tree.go_to(tree.main_line()[300])
    tree.play(next(m for m in GAME.legal_moves(tree.state) if m != record_1196.moves[300]))
    data = json.loads(json.dumps(tree.to_dict()))  # through real JSON
    loaded = MoveTree.from_dict(GAME, data, source="session.json")
    assert len(loaded) == 701
    assert loaded.current.move_number == 301 and not loaded.current.is_main_line
    assert loaded.main_line()[-1].label == "first 700"
    assert loaded.main_line()[-1].state == tree.main_line()[-1].state


def test_a_damaged_tree_is_refused_with_where_and_why():
    tree = MoveTree(GAME)
    for box in OPENING:
        tree.play(split(*box))
    data = tree.to_dict()
    data["nodes"][2][1] = "9,0"  # move 3 now splits a cell off the board
    with pytest.raises(IllegalMoveError) as caught:
        MoveTree.from_dict(GAME, data, source="session.json")
    assert caught.value.location.source == "session.json"
    assert caught.value.location.move_number == 3
    data = tree.to_dict()
    data["nodes"][1][0] = 5  # a parent that comes later
    with pytest.raises(NotationError, match="node 1"):
        MoveTree.from_dict(GAME, data, source="session.json")
    with pytest.raises(NotationError, match="version"):
        MoveTree.from_dict(GAME, {**tree.to_dict(), "version": 99})
    with pytest.raises(NotationError, match="move tree must be an object"):
        MoveTree.from_dict(GAME, [1, 2])
