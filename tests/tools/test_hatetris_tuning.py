"""benchmarks/hatetris_tuning.py: resuming from a tuning log (its best set, its gains reused only
when measured the same way) and the terms a run may move."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import pytest

from benchmarks import hatetris_tuning

TRAINING = ["empty", "Deasuke@40"]


@pytest.fixture
def tuning():
    return hatetris_tuning


def write_log(path: Path, entries: list[dict]) -> str:
    path.write_text("".join(json.dumps(entry) + "\n" for entry in entries), encoding="utf-8")
    return str(path)


def test_a_log_resumes_from_its_best_entry_with_its_gains_when_measured_alike(tuning, tmp_path):
    # The second entry has the higher mean; it was saved with ten weights, before the last term.
    entries = [{"weights": [1.0] * 11, "gains": {"empty": 10.0, "Deasuke@40": 20.0}, "mean": 15.0,
                "widths": [10000, 12000], "lookahead": 8},
               {"weights": [2.0] * 10, "gains": {"empty": 30.0, "Deasuke@40": 10.0}, "mean": 20.0,
                "widths": [10000, 12000], "lookahead": 8}]
    weights, entry = tuning.first_weights(write_log(tmp_path / "log.jsonl", entries))
    assert weights == (2.0,) * 10 + (0.0,)
    alike = argparse.Namespace(widths=[10000, 12000], lookahead=8)
    assert tuning.logged_gains(entry, ["Deasuke@40", "empty"], alike) == [10.0, 30.0]
    # Other widths, another lookahead, other starts, or an entry of an older log: searched again.
    assert tuning.logged_gains(entry, TRAINING, argparse.Namespace(widths=[10000], lookahead=8)) is None
    assert tuning.logged_gains(entry, TRAINING, argparse.Namespace(widths=[10000, 12000], lookahead=4)) is None
    assert tuning.logged_gains(entry, ["empty"], alike) is None
    assert tuning.logged_gains({"weights": [2.0] * 11, "gains": entry["gains"], "mean": 20.0}, TRAINING,
                               alike) is None
    # A named set has no gains to reuse.
    assert tuning.first_weights("df")[1] == {}


def test_a_damaged_log_is_named_with_its_line(tuning, tmp_path):
    path = tmp_path / "log.jsonl"
    path.write_text('{"weights": [1.0], "mean": 1.0}\n{"weights": "x"\n', encoding="utf-8")
    with pytest.raises(SystemExit, match=rf"^{path}, line 1: 1 weights, expected 11$"):
        tuning.first_weights(str(path))


def test_only_known_terms_but_the_score_may_move(tuning):
    assert tuning.moving_terms("S surface depth, surface depth after one clear") == frozenset({8, 10})
    with pytest.raises(SystemExit, match="'score' is not a term the search may move"):
        tuning.moving_terms("score")
    with pytest.raises(SystemExit, match="'edge heights' is not a term"):
        tuning.moving_terms("edge heights")
