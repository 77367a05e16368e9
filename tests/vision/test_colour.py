"""The readers' shared colour and region helpers (vision/colour.py)."""

from __future__ import annotations

import numpy as np

from vision.colour import components


def test_components_of_an_empty_mask_are_the_background_alone():
    """OpenCV's own call kills the process on a mask with no pixels (OpenCV 5); a reader cutting
    an empty region gets the background alone instead."""
    for shape in ((5, 0), (0, 7), (0, 0)):
        count, labels, stats, centroids = components(np.zeros(shape, np.uint8), 4)
        assert count == 1 and labels.shape == shape and stats.shape == (1, 5) and centroids.shape == (1, 2)
    count, labels, stats, _ = components(np.array([[1, 0, 1], [1, 0, 0]], bool), 4)
    assert count == 3 and sorted(stats[1:, 4].tolist()) == [1, 2] and labels[1, 0] == labels[0, 0] != labels[0, 2]
