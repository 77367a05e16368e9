"""``kibitz replay GAME FILE``: replay a sequence file and report its moves, score and whether
the game is over (HATETRIS: a replay code, typed or in a file)."""

from __future__ import annotations

import json

from app.cli.inputs import add_sequence_arguments, load_line

SUMMARY = "replay a sequence file and report moves, score and whether the game is over"
GENERIC = True


def add_arguments(parser, game) -> None:
    add_sequence_arguments(parser, game)
    parser.add_argument("--json", action="store_true", help="print one JSON object")


def run(game, plug, args) -> int:
    line, final = load_line(game, args.file, args.format, **plug.reading_options(args))
    result = {"game": game.short_name, "moves": len(line.moves), "score": game.score(final),
              "over": game.is_over(final)}
    if args.json:
        print(json.dumps(result))
        return 0
    print(f"{args.file}: {game.title}")
    print(f"moves  {result['moves']}")
    print(f"score  {result['score']}")
    print(f"over   {'yes' if result['over'] else 'no'}")
    return 0
