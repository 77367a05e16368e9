"""Reviewing a line in the window, the way a player does it: Moves ▸ Review this line on the 1196
SPL-T record, the marks it leaves (move list, score graph, Review panel), next mistake, cancel,
training, the exports and a restart.

Expected values come from the record and playAssist's window at split 1006 (spec 3.7: box [108],
the split 3,2,1,2, weight 222, the position after 1006 splits), from the two different code paths
that must agree (the advisor panel's ranking and the review of the move), and from the game's
written thresholds; the window must stay responsive (no event-loop gap over 50 ms) while the 1,196
moves are reviewed.
"""

from __future__ import annotations

import csv
import io
import json
import time

import numpy as np
import pytest
from PySide6.QtCore import QTimer
from PySide6.QtGui import QColor
from PySide6.QtWidgets import QApplication

from advisors.review import MISTAKE, from_json
from app.gui.review_style import CLASS_RGB
from engines import GAMES
from engines.contract import Line

SPLT = GAMES["splt"]


@pytest.fixture(scope="module")
def record_line(reference_data) -> Line:
    path = reference_data / "splt" / "1196seq.txt"
    return SPLT.parse_sequence(path.read_text(), source=str(path))


def open_record(qtbot, window, line: Line) -> None:
    qtbot.waitUntil(lambda: not window.is_preparing(), timeout=120_000)
    window.apply_line(line)
    assert window.tree.current.move_number == 1196


def review_and_wait(qtbot, window, timeout: int = 60_000) -> None:
    window.review_action.trigger()
    qtbot.waitUntil(lambda: not window.review.is_running(), timeout=timeout)


def test_reviewing_the_1196_record_marks_it_and_keeps_the_window_responsive(qtbot, window, record_line):
    open_record(qtbot, window, record_line)
    qtbot.wait(1500)  # the line's own arrival settles first (the editor re-checks 1,196 moves)
    gaps: list[float] = []
    last = [time.perf_counter()]

    def tick() -> None:
        now = time.perf_counter()
        gaps.append(now - last[0])
        last[0] = now

    began = time.perf_counter()
    window.review_action.trigger()
    assert window.review_dock.isVisible() and window.review.panel.cancel_button.isVisible()
    # The Review tab comes forward: Qt repaints the board with it (as when the tab is clicked by
    # hand, ~50 ms for this board); what is measured is the window while the review runs.
    QApplication.processEvents()
    last[0] = time.perf_counter()
    timer = QTimer()
    timer.timeout.connect(tick)
    timer.start(5)
    qtbot.waitUntil(lambda: not window.review.is_running(), timeout=60_000)
    seconds = time.perf_counter() - began
    timer.stop()
    assert seconds <= 10.0, f"the review took {seconds:.1f} s"
    assert max(gaps) < 0.050, f"the window stalled {max(gaps) * 1000:.0f} ms during the review: {[(i, round(g * 1000)) for i, g in enumerate(gaps) if g > 0.03]} of {len(gaps)}"
    assert window.message_label.text().startswith("Review done: 1196 moves reviewed")

    nodes = window.tree.line_nodes()
    assert all(node.review is not None for node in nodes[1:])
    at_1006 = nodes[1007].review  # the move played from the position of playAssist.png
    assert (at_1006.move, at_1006.best, round(at_1006.value), at_1006.loss) == ("3,2,1,2", "3,2,1,2", 222, 0.0)
    assert dict(at_1006.extras)["played box"] == 108
    # the panel: one row per move, the summary's counts are the classes of the rows
    panel = window.review.panel
    qtbot.waitUntil(lambda: panel.model.rowCount() == 1196, timeout=5_000)
    flagged = [node for node in nodes[1:] if node.review.flagged]
    text = panel.summary_label.text()
    assert "1196 moves" in text and "Costliest" in text and "inaccuracy ?! ≥ 10 weight" in text
    # the move list marks every flagged move with its symbol, and no other
    rows = window.tree_view.row_texts()
    for node in nodes[1:]:
        marked = any(row.startswith(f"{node.move_number}. ") and f" {node.review.symbol} " in row
                     for row in rows[node.move_number - 1:node.move_number]) if node.review.symbol else True
        assert marked, node.move_number
    assert sum(1 for row in rows if row.split()[2] in ("?!", "?", "??")) == len(flagged)
    # next mistake from the start walks the flagged moves in order
    window.go_start()
    window.next_mistake_action.trigger()
    assert window.tree.current is flagged[0]
    window.next_mistake_action.trigger()
    assert window.tree.current is flagged[1]
    window.previous_mistake_action.trigger()
    assert window.tree.current is flagged[0]


