"""What the command line needs to know about each game, keyed like :data:`engines.GAMES`.

A game's module here exposes ``PLUG``, a :class:`GamePlug`: the options each verb takes for that
game (with their limits and defaults) and the work of the verbs that differ between games. Adding a
game means adding one entry to ``_PLUG_MODULES``; a game without one still replays, converts and
reads screenshots.
"""

from __future__ import annotations

import argparse
import dataclasses
import importlib
from collections.abc import Callable, Mapping
from typing import Any

_PLUG_MODULES = {"splt": "app.cli.games.splt", "hatetris": "app.cli.games.hatetris", "2048": "app.cli.games.g2048",
                 "1010": "app.cli.games.tenten", "destructo": "app.cli.games.destructo"}

#: adds a game's own options for one verb to that verb's parser (an argument group titled with the game)
AddOptions = Callable[[argparse._ArgumentGroup], None]
#: a verb's work for one game: (game, parsed options) -> exit code; raises KibitzInputError for bad input
Work = Callable[[Any, argparse.Namespace], int]


@dataclasses.dataclass(frozen=True)
class GamePlug:
    """The command line's plug for one game.

    - ``options[verb]`` adds the game's own options of ``verb`` (``advise``'s ``--depth`` for 2048);
    - ``work[verb]`` does a verb whose work differs between games (``advise``, ``play``, ``search``,
      ``bench``; ``replay`` when the game replays otherwise); a verb missing here is the verb's
      generic work, or, for those that have none, not offered for the game;
    - ``comment``: how a comment line starts in the game's files (to find the first token);
    - ``reading_options(args)``: what the game's sequence reader takes from the options besides
      the text (HATETRIS: the rules, ``--mild``);
    - ``review_options(args)``: what the game's reviewer (``advisors.<game>.review.Reviewer``)
      takes from ``review``'s options (2048: the depth).
    """

    options: Mapping[str, AddOptions] = dataclasses.field(default_factory=dict)
    work: Mapping[str, Work] = dataclasses.field(default_factory=dict)
    comment: str = "#"
    reading_options: Callable[[argparse.Namespace], dict[str, Any]] = lambda args: {}
    review_options: Callable[[argparse.Namespace], dict[str, Any]] = lambda args: {}


NO_PLUG = GamePlug()


def review_options_adder(short_name: str, before: AddOptions | None = None) -> AddOptions:
    """``review``'s options for a game, made from its reviewer's ``OPTIONS`` (their one home: the
    window's controls come from there too): a switch ``--name``, or ``--name N`` within the
    bounds, with the reviewer's default; ``before`` adds the game's other options first."""

    def add(group) -> None:
        from advisors.review import option_defaults, reviewer_module
        from app.cli.options import whole_number

        if before is not None:
            before(group)
        module = reviewer_module(short_name)
        defaults = option_defaults(short_name)
        for name, (_, does, low, high) in module.OPTIONS.items():
            flag = "--" + name.replace("_", "-")
            if low is None:
                group.add_argument(flag, action="store_true", help=does)
            else:
                group.add_argument(flag, type=whole_number(low, high), default=defaults[name],
                                   help=f"{does}, {low:,} to {high:,} (default {defaults[name]:,})")

    return add


def review_option_values(short_name: str) -> Callable[[argparse.Namespace], dict[str, Any]]:
    """What the game's reviewer takes from ``review``'s parsed options."""

    def values(args: argparse.Namespace) -> dict[str, Any]:
        from advisors.review import reviewer_module

        return {name: getattr(args, name) for name in reviewer_module(short_name).OPTIONS}

    return values


def plug(short_name: str) -> GamePlug:
    """The plug of the game ``short_name`` (an empty one for a game without)."""
    module = _PLUG_MODULES.get(short_name)
    return importlib.import_module(module).PLUG if module else NO_PLUG


def games_doing(verb: str) -> list[str]:
    """The short names of the games that have their own work for ``verb``."""
    from engines import GAMES

    return [name for name in GAMES if verb in plug(name).work]
