"""The fuzz suite's common ground: how many cases, what counts as a failure, and the mutations
of valid inputs every target draws from.

A target takes a valid input of its kind (from the project's own generators), mutates it and
feeds it to the parser or loader under test through :func:`check`. The case passes when the call
returns (a round trip is then checked by the target) or raises one of the documented input errors
(:data:`DOCUMENTED_ERRORS`: the ``KibitzInputError`` family, the readers' ``NoBoardFound``, and
the command line's exit codes). Anything else fails the case: another exception, a hang over
:data:`HANG_SECONDS`, or a signal (the whole run stops, which fails too).

``KIBITZ_FUZZ_EXAMPLES`` sets the cases per target (default :data:`DEFAULT_EXAMPLES`, what
``.ci/run`` affords); the per-target tally is printed at the end of the run (see conftest.py).
"""

from __future__ import annotations

import collections
import contextlib
import os
import signal
import string
import threading
import time
from collections.abc import Callable, Iterator
from typing import Any

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st

#: Cases per target in the everyday suite (CI); ``KIBITZ_FUZZ_EXAMPLES=10000`` for the long run.
DEFAULT_EXAMPLES = 60
#: A call that takes longer than this is a hang.
HANG_SECONDS = 5.0


def examples() -> int:
    value = os.environ.get("KIBITZ_FUZZ_EXAMPLES", "")
    return int(value) if value.isdigit() and int(value) > 0 else DEFAULT_EXAMPLES


def fuzz_settings(**overrides: Any) -> settings:
    """Hypothesis settings for a fuzz target: the configured number of cases, reproducible (no
    example database, derandomized), no per-case deadline (hangs are :func:`check`'s)."""
    options: dict[str, Any] = dict(max_examples=examples(), deadline=None, database=None, derandomize=True,
                                   suppress_health_check=list(HealthCheck))
    options.update(overrides)
    return settings(**options)


def documented_errors() -> tuple[type[BaseException], ...]:
    """The errors a bad input may end in: the located input errors and the readers' NoBoardFound."""
    from engines.errors import KibitzInputError
    from vision.reading import NoBoardFound

    return KibitzInputError, NoBoardFound


# -- the tally behind the per-target table ---------------------------------------------------------------
#: target -> Counter of "cases", "accepted", "refused" (a documented error), "failed"
TALLY: dict[str, collections.Counter] = collections.defaultdict(collections.Counter)


class Hang(AssertionError):
    """The call under test ran past :data:`HANG_SECONDS`."""