def test_loss_bars_sit_under_the_graph_in_their_class_colour(qtbot, window, record_line):
    open_record(qtbot, window, record_line)
    review_and_wait(qtbot, window)
    graph = window.score_graph
    bars = graph.loss_bars()
    main = window.tree.main_line()
    assert len(bars) == sum(1 for node in main[1:] if node.review.loss > 0)
    strip = graph.loss_strip()
    assert strip.top() >= graph.plot_rect().bottom()  # under the plot, not over the curve
    image = graph.grab().toImage()
    ratio = image.devicePixelRatio()
    mistakes = [rect for _, classification, rect in bars if classification == MISTAKE]
    assert mistakes
    for rect in mistakes:
        centre = rect.center()
        pixel = QColor(image.pixel(int(centre.x() * ratio), int((rect.bottom() - 1) * ratio)))
        assert (pixel.red(), pixel.green(), pixel.blue()) == CLASS_RGB[MISTAKE]
    # a click on a bar goes to its move
    number = next(n for n, classification, _ in bars if classification == MISTAKE)
    x = graph.x_for_move(number)
    from PySide6.QtCore import QPoint, Qt

    qtbot.mouseClick(graph, Qt.MouseButton.LeftButton, pos=QPoint(round(x), round(strip.center().y())))
    moves_per_pixel = len(main) / graph.plot_rect().width()  # the graph is ~130 px wide for 1,196 moves
    assert abs(window.tree.current.move_number - number) <= moves_per_pixel + 1


def test_closing_the_window_mid_review_keeps_the_rows_made(qtbot, make_window, record_line):
    first = make_window()
    open_record(qtbot, first, record_line)
    first.review_action.trigger()
    qtbot.waitUntil(lambda: first.review.panel.progress.value() >= 100, timeout=60_000)
    first.close()
    assert not first.review.is_running()
    second = make_window()
    qtbot.waitUntil(lambda: not second.is_preparing(), timeout=120_000)
    reviewed = [node for node in second.tree.line_nodes()[1:] if node.review is not None]
    assert len(reviewed) >= 100
    assert [node.move_number for node in reviewed] == list(range(1, len(reviewed) + 1))


def test_a_killed_review_process_keeps_the_rows_it_sent(qtbot, window, record_line):
    open_record(qtbot, window, record_line)
    window.review_action.trigger()
    qtbot.waitUntil(lambda: window.review.panel.progress.value() >= 100, timeout=60_000)
    window.review._worker.process.kill()
    qtbot.waitUntil(lambda: not window.review.is_running(), timeout=10_000)
    text = window.message_label.text()
    assert text.startswith("The review failed after") and "exit code -9" in text
    kept = sum(1 for node in window.tree.line_nodes()[1:] if node.review is not None)
    assert kept >= 100
    review_and_wait(qtbot, window)  # a new process; only the rest is reviewed
    assert window.message_label.text().startswith(f"Review done: {1196 - kept} moves reviewed")


