"""``kibitz play GAME``: play whole games with the advisor and report the scores (2048, 1010!,
Destruct-o-Match). Each game's plug plays and prints."""

from __future__ import annotations

from app.cli.options import SEED, whole_number

SUMMARY = "play whole games with the advisor and report the scores (2048, 1010, destructo)"
GENERIC = False

#: games one run plays at most
MAX_GAMES = 100_000


def add_arguments(parser, game) -> None:
    parser.add_argument("game")
    parser.add_argument("--games", type=whole_number(1, MAX_GAMES), default=1,
                        help=f"how many games, 1 to {MAX_GAMES:,} (seeds SEED, SEED+1, ...; default 1)")
    parser.add_argument("--seed", type=SEED, default=1, help="the first game's seed, 0 to 2^32-1 (default 1)")
    parser.add_argument("--json", action="store_true", help="print one JSON object")


def seeds(args) -> range:
    """The seeds of the games to play."""
    return range(args.seed, args.seed + args.games)
