"""Boards drawn by Kibitz's own views, as images for the readers: the game's board widget shows a
state offscreen at a given size and its pixels come back as BGR, optionally with camera-like
noise. The state drawn is the expectation, so a reader is checked against the engine, never
against itself."""

from __future__ import annotations

import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import numpy as np  # noqa: E402


def render_board(game_short: str, state, size: tuple[int, int] = (600, 600), noise: float = 0.0,
                 seed: int = 0) -> np.ndarray:
    """The game's own board view showing ``state`` at ``size`` (width, height) pixels, as BGR;
    ``noise`` is the standard deviation of Gaussian noise added to every channel."""
    from PySide6.QtWidgets import QApplication

    from app.gui.capture import image_to_bgr
    from app.gui.games import ui_for
    from engines import GAMES

    QApplication.instance() or QApplication([])
    board = ui_for(game_short).make_board(GAMES[game_short], None)
    board.set_advice_visible(False)
    board.resize(*size)
    board.show_position(state)
    image = image_to_bgr(board.grab().toImage())
    board.deleteLater()
    if noise:
        rng = np.random.default_rng(seed)
        image = np.clip(image + rng.normal(0.0, noise, image.shape), 0, 255).astype(np.uint8)
    return image
