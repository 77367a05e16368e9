"""The README's picture of a reviewed line: the 1196-split SPL-T record reviewed, shown at its
costliest move, with the Review panel open. Run under a real display (or Xvfb with a window
manager): ``python docs/line_review_screenshot.py [PATH]``. Settings and session go to a
temporary folder."""

from __future__ import annotations

import os
import sys
import tempfile
import time
from pathlib import Path

PROJECT = Path(__file__).resolve().parents[1]
RECORD = PROJECT.parent / "shared" / "data" / "splt" / "1196seq.txt"


def main() -> int:
    target = Path(sys.argv[1]) if len(sys.argv) > 1 else PROJECT / "docs" / "screenshots" / "line-review-splt.png"
    folder = tempfile.mkdtemp(prefix="kibitz-review-shot-")
    os.environ["KIBITZ_SETTINGS_DIR"] = folder
    os.environ["KIBITZ_SESSION_DIR"] = folder
    from PySide6.QtWidgets import QApplication

    from app.gui.main_window import MainWindow
    from engines import GAMES

    app = QApplication.instance() or QApplication(sys.argv[:1])
    window = MainWindow(game_name="splt")
    window.resize(1500, 980)
    window.show()

    def wait(condition, seconds: float) -> None:
        end = time.monotonic() + seconds
        while not condition() and time.monotonic() < end:
            app.processEvents()
            time.sleep(0.01)

    wait(lambda: not window.is_preparing(), 300)
    game = GAMES["splt"]
    window.apply_line(game.parse_sequence(RECORD.read_text(), source=str(RECORD)))
    window.review_action.trigger()  # as Ctrl+L: the Review panel opens beside the sequence editor
    wait(lambda: not window.review.is_running(), 120)
    nodes = window.tree.line_nodes()
    costliest = max(nodes[1:], key=lambda node: node.review.loss)
    window.tree.go_to(costliest)
    wait(lambda: False, 1.5)
    target.parent.mkdir(parents=True, exist_ok=True)
    window.grab().save(str(target))
    print(f"wrote {target} (move {costliest.move_number}, {costliest.review.classification})")
    window.review.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
