"""The advice drawn over the real game: a click-through window exactly over the captured region.

- :class:`AdviceOverlay` is the window: frameless, always on top, never taking the mouse or the
  keyboard (both pass to the game beneath), transparent but for its marks. Its shape is the marks
  themselves, so even a desktop that cannot blend windows (X11 without a compositing manager)
  shows the game everywhere else; there the marks are drawn solid and a tint becomes a dashed
  outline in its colour.
- :class:`OverlayController` decides when it shows. Only with follow mode on, and only when follow
  mode has explained what the screen shows *and* the window shows that same position *and* the
  advisor has ranked it: advice for a stale position is never drawn. While the overlay lies over
  the region, follow mode reads nothing (the marks are on the screen it grabs) and looks for a
  change wherever the game can be seen, through the tints too; at the first change the overlay
  hides, follow mode reads the game as usual, and the overlay comes back with the advice for the
  position read.

Where the platform forbids a click-through window over other programs (Wayland), it says so and
the advisor panel stays the place to look.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import functools
import math
import os
from typing import Any

import cv2
import numpy as np
from PySide6.QtCore import QEvent, QObject, QPoint, QRect, QSettings, Qt, QTimer, Signal
from PySide6.QtGui import QBitmap, QGuiApplication, QImage, QPainter, QRegion, QScreen
from PySide6.QtWidgets import QApplication, QWidget

from app.gui import capture as capture_module
from app.gui.overlay_marks import render_marks
from vision.reading import CellGrid

OPACITY_KEY = "overlay/opacity"
OPACITIES = (1.0, 0.8, 0.6, 0.4)
DEFAULT_OPACITY = 0.8
#: Pixels added around the marks in follow mode's masks (antialiasing, rounding to the screen's
#: pixels, a desktop's scaling).
COVER_MARGIN = 3
#: A pixel the overlay paints more opaque than this hides the game under it: a change there cannot
#: be seen. Under a lighter one (a tint) the game shows through enough to see a tile or a piece.
HIDING_ALPHA = 150


def overlay_refusal() -> str | None:
    """Why this desktop cannot have the overlay, or None when it can."""
    platform = QGuiApplication.platformName().lower()
    if platform.startswith("wayland"):
        return ("this is a Wayland session: a window there may not stay over other programs' windows nor let "
                "their clicks through, so the advice stays in the advisor panel (Kibitz started with "
                "QT_QPA_PLATFORM=xcb, under XWayland, can draw it over a game that is an X11 window too)")
    return None


@functools.lru_cache(maxsize=1)
def _x11_compositing(display_name: str) -> bool:
    """Whether an X11 screen has a compositing manager (someone owns _NET_WM_CM_S0): only then
    can a window's pixels be blended with what lies under it."""
    library = ctypes.util.find_library("X11")
    if library is None:
        return False
    try:
        xlib = ctypes.cdll.LoadLibrary(library)
        xlib.XOpenDisplay.restype = ctypes.c_void_p
        xlib.XOpenDisplay.argtypes = [ctypes.c_char_p]
        xlib.XInternAtom.restype = ctypes.c_ulong
        xlib.XInternAtom.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_int]
        xlib.XGetSelectionOwner.restype = ctypes.c_ulong
        xlib.XGetSelectionOwner.argtypes = [ctypes.c_void_p, ctypes.c_ulong]
        xlib.XDefaultScreen.argtypes = [ctypes.c_void_p]
        xlib.XCloseDisplay.argtypes = [ctypes.c_void_p]
        display = xlib.XOpenDisplay(display_name.encode() or None)
        if not display:
            return False
        try:
            screen = xlib.XDefaultScreen(display)
            atom = xlib.XInternAtom(display, f"_NET_WM_CM_S{screen}".encode(), 0)
            return bool(xlib.XGetSelectionOwner(display, atom))
        finally:
            xlib.XCloseDisplay(display)
    except (OSError, AttributeError):
        return False


def desktop_blends() -> bool:
    """Whether translucent pixels of a window show the game through them on this desktop."""
    if QGuiApplication.platformName().lower() == "xcb":
        return _x11_compositing(os.environ.get("DISPLAY", ""))
    return True  # Windows, macOS, Wayland compositors and the offscreen platform always blend


def mask_region(alpha: np.ndarray) -> QRegion:
    """The region of the pixels set in ``alpha`` (bool, rows x columns)."""
    if not alpha.any():
        return QRegion()
    height, width = alpha.shape
    grey = np.where(alpha, 0, 255).astype(np.uint8)
    image = QImage(grey.data, width, height, width, QImage.Format.Format_Grayscale8).copy()
    bitmap = QBitmap.fromImage(image, Qt.ImageConversionFlag.ThresholdDither)
    return QRegion(bitmap)


