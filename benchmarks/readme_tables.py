"""Put a benchmark's Markdown output into the README, between its markers, so that no figure in
the README's tables is typed by hand.

A table's place in README.md is marked by two lines::

    <!-- table: NAME -->
    ...replaced...
    <!-- /table: NAME -->

and a benchmark's ``--markdown`` output (a file, or standard input with ``-``) replaces what is
between them::

    python benchmarks/hatetris.py --anchor ../anchors/HATETRIS-public-beamsearch --markdown > /tmp/h.md
    python benchmarks/readme_tables.py hatetris-children /tmp/h.md

``--check`` says which marked tables the README has, and fails when a marker has no partner.
"""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

README = Path(__file__).resolve().parent.parent / "README.md"
_MARKER = re.compile(r"^<!-- (/?)table: ([a-z0-9-]+) -->$", re.MULTILINE)


def marked_tables(text: str) -> dict[str, tuple[int, int]]:
    """Each marked table's name -> (start, end) of what lies between its markers. Raises
    ValueError naming a marker without its partner or a name used twice."""
    opened: dict[str, int] = {}
    found: dict[str, tuple[int, int]] = {}
    for match in _MARKER.finditer(text):
        closing, name = match.group(1) == "/", match.group(2)
        line = text.count("\n", 0, match.start()) + 1
        if not closing:
            if name in opened or name in found:
                raise ValueError(f"README.md line {line}: table {name!r} is marked twice")
            opened[name] = match.end() + 1
        elif name not in opened:
            raise ValueError(f"README.md line {line}: '/table: {name}' closes a table never opened")
        else:
            found[name] = (opened.pop(name), match.start())
    if opened:
        raise ValueError(f"README.md: table {next(iter(opened))!r} is opened and never closed")
    return found


def replaced(text: str, name: str, table: str) -> str:
    """``text`` with the table ``name`` replaced by ``table``."""
    tables = marked_tables(text)
    if name not in tables:
        known = ", ".join(sorted(tables)) or "none"
        raise ValueError(f"README.md has no table {name!r} (marked tables: {known})")
    start, end = tables[name]
    return text[:start] + table.strip("\n") + "\n" + text[end:]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("name", nargs="?", help="the marked table to replace")
    parser.add_argument("source", nargs="?", help="a benchmark's Markdown output, or - for standard input")
    parser.add_argument("--check", action="store_true", help="list the marked tables and check their markers")
    args = parser.parse_args(argv)
    text = README.read_text(encoding="utf-8")
    try:
        if args.check or not args.name:
            for name in sorted(marked_tables(text)):
                print(name)
            return 0
        if not args.source:
            parser.error("give the Markdown output to put in (a file, or - for standard input)")
        table = sys.stdin.read() if args.source == "-" else Path(args.source).read_text(encoding="utf-8")
        if "|" not in table:
            raise ValueError(f"{args.source}: no Markdown table in it")
        updated = replaced(text, args.name, table)
    except (OSError, ValueError) as error:
        print(f"readme_tables: {error}", file=sys.stderr)
        return 1
    temporary = README.with_suffix(".md.tmp")
    temporary.write_text(updated, encoding="utf-8")
    temporary.replace(README)  # atomic: the README is never half written
    print(f"README.md: table {args.name!r} replaced ({table.count(chr(10))} lines)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
