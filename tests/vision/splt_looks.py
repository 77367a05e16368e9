"""Pictures of SPL-T boards for the reader's tests and ``benchmarks/vision.py``: Kibitz's own SPL-T
view (the board widget alone, or the whole window in either layout) showing positions of seeded
games, at many cell sizes and device-pixel ratios, with the last turn's highlights (splits,
clusters, falls, halvings, refills) or the advisor's marks drawn over the board; and the shared
real screenshots, resized and saved as JPEG.

The truth is independent of the reader: the engine state Kibitz was showing (reached by playing
the engine), or a screenshot's hand transcription (``tests/vision/truth_splt.py``).
"""

from __future__ import annotations

import contextlib
import os
import random
import tempfile
import types
from collections.abc import Iterator
from typing import Any

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import numpy as np  # noqa: E402

from engines import GAMES  # noqa: E402
from tests.vision.pictures import jpeg, resized  # noqa: E402

GAME = GAMES["splt"]


# -- positions -------------------------------------------------------------------------------------
def played(splits: int, seed: int) -> tuple[Any, Any, tuple]:
    """The position after ``splits`` seeded random legal splits (fewer if the game ends), the
    position before the last of them, and that last turn's events."""
    rng = random.Random(seed)
    state, before, events = GAME.initial_state(), None, ()
    for _ in range(splits):
        moves = GAME.legal_moves(state)
        if not moves:
            break
        step = GAME.play(state, rng.choice(moves))
        before, state, events = state, step.state, tuple(step.events)
    return state, before, events


def truth_of(state) -> dict:
    """The ``cells`` a reader must return for ``state`` (and its score), as the benchmark wants it."""
    cells = {
        "boxes": sorted(([b.x, b.y, b.w, b.h, b.points] for b in state.boxes), key=lambda b: (b[1], b[0])),
        "voids": [[x, y] for x, y in state.voids()],
        "splits": state.splits,
        "score": state.score,
    }
    return {"cells": cells, "score": state.score}


def fake_advice(state, count: int, seed: int) -> list:
    """Advisor candidates as the board draws them (a legal split each, its predictor flags and a
    score): the marks' look, whatever an advisor would rank."""
    rng = random.Random(seed)
    moves = GAME.legal_moves(state)
    rng.shuffle(moves)
    return [types.SimpleNamespace(move=move, score=float(count - rank), new_halving=rng.random() < 0.3,
                                  unexpected=(1,) if rng.random() < 0.2 else ())
            for rank, move in enumerate(moves[:count])]


# -- Kibitz's own view -----------------------------------------------------------------------------
def _application():
    from PySide6.QtWidgets import QApplication

    return QApplication.instance() or QApplication([])


def _grab(widget, ratio: float) -> np.ndarray:
    """The widget's pixels as BGR, drawn at the device-pixel ratio ``ratio`` (as on a HiDPI
    screen: Qt scales the painter, so lines and text get thicker, not blurred)."""
    from PySide6.QtGui import QImage

    from app.gui.capture import image_to_bgr

    if ratio == 1.0:
        return image_to_bgr(widget.grab().toImage())
    size = widget.size()
    image = QImage(round(size.width() * ratio), round(size.height() * ratio), QImage.Format.Format_RGB32)
    image.setDevicePixelRatio(ratio)
    image.fill(0)
    widget.render(image)
    return image_to_bgr(image)


def board_view(state, size: tuple[int, int], ratio: float = 1.0, events=(), fade: float = 1.0,
               advice=None, hover: tuple[int, int] | None = None) -> np.ndarray:
    """Kibitz's SPL-T board widget at ``size`` (logical pixels) showing ``state``: the last turn's
    highlights (``events``) at ``fade`` of their full strength (1 = just played), the advisor's
    marks for ``advice`` candidates, the mouse over cell ``hover`` (x, y) if given."""
    from app.gui.games import ui_for
    from app.gui.games.splt.board import FADE_MILLISECONDS

    _application()
    board = ui_for("splt").make_board(GAME, None)
    board.set_advice_visible(advice is not None)
    board.resize(*size)
    board.show_position(state, events)
    if events and board._fade.state() == board._fade.State.Running:  # noqa: SLF001 - the fade's moment
        board._fade.setCurrentTime(int((1.0 - fade) * FADE_MILLISECONDS))  # noqa: SLF001
    if advice is not None:
        board.show_advice(advice)
    if hover is not None:
        _hover_over(board, state, hover)
    image = _grab(board, ratio)
    board._fade.stop()  # noqa: SLF001
    board.deleteLater()
    return image


def _hover_over(board, state, cell: tuple[int, int]) -> None:
    """The mouse on the middle of the box covering ``cell`` (of the cell itself on a void), as a
    mouse move there tells the board."""
    box = state.box_at(*cell)
    x, y, w, h = (box.x, box.y, box.w, box.h) if box is not None else (*cell, 1, 1)
    board._set_hover(board.board_layout().rect(x, y, w, h).center())  # noqa: SLF001 - a mouse move's effect


