"""``vision.read``: what every reader is handed, whatever the game."""

from __future__ import annotations

import numpy as np
import pytest

from vision import READER_MODULES, NoBoardFound, read


@pytest.mark.parametrize("game", sorted(READER_MODULES))
@pytest.mark.parametrize("shape", [(0, 5, 3), (5, 0, 3), (0, 0)])
def test_an_empty_image_holds_no_board(game, shape):
    # an empty array reached OpenCV in the 1010! and Destruct-o-Match readers and raised cv2.error
    with pytest.raises(NoBoardFound, match="empty"):
        read(game, np.zeros(shape, np.uint8))


def test_an_image_that_is_not_8_bit_names_its_file(tmp_path):
    import cv2

    from vision.images import ImageError, load

    path = tmp_path / "float.tiff"
    assert cv2.imwrite(str(path), np.ones((20, 20, 3), np.float32))
    with pytest.raises(ImageError, match=r"float\.tiff: expected an 8-bit image"):
        load(path)
