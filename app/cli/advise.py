"""``kibitz advise GAME FILE``: rank the moves at the end of a sequence file (2048, 1010!,
Destruct-o-Match: or of a board, typed or in a file). Each game's plug ranks and prints."""

from __future__ import annotations

SUMMARY = "rank the moves at the end of a sequence file (2048, 1010, destructo: or of a board)"
GENERIC = False


def add_arguments(parser, game) -> None:
    parser.add_argument("game")
    parser.add_argument("file", help="a sequence file (its end position is ranked); 2048, 1010 and destructo: or a "
                        "board text such as '2 4 . ./. . . ./. . . ./. . . .'")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
