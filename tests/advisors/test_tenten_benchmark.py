"""benchmarks/tenten.py beside a stand-in for Coelho's program: a small script of ours that prints
rounds in the format spec 3.1 describes (the board as a grid of ``x`` and ``.``, ``N: trying ABC W``,
``best`` with the three placements, ``per round: ... evals=...``, ``stopped after N rounds``), so
the benchmark's reading, plan comparison, game endings and board checks run without the anchor.

The stand-in's rounds are worked by hand: on the empty board three singles are best in a row from
the first corner (cells 0 1 2, the test of the planner's own file); a board with the nine cells
(r, c), r and c in {2, 5, 8}, leaves no room for a 3 x 3 square, so the tray O O O ends the game.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

BENCHMARK = Path(__file__).resolve().parents[2] / "benchmarks" / "tenten.py"

STAND_IN = '''
import sys

def show(cells):
    print(f"current: {len(cells)} 0x0 0 (0)")
    print("/  0 1 2 3 4 5 6 7 8 9")
    for r in range(10):
        print(f"{r} " + "".join(" x" if 10 * r + c in cells else " ." for c in range(10)))

print("stand-in - 1010! rounds in Coelho's printed format")
print(f"seeding random with {sys.argv[2]} one=yes")
show(set())
print("0: trying ... 3")
print("play: threaded version...... done.")
print("best FIRST: 101.904")
print("per round: cels=3.00+-0.00 inputs=3.00 score=3.00 max=3 zeros=0 evals=1234 0.001s")
show({10 * r + c for r in (2, 5, 8) for c in (2, 5, 8)})
print("1: trying OOO 27")
print("play: threaded version... done.")
print("stopped after 1 rounds")
'''


def run(tmp_path: Path, plan: str, *options: str) -> str:
    program = tmp_path / "1010"
    program.write_text(f"#!{sys.executable}\n" + STAND_IN.replace("FIRST", plan), encoding="utf-8")
    program.chmod(0o755)
    result = subprocess.run([sys.executable, str(BENCHMARK), "--anchor", str(tmp_path), "--rounds", "2",
                             "--batch", "1", *options], capture_output=True, text=True, timeout=600)
    assert result.returncode == 0, result.stderr
    return result.stdout


@pytest.mark.parametrize("plan, same, markdown", [(".0 .1 .2", True, True), (".2 .1 .0", False, False)])
def test_the_benchmark_reads_rounds_and_compares_plans(tmp_path, plan, same, markdown):
    out = run(tmp_path, plan, *(["--markdown"] if markdown else []))
    if same:
        assert "1 of 1 plans identical (0 differ" in out
    else:  # the same board reached in another order: a different plan of equal value
        assert "0 of 1 plans identical (1 differ, 1 of them between plans of equal value)" in out
    assert "game endings agreed 1 of 1" in out
    # The stand-in's second board is not what its first plan leaves: the check must say so.
    assert "replay of its plan in 0 of 1" in out
    assert "| 1,234 |" in out  # its evaluations per round, read from its running average
    if markdown:  # nothing but the Markdown on standard output
        assert "commit `unknown`" in out  # not a git checkout
        assert not out.startswith("#") and "Kibitz / anchor:" not in out


def test_without_the_anchor_it_says_so_and_times_kibitz_alone(tmp_path):
    result = subprocess.run([sys.executable, str(BENCHMARK), "--anchor", str(tmp_path / "missing"), "--rounds", "3"],
                            capture_output=True, text=True, timeout=600)
    assert result.returncode == 0, result.stderr
    assert "anchor absent" in result.stdout and "https://github.com/zx80/1010" in result.stdout
    assert "| Kibitz, 1 thread | 3 rounds |" in result.stdout
