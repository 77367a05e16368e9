"""Costly advisor objects (a search with its tables, a planner with its threads) made once per
process and shared by name: the window's advisor is one, the reviews' own search another, so a
review never waits for the window's advisor nor holds it up."""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

_instances: dict[str, Any] = {}
_lock = threading.Lock()


def shared(name: str, make: Callable[[], Any]) -> Any:
    """The instance called ``name``, made by ``make()`` at its first use."""
    with _lock:
        if name not in _instances:
            _instances[name] = make()
        return _instances[name]
