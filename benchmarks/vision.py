"""Board readers on the real screenshots, on the real pages and on every look: cells right, wrong
cells not marked doubtful, and milliseconds per read, per game and look; then follow mode on the
live pages.

1. Every transcribed real screenshot in the shared data (``tests/vision/truth_*.py`` turns each
   transcription into the cells a reader must return), read ``--repeat`` times.
2. Captures with their truth from the capture modules (``CAPTURE_SOURCES``): the real 2048 and
   HATETRIS pages served from ``shared/clients`` in headless chromium (the truth from the page's
   own state), and renders of SPL-T, 1010! and Destruct-o-Match in Kibitz's view and the real
   games' looks at many scales and compressions. Each capture is read once; the table has a row
   per look word (a capture labelled "narrow dpr2 over" counts in the rows narrow, dpr2 and over)
   and a row per game. A wrong cell is "not doubtful" when the reader gave it a confidence at or
   above the doubt threshold: the target is 0.
3. Follow mode on the live pages (``FOLLOW_SOURCES``): games played in the browser, Kibitz
   following its screenshots untouched, the move tree compared with the page's game.

    python benchmarks/vision.py [--data ../shared/data] [--repeat 20] [--captures 1000]
                                [--follow-games 5] [--only screenshots|captures|follow] [--json]
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

TARGET_ACCURACY = "100 %"
TARGET_MS = 100.0

#: game -> (module, function, how it is called): "page" sources get (browser, base url, count,
#: seed) with the game's page served from shared/clients/<folder>; "render" sources (count, seed).
#: Each yields (image BGR, truth dict with "cells" in the reading's shape and maybe "score", look).
CAPTURE_SOURCES = {
    "2048": ("tests.vision.pages_2048", "captures", "page", "2048", ""),  # it opens index.html itself
    "hatetris": ("tests.vision.pages_hatetris", "captures", "page", "hatetris", "/hatetris.html"),
    "1010": ("tests.vision.tenten_looks", "captures", "render", None, None),
    "destructo": ("tests.vision.destructo_looks", "captures", "render", None, None),
    "splt": ("tests.vision.splt_looks", "captures", "render", None, None),
}
#: game -> (module, function): follow_games(count) -> list of per-game dicts (moves, tree_equal,
#: unexplained, animation_moves, ...)
FOLLOW_SOURCES = {
    "2048": ("tests.vision.test_follow_live_2048", "follow_games"),
    "hatetris": ("tests.vision.test_follow_live_hatetris", "follow_games"),
}


def _data_dir(given: str | None) -> Path:
    if given:
        return Path(given)
    configured = os.environ.get("KIBITZ_REFERENCE_DATA")
    return Path(configured) if configured else Path(__file__).resolve().parents[2] / "shared" / "data"


def _alternatives(truth: dict) -> list:
    """The boards a capture caught mid-animation may rightly show besides its truth (2048's page
    captures give the board before the key and the boards in between)."""
    if not truth.get("animating"):
        return []
    return [*truth.get("between_cells", []), *([truth["before_cells"]] if "before_cells" in truth else [])]


def _field_unflagged(truth: dict, reading) -> int:
    """1 when the truth gives a score the image shows, the reading's differs and is not a
    doubtful field (a frame caught mid-animation may show either score: not judged)."""
    if reading is None or truth.get("score") is None or truth.get("animating") \
            or truth.get("score_visible") is False:
        return 0
    score = getattr(reading.state, "score", None)
    return int(score != truth["score"] and "score" not in reading.doubtful_fields)


def measure(data: Path, repeat: int) -> list[dict]:
    import vision
    from tests.vision.truth import all_cases, judge_cells

    rows = []
    for case in all_cases(data):
        image = case.load()
        times = []
        error = ""
        first = None
        for attempt in range(repeat):
            started = time.perf_counter()
            try:
                reading = vision.read(case.game, image)
            except Exception as failure:  # a reader that fails is a row of the table, not a crash
                error = f"{type(failure).__name__}: {failure}"
                reading = None
            times.append((time.perf_counter() - started) * 1000)
            if attempt == 0:
                first = reading
        right, total = (case.compare(case.expected, first.cells) if first is not None
                        else (0, case.compare(case.expected, case.expected)[1]))
        unflagged = judge_cells(case.game, case.expected, first)[2]
        rows.append({"game": case.game, "image": case.name, "right": right, "total": total,
                     "unflagged": unflagged,
                     "ms_mean": statistics.fmean(times[1:] or times), "ms_max": max(times[1:] or times),
                     "error": error})
    return rows


def table(rows: list[dict]) -> str:
    lines = [f"| {'game':9} | {'real screenshot':36} | {'cells right':>13} | {'accuracy':>8} | "
             f"{'wrong, not doubtful':>19} | {'ms/read':>7} | {'slowest':>7} |",
             f"|{'-' * 11}|{'-' * 38}|{'-' * 15}|{'-' * 10}|{'-' * 21}|{'-' * 9}|{'-' * 9}|"]
    for game in sorted({row["game"] for row in rows}):
        mine = [row for row in rows if row["game"] == game]
        for row in mine:
            accuracy = 100.0 * row["right"] / row["total"] if row["total"] else 0.0
            note = f"  ({row['error']})" if row["error"] else ""
            lines.append(f"| {game:9} | {row['image']:36} | {row['right']:>6} / {row['total']:<4} | "
                         f"{accuracy:7.1f}% | {row['unflagged']:>19} | {row['ms_mean']:7.1f} | "
                         f"{row['ms_max']:7.1f} |{note}")
        right, total = sum(r["right"] for r in mine), sum(r["total"] for r in mine)
        lines.append(f"| {game:9} | {'all (' + str(len(mine)) + ')':36} | {right:>6} / {total:<4} | "
                     f"{100.0 * right / max(total, 1):7.1f}% | {sum(r['unflagged'] for r in mine):>19} | "
                     f"{statistics.fmean(r['ms_mean'] for r in mine):7.1f} | "
                     f"{max(r['ms_max'] for r in mine):7.1f} |")
    lines.append(f"| {'target':9} | {'(issues 9, 22)':36} | {'':>13} | {TARGET_ACCURACY:>8} | {0:>19} | "
                 f"{'≤ 100':>7} | {'':>7} |")
    return "\n".join(lines)


# -- captures -------------------------------------------------------------------------------------
def _source(module_name: str, function: str):
    import importlib

    try:
        return getattr(importlib.import_module(module_name), function)
    except (ImportError, AttributeError) as missing:
        return f"{module_name}.{function} not available ({missing})"


def _expected_cells(truth: dict):
    """The cells a reading must return, from a capture's truth (1010!'s renders give its grid
    alone as "grid")."""
    return truth["cells"] if "cells" in truth else truth["grid"]


def _read_captures(game: str, captures, results: list[dict]) -> None:
    """Read every capture into ``results`` (kept when the capture source fails part way)."""
    import vision
    from tests.vision.truth import judge_cells

    warm = False
    for image, truth, look in captures:
        if not warm:  # the first read of a game loads its templates and kernels: not timed
            warm = True
            try:
                vision.read(game, image)
            except Exception:  # noqa: BLE001 - judged below
                pass
        started = time.perf_counter()
        try:
            reading = vision.read(game, image)
            error = ""
        except Exception as failure:  # noqa: BLE001 - a failed read is a result, counted
            reading, error = None, f"{type(failure).__name__}: {failure}"
        elapsed = (time.perf_counter() - started) * 1000
        right, total, unflagged = judge_cells(game, _expected_cells(truth), reading, _alternatives(truth))
        results.append({"game": game, "look": look, "right": right, "total": total,
                        "unflagged": unflagged, "field_unflagged": _field_unflagged(truth, reading),
                        "exact": right == total, "sure": bool(reading is not None and reading.sure),
                        "failed": reading is None, "error": error, "ms": elapsed})


def measure_captures(games: list[str], count: int, seed: int) -> tuple[list[dict], dict[str, str]]:
    """Every capture's result, and per game why it could not run (if it could not)."""
    from tests import real_pages

    results: list[dict] = []
    skipped: dict[str, str] = {}
    for game in games:
        module_name, function, kind, folder, page = CAPTURE_SOURCES[game]
        source = _source(module_name, function)
        if isinstance(source, str):
            skipped[game] = f"not run: {source}"
            continue
        game_count = count if kind == "page" else max(1, count // 2)  # the real pages get the full count
        mine: list[dict] = []
        try:
            if kind == "render":
                _read_captures(game, source(game_count, seed), mine)
            else:
                reason = real_pages.unavailable()
                if reason:
                    skipped[game] = f"not run: {reason}"
                    continue
                with real_pages.served(real_pages.clients_dir() / folder) as url, real_pages.Browser() as browser:
                    _read_captures(game, source(browser, url + page, game_count, seed), mine)
        except Exception as failure:  # noqa: BLE001 - a capture source that breaks is reported
            skipped[game] = (f"the capture source stopped after {len(mine)} captures: "
                             f"{type(failure).__name__}: {str(failure).splitlines()[0] if str(failure) else ''}")
        results.extend(mine)
    return results, skipped


def _percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))] if ordered else 0.0


