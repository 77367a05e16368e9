"""The shared grid finder (``vision.grid``) on profiles worked out by hand: 1.0 where a column (or
row) is all board colour, 0.0 where it is all cell."""

from __future__ import annotations

import numpy as np
import pytest

from vision.grid import banded_grid


def banded(cells: int, gap: int, cell: int, band: float = 1.0, inside: float = 0.0) -> np.ndarray:
    """A band ``gap`` wide, then ``cells`` times a cell ``cell`` wide and a band."""
    profile = [band] * gap
    for _ in range(cells):
        profile += [inside] * cell + [band] * gap
    return np.array(profile)


@pytest.mark.parametrize(("cells", "gap", "cell"), [(4, 4, 20), (3, 6, 30), (8, 2, 12), (4, 15, 106)])
def test_a_banded_grid_is_found_with_its_gap(cells, gap, cell):
    found = banded_grid(banded(cells, gap, cell), cells)
    assert found is not None
    assert found.length == cells * cell + (cells + 1) * gap
    assert found.gap == pytest.approx(gap, abs=0.5)
    assert found.contrast == pytest.approx(1.0, abs=0.05)


def test_another_count_of_cells_is_not_taken_for_it():
    assert banded_grid(banded(4, 4, 20), 5) is None    # a band would cross a cell's middle
    assert banded_grid(banded(8, 2, 12), 4) is None    # the finer grid's bands cross the 4 cells


def test_faint_bands_or_a_board_too_short_are_no_grid():
    assert banded_grid(banded(4, 4, 20, band=0.5, inside=0.3), 4) is None  # bands not board colour
    assert banded_grid(banded(4, 1, 4), 4) is None  # 21 px: under 6 px a cell
