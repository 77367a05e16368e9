"""The command line's own argument parser and the option types that check their ranges: a value
outside its range is a usage error (exit 2) that names the option and the range, in one line."""

from __future__ import annotations

import argparse
import math
import re
from collections.abc import Callable

from engines.errors import NotationError
from engines.limits import INT64_MAX, parse_int


class UsageError(Exception):
    """The command line itself is wrong (exit 2): an unknown verb, game or option, a value out of
    range, options that do not go together. The message is the whole line printed, starting
    with ``kibitz VERB:``."""


class Parser(argparse.ArgumentParser):
    """An argument parser whose errors are a :class:`UsageError` (one line, exit 2) instead of a
    usage block and ``sys.exit``; ``--help`` still prints and exits 0."""

    def error(self, message: str):  # type: ignore[override]
        raise UsageError(f"{self.prog}: {message} ({self.prog} --help lists the options)")


def _shown(value: float) -> str:
    return f"{value:,}" if float(value).is_integer() else f"{value:,g}"


def _range_text(low: float | None, high: float | None, above: bool = False) -> str:
    if low is not None and high is not None:
        return f"{'above' if above else 'from'} {_shown(low)} {'and at most' if above else 'to'} {_shown(high)}"
    if low is not None:
        return f"{'above' if above else 'at least'} {_shown(low)}"
    return f"at most {_shown(high)}"


def whole_number(low: int | None = None, high: int | None = None) -> Callable[[str], int]:
    """An argparse type: a whole number within [``low``, ``high``] (64 bits at most)."""
    low = -INT64_MAX - 1 if low is None else low
    high = INT64_MAX if high is None else high

    def parse(text: str) -> int:
        try:
            return parse_int(text.strip(), "the value", low, high)
        except NotationError:
            raise argparse.ArgumentTypeError(f"must be a whole number {_range_text(low, high)}, not {text!r}") from None

    parse.__name__ = "whole number"
    return parse


def number(low: float, high: float, low_allowed: bool = False) -> Callable[[str], float]:
    """An argparse type: a finite decimal number above ``low`` (or equal to it when
    ``low_allowed``) and at most ``high``."""

    def parse(text: str) -> float:
        body = text.strip()
        value = float(body) if re.fullmatch(r"[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?", body) else math.nan
        inside = math.isfinite(value) and (value >= low if low_allowed else value > low) and value <= high
        if not inside:
            raise argparse.ArgumentTypeError(
                f"must be a number {_range_text(low, high, above=not low_allowed)}, not {text!r}")
        return value

    parse.__name__ = "number"
    return parse


#: seeds of numpy's generators: non-negative, and the seeds of several games or workers follow
SEED = whole_number(0, 2 ** 32 - 1)
#: threads and worker processes: at least one, at most what any machine here has
THREADS = whole_number(1, 256)