def captures_table(results: list[dict], skipped: dict[str, str]) -> str:
    lines = [f"| {'game':9} | {'look':14} | {'captures':>8} | {'boards exact':>12} | {'cells right':>11} | "
             f"{'wrong, not doubtful':>19} | {'score wrong, not doubtful':>25} | {'no board':>8} | "
             f"{'ms median':>9} | {'ms p90':>6} |",
             f"|{'-' * 11}|{'-' * 16}|{'-' * 10}|{'-' * 14}|{'-' * 13}|{'-' * 21}|{'-' * 27}|{'-' * 10}|"
             f"{'-' * 11}|{'-' * 8}|"]

    def row(game: str, look: str, mine: list[dict]) -> str:
        right, total = sum(r["right"] for r in mine), sum(r["total"] for r in mine)
        times = [r["ms"] for r in mine]
        return (f"| {game:9} | {look:14} | {len(mine):>8} | {sum(r['exact'] for r in mine):>12} | "
                f"{100.0 * right / max(total, 1):10.2f}% | {sum(r['unflagged'] for r in mine):>19} | "
                f"{sum(r['field_unflagged'] for r in mine):>25} | {sum(r['failed'] for r in mine):>8} | "
                f"{statistics.median(times):9.1f} | {_percentile(times, 0.9):6.1f} |")

    for game in sorted({r["game"] for r in results}):
        mine = [r for r in results if r["game"] == game]
        words = sorted({word for r in mine for word in r["look"].split()})
        for word in words:
            lines.append(row(game, word, [r for r in mine if word in r["look"].split()]))
        lines.append(row(game, "**all**", mine))
    for game, reason in sorted(skipped.items()):
        lines.append(f"| {game:9} | ({reason}) |")
    lines.append(f"| {'target':9} | {'(issue 22)':14} | {'≥ 1,000':>8} | {'':>12} | {'':>11} | {0:>19} | "
                 f"{0:>25} | {'':>8} | {'≤ 100':>9} | {'':>6} |")
    return "\n".join(lines)