def test_moves_deleted_mid_review_lose_their_rows_and_the_message_says_so(qtbot, window, record_line):
    open_record(qtbot, window, record_line)
    window.review_action.trigger()
    qtbot.waitUntil(lambda: window.review.panel.progress.value() >= 10, timeout=60_000)
    window.tree.delete(window.tree.line_nodes()[600])  # moves 600-1196 go
    qtbot.waitUntil(lambda: not window.review.is_running(), timeout=60_000)
    text = window.message_label.text()
    assert text.startswith("Review done: 599 moves reviewed") and "(597 more were deleted meanwhile)" in text
    assert all(node.review is not None for node in window.tree.line_nodes()[1:])


def test_a_cancelled_review_keeps_its_rows_and_the_next_one_finishes_the_rest(qtbot, window, record_line):
    open_record(qtbot, window, record_line)
    panel = window.review.panel
    window.review_action.trigger()
    qtbot.waitUntil(lambda: panel.progress.value() > 0, timeout=60_000)
    qtbot.mouseClick(panel.cancel_button, __import__("PySide6.QtCore").QtCore.Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: not window.review.is_running(), timeout=30_000)
    assert window.message_label.text().startswith("Review cancelled")
    reviewed = sum(1 for node in window.tree.line_nodes()[1:] if node.review is not None)
    assert 0 < reviewed < 1196
    assert panel.review_button.isVisible() and not panel.progress.isVisible()
    review_and_wait(qtbot, window)
    assert window.message_label.text().startswith(f"Review done: {1196 - reviewed} moves reviewed")
    assert all(node.review is not None for node in window.tree.line_nodes()[1:])
    window.review_action.trigger()  # nothing left to do, and it says so
    assert not window.review.is_running()
    assert window.message_label.text() == "Every move of this line is reviewed already (1196, with weights)"


def test_reviews_come_back_after_a_restart_and_export_and_import(qtbot, make_window, record_line, tmp_path):
    first = make_window()
    open_record(qtbot, first, record_line)
    review_and_wait(qtbot, first)
    csv_path = first.review.export("csv", str(tmp_path / "review.csv"))
    json_path = first.review.export("json", str(tmp_path / "review.json"))
    first.close()

    table = list(csv.reader(io.StringIO((tmp_path / "review.csv").read_text())))
    assert csv_path and table[0][:7] == ["number", "move", "best", "value", "played_value", "loss", "class"]
    assert len(table) == 1 + 1196 and table[1007][1:3] == ["3,2,1,2", "3,2,1,2"]
    loaded = from_json(GAMES, (tmp_path / "review.json").read_text(), json_path)
    assert len(loaded.rows) == 1196 and loaded.line.moves == record_line.moves

    second = make_window()  # a new start of Kibitz: the session's reviews are there at once
    qtbot.waitUntil(lambda: not second.is_preparing(), timeout=120_000)
    nodes = second.tree.line_nodes()
    assert len(nodes) == 1197 and all(node.review is not None for node in nodes[1:])
    assert not second.review.is_running()
    second.review_dock.show()
    second.review_dock.raise_()
    qtbot.waitUntil(lambda: second.review.panel.model.rowCount() == 1196, timeout=5_000)

    # Import into a fresh game: the line joins the tree with its reviews
    second.new_game()
    assert second.review.import_file(json_path, add_line=second._tree_for_review)
    imported = second.tree.line_nodes()
    assert len(imported) == 1197 and imported[1007].review.best == "3,2,1,2"


def test_a_damaged_review_file_is_refused_and_changes_nothing(qtbot, window, tmp_path):
    qtbot.waitUntil(lambda: not window.is_preparing(), timeout=120_000)
    path = tmp_path / "bad.json"
    path.write_text(json.dumps({"format": "kibitz-review", "version": 1, "game": "splt",
                                "start": SPLT.board_text(SPLT.initial_state()), "moves": ["0,0,8,16"],
                                "rows": [{"number": 1, "move": "0,0,8,16", "best": "0,0,8,16", "value": 1,
                                          "played_value": 1, "loss": -3, "class": "best", "settings": "weights"}]}))
    before = len(window.tree)
    assert not window.review.import_file(str(path), add_line=window._tree_for_review)
    assert "Cannot import the review" in window.message_label.text() and "negative" in window.message_label.text()
    assert str(path) in window.message_label.text()
    assert len(window.tree) == before


