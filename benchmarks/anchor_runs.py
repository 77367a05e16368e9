"""What every benchmark that runs an anchor beside Kibitz prints the same way: the anchor's
commit, the machine, the time, and the table (Markdown for benchmarks/readme_tables.py, or
aligned columns)."""

from __future__ import annotations

import os
import platform
import subprocess
import time
from collections.abc import Sequence
from pathlib import Path


def anchor_commit(path: Path) -> str:
    """The git commit of the checkout holding ``path`` (a folder or a file in it), or "unknown"."""
    folder = path if path.is_dir() else path.parent
    try:
        result = subprocess.run(["git", "-C", str(folder), "rev-parse", "HEAD"], capture_output=True, text=True,
                                timeout=30)
    except (OSError, subprocess.SubprocessError):
        return "unknown"
    return result.stdout.strip() if result.returncode == 0 and result.stdout.strip() else "unknown"


def machine() -> str:
    """The processor's model name and the number of cores."""
    model = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text(encoding="utf-8").splitlines():
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return f"{model}, {os.cpu_count()} cores"


def now() -> str:
    return time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())


def print_facts_and_table(facts: str, header: Sequence[str], rows: Sequence[Sequence[str]], markdown: bool) -> None:
    """The facts line and the table: Markdown (the first column left, the others right), or
    aligned columns under a "# facts" line."""
    if markdown:
        print(f"\n{facts}\n")
        print("| " + " | ".join(header) + " |")
        print("|" + "|".join("---" if i == 0 else "---:" for i in range(len(header))) + "|")
        for row in rows:
            print("| " + " | ".join(row) + " |")
        return
    print(f"\n# {facts}")
    widths = [max(len(str(row[i])) for row in [header, *rows]) for i in range(len(header))]
    for row in [header, *rows]:
        print("  ".join(str(cell).ljust(width) if i == 0 else str(cell).rjust(width)
                        for i, (cell, width) in enumerate(zip(row, widths))))