# -- the README's summary of the captures -------------------------------------------------------------
#: Per game, the look words shown side by side in one row of the summary ("wide / narrow"), then
#: the words named in its "all" row.
SUMMARY_GROUPS = {
    "2048": [("wide", "narrow"), ("over", "win", "keep-going"), ("redesign2024", "ads", "gif"), ("mid-animation",)],
    "splt": [("view", "window", "real"), ("hover",)],
}
SUMMARY_ALL = {
    "hatetris": "play, replay, other AIs, long scores; wide and narrow",
    "1010": "dark, light; phone, web",
    "destructo": "HTML5, sprites, Kibitz's view",
    "splt": "real rescaled/JPEG, Kibitz's view and window, a box hovered",
}
_COLUMNS = ("captures", "boards exact", "cells right", "wrong, not doubtful", "score wrong, not doubtful",
            "no board", "ms median", "ms p90")


def parse_captures_table(text: str) -> dict[tuple[str, str], list[str]]:
    """(game, look) -> the row's figures, from the per-look table this benchmark prints."""
    rows: dict[tuple[str, str], list[str]] = {}
    for line in text.splitlines():
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        if len(cells) == 2 + len(_COLUMNS) and cells[0] not in ("game", "target") and not cells[0].startswith("-"):
            rows[(cells[0], cells[1])] = cells[2:]
    return rows


