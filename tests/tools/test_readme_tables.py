"""benchmarks/readme_tables.py: a benchmark's Markdown output replaces what lies between a marked
table's two lines in the README, and nothing else."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

SCRIPT = Path(__file__).resolve().parents[2] / "benchmarks" / "readme_tables.py"


@pytest.fixture(scope="module")
def tables():
    spec = importlib.util.spec_from_file_location("readme_tables", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


README = """# Title
text before
<!-- table: speed -->
| old | 1 |
<!-- /table: speed -->
between
<!-- table: strength -->
| kept | 2 |
<!-- /table: strength -->
after
"""


def test_a_table_is_replaced_between_its_markers_only(tables):
    updated = tables.replaced(README, "speed", "| new | 3 |\n| row | 4 |\n\n")
    assert updated == README.replace("| old | 1 |\n", "| new | 3 |\n| row | 4 |\n")
    assert tables.replaced(updated, "speed", "| old | 1 |") == README


def test_markers_without_partners_and_unknown_names_are_named(tables):
    with pytest.raises(ValueError, match="README.md has no table 'size' \\(marked tables: speed, strength\\)"):
        tables.replaced(README, "size", "| x |")
    with pytest.raises(ValueError, match="table 'speed' is opened and never closed"):
        tables.marked_tables(README.replace("<!-- /table: speed -->\n", ""))
    with pytest.raises(ValueError, match="line 4: '/table: speed' closes a table never opened"):
        tables.marked_tables(README.replace("<!-- table: speed -->\n", ""))
    with pytest.raises(ValueError, match="table 'speed' is marked twice"):
        tables.marked_tables(README + "<!-- table: speed -->\n<!-- /table: speed -->\n")


def test_the_projects_readme_has_well_formed_markers(tables):
    tables.marked_tables((SCRIPT.parents[1] / "README.md").read_text(encoding="utf-8"))
