"""``kibitz review GAME FILE``: every move of a sequence file reviewed by the game's advisor: the
position's evaluation, the best move, the move played, its loss and its class (inaccuracy ?!,
mistake ?, blunder ??), then a summary; ``--json`` (the review file the window reads back) or
``--csv`` (the per-move table) instead of the text."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

from app.cli.inputs import add_sequence_arguments, parse_line, read_argument, replay_line
from engines.errors import KibitzInputError
from engines.files import write_text_atomic

SUMMARY = "review every move of a sequence file: loss against the advisor's best, mistakes, accuracy"
GENERIC = True


def add_arguments(parser, game) -> None:
    add_sequence_arguments(parser, game)
    output = parser.add_mutually_exclusive_group()
    output.add_argument("--json", action="store_true",
                        help="print the review as JSON (the line and every row; Moves > Import review reads it)")
    output.add_argument("--csv", action="store_true", help="print the per-move table as CSV")
    parser.add_argument("-o", "--output", default=None, metavar="PATH",
                        help="write to this file (atomically) instead of printing")


def run(game, plug, args) -> int:
    from advisors import review

    if args.output:
        check_output(args.output)  # before a review that can take a while, not after it
    text, source = read_argument(args.file, "the sequence text")
    line = parse_line(game, text, source, args.format, **plug.reading_options(args))
    replay_line(game, line, source)
    reviewer = review.reviewer_for(game.short_name, **plug.review_options(args))
    show_progress = sys.stderr.isatty()

    def progress(done: int, total: int) -> None:
        if show_progress and (done == total or done % 20 == 0):
            print(f"\rreviewing move {done} of {total}", end="" if done < total else "\n", file=sys.stderr, flush=True)

    rows = review.review_line(game, reviewer, line, progress)
    thresholds = reviewer.thresholds
    summary = review.summarize(rows, thresholds)
    if args.json:
        data = review.review_data(game, line, rows, thresholds)
        data["summary"] = summary_dict(summary)
        out = json.dumps(data, indent=1, ensure_ascii=False) + "\n"
    elif args.csv:
        out = review.to_csv(rows)
    else:
        out = text_report(game, reviewer, rows, summary, source)
    if args.output:
        try:
            write_text_atomic(args.output, out)
        except OSError as error:
            raise KibitzInputError(f"cannot write the review: {error.strerror or error}", source=args.output) from None
        print(f"wrote the review of {len(rows)} moves to {args.output}", file=sys.stderr)
    else:
        sys.stdout.write(out)
    return 0


def check_output(path: str) -> None:
    """Refuse an output path that cannot be written: a folder, or in a folder that is not there."""
    target = Path(path).expanduser()
    if target.is_dir():
        raise KibitzInputError("is a folder: name a file to write the review to", source=path)
    folder = target.parent
    if not folder.is_dir():
        raise KibitzInputError(f"the folder {str(folder)!r} does not exist", source=path)
    if not os.access(folder, os.W_OK):
        raise KibitzInputError(f"the folder {str(folder)!r} cannot be written", source=path)


def summary_dict(summary) -> dict:
    return {"moves": summary.moves, "accuracy": round(summary.accuracy, 6), "best_share": round(summary.best_share, 6),
            "counts": dict(summary.counts), "total_loss": summary.total_loss,
            "costliest": [row.number for row in summary.costliest]}


def text_report(game, reviewer, rows, summary, source: str) -> str:
    """The table a person reads: one line per move, the flagged ones marked, then the summary."""
    from advisors.review import extra_names

    thresholds = reviewer.thresholds
    extras = extra_names(rows)
    header = ["move", "played", "best", "value", "loss", "class", *extras]
    table = [header]
    for row in rows:
        named = dict(row.extras)
        table.append([str(row.number), row.move + (f" {row.symbol}" if row.symbol else ""), row.best,
                      f"{row.value:,.1f}", f"{row.loss:,.1f}", row.classification,
                      *(_shown(named.get(name, "")) for name in extras)])
    widths = [max(len(line[i]) for line in table) for i in range(len(header))]
    lines = [f"{source}: {game.title}, reviewed by {reviewer.scale} ({reviewer.settings})"]
    lines += ["  ".join(cell.rjust(widths[i]) if i in (0, 3, 4) else cell.ljust(widths[i])
                        for i, cell in enumerate(line)).rstrip() for line in table]
    lines.append("")
    lines.append(summary.text(thresholds))
    lines.append(f"thresholds: {thresholds.describe()} ({thresholds.meaning})")
    if summary.costliest:
        lines.append("costliest: " + "; ".join(
            f"move {row.number} {row.move}{' ' + row.symbol if row.symbol else ''} "
            f"(best {row.best}, loss {row.loss_text(thresholds)})" for row in summary.costliest))
    return "\n".join(lines) + "\n"


def _shown(value) -> str:
    if isinstance(value, float):
        return f"{value:,.1f}"
    return str(value)
