"""The session: every analysis (a game's move tree, its file and its search) saved between runs.

The window keeps a list of analyses; each is one move tree from one start position (a new game,
a pasted or hand-made position, a loaded file). The session file is written atomically, so a crash
mid-write leaves the previous session whole. A file that cannot be read is never deleted or
overwritten: it is moved aside (``session-damaged-<time>.json``) and the reason, with where it
went, is reported to the player; any analysis in it that can still be read is kept. Whatever goes
wrong while reading it, the window still opens. Temporary files a save killed midway left beside
it are removed when the session is loaded.
"""

from __future__ import annotations

import dataclasses
import datetime
import json
import os
from pathlib import Path
from typing import Any

from advisors.review import read_saved_row
from engines import GAMES, KibitzInputError, NotationError
from engines.files import write_text_atomic
from engines.limits import read_json, shown
from engines.tree import MoveTree

SESSION_DIR_ENV = "KIBITZ_SESSION_DIR"
SESSION_FILE = "session.json"
FORMAT_VERSION = 1


@dataclasses.dataclass
class Analysis:
    """One move tree and what belongs to it."""

    name: str
    tree: MoveTree
    file: str | None = None  # the sequence file it was loaded from or saved to
    search_folder: str | None = None  # the long search started from it (continue it there)

    @property
    def game(self):
        return self.tree.game


@dataclasses.dataclass
class Session:
    analyses: list[Analysis] = dataclasses.field(default_factory=list)
    current: int = 0  # index in ``analyses``
    layout: str = "analysis"


@dataclasses.dataclass(frozen=True)
class Loaded:
    """What reading the session file gave: the session (None if there was none to read) and,
    when the file was damaged, what was wrong and where the file was moved."""

    session: Session | None
    problem: str | None = None
    set_aside: Path | None = None


def default_directory() -> Path:
    """``$KIBITZ_SESSION_DIR``, else ``$KIBITZ_SETTINGS_DIR`` (tests), else the platform's
    application-data folder."""
    for variable in (SESSION_DIR_ENV, "KIBITZ_SETTINGS_DIR"):
        value = os.environ.get(variable)
        if value:
            return Path(value)
    from PySide6.QtCore import QStandardPaths

    return Path(QStandardPaths.writableLocation(QStandardPaths.StandardLocation.AppDataLocation))


def session_to_dict(session: Session) -> dict[str, Any]:
    return {
        "version": FORMAT_VERSION,
        "current": session.current,
        "layout": session.layout,
        "analyses": [
            {
                "name": analysis.name,
                "file": analysis.file,
                "search_folder": analysis.search_folder,
                "tree": analysis.tree.to_dict(),
            }
            for analysis in session.analyses
        ],
    }


