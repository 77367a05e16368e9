"""The move tree: every line tried from one start position, for any game (no Qt here).

A node is a position reached by one move from its parent. Its children are the moves tried from
there; the first child is the main continuation, the others are variations. The tree has a
*current* node (the position shown) and remembers, at every node, which child was visited last,
so going back and then forward again returns to where the player was (redo).

Nodes hold immutable states, so rewinding and playing a different move can never change a
position already in the tree. There is no size limit.

The tree reports every change to its subscribers (:meth:`MoveTree.subscribe`) so a view can
update itself without rebuilding; :meth:`MoveTree.to_dict` / :meth:`MoveTree.from_dict` give a
flat, JSON-friendly form (flat because record lines are over a thousand moves deep).
"""

from __future__ import annotations

import dataclasses
import enum
import itertools
import json
from collections.abc import Callable, Iterable, Iterator
from typing import Any

from engines.contract import Game, Line
from engines.errors import KibitzInputError, NotationError
from engines.limits import load_json, shown

FORMAT_VERSION = 1


@dataclasses.dataclass(eq=False)
class Node:
    """One position of the tree. ``move`` and ``events`` are None/empty at the root."""

    id: int
    parent: Node | None
    move: Any
    state: Any
    events: tuple[Any, ...] = ()
    children: list[Node] = dataclasses.field(default_factory=list)
    label: str = ""  # shown beside the move, e.g. "best of ParanoidPlay: 1,234 splits"
    last_visited: Node | None = None  # the child forward() goes to
    # What a review of a line said of this move (advisors.review.MoveReview: anything with a
    # to_dict() giving JSON-friendly data); saved with the tree.
    review: Any = None
    move_number: int = dataclasses.field(init=False)  # moves from the start (0 at the root)

    def __post_init__(self) -> None:
        self.move_number = 0 if self.parent is None else self.parent.move_number + 1

    @property
    def is_root(self) -> bool:
        return self.parent is None

    @property
    def is_main_line(self) -> bool:
        """Whether every move from the start to here is a first child."""
        node = self
        while node.parent is not None:
            if node.parent.children[0] is not node:
                return False
            node = node.parent
        return True

    @property
    def variation_index(self) -> int:
        """This node's place among its siblings (0: the main continuation)."""
        return 0 if self.parent is None else self.parent.children.index(self)

    def __repr__(self) -> str:
        return f"Node(id={self.id}, move={self.move!r}, children={len(self.children)})"


class Change(enum.Enum):
    CURRENT = "current"  # the current node changed (node: the new current)
    ADDED = "added"  # nodes were added under node (node: the first new node)
    REMOVED = "removed"  # a subtree was removed (node: its former parent)
    REORDERED = "reordered"  # children were reordered (node: the node promoted)
    LABEL = "label"  # a node's label changed
    REVIEW = "review"  # reviews were set on nodes (node: the last node of the line reviewed)
    RESET = "reset"  # everything changed (new start position, loaded tree)


Listener = Callable[[Change, Node], None]
#: Reads one saved review back: (data, source, where, position before the move, move) -> the
#: review; a NotationError if it is damaged or cannot be a review of that move.
ReviewReader = Callable[[Any, "str | None", str, Any, Any], Any]


