"""Exhaustive small-well search (spec 3.10) against ``shared/data/hatetris/small_well_bfs.tsv``.

The expected score, length, largest width and total states of each well are the file's exhaustive
re-run values (two independent searches agree on them, spec 3.10). Only the rows whose re-run
visited at most ``STATE_LIMIT`` states are searched here (about 3 s in all, after the kernels are
compiled); ``benchmarks/hatetris_small_wells.py`` runs every row.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from advisors.hatetris.exhaustive import SmallWellResult, breadth_first

STATE_LIMIT = 200_000


@pytest.fixture(scope="session")
def hatetris_data(reference_data: Path) -> Path:
    return reference_data / "hatetris"


def _read_tsv(path: Path) -> list[dict[str, str]]:
    header, *lines = path.read_text(encoding="utf-8").splitlines()
    names = header.split("\t")
    return [dict(zip(names, line.split("\t"), strict=True)) for line in lines if line]


@pytest.fixture(scope="session")
def small_wells(hatetris_data: Path) -> dict[tuple[int, int], dict[str, str]]:
    return {(int(row["width"]), int(row["height"])): row for row in _read_tsv(hatetris_data / "small_well_bfs.tsv")}


# The wells whose re-run searched at most STATE_LIMIT states (checked against the file below).
SMALL = [
    (4, 2), (4, 3),
    (5, 2), (5, 3), (5, 4), (5, 5), (5, 6), (5, 7), (5, 8), (5, 9),
    (6, 2), (6, 3), (6, 4), (6, 5), (6, 6), (6, 7),
    (8, 2), (8, 3), (8, 4), (8, 5),
    (10, 2), (10, 3), (10, 4),
]


def test_the_small_list_is_every_row_under_the_limit(small_wells):
    under = sorted(size for size, row in small_wells.items()
                   if row["rerun_total_states"] and int(row["rerun_total_states"]) <= STATE_LIMIT)
    assert sorted(SMALL) == under


@pytest.mark.parametrize("size", SMALL, ids=[f"{w}x{h}" for w, h in SMALL])
def test_small_well_matches_the_exhaustive_rerun(small_wells, size):
    row = small_wells[size]
    result = breadth_first(*size)
    assert (result.score, result.length, result.max_width, result.total_states) == (
        int(row["rerun_score"]), int(row["rerun_length"]), int(row["rerun_max_width"]),
        int(row["rerun_total_states"]),
    )
    assert result.complete
    # Depth 0 (the empty well) is one state and counts; every depth up to the length is alive.
    assert result.per_depth_widths[0] == 1
    assert len(result.per_depth_widths) == result.length + 1
    assert all(width > 0 for width in result.per_depth_widths)
    assert sum(result.per_depth_widths) == result.total_states
    assert max(result.per_depth_widths) == result.max_width


def test_the_blog_was_wrong_about_8x3(small_wells):
    # Spec 3.10: the published 1 / 6 for 8 x 3 counted a line cleared above the bar; the re-run
    # (and we) find 0 / 5.
    row = small_wells[8, 3]
    result = breadth_first(8, 3)
    assert (int(row["blog_score"]), int(row["blog_length"])) == (1, 6)
    assert (result.score, result.length) == (0, 5)


def test_smallest_wells_by_hand():
    # 4 x 2: two playable rows (4 and 5) under four buffer rows, 4 columns. In the empty well a
    # flat I fills row 5 and clears it (peak 6, the empty well); the other six pieces lie flat on
    # two rows at best (peak 4), and their upright placements stick out above the bar and end the
    # game. The lowest peak, first in S Z O I L J T, is S. A flat S rests on the floor at y = 3
    # in two places, x = -1 or 0 with o = 0, which o = 2 at x = 0 or 1 duplicates cell for cell:
    # 2 distinct wells at depth 1. Each leaves 4 empty cells below the bar that are not connected
    # (for x = -1: (0,4), (3,4), (2,5), (3,5)), so no piece fits under the bar any more and every
    # second placement ends the game: length 1, width 2, total 1 + 2 = 3, score 0.
    result = breadth_first(4, 2)
    assert result == SmallWellResult(score=0, length=1, max_width=2, total_states=3, per_depth_widths=(1, 2))


def test_max_depth_stops_the_endless_4_wide_well():
    # Spec 3.10: without loop prevention the 4-wide well loops forever from height 4.
    result = breadth_first(4, 4, max_depth=12)
    assert not result.complete
    assert result.length == 12
    assert len(result.per_depth_widths) == 13


def test_progress_is_told_each_depth():
    seen = []
    result = breadth_first(5, 4, progress=lambda depth, width, total: seen.append((depth, width, total)))
    assert [depth for depth, _, _ in seen] == list(range(result.length + 1))
    assert tuple(width for _, width, _ in seen) == result.per_depth_widths
    assert seen[-1][2] == result.total_states


def test_a_depth_past_the_memory_limit_stops_the_search_saying_where():
    """The 5 x 4 well's widest depth is depth 3 with 41 states (D&F's table: max width 41). A state
    of this well packs into one word plus its score: 80 bytes while a depth is built
    (states_within), so 41 x 80 bytes hold it and 40 x 80 do not."""
    from advisors.hatetris.exhaustive import states_within
    from engines.errors import KibitzInputError

    assert states_within(41 * 80, words=1) == 41
    assert breadth_first(5, 4, max_bytes=41 * 80).max_width == 41
    with pytest.raises(KibitzInputError, match=r"^the 5 x 4 well has more than 40 states at depth 3: holding "
                                               r"them would take over the limit of 3\.1 KB; lower the height"):
        breadth_first(5, 4, max_bytes=40 * 80)