def test_training_hides_the_choice_until_the_player_has_chosen(qtbot, window, record_line):
    qtbot.waitUntil(lambda: not window.is_preparing(), timeout=120_000)
    window.tree.add_line(record_line.moves[:26])
    window.tree.go_to(window.tree.path(window.tree.add_line(record_line.moves[:26]))[-1])
    assert window.tree.current.move_number == 26
    window.training_action.trigger()
    assert window.advisor_panel.candidate_count() == 0
    assert "Training" in window.advisor_panel.summary_label.text()
    window.play_best_action.trigger()  # Space plays nothing: the player chooses
    assert window.tree.current.move_number == 26
    played = record_line.moves[26]
    assert window.play(played)
    node = window.tree.current
    qtbot.waitUntil(lambda: node.review is not None, timeout=10_000)
    assert window.message_label.text().startswith(f"You played {SPLT.move_text(played)}")
    # back at the position: the player has chosen there, so the advisor's ranking shows, and its
    # best is the move the review named
    window.undo_action.trigger()
    qtbot.waitUntil(lambda: window.advisor_panel.candidate_count() > 0, timeout=10_000)
    assert SPLT.move_text(window.advisor_panel.candidates()[0].move) == node.review.best
    assert node.review.loss == pytest.approx(window.advisor_panel.candidates()[0].score - next(
        c.score for c in window.advisor_panel.candidates() if c.move == Line(None, (played,)).moves[0]
        or SPLT.move_text(c.move) == SPLT.move_text(played)))
    window.training_action.trigger()  # off: the advisor shows everywhere again
    window.redo_action.trigger()
    qtbot.waitUntil(lambda: window.advisor_panel.candidate_count() > 0, timeout=10_000)


def _seeded_2048_line(seed: int, slides: int) -> Line:
    game = GAMES["2048"]
    rng = np.random.default_rng(seed)
    state = start = game.initial_state()
    moves = []
    while len([m for m in moves if not hasattr(m, "value")]) < slides and not game.is_over(state):
        if game.is_chance_node(state):
            move = game.sample_chance(state, rng)
        else:
            legal = game.legal_moves(state)
            move = legal[int(rng.integers(len(legal)))]
        moves.append(move)
        state = game.play(state, move).state
    return Line(start, tuple(moves))


def test_changed_settings_mark_a_review_stale_and_the_next_review_redoes_it(qtbot, window):
    qtbot.waitUntil(lambda: not window.is_preparing(), timeout=120_000)
    window.game_picker.setCurrentIndex(window.game_picker.findData("2048"))
    window.game_picker.activated.emit(window.game_picker.currentIndex())
    qtbot.waitUntil(lambda: window.game.short_name == "2048" and not window.is_preparing(), timeout=120_000)
    line = _seeded_2048_line(5, 12)
    window.apply_line(line)
    window.review.set_option("depth", 1)
    review_and_wait(qtbot, window)
    slides = [node for node in window.tree.line_nodes()[1:] if node.review is not None]
    assert len(slides) == 12 and {node.review.settings for node in slides} == {"depth 1"}
    # every random slide's class follows the written thresholds (2048: share of the best value)
    thresholds = window.review.thresholds()
    for node in slides:
        assert node.review.classification == thresholds.classify(node.review.loss, node.review.value)
    window.review_dock.show()
    window.review.set_option("depth", 2)
    assert "12 stale" in window.review.panel.summary_label.text()
    assert window.review.panel.model.text(0, 5).endswith("(stale)")
    review_and_wait(qtbot, window)
    assert {node.review.settings for node in slides} == {"depth 2"}
    assert "stale" not in window.review.panel.summary_label.text()
    # the rows follow the search: a slide's loss at depth 2 is the advisor's own loss for it there
    from advisors.g2048.search import Budget, Expectimax

    search = Expectimax(threads=1)
    for node in slides[:4]:
        values = search.evaluate(node.parent.state, Budget(depth=2)).values
        best = max(value for value in values if value is not None)
        assert node.review.value == pytest.approx(best, rel=1e-12)
        assert node.review.played_value == pytest.approx(values[node.move.direction], rel=1e-12)


