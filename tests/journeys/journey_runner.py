"""Walks the window through the journeys a player takes, on one simulated screen, and prints what
a person would see after each step as JSON lines (run by tests/journeys/test_layouts.py in a
process of its own: the screen is chosen when Qt starts).

    QT_QPA_PLATFORM=offscreen:configfile=SCREEN.json python tests/journeys/journey_runner.py JOURNEY

JOURNEY: ``switches`` (every ordered pair of games, in both layouts, starting each from a new
window), ``layouts`` (each game: analysis -> compact -> analysis -> compact, a resize between).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from PySide6.QtCore import QEventLoop, QRect, QTimer  # noqa: E402
from PySide6.QtWidgets import QApplication, QToolBar  # noqa: E402

GAMES = ("splt", "hatetris", "2048", "1010", "destructo")


def settle(milliseconds: int = 30) -> None:
    """Let Qt lay out and paint (the window's own timers included)."""
    loop = QEventLoop()
    QTimer.singleShot(milliseconds, loop.quit)
    loop.exec()


def seen(window, step: str) -> dict:
    """What a person sees now: sizes and places of the board and panels, in logical pixels."""
    board = window.board
    screen = window.screen().availableGeometry()
    menu_bar = window.menuBar()
    menus = {action.text().replace("&", ""): menu_bar.actionGeometry(action) for action in menu_bar.actions()}
    central = window.centralWidget().geometry()
    panel = window.advisor_panel
    table = panel.table
    advisor_dock, tree_dock = window.advisor_dock, window.tree_dock
    compact = window.layout_name == "compact"
    dock_inner = advisor_dock.widget().geometry()
    table_bottom = table.mapTo(advisor_dock, table.rect().bottomLeft()).y() if table.isVisible() else 0
    toolbars = [bar for bar in window.findChildren(QToolBar) if bar.isVisible()]
    picker = window.analysis_picker
    picker_right = picker.mapTo(window, picker.rect().topRight()).x() if picker.isVisible() else -1
    return {
        "step": step,
        "game": window.game.short_name,
        "layout": window.layout_name,
        "screen": [screen.width(), screen.height()],
        "window": [window.width(), window.height()],
        "frame": [window.frameGeometry().width(), window.frameGeometry().height()],
        "board": [board.width(), board.height()],
        "board_min": [board.minimumSizeHint().width(), board.minimumSizeHint().height()],
        "board_natural": [board.sizeHint().width(), board.sizeHint().height()],
        "board_in_window": QRect(0, 0, window.width(), window.height()).contains(central),
        "menus_cut": [name for name, rect in menus.items() if rect.isEmpty() or rect.right() >= menu_bar.width()],
        "columns_width": panel.columns_width(),
        "table_width": table.viewport().width() if table.isVisible() else None,
        "headers": panel.headers(),
        "hidden_columns": [c for c in range(table.columnCount()) if table.isColumnHidden(c)],
        "advisor_visible": advisor_dock.isVisible(),
        "advisor_width": advisor_dock.width(),
        "moves_visible": tree_dock.isVisible(),
        "moves_width": tree_dock.width() if tree_dock.isVisible() else None,
        "compact_empty_below_table": (advisor_dock.height() - table_bottom) if compact and table.isVisible() else None,
        "dock_inner_height": dock_inner.height(),
        "toolbar_overflow": [bar.objectName() for bar in toolbars if bar.sizeHint().width() > bar.width() + 1],
        "picker_right": picker_right,
        "focus_on_board": QApplication.focusWidget() is board,
        "board_colours": board_colours(board),
        "board_type": type(board).__name__,
        "picker_full": picker.currentText(),
        "picker_shown": picker.shown_text(),
    }


def board_colours(board) -> int:
    """How many colours a 24 x 24 grid of the board's pixels shows (a board left blank or drawn as
    one flat colour shows one or two)."""
    image = board.grab().toImage()
    colours = set()
    for i in range(24):
        for j in range(24):
            x = (2 * i + 1) * image.width() // 48
            y = (2 * j + 1) * image.height() // 48
            colours.add(image.pixel(x, y))
    return len(colours)


def new_window(game: str, layout: str):
    from app.gui.main_window import MainWindow

    window = MainWindow(game)
    window.set_layout(layout)
    window.show()
    window.activateWindow()
    settle(60)
    deal_chance(window)
    return window


def deal_chance(window) -> None:
    """Play the chance steps due (a 2048 spawn, a 1010! deal, a level's board) with a seeded
    draw, so the position has moves and advice, and wait for the advice."""
    import numpy as np

    rng = np.random.default_rng(5)
    game = window.game
    for _ in range(4):
        if not game.is_chance_node(window.state):
            break
        window.play(game.sample_chance(window.state, rng))
    for _ in range(200):
        if not window.rank_pending():
            break
        settle(20)
    settle(30)


def switches() -> None:
    for layout in ("analysis", "compact"):
        for first in GAMES:
            for second in GAMES:
                if first == second:
                    continue
                forget_settings()  # a first start of each game: nothing remembered
                window = new_window(first, layout)
                print(json.dumps(seen(window, f"open {first}")), flush=True)
                window.game_picker.activated.emit(window.game_picker.findData(second))  # as a pick
                settle(60)
                deal_chance(window)
                print(json.dumps(seen(window, f"{first} -> {second}")), flush=True)
                window.close()
                window.deleteLater()
                settle(10)


def forget_settings() -> None:
    from app.gui.settings import open_settings

    settings = open_settings()
    settings.clear()
    settings.sync()


def layouts() -> None:
    for game in GAMES:
        window = new_window(game, "analysis")
        print(json.dumps(seen(window, "analysis")), flush=True)
        window.compact_layout_action.trigger()
        settle(60)
        print(json.dumps(seen(window, "compact")), flush=True)
        window.analysis_layout_action.trigger()
        settle(60)
        print(json.dumps(seen(window, "analysis again")), flush=True)
        window.resize(window.width() - 200, window.height() - 150)  # a person makes it smaller
        settle(250)
        print(json.dumps(seen(window, "analysis smaller")), flush=True)
        window.compact_layout_action.trigger()
        settle(60)
        print(json.dumps(seen(window, "compact again")), flush=True)
        window.close()
        window.deleteLater()
        settle(10)


def main() -> int:
    app = QApplication.instance() or QApplication(sys.argv[:1])
    app.setOrganizationName("Kibitz")
    app.setApplicationName("kibitz")
    {"switches": switches, "layouts": layouts}[sys.argv[1]]()
    return 0


if __name__ == "__main__":
    sys.exit(main())
