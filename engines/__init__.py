"""Rules, states, notation and fast kernels of every game Kibitz knows (numpy + numba only).

``GAMES`` maps each game's short name to its :class:`engines.contract.Game`; it is the only place
the app enumerates games. Adding a game means adding its module to ``_GAME_MODULES``.
"""

from __future__ import annotations

import importlib

from engines.contract import Event, Game, Line, Step, check_unique_names
from engines.errors import IllegalMoveError, KibitzInputError, Location, NotationError

_GAME_MODULES = ("engines.splt", "engines.hatetris", "engines.g2048", "engines.tenten", "engines.destructo")



def __getattr__(name: str):
    # GAMES is built on first use: the game modules import engines' own submodules, so building
    # it while this package is still initialising would be circular.
    if name == "GAMES":
        games = check_unique_names([importlib.import_module(m).GAME for m in _GAME_MODULES])
        globals()["GAMES"] = games
        return games
    raise AttributeError(f"module 'engines' has no attribute {name!r}")

__all__ = [
    "GAMES",
    "Event",
    "Game",
    "IllegalMoveError",
    "KibitzInputError",
    "Line",
    "Location",
    "NotationError",
    "Step",
]
