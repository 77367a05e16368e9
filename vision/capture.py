"""Screen capture: a region of the screen as a BGR numpy image (mss; physical pixels).

Regions are in the capture backend's own units: ``mss`` counts physical pixels on X11 and on
Windows (DPI-aware) and points on macOS, where it returns the Retina pixels of the region. The app
picks regions in Qt's logical coordinates; :func:`to_monitor_region` converts one to the units of
the monitor it lies on, whatever the screen's device-pixel ratio.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

import numpy as np

from engines.errors import KibitzInputError
from engines.limits import check_int, parse_int
from vision.images import oversized

#: Screen coordinates and sizes are 32-bit on every platform.
COORDINATE_LIMIT = 2 ** 31 - 1


class CaptureUnavailable(RuntimeError):
    """The platform gave no pixels (e.g. Wayland without a screenshot portal); the message says
    why, so the app can offer to open a screenshot file or paste an image instead."""


@dataclasses.dataclass(frozen=True)
class Region:
    """A rectangle of the screen in the capture backend's units (left, top, width, height)."""

    left: int
    top: int
    width: int
    height: int

    def __post_init__(self) -> None:
        for field in ("left", "top", "width", "height"):
            check_int(getattr(self, field), f"a capture region's {field}", -COORDINATE_LIMIT, COORDINATE_LIMIT)
        if self.width <= 0 or self.height <= 0:
            raise KibitzInputError(f"a capture region needs a positive size, not {self.width} x {self.height}")
        too_large = oversized(self.width, self.height)
        if too_large:  # refused before the backend allocates it (a damaged remembered region, say)
            raise KibitzInputError(f"capture region: {too_large}")

    def as_list(self) -> list[int]:
        return [self.left, self.top, self.width, self.height]

    @classmethod
    def from_list(cls, values: Sequence[int]) -> Region:
        """A region from four whole numbers (or their decimal texts, as settings store them)."""
        if len(values) != 4:
            raise KibitzInputError(f"a capture region is [left, top, width, height], not {list(values)!r}"[:200])
        fields = ("left", "top", "width", "height")
        return cls(*(_whole(value, f"a capture region's {field}") for value, field in zip(values, fields)))


def _whole(value: object, field: str) -> int:
    if isinstance(value, str):
        return parse_int(value.strip(), field, -COORDINATE_LIMIT, COORDINATE_LIMIT)
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    return check_int(value, field, -COORDINATE_LIMIT, COORDINATE_LIMIT)


@dataclasses.dataclass(frozen=True)
class Monitor:
    """One monitor as the capture backend sees it (its own units)."""

    left: int
    top: int
    width: int
    height: int


def _backend():
    """mss's screen grabber (``mss.MSS`` since mss 10.2; ``mss.mss`` before, deprecated since)."""
    import mss

    return mss.MSS() if hasattr(mss, "MSS") else mss.mss()


def monitors() -> list[Monitor]:
    """Every monitor the backend sees (not the combined virtual screen)."""
    try:
        with _backend() as screen:
            return [Monitor(m["left"], m["top"], m["width"], m["height"]) for m in screen.monitors[1:]]
    except Exception as error:  # mss raises its own ScreenShotError and OS errors per platform
        raise CaptureUnavailable(f"the screen cannot be captured here: {error}") from error


def on_a_monitor(region: Region, screens: Sequence[Monitor]) -> bool:
    """True when ``region`` overlaps one of ``screens`` (a region remembered before a monitor
    was unplugged or moved may lie off every one)."""
    return any(region.left < m.left + m.width and m.left < region.left + region.width
               and region.top < m.top + m.height and m.top < region.top + region.height for m in screens)


def to_monitor_region(
    logical: tuple[float, float, float, float],
    screen_geometry: tuple[float, float, float, float],
    monitor: Monitor,
) -> Region:
    """Convert a rectangle in Qt logical coordinates on one screen (``screen_geometry``, also
    logical) to the backend's units on that screen's ``monitor``. The scale is the monitor's
    width over the screen's logical width: the device-pixel ratio where the backend counts
    physical pixels, 1 where it counts points."""
    x, y, width, height = logical
    screen_x, screen_y, screen_width, screen_height = screen_geometry
    scale_x = monitor.width / screen_width
    scale_y = monitor.height / screen_height
    left = monitor.left + round((x - screen_x) * scale_x)
    top = monitor.top + round((y - screen_y) * scale_y)
    right = monitor.left + round((x + width - screen_x) * scale_x)
    bottom = monitor.top + round((y + height - screen_y) * scale_y)
    return Region(left, top, max(1, right - left), max(1, bottom - top))


def grab(region: Region | Sequence[int]) -> np.ndarray:
    """The pixels of ``region`` as an H x W x 3 uint8 BGR array.

    Raises :class:`CaptureUnavailable` when the platform returns nothing usable (no display, a
    Wayland session without a portal, a region off every screen, or all-black screens as some
    compositors give instead of refusing; a black region on a screen that is not all black is
    returned as it is)."""
    if not isinstance(region, Region):
        region = Region.from_list(region)
    try:
        with _backend() as screen:
            shot = screen.grab({"left": region.left, "top": region.top,
                                "width": region.width, "height": region.height})
            pixels = np.asarray(shot, dtype=np.uint8)
            # a black region may simply be black (an empty HATETRIS well); only when every monitor
            # is black too is the platform withholding the pixels
            withheld = not pixels[:, :, :3].any() and not any(
                np.asarray(screen.grab(monitor), dtype=np.uint8)[:, :, :3].any() for monitor in screen.monitors[1:])
    except Exception as error:
        raise CaptureUnavailable(f"the screen cannot be captured here: {error}") from error
    if pixels.ndim != 3 or pixels.shape[0] == 0 or pixels.shape[1] == 0:
        raise CaptureUnavailable("the screen capture returned no pixels")
    if withheld:
        raise CaptureUnavailable(
            "the screen capture returned an all-black screen (a Wayland session without a screenshot "
            "portal does this): open a screenshot file or paste an image instead")
    image = np.ascontiguousarray(pixels[:, :, :3])
    return image
