"""Destruct-o-Match on the command line: ``advise`` (the level planner's ranking of every click on
a position, typed or in a file, or at a sequence's end) and ``play`` (whole games with the level
planner or Irpan's pruned search)."""

from __future__ import annotations

import json
import time

from app.cli.games import GamePlug, review_option_values, review_options_adder
from app.cli.inputs import read_position
from app.cli.options import number, whole_number
from engines.errors import KibitzInputError

SEARCHES = ("planner", "irpan")
#: the widest beam taken (each state of the beam is some hundreds of bytes)
MAX_WIDTH = 100_000
#: Irpan's search grows as EXPAND ** DEPTH: these bounds keep a click under some seconds
MAX_DEPTH = 6
MAX_EXPAND = 12
MAX_LIMIT = 1000
MAX_MILLISECONDS = 600_000
PLAY_BUDGET_MS = 150.0
ADVISE_BUDGET_MS = 400.0


def _width_and_budget(group, budget_ms: float) -> None:
    group.add_argument("--width", type=whole_number(1, MAX_WIDTH), default=None,
                       help=f"the planner's beam width, 1 to {MAX_WIDTH:,} (fixed, reproducible; default: fitted to "
                       f"--ms)")
    group.add_argument("--ms", type=number(0, MAX_MILLISECONDS), default=None,
                       help=f"the planner's time a click on average, above 0 (default {budget_ms:g})")


def add_advise_options(group) -> None:
    group.add_argument("--search", choices=("planner",), default="planner",
                       help="advise ranks with the level planner (Irpan's search is for play)")
    _width_and_budget(group, ADVISE_BUDGET_MS)
    group.add_argument("--limit", type=whole_number(1, MAX_LIMIT), default=10,
                       help=f"list this many moves, 1 to {MAX_LIMIT:,} (default 10)")


def add_play_options(group) -> None:
    group.add_argument("--search", choices=SEARCHES, default="planner",
                       help="the level planner (beam search to the end of the level, default) or Irpan's pruned "
                       "search (the published baseline: --depth, --expand)")
    _width_and_budget(group, PLAY_BUDGET_MS)
    group.add_argument("--depth", type=whole_number(1, MAX_DEPTH), default=None,
                       help=f"Irpan's search depth, 1 to {MAX_DEPTH} (default 3)")
    group.add_argument("--expand", type=whole_number(1, MAX_EXPAND), default=6,
                       help=f"Irpan's search: moves kept a node, 1 to {MAX_EXPAND} (default 6)")


def _player(args):
    from advisors.destructo.selfplay import irpan_player, planner_player

    if args.search == "irpan":
        depth = args.depth or 3
        return irpan_player(depth, args.expand), f"Irpan's search, depth {depth}, expand {args.expand}"
    budget = args.ms or PLAY_BUDGET_MS
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

    from app.cli.play import seeds

    player, setting = _player(args)
    records = []
    for seed in seeds(args):
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
    from advisors.destructo import rank

    state, source = read_position(game, args.file)
    if state.finished:
        raise KibitzInputError("the game is over: all ten levels are played", source=source)
    if state.due is not None:
        raise KibitzInputError(f"a chance step is due ({state.due}): enter the board first (board:..., fill:...)",
                               source=source)
    budget = args.ms or ADVISE_BUDGET_MS
    began = time.perf_counter()
    candidates = rank(state, args.limit, width=args.width, budget_ms=budget)
    milliseconds = (time.perf_counter() - began) * 1000.0
    if args.json:
        print(json.dumps({
            "game": game.short_name,
            "board": game.board_text(state),
            "width": args.width,
            "budget_ms": None if args.width is not None else budget,
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
    setting = f"beam width {args.width}" if args.width is not None else f"beam fitted to {budget:g} ms"
    print(f"{setting}, took {milliseconds:.0f} ms")
    if not candidates:
        print("no click takes anything: the level is over")
    for number_shown, c in enumerate(candidates, start=1):
        print(f"{number_shown:>2}. {str(c.move):<6} {c.score:>7.0f}  {c.explanation}")
    return 0


PLUG = GamePlug(
    options={"advise": add_advise_options, "play": add_play_options, "review": review_options_adder("destructo")},
    work={"advise": advise, "play": play},
    review_options=review_option_values("destructo"),
)
