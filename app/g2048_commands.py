"""``kibitz play 2048`` and ``kibitz advise 2048 BOARD``: the expectimax advisor headless."""

from __future__ import annotations

import json
import sys
from pathlib import Path


def add_budget_options(parser) -> None:
    parser.add_argument("--depth", type=int, default=None,
                        help="2048: search this many moves ahead (default: nneonneo's adaptive depth); "
                             "Destruct-o-Match: Irpan's search depth (default 3)")
    parser.add_argument("--ms", type=float, default=None,
                        help="2048: time budget per move in milliseconds (deepens while it fits); "
                             "Destruct-o-Match: the planner's time a click on average (default 150 in play; 400 for "
                             "the ranking of advise)")
    parser.add_argument("--threads", type=int, default=2, help="2048, 1010: search threads (default 2)")


def _budget(args):
    from advisors.g2048 import Budget

    return Budget(depth=args.depth, milliseconds=args.ms)


def read_position(game, argument: str):
    """A position from a board text, or from a file holding a board or a move sequence (its end)."""
    path = Path(argument)
    if "\n" not in argument and path.is_file():
        from engines.files import read_text

        text = read_text(str(path))
        try:
            return game.parse_board(text)
        except ValueError:
            line = game.parse_sequence(text, source=str(path))
            return game.replay(line.start, line.moves)
    return game.parse_board(argument)


def advise(game, args) -> int:
    from advisors.g2048 import Expectimax
    from advisors.g2048.search import candidates
    from app.cli import fail
    from engines.errors import KibitzInputError

    try:
        state = read_position(game, args.file)
        budget = _budget(args)
    except OSError as error:
        return fail(f"{args.file}: cannot read: {error.strerror or error}", args.json, game.short_name)
    except (KibitzInputError, ValueError) as error:
        return fail(str(error), args.json, game.short_name, error if isinstance(error, KibitzInputError) else None)
    if state.spawns_due:
        return fail("a tile is due to spawn: enter it (e.g. 2@0,3) before asking for a slide", args.json,
                    game.short_name)
    evaluation = Expectimax(threads=args.threads).evaluate(state, budget)
    ranked = candidates(evaluation)
    if args.json:
        print(json.dumps({
            "game": game.short_name,
            "board": game.board_text(state),
            "depth": evaluation.depth,
            "evaluations": evaluation.evaluations,
            "milliseconds": round(evaluation.milliseconds, 2),
            "candidates": [
                {"move": c.move.name, "letter": c.move.letter, "legal": c.legal,
                 "expected_value": c.score if c.legal else None, "loss": c.loss if c.legal else None,
                 "explanation": c.explanation}
                for c in ranked
            ],
        }))
        return 0
    print(game.board_text(state))
    print(f"searched {evaluation.depth} moves ahead, {evaluation.evaluations:,} evaluations, "
          f"{evaluation.milliseconds:.0f} ms")
    if not any(c.legal for c in ranked):
        print("game over: no slide moves a tile")
    for number, c in enumerate(ranked, start=1):
        if c.legal:
            print(f"{number}. {c.move.name:<5} {c.score:>12,.0f}  {c.explanation}")
        else:
            print(f"-  {c.move.name:<5} {'illegal':>12}  {c.explanation}")
    return 0


def play(game, args) -> int:
    from advisors.g2048 import Expectimax
    from advisors.g2048.selfplay import play_game, summary

    try:
        budget = _budget(args)
    except ValueError as error:
        print(f"kibitz: {error}", file=sys.stderr)
        return 2
    if args.games < 1:
        print("kibitz: --games is at least 1", file=sys.stderr)
        return 2
    records = []
    for seed in range(args.seed, args.seed + args.games):
        advisor = Expectimax(threads=args.threads)
        record = play_game(seed, advisor, budget, args.max_moves)
        records.append(record)
        if not args.json:
            print(f"seed {record.seed}: score {record.score:,}, max tile {record.max_tile}, {record.moves} moves, "
                  f"{record.ms_per_move:.1f} ms/move{'' if record.over else ' (stopped)'}", flush=True)
    total = summary(records)
    if args.json:
        print(json.dumps({"game": game.short_name, "games": [r.as_json() for r in records], "summary": total}))
        return 0
    reached = ", ".join(f"{tile}: {share:g}%" for tile, share in total["reached_percent"].items())
    games = f"{total['games']} game" + ("s" if total["games"] != 1 else "")
    print(f"{games}: average {total['average_score']:,.0f}, median {total['median_score']:,.0f}, "
          f"{total['ms_per_move']:.1f} ms/move; reached {reached}")
    return 0
