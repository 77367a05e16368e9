"""The move list and the score graph of a move tree, driven like a player: clicks, the context
menu, the tree's own moves.

Expected values come from the 1196 record (shared/data/splt/1196seq.txt: 1196 splits, end score
878,866 as on the real game's end screen 1196_splits.PNG) and from the layout rules of the move
list written out independently below (:func:`expected_rows`), not from the view's own output.
"""

from __future__ import annotations

import random
import statistics
import time

import pytest
from PySide6.QtCore import QPoint, Qt
from PySide6.QtGui import QAction, QGuiApplication, QKeySequence
from PySide6.QtWidgets import QApplication, QMainWindow

from app.gui.score_graph import ScoreGraph, legal_move_count
from app.gui.tree_view import (
    CURRENT_ROLE,
    KIND_ROLE,
    LEVEL_ROLE,
    MOVE,
    MOVE_ROLE,
    NODE_ROLE,
    SCORE_ROLE,
    VARIATION,
    MoveTreeView,
)
from engines.splt import GAME
from engines.tree import MoveTree

RECORD_SPLITS = 1196
RECORD_SCORE = "878,866"  # the real end screen (1196_splits.PNG)
FIRST_SPLIT = "0,0,8,16"  # spec 1.9: the first split cuts the whole 8x16 board


@pytest.fixture(scope="module")
def record_moves(splt_data):
    path = splt_data / "1196seq.txt"
    if not path.is_file():
        pytest.skip(f"the 1196 record is not in the reference data ({path} missing)")
    line = GAME.parse_sequence(path.read_text(), source=str(path))
    assert line.start == GAME.initial_state()
    return line.moves


@pytest.fixture
def record_tree(record_moves) -> MoveTree:
    tree = MoveTree(GAME)
    tree.add_line(record_moves)
    return tree


@pytest.fixture
def view(qtbot) -> MoveTreeView:
    view = MoveTreeView()
    qtbot.addWidget(view)
    view.resize(340, 600)
    view.show()
    qtbot.waitExposed(view)
    return view


@pytest.fixture
def graph(qtbot) -> ScoreGraph:
    graph = ScoreGraph()
    qtbot.addWidget(graph)
    graph.resize(500, 200)
    graph.show()
    qtbot.waitExposed(graph)
    return graph


def expected_rows(tree: MoveTree, folded: set[int] = frozenset()) -> list[tuple[int, str, int]]:
    """The rows a PGN-like move list shows, as (level, kind, move number): the main line at
    level 0; under each move, one variation per alternative to it (a summary row one level in,
    then the alternative and its main continuation one more level in, unless the variation is
    folded: ``folded`` holds the ids of the alternatives whose variation is), recursively."""
    rows: list[tuple[int, str, int]] = []

    def line(first, level: int, skip_first_alternatives: bool) -> None:
        node = first
        while node is not None:
            rows.append((level, MOVE, node.move_number))
            if not (node is first and skip_first_alternatives):
                for alternative in node.parent.children[1:]:
                    rows.append((level + 1, VARIATION, alternative.move_number))
                    if alternative.id not in folded:
                        line(alternative, level + 2, True)
            node = node.children[0] if node.children else None

    if tree.root.children:
        line(tree.root.children[0], 0, False)
    return rows


def shown_rows(view: MoveTreeView) -> list[tuple[int, str, int]]:
    model = view.model
    rows = []
    for number in range(model.rowCount()):
        index = model.index(number, 0)
        rows.append((index.data(LEVEL_ROLE), index.data(KIND_ROLE), index.data(NODE_ROLE).move_number))
    return rows


def main_rows(view: MoveTreeView) -> list:
    model = view.model
    return [model.index(n, 0) for n in range(model.rowCount()) if model.index(n, 0).data(LEVEL_ROLE) == 0]