class SessionStore:
    """Reads and writes one session file (``directory/session.json``)."""

    def __init__(self, directory: Path | None = None) -> None:
        self.directory = Path(directory) if directory is not None else default_directory()
        self.path = self.directory / SESSION_FILE

    def save(self, session: Session) -> None:
        """Write the session atomically (raises OSError when the folder cannot be written)."""
        self.directory.mkdir(parents=True, exist_ok=True)
        write_text_atomic(self.path, json.dumps(session_to_dict(session), separators=(",", ":")))

    def game_names(self) -> list[str]:
        """The games of the saved session, the current analysis's first, without replaying any
        tree (so the window can prepare their kernels before loading it); [] when unreadable."""
        try:
            if not self.path.is_file():
                return []
            data = read_json(self.path)
            entries = data["analyses"]
            names = [entry["tree"]["game"] for entry in entries]
            current = data.get("current", 0)
            if isinstance(current, int) and 0 <= current < len(names):
                names.insert(0, names[current])
            return list(dict.fromkeys(name for name in names if isinstance(name, str) and name in GAMES))
        except Exception:  # noqa: BLE001 - a damaged file is load()'s to report; here it names no game
            return []

    def stale_temporary_files(self) -> list[Path]:
        """Temporary files of saves that were killed before their rename (``.session.json.*.tmp``)."""
        return sorted(self.directory.glob(f".{SESSION_FILE}.*.tmp"))

    def _remove_stale_temporary_files(self) -> None:
        for path in self.stale_temporary_files():
            try:
                path.unlink()
            except OSError:
                pass  # another process's, or already gone: it holds nothing the session needs

    def load(self) -> Loaded:
        """Read the session; see :class:`Loaded`. Never raises for a bad file: whatever fails,
        the file is set aside and what could be read is returned."""
        self._remove_stale_temporary_files()
        if not self.path.exists() and not self.path.is_symlink():
            return Loaded(None)
        try:
            return self._load()
        except Exception as error:  # noqa: BLE001 - the last guard: a damaged session never stops the app
            return self._set_aside(None, f"{self.path}: cannot be read ({type(error).__name__}: {error})")

    def _load(self) -> Loaded:
        source = str(self.path)
        if self.path.is_dir():
            return Loaded(None, f"{source}: is a folder, not a session file; it was left where it is")
        try:
            data = read_json(self.path)
        except KibitzInputError as error:
            return self._set_aside(None, str(error))
        if not isinstance(data, dict) or data.get("version") != FORMAT_VERSION:
            version = shown(data.get("version") if isinstance(data, dict) else None)
            return self._set_aside(None, f"{source}: not a Kibitz session of version {FORMAT_VERSION} (version {version})")
        layout = data.get("layout", "analysis")
        session = Session(layout=layout if layout in ("analysis", "compact") else "analysis")
        problems = []
        entries = data.get("analyses")
        if not isinstance(entries, list):
            return self._set_aside(None, f"{source}: 'analyses' must be a list")
        for place, entry in enumerate(entries, start=1):
            try:
                analysis = self._analysis(entry, f"{source}, analysis {place}")
                session.analyses.append(analysis)
                skipped = analysis.tree.skipped_reviews
                if skipped:  # the moves are kept; only the damaged reviews are left out
                    problems.append(f"{source}, analysis {place}: {len(skipped)} saved review"
                                    f"{'s' if len(skipped) != 1 else ''} left out ({skipped[0]})")
            except KibitzInputError as error:
                problems.append(str(error))
            except Exception as error:  # noqa: BLE001 - one analysis that fails to load must not cost the others
                problems.append(f"{source}, analysis {place}: {type(error).__name__}: {error}")
        current = data.get("current", 0)
        whole = isinstance(current, int) and not isinstance(current, bool)
        session.current = current if whole and 0 <= current < len(session.analyses) else 0
        if problems:
            kept = f"{len(session.analyses)} of {len(entries)} analyses were read"
            return self._set_aside(session, "; ".join(problems) + f" ({kept})")
        return Loaded(session)

    @staticmethod
    def _analysis(entry: Any, source: str) -> Analysis:
        if not isinstance(entry, dict) or not isinstance(entry.get("tree"), dict):
            raise NotationError("an analysis must be an object with a 'tree'", source=source)
        game_name = entry["tree"].get("game")
        if not isinstance(game_name, str) or game_name not in GAMES:
            raise NotationError(f"unknown game {shown(game_name)}", source=source)
        tree = MoveTree.from_dict(GAMES[game_name], entry["tree"], source=source, read_review=read_saved_row(GAMES[game_name]))
        name = entry.get("name") if isinstance(entry.get("name"), str) else "analysis"
        file = entry.get("file") if isinstance(entry.get("file"), str) else None
        folder = entry.get("search_folder") if isinstance(entry.get("search_folder"), str) else None
        return Analysis(name, tree, file, folder)

    def _set_aside(self, session: Session | None, problem: str) -> Loaded:
        stamp = datetime.datetime.now().strftime("%Y%m%d-%H%M%S")
        target = self.directory / f"session-damaged-{stamp}.json"
        counter = 1
        while target.exists():
            counter += 1
            target = self.directory / f"session-damaged-{stamp}-{counter}.json"
        try:
            os.replace(self.path, target)
        except OSError as error:
            return Loaded(session, f"{problem}. It could not be moved aside ({error}); it was left where it is.")
        return Loaded(session, problem, target)