def summary_table(rows: dict[tuple[str, str], list[str]]) -> str:
    """The README's table: per game its look groups side by side (figures joined by " / ") and
    its "all" row, then the issue's targets."""
    lines = ["| game | look | " + " | ".join(_COLUMNS) + " |", "|" + "---|" * (2 + len(_COLUMNS))]
    for game in sorted({game for game, _ in rows}):
        for group in SUMMARY_GROUPS.get(game, []):
            present = [look for look in group if (game, look) in rows]
            if not present:
                continue
            figures = [" / ".join(rows[(game, look)][column] for look in present) for column in range(len(_COLUMNS))]
            lines.append(f"| {game} | {' / '.join(present)} | " + " | ".join(figures) + " |")
        if (game, "**all**") in rows:
            named = f" ({SUMMARY_ALL[game]})" if game in SUMMARY_ALL else ""
            lines.append(f"| {game} | **all**{named} | " + " | ".join(rows[(game, "**all**")]) + " |")
    lines.append("| target | (issue 22) | ≥ 1,000 | | | 0 | 0 | | ≤ 100 | |")
    return "\n".join(lines)


# -- follow mode ----------------------------------------------------------------------------------
def measure_follow(games: list[str], count: int) -> tuple[dict[str, list[dict]], dict[str, str]]:
    from tests import real_pages

    results: dict[str, list[dict]] = {}
    skipped: dict[str, str] = {}
    reason = real_pages.unavailable()
    for game in games:
        if game not in FOLLOW_SOURCES:
            continue
        source = _source(*FOLLOW_SOURCES[game])
        if isinstance(source, str) or reason:
            skipped[game] = source if isinstance(source, str) else reason
            continue
        results[game] = source(count)
    return results, skipped