def other_move(tree: MoveTree, node):
    """A legal move at ``node`` other than its main continuation."""
    taken = {child.move for child in node.children}
    return next(move for move in GAME.legal_moves(node.state) if move not in taken)


def branch_at_1100(tree: MoveTree):
    """Play a different 1101st split from the record's position after 1100 splits."""
    tree.go_to(tree.main_line()[1100])
    return tree.play(other_move(tree, tree.current))


def menu_action(view: MoveTreeView, node, text: str, variation: bool = False) -> QAction:
    menu = view.context_menu(node, variation)
    return next(action for action in menu.actions() if action.text() == text)


def click_row(qtbot, view: MoveTreeView, index) -> None:
    view.list.scrollTo(index)
    qtbot.mouseClick(view.list.viewport(), Qt.MouseButton.LeftButton, pos=view.list.visualRect(index).center())


# -- the move list ------------------------------------------------------------------------------
def test_the_record_fills_the_main_line(view, record_tree):
    view.set_tree(record_tree)
    rows = main_rows(view)
    assert len(rows) == RECORD_SPLITS
    assert rows[0].data(MOVE_ROLE) == FIRST_SPLIT
    assert rows[-1].data(SCORE_ROLE) == RECORD_SCORE
    assert view.model.rowCount() == RECORD_SPLITS  # no variation rows
    assert rows[-1].data(Qt.ItemDataRole.DisplayRole).startswith("1196. ")
    assert rows[-1].data(Qt.ItemDataRole.DisplayRole).endswith(" 878,866")


def test_a_branch_at_1100_nests_a_variation_under_move_1101(view, record_tree):
    view.set_tree(record_tree)
    main_1101 = record_tree.main_line()[1101]
    branch = branch_at_1100(record_tree)
    model = view.model
    at = view.index_of(main_1101).row()
    below = [model.index(at + k, 0) for k in range(4)]
    assert [(i.data(LEVEL_ROLE), i.data(KIND_ROLE)) for i in below] == [(0, MOVE), (1, VARIATION), (2, MOVE), (0, MOVE)]
    assert view.node_at(below[2]) is branch and branch.move_number == 1101
    assert below[2].data(MOVE_ROLE) == GAME.move_text(branch.move)
    assert view.node_at(below[3]).move_number == 1102
    assert len(main_rows(view)) == RECORD_SPLITS
    assert shown_rows(view) == expected_rows(record_tree)


def test_promote_from_the_context_menu_makes_the_variation_the_main_line(qtbot, view, record_tree):
    view.set_tree(record_tree)
    old_1101 = record_tree.main_line()[1101]
    branch = branch_at_1100(record_tree)
    for _ in range(3):  # a variation of 4 moves
        record_tree.play(GAME.legal_moves(record_tree.state)[0])
    end = record_tree.current
    with qtbot.waitSignal(view.tree_edited):
        menu_action(view, branch, "Promote to main line").trigger()
    assert record_tree.main_line()[1101] is branch
    after_1100 = view.index_of(record_tree.main_line()[1100]).row() + 1
    model = view.model
    assert view.node_at(model.index(after_1100, 0)) is branch
    # the record's 1101st split and its continuation are now the variation under it
    assert model.index(after_1100 + 1, 0).data(KIND_ROLE) == VARIATION
    assert view.node_at(model.index(after_1100 + 2, 0)) is old_1101
    assert view.node_at(model.index(after_1100 + 2 + 96, 0)).move_number == 1102
    assert model.index(after_1100 + 2 + 96, 0).data(LEVEL_ROLE) == 0
    assert view.index_of(end).data(LEVEL_ROLE) == 0
    assert view.index_of(old_1101).data(LEVEL_ROLE) == 2  # the record's 1101st now a variation
    assert len(main_rows(view)) == 1104
    assert shown_rows(view) == expected_rows(record_tree)
    assert view.index_of(end).data(CURRENT_ROLE) is True


