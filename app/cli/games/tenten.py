"""1010! on the command line: ``advise`` (the round planner's ranking on a board, typed or in a
file, or at a sequence's end) and ``play`` (whole games with it)."""

from __future__ import annotations

import argparse
import json
import re

from app.cli.games import GamePlug
from app.cli.inputs import read_position
from app.cli.options import THREADS, whole_number
from engines.errors import KibitzInputError

MAX_LIMIT = 1000
MAX_ROUNDS = 10 ** 9
COMMENT = ";"


def weight_string(text: str):
    """An argparse type: Coelho's weight string, exactly five base-36 digits (0-9, a-z)."""
    from advisors.tenten import Weights

    if not re.fullmatch(r"[0-9a-zA-Z]{5}", text.strip()):
        raise argparse.ArgumentTypeError(f"must be five base-36 digits (0-9, a-z) such as 10025 or 1a0k5, not {text!r}")
    return Weights.parse(text.strip())


def add_weights_option(group) -> None:
    group.add_argument("--weights", type=weight_string, default="10025",
                       help="Coelho's weight string, five base-36 digits for free cells, 5x5 probe, O/H/V probes, "
                       "alignment, compaction (default 10025)")
    group.add_argument("--threads", type=THREADS, default=2, help="search threads, 1 to 256 (default 2)")


def add_advise_options(group) -> None:
    add_weights_option(group)
    group.add_argument("--limit", type=whole_number(1, MAX_LIMIT), default=10,
                       help=f"list this many moves, 1 to {MAX_LIMIT:,} (default 10)")


def add_play_options(group) -> None:
    add_weights_option(group)
    group.add_argument("--rounds-cap", type=whole_number(1, MAX_ROUNDS), default=None,
                       help="stop each game after this many rounds")


def advise(game, args) -> int:
    from advisors.tenten import Planner
    from advisors.tenten.planner import candidates as ranked_candidates

    weights = args.weights
    state, source = read_position(game, args.file, COMMENT)
    if state.deal_due:
        raise KibitzInputError("the tray is empty: enter the deal (e.g. deal:Vi.) or a header 'tray V i .' first",
                               source=source)
    planning = Planner(weights, threads=args.threads).plan(state)
    candidates = ranked_candidates(state, planning, weights, args.limit)
    if args.json:
        print(json.dumps({
            "game": game.short_name,
            "board": game.board_text(state),
            "weights": str(weights),
            "evaluations": planning.leaves,
            "milliseconds": round(planning.milliseconds, 1),
            "candidates": [
                {"move": str(c.move), "plan": [str(p) for p in c.plan.placements], "complete": c.plan.complete,
                 "value": c.score, "loss": c.loss, "points": c.plan.final.score - state.score,
                 "explanation": c.explanation}
                for c in candidates
            ],
        }))
        return 0
    print(game.board_text(state))
    print(f"{len(planning.plans)} first placements, {planning.leaves:,} plans evaluated, "
          f"{planning.milliseconds:.0f} ms (weights {weights})")
    if not candidates:
        print("game over: no piece in the tray fits")
    for number, c in enumerate(candidates, start=1):
        print(f"{number:>2}. {str(c.move):<7} {c.score:>10.4f}  {c.explanation}")
    return 0


def play(game, args) -> int:
    from advisors.tenten import Planner
    from advisors.tenten.selfplay import play_game, summary

    from app.cli.play import seeds

    weights = args.weights
    planner = Planner(weights, threads=args.threads)
    records = []
    for seed in seeds(args):
        record = play_game(seed, planner, args.rounds_cap)
        records.append(record)
        if not args.json:
            print(f"seed {record.seed}: score {record.score:,}, {record.rounds:,} rounds, "
                  f"{record.ms_per_round:.2f} ms/round{'' if record.over else ' (stopped at the cap)'}", flush=True)
    total = summary(records)
    if args.json:
        print(json.dumps({"game": game.short_name, "weights": str(weights), "games": [r.as_json() for r in records],
                          "summary": total}))
        return 0
    games = f"{total['games']} game" + ("s" if total["games"] != 1 else "")
    ended = total["games_ended"]
    estimate = (f"mean rounds per game ≈ {total['mean_rounds_estimate']:,.0f} ({total['rounds']:,} rounds over "
                f"{ended} games ended)" if ended else "no game ended")
    print(f"{games}: average score {total['average_score']:,.0f}, {total['ms_per_round']:.2f} ms/round; {estimate}")
    return 0


PLUG = GamePlug(
    options={"advise": add_advise_options, "play": add_play_options},
    work={"advise": advise, "play": play},
    comment=COMMENT,
)
