"""Capture: pick a region of the screen on a frozen screenshot, read the game's board from it, and
follow the real game while it is played.

- :class:`RegionPicker` shows a :class:`CaptureOverlay` on every screen: that screen's frozen
  picture, dimmed except the rectangle being dragged. Release accepts, Esc (or a right click)
  cancels. The rectangle, in Qt's logical coordinates, becomes a :class:`vision.capture.Region` in
  the capture backend's units (``vision.capture.to_monitor_region``) and the first image is cut
  from the frozen picture at its own scale (logical x device-pixel ratio), so HiDPI screens and
  several monitors come out right.
- :class:`CaptureController` is the window's side: the region is remembered per game in the
  settings (Re-capture grabs it again without the overlay), readers run in a worker thread (the
  window never waits), a sure reading is loaded, a doubtful one opens
  :class:`app.gui.reading_review.ReadingReview`. Where the platform gives no pixels (Wayland
  without a portal) it says so and offers to open a screenshot file or paste an image.
- Follow mode polls the remembered region and feeds :class:`vision.follow.Follower`, playing the
  moves it explains in the tree and flagging what it cannot explain.
"""

from __future__ import annotations

import concurrent.futures
import dataclasses
import functools
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
from PySide6.QtCore import QObject, QPointF, QRect, QRectF, QSettings, Qt, QTimer, Signal
from PySide6.QtGui import (
    QColor,
    QCursor,
    QFont,
    QGuiApplication,
    QImage,
    QKeyEvent,
    QMouseEvent,
    QPainter,
    QPainterPath,
    QPen,
    QPixmap,
    QScreen,
)
from PySide6.QtWidgets import QFileDialog, QLabel, QMessageBox, QToolButton, QWidget

import vision
import vision.capture as screen_capture
from vision.capture import CaptureUnavailable, Monitor, Region

REGION_KEY = "capture/{game}/region"  # the region in the backend's units: left,top,width,height
LOGICAL_KEY = "capture/{game}/logical"  # the same rectangle in Qt's logical coordinates
SCREEN_KEY = "capture/{game}/screen"  # the name of the screen it lies on
# Follow mode looks at the region this often (a tick is skipped while the last is still being
# read). It must see the board still between two moves: 2048's slide and pop take ~300 ms and a
# player moves every few hundred; at 400 ms the frames pairs straddled moves, the follower never
# saw two equal frames and fell behind the page (benchmarks/follow_on_screen.py). A grab of a
# board-sized region and the frame comparison take ~5 ms.
FOLLOW_MILLISECONDS = 100
MESSAGE_MILLISECONDS = 8000
MINIMUM_SIDE = 8  # logical pixels: a smaller drag is taken for a click
IMAGE_FILTER = "Images (*.png *.jpg *.jpeg *.bmp *.webp *.tif *.tiff);;All files (*)"

SELECTION_COLOR = QColor(64, 170, 255)
DIM_COLOR = QColor(0, 0, 0, 150)
GOOD_COLOR = QColor(80, 200, 120)
DOUBT_COLOR = QColor(240, 170, 40)


#: After the advice overlay hides, follow mode waits this long before it reads the region again:
#: the overlay's marks may still be on screen until the windows under it have been redrawn.
UNCOVER_SECONDS = 0.15


# -- what follow mode knows of the real game ------------------------------------------------------
SHOWN = "shown"  # the screen shows ``state`` (the window's tree has it), read as ``reading``
CHANGING = "changing"  # the region is changing (a move being made, an animation)
UNEXPLAINED = "unexplained"  # the board read is not a position the tree can reach
NO_BOARD = "no board"  # no board in the region
STOPPED = "stopped"  # follow mode is off


@dataclasses.dataclass(frozen=True, eq=False)
class ScreenStatus:
    """What follow mode knows of the real game now (see the kinds above); ``reason`` in words."""

    kind: str
    state: Any = None
    reading: Any = None
    reason: str = ""


@dataclasses.dataclass(frozen=True, eq=False)
class Cover:
    """The advice overlay over the region, in the region's pixels: ``hidden`` where its marks
    hide the game (a change there cannot be seen), ``drawn`` wherever it draws at all (tints the
    game shows through included); ``number`` tells one showing from the next."""

    hidden: np.ndarray
    drawn: np.ndarray
    number: int


@dataclasses.dataclass(frozen=True)
class _Covered:
    """A follow tick while the advice overlay lay over the region: whether the game changed where
    it can be seen."""

    changed: bool


def region_off_screen(region: Region) -> bool:
    """Whether ``region`` lies off every monitor now (False when the monitors cannot be listed:
    grabbing will say why)."""
    try:
        monitors = screen_capture.monitors()
    except CaptureUnavailable:
        return False
    return bool(monitors) and not screen_capture.on_a_monitor(region, monitors)


# -- images --------------------------------------------------------------------------------------
def image_pixels(image: QImage, format: QImage.Format, channels: int) -> np.ndarray:
    """A QImage's pixels in ``format`` (``channels`` bytes a pixel) as an H x W x channels uint8
    array (a copy, the rows' padding dropped)."""
    converted = image.convertToFormat(format)
    width, height, stride = converted.width(), converted.height(), converted.bytesPerLine()
    buffer = np.frombuffer(converted.constBits(), dtype=np.uint8, count=stride * height)
    return buffer.reshape(height, stride)[:, : width * channels].reshape(height, width, channels).copy()


