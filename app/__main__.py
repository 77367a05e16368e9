"""``python -m app``: the ``kibitz`` command (:func:`app.cli.main`)."""

from __future__ import annotations

import sys

from app.cli import main

if __name__ == "__main__":
    sys.exit(main())