def test_delete_from_the_context_menu_removes_the_variation(qtbot, view, record_tree):
    view.set_tree(record_tree)
    branch = branch_at_1100(record_tree)
    record_tree.play(GAME.legal_moves(record_tree.state)[0])
    with qtbot.waitSignal(view.tree_edited) as edited:
        menu_action(view, branch, "Delete from here").trigger()
    assert edited.args == ["Deleted 2 moves from move 1101"]
    assert view.model.rowCount() == RECORD_SPLITS
    assert all(view.model.index(n, 0).data(KIND_ROLE) == MOVE for n in range(RECORD_SPLITS))
    assert not view.index_of(branch).isValid()
    assert record_tree.current is record_tree.main_line()[1100]
    assert view.index_of(record_tree.current).data(CURRENT_ROLE) is True


def test_edits_can_be_left_to_the_window(qtbot, view, record_tree):
    view.edits_tree = False
    view.set_tree(record_tree)
    branch = branch_at_1100(record_tree)
    with qtbot.waitSignal(view.promote_requested) as promote:
        menu_action(view, branch, "Promote to main line").trigger()
    with qtbot.waitSignal(view.delete_requested) as delete:
        menu_action(view, branch, "Delete from here").trigger()
    assert promote.args == [branch] and delete.args == [branch]
    assert record_tree.main_line()[1101] is not branch and branch.parent is not None


def test_promote_is_offered_only_off_the_main_line(view, record_tree):
    view.set_tree(record_tree)
    branch = branch_at_1100(record_tree)
    assert menu_action(view, branch, "Promote to main line").isEnabled()
    assert not menu_action(view, record_tree.main_line()[50], "Promote to main line").isEnabled()


def test_copy_line_to_here_puts_the_record_s_first_moves_on_the_clipboard(view, record_tree, record_moves):
    view.set_tree(record_tree)
    menu_action(view, record_tree.main_line()[700], "Copy line to here").trigger()
    copied = GAME.parse_sequence(QGuiApplication.clipboard().text())
    assert copied.moves == tuple(record_moves[:700])


def test_clicking_a_row_goes_to_its_move(qtbot, view, record_tree):
    view.set_tree(record_tree)
    target = record_tree.main_line()[500]
    with qtbot.waitSignal(view.node_activated) as activated:
        click_row(qtbot, view, view.index_of(target))
    assert record_tree.current is target and activated.args == [target]
    branch = branch_at_1100(record_tree)
    record_tree.go_start()
    click_row(qtbot, view, view.index_of(branch))
    assert record_tree.current is branch


def test_the_current_row_is_highlighted_and_in_view_after_go_end(qtbot, view, record_tree):
    view.set_tree(record_tree)
    record_tree.go_end()
    index = view.index_of(record_tree.current)
    assert index.row() == RECORD_SPLITS - 1 and index.data(CURRENT_ROLE) is True
    assert view.model.index(RECORD_SPLITS - 2, 0).data(CURRENT_ROLE) is False
    qtbot.wait(10)
    rect = view.list.visualRect(index)
    viewport = view.list.viewport().rect()
    assert viewport.contains(rect.topLeft()) and viewport.contains(rect.bottomLeft())
    # the row is painted in the highlight, another row is not
    image = view.list.viewport().grab().toImage()
    x = viewport.width() // 2 + 10  # between the move and the score
    base = view.list.palette().color(view.list.palette().ColorRole.Base)
    assert image.pixelColor(x, rect.center().y()) != base
    other = view.list.visualRect(view.model.index(RECORD_SPLITS - 4, 0))
    assert image.pixelColor(x, other.center().y()) == base
    record_tree.go_to(record_tree.main_line()[3])
    assert view.list.viewport().rect().contains(view.list.visualRect(view.index_of(record_tree.current)).center())