def alpha_values(image: QImage) -> np.ndarray:
    """The alpha (0-255) of every pixel of an ARGB image."""
    # ARGB32 words in memory are B, G, R, A on the little-endian machines Qt runs on
    return capture_module.image_pixels(image, QImage.Format.Format_ARGB32_Premultiplied, 4)[:, :, 3]


def image_alpha(image: QImage) -> np.ndarray:
    """The pixels of an ARGB image that are not fully transparent (bool)."""
    return alpha_values(image) > 0


def grow(mask: np.ndarray, pixels: int) -> np.ndarray:
    if pixels <= 0 or not mask.any():
        return mask
    kernel = np.ones((2 * pixels + 1, 2 * pixels + 1), np.uint8)
    return cv2.dilate(mask.astype(np.uint8), kernel) > 0


class AdviceOverlay(QWidget):
    """The click-through window over the captured region (see the module's docstring)."""

    def __init__(self) -> None:
        flags = (Qt.WindowType.Tool | Qt.WindowType.FramelessWindowHint | Qt.WindowType.WindowStaysOnTopHint
                 | Qt.WindowType.WindowTransparentForInput | Qt.WindowType.WindowDoesNotAcceptFocus
                 | Qt.WindowType.NoDropShadowWindowHint)
        if QGuiApplication.platformName().lower() == "xcb":
            # an X11 window manager wraps a managed window in a frame of its own, and the frame takes
            # the clicks the window lets through; an unmanaged window has no frame (and is raised
            # by us, see OverlayController.refresh)
            flags |= Qt.WindowType.X11BypassWindowManagerHint
        super().__init__(None, flags)
        self.setObjectName("adviceOverlay")
        self.setWindowTitle("Kibitz advice")
        self.setAttribute(Qt.WidgetAttribute.WA_TranslucentBackground, True)
        self.setAttribute(Qt.WidgetAttribute.WA_ShowWithoutActivating, True)
        self.setAttribute(Qt.WidgetAttribute.WA_TransparentForMouseEvents, True)
        self.setAttribute(Qt.WidgetAttribute.WA_NoSystemBackground, True)
        # a tool window on macOS hides when its program is not the active one: the player is in the game
        self.setAttribute(Qt.WidgetAttribute.WA_MacAlwaysShowToolWindow, True)
        self.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        self._image: QImage | None = None
        self._offset = (0.0, 0.0)  # the region's logical corner past the window's whole-pixel one
        self._logical = (0.0, 0.0, 1.0, 1.0)
        self._ratio = 1.0
        self.marks: tuple[Any, ...] = ()
        self.grid: CellGrid | None = None
        #: the window that had the keyboard when the overlay showed (see :meth:`changeEvent`)
        self.return_focus_to: QWidget | None = None

    def place(self, logical: tuple[float, float, float, float], screen: QScreen | None) -> None:
        """Lay the window over ``logical`` (x, y, width, height on the virtual desktop, in Qt's
        logical pixels), on ``screen`` when known."""
        x, y, width, height = logical
        left, top = math.floor(x), math.floor(y)
        right, bottom = math.ceil(x + width), math.ceil(y + height)
        self._offset = (x - left, y - top)
        self._logical = (float(x), float(y), float(width), float(height))
        # the geometry alone puts a top-level window on its screen; QWidget.setScreen is not used:
        # with PySide6 6.11, a screen passed to it and read back from the widget is deleted on
        # the Python side with the widget, and every later use of that screen fails
        self.setGeometry(QRect(left, top, max(1, right - left), max(1, bottom - top)))
        # the screen the region lies on now (a remembered screen name may be stale)
        at = QGuiApplication.screenAt(QPoint(round(x + width / 2), round(y + height / 2)))
        screen = at if at is not None else screen
        self._ratio = float(screen.devicePixelRatio()) if screen is not None else float(self.devicePixelRatioF())

    def device_pixel_ratio(self) -> float:
        return self._ratio

    def draw(self, marks: tuple[Any, ...], grid: CellGrid, translucent: bool,
             opacity: float) -> tuple[np.ndarray, np.ndarray]:
        """Draw ``marks`` on ``grid`` (in the captured image's pixels); returns, in that image's
        pixels (bool), those the marks hide the game on and those they draw on at all, for follow
        mode."""
        self.marks, self.grid = tuple(marks), grid
        ratio = self.device_pixel_ratio()
        _, _, logical_width, logical_height = self._logical
        image_width, image_height = grid.image_size
        device_width = max(1, round(self.width() * ratio))
        device_height = max(1, round(self.height() * ratio))
        scale_x = logical_width * ratio / image_width
        scale_y = logical_height * ratio / image_height
        image = render_marks(marks, grid, device_width, device_height, scale_x, scale_y, translucent,
                             opacity if translucent else 1.0, offset=(self._offset[0] * ratio, self._offset[1] * ratio))
        image.setDevicePixelRatio(ratio)
        self._image = image
        # the window's shape: the marks' logical pixels (a pixel any device pixel of a mark falls in)
        alpha = image_alpha(image)
        logical_mask = cv2.resize(alpha.astype(np.float32), (max(1, self.width()), max(1, self.height())),
                                  interpolation=cv2.INTER_AREA) > 0
        self.setMask(mask_region(grow(logical_mask, 1)))
        self.update()
        in_image = alpha_values(render_marks(marks, grid, image_width, image_height, 1.0, 1.0, translucent,
                                             opacity if translucent else 1.0))
        margin = COVER_MARGIN + math.ceil(max(1.0, 1.0 / max(scale_x, 1e-6)))
        return grow(in_image > HIDING_ALPHA, margin), grow(in_image > 0, margin)

    def drawn_image(self) -> QImage | None:
        """What the window paints (device pixels), for tests and screenshots."""
        return self._image

    def changeEvent(self, event) -> None:  # noqa: N802 (Qt name)
        # a platform that ignores "show without activating" (Qt's offscreen one does): the keyboard
        # goes back to the window that had it
        if event.type() == QEvent.Type.ActivationChange and self.isActiveWindow() \
                and self.return_focus_to is not None:
            QTimer.singleShot(0, self.return_focus_to.activateWindow)
        super().changeEvent(event)

    def paintEvent(self, event) -> None:  # noqa: N802 (Qt name)
        if self._image is None:
            return
        painter = QPainter(self)
        painter.setCompositionMode(QPainter.CompositionMode.CompositionMode_Source)
        painter.drawImage(QPoint(0, 0), self._image)
        painter.end()


