"""Preparing a game's numba kernels in a process of its own: ``python -m app.prepare GAME ...``.

numba compiles a kernel the first time it is called with new argument types and holds Python's
global lock while it does (seconds to a minute per game on a cold cache), so a window whose own
process compiled would stop painting. The window asks this module instead: :func:`is_prepared`
says whether a game's kernels are already in numba's on-disk cache (a stamp written after a
successful preparation, valid while numba, Python and the kernels' source files are unchanged,
exactly what numba's cache itself depends on); otherwise it runs ``python -m app.prepare GAME``
and, once that process is done, loads the kernels from the cache in a moment.

A preparation plays what the window will play: the engine's own warm-up, a short game of legal
moves (chance steps drawn from a seeded generator), the advisor's ranking and summary line on
positions of it, and a moment of the game's long search.
"""

from __future__ import annotations

import argparse
import functools
import hashlib
import json
import os
import sys
import tempfile
import time
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import numpy as np

import advisors
import engines
from engines import GAMES, Game
from engines.contract import Line
from engines.files import write_text_atomic

#: Set to 1 to treat every game as prepared (the test suite compiles in its own process).
IN_PROCESS_ENV = "KIBITZ_PREPARE_IN_PROCESS"
#: The helper's command line before the game's name.
HELPER_COMMAND = (sys.executable, "-m", "app.prepare")
PROJECT_ROOT = Path(__file__).resolve().parents[1]
PREPARE_MOVES = 12
SEARCH_SECONDS = 1.0
STAMP_VERSION = 1


def _source_files() -> list[os.DirEntry]:
    """Every source file a kernel can live in (numba's cache goes stale when one changes)."""
    files: list[os.DirEntry] = []
    folders = [os.path.dirname(package.__file__) for package in (engines, advisors)]
    while folders:
        with os.scandir(folders.pop()) as entries:
            for entry in entries:
                if entry.is_dir() and entry.name != "__pycache__":
                    folders.append(entry.path)
                elif entry.name.endswith(".py"):
                    files.append(entry)
    return sorted(files, key=lambda entry: entry.path)


@functools.lru_cache(maxsize=1)
def fingerprint() -> str:
    """What the kernels' cache depends on: numba's and Python's versions and every kernel
    source file's path, size and modification time (as numba's cache checks them). Worked out
    once a process (the window asks for each game as it starts)."""
    import numba

    digest = hashlib.sha256(f"{STAMP_VERSION} {numba.__version__} {sys.version} {sys.executable}".encode())
    for entry in _source_files():
        stat = entry.stat()
        digest.update(f"{entry.path} {stat.st_size} {stat.st_mtime_ns}\n".encode())
    return digest.hexdigest()


def cache_directory() -> Path:
    """Where numba keeps its cache (``NUMBA_CACHE_DIR`` or numba's default for this install);
    the stamps live beside the kernels so that clearing one clears the other."""
    configured = os.environ.get("NUMBA_CACHE_DIR")
    if configured:
        return Path(configured)
    from engines.jit import fetch_add  # any cached kernel of the project tells where its cache is

    locator = getattr(getattr(fetch_add, "_cache", None), "_cache_path", None)
    if locator:
        return Path(locator)
    return Path(engines.__file__).parent / "__pycache__"


def stamp_path(short_name: str) -> Path:
    return cache_directory() / f"kibitz-prepared-{short_name}.json"


