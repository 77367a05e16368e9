"""Screen regions are checked at the edge like images: whole 32-bit numbers, a positive size and
at most vision.images' pixel limit, before the capture backend allocates anything (issue 23)."""

from __future__ import annotations

import pytest

from engines.errors import KibitzInputError
from vision.capture import Region


@pytest.mark.parametrize("values, message", [
    ([0, 0, 20_000, 20_000], "capture region: the image is 20,000 x 20,000 px, 400,000,000 pixels; Kibitz reads "
                             "images of at most 64,000,000 pixels (64 megapixels)"),
    (["99999999999999999999", "0", "10", "10"],
     "a capture region's left is 99999999999999999999; it must be from -2,147,483,647 to 2,147,483,647"),
    ([0, float("inf"), 10, 10], "a capture region's top must be a whole number, not inf"),
    (["0", "0", "ten", "10"], "a capture region's width must be a whole number, not 'ten'"),
    ([0, 0, True, 10], "a capture region's width must be a whole number, not True"),
    ([0, 0, 10, -5], "a capture region needs a positive size, not 10 x -5"),
])
def test_a_damaged_remembered_region_is_refused_with_the_reason(values, message):
    with pytest.raises(KibitzInputError) as caught:
        Region.from_list(values)
    assert str(caught.value) == message


def test_a_region_as_settings_store_it_is_read():
    assert Region.from_list(" 10, -20,300,200 ".split(",")) == Region(10, -20, 300, 200)
    assert Region.from_list([1.0, 2.0, 3.0, 4.0]) == Region(1, 2, 3, 4)