class OverlayController(QObject):
    """When the overlay shows, and what it draws (see the module's docstring). The window calls
    :meth:`set_enabled` from its action, :meth:`candidates_shown` whenever the advisor panel shows
    candidates, and puts nothing else in its way; ``enabled_changed`` keeps the action checked."""

    enabled_changed = Signal(bool)
    shown_changed = Signal(bool)

    def __init__(self, window: Any, capture: Any, settings: QSettings) -> None:
        super().__init__(window)
        self.window = window
        self.capture = capture
        self.settings = settings
        self.overlay: AdviceOverlay | None = None
        self.enabled = False
        self.reason = "off"  # why the overlay shows nothing now, in words (tests and the status bar)
        self._status: Any = None  # the last capture_module.ScreenStatus
        self._candidates: tuple[Any, ...] = ()
        self._candidates_state: Any = None
        self._drawn: tuple[Any, Any, Any] | None = None  # (state, candidates, reading) drawn now
        capture.screen_status.connect(self._screen_status)
        capture.covered_still.connect(self._keep_on_top)
        application = QGuiApplication.instance()
        application.screenRemoved.connect(self.screens_changed)
        application.screenAdded.connect(self.screens_changed)

    def screens_changed(self, _screen: Any = None) -> None:
        """A screen came or went (or changed): lay the overlay out again, or hide it."""
        self._drawn = None
        self.refresh()

    def _keep_on_top(self) -> None:
        # the game's window comes to the top when the player clicks it; an unmanaged X11 window
        # is not kept above it by anyone else
        if self.overlay is not None and self.overlay.isVisible():
            self.overlay.raise_()

    # -- settings --------------------------------------------------------------------------------
    @property
    def opacity(self) -> float:
        try:
            value = float(self.settings.value(OPACITY_KEY, DEFAULT_OPACITY))
        except (TypeError, ValueError):
            return DEFAULT_OPACITY
        return min(1.0, max(0.2, value)) if math.isfinite(value) else DEFAULT_OPACITY

    def set_opacity(self, value: float) -> None:
        self.settings.setValue(OPACITY_KEY, f"{min(1.0, max(0.2, float(value))):g}")
        self._drawn = None
        self.refresh()

    # -- turning it on and off --------------------------------------------------------------------
    def set_enabled(self, on: bool) -> bool:
        """Turn the overlay on (with follow mode) or off; returns whether it is on now."""
        if not on:
            self._disable("Advice overlay off")
            return False
        if self.enabled:
            return True
        refusal = overlay_refusal()
        if refusal is not None:
            self.window.show_message(f"No advice overlay: {refusal}", capture_module.MESSAGE_MILLISECONDS)
            self.enabled_changed.emit(False)
            return False
        if self.window.ui.overlay_marks is None:
            self.window.show_message(f"No advice overlay for {self.window.game.title} yet",
                                     capture_module.MESSAGE_MILLISECONDS)
            self.enabled_changed.emit(False)
            return False
        self.enabled = True  # before following starts: its first news must find us on
        if not self.capture.is_following() and not self.capture.set_following(True):
            self.enabled = False
            self.enabled_changed.emit(False)
            return False
        if self.overlay is None:
            self.overlay = AdviceOverlay()
        self.enabled_changed.emit(True)
        self.window.show_message("Advice overlay on: the best move is drawn on the game once the position there is "
                                 "read (it hides while the board changes)", capture_module.MESSAGE_MILLISECONDS)
        self.refresh()
        return True

    def _disable(self, message: str = "") -> None:
        was = self.enabled
        self.enabled = False
        self._hide("off")
        if self.overlay is not None:
            self.overlay.close()
            self.overlay.deleteLater()
            self.overlay = None
        if was:
            if message:
                self.window.show_message(message, capture_module.MESSAGE_MILLISECONDS)
            self.enabled_changed.emit(False)

    def is_shown(self) -> bool:
        return self.overlay is not None and self.overlay.isVisible()

    # -- what it learns ----------------------------------------------------------------------------
    def _screen_status(self, status: Any) -> None:
        previous = self._status
        self._status = status
        if not self.enabled:
            return
        if status.kind == capture_module.STOPPED:
            self._disable(f"Advice overlay off: follow mode stopped ({status.reason})")
            return
        if status.kind in (capture_module.NO_BOARD, capture_module.UNEXPLAINED) and (
                previous is None or previous.kind != status.kind):
            words = ("no board in the captured region (has the game's window moved? Capture it again)"
                     if status.kind == capture_module.NO_BOARD else "the board read is not explained by a legal move")
            self.window.show_message(f"Advice overlay hidden: {words}", capture_module.MESSAGE_MILLISECONDS)
        self.refresh()

    def candidates_shown(self, candidates: Any) -> None:
        """The advisor panel shows ``candidates`` for the window's position."""
        self._candidates = tuple(candidates)
        self._candidates_state = self.window.state
        if self.enabled:
            self.refresh()

    # -- deciding --------------------------------------------------------------------------------
    def refresh(self) -> None:
        """Show the advice if everything says it is the advice for what the game shows now."""
        if not self.enabled or self.overlay is None:
            return
        status = self._status
        window_state = self.window.state
        if status is None or status.kind != capture_module.SHOWN:
            kind = "not read yet" if status is None else status.kind
            self._hide(f"the game's position is not known ({kind})")
            return
        if status.state != window_state:
            self._hide("the window shows another position than the game")
            return
        if self._candidates_state != window_state or not self._candidates:
            self._hide("no advice for this position yet")
            return
        grid = status.reading.cell_grid if status.reading is not None else None
        if grid is None:
            self._hide("the reading does not say where the cells are")
            return
        key = (window_state, self._candidates, status.reading)
        if self._drawn is not None and self._drawn[0] == key[0] and self._drawn[1] is key[1] \
                and self._drawn[2] is key[2] and self.overlay.isVisible():
            return  # drawn already (follow mode says so every time it reads the same game)
        followed = self.capture.followed
        if followed is None:
            self._hide("no captured region")
            return
        if capture_module.region_off_screen(followed.region):
            self._hide("the captured region lies off every screen")
            self.window.show_message("Advice overlay hidden: the captured region lies off every screen now",
                                     capture_module.MESSAGE_MILLISECONDS)
            return
        marks = self.window.ui.overlay_marks(self.window.game, window_state, self._candidates)
        if not marks:
            self._hide("nothing to draw for this position")
            return
        self.overlay.place(followed.logical, self._screen_named(followed.screen))
        hidden, drawn = self.overlay.draw(marks, grid, desktop_blends(), self.opacity)
        self.capture.cover(hidden, drawn)
        self._drawn = key
        self.reason = "shown"
        if not self.overlay.isVisible():
            active = QApplication.activeWindow()
            self.overlay.return_focus_to = active if active is not self.overlay else None
            self.overlay.show()
            self.overlay.raise_()
            self.shown_changed.emit(True)

    def _hide(self, reason: str) -> None:
        self.reason = reason
        self._drawn = None
        if self.overlay is not None and self.overlay.isVisible():
            self.overlay.hide()
            self.shown_changed.emit(False)
        self.capture.cover(None)

    @staticmethod
    def _screen_named(name: str) -> QScreen | None:
        for screen in QGuiApplication.screens():
            if screen.name() == name:
                return screen
        return None
