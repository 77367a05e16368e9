"""How the verbs answer: results on standard output (text, or one JSON object with ``--json``),
errors as one line on standard error (and, with ``--json``, as a JSON object naming the file,
line, column, move, token and reason)."""

from __future__ import annotations

import json
import sys
from typing import Any

from engines.errors import KibitzInputError


def error_payload(game_name: str, error: KibitzInputError | str) -> dict[str, Any]:
    """The JSON object of an error: the message, and the parts of its location that are known."""
    payload: dict[str, Any] = {"game": game_name, "error": str(error)}
    if isinstance(error, KibitzInputError):
        for key in ("source", "line", "column", "move_number", "token"):
            value = getattr(error.location, key)
            if value is not None:
                payload["move" if key == "move_number" else key] = value
        payload["reason"] = error.reason
    return payload


def report_error(error: KibitzInputError | str, as_json: bool, game_name: str) -> int:
    """Print a bad-input error (one line on standard error, the JSON object on standard output
    with ``--json``); returns exit code 1."""
    print(f"kibitz: {error}", file=sys.stderr)
    if as_json:
        print(json.dumps(error_payload(game_name, error)))
    return 1


def say(text: str = "") -> None:
    """A line of a verb's text result."""
    print(text)


def progress(text: str) -> None:
    """A line about work under way (standard error, so results stay alone on standard output)."""
    print(text, file=sys.stderr, flush=True)