#: The kinds of box the mouse can be over: a plain box the next split may cut (Kibitz previews
#: that split: stippled, a dashed line across), a plain box it may not (too narrow across the
#: split), a point block (hatched, numbered), a 1 x 1 box.
HOVER_KINDS = ("splittable", "unsplittable", "point", "single")


def hover_kind(state, box) -> str:
    if box.points:
        return "point"
    if box.w == 1 and box.h == 1:
        return "single"
    return "splittable" if box.can_split(state.orientation) else "unsplittable"


def hover_targets(state) -> dict[str, list[tuple[int, int]]]:
    """Kind -> the top-left cells of the boxes of that kind in ``state`` (reading order)."""
    targets: dict[str, list[tuple[int, int]]] = {kind: [] for kind in HOVER_KINDS}
    for box in sorted(state.boxes, key=lambda b: (b.y, b.x)):
        targets[hover_kind(state, box)].append((box.x, box.y))
    return targets


@contextlib.contextmanager
def kibitz_window():
    """Kibitz's main window, shown offscreen, with its settings and session in a temporary
    folder (never the player's)."""
    app = _application()
    saved = {name: os.environ.get(name) for name in ("KIBITZ_SETTINGS_DIR", "KIBITZ_SESSION_DIR")}
    with tempfile.TemporaryDirectory() as home:
        os.environ["KIBITZ_SETTINGS_DIR"] = os.environ["KIBITZ_SESSION_DIR"] = home
        from app.gui.main_window import MainWindow

        window = MainWindow()
        window.show()
        app.processEvents()
        try:
            yield window
        finally:
            window.close()
            window.deleteLater()
            app.processEvents()
            for name, value in saved.items():
                if value is None:
                    os.environ.pop(name, None)
                else:
                    os.environ[name] = value


def window_view(window, state, layout: str, size: tuple[int, int], ratio: float = 1.0,
                whole: bool = True, with_advice: bool = False, hover: tuple[int, int] | None = None) -> np.ndarray:
    """Kibitz's window (or only its board, ``whole`` False) in ``layout`` ("analysis" or
    "compact") at ``size``, showing ``state`` loaded as a new analysis; ``with_advice``: once the
    advisor's ranking (and its tints) is painted, else whenever the events let it be; the mouse
    over cell ``hover`` (x, y) of the board if given."""
    import time

    from PySide6.QtGui import QCursor

    app = _application()
    QCursor.setPos(-10_000, -10_000)  # no box hovered: the pointer left where a test put it is off the window
    if window.game.short_name != "splt":
        window.set_game("splt")
    window.set_layout(layout)
    window.load_position(state)
    window.resize(*size)
    for _ in range(5):
        app.processEvents()
    deadline = time.monotonic() + 20
    while with_advice and not window.candidates and time.monotonic() < deadline:
        app.processEvents()
        time.sleep(0.01)
    for _ in range(5):
        app.processEvents()
    if hover is not None:
        _hover_over(window.board, state, hover)
        for _ in range(2):
            app.processEvents()
    return _grab(window if whole else window.board, ratio)


# -- the real screenshots --------------------------------------------------------------------------
def real_cases():
    from tests.conftest import reference_data_dir
    from tests.vision.truth_splt import cases

    data = reference_data_dir()
    return cases(data) if data is not None else []


# -- the benchmark's captures ------------------------------------------------------------------------
#: Cell sizes (logical pixels) of the view: from Kibitz's smallest board to a big window.
VIEW_CELLS = (22, 26, 32, 40, 48, 60, 80)
RATIOS = (1.0, 1.0, 1.25, 1.5, 2.0)


#: The share of the view's and window's captures with the mouse over a box.
HOVERED_SHARE = 0.3


def _hovered_cell(state, rng: random.Random) -> tuple[int, int] | None:
    """The top-left cell of a box of ``state`` for the mouse: half the time one whose split Kibitz
    previews (the only boxes that change under it), else a box of any kind."""
    targets = hover_targets(state)
    splittable, every = targets["splittable"], [cell for cells in targets.values() for cell in cells]
    if splittable and rng.random() < 0.5:
        return rng.choice(splittable)
    return rng.choice(every) if every else None


def _view_size(cell: int, rng: random.Random) -> tuple[int, int]:
    """A widget size whose board has cells of ``cell`` pixels, with some margin to spare."""
    width = 8 * cell + 1 + rng.choice((0, 0, rng.randrange(0, 3 * cell)))
    height = round(16.75 * cell) + 1 + rng.choice((0, rng.randrange(0, 3 * cell)))
    return width, height


