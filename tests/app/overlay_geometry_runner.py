"""Lays the advice overlay over regions of the simulated screens and prints what it drew as JSON
(run by tests/app/test_advice_overlay.py in a process of its own: the screens are chosen when Qt
starts).

    QT_QPA_PLATFORM=offscreen:configfile=SCREENS.json python tests/app/overlay_geometry_runner.py CASES.json

CASES: a list of {"screen": name, "logical": [x, y, width, height], "image": [width, height]};
the grid is the image's 4 x 4 cells with no margin; cell (1, 2) is outlined and filled.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from PySide6.QtCore import QPoint  # noqa: E402
from PySide6.QtWidgets import QApplication  # noqa: E402

from app.gui.advice_overlay import AdviceOverlay  # noqa: E402
from app.gui.overlay_marks import CellsMark  # noqa: E402
from vision.reading import CellGrid  # noqa: E402

MARK_RGB = (250, 40, 200)


def main() -> None:
    application = QApplication(sys.argv[:1])
    cases = json.loads(Path(sys.argv[1]).read_text())
    for case in cases:
        screens = {screen.name(): screen for screen in application.screens()}
        overlay = AdviceOverlay()
        overlay.place(tuple(case["logical"]), screens[case["screen"]])
        width, height = case["image"]
        grid = CellGrid(0, 0, width / 4, height / 4, 4, 4, (width, height))
        _, covered = overlay.draw((CellsMark(frozenset({(1, 2)}), outline=MARK_RGB, fill=MARK_RGB, fill_alpha=1.0),),
                               grid, True, 1.0)
        overlay.show()
        application.processEvents()
        image = overlay.drawn_image()
        geometry = overlay.geometry()
        mask = overlay.mask()

        def colour(x: int, y: int) -> list[int]:
            pixel = image.pixelColor(x, y)
            return [pixel.red(), pixel.green(), pixel.blue(), pixel.alpha()]

        print(json.dumps({
            "geometry": [geometry.x(), geometry.y(), geometry.width(), geometry.height()],
            "screen": next(screen.name() for screen in application.screens()
                           if screen.geometry().contains(geometry.center())),
            "image": [image.width(), image.height()], "ratio": image.devicePixelRatio(),
            "colour_at": {f"{x},{y}": colour(x, y) for x, y in case["samples"]},
            "mask_contains": {f"{x},{y}": mask.contains(QPoint(x, y)) for x, y in case["mask_samples"]},
            "covered": [int(covered.shape[1]), int(covered.shape[0])],
            "covered_at": {f"{x},{y}": bool(covered[y, x]) for x, y in case["covered_samples"]},
        }), flush=True)
        overlay.close()


if __name__ == "__main__":
    main()
