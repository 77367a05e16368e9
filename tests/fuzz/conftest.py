"""Prints the fuzz suite's per-target table (cases, accepted, refused with a documented error,
failed, slowest case) at the end of a run that ran fuzz targets."""

from __future__ import annotations

from tests.fuzz.mutations import TALLY, examples


def pytest_terminal_summary(terminalreporter, exitstatus, config):
    if not TALLY:
        return
    write = terminalreporter.write_line
    write("")
    write(f"fuzz targets ({examples()} cases each asked; KIBITZ_FUZZ_EXAMPLES sets it)")
    write("| target | cases | accepted | refused (documented error) | failed | slowest case |")
    write("|---|--:|--:|--:|--:|--:|")
    for target in sorted(TALLY):
        tally = TALLY[target]
        write(f"| {target} | {tally['cases']} | {tally['accepted']} | {tally['refused']} | {tally['failed']} | "
              f"{tally['slowest_ms']} ms |")