def image_to_bgr(image: QImage) -> np.ndarray:
    """A QImage's pixels as an H x W x 3 uint8 BGR array (a copy; alpha dropped)."""
    return image_pixels(image, QImage.Format.Format_BGR888, 3)


def bgr_to_image(pixels: np.ndarray) -> QImage:
    """An H x W x 3 BGR array as a QImage (its own copy of the pixels)."""
    pixels = np.ascontiguousarray(pixels, dtype=np.uint8)
    height, width = pixels.shape[:2]
    return QImage(pixels.data, width, height, pixels.strides[0], QImage.Format.Format_BGR888).copy()


def is_blank(image: QImage) -> bool:
    """True for a null or all-black picture (what a screen grab gives where it is not allowed)."""
    return image.isNull() or image.width() == 0 or not image_to_bgr(image).any()


# -- the screens ---------------------------------------------------------------------------------
@dataclasses.dataclass(frozen=True, eq=False)
class ScreenShot:
    """One screen, frozen: its ``name``, its logical ``geometry`` on the virtual desktop, its
    ``image`` in physical pixels (geometry x device-pixel ratio) and the capture backend's
    ``monitor`` for it (which units a region there is grabbed in)."""

    name: str
    geometry: QRect
    image: QImage
    monitor: Monitor
    screen: QScreen | None = None  # the live screen, to put the overlay on (None in tests)

    @property
    def scale(self) -> tuple[float, float]:
        """Physical pixels of the image per logical pixel (the device-pixel ratio)."""
        return self.image.width() / self.geometry.width(), self.image.height() / self.geometry.height()

    def physical_rect(self, local: QRectF) -> QRect:
        """The image's pixels under ``local``, a rectangle in this screen's logical coordinates
        (from its top-left corner)."""
        scale_x, scale_y = self.scale
        left, top = round(local.x() * scale_x), round(local.y() * scale_y)
        right, bottom = round(local.right() * scale_x), round(local.bottom() * scale_y)
        rect = QRect(left, top, max(1, right - left), max(1, bottom - top))
        return rect.intersected(self.image.rect())


def monitor_from_geometry(geometry: QRect, image: QImage) -> Monitor:
    """The backend's monitor when the backend cannot say: the screen's logical geometry scaled by
    the picture's own device-pixel ratio (right where the backend counts physical pixels and
    every screen has the same ratio)."""
    scale_x, scale_y = image.width() / geometry.width(), image.height() / geometry.height()
    return Monitor(round(geometry.x() * scale_x), round(geometry.y() * scale_y), image.width(), image.height())


def qt_screen_shots() -> list[ScreenShot]:
    """Every screen's picture, taken now with ``QScreen.grabWindow(0)``. Screens and the
    backend's monitors are paired in order of position (left to right, then top to bottom).
    Raises :class:`CaptureUnavailable` when every picture is null or black."""
    screens = sorted(QGuiApplication.screens(), key=lambda s: (s.geometry().x(), s.geometry().y()))
    try:
        monitors = sorted(screen_capture.monitors(), key=lambda m: (m.left, m.top))
    except CaptureUnavailable:
        monitors = []
    shots = []
    for index, screen in enumerate(screens):
        image = screen.grabWindow(0).toImage()
        geometry = screen.geometry()
        if image.isNull() or geometry.isEmpty():
            continue
        monitor = monitors[index] if len(monitors) == len(screens) else monitor_from_geometry(geometry, image)
        shots.append(ScreenShot(screen.name(), geometry, image, monitor, screen))
    if not shots or all(is_blank(shot.image) for shot in shots):
        raise CaptureUnavailable(
            "the screen returned no picture (a Wayland session without a screenshot portal does this)")
    return shots


@dataclasses.dataclass(frozen=True, eq=False)
class PickedRegion:
    """A rectangle picked on one screen: in logical coordinates of the virtual desktop, in the
    backend's units (to grab it again) and the pixels it held on the frozen picture (BGR)."""

    screen: str
    logical: tuple[float, float, float, float]
    region: Region
    image: np.ndarray


@dataclasses.dataclass(frozen=True)
class RememberedRegion:
    """The region remembered for a game (see :data:`REGION_KEY`)."""

    screen: str
    logical: tuple[float, float, float, float]
    region: Region