def test_labels_are_shown_beside_their_move(view, record_tree):
    view.set_tree(record_tree)
    leaf = record_tree.main_line()[-1]
    record_tree.set_label(leaf, "best of ParanoidPlay: 1,196 splits")
    text = view.index_of(leaf).data(Qt.ItemDataRole.DisplayRole)
    assert text.endswith("★ best of ParanoidPlay: 1,196 splits")
    assert view.index_of(leaf).data(Qt.ItemDataRole.ToolTipRole) == "★ best of ParanoidPlay: 1,196 splits"


def test_a_variation_folds_and_unfolds_and_the_current_move_unfolds_it(qtbot, view, record_tree):
    view.set_tree(record_tree)
    branch = branch_at_1100(record_tree)
    record_tree.play(GAME.legal_moves(record_tree.state)[0])
    record_tree.go_start()
    summary = view.variation_index(branch)
    click_row(qtbot, view, summary)
    assert view.is_folded(branch)
    assert view.model.rowCount() == RECORD_SPLITS + 1 and not view.index_of(branch).isValid()
    record_tree.go_to(branch)
    assert not view.is_folded(branch) and view.index_of(branch).isValid()
    assert shown_rows(view) == expected_rows(record_tree)


def test_the_arrow_keys_stay_with_the_window(qtbot, record_tree):
    window = QMainWindow()
    qtbot.addWidget(window)
    view = MoveTreeView()
    window.setCentralWidget(view)
    back = QAction("Back", window)
    back.setShortcut(QKeySequence("Left"))
    back.triggered.connect(lambda: record_tree.back())
    window.addAction(back)
    window.show()
    qtbot.waitExposed(window)
    window.activateWindow()
    qtbot.waitUntil(lambda: QApplication.activeWindow() is window)
    view.set_tree(record_tree)
    record_tree.go_end()
    assert view.list.focusPolicy() == Qt.FocusPolicy.NoFocus
    view.list.setFocus()  # even with the focus forced onto the list
    qtbot.waitUntil(lambda: QApplication.focusWidget() is view.list)
    qtbot.keyClick(view.list, Qt.Key.Key_Left)
    assert record_tree.current.move_number == RECORD_SPLITS - 1


def test_incremental_updates_match_a_fresh_layout(view, record_tree):
    """Random plays, branches, promotions, deletions and folds; after each, the rows equal the
    layout rules applied to the tree from scratch, and the list was never reset."""
    resets = []
    view.set_tree(record_tree)
    view.model.modelReset.connect(lambda: resets.append(1))
    generator = random.Random(1196)
    deepest = 0
    for step in range(60):
        action = generator.random()
        nodes = list(record_tree.nodes())
        if action < 0.55:
            near_the_end = generator.random() < 0.6
            start = generator.choice(record_tree.main_line()[-100:] if near_the_end else nodes)
            record_tree.go_to(start)
            for _ in range(generator.randrange(1, 6)):
                moves = GAME.legal_moves(record_tree.state)
                if not moves:
                    break
                record_tree.play(generator.choice(moves))
        elif action < 0.7:
            off = [node for node in nodes if node.parent is not None and not node.is_main_line]
            if off:
                view.promote(generator.choice(off))
        elif action < 0.85:
            deep = [node for node in nodes if node.move_number > 1000]
            if deep:
                view.delete(generator.choice(deep))
        else:
            heads = [s.head for s in view.model.variations()]
            if heads:
                head = generator.choice(heads)
                view.set_folded(head, not view.is_folded(head))
        rows = shown_rows(view)
        assert rows == expected_rows(record_tree, view.model.folded), f"step {step}"
        assert view.index_of(record_tree.current).data(CURRENT_ROLE) in (True, None)  # None: folded away
        deepest = max([deepest, *(level for level, _, _ in rows)])
    assert resets == []
    assert deepest >= 3  # variations inside variations were exercised


