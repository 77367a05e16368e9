"""``kibitz convert GAME FILE --to FORMAT``: rewrite a sequence file in another of the game's
formats. What is written is read back first: a format that cannot hold the line (an SPL-T index
list cannot hold a set-up start position) is refused, never written short."""

from __future__ import annotations

import sys

from app.cli.inputs import load_line, parse_line
from engines.errors import KibitzInputError
from engines.files import write_text_atomic

SUMMARY = "rewrite a sequence file in another format"
GENERIC = True


def add_arguments(parser, game) -> None:
    formats = game.sequence_formats if game else None
    parser.add_argument("game")
    parser.add_argument("file")
    parser.add_argument("--to", required=True, choices=formats, help="target format, e.g. index or geometric for splt")
    parser.add_argument("--format", default=None, choices=formats, help="the input file's format (detected when omitted)")
    parser.add_argument("-o", "--output", help="write here (atomically) instead of standard output")
    parser.add_argument("--json", action="store_true", help="on an error, also print it as one JSON object")


def run(game, plug, args) -> int:
    reading = plug.reading_options(args)
    line, _ = load_line(game, args.file, args.format, **reading)
    try:
        text = game.sequence_text(line, args.to)
    except KibitzInputError as error:
        raise error.located(source=args.file) from None
    except ValueError as error:
        raise KibitzInputError(f"cannot be written as {args.to}: {error}", source=args.file) from None
    written = parse_line(game, text, f"the {args.to} text", args.to, **reading)
    if written.start != line.start:
        raise KibitzInputError(f"the line starts from a set-up position, which the {args.to} format cannot hold "
                               f"(it always starts from a new game); nothing was written", source=args.file)
    if tuple(written.moves) != tuple(line.moves):
        raise KibitzInputError(f"the {args.to} format cannot hold these moves as they are; nothing was written",
                               source=args.file)
    if args.output:
        try:
            write_text_atomic(args.output, text)
        except OSError as error:
            raise KibitzInputError(f"cannot write: {error.strerror or error}", source=args.output) from None
    else:
        sys.stdout.write(text if text.endswith("\n") else text + "\n")
    return 0
