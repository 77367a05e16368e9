"""Vision: capture a screen region and read a game's board from it (built on ``engines`` only).

``read(game, image)`` dispatches to ``vision.<module>.read`` for the game's short name; each
reader finds the board in the image by itself and returns a :class:`Reading` or raises
:class:`NoBoardFound`. ``vision.capture.grab(region)`` takes the image from the screen.
"""

from __future__ import annotations

import importlib
from typing import Any

import numpy as np

from vision.reading import DOUBTFUL_BELOW, NoBoardFound, Reading

#: The reader module of each game, by the game's short name (as in ``engines.GAMES``).
READER_MODULES = {
    "splt": "vision.splt",
    "hatetris": "vision.hatetris",
    "2048": "vision.g2048",
    "1010": "vision.tenten",
    "destructo": "vision.destructo",
}


def reader(game: str):
    """The reader module of ``game`` (it has ``read(image, previous=None) -> Reading``)."""
    try:
        module_name = READER_MODULES[game]
    except KeyError:
        raise ValueError(f"no board reader for game {game!r}; readers: {', '.join(READER_MODULES)}") from None
    return importlib.import_module(module_name)


def read(game: str, image: np.ndarray, previous: Any = None) -> Reading:
    """Read ``game``'s board from ``image`` (BGR; grey, BGRA and 16-bit images are converted).
    ``previous``, the state before (if known), lets the reader prefer a state reachable from it.
    Raises :class:`NoBoardFound` -- also for an array no reader can take (empty, too small or too
    large, floats: see ``vision.images.board_image``)."""
    return reader(game).read(image, previous=previous)  # each reader checks the image first


__all__ = ["DOUBTFUL_BELOW", "NoBoardFound", "READER_MODULES", "Reading", "read", "reader"]
