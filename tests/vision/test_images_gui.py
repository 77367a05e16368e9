"""A pasted image is checked at the edge like a file: one too large is refused with the figures
before its pixels are copied (issue 23)."""

from __future__ import annotations

import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from PySide6.QtGui import QImage  # noqa: E402

from tests.app import conftest as app_fixtures  # noqa: E402

# the main windows' fixtures, as tests/app has them
settings_dir, make_window, window = app_fixtures.settings_dir, app_fixtures.make_window, app_fixtures.window


def test_pasting_an_image_over_the_pixel_limit_is_refused_with_the_figures(window):
    huge = QImage(8001, 8000, QImage.Format.Format_Mono)  # 8 MB: one bit a pixel
    huge.fill(0)
    assert not window.capture.paste_image(huge)
    assert window.capture.message_box.text() == "The clipboard's image is too large to read."
    assert window.capture.message_box.informativeText() == (
        "the image is 8,001 x 8,000 px, 64,008,000 pixels; Kibitz reads images of at most 64,000,000 pixels "
        "(64 megapixels)")
    assert not window.capture.reading_pending()
