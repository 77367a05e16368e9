"""Journeys run offscreen with their own settings and session (see tests/conftest.py)."""

from __future__ import annotations

import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