def follow_table(results: dict[str, list[dict]], skipped: dict[str, str]) -> str:
    lines = ["| game | games | moves | frames read | positions equal to the page's | tree equal to the page | "
             "moves unexplained | animation frames taken as moves | ms per read (median) |",
             "|---|---|---|---|---|---|---|---|---|"]

    def number(game: dict, *names: str) -> float:
        """A per-game figure, whichever name the game's follow test gives it."""
        return next((game[name] for name in names if game.get(name) is not None), 0)

    for game, games in sorted(results.items()):
        moves = [g.get("moves", 0) for g in games]
        frames = sum(g.get("frames", 0) for g in games)
        per_read = [number(g, "ms_per_frame", "read_ms_median") for g in games
                    if number(g, "ms_per_frame", "read_ms_median")]
        positions = sum(bool(g.get("positions_equal", g.get("tree_equal"))) for g in games)
        lines.append(f"| {game} | {len(games)} | {sum(moves)} ({min(moves, default=0)}–{max(moves, default=0)} a game) | "
                     f"{frames} | {positions} / {len(games)} | "
                     f"{sum(bool(g.get('tree_equal')) for g in games)} / {len(games)} | "
                     f"{sum(g.get('unexplained', 0) for g in games)} | "
                     f"{sum(number(g, 'animation_moves', 'animation_frames_taken_as_moves') for g in games)} | "
                     f"{statistics.median(per_read) if per_read else float('nan'):.1f} |")
    for game, reason in sorted(skipped.items()):
        lines.append(f"| {game} | not run: {reason} | | | | | | | |")
    lines.append("| target (issue 22) | ≥ 5 | 2048 ≥ 300 a game; HATETRIS to game over | | all | all | 0 | 0 | |")
    return "\n".join(lines)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", default=None, help="the shared data folder (default ../shared/data or "
                        "$KIBITZ_REFERENCE_DATA)")
    parser.add_argument("--repeat", type=int, default=20, help="reads per screenshot (the first is not timed "
                        "in the mean: it loads templates)")
    parser.add_argument("--captures", type=int, default=1000, help="captures of each real page, 2048 and "
                        "HATETRIS (the rendered games get half as many each)")
    parser.add_argument("--seed", type=int, default=22)
    parser.add_argument("--follow-games", type=int, default=5, help="games followed live per page")
    parser.add_argument("--games", default=",".join(CAPTURE_SOURCES), help="comma-separated games")
    parser.add_argument("--only", choices=("screenshots", "captures", "follow"), default=None)
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--summarise", nargs="+", metavar="OUTPUT", default=None,
                        help="print the README's summary of the per-look tables in these saved outputs of "
                             "--only captures (later files win for the same game) and stop")
    args = parser.parse_args()
    if args.summarise:
        rows: dict[tuple[str, str], list[str]] = {}
        for name in args.summarise:
            found = parse_captures_table(Path(name).read_text(encoding="utf-8"))
            for game in {game for game, _ in found}:  # a later run of a game replaces all its rows
                rows = {key: value for key, value in rows.items() if key[0] != game}
            rows.update(found)
        print(summary_table(rows))
        return 0
    games = [game.strip() for game in args.games.split(",") if game.strip()]
    unknown = [game for game in games if game not in CAPTURE_SOURCES]
    if unknown:
        print(f"vision benchmark: unknown game(s) {', '.join(unknown)}; known: {', '.join(CAPTURE_SOURCES)}",
              file=sys.stderr)
        return 2
    report: dict = {}
    machine = f"{platform.processor() or platform.machine()}, {os.cpu_count()} cores"
    if args.only in (None, "screenshots"):
        data = _data_dir(args.data)
        if not data.is_dir():
            print(f"vision benchmark: no shared data at {data} (set KIBITZ_REFERENCE_DATA or --data)",
                  file=sys.stderr)
            return 1
        report["screenshots"] = measure(data, max(2, args.repeat))
        if not args.json:
            print(f"Board readers on the real screenshots ({machine}; {max(2, args.repeat)} reads each)\n")
            print(table(report["screenshots"]) + "\n", flush=True)
    if args.only in (None, "captures"):
        results, skipped = measure_captures(games, args.captures, args.seed)
        report["captures"], report["captures_skipped"] = results, skipped
        if not args.json:
            load = ", ".join(f"{value:.1f}" for value in os.getloadavg())
            print(f"Board readers on real-page captures and renders of every look ({machine}; seed {args.seed}; "
                  f"load average at the end {load})\n")
            print(captures_table(results, skipped) + "\n", flush=True)
    if args.only in (None, "follow"):
        results, skipped = measure_follow(games, args.follow_games)
        report["follow"], report["follow_skipped"] = results, skipped
        if not args.json:
            print(f"Follow mode on the live pages ({machine})\n")
            print(follow_table(results, skipped))
    if args.json:
        print(json.dumps(report, indent=1, default=str))
    return 0


if __name__ == "__main__":
    sys.exit(main())
