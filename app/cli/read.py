"""``kibitz read GAME IMAGE``: read a game's board from a screenshot, headless."""

from __future__ import annotations

import json
import sys
import time

SUMMARY = "read a game's board from a screenshot: board text, confidence and doubtful cells"
GENERIC = True


def add_arguments(parser, game) -> None:
    parser.add_argument("game")
    parser.add_argument("image", help="a screenshot file (PNG, JPEG, ...), or - for the image's bytes on standard input")
    parser.add_argument("--json", action="store_true", help='print one JSON object: {"game", "board", "cells", '
                        '"confidence", "doubtful"} or {"game", "error"}')


def run(game, plug, args) -> int:
    from engines.limits import check_path
    from vision import NoBoardFound, read
    from vision.images import load, read_stream

    # an image that cannot be loaded is an ImageError, a KibitzInputError naming the file
    if args.image == "-":
        image = read_stream(sys.stdin.buffer)
    else:
        check_path(args.image)
        image = load(args.image)
    started = time.perf_counter()
    try:
        reading = read(game.short_name, image)
    except NoBoardFound as error:
        print(f"kibitz: {args.image}: no board found ({error.reason})", file=sys.stderr)
        if args.json:
            payload = {"game": game.short_name, "error": "no board found", "reason": error.reason}
            if error.diagnostics:
                payload["diagnostics"] = error.diagnostics
            print(json.dumps(payload))
        return 1
    milliseconds = (time.perf_counter() - started) * 1000
    if args.json:
        payload = reading.to_json()
        payload["ms"] = round(milliseconds, 1)
        print(json.dumps(payload))
        return 0
    print(reading.board_text())
    print(f"confidence {reading.confidence:.2f}")
    doubtful = reading.doubtful
    if doubtful:
        cells = ", ".join(f"row {row + 1} column {column + 1}" for row, column in doubtful)
        print(f"doubtful ({len(doubtful)}): {cells}")
    else:
        print("doubtful: none")
    if reading.doubtful_fields:
        print(f"doubtful values: {', '.join(reading.doubtful_fields)}")
    print(f"read in {milliseconds:.0f} ms")
    return 0
