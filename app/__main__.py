"""``kibitz`` with no arguments opens the window; ``kibitz VERB ...`` runs headless."""

from __future__ import annotations

import sys


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    from app import cli

    if args and (args[0] in cli.VERBS or args[0] in ("-h", "--help", "--version")):
        return cli.main(args)
    from app.gui import run

    return run(args)


if __name__ == "__main__":
    sys.exit(main())
