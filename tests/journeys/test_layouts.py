"""Every game switch (20 ordered pairs) in both layouts, and the layout toggles with a resize, on
the screens players have: what a person sees after each step (tests/journeys/journey_runner.py
walks the window in a process of its own, whose Qt starts on the simulated screen)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

RUNNER = Path(__file__).with_name("journey_runner.py")
#: (name, logical width, logical height, device-pixel ratio)
SCREENS = (
    ("laptop 1366x768", 1366, 768, 1),
    ("desktop 1920x1080", 1920, 1080, 1),
    ("HiDPI laptop 2732x1536 at ratio 2", 1366, 768, 2),
    ("4K monitor 3840x2160 at ratio 2", 1920, 1080, 2),
)
WINDOW_FRAME = 40  # the title bar and borders a window manager adds (the window must fit with them)
MOVES_MINIMUM = 200


def walk(journey: str, screen: tuple, tmp_path: Path) -> list[dict]:
    name, width, height, ratio = screen
    config = tmp_path / "screen.json"
    config.write_text(json.dumps({"screens": [{
        "name": "screen", "x": 0, "y": 0, "width": width, "height": height,
        "logicalDpi": 96, "logicalBaseDpi": 96, "dpr": ratio,
    }]}))
    environment = {**os.environ, "QT_QPA_PLATFORM": f"offscreen:configfile={config}"}
    finished = subprocess.run([sys.executable, str(RUNNER), journey], env=environment, capture_output=True,
                              text=True, timeout=600)
    assert finished.returncode == 0, finished.stderr[-3000:]
    steps = [json.loads(line) for line in finished.stdout.splitlines() if line.startswith("{")]
    assert steps, finished.stderr[-3000:]
    return steps


def problems(step: dict) -> list[str]:
    """What a person would object to in this step ([] when it looks right)."""
    found = []
    board, least, natural = step["board"], step["board_min"], step["board_natural"]
    if board[0] < least[0] or board[1] < least[1]:
        found.append(f"board {board} below its readable minimum {least}")
    if step["board_colours"] < 2 or step["board_type"] in ("PreparingBoard", "PlaceholderBoard"):
        found.append(f"the board ({step['board_type']}) shows {step['board_colours']} colour(s): not drawn")
    if not step["board_in_window"]:
        found.append("the board reaches outside the window")
    if step["menus_cut"]:
        found.append(f"menus cut off: {step['menus_cut']}")
    if step["advisor_visible"] and step["table_width"] is not None and step["columns_width"] > step["table_width"]:
        found.append(f"advisor columns need {step['columns_width']} px, the table shows {step['table_width']}")
    if step["moves_visible"] and step["moves_width"] < MOVES_MINIMUM:
        found.append(f"moves panel {step['moves_width']} px wide")
    screen = step["screen"]
    if step["window"][0] > screen[0] or step["window"][1] + WINDOW_FRAME > screen[1]:
        found.append(f"window {step['window']} does not fit the screen {screen} with its frame")
    if step["layout"] == "compact":
        if step["compact_empty_below_table"] is not None and step["compact_empty_below_table"] > 12:
            found.append(f"{step['compact_empty_below_table']} px empty under the candidates")
        if "gameToolbar" in step["toolbar_overflow"] or step["picker_right"] < 0:
            found.append("the analysis picker is hidden")
        if step["picker_right"] > step["window"][0]:
            found.append("the analysis picker is cut")
    else:
        # the board gets its natural width for the height it has, unless the screen is too narrow
        wanted = min(natural[0], round(natural[0] * board[1] / natural[1]))
        if board[0] + 2 < wanted and step["window"][0] < screen[0] - WINDOW_FRAME:
            found.append(f"board {board} narrower than its natural {wanted} px for its height")
    if step["picker_shown"] != step["picker_full"] and "…" not in step["picker_shown"]:
        found.append(f"the analysis name {step['picker_full']!r} is clipped to {step['picker_shown']!r} without '…'")
    if not step["focus_on_board"]:
        found.append("the board does not have the keyboard focus")
    return found


@pytest.mark.parametrize("screen", SCREENS, ids=[screen[0] for screen in SCREENS])
def test_every_game_switch_in_both_layouts_leaves_a_readable_board(screen, tmp_path):
    steps = walk("switches", screen, tmp_path)
    switched = [step for step in steps if "->" in step["step"]]
    assert len(switched) == 40  # 20 ordered pairs x 2 layouts
    report = {f"{step['layout']} {step['step']}": problems(step) for step in steps}
    assert {where: found for where, found in report.items() if found} == {}


@pytest.mark.parametrize("screen", SCREENS, ids=[screen[0] for screen in SCREENS])
def test_layout_toggles_and_a_resize_keep_every_game_readable(screen, tmp_path):
    steps = walk("layouts", screen, tmp_path)
    assert len(steps) == 25
    report = {f"{step['game']} {step['step']}": problems(step) for step in steps}
    assert {where: found for where, found in report.items() if found} == {}
    # the compact window is narrower than the analysis one for every game
    for game in ("splt", "hatetris", "2048", "1010", "destructo"):
        analysis = next(s for s in steps if s["game"] == game and s["step"] == "analysis")
        compact = next(s for s in steps if s["game"] == game and s["step"] == "compact")
        assert compact["window"][0] < analysis["window"][0], game
