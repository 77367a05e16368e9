"""Shared test helpers: where the reference data from the real games lives."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

PROJECT = Path(__file__).resolve().parents[1]


def pytest_sessionstart(session):
    """Cached kernels of sources edited since they were compiled are deleted first (numba checks
    only a kernel's own file), as every start of Kibitz does."""
    from app.prepare import clear_stale_kernels

    clear_stale_kernels()


@pytest.fixture(autouse=True)
def private_settings_and_session(tmp_path_factory, monkeypatch):
    """Every test gets its own settings and session folders, whatever the environment says: a
    player's ``KIBITZ_SESSION_DIR`` / ``KIBITZ_SETTINGS_DIR`` (or the platform's folders) are
    never read or written by the suite."""
    home = tmp_path_factory.mktemp("kibitz-home") / "settings"
    monkeypatch.setenv("KIBITZ_SETTINGS_DIR", str(home))
    monkeypatch.setenv("KIBITZ_SESSION_DIR", str(home))
    monkeypatch.setenv("KIBITZ_DATA_DIR", str(home.parent / "data"))  # the command line's searches, crash reports
    # kernels compile in the tests' own process (the preparation process is tested by itself)
    monkeypatch.setenv("KIBITZ_PREPARE_IN_PROCESS", "1")
    return home


def reference_data_dir() -> Path | None:
    """``$KIBITZ_REFERENCE_DATA`` if set, else ``../shared/data`` beside the project."""
    configured = os.environ.get("KIBITZ_REFERENCE_DATA")
    candidate = Path(configured) if configured else PROJECT.parent / "shared" / "data"
    return candidate if candidate.is_dir() else None


@pytest.fixture(scope="session")
def reference_data() -> Path:
    found = reference_data_dir()
    if found is None:
        pytest.skip(
            "reference data from the real games not found: set KIBITZ_REFERENCE_DATA or put "
            "shared/data beside the project (see README, 'For developers')"
        )
    return found


@pytest.fixture(scope="session")
def splt_data(reference_data: Path) -> Path:
    return reference_data / "splt"


@pytest.fixture(scope="session")
def splt_records(splt_data: Path) -> dict:
    return json.loads((splt_data / "record_sequences_geometric.json").read_text())


@pytest.fixture(scope="session")
def splt_screenshots(splt_data: Path) -> dict:
    return json.loads((splt_data / "screenshot_truth.json").read_text())
