"""``kibitz play destructo`` and ``kibitz advise destructo POSITION``: the advisors headless."""

from __future__ import annotations

import json
import sys

SEARCHES = ("planner", "irpan")


def add_options(parser) -> None:
    parser.add_argument("--search", choices=SEARCHES, default="planner",
                        help="Destruct-o-Match: the level planner (beam search to the end of the level, default) or "
                             "Irpan's pruned search (the published baseline: --depth, --expand)")
    parser.add_argument("--width", type=int, default=None,
                        help="Destruct-o-Match: the planner's beam width (fixed, reproducible; default: fitted to --ms, "
                             "150 ms a click on average)")
    parser.add_argument("--expand", type=int, default=6, help="Destruct-o-Match, Irpan's search: moves kept a node "
                        "(default 6; --depth default 3)")


def _player(args):
    from advisors.destructo.selfplay import irpan_player, planner_player

    if args.search == "irpan":
        return irpan_player(args.depth or 3, args.expand), f"Irpan's search, depth {args.depth or 3}, expand " \
                                                            f"{args.expand}"
    budget = args.ms or 150.0
    setting = f"width {args.width}" if args.width else f"{budget:g} ms a click on average"
    return planner_player(budget, args.width), f"level planner, {setting}"


def summary(records) -> dict:
    import numpy as np

    scores = np.array([r.score for r in records], float)
    moves = sum(r.moves for r in records)
    return {
        "games": len(records),
        "average_score": round(float(scores.mean()), 1),
        "median_score": float(np.median(scores)),
        "standard_deviation": round(float(scores.std(ddof=1)), 1) if len(records) > 1 else 0.0,
        "min_score": int(scores.min()),
        "max_score": int(scores.max()),
        "reached_2500_percent": round(100.0 * float((scores >= 2500).mean()), 1),
        "moves": moves,
        "ms_per_move": round(sum(r.ms_per_move * r.moves for r in records) / max(moves, 1), 3),
        "slowest_ms": max(r.slowest_ms for r in records),
    }


def play(game, args) -> int:
    from advisors.destructo.selfplay import play_game

    if args.games < 1 or (args.width is not None and args.width < 1) or args.expand < 1 or \
            (args.depth is not None and args.depth < 1) or (args.ms is not None and args.ms <= 0):
        print("kibitz: --games, --width, --depth and --expand are at least 1; --ms is positive", file=sys.stderr)
        return 2
    player, setting = _player(args)
    records = []
    for seed in range(args.seed, args.seed + args.games):
        record = play_game(seed, player)
        records.append(record)
        if not args.json:
            levels = " ".join(str(points) for points in record.level_scores)
            print(f"seed {record.seed}: score {record.score:,}, {record.moves} clicks, {record.ms_per_move:.1f} ms/click "
                  f"(levels: {levels})", flush=True)
    total = summary(records)
    if args.json:
        print(json.dumps({"game": game.short_name, "search": setting, "games": [r.as_json() for r in records],
                          "summary": total}))
        return 0
    games = f"{total['games']} game" + ("s" if total["games"] != 1 else "")
    spread = f" ± {total['standard_deviation']:,.0f}" if total["games"] > 1 else ""
    print(f"{games} ({setting}): average score {total['average_score']:,.0f}{spread}, "
          f"{total['reached_2500_percent']:g} % reach 2,500, {total['ms_per_move']:.1f} ms/click")
    return 0


def advise(game, args) -> int:
    import time

    from advisors.destructo import rank
    from app.cli import fail
    from app.g2048_commands import read_position
    from engines.errors import KibitzInputError

    if (args.width is not None and args.width < 1) or args.limit < 1 or (args.ms is not None and args.ms <= 0):
        return fail("--width and --limit are at least 1; --ms is positive", args.json, game.short_name)
    if args.search != "planner":
        return fail("advise ranks with the level planner; --search irpan is for play", args.json, game.short_name)
    try:
        state = read_position(game, args.file)
    except OSError as error:
        return fail(f"{args.file}: cannot read: {error.strerror or error}", args.json, game.short_name)
    except (KibitzInputError, ValueError) as error:
        return fail(str(error), args.json, game.short_name, error if isinstance(error, KibitzInputError) else None)
    if state.finished:
        return fail("the game is over: all ten levels are played", args.json, game.short_name)
    if state.due is not None:
        return fail(f"a chance step is due ({state.due}): enter the board first (board:..., fill:...)", args.json,
                    game.short_name)
    began = time.perf_counter()
    candidates = rank(state, args.limit, width=args.width, budget_ms=args.ms or 400.0)
    milliseconds = (time.perf_counter() - began) * 1000.0
    if args.json:
        print(json.dumps({
            "game": game.short_name,
            "board": game.board_text(state),
            "width": args.width,
            "budget_ms": None if args.width is not None else args.ms or 400.0,
            "milliseconds": round(milliseconds, 1),
            "candidates": [
                {"move": str(c.move), "points": c.points, "cells": sorted(list(cell) for cell in c.cells),
                 "value": c.score, "loss": c.loss, "line": [str(click) for click in c.principal_variation],
                 "explanation": c.explanation}
                for c in candidates
            ],
        }))
        return 0
    print(game.board_text(state))
    setting = f"beam width {args.width}" if args.width is not None else f"beam fitted to {args.ms or 400:g} ms"
    print(f"{setting}, took {milliseconds:.0f} ms")
    if not candidates:
        print("no click takes anything: the level is over")
    for number, c in enumerate(candidates, start=1):
        print(f"{number:>2}. {str(c.move):<6} {c.score:>7.0f}  {c.explanation}")
    return 0