def test_importing_a_review_of_a_game_not_prepared_asks_for_it_and_changes_nothing(qtbot, window, tmp_path,
                                                                                    monkeypatch):
    from advisors.review import reviewer_for, review_line, to_json

    qtbot.waitUntil(lambda: not window.is_preparing(), timeout=120_000)
    line = _seeded_2048_line(3, 3)
    game = GAMES["2048"]
    path = tmp_path / "2048-review.json"
    path.write_text(to_json(game, line, review_line(game, reviewer_for("2048", depth=1), line)))
    asked = []
    monkeypatch.setattr(window.preparation, "is_ready", lambda name: name != "2048")
    monkeypatch.setattr(window.preparation, "request", lambda name, first=False: asked.append((name, first)))
    analyses = len(window.session.analyses)
    assert not window.review.import_file(str(path), add_line=window._tree_for_review)
    assert asked == [("2048", True)]
    assert window.message_label.text().startswith("Kibitz is preparing 2048 first")
    assert window.game.short_name == "splt" and len(window.session.analyses) == analyses


def test_a_reviewed_variation_has_its_own_loss_bars(qtbot, window, record_line):
    from PySide6.QtCore import QPoint, Qt

    from advisors.splt import weights
    from engines.splt import Move as SpltMove

    open_record(qtbot, window, record_line)
    window.tree.go_to(window.tree.line_nodes()[1000])
    for _ in range(4):  # the lowest-weighted split each time: a loss wherever the weights differ
        state = window.tree.state
        legal = [i for i, box in enumerate(state.boxes) if box.can_split(state.orientation)]
        values = weights.weights(state)
        worst = min(legal, key=lambda index: (values[index], index))
        assert values[worst] < max(values[i] for i in legal)
        window.play(SpltMove.of(state.boxes[worst]))
    variation = window.tree.line_nodes()
    assert not variation[-1].is_main_line and len(variation) == 1005
    review_and_wait(qtbot, window)
    graph = window.score_graph
    own = [(number, rect) for number, _, rect in graph.loss_bars() if number > 1000]
    assert [number for number, _ in own] == [1001, 1002, 1003, 1004]
    window.tree.go_to(variation[1])  # back on the main line: its own bars, not the variation's
    assert all(number <= 1196 for number, _, _ in graph.loss_bars())
    window.tree.go_to(variation[-1])
    number, rect = own[1]
    strip = graph.loss_strip()
    qtbot.mouseClick(graph, Qt.MouseButton.LeftButton, pos=QPoint(round(rect.center().x()), round(strip.center().y())))
    # the strip's move of the line shown, to the graph's resolution (1,196 moves on ~130 px)
    moves_per_pixel = 1196 / graph.plot_rect().width()
    assert any(window.tree.current is node for node in variation)
    assert abs(window.tree.current.move_number - number) <= moves_per_pixel + 1


def test_a_review_in_the_compact_layout_leaves_the_board_its_room(qtbot, window, record_line):
    open_record(qtbot, window, record_line)
    window.compact_layout_action.trigger()
    qtbot.wait(300)
    board = window.board.size()
    window.review_action.trigger()
    assert not window.review_dock.isVisible()
    assert "analysis layout (Ctrl+1)" in window.message_label.text()
    qtbot.waitUntil(lambda: not window.review.is_running(), timeout=60_000)
    assert window.message_label.text().startswith("Review done: 1196 moves reviewed")
    assert window.board.size() == board and not window.review_dock.isVisible()
    window.analysis_layout_action.trigger()
    window.review_dock.show()
    qtbot.waitUntil(lambda: window.review.panel.model.rowCount() == 1196, timeout=5_000)