@contextlib.contextmanager
def _time_limit(seconds: float) -> Iterator[None]:
    """Interrupt the block with :class:`Hang` after ``seconds`` (main thread: SIGALRM)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    fired = []

    def interrupt(signum, frame):
        fired.append(True)
        raise Hang(f"no answer after {seconds:g} s")

    previous = signal.signal(signal.SIGALRM, interrupt)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
    if fired:  # the Hang was raised where it could be swallowed (a gc callback, a destructor)
        raise Hang(f"no answer after {seconds:g} s")


def check(target: str, call: Callable[..., Any], *args: Any, allowed: tuple[type[BaseException], ...] = (),
          **kwargs: Any) -> tuple[bool, Any]:
    """Run ``call(*args, **kwargs)`` as one case of ``target``: (True, result) when it returned,
    (False, error) when it raised a documented error (or one of ``allowed``). Any other exception,
    and a hang, propagate (the case fails) after being tallied."""
    tally = TALLY[target]
    tally["cases"] += 1
    started = time.perf_counter()
    try:
        with _time_limit(HANG_SECONDS):
            result = call(*args, **kwargs)
    except documented_errors() + allowed as error:
        if not str(error).strip():
            tally["failed"] += 1
            raise AssertionError(f"{type(error).__name__} without a message") from error
        tally["refused"] += 1
        return False, error
    except BaseException:
        tally["failed"] += 1
        raise
    finally:
        tally["slowest_ms"] = max(tally["slowest_ms"], int((time.perf_counter() - started) * 1000))
    tally["accepted"] += 1
    return True, result


# -- mutations -----------------------------------------------------------------------------------------
#: Numbers that break naive parsers: past 64 bits, negative, not finite, exponent forms.
HUGE_NUMBERS = ("9223372036854775808", "99999999999999999999999", "18446744073709551616", "-1", "-9223372036854775809",
                "2147483647", "4294967296", "Infinity", "-Infinity", "NaN", "1e999", "1e308", "0", "00", "+5", "0x10",
                "1_000", "٣", "²", "1.5")
#: Characters that are not what a parser expects: unicode look-alikes, controls, NUL, wide and emoji.
ODD_CHARACTERS = ("\x00", "\u00b2", "\u00e9", "\u200b", "\ufeff", "\u2212", "\uff11", "\U0001f0a1", "\r", "\t", "\x1b",
                  "\ud7ff", "\\", "\"", "'", "{", "}", "[", "]", ",", ":", ";", "/", "|", "@", "#", "=", " ", "\n")


def _number_spans(text: str) -> list[tuple[int, int]]:
    spans, start = [], None
    for index, character in enumerate(text + " "):
        if character.isdigit():
            if start is None:
                start = index
        elif start is not None:
            spans.append((start, index))
            start = None
    return spans


@st.composite
def mutated_text(draw: st.DrawFn, valid: st.SearchStrategy[str], max_mutations: int = 3) -> str:
    """A valid text with 0..``max_mutations`` mutations: truncation, a duplicated, deleted or
    swapped slice, a number made huge, an odd character inserted or replacing one, a line
    repeated or removed, deep nesting."""
    text = draw(valid)
    for _ in range(draw(st.integers(0, max_mutations))):
        kind = draw(st.sampled_from(("truncate", "duplicate", "delete", "swap", "number", "insert", "replace",
                                     "line", "nest", "whitespace")))
        size = len(text)
        if kind == "truncate" and size:
            text = text[:draw(st.integers(0, size - 1))]
        elif kind in ("duplicate", "delete", "swap") and size:
            start = draw(st.integers(0, size - 1))
            end = draw(st.integers(start + 1, min(size, start + 40)))
            piece = text[start:end]
            if kind == "duplicate":
                text = text[:end] + piece * draw(st.integers(1, 3)) + text[end:]
            elif kind == "delete":
                text = text[:start] + text[end:]
            else:
                other = draw(st.integers(0, size - 1))
                without = text[:start] + text[end:]
                other = min(other, len(without))
                text = without[:other] + piece + without[other:]
        elif kind == "number":
            spans = _number_spans(text)
            huge = draw(st.sampled_from(HUGE_NUMBERS))
            if spans:
                start, end = draw(st.sampled_from(spans))
                text = text[:start] + huge + text[end:]
            else:
                text += huge
        elif kind in ("insert", "replace"):
            character = draw(st.one_of(st.sampled_from(ODD_CHARACTERS), st.characters()))
            at = draw(st.integers(0, size))
            text = text[:at] + character + text[at + (kind == "replace"):]
        elif kind == "line":
            lines = text.split("\n")
            at = draw(st.integers(0, len(lines) - 1))
            if draw(st.booleans()):
                lines.insert(at, lines[at])
            elif len(lines) > 1:
                del lines[at]
            text = "\n".join(lines)
        elif kind == "nest":
            depth = draw(st.sampled_from((50, 2_000, 100_000)))
            opener = draw(st.sampled_from(("[", "{\"a\":", "(")))
            at = draw(st.integers(0, size))
            text = text[:at] + opener * depth + text[at:]
        elif kind == "whitespace":
            text = draw(st.sampled_from(("", " ", "\n", "\t", "\r\n"))) + text.replace(" ", draw(st.sampled_from((" ", "  ", "\t", ""))))
    return text


@st.composite
def mutated_bytes(draw: st.DrawFn, valid: st.SearchStrategy[bytes], max_mutations: int = 3) -> bytes:
    """A valid file's bytes with 0..``max_mutations`` flipped bytes, truncations, duplicated or
    deleted slices, or random bytes appended."""
    data = bytearray(draw(valid))
    for _ in range(draw(st.integers(0, max_mutations))):
        kind = draw(st.sampled_from(("flip", "truncate", "duplicate", "delete", "append", "zero")))
        size = len(data)
        if kind == "flip" and size:
            at = draw(st.integers(0, size - 1))
            data[at] ^= 1 << draw(st.integers(0, 7))
        elif kind == "truncate" and size:
            del data[draw(st.integers(0, size - 1)):]
        elif kind in ("duplicate", "delete") and size:
            start = draw(st.integers(0, size - 1))
            end = draw(st.integers(start + 1, min(size, start + 256)))
            if kind == "duplicate":
                data[end:end] = data[start:end]
            else:
                del data[start:end]
        elif kind == "append":
            data += draw(st.binary(min_size=1, max_size=64))
        elif kind == "zero" and size:
            start = draw(st.integers(0, size - 1))
            data[start:start + draw(st.integers(1, 64))] = bytes(min(64, size - start))
    return bytes(data)


def random_text(max_size: int = 200) -> st.SearchStrategy[str]:
    """Text from nothing: printable ASCII, odd characters and numbers mixed."""
    pieces = st.one_of(st.text(string.printable, max_size=12), st.sampled_from(HUGE_NUMBERS), st.sampled_from(ODD_CHARACTERS))
    return st.lists(pieces, max_size=max_size // 6).map("".join)
