"""The reading review says why it opened: doubtful cells, or values read outside the grid (a
board whose boulders reach the capture's edge, SPL-T's header numbers), never "unsure of 0 cells"
with no reason."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from app.gui.reading_review import ReadingReview, doubt_reasons, review_status, review_summary
from engines import GAMES
from engines.splt import State as SpltState
from vision.images import load
from vision.reading import Reading

DESTRUCTO = GAMES["destructo"]


@pytest.fixture
def crop(reference_data: Path) -> np.ndarray:
    path = reference_data / "destructo" / "blocks_before.png"
    if not path.exists():
        pytest.skip("destructo/blocks_before.png not in the reference data")
    return load(path)


def test_a_board_cut_by_the_capture_opens_the_review_saying_so(qtbot, window, crop):
    # The real crop ends at its outer boulders (tests/vision/test_destructo_reader.py): every
    # cell reads surely, but a board of another size may go on beyond the capture, so the
    # reading is doubtful by its extent only.
    window.set_game("destructo")
    window.capture.read_image(crop, "pasted image")
    qtbot.waitUntil(lambda: window.capture.review is not None, timeout=10000)
    review: ReadingReview = window.capture.review
    assert review.reading.doubtful == [] and review.reading.doubtful_fields == ("extent",)
    summary = review.summary_label.text()
    assert summary.startswith("The boulders reach the image's ")
    assert "left" in summary and "bottom" in summary
    assert "the board may go on beyond the capture." in summary
    assert "check that the board below is the whole board" in summary
    assert "unsure of 0" not in summary
    assert review.cells_label.text() == "Doubtful cells: none"
    assert window.message_text() == "The board may continue past the captured region's edge: check the reading"
    # the board text is whole at the dialog's own size: its header line is not behind a scroll bar
    review.show()
    qtbot.waitExposed(review)
    assert review.board_text().splitlines()[0] == "level 1 · score 0 · shuffle 0 · undo 0"
    assert not review.text_edit.horizontalScrollBar().isVisible()
    review.close()


def reading(doubtful_cells=(), fields=(), diagnostics=None) -> Reading:
    confidence = np.full((4, 4), 0.97)
    for row, column in doubtful_cells:
        confidence[row, column] = 0.41
    return Reading("2048", None, None, confidence, diagnostics or {}, tuple(fields))


def test_reasons_for_cells_and_fields():
    both = reading([(2, 1)], ["extent"], {"extent": "the boulders reach the image's left edge: the board may go on "
                                          "beyond the capture"})
    assert doubt_reasons(both) == [
        "The reader is unsure of 1 cell (lowest confidence 41%), marked red on the capture.",
        "The boulders reach the image's left edge: the board may go on beyond the capture.",
    ]
    assert review_summary(both).endswith("Check them, correct the board below, then load it.")
    assert review_status(both) == "The reader is unsure of 1 cell: check them"
    # SPL-T's header numbers, with what the reader saw and how sure it was
    header = reading([], ["splits", "score"], {"splits": 158, "splits_confidence": 0.42, "score": 11834,
                                               "score_confidence": 0.5})
    assert doubt_reasons(header) == ["The SPLITS count above the board is doubtful (read 158, 42% sure).",
                                     "The SCORE above the board is doubtful (read 11834, 50% sure)."]
    assert review_summary(header).startswith("The SPLITS count above the board is doubtful (read 158, 42% sure). "
                                             "The SCORE above the board is doubtful")
    assert "No cell is in doubt (lowest confidence 97%)" in review_summary(header)
    assert review_status(header) == ("The SPLITS count above the board is doubtful (read 158, 42% sure): "
                                     "check the reading")
    # an extent without the reader's sentence still says what it means
    assert doubt_reasons(reading([], ["extent"])) == ["The board may continue past the captured region's edge."]


def test_the_review_of_an_splt_header_reading(qtbot):
    from PySide6.QtGui import QImage

    image = QImage(80, 160, QImage.Format.Format_RGB32)
    image.fill(0)
    state = SpltState()
    confidence = np.full((16, 8), 0.95)
    diagnostics = {"board_px": [0, 0, 10], "splits": 3, "splits_confidence": 0.3}
    splt_reading = Reading("splt", state, None, confidence, diagnostics, ("splits",))
    review = ReadingReview(GAMES["splt"], splt_reading, image)
    qtbot.addWidget(review)
    assert review.summary_label.text().startswith("The SPLITS count above the board is doubtful (read 3, 30% sure).")
    assert "unsure of 0" not in review.summary_label.text()


def test_a_screenshot_the_shown_position_does_not_lead_to_opens_the_review_saying_so(qtbot, window, splt_data):
    # Issue 22: the real imbalance.jpg (a finished game: 87 splits, score 2335) opened while split
    # 1012 of the 1196 record is shown was loaded as "1012 splits, 16 legal moves", sure. No legal
    # splits lead from the shown position to this board, so the image is read alone (its own 87
    # splits) and the review opens saying why instead of loading it.
    splt = GAMES["splt"]
    line = splt.parse_sequence((splt_data / "1196seq.txt").read_text(), source="1196seq.txt")
    shown = line.start
    for move in line.moves[:1012]:
        shown = splt.play(shown, move).state
    assert window.game is splt
    window.load_position(shown, "record at 1012")
    analyses = len(window.session.analyses)
    assert window.capture.open_image_file(str(splt_data / "imbalance.jpg"))
    qtbot.waitUntil(lambda: window.capture.review is not None, timeout=10000)
    review: ReadingReview = window.capture.review
    assert window.state is shown and len(window.session.analyses) == analyses  # nothing loaded
    reading = review.reading
    assert not reading.sure and "previous" in reading.doubtful_fields
    assert (reading.state.splits, reading.state.score) == (87, 2335) and splt.legal_moves(reading.state) == []
    reason = ("The position shown in Kibitz does not lead to this board: the split count and score were read "
              "from the image alone.")
    assert review.summary_label.text().startswith(reason)
    assert "unsure of 0" not in review.summary_label.text()
    assert window.message_text() == reason.rstrip(".") + ": check the reading"
    assert review.board_text().startswith(splt.board_text(reading.state).splitlines()[0])
    review.close()