# -- the overlay ---------------------------------------------------------------------------------
class CaptureOverlay(QWidget):
    """A frameless window over one screen showing its frozen picture; a left drag draws the
    rectangle (everything else dimmed), release accepts it, Esc or a right click cancels."""

    chosen = Signal(QRectF)  # in this widget's logical coordinates
    cancelled = Signal()

    def __init__(self, shot: ScreenShot) -> None:
        super().__init__(None, Qt.WindowType.Window | Qt.WindowType.FramelessWindowHint
                         | Qt.WindowType.WindowStaysOnTopHint)
        self.setObjectName("captureOverlay")
        self.setWindowTitle("Capture board")
        self.shot = shot
        self._pixmap = QPixmap.fromImage(shot.image)
        self._pixmap.setDevicePixelRatio(shot.scale[0])
        self._anchor: QPointF | None = None
        self._corner: QPointF | None = None
        self._hint = "Drag a rectangle around the board · Esc cancels"
        self.setCursor(Qt.CursorShape.CrossCursor)
        self.setMouseTracking(True)
        self.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
        self.setAttribute(Qt.WidgetAttribute.WA_OpaquePaintEvent)
        if shot.screen is not None:
            self.setScreen(shot.screen)
        self.setGeometry(shot.geometry)

    def selection(self) -> QRectF | None:
        """The rectangle being dragged (logical, from this screen's top-left), or None. It is cut
        to this screen: a drag carried on past its edge (onto another monitor) keeps reporting
        positions beyond it, which this screen's picture and scale do not cover."""
        if self._anchor is None or self._corner is None:
            return None
        return QRectF(self._anchor, self._corner).normalized().intersected(QRectF(self.rect()))

    def set_selection(self, rect: QRectF | None) -> None:
        """Show ``rect`` as if it were being dragged (screenshots of the overlay)."""
        self._anchor = None if rect is None else rect.topLeft()
        self._corner = None if rect is None else rect.bottomRight()
        self.update()

    def hint(self) -> str:
        return self._hint

    # -- painting ------------------------------------------------------------------------------
    def paintEvent(self, event) -> None:  # noqa: N802 (Qt name)
        painter = QPainter(self)
        painter.drawPixmap(0, 0, self._pixmap)
        selection = self.selection()
        dimmed = QPainterPath()
        dimmed.addRect(QRectF(self.rect()))
        if selection is not None:
            hole = QPainterPath()
            hole.addRect(selection)
            dimmed = dimmed.subtracted(hole)
        painter.fillPath(dimmed, DIM_COLOR)
        if selection is not None:
            painter.setPen(QPen(SELECTION_COLOR, 2))
            painter.setBrush(Qt.BrushStyle.NoBrush)
            painter.drawRect(selection.adjusted(-1, -1, 1, 1))
            physical = self.shot.physical_rect(selection)
            self._label(painter, f"{physical.width()} × {physical.height()} px", selection)
        self._banner(painter, selection)
        painter.end()

    def _label(self, painter: QPainter, text: str, selection: QRectF) -> None:
        font = QFont(self.font())
        font.setPointSizeF(max(9.0, font.pointSizeF()))
        painter.setFont(font)
        metrics = painter.fontMetrics()
        box = QRectF(0, 0, metrics.horizontalAdvance(text) + 12, metrics.height() + 6)
        below = selection.bottom() + 6 + box.height() <= self.height()
        box.moveTopLeft(QPointF(selection.left(), selection.bottom() + 6 if below else selection.top() - box.height() - 6))
        painter.fillRect(box, QColor(20, 20, 20, 220))
        painter.setPen(Qt.GlobalColor.white)
        painter.drawText(box, Qt.AlignmentFlag.AlignCenter, text)

    def _banner(self, painter: QPainter, selection: QRectF | None) -> None:
        font = QFont(self.font())
        font.setPointSizeF(max(11.0, font.pointSizeF() * 1.3))
        painter.setFont(font)
        metrics = painter.fontMetrics()
        box = QRectF(0, 0, metrics.horizontalAdvance(self._hint) + 32, metrics.height() + 16)
        box.moveCenter(QPointF(self.width() / 2, 24 + box.height() / 2))
        if selection is not None and selection.intersects(box):
            box.moveBottom(self.height() - 24)
        painter.setPen(Qt.PenStyle.NoPen)
        painter.setBrush(QColor(20, 20, 20, 220))
        painter.drawRoundedRect(box, 8, 8)
        painter.setPen(Qt.GlobalColor.white)
        painter.drawText(box, Qt.AlignmentFlag.AlignCenter, self._hint)

    # -- input -----------------------------------------------------------------------------------
    def mousePressEvent(self, event: QMouseEvent) -> None:  # noqa: N802 (Qt name)
        if event.button() == Qt.MouseButton.RightButton:
            self.cancelled.emit()
        elif event.button() == Qt.MouseButton.LeftButton:
            self._anchor = self._corner = event.position()
            self.update()

    def mouseMoveEvent(self, event: QMouseEvent) -> None:  # noqa: N802 (Qt name)
        if self._anchor is not None and event.buttons() & Qt.MouseButton.LeftButton:
            self._corner = event.position()
            self.update()

    def mouseReleaseEvent(self, event: QMouseEvent) -> None:  # noqa: N802 (Qt name)
        if event.button() != Qt.MouseButton.LeftButton or self._anchor is None:
            return
        self._corner = event.position()
        selection = self.selection()
        if selection.width() < MINIMUM_SIDE or selection.height() < MINIMUM_SIDE:
            self._anchor = self._corner = None
            self._hint = "Drag a rectangle (not a click) around the board · Esc cancels"
            self.update()
            return
        self.chosen.emit(selection)

    def keyPressEvent(self, event: QKeyEvent) -> None:  # noqa: N802 (Qt name)
        if event.key() == Qt.Key.Key_Escape:
            self.cancelled.emit()
        else:
            super().keyPressEvent(event)