def captures(count: int, seed: int = 0, window: bool = True) -> Iterator[tuple[np.ndarray, dict, str]]:
    """``count`` (image BGR, truth, look) for the benchmark: Kibitz's own view ("view", with
    "highlights" or "advice" shown, "hidpi" at a device-pixel ratio above 1), its whole window
    ("window", either layout), either with the mouse over a box ("hover", HOVERED_SHARE of them),
    and the shared real screenshots ("real") — each possibly "scaled" (0.5-3x) and "jpeg"
    (quality 60-95). ``truth`` is {"cells", "score"}."""
    rng = random.Random(seed)
    # the mouse's place is drawn from its own sequence: the other captures stay as they were
    hover_rng = random.Random(f"hover {seed}")
    reals = real_cases()
    made = 0
    window_context = kibitz_window() if window else contextlib.nullcontext()
    with window_context as kibitz:
        while made < count:
            look: list[str] = []
            kind = rng.random()
            if reals and kind < 0.25:
                case = rng.choice(reals)
                image, truth = case.load(), {"cells": case.expected, "score": case.expected["score"]}
                look.append("real")
            else:
                state, _, events = played(rng.randrange(20, 400), rng.randrange(1 << 30))
                truth = truth_of(state)
                cell = rng.choice(VIEW_CELLS)
                ratio = rng.choice(RATIOS)
                hover = _hovered_cell(state, hover_rng) if hover_rng.random() < HOVERED_SHARE else None
                if kibitz is not None and kind < 0.4:
                    layout = rng.choice(("analysis", "compact"))
                    size = (rng.randrange(700, 1700), rng.randrange(650, 1250))
                    image = window_view(kibitz, state, layout, size, 1.0, hover=hover)
                    look.append("window")
                else:
                    extra = rng.random()
                    highlights = events if extra < 0.35 else ()
                    advice = fake_advice(state, rng.randrange(1, 8), rng.randrange(1 << 30)) \
                        if 0.35 <= extra < 0.55 and GAME.legal_moves(state) else None
                    image = board_view(state, _view_size(cell, rng), ratio, highlights, rng.uniform(0.2, 1.0), advice,
                                       hover)
                    look.append("view")
                    if highlights:
                        look.append("highlights")
                    if advice:
                        look.append("advice")
                    if ratio != 1.0:
                        look.append("hidpi")
                if hover is not None:
                    look.append("hover")
            if rng.random() < 0.4:
                image = resized(image, rng.uniform(0.5, 3.0) if "real" not in look else rng.uniform(0.6, 2.5))
                look.append("scaled")
            if rng.random() < 0.4:
                image = jpeg(image, rng.randrange(60, 96))
                look.append("jpeg")
            made += 1
            yield np.ascontiguousarray(image), truth, " ".join(look)


# -- the mouse over a box ----------------------------------------------------------------------------
def hovered_views(count: int, seed: int = 0, window=None, kinds: tuple[str, ...] = HOVER_KINDS
                  ) -> Iterator[tuple[np.ndarray, dict, str, str]]:
    """``count`` (image BGR, truth, look, hovered kind) of Kibitz's SPL-T view with the mouse
    over a box of each of ``kinds`` in turn (a position without one is passed over): the board
    widget at a cell size of VIEW_CELLS and a device-pixel ratio of RATIOS (a third of them with
    the advice's marks), or, given a ``window`` (``kibitz_window()``), a third of them the whole
    window; some rescaled, some saved as JPEG, as ``captures`` does."""
    rng = random.Random(seed)
    made = 0
    while made < count:
        kind = kinds[made % len(kinds)]
        state, _, _ = played(rng.randrange(20, 400), rng.randrange(1 << 30))
        targets = hover_targets(state)[kind]
        if not targets:
            continue
        cell = rng.choice(targets)
        look = ["hover"]
        if window is not None and rng.random() < 1 / 3:
            layout = rng.choice(("analysis", "compact"))
            size = (rng.randrange(700, 1700), rng.randrange(650, 1250))
            image = window_view(window, state, layout, size, 1.0, hover=cell)
            look.append("window")
        else:
            ratio = rng.choice(RATIOS)
            # the advice's marks a third of the time: hovering a candidate then also outlines the
            # cluster its split would make
            advice = fake_advice(state, rng.randrange(1, 8), rng.randrange(1 << 30)) \
                if rng.random() < 1 / 3 and GAME.legal_moves(state) else None
            image = board_view(state, _view_size(rng.choice(VIEW_CELLS), rng), ratio, advice=advice, hover=cell)
            look.append("view")
            if advice:
                look.append("advice")
            if ratio != 1.0:
                look.append("hidpi")
        if rng.random() < 0.4:
            image = resized(image, rng.uniform(0.5, 3.0))
            look.append("scaled")
        if rng.random() < 0.4:
            image = jpeg(image, rng.randrange(60, 96))
            look.append("jpeg")
        made += 1
        yield np.ascontiguousarray(image), truth_of(state), " ".join(look), kind
