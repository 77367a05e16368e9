"""``kibitz play 1010`` and ``kibitz advise 1010 BOARD``: the round planner headless."""

from __future__ import annotations

import json
import sys


def add_options(parser) -> None:
    parser.add_argument("--weights", default="10025",
                        help="1010!: Coelho's weight string, five base-36 digits for free cells, 5x5 probe, "
                             "O/H/V probes, alignment, compaction (default 10025)")


def _weights(args):
    from advisors.tenten import Weights

    return Weights.parse(args.weights)


def advise(game, args) -> int:
    from advisors.tenten import Planner
    from advisors.tenten.planner import candidates as ranked_candidates
    from app.cli import fail
    from app.g2048_commands import read_position
    from engines.errors import KibitzInputError

    try:
        weights = _weights(args)
        state = read_position(game, args.file)
    except OSError as error:
        return fail(f"{args.file}: cannot read: {error.strerror or error}", args.json, game.short_name)
    except (KibitzInputError, ValueError) as error:
        return fail(str(error), args.json, game.short_name, error if isinstance(error, KibitzInputError) else None)
    if state.deal_due:
        return fail("the tray is empty: enter the deal (e.g. deal:Vi.) or a header 'tray V i .' first", args.json,
                    game.short_name)
    planner = Planner(weights, threads=args.threads)
    planning = planner.plan(state)
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

    try:
        weights = _weights(args)
    except ValueError as error:
        print(f"kibitz: {error}", file=sys.stderr)
        return 2
    if args.games < 1 or (args.rounds_cap is not None and args.rounds_cap < 1):
        print("kibitz: --games and --rounds-cap are at least 1", file=sys.stderr)
        return 2
    planner = Planner(weights, threads=args.threads)
    records = []
    for seed in range(args.seed, args.seed + args.games):
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