class MoveTree:
    """Every line tried from ``start`` in ``game`` (see the module docstring)."""

    def __init__(self, game: Game, start: Any = None) -> None:
        self.game = game
        self._ids = itertools.count()
        self._listeners: list[Listener] = []
        self.root = self._new_node(None, None, game.initial_state() if start is None else start)
        self.current = self.root
        self.skipped_reviews: list[str] = []  # saved reviews from_dict left out, and why

    # -- observing ------------------------------------------------------------------------------
    def subscribe(self, listener: Listener) -> None:
        """Call ``listener(change, node)`` after every change."""
        self._listeners.append(listener)

    def unsubscribe(self, listener: Listener) -> None:
        if listener in self._listeners:
            self._listeners.remove(listener)

    def _notify(self, change: Change, node: Node) -> None:
        for listener in list(self._listeners):
            listener(change, node)

    # -- reading --------------------------------------------------------------------------------
    @property
    def state(self) -> Any:
        return self.current.state

    def _new_node(self, parent: Node | None, move: Any, state: Any, events: tuple = ()) -> Node:
        return Node(next(self._ids), parent, move, state, tuple(events))

    def nodes(self) -> Iterator[Node]:
        """Every node, depth first, main continuations before variations."""
        stack = [self.root]
        while stack:
            node = stack.pop()
            yield node
            stack.extend(reversed(node.children))

    def __len__(self) -> int:
        """The number of moves in the tree (nodes other than the root)."""
        return sum(1 for _ in self.nodes()) - 1

    def contains(self, node: Node) -> bool:
        """Whether ``node`` is in this tree (not deleted, not another tree's)."""
        while node.parent is not None:
            if not any(child is node for child in node.parent.children):
                return False
            node = node.parent
        return node is self.root

    def find(self, node_id: int) -> Node | None:
        return next((node for node in self.nodes() if node.id == node_id), None)

    def path(self, node: Node | None = None) -> list[Node]:
        """The nodes from the root to ``node`` (default: the current one), both included."""
        node = self.current if node is None else node
        path = []
        while node is not None:
            path.append(node)
            node = node.parent
        path.reverse()
        return path

    def continuation(self, node: Node | None = None) -> list[Node]:
        """The nodes after ``node`` that forward() would walk to the end (last visited child,
        else the main one)."""
        node = self.current if node is None else node
        result = []
        while node.children:
            node = node.last_visited if node.last_visited in node.children else node.children[0]
            result.append(node)
        return result

    def line_nodes(self, node: Node | None = None) -> list[Node]:
        """The whole line through ``node``: its path from the root and its continuation."""
        return self.path(node) + self.continuation(node)

    def main_line(self) -> list[Node]:
        """The root and its first children down to the end."""
        node, result = self.root, [self.root]
        while node.children:
            node = node.children[0]
            result.append(node)
        return result

    def line(self, node: Node | None = None, through: bool = False) -> Line:
        """The moves from the start to ``node`` (default: the current one); with ``through``,
        on to the end of the line it is on."""
        nodes = self.line_nodes(node) if through else self.path(node)
        return Line(self.root.state, tuple(n.move for n in nodes[1:]))

    # -- moving ---------------------------------------------------------------------------------
    def go_to(self, node: Node) -> None:
        """Show ``node``; every node on its path remembers the way (for forward())."""
        child = node
        while child.parent is not None:
            child.parent.last_visited = child
            child = child.parent
        if node is not self.current:
            self.current = node
            self._notify(Change.CURRENT, node)

    def back(self) -> bool:
        """One move back; False at the start."""
        if self.current.parent is None:
            return False
        self.go_to(self.current.parent)
        return True

    def forward(self) -> bool:
        """One move forward along the line last visited; False at its end."""
        following = self.continuation()
        if not following:
            return False
        self.go_to(following[0])
        return True

    def go_start(self) -> None:
        self.go_to(self.root)

    def go_end(self) -> None:
        following = self.continuation()
        if following:
            self.go_to(following[-1])

    def switch_variation(self, step: int) -> bool:
        """Show the sibling ``step`` places after (or before, if negative) the current move;
        False when there is none."""
        parent = self.current.parent
        if parent is None:
            return False
        index = parent.children.index(self.current) + step
        if not 0 <= index < len(parent.children):
            return False
        self.go_to(parent.children[index])
        return True

    # -- changing -------------------------------------------------------------------------------
    def play(self, move: Any) -> Node:
        """Play ``move`` at the current node. A move already tried there is followed (whatever
        text named it), a new one becomes a new child (the main continuation if it is the first).
        Illegal moves raise the engine's error and change nothing."""
        child = self._child_playing(self.current, move)
        if child is None:
            step = self.game.play(self.current.state, move)
            child = self._child_reaching(self.current, step.state)
            if child is None:
                child = self._new_node(self.current, move, step.state, step.events)
                self.current.children.append(child)
                self._notify(Change.ADDED, child)
        self.go_to(child)
        return child

    @staticmethod
    def _child_playing(node: Node, move: Any) -> Node | None:
        """The child reached by ``move`` written the same way (found without playing it)."""
        return next((child for child in node.children if child.move == move), None)

    @staticmethod
    def _child_reaching(node: Node, state: Any) -> Node | None:
        """The child whose position is ``state`` (the same move written another way)."""
        return next((child for child in node.children if child.state == state), None)

    def add_line(self, moves: Iterable[Any], start: Node | None = None, label: str = "") -> Node:
        """Add ``moves`` from ``start`` (default: the root), sharing the moves already in the
        tree; returns the last node (labelled with ``label`` if given). The current node does not
        change. An illegal move raises naming its move number, and nothing is added."""
        node = self.root if start is None else start
        first_number = node.move_number + 1
        branch_parent: Node | None = None
        new_nodes: list[Node] = []
        state = node.state
        for number, move in enumerate(moves, start=first_number):
            if branch_parent is None:
                same = self._child_playing(node, move)
                if same is not None:  # already in the tree: no need to play it again
                    node, state = same, same.state
                    continue
            try:
                step = self.game.play(state, move)
            except KibitzInputError as error:
                raise error.located(move_number=number, token=self.game.move_text(move)) from None
            state = step.state
            if branch_parent is None:
                existing = self._child_reaching(node, state)
                if existing is not None:
                    node = existing
                    continue
                branch_parent = node
            parent = new_nodes[-1] if new_nodes else branch_parent
            new_nodes.append(self._new_node(parent, move, step.state, step.events))
        for parent_node, child in zip([branch_parent, *new_nodes], new_nodes):
            parent_node.children.append(child)
        leaf = new_nodes[-1] if new_nodes else node
        if new_nodes:
            self._notify(Change.ADDED, new_nodes[0])
        if label:
            self.set_label(leaf, label)
        return leaf

    def set_label(self, node: Node, label: str) -> None:
        if node.label != label:
            node.label = label
            self._notify(Change.LABEL, node)

    def set_reviews(self, reviews: Iterable[tuple[Node, Any]], last: Node | None = None) -> None:
        """Put each review on its node (None clears it); one REVIEW change for them all, naming
        ``last`` (default: the last node given)."""
        changed = None
        for node, review in reviews:
            node.review = review
            changed = node
        if changed is not None:
            self._notify(Change.REVIEW, last or changed)

    def promote(self, node: Node | None = None) -> bool:
        """Make the line through ``node`` (default: the current one) the main line: at every
        step from the root it becomes the first child. False if it already is."""
        node = self.current if node is None else node
        changed = False
        child = node
        while child.parent is not None:
            siblings = child.parent.children
            if siblings[0] is not child:
                siblings.remove(child)
                siblings.insert(0, child)
                changed = True
            child = child.parent
        if changed:
            self._notify(Change.REORDERED, node)
        return changed

    def delete(self, node: Node | None = None) -> int:
        """Remove ``node`` (default: the current one) and everything after it; the current node
        moves to its parent when it was inside. Returns how many moves were removed. The root
        cannot be deleted (use :meth:`reset`)."""
        node = self.current if node is None else node
        parent = node.parent
        if parent is None:
            raise ValueError("the start position cannot be deleted")
        removed = sum(1 for _ in self._subtree(node))
        inside = any(n is node for n in self.path())
        parent.children.remove(node)
        if parent.last_visited is node:
            parent.last_visited = None
        if inside:  # listeners must never see a current node that is no longer in the tree
            self.current = parent
        self._notify(Change.REMOVED, parent)
        if inside:
            self._notify(Change.CURRENT, parent)
        return removed

    def reset(self, start: Any = None) -> None:
        """Forget every line; start again from ``start`` (default: the game's initial state)."""
        self.root = self._new_node(None, None, self.game.initial_state() if start is None else start)
        self.current = self.root
        self._notify(Change.RESET, self.root)

    @staticmethod
    def _subtree(node: Node) -> Iterator[Node]:
        stack = [node]
        while stack:
            current = stack.pop()
            yield current
            stack.extend(current.children)

    # -- saving ---------------------------------------------------------------------------------
    def to_dict(self) -> dict:
        """A JSON-friendly form: the start as board text and the nodes in depth-first order, each
        as [parent's place in the list (-1: the root), move text, label]."""
        order: dict[int, int] = {self.root.id: -1}
        rows = []
        for node in self.nodes():
            if node.parent is None:
                continue
            order[node.id] = len(rows)
            rows.append([order[node.parent.id], self.game.move_text(node.move), node.label])
        current = order[self.current.id]
        data = {
            "version": FORMAT_VERSION,
            "game": self.game.short_name,
            "start": self.game.board_text(self.root.state),
            "nodes": rows,
            "current": current,
        }
        reviews = [[order[node.id], node.review.to_dict()] for node in self.nodes()
                   if node.parent is not None and node.review is not None]
        if reviews:  # optional: a Kibitz without reviews reads the tree and leaves them out
            data["reviews"] = reviews
        return data

    def to_json(self) -> str:
        """The text of a move-tree file: :meth:`to_dict` as JSON."""
        return json.dumps(self.to_dict(), separators=(",", ":"))

    @classmethod
    def from_json(cls, game: Game, text: str, source: str | None = None,
                  read_review: ReviewReader | None = None) -> MoveTree:
        """Rebuild a tree from a move-tree file's text (:meth:`to_json`): JSON with bounded nesting
        and only finite numbers, then :meth:`from_dict`."""
        return cls.from_dict(game, load_json(text, source), source, read_review)

    @classmethod
    def from_dict(cls, game: Game, data: Any, source: str | None = None,
                  read_review: ReviewReader | None = None) -> MoveTree:
        """Rebuild a tree saved by :meth:`to_dict`, replaying every move with the rules. Anything
        wrong raises :class:`NotationError` (or the rules' error) naming ``source`` and the move.
        Saved reviews are read back with ``read_review(data, source, where, before, move)``
        (which raises a NotationError for a damaged one); a damaged review is left out and said in
        ``skipped_reviews``; without ``read_review`` they are all left out."""

        def fail(reason: str, **where: Any) -> NotationError:
            return NotationError(reason, source=source, **where)

        if not isinstance(data, dict):
            raise fail("a move tree must be an object")
        if data.get("version") != FORMAT_VERSION:
            raise fail(f"unknown move-tree version {shown(data.get('version'))} (this Kibitz reads {FORMAT_VERSION})")
        if data.get("game") != game.short_name:
            raise fail(f"the tree is for game {shown(data.get('game'))}, not {game.short_name!r}")
        start_text, rows, current = data.get("start"), data.get("nodes"), data.get("current", -1)
        if not isinstance(start_text, str) or not isinstance(rows, list) or not _is_whole(current):
            raise fail("a move tree needs 'start' (text), 'nodes' (list) and 'current' (number)")
        try:
            start = game.parse_board(start_text)
        except KibitzInputError as error:
            raise error.located(source=source) from None
        tree = cls(game, start)
        made: list[Node] = []
        for place, row in enumerate(rows):
            if (
                not isinstance(row, list)
                or len(row) != 3
                or not _is_whole(row[0])
                or not isinstance(row[1], str)
                or not isinstance(row[2], str)
                or not -1 <= row[0] < place
            ):
                raise fail(f"node {place} must be [earlier node or -1, move text, label], got {shown(row, 80)}")
            parent = tree.root if row[0] < 0 else made[row[0]]
            number = parent.move_number + 1
            try:
                move = game.parse_move(row[1])
                step = game.play(parent.state, move)
            except KibitzInputError as error:
                raise error.located(source=source, move_number=number, token=row[1]) from None
            node = tree._new_node(parent, move, step.state, step.events)
            node.label = row[2]
            parent.children.append(node)
            made.append(node)
        if not -1 <= current < len(made):
            raise fail(f"current node {current} is not in the tree")
        if read_review is not None:
            tree.skipped_reviews = _read_reviews(game, data.get("reviews", []), made, source, read_review)
        tree.go_to(tree.root if current < 0 else made[current])
        return tree


def _read_reviews(game: Game, reviews: Any, made: list[Node], source: str | None,
                  read_review: ReviewReader) -> list[str]:
    """Put the saved reviews on their nodes. A review is an annotation: a damaged one is left
    out (and said, in the list returned), never a reason to lose the moves."""
    if not isinstance(reviews, list):
        return [f"'reviews' must be a list of [node, review], not {shown(reviews)}"]
    skipped = []
    for item in reviews:
        if not isinstance(item, list) or len(item) != 2 or not _is_whole(item[0]) or not 0 <= item[0] < len(made):
            skipped.append(f"a review must be [node in the tree, review], got {shown(item, 80)}")
            continue
        node = made[item[0]]
        where = f"the review of node {item[0]} (move {node.move_number})"
        try:
            review = read_review(item[1], source, where, node.parent.state, node.move)
        except KibitzInputError as error:
            skipped.append(str(error))
            continue
        if getattr(review, "number", None) != node.move_number:
            skipped.append(f"{where} is for move {getattr(review, 'number', '?')}")
            continue
        node.review = review
    return skipped


def _is_whole(value: Any) -> bool:
    """A JSON whole number (true and false are not)."""
    return isinstance(value, int) and not isinstance(value, bool)
