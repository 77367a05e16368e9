"""``kibitz bench [GAME]``: measure the engine's speed (SPL-T: random playouts on one core). The
measurement itself is the game's (:mod:`app.cli.games.splt` for SPL-T)."""

from __future__ import annotations

SUMMARY = "measure engine speed (random playouts, one core)"
GENERIC = False
DEFAULT_GAME = "splt"


def add_arguments(parser, game) -> None:
    parser.add_argument("game", nargs="?", default=DEFAULT_GAME, help="short name of the game (default splt)")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
