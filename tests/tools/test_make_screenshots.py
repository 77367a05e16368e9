"""docs/make_screenshots.py starts each shot with the window's own command line: the options it
adds must be ones the window takes (a delay past the option's range once failed every shot)."""

from __future__ import annotations

import importlib.util
from pathlib import Path

from app.cli.window import window_parser

SCRIPT = Path(__file__).resolve().parents[2] / "docs" / "make_screenshots.py"


def test_the_screenshot_driver_passes_options_the_window_takes():
    spec = importlib.util.spec_from_file_location("make_screenshots", SCRIPT)
    script = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(script)
    options = window_parser().parse_args(["--game", "hatetris", "--screenshot", "shot.png",
                                          "--screenshot-delay", script.UNUSED_DELAY])
    assert options.screenshot_delay == 600_000  # ten minutes: far past any shot's grab