class RegionPicker(QObject):
    """One :class:`CaptureOverlay` per screen shot; ``picked`` (a :class:`PickedRegion`) or
    ``cancelled`` once, then every overlay closes."""

    picked = Signal(object)
    cancelled = Signal()

    def __init__(self, shots: list[ScreenShot], parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.shots = list(shots)
        self.overlays = [CaptureOverlay(shot) for shot in self.shots]
        for overlay in self.overlays:
            overlay.chosen.connect(functools.partial(self._chosen, overlay))
            overlay.cancelled.connect(self._cancelled)
        self._open = False

    def start(self) -> None:
        """Show every overlay (full screen on real screens) and give the keyboard to the one
        under the mouse."""
        self._open = True
        under_mouse = None
        for overlay in self.overlays:
            if overlay.shot.screen is not None:
                overlay.showFullScreen()
            else:
                overlay.show()
            if overlay.shot.geometry.contains(QCursor.pos()):
                under_mouse = overlay
        focused = under_mouse or self.overlays[0]
        focused.raise_()
        focused.activateWindow()
        focused.setFocus()

    def is_open(self) -> bool:
        return self._open

    def overlay_on(self, name: str) -> CaptureOverlay:
        return next(overlay for overlay in self.overlays if overlay.shot.name == name)

    def show_selection(self, rect: QRectF) -> CaptureOverlay | None:
        """Show ``rect`` (logical, on the virtual desktop) as dragged on the overlay of the screen
        holding its centre, cut to that screen (screenshots of the overlay); that overlay, or
        None."""
        for overlay in self.overlays:
            geometry = QRectF(overlay.shot.geometry)
            if geometry.contains(rect.center()):
                overlay.set_selection(rect.intersected(geometry).translated(-geometry.topLeft()))
                return overlay
        return None

    def pick(self, overlay: CaptureOverlay, local: QRectF) -> PickedRegion:
        """What the rectangle ``local`` (logical, on ``overlay``'s screen) stands for."""
        shot = overlay.shot
        geometry = shot.geometry
        logical = (geometry.x() + local.x(), geometry.y() + local.y(), local.width(), local.height())
        region = screen_capture.to_monitor_region(
            logical, (geometry.x(), geometry.y(), geometry.width(), geometry.height()), shot.monitor)
        pixels = image_to_bgr(shot.image.copy(shot.physical_rect(local)))
        return PickedRegion(shot.name, logical, region, pixels)

    def close(self) -> None:
        self._open = False
        for overlay in self.overlays:
            overlay.close()
            overlay.deleteLater()
        self.overlays = []

    def _chosen(self, overlay: CaptureOverlay, local: QRectF) -> None:
        picked = self.pick(overlay, local)
        self.close()
        self.picked.emit(picked)

    def _cancelled(self) -> None:
        self.close()
        self.cancelled.emit()


# -- the window's side -----------------------------------------------------------------------------
class _WorkerSignals(QObject):
    read_done = Signal(int, object, object)  # token, image (or None), Reading or the exception
    follow_done = Signal(int, object, object, object)  # token, the state fed from, image, event or exception


def _reader_missing(error: ModuleNotFoundError, game: str) -> str:
    if error.name == vision.READER_MODULES.get(game):
        return "no reader for this game yet"
    return f"the reader needs the module {error.name!r}, which is not installed"


def _words(error: BaseException, game: str) -> str:
    if isinstance(error, ModuleNotFoundError):
        return _reader_missing(error, game)
    return f"{type(error).__name__}: {error}"


class CaptureController(QObject):
    """Capture, reading and follow mode for a :class:`app.gui.main_window.MainWindow`.

    The window calls :meth:`capture_board`, :meth:`recapture`, :meth:`open_image_file`,
    :meth:`paste_image` and :meth:`set_following` from its actions, :meth:`analysis_shown`
    whenever it shows another analysis, and puts :attr:`indicator` in its status bar.
    ``screen_source`` (the frozen screens) can be replaced, e.g. by a test's synthetic screens.
    """

    following_changed = Signal(bool)
    screen_status = Signal(object)  # a ScreenStatus, from follow mode
    covered_still = Signal()  # a follow tick under the overlay saw no change

    def __init__(self, window: Any, settings: QSettings) -> None:
        super().__init__(window)
        self.window = window
        self.settings = settings
        self.screen_source: Callable[[], list[ScreenShot]] = qt_screen_shots
        self.picker: RegionPicker | None = None
        self.review: Any = None  # the last ReadingReview opened
        self.message_box: QMessageBox | None = None  # the last message (no board, no capture...)
        self.fallback_buttons: dict[str, Any] = {}
        # follow mode: the last reading no move explains (reading, image), offered by the button
        self._unexplained: tuple[Any, np.ndarray | None] | None = None
        self.load_reading_button = QToolButton()
        self.load_reading_button.setObjectName("loadReadingButton")
        self.load_reading_button.setText("Load reading")
        self.load_reading_button.setAutoRaise(True)
        self.load_reading_button.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        self.load_reading_button.setVisible(False)
        self.load_reading_button.clicked.connect(self.load_unexplained_reading)
        self.indicator = QLabel()
        self.indicator.setObjectName("followIndicator")
        self.indicator.setVisible(False)

        self._signals = _WorkerSignals(self)
        self._signals.read_done.connect(self._read_done)
        self._signals.follow_done.connect(self._follow_done)
        # plain Python threads, as the window's ranking: numba kernels run from Qt's pool threads
        # could deadlock with a search compiling the same kernels
        self._pool = concurrent.futures.ThreadPoolExecutor(max_workers=1, thread_name_prefix="kibitz-vision")
        self.destroyed.connect(functools.partial(self._pool.shutdown, wait=False, cancel_futures=True))
        self._read_token = 0
        self._read_pending: tuple[str, str] | None = None  # (game, what is read) while a read runs

        self._follower: Any = None
        self._follow_analysis: Any = None
        self._followed: RememberedRegion | None = None  # the region follow mode watches
        self._follow_token = 0
        self._follow_busy = False
        self._adopting = False  # loading a position of our own: keep following from it
        # the advice overlay over the region while it shows (a Cover), from when follow mode may
        # look at it (the overlay surely drawn), and when it may read the region again after it hid
        self._cover: Cover | None = None
        self._covers = 0
        self._covered_from = 0.0
        self._uncovered_at = 0.0
        self._moving = False  # the last news was a board changing
        self.last_event: Any = None
        self.follow_timer = QTimer(self)
        self.follow_timer.setInterval(FOLLOW_MILLISECONDS)
        self.follow_timer.timeout.connect(self._follow_tick)

    @property
    def game(self):
        return self.window.game

    # -- remembered regions --------------------------------------------------------------------
    def remember(self, game: str, picked: PickedRegion | RememberedRegion) -> None:
        self.settings.setValue(REGION_KEY.format(game=game), ",".join(str(v) for v in picked.region.as_list()))
        self.settings.setValue(LOGICAL_KEY.format(game=game), ",".join(f"{v:g}" for v in picked.logical))
        self.settings.setValue(SCREEN_KEY.format(game=game), picked.screen)
        self.settings.sync()
        if self.is_following() and game == self._follower.game.short_name:
            # captured again while following: follow mode watches the new region from now on
            self._followed = RememberedRegion(picked.screen, tuple(picked.logical), picked.region)
            self._follow_token += 1  # a look in flight is at the old region: ignored
            self._follow_busy = False
            self._follower.reset(self._follower.state)
            self._report_lost("the region was captured again")

    def remembered_region(self, game: str | None = None) -> RememberedRegion | None:
        """The region last picked for ``game`` (default: the game shown), or None."""
        game = game or self.game.short_name
        try:
            region = Region.from_list(str(self.settings.value(REGION_KEY.format(game=game), "")).split(","))
            logical = tuple(float(v) for v in str(self.settings.value(LOGICAL_KEY.format(game=game), "")).split(","))
        except (TypeError, ValueError):
            return None
        if len(logical) != 4:
            return None
        return RememberedRegion(str(self.settings.value(SCREEN_KEY.format(game=game), "")), logical, region)

    # -- capturing -------------------------------------------------------------------------------
    def capture_board(self) -> RegionPicker | None:
        """Freeze every screen and let the user drag the board's rectangle (non-blocking: the
        picker is returned; the reading follows when a rectangle is picked)."""
        if self.picker is not None:
            self.picker.close()
            self.picker = None
        try:
            shots = self.screen_source()
        except CaptureUnavailable as error:
            self._offer_fallback(str(error))
            return None
        picker = RegionPicker(shots, self)
        picker.picked.connect(self._picked)
        picker.cancelled.connect(self._pick_cancelled)
        self.picker = picker
        picker.start()
        return picker

    def _picked(self, picked: PickedRegion) -> None:
        self.picker = None
        self.remember(self.game.short_name, picked)
        region = picked.region
        self._say(f"Region remembered ({region.width} × {region.height} px on {picked.screen or 'the screen'}); "
                  "F6 captures it again")
        self.read_image(picked.image, "captured region")

    def _pick_cancelled(self) -> None:
        self.picker = None
        self._say("Capture cancelled")

    def recapture(self) -> bool:
        """Grab the remembered region again and read it (no overlay); without one, open the
        overlay."""
        remembered = self.remembered_region()
        if remembered is None:
            self._say(f"No region remembered for {self.game.title} yet: drag one")
            self.capture_board()
            return False
        if self._off_screen(remembered.region):
            self.capture_board()
            return False
        self._submit_read(None, "captured region", remembered.region)
        return True

    def _off_screen(self, region: Region) -> bool:
        """True (and said) when ``region`` lies off every monitor now, e.g. after one was unplugged:
        grabbing it would fail as if the platform could not capture at all."""
        if not region_off_screen(region):
            return False
        self._say(f"The region remembered for {self.game.title} lies off every screen now "
                  "(a monitor unplugged or moved?): drag a new one")
        return True

    def open_image_file(self, path: str | None = None) -> bool:
        """Read the board from a screenshot file (a file dialog when ``path`` is None)."""
        from vision.images import ImageError, load

        if path is None:
            path, _ = QFileDialog.getOpenFileName(self.window, "Open screenshot", "", IMAGE_FILTER)
            if not path:
                return False
        try:
            image = load(path)
        except ImageError as error:
            self._message("Open screenshot", f"Cannot read {Path(path).name} as an image.", str(error))
            return False
        self.read_image(image, Path(path).name)
        return True

    def paste_image(self, image: QImage | None = None) -> bool:
        """Read the board from the clipboard's image (or ``image``)."""
        if image is None:
            image = QGuiApplication.clipboard().image()
        if image.isNull():
            self._message("Paste image", "The clipboard holds no image.",
                          "Copy a screenshot of the game first (e.g. with PrtScn or an image viewer's Copy).")
            return False
        from vision.images import oversized

        too_large = oversized(image.width(), image.height())
        if too_large:  # refused before its pixels are copied again
            self._message("Paste image", "The clipboard's image is too large to read.", too_large)
            return False
        self.read_image(image_to_bgr(image), "pasted image")
        return True

    # -- reading ---------------------------------------------------------------------------------
    def read_image(self, image: np.ndarray, what: str = "image") -> None:
        """Read the game's board from ``image`` (BGR) in the worker; see :meth:`_read_done`."""
        self._submit_read(image, what, None)

    def reading_pending(self) -> bool:
        """True while a reader works (tests wait on this)."""
        return self._read_pending is not None

    def _submit_read(self, image: np.ndarray | None, what: str, region: Region | None) -> None:
        self._read_token += 1
        game = self.game.short_name
        self._read_pending = (game, what)
        self._say(f"Reading the {what}…")
        self._pool.submit(self._read_job, game, image, region, self.window.state, self._read_token)

    def _read_job(self, game: str, image: np.ndarray | None, region: Region | None, previous: Any, token: int) -> None:
        """Runs in the worker: grab (for a re-capture), then read."""
        result: Any
        try:
            if image is None:
                image = screen_capture.grab(region)
            result = vision.read(game, image, previous=previous)
        except Exception as error:  # noqa: BLE001 - reported in the window, never raised in a worker
            result = error
        try:
            self._signals.read_done.emit(token, image, result)
        except RuntimeError:  # the window was closed meanwhile
            pass

    def _read_done(self, token: int, image: np.ndarray | None, result: Any) -> None:
        if token != self._read_token or self._read_pending is None:
            return
        game, what = self._read_pending
        self._read_pending = None
        if game != self.game.short_name:
            return  # another game is shown now
        title = self.game.title
        if isinstance(result, CaptureUnavailable):
            self._offer_fallback(str(result))
        elif isinstance(result, vision.NoBoardFound):
            self._no_board(what, result.reason)
        elif isinstance(result, ModuleNotFoundError):
            self._message("Read board", f"Cannot read {title} boards: {_reader_missing(result, game)}.",
                          "Set the position up by hand (Edit board, or Paste position) meanwhile.")
        elif isinstance(result, Exception):
            self._message("Read board", f"The {title} reader failed on the {what}.", _words(result, game))
        elif result.game != game:
            self._message("Read board", f"The reader returned a {result.game} board for {title}.", "")
        elif result.sure:
            self._load(result.state, "captured position")
            self._say(f"Board read from the {what} (confidence {result.confidence:.0%}): a new analysis")
        else:
            self.open_review(result, image)

    def open_review(self, reading: Any, image: np.ndarray):
        """The review dialog for a doubtful ``reading`` of ``image`` (non-blocking)."""
        from app.gui.reading_review import ReadingReview, review_status

        if self.review is not None:
            self.review.close()
        dialog = ReadingReview(self.game, reading, bgr_to_image(image), self.window.ui.make_board_editor, self.window)
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose, True)
        dialog.accepted.connect(lambda: self._load(dialog.state(), "captured position (checked)"))
        dialog.recapture_requested.connect(self.capture_board)
        dialog.destroyed.connect(lambda: setattr(self, "review", None) if self.review is dialog else None)
        self.review = dialog
        self._say(review_status(reading))
        dialog.open()
        return dialog

    def _load(self, state: Any, name: str) -> None:
        """Load a read position as a new analysis; follow mode carries on from it."""
        self._adopting = True
        try:
            self.window.load_position(state, name)
        finally:
            self._adopting = False

    # -- messages --------------------------------------------------------------------------------
    def _say(self, text: str) -> None:
        self.window.show_message(text, MESSAGE_MILLISECONDS)

    def _message(self, title: str, text: str, details: str, buttons: dict[str, Callable[[], Any]] | None = None) -> QMessageBox:
        """A non-blocking message box; ``buttons`` (text -> action) are offered beside Close."""
        if self.message_box is not None:
            self.message_box.close()
        box = QMessageBox(QMessageBox.Icon.Warning, title, text, QMessageBox.StandardButton.Close, self.window)
        box.setInformativeText(details)
        actions = {}
        for label, action in (buttons or {}).items():
            actions[box.addButton(label, QMessageBox.ButtonRole.AcceptRole)] = action
        # the action runs once the box has closed (it may open a file dialog or the overlay)
        box.buttonClicked.connect(lambda button: QTimer.singleShot(0, actions[button]) if button in actions else None)
        self.message_box = box
        box.open()
        return box

    def _offer_fallback(self, reason: str) -> None:
        box = self._message(
            "Capture board", "The screen cannot be captured here.",
            f"{reason}.\n\nOpen a screenshot of the game instead, or copy one to the clipboard and paste it.",
            {"Open screenshot file…": self.open_image_file, "Paste image": self.paste_image})
        self.fallback_buttons = {button.text(): button for button in box.buttons()}
        self._say("The screen cannot be captured here: open a screenshot file or paste an image")

    def _no_board(self, what: str, reason: str) -> None:
        self._message(
            "Read board", f"No {self.game.title} board found in the {what}.",
            f"{reason}.\n\nCapture again (Ctrl+Shift+C) with the whole board inside the rectangle, "
            "or open another screenshot.",
            {"Capture again": self.capture_board})
        self._say(f"No board found: {reason}")

    # -- follow mode -------------------------------------------------------------------------------
    def is_following(self) -> bool:
        return self._follower is not None

    def set_following(self, on: bool) -> bool:
        """Start or stop following the real game in the remembered region; returns whether it
        follows now."""
        if not on:
            self.stop_following("Stopped following")
            return False
        if self.is_following():
            return True
        remembered = self.remembered_region()
        if remembered is None:
            self._say("Capture the board first (Ctrl+Shift+C): follow mode watches that region")
            self.following_changed.emit(False)
            return False
        if self._off_screen(remembered.region):
            self.following_changed.emit(False)
            return False
        import vision.follow

        self._follower = vision.follow.Follower(self.game, self.window.state)
        self._follow_analysis = self.window.analysis
        self._followed = remembered
        self._follow_token += 1
        self._follow_busy = False
        self.follow_timer.start()
        self._show_indicator("Following", GOOD_COLOR, "Kibitz plays the moves read off the real game")
        self._say("Following the real game: play there, Kibitz keeps up")
        self.following_changed.emit(True)
        return True

    def stop_following(self, reason: str = "") -> None:
        if not self.is_following():
            return
        self.follow_timer.stop()
        self._follow_token += 1  # the job in flight, if any, is ignored
        self._follower = None
        self._follow_analysis = None
        self._follow_busy = False
        self.indicator.setVisible(False)
        self._clear_note()
        if reason:
            self._say(reason)
        self.following_changed.emit(False)
        self.screen_status.emit(ScreenStatus(STOPPED, reason=reason or "follow mode is off"))

    @property
    def followed(self) -> RememberedRegion | None:
        """The region follow mode watches, where it lies on the screens (None when it does not
        follow)."""
        return self._followed if self.is_following() else None

    def cover(self, hidden: np.ndarray | None, drawn: np.ndarray | None = None) -> None:
        """The advice overlay lies over the region, hiding the game on ``hidden`` and drawing on
        ``drawn`` (bool, the region's pixels): follow mode then only watches for a change where
        the game can be seen, and reads nothing until the overlay has gone. None: the overlay has
        hidden (reads start again shortly)."""
        now = time.monotonic()
        if hidden is None:
            if self._cover is not None:
                self._uncovered_at = now + UNCOVER_SECONDS
            self._cover = None
            return
        self._covers += 1
        self._cover = Cover(hidden, hidden if drawn is None else drawn, self._covers)
        self._covered_from = now + UNCOVER_SECONDS  # looked at once the overlay is surely on the screen

    def analysis_shown(self) -> None:
        """The window shows another analysis: a position loaded by the capture keeps following
        (from it); any other change stops."""
        if not self.is_following() or self.window.analysis is self._follow_analysis:
            return
        if self._adopting and self.window.game is self._follower.game:
            self._follow_analysis = self.window.analysis
            self._follower.reset(self.window.state)
            return
        self.stop_following("Stopped following: another game or analysis is shown")

    def _follow_tick(self) -> None:
        if self._follow_busy or not self.is_following():
            return
        if self.window.analysis is not self._follow_analysis:
            self.stop_following("Stopped following: another game or analysis is shown")
            return
        cover = self._cover
        now = time.monotonic()
        if cover is None and now < self._uncovered_at:
            return  # the overlay has just hidden: its marks may still be on screen
        if cover is not None and now < self._covered_from:
            return  # the overlay has just shown: it may not be on screen yet
        state = self.window.state
        if state != self._follower.state:  # the user moved in Kibitz
            self._follower.reset(state)
        self._follow_busy = True
        self._pool.submit(self._follow_job, self._follower, self._followed.region, state, self._follow_token,
                          cover)

    def _follow_job(self, follower: Any, region: Region, state: Any, token: int, cover: Cover | None = None) -> None:
        """Runs in the worker: grab the region and feed it to the follower (while the overlay
        lies over it, only look for a change where the game can be seen)."""
        event: Any
        image = None
        try:
            image = screen_capture.grab(region)
            if cover is not None:
                event = _Covered(follower.changed_under_overlay(image, cover.hidden, cover.drawn, cover.number))
            else:
                event = follower.feed(image)
        except Exception as error:  # noqa: BLE001 - reported in the window
            event = error
        try:
            self._signals.follow_done.emit(token, state, image, event)
        except RuntimeError:
            pass

    def _follow_done(self, token: int, state: Any, image: np.ndarray | None, event: Any) -> None:
        if token != self._follow_token:
            return
        import vision.follow as follow

        self._follow_busy = False
        if isinstance(event, _Covered):
            if event.changed:
                self.screen_status.emit(ScreenStatus(CHANGING, reason="the board is changing"))
            else:
                self.covered_still.emit()
            return
        self.last_event = event
        if isinstance(event, CaptureUnavailable):
            self.stop_following()
            self._message("Follow mode", "Follow mode needs screen capture, which is not available here.",
                          f"{event}.")
        elif isinstance(event, Exception):
            self.stop_following()
            self._message("Follow mode", f"Follow mode stopped: {_words(event, self.game.short_name)}.", "")
        elif isinstance(event, follow.Played):
            self._moving = False
            self._clear_note()
            self._play_followed(event, state)
            self._report_shown()
        elif isinstance(event, follow.Unexplained):
            self._show_indicator("Following · not explained", DOUBT_COLOR, event.reason)
            self._say(f"Follow: the board read is not explained by a legal move ({event.reason}); the tree is unchanged")
            self._show_note(event, image)
            self.screen_status.emit(ScreenStatus(UNEXPLAINED, reading=event.reading, reason=event.reason))
        elif isinstance(event, follow.NoBoard):
            self._show_indicator("Following · no board", DOUBT_COLOR, event.reason)
            self._say(f"Follow: no board in the region ({event.reason})")
            self.screen_status.emit(ScreenStatus(NO_BOARD, reason=event.reason))
        elif isinstance(event, follow.Settling):
            self._moving = True
            self._show_indicator("Following · moving…", GOOD_COLOR, "The board is changing; read once it is still")
            self.screen_status.emit(ScreenStatus(CHANGING, reason="the board is changing"))
        else:  # Unchanged: nothing new, what the indicator says still holds
            self._report_shown()

    def _report_shown(self) -> None:
        """Say where the screen stands, when the follower has read it."""
        follower = self._follower
        if follower is not None and follower.reading is not None:
            if self._moving:  # read still since: the board is not changing now
                self._moving = False
                self._show_indicator("Following", GOOD_COLOR, "Kibitz plays the moves read off the real game")
            self.screen_status.emit(ScreenStatus(SHOWN, follower.state, follower.reading))

    def _report_lost(self, reason: str) -> None:
        """Say that where the game's position lies on the screen is not known until the next reading."""
        self.screen_status.emit(ScreenStatus(CHANGING, reason=reason))

    def _play_followed(self, event: Any, state: Any) -> None:
        if self.window.analysis is not self._follow_analysis or self.window.state != state:
            return  # the user moved meanwhile: the next tick starts from there
        played = 0
        for move in event.moves:
            if not self.window.play(move):
                self._follower.reset(self.window.state)
                break
            played += 1
        texts = " ".join(self.game.move_text(move) for move in event.moves[:played])
        self._show_indicator("Following", GOOD_COLOR, f"Last: {texts}")
        if not played:
            self._say("Follow: the moves read could not be played")
        elif getattr(event, "alternatives", ()):
            others = "; ".join(" ".join(self.game.move_text(move) for move in line) for line in event.alternatives[:3])
            if event.seen_moving:
                self._say(f"Follow: played {texts}, seen moving on screen ({others} leaves the same board)")
            else:
                self._say(f"Follow: played {texts} — or {others}: they leave the same board and no frame "
                          "caught the move, so the capture cannot tell them apart (the position is right either way)")
        else:
            self._say(f"Follow: played {texts}")

    def _show_indicator(self, text: str, color: QColor, tip: str) -> None:
        self.indicator.setText(f"● {text}")
        self.indicator.setStyleSheet(f"color: {color.darker(130).name()}; font-weight: bold; padding: 0 6px;")
        self.indicator.setToolTip(tip)
        self.indicator.setVisible(True)

    def _show_note(self, event: Any, image: np.ndarray | None) -> None:
        """Flag a reading no legal move explains in the status bar, with a "Load reading"
        button beside the indicator (no window pops up over the real game)."""
        self._unexplained = (event.reading, image)
        self.load_reading_button.setToolTip(
            f"{event.reason}. The tree is unchanged; this starts a new analysis from the board read "
            "(follow mode carries on from there)."
        )
        self.load_reading_button.setVisible(True)

    def _clear_note(self) -> None:
        self._unexplained = None
        self.load_reading_button.setVisible(False)

    def load_unexplained_reading(self) -> None:
        """The status bar's "Load reading": start from the last reading no move explained."""
        if self._unexplained is None:
            return
        reading, image = self._unexplained
        self._clear_note()
        self.load_reading(reading, image)
        if self.is_following():
            self._show_indicator("Following", GOOD_COLOR, "Kibitz plays the moves read off the real game")

    def load_reading(self, reading: Any, image: np.ndarray | None = None) -> None:
        """Start from a reading follow mode could not explain (a sure one at once, a doubtful one
        through the review dialog when its image is known)."""
        if reading.sure or image is None:
            self._load(reading.state, "followed position")
            self._say("Loaded the board read off the game (a new analysis)")
        else:
            self.open_review(reading, image)