def is_prepared(short_name: str) -> bool:
    """True when the game's kernels can be loaded from the cache without compiling (or the
    environment asks to compile in this process, see :data:`IN_PROCESS_ENV`)."""
    if os.environ.get(IN_PROCESS_ENV) == "1":
        return True
    try:
        stamp = json.loads(stamp_path(short_name).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return False
    return isinstance(stamp, dict) and stamp.get("fingerprint") == fingerprint()


#: Beside the cache: the sources' fingerprint when the project's cached kernels were last checked.
SOURCES_MARK = "kibitz-kernel-sources.json"


def _stand_in() -> None:
    """Any function: numba's cache locators want one beside the file they place."""


def _kernel_cache_folder(source: str) -> Path | None:
    """Where numba caches the kernels of the module at ``source``, found as numba finds it (its
    first cache locator that takes the file); None when numba's locators cannot be asked."""
    try:
        from numba.core import caching

        implementation = getattr(caching, "CacheImpl", None) or getattr(caching, "_CacheImpl")
        for locator_class in implementation._locator_classes:
            locator = locator_class.from_function(_stand_in, source)  # a function's code is only read
            if locator is not None:
                return Path(locator.get_cache_path())
    except Exception:  # noqa: BLE001 - numba's internals moved: the in-tree folder is the fallback
        pass
    return Path(source).parent / "__pycache__"


def clear_stale_kernels() -> int:
    """Delete the project's cached kernels when any kernel source changed since they were last
    checked (an update, an edit): numba checks only the cached function's own file, so a kernel
    whose helpers in another module changed would run its old machine code. Returns how many
    files were deleted; the next call of each kernel compiles it again."""
    current = fingerprint()
    mark = cache_directory() / SOURCES_MARK
    try:
        if json.loads(mark.read_text(encoding="utf-8")).get("fingerprint") == current:
            return 0
    except (OSError, ValueError, AttributeError):
        pass
    deleted = 0
    for entry in _source_files():
        folder = _kernel_cache_folder(entry.path)
        stem = Path(entry.path).stem
        if folder is None or not folder.is_dir():
            continue
        for cached in folder.iterdir():
            if cached.name.startswith(stem + ".") and cached.suffix in (".nbi", ".nbc"):
                try:
                    cached.unlink()
                    deleted += 1
                except OSError:
                    pass  # another process took it first, or it is not ours to delete
    try:
        mark.parent.mkdir(parents=True, exist_ok=True)
        write_text_atomic(mark, json.dumps({"fingerprint": current}))
    except OSError:
        pass  # a read-only cache: checked again next time
    return deleted


def helper_environment(environment: Mapping[str, str]) -> dict[str, str]:
    """The helper's environment: ``environment`` with this very copy of Kibitz (installed or not)
    first on the import path, and never asked to count every game as prepared."""
    helper = {name: value for name, value in environment.items() if name != IN_PROCESS_ENV}
    helper["PYTHONPATH"] = os.pathsep.join(filter(None, (str(PROJECT_ROOT), environment.get("PYTHONPATH"))))
    return helper


def exercise(game: Game, moves: int = PREPARE_MOVES) -> None:
    """Call every kernel the window calls for ``game``: the engine's warm-up, legal moves and
    plays along a short seeded game, and the advisor on its positions."""
    from app.gui.games import ui_for  # the window's plug: the same advisor and summary line

    ui = ui_for(game.short_name)
    game.warm_up()
    rng = np.random.default_rng(1)
    state = game.initial_state()
    ranked = 0
    for _ in range(moves):
        if game.is_over(state):
            break
        if game.is_chance_node(state):
            state = game.apply_chance(state, game.sample_chance(state, rng)).state
            continue
        if ui.rank is not None and ranked < 2:
            candidates = list(ui.rank(state, None))
            ranked += 1
            if ui.rollout_text is not None:
                ui.rollout_text(state)
        else:
            candidates = []
        legal = game.legal_moves(state)
        if not legal:
            break
        move = candidates[0].move if candidates else legal[int(rng.integers(len(legal)))]
        state = game.play(state, move).state
        ui.describe(game, state)
    if ui.search_jobs is not None:  # the long search's kernels (HATETRIS's beam runs in the window's process)
        exercise_search(game, ui.search_jobs)


def exercise_search(game: Game, jobs: Any) -> None:
    """Run the game's long search for a moment from its start, in a folder thrown away after."""
    with tempfile.TemporaryDirectory(prefix="kibitz-prepare-") as folder:
        job = jobs.start(Path(folder) / "search", Line(game.initial_state(), ()), 0, seconds=SEARCH_SECONDS)
        job.run(lambda progress: None, lambda: False)


def prepare(short_name: str) -> float:
    """Compile (or load) ``short_name``'s kernels and write its stamp; returns the seconds."""
    started = time.perf_counter()
    clear_stale_kernels()
    exercise(GAMES[short_name])
    stamp = stamp_path(short_name)
    stamp.parent.mkdir(parents=True, exist_ok=True)
    write_text_atomic(stamp, json.dumps({"game": short_name, "fingerprint": fingerprint()}))
    return time.perf_counter() - started


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m app.prepare", description=__doc__.splitlines()[0])
    parser.add_argument("games", nargs="+", choices=sorted(GAMES), metavar="GAME", help="short names: " + ", ".join(GAMES))
    options = parser.parse_args(argv)
    for short_name in options.games:
        seconds = prepare(short_name)
        print(f"{short_name} prepared in {seconds:.1f} s", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