def fresh_layout(qtbot, tree: MoveTree) -> tuple[list[str], int]:
    """The rows of a view built from scratch on ``tree`` (as text) and its current row."""
    fresh = MoveTreeView()
    qtbot.addWidget(fresh)
    fresh.set_tree(tree)
    layout = fresh.row_texts(), fresh.index_of(tree.current).row()
    fresh.set_tree(None)
    return layout


@pytest.mark.parametrize("heard", ["once", "twice"])
def test_the_benchmark_s_variation_journey_matches_a_fresh_layout(qtbot, record_tree, heard):
    """benchmarks/gui_responsiveness.py's first-ranking journey (measure_first_ranking) at every
    25th move of the record: play the record's move, back (Left) and forward (Right), a new move
    (a variation), back off it (Left), from it to the record's move (Up), then the variation is
    deleted. After every step the rows (and the current row) are those of a view built fresh on
    the tree, and no exception reaches sys.excepthook (the keys run the moves in Qt's slots).

    ``twice``: the view hears every change twice, as when the benchmark has wrapped its
    listener (the timing clock) and the window shows the same analysis again (its kernels came
    in late): the view is set to the same tree while the wrapper is subscribed. The new move's
    variation was then added twice, shown twice, and its deletion raised KeyError in
    MoveTreeModel.node_removed (``del self._heads[...]`` for the second copy)."""
    window = QMainWindow()
    qtbot.addWidget(window)
    view = MoveTreeView()
    window.setCentralWidget(view)
    window.resize(340, 600)
    for key, step in (("Left", record_tree.back), ("Right", record_tree.forward),
                      ("Up", lambda: record_tree.switch_variation(-1))):
        action = QAction(key, window)
        action.setShortcut(QKeySequence(key))
        action.triggered.connect(lambda _checked=False, step=step: step())
        window.addAction(action)
    window.show()
    qtbot.waitExposed(window)
    window.activateWindow()
    qtbot.waitUntil(lambda: QApplication.activeWindow() is window)
    view.set_tree(record_tree)
    if heard == "twice":
        record_tree.unsubscribe(view._tree_changed)
        record_tree.subscribe(lambda change, node: view._tree_changed(change, node))  # the timing wrapper
        view.set_tree(record_tree)  # the window shows its analysis again
    main = record_tree.main_line()

    def check(what: str, number: int) -> None:
        QApplication.processEvents()
        assert (view.row_texts(), view.index_of(record_tree.current).row()) == fresh_layout(qtbot, record_tree), (
            f"{what} at move {number}"
        )
        assert shown_rows(view) == expected_rows(record_tree), f"{what} at move {number}"

    with qtbot.capture_exceptions() as exceptions:
        for number in (25, 50, 1175):
            here, record_next = main[number], main[number + 1]
            record_tree.go_to(here)
            record_tree.play(record_next.move)
            check("record move", number)
            qtbot.keyClick(window, Qt.Key.Key_Left)
            assert record_tree.current is here
            qtbot.keyClick(window, Qt.Key.Key_Right)
            assert record_tree.current is record_next
            record_tree.go_to(here)
            made = record_tree.play(other_move(record_tree, here))
            assert made.parent is here and here.children == [record_next, made]
            check("new move", number)
            qtbot.keyClick(window, Qt.Key.Key_Left)
            assert record_tree.current is here
            record_tree.go_to(made)
            qtbot.keyClick(window, Qt.Key.Key_Up)
            assert record_tree.current is record_next
            check("new move -> record's move (Up)", number)
            record_tree.delete(made)  # the tree is the record again
            check("variation deleted", number)
            assert view.model.rowCount() == RECORD_SPLITS
    assert [str(exception[1]) for exception in exceptions] == []


