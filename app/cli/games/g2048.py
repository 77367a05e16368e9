"""2048 on the command line: ``advise`` (the expectimax ranking of the four slides on a board,
typed or in a file, or at a sequence's end) and ``play`` (whole games with it)."""

from __future__ import annotations

import json

from app.cli.games import GamePlug, review_option_values, review_options_adder
from app.cli.inputs import read_position
from app.cli.options import THREADS, number, whole_number
from engines.errors import KibitzInputError

#: the deepest fixed search taken (each level multiplies the work by about 30)
MAX_DEPTH = 10
MAX_MILLISECONDS = 600_000
MAX_MOVES = 10 ** 9


def add_budget_options(group) -> None:
    group.add_argument("--depth", type=whole_number(1, MAX_DEPTH), default=None,
                       help=f"search this many moves ahead, 1 to {MAX_DEPTH} (default: nneonneo's adaptive depth)")
    group.add_argument("--ms", type=number(0, MAX_MILLISECONDS), default=None,
                       help="time budget per move in milliseconds, deepening while it fits (above 0, at most "
                       f"{MAX_MILLISECONDS:,})")
    group.add_argument("--threads", type=THREADS, default=2, help="search threads, 1 to 256 (default 2)")


def add_play_options(group) -> None:
    add_budget_options(group)
    group.add_argument("--max-moves", type=whole_number(1, MAX_MOVES), default=None,
                       help="stop each game after this many slides")


def _budget(args):
    from advisors.g2048 import Budget

    return Budget(depth=args.depth, milliseconds=args.ms)


def advise(game, args) -> int:
    from advisors.g2048 import Expectimax
    from advisors.g2048.search import candidates

    state, source = read_position(game, args.file)
    if state.spawns_due:
        raise KibitzInputError("a tile is due to spawn: enter it (e.g. 2@0,3) before asking for a slide",
                               source=source)
    if state.max_tile == 0:
        raise KibitzInputError("the board is empty: a game starts with two tiles; enter them (e.g. 2@0,0 2@0,3) "
                               "before asking for a slide", source=source)
    evaluation = Expectimax(threads=args.threads).evaluate(state, _budget(args))
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
    for number_shown, c in enumerate(ranked, start=1):
        if c.legal:
            print(f"{number_shown}. {c.move.name:<5} {c.score:>12,.0f}  {c.explanation}")
        else:
            print(f"-  {c.move.name:<5} {'illegal':>12}  {c.explanation}")
    return 0


def play(game, args) -> int:
    from advisors.g2048 import Expectimax
    from advisors.g2048.selfplay import play_game, summary

    from app.cli.play import seeds

    budget = _budget(args)
    records = []
    for seed in seeds(args):
        record = play_game(seed, Expectimax(threads=args.threads), budget, args.max_moves)
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


PLUG = GamePlug(
    options={"advise": add_budget_options, "play": add_play_options, "review": review_options_adder("2048")},
    work={"advise": advise, "play": play},
    review_options=review_option_values("2048"),
)