def test_reset_empties_the_list(view, graph, record_tree):
    view.set_tree(record_tree)
    graph.set_tree(record_tree)
    record_tree.reset()
    assert view.model.rowCount() == 0 and graph.main_values() == [0]
    record_tree.play(GAME.legal_moves(record_tree.state)[0])
    assert view.model.rowCount() == 1 and len(graph.main_values()) == 2
    view.set_tree(None)
    graph.set_tree(None)
    assert view.model.rowCount() == 0 and graph.main_values() == []
    view.grab(), graph.grab()  # the empty list and graph paint their placeholder


def test_the_context_menu_opens_on_the_row_under_the_mouse(monkeypatch, view, record_tree):
    view.set_tree(record_tree)
    branch = branch_at_1100(record_tree)
    opened = []
    monkeypatch.setattr(view, "_open_menu", lambda menu, position: opened.append([a.text() for a in menu.actions()]))
    for index in (view.index_of(branch), view.variation_index(branch)):
        view.list.customContextMenuRequested.emit(view.list.visualRect(index).center())
    moves = ["Promote to main line", "Delete from here", "", "Copy line to here"]
    assert opened == [moves, [*moves, "", "Fold variation"]]


def test_playing_at_the_end_of_the_record_is_quick(qtbot, view, record_tree, record_moves):
    """Loose bound (shared machines): the measured figure is about 4 ms, see the report."""
    tree = MoveTree(GAME)
    tree.add_line(record_moves[:-1])
    tree.go_end()
    view.set_tree(tree)
    qtbot.wait(1)
    times = []
    for _ in range(7):
        started = time.perf_counter()
        tree.play(record_moves[-1])
        QGuiApplication.processEvents()
        view.list.viewport().repaint()
        times.append(time.perf_counter() - started)
        tree.back()
        tree.delete(tree.current.children[0])
    assert statistics.median(times) < 0.04


# -- the score graph ----------------------------------------------------------------------------
def test_the_graph_follows_the_record(graph, record_tree):
    graph.set_tree(record_tree)
    values = graph.main_values()
    assert len(values) == RECORD_SPLITS + 1 and values[0] == 0 and values[-1] == 878_866
    assert graph.hover_text(RECORD_SPLITS) == "move 1196 · score 878,866"


def test_clicking_the_graph_at_move_600_goes_there(qtbot, graph, record_tree):
    graph.set_tree(record_tree)
    plot = graph.plot_rect()
    x = plot.left() + plot.width() * 600 / RECORD_SPLITS  # the axis spans the main line
    with qtbot.waitSignal(graph.node_activated):
        qtbot.mouseClick(graph, Qt.MouseButton.LeftButton, pos=QPoint(round(x), round(plot.center().y())))
    assert abs(record_tree.current.move_number - 600) <= 1
    assert record_tree.current.is_main_line


def test_hovering_the_graph_names_the_move_and_score(qtbot, graph, record_tree):
    graph.set_tree(record_tree)
    plot = graph.plot_rect()
    qtbot.mouseMove(graph, QPoint(round(plot.right()), round(plot.center().y())))
    assert graph.hover_text() == "move 1196 · score 878,866"


def test_the_graph_follows_plays_and_a_second_series(graph, record_tree, record_moves):
    tree = MoveTree(GAME)
    tree.add_line(record_moves[:-1])
    tree.go_end()
    graph.set_tree(tree, secondary=legal_move_count(GAME), secondary_name="splits available")
    tree.play(record_moves[-1])
    assert graph.main_values()[-1] == 878_866
    assert graph.hover_text(RECORD_SPLITS) == "move 1196 · score 878,866 · 0 splits available"  # game over


def test_the_graph_marks_a_line_off_the_main_line(graph, record_tree):
    graph.set_tree(record_tree)
    assert graph.departure() is None
    branch = branch_at_1100(record_tree)
    assert graph.departure() == 1100
    graph.grab()  # paints with the current node off the main line
    record_tree.go_to(record_tree.main_line()[1150])
    assert graph.departure() is None
    record_tree.promote(branch)
    assert len(graph.main_values()) == 1102 and graph.departure() == 1100  # 1150 is now off it
